//! Checkers position strings (FEN) and moves.

use perfectplay_core::checkers::{Checkers, CheckersMove, CheckersPosition, MoveText};
use perfectplay_core::{Color, Game};
use perfectplay_solver::rows;

/// A FEN that reads writes back canonically to one that reads as the same position; its row
/// decodes to it; each legal move's notation reads back as that move, and the position after
/// it passes the same checks of its text.
pub fn checkers_fen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = text.parse::<CheckersPosition>() else {
        return;
    };
    crate::accepted();
    check_position(&pos);
    let mut moves = Vec::new();
    Checkers::default().for_each_move(&pos, |mv| moves.push(*mv));
    for mv in moves {
        assert_eq!(pos.parse_move(&mv.to_string()), Ok(mv), "{} in {text}", mv);
        check_position(&pos.play(&mv));
    }
}

fn check_position(pos: &CheckersPosition) {
    let fen = pos.fen();
    let again: CheckersPosition = fen
        .parse()
        .unwrap_or_else(|e| panic!("{fen} does not read: {e}"));
    assert_eq!(&again, pos, "{fen}");
    assert_eq!(again.fen(), fen);
    let game = Checkers::default();
    let row = rows::encode_checkers(&game, pos);
    assert_eq!(
        rows::decode_checkers(&game, &row).as_ref(),
        Ok(pos),
        "{fen}"
    );
    let parts = CheckersPosition::from_parts(
        pos.pieces(Color::Black),
        pos.pieces(Color::White),
        pos.kings(Color::Black) | pos.kings(Color::White),
        pos.side_to_move(),
    );
    assert_eq!(parts.as_ref(), Ok(pos), "{fen}");
}

/// A position (a FEN line, or the start) and move text: text that parses prints as text that
/// parses to the same squares; a move it resolves to is legal, lands where the text says (in
/// full, or the start and end of the short form), and is a capture exactly when written with
/// `x`.
pub fn checkers_move(data: &[u8]) {
    let Some((position, text)) = crate::position_and_move(data) else {
        return;
    };
    let pos = match position {
        Some(fen) => match fen.parse::<CheckersPosition>() {
            Ok(pos) => pos,
            Err(_) => return,
        },
        None => Checkers::default().start_position(),
    };
    let Ok(parsed) = text.parse::<MoveText>() else {
        assert!(pos.parse_move(text).is_err(), "{text}");
        return;
    };
    let printed = parsed.to_string();
    let again: MoveText = printed
        .parse()
        .unwrap_or_else(|e| panic!("{printed} (from {text:?}) does not read: {e}"));
    assert_eq!(again.squares(), parsed.squares(), "{text:?}");
    let Ok(mv) = pos.parse_move(text) else {
        return;
    };
    crate::accepted();
    let mut legal: Vec<CheckersMove> = Vec::new();
    Checkers::default().for_each_move(&pos, |m| legal.push(*m));
    assert!(legal.contains(&mv), "{text:?} resolved to {mv}, not legal");
    let squares = parsed.squares();
    let landings: Vec<_> = mv.landings().collect();
    let short = squares.len() == 2 && mv.to() == squares[1];
    assert!(
        mv.from() == squares[0] && (landings == squares[1..] || short),
        "{text:?} resolved to {mv}"
    );
    let written_as_capture = text.contains(['x', 'X']);
    assert_eq!(
        mv.is_capture(),
        written_as_capture,
        "{text:?} resolved to {mv}"
    );
}
