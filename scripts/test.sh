#!/usr/bin/env bash
# Every test: formatting, lints, the Rust test suites, and the release-build perft checks
# beyond the depths the unit tests cover.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy (all targets, warnings are errors)"
cargo clippy --workspace --all-targets -- -D warnings

echo "== cargo test"
cargo test --workspace

echo "== perft 12 and 13 from the start in the release build"
cargo build --release -p perfectplay-cli
target/release/perfectplay perft checkers --depth 12 --check
target/release/perfectplay perft checkers --depth 13 --check
