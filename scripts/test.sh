#!/usr/bin/env bash
# Every test: formatting, lints, the Rust test suites, the release-build perft checks beyond
# the depths the unit tests cover, and the Python package's tests in a fresh virtual
# environment.
set -euo pipefail
cd "$(dirname "$0")/.."

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
