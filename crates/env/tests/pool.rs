//! The env pool's ownership, in a process of its own: the first thread that calls
//! [`pool::run`] owns a pool and steps as its worker 0, back to back or after the workers
//! have stopped lingering; any other thread runs on rayon's global pool.

use std::time::Duration;

use perfectplay_env::pool;
use rayon::prelude::*;

#[test]
fn the_first_caller_steps_as_worker_0_of_its_own_pool_and_others_on_the_global_pool() {
    let calls: Vec<(Option<usize>, usize, u64)> = std::thread::spawn(|| {
        (0..40)
            .map(|i| {
                if i % 4 == 0 {
                    // Past the linger: the workers have gone back to rayon's idle loop.
                    std::thread::sleep(2 * pool::LINGER + Duration::from_micros(100));
                }
                pool::run(|| {
                    let sum = (0..10_000u64).into_par_iter().map(|x| x * x).sum();
                    (
                        rayon::current_thread_index(),
                        rayon::current_num_threads(),
                        sum,
                    )
                })
            })
            .collect()
    })
    .join()
    .unwrap();
    let want: u64 = (0..10_000u64).map(|x| x * x).sum();
    let threads = rayon::current_num_threads();
    for (i, &(me, size, sum)) in calls.iter().enumerate() {
        assert_eq!(me, Some(0), "call {i}: the caller is worker 0 of its pool");
        assert_eq!(
            size, threads,
            "call {i}: as many threads as rayon's global pool"
        );
        assert_eq!(sum, want, "call {i}");
    }
    let other = std::thread::spawn(|| pool::run(rayon::current_thread_index));
    assert_eq!(
        other.join().unwrap(),
        None,
        "another thread is no worker of the owner's pool"
    );
}
