"""Simulated build times of table sets on clusters of 16-core nodes, from measured unit times.

For checkers 2-7 and 2-8 pieces, Morabaraba and Lasker Morris (and Nine Men's Morris, whose 28
units are all measured, as a check) it takes the solver's plan (``_plan_units``: the units, the
units each reads, their positions and working memory), gives every unit a time, and
list-schedules the units, critical path first as ``perfectplay.cluster`` submits them, on 1, 4,
16 and 64 nodes of 16 cores. It prints, per build: units, positions, the time on the 2-core
reference machine alone, the total work (node-hours), the critical path, and the makespan on
each number of nodes against the lower bound max(work / N, critical path).

    python bench/cluster_simulation.py                 # about 10 s once the plans are cached
    python bench/cluster_simulation.py --checkers-log solve-6.log --nodes 2 8 32

The plans take 40 s to compute on the 2-core machine (Morabaraba 18 s, Lasker Morris 12 s,
Nine Men's Morris 7 s, checkers 8 pieces 3 s); they are cached in the temp directory, keyed by
the extension module's size and mtime (``--no-cache`` recomputes them).

The model (each figure a measurement of 2026-11-22..26 or a stated guess):

1. A unit's time on the reference machine (2 cores, 2 threads), ``t2``:
   - measured where we have it: checkers 2-6 pieces from the output of
     ``perfectplay solve checkers --max-pieces 6 --out DIR`` without ``-q`` (a line per table,
     the unit's wall time in its last column, repeated for each table of the unit, 0.01 s
     resolution; a unit printed as 0.00 s counts 0.0025 s; the default log is the build of
     2026-11-26 00:53 at 44d053f, 1,295 s, whose unit times sum to its wall time; it ran at
     nice 19 beside other work, 117% CPU, so its times are upper bounds); Nine Men's Morris
     from the per-unit table of the clean run of 2026-11-25 in BENCHMARKS.md (embedded below;
     seconds taken as positions / the table's rate, which has more digits than its seconds);
   - otherwise positions / r2(size), r2 a rate curve in the unit's size fitted to the measured
     units of the same family: their aggregate rate (positions / seconds) in half-decade bins of
     unit size (a bin with under a second of time merged into the next), interpolated linearly
     in log(size); flat below the smallest bin; from the largest measured unit on, flat at the
     aggregate rate of the largest measured units (those at least half its size). Checkers: the
     1,982 units of 2-6 pieces, about 2 M positions/s from 1e5 to 2e7 positions and 1.70 M/s
     for the largest (17-34 M). Morris: the 28 Nine Men's Morris units; their rate flattens
     around 1.5-1.7 M/s for units of 0.4-1 G positions (1.56 M/s for the largest); the 30-100 M
     bin (1.35 M/s) is slow because of the flying 3-x units. Morabaraba = that curve / 1.31
     (1.31x Nine Men's Morris's cost per position, measured on 3-3..5-5 at 16 threads: 3.86 vs
     2.95 s); Lasker Morris = the same curve / 1.31, a guess (in its subspaces with men in hand
     a side both places and moves; none of it has been built).
   - Extrapolation: the largest checkers 8-piece unit (3.0 G positions) is 90x the largest
     measured checkers unit (34 M); the model holds the rate flat there. If it keeps falling as
     the units outgrow the caches (Nine Men's Morris fell from 3-7 M/s at 30-150 M positions to
     1.5 M/s past 0.5 G), checkers 8 pieces and its critical path take longer than shown.
2. A 16-core node runs a unit in one of two ways:
   - on all 16 cores ("whole"), in t2 / 4.3: the morris builds ran 4.2-4.8x faster on the
     16-core machine at 16 threads than here at 2 (3-3..5-5 12.98 vs 2.95 s, 3-3..6-6 ~112 vs
     26.6 s, the 6-6 unit alone 48 vs 10.1 s); checkers units under 5 M positions in t2 / 3.1
     (the checkers 2-5 build, all of whose units are under 4.1 M positions, 75 vs 23.9 s);
   - in one of 8 2-core slots side by side ("slots"), in t2 / 0.74 each (one thread there ran
     at 0.74x one thread here: 1.87 vs 2.54 M positions/s). This assumes that 8 units side by
     side do not slow each other down. They share the node's memory bandwidth, which already
     limits one large unit on 16 threads (6.2x over 2 threads there), so the slot figures are
     optimistic, by up to about 1.3x where slot throughput sets the time. Memory: 8 slots of
     the largest checkers 8-piece units would want 8 x 13.8 GB of the node's 128 GB
     (``perfectplay.cluster`` reserves each unit's working memory with Ray, which would run
     fewer side by side).
   Slots do more work per node-hour (8 x 0.74 = 5.9 against 4.3 or 3.1); a whole node finishes
   one unit 5.8x sooner. A unit of at least a threshold of positions runs whole, a smaller one
   in a slot; the thresholds 0 (every unit whole), 3e7, 1e8, 3e8, 1e9 and infinity (every unit
   in a slot) are each simulated, and the makespan table gives the best of them for each build
   and number of nodes, naming it.
3. Scheduling: units in the order ``perfectplay.cluster`` submits them (a unit after those it
   reads; among ready units the one heading the heaviest remaining chain of positions first),
   each started as soon as its inputs are done and room is free (list scheduling, smaller units
   filling in behind). A ready whole-node unit that finds no free node holds the node that
   drains first: no new slot units start there until it runs. Not modelled: task start-up,
   reading the exit tables from shared storage and writing the tables to it (checkers 2-8 pieces
   writes 440 GB, 110 GB WDL-only), and failures. ``perfectplay.cluster`` asks the same
   ``cpus_per_task`` for every unit today: a per-unit choice would be a small change there.
4. Figures. Work: node-hours, in slots (t2 / (0.74 x 8) of a node per unit, the cheapest way)
   and on whole nodes; work in slots / N bounds the makespan from below. Critical path: the
   longest chain of units (by ``reads``) at each unit's fastest time (whole node). The ratio
   after each makespan is makespan / max(work in slots / N, critical path).
"""

from __future__ import annotations

import argparse
import bisect
import hashlib
import heapq
import json
import math
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from perfectplay.schedule import critical_path_order

#: Nine Men's Morris, all 28 units, 2 threads on the reference machine (BENCHMARKS.md, "all 28
#: units in one clean run (2026-11-25)"): unit, positions, seconds, positions/s.
NMM_UNITS: List[Tuple[str, int, int, float]] = [
    ("3-3", 169_626, 0, 0.58e6),
    ("3-4 + 4-3", 1_520_796, 1, 2.67e6),
    ("3-5 + 5-3", 5_160_780, 2, 2.57e6),
    ("3-6 + 6-3", 13_750_640, 6, 2.13e6),
    ("3-7 + 7-3", 29_451_376, 24, 1.25e6),
    ("3-8 + 8-3", 51_527_672, 47, 1.10e6),
    ("3-9 + 9-3", 74_418_456, 73, 1.02e6),
    ("4-4", 3_225_597, 0, 9.77e6),
    ("4-5 + 5-4", 20_620_992, 2, 8.42e6),
    ("4-6 + 6-4", 51_531_584, 12, 4.36e6),
    ("4-7 + 7-4", 103_033_056, 44, 2.36e6),
    ("4-8 + 8-4", 167_411_596, 84, 1.99e6),
    ("4-9 + 9-4", 223_195_224, 115, 1.94e6),
    ("5-5", 30_914_424, 4, 7.06e6),
    ("5-6 + 6-5", 144_232_144, 37, 3.92e6),
    ("5-7 + 7-5", 267_821_792, 162, 1.66e6),
    ("5-8 + 8-5", 401_705_976, 225, 1.78e6),
    ("5-9 + 9-5", 490_958_496, 292, 1.68e6),
    ("6-6", 156_229_360, 48, 3.28e6),
    ("6-7 + 7-6", 535_586_576, 262, 2.04e6),
    ("6-8 + 8-6", 736_411_032, 453, 1.63e6),
    ("6-9 + 9-6", 818_213_480, 548, 1.49e6),
    ("7-7", 420_793_096, 220, 1.91e6),
    ("7-8 + 8-7", 1_051_958_800, 666, 1.58e6),
    ("7-9 + 9-7", 1_051_958_800, 728, 1.45e6),
    ("8-8", 591_726_690, 382, 1.55e6),
    ("8-9 + 9-8", 1_051_958_800, 716, 1.47e6),
    ("9-9", 409_106_740, 269, 1.52e6),
]

#: The builds: label, game id, ``_plan_units`` keywords, family of the rate curve, cost factor
#: against that curve (time multiplier).
BUILDS = [
    ("Nine Men's Morris (moving, 3..9 men)", "nine_mens_morris", {"max_men": 9}, "morris", 1.0),
    ("checkers 2-7 pieces", "checkers", {"max_pieces": 7}, "checkers", 1.0),
    ("checkers 2-8 pieces", "checkers", {"max_pieces": 8}, "checkers", 1.0),
    ("Morabaraba (moving, 3..12 men)", "morabaraba", {"max_men": 12}, "morris", 1.31),
    ("Lasker Morris (whole game)", "lasker_morris", {"whole_game": True}, "morris", 1.31),
]

DEFAULT_CHECKERS_LOG = "/work/data/checkers.log"

#: Checkers units below this size get ``--small-checkers-speedup`` on a whole node: the 2-5
#: piece build, whose units are all under 4.1 M positions, ran only 3.1x faster there.
SMALL_CHECKERS_UNIT = 5_000_000


class RateCurve:
    """Positions per second as a function of unit size, fitted to measured (positions, seconds)."""

    def __init__(self, measured: Sequence[Tuple[int, float]]):
        bins: Dict[int, List[float]] = {}
        for positions, seconds in measured:
            b = math.floor(2 * math.log10(max(positions, 1)))
            acc = bins.setdefault(b, [0.0, 0.0, 0])
            acc[0] += positions
            acc[1] += seconds
            acc[2] += 1
        points: List[Tuple[float, float]] = []
        carry = [0.0, 0.0, 0]
        for b in sorted(bins):  # merge a bin into the next until it holds a second of time
            carry = [carry[i] + bins[b][i] for i in range(3)]
            if carry[1] >= 1.0:
                points.append((math.log10(carry[0] / carry[2]), carry[0] / carry[1]))
                carry = [0.0, 0.0, 0]
        largest = max(p for p, _ in measured)
        top = [(p, s) for p, s in measured if p >= largest / 2]
        self.top_rate = sum(p for p, _ in top) / sum(s for _, s in top)
        self.largest = largest
        points = [pt for pt in points if pt[0] < math.log10(largest)]
        points.append((math.log10(largest), self.top_rate))
        self.points = points

    def rate(self, positions: int) -> float:
        x = math.log10(max(positions, 1))
        xs = [p[0] for p in self.points]
        if x <= xs[0]:
            return self.points[0][1]
        if x >= xs[-1]:
            return self.top_rate
        i = bisect.bisect_right(xs, x)
        (x0, r0), (x1, r1) = self.points[i - 1], self.points[i]
        return r0 + (r1 - r0) * (x - x0) / (x1 - x0)


def parse_checkers_logs(paths: Sequence[str]) -> Dict[str, float]:
    """Seconds of each table's unit, by subspace name, from ``perfectplay solve`` outputs."""
    seconds: Dict[str, float] = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                fields = line.split()
                if len(fields) == 7 and fields[1].isdigit():
                    try:
                        seconds[fields[0]] = float(fields[6])
                    except ValueError:
                        continue
    return seconds


def load_plans(use_cache: bool) -> Dict[str, Tuple[List[dict], float]]:
    """Each build's plan and the seconds it took to compute (cached under the temp directory,
    keyed by the extension module's size and mtime)."""
    import perfectplay._core as core

    so = Path(core.__file__)
    key = hashlib.sha256(
        f"{so.resolve()}:{so.stat().st_size}:{so.stat().st_mtime_ns}:{BUILDS!r}".encode()
    ).hexdigest()[:16]
    cache = Path(tempfile.gettempdir()) / f"perfectplay-cluster-plans-{key}.json"
    if use_cache and cache.exists():
        return json.loads(cache.read_text())
    plans = {}
    for label, game, kwargs, _, _ in BUILDS:
        started = time.perf_counter()
        units = list(core._plan_units(core.load_game(game), **kwargs))
        plans[label] = (units, time.perf_counter() - started)
    if use_cache:
        cache.write_text(json.dumps(plans))
    return plans


def submission_order(units: List[dict]) -> List[int]:
    """The order ``perfectplay.cluster`` submits units in (``perfectplay.schedule``)."""
    return critical_path_order(units)


def critical_path(units: List[dict], times: List[float]) -> Tuple[float, List[int]]:
    """The longest chain by ``times``: its length and its units, first to last."""
    finish = [0.0] * len(units)
    before = [-1] * len(units)
    for i, unit in enumerate(units):  # the plan lists each unit after those it reads
        start = 0.0
        for j in unit["reads"]:
            if finish[j] > start:
                start, before[i] = finish[j], j
        finish[i] = start + times[i]
    end = max(range(len(units)), key=finish.__getitem__)
    chain = [end]
    while before[chain[-1]] >= 0:
        chain.append(before[chain[-1]])
    return finish[end], chain[::-1]


def simulate(
    units: List[dict],
    duration: List[float],
    whole: List[bool],
    rank: List[int],
    nodes: int,
    slots: int,
) -> float:
    """Makespan of list scheduling on ``nodes`` nodes of ``slots`` slots: ``whole`` units take
    a whole node, the others one slot; ready units start in ``rank`` order, smaller units fill
    in behind a waiting whole-node unit except on the node it holds."""
    waiting_on: List[List[int]] = [[] for _ in units]
    missing = [0] * len(units)
    for i, unit in enumerate(units):
        reads = set(unit["reads"])
        missing[i] = len(reads)
        for j in reads:
            waiting_on[j].append(i)
    free = [slots] * nodes
    drain = [0.0] * nodes  # when the last task running on a node ends
    held_by = [-1] * nodes  # the whole-node unit waiting for it
    holds: Dict[int, int] = {}
    ready_small: List[int] = []  # ranks, sorted
    ready_whole: List[int] = []
    unit_of_rank = {r: i for i, r in enumerate(rank)}
    running: List[Tuple[float, int, int, int]] = []  # (end, unit, node, slots)
    now = 0.0
    done = 0

    def make_ready(i: int) -> None:
        bisect.insort(ready_whole if whole[i] else ready_small, rank[i])

    def start(i: int, node: int, used: int) -> None:
        free[node] -= used
        end = now + duration[i]
        drain[node] = max(drain[node], end)
        heapq.heappush(running, (end, i, node, used))

    for i in range(len(units)):
        if missing[i] == 0:
            make_ready(i)
    while done < len(units):
        # Whole-node units whose held node has drained.
        for node in range(nodes):
            i = held_by[node]
            if i >= 0 and free[node] == slots:
                held_by[node] = -1
                del holds[i]
                ready_whole.remove(rank[i])
                start(i, node, slots)
        # The ready units in rank order, while anything can start or hold a node.
        open_nodes = [n for n in range(nodes) if held_by[n] < 0]
        free_slots = sum(free[n] for n in open_nodes)
        a = b = 0
        started_small: List[int] = []
        started_whole: List[int] = []
        while True:
            can_small = free_slots > 0 and a < len(ready_small)
            can_whole = bool(open_nodes) and b < len(ready_whole)
            if not (can_small or can_whole):
                break
            if can_whole and (not can_small or ready_whole[b] < ready_small[a]):
                i = unit_of_rank[ready_whole[b]]
                b += 1
                if i in holds:
                    continue
                empty = [n for n in open_nodes if free[n] == slots]
                if empty:
                    start(i, empty[0], slots)
                    started_whole.append(rank[i])
                    free_slots -= slots
                else:
                    node = min(open_nodes, key=lambda n: (drain[n], -free[n]))
                    held_by[node], holds[i] = i, node
                    free_slots -= free[node]
                open_nodes.remove(empty[0] if empty else node)
            else:
                i = unit_of_rank[ready_small[a]]
                a += 1
                # Best fit: the open node with the fewest free slots, to keep whole nodes free.
                node = min((n for n in open_nodes if free[n] > 0), key=lambda n: free[n])
                start(i, node, 1)
                started_small.append(rank[i])
                free_slots -= 1
        for r in started_small:
            del ready_small[bisect.bisect_left(ready_small, r)]
        for r in started_whole:
            del ready_whole[bisect.bisect_left(ready_whole, r)]
        # The next task to end, and any others ending at the same time.
        now = running[0][0]
        while running and running[0][0] <= now:
            _, i, node, used = heapq.heappop(running)
            free[node] += used
            done += 1
            for k in waiting_on[i]:
                missing[k] -= 1
                if missing[k] == 0:
                    make_ready(k)
    return now


def threshold_name(threshold: float) -> str:
    if threshold == 0:
        return "all whole"
    if threshold == math.inf:
        return "all slots"
    return f"{threshold:.0e}".replace("e+0", "e")


def hours(seconds: float) -> str:
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="The model and its assumptions are in the module's docstring.",
    )
    parser.add_argument(
        "--checkers-log",
        action="append",
        help="output of `perfectplay solve checkers --max-pieces 6 --out DIR` without -q "
        f"(repeatable; later logs override; default {DEFAULT_CHECKERS_LOG})",
    )
    parser.add_argument("--nodes", type=int, nargs="+", default=[1, 4, 16, 64])
    parser.add_argument("--node-speedup", type=float, default=4.3,
                        help="a 16-core node on one unit, against 2 threads here (4.3)")
    parser.add_argument("--slot-speed", type=float, default=0.74,
                        help="a 2-core slot of the node, against 2 threads here (0.74)")
    parser.add_argument("--slots", type=int, default=8, help="2-core slots a node (8)")
    parser.add_argument("--no-cache", action="store_true", help="recompute the plans")
    parser.add_argument(
        "--thresholds",
        type=float,
        nargs="+",
        default=[0, 3e7, 1e8, 3e8, 1e9, math.inf],
        help="sizes (positions) from which a unit runs on a whole node, tried in turn "
        "(0: every unit; inf: none); default 0 3e7 1e8 3e8 1e9 inf",
    )
    parser.add_argument("--small-checkers-speedup", type=float, default=3.1,
                        help="a 16-core node on one checkers unit under 5e6 positions (3.1)")
    args = parser.parse_args(argv)

    logs = args.checkers_log or [DEFAULT_CHECKERS_LOG]
    logs = [p for p in logs if os.path.exists(p)]
    if not logs:
        print("no checkers log found: checkers units are all estimated", file=sys.stderr)
    checkers_seconds = parse_checkers_logs(logs)

    started = time.perf_counter()
    plans = load_plans(not args.no_cache)
    plan_seconds = time.perf_counter() - started

    # Measured units and the curves.
    nmm_by_name = {
        tuple(name.split(" + ")): positions / rate for name, positions, _, rate in NMM_UNITS
    }
    checkers_measured: Dict[Tuple[str, ...], float] = {}
    for unit in plans["checkers 2-8 pieces"][0]:
        names = tuple(unit["subspaces"])
        secs = {checkers_seconds[s] for s in names if s in checkers_seconds}
        if len(secs) == 1 and all(s in checkers_seconds for s in names):
            checkers_measured[names] = max(secs.pop(), 0.0025)
    positions_of = {tuple(u["subspaces"]): u["positions"] for u in plans["checkers 2-8 pieces"][0]}
    curves = {
        "morris": RateCurve([(p, p / r) for _, p, _, r in NMM_UNITS]),
        "checkers": RateCurve([(positions_of[k], s) for k, s in checkers_measured.items()])
        if checkers_measured
        else None,
    }
    if curves["checkers"] is None:  # no log: the 2-6 rate of BENCHMARKS.md, flat
        curves["checkers"] = RateCurve([(2_571_945_320, 2_571_945_320 / 1.77e6)])

    print(f"plans: {plan_seconds:.1f} s (cached under {tempfile.gettempdir()} unless --no-cache)")
    for label, (units, secs) in plans.items():
        print(f"  {label}: {len(units)} units, computed in {secs:.1f} s")
    print(f"checkers units measured: {len(checkers_measured)} (from {', '.join(logs) or '-'})")
    for family, curve in curves.items():
        pts = ", ".join(f"{10 ** x / 1e6:.3g} M: {r / 1e6:.2f}" for x, r in curve.points)
        print(f"rate curve, {family} (unit size: M positions/s at 2 threads here): {pts}; "
              f"flat beyond {curve.largest / 1e6:.3g} M")
    print()

    builds_table = []
    makespan_table = []
    threshold_table = []
    for label, game, _, family, factor in BUILDS:
        units = plans[label][0]
        t2 = []
        measured = 0
        for unit in units:
            names = tuple(unit["subspaces"])
            known = nmm_by_name.get(names) if game == "nine_mens_morris" else (
                checkers_measured.get(names) if game == "checkers" else None
            )
            if known is not None:
                t2.append(known)
                measured += 1
            else:
                t2.append(factor * unit["positions"] / curves[family].rate(unit["positions"]))
        speedup = [
            args.small_checkers_speedup
            if game == "checkers" and unit["positions"] < SMALL_CHECKERS_UNIT
            else args.node_speedup
            for unit in units
        ]
        fastest = [t / s for t, s in zip(t2, speedup)]
        work = sum(t2) / (args.slot_speed * args.slots)  # node-seconds, the cheapest way
        work_whole = sum(fastest)  # node-seconds, every unit on a whole node
        cp, chain = critical_path(units, fastest)
        big = max(range(len(units)), key=lambda i: units[i]["positions"])
        rank = [0] * len(units)
        for r, i in enumerate(submission_order(units)):
            rank[i] = r

        def makespan(threshold: float, nodes: int) -> float:
            whole = [u["positions"] >= threshold for u in units]
            duration = [f if w else t / args.slot_speed for t, f, w in zip(t2, fastest, whole)]
            return simulate(units, duration, whole, rank, nodes, args.slots)

        grid = [[makespan(th, n) for n in args.nodes] for th in args.thresholds]
        cells = []
        for k, n in enumerate(args.nodes):
            best = min(range(len(args.thresholds)), key=lambda j: grid[j][k])
            m = grid[best][k]
            bound = max(work / n, cp)
            name = threshold_name(args.thresholds[best])
            cells.append(f"{hours(m)} ({m / bound:.2f}x; {name})")
        positions = sum(u["positions"] for u in units)
        longest = max(chain, key=fastest.__getitem__)
        builds_table.append(
            f"| {label} | {len(units):,} ({measured:,}) | {positions:,} | "
            f"{units[big]['positions']:,} ({units[big]['working_bytes'] / 1e9:.1f} GB) | "
            f"{hours(sum(t2))} | {work / 3600:.1f} / {work_whole / 3600:.1f} | "
            f"{hours(cp)}: {len(chain)} units, the longest "
            f"{' + '.join(units[longest]['subspaces'])} {fastest[longest] / cp:.0%} | "
            f"{hours(fastest[big])} |"
        )
        makespan_table.append(f"| {label} | " + " | ".join(cells) + " |")
        threshold_table.append(
            f"| {label} | " + " | ".join(" / ".join(hours(m) for m in row) for row in grid) + " |"
        )

    print("| build | units (measured) | positions | largest unit (working memory) | this machine, "
          "2 threads | work, node-h: slots / whole nodes | critical path (fastest times) | "
          "largest unit on 16 cores |")
    print("|---|---:|---:|---:|---:|---:|---|---:|")
    print("\n".join(builds_table))
    print()
    print("Makespan on N nodes of 16 cores (against max(work in slots / N, critical path); the "
          "best threshold of those tried):")
    print()
    print("| build | " + " | ".join(f"{n} node{'s' if n > 1 else ''}" for n in args.nodes) + " |")
    print("|---|" + "---:|" * len(args.nodes))
    print("\n".join(makespan_table))
    print()
    print("Makespan by threshold (units of at least this many positions on a whole node, the "
          f"others in 2-core slots), on {' / '.join(map(str, args.nodes))} nodes:")
    print()
    print("| build | " + " | ".join(threshold_name(th) for th in args.thresholds) + " |")
    print("|---|" + "---|" * len(args.thresholds))
    print("\n".join(threshold_table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
