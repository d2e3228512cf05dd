"""Adapts perfectplay's docstrings to the API reference, once the package is loaded.

- Roles such as ``:class:`perfectplay.State` ``, ``:func:`build` `` or ``:meth:`reset` ``
  become links to the object they name, looked up from the docstring's own scope outwards
  (method, class, module), then as a full path, then under ``perfectplay``. A name that
  resolves nowhere stays code.
- Rustdoc's intra-doc links, which the compiled module's docstrings (Rust doc comments, copied
  into ``_core.pyi`` by scripts/stub_docs.py) may hold: ``[`Tablebase::probe`]``,
  ``[`crate::load_game`]``, ``[text][`State::apply`]``, ``[`text`](Tablebase::get)``. The Rust
  path, read as a Python name (``Tablebase.probe``, ``load_game``), becomes a link where it
  resolves as a role's target does, and code (or the plain text) where it does not, as for a
  Rust-only item such as ``[`game_of_tables`]``.
- A paragraph ending in ``::`` introduces a literal block: the block becomes a fenced Python
  code block and the ``::`` a colon.
- The first paragraph is joined into one line, since summary tables show a docstring's first
  line only.
- ``#:`` comments above a module or class attribute become its docstring.
- Special methods without a docstring (``__eq__``, ``__hash__``, ...) are left out;
  ``__init__`` stays, for its signature.
"""

from __future__ import annotations

import re
from typing import Any, Iterator, List, Optional

import griffe

_ROLE = re.compile(r":(?:class|func|meth|data|attr|mod|exc|obj):`~?([A-Za-z_][\w.]*)`")
_PACKAGE = "perfectplay"
# A Rust path as rustdoc links it: an optional disambiguator (`fn@`), `crate::`-style
# prefixes, `::`-separated names, and `()` or `!` for functions and macros.
_RUST_PATH = r"(?:[a-z]+@)?(?:(?:crate|self|super)::)*[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*(?:\(\)|!)?"
# [`path`] alone, or [text][`path`] / [text](`path`) where the path is in backticks or has
# `::` (so that autorefs' own [text][perfectplay.x] and ordinary [text](url) stay as they are).
_RUSTDOC_LINK = re.compile(
    rf"\[`(?P<short>{_RUST_PATH})`\](?![\[(])"
    rf"|\[(?P<text>[^\]\n]+)\]"
    rf"(?:\[(?P<tick1>`?)(?P<ref>{_RUST_PATH})(?P=tick1)\]"
    rf"|\((?P<tick2>`?)(?P<url>{_RUST_PATH})(?P=tick2)\))"
)


def _objects(obj: griffe.Object) -> Iterator[griffe.Object]:
    """``obj`` and every object defined under it (aliases are not followed)."""
    yield obj
    for member in list(obj.members.values()):
        if not member.is_alias:
            yield from _objects(member)


def _found(scope: Any, path: str) -> bool:
    try:
        scope[path]
    except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return False
    return True


def _resolve(obj: griffe.Object, target: str, collection: Any) -> Optional[str]:
    """The path the API reference renders ``target`` under, seen from ``obj``."""
    first = target.split(".", 1)[0]
    scope: Any = obj
    while scope is not None:
        if first in scope.members and _found(scope, target):
            return f"{scope.path}.{target}"
        scope = scope.parent
    for path in (target, f"{_PACKAGE}.{target}"):
        if _found(collection, path):
            return path
    return None


def _python_name(rust_path: str) -> str:
    """``crate::tablebase::Tablebase::probe()`` as ``tablebase.Tablebase.probe``."""
    path = rust_path.split("@", 1)[-1].rstrip("!")
    if path.endswith("()"):
        path = path[:-2]
    parts = path.split("::")
    while parts and parts[0] in ("crate", "self", "super"):
        parts.pop(0)
    return ".".join(parts)


def _rustdoc_links(text: str, obj: griffe.Object, collection: Any) -> str:
    """``text`` with rustdoc's intra-doc links turned into autorefs links, or into code."""

    def replace(match: re.Match) -> str:
        if match.group("short"):
            target = _python_name(match.group("short"))
            path = _resolve(obj, target, collection)
            return f"[`{target}`][{path}]" if path else f"`{target}`"
        path_text = match.group("ref") or match.group("url")
        if not (match.group("tick1") or match.group("tick2")) and "::" not in path_text:
            return match.group(0)
        path = _resolve(obj, _python_name(path_text), collection)
        return f"[{match.group('text')}][{path}]" if path else match.group("text")

    return _RUSTDOC_LINK.sub(replace, text)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _literal_blocks(text: str) -> str:
    """``text`` with each reStructuredText literal block (after ``::``) fenced as Python."""
    lines = text.split("\n")
    out: List[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        i += 1
        if not line.rstrip().endswith("::") or i >= len(lines) or lines[i].strip():
            continue
        start = i
        while start < len(lines) and not lines[start].strip():
            start += 1
        if start >= len(lines) or _indent(lines[start]) <= _indent(line):
            continue
        depth = _indent(lines[start])
        end = start
        while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) >= depth):
            end += 1
        while not lines[end - 1].strip():
            end -= 1
        intro = line.rstrip()[:-2].rstrip()
        out[-1] = intro + ":" if intro.strip() else ""
        pad = " " * _indent(line)
        out.append("")
        out.append(pad + "```python")
        out.extend(pad + body[depth:] if body.strip() else "" for body in lines[start:end])
        out.append(pad + "```")
        i = end
    return "\n".join(out)


def _one_line_summary(text: str) -> str:
    """``text`` with its first paragraph on one line (unless it holds a list or a block)."""
    head, sep, rest = text.partition("\n\n")
    lines = head.split("\n")
    if len(lines) > 1 and not any(
        line.startswith(" ") or line.lstrip().startswith(("-", "*", "```", ">>>"))
        for line in lines
    ):
        head = " ".join(line.strip() for line in lines)
    return head + sep + rest


def _comment_docstring(attr: griffe.Object, lines: List[str]) -> Optional[str]:
    """The ``#:`` comment lines right above the attribute's first line, joined."""
    if attr.lineno is None:
        return None
    found = []
    index = attr.lineno - 2
    while index >= 0 and lines[index].strip().startswith("#:"):
        found.append(lines[index].strip()[2:].strip())
        index -= 1
    return " ".join(reversed(found)) or None


def _is_bare_special(member: Any) -> bool:
    name = member.name
    return (
        name.startswith("__")
        and name.endswith("__")
        and name != "__init__"
        and not member.is_alias
        and not member.is_module
        and member.parent is not None
        and member.parent.is_class
        and member.docstring is None
    )


class Docstrings(griffe.Extension):
    """Applies the adaptations above to every object of a loaded package."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        collection = loader.modules_collection
        for obj in _objects(pkg):
            for name, member in list(obj.members.items()):
                if _is_bare_special(member):
                    del obj.members[name]
            if obj.is_attribute and obj.docstring is None and obj.filepath is not None:
                try:
                    lines = loader.lines_collection[obj.filepath]
                except KeyError:
                    lines = obj.filepath.read_text(encoding="utf-8").splitlines()
                text = _comment_docstring(obj, lines)
                if text:
                    obj.docstring = griffe.Docstring(text, parent=obj)
            if obj.docstring is None:
                continue

            def link(match: re.Match, obj: griffe.Object = obj) -> str:
                target = match.group(1)
                path = _resolve(obj, target, collection)
                return f"[`{target}`][{path}]" if path else f"`{target}`"

            text = _rustdoc_links(obj.docstring.value, obj, collection)
            text = _ROLE.sub(link, text)
            obj.docstring.value = _one_line_summary(_literal_blocks(text))
