"""Actions and observations: the encoding against whole moves, masks, and the tensors."""

import numpy as np
import pytest

import perfectplay as pp
from perfectplay import _core
from _helpers import random_states


def test_states_agree_with_the_engine(game_id):
    """At every step of random games (by actions, and by whole moves from a position string),
    the history rules, the legal actions, what each leads to, and the observation equal the
    rules engine's (its GameState and ActionGame)."""
    game = pp.load_game(game_id, ply_limit=300)
    for seed in range(4):
        for state in random_states(game, seed, 400):
            _core._self_check(state)
        _core._self_check(state)
        while state.ply() > 150:
            state.undo()
        _core._self_check(state)
        again = game.state_from_fen(state.fen())
        for state in random_states_from(again, seed, 200):
            _core._self_check(state)


def random_states_from(state, seed, plies):
    import random

    rng = random.Random(seed)
    yield state
    for _ in range(plies):
        if state.is_terminal():
            return
        state.apply(rng.choice(state.legal_moves()))
        yield state


def test_actions_replay_every_legal_move(game_id):
    game = pp.load_game(game_id)
    for seed in range(2):
        for state in random_states(game, seed, 120, actions=False):
            if state.is_terminal():
                break
            first_actions = set()
            for move in state.legal_moves():
                by_move = state.clone()
                by_move.apply(move)
                by_actions = state.clone()
                actions = state.move_actions(move)
                first_actions.add(actions[0])
                for i, action in enumerate(actions):
                    assert action in by_actions.legal_actions()
                    assert isinstance(by_actions.action_to_string(action), str)
                    by_actions.apply_action(action)
                    assert by_actions.is_mid_turn() == (i + 1 < len(actions))
                assert by_actions.fen() == by_move.fen()
                assert by_actions.history() == by_move.history()
                assert by_actions.legal_actions() == by_move.legal_actions()
            assert sorted(first_actions) == state.legal_actions()


def test_masks_match_legal_actions(game_id):
    game = pp.load_game(game_id)
    for state in random_states(game, 11, 200):
        mask = state.legal_action_mask()
        assert mask.dtype == np.bool_
        assert mask.shape == (game.num_distinct_actions(),)
        assert list(np.flatnonzero(mask)) == state.legal_actions()


def test_observations_have_the_documented_shape(game_id):
    game = pp.load_game(game_id)
    for state in random_states(game, 5, 50):
        obs = state.observation()
        assert obs.dtype == np.float32
        assert obs.shape == game.observation_shape()
        assert np.all((obs >= 0) & (obs <= 1))


def test_checkers_observation_planes():
    state = pp.load_game("checkers").new_initial_state()
    obs = state.observation()
    assert obs[0].sum() == 12 and obs[2].sum() == 12
    assert obs[0, 5:].sum() == 12, "own men at the bottom, the player to move plays up"
    assert obs[1].sum() == 0 and obs[3].sum() == 0 and obs[4].sum() == 0


def test_checkers_capture_is_one_action_per_jump():
    state = pp.load_game("checkers").state_from_fen("B:W14,15,22,23:BK10")
    assert state.current_player() == 0
    first = state.legal_actions()
    assert len(first) == 2
    state.apply_action(first[0])
    assert state.is_mid_turn() and state.current_player() == 0
    assert state.observation()[4].sum() == 1
    assert "x" in state.action_to_string(state.legal_actions()[0])
    with pytest.raises(pp.IllegalMoveError, match="half made"):
        state.apply("10x17x26x19x10")
    assert state.undo() is None
    assert not state.is_mid_turn()
    for action in state.move_actions(state.legal_moves()[0]):
        state.apply_action(action)
    assert state.ply() == 1 and state.fen() == "W:W:BK10"
    assert state.outcome().winner == 0 and state.outcome().reason == "no men"


def test_apply_and_move_actions_take_the_move_by_keyword_as_documented():
    state = pp.load_game("checkers").new_initial_state()
    eleven_fifteen = next(m for m in state.legal_moves() if str(m) == "11-15")
    actions = state.move_actions(move=eleven_fifteen)
    state.apply(move="11-15")
    assert state.history() == [eleven_fifteen]
    replayed = pp.load_game("checkers").new_initial_state()
    for action in actions:
        replayed.apply_action(action)
    assert replayed == state
    with pytest.raises(TypeError):
        state.apply(mv="22-18")


def test_move_actions_refuses_a_move_not_legal_there():
    nine = pp.load_game("nine_mens_morris").new_initial_state()
    three = pp.load_game("three_mens_morris").new_initial_state()
    g1 = next(m for m in nine.legal_moves() if str(m) == "g1")
    # The point g1 is not on the 9-point board: its actions would be another move here.
    with pytest.raises(pp.IllegalMoveError, match="g1"):
        three.move_actions(g1)
    checkers = pp.load_game("checkers").new_initial_state()
    later = checkers.clone()
    later.apply("11-15")
    black_again = next(m for m in later.legal_moves())
    with pytest.raises(pp.IllegalMoveError):
        checkers.move_actions(black_again)
    with pytest.raises(pp.IllegalMoveError, match="family|checkers"):
        three.move_actions(black_again)


def test_morris_removal_is_its_own_action():
    state = pp.load_game("nine_mens_morris").new_initial_state()
    for move in ["a1", "d7", "a4", "g7"]:
        state.apply(move)
    a7 = state.legal_actions()[[state.action_to_string(a) for a in state.legal_actions()].index("a7")]
    state.apply_action(a7)
    assert state.is_mid_turn() and state.current_player() == 0
    obs = state.observation()
    assert obs[5].all(), "the removal plane is on"
    removals = [state.action_to_string(a) for a in state.legal_actions()]
    assert sorted(removals) == ["d7", "g7"]
    state.apply_action(state.legal_actions()[removals.index("d7")])
    assert str(state.history()[-1]) == "a7xd7"
    assert state.current_player() == 1


def test_illegal_actions_name_the_legal_ones():
    state = pp.load_game("checkers").new_initial_state()
    before = state.fen()
    for bad in [0, 127, 128, -1, 10_000]:
        with pytest.raises(pp.IllegalActionError) as err:
            state.apply_action(bad)
        assert isinstance(err.value, ValueError)
        assert str(bad) in str(err.value)
        assert str(state.legal_actions()) in str(err.value)
    assert state.fen() == before and state.ply() == 0
    assert state.action_to_string(4 * 10 + 3) == "11-16"
    assert state.action_to_string(0) == "invalid"


def test_child_leaves_the_parent_alone():
    state = pp.load_game("six_mens_morris").new_initial_state()
    child = state.child(state.legal_actions()[0])
    assert child.ply() == 1 and state.ply() == 0
