//! A hint to bring memory into the cache before it is read: the solver and batched probes issue
//! several before waiting for the first, so that their cache misses overlap.

/// Asks the processor to bring the cache line holding `value` into the cache.
#[inline]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint that never faults and changes no memory; the address is that
    // of a live reference in any case. Tested by `tests::prefetching_changes_nothing` and by the
    // cells' and tables' tests.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
            std::ptr::from_ref(value).cast::<i8>(),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

#[cfg(test)]
mod tests {
    #[test]
    fn prefetching_changes_nothing() {
        let values = [1u64, 2, 3];
        values.iter().for_each(super::prefetch);
        assert_eq!(values, [1, 2, 3]);
    }
}
