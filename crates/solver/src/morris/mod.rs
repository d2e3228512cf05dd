//! Morris databases: board symmetries, the perfect index of a subspace, the solver domain, and
//! the search of the placement phase on top of the tables.
//!
//! # Subspaces
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
//! This is the game the published solutions of Nine Men's Morris solve. Shah's first-mill
//! memory (`first_mill_opens`) lives only while placing: Shah's moving phase is solved like
//! any other, and subspaces with men in hand are refused under it ([`Domain::check_key`](crate::Domain::check_key)).
//!
//! # The no-re-forming memory
//!
//! Under `no_reforming` (Twelve Men's Morris, its nine-man variation) a position also remembers,
//! for each side, the man that last broke one of that side's mills and the point it left: on
//! the side's next turn that man may not go back if that re-forms the mill. The databases hold
//! the memory in canonical form ([`Morris::canonical_memory`](perfectplay_core::morris::Morris::canonical_memory)): a memory `(m, p)` of side `c`
//! is kept only when it can still forbid a turn, that is `m` is a man of `c`, `p` is empty, `m`
//! can step to `p`, and arriving on `p` closes a mill of `c` with its present men. Any other
//! memory is the same as none: until `c`'s next turn replaces it, only the other side plays,
//! and its turn can only fill points (the engine then drops the memory) and take men of `c`,
//! which never makes a mill of `c`. So the forbidden move either does not exist or re-forms
//! nothing whenever it could be tried. The database position is the board, the hands and the
//! two memories in this form; [`Domain::locate`](crate::Domain::locate) puts the raw memories of positions from
//! [`Morris::play_turn`](perfectplay_core::morris::Morris::play_turn) in canonical form first.
//!
//! A subspace then also says which sides carry a memory: [`MorrisKey::mover_barrier`] and
//! [`MorrisKey::other_barrier`], written `-bm`, `-bo` or `-bmo` after the name (`3-3-bmo`).
//! Subspaces without memories keep the names and the perfect index of rules without
//! `no_reforming`.
//!
//! A subspace with memories ranks only the memories that can matter (module `memories`). An
//! effective memory `(m, p)` of side `c` is *witnessed* by a line through `p`, not through `m`,
//! whose two other points hold men of `c`; a *configuration* is one witnessed memory for each
//! side that remembers, and it fixes up to four points of each side (the man, the line's two
//! other points, the empty point). The subspace takes one configuration of each class under the
//! board's symmetries and, under it, the rest of the board as two combinations over the points
//! left free: the index is `offset[class] + rank(mover's other men) * C(free - a', b') +
//! rank(other side's other men)`. [`Domain::locate`](crate::Domain::locate) tries each witness
//! and each symmetry taking its configuration to the representative and keeps the least index;
//! the others, and the indices of positions with two witnesses, are holes
//! ([`Domain::is_hole`](crate::Domain::is_hole)). Subspaces without memories have none.
//!
//! Holes are few: none in Twelve Men's Morris `3-3-bmo` (524 indices for 524 positions up to
//! symmetry; a slot per man and neighbour, the scheme before, gave 24,426,144), 3-4% with both
//! memories, and a quarter with one (`4-4-bo`: 775,200 indices for 582,288 positions), where
//! half the configurations are fixed by a reflection (the point and the man on its axis, the
//! line across it) and so half of their boards appear twice. Counted over the whole moving
//! phase of Twelve Men's Morris (`bench/memory_sizes.py`, BENCHMARKS.md) the memories bring
//! 16.5 billion boards to about 82 billion positions, about 98 billion indices.
//!
//! # Layout
//!
//! [`MorrisKey`] and its name are in `key`, the scheme ([`MorrisDomain`]) in `domain`, the
//! index of subspaces with memories in `memories`, the subspaces a subspace leads to in `successors`, the
//! board index in [`index`] with the symmetries in [`symmetry`], and the placement search in
//! `placement` with its transposition table in `transposition` and the lock on its checkpoint
//! file in `checkpoint`.

mod checkpoint;
mod domain;
pub mod index;
mod key;
mod memories;
mod placement;
mod successors;
pub mod symmetry;
mod transposition;

pub use checkpoint::CheckpointLock;
pub use domain::{without_history, MorrisDomain};
pub use key::{MorrisKey, ParseKeyError};
pub use placement::{PlacementSearch, SearchStats};
pub use transposition::{SearchHistory, TABLE_FILE_MAGIC, TABLE_FILE_VERSION};
