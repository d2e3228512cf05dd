"""Fixtures and the checks made before any test: the helpers the test modules import are in
_helpers.py."""

import importlib
import os
import sys
from pathlib import Path

# Every Ray process of the cluster tests on 127.0.0.1. Ray reads this once, when it is first
# imported, and on a machine with a default route it otherwise resolves "127.0.0.1" to the
# route's address, which a loopback-bound cluster does not listen on. It is set here, before
# anything can import Ray (the extras check below does), and inherited by every process Ray
# starts.
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"

# The test modules import _helpers from this folder. The default import mode puts it on
# sys.path; --import-mode=importlib puts no test folder there. Appended, it shadows nothing.
_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.append(_TESTS)

import pytest  # noqa: E402

import perfectplay as pp  # noqa: E402

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


@pytest.fixture(params=pp.game_ids())
def game_id(request):
    """Every game id."""
    return request.param

