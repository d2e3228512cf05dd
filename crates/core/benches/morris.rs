//! Criterion benchmarks of the morris engine: bulk-counted perft from the empty Nine Men's
//! Morris board, random playouts (games played to the end with uniformly random turns), and
//! the end-of-game test of Twelve Men's Morris positions holding a no-re-forming memory (the
//! retrograde solver's first pass asks it of every position).
//!
//! `cargo bench -p perfectplay-core --bench morris`.

// criterion's macros generate public functions without docs.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use perfectplay_core::morris::{Barrier, Morris, MorrisPosition};
use perfectplay_core::{perft, Bitboard, Color, Game, GameState, SplitMix64};

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

/// Moving-phase Twelve Men's Morris positions, `men` a side (the side to move first), whose side
/// to move holds a memory: its man next to `point`, an empty point of a mill whose other points
/// it holds.
fn positions_with_a_memory(game: &Morris, men: [usize; 2], n: usize) -> Vec<MorrisPosition> {
    let board = game.board();
    let mut rng = SplitMix64::new(0x6d65_6d6f);
    let mut below = |k: usize| rng.below(k).unwrap_or(0);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let us = if below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mill = board.mills()[below(board.mills().len())];
        let line: Vec<u8> = Bitboard(mill).indices().collect();
        let point = line[below(3)];
        let steps: Vec<u8> = board.neighbours(point).indices().collect();
        let man = steps[below(steps.len())];
        let mut sides = [Bitboard(0); 2];
        sides[us.index()] = Bitboard(mill).without(Bitboard::from_index(point));
        sides[us.index()] |= Bitboard::from_index(man);
        let mut taken = sides[0] | sides[1] | Bitboard::from_index(point);
        for (side, &count) in [us, !us].iter().zip(&men) {
            while (sides[side.index()].count() as usize) < count {
                let q = below(24) as u8;
                if !taken.contains_index(q) {
                    taken |= Bitboard::from_index(q);
                    sides[side.index()] |= Bitboard::from_index(q);
                }
            }
        }
        let (white, black) = (sides[Color::White.index()], sides[Color::Black.index()]);
        let mut pos = MorrisPosition::from_parts_unchecked(white, black, 0, 0, us);
        pos.set_barrier(us, Some(Barrier { man, point }));
        out.push(pos);
    }
    out
}

fn morris_outcome_with_a_memory(c: &mut Criterion) {
    let game = Morris::preset("twelve_mens_morris").expect("a preset");
    let mut group = c.benchmark_group("twelve_mens_morris_outcome");
    for men in [[5, 11], [11, 5], [8, 8]] {
        let positions = positions_with_a_memory(&game, men, 4096);
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function(format!("memory_{}_{}", men[0], men[1]), |b| {
            b.iter(|| {
                positions
                    .iter()
                    .filter(|p| game.outcome(black_box(p)).is_some())
                    .count()
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default();
    targets = morris_perft, morris_playouts, morris_outcome_with_a_memory
}
criterion_main!(benches);
