//! Random probes of Nine Men's Morris databases on one core: the value of positions drawn
//! uniformly from the indices of every table of a directory, tables in the page cache, plain or
//! compressed.
//!
//! `PERFECTPLAY_MORRIS_DB=DIR cargo bench -p perfectplay-solver --bench morris_probe` (without
//! the variable, the 3-3 to 4-4 tables are built into a temporary directory first). The
//! `results_only` benches open the set with `Tablebase::results_only()`.

// criterion's macros generate public functions without docs.
#![allow(missing_docs)]

use std::path::PathBuf;

mod common;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use perfectplay_core::morris::Morris;
use perfectplay_solver::morris::{MorrisDomain, MorrisKey};
use perfectplay_solver::{solve, SolveOptions, Tablebase};

const SAMPLE: usize = 1 << 20;

fn domain() -> MorrisDomain {
    MorrisDomain::new(Morris::preset("nine_mens_morris").expect("a preset")).expect("a domain")
}

fn tables() -> (PathBuf, Option<tempfile::TempDir>) {
    if let Some(dir) = std::env::var_os("PERFECTPLAY_MORRIS_DB") {
        return (PathBuf::from(dir), None);
    }
    let dir = tempfile::tempdir().expect("temporary directory");
    let keys = [MorrisKey::moving(4, 4)];
    solve(domain(), dir.path(), &keys, &SolveOptions::default()).expect("3-3 to 4-4 tables");
    (dir.path().to_owned(), Some(dir))
}

fn morris_probe(c: &mut Criterion) {
    let (dir, _keep) = tables();
    let tb = Tablebase::open(domain(), &dir).expect("morris tables");
    let positions = common::sample(&tb, SAMPLE, |_, pos| pos);
    let results = Tablebase::open(domain(), &dir)
        .expect("morris tables")
        .results_only();
    let mut group = c.benchmark_group("morris_probe");
    group.throughput(Throughput::Elements(SAMPLE as u64));
    group.sample_size(10);
    common::bench_probes(&mut group, "random_positions", &tb, &positions);
    common::bench_probes(&mut group, "results_only", &results, &positions);
    group.finish();
}

criterion_group!(benches, morris_probe);
criterion_main!(benches);
