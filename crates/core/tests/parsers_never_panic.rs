//! Fuzz-style property tests: the text parsers return errors, never panic, on arbitrary input,
//! and whatever they accept is a legal value that writes back canonically.

use perfectplay_core::checkers::{Checkers, CheckersPosition, MoveText};
use perfectplay_core::{Game, SplitMix64};
use proptest::prelude::*;

/// Strings built from the characters FEN and move text use, so that many are nearly valid.
fn fen_like() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[ \"BWKbwkx:,.0-9\\-]{0,40}").expect("valid regex")
}

/// The positions of eight random games (a position every `every` plies), each with the texts
/// `texts` gives for it.
fn random_game_texts(
    seed: u64,
    every: usize,
    texts: impl Fn(&CheckersPosition) -> Vec<String>,
) -> Vec<(CheckersPosition, String)> {
    let game = Checkers::default();
    let mut rng = SplitMix64::new(seed);
    let mut cases = Vec::new();
    for _ in 0..8 {
        let mut pos = game.start_position();
        for ply in 0..120 {
            let mut moves = Vec::new();
            game.for_each_move(&pos, |m| moves.push(*m));
            let Some(i) = rng.below(moves.len()) else {
                break;
            };
            if ply % every == 0 {
                cases.extend(texts(&pos).into_iter().map(|text| (pos, text)));
            }
            pos = game.play(&pos, &moves[i]);
        }
    }
    cases
}

/// `cases`, half of their texts with one character changed to one of `alphabet`: a parser
/// accepts the unchanged ones, so a round-trip check runs on every other case at least.
fn one_char_changed(
    cases: Vec<(CheckersPosition, String)>,
    alphabet: &str,
) -> impl Strategy<Value = (CheckersPosition, String, bool)> {
    let alphabet: Vec<char> = alphabet.chars().collect();
    (
        proptest::sample::select(cases),
        any::<proptest::sample::Index>(),
        proptest::sample::select(alphabet),
        any::<bool>(),
    )
        .prop_map(|((pos, text), at, c, changed)| {
            if !changed {
                return (pos, text, false);
            }
            let mut chars: Vec<char> = text.chars().collect();
            let i = at.index(chars.len());
            chars[i] = c;
            (pos, chars.into_iter().collect(), true)
        })
}

/// FENs of positions from random games, half of them with one character changed.
fn near_fens() -> impl Strategy<Value = (String, bool)> {
    let fens = random_game_texts(0x6e65_6172, 7, |pos| vec![pos.fen()]);
    one_char_changed(fens, "BWKbwkx:,.0123456789- ").prop_map(|(_, fen, changed)| (fen, changed))
}

/// Positions of random games with the text of one of their legal moves, half of the texts
/// with one character changed.
fn near_moves() -> impl Strategy<Value = (CheckersPosition, String, bool)> {
    let game = Checkers::default();
    let moves = random_game_texts(0x6d6f_7665, 1, |pos| {
        let mut texts = Vec::new();
        game.for_each_move(pos, |m| texts.push(m.to_string()));
        texts
    });
    one_char_changed(moves, "x-0123456789 ")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn moves_near_legal_ones_read_back_canonically((pos, text, changed) in near_moves()) {
        match pos.parse_move(&text) {
            Ok(mv) => {
                let mut legal = Vec::new();
                Checkers::default().for_each_move(&pos, |m| legal.push(*m));
                prop_assert!(legal.contains(&mv), "{} is not legal in {}", text, pos.fen());
                prop_assert_eq!(pos.parse_move(&mv.to_string()).unwrap(), mv);
            }
            Err(e) => prop_assert!(changed, "refused its own move {:?} in {}: {}", text, pos.fen(), e),
        }
    }

    #[test]
    fn fens_near_real_ones_read_back_canonically((text, changed) in near_fens()) {
        match text.parse::<CheckersPosition>() {
            Ok(pos) => {
                let canonical = pos.fen();
                prop_assert_eq!(canonical.parse::<CheckersPosition>().unwrap(), pos);
            }
            Err(e) => prop_assert!(changed, "refused its own FEN {:?}: {}", text, e),
        }
    }

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
