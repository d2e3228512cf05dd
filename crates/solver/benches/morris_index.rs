//! Criterion benchmarks of the morris database index, the solver's innermost work: locating
//! positions (subspace and index, symmetries folded out), unranking indices, and generating the
//! quiet predecessors the retrograde layers unmove, on Nine Men's Morris 7-5 boards; and
//! building the index of a subspace of the 24-point board, which every build and every
//! process that opens tables pays once per subspace.
//!
//! `cargo bench -p perfectplay-solver --bench morris_index`.

// criterion's macros generate public functions without docs.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use perfectplay_core::morris::{Morris, MorrisPosition, BOARD_24};
use perfectplay_core::SplitMix64;
use perfectplay_solver::morris::index::MorrisIndexer;
use perfectplay_solver::morris::{MorrisDomain, MorrisKey};
use perfectplay_solver::Domain;

const SAMPLE: usize = 4096;

fn sample(domain: &MorrisDomain, key: MorrisKey) -> (Vec<u64>, Vec<MorrisPosition>) {
    let mut rng = SplitMix64::new(7);
    let size = domain.size(key);
    let indices: Vec<u64> = (0..SAMPLE).map(|_| rng.next_u64() % size).collect();
    let positions = indices.iter().map(|&i| domain.unrank(key, i)).collect();
    (indices, positions)
}

fn morris_index(c: &mut Criterion) {
    let game = Morris::preset("nine_mens_morris").expect("preset");
    let domain = MorrisDomain::new(game).expect("solvable rules");
    let key: MorrisKey = "7-5".parse().expect("key");
    let (indices, positions) = sample(&domain, key);
    let mut group = c.benchmark_group("nine_mens_morris_7_5");
    group.throughput(Throughput::Elements(SAMPLE as u64));
    group.bench_function("locate", |b| {
        b.iter(|| {
            for pos in &positions {
                black_box(domain.locate(black_box(pos)).ok());
            }
        });
    });
    group.bench_function("unrank", |b| {
        b.iter(|| {
            for &i in &indices {
                black_box(domain.unrank(key, black_box(i)));
            }
        });
    });
    // The layers find their positions in index order, a few in each stretch of indices.
    let start = indices[0].min(domain.size(key) - 64 * SAMPLE as u64);
    let sorted: Vec<u64> = (0..SAMPLE as u64).map(|k| start + 64 * k).collect();
    group.bench_function("unrank_ascending_1_in_64", |b| {
        b.iter(|| {
            for &i in &sorted {
                black_box(domain.unrank(key, black_box(i)));
            }
        });
    });
    group.bench_function("walk", |b| {
        b.iter(|| {
            domain.for_each_position(key, start..start + SAMPLE as u64, |i, pos| {
                black_box((i, pos));
            });
        });
    });
    group.bench_function("quiet_predecessors", |b| {
        b.iter(|| {
            let mut n = 0u32;
            for pos in &positions {
                domain.for_each_quiet_predecessor(pos, |q| {
                    black_box(q);
                    n += 1;
                });
            }
            n
        });
    });
    group.finish();
}

/// A fresh indexer each time, so the shared table of the mover's sets is built too, as on a
/// subspace's first use. The shapes span the mover tables' sizes (3, 5, 8, 9 and 12 men) and
/// the share of symmetric classes, whose kept lists dominate a subspace's own tables.
fn subspace_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("subspace_build_24_points");
    group.sample_size(10);
    for (a, b) in [(3, 3), (5, 5), (9, 9), (8, 9), (12, 12)] {
        group.bench_function(format!("{a}_{b}"), |bench| {
            bench.iter(|| {
                let indexer = MorrisIndexer::new(&BOARD_24);
                black_box(indexer.subspace(black_box(a), black_box(b)).size())
            });
        });
    }
    group.finish();
}

criterion_group!(benches, morris_index, subspace_build);
criterion_main!(benches);
