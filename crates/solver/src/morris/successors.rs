//! Which subspaces a subspace's turns lead to: slides and flights, placements and passes, the
//! men each capture takes, and the memories each turn leaves or makes.

use perfectplay_core::morris::{DoubleMill, Trapped};

use super::domain::MorrisDomain;
use super::key::MorrisKey;

impl MorrisDomain {
    /// The subspaces the turns of `key`'s positions lead to
    /// ([`Domain::successor_keys`](crate::Domain::successor_keys)).
    pub(super) fn subspaces_after(&self, key: MorrisKey) -> Vec<MorrisKey> {
        let rules = self.game.rules();
        let most_taken: u8 = if rules.mill_wins {
            0
        } else if rules.double_mill == DoubleMill::TakeTwo {
            2
        } else {
            1
        };
        let (step, pass) = self.quiet_bases(key);
        // The subspaces after a slide or flight, and after a placement or a pass, before
        // memories.
        let mut steps: Vec<MorrisKey> = step.into_iter().collect();
        let mut others: Vec<MorrisKey> = pass.into_iter().collect();
        if let Some(base) = step {
            for taken in 1..=most_taken.min(key.other()) {
                steps.push(
                    MorrisKey::moving(base.mover() - taken, base.other())
                        .with_hands(base.mover_hand(), base.other_hand())
                        .with_barriers(base.mover_barrier(), base.other_barrier()),
                );
            }
        }
        if key.mover_hand() > 0
            && u32::from(key.mover()) + u32::from(key.other()) < u32::from(self.points())
        {
            let most = if rules.captures_while_placing {
                most_taken
            } else {
                0
            };
            for taken in 0..=most.min(key.other()) {
                others.push(
                    MorrisKey::moving(key.other() - taken, key.mover() + 1)
                        .with_hands(key.other_hand(), key.mover_hand() - 1),
                );
            }
        }
        self.with_memories(key, &steps, &others)
    }

    /// The subspaces a quiet turn of `key`'s positions (a slide, a flight or a pass that takes
    /// nothing) leads to ([`Domain::quiet_successor_keys`](crate::Domain::quiet_successor_keys)):
    /// the men stay, the sides swap.
    pub(super) fn subspaces_after_quiet(&self, key: MorrisKey) -> Vec<MorrisKey> {
        let (step, pass) = self.quiet_bases(key);
        self.with_memories(key, step.as_slice(), pass.as_slice())
    }

    /// The subspace, before memories, after a slide or flight of `key`'s positions and after
    /// a pass, where they can make one: the men stay, the sides swap.
    fn quiet_bases(&self, key: MorrisKey) -> (Option<MorrisKey>, Option<MorrisKey>) {
        let rules = self.game.rules();
        let base = key.with_barriers(false, false).swapped();
        (
            (key.mover_hand() == 0 || rules.mixed_placement).then_some(base),
            (rules.trapped == Trapped::Passes).then_some(base),
        )
    }

    /// The subspaces of `steps` (after a slide or flight) and `others` (after a placement or
    /// a pass), with each memory the turn may leave, the valid ones once each, sorted.
    fn with_memories(
        &self,
        key: MorrisKey,
        steps: &[MorrisKey],
        others: &[MorrisKey],
    ) -> Vec<MorrisKey> {
        // The side that moved remembers only after a slide or flight, and only then; the side
        // that waited keeps its memory or loses it (its point filled, its men taken).
        let mut next = Vec::new();
        let kept: &[bool] = if key.other_barrier() && self.memory() {
            &[false, true]
        } else {
            &[false]
        };
        let made: &[bool] = if self.memory() {
            &[false, true]
        } else {
            &[false]
        };
        for (k, made) in steps
            .iter()
            .map(|&k| (k, made))
            .chain(others.iter().map(|&k| (k, &[false][..])))
        {
            for &m in kept {
                for &o in made {
                    next.push(k.with_barriers(m, o));
                }
            }
        }
        next.retain(|&k| self.is_valid_key(k) && !self.all_over(k));
        next.sort();
        next.dedup();
        next
    }
}
