//! WDL-only tables proven by their unit distances: a verification without them passes wins and
//! losses that only agree with each other, one with them refuses them.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use perfectplay_core::morris::{Morris, MorrisRules};
use perfectplay_core::Game;
use perfectplay_solver::format::{unit_distance_file_name, write_table};
use perfectplay_solver::morris::{MorrisDomain, MorrisKey};
use perfectplay_solver::{
    plan, solve, verify, verify_tables, verify_with_unit_distances,
    verify_with_unit_distances_within, Domain, SolveError, SolveOptions, Table, Tablebase,
    VerifyOptions, Wdl,
};

/// Six Men's Morris with the no-re-forming memory, any man taken: small units of several
/// subspaces, with draws.
fn six_mens_morris() -> MorrisDomain {
    let mut rules = MorrisRules::preset("six_mens_morris").unwrap().rules;
    rules.set("no_reforming", "true").unwrap();
    rules.set("removal", "any").unwrap();
    MorrisDomain::new(Morris::new(rules).unwrap()).unwrap()
}

/// The 4-5 unit (4-5 and 5-4 with their memories) and what it leads to, WDL-only, with unit
/// distances.
fn build(dir: &Path) -> Tablebase<MorrisDomain> {
    let options = SolveOptions {
        wdl_only: true,
        unit_distances: true,
        ..SolveOptions::default()
    };
    solve(six_mens_morris(), dir, &[MorrisKey::moving(4, 5)], &options).unwrap();
    Tablebase::open(six_mens_morris(), dir).unwrap()
}

fn both_checks(dir: &Path, keys: &[MorrisKey]) -> (u64, Result<u64, SolveError>) {
    let tb = Tablebase::open(six_mens_morris(), dir).unwrap();
    let mismatches = |r: perfectplay_solver::VerifyReport| -> u64 {
        r.tables.iter().map(|t| t.mismatches).sum()
    };
    let plain = mismatches(verify(&tb, Some(keys), None, &|_, _| {}).unwrap());
    let proven = verify_with_unit_distances(&tb, Some(keys), None, &|_, _| {}).map(mismatches);
    (plain, proven)
}

const DRAW: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const HOLE: u8 = 3;

/// The two-bit result codes of a WDL-only table, one a byte.
fn codes(table: &Table) -> Vec<u8> {
    table.stored_values().unwrap()
}

/// Writes `codes` as the WDL-only table of `key`, its header otherwise as before.
fn rewrite(dir: &Path, key: MorrisKey, codes: &[u8]) {
    let path = dir.join(format!("{key}.ppdb"));
    let mut header = Table::open(&path, None).unwrap().header().clone();
    let mut payload = vec![0u8; codes.len().div_ceil(4)];
    for (i, &c) in codes.iter().enumerate() {
        payload[i / 4] |= c << (2 * (i % 4));
    }
    header.payload_checksum = xxhash_rust::xxh3::xxh3_64(&payload);
    write_table(dir, &header, &payload).unwrap();
}

/// Where `next` lies in `unit`, unless the game is over there.
fn in_unit(
    tb: &Tablebase<MorrisDomain>,
    unit: &[MorrisKey],
    next: &<Morris as Game>::Position,
) -> Option<(MorrisKey, u64)> {
    let d = tb.domain();
    if d.game().outcome(next).is_some() {
        return None;
    }
    d.locate(next).ok().filter(|(key, _)| unit.contains(key))
}

/// A labelling that agrees with every successor yet is false: the largest set of the unit's
/// draws from which the side with five men can keep the play inside the set for ever (where it
/// moves, some turn stays in the set; where the other side moves, every turn stays in the set
/// or reaches a win for the five men), labelled as if endless play won for the five men: a win
/// where they move, a loss where the other side does. Every label agrees with its successors:
/// a win has a turn into a loss of the set, a loss has every turn into a win, and a draw left
/// out has no turn into the set's losses and one into a draw.
fn endless_play_won_by_five(
    tb: &Tablebase<MorrisDomain>,
    unit: &[MorrisKey],
) -> HashMap<MorrisKey, Vec<u8>> {
    let d = tb.domain();
    let game = d.game();
    let mut labels: HashMap<MorrisKey, Vec<u8>> = unit
        .iter()
        .map(|&k| (k, codes(&tb.table(k).unwrap())))
        .collect();
    let mut set: Vec<(MorrisKey, u64)> = Vec::new();
    for &k in unit {
        for (i, &c) in labels[&k].iter().enumerate() {
            if c == DRAW {
                set.push((k, i as u64));
            }
        }
    }
    let false_label = |k: MorrisKey| if k.mover() == 5 { WIN } else { LOSS };
    for &(k, i) in &set {
        labels.get_mut(&k).unwrap()[i as usize] = false_label(k);
    }
    loop {
        let mut removed = 0;
        for &(k, i) in &set {
            if labels[&k][i as usize] == DRAW {
                continue;
            }
            let pos = d.unrank(k, i);
            let in_set = |next: &<Morris as Game>::Position| {
                in_unit(tb, unit, next)
                    .is_some_and(|(nk, ni)| labels[&nk][ni as usize] == false_label(nk))
            };
            let stays = if k.mover() == 5 {
                let mut some = false;
                game.for_each_move(&pos, |mv| some |= in_set(&game.play(&pos, mv)));
                some
            } else {
                let mut every = true;
                game.for_each_move(&pos, |mv| {
                    let next = game.play(&pos, mv);
                    let won_by_five = || tb.probe(&next).unwrap().wdl == Wdl::Win;
                    every &= in_set(&next) || won_by_five();
                });
                every
            };
            if !stays {
                labels.get_mut(&k).unwrap()[i as usize] = DRAW;
                removed += 1;
            }
        }
        if removed == 0 {
            return labels;
        }
    }
}

#[test]
fn wins_and_losses_that_only_agree_with_each_other_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let tb = build(dir.path());
    let unit = plan(tb.domain(), &[MorrisKey::moving(4, 5)]).pop().unwrap();
    assert_eq!(unit.len(), 8, "{unit:?}");
    let (plain, proven) = both_checks(dir.path(), &unit);
    assert_eq!((plain, proven.unwrap()), (0, 0));

    let false_labels = endless_play_won_by_five(&tb, &unit);
    let (mut changed, mut draws) = (0, 0);
    for &k in &unit {
        let before = codes(&tb.table(k).unwrap());
        let after = &false_labels[&k];
        changed += before.iter().zip(after).filter(|(b, a)| b != a).count();
        draws += before.iter().filter(|&&b| b == DRAW).count();
        assert!(before.iter().zip(after).all(|(&b, &a)| b == a || b == DRAW));
        assert!(!after.contains(&HOLE) || before.contains(&HOLE));
    }
    // Here every draw of the unit can be relabelled (as the README and the docs say).
    assert_eq!((changed, draws), (1379, 1379));
    drop(tb);
    for &k in &unit {
        rewrite(dir.path(), k, &false_labels[&k]);
    }

    let (plain, proven) = both_checks(dir.path(), &unit);
    assert_eq!(
        plain, 0,
        "every false win and loss agrees with its successors"
    );
    // Each relabelled position's unit distance still says "draw".
    assert_eq!(proven.unwrap(), changed as u64);
}

#[test]
fn a_distance_that_does_not_descend_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let tb = build(dir.path());
    let key = MorrisKey::moving(4, 5);
    let path = dir.path().join(unit_distance_file_name(&key.to_string()));
    let table = Table::open(&path, None).unwrap();
    let mut header = table.header().clone();
    let mut payload = table.payload().to_vec();
    drop(table);
    drop(tb);
    // A loss in 4 plies or more (packed as plies + 1, even plies a loss) made two plies
    // slower: the same result, so only the distances can tell.
    let at = payload
        .iter()
        .position(|&b| b != 0 && b != 255 && (b - 1) % 2 == 0 && b >= 5)
        .unwrap();
    payload[at] += 2;
    header.payload_checksum = xxhash_rust::xxh3::xxh3_64(&payload);
    // Written whole again, its checksum right: only the distances can tell.
    perfectplay_solver::format::write_unit_distances(dir.path(), &header, &payload).unwrap();

    let (plain, proven) = both_checks(dir.path(), &[key]);
    assert_eq!(plain, 0);
    assert_eq!(proven.unwrap(), 1);
    // The same with the unit distances read in place rather than copied into memory.
    let tb = Tablebase::open(six_mens_morris(), dir.path()).unwrap();
    let in_place = verify_with_unit_distances_within(&tb, Some(&[key]), None, 0, &|_, _| {});
    assert_eq!(in_place.unwrap().tables[0].mismatches, 1);
}

#[test]
fn a_missing_or_renamed_unit_distance_file_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let tb = build(dir.path());
    drop(tb);
    let other = MorrisKey::moving(5, 4);
    let file = dir.path().join(unit_distance_file_name(&other.to_string()));
    let aside = dir.path().join("aside");
    std::fs::rename(&file, &aside).unwrap();
    let (_, proven) = both_checks(dir.path(), &[MorrisKey::moving(4, 5)]);
    let message = proven.unwrap_err().to_string();
    assert!(message.contains("5-4.ppud"), "{message}");
    assert!(message.contains("unit-distance"), "{message}");

    // A unit-distance file taken for a table is refused for its index scheme.
    let table = dir.path().join(format!("{other}.ppdb"));
    std::fs::rename(&aside, &table).unwrap();
    let tb = Tablebase::open(six_mens_morris(), dir.path()).unwrap();
    let message = tb.table(other).unwrap_err().to_string();
    assert!(message.contains("distances within the unit"), "{message}");
}

#[test]
fn compressed_checkers_tables_that_leave_captures_out_are_proven_too() {
    use perfectplay_core::checkers::Checkers;
    use perfectplay_solver::checkers::CheckersDomain;
    let domain = || CheckersDomain::new(Checkers::default());
    let dir = tempfile::tempdir().unwrap();
    let options = SolveOptions {
        wdl_only: true,
        unit_distances: true,
        compress: true,
        ..SolveOptions::default()
    };
    let keys = domain().keys_up_to(4);
    solve(domain(), dir.path(), &keys, &options).unwrap();
    let tb = Tablebase::open(domain(), dir.path()).unwrap();
    let left_out = tb
        .available()
        .iter()
        .filter(|(_, path)| Table::open(path, None).unwrap().omitted().is_some())
        .count();
    assert!(left_out > 10, "{left_out} tables leave positions out");
    let check = verify_with_unit_distances(&tb, None, None, &|_, _| {}).unwrap();
    assert!(check.passed(), "{:?}", check.tables);
    assert_eq!(check.tables.len(), tb.available().len());
}

#[test]
fn distance_tables_need_no_unit_distances() {
    let dir = tempfile::tempdir().unwrap();
    let key = MorrisKey::moving(3, 4);
    solve(
        six_mens_morris(),
        dir.path(),
        &[key],
        &SolveOptions::default(),
    )
    .unwrap();
    let (plain, proven) = both_checks(dir.path(), &[key, MorrisKey::moving(4, 3)]);
    assert_eq!((plain, proven.unwrap()), (0, 0));
    assert!(!dir.path().join(unit_distance_file_name("3-4")).exists());
}

#[test]
fn a_verification_counts_what_it_checked_and_stops_when_told() {
    let dir = tempfile::tempdir().unwrap();
    let tb = build(dir.path());
    let checked = Arc::new(AtomicU64::new(0));
    let options = VerifyOptions {
        unit_distances: true,
        checked: Some(Arc::clone(&checked)),
        ..VerifyOptions::default()
    };
    let report = verify_tables(&tb, None, &options, &|_, _| {}).unwrap();
    assert!(report.passed(), "{:?}", report.tables);
    assert!(report.tables.len() > 2);
    let positions: u64 = report.tables.iter().map(|t| t.positions).sum();
    assert_eq!(checked.load(Ordering::Relaxed), positions);

    // Told to stop as the second table begins: the first is counted whole, then it stops.
    checked.store(0, Ordering::Relaxed);
    let cancel = Arc::new(AtomicBool::new(false));
    let options = VerifyOptions {
        cancel: Some(Arc::clone(&cancel)),
        ..options
    };
    let tables_begun = AtomicU64::new(0);
    let on_table = |_: &str, _: u64| {
        if tables_begun.fetch_add(1, Ordering::Relaxed) == 1 {
            cancel.store(true, Ordering::Relaxed);
        }
    };
    let stopped = verify_tables(&tb, None, &options, &on_table);
    assert!(
        matches!(stopped, Err(SolveError::Interrupted)),
        "{stopped:?}"
    );
    assert_eq!(tables_begun.load(Ordering::Relaxed), 2);
    assert_eq!(checked.load(Ordering::Relaxed), report.tables[0].positions);
}

#[test]
fn a_verification_told_to_stop_in_the_middle_of_a_table_stops_there() {
    // Nine Men's Morris 4-4: 3.2 M positions, about 200 chunks, a second or more on one thread.
    let nine = || {
        let rules = MorrisRules::preset("nine_mens_morris").unwrap().rules;
        MorrisDomain::new(Morris::new(rules).unwrap()).unwrap()
    };
    let dir = tempfile::tempdir().unwrap();
    let options = SolveOptions {
        wdl_only: true,
        unit_distances: true,
        ..SolveOptions::default()
    };
    let key = MorrisKey::moving(4, 4);
    solve(nine(), dir.path(), &[key], &options).unwrap();
    let tb = Tablebase::open(nine(), dir.path()).unwrap();
    let positions = tb.domain().size(key);
    let checked = Arc::new(AtomicU64::new(0));
    let cancel = Arc::new(AtomicBool::new(false));
    let options = VerifyOptions {
        threads: Some(1),
        unit_distances: true,
        cancel: Some(Arc::clone(&cancel)),
        checked: Some(Arc::clone(&checked)),
        ..VerifyOptions::default()
    };
    // Told to stop once its first chunk is done.
    let watcher = {
        let (checked, cancel) = (Arc::clone(&checked), Arc::clone(&cancel));
        std::thread::spawn(move || {
            while checked.load(Ordering::Relaxed) == 0 {
                std::thread::yield_now();
            }
            cancel.store(true, Ordering::Relaxed);
        })
    };
    let stopped = verify_tables(&tb, Some(&[key]), &options, &|_, _| {});
    watcher.join().unwrap();
    assert!(
        matches!(stopped, Err(SolveError::Interrupted)),
        "{stopped:?}"
    );
    let done = checked.load(Ordering::Relaxed);
    assert!(done > 0 && done < positions / 2, "{done} of {positions}");
}

/// Rewrites the unit distances of `keys` as a unit whose distances ran past the byte would
/// have them: each distance of `from` plies or more as the code of its parity (the byte of
/// 252 or 253 plies) with the distance itself in `KEY.ppud.long`. Returns the entries moved.
fn move_into_long_files(dir: &Path, keys: &[MorrisKey], from: u32) -> usize {
    use perfectplay_solver::long_distances::write_long_distances;
    use perfectplay_solver::value::{Packed, MAX_DISTANCE};
    let mut moved = 0;
    for key in keys {
        let path = dir.join(unit_distance_file_name(&key.to_string()));
        let table = Table::open(&path, None).unwrap();
        let mut header = table.header().clone();
        let mut payload = table.payload().to_vec();
        drop(table);
        let mut long = Vec::new();
        for (i, b) in payload.iter_mut().enumerate() {
            if let Some(plies) = Packed(*b).plies().filter(|&p| p >= from) {
                *b = Packed::decided(MAX_DISTANCE - 1 + plies % 2).unwrap().0;
                long.push((i as u64, plies));
            }
        }
        moved += long.len();
        header.payload_checksum = xxhash_rust::xxh3::xxh3_64(&payload);
        perfectplay_solver::format::write_unit_distances(dir, &header, &payload).unwrap();
        write_long_distances(
            dir,
            &key.to_string(),
            header.positions,
            header.payload_checksum,
            &long,
        )
        .unwrap();
    }
    moved
}

#[test]
fn distances_past_the_byte_are_read_from_their_long_file() {
    use perfectplay_solver::long_distances::long_distance_file_name;
    let dir = tempfile::tempdir().unwrap();
    let tb = build(dir.path());
    let unit = plan(tb.domain(), &[MorrisKey::moving(4, 5)]).pop().unwrap();
    drop(tb);
    let moved = move_into_long_files(dir.path(), &unit, 6);
    assert!(moved > 1000, "{moved} distances moved");
    let (_, proven) = both_checks(dir.path(), &unit);
    assert_eq!(proven.unwrap(), 0);

    // Without its long file a table's moved distances are the codes, wrong.
    let key = MorrisKey::moving(4, 5);
    let long = dir.path().join(long_distance_file_name(&key.to_string()));
    let kept = std::fs::read(&long).unwrap();
    std::fs::remove_file(&long).unwrap();
    let (_, proven) = both_checks(dir.path(), &[key]);
    assert!(proven.unwrap() > 0);

    // A long file damaged, or of another unit-distance file, is refused by name.
    let mut damaged = kept.clone();
    damaged[40] ^= 1;
    std::fs::write(&long, &damaged).unwrap();
    let (_, proven) = both_checks(dir.path(), &[key]);
    let message = proven.unwrap_err().to_string();
    assert!(
        message.contains("4-5.ppud.long") && message.contains("checksum"),
        "{message}"
    );
    let other = dir.path().join(long_distance_file_name("5-4"));
    std::fs::copy(&other, &long).unwrap();
    let (_, proven) = both_checks(dir.path(), &[key]);
    let message = proven.unwrap_err().to_string();
    assert!(message.contains("4-5.ppud.long"), "{message}");
}

#[test]
fn a_unit_within_the_byte_writes_no_long_file() {
    let dir = tempfile::tempdir().unwrap();
    let tb = build(dir.path());
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().any(|n| n.ends_with(".ppud")), "{names:?}");
    assert!(!names.iter().any(|n| n.ends_with(".long")), "{names:?}");
    drop(tb);
}
