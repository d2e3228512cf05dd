//! What the probe benches share: positions drawn uniformly over the indices of every table, and
//! the pair of benches (one probe at a time, one batch) run over them.

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::BenchmarkGroup;
use perfectplay_core::{Game, SplitMix64};
use perfectplay_solver::{Domain, Tablebase};

type Position<D> = <<D as Domain>::Game as Game>::Position;

/// `count` positions that can arise, uniform over the indices of every table of `tb`, each
/// passed through `vary` with its number (to turn some boards, say).
pub(crate) fn sample<D: Domain>(
    tb: &Tablebase<D>,
    count: usize,
    vary: impl Fn(usize, Position<D>) -> Position<D>,
) -> Vec<Position<D>> {
    let tables: Vec<_> = tb
        .available()
        .into_iter()
        .map(|(k, _)| (k, tb.domain().size(k)))
        .collect();
    let total: u64 = tables.iter().map(|&(_, n)| n).sum();
    let mut rng = SplitMix64::new(11);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut r = rng.next_u64() % total;
        let &(key, _) = tables
            .iter()
            .find(|&&(_, n)| {
                let here = r < n;
                if !here {
                    r -= n;
                }
                here
            })
            .expect("r < total");
        let pos = vary(out.len(), tb.domain().unrank(key, r));
        if tb.probe(&pos).is_ok() {
            out.push(pos);
        }
    }
    out
}

/// Benches `name`, probing `positions` in `tb` one at a time, and `name_batched`, probing them
/// in one batch.
pub(crate) fn bench_probes<D: Domain>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    tb: &Tablebase<D>,
    positions: &[Position<D>],
) {
    group.bench_function(name, |b| {
        b.iter(|| {
            for pos in positions {
                black_box(tb.probe(black_box(pos)).ok());
            }
        });
    });
    group.bench_function(format!("{name}_batched"), |b| {
        b.iter(|| black_box(tb.probe_batch(black_box(positions))));
    });
}
