"""A real Ray build on one machine against the local solver on the same machine.

Each build is made twice or more from scratch: once by ``perfectplay solve`` with every core
(one unit after another, each unit parallel within itself), and once per shape by
``perfectplay.cluster.build`` on a one-node Ray cluster started here, where a shape ``WxT`` runs
up to W units side by side with T threads each (W x T = the machine's cores). The table files of
every run are compared by SHA-256 with the local build's, and a table of wall times is printed
last::

    python bench/cluster_one_node.py --binary target/release/perfectplay \
        --build checkers:max_pieces=5:4x4,8x2,16x1 --build nine_mens_morris:max_men=6:4x4

A build is ``GAME:KEY=N:SHAPES``; KEY is ``max_men`` or ``max_pieces``; in each shape W x T
is the machine's cores, and with ``--nodes K`` (a cluster of K nodes started here, each with
an equal share of the cores) T is at most a node's share. Every run starts from an empty
directory. ``--work`` keeps the tables in a given directory (a temporary one by default,
removed at the end). Ray binds to 127.0.0.1 (``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` is set
before it is imported), with no dashboard. The Ray cluster's start is timed apart and not
counted in the builds. The table files of the solver binary and of the installed package are
compared, so both must come from the same source; their versions are printed.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Tuple

os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")


def _checksums(directory: Path) -> Dict[str, str]:
    sums = {}
    for path in sorted(directory.glob("*.ppdb")):
        digest = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 22), b""):
                digest.update(block)
        sums[path.name] = digest.hexdigest()
    return sums


def _parse_build(text: str) -> Tuple[str, str, int, List[Tuple[int, int]]]:
    try:
        game, bound, shapes = text.split(":")
        key, value = bound.split("=")
        if key not in ("max_men", "max_pieces"):
            raise ValueError(key)
        parsed = []
        for shape in shapes.split(","):
            workers, threads = shape.lower().split("x")
            parsed.append((int(workers), int(threads)))
        return game, key, int(value), parsed
    except ValueError as error:
        raise argparse.ArgumentTypeError(
            f"a build is GAME:max_men=N:WxT,... or GAME:max_pieces=N:WxT,..., not {text!r}"
        ) from error


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default="target/release/perfectplay")
    parser.add_argument("--build", action="append", type=_parse_build, required=True)
    parser.add_argument("--work", help="where the tables go (default: a temporary directory)")
    parser.add_argument(
        "--nodes", type=int, default=1,
        help="Ray nodes to start here, each with an equal share of the cores (default 1)",
    )
    args = parser.parse_args()

    cores = len(os.sched_getaffinity(0))
    if args.nodes < 1 or cores % args.nodes:
        parser.error(f"--nodes must divide the {cores} cores, not {args.nodes}")
    share = cores // args.nodes
    for game, key, value, shapes in args.build:
        for workers, threads in shapes:
            if workers * threads != cores or threads > share:
                parser.error(
                    f"{game}: shape {workers}x{threads} must use the {cores} cores with at "
                    f"most {share} threads a unit (a node's share)"
                )

    import ray

    import perfectplay
    import perfectplay.cluster as cluster

    binary = subprocess.run([args.binary, "--version"], capture_output=True, text=True,
                            check=True).stdout.strip()
    temporary = args.work is None
    work = Path(args.work or tempfile.mkdtemp(prefix="cluster-one-node-"))
    print(f"cores: {cores}; work: {work}; ray {ray.__version__}; {binary}; package "
          f"{perfectplay.__version__} at {Path(perfectplay.__file__).parent}", flush=True)
    try:
        return _run(args, cores, share, work, ray, cluster)
    finally:
        if temporary:
            shutil.rmtree(work, ignore_errors=True)


def _fresh(directory: Path) -> Path:
    shutil.rmtree(directory, ignore_errors=True)
    return directory


def _run(args, cores, share, work, ray, cluster) -> int:
    started = time.monotonic()
    head = None
    if args.nodes == 1:
        ray.init(num_cpus=cores, include_dashboard=False, log_to_driver=False)
    else:
        from ray import cluster_utils

        head = cluster_utils.Cluster(
            initialize_head=True,
            head_node_args={"num_cpus": share, "node_ip_address": "127.0.0.1",
                            "include_dashboard": False},
        )
        for _ in range(args.nodes - 1):
            head.add_node(num_cpus=share, node_ip_address="127.0.0.1")
        ray.init(address=head.address, log_to_driver=False)
    try:
        alive = [n for n in ray.nodes() if n["Alive"]]
        print(f"ray: {len(alive)} nodes, {ray.cluster_resources().get('CPU', 0):.0f} CPUs, "
              f"started in {time.monotonic() - started:.1f} s", flush=True)
        return _builds(args, cores, work, cluster)
    finally:
        ray.shutdown()
        if head is not None:
            head.shutdown()


def _builds(args, cores, work, cluster) -> int:
    rows = []
    failed = False
    for game, key, value, shapes in args.build:
        flag = "--" + key.replace("_", "-")
        name = f"{game} {key}={value}"
        local = _fresh(work / f"{game}-{value}-local")
        started = time.monotonic()
        subprocess.run(
            [args.binary, "solve", game, flag, str(value), "--out", str(local), "-q",
             "--threads", str(cores), "--force-threads"],
            check=True, stdout=subprocess.DEVNULL,
        )
        local_seconds = time.monotonic() - started
        reference = _checksums(local)
        if not reference:
            raise SystemExit(f"{name}: the local build wrote no table into {local}")
        positions = None
        print(f"{name}: local, {cores} threads: {local_seconds:.2f} s, "
              f"{len(reference)} tables", flush=True)
        rows.append((name, f"local 1x{cores}", local_seconds, "reference", len(reference)))
        for workers, threads in shapes:
            out = _fresh(work / f"{game}-{value}-ray-{workers}x{threads}")
            started = time.monotonic()
            report = cluster.build(
                game, out, cpus_per_task=threads, progress=False, **{key: value}
            )
            seconds = time.monotonic() - started
            positions = report.positions
            sums = _checksums(out)
            same = sums == reference
            failed |= not same
            unit_seconds = sum(n.seconds for n in report.nodes)
            print(f"{name}: ray {workers}x{threads}: {seconds:.2f} s, "
                  f"{report.units_solved} units, unit-seconds {unit_seconds:.1f} "
                  f"({unit_seconds / seconds:.2f} units running at once on average), "
                  f"{'identical' if same else 'DIFFERENT'}", flush=True)
            for node in report.nodes:
                print(f"    node {node.node[:8]}: {node.units} units, "
                      f"{node.solved_positions:,} positions in {node.seconds:.1f} unit-seconds",
                      flush=True)
            rows.append((name, f"ray {workers}x{threads}", seconds,
                         "identical" if same else "DIFFERENT", len(sums)))
        if positions is not None:
            print(f"{name}: {positions:,} positions", flush=True)

    print()
    print("| build | run | seconds | tables | checksums |")
    print("|---|---|---:|---:|---|")
    for name, run, seconds, verdict, tables in rows:
        print(f"| {name} | {run} | {seconds:.2f} | {tables} | {verdict} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
