//! The working memory of a unit being solved: one 16-bit cell per position, four to a word.
//!
//! A cell holds a value byte and a counter byte, and means one of:
//!
//! | counter    | value byte         | meaning                                               |
//! |------------|--------------------|-------------------------------------------------------|
//! | 0          | `1..=254`          | decided: the [`Packed`](crate::value::Packed) value   |
//! | `1..=254`  | longest exit loss  | undecided, with that many successors in the unit left |
//! | 255        | 0                  | undecided but cannot lose (a drawing exit); a draw    |
//! | 255        | 255                | cannot arise                                          |
//!
//! The value byte of a counting position keeps the longest loss through its exits (plies, 0 for
//! none), so that when its counter runs out the loss is known without generating its turns
//! again.
//!
//! Why this shape:
//! - The value and the counter of a predecessor are read and changed together, so they share a
//!   cache line and one compare-and-swap changes both.
//! - A layer looks for the cells equal to one decided value; reading a word compares four
//!   positions at once.
//! - The memory is an anonymous map with huge-page advice: the layers touch predecessors at
//!   random across gigabytes, and with 4 KiB pages nearly every touch would also miss the TLB.
//!   The map starts zeroed without a pass over it.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering};

use memmap2::MmapMut;
use rayon::prelude::*;
use xxhash_rust::xxh3::Xxh3;

/// The counter of a position that cannot lose, and of one that cannot arise.
pub(crate) const CANNOT_LOSE: u8 = 255;
/// The value byte of a position that cannot arise.
const CANNOT_ARISE: u8 = 255;

/// One position's cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cell {
    pub(crate) value: u8,
    pub(crate) counter: u8,
}

impl Cell {
    /// A position decided with packed value `value`.
    pub(crate) const fn decided(value: u8) -> Cell {
        Cell { value, counter: 0 }
    }

    /// An undecided position with `successors` successors in the unit and the longest loss
    /// through its exits (0 for none).
    pub(crate) const fn counting(successors: u8, exit_loss: u8) -> Cell {
        Cell {
            value: exit_loss,
            counter: successors,
        }
    }

    /// A position that cannot lose; a draw unless a win is found.
    pub(crate) const CANNOT_LOSE: Cell = Cell {
        value: 0,
        counter: CANNOT_LOSE,
    };

    /// A position that cannot arise.
    pub(crate) const CANNOT_ARISE: Cell = Cell {
        value: CANNOT_ARISE,
        counter: CANNOT_LOSE,
    };

    pub(crate) const fn is_decided(self) -> bool {
        self.counter == 0
    }

    /// The byte of the final payload: the value if decided, cannot-arise kept, a draw otherwise.
    const fn payload(self) -> u8 {
        if self.counter == 0 || (self.counter == CANNOT_LOSE && self.value == CANNOT_ARISE) {
            self.value
        } else {
            0
        }
    }

    const fn bits(self) -> u64 {
        self.value as u64 | (self.counter as u64) << 8
    }

    const fn from_bits(bits: u64) -> Cell {
        Cell {
            value: bits as u8,
            counter: (bits >> 8) as u8,
        }
    }
}

const LANES: u64 = 4;
/// Words a checkpoint writes or reads at a time (8 MiB).
const IO_WORDS: usize = 1 << 20;
const LANE_BITS: u64 = 16;
const LANE_MASK: u64 = 0xffff;
const LOW_LANE_BITS: u64 = 0x0001_0001_0001_0001;
const HIGH_LANE_BITS: u64 = 0x8000_8000_8000_8000;

/// The cells of a unit.
pub(crate) struct Cells {
    map: MmapMut,
    len: u64,
}

impl Cells {
    /// `len` cells, all zero (decided positions nobody reads before initialisation).
    pub(crate) fn new(len: u64) -> io::Result<Cells> {
        let words = len.div_ceil(LANES).max(1);
        let bytes = usize::try_from(words * 8)
            .map_err(|_| io::Error::new(io::ErrorKind::OutOfMemory, "unit too large"))?;
        let map = MmapMut::map_anon(bytes)?;
        #[cfg(target_os = "linux")]
        {
            // Advice only: without transparent huge pages the map works with small pages.
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        Ok(Cells { map, len })
    }

    fn words(&self) -> &[AtomicU64] {
        // SAFETY: the map is page-aligned, so aligned for `AtomicU64`, and holds
        // `map.len() / 8` whole words; `AtomicU64` has the size and bit validity of `u64`, for
        // which every bit pattern is valid. The map lives as long as `self` and is only ever
        // accessed through these atomics while shared, so no access races with a plain one.
        unsafe {
            std::slice::from_raw_parts(self.map.as_ptr().cast::<AtomicU64>(), self.map.len() / 8)
        }
    }

    fn word(&self, i: u64) -> (&AtomicU64, u64) {
        let word = &self.words()[(i / LANES) as usize];
        (word, (i % LANES) * LANE_BITS)
    }

    /// The cell of position `i`.
    #[inline]
    pub(crate) fn get(&self, i: u64) -> Cell {
        debug_assert!(i < self.len);
        let (word, shift) = self.word(i);
        Cell::from_bits(word.load(Ordering::Relaxed) >> shift & LANE_MASK)
    }

    /// Asks the processor to bring the cell of position `i` into the cache: the solver locates
    /// several predecessors before it updates them, and their cache misses then overlap.
    #[inline]
    pub(crate) fn prefetch(&self, i: u64) {
        crate::prefetch::prefetch(self.word(i).0);
    }

    /// Writes the cells of positions `first..first + cells.len()`, where `first` is a multiple
    /// of four and nobody else writes these words meanwhile.
    pub(crate) fn store_run(&self, first: u64, cells: &[Cell]) {
        assert!(first.is_multiple_of(LANES), "runs start on a word");
        assert!(first + cells.len() as u64 <= self.len, "run past the end");
        for (w, group) in cells.chunks(LANES as usize).enumerate() {
            let bits = group
                .iter()
                .enumerate()
                .fold(0, |acc, (k, c)| acc | c.bits() << (k as u64 * LANE_BITS));
            self.words()[(first / LANES) as usize + w].store(bits, Ordering::Relaxed);
        }
    }

    /// Changes the cell of position `i` atomically: `change` sees the current cell and returns
    /// the new one, or `None` to leave it. Returns the cell `change` last saw and whether it was
    /// replaced. `change` may run more than once if other threads change the same word.
    #[inline]
    pub(crate) fn update(
        &self,
        i: u64,
        mut change: impl FnMut(Cell) -> Option<Cell>,
    ) -> (Cell, bool) {
        debug_assert!(i < self.len);
        let (word, shift) = self.word(i);
        let mut current = word.load(Ordering::Relaxed);
        loop {
            let cell = Cell::from_bits(current >> shift & LANE_MASK);
            let Some(new) = change(cell) else {
                return (cell, false);
            };
            let next = current & !(LANE_MASK << shift) | new.bits() << shift;
            match word.compare_exchange_weak(current, next, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return (cell, true),
                Err(actual) => current = actual,
            }
        }
    }

    /// Calls `found` with every position in `range` whose cell is `Cell::decided(value)`, in
    /// order. `range` must start on a word.
    pub(crate) fn for_each_decided<E>(
        &self,
        range: std::ops::Range<u64>,
        value: u8,
        mut found: impl FnMut(u64) -> Result<(), E>,
    ) -> Result<(), E> {
        debug_assert!(range.start.is_multiple_of(LANES));
        let end = range.end.min(self.len);
        let pattern = Cell::decided(value).bits() * LOW_LANE_BITS;
        let words = &self.words()[(range.start / LANES) as usize..end.div_ceil(LANES) as usize];
        for (w, word) in words.iter().enumerate() {
            let x = word.load(Ordering::Relaxed) ^ pattern;
            // A lane of x is zero exactly where the cell matches; this test has no false
            // negatives (false positives only above a true zero), and each lane is checked.
            if x.wrapping_sub(LOW_LANE_BITS) & !x & HIGH_LANE_BITS == 0 {
                continue;
            }
            let base = range.start + w as u64 * LANES;
            for lane in 0..LANES {
                let i = base + lane;
                if i < end && x >> (lane * LANE_BITS) & LANE_MASK == 0 {
                    found(i)?;
                }
            }
        }
        Ok(())
    }

    /// Calls `visit` with every position in `range` and its cell, in order, each word read
    /// once. `range` may start and end anywhere.
    #[inline]
    pub(crate) fn for_each_cell(
        &self,
        range: std::ops::Range<u64>,
        mut visit: impl FnMut(u64, Cell),
    ) {
        let end = range.end.min(self.len);
        let mut i = range.start;
        while i < end {
            let word = self.words()[(i / LANES) as usize].load(Ordering::Relaxed);
            let word_end = ((i / LANES + 1) * LANES).min(end);
            while i < word_end {
                visit(
                    i,
                    Cell::from_bits(word >> ((i % LANES) * LANE_BITS) & LANE_MASK),
                );
                i += 1;
            }
        }
    }

    /// The number of cells.
    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// Writes every cell to `out`, four to a little-endian `u64` word (the last word padded
    /// with zero cells), and adds those bytes to `hash`: a unit's checkpoint. Nobody may write
    /// the cells meanwhile.
    pub(crate) fn save(&self, out: &mut impl io::Write, hash: &mut Xxh3) -> io::Result<()> {
        let mut bytes = Vec::with_capacity(IO_WORDS * 8);
        for words in self.words().chunks(IO_WORDS) {
            bytes.clear();
            for word in words {
                bytes.extend_from_slice(&word.load(Ordering::Relaxed).to_le_bytes());
            }
            hash.update(&bytes);
            out.write_all(&bytes)?;
        }
        Ok(())
    }

    /// The bytes [`Cells::save`] writes.
    pub(crate) fn saved_len(&self) -> u64 {
        self.map.len() as u64
    }

    /// Reads back every cell that [`Cells::save`] wrote, adding the bytes to `hash`. Nobody may
    /// use the cells meanwhile; on an error they hold part of the file and must be dropped.
    pub(crate) fn load(&self, input: &mut impl io::Read, hash: &mut Xxh3) -> io::Result<()> {
        let mut bytes = vec![0u8; IO_WORDS * 8];
        for words in self.words().chunks(IO_WORDS) {
            let bytes = &mut bytes[..words.len() * 8];
            input.read_exact(bytes)?;
            hash.update(bytes);
            for (word, b) in words.iter().zip(bytes.chunks_exact(8)) {
                word.store(
                    u64::from_le_bytes(b.try_into().expect("8 bytes")),
                    Ordering::Relaxed,
                );
            }
        }
        Ok(())
    }

    /// The payload bytes of positions `range`.
    pub(crate) fn payload(&self, range: std::ops::Range<u64>) -> Vec<u8> {
        const CHUNK: usize = 1 << 16;
        let mut out = vec![0u8; (range.end - range.start) as usize];
        out.par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(c, bytes)| {
                let first = range.start + (c * CHUNK) as u64;
                for (k, b) in bytes.iter_mut().enumerate() {
                    *b = self.get(first + k as u64).payload();
                }
            });
        out
    }

    /// The 2-bit (WDL) payload of positions `range`, four to a byte as
    /// [`crate::format::to_wdl_payload`] packs a byte payload, with the histogram of their byte
    /// payload (for the table's counts): without the byte payload itself, a quarter of its
    /// memory.
    pub(crate) fn wdl_payload(&self, range: std::ops::Range<u64>) -> ([u64; 256], Vec<u8>) {
        const CHUNK: usize = 1 << 14;
        let positions = range.end - range.start;
        let mut out = vec![0u8; positions.div_ceil(4) as usize];
        let histogram = out
            .par_chunks_mut(CHUNK)
            .enumerate()
            .map(|(c, bytes)| {
                let mut histogram = [0u64; 256];
                let first = range.start + 4 * (c * CHUNK) as u64;
                for (k, b) in bytes.iter_mut().enumerate() {
                    let at = first + 4 * k as u64;
                    for i in 0..(range.end - at).min(4) {
                        let payload = self.get(at + i).payload();
                        histogram[usize::from(payload)] += 1;
                        *b |= crate::value::Packed(payload).wdl_code() << (2 * i);
                    }
                }
                histogram
            })
            .reduce(|| [0u64; 256], crate::format::add_histograms);
        (histogram, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_start_zero_and_keep_what_is_stored() {
        let cells = Cells::new(10).unwrap();
        assert!((0..10).all(|i| cells.get(i) == Cell::decided(0)));
        let run: Vec<Cell> = (0..10)
            .map(|i| Cell::counting(i as u8, 2 * i as u8))
            .collect();
        cells.store_run(0, &run);
        assert!((0..10).all(|i| cells.get(i) == run[i as usize]));
    }

    #[test]
    fn prefetch_changes_nothing() {
        let cells = Cells::new(9).unwrap();
        let run = [Cell::counting(3, 4); 9];
        cells.store_run(0, &run);
        for i in 0..9 {
            cells.prefetch(i);
        }
        assert!((0..9).all(|i| cells.get(i) == run[0]));
    }

    #[test]
    fn update_changes_one_lane_only() {
        let cells = Cells::new(8).unwrap();
        let run = [Cell::counting(3, 0); 8];
        cells.store_run(0, &run);
        let (seen, changed) = cells.update(5, |c| Some(Cell::counting(c.counter - 1, c.value)));
        assert_eq!((seen, changed), (Cell::counting(3, 0), true));
        assert_eq!(cells.get(5), Cell::counting(2, 0));
        assert!((0..8).filter(|&i| i != 5).all(|i| cells.get(i) == run[0]));
        assert_eq!(cells.update(5, |_| None), (Cell::counting(2, 0), false));
    }

    #[test]
    fn scan_finds_exactly_the_matching_decided_cells() {
        // Neighbouring lanes that differ in one bit, and counters that make the value byte
        // match without the cell matching, must not be found.
        let len = 103;
        let cells = Cells::new(len).unwrap();
        let run: Vec<Cell> = (0..len)
            .map(|i| match i % 7 {
                0 => Cell::decided(5),
                1 => Cell::decided(4),
                2 => Cell::counting(1, 5),
                3 => Cell::decided(6),
                4 => Cell::CANNOT_LOSE,
                5 => Cell::decided(5),
                _ => Cell::CANNOT_ARISE,
            })
            .collect();
        cells.store_run(0, &run);
        let mut found = Vec::new();
        cells
            .for_each_decided(0..len, 5, |i| {
                found.push(i);
                Ok::<(), ()>(())
            })
            .unwrap();
        let expected: Vec<u64> = (0..len).filter(|i| matches!(i % 7, 0 | 5)).collect();
        assert_eq!(found, expected);
        let mut tail = Vec::new();
        cells
            .for_each_decided(96..100, 5, |i| {
                tail.push(i);
                Ok::<(), ()>(())
            })
            .unwrap();
        assert_eq!(tail, vec![96, 98]);
    }

    #[test]
    fn every_cell_of_a_range_is_visited_once_in_order_from_any_start() {
        let len = 23;
        let cells = Cells::new(len).unwrap();
        let run: Vec<Cell> = (0..len).map(|i| Cell::counting(i as u8 + 1, 0)).collect();
        cells.store_run(0, &run);
        for (start, end) in [(0, 23), (1, 2), (3, 9), (5, 5), (6, 40)] {
            let mut seen = Vec::new();
            cells.for_each_cell(start..end, |i, c| seen.push((i, c)));
            let expected: Vec<(u64, Cell)> = (start..end.min(len))
                .map(|i| (i, run[i as usize]))
                .collect();
            assert_eq!(seen, expected, "{start}..{end}");
        }
    }

    #[test]
    fn payload_maps_undecided_to_draws_and_keeps_cannot_arise() {
        let cells = Cells::new(5).unwrap();
        cells.store_run(
            0,
            &[
                Cell::decided(7),
                Cell::counting(2, 6),
                Cell::CANNOT_LOSE,
                Cell::CANNOT_ARISE,
                Cell::decided(2),
            ],
        );
        assert_eq!(cells.payload(0..5), vec![7, 0, 0, 255, 2]);
        assert_eq!(cells.payload(1..4), vec![0, 0, 255]);
    }

    /// The 2-bit form made from the cells is the byte payload's, packed as files pack it, and
    /// the histogram is the byte payload's, over ranges that start and end anywhere in a byte
    /// and span several of the pass's chunks.
    #[test]
    fn wdl_payload_is_the_byte_payload_packed() {
        let n = 4 * (1 << 14) * 2 + 23;
        let cells = Cells::new(n).unwrap();
        let kinds = [
            Cell::decided(7),
            Cell::counting(2, 6),
            Cell::CANNOT_LOSE,
            Cell::CANNOT_ARISE,
            Cell::decided(2),
            Cell::decided(1),
            Cell::decided(40),
        ];
        let run: Vec<Cell> = (0..n).map(|i| kinds[(i * i % 7) as usize]).collect();
        cells.store_run(0, &run);
        for range in [0..n, 1..n - 2, 5..9, 3..4, 70_000..n] {
            let bytes = cells.payload(range.clone());
            let (histogram, wdl) = cells.wdl_payload(range.clone());
            assert_eq!(wdl, crate::format::to_wdl_payload(&bytes), "{range:?}");
            let mut expected = [0u64; 256];
            for &b in &bytes {
                expected[usize::from(b)] += 1;
            }
            assert_eq!(histogram, expected, "{range:?}");
        }
    }

    #[test]
    fn concurrent_updates_of_one_word_are_not_lost() {
        let cells = Cells::new(4).unwrap();
        cells.store_run(0, &[Cell::counting(200, 0); 4]);
        std::thread::scope(|s| {
            for lane in 0..4 {
                let cells = &cells;
                s.spawn(move || {
                    for _ in 0..50 {
                        cells.update(lane, |c| Some(Cell::counting(c.counter - 1, 0)));
                    }
                });
            }
        });
        assert!((0..4).all(|i| cells.get(i) == Cell::counting(150, 0)));
    }

    #[test]
    fn saved_cells_load_back_whole() {
        let n = 4 * IO_WORDS as u64 + 7;
        let cells = Cells::new(n).unwrap();
        let run: Vec<Cell> = (0..n)
            .map(|i| Cell::counting((i % 251) as u8, (i % 7) as u8))
            .collect();
        cells.store_run(0, &run);
        let mut bytes = Vec::new();
        let mut saved = Xxh3::new();
        cells.save(&mut bytes, &mut saved).unwrap();
        assert_eq!(bytes.len() as u64, cells.saved_len());
        let again = Cells::new(n).unwrap();
        let mut loaded = Xxh3::new();
        again.load(&mut bytes.as_slice(), &mut loaded).unwrap();
        assert_eq!(saved.digest(), loaded.digest());
        assert!((0..n).all(|i| again.get(i) == run[i as usize]));
        let short = Cells::new(n).unwrap();
        let err = short
            .load(&mut &bytes[..bytes.len() - 1], &mut Xxh3::new())
            .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
    }
}
