//! The morris observation tensor.

use super::actions::Stage;
use super::{Morris, MorrisPosition};

/// Planes of the observation, each with one value per point.
pub(crate) const PLANES: usize = 7;

/// Each value of four bits as four floats, lowest bit first.
const NIBBLES: [[f32; 4]; 16] = {
    let mut table = [[0.0; 4]; 16];
    let mut n = 0;
    while n < 16 {
        let mut bit = 0;
        while bit < 4 {
            if n & (1 << bit) != 0 {
                table[n][bit] = 1.0;
            }
            bit += 1;
        }
        n += 1;
    }
    table
};

/// Writes bit `i` of `bits` as 0.0 or 1.0 into `plane[i]`, four at a time.
#[inline]
fn write_bits(plane: &mut [f32], bits: u32) {
    let mut rest = bits;
    let mut quads = plane.chunks_exact_mut(4);
    for quad in &mut quads {
        quad.copy_from_slice(&NIBBLES[(rest & 15) as usize]);
        rest >>= 4;
    }
    let tail = NIBBLES[(rest & 15) as usize];
    for (value, bit) in quads.into_remainder().iter_mut().zip(tail) {
        *value = bit;
    }
}

impl Morris {
    /// The observation, shape `[7, n]` for a board of `n` points: planes, one value per point,
    /// from the point of view of the player to move: 0 own men, 1 the opponent's men, 2 empty
    /// points, 3 own men in hand as a fraction of the men per side (the same on every point),
    /// 4 the opponent's men in hand likewise, 5 all ones while the player is choosing men to
    /// take (after a mill, or Shah's opening removal), 6 the point the turn's man arrived on
    /// while choosing men to take.
    pub(crate) fn observe(&self, pos: &MorrisPosition, stage: &Stage, out: &mut [f32]) {
        // The 24-point boards with the plane length known at compile time: the compiler then
        // writes each plane in a few wide stores (envs write an observation at every step).
        if let Ok(planes) = <&mut [[f32; 24]; PLANES]>::try_from(out.as_chunks_mut::<24>().0) {
            if self.board().point_count() == 24 {
                return self.observe_planes(pos, stage, planes);
            }
        }
        self.observe_planes_of(pos, stage, out, self.board().point_count());
    }

    #[inline(always)]
    fn observe_planes<const N: usize>(
        &self,
        pos: &MorrisPosition,
        stage: &Stage,
        planes: &mut [[f32; N]; PLANES],
    ) {
        self.observe_planes_of(pos, stage, planes.as_flattened_mut(), N);
    }

    #[inline(always)]
    fn observe_planes_of(&self, pos: &MorrisPosition, stage: &Stage, out: &mut [f32], n: usize) {
        let us = pos.side_to_move();
        let empty = self.board().all_points().without(pos.occupied());
        let mut planes = out[..PLANES * n].chunks_exact_mut(n);
        for bits in [pos.men(us), pos.men(!us), empty] {
            if let Some(plane) = planes.next() {
                write_bits(plane, bits.0);
            }
        }
        let men = f32::from(self.rules().men);
        let (removing, arrived) = match stage {
            Stage::Removing { base, .. } => (true, base.to()),
            Stage::Start => (pos.opening_removal_pending(), None),
        };
        let fills = [
            f32::from(pos.in_hand(us)) / men,
            f32::from(pos.in_hand(!us)) / men,
            f32::from(u8::from(removing)),
        ];
        for fill in fills {
            if let Some(plane) = planes.next() {
                plane.fill(fill);
            }
        }
        if let Some(plane) = planes.next() {
            write_bits(plane, arrived.map_or(0, |p| 1 << p));
        }
    }
}
