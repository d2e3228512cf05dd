#!/usr/bin/env python3
"""Steps per second of one VectorEnv in random self-play, for A/B runs of two builds.

    python bench/vector_env_rate.py GAME [NUM_ENVS] [SECONDS]

Steps ``env.step(env.sample_legal_actions())`` for SECONDS (3 by default) and prints env
steps per second. ``RAYON_NUM_THREADS`` sets the threads. Lighter than
``python_vs_openspiel.py`` (no OpenSpiel, one figure), for comparing builds installed in two
venvs in alternation.
"""

from __future__ import annotations

import sys
import time

import perfectplay as pp


def main() -> None:
    game = sys.argv[1] if len(sys.argv) > 1 else "nine_mens_morris"
    num_envs = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 3.0
    env = pp.VectorEnv(game, num_envs, seed=0, copy=False)
    env.reset(seed=0)
    start = time.perf_counter()
    calls = 0
    while time.perf_counter() - start < seconds:
        for _ in range(8):
            env.step(env.sample_legal_actions())
        calls += 8
    rate = calls * num_envs / (time.perf_counter() - start)
    print(f"{game} x{num_envs}: {rate:,.0f} steps/s")


if __name__ == "__main__":
    main()
