//! The placement-phase search against whole-game retrograde solutions.

use std::collections::HashSet;

use perfectplay_core::morris::{Morris, MorrisPosition};
use perfectplay_core::Game;
use perfectplay_solver::morris::{MorrisDomain, PlacementSearch};
use perfectplay_solver::{solve, Domain, ProbeError, SolveError, SolveOptions, Tablebase, Wdl};

fn domain(id: &str) -> MorrisDomain {
    MorrisDomain::new(Morris::preset(id).unwrap()).unwrap()
}

/// Every position with men in hand reachable from the start.
fn placement_positions(game: &Morris) -> Vec<MorrisPosition> {
    let mut seen = HashSet::new();
    let mut stack = vec![game.start_position()];
    let mut found = Vec::new();
    while let Some(pos) = stack.pop() {
        let us = pos.side_to_move();
        if pos.in_hand(us) == 0 && pos.in_hand(!us) == 0 || !seen.insert(pos) {
            continue;
        }
        found.push(pos);
        if game.outcome(&pos).is_none() {
            game.for_each_move(&pos, |mv| stack.push(game.play(&pos, mv)));
        }
    }
    found
}

/// Three Men's Morris solved whole into a new directory (kept while it lives), and its tables.
fn three_mens_morris_tables() -> (tempfile::TempDir, Tablebase<MorrisDomain>) {
    let dir = tempfile::tempdir().unwrap();
    let d = domain("three_mens_morris");
    let start = d.start_key();
    solve(d, dir.path(), &[start], &SolveOptions::default()).unwrap();
    let tb = Tablebase::open(domain("three_mens_morris"), dir.path()).unwrap();
    (dir, tb)
}

#[test]
fn three_mens_morris_search_agrees_with_the_whole_game_tables_everywhere() {
    let (_dir, tb) = three_mens_morris_tables();
    let search = PlacementSearch::new(&tb, 12).unwrap();
    let game = tb.domain().game();
    assert_eq!(search.value(&game.start_position()).unwrap(), Wdl::Win);
    let positions = placement_positions(game);
    assert!(positions.len() > 1000, "{}", positions.len());
    for pos in &positions {
        let expected = tb.probe(pos).unwrap().wdl;
        assert_eq!(search.value(pos).unwrap(), expected, "{pos:?}");
    }
    let stats = search.stats();
    assert!(stats.table_hits > 0 && stats.probes > 0, "{stats:?}");
    // The centre is the only winning first placement (the README's line starts there).
    let moves = search.move_values(&game.start_position()).unwrap();
    let wins: Vec<String> = moves
        .iter()
        .filter(|(_, w)| *w == Wdl::Win)
        .map(|(mv, _)| mv.to_string())
        .collect();
    assert_eq!(wins, vec!["b2".to_owned()]);
}

/// The way Twelve Men's Morris is built (its moving phase WDL-only and compressed, no-re-forming
/// memories included, then the placement phase searched on it), checked against a whole-game
/// build with distances: its rules on the nine-point board with four men a side.
#[test]
fn twelve_mens_morris_rules_search_on_wdl_only_compressed_tables_agrees_with_the_whole_game() {
    let mut rules = *Morris::preset("twelve_mens_morris").unwrap().rules();
    rules.board = perfectplay_core::morris::BoardShape::Nine;
    rules.men = 4;
    let game = Morris::new(rules).unwrap();
    let domain = || MorrisDomain::new(game).unwrap();
    let whole = tempfile::tempdir().unwrap();
    solve(
        domain(),
        whole.path(),
        &[domain().start_key()],
        &SolveOptions::default(),
    )
    .unwrap();
    let moving = tempfile::tempdir().unwrap();
    let keys = domain().moving_keys(rules.men);
    let options = SolveOptions {
        wdl_only: true,
        compress: true,
        ..SolveOptions::default()
    };
    let report = solve(domain(), moving.path(), &keys, &options).unwrap();
    assert!(
        report.subspaces.iter().any(|s| s.subspace.contains("-b")),
        "memories are built"
    );
    let tb = Tablebase::open(domain(), whole.path()).unwrap();
    let on_moving = Tablebase::open(domain(), moving.path()).unwrap();
    let search = PlacementSearch::new(&on_moving, 16).unwrap();
    let positions = placement_positions(&game);
    assert!(positions.len() > 1000, "{}", positions.len());
    let mut results = HashSet::new();
    for pos in &positions {
        let expected = tb.probe(pos).unwrap().wdl;
        results.insert(expected);
        assert_eq!(search.value(pos).unwrap(), expected, "{pos:?}");
    }
    assert!(
        results.contains(&Wdl::Win) && results.contains(&Wdl::Loss),
        "{results:?}"
    );
}

#[test]
fn six_mens_morris_placement_on_the_moving_tables_is_a_draw() {
    let dir = tempfile::tempdir().unwrap();
    let d = domain("six_mens_morris");
    let keys = d.moving_keys(6);
    solve(d, dir.path(), &keys, &SolveOptions::default()).unwrap();
    let tb = Tablebase::open(domain("six_mens_morris"), dir.path()).unwrap();
    let search = PlacementSearch::new(&tb, 20).unwrap();
    let start = tb.domain().game().start_position();
    // The whole-game retrograde solution (README) finds the start a draw too.
    assert_eq!(search.value(&start).unwrap(), Wdl::Draw);
    // Workers sharing the table, each with a fresh table so that none reads the answer.
    for threads in [2, 3] {
        let parallel = PlacementSearch::new(&tb, 20).unwrap();
        assert_eq!(
            parallel.value_with_threads(&start, threads).unwrap(),
            Wdl::Draw
        );
    }
}

#[test]
fn a_position_the_rules_refuse_is_refused_not_searched() {
    let (_dir, tb) = three_mens_morris_tables();
    let search = PlacementSearch::new(&tb, 10).unwrap();
    use perfectplay_core::{Bitboard, Color};
    // Twenty men in hand, where the rules have three; men on one point; a man off the board.
    for pos in [
        MorrisPosition::from_parts_unchecked(Bitboard::EMPTY, Bitboard::EMPTY, 20, 3, Color::White),
        MorrisPosition::from_parts_unchecked(Bitboard(1), Bitboard(1), 2, 2, Color::White),
        MorrisPosition::from_parts_unchecked(
            Bitboard(1 << 12),
            Bitboard::EMPTY,
            2,
            3,
            Color::White,
        ),
    ] {
        let err = search.value(&pos).unwrap_err();
        assert!(
            err.to_string().contains("not a position of these rules"),
            "{err}"
        );
        assert!(search.move_values(&pos).is_err());
        // The tables' own queries refuse it too, rather than value the position it ranks as.
        let refused = |r: Result<(), ProbeError>| {
            assert!(matches!(r, Err(ProbeError::NotAPosition(_))), "{r:?}")
        };
        refused(tb.move_values(&pos).map(drop));
        refused(tb.best_moves(&pos).map(drop));
        refused(tb.principal_variation(&pos, 10).map(drop));
    }
    assert_eq!(search.stats().nodes, 0, "nothing was searched");
    // A probe makes the board's check only: men on one point or off the board.
    for pos in [
        MorrisPosition::from_parts_unchecked(Bitboard(1), Bitboard(1), 0, 0, Color::White),
        MorrisPosition::from_parts_unchecked(
            Bitboard(0b11 | 1 << 12),
            Bitboard(0b111 << 3),
            0,
            0,
            Color::White,
        ),
    ] {
        for answer in [
            tb.probe(&pos).map(drop),
            tb.get(&pos).map(drop),
            tb.probe_batch(&[pos, pos]).remove(1).map(drop),
        ] {
            assert!(
                matches!(answer, Err(ProbeError::NotAPosition(_))),
                "{answer:?}"
            );
        }
    }
}

#[test]
fn parallel_workers_agree_with_the_whole_game_tables_everywhere() {
    let dir = tempfile::tempdir().unwrap();
    let d = domain("three_mens_morris");
    let start = d.start_key();
    solve(d, dir.path(), &[start], &SolveOptions::default()).unwrap();
    let tb = Tablebase::open(domain("three_mens_morris"), dir.path()).unwrap();
    let game = tb.domain().game();
    for pos in &placement_positions(game) {
        // A fresh, tiny table each time: collisions and races both get exercised.
        let search = PlacementSearch::new(&tb, 6).unwrap();
        let expected = tb.probe(pos).unwrap().wdl;
        assert_eq!(
            search.value_with_threads(pos, 3).unwrap(),
            expected,
            "{pos:?}"
        );
    }
}

#[test]
fn rules_whose_placement_can_repeat_are_refused() {
    let tb = Tablebase::new(domain("lasker_morris"));
    assert!(matches!(
        PlacementSearch::new(&tb, 10),
        Err(SolveError::Unsupported(_))
    ));
}

#[test]
fn six_mens_morris_search_agrees_with_the_whole_game_tables_on_sampled_positions() {
    // Six placements a side and removals: deep enough for the transposition cutoffs and the
    // two entries a bucket to matter, with a small table so that entries collide.
    let dir = tempfile::tempdir().unwrap();
    let d = domain("six_mens_morris");
    let start = d.start_key();
    solve(d, dir.path(), &[start], &SolveOptions::default()).unwrap();
    let tb = Tablebase::open(domain("six_mens_morris"), dir.path()).unwrap();
    let game = tb.domain().game();
    let positions = placement_positions(game);
    let search = PlacementSearch::new(&tb, 10).unwrap();
    let mut checked = 0;
    for pos in positions.iter().step_by(positions.len() / 400 + 1) {
        let expected = tb.probe(pos).unwrap().wdl;
        assert_eq!(search.value(pos).unwrap(), expected, "{pos:?}");
        checked += 1;
    }
    assert!(checked >= 300, "{checked}");
    // A table saved and read back at another size goes on giving the same values.
    let saved = dir.path().join("search.tt");
    search
        .save_table(
            &saved,
            &perfectplay_solver::morris::SearchHistory::default(),
        )
        .unwrap();
    let bigger = PlacementSearch::new(&tb, 14).unwrap();
    bigger.load_table(&saved).unwrap();
    assert!(bigger.table_entries_used() > 0);
    for pos in positions.iter().step_by(positions.len() / 200 + 1) {
        assert_eq!(bigger.value(pos).unwrap(), tb.probe(pos).unwrap().wdl);
    }
}
