//! Builds scheduled unit by unit from outside the solver (`planned_units`,
//! `solve_planned_unit`, `claim_directory`): the same bytes as one `solve`, in any order that
//! respects the plan.

use std::collections::BTreeMap;
use std::path::Path;

use perfectplay_core::checkers::Checkers;
use perfectplay_core::morris::Morris;
use perfectplay_solver::checkers::CheckersDomain;
use perfectplay_solver::morris::MorrisDomain;
use perfectplay_solver::{
    claim_directory, plan, planned_units, solve, solve_planned_unit, Domain, LockWait, SolveError,
    SolveOptions,
};

fn morris() -> MorrisDomain {
    MorrisDomain::new(Morris::preset("nine_mens_morris").unwrap()).unwrap()
}

fn checkers() -> CheckersDomain {
    CheckersDomain::new(Checkers::default())
}

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with('.'))
        .map(|name| (name.clone(), std::fs::read(dir.join(&name)).unwrap()))
        .collect()
}

#[test]
fn the_plan_as_data_names_units_their_reads_and_sizes() {
    let d = morris();
    let targets = d.moving_keys_checked(4).unwrap();
    let units = planned_units(&d, &targets, &SolveOptions::default());
    let keys = plan(&d, &targets);
    assert_eq!(units.len(), keys.len());
    for (i, (unit, keys)) in units.iter().zip(&keys).enumerate() {
        let names: Vec<String> = keys.iter().map(ToString::to_string).collect();
        assert_eq!(unit.subspaces, names);
        assert!(
            unit.reads.iter().all(|&j| j < i),
            "a unit reads only earlier ones"
        );
        let positions: u64 = keys.iter().map(|&k| d.size(k)).sum();
        assert_eq!(unit.positions, positions);
        let largest = keys.iter().map(|&k| d.size(k)).max().unwrap();
        assert!(unit.working_bytes >= 2 * positions + largest);
    }
    // 3-3 reads nothing; 4-4 reads 3-4 (a capture leaves the side to move next with 3 men),
    // whose unit holds 4-3 too.
    assert_eq!(units[0].subspaces, ["3-3"]);
    assert!(units[0].reads.is_empty());
    let last = units.last().unwrap();
    assert_eq!(last.subspaces, ["4-4"]);
    assert_eq!(last.reads.len(), 1);
    // Its cells (2 bytes a position), its payload (a byte a position) and the copy of 3-4 it
    // reads; a quarter byte a position for the payload and the copy in a WDL-only build.
    let n34 = d.size("3-4".parse().unwrap());
    assert_eq!(last.working_bytes, 3 * last.positions + n34);
    let wdl_only = SolveOptions {
        wdl_only: true,
        ..SolveOptions::default()
    };
    let wdl = planned_units(&d, &targets, &wdl_only);
    assert_eq!(
        wdl.last().unwrap().working_bytes,
        2 * last.positions + last.positions.div_ceil(4) + n34.div_ceil(4)
    );
    // With unit distances the largest subspace's payload is a byte a position again, the
    // copies of other units' tables still a quarter byte (they are read without distances).
    let with_unit_distances = SolveOptions {
        unit_distances: true,
        ..wdl_only
    };
    let proven = planned_units(&d, &targets, &with_unit_distances);
    assert_eq!(
        proven.last().unwrap().working_bytes,
        3 * last.positions + n34.div_ceil(4)
    );
}

#[test]
fn units_built_one_by_one_equal_one_solve() {
    let d = morris();
    let targets = d.moving_keys_checked(4).unwrap();
    let whole = tempfile::tempdir().unwrap();
    solve(morris(), whole.path(), &targets, &SolveOptions::default()).unwrap();

    let scheduled = tempfile::tempdir().unwrap();
    let _lock = claim_directory(scheduled.path(), LockWait::No).unwrap();
    for unit in plan(&d, &targets) {
        let report =
            solve_planned_unit(morris(), scheduled.path(), &unit, &SolveOptions::default())
                .unwrap();
        assert!(report.subspaces.iter().all(|s| !s.kept));
        // Built again, it is kept.
        let again = solve_planned_unit(morris(), scheduled.path(), &unit, &SolveOptions::default())
            .unwrap();
        assert!(again.subspaces.iter().all(|s| s.kept));
    }
    assert_eq!(files(whole.path()), files(scheduled.path()));
}

#[test]
fn checkers_units_in_another_valid_order_give_the_same_bytes() {
    let d = checkers();
    let targets = d.keys_up_to(3);
    let whole = tempfile::tempdir().unwrap();
    solve(checkers(), whole.path(), &targets, &SolveOptions::default()).unwrap();
    // Every unit whose reads are done, taken from the back of the ready list: a different
    // order from the plan's.
    let units = planned_units(&d, &targets, &SolveOptions::default());
    let keys = plan(&d, &targets);
    let scheduled = tempfile::tempdir().unwrap();
    let mut done = vec![false; units.len()];
    while let Some(i) = (0..units.len())
        .rev()
        .find(|&i| !done[i] && units[i].reads.iter().all(|&j| done[j]))
    {
        solve_planned_unit(
            checkers(),
            scheduled.path(),
            &keys[i],
            &SolveOptions::default(),
        )
        .unwrap();
        done[i] = true;
    }
    assert!(done.iter().all(|&d| d));
    assert_eq!(files(whole.path()), files(scheduled.path()));
}

#[test]
fn a_unit_before_what_it_reads_is_an_error_and_the_directory_is_claimed_once() {
    let d = morris();
    let dir = tempfile::tempdir().unwrap();
    let four: Vec<_> = plan(&d, &["4-4".parse().unwrap()]).pop().unwrap();
    let err = solve_planned_unit(morris(), dir.path(), &four, &SolveOptions::default());
    assert!(matches!(err, Err(SolveError::Dependency { .. })), "{err:?}");
    let _held = claim_directory(dir.path(), LockWait::No).unwrap();
    assert!(matches!(
        claim_directory(dir.path(), LockWait::No),
        Err(SolveError::Locked { .. })
    ));
}

#[test]
fn a_unit_must_be_one_whole_unit_of_the_plan_each_subspace_once() {
    let dir = tempfile::tempdir().unwrap();
    let key = |text: &str| text.parse().unwrap();
    let refused = |unit: &[_], why: &str| {
        let err = solve_planned_unit(morris(), dir.path(), unit, &SolveOptions::default());
        assert!(
            matches!(&err, Err(SolveError::Unsupported(m)) if m.contains(why)),
            "{unit:?}: {err:?}"
        );
    };
    // Twice listed, its positions would be solved as two copies, each missing updates.
    refused(&[key("4-3"), key("3-4"), key("4-3")], "4-3 is listed twice");
    refused(&[key("4-3")], "the unit of 4-3 is 3-4, 4-3");
    refused(
        &[key("3-3"), key("4-3"), key("3-4")],
        "not one unit of the plan",
    );
    refused(&[], "no subspace");
    assert!(files(dir.path()).is_empty(), "nothing was written");
}

#[test]
fn claiming_removes_the_leftovers_of_killed_writers() {
    let dir = tempfile::tempdir().unwrap();
    let leftover = dir.path().join(".3-3.ppdb.tmp-12345-678");
    std::fs::write(&leftover, b"half a table").unwrap();
    let _lock = claim_directory(dir.path(), LockWait::No).unwrap();
    assert!(!leftover.exists());
}
