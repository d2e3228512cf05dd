//! The morris database scheme: subspaces by men on the board and in hand, the side to move
//! normalised to White.
//!
//! A subspace [`MorrisKey`] counts the men of the side to move and of the other side, on the
//! board and in hand. Its file name is `5-4` for the moving phase (5 men of the side to move,
//! 4 of the other, none in hand) and `3-2-h6-6` with men in hand. Positions of the side to move
//! Black are read with the colours swapped, so `5-4` holds both "White 5, Black 4, White to
//! move" and "Black 5, White 4, Black to move".
//!
//! The databases value positions by the board and the hands alone: the history rules of
//! [`perfectplay_core::GameState`] (threefold repetition, the move rule, the ply limit) are not
//! part of a database game, and a position from which neither side can force a win is a draw.
//! This is the game the published solutions of Nine Men's Morris solve. Rules whose positions
//! remember more than the board (`no_reforming`, `first_mill_opens`) are refused.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

use perfectplay_core::morris::{DoubleMill, Morris, MorrisPosition, MorrisRules, Trapped};
use perfectplay_core::{Color, Game};

use super::index::{MorrisIndexer, SubspaceIndex};
use crate::domain::Domain;
use crate::error::{ProbeError, SolveError};

/// A morris subspace: men on the board and in hand of the side to move and of the other side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MorrisKey {
    /// Men in hand of the side to move (compared first: placement subspaces sort after the
    /// moving phase).
    pub mover_hand: u8,
    /// Men in hand of the other side.
    pub other_hand: u8,
    /// Men of the side to move on the board.
    pub mover: u8,
    /// Men of the other side on the board.
    pub other: u8,
}

impl MorrisKey {
    /// A moving-phase subspace: `mover` and `other` men on the board, none in hand.
    #[must_use]
    pub const fn moving(mover: u8, other: u8) -> MorrisKey {
        MorrisKey {
            mover,
            other,
            mover_hand: 0,
            other_hand: 0,
        }
    }

    /// The subspace after a turn that keeps the men: the other side to move.
    #[must_use]
    pub const fn swapped(self) -> MorrisKey {
        MorrisKey {
            mover: self.other,
            other: self.mover,
            mover_hand: self.other_hand,
            other_hand: self.mover_hand,
        }
    }

    /// Whether no man is in hand.
    #[must_use]
    pub const fn is_moving_phase(self) -> bool {
        self.mover_hand == 0 && self.other_hand == 0
    }
}

impl fmt::Display for MorrisKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.mover, self.other)?;
        if !self.is_moving_phase() {
            write!(f, "-h{}-{}", self.mover_hand, self.other_hand)?;
        }
        Ok(())
    }
}

/// A subspace name that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot read subspace `{0}`: expected MEN-MEN (e.g. 5-4) or MEN-MEN-hHAND-HAND (e.g. 2-3-h7-6)"
)]
pub struct ParseKeyError(String);

impl FromStr for MorrisKey {
    type Err = ParseKeyError;

    /// Reads `5-4`, `5,4` or `3-2-h6-6`.
    fn from_str(s: &str) -> Result<MorrisKey, ParseKeyError> {
        let err = || ParseKeyError(s.to_owned());
        let (board, hands) = match s.split_once("-h") {
            Some((b, h)) => (b, Some(h)),
            None => (s, None),
        };
        let pair = |t: &str| -> Result<(u8, u8), ParseKeyError> {
            let (a, b) = t.split_once(['-', ',']).ok_or_else(err)?;
            Ok((
                a.trim().parse().map_err(|_| err())?,
                b.trim().parse().map_err(|_| err())?,
            ))
        };
        let (mover, other) = pair(board)?;
        let (mover_hand, other_hand) = match hands {
            Some(h) => pair(h)?,
            None => (0, 0),
        };
        Ok(MorrisKey {
            mover,
            other,
            mover_hand,
            other_hand,
        })
    }
}

/// `rules` with the history rules (repetition, move rule, ply limit) at fixed values: they do
/// not change database values, so tables serve every setting of them.
fn without_history(rules: &MorrisRules) -> MorrisRules {
    MorrisRules {
        threefold_repetition: true,
        move_rule: None,
        ply_limit: None,
        ..*rules
    }
}

/// The database scheme of a morris game under one rule set.
#[derive(Debug)]
pub struct MorrisDomain {
    game: Morris,
    indexer: MorrisIndexer,
    /// Subspace indices by (mover men, other men), built on first use.
    indices: Vec<std::sync::OnceLock<Arc<SubspaceIndex>>>,
}

/// The rule options that make positions remember more than the board.
const MEMORY_OPTIONS: &str = "no_reforming and first_mill_opens";

impl MorrisDomain {
    /// The scheme for `game`; refuses rules whose positions keep a memory.
    pub fn new(game: Morris) -> Result<MorrisDomain, SolveError> {
        if game.keeps_memory() {
            return Err(SolveError::Unsupported(format!(
                "{}: positions under {MEMORY_OPTIONS} remember the last turns, which the \
                 database index does not hold; set no_reforming=false first_mill_opens=false \
                 to solve the game without that memory",
                game.id()
            )));
        }
        let points = game.board().point_count();
        Ok(MorrisDomain {
            indexer: MorrisIndexer::new(game.board()),
            indices: (0..(points + 1) * (points + 1))
                .map(|_| std::sync::OnceLock::new())
                .collect(),
            game,
        })
    }

    fn points(&self) -> u8 {
        self.game.board().point_count() as u8
    }

    fn index(&self, mover: u8, other: u8) -> &SubspaceIndex {
        let points = usize::from(self.points()) + 1;
        let slot = usize::from(mover) * points + usize::from(other);
        self.indices[slot].get_or_init(|| self.indexer.subspace(u32::from(mover), u32::from(other)))
    }

    /// Whether `key` can hold positions of this game: counts within the rules and the board.
    #[must_use]
    pub fn is_valid_key(&self, key: MorrisKey) -> bool {
        let men = self.game.rules().men;
        key.mover + key.mover_hand <= men
            && key.other + key.other_hand <= men
            && u32::from(key.mover) + u32::from(key.other) <= u32::from(self.points())
    }

    /// Whether every position of `key` is over before it starts: a side below the losing count.
    fn all_over(&self, key: MorrisKey) -> bool {
        let below = self.game.rules().lose_below;
        key.mover + key.mover_hand < below || key.other + key.other_hand < below
    }

    /// The moving-phase subspaces with at most `max_men` men per side, smallest first.
    #[must_use]
    pub fn moving_keys(&self, max_men: u8) -> Vec<MorrisKey> {
        let rules = self.game.rules();
        let low = rules.lose_below.max(1);
        let mut keys = Vec::new();
        for mover in low..=max_men.min(rules.men) {
            for other in low..=max_men.min(rules.men) {
                let key = MorrisKey::moving(mover, other);
                if self.is_valid_key(key) && !self.all_over(key) {
                    keys.push(key);
                }
            }
        }
        keys
    }

    /// The subspace of the start position: the whole game is everything it leads to.
    #[must_use]
    pub fn start_key(&self) -> MorrisKey {
        let men = self.game.rules().men;
        MorrisKey {
            mover: 0,
            other: 0,
            mover_hand: men,
            other_hand: men,
        }
    }
}

impl Domain for MorrisDomain {
    type Game = Morris;
    type Key = MorrisKey;

    fn game(&self) -> &Morris {
        &self.game
    }

    fn game_id(&self) -> String {
        let rules = without_history(self.game.rules());
        MorrisRules::PRESETS
            .iter()
            .find(|p| without_history(&p.rules) == rules)
            .map_or("morris", |p| p.id)
            .to_owned()
    }

    fn rules_text(&self) -> String {
        without_history(self.game.rules()).to_string()
    }

    fn index_scheme(&self) -> &'static str {
        "morris-symmetry-classes-v1"
    }

    fn parse_key(&self, text: &str) -> Option<MorrisKey> {
        text.parse().ok().filter(|&k| self.is_valid_key(k))
    }

    fn size(&self, key: MorrisKey) -> u64 {
        if !self.is_valid_key(key) {
            return 0;
        }
        self.index(key.mover, key.other).size()
    }

    fn unrank(&self, key: MorrisKey, index: u64) -> MorrisPosition {
        let (mover, other) = self.index(key.mover, key.other).unrank(index);
        MorrisPosition::from_parts(mover, other, key.mover_hand, key.other_hand, Color::White)
    }

    fn for_each_position<F: FnMut(u64, &MorrisPosition)>(
        &self,
        key: MorrisKey,
        range: std::ops::Range<u64>,
        mut visit: F,
    ) {
        let start = range.start;
        for (i, (mover, other)) in self.index(key.mover, key.other).boards(range).enumerate() {
            let pos = MorrisPosition::from_parts(
                mover,
                other,
                key.mover_hand,
                key.other_hand,
                Color::White,
            );
            visit(start + i as u64, &pos);
        }
    }

    fn locate(&self, pos: &MorrisPosition) -> Result<(MorrisKey, u64), ProbeError> {
        if pos.barrier(Color::White).is_some()
            || pos.barrier(Color::Black).is_some()
            || pos.first_mill().is_some()
            || pos.opening_removal_pending()
        {
            return Err(ProbeError::OutOfScope(
                "the position carries a memory of earlier turns (no re-forming, first mill)".into(),
            ));
        }
        let us = pos.side_to_move();
        let (ours, theirs) = (pos.men(us), pos.men(!us));
        let key = MorrisKey {
            mover: ours.count() as u8,
            other: theirs.count() as u8,
            mover_hand: pos.in_hand(us),
            other_hand: pos.in_hand(!us),
        };
        if !self.is_valid_key(key) || !ours.is_subset(self.game.board().all_points()) {
            return Err(ProbeError::OutOfScope(format!(
                "subspace {key} does not exist under these rules"
            )));
        }
        Ok((key, self.index(key.mover, key.other).rank(ours, theirs)))
    }

    fn successor_keys(&self, key: MorrisKey) -> Vec<MorrisKey> {
        let rules = self.game.rules();
        let most_taken: u8 = if rules.mill_wins {
            0
        } else if rules.double_mill == DoubleMill::TakeTwo {
            2
        } else {
            1
        };
        let moves = key.mover_hand == 0 || rules.mixed_placement;
        let mut next = Vec::new();
        if moves || rules.trapped == Trapped::Passes {
            next.push(key.swapped());
        }
        if moves {
            for taken in 1..=most_taken.min(key.other) {
                let mut k = key.swapped();
                k.mover -= taken;
                next.push(k);
            }
        }
        if key.mover_hand > 0
            && u32::from(key.mover) + u32::from(key.other) < u32::from(self.points())
        {
            let most = if rules.captures_while_placing {
                most_taken
            } else {
                0
            };
            for taken in 0..=most.min(key.other) {
                next.push(MorrisKey {
                    mover: key.other - taken,
                    other: key.mover + 1,
                    mover_hand: key.other_hand,
                    other_hand: key.mover_hand - 1,
                });
            }
        }
        next.retain(|&k| self.is_valid_key(k) && !self.all_over(k));
        next.sort();
        next.dedup();
        next
    }

    fn for_each_quiet_predecessor<F: FnMut(&MorrisPosition)>(
        &self,
        pos: &MorrisPosition,
        mut visit: F,
    ) {
        self.game.for_each_quiet_predecessor(pos, |q, _| visit(q));
    }
}
