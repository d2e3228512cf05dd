#!/usr/bin/env bash
# Two builds of the tool verifying one table of an existing set, in turn (one thread each,
# order swapped every round): prints each run's user CPU seconds and peak memory. Verification
# changes nothing on disk, so both read the same tables.
#
#   bench/verify_ab.sh GAME DB KEY ROUNDS BIN_A BIN_B [--set NAME=VALUE ...]
#   e.g. bench/verify_ab.sh twelve_mens_morris /data/tmm 7-4-bm 2 /tmp/before target/release/perfectplay
#
# Runs are taken in turn rather than side by side: two verifications at once would share the
# memory bandwidth and the TLB effects they are meant to tell apart.
set -euo pipefail
game=$1; db=$2; key=$3; rounds=$4; A=$5; B=$6; shift 6
nproc; grep -m1 'model name' /proc/cpuinfo
echo "transparent huge pages: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)"
one() {
  local bin=$1 out; shift
  out=$(/usr/bin/time -f '%U %M' "$bin" verify "$game" "$@" --db "$db" --subspace "$key" \
    --threads 1 -q 2>&1 >/dev/null | tail -n 1)
  echo "$bin user=${out% *}s peak=${out#* }KB"
}
for r in $(seq "$rounds"); do
  if (( r % 2 )); then one "$A" "$@"; one "$B" "$@"; else one "$B" "$@"; one "$A" "$@"; fi
done
