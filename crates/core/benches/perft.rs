//! Criterion benchmarks of checkers move generation: bulk-counted perft from the start, and
//! move generation on a middlegame position where White must capture.
//!
//! `cargo bench -p perfectplay-core --bench perft`; throughput is in leaf nodes per second.
//! Perft 12 itself (2-3 s a run) is timed by `perfectplay perft checkers --depth 12`.

// criterion's macros generate public functions without docs.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use perfectplay_core::checkers::{Checkers, CheckersMoveList, CheckersPosition};
use perfectplay_core::{perft, Game};

fn perft_from_start(c: &mut Criterion) {
    let game = Checkers::default();
    let start = game.start_position();
    let mut group = c.benchmark_group("checkers_perft");
    group.sample_size(10);
    for depth in [8u32, 10] {
        let leaves = perft(&game, &start, depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("start_depth_{depth}"), |b| {
            b.iter(|| perft(&game, black_box(&start), black_box(depth)))
        });
    }
    group.finish();
}

fn generation(c: &mut Criterion) {
    let pos: CheckersPosition = "W:W14,15,22,23,25,27,K2:B5,6,9,10,12,18,19,K30"
        .parse()
        .expect("valid FEN");
    let mut group = c.benchmark_group("checkers_movegen");
    group.throughput(Throughput::Elements(1));
    group.bench_function("generate_middlegame", |b| {
        b.iter(|| {
            let mut moves = CheckersMoveList::new();
            black_box(&pos).generate_moves_into(&mut moves);
            moves.len()
        })
    });
    group.bench_function("count_middlegame", |b| {
        b.iter(|| black_box(&pos).count_moves())
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default();
    targets = perft_from_start, generation
}
criterion_main!(benches);
