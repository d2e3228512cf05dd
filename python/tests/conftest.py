"""Shared helpers for the perfectplay tests."""

import importlib
import importlib.util
import os
import random

# Every Ray process of the cluster tests on 127.0.0.1. Ray reads this once, when it is first
# imported, and on a machine with a default route it otherwise resolves "127.0.0.1" to the
# route's address, which a loopback-bound cluster does not listen on. It is set here, before
# anything can import Ray (the extras check below does), and inherited by every process Ray
# starts.
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"

import pytest  # noqa: E402

import perfectplay as pp  # noqa: E402

MORRIS_IDS = [g for g in pp.game_ids() if g != "checkers"]

# The modules the `[test]` extra installs, which some test modules skip without
# (`pytest.importorskip`). Where the extra was installed (scripts/python_test.sh), one that
# does not import is a broken installation, not a reason to skip those tests in silence.
TEST_EXTRA_MODULES = (
    "gymnasium", "pettingzoo", "nbclient", "nbformat", "IPython", "matplotlib", "moviepy",
    "pyspiel", "anywidget", "tqdm", "ray", "ray.cluster_utils",
)
if os.environ.get("PERFECTPLAY_REQUIRE_TEST_EXTRAS") == "1":
    for _name in TEST_EXTRA_MODULES:
        try:
            importlib.import_module(_name)
        except Exception as error:  # any failure to import is the installation's
            raise pytest.UsageError(
                f"PERFECTPLAY_REQUIRE_TEST_EXTRAS=1, but {_name} does not import ({error!r}): "
                "the tests that need it would skip"
            ) from error


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
