"""The Gymnasium adapter: registration, check_env for every id, episodes and the vector env."""

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

import perfectplay as pp  # noqa: E402
from perfectplay import gymnasium_env as ge  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

ALL_IDS = sorted(ge.ENV_IDS)


def play_episode(env, seed, max_steps=5000):
    """Plays one episode with masked random actions; returns everything it saw."""
    obs, info = env.reset(seed=seed)
    env.action_space.seed(seed)
    trace = [(obs.copy(), 0.0, False, False, info["action_mask"].copy())]
    for _ in range(max_steps):
        action = env.action_space.sample(mask=info["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append((obs.copy(), reward, terminated, truncated, info["action_mask"].copy()))
        if terminated or truncated:
            return trace, info
    raise AssertionError("the episode did not end")


def test_every_game_has_an_id():
    assert sorted(ge.ENV_IDS.values()) == sorted(pp.game_ids())
    for env_id in ALL_IDS:
        assert env_id in gym.registry
        assert gym.spec(env_id).vector_entry_point is not None


def test_register_envs_is_idempotent():
    ge.register_envs()
    ge.register_envs()
    assert all(env_id in gym.registry for env_id in ALL_IDS)


@pytest.mark.parametrize("env_id", ALL_IDS)
@pytest.mark.parametrize("agent_player", [0, 1])
def test_check_env(env_id, agent_player):
    env = gym.make(env_id, agent_player=agent_player)
    check_env(env.unwrapped)
    env.close()


def test_check_env_callable_opponent():
    first_legal = gym.make(
        "perfectplay/SixMensMorris-v0", opponent=lambda state: state.legal_actions()[0]
    )
    check_env(first_legal.unwrapped)


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_spaces(env_id):
    env = gym.make(env_id).unwrapped
    game = pp.load_game(ge.ENV_IDS[env_id])
    assert env.observation_space.shape == tuple(game.observation_shape())
    assert env.observation_space.dtype == np.float32
    assert env.action_space.n == game.num_distinct_actions()
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.float32 and obs in env.observation_space
    assert info["action_mask"].dtype == np.int8
    assert info["action_mask"].shape == (env.action_space.n,)


@pytest.mark.parametrize("env_id", ["perfectplay/Checkers-v0", "perfectplay/NineMensMorris-v0"])
@pytest.mark.parametrize("agent_player", [0, 1])
def test_masks_equal_legal_actions_and_agent_acts(env_id, agent_player):
    env = gym.make(env_id, agent_player=agent_player).unwrapped
    obs, info = env.reset(seed=3)
    env.action_space.seed(3)
    steps = 0
    while True:
        state = env.state
        assert state.current_player() == agent_player
        assert info["current_player"] == agent_player
        assert list(np.flatnonzero(info["action_mask"])) == state.legal_actions()
        np.testing.assert_array_equal(env.action_masks(), state.legal_action_mask())
        np.testing.assert_array_equal(obs, state.observation())
        obs, reward, terminated, truncated, info = env.step(
            env.action_space.sample(mask=info["action_mask"])
        )
        steps += 1
        if terminated or truncated:
            break
        assert reward == 0.0
    state = env.state
    assert state.is_terminal()
    assert reward == state.returns()[agent_player]
    assert truncated == state.outcome().truncated and terminated != truncated
    assert not info["action_mask"].any()
    assert info["current_player"] == pp.TERMINAL_PLAYER
    assert info["winner"] == state.outcome().winner
    assert info["reason"] == state.outcome().reason
    with pytest.raises(RuntimeError):
        env.step(0)


@pytest.mark.parametrize("env_id", ["perfectplay/Checkers-v0", "perfectplay/Morabaraba-v0"])
def test_seeded_episode_is_deterministic(env_id):
    env = gym.make(env_id)
    first, _ = play_episode(env, seed=11)
    second, _ = play_episode(env, seed=11)
    assert len(first) == len(second)
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a[0], b[0])
        assert a[1:4] == b[1:4]
        np.testing.assert_array_equal(a[4], b[4])
    other = [play_episode(env, seed=s)[0] for s in (12, 13)]
    assert any(
        len(t) != len(first) or any(not np.array_equal(x[0], y[0]) for x, y in zip(t, first))
        for t in other
    )


def test_ply_limit_truncates():
    env = gym.make("perfectplay/Checkers-v0", ply_limit=6)
    trace, info = play_episode(env, seed=0)
    _, reward, terminated, truncated, _ = trace[-1]
    assert truncated and not terminated and reward == 0.0
    assert info["reason"] == "ply limit" and info["winner"] is None


def test_rule_options_are_forwarded():
    env = gym.make("perfectplay/NineMensMorris-v0", flying=None).unwrapped
    assert env.game.rules()["flying"] is None
    with pytest.raises(ValueError):
        gym.make("perfectplay/NineMensMorris-v0", no_such_option=1)


def test_illegal_action_loses_or_raises():
    env = gym.make("perfectplay/Checkers-v0").unwrapped
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_action"] and not info["action_mask"].any()

    strict = gym.make("perfectplay/Checkers-v0", illegal_action="raise").unwrapped
    strict.reset(seed=0)
    fen = strict.state.fen()
    with pytest.raises(pp.IllegalActionError):
        strict.step(illegal)
    assert strict.state.fen() == fen


def test_bad_arguments():
    with pytest.raises(ValueError):
        ge.PerfectPlayEnv("checkers", agent_player=2)
    with pytest.raises(ValueError):
        ge.PerfectPlayEnv("checkers", opponent="perfect-ish")
    with pytest.raises(ValueError):
        ge.PerfectPlayEnv("checkers", render_mode="human")
    with pytest.raises(ValueError):
        ge.PerfectPlayEnv("no_such_game")


@pytest.mark.parametrize("env_id", ALL_IDS)
def test_render_rgb_array_draws_the_board(env_id):
    env = gym.make(env_id, render_mode="rgb_array")
    env.reset(seed=1)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    np.testing.assert_array_equal(frame, env.unwrapped.state.render_rgb())
    # A board has pieces drawn dark or light on it and its own colours: far from one flat fill.
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 10
    action = env.action_space.sample(mask=env.unwrapped.state.legal_action_mask().astype(np.int8))
    env.step(action)
    assert not np.array_equal(env.render(), frame), "the frame follows the game"
    env.close()


def test_render_rgb_scale_and_bad_scale():
    state = pp.load_game("checkers").new_initial_state()
    assert state.render_rgb().shape == (320, 320, 3)
    assert state.render_rgb(scale=0.5).shape == (160, 160, 3)
    for bad in (0.0, -1.0, float("nan"), 1e6):
        with pytest.raises(ValueError):
            state.render_rgb(scale=bad)


def test_record_video_writes_a_video(tmp_path):
    pytest.importorskip("moviepy")
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(
        gym.make("perfectplay/NineMensMorris-v0", render_mode="rgb_array", ply_limit=40),
        video_folder=str(tmp_path / "videos"),
        episode_trigger=lambda episode: True,
        name_prefix="nmm",
    )
    play_episode(env, seed=3)
    env.close()
    videos = sorted((tmp_path / "videos").glob("nmm*.mp4"))
    assert videos, list(tmp_path.rglob("*"))
    assert videos[0].stat().st_size > 1000


def test_render_ansi_and_fen_option():
    env = gym.make("perfectplay/ThreeMensMorris-v0", render_mode="ansi").unwrapped
    env.reset(seed=0)
    assert env.render() == str(env.state)
    start = env.state.fen()
    other = gym.make("perfectplay/ThreeMensMorris-v0").unwrapped
    other.reset(seed=0, options={"fen": start})
    assert other.state.fen() == start


def test_callable_opponent_is_used():
    seen = []

    def last_legal(state):
        seen.append(state.current_player())
        return state.legal_actions()[-1]

    env = gym.make("perfectplay/NineMensMorris-v0", agent_player=1, opponent=last_legal)
    _, info = env.reset(seed=0)
    assert seen == [0]
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert len(seen) >= 2 and set(seen) == {0}


# -- the vector env -----------------------------------------------------------------------------


def test_make_vec_uses_the_vector_entry_point():
    envs = gym.make_vec(
        "perfectplay/NineMensMorris-v0", num_envs=16, vectorization_mode="vector_entry_point"
    )
    assert isinstance(envs.unwrapped, ge.PerfectPlayVectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert envs.num_envs == 16
    assert envs.single_observation_space.shape == (7, 24)
    assert envs.observation_space.shape == (16, 7, 24)
    assert envs.single_action_space.n == 600
    obs, info = envs.reset(seed=5)
    assert obs.shape == (16, 7, 24) and obs.dtype == np.float32
    assert info["action_mask"].shape == (16, 600) and info["action_mask"].dtype == np.int8
    assert (info["current_player"] == 0).all()
    envs.close()


def test_vector_env_observations_in_uint8_have_their_space():
    envs = gym.make_vec(
        "perfectplay/NineMensMorris-v0", num_envs=8, vectorization_mode="vector_entry_point",
        obs_dtype="uint8",
    )
    space = envs.single_observation_space
    assert space.dtype == np.uint8 and space.shape == (7, 24) and space.high.max() == 9
    obs, _ = envs.reset(seed=3)
    for _ in range(40):
        assert obs.dtype == np.uint8 and envs.observation_space.contains(obs)
        obs, *_ = envs.step(envs.unwrapped.env.sample_legal_actions())
    envs.close()


def test_vector_env_steps_and_autoresets():
    envs = gym.make_vec("perfectplay/ThreeMensMorris-v0", num_envs=32, agent_player=1)
    obs, info = envs.reset(seed=1)
    assert (info["current_player"] == 1).all()
    ended = np.zeros(32, dtype=bool)
    finished = 0
    for _ in range(200):
        actions = envs.unwrapped.sample_legal_actions()
        live = ~ended
        mask = info["action_mask"].astype(bool)
        assert mask[live, actions[live]].all()
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert obs.shape == (32, 7, 9)
        assert rewards.shape == (32,)
        done = terminated | truncated
        # Rewards only where a game ends; no reward in the reset step.
        assert (rewards[~done] == 0).all()
        assert set(np.unique(rewards[done])) <= {-1.0, 0.0, 1.0}
        assert (info["current_player"][done] == pp.TERMINAL_PLAYER).all()
        assert not info["action_mask"][done].any()
        assert (info["current_player"][~done] == 1).all()
        finished += int(done.sum())
        ended = done
    assert finished > 0


def test_vector_env_is_seeded():
    def run(seed):
        envs = ge.PerfectPlayVectorEnv(num_envs=8, game_id="checkers")
        envs.reset(seed=seed)
        out = []
        for _ in range(30):
            obs, rewards, *_ = envs.step(envs.sample_legal_actions())
            out.append(obs.copy())
        return np.stack(out)

    np.testing.assert_array_equal(run(4), run(4))
    assert not np.array_equal(run(4), run(5))


def test_vector_env_rejects_illegal_actions_and_bad_arguments():
    envs = ge.PerfectPlayVectorEnv(num_envs=4, game_id="checkers")
    _, info = envs.reset(seed=0)
    actions = envs.sample_legal_actions().copy()
    actions[2] = int(np.flatnonzero(info["action_mask"][2] == 0)[0])
    with pytest.raises(pp.IllegalActionError, match="2"):
        envs.step(actions)
    with pytest.raises(ValueError):
        ge.PerfectPlayVectorEnv(num_envs=4, game_id="checkers", opponent="self")
    with pytest.raises(ValueError, match="packed_mask"):
        ge.PerfectPlayVectorEnv(num_envs=4, game_id="checkers", packed_mask=True)
    with pytest.raises(TypeError, match="sequence of ints"):
        envs.reset(seed="1234")
    with pytest.raises(ValueError, match="one per env"):
        envs.reset(seed=[1, 2])


def test_numbers_are_taken_exactly_never_truncated():
    env = ge.PerfectPlayEnv("nine_mens_morris")
    env.reset(seed=0)
    for bad in (1.5, "3", True, np.float64(2.0)):
        with pytest.raises(TypeError, match="action must be an integer"):
            env.step(bad)
    env.step(np.int64(env.state.legal_actions()[0]))
    for name, bad in [("num_envs", 1.7), ("seed", 1.7), ("agent_player", 1.9)]:
        with pytest.raises(TypeError, match=f"{name} must be an integer"):
            ge.PerfectPlayVectorEnv(game_id="checkers", **{"num_envs": 2, name: bad})
    envs = ge.PerfectPlayVectorEnv(num_envs=2, game_id="checkers")
    envs.reset(seed=[1, np.int32(2)])
    with pytest.raises(TypeError, match="seed must be an integer"):
        envs.reset(seed=[1.9, 2.2])
    with pytest.raises(TypeError):
        envs.step(np.array([0.5, 1.5]))
    envs.step(envs.env.sample_legal_actions().astype(np.int32))
    chooser = ge.PerfectPlayEnv("nine_mens_morris", opponent=lambda state: 1.5, agent_player=1)
    with pytest.raises(TypeError, match="the opponent's action must be an integer"):
        chooser.reset(seed=0)


def test_vector_env_takes_one_seed_per_env():
    envs = ge.PerfectPlayVectorEnv(num_envs=3, game_id="checkers")
    envs.reset(seed=[11, 12, 11])
    one = ge.PerfectPlayVectorEnv(num_envs=1, game_id="checkers")
    one.reset(seed=12)
    for _ in range(20):
        actions = envs.sample_legal_actions()
        obs, *_ = envs.step(actions)
        single = one.sample_legal_actions()
        assert single[0] == actions[1]
        one_obs, *_ = one.step(single)
        np.testing.assert_array_equal(obs[1], one_obs[0])
        np.testing.assert_array_equal(obs[0], obs[2])
    # A numpy array of seeds, one per env, as the list.
    again = ge.PerfectPlayVectorEnv(num_envs=3, game_id="checkers")
    again.reset(seed=np.array([11, 12, 11]))
    envs.reset(seed=[11, 12, 11])
    np.testing.assert_array_equal(again.sample_legal_actions(), envs.sample_legal_actions())
    # A seed out of range is the batched env's ValueError wherever it stands.
    for bad in ([-1, 2, 3], [1, -1, 3], np.array([-1, 2, 3]), -1, np.array(-1)):
        with pytest.raises(ValueError, match="seed"):
            envs.reset(seed=bad)
    envs.reset(seed=np.array(11))
    for bad in (True, np.True_, np.array(False)):  # not taken for the seed 1 or 0
        with pytest.raises(TypeError, match="seed"):
            envs.reset(seed=bad)


def test_make_and_make_vec_take_path_objects_and_no_ply_limit(three_tables):
    import pathlib

    path = pathlib.Path(three_tables)
    env = gym.make("perfectplay/ThreeMensMorris-v0", opponent="perfect", tablebase=path)
    env.reset(seed=0)
    envs = gym.make_vec(
        "perfectplay/ThreeMensMorris-v0", num_envs=2, opponent="perfect", tablebase=path,
        ply_limit=None,
    )
    envs.reset(seed=0)
    assert envs.unwrapped.game.rules()["ply_limit"] is None
    assert env.unwrapped.game.rules()["ply_limit"] == pp.load_game("three_mens_morris").rules()["ply_limit"]
    single = gym.make("perfectplay/ThreeMensMorris-v0", ply_limit=None)
    assert single.unwrapped.game.rules()["ply_limit"] is None


@pytest.fixture(scope="module")
def three_tables(tmp_path_factory):
    """Three Men's Morris solved whole."""
    out = tmp_path_factory.mktemp("three_tables")
    pp.tablebase.build("three_mens_morris", out, whole_game=True, progress=False)
    return str(out)


def test_perfect_opponent_wins_every_game_as_first_player(three_tables):
    env = ge.PerfectPlayEnv(
        "three_mens_morris", agent_player=1, opponent="perfect", tablebase=three_tables
    )
    check_env(env, skip_render_check=True)
    for seed in range(12):
        trace, info = play_episode(env, seed)
        assert trace[-1][1] == -1.0 and len(trace) <= 5, (seed, len(trace))
        assert info["winner"] == 0


def test_perfect_vector_env_and_subspace_starts(three_tables):
    envs = ge.PerfectPlayVectorEnv(
        num_envs=8, game_id="three_mens_morris", agent_player=1, opponent="perfect",
        tablebase=pp.tablebase.open(three_tables),
    )
    envs.reset(seed=1)
    rewards = []
    for _ in range(30):
        _, reward, terminated, truncated, _ = envs.step(envs.sample_legal_actions())
        rewards.extend(reward[terminated | truncated])
    assert rewards and set(rewards) == {-1.0}
    env = ge.PerfectPlayEnv("nine_mens_morris", start="subspace:4-3")
    for seed in range(5):
        env.reset(seed=seed)
        board = env.state.fen().split()[0]
        assert (board.count("W"), board.count("B")) == (4, 3)
    env = ge.PerfectPlayEnv("nine_mens_morris", start=lambda rng: "WWW/.../.../B...../B.B/.../... b 0 0")
    env.reset(seed=0)
    assert env.state.fen().startswith("WWW")


# White to move with two men and none in hand: lost before anyone acts.
FINISHED = "WW./.../.../B...../B.B/.../... w 0 0"
PLAYABLE = "WWW/.../.../B...../B.B/.../... b 0 0"


def test_a_reset_always_leaves_the_agent_an_action():
    drawn = []

    def start(rng):
        drawn.append(len(drawn))
        return FINISHED if len(drawn) < 3 else PLAYABLE

    env = ge.PerfectPlayEnv("nine_mens_morris", agent_player=1, start=start)
    obs, info = env.reset(seed=0)
    assert len(drawn) == 3 and env.state.fen().startswith("WWW")
    assert info["action_mask"].any() and info["current_player"] == 1
    env.step(env.action_space.sample(mask=info["action_mask"]))

    with pytest.raises(ValueError, match="over before the agent"):
        env.reset(options={"fen": FINISHED})
    with pytest.raises(ValueError, match=f"every one of {ge.START_DRAWS} starts"):
        ge.PerfectPlayEnv("nine_mens_morris", start=lambda rng: FINISHED).reset(seed=0)


def test_a_start_of_another_game_is_refused():
    other = pp.load_game("nine_mens_morris", ply_limit=40).state_from_fen(PLAYABLE)
    env = ge.PerfectPlayEnv("nine_mens_morris", agent_player=1, start=lambda rng: other)
    with pytest.raises(ValueError, match="ply_limit=40"):
        env.reset(seed=0)
    checkers = pp.load_game("checkers").new_initial_state()
    env = ge.PerfectPlayEnv("nine_mens_morris", start=lambda rng: checkers)
    with pytest.raises(ValueError, match="a state of checkers"):
        env.reset(seed=0)
    env = ge.PerfectPlayEnv("nine_mens_morris", start=lambda rng: 42)
    with pytest.raises(TypeError, match="not int"):
        env.reset(seed=0)


def test_the_vector_env_refuses_reset_options():
    envs = ge.PerfectPlayVectorEnv(num_envs=2, game_id="nine_mens_morris")
    envs.reset(seed=0, options={})
    with pytest.raises(ValueError, match="no options"):
        envs.reset(seed=0, options={"fen": PLAYABLE})


def test_closing_the_env_closes_only_tables_it_opened(three_tables):
    opened = pp.tablebase.open(three_tables)
    env = ge.PerfectPlayEnv("three_mens_morris", opponent="perfect", tablebase=opened)
    env.close()
    assert not opened.closed
    env = ge.PerfectPlayEnv("three_mens_morris", opponent="perfect", tablebase=three_tables)
    env.close()
    assert env.tablebase.closed


def test_perfect_play_arguments_are_checked(tmp_path):
    with pytest.raises(ValueError, match="tablebase"):
        ge.PerfectPlayEnv("three_mens_morris", opponent="perfect")
    with pytest.raises(ValueError, match="subspace"):
        ge.PerfectPlayEnv("nine_mens_morris", start="4-3")
    with pytest.raises(ValueError, match="no such subspace"):
        ge.PerfectPlayEnv("nine_mens_morris", start="subspace:12-3")
    with pytest.raises(pp.MissingTableError, match="needs") as caught:
        ge.PerfectPlayVectorEnv(
            num_envs=2, game_id="nine_mens_morris", opponent="perfect", tablebase=str(tmp_path),
            start="subspace:4-3",
        )
    assert caught.value.missing == ["3-3", "3-4", "4-3"]
    # Every missing table is in `missing`; the message names the first twelve and a count.
    with pytest.raises(pp.MissingTableError) as caught:
        ge.PerfectPlayVectorEnv(
            num_envs=2, game_id="nine_mens_morris", opponent="perfect", tablebase=str(tmp_path),
            start="subspace:8-8",
        )
    missing = caught.value.missing
    assert len(missing) > 12 and caught.value.subspace == missing[0]
    assert f"and {len(missing) - 12} more" in str(caught.value)


def test_tables_without_a_perfect_opponent_are_refused(three_tables):
    for opponent in ("random", lambda state: state.legal_actions()[0]):
        with pytest.raises(ValueError, match="read by opponent='perfect' alone"):
            ge.PerfectPlayEnv("three_mens_morris", opponent=opponent, tablebase=three_tables)
    with pytest.raises(ValueError, match="alone"):
        ge.PerfectPlayVectorEnv(
            num_envs=2, game_id="three_mens_morris", opponent="random", tablebase=three_tables
        )


def test_what_pickles_is_what_the_docs_say():
    import pickle

    # The single env pickles whole, its game in progress included.
    env = gym.make("perfectplay/ThreeMensMorris-v0")
    env.reset(seed=0)
    env.step(env.unwrapped.state.legal_actions()[0])
    before = env.unwrapped.state.fen()
    again = pickle.loads(pickle.dumps(env))
    assert again.unwrapped.state.fen() == before
    # A subspace start too, its random generator with it: both draw the same next start.
    sampled = ge.PerfectPlayEnv("three_mens_morris", start="subspace:3-3")
    sampled.reset(seed=4)
    copy = pickle.loads(pickle.dumps(sampled))
    assert copy.reset()[0].tolist() == sampled.reset()[0].tolist()
    assert copy.state.fen() == sampled.state.fen()
    # The batched envs do not: they are rebuilt from their arguments.
    for batched in (
        pp.VectorEnv("three_mens_morris", 2),
        gym.make_vec("perfectplay/ThreeMensMorris-v0", num_envs=2),
    ):
        with pytest.raises(TypeError, match="pickle"):
            pickle.dumps(batched)
