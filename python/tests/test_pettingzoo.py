"""The PettingZoo adapter: api_test for every game, turns, rewards and observations."""

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

import perfectplay as pp  # noqa: E402
from perfectplay import pettingzoo_env as pz  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

GAMES = pp.game_ids()


def quiet_api_test(env, num_cycles):
    """``api_test`` without its advisory warnings about dict observations."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=num_cycles)


def play(env, seed, max_steps=5000):
    """Plays one game with masked random actions; returns the agents in order of acting."""
    env.reset(seed=seed)
    order = []
    for agent in env.agent_iter(max_steps):
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        order.append(agent)
        env.step(env.action_space(agent).sample(observation["action_mask"]))
    return order


@pytest.mark.parametrize("game_id", GAMES)
def test_api_test(game_id):
    quiet_api_test(pz.env(game_id), num_cycles=1000)


@pytest.mark.parametrize("game_id", ["checkers", "nine_mens_morris"])
def test_api_test_raw_env(game_id):
    quiet_api_test(pz.raw_env(game_id), num_cycles=300)


@pytest.mark.parametrize("game_id", GAMES)
def test_spaces_and_agents(game_id):
    env = pz.env(game_id)
    env.reset(seed=0)
    game = pp.load_game(game_id)
    assert env.possible_agents == ["player_0", "player_1"]
    assert env.agent_selection == "player_0"
    for agent in env.possible_agents:
        space = env.observation_space(agent)
        assert space["observation"].shape == tuple(game.observation_shape())
        assert space["observation"].dtype == np.float32
        assert space["action_mask"].shape == (game.num_distinct_actions(),)
        assert space["action_mask"].dtype == np.int8
        assert env.action_space(agent).n == game.num_distinct_actions()
    assert env.unwrapped.metadata["name"] == f"perfectplay_{game_id}_v0"


@pytest.mark.parametrize("game_id", ["checkers", "nine_mens_morris", "shah", "three_mens_morris"])
def test_random_games_follow_the_state(game_id):
    rng = random.Random(0)
    for seed in range(3):
        env = pz.raw_env(game_id)
        env.reset(seed=seed)
        repeated_turns = 0
        previous = None
        while not (env.terminations["player_0"] or env.truncations["player_0"]):
            state = env.state
            agent = env.agent_selection
            assert agent == pz.AGENTS[state.current_player()]
            obs = env.observe(agent)
            assert list(np.flatnonzero(obs["action_mask"])) == state.legal_actions()
            np.testing.assert_array_equal(obs["observation"], state.observation())
            other = pz.AGENTS[1 - state.current_player()]
            assert not env.observe(other)["action_mask"].any()
            assert all(r == 0 for r in env.rewards.values())
            repeated_turns += agent == previous
            previous = agent
            env.step(rng.choice(state.legal_actions()))
        state = env.state
        returns = state.returns()
        outcome = state.outcome()
        for i, agent in enumerate(pz.AGENTS):
            assert env.rewards[agent] == returns[i]
            assert env._cumulative_rewards[agent] == returns[i]
            assert env.terminations[agent] == (not outcome.truncated)
            assert env.truncations[agent] == outcome.truncated
            assert env.infos[agent] == {"winner": outcome.winner, "reason": outcome.reason}
            assert not env.observe(agent)["action_mask"].any()
        assert sum(env.rewards.values()) == 0
        if game_id != "three_mens_morris":
            # Captures take several actions by the same player somewhere in a random game.
            assert repeated_turns > 0


def flip_side(game_id, fen):
    """The same position with the other side to move (checkers FEN or morris string)."""
    if game_id == "checkers":
        return {"B": "W", "W": "B"}[fen[0]] + fen[1:]
    fields = fen.split(" ")
    fields[1] = {"w": "b", "b": "w"}[fields[1]]
    return " ".join(fields)


@pytest.mark.parametrize("game_id", ["checkers", "nine_mens_morris", "morabaraba"])
def test_the_waiting_player_sees_the_board_from_its_side(game_id):
    game = pp.load_game(game_id)
    rng = random.Random(1)
    compared = 0
    state = game.new_initial_state()
    while not state.is_terminal():
        obs = state.observation()
        if not state.is_mid_turn() and not obs[5:].any():
            try:
                flipped = game.state_from_fen(flip_side(game_id, state.fen()))
            except ValueError:
                flipped = None
            if flipped is not None:
                np.testing.assert_array_equal(
                    pz._other_view(obs, "checkers" if game_id == "checkers" else "morris"),
                    flipped.observation(),
                )
                compared += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert compared > 10


@pytest.mark.parametrize("game_id", ["checkers", "nine_mens_morris"])
def test_final_observations_are_from_each_agents_side(game_id):
    env = pz.raw_env(game_id)
    play(env, seed=2)
    state = env.state
    side = state.fen().split(" ")[1] if game_id != "checkers" else state.fen()[0].lower()
    to_move = 0 if side == ("b" if game_id == "checkers" else "w") else 1
    np.testing.assert_array_equal(
        env.observe(pz.AGENTS[to_move])["observation"], state.observation()
    )
    family = "checkers" if game_id == "checkers" else "morris"
    np.testing.assert_array_equal(
        env.observe(pz.AGENTS[1 - to_move])["observation"],
        pz._other_view(state.observation(), family),
    )


def test_options_that_are_no_dict_are_a_type_error():
    env = pz.raw_env("checkers")
    for bad in (["fen"], "fen"):
        with pytest.raises(TypeError, match="options must be a dict"):
            env.reset(options=bad)


def test_a_finished_start_is_seen_from_the_side_the_rules_have_to_move():
    env = pz.raw_env("checkers")
    # White (player 1) to move without a piece: over, and seen from White.
    env.reset(options={"fen": "W:W:B5"})
    assert env.terminations["player_0"] and env.terminations["player_1"]
    state = env.state
    np.testing.assert_array_equal(env.observe("player_1")["observation"], state.observation())
    np.testing.assert_array_equal(
        env.observe("player_0")["observation"], pz._other_view(state.observation(), "checkers")
    )
    # `last()` reports the result as it does after the step that ends a game.
    assert env.last()[1:4] == (-1.0, True, False)
    assert env._cumulative_rewards == {"player_0": 1.0, "player_1": -1.0}


def test_seeded_games_are_deterministic():
    first = play(pz.env("checkers"), seed=9)
    second = play(pz.env("checkers"), seed=9)
    assert first == second


def test_illegal_action_ends_the_game_for_the_wrapped_env():
    env = pz.env("nine_mens_morris")
    env.reset(seed=0)
    observation, *_ = env.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(illegal)
    assert env.terminations["player_0"] and env.terminations["player_1"]
    assert env.rewards["player_0"] == -1

    raw = pz.raw_env("nine_mens_morris")
    raw.reset(seed=0)
    with pytest.raises(pp.IllegalActionError):
        raw.step(illegal)


def test_ply_limit_truncates_and_rules_are_forwarded():
    env = pz.raw_env("checkers", ply_limit=4)
    play(env, seed=0)
    assert env.agents == []
    env = pz.raw_env("checkers", ply_limit=4)
    env.reset(seed=0)
    rng = random.Random(0)
    while not env.truncations["player_0"]:
        assert not env.terminations["player_0"]
        env.step(rng.choice(env.state.legal_actions()))
    assert env.truncations == {"player_0": True, "player_1": True}
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert env.state.ply() == 4
    with pytest.raises(ValueError):
        pz.env("checkers", no_such_option=True)


def test_render_rgb_array():
    env = pz.env("checkers", render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (320, 320, 3) and frame.dtype == np.uint8
    np.testing.assert_array_equal(frame, env.unwrapped.state.render_rgb())
    env.close()


def test_render_and_fen_option():
    env = pz.env("six_mens_morris", render_mode="ansi")
    env.reset(seed=0)
    assert env.render() == str(env.unwrapped.state)
    start = env.unwrapped.state.fen()
    env.reset(options={"fen": start})
    assert env.unwrapped.state.fen() == start
    env.close()


def test_actions_and_seeds_are_taken_exactly():
    env = pz.raw_env("nine_mens_morris")
    with pytest.raises(TypeError, match="seed must be an integer"):
        env.reset(seed="x")
    env.reset(seed=np.int64(3))
    for bad in (1.5, "3", True):
        with pytest.raises(TypeError, match="action must be an integer"):
            env.step(bad)
    env.step(np.int64(env.state.legal_actions()[0]))


def test_an_env_pickles_as_its_arguments_and_comes_back_at_a_new_game():
    import pickle

    env = pz.raw_env("three_mens_morris")
    env.reset(seed=0)
    env.step(env.state.legal_actions()[0])
    again = pickle.loads(pickle.dumps(env))
    assert again.state.fen() == pp.load_game("three_mens_morris").new_initial_state().fen()
    assert env.state.fen() != again.state.fen()
