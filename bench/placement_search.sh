#!/usr/bin/env bash
# The placement search on Morabaraba's moving-phase tables, from fixed positions with 8 men of
# each side in hand (16 placements, plus removals, above the leaves): the value, the positions
# searched and the CPU time of each, for one or more builds of the command-line tool.
#
#   bench/placement_search.sh DB BINARY [BINARY...]
#
# DB holds Morabaraba's moving-phase tables (`perfectplay solve morabaraba --out DB`, 16.5 GB).
# One thread and a 2^24-entry transposition table; the tables are read through the page cache,
# so run it once to warm the cache and compare the positions searched first: a new process
# faults in the pages it touches, and that system time (printed apart) and a fixed start-up
# of a few seconds are in every run.
set -euo pipefail
db=${1:?usage: bench/placement_search.sh DB BINARY [BINARY...]}
shift
[ $# -gt 0 ] || { echo "usage: bench/placement_search.sh DB BINARY [BINARY...]" >&2; exit 2; }
# Eight random placements, four a side, from the start (seeds 10 to 13 of Python's random.choice over
# perfectplay's legal moves), White to move.
positions=(
  "BB./.../..W/.....W/B.B/W../.W. w 8 8 0 - -"
  ".../..B/W../.....W/WB./B.W/..B w 8 8 0 - -"
  "B../.B./..B/...W../WW./B../..W w 8 8 0 - -"
  ".../BBB/..W/WB..../.../.../..W w 8 8 0 - -"
)
times=$(mktemp)
out=$(mktemp)
trap 'rm -f "$times" "$out"' EXIT
for binary in "$@"; do
  echo "== $binary"
  total=0
  for fen in "${positions[@]}"; do
    /usr/bin/time -f "%U %S" -o "$times" "$binary" search morabaraba --db "$db" --fen "$fen" \
      --threads 1 --table-bits 24 > "$out" 2>&1 || { cat "$out" >&2; exit 1; }
    value=$(grep -oE "^value: [a-z]+" "$out")
    nodes=$(grep -oE "searched [0-9]+" "$out" | cut -d' ' -f2)
    read -r user sys < "$times"
    total=$((total + nodes))
    printf '%-44s %-11s %12s positions  %6s s user  %5s s system\n' "$fen" "$value" "$nodes" "$user" "$sys"
  done
  echo "all four: $total positions"
done
