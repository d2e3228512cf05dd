//! The morris family as a [`GameFamily`]: its position strings and `d6` / `a1-a4xd7` turns.

use super::{AnyMove, GameFamily};
use crate::morris::fen::MorrisFenError;
use crate::morris::{Morris, MorrisMove, MorrisMoveError, MorrisPosition, MorrisRules, RulesError};

impl GameFamily for Morris {
    const FAMILY: &'static str = "morris";

    type Rules = MorrisRules;
    type MoveError = MorrisMoveError;
    type PositionError = MorrisFenError;

    fn with_rules(rules: MorrisRules) -> Result<Morris, RulesError> {
        Morris::new(rules)
    }

    fn rule_set(&self) -> &MorrisRules {
        self.rules()
    }

    fn parse_move(&self, pos: &MorrisPosition, text: &str) -> Result<MorrisMove, MorrisMoveError> {
        Morris::parse_move(self, pos, text)
    }

    fn read_position(&self, text: &str) -> Result<(MorrisPosition, u32), MorrisFenError> {
        self.parse_fen(text)
    }

    fn write_position(&self, pos: &MorrisPosition, no_progress: u32) -> String {
        self.fen(pos, no_progress)
    }

    fn diagram(&self, pos: &MorrisPosition) -> String {
        Morris::diagram(self, pos)
    }

    fn svg(&self, pos: &MorrisPosition) -> String {
        Morris::svg(self, pos)
    }

    fn wrap_move(mv: MorrisMove) -> AnyMove {
        AnyMove::Morris(mv)
    }

    fn unwrap_move(mv: &AnyMove) -> Option<MorrisMove> {
        match mv {
            AnyMove::Morris(mv) => Some(*mv),
            AnyMove::Checkers(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, GameState};

    fn nine() -> Morris {
        Morris::preset("nine_mens_morris").unwrap()
    }

    #[test]
    fn positions_read_and_write_with_their_counter() {
        let game = nine();
        let text = "W.B/.../.../....../.../.../... b 8 8 3 - -";
        let (pos, plies) = game.read_position(text).unwrap();
        assert_eq!(plies, 3);
        assert_eq!(game.write_position(&pos, plies), text);
        let err = game.read_position("W.B b 8 8").unwrap_err();
        assert!(
            err.to_string().starts_with("invalid morris position"),
            "{err}"
        );
    }

    #[test]
    fn positions_and_turns_round_trip_in_every_preset() {
        for preset in MorrisRules::PRESETS {
            let game = Morris::with_rules(preset.rules).unwrap();
            let mut state = GameState::new(game);
            for ply in 0..60 {
                if state.is_over() {
                    break;
                }
                let pos = *state.position();
                let plies = state.no_progress_plies();
                let text = game.write_position(&pos, plies);
                assert_eq!(game.read_position(&text).unwrap(), (pos, plies), "{text}");
                let moves = state.legal_moves();
                let mv = moves[(ply * 7) % moves.len()];
                let typed = mv.to_string();
                assert_eq!(game.parse_move(&pos, &typed).unwrap(), mv, "{typed}");
                let any = Morris::wrap_move(mv);
                assert_eq!(Morris::unwrap_move(&any), Some(mv));
                assert_eq!(any.to_string(), typed);
                state.play(&mv).unwrap();
            }
        }
    }

    #[test]
    fn typed_turns_and_drawings() {
        let game = nine();
        let start = game.start_position();
        assert_eq!(game.parse_move(&start, "D6").unwrap().to_string(), "d6");
        let err = game.parse_move(&start, "a1-a4").unwrap_err();
        assert!(err.to_string().contains("not a legal move"), "{err}");
        assert!(game.diagram(&start).ends_with("white to move"));
        assert!(game.svg(&start).starts_with("<svg"));
        let checkers = crate::checkers::Checkers::default();
        let mv = checkers.start_position().parse_move("11-15").unwrap();
        assert_eq!(Morris::unwrap_move(&AnyMove::Checkers(mv)), None);
    }

    #[test]
    fn rules_are_validated() {
        let mut rules = MorrisRules::NINE_MENS_MORRIS;
        rules.flying = Some(4);
        let err = Morris::with_rules(rules).unwrap_err();
        assert!(err.to_string().contains("not 4"), "{err}");
        let game = Morris::with_rules(MorrisRules::TWELVE_MENS_MORRIS).unwrap();
        assert_eq!(game.rule_set(), &MorrisRules::TWELVE_MENS_MORRIS);
        assert_eq!(game.settings(), MorrisRules::TWELVE_MENS_MORRIS.settings());
    }
}
