#!/usr/bin/env bash
# One large unit alone (Nine Men's Morris 6-6, 156 M positions) at 16, 8, 4 and 2 threads: its
# dependencies (3-3 to 5-6 + 6-5) are built once, then each run starts from hard links to them
# and builds 6-6 only; the table's checksum shows every run wrote the same bytes.
#
#   bench/unit_scaling.sh [BINARY]   (default target/release/perfectplay)
set -euo pipefail
B=${1:-target/release/perfectplay}; W=$(mktemp -d)
nproc; grep -m1 'model name' /proc/cpuinfo
$B solve nine_mens_morris --out $W/base --subspace 5-6 -q --threads 16 --force-threads | tail -n 1
for t in 16 8 4 2; do
  rm -rf $W/t$t; cp -al $W/base $W/t$t
  s=$(date +%s.%N)
  line=$($B solve nine_mens_morris --out $W/t$t --subspace 6-6 -q --threads $t --force-threads | tail -n 1)
  e=$(date +%s.%N)
  echo "6-6 threads=$t wall=$(awk "BEGIN{print $e-$s}") sha=$(sha256sum $W/t$t/6-6.ppdb | cut -c1-16) | $line"
done
