"""The x86-64-v3 extension of x86-64 Linux wheels: built with maturin, added to a wheel.

Used by the build backend (`perfectplay_backend.build_wheel`, what `pip install .` runs) and,
as a script, by release jobs that run maturin themselves (scripts/wheel.sh,
.github/workflows/wheels.yml)::

    python python/backend/perfectplay_wheel.py build-x86-64-v3 OUT_DIR [manylinux_2_28]  # only it
    python python/backend/perfectplay_wheel.py add-x86-64-v3 WHEEL [EXTENSION]

Why two builds, and how the package picks one: `perfectplay_backend`'s docstring. This module
needs no maturin to import (the tests use it without); `build_x86_64_v3` runs the `maturin`
script on PATH (`maturin_command`).
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Optional, Sequence

#: Where the second extension lies in the wheel; `perfectplay/_select_core.py` names it too.
X86_64_V3_MEMBER = "perfectplay/_core.x86-64-v3.so"
#: The extension maturin builds, in every wheel of this package.
BASELINE_MEMBER = "perfectplay/_core.abi3.so"
X86_64_V3_RUSTFLAGS = "-C target-cpu=x86-64-v3"
PROJECT_ROOT = Path(__file__).resolve().parents[2]


class BuildError(RuntimeError):
    """The x86-64-v3 build failed, or a wheel is not one of this package's."""


def x86_64_v3_wanted(wheel_name: str) -> bool:
    """Whether the wheel named gets the x86-64-v3 extension: `PERFECTPLAY_X86_64_V3` (0, 1 or
    auto, the default) and whether it is an x86-64 Linux (glibc) wheel built on one with a
    Rust compiler on PATH (maturin may have fetched one for its own build only)."""
    setting = os.environ.get("PERFECTPLAY_X86_64_V3", "auto")
    if setting not in ("auto", "0", "1"):
        raise BuildError(f"PERFECTPLAY_X86_64_V3 is {setting!r}: use 0, 1 or auto")
    if setting == "0":
        return False
    host = host_triple()
    supported = is_x86_64_linux_gnu(wheel_name) and host == "x86_64-unknown-linux-gnu"
    if not supported:
        why = (
            f"{wheel_name} is not a wheel for x86-64 Linux (glibc) built on one ({host})"
            if host is not None
            else "no Rust compiler (rustc, or $RUSTC) can be run"
        )
        if setting == "1":
            raise BuildError(f"PERFECTPLAY_X86_64_V3=1, but {why}")
        if host is None and is_x86_64_linux_gnu(wheel_name):
            print(f"perfectplay: no x86-64-v3 build: {why}", file=sys.stderr)
    return supported


def platform_tags(wheel_name: str) -> list[str]:
    """A wheel's platform tags, from its file name (`manylinux_2_17_x86_64.manylinux2014_x86_64`
    is two)."""
    return Path(wheel_name).stem.split("-")[-1].split(".")


def is_x86_64_linux_gnu(wheel_name: str) -> bool:
    """Whether a wheel's platform tag is x86-64 Linux with glibc (linux_ or manylinux_)."""
    return all(
        tag.endswith("_x86_64") and (tag.startswith("linux_") or tag.startswith("manylinux"))
        for tag in platform_tags(wheel_name)
    )


def host_triple() -> Optional[str]:
    """The Rust compiler's host triple, or None if there is no compiler to run."""
    try:
        output = subprocess.run(
            [os.environ.get("RUSTC", "rustc"), "-vV"], check=True, capture_output=True, text=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    for line in output.splitlines():
        if line.startswith("host: "):
            return line.removeprefix("host: ").strip()
    return None


def maturin_command() -> list[str]:
    """How to run maturin: the `maturin` script on PATH, as maturin's own backend runs it (pip
    puts build requirements' scripts on PATH in a prefix that `python -m maturin`, which looks
    for its script in the interpreter's own install paths, does not search)."""
    script = shutil.which("maturin")
    return [script] if script is not None else [sys.executable, "-m", "maturin"]


#: maturin options that the second build sets itself (each followed by a value).
OWN_OPTIONS = ("--target", "-i", "--interpreter", "--compatibility", "--manylinux", "--out", "-o")


def shared_maturin_args(args: Sequence[str]) -> list[str]:
    """The options of the first build (`MATURIN_PEP517_ARGS` or config settings) that the
    second must share (features, profile, ...): all but those naming the target, interpreter,
    compatibility and output, which it sets itself."""
    kept: list[str] = []
    skip_value = False
    for arg in args:
        if skip_value:
            skip_value = False
        elif arg in OWN_OPTIONS:
            skip_value = True
        elif not arg.startswith(tuple(option + "=" for option in OWN_OPTIONS)):
            kept.append(arg)
    return kept


def compatibility_of(wheel_name: str) -> str:
    """maturin's `--compatibility` for a wheel's platform tag: `manylinux_2_35` for
    `..._manylinux_2_35_x86_64.whl`, so that maturin checks the second extension's symbols
    against the level the wheel claims; `off` for a plain `linux_x86_64` wheel."""
    tag = platform_tags(wheel_name)[0]
    return tag.removesuffix("_x86_64") if tag.startswith("manylinux") else "off"


def build_x86_64_v3(
    out_dir: Path, compatibility: str = "off", maturin_args: Sequence[str] = ()
) -> Path:
    """Builds the extension for x86-64-v3 with maturin and returns its path under `out_dir`.

    `compatibility` is maturin's `--compatibility` (`compatibility_of` the wheel it joins);
    `maturin_args`, more options for maturin (`shared_maturin_args` of the first build's).
    """
    out_dir = Path(out_dir).resolve()
    package = PROJECT_ROOT / "python" / "perfectplay"
    if out_dir == package or package in out_dir.parents:
        # A file there would be loaded by the source tree's package long after a later
        # `maturin develop` had rebuilt the baseline beside it.
        raise BuildError(f"{out_dir} is inside the package's sources: build elsewhere")
    host = host_triple()
    if host is None:
        raise BuildError("no Rust compiler (rustc, or $RUSTC) can be run")
    out_dir.mkdir(parents=True, exist_ok=True)
    wheels = out_dir / "wheel"
    env = dict(os.environ)
    # After the caller's flags, so that this target CPU is the one in force.
    env["RUSTFLAGS"] = f"{env.get('RUSTFLAGS', '')} {X86_64_V3_RUSTFLAGS}".strip()
    env.pop("CARGO_ENCODED_RUSTFLAGS", None)
    target_dir = Path(env.get("CARGO_TARGET_DIR", PROJECT_ROOT / "target"))
    env["CARGO_TARGET_DIR"] = str(target_dir / "x86-64-v3")
    command = [
        *maturin_command(), "build", "--release",
        "--target", host,
        "--interpreter", sys.executable,
        "--compatibility", compatibility,
        "--out", str(wheels),
        *maturin_args,
    ]  # fmt: skip
    print(f"perfectplay: RUSTFLAGS={env['RUSTFLAGS']!r} {' '.join(command)}", file=sys.stderr)
    # All of maturin's output to stderr: `build-x86-64-v3` prints only the extension's path.
    result = subprocess.run(command, cwd=PROJECT_ROOT, env=env, stdout=sys.stderr)
    if result.returncode != 0:
        raise BuildError(f"the x86-64-v3 build failed (exit status {result.returncode})")
    built = sorted(wheels.glob("perfectplay-*.whl"))
    if len(built) != 1:
        raise BuildError(f"expected one wheel from the x86-64-v3 build in {wheels}, found {built}")
    extension = out_dir / Path(X86_64_V3_MEMBER).name
    with zipfile.ZipFile(built[0]) as wheel:
        with wheel.open(BASELINE_MEMBER) as source, open(extension, "wb") as target:
            shutil.copyfileobj(source, target)
    extension.chmod(0o755)
    return extension


def add_x86_64_v3(wheel_path: Path, extension: Path) -> None:
    """Writes `extension` into the wheel as `X86_64_V3_MEMBER`, with its line in RECORD.

    The wheel is rewritten beside itself and moved into place, so an interrupted call leaves
    the original wheel intact.
    """
    wheel_path = Path(wheel_path)
    if not is_x86_64_linux_gnu(wheel_path.name):
        raise BuildError(f"{wheel_path.name} is not a wheel for x86-64 Linux (glibc)")
    data = Path(extension).read_bytes()
    partial = wheel_path.with_name(wheel_path.name + ".partial")
    try:
        _rewrite_with(wheel_path, partial, data)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    os.replace(partial, wheel_path)


def _rewrite_with(wheel_path: Path, partial: Path, data: bytes) -> None:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    with zipfile.ZipFile(wheel_path) as source:
        names = source.namelist()
        if BASELINE_MEMBER not in names:
            raise BuildError(f"{wheel_path} has no {BASELINE_MEMBER}: not a perfectplay wheel")
        records = [n for n in names if n.endswith(".dist-info/RECORD")]
        if len(records) != 1:
            raise BuildError(f"{wheel_path} has {len(records)} RECORD files, expected one")
        record_name = records[0]
        baseline = source.getinfo(BASELINE_MEMBER)
        with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as target:
            member = zipfile.ZipInfo(X86_64_V3_MEMBER, date_time=baseline.date_time)
            member.external_attr = baseline.external_attr
            member.compress_type = zipfile.ZIP_DEFLATED
            added = False
            for info in source.infolist():
                if info.filename in (X86_64_V3_MEMBER, record_name):
                    continue
                # The package's files first and the .dist-info folder last, as PEP 427 asks.
                if not added and ".dist-info/" in info.filename:
                    target.writestr(member, data)
                    added = True
                target.writestr(info, source.read(info.filename))
            if not added:
                target.writestr(member, data)
            # RECORD lists every file but itself with its hash; its own line stays last.
            lines = [
                line
                for line in source.read(record_name).decode().splitlines()
                if line and not line.startswith((X86_64_V3_MEMBER + ",", record_name + ","))
            ]
            lines += [f"{X86_64_V3_MEMBER},sha256={digest},{len(data)}", f"{record_name},,"]
            target.writestr(source.getinfo(record_name), "\n".join(lines) + "\n")


def _main(argv: list[str]) -> int:
    usage = (
        "usage: perfectplay_wheel.py build-x86-64-v3 OUT_DIR [COMPATIBILITY]\n"
        "       perfectplay_wheel.py add-x86-64-v3 WHEEL [EXTENSION]"
    )
    if len(argv) in (2, 3) and argv[0] == "build-x86-64-v3":
        print(build_x86_64_v3(Path(argv[1]), *argv[2:]))
        return 0
    if len(argv) in (2, 3) and argv[0] == "add-x86-64-v3":
        wheel = Path(argv[1])
        if len(argv) == 3:
            add_x86_64_v3(wheel, Path(argv[2]))
        else:
            with tempfile.TemporaryDirectory(prefix="perfectplay-x86-64-v3-") as scratch:
                add_x86_64_v3(wheel, build_x86_64_v3(Path(scratch), compatibility_of(wheel.name)))
        print(f"{wheel}: {X86_64_V3_MEMBER} added")
        return 0
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    try:
        sys.exit(_main(sys.argv[1:]))
    except BuildError as error:
        print(f"perfectplay_wheel: {error}", file=sys.stderr)
        sys.exit(1)
