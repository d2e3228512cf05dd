"""One version in one place: the workspace's, which the crates, the command, the Python package
and the changelog all carry."""

import pathlib
import subprocess
import sys

import pytest
from _helpers import child_cwd

import perfectplay as pp

tomllib = pytest.importorskip("tomllib")  # Python 3.11 and later

ROOT = pathlib.Path(__file__).resolve().parents[2]


def workspace():
    return tomllib.loads((ROOT / "Cargo.toml").read_text())["workspace"]


def test_the_package_and_the_command_print_the_workspace_version():
    version = workspace()["package"]["version"]
    assert pp.__version__ == version
    done = subprocess.run(
        [sys.executable, "-m", "perfectplay", "--version"],
        capture_output=True,
        text=True,
        cwd=child_cwd(),
    )
    assert done.stdout.strip() == f"perfectplay {version}"


def test_every_crate_takes_the_workspace_version():
    for manifest in sorted((ROOT / "crates").glob("*/Cargo.toml")):
        package = tomllib.loads(manifest.read_text())["package"]
        assert package["version"] == {"workspace": True}, manifest
        assert package["rust-version"] == {"workspace": True}, manifest


def test_the_crates_require_each_other_at_the_workspace_version():
    version = workspace()["package"]["version"]
    for name, spec in workspace()["dependencies"].items():
        if name.startswith("perfectplay-"):
            assert spec["version"] == version, name


def test_the_changelog_has_the_version():
    version = workspace()["package"]["version"]
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"## [{version}]" in changelog
