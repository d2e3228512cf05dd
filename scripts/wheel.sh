#!/usr/bin/env bash
# Builds the Python package's release artefacts into target/wheels: one abi3 wheel for every
# CPython from 3.9 on this platform (on x86-64 Linux with a second extension built for
# x86-64-v3, python/backend/perfectplay_backend.py) and an sdist, then checks the wheel in a fresh virtual
# environment with no cargo or rustc on PATH (scripts/wheel_check.sh). Prints the wheel's name
# and size.
#
# The manylinux level: maturin's built-in auditwheel reads the glibc symbol versions the
# extension links against and tags the wheel with the oldest level they allow; built on the
# development machine (Debian 12, glibc 2.36) that is manylinux_2_35, installable on glibc 2.35
# and newer (Ubuntu 22.04, Debian 12, RHEL 10, ...). Older levels need an older glibc to link
# against: the release job (.github/workflows/wheels.yml) builds in the manylinux_2_28
# container for that. MANYLINUX=manylinux_2_xx asks for a level and fails if the symbols
# do not allow it.
#
#   scripts/wheel.sh                 # build and check
#   WHEEL_CHECK=0 scripts/wheel.sh   # build only
set -euo pipefail
cd "$(dirname "$0")/.."

out=target/wheels
build_venv=target/venv-build
if [ ! -x "$build_venv/bin/maturin" ]; then
    python3 -m venv "$build_venv"
    "$build_venv/bin/python" -m pip install --quiet --upgrade pip
    # The version pyproject.toml's build-system asks for.
    "$build_venv/bin/python" -m pip install --quiet "maturin>=1.5,<2"
fi
rm -f "$out"/perfectplay-*.whl "$out"/perfectplay-*.tar.gz

echo "== maturin build --release (manylinux ${MANYLINUX:-level from the linked symbols})"
compatibility=()
if [ -n "${MANYLINUX:-}" ]; then
    compatibility=(--compatibility "$MANYLINUX")
fi
"$build_venv/bin/maturin" build --release --out "$out" "${compatibility[@]}"
wheel=$(ls "$out"/perfectplay-*.whl)
if [ "$(uname -sm)" = "Linux x86_64" ] && [ "${PERFECTPLAY_X86_64_V3:-auto}" != 0 ]; then
    # What `pip install .` does through the build backend (python/backend): the same extension
    # built for x86-64-v3 joins the wheel, loaded where the CPU has it.
    echo "== the x86-64-v3 extension (target/x86-64-v3)"
    "$build_venv/bin/python" python/backend/perfectplay_wheel.py add-x86-64-v3 "$wheel"
fi
echo "== maturin sdist"
"$build_venv/bin/maturin" sdist --out "$out"

ls -l "$out"
echo "wheel: $(basename "$wheel"), $(du -k "$wheel" | cut -f1) KiB"

if [ "${WHEEL_CHECK:-1}" != 0 ]; then
    scripts/wheel_check.sh "$wheel"
fi
