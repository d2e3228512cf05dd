#!/usr/bin/env bash
# Every test: formatting, lints, the Rust test suites, the release-build perft checks beyond
# the depths the unit tests cover, and the Python package's tests in a fresh virtual
# environment.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== preflight: what the later steps need, checked before an hour of building"
# The documentation site is the last step: its tools need Python 3.11.5 or newer (docs.sh).
docs_python=${PYTHON:-python3}
if ! "$docs_python" -c 'import sys; sys.exit(sys.version_info < (3, 11, 5))'; then
  echo "test.sh: the documentation tools need Python 3.11.5 or newer;" \
    "set PYTHON to one ($docs_python is $("$docs_python" --version 2>&1))" >&2
  exit 1
fi
# The Python package's tests run in a fresh virtual environment.
if ! python3 -c 'import ensurepip, venv' 2> /dev/null; then
  echo "test.sh: python3 cannot make a virtual environment (ensurepip is missing:" \
    "on Debian or Ubuntu, install python3-venv)" >&2
  exit 1
fi
# The long-build driver's test runs its units under flock and setsid (util-linux).
for tool in flock setsid; do
  command -v "$tool" > /dev/null || { echo "test.sh: $tool is not installed (util-linux)" >&2; exit 1; }
done
# RUSTFLAGS (or CARGO_ENCODED_RUSTFLAGS) would replace .cargo/config.toml's flags, and with
# them the CPU baseline the package's build tests check.
for flags in RUSTFLAGS CARGO_ENCODED_RUSTFLAGS; do
  if [ -n "${!flags:-}" ]; then
    echo "test.sh: $flags is set; it would replace .cargo/config.toml's flags, whose CPU" \
      "baseline the tests check: unset it" >&2
    exit 1
  fi
done
# Every x86-64 build targets x86-64-v2 (.cargo/config.toml): a CPU without it (QEMU's default
# qemu64, say) would end every test binary with SIGILL.
if [ "$(uname -m)" = x86_64 ] && [ -r /proc/cpuinfo ]; then
  for flag in sse4_2 popcnt; do
    grep -qw "$flag" /proc/cpuinfo \
      || { echo "test.sh: this CPU lacks $flag, which the x86-64-v2 builds need" >&2; exit 1; }
  done
fi
# The steps below run the binaries where cargo puts them by default.
if [ -n "${CARGO_TARGET_DIR:-}" ]; then
  echo "test.sh: CARGO_TARGET_DIR is set ($CARGO_TARGET_DIR); the steps below run" \
    "target/release/perfectplay: unset it" >&2
  exit 1
fi

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets -- -D warnings

echo "== cargo test"
cargo test --workspace

echo "== cargo doc (broken links are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet

echo "== every published and cross-checked perft count up to 8 billion leaves (release build)"
# Checkers to depth 14 (about a minute) and Nine Men's Morris to depth 7, beyond what the debug
# tests reach.
PERFT_MAX_LEAVES=8000000000 cargo test --release -p perfectplay-core --test perft

echo "== the explicit-graph cross-checks too large for a debug build (release build)"
# Nine Men's Morris 3-3 with flying, Twelve Men's Morris 3-3 with and without mill immunity:
# about 3 GB and a few minutes on 2 cores, ignored by the debug suite above.
cargo test --release -p perfectplay-solver --test reference_solver -- --ignored

echo "== the CLI's own perft check"
cargo build --release -p perfectplay-cli
target/release/perfectplay perft checkers --depth 12 --check
target/release/perfectplay perft nine_mens_morris --depth 4 --up-to --check

echo "== checkers databases: 2-4 pieces from scratch, verified, compressed and verified again; the index enumerated to 5 pieces"
checkers_db=$(mktemp -d)
target/release/perfectplay solve checkers --max-pieces 4 --out "$checkers_db" --quiet | tail -n 1
target/release/perfectplay verify checkers --db "$checkers_db" --quiet | tail -n 1
target/release/perfectplay compress --db "$checkers_db" --out "$checkers_db/compressed" --quiet | tail -n 1
target/release/perfectplay verify checkers --db "$checkers_db/compressed" --quiet | tail -n 1
rm -rf "$checkers_db"
target/release/perfectplay positions checkers --max-pieces 5

echo "== the long-build driver: Twelve Men's Morris with 4 men, stopped, resumed, verified, searched"
./scripts/long_build_test.sh target/release/perfectplay

echo "== the Python package"
./scripts/python_test.sh

echo "== the documentation site (warnings are errors)"
./scripts/docs.sh
