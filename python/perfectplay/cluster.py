"""Endgame tables built on a Ray cluster: each unit of the solver's plan is a Ray task.

``pip install perfectplay[cluster]`` adds Ray; ``import perfectplay`` works without it::

    import perfectplay.cluster as ppc
    report = ppc.build("checkers", "/shared/tables/checkers", max_pieces=7, address="auto")
    report.positions_per_second, report.nodes

or from a shell: ``perfectplay-cluster checkers --out /shared/tables/checkers --max-pieces 7``
(``python -m perfectplay.cluster`` is the same).

How it works. The driver asks the solver for the plan (``_plan_units``: the units, the units
each reads, positions and working memory), claims the directory (its build lock, held until
the end, so no other build writes there; temporary files of killed writers are removed when it
is claimed and when it is let go), and submits one Ray task per unit. A task's arguments
include the tasks of the units it reads, so Ray starts it only once they are complete; it asks
for ``cpus_per_task`` CPUs and its working memory (``memory=`` in bytes), and runs the Rust
solver for its unit with the GIL released (``_build_unit``). Units are submitted critical path
first: among the units whose inputs are submitted, the one with the most positions on the
longest chain of units that wait for it goes first, and Ray starts ready tasks in that order.

Storage: the directory must be one that every node mounts at the same path (NFS, Lustre, or
one node's disk for a single-node cluster), with POSIX rename within the directory (atomic,
and visible to the other nodes once done), ``flock`` for the driver's lock (NFSv4 has it), and
the tables of finished units readable by the nodes that run the units after them. Each table
is written under a temporary name unique to its writer and renamed when complete.

Faults: a worker or node lost in the middle of a unit is Ray's to handle: the task is retried
(``max_retries``), and the retry finds no half file (only complete tables have their real
names) and solves the unit again. A task that fails with an error of ours (a damaged table, a
full disk) is not retried: the build stops with that error. A driver restarted on a half-built
directory resumes: complete, valid tables are kept by the tasks (a unit whose files are all
there is reported as kept, not solved again).

The tables are byte-identical to a local ``perfectplay solve`` of the same request: each
unit's values depend only on the tables it reads.
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Union

try:
    import ray
except ImportError as error:  # pragma: no cover - exercised where Ray is missing
    raise ImportError(
        "perfectplay.cluster needs Ray: pip install perfectplay[cluster]"
    ) from error

from perfectplay._core import Game, _build_unit, _DirectoryClaim, _plan_units
from perfectplay._games import exact_int
from perfectplay.schedule import critical_path_order
from perfectplay.tablebase import _subspace_names
from perfectplay._core import load_game as _load_game

__all__ = ["ClusterReport", "NodeFigures", "build", "main", "plan"]


@dataclasses.dataclass(frozen=True)
class NodeFigures:
    """What one node did: its units, the positions it solved and its rate."""

    node: str
    host: str
    units: int
    solved_positions: int
    seconds: float

    @property
    def positions_per_second(self) -> float:
        """Positions solved per second of its tasks' time (the sum of their wall times)."""
        return self.solved_positions / self.seconds if self.seconds > 0 else 0.0


@dataclasses.dataclass(frozen=True)
class ClusterReport:
    """What a cluster build did: the fields of ``perfectplay solve``'s summary, and per node."""

    #: ``{subspace: positions}`` of every table the request needed.
    tables: Dict[str, int]
    positions: int
    #: Positions solved (not kept) by this run.
    solved_positions: int
    #: Wall time of the build, seconds.
    seconds: float
    #: The largest working memory of one unit, bytes.
    peak_working_bytes: int
    #: Units solved and kept.
    units_solved: int
    units_kept: int
    nodes: List[NodeFigures]
    #: Units taken up from a checkpoint of an earlier attempt (a retried task, a rerun).
    units_resumed: int = 0

    @property
    def positions_per_second(self) -> float:
        """Positions solved per second of wall time."""
        return self.solved_positions / self.seconds if self.seconds > 0 else 0.0

    def summary(self) -> str:
        """One line as ``perfectplay solve`` prints it, then a line per node."""
        lines = [
            f"{len(self.tables)} tables, {self.positions} positions; solved "
            f"{self.solved_positions} in {self.seconds:.2f} s on {len(self.nodes)} nodes "
            f"({self.positions_per_second:.0f} positions/s); peak working memory "
            f"{self.peak_working_bytes} bytes (one unit)"
        ]
        if self.units_resumed:
            lines.append(f"taken up from checkpoints: {self.units_resumed} units")
        for n in self.nodes:
            lines.append(
                f"  node {n.node[:12]} ({n.host}): {n.units} units, {n.solved_positions} "
                f"positions in {n.seconds:.2f} s of tasks ({n.positions_per_second:.0f}/s)"
            )
        return "\n".join(lines)


def _game(game: Union[Game, str], rules: Dict[str, Any]) -> Game:
    if isinstance(game, Game):
        if rules:
            raise ValueError("rule options go with a game id, not with a Game")
        return game
    return _load_game(game, **rules)


def plan(
    game: Union[Game, str],
    *,
    max_men: Optional[int] = None,
    max_pieces: Optional[int] = None,
    subspaces: Union[None, str, Sequence[str]] = None,
    whole_game: bool = False,
    wdl_only: bool = False,
    unit_distances: bool = False,
    **rules: Any,
) -> List[Dict[str, Any]]:
    """The units a build of this request takes, in an order where each comes after the units
    it reads: dicts with ``subspaces``, ``reads`` (indices of earlier units), ``positions`` and
    ``working_bytes`` (the memory to build it; that of WDL-only tables with ``wdl_only``, and
    with their unit distances with ``unit_distances`` too)."""
    if unit_distances and not wdl_only:
        raise ValueError("unit_distances=True goes with wdl_only=True (distance tables need none)")
    return list(
        _plan_units(
            _game(game, rules),
            _subspace_names(subspaces),
            max_men,
            max_pieces,
            whole_game,
            wdl_only,
            unit_distances,
        )
    )


@ray.remote
def _build_unit_task(
    game: Game,
    out: str,
    subspaces: List[str],
    threads: int,
    wdl_only: bool,
    compress: bool,
    checkpoint_minutes: Optional[float],
    unit_distances: bool,
    *inputs: Any,
) -> Dict[str, Any]:
    """One unit, in a Ray worker. ``inputs`` are the results of the units it reads: Ray hands
    them over only once those tasks are done, which is all they are for."""
    del inputs
    # Ray stops a running task (a cancel without force) with _thread.interrupt_main, which does
    # nothing where SIGINT is not Python's: a worker of a cluster started in the background
    # inherits an ignored SIGINT. Python's handler lets the unit stop and save.
    handled = threading.current_thread() is threading.main_thread() and signal.getsignal(
        signal.SIGINT
    ) in (signal.SIG_IGN, signal.SIG_DFL)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler) if handled else None
    try:
        done = _build_unit(
            game,
            out,
            subspaces,
            threads,
            wdl_only,
            compress,
            checkpoint_minutes,
            unit_distances=unit_distances,
        )
    finally:
        if handled:
            signal.signal(signal.SIGINT, previous)
    context = ray.get_runtime_context()
    done["node"] = context.get_node_id()
    done["host"] = socket.gethostname()
    done["pid"] = os.getpid()
    return done


def _progress_bar(total: int, enabled: bool) -> Any:
    if not enabled:
        return None
    try:
        from tqdm.auto import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit=" positions", unit_scale=True, desc="cluster build")


def build(
    game: Union[Game, str],
    out: Union[str, os.PathLike],
    *,
    max_men: Optional[int] = None,
    max_pieces: Optional[int] = None,
    subspaces: Union[None, str, Sequence[str]] = None,
    whole_game: bool = False,
    address: Optional[str] = "auto",
    cpus_per_task: int = 1,
    wdl_only: bool = False,
    unit_distances: bool = False,
    compress: bool = False,
    max_retries: int = 3,
    progress: bool = True,
    checkpoint_minutes: Optional[float] = 30.0,
    stop_grace_seconds: float = 120.0,
    **rules: Any,
) -> ClusterReport:
    """Builds the tables of a request on a Ray cluster into ``out`` (a directory every node
    mounts at the same path) and returns what it did.

    The request is as in :func:`perfectplay.tablebase.build`: ``max_men`` (morris),
    ``max_pieces`` (checkers), ``subspaces`` or ``whole_game``, with rule options as keywords.
    ``address`` is handed to ``ray.init`` unless Ray is already initialised in this process
    (``"auto"``: the running cluster; ``None``: a new local one). Each unit asks for
    ``cpus_per_task`` CPUs (and solves with as many threads) and its working memory. A task
    whose worker dies is retried up to ``max_retries`` times. A task asking for more CPUs than
    any node has waits, as Ray makes it, for such a node to join. ``progress`` shows one tqdm bar
    over positions, where tqdm is installed.

    ``wdl_only`` and ``unit_distances`` are as in :func:`perfectplay.tablebase.build`: with
    both, each table's distances within its unit (``KEY.ppud``) are written beside it, and
    :func:`perfectplay.tablebase.verify` with ``unit_distances=True`` proves the set right.

    A unit saves its solving state in ``out`` (``KEY.ppck``) after ``checkpoint_minutes`` of
    work and as often again (``None``: never), so that a retried task, or the unit in a rerun
    of the driver, goes on from there with the same tables (see
    :func:`perfectplay.tablebase.build`).

    A build stopped by an exception in the driver (Ctrl-C, or SIGTERM, which the build turns
    into a ``KeyboardInterrupt`` while it runs in the main thread) drops the units not started
    and asks the running ones to stop: each saves its state where it is, as a local build
    stopped by Ctrl-C does. The driver waits ``stop_grace_seconds`` for those saves (a second
    Ctrl-C ends the wait; a second SIGTERM is ignored), kills the tasks still running, waits
    until none runs, and raises again.

    Raises ``TablebaseError`` when another build holds ``out``, and the first error of a unit
    (a missing or damaged table, a full disk) as Ray raises it (``ray.exceptions.RayTaskError``
    wrapping ours), after stopping the other units as above; the error is printed to stderr at
    once, and is what is raised even if a Ctrl-C ends the wait.
    """
    cpus_per_task = exact_int(cpus_per_task, "cpus_per_task")
    if cpus_per_task < 1:
        raise ValueError(f"cpus_per_task must be at least 1, not {cpus_per_task}")
    max_retries = exact_int(max_retries, "max_retries")
    if max_retries < 0:
        # Ray reads -1 as "retry for ever": a unit that fails each time would never end.
        raise ValueError(f"max_retries must be 0 or more, not {max_retries}")
    if checkpoint_minutes is not None and not 0 <= checkpoint_minutes <= 1e9:
        raise ValueError(
            f"checkpoint_minutes must be a number of minutes, 0 or more (or None), "
            f"not {checkpoint_minutes}"
        )
    if not 0 <= stop_grace_seconds <= 1e9:
        raise ValueError(
            f"stop_grace_seconds must be a number of seconds, 0 or more, not {stop_grace_seconds}"
        )
    the_game = _game(game, rules)
    units = plan(
        the_game,
        max_men=max_men,
        max_pieces=max_pieces,
        subspaces=subspaces,
        whole_game=whole_game,
        wdl_only=wdl_only,
        unit_distances=unit_distances,
    )
    out = str(Path(out).resolve())
    claim = _DirectoryClaim(out)
    try:
        if not ray.is_initialized():
            ray.init(address=address, log_to_driver=False)
        with _sigterm_as_interrupt():
            return _run(
                the_game,
                out,
                units,
                cpus_per_task,
                wdl_only,
                unit_distances,
                compress,
                checkpoint_minutes,
                max_retries,
                progress,
                stop_grace_seconds,
            )
    finally:
        claim.release()


def _run(
    game: Game,
    out: str,
    units: List[Dict[str, Any]],
    cpus_per_task: int,
    wdl_only: bool,
    unit_distances: bool,
    compress: bool,
    checkpoint_minutes: Optional[float],
    max_retries: int,
    progress: bool,
    stop_grace_seconds: float,
) -> ClusterReport:
    started = time.monotonic()
    refs: Dict[int, Any] = {}
    unit_of_ref: Dict[Any, int] = {}
    results: Dict[int, Dict[str, Any]] = {}
    # Every task submitted is in `pending` at once, so that a stop during the submissions (a
    # plan of thousands of units) reaches the tasks already under way.
    pending: List[Any] = []
    bar = None
    try:
        for i in critical_path_order(units):
            unit = units[i]
            task = _build_unit_task.options(
                num_cpus=cpus_per_task,
                memory=max(int(unit["working_bytes"]), 1),
                max_retries=max_retries,
                retry_exceptions=False,
                name=f"perfectplay unit {' + '.join(unit['subspaces'])}",
            )
            inputs = [refs[j] for j in sorted(set(unit["reads"]))]
            ref = task.remote(
                game,
                out,
                unit["subspaces"],
                cpus_per_task,
                wdl_only,
                compress,
                checkpoint_minutes,
                unit_distances,
                *inputs,
            )
            refs[i] = ref
            unit_of_ref[ref] = i
            pending.append(ref)
        bar = _progress_bar(sum(unit["positions"] for unit in units), progress)
        while pending:
            ready, pending = ray.wait(pending, num_returns=1, timeout=1.0)
            for ref in ready:
                i = unit_of_ref[ref]
                results[i] = ray.get(ref)
                if bar is not None:
                    bar.update(units[i]["positions"])
    except BaseException as error:
        if bar is not None:
            bar.close()
            bar = None
        if not isinstance(error, KeyboardInterrupt):
            # Said now: the wait below may be long, and a Ctrl-C during it must not hide why.
            # A task's error carries the worker's traceback; its last line names the fault.
            lines = [line for line in str(error).splitlines() if line.strip()]
            print(
                f"perfectplay-cluster: a unit failed ({type(error).__name__}: "
                f"{lines[-1].strip() if lines else ''}); "
                f"stopping the units under way (up to {stop_grace_seconds:g} s)",
                file=sys.stderr,
            )
        try:
            _stop(pending, stop_grace_seconds)
        except KeyboardInterrupt:
            if isinstance(error, KeyboardInterrupt):
                raise
            # A Ctrl-C that only cut the wait short: the unit's error is what ended the build.
            raise error from None
        raise
    finally:
        if bar is not None:
            bar.close()
    return _report(units, results, time.monotonic() - started)


# How often a running unit is asked again to stop (see _stop), and a unit again to die (_kill).
_ASK_AGAIN_SECONDS = 5.0
_KILL_AGAIN_SECONDS = 2.0


def _stop(pending: List[Any], grace_seconds: float) -> None:
    """Stops the units still pending. Ray raises ``KeyboardInterrupt`` in a running task that is
    cancelled without force, so its solver stops between two chunks, saves the unit under way
    (``KEY.ppck``, unless checkpoints are off) and leaves no half-written file; queued tasks are
    dropped. Tasks still running after ``grace_seconds`` (a save on a slow disk), or all of
    them at a second Ctrl-C, are killed: their units go on from their last periodic save.
    Returns (or raises) only once none of them runs, so that no worker writes in the directory
    after the driver has let it go.

    The cancel is sent again every few seconds while the grace lasts: Ray interrupts a task
    through Python's SIGINT handler, and a task that had only just started in a worker that
    inherited an ignored SIGINT (a cluster started in the background) has not yet installed
    that handler, so the first cancel does nothing there. A unit already saving is not cut
    short by the repeat: the solver's save runs outside Python's reach."""
    left = pending
    try:
        if grace_seconds > 0:
            left = _cancel_until_ended(left, False, grace_seconds, _ASK_AGAIN_SECONDS)
    finally:
        _kill(left)


def _kill(refs: List[Any], patience_seconds: float = 30.0) -> None:
    """Force-cancels ``refs`` and waits until they have ended. The cancel is asked for again
    every few seconds: a force-cancel sent while an earlier cancel of the same task is still on
    its way can be dropped."""
    left = _cancel_until_ended(refs, True, patience_seconds, _KILL_AGAIN_SECONDS)
    if left:
        print(
            f"perfectplay-cluster: {len(left)} units still run after being killed",
            file=sys.stderr,
        )


def _cancel_until_ended(
    refs: List[Any], force: bool, seconds: float, every_seconds: float
) -> List[Any]:
    """Cancels ``refs`` (with or without ``force``) every ``every_seconds`` until they have
    ended or ``seconds`` have passed; returns those still running."""
    deadline = time.monotonic() + seconds
    while refs:
        for ref in refs:
            ray.cancel(ref, force=force)
        remaining = max(deadline - time.monotonic(), 0.0)
        _, refs = ray.wait(refs, num_returns=len(refs), timeout=min(every_seconds, remaining))
        if time.monotonic() >= deadline:
            break
    return refs


def _report(
    units: List[Dict[str, Any]], results: Dict[int, Dict[str, Any]], seconds: float
) -> ClusterReport:
    tables: Dict[str, int] = {}
    per_node: Dict[str, Dict[str, Any]] = collections.defaultdict(
        lambda: {"units": 0, "solved": 0, "seconds": 0.0, "host": ""}
    )
    solved_units = [i for i, r in results.items() if r["solved_positions"] > 0]
    for i in sorted(results):
        r = results[i]
        tables.update(r["tables"])
        node = per_node[r["node"]]
        node["units"] += 1
        node["solved"] += r["solved_positions"]
        node["seconds"] += r["seconds"]
        node["host"] = r["host"]
    return ClusterReport(
        tables=tables,
        positions=sum(tables.values()),
        solved_positions=sum(r["solved_positions"] for r in results.values()),
        seconds=seconds,
        peak_working_bytes=max(
            (results[i]["peak_working_bytes"] for i in solved_units), default=0
        ),
        units_solved=len(solved_units),
        units_kept=len(results) - len(solved_units),
        nodes=[
            NodeFigures(node, f["host"], f["units"], f["solved"], f["seconds"])
            for node, f in sorted(per_node.items())
        ],
        units_resumed=sum(1 for r in results.values() if r.get("resumed")),
    )


class _sigterm_as_interrupt:
    """SIGTERM (how a batch system ends a job) raises ``KeyboardInterrupt`` while the build runs
    in the main thread, so that it stops as at Ctrl-C, letting the units save, and leaves the
    block as :class:`_Stopped`. A second SIGTERM is ignored, so that a supervisor that repeats
    its signal does not cut the units' saves short (Ctrl-C still does). Installed after
    ``ray.init``, which sets a handler of its own that ends the process."""

    def __enter__(self) -> None:
        self.previous: Any = None
        self.received = False
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGTERM, self._raise)

    def _raise(self, _signum: int, _frame: Any) -> None:
        if self.received:
            return
        self.received = True
        raise KeyboardInterrupt

    def __exit__(self, kind: Any, error: Any, _traceback: Any) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGTERM, self.previous)
        # Named here, once it is out: Ray's calls may raise a KeyboardInterrupt of their own for
        # the one raised in them.
        if self.received and isinstance(error, KeyboardInterrupt):
            raise _Stopped(signal.SIGTERM) from error


class _Stopped(KeyboardInterrupt):
    """A stop by a signal other than SIGINT, handled as Ctrl-C is. Its one argument is the
    signal's number, so that it pickles (a build run inside a Ray task or a process pool)."""

    def __init__(self, signum: int) -> None:
        super().__init__(int(signum))
        self.signum = int(signum)

    def __str__(self) -> str:
        return signal.Signals(self.signum).name


def main(argv: Optional[Sequence[str]] = None) -> int:
    """``perfectplay-cluster GAME --out DIR [--max-men N | --max-pieces N | --subspace KEY ...]``."""
    parser = argparse.ArgumentParser(
        prog="perfectplay-cluster",
        description="Build endgame tables on a Ray cluster, one task per unit of the plan.",
    )
    parser.add_argument("game", help="a game id (perfectplay games lists them)")
    parser.add_argument("--out", required=True, help="a directory every node mounts")
    parser.add_argument("--max-men", type=int, help="morris: subspaces up to N men a side")
    parser.add_argument("--max-pieces", type=int, help="checkers: slices of 2 to N pieces")
    parser.add_argument("--subspace", action="append", help="one subspace (repeatable)")
    parser.add_argument("--whole-game", action="store_true", help="placement included")
    parser.add_argument("--address", default="auto", help="Ray's address (default: auto)")
    parser.add_argument("--cpus-per-task", type=int, default=1)
    parser.add_argument("--wdl-only", action="store_true")
    parser.add_argument(
        "--unit-distances",
        action="store_true",
        help="with --wdl-only, also write each table's distances within its unit (KEY.ppud), "
        "which `perfectplay verify --unit-distances` proves the tables with",
    )
    parser.add_argument("--compress", action="store_true")
    parser.add_argument("--max-retries", type=int, default=3)
    parser.add_argument(
        "--checkpoint-every",
        type=float,
        default=30.0,
        metavar="MINUTES",
        help="save a unit's state after this many minutes of it, and as often again (default 30)",
    )
    parser.add_argument(
        "--no-checkpoints", action="store_true", help="save no unit checkpoints"
    )
    parser.add_argument(
        "--stop-grace",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="on Ctrl-C or SIGTERM, how long the running units have to save their state "
        "before they are killed (default 120)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE", help="a rule option"
    )
    args = parser.parse_args(argv)
    if args.unit_distances and not args.wdl_only:
        parser.error("--unit-distances goes with --wdl-only")
    rules = {}
    for setting in args.set:
        name, sep, value = setting.partition("=")
        if not sep:
            parser.error(f"--set takes NAME=VALUE, not {setting!r}")
        rules[name] = value
    try:
        report = build(
            args.game,
            args.out,
            max_men=args.max_men,
            max_pieces=args.max_pieces,
            subspaces=args.subspace,
            whole_game=args.whole_game,
            address=args.address,
            cpus_per_task=args.cpus_per_task,
            wdl_only=args.wdl_only,
            unit_distances=args.unit_distances,
            compress=args.compress,
            max_retries=args.max_retries,
            progress=not args.quiet,
            checkpoint_minutes=None if args.no_checkpoints else args.checkpoint_every,
            stop_grace_seconds=args.stop_grace,
            **rules,
        )
    except (ValueError, KeyError) as error:
        print(f"perfectplay-cluster: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as stop:
        signum = stop.signum if isinstance(stop, _Stopped) else signal.SIGINT
        print(
            f"perfectplay-cluster: stopped by {signal.Signals(signum).name}: complete tables "
            f"are kept and the units under way saved their state unless killed after "
            f"{args.stop_grace:g} s; the same command goes on from there",
            file=sys.stderr,
        )
        return 128 + signum
    print(report.summary())
    return 0


def _console_script() -> None:
    sys.exit(main())


if __name__ == "__main__":
    _console_script()
