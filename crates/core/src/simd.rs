//! The core's vector kernels (AVX-512: the morris action set packed in registers, the
//! 24-point observation planes; AVX2: the same action set for CPUs without AVX-512), each with
//! a portable twin in the module that calls it, and the one switch that sets how far every
//! crate of perfectplay may go in vector instructions.
//!
//! The switch: `PERFECTPLAY_SIMD` in the environment (read once, at the first kernel call), or
//! [`force_level`] at any time. `portable` forces the portable paths (plain x86-64-v2 code);
//! `avx2` allows the AVX2 kernels, and BMI2's `pdep`/`pext` where [`cpu_has_fast_bmi2`], but
//! no AVX-512 kernel: the paths of a CPU without AVX-512 such as AMD's Zen 3 or Intel's client
//! cores from Alder Lake on; anything else (or nothing) lets every kernel the CPU has run.
//! It exists so that the slower paths can be measured and tested on a CPU that has the wider
//! instructions: every path must give the same results, and the tests run each kernel against
//! its twin wherever the CPU can.

use std::sync::atomic::{AtomicU8, Ordering};

#[cfg(target_arch = "x86_64")]
use crate::morris::action_words::{Start, ACTION_WORDS};
#[cfg(target_arch = "x86_64")]
use crate::morris::board::MAX_POINTS;
#[cfg(target_arch = "x86_64")]
use crate::morris::observation::PLANES;

/// How far the kernels may go, the widest last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SimdLevel {
    /// The portable paths only.
    Portable,
    /// Kernels up to AVX2: what a CPU without AVX-512 runs.
    Avx2,
    /// Every kernel the CPU has.
    Native,
}

/// The switch: [`UNREAD`], or a [`SimdLevel`] as `1 + level`.
static SWITCH: AtomicU8 = AtomicU8::new(UNREAD);
const UNREAD: u8 = 0;

/// The environment variable that caps the kernels: `portable` or `avx2`.
pub const SWITCH_VARIABLE: &str = "PERFECTPLAY_SIMD";

/// The level a value of [`SWITCH_VARIABLE`] asks for.
fn level_of(value: Option<&str>) -> SimdLevel {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("portable") => SimdLevel::Portable,
        Some("avx2") => SimdLevel::Avx2,
        _ => SimdLevel::Native,
    }
}

/// The level the kernels may go to (set by [`force_level`], else by [`SWITCH_VARIABLE`]).
#[inline(always)]
pub fn level() -> SimdLevel {
    // Asked several times per env step: a load and a compare, the variable read out of line.
    match SWITCH.load(Ordering::Relaxed) {
        UNREAD => read_switch(),
        1 => SimdLevel::Portable,
        2 => SimdLevel::Avx2,
        _ => SimdLevel::Native,
    }
}

/// Reads [`SWITCH_VARIABLE`] into the switch, the first time it is asked.
#[cold]
#[inline(never)]
fn read_switch() -> SimdLevel {
    let level = level_of(std::env::var(SWITCH_VARIABLE).ok().as_deref());
    SWITCH.store(1 + level as u8, Ordering::Relaxed);
    level
}

/// Whether the portable paths are forced.
#[inline]
pub fn portable_forced() -> bool {
    level() == SimdLevel::Portable
}

/// Whether AVX-512 kernels may run, the CPU's features checked apart.
#[inline]
pub fn wide_allowed() -> bool {
    level() == SimdLevel::Native
}

/// Sets how far the kernels may go, from the next call of any kernel on. Results do not
/// change whatever the level.
pub fn force_level(level: SimdLevel) {
    SWITCH.store(1 + level as u8, Ordering::Relaxed);
}

/// Forces the portable paths everywhere (`true`) or lets every kernel the CPU has run
/// (`false`); [`force_level`] with [`SimdLevel::Portable`] or [`SimdLevel::Native`].
pub fn force_portable(forced: bool) {
    force_level(if forced {
        SimdLevel::Portable
    } else {
        SimdLevel::Native
    });
}

/// Whether BMI2's `pdep` and `pext` may run and are fast: the switch allows more than the
/// portable paths and [`cpu_has_fast_bmi2`].
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn has_fast_bmi2() -> bool {
    !portable_forced() && cpu_has_fast_bmi2()
}

/// Whether the CPU itself runs BMI2's `pdep` and `pext` fast, whatever the switch says: BMI2
/// on an Intel CPU (every one with BMI2 runs them in a few cycles), an AMD CPU of family 19h
/// (Zen 3) or later, or any CPU with AVX-512. AMD's before Zen 3 (and Hygon's) have BMI2 but
/// microcode it, some hundred times slower. Worked out once (`cpuid` may trap to a
/// hypervisor), then a load and a test.
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn cpu_has_fast_bmi2() -> bool {
    static FAST: AtomicU8 = AtomicU8::new(UNREAD);
    match FAST.load(Ordering::Relaxed) {
        UNREAD => {
            let fast = bmi2_is_fast();
            FAST.store(1 + u8::from(fast), Ordering::Relaxed);
            fast
        }
        known => known == 2,
    }
}

/// [`cpu_has_fast_bmi2`], asked of the CPU.
#[cfg(target_arch = "x86_64")]
#[cold]
fn bmi2_is_fast() -> bool {
    if !std::arch::is_x86_feature_detected!("bmi2") {
        return false;
    }
    if std::arch::is_x86_feature_detected!("avx512f") {
        return true;
    }
    // `cpuid` exists on every x86-64 CPU, and so do its leaves 0 and 1.
    let vendor = std::arch::x86_64::__cpuid(0);
    let signature = std::arch::x86_64::__cpuid(1).eax;
    let name = [vendor.ebx, vendor.edx, vendor.ecx].map(u32::to_le_bytes);
    bmi2_fast_on(name.as_flattened(), signature)
}

/// Whether a CPU with BMI2 and without AVX-512 runs it fast, by its vendor string and its
/// `cpuid` leaf 1 signature.
#[cfg(target_arch = "x86_64")]
fn bmi2_fast_on(vendor: &[u8], signature: u32) -> bool {
    match vendor {
        b"GenuineIntel" => true,
        b"AuthenticAMD" => cpu_family(signature) >= 0x19,
        _ => false,
    }
}

/// The family of a `cpuid` leaf 1 signature: the base family, plus the extended family
/// where the base family is 15.
#[cfg(target_arch = "x86_64")]
fn cpu_family(signature: u32) -> u32 {
    let base = (signature >> 8) & 0xf;
    if base == 0xf {
        base + ((signature >> 20) & 0xff)
    } else {
        base
    }
}

/// Whether AVX2 kernels may run: the switch allows them and the CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[inline]
pub fn has_avx2() -> bool {
    !portable_forced() && std::arch::is_x86_feature_detected!("avx2")
}

/// Whether the CPU has what [`pack_24_vbmi`] needs (std caches the answers, so each check is
/// a load and a test).
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_vbmi() -> bool {
    wide_allowed() && cpu_has_vbmi()
}

/// Whether the CPU itself has what [`pack_24_vbmi`] needs, whatever the switch says.
#[cfg(target_arch = "x86_64")]
pub(crate) fn cpu_has_vbmi() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vbmi")
        && std::arch::is_x86_feature_detected!("avx512vpopcntdq")
}

/// The 24-point set in vector registers: the 25 groups as lanes of 32 bits (the placements,
/// then each point's destinations: its lines or every point when flying, and the empty
/// points, in the lanes whose men move), then the three low bytes of each lane laid end to
/// end by two byte permutations, stored (the ten words in two stores) and counted. Returns
/// the number of actions.
///
/// # Safety
///
/// The CPU has AVX-512F, AVX-512BW, AVX-512VBMI and AVX-512VPOPCNTDQ.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,avx512vpopcntdq")]
pub(crate) unsafe fn pack_24_vbmi(
    start: &Start,
    lines: &[u32; MAX_POINTS],
    words: &mut [u64; ACTION_WORDS],
) -> usize {
    use std::arch::x86_64::{
        __m128i, _mm512_add_epi64, _mm512_alignr_epi32, _mm512_castsi512_si128, _mm512_loadu_si512,
        _mm512_maskz_and_epi32, _mm512_maskz_loadu_epi32, _mm512_maskz_permutex2var_epi8,
        _mm512_or_si512, _mm512_permutex2var_epi8, _mm512_popcnt_epi64, _mm512_reduce_add_epi64,
        _mm512_set1_epi32, _mm512_storeu_si512, _mm_storeu_si128,
    };
    /// Byte `j` of the set is byte `j % 3` of lane `j / 3` (bytes 0..64, then 64..75; a
    /// permutation's index reaches 128 bytes, the two vectors of lanes).
    const INDEX: [[u8; 64]; 2] = {
        let mut index = [[0; 64]; 2];
        let mut j = 0;
        while j < 75 {
            index[j / 64][j % 64] = ((j / 3) * 4 + j % 3) as u8;
            j += 1;
        }
        index
    };
    // SAFETY: the loads read the 16 values of `lines[0..16]` and (masked to eight lanes, which
    // reads nothing past them) `lines[16..24]`, and the tables' 64 bytes each; the stores
    // write the 64 bytes of `words[0..8]` and the 16 of `words[8..10]`. Unaligned loads and
    // stores are allowed. The CPU features are the caller's promise. Tested against the
    // portable packing (`the_vector_packings_are_the_portable_one`).
    unsafe {
        let all = _mm512_set1_epi32(-1);
        let low = _mm512_loadu_si512(lines.as_ptr().cast());
        let high = _mm512_maskz_loadu_epi32(0xff, lines.as_ptr().add(16).cast());
        // Lanes 0..16: the placements' (all points), then points 0..15's; lanes 16..32:
        // points 15..23's, then none.
        let first = _mm512_alignr_epi32::<15>(low, all);
        let second = _mm512_alignr_epi32::<15>(high, low);
        let flying = _mm512_set1_epi32(start.flying as i32);
        let empty = _mm512_set1_epi32(start.empty as i32);
        let first =
            _mm512_maskz_and_epi32(start.lanes as u16, _mm512_or_si512(first, flying), empty);
        let second = _mm512_maskz_and_epi32(
            (start.lanes >> 16) as u16,
            _mm512_or_si512(second, flying),
            empty,
        );
        let bytes =
            _mm512_permutex2var_epi8(first, _mm512_loadu_si512(INDEX[0].as_ptr().cast()), second);
        let rest = _mm512_maskz_permutex2var_epi8(
            (1 << 11) - 1,
            first,
            _mm512_loadu_si512(INDEX[1].as_ptr().cast()),
            second,
        );
        _mm512_storeu_si512(words.as_mut_ptr().cast(), bytes);
        _mm_storeu_si128(
            words.as_mut_ptr().add(8).cast::<__m128i>(),
            _mm512_castsi512_si128(rest),
        );
        let counts = _mm512_add_epi64(_mm512_popcnt_epi64(bytes), _mm512_popcnt_epi64(rest));
        _mm512_reduce_add_epi64(counts) as usize
    }
}

/// The number of set bits in each byte of `v`: each nibble's looked up in a 16-entry table
/// (one byte shuffle per nibble), the two added. Summed per 64-bit lane by `_mm256_sad_epu8`
/// against zero, it is AVX2's population count of four words.
///
/// # Safety
///
/// The CPU has AVX2: a call from a function compiled with AVX2 needs no `unsafe`; any other
/// caller makes that promise.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub fn byte_ones_avx2(v: std::arch::x86_64::__m256i) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::{
        _mm256_add_epi8, _mm256_and_si256, _mm256_set1_epi8, _mm256_setr_epi8, _mm256_shuffle_epi8,
        _mm256_srli_epi16,
    };
    let nibble_ones = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3,
        3, 4,
    );
    let low = _mm256_set1_epi8(0x0f);
    _mm256_add_epi8(
        _mm256_shuffle_epi8(nibble_ones, _mm256_and_si256(v, low)),
        _mm256_shuffle_epi8(
            nibble_ones,
            _mm256_and_si256(_mm256_srli_epi16::<4>(v), low),
        ),
    )
}

/// [`pack_24_vbmi`] in AVX2, for CPUs without AVX-512: the 25 groups as four vectors of eight
/// lanes (the placements, then points 0..7; points 7..15; 15..23; 23), each vector's three low
/// bytes per lane gathered into 24 bytes (a byte shuffle in each half, then a lane
/// permutation), and those three words per vector moved into the ten words by whole words, so
/// that the set goes out in three stores that later loads of its words find whole. Counted in
/// registers by nibble lookups. Returns the number of actions.
///
/// # Safety
///
/// The CPU has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn pack_24_avx2(
    start: &Start,
    lines: &[u32; MAX_POINTS],
    words: &mut [u64; ACTION_WORDS],
) -> usize {
    use std::arch::x86_64::{
        __m128i, __m256i, _mm256_add_epi8, _mm256_and_si256, _mm256_blend_epi32,
        _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_or_si256,
        _mm256_permute4x64_epi64, _mm256_permutevar8x32_epi32, _mm256_sad_epu8, _mm256_set1_epi32,
        _mm256_setr_epi32, _mm256_setr_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8,
        _mm256_sllv_epi32, _mm256_srai_epi32, _mm256_storeu_si256, _mm256_zextsi128_si256,
        _mm_add_epi64, _mm_cvtsi128_si64, _mm_storeu_si128, _mm_unpackhi_epi64, _mm_unpacklo_epi64,
    };
    const { assert!(MAX_POINTS == 24 && ACTION_WORDS == 10) };
    // SAFETY: the loads read the 24 values of `lines` (three vectors of eight); the stores
    // write the 32 bytes of `words[0..4]`, the 32 of `words[4..8]` and the 16 of
    // `words[8..10]`. Unaligned loads and stores are allowed. The CPU feature is the caller's
    // promise. Tested against the portable packing (`the_vector_packings_are_the_portable_one`).
    unsafe {
        let line = |i: usize| _mm256_loadu_si256(lines.as_ptr().add(8 * i).cast::<__m256i>());
        // Each vector's lanes moved up one, its last lane coming round to lane 0, which the
        // blends below fill with the lane before (for lane 0 of the first: every point).
        let up = _mm256_setr_epi32(7, 0, 1, 2, 3, 4, 5, 6);
        let [r0, r1, r2] = [0, 1, 2].map(|i| _mm256_permutevar8x32_epi32(line(i), up));
        let all = _mm256_set1_epi32(-1);
        let groups_lines = [
            _mm256_blend_epi32::<1>(r0, all),
            _mm256_blend_epi32::<1>(r1, r0),
            _mm256_blend_epi32::<1>(r2, r1),
            // Lane 0: point 23; lanes 1..8 are past the groups (emptied below).
            r2,
        ];
        let flying = _mm256_set1_epi32(start.flying as i32);
        let empty = _mm256_set1_epi32(start.empty as i32);
        let lane_bits = _mm256_set1_epi32(start.lanes as i32);
        // Lane `g` all ones when bit `g` of the lanes is set: that bit shifted to the top and
        // spread by an arithmetic shift; the lanes past the 25 groups shifted out whatever
        // their bits (a shift by 32 or more leaves 0).
        let to_top = [
            _mm256_setr_epi32(31, 30, 29, 28, 27, 26, 25, 24),
            _mm256_setr_epi32(23, 22, 21, 20, 19, 18, 17, 16),
            _mm256_setr_epi32(15, 14, 13, 12, 11, 10, 9, 8),
            _mm256_setr_epi32(7, 32, 32, 32, 32, 32, 32, 32),
        ];
        // The three low bytes of each lane end to end: 12 bytes in each half, then the two
        // halves' together as the low 24 bytes (the top 8 zero).
        let three_of_four = _mm256_setr_epi8(
            0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12,
            13, 14, -1, -1, -1, -1,
        );
        let halves = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
        let [c0, c1, c2, c3] = [0, 1, 2, 3].map(|i| {
            let moves = _mm256_srai_epi32::<31>(_mm256_sllv_epi32(lane_bits, to_top[i]));
            let group = _mm256_and_si256(
                _mm256_and_si256(_mm256_or_si256(groups_lines[i], flying), empty),
                moves,
            );
            _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(group, three_of_four), halves)
        });
        // Words 0..4: c0's three, then c1's first; 4..8: c1's last two, then c2's first two;
        // 8..10: c2's last, then c3's first.
        let first = _mm256_blend_epi32::<0b1100_0000>(c0, _mm256_permute4x64_epi64::<0>(c1));
        let second = _mm256_blend_epi32::<0b1111_0000>(
            _mm256_permute4x64_epi64::<0b11_11_10_01>(c1),
            _mm256_permute4x64_epi64::<0b01_00_00_00>(c2),
        );
        let third = _mm_unpacklo_epi64(
            _mm256_extracti128_si256::<1>(c2),
            _mm256_castsi256_si128(c3),
        );
        _mm256_storeu_si256(words.as_mut_ptr().cast::<__m256i>(), first);
        _mm256_storeu_si256(words.as_mut_ptr().add(4).cast::<__m256i>(), second);
        _mm_storeu_si128(words.as_mut_ptr().add(8).cast::<__m128i>(), third);
        // Bits per byte, summed over the three (at most 24 a byte), then per word and over
        // the words.
        let bytes = _mm256_add_epi8(
            _mm256_add_epi8(byte_ones_avx2(first), byte_ones_avx2(second)),
            byte_ones_avx2(_mm256_zextsi128_si256(third)),
        );
        let sums = _mm256_sad_epu8(bytes, _mm256_setzero_si256());
        let pair = _mm_add_epi64(
            _mm256_castsi256_si128(sums),
            _mm256_extracti128_si256::<1>(sums),
        );
        _mm_cvtsi128_si64(_mm_add_epi64(pair, _mm_unpackhi_epi64(pair, pair))) as usize
    }
}

/// Whether the CPU has what [`write_planes_24_avx512`] needs (std caches the answers, so each
/// check is a load and a test).
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_avx512f() -> bool {
    wide_allowed() && cpu_has_avx512f()
}

/// Whether the CPU itself has AVX-512F, whatever the switch says.
#[cfg(target_arch = "x86_64")]
pub(crate) fn cpu_has_avx512f() -> bool {
    std::arch::is_x86_feature_detected!("avx512f")
}

/// Writes the 24-point observation: `bits` as planes 0 to 2, `fills` as planes 3 to 5, and
/// `arrived` as plane 6. The 168 values are written as ten and a half vectors of 16 end to
/// end, whatever planes each holds (so 11 stores, where a plane at a time takes 21): the bit
/// planes' values as masked moves of ones, the fills as broadcasts, blended where a vector
/// holds the end of one plane and the start of the next.
///
/// # Safety
///
/// The CPU has AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn write_planes_24_avx512(
    planes: &mut [[f32; 24]; PLANES],
    bits: [u32; 3],
    fills: [f32; 3],
    arrived: u32,
) {
    use std::arch::x86_64::{
        _mm512_mask_blend_ps, _mm512_mask_storeu_ps, _mm512_maskz_mov_ps, _mm512_set1_ps,
        _mm512_storeu_ps,
    };
    const { assert!(PLANES == 7) };
    let out = planes.as_flattened_mut().as_mut_ptr();
    // Values 0..64 are planes 0 and 1 and the start of plane 2, as bits.
    let head = u64::from(bits[0]) | u64::from(bits[1]) << 24 | u64::from(bits[2]) << 48;
    let ones = |lanes: u64| _mm512_maskz_mov_ps(lanes as u16, _mm512_set1_ps(1.0));
    let [own, theirs, removing] = fills.map(|fill| _mm512_set1_ps(fill));
    // Lanes 8..16 of a vector: the second of two planes that meet in its middle.
    const SECOND_HALF: u16 = 0xff00;
    let vectors = [
        ones(head),
        ones(head >> 16),
        ones(head >> 32),
        ones(head >> 48),
        // The end of plane 2 (values 64..72), then plane 3 begins.
        _mm512_mask_blend_ps(SECOND_HALF, ones(u64::from(bits[2] >> 16)), own),
        own,
        theirs,
        // The end of plane 4 (112..120), then plane 5 begins.
        _mm512_mask_blend_ps(SECOND_HALF, theirs, removing),
        removing,
        ones(u64::from(arrived)),
    ];
    // SAFETY: the ten stores write values 16 * i .. 16 * i + 16 for i in 0..10, and the masked
    // store values 160..168 alone: all within the 168 values of `planes` (unaligned stores
    // are allowed; a masked store touches no byte outside its mask). The CPU feature is the
    // caller's promise. Tested against the general observation
    // (`the_24_point_observation_is_the_general_one`).
    unsafe {
        for (i, vector) in vectors.into_iter().enumerate() {
            _mm512_storeu_ps(out.add(16 * i), vector);
        }
        _mm512_mask_storeu_ps(out.add(160), 0xff, ones(u64::from(arrived >> 16)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::morris::actions::Stage;
    use crate::morris::{Morris, MorrisRules};
    use crate::{ActionGame, GameState, SplitMix64};

    /// The action words and the observation of the start of a turn in `pos`, by whichever
    /// paths the switch allows.
    fn turn_start(
        game: &Morris,
        pos: &crate::morris::MorrisPosition,
    ) -> (Option<usize>, Vec<u64>, Vec<f32>) {
        let mut words = [0; crate::morris::action_words::ACTION_WORDS];
        let count = game.write_start_actions(pos, &Stage::Start, &mut words);
        let mut obs = vec![0.0; game.observation_shape().iter().product()];
        game.write_observation(pos, &Stage::Start, &mut obs);
        (count, words.to_vec(), obs)
    }

    /// The production paths at every level of the switch agree along random games of every
    /// morris game (on a CPU without the vector instructions both ways are the portable path).
    #[test]
    fn capping_the_kernels_changes_no_result() {
        let mut rng = SplitMix64::new(0x5349_4d44);
        for preset in MorrisRules::PRESETS {
            let game = Morris::new(preset.rules).unwrap();
            for _ in 0..5 {
                let mut state = GameState::new(game);
                while !state.is_over() && state.ply() < 200 {
                    force_level(SimdLevel::Portable);
                    let portable = turn_start(&game, state.position());
                    force_level(SimdLevel::Avx2);
                    let avx2 = turn_start(&game, state.position());
                    force_level(SimdLevel::Native);
                    let vector = turn_start(&game, state.position());
                    let fen = game.fen(state.position(), 0);
                    assert_eq!(portable, avx2, "{fen}");
                    assert_eq!(portable, vector, "{fen}");
                    let moves = state.legal_moves();
                    let mv = moves[rng.below(moves.len()).unwrap()];
                    state.play(&mv).unwrap();
                }
            }
        }
        force_portable(false);
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn byte_counts_by_nibble_lookup_are_the_population_counts() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut rng = SplitMix64::new(0x6e69_6262);
        let mut inputs: Vec<[u8; 32]> = vec![[0; 32], [0xff; 32], std::array::from_fn(|i| i as u8)];
        inputs.extend((0..200).map(|_| std::array::from_fn(|_| rng.next_u64() as u8)));
        for bytes in inputs {
            let mut counts = [0u8; 32];
            // SAFETY: the CPU has AVX2 (checked above); the load reads and the store writes
            // the 32 bytes of two `[u8; 32]`, unaligned access allowed.
            unsafe {
                use std::arch::x86_64::{__m256i, _mm256_loadu_si256, _mm256_storeu_si256};
                let v = _mm256_loadu_si256(bytes.as_ptr().cast::<__m256i>());
                _mm256_storeu_si256(counts.as_mut_ptr().cast::<__m256i>(), byte_ones_avx2(v));
            }
            assert_eq!(counts, bytes.map(|b| b.count_ones() as u8), "{bytes:?}");
        }
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn cpu_families_read_as_the_manuals_give_them() {
        // Zen 2 (EPYC 7002), Zen 3 (EPYC 7003), Zen 4 (EPYC 9004), Haswell.
        assert_eq!(cpu_family(0x0083_0f10), 0x17);
        assert_eq!(cpu_family(0x00a0_0f11), 0x19);
        assert_eq!(cpu_family(0x00a1_0f11), 0x19);
        assert_eq!(cpu_family(0x0003_06c3), 6);
        let (zen2, zen3, zen5, haswell) = (0x0083_0f10, 0x00a0_0f11, 0x00b4_0f00, 0x0003_06c3);
        assert!(!bmi2_fast_on(b"AuthenticAMD", zen2));
        assert!(bmi2_fast_on(b"AuthenticAMD", zen3));
        assert!(bmi2_fast_on(b"AuthenticAMD", zen5));
        assert!(bmi2_fast_on(b"GenuineIntel", haswell));
        // Hygon's Dhyana (family 18h, Zen 1) and vendors not known here.
        assert!(!bmi2_fast_on(b"HygonGenuine", 0x0090_0f01));
        assert!(!bmi2_fast_on(b"CentaurHauls", haswell));
    }

    #[test]
    fn the_variable_caps_the_kernels_only_when_it_says_so() {
        assert_eq!(level_of(Some("portable")), SimdLevel::Portable);
        assert_eq!(level_of(Some(" Portable\n")), SimdLevel::Portable);
        assert_eq!(level_of(Some("AVX2")), SimdLevel::Avx2);
        assert_eq!(level_of(Some("vector")), SimdLevel::Native);
        assert_eq!(level_of(Some("")), SimdLevel::Native);
        assert_eq!(level_of(None), SimdLevel::Native);
    }
}
