#!/usr/bin/env bash
# The main job: build the release binary, check perft against published counts, play sample
# games, build a default set of endgame databases into solver-data/ and query them.
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

echo
echo "== endgame databases: Three and Six Men's Morris whole, Nine Men's Morris up to 4 men a side"
"$bin" solve three_mens_morris --out solver-data/three_mens_morris --quiet
"$bin" solve six_mens_morris --out solver-data/six_mens_morris --quiet | tail -n 1
"$bin" solve nine_mens_morris --out solver-data/nine_mens_morris --max-men 4 --quiet
"$bin" verify nine_mens_morris --db solver-data/nine_mens_morris --quiet

echo
echo "== checkers endgame databases: every position with 2 to 4 pieces"
"$bin" solve checkers --max-pieces 4 --out solver-data/checkers --quiet | tail -n 1
"$bin" verify checkers --db solver-data/checkers --quiet | tail -n 1

echo
echo "== perfect play: the start of Three Men's Morris, a Nine Men's Morris ending, two kings against one"
"$bin" probe three_mens_morris --db solver-data/three_mens_morris
"$bin" probe nine_mens_morris --db solver-data/nine_mens_morris \
    --fen "W../.W./..W/B..B../.../.../B.. b 0 0"
"$bin" probe checkers --db solver-data/checkers --fen "B:WK32:BK1,K5"
