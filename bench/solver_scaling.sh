#!/usr/bin/env bash
# How the retrograde solver scales with threads: the same builds from scratch at each thread
# count, the solver's own summary line and the wall time of each, and a check that every thread
# count wrote byte-identical tables.
#
#   bench/solver_scaling.sh [BINARY] [WORK_DIR] [THREADS...]
#
# BINARY defaults to target/release/perfectplay, WORK_DIR to a fresh temporary directory,
# THREADS to 1 2 4 8 16 (capped at the machine's cores). Set SCALING_BUILDS to choose the builds
# (default "nmm5 checkers5"): nmm5 = Nine Men's Morris 3-3 to 5-5 (61.6 M positions), checkers5
# = every checkers ending of 2 to 5 pieces (145.9 M positions), nmm6 = Nine Men's Morris 3-3 to
# 6-6, morabaraba5 = Morabaraba 3-3 to 5-5. Each build is timed once per thread count;
# SCALING_SKIP_ONE=checkers5 (a space-separated list) leaves the one-thread run of those builds
# out where it would take too long.
set -euo pipefail
# File names in byte order, so that the digest of the list is the same on every machine.
export LC_ALL=C

binary=${1:-target/release/perfectplay}
work=${2:-$(mktemp -d)}
shift $(( $# > 2 ? 2 : $# ))
threads=("$@")
cores=$(nproc)
if [ ${#threads[@]} -eq 0 ]; then
    threads=()
    for t in 1 2 4 8 16; do
        [ "$t" -le "$cores" ] && threads+=("$t")
    done
fi
builds=${SCALING_BUILDS:-nmm5 checkers5}
skip_one=" ${SCALING_SKIP_ONE:-} "

command_for() {
    case $1 in
        nmm5) echo "solve nine_mens_morris --max-men 5" ;;
        nmm6) echo "solve nine_mens_morris --max-men 6" ;;
        checkers5) echo "solve checkers --max-pieces 5" ;;
        morabaraba5) echo "solve morabaraba --max-men 5" ;;
        *) echo "unknown build $1" >&2; exit 2 ;;
    esac
}

echo "binary: $binary ($("$binary" --version 2>/dev/null || echo 'no --version'))"
echo "cores: $cores; $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"
echo "flags: $(grep -m1 -o 'avx512f' /proc/cpuinfo || echo 'no avx512f')"
echo "builds: $builds; threads: ${threads[*]}"
for build in $builds; do
    reference=""
    for t in "${threads[@]}"; do
        if [ "$t" -eq 1 ] && [[ $skip_one == *" $build "* ]]; then
            continue
        fi
        out="$work/$build-$t"
        rm -rf "$out"
        start=$(date +%s.%N)
        # shellcheck disable=SC2046
        summary=$("$binary" $(command_for "$build") --out "$out" -q --threads "$t" --force-threads | tail -n 1)
        end=$(date +%s.%N)
        sums=$(cd "$out" && sha256sum -- * | sha256sum | cut -c1-16)
        if [ -z "$reference" ]; then
            reference=$sums
        elif [ "$sums" != "$reference" ]; then
            echo "MISMATCH: $build with $t threads wrote different tables ($sums vs $reference)"
            exit 1
        fi
        printf '%s threads=%s wall=%.2fs tables=%s | %s\n' \
            "$build" "$t" "$(awk "BEGIN { print $end - $start }")" "$sums" "$summary"
        rm -rf "$out"
    done
done
echo "every thread count wrote byte-identical tables"
