"""The command-line tool from the Python package: ``python -m perfectplay`` and the
``perfectplay`` console script run the Rust program of ``crates/cli`` in the Python process."""

import os
import pathlib
import signal
import subprocess
import sys
import threading
import time

import pytest
from _helpers import child_cwd

import perfectplay as pp

COMMANDS = [
    "perft",
    "play",
    "match",
    "rules",
    "games",
    "solve",
    "probe",
    "search",
    "verify",
    "info",
    "compress",
    "positions",
]


def tool(*args, stdin=None, check=True):
    """Runs ``python -m perfectplay ARGS``; returns the finished process."""
    done = subprocess.run(
        [sys.executable, "-m", "perfectplay", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=child_cwd(),
    )
    if check:
        assert done.returncode == 0, done.stderr
    return done


def test_version_agrees_with_the_package():
    assert tool("--version").stdout.strip() == f"perfectplay {pp.__version__}"


def test_the_console_script_is_installed_and_runs():
    script = pathlib.Path(sys.executable).with_name("perfectplay")
    assert script.exists(), "pip installs the perfectplay console script beside python"
    done = subprocess.run(
        [script, "games"], capture_output=True, text=True, timeout=60, cwd=child_cwd()
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("checkers")


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_is_there(command):
    done = tool(command, "--help")
    assert "Usage: perfectplay " + command in done.stdout


def test_errors_exit_with_the_binarys_statuses():
    usage = tool("solve", check=False)
    assert usage.returncode == 2 and "Usage" in usage.stderr
    unknown = tool("rules", "no_such_game", check=False)
    assert unknown.returncode == 2
    assert unknown.stderr.startswith("perfectplay: error:") and "no_such_game" in unknown.stderr


def test_perft_rules_and_play():
    assert "matches published count" in tool("perft", "checkers", "--depth", "5", "--check").stdout
    assert "ply_limit" in tool("rules", "checkers").stdout
    game = tool("play", "three_mens_morris", "--seed", "3").stdout
    assert game.strip(), "a game record is printed"


def test_build_probe_verify_and_info(tmp_path):
    out = tmp_path / "three"
    tool("solve", "three_mens_morris", "--out", out, "-q")
    assert "value: win in 9" in tool("probe", "three_mens_morris", "--db", out).stdout
    tool("verify", "three_mens_morris", "--db", out, "-q")
    assert "tables" in tool("info", "--db", out).stdout
    # A human move on standard input, against perfect play from the tables.
    human = tool(
        "play",
        "three_mens_morris",
        "--white",
        "human",
        "--black",
        "perfect",
        "--db",
        out,
        stdin="b2\nquit\n",
    )
    assert "abandoned (white quit)" in human.stdout and "plies: 2" in human.stdout


def test_ctrl_c_ends_a_build_at_once_and_a_rerun_completes(tmp_path):
    out = tmp_path / "checkers"
    build = subprocess.Popen(
        [sys.executable, "-m", "perfectplay", "solve", "checkers", "--max-pieces", "5"]
        + ["--out", str(out), "-q"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=child_cwd(),
    )
    # Let it get into the solver (several seconds of work at 5 pieces), then interrupt.
    deadline = time.monotonic() + 60
    while not any(out.glob("*.ppdb")) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert build.poll() is None, "the build ended before it was interrupted"
    started = time.monotonic()
    build.send_signal(signal.SIGINT)
    status = build.wait(timeout=30)
    # "At once" with room for a loaded machine: a build that let Ctrl-C pass would finish
    # with status 0, which the status test below refuses.
    assert time.monotonic() - started < 15, "Ctrl-C ends the tool at once, as it ends the binary"
    # It stops between two tasks, saves the unit under way and exits as a shell reports SIGINT.
    said = build.stderr.read()
    assert status == 128 + signal.SIGINT, said
    assert b"stopped by SIGINT" in said, said
    # What the interrupted build left is kept or cleared, never half read.
    tool("solve", "checkers", "--max-pieces", "3", "--out", out, "-q")
    tool("verify", "checkers", "--db", out, "-q")


def test_main_returns_the_status_when_called_from_python(capfd):
    from perfectplay.__main__ import main

    # Python's own handler, or SIG_IGN where the interpreter was started in the background by
    # a shell without job control: either way main leaves it as it found it.
    before = signal.getsignal(signal.SIGINT)
    assert main(["games"]) == 0
    assert "nine_mens_morris" in capfd.readouterr().out
    assert main(["no-such-command"]) == 2
    assert signal.getsignal(signal.SIGINT) is before
    # Off the main thread, where Python allows no handler to be set, it runs as well.
    statuses = []
    worker = threading.Thread(target=lambda: statuses.append(main(["games"])))
    worker.start()
    worker.join()
    assert statuses == [0] and signal.getsignal(signal.SIGINT) is before
