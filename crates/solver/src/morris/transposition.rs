//! The placement search's transposition table: proven bounds on positions' values, two entries
//! a bucket, and the file that keeps them between runs.
//!
//! Every entry is a bound the search proved from the tables (the placement phase below a
//! position has a fixed depth, so no entry depends on how deep a search went). So a table saved
//! by one run and read by the next gives the second run everything the first had proven: a
//! search of hours can stop and go on.
//!
//! Each bucket holds a *deep* entry, replaced only by an entry with at least as many men left to
//! place (whose subtree cost more to search), and a *recent* entry that takes what the deep one
//! refuses, and the deep entry's old content when it is replaced. Near the end of a long search
//! the table is full, and always replacing would let the millions of positions one or two
//! placements from the leaves push out the few near the root that each stand for hours.
//!
//! The file:
//!
//! ```text
//! offset 0    8 bytes   magic "PPSRCHTT"
//!        8    u32 LE    format version (TABLE_FILE_VERSION)
//!        12   u32 LE    header length H
//!        16   H bytes   header, bincode (standard configuration): game, rules, index scheme,
//!                       key scheme, entries, and what the runs that filled the table did
//!        16+H u64 LE    xxh3-64 of the header bytes
//!        ...  zeros up to the next multiple of 64
//!        P    entries   u64 LE each, as held in memory
//!        ...  u64 LE    xxh3-64 of the entries' bytes
//! ```
//!
//! It is written under a temporary name and renamed once complete and synced, so a file with
//! the final name is whole; a file that is not (truncated, corrupted, from another version, game,
//! rule set or key scheme) is refused with the reason, and a table found corrupted after its
//! entries were read is emptied again.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::Xxh3;

use crate::error::DbError;
use crate::format::{framed_prefix, mismatch, read_exact_of, read_framed, FramedKind};

/// The first eight bytes of a saved transposition table.
pub const TABLE_FILE_MAGIC: [u8; 8] = *b"PPSRCHTT";
/// The format of saved transposition tables.
pub const TABLE_FILE_VERSION: u32 = 1;
const TABLE_FILE_KIND: FramedKind = FramedKind {
    magic: TABLE_FILE_MAGIC,
    version: TABLE_FILE_VERSION,
    oldest: TABLE_FILE_VERSION,
    name: "a perfectplay search table",
    version_name: "search table format version",
};
/// How positions become keys ([`SearchKey`]); a saved table made under another scheme is
/// refused, since its keys would name other positions.
const KEY_SCHEME: &str =
    "morris-placement-key-1: canonical mover and other men (24 bits each), hands (4 bits each)";

/// Entries read or written at a time.
const CHUNK: usize = 1 << 16;

/// Bits of an entry below the key: the value plus one, and the bound.
const DATA_BITS: u32 = 4;

/// A placement position up to the board's symmetries: the canonical men of the side to move
/// (bits 0-23) and of the other side (24-47), then the hands of the side to move (48-51) and of
/// the other side (52-55).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SearchKey(u64);

impl SearchKey {
    /// The key of a position whose men are already in canonical form.
    pub(super) fn new(mover: u32, other: u32, mover_hand: u8, other_hand: u8) -> SearchKey {
        debug_assert!(mover < 1 << 24 && other < 1 << 24);
        debug_assert!(mover_hand < 16 && other_hand < 16);
        SearchKey(
            u64::from(mover)
                | u64::from(other) << 24
                | u64::from(mover_hand) << 48
                | u64::from(other_hand) << 52,
        )
    }

    /// Men left to place by both sides: the height of the position's subtree.
    fn to_place(self) -> u64 {
        (self.0 >> 48 & 15) + (self.0 >> 52 & 15)
    }
}

/// A bound in a transposition-table entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Bound {
    Exact = 1,
    /// The value is at least the one stored.
    Lower = 2,
    /// The value is at most the one stored.
    Upper = 3,
}

/// What the runs that filled a saved table did, together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchHistory {
    /// Runs that saved this table.
    pub runs: u32,
    /// Positions they searched.
    pub nodes: u64,
    /// Leaves they valued by a table probe.
    pub probes: u64,
    /// Positions the transposition table answered.
    pub table_hits: u64,
    /// Seconds they searched.
    pub seconds: f64,
}

impl SearchHistory {
    /// These runs and one more that did `run` in `seconds`.
    #[must_use]
    pub fn with_run(&self, run: super::SearchStats, seconds: f64) -> SearchHistory {
        // Saturating: the earlier figures come from a checkpoint file, whatever it says.
        SearchHistory {
            runs: self.runs.saturating_add(1),
            nodes: self.nodes.saturating_add(run.nodes),
            probes: self.probes.saturating_add(run.probes),
            table_hits: self.table_hits.saturating_add(run.table_hits),
            seconds: self.seconds + seconds,
        }
    }
}

/// Which search a saved table belongs to: its entries hold only for the same game and rules,
/// and its keys mean the same positions only under the same index and key scheme.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TableOwner {
    pub(super) game_id: String,
    pub(super) rules: String,
    pub(super) index_scheme: String,
}

#[derive(Serialize, Deserialize)]
struct FileHeader {
    game_id: String,
    rules: String,
    index_scheme: String,
    key_scheme: String,
    entries: u64,
    history: SearchHistory,
}

/// Proven bounds on placement positions' values, shared by the workers of a search.
pub(super) struct TranspositionTable {
    entries: Vec<AtomicU64>,
    /// Shift that takes a key's hash to its bucket.
    shift: u32,
}

impl TranspositionTable {
    /// A table of `2^bits` entries of 8 bytes (`bits` from 4 to 40), or `None` where the memory
    /// cannot be had: more than the system has available without swapping (a table written
    /// through to swap would take hours to fill, and an overcommitting system would grant it
    /// and then kill the process), or more than an allocation gets.
    pub(super) fn new(bits: u32) -> Option<TranspositionTable> {
        let bits = bits.clamp(4, 40);
        if crate::limits::available_memory().is_some_and(|free| 8 << bits > free) {
            return None;
        }
        let len = usize::try_from(1u64 << bits).ok()?;
        let mut entries = Vec::new();
        entries.try_reserve_exact(len).ok()?;
        entries.extend((0..len).map(|_| AtomicU64::new(0)));
        Some(TranspositionTable {
            entries,
            shift: 64 - (bits - 1),
        })
    }

    /// The deep and the recent entry of `key`'s bucket.
    fn bucket(&self, key: SearchKey) -> (&AtomicU64, &AtomicU64) {
        let bucket = (key.0.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize;
        (&self.entries[2 * bucket], &self.entries[2 * bucket + 1])
    }

    /// Asks for `key`'s bucket to be brought into the cache, ahead of a [`Self::lookup`]. Both
    /// entries are asked for: they share a line unless the allocator placed the table off a
    /// multiple of 16 bytes, and a second request for a line already coming is nearly free.
    pub(super) fn prefetch(&self, key: SearchKey) {
        let (deep, recent) = self.bucket(key);
        crate::prefetch::prefetch(deep);
        crate::prefetch::prefetch(recent);
    }

    /// The bound stored for `key`, if any.
    pub(super) fn lookup(&self, key: SearchKey) -> Option<(i8, Bound)> {
        let (deep, recent) = self.bucket(key);
        [deep, recent].into_iter().find_map(|slot| {
            let entry = slot.load(Ordering::Relaxed);
            (entry >> DATA_BITS == key.0)
                .then(|| decode(entry))
                .flatten()
        })
    }

    /// Records that the value of `key` is `value` (-1, 0 or 1) or bounded by it.
    pub(super) fn store(&self, key: SearchKey, value: i8, bound: Bound) {
        debug_assert!((-1..=1).contains(&value));
        let entry = key.0 << DATA_BITS | ((value + 1) as u64) << 2 | bound as u64;
        self.insert(entry);
    }

    fn insert(&self, mut entry: u64) {
        let key = SearchKey(entry >> DATA_BITS);
        let (deep, recent) = self.bucket(key);
        let held = deep.load(Ordering::Relaxed);
        let held_key = SearchKey(held >> DATA_BITS);
        if held_key == key {
            deep.store(merged(held, entry), Ordering::Relaxed);
            return;
        }
        let latest = recent.load(Ordering::Relaxed);
        if latest >> DATA_BITS == key.0 {
            entry = merged(latest, entry);
        }
        if held == 0 {
            deep.store(entry, Ordering::Relaxed);
        } else if key.to_place() >= held_key.to_place() {
            recent.store(held, Ordering::Relaxed);
            deep.store(entry, Ordering::Relaxed);
        } else {
            recent.store(entry, Ordering::Relaxed);
        }
    }

    /// Entries in use, counted over the whole table.
    pub(super) fn filled(&self) -> u64 {
        self.entries
            .iter()
            .filter(|e| e.load(Ordering::Relaxed) != 0)
            .count() as u64
    }

    fn clear(&self) {
        for entry in &self.entries {
            entry.store(0, Ordering::Relaxed);
        }
    }

    /// Writes the table to `path` (replacing what is there once the new file is complete),
    /// with its owner and `history`. Workers may go on storing meanwhile: each entry is read
    /// whole, so the file holds some mix of old and new bounds, all of them proven.
    pub(super) fn save(
        &self,
        path: &Path,
        owner: &TableOwner,
        history: &SearchHistory,
    ) -> Result<(), DbError> {
        let header = FileHeader {
            game_id: owner.game_id.clone(),
            rules: owner.rules.clone(),
            index_scheme: owner.index_scheme.clone(),
            key_scheme: KEY_SCHEME.to_owned(),
            entries: self.entries.len() as u64,
            history: *history,
        };
        let encoded = bincode::serde::encode_to_vec(&header, bincode::config::standard())
            .map_err(|e| DbError::corrupted(path, format!("cannot encode header: {e}")))?;
        let prefix = framed_prefix(&TABLE_FILE_MAGIC, TABLE_FILE_VERSION, &encoded);

        let tmp = temporary_name(path);
        let written = (|| -> std::io::Result<()> {
            let mut file = File::create(&tmp)?;
            file.write_all(&prefix)?;
            let mut hasher = Xxh3::new();
            let mut bytes = Vec::with_capacity(CHUNK * 8);
            for chunk in self.entries.chunks(CHUNK) {
                bytes.clear();
                for entry in chunk {
                    bytes.extend_from_slice(&entry.load(Ordering::Relaxed).to_le_bytes());
                }
                hasher.update(&bytes);
                file.write_all(&bytes)?;
            }
            file.write_all(&hasher.digest().to_le_bytes())?;
            file.sync_all()?;
            fs::rename(&tmp, path)?;
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                // The rename is durable once the directory is; a failure here leaves a whole
                // file under one name or the other, so it is not an error.
                let _ = File::open(dir).and_then(|d| d.sync_all());
            }
            Ok(())
        })();
        written.map_err(|e| {
            let _ = fs::remove_file(&tmp);
            DbError::io(path, e)
        })
    }

    /// Replaces this table's entries by those saved at `path` and returns what the runs that
    /// filled it did; on any error the table is left empty. The file may hold a table of
    /// another size: its entries are then stored again, and those that collide in the smaller
    /// table are dropped.
    pub(super) fn load(&self, path: &Path, owner: &TableOwner) -> Result<SearchHistory, DbError> {
        self.clear();
        let loaded = self.read_entries(path, owner);
        if loaded.is_err() {
            // Entries already read from a file found bad later are not proven: none is kept.
            self.clear();
        }
        loaded
    }

    fn read_entries(&self, path: &Path, owner: &TableOwner) -> Result<SearchHistory, DbError> {
        // A regular file only: a FIFO given as the checkpoint would wait for a writer forever.
        let (file, meta) = crate::table::open_table_file(path)?;
        let len = meta.len();
        let mut reader = std::io::BufReader::with_capacity(CHUNK * 8, file);
        let read = |reader: &mut std::io::BufReader<File>, buf: &mut [u8], at_least: u64| {
            read_exact_of(reader, buf, path, len, at_least)
        };
        let (header, offset): (FileHeader, u64) =
            read_framed(&mut reader, path, len, &TABLE_FILE_KIND)?;
        for (what, found, expected) in [
            ("game", &header.game_id, &owner.game_id),
            ("rules", &header.rules, &owner.rules),
            ("index scheme", &header.index_scheme, &owner.index_scheme),
            ("key scheme", &header.key_scheme, &KEY_SCHEME.to_owned()),
        ] {
            if found != expected {
                return Err(mismatch(path, what, found, expected));
            }
        }
        let entries = header.entries;
        if !entries.is_power_of_two() || !(16..=1 << 40).contains(&entries) {
            return Err(DbError::corrupted(
                path,
                format!("implausible number of entries {entries}"),
            ));
        }
        let expected_len = offset + entries * 8 + 8;
        if len != expected_len {
            return Err(DbError::Length {
                path: path.to_owned(),
                expected: expected_len,
                actual: len,
            });
        }

        let same_size = entries == self.entries.len() as u64;
        let mut hasher = Xxh3::new();
        let mut bytes = vec![0u8; CHUNK * 8];
        let mut done = 0u64;
        while done < entries {
            let n = (entries - done).min(CHUNK as u64) as usize;
            let chunk = &mut bytes[..n * 8];
            read(&mut reader, chunk, expected_len)?;
            hasher.update(chunk);
            for (i, word) in chunk.chunks_exact(8).enumerate() {
                let entry = u64::from_le_bytes(word.try_into().expect("8 bytes"));
                if same_size {
                    self.entries[done as usize + i].store(entry, Ordering::Relaxed);
                } else if decode(entry).is_some() {
                    self.insert(entry);
                }
            }
            done += n as u64;
        }
        let mut trailer = [0u8; 8];
        read(&mut reader, &mut trailer, expected_len)?;
        if hasher.digest() != u64::from_le_bytes(trailer) {
            return Err(DbError::corrupted(path, "entries checksum mismatch"));
        }
        Ok(header.history)
    }
}

/// What two entries of one key prove together: a lower bound from one and an upper bound from
/// the other make the value exact when they meet (a draw proved "at least" by one null-window
/// search and "at most" by the other). With three values every intersection is a bound or a
/// value; entries that contradict each other (which proven bounds cannot) give the newer one.
fn merged(old: u64, new: u64) -> u64 {
    let (Some(a), Some(b)) = (decode(old), decode(new)) else {
        return new;
    };
    let range = |(v, bound): (i8, Bound)| match bound {
        Bound::Exact => (v, v),
        Bound::Lower => (v, 1),
        Bound::Upper => (-1, v),
    };
    let ((a_low, a_high), (b_low, b_high)) = (range(a), range(b));
    let (low, high) = (a_low.max(b_low), a_high.min(b_high));
    let (value, bound) = if low > high {
        return new;
    } else if low == high {
        (low, Bound::Exact)
    } else if low == -1 {
        (high, Bound::Upper)
    } else {
        (low, Bound::Lower)
    };
    new >> DATA_BITS << DATA_BITS | ((value + 1) as u64) << 2 | bound as u64
}

/// The value and bound of an entry; `None` for an empty or malformed one.
fn decode(entry: u64) -> Option<(i8, Bound)> {
    let bound = match entry & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    match entry >> 2 & 3 {
        3 => None,
        v => Some((v as i8 - 1, bound)),
    }
}

/// What follows the file's name in the names of its temporary files: `FILE.tmp-PID-N`.
pub(super) const TEMPORARY_INFIX: &str = ".tmp-";

/// A name beside `path` for the file being written, unique to this process and this save (two
/// threads of one process may save to the same path at once).
fn temporary_name(path: &Path) -> PathBuf {
    static SAVES: AtomicU64 = AtomicU64::new(0);
    let suffix = format!(
        "{TEMPORARY_INFIX}{}-{}",
        std::process::id(),
        SAVES.fetch_add(1, Ordering::Relaxed)
    );
    sibling(path, &suffix)
}

/// `path` with `suffix` added to its file name: a temporary file or the lock beside it.
pub(super) fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_owned();
    name.push(suffix);
    path.with_file_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner() -> TableOwner {
        TableOwner {
            game_id: "nine_mens_morris".to_owned(),
            rules: "men=9".to_owned(),
            index_scheme: "test".to_owned(),
        }
    }

    fn key(i: u32, hand: u8) -> SearchKey {
        SearchKey::new(i & 0xff_ffff, i >> 24 | 1 << 20, hand, hand)
    }

    #[test]
    fn a_history_read_from_a_file_adds_without_overflowing() {
        let saved = SearchHistory {
            runs: u32::MAX,
            nodes: u64::MAX - 1,
            probes: 5,
            table_hits: u64::MAX,
            seconds: 1.0,
        };
        let run = super::super::SearchStats {
            nodes: 10,
            probes: 2,
            table_hits: 1,
        };
        let both = saved.with_run(run, 2.0);
        assert_eq!(
            (both.runs, both.nodes, both.probes, both.table_hits),
            (u32::MAX, u64::MAX, 7, u64::MAX)
        );
        assert_eq!(both.seconds, 3.0);
    }

    #[test]
    fn stored_bounds_are_found_again() {
        let table = TranspositionTable::new(10).unwrap();
        table.store(key(5, 3), 1, Bound::Lower);
        table.store(key(6, 0), -1, Bound::Exact);
        table.store(key(7, 1), 0, Bound::Upper);
        assert_eq!(table.lookup(key(5, 3)), Some((1, Bound::Lower)));
        assert_eq!(table.lookup(key(6, 0)), Some((-1, Bound::Exact)));
        assert_eq!(table.lookup(key(7, 1)), Some((0, Bound::Upper)));
        assert_eq!(table.lookup(key(8, 1)), None);
    }

    #[test]
    fn bounds_of_one_key_are_combined() {
        let table = TranspositionTable::new(8).unwrap();
        table.store(key(9, 5), 0, Bound::Lower);
        table.store(key(9, 5), 0, Bound::Upper);
        assert_eq!(table.lookup(key(9, 5)), Some((0, Bound::Exact)));
        // A weaker bound does not undo what is known.
        table.store(key(9, 5), -1, Bound::Lower);
        assert_eq!(table.lookup(key(9, 5)), Some((0, Bound::Exact)));
        table.store(key(10, 5), 1, Bound::Upper);
        table.store(key(10, 5), 0, Bound::Lower);
        assert_eq!(table.lookup(key(10, 5)), Some((0, Bound::Lower)));
        table.store(key(11, 5), 0, Bound::Upper);
        table.store(key(11, 5), 1, Bound::Upper);
        assert_eq!(table.lookup(key(11, 5)), Some((0, Bound::Upper)));
    }

    #[test]
    fn deep_entries_outlive_many_shallow_ones() {
        // A table of 16 entries (8 buckets) and 1,000 shallow positions after one deep one:
        // the deep one keeps its place.
        let table = TranspositionTable::new(4).unwrap();
        table.store(key(1, 9), 1, Bound::Exact);
        for i in 2..1000 {
            table.store(key(i, 1), 0, Bound::Exact);
        }
        assert_eq!(table.lookup(key(1, 9)), Some((1, Bound::Exact)));
        assert!(table.filled() <= 16);
    }

    #[test]
    fn a_saved_table_reads_back_whole_at_any_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("search.tt");
        let table = TranspositionTable::new(12).unwrap();
        for i in 0..500 {
            table.store(
                key(i * 7919, (i % 12) as u8),
                (i % 3) as i8 - 1,
                Bound::Exact,
            );
        }
        let history = SearchHistory {
            runs: 2,
            nodes: 123,
            probes: 45,
            table_hits: 6,
            seconds: 7.5,
        };
        table.save(&path, &owner(), &history).unwrap();
        let same = TranspositionTable::new(12).unwrap();
        assert_eq!(same.load(&path, &owner()).unwrap(), history);
        let bigger = TranspositionTable::new(14).unwrap();
        bigger.load(&path, &owner()).unwrap();
        for i in 0..500 {
            let expected = Some(((i % 3) as i8 - 1, Bound::Exact));
            assert_eq!(
                same.lookup(key(i * 7919, (i % 12) as u8)),
                table.lookup(key(i * 7919, (i % 12) as u8))
            );
            if table.lookup(key(i * 7919, (i % 12) as u8)).is_some() {
                assert_eq!(bigger.lookup(key(i * 7919, (i % 12) as u8)), expected);
            }
        }
        assert_eq!(same.filled(), table.filled());
        assert_eq!(bigger.filled(), table.filled());
    }

    #[test]
    fn damaged_or_foreign_files_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("search.tt");
        let table = TranspositionTable::new(8).unwrap();
        table.store(key(3, 4), 1, Bound::Lower);
        table
            .save(&path, &owner(), &SearchHistory::default())
            .unwrap();
        let whole = fs::read(&path).unwrap();
        let other = TranspositionTable::new(8).unwrap();

        let foreign = TableOwner {
            rules: "men=12".to_owned(),
            ..owner()
        };
        other.store(key(1, 1), 1, Bound::Exact);
        let err = other.load(&path, &foreign).unwrap_err();
        assert!(
            matches!(err, DbError::Mismatch { what: "rules", .. }),
            "{err}"
        );
        assert_eq!(other.filled(), 0, "a refused file leaves the table empty");

        fs::write(&path, &whole[..whole.len() - 3]).unwrap();
        let err = other.load(&path, &owner()).unwrap_err();
        assert!(matches!(err, DbError::Length { .. }), "{err}");

        let mut flipped = whole.clone();
        let at = whole.len() - 100;
        flipped[at] ^= 1;
        fs::write(&path, &flipped).unwrap();
        let err = other.load(&path, &owner()).unwrap_err();
        assert!(err.to_string().contains("entries checksum"), "{err}");
        assert_eq!(
            other.filled(),
            0,
            "a corrupted file leaves no entries behind"
        );

        let mut old = whole.clone();
        old[8] = 9;
        fs::write(&path, &old).unwrap();
        let err = other.load(&path, &owner()).unwrap_err();
        assert!(err.to_string().contains("format version"), "{err}");

        fs::write(&path, b"PPLAYDB\x1a and more bytes").unwrap();
        let err = other.load(&path, &owner()).unwrap_err();
        assert!(err.to_string().contains("search table"), "{err}");

        let mut header = whole;
        header[20] ^= 0x40;
        fs::write(&path, &header).unwrap();
        let err = other.load(&path, &owner()).unwrap_err();
        assert!(err.to_string().contains("header checksum"), "{err}");
    }
}
