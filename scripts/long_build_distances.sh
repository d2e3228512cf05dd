#!/usr/bin/env bash
# Each table's longest win and loss within its unit, for the units a long build
# (scripts/long_build.sh) verified before it recorded them: their unit distances, which the
# figures are read from, were deleted once their unit was proven, so each such unit is built
# again beside the tables to read them.
#
#   scripts/long_build_distances.sh GAME DIR MAX_MEN [--set NAME=VALUE ...]   # go on
#   scripts/long_build_distances.sh --stop DIR                                # stop
#
# For each unit of DIR, in the solver's order, whose tables are all verified (`verified-KEY`
# and `sha256-KEY` in DIR/marks) and one of which has no `distances-KEY` mark: the unit is built
# again in a scratch directory (SCRATCH, default DIR/distances.tmp) holding links to DIR's
# tables of every other unit, which its captures read (`solve --subspace A,B --wdl-only
# --unit-distances --compress`, as long_build.sh builds it: its checkpoint is saved every 30
# minutes and on SIGTERM, and the next run takes it up); each table it writes must be byte for
# byte the verified one (its SHA-256 that of `sha256-KEY`), or nothing is recorded and the run
# stops (the unit built again deleted); then each table's longest win and loss are read from
# the unit distances (scripts/unit_longest.py --tables, which must lie beside this script, as
# must scripts/long_build_lib.sh) into `distances-KEY`, and the scratch unit is deleted. The
# tables and their proof are DIR's: the figures come from distances the solver computes again,
# checked by `verify --unit-distances` against the tables when VERIFY=1 (the unit's
# verification over again, about three quarters of its build's time more).
#
# It only adds `distances-KEY` marks and lines in events.log (`distances: ...`), so it may run
# while long_build.sh goes on in the same DIR: the units it takes are long finished, and the
# two share the machine: its own memory and disk too (a unit's build needs some 2 to 3 bytes a
# position of memory, and its checkpoint and unit distances as much disk), so run it beside
# the build only for units far smaller than the one under way. One runs at a time in a DIR
# (`distances.lock`). Environment: PERFECTPLAY (the binary), THREADS (2), MIN_FREE_GB (30: stop
# before a unit when the disk has less), SCRATCH, VERIFY.
set -uo pipefail

here=$(dirname "$(realpath "$0")")
# shellcheck source=scripts/long_build_lib.sh
. "$here/long_build_lib.sh"

if [ "${1:-}" = "--stop" ]; then
  dir=${2:?usage: scripts/long_build_distances.sh --stop DIR}
  stop_holder "$dir/marks/distances.lock" "rebuild for distances"
  exit
fi

[ $# -ge 3 ] || { sed -n '7,8p' "$0" | sed 's/^# *//' >&2; exit 2; }
game=$1 dir=$(realpath "$2") max_men=$3
shift 3
set_args=("$@")
bin=${PERFECTPLAY:-perfectplay}
threads=${THREADS:-2}
min_free_gb=${MIN_FREE_GB:-30}
scratch=${SCRATCH:-$dir/distances.tmp}
marks=$dir/marks
[ -d "$marks" ] || { echo "$dir has no marks: not a long build's directory" >&2; exit 2; }

log() { echo "$(date -u '+%Y-%m-%d %H:%M:%S') distances: $*" | tee -a "$marks/events.log"; }

take_lock "$marks/distances.lock" || {
  echo "already running in $dir (pid $(cat "$marks/distances.lock.pid" 2>/dev/null))" >&2
  exit 1
}
require_begun_with "$game ${set_args[*]}"

# Runs a command niced, its output appended to LOG (`run_logged LOG COMMAND...`).
run_logged() {
  local out=$1
  shift
  echo "== $(date -u '+%Y-%m-%d %H:%M:%S') $*" >> "$out"
  run_child nice -n 10 "$@" >> "$out" 2>&1
}

# Whether file NAME in the scratch directory is one of the unit's own (its tables, their unit
# distances, its checkpoint: each named by a key and an extension).
own() {
  local key
  for key in "${keys[@]}"; do
    [[ $1 == "$key".* ]] && return 0
  done
  return 1
}

# The keys of unit A-B's tables in DIR, once each.
unit_keys() {
  local file
  unit_files "$dir" "$1" "$2" ppdb | while read -r file; do basename "$file" .ppdb; done
}

log "start: $game in $dir up to $max_men men ${set_args[*]}"
done_units=0
for a in $(seq 3 "$max_men"); do
  for b in $(seq "$a" "$max_men"); do
    unit=$a-$b
    mapfile -t keys < <(unit_keys "$a" "$b")
    [ ${#keys[@]} -gt 0 ] || continue
    wanted=
    ready=yes
    for key in "${keys[@]}"; do
      [ -f "$marks/verified-$key" ] && [ -n "$(digest_mark "$marks/sha256-$key")" ] || ready=
      figure_mark "$marks/distances-$key" || wanted=yes
      # Its unit distances still there: long_build.sh reads its figures from them when it
      # comes back to the unit (it stopped before it could), rather than hours of building.
      [ -f "$dir/$key.ppud" ] && ready=
    done
    [ -n "$wanted" ] || continue
    # A unit not verified through is long_build.sh's, which records its figures itself.
    [ -n "$ready" ] || continue
    [ -n "$stopping" ] && { log "stopped before $unit"; exit 0; }
    check_disk

    # Its own directory, made for it (it empties it after each unit), or one it made before.
    if [ ! -f "$scratch/.long_build_distances" ]; then
      if [ -e "$scratch" ] && [ -n "$(ls -A "$scratch")" ]; then
        log "$scratch is not empty and was not made by this script: give SCRATCH a new directory"
        exit 1
      fi
      mkdir -p "$scratch" && touch "$scratch/.long_build_distances"
    fi
    # Only this unit's own files are kept (its checkpoint and what an interrupted run wrote):
    # every other table is a link to DIR's, the verified one.
    for file in "$scratch"/*; do
      [ -e "$file" ] || [ -L "$file" ] || continue
      name=$(basename "$file")
      [ ! -L "$file" ] && own "$name" && continue
      rm -f "$file"
    done
    for table in "$dir"/*.ppdb; do
      key=$(basename "$table" .ppdb)
      own "$key.ppdb" && continue
      ln -s "$table" "$scratch/$key.ppdb" || { log "no link to $table in $scratch: stopped"; exit 1; }
    done
    log "build $unit again"
    start=$(date +%s)
    if ! run_logged "$marks/distances-build-$unit.log" "$bin" solve "$game" --subspace "$a,$b" \
      --wdl-only --unit-distances --compress --out "$scratch" --threads "$threads" -q \
      "${set_args[@]}"; then
      if [ -n "$stopping" ]; then
        log "stopped in the build of $unit after $(($(date +%s) - start)) s (its state saved)"
        exit 0
      fi
      log "the build of $unit FAILED: $(tail -n 1 "$marks/distances-build-$unit.log")"
      exit 1
    fi
    log "built $unit again in $(($(date +%s) - start)) s"
    for key in "${keys[@]}"; do
      got=$(sha256sum "$scratch/$key.ppdb" 2>/dev/null | cut -d ' ' -f 1)
      want=$(digest_mark "$marks/sha256-$key")
      if [ "$got" != "$want" ]; then
        log "$key.ppdb built again differs from the verified table (SHA-256 ${got:-none}, verified $want): stopped, the unit built again deleted"
        for file in "$scratch"/*; do own "$(basename "$file")" && rm -f "$file"; done
        exit 1
      fi
    done
    if [ -n "${VERIFY:-}" ]; then
      for key in "${keys[@]}"; do
        [ -n "$stopping" ] && { log "stopped before the verification of $key"; exit 0; }
        if ! run_logged "$marks/distances-verify-$key.log" "$bin" verify "$game" --db "$scratch" \
          --subspace "$key" --unit-distances --threads "$threads" -q "${set_args[@]}"; then
          [ -n "$stopping" ] && { log "stopped in the verification of $key"; exit 0; }
          log "the unit distances of $key FAILED verification: $(tail -n 1 "$marks/distances-verify-$key.log")"
          exit 1
        fi
      done
      log "the unit distances of $unit verified"
    fi
    ppud=()
    for key in "${keys[@]}"; do ppud+=("$scratch/$key.ppud"); done
    lines=$(python3 "$here/unit_longest.py" --tables "${ppud[@]}") \
      || { log "the longest distances within $unit could not be read: stopped"; exit 1; }
    while read -r key win loss; do
      write_mark "$marks/distances-$key" "$win $loss"
    done <<< "$lines"
    log "$unit: $(echo "$lines" | awk '{ printf "%s%s %s/%s", sep, $1, $2, $3; sep = ", " }') (longest win/loss, plies)"
    rm -f "$scratch"/*
    done_units=$((done_units + 1))
  done
done
[ -f "$scratch/.long_build_distances" ] && rm -rf "$scratch"
log "done: units built again for their distances: $done_units"
