//! The solver's CPU-specific kernels, each with a portable twin in the module that calls it:
//! the colex rank of a set within a point set by gathering its points with BMI2's `pext`
//! (the twin: [`crate::combin::colex_rank_within`]'s loop, which counts the points below each
//! point of the set).
//!
//! It runs where [`perfectplay_core::simd::has_fast_bmi2`] says (so `PERFECTPLAY_SIMD=portable`
//! makes the callers take the portable twin, for measuring it on any CPU); the tests run the
//! kernel against its twin wherever the CPU can.

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
