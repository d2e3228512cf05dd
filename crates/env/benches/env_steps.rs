//! Criterion benchmarks of the batched environment from Rust: env steps per second of
//! self-play with uniformly random legal actions (`sample`, `check`, `step`, as Python's
//! `env.step(env.sample_legal_actions())` loop does), for checkers and Nine Men's Morris at
//! 1024 and 4096 envs, on the environment's thread pool; each with float observations and
//! one value per action in the masks (`self_play`), and with byte observations and bit masks
//! (`self_play_compact`, Python's `VectorEnv(obs_dtype="uint8", packed_mask=True)`).
//!
//! `cargo bench -p perfectplay-env --bench env_steps`; throughput is in env steps per second.
//! `PERFECTPLAY_SIMD=avx2` measures the paths of CPUs without AVX-512, and
//! `PERFECTPLAY_SIMD=portable` the portable ones. The Python figures
//! against OpenSpiel are `bench/python_vs_openspiel.py`.

// criterion's macros generate public functions without docs.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use perfectplay_core::registry::AnyGame;
use perfectplay_env::batch::{Buffers, Mask, Observations, OwnedBuffers, Reseed};
use perfectplay_env::{pool, AnyBatch, BatchSpec};

/// Rows a batch writes into when its rows are compact: byte observations and bit masks.
struct CompactRows {
    obs: Vec<u8>,
    mask: Vec<u8>,
}

/// The buffers of a step: `owned`'s, or with `compact` set, `compact`'s observations and masks.
fn buffers<'a>(owned: &'a mut OwnedBuffers, compact: Option<&'a mut CompactRows>) -> Buffers<'a> {
    let rows = owned.buffers();
    match compact {
        None => rows,
        Some(compact) => Buffers {
            obs: Observations::Bytes(&mut compact.obs),
            mask: Mask::Bits(&mut compact.mask),
            ..rows
        },
    }
}

fn self_play_group(c: &mut Criterion, name: &str, compact: bool) {
    let mut group = c.benchmark_group(name);
    for id in ["checkers", "nine_mens_morris"] {
        let (_, game) = AnyGame::load(id, &[] as &[(&str, &str)]).expect("a known game");
        for num_envs in [1024, 4096] {
            let mut batch = AnyBatch::new(&game, &BatchSpec::self_play(num_envs, 1))
                .expect("a batch that fits");
            let mut owned = batch.owned_buffers();
            let (obs_len, actions_len, _) = batch.row_lens();
            let mut compact_rows = CompactRows {
                obs: vec![0; num_envs * obs_len],
                mask: vec![0; num_envs * actions_len.div_ceil(8)],
            };
            let mut rows = compact.then_some(&mut compact_rows);
            let mut actions = vec![0; num_envs];
            batch
                .reset(Reseed::Keep, buffers(&mut owned, rows.as_deref_mut()))
                .expect("sized buffers");
            group.throughput(Throughput::Elements(num_envs as u64));
            group.bench_function(BenchmarkId::new(id, num_envs), |b| {
                b.iter(|| {
                    pool::run_steps(|| {
                        batch.sample(&mut actions).expect("one action per env");
                        batch.check(&actions).expect("legal samples");
                        batch
                            .step(&actions, buffers(&mut owned, rows.as_deref_mut()))
                            .expect("sized buffers");
                    });
                });
            });
        }
    }
    group.finish();
}

fn self_play(c: &mut Criterion) {
    self_play_group(c, "self_play", false);
}

fn self_play_compact(c: &mut Criterion) {
    self_play_group(c, "self_play_compact", true);
}

criterion_group!(benches, self_play, self_play_compact);
criterion_main!(benches);
