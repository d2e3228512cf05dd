"""The OpenSpiel bridge: our games under OpenSpiel's algorithms and checks, and PerfectBot."""

import pickle
import subprocess
import sys

import numpy as np
import pytest
from _helpers import child_cwd

pyspiel = pytest.importorskip("pyspiel")

import perfectplay as pp  # noqa: E402
import perfectplay.openspiel as pps  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402
from open_spiel.python.bots.uniform_random import UniformRandomBot  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

THREE = "three_mens_morris"
# Three Men's Morris without its mill-wins rule: a mill takes a man, which ends the game
# (a side below three men loses), so every removal is an equally good second action.
THREE_WITH_REMOVALS = {"mill_wins": False}


def mcts_bot(game, seed, simulations=8):
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    return mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=rng)


def random_bot(player, seed):
    return UniformRandomBot(player, np.random.RandomState(seed))


def play(state, bots, seed=0):
    """Plays ``state`` to the end with OpenSpiel's own loop; the returns."""
    return evaluate_bots(state, bots, np.random.RandomState(seed))


@pytest.fixture(scope="module")
def three_tables(tmp_path_factory):
    out = tmp_path_factory.mktemp("three_mens_morris")
    pp.tablebase.build(THREE, out, whole_game=True, progress=False)
    with pp.tablebase.open(out) as tb:
        yield tb


@pytest.fixture(scope="module")
def three_removal_tables(tmp_path_factory):
    out = tmp_path_factory.mktemp("three_mens_morris_removals")
    pp.tablebase.build(THREE, out, whole_game=True, progress=False, **THREE_WITH_REMOVALS)
    with pp.tablebase.open(out) as tb:
        yield tb


@pytest.fixture(scope="module")
def checkers_tables(tmp_path_factory):
    out = tmp_path_factory.mktemp("checkers")
    pp.tablebase.build("checkers", out, max_pieces=3, progress=False)
    with pp.tablebase.open(out) as tb:
        yield tb


# Importing --------------------------------------------------------------------------------


def test_perfectplay_imports_without_open_spiel_and_the_bridge_says_what_to_install():
    script = (
        "import sys\n"
        "sys.modules['pyspiel'] = None\n"  # an import of pyspiel now fails
        "import perfectplay\n"
        "assert 'perfectplay.openspiel' not in sys.modules\n"
        "try:\n"
        "    import perfectplay.openspiel\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=child_cwd(),
    )
    assert run.returncode == 0, run.stderr
    assert "pip install perfectplay[openspiel]" in run.stdout


# Games and states -------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", pp.game_ids())
def test_every_preset_is_registered_with_its_type_and_sizes(game_id):
    game = pyspiel.load_game(f"python_perfectplay_{game_id}")
    ours = pp.load_game(game_id)
    assert isinstance(game, pps.PerfectplayGame)
    assert game.perfectplay_game == ours
    game_type = game.get_type()
    assert game_type.short_name == pps.short_name(game_id)
    assert game_type.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert game_type.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game_type.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.num_players() == 2
    assert game.max_chance_outcomes() == 0
    assert game.num_distinct_actions() == ours.num_distinct_actions()
    assert tuple(game.observation_tensor_shape()) == tuple(ours.observation_shape())
    assert game.max_game_length() == pps.max_game_length(ours)


def test_max_game_length_is_the_ply_limit_plus_every_man():
    assert pps.load_game("checkers", ply_limit=100).max_game_length() == 100 + 24
    assert pps.load_game("nine_mens_morris", ply_limit=100).max_game_length() == 100 + 18
    assert pps.load_game(THREE).max_game_length() == 1000 + 6


def test_declined_captures_count_in_the_length():
    """A declined capture is a second action that takes no man: random games that close mills
    where they can and decline every capture outrun the ply limit plus every man, and stay
    within the bound."""
    import random

    rules = dict(capture="optional", threefold_repetition=False, move_rule=None, ply_limit=100)
    game = pp.load_game("six_mens_morris", **rules)
    bound = pps.max_game_length(game)
    assert bound == 2 * 100 + 12
    pass_action = 16
    longest = 0
    for seed in range(20):
        rng = random.Random(seed)
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.is_mid_turn() and pass_action in legal:
                action = pass_action
            else:
                # Close a mill where one can be closed, to decline it.
                mills = [a for a in legal if state.child(a).is_mid_turn()]
                action = rng.choice(mills or legal)
            state.apply_action(action)
            actions += 1
        longest = max(longest, actions)
    assert 100 + 12 < longest <= bound


def test_a_game_without_a_ply_limit_is_refused():
    with pytest.raises(ValueError, match="ply_limit"):
        pps.load_game("checkers", ply_limit=None)
    with pytest.raises(ValueError, match="ply_limit"):
        pyspiel.load_game("python_perfectplay_checkers(ply_limit=0)")


def test_load_game_reads_our_ids_aliases_and_rules_as_pyspiel_does():
    ours = pps.load_game("cowboy_checkers", ply_limit="30")
    theirs = pyspiel.load_game("python_perfectplay_nine_mens_morris(ply_limit=30)")
    assert str(ours) == str(theirs)
    assert ours.get_parameters()["ply_limit"] == 30
    # OpenSpiel has no none: a count that is none is 0, as our rules read it.
    twelve = pps.load_game("twelve_mens_morris", ply_limit=40)
    assert twelve.get_parameters()["flying"] == 0
    assert twelve.perfectplay_game.rules()["flying"] is None
    flying = pyspiel.load_game("python_perfectplay_twelve_mens_morris(flying=3,ply_limit=40)")
    assert flying.perfectplay_game.rules()["flying"] == 3
    with pytest.raises(pp.UnknownGameError):
        pps.load_game("chess")
    with pytest.raises(ValueError):
        pps.load_game("checkers", no_such_rule=1)
    with pytest.raises(TypeError, match="position string"):
        pps.load_game("checkers", ply_limit=40).new_initial_state(123)


def test_states_delegate_to_ours():
    game = pps.load_game("checkers", ply_limit=60)
    state = game.new_initial_state()
    ours = pp.load_game("checkers", ply_limit=60).new_initial_state()
    assert state.current_player() == 0
    assert state.legal_actions() == ours.legal_actions()
    assert state.string_to_action("11-15") == ours.string_to_action("11-15")
    assert state.string_to_action(0, "11-15") == ours.string_to_action("11-15")
    with pytest.raises(pp.IllegalActionError):
        state.string_to_action("11-16x")
    action = state.string_to_action("11-15")
    assert state.action_to_string(0, action) == "11-15"
    state.apply_action(action)
    assert state.current_player() == 1
    assert state.history() == [action]
    assert [str(move) for move in state.perfectplay_state.history()] == ["11-15"]


def test_an_illegal_action_raises_our_error_and_leaves_the_state_as_it_was():
    state = pps.load_game(THREE).new_initial_state()
    with pytest.raises(pp.IllegalActionError):
        state.apply_action(30)
    assert state.history() == []
    assert state == pps.load_game(THREE).new_initial_state()


def test_clones_are_equal_and_independent():
    state = pps.load_game("nine_mens_morris", ply_limit=40).new_initial_state()
    for action in (0, 1, 2):
        state.apply_action(action)
    clone = state.clone()
    assert clone == state and clone is not state
    assert clone.history() == state.history()
    assert clone.move_number() == state.move_number()
    clone.apply_action(clone.legal_actions()[0])
    assert clone != state
    assert len(state.history()) == 3
    assert state.child(4) == state.child(4) != state.child(5)


def test_states_start_from_a_position_string():
    game = pps.load_game("checkers", ply_limit=60)
    state = game.new_initial_state("B:W18:B14")
    assert [state.action_to_string(0, a) for a in state.legal_actions()] == ["14x23"]
    assert state.clone() == state
    with pytest.raises(pp.InvalidPositionError):
        game.new_initial_state("not a position")


def test_games_and_states_pickle_and_serialize():
    game = pps.load_game("nine_mens_morris", ply_limit=33)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game)
    assert again.perfectplay_game == game.perfectplay_game
    state = game.new_initial_state()
    for action in (3, 4, 10):
        state.apply_action(action)
    assert pickle.loads(pickle.dumps(state)) == state
    game_again, state_again = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert state_again == state and str(game_again) == str(game)


def test_observations_are_ours_seen_from_the_player_to_move():
    game = pps.load_game("nine_mens_morris", ply_limit=40)
    state = game.new_initial_state()
    state.apply_action(3)
    expected = state.perfectplay_state.observation().ravel()
    for player in (0, 1):
        np.testing.assert_array_equal(state.observation_tensor(player), expected)
    assert state.observation_string(0) == str(state) == str(state.perfectplay_state)
    assert state.information_state_string(1) == state.history_str()
    observation = make_observation(game)
    observation.set_from(state, 1)
    assert observation.dict["observation"].shape == (7, 24)
    np.testing.assert_array_equal(observation.tensor, expected)


def test_a_half_made_turn_shows_in_the_observation_string():
    game = pps.load_game(THREE, **THREE_WITH_REMOVALS)
    # White a3 b3, Black a1 a2; White's c3 closes the top row.
    state = game.new_initial_state()
    for name in ("a3", "a1", "b3", "a2", "c3"):
        state.apply_action(state.string_to_action(name))
    assert state.perfectplay_state.is_mid_turn()
    assert state.current_player() == 0
    assert str(state).endswith("turn so far: c3")
    assert state.observation_string(1) == str(state)


def test_a_game_cut_by_its_ply_limit_is_a_terminal_draw():
    game = pps.load_game("nine_mens_morris", ply_limit=8)
    state = game.new_initial_state()
    returns = play(state, [random_bot(0, 1), random_bot(1, 2)])
    assert state.is_terminal()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert returns == [0.0, 0.0]
    assert state.perfectplay_state.outcome().truncated
    assert len(state.history()) <= game.max_game_length()
    # Observations are still given at the end.
    assert len(state.observation_tensor(0)) == 7 * 24


@pytest.mark.parametrize("game_id", pp.game_ids())
def test_openspiel_consistency_checks(game_id):
    game = pps.load_game(game_id, ply_limit=60)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_the_basic_checkers_game_is_a_pyspiel_game_with_a_stop_action():
    game = pyspiel.load_game(
        "python_perfectplay_checkers(mandatory_capture=False,complete_jumps=False,ply_limit=80)"
    )
    assert game.num_distinct_actions() == 129
    assert game.get_parameters()["complete_jumps"] is False
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    state = game.new_initial_state()
    assert state.action_to_string(state.current_player(), 128) == "stop"


# OpenSpiel's algorithms -------------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mcts_plays_whole_games_of_three_mens_morris(seed):
    game = pyspiel.load_game("python_perfectplay_three_mens_morris")
    state = game.new_initial_state()
    returns = play(state, [mcts_bot(game, seed, 30), mcts_bot(game, seed + 10, 30)], seed)
    assert state.is_terminal()
    assert returns in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
    assert returns == state.perfectplay_state.returns()


@pytest.mark.parametrize("game_id", ["nine_mens_morris", "checkers"])
def test_mcts_and_random_play_bounded_games(game_id):
    game = pps.load_game(game_id, ply_limit=24)
    state = game.new_initial_state()
    returns = play(state, [mcts_bot(game, 3, simulations=10), random_bot(1, 4)])
    assert state.is_terminal()
    assert sum(returns) == 0.0
    assert len(state.history()) <= game.max_game_length()


def test_openspiel_algorithms_take_our_own_game_and_states(three_tables):
    # The native game answers get_type() through the bridge and its states the node kinds
    # OpenSpiel asks, so OpenSpiel's algorithms need no wrapping.
    game = pp.load_game("three_mens_morris")
    assert game.get_type().short_name == "python_perfectplay_three_mens_morris"
    assert (game.max_utility(), game.min_utility(), game.utility_sum()) == (1.0, -1.0, 0.0)
    state = game.new_initial_state()
    assert not state.is_chance_node() and not state.is_simultaneous_node()
    assert state.is_player_node()
    assert state.legal_actions(0) == state.legal_actions() and state.legal_actions(1) == []
    rng = np.random.RandomState(0)
    searcher = mcts.MCTSBot(game, 2.0, 30, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    perfect = pps.PerfectBot(three_tables, rng=0)
    # evaluate_bots informs C++ bots with pyspiel states: it takes the bridged game's (above).
    bots = [perfect, searcher]
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert state.returns() == [1.0, -1.0]


# PerfectBot -------------------------------------------------------------------------------


def test_perfect_bot_opens_with_the_only_winning_move(three_tables):
    state = pps.load_game(THREE).new_initial_state()
    policy, action = pps.PerfectBot(three_tables, rng=0).step_with_policy(state)
    assert state.action_to_string(0, action) == "b2"
    assert policy == [(action, 1.0)]


def test_perfect_bot_wins_three_mens_morris_from_the_start_in_nine(three_tables):
    game = pps.load_game(THREE)
    perfect_play = game.new_initial_state()
    play(perfect_play, [pps.PerfectBot(three_tables, 1), pps.PerfectBot(three_tables, 2)])
    assert perfect_play.returns() == [1.0, -1.0]
    assert len(perfect_play.history()) == 9
    for opponent in (mcts_bot(game, 5), random_bot(1, 6)):
        state = game.new_initial_state()
        assert play(state, [pps.PerfectBot(three_tables, 3), opponent]) == [1.0, -1.0]
        assert len(state.history()) <= 9


def won_and_drawn_starts(tablebase, subspaces, each):
    """Up to ``each`` won and ``each`` drawn positions (for the side to move) of the tables,
    none over: (fen, wdl)."""
    found = {0: [], 1: []}
    for subspace in subspaces:
        for state in tablebase.sample_states(subspace, 50, seed=7):
            wdl = tablebase.probe(state).wdl
            if wdl in found and len(found[wdl]) < each:
                found[wdl].append((state.fen(), wdl))
    assert all(found.values()), "the sample should hold wins and draws"
    return found[1] + found[0]


def assert_perfect_bot_never_loses(game, tablebase, starts):
    for index, (fen, wdl) in enumerate(starts):
        for opponent_kind in ("mcts", "random"):
            state = game.new_initial_state(fen)
            mover = state.current_player()
            bot = pps.PerfectBot(tablebase, rng=index)
            if opponent_kind == "mcts":
                opponent = mcts_bot(game, index, simulations=20)
            else:
                opponent = random_bot(1 - mover, index)
            bots = [bot, opponent] if mover == 0 else [opponent, bot]
            returns = play(state, bots, seed=index)
            assert returns[mover] >= wdl, (fen, opponent_kind, state.history())


def test_perfect_bot_never_loses_three_mens_morris_from_won_or_drawn_positions(three_tables):
    game = pps.load_game(THREE)
    starts = won_and_drawn_starts(three_tables, ["3-3", "2-2-h1-1"], each=10)
    assert_perfect_bot_never_loses(game, three_tables, starts)


def test_perfect_bot_never_loses_checkers_endings_from_won_or_drawn_positions(checkers_tables):
    game = pps.load_game("checkers", ply_limit=120)
    starts = won_and_drawn_starts(checkers_tables, ["1001-00", "0110-00", "1101-00"], each=4)
    assert_perfect_bot_never_loses(game, checkers_tables, starts)


def mill_then_removal(tablebase):
    """A Three Men's Morris position (mill_wins=False) whose best moves close a mill, and
    the action list of each best move."""
    game = pps.load_game(THREE, **THREE_WITH_REMOVALS)
    state = game.new_initial_state()
    for name in ("a3", "a1", "b3", "a2"):
        state.apply_action(state.string_to_action(name))
    ours = state.perfectplay_state
    best = [ours.move_actions(move) for move in tablebase.best_moves(ours)]
    assert best and all(len(actions) == 2 for actions in best)
    return state, best


def test_perfect_bot_finishes_the_move_it_chose(three_removal_tables):
    state, best = mill_then_removal(three_removal_tables)
    removals = {actions[1] for actions in best}
    assert len(removals) > 1, "the test wants a choice of equally good removals"
    for seed in range(4):
        bot = pps.PerfectBot(three_removal_tables, rng=seed)
        turn = state.clone()
        first = bot.step(turn)
        turn.apply_action(first)
        assert turn.current_player() == 0  # the removal is White's too
        policy, second = bot.step_with_policy(turn)
        # The planned removal, not a new draw among the equally good ones.
        assert policy == [(second, 1.0)]
        assert [first, second] in best
        turn.apply_action(second)
        assert turn.returns() == [1.0, -1.0]


def test_perfect_bot_goes_on_from_a_turn_it_did_not_begin(three_removal_tables):
    state, best = mill_then_removal(three_removal_tables)
    state.apply_action(best[0][0])  # someone else closed the mill
    bot = pps.PerfectBot(three_removal_tables, rng=0)
    bot.restart_at(state)
    policy, removal = bot.step_with_policy(state)
    assert [best[0][0], removal] in best
    assert abs(sum(p for _, p in policy) - 1.0) < 1e-9
    assert {a for a, _ in policy} == {actions[1] for actions in best if actions[0] == best[0][0]}


def test_perfect_bot_finishes_a_checkers_jump_begun_elsewhere(checkers_tables):
    game = pps.load_game("checkers", ply_limit=60)
    state = game.new_initial_state("B:W18,27:B14")
    state.apply_action(state.string_to_action("14x23"))
    assert state.current_player() == 0
    bot = pps.PerfectBot(checkers_tables, rng=0)
    assert state.action_to_string(0, bot.step(state)) == "23x32"


def test_perfect_bot_names_positions_outside_its_tables(checkers_tables):
    state = pps.load_game("checkers", ply_limit=60).new_initial_state()
    with pytest.raises(pp.OutOfScopeError):
        pps.PerfectBot(checkers_tables).step(state)


def test_perfect_bot_refuses_another_games_state(three_tables):
    state = pps.load_game("six_mens_morris", ply_limit=60).new_initial_state()
    with pytest.raises(pp.TablebaseError):
        pps.PerfectBot(three_tables).step(state)


def test_perfect_bot_has_nothing_to_play_once_the_game_is_over(three_tables):
    state = pps.load_game(THREE).new_initial_state()
    play(state, [pps.PerfectBot(three_tables, 0), pps.PerfectBot(three_tables, 1)])
    assert pps.PerfectBot(three_tables).step_with_policy(state) == ([], pyspiel.INVALID_ACTION)
