//! The solver's CPU-specific kernels, each with a portable twin in the module that calls it:
//! the colex rank of a set within a point set by gathering its points with BMI2's `pext`
//! (the twin: [`crate::combin::colex_rank_within`]'s loop, which counts the points below each
//! point of the set).
//!
//! [`perfectplay_core::simd::force_portable`] (or `PERFECTPLAY_SIMD=portable`) makes the
//! callers take the portable twins, for measuring them on any CPU; the tests run each kernel
//! against its twin wherever the CPU can.

#[cfg(target_arch = "x86_64")]
use perfectplay_core::simd::portable_forced;

/// Whether [`colex_rank_within_pext`] may run and is fast: the switch allows it and the CPU has
/// a fast `pext` (see [`cpu_has_fast_pext`]).
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_fast_pext() -> bool {
    !portable_forced() && cpu_has_fast_pext()
}

/// Whether the CPU itself has a fast `pext`, whatever the switch says: BMI2 on a CPU with
/// AVX-512, as every such CPU runs `pext` in a few cycles (AMD's before Zen 3 have BMI2 but
/// microcode it, a hundred times slower, and have no AVX-512). std caches the answers, so each
/// check is a load and a test.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn cpu_has_fast_pext() -> bool {
    std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("avx512f")
}

/// [`crate::combin::colex_rank_within`]: the points of `set` gathered to the low bits in the
/// order of `space` (what renumbering `space`'s points `0..popcount(space)` does), then ranked.
///
/// # Safety
///
/// The CPU has BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
pub(crate) unsafe fn colex_rank_within_pext(set: u32, space: u32) -> u64 {
    crate::combin::colex_rank(std::arch::x86_64::_pext_u32(set, space))
}
