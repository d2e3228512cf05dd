"""The state API: games, moves, position strings, outcomes and errors."""

import copy
import pickle

import numpy as np
import pytest

import perfectplay as pp
from _helpers import MORRIS_IDS, random_states


def test_game_ids_and_aliases():
    ids = pp.game_ids()
    assert ids[0] == "checkers"
    assert "nine_mens_morris" in ids and "three_mens_morris" in ids
    assert "cowboy_checkers" not in ids
    assert "cowboy_checkers" in pp.game_ids(aliases=True)
    game = pp.load_game("cowboy_checkers")
    assert game.id == "nine_mens_morris"
    assert game == pp.load_game("nine_mens_morris")
    assert hash(game) == hash(pp.load_game("Nine_Mens_Morris"))


def test_every_game_names_its_family():
    families = {game_id: pp.load_game(game_id).family for game_id in pp.game_ids()}
    assert families.pop("checkers") == "checkers"
    assert set(families.values()) == {"morris"}
    assert pp.load_game("lasker").family == "morris"


def test_game_description(game_id):
    game = pp.load_game(game_id)
    assert game.num_players() == 2
    shape = game.observation_shape()
    assert isinstance(shape, tuple)
    if game_id == "checkers":
        assert shape == (5, 8, 8)
        assert game.num_distinct_actions() == 128
    else:
        points = game.rules()["board"]
        assert shape == (7, points)
        assert game.num_distinct_actions() == points + points * points
    assert repr(game) == f'perfectplay.load_game("{game_id}")'


@pytest.mark.parametrize(
    "game_id,counts",
    [
        ("checkers", [1, 7, 49, 302, 1469]),
        ("nine_mens_morris", [1, 24, 552, 12144]),
    ],
)
def test_perft_matches_the_engine(game_id, counts):
    game = pp.load_game(game_id)
    state = game.new_initial_state()
    for depth, count in enumerate(counts):
        assert game.perft(state, depth) == count


def test_perft_by_moves_matches_perft():
    for game_id in ["checkers", "twelve_mens_morris"]:
        game = pp.load_game(game_id)
        state = game.new_initial_state()
        total = 0
        for move in state.legal_moves():
            child = state.clone()
            child.apply(move)
            total += sum(1 for _ in child.legal_moves())
        assert total == game.perft(state, 2)


def test_rule_options_as_keywords():
    game = pp.load_game("twelve_mens_morris", removal="mill_immunity", ply_limit=200)
    rules = game.rules()
    assert rules["removal"] == "mill_immunity"
    assert rules["ply_limit"] == 200
    assert rules["diagonals"] is True
    assert pp.load_game("nine_mens_morris", flying=None).rules()["flying"] is None
    checkers = pp.load_game("checkers", adjudication=True, first_player="white")
    assert checkers.rules()["adjudication"] is True
    assert checkers.rules()["first_player"] == "white"
    assert "adjudication=True" in repr(checkers)
    names = [name for name, _, _ in checkers.rule_options()]
    assert names == list(checkers.rules())


def test_unknown_game_lists_the_valid_ids():
    with pytest.raises(pp.UnknownGameError) as err:
        pp.load_game("chess")
    assert isinstance(err.value, ValueError)
    for game_id in pp.game_ids(aliases=True):
        assert game_id in str(err.value)


def test_bad_rule_options_are_value_errors():
    with pytest.raises(ValueError, match="first_player, threefold_repetition"):
        pp.load_game("checkers", wings=3)
    with pytest.raises(ValueError, match="removal"):
        pp.load_game("nine_mens_morris", wings=3)
    with pytest.raises(ValueError, match="black or white"):
        pp.load_game("checkers", first_player="red")
    with pytest.raises(ValueError, match="bool, int, str or None"):
        pp.load_game("checkers", ply_limit=1.5)
    with pytest.raises(ValueError, match="diagonal"):
        pp.load_game("six_mens_morris", diagonals=True)
    with pytest.raises(ValueError, match="men"):
        pp.load_game("nine_mens_morris", men=13)


def test_checkers_moves_and_board():
    game = pp.load_game("checkers")
    state = game.new_initial_state()
    assert state.current_player() == 0
    moves = state.legal_moves()
    assert [str(m) for m in moves] == ["9-13", "10-14", "11-15", "12-16", "9-14", "10-15", "11-16"]
    assert repr(moves[2]) == 'Move("11-15")'
    assert moves[2] == moves[2] and moves[2] != moves[3]
    assert len({*moves, *state.legal_moves()}) == 7
    state.apply("11-15")
    state.apply(state.legal_moves()[0])
    assert [str(m) for m in state.history()] == ["11-15", "22-17"]
    assert state.ply() == 2
    assert state.current_player() == 0
    assert "black to move" in str(state)
    assert str(state).splitlines()[0] == "    b   b   b   b     1  2  3  4"
    assert state._repr_svg_().startswith("<svg")
    assert repr(state).startswith("<perfectplay.State checkers")
    assert state.game == game


def test_short_capture_notation():
    state = pp.load_game("checkers").state_from_fen("W:W27:B23,14")
    state.apply("27x9")
    assert str(state.history()[0]) == "27x18x9"
    assert state.history()[0].is_capture


def test_morris_moves_and_board():
    game = pp.load_game("nine_mens_morris")
    state = game.new_initial_state()
    assert len(state.legal_moves()) == 24
    for move in ["a1", "d7", "a4", "g7"]:
        state.apply(move)
    state.apply("a7xd7")
    assert str(state.history()[-1]) == "a7xd7"
    assert state.history()[-1].family == "morris"
    assert "in hand: white 6, black 7" in str(state)
    assert state.fen().split()[1:] == ["b", "6", "7", "0", "-", "-"]
    assert state.fen().count("W") == 3 and state.fen().count("B") == 1


@pytest.mark.parametrize(
    "game_id,fen",
    [
        ("checkers", "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"),
        ("checkers", "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"),
        ("nine_mens_morris", "W.B/.../.../....../.../.../... b 8 8 3 - -"),
        ("twelve_mens_morris", "WBW/.../.B./W....B/.../.../... w 9 9 0 - -"),
        ("shah", ".../.../.../....../.../.../... w 12 12 0 - -"),
    ],
)
def test_fen_round_trips(game_id, fen):
    game = pp.load_game(game_id)
    assert game.state_from_fen(fen).fen() == fen


def test_fen_round_trips_along_random_games(game_id):
    game = pp.load_game(game_id)
    for seed in range(3):
        for state in random_states(game, seed, 150, actions=False):
            again = game.state_from_fen(state.fen())
            assert again.fen() == state.fen()
            assert [str(m) for m in again.legal_moves()] == [str(m) for m in state.legal_moves()]


def test_morris_fen_defaults_its_optional_fields():
    state = pp.load_game("nine_mens_morris").state_from_fen("W.B/.../.../....../.../.../... b 8 8 3")
    assert state.fen() == "W.B/.../.../....../.../.../... b 8 8 3 - -"
    assert state.current_player() == 1


@pytest.mark.parametrize(
    "game_id,fen",
    [
        ("checkers", "X:W21-32:B1-12"),
        ("checkers", "B:W21,33:B1"),
        ("checkers", ""),
        ("nine_mens_morris", "W.B/.../... w 9 9"),
        ("nine_mens_morris", "WWWWWWWWWW/.../.../....../.../.../... w 9 9 0"),
    ],
)
def test_bad_fen_is_an_invalid_position_error(game_id, fen):
    with pytest.raises(pp.InvalidPositionError) as err:
        pp.load_game(game_id).state_from_fen(fen)
    assert isinstance(err.value, ValueError)


@pytest.mark.parametrize("game_id,move", [("checkers", "11-16x"), ("checkers", "1-5"), ("checkers", "24-28"), ("nine_mens_morris", "a1-a4"), ("nine_mens_morris", "h9")])
def test_illegal_move_leaves_the_state_unchanged(game_id, move):
    state = pp.load_game(game_id).new_initial_state()
    state.apply(state.legal_moves()[0])
    before = (state.fen(), state.ply(), [str(m) for m in state.history()], state.legal_actions())
    with pytest.raises(pp.IllegalMoveError) as err:
        state.apply(move)
    assert isinstance(err.value, ValueError)
    after = (state.fen(), state.ply(), [str(m) for m in state.history()], state.legal_actions())
    assert before == after


def test_moves_of_the_other_family_are_refused():
    checkers = pp.load_game("checkers").new_initial_state()
    morris = pp.load_game("nine_mens_morris").new_initial_state()
    with pytest.raises(pp.IllegalMoveError, match="morris"):
        checkers.apply(morris.legal_moves()[0])
    with pytest.raises(TypeError):
        checkers.apply(42)


def test_clone_and_copy_are_independent():
    state = pp.load_game("checkers").new_initial_state()
    for other in [state.clone(), copy.copy(state), copy.deepcopy(state)]:
        other.apply(other.legal_moves()[0])
        assert other.ply() == 1
    assert state.ply() == 0


def test_games_pickle_with_their_rules(game_id):
    game = pp.load_game(game_id)
    assert pickle.loads(pickle.dumps(game)) == game
    changed = pp.load_game(game_id, ply_limit=77)
    again = pickle.loads(pickle.dumps(changed))
    assert again == changed and again.rules()["ply_limit"] == 77 and again != game


def test_states_pickle_with_their_history(game_id):
    game = pp.load_game(game_id)
    for i, state in enumerate(random_states(game, 11, 60)):
        if i % 7:
            continue
        again = pickle.loads(pickle.dumps(state))
        assert (again.fen(), again.ply(), again.is_mid_turn(), again.legal_actions()) == (
            state.fen(), state.ply(), state.is_mid_turn(), state.legal_actions()
        )
        assert [str(m) for m in again.history()] == [str(m) for m in state.history()]
        assert np.array_equal(again.observation(), state.observation())
        assert again.outcome() == state.outcome()
        pp._core._self_check(again)


@pytest.mark.parametrize(
    "game_id, fen, moves, action",
    [
        # White closes a1-a4-a7 and has a man to take: the removal is the turn's second action.
        ("nine_mens_morris", None, ["a1", "d7", "a4", "g7"], "a7"),
        # White's capture 27x18x9 is two jump actions.
        ("checkers", "W:W27:B23,14", [], "27x18"),
    ],
)
def test_a_half_made_turn_pickles_and_undoes(game_id, fen, moves, action):
    game = pp.load_game(game_id)
    state = game.state_from_fen(fen) if fen else game.new_initial_state()
    for move in moves:
        state.apply(move)
    [first] = [a for a in state.legal_actions() if state.action_to_string(a) == action]
    state.apply_action(first)
    assert state.is_mid_turn()
    again = pickle.loads(pickle.dumps(state))
    assert again.is_mid_turn() and again.ply() == state.ply() == len(moves)
    assert again.legal_actions() == state.legal_actions() and len(again.legal_actions()) >= 1
    assert np.array_equal(again.observation(), state.observation())
    assert again.undo() is None
    assert not again.is_mid_turn() and first in again.legal_actions()


def test_a_tampered_pickle_names_the_action_as_given():
    game = pp.load_game("checkers")
    start = game.new_initial_state().fen()
    for action in (2**64 - 1, 2**63, 5000):
        with pytest.raises(pp.IllegalActionError, match=str(action)):
            pp._core._restore_state(game, start, [], [action])


def test_a_king_s_single_jump_beside_longer_ones_pickles():
    # 15x8 lands where two longer captures also end; its text names it alone.
    state = pp.load_game("checkers").state_from_fen("W:WK15:B11,18,19,26,27")
    assert sorted(str(m) for m in state.legal_moves())[0] == "15x22x31x24x15x8"
    state.apply("15x8")
    again = pickle.loads(pickle.dumps(state))
    assert [str(m) for m in again.history()] == ["15x8"] and again.fen() == state.fen()


def test_a_pickled_state_keeps_its_repetitions_and_origin():
    state = pp.load_game("checkers").state_from_fen("B:WK32:BK1")
    for move in ["1-5", "32-28", "5-1", "28-32", "1-5", "32-28", "5-1"]:
        state.apply(move)
    again = pickle.loads(pickle.dumps(state))
    again.apply("28-32")
    assert again.outcome().reason == "repetition"
    assert pickle.loads(pickle.dumps(again)).outcome() == again.outcome()


def test_a_state_record_that_does_not_replay_is_refused():
    start = pp.load_game("checkers").new_initial_state()
    restore, (game, origin, _, _) = start.__reduce__()
    assert restore(game, origin, ["11-15"], []).ply() == 1
    with pytest.raises(pp.IllegalMoveError):
        restore(game, origin, ["11-20"], [])
    with pytest.raises(pp.InvalidPositionError):
        restore(game, "not a position", [], [])
    with pytest.raises(pp.IllegalActionError):
        restore(game, origin, [], [127])


@pytest.mark.parametrize("game_id", ["checkers", "nine_mens_morris"])
def test_undo_restores_the_state(game_id):
    game = pp.load_game(game_id)
    seen = []
    for state in random_states(game, 7, 80, actions=False):
        seen.append((state.fen(), state.legal_actions(), state.is_terminal(), state.ply()))
    for fen, legal, terminal, ply in reversed(seen[:-1]):
        assert isinstance(state.undo(), pp.Move)
        assert (state.fen(), state.legal_actions(), state.is_terminal(), state.ply()) == (
            fen, legal, terminal, ply
        )
    with pytest.raises(IndexError):
        state.undo()
    assert state.fen() == game.new_initial_state().fen()


def test_no_men_is_a_loss():
    state = pp.load_game("checkers").state_from_fen("B:W14:B")
    assert state.is_terminal()
    assert state.current_player() == pp.TERMINAL_PLAYER == -4
    outcome = state.outcome()
    assert (outcome.winner, outcome.reason, outcome.truncated) == (1, "no men", False)
    assert outcome.winner_color == "white"
    assert state.returns() == [-1.0, 1.0]
    assert state.legal_moves() == [] and state.legal_actions() == []
    assert not state.legal_action_mask().any()
    with pytest.raises(pp.IllegalActionError, match="over"):
        state.apply_action(0)
    with pytest.raises(pp.IllegalMoveError):
        state.apply("14-10")


def test_a_mill_wins_three_mens_morris():
    state = pp.load_game("three_mens_morris").new_initial_state()
    assert state.outcome() is None and state.returns() == [0.0, 0.0]
    for move in ["a1", "a2", "b1", "b2", "c1"]:
        state.apply(move)
    assert state.outcome() == state.clone().outcome() and state.outcome() is not None
    assert repr(state.outcome()) == 'Outcome(winner=0, reason="mill", truncated=False)'
    assert state.returns() == [1.0, -1.0]


def test_ply_limit_truncates_and_adjudication_decides():
    state = pp.load_game("checkers", ply_limit=2).new_initial_state()
    state.apply("11-15")
    assert not state.is_terminal()
    state.apply("23-19")
    outcome = state.outcome()
    assert (outcome.winner, outcome.reason, outcome.truncated) == (None, "ply limit", True)
    assert state.returns() == [0.0, 0.0]
    state = pp.load_game("checkers", ply_limit=3, adjudication=True).new_initial_state()
    for move in ["11-15", "22-18", "15x22"]:
        state.apply(move)
    outcome = state.outcome()
    assert (outcome.winner, outcome.reason, outcome.truncated) == (0, "adjudication", False)
    assert state.returns() == [1.0, -1.0]


def test_repetition_draws():
    state = pp.load_game("checkers").state_from_fen("B:WK32:BK1")
    for _ in range(2):
        for move in ["1-5", "32-28", "5-1", "28-32"]:
            state.apply(move)
    outcome = state.outcome()
    assert outcome.reason == "repetition" and outcome.winner is None and not outcome.truncated


def test_repetition_counts_the_positions_before_an_undone_progress_move():
    # The start occurs at plies 0 and 4; a man's move (progress) is taken back at ply 5,
    # and the third occurrence comes at ply 8.
    state = pp.load_game("checkers").state_from_fen("B:WK32,30:BK1")
    for move in ["1-5", "32-28", "5-1", "28-32", "1-5"]:
        state.apply(move)
    state.apply("30-26")
    state.undo()
    for move in ["32-28", "5-1"]:
        state.apply(move)
        assert not state.is_terminal()
    state.apply("28-32")
    assert state.outcome().reason == "repetition"


def test_first_player_is_player_zero():
    state = pp.load_game("checkers", first_player="white").new_initial_state()
    assert state.current_player() == 0
    assert "white to move" in str(state)
    assert np.array_equal(
        state.observation(), pp.load_game("checkers").new_initial_state().observation()
    )


@pytest.mark.parametrize("game_id", MORRIS_IDS)
def test_random_games_end(game_id):
    game = pp.load_game(game_id)
    for state in random_states(game, 3, 5000):
        pass
    assert state.is_terminal()
    assert state.outcome().reason in {
        "no moves", "no men", "mill", "board full", "repetition", "move rule", "ply limit"
    }


def test_states_are_equal_when_their_games_and_histories_are(game_id):
    game = pp.load_game(game_id)
    states = list(s.clone() for s in random_states(game, seed=3, plies=12))
    for state in states:
        assert state == state.clone() == pickle.loads(pickle.dumps(state))
    assert all(a != b for i, a in enumerate(states) for b in states[i + 1 :])
    other_rules = pp.load_game(game_id, ply_limit=17).new_initial_state()
    assert game.new_initial_state() != other_rules
    assert game.new_initial_state() != "not a state"
    with pytest.raises(TypeError):
        hash(game.new_initial_state())


def test_string_to_action_reads_back_every_legal_action(game_id):
    game = pp.load_game(game_id)
    for state in random_states(game, seed=5, plies=30):
        for action in state.legal_actions():
            text = state.action_to_string(action)
            assert state.string_to_action(text) == action
            assert state.string_to_action(f" {text.upper()} ") == action
        if state.is_terminal():
            break
    state = game.new_initial_state()
    with pytest.raises(pp.IllegalActionError, match="legal"):
        state.string_to_action("nonsense")


def test_observation_tensor_is_the_observation_flattened(game_id):
    game = pp.load_game(game_id)
    for state in random_states(game, seed=8, plies=10):
        if state.is_terminal():
            break
        flat = state.observation_tensor()
        assert flat.dtype == np.float32 and flat.ndim == 1
        np.testing.assert_array_equal(flat, state.observation().ravel())
        np.testing.assert_array_equal(flat, state.observation_tensor(state.current_player()))
    with pytest.raises(ValueError, match="player to move"):
        game.new_initial_state().observation_tensor(1)


def test_game_action_names_agree_with_states(game_id):
    game = pp.load_game(game_id)
    n = game.num_distinct_actions()
    for state in random_states(game, seed=2, plies=25):
        for action in state.legal_actions():
            name = game.action_to_string(action)
            assert game.string_to_action(name) == action
            # The state's name is the same, or in checkers the jump form of the same action.
            assert game.string_to_action(state.action_to_string(action)) == action
    with pytest.raises(pp.IllegalActionError):
        game.action_to_string(n)
    with pytest.raises(pp.IllegalActionError):
        game.string_to_action("nonsense")


def test_board_arrays():
    nine = pp.load_game("nine_mens_morris")
    names = nine.point_names()
    assert len(names) == 24 and names[nine.string_to_action("d6")] == "d6"
    mills = nine.mills()
    assert mills.shape == (16, 3) and mills.dtype == np.int64
    d6, d7, a7 = (nine.string_to_action(p) for p in ("d6", "d7", "a7"))
    assert any(set(row) == {nine.string_to_action(p) for p in ("a7", "d7", "g7")} for row in mills.tolist())
    adjacent = nine.neighbours()
    assert adjacent.shape == (24, 24) and (adjacent == adjacent.T).all()
    assert adjacent[d6, d7] and adjacent[d7, a7] and not adjacent[d6, a7]
    assert adjacent.sum() == 2 * 32  # the 32 segments of the board
    assert pp.load_game("twelve_mens_morris").mills().shape == (20, 3)
    assert pp.load_game("three_mens_morris").mills().shape == (8, 3)
    checkers = pp.load_game("checkers")
    assert checkers.point_names()[0] == "1"
    with pytest.raises(ValueError, match="no mills"):
        checkers.mills()
    touching = checkers.neighbours()
    assert touching.shape == (32, 32) and (touching == touching.T).all()
    assert touching[10, 14] and not touching[10, 11]  # 11 touches 15, not 12


def test_integers_of_any_size_are_refused_by_value_and_bools_by_type():
    state = pp.load_game("checkers").new_initial_state()
    for action in [2**63, -(2**70), 10**40]:
        with pytest.raises(pp.IllegalActionError, match=f"action {action} is outside"):
            state.apply_action(action)
        with pytest.raises(pp.IllegalActionError):
            state.child(action)
        assert state.action_to_string(action) == "invalid"
        with pytest.raises(pp.IllegalActionError):
            state.game.action_to_string(action)
    assert state.legal_actions(player=10**20) == []
    with pytest.raises(ValueError, match="player to move"):
        state.observation_tensor(10**20)
    with pytest.raises(TypeError, match="not a bool"):
        state.apply_action(True)
    state.apply_action(np.int64(state.legal_actions()[0]))
    assert state.ply() == 1


def test_a_finished_game_is_observed_from_player_to_move():
    state = pp.load_game("checkers").state_from_fen("W:W:B1")
    assert state.is_terminal() and state.current_player() == pp.TERMINAL_PLAYER
    seen_from = state.player_to_move()
    np.testing.assert_array_equal(
        state.observation_tensor(seen_from), state.observation().ravel()
    )
    with pytest.raises(ValueError, match=rf"player to move \({seen_from}"):
        state.observation_tensor(1 - seen_from)


def test_numpy_bools_set_bool_rule_options():
    game = pp.load_game("checkers", mandatory_capture=np.bool_(False))
    assert game.rules()["mandatory_capture"] is False
    assert pp.load_game("checkers", mandatory_capture=np.array(True)).rules()["mandatory_capture"]
    with pytest.raises(ValueError, match="mandatory_capture"):
        pp.load_game("checkers", mandatory_capture=np.array([True, False]))


def test_moves_and_outcomes_copy_as_themselves():
    state = pp.load_game("checkers").state_from_fen("W:W:B1")
    outcome = state.outcome()
    move = pp.load_game("checkers").new_initial_state().legal_moves()[0]
    for value in [move, outcome]:
        assert copy.copy(value) is value and copy.deepcopy({"v": value})["v"] is value
