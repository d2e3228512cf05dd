//! English checkers as a [`GameFamily`]: PDN FEN positions and `11-15` / `15x24` moves.

use super::{AnyMove, GameFamily};
use crate::checkers::{
    self, Checkers, CheckersFenError, CheckersMove, CheckersMoveError, CheckersPosition,
    CheckersRules,
};
use crate::morris::RulesError;

impl GameFamily for Checkers {
    const FAMILY: &'static str = "checkers";

    type Rules = CheckersRules;
    type MoveError = CheckersMoveError;
    type PositionError = CheckersFenError;

    fn with_rules(rules: CheckersRules) -> Result<Checkers, RulesError> {
        Ok(Checkers::new(rules))
    }

    fn rule_set(&self) -> &CheckersRules {
        self.rules()
    }

    fn parse_move(
        &self,
        pos: &CheckersPosition,
        text: &str,
    ) -> Result<CheckersMove, CheckersMoveError> {
        // The game's own reading: under its capture options, a capture stopped part way too.
        Checkers::parse_move(self, pos, text)
    }

    fn read_position(&self, text: &str) -> Result<(CheckersPosition, u32), CheckersFenError> {
        // PDN FEN records no count of plies without progress.
        Ok((checkers::fen::parse(text)?, 0))
    }

    fn write_position(&self, pos: &CheckersPosition, _no_progress: u32) -> String {
        pos.fen()
    }

    fn diagram(&self, pos: &CheckersPosition) -> String {
        pos.to_string()
    }

    fn svg(&self, pos: &CheckersPosition) -> String {
        Checkers::svg(self, pos)
    }

    fn wrap_move(mv: CheckersMove) -> AnyMove {
        AnyMove::Checkers(mv)
    }

    fn unwrap_move(mv: &AnyMove) -> Option<CheckersMove> {
        match mv {
            AnyMove::Checkers(mv) => Some(*mv),
            AnyMove::Morris(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, GameState};

    #[test]
    fn positions_have_no_counter() {
        let game = Checkers::default();
        let (pos, plies) = game.read_position("W:W27:B18,10").unwrap();
        assert_eq!(plies, 0);
        assert_eq!(game.write_position(&pos, 7), "W:W27:B10,18");
        assert!(game.read_position("B:W33:B1").is_err());
    }

    #[test]
    fn positions_and_moves_round_trip() {
        let game = Checkers::default();
        let mut state = GameState::new(game);
        for ply in 0..40 {
            if state.is_over() {
                break;
            }
            let pos = *state.position();
            let text = game.write_position(&pos, 0);
            assert_eq!(game.read_position(&text).unwrap(), (pos, 0), "{text}");
            let moves = state.legal_moves();
            let mv = moves[ply % moves.len()];
            assert_eq!(game.parse_move(&pos, &mv.to_string()).unwrap(), mv);
            let any = Checkers::wrap_move(mv);
            assert_eq!(Checkers::unwrap_move(&any), Some(mv));
            assert_eq!(any.to_string(), mv.to_string());
            state.play(&mv).unwrap();
        }
    }

    #[test]
    fn moves_of_the_other_family_are_refused() {
        let game = Checkers::default();
        let start = game.start_position();
        assert!(game.parse_move(&start, "11-14").is_err());
        assert!(game.parse_move(&start, "d6").is_err());
        let morris = crate::morris::Morris::preset("three_mens_morris").unwrap();
        let placement = morris.parse_move(&morris.start_position(), "b2").unwrap();
        assert_eq!(Checkers::unwrap_move(&AnyMove::Morris(placement)), None);
    }

    #[test]
    fn drawings_and_settings() {
        let game = Checkers::default();
        let start = game.start_position();
        assert!(game.diagram(&start).contains("to move"));
        assert!(game.svg(&start).starts_with("<svg"));
        assert_eq!(game.settings(), CheckersRules::default().settings());
        let rules = CheckersRules {
            ply_limit: None,
            ..CheckersRules::default()
        };
        assert_eq!(Checkers::with_rules(rules).unwrap().rule_set(), &rules);
    }
}
