"""The two builds of the compiled extension (x86-64-v2 and x86-64-v3) and how one is chosen.

x86-64 Linux wheels carry `_core.abi3.so` and `_core.x86-64-v3.so`; `perfectplay._select_core`
loads the second where the CPU has x86-64-v3. These tests run both builds in subprocesses and
check that they agree. With `PERFECTPLAY_REQUIRE_X86_64_V3=1` (scripts/python_test.sh sets it on
x86-64 Linux, where the wheel must carry both) a missing second build fails instead of skipping;
a CPU without x86-64-v3 skips them either way.
"""

import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from _helpers import child_cwd, load_checkout_module

import perfectplay as pp
from perfectplay import _select_core

ROOT = Path(__file__).parents[2]
WHEEL_TOOL = ROOT / "python" / "backend" / "perfectplay_wheel.py"

V3_FLAGS = " ".join(sorted(_select_core.X86_64_V3_FLAGS))


def run_with_core(choice, code, *args):
    """Runs `code` in a fresh interpreter with `PERFECTPLAY_CORE=choice`; returns its stdout."""
    env = dict(os.environ, PERFECTPLAY_CORE=choice)
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=child_cwd(),
    )
    if done.returncode != 0:
        raise AssertionError(f"PERFECTPLAY_CORE={choice}: exit {done.returncode}\n{done.stderr}")
    return done.stdout


def import_refused(choice):
    """The error output of `import perfectplay` with `PERFECTPLAY_CORE=choice`, which must fail."""
    env = dict(os.environ, PERFECTPLAY_CORE=choice)
    done = subprocess.run(
        [sys.executable, "-c", "import perfectplay"],
        env=env,
        capture_output=True,
        text=True,
        cwd=child_cwd(),
    )
    assert done.returncode != 0, f"PERFECTPLAY_CORE={choice} was not refused"
    return done.stderr


@pytest.fixture(scope="module")
def both_builds():
    """Skips (or fails, where both are required) unless this install can run both builds."""
    if not _select_core.X86_64_V3_FILE.exists():
        reason = f"this installation has no {_select_core.X86_64_V3_FILE.name} (not a wheel)"
        if os.environ.get("PERFECTPLAY_REQUIRE_X86_64_V3") == "1":
            pytest.fail(f"PERFECTPLAY_REQUIRE_X86_64_V3=1, but {reason}", pytrace=False)
        pytest.skip(reason)
    if not _select_core.cpu_has_x86_64_v3():
        pytest.skip("this CPU lacks x86-64-v3: only the baseline build can run here")


# --- the choice ---------------------------------------------------------------------------


def test_the_core_is_one_module_under_its_public_name():
    assert sys.modules["perfectplay._core"] is pp._core
    assert pp._core.__name__ == "perfectplay._core"
    assert pp.core_target == pp._core._target_cpu
    assert pp.core_target in ("x86-64-v3", "x86-64-v2") or "x86" not in pp.core_target


def test_cpu_flags_are_read_from_the_first_processor():
    lines = [
        "processor\t: 0",
        f"flags\t\t: fpu {V3_FLAGS} avx512f",
        "processor\t: 1",
        "flags\t: fpu",
    ]
    assert _select_core.cpu_flags(lines) == frozenset(["fpu", "avx512f", *V3_FLAGS.split()])
    assert _select_core.cpu_flags(["processor\t: 0", "vendor_id\t: x"]) is None


@pytest.mark.parametrize("missing", ["avx2", "bmi2", "movbe", "abm", "popcnt"])
def test_a_cpu_without_one_x86_64_v3_feature_does_not_qualify(missing):
    flags = _select_core.cpu_flags([f"flags : {V3_FLAGS}".replace(missing, "")])
    assert not _select_core.X86_64_V3_FLAGS <= flags
    assert _select_core.X86_64_V3_FLAGS - flags == {missing}


# rustc's feature names for x86-64-v3 and how /proc/cpuinfo spells each.
RUSTC_TO_CPUINFO = {
    "x87": "fpu", "fxsr": "fxsr", "sse": "sse", "sse2": "sse2", "cmpxchg16b": "cx16",
    "lahfsahf": "lahf_lm", "popcnt": "popcnt", "sse3": "pni", "ssse3": "ssse3",
    "sse4.1": "sse4_1", "sse4.2": "sse4_2", "avx": "avx", "avx2": "avx2", "bmi1": "bmi1",
    "bmi2": "bmi2", "f16c": "f16c", "fma": "fma", "lzcnt": "abm", "movbe": "movbe",
    "xsave": "xsave",
}  # fmt: skip


def test_the_flags_checked_are_every_feature_rustc_enables_for_x86_64_v3():
    rustc = shutil.which("rustc")
    if rustc is None:
        pytest.skip("no rustc here to ask")
    cfg = subprocess.run(
        [rustc, "--print", "cfg", "--target", "x86_64-unknown-linux-gnu", "-C",
         "target-cpu=x86-64-v3"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    features = {
        line.split('"')[1] for line in cfg.splitlines() if line.startswith("target_feature=")
    }
    assert "avx2" in features and "bmi2" in features, cfg
    unknown = features - RUSTC_TO_CPUINFO.keys()
    assert not unknown, f"rustc enables features the check does not know: {sorted(unknown)}"
    unchecked = {RUSTC_TO_CPUINFO[f] for f in features} - _select_core.X86_64_V3_FLAGS
    assert not unchecked, f"/proc/cpuinfo flags not checked before loading: {sorted(unchecked)}"


def test_an_unknown_choice_is_refused_by_name():
    stderr = import_refused("avx9000")
    assert "PERFECTPLAY_CORE is 'avx9000'" in stderr
    assert "auto, baseline, x86-64-v3" in stderr


def test_baseline_runs_the_baseline_build():
    out = run_with_core(
        "baseline", "import perfectplay as pp; print(pp.core_target, pp._core.__file__)"
    )
    target, path = out.split()
    assert Path(path).name.startswith("_core.") and "x86-64-v3" not in Path(path).name
    assert target != "x86-64-v3"


def test_a_cpu_without_x86_64_v3_gets_the_baseline_build_even_with_the_file_there():
    # The choice made by a package whose CPU check reports AVX2 missing: the same
    # `_select_core` module, its check replaced before `perfectplay/__init__` runs it. Asked
    # for x86-64-v3 it says why it cannot run it, whichever CPU runs the test.
    code = """
import importlib.util, sys
location = importlib.util.find_spec("perfectplay").submodule_search_locations[0]
spec = importlib.util.spec_from_file_location("perfectplay._select_core",
                                              location + "/_select_core.py")
select_core = importlib.util.module_from_spec(spec)
spec.loader.exec_module(select_core)
select_core.missing_x86_64_v3_features = lambda: frozenset({"avx2"})
sys.modules["perfectplay._select_core"] = select_core
try:
    import perfectplay as pp
except ImportError as error:
    print("refused:", error)
else:
    print(pp.core_target, pp._core.__file__.rsplit("/", 1)[-1])
"""
    baseline = run_with_core("baseline", "import perfectplay as pp; print(pp.core_target)").strip()
    assert run_with_core("auto", code).split() == [baseline, "_core.abi3.so"]
    refused = run_with_core("x86-64-v3", code)
    if _select_core.X86_64_V3_FILE.exists():
        assert refused.startswith("refused: PERFECTPLAY_CORE=x86-64-v3, but this CPU lacks avx2")
    else:
        assert refused.startswith("refused: PERFECTPLAY_CORE=x86-64-v3, but this installation has")


# --- both builds --------------------------------------------------------------------------

# Stepped envs, a perft count, a small solved table and a probe: a digest of everything.
WORKLOAD = """
import hashlib, json, tempfile
import numpy as np
import perfectplay as pp

digest = hashlib.sha256()
for game in ("checkers", "nine_mens_morris", "twelve_mens_morris"):
    env = pp.VectorEnv(game, 64, seed=5, packed_mask=True, obs_dtype="uint8")
    obs, info = env.reset()
    for _ in range(150):
        obs, rewards, terminated, truncated, info = env.step(env.sample_legal_actions())
        for array in (obs, rewards, terminated, truncated, info["action_mask"]):
            digest.update(np.ascontiguousarray(array).tobytes())
twelve = pp.load_game("twelve_mens_morris")
perft = twelve.perft(twelve.new_initial_state(), 3)
with tempfile.TemporaryDirectory() as tables:
    pp.tablebase.build("three_mens_morris", tables, whole_game=True, progress=False)
    with pp.tablebase.open(tables) as tb:
        probe = tb.probe(pp.load_game("three_mens_morris").new_initial_state())
print(json.dumps({"target": pp.core_target, "file": pp._core.__file__,
                  "digest": digest.hexdigest(), "perft": perft,
                  "probe": [probe.wdl, probe.plies]}))
"""


def test_auto_runs_x86_64_v3_where_the_cpu_has_it(both_builds):
    out = json.loads(run_with_core("auto", WORKLOAD))
    assert out["target"] == "x86-64-v3"
    assert Path(out["file"]).name == "_core.x86-64-v3.so"


def test_both_builds_step_and_solve_alike(both_builds):
    baseline = json.loads(run_with_core("baseline", WORKLOAD))
    v3 = json.loads(run_with_core("x86-64-v3", WORKLOAD))
    assert (baseline["target"], v3["target"]) == ("x86-64-v2", "x86-64-v3")
    assert baseline["digest"] == v3["digest"]
    assert baseline["perft"] == v3["perft"]
    assert baseline["probe"] == v3["probe"] == [1, 9]


def test_pickles_cross_between_builds(both_builds):
    make = (
        "import pickle, sys, perfectplay as pp\n"
        "s = pp.load_game('nine_mens_morris').new_initial_state()\n"
        "[s.apply_action(s.legal_actions()[0]) for _ in range(5)]\n"
        "sys.stdout.write(s.fen() + ' ' + pickle.dumps((pp.load_game('morabaraba'), s)).hex())"
    )
    read = (
        "import pickle, sys, perfectplay as pp\n"
        "game, s = pickle.loads(bytes.fromhex(sys.argv[1]))\n"
        "print(pp.core_target, type(s).__module__, game.id, s.fen())"
    )
    for source, target in (("x86-64-v3", "baseline"), ("baseline", "x86-64-v3")):
        made = run_with_core(source, make)
        fen, dumped = made[: made.rindex(" ")], made[made.rindex(" ") + 1 :]
        out = run_with_core(target, read, dumped).strip().split(maxsplit=3)
        assert out[0] == ("x86-64-v2" if target == "baseline" else "x86-64-v3")
        assert out[1:] == ["perfectplay", "morabaraba", fen]


def test_the_cli_runs_on_either_build(both_builds):
    code = (
        "from perfectplay._core import _cli_main\n"
        "_cli_main(['perfectplay', 'perft', 'checkers', '--depth', '7', '--check'])"
    )
    for choice in ("baseline", "x86-64-v3"):
        assert "matches published count" in run_with_core(choice, code)


# --- the wheel tool -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def wheel_tool():
    return load_checkout_module("perfectplay_wheel", WHEEL_TOOL)


@pytest.mark.parametrize(
    "name, x86_64_linux_gnu, compatibility",
    [
        ("perfectplay-0.1.0-cp39-abi3-manylinux_2_35_x86_64.whl", True, "manylinux_2_35"),
        ("perfectplay-0.1.0-cp39-abi3-linux_x86_64.whl", True, "off"),
        (
            "perfectplay-0.1.0-cp39-abi3-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
            True,
            "manylinux_2_17",
        ),
        ("perfectplay-0.1.0-cp39-abi3-musllinux_1_2_x86_64.whl", False, "off"),
        ("perfectplay-0.1.0-cp39-abi3-manylinux_2_28_aarch64.whl", False, None),
        ("perfectplay-0.1.0-cp39-abi3-macosx_10_12_x86_64.whl", False, "off"),
        ("perfectplay-0.1.0-cp39-abi3-win_amd64.whl", False, "off"),
    ],
)
def test_only_x86_64_glibc_wheels_take_the_second_build(
    wheel_tool, name, x86_64_linux_gnu, compatibility
):
    assert wheel_tool.is_x86_64_linux_gnu(name) is x86_64_linux_gnu
    if x86_64_linux_gnu:
        assert wheel_tool.compatibility_of(name) == compatibility


def fake_wheel(path, members):
    record_lines = []
    with zipfile.ZipFile(path, "w") as wheel:
        for name, data in members.items():
            wheel.writestr(name, data)
            record_lines.append(f"{name},sha256=x,{len(data)}")
        wheel.writestr(
            "perfectplay-0.1.0.dist-info/RECORD",
            "\n".join(record_lines + ["perfectplay-0.1.0.dist-info/RECORD,,"]) + "\n",
        )


def test_the_second_build_joins_the_wheel_with_its_record_line(wheel_tool, tmp_path):
    wheel = tmp_path / "perfectplay-0.1.0-cp39-abi3-manylinux_2_35_x86_64.whl"
    fake_wheel(wheel, {"perfectplay/__init__.py": b"", "perfectplay/_core.abi3.so": b"baseline"})
    extension = tmp_path / "v3.so"
    extension.write_bytes(b"built for x86-64-v3")
    for _ in range(2):  # a second call replaces the file rather than adding a duplicate
        wheel_tool.add_x86_64_v3(wheel, extension)
    with zipfile.ZipFile(wheel) as read:
        names = read.namelist()
        assert names.count("perfectplay/_core.x86-64-v3.so") == 1
        assert read.read("perfectplay/_core.x86-64-v3.so") == b"built for x86-64-v3"
        assert read.read("perfectplay/_core.abi3.so") == b"baseline"
        record = read.read("perfectplay-0.1.0.dist-info/RECORD").decode().splitlines()
    digest = hashlib.sha256(b"built for x86-64-v3").digest()
    expected = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
    assert f"perfectplay/_core.x86-64-v3.so,sha256={expected},19" in record
    assert sum(line.startswith("perfectplay/_core.x86-64-v3.so,") for line in record) == 1
    assert record[-1] == "perfectplay-0.1.0.dist-info/RECORD,,"
    assert not list(tmp_path.glob("*.partial"))


@pytest.mark.parametrize(
    "args, shared",
    [
        ([], []),
        (
            ["--features", "extra", "--profile", "dist"],
            ["--features", "extra", "--profile", "dist"],
        ),
        (
            ["--compatibility", "off", "-F", "x", "--target", "aarch64-unknown-linux-gnu"],
            ["-F", "x"],
        ),
        (["--interpreter=/usr/bin/python3", "--zig", "-i", "py", "--out", "d"], ["--zig"]),
    ],
)
def test_the_second_build_shares_the_first_builds_options_but_its_own_target(
    wheel_tool, args, shared
):
    assert wheel_tool.shared_maturin_args(args) == shared


def test_the_second_build_is_never_written_into_the_package_sources(wheel_tool):
    with pytest.raises(wheel_tool.BuildError, match="inside the package's sources"):
        wheel_tool.build_x86_64_v3(wheel_tool.PROJECT_ROOT / "python" / "perfectplay")


def test_a_wheel_that_is_not_ours_is_refused_and_left_as_it_was(wheel_tool, tmp_path):
    wheel = tmp_path / "other-1.0-py3-none-manylinux_2_35_x86_64.whl"
    fake_wheel(wheel, {"other/__init__.py": b""})
    before = wheel.read_bytes()
    extension = tmp_path / "v3.so"
    extension.write_bytes(b"x")
    with pytest.raises(wheel_tool.BuildError, match="not a perfectplay wheel"):
        wheel_tool.add_x86_64_v3(wheel, extension)
    assert wheel.read_bytes() == before
    assert not list(tmp_path.glob("*.partial"))
    arm = tmp_path / "perfectplay-0.1.0-cp39-abi3-manylinux_2_28_aarch64.whl"
    arm.write_bytes(before)
    with pytest.raises(wheel_tool.BuildError, match="not a wheel for x86-64 Linux"):
        wheel_tool.add_x86_64_v3(arm, extension)
