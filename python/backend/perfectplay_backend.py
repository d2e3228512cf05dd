"""The package's PEP 517 build backend: maturin's, plus a second build of the extension for
x86-64-v3 in every x86-64 Linux wheel.

maturin builds one extension module per project. The released `perfectplay._core` targets
x86-64-v2 (SSE4.2 and POPCNT, every x86-64 CPU since 2009) and picks its SIMD kernels at run
time, but code compiled for x86-64-v3 (AVX2, BMI1/2, FMA, LZCNT, MOVBE: Intel from 2013, AMD
from 2015) is a few percent faster: the compiler inlines the AVX2 kernels into their callers
and uses BMI2's shifts in the move generators (BENCHMARKS.md, 2026-11-27 night). So
`build_wheel` runs maturin twice over the same sources:

1. maturin's own build, unchanged: the wheel, its tags and its `perfectplay/_core.abi3.so`;
2. the same build (with the first's options, such as `--features`, from
   `MATURIN_PEP517_ARGS` or the config settings) and `-C target-cpu=x86-64-v3` after any
   `RUSTFLAGS` of the caller's, into its own target directory (`target/x86-64-v3`, so that
   neither build invalidates the other's cache), whose extension joins the first wheel as
   `perfectplay/_core.x86-64-v3.so` (`perfectplay_wheel`).

No import statement can reach the second file (its name holds a dot and dashes): only
`perfectplay/_select_core.py` loads it, under the name `perfectplay._core`, and only on a CPU
with every x86-64-v3 feature. Classes, functions and pickles name the same module whichever
build runs.

The second build passes `--target` explicitly, so that RUSTFLAGS reach only the extension and
not build scripts or procedural macros: those run on the build machine, which need not have
x86-64-v3 itself.

`PERFECTPLAY_X86_64_V3=0` skips the second build (a baseline-only wheel in about half the
time) and `=1` makes its absence an error; it is skipped anyway off x86-64 Linux (glibc), where
no Rust compiler is on PATH (maturin may fetch one for its own build only), and in editable
installs, whose `build_editable` is maturin's own.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, Mapping, Optional

import maturin
from maturin import (  # noqa: F401  (the PEP 517 hooks maturin answers unchanged)
    build_editable,
    build_sdist,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)
from perfectplay_wheel import (
    add_x86_64_v3,
    build_x86_64_v3,
    compatibility_of,
    shared_maturin_args,
    x86_64_v3_wanted,
)


def build_wheel(
    wheel_directory: str,
    config_settings: Optional[Mapping[str, Any]] = None,
    metadata_directory: Optional[str] = None,
) -> str:
    name = maturin.build_wheel(wheel_directory, config_settings, metadata_directory)
    if x86_64_v3_wanted(name):
        with tempfile.TemporaryDirectory(prefix="perfectplay-x86-64-v3-") as scratch:
            extension = build_x86_64_v3(
                Path(scratch),
                compatibility_of(name),
                shared_maturin_args(maturin.get_maturin_pep517_args(config_settings)),
            )
            add_x86_64_v3(Path(wheel_directory) / name, extension)
    return name
