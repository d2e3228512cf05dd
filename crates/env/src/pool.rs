//! The threads that step envs: the first Python thread that steps envs and `n - 1` rayon
//! workers of its own.
//!
//! An env step is short (tens of microseconds for a batch of a thousand envs), so what
//! the pool costs per call matters. Run from outside a rayon pool, a parallel loop would wake a
//! worker, put the calling thread to sleep and wake it again at the end; here the calling
//! thread is worker 0 of a pool of its own and steps envs itself, alongside the other workers
//! (how the envs are shared out: the `lanes` module). The pool has as many threads as rayon's
//! global pool would have (`RAYON_NUM_THREADS`, else one per CPU).
//!
//! Only the first thread that steps envs (Python's main thread, in practice) gets such a pool:
//! rayon never frees the registry of a pool that adopts its calling thread, so one per
//! short-lived thread would leak. Other threads step their envs on rayon's global pool, as
//! fast but for the sleep and wake of the caller at each call.
//!
//! A process forked from one with a pool (multiprocessing's `fork` start method) inherits a
//! pool whose workers did not survive the fork: its calling thread then steps every env itself.
//! That works (tested), but a fork that catches a worker holding one of the pool's locks would
//! leave the child waiting on it forever, as with any threaded library; the `spawn` and
//! `forkserver` start methods avoid the question.
//!
//! Env passes ([`run_steps`]) are shared with the workers by `passes` rather than
//! handed to rayon: between and during such calls the workers wait awake for the next pass
//! (for [`LINGER`] after their last), and join it the moment it opens.

use std::cell::{Cell, OnceCell};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::thread::{self, ThreadId};
use std::time::Duration;

use rayon::{ThreadPool, ThreadPoolBuilder};

use crate::passes::Passes;

/// The thread that owns the pool: the first to step envs.
static OWNER: OnceLock<ThreadId> = OnceLock::new();

thread_local! {
    /// The owner's pool, or `None` where none could be built: the owner is already a rayon
    /// worker (the work then runs in that worker's pool), or a worker thread could not be
    /// started (rayon has then left the owner registered in a pool that was shut down, and it
    /// steps every env itself).
    static POOL: OnceCell<Option<ThreadPool>> = const { OnceCell::new() };
}

/// Runs `work` so that rayon's parallel iterators within it share the work between the calling
/// thread and the workers of its pool (for the owner), or on rayon's global pool (for any
/// other thread).
pub fn run<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    with_pool(|pool| match pool {
        Some(pool) => {
            // Workers waiting for passes go back to rayon, whose queues this work may fill.
            let call = CALLS.fetch_add(1, Ordering::Relaxed) + 1;
            let result = pool.install(|| {
                let _stepping = SteppingAs::set(false);
                work()
            });
            if !FORKED.load(Ordering::Relaxed) {
                for _ in 1..pool.current_num_threads() {
                    spawn_waiter(pool, call);
                }
            }
            result
        }
        None => work(),
    })
}

/// [`run`] for work that steps envs: on the owner's pool, the passes over the envs within
/// `work` are shared with the workers waiting awake for them (`passes`), and the
/// workers go on waiting for the next call's passes for [`LINGER`] after their last (the
/// first call, or one after a pause, sets them waiting again). Other rayon work within `work`
/// runs on the calling thread while the workers wait. Elsewhere it is [`run`].
pub fn run_steps<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    with_pool(|pool| match pool {
        Some(pool) => {
            if !FORKED.load(Ordering::Relaxed) {
                let call = CALLS.load(Ordering::Relaxed);
                let workers = pool.current_num_threads() - 1;
                while WAITERS.load(Ordering::Relaxed) < workers {
                    spawn_waiter(pool, call);
                }
            }
            pool.install(|| {
                let _stepping = SteppingAs::set(true);
                work()
            })
        }
        None => work(),
    })
}

/// Calls `pool(Some(the owner's pool))` on the owner (once it has one), else `pool(None)`.
fn with_pool<R>(pool: impl FnOnce(Option<&ThreadPool>) -> R) -> R {
    let me = thread::current().id();
    if *OWNER.get_or_init(|| me) != me {
        return pool(None);
    }
    POOL.with(|cell| {
        let built = cell.get_or_init(|| {
            if rayon::current_thread_index().is_some() {
                return None;
            }
            watch_for_forks();
            ThreadPoolBuilder::new()
                .use_current_thread()
                .thread_name(|i| format!("perfectplay-env-{i}"))
                .build()
                .ok()
        });
        pool(built.as_ref())
    })
}

/// Shares a pass over the envs with the owner's waiting workers and returns `true`, when called
/// within [`run_steps`] on the owner's pool; else returns `false` and runs nothing. `task(me)`
/// must do the whole pass whichever thread indices run (the caller's is 0).
pub(crate) fn share<F: Fn(usize) + Sync>(task: &F) -> bool {
    if !STEPPING.get() {
        return false;
    }
    PASSES.share(task);
    true
}

thread_local! {
    /// Whether this thread is the owner within [`run_steps`] (and not in a [`run`] within it).
    static STEPPING: Cell<bool> = const { Cell::new(false) };
}

/// Sets [`STEPPING`] while it lives, and puts back the value before it when dropped, also when
/// the work unwinds (a panic that Python turns into an exception leaves the thread in use).
struct SteppingAs {
    before: bool,
}

impl SteppingAs {
    fn set(stepping: bool) -> Self {
        SteppingAs {
            before: STEPPING.replace(stepping),
        }
    }
}

impl Drop for SteppingAs {
    fn drop(&mut self) {
        STEPPING.set(self.before);
    }
}

/// The parts of passes that waiting workers have run so far in this process: for tests that
/// check the passes are shared, not only that their results are right.
#[doc(hidden)]
pub fn shared_parts() -> u64 {
    PASSES.worker_parts()
}

/// The passes opened to the waiting workers so far in this process (modulo 2^32): for tests
/// that check which passes are offered to them.
#[doc(hidden)]
pub fn passes_opened() -> u64 {
    PASSES.opened()
}

/// The passes of [`run_steps`], shared with the owner's workers.
static PASSES: Passes = Passes::new();

/// Jobs queued or running on the owner's workers that wait for passes.
static WAITERS: AtomicUsize = AtomicUsize::new(0);

/// Queues a job on `pool` that keeps a worker waiting for passes until call `call` of [`run`]
/// is followed by another, or for [`LINGER`] after its last pass.
fn spawn_waiter(pool: &ThreadPool, call: u64) {
    WAITERS.fetch_add(1, Ordering::Relaxed);
    pool.spawn(move || {
        linger(call, LINGER);
        WAITERS.fetch_sub(1, Ordering::Relaxed);
    });
}

/// Calls run on the owner's pool so far.
static CALLS: AtomicU64 = AtomicU64::new(0);

/// Whether this process is a child forked from the one that built the owner's pool (set by a
/// fork handler: asking for the process id at each call was a system call per call), or the
/// handler could not be registered (the workers then never linger, which is always correct).
static FORKED: AtomicBool = AtomicBool::new(false);

/// Has a fork mark its child in [`FORKED`]; done once, before the pool is built. The handler
/// runs for forks made through the C library (`os.fork`, multiprocessing's `fork`), the ones
/// a Python process makes.
fn watch_for_forks() {
    #[cfg(unix)]
    {
        extern "C" fn mark_child() {
            FORKED.store(true, Ordering::Relaxed);
        }
        static WATCHING: std::sync::Once = std::sync::Once::new();
        WATCHING.call_once(|| {
            // SAFETY: `pthread_atfork` registers plain function pointers (none before the fork,
            // none in the parent after it); the child's handler stores to a lock-free atomic,
            // which is allowed in a child of a threaded process. Tested by
            // `a_forked_child_is_marked`.
            let status = unsafe { libc::pthread_atfork(None, None, Some(mark_child)) };
            if status != 0 {
                // Unmarked, a child would queue jobs for workers it does not have at every
                // call, without end.
                FORKED.store(true, Ordering::Relaxed);
            }
        });
    }
}

/// How long the workers wait awake for the next call after one ends: a loop that steps a batch
/// as soon as the last step returns comes back within a few microseconds, and a rayon worker
/// left idle that long had often gone to sleep (about one call in eight), to be woken at the next
/// call's start, late, with the caller stepping its envs meanwhile (their rows then moved
/// between the cores and back). A loop that does more between its steps (a policy's forward
/// pass) costs each worker at most this much spinning per step.
pub const LINGER: Duration = Duration::from_micros(50);

/// Keeps a worker awake, taking part in the passes shared meanwhile, until call `call` of [`run`]
/// is followed by another, or for `limit` after its last pass. Returns at once on the caller's
/// thread (worker 0), which may take one of these jobs while it waits for another thread's
/// part of a call.
fn linger(call: u64, limit: Duration) {
    let Some(me) = rayon::current_thread_index().filter(|&me| me != 0) else {
        return;
    };
    PASSES.wait(me, limit, || CALLS.load(Ordering::Relaxed) != call);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(unix)]
    fn a_forked_child_is_marked() {
        watch_for_forks();
        assert!(
            !FORKED.load(Ordering::Relaxed),
            "the parent is not a forked child"
        );
        // SAFETY: the child only reads an atomic and leaves with `_exit`, both allowed after a
        // fork in a threaded process; the parent waits for it.
        unsafe {
            let child = libc::fork();
            assert!(child >= 0, "fork failed");
            if child == 0 {
                libc::_exit(if FORKED.load(Ordering::Relaxed) { 7 } else { 3 });
            }
            let mut status = 0;
            assert_eq!(libc::waitpid(child, &mut status, 0), child);
            assert!(libc::WIFEXITED(status));
            assert_eq!(libc::WEXITSTATUS(status), 7, "the child was not marked");
        }
        assert!(!FORKED.load(Ordering::Relaxed));
    }
}
