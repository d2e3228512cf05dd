//! The players of `perfectplay play`: a seeded random mover and a human at the console.

use std::io::Write;

use clap::ValueEnum;
use perfectplay_core::{Color, GameState};

use perfectplay_core::SplitMix64;

use crate::choice::Choice;
use crate::cli_game::CliGame;
use crate::console::Console;
use crate::errors::CliError;
use crate::moves;

/// Who plays a side, as chosen on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum PlayerKind {
    /// Picks a legal move uniformly at random, from the seed.
    Random,
    /// Types moves on standard input.
    Human,
}

impl PlayerKind {
    /// The kind as written on the command line.
    pub(crate) const fn name(self) -> &'static str {
        match self {
            PlayerKind::Random => "random",
            PlayerKind::Human => "human",
        }
    }
}

/// A player with its state: the random player's generator.
#[derive(Clone, Debug)]
pub(crate) enum Player {
    /// Uniform random legal moves from its own generator.
    Random(SplitMix64),
    /// Moves typed at the console.
    Human,
}

impl Player {
    /// A player of `kind` for `color`; random players draw from stream `color` of `seed`.
    pub(crate) fn new(kind: PlayerKind, seed: u64, color: Color) -> Player {
        match kind {
            PlayerKind::Random => Player::Random(SplitMix64::stream(seed, color.index() as u64)),
            PlayerKind::Human => Player::Human,
        }
    }

    /// The player's choice in `state`, a game that is not over. Random players answer at once,
    /// picking from the moves in canonical order so that a seed always gives the same game;
    /// humans are asked at the console, with `talk` for prompts and messages.
    pub(crate) fn choose<G: CliGame>(
        &mut self,
        state: &GameState<G>,
        console: &mut Console,
        talk: &mut dyn Write,
    ) -> Result<Choice<G::Move>, CliError> {
        match self {
            Player::Random(rng) => {
                let legal = moves::sorted::<G>(&state.legal_moves());
                rng.pick(&legal)
                    .map(|&mv| Choice::Move(mv))
                    .ok_or(CliError::NoLegalMove)
            }
            Player::Human => Ok(console.read_move(state.game(), state.position(), talk)?),
        }
    }
}

#[cfg(test)]
mod tests {
    use perfectplay_core::checkers::Checkers;
    use perfectplay_core::morris::Morris;

    use super::*;

    #[test]
    fn random_players_repeat_with_the_seed() {
        let state = GameState::new(Checkers::default());
        let mut console = Console::new(None);
        let mut pick = |seed| {
            let mut player = Player::new(PlayerKind::Random, seed, Color::Black);
            (0..8)
                .map(|_| {
                    player
                        .choose(&state, &mut console, &mut Vec::new())
                        .unwrap()
                })
                .collect::<Vec<_>>()
        };
        let first = pick(5);
        assert_eq!(first, pick(5));
        assert!(first
            .iter()
            .all(|c| matches!(c, Choice::Move(mv) if !mv.is_capture())));
    }

    #[test]
    fn random_morris_players_place_men() {
        let state = GameState::new(Morris::preset("morabaraba").unwrap());
        let mut player = Player::new(PlayerKind::Random, 3, Color::White);
        let choice = player
            .choose(&state, &mut Console::new(None), &mut Vec::new())
            .unwrap();
        assert!(
            matches!(choice, Choice::Move(mv) if mv.to().is_some() && mv.from().is_none()),
            "{choice:?}"
        );
    }

    #[test]
    fn kinds_read_as_typed() {
        assert_eq!(PlayerKind::Human.name(), "human");
        assert_eq!(PlayerKind::Random.name(), "random");
    }
}
