//! The memory slots of subspaces with no-re-forming memories: how a side's memory is numbered
//! below its board's index and read back, and the least numbering over a board's symmetries
//! (the scheme is described in [`super`]).

use perfectplay_core::morris::{Barrier, MorrisPosition};
use perfectplay_core::{Bitboard, Color};

use super::domain::MorrisDomain;
use super::key::MorrisKey;

/// How a subspace with memories numbers one side's memory: targets per man, and whether the
/// side flies (targets are then the points, else the man's neighbours).
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// Targets per man: the points when flying, else the most neighbours of a point.
    targets: u64,
    fly: bool,
}

impl MorrisDomain {
    /// The memory slot of a side with `on_board` men and `hand` in hand.
    fn slot(&self, on_board: u8, hand: u8) -> Slot {
        let fly = self
            .game
            .rules()
            .flying
            .is_some_and(|n| u32::from(on_board) + u32::from(hand) <= u32::from(n));
        let targets = if fly {
            self.points()
        } else {
            self.max_neighbours
        };
        Slot {
            targets: u64::from(targets),
            fly,
        }
    }

    /// The memory slots of `key`: the mover's and the other side's, `None` where absent.
    fn slots(&self, key: MorrisKey) -> (Option<Slot>, Option<Slot>) {
        (
            key.mover_barrier
                .then(|| self.slot(key.mover, key.mover_hand)),
            key.other_barrier
                .then(|| self.slot(key.other, key.other_hand)),
        )
    }

    /// Indices per board: the number of ways to fill the memory slots of `key` (1 without).
    pub(super) fn slots_per_board(&self, key: MorrisKey) -> u64 {
        let (m, o) = self.slots(key);
        m.map_or(1, |s| u64::from(key.mover) * s.targets)
            * o.map_or(1, |s| u64::from(key.other) * s.targets)
    }

    /// The number of `barrier` (a memory of the side with `men`) in its side's slot.
    fn encode(&self, slot: Slot, men: Bitboard, barrier: Barrier) -> u64 {
        let below = |set: Bitboard, p: u8| u64::from((set.0 & ((1u32 << p) - 1)).count_ones());
        let target = if slot.fly {
            u64::from(barrier.point)
        } else {
            below(self.game.board().neighbours(barrier.man), barrier.point)
        };
        below(men, barrier.man) * slot.targets + target
    }

    /// The memory numbered `number` in the slot of the side with `men`, if it names one: a man
    /// and a point it can reach (not necessarily an effective memory).
    fn decode(&self, slot: Slot, men: Bitboard, number: u64) -> Option<Barrier> {
        let nth = |set: Bitboard, n: u64| set.indices().nth(usize::try_from(n).ok()?);
        let man = nth(men, number / slot.targets)?;
        let target = number % slot.targets;
        let point = if slot.fly {
            u8::try_from(target).ok()?
        } else {
            nth(self.game.board().neighbours(man), target)?
        };
        Some(Barrier { man, point })
    }

    /// Sets the memories of `pos` (a board of `key`, White to move) from `slot`, the part of an
    /// index below the board's.
    pub(super) fn set_barriers(&self, key: MorrisKey, pos: &mut MorrisPosition, slot: u64) {
        let (m, o) = self.slots(key);
        let other_count = o.map_or(1, |s| u64::from(key.other) * s.targets);
        if let Some(s) = m {
            let barrier = self.decode(s, pos.men(Color::White), slot / other_count);
            pos.set_barrier(Color::White, barrier);
        }
        if let Some(s) = o {
            let barrier = self.decode(s, pos.men(Color::Black), slot % other_count);
            pos.set_barrier(Color::Black, barrier);
        }
    }

    /// The least slot over the symmetries `symmetries` (a bitmask, each taking the board of
    /// `key` to `(ours, theirs)`) of the memories `mover` and `other`.
    pub(super) fn least_slot(
        &self,
        key: MorrisKey,
        symmetries: u32,
        (ours, theirs): (Bitboard, Bitboard),
        mover: Option<Barrier>,
        other: Option<Barrier>,
    ) -> u64 {
        let group = self.indexer.symmetries();
        let image = |s: usize, b: Barrier| Barrier {
            man: group.point_image(s, b.man),
            point: group.point_image(s, b.point),
        };
        let (m, o) = self.slots(key);
        let other_count = o.map_or(1, |s| u64::from(key.other) * s.targets);
        let mut least = u64::MAX;
        let mut rest = symmetries;
        while rest != 0 {
            let s = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let mut slot = 0;
            if let (Some(slot_m), Some(b)) = (m, mover) {
                slot += self.encode(slot_m, ours, image(s, b)) * other_count;
            }
            if let (Some(slot_o), Some(b)) = (o, other) {
                slot += self.encode(slot_o, theirs, image(s, b));
            }
            least = least.min(slot);
        }
        least
    }
}
