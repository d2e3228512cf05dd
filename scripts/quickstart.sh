#!/usr/bin/env bash
# The main job: build the release binary, check perft 12 from the checkers start position
# against the published count, and play a short sample game between two seeded random players.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release -p perfectplay-cli
bin=target/release/perfectplay

echo "== perft: checkers from the start position, depth 12 (published: 388,623,673)"
"$bin" perft checkers --depth 12 --check

echo
echo "== a sample game: two seeded random players"
"$bin" play checkers --black random --white random --seed 7 --quiet

echo
echo "== perft: Nine Men's Morris from the empty board (published: 24, 552, 12,144, 255,024)"
"$bin" perft nine_mens_morris --depth 4 --up-to --check

echo
echo "== a sample game of Nine Men's Morris: two seeded random players"
"$bin" play nine_mens_morris --seed 7 --quiet
