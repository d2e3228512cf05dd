//! What the probe benches share: positions drawn uniformly over the indices of every table.

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
