//! Moves in canonical order: the order of [`CliGame::compare_moves`].
//!
//! Listings and random players use it, so their output does not depend on the order in which
//! the move generator happens to produce moves.

use crate::cli_game::CliGame;

/// The moves in canonical order.
pub(crate) fn sorted<G: CliGame>(moves: &[G::Move]) -> Vec<G::Move> {
    let mut list = moves.to_vec();
    G::sort_moves(&mut list, |mv| mv);
    list
}

/// The moves in canonical order, in standard notation, separated by spaces.
pub(crate) fn join<G: CliGame>(moves: &[G::Move]) -> String {
    sorted::<G>(moves)
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use perfectplay_core::checkers::{Checkers, CheckersMove};
    use perfectplay_core::morris::Morris;
    use perfectplay_core::{Game, GameState};

    use super::*;

    #[test]
    fn start_moves_in_order() {
        let state = GameState::new(Checkers::default());
        assert_eq!(
            join::<Checkers>(&state.legal_moves()),
            "9-13 9-14 10-14 10-15 11-15 11-16 12-16"
        );
        let state = GameState::new(Morris::preset("six_mens_morris").unwrap());
        let text = join::<Morris>(&state.legal_moves());
        assert!(text.starts_with("a1 a3 a5 b2 b3 b4 c1 c2 c4 c5 "), "{text}");
        assert_eq!(text.split(' ').count(), 16);
    }

    #[test]
    fn capture_paths_order_by_landings() {
        let game = Checkers::default();
        let pos = "B:W14,15,22,23:BK10".parse().unwrap();
        let mut list = <Checkers as Game>::MoveList::default();
        game.generate_moves(&pos, &mut list);
        let names: Vec<String> = sorted::<Checkers>(&list)
            .iter()
            .map(CheckersMove::to_string)
            .collect();
        let mut expected = names.clone();
        expected.sort_by_key(|n| {
            n.split('x')
                .map(|s| s.parse::<u8>().unwrap())
                .collect::<Vec<_>>()
        });
        assert_eq!(names, expected);
        assert!(names.len() > 1);
    }
}
