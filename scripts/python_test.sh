#!/usr/bin/env bash
# The Python package's tests: builds the wheel and sdist (scripts/wheel.sh, which also checks the
# wheel in a fresh environment without cargo), installs the wheel into a virtual environment at
# .venv, then runs pytest on python/tests.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== the wheel and sdist (scripts/wheel.sh), the wheel checked in a fresh venv without cargo"
./scripts/wheel.sh
wheel=$(ls target/wheels/perfectplay-*.whl)

echo "== virtual environment at .venv"
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip

echo "== pip install the wheel with [test]"
.venv/bin/python -m pip install --quiet --force-reinstall --no-deps "$wheel"
# Against the versions the suite last passed with (python/tests/constraints.txt), on the
# Python they were taken on; another gets the newest versions the extras allow.
constraint=()
if .venv/bin/python -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
    constraint=(--constraint python/tests/constraints.txt)
else
    echo "python_test.sh: python/tests/constraints.txt is for Python 3.11, not" \
        "$(.venv/bin/python --version 2>&1): the test dependencies are installed unpinned" >&2
fi
.venv/bin/python -m pip install --quiet "${constraint[@]}" "${wheel}[test]"

echo "== every optional extra resolves against the wheel (pip install --dry-run)"
for extra in gym pettingzoo rl video openspiel notebooks; do
    .venv/bin/python -m pip install --quiet --dry-run "${constraint[@]}" "${wheel}[$extra]"
done

echo "== pytest"
# Run from the tests folder so that `import perfectplay` finds the installed package, not the
# source tree (which has no compiled extension).
cd python/tests
if [ "$(uname -sm)" = "Linux x86_64" ] && [ "${PERFECTPLAY_X86_64_V3:-auto}" != 0 ]; then
    # The wheel carries both builds of the extension here: their tests must not skip for want of one.
    export PERFECTPLAY_REQUIRE_X86_64_V3=1
fi
# Every module of the [test] extra was installed: none may be missing for a test to skip on.
export PERFECTPLAY_REQUIRE_TEST_EXTRAS=1
# -rs: each skip and its reason is listed.
../../.venv/bin/python -m pytest -q -rs -p no:cacheprovider .
