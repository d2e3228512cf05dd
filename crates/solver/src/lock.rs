//! The build lock: one build per directory at a time.
//!
//! A build holds an advisory lock (`flock`) on the file [`LOCK_FILE`] in its directory for as
//! long as it runs, and writes into that file who it is (pid, host, command line, start time),
//! so that a second build into the same directory can say who holds it. Without the lock the
//! second build's clean-up of half-written files deletes the first build's temporary file
//! under it.
//!
//! The kernel releases the lock when the holder's descriptor closes, which happens however
//! the process ends (SIGKILL and power loss included: a lock does not survive a reboot), so a
//! crashed build never leaves a directory locked; a killed build leaves the file with its
//! stale description, which the next build overwrites. A build that ends normally removes the
//! file. Whoever takes the lock checks that the file it locked is still the one at the path
//! (a holder may have removed it in between) and tries again if not.
//!
//! The lock is advisory: it binds perfectplay builds (the command-line tool, the Python
//! package, anything else calling [`crate::solve`]) and nothing else. On network file systems
//! it is as reliable as their `flock`.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::error::{DbError, SolveError};

/// The lock file's name in a table directory.
pub const LOCK_FILE: &str = ".lock";

/// How often a waiting build looks at the lock (and at its cancel flag) again.
const POLL: Duration = Duration::from_millis(100);

/// A held build lock on a directory; dropping it removes the lock file and releases the lock.
#[derive(Debug)]
pub struct BuildLock {
    /// Never read: the lock lives as long as this descriptor is open.
    _file: File,
    path: PathBuf,
}

/// Whether to wait for a build lock that another process holds.
#[derive(Clone, Copy)]
pub enum LockWait<'a> {
    /// Fail at once with [`SolveError::Locked`].
    No,
    /// Wait until the holder ends; `cancel`, when set, stops the wait with
    /// [`SolveError::Interrupted`]. `on_wait` is told the holder once, when the wait starts.
    Yes {
        /// Stops the wait when set.
        cancel: Option<&'a AtomicBool>,
        /// Called with the holder's description when the lock is found held.
        on_wait: &'a dyn Fn(&str),
    },
}

impl BuildLock {
    /// Takes the build lock of `dir` (which must exist), waiting for its holder or not.
    pub fn acquire(dir: &Path, wait: LockWait<'_>) -> Result<BuildLock, SolveError> {
        BuildLock::acquire_file(dir.join(LOCK_FILE), wait)
    }

    /// Takes the lock held on the file `path` (created if missing), waiting for its holder or
    /// not; the same protocol as a directory's build lock, for a lock of another name.
    pub(crate) fn acquire_file(path: PathBuf, wait: LockWait<'_>) -> Result<BuildLock, SolveError> {
        let mut told = false;
        loop {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .map_err(|e| DbError::io(&path, e))?;
            match file.try_lock() {
                Ok(()) => {
                    if !same_file(&file, &path) {
                        // The holder removed the file after we opened it: lock the new one.
                        continue;
                    }
                    describe_holder(&mut file).map_err(|e| DbError::io(&path, e))?;
                    return Ok(BuildLock { _file: file, path });
                }
                Err(TryLockError::WouldBlock) => {
                    let holder = read_holder(&mut file);
                    match wait {
                        LockWait::No => return Err(SolveError::Locked { lock: path, holder }),
                        LockWait::Yes { cancel, on_wait } => {
                            if !told {
                                on_wait(&holder);
                                told = true;
                            }
                            if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                                return Err(SolveError::Interrupted);
                            }
                            std::thread::sleep(POLL);
                        }
                    }
                }
                Err(TryLockError::Error(e)) => return Err(DbError::io(&path, e).into()),
            }
        }
    }

    /// The lock file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl BuildLock {
    /// Removes the lock file while the lock is still held, so that whoever opened it meanwhile
    /// sees it is gone ([`same_file`]) and locks a new one; the lock itself goes with the
    /// descriptor. Only our own file: if someone deleted it and another holder made a new one,
    /// that one stays. Dropping the lock does this; a process that ends by
    /// `std::process::exit`, which drops nothing, calls it first.
    pub(crate) fn remove_own_file(&self) {
        if same_file(&self._file, &self.path) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

impl Drop for BuildLock {
    fn drop(&mut self) {
        self.remove_own_file();
    }
}

/// Whether `file` is still the file at `path`.
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Whether `file` is still the file at `path` (without inode numbers: whether it exists).
#[cfg(not(unix))]
fn same_file(_file: &File, path: &Path) -> bool {
    path.exists()
}

/// Writes who holds the lock into the lock file, replacing an earlier holder's text.
fn describe_holder(file: &mut File) -> std::io::Result<()> {
    // `args_os`: a path argument need not be UTF-8 (`args` panics on one that is not).
    let command: Vec<String> = std::env::args_os()
        .map(|arg| arg.to_string_lossy().into_owned())
        .collect();
    let text = format!(
        "pid {}\nhost {}\ncommand {}\nstarted {}\n",
        std::process::id(),
        host_name(),
        command.join(" "),
        utc_now()
    );
    file.set_len(0)?;
    file.rewind()?;
    file.write_all(text.as_bytes())?;
    file.sync_data()
}

/// The holder's description, one line, from a lock file another process holds.
fn read_holder(file: &mut File) -> String {
    let mut text = String::new();
    let _ = file.rewind().and_then(|()| file.read_to_string(&mut text));
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        // Taken an instant ago and not yet described.
        "another process, which has not written its name yet".to_owned()
    } else {
        lines.join(", ")
    }
}

fn host_name() -> String {
    ["/proc/sys/kernel/hostname", "/etc/hostname"]
        .iter()
        .find_map(|p| std::fs::read_to_string(p).ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// The time now as `2026-11-25T20:48:37Z`.
fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// The Gregorian date of a count of days since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_names_the_holder_and_a_released_lock_is_free() {
        let dir = tempfile::tempdir().unwrap();
        let held = BuildLock::acquire(dir.path(), LockWait::No).unwrap();
        let text = std::fs::read_to_string(dir.path().join(LOCK_FILE)).unwrap();
        assert!(
            text.starts_with(&format!("pid {}\nhost ", std::process::id())),
            "{text}"
        );
        // flock locks belong to open files, so a second open in this process conflicts too.
        let err = BuildLock::acquire(dir.path(), LockWait::No).unwrap_err();
        let SolveError::Locked { lock, holder } = &err else {
            panic!("{err}")
        };
        assert_eq!(lock, &dir.path().join(LOCK_FILE));
        assert!(
            holder.contains(&format!("pid {}", std::process::id())),
            "{holder}"
        );
        assert!(err.to_string().contains("--wait"), "{err}");
        drop(held);
        assert!(!dir.path().join(LOCK_FILE).exists());
        drop(BuildLock::acquire(dir.path(), LockWait::No).unwrap());
    }

    #[test]
    fn a_waiting_lock_is_taken_when_the_holder_lets_go_or_given_up_when_cancelled() {
        let dir = tempfile::tempdir().unwrap();
        let held = BuildLock::acquire(dir.path(), LockWait::No).unwrap();
        let cancel = AtomicBool::new(true);
        let wait = LockWait::Yes {
            cancel: Some(&cancel),
            on_wait: &|_| {},
        };
        assert!(matches!(
            BuildLock::acquire(dir.path(), wait),
            Err(SolveError::Interrupted)
        ));
        let told = std::sync::Mutex::new(Vec::new());
        let on_wait = |h: &str| told.lock().unwrap().push(h.to_owned());
        std::thread::scope(|s| {
            let waiter = s.spawn(|| {
                BuildLock::acquire(
                    dir.path(),
                    LockWait::Yes {
                        cancel: None,
                        on_wait: &on_wait,
                    },
                )
            });
            std::thread::sleep(Duration::from_millis(300));
            assert!(!waiter.is_finished());
            drop(held);
            let lock = waiter.join().unwrap().unwrap();
            assert!(lock.path().exists());
        });
        assert_eq!(told.lock().unwrap().len(), 1);
    }

    #[test]
    #[cfg(unix)]
    fn a_holder_whose_file_was_replaced_leaves_the_new_holders_file() {
        let dir = tempfile::tempdir().unwrap();
        let first = BuildLock::acquire(dir.path(), LockWait::No).unwrap();
        std::fs::remove_file(first.path()).unwrap();
        let second = BuildLock::acquire(dir.path(), LockWait::No).unwrap();
        drop(first);
        assert!(
            second.path().exists(),
            "the first holder removed the second's file"
        );
        drop(second);
        assert!(!dir.path().join(LOCK_FILE).exists());
    }

    #[test]
    fn dates_are_gregorian() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_417), (2025, 11, 25));
    }
}
