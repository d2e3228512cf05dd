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

use super::actions::Stage;
use super::rules::Trapped;
use super::{BoardShape, Morris, MorrisPosition};
use crate::Bitboard;

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

impl Morris {
    /// Writes the legal actions at `stage` of `pos` as a bitset into `words` (action `a` is
    /// bit `a % 64` of word `a / 64`), the same set as
    /// [`crate::ActionGame::for_each_legal_action_group`] visits, and returns `true`; returns
    /// `false`, writing nothing, where only that visit applies: at a removal stage or Shah's
    /// opening removal. A position over by itself (or with no move where being trapped
    /// loses) has none.
    pub fn write_start_actions(
        &self,
        pos: &MorrisPosition,
        stage: &Stage,
        words: &mut [u64; ACTION_WORDS],
    ) -> bool {
        if *stage != Stage::Start || pos.opening_removal_pending() {
            return false;
        }
        // Over for a reason other than having no move? (No move at all shows as an empty set.)
        if self.position_outcome_with(pos, || true).is_some() {
            *words = [0; ACTION_WORDS];
            return true;
        }
        // The words are written once each, in place: a set built on the stack and copied
        // out was read back in wider loads than it was stored in, which stalled.
        let groups = self.start_groups(pos);
        match self.board().shape() {
            BoardShape::TwentyFour => pack_24(&groups, words),
            BoardShape::Sixteen => pack_16(&groups, words),
            BoardShape::Nine => pack_9(&groups, words),
        }
        if self.rules().trapped == Trapped::Passes && words.iter().fold(0, |a, &w| a | w) == 0 {
            let pass = self.pass_action();
            words[pass / 64] |= 1 << (pass % 64);
        }
        true
    }

    /// The placements (group 0) and each point's slides or flights (group `1 + point`; none
    /// for a point without a man of the side to move), without a branch on the men.
    #[inline(always)]
    fn start_groups(&self, pos: &MorrisPosition) -> Groups {
        let us = pos.side_to_move();
        let ours = pos.men(us);
        let hand = pos.in_hand(us);
        let empty = self.board().all_points().without(pos.occupied()).0;
        let all_if = |yes: bool| 0u32.wrapping_sub(u32::from(yes));
        let moving = all_if(hand == 0 || self.rules().mixed_placement);
        // Flying: every empty point is a destination, whatever the lines.
        let flying = all_if(self.can_fly(ours, hand));
        let mut groups = [0; 32];
        groups[0] = empty & all_if(hand > 0);
        let lines = self.board().neighbour_table();
        for (point, (group, &line)) in groups[1..].iter_mut().zip(lines).enumerate() {
            let own = 0u32.wrapping_sub((ours.0 >> point) & 1) & moving;
            *group = (line | flying) & empty & own;
        }
        // The no-re-forming memory: the man may not return to re-form its mill.
        if let Some(b) = pos
            .barrier(us)
            .filter(|b| moving != 0 && ours.contains_index(b.man))
        {
            let group = &mut groups[1 + usize::from(b.man)];
            if *group & (1 << b.point) != 0 {
                let back = Bitboard::from_index(b.point);
                let after = ours.without(Bitboard::from_index(b.man)) | back;
                if self.board().mills_closed_at(b.point, after) > 0 {
                    *group &= !back.0;
                }
            }
        }
        groups
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rl::ActionGame;
    use crate::{Game, GameState, SplitMix64};

    /// The set as the group visit makes it.
    fn visited(game: &Morris, pos: &MorrisPosition) -> [u64; ACTION_WORDS] {
        let mut words = [0u64; ACTION_WORDS];
        game.for_each_legal_action(pos, &Stage::Start, |a| words[a / 64] |= 1 << (a % 64));
        words
    }

    #[test]
    fn the_words_are_the_visited_actions_along_random_games_of_every_preset() {
        for preset in crate::morris::MorrisRules::PRESETS {
            let game = Morris::new(preset.rules).unwrap();
            let mut rng = SplitMix64::new(0x776f_7264);
            let mut positions = 0;
            for _ in 0..60 {
                let mut state = GameState::new(game);
                loop {
                    let pos = *state.position();
                    let mut words = [u64::MAX; ACTION_WORDS];
                    if game.write_start_actions(&pos, &Stage::Start, &mut words) {
                        assert_eq!(words, visited(&game, &pos), "{}: {pos:?}", preset.id);
                        positions += 1;
                    } else {
                        assert!(pos.opening_removal_pending(), "{}", preset.id);
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
            assert!(positions > 1000, "{}: {positions}", preset.id);
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
        assert!(!game.write_start_actions(&pos, &stage, &mut words));
        assert_eq!(words, [7; ACTION_WORDS]);
        assert!(game.write_start_actions(&pos, &Stage::Start, &mut words));
        assert_eq!(words[0], (1 << 24) - 1, "every placement");
        assert!(words[1..].iter().all(|&w| w == 0));
    }
}
