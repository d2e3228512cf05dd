#!/usr/bin/env bash
# The Python package's tests: builds perfectplay into a fresh virtual environment at .venv with
# pip (maturin, from pyproject.toml, compiles crates/python), then runs pytest on python/tests.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== virtual environment at .venv"
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip

echo "== pip install .[test] (builds the extension in release mode)"
.venv/bin/python -m pip install --quiet ".[test]"

echo "== pytest"
# Run from the tests folder so that `import perfectplay` finds the installed package, not the
# source tree (which has no compiled extension).
cd python/tests
../../.venv/bin/python -m pytest -q -p no:cacheprovider .
