//! Game records (PDN for checkers, the same layout for morris), as
//! `perfectplay_core::record` reads them.

use perfectplay_core::checkers::{Checkers, CheckersRules};
use perfectplay_core::morris::Morris;
use perfectplay_core::record::{read_records, write_record, Record};
use perfectplay_core::registry::GameFamily;

/// The first byte picks the game: standard checkers, the basic game (captures optional and
/// stopped part way), a morris preset, or a morris preset with one option changed (a ply
/// limit, flying, the no-re-forming memory: records of rules no preset has name their nearest
/// preset); the rest is the text of a record. Every game read writes back to a record that
/// reads as one game with the same start, moves (forfeits included), result and tags (but
/// those the writer sets from the state), and that writes again to the same text.
pub fn records(data: &[u8]) {
    let Some((&selector, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    match selector % 4 {
        0 => round_trips(&Checkers::default(), text),
        1 => round_trips(&basic_checkers(), text),
        2 => round_trips(&crate::morris_game(selector / 4), text),
        _ => {
            // A preset with one option changed: rules no preset has (or, rarely, another
            // preset's), named by their nearest preset when written.
            let mut rules = *crate::morris_game(selector / 4).rules();
            match selector / 24 % 3 {
                0 => rules.ply_limit = Some(200),
                1 => {
                    rules.flying = if rules.flying.is_some() {
                        None
                    } else {
                        Some(3)
                    }
                }
                _ => rules.no_reforming = !rules.no_reforming,
            }
            if let Ok(game) = Morris::new(rules) {
                round_trips(&game, text);
            }
        }
    }
}

/// The Construction Checkers sheet's basic game: captures optional and stopped part way.
fn basic_checkers() -> Checkers {
    Checkers::new(CheckersRules {
        mandatory_capture: false,
        complete_jumps: false,
        ..CheckersRules::default()
    })
}

/// Tags the writer writes from the state, whatever a record said.
const WRITTEN_FROM_THE_STATE: [&str; 6] = ["Result", "FEN", "SetUp", "GameType", "Game", "Rules"];

fn round_trips<G: GameFamily + Clone>(game: &G, text: &str) {
    let Ok(records) = read_records(game, text) else {
        return;
    };
    if !records.is_empty() {
        crate::accepted();
    }
    for record in &records {
        let kept: Vec<(String, String)> = record
            .tags
            .iter()
            .filter(|(name, _)| !WRITTEN_FROM_THE_STATE.contains(&name.as_str()))
            .cloned()
            .collect();
        let written = write_record(&record.state, &kept, Some(record.result));
        let back = read_records(game, &written)
            .unwrap_or_else(|e| panic!("a record written does not read back: {e}\n{written}"));
        assert_eq!(back.len(), 1, "{written}");
        let again = &back[0];
        assert_eq!(plies(again), plies(record), "{written}");
        assert_eq!(again.state.origin(), record.state.origin(), "{written}");
        assert_eq!(again.state.position(), record.state.position(), "{written}");
        assert_eq!(again.result, record.result, "{written}");
        // Written again, the same text: nothing drifts between writes.
        let rewritten = write_record(&again.state, &kept, Some(again.result));
        assert_eq!(rewritten, written);
        let again_kept: Vec<&(String, String)> = again
            .tags
            .iter()
            .filter(|(name, _)| !WRITTEN_FROM_THE_STATE.contains(&name.as_str()))
            .collect();
        assert_eq!(again_kept, kept.iter().collect::<Vec<_>>(), "{written}");
    }
}

/// The plies of a record's game: each move's notation, `None` for a forfeited turn.
fn plies<G: GameFamily>(record: &Record<G>) -> Vec<Option<String>> {
    record
        .state
        .moves()
        .map(|mv| mv.map(|m| m.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records of each kind of game that read, and so go through every check.
    #[test]
    fn records_of_each_game_round_trip() {
        let cases: [(u8, &str); 4] = [
            (
                0,
                "[Event \"a \\\"quoted\\\" name\"]\n1. 11-15 23-19 2. 8-11 -- 3. 9-13 *",
            ),
            (1, "1. 11-15 24-20 2. 15-19 *"),
            (
                2,
                "[Game \"nine_mens_morris\"]\n1. d6 d7 2. -- a1 {a note} (2... a7) *",
            ),
            (
                3,
                "[Game \"nine_mens_morris\"]\n[Rules \"ply_limit=200\"]\n1. d6 *",
            ),
        ];
        for (selector, text) in cases {
            let read = match selector {
                0 => read_records(&Checkers::default(), text).map(|r| r.len()),
                1 => read_records(&basic_checkers(), text).map(|r| r.len()),
                2 => read_records(&crate::morris_game(0), text).map(|r| r.len()),
                _ => {
                    let mut rules = *crate::morris_game(0).rules();
                    rules.ply_limit = Some(200);
                    read_records(&Morris::new(rules).unwrap(), text).map(|r| r.len())
                }
            };
            assert_eq!(read, Ok(1), "{text}");
            let mut data = vec![selector];
            data.extend_from_slice(text.as_bytes());
            records(&data);
        }
    }
}
