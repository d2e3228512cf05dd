//! Morris rules, position strings, notation and the action space, checked against hand-built
//! positions, a slow reference Three Men's Morris and random games in every preset.

use proptest::prelude::*;
use proptest::test_runner::RngSeed;

use super::actions::Stage;
use super::fen::{MorrisFenError, MorrisFenErrorKind, MorrisPositionError};
use super::{
    Barrier, Capture, Morris, MorrisMove, MorrisMoveError, MorrisPosition, MorrisRules, MoveKind,
    ParseMorrisMoveError,
};
use crate::game::{EndReason, Game, Outcome};
use crate::rl::{ActionGame, ActionStep};
use crate::state::GameState;
use crate::{perft, Bitboard, Color};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn game(id: &str) -> Morris {
    Morris::preset(id).unwrap_or_else(|e| panic!("{e}"))
}

/// The preset `id` with `options` (name, value) overridden.
fn with(id: &str, options: &[(&str, &str)]) -> Morris {
    let mut rules = MorrisRules::preset(id).expect("a preset").rules;
    for (name, value) in options {
        rules.set(name, value).unwrap();
    }
    Morris::new(rules).unwrap()
}

fn all_presets() -> impl Iterator<Item = (&'static str, Morris)> {
    MorrisRules::PRESETS
        .iter()
        .map(|p| (p.id, Morris::new(p.rules).unwrap()))
}

/// Rule combinations beyond the presets that random games also cover.
fn variants() -> Vec<Morris> {
    vec![
        with(
            "nine_mens_morris",
            &[("double_mill", "two"), ("removal", "mill_immunity")],
        ),
        with("morabaraba", &[("double_mill", "two"), ("removal", "any")]),
        with(
            "twelve_mens_morris",
            &[("full_board", "play_on"), ("trapped", "passes")],
        ),
        with("lasker_morris", &[("no_reforming", "true")]),
        with(
            "six_mens_morris",
            &[("flying", "3"), ("no_reforming", "true")],
        ),
        with("twelve_mens_morris", &[("capture", "optional")]),
        with("shah", &[("capture", "optional")]),
        with(
            "nine_mens_morris",
            &[("capture", "optional"), ("double_mill", "two")],
        ),
        with(
            "nine_mens_morris_no_flying",
            &[("diagonals", "true"), ("diagonal_mills", "false")],
        ),
        with("three_mens_morris", &[("diagonal_mills", "false")]),
    ]
}

/// The board field of a position string with `white` and `black` men (point names separated by
/// spaces), written without row separators.
fn board_field(game: &Morris, white: &str, black: &str) -> String {
    let board = game.board();
    let mut cells = vec!['.'; board.point_count()];
    for (men, c) in [(white, 'W'), (black, 'B')] {
        for name in men.split_whitespace() {
            let p = board
                .point(name)
                .unwrap_or_else(|| panic!("no point {name}"));
            assert_eq!(cells[usize::from(p)], '.', "{name} given twice");
            cells[usize::from(p)] = c;
        }
    }
    cells.into_iter().collect()
}

fn parse(game: &Morris, text: &str) -> MorrisPosition {
    game.parse_fen(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .0
}

/// The position with `white` and `black` men and the other fields `rest` (`w 0 0`, ...).
fn at(game: &Morris, white: &str, black: &str, rest: &str) -> MorrisPosition {
    parse(game, &format!("{} {rest}", board_field(game, white, black)))
}

fn index(game: &Morris, name: &str) -> u8 {
    game.board()
        .point(name)
        .unwrap_or_else(|| panic!("no point {name}"))
}

fn points(game: &Morris, names: &str) -> Bitboard {
    names.split_whitespace().fold(Bitboard::EMPTY, |b, n| {
        b | Bitboard::from_index(index(game, n))
    })
}

/// Every legal turn, in generation order.
fn legal(game: &Morris, pos: &MorrisPosition) -> Vec<MorrisMove> {
    let mut moves = Vec::new();
    game.for_each_move(pos, |mv| moves.push(*mv));
    moves
}

/// The legal turns in notation, sorted.
fn turns(game: &Morris, pos: &MorrisPosition) -> Vec<String> {
    let mut v: Vec<String> = legal(game, pos).iter().map(ToString::to_string).collect();
    v.sort();
    v
}

/// The legal turns whose placement or move (the text before any `x`) is `base`, sorted.
fn turns_of(game: &Morris, pos: &MorrisPosition, base: &str) -> Vec<String> {
    turns(game, pos)
        .into_iter()
        .filter(|t| t.split('x').next() == Some(base))
        .collect()
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| (*s).to_owned()).collect();
    v.sort();
    v
}

/// Plays the legal turn written `text` (which must match exactly one turn).
fn play(game: &Morris, pos: &MorrisPosition, text: &str) -> MorrisPosition {
    let mv = game
        .parse_move(pos, text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", game.fen(pos, 0)));
    assert!(legal(game, pos).contains(&mv));
    game.play(pos, &mv)
}

/// Plays a sequence of turns.
fn play_all(game: &Morris, pos: &MorrisPosition, texts: &[&str]) -> MorrisPosition {
    texts.iter().fold(*pos, |p, t| play(game, &p, t))
}

/// Field `n` (1-based) of the position string of `pos`.
fn fen_field(game: &Morris, pos: &MorrisPosition, n: usize) -> String {
    game.fen(pos, 0)
        .split_whitespace()
        .nth(n - 1)
        .expect("a field")
        .to_owned()
}

fn win(color: Color, reason: EndReason) -> Option<Outcome> {
    Some(Outcome::win(color, reason))
}

/// Reproducible random play from a seed.
struct Rng(crate::SplitMix64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n).unwrap_or(0)
    }
}

/// Positions reached by random play from the start (with the plies since the last progress
/// move): every `every`-th position of `games` games, each cut at `plies` plies.
fn random_positions(
    game: &Morris,
    seed: u64,
    games: usize,
    plies: u32,
    every: u32,
) -> Vec<(MorrisPosition, u32)> {
    let mut rng = Rng(crate::SplitMix64::new(seed));
    let mut out = Vec::new();
    for _ in 0..games {
        let mut state = GameState::new(*game);
        while !state.is_over() && state.ply() < plies {
            if state.ply().is_multiple_of(every) {
                out.push((*state.position(), state.no_progress_plies()));
            }
            let moves = state.legal_moves();
            state.play(&moves[rng.below(moves.len())]).unwrap();
        }
        out.push((*state.position(), state.no_progress_plies()));
    }
    out
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(0x6d6f_7272_6973),
        ..ProptestConfig::default()
    }
}

/// The board field of a full 24-point board, 12 white and 12 black men, with no mill of either
/// colour, diagonals included.
const FULL_NO_MILL: &str = "BWW/BWB/WBW/WWBWBB/WBB/BWW/BBW";

// ---------------------------------------------------------------------------------------------
// 1. Placing, sliding, flying, diagonals
// ---------------------------------------------------------------------------------------------

#[test]
fn placement_puts_a_man_from_hand_on_any_empty_point() {
    let g = game("nine_mens_morris");
    let start = g.start_position();
    let names = g.board().shape().point_names();
    assert_eq!(turns(&g, &start), sorted(names));
    let p = play(&g, &start, "d6");
    assert_eq!((p.in_hand(Color::White), p.in_hand(Color::Black)), (8, 9));
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(p.men(Color::White), points(&g, "d6"));
    assert_eq!(g.fen(&p, 1), ".../.W./.../....../.../.../... b 8 9 1 - -");
    let rest: Vec<&str> = names.iter().copied().filter(|&n| n != "d6").collect();
    assert_eq!(turns(&g, &p), sorted(&rest));

    // While men are in hand, men on the board do not move (no mixed placement).
    let p = at(&g, "a1 d6", "b4 g7", "w 7 7");
    let moves = legal(&g, &p);
    assert_eq!(moves.len(), 20);
    for mv in &moves {
        let MoveKind::Place { to } = mv.kind() else {
            panic!("{mv} is not a placement")
        };
        assert!(!p.occupied().contains_index(to));
    }
}

#[test]
fn men_slide_along_lines_to_free_neighbours_only() {
    let g = game("nine_mens_morris");
    let p = at(&g, "d6 a1 g1 b4", "c5 e5 e3 c3", "w 0 0");
    let expected = [
        "d6-d7", "d6-b6", "d6-f6", "d6-d5", "a1-a4", "a1-d1", "g1-g4", "g1-d1", "b4-a4", "b4-c4",
        "b4-b6", "b4-b2",
    ];
    assert_eq!(turns(&g, &p), sorted(&expected));

    // A man cannot jump: a7 is hemmed in by d7 (its own side) and a4.
    let p = at(&g, "a7 d7 d1 g1", "a4 d6 g4 c3", "w 0 0");
    assert_eq!(turns(&g, &p), sorted(&["d1-a1", "d1-d2", "d7-g7"]));
}

#[test]
fn a_side_with_three_men_flies() {
    let g = game("nine_mens_morris");
    let p = at(&g, "a7 d6 g1", "b4 f4 d2 c5", "w 0 0");
    let empty = g.board().all_points().without(p.occupied());
    let mut expected = Vec::new();
    for from in ["a7", "d6", "g1"] {
        for to in empty.indices() {
            expected.push(format!("{from}-{}", g.board().name(to)));
        }
    }
    expected.sort();
    assert_eq!(expected.len(), 51);
    assert_eq!(turns(&g, &p), expected);

    // Black, with four men, only slides.
    let p = at(&g, "a7 d6 g1", "b4 f4 d2 c5", "b 0 0");
    for mv in legal(&g, &p) {
        let MoveKind::Move { from, to } = mv.kind() else {
            panic!("{mv}")
        };
        assert!(g.board().neighbours(from).contains_index(to), "{mv}");
    }

    // Four white men: slides only.
    let p = at(&g, "a7 d6 g1 c3", "b4 f4 d2 c5", "w 0 0");
    let expected = [
        "a7-d7", "a7-a4", "d6-d7", "d6-b6", "d6-f6", "d6-d5", "g1-g4", "g1-d1", "c3-c4", "c3-d3",
    ];
    assert_eq!(turns(&g, &p), sorted(&expected));

    // Without flying, three men slide.
    let g = game("nine_mens_morris_no_flying");
    let p = at(&g, "a7 d6 g1", "b4 f4 d2 c5", "w 0 0");
    let expected = [
        "a7-d7", "a7-a4", "d6-d7", "d6-b6", "d6-f6", "d6-d5", "g1-g4", "g1-d1",
    ];
    assert_eq!(turns(&g, &p), sorted(&expected));
}

#[test]
fn flying_counts_men_in_hand_too() {
    // Lasker: two on the board and one in hand make three, so the two fly.
    let g = game("lasker_morris");
    let p = at(&g, "a7 d6", "b4 f4 d2 c5", "w 1 2");
    let empty = g.board().all_points().without(p.occupied());
    assert_eq!(empty.count(), 18);
    let got = turns(&g, &p);
    assert_eq!(got.len(), 18 + 2 * 18);
    assert!(got.contains(&"a7-g1".to_owned()));
    assert!(got.contains(&"d6-a1".to_owned()));

    // Three on the board and one in hand make four: slides and placements only.
    let p = at(&g, "a7 d6 g1", "b4 f4 d2 c5", "w 1 2");
    let mut expected: Vec<String> = g
        .board()
        .all_points()
        .without(p.occupied())
        .indices()
        .map(|i| g.board().name(i).to_owned())
        .collect();
    for slide in [
        "a7-d7", "a7-a4", "d6-d7", "d6-b6", "d6-f6", "d6-d5", "g1-g4", "g1-d1",
    ] {
        expected.push(slide.to_owned());
    }
    expected.sort();
    assert_eq!(turns(&g, &p), expected);
}

#[test]
fn diagonals_are_lines_and_mills_only_on_diagonal_boards() {
    for (id, diagonals) in [
        ("nine_mens_morris", false),
        ("nine_mens_morris_no_flying", false),
        ("twelve_mens_morris", true),
        ("morabaraba", true),
        ("shah", true),
    ] {
        let g = game(id);
        assert_eq!(g.board().has_diagonals(), diagonals, "{id}");
        let p = at(&g, "a7 b6 c4 g1", "d3 f4 d2 e5", "w 0 0");
        // Sliding along a diagonal.
        let b6 = turns_of(&g, &p, "b6-c5");
        assert_eq!(
            b6,
            if diagonals {
                sorted(&["b6-c5"])
            } else {
                vec![]
            },
            "{id}"
        );
        let g1 = turns_of(&g, &p, "g1-f2");
        assert_eq!(g1.len(), usize::from(diagonals), "{id}");
        assert_eq!(turns_of(&g, &p, "b6-d6"), sorted(&["b6-d6"]), "{id}");
        // Closing the diagonal mill a7-b6-c5 by a slide.
        let expected = if diagonals {
            sorted(&["c4-c5xd2", "c4-c5xd3", "c4-c5xe5", "c4-c5xf4"])
        } else {
            sorted(&["c4-c5"])
        };
        assert_eq!(turns_of(&g, &p, "c4-c5"), expected, "{id}");
        // And by a placement.
        let p = at(&g, "a7 b6", "d3 f4", "w 5 5");
        // Shah takes nothing while placing.
        let expected = if diagonals && id != "shah" {
            sorted(&["c5xd3", "c5xf4"])
        } else {
            sorted(&["c5"])
        };
        assert_eq!(turns_of(&g, &p, "c5"), expected, "{id}");
    }
}

#[test]
fn diagonals_without_mills_are_lines_to_move_along_only() {
    // The twelve-man sheet's nine-man variation read literally.
    let g = with(
        "nine_mens_morris_no_flying",
        &[("diagonals", "true"), ("diagonal_mills", "false")],
    );
    assert!(g.board().has_diagonals() && !g.board().has_diagonal_mills());
    let p = at(&g, "a7 b6 c4 g1", "d3 f4 d2 e5", "w 0 0");
    assert_eq!(turns_of(&g, &p, "b6-c5"), sorted(&["b6-c5"]));
    assert_eq!(turns_of(&g, &p, "g1-f2"), sorted(&["g1-f2"]));
    // a7-b6-c5 is a line but no mill.
    assert_eq!(turns_of(&g, &p, "c4-c5"), sorted(&["c4-c5"]));
    let p = at(&g, "a7 b6", "d3 f4", "w 5 5");
    assert_eq!(turns_of(&g, &p, "c5"), sorted(&["c5"]));
    // The lines and mills of the square still take.
    let p = at(&g, "a7 g7", "d3 f4", "w 5 5");
    assert_eq!(turns_of(&g, &p, "d7"), sorted(&["d7xd3", "d7xf4"]));
}

// ---------------------------------------------------------------------------------------------
// 2. Taking men
// ---------------------------------------------------------------------------------------------

#[test]
fn removal_rules_decide_which_men_a_mill_takes() {
    // a4 closes a4-b4-c4. Black has the mill a7-d7-g7 and a1 outside it.
    let some_in_mills = |g: &Morris| at(g, "b4 c4", "a7 d7 g7 a1", "w 5 5");
    // All of Black's men are in the mill.
    let all_in_mills = |g: &Morris| at(g, "b4 c4", "a7 d7 g7", "w 5 6");
    let cases: [(&str, &[&str], &[&str]); 3] = [
        ("standard", &["a4xa1"], &["a4xa7", "a4xd7", "a4xg7"]),
        (
            "any",
            &["a4xa1", "a4xa7", "a4xd7", "a4xg7"],
            &["a4xa7", "a4xd7", "a4xg7"],
        ),
        ("mill_immunity", &["a4xa1"], &["a4"]),
    ];
    for (removal, some, all) in cases {
        let g = with("nine_mens_morris", &[("removal", removal)]);
        assert_eq!(
            turns_of(&g, &some_in_mills(&g), "a4"),
            sorted(some),
            "{removal}"
        );
        assert_eq!(
            turns_of(&g, &all_in_mills(&g), "a4"),
            sorted(all),
            "{removal}"
        );
    }
    // Under mill immunity the mill that takes nothing is still a turn, and takes nothing.
    let g = with("nine_mens_morris", &[("removal", "mill_immunity")]);
    let p = play(&g, &all_in_mills(&g), "a4");
    assert_eq!(p.men(Color::Black), points(&g, "a7 d7 g7"));
}

#[test]
fn a_double_mill_takes_one_man_or_two() {
    // d7 closes a7-d7-g7 and d7-d6-d5 at once.
    let white = "a7 g7 d6 d5";
    let g = game("nine_mens_morris");
    let p = at(&g, white, "a1 g1 b4 f4", "w 3 3");
    assert_eq!(
        turns_of(&g, &p, "d7"),
        sorted(&["d7xa1", "d7xg1", "d7xb4", "d7xf4"])
    );

    let g = with("nine_mens_morris", &[("double_mill", "two")]);
    let p = at(&g, white, "a1 g1 b4 f4", "w 3 3");
    assert_eq!(
        turns_of(&g, &p, "d7"),
        sorted(&["d7xb4xf4", "d7xb4xa1", "d7xb4xg1", "d7xf4xa1", "d7xf4xg1", "d7xa1xg1"])
    );
    let after = play(&g, &p, "d7xb4xg1");
    assert_eq!(after.men(Color::Black), points(&g, "a1 f4"));

    // Black's a1-d1-g1 mill is protected until b4 is gone: a pair is legal if one of its
    // orders is, so b4 and one man of the mill.
    let p = at(&g, white, "a1 d1 g1 b4", "w 3 3");
    assert_eq!(
        turns_of(&g, &p, "d7"),
        sorted(&["d7xb4xa1", "d7xb4xd1", "d7xb4xg1"])
    );

    // Fewer men can be taken than the mills earn: the turn takes what it can.
    let g = with(
        "nine_mens_morris",
        &[("double_mill", "two"), ("removal", "mill_immunity")],
    );
    let p = at(&g, white, "a1 d1 g1 b4", "w 3 3");
    assert_eq!(turns_of(&g, &p, "d7"), sorted(&["d7xb4"]));
    let g = with(
        "nine_mens_morris",
        &[("double_mill", "two"), ("removal", "any")],
    );
    let p = at(&g, white, "b4", "w 3 6");
    assert_eq!(turns_of(&g, &p, "d7"), sorted(&["d7xb4"]));
}

#[test]
fn an_optional_capture_is_taken_whole_or_declined() {
    // a4 closes a4-b4-c4; only a1 is outside Black's mill.
    let mill = |g: &Morris| at(g, "b4 c4", "a7 d7 g7 a1", "w 5 5");
    let compulsory = game("nine_mens_morris");
    let p = mill(&compulsory);
    assert_eq!(turns_of(&compulsory, &p, "a4"), sorted(&["a4xa1"]));
    assert_eq!(
        compulsory.parse_move(&p, "a4").unwrap().to_string(),
        "a4xa1",
        "the only choice is read as meant"
    );

    let g = with("nine_mens_morris", &[("capture", "optional")]);
    let p = mill(&g);
    assert_eq!(turns_of(&g, &p, "a4"), sorted(&["a4", "a4xa1"]));
    // Written without a man, the turn takes none.
    let declined = g.parse_move(&p, "a4").unwrap();
    assert!(declined.removed().is_empty());
    assert_eq!(
        g.play(&p, &declined).men(Color::Black),
        points(&g, "a7 d7 g7 a1")
    );
    let (a4, a1) = (usize::from(index(&g, "a4")), usize::from(index(&g, "a1")));
    assert_eq!(g.turn_actions(&p, &declined), [a4, g.pass_action()]);
    let taken = g.parse_move(&p, "a4xa1").unwrap();
    assert_eq!(g.turn_actions(&p, &taken), [a4, a1]);
    let Ok(ActionStep::Continue(stage)) = g.apply_action(&p, &Stage::Start, a4) else {
        panic!("a4 goes on to the removal")
    };
    assert_eq!(g.legal_actions(&p, &stage), [a1, g.pass_action()]);
    assert_eq!(
        g.apply_action(&p, &stage, g.pass_action()).ok(),
        Some(ActionStep::Done(declined))
    );
    // A turn that earns nothing offers no pass.
    let quiet = at(&g, "b4", "a7 d7 g7 a1", "w 5 5");
    assert_eq!(turns_of(&g, &quiet, "a4"), sorted(&["a4"]));

    // Declining can win: d7-d6 closes b6-d6-f6 and fills Black's last free point, and any
    // man taken frees a point next to another black man.
    let g = with("nine_mens_morris_no_flying", &[("capture", "optional")]);
    let black = "c5 d5 e5 a1 d1";
    let p = at(&g, "d7 b6 f6 a4 c4 e4 d2 g1", black, "w 0 0");
    let after = play(&g, &p, "d7-d6");
    assert_eq!(g.outcome(&after), win(Color::White, EndReason::NoMoves));
    for man in black.split(' ') {
        let taken = play(&g, &p, &format!("d7-d6x{man}"));
        assert_eq!(g.outcome(&taken), None, "{man}");
    }

    // A double mill that takes two takes two or none, never one.
    let g = with(
        "nine_mens_morris",
        &[("capture", "optional"), ("double_mill", "two")],
    );
    let p = at(&g, "a7 g7 d6 d5", "a1 g1 b4 f4", "w 3 3");
    assert_eq!(
        turns_of(&g, &p, "d7"),
        sorted(&["d7", "d7xb4xf4", "d7xb4xa1", "d7xb4xg1", "d7xf4xa1", "d7xf4xg1", "d7xa1xg1"])
    );
    let d7 = usize::from(index(&g, "d7"));
    let Ok(ActionStep::Continue(first)) = g.apply_action(&p, &Stage::Start, d7) else {
        panic!("d7 goes on to the removal")
    };
    assert!(g.legal_actions(&p, &first).contains(&g.pass_action()));
    let Ok(ActionStep::Continue(second)) = g.apply_action(&p, &first, usize::from(index(&g, "b4")))
    else {
        panic!("a second man is due")
    };
    assert!(!g.legal_actions(&p, &second).contains(&g.pass_action()));
}

// ---------------------------------------------------------------------------------------------
// 3. How games end
// ---------------------------------------------------------------------------------------------

#[test]
fn a_side_below_three_men_loses() {
    let g = game("nine_mens_morris");
    let p = at(&g, "a1 b4 c4 g1", "d7 e5 f2", "w 0 0");
    assert_eq!(g.outcome(&p), None);
    let after = play(&g, &p, "a1-a4xd7");
    assert_eq!(g.outcome(&after), win(Color::White, EndReason::NoMen));
    assert!(legal(&g, &after).is_empty());
    let mut state = GameState::from_position(g, p);
    state.play(&g.parse_move(&p, "a1-a4xe5").unwrap()).unwrap();
    assert_eq!(state.outcome(), win(Color::White, EndReason::NoMen));

    // Men in hand count: two on the board and one in hand play on.
    let p = at(&g, "a1 b4 c4", "d7 e5", "b 6 1");
    assert_eq!(g.outcome(&p), None);
    assert_eq!(legal(&g, &p).len(), 19);
    // Two men in all lose, whoever is to move.
    let p = at(&g, "a1 b4 c4 g1", "d7 e5", "w 0 0");
    assert_eq!(g.outcome(&p), win(Color::White, EndReason::NoMen));
    assert!(legal(&g, &p).is_empty());

    // The threshold is an option.
    let g = with("nine_mens_morris", &[("lose_below", "4")]);
    let p = at(&g, "a1 b4 c4 g1", "d7 e5 f2", "w 0 0");
    assert_eq!(g.outcome(&p), win(Color::White, EndReason::NoMen));
}

#[test]
fn a_side_with_no_men_cannot_move_even_where_it_may_fly() {
    // With `lose_below` 0 no count of men loses, and a side that few would fly: with none at
    // all it has nothing to move, so it is trapped, not a side with moves it cannot find.
    let g = with("nine_mens_morris", &[("lose_below", "0")]);
    let p = at(&g, "a1 b4 c4", "", "b 0 0");
    assert_eq!(g.outcome(&p), win(Color::White, EndReason::NoMoves));
    assert!(legal(&g, &p).is_empty());
    let g = with(
        "nine_mens_morris",
        &[("lose_below", "0"), ("trapped", "passes")],
    );
    let p = at(&g, "a1 b4 c4", "", "b 0 0");
    assert_eq!(g.outcome(&p), None);
    assert_eq!(turns(&g, &p), ["pass"]);
}

#[test]
fn a_blocked_side_loses_or_passes() {
    // Black's men on the outer corners, every neighbour taken by White.
    let g = game("nine_mens_morris");
    let p = at(&g, "d7 a4 g4 d1", "a7 g7 a1 g1", "b 0 0");
    assert_eq!(g.outcome(&p), win(Color::White, EndReason::NoMoves));
    assert!(legal(&g, &p).is_empty());
    assert_eq!(GameState::from_position(g, p).outcome(), g.outcome(&p));
    // With three men Black flies, so it is not blocked.
    let p = at(&g, "d7 a4 g4 d1", "a7 g7 a1", "b 0 0");
    assert_eq!(g.outcome(&p), None);
    assert_eq!(legal(&g, &p).len(), 3 * 17);
    // Without flying, three blocked men lose too.
    let g = game("nine_mens_morris_no_flying");
    let p = at(&g, "d7 a4 g4 d1", "a7 g7 a1", "b 0 0");
    assert_eq!(g.outcome(&p), win(Color::White, EndReason::NoMoves));

    // With diagonals the corners have a third neighbour each.
    let white = "d7 a4 g4 d1 b6 f6 b2 f2";
    let g = game("twelve_mens_morris");
    let p = at(&g, "d7 a4 g4 d1", "a7 g7 a1 g1", "b 0 0");
    assert_eq!(turns(&g, &p), sorted(&["a7-b6", "g7-f6", "a1-b2", "g1-f2"]));
    let p = at(&g, white, "a7 g7 a1 g1", "b 0 0");
    assert_eq!(g.outcome(&p), win(Color::White, EndReason::NoMoves));

    // Shah: a trapped player passes.
    let g = game("shah");
    let p = at(&g, white, "a7 g7 a1 g1", "b 0 0");
    assert_eq!(g.outcome(&p), None);
    assert_eq!(turns(&g, &p), sorted(&["pass"]));
    let mv = g.parse_move(&p, "pass").unwrap();
    assert_eq!(mv.kind(), MoveKind::Pass);
    let after = g.play(&p, &mv);
    assert_eq!(after.side_to_move(), Color::White);
    assert_eq!(after.men(Color::White), p.men(Color::White));
    assert_eq!(after.men(Color::Black), p.men(Color::Black));
    let mut state = GameState::from_position(g, p);
    state.play(&mv).unwrap();
    assert_eq!(*state.position(), after);
    assert!(!state.is_over());
}

#[test]
fn a_full_board_after_placement_is_a_draw_or_plays_on() {
    for id in ["twelve_mens_morris", "shah"] {
        let g = game(id);
        let full = parse(&g, &format!("{FULL_NO_MILL} w 0 0"));
        assert!(!g.board().has_mill(full.men(Color::White)));
        assert!(!g.board().has_mill(full.men(Color::Black)));
        assert_eq!(g.outcome(&full), Some(Outcome::draw(EndReason::BoardFull)));
        assert!(legal(&g, &full).is_empty());

        // Black's last placement fills the board.
        let last = parse(&g, "BWW/BWB/WBW/WWBWBB/WBB/BWW/.BW b 0 1");
        assert_eq!(g.outcome(&last), None);
        assert_eq!(turns(&g, &last), sorted(&["a1"]));
        let mut state = GameState::from_position(g, last);
        state.play(&g.parse_move(&last, "a1").unwrap()).unwrap();
        assert_eq!(*state.position(), full);
        assert_eq!(
            state.outcome(),
            Some(Outcome::draw(EndReason::BoardFull)),
            "{id}"
        );
    }

    // Playing on, White (to move) is trapped: it loses. Where trapped players pass, neither
    // side could ever move again: a draw, not passes for ever (which no rule would end with
    // repetition, the move rule and the ply limit off).
    let g = with("twelve_mens_morris", &[("full_board", "play_on")]);
    let last = parse(&g, "BWW/BWB/WBW/WWBWBB/WBB/BWW/.BW b 0 1");
    let full = play(&g, &last, "a1");
    assert_eq!(g.outcome(&full), win(Color::Black, EndReason::NoMoves));
    let g = with(
        "twelve_mens_morris",
        &[
            ("full_board", "play_on"),
            ("trapped", "passes"),
            ("threefold_repetition", "false"),
            ("move_rule", "none"),
            ("ply_limit", "none"),
        ],
    );
    let full = play(&g, &last, "a1");
    assert_eq!(g.outcome(&full), Some(Outcome::draw(EndReason::BoardFull)));
    assert!(legal(&g, &full).is_empty());
}

// ---------------------------------------------------------------------------------------------
// 4. No re-forming
// ---------------------------------------------------------------------------------------------

#[test]
fn no_reforming_bars_the_man_that_broke_a_mill_for_one_turn() {
    let g = game("twelve_mens_morris");
    let p0 = at(&g, "a4 b4 c4 b2 g7", "e5 f4 g1", "w 0 0");
    assert_eq!(turns_of(&g, &p0, "b4-b6"), sorted(&["b4-b6"]));

    // b4 leaves the mill a4-b4-c4: the memory names the man (now on b6) and the point.
    let p1 = play(&g, &p0, "b4-b6");
    let barrier = Barrier {
        man: index(&g, "b6"),
        point: index(&g, "b4"),
    };
    assert_eq!(p1.barrier(Color::White), Some(barrier));
    assert_eq!(p1.barrier(Color::Black), None);
    assert_eq!(fen_field(&g, &p1, 6), "Wb6>b4");
    let fen = g.fen(&p1, 1);
    assert_eq!(g.parse_fen(&fen).unwrap(), (p1, 1));

    // On White's next turn b6 may go anywhere but back; another man may re-form the mill.
    let p2 = play(&g, &p1, "g1-d1");
    assert_eq!(p2.barrier(Color::White), Some(barrier));
    assert_eq!(turns_of(&g, &p2, "b6-b4"), Vec::<String>::new());
    assert_eq!(
        turns_of(&g, &p2, "b2-b4"),
        sorted(&["b2-b4xd1", "b2-b4xe5", "b2-b4xf4"])
    );
    for other in ["b6-a7", "b6-c5", "b6-d6"] {
        assert_eq!(turns_of(&g, &p2, other), sorted(&[other]));
    }
    assert!(matches!(
        g.parse_move(&p2, "b6-b4xe5"),
        Err(MorrisMoveError::Illegal { .. })
    ));

    // The turn after, it may.
    let p3 = play(&g, &p2, "g7-d7");
    assert_eq!(p3.barrier(Color::White), None);
    assert_eq!(fen_field(&g, &p3, 6), "-");
    let p4 = play(&g, &p3, "d1-g1");
    assert_eq!(
        turns_of(&g, &p4, "b6-b4"),
        sorted(&["b6-b4xe5", "b6-b4xf4", "b6-b4xg1"])
    );

    // Moving back without re-forming the mill (a4 has gone) is allowed.
    let p = parse(
        &g,
        &format!(
            "{} w 0 0 0 Wb6>b4 -",
            board_field(&g, "b6 c4 b2 g7", "e5 f4 g1")
        ),
    );
    assert_eq!(turns_of(&g, &p, "b6-b4"), sorted(&["b6-b4"]));
}

#[test]
fn no_reforming_memory_goes_with_the_man_taken() {
    let g = game("twelve_mens_morris");
    let text = format!(
        "{} b 0 0 0 Wb6>b4 -",
        board_field(&g, "a4 c4 b6 b2 g7", "e4 g4 f6")
    );
    let p = parse(&g, &text);
    assert!(p.barrier(Color::White).is_some());
    let taken = play(&g, &p, "f6-f4xb6");
    assert_eq!(taken.barrier(Color::White), None);
    assert_eq!(fen_field(&g, &taken, 6), "-");
    let other = play(&g, &p, "f6-f4xa4");
    assert_eq!(other.barrier(Color::White), p.barrier(Color::White));
    assert_eq!(fen_field(&g, &other, 6), "Wb6>b4");
}

#[test]
fn a_memory_whose_point_is_occupied_is_still_valid() {
    // White's a7 breaks a7-d7-g7; Black's b6 then slides (diagonally) onto a7.
    let g = game("twelve_mens_morris");
    let p = play_all(
        &g,
        &at(&g, "a7 d7 g7 b2", "b6 e5 f4", "w 0 0"),
        &["a7-a4", "b6-a7"],
    );
    // Now written `BWW/.../..B/W...B./.../W../... w 0 0 0 Wa4>a7 -`, which parse_fen refuses
    // (BadBarrier(White)): the memory names a7, where Black now stands.
    let fen = g.fen(&p, 0);
    assert_eq!(g.validate(&p), Ok(()), "{fen}");
    assert_eq!(g.parse_fen(&fen), Ok((p, 0)));

    // The same when the mover occupies the other side's memory point.
    let p = play_all(
        &g,
        &at(&g, "b6 e5 f4 c3", "a7 d7 g7", "b 0 0"),
        &["a7-a4", "b6-a7"],
    );
    // Now written `WBB/.../..W/B...W./W../.../... b 0 0 0 Ba4>a7 -` (BadBarrier(Black)).
    let fen = g.fen(&p, 0);
    assert_eq!(g.validate(&p), Ok(()), "{fen}");
    assert_eq!(g.parse_fen(&fen), Ok((p, 0)));
}

#[test]
fn without_no_reforming_a_man_moves_out_and_back_to_take_again() {
    // The "Cowboy Checkers" sheet: break a posse and form it again, taking a man each time.
    let g = game("cowboy_checkers");
    let p0 = at(&g, "a4 b4 c4 d7 g1", "e5 f4 d2 g7", "w 0 0");
    let p1 = play(&g, &p0, "b4-b6");
    assert_eq!(p1.barrier(Color::White), None);
    assert_eq!(fen_field(&g, &p1, 6), "-");
    let p2 = play(&g, &p1, "g7-g4");
    assert_eq!(
        turns_of(&g, &p2, "b6-b4"),
        sorted(&["b6-b4xd2", "b6-b4xe5", "b6-b4xf4", "b6-b4xg4"])
    );
    let p3 = play_all(&g, &p2, &["b6-b4xd2", "g4-g7", "b4-b6", "g7-g4"]);
    assert_eq!(turns_of(&g, &p3, "b6-b4").len(), 3);
    assert_eq!(p3.men(Color::Black).count(), 3);
}

/// Whether the side to move has a base move, by the general way: every man's targets, the
/// memory's return taken out where it re-forms the mill.
fn has_base_move_by_every_target(g: &Morris, pos: &MorrisPosition) -> bool {
    let mut any = false;
    g.visit_base_targets(pos, &mut |_, targets| any |= targets.any());
    any
}

/// `has_base_move` answers a side with a memory by one pass over its men: on crowded boards
/// (where men are trapped) it agrees with every man's targets, with the memory's man alone able
/// to move, with the point it left taken since, and with memories on a point the side does not
/// hold. (A memory alone never traps: the mill its return would re-form has another man next
/// to the point left, free to step in.)
#[test]
fn a_side_with_a_memory_has_a_move_exactly_when_some_man_has_a_target() {
    let mut rng = Rng(crate::SplitMix64::new(0x7472_6170));
    let games = [
        game("twelve_mens_morris"),
        with("nine_mens_morris", &[("no_reforming", "true")]),
        with("six_mens_morris", &[("no_reforming", "true")]),
    ];
    // Sides trapped, and sides whose only slide is the memory's man going back (allowed: the
    // man stood on the mill's line, so going back re-forms nothing).
    let (mut trapped, mut only_the_return) = (0, 0);
    for g in &games {
        let board = g.board();
        let points = board.all_points().count() as usize;
        for _ in 0..20_000 {
            let us = if rng.below(2) == 0 {
                Color::White
            } else {
                Color::Black
            };
            // A mill of ours broken by its man stepping off `point` to a neighbour: the return
            // re-forms it. The other points filled at random, nearly all of them.
            let mill = board.mills()[rng.below(board.mills().len())];
            let line: Vec<u8> = Bitboard(mill).indices().collect();
            let point = line[rng.below(3)];
            let steps: Vec<u8> = board.neighbours(point).indices().collect();
            let man = steps[rng.below(steps.len())];
            let mut men = [Bitboard(0); 2];
            men[us.index()] = Bitboard(mill).without(Bitboard::from_index(point));
            men[us.index()] |= Bitboard::from_index(man);
            let mut taken = men[0] | men[1] | Bitboard::from_index(point);
            // One to three points left empty besides the point left.
            let filled = points - 1 - rng.below(3);
            while (taken.count() as usize) < filled {
                let q = rng.below(points) as u8;
                if !taken.contains_index(q) {
                    taken |= Bitboard::from_index(q);
                    men[rng.below(2)] |= Bitboard::from_index(q);
                }
            }
            // Now and then the other side has stepped onto the point left: the memory forbids
            // nothing, and the side may be trapped.
            if rng.below(2) == 0 {
                men[(!us).index()] |= Bitboard::from_index(point);
            }
            let (white, black) = (men[Color::White.index()], men[Color::Black.index()]);
            let mut pos = MorrisPosition::from_parts_unchecked(white, black, 0, 0, us);
            // Now and then a memory that names another point: nothing it forbids.
            let memory_man = if rng.below(8) == 0 {
                rng.below(points) as u8
            } else {
                man
            };
            pos.set_barrier(
                us,
                Some(Barrier {
                    man: memory_man,
                    point,
                }),
            );
            let expected = has_base_move_by_every_target(g, &pos);
            assert_eq!(g.has_base_move(&pos), expected, "{}: {pos:?}", g.rules());
            let empty = board.all_points().without(men[0] | men[1]);
            let others =
                board.slide_targets(men[us.index()].without(Bitboard::from_index(man)), empty);
            let own = board.neighbours(man) & empty;
            trapped += u32::from(!expected);
            only_the_return +=
                u32::from(memory_man == man && !others.any() && own == Bitboard::from_index(point));
        }
    }
    assert!(
        trapped > 1000 && only_the_return > 100,
        "{trapped}, {only_the_return}"
    );
}

/// `for_each_turn` leaves the test for a trapped side to the turns it finds (none, or a pass):
/// a position has no turn exactly where it is over. Checked on crowded boards, where sides are
/// trapped (with memories where the rules keep them), and on positions of random games, for
/// every rule set.
#[test]
fn a_position_has_no_turn_exactly_where_it_is_over() {
    let mut rng = Rng(crate::SplitMix64::new(0x6f76_6572));
    let (mut over, mut trapped) = (0, 0);
    for g in every_rule_set() {
        let board = g.board();
        let points = board.all_points().count() as usize;
        let men = usize::from(g.rules().men);
        let mut positions: Vec<MorrisPosition> = random_positions(&g, 0x7475_726e, 20, 200, 3)
            .into_iter()
            .map(|(pos, _)| pos)
            .collect();
        for _ in 0..4_000 {
            // Up to `men` a side, one to three points left empty.
            let filled = (points - 1 - rng.below(3)).min(2 * men);
            let mut sides = [Bitboard(0); 2];
            while ((sides[0] | sides[1]).count() as usize) < filled {
                let q = rng.below(points) as u8;
                let side = rng.below(2);
                if !(sides[0] | sides[1]).contains_index(q) && (sides[side].count() as usize) < men
                {
                    sides[side] |= Bitboard::from_index(q);
                }
            }
            let us = if rng.below(2) == 0 {
                Color::White
            } else {
                Color::Black
            };
            let Ok(mut pos) = g.position(sides[0], sides[1], 0, 0, us) else {
                continue;
            };
            // Now and then a memory of one of the side's men, where the rules keep memories.
            if g.rules().no_reforming && rng.below(2) == 0 {
                let ours: Vec<u8> = pos.men(us).indices().collect();
                let man = ours[rng.below(ours.len())];
                let steps: Vec<u8> = board.neighbours(man).indices().collect();
                if let Some(&point) = steps.get(rng.below(steps.len().max(1))) {
                    pos.set_barrier(us, Some(Barrier { man, point }));
                }
            }
            positions.push(pos);
        }
        for pos in &positions {
            let ends = g.position_outcome(pos).is_some();
            let turns = g.count_moves(pos);
            assert_eq!(turns == 0, ends, "{}: {pos:?}, {turns} turns", g.rules());
            over += u32::from(ends);
            trapped += u32::from(ends && !g.has_base_move(pos));
        }
    }
    assert!(
        over > 1000 && trapped > 500,
        "{over} over, {trapped} trapped"
    );
}

// ---------------------------------------------------------------------------------------------
// 5. Lasker and Shah
// ---------------------------------------------------------------------------------------------

#[test]
fn lasker_may_move_instead_of_placing() {
    let slides = [
        "a7-d7", "a7-a4", "d6-d7", "d6-b6", "d6-f6", "d6-d5", "g1-g4", "g1-d1", "b4-a4", "b4-c4",
        "b4-b6", "b4-b2",
    ];
    let g = game("lasker_morris");
    let p = at(&g, "a7 d6 g1 b4", "c5 e5 e3 c3", "w 6 6");
    let placements: Vec<String> = g
        .board()
        .all_points()
        .without(p.occupied())
        .indices()
        .map(|i| g.board().name(i).to_owned())
        .collect();
    let mut expected = placements.clone();
    expected.extend(slides.iter().map(|s| (*s).to_owned()));
    expected.sort();
    assert_eq!(turns(&g, &p), expected);
    // Moving does not use up a man in hand.
    let after = play(&g, &p, "d6-d5");
    assert_eq!(after.in_hand(Color::White), 6);

    // Nine Men's Morris: placements only.
    let g = game("nine_mens_morris");
    let p = at(&g, "a7 d6 g1 b4", "c5 e5 e3 c3", "w 5 5");
    let mut placements = placements;
    placements.sort();
    assert_eq!(turns(&g, &p), placements);
}

/// Placements of a Shah game: White closes the first mill (a7-d7-g7) at ply 5, Black closes
/// a1-d1-g1 next, and the board fills with no other mill.
const SHAH_PLACEMENTS: [&str; 24] = [
    "a7", "a1", "d7", "d1", "g7", "g1", "b6", "f6", "d6", "c5", "e5", "d5", "b4", "a4", "f4", "c4",
    "g4", "e4", "c3", "e3", "d3", "b2", "f2", "d2",
];

#[test]
fn shah_first_mill_earns_the_opening_removal() {
    let g = game("shah");
    let mut p = g.start_position();
    for (ply, text) in SHAH_PLACEMENTS.iter().enumerate() {
        if ply == 4 {
            // White's mill while placing takes nothing.
            assert_eq!(turns_of(&g, &p, "g7"), sorted(&["g7"]));
        }
        p = play(&g, &p, text);
        match ply {
            0..=3 => assert_eq!(p.first_mill(), None),
            _ => assert_eq!(p.first_mill(), Some(Color::White), "ply {ply}"),
        }
        if ply < 23 {
            assert!(!p.opening_removal_pending());
            assert_eq!(fen_field(&g, &p, 7), if ply < 4 { "-" } else { "W" });
        }
    }
    assert_eq!(p.men(Color::Black).count(), 12);
    assert_eq!(p.men(Color::White).count(), 12);

    // The board is full; White, who closed the first mill, opens by taking any man.
    assert_eq!(p.side_to_move(), Color::White);
    assert!(p.opening_removal_pending());
    assert_eq!(fen_field(&g, &p, 7), "W!");
    assert_eq!(g.outcome(&p), None);
    let fen = g.fen(&p, 0);
    assert_eq!(g.parse_fen(&fen).unwrap(), (p, 0));
    let mut expected: Vec<String> = p
        .men(Color::Black)
        .indices()
        .map(|i| format!("x{}", g.board().name(i)))
        .collect();
    expected.sort();
    assert_eq!(turns(&g, &p), expected);
    let mv = g.parse_move(&p, "xa1").unwrap();
    assert_eq!(mv.kind(), MoveKind::Remove);
    // Where capture is optional, the opening removal may be declined by a pass.
    let optional = with("shah", &[("capture", "optional")]);
    let mut with_pass = expected.clone();
    with_pass.push("pass".to_owned());
    with_pass.sort();
    assert_eq!(turns(&optional, &p), with_pass);
    let passed = optional.play(&p, &optional.parse_move(&p, "pass").unwrap());
    assert_eq!(passed.side_to_move(), Color::Black);
    assert!(!passed.opening_removal_pending());
    assert_eq!(passed.men(Color::Black).count(), 12);
    assert_eq!(
        optional.turn_actions(&p, &MorrisMove::pass(optional.board().shape())),
        [optional.pass_action()]
    );

    // Then Black moves.
    let after = g.play(&p, &mv);
    assert_eq!(after.side_to_move(), Color::Black);
    assert!(!after.opening_removal_pending());
    assert_eq!(after.first_mill(), None);
    assert_eq!(fen_field(&g, &after, 7), "-");
    assert_eq!(after.men(Color::Black).count(), 11);
    let moves = legal(&g, &after);
    assert!(!moves.is_empty());
    for mv in &moves {
        assert_eq!(mv.to(), Some(index(&g, "a1")), "{mv}");
    }

    // Through a game state, from the start.
    let mut state = GameState::new(g);
    for text in SHAH_PLACEMENTS.iter().chain(&["xa1"]) {
        let mv = g.parse_move(state.position(), text).unwrap();
        state.play(&mv).unwrap();
    }
    assert_eq!(*state.position(), after);
    assert!(!state.is_over());
}

#[test]
fn shah_first_mill_by_black_opens_for_black() {
    let g = game("shah");
    // Black closed the first mill; its last placement fills the board.
    let p = parse(&g, "WWW/WWB/BBW/BWBBWW/WW./BBW/BBB b 0 1 0 - B");
    let p = play(&g, &p, "e3");
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!(fen_field(&g, &p, 7), "B!");
    assert_eq!(turns(&g, &p).len(), 12);
    let after = play(&g, &p, "xd7");
    assert_eq!(after.side_to_move(), Color::White);
    assert_eq!(fen_field(&g, &after, 7), "-");
}

#[test]
fn shah_without_a_mill_in_placement_is_a_draw() {
    let g = game("shah");
    let p = play(&g, &parse(&g, "BWW/BWB/WBW/WWBWBB/WBB/BWW/.BW b 0 1"), "a1");
    assert_eq!(p.first_mill(), None);
    assert!(!p.opening_removal_pending());
    assert_eq!(g.outcome(&p), Some(Outcome::draw(EndReason::BoardFull)));
}

#[test]
fn shah_trapping_takes_once_and_mills_take_nothing_while_trapped() {
    let g = game("shah");
    let p = at(&g, "d7 a4 b6 g4 f6 b2 f2 d2 d6 e5", "a7 g7 a1 g1", "w 0 0");
    // d2-d1 closes no mill but leaves Black without a move: it takes one man.
    assert_eq!(
        turns_of(&g, &p, "d2-d1"),
        sorted(&["d2-d1xa1", "d2-d1xa7", "d2-d1xg1", "d2-d1xg7"])
    );
    // Black is not trapped yet: a mill takes as usual, a plain slide nothing.
    assert_eq!(
        turns_of(&g, &p, "e5-d5"),
        sorted(&["e5-d5xa1", "e5-d5xa7", "e5-d5xg1", "e5-d5xg7"])
    );
    assert_eq!(turns_of(&g, &p, "e5-e4"), sorted(&["e5-e4"]));

    let trapped = play(&g, &p, "d2-d1xa1");
    assert_eq!(turns(&g, &trapped), sorted(&["pass"]));
    let p = play(&g, &trapped, "pass");
    // Black stays trapped: the mill d7-d6-d5 takes nothing.
    assert_eq!(turns_of(&g, &p, "e5-d5"), sorted(&["e5-d5"]));
    let after = play(&g, &p, "e5-d5");
    assert_eq!(after.men(Color::Black).count(), 3);
    assert_eq!(turns(&g, &after), sorted(&["pass"]));
}

// ---------------------------------------------------------------------------------------------
// 6. Three Men's Morris and perft
// ---------------------------------------------------------------------------------------------

#[test]
fn three_mens_morris_mill_wins_at_once() {
    let g = game("three_mens_morris");
    let p = at(&g, "a3 b3", "a1 b1", "w 1 1");
    assert_eq!(turns_of(&g, &p, "c3"), sorted(&["c3"]));
    let after = play(&g, &p, "c3");
    assert_eq!(g.outcome(&after), win(Color::White, EndReason::Mill));
    assert!(legal(&g, &after).is_empty());
    assert_eq!(after.men(Color::Black).count(), 2);

    // Sliding into a mill, diagonal lines included.
    let p = at(&g, "a3 b3 c2", "a1 b2 c1", "w 0 0");
    assert_eq!(
        g.outcome(&play(&g, &p, "c2-c3")),
        win(Color::White, EndReason::Mill)
    );
    let p = at(&g, "a3 b3 c2", "a1 b2 c1", "b 0 0");
    assert_eq!(
        turns(&g, &p),
        sorted(&["a1-a2", "a1-b1", "b2-a2", "b2-b1", "b2-c3", "c1-b1"])
    );
    assert_eq!(g.outcome(&play(&g, &p, "b2-c3")), None);
    assert_eq!(
        g.outcome(&play(&g, &p, "b2-b1")),
        win(Color::Black, EndReason::Mill)
    );
}

/// A slow Three Men's Morris on a 3x3 grid of cells by (file, rank), written without the
/// engine's boards: lines are rows, columns and the two long diagonals; a man slides to the
/// next cell along a line.
mod three_mens_reference {
    type Cell = (i32, i32);

    #[derive(Clone)]
    pub(super) struct Pos {
        /// Cells by `3 * rank + file`: `Some(0)` White, `Some(1)` Black.
        cells: Vec<Option<usize>>,
        hand: [u32; 2],
        side: usize,
    }

    impl Pos {
        pub(super) fn start() -> Pos {
            Pos {
                cells: vec![None; 9],
                hand: [3, 3],
                side: 0,
            }
        }
    }

    fn lines() -> Vec<[Cell; 3]> {
        let mut lines = Vec::new();
        for i in 0..3 {
            lines.push([(0, i), (1, i), (2, i)]);
            lines.push([(i, 0), (i, 1), (i, 2)]);
        }
        lines.push([(0, 0), (1, 1), (2, 2)]);
        lines.push([(0, 2), (1, 1), (2, 0)]);
        lines
    }

    fn at(cell: Cell) -> usize {
        (3 * cell.1 + cell.0) as usize
    }

    fn adjacent(a: Cell, b: Cell) -> bool {
        lines().iter().any(|l| {
            l.windows(2)
                .any(|w| (w[0], w[1]) == (a, b) || (w[0], w[1]) == (b, a))
        })
    }

    fn has_mill(pos: &Pos, side: usize) -> bool {
        lines()
            .iter()
            .any(|l| l.iter().all(|&c| pos.cells[at(c)] == Some(side)))
    }

    fn cells() -> Vec<Cell> {
        (0..3).flat_map(|y| (0..3).map(move |x| (x, y))).collect()
    }

    fn children(pos: &Pos) -> Vec<Pos> {
        if has_mill(pos, 0) || has_mill(pos, 1) {
            return Vec::new();
        }
        let us = pos.side;
        let mut out = Vec::new();
        let empty: Vec<Cell> = cells()
            .into_iter()
            .filter(|&c| pos.cells[at(c)].is_none())
            .collect();
        if pos.hand[us] > 0 {
            for &to in &empty {
                let mut next = pos.clone();
                next.cells[at(to)] = Some(us);
                next.hand[us] -= 1;
                next.side = 1 - us;
                out.push(next);
            }
        } else {
            for from in cells()
                .into_iter()
                .filter(|&c| pos.cells[at(c)] == Some(us))
            {
                for &to in empty.iter().filter(|&&to| adjacent(from, to)) {
                    let mut next = pos.clone();
                    next.cells[at(from)] = None;
                    next.cells[at(to)] = Some(us);
                    next.side = 1 - us;
                    out.push(next);
                }
            }
        }
        out
    }

    pub(super) fn perft(pos: &Pos, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        children(pos).iter().map(|c| perft(c, depth - 1)).sum()
    }
}

#[test]
fn three_mens_morris_perft_matches_a_reference() {
    let g = game("three_mens_morris");
    let start = g.start_position();
    // Plies 1 to 5 are placements and no mill can close before ply 5.
    for (depth, expected) in [(1, 9), (2, 72), (3, 504), (4, 3024), (5, 15120)] {
        assert_eq!(perft(&g, &start, depth), expected, "depth {depth}");
    }
    let reference = three_mens_reference::Pos::start();
    for depth in 1..=7 {
        assert_eq!(
            perft(&g, &start, depth),
            three_mens_reference::perft(&reference, depth),
            "depth {depth}"
        );
    }
}

#[test]
fn nine_mens_morris_perft_from_the_start() {
    let g = game("nine_mens_morris");
    let start = g.start_position();
    for (depth, expected) in [(1, 24), (2, 552), (3, 12144)] {
        assert_eq!(perft(&g, &start, depth), expected, "depth {depth}");
    }
}

// ---------------------------------------------------------------------------------------------
// 7. Position strings
// ---------------------------------------------------------------------------------------------

#[test]
fn position_strings_are_written_canonically() {
    let g = game("nine_mens_morris");
    let canonical = "W.B/.../.../....../.../.../... w 8 8 0 - -";
    for text in [
        "W.B/.../.../....../.../.../... w 8 8",
        "w.b/.../.../....../.../.../... W 8 8 0",
        "W.B..................... w 8 8 0 -",
        "W/./B/...//.../....../.../.../... w 8 8 0 - -",
        "  W.B/.../.../....../.../.../...   w  8 8 0 - -  ",
    ] {
        let (p, plies) = g.parse_fen(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(g.fen(&p, plies), canonical, "{text}");
    }
    assert_eq!(
        g.fen(&g.start_position(), 0),
        ".../.../.../....../.../.../... w 9 9 0 - -"
    );
    let six = game("six_mens_morris");
    assert_eq!(
        six.fen(&six.start_position(), 0),
        ".../.../..../.../... w 6 6 0 - -"
    );
    let three = game("three_mens_morris");
    assert_eq!(
        three.fen(&three.start_position(), 0),
        ".../.../... w 3 3 0 - -"
    );

    // Both memories, White's first.
    let g = game("twelve_mens_morris");
    let board = board_field(&g, "b6 c4 b2", "f4 e4 a1");
    let p = parse(&g, &format!("{board} w 0 0 7 Bf4>f6,Wb6>b4"));
    assert_eq!(
        p.barrier(Color::Black),
        Some(Barrier {
            man: index(&g, "f4"),
            point: index(&g, "f6")
        })
    );
    let fen = g.fen(&p, 7);
    assert!(fen.ends_with(" w 0 0 7 Wb6>b4,Bf4>f6 -"), "{fen}");
    assert_eq!(g.parse_fen(&fen).unwrap(), (p, 7));

    let shah = game("shah");
    let p = parse(&shah, "WWW/WWB/BBW/BWBBWW/WWB/BBW/BBB w 0 0 0 - W!");
    assert!(p.opening_removal_pending());
    assert_eq!(
        shah.fen(&p, 0),
        "WWW/WWB/BBW/BWBBWW/WWB/BBW/BBB w 0 0 0 - W!"
    );
}

#[test]
fn position_strings_round_trip_in_every_preset() {
    let games = all_presets().chain(variants().into_iter().map(|g| ("variant", g)));
    for (id, g) in games {
        for (p, plies) in random_positions(&g, 0x7365_6564, 30, 400, 1) {
            let fen = g.fen(&p, plies);
            assert_eq!(g.parse_fen(&fen), Ok((p, plies)), "{id}: {fen}");
            let lower = fen.to_ascii_lowercase();
            let (q, _) = g.parse_fen(&lower).unwrap();
            assert_eq!(q, p, "{id}: {lower}");
            let bare: String = fen.chars().filter(|&c| c != '/').collect();
            assert_eq!(g.fen(&parse(&g, &bare), plies), fen, "{id}: {bare}");
        }
    }
}

fn fen_error(game: &Morris, text: &str) -> MorrisFenError {
    match game.parse_fen(text) {
        Ok(_) => panic!("{text} should be refused"),
        Err(e) => e,
    }
}

#[test]
fn bad_position_strings_are_refused_with_their_kind() {
    use MorrisFenErrorKind as K;
    let g = game("nine_mens_morris");
    let empty = ".../.../.../....../.../.../...";
    let cases: Vec<(String, usize, K)> = vec![
        (String::new(), 0, K::FieldCount(0)),
        (format!("{empty} w 9"), 0, K::FieldCount(3)),
        (format!("{empty} w 9 9 0 - - x"), 0, K::FieldCount(8)),
        (
            ".../.X./.../....../.../.../... w 9 9".into(),
            1,
            K::BadPoint('X'),
        ),
        (
            ".../.../.../....../.../.../.. w 9 9".into(),
            1,
            K::PointCount {
                found: 23,
                expected: 24,
            },
        ),
        (
            ".../.../.../....../.../.../.... w 9 9".into(),
            1,
            K::PointCount {
                found: 25,
                expected: 24,
            },
        ),
        (format!("{empty} x 9 9"), 2, K::BadSide("x".into())),
        (format!("{empty} white 9 9"), 2, K::BadSide("white".into())),
        (format!("{empty} w a 9"), 3, K::BadNumber("a".into())),
        (format!("{empty} w 300 9"), 3, K::BadNumber("300".into())),
        (format!("{empty} w 9 -1"), 4, K::BadNumber("-1".into())),
        (format!("{empty} w 9 9 z"), 5, K::BadNumber("z".into())),
        (format!("{empty} w +9 9"), 3, K::BadNumber("+9".into())),
        (format!("{empty} w 9 9 +0"), 5, K::BadNumber("+0".into())),
        (
            "WWW/.../.../....../.../.../... w 7 9".into(),
            0,
            K::Invalid(MorrisPositionError::TooManyMen {
                color: Color::White,
                count: 10,
                men: 9,
            }),
        ),
        (
            format!("{empty} w 9 10"),
            0,
            K::Invalid(MorrisPositionError::TooManyMen {
                color: Color::Black,
                count: 10,
                men: 9,
            }),
        ),
    ];
    for (text, field, kind) in cases {
        assert_eq!(
            fen_error(&g, &text),
            MorrisFenError { field, kind },
            "{text}"
        );
    }

    // The no-re-forming memory.
    let twelve = game("twelve_mens_morris");
    let board = board_field(&twelve, "b6 c4 b2", "f4 e4 a1");
    for entry in ["Wz9>a1", "Xb6>b4", "Wb6b4", "Wb6>", "W", ",", "Wb6>b4,"] {
        assert_eq!(
            fen_error(&twelve, &format!("{board} w 0 0 0 {entry}")).kind,
            K::BadMemory(if entry.ends_with(',') { "" } else { entry }.into()),
            "{entry}"
        );
    }
    for (entry, color) in [
        ("Wc3>b4", Color::White),        // no white man on c3
        ("Wb6>c4", Color::White),        // c4 is occupied
        ("Ba1>a4,Wf4>f6", Color::White), // f4 is Black's
        ("Bb6>b4", Color::Black),        // b6 is White's
    ] {
        assert_eq!(
            fen_error(&twelve, &format!("{board} w 0 0 0 {entry}")),
            MorrisFenError {
                field: 0,
                kind: K::Invalid(MorrisPositionError::BadBarrier(color)),
            },
            "{entry}"
        );
    }
    // A memory whose point is no neighbour of its man: no slide left it, and twelve men do not
    // fly.
    assert_eq!(
        fen_error(&twelve, &format!("{board} w 0 0 0 Wb6>g7")),
        MorrisFenError {
            field: 0,
            kind: K::Invalid(MorrisPositionError::FarBarrier(Color::White)),
        }
    );
    // A memory set by hand whose man is off the board is refused, not a panic.
    let (mut pos, _) = twelve.parse_fen(&format!("{board} w 0 0")).unwrap();
    for man in [24, 40, 255] {
        pos.set_barrier(Color::White, Some(super::Barrier { man, point: 3 }));
        assert_eq!(
            twelve.validate(&pos),
            Err(MorrisPositionError::BadBarrier(Color::White)),
            "{man}"
        );
    }
    // With flying, any empty point: a man of a side down to three may have come from anywhere.
    let flying = Morris::new(MorrisRules {
        flying: Some(3),
        ..*twelve.rules()
    })
    .unwrap();
    let (far, _) = flying
        .parse_fen(&format!("{board} w 0 0 0 Wb6>g7"))
        .unwrap();
    assert_eq!(
        far.barrier(Color::White),
        Some(Barrier {
            man: index(&flying, "b6"),
            point: index(&flying, "g7")
        })
    );
    // A memory under rules without no_reforming.
    let board9 = board_field(&g, "b6 c4 b2", "f4 e4 a1");
    assert_eq!(
        fen_error(&g, &format!("{board9} w 6 6 0 Wb6>b4")).kind,
        K::Invalid(MorrisPositionError::BadBarrier(Color::White))
    );

    // Shah's first-mill field.
    let shah = game("shah");
    let full = "WWW/WWB/BBW/BWBBWW/WWB/BBW/BBB";
    for field in ["X", "W!!", "!", "WB", "w?"] {
        assert_eq!(
            fen_error(&shah, &format!("{full} w 0 0 0 - {field}")),
            MorrisFenError {
                field: 7,
                kind: K::BadFirstMill(field.into()),
            }
        );
    }
    let bad_first_mill = MorrisFenError {
        field: 0,
        kind: K::Invalid(MorrisPositionError::BadFirstMill),
    };
    // Under rules without the first-mill opening.
    assert_eq!(
        fen_error(&twelve, &format!("{full} w 0 0 0 - W")),
        bad_first_mill
    );
    // An opening removal while men are in hand, or for the side not to move.
    let almost = "WWW/WWB/BBW/BWBBWW/WW./BBW/BBB";
    assert_eq!(
        fen_error(&shah, &format!("{almost} w 0 1 0 - W!")),
        bad_first_mill
    );
    assert_eq!(
        fen_error(&shah, &format!("{full} b 0 0 0 - W!")),
        bad_first_mill
    );
    assert!(shah.parse_fen(&format!("{full} b 0 0 0 - B!")).is_ok());
    // While placing, the memory agrees with the mills on the board.
    let white_mill = "WWW/.../.../....../.../BB./... b 9 10 0";
    assert!(shah.parse_fen(&format!("{white_mill} - W")).is_ok());
    assert_eq!(
        fen_error(&shah, &format!("{white_mill} - -")).kind,
        K::Invalid(MorrisPositionError::MillWithoutFirstMill(Color::White))
    );
    assert_eq!(
        fen_error(&shah, &format!("{white_mill} - B")).kind,
        K::Invalid(MorrisPositionError::FirstMillWithoutMill(Color::Black))
    );
    assert!(shah.parse_fen(&format!("{full} w 0 0 0 - W!")).is_ok());
    let black_mill_only = "WW./W../.../....../.../.../BBB w 9 9 0";
    assert!(shah.parse_fen(&format!("{black_mill_only} - B")).is_ok());
    assert_eq!(
        fen_error(&shah, &format!("{black_mill_only} - W")).kind,
        K::Invalid(MorrisPositionError::FirstMillWithoutMill(Color::White))
    );
    // Once a side has placed all its men it may slide (in positions set up with the other
    // still placing) and break or form its mills; once moving, the memory is gone.
    assert!(shah
        .parse_fen("WBW/BWB/WBW/BWBWBW/BWB/WBW/BWB w 0 0 0 - W!")
        .is_ok());
    let slid = "W.W/.W./.../....../.../..B/BB. b 1 0 0";
    assert!(shah.parse_fen(&format!("{slid} - -")).is_ok());
    let (pos, _) = shah.parse_fen(&format!("{slid} - -")).unwrap();
    let closing = shah.parse_move(&pos, "f2-g1xa7").unwrap();
    let after = shah.play(&pos, &closing);
    assert_eq!(shah.validate(&after), Ok(()));
    assert!(shah.board().has_mill(after.men(Color::Black)) && after.first_mill().is_none());
    assert_eq!(
        fen_error(&shah, "W.W/.W./.../....../.../.../BBB w 1 1 0 - -").kind,
        K::Invalid(MorrisPositionError::MillWithoutFirstMill(Color::Black))
    );
    assert!(shah.parse_fen(&format!("{full} w 0 0 0 - -")).is_ok());
    // Where placement may move men or take them, a mill may have been broken or formed by a
    // move, and the memory is taken as given.
    let mixed = with("shah", &[("mixed_placement", "true")]);
    assert!(mixed.parse_fen(&format!("{white_mill} - -")).is_ok());
    let taking = with("shah", &[("captures_while_placing", "true")]);
    assert!(taking.parse_fen(&format!("{white_mill} - B")).is_ok());
    assert_eq!(
        fen_error(&taking, &format!("{white_mill} - -")).kind,
        K::Invalid(MorrisPositionError::MillWithoutFirstMill(Color::White))
    );
}

#[test]
fn validate_refuses_overlapping_or_outside_men() {
    let g = game("six_mens_morris");
    let ok =
        MorrisPosition::from_parts_unchecked(Bitboard(0b11), Bitboard(0b1100), 4, 4, Color::White);
    assert_eq!(g.validate(&ok), Ok(()));
    let overlap =
        MorrisPosition::from_parts_unchecked(Bitboard(0b11), Bitboard(0b10), 4, 4, Color::White);
    assert_eq!(g.validate(&overlap), Err(MorrisPositionError::BadMen));
    let outside =
        MorrisPosition::from_parts_unchecked(Bitboard(1 << 16), Bitboard(0b10), 5, 5, Color::White);
    assert_eq!(g.validate(&outside), Err(MorrisPositionError::BadMen));
    let mut barrier = ok;
    barrier.set_barrier(Color::White, Some(Barrier { man: 0, point: 9 }));
    assert_eq!(
        g.validate(&barrier),
        Err(MorrisPositionError::BadBarrier(Color::White))
    );
}

/// The rule sets the unchecked-position test tries: every preset and the variants.
fn every_rule_set() -> Vec<Morris> {
    all_presets().map(|(_, g)| g).chain(variants()).collect()
}

/// Every public function of a game, given a position made unchecked from arbitrary parts
/// (men past the board, on one point, hands of up to 255, memories anywhere), answers
/// without a panic; and [`Morris::position`] makes exactly the positions `validate` allows.
fn exercise_unchecked(game: &Morris, pos: &MorrisPosition) {
    let checked = game.position(
        pos.men(Color::White),
        pos.men(Color::Black),
        pos.in_hand(Color::White),
        pos.in_hand(Color::Black),
        pos.side_to_move(),
    );
    let mut without_memories = *pos;
    without_memories.set_barrier(Color::White, None);
    without_memories.set_barrier(Color::Black, None);
    without_memories.set_first_mill(None, false);
    assert_eq!(
        checked.as_ref().ok(),
        game.validate(&without_memories)
            .ok()
            .map(|()| &without_memories)
    );
    let _ = game.validate(pos);
    let _ = (
        game.outcome(pos),
        game.hash(pos),
        pos.zobrist(),
        game.count_moves(pos),
    );
    let _ = (game.fen(pos, 0), game.diagram(pos), game.svg(pos));
    let _ = (
        game.canonical_memory(pos),
        game.effective_barrier(pos, Color::White),
    );
    let mut moves = super::MorrisMoveList::new();
    game.generate_moves(pos, &mut moves);
    for mv in moves.iter().take(12) {
        let next = game.play(pos, mv);
        let _ = (game.outcome(&next), next.zobrist(), game.count_moves(&next));
        let _ = game.turn_actions(pos, mv);
    }
    game.for_each_turn(pos, |_| {});
    assert_quiet_turns_counted(game, pos);
    // Under its documented preconditions (checked in debug builds).
    let rules = game.rules();
    let memories_of_the_rules = game.validate(pos).is_ok()
        && pos.first_mill().is_none()
        && !pos.opening_removal_pending()
        && (rules.no_reforming || Color::ALL.into_iter().all(|c| pos.barrier(c).is_none()));
    if memories_of_the_rules
        && (!rules.first_mill_opens
            || pos.total_men(Color::White) == pos.men(Color::White).count()
                && pos.in_hand(Color::Black) == 0)
    {
        game.for_each_quiet_predecessor(pos, |_, _| {});
    }
    let stage = Stage::Start;
    for action in game.legal_actions(pos, &stage).into_iter().take(12) {
        let _ = game.legal_action_step(pos, &stage, action);
        let _ = game.apply_action(pos, &stage, action);
        let _ = ActionGame::action_to_string(game, pos, &stage, action);
    }
    let mut words = [0; super::action_words::ACTION_WORDS];
    let _ = game.write_start_actions(pos, &stage, &mut words);
    let len: usize = game.observation_shape().iter().product();
    game.write_observation(pos, &stage, &mut vec![0.0; len]);
    game.write_observation_bytes(pos, &stage, &mut vec![0; len]);
    let _ = GameState::from_position(*game, *pos);
    // Points past every board, in the board's lookups and in moves made by hand.
    let board = game.board();
    let _ = (board.mills_at(200), board.neighbours(200), board.name(200));
    let _ = board.mills_closed_at(200, Bitboard::FULL);
    let _ = board.slide_targets(Bitboard::FULL, Bitboard::FULL);
    let shape = board.shape();
    let mut wild = vec![
        MorrisMove::step(shape, 200, 201),
        MorrisMove::step(shape, 0, 31).taking(Bitboard::FULL),
        MorrisMove::step(shape, 40, 3),
        MorrisMove::remove_only(shape, Bitboard(u32::MAX << 20)),
    ];
    if pos.in_hand(pos.side_to_move()) > 0 {
        wild.push(MorrisMove::place(shape, 200));
        wild.push(MorrisMove::place(shape, 31));
    }
    for mv in &wild {
        let _ = (
            game.play(pos, mv),
            game.turn_actions(pos, mv),
            mv.to_string(),
        );
        let removing = Stage::Removing {
            base: *mv,
            taken: Bitboard(u32::MAX << 28),
        };
        let _ = game.legal_actions(pos, &removing);
        game.write_observation(pos, &removing, &mut vec![0.0; len]);
        game.write_observation_bytes(pos, &removing, &mut vec![0; len]);
    }
    for text in ["a7", "a7-d7", "a7xd7", "d7-a7xg7,g1", "c3"] {
        let _ = game.parse_move(pos, text);
    }
}

/// [`Morris::for_each_turn_counting_quiet`] visits the turns of [`Morris::for_each_turn`] in
/// its order but for quiet ones, and counts exactly those it leaves out.
fn assert_quiet_turns_counted(game: &Morris, pos: &MorrisPosition) -> u32 {
    let mut every = Vec::new();
    game.for_each_turn(pos, |mv| every.push(*mv));
    let mut visited = Vec::new();
    let counted = game.for_each_turn_counting_quiet(pos, |mv| visited.push(*mv));
    let mut left_out = 0;
    let mut next = visited.iter().peekable();
    for mv in &every {
        if next.peek() == Some(&mv) {
            next.next();
        } else {
            assert!(
                matches!(mv.kind(), MoveKind::Move { .. }) && !mv.is_capture(),
                "{mv} left out of {pos:?}, not quiet"
            );
            left_out += 1;
        }
    }
    assert_eq!(
        next.next(),
        None,
        "a turn visited out of order or not legal in {pos:?}"
    );
    assert_eq!(counted, left_out, "{pos:?}");
    counted
}

#[test]
fn quiet_turns_are_counted_exactly() {
    // Random games under every rule set, and each position again with the side to move
    // holding a memory: a man beside the empty point it left.
    let mut counted = 0;
    for (i, game) in every_rule_set().iter().enumerate() {
        for (pos, _) in random_positions(game, 0x7175_6965 + i as u64, 12, 160, 1) {
            counted += assert_quiet_turns_counted(game, &pos);
            let side = pos.side_to_move();
            let empty = game.board().all_points().without(pos.occupied());
            for man in pos.men(side).indices().take(3) {
                for point in (game.board().neighbours(man) & empty).indices().take(2) {
                    let mut with_memory = pos;
                    with_memory.set_barrier(side, Some(Barrier { man, point }));
                    assert_quiet_turns_counted(game, &with_memory);
                }
            }
        }
    }
    // Most positions of the moving phase have quiet turns to count.
    assert!(counted > 10_000, "{counted}");
}

#[test]
fn unchecked_positions_that_once_panicked() {
    // Both colours on every point but four, each empty point on three mills: each turn that
    // closes two mills earns a choice of two of twenty men, more turns than a move list holds.
    let crowded = with(
        "twelve_mens_morris",
        &[("mixed_placement", "true"), ("double_mill", "two")],
    );
    let both = Bitboard(0x7F_7EFE);
    let pos = MorrisPosition::from_parts_unchecked(both, both, 1, 0, Color::White);
    let mut moves = super::MorrisMoveList::new();
    crowded.generate_moves(&pos, &mut moves);
    assert_eq!(
        moves.len(),
        moves.capacity(),
        "the list is full, not overrun"
    );
    exercise_unchecked(&crowded, &pos);
    // A flying man past the 24 points: its actions lie past the action space.
    let nine = game("nine_mens_morris");
    let pos = MorrisPosition::from_parts_unchecked(
        Bitboard(0b11 | 1 << 24),
        Bitboard(0b111 << 21),
        0,
        0,
        Color::White,
    );
    assert!(nine
        .legal_actions(&pos, &Stage::Start)
        .iter()
        .all(|&a| a < nine.action_count()));
    exercise_unchecked(&nine, &pos);
    // A sliding man past the points, and a memory past them.
    let mut pos = MorrisPosition::from_parts_unchecked(
        Bitboard(0b111 | 1 << 24),
        Bitboard(0b111 << 8),
        0,
        0,
        Color::White,
    );
    exercise_unchecked(&nine, &pos);
    // A sliding side's memory of one of its men, pointing past the bits (the shift of the
    // trapped-side test), then one of a man past them.
    pos.set_barrier(Color::White, Some(Barrier { man: 0, point: 32 }));
    exercise_unchecked(&nine, &pos);
    pos.set_barrier(
        Color::White,
        Some(Barrier {
            man: 40,
            point: 200,
        }),
    );
    exercise_unchecked(&with("nine_mens_morris", &[("no_reforming", "true")]), &pos);
    assert_eq!(nine.board().name(24), "?");
    assert_eq!(
        nine.position(Bitboard(0b111 | 1 << 24), Bitboard(0), 0, 0, Color::White),
        Err(MorrisPositionError::BadMen)
    );
}

proptest! {
    #![proptest_config(config(4000))]

    #[test]
    fn unchecked_positions_never_panic(
        rules in 0..every_rule_set().len(),
        white in any::<u32>(),
        black in any::<u32>(),
        hands in any::<(u8, u8)>(),
        white_to_move in any::<bool>(),
        barrier in proptest::option::of(any::<(u8, u8)>()),
        first_mill in proptest::option::of(any::<(bool, bool)>()),
        // Half the time men on the board's points and two bits past them, where most of the
        // rules' tests bite.
        narrow in any::<bool>(),
    ) {
        let game = &every_rule_set()[rules];
        let near_board = game.board().all_points().0 | 0b11 << game.board().point_count();
        let near = |men: u32| if narrow { men & near_board } else { men };
        let side = if white_to_move { Color::White } else { Color::Black };
        let mut pos = MorrisPosition::from_parts_unchecked(Bitboard(near(white)), Bitboard(near(black)), hands.0, hands.1, side);
        exercise_unchecked(game, &pos);
        pos.set_barrier(side, barrier.map(|(man, point)| Barrier { man, point }));
        exercise_unchecked(game, &pos);
        if let Some((white_first, pending)) = first_mill {
            let color = if white_first { Color::White } else { Color::Black };
            pos.set_first_mill(Some(color), pending);
            exercise_unchecked(game, &pos);
        }
    }
}

/// Strings built from the characters position strings and turns use, so that many are nearly
/// valid.
fn fen_like() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[WBwb./ 0-9a-gx>,!\\-]{0,60}").expect("a valid regex")
}

/// Position strings of random games under every preset (the preset's index in
/// `MorrisRules::PRESETS` with each), half of them with one character changed: the parser
/// accepts the unchanged ones, so the round-trip checks run on every other case at least.
fn near_fens() -> impl Strategy<Value = (usize, String, bool)> {
    let fens: Vec<(usize, String)> = all_presets()
        .enumerate()
        .flat_map(|(i, (_, g))| {
            random_positions(&g, 0x6e65_6172 + i as u64, 4, 80, 9)
                .into_iter()
                .map(move |(p, plies)| (i, g.fen(&p, plies)))
        })
        .collect();
    let alphabet: Vec<char> = "WBwb./ 0123456789acdegx>,!-".chars().collect();
    (
        proptest::sample::select(fens),
        any::<proptest::sample::Index>(),
        proptest::sample::select(alphabet),
        any::<bool>(),
    )
        .prop_map(|((preset, fen), at, c, changed)| {
            if !changed {
                return (preset, fen, false);
            }
            let mut chars: Vec<char> = fen.chars().collect();
            let i = at.index(chars.len());
            chars[i] = c;
            (preset, chars.into_iter().collect(), true)
        })
}

fn parser_positions() -> Vec<(Morris, MorrisPosition)> {
    let mut out = Vec::new();
    for (_, g) in all_presets() {
        out.push((g, g.start_position()));
    }
    let g = game("nine_mens_morris");
    out.push((g, at(&g, "a1 b4 c4 g1", "d7 e5 f2 g4", "w 0 0")));
    let g = with("nine_mens_morris", &[("double_mill", "two")]);
    out.push((g, at(&g, "a7 g7 d6 d5", "a1 g1 b4 f4", "w 3 3")));
    let g = game("shah");
    out.push((g, parse(&g, "WWW/WWB/BBW/BWBBWW/WWB/BBW/BBB w 0 0 0 - W!")));
    out.push((g, at(&g, "d7 a4 g4 d1 b6 f6 b2 f2", "a7 g7 a1 g1", "b 0 0")));
    out
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn position_parser_never_panics(text in fen_like()) {
        for (id, g) in all_presets() {
            if let Ok((p, plies)) = g.parse_fen(&text) {
                let canonical = g.fen(&p, plies);
                prop_assert_eq!(g.parse_fen(&canonical), Ok((p, plies)), "{}", id);
                prop_assert_eq!(g.validate(&p), Ok(()));
            }
        }
    }

    #[test]
    fn position_strings_near_real_ones_read_back_canonically(
        (preset, text, changed) in near_fens()
    ) {
        for (i, (id, g)) in all_presets().enumerate() {
            match g.parse_fen(&text) {
                Ok((p, plies)) => {
                    let canonical = g.fen(&p, plies);
                    prop_assert_eq!(g.parse_fen(&canonical), Ok((p, plies)), "{}", id);
                    prop_assert_eq!(g.validate(&p), Ok(()));
                }
                Err(e) => prop_assert!(
                    changed || i != preset,
                    "{} refused its own position {:?}: {}", id, text, e
                ),
            }
        }
    }

    #[test]
    fn position_parser_never_panics_on_any_text(text in ".{0,60}") {
        for (_, g) in all_presets() {
            let _ = g.parse_fen(&text);
        }
    }

    #[test]
    fn move_parser_never_panics(text in fen_like(), any_text in ".{0,20}") {
        for (g, p) in parser_positions() {
            for t in [&text, &any_text] {
                if let Ok(mv) = g.parse_move(&p, t) {
                    prop_assert!(legal(&g, &p).contains(&mv));
                    prop_assert_eq!(g.parse_move(&p, &mv.to_string()), Ok(mv));
                }
            }
        }
    }

    #[test]
    fn actions_never_panic(actions in proptest::collection::vec(any::<usize>(), 1..4)) {
        for (g, p) in parser_positions() {
            let mut stage = Stage::Start;
            for &a in &actions {
                // Small numbers are often legal; large ones never are.
                for action in [a, a % (g.action_count() + 2)] {
                    match g.apply_action(&p, &stage, action) {
                        Ok(ActionStep::Continue(next)) => stage = next,
                        Ok(ActionStep::Done(mv)) => {
                            prop_assert!(legal(&g, &p).contains(&mv));
                            stage = Stage::Start;
                        }
                        Err(e) => {
                            prop_assert_eq!(e.action, action);
                            prop_assert!(!e.legal.contains(&action));
                        }
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 8. Notation
// ---------------------------------------------------------------------------------------------

#[test]
fn parse_move_reads_every_form_of_turn() {
    let g = game("nine_mens_morris");
    let start = g.start_position();
    for text in ["d6", "D6", " d6 "] {
        let mv = g.parse_move(&start, text).unwrap();
        assert_eq!(
            mv.kind(),
            MoveKind::Place {
                to: index(&g, "d6")
            }
        );
        assert_eq!(mv.to_string(), "d6");
    }

    let p = at(&g, "a1 b4 c4 g1", "d7 e5 f2 g4", "w 0 0");
    let slide = g.parse_move(&p, "a1-d1").unwrap();
    assert_eq!(
        slide.kind(),
        MoveKind::Move {
            from: index(&g, "a1"),
            to: index(&g, "d1")
        }
    );
    assert!(!slide.is_capture());
    for text in ["a1-a4xd7", "A1-A4XD7", "a1-A4xD7"] {
        let mv = g.parse_move(&p, text).unwrap();
        assert_eq!(mv.to_string(), "a1-a4xd7");
        assert_eq!(mv.removed(), points(&g, "d7"));
    }
    // Closing a mill without saying which man it takes, when several can be taken.
    assert_eq!(
        g.parse_move(&p, "a1-a4"),
        Err(MorrisMoveError::Ambiguous {
            text: "a1-a4".into(),
            candidates: "a1-a4xd7 a1-a4xe5 a1-a4xg4 a1-a4xf2".into(),
        })
    );
    // A removal that is not legal.
    let Err(MorrisMoveError::Illegal { text, legal: list }) = g.parse_move(&p, "a1-a4xa7") else {
        panic!("a1-a4xa7 should be illegal")
    };
    assert_eq!(text, "a1-a4xa7");
    let mut listed: Vec<String> = list.split(' ').map(str::to_owned).collect();
    listed.sort();
    assert_eq!(listed, turns(&g, &p));

    // Placement with a removal; when only one man can be taken the removal may be left out.
    let p = at(&g, "d7 d5", "a1 d1 g1 b4", "w 5 5");
    assert_eq!(g.parse_move(&p, "d6xb4").unwrap().to_string(), "d6xb4");
    assert_eq!(g.parse_move(&p, "d6").unwrap().to_string(), "d6xb4");
    assert!(matches!(
        g.parse_move(&p, "d6xa1"),
        Err(MorrisMoveError::Illegal { .. })
    ));
    // A turn that closes no mill cannot take.
    assert!(matches!(
        g.parse_move(&p, "a7xb4"),
        Err(MorrisMoveError::Illegal { .. })
    ));

    // Illegal turns list the legal ones.
    let Err(MorrisMoveError::Illegal { legal: list, .. }) = g.parse_move(&start, "a1-a4") else {
        panic!("a slide in placement should be illegal")
    };
    let mut listed: Vec<String> = list.split(' ').map(str::to_owned).collect();
    listed.sort();
    assert_eq!(listed, turns(&g, &start));
    assert!(matches!(
        g.parse_move(&start, "pass"),
        Err(MorrisMoveError::Illegal { .. })
    ));

    // Pass where it is legal.
    let shah = game("shah");
    let trapped = at(&shah, "d7 a4 g4 d1 b6 f6 b2 f2", "a7 g7 a1 g1", "b 0 0");
    for text in ["pass", "PASS", "Pass"] {
        assert_eq!(
            shah.parse_move(&trapped, text).unwrap().kind(),
            MoveKind::Pass
        );
    }
    // Shah's opening removal.
    let opening = parse(&shah, "WWW/WWB/BBW/BWBBWW/WWB/BBW/BBB w 0 0 0 - W!");
    let mv = shah.parse_move(&opening, "xE3").unwrap();
    assert_eq!(mv.to_string(), "xe3");
    assert!(matches!(
        shah.parse_move(&opening, "xa7"),
        Err(MorrisMoveError::Illegal { .. })
    ));
}

#[test]
fn parse_move_reports_syntax_errors() {
    let g = game("nine_mens_morris");
    let start = g.start_position();
    assert_eq!(
        g.parse_move(&start, "  "),
        Err(MorrisMoveError::Parse(ParseMorrisMoveError::Empty))
    );
    for (text, name) in [("h9", "h9"), ("d6-z1", "z1"), ("d6xq", "q"), ("-", "")] {
        match g.parse_move(&start, text) {
            Err(MorrisMoveError::Parse(ParseMorrisMoveError::BadPoint { name: n, points })) => {
                assert_eq!(n, name, "{text}");
                assert!(points.starts_with("a7 d7 g7 b6"), "{points}");
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    for text in ["d6x", "x", "d6xxb4"] {
        assert_eq!(
            g.parse_move(&start, text),
            Err(MorrisMoveError::Parse(ParseMorrisMoveError::Malformed(
                text.into()
            ))),
            "{text}"
        );
    }
    // Points of another board.
    let three = game("three_mens_morris");
    assert!(matches!(
        three.parse_move(&three.start_position(), "d6"),
        Err(MorrisMoveError::Parse(
            ParseMorrisMoveError::BadPoint { .. }
        ))
    ));
    assert_eq!(
        three
            .parse_move(&three.start_position(), "b2")
            .unwrap()
            .to_string(),
        "b2"
    );
}

// ---------------------------------------------------------------------------------------------
// 9. The action space
// ---------------------------------------------------------------------------------------------

#[test]
fn action_counts_follow_the_boards() {
    assert_eq!(game("nine_mens_morris").action_count(), 600);
    assert_eq!(game("twelve_mens_morris").action_count(), 600);
    assert_eq!(game("six_mens_morris").action_count(), 272);
    assert_eq!(game("three_mens_morris").action_count(), 90);
    let g = game("nine_mens_morris");
    assert_eq!(g.pass_action(), 24);
    assert_eq!(g.action_to_string(4), "d6");
    assert_eq!(g.action_to_string(24), "pass");
    assert_eq!(g.action_to_string(24 + 21 * 24 + 9), "a1-a4");
    assert_eq!(g.action_to_string(24 + 5 * 24 + 5), "invalid");
    assert_eq!(g.action_to_string(600), "invalid");
    assert_eq!(
        g.turn_actions(
            &g.start_position(),
            &g.parse_move(&g.start_position(), "d6").unwrap()
        ),
        [4]
    );
}

/// Collects every turn reached by a sequence of legal actions from `stage`.
fn collect_turns(game: &Morris, pos: &MorrisPosition, stage: &Stage, out: &mut Vec<MorrisMove>) {
    let n = game.board().point_count();
    let actions = game.legal_actions(pos, stage);
    if let Stage::Removing { base, taken } = stage {
        assert!(!actions.is_empty(), "a removal stage has a way on");
        let declines = game.rules().capture == Capture::Optional && taken.is_empty();
        assert_eq!(actions.contains(&game.pass_action()), declines, "{stage:?}");
        for &a in actions.iter().filter(|&&a| a != game.pass_action()) {
            assert!(a < n, "{actions:?} are not points");
            assert!(!taken.contains_index(a as u8));
            assert!(pos.men(!pos.side_to_move()).contains_index(a as u8));
        }
        assert!(base.removed().is_empty());
    }
    // The legal actions alone (the fast path) are those offered with their steps, and the step
    // worked out for one action alone is the one found among them all.
    let mut stepped = Vec::new();
    game.for_each_action_step(pos, stage, |a, _| stepped.push(a));
    stepped.sort_unstable();
    stepped.dedup();
    assert_eq!(actions, stepped, "{stage:?}");
    for &a in &actions {
        assert_eq!(
            game.legal_action_step(pos, stage, a),
            game.apply_action(pos, stage, a).ok(),
            "action {a} at {stage:?}"
        );
    }
    for a in actions {
        match game.apply_action(pos, stage, a) {
            Ok(ActionStep::Done(mv)) => out.push(mv),
            Ok(ActionStep::Continue(next)) => {
                assert!(matches!(next, Stage::Removing { .. }));
                collect_turns(game, pos, &next, out);
            }
            Err(e) => panic!("a legal action refused: {e}"),
        }
    }
}

/// Checks the action space of `pos` against its legal turns.
fn check_actions(game: &Morris, pos: &MorrisPosition) {
    let fen = game.fen(pos, 0);
    let mut reached = Vec::new();
    collect_turns(game, pos, &Stage::Start, &mut reached);
    let mut reached: Vec<String> = reached.iter().map(ToString::to_string).collect();
    reached.sort();
    reached.dedup();
    assert_eq!(reached, turns(game, pos), "{fen}");

    for mv in legal(game, pos) {
        let actions = game.turn_actions(pos, &mv);
        let declines = actions.len() > 1 && actions.last() == Some(&game.pass_action());
        assert_eq!(
            actions.len(),
            1 + mv.removed().count() as usize - usize::from(mv.kind() == MoveKind::Remove)
                + usize::from(declines),
            "{mv} in {fen}"
        );
        let mut stage = Stage::Start;
        for (i, &a) in actions.iter().enumerate() {
            assert!(
                game.legal_actions(pos, &stage).contains(&a),
                "{mv} in {fen}"
            );
            match game.apply_action(pos, &stage, a).unwrap() {
                ActionStep::Continue(next) => {
                    assert!(i + 1 < actions.len(), "{mv} in {fen}");
                    stage = next;
                }
                ActionStep::Done(done) => {
                    assert_eq!(i + 1, actions.len(), "{mv} in {fen}");
                    assert_eq!(done, mv, "{fen}");
                }
            }
        }
    }
}

/// Checks that exactly the legal actions at `stage` are accepted.
fn check_refusals(game: &Morris, pos: &MorrisPosition, stage: &Stage) {
    let legal = game.legal_actions(pos, stage);
    for a in 0..game.action_count() + 2 {
        match game.apply_action(pos, stage, a) {
            Ok(_) => assert!(legal.contains(&a), "{a} accepted at {stage:?}"),
            Err(e) => {
                assert!(!legal.contains(&a), "{a} refused at {stage:?}");
                assert_eq!(e.legal, legal);
            }
        }
    }
}

#[test]
fn actions_reach_exactly_the_legal_turns() {
    let games = all_presets().chain(variants().into_iter().map(|g| ("variant", g)));
    for (id, g) in games {
        let positions = random_positions(&g, 0x6163_7469, 12, 300, 2);
        assert!(positions.len() > 10, "{id}");
        for (p, _) in &positions {
            check_actions(&g, p);
        }
    }
    // Double mills, Shah's opening removal and a pass.
    for (g, p) in parser_positions() {
        check_actions(&g, &p);
        check_refusals(&g, &p, &Stage::Start);
    }
}

#[test]
fn actions_of_a_double_mill_take_two_points_in_either_order() {
    let g = with("nine_mens_morris", &[("double_mill", "two")]);
    let p = at(&g, "a7 g7 d6 d5", "a1 d1 g1 b4", "w 3 3");
    let d7 = g.apply_action(&p, &Stage::Start, usize::from(index(&g, "d7")));
    let Ok(ActionStep::Continue(stage)) = d7 else {
        panic!("{d7:?}")
    };
    let names = |actions: Vec<usize>| -> Vec<&str> {
        actions.iter().map(|&a| g.board().name(a as u8)).collect()
    };
    assert_eq!(names(g.legal_actions(&p, &stage)), ["b4", "a1", "d1", "g1"]);
    check_refusals(&g, &p, &stage);
    let a1 = g.apply_action(&p, &stage, usize::from(index(&g, "a1")));
    let Ok(ActionStep::Continue(after_a1)) = a1 else {
        panic!("{a1:?}")
    };
    assert_eq!(names(g.legal_actions(&p, &after_a1)), ["b4"]);
    let done = g.apply_action(&p, &after_a1, usize::from(index(&g, "b4")));
    assert_eq!(
        done.map(|s| match s {
            ActionStep::Done(mv) => mv.to_string(),
            ActionStep::Continue(_) => "unfinished".into(),
        }),
        Ok("d7xb4xa1".into())
    );
}

#[test]
fn actions_refuse_a_man_taken_twice() {
    let g = with("nine_mens_morris", &[("double_mill", "two")]);
    let p = at(&g, "a7 g7 d6 d5", "a1 d1 g1 b4", "w 3 3");
    let Ok(ActionStep::Continue(stage)) =
        g.apply_action(&p, &Stage::Start, usize::from(index(&g, "d7")))
    else {
        panic!("d7 closes two mills")
    };
    let b4 = usize::from(index(&g, "b4"));
    let Ok(ActionStep::Continue(after_b4)) = g.apply_action(&p, &stage, b4) else {
        panic!("b4 can be taken")
    };
    assert!(!g.legal_actions(&p, &after_b4).contains(&b4));
    // b4 is not a legal action here, yet apply_action answers Continue(the same stage).
    assert!(g.apply_action(&p, &after_b4, b4).is_err());
}

// ---------------------------------------------------------------------------------------------
// 10. Random games
// ---------------------------------------------------------------------------------------------

use crate::state::testing::snapshot;

/// Checks one turn: the men it moves, places and takes, and that the result is valid.
fn check_turn(game: &Morris, before: &MorrisPosition, mv: &MorrisMove) {
    let after = game.play(before, mv);
    let fen = game.fen(before, 0);
    assert_eq!(game.validate(&after), Ok(()), "{mv} from {fen}");
    let us = before.side_to_move();
    let them = !us;
    let placed = u32::from(matches!(mv.kind(), MoveKind::Place { .. }));
    assert!(mv.removed().is_subset(before.men(them)), "{mv} from {fen}");
    assert_eq!(
        after.men(us).count(),
        before.men(us).count() + placed,
        "{mv} from {fen}"
    );
    assert_eq!(
        after.men(them).count(),
        before.men(them).count() - mv.removed().count(),
        "{mv} from {fen}"
    );
    assert_eq!(
        u32::from(after.in_hand(us)),
        u32::from(before.in_hand(us)) - placed
    );
    assert_eq!(after.in_hand(them), before.in_hand(them));
    if let Some(to) = mv.to() {
        assert!(!before.occupied().contains_index(to), "{mv} from {fen}");
        assert!(after.men(us).contains_index(to));
    }
    if let Some(from) = mv.from() {
        assert!(before.men(us).contains_index(from), "{mv} from {fen}");
        assert!(!after.occupied().contains_index(from));
    }
    if after.opening_removal_pending() {
        assert_eq!(Some(after.side_to_move()), after.first_mill());
    } else {
        assert_eq!(after.side_to_move(), them, "{mv} from {fen}");
    }
    assert_eq!(game.is_progress(before, mv), placed == 1 || mv.is_capture());
}

/// Plays a random game to its end, checking every invariant at each ply.
fn random_playout(game: &Morris, seed: u64) -> Outcome {
    let limit = game.rules().ply_limit.expect("presets have a ply limit");
    let mut state = GameState::new(*game);
    let mut rng = Rng(crate::SplitMix64::new(seed));
    while !state.is_over() {
        assert!(state.ply() < limit);
        let before = *state.position();
        assert_eq!(game.hash(&before), before.zobrist());
        let moves = state.legal_moves();
        assert!(!moves.is_empty(), "{}", game.fen(&before, 0));
        assert_eq!(game.count_moves(&before), moves.len() as u64);
        for mv in moves.iter() {
            check_turn(game, &before, mv);
        }
        let mv = moves[rng.below(moves.len())];
        let previous = snapshot(&state);
        state.play(&mv).unwrap();
        assert_eq!(
            game.hash_after(&before, game.hash(&before), &mv),
            state.position().zobrist()
        );
        assert_eq!(state.undo(), Some(Some(mv)));
        assert_eq!(snapshot(&state), previous);
        state.play(&mv).unwrap();
    }
    assert!(state.ply() <= limit);
    assert!(state.legal_moves().is_empty());
    state.outcome().expect("the game is over")
}

proptest! {
    #![proptest_config(config(40))]

    #[test]
    fn random_playouts_keep_every_invariant(seed in any::<u64>()) {
        for (id, g) in all_presets() {
            let outcome = random_playout(&g, seed);
            let allowed: &[EndReason] = match id {
                "three_mens_morris" => &[
                    EndReason::Mill,
                    EndReason::NoMoves,
                    EndReason::Repetition,
                    EndReason::MoveRule,
                    EndReason::PlyLimit,
                ],
                "twelve_mens_morris" | "shah" | "morabaraba" => &[
                    EndReason::NoMen,
                    EndReason::NoMoves,
                    EndReason::BoardFull,
                    EndReason::Repetition,
                    EndReason::MoveRule,
                    EndReason::PlyLimit,
                ],
                _ => &[
                    EndReason::NoMen,
                    EndReason::NoMoves,
                    EndReason::Repetition,
                    EndReason::MoveRule,
                    EndReason::PlyLimit,
                ],
            };
            prop_assert!(allowed.contains(&outcome.reason), "{}: {:?}", id, outcome);
        }
        for g in variants() {
            let outcome = random_playout(&g, seed);
            prop_assert!(outcome.reason != EndReason::Adjudication, "{}: {:?}", g.rules(), outcome);
        }
    }
}

#[test]
fn random_nine_mens_morris_games_end_for_documented_reasons() {
    let g = game("nine_mens_morris");
    let mut rng = Rng(crate::SplitMix64::new(0x6e69_6e65));
    let mut reasons = Vec::new();
    for _ in 0..200 {
        let mut state = GameState::new(g);
        while !state.is_over() {
            let moves = state.legal_moves();
            state.play(&moves[rng.below(moves.len())]).unwrap();
        }
        let outcome = state.outcome().unwrap();
        let pos = *state.position();
        let us = pos.side_to_move();
        match outcome.reason {
            EndReason::NoMen => {
                let loser = !outcome.winner.expect("a winner");
                assert!(pos.total_men(loser) < 3);
            }
            EndReason::NoMoves => {
                assert_eq!(outcome.winner, Some(!us));
                assert!(legal(&g, &pos).is_empty());
            }
            EndReason::Repetition => {
                assert_eq!(outcome.winner, None);
                assert!(state.repetitions() >= 3);
            }
            EndReason::MoveRule => {
                assert_eq!(outcome.winner, None);
                assert!(state.no_progress_plies() >= 100);
            }
            EndReason::PlyLimit => {
                assert_eq!(outcome.winner, None);
                assert_eq!(state.ply(), 1000);
            }
            other => panic!("{other:?} cannot end Nine Men's Morris"),
        }
        assert!(state.ply() <= 1000);
        reasons.push(outcome.reason);
    }
    assert_eq!(reasons.len(), 200);
    assert!(reasons.contains(&EndReason::NoMen));
}

#[test]
fn memories_are_one_per_side_and_first_mill_only_while_placing() {
    let twelve = Morris::preset("twelve_mens_morris").unwrap();
    let twice = twelve.parse_fen("W../W../.../....../.../.../... w 0 0 0 Wa7>d7,Wb6>d6 -");
    assert!(matches!(
        twice,
        Err(MorrisFenError {
            field: 6,
            kind: MorrisFenErrorKind::BadMemory(_)
        })
    ));
    let shah = Morris::preset("shah").unwrap();
    let full_board = "WWW/WWB/BBW/BWBBWW/WWB/BBW/BBB w 0 0 0 - W";
    assert!(matches!(
        shah.parse_fen(full_board),
        Err(MorrisFenError {
            kind: MorrisFenErrorKind::Invalid(MorrisPositionError::BadFirstMill),
            ..
        })
    ));
    assert!(shah
        .parse_fen("WWW/.../.../....../.../.../... b 9 12 0 - W")
        .is_ok());
}

/// The legal actions at the start of a turn from the groups equal those of every turn's steps,
/// for every preset and variant, along random games (with and without the no-re-forming
/// memory, flying, passes).
#[test]
fn action_groups_are_the_actions_of_the_turns() {
    use crate::rl::ActionGame;
    use std::collections::BTreeSet;
    let games: Vec<Morris> = all_presets().map(|(_, g)| g).chain(variants()).collect();
    let mut moving = 0;
    for game in games {
        for (pos, _) in random_positions(&game, 41, 30, 200, 1) {
            let stage = super::actions::Stage::Start;
            let mut grouped = BTreeSet::new();
            game.for_each_legal_action_group(&pos, &stage, |first, mut bits| {
                while bits != 0 {
                    grouped.insert(first + bits.trailing_zeros() as usize);
                    bits &= bits - 1;
                }
            });
            let mut stepped = BTreeSet::new();
            game.for_each_action_step(&pos, &stage, |a, _| {
                stepped.insert(a);
            });
            assert_eq!(grouped, stepped, "{}", game.fen(&pos, 0));
            let us = pos.side_to_move();
            moving += usize::from(pos.in_hand(us) == 0);
        }
    }
    assert!(
        moving > 1000,
        "positions of the moving phase seen: {moving}"
    );
}

#[test]
fn zero_flying_is_never_however_it_is_written() {
    for zero in ["0", "00", "never"] {
        let mut rules = MorrisRules::NINE_MENS_MORRIS;
        rules.set("flying", zero).unwrap();
        assert_eq!(rules.flying, None, "{zero:?}");
    }
    let mut rules = MorrisRules::TWELVE_MENS_MORRIS;
    rules.set("flying", "03").unwrap();
    assert_eq!(rules.flying, Some(3));
}
