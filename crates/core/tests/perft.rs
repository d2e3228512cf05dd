//! Perft against the published and cross-checked counts in `tests/data/*.perft`.
//!
//! Counts up to 10 million leaves run by default; set `PERFT_MAX_LEAVES` to go further (the
//! release build checks checkers perft 12 and beyond with `perfectplay perft`).

use perfectplay_core::checkers::{Checkers, CheckersPosition};
use perfectplay_core::morris::Morris;
use perfectplay_core::{perft, Game};

struct Case {
    game: String,
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn read_cases(text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut game = "checkers".to_owned();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (key, value) = line.split_once(' ').expect("key and value");
        match key {
            "game" => game = value.into(),
            "id" => cases.push(Case {
                game: game.clone(),
                id: value.into(),
                fen: String::new(),
                counts: vec![],
            }),
            "fen" => cases.last_mut().expect("id first").fen = value.into(),
            "perft" => {
                let (d, n) = value.split_once(' ').expect("depth and count");
                let case = cases.last_mut().expect("id first");
                case.counts.push((d.parse().unwrap(), n.parse().unwrap()));
            }
            other => panic!("unknown key {other}"),
        }
    }
    cases
}

fn max_leaves() -> u64 {
    std::env::var("PERFT_MAX_LEAVES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000_000)
}

/// Checks every count of `case` up to the leaf budget from `pos`.
fn check<G: Game>(game: &G, pos: &G::Position, case: &Case) {
    for &(depth, expected) in case.counts.iter().filter(|(_, n)| *n <= max_leaves()) {
        assert_eq!(
            perft(game, pos, depth),
            expected,
            "{} depth {depth}",
            case.id
        );
    }
}

#[test]
fn checkers_perft_matches_published_counts() {
    let game = Checkers::default();
    let cases = read_cases(include_str!("data/checkers.perft"));
    assert!(!cases.is_empty());
    for case in cases {
        assert_eq!(case.game, "checkers");
        let pos: CheckersPosition = case.fen.parse().expect("valid FEN");
        check(&game, &pos, &case);
    }
}

#[test]
fn morris_perft_matches_published_and_cross_checked_counts() {
    let cases = read_cases(include_str!("data/morris.perft"));
    assert_eq!(cases.len(), 3);
    for case in cases {
        let game = Morris::preset(&case.game).expect("a preset");
        let (pos, _) = game.parse_fen(&case.fen).expect("a valid position");
        check(&game, &pos, &case);
    }
}
