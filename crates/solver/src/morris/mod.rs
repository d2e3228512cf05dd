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
//! A subspace with memories indexes `board × slots`: `board` the perfect index of the men, and
//! a slot per memory present (the mover's the more significant): the man (its rank among its
//! side's men, lowest point first) times the number of targets, plus the target: the point
//! itself (`0..points`) when that side flies (by the counts of the subspace and the rules'
//! `flying`), else the number of the point among the man's neighbours (lowest first, `0..` the
//! most neighbours of any point: 4 on the 24-point boards, 3 on the 16-point one). A board that
//! symmetries of the board fix carries symmetric memories in several slots; [`Domain::locate`](crate::Domain::locate)
//! picks the least index over the symmetries taking the board to its canonical form
//! ([`SubspaceIndex::canonical_symmetries`](index::SubspaceIndex::canonical_symmetries)). The other slots, and the slots that name no
//! effective memory, are holes ([`Domain::is_hole`](crate::Domain::is_hole)). Subspaces without memories have none.
//!
//! The slots are simple to compute but mostly holes: a side sliding with `a` men multiplies
//! the boards by `4a` on 24 points, and few boards have an effective memory at all. Twelve Men's
//! Morris `3-3-bmo` has 24,426,144 indices for 524 positions, `3-3-bo` 2,035,512 for 8,666.
//! That suits the small subspaces; the large ones would want a denser index of the memories.
//!
//! # Layout
//!
//! [`MorrisKey`] and its name are in `key`, the scheme ([`MorrisDomain`]) in `domain`, the
//! numbering of memories in `memories`, the subspaces a subspace leads to in `successors`, the
//! board index in [`index`] with the symmetries in [`symmetry`], and the placement search in
//! `placement`.

mod domain;
pub mod index;
mod key;
mod memories;
mod placement;
mod successors;
pub mod symmetry;

pub use domain::{without_history, MorrisDomain};
pub use key::{MorrisKey, ParseKeyError};
pub use placement::{PlacementSearch, SearchStats};
