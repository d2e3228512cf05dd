//! Retrograde analysis of one unit: the subspaces whose positions lead to each other by quiet
//! turns, solved together once everything they lead to by other turns is known.
//!
//! # Method
//!
//! Working memory is two bytes per position: the value byte of the final payload
//! ([`crate::value`]), and a counter.
//!
//! 1. **Initialisation** (one forward pass). Each position generates its turns. Turns that
//!    leave the unit (captures, placements) or end the game are valued at once from the tables
//!    already built; turns that stay in the unit are counted, each successor index once (two
//!    turns reaching symmetric positions count once, as the backward pass finds them once).
//!    A position with a winning exit is marked *won in d* (possibly improved later); one with
//!    a drawing exit cannot lose (counter 255); otherwise the counter holds its successors in
//!    the unit, and a position with none is lost (in 1 + its longest exit) or drawn.
//! 2. **Layers** `d = 0, 1, 2, ...`: every position whose value is final at distance `d` is
//!    unmoved. If it is lost, each predecessor is won in `d + 1` unless it already wins sooner.
//!    If it is won, each undecided predecessor's counter drops; at zero every successor wins,
//!    and the predecessor is lost in one more than its longest successor, recomputed forward
//!    (exits may be longer than `d`). Layers are processed in order with a barrier between
//!    them, so every value written in layer `d` is the same whatever the thread schedule.
//! 3. What is still undecided can only repeat or reach draws: a draw.
//!
//! Distances are exact under optimal play (the winner the shortest way, the loser the
//! longest). With WDL-only dependencies the distances of exits are unknown and read as 0; the
//! results stay exact, and such a unit is written in the WDL-only form.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

use arrayvec::ArrayVec;
use perfectplay_core::Game;
use rayon::prelude::*;

use crate::bytes::{into_bytes, zeroed_atomic};
use crate::domain::Domain;
use crate::error::{ProbeError, SolveError};
use crate::table::Table;
use crate::tablebase::terminal_value;
use crate::value::{Packed, Value, Wdl, MAX_DISTANCE};

/// The counter of a position that cannot lose (it has a drawing exit).
const CANNOT_LOSE: u8 = 255;
/// The most successors in the unit one position may have.
const MAX_INTERNAL: usize = 254;
/// Positions per parallel task.
const CHUNK: u64 = 1 << 14;

/// Progress callbacks, called from worker threads.
pub(crate) trait Observer: Sync {
    /// `n` more positions initialised.
    fn initialised(&self, n: u64);
    /// Layer `d` begins; `max` is the longest distance known so far.
    fn layer(&self, d: u32, max: u32);
}

/// The solved payloads (distance form) of a unit's subspaces, in the unit's order.
pub(crate) struct Solved {
    pub(crate) payloads: Vec<Vec<u8>>,
}

/// One unit being solved.
pub(crate) struct UnitSolver<'a, D: Domain> {
    domain: &'a D,
    keys: &'a [D::Key],
    /// Start of each member in the unit's combined index space, and the total at the end.
    offsets: Vec<u64>,
    /// Tables of the subspaces the unit's exits lead to.
    exits: Vec<(D::Key, Arc<Table>)>,
    values: Vec<AtomicU8>,
    counters: Vec<AtomicU8>,
    max_plies: AtomicU32,
    layer_counts: Vec<AtomicU64>,
    error: Mutex<Option<SolveError>>,
    failed: AtomicBool,
    cancel: Option<&'a AtomicBool>,
}

/// What a position's successors add up to.
#[derive(Default)]
struct Exits {
    /// The shortest win through a successor lost for its mover.
    best_win: Option<u32>,
    /// Whether some successor is drawn.
    draw: bool,
    /// The longest loss through successors won for their movers.
    longest_loss: Option<u32>,
    /// Successors in the unit, as combined indices (initialisation only).
    internal: ArrayVec<u64, MAX_INTERNAL>,
    /// More successors in the unit than the counter holds.
    overflow: bool,
}

impl Exits {
    fn add(&mut self, v: Value) {
        let plies = v.plies.unwrap_or(0) + 1;
        match v.wdl {
            Wdl::Loss => self.best_win = Some(self.best_win.map_or(plies, |b| b.min(plies))),
            Wdl::Draw => self.draw = true,
            Wdl::Win => self.longest_loss = Some(self.longest_loss.map_or(plies, |l| l.max(plies))),
        }
    }
}

type Pos<D> = <<D as Domain>::Game as Game>::Position;

impl<'a, D: Domain> UnitSolver<'a, D> {
    /// A solver for `keys` whose exits lead to `exits`; `cancel` stops it between tasks.
    pub(crate) fn new(
        domain: &'a D,
        keys: &'a [D::Key],
        exits: Vec<(D::Key, Arc<Table>)>,
        cancel: Option<&'a AtomicBool>,
    ) -> UnitSolver<'a, D> {
        let mut offsets = vec![0u64];
        for &k in keys {
            offsets.push(offsets.last().copied().unwrap_or(0) + domain.size(k));
        }
        let total = usize::try_from(*offsets.last().unwrap_or(&0)).expect("unit fits in memory");
        UnitSolver {
            domain,
            keys,
            offsets,
            exits,
            values: zeroed_atomic(total),
            counters: zeroed_atomic(total),
            max_plies: AtomicU32::new(0),
            layer_counts: (0..=MAX_DISTANCE + 1).map(|_| AtomicU64::new(0)).collect(),
            error: Mutex::new(None),
            failed: AtomicBool::new(false),
            cancel,
        }
    }

    /// The bytes of working memory per position at peak: the value and the counter.
    pub(crate) const BYTES_PER_POSITION: u64 = 2;

    fn total(&self) -> u64 {
        *self.offsets.last().unwrap_or(&0)
    }

    fn member_of(&self, g: u64) -> (usize, u64) {
        let m = self.offsets[1..].partition_point(|&end| end <= g);
        (m, g - self.offsets[m])
    }

    fn member(&self, key: D::Key) -> Option<usize> {
        self.keys.iter().position(|&k| k == key)
    }

    fn fail(&self, e: SolveError) {
        self.failed.store(true, Ordering::Relaxed);
        let mut slot = self.error.lock().expect("error lock");
        if slot.is_none() {
            *slot = Some(e);
        }
    }

    fn stopped(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
            || self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }

    fn subspace(&self, g: u64) -> String {
        self.keys[self.member_of(g).0].to_string()
    }

    fn inconsistent(&self, g: u64, detail: impl Into<String>) -> SolveError {
        SolveError::Inconsistent {
            subspace: self.subspace(g),
            detail: detail.into(),
        }
    }

    fn position(&self, g: u64) -> Pos<D> {
        let (m, i) = self.member_of(g);
        self.domain.unrank(self.keys[m], i)
    }

    /// Runs `task` on every chunk of the unit's combined index range in parallel, with a
    /// per-chunk count of the distances written; the first error stops the others.
    fn for_each_chunk<F>(&self, task: F)
    where
        F: Fn(std::ops::Range<u64>, &mut [u64; 256]) -> Result<(), SolveError> + Sync,
    {
        let chunks = self.total().div_ceil(CHUNK);
        (0..chunks).into_par_iter().for_each(|c| {
            if self.stopped() {
                return;
            }
            let start = c * CHUNK;
            let mut local = [0u64; 256];
            match task(start..(start + CHUNK).min(self.total()), &mut local) {
                Ok(()) => self.merge_counts(&local),
                Err(e) => self.fail(e),
            }
        });
    }

    /// Solves the unit.
    pub(crate) fn run(self, observer: &dyn Observer) -> Result<Solved, SolveError> {
        self.for_each_chunk(|range, local| {
            let mut g = range.start;
            while g < range.end {
                let (m, first) = self.member_of(g);
                let stop = range.end.min(self.offsets[m + 1]);
                let mut result = Ok(());
                self.domain
                    .for_each_position(self.keys[m], first..first + (stop - g), |i, pos| {
                        if result.is_ok() {
                            result = self.initialise(m, i, pos, local);
                        }
                    });
                result?;
                g = stop;
            }
            observer.initialised(range.end - range.start);
            Ok(())
        });
        self.check()?;

        let mut d = 0u32;
        while d <= self.max_plies.load(Ordering::Relaxed) {
            if self.layer_counts[d as usize].load(Ordering::Relaxed) > 0 {
                observer.layer(d, self.max_plies.load(Ordering::Relaxed));
                self.layer(d);
                self.check()?;
            }
            d += 1;
        }

        let UnitSolver {
            values, offsets, ..
        } = self;
        let mut bytes = into_bytes(values);
        let mut payloads = Vec::with_capacity(offsets.len() - 1);
        for w in offsets.windows(2).rev() {
            let tail = bytes.split_off(usize::try_from(w[0]).expect("fits"));
            payloads.push(tail);
        }
        payloads.reverse();
        Ok(Solved { payloads })
    }

    fn check(&self) -> Result<(), SolveError> {
        if let Some(e) = self.error.lock().expect("error lock").take() {
            return Err(e);
        }
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(SolveError::Interrupted);
        }
        Ok(())
    }

    fn merge_counts(&self, local: &[u64; 256]) {
        for (d, &n) in local.iter().enumerate() {
            if n > 0 {
                self.layer_counts[d].fetch_add(n, Ordering::Relaxed);
                self.max_plies.fetch_max(d as u32, Ordering::Relaxed);
            }
        }
    }

    fn packed(&self, g: u64, plies: u32) -> Result<Packed, SolveError> {
        Packed::decided(plies).ok_or_else(|| SolveError::DistanceOverflow {
            subspace: self.subspace(g),
            max: MAX_DISTANCE,
        })
    }

    /// Values every successor of `pos` that leaves the unit or ends the game; collects the
    /// others (as combined indices) or, with `read_internal`, values them from the unit.
    fn exits(&self, g: u64, pos: &Pos<D>, read_internal: bool) -> Result<Exits, SolveError> {
        let game = self.domain.game();
        let mut exits = Exits::default();
        let mut error: Option<SolveError> = None;
        game.for_each_move(pos, |mv| {
            if error.is_some() {
                return;
            }
            let next = game.play(pos, mv);
            match self.successor_value(g, &next, read_internal) {
                Ok(Ok(v)) => exits.add(v),
                Ok(Err(internal)) => {
                    if exits.internal.try_push(internal).is_err() {
                        exits.overflow = true;
                    }
                }
                Err(e) => error = Some(e),
            }
        });
        match error {
            Some(e) => Err(e),
            None => Ok(exits),
        }
    }

    /// The value of successor `next`, or its combined index if it lies in the unit and
    /// `read_internal` is off.
    fn successor_value(
        &self,
        g: u64,
        next: &Pos<D>,
        read_internal: bool,
    ) -> Result<Result<Value, u64>, SolveError> {
        if let Some(v) = terminal_value(self.domain.game(), next) {
            return v
                .map(Ok)
                .map_err(|_| self.inconsistent(g, "a turn leads to a position won by its mover"));
        }
        let (key, index) = self
            .domain
            .locate(next)
            .map_err(|e| SolveError::Dependency {
                subspace: self.subspace(g),
                source: e,
            })?;
        if let Some(m) = self.member(key) {
            let h = self.offsets[m] + index;
            if !read_internal {
                return Ok(Err(h));
            }
            return match Packed(self.values[h as usize].load(Ordering::Relaxed)).value() {
                Some(v) => Ok(Ok(v)),
                None => Err(self.inconsistent(g, "a successor cannot arise")),
            };
        }
        let Some((_, table)) = self.exits.iter().find(|(k, _)| *k == key) else {
            return Err(SolveError::Dependency {
                subspace: self.subspace(g),
                source: ProbeError::MissingTable {
                    subspace: key.to_string(),
                    dirs: Vec::new(),
                },
            });
        };
        match table.value(index)? {
            Some(v) => Ok(Ok(v)),
            None => Err(self.inconsistent(g, format!("a successor in {key} cannot arise"))),
        }
    }

    /// Values `pos`, index `index` of member `m`, from its exits, or marks it undecided with
    /// its successors in the unit counted.
    fn initialise(
        &self,
        m: usize,
        index: u64,
        pos: &Pos<D>,
        counts: &mut [u64; 256],
    ) -> Result<(), SolveError> {
        let g = self.offsets[m] + index;
        let slot = g as usize;
        if self.domain.is_hole(self.keys[m], index, pos) {
            self.values[slot].store(Packed::CANNOT_ARISE.0, Ordering::Relaxed);
            self.counters[slot].store(CANNOT_LOSE, Ordering::Relaxed);
            return Ok(());
        }
        if let Some(v) = terminal_value(self.domain.game(), pos) {
            let byte = match v {
                Ok(v) if v.wdl == Wdl::Draw => Packed::DRAW,
                Ok(_) => {
                    counts[0] += 1;
                    self.packed(g, 0)?
                }
                Err(_) => Packed::CANNOT_ARISE,
            };
            // A finished position has no successor: nothing ever unmoves into it, and a draw
            // here is final.
            self.values[slot].store(byte.0, Ordering::Relaxed);
            self.counters[slot].store(CANNOT_LOSE, Ordering::Relaxed);
            return Ok(());
        }
        let mut exits = self.exits(g, pos, false)?;
        if exits.overflow {
            return Err(SolveError::TooManySuccessors {
                subspace: self.subspace(g),
                max: MAX_INTERNAL as u32,
            });
        }
        exits.internal.sort_unstable();
        let internal = {
            let mut n = 0;
            let mut last = None;
            for &h in &exits.internal {
                if last != Some(h) {
                    n += 1;
                    last = Some(h);
                }
            }
            n
        };
        if let Some(win) = exits.best_win {
            counts[win as usize] += 1;
            self.values[slot].store(self.packed(g, win)?.0, Ordering::Relaxed);
        } else if exits.draw {
            self.counters[slot].store(CANNOT_LOSE, Ordering::Relaxed);
        } else if internal == 0 {
            let Some(loss) = exits.longest_loss else {
                return Err(self.inconsistent(g, "a position that goes on has no turn"));
            };
            counts[loss as usize] += 1;
            self.values[slot].store(self.packed(g, loss)?.0, Ordering::Relaxed);
        } else {
            self.counters[slot].store(internal as u8, Ordering::Relaxed);
        }
        Ok(())
    }

    /// Unmoves every position final at distance `d`.
    fn layer(&self, d: u32) {
        let target = Packed::decided(d)
            .expect("layers stay within the encoding")
            .0;
        self.for_each_chunk(|range, local| {
            for g in range {
                if self.values[g as usize].load(Ordering::Relaxed) == target {
                    self.unmove(g, d, local)?;
                }
            }
            Ok(())
        });
    }

    fn unmove(&self, g: u64, d: u32, counts: &mut [u64; 256]) -> Result<(), SolveError> {
        let pos = self.position(g);
        let mut preds: ArrayVec<u64, 4096> = ArrayVec::new();
        let mut overflow = false;
        let mut error = None;
        self.domain.for_each_quiet_predecessor(&pos, |q| {
            if error.is_some() {
                return;
            }
            match self.domain.locate(q) {
                Ok((key, index)) => {
                    // A predecessor in another subspace reaches this unit by a quiet turn from
                    // outside: it is solved later, forward.
                    if let Some(m) = self.member(key) {
                        if preds.try_push(self.offsets[m] + index).is_err() {
                            overflow = true;
                        }
                    }
                }
                Err(e) => {
                    error = Some(SolveError::Dependency {
                        subspace: self.subspace(g),
                        source: e,
                    })
                }
            }
        });
        if let Some(e) = error {
            return Err(e);
        }
        if overflow {
            return Err(self.inconsistent(g, "more than 4096 predecessors"));
        }
        preds.sort_unstable();
        let mut last = None;
        for &q in &preds {
            if last == Some(q) {
                continue;
            }
            last = Some(q);
            if d.is_multiple_of(2) {
                self.improve_win(q, d + 1, counts)?;
            } else {
                self.count_down(q, counts)?;
            }
        }
        Ok(())
    }

    /// `q` has a successor lost in `plies - 1`: it wins in `plies` unless it already wins sooner.
    fn improve_win(&self, q: u64, plies: u32, counts: &mut [u64; 256]) -> Result<(), SolveError> {
        let new = self.packed(q, plies)?.0;
        let cell = &self.values[q as usize];
        let mut current = cell.load(Ordering::Relaxed);
        loop {
            match Packed(current).value() {
                Some(v) if v.wdl == Wdl::Win && v.plies.is_some_and(|p| p <= plies) => {
                    return Ok(())
                }
                Some(v) if v.wdl == Wdl::Draw => {}
                Some(Value { wdl: Wdl::Win, .. }) => {}
                _ => return Err(self.inconsistent(q, "a lost position has a losing successor")),
            }
            match cell.compare_exchange_weak(current, new, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => {
                    counts[plies as usize] += 1;
                    return Ok(());
                }
                Err(actual) => current = actual,
            }
        }
    }

    /// `q` has one more successor known to be won by its mover.
    fn count_down(&self, q: u64, counts: &mut [u64; 256]) -> Result<(), SolveError> {
        let slot = q as usize;
        if self.values[slot].load(Ordering::Relaxed) != 0
            || self.counters[slot].load(Ordering::Relaxed) == CANNOT_LOSE
        {
            return Ok(());
        }
        let before = self.counters[slot].fetch_sub(1, Ordering::Relaxed);
        match before {
            0 => Err(self.inconsistent(q, "successor count went below zero")),
            1 => {
                // Every successor is won by the opponent: lost in one more than the longest.
                let pos = self.position(q);
                let exits = self.exits(q, &pos, true)?;
                if exits.best_win.is_some() || exits.draw {
                    return Err(
                        self.inconsistent(q, "counted down to a loss with a better successor")
                    );
                }
                let plies = exits
                    .longest_loss
                    .ok_or_else(|| self.inconsistent(q, "lost without successors"))?;
                counts[plies as usize] += 1;
                self.values[slot].store(self.packed(q, plies)?.0, Ordering::Relaxed);
                Ok(())
            }
            _ => Ok(()),
        }
    }
}
