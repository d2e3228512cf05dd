"""perfectplay.tablebase: building, opening and probing endgame tables from Python."""

import copy
import os
import re
import pathlib
import pickle
import random
import shutil

import numpy as np
import pytest

import perfectplay as pp


@pytest.fixture(scope="module")
def three_dir(tmp_path_factory):
    """Three Men's Morris solved whole (a few hundred positions)."""
    out = tmp_path_factory.mktemp("three")
    report = pp.tablebase.build("three_mens_morris", out, whole_game=True, progress=False)
    assert report and all(not r["kept"] for r in report)
    return out


@pytest.fixture(scope="module")
def nine_dir(tmp_path_factory):
    """Nine Men's Morris 3-3 only."""
    out = tmp_path_factory.mktemp("nine")
    pp.tablebase.build("nine_mens_morris", out, subspaces=["3-3"], progress=False)
    return out


@pytest.fixture(scope="module")
def checkers_dir(tmp_path_factory):
    """Every checkers ending of 2 and 3 pieces."""
    out = tmp_path_factory.mktemp("checkers")
    pp.tablebase.build("checkers", out, max_pieces=3, progress=False)
    return out


def random_states(game, seed, count):
    """States from random games of `game`, at the start of turns."""
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(states) < count:
            states.append(state.clone())
            state.apply(rng.choice(state.legal_moves()))
    return states


def test_open_reads_the_game_from_the_tables(three_dir):
    with pp.tablebase.open(three_dir) as tb:
        assert tb.game.id == "three_mens_morris"
        assert tb.directories == [str(three_dir)]
        assert len(tb.subspaces()) == 7
    assert tb.closed


def test_three_mens_morris_start_is_a_first_player_win_in_nine(three_dir):
    tb = pp.tablebase.open(three_dir)
    start = tb.game.new_initial_state()
    p = tb.probe(start)
    assert (p.wdl, p.plies, p.result, str(p)) == (1, 9, "win", "win in 9")
    assert [str(m) for m in tb.best_moves(start)] == ["b2"]
    line = tb.principal_variation(start)
    assert len(line) == 9
    for mv in line:
        start.apply(mv)
    assert start.is_terminal() and start.returns() == [1.0, -1.0]


def test_the_placement_search_agrees_with_the_whole_game_tables(three_dir, tmp_path):
    tb = pp.tablebase.open(three_dir)
    start = tb.game.new_initial_state()
    found = tb.search(start, table_bits=12, threads=1)
    assert (found.wdl, found.plies, found.result) == (1, None, "win")
    values = tb.search_moves(start, table_bits=12)
    assert [str(m) for m, v in values if v.result == "win"] == ["b2"]
    assert len(values) == 9 and all(v.plies is None for _, v in values)
    # Every placement position met in random games: the search's value is the table's.
    placing = [s for s in random_states(tb.game, 3, 200) if "in hand: white 0, black 0" not in str(s)]
    assert placing
    for state in placing:
        assert tb.search(state, table_bits=8).wdl == tb.probe(state).wdl, str(state)
    # A table kept in a file: written at the end, read by the next search.
    saved = tmp_path / "search.tt"
    assert tb.search(start, table_bits=10, checkpoint=saved).result == "win"
    assert saved.stat().st_size > 8 * 2**10
    assert tb.search_moves(start, table_bits=12, checkpoint=str(saved)) == values
    # A checkpoint in a missing directory is refused before any search.
    with pytest.raises(pp.TablebaseError, match="no such dir"):
        tb.search(start, table_bits=10, checkpoint=tmp_path / "no such dir" / "x.tt")
    saved.write_bytes(saved.read_bytes()[:100])
    with pytest.raises(pp.TablebaseError, match="truncated"):
        tb.search(start, checkpoint=saved)


def test_a_search_holds_its_checkpoint_and_clears_killed_saves(three_dir, tmp_path):
    fcntl = pytest.importorskip("fcntl")  # the lock is flock(2)'s
    tb = pp.tablebase.open(three_dir)
    start = tb.game.new_initial_state()
    saved = tmp_path / "search.tt"
    # A checkpoint another search holds (its lock file locked) is refused, the file untouched.
    with open(f"{saved}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(pp.TablebaseError, match="another search is using the checkpoint"):
            tb.search(start, checkpoint=saved)
    assert not saved.exists()
    # A killed save's temporary file is removed by the next search that takes the checkpoint,
    # and the lock file goes when the search ends.
    stale = tmp_path / "search.tt.tmp-999999-0"
    stale.write_bytes(b"half a table")
    other = tmp_path / "other.tt.tmp-999999-0"
    other.write_bytes(b"another checkpoint's")
    assert tb.search(start, table_bits=10, checkpoint=saved).result == "win"
    assert saved.exists() and other.exists()
    assert not stale.exists() and not (tmp_path / "search.tt.lock").exists()


def test_the_placement_search_checks_its_arguments(three_dir, checkers_dir):
    tb = pp.tablebase.open(three_dir)
    start = tb.game.new_initial_state()
    for bad in (3, 35):
        with pytest.raises(ValueError, match="table_bits"):
            tb.search(start, table_bits=bad)
    with pytest.raises(ValueError, match="table_bits"):
        tb.search(start, table_bits=-1)
    for bad in (0, -2):
        with pytest.raises(ValueError, match="thread"):
            tb.search(start, threads=bad)
    with pytest.raises(TypeError):
        tb.search(start, 12)
    checkers = pp.tablebase.open(checkers_dir)
    with pytest.raises(ValueError, match="no placement phase"):
        checkers.search(checkers.game.new_initial_state())


def test_the_best_move_keeps_the_probed_value_everywhere(three_dir):
    tb = pp.tablebase.open(three_dir)
    for state in random_states(tb.game, seed=1, count=300):
        values = tb.move_values(state)
        assert values, state.fen()
        assert values[0][1] == tb.probe(state), state.fen()
        best = {str(m) for m in tb.best_moves(state)}
        assert str(values[0][0]) in best


def test_probe_accepts_a_position_string(three_dir):
    tb = pp.tablebase.open(three_dir)
    state = random_states(tb.game, seed=2, count=40)[-1]
    assert tb.probe(state.fen()) == tb.probe(state)


def test_probe_batch_agrees_with_probe(three_dir):
    tb = pp.tablebase.open(three_dir)
    states = random_states(tb.game, seed=3, count=500)
    wdl, plies = tb.probe_batch(states)
    assert wdl.dtype == np.int8 and plies.dtype == np.int32 and wdl.shape == (500,)
    for state, w, d in zip(states, wdl, plies):
        p = tb.probe(state)
        assert (w, d) == (p.wdl, -1 if p.plies is None else p.plies)
    rows = tb.encode(states)
    assert rows.dtype == np.uint32 and rows.shape == (500, 4)
    for rows_in in (rows, rows.astype(np.int64), np.asfortranarray(rows)):
        again_wdl, again_plies = tb.probe_batch(rows_in)
        assert np.array_equal(again_wdl, wdl) and np.array_equal(again_plies, plies)


def test_encoded_rows_follow_the_documented_layout(nine_dir):
    tb = pp.tablebase.open(nine_dir)
    state = tb.game.state_from_fen("WWW/.../.../B...../B.B/.../... b 0 0")
    (row,) = tb.encode([state])
    # a7 b7 c7 are White's points 0-2; Black to move is player 1 (White moves first).
    assert row[0] == 0b111 and bin(int(row[1])).count("1") == 3
    assert row[2] == 0 and row[3] == 1


def test_bad_encoded_rows_name_the_row(three_dir):
    tb = pp.tablebase.open(three_dir)
    rows = tb.encode(random_states(tb.game, seed=4, count=3))
    rows[2, 0] = rows[2, 1]  # both sides on the same points
    with pytest.raises(pp.TablebaseError, match="encoded position 2"):
        tb.probe_batch(rows)
    rows[2, 3] = 7
    with pytest.raises(pp.TablebaseError, match="player to move 7"):
        tb.probe_batch(rows)
    with pytest.raises(pp.TablebaseError, match="rows of 4"):
        tb.probe_batch(np.zeros((2, 3), dtype=np.uint32))


def test_a_missing_table_is_a_key_error_naming_it(nine_dir):
    tb = pp.tablebase.open(nine_dir)
    state = tb.game.state_from_fen("WWW/.W./.../B...../B.B/.../... b 0 0")  # 4 against 3
    with pytest.raises(pp.MissingTableError) as caught:
        tb.probe(state)
    assert isinstance(caught.value, KeyError)
    assert caught.value.subspace == "3-4" and caught.value.missing == ["3-4"]
    assert caught.value.directories == [str(nine_dir)]
    assert "3-4" in str(caught.value) and str(nine_dir) in str(caught.value)
    assert tb.get(state) is None and tb.get(state, default=0) == 0
    with pytest.raises(pp.MissingTableError, match="0-0-h9-9.*placement-phase"):
        tb.probe(tb.game.new_initial_state())


def test_half_a_turn_is_out_of_scope(nine_dir):
    tb = pp.tablebase.open(nine_dir)
    state = tb.game.state_from_fen("WW./.../.../B...../B.B/.../..W w 0 0")
    for action in state.legal_actions():
        half = state.clone()
        half.apply_action(action)
        if not half.is_terminal() and half.current_player() == state.current_player():
            break
    else:
        pytest.fail("no action closes a mill")
    with pytest.raises(pp.OutOfScopeError, match="half made"):
        tb.probe(half)
    assert tb.get(half, "n/a") == "n/a"


def test_get_and_probe_batch_give_the_default_for_positions_not_held(checkers_dir):
    tb = pp.tablebase.open(checkers_dir)
    start = tb.game.new_initial_state()  # 24 pieces: no table holds it
    with pytest.raises(pp.OutOfScopeError):
        tb.probe(start)
    assert tb.get(start) is None and tb.get(start, "n/a") == "n/a"
    held = tb.game.state_from_fen("B:W18:B14,K2")
    missing = tb.game.state_from_fen("B:W18,19,20:B14")  # 4 pieces: no such table here
    with pytest.raises(pp.MissingTableError):
        tb.probe_batch([held, missing])
    wdl, plies = tb.probe_batch([held, start, missing], default=-2)
    probe = tb.probe(held)
    assert wdl.tolist() == [probe.wdl, -2, -2]
    assert plies.tolist() == [probe.plies, -1, -1]
    with pytest.raises(ValueError, match="int8"):
        tb.probe_batch([held], default=300)
    for result in (-1, 0, 1):  # a result's value would hide which positions were found
        with pytest.raises(ValueError, match="is a result"):
            tb.probe_batch([held], default=result)
    # White to move after Black, who has no piece, moved: it cannot arise in play.
    never = "W:WK5,K27:B"
    with pytest.raises(pp.OutOfScopeError, match="cannot arise"):
        tb.probe(never)
    assert tb.get(never, "n/a") == "n/a"
    assert tb.probe_batch([tb.game.state_from_fen(never), held], default=-2)[0].tolist() == [
        -2,
        probe.wdl,
    ]
    # A turn half made: `get` and `probe_batch(default=)` alike.
    half = tb.game.state_from_fen("B:W18,27:B14")
    half.apply_action(half.legal_actions()[0])
    assert half.is_mid_turn()
    assert tb.get(half, "n/a") == "n/a"
    wdl, plies = tb.probe_batch([held, half], default=-2)
    assert (wdl.tolist(), plies.tolist()) == ([probe.wdl, -2], [probe.plies, -1])
    with pytest.raises(pp.OutOfScopeError, match="half made"):
        tb.probe_batch([held, half])
    # A state of another game is still an error, not a default.
    with pytest.raises(pp.TablebaseError):
        tb.get(pp.load_game("three_mens_morris").new_initial_state(), "n/a")


def test_a_star_import_leaves_the_builtin_open_alone():
    scope = {}
    exec("from perfectplay.tablebase import *", scope)
    assert "open" not in scope and "Tablebase" in scope and "build" in scope


def test_a_vector_env_missing_tables_raises_missing_table_error(tmp_path):
    with pytest.raises(pp.MissingTableError, match="3-3") as caught:
        pp.VectorEnv(
            "nine_mens_morris", 2, opponent="perfect", tablebase=tmp_path, start="subspace:4-3"
        )
    assert caught.value.directories == [str(tmp_path)]
    assert caught.value.subspace in ("3-3", "3-4", "4-3")


def test_another_games_state_and_a_closed_tablebase_are_refused(three_dir):
    tb = pp.tablebase.open(three_dir)
    with pytest.raises(pp.TablebaseError, match="cannot be probed"):
        tb.probe(pp.load_game("checkers").new_initial_state())
    with pytest.raises(TypeError):
        tb.probe(42)
    tb.close()
    with pytest.raises(pp.TablebaseError, match="closed"):
        tb.probe(tb.game.new_initial_state())
    with pytest.raises(pp.TablebaseError, match="closed"):
        tb.encode([tb.game.new_initial_state()])
    with pytest.raises(pp.TablebaseError, match="closed"):
        with tb:
            pass


def test_history_rules_do_not_matter_to_the_tables(three_dir):
    tb = pp.tablebase.open(three_dir)
    game = pp.load_game("three_mens_morris", threefold_repetition=False)
    assert tb.probe(game.new_initial_state()).wdl == 1
    assert tb.rules_mismatch(game) is None


def test_rules_mismatch_names_the_rules_the_probe_refuses(three_dir):
    tb = pp.tablebase.open(three_dir)
    assert tb.rules_mismatch(tb.game) is None
    other = pp.load_game("three_mens_morris", mill_wins=False, ply_limit=9)
    why = tb.rules_mismatch(other)
    assert why == "the state has mill_wins=false, the tables mill_wins=true"
    with pytest.raises(pp.TablebaseError, match=re.escape(why)):
        tb.probe(other.new_initial_state())
    checkers = pp.load_game("checkers")
    assert tb.rules_mismatch(checkers) == "a checkers state cannot be valued in morris tables"
    with pytest.raises(TypeError):
        tb.rules_mismatch(checkers.new_initial_state())


def test_open_refuses_what_is_not_there(tmp_path):
    with pytest.raises(pp.TablebaseError, match="no tables"):
        pp.tablebase.open(tmp_path)
    with pytest.raises(pp.TablebaseError, match="no such directory"):
        pp.tablebase.open(tmp_path / "nowhere")
    with pytest.raises(pp.TablebaseError):
        pp.tablebase.open(tmp_path / "nowhere", game="checkers")
    with pytest.raises(pp.UnknownGameError):
        pp.tablebase.open(tmp_path, game="chess")


def test_a_damaged_table_is_refused_with_its_name(three_dir, tmp_path):
    damaged = tmp_path / "damaged"
    shutil.copytree(three_dir, damaged)
    name = sorted(os.listdir(damaged))[-1]
    path = damaged / name
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 7])
    tb = pp.tablebase.open(damaged)
    with pytest.raises(pp.TablebaseError, match=name.split(".")[0]):
        for state in random_states(tb.game, seed=5, count=200):
            tb.probe(state)


def test_checkers_endings_probe_and_play_to_the_end(checkers_dir):
    tb = pp.tablebase.open(checkers_dir)
    assert tb.game.id == "checkers"
    # Two black kings against one white king: Black wins (the README's example).
    state = tb.game.state_from_fen("B:WK32:BK1,K5")
    p = tb.probe(state)
    assert p.wdl == 1 and p.plies is not None
    line = tb.principal_variation(state)
    assert len(line) == p.plies
    for mv in line:
        state.apply(mv)
    assert state.is_terminal()
    # Four pieces: no table here; 24: no table anywhere.
    with pytest.raises(pp.MissingTableError):
        tb.probe("B:WK32,K31:BK1,K5")
    with pytest.raises(pp.OutOfScopeError, match="at most 8"):
        tb.probe(tb.game.new_initial_state())


def test_build_takes_its_directory_as_str_bytes_or_path(tmp_path):
    for out in [str(tmp_path / "s"), os.fsencode(tmp_path / "b"), tmp_path / "p"]:
        built = pp.tablebase.build("three_mens_morris", out, subspaces=["3-3"], progress=False)
        assert built and (pathlib.Path(os.fsdecode(out)) / "3-3.ppdb").is_file()


def test_build_reports_progress_and_resumes(tmp_path):
    seen = []
    report = pp.tablebase.build(
        "nine_mens_morris", tmp_path, subspaces=["3-3"], progress=seen.append
    )
    assert [r["subspace"] for r in report] == ["3-3"]
    assert report[0]["positions"] == 169_626 and not report[0]["kept"]
    assert seen and seen[-1]["finished"] == seen[-1]["total"] == 169_626
    again = pp.tablebase.build("nine_mens_morris", tmp_path, subspaces=["3-3"], progress=False)
    assert again[0]["kept"]


def test_an_interrupted_build_leaves_no_half_file_and_resumes(tmp_path):
    calls = []

    def interrupt(figures):
        calls.append(figures)
        if len(calls) == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        pp.tablebase.build("checkers", tmp_path, max_pieces=4, threads=1, progress=interrupt)
    left = os.listdir(tmp_path)
    # Tables and the checkpoint of the unit under way: neither a half-written file nor the
    # build lock's file.
    assert all(name.endswith((".ppdb", ".ppck")) for name in left), left
    tables = [name for name in left if name.endswith(".ppdb")]
    report = pp.tablebase.build("checkers", tmp_path, max_pieces=4, progress=False)
    assert len(tables) < len(report), "the build was not cut short"
    assert sum(r["kept"] for r in report) == len(tables)
    assert any(r["resumed"] for r in report) == (len(left) > len(tables))
    assert pp.tablebase.open(tmp_path).probe("B:WK32:BK1,K5").wdl == 1


def test_a_build_stopped_inside_a_unit_takes_it_up_from_its_checkpoint(tmp_path):
    stopped, whole = tmp_path / "stopped", tmp_path / "whole"

    def stop_late_in_5_5(figures):
        if figures["unit"] == "5-5" and figures["unit_initialised"] > 0.7 * 30_914_424:
            raise KeyboardInterrupt

    build = pp.tablebase.build
    # No save is due in half an hour: the unit is saved because it was stopped.
    with pytest.raises(KeyboardInterrupt):
        build("nine_mens_morris", stopped, max_men=5, checkpoint_minutes=30, progress=stop_late_in_5_5)
    assert "5-5.ppck" in os.listdir(stopped)
    report = build("nine_mens_morris", stopped, max_men=5, progress=False)
    assert [r["subspace"] for r in report if r["resumed"]] == ["5-5"]
    assert not any(name.endswith(".ppck") for name in os.listdir(stopped))
    build("nine_mens_morris", whole, max_men=5, checkpoint_minutes=None, progress=False)
    read = lambda d: (d / "5-5.ppdb").read_bytes()  # noqa: E731
    assert read(stopped) == read(whole)

    (stopped / "5-5.ppdb").unlink()
    (stopped / "5-5.ppck").write_bytes(b"PPUNITCK")
    with pytest.raises(pp.TablebaseError, match=r"5-5\.ppck.*delete the file"):
        build("nine_mens_morris", stopped, max_men=5, progress=False)
    with pytest.raises(ValueError, match="checkpoint_minutes"):
        build("nine_mens_morris", stopped, max_men=5, checkpoint_minutes=-1)


def test_compressed_tables_answer_as_plain_ones(tmp_path):
    plain, packed = tmp_path / "plain", tmp_path / "packed"
    pp.tablebase.build("checkers", plain, max_pieces=3, progress=False)
    report = pp.tablebase.build("checkers", packed, max_pieces=3, progress=False, compress=True)
    assert all(r["compressed_bytes"] > 0 for r in report)
    assert sorted(os.listdir(packed)) == sorted(
        [r["subspace"] + ".ppdb" for r in report] + [r["subspace"] + ".ppdd" for r in report]
    )
    game = pp.load_game("checkers")
    states = [game.state_from_fen(f) for f in ["B:WK32:BK1,K5", "W:W18:B14", "B:W18,22:B14"]]
    with pp.tablebase.open(plain) as a, pp.tablebase.open(packed) as b:
        value = lambda p: (p.wdl, p.plies)  # noqa: E731
        assert [value(a.probe(s)) for s in states] == [value(b.probe(s)) for s in states]
        wdl_a, plies_a = a.probe_batch(states)
        wdl_b, plies_b = b.probe_batch(states)
        assert (wdl_a == wdl_b).all() and (plies_a == plies_b).all()
        assert [str(m) for m in a.best_moves(states[0])] == [
            str(m) for m in b.best_moves(states[0])
        ]
    with pp.tablebase.open(packed, distances=False) as c:
        wdl_c, plies_c = c.probe_batch(states)
        # Distances only where the rules alone decide (a capture of the last piece).
        assert (wdl_c == wdl_a).all() and ((plies_c == -1) | (plies_c == plies_a)).all()
        assert (plies_c == -1).any()


def test_a_checkers_material_builds_every_slice_of_it(tmp_path):
    built = pp.tablebase.build("checkers", tmp_path, subspaces=["1011"], progress=False)
    slices = sorted(f[:-5] for f in os.listdir(tmp_path) if f.startswith("1011-"))
    # Every slice the solver's plan of all three-piece endings has for the material, each
    # built and reported.
    plan = pp._core._plan_units(pp.load_game("checkers"), None, None, 3)
    planned = {s for unit in plan for s in unit["subspaces"] if s.startswith("1011-")}
    assert len(planned) > 1
    assert set(slices) == planned
    assert planned <= {row["subspace"] for row in built}
    with pytest.raises(ValueError, match="no such subspace"):
        pp.tablebase.build("checkers", tmp_path, subspaces=["0070"])


def test_one_subspace_named_alone_is_one_name(tmp_path):
    built = pp.tablebase.build("nine_mens_morris", tmp_path, subspaces="3-3", progress=False)
    assert [row["subspace"] for row in built] == ["3-3"]
    report = pp.tablebase.verify(tmp_path, subspaces="3-3")
    assert report.passed and [t.subspace for t in report.tables] == ["3-3"]


def test_build_arguments_are_checked(tmp_path):
    with pytest.raises(ValueError, match="max_pieces"):
        pp.tablebase.build("checkers", tmp_path, max_men=3)
    with pytest.raises(ValueError, match="no such subspace"):
        pp.tablebase.build("nine_mens_morris", tmp_path, subspaces=["12-3"])
    with pytest.raises(ValueError, match="one of them"):
        pp.tablebase.build("nine_mens_morris", tmp_path)
    with pytest.raises(ValueError, match="hold 2 to 8 pieces, not 9"):
        pp.tablebase.build("checkers", tmp_path, max_pieces=9)
    with pytest.raises(ValueError, match="hold 2 to 8 pieces, not 1"):
        pp.tablebase.build("checkers", tmp_path, max_pieces=1)
    for men in [0, 2, 10, 100]:
        with pytest.raises(ValueError, match=f"has 3 to 9 men a side .*, not {men}$"):
            pp.tablebase.build("nine_mens_morris", tmp_path, max_men=men)
    assert os.listdir(tmp_path) == []


def test_build_thread_counts_are_bounded(tmp_path):
    for threads in [0, -1]:
        with pytest.raises(ValueError, match=f"threads must be an integer from 1 to .*, not {threads}"):
            pp.tablebase.build("nine_mens_morris", tmp_path, subspaces=["3-3"], threads=threads)
    with pytest.raises(ValueError, match="4000 threads is more than 4 per CPU"):
        pp.tablebase.build("nine_mens_morris", tmp_path, subspaces=["3-3"], threads=4000)
    # Forcing takes counts past the CPUs, but not ones that would stall the machine.
    with pytest.raises(ValueError, match="100000 threads is more than any build may start"):
        pp.tablebase.build(
            "nine_mens_morris", tmp_path, subspaces=["3-3"], threads=100000, force_threads=True
        )
    assert os.listdir(tmp_path) == []
    cpus = len(os.sched_getaffinity(0))
    report = pp.tablebase.build(
        "three_mens_morris", tmp_path, whole_game=True, threads=4 * cpus + 1,
        force_threads=True, progress=False,
    )
    assert report and not any(r["kept"] for r in report)


def test_a_second_build_into_a_directory_names_the_first_or_waits_for_it(tmp_path):
    import fcntl
    import threading
    import time

    # Another build's lock, as the solver takes it: flock on DIR/.lock, described inside.
    with open(tmp_path / ".lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        held.write("pid 4242\nhost elsewhere\ncommand perfectplay solve\n")
        held.flush()
        with pytest.raises(pp.TablebaseError, match="pid 4242, host elsewhere"):
            pp.tablebase.build("three_mens_morris", tmp_path, whole_game=True, progress=False)
        done = []
        waiter = threading.Thread(
            target=lambda: done.append(
                pp.tablebase.build(
                    "three_mens_morris", tmp_path, whole_game=True, progress=False, wait=True
                )
            )
        )
        waiter.start()
        time.sleep(0.5)
        assert not done, "the build did not wait for the lock"
    # Closing the file released the lock (as a process's end does).
    waiter.join(30)
    assert done and done[0] and not any(r["kept"] for r in done[0])
    assert pp.tablebase.open(tmp_path).probe(
        pp.load_game("three_mens_morris").new_initial_state()
    ).wdl == 1


def run_episodes(env, steps, rng_seed=0):
    """Steps `env` with random legal actions; returns each finished game's (reward, agent
    steps it took)."""
    rng = np.random.default_rng(rng_seed)
    obs, info = env.reset()
    finished, lengths = [], np.zeros(env.num_envs, dtype=int)
    for _ in range(steps):
        mask = env.action_mask
        actions = np.array(
            [rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask]
        )
        was_over = env.current_player == pp.TERMINAL_PLAYER
        obs, rewards, terminated, truncated, info = env.step(actions)
        lengths[~was_over] += 1
        for i in np.flatnonzero(terminated | truncated):
            finished.append((float(rewards[i]), int(lengths[i])))
            lengths[i] = 0
    return finished


def test_the_perfect_first_player_always_wins_three_mens_morris(three_dir):
    env = pp.VectorEnv(
        "three_mens_morris", 16, seed=3, opponent="perfect", tablebase=str(three_dir),
        agent_player=1,
    )
    assert env.opponent == "perfect"
    games = run_episodes(env, 60)
    assert len(games) > 30
    # A win in 9 plies from the start: the agent makes at most 4 moves, and loses every game.
    assert all(reward == -1.0 and length <= 4 for reward, length in games), games
    assert env.perfect_misses == 0


def test_endgame_starts_come_from_the_subspace_and_follow_the_seed(nine_dir):
    def starts(seed):
        env = pp.VectorEnv("nine_mens_morris", 32, seed=seed, start="subspace:3-3")
        return [env.fen(i) for i in range(32)]

    first = starts(7)
    assert first == starts(7) and first != starts(8)
    for fen in first:
        board, side, white_hand, black_hand = fen.split()[:4]
        assert (board.count("W"), board.count("B"), side) == (3, 3, "w")
        assert (white_hand, black_hand) == ("0", "0")
    assert len(set(first)) > 25


def test_perfect_play_against_perfect_play_keeps_the_start_value(nine_dir):
    """The agent plays best moves too (from the tables, action by action): every game must
    then end as the tables value its start for the agent (a draw runs into the ply limit)."""
    tb = pp.tablebase.open(nine_dir)
    env = pp.VectorEnv(
        "nine_mens_morris", 24, seed=5, opponent="perfect", tablebase=str(nine_dir),
        start="subspace:3-3", agent_player=0, ply_limit=60,
    )
    env.reset()
    expected = [tb.probe(env.fen(i)).wdl for i in range(env.num_envs)]
    pending = [[] for _ in range(env.num_envs)]
    results = {}
    for _ in range(200):
        actions = np.zeros(env.num_envs, dtype=np.int64)
        for i in range(env.num_envs):
            if env.current_player[i] == pp.TERMINAL_PLAYER:
                pending[i] = []  # the env restarts instead of acting
                continue
            if not pending[i]:
                state = tb.game.state_from_fen(env.fen(i))
                pending[i] = state.move_actions(tb.best_moves(state)[0])
            actions[i] = pending[i].pop(0)
        obs, rewards, terminated, truncated, info = env.step(actions)
        for i in np.flatnonzero(terminated | truncated):
            results.setdefault(int(i), (float(rewards[i]), bool(truncated[i])))
        if len(results) == env.num_envs:
            break
    assert len(results) == env.num_envs
    for i, (reward, cut) in results.items():
        assert (reward, cut) == ((float(expected[i]), False) if expected[i] else (0.0, True))
    assert env.perfect_misses == 0


def test_perfect_play_needs_its_tables(nine_dir, tmp_path):
    with pytest.raises(ValueError, match="needs tablebase"):
        pp.VectorEnv("nine_mens_morris", 2, opponent="perfect", start="subspace:3-3")
    with pytest.raises(pp.MissingTableError, match="3-4"):
        pp.VectorEnv(
            "nine_mens_morris", 2, opponent="perfect", tablebase=str(nine_dir),
            start="subspace:4-3",
        )
    with pytest.raises(ValueError, match="starting position"):
        pp.VectorEnv("checkers", 2, opponent="perfect", tablebase=str(tmp_path))
    with pytest.raises(ValueError, match="no such subspace"):
        pp.VectorEnv("nine_mens_morris", 2, start="subspace:12-3")
    with pytest.raises(ValueError, match="subspace:KEY"):
        pp.VectorEnv("nine_mens_morris", 2, start="4-3")


def test_sample_states_draws_from_the_subspace(nine_dir):
    tb = pp.tablebase.open(nine_dir)
    states = tb.sample_states("3-3", 20, seed=4)
    assert [s.fen() for s in states] == [s.fen() for s in tb.sample_states("3-3", 20, seed=4)]
    assert [s.fen() for s in states] != [s.fen() for s in tb.sample_states("3-3", 20, seed=5)]
    for state in states:
        board = state.fen().split()[0]
        assert (board.count("W"), board.count("B")) == (3, 3)
        assert not state.is_terminal() and state.current_player() == 0
        tb.probe(state)
    with pytest.raises(ValueError, match="no such subspace"):
        tb.sample_states("3-12")


def test_score_policy_rates_perfect_and_random_play(nine_dir):
    tb = pp.tablebase.open(nine_dir)
    states = tb.sample_states("3-3", 200, seed=9)
    perfect = pp.tablebase.score_policy(tb, lambda s: tb.best_moves(s)[0], states)
    assert perfect.positions == 200 and perfect.kept == 1.0
    assert (perfect.wins_lost, perfect.draws_lost, perfect.mean_plies_lost) == (0, 0, 0.0)
    rng = random.Random(0)
    by_action = pp.tablebase.score_policy(tb, lambda s: rng.choice(s.legal_actions()), states)
    assert by_action.positions == 200 and by_action.kept < 0.9 and by_action.wins_lost > 0
    worst = pp.tablebase.score_policy(tb, lambda s: tb.move_values(s)[-1][0], states)
    assert worst.kept < by_action.kept


def test_a_policy_answering_a_bool_is_refused(nine_dir):
    tb = pp.tablebase.open(nine_dir)
    states = tb.sample_states("3-3", 5, seed=9)
    for answer in (True, np.bool_(False)):
        with pytest.raises(TypeError, match="the policy's action must be an integer"):
            pp.tablebase.score_policy(tb, lambda s, answer=answer: answer, states)
    # A numpy integer is an action like an int.
    first = pp.tablebase.score_policy(tb, lambda s: np.int64(s.legal_actions()[0]), states)
    again = pp.tablebase.score_policy(tb, lambda s: s.legal_actions()[0], states)
    assert first == again


def test_an_iterables_own_exception_goes_on_as_raised(three_dir):
    tb = pp.tablebase.open(three_dir)

    def states(last):
        yield tb.game.new_initial_state()
        yield last()

    bad = lambda: tb.game.state_from_fen("not a position")  # noqa: E731
    with pytest.raises(pp.InvalidPositionError):
        tb.probe_batch(states(bad))
    with pytest.raises(pp.InvalidPositionError):
        tb.encode(states(bad))

    def interrupt():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tb.probe_batch(states(interrupt))
    with pytest.raises(KeyboardInterrupt):
        tb.encode(states(interrupt))


def test_probe_batch_takes_arrays_of_position_strings_and_states(three_dir):
    tb = pp.tablebase.open(three_dir)
    states = random_states(tb.game, seed=5, count=50)
    wdl, plies = tb.probe_batch(states)
    objects = np.empty(len(states), dtype=object)
    for i, state in enumerate(states):
        objects[i] = state
    for given in (np.array([s.fen() for s in states]), objects):
        again_wdl, again_plies = tb.probe_batch(given)
        assert np.array_equal(again_wdl, wdl) and np.array_equal(again_plies, plies)
    with pytest.raises(TypeError, match="a State or a position string"):
        tb.probe_batch(np.array([s.fen().encode() for s in states]))

    # Anything else with a dtype that numpy reads (a tensor) is rows, as before.
    class Tensorish:
        dtype = "int64"  # a dtype without numpy's `kind`

        def __init__(self, rows):
            self.rows = rows

        def __array__(self, dtype=None, copy=None):
            return self.rows

    again_wdl, again_plies = tb.probe_batch(Tensorish(tb.encode(states).astype(np.int64)))
    assert np.array_equal(again_wdl, wdl) and np.array_equal(again_plies, plies)


def test_probe_batch_across_chunks_and_empty(nine_dir):
    tb = pp.tablebase.open(nine_dir)
    states = tb.sample_states("3-3", 9000, seed=11)
    rows = tb.encode(states)
    wdl, plies = tb.probe_batch(rows)
    for i in list(range(0, 9000, 997)) + [4095, 4096, 4097, 8191, 8192, 8999]:
        p = tb.probe(states[i])
        assert (wdl[i], plies[i]) == (p.wdl, -1 if p.plies is None else p.plies), i
    # The first failing row is reported, whichever chunk and kind of failure.
    bad = rows.copy()
    bad[5000, 3] = 9
    bad[8000, 0] = bad[8000, 1]
    with pytest.raises(pp.TablebaseError, match="encoded position 5000"):
        tb.probe_batch(bad)
    empty = tb.encode([])
    assert empty.shape == (0, 4)
    wdl, plies = tb.probe_batch(empty)
    assert wdl.shape == (0,) and plies.shape == (0,)
    assert tb.probe_batch([])[0].shape == (0,)


def test_one_tablebase_probed_from_many_threads_agrees_with_one(checkers_dir):
    from concurrent.futures import ThreadPoolExecutor

    tb = pp.tablebase.open(checkers_dir)
    states = tb.sample_states("1010-00", 50, seed=3) + tb.sample_states("1110-20", 200, seed=4)
    alone = [tb.probe(s) for s in states]
    rows = tb.encode(states)
    batch_alone = tb.probe_batch(rows)

    # A fresh tablebase: its tables are opened by whichever thread's probe needs them first.
    fresh = pp.tablebase.open(checkers_dir)

    def probe_all(k):
        order = states[k:] + states[:k]
        return [fresh.probe(s) for s in order], fresh.probe_batch(rows)

    with ThreadPoolExecutor(max_workers=8) as pool:
        for k, (probes, (wdl, plies)) in enumerate(pool.map(probe_all, range(16))):
            assert probes == alone[k:] + alone[:k]
            assert (wdl == batch_alone[0]).all() and (plies == batch_alone[1]).all()


def test_checkers_rows_follow_the_documented_layout(checkers_dir):
    tb = pp.tablebase.open(checkers_dir)
    state = tb.game.state_from_fen("W:WK32:BK1,5")
    (row,) = tb.encode([state])
    assert row[0] == (1 << 0) | (1 << 4) and row[1] == 1 << 31
    assert row[2] == (1 << 0) | (1 << 31) and row[3] == 1  # White to move: player 1
    wdl, plies = tb.probe_batch([state, "B:WK32:BK1,K5"])
    assert wdl[0] == tb.probe(state).wdl and wdl[1] == 1


def test_add_directory_finds_more_tables(nine_dir, three_dir, tmp_path):
    pp.tablebase.build("nine_mens_morris", tmp_path, subspaces=["3-4"], progress=False)
    tb = pp.tablebase.open(nine_dir)
    state = tb.game.state_from_fen("WWW/.W./.../B...../B.B/.../... b 0 0")
    assert tb.get(state) is None
    tb.add_directory(tmp_path)
    assert tb.directories == [str(nine_dir), str(tmp_path)]
    assert tb.probe(state).wdl in (-1, 0, 1)


def test_states_with_memory_have_no_rows():
    game = pp.load_game("nine_mens_morris_no_flying")
    tb = pp.Tablebase(game, [])
    plain = game.state_from_fen("W.W/.../.../W...../..B/.../.BB w 0 0")
    remembering = game.state_from_fen("W.W/.../.../W...../..B/.../.BB w 0 0 0 Wa4>a1")
    assert tb.encode([plain]).shape == (1, 4)
    with pytest.raises(pp.OutOfScopeError, match="memory"):
        tb.encode([remembering])
    # probe_batch takes them one by one, as probe and get do.
    with pytest.raises(pp.MissingTableError):
        tb.probe(remembering)
    with pytest.raises(pp.MissingTableError):
        tb.probe_batch([plain, remembering])
    assert tb.probe_batch([plain, remembering], default=-2)[0].tolist() == [-2, -2]


def test_probe_batch_probes_states_with_memories_alone_in_their_place(tmp_path):
    pp.tablebase.build(
        "nine_mens_morris_no_flying", tmp_path, subspaces=["3-3"], threads=1, progress=False
    )
    tb = pp.tablebase.open(tmp_path)
    game = tb.game
    # Random games from a standing mill: men that break it leave memories.
    rng = random.Random(1)
    states = []
    for _ in range(40):
        state = game.state_from_fen("WWW/.../.../....../.B./.../B.B w 0 0")
        for _ in range(8):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_moves()))
            states.append(state.clone())
    remembering = [s for s in states if ">" in s.fen()]
    assert len(remembering) > 20 and len(remembering) < len(states)
    wdl, plies = tb.probe_batch(states)
    probes = [tb.probe(s) for s in states]
    assert wdl.tolist() == [p.wdl for p in probes]
    assert plies.tolist() == [-1 if p.plies is None else p.plies for p in probes]
    with pytest.raises(pp.OutOfScopeError, match="memory"):
        tb.encode(remembering[:1])
    # The first state's error is raised, whether a row holds it or not.
    four = game.state_from_fen("WWW/W../.../....../.B./.../B.B w 0 0")
    for batch in ([remembering[0], four], [four, remembering[0]]):
        with pytest.raises(pp.MissingTableError, match="4-3"):
            tb.probe_batch(batch)
        assert tb.probe_batch(batch, default=-2)[0].tolist().count(-2) == 1


def test_ctrl_c_stops_a_build(tmp_path):
    import signal
    import threading

    # Python's own Ctrl-C handler, even where pytest was started with SIGINT ignored (a
    # background job of a shell without job control): the build stops on KeyboardInterrupt.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            pp.tablebase.build("checkers", tmp_path, max_pieces=5, threads=1, progress=False)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    left = os.listdir(tmp_path)
    # Complete tables and the saved state of the unit under way, nothing half written.
    assert all(name.endswith((".ppdb", ".ppck")) for name in left), left
    assert sum(name.endswith(".ppck") for name in left) <= 1, left


def test_tables_of_other_options_name_the_settings_that_differ(tmp_path):
    pp.tablebase.build("nine_mens_morris", tmp_path, subspaces=["3-3"], threads=1,
                       progress=False, removal="any")
    state = pp.load_game("nine_mens_morris").state_from_fen(
        pp.tablebase.open(tmp_path).sample_states("3-3", 1)[0].fen()
    )
    with pytest.raises(pp.TablebaseError,
                       match="the state has removal=standard, the tables removal=any"):
        pp.tablebase.open(tmp_path).probe(state)
    with pytest.raises(pp.TablebaseError, match="rules is `removal=any`, expected `removal=standard`"):
        pp.tablebase.open(tmp_path, game="nine_mens_morris").probe(state)


def test_probes_pickle_and_copy_as_plain_data(three_dir):
    tb = pp.tablebase.open(three_dir)
    probe = tb.probe(tb.game.new_initial_state())
    assert pickle.loads(pickle.dumps(probe)) == probe
    assert copy.copy(probe) is probe and copy.deepcopy([probe])[0] is probe
    assert eval(repr(probe), {"Probe": pp.Probe}) == probe
    assert pp.Probe(0) == pp.Probe(0, None) and str(pp.Probe(-1, 4)) == "loss in 4"
    for wdl, plies, error in [(2, None, ValueError), (1, -1, ValueError), (True, None, TypeError)]:
        with pytest.raises(error):
            pp.Probe(wdl, plies)


def test_a_tablebase_takes_one_directory_as_well_as_a_list(three_dir):
    game = pp.load_game("three_mens_morris")
    for directories in [str(three_dir), three_dir, [three_dir], (str(three_dir),)]:
        tb = pp.Tablebase(game, directories)
        assert tb.directories == [str(three_dir)]
    assert pp.Tablebase(game, []).directories == []  # `add_directory` adds them
    with pytest.raises(TypeError, match="directories takes"):
        pp.Tablebase(game, 5)
