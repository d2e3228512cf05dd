"""Builds on a Ray cluster (perfectplay.cluster): a 2-node local cluster, every node bound to
the loopback address, builds the same bytes as a local build, and survives a worker killed in
the middle of a unit."""

import hashlib
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time

import pytest
from _helpers import child_cwd

ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")

import perfectplay as pp  # noqa: E402
import perfectplay.cluster as ppc  # noqa: E402
from perfectplay.schedule import critical_path_order  # noqa: E402


def checksums(directory):
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(pathlib.Path(directory).iterdir())
        if not p.name.startswith(".")
    }


@pytest.fixture(scope="module")
def two_nodes():
    # conftest.py sets RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 before anything imports Ray; if Ray
    # was imported first, the driver would look for the loopback-bound cluster at the
    # machine's routed address and time out, so say so at once.
    from ray._private import ray_constants

    if ray_constants.ENABLE_RAY_CLUSTER:
        pytest.fail(
            "Ray was imported before RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 was set (conftest.py "
            "sets it first): the driver would not find a cluster bound to 127.0.0.1"
        )
    # ray.init installs a SIGTERM handler of its own that outlives ray.shutdown: put back the
    # one before, so that a SIGTERM to the rest of the session is what it was.
    sigterm = signal.getsignal(signal.SIGTERM)
    # A setup that fails part way still shuts down what it started (a head node that fails to
    # start shuts down its own processes in its constructor).
    cluster = None
    try:
        cluster = cluster_utils.Cluster(
            initialize_head=True,
            head_node_args={"num_cpus": 1, "node_ip_address": "127.0.0.1"},
        )
        cluster.add_node(num_cpus=1, node_ip_address="127.0.0.1")
        ray.init(address=cluster.address, log_to_driver=False)
        yield cluster
    finally:
        ray.shutdown()
        if cluster is not None:
            cluster.shutdown()
        signal.signal(signal.SIGTERM, sigterm)


def test_every_node_is_on_the_loopback_address(two_nodes):
    addresses = {node["NodeManagerAddress"] for node in ray.nodes() if node["Alive"]}
    assert addresses == {"127.0.0.1"}
    assert len([node for node in ray.nodes() if node["Alive"]]) == 2


def test_the_plan_reads_only_earlier_units_and_is_submitted_critical_path_first():
    units = ppc.plan("nine_mens_morris", max_men=5)
    assert all(j < i for i, unit in enumerate(units) for j in unit["reads"])
    order = critical_path_order(units)
    assert sorted(order) == list(range(len(units)))
    submitted = set()
    for i in order:
        assert set(units[i]["reads"]) <= submitted
        submitted.add(i)
    # 3-3 heads the longest chain (every unit waits on it); it goes first.
    assert units[order[0]]["subspaces"] == ["3-3"]
    # A WDL-only build holds 2-bit payloads and copies: less memory for every unit.
    wdl = ppc.plan("nine_mens_morris", max_men=5, wdl_only=True)
    assert [u["subspaces"] for u in wdl] == [u["subspaces"] for u in units]
    assert all(w["working_bytes"] < u["working_bytes"] for w, u in zip(wdl, units))
    # Unit distances are written from a byte payload: more than WDL-only, less than distances
    # (the tables read from other units are still copied in 2 bits).
    proven = ppc.plan("nine_mens_morris", max_men=5, wdl_only=True, unit_distances=True)
    assert all(
        w["working_bytes"] < p["working_bytes"] <= u["working_bytes"]
        for w, p, u in zip(wdl, proven, units)
    )
    with pytest.raises(ValueError, match="wdl_only"):
        ppc.plan("nine_mens_morris", max_men=5, unit_distances=True)


def test_wdl_only_tables_with_unit_distances_equal_a_local_build_and_are_proven(
    two_nodes, tmp_path
):
    options = {"max_men": 4, "wdl_only": True, "unit_distances": True, "progress": False}
    local = tmp_path / "local"
    pp.tablebase.build("nine_mens_morris", local, **options)
    ppc.build("nine_mens_morris", tmp_path / "cluster", **options)
    sums = checksums(tmp_path / "cluster")
    assert sums == checksums(local)
    assert sorted(name for name in sums if name.endswith(".ppud")) == [
        "3-3.ppud", "3-4.ppud", "4-3.ppud", "4-4.ppud"
    ]
    assert pp.tablebase.verify(tmp_path / "cluster", unit_distances=True, progress=False).passed


def test_nine_mens_morris_to_4_4_equals_a_local_build(two_nodes, tmp_path):
    local = tmp_path / "local"
    pp.tablebase.build("nine_mens_morris", local, max_men=4, progress=False)
    report = ppc.build("nine_mens_morris", tmp_path / "cluster", max_men=4, progress=False)
    assert checksums(tmp_path / "cluster") == checksums(local)
    assert report.tables == {"3-3": 169626, "3-4": 760398, "4-3": 760398, "4-4": 3225597}
    assert report.solved_positions == report.positions == sum(report.tables.values())
    assert report.units_solved == 3 and report.units_kept == 0
    assert sum(n.units for n in report.nodes) == 3
    assert "4 tables, 4916019 positions" in report.summary()
    # The solver's own figure: the largest unit is 4-4 alone, its cells and its payload.
    assert report.peak_working_bytes == 3 * 3225597


def test_checkers_to_4_pieces_equals_a_local_build_and_a_rerun_keeps_it(two_nodes, tmp_path):
    local = tmp_path / "local"
    pp.tablebase.build("checkers", local, max_pieces=4, progress=False)
    out = tmp_path / "cluster"
    report = ppc.build("checkers", out, max_pieces=4, progress=False)
    assert checksums(out) == checksums(local)
    assert len(report.tables) == 881
    assert len(report.nodes) == 2, "both nodes took units"
    again = ppc.build("checkers", out, max_pieces=4, progress=False)
    assert again.solved_positions == 0 and again.units_kept == again.units_solved + again.units_kept


def test_a_directory_in_use_is_refused(two_nodes, tmp_path):
    with _holding(tmp_path):
        with pytest.raises(pp.TablebaseError, match="build"):
            ppc.build("three_mens_morris", tmp_path, whole_game=True, progress=False)


class _holding:
    """Holds a directory's build lock, as another build would."""

    def __init__(self, directory):
        self.directory = directory

    def __enter__(self):
        from perfectplay._core import _DirectoryClaim

        self.claim = _DirectoryClaim(str(self.directory))
        return self

    def __exit__(self, *exc):
        self.claim.release()


def _descendants(pid):
    """PIDs of the processes below ``pid``, each one's parent read from ``/proc/PID/stat``."""
    children = {}
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):  # the process ended meanwhile
            continue
        children.setdefault(parent, []).append(int(stat.parent.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _unit_workers(subspace):
    """PIDs of this cluster's Ray workers running the unit of ``subspace`` now (Ray titles a
    busy worker by its task's name, ``perfectplay unit 5-3 + 3-5``; the worker of the unit
    before may still hold its title for a moment after writing its tables). Read from
    ``/proc`` itself, which is what ``ps`` reads: a slim image may not have ``ps``.

    Only processes below this one count: ``two_nodes`` starts the raylets as its children
    and each raylet starts its workers, while the workers of another suite's cluster on this
    host, or of one an earlier run left behind (adopted by init), are elsewhere in the tree
    and would be counted, or killed, by their title alone."""
    workers = []
    for pid in _descendants(os.getpid()):
        try:
            cmdline = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:  # the process ended meanwhile
            continue
        title = cmdline.replace(b"\0", b" ").decode(errors="replace")
        if "ray::perfectplay unit" in title and subspace in title.split(
            "ray::perfectplay unit", 1
        )[1].split():
            workers.append(pid)
    return workers


def _build_killing_the_last_units_worker(tmp_path, ready, **options):
    """Builds Nine Men's Morris 5-3 (its last unit, 5-3 + 3-5, takes seconds on one CPU) on
    the cluster, kills the worker of that unit by its PID once ``ready(out)``, and returns the
    cluster's directory, a local build's and the build's report."""
    local = tmp_path / "local"
    request = {"subspaces": ["5-3"], "progress": False}
    pp.tablebase.build("nine_mens_morris", local, **request)
    out = tmp_path / "cluster"
    outcome = {}

    def run():
        try:
            outcome["report"] = ppc.build("nine_mens_morris", out, **request, **options)
        except BaseException as error:  # reported below
            outcome["error"] = error

    driver = threading.Thread(target=run)
    driver.start()
    killed = None
    deadline = time.monotonic() + 120
    while killed is None and time.monotonic() < deadline and driver.is_alive():
        # Once 4-3 is written, the last unit is running.
        if (out / "4-3.ppdb").exists() and ready(out):
            workers = _unit_workers("5-3")
            if workers:
                killed = workers[0]
                os.kill(killed, signal.SIGKILL)
        time.sleep(0.02)
    driver.join(timeout=300)
    assert killed is not None, "no worker was found running the last unit when ready"
    assert "error" not in outcome, outcome.get("error")
    return out, local, outcome["report"]


def test_a_worker_killed_in_a_unit_leaves_the_build_byte_identical(two_nodes, tmp_path):
    out, local, report = _build_killing_the_last_units_worker(tmp_path, lambda out: True)
    assert checksums(out) == checksums(local)
    assert not [p for p in out.iterdir() if ".tmp-" in p.name], "no temporary file is left"
    assert report.units_solved == 3


def test_a_worker_killed_after_its_units_checkpoint_is_retried_from_it(two_nodes, tmp_path):
    def saved(out):
        return any(p.name[:3] in ("5-3", "3-5") for p in out.glob("*.ppck"))

    out, local, report = _build_killing_the_last_units_worker(
        tmp_path, saved, checkpoint_minutes=0
    )
    assert checksums(out) == checksums(local), "no checkpoint is left, every table equal"
    assert report.units_resumed == 1
    with pytest.raises(ValueError, match="checkpoint_minutes"):
        ppc.build("nine_mens_morris", out, subspaces=["5-3"], checkpoint_minutes=-5)
    with pytest.raises(ValueError, match="stop_grace_seconds"):
        ppc.build("nine_mens_morris", out, subspaces=["5-3"], stop_grace_seconds=-1)


def test_a_driver_killed_and_started_again_resumes_byte_identical(two_nodes, tmp_path):
    local = tmp_path / "local"
    request = ["nine_mens_morris", "--subspace", "5-3", "-q"]
    pp.tablebase.build("nine_mens_morris", local, subspaces=["5-3"], progress=False)
    out = tmp_path / "cluster"
    command = [sys.executable, "-m", "perfectplay.cluster", *request]
    command += ["--out", str(out), "--address", two_nodes.address]
    first = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=child_cwd()
    )
    deadline = time.monotonic() + 120
    while not (out / "4-3.ppdb").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert first.poll() is None, "the driver ended before it was killed"
    assert not (out / "5-3.ppdb").exists(), "killed before the last unit is written"
    first.kill()
    first.wait(timeout=30)
    again = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=child_cwd())
    assert again.returncode == 0, again.stderr
    assert checksums(out) == checksums(local)
    assert not [p for p in out.iterdir() if ".tmp-" in p.name]


@pytest.fixture(scope="module")
def local_6_3(tmp_path_factory):
    """A local build of Nine Men's Morris to 6-3, the reference for the stopped cluster builds."""
    local = tmp_path_factory.mktemp("local-6-3")
    pp.tablebase.build("nine_mens_morris", local, subspaces=["6-3"], progress=False)
    return local


def _cpu_seconds(pid):
    """User and system CPU time of a process so far (0 once it is gone)."""
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_a_driver_stopped_by_a_signal_has_the_running_unit_save_its_state(
    two_nodes, tmp_path, local_6_3, stop
):
    out = tmp_path / "cluster"
    # No periodic save is due for half an hour: a checkpoint is there only because the unit was
    # asked to stop.
    command = [sys.executable, "-m", "perfectplay.cluster", "nine_mens_morris"]
    command += ["--subspace", "6-3", "-q", "--checkpoint-every", "30"]
    command += ["--out", str(out), "--address", two_nodes.address]
    # SIGINT as a terminal leaves it, even where these tests run in the background (which
    # ignores it, and a driver that ignores it rightly goes on).
    first = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=child_cwd(),
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # The last unit (6-3 + 3-6) takes some 15 s of CPU: stop it once its worker has spent a
    # second on it, whatever the machine's speed.
    deadline = time.monotonic() + 180
    while not any(_cpu_seconds(pid) >= 1.0 for pid in _unit_workers("6-3")):
        assert time.monotonic() < deadline and first.poll() is None, first.communicate()
        time.sleep(0.05)
    first.send_signal(stop)
    _, stderr = first.communicate(timeout=180)
    assert first.returncode == 128 + stop, stderr
    assert f"stopped by {stop.name}" in stderr
    left = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
    assert not (out / "6-3.ppdb").exists(), "stopped before the last unit was written"
    assert [name for name in left if name.endswith(".ppck")] in (["3-6.ppck"], ["6-3.ppck"]), left
    # Temporary files are dot files: none is left, the stopped unit's saved or removed.
    assert not [p.name for p in out.iterdir() if ".tmp-" in p.name]
    again = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=child_cwd())
    assert again.returncode == 0, again.stderr
    assert "taken up from checkpoints: 1 units" in again.stdout
    assert checksums(out) == checksums(local_6_3)


def test_the_command_line(two_nodes, tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "perfectplay.cluster", "three_mens_morris"]
        + ["--out", str(tmp_path), "--whole-game", "-q", "--address", two_nodes.address],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=child_cwd(),
    )
    assert done.returncode == 0, done.stderr
    assert "7 tables, 564 positions" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "perfectplay.cluster", "checkers", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=child_cwd(),
    )
    assert bad.returncode == 1 and "max_pieces" in bad.stderr


def test_build_checks_its_task_arguments_before_starting_anything(tmp_path):
    for bad in (1.5, True, "2"):
        with pytest.raises(TypeError, match="cpus_per_task must be an integer"):
            ppc.build("nine_mens_morris", tmp_path, subspaces=["3-3"], cpus_per_task=bad)
    with pytest.raises(TypeError, match="max_retries must be an integer"):
        ppc.build("nine_mens_morris", tmp_path, subspaces=["3-3"], max_retries=2.0)
    # Ray reads -1 as retrying for ever.
    with pytest.raises(ValueError, match="max_retries must be 0 or more"):
        ppc.build("nine_mens_morris", tmp_path, subspaces=["3-3"], max_retries=-1)
    assert not any(tmp_path.iterdir()), "nothing claimed, nothing written"
