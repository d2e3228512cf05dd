#!/usr/bin/env bash
# scripts/long_build.sh end to end on Twelve Men's Morris with four men a side (three units,
# 7 M indices, seconds): stopped while it builds, run again to the end (every table verified,
# the manifest written, the placement searched), its tables compared byte for byte with one
# uninterrupted `perfectplay solve --wdl-only --compress` of the same game (and with the
# manifest `long_build_progress.py --checksums` makes of the digests recorded), and the search's
# value of the start and of every first placement with those of a retrograde build of the
# whole game, placement included (the tables preloaded where PRELOAD=auto finds them fitting
# in memory, and read where they lie where it does not); then a fresh build given a manifest with one digest changed
# (EXPECT) stops at that table (and at one unlike the digest it was compared with), one given
# the manifest of tables proven (PROVEN) verifies only the units it does not list whole, --keep carries
# an earlier build's manifest and statistics on past the tables verified (refusing any that
# differ), digest
# marks missing or cut short are made again, each unit's longest distance and each table's
# longest win and loss are recorded (those past the byte, in KEY.ppud.long, counted), and a
# directory verified without unit distances is refused; long_build_distances.sh gives the
# longest wins and losses of units without them as the driver recorded them; and the guards:
# a directory goes on only with the options it was begun with, one driver at a time (a lock;
# a stale pid file naming a live process is neither obeyed nor signalled), the unit under way
# gets one SIGTERM for the driver's two (and one for a signal to the driver's whole process
# group, or a SIGHUP), CHECKSUMS must match the digests recorded as the
# tables were verified, and the progress report reads a unit's last run that built it.
#
#   scripts/long_build_test.sh [BINARY]     # default target/release/perfectplay
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-target/release/perfectplay}")
work=$(mktemp -d)
trap 'bash scripts/long_build.sh --stop "$work/long" > /dev/null; rm -rf "$work"' EXIT
fail() {
  echo "long_build_test: $*" >&2
  cat "$work/long/marks/events.log" >&2 2>/dev/null || true
  exit 1
}
events() { cat "$work/long/marks/events.log" 2>/dev/null || true; }
# `start VALUE` and `MOVE VALUE` for each move listed under "moves, best first:", sorted.
values() {
  (sed -nE 's/^value: ([a-z]+).*/start \1/p' "$1"
    sed -n '/^moves, best first:/,/^[^ ]/p' "$1" | awk '/^  / { print $1, $2 }') | sort
}

# MIN_FREE_GB=1: these builds write megabytes, and a small test disk must not stop them.
# PRELOAD_SPARE_MIB=0: the search preloads these tables (megabytes) whatever memory is free.
export PERFECTPLAY=$bin THREADS=2 TABLE_BITS=20 MIN_FREE_GB=1 PRELOAD=auto PRELOAD_SPARE_MIB=0
rules=(--set men=4)

# 1. Stopped as soon as the last unit's build starts.
bash scripts/long_build.sh twelve_mens_morris "$work/long" 4 "${rules[@]}" > /dev/null &
for _ in $(seq 600); do
  events | grep -q "build 4-4" && break
  sleep 0.1
done
events | grep -q "build 4-4" || fail "the build never reached unit 4-4"
bash scripts/long_build.sh --stop "$work/long" > /dev/null
wait
events | tail -n 1 | grep -q "stopped" || fail "the driver did not record its stop"
[ ! -f "$work/long/marks/searched" ] || fail "a stopped build went on to the search"

# 2. Run again: it goes on from the marks (units 3-3 and 3-4 are not built twice; every table
# is verified with its unit distances, deleted once their unit is verified), and 4-4's
# time counts its stopped run (given 1000 s more here, as the stop may come within a second).
stopped=$work/long/marks/built-4-4.stopped
[ -f "$stopped" ] || fail "the stopped run of 4-4 left no time"
echo $(($(cat "$stopped") + 1000)) > "$stopped"
bash scripts/long_build.sh twelve_mens_morris "$work/long" 4 "${rules[@]}" > /dev/null
events | tail -n 1 | grep -q "done" || fail "the second run did not finish"
[ "$(events | grep -c "build 3-4$")" -eq 1 ] || fail "unit 3-4 was built twice"
[ "$(cat "$work/long/marks/built-4-4")" -ge 1000 ] \
  || fail "the time of 4-4's stopped runs was not counted: $(cat "$work/long/marks/built-4-4") s"
events | grep -q "the build of 4-4: done in [0-9]* s ([0-9]* s of it in runs stopped before)" \
  || fail "the log does not say that 4-4 was built over several runs"
[ ! -f "$work/long/marks/built-4-4.stopped" ] || fail "a finished unit kept its stopped runs' time"
for table in "$work"/long/*.ppdb; do
  key=$(basename "$table" .ppdb)
  [ -f "$work/long/marks/verified-$key" ] || fail "$key was never verified"
done
compgen -G "$work/long/*.ppud*" > /dev/null \
  && fail "unit distances left after their units were verified: $(ls "$work"/long/*.ppud*)"
grep -q "^value: " "$work/long/marks/search.log" || fail "the search printed no value"
python3 scripts/long_build_progress.py "$work/long" --table > "$work/table.md" \
  || fail "long_build_progress.py failed on the marks"
# Each unit's longest distance within it, read from its unit distances before they went: a
# number of plies in the marks, the log and the table (each unit has decided positions).
for unit in 3-3 3-4 4-4; do
  grep -qxE '[0-9]+' "$work/long/marks/longest-$unit" 2>/dev/null \
    || fail "no longest distance recorded for $unit"
  events | grep -q "the longest distance within $unit: [0-9]* plies" \
    || fail "the log does not give $unit's longest distance"
  grep -q "| \`$unit\` and .* | $(cat "$work/long/marks/longest-$unit") |$" "$work/table.md" \
    || fail "the table does not give $unit's longest distance"
done
# Each table's longest win and loss within the unit: odd and even plies (or -1, none), the
# unit's longest the greatest of its tables'.
for unit in 3-3 3-4 4-4; do
  a=${unit%-*} b=${unit#*-} most=-1
  for table in "$work"/long/{$a-$b,$b-$a}{,-b*}.ppdb; do
    [ -f "$table" ] || continue
    key=$(basename "$table" .ppdb)
    read -r win loss < "$work/long/marks/distances-$key" 2>/dev/null \
      || fail "no longest win and loss recorded for $key"
    { [ "$win" = -1 ] || [ $((win % 2)) = 1 ]; } && { [ "$loss" = -1 ] || [ $((loss % 2)) = 0 ]; } \
      || fail "$key's longest win and loss are $win and $loss plies: a win's are odd, a loss's even"
    [ "$win" -gt "$most" ] && most=$win
    [ "$loss" -gt "$most" ] && most=$loss
  done
  [ "$most" = "$(cat "$work/long/marks/longest-$unit")" ] \
    || fail "$unit's longest distance is $(cat "$work/long/marks/longest-$unit"), its tables' $most"
done
# The counts of the verified tables by men: every table once, and their wins, draws and losses
# those the tables' headers hold, with the longest win and loss of each row's tables.
"$bin" info --db "$work/long" > "$work/info.txt"
python3 scripts/long_build_progress.py "$work/long" --results "$work/info.txt" \
  > "$work/results.md" || fail "long_build_progress.py --results failed"
[ "$(grep -c '^| [0-9]' "$work/results.md")" -eq 4 ] \
  || fail "--results gave $(grep -c '^| [0-9]' "$work/results.md") rows, not 4 (3-3, 3-4, 4-3, 4-4)"
summed=$(awk -F'|' '/^\| [0-9]/ { gsub(",", ""); t += $3; w += $6; d += $7; l += $8 }
  END { print t, w, d, l }' "$work/results.md")
headers=$(awk '$1 ~ /^[0-9]+-[0-9]+/ && NF >= 6 { t++; w += $3; d += $4; l += $5 }
  END { print t, w, d, l }' "$work/info.txt")
[ "$summed" = "$headers" ] || fail "--results sums $summed (tables, wins, draws, losses), info $headers"
expected=$(for men in 3-3 3-4 4-3 4-4; do
  cat "$work"/long/marks/distances-"$men"{,-b*} 2>/dev/null | awk -v men="$men" '
    { if ($1 > w) w = $1; if ($2 > l) l = $2 }
    END { printf "%s %s %s\n", men, (w < 0 ? "none" : w), (l < 0 ? "none" : l) }' w=-1 l=-1
done)
given=$(awk -F'|' '/^\| [0-9]/ { gsub(" ", ""); print $2, $9, $10 }' "$work/results.md")
[ "$given" = "$expected" ] || fail "--results gives the longest wins and losses
$given
where the marks say
$expected"
# The same output a table a line: each verified table once, its counts info's, its longest win
# and loss its marks'.
python3 scripts/long_build_progress.py "$work/long" --statistics "$work/info.txt" \
  > "$work/statistics.tsv" || fail "long_build_progress.py --statistics failed"
given=$(tail -n +2 "$work/statistics.tsv" | awk -F'\t' '{ print $1, $4, $5, $6, $7, $8 }' | sort)
expected=$(awk '$1 ~ /^[0-9]+-[0-9]+/ && NF >= 6 { print $1, $3, $4, $5 }' "$work/info.txt" \
  | while read -r key wins draws losses; do
    echo "$key $wins $draws $losses $(cat "$work/long/marks/distances-$key")"
  done | sort)
[ "$given" = "$expected" ] || fail "--statistics gives
$given
where info and the marks say
$expected"

# 3. The same tables as one uninterrupted build, and the manifest of the verified tables, made
# from the digests the driver recorded as it went, the same as the one written at the end.
"$bin" solve twelve_mens_morris --max-men 4 --wdl-only --compress --out "$work/once" -q \
  "${rules[@]}" > /dev/null
"$bin" info --db "$work/once" --write-checksums > /dev/null
diff "$work/long/CHECKSUMS" "$work/once/CHECKSUMS" > /dev/null \
  || fail "the resumed build's tables differ from an uninterrupted build's"
python3 scripts/long_build_progress.py "$work/long" --checksums > "$work/verified.sha256"
diff "$work/verified.sha256" "$work/long/CHECKSUMS" > /dev/null \
  || fail "the manifest of the verified tables differs from CHECKSUMS:
$(diff "$work/verified.sha256" "$work/long/CHECKSUMS")"
# A digest mark missing or cut short (a run killed as it wrote it) is not taken for a digest,
# and the next run makes it again from the table.
rm "$work/long/marks/sha256-3-4"
: > "$work/long/marks/sha256-3-3-bo"
if python3 scripts/long_build_progress.py "$work/long" --checksums > /dev/null 2>&1; then
  fail "--checksums passed over verified tables without a digest"
fi
bash scripts/long_build.sh twelve_mens_morris "$work/long" 4 "${rules[@]}" > /dev/null
python3 scripts/long_build_progress.py "$work/long" --checksums > "$work/verified.sha256" \
  || fail "the next run did not record the digests missing"
diff "$work/verified.sha256" "$work/long/CHECKSUMS" > /dev/null \
  || fail "the digests made again differ from CHECKSUMS"
[ "$(grep -c '^== ' "$work/long/marks/build-4-4.log")" -eq 2 ] \
  || fail "the log of 4-4 does not hold its two runs"
# 4. The search's values against the whole game solved backwards.
"$bin" solve twelve_mens_morris --whole-game --wdl-only --out "$work/whole" -q "${rules[@]}" \
  > /dev/null
"$bin" probe twelve_mens_morris --db "$work/whole" "${rules[@]}" > "$work/probe.txt"
searched=$(values "$work/long/marks/search.log")
probed=$(values "$work/probe.txt")
[ "$(echo "$searched" | wc -l)" -eq 25 ] || fail "the search valued $(echo "$searched" | wc -l) of 25 (start and 24 first placements)"
[ "$searched" = "$probed" ] || fail "the search and the whole-game tables disagree:
$(diff <(echo "$searched") <(echo "$probed"))"
# PRELOAD=auto: the tables and the transposition table fit, so the search read them copied.
grep -q "^preloaded [0-9]* bytes of tables" "$work/long/marks/search.log" \
  || fail "the search did not preload tables that fit in memory"
events | grep -q "search, preloading the tables ([0-9]* MiB of tables, 8 of transposition table and 0 spare need [0-9]* MiB; [0-9]* available)$" \
  || fail "the log does not say the tables were preloaded, and why: $(events | grep "search, ")"
# 5. EXPECT: a fresh build compared with the uninterrupted build's manifest, one digest of it
# changed, goes through the tables that match and stops at the one that differs.
sed -E 's/^[0-9a-f]{64}  3-4\.ppdb$/'"$(printf '0%.0s' $(seq 64))"'  3-4.ppdb/' \
  "$work/once/CHECKSUMS" > "$work/tampered"
grep -q "^0\{64\}  3-4.ppdb$" "$work/tampered" || fail "the manifest has no 3-4.ppdb to change"
if EXPECT="$work/tampered" bash scripts/long_build.sh twelve_mens_morris "$work/again" 4 \
  "${rules[@]}" > /dev/null 2>&1; then
  fail "a table that differs from EXPECT did not stop the build"
fi
tail -n 1 "$work/again/marks/events.log" | grep -q "3-4.ppdb differs from" \
  || fail "the stop did not name the table that differs: $(tail -n 1 "$work/again/marks/events.log")"
[ -f "$work/again/marks/expected-3-3" ] || fail "3-3, which matches, was not compared"
[ ! -f "$work/again/marks/built-4-4" ] || fail "the build went on past the table that differs"
# A unit's longest distance counts those past the byte (KEY.ppud.long) too: 3-4's unit
# distances are kept, the unit not verified through.
ppud=$work/again/3-4.ppud
[ -f "$ppud" ] || fail "the unit distances of 3-4, not verified through, were not kept"
within=$(python3 scripts/unit_longest.py "$ppud")
[ "$within" -ge 1 ] && [ "$within" -le 253 ] || fail "3-4's longest distance read as $within"
python3 - "$ppud.long" <<'PY'
import struct
import sys

entries = [(5, 300), (7, 301), (9, 260)]
body = b"PPUDLONG" + struct.pack("<IQQQ", 1, 0, 0, len(entries))
body += b"".join(struct.pack("<QI", index, plies) for index, plies in entries)
open(sys.argv[1], "wb").write(body + bytes(8))
PY
[ "$(python3 scripts/unit_longest.py "$ppud")" = 301 ] \
  || fail "the longest distance missed the long file: $(python3 scripts/unit_longest.py "$ppud")"
[ "$(python3 scripts/unit_longest.py --tables "$ppud")" = "3-4 301 300" ] \
  || fail "the longest win and loss missed the long file: $(python3 scripts/unit_longest.py --tables "$ppud")"
rm "$ppud.long"

# A table that differs from the digest it was compared with before stops the next run.
printf '%064d\n' 0 > "$work/again/marks/expected-3-3"
if EXPECT="$work/tampered" bash scripts/long_build.sh twelve_mens_morris "$work/again" 4 \
  "${rules[@]}" > /dev/null 2>&1; then
  fail "a table unlike the digest it was compared with did not stop the build"
fi
tail -n 1 "$work/again/marks/events.log" | grep -q "3-3.ppdb changed since it was compared" \
  || fail "the stop did not name the table that changed: $(tail -n 1 "$work/again/marks/events.log")"

# 5b. PROVEN: a fresh build given the manifest of the tables proven above, 4-4's left out and
# 4-3's (one of unit 3-4's), verifies the tables of units 4-4 and 3-4 (a unit is proven only
# whole), marks 3-3's proven, records every unit's longest wins and losses as before and ends
# with the same CHECKSUMS; one digest of it changed stops the build at that table, which is
# not marked proven.
grep -vE '  (4-4(-b[^.]*)?|4-3)\.ppdb$' "$work/long/CHECKSUMS" > "$work/proven.sha256"
[ "$(wc -l < "$work/proven.sha256")" -lt "$(($(wc -l < "$work/long/CHECKSUMS") - 1))" ] \
  || fail "the manifest of proven tables has no 4-4 tables to leave out"
grep -q "  3-4\.ppdb$" "$work/proven.sha256" || fail "the manifest of proven tables lists no 3-4"
# A mark of a table proven by digest, left by an earlier run in a unit now verified whole
# (4-4-bm: 4-4's other tables are not listed), is withdrawn and the table verified.
mkdir -p "$work/proven/marks"
printf '%s  %s\n' "$(awk '$2 == "4-4-bm.ppdb" { print $1 }' "$work/long/CHECKSUMS")" \
  "$work/long/CHECKSUMS" > "$work/proven/marks/proven-4-4-bm"
grep -q '^[0-9a-f]\{64\}  ' "$work/proven/marks/proven-4-4-bm" || fail "the full build made no 4-4-bm table"
# A spare larger than any memory: the search reads the tables where they lie, and values alike.
PROVEN="$work/proven.sha256" EXPECT="$work/long/CHECKSUMS" PRELOAD_SPARE_MIB=999999999 \
  bash scripts/long_build.sh twelve_mens_morris "$work/proven" 4 \
  "${rules[@]}" > /dev/null || fail "the build given PROVEN failed: $(tail -n 1 "$work/proven/marks/events.log")"
diff "$work/proven/CHECKSUMS" "$work/long/CHECKSUMS" > /dev/null \
  || fail "the build given PROVEN wrote other tables"
! grep -q "^preloaded" "$work/proven/marks/search.log" || fail "tables that do not fit were preloaded"
grep -q "search, the tables read where they lie (.* and 999999999 spare need [0-9]* MiB; [0-9]* available)$" \
  "$work/proven/marks/events.log" || fail "the log does not say why the tables were not preloaded"
[ "$(values "$work/proven/marks/search.log")" = "$searched" ] \
  || fail "the search without preloading valued otherwise"
for table in "$work"/proven/*.ppdb; do
  key=$(basename "$table" .ppdb)
  case $key in
    3-3*)
      [ -f "$work/proven/marks/proven-$key" ] || fail "$key, its unit listed in PROVEN, was not marked proven"
      [ ! -f "$work/proven/marks/verify-$key.log" ] || fail "$key, its unit listed in PROVEN, was verified again" ;;
    *)
      [ -f "$work/proven/marks/verified-$key" ] || fail "$key, its unit not wholly listed in PROVEN, was not verified"
      [ ! -f "$work/proven/marks/proven-$key" ] || fail "$key, its unit not wholly listed in PROVEN, was marked proven" ;;
  esac
  cmp -s "$work/proven/marks/distances-$key" "$work/long/marks/distances-$key" \
    || fail "$key's longest win and loss differ in the build given PROVEN"
done
python3 scripts/long_build_progress.py "$work/proven" --checksums > "$work/proven-verified.sha256" \
  || fail "--checksums did not count the proven tables as verified"
diff "$work/proven-verified.sha256" "$work/long/CHECKSUMS" > /dev/null \
  || fail "the manifest of the build given PROVEN differs from CHECKSUMS"
python3 scripts/long_build_progress.py "$work/proven" --table > "$work/proven-table.md"
grep -q "^3 units built and verified" "$work/proven-table.md" \
  || fail "the progress report does not count the proven units: $(tail -n 3 "$work/proven-table.md")"
grep -q "3-4: [0-9]* of its [0-9]* tables are listed in proven.sha256 or marked proven, or one was verified here: each is verified" \
  "$work/proven/marks/events.log" || fail "the build did not say why unit 3-4 was verified whole"
grep -q "4-4-bm: its mark of a table proven by digest withdrawn" "$work/proven/marks/events.log" \
  || fail "the build did not say that 4-4-bm's leftover proven mark was withdrawn"
grep -q "^  1 of them (.*) found byte for byte as an earlier build proved them" "$work/proven-table.md" \
  || fail "the progress report does not set the proven units apart: $(tail -n 4 "$work/proven-table.md")"
# Taken up again without PROVEN: the tables marked proven stay so (3-3's are not verified).
bash scripts/long_build.sh twelve_mens_morris "$work/proven" 4 "${rules[@]}" > /dev/null \
  || fail "the build given PROVEN, taken up again without it, failed: $(tail -n 1 "$work/proven/marks/events.log")"
[ ! -e "$work/proven/marks/verify-3-3.log" ] || fail "3-3, marked proven, was verified when taken up again"
tail -n 1 "$work/proven/marks/events.log" | grep -q "done$" \
  || fail "the build taken up again did not end: $(tail -n 1 "$work/proven/marks/events.log")"
# A unit listed in part is verified whole, but a table it lists with another digest still
# stops the build.
grep -v "  4-3\.ppdb$" "$work/tampered" > "$work/tampered-part"
if PROVEN="$work/tampered-part" bash scripts/long_build.sh twelve_mens_morris "$work/proven-part" 4 \
  "${rules[@]}" > /dev/null 2>&1; then
  fail "a table that differs from PROVEN's digest, in a unit listed in part, did not stop the build"
fi
tail -n 1 "$work/proven-part/marks/events.log" | grep -q "3-4.ppdb differs from the table" \
  || fail "the stop did not name the table unlike PROVEN: $(tail -n 1 "$work/proven-part/marks/events.log")"
if PROVEN="$work/tampered" bash scripts/long_build.sh twelve_mens_morris "$work/proven-tampered" 4 \
  "${rules[@]}" > /dev/null 2>&1; then
  fail "a table that differs from PROVEN's digest did not stop the build"
fi
tail -n 1 "$work/proven-tampered/marks/events.log" | grep -q "3-4.ppdb differs from the table" \
  || fail "the stop did not name the table unlike PROVEN: $(tail -n 1 "$work/proven-tampered/marks/events.log")"
[ -f "$work/proven-tampered/marks/proven-3-3" ] || fail "3-3, which PROVEN lists as it is, was not marked proven"
[ ! -f "$work/proven-tampered/marks/proven-3-4" ] || fail "3-4, unlike PROVEN, was marked proven"

# `keep_refused FILE MESSAGE WHAT OPTION...`: the report OPTION... of the directory stopped at
# 3-4 given `--keep FILE` (WHAT) fails, saying MESSAGE.
keep_refused() {
  local file=$1 message=$2 what=$3
  shift 3
  if python3 scripts/long_build_progress.py "$work/proven-tampered" "$@" --keep "$file" \
    > /dev/null 2> "$work/keep.err"; then
    fail "--keep took $what"
  fi
  grep -q "$message" "$work/keep.err" || fail "--keep did not say why it refused $what: $(cat "$work/keep.err")"
}
# --keep: the directory stopped at 3-4 (3-3 proven) carries on the full build's manifest and
# statistics (the longest wins and losses blanked for 3-3's tables, which its marks fill in);
# a table whose digest or counts differ is refused by name.
awk -F'\t' -v OFS='\t' '$1 ~ /^3-3/ { $7 = ""; $8 = "" } { print }' "$work/statistics.tsv" \
  > "$work/earlier.tsv"
"$bin" info --db "$work/proven-tampered" > "$work/tampered-info.txt"
python3 scripts/long_build_progress.py "$work/proven-tampered" --statistics "$work/tampered-info.txt" \
  --keep "$work/earlier.tsv" > "$work/kept.tsv" || fail "--statistics --keep failed"
diff "$work/kept.tsv" "$work/statistics.tsv" > /dev/null \
  || fail "--statistics --keep did not give the full build's statistics: $(diff "$work/kept.tsv" "$work/statistics.tsv")"
python3 scripts/long_build_progress.py "$work/proven-tampered" --results "$work/tampered-info.txt" \
  --keep "$work/statistics.tsv" | diff - "$work/results.md" > /dev/null \
  || fail "--results --keep did not give the full build's results"
python3 scripts/long_build_progress.py "$work/proven-tampered" --checksums --keep "$work/long/CHECKSUMS" \
  | diff - "$work/long/CHECKSUMS" > /dev/null || fail "--checksums --keep did not give the full manifest"
awk -F'\t' -v OFS='\t' '$1 == "3-3" { $4 += 1; $5 -= 1 } { print }' "$work/statistics.tsv" \
  > "$work/unlike.tsv"
keep_refused "$work/unlike.tsv" "^--keep: 3-3: this build's counts" \
  "an earlier build whose counts differ" --statistics "$work/tampered-info.txt"
sed -E 's/^[0-9a-f]{64}  3-3\.ppdb$/'"$(printf '0%.0s' $(seq 64))"'  3-3.ppdb/' \
  "$work/long/CHECKSUMS" > "$work/unlike.sha256"
keep_refused "$work/unlike.sha256" "^--keep: 3-3.ppdb: this build's SHA-256" \
  "an earlier manifest whose digest differs" --checksums

awk -F'\t' -v OFS='\t' '$1 == "3-3" { $7 += 2 } { print }' "$work/statistics.tsv" \
  > "$work/unlike.tsv"
keep_refused "$work/unlike.tsv" "^--keep: 3-3: this build's counts and longest" \
  "an earlier build whose longest win differs" --statistics "$work/tampered-info.txt"
# A file given to --keep and written over by the same command is empty: refused, not taken for
# a build with no tables.
: > "$work/empty"
keep_refused "$work/empty" "is empty" "an empty manifest" --checksums
keep_refused "$work/empty" "is empty" "an empty statistics file" --statistics "$work/tampered-info.txt"

# 6. A directory whose tables were verified without unit distances is not taken up.
mkdir -p "$work/old/marks"
touch "$work/old/marks/verified-3-3"
if bash scripts/long_build.sh twelve_mens_morris "$work/old" 4 "${rules[@]}" > /dev/null 2>&1; then
  fail "a directory verified without unit distances was taken up"
fi
grep -q "verified without unit distances" "$work/old/marks/events.log" \
  || fail "the refusal of a directory verified without unit distances was not logged"

# 7. The longest wins and losses of units verified before they were recorded: built again
# beside the tables by long_build_distances.sh, the same as those the driver recorded, and
# nothing recorded from a unit built again unlike its verified tables.
mkdir "$work/recorded"
cp "$work"/long/marks/distances-{3-4,4-3,4-4}* "$work/recorded/"
rm "$work"/long/marks/distances-{3-4,4-3,4-4}*
bash scripts/long_build_distances.sh twelve_mens_morris "$work/long" 4 "${rules[@]}" > /dev/null \
  || fail "long_build_distances.sh failed: $(tail -n 1 "$work/long/marks/events.log")"
for mark in "$work"/recorded/*; do
  cmp -s "$mark" "$work/long/marks/$(basename "$mark")" \
    || fail "$(basename "$mark") built again: $(cat "$work/long/marks/$(basename "$mark")" 2>/dev/null), recorded $(cat "$mark")"
done
events | tail -n 1 | grep -q "units built again for their distances: 2$" \
  || fail "long_build_distances.sh did not build exactly the two units without marks"
[ ! -e "$work/long/distances.tmp" ] || fail "long_build_distances.sh left its scratch directory"
rm "$work"/long/marks/distances-3-3*
cp "$work/long/marks/sha256-3-3" "$work/sha256-3-3"
printf '%064d\n' 0 > "$work/long/marks/sha256-3-3"
if bash scripts/long_build_distances.sh twelve_mens_morris "$work/long" 4 "${rules[@]}" \
  > /dev/null 2>&1; then
  fail "long_build_distances.sh took a unit built again unlike its verified tables"
fi
events | tail -n 1 | grep -q "3-3.*differs from the verified table" \
  || fail "the stop did not name the table that differs: $(events | tail -n 1)"
compgen -G "$work/long/marks/distances-3-3*" > /dev/null \
  && fail "figures were recorded from a unit unlike its verified tables"
cp "$work/sha256-3-3" "$work/long/marks/sha256-3-3"

# After a mismatch the unit built again is gone from the scratch directory, and nothing else is
# left there but links (and the marker).
[ -z "$(find "$work/long/distances.tmp" -maxdepth 1 -name '3-3*')" ] \
  || fail "the unit built unlike its verified tables was left in the scratch directory"
rm -rf "$work/long/distances.tmp"

# 8. Guards: the directory goes on only with the game and options it was begun with; one
# driver at a time (a lock, not a pid that a stale file may name); CHECKSUMS must be the
# digests recorded as the tables were verified; the progress report counts a unit whose last
# run found its tables written (kept) by the run that built them.
if bash scripts/long_build.sh twelve_mens_morris "$work/long" 4 > /dev/null 2>&1; then
  fail "the directory went on without the --set options it was begun with"
fi
events | tail -n 1 | grep -q "was begun as .twelve_mens_morris --set men=4., not .twelve_mens_morris .: give the same" \
  || fail "the refusal of other options did not name them: $(events | tail -n 1)"
# Settings the search reads are checked before any unit is built.
for setting in PRELOAD=yes PRELOAD_SPARE_MIB=2G TABLE_BITS=41 TABLE_BITS=029 TABLE_BITS=x; do
  if env "$setting" bash scripts/long_build.sh twelve_mens_morris "$work/settings" 4 \
    "${rules[@]}" > /dev/null 2> "$work/setting.err"; then
    fail "$setting was taken"
  fi
  grep -q "^${setting}: " "$work/setting.err" || fail "$setting was refused without the reason: $(cat "$work/setting.err")"
  [ ! -e "$work/settings" ] || fail "$setting was refused after the build began"
done
# A disk with less free than MIN_FREE_GB stops the driver before a unit, with the figures.
if MIN_FREE_GB=999999 bash scripts/long_build.sh twelve_mens_morris "$work/full-disk" 4 "${rules[@]}" > /dev/null 2>&1; then
  fail "the driver built on a disk with less free than MIN_FREE_GB"
fi
tail -n 1 "$work/full-disk/marks/events.log" | grep -qE "stopped: [0-9]+ GB free in .*full-disk, under MIN_FREE_GB=999999$" \
  || fail "the stop for a full disk did not say why: $(tail -n 1 "$work/full-disk/marks/events.log")"
! compgen -G "$work/full-disk/*.ppdb" > /dev/null || fail "a table was built on a disk under MIN_FREE_GB"
(exec 9> "$work/long/marks/driver.lock" && flock 9 && exec sleep 30) &
holder=$!
# Until the lock is held (a fixed wait could end first on a loaded machine).
for _ in $(seq 100); do
  flock -n "$work/long/marks/driver.lock" true || break
  sleep 0.05
done
if bash scripts/long_build.sh twelve_mens_morris "$work/long" 4 "${rules[@]}" > /dev/null 2>&1; then
  fail "a second driver ran while the lock was held"
fi
# A pid file naming a live process that does not hold the lock: not taken for the driver.
echo $$ > "$work/long/marks/driver.lock.pid"
if bash scripts/long_build.sh --stop "$work/long" > /dev/null 2>&1; then
  fail "--stop signalled a process that does not hold the lock"
fi
kill "$holder"
wait "$holder" 2>/dev/null || true
[ "$(bash scripts/long_build.sh --stop "$work/long" | head -n 1)" = "no build running" ] \
  || fail "--stop took a stale pid file (naming a live process) for a build"
bash scripts/long_build.sh twelve_mens_morris "$work/long" 4 "${rules[@]}" > /dev/null \
  || fail "a stale pid file stopped the driver: $(events | tail -n 1)"
cp "$work/long/marks/sha256-4-4" "$work/sha256-4-4"
printf '%064d\n' 0 > "$work/long/marks/sha256-4-4"
if bash scripts/long_build.sh twelve_mens_morris "$work/long" 4 "${rules[@]}" > /dev/null 2>&1; then
  fail "a table unlike the digest recorded when it was verified passed the end's check"
fi
events | tail -n 1 | grep -q "CHECKSUMS differs from the digests of the tables as verified" \
  || fail "the end's check did not say why it stopped: $(events | tail -n 1)"
cp "$work/sha256-4-4" "$work/long/marks/sha256-4-4"
# A verified table without its digest: no manifest at all, rather than one that looks whole
# (or, with --keep, one whose line is the earlier manifest's, unchecked).
mv "$work/long/marks/sha256-4-4" "$work/sha256-4-4.aside"
if python3 scripts/long_build_progress.py "$work/long" --checksums --keep "$work/long/CHECKSUMS" \
  > "$work/partial.sha256" 2> /dev/null; then
  fail "a manifest was made without a verified table's digest"
fi
[ -s "$work/partial.sha256" ] && fail "a manifest lacking a verified table's digest was printed"
mv "$work/sha256-4-4.aside" "$work/long/marks/sha256-4-4"
# A stand-in for perfectplay that counts the SIGTERMs it gets, for the driver's stops below.
cat > "$work/stub" <<'STUB'
#!/usr/bin/env bash
[ "$1" = --version ] && { echo "stand-in"; exit 0; }
signals=0
trap 'signals=$((signals + 1)); echo "$signals" > "$STUB_SIGNALS"' TERM
# Its pid and its session's (the fourth field after the command's name in /proc/PID/stat): a
# unit in a session of its own is out of reach of signals to the driver's process group (two
# at once would coalesce here, but not always in perfectplay).
stat=$(< /proc/$$/stat)
echo "$$ $(echo "${stat##*) }" | cut -d ' ' -f 4)" > "$STUB_SIGNALS.session"
# Its scheduling autogroup's nice value, where the kernel has autogroups.
sed -n 's/.* nice //p' /proc/self/autogroup > "$STUB_SIGNALS.autogroup" 2> /dev/null || true
for _ in $(seq 60); do sleep 0.05; done
[ "$signals" -gt 0 ] && exit 143
exit 0
STUB
chmod +x "$work/stub"
for how in group hup; do
  rm -f "$work/signals" "$work/signals.session" "$work/signals.autogroup"
  # The driver at autogroup nice 5 (where it can be set): the unit, in a new session and so a
  # new autogroup, must take it on rather than run at 0.
  STUB_SIGNALS=$work/signals PERFECTPLAY=$work/stub setsid bash -c \
    'echo 5 > /proc/self/autogroup 2> /dev/null; exec bash scripts/long_build.sh "$@"' _ \
    twelve_mens_morris "$work/stub-$how" 3 > /dev/null &
  driver=$!
  # Until the stand-in has set its trap and written what it runs at (its unit may wait up to
  # 1.5 s for the write of its autogroup's nice value).
  for _ in $(seq 200); do
    [ -e "$work/signals.autogroup" ] && break
    sleep 0.05
  done
  [ -e "$work/signals.autogroup" ] || fail "the stand-in unit of the $how stop never started"
  # What the driver runs at (the write of 5 above may be refused without CAP_SYS_ADMIN), read
  # while it runs: the unit must run at the same.
  driver_nice=$(sed -n 's/.* nice //p' /proc/"$driver"/autogroup 2> /dev/null || true)
  case $how in
    two) kill -TERM "$driver"; sleep 0.5; kill -TERM "$driver" || true ;;
    group) kill -TERM -- "-$driver" || true ;;
    hup) kill -HUP "$driver" || true ;;
  esac
  wait "$driver" || true
  [ "$(cat "$work/signals" 2>/dev/null)" = 1 ] \
    || fail "after a $how signal the unit under way got $(cat "$work/signals" 2>/dev/null || echo no) SIGTERMs, not one"
  read -r pid sid < "$work/signals.session"
  [ "$pid" = "$sid" ] || fail "the unit under way ran in the driver's session ($sid), not its own"
  if [ "$driver_nice" = 5 ]; then
    [ "$(cat "$work/signals.autogroup" 2> /dev/null)" = 5 ] \
      || fail "the unit under way ran at autogroup nice $(cat "$work/signals.autogroup" 2> /dev/null), not the driver's 5"
  fi
  tail -n 1 "$work/stub-$how/marks/events.log" | grep -q "stopped in the build of 3-3" \
    || fail "the driver did not record its stop: $(tail -n 1 "$work/stub-$how/marks/events.log")"
done
python3 scripts/long_build_progress.py "$work/long" --table > "$work/before.md"
{
  echo "== 2026-01-01 00:00:00 a run that found the unit's tables written"
  grep -E "^ +[0-9]+-[0-9]+" "$work/long/marks/build-4-4.log" \
    | awk '!seen[$1]++ { print $1, $2, $3, $4, $5, $6, "kept" }'
  echo "16 tables, 7000000 positions; solved 0 in 0.01 s with 2 threads"
} >> "$work/long/marks/build-4-4.log"
python3 scripts/long_build_progress.py "$work/long" --table > "$work/after.md"
diff "$work/before.md" "$work/after.md" > /dev/null \
  || fail "a run that kept the unit's tables changed its row: $(diff "$work/before.md" "$work/after.md")"
# A unit whose only run that wrote its tables was stopped before its report (the next found
# them kept): counted by those tables, not as an empty unit.
mkdir -p "$work/kept-only/marks"
echo 60 > "$work/kept-only/marks/built-4-4"
grep -E "^ +[0-9]+-[0-9]+" "$work/long/marks/build-4-4.log" \
  | awk '!seen[$1]++ { print $1, $2, $3, $4, $5, $6, "kept" }' > "$work/kept-only/marks/build-4-4.log"
echo "16 tables, 7000000 positions; solved 0 in 0.01 s with 2 threads" >> "$work/kept-only/marks/build-4-4.log"
want=$(awk '$1 ~ /^4-4(-b[a-z]+)?$/ && $7 == "kept" { s += $2 } END { print s }' "$work/kept-only/marks/build-4-4.log")
# Read from a file: `grep -q` in a pipe may close it before the report is written (pipefail).
python3 scripts/long_build_progress.py "$work/kept-only" --table > "$work/kept-only.md"
grep -q "| $(python3 -c "print(f'{$want:,}')") |" "$work/kept-only.md" \
  || fail "a unit whose tables a stopped run wrote was not counted by them ($want indices): $(cat "$work/kept-only.md")"

echo "long_build.sh: stopped, resumed, verified and searched; $(wc -l < "$work/long/CHECKSUMS") tables identical to one uninterrupted build, and to the manifest of the digests recorded; the start ($(echo "$searched" | awk '$1 == "start" { print $2 }')) and 24 first placements as the whole-game tables value them, with the tables preloaded or not; a table unlike EXPECT's stops it; the units PROVEN lists whole are not verified again, those it lists in part are verified whole; --keep carries an earlier build's files on; a directory verified without unit distances is refused; units built again give the same longest wins and losses; settings the search reads (PRELOAD, PRELOAD_SPARE_MIB, TABLE_BITS) are checked before a unit is built; other options, a second driver, a stale pid file and a CHECKSUMS unlike the verified digests are refused or told apart"
