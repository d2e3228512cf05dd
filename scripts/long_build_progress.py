#!/usr/bin/env python3
"""Where a `scripts/long_build.sh` build stands: units built and verified, indices, rates.

    scripts/long_build_progress.py DIR [--table] [--total INDICES]

Reads DIR/marks (the marks and logs the driver writes). `--table` prints a Markdown row per
unit (as BENCHMARKS.md records them); `--total` (the indices of the whole request: the sum of
`positions` over `perfectplay.cluster.plan(game, max_men=N)`, 100.8e9 for Twelve Men's Morris)
adds the share done and the time left at the rate so far. Needs nothing beyond the standard library.
"""

from __future__ import annotations

import argparse
import re
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import List, NamedTuple, Optional

SOLVED = re.compile(r"solved (\d+) in ")
UNIT = re.compile(r"^built-(\d+)-(\d+)$")


class Unit(NamedTuple):
    a: int
    b: int
    indices: int
    build_s: int
    verify_s: int
    tables: int
    verified: int
    verified_at: Optional[float]


def unit_tables(log: str) -> List[str]:
    """The unit's tables, as its build log names them (kept tables of earlier units left out)."""
    keys = []
    for line in log.splitlines():
        cols = line.split()
        if len(cols) == 7 and cols[-1] != "kept" and re.match(r"^\d+-\d+(-b\w+)?$", cols[0]):
            keys.append(cols[0])
    return keys


def read_units(marks: Path) -> List[Unit]:
    units = []
    for mark in marks.glob("built-*"):
        m = UNIT.match(mark.name)
        if not m:
            continue
        a, b = int(m.group(1)), int(m.group(2))
        log = (marks / f"build-{a}-{b}.log").read_text()
        solved = SOLVED.search(log)
        keys = unit_tables(log)
        verified = [marks / f"verified-{k}" for k in keys if (marks / f"verified-{k}").exists()]
        units.append(
            Unit(
                a=a,
                b=b,
                indices=int(solved.group(1)) if solved else 0,
                build_s=int(mark.read_text().strip() or 0),
                verify_s=sum(int(v.read_text().strip() or 0) for v in verified),
                tables=len(keys),
                verified=len(verified),
                verified_at=max((v.stat().st_mtime for v in verified), default=None),
            )
        )
    return sorted(units)


def utc(t: Optional[float]) -> str:
    if t is None:
        return "-"
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%d %H:%M")


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--table", action="store_true", help="a Markdown row per unit")
    parser.add_argument("--total", type=float, help="indices of the whole request")
    args = parser.parse_args(argv)
    marks = args.dir / "marks"
    if not marks.is_dir():
        print(f"{marks} does not exist: no build started there", file=sys.stderr)
        return 1
    units = read_units(marks)
    if args.table:
        print("| unit | subspaces | indices | build (s) | verify (s) | verified at (UTC) |")
        print("|---:|---|---:|---:|---:|---|")
        for n, u in enumerate(units, 1):
            at = utc(u.verified_at) if u.verified == u.tables else f"{u.verified} of {u.tables}"
            print(
                f"| {n} | `{u.a}-{u.b}` and {u.tables - 1} more | {u.indices:,} "
                f"| {u.build_s} | {u.verify_s} | {at} |"
            )
    done = [u for u in units if u.verified == u.tables]
    indices = sum(u.indices for u in done)
    build_s = sum(u.build_s for u in done)
    verify_s = sum(u.verify_s for u in done)
    print(f"{len(done)} units built and verified: {indices:,} indices")
    if build_s and verify_s:
        both = indices / (build_s + verify_s)
        print(
            f"  {build_s:,} s building ({indices / build_s / 1e6:.2f} M/s), "
            f"{verify_s:,} s verifying ({indices / verify_s / 1e6:.2f} M/s), "
            f"{both / 1e6:.2f} M/s together"
        )
        if args.total:
            left = args.total - indices
            print(
                f"  {indices / args.total:.1%} of {args.total:,.0f}; "
                f"{left / both / 3600:.1f} h left at that rate"
            )
    events = marks / "events.log"
    if events.exists():
        lines = events.read_text().splitlines()
        if lines:
            print(f"  last event: {lines[-1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
