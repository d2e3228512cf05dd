//! Morris databases: board symmetries, the perfect index of a subspace, the solver domain, and
//! the search of the placement phase on top of the tables.

mod domain;
pub mod index;
mod placement;
pub mod symmetry;

pub use domain::{without_history, MorrisDomain, MorrisKey, ParseKeyError};
pub use placement::{PlacementSearch, SearchStats};
