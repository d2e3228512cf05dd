//! A hint to bring memory into the cache before it is read: the solver and batched probes issue
//! several before waiting for the first, so that their cache misses overlap.

/// How long a prefetched line will be wanted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reuse {
    /// Read or written again: brought into every level of the cache.
    Again,
    /// Read once, soon: brought close without displacing what the outer caches hold. Random
    /// probes read one byte of gigabytes each; fetched into every level, those bytes would
    /// push out the index tables that every probe reads.
    Once,
}

/// Asks the processor to bring the cache line holding `value` into the cache.
#[inline]
pub(crate) fn prefetch<T>(value: &T) {
    prefetch_for(value, Reuse::Again);
}

/// Asks the processor to bring the cache line holding `value` into the cache, as `reuse` says.
#[inline]
pub(crate) fn prefetch_for<T>(value: &T, reuse: Reuse) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint that never faults and changes no memory; the address is that
    // of a live reference in any case. Tested by `tests::prefetching_changes_nothing` and by the
    // cells' and tables' tests.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_NTA, _MM_HINT_T0};
        let address = std::ptr::from_ref(value).cast::<i8>();
        match reuse {
            Reuse::Again => _mm_prefetch::<_MM_HINT_T0>(address),
            Reuse::Once => _mm_prefetch::<_MM_HINT_NTA>(address),
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (value, reuse);
}

#[cfg(test)]
mod tests {
    #[test]
    fn prefetching_changes_nothing() {
        let values = [1u64, 2, 3];
        values.iter().for_each(super::prefetch);
        for reuse in [super::Reuse::Again, super::Reuse::Once] {
            values.iter().for_each(|v| super::prefetch_for(v, reuse));
        }
        assert_eq!(values, [1, 2, 3]);
    }
}
