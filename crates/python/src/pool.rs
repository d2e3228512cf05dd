//! The threads that step envs: the first Python thread that steps envs and `n - 1` rayon
//! workers of its own.
//!
//! An env step is short (a batch of 1024 morris envs takes about 80 µs on two cores), so what
//! the pool costs per call matters. Run from outside a rayon pool, a parallel loop would wake a
//! worker, put the calling thread to sleep and wake it again at the end; here the calling
//! thread is worker 0 of a pool of its own and steps envs itself, alongside the other workers
//! (how the envs are shared out: [`crate::lanes`]). The pool has as many threads as rayon's
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

use std::cell::OnceCell;
use std::sync::OnceLock;
use std::thread::{self, ThreadId};

use rayon::{ThreadPool, ThreadPoolBuilder};

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
pub(crate) fn run<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    let me = thread::current().id();
    if *OWNER.get_or_init(|| me) != me {
        return work();
    }
    POOL.with(|pool| {
        let pool = pool.get_or_init(|| {
            if rayon::current_thread_index().is_some() {
                return None;
            }
            ThreadPoolBuilder::new()
                .use_current_thread()
                .thread_name(|i| format!("perfectplay-env-{i}"))
                .build()
                .ok()
        });
        match pool {
            Some(pool) => pool.install(work),
            None => work(),
        }
    })
}
