//! Verification: every stored value recomputed from its successors by forward move generation,
//! independently of the solver's backward pass.
//!
//! A table passes when every position that is over holds its result, and every other position
//! holds exactly the best of its successors' values seen from the mover (the quickest win,
//! else a draw, else the slowest loss). Together these imply the table is right: a wrong win
//! or loss would need a chain of ever shorter distances ending in a wrong terminal value, and a
//! wrongly stored draw has a successor whose true value is a shorter loss or a win. Where a
//! table (or a successor's table) is WDL-only, results are compared without distances.
//!
//! That proves less: without distances nothing says that a stored win or loss descends to the
//! end of the game, and positions that can only repeat (draws) may be stored as wins and
//! losses that agree with each other, a win beside a loss whose every turn reaches a win. In
//! Six Men's Morris's 4-5 unit (with the no-re-forming memory) each of its 1,379 draws can be
//! so stored and pass (`tests/unit_distances.rs`). A WDL-only build therefore writes its
//! distances within each unit beside its tables when asked (`KEY.ppud`,
//! [`crate::SolveOptions::unit_distances`]), and [`verify_with_unit_distances`] checks the
//! tables against them as against distance tables, a successor in another unit's WDL-only table
//! counted as the solver counts it; that proof holds.
//!
//! Successors' values are read from their tables, those of finished positions included (as the
//! solver reads them), so a table is proven right once the tables its successors lie in pass
//! too: verify a whole set, or a table with what it depends on.
//!
//! A compressed subspace has two files: the distance file is recomputed as above, and the
//! results file beside it is compared with it index by index, so both forms are proven by one
//! pass. A tablebase reading results only ([`Tablebase::results_only`]) recomputes the results
//! file itself.
//!
//! A compressed table is decoded into memory for the verification of a table it serves (the
//! table itself, or one its successors lie in), as many as fit in half the memory the system
//! has available, the verified table first: a read in a compressed file decodes its block up to
//! the value, and a verification reads every value of its table and ten or so of other tables'
//! per position. Decoding a file checks every frame of it; the tables that do not fit are read
//! in place, value by value, with the same answers.
//!
//! A successor in a table whose every position holds one result (a results table that leaves
//! nothing out, all lost for its side to move, say, as its stored values show once decoded or
//! scanned) is given that result by its subspace alone, without being located in the table:
//! where one side is far ahead, most successors lie in such tables, and locating them was most
//! of a verification. What that gives up is the check that such a successor falls on a position
//! its table holds rather than on an index that cannot arise. So one position in
//! 64 (`checks_sole`, chosen by a hash of its index, so that no part of the index's structure
//! is left out) locates and reads its successors in such tables too, as it does in any other: a fault of the index that sends
//! successors to indices that cannot arise fails the verification there, found all but surely
//! once it touches a few hundred successors (a fault of a whole class of positions touches
//! millions), for under one percent more time. A single such successor is left to the domains'
//! own tests (every index of a subspace unranks to a position that locates back to it, or is a
//! hole that locates elsewhere); the tables of more than one result locate every successor.
//!
//! A successor its table leaves out (a checkers position whose mover must capture) has no
//! stored value: it is searched as a probe searches it, the best of its captures' values, but
//! through the same decoded tables, the tables those captures lead to decoded after the others
//! (a probe would decode a block of a compressed file for each read).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use arrayvec::ArrayVec;
use perfectplay_core::Game;
use rayon::prelude::*;

use crate::domain::Domain;
use crate::error::{DbError, ProbeError, SolveError};
use crate::format::{DISTANCE_EXTENSION, EXTENSION};
use crate::limits::worker_pool;
use crate::long_distances::may_stand_for_long;
use crate::table::Table;
use crate::tablebase::{search_successors, stored, terminal_value, Tablebase};
use crate::value::{Packed, Value, Wdl};

type Position<D> = <<D as Domain>::Game as Game>::Position;

/// One table's verification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifiedTable {
    /// The subspace.
    pub subspace: String,
    /// Positions checked.
    pub positions: u64,
    /// Positions whose stored value differs from the recomputed one.
    pub mismatches: u64,
    /// The first mismatch found (index, stored, recomputed), for the report.
    pub example: Option<String>,
}

/// What a verification found.
#[derive(Clone, Debug, PartialEq)]
pub struct VerifyReport {
    /// Every table checked, in order.
    pub tables: Vec<VerifiedTable>,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl VerifyReport {
    /// Whether every table passed.
    #[must_use]
    pub fn passed(&self) -> bool {
        self.tables.iter().all(|t| t.mismatches == 0)
    }
}

const CHUNK: u64 = 1 << 14;

/// How [`verify_tables`] runs: the common requests have functions of their own ([`verify`],
/// [`verify_with_unit_distances`] and their `_within` forms).
#[derive(Clone, Debug, Default)]
pub struct VerifyOptions {
    /// Worker threads (`None`: one per CPU; `Some(0)` is refused).
    pub threads: Option<usize>,
    /// Prove WDL-only tables right with their unit distances ([`verify_with_unit_distances`])
    /// rather than check them for agreement with their successors ([`verify`]).
    pub unit_distances: bool,
    /// Bytes of unit distances and decoded compressed tables kept in memory at once, in that
    /// order (`None`: half the memory the system has available); the rest are read in place,
    /// with the same answers, more slowly.
    pub memory_bytes: Option<u64>,
    /// Set from another thread to stop: the verification ends at its next chunk of positions
    /// with [`SolveError::Interrupted`], and the tables are left as they were (it only reads).
    pub cancel: Option<Arc<AtomicBool>>,
    /// Counts the positions checked so far, as the chunks are done (for progress).
    pub checked: Option<Arc<AtomicU64>>,
}

/// Rechecks the tables of `keys` (every table found, if `None`), with `threads` workers
/// (`Some(0)` is refused). A table that is missing or unusable, or one its successors lie in,
/// is [`SolveError::Verifying`].
/// `on_table` is called before each table with its subspace and size (for progress).
pub fn verify<D: Domain>(
    tb: &Tablebase<D>,
    keys: Option<&[D::Key]>,
    threads: Option<usize>,
    on_table: &(dyn Fn(&str, u64) + Sync),
) -> Result<VerifyReport, SolveError> {
    let options = VerifyOptions {
        threads,
        ..VerifyOptions::default()
    };
    verify_tables(tb, keys, &options, on_table)
}

/// [`verify`] keeping at most `decode_bytes` of decoded compressed tables in memory at once
/// (`verify` allows half the memory the system has available): the tables that do not fit are
/// read in place, value by value, with the same answers, more slowly.
pub fn verify_within<D: Domain>(
    tb: &Tablebase<D>,
    keys: Option<&[D::Key]>,
    threads: Option<usize>,
    decode_bytes: u64,
    on_table: &(dyn Fn(&str, u64) + Sync),
) -> Result<VerifyReport, SolveError> {
    let options = VerifyOptions {
        threads,
        memory_bytes: Some(decode_bytes),
        ..VerifyOptions::default()
    };
    verify_tables(tb, keys, &options, on_table)
}

/// [`verify`] of WDL-only tables with their unit distances (`KEY.ppud`, written by a build with
/// [`crate::SolveOptions::unit_distances`], and the distances past its byte in `KEY.ppud.long`
/// where the unit needed them, [`crate::long_distances`]): a proof that every stored result is
/// right, where [`verify`] can only find them in agreement with their successors.
///
/// Agreement alone lets a cycle of positions wrongly stored as won and lost pass: a false win
/// has a successor stored lost, which has every successor stored won. With distances counted
/// within the unit (a successor in another unit's table at its result's nearest end: a loss at
/// 0 plies, a win at 1), each table of the unit is checked against them as a distance table
/// is: a loss at `p` plies has every successor won, the slowest in `p - 1`; a draw has no
/// successor lost and one drawn; a win at `p` has a successor lost in fewer than `p` plies
/// (the quickest such is not looked for: the distances are the proof, not the product). Then
/// every stored win or loss descends through ever shorter distances to the end of the game or
/// to another unit's tables, verified in turn, and a draw stored for a decided position would
/// have a successor whose stored value contradicts it. The unit distances must agree with the
/// tables' results index by index too. Every WDL-only table of the unit the verified table's
/// quiet turns lead to must have its unit-distance file beside it: a missing one is
/// [`SolveError::Verifying`]. A table with distances needs none and is checked as [`verify`]
/// checks it.
pub fn verify_with_unit_distances<D: Domain>(
    tb: &Tablebase<D>,
    keys: Option<&[D::Key]>,
    threads: Option<usize>,
    on_table: &(dyn Fn(&str, u64) + Sync),
) -> Result<VerifyReport, SolveError> {
    let options = VerifyOptions {
        threads,
        unit_distances: true,
        ..VerifyOptions::default()
    };
    verify_tables(tb, keys, &options, on_table)
}

/// [`verify_with_unit_distances`] keeping at most `memory_bytes` of unit distances copied into
/// memory and of decoded compressed tables, in that order: the rest are read in place, with the
/// same answers.
pub fn verify_with_unit_distances_within<D: Domain>(
    tb: &Tablebase<D>,
    keys: Option<&[D::Key]>,
    threads: Option<usize>,
    memory_bytes: u64,
    on_table: &(dyn Fn(&str, u64) + Sync),
) -> Result<VerifyReport, SolveError> {
    let options = VerifyOptions {
        threads,
        unit_distances: true,
        memory_bytes: Some(memory_bytes),
        ..VerifyOptions::default()
    };
    verify_tables(tb, keys, &options, on_table)
}

/// The verification of [`verify`] or [`verify_with_unit_distances`] as `options` say, which
/// can be stopped from another thread and counts its progress.
pub fn verify_tables<D: Domain>(
    tb: &Tablebase<D>,
    keys: Option<&[D::Key]>,
    options: &VerifyOptions,
    on_table: &(dyn Fn(&str, u64) + Sync),
) -> Result<VerifyReport, SolveError> {
    let budget = options.memory_bytes.unwrap_or_else(decode_budget);
    each_table(tb, keys, options.threads, on_table, |key| {
        verify_table(tb, key, budget, options)
    })
}

/// `check` run on each table of `keys` (every table of `tb`, if `None`) in turn, on a pool of
/// `threads` workers, `on_table` told before each: the report of [`verify`] and
/// [`verify_against`].
fn each_table<D: Domain>(
    tb: &Tablebase<D>,
    keys: Option<&[D::Key]>,
    threads: Option<usize>,
    on_table: &(dyn Fn(&str, u64) + Sync),
    check: impl Fn(D::Key) -> Result<VerifiedTable, SolveError> + Sync,
) -> Result<VerifyReport, SolveError> {
    let keys: Vec<D::Key> = match keys {
        Some(k) => k.to_vec(),
        None => tb.available().into_iter().map(|(k, _)| k).collect(),
    };
    let (pool, _) = worker_pool(threads)?;
    let started = Instant::now();
    let mut tables = Vec::new();
    for key in keys {
        on_table(&key.to_string(), tb.domain().size(key));
        tables.push(pool.install(|| check(key))?);
    }
    Ok(VerifyReport {
        tables,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// Compares the tables of `keys` in `tb` (every table found, if `None`) value by value with
/// the tables of the same subspaces in `reference`, with `threads` workers: a fast check that
/// `tb` answers exactly as a set that passed [`verify`] (a compressed set against the plain
/// set it came from, or a rebuild against a verified set). Positions a table leaves out are
/// probed through both tablebases (so searched where left out); a compressed results file
/// beside its distance file is compared too. Values compare with their distances where both
/// tables have them, else by result. A table missing from `reference` is
/// [`SolveError::Verifying`].
pub fn verify_against<D: Domain>(
    tb: &Tablebase<D>,
    reference: &Tablebase<D>,
    keys: Option<&[D::Key]>,
    threads: Option<usize>,
    on_table: &(dyn Fn(&str, u64) + Sync),
) -> Result<VerifyReport, SolveError> {
    each_table(tb, keys, threads, on_table, |key| {
        compare_table(tb, reference, key)
    })
}

/// The value a stored byte of `table` means: a packed value of a distance table, a result
/// code of a results table.
fn stored_value(table: &Table, byte: u8) -> Option<Value> {
    if table.has_distances() {
        Packed(byte).value()
    } else {
        crate::value::wdl_from_code(byte)
    }
}

/// Whether two values agree: exactly where `exact` (both tables hold distances) and both carry
/// distances, else by result.
fn agree(a: Option<Value>, b: Option<Value>, exact: bool) -> bool {
    match (a, b) {
        (Some(a), Some(b)) if !exact || a.plies.is_none() || b.plies.is_none() => a.wdl == b.wdl,
        (a, b) => a == b,
    }
}

fn compare_table<D: Domain>(
    tb: &Tablebase<D>,
    reference: &Tablebase<D>,
    key: D::Key,
) -> Result<VerifiedTable, SolveError> {
    let dependency = |e: ProbeError| SolveError::Verifying {
        subspace: key.to_string(),
        source: Box::new(e),
    };
    let table = tb.table(key).map_err(dependency)?;
    let other = reference.table(key).map_err(dependency)?;
    let mine = table.stored_values()?;
    let theirs = other.stored_values()?;
    let domain = tb.domain();
    // Positions left out of either table are valued by a probe, which searches them.
    let searched = table.omitted().is_some() || other.omitted().is_some();
    let exact = table.has_distances() && other.has_distances();
    let values = |index: u64, pos: Option<&Position<D>>| -> Result<_, ProbeError> {
        Ok(match pos.filter(|p| domain.omits(p)) {
            Some(pos) => (Some(tb.probe(pos)?), Some(reference.probe(pos)?)),
            None => (
                stored_value(&table, mine[index as usize]),
                stored_value(&other, theirs[index as usize]),
            ),
        })
    };
    let (mut differ, first) =
        scan_differences(domain, key, table.positions(), searched, |i, pos| {
            values(i, pos).map(|(a, b)| !agree(a, b, exact))
        })
        .map_err(dependency)?;
    let mut example = first
        .map(|index| {
            let pos = searched.then(|| domain.unrank(key, index));
            let (a, b) = values(index, pos.as_ref())?;
            Ok(format!(
                "index {index}: {}, the reference {}",
                describe(a),
                describe(b)
            ))
        })
        .transpose()
        .map_err(dependency)?;
    if let Some((more, first)) = check_results_file(tb, key, &table, Some(&mine))? {
        differ += more;
        example = example.or(first);
    }
    table.check_intact()?;
    other.check_intact()?;
    Ok(VerifiedTable {
        subspace: key.to_string(),
        positions: table.positions(),
        mismatches: differ,
        example,
    })
}

/// Scans indices `0..len` of `key` in parallel chunks and counts those `differs` says differ,
/// with the first of them. With `positions`, each index comes with its position (walked, not
/// unranked), else with `None`. The first error, by chunk, stops the scan.
fn scan_differences<D: Domain, E: Send>(
    domain: &D,
    key: D::Key,
    len: u64,
    positions: bool,
    differs: impl Fn(u64, Option<&Position<D>>) -> Result<bool, E> + Sync,
) -> Result<(u64, Option<u64>), E> {
    crate::tasks::each_chunk(0..len.div_ceil(CHUNK))
        .map(|c| {
            let range = c * CHUNK..(c * CHUNK + CHUNK).min(len);
            let (mut count, mut first, mut error) = (0u64, None, None);
            let mut visit = |index: u64, pos: Option<&Position<D>>| {
                if error.is_some() {
                    return;
                }
                match differs(index, pos) {
                    Ok(true) => {
                        count += 1;
                        first.get_or_insert(index);
                    }
                    Ok(false) => {}
                    Err(e) => error = Some(e),
                }
            };
            if positions {
                domain.for_each_position(key, range, |index, pos| visit(index, Some(pos)));
            } else {
                range.for_each(|index| visit(index, None));
            }
            error.map_or(Ok((count, first)), Err)
        })
        .reduce(
            || Ok((0, None)),
            |a, b| {
                let ((x, fx), (y, fy)) = (a?, b?);
                Ok((x + y, fx.or(fy)))
            },
        )
}

/// Verifies the table of `key`, keeping at most `budget` bytes of decoded tables in memory
/// ([`decode_near`]).
fn verify_table<D: Domain>(
    tb: &Tablebase<D>,
    key: D::Key,
    budget: u64,
    options: &VerifyOptions,
) -> Result<VerifiedTable, SolveError> {
    let with_unit_distances = options.unit_distances;
    let cancelled = || {
        options
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    };
    // Before the copies and decoding, which take minutes on large sets.
    if cancelled() {
        return Err(SolveError::Interrupted);
    }
    let dependency = |e: ProbeError| SolveError::Verifying {
        subspace: key.to_string(),
        source: Box::new(e),
    };
    let mut near = near_tables(tb, key).map_err(dependency)?;
    let table = Arc::clone(&near[0].table);
    let budget = if with_unit_distances {
        attach_unit_distances(tb, &mut near, budget).map_err(dependency)?
    } else {
        budget
    };
    decode_near(&mut near, budget)?;
    if cancelled() {
        return Err(SolveError::Interrupted);
    }
    // A table with distances of its own has no unit distances and is checked exactly, as
    // `verify` checks it.
    let proven_by_unit_distances = near[0].distances.is_some();
    let index = NearIndex::new(tb.domain(), &near);
    let near = Near {
        tables: &near,
        index: &index,
        any_sole: near.iter().any(|n| n.sole.is_some()),
    };
    let positions = table.positions();
    let omits = table.omitted().is_some();
    let mismatches = AtomicU64::new(0);
    let example: Mutex<Option<(u64, String)>> = Mutex::new(None);
    let error: Mutex<Option<SolveError>> = Mutex::new(None);
    let interrupted = AtomicBool::new(false);
    crate::tasks::each_chunk(0..positions.div_ceil(CHUNK)).for_each(|c| {
        if cancelled() {
            interrupted.store(true, Ordering::Relaxed);
            return;
        }
        let start = c * CHUNK;
        let end = (start + CHUNK).min(positions);
        let mut stop = false;
        tb.domain()
            .for_each_position(key, start..end, |index, pos| {
                if stop {
                    return;
                }
                // A position the table leaves out holds no value: readers search it.
                if omits && tb.domain().omits(pos) {
                    return;
                }
                let result = (|| -> Result<Option<String>, SolveError> {
                    let stored = near.tables[0].value(index)?;
                    if proven_by_unit_distances {
                        let result = near.tables[0].result(index)?;
                        if result.map(|v| v.wdl) != stored.map(|v| v.wdl) {
                            return Ok(Some(format!(
                                "index {index}: stored {}, its unit distance {}",
                                describe(result),
                                describe(stored)
                            )));
                        }
                    }
                    let recount = Recount::of(stored, proven_by_unit_distances);
                    let computed = if tb.domain().is_hole(key, index, pos) {
                        None
                    } else {
                        recompute(tb, near, pos, recount, checks_sole(index)).map_err(dependency)?
                    };
                    let same = match (stored, computed) {
                        (None, None) => true,
                        (Some(s), Some(c)) if s.plies.is_none() || c.plies.is_none() => {
                            s.wdl == c.wdl
                        }
                        (Some(s), Some(c)) if proven_by_unit_distances && s.wdl == Wdl::Win => {
                            c.wdl == Wdl::Win && c.plies <= s.plies
                        }
                        (s, c) => s == c,
                    };
                    Ok((!same).then(|| {
                        format!(
                            "index {index}: stored {}, successors give {} ({pos:?})",
                            describe(stored),
                            describe(computed)
                        )
                    }))
                })();
                match result {
                    Ok(None) => {}
                    Ok(Some(text)) => {
                        mismatches.fetch_add(1, Ordering::Relaxed);
                        let mut slot = example.lock().expect("lock");
                        if slot.as_ref().is_none_or(|(i, _)| index < *i) {
                            *slot = Some((index, text));
                        }
                    }
                    Err(e) => {
                        error.lock().expect("lock").get_or_insert(e);
                        stop = true;
                    }
                }
            });
        if let Some(checked) = options.checked.as_ref().filter(|_| !stop) {
            checked.fetch_add(end - start, Ordering::Relaxed);
        }
    });
    if let Some(e) = error.into_inner().expect("lock") {
        return Err(e);
    }
    if interrupted.into_inner() || cancelled() {
        return Err(SolveError::Interrupted);
    }
    // Values read from a file changed during the pass prove nothing either way.
    for t in near.tables {
        t.table.check_intact()?;
        if let Some(distances) = &t.distances {
            distances.check_intact()?;
        }
    }
    let mut mismatches = mismatches.into_inner();
    let mut example = example.into_inner().expect("lock").map(|(_, t)| t);
    if let Some((differ, first)) = check_results_file(tb, key, &table, near.tables[0].decoded())? {
        mismatches += differ;
        example = example.or(first);
    }
    Ok(VerifiedTable {
        subspace: key.to_string(),
        positions,
        mismatches,
        example,
    })
}

/// Where `table` is a compressed distance file (`KEY.ppdd`) with its compressed results file
/// (`KEY.ppdb`) beside it, checks that the results file holds the result of every value of the
/// distance file (the one just recomputed, whose stored values are `decoded` where the caller
/// has them), so that a probe of either form gets the same answer: the number of indices that
/// differ and the first, or `None` without such a pair. Positions the tables leave out are
/// skipped: each file fills them as compresses best for it.
fn check_results_file<D: Domain>(
    tb: &Tablebase<D>,
    key: D::Key,
    table: &Table,
    decoded: Option<&[u8]>,
) -> Result<Option<(u64, Option<String>)>, SolveError> {
    let path = table.path();
    if path.extension().and_then(|e| e.to_str()) != Some(DISTANCE_EXTENSION) {
        return Ok(None);
    }
    let results_path = path.with_extension(EXTENSION);
    if !results_path.exists() {
        return Ok(None);
    }
    let results = Table::open(&results_path, Some(&tb.expected(key)))?;
    if results.has_distances() || results.layout().is_none() {
        return Err(SolveError::Db(DbError::corrupted(
            &results_path,
            "beside a compressed distance file, the results file must be compressed results",
        )));
    }
    let distances = match decoded {
        Some(values) => std::borrow::Cow::Borrowed(values),
        None => std::borrow::Cow::Owned(table.stored_values()?),
    };
    let codes = results.stored_values()?;
    let domain = tb.domain();
    let omits = table.omitted().is_some();
    let Ok((differ, first)) =
        scan_differences(domain, key, table.positions(), omits, |index, pos| {
            let i = index as usize;
            let stored = pos.is_none_or(|p| !domain.omits(p));
            Ok::<_, std::convert::Infallible>(stored && codes[i] != Packed(distances[i]).wdl_code())
        });
    results.check_intact()?;
    Ok(Some((
        differ,
        first.map(|index| {
            format!(
                "index {index}: {} holds {}, the distance file {}",
                results_path.display(),
                describe(crate::value::wdl_from_code(codes[index as usize])),
                describe(Packed(distances[index as usize]).value()),
            )
        }),
    )))
}

fn describe(v: Option<Value>) -> String {
    v.map_or_else(|| "cannot arise".to_owned(), |v| v.to_string())
}

/// Successor reads located and prefetched before any is made, so that their cache misses
/// overlap: (which table of `near`, index).
type Reads = ArrayVec<(usize, u64), READS>;

/// How many successor reads one position gathers before reading them.
const READS: usize = 64;
/// How many it gathers when a successor lost for its mover settles the position: reads made
/// in smaller batches let the rest of its turns go unplayed once one is found, and still
/// overlap a few cache misses.
const READS_TO_SETTLE: usize = 4;

/// How [`recompute`] values a position's successors, from what its table stores there.
#[derive(Clone, Copy, Debug)]
struct Recount {
    /// A successor lost for its mover settles the position once it makes a win in this many
    /// plies or fewer: the turns left could only make the win quicker, which is not compared.
    settle_win_within: Option<u32>,
    /// Values without a distance count at their result's nearest end, as the solver reads a
    /// WDL-only table: a loss at 0 plies, a win at 1 (with unit distances).
    wdl_at_ends: bool,
}

impl Recount {
    /// The recount for a position stored as `stored`: a win without a distance is proven by
    /// any successor lost for its mover, and with unit distances a win in `p` plies by one lost
    /// in fewer than `p`; every other value is recomputed from all its successors.
    fn of(stored: Option<Value>, unit_distances: bool) -> Recount {
        let settle_win_within = match stored {
            Some(Value {
                wdl: Wdl::Win,
                plies: None,
            }) => Some(u32::MAX),
            Some(Value {
                wdl: Wdl::Win,
                plies,
            }) if unit_distances => plies,
            _ => None,
        };
        Recount {
            settle_win_within,
            wdl_at_ends: unit_distances,
        }
    }

    /// `v` as it counts.
    fn counted(self, v: Value) -> Value {
        match (v.plies, v.wdl) {
            (None, Wdl::Win) if self.wdl_at_ends => Value::decided(1),
            (None, Wdl::Loss) if self.wdl_at_ends => Value::decided(0),
            _ => v,
        }
    }
}

/// Whether the position at `index` locates and reads its successors in tables of one result
/// rather than giving them that result by their subspace, so that an index fault sending
/// successors to indices that cannot arise is found: one in 64, chosen by the top six bits of
/// a multiplicative hash of the index (an index's low digits follow its structure, its ranks of
/// men and memories, which a choice by `index % 64` would sample unevenly).
#[inline]
fn checks_sole(index: u64) -> bool {
    index.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58 == 0
}

/// The value `pos` must have given its successors; `None` if it cannot arise.
///
/// Successors are valued in two passes: each in a table of `near` is located and its read
/// prefetched; then the reads are made. Any other successor is tested for the end of the game
/// and else probed through the tablebase at once.
///
/// `recount` says when a successor lost for its mover settles the position, a win, so that the
/// turns left are not valued, and how values without a distance count ([`Recount`]).
///
/// `check_sole`: successors in tables of one result are located and read too, rather than
/// given that result by their subspace (see the module's doc).
fn recompute<D: Domain>(
    tb: &Tablebase<D>,
    near: Near<'_, D::Key>,
    pos: &<D::Game as Game>::Position,
    recount: Recount,
    check_sole: bool,
) -> Result<Option<Value>, ProbeError> {
    let game = tb.domain().game();
    if let Some(v) = terminal_value(game, pos) {
        return match v {
            Ok(v) => Ok(Some(v)),
            Err(ProbeError::CannotArise) => Ok(None),
            Err(e) => Err(e),
        };
    }
    let mut best: Option<Value> = None;
    let add = |best: &mut Option<Value>, v: Value| {
        let v = recount.counted(v).before();
        if best.is_none_or(|b| v.better_than(b)) {
            *best = Some(v);
        }
    };
    let settles = |best: Option<Value>| {
        recount.settle_win_within.is_some_and(|within| {
            best.is_some_and(|b| b.wdl == Wdl::Win && b.plies.unwrap_or(0) <= within)
        })
    };
    let batch = if recount.settle_win_within.is_some() {
        READS_TO_SETTLE
    } else {
        READS
    };
    let mut reads = Reads::new();
    let mut error = None;
    let mut settled = false;
    let mut memo = D::LocateMemo::default();
    game.for_each_move(pos, |mv| {
        if error.is_some() || settled {
            return;
        }
        // Played on a copy in place: a returned position is copied once more, and that copy
        // reads whole words the move has just written byte by byte (a store-forwarding stall).
        let mut next = *pos;
        game.play_in_place(&mut next, mv);
        // A successor in a table of one result has it: found by its subspace alone.
        if near.any_sole && !check_sole {
            let domain = tb.domain();
            let sole = domain
                .subspace_of(&next)
                .and_then(|key| near.tables[near.find(domain, key)?].sole);
            if let Some(wdl) = sole {
                add(&mut best, Value::wdl_only(wdl));
                settled = settles(best);
                return;
            }
        }
        // A successor in a table of `near` is valued by what that table stores, even where the
        // game is over there (verifying that table checks it holds the rules' value), so it
        // costs no end-of-game test. It is located once: its subspace and index come together.
        // A successor its table leaves out is searched through `near` (but read from unit
        // distances, which hold every position as the solver valued it); one no table of `near`
        // holds is tested for the end of the game and else probed through the tablebase.
        let in_near = tb
            .domain()
            .try_locate_near(&next, &mut memo)
            .and_then(|(key, index)| {
                let t = near.find(tb.domain(), key)?;
                let n = &near.tables[t];
                let left_out = n.distances.is_none()
                    && n.table.omitted().is_some()
                    && tb.domain().omits(&next);
                Some((t, index, left_out))
            });
        let located = match in_near {
            Some((t, _, true)) => search_near(tb, near, &next).map(|v| {
                // The solver reads such a position of a WDL-only table inflated to its result
                // (`inflate`), whatever distance the search finds.
                let result_only = recount.wdl_at_ends && !near.tables[t].table.has_distances();
                add(
                    &mut best,
                    if result_only {
                        Value::wdl_only(v.wdl)
                    } else {
                        v
                    },
                )
            }),
            Some((t, index, false)) => {
                near.tables[t].prefetch(index);
                reads.push((t, index));
                if reads.len() == batch {
                    read_all(near.tables, &mut reads, &mut |v| add(&mut best, v))
                } else {
                    Ok(())
                }
            }
            None => match terminal_value(game, &next) {
                Some(v) => v.map(|v| add(&mut best, v)),
                None => match outside_successor_keys(tb.domain(), near, &next) {
                    Some(other) => Err(ProbeError::Inconsistent(format!(
                        "a turn from {} leads into {other}, which its successor subspaces \
                         (Domain::successor_keys) leave out",
                        near.tables[0].key
                    ))),
                    None => tb.probe(&next).map(|v| add(&mut best, v)),
                },
            },
        };
        if let Err(e) = located {
            error = Some(e);
        }
        settled = settles(best);
    });
    if let Some(e) = error {
        return Err(e);
    }
    read_all(near.tables, &mut reads, &mut |v| add(&mut best, v))?;
    Ok(best)
}

/// The subspace of `next`, a successor of a position of the verified table that is not over,
/// where no table of `near` is that subspace's: the domain's successor subspaces of the
/// verified table left it out. Such a turn must not be valued as a turn out of the unit (read
/// through the tablebase): were the subspace in the verified table's unit, a cycle through it
/// would pass as a win or a loss, and the solver, which builds a unit from the same successor
/// subspaces, would have missed it too.
fn outside_successor_keys<D: Domain>(
    domain: &D,
    near: Near<'_, D::Key>,
    next: &<D::Game as Game>::Position,
) -> Option<D::Key> {
    domain
        .subspace_of(next)
        .filter(|&key| near.find(domain, key).is_none())
}

/// The value of `pos`, which its table (one of `near`) leaves out, as [`Tablebase::probe`]
/// gives it: the best of its successors' values, each read from `near` where a table there
/// stores it (searched in turn where it is left out too), and probed through the tablebase
/// otherwise. A read through the tablebase decodes the value's block of a compressed file;
/// `near` holds the tables such searches reach decoded, where room allowed.
fn search_near<D: Domain>(
    tb: &Tablebase<D>,
    near: Near<'_, D::Key>,
    pos: &Position<D>,
) -> Result<Value, ProbeError> {
    search_successors(tb.domain().game(), pos, |next| value_near(tb, near, next))
}

/// The value of `pos` as [`Tablebase::probe`] gives it, read from `near` where its table is
/// there.
fn value_near<D: Domain>(
    tb: &Tablebase<D>,
    near: Near<'_, D::Key>,
    pos: &Position<D>,
) -> Result<Value, ProbeError> {
    let domain = tb.domain();
    let Some((t, index)) = domain
        .locate(pos)
        .ok()
        .and_then(|(key, index)| Some((&near.tables[near.find(domain, key)?], index)))
    else {
        return tb.probe(pos);
    };
    if t.table.omitted().is_some() && domain.omits(pos) {
        return search_near(tb, near, pos);
    }
    if !t.table.has_distances() {
        // Such a table says "lost" where the rules say "lost now", as the probe reads it.
        if let Some(v) = terminal_value(domain.game(), pos) {
            return v;
        }
    }
    stored(t.value(index))
}

/// Makes the gathered reads, passing each value to `add`, and empties `reads`.
fn read_all<K>(
    near: &[NearTable<K>],
    reads: &mut Reads,
    add: &mut impl FnMut(Value),
) -> Result<(), ProbeError> {
    for (t, index) in reads.drain(..) {
        add(stored(near[t].value(index))?);
    }
    Ok(())
}

/// The tables a verification reads ([`near_tables`]) with where each is by its key.
struct Near<'a, K> {
    tables: &'a [NearTable<K>],
    index: &'a NearIndex,
    /// Whether some table holds one result throughout ([`NearTable::sole`]).
    any_sole: bool,
}

impl<K> Clone for Near<'_, K> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K> Copy for Near<'_, K> {}

impl<K: Copy + PartialEq> Near<'_, K> {
    /// The position in `tables` of the table of `key`.
    #[inline]
    fn find<D: Domain<Key = K>>(&self, domain: &D, key: K) -> Option<usize> {
        if self.index.slots.is_empty() {
            return self.tables.iter().position(|n| n.key == key);
        }
        match domain.key_slot(key).and_then(|s| self.index.slots.get(s)) {
            Some(&t) => (t != NearIndex::NONE).then_some(usize::from(t)),
            None => self.tables.iter().position(|n| n.key == key),
        }
    }
}

/// The position of each table of a verification's list by its key's slot
/// ([`Domain::key_slot`]); empty for a short list or where the domain has no slots (the list
/// is searched then). Searching a list of some fifty tables for every successor's table took
/// a quarter of a verification; a short one is searched faster than a key's slot is worked out.
struct NearIndex {
    slots: Vec<u16>,
}

impl NearIndex {
    const NONE: u16 = u16::MAX;
    /// The longest list searched rather than indexed.
    const SEARCHED: usize = 8;

    fn new<D: Domain>(domain: &D, near: &[NearTable<D::Key>]) -> Self {
        if near.len() <= Self::SEARCHED || near.len() >= usize::from(Self::NONE) {
            return NearIndex { slots: Vec::new() };
        }
        let mut slots = vec![Self::NONE; domain.key_slots()];
        for (t, n) in near.iter().enumerate() {
            if let Some(slot) = domain.key_slot(n.key).and_then(|s| slots.get_mut(s)) {
                *slot = t as u16;
            }
        }
        NearIndex { slots }
    }
}

/// A table a verification reads: the verified one or one its successors lie in, with its
/// stored values decoded into memory when it is compressed and room allows. A read of a
/// compressed table decodes its block from the start up to the value (hundreds of values),
/// and a verification reads every value of its table and some ten successors' for each: on
/// compressed checkers tables those reads took three fifths of the time.
struct NearTable<K> {
    key: K,
    table: Arc<Table>,
    /// Every stored byte in index order ([`Table::stored_values`]), when decoded.
    decoded: Option<Vec<u8>>,
    /// The one result every position of a results table (no distances) that stores all its
    /// positions holds, where it holds one, as its stored values show: a successor there
    /// has that value wherever it lies in the table, so it is not located.
    sole: Option<Wdl>,
    /// The table's unit distances, read in place of its stored values where present
    /// ([`verify_with_unit_distances`]).
    distances: Option<Table>,
    /// The unit distances a byte does not hold, by index (module `long_distances`): read
    /// where the byte is the code of one.
    long: HashMap<u64, u32>,
}

impl<K> NearTable<K> {
    fn new(key: K, table: Arc<Table>) -> Self {
        NearTable {
            key,
            table,
            decoded: None,
            sole: None,
            distances: None,
            long: HashMap::new(),
        }
    }

    /// The stored values, when decoded.
    fn decoded(&self) -> Option<&[u8]> {
        self.decoded.as_deref()
    }

    /// The value at `index`: from the unit distances where the table has them, else its
    /// stored value ([`NearTable::result`]).
    #[inline]
    fn value(&self, index: u64) -> Result<Option<Value>, DbError> {
        match &self.distances {
            Some(distances) => {
                let value = distances.value(index)?;
                if self.long.is_empty() {
                    return Ok(value);
                }
                Ok(match value {
                    Some(Value { plies: Some(p), .. }) if may_stand_for_long(p) => self
                        .long
                        .get(&index)
                        .map_or(value, |&plies| Some(Value::decided(plies))),
                    _ => value,
                })
            }
            None => self.result(index),
        }
    }

    /// The value the table itself stores at `index`, as [`Table::value`] reads it.
    #[inline]
    fn result(&self, index: u64) -> Result<Option<Value>, DbError> {
        let byte = self
            .decoded
            .as_ref()
            .and_then(|bytes| bytes.get(usize::try_from(index).ok()?));
        match byte {
            Some(&byte) => Ok(stored_value(&self.table, byte)),
            // Not decoded, or past the end (the table says so).
            None => self.table.value(index),
        }
    }

    /// Starts fetching the value at `index`.
    #[inline]
    fn prefetch(&self, index: u64) {
        if let Some(distances) = &self.distances {
            distances.prefetch(index);
            return;
        }
        match self.decoded.as_ref() {
            Some(bytes) => {
                if let Some(byte) = usize::try_from(index).ok().and_then(|i| bytes.get(i)) {
                    crate::prefetch::prefetch(byte);
                }
            }
            None => self.table.prefetch(index),
        }
    }
}

/// The tables the verification of `key` reads: its own first, then those its successors lie
/// in, looked up once rather than through the tablebase's shared map at every read. Where
/// those tables leave positions out, the tables those positions' successors lie in follow
/// (those present): the searches of left-out successors read them.
fn near_tables<D: Domain>(
    tb: &Tablebase<D>,
    key: D::Key,
) -> Result<Vec<NearTable<D::Key>>, ProbeError> {
    let mut near = vec![NearTable::new(key, tb.table(key)?)];
    for next in tb.domain().successor_keys(key) {
        if next != key {
            near.push(NearTable::new(next, tb.table(next)?));
        }
    }
    let successors = near.len();
    for s in 1..successors {
        if near[s].table.omitted().is_none() {
            continue;
        }
        for next in tb.domain().successor_keys(near[s].key) {
            if near.iter().all(|n| n.key != next) {
                // A missing one is reported by the probe that needs it, if any does.
                if let Ok(table) = tb.table(next) {
                    near.push(NearTable::new(next, table));
                }
            }
        }
    }
    Ok(near)
}

/// Opens the unit distances of every WDL-only table of `near` in the verified table's unit (the
/// first of `near`): those its quiet turns lead to and back. Tables of one result among them
/// are then not valued by their subspace alone: their distances differ. A table with
/// distances is its own proof and needs none. Each is copied into memory on huge pages while
/// `budget` bytes allow (random reads through the page cache's small pages miss the TLB), else
/// read in place; returns the budget left.
fn attach_unit_distances<D: Domain>(
    tb: &Tablebase<D>,
    near: &mut [NearTable<D::Key>],
    mut budget: u64,
) -> Result<u64, ProbeError> {
    let domain = tb.domain();
    let unit = crate::plan::plan(domain, &[near[0].key])
        .pop()
        .unwrap_or_default();
    for n in near
        .iter_mut()
        .filter(|n| unit.contains(&n.key) && !n.table.has_distances())
    {
        let name = crate::format::unit_distance_file_name(&n.key.to_string());
        let path = n.table.path().with_file_name(name);
        if !path.exists() {
            return Err(ProbeError::Db(DbError::io(
                &path,
                std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "no unit-distance file beside the WDL-only table: delete the unit's tables \
                     and build it again with unit distances (`solve --wdl-only \
                     --unit-distances`; Python `build(..., wdl_only=True, \
                     unit_distances=True)`) to verify with them (a build keeps tables already \
                     there)",
                ),
            )));
        }
        let mut expected = tb.expected(n.key);
        expected.index_scheme = crate::format::unit_distance_scheme(&expected.index_scheme);
        let distances = Table::open(&path, Some(&expected))?;
        if !distances.has_distances() || distances.layout().is_some() {
            return Err(ProbeError::Db(DbError::corrupted(
                &path,
                "a unit-distance file must hold uncompressed distances",
            )));
        }
        let long_path = crate::long_distances::long_distance_path(&path);
        if long_path.exists() {
            let payload = distances.payload();
            n.long = crate::long_distances::read_long_distances(
                &long_path,
                distances.positions(),
                distances.header().payload_checksum,
                |index| {
                    usize::try_from(index)
                        .ok()
                        .and_then(|i| payload.get(i).copied())
                        .ok_or_else(|| DbError::corrupted(&long_path, "index past the payload"))
                },
            )?;
        }
        n.distances = Some(if distances.positions() <= budget {
            budget -= distances.positions();
            distances.resident_copy()?
        } else {
            distances
        });
    }
    Ok(budget)
}

/// The most bytes of decoded tables one table's verification keeps: half the memory the
/// system has available when it starts (4 GiB where the system does not say).
fn decode_budget() -> u64 {
    crate::limits::available_memory().map_or(4 << 30, |bytes| bytes / 2)
}

/// Decodes the compressed tables of `near` whose values fit in `budget` bytes in all, the
/// verified table (the first) first, then the others in order, in parallel; plain tables are
/// read in place. Then notes which tables hold one result ([`NearTable::sole`]).
fn decode_near<K: Send>(near: &mut [NearTable<K>], budget: u64) -> Result<(), DbError> {
    let mut left = budget;
    // A table read through its unit distances is decoded only where it is the verified one
    // (the first), whose stored results are compared with them.
    let chosen: Vec<bool> = near
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let bytes = n.table.positions();
            let take =
                n.table.layout().is_some() && bytes <= left && (i == 0 || n.distances.is_none());
            if take {
                left -= bytes;
            }
            take
        })
        .collect();
    near.par_iter_mut()
        .zip(chosen)
        .filter(|(_, take)| *take)
        .try_for_each(|(n, _)| {
            n.decoded = Some(n.table.stored_values()?);
            Ok(())
        })?;
    for n in near.iter_mut() {
        n.sole = sole_result(n);
    }
    Ok(())
}

/// The one result the stored values of `n` hold, where its table stores results only, leaves
/// no position out, and holds one ([`NearTable::sole`]).
fn sole_result<K>(n: &NearTable<K>) -> Option<Wdl> {
    if n.table.has_distances() || n.table.omitted().is_some() || n.distances.is_some() {
        return None;
    }
    let Some(codes) = &n.decoded else {
        return n.table.sole_result();
    };
    crate::format::sole_wdl_code_of_bytes(codes)
        .and_then(crate::value::wdl_from_code)
        .map(|v| v.wdl)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use perfectplay_core::checkers::Checkers;

    use super::*;
    use crate::checkers::CheckersDomain;
    use crate::retro::tests::six_mens_morris_with_memories;
    use crate::{compress_table, solve, SolveOptions};

    fn checkers() -> CheckersDomain {
        CheckersDomain::new(Checkers::default())
    }

    /// Six Men's Morris with its memories, WDL-only, up to the unit of 3-6 (whose three-man
    /// side's captures lead to 5-3's tables, all won for the side to move), built into `dir`.
    fn six_mens_morris_to_3_6(dir: &Path) -> Tablebase<crate::morris::MorrisDomain> {
        let options = SolveOptions {
            wdl_only: true,
            ..SolveOptions::default()
        };
        let target = crate::morris::MorrisKey::moving(3, 6);
        solve(six_mens_morris_with_memories(), dir, &[target], &options).unwrap();
        Tablebase::open(six_mens_morris_with_memories(), dir).unwrap()
    }

    /// A successor in a table of one result is valued by its subspace: a plain table read in
    /// place and a compressed one decoded are found to hold one result (a compressed one read
    /// in place is not scanned); both sets pass, and a loss of 3-6 (all lost) stored as a win
    /// is found: 3-6's successors lie in 5-3's and 6-3's tables, all won for the side to move.
    #[test]
    fn successors_in_tables_of_one_result_are_valued_by_their_subspace() {
        let dir = tempfile::tempdir().unwrap();
        let packed = tempfile::tempdir().unwrap();
        let tb = six_mens_morris_to_3_6(dir.path());
        for (key, path) in tb.available() {
            let table = Table::open(&path, Some(&tb.expected(key))).unwrap();
            compress_table(tb.domain(), key, &table, packed.path(), false).unwrap();
        }
        let compressed = Tablebase::open(six_mens_morris_with_memories(), packed.path()).unwrap();
        let key = crate::morris::MorrisKey::moving(3, 6);
        let sole_of = |tb: &Tablebase<crate::morris::MorrisDomain>, budget: u64| {
            let mut near = near_tables(tb, key).unwrap();
            decode_near(&mut near, budget).unwrap();
            let decoded = near.iter().all(|n| n.decoded.is_some());
            let sole: Vec<(String, Option<Wdl>)> =
                near.iter().map(|n| (n.key.to_string(), n.sole)).collect();
            (decoded, sole)
        };
        let won = |name: &str| (name.to_string(), Some(Wdl::Win));
        for (set, budget, decoded, sole) in [
            (&tb, u64::MAX, false, true),
            (&compressed, u64::MAX, true, true),
            (&compressed, 0, false, false),
        ] {
            let (all_decoded, found) = sole_of(set, budget);
            assert_eq!(all_decoded, decoded, "{found:?}");
            for name in ["5-3", "5-3-bo"] {
                assert_eq!(found.contains(&won(name)), sole, "{decoded}: {found:?}");
            }
            assert!(verify(set, None, None, &|_, _| {}).unwrap().passed());
        }
        drop(tb);

        // The first value of the first byte of 3-6 that starts with a loss stored as a win
        // (1), the checksum made to match.
        let path = dir.path().join("3-6.ppdb");
        let table = Table::open(&path, None).unwrap();
        assert_eq!(table.sole_result(), Some(Wdl::Loss));
        let mut header = table.header().clone();
        let mut payload = table.payload().to_vec();
        drop(table);
        let first = payload.iter().position(|&b| b & 3 == 2).unwrap();
        payload[first] = (payload[first] & !3) | 1;
        header.payload_checksum = xxhash_rust::xxh3::xxh3_64(&payload);
        crate::format::write_table(dir.path(), &header, &payload).unwrap();

        let tb = six_mens_morris_to_3_6(dir.path());
        let check = verify(&tb, Some(&[key]), None, &|_, _| {}).unwrap();
        assert_eq!(check.tables[0].mismatches, 1, "{:?}", check.tables);
        let example = check.tables[0].example.as_deref().unwrap();
        let index = first * 4;
        assert!(
            example.starts_with(&format!("index {index}: stored win")),
            "{example}"
        );
    }

    /// One position in 64 (`checks_sole`) locates its successors in tables of one result: a
    /// successor of such a position of 3-6 in a table all won (5-3's or 6-3's), stored there
    /// as "cannot arise" (the table still holds one result: such a code is none), fails the
    /// verification of 3-6, which valued every such successor by its subspace alone before.
    #[test]
    fn successors_in_tables_of_one_result_are_located_for_a_sample_of_positions() {
        let dir = tempfile::tempdir().unwrap();
        let tb = six_mens_morris_to_3_6(dir.path());
        let key = crate::morris::MorrisKey::moving(3, 6);
        assert!(verify(&tb, Some(&[key]), None, &|_, _| {})
            .unwrap()
            .passed());
        let domain = tb.domain();
        let sole = |k| tb.table(k).unwrap().sole_result().is_some();
        // The first sampled position of 3-6 with a successor in a table of one result.
        let (sampled, _, (table_key, index)) =
            first_with_successor(domain, key, checks_sole, |next| {
                domain.locate(next).ok().filter(|&(k, _)| sole(k))
            })
            .expect("a sampled position of 3-6 with a successor in a table of one result");
        drop(tb);

        let path = dir.path().join(format!("{table_key}.ppdb"));
        let table = Table::open(&path, None).unwrap();
        let mut header = table.header().clone();
        let mut payload = table.payload().to_vec();
        drop(table);
        let byte = usize::try_from(index / 4).unwrap();
        payload[byte] |= 3 << (2 * (index % 4));
        header.payload_checksum = xxhash_rust::xxh3::xxh3_64(&payload);
        crate::format::write_table(dir.path(), &header, &payload).unwrap();

        let tb = six_mens_morris_to_3_6(dir.path());
        assert!(
            tb.table(table_key).unwrap().sole_result().is_some(),
            "{table_key} no longer holds one result"
        );
        let failed = verify(&tb, Some(&[key]), None, &|_, _| {});
        let error = failed.expect_err(&format!(
            "3-6 passed with its position {sampled}'s successor at {table_key} index {index} \
             stored as cannot arise"
        ));
        assert!(error.to_string().contains("cannot arise"), "{error}");
    }

    /// The positions that check successors in tables of one result are one in 64, spread over
    /// the index rather than on one residue.
    #[test]
    fn one_position_in_64_checks_its_successors_in_tables_of_one_result() {
        let n = 1u64 << 20;
        let chosen = (0..n).filter(|&i| checks_sole(i)).count() as u64;
        assert!(
            (n / 64 * 9 / 10..n / 64 * 11 / 10).contains(&chosen),
            "{chosen}"
        );
        for residue in 0..64 {
            let of_residue = (residue..n).step_by(64).filter(|&i| checks_sole(i)).count();
            assert!(of_residue > 0, "no index = {residue} mod 64 is chosen");
        }
    }

    /// A successor in a subspace no table the verification reads holds (one the domain's
    /// successor subspaces left out) is an inconsistency: it was read through the tablebase as
    /// a turn out of the unit, which would let a cycle through that subspace pass.
    #[test]
    fn a_successor_outside_the_successor_subspaces_is_an_inconsistency() {
        let dir = tempfile::tempdir().unwrap();
        let tb = six_mens_morris_to_3_6(dir.path());
        let key = crate::morris::MorrisKey::moving(3, 6);
        let domain = tb.domain();
        // A position of 3-6 with a turn into another subspace that does not end the game.
        let (_, pos, other) = first_with_successor(
            domain,
            key,
            |_| true,
            |next| {
                crate::tablebase::terminal_value(domain.game(), next)
                    .is_none()
                    .then(|| domain.subspace_of(next).filter(|&k| k != key))
                    .flatten()
            },
        )
        .expect("a position of 3-6 with a turn into another subspace");
        let mut tables = near_tables(&tb, key).unwrap();
        let recount = Recount::of(None, false);
        let near_of = |tables: &[NearTable<crate::morris::MorrisKey>], index: &NearIndex| {
            recompute(
                &tb,
                Near {
                    tables,
                    index,
                    any_sole: false,
                },
                &pos,
                recount,
                false,
            )
        };
        let index = NearIndex::new(domain, &tables);
        assert!(near_of(&tables, &index).unwrap().is_some());
        tables.retain(|n| n.key != other);
        let index = NearIndex::new(domain, &tables);
        match near_of(&tables, &index) {
            Err(e @ ProbeError::Inconsistent(_)) => {
                assert!(e.to_string().contains(&format!("into {other}")), "{e}")
            }
            other => panic!("{other:?}"),
        }
    }

    /// The first position of `key` (its index chosen by `at`, not a hole) with a successor that
    /// `pick` finds something in: the index, the position and what was found.
    fn first_with_successor<T>(
        domain: &crate::morris::MorrisDomain,
        key: crate::morris::MorrisKey,
        at: impl Fn(u64) -> bool,
        pick: impl Fn(&perfectplay_core::morris::MorrisPosition) -> Option<T>,
    ) -> Option<(u64, perfectplay_core::morris::MorrisPosition, T)> {
        let game = domain.game();
        (0..domain.size(key)).filter(|&i| at(i)).find_map(|i| {
            let pos = domain.unrank(key, i);
            if domain.is_hole(key, i, &pos) {
                return None;
            }
            let mut found = None;
            game.for_each_move(&pos, |mv| {
                if found.is_none() {
                    found = pick(&game.play(&pos, mv));
                }
            });
            found.map(|f| (i, pos, f))
        })
    }

    /// Checkers with 2 and 3 pieces, built in `plain` and compressed with distances in `packed`.
    fn compressed_set(plain: &Path, packed: &Path) {
        let d = checkers();
        solve(
            checkers(),
            plain,
            &d.keys_up_to(3),
            &SolveOptions::default(),
        )
        .unwrap();
        let tb = Tablebase::open(checkers(), plain).unwrap();
        for (key, path) in tb.available() {
            let table = Table::open(&path, Some(&tb.expected(key))).unwrap();
            compress_table(tb.domain(), key, &table, packed, true).unwrap();
        }
    }

    #[test]
    fn the_budget_chooses_which_compressed_tables_are_decoded() {
        let (plain, packed) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        compressed_set(plain.path(), packed.path());
        let tb = Tablebase::open(checkers(), packed.path()).unwrap();
        let plain_tb = Tablebase::open(checkers(), plain.path()).unwrap();
        let near_of = |tb: &Tablebase<CheckersDomain>, key| near_tables(tb, key).unwrap();
        // The table whose successors lie in the most others.
        let (key, _) = tb
            .available()
            .into_iter()
            .max_by_key(|&(k, _)| near_of(&tb, k).len())
            .unwrap();
        let near = |tb: &Tablebase<CheckersDomain>| near_of(tb, key);
        let decoded =
            |n: &[NearTable<_>]| n.iter().map(|t| t.decoded.is_some()).collect::<Vec<_>>();

        let mut none = near(&tb);
        assert!(none.len() > 2, "a table with exits: {}", none.len());
        decode_near(&mut none, 0).unwrap();
        assert!(decoded(&none).iter().all(|&d| !d));

        // Room for the verified table alone: it is decoded, the others are read in place.
        let mut first = near(&tb);
        let room = first[0].table.positions();
        decode_near(&mut first, room).unwrap();
        assert!(decoded(&first)[0], "the verified table is decoded");
        assert!(
            decoded(&first)[1..].iter().all(|&d| !d),
            "{:?}",
            decoded(&first)
        );

        let mut all = near(&tb);
        decode_near(&mut all, u64::MAX).unwrap();
        assert!(decoded(&all).iter().all(|&d| d));
        for n in &all {
            for index in 0..n.table.positions() {
                assert_eq!(n.value(index).unwrap(), n.table.value(index).unwrap());
            }
            let past = n.table.positions();
            assert!(n.value(past).is_err(), "an index past the end is an error");
        }

        // Plain tables are read in place whatever the budget.
        let mut plain_near = near(&plain_tb);
        decode_near(&mut plain_near, u64::MAX).unwrap();
        assert!(decoded(&plain_near).iter().all(|&d| !d));
    }

    #[test]
    fn searches_through_near_tables_value_left_out_positions_as_probes_do() {
        let (plain, packed) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        compressed_set(plain.path(), packed.path());
        let tb = Tablebase::open(checkers(), packed.path()).unwrap();
        let plain_tb = Tablebase::open(checkers(), plain.path()).unwrap();
        let mut searched = 0;
        for (key, _) in tb.available() {
            // The tables the searches reach follow those the successors lie in.
            let successors = 1 + tb
                .domain()
                .successor_keys(key)
                .into_iter()
                .filter(|&k| k != key)
                .count();
            let plain_near = near_tables(&plain_tb, key).unwrap();
            assert_eq!(
                plain_near.len(),
                successors,
                "{key}: plain tables omit nothing"
            );
            let mut in_place = near_tables(&tb, key).unwrap();
            let mut decoded = near_tables(&tb, key).unwrap();
            assert!(decoded.len() >= successors);
            decode_near(&mut in_place, 0).unwrap();
            decode_near(&mut decoded, u64::MAX).unwrap();
            let positions = tb.domain().size(key);
            tb.domain()
                .for_each_position(key, 0..positions, |index, pos| {
                    if tb.domain().is_hole(key, index, pos) || !tb.domain().omits(pos) {
                        return;
                    }
                    let probed = tb.probe(pos).unwrap();
                    assert_eq!(plain_tb.probe(pos).unwrap(), probed, "{key} {index}");
                    for tables in [&in_place, &decoded] {
                        let slots = NearIndex::new(tb.domain(), tables);
                        let near = Near {
                            tables,
                            index: &slots,
                            any_sole: tables.iter().any(|n| n.sole.is_some()),
                        };
                        // The index finds every table of the list, and no other.
                        for (t, n) in tables.iter().enumerate() {
                            assert_eq!(near.find(tb.domain(), n.key), Some(t));
                        }
                        assert_eq!(near.find(tb.domain(), "0000-00".parse().unwrap()), None);
                        assert_eq!(
                            search_near(&tb, near, pos).unwrap(),
                            probed,
                            "{key} {index}"
                        );
                    }
                    searched += 1;
                });
        }
        assert!(searched > 1000, "positions left out: {searched}");
    }
}
