//! Perft: the number of move paths of a given length, the standard check of a move generator.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::Game;

/// The deepest count the command line and the Python binding take. A count deeper than this
/// exceeds 64 bits from any position with two moves or more a ply, and the count recurses a
/// call per ply: in a position that cannot end by itself (kings alone; history rules are not
/// applied) a depth of millions would run out of stack rather than of time.
pub const MAX_PERFT_DEPTH: u32 = 64;

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

/// [`perft`] that gives up (`None`) soon after `stop` is set: the flag is looked at before
/// each subtree of three plies or more, so a stop is seen within one two-ply count and the
/// count itself pays for one load every few hundred leaves at most.
pub fn perft_until<G: Game>(
    game: &G,
    pos: &G::Position,
    depth: u32,
    stop: &AtomicBool,
) -> Option<u64> {
    if depth < 3 {
        return Some(perft(game, pos, depth));
    }
    let mut leaves = 0;
    let mut stopped = false;
    game.for_each_move(pos, |mv| {
        if stopped || stop.load(Ordering::Relaxed) {
            stopped = true;
            return;
        }
        match perft_until(game, &game.play(pos, mv), depth - 1, stop) {
            Some(n) => leaves += n,
            None => stopped = true,
        }
    });
    (!stopped).then_some(leaves)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkers::Checkers;

    #[test]
    fn perft_until_counts_as_perft_or_stops() {
        let game = Checkers::default();
        let start = game.start_position();
        let go = AtomicBool::new(false);
        for depth in 0..7 {
            assert_eq!(
                perft_until(&game, &start, depth, &go),
                Some(perft(&game, &start, depth))
            );
        }
        let stopped = AtomicBool::new(true);
        assert_eq!(perft_until(&game, &start, 6, &stopped), None);
        assert_eq!(
            perft_until(&game, &start, 2, &stopped),
            Some(perft(&game, &start, 2))
        );
    }
}
