//! Runs the `perfectplay` binary the way users and scripts do, checking output and exit codes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the binary with `args`, feeding `input` on standard input and then closing it.
fn run_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    stdin.write_all(input.as_bytes()).expect("input is written");
    drop(stdin);
    child.wait_with_output().expect("the binary finishes")
}

fn run(args: &[&str]) -> Output {
    run_with_input(args, "")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn perft_depth_5() {
    let output = run(&["perft", "checkers", "--depth", "5"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.starts_with("perft 5: 7361 leaves in "), "{text}");
    assert!(text.contains(" leaves/s)"), "{text}");
}

#[test]
fn perft_divide_depth_2() {
    let output = run(&["perft", "checkers", "--depth", "2", "--divide"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    let moves: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !l.starts_with("perft"))
        .collect();
    assert_eq!(moves.len(), 7, "{text}");
    assert!(moves.iter().all(|l| l.ends_with(": 7")), "{text}");
    assert_eq!(moves[0], "9-13: 7");
    assert!(
        lines.last().unwrap().starts_with("perft 2: 49 leaves"),
        "{text}"
    );
}

#[test]
fn perft_check_and_up_to() {
    let output = run(&["perft", "checkers", "--depth", "6", "--up-to", "--check"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 6, "{text}");
    assert!(
        text.lines().all(|l| l.ends_with("matches published count")),
        "{text}"
    );

    let output = run(&["perft", "checkers", "--depth", "17", "--check"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("depths 1 to 16"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn bad_fen_exits_2() {
    let output = run(&[
        "perft",
        "checkers",
        "--depth",
        "3",
        "--fen",
        "B:W21,33:B1-12",
    ]);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.contains("invalid FEN"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(stdout(&output).is_empty());
}

#[test]
fn unknown_game_exits_2_listing_games() {
    for subcommand in [
        &["perft", "chess", "--depth", "3"][..],
        &["play", "chess"],
        &["rules", "go"],
    ] {
        let output = run(subcommand);
        assert_eq!(output.status.code(), Some(2));
        let err = stderr(&output);
        assert!(
            err.contains("unknown game") && err.contains("checkers"),
            "{err}"
        );
    }
}

#[test]
fn usage_errors_exit_2() {
    let output = run(&["perft", "checkers"]);
    assert_eq!(output.status.code(), Some(2));
    let output = run(&["play", "checkers", "--black", "genius"]);
    assert_eq!(output.status.code(), Some(2));
    let output = run(&["--help"]);
    assert!(output.status.success());
    assert!(stdout(&output).contains("perft"));
}

#[test]
fn quiet_random_game_finishes() {
    let output = run(&["play", "checkers", "--quiet", "--seed", "3"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.starts_with("ply 1 black "), "{text}");
    let result = text
        .lines()
        .find(|l| l.starts_with("result: "))
        .expect("a result line");
    assert!(
        ["wins", "draw", "unfinished"]
            .iter()
            .any(|word| result.contains(word)),
        "{result}"
    );
    assert!(
        text.contains("\nplies: ") && text.contains("\nfinal fen: "),
        "{text}"
    );
    // The board is not printed in quiet mode.
    assert!(!text.contains("to move"), "{text}");
    // The same seed plays the same game.
    assert_eq!(
        text,
        stdout(&run(&["play", "checkers", "--quiet", "--seed", "3"]))
    );
}

#[test]
fn human_input_skips_bad_lines() {
    // After 11-15 and White's reply, one of the later candidates is legal for Black.
    let input = "11-15\nbogus\n15x22\n9-13\n9-14\n10-14\n12-16\n";
    let output = run_with_input(
        &[
            "play", "checkers", "--black", "human", "--quiet", "--seed", "1",
        ],
        input,
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let err = stderr(&output);
    assert!(
        text.starts_with("ply 1 black 11-15\nply 2 white "),
        "{text}"
    );
    assert!(text.contains("ply 3 black "), "{text}\n{err}");
    assert!(text.contains("result: abandoned (input ended)"), "{text}");
    assert!(
        err.contains("expected a square number 1-32 at character 1, found `bogus`"),
        "{err}"
    );
}

#[test]
fn human_can_list_moves_and_quit() {
    let output = run_with_input(&["play", "checkers", "--white", "human"], "moves\nquit\n");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("result: abandoned (white quit)"));
    assert!(
        stderr(&output).contains("legal moves: "),
        "{}",
        stderr(&output)
    );
}

#[test]
fn slow_human_forfeits_the_turn() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(["play", "checkers", "--black", "human", "--move-time", "0.2"])
        .args(["--max-plies", "3", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // Keep standard input open and silent until the game is over.
    let stdin = child.stdin.take();
    let output = child.wait_with_output().expect("the binary finishes");
    drop(stdin);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with("ply 1 black forfeits the turn (time limit)\n"),
        "{text}"
    );
    assert!(
        text.contains("ply 3 black forfeits the turn (time limit)\n"),
        "{text}"
    );
    assert!(text.contains("result: stopped after 3 plies"), "{text}");
}

#[test]
fn unknown_rule_option_lists_valid_ones() {
    let output = run(&["play", "checkers", "--set", "flying_kings=true"]);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.contains("unknown rule option `flying_kings`"), "{err}");
    assert!(
        err.contains("first_player") && err.contains("adjudication"),
        "{err}"
    );
}

#[test]
fn ply_limit_with_adjudication_ends_by_adjudication() {
    let args = [
        "play",
        "checkers",
        "--set",
        "ply_limit=10",
        "--set",
        "adjudication=true",
    ];
    let output = run(&args);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("rules: first_player=black"), "{text}");
    assert!(text.contains("(adjudication)\nplies: 10\n"), "{text}");
}

#[test]
fn rules_lists_options_and_defaults() {
    let output = run(&["rules", "checkers"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    for name in [
        "first_player",
        "threefold_repetition",
        "move_rule",
        "ply_limit",
        "adjudication",
    ] {
        assert!(text.contains(name), "{text}");
    }
    assert!(
        text.contains("defaults:\n") && text.contains("  move_rule=40\n"),
        "{text}"
    );
}
