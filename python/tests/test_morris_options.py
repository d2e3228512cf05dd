"""The twelve-man sheet's "they can capture" taken at its word (`capture="optional"`):
everywhere options go (rules, State, notation, actions, VectorEnv, tables)."""

import pytest

import perfectplay as pp
from perfectplay import _core
from _helpers import random_states

OPTIONAL = {"capture": "optional"}

# The twelve-man sheet's nine-man variation, White to move: d7-d6 closes b6-d6-f6 and fills
# the last point Black's men could move to. Declining the capture wins at once (a blocked
# player loses); taking any man frees a point next to another black man.
BLOCKING = ".W./W.W/BBB/W.WW../.../.W./BBW w 0 0"
PASS = 24  # the pass action on the 24-point board
MEN = ["c5", "d5", "e5", "a1", "d1"]


def test_the_option_is_listed_with_compulsory_the_default():
    names = [option[0] for option in pp.load_game("twelve_mens_morris").rule_options()]
    assert "capture" in names
    assert pp.load_game("twelve_mens_morris").rules()["capture"] == "compulsory"
    assert pp.load_game("twelve_mens_morris", **OPTIONAL).rules()["capture"] == "optional"
    with pytest.raises(ValueError, match="compulsory or optional"):
        pp.load_game("twelve_mens_morris", capture="sometimes")


def test_a_capture_is_declined_by_the_bare_move_or_a_pass_at_the_removal():
    game = pp.load_game("nine_mens_morris_no_flying", **OPTIONAL)
    state = game.state_from_fen(BLOCKING)
    moves = sorted(str(m) for m in state.legal_moves() if str(m).startswith("d7-d6"))
    assert moves == sorted(["d7-d6"] + [f"d7-d6x{p}" for p in MEN])
    step = state.string_to_action("d7-d6")
    state.apply_action(step)
    assert state.is_mid_turn()
    assert PASS in state.legal_actions() and state.action_to_string(PASS) == "pass"
    state.apply_action(PASS)
    assert not state.is_mid_turn()
    assert [str(m) for m in state.history()] == ["d7-d6"]
    assert state.is_terminal() and state.outcome().winner == 0
    assert state.outcome().reason == "no moves"
    # The whole move, by its text and its actions; a capture lets Black move.
    again = game.state_from_fen(BLOCKING)
    declined = next(m for m in again.legal_moves() if str(m) == "d7-d6")
    assert again.move_actions(declined) == [step, PASS]
    for man in MEN:
        taken = game.state_from_fen(BLOCKING)
        taken.apply(f"d7-d6x{man}")
        assert not taken.is_terminal(), man
    again.apply("d7-d6")
    assert again.fen() == state.fen()
    # Under the default the bare move names no turn of its own (five captures match it), and
    # the removal has no pass.
    standard = pp.load_game("nine_mens_morris_no_flying").state_from_fen(BLOCKING)
    assert "d7-d6" not in [str(m) for m in standard.legal_moves()]
    with pytest.raises(ValueError, match="closes a mill"):
        standard.apply("d7-d6")
    standard.apply_action(step)
    assert PASS not in standard.legal_actions()


def test_random_games_agree_with_the_engine():
    for game_id in ["twelve_mens_morris", "shah", "six_mens_morris"]:
        game = pp.load_game(game_id, ply_limit=200, **OPTIONAL)
        for seed in range(3):
            for state in random_states(game, seed, 300):
                _core._self_check(state)


def test_the_vector_env_agrees_with_states_under_the_option():
    from test_vector_env import crosscheck

    assert crosscheck("twelve_mens_morris", 8, 400, seed=3, **OPTIONAL) > 0


def test_tables_built_under_the_option_value_its_games(tmp_path):
    """Four men a side on the 16-point board, the whole game: the loser here declines captures
    to last longer (Black wins in 9 plies, not 7). The explicit-graph cross-check in
    crates/solver/tests/reference_solver.rs covers the same game position by position."""
    fen = "W.B/.../..WB/.../W.. b 1 2"
    found = {}
    for capture in ["optional", "compulsory"]:
        out = tmp_path / capture
        pp.tablebase.build(
            "six_mens_morris", out, whole_game=True, progress=False, men=4, capture=capture
        )
        with pp.tablebase.open(out) as tb:
            # Read from the headers: the preset they differ least from, with their options.
            assert tb.game.id == "six_mens_morris" and tb.game.rules()["men"] == 4
            assert tb.game.rules()["capture"] == capture
            value = tb.probe(tb.game.state_from_fen(fen))
            found[capture] = (value.wdl, value.plies)
    assert found == {"optional": (1, 9), "compulsory": (1, 7)}
    # Tables of one reading do not answer for the other.
    standard = pp.load_game("six_mens_morris", men=4).state_from_fen(fen)
    with pp.tablebase.open(tmp_path / "optional") as tb:
        with pytest.raises(pp.TablebaseError, match="rules"):
            tb.probe(standard)


def test_the_nine_man_variation_read_literally_moves_along_diagonals_without_mills():
    literal = {"diagonals": True, "diagonal_mills": False}
    game = pp.load_game("nine_mens_morris_no_flying", **literal)
    assert game.rules()["diagonal_mills"] is False
    assert pp.load_game("nine_mens_morris_no_flying").rules()["diagonal_mills"] is True
    # White's c4-c5 completes the diagonal line a7-b6-c5: no mill, nothing taken.
    state = game.state_from_fen("W../W../..B/..W.B./.B./.B./..W w 0 0")
    moves = [str(m) for m in state.legal_moves()]
    assert "b6-c5" in moves and "g1-f2" in moves
    assert [m for m in moves if m.startswith("c4-c5")] == ["c4-c5"]
    twelve = pp.load_game("nine_mens_morris_no_flying", diagonals=True)
    moves = [str(m) for m in twelve.state_from_fen(state.fen()).legal_moves()]
    assert sorted(m for m in moves if m.startswith("c4-c5")) == [
        "c4-c5xd2", "c4-c5xd3", "c4-c5xe5", "c4-c5xf4",
    ]
    with pytest.raises(ValueError, match="diagonal_mills=false needs diagonals=true"):
        pp.load_game("nine_mens_morris_no_flying", diagonal_mills=False)


def test_games_that_play_alike_are_equal_whatever_id_loaded_them():
    morabaraba = pp.load_game("morabaraba")
    same = pp.load_game("nine_mens_morris", men=12, diagonals=True)
    assert same == morabaraba and hash(same) == hash(morabaraba)
    assert (same.id, morabaraba.id) == ("nine_mens_morris", "morabaraba")
    assert same != pp.load_game("morabaraba", capture="optional")
    # So a state of one starts games of the other.
    from perfectplay._games import game_mismatch

    assert game_mismatch(same.new_initial_state().game, morabaraba) is None
    why = game_mismatch(pp.load_game("twelve_mens_morris"), morabaraba)
    assert "flying" in why and "removal" in why
