//! The core's vector kernels (AVX-512: the morris action set packed in registers, the
//! 24-point observation planes), each with a portable twin in the module that calls it, and
//! the one switch that makes every crate of perfectplay take the portable paths.
//!
//! The switch: `PERFECTPLAY_SIMD=portable` in the environment (read once, at the first
//! kernel call), or [`force_portable`] at any time. It exists so that the portable paths can
//! be measured and tested on a CPU that has the vector instructions: both paths must give the
//! same results, and the tests run each kernel against its twin wherever the CPU can.

use std::sync::atomic::{AtomicU8, Ordering};

#[cfg(target_arch = "x86_64")]
use crate::morris::action_words::{Start, ACTION_WORDS};
#[cfg(target_arch = "x86_64")]
use crate::morris::board::MAX_POINTS;
#[cfg(target_arch = "x86_64")]
use crate::morris::observation::PLANES;

/// The switch: not read yet, vector kernels allowed, portable paths forced.
static SWITCH: AtomicU8 = AtomicU8::new(UNREAD);
const UNREAD: u8 = 0;
const VECTORS: u8 = 1;
const PORTABLE: u8 = 2;

/// The environment variable that forces the portable paths when set to `portable`.
pub const SWITCH_VARIABLE: &str = "PERFECTPLAY_SIMD";

/// Whether a value of [`SWITCH_VARIABLE`] forces the portable paths.
fn forces_portable(value: Option<&str>) -> bool {
    value.is_some_and(|v| v.trim().eq_ignore_ascii_case("portable"))
}

/// Whether the portable paths are forced (by [`force_portable`] or [`SWITCH_VARIABLE`]).
#[inline]
pub fn portable_forced() -> bool {
    match SWITCH.load(Ordering::Relaxed) {
        UNREAD => {
            let value = std::env::var(SWITCH_VARIABLE).ok();
            let forced = forces_portable(value.as_deref());
            SWITCH.store(if forced { PORTABLE } else { VECTORS }, Ordering::Relaxed);
            forced
        }
        state => state == PORTABLE,
    }
}

/// Forces the portable paths everywhere (`true`) or lets the vector kernels run where the CPU
/// has them (`false`), from the next call of any kernel on. Results do not change either way.
pub fn force_portable(forced: bool) {
    SWITCH.store(if forced { PORTABLE } else { VECTORS }, Ordering::Relaxed);
}

/// Whether vector kernels may run (the CPU's features are checked apart).
#[inline]
fn vectors_allowed() -> bool {
    !portable_forced()
}

/// Whether the CPU has what [`pack_24_vbmi`] needs (std caches the answers, so each check is
/// a load and a test).
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_vbmi() -> bool {
    vectors_allowed() && cpu_has_vbmi()
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
    // portable packing (`the_vector_packing_is_the_portable_one`).
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

/// Whether the CPU has what [`write_planes_24_avx512`] needs (std caches the answers, so each
/// check is a load and a test).
#[cfg(target_arch = "x86_64")]
pub(crate) fn has_avx512f() -> bool {
    vectors_allowed() && cpu_has_avx512f()
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

    /// The production paths with the switch both ways agree along random games of every
    /// morris game (on a CPU without the vector instructions both ways are the portable path).
    #[test]
    fn forcing_the_portable_paths_changes_no_result() {
        let mut rng = SplitMix64::new(0x5349_4d44);
        for preset in MorrisRules::PRESETS {
            let game = Morris::new(preset.rules).unwrap();
            for _ in 0..5 {
                let mut state = GameState::new(game);
                while !state.is_over() && state.ply() < 200 {
                    force_portable(true);
                    let portable = turn_start(&game, state.position());
                    force_portable(false);
                    let vector = turn_start(&game, state.position());
                    assert_eq!(portable, vector, "{}", game.fen(state.position(), 0));
                    let moves = state.legal_moves();
                    let mv = moves[rng.below(moves.len()).unwrap()];
                    state.play(&mv).unwrap();
                }
            }
        }
        force_portable(false);
    }

    #[test]
    fn the_variable_forces_the_portable_paths_only_when_it_says_so() {
        assert!(forces_portable(Some("portable")));
        assert!(forces_portable(Some(" Portable\n")));
        assert!(!forces_portable(Some("vector")));
        assert!(!forces_portable(Some("")));
        assert!(!forces_portable(None));
    }
}
