"""Helpers the test modules import (conftest.py is for fixtures: pytest does not support
importing from it, and under --import-mode=importlib it is not importable by that name)."""

import atexit
import functools
import importlib.util
import random
import shutil
import tempfile

import pytest

import perfectplay as pp

MORRIS_IDS = [g for g in pp.game_ids() if g != "checkers"]


def random_states(game, seed, plies, actions=True):
    """Yields the states of a random game of `game`, one per action (or per whole move)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state
    for _ in range(plies):
        if state.is_terminal():
            return
        if actions:
            state.apply_action(rng.choice(state.legal_actions()))
        else:
            state.apply(rng.choice(state.legal_moves()))
        yield state


def load_checkout_module(name, path):
    """Imports the file `path` of the repository checkout as module `name`; skips the test
    where the tests run without a checkout around them."""
    if not path.exists():
        pytest.skip(f"{path} is not here: not a repository checkout")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.lru_cache(maxsize=None)
def child_cwd():
    """An empty directory for Python child processes to start in. `python -c` and `-m` put
    their working directory first on sys.path: a child started from the checkout's python/
    folder would import the source tree (which has no compiled extension) instead of the
    installed package. (Ray's workers are not children of this kind: `ray.init` in the
    cluster fixture gives them pytest's own working directory, which python_test.sh makes
    python/tests.)"""
    path = tempfile.mkdtemp(prefix="perfectplay-tests-cwd-")
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path
