//! The distances of a unit-distance file (`KEY.ppud`) that a byte does not hold, in a file
//! beside it (`KEY.ppud.long`).
//!
//! A WDL-only unit solves on past [`MAX_DISTANCE`] plies within it (the solver's tail): its
//! tables need no distance, and its unit distances, the proof of its results, must go as far
//! as the unit does. Such a position's byte in `KEY.ppud` holds [`MAX_DISTANCE`]` - 1` or
//! [`MAX_DISTANCE`], whichever has the parity of its distance (so the file's results are
//! right as they stand), and this file holds its distance. A unit within the byte writes no
//! such file, so its `KEY.ppud` is what it always was.
//!
//! # Layout (all little-endian)
//!
//! ```text
//! offset  size     field
//!      0  8        magic `PPUDLONG`
//!      8  4        version, 1
//!     12  8        positions of the subspace
//!     20  8        xxh3-64 of the payload of the `KEY.ppud` it completes
//!     28  8        entries, N
//!     36  12 N     entries in increasing index: u64 index, u32 distance in plies
//! 36+12N  8        xxh3-64 of every byte before it
//! ```
//!
//! A file that is short, long, corrupted, of another version, of another subspace's size or of
//! another `KEY.ppud` than the one beside it is refused with [`DbError`]; so is an entry out of
//! order, past the subspace, or whose byte in `KEY.ppud` is not the code of its parity.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use xxhash_rust::xxh3::xxh3_64;

use crate::error::DbError;
use crate::value::{Packed, MAX_DISTANCE};

/// What a long-distance file's name adds to its unit-distance file's.
pub const LONG_DISTANCE_SUFFIX: &str = ".long";

const MAGIC: &[u8; 8] = b"PPUDLONG";
const VERSION: u32 = 1;
const HEAD: usize = 36;
const ENTRY: usize = 12;
/// The longest distance taken: far past any unit's, and far enough from `u32::MAX` that the
/// plies counted onto it do not wrap.
const MOST_PLIES: u32 = 1 << 30;

/// The long-distance file name of subspace `stem`: `STEM.ppud.long`.
#[must_use]
pub fn long_distance_file_name(stem: &str) -> String {
    format!(
        "{}{LONG_DISTANCE_SUFFIX}",
        crate::format::unit_distance_file_name(stem)
    )
}

/// The path of the long-distance file beside unit-distance file `ppud`.
#[must_use]
pub fn long_distance_path(ppud: &Path) -> PathBuf {
    let mut name = ppud.file_name().unwrap_or_default().to_os_string();
    name.push(LONG_DISTANCE_SUFFIX);
    ppud.with_file_name(name)
}

/// Writes the long distances of subspace `stem` (`positions` positions) to `dir`, under a
/// temporary name first, completing the unit-distance file whose payload has checksum
/// `payload_checksum`; `entries` are `(index, plies)` in increasing index. With no entry, any
/// such file there is removed instead (one left from an earlier build would not match).
/// Returns the path written, if one.
pub fn write_long_distances(
    dir: &Path,
    stem: &str,
    positions: u64,
    payload_checksum: u64,
    entries: &[(u64, u32)],
) -> Result<Option<PathBuf>, DbError> {
    let path = dir.join(long_distance_file_name(stem));
    if entries.is_empty() {
        return match std::fs::remove_file(&path) {
            Ok(()) => Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(DbError::io(&path, e)),
        };
    }
    let mut bytes = Vec::with_capacity(HEAD + ENTRY * entries.len() + 8);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&positions.to_le_bytes());
    bytes.extend_from_slice(&payload_checksum.to_le_bytes());
    bytes.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for &(index, plies) in entries {
        bytes.extend_from_slice(&index.to_le_bytes());
        bytes.extend_from_slice(&plies.to_le_bytes());
    }
    let checksum = xxh3_64(&bytes);
    bytes.extend_from_slice(&checksum.to_le_bytes());
    crate::format::write_file(dir, &long_distance_file_name(stem), &[&bytes]).map(Some)
}

/// The long distances at `path`, by index, checked against the unit-distance file they complete:
/// `positions` positions, payload checksum `payload_checksum`, its byte at an index read by
/// `byte_at`.
pub fn read_long_distances(
    path: &Path,
    positions: u64,
    payload_checksum: u64,
    byte_at: impl Fn(u64) -> Result<u8, DbError>,
) -> Result<HashMap<u64, u32>, DbError> {
    // A regular file only: a FIFO in its place would wait for a writer forever.
    let (mut file, _) = crate::table::open_table_file(path)?;
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut file, &mut bytes).map_err(|e| DbError::io(path, e))?;
    let corrupted = |detail: String| DbError::corrupted(path, detail);
    if bytes.len() < HEAD + 8 || &bytes[..8] != MAGIC {
        return Err(corrupted(
            "not a long-distance file (bad magic number or too short)".into(),
        ));
    }
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"));
    let version = u32_at(8);
    if version != VERSION {
        return Err(corrupted(format!(
            "long-distance file version {version}; this build reads version {VERSION}"
        )));
    }
    let count = u64_at(28);
    let expected_len = usize::try_from(count)
        .ok()
        .and_then(|n| n.checked_mul(ENTRY))
        .and_then(|n| n.checked_add(HEAD + 8));
    if expected_len != Some(bytes.len()) {
        return Err(corrupted(format!(
            "{} bytes for {count} entries: truncated or overlong",
            bytes.len()
        )));
    }
    let body = bytes.len() - 8;
    if xxh3_64(&bytes[..body]) != u64_at(body) {
        return Err(corrupted("checksum mismatch".into()));
    }
    if u64_at(12) != positions {
        return Err(corrupted(format!(
            "written for {} positions, the unit-distance file has {positions}",
            u64_at(12)
        )));
    }
    if u64_at(20) != payload_checksum {
        return Err(corrupted(
            "written for another unit-distance file than the one beside it".into(),
        ));
    }
    let mut distances = HashMap::with_capacity(count as usize);
    let mut last = None;
    for at in (HEAD..body).step_by(ENTRY) {
        let (index, plies) = (u64_at(at), u32_at(at + 8));
        if last.is_some_and(|l| index <= l) || index >= positions {
            return Err(corrupted(format!(
                "entry for index {index} out of order or past the subspace"
            )));
        }
        if plies > MOST_PLIES {
            return Err(corrupted(format!(
                "index {index}: {plies} plies, past any unit's distances"
            )));
        }
        last = Some(index);
        let byte = byte_at(index)?;
        if !is_long_code(byte) || Packed(byte).plies().is_some_and(|p| p % 2 != plies % 2) {
            return Err(corrupted(format!(
                "index {index}: {plies} plies, but its unit distance byte {byte} is not the \
                 code of that parity"
            )));
        }
        distances.insert(index, plies);
    }
    Ok(distances)
}

/// Whether a unit-distance byte may stand for a distance in a long-distance file: the byte of
/// [`MAX_DISTANCE`]` - 1` or [`MAX_DISTANCE`].
#[inline]
#[must_use]
pub fn is_long_code(byte: u8) -> bool {
    Packed(byte).plies().is_some_and(may_stand_for_long)
}

/// Whether a unit-distance byte that reads `plies` may stand for a distance in a long-distance
/// file ([`is_long_code`]).
#[inline]
#[must_use]
pub fn may_stand_for_long(plies: u32) -> bool {
    plies + 1 >= MAX_DISTANCE
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(plies: u32) -> u8 {
        Packed::decided(MAX_DISTANCE - 1 + (plies - (MAX_DISTANCE - 1)) % 2)
            .unwrap()
            .0
    }

    #[test]
    fn written_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let entries = [(3, 300), (10, 255), (11, 254)];
        let path = write_long_distances(dir.path(), "6-9", 20, 77, &entries)
            .unwrap()
            .unwrap();
        assert_eq!(path, long_distance_path(&dir.path().join("6-9.ppud")));
        let byte_at = |i: u64| Ok(entries.iter().find(|e| e.0 == i).map_or(1, |e| code(e.1)));
        let read = read_long_distances(&path, 20, 77, byte_at).unwrap();
        assert_eq!(read.len(), 3);
        assert_eq!(read[&3], 300);
        // No entry: the file is removed.
        assert_eq!(
            write_long_distances(dir.path(), "6-9", 20, 77, &[]).unwrap(),
            None
        );
        assert!(!path.exists());
    }

    #[test]
    fn damaged_or_mismatched_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let entries = [(3, 300), (10, 255)];
        let path = write_long_distances(dir.path(), "6-9", 20, 77, &entries)
            .unwrap()
            .unwrap();
        let good = std::fs::read(&path).unwrap();
        let byte_at = |i: u64| Ok(entries.iter().find(|e| e.0 == i).map_or(1, |e| code(e.1)));
        let refused = |bytes: &[u8], positions: u64, checksum: u64| {
            std::fs::write(&path, bytes).unwrap();
            read_long_distances(&path, positions, checksum, byte_at)
                .unwrap_err()
                .to_string()
        };
        assert!(refused(&good[..good.len() - 3], 20, 77).contains("truncated"));
        let mut flipped = good.clone();
        flipped[40] ^= 1;
        assert!(refused(&flipped, 20, 77).contains("checksum"));
        let mut version = good.clone();
        version[8] = 9;
        assert!(refused(&version, 20, 77).contains("version 9"));
        assert!(refused(&good, 21, 77).contains("positions"));
        assert!(refused(&good, 20, 78).contains("another unit-distance file"));
        assert!(refused(b"PPDB", 20, 77).contains("magic"));
        // An entry whose byte is not its parity's code.
        std::fs::write(&path, &good).unwrap();
        let wrong = |i: u64| Ok(if i == 3 { code(301) } else { code(255) });
        assert!(read_long_distances(&path, 20, 77, wrong)
            .unwrap_err()
            .to_string()
            .contains("index 3"));
        let exact = |_| Ok(Packed::decided(100).unwrap().0);
        assert!(read_long_distances(&path, 20, 77, exact).is_err());
        // A distance no unit reaches.
        let path = write_long_distances(dir.path(), "6-9", 20, 77, &[(3, u32::MAX)])
            .unwrap()
            .unwrap();
        let odd = |_| Ok(code(301));
        assert!(read_long_distances(&path, 20, 77, odd)
            .unwrap_err()
            .to_string()
            .contains("past any unit"));
        // Out of order.
        let path = write_long_distances(dir.path(), "6-9", 20, 77, &[(10, 255), (3, 300)])
            .unwrap()
            .unwrap();
        assert!(read_long_distances(&path, 20, 77, byte_at)
            .unwrap_err()
            .to_string()
            .contains("out of order"));
    }
}
