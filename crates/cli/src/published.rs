//! The published perft counts, embedded from the core's test data.
//!
//! The checkers file lists cases as `id NAME`, `fen FEN` and `perft DEPTH COUNT` lines; `#`
//! starts a comment. `perft --check` compares against the case whose FEN is the position
//! searched. The morris file is JSON; its only published counts are those of Nine Men's Morris
//! from the empty board (`nine_mens_morris.perft_start.counts`).

use perfectplay_core::checkers::{Checkers, CheckersPosition};
use perfectplay_core::morris::{Morris, MorrisPosition, MorrisRules};
use perfectplay_core::Game;

/// The data file shared with the core's checkers perft tests.
const CHECKERS_PERFT: &str = include_str!("../../core/tests/data/checkers.perft");

/// The published figures of the morris family, shared with the core's tests.
const MORRIS_DATA: &str = include_str!("../../core/tests/data/morris.json");

/// The published counts for one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PublishedCounts {
    /// `(depth, leaf count)` pairs, as listed.
    counts: Vec<(u32, u64)>,
}

impl PublishedCounts {
    /// The published count at `depth`, if the table reaches it.
    pub(crate) fn get(&self, depth: u32) -> Option<u64> {
        self.counts
            .iter()
            .find(|&&(d, _)| d == depth)
            .map(|&(_, n)| n)
    }

    /// The deepest published depth (0 for an empty table).
    pub(crate) fn max_depth(&self) -> u32 {
        self.counts.iter().map(|&(d, _)| d).max().unwrap_or(0)
    }
}

/// The published counts for `pos` under `game`'s rules, if the data lists it: counted with the
/// standard captures. Who moves first is in the position, and the draw rules end games by
/// their history only, which perft does not count.
pub(crate) fn checkers_counts(game: &Checkers, pos: &CheckersPosition) -> Option<PublishedCounts> {
    let rules = game.rules();
    if !(rules.mandatory_capture && rules.complete_jumps) {
        return None;
    }
    cases(CHECKERS_PERFT)
        .into_iter()
        .find(|(fen, _)| fen.parse::<CheckersPosition>().is_ok_and(|p| p == *pos))
        .map(|(_, counts)| counts)
}

/// The published counts for `pos` under `game`'s rules: those of Nine Men's Morris from the
/// empty board. Rules that only end games by their history (repetition, the move rule, the ply
/// limit) do not change perft, so they may differ.
pub(crate) fn morris_counts(game: &Morris, pos: &MorrisPosition) -> Option<PublishedCounts> {
    let move_rules = |r: &MorrisRules| MorrisRules {
        threefold_repetition: false,
        move_rule: None,
        ply_limit: None,
        ..*r
    };
    let nine = MorrisRules::NINE_MENS_MORRIS;
    if move_rules(game.rules()) != move_rules(&nine) || *pos != game.start_position() {
        return None;
    }
    json_counts(MORRIS_DATA, "nine_mens_morris")
}

/// Reads the `"counts": {"1": 24, ...}` object that follows `"perft_start"` in the section of
/// `game`, with just enough JSON for the data file; `None` if it is not there.
fn json_counts(text: &str, game: &str) -> Option<PublishedCounts> {
    let section = &text[text.find(&format!("\"{game}\""))?..];
    counts_after(section, "perft_start")
}

/// The `"counts": {"1": 24, ...}` object that first follows the key `key` in `text`.
fn counts_after(text: &str, key: &str) -> Option<PublishedCounts> {
    let start = &text[text.find(&format!("\"{key}\""))?..];
    let counts = &start[start.find("\"counts\"")?..];
    let body = &counts[counts.find('{')? + 1..counts.find('}')?];
    let counts = body
        .split(',')
        .map(|pair| {
            let (depth, count) = pair.split_once(':')?;
            let depth = depth.trim().trim_matches('"').parse().ok()?;
            Some((depth, count.trim().parse().ok()?))
        })
        .collect::<Option<Vec<(u32, u64)>>>()?;
    Some(PublishedCounts { counts })
}

/// Reads every case as `(FEN, counts)`; lines that do not fit the format are skipped.
fn cases(text: &str) -> Vec<(String, PublishedCounts)> {
    let mut cases: Vec<(String, PublishedCounts)> = Vec::new();
    for line in text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
    {
        let Some((key, value)) = line.split_once(' ') else {
            continue;
        };
        match key {
            "id" => cases.push((String::new(), PublishedCounts { counts: Vec::new() })),
            "fen" => {
                if let Some(case) = cases.last_mut() {
                    case.0 = value.trim().to_owned();
                }
            }
            "perft" => {
                let parsed = value
                    .split_once(' ')
                    .and_then(|(d, n)| Some((d.trim().parse().ok()?, n.trim().parse().ok()?)));
                if let (Some(case), Some(pair)) = (cases.last_mut(), parsed) {
                    case.1.counts.push(pair);
                }
            }
            _ => {}
        }
    }
    cases
}

#[cfg(test)]
mod tests {
    use perfectplay_core::checkers::Checkers;

    use super::*;

    #[test]
    fn start_position_has_depths_one_to_sixteen() {
        let start = Checkers::default().start_position();
        let counts =
            checkers_counts(&Checkers::default(), &start).expect("the start position is listed");
        assert_eq!(counts.max_depth(), 16);
        assert_eq!(counts.get(1), Some(7));
        assert_eq!(counts.get(5), Some(7361));
        assert_eq!(counts.get(12), Some(388_623_673));
        assert_eq!(counts.get(16), Some(165_629_569_428));
        assert_eq!(counts.get(17), None);
    }

    #[test]
    fn other_positions_have_none() {
        let pos: CheckersPosition = "W:W27:B18,10".parse().unwrap();
        assert_eq!(checkers_counts(&Checkers::default(), &pos), None);
    }

    #[test]
    fn other_captures_have_none() {
        use perfectplay_core::checkers::CheckersRules;
        for (mandatory_capture, complete_jumps) in [(false, true), (true, false)] {
            let game = Checkers::new(CheckersRules {
                mandatory_capture,
                complete_jumps,
                ..CheckersRules::default()
            });
            assert_eq!(checkers_counts(&game, &game.start_position()), None);
        }
    }

    #[test]
    fn malformed_lines_are_skipped() {
        let text = "# comment\nid a\nfen B:W21-32:B1-12\nperft 1 7\nperft x 3\nperft 2\nid b\n";
        let parsed = cases(text);
        assert_eq!(parsed.len(), 2);
        assert_eq!(parsed[0].1.counts, vec![(1, 7)]);
        assert_eq!(parsed[1].1.max_depth(), 0);
    }

    #[test]
    fn nine_mens_morris_from_the_empty_board() {
        let game = Morris::preset("cowboy_checkers").unwrap();
        let start = game.start_position();
        let counts = morris_counts(&game, &start).expect("the empty board is listed");
        assert_eq!(counts.max_depth(), 4);
        assert_eq!(
            (1..=4).map(|d| counts.get(d).unwrap()).collect::<Vec<_>>(),
            [24, 552, 12_144, 255_024]
        );
        let mut rules = MorrisRules::NINE_MENS_MORRIS;
        rules.ply_limit = None;
        rules.move_rule = Some(10);
        let unlimited = Morris::new(rules).unwrap();
        assert!(morris_counts(&unlimited, &start).is_some());
    }

    /// The published figures of checkers, as the reference lists them (a copy, read by tests).
    const CHECKERS_DATA: &str = include_str!("../../core/tests/data/checkers.json");

    #[test]
    fn the_figures_typed_out_agree_with_the_reference() {
        // The perft cases and the solver's arrangement counts are written apart from the
        // reference's copy: all agree, so that no check compares with a mistyped figure.
        let start = Checkers::default().start_position();
        let perft = checkers_counts(&Checkers::default(), &start).unwrap();
        assert_eq!(Some(perft), counts_after(CHECKERS_DATA, "perft_start"));
        let arrangements = counts_after(CHECKERS_DATA, "positions_by_piece_count").unwrap();
        let typed: Vec<(u32, u64)> = (1..)
            .zip(perfectplay_solver::checkers::PUBLISHED_ARRANGEMENTS)
            .collect();
        assert_eq!(arrangements.counts, typed);
        assert_eq!(typed.len(), 10);
    }

    #[test]
    fn other_morris_games_and_positions_have_none() {
        let game = Morris::preset("nine_mens_morris").unwrap();
        let (pos, _) = game
            .parse_fen("W.B/.../.../....../.../.../... w 8 8")
            .unwrap();
        assert_eq!(morris_counts(&game, &pos), None);
        for id in ["twelve_mens_morris", "lasker_morris", "three_mens_morris"] {
            let other = Morris::preset(id).unwrap();
            assert_eq!(morris_counts(&other, &other.start_position()), None, "{id}");
        }
        assert_eq!(json_counts(MORRIS_DATA, "morabaraba"), None);
        assert_eq!(
            json_counts("{\"x\": {\"perft_start\": {\"counts\": {\"1\": y}}}}", "x"),
            None
        );
    }
}
