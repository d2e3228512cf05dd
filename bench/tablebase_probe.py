"""Probes per second of `perfectplay.tablebase` from Python.

Draws positions uniformly from each subspace of a table directory (the same number from each),
encodes them once, shuffles them, and times `Tablebase.probe_batch` on the encoded rows (the
GIL released, rayon on every core unless RAYON_NUM_THREADS says otherwise; after one untimed
pass, so the tables' pages are mapped) and, for smaller samples drawn afresh for each run,
`Tablebase.probe` one state at a time. Each figure is the best of several runs.

    python bench/tablebase_probe.py solver-data/nine_mens_morris
    RAYON_NUM_THREADS=1 python bench/tablebase_probe.py solver-data/checkers --count 2000000
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import perfectplay as pp


def best_seconds(run, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", help="a directory of tables (perfectplay solve --out)")
    parser.add_argument("--count", type=int, default=1_000_000, help="positions probed in a batch")
    parser.add_argument("--single", type=int, default=20_000, help="positions probed one by one")
    parser.add_argument("--subspaces", nargs="*", help="subspaces to draw from (default: all)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    with pp.tablebase.open(args.directory) as tb:
        keys = args.subspaces or tb.subspaces()
        per_key = max(1, args.count // len(keys))
        started = time.perf_counter()
        parts = []
        usable = []
        for i, key in enumerate(keys):
            try:
                parts.append(tb.encode(tb.sample_states(key, per_key, seed=args.seed + i)))
                usable.append(key)
            except ValueError:
                # Every position of the subspace is over (a checkers man with no move, say):
                # there is nothing to probe in it.
                continue
        keys = usable
        rows = np.concatenate(parts)
        rng = np.random.default_rng(args.seed)
        rows = rows[rng.permutation(len(rows))]
        print(
            f"{tb.game.id}: {len(rows):,} positions from {len(keys)} subspaces "
            f"(drawn and encoded in {time.perf_counter() - started:.1f} s)"
        )
        # One untimed pass reads every page the sample touches into the page cache.
        tb.probe_batch(rows)
        seconds = best_seconds(lambda: tb.probe_batch(rows), args.repeats)
        threads = os.environ.get("RAYON_NUM_THREADS", str(os.cpu_count()))
        print(
            f"probe_batch ({threads} threads): {len(rows) / seconds / 1e6:.2f} M probes/s "
            f"({seconds * 1e3:.0f} ms for {len(rows):,})"
        )

        # A new sample for each run, so that no run finds its entries in the cache.
        per_key = max(1, args.single // len(keys))
        best = float("inf")
        for run in range(args.repeats):
            states = [
                state
                for i, key in enumerate(keys)
                for state in tb.sample_states(key, per_key, seed=10_000 * (run + 1) + args.seed + i)
            ]
            best = min(best, best_seconds(lambda: [tb.probe(s) for s in states], 1))
        print(
            f"probe, one state at a time in a Python loop: "
            f"{len(states) / best / 1e3:.0f} k probes/s ({len(states):,} states a run)"
        )


if __name__ == "__main__":
    main()
