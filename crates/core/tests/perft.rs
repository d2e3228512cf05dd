//! Perft against the published counts in `tests/data/*.perft`.
//!
//! Depths up to 9 run by default; set `PERFT_MAX_DEPTH` to go deeper (the release build checks
//! 12 and beyond with `perfectplay perft`).

use perfectplay_core::checkers::{Checkers, Position};
use perfectplay_core::perft;

struct Case {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn read_cases(text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let (key, value) = line.split_once(' ').expect("key and value");
        match key {
            "id" => cases.push(Case {
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

#[test]
fn checkers_perft_matches_published_counts() {
    let max_depth: u32 = std::env::var("PERFT_MAX_DEPTH")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(9);
    let game = Checkers::default();
    let cases = read_cases(include_str!("data/checkers.perft"));
    assert!(!cases.is_empty());
    for case in cases {
        let pos: Position = case.fen.parse().expect("valid FEN");
        for &(depth, expected) in case.counts.iter().filter(|(d, _)| *d <= max_depth) {
            assert_eq!(
                perft(&game, &pos, depth),
                expected,
                "{} depth {depth}",
                case.id
            );
        }
    }
}
