#!/usr/bin/env bash
# Installs a built wheel into a fresh virtual environment, with no cargo or rustc reachable
# (PATH holds the environment, /usr/bin and /bin only), and runs a smoke check from the
# installed package: load a game, step a VectorEnv, build and probe a small table from Python,
# and the command-line tool (perft, solve, probe, verify) as the console script and as
# `python -m perfectplay`.
#
#   scripts/wheel_check.sh target/wheels/perfectplay-*.whl
set -euo pipefail
wheel=$(realpath "$1")
python=$(python3 -c 'import sys; print(sys.executable)')
check=$(mktemp -d)
trap 'rm -rf "$check"' EXIT

"$python" -m venv "$check/venv"
export PATH="$check/venv/bin:/usr/bin:/bin"
if command -v cargo >/dev/null || command -v rustc >/dev/null; then
    echo "wheel check: cargo or rustc is still on PATH ($PATH)" >&2
    exit 1
fi
python -m pip install --quiet --upgrade pip
# Only the wheel: pip must not find a source tree to build from.
python -m pip install --quiet --only-binary=:all: "$wheel"
cd "$check"
python - <<'PY'
import tempfile

import numpy as np
import perfectplay as pp

game = pp.load_game("nine_mens_morris")
state = game.new_initial_state()
state.apply_action(state.legal_actions()[0])

env = pp.VectorEnv("checkers", 64, seed=0)
env.reset()
for _ in range(20):
    obs, rewards, terminated, truncated, info = env.step(env.sample_legal_actions())
assert obs.shape[0] == 64

with tempfile.TemporaryDirectory() as tables:
    pp.tablebase.build("three_mens_morris", tables, whole_game=True, progress=False)
    with pp.tablebase.open(tables) as tb:
        start = pp.load_game("three_mens_morris").new_initial_state()
        probe = tb.probe(start)
        assert (probe.wdl, probe.plies) == (1, 9), probe
print(f"wheel check: perfectplay {pp.__version__} from {pp.__file__}: games, VectorEnv, tables ok")
PY
if [ "$(uname -sm)" = "Linux x86_64" ]; then
    # Both builds of the extension are in the wheel, and the package loads the one the CPU takes.
    python - <<'PY'
import os
import subprocess
import sys

from perfectplay import _select_core

assert _select_core.X86_64_V3_FILE.exists(), f"the wheel has no {_select_core.X86_64_V3_FILE.name}"
expected = "x86-64-v3" if _select_core.cpu_has_x86_64_v3() else "x86-64-v2"
for choice, target in (("auto", expected), ("baseline", "x86-64-v2")):
    env = dict(os.environ, PERFECTPLAY_CORE=choice)
    # Published: 7,361 checkers games of five plies.
    code = "import perfectplay as pp; g = pp.load_game('checkers'); print(pp.core_target, g.perft(g.new_initial_state(), 5))"
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert run.returncode == 0, (choice, run.stderr)
    out = run.stdout
    assert out.split() == [target, "7361"], (choice, out)
    print(f"wheel check: PERFECTPLAY_CORE={choice} runs the {target} build")
PY
fi
perfectplay --version
python -m perfectplay perft checkers --depth 6 --check | tail -n 1
python -m perfectplay solve three_mens_morris --out "$check/tables" -q | tail -n 1
# Read from a file: `grep -q` in a pipe may close it before the probe has written (pipefail).
perfectplay probe three_mens_morris --db "$check/tables" > "$check/probe.txt"
grep -q "value: win in 9" "$check/probe.txt" \
  || { echo "wheel check: the probe did not find the win in 9: $(cat "$check/probe.txt")" >&2; exit 1; }
perfectplay verify three_mens_morris --db "$check/tables" -q | tail -n 1
echo "wheel check: the perfectplay command solves, probes and verifies"
