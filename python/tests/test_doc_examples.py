"""The Python shown in README.md and docs/*.md against the package: every block parses, and
every function, method and attribute it names on the package's objects exists and takes the
keyword arguments shown. The blocks are cheat sheets (placeholders such as ``policy``, paths
of tables built elsewhere), so they are read, not run; what they name is checked."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import pathlib
from typing import Any, Dict, Iterator, List, Optional, Tuple

import pytest

import perfectplay as pp
import perfectplay.tablebase

try:
    from perfectplay.board import PlayBoard
except ImportError:  # the board needs anywidget, which the [test] extra brings
    PlayBoard = None

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", ROOT / "python" / "README.md", ROOT / "notebooks" / "README.md"]
DOCUMENTS += sorted((ROOT / "docs").glob("*.md"))

#: What a call makes, by the name called, for the names a block binds to its result.
MAKES: Dict[str, Any] = {
    "pp.load_game": pp.Game,
    "pp.VectorEnv": pp.VectorEnv,
    "pp.tablebase.open": pp.Tablebase,
    "pp.Tablebase": pp.Tablebase,
    "PlayBoard": PlayBoard,
    "pp.tablebase.score_policy": perfectplay.tablebase.PolicyScore,
    "pp.tablebase.verify": perfectplay.tablebase.VerifyReport,
}

#: What a method of a known type gives, for names bound to its result.
GIVES: Dict[Tuple[Any, str], Any] = {
    (pp.Game, "new_initial_state"): pp.State,
    (pp.Game, "state_from_fen"): pp.State,
    (pp.State, "clone"): pp.State,
    (pp.State, "child"): pp.State,
    (pp.Tablebase, "probe"): pp.Probe,
    (pp.Tablebase, "search"): pp.Probe,
}

#: Attributes of known types whose type is known.
ATTRIBUTES: Dict[Tuple[Any, str], Any] = {
    (pp.Tablebase, "game"): pp.Game,
    (pp.State, "game"): pp.Game,
}


def python_blocks(path: pathlib.Path) -> Iterator[Tuple[int, str]]:
    """The ```python blocks of a Markdown file, with the line each starts on."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start: Optional[int] = None
    for number, line in enumerate(lines, 1):
        if start is None and line.strip() == "```python":
            start = number
        elif start is not None and line.strip() == "```":
            yield start, "\n".join(lines[start:number - 1])
            start = None


def dotted(node: ast.AST) -> Optional[str]:
    """``pp.tablebase.open`` for the expression ``pp.tablebase.open``; None for others."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def has_attribute(owner: Any, name: str) -> bool:
    """Whether instances of ``owner`` (or the module ``owner``) have ``name``: a dataclass's
    fields without a default are no class attributes."""
    fields = {f.name for f in dataclasses.fields(owner)} if dataclasses.is_dataclass(owner) else ()
    return hasattr(owner, name) or name in fields


class Checker(ast.NodeVisitor):
    """Walks a document's blocks in order, knowing the type of the names bound to the
    package's objects, and records each name the package lacks."""

    def __init__(self) -> None:
        self.types: Dict[str, Any] = {}
        self.modules: Dict[str, Any] = {}
        self.problems: List[str] = []
        self.checked = 0
        # The calls that make the package's objects, with the names this document imports: a
        # copy, so that one document's imports do not carry into the next one checked.
        self.makes: Dict[str, Any] = dict(MAKES)

    def type_of(self, node: ast.AST) -> Any:
        """The type or module an expression stands for, where it is known."""
        if isinstance(node, ast.Name):
            return self.modules.get(node.id) or self.types.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.type_of(node.value)
            if inspect.ismodule(base):
                return getattr(base, node.attr, None)
            return ATTRIBUTES.get((base, node.attr))
        if isinstance(node, ast.Call):
            name = dotted(node.func)
            if name in self.makes:
                return self.makes[name]
            if isinstance(node.func, ast.Attribute):
                return GIVES.get((self.type_of(node.func.value), node.func.attr))
        return None

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".")[0] == "perfectplay":
                module = __import__(alias.name, fromlist=["_"])
                self.modules[alias.asname or alias.name.split(".")[0]] = (
                    module if alias.asname else pp
                )

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module and node.module.split(".")[0] == "perfectplay":
            try:
                module = __import__(node.module, fromlist=["_"])
            except ImportError:  # an optional extra's module
                return
            for alias in node.names:
                self.check(hasattr(module, alias.name), f"{node.module} has no {alias.name}")
                value = getattr(module, alias.name, None)
                if inspect.ismodule(value):
                    self.modules[alias.asname or alias.name] = value
                else:
                    self.makes.setdefault(alias.asname or alias.name, value)

    def bind(self, target: ast.AST, value: ast.AST) -> None:
        if isinstance(target, ast.Name):
            # A name bound to anything but an instance of a known type is forgotten.
            known = self.type_of(value)
            if isinstance(known, type) and isinstance(value, ast.Call):
                self.types[target.id] = known
            else:
                self.types.pop(target.id, None)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.generic_visit(node)
        for target in node.targets:
            self.bind(target, node.value)

    def visit_With(self, node: ast.With) -> None:
        for item in node.items:
            self.visit(item.context_expr)
            if item.optional_vars is not None:
                self.bind(item.optional_vars, item.context_expr)
        for statement in node.body:
            self.visit(statement)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.generic_visit(node)
        owner = self.type_of(node.value)
        if owner is not None:
            self.check(
                has_attribute(owner, node.attr),
                f"{getattr(owner, '__name__', owner)} has no attribute {node.attr}",
            )

    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)
        function: Any = None
        if isinstance(node.func, ast.Name):
            function = self.makes.get(node.func.id) or self.modules.get(node.func.id)
        elif isinstance(node.func, ast.Attribute):
            owner = self.type_of(node.func.value)
            if owner is not None:
                function = getattr(owner, node.func.attr, None)
        if function is None or not callable(function):
            return
        try:
            signature = inspect.signature(function)
        except (TypeError, ValueError):
            return
        parameters = signature.parameters.values()
        if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
            return
        names = {p.name for p in parameters}
        for keyword in node.keywords:
            if keyword.arg is not None:
                self.check(
                    keyword.arg in names,
                    f"{getattr(function, '__qualname__', function)} takes no {keyword.arg}=",
                )

    def check(self, ok: bool, problem: str) -> None:
        self.checked += 1
        if not ok:
            self.problems.append(problem)


def documents_with_python() -> List[pathlib.Path]:
    return [path for path in DOCUMENTS if any(True for _ in python_blocks(path))]


@pytest.mark.parametrize("path", documents_with_python(), ids=lambda p: p.name)
def test_the_python_a_document_shows_names_what_the_package_has(path):
    checker = Checker()
    for line, block in python_blocks(path):
        try:
            tree = ast.parse(block)
        except SyntaxError as e:
            pytest.fail(f"{path.name}:{line + (e.lineno or 0)}: {e.msg}")
        before = len(checker.problems)
        checker.visit(tree)
        found = checker.problems[before:]
        checker.problems[before:] = [f"{path.name}, block at line {line}: {p}" for p in found]
    assert checker.problems == []
    assert checker.checked > 0, "nothing in the document was checked"


def test_a_wrong_name_in_a_block_is_found():
    checker = Checker()
    checker.visit(
        ast.parse(
            "import perfectplay as pp\n"
            "with pp.tablebase.open('x') as tb:\n"
            "    tb.prob(state)\n"
            "    tb.search(s, table_bit=3)\n"
            "game = pp.load_game('checkers')\n"
            "game.new_initial_state().aply('11-15')\n"
        )
    )
    assert checker.problems == [
        "Tablebase has no attribute prob",
        "Tablebase.search takes no table_bit=",
        "State has no attribute aply",
    ]
