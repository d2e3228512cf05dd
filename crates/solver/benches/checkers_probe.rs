//! Random probes of the checkers databases on one core: the value of positions drawn uniformly
//! from every table (half of them with White to move, so that the board is turned), with the
//! tables in the page cache.
//!
//! The tables are those of `PERFECTPLAY_CHECKERS_DB` (the 2-6 piece set:
//! `perfectplay solve checkers --max-pieces 6 --out solver-data/checkers`), else a 2-4 piece
//! set built into a temporary directory first.
//!
//! `PERFECTPLAY_CHECKERS_DB=solver-data/checkers cargo bench -p perfectplay-solver --bench checkers_probe`
//!
//! The same over a compressed set (`perfectplay compress`) measures compressed probes: with
//! distances (the `.ppdd` files) and, in the `results_only` benches, results only.

// criterion's macros generate public functions without docs.
#![allow(missing_docs)]

use std::hint::black_box;
use std::ops::ControlFlow;
use std::path::PathBuf;

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use perfectplay_core::checkers::{Checkers, CheckersPosition};
use perfectplay_core::{Bitboard, Color, Game};
use perfectplay_solver::checkers::CheckersDomain;
use perfectplay_solver::{solve, Domain, SolveOptions, Tablebase, Value};

const SAMPLE: usize = 1 << 20;

fn domain() -> CheckersDomain {
    CheckersDomain::new(Checkers::default())
}

/// The tables to probe, and the temporary directory that holds them if they were built here.
fn tables() -> (PathBuf, Option<tempfile::TempDir>) {
    if let Some(dir) = std::env::var_os("PERFECTPLAY_CHECKERS_DB") {
        return (PathBuf::from(dir), None);
    }
    let dir = tempfile::tempdir().expect("temporary directory");
    let d = domain();
    let targets = d.keys_up_to(4);
    solve(d, dir.path(), &targets, &SolveOptions::default()).expect("2-4 piece tables");
    (dir.path().to_owned(), Some(dir))
}

/// The same position with the other side to move and the board turned: it has the same value.
fn turned(pos: &CheckersPosition) -> CheckersPosition {
    let turn = |b: Bitboard| Bitboard(b.0.reverse_bits());
    CheckersPosition::from_parts(
        turn(pos.pieces(Color::White)),
        turn(pos.pieces(Color::Black)),
        turn(pos.kings(Color::Black) | pos.kings(Color::White)),
        !pos.side_to_move(),
    )
    .expect("a turned position is legal")
}

fn checkers_probe(c: &mut Criterion) {
    let (dir, _keep) = tables();
    let tb = Tablebase::open(domain(), &dir).expect("checkers tables");
    let positions = common::sample(
        &tb,
        SAMPLE,
        |i, pos| if i % 2 == 1 { turned(&pos) } else { pos },
    );
    let mut group = c.benchmark_group("checkers_probe");
    group.throughput(Throughput::Elements(SAMPLE as u64));
    group.sample_size(10);
    common::bench_probes(&mut group, "random_positions", &tb, &positions);
    // The values written into a buffer reused from one batch to the next, as a caller probing
    // many batches would: no vector of results is made.
    let mut values = vec![Value::DRAW; SAMPLE];
    let mut into_buffer = |tb: &Tablebase<CheckersDomain>| {
        tb.probe_batch_with(black_box(&positions), |i, v| {
            if let Ok(v) = v {
                values[i] = v;
            }
            ControlFlow::Continue(())
        })
        .expect("tables unchanged");
        black_box(&values);
    };
    group.bench_function("random_positions_batched_into_buffer", |b| {
        b.iter(|| into_buffer(&tb));
    });
    // Results only: a compressed set's small files (for a plain set, the same tables).
    let results = Tablebase::open(domain(), &dir)
        .expect("checkers tables")
        .results_only();
    common::bench_probes(&mut group, "results_only", &results, &positions);
    // Only positions a compressed set stores (the side to move has no capture): the read
    // alone, without the searches of the positions it leaves out.
    let stored: Vec<CheckersPosition> = positions
        .iter()
        .filter(|p| !p.must_capture())
        .copied()
        .collect();
    group.bench_function("results_only_stored_batched", |b| {
        b.iter(|| black_box(results.probe_batch(black_box(&stored))));
    });
    let resident_results = Tablebase::open(domain(), &dir)
        .expect("checkers tables")
        .results_only();
    resident_results.preload().expect("tables read into memory");
    group.bench_function("results_only_preloaded_batched", |b| {
        b.iter(|| black_box(resident_results.probe_batch(black_box(&positions))));
    });
    drop(resident_results);
    let resident = Tablebase::open(domain(), &dir).expect("checkers tables");
    resident.preload().expect("tables read into memory");
    common::bench_probes(
        &mut group,
        "random_positions_preloaded",
        &resident,
        &positions,
    );
    group.bench_function("random_positions_preloaded_batched_into_buffer", |b| {
        b.iter(|| into_buffer(&resident));
    });
    // Its parts: the end-of-game test, finding the slice and index, finding the table.
    let game = *tb.domain().game();
    group.bench_function("outcome_only", |b| {
        b.iter(|| {
            for pos in &positions {
                black_box(game.outcome(black_box(pos)));
            }
        });
    });
    group.bench_function("locate_only", |b| {
        b.iter(|| {
            for pos in &positions {
                black_box(tb.domain().locate(black_box(pos)).ok());
            }
        });
    });
    let keys: Vec<_> = positions
        .iter()
        .map(|p| tb.domain().locate(p).expect("located").0)
        .collect();
    group.bench_function("table_only", |b| {
        b.iter(|| {
            for &k in &keys {
                black_box(tb.table(black_box(k)).ok());
            }
        });
    });
    group.finish();
}

criterion_group!(benches, checkers_probe);
criterion_main!(benches);
