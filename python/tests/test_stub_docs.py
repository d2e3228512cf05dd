"""The stub's docstrings are the compiled module's (scripts/stub_docs.py copies them over)."""

import ast
from pathlib import Path

import pytest
from _helpers import load_checkout_module

from perfectplay import _core

ROOT = Path(__file__).parents[2]
SCRIPT = ROOT / "scripts" / "stub_docs.py"
STUB = ROOT / "python" / "perfectplay" / "_core.pyi"


@pytest.fixture(scope="module")
def stub_docs():
    return load_checkout_module("stub_docs", SCRIPT)


def test_stub_docstrings_are_the_compiled_ones(stub_docs):
    failures = stub_docs.compare(_core, STUB.read_text(encoding="utf-8")).failures()
    if failures:
        pytest.fail(
            f"{STUB.name} differs from the compiled perfectplay._core:\n  "
            + "\n  ".join(failures)
            + "\nRun `python scripts/stub_docs.py` to copy the compiled docstrings into the stub"
            " (names missing on either side need a hand edit of the stub).",
            pytrace=False,
        )


@pytest.mark.parametrize(
    "doc",
    [
        "One line.",
        'Ends with a quote: "x"',
        'Quotes """ and """" and a backslash \\ and µ.',
        "Summary.\n\n- a list\n  continued\n\nMore.",
        # inspect.getdoc("\n    Summary.\n      indented\n") is this: no common margin left.
        "Summary.\n  every later line indented\n  further",
    ],
)
def test_literal_reads_back(stub_docs, doc):
    text = "def f():\n    " + stub_docs.literal(doc, "    ") + "\n"
    assert ast.get_docstring(ast.parse(text).body[0]) == doc
