#!/usr/bin/env bash
# Two builds of the batched environment on the same fixed work (crates/env/examples/
# fixed_steps.rs: ENVS envs of GAME stepped STEPS times, one thread), run in turn, ROUNDS
# times, the first of each round swapped, on one core (the second if there are two), with
# PERFECTPLAY_SIMD passed on (so `PERFECTPLAY_SIMD=avx2 bench/env_ab.sh ...` compares the
# paths of a CPU without AVX-512). Each line gives both rates; the digests of the actions
# played must agree, or the builds did not play the same games.
#
#   bench/env_ab.sh BIN_A BIN_B [ROUNDS [ENVS [STEPS [GAME]]]]
#   e.g. bench/env_ab.sh /tmp/fixed_steps_before target/release/examples/fixed_steps 5 4096 1000
#
# A build of an older commit: `git worktree add /tmp/old COMMIT`, copy
# crates/env/examples/fixed_steps.rs into it if that commit predates the example (it uses only
# APIs older than it), `(cd /tmp/old && cargo build --release -p perfectplay-env --example
# fixed_steps)` and copy /tmp/old/target/release/examples/fixed_steps out. Stop other work
# first (a running build: `kill -STOP PID`, then `kill -CONT`).
set -euo pipefail
if (( $# < 2 )); then
  echo "usage: bench/env_ab.sh BIN_A BIN_B [ROUNDS [ENVS [STEPS [GAME]]]]" >&2
  exit 2
fi
A=$1; B=$2; rounds=${3:-5}; envs=${4:-1024}; steps=${5:-4000}; game=${6:-nine_mens_morris}
# One core of those this process may run on: the last, away from the first that most other
# work lands on. Without taskset the runs are not pinned.
core=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))' 2>/dev/null || echo 0)
pin=(); if command -v taskset >/dev/null; then pin=(taskset -c "$core"); else echo "taskset not found: runs not pinned" >&2; fi
nproc; grep -m1 'model name' /proc/cpuinfo || true
echo "PERFECTPLAY_SIMD=${PERFECTPLAY_SIMD:-} $game, $envs envs x $steps steps, M env steps/s"
one() {
  local out
  out=$(RAYON_NUM_THREADS=1 "${pin[@]}" "$1" "$envs" "$steps" "$game")
  [[ $out =~ ([0-9.]+)\ M\ env\ steps/s,\ digest\ ([0-9a-f]+) ]] || { echo "unexpected output from $1: $out" >&2; exit 1; }
  echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
}
for r in $(seq "$rounds"); do
  if (( r % 2 )); then a=$(one "$A"); b=$(one "$B"); else b=$(one "$B"); a=$(one "$A"); fi
  [ "${a#* }" = "${b#* }" ] || { echo "digests differ: A ${a#* }, B ${b#* }" >&2; exit 1; }
  echo "round $r: A ${a% *}  B ${b% *}"
done
