//! Envs stepped within [`pool::run_steps`], in a process of its own so that the test's thread
//! owns the env pool: the passes shared with the waiting workers (back to back, and after the
//! workers have stopped waiting) give the rows that one thread gives.

use std::time::Duration;

use perfectplay_core::registry::AnyGame;
use perfectplay_env::batch::{OwnedBuffers, Reseed};
use perfectplay_env::{pool, AnyBatch, BatchSpec};

/// The rows after `steps` self-play steps of 700 Nine Men's Morris envs, each step run by
/// `run` (a pause before every fifth when `pauses`).
fn rows_after(steps: usize, pauses: bool, run: impl Fn(&mut (dyn FnMut() + Send))) -> OwnedBuffers {
    let (_, game) = AnyGame::load("nine_mens_morris", &[] as &[(&str, &str)]).unwrap();
    let mut batch = AnyBatch::new(&game, &BatchSpec::self_play(700, 5)).unwrap();
    let mut rows = batch.owned_buffers();
    let mut actions = vec![0; 700];
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
    let owner = std::thread::spawn(|| {
        let back_to_back = rows_after(120, false, |work| pool::run_steps(work));
        // Waiting workers took part (a pool of one thread has none).
        assert!(
            rayon::current_num_threads() == 1 || pool::shared_parts() > 0,
            "no pass was shared"
        );
        (
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
    assert!(alone == owner.0, "back to back");
    assert!(alone == owner.1, "with pauses");
    assert!(alone == owner.2, "between calls of run");
}
