"""Chooses which build of the compiled extension becomes `perfectplay._core`.

x86-64 Linux wheels carry two builds of the same Rust sources: `_core.abi3.so` for x86-64-v2
and `_core.x86-64-v3.so` for CPUs with AVX2, BMI1/2, FMA, LZCNT and MOVBE (Intel Haswell and
AMD Excavator onwards), which steps environments a few percent faster (BENCHMARKS.md). The
package's `__init__` calls `select()` before anything imports `perfectplay._core`; where the
CPU has every x86-64-v3 feature the second file is loaded under the name `perfectplay._core`,
so every class, function and pickle names the same module whichever build runs. If it cannot
be loaded (a damaged install), `auto` warns and keeps to the baseline.

`PERFECTPLAY_CORE` chooses by hand: `auto` (the default), `baseline` (always `_core.abi3.so`),
or `x86-64-v3` (that build or an ImportError saying why not).

The CPU check reads the kernel's feature flags in /proc/cpuinfo, which it clears for features
the kernel has not enabled (AVX without the OS saving its registers), before the extension is
loaded: code built for x86-64-v3 could not run the check itself on a CPU without it.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import platform
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import FrozenSet, Iterable, Optional

CORE_NAME = "perfectplay._core"
X86_64_V3_FILE = Path(__file__).with_name("_core.x86-64-v3.so")
CHOICES = ("auto", "baseline", "x86-64-v3")

#: What rustc enables for `-C target-cpu=x86-64-v3`, as /proc/cpuinfo spells it: x86-64's
#: fpu, fxsr, sse and sse2; v2's cx16 (CMPXCHG16B), lahf_lm (LAHF/SAHF), popcnt, pni (SSE3),
#: ssse3, sse4_1 and sse4_2; then avx, avx2, bmi1, bmi2, f16c, fma, abm (LZCNT), movbe and
#: xsave. A test checks the list against `rustc --print cfg` where rustc is at hand.
X86_64_V3_FLAGS: FrozenSet[str] = frozenset(
    "fpu fxsr sse sse2 cx16 lahf_lm popcnt pni ssse3 sse4_1 sse4_2 "
    "avx avx2 bmi1 bmi2 f16c fma abm movbe xsave".split()
)


def cpu_flags(cpuinfo: Iterable[str]) -> Optional[FrozenSet[str]]:
    """The feature flags of the first processor in /proc/cpuinfo's lines, or None if none."""
    for line in cpuinfo:
        key, _, value = line.partition(":")
        if key.strip() == "flags":
            return frozenset(value.split())
    return None


def missing_x86_64_v3_features() -> Optional[FrozenSet[str]]:
    """The x86-64-v3 flags this CPU lacks (empty if none), or None off x86-64 Linux."""
    if sys.platform != "linux" or platform.machine() != "x86_64":
        return None
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as cpuinfo:
            flags = cpu_flags(cpuinfo)
    except OSError:
        return None
    return None if flags is None else X86_64_V3_FLAGS - flags


def cpu_has_x86_64_v3() -> bool:
    return missing_x86_64_v3_features() == frozenset()


def _load_x86_64_v3() -> ModuleType:
    loader = importlib.machinery.ExtensionFileLoader(CORE_NAME, str(X86_64_V3_FILE))
    spec = importlib.util.spec_from_file_location(CORE_NAME, X86_64_V3_FILE, loader=loader)
    # Creating the module runs the extension's initialisation, under the name in the spec.
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    sys.modules[CORE_NAME] = module
    # What the import system does for a submodule it loads itself: `perfectplay._core`.
    setattr(sys.modules["perfectplay"], "_core", module)
    return module


def select() -> None:
    """Puts the x86-64-v3 build in `sys.modules` as `perfectplay._core` where it should run."""
    if CORE_NAME in sys.modules:
        return
    choice = os.environ.get("PERFECTPLAY_CORE", "auto")
    if choice not in CHOICES:
        raise ImportError(f"PERFECTPLAY_CORE is {choice!r}; expected one of {', '.join(CHOICES)}")
    if choice == "baseline":
        return
    if choice == "x86-64-v3":
        if not X86_64_V3_FILE.exists():
            raise ImportError(
                f"PERFECTPLAY_CORE=x86-64-v3, but this installation has no {X86_64_V3_FILE.name} "
                "(only x86-64 Linux wheels carry it; `maturin develop` builds the baseline only)"
            )
        missing = missing_x86_64_v3_features()
        if missing is None:
            raise ImportError("PERFECTPLAY_CORE=x86-64-v3, but this is not x86-64 Linux")
        if missing:
            raise ImportError(
                "PERFECTPLAY_CORE=x86-64-v3, but this CPU lacks " + ", ".join(sorted(missing))
            )
        _load_x86_64_v3()
    elif X86_64_V3_FILE.exists() and cpu_has_x86_64_v3():
        try:
            _load_x86_64_v3()
        except ImportError as error:
            warnings.warn(
                f"perfectplay: the x86-64-v3 build could not be loaded ({error}); "
                "using the baseline build",
                RuntimeWarning,
                stacklevel=3,
            )
