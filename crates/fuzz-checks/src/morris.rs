//! Morris position strings and turns, under the rule sets of [`crate::MORRIS_PRESETS`].

use perfectplay_core::morris::{Morris, MorrisMove, MorrisPosition};
use perfectplay_core::Game;
use perfectplay_solver::rows::{self, RowError};

/// The first byte picks the rules, the rest is a position string. One that reads is valid,
/// writes back to a string that reads as the same position and plies, and decodes from its row
/// unless it has a memory; each legal turn's notation reads back as that turn, and the position
/// after it passes the same checks.
pub fn morris_fen(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let game = crate::morris_game(selector);
    let Ok((pos, plies)) = game.parse_fen(text) else {
        return;
    };
    crate::accepted();
    check_position(&game, &pos, plies);
    for mv in legal_turns(&game, &pos) {
        let written = mv.to_string();
        assert_eq!(
            game.parse_move(&pos, &written),
            Ok(mv),
            "{written} in {}",
            game.fen(&pos, plies)
        );
        check_position(&game, &game.play(&pos, &mv), 0);
    }
}

fn check_position(game: &Morris, pos: &MorrisPosition, plies: u32) {
    let fen = game.fen(pos, plies);
    if let Err(e) = game.validate(pos) {
        panic!("{fen} is not valid: {e}");
    }
    let again = game
        .parse_fen(&fen)
        .unwrap_or_else(|e| panic!("{fen} does not read: {e}"));
    assert_eq!(again, (*pos, plies), "{fen}");
    assert_eq!(game.fen(&again.0, plies), fen);
    match rows::encode_morris(game, pos) {
        Ok(row) => assert_eq!(rows::decode_morris(game, &row).as_ref(), Ok(pos), "{fen}"),
        Err(e) => assert_eq!(e, RowError::Memory, "{fen}"),
    }
}

fn legal_turns(game: &Morris, pos: &MorrisPosition) -> Vec<MorrisMove> {
    let mut turns = Vec::new();
    game.for_each_move(pos, |mv| turns.push(*mv));
    turns
}

/// The first byte picks the rules, the rest is a position (a line, or the start) and a turn. A
/// turn that reads is legal there and its notation reads back as it.
pub fn morris_move(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Some((position, text)) = crate::position_and_move(rest) else {
        return;
    };
    let game = crate::morris_game(selector);
    let pos = match position {
        Some(fen) => match game.parse_fen(fen) {
            Ok((pos, _)) => pos,
            Err(_) => return,
        },
        None => game.start_position(),
    };
    let Ok(mv) = game.parse_move(&pos, text) else {
        return;
    };
    crate::accepted();
    assert!(
        legal_turns(&game, &pos).contains(&mv),
        "{text:?} read as {mv}, not legal"
    );
    assert_eq!(game.parse_move(&pos, &mv.to_string()), Ok(mv), "{text:?}");
}
