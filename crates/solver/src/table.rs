//! One checked table: a file mapped read-only, or bytes in memory.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use memmap2::{Mmap, MmapMut};

use crate::compressed::Compressed;
use crate::error::DbError;
use crate::format::{
    check_payload, payload_value, read_any_header, sole_wdl_code, Encoding, Expected, Header,
    Layout,
};
use crate::mapping::GuardedMap;
use crate::prefetch::Reuse;
use crate::value::{wdl_from_code, Value, Wdl};

/// Where a table's bytes live.
enum Bytes {
    Mapped(GuardedMap),
    Owned(Vec<u8>),
    /// A stretch of a map that holds several tables ([`Table::copy_all`]).
    Shared(Arc<Mmap>, std::ops::Range<usize>),
}

impl Bytes {
    fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Mapped(map) => map.as_slice(),
            Bytes::Owned(bytes) => bytes,
            Bytes::Shared(map, range) => &map[range.clone()],
        }
    }
}

/// A table whose header and payload have been checked. Reads never go past its payload.
///
/// A table read from a file keeps the file open and what it was like when opened
/// ([`Table::check_intact`]): a file changed in place or cut short by another program after
/// that is reported, never read as values.
pub struct Table {
    path: PathBuf,
    header: Header,
    bytes: Bytes,
    offset: usize,
    /// How a compressed table stores its values, and its reader; `None` for a plain table.
    compressed: Option<(Layout, Compressed)>,
    source: Option<Source>,
}

/// The file a mapped table was read from, as it was when opened.
struct Source {
    file: File,
    stamp: Stamp,
    /// The interval ([`interval_now`]) in which the file was last found unchanged.
    checked_in: AtomicU64,
}

/// How long a file found unchanged is trusted before queries look again
/// ([`Table::check_recent`]). A look is an `fstat`, a system call that costs more than a
/// probe of a table in the cache: a look per query would cost more than the queries
/// themselves, while at most ten looks a second per table stay a sliver of a core even when
/// queries spread over thousands of tables.
pub const CHECK_INTERVAL: Duration = Duration::from_millis(100);

/// The number of the current [`CHECK_INTERVAL`].
#[inline]
fn interval_now() -> u64 {
    now_nanos() / CHECK_INTERVAL.as_nanos() as u64
}

/// A clock in nanoseconds: the kernel's coarse monotonic clock where there is one (a few
/// nanoseconds to read, against 20 for the precise one; its resolution, a clock tick of 1-4
/// ms, is far below [`CHECK_INTERVAL`]).
#[inline]
fn now_nanos() -> u64 {
    #[cfg(target_os = "linux")]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `clock_gettime` writes the time into `ts`, a valid timespec.
        if unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC_COARSE, &mut ts) } == 0 {
            return (ts.tv_sec as u64)
                .saturating_mul(1_000_000_000)
                .saturating_add(ts.tv_nsec as u64);
        }
    }
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    u64::try_from(EPOCH.get_or_init(Instant::now).elapsed().as_nanos()).unwrap_or(u64::MAX)
}

/// What tells a file's content changed without reading it: a write moves the modification
/// time, a truncation the length. (The change time is no use: it also moves when the file is
/// renamed over or unlinked, which leaves its content as it was and is how tables are
/// replaced.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
}

impl Stamp {
    fn of(meta: &std::fs::Metadata) -> Stamp {
        Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
        }
    }

    /// How `now` differs from `self`, in words; `None` if it does not.
    fn difference(&self, now: &Stamp) -> Option<String> {
        if now.len != self.len {
            Some(format!(
                "its length went from {} to {} bytes",
                self.len, now.len
            ))
        } else if now.modified != self.modified {
            Some("it was written to".to_owned())
        } else {
            None
        }
    }
}

/// Opens the table file at `path` for reading, refusing anything but a regular file: a
/// directory, a FIFO (whose open or read would wait for a writer forever), a device or a
/// socket, each with an error naming what it is. The open does not block, so a FIFO put in
/// place between a look and the open cannot hang it either.
pub(crate) fn open_table_file(path: &Path) -> Result<(File, std::fs::Metadata), DbError> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound if path.symlink_metadata().is_ok() => DbError::NotAFile {
            path: path.to_owned(),
            kind: "a broken symbolic link",
        },
        _ => DbError::io(path, e),
    })?;
    let meta = file.metadata().map_err(|e| DbError::io(path, e))?;
    if !meta.is_file() {
        return Err(DbError::NotAFile {
            path: path.to_owned(),
            kind: file_kind(&meta.file_type()),
        });
    }
    Ok((file, meta))
}

/// What a file that is not a regular file is, in words.
fn file_kind(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("path", &self.path)
            .field("header", &self.header)
            .finish()
    }
}

impl Table {
    /// Maps the file at `path` read-only and checks it: magic, version, lengths, both checksums
    /// and, if given, that it is the expected table.
    ///
    /// Anything but a regular file is refused ([`DbError::NotAFile`]). The map is guarded
    /// (see [`Table::check_intact`]): the file being truncated under it later makes reads
    /// fail instead of killing the process.
    pub fn open(path: &Path, expected: Option<&Expected>) -> Result<Table, DbError> {
        let (file, meta) = open_table_file(path)?;
        let bytes = if meta.len() == 0 {
            Bytes::Owned(Vec::new())
        } else {
            Bytes::Mapped(GuardedMap::new(&file).map_err(|e| DbError::io(path, e))?)
        };
        let mut table = Table::from_bytes(path, bytes, expected)?;
        // A `.ppdd` is looked for before the `.ppdb` of its subspace, for its distances: a
        // file of another form under that name would be read in their place.
        let distance_file =
            path.extension().and_then(|e| e.to_str()) == Some(crate::format::DISTANCE_EXTENSION);
        if distance_file
            && (table.layout().is_none() || table.header().encoding != Encoding::Distance)
        {
            return Err(DbError::corrupted(
                path,
                "a .ppdd file must be a compressed table of distances",
            ));
        }
        table.source = Some(Source {
            file,
            stamp: Stamp::of(&meta),
            checked_in: AtomicU64::new(interval_now()),
        });
        // The checksums were read from the map: a change during that read is caught here.
        table.check_intact()?;
        Ok(table)
    }

    /// Checks that what this table has read is what the file held when it was opened: the
    /// file has not been cut short under the map (a read of a truncated map gives zeros) nor
    /// changed in place (its length or modification time). Readers call it
    /// after their reads and drop the values read if it fails ([`DbError::Changed`]): a
    /// change by `write(2)` is visible in the file's times before its bytes are, so a value
    /// read before a passing check is one the file held at open. A table in memory (a copy,
    /// or bytes given) cannot change and always passes.
    ///
    /// One `fstat` call: a few hundred nanoseconds. [`crate::Tablebase::check_tables`] makes
    /// it for every open table.
    pub fn check_intact(&self) -> Result<(), DbError> {
        self.check(true)
    }

    /// [`Table::check_intact`] as queries make it: the map's fault mark every time (so a
    /// read of a file cut short is never taken for a value), the file's length and
    /// modification time (one `fstat`) once per [`CHECK_INTERVAL`]. A write in place is thus
    /// refused by every query that starts a tenth of a second after the last look before it;
    /// a query in that interval may answer from the bytes it wrote.
    #[inline]
    pub fn check_recent(&self) -> Result<(), DbError> {
        self.check(false)
    }

    fn check(&self, always: bool) -> Result<(), DbError> {
        let Some(source) = &self.source else {
            return Ok(());
        };
        let changed = |detail: String| DbError::Changed {
            path: self.path.clone(),
            detail,
        };
        if let Bytes::Mapped(map) = &self.bytes {
            if GuardedMap::any_faulted() && map.faulted() {
                return Err(changed(format!(
                    "it was cut short while mapped (it had {} bytes)",
                    source.stamp.len
                )));
            }
        }
        let now = interval_now();
        if !always && source.checked_in.load(Ordering::Relaxed) == now {
            return Ok(());
        }
        let meta = source
            .file
            .metadata()
            .map_err(|e| DbError::io(&self.path, e))?;
        match source.stamp.difference(&Stamp::of(&meta)) {
            Some(detail) => Err(changed(detail)),
            None => {
                source.checked_in.fetch_max(now, Ordering::Relaxed);
                Ok(())
            }
        }
    }

    /// A table of `payload` in memory, for tests.
    #[cfg(test)]
    pub(crate) fn in_memory_for_tests(payload: &[u8]) -> Table {
        Table {
            path: PathBuf::from("test"),
            header: tests::distance_header(payload),
            bytes: Bytes::Owned(Vec::new()),
            offset: 0,
            compressed: None,
            source: None,
        }
    }

    /// A table from bytes in memory (tests, or files read without mapping).
    pub fn from_vec(
        path: &Path,
        bytes: Vec<u8>,
        expected: Option<&Expected>,
    ) -> Result<Table, DbError> {
        Table::from_bytes(path, Bytes::Owned(bytes), expected)
    }

    fn from_bytes(
        path: &Path,
        bytes: Bytes,
        expected: Option<&Expected>,
    ) -> Result<Table, DbError> {
        let (file, offset) = read_any_header(path, bytes.as_slice(), expected)?;
        let header = file.header;
        let compressed = match file.layout {
            None => {
                check_payload(path, &header, &bytes.as_slice()[offset..])?;
                None
            }
            Some(layout) => {
                let reader = Compressed::new(path, &header, &layout, bytes.as_slice(), offset)?;
                Some((layout, reader))
            }
        };
        Ok(Table {
            path: path.to_owned(),
            header,
            bytes,
            offset,
            compressed,
            source: None,
        })
    }

    /// A copy of this table in anonymous memory advised to use huge pages. Reads at random
    /// across a large table then rarely miss the TLB, as they do through the page cache's
    /// small pages; the solver reads the tables its exits lead to this way.
    pub fn resident_copy(&self) -> Result<Table, DbError> {
        Ok(Table::copy_all(&[self])?.pop().expect("one copy per table"))
    }

    /// Copies of `tables` side by side in one anonymous map advised to use huge pages, in
    /// order. One map for many small tables lets huge pages cover them all, which separate
    /// copies of tables under 2 MB cannot: random probes across them then rarely miss the TLB.
    pub fn copy_all(tables: &[&Table]) -> Result<Vec<Table>, DbError> {
        let (starts, total) = Table::copy_layout(tables);
        let io = |path: &Path, e| DbError::io(path, e);
        let first = tables.first().map_or(Path::new(""), |t| t.path.as_path());
        let mut map = MmapMut::map_anon(total.max(1)).map_err(|e| io(first, e))?;
        #[cfg(target_os = "linux")]
        {
            // Advice only, given before the copies touch the pages.
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        for (t, &start) in tables.iter().zip(&starts) {
            let source = t.bytes.as_slice();
            map[start..start + source.len()].copy_from_slice(source);
            // A copy of a file changed since it was checked would hold unchecked bytes.
            t.check_intact()?;
        }
        let map = Arc::new(map.make_read_only().map_err(|e| io(first, e))?);
        tables
            .iter()
            .zip(starts)
            .map(|(t, start)| {
                let bytes =
                    Bytes::Shared(Arc::clone(&map), start..start + t.bytes.as_slice().len());
                let compressed = match &t.compressed {
                    None => None,
                    Some((layout, _)) => {
                        let reader = Compressed::new(
                            &t.path,
                            &t.header,
                            layout,
                            bytes.as_slice(),
                            t.offset,
                        )?;
                        Some((layout.clone(), reader))
                    }
                };
                Ok(Table {
                    path: t.path.clone(),
                    header: t.header.clone(),
                    bytes,
                    offset: t.offset,
                    compressed,
                    source: None,
                })
            })
            .collect()
    }

    /// The bytes of memory [`Table::copy_all`] maps for copies of `tables`.
    #[must_use]
    pub fn copy_all_bytes(tables: &[&Table]) -> u64 {
        Table::copy_layout(tables).1 as u64
    }

    /// Where each copy of `tables` starts in one map (each on a cache line), and the map's
    /// length.
    fn copy_layout(tables: &[&Table]) -> (Vec<usize>, usize) {
        let starts: Vec<usize> = tables
            .iter()
            .scan(0usize, |next, t| {
                let start = *next;
                *next = (start + t.bytes.as_slice().len()).next_multiple_of(64);
                Some(start)
            })
            .collect();
        let total = tables
            .last()
            .zip(starts.last())
            .map_or(0, |(t, &s)| s + t.bytes.as_slice().len());
        (starts, total)
    }

    /// The file this table was read from.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The header.
    #[must_use]
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The number of indices.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.header.positions
    }

    /// The payload bytes: one value per index (or four per byte) in a plain table, the index
    /// and the blocks in a compressed one.
    #[must_use]
    pub fn payload(&self) -> &[u8] {
        &self.bytes.as_slice()[self.offset..]
    }

    /// The file's length in bytes.
    #[must_use]
    pub fn file_len(&self) -> u64 {
        self.bytes.as_slice().len() as u64
    }

    /// How a compressed table stores its values; `None` for a plain table.
    #[must_use]
    pub fn layout(&self) -> Option<&Layout> {
        self.compressed.as_ref().map(|(layout, _)| layout)
    }

    /// The rule naming the positions a compressed table leaves out ([`crate::Domain::omits`]),
    /// whose stored values mean nothing; `None` if every value is stored.
    #[must_use]
    pub fn omitted(&self) -> Option<&str> {
        self.layout().and_then(|l| l.omitted.as_deref())
    }

    /// Every stored value, one byte per index: the packed value byte of a distance table, the
    /// win/draw/loss code (see [`crate::value`]) of a result table. Reads (and for a
    /// compressed table, checks) the whole table: a compressed table's values, decoded, must
    /// have the payload checksum its header records, which covers them end to end where the
    /// frame checksums cover the compressed bytes.
    pub fn stored_values(&self) -> Result<Vec<u8>, DbError> {
        match (&self.compressed, self.header.encoding) {
            (Some((_, reader)), _) => {
                let values = reader.decode_all(&self.path, self.bytes.as_slice())?;
                if xxhash_rust::xxh3::xxh3_64(&values) != self.header.payload_checksum {
                    return Err(DbError::corrupted(
                        &self.path,
                        "the decoded values do not have the payload checksum of the header",
                    ));
                }
                Ok(values)
            }
            (None, Encoding::Distance) => Ok(self.payload().to_vec()),
            (None, Encoding::Wdl) => Ok((0..self.header.positions)
                .map(|i| (self.payload()[(i / 4) as usize] >> (2 * (i % 4))) & 3)
                .collect()),
        }
    }

    /// The value at `index`; `None` if the position cannot arise. An index past the end is a
    /// corrupted query and reads as a [`DbError`].
    #[inline]
    pub fn value(&self, index: u64) -> Result<Option<Value>, DbError> {
        if index >= self.header.positions {
            return Err(DbError::corrupted(
                &self.path,
                format!(
                    "index {index} past the table's {} positions",
                    self.header.positions
                ),
            ));
        }
        match &self.compressed {
            None => Ok(payload_value(self.header.encoding, self.payload(), index)),
            Some((_, reader)) => reader.value(&self.path, self.bytes.as_slice(), index),
        }
    }

    /// Starts fetching the byte of `index` into the cache, for a read soon after: batched
    /// probes issue many fetches before waiting for the first.
    #[inline]
    pub fn prefetch(&self, index: u64) {
        self.prefetch_for(index, Reuse::Again);
    }

    /// As [`Table::prefetch`], for a byte read once: it is not kept in the outer caches.
    #[inline]
    pub(crate) fn prefetch_once(&self, index: u64) {
        self.prefetch_for(index, Reuse::Once);
    }

    /// Starts fetching the block of a compressed table that holds `index`, once its place in
    /// the index has been fetched ([`Table::prefetch`]); nothing for a plain table.
    #[inline]
    pub(crate) fn prefetch_block(&self, index: u64) {
        if let Some((_, reader)) = &self.compressed {
            reader.prefetch_block(self.bytes.as_slice(), index);
        }
    }

    #[inline]
    fn prefetch_for(&self, index: u64, reuse: Reuse) {
        match &self.compressed {
            None => prefetch_byte(self.payload(), self.header.encoding, index, reuse),
            Some((_, reader)) => reader.prefetch(self.bytes.as_slice(), index, reuse),
        }
    }

    /// The one result every position that can arise holds, in a plain table of results (no
    /// distances) that holds one; `None` in any other table (with distances, compressed, with
    /// more than one result, or where no position can arise). Reads the payload up to a second
    /// result.
    ///
    /// The solver values a successor in such a table by its subspace alone, without
    /// computing its index: the units where one side is far ahead mostly lead to tables all
    /// lost (or all won) for the side to move.
    #[must_use]
    pub fn sole_result(&self) -> Option<Wdl> {
        if self.compressed.is_some() || self.header.encoding != Encoding::Wdl {
            return None;
        }
        let code = sole_wdl_code(self.payload(), self.header.positions)?;
        wdl_from_code(code).map(|v| v.wdl)
    }

    /// Whether the table stores distances.
    #[must_use]
    pub fn has_distances(&self) -> bool {
        self.header.encoding == Encoding::Distance
    }
}

/// A shared table with where its payload lies: reads that follow none of the table's pointers.
/// Probes through a tablebase's slots go this way; each pointer followed at random across
/// thousands of tables is one more likely cache and TLB miss.
pub(crate) struct Resolved {
    table: Arc<Table>,
    payload: *const u8,
    len: usize,
    positions: u64,
    encoding: Encoding,
    /// Whether the table is compressed: its reads go through the table's reader.
    compressed: bool,
    /// Whether the table leaves positions out ([`Table::omitted`]).
    omits: bool,
    /// The interval ([`interval_now`]) in which the table was last found intact: beside the
    /// payload's address, which every probe reads, so that the check of a table found intact
    /// in this interval reads nothing else.
    checked_in: AtomicU64,
}

// SAFETY: `payload` points into bytes owned by `table`, which this value keeps alive; a
// table's bytes never move (a map, or a vector that is never changed), so the pointer stays
// valid wherever the value goes. This program never writes them once made; a mapped table's
// bytes can still change under it (another process writing the file, or the bus-error
// handler putting zero pages where the file was cut short, at the same addresses: module
// `mapping`), which readers detect by the table's checks, so sharing or sending a `Resolved`
// shares a `&[u8]` as any reader of the map does. Tested by
// `tests::resolved_tables_read_what_their_tables_hold` and every probe test.
unsafe impl Send for Resolved {}
// SAFETY: as for `Send`.
unsafe impl Sync for Resolved {}

impl Resolved {
    pub(crate) fn new(table: Arc<Table>) -> Resolved {
        let payload = table.payload();
        Resolved {
            payload: payload.as_ptr(),
            len: payload.len(),
            positions: table.header.positions,
            encoding: table.header.encoding,
            compressed: table.compressed.is_some(),
            omits: table.omitted().is_some(),
            checked_in: AtomicU64::new(u64::MAX),
            table,
        }
    }

    /// [`Table::check_recent`], reading only this value unless the interval is new or a map
    /// somewhere has faulted.
    #[inline]
    pub(crate) fn check_recent(&self) -> Result<(), DbError> {
        let now = interval_now();
        if self.checked_in.load(Ordering::Relaxed) == now && !GuardedMap::any_faulted() {
            return Ok(());
        }
        self.check_table(now)
    }

    #[inline(never)]
    fn check_table(&self, now: u64) -> Result<(), DbError> {
        self.table.check_recent()?;
        self.checked_in.store(now, Ordering::Relaxed);
        Ok(())
    }

    /// The table.
    pub(crate) fn table(&self) -> &Arc<Table> {
        &self.table
    }

    #[inline]
    fn payload(&self) -> &[u8] {
        // SAFETY: `payload` and `len` are those of `self.table.payload()`, alive and unchanged
        // while `self.table` is (see the `Send` impl).
        unsafe { std::slice::from_raw_parts(self.payload, self.len) }
    }

    /// As [`Table::value`].
    #[inline]
    pub(crate) fn value(&self, index: u64) -> Result<Option<Value>, DbError> {
        if index >= self.positions || self.compressed {
            return self.table.value(index);
        }
        Ok(payload_value(self.encoding, self.payload(), index))
    }

    /// As [`Table::has_distances`].
    #[inline]
    pub(crate) fn has_distances(&self) -> bool {
        self.encoding == Encoding::Distance
    }

    /// Whether the table leaves positions out ([`Table::omitted`]).
    #[inline]
    pub(crate) fn omits(&self) -> bool {
        self.omits
    }

    /// As [`Table::prefetch_block`].
    #[inline]
    pub(crate) fn prefetch_block(&self, index: u64) {
        if self.compressed {
            self.table.prefetch_block(index);
        }
    }

    /// As [`Table::prefetch_once`].
    #[inline]
    pub(crate) fn prefetch_once(&self, index: u64) {
        if self.compressed {
            self.table.prefetch_once(index);
        } else {
            prefetch_byte(self.payload(), self.encoding, index, Reuse::Once);
        }
    }
}

/// Starts fetching the byte of `index` of `payload` into the cache.
#[inline]
fn prefetch_byte(payload: &[u8], encoding: Encoding, index: u64, reuse: Reuse) {
    let at = match encoding {
        Encoding::Distance => index,
        Encoding::Wdl => index / 4,
    };
    if let Some(byte) = payload.get(at as usize) {
        crate::prefetch::prefetch_for(byte, reuse);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{write_table, Stats};
    use crate::value::Packed;

    /// The header of a distance table holding `payload`.
    pub(crate) fn distance_header(payload: &[u8]) -> Header {
        Header {
            game_id: "g".into(),
            rules: "r".into(),
            index_scheme: "s".into(),
            subspace: "k".into(),
            encoding: Encoding::Distance,
            positions: payload.len() as u64,
            stats: Stats::of_bytes(payload),
            payload_checksum: xxhash_rust::xxh3::xxh3_64(payload),
        }
    }

    #[test]
    fn compressed_values_must_have_the_header_s_payload_checksum() {
        use crate::compressed::{compress_values, CompressOptions};
        let dir = tempfile::tempdir().unwrap();
        let values: Vec<u8> = (0..5000u32).map(|i| (i % 7 / 3) as u8).collect();
        let write = |name: &str, header: &Header| {
            let parts = compress_values(
                &values,
                Encoding::Wdl,
                CompressOptions::for_values(&values, Encoding::Wdl),
            );
            let prefix = crate::format::encode_compressed_prefix(header, &parts.layout).unwrap();
            crate::format::write_file(dir.path(), name, &[&prefix, &parts.index, &parts.body])
                .unwrap()
        };
        let mut header = distance_header(&values);
        header.encoding = Encoding::Wdl;
        // Counts that add up are all the reader asks of them.
        header.stats = Stats {
            draws: values.len() as u64,
            ..Stats::default()
        };
        let sound = Table::open(&write("sound.ppdb", &header), None).unwrap();
        assert_eq!(sound.stored_values().unwrap(), values);
        // The same bytes under a header whose payload checksum is another's: the frames are
        // sound, the values decode, and the end-to-end check refuses them.
        header.payload_checksum ^= 1;
        let other = Table::open(&write("other.ppdb", &header), None).unwrap();
        let err = other.stored_values().unwrap_err();
        assert!(err.to_string().contains("payload checksum"), "{err}");
    }

    #[test]
    fn a_mapped_table_reads_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let payload: Vec<u8> = vec![0, 1, 2, 3, 4, 255];
        let header = distance_header(&payload);
        let path = write_table(dir.path(), &header, &payload).unwrap();
        let table = Table::open(&path, None).unwrap();
        for (i, &b) in payload.iter().enumerate() {
            assert_eq!(table.value(i as u64).unwrap(), Packed(b).value());
        }
        assert!(table.value(6).is_err());
        // A prefetch of any index, in range or not, changes nothing.
        for i in 0..10 {
            table.prefetch(i);
            table.prefetch_once(i);
        }
        for (i, &b) in payload.iter().enumerate() {
            assert_eq!(table.value(i as u64).unwrap(), Packed(b).value());
        }

        let copies = Table::copy_all(&[&table, &table]).unwrap();
        for copy in &copies {
            assert_eq!(copy.payload(), table.payload());
            assert_eq!(copy.header(), table.header());
        }

        std::fs::write(&path, b"").unwrap();
        assert!(Table::open(&path, None).is_err());
    }

    #[test]
    fn resolved_tables_read_what_their_tables_hold() {
        let payload: Vec<u8> = (0..=255).collect();
        let header = distance_header(&payload);
        let dir = tempfile::tempdir().unwrap();
        let path = write_table(dir.path(), &header, &payload).unwrap();
        let table = Arc::new(Table::open(&path, None).unwrap());
        let resolved = Resolved::new(Arc::clone(&table));
        drop(table);
        let moved = std::thread::spawn(move || {
            for (i, &b) in payload.iter().enumerate() {
                resolved.prefetch_once(i as u64);
                assert_eq!(resolved.value(i as u64).unwrap(), Packed(b).value());
            }
            assert!(resolved.value(256).is_err());
            resolved
        });
        assert_eq!(moved.join().unwrap().table().positions(), 256);
    }

    /// A table file written with `payload`, opened; a moment passes after the write, so that
    /// a later write gets other times (file times are kept in clock ticks).
    fn opened(dir: &Path, payload: &[u8]) -> (PathBuf, Table) {
        let path = write_table(dir, &distance_header(payload), payload).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(30));
        let table = Table::open(&path, None).unwrap();
        (path, table)
    }

    #[test]
    fn a_table_cut_short_under_its_map_fails_its_check_instead_of_crashing() {
        let dir = tempfile::tempdir().unwrap();
        let payload = vec![9u8; 3 * 4096];
        let (path, table) = opened(dir.path(), &payload);
        assert!(table.check_intact().is_ok());
        std::fs::File::create(&path).unwrap(); // cuts the file to nothing
                                               // The read itself faults and is answered with zeros...
        let _ = table.value(payload.len() as u64 - 1).unwrap();
        // ...which the check refuses.
        let err = table.check_intact().unwrap_err();
        assert!(matches!(err, DbError::Changed { .. }), "{err}");
        assert!(err.to_string().contains("cut short"), "{err}");
    }

    #[test]
    fn a_table_written_in_place_fails_its_check() {
        use std::io::{Seek, SeekFrom, Write};
        let dir = tempfile::tempdir().unwrap();
        let payload = vec![9u8; 4096];
        let (path, table) = opened(dir.path(), &payload);
        let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.seek(SeekFrom::End(-100)).unwrap();
        file.write_all(&[1u8; 100]).unwrap();
        drop(file);
        let err = table.check_intact().unwrap_err();
        assert!(matches!(err, DbError::Changed { .. }), "{err}");
        assert!(err.to_string().contains("written to"), "{err}");
    }

    #[test]
    fn a_table_replaced_by_rename_keeps_reading_the_file_it_opened() {
        let dir = tempfile::tempdir().unwrap();
        let (path, table) = opened(dir.path(), &[9u8; 64]);
        let other = tempfile::tempdir().unwrap();
        let new = write_table(other.path(), &distance_header(&[3u8; 64]), &[3u8; 64]).unwrap();
        std::fs::rename(new, &path).unwrap();
        assert!(table.check_intact().is_ok());
        assert_eq!(table.value(0).unwrap(), Packed(9).value());
    }

    #[test]
    fn anything_but_a_regular_file_is_refused_by_what_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let kind = |path: &Path| match Table::open(path, None) {
            Err(DbError::NotAFile { kind, .. }) => kind,
            other => panic!("{path:?}: {other:?}"),
        };
        let sub = dir.path().join("d.ppdb");
        std::fs::create_dir(&sub).unwrap();
        assert_eq!(kind(&sub), "a directory");
        #[cfg(unix)]
        {
            let link = dir.path().join("l.ppdb");
            std::os::unix::fs::symlink(dir.path().join("nothing"), &link).unwrap();
            assert_eq!(kind(&link), "a broken symbolic link");
            assert_eq!(kind(Path::new("/dev/zero")), "a device");
            let fifo = dir.path().join("f.ppdb");
            let name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
            // SAFETY: a valid NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
            // Refused at once: the open does not wait for a writer.
            assert_eq!(kind(&fifo), "a FIFO");
            let looped = dir.path().join("loop.ppdb");
            std::os::unix::fs::symlink(&looped, &looped).unwrap();
            assert!(matches!(
                Table::open(&looped, None),
                Err(DbError::Io { .. })
            ));
        }
    }
}
