//! The environment's vector kernels, each with a portable twin in [`crate::actions`]: the mask
//! of an action set in 64-value stores (AVX-512BW) or shuffles (SSSE3), the `k`-th action by
//! `pdep` (BMI2) and by population counts in one register (AVX-512VPOPCNTDQ).
//!
//! [`perfectplay_core::simd::force_portable`] (or `PERFECTPLAY_SIMD=portable`) makes the
//! callers take the portable twins, for measuring them on any CPU; the tests run each kernel
//! against its twin wherever the CPU can.

#[cfg(target_arch = "x86_64")]
use perfectplay_core::simd::portable_forced;

#[cfg(target_arch = "x86_64")]
use crate::actions::WORDS;

/// Whether [`write_mask_avx512`] may run: the switch allows it and the CPU has AVX-512F and
/// AVX-512BW.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_avx512_mask() -> bool {
    !portable_forced() && cpu_has_avx512_mask()
}

/// Whether the CPU itself has what [`write_mask_avx512`] needs, whatever the switch says.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn cpu_has_avx512_mask() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
}

/// Writes the 64 bits of `word` into `out` as values, lowest bit first.
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
#[inline(always)]
pub(crate) fn expand_word_ssse3(word: u64, out: &mut [bool; 64]) {
    use std::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cvtsi64_si128, _mm_set1_epi64x, _mm_set1_epi8,
        _mm_setr_epi8, _mm_shuffle_epi8, _mm_storeu_si128,
    };
    // SAFETY: the intrinsics need SSE2 and SSSE3, which this build's target has (the `cfg`
    // above; `.cargo/config.toml` asks for x86-64-v2). Each store writes the 16 bytes of one
    // `[bool; 16]` of `out` (unaligned stores are allowed), every byte 0 or 1, a valid `bool`.
    // Tested against the byte table (`expanded_words_match_the_byte_table`).
    unsafe {
        let bits = _mm_cvtsi64_si128(word as i64);
        // Lane i of eight keeps bit i of its byte.
        let select = _mm_set1_epi64x(0x8040_2010_0804_0201_u64 as i64);
        let one = _mm_set1_epi8(1);
        // Each 16 values come from two bytes of the word, each spread over eight lanes.
        let spreads = [
            _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1),
            _mm_setr_epi8(2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3),
            _mm_setr_epi8(4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5),
            _mm_setr_epi8(6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7),
        ];
        for (out, spread) in out.as_chunks_mut::<16>().0.iter_mut().zip(spreads) {
            let lanes = _mm_and_si128(_mm_shuffle_epi8(bits, spread), select);
            let values = _mm_and_si128(_mm_cmpeq_epi8(lanes, select), one);
            _mm_storeu_si128(out.as_mut_ptr().cast::<__m128i>(), values);
        }
    }
}

/// Writes `words` as a mask: `mask[a]` is bit `a` of the words (false past the last word),
/// 64 values per masked move and store, the last (shorter) run of values by a masked store;
/// with the trip count known for the 24-point morris boards' 600 values.
///
/// # Safety
///
/// The CPU has AVX-512F and AVX-512BW.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
pub(crate) unsafe fn write_mask_avx512(words: &[u64; WORDS], mask: &mut [bool]) {
    if let Ok(mask) = <&mut [bool; 600]>::try_from(&mut *mask) {
        // SAFETY: the caller's promise.
        return unsafe { write_mask_runs(words, mask) };
    }
    // SAFETY: the caller's promise.
    unsafe { write_mask_runs(words, mask) }
}

/// The body of [`write_mask_avx512`], inlined into it for each length it sees.
///
/// # Safety
///
/// The CPU has AVX-512F and AVX-512BW.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn write_mask_runs(words: &[u64; WORDS], mask: &mut [bool]) {
    use std::arch::x86_64::{
        _mm512_mask_storeu_epi8, _mm512_maskz_mov_epi8, _mm512_set1_epi8, _mm512_storeu_si512,
    };
    let word = |i: usize| words.get(i).copied().unwrap_or(0);
    let (runs, tail) = mask.as_chunks_mut::<64>();
    // SAFETY: each full store writes the 64 bytes of one `[bool; 64]` run of `mask`, the
    // masked store the first `tail.len()` bytes of the tail alone (a masked store touches no
    // byte outside its mask, so it reaches past nothing); unaligned stores are allowed; every
    // byte is 0 or 1, a valid `bool`. The CPU features are the caller's promise. Tested
    // against the byte table (`masks_match_the_set_whatever_the_length`).
    unsafe {
        let one = _mm512_set1_epi8(1);
        for (i, run) in runs.iter_mut().enumerate() {
            _mm512_storeu_si512(run.as_mut_ptr().cast(), _mm512_maskz_mov_epi8(word(i), one));
        }
        if !tail.is_empty() {
            let lanes = u64::MAX >> (64 - tail.len());
            _mm512_mask_storeu_epi8(
                tail.as_mut_ptr().cast::<i8>(),
                lanes,
                _mm512_maskz_mov_epi8(word(runs.len()), one),
            );
        }
    }
}

/// Whether [`select_pdep`] is the fast way to select: BMI2's `pdep`, which every CPU with
/// AVX-512 runs in a few cycles (AMD's before Zen 3 have BMI2 but microcode it, a hundred times
/// slower, and have no AVX-512). std caches the answers, so each check is a load and a test.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_fast_pdep() -> bool {
    !portable_forced() && cpu_has_fast_pdep()
}

/// Whether the CPU itself has a fast `pdep`, whatever the switch says.
#[cfg(target_arch = "x86_64")]
pub(crate) fn cpu_has_fast_pdep() -> bool {
    std::arch::is_x86_feature_detected!("bmi2") && std::arch::is_x86_feature_detected!("avx512f")
}

/// `select_in_word` by depositing the `k`-th bit into `word`'s set bits.
///
/// # Safety
///
/// The CPU has BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
pub(crate) unsafe fn select_pdep(word: u64, k: usize) -> usize {
    std::arch::x86_64::_pdep_u64(1 << (k & 63), word).trailing_zeros() as usize
}

/// Whether the CPU has what [`nth_avx512`] needs.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_vector_nth() -> bool {
    !portable_forced() && cpu_has_vector_nth()
}

/// Whether the CPU itself has what [`nth_avx512`] needs, whatever the switch says.
#[cfg(target_arch = "x86_64")]
pub(crate) fn cpu_has_vector_nth() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
        && std::arch::is_x86_feature_detected!("bmi2")
}

/// [`crate::actions::ActionSet::nth`] with the words' population counts and their running sums in
/// one vector: the words wholly before the action are the lanes whose running sum is at most
/// `index` (a run from the first lane, the sums never falling), the action is in the next word, and
/// `pdep` finds its bit there. The last two of the ten words are counted apart.
///
/// # Safety
///
/// The CPU has AVX-512F, AVX-512VPOPCNTDQ and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vpopcntdq,bmi2")]
pub(crate) unsafe fn nth_avx512(words: &[u64; WORDS], index: usize) -> Option<usize> {
    use std::arch::x86_64::{
        _mm512_add_epi64, _mm512_alignr_epi64, _mm512_castsi512_si128, _mm512_cmple_epu64_mask,
        _mm512_loadu_si512, _mm512_maskz_permutexvar_epi64, _mm512_popcnt_epi64, _mm512_set1_epi64,
        _mm512_setzero_si512, _mm_cvtsi128_si64,
    };
    const { assert!(WORDS == 10) };
    let index64 = index as u64;
    // SAFETY: the load reads the 64 bytes of `words[0..8]` (unaligned loads are allowed); the
    // CPU features are the caller's promise. Tested against the word-at-a-time search
    // (`nth_agrees_with_counting_through_the_set`, which runs this path where the CPU can).
    let (whole, before) = unsafe {
        let zero = _mm512_setzero_si512();
        let counts = _mm512_popcnt_epi64(_mm512_loadu_si512(words.as_ptr().cast()));
        // Running sums: lane i becomes the count of words 0..=i.
        let mut sums = _mm512_add_epi64(counts, _mm512_alignr_epi64::<7>(counts, zero));
        sums = _mm512_add_epi64(sums, _mm512_alignr_epi64::<6>(sums, zero));
        sums = _mm512_add_epi64(sums, _mm512_alignr_epi64::<4>(sums, zero));
        let whole = _mm512_cmple_epu64_mask(sums, _mm512_set1_epi64(index64 as i64));
        // The running sum of the words before the action's: lane `whole - 1` (none when the
        // action is in word 0, all eight when it is past them).
        let count = whole.count_ones();
        let last = _mm512_set1_epi64(i64::from(count.saturating_sub(1)));
        let picked = _mm512_maskz_permutexvar_epi64(u8::from(count > 0), last, sums);
        (
            count as usize,
            _mm_cvtsi128_si64(_mm512_castsi512_si128(picked)) as u64,
        )
    };
    let (mut word, mut before) = (whole, before);
    if word == 8 {
        // Past the first eight words: the last two, one at a time.
        let ones = u64::from(words[8].count_ones());
        if index64 >= before + ones {
            word = 9;
            before += ones;
        }
    }
    let bits = words[word];
    let k = index64 - before;
    if k >= u64::from(bits.count_ones()) {
        return None;
    }
    // SAFETY: the CPU has BMI2, the caller's promise.
    Some(64 * word + unsafe { select_pdep(bits, k as usize) })
}
