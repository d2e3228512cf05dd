#!/usr/bin/env python3
"""Random self-play steps per second: perfectplay against OpenSpiel, side by side in one run.

For each game (checkers and nine_mens_morris by default) it measures:

(a) the single-state API in a plain Python loop, the same for both libraries::

        if state.is_terminal(): state = game.new_initial_state()
        actions = state.legal_actions()
        state.apply_action(actions[randrange(len(actions))])

    with perfectplay (``pp.load_game``) and with pyspiel (``pyspiel.load_game``);

(b) ``pp.VectorEnv`` in self-play with batches of 1024 and 4096 envs, stepped with the
    actions of ``env.sample_legal_actions()``: every env moves once per ``step`` call.

A step is one action (a checkers jump, a morris placement, move or removal), as both
libraries count them; the envs that restart a game in a step (Gymnasium's next-step autoreset)
count as stepped. Each figure is the best of ``--repeats`` timed runs of about ``--seconds``
seconds, the runs of a game's measures interleaved. It prints steps per second and the
ratios (a) perfectplay / pyspiel and (b) VectorEnv / pyspiel loop; the targets are
(a) >= 1x and (b) >= 20x.

OpenSpiel is optional (``pip install open-spiel``): without it the pyspiel columns are
skipped. Run ``python bench/python_vs_openspiel.py --help`` for the options.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from typing import Any, Callable, Dict, List, Optional, Tuple

import perfectplay as pp

try:
    import pyspiel
except ImportError:  # OpenSpiel is optional.
    pyspiel = None

#: perfectplay game id -> OpenSpiel game name.
OPENSPIEL_NAMES = {"checkers": "checkers", "nine_mens_morris": "nine_mens_morris"}

TARGET_LOOP = 1.0
TARGET_VECTOR = 20.0


def loop_steps(load_game: Callable[[str], Any], name: str, seconds: float, seed: int) -> float:
    """Steps per second of the random self-play loop on ``load_game(name)``'s states.

    The loop is the same whichever library made the game: restart at the end of a game, list
    the legal actions, apply a uniformly random one. Time is read every 4096 steps.
    """
    game = load_game(name)
    randrange = random.Random(seed).randrange
    state = game.new_initial_state()
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(4096):
            if state.is_terminal():
                state = game.new_initial_state()
            actions = state.legal_actions()
            state.apply_action(actions[randrange(len(actions))])
        steps += 4096
        now = time.perf_counter()
        if now >= deadline:
            return steps / (now - start)


#: The variable that caps perfectplay's vector kernels: ``avx2`` (no AVX-512) or ``portable`` (none).
SIMD_VARIABLE = "PERFECTPLAY_SIMD"


def vector_steps(
    game_id: str,
    num_envs: int,
    seconds: float,
    seed: int,
    packed_mask: bool = False,
    obs_dtype: str = "float32",
) -> float:
    """Steps per second of ``pp.VectorEnv`` self-play with sampled legal actions."""
    options: Dict[str, Any] = {"packed_mask": True} if packed_mask else {}
    if obs_dtype != "float32":
        options["obs_dtype"] = obs_dtype
    # copy=False: the fast path a training loop that copies what it keeps would take.
    env = pp.VectorEnv(game_id, num_envs, seed=seed, copy=False, **options)
    env.reset(seed=seed)
    for _ in range(5):  # warm up: threads started, buffers touched
        env.step(env.sample_legal_actions())
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(8):
            env.step(env.sample_legal_actions())
        calls += 8
        now = time.perf_counter()
        if now >= deadline:
            return calls * num_envs / (now - start)


def best_of_rounds(
    repeats: int, measures: Dict[str, Tuple[Callable[..., float], tuple]]
) -> Dict[str, float]:
    """The best of ``repeats`` runs of each measure, run in interleaved rounds.

    Interleaving spreads any outside load over all the measures alike; the best run is the one
    least disturbed by it.
    """
    best: Dict[str, float] = {}
    for _ in range(repeats):
        for key, (measure, args) in measures.items():
            best[key] = max(best.get(key, 0.0), measure(*args))
    return best


def fmt_rate(rate: Optional[float]) -> str:
    """Steps per second, e.g. ``1,234,567``, or ``-`` when not measured."""
    return "-" if rate is None else f"{rate:,.0f}"


def fmt_ratio(num: Optional[float], den: Optional[float], target: float) -> str:
    """``num / den`` as ``12.3x`` with whether it meets ``target``."""
    if num is None or den is None:
        return "-"
    ratio = num / den
    return f"{ratio:.2f}x ({'meets' if ratio >= target else 'below'} {target:g}x)"


def main(argv: Optional[List[str]] = None) -> int:
    """Runs the benchmark and prints the table; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", nargs="+", default=list(OPENSPIEL_NAMES), help="perfectplay game ids"
    )
    parser.add_argument(
        "--batch", nargs="+", type=int, default=[1024, 4096], help="VectorEnv batch sizes"
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one timed run")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per figure (best)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--no-openspiel", action="store_true", help="skip pyspiel even if it is installed"
    )
    parser.add_argument(
        "--packed-mask",
        action="store_true",
        help="VectorEnv(packed_mask=True): masks as bits, eight actions to a byte",
    )
    parser.add_argument(
        "--obs-dtype",
        choices=["float32", "uint8"],
        default="float32",
        help="VectorEnv(obs_dtype=...): uint8 observations are a quarter of the bytes",
    )
    args = parser.parse_args(argv)

    spiel = None if args.no_openspiel else pyspiel
    threads = os.environ.get("RAYON_NUM_THREADS", "all")
    print(f"perfectplay {pp.__version__}, Python {platform.python_version()}, ", end="")
    print(f"OpenSpiel {'(pyspiel) ' + _openspiel_version() if spiel else 'not installed/skipped'}")
    print(
        f"{os.cpu_count()} CPUs, {platform.machine()}, RAYON_NUM_THREADS={threads}; "
        f"best of {args.repeats} x {args.seconds:g} s per figure"
        + (", packed masks" if args.packed_mask else "")
        + (f", {args.obs_dtype} observations" if args.obs_dtype != "float32" else "")
        + (f", {SIMD_VARIABLE}={os.environ[SIMD_VARIABLE]}" if SIMD_VARIABLE in os.environ else "")
    )
    print()

    for game_id in args.games:
        measures: Dict[str, Tuple[Callable[..., float], tuple]] = {
            "pp_loop": (loop_steps, (pp.load_game, game_id, args.seconds, args.seed)),
        }
        spiel_name = OPENSPIEL_NAMES.get(game_id)
        if spiel is not None and spiel_name is not None:
            measures["os_loop"] = (
                loop_steps,
                (spiel.load_game, spiel_name, args.seconds, args.seed),
            )
        for n in args.batch:
            measures[f"vec_{n}"] = (
                vector_steps,
                (game_id, n, args.seconds, args.seed, args.packed_mask, args.obs_dtype),
            )
        row: Dict[str, Any] = {"game": game_id, "os_loop": None}
        row.update(best_of_rounds(args.repeats, measures))
        _print_row(row, args.batch)
        print()
    return 0


def _openspiel_version() -> str:
    """The installed open-spiel version, if the package metadata says."""
    try:
        from importlib.metadata import version

        return version("open-spiel")
    except Exception:  # pragma: no cover - metadata missing
        return "?"


def _print_row(row: Dict[str, Any], batches: List[int]) -> None:
    """Prints one game's figures and ratios."""
    os_loop = row["os_loop"]
    print(f"== {row['game']} (random self-play, steps/s)")
    print(f"  (a) pyspiel Python loop        {fmt_rate(os_loop):>14}")
    print(
        f"  (a) perfectplay Python loop    {fmt_rate(row['pp_loop']):>14}   "
        f"perfectplay/pyspiel {fmt_ratio(row['pp_loop'], os_loop, TARGET_LOOP)}"
    )
    for n in batches:
        rate = row[f"vec_{n}"]
        print(
            f"  (b) VectorEnv x{n:<6}          {fmt_rate(rate):>14}   "
            f"vector/pyspiel {fmt_ratio(rate, os_loop, TARGET_VECTOR)}"
        )
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
