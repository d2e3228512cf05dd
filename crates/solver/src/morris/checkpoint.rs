//! The hold a placement search takes on its checkpoint file (`search --checkpoint FILE`, or
//! `Tablebase.search(checkpoint=...)`) for as long as it runs.
//!
//! A search reads the file when it starts and writes it under a temporary name beside it
//! (`FILE.tmp-PID-N`), renamed over `FILE` when complete. Two searches with one checkpoint
//! would each write their own table over the other's, and a search killed in the middle of a
//! write (`kill -9`, a second Ctrl-C) leaves its temporary file, as large as the table, behind.
//! So a search first takes an advisory lock (`flock`, the protocol of the build lock
//! [`crate::BuildLock`]) on `FILE.lock`: a second search with the same checkpoint is refused
//! with the holder's description, and the holder, being the only search that may write `FILE`,
//! removes any temporary file of `FILE` it finds, which can only be a killed writer's.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use super::transposition::{sibling, TEMPORARY_INFIX};
use crate::error::{DbError, SolveError};
use crate::lock::{BuildLock, LockWait};

/// A search's hold on its checkpoint file; dropping it lets the file go (and removes the lock
/// file).
#[derive(Debug)]
pub struct CheckpointLock {
    lock: BuildLock,
    removed: Vec<PathBuf>,
}

impl CheckpointLock {
    /// Takes the lock of the checkpoint `path` (its directory must exist), without waiting:
    /// [`SolveError::CheckpointInUse`] names the search that holds it. Once held, the
    /// temporary files a killed save of `path` left are removed.
    pub fn acquire(path: &Path) -> Result<CheckpointLock, SolveError> {
        let refused = |reason: String| SolveError::CheckpointPath {
            checkpoint: path.to_owned(),
            reason,
        };
        // `.`, `..` or `/` would put the lock at a directory's build lock (`DIR/.lock`).
        let Some(name) = path.file_name() else {
            return Err(refused("it names no file".to_owned()));
        };
        if path.is_dir() {
            return Err(refused("it is a directory".to_owned()));
        }
        let dir = directory_of(path);
        if !dir.is_dir() {
            return Err(refused(format!(
                "its directory {} does not exist",
                dir.display()
            )));
        }
        let lock =
            BuildLock::acquire_file(sibling(path, ".lock"), LockWait::No).map_err(|e| match e {
                SolveError::Locked { lock, holder } => SolveError::CheckpointInUse {
                    checkpoint: path.to_owned(),
                    lock,
                    holder,
                },
                SolveError::Db(DbError::Io { source, .. }) => {
                    refused(format!("its lock file cannot be made there ({source})"))
                }
                other => other,
            })?;
        let removed = remove_temporary_files(dir, name)?;
        Ok(CheckpointLock { lock, removed })
    }

    /// The temporary files of killed saves that taking the lock removed.
    #[must_use]
    pub fn removed(&self) -> &[PathBuf] {
        &self.removed
    }

    /// The lock file, `FILE.lock`.
    #[must_use]
    pub fn path(&self) -> &Path {
        self.lock.path()
    }

    /// Removes the lock file as dropping the lock does, for a process about to end by
    /// `std::process::exit` (which drops nothing) while it still holds the lock.
    pub fn remove_file_before_exit(&self) {
        self.lock.remove_own_file();
    }
}

/// The directory `path` is in (the current one for a bare name).
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    }
}

/// Whether `name` is that of a temporary file of the checkpoint `checkpoint`: exactly
/// `CHECKPOINT.tmp-PID-N`, as a save names it.
fn is_temporary_of(name: &OsStr, checkpoint: &OsStr) -> bool {
    let (name, checkpoint) = (name.as_encoded_bytes(), checkpoint.as_encoded_bytes());
    let Some(rest) = name
        .strip_prefix(checkpoint)
        .and_then(|r| r.strip_prefix(TEMPORARY_INFIX.as_bytes()))
    else {
        return false;
    };
    let number = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
    let mut parts = rest.split(|&b| b == b'-');
    matches!((parts.next(), parts.next(), parts.next()), (Some(pid), Some(n), None) if number(pid) && number(n))
}

/// Removes every regular file `NAME.tmp-PID-N` in `dir`, returning the paths removed; one that
/// cannot be removed is left (it is never read).
fn remove_temporary_files(dir: &Path, name: &OsStr) -> Result<Vec<PathBuf>, SolveError> {
    let mut removed = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| DbError::io(dir, e))?;
    for entry in entries.flatten() {
        let is_file = entry.file_type().is_ok_and(|t| t.is_file());
        if is_file && is_temporary_of(&entry.file_name(), name) {
            let stale = entry.path();
            if std::fs::remove_file(&stale).is_ok() {
                removed.push(stale);
            }
        }
    }
    removed.sort();
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_search_is_refused_while_the_first_holds_the_checkpoint() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("search.tt");
        let held = CheckpointLock::acquire(&path).unwrap();
        let err = CheckpointLock::acquire(&path).unwrap_err();
        let SolveError::CheckpointInUse {
            checkpoint,
            lock,
            holder,
        } = &err
        else {
            panic!("{err:?}");
        };
        assert_eq!(checkpoint, &path);
        assert_eq!(lock, &dir.path().join("search.tt.lock"));
        assert!(
            holder.contains(&format!("pid {}", std::process::id())),
            "{holder}"
        );
        assert!(err.to_string().contains("search.tt"), "{err}");
        // Another checkpoint in the same directory is free.
        CheckpointLock::acquire(&dir.path().join("other.tt")).unwrap();
        drop(held);
        assert!(!dir.path().join("search.tt.lock").exists());
        CheckpointLock::acquire(&path).unwrap();
    }

    #[test]
    fn taking_the_lock_removes_the_temporary_files_of_killed_saves_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("search.tt");
        let keep = [
            "search.tt",
            "search.ttx.tmp-1-0",
            "other.tt.tmp-1-0",
            "search.tt.tmp-",
            "search.tt.tmp-notes",
            "search.tt.tmp-1-2-3",
            "search.tt.tmp-1-",
            "search.tt.lock.old",
        ];
        let stale = ["search.tt.tmp-4242-0", "search.tt.tmp-4242-1"];
        for name in keep.iter().chain(&stale) {
            std::fs::write(dir.path().join(name), b"x").unwrap();
        }
        let lock = CheckpointLock::acquire(&path).unwrap();
        let want: Vec<PathBuf> = stale.iter().map(|n| dir.path().join(n)).collect();
        assert_eq!(lock.removed(), want.as_slice());
        for name in keep {
            assert!(dir.path().join(name).exists(), "{name} removed");
        }
        for name in stale {
            assert!(!dir.path().join(name).exists(), "{name} kept");
        }
        // A directory of such a name is not a save's file: left, and no error.
        drop(lock);
        std::fs::create_dir(dir.path().join("search.tt.tmp-7-7")).unwrap();
        let lock = CheckpointLock::acquire(&path).unwrap();
        assert!(lock.removed().is_empty());
        assert!(dir.path().join("search.tt.tmp-7-7").is_dir());
        assert_eq!(
            sibling(Path::new("t.tt"), ".lock"),
            PathBuf::from("t.tt.lock")
        );
    }

    #[test]
    fn a_checkpoint_in_a_missing_directory_or_without_a_file_name_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing").join("search.tt");
        let err = CheckpointLock::acquire(&path).unwrap_err();
        assert!(matches!(err, SolveError::CheckpointPath { .. }), "{err:?}");
        let said = err.to_string();
        assert!(
            said.contains("search.tt")
                && said.contains("missing")
                && said.contains("does not exist"),
            "{said}"
        );
        // Never the directory's build lock, `DIR/.lock`.
        for bad in [
            dir.path().join(".."),
            PathBuf::from("/"),
            PathBuf::from("."),
        ] {
            let err = CheckpointLock::acquire(&bad).unwrap_err();
            assert!(err.to_string().contains("names no file"), "{bad:?}: {err}");
        }
        let err = CheckpointLock::acquire(dir.path()).unwrap_err();
        assert!(err.to_string().contains("is a directory"), "{err}");
        assert!(!dir.path().join(".lock").exists());
    }
}
