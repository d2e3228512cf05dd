//! Envs stepped within [`pool::run_steps`], in a process of its own so that the test's thread
//! owns the env pool: the passes shared with the waiting workers (back to back, and after the
//! workers have stopped waiting) give the rows that one thread gives, and a batch of one chunk
//! is not shared.

use std::time::Duration;

use perfectplay_core::registry::AnyGame;
use perfectplay_env::batch::{OwnedBuffers, Reseed};
use perfectplay_env::{pool, AnyBatch, BatchSpec};

/// The rows after `steps` self-play steps of 700 Nine Men's Morris envs, each step run by
/// `run` (a pause before every fifth when `pauses`).
fn rows_after(steps: usize, pauses: bool, run: impl Fn(&mut (dyn FnMut() + Send))) -> OwnedBuffers {
    rows_of(700, steps, pauses, run)
}

/// [`rows_after`] with `envs` envs.
fn rows_of(
    envs: usize,
    steps: usize,
    pauses: bool,
    run: impl Fn(&mut (dyn FnMut() + Send)),
) -> OwnedBuffers {
    let (_, game) = AnyGame::load("nine_mens_morris", &[] as &[(&str, &str)]).unwrap();
    let mut batch = AnyBatch::new(&game, &BatchSpec::self_play(envs, 5)).unwrap();
    let mut rows = batch.owned_buffers();
    let mut actions = vec![0; envs];
    run(&mut || batch.reset(Reseed::Keep, rows.buffers()).unwrap());
    for step in 0..steps {
        if pauses && step % 5 == 0 {
            // Past the linger: the workers have gone back to rayon's idle loop.
            std::thread::sleep(2 * pool::LINGER + Duration::from_micros(100));
        }
        run(&mut || {
            batch.sample(&mut actions).unwrap();
            batch.check(&actions).unwrap();
            batch.step(&actions, rows.buffers()).unwrap();
        });
    }
    rows
}

#[test]
fn shared_passes_step_the_envs_as_one_thread_does() {
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let alone = rows_after(120, false, |work| one.install(work));
    assert!(alone.terminated.iter().any(|&t| t), "no game ended");
    let few_alone = rows_of(32, 120, false, |work| one.install(work));
    let owner = std::thread::spawn(|| {
        // A batch of one chunk (32 envs) is stepped by the calling thread alone: its passes are
        // not opened to the workers (those of 700 envs below are).
        let opened = pool::passes_opened();
        let few = rows_of(32, 120, false, |work| pool::run_steps(work));
        assert_eq!(pool::passes_opened(), opened, "a one-chunk pass was opened");
        let back_to_back = rows_after(120, false, |work| pool::run_steps(work));
        assert_ne!(pool::passes_opened(), opened, "no pass was opened");
        // Waiting workers took part (a pool of one thread has none).
        assert!(
            rayon::current_num_threads() == 1 || pool::shared_parts() > 0,
            "no pass was shared"
        );
        (
            few,
            back_to_back,
            rows_after(120, true, |work| pool::run_steps(work)),
            // Calls of both kinds in turn: `run` sends the waiting workers back to rayon.
            rows_after(120, false, |work| {
                pool::run(|| ());
                pool::run_steps(work)
            }),
        )
    })
    .join()
    .unwrap();
    assert!(few_alone == owner.0, "one chunk");
    assert!(alone == owner.1, "back to back");
    assert!(alone == owner.2, "with pauses");
    assert!(alone == owner.3, "between calls of run");
}
