//! Criterion benchmarks of the morris engine: bulk-counted perft from the empty Nine Men's
//! Morris board, and random playouts (games played to the end with uniformly random turns).
//!
//! `cargo bench -p perfectplay-core --bench morris`.

// criterion's macros generate public functions without docs.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use perfectplay_core::morris::Morris;
use perfectplay_core::{perft, Game, GameState, SplitMix64};

/// Plays one game with random turns through `GameState` (all rules: repetition, the move rule,
/// the ply limit); returns the plies played.
fn playout<G: Game + Clone>(game: &G, rng: &mut SplitMix64) -> u32 {
    let mut state = GameState::new(game.clone());
    while !state.is_over() {
        let n = game.count_moves(state.position());
        let pick = rng.below(n as usize).unwrap_or(0) as u64;
        let mut chosen = None;
        let mut i = 0;
        game.for_each_move(state.position(), |mv| {
            if i == pick {
                chosen = Some(*mv);
            }
            i += 1;
        });
        state
            .play(&chosen.expect("a game not over has a move"))
            .expect("legal");
    }
    state.ply()
}

fn morris_perft(c: &mut Criterion) {
    let game = Morris::preset("nine_mens_morris").expect("preset");
    let start = game.start_position();
    let mut group = c.benchmark_group("nine_mens_morris_perft");
    group.sample_size(10);
    let leaves = perft(&game, &start, 5);
    group.throughput(Throughput::Elements(leaves));
    group.bench_function("empty_board_depth_5", |b| {
        b.iter(|| perft(&game, black_box(&start), 5))
    });
    group.finish();
}

fn morris_playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_playouts");
    group.sample_size(10);
    for id in [
        "nine_mens_morris",
        "twelve_mens_morris",
        "lasker_morris",
        "three_mens_morris",
    ] {
        let game = Morris::preset(id).expect("preset");
        let mut rng = SplitMix64::new(1);
        let plies: u64 = (0..100).map(|_| u64::from(playout(&game, &mut rng))).sum();
        group.throughput(Throughput::Elements(plies));
        group.bench_function(format!("{id}_100_games"), |b| {
            b.iter(|| {
                let mut rng = SplitMix64::new(1);
                (0..100).map(|_| playout(&game, &mut rng)).sum::<u32>()
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default();
    targets = morris_perft, morris_playouts
}
criterion_main!(benches);
