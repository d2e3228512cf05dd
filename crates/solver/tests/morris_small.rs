//! Small morris databases solved from scratch, verified, probed, damaged and resumed.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use perfectplay_core::morris::{Morris, MorrisRules};
use perfectplay_core::Game;
use perfectplay_solver::morris::{MorrisDomain, MorrisKey};
use perfectplay_solver::{
    plan, solve, verify, BuildLock, BuildProgress, DbError, Domain, LockWait, ProbeError,
    SolveError, SolveOptions, Tablebase, UnitStage, Wdl,
};

fn domain(id: &str) -> MorrisDomain {
    MorrisDomain::new(Morris::preset(id).unwrap()).unwrap()
}

fn quiet() -> SolveOptions {
    SolveOptions::default()
}

fn verified(id: &str, dir: &std::path::Path) {
    let tb = Tablebase::open(domain(id), dir).unwrap();
    let check = verify(&tb, None, None, &|_, _| {}).unwrap();
    assert!(!check.tables.is_empty());
    assert!(check.passed(), "{:?}", check.tables);
}

#[test]
fn three_mens_morris_is_solved_whole_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let d = domain("three_mens_morris");
    let start = d.start_key();
    let report = solve(d, dir.path(), &[start], &quiet()).unwrap();
    assert!(report.subspaces.len() > 5);
    let tb = Tablebase::open(domain("three_mens_morris"), dir.path()).unwrap();
    let v = tb.probe(&tb.domain().game().start_position()).unwrap();
    // The first player wins: the README states it with the line below.
    assert_eq!((v.wdl, v.plies), (Wdl::Win, Some(9)));
    let line = tb
        .principal_variation(&tb.domain().game().start_position(), 50)
        .unwrap();
    assert_eq!(line.len(), 9);
    verified("three_mens_morris", dir.path());
}

/// WDL-only builds of whole games, placement included: there most positions have no turn
/// within their own subspace (every placement changes the hands), so their values come from
/// the tables they lead to alone, read without distances.
#[test]
fn wdl_only_whole_games_agree_with_distance_builds_everywhere() {
    let mut six_of_four = *Morris::preset("six_mens_morris").unwrap().rules();
    six_of_four.men = 4;
    for game in [
        Morris::preset("three_mens_morris").unwrap(),
        Morris::new(six_of_four).unwrap(),
    ] {
        let full = tempfile::tempdir().unwrap();
        let wdl = tempfile::tempdir().unwrap();
        let domain = || MorrisDomain::new(game).unwrap();
        let start = domain().start_key();
        let report = solve(domain(), full.path(), &[start], &quiet()).unwrap();
        let mut options = quiet();
        options.wdl_only = true;
        solve(domain(), wdl.path(), &[start], &options).unwrap();
        let a = Tablebase::open(domain(), full.path()).unwrap();
        let b = Tablebase::open(domain(), wdl.path()).unwrap();
        let (mut compared, mut wins_at_once) = (0, 0);
        for subspace in &report.subspaces {
            let key: MorrisKey = subspace.subspace.parse().unwrap();
            for index in 0..a.domain().size(key) {
                let pos = a.domain().unrank(key, index);
                match (a.probe(&pos), b.probe(&pos)) {
                    (Ok(x), Ok(y)) => {
                        assert_eq!(x.wdl, y.wdl, "{key} index {index}: {pos:?}");
                        compared += 1;
                        if x.plies == Some(1) {
                            // The rules value the move that wins at once, the tables the
                            // rest by result alone: that move is the best there is.
                            let best = b.best_moves(&pos).unwrap();
                            assert!(
                                !best.is_empty() && best.iter().all(|m| m.value.plies == Some(1)),
                                "{key} index {index}: {best:?}"
                            );
                            wins_at_once += 1;
                        }
                    }
                    (Err(_), Err(_)) => {}
                    (x, y) => panic!("{key} index {index}: {x:?} against {y:?}"),
                }
            }
        }
        assert!(
            compared > 500 && wins_at_once > 50,
            "{compared} {wins_at_once}"
        );
        let check = verify(&b, None, None, &|_, _| {}).unwrap();
        assert!(check.passed(), "{:?}", check.tables);
    }
}

#[test]
fn a_build_reports_its_progress_to_the_caller() {
    let d_again = || domain("six_mens_morris");
    let dir = tempfile::tempdir().unwrap();
    let d = domain("six_mens_morris");
    let keys = d.moving_keys(4);
    let total: u64 = d.moving_keys(4).iter().map(|&k| d.size(k)).sum();
    let progress = Arc::new(BuildProgress::default());
    let options = SolveOptions {
        report_to: Some(Arc::clone(&progress)),
        ..quiet()
    };
    assert!(!progress.snapshot().done);
    solve(d, dir.path(), &keys, &options).unwrap();
    let seen = progress.snapshot();
    assert_eq!((seen.total, seen.finished), (total, total));
    assert!(seen.unit.is_empty(), "{seen:?}");
    assert!(seen.unit_initialised > 0 && seen.unit_initialised <= seen.unit_positions);
    // Every unit was started, the last one got as far as writing, and the build is over.
    assert_eq!(seen.unit_number, plan(&d_again(), &keys).len() as u64);
    assert_eq!(seen.stage, UnitStage::Writing);
    assert!(seen.longest_known >= seen.layer);
    assert!(seen.done && seen.waited_for.is_empty(), "{seen:?}");
    // A second build keeps every file and still counts them as finished.
    let again = Arc::new(BuildProgress::default());
    let options = SolveOptions {
        report_to: Some(Arc::clone(&again)),
        ..quiet()
    };
    solve(domain("six_mens_morris"), dir.path(), &keys, &options).unwrap();
    assert_eq!(again.snapshot().finished, total);
    assert_eq!(again.snapshot().unit_number, 0, "no unit was solved again");
}

#[test]
fn a_waiting_build_names_the_lock_holder_in_its_figures() {
    let dir = tempfile::tempdir().unwrap();
    let held = BuildLock::acquire(dir.path(), LockWait::No).unwrap();
    let progress = Arc::new(BuildProgress::default());
    let options = SolveOptions {
        report_to: Some(Arc::clone(&progress)),
        wait: true,
        ..quiet()
    };
    let path = dir.path().to_owned();
    let build = std::thread::spawn(move || {
        let d = domain("three_mens_morris");
        let start = d.start_key();
        solve(d, &path, &[start], &options).map(|r| r.subspaces.len())
    });
    while progress.snapshot().waited_for.is_empty() {
        assert!(!build.is_finished(), "the build did not wait");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let seen = progress.snapshot();
    assert!(
        seen.waited_for
            .contains(&format!("pid {}", std::process::id())),
        "{seen:?}"
    );
    assert_eq!(seen.total, 0, "nothing is planned before the lock is taken");
    assert!(!seen.done);
    drop(held);
    assert!(build.join().unwrap().unwrap() > 0);
    assert!(progress.snapshot().done);
}

#[test]
fn nine_mens_morris_three_against_three_verifies_and_is_deterministic() {
    let one = tempfile::tempdir().unwrap();
    let two = tempfile::tempdir().unwrap();
    let key = MorrisKey::moving(3, 3);
    let mut options = quiet();
    options.threads = Some(1);
    let a = solve(domain("nine_mens_morris"), one.path(), &[key], &options).unwrap();
    options.threads = Some(3);
    let b = solve(domain("nine_mens_morris"), two.path(), &[key], &options).unwrap();
    assert_eq!(a.subspaces.len(), 1);
    assert_eq!(a.peak_working_bytes, 3 * a.subspaces[0].positions);
    let bytes = |d: &std::path::Path| std::fs::read(d.join("3-3.ppdb")).unwrap();
    assert_eq!(
        bytes(one.path()),
        bytes(two.path()),
        "same bytes whatever the threads"
    );
    assert_eq!(a.subspaces[0].stats, b.subspaces[0].stats);
    verified("nine_mens_morris", one.path());
}

/// A unit of two subspaces holds the cells of both and the payload of one at a time: a byte
/// per position of that one, or a quarter byte for the 2-bit form of a WDL-only build.
#[test]
fn working_memory_is_the_cells_and_one_subspace_payload() {
    let sizes = |r: &perfectplay_solver::SolveReport, key: &str| {
        r.subspaces
            .iter()
            .find(|s| s.subspace == key)
            .map(|s| s.positions)
            .unwrap()
    };
    for wdl_only in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let mut options = quiet();
        options.wdl_only = wdl_only;
        let keys = [MorrisKey::moving(3, 4)];
        let report = solve(domain("nine_mens_morris"), dir.path(), &keys, &options).unwrap();
        // The largest unit is 3-4 + 4-3 (the other, 3-3, is a tenth of it).
        let (a, b) = (sizes(&report, "3-4"), sizes(&report, "4-3"));
        let largest = a.max(b);
        let payload = if wdl_only {
            largest.div_ceil(4)
        } else {
            largest
        };
        assert_eq!(
            report.peak_working_bytes,
            2 * (a + b) + payload,
            "wdl_only {wdl_only}"
        );
    }
}

#[test]
fn a_rerun_keeps_complete_tables_and_rebuilds_damaged_ones() {
    let dir = tempfile::tempdir().unwrap();
    let keys = [MorrisKey::moving(3, 4)];
    let first = solve(domain("nine_mens_morris"), dir.path(), &keys, &quiet()).unwrap();
    assert_eq!(first.subspaces.len(), 3, "3-3 first, then 3-4 with 4-3");
    assert!(first.subspaces.iter().all(|s| !s.kept));
    let again = solve(domain("nine_mens_morris"), dir.path(), &keys, &quiet()).unwrap();
    assert!(again.subspaces.iter().all(|s| s.kept));
    assert_eq!(again.solved_positions, 0);

    // Damage one byte of the payload: probing refuses it, a rerun rebuilds it.
    let path = dir.path().join("4-3.ppdb");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    let tb = Tablebase::open(domain("nine_mens_morris"), dir.path()).unwrap();
    let err = tb.table(MorrisKey::moving(4, 3)).unwrap_err();
    assert!(
        matches!(err, ProbeError::Db(DbError::Corrupted { .. })),
        "{err}"
    );
    let third = solve(domain("nine_mens_morris"), dir.path(), &keys, &quiet()).unwrap();
    let rebuilt: Vec<_> = third
        .subspaces
        .iter()
        .filter(|s| !s.kept)
        .map(|s| s.subspace.as_str())
        .collect();
    assert_eq!(rebuilt, ["3-4", "4-3"]);

    // Truncated: refused with the lengths.
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&path, &bytes).unwrap();
    let tb = Tablebase::open(domain("nine_mens_morris"), dir.path()).unwrap();
    let err = tb.table(MorrisKey::moving(4, 3)).unwrap_err();
    assert!(
        matches!(err, ProbeError::Db(DbError::Length { .. })),
        "{err}"
    );

    // Tables of other rules are refused by name.
    let mut rules = MorrisRules::NINE_MENS_MORRIS;
    rules.removal = perfectplay_core::morris::RemovalRule::Any;
    let other = || MorrisDomain::new(Morris::new(rules).unwrap()).unwrap();
    let tb = Tablebase::open(other(), dir.path()).unwrap();
    let err = tb.table(MorrisKey::moving(3, 3)).unwrap_err();
    assert!(
        matches!(err, ProbeError::Db(DbError::Mismatch { .. })),
        "{err}"
    );

    // A build of other rules, or of another game, into the directory refuses to overwrite
    // them, and leaves every file as it was.
    let before = std::fs::read(dir.path().join("3-3.ppdb")).unwrap();
    for domain in [other(), domain("twelve_mens_morris")] {
        let err = solve(domain, dir.path(), &[MorrisKey::moving(3, 3)], &quiet()).unwrap_err();
        assert!(
            matches!(err, SolveError::ForeignTable(DbError::Mismatch { .. })),
            "{err}"
        );
        assert!(
            err.to_string().contains("another game or other rules"),
            "{err}"
        );
    }
    assert_eq!(std::fs::read(dir.path().join("3-3.ppdb")).unwrap(), before);

    // The same where the foreign table is not the first the build would write: nothing is.
    std::fs::remove_file(dir.path().join("3-3.ppdb")).unwrap();
    let err = solve(other(), dir.path(), &keys, &quiet()).unwrap_err();
    assert!(matches!(err, SolveError::ForeignTable(_)), "{err}");
    assert!(!dir.path().join("3-3.ppdb").exists());
}

/// Rewrites the plain table `name` in `dir` with its payload changed by `change`, the checksum
/// made to match: `change` gets the first index holding a result and the payload.
fn rewrite_table(
    dir: &std::path::Path,
    name: &str,
    change: impl FnOnce(&dyn Fn(Wdl) -> u64, &mut Vec<u8>),
) {
    let table = perfectplay_solver::Table::open(&dir.join(format!("{name}.ppdb")), None).unwrap();
    let find = |wdl: Wdl| {
        (0..table.positions())
            .find(|&i| table.value(i).unwrap().is_some_and(|v| v.wdl == wdl))
            .unwrap()
    };
    let mut header = table.header().clone();
    let mut payload = table.payload().to_vec();
    change(&find, &mut payload);
    header.payload_checksum = xxhash_rust::xxh3::xxh3_64(&payload);
    drop(table);
    perfectplay_solver::format::write_table(dir, &header, &payload).unwrap();
}

#[test]
fn verify_finds_a_wrong_value_behind_a_valid_checksum() {
    let dir = tempfile::tempdir().unwrap();
    let keys = [MorrisKey::moving(3, 4)];
    solve(domain("nine_mens_morris"), dir.path(), &keys, &quiet()).unwrap();

    // Store a lost position's byte for a won one, as a solver bug (not a damaged file) would.
    let mut won = 0;
    rewrite_table(dir.path(), "4-3", |find, payload| {
        won = find(Wdl::Win);
        payload[won as usize] = payload[find(Wdl::Loss) as usize];
    });

    let tb = Tablebase::open(domain("nine_mens_morris"), dir.path()).unwrap();
    let check = verify(&tb, None, None, &|_, _| {}).unwrap();
    assert!(!check.passed());
    // The changed position is the one wrong value of 4-3; positions of 3-4 that lead to it
    // now disagree with it too.
    let table = |name: &str| check.tables.iter().find(|t| t.subspace == name).unwrap();
    assert_eq!(table("3-3").mismatches, 0);
    assert_eq!(table("4-3").mismatches, 1, "{:?}", check.tables);
    let example = table("4-3").example.as_deref().unwrap();
    assert!(
        example.starts_with(&format!("index {won}: stored loss")),
        "{example}"
    );
}

/// A stored win without a distance is checked by its first successor lost for its mover, the
/// rest of its turns left unvalued: a win stored for a lost or a drawn position has no such
/// successor, and is still found.
#[test]
fn verify_finds_a_wrong_win_in_a_wdl_only_table() {
    let dir = tempfile::tempdir().unwrap();
    let keys = [MorrisKey::moving(3, 4)];
    let options = SolveOptions {
        wdl_only: true,
        ..quiet()
    };
    solve(domain("nine_mens_morris"), dir.path(), &keys, &options).unwrap();
    let tb = Tablebase::open(domain("nine_mens_morris"), dir.path()).unwrap();
    assert!(verify(&tb, None, None, &|_, _| {}).unwrap().passed());
    drop(tb);

    let (mut lost, mut drawn) = (0, 0);
    rewrite_table(dir.path(), "4-3", |find, payload| {
        (lost, drawn) = (find(Wdl::Loss), find(Wdl::Draw));
        // Two bits a position, four to a byte (the form of a WDL-only table); 1 is a win.
        assert_eq!(payload.len() as u64, 760_398_u64.div_ceil(4));
        for i in [lost, drawn] {
            let shift = 2 * (i % 4);
            let byte = &mut payload[(i / 4) as usize];
            *byte = (*byte & !(3 << shift)) | 1 << shift;
        }
    });

    let tb = Tablebase::open(domain("nine_mens_morris"), dir.path()).unwrap();
    let check = verify(&tb, None, None, &|_, _| {}).unwrap();
    // Positions of 3-4 that lead to the changed ones disagree with them too (as in the test
    // above); those of 4-3 only where they were changed.
    let table = check.tables.iter().find(|t| t.subspace == "4-3").unwrap();
    assert_eq!(table.mismatches, 2, "{:?}", check.tables);
    let example = table.example.as_deref().unwrap();
    let first = lost.min(drawn);
    assert!(
        example.starts_with(&format!("index {first}: stored win")),
        "{example}"
    );
}

#[test]
fn a_cancelled_build_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let mut options = quiet();
    options.cancel = Some(Arc::new(AtomicBool::new(true)));
    let err = solve(
        domain("nine_mens_morris"),
        dir.path(),
        &[MorrisKey::moving(3, 3)],
        &options,
    )
    .unwrap_err();
    assert!(matches!(err, SolveError::Interrupted), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // What a build killed while writing leaves behind is cleared by the next one.
    std::fs::write(dir.path().join(".3-3.ppdb.tmp-12345"), b"half a table").unwrap();
    solve(
        domain("nine_mens_morris"),
        dir.path(),
        &[MorrisKey::moving(3, 3)],
        &quiet(),
    )
    .unwrap();
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["3-3.ppdb"]);
}

#[test]
fn wdl_only_tables_agree_with_distance_tables() {
    let full = tempfile::tempdir().unwrap();
    let wdl = tempfile::tempdir().unwrap();
    let keys = [MorrisKey::moving(3, 4)];
    solve(domain("nine_mens_morris"), full.path(), &keys, &quiet()).unwrap();
    let mut options = quiet();
    options.wdl_only = true;
    solve(domain("nine_mens_morris"), wdl.path(), &keys, &options).unwrap();
    let size = |d: &std::path::Path| std::fs::metadata(d.join("3-4.ppdb")).unwrap().len();
    assert!(size(wdl.path()) * 3 < size(full.path()));
    let a = Tablebase::open(domain("nine_mens_morris"), full.path()).unwrap();
    let b = Tablebase::open(domain("nine_mens_morris"), wdl.path()).unwrap();
    for key in [MorrisKey::moving(3, 4), MorrisKey::moving(4, 3)] {
        for index in (0..a.domain().size(key)).step_by(97) {
            let pos = a.domain().unrank(key, index);
            let (x, y) = (a.probe(&pos).unwrap(), b.probe(&pos).unwrap());
            assert_eq!(x.wdl, y.wdl);
            assert_eq!(y.plies, None);
        }
    }
    verified("nine_mens_morris", wdl.path());
    // A distance build over WDL-only tables rebuilds them with distances.
    let report = solve(domain("nine_mens_morris"), wdl.path(), &keys, &quiet()).unwrap();
    assert!(report.subspaces.iter().all(|s| !s.kept));
    assert_eq!(size(wdl.path()), size(full.path()));
}

#[test]
fn other_presets_solve_small_subspaces() {
    for (id, key) in [
        ("lasker_morris", MorrisKey::moving(3, 3)),
        ("morabaraba", MorrisKey::moving(3, 4)),
        ("nine_mens_morris", MorrisKey::moving(2, 2).with_hands(1, 1)),
        ("lasker_morris", MorrisKey::moving(3, 2).with_hands(0, 1)),
        ("six_mens_morris", MorrisKey::moving(4, 4)),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let report = solve(domain(id), dir.path(), &[key], &quiet()).unwrap();
        assert!(
            report
                .subspaces
                .iter()
                .any(|s| s.subspace == key.to_string()),
            "{id} {key}"
        );
        verified(id, dir.path());
    }
}

#[test]
fn shah_solves_its_moving_phase_and_refuses_placement_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = domain("shah");
    let start = d.start_key();
    let err = solve(d, dir.path(), &[start], &quiet()).unwrap_err();
    assert!(matches!(err, SolveError::Unsupported(_)), "{err}");
    assert!(err.to_string().contains("first_mill_opens"), "{err}");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // Trapped sides pass, trapping takes a man, no re-forming: the moving phase solves.
    let report = solve(
        domain("shah"),
        dir.path(),
        &[MorrisKey::moving(3, 3)],
        &quiet(),
    )
    .unwrap();
    assert!(report.subspaces.len() >= 2);
    verified("shah", dir.path());
}

#[test]
fn twelve_mens_morris_three_against_three_with_memories_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let key = MorrisKey::moving(3, 3);
    let report = solve(domain("twelve_mens_morris"), dir.path(), &[key], &quiet()).unwrap();
    let names: Vec<&str> = report
        .subspaces
        .iter()
        .map(|s| s.subspace.as_str())
        .collect();
    assert_eq!(names, ["3-3", "3-3-bo", "3-3-bm", "3-3-bmo"], "one unit");
    let d = domain("twelve_mens_morris");
    for s in &report.subspaces {
        let key: MorrisKey = s.subspace.parse().unwrap();
        let holes = (0..d.size(key))
            .filter(|&i| d.is_hole(key, i, &d.unrank(key, i)))
            .count() as u64;
        // Holes are stored as "cannot arise"; every other index is a position.
        assert_eq!(s.stats.cannot_arise, holes, "{}", s.subspace);
        println!(
            "{}: {} indices, {} positions ({} won, {} lost, {} drawn)",
            s.subspace,
            s.positions,
            s.positions - holes,
            s.stats.wins,
            s.stats.losses,
            s.stats.draws
        );
    }
    verified("twelve_mens_morris", dir.path());

    // White breaks the mill a7-d7-g7 with g7-g4: the position remembers it, and is probed
    // with its memory.
    let tb = Tablebase::open(domain("twelve_mens_morris"), dir.path()).unwrap();
    let game = *tb.domain().game();
    let (before, _) = game
        .parse_fen("WWW/.../.../....../.../.B./B.B w 0 0")
        .unwrap();
    let mv = game.parse_move(&before, "g7-g4").unwrap();
    let pos = game.play(&before, &mv);
    assert!(pos.barrier(perfectplay_core::Color::White).is_some());
    let (key, _) = tb.domain().locate(&pos).unwrap();
    assert_eq!(key.to_string(), "3-3-bo");
    let value = tb.probe(&pos).unwrap();
    let best = tb.best_moves(&pos).unwrap();
    assert!(!best.is_empty(), "{value}");
}

#[test]
fn probing_names_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let tb = Tablebase::open(domain("nine_mens_morris"), dir.path()).unwrap();
    let game = *tb.domain().game();
    let (pos, _) = game
        .parse_fen("WWW/.../.../....../.../.../.BB B... w 0 0")
        .map_or_else(
            |_| game.parse_fen("WWW/.../.../....../.../.../BBB w 0 0"),
            Ok,
        )
        .unwrap();
    let err = tb.probe(&pos).unwrap_err();
    match &err {
        ProbeError::MissingTable { subspace, dirs } => {
            assert_eq!(subspace, "3-3");
            assert_eq!(dirs, &[dir.path().to_owned()]);
        }
        other => panic!("{other}"),
    }
    assert!(tb.get(&pos).unwrap().is_none());
    assert!(err.to_string().contains("3-3"));
}

#[test]
fn a_tablebase_is_shared_between_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Tablebase<MorrisDomain>>();
    let dir = tempfile::tempdir().unwrap();
    solve(
        domain("nine_mens_morris"),
        dir.path(),
        &[MorrisKey::moving(3, 3)],
        &quiet(),
    )
    .unwrap();
    let tb = Tablebase::open(domain("nine_mens_morris"), dir.path()).unwrap();
    let key = MorrisKey::moving(3, 3);
    let values: Vec<Vec<_>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|t| {
                let tb = &tb;
                s.spawn(move || {
                    (t..1000)
                        .step_by(4)
                        .map(|i| tb.probe(&tb.domain().unrank(key, i * 37)).unwrap())
                        .collect()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for (t, vs) in values.iter().enumerate() {
        for (n, v) in vs.iter().enumerate() {
            let i = (t + 4 * n) as u64 * 37;
            assert_eq!(*v, tb.probe(&tb.domain().unrank(key, i)).unwrap());
        }
    }
}

/// Unit checkpoints saved at every chance change no table, and none is left once the build is
/// done; a stale one beside complete tables goes, and a damaged one is refused by name.
#[test]
fn checkpointed_builds_write_the_same_tables_and_leave_no_checkpoint() {
    let plain = tempfile::tempdir().unwrap();
    let saving = tempfile::tempdir().unwrap();
    let d = domain("nine_mens_morris");
    let targets = d.moving_keys_checked(4).unwrap();
    solve(domain("nine_mens_morris"), plain.path(), &targets, &quiet()).unwrap();
    let mut options = quiet();
    options.checkpoint_every = Some(std::time::Duration::ZERO);
    std::fs::write(saving.path().join(".3-3.ppck.tmp-12345-6"), b"half a save").unwrap();
    let report = solve(
        domain("nine_mens_morris"),
        saving.path(),
        &targets,
        &options,
    )
    .unwrap();
    assert!(
        report.checkpoints_saved >= 3,
        "{}",
        report.checkpoints_saved
    );
    assert!(report.subspaces.iter().all(|s| !s.resumed));
    let files = |dir: &std::path::Path| {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n != ".lock")
            .collect();
        names.sort();
        names
    };
    assert_eq!(files(plain.path()), files(saving.path()));
    for name in files(plain.path()) {
        let read = |dir: &std::path::Path| std::fs::read(dir.join(&name)).unwrap();
        assert_eq!(read(plain.path()), read(saving.path()), "{name}");
    }

    // A build stopped after writing a unit's tables but before removing its checkpoint.
    std::fs::write(saving.path().join("4-4.ppck"), b"left over").unwrap();
    solve(
        domain("nine_mens_morris"),
        saving.path(),
        &targets,
        &options,
    )
    .unwrap();
    assert_eq!(files(plain.path()), files(saving.path()));

    std::fs::remove_file(saving.path().join("4-4.ppdb")).unwrap();
    std::fs::write(
        saving.path().join("4-4.ppck"),
        b"PPUNITCK and not much else",
    )
    .unwrap();
    let err = solve(
        domain("nine_mens_morris"),
        saving.path(),
        &targets,
        &options,
    )
    .unwrap_err();
    assert!(matches!(err, SolveError::UnitCheckpoint { .. }), "{err}");
    let message = err.to_string();
    assert!(
        message.contains("4-4.ppck") && message.contains("delete the file"),
        "{message}"
    );
}

/// Tables of rules that are no preset's (`morris` in their headers, every option written but
/// those left out at their former value) read back as the nearest preset with the rules they
/// were built under, options left out included.
#[test]
fn tables_of_rules_no_preset_has_read_back_as_built() {
    for options in [
        &[("diagonal_mills", "false")][..],
        &[("capture", "optional"), ("diagonals", "false")][..],
    ] {
        let mut rules = MorrisRules::preset("three_mens_morris").unwrap().rules;
        for (name, value) in options {
            rules.set(name, value).unwrap();
        }
        let game = Morris::new(rules).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let d = MorrisDomain::new(game).unwrap();
        let start = d.start_key();
        solve(d, dir.path(), &[start], &quiet()).unwrap();
        let (id, loaded) = perfectplay_solver::game_of_tables(dir.path())
            .unwrap()
            .unwrap();
        assert_eq!(id.name(), "three_mens_morris", "{options:?}");
        let perfectplay_core::registry::AnyGame::Morris(loaded) = loaded else {
            panic!("{options:?}: not a morris game");
        };
        assert_eq!(
            perfectplay_solver::morris::without_history(loaded.rules()),
            perfectplay_solver::morris::without_history(&rules),
            "{options:?}"
        );
    }
}
