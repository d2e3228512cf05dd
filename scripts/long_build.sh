#!/usr/bin/env bash
# A morris moving phase built unit by unit and each unit verified table by table, resumable
# across stops, sessions and reboots of the same disk: the driver of the long WDL-only builds
# (Twelve Men's Morris, 100.8 G indices a variant) that outlast one sitting.
#
#   scripts/long_build.sh GAME DIR MAX_MEN [--set NAME=VALUE ...]   # build (or go on)
#   scripts/long_build.sh --stop DIR                                # stop, the unit saved
#
# Units come in the solver's order (3-3, 3-4 with 4-3, ..., 3-N, 4-4, ..., N-N; each after the
# units its captures lead to), each with its no-re-forming memory subspaces. A unit is built by
# `perfectplay solve GAME --subspace A,B --wdl-only --unit-distances --compress` (its
# checkpoint, KEY.ppck, is saved every 30 minutes and on SIGTERM, and taken up by the next run),
# then every table it wrote is checked by `perfectplay verify --unit-distances --subspace KEY`,
# one process a table, so a stop loses at most one table's verification (or found byte for
# byte a table an earlier build proved: PROVEN, below). The unit distances
# (KEY.ppud, a byte a position, plain, and KEY.ppud.long, the distances past the byte where a
# unit has them) are what proves a WDL-only table right rather than only in agreement with its
# successors (README, "Endgame databases"); they are deleted once every table of their unit is
# verified (or proven before), each table's longest win and loss within the unit recorded
# first. A unit built
# before without them cannot be verified so: start such a directory again. When every unit is
# verified it writes the SHA-256 manifest (`info --write-checksums`), checks it against the
# digests recorded as the tables were verified, and runs the placement search (`search
# --moves`). A directory goes on only with the game and `--set` options it was begun with, and
# one driver at a time (a lock, `driver.lock`, held by the driver and the processes it starts).
# Stop it with `--stop` (SIGTERM, passed on once to the unit under way, which saves its
# state); a Ctrl-C at its terminal, a SIGHUP or a SIGTERM to its whole process group stops it
# too, the unit told once, by a SIGTERM (it runs in a session of its own). scripts/unit_longest.py,
# scripts/long_build_progress.py and scripts/long_build_lib.sh must lie beside it.
#
# DIR/marks/ records what is done: `built-A-B` (seconds, over every run of the unit),
# `verified-KEY` (seconds), `proven-KEY` (a table PROVEN lists, not verified again),
# `sha256-KEY` (each verified or proven table's digest), `longest-A-B` (the
# longest distance within the unit, plies), `distances-KEY` (the table's longest win and loss
# within the unit, plies: to the end of the game or to a capture), the output of every
# run (`build-A-B.log`, `verify-KEY.log`, each run appended under a `== TIME COMMAND` line) and
# `events.log` (one line a step, UTC); `game` (the game and options it was begun with).
# `scripts/long_build_progress.py DIR` sums them up.
#
# EXPECT names a manifest of an earlier build of the same game and rules (`SHA-256  KEY.ppdb`
# lines, such as solver-data/twelve_mens_morris/CHECKSUMS): each table it lists is
# compared with it once verified (`expected-KEY` in the marks), and a table that differs stops
# the build. Tables are deterministic, so a difference means the binary changed what it
# computes, or the earlier build was wrong: either way a person should look.
#
# PROVEN names a manifest of tables this driver proved in an earlier directory (its
# `long_build_progress.py --checksums`, or the committed CHECKSUMS): a table it lists, once
# built here with the same SHA-256, is byte for byte a table already proven against its unit
# distances, so it is not verified again (`proven-KEY` in the marks, its digest and the
# manifest's name; `long_build_progress.py` counts it verified, with no seconds). A table it
# lists with another digest stops the build, as with EXPECT. A unit is proven so only whole:
# where PROVEN lists some of its tables but not all (or one was verified here), every table of
# it is verified, since verifying one reads its unit-mates' distances, which only their own
# verification checks; a `proven-KEY` an earlier run left in such a unit is withdrawn as the
# table's verification begins (logged). It is what makes a build begun
# again on a new disk cost its builds alone: verifying took two fifths of the time. Each
# unit's longest distances are still read from the unit distances this build writes; for a
# unit proven so, nothing checks those distances (only its tables' digests are compared), as
# with long_build_distances.sh without VERIFY=1.
#
# Environment: PERFECTPLAY (the binary; default `perfectplay` on PATH), THREADS (2),
# MIN_FREE_GB (30: stop before a unit when the disk has less; the largest Twelve Men's Morris
# unit's checkpoint takes up to 28 GB while it is written, and its unit distances 7 GB until it
# is verified), TABLE_BITS (29: the search's
# transposition table, 2^N entries), EXPECT (none: a manifest to compare the tables with),
# PROVEN (none: a manifest of tables proven before, not verified again), PRELOAD (auto: the
# search copies the tables into memory first, `search --preload`, when they and its
# transposition table fit in the memory available with PRELOAD_SPARE_MIB, 2048, to spare; 1:
# always, the search refusing to start where the tables alone do not fit; 0: never).
# Preloaded, probes skip the page cache's small pages: a quarter less time for a Twelve Men's
# Morris search, for half a minute of copying (BENCHMARKS.md). A stop while the tables are
# copied ends the search at once: it has proven nothing yet, and its saved table is as it was.
set -uo pipefail

usage() {
  sed -n '6,7p' "$0" | sed 's/^# *//' >&2
  exit 2
}

# Its helper scripts lie beside it.
here=$(dirname "$(realpath "$0")")
# shellcheck source=scripts/long_build_lib.sh
. "$here/long_build_lib.sh"

if [ "${1:-}" = "--stop" ]; then
  dir=${2:?usage: scripts/long_build.sh --stop DIR}
  stop_holder "$dir/marks/driver.lock" build || exit 1
  tail -n 3 "$dir/marks/events.log"
  exit 0
fi

[ $# -ge 3 ] || usage
game=$1 dir=$2 max_men=$3
shift 3
# The rule options, as `--set NAME=VALUE` arguments passed on to every command.
set_args=("$@")
bin=${PERFECTPLAY:-perfectplay}
threads=${THREADS:-2}
min_free_gb=${MIN_FREE_GB:-30}
table_bits=${TABLE_BITS:-29}
expect=${EXPECT:-}
if [ -n "$expect" ]; then
  [ -f "$expect" ] || { echo "EXPECT=$expect: no such file" >&2; exit 2; }
  expect=$(realpath "$expect")
fi
proven=${PROVEN:-}
if [ -n "$proven" ]; then
  [ -f "$proven" ] || { echo "PROVEN=$proven: no such file" >&2; exit 2; }
  proven=$(realpath "$proven")
fi
# Checked here, not when the search comes after hours of building; the shell's arithmetic
# below reads them.
[[ $table_bits =~ ^[1-9][0-9]?$ ]] && [ "$table_bits" -ge 4 ] && [ "$table_bits" -le 40 ] \
  || { echo "TABLE_BITS=$table_bits: a whole number from 4 to 40" >&2; exit 2; }
preload=${PRELOAD:-auto}
case "$preload" in
  auto | 0 | 1) ;;
  *) echo "PRELOAD=$preload: auto, 1 or 0" >&2; exit 2 ;;
esac
preload_spare_mib=${PRELOAD_SPARE_MIB:-2048}
[[ $preload_spare_mib =~ ^(0|[1-9][0-9]{0,8})$ ]] \
  || { echo "PRELOAD_SPARE_MIB=$preload_spare_mib: a whole number of MiB" >&2; exit 2; }
marks=$dir/marks
mkdir -p "$marks"

log() { echo "$(date -u '+%Y-%m-%d %H:%M:%S') $*" | tee -a "$marks/events.log"; }

take_lock "$marks/driver.lock" || {
  echo "a build already runs in $dir (pid $(cat "$marks/driver.lock.pid" 2>/dev/null))" >&2
  exit 1
}

# A directory goes on with the game and rules it was begun with.
require_begun_with "$game ${set_args[*]}"
[ -f "$marks/game" ] || write_mark "$marks/game" "$game ${set_args[*]}"

# Tables verified without unit distances were only found in agreement with their
# successors: such a directory is not taken up.
if [ ! -f "$marks/unit-distances" ]; then
  if compgen -G "$marks/verified-*" > /dev/null; then
    log "$dir holds tables verified without unit distances: start it again in a new directory"
    exit 1
  fi
  touch "$marks/unit-distances"
fi

# Runs one step: `run_step WHAT MARK LOG COMMAND...`, its output in LOG and its seconds in MARK
# once it succeeds, those of the runs stopped before it included (kept meanwhile in
# MARK.stopped: a unit taken up from its checkpoint counts every run). A stop (the unit's state
# saved, or a verification or search cut short, to be done again) or a failure ends the driver.
run_step() {
  local what=$1 mark=$2 out=$3 start rc spent before
  shift 3
  [ -n "$stopping" ] && { log "stopped before $what"; exit 0; }
  start=$(date +%s)
  echo "== $(date -u '+%Y-%m-%d %H:%M:%S') $*" >> "$out"
  run_child nice -n 10 "$@" >> "$out" 2>&1
  rc=$?
  spent=$(($(date +%s) - start))
  before=$(grep -sxE '[0-9]+' "$mark.stopped" || echo 0)
  if [ "$rc" -ne 0 ]; then
    if [ -n "$stopping" ]; then
      write_mark "$mark.stopped" $((before + spent))
      log "stopped in $what (exit $rc) after $spent s"
      exit 0
    fi
    log "$what FAILED (exit $rc): $(tail -n 1 "$out")"
    exit 1
  fi
  write_mark "$mark" $((before + spent))
  rm -f "$mark.stopped"
  if [ "$before" -gt 0 ]; then
    log "$what: done in $(cat "$mark") s ($before s of it in runs stopped before)"
  else
    log "$what: done in $(cat "$mark") s"
  fi
}

# Records the SHA-256 of verified (or proven) table KEY (`sha256-KEY` in the marks, once a
# table), from which `scripts/long_build_progress.py DIR --checksums` writes the manifest of
# the tables verified so far, and compares it with EXPECT's digest where EXPECT lists the table (marked
# `expected-KEY`) and with an earlier run's `expected-KEY`; a difference ends the driver. A mark
# that is not a digest (a run killed as it wrote it) is made again from the table.
record_digest() {
  local key=$1 want got earlier
  got=$(digest_mark "$marks/sha256-$key")
  if [ -z "$got" ]; then
    got=$(sha256sum "$dir/$key.ppdb" | cut -d ' ' -f 1)
    [ -n "$got" ] || { log "the SHA-256 of $key.ppdb could not be read: stopped"; exit 1; }
  fi
  earlier=$(digest_mark "$marks/expected-$key")
  if [ -n "$earlier" ] && [ "$got" != "$earlier" ]; then
    log "$key.ppdb changed since it was compared (SHA-256 $got, then $earlier): stopped"
    exit 1
  fi
  if [ -n "$expect" ] && [ -z "$earlier" ]; then
    want=$(manifest_digest "$expect" "$key")
    if [ -n "$want" ]; then
      if [ "$got" != "$want" ]; then
        log "$key.ppdb differs from $expect (SHA-256 $got, expected $want): stopped"
        exit 1
      fi
      write_mark "$marks/expected-$key" "$got"
    fi
  fi
  [ -n "$(digest_mark "$marks/sha256-$key")" ] || write_mark "$marks/sha256-$key" "$got"
}

# Compares table KEY with the digest PROVEN lists for it: succeeds where they are the same
# (the digest in `proven_digest`), fails where PROVEN does not list it, and ends the driver
# where it lists another digest (the build made another table than the one proven: a person
# should look). Called as it is, not in a subshell, so that its `exit` ends the driver.
same_as_proven() {
  local key=$1 want got
  [ -n "$proven" ] || return 1
  want=$(manifest_digest "$proven" "$key")
  [ -n "$want" ] || return 1
  [ -n "$stopping" ] && { log "stopped before $key was compared with $proven"; exit 0; }
  got=$(sha256sum "$dir/$key.ppdb" | cut -d ' ' -f 1)
  if [ -z "$got" ]; then
    [ -n "$stopping" ] && { log "stopped as $key was compared with $proven"; exit 0; }
    log "the SHA-256 of $key.ppdb could not be read: stopped"
    exit 1
  fi
  if [ "$got" != "$want" ]; then
    log "$key.ppdb differs from the table $proven proved (SHA-256 $got, proven $want): stopped"
    exit 1
  fi
  proven_digest=$got
}

# Marks table KEY proven (`proven-KEY`: the digest and the manifest) where PROVEN lists it
# with the digest the table has, the digest recorded as a verified table's; fails where PROVEN
# does not list it (verify it then), and ends the driver where it lists another digest.
prove_by_digest() {
  local key=$1
  same_as_proven "$key" || return 1
  write_mark "$marks/sha256-$key" "$proven_digest"
  write_mark "$marks/proven-$key" "$proven_digest  $proven"
  log "$key: byte for byte the table $(basename "$proven") proved (SHA-256 ${proven_digest:0:16}...): not verified again"
}

# `manifest_digest MANIFEST KEY`: the SHA-256 a `SHA-256  KEY.ppdb` manifest lists for KEY
# (nothing where it lists none; each where it lists several, which then match no digest).
manifest_digest() {
  awk -v f="$2.ppdb" '$2 == f { print $1 }' "$1"
}

# `record_longest A-B FILE...` (the unit's distance files, each once): records the longest
# distances within unit A-B, read from its unit distances once they are
# proven and before they are deleted (a failure stops the driver, the distances kept): the
# unit's longest (`longest-A-B` in the marks, plies) and each table's longest win and loss
# (`distances-KEY`: `WIN LOSS`, -1 where it has none). A unit distance counts plies to
# the end of the game or to a capture (a successor in another unit is a loss at 0 plies, a win
# at 1), as a distance-to-zeroing table does in chess. A byte holds at most 253 plies; a WDL-only
# unit whose positions need more writes them in KEY.ppud.long, which unit_longest.py reads too,
# so the units' figures say how near the build comes to the byte. A unit distance file is the
# table file's prefix and header, then a byte a position from the next multiple of 64: 0 a draw,
# 1 + plies for a decided position, 255 one that cannot arise.
record_longest() {
  local unit=$1 missing= file key win loss longest=-1 lines
  shift
  figure_mark "$marks/longest-$unit" || missing=yes
  for file in "$@"; do
    figure_mark "$marks/distances-$(basename "$file" .ppud)" || missing=yes
  done
  [ $# -gt 0 ] && [ -n "$missing" ] || return 0
  lines=$(python3 "$here/unit_longest.py" --tables "$@") \
    || { log "the longest distances within $unit could not be read (its unit distances kept): stopped"; exit 1; }
  while read -r key win loss; do
    write_mark "$marks/distances-$key" "$win $loss"
    [ "$win" -gt "$longest" ] && longest=$win
    [ "$loss" -gt "$longest" ] && longest=$loss
  done <<< "$lines"
  figure_mark "$marks/longest-$unit" && return 0
  write_mark "$marks/longest-$unit" "$longest"
  if [ "$longest" -lt 0 ]; then
    log "the longest distance within $unit: none (no position of it is won or lost within it)"
  elif [ "$longest" -gt 253 ]; then
    log "the longest distance within $unit: $longest plies (past the byte's 253: those are in KEY.ppud.long)"
  else
    log "the longest distance within $unit: $longest plies (a byte holds 253)"
  fi
}

log "start: $game in $dir up to $max_men men, $("$bin" --version 2>&1 | head -n 1), $threads threads ${set_args[*]}"
for a in $(seq 3 "$max_men"); do
  for b in $(seq "$a" "$max_men"); do
    unit=$a-$b
    if [ ! -f "$marks/built-$unit" ]; then
      check_disk
      log "build $unit"
      run_step "the build of $unit" "$marks/built-$unit" "$marks/build-$unit.log" \
        "$bin" solve "$game" --subspace "$a,$b" --wdl-only --unit-distances --compress --out "$dir" \
        --threads "$threads" -q "${set_args[@]}"
    fi
    mapfile -t tables < <(unit_files "$dir" "$a" "$b" ppdb)
    # A unit is proven by digest whole or not at all. Verifying a table reads the distances of
    # its unit-mates (KEY.ppud), which only their own verification checks: a table proven by
    # digest beside one verified here would leave the distances that proof rests on unchecked.
    # So only a unit whose every table PROVEN lists, none of them verified here, is proven.
    # A table marked proven (by an earlier run here) counts as listed.
    whole_proven=1 listed=0 unverified=0
    for file in "${tables[@]}"; do
      key=$(basename "$file" .ppdb)
      if [ -f "$marks/proven-$key" ] \
        || { [ -n "$proven" ] && [ -n "$(manifest_digest "$proven" "$key")" ]; }; then
        listed=$((listed + 1))
      else
        whole_proven=
      fi
      if [ -f "$marks/verified-$key" ]; then
        whole_proven=
      else
        unverified=$((unverified + 1))
      fi
    done
    if [ -z "$whole_proven" ] && [ "$listed" -gt 0 ] && [ "$unverified" -gt 0 ]; then
      log "$unit: ${listed} of its ${#tables[@]} tables are listed in ${proven:+$(basename "$proven") or }marked proven, or one was verified here: each is verified"
      # A listed table is still held to its digest: another table than the one proven stops.
      # A `proven-` mark an earlier run left in the unit no longer stands: the table is verified
      # now, and until then it is neither verified nor proven (the progress report counts it so).
      for file in "${tables[@]}"; do
        key=$(basename "$file" .ppdb)
        [ -f "$marks/verified-$key" ] && continue
        same_as_proven "$key" || true
        # Only where the table can be verified now (its unit distances are here): a unit some
        # earlier driver proved in part and finished keeps its record of the proof, and its
        # verification fails as it would have.
        if [ -f "$marks/proven-$key" ] && [ -f "$dir/$key.ppud" ]; then
          rm -f "$marks/proven-$key"
          log "$key: its mark of a table proven by digest withdrawn, as its unit is verified whole"
        fi
      done
    fi
    for file in "${tables[@]}"; do
      key=$(basename "$file" .ppdb)
      if [ ! -f "$marks/verified-$key" ] \
        && ! { [ -n "$whole_proven" ] && { [ -f "$marks/proven-$key" ] || prove_by_digest "$key"; }; }; then
        run_step "the verification of $key" "$marks/verified-$key" "$marks/verify-$key.log" \
          "$bin" verify "$game" --db "$dir" --subspace "$key" --unit-distances \
          --threads "$threads" -q "${set_args[@]}"
      fi
      record_digest "$key"
    done
    # Every table of the unit is verified or proven before (a stop or failure above ends the
    # driver): its distances have served, once the figures read from them are recorded.
    mapfile -t distances < <(unit_files "$dir" "$a" "$b" ppud)
    record_longest "$unit" "${distances[@]}"
    mapfile -t beyond_byte < <(unit_files "$dir" "$a" "$b" ppud.long)
    # The marks' renames on disk before what they were read from is deleted.
    sync "$marks" || { log "the marks of $unit could not be synced: stopped"; exit 1; }
    rm -f "${distances[@]}" "${beyond_byte[@]}"
    [ -n "$stopping" ] && { log "stopped after $unit"; exit 0; }
  done
done

if [ ! -f "$dir/CHECKSUMS" ]; then
  "$bin" info --db "$dir" --write-checksums > "$marks/info.log" 2>&1 \
    || { log "info --write-checksums failed: $(tail -n 1 "$marks/info.log")"; exit 1; }
  log "every unit built and verified (or proven before); CHECKSUMS written"
fi
# The tables on disk are the ones verified: CHECKSUMS hashes the files, the manifest made from
# the digests recorded as each was verified must say the same.
if ! python3 "$here/long_build_progress.py" "$dir" --checksums > "$marks/verified.sha256" \
  || ! diff "$marks/verified.sha256" "$dir/CHECKSUMS" > "$marks/checksums.diff"; then
  log "CHECKSUMS differs from the digests of the tables as verified (marks/checksums.diff): stopped"
  exit 1
fi
if [ ! -f "$marks/searched" ]; then
  how="(PRELOAD=$preload)"
  if [ "$preload" = auto ]; then
    # Free memory as the kernel estimates it, without swapping: a copy that does not fit would
    # be granted by an overcommitting kernel and then killed. The spare is for the search's
    # own memory beside the two (its index tables) and for whatever else runs.
    tables_kib=$(du -k --apparent-size -c "$dir"/*.ppdb 2> /dev/null | tail -n 1 | cut -f 1)
    available_kib=$(awk '/^MemAvailable:/ { kib = $2 } END { print kib + 0 }' /proc/meminfo \
      2> /dev/null)
    tables_mib=$((${tables_kib:-0} / 1024)) available_mib=$((${available_kib:-0} / 1024))
    table_mib=$(((8 << table_bits) / 1048576))
    needed_mib=$((tables_mib + table_mib + preload_spare_mib))
    how="($tables_mib MiB of tables, $table_mib of transposition table and $preload_spare_mib spare"
    how+=" need $needed_mib MiB; $available_mib available)"
    preload=0
    [ "$needed_mib" -lt "$available_mib" ] && preload=1
  fi
  search_args=()
  if [ "$preload" = 1 ]; then
    search_args+=(--preload)
    log "search, preloading the tables $how"
  else
    log "search, the tables read where they lie $how"
  fi
  run_step "the search" "$marks/searched" "$marks/search.log" \
    "$bin" search "$game" --db "$dir" --moves --threads "$threads" \
    --table-bits "$table_bits" --checkpoint "$dir/search.tt" "${search_args[@]}" "${set_args[@]}"
  log "value: $(grep -m 1 '^value' "$marks/search.log")"
fi
log "done"
