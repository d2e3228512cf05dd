//! `Passes`: a pass over the envs shared between the thread that steps them and the workers
//! waiting awake for it, without rayon's job queues.
//!
//! Handed to rayon, a pass of a thousand envs (about 35 µs on two threads) cost about 4 µs more
//! than its work: the caller pushes a job, a worker that has just left its spin finds its
//! queues empty and yields to the kernel, steals the job late, and the caller waits at the end
//! in rayon's idle loop. Here the caller publishes the pass in one word, a waiting worker joins
//! it by incrementing that word, and the caller waits for the workers that joined by spinning
//! on a counter: two cache-line transfers each way.
//!
//! A pass is a task `task(me)` that claims its work piece by piece (`crate::lanes`) and so
//! finishes the whole pass whichever of the threads run it: the caller always runs
//! `task(0)`, and a worker runs `task(me)` only if it joins before the caller has run out of
//! work and closed the pass. A worker that is asleep, busy or never started is simply not
//! waited for.

use std::any::Any;
use std::cell::UnsafeCell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The pass state's bit that says the pass is open to workers.
const OPEN: u64 = 1 << 31;

/// The pass state's bits that count the workers that joined it.
const JOINED: u64 = OPEN - 1;

/// A pass's task with its type erased, to be read by the workers that join it.
#[derive(Clone, Copy)]
struct Task {
    /// The task's closure.
    data: *const (),
    /// Calls the closure at `data` with a thread index.
    call: unsafe fn(*const (), usize),
}

/// Calls the `F` at `data` with `me`.
///
/// # Safety
///
/// `data` points to a live `F`.
unsafe fn call_task<F: Fn(usize)>(data: *const (), me: usize) {
    // SAFETY: the caller's promise.
    unsafe { (*data.cast::<F>())(me) }
}

/// One pass at a time, shared between its caller and the workers waiting for it.
pub(crate) struct Passes {
    /// `epoch << 32 | OPEN (while open) | workers joined`: the epoch counts the passes, so that
    /// a worker joins each at most once.
    state: AtomicU64,
    /// The workers that joined the current pass and have finished their part.
    finished: AtomicU32,
    /// The first panic of a worker's part of the current pass, raised by the caller.
    panicked: Mutex<Option<Box<dyn Any + Send>>>,
    /// The workers' parts run so far, in every pass.
    worker_parts: AtomicU64,
    /// Whether a pass is being shared (by one caller at a time).
    busy: AtomicBool,
    /// The current pass's task: written by its caller before the pass opens, read by the workers
    /// that join it, never written while one of those may read it.
    task: UnsafeCell<Task>,
}

// SAFETY: `task` is the one field without its own synchronisation. Its caller writes it only
// while holding `busy` and before opening the pass (a release store of `state`); a worker reads it
// only after joining an open pass (an acquire compare-exchange of `state`), and the caller
// writes it again only after closing that pass and seeing every joined worker finish (acquire
// loads of `finished`, which each worker increments with release once it is done with the
// task). The pointer it holds is to a closure that is `Sync` (`share`'s bound), alive until
// the caller has seen every joined worker finish.
unsafe impl Sync for Passes {}

/// How long a caller spins for the workers still in their parts before it yields its thread,
/// and how long it yields before it sleeps between looks: a joined worker ends within the chunk
/// of work it claimed last, microseconds away, unless the system has put it aside.
const SPIN: Duration = Duration::from_micros(50);
const YIELD: Duration = Duration::from_millis(1);

impl Passes {
    pub(crate) const fn new() -> Self {
        // A safe function, coerced to the task's `unsafe fn` type: it reads nothing.
        fn nothing(_: *const (), _: usize) {}
        Passes {
            state: AtomicU64::new(0),
            finished: AtomicU32::new(0),
            panicked: Mutex::new(None),
            worker_parts: AtomicU64::new(0),
            busy: AtomicBool::new(false),
            task: UnsafeCell::new(Task {
                data: std::ptr::null(),
                call: nothing,
            }),
        }
    }

    /// Runs `task(0)` on the calling thread and `task(me)` on each worker in [`Passes::wait`]
    /// that joins before the caller's part ends; returns once every part has returned. `task`
    /// must do the whole pass whichever parts run (claiming its work, as `crate::lanes` deals
    /// it). A panic in any part is raised here once every part has ended (the caller's own, else
    /// the first worker's). Another caller sharing a pass meanwhile runs its `task(0)` alone.
    pub(crate) fn share<F: Fn(usize) + Sync>(&self, task: &F) {
        if self.busy.swap(true, Ordering::Acquire) {
            task(0);
            return;
        }
        // SAFETY: this caller holds `busy`, and no worker reads `task`: the last pass is
        // closed and every worker that joined it has finished (the waits below), and none can
        // join until the store that opens this one.
        unsafe {
            *self.task.get() = Task {
                data: std::ptr::from_ref(task).cast(),
                call: call_task::<F>,
            };
        }
        self.finished.store(0, Ordering::Relaxed);
        let epoch = (self.state.load(Ordering::Relaxed) >> 32).wrapping_add(1) & 0xffff_ffff;
        self.state.store(epoch << 32 | OPEN, Ordering::Release);
        let mine = panic::catch_unwind(AssertUnwindSafe(|| task(0)));
        // Closed: a worker that has not joined yet finds no pass; those that did are counted.
        let joined = (self.state.swap(epoch << 32, Ordering::AcqRel) & JOINED) as u32;
        self.wait_for(joined);
        let theirs = self
            .panicked
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        self.busy.store(false, Ordering::Release);
        if let Some(payload) = mine.err().or(theirs) {
            panic::resume_unwind(payload);
        }
    }

    /// Waits until `joined` workers have finished their parts: spinning for [`SPIN`], then
    /// yielding for [`YIELD`], then sleeping between looks (a machine with more busy threads
    /// than cores may have put a worker aside; the caller then stops taking a core from it).
    fn wait_for(&self, joined: u32) {
        let mut start = None;
        let mut spins = 0u32;
        while self.finished.load(Ordering::Acquire) < joined {
            spins = spins.wrapping_add(1);
            if spins < 64 {
                std::hint::spin_loop();
                continue;
            }
            let waited = start.get_or_insert_with(Instant::now).elapsed();
            if waited < SPIN {
                std::hint::spin_loop();
            } else if waited < SPIN + YIELD {
                std::thread::yield_now();
            } else {
                std::thread::sleep(Duration::from_micros(20));
            }
        }
    }

    /// The workers' parts run so far, in every pass of this `Passes`.
    pub(crate) fn worker_parts(&self) -> u64 {
        self.worker_parts.load(Ordering::Relaxed)
    }

    /// The passes opened so far (modulo 2^32): the epoch of the last.
    pub(crate) fn opened(&self) -> u64 {
        self.state.load(Ordering::Relaxed) >> 32
    }

    /// Keeps worker `me` (not 0) awake, joining each pass opened meanwhile, until `stop()` says
    /// so or `limit` has passed since the last pass it ran (or since it began).
    pub(crate) fn wait(&self, me: usize, limit: Duration, stop: impl Fn() -> bool) {
        let mut last_epoch = None;
        let mut idle_since = Instant::now();
        let mut spins = 0u32;
        loop {
            let state = self.state.load(Ordering::Acquire);
            if state & OPEN != 0 && last_epoch != Some(state >> 32) {
                if self
                    .state
                    .compare_exchange_weak(state, state + 1, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok()
                {
                    last_epoch = Some(state >> 32);
                    // SAFETY: this worker joined the open pass (the compare-exchange, acquire,
                    // saw it open), so its caller wrote `task` before opening it and keeps it
                    // and the closure it points to until this worker's `finished` below.
                    let part = panic::catch_unwind(AssertUnwindSafe(|| unsafe {
                        let task = *self.task.get();
                        (task.call)(task.data, me)
                    }));
                    if let Err(payload) = part {
                        let mut first = self.panicked.lock().unwrap_or_else(|e| e.into_inner());
                        first.get_or_insert(payload);
                    }
                    self.worker_parts.fetch_add(1, Ordering::Relaxed);
                    self.finished.fetch_add(1, Ordering::Release);
                    idle_since = Instant::now();
                    spins = 0;
                }
                continue;
            }
            if stop() {
                return;
            }
            std::hint::spin_loop();
            spins = spins.wrapping_add(1);
            if spins.is_multiple_of(64) && idle_since.elapsed() > limit {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lanes::Lanes;
    use std::sync::atomic::AtomicUsize;

    /// Sets its flag when dropped: a failed assertion then stops the waiting workers rather
    /// than leaving the test's scope waiting for their limit.
    struct StopOnDrop<'a>(&'a AtomicBool);

    impl Drop for StopOnDrop<'_> {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }

    /// Waits until `flag` is set, for at most ten seconds (a machine busy with other work may
    /// start a thread late); whether it was set.
    fn until_set(flag: &AtomicBool) -> bool {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !flag.load(Ordering::Acquire) {
            if Instant::now() > deadline {
                return false;
            }
            std::thread::yield_now();
        }
        true
    }

    /// `passes` passes of `chunks` chunks each over `helpers` waiting workers: every chunk of
    /// every pass is done exactly once. With `await_worker`, the caller's part of the first pass
    /// waits for a worker to join it. Returns the workers' parts run.
    fn run_passes(helpers: usize, passes: usize, chunks: usize, await_worker: bool) -> usize {
        let shared = Passes::new();
        let stop = AtomicBool::new(false);
        let worker_joined = AtomicBool::new(false);
        let worker_parts = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            let _stop = StopOnDrop(&stop);
            for me in 1..=helpers {
                let (shared, stop) = (&shared, &stop);
                scope.spawn(move || {
                    shared.wait(me, Duration::from_secs(60), || stop.load(Ordering::Relaxed))
                });
            }
            let mut lanes = Lanes::default();
            for pass in 0..passes {
                lanes.deal(chunks, helpers + 1);
                let done: Vec<AtomicUsize> = (0..chunks).map(|_| AtomicUsize::new(0)).collect();
                let lanes = &lanes;
                shared.share(&|me: usize| {
                    if me != 0 {
                        worker_parts.fetch_add(1, Ordering::Relaxed);
                        worker_joined.store(true, Ordering::Release);
                    } else if await_worker && pass == 0 {
                        assert!(
                            until_set(&worker_joined),
                            "no waiting worker joined the pass"
                        );
                    }
                    while let Some(chunk) = lanes.claim(me) {
                        done[chunk].fetch_add(1, Ordering::Relaxed);
                        std::hint::black_box((0..std::hint::black_box(100)).sum::<u64>());
                    }
                });
                for (chunk, count) in done.iter().enumerate() {
                    assert_eq!(
                        count.load(Ordering::Relaxed),
                        1,
                        "pass {pass}, chunk {chunk}"
                    );
                }
            }
        });
        worker_parts.into_inner()
    }

    #[test]
    fn every_piece_of_every_pass_is_done_once_whoever_joins() {
        assert_eq!(
            run_passes(0, 50, 40, false),
            0,
            "no worker, no worker's part"
        );
        run_passes(1, 2000, 33, false);
        run_passes(3, 500, 7, false);
    }

    #[test]
    fn a_waiting_worker_joins_an_open_pass() {
        assert!(run_passes(1, 20, 100, true) >= 1);
        assert!(run_passes(2, 20, 100, true) >= 1);
    }

    #[test]
    fn a_worker_stops_when_asked_or_after_its_limit() {
        let shared = Passes::new();
        let start = Instant::now();
        shared.wait(1, Duration::from_secs(60), || true);
        assert!(start.elapsed() < Duration::from_secs(30), "asked to stop");
        shared.wait(1, Duration::from_millis(2), || false);
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the limit ends it"
        );
    }

    #[test]
    fn a_panic_in_any_part_reaches_the_caller_after_every_part_has_ended() {
        let shared = Passes::new();
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            let _stop = StopOnDrop(&stop);
            let (shared_ref, stop_ref) = (&shared, &stop);
            scope.spawn(move || {
                shared_ref.wait(1, Duration::from_secs(60), || {
                    stop_ref.load(Ordering::Relaxed)
                })
            });
            // The caller's own part panics while a worker's part still runs: raised once the
            // worker's part has ended. (A first panic in a process can take milliseconds to
            // unwind while the unwinder loads its tables: one here first, so that a raise that
            // did not wait would come well within the worker's sleep.)
            let _ = panic::catch_unwind(|| panic!("warming the unwinder"));
            let began = AtomicBool::new(false);
            let ended = AtomicBool::new(false);
            let caught = panic::catch_unwind(AssertUnwindSafe(|| {
                shared.share(&|me: usize| {
                    if me == 0 {
                        assert!(until_set(&began), "no waiting worker joined the pass");
                        panic!("the caller's part");
                    }
                    began.store(true, Ordering::Release);
                    std::thread::sleep(Duration::from_millis(100));
                    ended.store(true, Ordering::Release);
                })
            }));
            let payload = caught.expect_err("the caller's panic is raised");
            assert_eq!(payload.downcast_ref::<&str>(), Some(&"the caller's part"));
            assert!(
                ended.load(Ordering::Acquire),
                "raised before the worker's part ended"
            );
            // A worker's part panics; the caller's part waits for it to have begun.
            let worker_began = AtomicBool::new(false);
            let caught = panic::catch_unwind(AssertUnwindSafe(|| {
                shared.share(&|me: usize| {
                    if me == 0 {
                        assert!(
                            until_set(&worker_began),
                            "no waiting worker joined the pass"
                        );
                    } else {
                        worker_began.store(true, Ordering::Release);
                        panic!("a worker's part");
                    }
                })
            }));
            let payload = caught.expect_err("the worker's panic is raised in the caller");
            assert_eq!(payload.downcast_ref::<&str>(), Some(&"a worker's part"));
            // The worker survived its panic and takes part again.
            let rejoined = AtomicBool::new(false);
            shared.share(&|me: usize| {
                if me == 0 {
                    assert!(until_set(&rejoined), "the worker did not join again");
                } else {
                    rejoined.store(true, Ordering::Release);
                }
            });
        });
    }
}
