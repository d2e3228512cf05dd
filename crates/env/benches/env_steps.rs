//! Criterion benchmarks of the batched environment from Rust: env steps per second of
//! self-play with uniformly random legal actions (`sample`, `check`, `step`, as Python's
//! `env.step(env.sample_legal_actions())` loop does), for checkers and Nine Men's Morris at
//! 1024 and 4096 envs, on the environment's thread pool.
//!
//! `cargo bench -p perfectplay-env --bench env_steps`; throughput is in env steps per second.
//! The Python figures against OpenSpiel are `bench/python_vs_openspiel.py`.

// criterion's macros generate public functions without docs.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use perfectplay_core::registry::AnyGame;
use perfectplay_env::{pool, AnyBatch, BatchSpec};

fn self_play(c: &mut Criterion) {
    let mut group = c.benchmark_group("self_play");
    for id in ["checkers", "nine_mens_morris"] {
        let (_, game) = AnyGame::load(id, &[] as &[(&str, &str)]).expect("a known game");
        for num_envs in [1024, 4096] {
            let mut batch = AnyBatch::new(&game, &BatchSpec::self_play(num_envs, 1))
                .expect("a batch that fits");
            let mut owned = batch.owned_buffers();
            let mut actions = vec![0; num_envs];
            batch
                .reset(perfectplay_env::batch::Reseed::Keep, owned.buffers())
                .expect("sized buffers");
            group.throughput(Throughput::Elements(num_envs as u64));
            group.bench_function(BenchmarkId::new(id, num_envs), |b| {
                b.iter(|| {
                    pool::run(|| {
                        batch.sample(&mut actions).expect("one action per env");
                        batch.check(&actions).expect("legal samples");
                        batch
                            .step(&actions, owned.buffers())
                            .expect("sized buffers");
                    });
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, self_play);
criterion_main!(benches);
