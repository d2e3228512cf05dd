"""How the cluster driver stops (perfectplay.cluster): what it cancels, kills and raises when a
unit fails, when it is stopped during the submissions, and when a kill is slow to take, against
a stand-in for Ray's task calls, so that each order of events is exact; the real Ray cluster's
stops are in test_cluster.py."""

import os
import pickle
import signal

import pytest

pytest.importorskip("ray")

import perfectplay.cluster as ppc  # noqa: E402

GRACE = 77.0


class FakeRay:
    """Ray's `wait`, `get` and `cancel` over refs that are plain names, and a clock that only
    a `wait` which times out moves on. A ref is over once it is in `over`; `get` raises what
    `fails` holds for it. A ref in `stubborn` ends only at its second force-cancel; one in
    `saves` ends at a cancel without force (the unit saved), one in `deaf` too but only at the
    second (the first came before the task listened)."""

    def __init__(self):
        self.now = 0.0
        self.over = set()
        self.fails = {}
        self.stubborn = set()
        self.saves = set()
        self.deaf = set()
        self.cancels = []
        self.interrupt_grace_wait = False

    def monotonic(self):
        return self.now

    def wait(self, refs, num_returns=1, timeout=None):
        if timeout == ppc._ASK_AGAIN_SECONDS and self.interrupt_grace_wait:
            self.interrupt_grace_wait = False
            raise KeyboardInterrupt
        ready = [r for r in refs if r in self.over][:num_returns]
        if len(ready) < num_returns and timeout is not None:
            self.now += timeout
        return ready, [r for r in refs if r not in ready]

    def get(self, ref):
        if ref in self.fails:
            raise self.fails[ref]
        return {}

    def cancel(self, ref, force=False):
        self.cancels.append((ref, force))
        forced = sum(1 for r, f in self.cancels if r == ref and f)
        asked = sum(1 for r, f in self.cancels if r == ref and not f)
        if force and (ref not in self.stubborn or forced >= 2):
            self.over.add(ref)
        if not force and (ref in self.saves or (ref in self.deaf and asked >= 2)):
            self.over.add(ref)


class FakeTask:
    """`_build_unit_task`: `.options(...).remote(...)` gives the unit's name as its ref; the
    submission numbered `interrupt_at` (from 0) raises KeyboardInterrupt instead."""

    def __init__(self, interrupt_at=None):
        self.interrupt_at = interrupt_at
        self.submitted = []

    def options(self, **options):
        self.name = options["name"]
        return self

    def remote(self, *args):
        if len(self.submitted) == self.interrupt_at:
            raise KeyboardInterrupt
        self.submitted.append(self.name)
        return self.name


def units(n):
    return [
        {"subspaces": [f"u{i}"], "reads": [], "positions": 1, "working_bytes": 1}
        for i in range(n)
    ]


def run(n):
    return ppc._run(
        None,
        "out",
        units(n),
        cpus_per_task=1,
        wdl_only=False,
        unit_distances=False,
        compress=False,
        checkpoint_minutes=None,
        max_retries=0,
        progress=False,
        stop_grace_seconds=GRACE,
    )


@pytest.fixture
def fake(monkeypatch):
    fake_ray = FakeRay()
    monkeypatch.setattr(ppc, "ray", fake_ray)
    monkeypatch.setattr(ppc, "time", fake_ray)
    return fake_ray


def test_a_failed_unit_is_what_is_raised_even_if_the_wait_for_the_others_is_cut_short(
    fake, monkeypatch, capsys
):
    task = FakeTask()
    monkeypatch.setattr(ppc, "_build_unit_task", task)
    fake.over.add("perfectplay unit u0")
    fake.fails["perfectplay unit u0"] = RuntimeError("no space left on the disk")
    fake.interrupt_grace_wait = True
    with pytest.raises(RuntimeError, match="no space left"):
        run(2)
    assert "a unit failed (RuntimeError: no space left on the disk)" in capsys.readouterr().err
    # The other unit was asked to save, and killed when the wait was cut short.
    assert fake.cancels == [("perfectplay unit u1", False), ("perfectplay unit u1", True)]


def test_a_stop_during_the_submissions_reaches_the_tasks_already_submitted(fake, monkeypatch):
    task = FakeTask(interrupt_at=2)
    monkeypatch.setattr(ppc, "_build_unit_task", task)
    fake.saves.update(f"perfectplay unit u{i}" for i in range(4))
    with pytest.raises(KeyboardInterrupt):
        run(4)
    assert len(task.submitted) == 2
    # Both saved when asked: none was killed.
    assert sorted(fake.cancels) == sorted((name, False) for name in task.submitted)


def test_a_kill_is_asked_for_again_until_the_task_has_ended(fake):
    fake.stubborn.add("slow")
    ppc._stop(["slow", "quick"], 0)
    # No grace: no cancel without force, and the stubborn task's kill repeated.
    assert fake.cancels == [("slow", True), ("quick", True), ("slow", True)]
    assert fake.over == {"slow", "quick"}


def test_a_cancel_that_came_before_the_task_listened_is_sent_again(fake):
    fake.deaf.add("just started")
    fake.saves.add("saving")
    ppc._stop(["just started", "saving"], GRACE)
    # Both saved within the grace, the one that missed the first cancel at the second: no kill.
    assert fake.cancels == [
        ("just started", False),
        ("saving", False),
        ("just started", False),
    ]
    assert fake.now == ppc._ASK_AGAIN_SECONDS


def test_a_unit_that_does_not_stop_is_asked_through_the_grace_and_then_killed(fake):
    ppc._stop(["deaf to cancels"], GRACE)
    asks = [force for ref, force in fake.cancels]
    # Asked at 0, 5, ..., 75 s; the wait after the last ends at the grace; then killed.
    assert asks == [False] * 16 + [True]
    assert fake.now == GRACE
    assert fake.over == {"deaf to cancels"}


def test_a_stop_by_sigterm_pickles_and_names_its_signal():
    stopped = pickle.loads(pickle.dumps(ppc._Stopped(signal.SIGTERM)))
    assert isinstance(stopped, KeyboardInterrupt)
    assert stopped.signum == signal.SIGTERM
    assert str(stopped) == "SIGTERM"


def spin_until_a_signal_is_handled():
    # Python runs a signal's handler between two bytecodes of the main thread.
    for _ in range(10_000_000):
        pass


def test_a_second_sigterm_does_not_cut_the_stop_short():
    before = signal.getsignal(signal.SIGTERM)
    saved = False
    with pytest.raises(ppc._Stopped) as stopped:
        with ppc._sigterm_as_interrupt():
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                spin_until_a_signal_is_handled()
                pytest.fail("the first SIGTERM raised nothing")
            except KeyboardInterrupt:
                # The units save here; a second SIGTERM from a supervisor changes nothing.
                os.kill(os.getpid(), signal.SIGTERM)
                spin_until_a_signal_is_handled()
                saved = True
                raise
    assert saved, "the second SIGTERM interrupted the stop"
    assert stopped.value.signum == signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) == before
