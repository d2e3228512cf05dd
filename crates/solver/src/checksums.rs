//! Checksum manifests: the SHA-256 of every table in a directory, in `sha256sum` format, so
//! that anyone who rebuilds a set can confirm identical bytes.
//!
//! The manifest is the file `CHECKSUMS` next to the tables, one line per table:
//! `<64 hex digits>  <file name>`, sorted by file name (`sha256sum -c CHECKSUMS` reads it too).
//! A name is a plain file name of the manifest's directory: [`check_manifest`] refuses a line
//! with a `/`, a `..` or an absolute path rather than hash (and print the digest of) a file
//! elsewhere, since a manifest may come from anyone.
//! Building never writes it: a committed manifest records a reference build, and
//! [`check_manifest`] compares a new build against it.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::error::DbError;
use crate::format::EXTENSION;

/// The manifest's file name.
pub const MANIFEST: &str = "CHECKSUMS";

/// How one file compares with the manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChecksumStatus {
    /// Same bytes.
    Match,
    /// Different bytes.
    Mismatch {
        /// The digest in the manifest.
        expected: String,
        /// The digest of the file.
        found: String,
    },
    /// Listed, but not in the directory.
    Missing,
    /// In the directory, but not listed.
    Unlisted,
}

/// One line of a check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChecksumResult {
    /// The file name.
    pub file: String,
    /// How it compares.
    pub status: ChecksumStatus,
}

/// The SHA-256 of a file, as lower-case hex.
pub fn sha256_file(path: &Path) -> Result<String, DbError> {
    let (mut file, _) = crate::table::open_table_file(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let n = file.read(&mut buffer).map_err(|e| DbError::io(path, e))?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// The table files of `dir`, sorted by name.
fn table_files(dir: &Path) -> Result<Vec<String>, DbError> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| DbError::io(dir, e))? {
        let entry = entry.map_err(|e| DbError::io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') && name.ends_with(&format!(".{EXTENSION}")) {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}

/// Hashes every table of `dir` (in parallel) and writes the manifest; returns its path.
pub fn write_manifest(dir: &Path) -> Result<PathBuf, DbError> {
    let names = table_files(dir)?;
    let digests = names
        .par_iter()
        .map(|n| sha256_file(&dir.join(n)))
        .collect::<Result<Vec<_>, _>>()?;
    let path = dir.join(MANIFEST);
    let tmp = dir.join(format!(".{MANIFEST}.tmp-{}", std::process::id()));
    let result = (|| -> io::Result<()> {
        let mut file = File::create(&tmp)?;
        for (name, digest) in names.iter().zip(&digests) {
            writeln!(file, "{digest}  {name}")?;
        }
        file.sync_all()?;
        std::fs::rename(&tmp, &path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        DbError::io(&path, e)
    })?;
    Ok(path)
}

/// Whether `name` names a file in the manifest's own directory: a manifest from elsewhere
/// must not make a check read (and print the digest of) any other file.
fn is_plain_file_name(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\', '\0'])
        && Path::new(name).is_relative()
}

/// Compares every table of `dir` with its manifest; a line that names anything but a file of
/// `dir` is refused.
pub fn check_manifest(dir: &Path) -> Result<Vec<ChecksumResult>, DbError> {
    let path = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&path).map_err(|e| DbError::io(&path, e))?;
    let mut listed: Vec<(String, String)> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = || {
            DbError::corrupted(
                &path,
                format!("line {}: expected `<sha256>  <file>`", n + 1),
            )
        };
        let (digest, name) = line.split_once("  ").ok_or_else(bad)?;
        if digest.len() != 64 || !digest.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let name = name.trim();
        if !is_plain_file_name(name) {
            return Err(DbError::corrupted(
                &path,
                format!(
                    "line {}: `{name}` is not a file name in this directory (a manifest names \
                     files next to it, without `/`, `..` or a leading `/`)",
                    n + 1
                ),
            ));
        }
        listed.push((name.to_owned(), digest.to_ascii_lowercase()));
    }
    let present = table_files(dir)?;
    let mut results: Vec<ChecksumResult> = listed
        .par_iter()
        .map(|(name, expected)| {
            let file = dir.join(name);
            let status = if !file.is_file() {
                ChecksumStatus::Missing
            } else {
                let found = sha256_file(&file)?;
                if &found == expected {
                    ChecksumStatus::Match
                } else {
                    ChecksumStatus::Mismatch {
                        expected: expected.clone(),
                        found,
                    }
                }
            };
            Ok(ChecksumResult {
                file: name.clone(),
                status,
            })
        })
        .collect::<Result<Vec<_>, DbError>>()?;
    for name in present {
        if !listed.iter().any(|(n, _)| *n == name) {
            results.push(ChecksumResult {
                file: name,
                status: ChecksumStatus::Unlisted,
            });
        }
    }
    Ok(results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_names_changed_missing_and_new_files() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(d.join("3-3.ppdb"), b"abc").unwrap();
        std::fs::write(d.join("3-4.ppdb"), b"xyz").unwrap();
        write_manifest(d).unwrap();
        let text = std::fs::read_to_string(d.join(MANIFEST)).unwrap();
        // sha256("abc"), the standard test vector.
        assert!(text.starts_with(
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  3-3.ppdb\n"
        ));
        assert!(check_manifest(d)
            .unwrap()
            .iter()
            .all(|r| r.status == ChecksumStatus::Match));

        std::fs::write(d.join("3-3.ppdb"), b"abd").unwrap();
        std::fs::remove_file(d.join("3-4.ppdb")).unwrap();
        std::fs::write(d.join("4-4.ppdb"), b"new").unwrap();
        let results = check_manifest(d).unwrap();
        let status = |f: &str| results.iter().find(|r| r.file == f).unwrap().status.clone();
        assert!(matches!(
            status("3-3.ppdb"),
            ChecksumStatus::Mismatch { .. }
        ));
        assert_eq!(status("3-4.ppdb"), ChecksumStatus::Missing);
        assert_eq!(status("4-4.ppdb"), ChecksumStatus::Unlisted);

        std::fs::write(d.join(MANIFEST), "not a manifest\n").unwrap();
        assert!(check_manifest(d).is_err());
    }

    #[test]
    fn a_manifest_names_only_files_of_its_directory() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("tables");
        std::fs::create_dir(&d).unwrap();
        std::fs::write(dir.path().join("outside"), b"abc").unwrap();
        std::fs::write(d.join("3-3.ppdb"), b"abc").unwrap();
        let digest = sha256_file(&d.join("3-3.ppdb")).unwrap();
        let outside = dir.path().join("outside").display().to_string();
        for name in [
            "../outside",
            outside.as_str(),
            "..",
            ".",
            "sub/3-3.ppdb",
            "a\\b",
        ] {
            let text = format!("{digest}  3-3.ppdb\n{digest}  {name}\n");
            std::fs::write(d.join(MANIFEST), text).unwrap();
            let err = check_manifest(&d).unwrap_err().to_string();
            assert!(
                err.contains("line 2:") && err.contains(&format!("`{name}`")),
                "{name}: {err}"
            );
        }
    }
}
