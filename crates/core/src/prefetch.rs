//! A hint to bring memory into the cache before it is read: the solver and batched probes issue
//! several before waiting for the first, so that their cache misses overlap, and the batched
//! environment asks for the envs it is about to step.

/// How long a prefetched line will be wanted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reuse {
    /// Read or written again: brought into every level of the cache.
    Again,
    /// Read once, soon: brought close without displacing what the outer caches hold. Random
    /// probes read one byte of gigabytes each; fetched into every level, those bytes would
    /// push out the index tables that every probe reads.
    Once,
}

/// Asks the processor to bring the cache line holding `value` into the cache.
#[inline]
pub fn prefetch<T>(value: &T) {
    prefetch_for(value, Reuse::Again);
}

/// Asks the processor to bring the cache line holding `value` into the cache, as `reuse` says.
#[inline]
pub fn prefetch_for<T>(value: &T, reuse: Reuse) {
    prefetch_address(std::ptr::from_ref(value).cast(), reuse);
}

/// Asks the processor to bring every cache line of `value` into the cache.
#[inline]
pub fn prefetch_whole<T>(value: &T) {
    let start = std::ptr::from_ref(value).cast::<u8>();
    let size = std::mem::size_of::<T>();
    // The line of each 64 bytes from the start, and the line of the last byte.
    for offset in (0..size).step_by(64) {
        prefetch_address(start.wrapping_add(offset), Reuse::Again);
    }
    if size > 0 {
        prefetch_address(start.wrapping_add(size - 1), Reuse::Again);
    }
}

/// Asks the processor to bring the cache line holding `address` into the cache, as `reuse`
/// says. Any address will do: a prefetch never faults, and one outside the process's memory
/// is dropped.
#[inline]
pub fn prefetch_address(address: *const u8, reuse: Reuse) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint that never faults, whatever the address, and changes no
    // memory. Tested by `tests::prefetching_changes_nothing` and by the cells', tables' and
    // batches' tests.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_NTA, _MM_HINT_T0};
        let address = address.cast::<i8>();
        match reuse {
            Reuse::Again => _mm_prefetch::<_MM_HINT_T0>(address),
            Reuse::Once => _mm_prefetch::<_MM_HINT_NTA>(address),
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (address, reuse);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefetching_any_address_is_only_a_hint() {
        let values = [1u64, 2, 3];
        values.iter().for_each(prefetch);
        for reuse in [Reuse::Again, Reuse::Once] {
            values.iter().for_each(|v| prefetch_for(v, reuse));
            // Past the end, and nowhere at all: still only a hint.
            prefetch_address(values.as_ptr_range().end.cast(), reuse);
            prefetch_address(std::ptr::null(), reuse);
        }
        prefetch_whole(&values);
        prefetch_whole(&[0u8; 1000]);
        prefetch_whole(&());
    }
}
