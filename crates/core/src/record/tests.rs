use super::*;
use crate::checkers::Checkers;
use crate::morris::Morris;
use crate::SplitMix64;

/// A published game (Jordan v Tesheliet, Double Corner Dyke), as the PDN 3.0 examples give
/// it: comments, a repeated tag, move numbers padded with spaces, a double jump written in
/// its short form (`7x23`), and `*` for a game not finished. The Python tests read it too.
const JORDAN_TESHELIET: &str = include_str!("jordan_tesheliet.pdn");

fn moves<G: GameFamily>(state: &GameState<G>) -> Vec<String> {
    state
        .moves()
        .map(|m| m.map_or("--".to_owned(), |m| m.to_string()))
        .collect()
}

#[test]
fn a_published_game_reads_replays_and_round_trips() {
    let game = Checkers::default();
    let records = read_records(&game, JORDAN_TESHELIET).unwrap();
    assert_eq!(records.len(), 1);
    let record = &records[0];
    assert_eq!(record.state.ply(), 48);
    assert_eq!(record.result, RecordResult::Unknown);
    assert_eq!(record.tag("Black"), Some("Jordan,A"));
    assert_eq!(record.tag("Event"), Some("Double Corner Dyke"));
    assert_eq!(record.tag("Result"), Some("1/2-1/2"));
    let played = moves(&record.state);
    assert_eq!(&played[..3], ["9-14", "22-17", "11-15"]);
    // The short form is the whole double jump once played.
    assert_eq!(played[46], "7x16x23");

    let written = write_record(&record.state, &record.tags, Some(record.result));
    assert!(written.starts_with("[Event \"Double Corner Dyke\"]\n[Black \"Jordan,A\"]\n"));
    assert!(written.contains("[Result \"*\"]\n[GameType \"21\"]\n\n1. 9-14 22-17 2. 11-15"));
    assert!(!written.contains("FEN"), "{written}");
    let again = read_records(&game, &written).unwrap();
    assert_eq!(moves(&again[0].state), played);
    assert_eq!(again[0].state.position(), record.state.position());
    // Written again, the text is the same: a fixed point.
    assert_eq!(
        write_record(&again[0].state, &again[0].tags, Some(again[0].result)),
        written
    );
}

#[test]
fn a_setup_with_the_second_player_to_move_numbers_from_one_ellipsis() {
    let game = Checkers::default();
    let (pos, _) = game.read_position("W:WK19,27:B12,K10").unwrap();
    let mut state = GameState::from_position(game, pos);
    let mut rng = SplitMix64::new(4);
    while !state.is_over() && state.ply() < 9 {
        let legal: Vec<_> = state.legal_moves().into_iter().collect();
        state.play(rng.pick(&legal).unwrap()).unwrap();
    }
    let tags = vec![("Event".to_owned(), "a \"quoted\" test".to_owned())];
    let text = write_record(&state, &tags, None);
    assert!(text.contains("[Event \"a \\\"quoted\\\" test\"]"), "{text}");
    assert!(
        text.contains("[SetUp \"1\"]\n[FEN \"W:W27,K19:B12,K10\"]"),
        "{text}"
    );
    let movetext = text.lines().last().unwrap();
    assert!(movetext.starts_with("1... "), "{text}");
    assert!(movetext.contains(" 2. "), "{text}");
    let back = read_records(&game, &text).unwrap();
    assert_eq!(back[0].tag("Event"), Some("a \"quoted\" test"));
    assert_eq!(moves(&back[0].state), moves(&state));
    assert_eq!(back[0].state.origin(), state.origin());
    assert_eq!(back[0].result, RecordResult::of(&state));
}

#[test]
fn many_games_variations_annotations_and_results() {
    let game = Checkers::default();
    let text = "[Event \"one\"]\n1.11-15 23-19 (1... 22-18 {a variation (nested)} 2. 15x22) \
                2. 8-11! $1 22-17?! ; to the end of the line 24-20\n 3. 4-8 1-0\n\n\
                [Event \"two\"]\n1. 11-16 2-0\n[Event \"three\"]\n1. 9-13 21-17 1/2-1/2\n\
                1. 10-14 *";
    let records = read_records(&game, text).unwrap();
    let summary: Vec<(usize, RecordResult)> = records
        .iter()
        .map(|r| (r.state.ply() as usize, r.result))
        .collect();
    assert_eq!(
        summary,
        [
            (5, RecordResult::Win(Color::White)),
            (1, RecordResult::Win(Color::White)),
            (2, RecordResult::Draw),
            (1, RecordResult::Unknown),
        ]
    );
    assert_eq!(
        moves(&records[0].state),
        ["11-15", "23-19", "8-11", "22-17", "4-8"]
    );
    assert!(records[3].tags.is_empty());
}

#[test]
fn bad_records_name_the_game_the_move_and_the_problem() {
    let game = Checkers::default();
    let err = read_records(
        &game,
        "1. 11-15 23-19 2. 15-18 *\n[Event \"b\"]\n1. 11-15 22-17 2. 15-19 17-13 3. 19x26 *",
    )
    .unwrap_err();
    // The first game reads; in the second, White must take 23x16 and cannot play 17-13.
    assert_eq!(err.game, 2);
    match &err.kind {
        RecordErrorKind::BadMove {
            number, side, text, ..
        } => {
            assert_eq!((*number, *side, text.as_str()), (2, Color::White, "17-13"));
        }
        other => panic!("{other:?}"),
    }
    assert!(
        err.to_string()
            .starts_with("game 2: move 2 (white) `17-13`: "),
        "{err}"
    );
    type Expect = fn(&RecordErrorKind) -> bool;
    let cases: [(&str, Expect); 8] = [
        ("[GameType \"20\"]\n1. 32-28 *", |k| {
            matches!(k, RecordErrorKind::OtherGame { .. })
        }),
        // A morris record, and one of no game known, are not read as checkers.
        ("[Game \"nine_mens_morris\"]\n*", |k| {
            matches!(k, RecordErrorKind::OtherGame { .. })
        }),
        ("[Game \"go\"]\n*", |k| {
            matches!(k, RecordErrorKind::OtherGame { .. })
        }),
        ("[Event unquoted]\n*", |k| {
            matches!(k, RecordErrorKind::BadTag(_))
        }),
        ("[Event \"x\"\n*", |k| {
            matches!(k, RecordErrorKind::BadTag(_))
        }),
        ("1. 11-15 {never closed", |k| {
            matches!(k, RecordErrorKind::Unclosed("comment", _))
        }),
        ("1. 11-15 (22-18 *", |k| {
            matches!(k, RecordErrorKind::Unclosed("variation", _))
        }),
        ("[FEN \"B:W33:B1\"]\n*", |k| {
            matches!(k, RecordErrorKind::BadPosition(_))
        }),
    ];
    for (text, expected) in cases {
        let err = read_records(&game, text).unwrap_err();
        assert!(expected(&err.kind), "{text:?}: {err}");
    }
    // A finished game takes no more moves.
    let err = read_records(&game, "[FEN \"B:W18:B\"]\n1. 11-15 *").unwrap_err();
    assert!(err.to_string().contains("the game is over"), "{err}");
}

#[test]
fn commentary_between_games_and_braces_left_open() {
    let game = Checkers::default();
    let count = |text: &str| read_records(&game, text).map(|r| r.len());
    // Comments after a result, before the first tags and between tag pairs start no game.
    assert_eq!(
        count("[Event \"a\"]\n1. 11-15 1-0 {Black resigned}\n"),
        Ok(1)
    );
    assert_eq!(
        count("{header}\n; a line\n[Event \"x\"]\n1. 11-15 *"),
        Ok(1)
    );
    let records = read_records(&game, "[Event \"x\"]\n{c}\n[Site \"y\"]\n1. 11-15 *").unwrap();
    assert_eq!(records.len(), 1);
    assert_eq!(
        (records[0].tag("Event"), records[0].tag("Site")),
        (Some("x"), Some("y"))
    );
    // A brace or parenthesis left open does not swallow the next game: it is refused.
    let open_comment =
        "[Event \"a\"]\n1. 11-15 {oops 23-19 *\n\n[Event \"b\"]\n1. 9-13 {ok} 22-18 *";
    let err = read_records(&game, open_comment).unwrap_err();
    assert!(
        matches!(&err.kind, RecordErrorKind::Unclosed("comment", at) if at.starts_with("{oops")),
        "{err}"
    );
    let open_variation = "[Event \"a\"]\n1. 11-15 (23-19 *\n\n[Event \"b\"]\n1. 9-13 ) 22-18 *";
    let err = read_records(&game, open_variation).unwrap_err();
    assert!(
        matches!(err.kind, RecordErrorKind::Unclosed("variation", _)),
        "{err}"
    );
    // A `;` comment inside a variation: its `)` closes nothing.
    let records = read_records(&game, "1. 11-15 (22-18 ; why not )\n 21-17) 23-19 *").unwrap();
    assert_eq!(moves(&records[0].state), ["11-15", "23-19"]);
    // `...` before the second player's move; the Result tag where the moves give none.
    let records = read_records(&game, "[Result \"1-0\"]\n1. 11-15 ... 23-19").unwrap();
    assert_eq!(moves(&records[0].state), ["11-15", "23-19"]);
    assert_eq!(records[0].result, RecordResult::Win(Color::White));
    // A long bad token is quoted shortened.
    let long = format!("1. {} *", "9".repeat(100_000));
    let err = read_records(&game, &long).unwrap_err().to_string();
    assert!(err.len() < 500, "{}", err.len());
}

#[test]
fn morris_games_round_trip_with_forfeits() {
    for id in [
        "nine_mens_morris",
        "twelve_mens_morris",
        "three_mens_morris",
    ] {
        let game = Morris::preset(id).unwrap();
        let mut state = GameState::new(game);
        let mut rng = SplitMix64::new(7);
        while !state.is_over() && state.ply() < 80 {
            if state.ply() == 5 {
                state.forfeit_turn().unwrap();
                continue;
            }
            let legal: Vec<_> = state.legal_moves().into_iter().collect();
            state.play(rng.pick(&legal).unwrap()).unwrap();
        }
        let text = write_record(&state, &[], None);
        assert!(text.contains(&format!("[Game \"{id}\"]")), "{text}");
        assert!(text.contains(" -- "), "{text}");
        let back = read_records(&game, &text).unwrap();
        assert_eq!(moves(&back[0].state), moves(&state), "{id}");
        assert_eq!(back[0].state.position(), state.position(), "{id}");
        assert_eq!(back[0].result, RecordResult::of(&state));
        // The game's alias names it as well as its id does.
        if id == "nine_mens_morris" {
            let aliased = text.replace("[Game \"nine_mens_morris\"]", "[Game \"Cowboy_Checkers\"]");
            assert_eq!(
                moves(&read_records(&game, &aliased).unwrap()[0].state),
                moves(&state)
            );
        }
        let other = Morris::preset("six_mens_morris").unwrap();
        let err = read_records(&other, &text).unwrap_err();
        assert!(
            matches!(err.kind, RecordErrorKind::OtherGame { .. }),
            "{err}"
        );
    }
}

#[test]
fn a_variant_records_its_rules_and_is_read_only_under_them() {
    use crate::checkers::{Checkers, CheckersRules};
    let basic = Checkers::new(CheckersRules {
        mandatory_capture: false,
        complete_jumps: false,
        ..CheckersRules::default()
    });
    let (pos, _) = basic.read_position("W:W27:B23,14").unwrap();
    let mut state = GameState::from_position(basic, pos);
    let stopped = basic.parse_move(&pos, "27x18").unwrap();
    state.play(&stopped).unwrap();
    let text = write_record(&state, &[], None);
    assert!(
        text.contains("[Rules \"mandatory_capture=false complete_jumps=false\"]"),
        "{text}"
    );
    let read = read_records(&basic, &text).unwrap();
    assert_eq!(moves(&read[0].state), ["27x18"]);
    let err = read_records(&Checkers::default(), &text).unwrap_err();
    assert!(
        err.to_string()
            .contains("load the game with mandatory_capture=false"),
        "{err}"
    );
    // The standard game writes no Rules tag.
    let standard = write_record(&GameState::new(Checkers::default()), &[], None);
    assert!(!standard.contains("[Rules"), "{standard}");
}

#[test]
fn a_rules_tag_setting_one_option_to_two_values_is_refused_by_name() {
    use crate::checkers::{Checkers, CheckersRules};
    let basic = Checkers::new(CheckersRules {
        mandatory_capture: false,
        ..CheckersRules::default()
    });
    let twice = "[Rules \"mandatory_capture=true mandatory_capture=false\"]\n*\n";
    for game in [basic, Checkers::default()] {
        let err = read_records(&game, twice).unwrap_err();
        assert!(
            matches!(err.kind, RecordErrorKind::RepeatedRule(ref name, ..) if name == "mandatory_capture"),
            "{err}"
        );
        assert!(
            err.to_string()
                .contains("`mandatory_capture=true` and `mandatory_capture=false`"),
            "{err}"
        );
    }
    // The same value twice says one thing, and is read.
    let same = "[Rules \"mandatory_capture=false mandatory_capture=FALSE\"]\n*\n";
    assert_eq!(read_records(&basic, same).unwrap().len(), 1);
}

/// Morris rules that are no preset's: named by the nearest preset and the options changed
/// there, read back under those rules only.
#[test]
fn a_morris_variant_names_its_nearest_preset_and_reads_back() {
    let nine = Morris::preset("nine_mens_morris").unwrap();
    let variant = Morris::new(with_ply_limit(*nine.rules(), 200)).unwrap();
    assert_eq!(
        crate::Game::id(&variant),
        "morris",
        "the rules are no preset's"
    );
    let mut state = GameState::new(variant);
    let mut rng = SplitMix64::new(3);
    while !state.is_over() && state.ply() < 30 {
        let legal: Vec<_> = state.legal_moves().into_iter().collect();
        state.play(rng.pick(&legal).unwrap()).unwrap();
    }
    let text = write_record(&state, &[], None);
    assert!(text.contains("[Game \"nine_mens_morris\"]"), "{text}");
    assert!(text.contains("[Rules \"ply_limit=200\"]"), "{text}");
    let back = read_records(&variant, &text).unwrap();
    assert_eq!(moves(&back[0].state), moves(&state));
    // Read as the preset itself, the Rules tag says what differs.
    let err = read_records(&nine, &text).unwrap_err();
    assert!(
        err.to_string()
            .contains("a record of nine_mens_morris with ply_limit=200"),
        "{err}"
    );
    // A record of the preset, read as the variant: the tags leave ply_limit at the preset's.
    let plain = write_record(&GameState::new(nine), &[], None);
    let err = read_records(&variant, &plain).unwrap_err();
    assert_eq!(
        err.to_string(),
        "game 1: a record of nine_mens_morris, read as nine_mens_morris with ply_limit=200",
    );
    // Another option left out of the tag is refused alike.
    let other = Morris::new(with_ply_limit(*nine.rules(), 300)).unwrap();
    assert!(read_records(&other, &text).is_err());
    // Records written before named the family, with every option in the Rules tag.
    let every: Vec<String> = variant
        .settings()
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    let old = text
        .replace("[Game \"nine_mens_morris\"]", "[Game \"morris\"]")
        .replace("ply_limit=200", &every.join(" "));
    let back = read_records(&variant, &old).unwrap();
    assert_eq!(moves(&back[0].state), moves(&state));
    assert!(read_records(&other, &old).is_err());
    // `morris` names no checkers game.
    assert!(read_records(&Checkers::default(), &old).is_err());
    // The old form reads as Nine Men's Morris under its Rules tag: one that leaves options
    // out gives them Nine Men's Morris's values.
    let three = Morris::preset("three_mens_morris").unwrap();
    assert!(read_records(&three, "[Game \"morris\"]\n*").is_err());
    assert!(read_records(&nine, "[Game \"Morris\"]\n*").is_ok());
    let twelve = Morris::preset("twelve_mens_morris").unwrap();
    let twelve_200 = Morris::new(with_ply_limit(*twelve.rules(), 200)).unwrap();
    let short = "[Game \"morris\"]\n[Rules \"ply_limit=200\"]\n*";
    assert!(read_records(&twelve_200, short).is_err());
    assert!(read_records(&variant, short).is_ok());
}

/// A Rules tag's values are compared as the rules read them, and a word without a value is
/// refused as such.
#[test]
fn rules_tag_values_compare_as_the_rules_read_them() {
    let nine = Morris::preset("nine_mens_morris").unwrap();
    let mut rules = *nine.rules();
    rules.flying = None;
    let no_flying = Morris::new(rules).unwrap();
    for written in ["flying=0", "flying=none", "flying=NONE", "flying=off"] {
        let text = format!("[Game \"nine_mens_morris\"]\n[Rules \"{written}\"]\n*");
        assert!(read_records(&no_flying, &text).is_ok(), "{written}");
        let err = read_records(&nine, &text).unwrap_err().to_string();
        assert!(err.contains("load the game with"), "{err}");
    }
    let err = read_records(&nine, "[Rules \"ply_limit\"]\n*").unwrap_err();
    assert!(
        matches!(err.kind, RecordErrorKind::BadTag(ref why) if why.contains("`ply_limit` is not a name=value word")),
        "{err}"
    );
}

/// `rules` with a ply limit.
fn with_ply_limit(mut rules: crate::morris::MorrisRules, plies: u32) -> crate::morris::MorrisRules {
    rules.ply_limit = Some(plies);
    rules
}

/// A variant nearer another preset than the one it was loaded from is named by the nearer.
#[test]
fn a_morris_variant_is_named_by_the_preset_it_differs_from_least() {
    let twelve = Morris::preset("twelve_mens_morris").unwrap();
    let variant = Morris::new(with_ply_limit(*twelve.rules(), 500)).unwrap();
    let text = write_record(&GameState::new(variant), &[], None);
    assert!(text.contains("[Game \"twelve_mens_morris\"]"), "{text}");
    assert!(text.contains("[Rules \"ply_limit=500\"]"), "{text}");
}
