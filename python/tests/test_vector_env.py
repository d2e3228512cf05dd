"""The batched environment: agreement with State, autoreset, determinism, errors, opponents."""

import hashlib
import os
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest
from _helpers import child_cwd

import perfectplay as pp


def crosscheck(game_id, num_envs, steps, seed=0, **rules):
    """Steps a VectorEnv with sampled actions and the same actions through State objects,
    comparing everything the env reports, autoresets included. Returns the episodes ended."""
    env = pp.VectorEnv(game_id, num_envs, seed=seed, **rules)
    game = env.game
    assert game == pp.load_game(game_id, **rules)
    states = [game.new_initial_state() for _ in range(num_envs)]
    obs, info = env.reset()

    def compare(obs, info):
        for i, state in enumerate(states):
            assert np.array_equal(obs[i], state.observation())
            assert np.array_equal(info["action_mask"][i], state.legal_action_mask())
            assert info["current_player"][i] == state.current_player()
            assert env.fen(i) == state.fen()

    compare(obs, info)
    ended = 0
    for _ in range(steps):
        actions = env.sample_legal_actions().copy()
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert rewards.shape == (num_envs, 2)
        for i, state in enumerate(states):
            if state.is_terminal():
                states[i] = state = game.new_initial_state()
                assert not terminated[i] and not truncated[i]
                assert list(rewards[i]) == [0.0, 0.0]
                continue
            assert actions[i] in state.legal_actions()
            state.apply_action(int(actions[i]))
            outcome = state.outcome()
            if outcome is None:
                assert not terminated[i] and not truncated[i]
            else:
                ended += 1
                assert terminated[i] == (not outcome.truncated)
                assert truncated[i] == outcome.truncated
            assert list(rewards[i]) == state.returns()
        compare(obs, info)
    return ended


@pytest.mark.parametrize(
    "game_id,rules",
    [
        ("checkers", {"ply_limit": 60}),
        ("checkers", {"ply_limit": 30, "adjudication": True}),
        ("checkers", {"first_player": "white", "ply_limit": 200}),
        ("checkers", {"mandatory_capture": False, "complete_jumps": False, "ply_limit": 120}),
        ("checkers", {"complete_jumps": False, "ply_limit": 120}),
        ("nine_mens_morris", {"ply_limit": 80}),
        ("twelve_mens_morris", {}),
        ("nine_mens_morris_no_flying", {"ply_limit": 150}),
        ("shah", {"ply_limit": 100}),
        ("lasker_morris", {"ply_limit": 100}),
        ("morabaraba", {"ply_limit": 100}),
        ("six_mens_morris", {}),
        ("three_mens_morris", {}),
    ],
)
def test_env_agrees_with_state(game_id, rules):
    assert crosscheck(game_id, 12, 300, seed=3, **rules) > 0


def test_buffers_types_and_shapes():
    env = pp.VectorEnv("checkers", 5)
    obs, info = env.reset(seed=1)
    assert obs.dtype == np.float32 and obs.shape == (5, 5, 8, 8)
    assert info["action_mask"].dtype == np.bool_ and info["action_mask"].shape == (5, 128)
    assert info["current_player"].dtype == np.int32
    assert list(env.current_player) == [0] * 5
    assert env.action_mask.shape == (5, 128)
    assert (env.num_envs, env.num_actions, env.observation_shape) == (5, 128, (5, 8, 8))
    actions = env.sample_legal_actions()
    assert actions.dtype == np.int64 and actions.shape == (5,)
    obs, rewards, terminated, truncated, info = env.step(actions)
    assert rewards.dtype == np.float32 and rewards.shape == (5, 2)
    assert terminated.dtype == np.bool_ and truncated.dtype == np.bool_
    assert list(env.current_player) == [1] * 5
    env.step([int(a) for a in env.sample_legal_actions()])
    env.step(env.sample_legal_actions().astype(np.int32))
    assert "VectorEnv checkers x5" in repr(env)


@pytest.mark.parametrize("game_id", ["checkers", "nine_mens_morris", "three_mens_morris"])
def test_packed_masks_unpack_to_the_bool_masks(game_id):
    plain = pp.VectorEnv(game_id, 17, seed=4)
    packed = pp.VectorEnv(game_id, 17, seed=4, packed_mask=True)
    n = plain.num_actions
    _, info = plain.reset()
    _, packed_info = packed.reset()
    for _ in range(150):
        mask = packed_info["action_mask"]
        assert mask.dtype == np.uint8 and mask.shape == (17, (n + 7) // 8)
        assert mask is packed.action_mask or np.array_equal(mask, packed.action_mask)
        bits = np.unpackbits(mask, axis=1, bitorder="little")
        assert np.array_equal(bits[:, :n].astype(bool), info["action_mask"])
        assert not bits[:, n:].any()
        actions = plain.sample_legal_actions()
        assert np.array_equal(actions, packed.sample_legal_actions())
        *_, info = plain.step(actions)
        *_, packed_info = packed.step(actions)


@pytest.mark.parametrize(
    "game_id", ["checkers", "nine_mens_morris", "twelve_mens_morris", "three_mens_morris"]
)
def test_uint8_observations_are_the_float_ones_with_hands_counted(game_id):
    floats = pp.VectorEnv(game_id, 13, seed=2)
    small = pp.VectorEnv(game_id, 13, seed=2, obs_dtype="uint8", packed_mask=True)
    assert (floats.obs_dtype, small.obs_dtype) == ("float32", "uint8")
    game = floats.game
    morris = game.family == "morris"
    men = game.rules()["men"] if morris else 1
    assert floats.observation_high == 1.0 and small.observation_high == men
    # The planes of men in hand (morris planes 3 and 4) count the men; the rest are equal.
    scale = np.ones(floats.observation_shape, dtype=np.float64)
    if morris:
        scale[3:5] = men
    want_obs, _ = floats.reset()
    obs, _ = small.reset()
    for _ in range(200):
        assert obs.dtype == np.uint8 and obs.shape == want_obs.shape
        assert np.array_equal(obs, np.rint(want_obs * scale).astype(np.uint8))
        assert obs.max() <= small.observation_high
        actions = floats.sample_legal_actions()
        assert np.array_equal(actions, small.sample_legal_actions())
        want_obs, *_ = floats.step(actions)
        obs, *_ = small.step(actions)


def test_obs_dtype_takes_names_and_numpy_dtypes_only():
    for value in ("uint8", np.uint8, np.dtype("uint8")):
        assert pp.VectorEnv("checkers", 2, obs_dtype=value).obs_dtype == "uint8"
    for value in (None, "float32", np.float32):
        assert pp.VectorEnv("checkers", 2, obs_dtype=value).obs_dtype == "float32"
    for value in ("float64", np.int16, "bogus", 5):
        with pytest.raises(ValueError, match="obs_dtype"):
            pp.VectorEnv("checkers", 2, obs_dtype=value)


def test_arrays_are_fresh_by_default_and_reused_with_copy_false():
    env = pp.VectorEnv("nine_mens_morris", 3)
    obs1, _ = env.reset()
    before = obs1.copy()
    kept = [env.step(env.sample_legal_actions())[0] for _ in range(3)]
    assert obs1 is not kept[0] and np.array_equal(obs1, before)
    assert not any(np.shares_memory(a, b) for a in kept for b in kept if a is not b)
    env = pp.VectorEnv("nine_mens_morris", 3, copy=False)
    obs1, _ = env.reset()
    obs2, *_ = env.step(env.sample_legal_actions())
    assert obs1 is obs2


def test_ply_limit_means_what_the_rules_say():
    # Plies; None for no limit; left out, the game's own.
    assert pp.VectorEnv("checkers", 2, ply_limit=None).game.rules()["ply_limit"] is None
    assert pp.VectorEnv("checkers", 2, ply_limit=7).game.rules()["ply_limit"] == 7
    default = pp.load_game("checkers").rules()["ply_limit"]
    assert pp.VectorEnv("checkers", 2).game.rules()["ply_limit"] == default
    env = pp.VectorEnv("nine_mens_morris", 2, ply_limit=5)
    env.reset(seed=0)
    truncated = np.zeros(2, dtype=bool)
    for ply in range(5):
        assert not truncated.any()
        _, _, _, truncated, _ = env.step(env.sample_legal_actions())
    assert truncated.all()


def test_one_seed_per_env_plays_as_one_env_with_that_seed():
    env = pp.VectorEnv("nine_mens_morris", 3, seed=99)
    env.reset(seed=[5, 6, 5])
    alone = [pp.VectorEnv("nine_mens_morris", 1, seed=s) for s in (5, 6)]
    for _ in range(40):
        actions = env.sample_legal_actions()
        env.step(actions)
        for i, one in zip((0, 1), alone):
            single = one.sample_legal_actions()
            assert single[0] == actions[i]
            one.step(single)
            assert one.fen(0) == env.fen(i)
    assert env.fen(0) == env.fen(2)
    with pytest.raises(ValueError, match="one seed per env"):
        env.reset(seed=[1, 2])
    for bad in ("12", [1.5, 2, 3], [True, 2, 3]):
        with pytest.raises(TypeError, match="seed"):
            env.reset(seed=bad)
    # A value that is no seed is refused by value, as one seed for the batch is.
    for bad, named in (([1, -1, 3], r"seed\[1\] .*not -1"), ([1, 2, 2**64], r"seed\[2\]")):
        with pytest.raises(ValueError, match=named):
            env.reset(seed=bad)
    env.reset(seed=np.array([5, 6, 5], dtype=np.uint64))
    assert env.fen(0) == env.fen(2)


def test_tablebase_takes_a_path_a_list_or_a_tablebase(tmp_path):
    import pathlib

    pp.tablebase.build("three_mens_morris", tmp_path, whole_game=True, progress=False)
    tb = pp.tablebase.open(tmp_path)
    for given in (tmp_path, str(tmp_path), [pathlib.Path(tmp_path)], tb):
        env = pp.VectorEnv("three_mens_morris", 2, opponent="perfect", tablebase=given)
        env.step(env.sample_legal_actions())
    with pytest.raises(TypeError, match="tablebase"):
        pp.VectorEnv("three_mens_morris", 2, opponent="perfect", tablebase=42)
    # Tables nothing would read are refused, not ignored: only a perfect opponent reads them.
    for opponent in (None, "random"):
        for start in (None, "subspace:3-3"):
            with pytest.raises(ValueError, match="read by opponent=\"perfect\" alone"):
                pp.VectorEnv(
                    "three_mens_morris", 2, opponent=opponent, tablebase=tmp_path, start=start
                )
    with pytest.raises(ValueError, match="empty"):
        pp.VectorEnv("three_mens_morris", 2, opponent="perfect", tablebase=[])


def test_autoreset_next_step():
    env = pp.VectorEnv("checkers", 4, ply_limit=3)
    start_obs, _ = env.reset()
    start_obs = start_obs.copy()
    start_fen = env.fen(0)
    for _ in range(2):
        *_, terminated, truncated, info = env.step(env.sample_legal_actions())
        assert not truncated.any()
    obs, rewards, terminated, truncated, info = env.step(env.sample_legal_actions())
    assert truncated.all() and not terminated.any()
    assert (rewards == 0).all()
    assert (info["current_player"] == pp.TERMINAL_PLAYER).all()
    assert not info["action_mask"].any()
    assert env.fen(0) != start_fen
    # The action of a finished env is ignored, illegal or not.
    obs, rewards, terminated, truncated, info = env.step(np.array([0, 5, -1, 999]))
    assert not truncated.any() and not terminated.any()
    assert np.array_equal(obs, start_obs)
    assert env.fen(0) == start_fen
    assert (info["current_player"] == 0).all()


def test_illegal_action_names_the_env_and_changes_nothing():
    env = pp.VectorEnv("nine_mens_morris", 6, seed=4)
    for _ in range(5):
        obs, _, _, _, info = env.step(env.sample_legal_actions())
    before = ([env.fen(i) for i in range(6)], obs.copy(), info["action_mask"].copy())
    actions = env.sample_legal_actions().copy()
    illegal = int(np.flatnonzero(~env.action_mask[3])[0])
    actions[3] = illegal
    with pytest.raises(pp.IllegalActionError, match="env 3") as err:
        env.step(actions)
    assert isinstance(err.value, ValueError)
    assert f"action {illegal}" in str(err.value)
    after = ([env.fen(i) for i in range(6)], obs, env.action_mask)
    assert before[0] == after[0]
    assert np.array_equal(before[1], after[1]) and np.array_equal(before[2], after[2])
    actions[3] = env.sample_legal_actions()[3]
    env.step(actions)
    with pytest.raises(ValueError, match="one action per env"):
        env.step(np.zeros(5, dtype=np.int64))
    with pytest.raises(pp.IllegalActionError, match="env 0"):
        env.step(np.full(6, -7))


def test_a_sample_is_trusted_only_as_drawn_and_until_a_step():
    env = pp.VectorEnv("nine_mens_morris", 4, seed=1)
    sampled = env.sample_legal_actions()
    # Changed in place (the env's own array) after it was drawn: checked again.
    illegal = int(np.flatnonzero(~env.action_mask[2])[0])
    sampled[2] = illegal
    with pytest.raises(pp.IllegalActionError, match="env 2"):
        env.step(sampled)
    actions = env.sample_legal_actions().copy()
    env.step(actions)
    # The same actions, legal before the step, are placements on points now taken.
    with pytest.raises(pp.IllegalActionError, match="env 0"):
        env.step(actions)
    env.step(env.sample_legal_actions())


def test_samples_are_legal_however_calls_mix():
    # Samples drawn within a pass, handed out later, or drawn afresh after unused draws: each
    # is legal in the positions of its call.
    env = pp.VectorEnv("nine_mens_morris", 16, seed=3)
    rng = np.random.default_rng(0)
    for turn in range(300):
        mask = env.action_mask.copy()
        if turn % 7 in (2, 3):
            actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        else:
            actions = env.sample_legal_actions()
            if turn % 5 == 0:
                actions = env.sample_legal_actions()
            live = mask.any(axis=1)
            assert mask[np.arange(16), actions][live].all()
        env.step(actions)
        if turn == 150:
            env.reset()


def test_a_resized_sample_array_is_refused_and_the_env_goes_on():
    # The env's own array, handed out with copy=False.
    env = pp.VectorEnv("nine_mens_morris", 4, seed=0, copy=False)
    sampled = env.sample_legal_actions()
    sampled.resize(3, refcheck=False)
    with pytest.raises(ValueError, match="sample array"):
        env.sample_legal_actions()
    obs, _ = env.reset(seed=1)
    env.step(np.array([m.nonzero()[0][0] for m in env.action_mask]))


def test_a_resized_sample_array_is_refused_when_a_step_drew_the_samples():
    # After a step that drew the next samples, sampling only copies them (without the pool):
    # the same refusal.
    env = pp.VectorEnv("nine_mens_morris", 4, seed=0, copy=False)
    sampled = env.sample_legal_actions()
    env.step(sampled)
    sampled.resize(3, refcheck=False)
    with pytest.raises(ValueError, match="sample array"):
        env.sample_legal_actions()
    env.reset(seed=1)
    env.step(np.array([m.nonzero()[0][0] for m in env.action_mask]))


def test_constructor_errors():
    with pytest.raises(pp.UnknownGameError):
        pp.VectorEnv("chess", 2)
    with pytest.raises(ValueError, match="valid options"):
        pp.VectorEnv("checkers", 2, wings=2)
    with pytest.raises(ValueError, match="random, perfect"):
        pp.VectorEnv("checkers", 2, opponent="minimax")
    with pytest.raises(ValueError, match="agent_player"):
        pp.VectorEnv("checkers", 2, opponent="random", agent_player=2)
    with pytest.raises(ValueError, match="num_envs"):
        pp.VectorEnv("checkers", 0)


def digest(env, steps):
    h = hashlib.sha256()
    obs, info = env.reset()
    h.update(obs.tobytes())
    for _ in range(steps):
        actions = env.sample_legal_actions()
        h.update(actions.tobytes())
        for array in env.step(actions)[:4]:
            h.update(array.tobytes())
    return h.hexdigest()


def test_same_seed_same_games_different_seed_different_games():
    for game_id in ["checkers", "nine_mens_morris"]:
        a = digest(pp.VectorEnv(game_id, 64, seed=7), 200)
        b = digest(pp.VectorEnv(game_id, 64, seed=7), 200)
        c = digest(pp.VectorEnv(game_id, 64, seed=8), 200)
        assert a == b != c
    env = pp.VectorEnv("checkers", 8, seed=1)
    first = digest(env, 50)
    env.reset(seed=1)
    assert digest(env, 50) == first
    assert digest(pp.VectorEnv("checkers", 8, seed=1), 50) == first


def test_results_do_not_depend_on_the_thread_count():
    script = textwrap.dedent(
        """
        import hashlib, perfectplay as pp
        for game_id, opponent in [("checkers", None), ("nine_mens_morris", "random")]:
            env = pp.VectorEnv(game_id, 300, seed=5, opponent=opponent, ply_limit=120)
            h = hashlib.sha256()
            for _ in range(300):
                a = env.sample_legal_actions()
                for x in env.step(a)[:4]:
                    h.update(x.tobytes())
            print(h.hexdigest())
        """
    )
    outputs = []
    for threads in ["1", "2", "3"]:
        run = subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "RAYON_NUM_THREADS": threads},
            capture_output=True,
            text=True,
            check=True,
            cwd=child_cwd(),
        )
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1] == outputs[2]
    assert len(outputs[0].split()) == 2


def test_envs_stepped_from_several_python_threads_play_the_games_of_their_seeds():
    # The first thread that steps envs has a pool of its own, the others use rayon's global
    # pool: envs stepped from threads running at once, and an env made in one thread and
    # stepped in another, play the same games as on the main thread.
    seeds = range(4)
    want = [digest(pp.VectorEnv("nine_mens_morris", 100, seed=s), 60) for s in seeds]
    got = [None] * len(want)
    errors = []

    def play(index):
        try:
            got[index] = digest(pp.VectorEnv("nine_mens_morris", 100, seed=seeds[index]), 60)
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=play, args=(i,)) for i in range(len(want))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors and got == want
    env = pp.VectorEnv("checkers", 50, seed=3)
    moved = [None]
    thread = threading.Thread(target=lambda: moved.__setitem__(0, digest(env, 40)))
    thread.start()
    thread.join()
    assert moved[0] == digest(pp.VectorEnv("checkers", 50, seed=3), 40)


def test_an_array_another_thread_is_writing_is_refused_not_a_panic():
    # With copy=False the sampled actions are the env's own array, which a draw writes with
    # Python's lock released: a step given that array from another thread meanwhile is
    # refused with a RuntimeError, never a Rust panic (a BaseException).
    env = pp.VectorEnv("checkers", 4096, seed=7, copy=False)
    shared = env.sample_legal_actions()
    refusals, others = [], []
    stop = threading.Event()

    def guarded(call):
        while not stop.is_set():
            try:
                call()
            except RuntimeError as error:
                refusals.append(str(error))
            except pp.IllegalActionError:
                pass  # the actions were drawn for positions since stepped
            except BaseException as error:  # pragma: no cover - reported below
                others.append(error)
                return

    def draw():
        # After a reset with a seed the draw is a pass of its own, with the lock released (at
        # other times it hands out what the last pass drew).
        env.reset(seed=1)
        env.sample_legal_actions()

    threads = [
        threading.Thread(target=guarded, args=(draw,)),
        threading.Thread(target=guarded, args=(lambda: env.step(shared),)),
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not others:
        if any("being written by a call running in another thread" in r for r in refusals):
            break
        time.sleep(0.01)
    stop.set()
    for thread in threads:
        thread.join()
    assert not others, others
    assert any("being written" in r for r in refusals), "no read met a write in 60 s"
    assert all("in use by another thread" in r or "being written" in r for r in refusals)


def test_one_env_called_from_two_threads_at_once_refuses_the_second_by_name():
    # Each step releases Python's lock, so a second thread's call comes while the first's is
    # running: it is refused with a RuntimeError that says why, and the env goes on whole.
    env = pp.VectorEnv("checkers", 2048, seed=5)
    refusals, others = [], []
    stop = threading.Event()

    def hammer():
        while not stop.is_set():
            try:
                env.step(env.sample_legal_actions())
                env.current_player
            except RuntimeError as error:
                refusals.append(str(error))
            except pp.IllegalActionError:
                pass  # the other thread stepped between this one's sample and step
            except Exception as error:  # pragma: no cover - reported below
                others.append(error)
                return

    threads = [threading.Thread(target=hammer) for _ in range(2)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    while not refusals and not others and time.monotonic() < deadline:
        time.sleep(0.01)
    stop.set()
    for thread in threads:
        thread.join()
    assert not others
    assert refusals, "no call overlapped another in 60 s"
    assert all("in use by another thread" in r and "one per thread" in r for r in refusals)
    # Nothing was left half done: each env's mask is that of the position it reports.
    env.step(env.sample_legal_actions())
    mask, players = env.action_mask, env.current_player
    compared = 0
    for i in range(0, 2048, 7):
        state = env.game.state_from_fen(env.fen(i)) if players[i] >= 0 else None
        # An env in the middle of a multiple jump writes the position its turn began in, where
        # its mask is that of the jumps left: only envs without a capture to make compare.
        if state is not None and not any(m.is_capture for m in state.legal_moves()):
            assert list(np.flatnonzero(mask[i])) == state.legal_actions(), i
            compared += 1
    assert compared > 100
    # Actions read through Python code that asks the env itself are read before the envs are
    # taken: one thread calling back into the env is not "another thread".
    class Asking:
        def __array__(self, dtype=None, copy=None):
            env.current_player
            return np.asarray(env.sample_legal_actions(), dtype=dtype)

    env.step(Asking())

@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_process_steps_envs_of_its_parent():
    # The parent's pool has worker threads; the forked child has none of them, and its calls
    # must still finish (the calling thread does every share itself).
    import multiprocessing

    env = pp.VectorEnv("nine_mens_morris", 128, seed=4)
    for _ in range(10):
        env.step(env.sample_legal_actions())
    context = multiprocessing.get_context("fork")
    queue = context.Queue()

    def child():
        for _ in range(10):
            env.step(env.sample_legal_actions())
        queue.put([env.fen(i) for i in range(0, 128, 17)])

    # A daemon, and killed if it fails to answer, so that a hung child cannot hang the suite.
    process = context.Process(target=child, daemon=True)
    process.start()
    try:
        in_child = queue.get(timeout=120)
        process.join(timeout=120)
    finally:
        if process.is_alive():
            process.kill()
    assert process.exitcode == 0
    # The same ten steps in the parent reach the same positions.
    for _ in range(10):
        env.step(env.sample_legal_actions())
    assert in_child == [env.fen(i) for i in range(0, 128, 17)]


@pytest.mark.parametrize("agent_player", [0, 1])
def test_random_opponent_single_agent(agent_player):
    env = pp.VectorEnv("nine_mens_morris", 32, seed=2, opponent="random", agent_player=agent_player, ply_limit=60)
    assert env.opponent == "random" and env.agent_player == agent_player
    obs, info = env.reset()
    assert (info["current_player"] == agent_player).all()
    men_on_board = env.fen(0).split()[0].count("W") + env.fen(0).split()[0].count("B")
    assert men_on_board == agent_player
    finished = 0
    for _ in range(300):
        obs, rewards, terminated, truncated, info = env.step(env.sample_legal_actions())
        assert rewards.shape == (32,) and rewards.dtype == np.float32
        done = terminated | truncated
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert (rewards[~terminated] == 0).all()
        players = info["current_player"]
        assert (players[done] == pp.TERMINAL_PLAYER).all()
        assert (players[~done] == agent_player).all()
        finished += int(done.sum())
    assert finished > 32


def test_a_reset_leaves_the_agent_to_act_where_the_opponent_moves_first():
    # In 3-3 White (the opponent here) often closes a mill at once and wins: drawn again.
    env = pp.VectorEnv(
        "nine_mens_morris", 64, seed=3, start="subspace:3-3", opponent="random", agent_player=1
    )
    obs, info = env.reset()
    assert (info["current_player"] == 1).all()
    ended = np.zeros(64, dtype=bool)
    for _ in range(40):
        obs, rewards, terminated, truncated, info = env.step(env.sample_legal_actions())
        players = info["current_player"]
        # An env that ended last step starts again with the agent to act.
        assert (players[ended] == 1).all() and not (terminated | truncated)[ended].any()
        ended = terminated | truncated
    with pytest.raises(ValueError, match="over before the agent"):
        pp.VectorEnv("nine_mens_morris", 4, opponent="random", agent_player=1, ply_limit=1)


def test_a_seed_given_to_the_constructor_plays_as_a_reset_with_it():
    for kwargs in ({"start": "subspace:4-3"}, {"opponent": "random", "agent_player": 1}):
        made = pp.VectorEnv("nine_mens_morris", 4, seed=5, **kwargs)
        reseeded = pp.VectorEnv("nine_mens_morris", 4, seed=0, **kwargs)
        reseeded.reset(seed=5)
        assert [made.fen(i) for i in range(4)] == [reseeded.fen(i) for i in range(4)], kwargs


def test_an_array_made_read_only_is_refused_before_any_env_moves():
    env = pp.VectorEnv("nine_mens_morris", 4, seed=0, copy=False)
    obs, _ = env.reset()
    fens = [env.fen(i) for i in range(4)]
    actions = env.sample_legal_actions().copy()
    obs.flags.writeable = False
    with pytest.raises(ValueError, match="observation array cannot be written"):
        env.step(actions)
    assert [env.fen(i) for i in range(4)] == fens
    obs.flags.writeable = True
    env.step(actions)
    env.sample_legal_actions().flags.writeable = False
    with pytest.raises(ValueError, match="sampled actions array cannot be written"):
        env.sample_legal_actions()


def test_random_opponent_loses_to_nobody_in_particular():
    """Random against random: over many games both sides win some."""
    env = pp.VectorEnv("three_mens_morris", 256, seed=9, opponent="random")
    wins = losses = 0
    for _ in range(60):
        _, rewards, terminated, _, _ = env.step(env.sample_legal_actions())
        wins += int((rewards == 1).sum())
        losses += int((rewards == -1).sum())
    assert wins > 20 and losses > 20
