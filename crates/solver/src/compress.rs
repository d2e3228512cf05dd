//! Compressing a subspace's table, and the plain form of a compressed one.
//!
//! A compressed subspace is one or two files: `KEY.ppdb`, win/draw/loss codes, and, where the
//! source has distances and they are wanted, `KEY.ppdd`, the packed value bytes (result and
//! distance, see [`crate::value`]). Each is complete on its own: a query for results reads the
//! small one, a query for distances the other. Positions the domain omits
//! ([`Domain::omits`]) are stored as the value before them, which lengthens runs; readers value
//! them by a search.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use xxhash_rust::xxh3::xxh3_64;

use crate::compressed::{compress_values, CompressOptions};
use crate::domain::Domain;
use crate::error::{DbError, SolveError};
use crate::format::{
    check_expected, encode_compressed_prefix, write_file, Encoding, Header, DISTANCE_EXTENSION,
    EXTENSION,
};
use crate::limits::worker_pool;
use crate::lock::{BuildLock, LockWait};
use crate::table::Table;
use crate::tablebase::{expected_for, Tablebase};
use crate::value::{Packed, Value, Wdl};

/// Positions per task when positions are walked in parallel.
const CHUNK: u64 = 1 << 16;

/// What [`compress_table`] wrote for one subspace.
#[derive(Clone, Debug, PartialEq)]
pub struct CompressedTable {
    /// The subspace.
    pub subspace: String,
    /// Its positions.
    pub positions: u64,
    /// Positions left out ([`Domain::omits`]).
    pub omitted: u64,
    /// The source file's bytes.
    pub source_bytes: u64,
    /// The win/draw/loss file and its bytes.
    pub wdl: (PathBuf, u64),
    /// The distance file and its bytes, if one was written.
    pub distances: Option<(PathBuf, u64)>,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Whether the compressed files were there already and kept.
    pub kept: bool,
}

impl CompressedTable {
    /// The bytes written (or kept): the result file and the distance file.
    #[must_use]
    pub fn bytes(&self) -> u64 {
        self.wdl.1 + self.distances.as_ref().map_or(0, |d| d.1)
    }
}

/// Compresses the tables of `keys` (every table `tb` finds, if `None`) into `out`, created if
/// missing, with `threads` workers: [`compress_table`] for each, distances included if
/// `distances` and the source has them. `out` may be the tables' own directory: each plain
/// file is then replaced by its compressed form. Holds `out`'s build lock; subspaces whose
/// compressed files are already in `out` and sound are kept, so an interrupted run resumes.
/// `on_table` is called before each table with its subspace and size.
pub fn compress_tables<D: Domain>(
    tb: &Tablebase<D>,
    keys: Option<&[D::Key]>,
    out: &Path,
    distances: bool,
    threads: Option<usize>,
    on_table: &(dyn Fn(&str, u64) + Sync),
) -> Result<Vec<CompressedTable>, SolveError> {
    crate::format::create_output_dir(out)?;
    let _lock = BuildLock::acquire(out, LockWait::No)?;
    let (pool, _) = worker_pool(threads)?;
    let keys: Vec<D::Key> = match keys {
        Some(k) => k.to_vec(),
        None => tb.available().into_iter().map(|(k, _)| k).collect(),
    };
    refuse_foreign_files(tb, &keys, out)?;
    let mut done = Vec::new();
    for key in keys {
        on_table(&key.to_string(), tb.domain().size(key));
        if let Some(kept) = kept_compressed(tb, key, out, distances) {
            done.push(kept);
            continue;
        }
        let source = tb.table(key).map_err(|e| SolveError::Compressing {
            subspace: key.to_string(),
            source: Box::new(e),
        })?;
        done.push(pool.install(|| compress_table(tb.domain(), key, &source, out, distances))?);
    }
    Ok(done)
}

/// Refuses a run that would write over a table of another game or other rules in `out`, as a
/// build does: before the first table, so that nothing is written. Headers alone are read.
fn refuse_foreign_files<D: Domain>(
    tb: &Tablebase<D>,
    keys: &[D::Key],
    out: &Path,
) -> Result<(), SolveError> {
    for &key in keys {
        for extension in [EXTENSION, DISTANCE_EXTENSION] {
            let path = out.join(format!("{key}.{extension}"));
            crate::solve::refuse_foreign_table(&path, &tb.expected(key))?;
        }
    }
    Ok(())
}

/// The report of `key`'s compressed files in `out` if they are there, sound, and of the form
/// asked for.
fn kept_compressed<D: Domain>(
    tb: &Tablebase<D>,
    key: D::Key,
    out: &Path,
    distances: bool,
) -> Option<CompressedTable> {
    let stem = key.to_string();
    let expected = tb.expected(key);
    let open = |name: String| {
        let path = out.join(name);
        let table = Table::open(&path, Some(&expected)).ok()?;
        table.layout()?;
        Some((path, table))
    };
    let (wdl_path, wdl) = open(format!("{stem}.{EXTENSION}"))?;
    if wdl.header().encoding != Encoding::Wdl {
        return None;
    }
    let source = crate::format::read_file_header(&tb.find(key)?).ok()?;
    let with_distances = if distances && source.encoding == Encoding::Distance {
        let (path, table) = open(format!("{stem}.{DISTANCE_EXTENSION}"))?;
        Some((path, table.file_len()))
    } else {
        None
    };
    Some(CompressedTable {
        subspace: stem,
        positions: wdl.positions(),
        omitted: 0,
        source_bytes: 0,
        wdl: (wdl_path, wdl.file_len()),
        distances: with_distances,
        seconds: 0.0,
        kept: true,
    })
}

/// Compresses `source`, the table of subspace `key`, into `out` (an existing directory): the
/// win/draw/loss file always, the distance file too if `distances` and the source has them.
/// Files are written under a temporary name and renamed, as plain tables are. The bytes do not
/// depend on the number of threads. A `source` whose header is not that of `key`'s table in
/// `domain` (another subspace, game, rules or index) is refused ([`DbError::Mismatch`]) before
/// anything is written.
pub fn compress_table<D: Domain>(
    domain: &D,
    key: D::Key,
    source: &Table,
    out: &Path,
    distances: bool,
) -> Result<CompressedTable, SolveError> {
    let started = Instant::now();
    // Another subspace's table (or another game's) would be written under `key`'s name, its
    // left-out positions valued as `key`'s.
    check_expected(source.path(), source.header(), &expected_for(domain, key))?;
    if let Some(rule) = source.omitted() {
        if Some(rule) != domain.omission() {
            return Err(SolveError::Db(DbError::corrupted(
                source.path(),
                format!("left out positions under rule `{rule}`, which this game does not apply"),
            )));
        }
    }
    let mut stored = source.stored_values()?;
    let omitted = fill_omitted(domain, key, &mut stored);
    let header = source.header();
    let wdl_values: Vec<u8> = match header.encoding {
        Encoding::Wdl => stored.clone(),
        Encoding::Distance => stored.par_iter().map(|&b| Packed(b).wdl_code()).collect(),
    };
    let stem = key.to_string();
    let wdl = write_compressed(
        domain,
        out,
        &format!("{stem}.{EXTENSION}"),
        header,
        Encoding::Wdl,
        &wdl_values,
    )?;
    drop(wdl_values);
    let distances = if distances && header.encoding == Encoding::Distance {
        let name = format!("{stem}.{DISTANCE_EXTENSION}");
        Some(write_compressed(
            domain,
            out,
            &name,
            header,
            Encoding::Distance,
            &stored,
        )?)
    } else {
        None
    };
    Ok(CompressedTable {
        subspace: stem,
        positions: header.positions,
        omitted,
        source_bytes: source.file_len(),
        wdl,
        distances,
        seconds: started.elapsed().as_secs_f64(),
        kept: false,
    })
}

/// Gives each position `domain` omits the stored value before it (the first stored value, for
/// those at the start): returns how many there were.
fn fill_omitted<D: Domain>(domain: &D, key: D::Key, stored: &mut [u8]) -> u64 {
    if domain.omission().is_none() {
        return 0;
    }
    let positions = stored.len() as u64;
    let flags: Vec<u64> = (0..positions.div_ceil(CHUNK))
        .into_par_iter()
        .flat_map_iter(|c| {
            let start = c * CHUNK;
            let end = (start + CHUNK).min(positions);
            let mut words = vec![0u64; ((end - start) as usize).div_ceil(64)];
            domain.for_each_position(key, start..end, |index, pos| {
                if domain.omits(pos) {
                    let i = (index - start) as usize;
                    words[i / 64] |= 1 << (i % 64);
                }
            });
            words
        })
        .collect();
    let is_omitted = |i: usize| {
        // Chunks are whole words: CHUNK is a multiple of 64.
        flags[i / 64] & (1 << (i % 64)) != 0
    };
    let first_kept = (0..stored.len()).find(|&i| !is_omitted(i));
    let Some(first_kept) = first_kept else {
        return positions;
    };
    let mut previous = stored[first_kept];
    let mut omitted = 0;
    for (i, value) in stored.iter_mut().enumerate() {
        if is_omitted(i) {
            *value = previous;
            omitted += 1;
        } else {
            previous = *value;
        }
    }
    omitted
}

fn write_compressed<D: Domain>(
    domain: &D,
    out: &Path,
    name: &str,
    source: &Header,
    encoding: Encoding,
    values: &[u8],
) -> Result<(PathBuf, u64), SolveError> {
    let parts = compress_values(
        values,
        encoding,
        CompressOptions::for_values(values, encoding),
    );
    let mut layout = parts.layout;
    layout.omitted = domain.omission().map(str::to_owned);
    let mut header = source.clone();
    header.encoding = encoding;
    header.payload_checksum = xxh3_64(values);
    if encoding == Encoding::Wdl {
        header.stats.longest_win = 0;
        header.stats.longest_loss = 0;
    }
    let prefix = encode_compressed_prefix(&header, &layout)?;
    let path = write_file(out, name, &[&prefix, &parts.index, &parts.body])?;
    let bytes = (prefix.len() + parts.index.len() + parts.body.len()) as u64;
    Ok((path, bytes))
}

/// The plain form of `table`, the table of `key` in `tb`, in memory: the stored values of a
/// compressed table, with the positions it left out valued by a search through `tb` (which
/// reads the smaller subspaces their successors lie in). A plain table is returned as a copy.
/// The solver reads its exits' tables this way: it reads them at random, many times over.
/// A `table` whose header is not that of `key`'s table in `tb` is refused
/// ([`DbError::Mismatch`]).
pub fn inflate<D: Domain>(
    tb: &Tablebase<D>,
    key: D::Key,
    table: &Table,
) -> Result<Table, SolveError> {
    check_expected(table.path(), table.header(), &tb.expected(key))?;
    let mut values = table.stored_values()?;
    if table.omitted().is_some() {
        let domain = tb.domain();
        let positions = values.len() as u64;
        let encoding = table.header().encoding;
        values
            .par_chunks_mut(CHUNK as usize)
            .enumerate()
            .try_for_each(|(c, chunk)| -> Result<(), SolveError> {
                let start = c as u64 * CHUNK;
                let end = (start + CHUNK).min(positions);
                let mut result = Ok(());
                domain.for_each_position(key, start..end, |index, pos| {
                    if result.is_err() || !domain.omits(pos) {
                        return;
                    }
                    let dependency = |source| SolveError::Dependency {
                        subspace: key.to_string(),
                        source,
                    };
                    result = tb.probe(pos).map_err(dependency).and_then(|v| {
                        chunk[(index - start) as usize] = match encoding {
                            Encoding::Distance => packed_of(v).map_err(SolveError::Unsupported)?,
                            Encoding::Wdl => wdl_code(v),
                        };
                        Ok(())
                    });
                });
                result
            })?;
    }
    let mut header = table.header().clone();
    let payload = match header.encoding {
        Encoding::Distance => values,
        Encoding::Wdl => values
            .chunks(4)
            .map(|four| {
                four.iter()
                    .enumerate()
                    .fold(0u8, |byte, (i, &code)| byte | ((code & 3) << (2 * i)))
            })
            .collect(),
    };
    header.payload_checksum = xxh3_64(&payload);
    let mut bytes = crate::format::encode_prefix(&header)?;
    bytes.extend_from_slice(&payload);
    Ok(Table::from_vec(table.path(), bytes, None)?)
}

/// The packed byte of `v`, which must carry its distance if decided.
fn packed_of(v: Value) -> Result<u8, String> {
    match (v.wdl, v.plies) {
        (Wdl::Draw, _) => Ok(Packed::DRAW.0),
        (_, Some(plies)) => Packed::decided(plies)
            .map(|p| p.0)
            .ok_or_else(|| format!("a distance of {plies} plies does not fit a table byte")),
        (_, None) => Err(
            "a position left out of a distance table was valued from tables without distances"
                .to_owned(),
        ),
    }
}

/// The win/draw/loss code of `v`.
fn wdl_code(v: Value) -> u8 {
    match v.wdl {
        Wdl::Draw => 0,
        Wdl::Win => 1,
        Wdl::Loss => 2,
    }
}
