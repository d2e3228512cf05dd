"""What another process or a careless call does to the package: tables changed on disk while
open, impossible sizes, inputs that would be wrapped or rounded into other values, files that
are not tables. Each is refused with an error naming the problem; none crashes, none answers
from the wrong bytes."""

import itertools
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest
from _helpers import child_cwd

import perfectplay as pp
from perfectplay import _core


@pytest.fixture()
def checkers_copy(tmp_path_factory):
    """A private 2-3 piece checkers set, built a moment ago: tests damage it."""
    out = tmp_path_factory.mktemp("checkers")
    pp.tablebase.build("checkers", out, max_pieces=3, progress=False)
    # File times are kept in clock ticks: a write in the tick of the build could go unseen.
    time.sleep(0.05)
    return out


def rows_of_table(tb, name, count=200):
    """Encoded rows of positions stored in table `name` (not over by the rules)."""
    states = tb.sample_states(name, count, seed=0)
    return tb.encode(states)


def table_path(directory, name):
    return os.path.join(directory, name + ".ppdb")


def run_python(code, timeout=60):
    """Runs `code` in a fresh interpreter with faulthandler on (as pytest has it), so that a
    crash is the child's, reported by its exit status and output."""
    return subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=child_cwd(),
    )


def test_a_table_truncated_while_open_is_an_error_not_a_crash(checkers_copy):
    result = run_python(
        f"""
        import os, numpy as np, perfectplay as pp
        tb = pp.tablebase.open({str(checkers_copy)!r})
        rows = tb.encode(tb.sample_states("2010-60", 200, seed=0))
        wdl, plies = tb.probe_batch(rows)
        os.truncate(os.path.join({str(checkers_copy)!r}, "2010-60.ppdb"), 0)
        for attempt in range(2):
            try:
                tb.probe_batch(rows)
            except pp.TablebaseError as e:
                assert "changed on disk" in str(e) and "2010-60" in str(e), e
            else:
                raise AssertionError("a probe of a truncated table answered")
        print("alive")
        """
    )
    assert result.returncode == 0, result.stderr
    assert "alive" in result.stdout


def test_a_table_written_in_place_while_open_is_refused(checkers_copy):
    tb = pp.tablebase.open(checkers_copy)
    rows = rows_of_table(tb, "1010-60")
    before = tb.probe_batch(rows)
    with open(table_path(checkers_copy, "1010-60"), "r+b") as f:
        f.seek(-16, os.SEEK_END)
        f.write(b"\xaa" * 16)
    # Asked, the tablebase looks at once; queries look again a tenth of a second after they
    # last found the file unchanged.
    with pytest.raises(pp.TablebaseError, match="written to"):
        tb.check_tables()
    time.sleep(0.25)
    with pytest.raises(pp.TablebaseError, match="changed on disk"):
        tb.probe_batch(rows)
    with pytest.raises(pp.TablebaseError, match="written to"):
        tb.probe(tb.sample_states("1010-60", 1, seed=0)[0])
    # Opened again, the damaged file fails its checksum.
    with pytest.raises(pp.TablebaseError, match="checksum mismatch"):
        pp.tablebase.open(checkers_copy).probe_batch(rows)
    assert before[0].shape == (len(rows),)


def test_a_table_replaced_by_a_rebuild_keeps_being_read(checkers_copy, tmp_path):
    tb = pp.tablebase.open(checkers_copy)
    rows = rows_of_table(tb, "1010-60")
    before = tb.probe_batch(rows)
    copy = tmp_path / "copy.ppdb"
    path = table_path(checkers_copy, "1010-60")
    with open(path, "rb") as f:
        copy.write_bytes(f.read())
    os.replace(copy, path)
    after = tb.probe_batch(rows)
    assert np.array_equal(before[0], after[0]) and np.array_equal(before[1], after[1])


def test_the_perfect_opponent_survives_its_tables_being_cut_short(tmp_path_factory):
    out = tmp_path_factory.mktemp("three")
    pp.tablebase.build("three_mens_morris", out, whole_game=True, progress=False)
    result = run_python(
        f"""
        import glob, os, perfectplay as pp
        env = pp.VectorEnv("three_mens_morris", 64, seed=0, opponent="perfect",
                           tablebase={str(out)!r}, agent_player=1)
        env.reset()
        for _ in range(3):
            env.step(env.sample_legal_actions())
        for path in glob.glob(os.path.join({str(out)!r}, "*.ppdb")):
            os.truncate(path, 0)
        for _ in range(30):
            env.step(env.sample_legal_actions())
        assert env.perfect_misses > 0, env.perfect_misses
        print("alive", env.perfect_misses)
        """
    )
    assert result.returncode == 0, result.stderr
    assert "alive" in result.stdout


def test_the_perfect_opponent_refuses_tables_it_cannot_use_when_made(tmp_path_factory):
    three = tmp_path_factory.mktemp("three")
    pp.tablebase.build("three_mens_morris", three, whole_game=True, progress=False)
    assert os.path.exists(table_path(three, "3-3"))

    def make(tables):
        return pp.VectorEnv(
            "nine_mens_morris", 8, opponent="perfect", tablebase=tables, start="subspace:3-3"
        )

    with pytest.raises(pp.TablebaseError, match="three_mens_morris"):
        make(three)
    nine = tmp_path_factory.mktemp("nine")
    pp.tablebase.build("nine_mens_morris", nine, subspaces=["3-3"], threads=1, progress=False)
    make(nine)
    path = table_path(nine, "3-3")
    os.truncate(path, os.path.getsize(path) - 1)
    with pytest.raises(pp.TablebaseError, match="truncated"):
        make(nine)


def test_ctrl_c_stops_a_deep_perft():
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(
            """
            import perfectplay as pp
            game = pp.load_game("three_mens_morris")
            print("counting", flush=True)
            try:
                game.perft(game.new_initial_state(), 60)
            except KeyboardInterrupt:
                print("stopped", flush=True)
            """
        )],
        stdout=subprocess.PIPE,
        text=True,
        cwd=child_cwd(),
        # Python turns SIGINT into KeyboardInterrupt only where it was not ignored when Python
        # started, and a shell without job control starts its background jobs so.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # Killed whatever happens: a perft to depth 60 that missed the signal would spin for ever.
    try:
        assert child.stdout.readline() == "counting\n"
        time.sleep(0.5)
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=30)
        assert out == "stopped\n" and child.returncode == 0
    finally:
        child.kill()
        child.wait()


@pytest.mark.parametrize("num_envs", [10**9, 2**63, 2**64 - 1])
def test_a_vector_env_too_large_to_allocate_is_a_value_error(num_envs):
    with pytest.raises(ValueError, match=r"would need \d+ bytes \(\d+ per env\)"):
        pp.VectorEnv("checkers", num_envs)


def test_probe_rows_are_taken_exactly_or_refused_naming_the_row(checkers_copy):
    tb = pp.tablebase.open(checkers_copy)
    rows = rows_of_table(tb, "1010-60", count=10)
    expected = tb.probe_batch(rows)
    # Any integer dtype whose values fit is taken as it is.
    for dtype in (np.int64, np.uint64, np.uint32):
        got = tb.probe_batch(rows.astype(dtype))
        assert np.array_equal(got[0], expected[0]), dtype

    wide = rows.astype(np.int64)
    wide[3, 1] += 2**32
    with pytest.raises(pp.TablebaseError, match=r"row 3, field 1, is \d+: fields are 0 to 4294967295"):
        tb.probe_batch(wide)
    negative = rows.astype(np.int64)
    negative[5, 0] = -1
    with pytest.raises(pp.TablebaseError, match="row 5, field 0, is -1"):
        tb.probe_batch(negative)
    player = rows.astype(np.int64)
    player[7, 3] = -(2**32)
    with pytest.raises(pp.TablebaseError, match="row 7, field 3"):
        tb.probe_batch(player)
    with pytest.raises(TypeError, match="must be integers, not an array of dtype float64"):
        tb.probe_batch(rows.astype(np.float64) + 0.9)
    with pytest.raises(TypeError, match="dtype bool"):
        tb.probe_batch(rows.astype(bool))
    with pytest.raises(pp.TablebaseError, match=r"\[N, 4\]"):
        tb.probe_batch(rows.reshape(-1))


def test_step_actions_are_taken_exactly_or_refused():
    env = pp.VectorEnv("three_mens_morris", 4, seed=0)
    env.reset()
    actions = env.sample_legal_actions()
    for bad in (actions.astype(np.float64), np.array([np.nan] * 4)):
        with pytest.raises(TypeError, match="actions must be integers"):
            env.step(bad)
    with pytest.raises(ValueError, match=r"actions\[0\] is 18446744073709551615"):
        env.step(np.full(4, 2**64 - 1, dtype=np.uint64))
    with pytest.raises(ValueError, match="one-dimensional"):
        env.step(actions.reshape(2, 2))
    # A 0-d array is one number, refused as the number itself is.
    one = pp.VectorEnv("three_mens_morris", 1, seed=0)
    for scalar in (np.int32(3), np.array(3, dtype=np.int8), np.uint64(3)):
        with pytest.raises(ValueError, match=r"one-dimensional.*shape \[\]"):
            one.step(scalar)
    # Exact integers of other widths, and lists, step as they are.
    env.step(actions.astype(np.int32))
    env.step(env.sample_legal_actions().tolist())


@pytest.mark.parametrize("kind", ["directory", "dangling link", "fifo"])
def test_a_broken_table_is_broken_not_missing(checkers_copy, kind):
    tb = pp.tablebase.open(checkers_copy)
    state = tb.sample_states("1010-60", 1, seed=0)[0]
    path = table_path(checkers_copy, "1010-60")
    os.remove(path)
    if kind == "directory":
        os.mkdir(path)
    elif kind == "dangling link":
        os.symlink(path + ".nothing", path)
    else:
        os.mkfifo(path)
    with pytest.raises(pp.TablebaseError, match="not a table file") as raised:
        tb.probe(state)
    assert not isinstance(raised.value, KeyError)
    with pytest.raises(pp.TablebaseError):
        tb.get(state, None)


def test_a_fifo_among_the_tables_does_not_hang_open_or_a_probe(checkers_copy):
    # One FIFO under a name no probe needs, one in place of a table a probe reads.
    os.mkfifo(os.path.join(checkers_copy, "0000-00.ppdb"))
    os.remove(table_path(checkers_copy, "1010-60"))
    os.mkfifo(table_path(checkers_copy, "1010-60"))
    result = run_python(
        f"""
        import perfectplay as pp
        try:
            tb = pp.tablebase.open({str(checkers_copy)!r})
            print(tb.game.id)
        except pp.TablebaseError as e:
            print("refused:", e)
            raise SystemExit
        state = tb.sample_states("1010-60", 1, seed=0)[0]
        try:
            tb.probe(state)
        except pp.TablebaseError as e:
            print("probe refused:", e)
        """,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    # Opening reads no table (a FIFO among them is met when a probe needs it), or refuses the
    # FIFO by name; the probe refuses the FIFO it meets: either way it ends.
    said = result.stdout
    assert said.startswith("refused:") and "FIFO" in said or (
        said.startswith("checkers\nprobe refused:") and "1010-60" in said
    ), said


def test_open_takes_a_path_as_bytes(checkers_copy):
    with pp.tablebase.open(os.fsencode(checkers_copy)) as tb:
        assert tb.directories == [str(checkers_copy)]
    with pytest.raises(TypeError, match="not int"):
        pp.tablebase.open(7)


def test_open_takes_a_directory_whose_name_is_no_utf8(checkers_copy):
    # Linux names are bytes: one that is no UTF-8 is a directory like any other, given as
    # bytes or as the str `os.fsdecode` makes of it, and `directories` gives that str back.
    odd = os.path.join(os.fsencode(checkers_copy.parent), b"tables-\xff\xfe")
    os.rename(checkers_copy, odd)
    named = os.fsdecode(odd)
    game = pp.load_game("checkers")
    for given in (odd, named, [odd], [named]):
        tb = pp.Tablebase(game, given)
        assert tb.directories == [named] and os.fsencode(tb.directories[0]) == odd
        state = tb.sample_states("1010-60", 1, seed=0)[0]
        assert tb.probe(state) == pp.tablebase.open(odd).probe(state)
    with pp.tablebase.open(odd) as tb:
        assert tb.directories == [named]
    empty = os.path.join(odd, b"empty-\xff")
    os.mkdir(empty)
    with pytest.raises(pp.MissingTableError) as caught:
        pp.Tablebase(game, empty).probe(state)
    assert caught.value.directories == [os.fsdecode(empty)]


def test_iterables_raising_or_endless_are_not_read_for_ever():
    game = pp.load_game("three_mens_morris")

    def interrupted():
        yield "/tmp"
        raise KeyboardInterrupt

    # The iterable's own exception goes on as it is, not as a type error of the argument.
    with pytest.raises(KeyboardInterrupt):
        pp.Tablebase(game, interrupted())
    with pytest.raises(TypeError, match="directories takes"):
        pp.Tablebase(game, ["/tmp", 5])
    with pytest.raises(ValueError, match="more than 65536 directories"):
        pp.Tablebase(game, itertools.repeat("/tmp"))
    with pytest.raises(ValueError, match="more than 65536 directories"):
        pp.VectorEnv("three_mens_morris", 2, opponent="perfect", tablebase=itertools.repeat("/"))
    env = pp.VectorEnv("three_mens_morris", 4, seed=0)
    with pytest.raises(ValueError, match="more than 4 seeds for 4 envs"):
        env.reset(seed=itertools.count())
    with pytest.raises(ValueError, match="more than 4 seeds for 4 envs"):
        env.reset(seed=[1, 2, 3, 4, 5])


def test_perft_refuses_another_games_state():
    checkers = pp.load_game("checkers")
    nine = pp.load_game("nine_mens_morris")
    with pytest.raises(ValueError, match="counts its own states only"):
        checkers.perft(nine.new_initial_state(), 1)
    with pytest.raises(ValueError, match="counts its own states only"):
        nine.perft(pp.load_game("twelve_mens_morris").new_initial_state(), 1)
    assert checkers.perft(checkers.new_initial_state(), 1) == 7
    assert nine.perft(nine.new_initial_state(), 1) == 24


def foreign_bus_error(tmp_path, how):
    """Code that raises a SIGBUS outside any table: a read past the end of another mapped
    file (`fault`) or the signal sent (`sent`)."""
    other = tmp_path / "other.bin"
    other.write_bytes(b"x" * 8192)
    if how == "sent":
        return "os.kill(os.getpid(), signal.SIGBUS)"
    return textwrap.dedent(
        f"""
        import mmap
        f = open({str(other)!r}, "r+b")
        m = mmap.mmap(f.fileno(), 8192)
        os.truncate({str(other)!r}, 0)
        print(m[4096])
        """
    )


@pytest.mark.parametrize("how", ["fault", "sent"])
def test_a_bus_error_outside_the_tables_still_ends_the_process(checkers_copy, tmp_path, how):
    """The handler that keeps truncated tables from crashing hands every other SIGBUS to the
    handler before it (here Python's faulthandler, then the default): the process dies as it
    would have, and does not hang."""
    trigger = foreign_bus_error(tmp_path, how)
    result = run_python(
        textwrap.dedent(
            f"""
            import os, signal, perfectplay as pp
            tb = pp.tablebase.open({str(checkers_copy)!r})
            tb.probe_batch(tb.encode(tb.sample_states("1010-60", 10, seed=0)))
            """
        )
        + trigger,
        timeout=60,
    )
    assert result.returncode == -7, (result.returncode, result.stderr)
    assert "Bus error" in result.stderr, result.stderr


@pytest.mark.parametrize("how", ["fault", "sent"])
def test_a_bus_error_ends_the_process_when_faulthandler_came_after_a_table(
    checkers_copy, tmp_path, how
):
    """faulthandler enabled after a table was mapped keeps ours as its predecessor, and the
    next table mapped puts ours in front of it again: a SIGBUS outside the tables is then
    reported once and ends the process by SIGBUS, rather than bouncing between the two
    handlers until the stack overflows (it used to end in a segmentation fault)."""
    trigger = foreign_bus_error(tmp_path, how)
    result = run_python(
        textwrap.dedent(
            f"""
            import faulthandler, os, signal, perfectplay as pp
            faulthandler.disable()
            first = pp.tablebase.open({str(checkers_copy)!r})
            first.probe_batch(first.encode(first.sample_states("1010-60", 10, seed=0)))
            faulthandler.enable()
            second = pp.tablebase.open({str(checkers_copy)!r})
            second.probe_batch(second.encode(second.sample_states("1010-60", 10, seed=0)))
            """
        )
        + trigger,
        timeout=60,
    )
    assert result.returncode == -7, (result.returncode, result.stderr)
    assert result.stderr.count("Fatal Python error: Bus error") == 1, result.stderr


def test_arguments_of_the_wrong_kind_are_type_errors_before_any_work(tmp_path):
    with pytest.raises(TypeError, match="progress"):
        pp.tablebase.build("three_mens_morris", tmp_path / "t", whole_game=True, progress=5)
    assert not list(tmp_path.glob("t/*.ppdb"))
    with pytest.raises(TypeError, match="Tablebase"):
        pp.tablebase.score_policy(None, lambda s: 0, [])
    with pytest.raises(TypeError, match="tablebase must be"):
        pp.match("three_mens_morris", ["random", "perfect"], tablebase=5)


def test_negative_counts_seeds_and_depths_are_value_errors_naming_them(tmp_path):
    game = pp.load_game("three_mens_morris")
    calls = {
        "num_envs": lambda: pp.VectorEnv("checkers", -1),
        "seed": lambda: pp.VectorEnv("checkers", 2, seed=-1),
        "depth": lambda: game.perft(game.new_initial_state(), -1),
        "max_men": lambda: pp.tablebase.build("nine_mens_morris", tmp_path, max_men=-1),
        "threads": lambda: pp.tablebase.build("three_mens_morris", tmp_path, threads=-1),
        # The cluster's entry points (called by perfectplay.cluster, which needs Ray).
        "max_pieces": lambda: _core._plan_units(pp.load_game("checkers"), None, None, -1),
    }
    # Counts of things there must be some of start from 1.
    least = {"num_envs": 1, "threads": 1}
    for name, call in calls.items():
        with pytest.raises(ValueError, match=f"{name} must be an integer from {least.get(name, 0)} to"):
            call()
    # Deeper than 64 plies a count overflows 64 bits, and a position without an end of its own
    # (kings alone) would recurse until the stack ran out.
    kings = pp.load_game("checkers").state_from_fen("W:WK1:BK32")
    for depth in (65, 10**6):
        with pytest.raises(ValueError, match=f"depth must be an integer from 0 to 64, not {depth}"):
            kings.game.perft(kings, depth)
    with pytest.raises(ValueError, match=f"max_men must be an integer from 0 to 255, not {2**70}"):
        _core._plan_units(game, None, 2**70)
    with pytest.raises(ValueError, match="threads must be an integer from 1 to"):
        _core._build_unit(game, str(tmp_path / "u"), ["3-3"], -1)
    env = pp.VectorEnv("checkers", 2)
    with pytest.raises(ValueError, match="seed must be"):
        env.reset(seed=-5)
    with pytest.raises(ValueError, match="out of range"):
        env.fen(-1)
    assert game.new_initial_state().action_to_string(-1) == "invalid"
