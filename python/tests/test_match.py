"""perfectplay.match: matches between two players, sides kept, alternated or drawn by lot, a
chess clock, scores as numpy arrays."""

import time

import numpy as np
import pytest

import perfectplay as pp


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    out = tmp_path_factory.mktemp("three")
    pp.tablebase.build("three_mens_morris", out, whole_game=True, progress=False)
    with pp.tablebase.open(out) as tb:
        yield tb


def test_perfect_play_against_random_never_loses_and_wins_every_game_it_begins(three):
    result = pp.match("three_mens_morris", ["perfect", "random"], games=8, alternate=True,
                      tablebase=three, seed=3)
    assert list(result["first"]) == [0, 1] * 4
    began = result["first"] == 0
    assert (result["winner"][began] == 0).all(), result
    assert not (result["winner"] == 1).any(), result
    wins, draws, losses, unfinished = result["score"][0]
    assert (losses, unfinished) == (0, 0) and wins >= 4
    assert result["points"][0] == wins + 0.5 * draws
    assert result["score"].sum(axis=1).tolist() == [8, 8]


def test_the_tables_may_be_given_as_their_directory(three):
    by_path = pp.match("three_mens_morris", ["perfect", "random"], games=4, alternate=True,
                       tablebase=three.directories[0], seed=3)
    by_tables = pp.match("three_mens_morris", ["perfect", "random"], games=4, alternate=True,
                         tablebase=three, seed=3)
    assert (by_path["winner"] == by_tables["winner"]).all()


def test_a_match_repeats_with_its_seed_and_the_lots_vary():
    a = pp.match("three_mens_morris", ["random", "random"], games=16, draw_lots=True, seed=5)
    b = pp.match("three_mens_morris", ["random", "random"], games=16, draw_lots=True, seed=5)
    for key in ("first", "winner", "plies"):
        np.testing.assert_array_equal(a[key], b[key])
    assert 0 < a["first"].sum() < 16


def test_policies_answer_moves_notation_or_actions():
    def first_action(state):
        return state.legal_actions()[0]

    def first_notation(state):
        return str(state.legal_moves()[0])

    result = pp.match("nine_mens_morris", [first_action, first_notation], games=2,
                      max_plies=30)
    assert list(result["winner"]) == [-2, -2]
    assert result["reason"] == ["max_plies", "max_plies"]
    assert (result["plies"] == 30).all()
    assert result["score"][:, 3].tolist() == [2, 2]


def test_a_player_whose_clock_runs_out_loses():
    def slow(state):
        time.sleep(0.02)
        return state.legal_actions()[0]

    result = pp.match("checkers", [slow, "random"], games=2, alternate=True, clock=0.05)
    assert list(result["winner"]) == [1, 1]
    assert result["reason"] == ["clock", "clock"]
    assert (result["thinking"][:, 0] >= 0.05).all()


def test_bad_arguments():
    with pytest.raises(ValueError, match="two players"):
        pp.match("checkers", ["random"])
    with pytest.raises(ValueError, match="tablebase"):
        pp.match("checkers", ["perfect", "random"])
    with pytest.raises(ValueError, match="choose one"):
        pp.match("checkers", ["random", "random"], alternate=True, draw_lots=True)
    with pytest.raises(ValueError, match="unknown player"):
        pp.match("checkers", ["random", "genius"])
    with pytest.raises(ValueError, match="clock"):
        pp.match("checkers", ["random", "random"], clock=0)
    morris = pp.load_game("nine_mens_morris").new_initial_state()
    with pytest.raises(ValueError, match="a state of nine_mens_morris cannot start games of checkers"):
        pp.match("checkers", ["random", "random"], start=morris)
    shorter = pp.load_game("checkers", ply_limit=20).new_initial_state()
    with pytest.raises(ValueError, match="ply_limit=20"):
        pp.match("checkers", ["random", "random"], start=shorter)
    with pytest.raises(TypeError, match="not list"):
        pp.match("checkers", ["random", "random"], start=[])
    # Counts are integers exactly: no bool taken for 1, no float compared with plies.
    for bad in ({"games": True}, {"games": 2.0}, {"max_plies": 2.5}, {"seed": 1.5}):
        with pytest.raises(TypeError, match="must be an integer"):
            pp.match("checkers", ["random", "random"], **bad)
    for plies in (0, -1):
        with pytest.raises(ValueError, match="max_plies must be at least 1"):
            pp.match("checkers", ["random", "random"], max_plies=plies)
