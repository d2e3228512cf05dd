//! The legal actions at the start of a turn as the words of a bitset, built in registers.
//!
//! Batched environments need every position's legal actions as a set (for the mask and for
//! sampling) at every step. Visiting each man's destinations as a group
//! ([`crate::ActionGame::for_each_legal_action_group`]) and or-ing them into a set in memory
//! costs a loop whose length and branches follow the men on the board; here every point's
//! destinations are worked out and shifted into place in a pass of fixed length, with no
//! branch on the position, so the set is built in registers and stored once.
//!
//! On a board of `n` points the actions are laid out as [`super::actions`] says: the
//! placements `0..n`, then each point's slides or flights as `n` consecutive actions from
//! `n + from * n`; so the set is `n + 1` groups of `n` bits end to end, the placements first.

use super::board::MAX_POINTS;
use super::rules::Trapped;
use super::stage::Stage;
use super::{BoardShape, Morris, MorrisPosition};
#[cfg(target_arch = "x86_64")]
use crate::simd;

/// Words of an action set: enough for the largest board's 600 actions.
pub const ACTION_WORDS: usize = 10;

/// Groups, padded to whole blocks of the packers below.
type Groups = [u32; 32];

/// Lays `groups[g]` (each below `1 << 24`) at bit `24 * g` of the words, end to end: eight
/// groups make three words.
#[inline(always)]
fn pack_24(groups: &Groups, words: &mut [u64; ACTION_WORDS]) {
    // Groups 25 to 31 are empty: the last block's third word would be 0, past the set.
    let (blocks, last) = words.as_chunks_mut::<3>();
    for (out, g) in blocks.iter_mut().zip(groups.as_chunks::<8>().0) {
        let g: [u64; 8] = g.map(u64::from);
        out[0] = g[0] | g[1] << 24 | g[2] << 48;
        out[1] = g[2] >> 16 | g[3] << 8 | g[4] << 32 | g[5] << 56;
        out[2] = g[5] >> 8 | g[6] << 16 | g[7] << 40;
    }
    let g: [u64; 4] = std::array::from_fn(|i| u64::from(groups[24 + i]));
    last[0] = g[0] | g[1] << 24 | g[2] << 48;
}

/// Lays `groups[g]` (each below `1 << 16`) at bit `16 * g` of the words: four groups a word.
#[inline(always)]
fn pack_16(groups: &Groups, words: &mut [u64; ACTION_WORDS]) {
    // Groups 17 to 31 are empty: words 5 on are 0.
    for (out, g) in words.iter_mut().zip(groups.as_chunks::<4>().0) {
        let g: [u64; 4] = g.map(u64::from);
        *out = g[0] | g[1] << 16 | g[2] << 32 | g[3] << 48;
    }
    words[8..].fill(0);
}

/// Lays `groups[g]` (each below `1 << 9`) at bit `9 * g` of the words: ten groups, two words.
#[inline(always)]
fn pack_9(groups: &Groups, words: &mut [u64; ACTION_WORDS]) {
    let mut bits = 0u128;
    for (g, &group) in groups.iter().take(10).enumerate() {
        bits |= u128::from(group) << (9 * g);
    }
    words.fill(0);
    words[0] = bits as u64;
    words[1] = (bits >> 64) as u64;
}

/// What the set of a turn's start is made of.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Start {
    /// Bit 0: whether the side to move places; bit `1 + p`: whether its man on `p` moves.
    pub(crate) lanes: u32,
    /// The empty points.
    pub(crate) empty: u32,
    /// All ones when the side to move flies (every empty point is a destination), else 0.
    pub(crate) flying: u32,
}

impl Start {
    /// The placements (group 0) and each point's slides or flights (group `1 + point`),
    /// without a branch on the men.
    #[inline(always)]
    fn groups(self, lines: &[u32; MAX_POINTS]) -> Groups {
        let mut groups = [0; 32];
        groups[0] = self.empty & 0u32.wrapping_sub(self.lanes & 1);
        for (lane, (group, &line)) in groups[1..].iter_mut().zip(lines).enumerate() {
            let moves = 0u32.wrapping_sub((self.lanes >> (lane + 1)) & 1);
            *group = (line | self.flying) & self.empty & moves;
        }
        groups
    }
}

impl Morris {
    /// Writes the legal actions at `stage` of `pos` as a bitset into `words` (action `a` is
    /// bit `a % 64` of word `a / 64`), the same set as
    /// [`crate::ActionGame::for_each_legal_action_group`] visits, and returns their number;
    /// returns `None`, writing nothing, where only that visit applies: at a removal stage or
    /// Shah's opening removal. A position over by itself (or with no move where being trapped
    /// loses) has none.
    pub fn write_start_actions(
        &self,
        pos: &MorrisPosition,
        stage: &Stage,
        words: &mut [u64; ACTION_WORDS],
    ) -> Option<usize> {
        if *stage != Stage::Start || pos.opening_removal_pending() {
            return None;
        }
        // Over for a reason other than having no move? (No move at all shows as an empty set.)
        if self.position_outcome_with(pos, || true).is_some() {
            *words = [0; ACTION_WORDS];
            return Some(0);
        }
        let start = self.start(pos);
        let lines = self.board().neighbour_table();
        // The words are written once each, in place, and counted as they are made: a set
        // built on the stack and copied out, or read back just after its wide stores, would be
        // read in wider or narrower loads than it was stored in, which wait for the stores.
        let portable = |pack: fn(&Groups, &mut [u64; ACTION_WORDS]), words: &mut _| {
            pack(&start.groups(lines), words);
            words.iter().map(|w| w.count_ones() as usize).sum()
        };
        let mut count = match self.board().shape() {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has the features, checked just now.
            BoardShape::TwentyFour if simd::has_vbmi() => unsafe {
                simd::pack_24_vbmi(&start, lines, words)
            },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU has AVX2, checked just now.
            BoardShape::TwentyFour if simd::has_avx2() => unsafe {
                simd::pack_24_avx2(&start, lines, words)
            },
            BoardShape::TwentyFour => portable(pack_24, words),
            BoardShape::Sixteen => portable(pack_16, words),
            BoardShape::Nine => portable(pack_9, words),
        };
        // The no-re-forming memory: the man may not return to re-form its mill.
        let us = pos.side_to_move();
        // (A memory whose points are off the board, possible only in a position set up by
        // hand, forbids nothing, as the visit found no such destination.)
        let n = self.board().point_count();
        if let Some(b) = pos.barrier(us).filter(|b| {
            usize::from(b.man) < n
                && usize::from(b.point) < n
                && start.lanes >> (b.man + 1) & 1 != 0
        }) {
            if self.reforms_mill(pos.men(us), b.man, b.point) {
                let action = n + n * usize::from(b.man) + usize::from(b.point);
                let (word, bit) = (action / 64, 1 << (action % 64));
                count -= usize::from(words[word] & bit != 0);
                words[word] &= !bit;
            }
        }
        if self.rules().trapped == Trapped::Passes && count == 0 {
            let pass = self.pass_action();
            words[pass / 64] |= 1 << (pass % 64);
            count = 1;
        }
        Some(count)
    }

    /// What the set at the start of a turn of `pos` is made of.
    #[inline(always)]
    fn start(&self, pos: &MorrisPosition) -> Start {
        let us = pos.side_to_move();
        let ours = pos.men(us);
        let hand = pos.in_hand(us);
        let moving = self.moves_men(hand);
        let all_if = |yes: bool| 0u32.wrapping_sub(u32::from(yes));
        Start {
            lanes: u32::from(hand > 0) | (ours.0 << 1) & all_if(moving),
            empty: self.board().all_points().without(pos.occupied()).0,
            flying: all_if(self.can_fly(ours, hand)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rl::ActionGame;
    use crate::{Bitboard, Game, GameState, SplitMix64};

    /// The set as the group visit makes it.
    fn visited(game: &Morris, pos: &MorrisPosition) -> [u64; ACTION_WORDS] {
        let mut words = [0u64; ACTION_WORDS];
        game.for_each_legal_action(pos, &Stage::Start, |a| words[a / 64] |= 1 << (a % 64));
        words
    }

    /// Every preset, and rule combinations no preset has: flying with the no-re-forming
    /// memory, Lasker's mixed placement with it, trapped sides passing on every board, no
    /// loss by the count of men.
    fn rule_sets() -> Vec<(String, Morris)> {
        let mut games: Vec<(String, Morris)> = crate::morris::MorrisRules::PRESETS
            .iter()
            .map(|p| (p.id.to_owned(), Morris::new(p.rules).unwrap()))
            .collect();
        let variants: [(&str, &[(&str, &str)]); 6] = [
            ("nine_mens_morris", &[("no_reforming", "true")]),
            (
                "lasker_morris",
                &[("no_reforming", "true"), ("removal", "any")],
            ),
            (
                "nine_mens_morris",
                &[("trapped", "passes"), ("lose_below", "0")],
            ),
            ("six_mens_morris", &[("trapped", "passes"), ("flying", "3")]),
            (
                "three_mens_morris",
                &[("trapped", "passes"), ("mill_wins", "false")],
            ),
            (
                "morabaraba",
                &[("mixed_placement", "true"), ("full_board", "play_on")],
            ),
        ];
        for (id, options) in variants {
            let mut rules = *Morris::preset(id).unwrap().rules();
            for (name, value) in options {
                rules.set(name, value).unwrap();
            }
            games.push((format!("{id} {options:?}"), Morris::new(rules).unwrap()));
        }
        games
    }

    #[test]
    fn the_words_are_the_visited_actions_along_random_games_of_many_rule_sets() {
        for (name, game) in rule_sets() {
            let mut rng = SplitMix64::new(0x776f_7264);
            let mut positions = 0;
            for _ in 0..60 {
                let mut state = GameState::new(game);
                loop {
                    let pos = *state.position();
                    let mut words = [u64::MAX; ACTION_WORDS];
                    if let Some(count) = game.write_start_actions(&pos, &Stage::Start, &mut words) {
                        assert_eq!(words, visited(&game, &pos), "{name}: {pos:?}");
                        let ones: u32 = words.iter().map(|w| w.count_ones()).sum();
                        assert_eq!(count, ones as usize, "{name}: {pos:?}");
                        positions += 1;
                    } else {
                        assert!(pos.opening_removal_pending(), "{name}");
                        assert_eq!(words, [u64::MAX; ACTION_WORDS], "written nothing");
                    }
                    if state.is_over() || state.ply() > 300 {
                        break;
                    }
                    let mut moves = Vec::new();
                    game.for_each_move(&pos, |m| moves.push(*m));
                    let mv = *rng.pick(&moves).unwrap();
                    state.play(&mv).unwrap();
                }
            }
            assert!(positions > 500, "{name}: {positions}");
        }
    }

    /// A vector packing of the 24-point set.
    #[cfg(target_arch = "x86_64")]
    type Packer = unsafe fn(&Start, &[u32; MAX_POINTS], &mut [u64; ACTION_WORDS]) -> usize;

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_vector_packings_are_the_portable_one() {
        let (vbmi, avx2) = (
            simd::cpu_has_vbmi(),
            std::arch::is_x86_feature_detected!("avx2"),
        );
        if !vbmi && !avx2 {
            eprintln!("no AVX2 on this CPU: the portable packing alone is used");
            return;
        }
        let mut rng = SplitMix64::new(0x7662_6d69);
        for board in [&crate::morris::BOARD_24, &crate::morris::BOARD_24_DIAGONALS] {
            for round in 0..20_000 {
                let all = (1 << 24) - 1;
                let start = Start {
                    // Lane bits past the 25 groups too: they must change nothing.
                    lanes: rng.next_u64() as u32
                        & if round % 5 == 0 {
                            u32::MAX
                        } else {
                            (1 << 25) - 1
                        },
                    empty: rng.next_u64() as u32 & all,
                    flying: if round % 3 == 0 { u32::MAX } else { 0 },
                };
                let lines = board.neighbour_table();
                let mut want = [u64::MAX; ACTION_WORDS];
                pack_24(&start.groups(lines), &mut want);
                let ones = want.iter().map(|w| w.count_ones() as usize).sum::<usize>();
                let kernels: [(bool, Packer); 2] =
                    [(vbmi, simd::pack_24_vbmi), (avx2, simd::pack_24_avx2)];
                for (kernel, (present, pack)) in kernels.into_iter().enumerate() {
                    if present {
                        let mut got = [u64::MAX; ACTION_WORDS];
                        // SAFETY: the CPU has this kernel's features, checked above.
                        let count = unsafe { pack(&start, lines, &mut got) };
                        assert_eq!((count, got), (ones, want), "kernel {kernel}, {start:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_removal_stage_is_left_to_the_visit() {
        let game = Morris::preset("nine_mens_morris").unwrap();
        let pos = game.start_position();
        let base = crate::morris::MorrisMove::place(game.board().shape(), 0);
        let stage = Stage::Removing {
            base,
            taken: Bitboard::EMPTY,
        };
        let mut words = [7; ACTION_WORDS];
        assert_eq!(game.write_start_actions(&pos, &stage, &mut words), None);
        assert_eq!(words, [7; ACTION_WORDS]);
        assert_eq!(
            game.write_start_actions(&pos, &Stage::Start, &mut words),
            Some(24)
        );
        assert_eq!(words[0], (1 << 24) - 1, "every placement");
        assert!(words[1..].iter().all(|&w| w == 0));
    }
}
