#!/usr/bin/env python3
"""Where a `scripts/long_build.sh` build stands: units built and verified, indices, rates.

    scripts/long_build_progress.py DIR [--table] [--total INDICES [--recent N]]
    scripts/long_build_progress.py DIR --checksums [--keep OLD.sha256] > NEW.sha256
    perfectplay info --db DIR | scripts/long_build_progress.py DIR --results -
    perfectplay info --db DIR | scripts/long_build_progress.py DIR --statistics - > STATISTICS.tsv

Reads DIR/marks (the marks and logs the driver writes). `--table` prints a Markdown row per
unit (as BENCHMARKS.md records them; with the longest distance within the unit where the driver
recorded it, `-` otherwise, `none` where no position of the unit is won or lost within it);
`--total` (the indices of the whole request: the sum of `positions` over
`perfectplay.cluster.plan(game, max_men=N)`, 100.8e9 for Twelve Men's Morris) adds the share
done and the time left at the rate so far, or at the rate of the last N units with `--recent N`
(the units grow, and the larger ones run more slowly an index). A table found byte for byte one
an earlier build proved (PROVEN=, `proven-KEY`) counts as verified, with no seconds of
verifying. `--checksums` prints only the manifest of the tables verified so far (`SHA-256
KEY.ppdb`, as `info --write-checksums` writes it, sorted by name), from the digests the driver
records: what `solver-data/twelve_mens_morris/CHECKSUMS` holds (`CHECKSUMS.partial` while the
set was not whole) and `EXPECT=` takes. `--results FILE` (`-`: standard input) reads what
`perfectplay info --db DIR` prints and sums the verified tables' counts by men on the board
(`A-B`: A men to move against B, the table and its memory subspaces together) as a Markdown
table; its positions are the indices that hold one (a memory subspace's index leaves holes),
and its longest win and loss are counted within the unit (plies to the end of the game or to a
capture, as the driver records them from the unit distances: `-` for tables built before it
did). `--statistics FILE` reads the same output and prints a tab-separated line per verified
table instead (`table indices positions wins draws losses longest_win longest_loss`, by men,
then name; the longest fields empty where not recorded, -1 where a table has none): what
solver-data/twelve_mens_morris/STATISTICS.tsv holds. `--keep FILE` with `--checksums` (FILE a
manifest), `--statistics` or `--results` (FILE a statistics file) keeps an earlier build's
lines for the tables not verified here, so that a build begun again on a new disk carries the
committed files on rather than shrinking them; a table both have must agree (digest; counts,
and the longest win and loss where both record them), or it is an error, and the longest this
build records fills in those the earlier one lacked. Needs nothing beyond the standard library.
"""

from __future__ import annotations

import argparse
import re
import sys
from datetime import datetime, timezone
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Tuple

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
    # Of those, the tables found byte for byte ones an earlier build proved (PROVEN=).
    proven: int
    verified_at: Optional[float]
    longest: Optional[int]


def unit_tables(log: str, a: int, b: int) -> Dict[str, int]:
    """The tables of unit A-B with their positions, as its build log names them: solved, or kept
    (a run stopped or killed after writing them finds them kept next time), the tables of
    other units it read left out."""
    tables: Dict[str, int] = {}
    for line in log.splitlines():
        cols = line.split()
        if len(cols) != 7:
            continue
        m = re.match(r"^(\d+)-(\d+)(-b\w+)?$", cols[0])
        if m and {int(m.group(1)), int(m.group(2))} == {a, b} and cols[1].isdigit():
            tables.setdefault(cols[0], int(cols[1]))
    return tables


def last_build(log: str) -> str:
    """The output of the log's last run that solved the unit (the driver appends each run under
    a `== ` line): a run stopped or killed after the unit's tables were written finds them kept
    next time and solves nothing, and that run's report names no table of the unit."""
    runs = re.split(r"^== .*$", log, flags=re.M)
    for run in reversed(runs):
        solved = SOLVED.search(run)
        if solved and int(solved.group(1)) > 0:
            return run
    return runs[-1]


def verified_keys(marks: Path) -> List[str]:
    """The tables whose verification ended well (`verified-KEY.stopped` is one cut short), and
    those found byte for byte tables proven by an earlier build (`proven-KEY`, PROVEN=)."""
    keys = set()
    for prefix in ("verified-", "proven-"):
        names = (v.name for v in marks.glob(prefix + "*") if not v.name.endswith(".stopped"))
        keys.update(name[len(prefix) :] for name in names if not name.endswith(".tmp"))
    return sorted(keys)


def read_longest(mark: Path) -> Optional[int]:
    """The longest distance within a unit (plies), where the driver recorded it."""
    try:
        return int(mark.read_text().strip())
    except (OSError, ValueError):
        return None


def read_units(marks: Path) -> List[Unit]:
    units = []
    for mark in marks.glob("built-*"):
        m = UNIT.match(mark.name)
        if not m:
            continue
        a, b = int(m.group(1)), int(m.group(2))
        log = last_build((marks / f"build-{a}-{b}.log").read_text())
        tables = unit_tables(log, a, b)
        keys = sorted(tables)
        verified = [marks / f"verified-{k}" for k in keys if (marks / f"verified-{k}").exists()]
        # A table verified here is not counted proven, whatever mark an earlier run left.
        proven = [
            marks / f"proven-{k}"
            for k in keys
            if (marks / f"proven-{k}").exists() and not (marks / f"verified-{k}").exists()
        ]
        units.append(
            Unit(
                a=a,
                b=b,
                indices=sum(tables.values()),
                build_s=int(mark.read_text().strip() or 0),
                verify_s=sum(int(v.read_text().strip() or 0) for v in verified),
                tables=len(keys),
                verified=len({p.name.split("-", 1)[1] for p in verified + proven}),
                proven=len(proven),
                verified_at=max((v.stat().st_mtime for v in verified + proven), default=None),
                longest=read_longest(marks / f"longest-{a}-{b}"),
            )
        )
    return sorted(units)


def verified_digests(marks: Path) -> Tuple[List[str], List[str]]:
    """`SHA-256  KEY.ppdb` for every verified table whose digest the driver recorded, by name,
    and the verified tables without one.

    Directories begun before the driver recorded every digest hold `expected-KEY` (the digest,
    compared with EXPECT) for the tables an earlier manifest listed; the driver fills in the
    rest when it next runs."""
    lines, missing = {}, []
    for key in verified_keys(marks):
        for name in (f"sha256-{key}", f"expected-{key}"):
            digest = marks / name
            text = digest.read_text().strip() if digest.exists() else ""
            if re.fullmatch(r"[0-9a-f]{64}", text):
                lines[f"{key}.ppdb"] = text
                break
        else:
            missing.append(key)
    return [f"{lines[name]}  {name}" for name in sorted(lines)], missing


INFO_ROW = re.compile(r"^\s*(\d+)-(\d+)(-b\w+)?\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s")


def read_distances(marks: Path, key: str) -> Optional[Tuple[int, int]]:
    """A table's longest win and loss within its unit (plies, -1 for none), where the driver
    recorded them (`distances-KEY`)."""
    try:
        win, loss = (int(f) for f in (marks / f"distances-{key}").read_text().split())
    except (OSError, ValueError):
        return None
    return win, loss


def longest_cell(plies: List[int], tables: int) -> str:
    """A row's longest win or loss: `-` where no table of the row has it recorded, and a note
    of how many do where only some have."""
    if not plies:
        return "-"
    best = "none" if max(plies) < 0 else str(max(plies))
    return best if len(plies) == tables else f"{best} ({len(plies)} of {tables} tables)"


class TableCounts(NamedTuple):
    key: str
    men: Tuple[int, int]
    indices: int
    wins: int
    draws: int
    losses: int
    # The longest win and loss within the unit (plies, -1 for none), where recorded.
    longest: Optional[Tuple[int, int]] = None


def verified_counts(
    info: str, verified: set, marks: Optional[Path] = None
) -> List[TableCounts]:
    """The counts `info`'s output gives for each verified table, once each, by name, with the
    longest win and loss `marks` records."""
    found = {}
    for line in info.splitlines():
        m = INFO_ROW.match(line)
        if not m:
            continue
        key = f"{m.group(1)}-{m.group(2)}{m.group(3) or ''}"
        if key in verified:
            men = (int(m.group(1)), int(m.group(2)))
            counts = (int(m.group(g)) for g in (4, 5, 6, 7))
            longest = read_distances(marks, key) if marks else None
            found[key] = TableCounts(key, men, *counts, longest)
    return [found[key] for key in sorted(found)]


STATISTICS_HEADER = "table\tindices\tpositions\twins\tdraws\tlosses\tlongest_win\tlongest_loss"


def read_statistics(path: Path) -> List[TableCounts]:
    """The rows of a file `--statistics` wrote (an earlier build's, for `--keep`)."""
    lines = path.read_text().splitlines()
    if not lines:
        raise ValueError(f"{path} is empty (written over by this command's own output?)")
    if lines[0] != STATISTICS_HEADER:
        raise ValueError(f"{path} is not a file `--statistics` wrote (its header differs)")
    rows = []
    for n, line in enumerate(lines[1:], 2):
        cols = line.split("\t")
        m = re.fullmatch(r"(\d+)-(\d+)(-b\w+)?", cols[0])
        if len(cols) != 8 or not m:
            raise ValueError(f"{path}, line {n}: not a table's row: {line!r}")
        if bool(cols[6]) != bool(cols[7]):
            raise ValueError(f"{path}, line {n}: a longest win without a loss, or the reverse")
        try:
            indices, positions, wins, draws, losses = (int(c) for c in cols[1:6])
            longest = (int(cols[6]), int(cols[7])) if cols[6] else None
        except ValueError:
            raise ValueError(f"{path}, line {n}: a count is not a number: {line!r}") from None
        if positions != wins + draws + losses:
            raise ValueError(f"{path}, line {n}: its positions are not wins + draws + losses")
        men = (int(m.group(1)), int(m.group(2)))
        rows.append(TableCounts(cols[0], men, indices, wins, draws, losses, longest))
    return rows


def kept_with(rows: List[TableCounts], earlier: List[TableCounts]) -> List[TableCounts]:
    """`rows` with the rows of `earlier` (another build's) for the tables `rows` lacks: where
    both have a table, their counts and any longest win and loss both record must agree, and
    the longest this build records is kept where the earlier build recorded none."""
    mine = {t.key: t for t in rows}
    for old in earlier:
        new = mine.get(old.key)
        if new is None:
            mine[old.key] = old
            continue
        if new[:6] != old[:6] or (new.longest and old.longest and new.longest != old.longest):
            raise ValueError(
                f"{old.key}: this build's counts and longest {tuple(new[2:])} differ from "
                f"the earlier build's {tuple(old[2:])}"
            )
        if new.longest is None:
            mine[old.key] = new._replace(longest=old.longest)
    return [mine[key] for key in sorted(mine)]


def statistics_per_table(rows: List[TableCounts]) -> List[str]:
    """Tab-separated lines, a header and a line per table (ordered by men, then name): its
    counts and its longest win and loss within the unit where recorded (empty otherwise)."""
    lines = [STATISTICS_HEADER]
    for t in sorted(rows, key=lambda t: (t.men, t.key)):
        win, loss = ("", "") if t.longest is None else (str(t.longest[0]), str(t.longest[1]))
        lines.append(
            f"{t.key}\t{t.indices}\t{t.wins + t.draws + t.losses}\t{t.wins}\t{t.draws}"
            f"\t{t.losses}\t{win}\t{loss}"
        )
    return lines


def results_by_men(rows: List[TableCounts]) -> List[str]:
    """Markdown rows of the tables' counts summed by men, with the longest win and loss within
    the unit where recorded."""
    sums: dict = {}
    distances: dict = {}
    for t in rows:
        row = sums.setdefault(t.men, [0, 0, 0, 0, 0])
        counts = (1, t.indices, t.wins, t.draws, t.losses)
        for i, value in enumerate(counts):
            row[i] += value
        if t.longest:
            distances.setdefault(t.men, []).append(t.longest)
    lines = [
        "| men | tables | indices | positions | wins | draws | losses "
        "| longest win in the unit | longest loss in the unit |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for (a, b), (tables, indices, wins, draws, losses) in sorted(sums.items()):
        recorded = distances.get((a, b), [])
        win = longest_cell([plies for plies, _ in recorded], tables)
        loss = longest_cell([plies for _, plies in recorded], tables)
        lines.append(
            f"| {a}-{b} | {tables} | {indices:,} | {wins + draws + losses:,} | {wins:,} "
            f"| {draws:,} | {losses:,} | {win} | {loss} |"
        )
    return lines


def kept_digests(lines: List[str], earlier: Path) -> List[str]:
    """The manifest `lines` with the lines of an earlier build's manifest for the tables it
    lacks; a table both list with different digests is an error."""
    mine = dict(reversed(line.split("  ", 1)) for line in lines)
    listed = earlier.read_text().splitlines()
    if not listed:
        raise ValueError(f"{earlier} is empty (written over by this command's own output?)")
    seen = set()
    for n, line in enumerate(listed, 1):
        m = re.fullmatch(r"([0-9a-f]{64})  (\S+\.ppdb)", line)
        if not m:
            raise ValueError(f"{earlier}, line {n}: not a `SHA-256  KEY.ppdb` line: {line!r}")
        digest, name = m.groups()
        if name in seen:
            raise ValueError(f"{earlier}, line {n}: {name} is listed twice")
        seen.add(name)
        if mine.setdefault(name, digest) != digest:
            raise ValueError(
                f"{name}: this build's SHA-256 {mine[name]} differs from {earlier}'s {digest}"
            )
    return [f"{mine[name]}  {name}" for name in sorted(mine)]


def utc(t: Optional[float]) -> str:
    if t is None:
        return "-"
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%d %H:%M")


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path)
    parser.add_argument("--table", action="store_true", help="a Markdown row per unit")
    parser.add_argument("--total", type=float, help="indices of the whole request")
    parser.add_argument("--recent", type=int, help="the time left at the last N units' rate")
    parser.add_argument(
        "--checksums", action="store_true", help="only the manifest of the verified tables"
    )
    parser.add_argument(
        "--results",
        metavar="FILE",
        help="`perfectplay info --db DIR` output (- for stdin): counts of the verified tables",
    )
    parser.add_argument(
        "--statistics",
        metavar="FILE",
        help="`perfectplay info --db DIR` output (- for stdin): a tab-separated line per "
        "verified table",
    )
    parser.add_argument(
        "--keep",
        metavar="FILE",
        type=Path,
        help="with --checksums, --statistics or --results: an earlier build's manifest (or "
        "statistics file), whose lines for tables not verified here are kept, and must agree "
        "with this build's where both have the table",
    )
    args = parser.parse_args(argv)
    if args.keep and not (args.checksums or args.statistics or args.results):
        parser.error("--keep goes with --checksums, --statistics or --results")
    if args.results and args.statistics:
        parser.error("--results and --statistics read the same output: give one")
    if args.recent is not None and args.recent < 1:
        parser.error("--recent wants at least 1 unit")
    if args.recent is not None and args.total is None:
        parser.error("--recent goes with --total (the time left is reckoned from it)")
    marks = args.dir / "marks"
    if not marks.is_dir():
        print(f"{marks} does not exist: no build started there", file=sys.stderr)
        return 1
    if args.checksums:
        lines, missing = verified_digests(marks)
        if missing:
            # Nothing printed: a manifest without them would look whole, and with --keep their
            # lines would be the earlier manifest's, unchecked.
            print(
                f"{len(missing)} verified tables have no digest recorded (the driver records "
                f"them when it next runs, or `sha256sum` them): {' '.join(missing)}",
                file=sys.stderr,
            )
            return 1
        if args.keep:
            try:
                lines = kept_digests(lines, args.keep)
            except (OSError, ValueError) as e:
                print(f"--keep: {e}", file=sys.stderr)
                return 1
        for line in lines:
            print(line)
        return 0
    if args.results or args.statistics:
        source = args.results or args.statistics
        info = sys.stdin.read() if source == "-" else Path(source).read_text()
        verified = set(verified_keys(marks))
        rows = verified_counts(info, verified, marks)
        unlisted = sorted(verified - {t.key for t in rows})
        if args.keep:
            try:
                rows = kept_with(rows, read_statistics(args.keep))
            except (OSError, ValueError) as e:
                print(f"--keep: {e}", file=sys.stderr)
                return 1
        report = results_by_men if args.results else statistics_per_table
        for line in report(rows):
            print(line)
        if unlisted:
            print(
                f"{len(unlisted)} verified tables are not in that output of `perfectplay info`: "
                f"{' '.join(unlisted)}",
                file=sys.stderr,
            )
            return 1
        return 0
    units = read_units(marks)
    if args.table:
        print(
            "| unit | subspaces | indices | build (s) | verify (s) | verified at (UTC) "
            "| longest in the unit (plies) |"
        )
        print("|---:|---|---:|---:|---:|---|---:|")
        for n, u in enumerate(units, 1):
            at = utc(u.verified_at) if u.verified == u.tables else f"{u.verified} of {u.tables}"
            longest = longest_cell([] if u.longest is None else [u.longest], 1)
            print(
                f"| {n} | `{u.a}-{u.b}` and {u.tables - 1} more | {u.indices:,} "
                f"| {u.build_s} | {u.verify_s} | {at} | {longest} |"
            )
    done = [u for u in units if u.verified == u.tables]
    indices = sum(u.indices for u in done)
    proven = [u for u in done if u.proven]
    print(f"{len(done)} units built and verified: {indices:,} indices")
    if proven:
        print(
            f"  {len(proven)} of them ({sum(u.indices for u in proven):,} indices) found byte "
            f"for byte as an earlier build proved them, in {sum(u.build_s for u in proven):,} s "
            "of building: left out of the rates below, since units not proven before are "
            "verified too"
        )
    # The rates of the units verified here: building and verifying, what a unit not proven
    # before costs.
    timed = [u for u in done if not u.proven]
    build_s = sum(u.build_s for u in timed)
    verify_s = sum(u.verify_s for u in timed)
    timed_indices = sum(u.indices for u in timed)
    if build_s and verify_s:
        both = timed_indices / (build_s + verify_s)
        print(
            f"  {build_s:,} s building ({timed_indices / build_s / 1e6:.2f} M/s), "
            f"{verify_s:,} s verifying ({timed_indices / verify_s / 1e6:.2f} M/s), "
            f"{both / 1e6:.2f} M/s together"
        )
        if args.total:
            left = args.total - indices
            rate, which = both, "that rate"
            if args.recent:
                last = sorted(timed, key=lambda u: u.verified_at or 0)[-args.recent :]
                spent = sum(u.build_s + u.verify_s for u in last)
                if spent:
                    rate = sum(u.indices for u in last) / spent
                    which = f"the last {len(last)} units' rate ({rate / 1e6:.2f} M/s)"
            print(
                f"  {indices / args.total:.1%} of {args.total:,.0f}; "
                f"{left / rate / 3600:.1f} h left at {which}"
            )
    elif args.total:
        print(
            f"  {indices / args.total:.1%} of {args.total:,.0f}; no unit verified here yet "
            "to reckon the time left from"
        )
    events = marks / "events.log"
    if events.exists():
        lines = events.read_text().splitlines()
        if lines:
            print(f"  last event: {lines[-1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
