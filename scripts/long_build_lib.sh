# Sourced by scripts/long_build.sh and scripts/long_build_distances.sh: what both do the same
# way. One instance a directory (a lock), their child process, waited for across the signals
# that stop them, marks written whole, and the checks before a unit (the game the directory
# was begun with, the disk). The checks read the caller's `dir`, `marks` and `min_free_gb` and
# report through its `log`.
#
# SIGTERM, SIGHUP (a closed terminal) and SIGINT (a Ctrl-C) set `stopping` and are passed on as
# one SIGTERM to the child under way (a perfectplay process, which saves its unit or ends a
# verification unfinished, harmlessly: a second signal would make it end at once, unsaved;
# SIGTERM, since a script's background commands ignore SIGINT and `verify` does not take it
# back); the driver then ends where it checks `stopping`. The child runs in a session of its
# own (`setsid`), so that a signal to the driver's whole process group (`timeout`, `kill --
# -PGID`, a shutdown, the terminal's Ctrl-C) reaches it only through the driver, once. A
# SIGKILL to the group leaves it running, holding the lock: `--stop` then names it. `wait`
# returns as soon as the trap runs, so the child is waited for until it has ended, and its own
# exit status is what `run_child` returns.

child=
stopping=
on_signal() {
  [ -n "$stopping" ] && return
  stopping=1
  [ -n "$child" ] && kill -TERM "$child" 2>/dev/null
}
trap 'on_signal TERM' TERM HUP
trap 'on_signal INT' INT

# Runs a command in the background and waits for it even across the signal: its exit status.
run_child() {
  # A background job of a script is no group leader, so setsid makes the session without a
  # fork: `$!` is the command's own pid. (Where it had to fork, `--wait` keeps its status the
  # command's.) A new session is a new scheduling autogroup, at nice 0: the child takes the
  # driver's (19 where the build was started at the lowest priority) before it begins. Without
  # CAP_SYS_ADMIN the kernel takes one such write per 100 ms on the whole machine and refuses
  # the rest (EAGAIN), so a refused write is tried again for up to 1.5 s.
  local autogroup_nice
  autogroup_nice=$(sed -n 's/.* nice \(-\{0,1\}[0-9]*\)$/\1/p' /proc/self/autogroup 2>/dev/null)
  # shellcheck disable=SC2016 # expanded by the child's shell
  setsid --wait bash -c '
    if [ -n "$1" ]; then
      for _ in 1 2 3 4 5 6 7 8 9 10; do
        echo "$1" > /proc/self/autogroup 2> /dev/null && break
        sleep 0.15
      done
    fi
    shift; exec "$@"' run_child "$autogroup_nice" "$@" &
  child=$!
  # A signal that came between the caller's check of `stopping` and now found no child.
  [ -n "$stopping" ] && kill -TERM "$child" 2>/dev/null
  while kill -0 "$child" 2>/dev/null; do
    wait "$child"
  done
  # The child's own status (bash keeps it), not that of a wait the trap cut short.
  wait "$child"
  local rc=$?
  child=
  return "$rc"
}

# Takes DIR's lock LOCK (a file in DIR/marks) for this process and its children, and writes
# its pid beside it (LOCK.pid) for `stop_holder`; fails if another holds it. A lock, unlike a
# pid alone, is let go by the kernel when its holders end, however they end.
take_lock() {
  local lock=$1
  exec 9> "$lock"
  flock -n 9 || return 1
  echo $$ > "$lock.pid"
}

# Whether process PID has FILE open.
holds_open() {
  local target fd
  target=$(realpath "$2")
  for fd in /proc/"$1"/fd/*; do
    [ "$(readlink "$fd" 2>/dev/null)" = "$target" ] && return 0
  done
  return 1
}

# `stop_holder LOCK WHAT`: sends SIGTERM to the holder of LOCK and waits until it has ended.
stop_holder() {
  local lock=$1 what=$2 pid
  if [ ! -f "$lock" ] || flock -n "$lock" true; then
    echo "no $what running"
    return 0
  fi
  pid=$(cat "$lock.pid" 2>/dev/null)
  # The pid file is the driver's only if that process has the lock open (a pid is reused).
  if [ -z "$pid" ] || ! holds_open "$pid" "$lock"; then
    local holders=() proc
    for proc in /proc/[0-9]*; do
      holds_open "${proc#/proc/}" "$lock" && holders+=("${proc#/proc/}")
    done
    echo "the $what's driver (pid ${pid:-unknown}) is gone, but ${holders[*]:-a process it started} holds $lock: kill -TERM ${holders[*]:-PID} saves the unit under way" >&2
    return 1
  fi
  kill -TERM "$pid"
  echo "sent SIGTERM to the $what ($pid); waiting for the unit to be saved"
  while ! flock -n "$lock" true; do sleep 2; done
}

# Writes a mark whole or not at all, on disk before it is renamed into place: a run killed as
# it writes, or a machine that loses power, leaves the mark as it was. A mark that cannot be
# written (a full disk) ends the caller: what it records might be deleted next.
write_mark() {
  if ! { echo "$2" > "$1.tmp" && sync "$1.tmp" && mv -f "$1.tmp" "$1"; }; then
    log "the mark $1 could not be written: stopped"
    exit 1
  fi
}

# The SHA-256 a mark holds, or nothing where the file is missing or holds no digest (cut short
# by a kill as it was written).
digest_mark() {
  grep -sxE '[0-9a-f]{64}' "$1" || true
}

# Whether FILE holds a figure mark: one or two integers.
figure_mark() {
  grep -qxE -- '-?[0-9]+( -?[0-9]+)?' "$1" 2>/dev/null
}

# Ends the caller unless DIR was begun with GAME_AND_OPTIONS (`marks/game`) or records none:
# other rules would make every table its units read again, over the verified ones.
require_begun_with() {
  [ -f "$marks/game" ] || return 0
  [ "$(cat "$marks/game")" = "$1" ] && return 0
  log "$dir was begun as \`$(cat "$marks/game")\`, not \`$1\`: give the same game and --set options"
  exit 1
}

# `unit_files DIR A B EXT`: the files of unit A-B in DIR with extension EXT (ppdb, ppud,
# ppud.long), one a line, each once: A-B and B-A (the same for a level unit), each with the
# no-re-forming memory subspaces (A-B-bM...) the game has.
unit_files() {
  local dir=$1 a=$2 b=$3 ext=$4 file
  for file in "$dir/$a-$b.$ext" "$dir/$a-$b"-b*."$ext" "$dir/$b-$a.$ext" "$dir/$b-$a"-b*."$ext"; do
    [ -f "$file" ] && echo "$file"
  done | sort -u
}

# Ends the caller when the disk under DIR has less than MIN_FREE_GB free.
check_disk() {
  local free_gb
  free_gb=$(df -P -BG "$dir" | awk 'NR == 2 { sub("G", "", $4); print $4 }')
  if ! [[ "$free_gb" =~ ^[0-9]+$ ]]; then
    log "stopped: the free space in $dir could not be read (df)"
    exit 1
  fi
  if [ "$free_gb" -lt "$min_free_gb" ]; then
    log "stopped: $free_gb GB free in $dir, under MIN_FREE_GB=$min_free_gb"
    exit 1
  fi
}
