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
fn perft_depth_beyond_64_is_refused_before_any_count() {
    // Kings alone never end by themselves: a depth of a million would recurse until the stack
    // ran out, and a count past 64 plies overflows 64 bits anyway.
    for depth in ["65", "1000000"] {
        let output = run(&["perft", "checkers", "--depth", depth, "--fen", "W:WK1:BK32"]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(stderr(&output).contains("1..=64"), "{}", stderr(&output));
    }
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

    // Other captures count other paths: no published figure to check, rather than a mismatch.
    for set in ["mandatory_capture=false", "complete_jumps=false"] {
        let output = run(&["perft", "checkers", "-d", "6", "--check", "--set", set]);
        assert_eq!(output.status.code(), Some(2), "{set}");
        assert!(
            stderr(&output).contains("--check needs the standard captures"),
            "{}",
            stderr(&output)
        );
    }
    // Draw rules do not change the count.
    let output = run(&[
        "perft",
        "checkers",
        "-d",
        "4",
        "--check",
        "--set",
        "move_rule=none",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
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
        assert!(
            err.contains("nine_mens_morris") && err.contains("cowboy_checkers"),
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
fn a_human_plays_the_perfect_player_and_asks_for_values() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    let built = run(&["solve", "three_mens_morris", "--out", db, "--quiet"]);
    assert!(built.status.success(), "{}", stderr(&built));
    // The human (White, first) asks for values, plays the first placement, then quits.
    let output = run_with_input(
        &[
            "play",
            "three_mens_morris",
            "--white",
            "human",
            "--black",
            "perfect",
            "--db",
            db,
            "--quiet",
        ],
        "values\nb2\nvalues\nquit\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let talk = stderr(&output);
    assert!(
        talk.contains("(a move, moves, values, help or quit)"),
        "{talk}"
    );
    assert!(talk.contains("move values: b2 (win in 9)"), "{talk}");
    let out = stdout(&output);
    assert!(out.contains("ply 1 white b2\nply 2 black "), "{out}");
    assert!(out.contains("result: abandoned (white quit)"), "{out}");
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

/// Every morris preset id and alias.
const MORRIS_GAMES: [&str; 10] = [
    "nine_mens_morris",
    "cowboy_checkers",
    "twelve_mens_morris",
    "nine_mens_morris_no_flying",
    "shah",
    "lasker_morris",
    "lasker",
    "morabaraba",
    "six_mens_morris",
    "three_mens_morris",
];

#[test]
fn morris_perft_and_published_counts() {
    let output = run(&["perft", "nine_mens_morris", "--depth", "3"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.starts_with("perft 3: 12144 leaves in "), "{text}");

    let output = run(&[
        "perft",
        "nine_mens_morris",
        "--depth",
        "4",
        "--up-to",
        "--check",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(text.lines().count(), 4, "{text}");
    assert!(
        text.lines().all(|l| l.ends_with("matches published count")),
        "{text}"
    );
    assert!(text.contains("perft 4: 255024 leaves"), "{text}");

    let output = run(&["perft", "nine_mens_morris", "--depth", "5", "--check"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("depths 1 to 4"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn morris_perft_by_alias_and_on_small_boards() {
    let output = run(&["perft", "cowboy_checkers", "--depth", "2", "--check"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).starts_with("perft 2: 552 leaves"),
        "{}",
        stdout(&output)
    );

    let output = run(&["perft", "three_mens_morris", "--depth", "2"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).starts_with("perft 2: 72 leaves"),
        "{}",
        stdout(&output)
    );

    let output = run(&["perft", "three_mens_morris", "--depth", "1", "--divide"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.starts_with("a1: 1\na2: 1\na3: 1\nb1: 1\n"), "{text}");

    let output = run(&["perft", "shah", "--depth", "1", "--check"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("no published perft counts"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn every_morris_game_plays_to_a_result() {
    for game in MORRIS_GAMES {
        let args = ["play", game, "--quiet", "--seed", "1", "--max-plies", "60"];
        let output = run(&args);
        assert!(output.status.success(), "{game}: {}", stderr(&output));
        let text = stdout(&output);
        assert!(text.starts_with("ply 1 white "), "{game}: {text}");
        let result = text
            .lines()
            .find(|l| l.starts_with("result: "))
            .unwrap_or_else(|| panic!("{game}: no result line in {text}"));
        assert!(
            ["wins", "draw", "unfinished", "stopped after 60 plies"]
                .iter()
                .any(|word| result.contains(word)),
            "{game}: {result}"
        );
        assert!(text.contains("\nfinal position: "), "{game}: {text}");
        assert!(!text.contains("to move"), "{game}: {text}");
        assert_eq!(text, stdout(&run(&args)), "{game}: not reproducible");
    }
}

#[test]
fn bad_morris_position_exits_2() {
    let fen = "WWX/.../.../....../.../.../... w 9 9";
    for subcommand in [
        &["perft", "nine_mens_morris", "--depth", "1", "--fen", fen][..],
        &["play", "nine_mens_morris", "--fen", fen],
    ] {
        let output = run(subcommand);
        assert_eq!(output.status.code(), Some(2), "{subcommand:?}");
        let err = stderr(&output);
        assert!(err.contains("invalid morris position"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(stdout(&output).is_empty());
    }
}

#[test]
fn morris_rule_settings_are_validated() {
    let output = run(&[
        "perft",
        "nine_mens_morris",
        "--depth",
        "2",
        "--set",
        "removal=any",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = run(&[
        "play",
        "nine_mens_morris",
        "--set",
        "removal=any",
        "--max-plies",
        "2",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains(" removal=any "),
        "{}",
        stdout(&output)
    );

    for subcommand in [
        &[
            "perft",
            "nine_mens_morris",
            "--depth",
            "2",
            "--set",
            "flying=4",
        ][..],
        &["play", "nine_mens_morris", "--set", "flying=4"],
    ] {
        let output = run(subcommand);
        assert_eq!(output.status.code(), Some(2));
        let err = stderr(&output);
        assert!(err.contains("flying is allowed from 3 men down"), "{err}");
    }
    let output = run(&["perft", "shah", "--depth", "1", "--set", "wings=true"]);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.contains("unknown rule option `wings`"), "{err}");
    assert!(err.contains("no_reforming"), "{err}");
}

#[test]
fn morris_human_input() {
    let output = run_with_input(
        &["play", "cowboy_checkers", "--white", "human", "--quiet"],
        "a1-a4\nh9\nmoves\nd6\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let err = stderr(&output);
    assert!(text.starts_with("ply 1 white d6\nply 2 black "), "{text}");
    assert!(text.contains("result: abandoned (input ended)"), "{text}");
    assert!(err.contains("a1-a4 is not a legal move here"), "{err}");
    assert!(err.contains("`h9` is not a point of this board"), "{err}");
    assert!(err.contains("legal moves: a1 a4 a7 "), "{err}");
}

#[test]
fn rules_of_a_morris_preset() {
    let output = run(&["rules", "twelve_mens_morris"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.starts_with("twelve_mens_morris: 12 men"), "{text}");
    assert!(text.contains("\n  no_reforming=true\n"), "{text}");
    assert!(text.contains("\n  men=12\n"), "{text}");
}

#[test]
fn games_lists_every_id() {
    let output = run(&["games"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.starts_with("checkers "), "{text}");
    assert!(text.contains("\nshah "), "{text}");
    assert!(text.contains("cowboy_checkers"), "{text}");
    assert_eq!(text.lines().count(), 9, "{text}");
}

#[test]
fn a_match_of_perfect_play_against_random_never_loses_and_alternates() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    let built = run(&["solve", "three_mens_morris", "--out", db, "-q"]);
    assert!(built.status.success(), "{}", stderr(&built));
    let output = run(&[
        "match",
        "three_mens_morris",
        "--games",
        "6",
        "--black",
        "perfect",
        "--white",
        "random",
        "--db",
        db,
        "--alternate",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("game ")).count(),
        6,
        "{text}"
    );
    // The first player wins Three Men's Morris: A, perfect, wins every game it begins (White
    // moves first, so the odd games where A is White), and loses none.
    let a = text.lines().find(|l| l.starts_with("A ")).expect("A's row");
    let fields: Vec<&str> = a.split_whitespace().collect();
    assert_eq!(fields[1], "perfect", "{text}");
    assert_eq!(fields[5], "0", "A lost no game: {text}");
    assert_eq!(fields[7], "3", "A began three games: {text}");
    assert!(fields[3].parse::<u32>().unwrap() >= 3, "{text}");
}

#[test]
fn a_player_whose_clock_runs_out_loses_the_game() {
    // A human who never answers, with a 0.1 s clock (0.1/60 minutes), against random.
    let mut child = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args([
            "match",
            "checkers",
            "--games",
            "1",
            "--black",
            "human",
            "--clock",
            "0.0016667",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let silent = child.stdin.take();
    let output = child.wait_with_output().expect("the binary finishes");
    drop(silent);
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.contains("game 1: black A (human), white B (random): white wins (black's clock ran out), 0 plies"),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("A ") && l.ends_with(" 1")),
        "{text}"
    );
}

#[test]
fn match_arguments_are_checked() {
    let both = run(&["match", "checkers", "--alternate", "--draw-lots"]);
    assert_eq!(both.status.code(), Some(2), "{}", stderr(&both));
    let none = run(&["match", "checkers", "--games", "0"]);
    assert_eq!(none.status.code(), Some(2), "{}", stderr(&none));
    let clock = run(&["match", "checkers", "--clock=0"]);
    assert_eq!(clock.status.code(), Some(2));
    assert!(stderr(&clock).contains("minutes"), "{}", stderr(&clock));
}

#[test]
fn touch_move_loses_the_game_for_moving_another_piece() {
    let args = ["play", "checkers", "--black", "human", "--touch-move", "-q"];
    let output = run_with_input(&args, "11\n12-16\n");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(
        text.starts_with("result: white wins (black broke the touch-move rule)\nplies: 0\n"),
        "{text}"
    );
    let kept = run_with_input(&args, "11\n11-15\nquit\n");
    assert!(
        stdout(&kept).starts_with("ply 1 black 11-15\n"),
        "{}",
        stdout(&kept)
    );
}

#[test]
fn the_basic_game_lets_a_capture_stop_part_way_and_be_declined() {
    let basic = [
        "--set",
        "mandatory_capture=false",
        "--set",
        "complete_jumps=false",
    ];
    let mut args = vec![
        "play",
        "checkers",
        "--white",
        "human",
        "--fen",
        "W:W27:B23,14",
        "-q",
    ];
    args.extend(basic);
    let stopped = run_with_input(&args, "27x18\nquit\n");
    assert!(stopped.status.success(), "{}", stderr(&stopped));
    assert!(
        stdout(&stopped).starts_with("ply 1 white 27x18\n"),
        "{}",
        stdout(&stopped)
    );
    let declined = run_with_input(&args, "27-24\nquit\n");
    assert!(
        stdout(&declined).starts_with("ply 1 white 27-24\n"),
        "{}",
        stdout(&declined)
    );
    // The standard game refuses both, naming the one legal move.
    let standard = run_with_input(&args[..7], "27x18\n27-24\nquit\n");
    assert!(!stdout(&standard).contains("ply 1 white 27x18"));
    assert_eq!(
        stderr(&standard).matches("legal moves: 27x18x9").count(),
        2,
        "{}",
        stderr(&standard)
    );
    let mut perft = vec!["perft", "checkers", "-d", "6"];
    perft.extend(basic);
    let counted = run(&perft);
    assert!(
        stdout(&counted).contains("perft 6: 190647 leaves"),
        "{}",
        stdout(&counted)
    );
    let rules = run(&["rules", "checkers"]);
    assert!(stdout(&rules).contains("mandatory_capture=true"));
    assert!(stdout(&rules).contains("complete_jumps=true"));
}

#[test]
fn a_record_file_that_cannot_be_written_is_named_before_the_game_or_after_its_result() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-dir").join("g.pdn");
    for path in [missing.to_str().unwrap(), dir.path().to_str().unwrap()] {
        let output = run(&["play", "checkers", "-q", "--max-plies", "2", "--save", path]);
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        assert!(
            stderr(&output).contains(&format!("cannot save the game to {path}: ")),
            "{}",
            stderr(&output)
        );
        assert!(stdout(&output).is_empty(), "{}", stdout(&output));
    }
    assert!(!missing.parent().unwrap().exists());
    if std::path::Path::new("/dev/full").exists() {
        let output = run(&[
            "play",
            "checkers",
            "-q",
            "--max-plies",
            "2",
            "--save",
            "/dev/full",
        ]);
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        assert!(stdout(&output).contains("result: "), "{}", stdout(&output));
        assert!(
            stderr(&output).contains("its record is not saved"),
            "{}",
            stderr(&output)
        );
    }
}

#[test]
fn a_check_fails_even_when_its_reader_left_early() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("3-3.ppdb"), b"not a table").unwrap();
    let db = dir.path().to_str().unwrap();
    let left_early = |args: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        // The reader leaves before the first line (`| head -0`).
        drop(child.stdout.take());
        child.wait_with_output().expect("the binary finishes")
    };
    let info = left_early(&["info", "--db", db]);
    assert_eq!(info.status.code(), Some(1), "{}", stderr(&info));
    assert!(stderr(&info).contains("unreadable"), "{}", stderr(&info));
    // Where there is nothing to check, a reader that leaves ends the command quietly.
    let games = left_early(&["games"]);
    assert_eq!(games.status.code(), Some(0), "{}", stderr(&games));
    assert!(stderr(&games).is_empty(), "{}", stderr(&games));
}

#[test]
fn help_that_cannot_be_written_is_an_error() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .arg("--help")
        .stdout(full)
        .stderr(Stdio::piped())
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("input/output error"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_record_cut_short_by_a_write_error_is_taken_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pdn");
    let path = path.to_str().unwrap();
    let first = run(&["play", "checkers", "-q", "--max-plies", "2", "--save", path]);
    assert!(first.status.success(), "{}", stderr(&first));
    let before = std::fs::read(path).unwrap();
    assert!(before.len() < 512, "{}", before.len());
    // Files limited to one block of 512 bytes (or 1 KiB, as the shell counts them), the signal
    // ignored, so that a write past it fails (EFBIG) as on a full disk; a long game's record
    // does not fit.
    let output = Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -f 1 && trap '' XFSZ && exec "$0" "$@""#)
        .arg(env!("CARGO_BIN_EXE_perfectplay"))
        .args([
            "play",
            "checkers",
            "-q",
            "--max-plies",
            "300",
            "--save",
            path,
        ])
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("its record is not saved"),
        "{}",
        stderr(&output)
    );
    assert_eq!(
        std::fs::read(path).unwrap(),
        before,
        "the file holds the first game alone"
    );
}

#[test]
fn a_save_waits_while_another_save_holds_the_file() {
    // Blocked lock requests are listed in /proc/locks (Linux), so the wait is seen, not timed.
    if !std::path::Path::new("/proc/locks").exists() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pdn");
    std::fs::write(&path, "").unwrap();
    let held = std::fs::File::open(&path).unwrap();
    held.lock().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(["play", "checkers", "-q", "--max-plies", "2", "--save"])
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let waiter = format!(" {} ", child.id());
    let mut waited = false;
    for _ in 0..600 {
        let locks = std::fs::read_to_string("/proc/locks").unwrap();
        if locks
            .lines()
            .any(|line| line.contains("->") && line.contains(&waiter))
        {
            waited = true;
            break;
        }
        if child.try_wait().unwrap().is_some() {
            let output = child.wait_with_output().unwrap();
            panic!(
                "play ended without waiting for the lock, leaving {:?}: {}",
                std::fs::read_to_string(&path),
                stderr(&output)
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(waited, "the save never waited for the lock");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "");
    held.unlock().unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("waiting for another save to "),
        "{}",
        stderr(&output)
    );
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(
        saved.contains("[Event \"perfectplay play checkers\"]"),
        "{saved}"
    );
}
