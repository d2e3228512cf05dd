//! The database file: a fixed prefix, a bincode header, and the payload.
//!
//! ```text
//! offset 0    8 bytes   magic  "PPLAYDB\x1a"
//!        8    u32 LE    format version (FORMAT_VERSION)
//!        12   u32 LE    header length H
//!        16   H bytes   header, bincode (standard configuration)
//!        16+H u64 LE    xxh3-64 of the header bytes
//!        ...  zeros up to the next multiple of 64
//!        P    payload   one byte per index (distance form) or four indices per byte (WDL form,
//!                       index i in bits 2(i%4)..2(i%4)+2 of byte i/4), checked by the header's
//!                       xxh3-64 payload checksum
//! ```
//!
//! A compressed table (format version 2, [`COMPRESSED_VERSION`]) has the same prefix; its header
//! is a [`Header`] followed by a [`Layout`], and its payload an index and a body:
//!
//! ```text
//!        P    index     per frame: u64 LE offset of the frame in the body, u64 LE xxh3-64 of
//!                       the frame's bytes; then per block: u16 LE offset of the block in its
//!                       frame; zeros up to the next multiple of 64; all checked by the
//!                       layout's index checksum
//!        ...  body      the frames, each `blocks_per_frame` blocks (see `compressed`)
//! ```
//!
//! The version sits before the header so that a file from another version is named as such
//! even when its header no longer decodes. A file is written under a temporary name in the same
//! directory and renamed once complete and synced: a file with the final name is complete.

use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::xxh3_64;

use crate::error::DbError;
use crate::value::{wdl_from_code, Packed, Value};

/// The first eight bytes of every database file.
pub const MAGIC: [u8; 8] = *b"PPLAYDB\x1a";
/// The format of plain tables (one value per index, as the solver writes them).
pub const FORMAT_VERSION: u32 = 1;
/// The format of compressed tables.
pub const COMPRESSED_VERSION: u32 = 2;
/// The extension of database files: plain tables and compressed win/draw/loss tables.
pub const EXTENSION: &str = "ppdb";
/// The extension of compressed tables of full values (distances), beside the compressed
/// win/draw/loss table of the same subspace: a query for distances reads them, a query for
/// results only reads the smaller `.ppdb`.
pub const DISTANCE_EXTENSION: &str = "ppdd";
/// The extension of unit-distance files (`KEY.ppud`), written beside WDL-only tables for
/// their verification only ([`unit_distance_scheme`]).
pub const UNIT_DISTANCE_EXTENSION: &str = "ppud";

/// Bytes before the header: magic, version and the header's length.
pub(crate) const PREFIX: usize = 16;
/// Where payloads start: the prefix and header are padded to a multiple of this.
pub(crate) const ALIGN: usize = 64;
const MAX_HEADER: usize = 1 << 20;

/// How the payload stores each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Encoding {
    /// One byte: the result and the distance (see [`crate::value`]).
    Distance,
    /// Two bits: the result only.
    Wdl,
}

impl Encoding {
    /// The payload length for `positions` indices.
    #[must_use]
    pub const fn payload_len(self, positions: u64) -> u64 {
        match self {
            Encoding::Distance => positions,
            Encoding::Wdl => positions.div_ceil(4),
        }
    }
}

/// Counts over one table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Stats {
    /// Positions won by the side to move.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// Indices whose position cannot arise in play.
    pub cannot_arise: u64,
    /// The longest win, in plies (0 in a WDL-only table or without wins).
    pub longest_win: u32,
    /// The longest loss, in plies.
    pub longest_loss: u32,
}

impl Stats {
    /// Counts the values of a distance payload, in parallel over chunks.
    #[must_use]
    pub fn of_bytes(bytes: &[u8]) -> Stats {
        use rayon::prelude::*;
        let histogram = bytes
            .par_chunks(1 << 20)
            .map(|chunk| {
                let mut h = [0u64; 256];
                for &b in chunk {
                    h[usize::from(b)] += 1;
                }
                h
            })
            .reduce(|| [0u64; 256], add_histograms);
        Stats::of_histogram(&histogram)
    }

    /// Counts from a histogram of payload bytes.
    #[must_use]
    pub fn of_histogram(histogram: &[u64; 256]) -> Stats {
        let mut stats = Stats::default();
        for (b, &n) in histogram.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let packed = Packed(b as u8);
            match packed.value() {
                None => stats.cannot_arise += n,
                Some(v) => match (v.wdl, v.plies) {
                    (crate::Wdl::Draw, _) => stats.draws += n,
                    (crate::Wdl::Win, p) => {
                        stats.wins += n;
                        stats.longest_win = stats.longest_win.max(p.unwrap_or(0));
                    }
                    (crate::Wdl::Loss, p) => {
                        stats.losses += n;
                        stats.longest_loss = stats.longest_loss.max(p.unwrap_or(0));
                    }
                },
            }
        }
        stats
    }

    /// The number of indices counted.
    #[must_use]
    pub const fn positions(&self) -> u64 {
        self.wins + self.draws + self.losses + self.cannot_arise
    }
}

/// Everything a file says about itself.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The game (`nine_mens_morris`).
    pub game_id: String,
    /// The rules as `name=value` text.
    pub rules: String,
    /// The indexing scheme and its version.
    pub index_scheme: String,
    /// The subspace, as written in file names.
    pub subspace: String,
    /// How the payload stores values.
    pub encoding: Encoding,
    /// The number of indices.
    pub positions: u64,
    /// Counts of results and the longest distances.
    pub stats: Stats,
    /// xxh3-64 of the payload.
    pub payload_checksum: u64,
}

/// How a compressed table stores its values: what format version 2 adds to the [`Header`].
///
/// The values (a win/draw/loss code per index for [`Encoding::Wdl`], a packed value byte for
/// [`Encoding::Distance`]) are cut into blocks of `block_positions` consecutive indices, and
/// the blocks into frames of `blocks_per_frame`; each frame has its own checksum, checked when
/// a read first touches it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    /// The positions not stored, named by the rule that finds them
    /// ([`crate::Domain::omission`]): their indices hold whatever compressed best, and a reader
    /// must value them by a search. `None`: every value is stored.
    pub omitted: Option<String>,
    /// Indices per block, a power of two.
    pub block_positions: u32,
    /// Blocks per frame.
    pub blocks_per_frame: u32,
    /// The length of the code of each token used, by token (see `compressed`).
    pub code_lengths: Vec<(u16, u8)>,
    /// xxh3-64 of the index, its padding included.
    pub index_checksum: u64,
    /// The body's length in bytes.
    pub body_len: u64,
}

impl Layout {
    /// The number of blocks of a table of `positions` indices.
    ///
    /// # Panics
    ///
    /// If `block_positions` is 0.
    #[must_use]
    pub fn blocks(&self, positions: u64) -> u64 {
        positions.div_ceil(u64::from(self.block_positions))
    }

    /// The number of frames of a table of `positions` indices.
    ///
    /// # Panics
    ///
    /// If `block_positions` or `blocks_per_frame` is 0.
    #[must_use]
    pub fn frames(&self, positions: u64) -> u64 {
        self.blocks(positions)
            .div_ceil(u64::from(self.blocks_per_frame))
    }

    /// The index's length with its padding.
    ///
    /// # Panics
    ///
    /// If `block_positions` or `blocks_per_frame` is 0; in debug builds, also if the length
    /// does not fit a `u64`.
    #[must_use]
    pub fn index_len(&self, positions: u64) -> u64 {
        (self.frames(positions) * 16 + self.blocks(positions) * 2).next_multiple_of(ALIGN as u64)
    }
}

/// A file's header: a plain table's, or a compressed table's with its layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileHeader {
    /// What the table holds.
    pub header: Header,
    /// How a compressed table stores it; `None` for a plain table.
    pub layout: Option<Layout>,
}

/// What a reader expects of a file before trusting it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expected {
    /// The game.
    pub game_id: String,
    /// The rules text.
    pub rules: String,
    /// The index scheme.
    pub index_scheme: String,
    /// The subspace, if a particular one is expected.
    pub subspace: Option<String>,
    /// The number of indices, if known.
    pub positions: Option<u64>,
    /// The omission rule the reader applies ([`crate::Domain::omission`]): a compressed table
    /// that left positions out under another rule (or any rule, where this is `None`) is
    /// refused, since its reader would take their stored fillers for values.
    pub omission: Option<String>,
}

/// The file name of subspace `stem`.
#[must_use]
pub fn file_name(stem: &str) -> String {
    format!("{stem}.{EXTENSION}")
}

/// The index scheme a unit-distance file (`KEY.ppud`) names in its header: its subspace's own,
/// marked.
///
/// Such a file is a plain distance table in form, but its distances count plies within the
/// unit its subspace was solved in, every successor outside the unit read as a loss at 0 plies
/// or a win at 1 (the solver's reading of WDL-only tables): the proof that the WDL-only tables
/// beside it are right, which a verification checks ([`crate::verify_with_unit_distances`]),
/// not the game's distances. Named otherwise than tables, it is never read as one, and one
/// renamed into a table's name is refused for its index scheme.
#[must_use]
pub fn unit_distance_scheme(index_scheme: &str) -> String {
    format!("{index_scheme}; distances within the unit")
}

/// The unit-distance file name of subspace `stem` ([`unit_distance_scheme`]).
#[must_use]
pub fn unit_distance_file_name(stem: &str) -> String {
    format!("{stem}.{UNIT_DISTANCE_EXTENSION}")
}

/// Writes a unit-distance file to `dir` ([`unit_distance_scheme`]), under a temporary name
/// first; returns the final path. `header` names the marked index scheme.
pub fn write_unit_distances(
    dir: &Path,
    header: &Header,
    payload: &[u8],
) -> Result<PathBuf, DbError> {
    write_plain(
        dir,
        &unit_distance_file_name(&header.subspace),
        header,
        payload,
    )
}

/// Writes a table to `dir`, under a temporary name first; returns the final path.
pub fn write_table(dir: &Path, header: &Header, payload: &[u8]) -> Result<PathBuf, DbError> {
    write_plain(dir, &file_name(&header.subspace), header, payload)
}

/// Writes a plain file, `header` then `payload`, as `dir/name` ([`write_file`]).
fn write_plain(
    dir: &Path,
    name: &str,
    header: &Header,
    payload: &[u8],
) -> Result<PathBuf, DbError> {
    let prefix = encode_prefix(header)?;
    write_file(dir, name, &[&prefix, payload])
}

/// Writes `parts` one after another to `dir/name`, under a temporary name first (renamed once
/// complete and synced); returns the final path.
pub(crate) fn write_file(dir: &Path, name: &str, parts: &[&[u8]]) -> Result<PathBuf, DbError> {
    let path = dir.join(name);
    write_streamed(&path, |file| {
        for part in parts {
            file.write_all(part)?;
        }
        Ok(())
    })?;
    Ok(path)
}

/// Writes the file at `path` with `write`, buffered, under a temporary name in its directory
/// first (`.NAME.tmp-PID-NONCE`), renamed once complete and synced: a file with the final name
/// is whole. On an error the temporary file is removed.
pub(crate) fn write_streamed(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<File>) -> std::io::Result<()>,
) -> Result<(), DbError> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    // Unique to this writer: the process id alone can repeat on another machine writing to
    // the same shared directory (a cluster build retrying a unit elsewhere).
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let tmp = path.with_file_name(format!(".{name}.tmp-{}-{nonce}", std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut out = std::io::BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        write(&mut out)?;
        let file = out
            .into_inner()
            .map_err(std::io::IntoInnerError::into_error)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)?;
        // The rename is durable once the directory is synced; not every platform allows it.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = File::open(dir).and_then(|d| d.sync_all());
        }
        Ok(())
    })();
    result.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        DbError::io(path, e)
    })
}

/// The prefix, header, header checksum and padding that precede the payload: a table file is
/// these bytes and then the payload.
pub fn encode_prefix(header: &Header) -> Result<Vec<u8>, DbError> {
    let encoded = bincode::serde::encode_to_vec(header, bincode::config::standard())
        .map_err(|e| DbError::corrupted(&header.subspace, format!("cannot encode header: {e}")))?;
    Ok(framed_prefix(&MAGIC, FORMAT_VERSION, &encoded))
}

/// The prefix of a compressed table: [`encode_prefix`] for format version 2.
pub fn encode_compressed_prefix(header: &Header, layout: &Layout) -> Result<Vec<u8>, DbError> {
    let encoded = bincode::serde::encode_to_vec((header, layout), bincode::config::standard())
        .map_err(|e| DbError::corrupted(&header.subspace, format!("cannot encode header: {e}")))?;
    Ok(framed_prefix(&MAGIC, COMPRESSED_VERSION, &encoded))
}

/// The layout every file of ours starts with: `magic`, `version` and the header's length (u32
/// LE each), the `encoded` header, its xxh3-64, and zeros up to the next multiple of 64.
pub(crate) fn framed_prefix(magic: &[u8; 8], version: u32, encoded: &[u8]) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(PREFIX + encoded.len() + 8 + ALIGN);
    bytes.extend_from_slice(magic);
    bytes.extend_from_slice(&version.to_le_bytes());
    bytes.extend_from_slice(&(encoded.len() as u32).to_le_bytes());
    bytes.extend_from_slice(encoded);
    bytes.extend_from_slice(&xxh3_64(encoded).to_le_bytes());
    bytes.resize(bytes.len().next_multiple_of(ALIGN), 0);
    bytes
}

/// One of our files other than a table (a search's transposition table, a unit checkpoint),
/// as [`read_framed`] checks it.
pub(crate) struct FramedKind {
    /// Its first eight bytes.
    pub(crate) magic: [u8; 8],
    /// The version this program writes, the newest it reads.
    pub(crate) version: u32,
    /// The oldest version it reads (`version` where it reads one only).
    pub(crate) oldest: u32,
    /// What it is, as a message names it: `a perfectplay search table`.
    pub(crate) name: &'static str,
    /// Its version as a message names it: `search table format version`.
    pub(crate) version_name: &'static str,
}

/// Reads exactly `buf.len()` bytes of the file at `path` (`len` bytes long): a file that ends
/// first is named truncated, too short for the `at_least` bytes it should have.
pub(crate) fn read_exact_of(
    reader: &mut impl Read,
    buf: &mut [u8],
    path: &Path,
    len: u64,
    at_least: u64,
) -> Result<(), DbError> {
    reader
        .read_exact(buf)
        .map_err(|e| read_failure(e, path, len, at_least))
}

/// A read of the file at `path` (`len` bytes long) that failed with `e`: a file that ended
/// first is named truncated, too short for the `at_least` bytes it should have.
pub(crate) fn read_failure(e: std::io::Error, path: &Path, len: u64, at_least: u64) -> DbError {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        DbError::Length {
            path: path.to_owned(),
            expected: at_least,
            actual: len,
        }
    } else {
        DbError::io(path, e)
    }
}

/// Reads what [`framed_prefix`] wrote at the start of a file of `kind` (`len` bytes long):
/// checks the magic number, the version and the header's checksum, and decodes the header.
/// Returns it with the offset where the body starts; `reader` is left there.
pub(crate) fn read_framed<T: DeserializeOwned>(
    reader: &mut impl Read,
    path: &Path,
    len: u64,
    kind: &FramedKind,
) -> Result<(T, u64), DbError> {
    let mut prefix = [0u8; PREFIX];
    read_exact_of(reader, &mut prefix, path, len, PREFIX as u64)?;
    if prefix[..8] != kind.magic {
        return Err(mismatch(
            path,
            "kind of file",
            "something else (bad magic number)",
            kind.name,
        ));
    }
    let version = u32::from_le_bytes(prefix[8..12].try_into().expect("4 bytes"));
    if !(kind.oldest..=kind.version).contains(&version) {
        return Err(mismatch(path, kind.version_name, version, kind.version));
    }
    let header_len = u32::from_le_bytes(prefix[12..16].try_into().expect("4 bytes")) as usize;
    if header_len > MAX_HEADER {
        return Err(DbError::corrupted(path, "implausible header length"));
    }
    let offset = (PREFIX + header_len + 8).next_multiple_of(ALIGN);
    let mut head = vec![0u8; offset - PREFIX];
    read_exact_of(reader, &mut head, path, len, offset as u64)?;
    let (encoded, rest) = head.split_at(header_len);
    let checksum = u64::from_le_bytes(rest[..8].try_into().expect("8 bytes"));
    if xxh3_64(encoded) != checksum {
        return Err(DbError::corrupted(path, "header checksum mismatch"));
    }
    // The limit makes a length that claims more than the header holds an error, not an
    // allocation of that size.
    let config = bincode::config::standard().with_limit::<MAX_HEADER>();
    let (header, used): (T, usize) = bincode::serde::decode_from_slice(encoded, config)
        .map_err(|e| DbError::corrupted(path, format!("header does not decode: {e}")))?;
    if used != header_len {
        return Err(DbError::corrupted(
            path,
            "header length disagrees with its contents",
        ));
    }
    Ok((header, offset as u64))
}

/// A file intact but made for something else: `what` is `found`, `expected` was asked for.
pub(crate) fn mismatch(
    path: &Path,
    what: &'static str,
    found: impl ToString,
    expected: impl ToString,
) -> DbError {
    DbError::Mismatch {
        path: path.to_owned(),
        what,
        found: found.to_string(),
        expected: expected.to_string(),
    }
}

/// Reads and checks the header of a file's bytes; returns it with the payload's offset.
///
/// Checks the magic number, the version, the header checksum, the length the header implies,
/// and that game, rules, index scheme, subspace and size are the expected ones. The payload
/// checksum is checked separately ([`check_payload`]) because it reads the whole file.
pub fn read_header(
    path: &Path,
    bytes: &[u8],
    expected: Option<&Expected>,
) -> Result<(Header, usize), DbError> {
    match parse_header(path, bytes, bytes.len() as u64, expected)? {
        (
            FileHeader {
                header,
                layout: None,
            },
            offset,
        ) => Ok((header, offset)),
        (
            FileHeader {
                layout: Some(_), ..
            },
            _,
        ) => Err(DbError::corrupted(
            path,
            "a compressed table where a plain one was expected",
        )),
    }
}

/// [`read_header`] for either form: the header, the layout of a compressed table, and the
/// offset of the payload (a compressed table's index).
pub fn read_any_header(
    path: &Path,
    bytes: &[u8],
    expected: Option<&Expected>,
) -> Result<(FileHeader, usize), DbError> {
    parse_header(path, bytes, bytes.len() as u64, expected)
}

/// The header of the file at `path`, checked as by [`read_header`] (length included) but
/// reading only the first bytes: the payload checksum is not checked.
pub fn read_file_header(path: &Path) -> Result<Header, DbError> {
    read_file_headers(path).map(|h| h.header)
}

/// Checks the header of the table file at `path` against `expected`, without reading its
/// payload: magic, version, header checksum, the length the header implies, and game, rules,
/// index scheme, subspace and size.
pub fn check_file_header(path: &Path, expected: &Expected) -> Result<(), DbError> {
    let (head, len) = read_head(path)?;
    parse_header(path, &head, len, Some(expected)).map(|_| ())
}

/// The first bytes of the file at `path`, as many as a header can take, and its length.
fn read_head(path: &Path) -> Result<(Vec<u8>, u64), DbError> {
    use std::io::Read;
    let (file, meta) = crate::table::open_table_file(path)?;
    let mut head = Vec::new();
    file.take((MAX_HEADER + PREFIX + 8 + ALIGN) as u64)
        .read_to_end(&mut head)
        .map_err(|e| DbError::io(path, e))?;
    Ok((head, meta.len()))
}

/// [`read_file_header`] with a compressed table's layout.
pub fn read_file_headers(path: &Path) -> Result<FileHeader, DbError> {
    let (head, len) = read_head(path)?;
    parse_header(path, &head, len, None).map(|(h, _)| h)
}

/// Reads the header from `bytes`, the first bytes (or all) of a file of `file_len` bytes.
fn parse_header(
    path: &Path,
    bytes: &[u8],
    file_len: u64,
    expected: Option<&Expected>,
) -> Result<(FileHeader, usize), DbError> {
    if bytes.len() < PREFIX || bytes[..8] != MAGIC {
        // A file cut short within its prefix is a short table if what is there begins as one.
        let magic_part = &bytes[..bytes.len().min(MAGIC.len())];
        if bytes.len() < PREFIX && MAGIC.starts_with(magic_part) {
            return Err(DbError::Length {
                path: path.to_owned(),
                expected: PREFIX as u64,
                actual: bytes.len() as u64,
            });
        }
        return Err(DbError::BadMagic {
            path: path.to_owned(),
        });
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION && version != COMPRESSED_VERSION {
        return Err(DbError::Version {
            path: path.to_owned(),
            found: version,
            expected: COMPRESSED_VERSION,
        });
    }
    let header_len = u32::from_le_bytes(bytes[12..16].try_into().expect("4 bytes")) as usize;
    if header_len > MAX_HEADER {
        return Err(DbError::corrupted(path, "implausible header length"));
    }
    let header_end = PREFIX + header_len;
    let payload_offset = (header_end + 8).next_multiple_of(ALIGN);
    if bytes.len() < payload_offset {
        return Err(DbError::Length {
            path: path.to_owned(),
            expected: payload_offset as u64,
            actual: file_len,
        });
    }
    let encoded = &bytes[PREFIX..header_end];
    let checksum = u64::from_le_bytes(bytes[header_end..header_end + 8].try_into().expect("8"));
    if xxh3_64(encoded) != checksum {
        return Err(DbError::corrupted(path, "header checksum mismatch"));
    }
    // The limit makes a string or list whose length claims more than the header holds an
    // error instead of an allocation of that size, which aborts the process.
    let config = bincode::config::standard().with_limit::<MAX_HEADER>();
    let undecodable = |e| DbError::corrupted(path, format!("header does not decode: {e}"));
    let ((header, layout), used): ((Header, Option<Layout>), usize) = if version == FORMAT_VERSION {
        bincode::serde::decode_from_slice(encoded, config)
            .map(|(h, used)| ((h, None), used))
            .map_err(undecodable)?
    } else {
        bincode::serde::decode_from_slice(encoded, config)
            .map(|((h, l), used)| ((h, Some(l)), used))
            .map_err(undecodable)?
    };
    if used != header_len {
        return Err(DbError::corrupted(
            path,
            "header length disagrees with its contents",
        ));
    }
    // Counts and lengths near u64::MAX would overflow in plain sums: checked sums make them
    // a corrupted header.
    let s = &header.stats;
    let counted = [s.draws, s.losses, s.cannot_arise]
        .into_iter()
        .try_fold(s.wins, u64::checked_add);
    if counted != Some(header.positions) {
        return Err(DbError::corrupted(path, "header counts do not add up"));
    }
    let payload_len = match &layout {
        None => Some(header.encoding.payload_len(header.positions)),
        Some(layout) => {
            check_layout(path, &header, layout)?;
            layout
                .index_len(header.positions)
                .checked_add(layout.body_len)
        }
    };
    let expected_len = payload_len
        .and_then(|len| (payload_offset as u64).checked_add(len))
        .ok_or_else(|| DbError::corrupted(path, "implausible number of positions"))?;
    if file_len != expected_len {
        return Err(DbError::Length {
            path: path.to_owned(),
            expected: expected_len,
            actual: file_len,
        });
    }
    if let Some(expected) = expected {
        check_expected(path, &header, expected)?;
        if let Some(omitted) = layout.as_ref().and_then(|l| l.omitted.as_ref()) {
            if expected.omission.as_ref() != Some(omitted) {
                return Err(DbError::Mismatch {
                    path: path.to_owned(),
                    what: "rule for positions left out",
                    found: omitted.clone(),
                    expected: expected
                        .omission
                        .clone()
                        .unwrap_or_else(|| "none".to_owned()),
                });
            }
        }
    }
    Ok((FileHeader { header, layout }, payload_offset))
}

/// Refuses a layout no writer makes: the sizes a reader relies on are checked here, once.
fn check_layout(path: &Path, header: &Header, layout: &Layout) -> Result<(), DbError> {
    let bad = |what: &str| {
        Err(DbError::corrupted(
            path,
            format!("implausible layout: {what}"),
        ))
    };
    if !layout.block_positions.is_power_of_two()
        || !(64..=1 << 16).contains(&layout.block_positions)
    {
        return bad("block size");
    }
    if !(1..=1024).contains(&layout.blocks_per_frame) {
        return bad("frame size");
    }
    if !crate::compressed::code_is_valid(&layout.code_lengths) {
        return bad("token code");
    }
    if header.positions > 1 << 48 || layout.body_len > 1 << 48 {
        return bad("size");
    }
    Ok(())
}

/// That `header`, read from `path`, is what `expected` says: a [`DbError::Mismatch`] naming
/// the first field that differs.
pub(crate) fn check_expected(
    path: &Path,
    header: &Header,
    expected: &Expected,
) -> Result<(), DbError> {
    let mismatch = |what, found: &str, wanted: &str| DbError::Mismatch {
        path: path.to_owned(),
        what,
        found: found.to_owned(),
        expected: wanted.to_owned(),
    };
    // Tables of one preset under other options, or of rules no preset has (whose game is the
    // family's name), differ in a few settings: those are named, not the whole rules text.
    let of_no_preset = header.game_id == GAME_OF_NO_PRESET || expected.game_id == GAME_OF_NO_PRESET;
    if header.game_id != expected.game_id && !of_no_preset {
        return Err(mismatch("game", &header.game_id, &expected.game_id));
    }
    if header.rules != expected.rules {
        let (found, wanted) = differing_settings(&header.rules, &expected.rules);
        return Err(mismatch("rules", &found, &wanted));
    }
    if header.game_id != expected.game_id {
        return Err(mismatch("game", &header.game_id, &expected.game_id));
    }
    if header.index_scheme != expected.index_scheme {
        return Err(mismatch(
            "index scheme",
            &header.index_scheme,
            &expected.index_scheme,
        ));
    }
    if let Some(subspace) = &expected.subspace {
        if &header.subspace != subspace {
            return Err(mismatch("subspace", &header.subspace, subspace));
        }
    }
    if let Some(positions) = expected.positions {
        if header.positions != positions {
            return Err(mismatch(
                "number of positions",
                &header.positions.to_string(),
                &positions.to_string(),
            ));
        }
    }
    Ok(())
}

/// The game id a header carries for morris rules that are no preset's.
const GAME_OF_NO_PRESET: &str = "morris";

/// The `name=value` settings of two rules texts that differ, each side's in its order (a
/// setting one side lacks, at its default, shows as `name=(default)`); the whole texts where
/// they are not such lists.
fn differing_settings(found: &str, wanted: &str) -> (String, String) {
    fn settings(text: &str) -> Option<Vec<(&str, &str)>> {
        text.split_whitespace().map(|w| w.split_once('=')).collect()
    }
    settings(found)
        .zip(settings(wanted))
        .and_then(|(ours, theirs)| perfectplay_core::differing_settings(&ours, &theirs))
        .unwrap_or_else(|| (found.to_owned(), wanted.to_owned()))
}

/// Why `path`, which is no directory, cannot hold tables: it is missing, or it is something
/// else (a file, a FIFO, a device), which a bare "File exists" from creating it would not say.
pub(crate) fn not_a_directory(path: &Path) -> std::io::Error {
    use std::io::{Error, ErrorKind};
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == ErrorKind::NotFound => {
            Error::new(ErrorKind::NotFound, "no such directory")
        }
        Err(e) => e,
        Ok(_) => Error::new(ErrorKind::NotADirectory, "not a directory"),
    }
}

/// Creates the output directory `out` of a build (and its parents) where missing; an error
/// naming it where it cannot be, or where it exists as something else than a directory.
pub(crate) fn create_output_dir(out: &Path) -> Result<(), DbError> {
    match std::fs::create_dir_all(out) {
        Ok(()) => Ok(()),
        Err(_) if out.exists() && !out.is_dir() => Err(DbError::io(out, not_a_directory(out))),
        Err(e) => Err(DbError::io(out, e)),
    }
}

/// Checks the payload against the header's checksum.
pub fn check_payload(path: &Path, header: &Header, payload: &[u8]) -> Result<(), DbError> {
    if xxh3_64(payload) != header.payload_checksum {
        return Err(DbError::corrupted(path, "payload checksum mismatch"));
    }
    Ok(())
}

/// The value at `index` of a checked payload; `None` if the position cannot arise.
///
/// # Panics
///
/// If `index` lies past `payload`: for [`Encoding::Distance`], if it is not below
/// `payload.len()`; for [`Encoding::Wdl`], if `index / 4` is not.
#[inline]
#[must_use]
pub fn payload_value(encoding: Encoding, payload: &[u8], index: u64) -> Option<Value> {
    match encoding {
        Encoding::Distance => Packed(payload[index as usize]).value(),
        Encoding::Wdl => {
            let byte = payload[(index / 4) as usize];
            wdl_from_code(byte >> (2 * (index % 4)))
        }
    }
}

/// The one result code (0 draw, 1 win, 2 loss; [`wdl_from_code`]) that every one of the first
/// `positions` values of a WDL payload holds but those that cannot arise (3); `None` where
/// they hold several, or none. Reads a word at a time, and stops at a second result; bits past
/// the last value, in its byte, are not read.
#[must_use]
pub fn sole_wdl_code(payload: &[u8], positions: u64) -> Option<u8> {
    // Two bits a value: `low` and `high` hold each value's low and high bit at its even place.
    const LOW: u64 = 0x5555_5555_5555_5555;
    // The result codes present among the values `valid` marks: bit `c` for code `c`.
    let results_of = |w: u64, valid: u64| -> u8 {
        let (low, high) = (w & valid, (w >> 1) & valid);
        let (not_low, not_high) = (!low & valid, !high & valid);
        u8::from(not_high & not_low != 0)
            | u8::from(not_high & low != 0) << 1
            | u8::from(high & not_low != 0) << 2
    };
    let full = usize::try_from(positions / 4)
        .unwrap_or(usize::MAX)
        .min(payload.len());
    let (whole, rest) = payload[..full].split_at(full - full % 8);
    let mut present = 0u8;
    for word in whole.chunks_exact(8) {
        present |= results_of(
            u64::from_le_bytes(word.try_into().expect("eight bytes")),
            LOW,
        );
        if present.count_ones() > 1 {
            return None;
        }
    }
    // The bytes left, and the last one's first values where the count is not a multiple of
    // four: at most eight bytes, read as one word.
    let last = (positions % 4) as u32;
    let partial = payload.get(full).filter(|_| last > 0);
    let mut bytes = [0u8; 8];
    let mut valid = 0u64;
    for (i, &b) in rest.iter().chain(partial).enumerate() {
        bytes[i] = b;
        let fields = if i == rest.len() {
            0x55 >> (2 * (4 - last))
        } else {
            0x55
        };
        valid |= fields << (8 * i);
    }
    present |= results_of(u64::from_le_bytes(bytes), valid);
    sole_result_code(present)
}

/// As [`sole_wdl_code`], for codes one a byte (a WDL table's values as decoded).
#[must_use]
pub fn sole_wdl_code_of_bytes(codes: &[u8]) -> Option<u8> {
    let mut present = 0u8;
    for chunk in codes.chunks(1 << 16) {
        present |= chunk.iter().fold(0u8, |p, &c| p | 1 << (c & 3)) & 0b111;
        if present.count_ones() > 1 {
            return None;
        }
    }
    sole_result_code(present)
}

/// The code of the one result a set of result codes (bit `c` for code `c`, 0 to 2) holds.
fn sole_result_code(present: u8) -> Option<u8> {
    (present.count_ones() == 1).then(|| present.trailing_zeros() as u8)
}

/// The compact form of a distance payload.
#[must_use]
pub fn to_wdl_payload(bytes: &[u8]) -> Vec<u8> {
    bytes
        .chunks(4)
        .map(|four| {
            four.iter()
                .enumerate()
                .fold(0u8, |acc, (i, &b)| acc | (Packed(b).wdl_code() << (2 * i)))
        })
        .collect()
}

/// The sum of two histograms of payload bytes: how parallel counts are merged.
pub(crate) fn add_histograms(mut a: [u64; 256], b: [u64; 256]) -> [u64; 256] {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn differing_settings_are_named_alone() {
        assert_eq!(
            differing_settings(
                "men=9 flying=3 removal=any",
                "men=9 flying=3 removal=standard"
            ),
            ("removal=any".to_owned(), "removal=standard".to_owned())
        );
        assert_eq!(
            differing_settings("men=9 flying=3", "men=12 trapped=loses flying=3"),
            (
                "men=9 trapped=(default)".to_owned(),
                "men=12 trapped=loses".to_owned()
            )
        );
        assert_eq!(
            differing_settings("free text", "men=9"),
            ("free text".to_owned(), "men=9".to_owned())
        );
    }

    fn header(payload: &[u8], encoding: Encoding, positions: u64) -> Header {
        Header {
            game_id: "g".into(),
            rules: "r=1".into(),
            index_scheme: "s1".into(),
            subspace: "3-3".into(),
            encoding,
            positions,
            stats: Stats {
                draws: positions,
                ..Stats::default()
            },
            payload_checksum: xxh3_64(payload),
        }
    }

    fn file(payload: &[u8]) -> Vec<u8> {
        let h = header(payload, Encoding::Distance, payload.len() as u64);
        let mut bytes = encode_prefix(&h).unwrap();
        bytes.extend_from_slice(payload);
        bytes
    }

    /// The one result code of a WDL payload's values, read one at a time.
    fn sole_one_by_one(payload: &[u8], positions: u64) -> Option<u8> {
        let present = (0..positions).fold(0u8, |present, i| {
            present | 1 << ((payload[(i / 4) as usize] >> (2 * (i % 4))) & 3)
        }) & 0b111;
        (present.count_ones() == 1).then(|| present.trailing_zeros() as u8)
    }

    /// Every length from none to past two words, each code alone among others and in every
    /// place, and bits past the end set: the word-at-a-time scan (and the scan of the values
    /// one a byte) finds the one result that reading one value at a time finds, and nothing
    /// from the bits past the end.
    #[test]
    fn the_one_result_is_that_of_the_values_alone() {
        let mut sole = [0u32; 4];
        for positions in 0..80u64 {
            for (fill, odd) in [(0u8, 1u8), (1, 2), (2, 3), (3, 0), (2, 2), (3, 3), (1, 3)] {
                let code_byte = |c: u8| c | c << 2 | c << 4 | c << 6;
                for place in 0..positions.max(1) {
                    let mut payload = vec![code_byte(fill); positions.div_ceil(4) as usize + 1];
                    if place < positions {
                        let byte = &mut payload[(place / 4) as usize];
                        *byte = (*byte & !(3 << (2 * (place % 4)))) | odd << (2 * (place % 4));
                    }
                    // Bits past the end hold a result of neither.
                    let past = (0..3u8).find(|c| *c != fill && *c != odd).unwrap();
                    for i in positions..(payload.len() as u64 * 4) {
                        let byte = &mut payload[(i / 4) as usize];
                        *byte = (*byte & !(3 << (2 * (i % 4)))) | past << (2 * (i % 4));
                    }
                    let expected = sole_one_by_one(&payload, positions);
                    let what = format!("{positions} values of {fill} with {odd} at {place}");
                    assert_eq!(sole_wdl_code(&payload, positions), expected, "{what}");
                    let bytes: Vec<u8> = (0..positions)
                        .map(|i| (payload[(i / 4) as usize] >> (2 * (i % 4))) & 3)
                        .collect();
                    assert_eq!(sole_wdl_code_of_bytes(&bytes), expected, "{what}");
                    sole[usize::from(expected.unwrap_or(3))] += 1;
                }
            }
        }
        assert!(sole.iter().all(|&n| n > 0), "{sole:?}");
        assert_eq!(sole_wdl_code(&[], 0), None);
        // A payload shorter than its count says (a corrupted header) is read as far as it goes.
        assert_eq!(sole_wdl_code(&[0b1010_1010], 12), Some(2));
        // One value of another result in the last word decides.
        let mut long = vec![0b1111_1101u8; 40];
        assert_eq!(sole_wdl_code(&long, 160), Some(1));
        long[39] = 0b1011_1101;
        assert_eq!(sole_wdl_code(&long, 160), None);
    }

    #[test]
    fn a_file_reads_back_and_damage_is_named() {
        let payload = vec![0u8; 100];
        let bytes = file(&payload);
        let p = Path::new("t");
        let (h, offset) = read_header(p, &bytes, None).unwrap();
        assert_eq!(offset % ALIGN, 0);
        check_payload(p, &h, &bytes[offset..]).unwrap();

        let truncated = &bytes[..bytes.len() - 1];
        assert!(matches!(
            read_header(p, truncated, None),
            Err(DbError::Length { .. })
        ));
        assert!(matches!(
            read_header(p, &bytes[..5], None),
            Err(DbError::Length { .. })
        ));

        let mut corrupt = bytes.clone();
        *corrupt.last_mut().unwrap() = 7;
        let (h, offset) = read_header(p, &corrupt, None).unwrap();
        assert!(matches!(
            check_payload(p, &h, &corrupt[offset..]),
            Err(DbError::Corrupted { .. })
        ));

        let mut header_hit = bytes.clone();
        header_hit[PREFIX + 1] ^= 1;
        assert!(matches!(
            read_header(p, &header_hit, None),
            Err(DbError::Corrupted { .. })
        ));

        let mut version = bytes.clone();
        version[8] = 9;
        assert!(matches!(
            read_header(p, &version, None),
            Err(DbError::Version { found: 9, .. })
        ));
        assert!(matches!(
            read_header(p, b"hello world, not a table", None),
            Err(DbError::BadMagic { .. })
        ));
        // Cut short within the prefix: short where it begins as a table, else something else.
        for len in [0, 3, 8, 12, PREFIX - 1] {
            assert!(
                matches!(
                    read_header(p, &bytes[..len], None),
                    Err(DbError::Length { actual, .. }) if actual == len as u64
                ),
                "{len} bytes"
            );
        }
        assert!(matches!(
            read_header(p, b"hello wo", None),
            Err(DbError::BadMagic { .. })
        ));
    }

    /// A file whose header is `encoded`, with the right header checksum, and no payload.
    fn with_header(encoded: &[u8]) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes.extend_from_slice(&(encoded.len() as u32).to_le_bytes());
        bytes.extend_from_slice(encoded);
        bytes.extend_from_slice(&xxh3_64(encoded).to_le_bytes());
        bytes.resize(bytes.len().next_multiple_of(ALIGN), 0);
        bytes
    }

    #[test]
    fn a_header_claiming_a_huge_string_is_corrupted_not_an_allocation() {
        // The game's name claims 2^62 bytes (a u64 varint: 0xfd and eight bytes).
        let mut encoded = vec![0xfd, 0, 0, 0, 0, 0, 0, 0, 0x40];
        encoded.extend_from_slice(b"three_mens_morris");
        let err = read_header(Path::new("t"), &with_header(&encoded), None).unwrap_err();
        assert!(err.to_string().contains("does not decode"), "{err}");
    }

    #[test]
    fn counts_near_the_largest_number_are_corrupted_not_an_overflow() {
        let p = Path::new("t");
        let mut h = header(&[], Encoding::Distance, u64::MAX);
        h.stats.wins = u64::MAX;
        h.stats.draws = 1;
        let err = read_header(p, &encode_prefix(&h).unwrap(), None).unwrap_err();
        assert!(err.to_string().contains("do not add up"), "{err}");
        h.stats.draws = 0;
        let err = read_header(p, &encode_prefix(&h).unwrap(), None).unwrap_err();
        assert!(err.to_string().contains("implausible"), "{err}");
    }

    #[test]
    fn a_file_for_other_rules_is_refused() {
        let payload = vec![0u8; 10];
        let bytes = file(&payload);
        let mut expected = Expected {
            game_id: "g".into(),
            rules: "r=1".into(),
            index_scheme: "s1".into(),
            subspace: Some("3-3".into()),
            positions: Some(10),
            omission: None,
        };
        read_header(Path::new("t"), &bytes, Some(&expected)).unwrap();
        expected.rules = "r=2".into();
        let err = read_header(Path::new("t"), &bytes, Some(&expected)).unwrap_err();
        assert!(err.to_string().contains("rules"), "{err}");
    }

    #[test]
    fn the_compact_form_keeps_every_result() {
        let bytes: Vec<u8> = (0..=255u8).collect();
        let compact = to_wdl_payload(&bytes);
        assert_eq!(compact.len(), 64);
        for (i, &b) in bytes.iter().enumerate() {
            let full = payload_value(Encoding::Distance, &bytes, i as u64);
            let wdl = payload_value(Encoding::Wdl, &compact, i as u64);
            assert_eq!(full.map(|v| v.wdl), wdl.map(|v| v.wdl), "byte {b}");
        }
    }

    #[test]
    fn a_written_file_has_its_final_name_and_no_leftovers() {
        let dir = tempfile::tempdir().unwrap();
        let payload = vec![0u8; 33];
        let h = header(&payload, Encoding::Distance, 33);
        let path = write_table(dir.path(), &h, &payload).unwrap();
        assert_eq!(path.file_name().unwrap(), "3-3.ppdb");
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 1);
        let bytes = fs::read(&path).unwrap();
        let (read, _) = read_header(&path, &bytes, None).unwrap();
        assert_eq!(read, h);
    }
}
