//! Which chunks of a unit hold a position decided at each distance, so that a layer that
//! unmoves every position of its distance visits those chunks only.
//!
//! The late layers of a unit hold a few positions each, spread over the whole unit: a balanced
//! Twelve Men's Morris unit has dozens of them, and scanning every cell for each one cost more
//! than the work they do. A bit per chunk and distance (for a unit of 7 G positions, 430 K
//! chunks: 54 KB a distance, 14 MB in all) is set whenever a cell is decided at that distance,
//! by the first pass or by a layer. A chunk whose cell is later improved to a shorter win keeps
//! its bit: a layer then scans it for nothing, which costs time, not correctness. A missing bit
//! would leave a position never unmoved, so every write of a decided cell marks, and a unit
//! taken up from a checkpoint marks every decided cell it loads before its layers go on
//! ([`LayerChunks::mark_decided`]).

use std::sync::atomic::{AtomicU64, Ordering};

use crate::cells::Cells;
use crate::retro::CHUNK;
use crate::value::{Packed, MAX_DISTANCE};

/// Distances a cell can be decided at: `0..=MAX_DISTANCE`.
const DISTANCES: usize = MAX_DISTANCE as usize + 1;

/// A bit per chunk and distance.
pub(super) struct LayerChunks {
    /// Words of chunk bits per distance.
    words: usize,
    bits: Vec<AtomicU64>,
}

impl LayerChunks {
    /// No chunk marked, for a unit of `chunks` chunks.
    pub(super) fn new(chunks: u64) -> LayerChunks {
        let words = usize::try_from(chunks.div_ceil(64)).expect("chunk words fit in usize");
        LayerChunks {
            words,
            bits: (0..words * DISTANCES).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// Notes that combined index `g` is decided at `plies`.
    #[inline]
    pub(super) fn mark(&self, plies: u32, g: u64) {
        let c = g / CHUNK;
        let word = &self.bits[plies as usize * self.words + (c / 64) as usize];
        let bit = 1u64 << (c % 64);
        // Read first: once a chunk is marked, the threads that decide more of its positions
        // only read the word, and its cache line is not passed between the cores.
        if word.load(Ordering::Relaxed) & bit == 0 {
            word.fetch_or(bit, Ordering::Relaxed);
        }
    }

    /// Marks every decided cell of `chunk` (a unit taken up from a checkpoint: its earlier
    /// decisions were never marked in this process).
    pub(super) fn mark_decided(&self, cells: &Cells, chunk: u64) {
        let start = chunk * CHUNK;
        let mut seen = [0u64; DISTANCES.div_ceil(64)];
        cells.for_each_cell(start..start + CHUNK, |_, cell| {
            match Packed(cell.value).plies() {
                Some(plies) if cell.is_decided() => seen[plies as usize / 64] |= 1 << (plies % 64),
                _ => {}
            }
        });
        for plies in set_bits(seen) {
            self.mark(plies as u32, start);
        }
    }

    /// The chunks marked at `plies`, in order.
    pub(super) fn marked(&self, plies: u32) -> Vec<u64> {
        let row = &self.bits[plies as usize * self.words..(plies as usize + 1) * self.words];
        set_bits(row.iter().map(|word| word.load(Ordering::Relaxed))).collect()
    }
}

/// Positions of one chunk, a bit each: those a pass visits there.
pub(super) struct ChunkMarks {
    /// Combined index of the chunk's first position.
    start: u64,
    words: [u64; (CHUNK / 64) as usize],
    count: u64,
}

impl ChunkMarks {
    /// None marked in the chunk that begins at combined index `start`.
    pub(super) fn new(start: u64) -> ChunkMarks {
        ChunkMarks {
            start,
            words: [0; (CHUNK / 64) as usize],
            count: 0,
        }
    }

    /// Marks combined index `g`, of this chunk and not yet marked.
    pub(super) fn mark(&mut self, g: u64) {
        let k = g - self.start;
        self.words[(k / 64) as usize] |= 1 << (k % 64);
        self.count += 1;
    }

    pub(super) fn has(&self, g: u64) -> bool {
        let k = g - self.start;
        self.words[(k / 64) as usize] >> (k % 64) & 1 == 1
    }

    /// How many are marked.
    pub(super) fn count(&self) -> u64 {
        self.count
    }

    /// The positions marked in either, which mark none in common.
    pub(super) fn union(&self, other: &ChunkMarks) -> ChunkMarks {
        debug_assert_eq!(self.start, other.start);
        let mut words = self.words;
        for (word, theirs) in words.iter_mut().zip(&other.words) {
            debug_assert_eq!(*word & theirs, 0);
            *word |= theirs;
        }
        ChunkMarks {
            start: self.start,
            words,
            count: self.count + other.count,
        }
    }

    /// The combined indices marked, in order.
    pub(super) fn indices(&self) -> impl Iterator<Item = u64> + '_ {
        set_bits(self.words.iter().copied()).map(move |k| self.start + k)
    }
}

/// The numbers of the set bits of `words`, in order: bit `k` of the `w`-th word is `64 * w + k`.
fn set_bits(words: impl IntoIterator<Item = u64>) -> impl Iterator<Item = u64> {
    words.into_iter().enumerate().flat_map(|(w, word)| {
        std::iter::successors((word != 0).then_some(word), |&rest| {
            let next = rest & (rest - 1);
            (next != 0).then_some(next)
        })
        .map(move |rest| w as u64 * 64 + u64::from(rest.trailing_zeros()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cells::Cell;

    #[test]
    fn a_chunk_is_listed_at_each_distance_it_was_marked_at() {
        let marks = LayerChunks::new(200);
        marks.mark(3, 5 * CHUNK + 17);
        marks.mark(3, 5 * CHUNK);
        marks.mark(3, 130 * CHUNK + CHUNK - 1);
        marks.mark(MAX_DISTANCE, 199 * CHUNK);
        marks.mark(0, 0);
        assert_eq!(marks.marked(3), vec![5, 130]);
        assert_eq!(marks.marked(MAX_DISTANCE), vec![199]);
        assert_eq!(marks.marked(0), vec![0]);
        assert!(marks.marked(4).is_empty());
    }

    #[test]
    fn chunk_marks_list_what_was_marked_in_order_and_count_it() {
        let start = 7 * CHUNK;
        let mut low = ChunkMarks::new(start);
        let mut high = ChunkMarks::new(start);
        for g in [start + 65, start, start + CHUNK - 1] {
            low.mark(g);
        }
        high.mark(start + 64);
        assert!(low.has(start + 65) && !low.has(start + 64) && high.has(start + 64));
        let both = low.union(&high);
        assert_eq!(both.count(), 4);
        let expected = vec![start, start + 64, start + 65, start + CHUNK - 1];
        assert_eq!(both.indices().collect::<Vec<_>>(), expected);
        assert_eq!(ChunkMarks::new(start).indices().count(), 0);
    }

    #[test]
    fn set_bits_are_numbered_across_words_in_order() {
        let words = [0b1010_0001, 0, 1 << 63 | 1, u64::MAX];
        let expected: Vec<u64> = [0, 5, 7, 128, 191].into_iter().chain(192..256).collect();
        assert_eq!(set_bits(words).collect::<Vec<_>>(), expected);
        assert_eq!(set_bits([0u64; 4]).count(), 0);
    }

    #[test]
    fn marking_the_decided_cells_finds_every_distance_and_nothing_else() {
        let cells = Cells::new(3 * CHUNK).unwrap();
        // A fresh cell is zero, which reads as decided with the draw's byte: not a distance.
        let decided = |plies: u32| Cell::decided(Packed::decided(plies).unwrap().0);
        let mut run = vec![Cell::counting(3, 0); CHUNK as usize];
        run[7] = decided(0);
        run[100] = decided(64);
        run[CHUNK as usize - 1] = decided(MAX_DISTANCE);
        run[200] = Cell::CANNOT_LOSE;
        run[201] = Cell::CANNOT_ARISE;
        cells.store_run(CHUNK, &run);
        let marks = LayerChunks::new(3);
        for c in 0..3 {
            marks.mark_decided(&cells, c);
        }
        for plies in 0..=MAX_DISTANCE {
            let expected: Vec<u64> = if [0, 64, MAX_DISTANCE].contains(&plies) {
                vec![1]
            } else {
                Vec::new()
            };
            assert_eq!(marks.marked(plies), expected, "distance {plies}");
        }
    }
}
