//! The environment's vector kernels, each with a portable twin in [`crate::actions`]: the mask
//! of an action set in 64-value stores (AVX-512BW) or shuffles (SSSE3), the `k`-th action by
//! population counts in one register (AVX-512VPOPCNTDQ) or in three (AVX2), its bit in its
//! word by `pdep` (BMI2, where [`perfectplay_core::simd::has_fast_bmi2`]).
//!
//! [`perfectplay_core::simd::force_level`] (or `PERFECTPLAY_SIMD=avx2` or `portable`) caps the
//! kernels the callers take, for measuring the narrower paths on any CPU; the tests run each
//! kernel against its twin wherever the CPU can.

#[cfg(target_arch = "x86_64")]
use perfectplay_core::simd::wide_allowed;

#[cfg(target_arch = "x86_64")]
use crate::actions::WORDS;

/// Whether [`write_mask_avx512`] may run: the switch allows it and the CPU has AVX-512F and
/// AVX-512BW.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn has_avx512_mask() -> bool {
    wide_allowed() && cpu_has_avx512_mask()
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
    wide_allowed() && cpu_has_vector_nth()
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

/// [`crate::actions::ActionSet::nth`] in AVX2, for CPUs without AVX-512: the words' population
/// counts by nibble lookups, their running sums in registers, the words wholly before the
/// action counted as the lanes whose running sum is at most `index` (a run from the first
/// lane, the sums never falling), and the action's bit selected in the next word.
///
/// # Safety
///
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn nth_avx2(words: &[u64; WORDS], index: usize) -> Option<usize> {
    use perfectplay_core::simd::byte_ones_avx2;
    use std::arch::x86_64::{
        __m128i, __m256i, _mm256_add_epi64, _mm256_blend_epi32, _mm256_castsi256_pd,
        _mm256_cmpgt_epi64, _mm256_loadu_si256, _mm256_movemask_pd, _mm256_permute4x64_epi64,
        _mm256_sad_epu8, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_storeu_si256,
        _mm256_zextsi128_si256, _mm_loadu_si128,
    };
    const { assert!(WORDS == 10) };
    // Past every action: no running sum is above it.
    let key = index.min(crate::actions::MAX_ACTIONS) as i64;
    // `sums[1 + w]`: the actions in words 0..=w; `sums[0]`: none (the words before word 0).
    let mut sums = [0u64; 13];
    // SAFETY: the loads read the 32 bytes of `words[0..4]`, the 32 of `words[4..8]` and the
    // 16 of `words[8..10]`; the stores write `sums[1..5]`, `sums[5..9]` and `sums[9..13]`.
    // Unaligned loads and stores are allowed; the CPU feature is the caller's promise. Tested
    // against the word-at-a-time search (`nth_agrees_with_counting_through_the_set`, which
    // runs this path where the CPU can).
    let whole = unsafe {
        let zero = _mm256_setzero_si256();
        // Each word's population count, in its lane.
        let counts = |v: __m256i| _mm256_sad_epu8(byte_ones_avx2(v), zero);
        // Running sums within a vector: add the lanes one before, then the sums two before.
        let running = |c: __m256i| {
            let c = _mm256_add_epi64(
                c,
                _mm256_blend_epi32::<0b0000_0011>(
                    _mm256_permute4x64_epi64::<0b10_01_00_00>(c),
                    zero,
                ),
            );
            _mm256_add_epi64(
                c,
                _mm256_blend_epi32::<0b0000_1111>(
                    _mm256_permute4x64_epi64::<0b01_00_00_00>(c),
                    zero,
                ),
            )
        };
        let last = |s: __m256i| _mm256_permute4x64_epi64::<0b11_11_11_11>(s);
        let ptr = words.as_ptr();
        let first = running(counts(_mm256_loadu_si256(ptr.cast::<__m256i>())));
        let second = _mm256_add_epi64(
            running(counts(_mm256_loadu_si256(ptr.add(4).cast::<__m256i>()))),
            last(first),
        );
        let third = _mm256_add_epi64(
            running(counts(_mm256_zextsi128_si256(_mm_loadu_si128(
                ptr.add(8).cast::<__m128i>(),
            )))),
            last(second),
        );
        let out = sums.as_mut_ptr().add(1).cast::<__m256i>();
        _mm256_storeu_si256(out, first);
        _mm256_storeu_si256(out.add(1), second);
        _mm256_storeu_si256(out.add(2), third);
        // The lanes whose running sum is above `index`; of the third vector, its two words'.
        let key = _mm256_set1_epi64x(key);
        let above =
            |s: __m256i| _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpgt_epi64(s, key))) as u32;
        let above = above(first) | above(second) << 4 | (above(third) & 0b11) << 8;
        WORDS - above.count_ones() as usize
    };
    let bits = *words.get(whole)?;
    Some(64 * whole + crate::actions::select(bits, index - sums[whole] as usize))
}
