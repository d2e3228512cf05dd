//! Checkers databases up to three pieces solved from scratch, checked against a plain
//! reference solver over every position, verified, and rebuilt with other thread counts.

use std::collections::HashMap;

use perfectplay_core::checkers::{Checkers, CheckersPosition};
use perfectplay_core::{Bitboard, Color, Game};
use perfectplay_solver::checkers::{CheckersDomain, CheckersKey};
use perfectplay_solver::{solve, verify, Domain, ProbeError, SolveOptions, Tablebase, Value, Wdl};

fn domain() -> CheckersDomain {
    CheckersDomain::new(Checkers::default())
}

/// Every position with `2..=max` pieces, both sides with at least one and either to move,
/// made square by square without the databases' index.
fn all_positions(max: u32) -> Vec<CheckersPosition> {
    let mut out = Vec::new();
    fn place(from: u32, left: u32, parts: [u32; 4], out: &mut Vec<CheckersPosition>) {
        let [bm, bk, wm, wk] = parts;
        if (bm | bk) != 0 && (wm | wk) != 0 {
            for side in [Color::Black, Color::White] {
                if let Ok(p) = CheckersPosition::from_parts(
                    Bitboard(bm | bk),
                    Bitboard(wm | wk),
                    Bitboard(bk | wk),
                    side,
                ) {
                    out.push(p);
                }
            }
        }
        if left == 0 {
            return;
        }
        for sq in from..32 {
            for kind in 0..4 {
                let mut next = parts;
                next[kind] |= 1 << sq;
                place(sq + 1, left - 1, next, out);
            }
        }
    }
    place(0, max, [0; 4], &mut out);
    out
}

/// Values by rounds: lost in 0 with no move; won in `d` with a successor lost in `d - 1`;
/// lost in `d` when every successor is won and the longest in `d - 1`; the rest drawn.
fn reference(game: &Checkers, positions: &[CheckersPosition]) -> Vec<Value> {
    let at: HashMap<CheckersPosition, usize> =
        positions.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    // Successors: an index, or `None` for a finished position (lost for its mover in 0).
    let successors: Vec<Vec<Option<usize>>> = positions
        .iter()
        .map(|p| {
            let mut s = Vec::new();
            game.for_each_move(p, |mv| {
                let next = game.play(p, mv);
                s.push(if game.outcome(&next).is_some() {
                    None
                } else {
                    Some(at[&next])
                });
            });
            s
        })
        .collect();
    let mut value: Vec<Option<Value>> = positions
        .iter()
        .map(|p| {
            game.outcome(p).map(|_| Value {
                wdl: Wdl::Loss,
                plies: Some(0),
            })
        })
        .collect();
    let mut quiet_rounds = 0;
    let mut d = 1;
    while quiet_rounds < 2 {
        let mut changed = false;
        let before = value.clone();
        for (i, succ) in successors.iter().enumerate() {
            if before[i].is_some() || succ.is_empty() {
                continue;
            }
            let values: Vec<Option<Value>> = succ
                .iter()
                .map(|s| match s {
                    None => Some(Value {
                        wdl: Wdl::Loss,
                        plies: Some(0),
                    }),
                    Some(j) => before[*j],
                })
                .collect();
            let wins = values
                .iter()
                .any(|v| matches!(v, Some(v) if v.wdl == Wdl::Loss && v.plies == Some(d - 1)));
            let all_won = values
                .iter()
                .all(|v| matches!(v, Some(v) if v.wdl == Wdl::Win));
            let longest = values.iter().filter_map(|v| v.and_then(|v| v.plies)).max();
            if wins {
                value[i] = Some(Value {
                    wdl: Wdl::Win,
                    plies: Some(d),
                });
                changed = true;
            } else if all_won && longest == Some(d - 1) {
                value[i] = Some(Value {
                    wdl: Wdl::Loss,
                    plies: Some(d),
                });
                changed = true;
            }
        }
        quiet_rounds = if changed { 0 } else { quiet_rounds + 1 };
        d += 1;
    }
    value
        .into_iter()
        .map(|v| v.unwrap_or(Value::DRAW))
        .collect()
}

#[test]
fn three_pieces_match_a_reference_solver_and_verify() {
    let dir = tempfile::tempdir().unwrap();
    let targets = domain().keys_up_to(3);
    let report = solve(domain(), dir.path(), &targets, &SolveOptions::default()).unwrap();
    assert_eq!(report.subspaces.len(), targets.len());
    let tb = Tablebase::open(domain(), dir.path()).unwrap();
    let game = Checkers::default();
    let positions = all_positions(3);
    let want = reference(&game, &positions);
    let mut wins = 0;
    for (p, w) in positions.iter().zip(&want) {
        let got = tb.probe(p).unwrap();
        assert_eq!(got, *w, "{}", p.fen());
        wins += u32::from(w.wdl == Wdl::Win);
    }
    assert!(wins > 100_000, "{wins}");
    // Batched probes and tables read into memory give the same answers.
    let batch = tb.probe_batch(&positions);
    assert_eq!(batch.len(), positions.len());
    for (b, w) in batch.iter().zip(&want) {
        assert_eq!(b.as_ref().ok(), Some(w));
    }
    let preloaded = Tablebase::open(domain(), dir.path()).unwrap();
    // A budget below the tables' size is refused before anything is copied (the whole size is
    // copied next); one past it is granted.
    match preloaded.preload_within(Some(190_000)) {
        Err(ProbeError::NotEnoughMemory { needed, available }) => {
            assert!(needed > 190_000, "{needed}");
            assert_eq!(available, 190_000);
        }
        other => panic!("a preload over budget gave {other:?}"),
    }
    assert!(preloaded.preload_within(Some(u64::MAX)).unwrap() > 190_000);
    for (p, w) in positions.iter().zip(&want).step_by(7) {
        assert_eq!(preloaded.probe(p).unwrap(), *w);
    }
    let lone = perfectplay_core::checkers::fen::parse("W:W18:B").unwrap();
    assert!(tb.probe_batch(&[lone])[0].is_err());
    let check = verify(&tb, None, None, &|_, _| {}).unwrap();
    assert_eq!(check.tables.len(), targets.len());
    assert!(check.passed());

    // Two kings beat one: from a position where nothing hangs, the stronger side wins.
    let pos = perfectplay_core::checkers::fen::parse("B:WK32:BK1,K5").unwrap();
    let v = tb.probe(&pos).unwrap();
    assert_eq!(v.wdl, Wdl::Win);
    let line = tb.principal_variation(&pos, 200).unwrap();
    assert_eq!(line.len() as u32, v.plies.unwrap());
}

/// Tables for the relaxed capture rules (the basic game of the Construction Checkers sheet and
/// each of its two options alone) match the reference solver, which follows the same rules'
/// moves; they verify, and they open only under the rules they were built by.
#[test]
fn relaxed_capture_rules_match_a_reference_solver_and_verify() {
    use perfectplay_core::checkers::CheckersRules;
    let positions = all_positions(3);
    let standard = reference(&Checkers::default(), &positions);
    for (mandatory_capture, complete_jumps) in [(false, false), (false, true), (true, false)] {
        let game = Checkers::new(CheckersRules {
            mandatory_capture,
            complete_jumps,
            ..CheckersRules::default()
        });
        let basic = CheckersDomain::new(game);
        assert_eq!(basic.omission().is_some(), mandatory_capture);
        let dir = tempfile::tempdir().unwrap();
        let targets = basic.keys_up_to(3);
        solve(basic, dir.path(), &targets, &SolveOptions::default()).unwrap();
        let tb = Tablebase::open(CheckersDomain::new(game), dir.path()).unwrap();
        let want = reference(&game, &positions);
        let mut differ = 0;
        for ((p, w), s) in positions.iter().zip(&want).zip(&standard) {
            assert_eq!(tb.probe(p).unwrap(), *w, "{} under {game:?}", p.fen());
            differ += usize::from(w.wdl != s.wdl);
        }
        // Declining a capture changes values with as few as three pieces.
        if !mandatory_capture {
            assert!(differ > 0, "{game:?}");
        }
        let check = verify(&tb, None, None, &|_, _| {}).unwrap();
        assert!(check.passed());
        // The tables name their rules: the standard game refuses them, and the directory
        // reads back as the game they were built for.
        let err = match Tablebase::open(domain(), dir.path()) {
            Err(e) => e.to_string(),
            Ok(tb) => tb.probe(&positions[0]).unwrap_err().to_string(),
        };
        assert!(err.contains("rules"), "{err}");
        let (_, loaded) = perfectplay_solver::game_of_tables(dir.path())
            .unwrap()
            .unwrap();
        assert_eq!(
            loaded,
            perfectplay_core::registry::AnyGame::Checkers(game),
            "{}",
            dir.path().display()
        );
    }
}

#[test]
fn builds_do_not_depend_on_the_thread_count() {
    let one = tempfile::tempdir().unwrap();
    let three = tempfile::tempdir().unwrap();
    let key: CheckersKey = "1110-63".parse().unwrap();
    for (dir, threads) in [(&one, 1), (&three, 3)] {
        let options = SolveOptions {
            threads: Some(threads),
            ..SolveOptions::default()
        };
        solve(domain(), dir.path(), &[key], &options).unwrap();
    }
    let mut names: Vec<_> = std::fs::read_dir(one.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert!(names.len() > 10, "{names:?}");
    for name in names {
        assert_eq!(
            std::fs::read(one.path().join(&name)).unwrap(),
            std::fs::read(three.path().join(&name)).unwrap(),
            "{name:?}"
        );
    }
}

/// Every table of up to `max` pieces, built into a new temporary directory.
fn tables_up_to(max: u8, options: SolveOptions) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    solve(domain(), dir.path(), &domain().keys_up_to(max), &options).unwrap();
    dir
}

/// Where every move is a capture (forced in checkers), a position's value comes from the
/// smaller tables alone; in a WDL-only build they are read without distances.
#[test]
fn wdl_only_tables_verify_and_agree_with_distance_tables() {
    let full = tables_up_to(3, SolveOptions::default());
    let wdl = tables_up_to(
        3,
        SolveOptions {
            wdl_only: true,
            ..SolveOptions::default()
        },
    );
    let a = Tablebase::open(domain(), full.path()).unwrap();
    let b = Tablebase::open(domain(), wdl.path()).unwrap();
    let positions = all_positions(3);
    let mut compared = 0;
    for p in &positions {
        match (a.probe(p), b.probe(p)) {
            (Ok(x), Ok(y)) => {
                assert_eq!(x.wdl, y.wdl, "{}", p.fen());
                compared += 1;
            }
            // Both refuse alike (a position that cannot arise), or one answers alone: a fault.
            (Err(x), Err(y)) => assert_eq!(x.to_string(), y.to_string(), "{}", p.fen()),
            (x, y) => panic!("{}: {x:?} against {y:?}", p.fen()),
        }
    }
    assert!(compared * 2 > positions.len(), "{compared}");
    let check = verify(&b, None, None, &|_, _| {}).unwrap();
    assert!(check.passed(), "{:?}", check.tables);
}

#[test]
fn finished_positions_are_answered_by_the_rules_with_any_tables() {
    let game = Checkers::default();
    // Positions of three pieces whose side to move has pieces but no move.
    let blocked: Vec<CheckersPosition> = all_positions(3)
        .into_iter()
        .filter(|p| game.outcome(p).is_some())
        .collect();
    assert!(!blocked.is_empty());
    let lost_now = Value::decided(0);
    let no_pieces = perfectplay_core::checkers::fen::parse("B:W18:B").unwrap();

    // Tables of two pieces only: a finished position needs no table.
    let two = tables_up_to(2, SolveOptions::default());
    // Tables without distances: they say "lost", the rules say "lost now".
    let wdl = tables_up_to(
        3,
        SolveOptions {
            wdl_only: true,
            ..SolveOptions::default()
        },
    );

    for dir in [two.path(), wdl.path()] {
        let tb = Tablebase::open(domain(), dir).unwrap();
        let mut positions = blocked.clone();
        positions.push(no_pieces);
        for p in &positions {
            assert_eq!(tb.probe(p).unwrap(), lost_now, "{}", p.fen());
        }
        for (i, v) in tb.probe_batch(&positions).into_iter().enumerate() {
            assert_eq!(v.unwrap(), lost_now, "{}", positions[i].fen());
        }
        // White cannot have just moved without a piece, whether or not Black has one: both
        // cannot arise, though Black, without pieces, has no move in the first.
        for fen in ["B:W:B", "B:W:B1", "W:WK5:B"] {
            let p = perfectplay_core::checkers::fen::parse(fen).unwrap();
            assert!(
                matches!(tb.probe(&p), Err(ProbeError::CannotArise)),
                "{fen}"
            );
            assert!(matches!(
                tb.probe_batch(&[p]).pop().unwrap(),
                Err(ProbeError::CannotArise)
            ));
        }
    }
}

#[test]
fn batched_probes_come_in_order_and_stop_when_asked() {
    let dir = tables_up_to(3, SolveOptions::default());
    let tb = Tablebase::open(domain(), dir.path()).unwrap();
    let mut positions = all_positions(3);
    // A position the tables do not cover, in the middle of the batch.
    let lone = perfectplay_core::checkers::fen::parse("W:W18:B").unwrap();
    positions.insert(1000, lone);
    let mut seen = Vec::new();
    tb.probe_batch_with(&positions, |i, v| {
        seen.push(i);
        match v {
            Ok(v) => {
                assert_eq!(v, tb.probe(&positions[i]).unwrap());
                std::ops::ControlFlow::Continue(())
            }
            Err(_) => std::ops::ControlFlow::Break(()),
        }
    })
    .unwrap();
    assert_eq!(seen, (0..=1000).collect::<Vec<_>>());
    let mut all = 0;
    tb.probe_batch_with(&positions[..999], |_, v| {
        assert!(v.is_ok());
        all += 1;
        std::ops::ControlFlow::Continue(())
    })
    .unwrap();
    assert_eq!(all, 999);
}

/// The positions of `all` that `key`'s table values (not answered by the rules alone).
fn positions_in(
    tb: &Tablebase<CheckersDomain>,
    all: &[CheckersPosition],
    key: &str,
) -> Vec<CheckersPosition> {
    let game = Checkers::default();
    all.iter()
        .filter(|p| game.outcome(p).is_none())
        .filter(|p| {
            let (k, _) = tb.domain().locate(p).unwrap();
            k.to_string() == key
        })
        .copied()
        .collect()
}

#[test]
fn tables_changed_on_disk_fail_probes_instead_of_answering_or_crashing() {
    use perfectplay_solver::DbError;
    use std::io::{Seek, SeekFrom, Write};
    let dir = tables_up_to(3, SolveOptions::default());
    // File times are kept in clock ticks: a write in the tick of the build could go unseen.
    std::thread::sleep(std::time::Duration::from_millis(30));
    let tb = Tablebase::open(domain(), dir.path()).unwrap();
    let all = all_positions(3);
    let changed =
        |r: Result<Value, ProbeError>| matches!(r, Err(ProbeError::Db(DbError::Changed { .. })));

    // Written in place, same length: the values read since are refused.
    let written = positions_in(&tb, &all, "1010-00");
    assert!(tb.probe_batch(&written).iter().all(Result::is_ok));
    let path = tb.find("1010-00".parse::<CheckersKey>().unwrap()).unwrap();
    let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.seek(SeekFrom::End(-8)).unwrap();
    file.write_all(&[0xAA; 8]).unwrap();
    drop(file);
    // Asked, the tablebase looks at once; queries look again after an interval.
    assert!(matches!(tb.check_tables(), Err(DbError::Changed { .. })));
    std::thread::sleep(2 * perfectplay_solver::CHECK_INTERVAL);
    assert!(tb.probe_batch(&written).into_iter().all(changed));
    assert!(changed(tb.probe(&written[0])));

    // Cut short while mapped: no crash, every read refused.
    let truncated = positions_in(&tb, &all, "2010-60");
    assert!(tb.probe_batch(&truncated).iter().all(Result::is_ok));
    let path = tb.find("2010-60".parse::<CheckersKey>().unwrap()).unwrap();
    std::fs::File::create(&path).unwrap(); // cuts the file to nothing
    assert!(tb.probe_batch(&truncated).into_iter().all(changed));
    assert!(changed(tb.probe(&truncated[0])));

    // Replaced by rename, as a rebuild does: the open table reads the file it opened.
    let untouched = positions_in(&tb, &all, "1010-60");
    let before = tb.probe_batch(&untouched);
    let path = tb.find("1010-60".parse::<CheckersKey>().unwrap()).unwrap();
    let copy = dir.path().join("copy");
    std::fs::copy(&path, &copy).unwrap();
    std::fs::rename(&copy, &path).unwrap();
    let after = tb.probe_batch(&untouched);
    assert_eq!(
        before.into_iter().map(Result::unwrap).collect::<Vec<_>>(),
        after.into_iter().map(Result::unwrap).collect::<Vec<_>>()
    );
}

#[test]
fn a_broken_table_is_reported_as_broken_not_missing() {
    use perfectplay_solver::DbError;
    let dir = tables_up_to(2, SolveOptions::default());
    let tb = Tablebase::open(domain(), dir.path()).unwrap();
    let pos = positions_in(&tb, &all_positions(2), "1010-00")[0];
    let path = tb.find("1010-00".parse::<CheckersKey>().unwrap()).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(
        tb.probe(&pos),
        Err(ProbeError::MissingTable { .. })
    ));
    assert_eq!(tb.get(&pos).unwrap(), None);
    std::fs::create_dir(&path).unwrap();
    let fresh = Tablebase::open(domain(), dir.path()).unwrap();
    match fresh.probe(&pos) {
        Err(ProbeError::Db(DbError::NotAFile { kind, .. })) => assert_eq!(kind, "a directory"),
        other => panic!("{other:?}"),
    }
    assert!(fresh.get(&pos).is_err());
}
