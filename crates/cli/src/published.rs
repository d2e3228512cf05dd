//! The published checkers perft counts, embedded from the core's test data.
//!
//! The file lists cases as `id NAME`, `fen FEN` and `perft DEPTH COUNT` lines; `#` starts a
//! comment. `perft --check` compares against the case whose FEN is the position searched.

use perfectplay_core::checkers::Position;

/// The data file shared with the core's perft tests.
const CHECKERS_PERFT: &str = include_str!("../../core/tests/data/checkers.perft");

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

/// The published counts for `pos`, if the data lists it.
pub(crate) fn checkers_counts(pos: &Position) -> Option<PublishedCounts> {
    cases(CHECKERS_PERFT)
        .into_iter()
        .find(|(fen, _)| fen.parse::<Position>().is_ok_and(|p| p == *pos))
        .map(|(_, counts)| counts)
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
    use perfectplay_core::Game;

    use super::*;

    #[test]
    fn start_position_has_depths_one_to_sixteen() {
        let start = Checkers::default().start_position();
        let counts = checkers_counts(&start).expect("the start position is listed");
        assert_eq!(counts.max_depth(), 16);
        assert_eq!(counts.get(1), Some(7));
        assert_eq!(counts.get(5), Some(7361));
        assert_eq!(counts.get(12), Some(388_623_673));
        assert_eq!(counts.get(16), Some(165_629_569_428));
        assert_eq!(counts.get(17), None);
    }

    #[test]
    fn other_positions_have_none() {
        let pos: Position = "W:W27:B18,10".parse().unwrap();
        assert_eq!(checkers_counts(&pos), None);
    }

    #[test]
    fn malformed_lines_are_skipped() {
        let text = "# comment\nid a\nfen B:W21-32:B1-12\nperft 1 7\nperft x 3\nperft 2\nid b\n";
        let parsed = cases(text);
        assert_eq!(parsed.len(), 2);
        assert_eq!(parsed[0].1.counts, vec![(1, 7)]);
        assert_eq!(parsed[1].1.max_depth(), 0);
    }
}
