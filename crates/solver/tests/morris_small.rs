//! Small morris databases solved from scratch and verified.

use perfectplay_core::morris::Morris;
use perfectplay_core::Game;
use perfectplay_solver::morris::{MorrisDomain, MorrisKey};
use perfectplay_solver::{solve, verify, Domain, SolveOptions, Tablebase};

fn domain(id: &str) -> MorrisDomain {
    MorrisDomain::new(Morris::preset(id).unwrap()).unwrap()
}

#[test]
fn three_mens_morris_is_solved_whole_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let d = domain("three_mens_morris");
    let start = d.start_key();
    let report = solve(d, dir.path(), &[start], &SolveOptions::default()).unwrap();
    assert!(!report.subspaces.is_empty());
    let tb = Tablebase::open(domain("three_mens_morris"), dir.path()).unwrap();
    let v = tb.probe(&tb.domain().game().start_position()).unwrap();
    println!("three men's morris start: {v}");
    let check = verify(&tb, None, None, &|_, _| {}).unwrap();
    assert!(check.passed(), "{:?}", check.tables);
}

#[test]
fn nine_mens_morris_three_against_three_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let report = solve(
        domain("nine_mens_morris"),
        dir.path(),
        &[MorrisKey::moving(3, 3)],
        &SolveOptions::default(),
    )
    .unwrap();
    for s in &report.subspaces {
        println!("{} {} {:?}", s.subspace, s.positions, s.stats);
    }
    let tb = Tablebase::open(domain("nine_mens_morris"), dir.path()).unwrap();
    let check = verify(&tb, None, None, &|_, _| {}).unwrap();
    assert!(check.passed(), "{:?}", check.tables);
}
