//! Distances past the cell's byte: the *tail* of a unit's layers, kept beside the cells.
//!
//! A cell's value byte holds distances up to [`MAX_DISTANCE`] plies. A WDL-only unit needs no
//! distance in its tables, but its unit distances are the proof of its results
//! ([`crate::verify_with_unit_distances`]), so a unit whose distances within it run longer must
//! not stop there: Twelve Men's Morris's unit 6-9 reaches 253 plies, the most a byte holds.
//!
//! From [`TAIL_FROM`] plies on, a position decided is noted here with its distance, and its cell
//! holds a *tail code*: the byte of [`TAIL_FROM`] or the one after, whichever has the parity
//! of the distance. So the cell still says won or lost (its WDL payload is right as it is), a
//! distance of [`TAIL_FROM`] or [`TAIL_FROM`]` + 1` is still exact in it, and nothing that
//! reads cells for a distance under [`TAIL_FROM`] mistakes a tail code for one of its own.
//!
//! The layers of the tail are few and hold few positions (unit 6-9's last 4 layers held 60 of
//! 4.7 billion): they are found from the lists here, not by scanning the cells (a scan for a
//! tail code would find every later distance of its parity too), and they unmove every
//! position, without the forward looks of modules `forward` and `odd_forward`, which compare
//! cells by their byte (the layers before may look forward: a tail code reads as a distance
//! past theirs, which it is, and a count of wins reads a tail code through the tail).
//!
//! A checkpoint holds cells only. It is saved while every distance here is the one its cell
//! holds ([`TAIL_FROM`] or the next: always, for a unit with distance tables), and a unit taken
//! up notes those cells here again; once a longer distance is noted, none is saved, and a
//! stop leaves the unit's last checkpoint, taken before. The tail's own layers save none.

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use crate::value::{Packed, MAX_DISTANCE};

/// The first distance kept in the tail: the last two a byte holds, so that a tail code is
/// exact up to [`MAX_DISTANCE`] and the files written from cells change nothing for units
/// that stay within it.
pub(crate) const TAIL_FROM: u32 = MAX_DISTANCE - 1;

/// The byte of a position decided at `plies` with a tail from `from` plies (under
/// [`MAX_DISTANCE`]): exact under `from`, else the code of its parity, `from` or `from + 1`.
#[inline]
pub(crate) fn code_from(from: u32, plies: u32) -> Packed {
    let stored = if plies < from {
        plies
    } else {
        from + (plies - from) % 2
    };
    Packed::decided(stored).expect("a tail code fits a byte")
}

/// The positions decided at [`Tail::from`] plies or more, with their distances.
pub(crate) struct Tail {
    from: u32,
    /// Set once a distance past `from + 1` is noted, which no cell says exactly; never
    /// cleared. Read on every checkpoint's save.
    inexact: AtomicBool,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Each position's distance, the last one noted (a win may be improved).
    plies: HashMap<u64, u32>,
    /// The positions noted at each distance, in the order noted; one improved since is
    /// dropped when its layer is taken.
    layers: BTreeMap<u32, Vec<u64>>,
}

impl Tail {
    /// A tail from `from` plies on; `from + 1` must fit a byte.
    pub(crate) fn new(from: u32) -> Tail {
        assert!(
            from < MAX_DISTANCE,
            "a tail code needs two distances a byte holds"
        );
        Tail {
            from,
            inexact: AtomicBool::new(false),
            state: Mutex::new(State::default()),
        }
    }

    /// The first distance kept here.
    pub(crate) fn from(&self) -> u32 {
        self.from
    }

    /// Whether `plies` is kept here.
    #[inline]
    pub(crate) fn holds(&self, plies: u32) -> bool {
        plies >= self.from
    }

    /// Whether every distance noted is the one its cell's code says ([`Tail::code`]): the
    /// cells alone say the whole state.
    pub(crate) fn is_exact(&self) -> bool {
        !self.inexact.load(Ordering::Acquire)
    }

    /// The byte a cell holds for a position decided at `plies` ([`code_from`]).
    #[inline]
    pub(crate) fn code(&self, plies: u32) -> Packed {
        code_from(self.from, plies)
    }

    /// Whether a decided cell's distance `stored` (as its byte reads) may be a tail code.
    #[inline]
    pub(crate) fn is_code(&self, stored: u32) -> bool {
        stored >= self.from
    }

    /// Notes position `g` decided at `plies` (kept here).
    pub(crate) fn note(&self, g: u64, plies: u32) {
        let mut state = self.state.lock().expect("tail lock");
        state.plies.insert(g, plies);
        state.layers.entry(plies).or_default().push(g);
        if plies > self.from + 1 {
            self.inexact.store(true, Ordering::Release);
        }
    }

    /// Drops `g`, decided since under the tail's first distance (a win improved).
    pub(crate) fn forget(&self, g: u64) {
        // Its entry in a layer's list goes when the layer is taken.
        self.state.lock().expect("tail lock").plies.remove(&g);
    }

    /// The distance noted for `g`, if any.
    pub(crate) fn plies_of(&self, g: u64) -> Option<u32> {
        self.state.lock().expect("tail lock").plies.get(&g).copied()
    }

    /// Whether some position is noted at `plies`.
    pub(crate) fn has_layer(&self, plies: u32) -> bool {
        self.state
            .lock()
            .expect("tail lock")
            .layers
            .contains_key(&plies)
    }

    /// The positions decided at `plies`, in index order, each once, taken out of the lists
    /// (their distances stay).
    pub(crate) fn take_layer(&self, plies: u32) -> Vec<u64> {
        let mut state = self.state.lock().expect("tail lock");
        let mut layer = state.layers.remove(&plies).unwrap_or_default();
        layer.retain(|g| state.plies.get(g) == Some(&plies));
        layer.sort_unstable();
        layer.dedup();
        layer
    }

    /// Every position noted, with its distance.
    pub(crate) fn into_distances(self) -> HashMap<u64, u32> {
        self.state.into_inner().expect("tail lock").plies
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_keep_parity_and_are_exact_below_the_tail() {
        let tail = Tail::new(TAIL_FROM);
        for plies in 0..TAIL_FROM + 2 {
            assert_eq!(tail.code(plies), Packed::decided(plies).unwrap());
        }
        for plies in TAIL_FROM..2000 {
            let code = tail.code(plies).plies().unwrap();
            assert_eq!(code % 2, plies % 2, "{plies}");
            assert!(tail.is_code(code) && code <= MAX_DISTANCE, "{plies}");
        }
        let low = Tail::new(4);
        assert_eq!(low.code(3).plies(), Some(3));
        assert_eq!(low.code(9).plies(), Some(5));
        assert_eq!(low.code(10).plies(), Some(4));
    }

    #[test]
    fn a_layer_holds_each_position_once_at_its_last_distance() {
        let tail = Tail::new(4);
        tail.note(4, 5);
        assert!(tail.is_exact());
        tail.note(7, 6);
        assert!(!tail.is_exact());
        tail.note(3, 6);
        tail.note(7, 6);
        tail.note(9, 8);
        // Improved to 6 after being noted at 8: found in layer 6 only.
        tail.note(9, 6);
        tail.note(5, 6);
        // Improved to under the tail: in no layer.
        tail.forget(5);
        assert!(tail.has_layer(8));
        assert_eq!(tail.take_layer(8), Vec::<u64>::new());
        assert_eq!(tail.take_layer(6), vec![3, 7, 9]);
        assert!(!tail.has_layer(6));
        assert_eq!(tail.plies_of(9), Some(6));
        assert_eq!(tail.plies_of(1), None);
        assert_eq!(tail.into_distances().len(), 4);
    }
}
