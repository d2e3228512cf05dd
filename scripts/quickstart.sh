#!/usr/bin/env bash
# The main job: build the release binary, check perft against published counts, play sample
# games, build a default set of endgame databases into solver-data/ and query them, then
# install the Python package into .venv and ask the same tables from Python.
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
"$bin" verify nine_mens_morris --db solver-data/nine_mens_morris --quiet \
    --subspace 3,3 --subspace 3,4 --subspace 4,3 --subspace 4,4

echo
echo "== checkers endgame databases: every position with 2 to 4 pieces"
"$bin" solve checkers --max-pieces 4 --out solver-data/checkers --quiet | tail -n 1
"$bin" verify checkers --db solver-data/checkers --quiet | tail -n 1

echo
echo "== compressed tables: the same endings, results (KEY.ppdb) and distances (KEY.ppdd) apart"
"$bin" compress --db solver-data/checkers --out solver-data/checkers-compressed --quiet | tail -n 1
"$bin" verify checkers --db solver-data/checkers-compressed --quiet | tail -n 1
"$bin" info --db solver-data/checkers-compressed | tail -n 3

echo
echo "== perfect play: the start of Three Men's Morris, a Nine Men's Morris ending, two kings against one"
"$bin" probe three_mens_morris --db solver-data/three_mens_morris
"$bin" probe nine_mens_morris --db solver-data/nine_mens_morris \
    --fen "W../.W./..W/B..B../.../.../B.. b 0 0"
"$bin" probe checkers --db solver-data/checkers-compressed --fen "B:WK32:BK1,K5"

echo
echo "== the Python package: pip install . into .venv (compiles the extension), then perfect play from Python"
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet .
.venv/bin/python - <<'PY'
import time

import numpy as np
import perfectplay as pp

with pp.tablebase.open("solver-data/nine_mens_morris") as tb:
    state = tb.game.state_from_fen("W../.W./..W/B..B../.../.../B.. b 0 0")
    print("Nine Men's Morris ending:", tb.probe(state), "- best:",
          ", ".join(str(m) for m in tb.best_moves(state)))
    rows = tb.encode(tb.sample_states("3-3", 100_000, seed=0))
    started = time.perf_counter()
    wdl, plies = tb.probe_batch(rows)
    seconds = time.perf_counter() - started
    print(f"3-3 sample: {np.mean(wdl == 1):.3%} won, {np.mean(wdl == 0):.3%} drawn for the side "
          f"to move ({len(rows):,} probes in {seconds * 1e3:.0f} ms)")
with pp.tablebase.open("solver-data/three_mens_morris") as tb:
    start = tb.game.new_initial_state()
    print("Three Men's Morris start:", tb.probe(start), "- line:",
          " ".join(str(m) for m in tb.principal_variation(start)))
with pp.tablebase.open("solver-data/checkers") as tb:
    print("checkers, two kings against one:", tb.probe("B:WK32:BK1,K5"))
with pp.tablebase.open("solver-data/checkers-compressed", distances=False) as tb:
    print("the same from the compressed results:", tb.probe("B:WK32:BK1,K5"))
env = pp.VectorEnv("three_mens_morris", 512, seed=0, opponent="perfect",
                   tablebase="solver-data/three_mens_morris", agent_player=1)
env.reset()
lost = games = 0
for _ in range(20):
    _, rewards, terminated, truncated, _ = env.step(env.sample_legal_actions())
    games += int((terminated | truncated).sum())
    lost += int((rewards[terminated] == -1).sum())
print(f"a random second player against the perfect first player: lost {lost} of {games} games")
PY
