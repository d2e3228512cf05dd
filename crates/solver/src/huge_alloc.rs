//! [`HugePageAlloc`]: the system allocator, with large blocks advised to use transparent huge
//! pages.
//!
//! The solver and the verifier read large tables at random: a verification's decoded tables
//! (a byte per position, gigabytes for the largest units), the index tables a unit locates its
//! positions through (the mover tables alone are 11 MB for twelve men). With 4 KiB pages
//! nearly every such read also misses the TLB, and a page walk inside a virtual machine is
//! two-dimensional and costly. Where the kernel gives huge pages only to memory that asks for
//! them (`transparent_hugepage=madvise`, the common default), heap blocks never do. Measured on
//! the build machine (BENCHMARKS.md, "Huge pages for the heap"): verifying one Twelve Men's
//! Morris table took 26% less time once its heap was on huge pages, and random reads over
//! 4 GiB took 35 ns instead of 62.
//!
//! Blocks of [`ADVISED_FROM`] bytes or more are advised as the system allocator hands them
//! out, before they are written: the 2 MiB-aligned part of the block (its ends stay on small
//! pages, at most 4 MiB of it). Nothing else changes: the same layouts, the same calls, so
//! memory that was lazily zeroed (a large `calloc` is fresh pages) still is. The advice is only
//! advice: a kernel without transparent huge pages, or out of free huge pages, gives small ones.
//!
//! Binaries opt in with `#[global_allocator]`:
//!
//! ```
//! #[global_allocator]
//! static ALLOC: perfectplay_solver::HugePageAlloc = perfectplay_solver::HugePageAlloc;
//! let table = vec![0u8; 16 << 20];
//! assert_eq!(table.len(), 16 << 20);
//! ```

use std::alloc::{GlobalAlloc, Layout, System};

/// The size of a transparent huge page on x86-64 and most aarch64 kernels.
const HUGE_PAGE: usize = 2 << 20;

/// The smallest block advised: a smaller one holds one whole huge page at most, often none.
pub const ADVISED_FROM: usize = 2 * HUGE_PAGE;

/// The system allocator, with blocks of at least [`ADVISED_FROM`] bytes advised to use
/// transparent huge pages (module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct HugePageAlloc;

/// The huge pages wholly inside the block of `len` bytes at address `start`, as an address
/// and a length (`len` 0 where there is none).
fn whole_huge_pages(start: usize, len: usize) -> (usize, usize) {
    let Some(first) = start.checked_next_multiple_of(HUGE_PAGE) else {
        return (start, 0);
    };
    let end = start.saturating_add(len) / HUGE_PAGE * HUGE_PAGE;
    (first, end.saturating_sub(first))
}

/// Advises the kernel to back the whole huge pages inside the block at `ptr` of `len` bytes
/// with huge pages; returns whether it took the advice (always `false` off Linux).
fn advise(ptr: *mut u8, len: usize) -> bool {
    if ptr.is_null() || len < ADVISED_FROM {
        return false;
    }
    let (start, len) = whole_huge_pages(ptr as usize, len);
    if len == 0 {
        return false;
    }
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `start..start + len` lies inside the block just allocated, which this
        // process owns and maps; MADV_HUGEPAGE changes how the kernel backs those pages
        // (never their contents, their protection or whether they are mapped), so no
        // reference to the block, or to any other memory, is affected.
        unsafe { libc::madvise(start as *mut libc::c_void, len, libc::MADV_HUGEPAGE) == 0 }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (start, len);
        false
    }
}

// SAFETY: every call is passed to `System` with its arguments unchanged, so each block keeps
// `System`'s guarantees and is freed by `System` with the layout it was made with; the advice
// given afterwards changes no byte and no mapping.
unsafe impl GlobalAlloc for HugePageAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's guarantees for `layout` (non-zero size) are `System`'s.
        let ptr = unsafe { System.alloc(layout) };
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        advise(ptr, layout.size());
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` (every method here passes through to it)
        // with `layout`, as the caller guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as in `dealloc`, and the caller's guarantees for `new_size` are `System`'s.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        advise(new, new_size);
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_whole_aligned_huge_pages_are_advised() {
        let h = HUGE_PAGE;
        assert_eq!(whole_huge_pages(h, 2 * h), (h, 2 * h));
        assert_eq!(whole_huge_pages(h + 16, 3 * h), (2 * h, 2 * h));
        assert_eq!(whole_huge_pages(h + 16, 2 * h), (2 * h, h));
        assert_eq!(whole_huge_pages(h + 16, h), (2 * h, 0));
        assert_eq!(whole_huge_pages(16, h - 16), (h, 0));
        assert_eq!(whole_huge_pages(usize::MAX - 8, 4), (usize::MAX - 8, 0));
        assert!(!advise(std::ptr::null_mut(), 1 << 30));
    }

    /// Blocks below, at and past the threshold, zeroed or not, grown and shrunk across it,
    /// keep their bytes and their alignment.
    #[test]
    fn blocks_keep_their_bytes_through_every_call() {
        let alloc = HugePageAlloc;
        for size in [
            64,
            ADVISED_FROM - 1,
            ADVISED_FROM,
            3 * ADVISED_FROM + 12_345,
        ] {
            for align in [1, 8, 4096] {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: `layout` has a non-zero size; each block is written within its
                // size, read back, and freed once with the layout it has at that point.
                unsafe {
                    let zeroed = alloc.alloc_zeroed(layout);
                    assert!(!zeroed.is_null());
                    assert_eq!(zeroed as usize % align, 0);
                    let bytes = std::slice::from_raw_parts(zeroed, size);
                    assert!(bytes.iter().all(|&b| b == 0), "zeroed block of {size}");
                    alloc.dealloc(zeroed, layout);

                    let ptr = alloc.alloc(layout);
                    assert!(!ptr.is_null());
                    for i in (0..size).step_by(4093) {
                        *ptr.add(i) = (i % 251) as u8;
                    }
                    let grown = 2 * size + ADVISED_FROM;
                    let ptr = alloc.realloc(ptr, layout, grown);
                    assert!(!ptr.is_null());
                    for i in (0..size).step_by(4093) {
                        assert_eq!(*ptr.add(i), (i % 251) as u8, "byte {i} of {size} grown");
                    }
                    let grown_layout = Layout::from_size_align(grown, align).unwrap();
                    let ptr = alloc.realloc(ptr, grown_layout, size.min(100));
                    for i in (0..size.min(100)).step_by(4093) {
                        assert_eq!(*ptr.add(i), (i % 251) as u8, "byte {i} shrunk");
                    }
                    alloc.dealloc(ptr, Layout::from_size_align(size.min(100), align).unwrap());
                }
            }
        }
    }

    /// On Linux the kernel takes the advice for a large block whenever it has transparent huge
    /// pages at all (it may still back the pages with small ones when short of huge ones).
    #[cfg(target_os = "linux")]
    #[test]
    fn linux_takes_the_advice_where_it_has_huge_pages() {
        let thp = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
        let Ok(thp) = thp else { return };
        if thp.contains("[never]") {
            return;
        }
        let layout = Layout::from_size_align(8 * HUGE_PAGE, 8).unwrap();
        // SAFETY: a non-zero size, freed once with its layout.
        unsafe {
            let ptr = System.alloc(layout);
            assert!(advise(ptr, layout.size()));
            System.dealloc(ptr, layout);
        }
    }
}
