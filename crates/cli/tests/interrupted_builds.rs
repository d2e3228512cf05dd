//! Builds killed at random moments, and builds that meet in one directory: what is left must
//! be the tables an undisturbed build writes, byte for byte.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use perfectplay_solver::checksums::sha256_file;
use perfectplay_solver::{BuildLock, LockWait};

/// A build of four tables that takes a couple of seconds in a test build.
const SOLVE: [&str; 4] = ["solve", "nine_mens_morris", "--max-men", "4"];

fn solve_command(dir: &Path, extra: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_perfectplay"));
    command
        .args(SOLVE)
        .args(["--out", dir.to_str().unwrap(), "--threads", "2", "-q"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The SHA-256 of every file in `dir` (the build lock's file excepted: it is gone after a
/// build that ends, and left by one that is killed).
fn digests(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name != perfectplay_solver::LOCK_FILE)
        .map(|name| {
            let digest = sha256_file(&dir.join(&name)).unwrap();
            (name, digest)
        })
        .collect()
}

/// The tables of an undisturbed build (made once for every test here).
fn reference() -> BTreeMap<String, String> {
    static TABLES: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    TABLES
        .get_or_init(|| {
            let dir = tempfile::tempdir().unwrap();
            let out = solve_command(dir.path(), &[]).output().unwrap();
            assert!(out.status.success(), "{}", text(&out));
            let tables = digests(dir.path());
            assert_eq!(tables.len(), 4, "{tables:?}");
            assert!(tables.keys().all(|name| name.ends_with(".ppdb")));
            tables
        })
        .clone()
}

/// SplitMix64: the delays are random, but the same on every run of the test.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Kills `child` (SIGKILL, sent to the child's own pid: no handler, no clean-up, as after a
/// crash or the OOM killer); whether it was still running, so that the kill met a build.
fn kill(mut child: Child) -> bool {
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    running
}

/// Whether `dir` holds a unit's checkpoint (`KEY.ppck`).
fn holds_a_checkpoint(dir: &Path) -> bool {
    digests(dir).keys().any(|name| name.ends_with(".ppck"))
}

/// Builds into `dir` (with `extra`) to the end: the build takes up the checkpoint there and
/// writes `want`, the tables of an undisturbed build.
fn finishes_from_its_checkpoint(dir: &Path, extra: &[&str], want: &BTreeMap<String, String>) {
    let out = solve_command(dir, extra).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        text(&out).contains("taken up from checkpoints: "),
        "{}",
        text(&out)
    );
    assert_eq!(&digests(dir), want, "{}", text(&out));
}

/// What four builds into one directory, each killed after a random delay, met.
struct Kills {
    /// Kills that met a running build.
    hits: usize,
    /// Whether some kill left a unit checkpoint (`KEY.ppck`).
    left_a_checkpoint: bool,
}

/// Starts a build into `dir` with `extra` four times, killing each after 0.3 to 2.8 s (times
/// `scale`): into the start, a unit being solved or written, or past the end. After each kill
/// every table left must be complete: a rerun would quietly rebuild a damaged one.
fn kill_four_builds(dir: &Path, extra: &[&str], seed: &mut u64, scale: f64) -> Kills {
    let want = reference();
    let mut kills = Kills {
        hits: 0,
        left_a_checkpoint: false,
    };
    for _ in 0..4 {
        let child = solve_command(dir, extra).spawn().unwrap();
        let delay = (300 + next(seed) % 2500) as f64 * scale;
        std::thread::sleep(Duration::from_millis(delay as u64));
        kills.hits += usize::from(kill(child));
        for (name, digest) in digests(dir) {
            if name.ends_with(".ppdb") {
                assert_eq!(Some(&digest), want.get(&name), "{name} after a kill");
            }
            kills.left_a_checkpoint |= name.ends_with(".ppck");
        }
    }
    kills
}

#[test]
fn a_build_killed_again_and_again_finishes_with_the_same_bytes() {
    let want = reference();
    let mut seed = 0x5eed_u64;
    // On a machine fast enough to finish before every kill, again with shorter delays: the
    // test proves nothing unless some kill met a running build.
    for scale in [1.0, 0.5, 0.25, 0.1, 0.05] {
        let dir = tempfile::tempdir().unwrap();
        if kill_four_builds(dir.path(), &[], &mut seed, scale).hits == 0 {
            continue;
        }
        let out = solve_command(dir.path(), &[]).output().unwrap();
        assert!(out.status.success(), "{}", text(&out));
        assert_eq!(digests(dir.path()), want);
        // A rerun keeps every table.
        let again = solve_command(dir.path(), &[]).output().unwrap();
        assert!(text(&again).contains("solved 0 in"), "{}", text(&again));
        return;
    }
    panic!("no kill met a running build, even after 15 ms");
}

#[test]
fn a_second_build_names_the_first_or_waits_for_it() {
    let want = reference();
    let dir = tempfile::tempdir().unwrap();
    let held = BuildLock::acquire(dir.path(), LockWait::No).unwrap();
    let out = solve_command(dir.path(), &[]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let said = text(&out);
    assert!(
        said.contains("another build is writing into this directory")
            && said.contains(&format!("pid {}", std::process::id()))
            && said.contains("--wait"),
        "{said}"
    );
    assert!(
        digests(dir.path()).is_empty(),
        "the refused build wrote nothing"
    );

    let waiting = solve_command(dir.path(), &["--wait"]).spawn().unwrap();
    std::thread::sleep(Duration::from_millis(500));
    assert!(digests(dir.path()).is_empty(), "the build did not wait");
    drop(held);
    let out = waiting.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(digests(dir.path()), want);
    assert!(!dir.path().join(perfectplay_solver::LOCK_FILE).exists());
}

#[test]
fn two_builds_started_together_into_one_directory_leave_it_intact() {
    let want = reference();
    let dir = tempfile::tempdir().unwrap();
    let first = solve_command(dir.path(), &[]).spawn().unwrap();
    // Until the first build holds the lock (its description names its pid).
    let lock = dir.path().join(perfectplay_solver::LOCK_FILE);
    let pid = format!("pid {}\n", first.id());
    let started = Instant::now();
    while !std::fs::read_to_string(&lock).is_ok_and(|t| t.starts_with(&pid)) {
        assert!(started.elapsed() < Duration::from_secs(10), "no lock taken");
        std::thread::sleep(Duration::from_millis(5));
    }
    let second = solve_command(dir.path(), &["--wait"]).output().unwrap();
    let first = first.wait_with_output().unwrap();
    assert!(first.status.success(), "{}", text(&first));
    assert!(second.status.success(), "{}", text(&second));
    assert!(
        text(&second).contains("solved 0 in"),
        "the second build came after the first and kept its tables: {}",
        text(&second)
    );
    assert_eq!(digests(dir.path()), want);
}

/// With a checkpoint saved at every chance, builds killed in the middle of units take them up
/// from what the killed build saved: the tables are still those of an undisturbed build, and
/// no checkpoint is left once it is done.
#[test]
fn builds_killed_between_checkpoints_finish_with_the_same_bytes() {
    let want = reference();
    let saving = ["--checkpoint-every", "0"];
    let mut seed = 0xc4ec_u64;
    // Until the builds that go on take up a checkpoint a killed one left (a rerun that
    // ignored it and began the unit again would write the same bytes): with shorter delays
    // where every kill came too late, longer ones where a slow machine had saved nothing yet.
    for scale in [1.0, 0.5, 2.0, 0.25, 0.7, 4.0, 0.1, 0.4, 0.05] {
        let dir = tempfile::tempdir().unwrap();
        let kills = kill_four_builds(dir.path(), &saving, &mut seed, scale);
        if kills.hits == 0 || !kills.left_a_checkpoint || !holds_a_checkpoint(dir.path()) {
            continue;
        }
        finishes_from_its_checkpoint(dir.path(), &saving, &want);
        return;
    }
    panic!("no killed build left a checkpoint for the next to take up");
}

#[test]
fn checkpoint_intervals_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    for bad in ["-1", "soon", "NaN", "inf"] {
        let arg = format!("--checkpoint-every={bad}");
        let out = solve_command(dir.path(), &[&arg]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(
            text(&out).contains("not a number of minutes"),
            "{}",
            text(&out)
        );
    }
    let out = solve_command(dir.path(), &["--checkpoint-every", "0"])
        .output()
        .unwrap();
    assert!(
        text(&out).contains("unit checkpoints saved:"),
        "{}",
        text(&out)
    );
}

/// SIGTERM stops a build between two of its tasks: the unit under way is saved where it
/// stopped (here with no save due: the interval is the default half hour), and the same
/// command takes it up and writes the tables of an undisturbed build.
#[test]
fn a_build_stopped_by_sigterm_saves_its_unit_and_goes_on_from_there() {
    let want = reference();
    let mut seed = 0x7e4d_u64;
    for _ in 0..30 {
        let dir = tempfile::tempdir().unwrap();
        let child = solve_command(dir.path(), &[]).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(100 + next(&mut seed) % 1500));
        // SAFETY: kill(2) with the pid of a child not yet waited for, so still ours.
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
        let stopped = child.wait_with_output().unwrap();
        if stopped.status.success() || stopped.status.code().is_none() {
            // Done before the signal came, or the signal came before the build watched for it
            // (a very slow start): try another delay.
            continue;
        }
        assert_eq!(stopped.status.code(), Some(128 + 15), "{}", text(&stopped));
        assert!(
            text(&stopped).contains("stopped by SIGTERM: the complete tables are kept"),
            "{}",
            text(&stopped)
        );
        if !holds_a_checkpoint(dir.path()) {
            // Stopped between two units: nothing was under way.
            continue;
        }
        finishes_from_its_checkpoint(dir.path(), &[], &want);
        return;
    }
    panic!("no build was stopped in the middle of a unit in 30 tries");
}

/// A FIFO where a unit's checkpoint would be is refused as what it is: opening it to read
/// would wait for a writer forever.
#[test]
fn a_fifo_in_place_of_a_checkpoint_is_refused_not_waited_on() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("3-3.ppck");
    let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
    let out = Command::new(env!("CARGO_BIN_EXE_perfectplay"))
        .args(["solve", "nine_mens_morris", "--max-men", "3", "-q", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("3-3.ppck: is a FIFO"), "{}", text(&out));
}
