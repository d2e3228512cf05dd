#!/usr/bin/env bash
# Two builds of the solver on one morris unit, side by side (one thread each, sides swapped
# every round), so that both see the same machine: on a shared machine runs taken in turn
# differ by 10% from one minute to the next, while two runs made together differ by what the
# builds do. Prints each run's user CPU seconds and the SHA-256 of the unit's tables, which
# must agree. The unit's dependencies are built once, by BIN_A, and hard-linked into each run.
#
#   bench/solver_ab.sh GAME A,B ROUNDS BIN_A BIN_B
#   e.g. bench/solver_ab.sh morabaraba 4,6 4 /tmp/before target/release/perfectplay
#
# The unit of A,B is the subspaces A-B and B-A, with their memories under no_reforming
# (A-B-bm, ...). Stop other work first (a running build: `kill -STOP PID`, then `kill -CONT`).
set -euo pipefail
game=$1; key=$2; rounds=$3; A=$4; B=$5
a=${key%,*}; b=${key#*,}
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
nproc; grep -m1 'model name' /proc/cpuinfo
"$A" solve "$game" --out "$W/base" --subspace "$key" -q | tail -n 1
own=$(cd "$W/base" && ls | grep -E "^($a-$b|$b-$a)(-b[mo]+)?\.ppd[bd]$" | sort)
one() {
  local dir=$W/$1 bin=$2
  rm -rf "$dir"; cp -al "$W/base" "$dir"
  for t in $own; do rm -f "$dir/$t"; done
  /usr/bin/time -f %U -o "$dir.time" nice -n 5 "$bin" solve "$game" --out "$dir" \
    --subspace "$key" -q --threads 1 >/dev/null
  echo "$bin user=$(cat "$dir.time")s sha=$(cd "$dir" && cat $own | sha256sum | cut -c1-16)"
}
for r in $(seq "$rounds"); do
  if (( r % 2 )); then one a "$A" & one b "$B" & else one a "$B" & one b "$A" & fi
  wait
done
