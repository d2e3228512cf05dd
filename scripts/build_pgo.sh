#!/usr/bin/env bash
# A profile-guided build of the command-line tool, for builds of tables that run for days: the
# compiler lays out and inlines the solver and the verifier by where a real build spends its
# time. Measured on Twelve Men's Morris: about 10% less CPU per unit built, 3-12% (noisy) per
# table verified (BENCHMARKS.md, "A profile-guided build for the long builds"); the tables are
# byte for byte those of the plain release build.
#
#   scripts/build_pgo.sh [OUT]     # OUT: the binary (default target/pgo/perfectplay)
#   TARGET_CPU=x86-64-v3 scripts/build_pgo.sh OUT   # for x86-64-v3 CPUs only (no gain measured)
#
# 1. builds the tool instrumented (target/pgo-gen);
# 2. runs it on the long build's own steps, at a size that takes two minutes: Twelve Men's Morris
#    up to 4 men a side (its no-re-forming memories included) solved WDL-only and compressed
#    with unit distances, then every table verified with them (the tables go to a temporary
#    directory);
# 3. merges the profile and builds the tool with it (target/pgo).
#
# For a binary that a live `perf record -p PID` can map to source lines, add line tables:
# `CARGO_PROFILE_RELEASE_DEBUG=line-tables-only scripts/build_pgo.sh OUT` (as fast as one
# without, measured on Twelve Men's Morris 4-5: BENCHMARKS.md, "Subspace keys in one word").
#
# Needs `llvm-profdata` of the toolchain's own LLVM: `rustup component add llvm-tools` puts it
# in the toolchain, where this script finds it; LLVM_PROFDATA names another one. A profile from
# another LLVM version is refused by rustc, not used silently.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/target/pgo/perfectplay}
threads=${THREADS:-2}

profdata=${LLVM_PROFDATA:-}
if [ -z "$profdata" ]; then
  sysroot=$(rustc --print sysroot)
  host=$(rustc -vV | sed -n 's/^host: //p')
  profdata=$sysroot/lib/rustlib/$host/bin/llvm-profdata
fi
if [ ! -x "$profdata" ]; then
  echo "build_pgo.sh: no llvm-profdata at $profdata: run 'rustup component add llvm-tools'" \
    "or set LLVM_PROFDATA" >&2
  exit 2
fi

# RUSTFLAGS replaces the flags of .cargo/config.toml, so its CPU level is given again here.
# TARGET_CPU picks another (x86-64-v3, native): a binary for one machine's long build, which
# stops with an illegal instruction on a CPU without that level's instructions.
base_flags=""
if [ -n "${TARGET_CPU:-}" ]; then
  base_flags="-C target-cpu=$TARGET_CPU"
elif [ "$(uname -m)" = x86_64 ]; then
  base_flags="-C target-cpu=x86-64-v2"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== 1. instrumented build"
RUSTFLAGS="$base_flags -Cprofile-generate=$work/raw" CARGO_TARGET_DIR="$root/target/pgo-gen" \
  cargo build --release -p perfectplay-cli --manifest-path "$root/Cargo.toml"
gen=$root/target/pgo-gen/release/perfectplay

echo "== 2. training: Twelve Men's Morris up to 4 men, solved and verified"
"$gen" solve twelve_mens_morris --max-men 4 --wdl-only --unit-distances --compress \
  --out "$work/tables" --threads "$threads" -q | tail -n 2
"$gen" verify twelve_mens_morris --db "$work/tables" --unit-distances --threads "$threads" -q \
  | tail -n 1

echo "== 3. the build with the profile"
"$profdata" merge -o "$work/merged.profdata" "$work"/raw/*.profraw
RUSTFLAGS="$base_flags -Cprofile-use=$work/merged.profdata" \
  CARGO_TARGET_DIR="$root/target/pgo" \
  cargo build --release -p perfectplay-cli --manifest-path "$root/Cargo.toml"
mkdir -p "$(dirname "$out")"
if [ "$out" != "$root/target/pgo/release/perfectplay" ]; then
  cp "$root/target/pgo/release/perfectplay" "$out"
fi
echo "wrote $out"
