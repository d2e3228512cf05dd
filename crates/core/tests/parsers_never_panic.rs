//! Fuzz-style property tests: the text parsers return errors, never panic, on arbitrary input,
//! and whatever they accept is a legal value that writes back canonically.

use perfectplay_core::checkers::{CheckersPosition, MoveText};
use proptest::prelude::*;

/// Strings built from the characters FEN and move text use, so that many are nearly valid.
fn fen_like() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[ \"BWKbwkx:,.0-9\\-]{0,40}").expect("valid regex")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn fen_parser_never_panics(text in fen_like()) {
        if let Ok(pos) = text.parse::<CheckersPosition>() {
            let canonical = pos.fen();
            prop_assert_eq!(canonical.parse::<CheckersPosition>().unwrap(), pos);
        }
    }

    #[test]
    fn fen_parser_never_panics_on_any_text(text in ".{0,60}") {
        let _ = text.parse::<CheckersPosition>();
    }

    #[test]
    fn move_parser_never_panics(text in fen_like()) {
        let start = CheckersPosition::start(perfectplay_core::Color::Black);
        if let Ok(parsed) = text.parse::<MoveText>() {
            prop_assert!(parsed.squares().len() >= 2);
        }
        if let Ok(mv) = start.parse_move(&text) {
            prop_assert_eq!(start.parse_move(&mv.to_string()).unwrap(), mv);
        }
    }

    #[test]
    fn move_parser_never_panics_on_any_text(text in ".{0,60}") {
        let _ = text.parse::<MoveText>();
    }
}
