//! Perft: the number of move paths of a given length, the standard check of a move generator.

use crate::game::Game;

/// The number of leaf nodes `depth` plies below `pos`, counted with bulk counting: the last ply
/// is counted with [`Game::count_moves`] instead of being played. Positions over by themselves
/// have no moves, so they end their branch; history-dependent draws are not applied, as is
/// the convention for perft.
///
/// ```
/// use perfectplay_core::checkers::Checkers;
/// use perfectplay_core::{perft, Game};
/// let game = Checkers::default();
/// assert_eq!(perft(&game, &game.start_position(), 3), 302);
/// ```
pub fn perft<G: Game>(game: &G, pos: &G::Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_moves(pos),
        // The last two plies without a call per child: most of the work is here.
        2 => {
            let mut leaves = 0;
            game.for_each_move(pos, |mv| leaves += game.count_moves(&game.play(pos, mv)));
            leaves
        }
        _ => {
            let mut leaves = 0;
            game.for_each_move(pos, |mv| {
                leaves += perft(game, &game.play(pos, mv), depth - 1)
            });
            leaves
        }
    }
}

/// Perft split by first move: each legal move with the leaf count below it, in generation
/// order. The counts sum to [`perft`] of the same depth (`depth >= 1`).
pub fn perft_divide<G: Game>(game: &G, pos: &G::Position, depth: u32) -> Vec<(G::Move, u64)> {
    let mut moves = G::MoveList::default();
    game.generate_moves(pos, &mut moves);
    moves
        .iter()
        .map(|mv| {
            (
                *mv,
                perft(game, &game.play(pos, mv), depth.saturating_sub(1)),
            )
        })
        .collect()
}
