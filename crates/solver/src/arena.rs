//! Memory for lookup tables made once and kept for the life of the process, in maps advised to
//! use huge pages.
//!
//! A random probe reads a few lookup tables before the database itself (the checkers men
//! index's running totals are megabytes). On the heap's 4 KB pages each of those reads would
//! likely miss the TLB, crowded out by the probes' reads across gigabytes of tables, and pay a
//! page walk; a few 2 MB pages stay in the TLB. Tables made here are never freed: they are
//! pure functions of the rules, made once per process and shared by every user.

use std::sync::{Mutex, PoisonError};

use memmap2::MmapMut;

const HUGE_PAGE: usize = 2 << 20;

/// Words reserved at a time; the parts of a map never touched cost no memory.
const CHUNK_WORDS: usize = (8 << 20) / 4;

/// What is left of the last map.
static FREE: Mutex<&'static mut [u32]> = Mutex::new(&mut []);

/// `len` zeroed words, kept for the life of the process.
pub(crate) fn words(len: usize) -> &'static mut [u32] {
    let mut free = FREE.lock().unwrap_or_else(PoisonError::into_inner);
    if free.len() < len {
        *free = reserve(len.max(CHUNK_WORDS));
    }
    let (mine, rest) = std::mem::take(&mut *free).split_at_mut(len);
    *free = rest;
    mine
}

/// `words` zeroed words in huge pages where the system gives them, else on the heap.
fn reserve(words: usize) -> &'static mut [u32] {
    map(words).unwrap_or_else(|| Box::leak(vec![0; words].into_boxed_slice()))
}

fn map(words: usize) -> Option<&'static mut [u32]> {
    let bytes = words.checked_mul(4)?;
    // One huge page more, so that the words can start on a huge page boundary.
    let map = MmapMut::map_anon(bytes.checked_add(HUGE_PAGE)?).ok()?;
    #[cfg(target_os = "linux")]
    {
        // Advice only, given before any page is touched.
        let _ = map.advise(memmap2::Advice::HugePage);
    }
    let map: &'static mut MmapMut = Box::leak(Box::new(map));
    let skip = map.as_ptr().align_offset(HUGE_PAGE);
    bytemuck::try_cast_slice_mut(map.get_mut(skip..skip + bytes)?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_zeroed_disjoint_and_last() {
        let mut small: Vec<&'static mut [u32]> = (1..100).map(words).collect();
        let large = words(3 * CHUNK_WORDS);
        assert_eq!(large.len(), 3 * CHUNK_WORDS);
        assert!(large
            .iter()
            .chain(small.iter().flat_map(|s| s.iter()))
            .all(|&w| w == 0));
        large.fill(u32::MAX);
        for (n, s) in (1..).zip(&mut small) {
            assert_eq!(s.len(), n as usize);
            s.fill(n);
        }
        // Each slice still holds what was written into it: none overlaps another.
        assert!(large.iter().all(|&w| w == u32::MAX));
        for (n, s) in (1..).zip(&small) {
            assert!(s.iter().all(|&w| w == n), "slice of {n} words");
        }
        let again = std::thread::spawn(|| words(10)).join().unwrap();
        assert!(again.iter().all(|&w| w == 0));
    }
}
