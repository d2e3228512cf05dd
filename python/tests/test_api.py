"""The package's surface: exports, docstrings and type stubs."""

import ast
import inspect
import pathlib

import perfectplay as pp
from perfectplay import _core

STUB = pathlib.Path(pp.__file__).with_name("_core.pyi")


def public_names(obj):
    return [n for n in dir(obj) if not n.startswith("_")]


def test_package_exports():
    assert pp.__version__ == _core.__version__
    assert isinstance(pp.__version__, str) and pp.__version__.count(".") == 2
    for name in pp.__all__:
        assert hasattr(pp, name), name
    for name in public_names(_core):
        assert name in pp.__all__, f"{name} is not exported by perfectplay"
    assert pathlib.Path(pp.__file__).with_name("py.typed").exists()
    for error in [pp.IllegalMoveError, pp.IllegalActionError, pp.InvalidPositionError, pp.UnknownGameError]:
        assert issubclass(error, ValueError)
        assert error.__module__ == "perfectplay"


def test_every_public_name_has_a_docstring():
    missing = []
    for name in public_names(_core) + ["_self_check"]:
        obj = getattr(_core, name)
        if not (inspect.isclass(obj) or callable(obj)):
            continue
        if not (obj.__doc__ or "").strip():
            missing.append(name)
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for attr in public_names(obj):
                if not (getattr(obj, attr).__doc__ or "").strip():
                    missing.append(f"{name}.{attr}")
    assert not missing, f"no docstring: {missing}"


def stub_names():
    tree = ast.parse(STUB.read_text())
    names = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names[node.name] = {
                item.name for item in node.body if isinstance(item, ast.FunctionDef)
            } | {
                item.target.id
                for item in node.body
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
            }
        elif isinstance(node, ast.FunctionDef):
            names[node.name] = set()
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = set()
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    names[target.id] = set()
    return names


def issubclass_safe(obj, base):
    return inspect.isclass(obj) and issubclass(obj, base)


def test_stubs_cover_the_extension():
    stubs = stub_names()
    for name in public_names(_core) + ["__version__", "_self_check"]:
        assert name in stubs, f"{name} missing from _core.pyi"
        obj = getattr(_core, name)
        if inspect.isclass(obj) and not issubclass(obj, BaseException):
            for attr in public_names(obj):
                assert attr in stubs[name], f"{name}.{attr} missing from _core.pyi"
    for name, members in stubs.items():
        if name in {"RuleValue", "StateOrFen", "_Path", "_StrPath"}:  # type aliases
            continue
        assert hasattr(_core, name), f"_core.pyi names {name}, which _core lacks"
        if issubclass_safe(getattr(_core, name), BaseException):
            continue  # attributes such as MissingTableError.subspace live on instances
        for member in members:
            assert hasattr(getattr(_core, name), member), f"_core.pyi names {name}.{member}"
