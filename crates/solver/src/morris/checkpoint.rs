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

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::transposition::TEMPORARY_INFIX;
use crate::error::{DbError, SolveError};
use crate::lock::{BuildLock, LockWait};

/// A search's hold on its checkpoint file; dropping it lets the file go (and removes the lock
/// file).
#[derive(Debug)]
pub struct CheckpointLock {
    _lock: BuildLock,
    removed: Vec<PathBuf>,
}

impl CheckpointLock {
    /// Takes the lock of the checkpoint `path` (its directory must exist), without waiting:
    /// [`SolveError::CheckpointInUse`] names the search that holds it. Once held, the
    /// temporary files a killed save of `path` left are removed.
    pub fn acquire(path: &Path) -> Result<CheckpointLock, SolveError> {
        let lock_path = sibling(path, ".lock");
        let lock =
            BuildLock::acquire_file(lock_path.clone(), LockWait::No).map_err(|e| match e {
                SolveError::Locked { lock, holder } => SolveError::CheckpointInUse {
                    checkpoint: path.to_owned(),
                    lock,
                    holder,
                },
                other => other,
            })?;
        let removed = remove_temporary_files(path)?;
        Ok(CheckpointLock {
            _lock: lock,
            removed,
        })
    }

    /// The temporary files of killed saves that taking the lock removed.
    #[must_use]
    pub fn removed(&self) -> &[PathBuf] {
        &self.removed
    }
}

/// `path` with `suffix` added to its file name.
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name: OsString = path.file_name().unwrap_or_default().to_owned();
    name.push(suffix);
    path.with_file_name(name)
}

/// Removes every `FILE.tmp-…` beside `path`, returning their paths.
fn remove_temporary_files(path: &Path) -> Result<Vec<PathBuf>, SolveError> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut prefix = path.file_name().unwrap_or_default().to_owned();
    prefix.push(TEMPORARY_INFIX);
    let prefix = prefix.as_encoded_bytes();
    let mut removed = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| DbError::io(dir, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| DbError::io(dir, e))?;
        let name = entry.file_name();
        let bytes = name.as_encoded_bytes();
        if bytes.len() > prefix.len() && bytes.starts_with(prefix) {
            let stale = entry.path();
            std::fs::remove_file(&stale).map_err(|e| DbError::io(&stale, e))?;
            removed.push(stale);
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
        assert_eq!(
            sibling(Path::new("t.tt"), ".lock"),
            PathBuf::from("t.tt.lock")
        );
    }

    #[test]
    fn a_checkpoint_in_a_missing_directory_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing").join("search.tt");
        let err = CheckpointLock::acquire(&path).unwrap_err();
        assert!(err.to_string().contains("missing"), "{err}");
    }
}
