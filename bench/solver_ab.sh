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
#
# SOLVE_ARGS: more arguments for every solve (`--wdl-only --compress`, as the long builds run).
# BASE: a directory of tables already built (a long build's), hard-linked instead of building
# the dependencies (on the same file system as TMPDIR); the unit's own tables there, if any,
# are left out of each run, and their SHA-256 printed beside the runs'.
set -euo pipefail
game=$1; key=$2; rounds=$3; A=$4; B=$5
a=${key%,*}; b=${key#*,}
# shellcheck disable=SC2206 # split on purpose: several arguments in one variable
extra=(${SOLVE_ARGS:-})
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
nproc; grep -m1 'model name' /proc/cpuinfo
if [ -n "${BASE:-}" ]; then
  mkdir "$W/base"
  ln "$BASE"/*.ppd[bd] "$W/base/"
else
  "$A" solve "$game" --out "$W/base" --subspace "$key" -q "${extra[@]}" | tail -n 1
fi
own=$(cd "$W/base" && ls | grep -E "^($a-$b|$b-$a)(-b[mo]+)?\.ppd[bd]$" | sort || true)
if [ -n "$own" ]; then
  echo "base sha=$(cd "$W/base" && cat $own | sha256sum | cut -c1-16)"
fi
one() {
  local dir=$W/$1 bin=$2
  rm -rf "$dir"; cp -al "$W/base" "$dir"
  for t in $own; do rm -f "$dir/$t"; done
  /usr/bin/time -f %U -o "$dir.time" nice -n 5 "$bin" solve "$game" --out "$dir" \
    --subspace "$key" -q --threads 1 "${extra[@]}" >/dev/null
  echo "$bin user=$(cat "$dir.time")s sha=$(cd "$dir" && cat $own | sha256sum | cut -c1-16)"
}
for r in $(seq "$rounds"); do
  if (( r % 2 )); then one a "$A" & one b "$B" & else one a "$B" & one b "$A" & fi
  wait
done
