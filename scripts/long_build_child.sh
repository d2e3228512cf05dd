# Sourced by scripts/long_build.sh and scripts/long_build_distances.sh: their child process,
# waited for across the signals that stop them.
#
# SIGTERM or SIGINT sets `stopping` and is passed on to the child under way (a perfectplay
# process, which saves its unit or ends a verification unfinished, harmlessly); the driver
# then ends where it checks `stopping`. `wait` returns as soon as the trap runs, so the child is
# waited for again until it has ended, and its own exit status is what `run_child` returns.

child=
stopping=
on_signal() {
  stopping=1
  [ -n "$child" ] && kill -TERM "$child" 2>/dev/null
}
trap on_signal TERM INT

# Runs a command in the background and waits for it even across the signal: its exit status.
run_child() {
  "$@" &
  child=$!
  local rc
  while :; do
    wait "$child"
    rc=$?
    kill -0 "$child" 2>/dev/null || break
  done
  child=
  return "$rc"
}
