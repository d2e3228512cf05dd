//! `solve`, `probe`, `verify` and `info` run the way users and scripts run them.

use std::path::Path;
use std::process::{Command, Output};

use perfectplay_solver::morris::CheckpointLock;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Makes a FIFO at `path`, where a file the tool reads is looked for.
fn make_fifo(path: &Path) {
    let name = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn solve_probe_verify_info_and_a_damaged_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    let out = run(&[
        "solve",
        "nine_mens_morris",
        "--out",
        db,
        "--max-men",
        "3",
        "-q",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let summary = text(&out);
    assert!(
        summary.contains("3-3") && summary.contains("169626"),
        "{summary}"
    );

    let again = run(&[
        "solve",
        "nine_mens_morris",
        "--out",
        db,
        "--max-men",
        "3",
        "-q",
    ]);
    assert!(
        text(&again).contains("kept"),
        "a rerun keeps the table: {}",
        text(&again)
    );

    // White flies g4 to g7, closing a7-d7-g7, and takes a man: Black is left with two.
    let probe = run(&[
        "probe",
        "nine_mens_morris",
        "--db",
        db,
        "--fen",
        "WW./.../.../.....W/.../.../BBB w 0 0",
    ]);
    assert!(probe.status.success(), "{}", text(&probe));
    let shown = text(&probe);
    assert!(shown.contains("value: win in 1"), "{shown}");
    assert!(shown.contains("moves, best first:\n  g4-g7x"), "{shown}");

    let verify = run(&["verify", "nine_mens_morris", "--db", db, "-q"]);
    assert!(verify.status.success(), "{}", text(&verify));
    assert!(text(&verify).contains("3-3"), "{}", text(&verify));

    let info = run(&["info", "--db", db]);
    assert!(info.status.success(), "{}", text(&info));
    assert!(
        text(&info).contains("nine_mens_morris") && text(&info).contains("140621"),
        "{}",
        text(&info)
    );

    // A manifest, checked; then any change to a table shows.
    let info = run(&["info", "--db", db, "--write-checksums"]);
    assert!(text(&info).contains("CHECKSUMS"), "{}", text(&info));
    let sums = run(&["verify", "nine_mens_morris", "--db", db, "--checksums"]);
    assert!(sums.status.success(), "{}", text(&sums));
    // The bytes match, but not the game asked for, nor its rules.
    let twelve = ["verify", "twelve_mens_morris", "--db", db, "--checksums"];
    let any = [
        "verify",
        "nine_mens_morris",
        "--db",
        db,
        "--checksums",
        "--set",
        "removal=any",
    ];
    for (args, label) in [
        (&twelve[..], "OF ANOTHER GAME"),
        (&any[..], "OF OTHER RULES"),
    ] {
        let sums = run(args);
        assert_eq!(sums.status.code(), Some(1), "{args:?}: {}", text(&sums));
        assert!(
            text(&sums).contains(&format!("3-3.ppdb {label}: ")),
            "{args:?}: {}",
            text(&sums)
        );
    }

    // Truncate the table: probing and verifying refuse it with a message, status 1.
    let path = dir.path().join("3-3.ppdb");
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 10]).unwrap();
    let verify = run(&["verify", "nine_mens_morris", "--db", db, "-q"]);
    assert_eq!(verify.status.code(), Some(1), "{}", text(&verify));
    assert!(text(&verify).contains("truncated"), "{}", text(&verify));
    assert!(
        text(&verify).contains("while verifying 3-3: "),
        "{}",
        text(&verify)
    );
    let info = run(&["info", "--db", db]);
    assert!(text(&info).contains("unreadable"), "{}", text(&info));
    assert_eq!(info.status.code(), Some(1), "{}", text(&info));
    let sums = run(&["verify", "nine_mens_morris", "--db", db, "--checksums"]);
    assert_eq!(sums.status.code(), Some(1), "{}", text(&sums));
    assert!(text(&sums).contains("DIFFERENT"), "{}", text(&sums));
}

#[test]
fn info_totals_the_tables_by_pieces() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    // Compressed as built: each subspace has a WDL file and a distance file, counted once.
    let out = run(&[
        "solve",
        "checkers",
        "--out",
        db,
        "--max-pieces",
        "3",
        "--compress",
        "-q",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let info = run(&["info", "--db", db]);
    assert!(info.status.success(), "{}", text(&info));
    let shown = text(&info);
    let rows: Vec<Vec<&str>> = shown
        .lines()
        .skip_while(|line| *line != "checkers by pieces:")
        .skip(2)
        .take(2)
        .map(|line| line.split_whitespace().collect())
        .collect();
    // pieces, tables, positions, wins, draws, losses, longest win (README's 2-6 piece table).
    assert_eq!(
        rows,
        [
            ["2", "64", "3488", "716", "2370", "402", "13"],
            ["3", "240", "196032", "100250", "8477", "87305", "61"],
        ],
        "{shown}"
    );
    // A table copied under another subspace's name is unreadable to info as to every reader,
    // and no manifest certifies it.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ppdb"))
        .collect();
    std::fs::copy(dir.path().join(&names[0]), dir.path().join("zz.ppdb")).unwrap();
    let info = run(&["info", "--db", db, "--write-checksums"]);
    assert_eq!(info.status.code(), Some(1), "{}", text(&info));
    let stem = names[0].trim_end_matches(".ppdb");
    assert!(
        text(&info).contains(&format!("zz.ppdb: subspace is `{stem}`, expected `zz`")),
        "{}",
        text(&info)
    );
    assert!(!dir.path().join("CHECKSUMS").exists());
}

#[test]
fn database_commands_refuse_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    // Rules the tables cannot hold: a request refused (2) before any directory is made.
    let never_made = dir.path().join("shah");
    let out = run(&[
        "solve",
        "shah",
        "--out",
        never_made.to_str().unwrap(),
        "--whole-game",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("first_mill_opens"), "{}", text(&out));
    assert!(!never_made.exists());
    let out = run(&[
        "solve",
        "nine_mens_morris",
        "--out",
        db,
        "--subspace",
        "three",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let out = run(&["solve", "checkers", "--out", db]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let out = run(&["probe", "nine_mens_morris", "--db", db]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("no table for subspace"),
        "{}",
        text(&out)
    );
    let out = run(&["info", "--db", db]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let out = run(&["info", "--db", "/nonexistent/tables"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("/nonexistent/tables: "),
        "{}",
        text(&out)
    );
    // A file where a directory of tables belongs is named as such, by builds and readers.
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let file = file.to_str().unwrap();
    for args in [
        &["solve", "three_mens_morris", "-q", "--out", file][..],
        &["probe", "three_mens_morris", "--db", file][..],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", text(&out));
        assert!(
            text(&out).contains(&format!("{file}: not a directory")),
            "{args:?}: {}",
            text(&out)
        );
    }
}

#[test]
fn counts_of_men_and_of_threads_out_of_range_are_refused_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    let solve = ["solve", "nine_mens_morris", "--out", db];
    let verify = ["verify", "nine_mens_morris", "--db", db];
    let search = ["search", "nine_mens_morris", "--db", db];
    for (args, needle) in [
        (
            [&solve[..], &["--max-men", "0"]].concat(),
            "nine_mens_morris has 3 to 9 men a side on the board in the moving phase, not 0",
        ),
        ([&solve[..], &["--max-men", "100"]].concat(), "not 100"),
        ([&solve[..], &["--max-men", "2"]].concat(), "not 2"),
        (
            [&solve[..], &["--threads", "0"]].concat(),
            "0 threads: at least 1",
        ),
        (
            [&solve[..], &["--threads", "4000"]].concat(),
            "4000 threads is more than 4 per CPU",
        ),
        (
            [&solve[..], &["--threads", "100000", "--force-threads"]].concat(),
            "100000 threads is more than any build may start: at most 4096",
        ),
        (
            [
                &solve[..],
                &["--threads", "18446744073709551615", "--force-threads"],
            ]
            .concat(),
            "at most 4096",
        ),
        (
            [&verify[..], &["--threads", "100000"]].concat(),
            "--force-threads",
        ),
        ([&verify[..], &["--threads", "0"]].concat(), "at least 1"),
        (
            [&search[..], &["--threads", "100000"]].concat(),
            "100000 threads",
        ),
        ([&search[..], &["--threads", "0"]].concat(), "at least 1"),
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert!(text(&out).contains(needle), "{args:?}: {}", text(&out));
    }
    // A search table beyond the memory the system has available is refused before any of it
    // is written (2^34 entries: 128 GiB, the most the option takes), where the system has less.
    let available = perfectplay_solver::limits::available_memory();
    if available.is_some_and(|bytes| bytes < 8 << 34) {
        let out = run(&[&search[..], &["--table-bits", "34"]].concat());
        assert_eq!(out.status.code(), Some(1), "{}", text(&out));
        assert!(
            text(&out).contains(
                "cannot allocate the search's transposition table of 137438953472 bytes: the \
                 system has"
            ),
            "{}",
            text(&out)
        );
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // Forced, a count beyond the bound is taken (the tables are the same for any count): one
    // past it, so that a container's limit on processes does not meet a thousand threads.
    let beyond = (perfectplay_solver::limits::available_cpus()
        * perfectplay_solver::limits::THREADS_PER_CPU
        + 1)
    .to_string();
    let out = run(&[
        "solve",
        "three_mens_morris",
        "--out",
        db,
        "--threads",
        &beyond,
        "--force-threads",
        "-q",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains(&format!("with {beyond} threads")),
        "{}",
        text(&out)
    );
}

/// Six Men's Morris's moving phase solved into a fresh directory (1.2 M positions).
fn six_mens_morris_moving_tables() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    let out = run(&[
        "solve",
        "six_mens_morris",
        "--out",
        db,
        "--max-men",
        "6",
        "-q",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    dir
}

#[test]
fn search_values_the_placement_phase_on_the_moving_tables() {
    let dir = six_mens_morris_moving_tables();
    let db = dir.path().to_str().unwrap();
    let out = run(&["search", "six_mens_morris", "--db", db, "--moves"]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("value: draw"), "{said}");
    assert!(said.contains("moves, best first:"), "{said}");
    // Each turn's value is told as it is found, before the sorted list.
    assert!(said.contains(" s, a5: draw"), "{said}");
    // Two workers on tables copied into memory find the same.
    let out = run(&[
        "search",
        "six_mens_morris",
        "--db",
        db,
        "--threads",
        "2",
        "--preload",
    ]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("value: draw") && said.contains("preloaded"),
        "{said}"
    );
    // A transposition table kept on disk: the second run starts from what the first proved,
    // searches fewer positions and counts both runs.
    let saved = dir.path().join("search.tt");
    let saved = saved.to_str().unwrap();
    let checkpointed = |extra: &[&str]| {
        let mut args = vec!["search", "six_mens_morris", "--db", db, "--threads", "1"];
        args.extend_from_slice(&["--table-bits", "16", "--checkpoint", saved]);
        args.extend_from_slice(extra);
        run(&args)
    };
    let first = checkpointed(&[]);
    let said = text(&first);
    assert!(first.status.success(), "{said}");
    assert!(said.contains("transposition table saved"), "{said}");
    let searched = |said: &str| -> u64 {
        let at = said.find("searched ").expect("a count") + "searched ".len();
        said[at..].split(' ').next().unwrap().parse().unwrap()
    };
    let second = checkpointed(&["--checkpoint-minutes", "1"]);
    let again = text(&second);
    assert!(second.status.success(), "{again}");
    assert!(
        again.contains("value: draw") && again.contains("resumed from"),
        "{again}"
    );
    assert!(again.contains("all 2 runs"), "{again}");
    assert!(searched(&again) < searched(&said), "{said}\n{again}");
    // Another game's table, or a damaged one, is refused with the reason.
    let other = run(&[
        "search",
        "three_mens_morris",
        "--db",
        db,
        "--checkpoint",
        saved,
    ]);
    assert!(!other.status.success());
    assert!(
        text(&other).contains("game is `six_mens_morris`"),
        "{}",
        text(&other)
    );
    let bytes = std::fs::read(saved).unwrap();
    std::fs::write(saved, &bytes[..bytes.len() / 2]).unwrap();
    let cut = checkpointed(&[]);
    assert!(!cut.status.success());
    assert!(text(&cut).contains("truncated"), "{}", text(&cut));
    let searched_into = |checkpoint: &Path| {
        run(&[
            "search",
            "six_mens_morris",
            "--db",
            db,
            "--checkpoint",
            checkpoint.to_str().unwrap(),
        ])
    };
    // A FIFO given as the checkpoint is refused as what it is, not waited on for a writer.
    let fifo = dir.path().join("search.fifo");
    make_fifo(&fifo);
    let out = searched_into(&fifo);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("is a FIFO"), "{}", text(&out));
    // A checkpoint in a directory that does not exist is refused before any search.
    let out = searched_into(&dir.path().join("no such directory").join("search.tt"));
    let said = text(&out);
    assert!(!out.status.success(), "{said}");
    assert!(!said.contains("value:"), "{said}");
    assert!(said.contains("no such directory"), "{said}");
    // A checkpoint another search holds is refused, naming the holder; the temporary files of
    // a killed save are removed by the next search that takes the checkpoint.
    let held = CheckpointLock::acquire(Path::new(saved)).unwrap();
    let out = checkpointed(&[]);
    let said = text(&out);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("another search is using the checkpoint")
            && said.contains(&format!("pid {}", std::process::id())),
        "{said}"
    );
    drop(held);
    let stale = format!("{saved}.tmp-999999-0");
    std::fs::write(&stale, b"half a table").unwrap();
    std::fs::remove_file(saved).unwrap();
    let out = checkpointed(&[]);
    let said = text(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("removed") && said.contains(".tmp-999999-0"),
        "{said}"
    );
    assert!(!Path::new(&stale).exists());
    assert!(!Path::new(&format!("{saved}.lock")).exists());
    // Without the tables the search names what is missing.
    let empty = tempfile::tempdir().unwrap();
    let out = run(&[
        "search",
        "six_mens_morris",
        "--db",
        empty.path().to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(text(&out).contains("no table"), "{}", text(&out));
}

/// The arguments of a search of every first placement of Six Men's Morris in `db` with a tiny
/// transposition table kept in `checkpoint`: seconds of search, so that a test can act in the
/// middle of it.
fn slow_search_args<'a>(db: &'a str, checkpoint: &'a str) -> [&'a str; 11] {
    [
        "search",
        "six_mens_morris",
        "--db",
        db,
        "--moves",
        "--threads",
        "1",
        "--table-bits",
        "4",
        "--checkpoint",
        checkpoint,
    ]
}

/// Starts `perfectplay args` and reads its output until the board is printed, which it does
/// once interrupts are caught, just before the search starts; returns the child, its output
/// so far and the rest of its standard output.
fn start_until_searching(
    args: &[&str],
) -> (
    std::process::Child,
    String,
    std::io::BufReader<std::process::ChildStdout>,
) {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    while !seen.contains("in hand:") {
        if stdout.read_line(&mut seen).unwrap() == 0 {
            break;
        }
    }
    (child, seen, stdout)
}

#[test]
fn an_interrupted_search_saves_its_table_and_goes_on_from_it() {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    let dir = six_mens_morris_moving_tables();
    let db = dir.path().to_str().unwrap();
    let saved = dir.path().join("search.tt");
    let args = slow_search_args(db, saved.to_str().unwrap());
    // The search takes seconds and the signal comes at once: a search that ends well anyway
    // ignored it. Tried three times, so that one machine's hiccup is not a failure.
    let mut outcomes = Vec::new();
    for _ in 0..3 {
        let _ = std::fs::remove_file(&saved);
        let (child, mut seen, mut stdout) = start_until_searching(&args);
        // SAFETY: `kill` only sends a signal to the child this test started.
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
        stdout.read_to_string(&mut seen).unwrap();
        let stopped = child.wait_with_output().unwrap();
        let said = format!("{seen}{}", String::from_utf8_lossy(&stopped.stderr));
        // Interrupted or not, the checkpoint's lock file is gone with the search.
        assert!(!dir.path().join("search.tt.lock").exists());
        if stopped.status.success() {
            outcomes.push(said);
            continue;
        }
        assert_eq!(stopped.status.code(), Some(128 + libc::SIGTERM), "{said}");
        assert_eq!(stopped.status.signal(), None, "{said}");
        assert!(said.contains("interrupted; run the same command"), "{said}");
        let again = run(&args);
        let said = text(&again);
        assert!(again.status.success(), "{said}");
        assert!(
            said.contains("resumed from") && said.contains("value: draw"),
            "{said}"
        );
        return;
    }
    panic!("SIGTERM did not stop the search in three tries: {outcomes:?}");
}

#[test]
fn a_table_that_cannot_be_saved_at_the_end_still_lets_the_value_out() {
    use std::io::Read;
    let dir = six_mens_morris_moving_tables();
    let db = dir.path().to_str().unwrap();
    // The checkpoint's directory is there when the search starts and gone when it saves (at
    // the end: the search takes seconds, its periodic saves come every ten minutes). Tried
    // three times, so that one machine's hiccup is not a failure.
    let mut outcomes = Vec::new();
    for _ in 0..3 {
        let gone = tempfile::tempdir().unwrap();
        let saved = gone.path().join("search.tt");
        let args = slow_search_args(db, saved.to_str().unwrap());
        let (child, mut seen, mut stdout) = start_until_searching(&args);
        // Moved away whole in one step: the search's saves find no directory at the path.
        let moved = tempfile::tempdir().unwrap();
        std::fs::rename(gone.path(), moved.path().join("elsewhere")).unwrap();
        stdout.read_to_string(&mut seen).unwrap();
        let ended = child.wait_with_output().unwrap();
        let said = format!("{seen}{}", String::from_utf8_lossy(&ended.stderr));
        assert!(said.contains("value: draw"), "{said}");
        assert!(said.contains("moves, best first:"), "{said}");
        if ended.status.success() {
            outcomes.push(said);
            continue;
        }
        assert_eq!(ended.status.code(), Some(1), "{said}");
        assert!(
            said.contains("could not save the transposition table"),
            "{said}"
        );
        return;
    }
    panic!("a save into a directory moved away succeeded three times: {outcomes:?}");
}

#[test]
fn checkers_tables_are_built_probed_verified_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    let out = run(&["solve", "checkers", "--out", db, "--max-pieces", "3", "-q"]);
    assert!(out.status.success(), "{}", text(&out));
    // One king against two: Black's kings take the lone king in the end.
    let probe = run(&["probe", "checkers", "--db", db, "--fen", "B:WK32:BK1,K5"]);
    let shown = text(&probe);
    assert!(probe.status.success(), "{shown}");
    assert!(shown.contains("value: win in "), "{shown}");
    assert!(shown.contains("subspace 0201-00"), "{shown}");
    assert!(shown.contains("principal variation: "), "{shown}");
    assert!(shown.contains("1-6"), "every move is listed: {shown}");

    let verified = run(&["verify", "checkers", "--db", db, "-q"]);
    assert!(verified.status.success(), "{}", text(&verified));
    assert!(text(&verified).contains("verified"), "{}", text(&verified));
    let one = run(&[
        "verify",
        "checkers",
        "--db",
        db,
        "--subspace",
        "0201-00",
        "-q",
    ]);
    assert!(text(&one).contains("verified 1 tables"), "{}", text(&one));
    // A material names all its slices: a man against a man and a king.
    let slices = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            let name = name.to_str().unwrap();
            name.starts_with("1011-") && name.ends_with(".ppdb")
        })
        .count();
    assert!(slices > 1, "{slices}");
    let material = run(&["verify", "checkers", "--db", db, "--subspace", "1011"]);
    assert!(material.status.success(), "{}", text(&material));
    assert!(
        text(&material).contains(&format!("verified {slices} tables")),
        "{}",
        text(&material)
    );

    let info = run(&["info", "--db", db]);
    assert!(text(&info).contains("game: checkers"), "{}", text(&info));
    assert!(info.status.success(), "{}", text(&info));

    // A damaged header: `info` still lists every other table, then fails.
    let path = dir.path().join("0201-00.ppdb");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[12] ^= 0xff;
    std::fs::write(&path, &bytes).unwrap();
    let info = run(&["info", "--db", db]);
    let said = text(&info);
    assert_eq!(info.status.code(), Some(1), "{said}");
    assert!(said.contains("0201-00.ppdb unreadable: "), "{said}");
    assert!(said.contains("1 of the tables in"), "{said}");
    assert!(
        said.contains("0102-00"),
        "the other tables are listed: {said}"
    );

    // A FIFO and a directory named as tables: reported as what they are, never waited on.
    #[cfg(unix)]
    {
        let fifo = dir.path().join("0102-00.ppdb");
        std::fs::remove_file(&fifo).unwrap();
        make_fifo(&fifo);
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        let info = run(&["info", "--db", db]);
        let said = text(&info);
        assert_eq!(info.status.code(), Some(1), "{said}");
        assert!(
            said.contains("0102-00.ppdb unreadable: ") && said.contains("is a FIFO"),
            "{said}"
        );
        assert!(said.contains("is a directory"), "{said}");
        let probe = run(&["probe", "checkers", "--db", db, "--fen", "B:WK32:BK1,K5"]);
        assert!(
            !probe.status.success() && text(&probe).contains("is a directory"),
            "{}",
            text(&probe)
        );
    }

    let counted = run(&["positions", "checkers", "--max-pieces", "3"]);
    assert!(counted.status.success(), "{}", text(&counted));
    assert!(text(&counted).contains("261224"), "{}", text(&counted));
}

#[test]
fn checkers_commands_refuse_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().to_str().unwrap();
    for (args, needle) in [
        (
            vec!["solve", "checkers", "--out", db],
            "--max-pieces N (2 to 8)",
        ),
        (
            vec!["solve", "checkers", "--out", db, "--max-pieces", "9"],
            "the checkers databases hold 2 to 8 pieces, not 9",
        ),
        (
            vec!["solve", "checkers", "--out", db, "--max-pieces", "0"],
            "the checkers databases hold 2 to 8 pieces, not 0",
        ),
        (
            vec!["solve", "checkers", "--out", db, "--subspace", "5-4"],
            "e.g. 2110-53",
        ),
        (
            vec!["solve", "checkers", "--out", db, "--subspace", "1000-00"],
            "both sides",
        ),
        (
            vec!["solve", "checkers", "--out", db, "--subspace", "0070"],
            "checkers material 0070 holds no position with both sides",
        ),
        (
            vec!["verify", "checkers", "--db", db, "--subspace", "3330"],
            "checkers material 3330 has 9 pieces; the tables go up to 8",
        ),
        (
            vec![
                "solve",
                "nine_mens_morris",
                "--out",
                db,
                "--max-pieces",
                "4",
            ],
            "--max-men",
        ),
        (vec!["probe", "checkers", "--db", db], "at most 8"),
        (
            vec!["probe", "checkers", "--db", db, "--fen", "B:WK32:BK1,K5"],
            "no table for subspace 0201-00",
        ),
        (vec!["search", "checkers", "--db", db], "no placement phase"),
        (vec!["positions", "nine_mens_morris"], "for checkers"),
    ] {
        let out = run(&args);
        assert_eq!(
            out.status.code(),
            Some(
                if needle.contains("no table") || needle.contains("at most") {
                    1
                } else {
                    2
                }
            ),
            "{args:?}: {}",
            text(&out)
        );
        assert!(text(&out).contains(needle), "{args:?}: {}", text(&out));
    }
}

#[test]
fn compress_and_solve_compress_give_tables_every_command_reads() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain");
    let packed = dir.path().join("packed");
    let built = dir.path().join("built");
    let (plain, packed, built) = (
        plain.to_str().unwrap(),
        packed.to_str().unwrap(),
        built.to_str().unwrap(),
    );
    let out = run(&[
        "solve",
        "checkers",
        "--max-pieces",
        "3",
        "--out",
        plain,
        "-q",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let out = run(&["compress", "--db", plain, "--out", packed, "-q"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("compressed 304 tables"),
        "{}",
        text(&out)
    );
    let again = run(&["compress", "--db", plain, "--out", packed, "-q"]);
    assert!(text(&again).contains("kept"), "{}", text(&again));

    let out = run(&[
        "solve",
        "checkers",
        "--max-pieces",
        "3",
        "--out",
        built,
        "-q",
        "--compress",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("compressed 304 tables"),
        "{}",
        text(&out)
    );

    for db in [packed, built] {
        let info = run(&["info", "--db", db]);
        assert!(info.status.success(), "{}", text(&info));
        assert!(
            text(&info).contains("wdl, compressed: 304 tables"),
            "{}",
            text(&info)
        );
        assert!(
            text(&info).contains("distance, compressed: 304 tables"),
            "{}",
            text(&info)
        );
        // Two kings against one: the same answer as from the plain tables.
        let fen = "B:WK32:BK1,K5";
        let probe = run(&["probe", "checkers", "--db", db, "--fen", fen]);
        let plain_probe = run(&["probe", "checkers", "--db", plain, "--fen", fen]);
        assert!(probe.status.success(), "{}", text(&probe));
        assert_eq!(text(&probe), text(&plain_probe));
        let verify = run(&["verify", "checkers", "--db", db, "-q"]);
        assert!(verify.status.success(), "{}", text(&verify));
    }
}

#[cfg(unix)]
#[test]
fn a_directory_whose_name_is_not_utf8_is_built_into() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join(std::ffi::OsStr::from_bytes(b"tables-\xff"));
    // The build lock writes the command line into its file: a path that is no UTF-8 panicked.
    let built = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(["solve", "three_mens_morris", "-q", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", text(&built));
    assert!(out.join("3-3.ppdb").is_file());
}
