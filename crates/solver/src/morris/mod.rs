//! Morris databases: board symmetries, the perfect index of a subspace, and the solver domain.

mod domain;
pub mod index;
pub mod symmetry;

pub use domain::{MorrisDomain, MorrisKey, ParseKeyError};
