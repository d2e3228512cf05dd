//! Looks forward from many positions at once, so that their cache misses overlap.
//!
//! A look forward (module `forward` for even layers, `odd_forward` for odd ones) locates a
//! position's first successors in the unit and reads their cells, and most looks end there.
//! The cells lie at random among gigabytes, so each read is a cache miss and, on a virtual
//! machine, often a page walk too; read at once, the look waits for them. In Twelve Men's
//! Morris 5-10 the loads of those cells took a fifth of the samples of an odd layer looked
//! at forward, though a look prefetches a batch of them before reading the first. So the
//! layers queue their looks: a look is *begun* (its first successors located and their
//! cells' fetch started) and *ended* [`DEPTH`] looks later (those cells read, and the rest of
//! its turns played where they do not settle it), by which time the cells have arrived. A look
//! its first successors do not settle generates its turns again, passing over those already
//! located: most looks are settled by their first.
//!
//! A queued look writes what it would have written at once: what a layer's look asks of a cell
//! (a loss in `d`, a win in `d` or fewer) is not changed by that layer, a look writes only its
//! own position's cell, and a chunk ends its queued looks before it counts as done.

use arrayvec::ArrayVec;

use super::{Pos, UnitSolver};
use crate::domain::Domain;
use crate::error::SolveError;

/// Looks begun and not yet ended, at most. Beginning one (generating a position's turns and
/// locating one to four successors) takes some hundreds of nanoseconds, about a cache miss
/// with its page walk; the depth leaves room for slower misses.
const DEPTH: usize = 8;
/// The most successors a look locates when it begins.
pub(super) const MOST_FIRST: usize = 4;

/// A look forward begun: its position, and the first of its successors in the unit, whose
/// cells are being fetched.
pub(super) struct Begun<P> {
    /// The position's member of the unit.
    pub(super) m: usize,
    /// Its combined index.
    pub(super) g: u64,
    pos: P,
    first: ArrayVec<u64, MOST_FIRST>,
    /// How many of its turns were generated to locate `first`, where more may follow; `None`
    /// where every turn was.
    resume: Option<usize>,
}

impl<P> Begun<P> {
    /// Whether the position has a turn into the unit.
    pub(super) fn has_turns(&self) -> bool {
        !self.first.is_empty()
    }
}

/// Looks begun: a ring, so that a look goes in and another out without the rest moving.
pub(super) struct Queue<P> {
    looks: ArrayVec<Begun<P>, DEPTH>,
    /// Where the oldest look is.
    oldest: usize,
}

impl<P> Queue<P> {
    pub(super) fn new() -> Self {
        Queue {
            looks: ArrayVec::new(),
            oldest: 0,
        }
    }

    /// Queues `look`, and returns the oldest look queued where the queue was full.
    fn push(&mut self, look: Begun<P>) -> Option<Begun<P>> {
        if !self.looks.is_full() {
            self.looks.push(look);
            return None;
        }
        let oldest = std::mem::replace(&mut self.looks[self.oldest], look);
        self.oldest = (self.oldest + 1) % DEPTH;
        Some(oldest)
    }

    /// Queues `look`, and ends with `end` the oldest look queued where the queue was full.
    pub(super) fn push_ending<E>(
        &mut self,
        look: Begun<P>,
        end: impl FnOnce(Begun<P>) -> Result<(), E>,
    ) -> Result<(), E> {
        self.push(look).map_or(Ok(()), end)
    }

    /// Ends with `end` every look queued, oldest first; stops at the first error.
    pub(super) fn end_all<E>(
        &mut self,
        mut end: impl FnMut(Begun<P>) -> Result<(), E>,
    ) -> Result<(), E> {
        while let Some(oldest) = self.pop() {
            end(oldest)?;
        }
        Ok(())
    }

    /// The oldest look queued, taken out.
    fn pop(&mut self) -> Option<Begun<P>> {
        if self.looks.is_empty() {
            return None;
        }
        // The looks after it move down one: the next oldest is where it was, or first.
        let oldest = self.looks.remove(self.oldest);
        if self.oldest >= self.looks.len() {
            self.oldest = 0;
        }
        Some(oldest)
    }
}

impl<D: Domain> UnitSolver<'_, D> {
    /// Begins a look forward from `pos` (combined index `g`, member `m`): locates its first
    /// `first` successors in the unit (at most [`MOST_FIRST`]; fewer where it has fewer) and
    /// starts fetching their cells.
    pub(super) fn begin_look(
        &self,
        m: usize,
        g: u64,
        pos: &Pos<D>,
        first: usize,
    ) -> Result<Begun<Pos<D>>, SolveError> {
        debug_assert!(0 < first && first <= MOST_FIRST);
        let mut located = ArrayVec::new();
        let stopped = self.turns_into_unit_from(g, m, pos, 0, first, first, |batch| {
            located.extend(batch.iter().copied());
            true
        })?;
        // Short of `first`, the turns ran out.
        let resume = stopped.filter(|_| located.len() == first);
        Ok(Begun {
            m,
            g,
            pos: *pos,
            first: located,
            resume,
        })
    }

    /// Ends `look` as [`turns_into_unit`](UnitSolver::turns_into_unit) would have gone on:
    /// hands `read` the successors located first, then, unless that settled it, those of the
    /// turns after them, in batches twice as large each time up to `most`. Returns whether
    /// `read` returned true.
    pub(super) fn end_look(
        &self,
        look: &Begun<Pos<D>>,
        most: usize,
        mut read: impl FnMut(&[u64]) -> bool,
    ) -> Result<bool, SolveError> {
        if look.first.is_empty() {
            return Ok(false);
        }
        if read(&look.first) {
            return Ok(true);
        }
        let Some(skip) = look.resume else {
            return Ok(false);
        };
        let next = (2 * look.first.len()).min(most);
        Ok(self
            .turns_into_unit_from(look.g, look.m, &look.pos, skip, next, most, read)?
            .is_some())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn look(g: u64) -> Begun<u64> {
        Begun {
            m: 0,
            g,
            pos: g,
            first: ArrayVec::new(),
            resume: None,
        }
    }

    #[test]
    fn the_queue_hands_back_its_looks_oldest_first_once_full() {
        let mut queue = Queue::new();
        for g in 0..DEPTH as u64 {
            assert!(queue.push(look(g)).is_none(), "room for {DEPTH}");
        }
        let handed: Vec<u64> = (DEPTH as u64..DEPTH as u64 + 3)
            .map(|g| queue.push(look(g)).expect("full").g)
            .collect();
        assert_eq!(handed, [0, 1, 2]);
        let rest: Vec<u64> = std::iter::from_fn(|| queue.pop()).map(|l| l.g).collect();
        assert_eq!(rest, (3..DEPTH as u64 + 3).collect::<Vec<_>>());
        assert!(queue.pop().is_none());
    }
}
