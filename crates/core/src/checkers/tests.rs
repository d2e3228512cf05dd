//! Checkers rules, game-state rules and move generation, checked against hand-built positions,
//! a slow reference generator and random games.

use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use super::{
    Checkers, CheckersMove, CheckersMoveList, CheckersPosition, CheckersRules, Setup, Square,
    MOVE_CAPACITY,
};
use crate::game::{EndReason, Game, Outcome, Player};
use crate::state::{GameState, PlayError};
use crate::{Bitboard, Color};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn pos(fen: &str) -> CheckersPosition {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn legal(p: &CheckersPosition) -> CheckersMoveList {
    let mut list = CheckersMoveList::new();
    p.generate_moves_into(&mut list);
    list
}

/// The legal moves in notation, sorted.
fn names(p: &CheckersPosition) -> Vec<String> {
    let mut v: Vec<String> = legal(p).iter().map(ToString::to_string).collect();
    v.sort();
    v
}

/// Asserts the exact set of legal moves, and that the counting entry points agree with it.
fn assert_moves(fen: &str, expected: &[&str]) {
    let p = pos(fen);
    let mut want: Vec<String> = expected.iter().map(|s| (*s).to_owned()).collect();
    want.sort();
    let got = names(&p);
    assert_eq!(got, want, "moves of {fen}");
    assert_eq!(p.count_moves(), got.len() as u64, "count_moves of {fen}");
    assert_eq!(
        p.has_legal_move(),
        !got.is_empty(),
        "has_legal_move of {fen}"
    );
}

/// The legal move written `text` (long form), found by its notation.
fn find(p: &CheckersPosition, text: &str) -> CheckersMove {
    legal(p)
        .iter()
        .copied()
        .find(|m| m.to_string() == text)
        .unwrap_or_else(|| panic!("{text} is not legal in {}; legal: {:?}", p.fen(), names(p)))
}

fn sq(n: u8) -> Square {
    Square::from_number(n).unwrap()
}

fn squares(numbers: &[u8]) -> Bitboard {
    numbers
        .iter()
        .fold(Bitboard::EMPTY, |b, &n| b | sq(n).bitboard())
}

fn checkers(rules: CheckersRules) -> Checkers {
    Checkers::new(rules)
}

fn state_at(rules: CheckersRules, fen: &str) -> GameState<Checkers> {
    GameState::from_position(checkers(rules), pos(fen))
}

fn play_text(state: &mut GameState<Checkers>, text: &str) {
    let mv = find(state.position(), text);
    state.play(&mv).unwrap_or_else(|e| panic!("{text}: {e}"));
}

use crate::state::testing::snapshot;

/// The row where `color`'s men are crowned, counted from Black's side.
fn crown_row(color: Color) -> u8 {
    match color {
        Color::Black => 7,
        Color::White => 0,
    }
}

// ---------------------------------------------------------------------------------------------
// 1. Rules on hand-built positions
// ---------------------------------------------------------------------------------------------

#[test]
fn men_move_only_forward() {
    // A black man on 14 (c5) steps towards 32 only; a white man on 18 (d4) towards 1 only.
    assert_moves("B:W32:B14", &["14-17", "14-18"]);
    assert_moves("W:W18:B1", &["18-14", "18-15"]);
    // Blocked forwards (and unable to jump), a man has no move even with empty squares
    // behind it.
    assert_moves("B:W17,18,21,23:B14,1", &["1-5", "1-6"]);
}

#[test]
fn kings_move_both_ways() {
    assert_moves("B:W32:BK14", &["14-9", "14-10", "14-17", "14-18"]);
    assert_moves("W:WK18:B1", &["18-14", "18-15", "18-22", "18-23"]);
    // On an edge a king has two squares, in a corner one.
    assert_moves("B:W32:BK5", &["5-1", "5-9"]);
    assert_moves("W:WK29:B1", &["29-25"]);
}

#[test]
fn capture_is_mandatory() {
    // Black's man on 1 could step to 5 or 6, but 14 can take 18: only the capture is legal.
    assert_moves("B:W18:B14,1", &["14x23"]);
    assert!(pos("B:W18:B14,1").must_capture());
    assert_moves("W:W18,32:B14", &["18x9"]);
    assert!(pos("W:W18,32:B14").must_capture());
    assert!(!pos("B:W32:B14").must_capture());
}

#[test]
fn any_capture_may_be_chosen() {
    // Two pieces: 1x10x19 takes two, 14x23 one; no majority rule, both are legal.
    assert_moves("B:W6,15,18:B1,14", &["1x10x19", "14x23"]);
    // One piece with a single jump one way and a double the other: both are legal.
    assert_moves("B:W17,18,27:B14", &["14x21", "14x23x32"]);
    // Kings too: a king on 14 may take 10 alone, or 18 and then 27.
    assert_moves("B:W10,18,27:BK14", &["14x23x32", "14x7"]);
}

#[test]
fn a_sequence_must_be_completed() {
    // 6x15 must go on to 24: the partial jump is not a move.
    assert_moves("B:W10,19:B6", &["6x15x24"]);
    assert_moves("W:W27:B23,15", &["27x18x11"]);
    // A king must go on too, in any direction it can.
    assert_moves("B:W10,18:BK14", &["14x23", "14x7"]);
    assert_moves("B:W18,26:BK14", &["14x23x30"]);
}

#[test]
fn men_capture_forward_only() {
    // The white man on 10 stands behind the black man on 14 with 7 empty: no capture.
    assert_moves("B:W10:B14", &["14-17", "14-18"]);
    assert!(!pos("B:W10:B14").must_capture());
    // The same for White: the black man on 23 is behind the white man on 18.
    assert_moves("W:W18:B23", &["18-14", "18-15"]);
    // A man's sequence cannot turn backwards either: after 6x15 the man on 15 may not take 11.
    assert_moves("B:W10,11:B6", &["6x15"]);
}

#[test]
fn kings_capture_backward() {
    assert_moves("B:W10:BK14", &["14x7"]);
    assert_moves("W:WK18:B23", &["18x27"]);
    // Mid-sequence, a king may turn back: 14x23 then backwards over 19 to 16... 19 is
    // north-east of 23, so 23x16 is a backward jump for Black.
    assert_moves("B:W18,19:BK14", &["14x23x16"]);
}

#[test]
fn crowning_ends_the_move() {
    // 22x31 crowns; as a king on 31 it could take 27 (to 24), but the move ends.
    assert_moves("B:W26,27:B22", &["22x31"]);
    let p = pos("B:W26,27:B22").play(&find(&pos("B:W26,27:B22"), "22x31"));
    assert_eq!(p.fen(), "W:W27:BK31");
    // White: 11x2 crowns, and the new king on 2 could take 6 (to 9): the move still ends.
    assert_moves("W:W11:B6,7", &["11x2"]);
    let p = pos("W:W11:B6,7");
    assert_eq!(p.play(&find(&p, "11x2")).fen(), "B:WK2:B6");
    // A simple move onto the crowning row crowns too.
    let p = pos("B:WK1:B27");
    assert_eq!(p.play(&find(&p, "27-32")).fen(), "W:WK1:BK32");
    // A king already crowned carries on jumping from the back row as usual.
    assert_moves("B:W26,27:BK22", &["22x31x24"]);
}

#[test]
fn captured_pieces_cannot_be_jumped_twice() {
    // A king on 10 takes 14 and lands on 17; jumping 14 again back to 10 (its own start square,
    // empty now) would take the same piece twice.
    assert_moves("B:W14:BK10", &["10x17"]);
    // A square-shaped block: each man is taken once, never a fifth time.
    let p = pos("B:W14,15,22,23:BK10");
    for mv in legal(&p) {
        assert_eq!(mv.jump_count(), 4);
        assert_eq!(mv.captured(), squares(&[14, 15, 22, 23]));
    }
}

#[test]
fn captured_pieces_stay_until_the_move_ends() {
    // With short kings a jumped piece can never stand on a later landing square of the same
    // move: every jump keeps the row parity of the landing squares, and a jumped piece sits on
    // a row of the other parity. So "captured pieces block landings" never changes a move in
    // English checkers; what remains is that none is jumped twice (see above) and that all are
    // removed together when the move ends.
    for p in [
        pos("B:W14,15,22,23:BK10"),
        pos("B:W6,7,14,15,22,23,24:BK10"),
    ] {
        for mv in legal(&p) {
            for landing in mv.landings() {
                assert!(!mv.captured().intersects(landing.bitboard()), "{mv}");
                assert_eq!(landing.row() % 2, mv.from().row() % 2, "{mv}");
            }
            for taken in mv.captured().indices() {
                assert_ne!(
                    Square::new(taken).unwrap().row() % 2,
                    mv.from().row() % 2,
                    "{mv}"
                );
            }
            let after = p.play(&mv);
            assert!(!after.pieces(Color::White).intersects(mv.captured()));
            let left = after.pieces(Color::White).count();
            assert_eq!(left + mv.captured().count(), p.pieces(Color::White).count());
        }
    }
}

#[test]
fn the_start_square_counts_as_empty() {
    // The king circles the block either way round and lands back on 10.
    assert_moves("B:W14,15,22,23:BK10", &["10x17x26x19x10", "10x19x26x17x10"]);
    let p = pos("B:W14,15,22,23:BK10");
    let a = find(&p, "10x17x26x19x10");
    let b = find(&p, "10x19x26x17x10");
    assert_ne!(a, b);
    assert_eq!(a.from(), sq(10));
    assert_eq!(a.to(), sq(10));
    assert_eq!(a.captured(), b.captured());
    // White the same, mirrored colours.
    assert_moves("W:WK10:B14,15,22,23", &["10x17x26x19x10", "10x19x26x17x10"]);
}

/// A capture that ends on its own start square leaves the king there: the move's start and end
/// are the same square, so toggling both must not take the piece off the board.
#[test]
fn circling_back_to_the_start_square_keeps_the_king() {
    for (fen, after_fen, winner) in [
        ("B:W14,15,22,23:BK10", "W:W:BK10", Color::Black),
        ("W:WK10:B14,15,22,23", "B:WK10:B", Color::White),
        ("B:W14,15,22,23,32:BK10,1", "W:W32:B1,K10", Color::Black),
    ] {
        let p = pos(fen);
        for text in ["10x17x26x19x10", "10x19x26x17x10"] {
            let mv = find(&p, text);
            let after = p.play(&mv);
            assert_eq!(after.fen(), after_fen, "{text} in {fen}");
            assert_eq!(
                p.zobrist_after(p.zobrist(), &mv),
                after.zobrist(),
                "{text} in {fen}"
            );
            let mut state = state_at(CheckersRules::default(), fen);
            state.play(&mv).unwrap();
            if state.position().pieces(!winner).is_empty() {
                assert_eq!(
                    state.outcome(),
                    Some(Outcome::win(winner, EndReason::NoMen))
                );
            }
        }
    }
}

#[test]
fn no_legal_moves_loses() {
    let game = Checkers::default();
    // Black's man on 28 is blocked by the white man on 32 and cannot jump it off the board.
    let p = pos("B:W32:B28");
    assert_moves("B:W32:B28", &[]);
    assert!(!p.must_capture());
    assert_eq!(
        game.outcome(&p),
        Some(Outcome::win(Color::White, EndReason::NoMoves))
    );
    // White's man on 5 is blocked by the black man on 1.
    let p = pos("W:W5:B1");
    assert_moves("W:W5:B1", &[]);
    assert_eq!(
        game.outcome(&p),
        Some(Outcome::win(Color::Black, EndReason::NoMoves))
    );
    // The side not to move being blocked decides nothing yet.
    assert_eq!(game.outcome(&pos("W:W32:B28")), None);
    let state = GameState::from_position(game, pos("B:W32:B28"));
    assert!(state.is_over());
    assert!(state.legal_moves().is_empty());
}

#[test]
fn no_pieces_loses() {
    let game = Checkers::default();
    assert_eq!(
        game.outcome(&pos("B:W32:B")),
        Some(Outcome::win(Color::White, EndReason::NoMen))
    );
    assert_eq!(
        game.outcome(&pos("W:W:B1")),
        Some(Outcome::win(Color::Black, EndReason::NoMen))
    );
    // Taking the last piece ends the game at once.
    let mut state = state_at(CheckersRules::default(), "B:W18:B14");
    play_text(&mut state, "14x23");
    assert_eq!(
        state.outcome(),
        Some(Outcome::win(Color::Black, EndReason::NoMen))
    );
    assert_eq!(state.outcome().unwrap().score(Color::Black), 1);
    assert_eq!(state.outcome().unwrap().score(Color::White), -1);
}

#[test]
fn playing_switches_the_side_to_move() {
    let game = Checkers::default();
    let start = game.start_position();
    assert_eq!(start.side_to_move(), Color::Black);
    let after = game.play(&start, &find(&start, "11-15"));
    assert_eq!(after.side_to_move(), Color::White);
    let again = game.play(&after, &find(&after, "22-18"));
    assert_eq!(again.side_to_move(), Color::Black);
    // A capture switches too.
    let p = pos("B:W18,32:B14");
    assert_eq!(p.play(&find(&p, "14x23")).side_to_move(), Color::White);
    assert_eq!(game.pass_turn(&p).side_to_move(), Color::White);
    assert_eq!(game.pass_turn(&p).occupied(), p.occupied());
}

#[test]
fn progress_is_a_capture_or_a_man_move() {
    let game = Checkers::default();
    let p = pos("B:W18,32:B14,K1");
    assert!(game.is_progress(&p, &find(&p, "14x23")));
    let p = pos("B:W32:B14,K1");
    assert!(game.is_progress(&p, &find(&p, "14-18")));
    assert!(!game.is_progress(&p, &find(&p, "1-6")));
    // A king's capture is progress.
    let p = pos("B:W10:BK14");
    assert!(game.is_progress(&p, &find(&p, "14x7")));
    // A man's move onto the crowning row is a man's move.
    let p = pos("B:WK1:B27");
    assert!(game.is_progress(&p, &find(&p, "27-32")));
    assert!(!game.is_progress(
        &p.play(&find(&p, "27-32")),
        &CheckersMove::quiet(sq(1), sq(5))
    ));
}

// ---------------------------------------------------------------------------------------------
// 2. GameState: repetition, move rule, ply limit, adjudication, undo, errors
// ---------------------------------------------------------------------------------------------

/// Two kings far apart, each shuffling between two squares: one cycle is four plies.
const SHUFFLE_FEN: &str = "B:WK32:BK1";
const SHUFFLE: [&str; 4] = ["1-5", "32-27", "5-1", "27-32"];

#[test]
fn threefold_repetition_draws_on_the_third_occurrence() {
    let mut state = state_at(CheckersRules::default(), SHUFFLE_FEN);
    assert_eq!(state.repetitions(), 1);
    for ply in 1..=8u32 {
        assert!(!state.is_over(), "over before ply {ply}");
        play_text(&mut state, SHUFFLE[(ply as usize - 1) % 4]);
        assert_eq!(state.ply(), ply);
        if ply == 4 {
            // The start position, the second time: not yet a draw.
            assert_eq!(state.position(), &pos(SHUFFLE_FEN));
            assert_eq!(state.repetitions(), 2);
            assert_eq!(state.outcome(), None);
        }
    }
    assert_eq!(state.repetitions(), 3);
    assert_eq!(state.outcome(), Some(Outcome::draw(EndReason::Repetition)));
    assert!(!state.outcome().unwrap().is_truncation());
    assert!(state.legal_moves().is_empty());

    // Off, the same shuffle goes on.
    let rules = CheckersRules {
        threefold_repetition: false,
        ..CheckersRules::default()
    };
    let mut state = state_at(rules, SHUFFLE_FEN);
    for ply in 0..12 {
        play_text(&mut state, SHUFFLE[ply % 4]);
    }
    assert_eq!(state.outcome(), None);
    assert_eq!(state.repetitions(), 4);
}

#[test]
fn move_rule_counts_plies_without_progress() {
    // move_rule 3: three moves each, six plies.
    let rules = CheckersRules {
        move_rule: Some(3),
        ..CheckersRules::default()
    };
    assert_eq!(checkers(rules).draw_rules().no_progress_plies, Some(6));
    let mut state = state_at(rules, SHUFFLE_FEN);
    for ply in 1..=6u32 {
        assert!(!state.is_over());
        play_text(&mut state, SHUFFLE[(ply as usize - 1) % 4]);
        assert_eq!(state.no_progress_plies(), ply);
    }
    assert_eq!(state.repetitions(), 2);
    assert_eq!(state.outcome(), Some(Outcome::draw(EndReason::MoveRule)));

    // A man's move resets the counter.
    let mut state = state_at(rules, "B:WK32:BK1,12");
    play_text(&mut state, "1-5");
    play_text(&mut state, "32-27");
    assert_eq!(state.no_progress_plies(), 2);
    play_text(&mut state, "12-16");
    assert_eq!(state.no_progress_plies(), 0);
    for (i, text) in ["27-32", "5-1", "32-27", "1-5", "27-32"].iter().enumerate() {
        play_text(&mut state, text);
        assert_eq!(state.no_progress_plies(), i as u32 + 1);
    }
    assert_eq!(state.outcome(), None);
    play_text(&mut state, "5-1");
    assert_eq!(state.outcome(), Some(Outcome::draw(EndReason::MoveRule)));

    // A capture resets it as well.
    let mut state = state_at(rules, "B:WK32,K19:BK1,K14");
    play_text(&mut state, "1-5");
    play_text(&mut state, "19-23");
    play_text(&mut state, "5-1");
    assert_eq!(state.no_progress_plies(), 3);
    play_text(&mut state, "23-18");
    play_text(&mut state, "14x23");
    assert_eq!(state.no_progress_plies(), 0);
}

#[test]
fn default_move_rule_is_eighty_plies() {
    assert_eq!(Checkers::default().draw_rules().no_progress_plies, Some(80));
    assert_eq!(Checkers::default().draw_rules().repetitions, Some(3));
    let rules = CheckersRules {
        threefold_repetition: false,
        ..CheckersRules::default()
    };
    let mut state = state_at(rules, SHUFFLE_FEN);
    for ply in 1..=80u32 {
        assert_eq!(state.outcome(), None, "over before ply {ply}");
        play_text(&mut state, SHUFFLE[(ply as usize - 1) % 4]);
    }
    assert_eq!(state.no_progress_plies(), 80);
    assert_eq!(state.outcome(), Some(Outcome::draw(EndReason::MoveRule)));
    assert_eq!(state.outcome().unwrap().score(Color::Black), 0);
}

#[test]
fn ply_limit_truncates() {
    assert_eq!(
        Checkers::default().draw_rules().ply_limit,
        Some(CheckersRules::DEFAULT_PLY_LIMIT)
    );
    let rules = CheckersRules {
        ply_limit: Some(3),
        ..CheckersRules::default()
    };
    let mut state = GameState::new(checkers(rules));
    for text in ["11-15", "22-18"] {
        play_text(&mut state, text);
        assert_eq!(state.outcome(), None);
    }
    play_text(&mut state, "15x22");
    let outcome = state.outcome().unwrap();
    assert_eq!(outcome, Outcome::draw(EndReason::PlyLimit));
    assert!(outcome.is_truncation());
    assert_eq!(outcome.to_string(), "unfinished (ply limit)");
    // A decisive position is decided, not truncated, even on the last ply.
    let mut state = state_at(
        CheckersRules {
            ply_limit: Some(1),
            ..rules
        },
        "B:W18:B14",
    );
    play_text(&mut state, "14x23");
    assert_eq!(
        state.outcome(),
        Some(Outcome::win(Color::Black, EndReason::NoMen))
    );
}

#[test]
fn adjudication_decides_by_pieces_then_kings() {
    let rules = CheckersRules {
        ply_limit: Some(1),
        adjudication: true,
        ..CheckersRules::default()
    };
    let adjudicated = |fen: &str, first: &str| {
        let mut state = state_at(rules, fen);
        assert_eq!(state.outcome(), None, "{fen}");
        play_text(&mut state, first);
        let outcome = state.outcome().unwrap();
        assert_eq!(outcome.reason, EndReason::Adjudication, "{fen}");
        assert!(!outcome.is_truncation());
        outcome.winner
    };
    // More pieces wins, whatever the kings.
    assert_eq!(adjudicated("B:WK29,K30:B1,2,3", "1-5"), Some(Color::Black));
    assert_eq!(adjudicated("B:W21,22,23:BK1,K2", "1-5"), Some(Color::White));
    // Equal pieces: more kings wins.
    assert_eq!(adjudicated("B:W27,28:B2,K1", "1-5"), Some(Color::Black));
    assert_eq!(adjudicated("B:W27,K28:B1,2", "1-5"), Some(Color::White));
    // Equal pieces and kings: a draw.
    assert_eq!(adjudicated("B:W27,28:B1,2", "1-5"), None);
    assert_eq!(adjudicated("B:W27,K28:BK1,2", "1-5"), None);
    // Off, the ply limit truncates the same position.
    let off = CheckersRules {
        adjudication: false,
        ..rules
    };
    let mut state = state_at(off, "B:WK29,K30:B1,2,3");
    play_text(&mut state, "1-5");
    assert_eq!(state.outcome(), Some(Outcome::draw(EndReason::PlyLimit)));
    // The game's own adjudicate follows the same order.
    let game = checkers(rules);
    assert_eq!(
        game.adjudicate(&pos("W:W27,28:B2,K1")),
        Some(Outcome::win(Color::Black, EndReason::Adjudication))
    );
    assert_eq!(Checkers::default().adjudicate(&pos("W:W27,28:B2,K1")), None);
}

#[test]
fn undo_restores_everything() {
    let mut state = GameState::new(Checkers::default());
    let mut history = vec![snapshot(&state)];
    for text in [
        "11-15", "22-18", "15x22", "25x18", "12-16", "18-14", "9x18", "23x14",
    ] {
        play_text(&mut state, text);
        history.push(snapshot(&state));
    }
    while let Some(expected) = history.pop() {
        assert_eq!(snapshot(&state), expected);
        if history.is_empty() {
            assert_eq!(state.undo(), None);
        } else {
            assert!(matches!(state.undo(), Some(Some(_))));
        }
    }
    assert_eq!(state.position(), &Checkers::default().start_position());

    // Undoing the winning capture reopens the game.
    let mut state = state_at(CheckersRules::default(), "B:W18:B14");
    let before = snapshot(&state);
    let mv = find(state.position(), "14x23");
    state.play(&mv).unwrap();
    assert!(state.is_over());
    assert_eq!(state.undo(), Some(Some(mv)));
    assert_eq!(snapshot(&state), before);

    // Undoing the drawing repetition and move-rule plies restores the counters.
    let mut state = state_at(CheckersRules::default(), SHUFFLE_FEN);
    let mut history = vec![snapshot(&state)];
    for ply in 0..8 {
        play_text(&mut state, SHUFFLE[ply % 4]);
        history.push(snapshot(&state));
    }
    assert!(state.is_over());
    state.undo();
    history.pop();
    assert_eq!(snapshot(&state), *history.last().unwrap());
    assert_eq!(state.outcome(), None);
    assert_eq!(state.repetitions(), 2);
}

#[test]
fn illegal_moves_are_refused_without_change() {
    let mut state = GameState::new(Checkers::default());
    let before = snapshot(&state);
    // White's move, with Black to move.
    let err = state
        .play(&CheckersMove::quiet(sq(22), sq(18)))
        .unwrap_err();
    assert_eq!(err, PlayError::Illegal { mv: "22-18".into() });
    // Backwards, sideways and too far.
    for (from, to) in [(11, 7), (11, 12), (11, 18)] {
        assert!(matches!(
            state.play(&CheckersMove::quiet(sq(from), sq(to))),
            Err(PlayError::Illegal { .. })
        ));
    }
    assert_eq!(snapshot(&state), before);

    // A quiet move where a capture is due; a partial capture sequence.
    let mut state = state_at(CheckersRules::default(), "B:W10,19,32:B6,1");
    let before = snapshot(&state);
    assert!(state.play(&CheckersMove::quiet(sq(1), sq(5))).is_err());
    let partial =
        CheckersMove::capture(sq(6), sq(15), squares(&[10]), u64::from(sq(15).index()), 1);
    assert_eq!(partial.to_string(), "6x15");
    assert!(matches!(
        state.play(&partial),
        Err(PlayError::Illegal { .. })
    ));
    assert_eq!(snapshot(&state), before);
    play_text(&mut state, "6x15x24");
}

#[test]
fn a_finished_game_refuses_moves() {
    let mut state = state_at(CheckersRules::default(), "B:W32:B28");
    let outcome = state.outcome().unwrap();
    let before = snapshot(&state);
    assert_eq!(
        state.play(&CheckersMove::quiet(sq(28), sq(32))),
        Err(PlayError::GameOver(outcome))
    );
    assert_eq!(state.forfeit_turn(), Err(PlayError::GameOver(outcome)));
    assert_eq!(snapshot(&state), before);

    let mut state = state_at(CheckersRules::default(), SHUFFLE_FEN);
    for ply in 0..8 {
        play_text(&mut state, SHUFFLE[ply % 4]);
    }
    let mv = CheckersMove::quiet(sq(1), sq(5));
    assert_eq!(
        state.play(&mv),
        Err(PlayError::GameOver(Outcome::draw(EndReason::Repetition)))
    );
}

#[test]
fn forfeit_turn_passes_without_progress() {
    let mut state = GameState::new(Checkers::default());
    let start = snapshot(&state);
    state.forfeit_turn().unwrap();
    assert_eq!(state.side_to_move(), Color::White);
    assert_eq!(state.player_to_move(), Player::Second);
    assert_eq!(state.position().occupied(), start.position.occupied());
    assert_eq!(
        state.hash(),
        CheckersPosition::zobrist_after_pass(start.hash)
    );
    assert_eq!(state.no_progress_plies(), 1);
    assert_eq!(state.ply(), 1);
    assert_eq!(state.moves().collect::<Vec<_>>(), vec![None]);
    assert_eq!(state.undo(), Some(None));
    assert_eq!(snapshot(&state), start);

    // Forfeits count towards the move rule.
    let rules = CheckersRules {
        move_rule: Some(2),
        ..CheckersRules::default()
    };
    let mut state = state_at(rules, SHUFFLE_FEN);
    play_text(&mut state, "1-5");
    state.forfeit_turn().unwrap();
    play_text(&mut state, "5-1");
    assert_eq!(state.no_progress_plies(), 3);
    assert_eq!(state.outcome(), None);
    state.forfeit_turn().unwrap();
    assert_eq!(state.outcome(), Some(Outcome::draw(EndReason::MoveRule)));
}

#[test]
fn white_may_move_first() {
    let rules = CheckersRules {
        first_player: Color::White,
        ..CheckersRules::default()
    };
    let game = checkers(rules);
    assert_eq!(game.first_to_move(), Color::White);
    let mut state = GameState::new(game);
    assert_eq!(state.side_to_move(), Color::White);
    assert_eq!(state.player_to_move(), Player::First);
    assert_eq!(Player::First.index(), 0);
    assert_eq!(state.legal_moves().len(), 7);
    play_text(&mut state, "22-18");
    assert_eq!(state.side_to_move(), Color::Black);
    assert_eq!(state.player_to_move(), Player::Second);

    let mut state = GameState::new(Checkers::default());
    assert_eq!(state.player_to_move(), Player::First);
    assert_eq!(state.side_to_move(), Color::Black);
    play_text(&mut state, "11-15");
    assert_eq!(state.player_to_move(), Player::Second);
}

// ---------------------------------------------------------------------------------------------
// 3. A slow reference move generator on (row, column) coordinates
// ---------------------------------------------------------------------------------------------

mod reference {
    //! Move generation the obvious way: an 8x8 array, four direction vectors, `Vec`s and a
    //! recursive search over capture paths. Nothing here touches a bitboard.

    use crate::checkers::{CheckersPosition, Square};
    use crate::Color;

    /// A piece on the reference board.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub(super) struct Man {
        pub(super) color: Color,
        pub(super) king: bool,
    }

    /// An 8x8 board, `cells[row][column]`, row 0 at Black's side (squares 1-4).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub(super) struct Board {
        pub(super) cells: [[Option<Man>; 8]; 8],
        pub(super) side: Color,
    }

    /// A move: the square numbers visited (start first) and the captured squares.
    #[derive(Clone, Debug)]
    pub(super) struct RefMove {
        pub(super) visits: Vec<u8>,
        pub(super) captured: Vec<u8>,
    }

    impl RefMove {
        pub(super) fn text(&self) -> String {
            let sep = if self.captured.is_empty() { "-" } else { "x" };
            self.visits
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(sep)
        }
    }

    /// (row, column) of square `number` (1-32): four dark squares a row, Black's side first;
    /// even rows start on file b, odd rows on file a.
    pub(super) fn coords(number: u8) -> (i8, i8) {
        let i = number as i8 - 1;
        let row = i / 4;
        let col = 2 * (i % 4) + (1 - row % 2);
        (row, col)
    }

    /// The square number at (row, column), if that is a dark square on the board.
    pub(super) fn number_at(row: i8, col: i8) -> Option<u8> {
        let on_board = (0..8).contains(&row) && (0..8).contains(&col);
        (on_board && (row + col) % 2 == 1).then(|| (row * 4 + col / 2 + 1) as u8)
    }

    const ALL_DIRS: [(i8, i8); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

    fn forward(color: Color) -> i8 {
        match color {
            Color::Black => 1,
            Color::White => -1,
        }
    }

    fn crown_row(color: Color) -> i8 {
        match color {
            Color::Black => 7,
            Color::White => 0,
        }
    }

    fn dirs(man: Man) -> Vec<(i8, i8)> {
        if man.king {
            ALL_DIRS.to_vec()
        } else {
            let f = forward(man.color);
            vec![(f, -1), (f, 1)]
        }
    }

    impl Board {
        pub(super) fn from_position(p: &CheckersPosition) -> Board {
            let mut cells = [[None; 8]; 8];
            for square in Square::all() {
                let (r, c) = coords(square.number());
                cells[r as usize][c as usize] = p.piece_at(square).map(|pc| Man {
                    color: pc.color,
                    king: pc.king,
                });
            }
            Board {
                cells,
                side: p.side_to_move(),
            }
        }

        fn at(&self, (r, c): (i8, i8)) -> Option<Man> {
            self.cells[r as usize][c as usize]
        }

        fn set(&mut self, (r, c): (i8, i8), man: Option<Man>) {
            self.cells[r as usize][c as usize] = man;
        }

        fn own_pieces(&self) -> Vec<((i8, i8), Man)> {
            let mut out = Vec::new();
            for r in 0..8 {
                for c in 0..8 {
                    if let Some(man) = self.at((r, c)) {
                        if man.color == self.side {
                            out.push(((r, c), man));
                        }
                    }
                }
            }
            out
        }

        /// Every legal move: the capture paths if any piece can jump, else the simple moves.
        pub(super) fn moves(&self) -> Vec<RefMove> {
            self.moves_under(true, true)
        }

        /// Every legal move under the capture options: simple moves beside captures unless
        /// `mandatory`, and a capture that stops after any jump unless `complete`.
        pub(super) fn moves_under(&self, mandatory: bool, complete: bool) -> Vec<RefMove> {
            let mut captures = Vec::new();
            for (at, man) in self.own_pieces() {
                let mut visits = vec![number_at(at.0, at.1).unwrap()];
                let mut taken = Vec::new();
                self.jumps(at, man, at, &mut visits, &mut taken, &mut captures);
            }
            if !complete {
                // Every prefix of a path is a move; paths sharing one give it once.
                let mut prefixes: Vec<RefMove> = Vec::new();
                for path in &captures {
                    for jumps in 1..=path.captured.len() {
                        let prefix = RefMove {
                            visits: path.visits[..=jumps].to_vec(),
                            captured: path.captured[..jumps].to_vec(),
                        };
                        if !prefixes.iter().any(|p| p.visits == prefix.visits) {
                            prefixes.push(prefix);
                        }
                    }
                }
                captures = prefixes;
            }
            if mandatory && !captures.is_empty() {
                return captures;
            }
            let mut quiet = captures;
            for (at, man) in self.own_pieces() {
                for (dr, dc) in dirs(man) {
                    if let Some(to) = number_at(at.0 + dr, at.1 + dc) {
                        if self.at(coords(to)).is_none() {
                            let from = number_at(at.0, at.1).unwrap();
                            quiet.push(RefMove {
                                visits: vec![from, to],
                                captured: vec![],
                            });
                        }
                    }
                }
            }
            quiet
        }

        /// Extends a capture path that has reached `at`, collecting each complete path.
        fn jumps(
            &self,
            origin: (i8, i8),
            man: Man,
            at: (i8, i8),
            visits: &mut Vec<u8>,
            taken: &mut Vec<u8>,
            out: &mut Vec<RefMove>,
        ) {
            let mut extended = false;
            for (dr, dc) in dirs(man) {
                let over = (at.0 + dr, at.1 + dc);
                let land = (at.0 + 2 * dr, at.1 + 2 * dc);
                let (Some(over_n), Some(land_n)) =
                    (number_at(over.0, over.1), number_at(land.0, land.1))
                else {
                    continue;
                };
                let enemy = matches!(self.at(over), Some(p) if p.color != man.color);
                if !enemy || taken.contains(&over_n) {
                    continue;
                }
                // The mover's own start square is empty during its move; captured pieces are
                // still on the board.
                if land != origin && self.at(land).is_some() {
                    continue;
                }
                extended = true;
                visits.push(land_n);
                taken.push(over_n);
                if !man.king && land.0 == crown_row(man.color) {
                    out.push(RefMove {
                        visits: visits.clone(),
                        captured: taken.clone(),
                    });
                } else {
                    self.jumps(origin, man, land, visits, taken, out);
                }
                visits.pop();
                taken.pop();
            }
            if !extended && !taken.is_empty() {
                out.push(RefMove {
                    visits: visits.clone(),
                    captured: taken.clone(),
                });
            }
        }

        /// The board after `mv`.
        pub(super) fn apply(&self, mv: &RefMove) -> Board {
            let mut next = self.clone();
            let from = coords(mv.visits[0]);
            let to = coords(*mv.visits.last().unwrap());
            let mut man = self.at(from).unwrap();
            next.set(from, None);
            for &n in &mv.captured {
                next.set(coords(n), None);
            }
            if to.0 == crown_row(man.color) {
                man.king = true;
            }
            next.set(to, Some(man));
            next.side = match self.side {
                Color::Black => Color::White,
                Color::White => Color::Black,
            };
            next
        }
    }
}

use reference::{Board, RefMove};

#[test]
fn reference_coordinates_match_squares() {
    for s in Square::all() {
        let (r, c) = reference::coords(s.number());
        assert_eq!((r as u8, c as u8), (s.row(), s.column()), "square {s}");
        assert_eq!(reference::number_at(r, c), Some(s.number()));
    }
    assert_eq!(reference::number_at(0, 0), None);
    assert_eq!(reference::number_at(8, 1), None);
}

#[test]
fn reference_agrees_on_hand_positions() {
    for fen in [
        "B:W6,15,18:B1,14",
        "B:W14,18,26,27:BK10",
        "B:W26,27:B22",
        "W:W11:B6,7",
        "B:W18,27,28,K10,K15:B12,16,20,K22,K25,K29",
        "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
    ] {
        check_against_reference(&pos(fen));
    }
}

/// Compares the engine's moves, counts and resulting positions with the reference.
fn check_against_reference(p: &CheckersPosition) {
    let board = Board::from_position(p);
    let reference = check_moves_against_reference(p);
    for mv in &legal(p) {
        let text = mv.to_string();
        let r = reference.iter().find(|m| m.text() == text).unwrap();
        assert_eq!(
            Board::from_position(&p.play(mv)),
            board.apply(r),
            "{text} in {}",
            p.fen()
        );
    }
}

/// Compares the engine's moves and counts with the reference; returns the reference moves.
fn check_moves_against_reference(p: &CheckersPosition) -> Vec<RefMove> {
    let reference: Vec<RefMove> = Board::from_position(p).moves();
    let mut want: Vec<String> = reference.iter().map(RefMove::text).collect();
    want.sort();
    let list = legal(p);
    let mut got: Vec<String> = list.iter().map(ToString::to_string).collect();
    got.sort();
    assert_eq!(got, want, "moves of {}", p.fen());
    assert_eq!(p.count_moves(), want.len() as u64, "count of {}", p.fen());
    assert_eq!(
        p.has_legal_move(),
        !want.is_empty(),
        "has_legal_move of {}",
        p.fen()
    );
    let captures = reference.iter().any(|m| !m.captured.is_empty());
    assert_eq!(p.must_capture(), captures, "must_capture of {}", p.fen());
    for mv in &list {
        let text = mv.to_string();
        let r = reference.iter().find(|m| m.text() == text).unwrap();
        assert_eq!(mv.is_capture(), !r.captured.is_empty());
        assert_eq!(mv.jump_count(), r.captured.len());
        assert_eq!(mv.captured(), squares(&r.captured), "{text} in {}", p.fen());
        assert_eq!(mv.from().number(), r.visits[0]);
        assert_eq!(mv.to().number(), *r.visits.last().unwrap());
    }
    reference
}

/// The three relaxations of the standard game's capture rules: optional captures, captures
/// that may stop part way, and both (the basic game of the Construction Checkers sheet).
fn relaxed_capture_rules() -> [CheckersRules; 3] {
    [(false, true), (true, false), (false, false)].map(|(mandatory_capture, complete_jumps)| {
        CheckersRules {
            mandatory_capture,
            complete_jumps,
            ..CheckersRules::default()
        }
    })
}

/// Compares the moves of `p` under `rules` (generation, counting, notation read back, the
/// position after each) with the reference generator's under the same options.
fn check_rules_against_reference(p: &CheckersPosition, rules: CheckersRules) {
    let game = Checkers::new(rules);
    let board = Board::from_position(p);
    let reference = board.moves_under(rules.mandatory_capture, rules.complete_jumps);
    let mut want: Vec<String> = reference.iter().map(RefMove::text).collect();
    want.sort();
    let mut list = CheckersMoveList::new();
    game.generate_moves(p, &mut list);
    let mut got: Vec<String> = list.iter().map(ToString::to_string).collect();
    got.sort();
    assert_eq!(got, want, "moves of {} under {rules:?}", p.fen());
    assert_eq!(game.count_moves(p), want.len() as u64);
    assert_eq!(game.outcome(p).is_some(), want.is_empty());
    for mv in &list {
        let text = mv.to_string();
        let r = reference.iter().find(|m| m.text() == text).unwrap();
        assert_eq!(mv.captured(), squares(&r.captured), "{text} in {}", p.fen());
        assert_eq!(
            Board::from_position(&game.play(p, mv)),
            board.apply(r),
            "{text}"
        );
        // Two paths with the same start, end and captures are the same position: the text
        // reads back as the first of them.
        let read = game.parse_move(p, &text).unwrap();
        assert_eq!(
            (read.from(), read.to(), read.captured()),
            (mv.from(), mv.to(), mv.captured())
        );
    }
}

/// Perft by the reference generator under the capture options.
fn reference_perft(board: &Board, depth: u32, mandatory: bool, complete: bool) -> u64 {
    let moves = board.moves_under(mandatory, complete);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| reference_perft(&board.apply(m), depth - 1, mandatory, complete))
        .sum()
}

#[test]
fn perft_under_relaxed_captures_matches_the_reference_generator() {
    // No counts are published for these rules (nor can OpenSpiel's or pydraughts' English
    // checkers be set to them): the reference generator is the check.
    let start = CheckersPosition::start(Color::Black);
    let board = Board::from_position(&start);
    let mut figures = Vec::new();
    for rules in relaxed_capture_rules() {
        let game = Checkers::new(rules);
        for depth in 1..=6 {
            let want =
                reference_perft(&board, depth, rules.mandatory_capture, rules.complete_jumps);
            assert_eq!(
                crate::perft(&game, &start, depth),
                want,
                "{rules:?} depth {depth}"
            );
            figures.push(want);
        }
    }
    // Every standard move stays a move under each relaxation.
    let standard = [7, 49, 302, 1469, 7361, 36768];
    assert_eq!(figures[..2], standard[..2]);
    assert!(figures[..6].iter().zip(&standard).all(|(a, b)| a >= b));
    assert_eq!(figures[..6], PERFT_OPTIONAL_CAPTURES);
    assert_eq!(figures[6..12], PERFT_INCOMPLETE_JUMPS);
    assert_eq!(figures[12..], PERFT_BASIC_GAME);
}

/// Perft 1-6 from the start where capturing is optional (found by the reference generator,
/// README's rules section quotes them).
const PERFT_OPTIONAL_CAPTURES: [u64; 6] = [7, 49, 379, 2_872, 23_582, 189_143];
/// Perft 1-6 from the start where a capture may stop part way.
const PERFT_INCOMPLETE_JUMPS: [u64; 6] = [7, 49, 302, 1_469, 7_361, 37_205];
/// Perft 1-6 from the start of the basic game (both).
const PERFT_BASIC_GAME: [u64; 6] = [7, 49, 379, 2_872, 23_582, 190_647];

#[test]
fn the_basic_game_writes_a_stopped_capture_with_the_squares_it_reached() {
    let [optional, stops, basic] = relaxed_capture_rules().map(Checkers::new);
    // White's man on 27 can take 23 and then 14.
    let p = pos("W:W27:B23,14");
    assert_eq!(names_under(&basic, &p), ["27-24", "27x18", "27x18x9"]);
    assert_eq!(names_under(&stops, &p), ["27x18", "27x18x9"]);
    assert_eq!(names_under(&optional, &p), ["27-24", "27x18x9"]);
    assert_eq!(basic.parse_move(&p, "27x18").unwrap().to_string(), "27x18");
    assert_eq!(basic.parse_move(&p, "27x9").unwrap().to_string(), "27x18x9");
    assert!(Checkers::default().parse_move(&p, "27x18").is_err());
    assert!(Checkers::default().parse_move(&p, "27-24").is_err());
    assert_eq!(
        optional.parse_move(&p, "27-24").unwrap().to_string(),
        "27-24"
    );
    // Stopping part way leaves the rest on the board and passes the turn.
    let after = basic.play(&p, &basic.parse_move(&p, "27x18").unwrap());
    assert_eq!(after.fen(), "B:W18:B14");
    // A man crowned stops even where capturing on is allowed: the move is whole.
    let crowning = pos("B:W27,31:B23");
    assert_eq!(names_under(&basic, &crowning), ["23-26", "23x32"]);
}

fn names_under(game: &Checkers, p: &CheckersPosition) -> Vec<String> {
    let mut list = CheckersMoveList::new();
    game.generate_moves(p, &mut list);
    let mut names: Vec<String> = list.iter().map(ToString::to_string).collect();
    names.sort();
    names
}

/// A random legal position: 0-12 pieces a side on distinct squares, about one in four a king,
/// men never on their crowning row, either side to move.
fn arb_position() -> impl Strategy<Value = CheckersPosition> {
    (
        Just((1..=32u8).collect::<Vec<_>>()).prop_shuffle(),
        0..=12usize,
        0..=12usize,
        any::<u64>(),
        any::<bool>(),
    )
        .prop_map(|(order, black, white, king_bits, white_to_move)| {
            let mut setup = Setup {
                side_to_move: Some(if white_to_move {
                    Color::White
                } else {
                    Color::Black
                }),
                ..Setup::default()
            };
            for (i, &n) in order.iter().take(black + white).enumerate() {
                let king = (king_bits >> (2 * i)) & 3 == 0;
                let b = sq(n).bitboard();
                if i < black {
                    if king || n >= 29 {
                        setup.black_kings |= b;
                    } else {
                        setup.black_men |= b;
                    }
                } else if king || n <= 4 {
                    setup.white_kings |= b;
                } else {
                    setup.white_men |= b;
                }
            }
            CheckersPosition::from_setup(&setup).expect("a legal setup")
        })
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x636b_7273),
        ..ProptestConfig::default()
    }
}

/// The squares a piece on square `number` can land on by jumping (its lattice, itself
/// included) and the squares it could jump over from them (the lattice's midpoints), found by
/// search over jumps on an empty board.
fn jump_lattice(number: u8) -> (Vec<u8>, Vec<u8>) {
    use reference::{coords, number_at};
    let mut lattice = vec![number];
    let mut midpoints: Vec<u8> = Vec::new();
    let mut i = 0;
    while i < lattice.len() {
        let (r, c) = coords(lattice[i]);
        for (dr, dc) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
            if let (Some(mid), Some(land)) =
                (number_at(r + dr, c + dc), number_at(r + 2 * dr, c + 2 * dc))
            {
                if !midpoints.contains(&mid) {
                    midpoints.push(mid);
                }
                if !lattice.contains(&land) {
                    lattice.push(land);
                }
            }
        }
        i += 1;
    }
    (lattice, midpoints)
}

/// Adds a piece to `setup`; a man on its crowning row becomes a king.
fn place(setup: &mut Setup, color: Color, number: u8, king: bool) {
    let b = sq(number).bitboard();
    let king = king || sq(number).row() == crown_row(color);
    match (color, king) {
        (Color::Black, false) => setup.black_men |= b,
        (Color::Black, true) => setup.black_kings |= b,
        (Color::White, false) => setup.white_men |= b,
        (Color::White, true) => setup.white_kings |= b,
    }
}

/// A position built around one jumper of the side to move: enemy pieces on a random subset of
/// the midpoints of its jumping lattice, and up to three more pieces of each side elsewhere.
/// Long capture paths, branching paths and circles back to the start square are common here
/// and rare in [`arb_position`].
fn arb_capture_position() -> impl Strategy<Value = CheckersPosition> {
    (
        1..=32u8,
        any::<bool>(),
        any::<bool>(),
        any::<u64>(),
        Just((1..=32u8).collect::<Vec<_>>()).prop_shuffle(),
        0..=3usize,
        0..=3usize,
    )
        .prop_map(|(jumper, white, king, bits, order, friends, strangers)| {
            let us = if white { Color::White } else { Color::Black };
            let mut setup = Setup {
                side_to_move: Some(us),
                ..Setup::default()
            };
            place(&mut setup, us, jumper, king);
            let mut used = vec![jumper];
            let (_, midpoints) = jump_lattice(jumper);
            for (i, &mid) in midpoints.iter().enumerate() {
                // About two in three midpoints hold an enemy piece, one in four of them a king.
                if (bits >> (3 * i)) & 7 < 5 {
                    place(&mut setup, !us, mid, (bits >> (3 * i + 30)) & 3 == 0);
                    used.push(mid);
                }
            }
            let free: Vec<u8> = order.into_iter().filter(|n| !used.contains(n)).collect();
            for (i, &n) in free.iter().take(friends + strangers).enumerate() {
                let color = if i < friends { us } else { !us };
                place(&mut setup, color, n, (bits >> (60 + i % 4)) & 1 == 1);
            }
            CheckersPosition::from_setup(&setup).expect("a legal setup")
        })
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn movegen_matches_reference(p in arb_position()) {
        check_against_reference(&p);
    }

    #[test]
    fn movegen_matches_reference_on_capture_positions(p in arb_capture_position()) {
        check_against_reference(&p);
    }
}

proptest! {
    #![proptest_config(config(600))]

    #[test]
    fn relaxed_capture_rules_match_the_reference(p in arb_position()) {
        for rules in relaxed_capture_rules() {
            check_rules_against_reference(&p, rules);
        }
    }

    #[test]
    fn relaxed_capture_rules_match_the_reference_on_capture_positions(p in arb_capture_position()) {
        for rules in relaxed_capture_rules() {
            check_rules_against_reference(&p, rules);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 4. Random games
// ---------------------------------------------------------------------------------------------

/// Reproducible random play from a seed.
struct Rng(crate::SplitMix64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n).unwrap_or(0)
    }
}

/// Plays up to 200 random plies from `start` with no draw rules, checking every invariant of
/// play, hashing, FEN and undo at each ply.
fn random_game(start: CheckersPosition, seed: u64) {
    let rules = CheckersRules {
        threefold_repetition: false,
        move_rule: None,
        ply_limit: None,
        ..CheckersRules::default()
    };
    let game = checkers(rules);
    let mut state = GameState::from_position(game, start);
    let mut rng = Rng(crate::SplitMix64::new(seed));
    let mut no_progress = 0;
    for _ in 0..200 {
        let before = *state.position();
        let moves = state.legal_moves();
        if moves.is_empty() {
            let outcome = state.outcome().expect("no moves means the game is over");
            assert_eq!(outcome.winner, Some(!before.side_to_move()));
            assert!(matches!(
                outcome.reason,
                EndReason::NoMoves | EndReason::NoMen
            ));
            return;
        }
        assert_eq!(state.outcome(), None);
        // Incremental hashes of every legal move.
        for mv in &moves {
            let after = before.play(mv);
            assert_eq!(
                before.zobrist_after(before.zobrist(), mv),
                after.zobrist(),
                "{mv}"
            );
            assert_eq!(
                game.hash_after(&before, game.hash(&before), mv),
                game.hash(&after)
            );
        }
        let mv = moves[rng.below(moves.len())];
        let previous = snapshot(&state);
        let progress = game.is_progress(&before, &mv);
        assert_eq!(
            progress,
            mv.is_capture() || !before.kings.intersects(mv.from().bitboard())
        );
        state.play(&mv).unwrap();
        let after = *state.position();
        no_progress = if progress { 0 } else { no_progress + 1 };
        assert_eq!(state.no_progress_plies(), no_progress);

        // Hash, FEN and side to move.
        let fen = after.fen();
        let parsed: CheckersPosition = fen.parse().unwrap();
        assert_eq!(parsed, after, "{fen}");
        assert_eq!(parsed.fen(), fen);
        assert_eq!(CheckersPosition::from_setup(&after.to_setup()), Ok(after));
        let us = before.side_to_move();
        let them = !us;
        assert_eq!(after.side_to_move(), them);

        // Material: the mover keeps its pieces, the other side loses exactly those captured.
        assert_eq!(mv.captured().count() as usize, mv.jump_count());
        assert!(mv.captured().is_subset(before.pieces(them)));
        assert_eq!(after.pieces(us).count(), before.pieces(us).count());
        assert_eq!(
            after.pieces(them).count() as usize,
            before.pieces(them).count() as usize - mv.jump_count()
        );
        assert!(!after.black.intersects(after.white));

        // Kings: gained only by crowning, lost only by being captured.
        let crowned = before.moves_man(&mv) && mv.to().row() == crown_row(us);
        let lost_kings = (mv.captured() & before.kings(them)).count();
        assert_eq!(
            after.kings(us).count(),
            before.kings(us).count() + u32::from(crowned)
        );
        assert_eq!(
            after.men(us).count(),
            before.men(us).count() - u32::from(crowned)
        );
        assert_eq!(
            after.kings(them).count(),
            before.kings(them).count() - lost_kings
        );
        assert_eq!(
            after.men(them).count(),
            before.men(them).count() - (mv.captured().count() - lost_kings)
        );
        let king_now = crowned || !before.moves_man(&mv);
        assert_eq!(
            after.piece_at(mv.to()).map(|p| (p.color, p.king)),
            Some((us, king_now))
        );

        // Undo restores the previous ply exactly; then play on.
        assert_eq!(state.undo(), Some(Some(mv)));
        assert_eq!(snapshot(&state), previous);
        state.play(&mv).unwrap();
        assert_eq!(*state.position(), after);
    }
}

/// Plays a random game under the default rules, checking that the state ends it consistently.
fn random_game_with_default_rules(start: CheckersPosition, seed: u64) {
    let mut state = GameState::from_position(Checkers::default(), start);
    let mut rng = Rng(crate::SplitMix64::new(seed));
    for _ in 0..200 {
        let moves = state.legal_moves();
        if let Some(outcome) = state.outcome() {
            assert!(moves.is_empty());
            match outcome.reason {
                EndReason::Repetition => assert!(state.repetitions() >= 3),
                EndReason::MoveRule => assert!(state.no_progress_plies() >= 80),
                _ => assert_eq!(Checkers::default().outcome(state.position()), Some(outcome)),
            }
            return;
        }
        assert!(!moves.is_empty());
        assert!(state.repetitions() < 3);
        state.play(&moves[rng.below(moves.len())]).unwrap();
    }
}

proptest! {
    #![proptest_config(config(200))]

    #[test]
    fn random_games_from_the_start(seed in any::<u64>(), white_first in any::<bool>()) {
        let first = if white_first { Color::White } else { Color::Black };
        random_game(CheckersPosition::start(first), seed);
        random_game_with_default_rules(CheckersPosition::start(first), seed);
    }

    #[test]
    fn random_games_from_random_positions(p in arb_position(), seed in any::<u64>()) {
        random_game(p, seed);
        random_game_with_default_rules(p, seed);
    }
}

// ---------------------------------------------------------------------------------------------
// 5. The move-list capacity
// ---------------------------------------------------------------------------------------------

/// Bounds the number of legal moves of any position by [`MOVE_CAPACITY`].
///
/// The argument:
///
/// - Without a capture, each of at most 12 pieces has at most 4 simple moves: 48.
/// - With a capture, only captures are legal, and the moves are the complete capture paths of
///   each piece that can jump: the total is the sum over the side's pieces of each piece's
///   paths.
/// - A piece's paths never leave its jumping lattice: each jump moves two rows and two columns,
///   so the landing squares keep the parity of the row and of `row / 2 + column / 2` (integer
///   halves): one of four 8-square lattices. The only squares that matter to them are the
///   lattice squares (landings, which must be empty or the start square) and the midpoints
///   between adjacent lattice squares (the only squares that can be jumped). Pieces anywhere
///   else change nothing.
/// - Pieces on lattice squares other than the start only block landings, so they can only
///   remove paths; the same holds for friendly pieces anywhere (they cannot be jumped and only
///   block landings). So a piece has at most as many paths as with every lattice square empty,
///   friendly pieces removed and some subset of the midpoints holding enemy pieces.
/// - A king has at least as many paths as a man on the same square with the same enemy pieces:
///   extend each of the man's paths to a complete king path; different man paths give different
///   king paths (if one man path were a prefix of another, the shorter one stopped where the
///   man could still jump forward, or on the crowning row, past which no forward jump goes).
///
/// So with `M` the most complete capture paths of a lone king over every square and every
/// subset of its lattice's midpoints, no position has more than `max(48, 12 * M)` moves. The
/// enumeration is 32 squares times 2^9 subsets (each lattice has 9 interior midpoints), and the
/// engine's counts are checked against the reference generator on the way.
#[test]
fn capacity_bounds_every_capture_set() {
    let mut worst = 0u64;
    let mut worst_case = String::new();
    let stops = Checkers::new(CheckersRules {
        complete_jumps: false,
        ..CheckersRules::default()
    });
    let mut worst_prefixes = 0u64;
    for king in Square::all() {
        let (lattice, midpoints) = jump_lattice(king.number());
        assert!(lattice.contains(&king.number()));
        assert_eq!(lattice.len(), 8, "lattice of {king}");
        assert_eq!(midpoints.len(), 9, "midpoints of {king}");
        assert!(midpoints.len() <= 12);
        for subset in 0u32..1 << midpoints.len() {
            let enemies: Vec<u8> = (0..midpoints.len())
                .filter(|&b| (subset >> b) & 1 == 1)
                .map(|b| midpoints[b])
                .collect();
            // Midpoints are never on the edge rows, so white men are legal there.
            let setup = Setup {
                black_kings: king.bitboard(),
                white_men: squares(&enemies),
                side_to_move: Some(Color::Black),
                ..Setup::default()
            };
            let p = CheckersPosition::from_setup(&setup).unwrap();
            let paths = if p.must_capture() { p.count_moves() } else { 0 };
            check_moves_against_reference(&p);
            // A man on the same square never has more paths.
            if king.row() != 7 {
                let man = CheckersPosition::from_setup(&Setup {
                    black_kings: Bitboard::EMPTY,
                    black_men: king.bitboard(),
                    ..setup
                })
                .unwrap();
                let man_paths = if man.must_capture() {
                    man.count_moves()
                } else {
                    0
                };
                assert!(man_paths <= paths, "man on {king} vs {enemies:?}");
            }
            if paths > worst {
                worst = paths;
                worst_case = p.fen();
            }
            let prefixes = if p.must_capture() {
                stops.count_moves(&p)
            } else {
                0
            };
            worst_prefixes = worst_prefixes.max(prefixes);
        }
    }
    let bound = (12 * worst).max(48);
    assert!(
        bound <= MOVE_CAPACITY as u64,
        "12 * {worst} = {bound} moves (most capture paths of one piece: {worst_case}) may not \
         fit MOVE_CAPACITY = {MOVE_CAPACITY}"
    );
    // Where a capture may stop part way every prefix of a path is a move (a man's prefixes are
    // a king's too, and other pieces only block), and where capturing is optional the 48
    // simple moves come beside them.
    let bound = 12 * worst_prefixes + 48;
    assert!(
        bound <= MOVE_CAPACITY as u64,
        "12 * {worst_prefixes} + 48 = {bound} moves may not fit MOVE_CAPACITY = {MOVE_CAPACITY}"
    );
}
