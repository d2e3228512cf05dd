//! A fixed amount of batched self-play, timed: `ENVS` envs of `GAME` (default
//! `nine_mens_morris`) stepped `STEPS` times with their sampled legal actions, byte observations
//! and bit masks (Python's `VectorEnv(obs_dtype="uint8", packed_mask=True)` loop), on the
//! environment's thread pool (`RAYON_NUM_THREADS`).
//!
//! ```text
//! cargo run --release -p perfectplay-env --example fixed_steps -- ENVS STEPS [GAME]
//! ```
//!
//! It prints the rate and a digest of the actions played and of the last step's rows: two
//! builds given the same arguments play the same games (same digest) and so do the same work,
//! which makes this the runner for comparing two builds in alternation, and for profiling one,
//! where criterion's adaptive iteration counts are in the way (`bench/env_ab.sh`). Each step
//! is one call into the pool (sample, check and step together), so the per-call costs of
//! Python's separate calls are not in the figure.

use std::process::ExitCode;
use std::time::Instant;

use perfectplay_core::registry::AnyGame;
use perfectplay_env::batch::{Buffers, Mask, Observations, OwnedBuffers, Reseed};
use perfectplay_env::{pool, AnyBatch, BatchSpec};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(envs), Some(steps)) = (
        args.first()
            .and_then(|a| a.parse::<usize>().ok())
            .filter(|&n| n > 0),
        args.get(1)
            .and_then(|a| a.parse::<usize>().ok())
            .filter(|&n| n > 0),
    ) else {
        eprintln!("usage: fixed_steps ENVS STEPS [GAME] (ENVS and STEPS at least 1)");
        return ExitCode::from(2);
    };
    let id = args.get(2).map_or("nine_mens_morris", String::as_str);
    match run(id, envs, steps) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("fixed_steps: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The rows of a step: byte observations and bit masks, the rest from `owned`.
fn buffers<'a>(owned: &'a mut OwnedBuffers, obs: &'a mut [u8], mask: &'a mut [u8]) -> Buffers<'a> {
    Buffers {
        obs: Observations::Bytes(obs),
        mask: Mask::Bits(mask),
        ..owned.buffers()
    }
}

/// Steps `envs` envs of game `id` `steps` times and prints the rate and the digest.
fn run(id: &str, envs: usize, steps: usize) -> Result<(), String> {
    let (_, game) = AnyGame::load(id, &[] as &[(&str, &str)]).map_err(|e| e.to_string())?;
    let mut batch =
        AnyBatch::new(&game, &BatchSpec::self_play(envs, 1)).map_err(|e| e.to_string())?;
    let mut owned = batch.owned_buffers();
    let (obs_len, actions_len, _) = batch.row_lens();
    let mut obs = vec![0u8; envs * obs_len];
    let mut mask = vec![0u8; envs * actions_len.div_ceil(8)];
    let mut actions = vec![0i64; envs];
    batch
        .reset(Reseed::Keep, buffers(&mut owned, &mut obs, &mut mask))
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    let mut digest = 0u64;
    for _ in 0..steps {
        pool::run_steps(|| -> Result<(), String> {
            batch.sample(&mut actions).map_err(|e| e.to_string())?;
            batch.check(&actions).map_err(|e| e.to_string())?;
            batch
                .step(&actions, buffers(&mut owned, &mut obs, &mut mask))
                .map_err(|e| e.to_string())
        })?;
        digest = digest
            .wrapping_mul(0x100_0000_01b3)
            .wrapping_add(actions.iter().fold(0, |h, &a| h.rotate_left(5) ^ a as u64));
    }
    let seconds = start.elapsed().as_secs_f64();
    for &byte in obs.iter().chain(&mask) {
        digest = digest.wrapping_mul(0x100_0000_01b3) ^ u64::from(byte);
    }
    println!(
        "{id}: {envs} envs x {steps} steps: {:.3} M env steps/s, digest {digest:016x}",
        (envs * steps) as f64 / seconds / 1e6
    );
    Ok(())
}
