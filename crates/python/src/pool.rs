//! The threads that step envs: the calling thread and `n - 1` rayon workers.
//!
//! An env step is short (a batch of 1024 morris envs takes about 150 µs), so what the pool
//! costs per call matters. Run from outside a rayon pool, a parallel loop would wake a worker,
//! put the calling thread to sleep and wake it again at the end, and the work would go to
//! whichever workers happened to be awake; here the calling thread is worker 0 of its own pool
//! and takes the first share of the work itself, so one call wakes at most the other workers
//! and the envs of the first share stay in the calling core's caches from one step to the
//! next. Each Python thread that steps envs gets its own pool (the calling thread can belong
//! to one pool only), as many threads as rayon's global pool has (`RAYON_NUM_THREADS`).

use std::cell::OnceCell;

use rayon::{ThreadPool, ThreadPoolBuilder};

thread_local! {
    /// This thread's pool, or `None` where one could not be built (the thread is already a
    /// rayon worker, or no thread could be started): the work then runs on rayon's global pool.
    static POOL: OnceCell<Option<ThreadPool>> = const { OnceCell::new() };
}

/// Runs `work` in the calling thread's pool, so that rayon's parallel iterators within it
/// share the work between this thread and the pool's workers.
pub(crate) fn run<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    POOL.with(|pool| {
        let pool = pool.get_or_init(|| {
            if rayon::current_thread_index().is_some() {
                return None;
            }
            ThreadPoolBuilder::new()
                .num_threads(rayon::current_num_threads())
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
