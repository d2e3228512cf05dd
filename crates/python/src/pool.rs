//! The threads that step envs: the calling thread and `n - 1` rayon workers.
//!
//! An env step is short (a batch of 1024 morris envs takes about 90 µs on two cores), so
//! what the pool costs per call matters. Run from outside a rayon pool, a parallel loop would
//! wake a worker, put the calling thread to sleep and wake it again at the end; here the
//! calling thread is worker 0 of its own pool and works through the first share of the envs
//! itself while the other workers steal the rest. Each Python thread that steps envs gets its
//! own pool (a thread can belong to one pool only), with as many threads as rayon's global
//! pool would have (`RAYON_NUM_THREADS`, else one per CPU). A process forked from one that
//! has a pool (multiprocessing's `fork`) still steps its envs: the calling thread then does
//! every share itself, as no worker steals them.

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
            // As many threads as rayon's global pool would have (`RAYON_NUM_THREADS`, else
            // one per CPU), without starting that pool.
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
