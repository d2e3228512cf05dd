"""Shared helpers for the perfectplay tests."""

import importlib.util
import random

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


@pytest.fixture(params=pp.game_ids())
def game_id(request):
    """Every game id."""
    return request.param


def load_checkout_module(name, path):
    """Imports the file `path` of the repository checkout as module `name`; skips the test
    where the tests run without a checkout around them."""
    if not path.exists():
        pytest.skip(f"{path} is not here: not a repository checkout")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
