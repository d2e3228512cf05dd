#!/usr/bin/env python3
"""Copies the compiled module's docstrings into its type stubs.

The compiled extension ``perfectplay._core`` gets its docstrings from the Rust doc comments
(crates/python/src). Type checkers and the documentation site read ``_core.pyi`` instead, without
importing anything, so the stub repeats them. This script rewrites the docstrings of the stub's
classes, functions, methods and properties to equal ``inspect.getdoc`` of the compiled objects,
inserting those the stub lacks; the rest of the stub (signatures, types, comments, attribute
docstrings) is kept byte for byte.

    python scripts/stub_docs.py           rewrite python/perfectplay/_core.pyi
    python scripts/stub_docs.py --check   list the differences and exit 1 if there are any

It needs ``perfectplay`` importable with a current compiled extension. Names that the stub has
and the module lacks, or the other way round, are reported (in ``--check`` they fail); so is a
stub docstring with no compiled one to match (slot methods such as ``__eq__`` get none from
pyo3), which is kept. ``python/tests/test_stub_docs.py`` runs the same comparison.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Dict, List, Optional, Tuple, Union

ROOT = Path(__file__).resolve().parents[1]
STUB = ROOT / "python" / "perfectplay" / "_core.pyi"

Definition = Union[ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef]

# Class members that every class has, or that pyo3 fills in without a doc comment.
# `__slotnames__` is the cache `copyreg` leaves on a class once something tried to pickle it.
_PLUMBING = {
    "__doc__",
    "__module__",
    "__weakref__",
    "__dict__",
    "__new__",
    "__text_signature__",
    "__slotnames__",
}
_SLOT_TYPES = ("wrapper_descriptor", "method-wrapper")


class Comparison:
    """What differs between the compiled module and the stub."""

    def __init__(self) -> None:
        # (name, node, the stub's docstring or None, the compiled docstring)
        self.changes: List[Tuple[str, Definition, Optional[str], str]] = []
        self.not_in_stub: List[str] = []
        self.not_compiled: List[str] = []
        self.stub_only: List[str] = []  # stub docstrings with no compiled docstring to match

    def failures(self) -> List[str]:
        """One line per difference that the check fails on."""
        return [
            f"{name}: docstring {'missing from' if old is None else 'differs in'} the stub"
            for name, _, old, _ in self.changes
        ] + self.missing_names()

    def missing_names(self) -> List[str]:
        """One line per name on one side only (a hand edit of the stub, or of the Rust)."""
        return [f"{name}: compiled, but missing from the stub" for name in self.not_in_stub] + [
            f"{name}: in the stub, but not compiled" for name in self.not_compiled
        ]

    def notes(self) -> List[str]:
        """One line per stub docstring kept for want of a compiled one."""
        return [
            f"{name}: the stub's docstring has no compiled docstring to match (kept)"
            for name in self.stub_only
        ]


def _own_doc(obj: object) -> Optional[str]:
    """``inspect.getdoc`` of ``obj``, but only where ``obj`` has a docstring of its own (a class
    without one would get its base class's)."""
    doc = vars(obj).get("__doc__") if inspect.isclass(obj) else getattr(obj, "__doc__", None)
    if not isinstance(doc, str) or not doc.strip():
        return None
    return inspect.getdoc(obj)


def compiled_members(module: ModuleType) -> Dict[str, Optional[str]]:
    """Every class, function, method, property and attribute of ``module`` by dotted name (module
    dunders such as ``__version__`` are left out), with its docstring (None for attributes)."""
    members: Dict[str, Optional[str]] = {}
    for name, obj in vars(module).items():
        if name.startswith("__") and name.endswith("__"):
            continue
        if inspect.isclass(obj):
            members[name] = _own_doc(obj)
            for attr, value in vars(obj).items():
                if attr in _PLUMBING or value is None or type(value).__name__ in _SLOT_TYPES:
                    continue
                members[f"{name}.{attr}"] = _own_doc(value)
        elif callable(obj):
            members[name] = _own_doc(obj)
        else:
            members[name] = None
    return members


def _docstring_node(node: Definition) -> Optional[ast.Expr]:
    first = node.body[0] if node.body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return first
    return None


def stub_definitions(tree: ast.Module) -> Tuple[Dict[str, Definition], Dict[str, bool]]:
    """The stub's classes, functions and methods by dotted name (the first of overloads or of a
    property's getter and setter), and every name it declares, each with whether it is an
    annotated class attribute (on an exception, those live on its instances)."""
    definitions: Dict[str, Definition] = {}
    declared: Dict[str, bool] = {}

    def visit(body: List[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + node.name
                definitions.setdefault(name, node)
                declared[name] = False
                if isinstance(node, ast.ClassDef) and not prefix:
                    visit(node.body, name + ".")
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                declared[prefix + node.target.id] = bool(prefix)
            # Plain assignments at module level are the stub's own type aliases (RuleValue).

    visit(tree.body, "")
    return definitions, declared


def _has(module: ModuleType, name: str) -> bool:
    obj: object = module
    for part in name.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def _is_exception(module: ModuleType, name: str) -> bool:
    """Whether the class that ``name`` is an attribute of is an exception."""
    owner = getattr(module, name.split(".")[0], None)
    return inspect.isclass(owner) and issubclass(owner, BaseException)


def compare(module: ModuleType, source: str) -> Comparison:
    """The differences between ``module``'s docstrings and names and those of the stub
    ``source``."""
    members = compiled_members(module)
    definitions, declared = stub_definitions(ast.parse(source))
    comparison = Comparison()
    for name, node in definitions.items():
        doc = members.get(name)
        old = ast.get_docstring(node) if _docstring_node(node) is not None else None
        if doc is None:
            if old is not None and _has(module, name):
                comparison.stub_only.append(name)
        elif old != doc:
            comparison.changes.append((name, node, old, doc))
    comparison.not_in_stub = [name for name in members if name not in declared]
    comparison.not_compiled = [
        name
        for name, attribute in declared.items()
        if not _has(module, name) and not (attribute and _is_exception(module, name))
    ]
    return comparison


def literal(doc: str, indent: str) -> str:
    """``doc`` as a triple-quoted string whose lines after the first are indented by ``indent``;
    ``inspect.cleandoc`` of its value gives ``doc`` back."""
    text = doc.replace("\\", "\\\\")
    text = re.sub(r'"(?=")', r'\\"', text)  # no two unescaped quotes in a row
    if text.endswith('"'):
        text = text[:-1] + '\\"'
    text = "".join(
        ch if ch == "\n" or (" " <= ch and ch != "\x7f") else repr(ch)[1:-1] for ch in text
    )
    lines = text.split("\n")
    rest = [line for line in lines[1:] if line.strip()]
    if rest and all(line[0] == " " for line in rest):
        # cleandoc would take the lines' common indentation for the stub's: start the first
        # line on a line of its own, indented like the rest.
        lines[0] = "\n" + indent + lines[0]
    body = [lines[0]] + [indent + line if line else "" for line in lines[1:]]
    return '"""' + "\n".join(body) + '"""'


class _Lines:
    """Byte offsets in the source, from ``ast``'s line numbers and UTF-8 column offsets."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.starts = [0]
        for index, byte in enumerate(data):
            if byte == ord("\n"):
                self.starts.append(index + 1)

    def offset(self, lineno: int, col: int) -> int:
        return self.starts[lineno - 1] + col

    def line_prefix(self, lineno: int, col: int) -> bytes:
        return self.data[self.starts[lineno - 1] : self.offset(lineno, col)]


def _edit(lines: _Lines, node: Definition, doc: str) -> Tuple[int, int, bytes]:
    """The replacement (start, end, new bytes) that gives ``node`` the docstring ``doc``."""
    expr = _docstring_node(node)
    if expr is not None:
        prefix = lines.line_prefix(expr.lineno, expr.col_offset)
        indent = prefix.decode() if not prefix.strip() else " " * (node.col_offset + 4)
        text = literal(doc, indent).encode()
        end = lines.offset(expr.end_lineno or expr.lineno, expr.end_col_offset or 0)
        return lines.offset(expr.lineno, expr.col_offset), end, text
    first = node.body[0]
    only_ellipsis = (
        len(node.body) == 1
        and isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and first.value.value is Ellipsis
    )
    start_line = min([first.lineno] + [d.lineno for d in getattr(first, "decorator_list", [])])
    prefix = lines.line_prefix(start_line, first.col_offset)
    if prefix.strip():  # the body follows the colon on the header's line: `def f(): ...`
        if not only_ellipsis:
            raise ValueError(f"{node.name}: no room for a docstring before `{ast.unparse(first)}`")
        indent = " " * (node.col_offset + 4)
        start = lines.offset(first.lineno, first.col_offset) - (len(prefix) - len(prefix.rstrip()))
        end = lines.offset(first.end_lineno or first.lineno, first.end_col_offset or 0)
        return start, end, ("\n" + indent + literal(doc, indent)).encode()
    indent = prefix.decode()
    if only_ellipsis:
        start = lines.offset(first.lineno, first.col_offset)
        end = lines.offset(first.end_lineno or first.lineno, first.end_col_offset or 0)
        return start, end, literal(doc, indent).encode()
    gap = "\n" if isinstance(node, ast.ClassDef) else ""
    start = lines.offset(start_line, 0)
    return start, start, (indent + literal(doc, indent) + "\n" + gap).encode()


def rewrite(source: str, comparison: Comparison) -> str:
    """``source`` with the docstrings of ``comparison.changes`` replaced or inserted."""
    lines = _Lines(source.encode())
    edits = sorted(
        (_edit(lines, node, doc) for _, node, _, doc in comparison.changes), reverse=True
    )
    data = lines.data
    for start, end, text in edits:
        data = data[:start] + text + data[end:]
    return data.decode()


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="list the differences, write nothing")
    parser.add_argument("--stub", type=Path, default=STUB, help=f"the stub (default {STUB})")
    args = parser.parse_args(argv)

    from perfectplay import _core

    source = args.stub.read_text(encoding="utf-8")
    comparison = compare(_core, source)
    for note in comparison.notes():
        print(f"note: {note}", file=sys.stderr)
    if args.check:
        failures = comparison.failures()
        for line in failures:
            print(line)
        if failures:
            print(f"{len(failures)} difference(s); run `python scripts/stub_docs.py` to update "
                  f"{args.stub}", file=sys.stderr)
        return 1 if failures else 0
    if comparison.changes:
        updated = rewrite(source, comparison)
        check = compare(_core, updated)
        if check.changes:  # a bug here, not in the stub
            raise SystemExit(f"rewriting left differences: {[c[0] for c in check.changes]}")
        args.stub.write_text(updated, encoding="utf-8")
    replaced = sum(old is not None for _, _, old, _ in comparison.changes)
    inserted = len(comparison.changes) - replaced
    print(f"{args.stub}: {replaced} docstring(s) replaced, {inserted} inserted")
    for line in comparison.missing_names():
        print(line)
    return 1 if comparison.missing_names() else 0


if __name__ == "__main__":
    sys.exit(main())
