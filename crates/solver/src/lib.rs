//! perfectplay-solver: retrograde analysis and endgame databases.
//!
//! The solver and its database format arrive with the solver issue; this crate is part of the
//! workspace now so that the layout and the dependency graph are fixed from the start. It has no
//! public items yet.
