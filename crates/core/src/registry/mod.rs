//! Every game by its id, behind one interface: what the fronts (the command line, the Python
//! extension) need to name a game, build it with rule options, and read and write its moves and
//! positions, written once here instead of once per front.
//!
//! # The pieces
//!
//! - [`GameId`] names a game: English checkers or one of the morris presets
//!   ([`crate::morris::MorrisRules::PRESETS`]). [`GameId::parse`] reads an id or an alias,
//!   case-insensitively; an unknown one is an [`UnknownGameError`] that lists the valid ids
//!   ([`game_ids`]).
//! - [`GameFamily`] is what a front needs from a family beyond [`crate::Game`]: its rules by name
//!   ([`crate::RuleSet`]), move notation, position strings, the ASCII diagram and the SVG
//!   picture, and the conversion of its moves to and from [`AnyMove`]. [`crate::checkers::Checkers`]
//!   and [`crate::morris::Morris`] implement it, so code written once over `G: GameFamily` serves
//!   both.
//! - [`AnyGame`] holds a game of either family, loaded by id with rule options
//!   ([`AnyGame::load`]); [`AnyMove`] holds a move of either family.
//! - [`crate::with_family!`] runs one generic expression on whichever family an enum holds: it
//!   matches `Checkers(g)` and `Morris(g)` variants, so it serves [`AnyGame`], [`AnyMove`] and any
//!   enum of the same shape a front defines (per-family states, batches).
//!
//! # Errors
//!
//! Loading fails with a [`LoadError`]: an unknown id, a rule option that cannot be set
//! ([`crate::RuleOptionError`]) or options that cannot be played together
//! ([`crate::morris::RulesError`]). Reading text fails with the family's own error types, the
//! associated types of [`GameFamily`]: [`crate::checkers::CheckersFenError`] and
//! [`crate::morris::fen::MorrisFenError`] for positions, [`crate::checkers::CheckersMoveError`] and
//! [`crate::morris::MorrisMoveError`] for moves. Nothing here panics on bad input.
//!
//! ```
//! use perfectplay_core::registry::{AnyGame, GameFamily, GameId};
//! use perfectplay_core::{with_family, Game};
//!
//! /// The text of the first legal move, for either family.
//! fn first_move<G: GameFamily>(game: &G) -> String {
//!     let mut moves = G::MoveList::default();
//!     game.generate_moves(&game.start_position(), &mut moves);
//!     moves[0].to_string()
//! }
//!
//! let (id, game) = AnyGame::load("Cowboy_Checkers", &[("flying", "none")])?;
//! assert_eq!(id, GameId::parse("nine_mens_morris")?);
//! assert_eq!(game.family(), "morris");
//! let text = with_family!(AnyGame, &game, g => first_move(g));
//! assert_eq!(text.len(), 2);
//!
//! let err = AnyGame::load::<&str, &str>("chess", &[]).unwrap_err();
//! assert!(err.to_string().starts_with("unknown game `chess`; valid games: checkers, "));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod any_game;
mod any_move;
mod checkers;
mod family;
mod game_id;
mod morris;

pub use self::any_game::{AnyGame, LoadError};
pub use self::any_move::AnyMove;
pub use self::family::GameFamily;
pub use self::game_id::{game_ids, GameId, UnknownGameError};
