#!/usr/bin/env python3
"""Steps per second of one VectorEnv in random self-play, for A/B runs of two builds.

    python bench/vector_env_rate.py GAME [NUM_ENVS] [SECONDS]
    python bench/vector_env_rate.py GAME --sizes 1 32 1024 4096 [--seconds S]
    (either with --packed-mask and --obs-dtype uint8, VectorEnv's compact rows)

Steps ``env.step(env.sample_legal_actions())`` for SECONDS (3 by default) with NUM_ENVS envs
(1024 by default), or with each of ``--sizes`` in turn, and prints env steps per second and
the time of one call (one ``sample_legal_actions`` and one ``step``): across batch sizes
from 1 env up, the second shows the fixed cost of a call apart from the cost per env.
``RAYON_NUM_THREADS`` sets the threads. Lighter than ``python_vs_openspiel.py`` (no
OpenSpiel), for comparing builds installed in two venvs, or the two builds of one install
(``PERFECTPLAY_CORE``), in alternation.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, Dict, List, Optional

import perfectplay as pp


def rate(game: str, num_envs: int, seconds: float, options: Dict[str, Any]) -> float:
    """Seconds per call of ``env.step(env.sample_legal_actions())`` with ``num_envs`` envs."""
    env = pp.VectorEnv(game, num_envs, seed=0, copy=False, **options)
    env.reset(seed=0)
    for _ in range(20):  # warm up: threads started, buffers touched
        env.step(env.sample_legal_actions())
    start = time.perf_counter()
    calls = 0
    while time.perf_counter() - start < seconds:
        for _ in range(8):
            env.step(env.sample_legal_actions())
        calls += 8
    return (time.perf_counter() - start) / calls


def parse(argv: Optional[List[str]] = None) -> argparse.Namespace:
    """The arguments: ``GAME [NUM_ENVS] [SECONDS]`` as before, or ``--sizes`` for several."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", default="nine_mens_morris")
    parser.add_argument("num_envs", nargs="?", type=int, default=1024)
    parser.add_argument("seconds", nargs="?", type=float, help="length of a run (3 s)")
    parser.add_argument("--seconds", dest="length", type=float, help="the same, as an option")
    parser.add_argument("--sizes", nargs="+", type=int, help="several batch sizes, in turn")
    parser.add_argument("--packed-mask", action="store_true", help="VectorEnv(packed_mask=True)")
    parser.add_argument("--obs-dtype", choices=["float32", "uint8"], default="float32")
    args = parser.parse_args(argv)
    args.seconds = args.length or args.seconds or 3.0
    return args


def main(argv: Optional[List[str]] = None) -> None:
    args = parse(argv)
    options: Dict[str, Any] = {}
    if args.packed_mask:
        options["packed_mask"] = True
    if args.obs_dtype != "float32":
        options["obs_dtype"] = args.obs_dtype
    for num_envs in args.sizes or [args.num_envs]:
        per_call = rate(args.game, num_envs, args.seconds, options)
        print(
            f"{args.game} x{num_envs}: {num_envs / per_call:,.0f} steps/s, "
            f"{per_call * 1e6:.1f} us a call"
        )


if __name__ == "__main__":
    main()
