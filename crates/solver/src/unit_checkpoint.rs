//! A unit's solving state saved now and then beside its tables (`KEY.ppck`, after the unit's
//! first subspace), so that a build stopped in the middle of a long unit (a killed process, a
//! machine handed back, a cancelled build) goes on from the last save instead of the unit's
//! start. The largest units run for hours: Twelve Men's Morris's 8-9 + 9-8 with its memories is
//! 7 billion positions.
//!
//! # When
//!
//! The solver saves at the points where its state is whole and the same whatever the thread
//! schedule: after a segment of the first pass (the chunks before it are initialised, the rest
//! not begun) and after a layer (every value of that distance written). It saves there once
//! [`Checkpoints::every`] has passed since the unit started, was resumed or was last saved; a
//! unit that finishes sooner never writes one. The layers read nothing but the cells and the
//! exits, so a resumed unit writes the same tables, byte for byte, as one solved in one go.
//!
//! A unit that is stopped (a cancel: the command line's SIGINT or SIGTERM, Python's Ctrl-C)
//! saves at once, wherever it is, unless it was told never to save: a pass stops between
//! chunks, every chunk of it run to its end or not begun, so its state is whole too once the
//! chunks done are written down ([`DoneChunks`]). Taken up, the pass runs the others. A layer's
//! positions are those holding its distance, which the layer itself never writes, so the
//! chunks still to run find the same positions they would have found in one go, and each
//! predecessor is counted down once per successor whichever chunk unmoves it. A pass cut short
//! by an error is never saved.
//!
//! # What must match
//!
//! Game, rules, index scheme, the unit's subspaces and their sizes, and each exit table's
//! subspace, encoding, size and payload checksum: cells computed from other exits would give
//! other tables. A checkpoint that does not match, or is damaged, truncated or from another
//! format version, is refused with the reason ([`crate::SolveError::UnitCheckpoint`]); deleting
//! it solves the unit from its start. The checkpoint is removed once the unit's tables are
//! written, and when a later build finds those tables complete.
//!
//! # The file
//!
//! ```text
//! offset 0    8 bytes   magic "PPUNITCK"
//!        8    u32 LE    format version (VERSION)
//!        12   u32 LE    header length H
//!        16   H bytes   header, bincode (standard configuration): the unit's identity, how
//!                       far it got (stage, longest distance, positions per distance), the
//!                       number of cells and of their bytes
//!        16+H u64 LE    xxh3-64 of the header bytes
//!        ...  zeros up to the next multiple of 64
//!        P    cells     four 16-bit cells to a little-endian u64 word (module `cells`)
//!        ...  u64 LE    xxh3-64 of the cells' bytes
//! ```
//!
//! It is written under a temporary name and renamed once complete and synced, so a checkpoint
//! with the final name is whole. It takes 2 bytes a position; while a save replaces the last one
//! both are on disk.

use std::fs;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::Xxh3;

use crate::cells::Cells;
use crate::domain::Domain;
use crate::error::DbError;
use crate::format::{
    framed_prefix, mismatch, read_exact_of, read_failure, read_framed, write_streamed, Encoding,
    FramedKind, Header,
};
use crate::retro::CHUNK;
use crate::table::Table;
use crate::tablebase::expected_for;
use crate::value::MAX_DISTANCE;

/// The extension of unit checkpoints.
pub const CHECKPOINT_EXTENSION: &str = "ppck";
const MAGIC: [u8; 8] = *b"PPUNITCK";
/// 2: the stage names the chunks of its pass that are done (a unit stopped in a pass).
/// 3: the stage may say the counters are stale ([`Stage::Stale`], appended to the stages of
/// version 2, which version 3 reads as they are); a program that reads version 2 only refuses
/// such a checkpoint by its version rather than misreading it.
const VERSION: u32 = 3;
const KIND: FramedKind = FramedKind {
    magic: MAGIC,
    version: VERSION,
    oldest: 2,
    name: "a perfectplay unit checkpoint",
    version_name: "unit checkpoint format version",
};

/// Chunks of the first pass between two points where a checkpoint may be saved: 16 M positions
/// with the solver's chunks of 16 K, some seconds of work.
pub(crate) const SEGMENT_CHUNKS: u64 = 1 << 10;

/// What a unit's cells were computed from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct UnitIdentity {
    /// The solver's method ([`crate::retro::METHOD`]): cells saved by a solver that computes
    /// them otherwise would give tables of neither.
    pub(crate) method: String,
    pub(crate) game_id: String,
    pub(crate) rules: String,
    pub(crate) index_scheme: String,
    /// The unit's subspaces in its order, with their sizes.
    pub(crate) subspaces: Vec<(String, u64)>,
    /// The tables its exits read, in the solver's order.
    pub(crate) exits: Vec<ExitIdentity>,
}

impl UnitIdentity {
    /// What `unit`'s cells are computed from: the rules, its subspaces and the tables its
    /// exits read (sorted by key, the solver's order).
    pub(crate) fn of<D: Domain>(
        domain: &D,
        unit: &[D::Key],
        exits: &[(D::Key, Arc<Table>)],
    ) -> UnitIdentity {
        let expected = expected_for(domain, unit[0]);
        let mut exits: Vec<&(D::Key, Arc<Table>)> = exits.iter().collect();
        exits.sort_by_key(|(k, _)| *k);
        UnitIdentity {
            method: crate::retro::METHOD.to_owned(),
            game_id: expected.game_id,
            rules: expected.rules,
            index_scheme: expected.index_scheme,
            subspaces: unit
                .iter()
                .map(|&k| (k.to_string(), domain.size(k)))
                .collect(),
            exits: exits
                .iter()
                .map(|(_, t)| ExitIdentity::of(t.header()))
                .collect(),
        }
    }
}

/// One table a unit's exits read, as far as its values go.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ExitIdentity {
    subspace: String,
    encoding: Encoding,
    positions: u64,
    payload_checksum: u64,
}

impl ExitIdentity {
    /// The identity of the table with `header` (of its plain form, as the solver reads it).
    pub(crate) fn of(header: &Header) -> ExitIdentity {
        ExitIdentity {
            subspace: header.subspace.clone(),
            encoding: header.encoding,
            positions: header.positions,
            payload_checksum: header.payload_checksum,
        }
    }
}

impl std::fmt::Display for ExitIdentity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ({:?}, {} positions, payload xxh3 {:016x})",
            self.subspace, self.encoding, self.positions, self.payload_checksum
        )
    }
}

/// Chunks of a pass that are done, by number: sorted, disjoint, non-empty ranges.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct DoneChunks(Vec<std::ops::Range<u64>>);

impl DoneChunks {
    /// The chunks `0..n`, made at once: the tests ask for far more chunks than a loop over
    /// them could count.
    #[cfg(test)]
    pub(crate) fn first(n: u64) -> DoneChunks {
        DoneChunks((n > 0).then_some(0..n).into_iter().collect())
    }

    /// The chunks for which `done` says so, of `0..chunks`.
    pub(crate) fn from_flags(chunks: u64, done: impl Fn(u64) -> bool) -> DoneChunks {
        let mut ranges: Vec<std::ops::Range<u64>> = Vec::new();
        for c in (0..chunks).filter(|&c| done(c)) {
            match ranges.last_mut() {
                Some(last) if last.end == c => last.end = c + 1,
                _ => ranges.push(c..c + 1),
            }
        }
        DoneChunks(ranges)
    }

    /// The chunk numbers, in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.0.iter().flat_map(Clone::clone)
    }

    /// Whether no chunk is done.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Whether the ranges are sorted, disjoint, non-empty and within `0..chunks`.
    fn is_plausible(&self, chunks: u64) -> bool {
        self.0.iter().all(|r| r.start < r.end && r.end <= chunks)
            && self.0.windows(2).all(|w| w[0].end < w[1].start)
    }
}

/// Where a unit's solving stands at a save.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Stage {
    /// In the first pass: the chunks in `done` are initialised, the others not begun (after a
    /// segment, the chunks before its end).
    Initialising { done: DoneChunks },
    /// The first pass is done, every layer before `next`, and of layer `next` the chunks in
    /// `done` (none after a layer).
    Layers { next: u32, done: DoneChunks },
    /// As `Layers`, with the counters of the positions still counting stale: odd layers before
    /// `next` were looked at forward (module `retro::odd_forward`) and no recount has been made
    /// since. `pass` says what the chunks in `done` did in odd layer `next`: looked forward,
    /// or recounted before the layer is unmoved; `None` for an even layer and after a layer.
    Stale {
        next: u32,
        done: DoneChunks,
        pass: Option<StalePass>,
    },
}

/// What the chunks done of an odd layer with stale counters did ([`Stage::Stale`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum StalePass {
    /// Looked forward from their counting positions.
    Forward,
    /// Recounted their counting positions' counters, before the layer is unmoved.
    Recount,
}

/// A unit's state beside its cells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Progress {
    pub(crate) stage: Stage,
    /// The longest distance written so far.
    pub(crate) max_plies: u32,
    /// Positions written at each distance so far.
    pub(crate) layer_counts: Vec<u64>,
}

impl Progress {
    /// Whether a solver can go on from here: the longest distance within the encoding, no
    /// count beyond it, the next layer at most one past it (and one with positions where part
    /// of it is done), and the chunks done among those a unit of `cells` positions has.
    fn is_plausible(&self, cells: u64) -> bool {
        let max = self.max_plies as usize;
        let chunks = cells.div_ceil(CHUNK);
        self.max_plies <= MAX_DISTANCE
            && self.layer_counts.len() == MAX_DISTANCE as usize + 2
            && self.layer_counts[max + 1..].iter().all(|&n| n == 0)
            && match &self.stage {
                Stage::Initialising { done } => done.is_plausible(chunks),
                Stage::Layers { next, done }
                | Stage::Stale {
                    next,
                    done,
                    pass: None,
                } => self.layer_is_plausible(*next, done, chunks),
                // Only odd layers look forward, or recount.
                Stage::Stale {
                    next,
                    done,
                    pass: Some(_),
                } => next % 2 == 1 && self.layer_is_plausible(*next, done, chunks),
            }
    }

    /// Whether layer `next` with the chunks in `done` is one a solver can take up: at most one
    /// past the longest distance, and one with positions where part of it is done.
    fn layer_is_plausible(&self, next: u32, done: &DoneChunks, chunks: u64) -> bool {
        next <= self.max_plies + 1
            && done.is_plausible(chunks)
            && (done.is_empty() || self.layer_counts[next as usize] > 0)
    }
}

#[derive(Serialize, Deserialize)]
struct FileHeader {
    unit: UnitIdentity,
    progress: Progress,
    cells: u64,
    cell_bytes: u64,
}

/// The checkpoints of one unit: where, how often, and of what.
pub(crate) struct Checkpoints {
    path: PathBuf,
    identity: UnitIdentity,
    every: Duration,
    last: Instant,
    /// Chunks of the first pass between two chances to save.
    pub(crate) segment_chunks: u64,
    saves: u32,
    resumed: Option<Stage>,
    /// Why the last save that failed did: the unit solves on, and tries again at the next
    /// interval (a disk that was full may have room again).
    failure: Option<String>,
}

impl Checkpoints {
    /// The checkpoint of the unit whose first subspace is `first`, in `dir`.
    pub(crate) fn path_in(dir: &Path, first: &str) -> PathBuf {
        dir.join(format!("{first}.{CHECKPOINT_EXTENSION}"))
    }

    /// Checkpoints at `path` of the unit `identity`, saved once `every` has passed and when the
    /// unit is stopped; with `every` [`Duration::MAX`], never saved (one there is taken up).
    pub(crate) fn new(path: PathBuf, identity: UnitIdentity, every: Duration) -> Checkpoints {
        Checkpoints {
            path,
            identity,
            every,
            last: Instant::now(),
            segment_chunks: SEGMENT_CHUNKS,
            saves: 0,
            resumed: None,
            failure: None,
        }
    }

    /// How many saves this run made.
    pub(crate) fn saves(&self) -> u32 {
        self.saves
    }

    /// Where this run took the unit up, if it resumed from a checkpoint.
    pub(crate) fn resumed(&self) -> Option<&Stage> {
        self.resumed.as_ref()
    }

    /// Why the last save that failed in this run did, if one did.
    pub(crate) fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// Whether the time has come to save.
    pub(crate) fn due(&self) -> bool {
        self.last.elapsed() >= self.every
    }

    /// Whether a unit that is stopped saves: unless it was told never to save
    /// ([`Duration::MAX`]: a checkpoint already there is only taken up).
    pub(crate) fn saves_when_stopped(&self) -> bool {
        self.every != Duration::MAX
    }

    /// Saves as [`Checkpoints::save`] does, but a save that fails (a full disk) is only noted,
    /// and tried again an interval later, while the unit solves on: the last whole checkpoint,
    /// if any, stays. Returns whether it saved.
    pub(crate) fn save_or_note(&mut self, progress: &Progress, cells: &Cells) -> bool {
        match self.save(progress, cells) {
            Ok(()) => true,
            Err(e) => {
                self.failure = Some(e.to_string());
                self.last = Instant::now();
                false
            }
        }
    }

    /// Saves `progress` and `cells`, replacing the last checkpoint once the new one is whole.
    /// Nobody may write the cells meanwhile.
    pub(crate) fn save(&mut self, progress: &Progress, cells: &Cells) -> Result<(), DbError> {
        let header = FileHeader {
            unit: self.identity.clone(),
            progress: progress.clone(),
            cells: cells.len(),
            cell_bytes: cells.saved_len(),
        };
        let encoded = bincode::serde::encode_to_vec(&header, bincode::config::standard())
            .map_err(|e| DbError::corrupted(&self.path, format!("cannot encode header: {e}")))?;
        let prefix = framed_prefix(&MAGIC, VERSION, &encoded);
        write_streamed(&self.path, |out| {
            out.write_all(&prefix)?;
            let mut hash = Xxh3::new();
            cells.save(out, &mut hash)?;
            out.write_all(&hash.digest().to_le_bytes())
        })?;
        self.saves += 1;
        self.last = Instant::now();
        Ok(())
    }

    /// Reads the checkpoint into `cells` (fresh, of the unit's size) and returns how far it
    /// got; `None` if there is none. On an error `cells` hold part of the file.
    pub(crate) fn load(&mut self, cells: &Cells) -> Result<Option<Progress>, DbError> {
        let path = &self.path;
        if matches!(path.symlink_metadata(), Err(e) if e.kind() == std::io::ErrorKind::NotFound) {
            return Ok(None);
        }
        // A regular file only: a FIFO in its place would wait for a writer forever.
        let (file, meta) = crate::table::open_table_file(path)?;
        let len = meta.len();
        let mut reader = BufReader::with_capacity(1 << 20, file);
        let (header, offset): (FileHeader, u64) = read_framed(&mut reader, path, len, &KIND)?;
        self.check_identity(&header.unit)?;
        if header.cells != cells.len() {
            return Err(mismatch(path, "number of cells", header.cells, cells.len()));
        }
        if header.cell_bytes != cells.saved_len() {
            return Err(mismatch(
                path,
                "bytes of cells",
                header.cell_bytes,
                cells.saved_len(),
            ));
        }
        let expected_len = offset + header.cell_bytes + 8;
        if len != expected_len {
            return Err(DbError::Length {
                path: path.clone(),
                expected: expected_len,
                actual: len,
            });
        }
        let progress = header.progress;
        if !progress.is_plausible(cells.len()) {
            return Err(DbError::corrupted(path, "implausible progress"));
        }
        let mut hash = Xxh3::new();
        cells
            .load(&mut reader, &mut hash)
            .map_err(|e| read_failure(e, path, len, expected_len))?;
        let mut trailer = [0u8; 8];
        read_exact_of(&mut reader, &mut trailer, path, len, expected_len)?;
        if hash.digest() != u64::from_le_bytes(trailer) {
            return Err(DbError::corrupted(path, "cells checksum mismatch"));
        }
        self.last = Instant::now();
        self.resumed = Some(progress.stage.clone());
        Ok(Some(progress))
    }

    fn check_identity(&self, found: &UnitIdentity) -> Result<(), DbError> {
        let (path, expected) = (&self.path, &self.identity);
        for (what, found, expected) in [
            ("solver method", &found.method, &expected.method),
            ("game", &found.game_id, &expected.game_id),
            ("rules", &found.rules, &expected.rules),
            ("index scheme", &found.index_scheme, &expected.index_scheme),
        ] {
            if found != expected {
                return Err(mismatch(path, what, found, expected));
            }
        }
        let names = |s: &[(String, u64)]| {
            s.iter()
                .map(|(k, n)| format!("{k} ({n} positions)"))
                .collect::<Vec<_>>()
                .join(" + ")
        };
        if found.subspaces != expected.subspaces {
            return Err(mismatch(
                path,
                "unit",
                names(&found.subspaces),
                names(&expected.subspaces),
            ));
        }
        if found.exits != expected.exits {
            let show = |e: Option<&ExitIdentity>| e.map_or("none".to_owned(), ToString::to_string);
            let at = (0..found.exits.len().max(expected.exits.len()))
                .find(|&i| found.exits.get(i) != expected.exits.get(i))
                .unwrap_or(0);
            return Err(mismatch(
                path,
                "table its exits read (rebuilt since the checkpoint?)",
                show(found.exits.get(at)),
                show(expected.exits.get(at)),
            ));
        }
        Ok(())
    }

    /// Removes the checkpoint, if any: its unit's tables are written.
    pub(crate) fn remove(&self) -> Result<(), DbError> {
        remove_checkpoint_at(&self.path)
    }
}

/// Removes the checkpoint at `path`, if there is one.
pub(crate) fn remove_checkpoint_at(path: &Path) -> Result<(), DbError> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(DbError::io(path, e)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::sync::{Arc, Mutex};

    use perfectplay_core::morris::Morris;

    use super::*;
    use crate::morris::{MorrisDomain, MorrisKey};
    use crate::retro::{CountDown, Observer, UnitSolver, WinSearch};

    /// How a test has a unit solved: even layers one way, odd layers one way.
    type Way = (WinSearch, CountDown);
    /// Every layer unmoved.
    const BACKWARD: Way = (WinSearch::Backward, CountDown::Backward);

    /// Twelve Men's Morris 3-3 with its memories: a unit of twelve chunks and some dozens of
    /// layers whose turns leave it only to ends of the game, so it reads no table.
    fn unit() -> (MorrisDomain, Vec<crate::morris::MorrisKey>) {
        let domain = MorrisDomain::new(Morris::preset("twelve_mens_morris").unwrap()).unwrap();
        let start = domain.parse_key("3-3").unwrap();
        let unit = crate::plan(&domain, &[start]).pop().unwrap();
        assert!(
            unit.len() == 4
                && unit
                    .iter()
                    .all(|&k| { domain.successor_keys(k).iter().all(|n| unit.contains(n)) })
        );
        (domain, unit)
    }

    fn identity(domain: &MorrisDomain, unit: &[crate::morris::MorrisKey]) -> UnitIdentity {
        UnitIdentity::of(domain, unit, &[])
    }

    /// Where a test stops a unit.
    #[derive(Clone, Copy, Debug, Default)]
    struct Stop {
        /// Once this many positions are initialised.
        initialised: Option<u64>,
        /// Once this many chunks of layer `.0` are done (0: as it begins).
        layer: Option<(u32, u64)>,
    }

    /// Sets `cancel` at `stop`, and notes the layers it sees. With `keep`, copies the
    /// checkpoint file `.0` to `.1` at that moment, before the solver saves the stopped unit:
    /// what a build killed there would leave.
    struct StopAt<'a> {
        cancel: &'a AtomicBool,
        stop: Stop,
        keep: Option<(PathBuf, PathBuf)>,
        initialised: AtomicU64,
        layer_chunks: AtomicU64,
        layers: Mutex<Vec<u32>>,
        /// The chunks each layer of `layers` visited.
        visited: Mutex<Vec<u64>>,
    }

    impl<'a> StopAt<'a> {
        fn new(cancel: &'a AtomicBool, stop: Stop) -> Self {
            StopAt {
                cancel,
                stop,
                keep: None,
                initialised: AtomicU64::new(0),
                layer_chunks: AtomicU64::new(0),
                layers: Mutex::new(Vec::new()),
                visited: Mutex::new(Vec::new()),
            }
        }

        fn stop_now(&self) {
            if self.cancel.swap(true, Ordering::Relaxed) {
                return;
            }
            if let Some((file, copy)) = &self.keep {
                let _ = fs::remove_file(copy);
                if file.exists() {
                    fs::copy(file, copy).unwrap();
                }
            }
        }
    }

    impl Observer for StopAt<'_> {
        fn initialised(&self, n: u64) {
            let seen = self.initialised.fetch_add(n, Ordering::Relaxed) + n;
            if self.stop.initialised.is_some_and(|limit| seen >= limit) {
                self.stop_now();
            }
        }

        fn layer(&self, d: u32, _max: u32) {
            self.layers.lock().unwrap().push(d);
            self.visited.lock().unwrap().push(0);
            self.layer_chunks.store(0, Ordering::Relaxed);
            if self.stop.layer == Some((d, 0)) {
                self.stop_now();
            }
        }

        fn layer_chunk_done(&self) {
            let seen = self.layer_chunks.fetch_add(1, Ordering::Relaxed) + 1;
            *self.visited.lock().unwrap().last_mut().unwrap() += 1;
            let d = *self.layers.lock().unwrap().last().unwrap();
            if self.stop.layer == Some((d, seen)) {
                self.stop_now();
            }
        }
    }

    fn payloads(solved: &crate::retro::Solved, members: usize) -> Vec<Vec<u8>> {
        (0..members).map(|m| solved.payload(m).unwrap()).collect()
    }

    /// The unit solved in one go: its payloads and the layers it ran.
    fn solved_in_one_go(domain: &MorrisDomain, unit: &[MorrisKey]) -> (Vec<Vec<u8>>, Vec<u32>) {
        let never = AtomicBool::new(false);
        let whole = StopAt::new(&never, Stop::default());
        let solved = UnitSolver::new(domain, unit, Vec::new(), None)
            .unwrap()
            .with_count_down(CountDown::Backward)
            .run(&whole, None)
            .unwrap();
        let layers = whole.layers.lock().unwrap().clone();
        assert!(layers.len() > 10, "{layers:?}");
        (payloads(&solved, unit.len()), layers)
    }

    /// The layers of the unit solved in one go that visit at least `chunks` chunks (a layer
    /// visits the chunks holding its positions: module `retro::layer_chunks`).
    fn layers_visiting(domain: &MorrisDomain, unit: &[MorrisKey], chunks: u64) -> Vec<u32> {
        let never = AtomicBool::new(false);
        let whole = StopAt::new(&never, Stop::default());
        UnitSolver::new(domain, unit, Vec::new(), None)
            .unwrap()
            .with_count_down(CountDown::Backward)
            .run(&whole, None)
            .unwrap();
        let layers = whole.layers.lock().unwrap().clone();
        let visited = whole.visited.lock().unwrap().clone();
        layers
            .into_iter()
            .zip(visited)
            .filter(|&(_, n)| n >= chunks)
            .map(|(d, _)| d)
            .collect()
    }

    /// Solves the unit from the checkpoint at `path`, saving none: its payloads and where it
    /// took the unit up.
    fn taken_up(
        domain: &MorrisDomain,
        unit: &[MorrisKey],
        path: &Path,
    ) -> (Vec<Vec<u8>>, Option<Stage>) {
        taken_up_by(domain, unit, path, BACKWARD)
    }

    /// [`taken_up`], layers going `way`'s way.
    fn taken_up_by(
        domain: &MorrisDomain,
        unit: &[MorrisKey],
        path: &Path,
        way: Way,
    ) -> (Vec<Vec<u8>>, Option<Stage>) {
        let mut again = Checkpoints::new(path.to_owned(), identity(domain, unit), Duration::MAX);
        let never = AtomicBool::new(false);
        let solved = UnitSolver::new(domain, unit, Vec::new(), None)
            .unwrap()
            .with_win_search(way.0)
            .with_count_down(way.1)
            .run(&StopAt::new(&never, Stop::default()), Some(&mut again))
            .unwrap();
        assert_eq!(again.saves(), 0);
        (payloads(&solved, unit.len()), again.resumed().cloned())
    }

    /// Two workers, so that a stopped pass has chunks done and chunks not begun, whatever
    /// machine the tests run on.
    fn two_workers<T: Send>(work: impl FnOnce() -> T + Send) -> T {
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
            .install(work)
    }

    /// Runs the unit with checkpoints at `path` (due only when stopped) until `stop`, on two
    /// workers: how many saves it made, and where it took the unit up.
    fn stopped_at(
        domain: &MorrisDomain,
        unit: &[MorrisKey],
        path: &Path,
        stop: Stop,
    ) -> (u32, Option<Stage>) {
        stopped_by(domain, unit, path, stop, BACKWARD)
    }

    /// [`stopped_at`], layers going `way`'s way.
    fn stopped_by(
        domain: &MorrisDomain,
        unit: &[MorrisKey],
        path: &Path,
        stop: Stop,
        way: Way,
    ) -> (u32, Option<Stage>) {
        let cancel = AtomicBool::new(false);
        let mut saving = Checkpoints::new(
            path.to_owned(),
            identity(domain, unit),
            Duration::from_secs(3600),
        );
        let stopped = two_workers(|| {
            UnitSolver::new(domain, unit, Vec::new(), Some(&cancel))
                .unwrap()
                .with_win_search(way.0)
                .with_count_down(way.1)
                .run(&StopAt::new(&cancel, stop), Some(&mut saving))
        });
        assert!(matches!(stopped, Err(crate::SolveError::Interrupted)));
        (saving.saves(), saving.resumed().cloned())
    }

    /// Stopped in the first pass or in the middle of a layer, a unit saves where it stopped,
    /// and taken up from there it gives the tables of one run in one go.
    #[test]
    fn a_unit_stopped_anywhere_saves_there_and_gives_the_same_tables() {
        let (domain, unit) = unit();
        let (expected, layers) = solved_in_one_go(&domain, &unit);
        // Stopped after 4 chunks, in a layer that visits more: the sixth such layer, then the
        // last that visits two chunks or more, stopped after one.
        let busy = layers_visiting(&domain, &unit, 5);
        let late = *layers_visiting(&domain, &unit, 2).last().unwrap();
        assert!(busy.len() > 5 && late > busy[5], "{busy:?} {late}");
        let chunks = unit
            .iter()
            .map(|&k| domain.size(k))
            .sum::<u64>()
            .div_ceil(CHUNK);
        let dir = tempfile::tempdir().unwrap();
        let path = Checkpoints::path_in(dir.path(), &unit[0].to_string());
        let stops = [
            Stop {
                initialised: Some(3 << 14),
                layer: None,
            },
            Stop {
                initialised: None,
                layer: Some((layers[0], 0)),
            },
            Stop {
                initialised: None,
                layer: Some((layers[0], 2)),
            },
            Stop {
                initialised: None,
                layer: Some((busy[5], 4)),
            },
            Stop {
                initialised: None,
                layer: Some((late, 1)),
            },
        ];
        for stop in stops {
            let _ = fs::remove_file(&path);
            assert_eq!(stopped_at(&domain, &unit, &path, stop).0, 1, "{stop:?}");

            let (tables, at) = taken_up(&domain, &unit, &path);
            let some_not_all = |done: &DoneChunks| {
                let n = done.iter().count() as u64;
                n > 0 && n < chunks
            };
            match (stop, at) {
                (Stop { layer: None, .. }, Some(Stage::Initialising { done })) => {
                    assert!(some_not_all(&done), "{done:?}");
                }
                (
                    Stop {
                        layer: Some((d, 0)),
                        ..
                    },
                    Some(Stage::Layers { next, done }),
                ) => {
                    assert_eq!((next, done), (d, DoneChunks::default()));
                }
                (
                    Stop {
                        layer: Some((d, _)),
                        ..
                    },
                    Some(Stage::Layers { next, done }),
                ) => {
                    assert_eq!(next, d);
                    assert!(some_not_all(&done), "{done:?}");
                }
                (stop, at) => panic!("stopped at {stop:?}, taken up at {at:?}"),
            }
            assert_eq!(tables, expected, "{stop:?}");
        }
    }

    /// Solves `unit` with its tail (module `retro::tail`) from `from`, saving a checkpoint
    /// after every layer while it may, stopped at each of `stops` (a layer, and the chunks of it
    /// done first), then taken up: the same tables as `expected` each time. Returns the
    /// checkpoints saved before each stop.
    fn stopped_in_and_around_the_tail(
        domain: &MorrisDomain,
        unit: &[MorrisKey],
        exits: &[(MorrisKey, Arc<crate::table::Table>)],
        from: u32,
        stops: &[(u32, u64)],
    ) -> Vec<u32> {
        fn solver<'a>(
            domain: &'a MorrisDomain,
            unit: &'a [MorrisKey],
            exits: &[(MorrisKey, Arc<crate::table::Table>)],
            from: u32,
            cancel: Option<&'a AtomicBool>,
        ) -> UnitSolver<'a, MorrisDomain> {
            UnitSolver::new(domain, unit, exits.to_vec(), cancel)
                .unwrap()
                .with_count_down(CountDown::Backward)
                .with_tail_from(from)
                .with_long_distances()
        }
        let never = AtomicBool::new(false);
        let expected = payloads(
            &solver(domain, unit, exits, from, None)
                .run(&StopAt::new(&never, Stop::default()), None)
                .unwrap(),
            unit.len(),
        );
        let dir = tempfile::tempdir().unwrap();
        let path = Checkpoints::path_in(dir.path(), &unit[0].to_string());
        let identity = || UnitIdentity::of(domain, unit, exits);
        let mut saves = Vec::new();
        for &stop in stops {
            let _ = fs::remove_file(&path);
            let cancel = AtomicBool::new(false);
            let mut saving = Checkpoints::new(path.clone(), identity(), Duration::ZERO);
            let stopped = two_workers(|| {
                let at = Stop {
                    initialised: None,
                    layer: Some(stop),
                };
                solver(domain, unit, exits, from, Some(&cancel))
                    .run(&StopAt::new(&cancel, at), Some(&mut saving))
            });
            assert!(matches!(stopped, Err(crate::SolveError::Interrupted)));
            saves.push(saving.saves());
            let mut again = Checkpoints::new(path.clone(), identity(), Duration::MAX);
            let solved = solver(domain, unit, exits, from, None)
                .run(&StopAt::new(&never, Stop::default()), Some(&mut again))
                .unwrap();
            match again.resumed() {
                Some(Stage::Layers { next, .. } | Stage::Stale { next, .. }) => {
                    assert!(*next <= from.min(stop.0), "{stop:?}: taken up at {next}");
                }
                None => assert_eq!(saving.saves(), 0, "{stop:?}"),
                Some(other) => panic!("{stop:?}: taken up at {other:?}"),
            }
            assert!(
                payloads(&solved, unit.len()) == expected,
                "{stop:?}: the tables differ"
            );
        }
        saves
    }

    /// A unit saves a checkpoint while every distance in its tail (module `retro::tail`) is
    /// its cell's, and a unit taken up notes those cells in the tail again; none once the tail
    /// holds a longer one (here from the first pass: exits with distances), and none in the
    /// tail's layers. Stopped anywhere, it goes on from its last save to the same tables.
    #[test]
    fn a_unit_with_a_tail_saves_only_what_its_cells_say() {
        let (domain, unit) = unit();
        let (_, layers) = solved_in_one_go(&domain, &unit);
        let from = layers[layers.len() / 2];
        assert!(
            layers.iter().filter(|&&d| d > from + 2).count() > 2,
            "{layers:?}"
        );
        let stops = [(from - 1, 1), (from, 0), (from + 1, 0), (from + 3, 0)];
        let saves = stopped_in_and_around_the_tail(&domain, &unit, &[], from, &stops);
        assert!(saves.iter().all(|&n| n > 1), "{saves:?}");

        let make = crate::retro::tests::six_mens_morris_with_memories;
        let exits_dir = tempfile::tempdir().unwrap();
        let options = crate::SolveOptions {
            threads: Some(2),
            ..crate::SolveOptions::default()
        };
        let (unit, exits) =
            crate::retro::tests::unit_with_exits(make, "4-6", exits_dir.path(), &options);
        let domain = make();
        let saves = stopped_in_and_around_the_tail(&domain, &unit, &exits, 2, &[(1, 1), (4, 0)]);
        assert_eq!(saves, [0, 0]);
    }

    /// Stopped in the middle of an even layer looked at forward (module `retro::forward`), a
    /// unit saves that layer as not begun, and taken up either way it gives the tables of one
    /// run in one go; a backward layer stopped part way and taken up forward does too.
    #[test]
    fn an_even_layer_stopped_part_way_is_taken_up_either_way() {
        let (domain, unit) = unit();
        let (expected, layers) = solved_in_one_go(&domain, &unit);
        let even: Vec<u32> = layers.iter().copied().filter(|d| d % 2 == 0).collect();
        let dir = tempfile::tempdir().unwrap();
        let path = Checkpoints::path_in(dir.path(), &unit[0].to_string());
        for (d, chunks) in [(even[0], 2), (even[2], 3), (even[3], 1)] {
            let stop = Stop {
                initialised: None,
                layer: Some((d, chunks)),
            };
            for (stopped, taken) in [
                (WinSearch::Forward, WinSearch::Forward),
                (WinSearch::Forward, WinSearch::Backward),
                (WinSearch::Backward, WinSearch::Forward),
                (WinSearch::Halves, WinSearch::Backward),
                (WinSearch::Backward, WinSearch::Halves),
            ] {
                let _ = fs::remove_file(&path);
                let way = |w| (w, CountDown::Backward);
                assert_eq!(stopped_by(&domain, &unit, &path, stop, way(stopped)).0, 1);
                let (tables, at) = taken_up_by(&domain, &unit, &path, way(taken));
                let Some(Stage::Layers { next, done }) = at else {
                    panic!("stopped at {stop:?}, taken up at {at:?}");
                };
                assert_eq!(next, d);
                assert_eq!(
                    done.is_empty(),
                    stopped != WinSearch::Backward,
                    "{stopped:?} at {stop:?}: {done:?}"
                );
                assert_eq!(tables, expected, "{stopped:?} then {taken:?} at {stop:?}");
            }
        }
    }

    /// Stopped while odd layers look forward (module `retro::odd_forward`), while the counters
    /// are recounted, in an even layer between, or in the first odd layer unmoved after the
    /// recount, a unit saves where it stopped and whether its counters are stale, and taken up
    /// (any way) it gives the tables of one run in one go.
    #[test]
    fn a_unit_stopped_with_stale_counters_is_taken_up_where_it_stopped() {
        let (domain, unit) = unit();
        let (expected, layers) = solved_in_one_go(&domain, &unit);
        let chunks = unit
            .iter()
            .map(|&k| domain.size(k))
            .sum::<u64>()
            .div_ceil(CHUNK);
        // Odd layers forward through the second with positions, then a recount before the
        // third.
        let odd: Vec<u32> = layers.iter().copied().filter(|d| d % 2 == 1).collect();
        let even_between = *layers
            .iter()
            .find(|&&d| d % 2 == 0 && d > odd[0] && d < odd[1])
            .unwrap();
        let stopped_way = (WinSearch::Backward, CountDown::ForwardThrough(odd[1]));
        let dir = tempfile::tempdir().unwrap();
        let path = Checkpoints::path_in(dir.path(), &unit[0].to_string());
        // Where each stop leaves the unit: stale counters and what the chunks done of the
        // layer did, or (`None`) counters recounted.
        let (forward, recount) = (Some(StalePass::Forward), Some(StalePass::Recount));
        // A forward look visits every chunk; the recount does too, before the layer.
        let cases = [
            (odd[0], 3, Some(forward)),
            (odd[1], 5, Some(forward)),
            (even_between, 1, Some(None)),
            (odd[2], 2, Some(recount)),
            (odd[2], chunks + 1, None),
        ];
        for (d, after, saved_as) in cases {
            let stop = Stop {
                initialised: None,
                layer: Some((d, after)),
            };
            // Taken up the way it was stopped, unmoving throughout, the solver's way, and
            // looking forward wherever it may: a layer stopped while unmoving goes on
            // unmoving.
            for taken in [
                stopped_way,
                BACKWARD,
                (WinSearch::Cheaper, CountDown::Cheaper),
                (WinSearch::Backward, CountDown::ForwardThrough(u32::MAX)),
            ] {
                let _ = fs::remove_file(&path);
                assert_eq!(stopped_by(&domain, &unit, &path, stop, stopped_way).0, 1);
                let (tables, at) = taken_up_by(&domain, &unit, &path, taken);
                let saved_right = match (at.as_ref(), saved_as) {
                    (Some(Stage::Stale { next, done, pass }), Some(expected)) => {
                        *next == d && *pass == expected && !done.is_empty()
                    }
                    (Some(Stage::Layers { next, done }), None) => *next == d && !done.is_empty(),
                    _ => false,
                };
                assert!(saved_right, "stopped at {stop:?}, saved as {at:?}");
                assert_eq!(tables, expected, "stopped at {stop:?}, taken up {taken:?}");
            }
        }
    }

    /// Killed in the first pass or between layers (the save of the stopped unit never made:
    /// the last save is what is left), a unit taken up gives the tables of one run in one go.
    #[test]
    fn a_unit_killed_anywhere_goes_on_from_its_last_save() {
        let (domain, unit) = unit();
        let (expected, layers) = solved_in_one_go(&domain, &unit);
        let dir = tempfile::tempdir().unwrap();
        let path = Checkpoints::path_in(dir.path(), &unit[0].to_string());
        let last_save = dir.path().join("last-save");
        let at = |layer: u32| Stop {
            initialised: None,
            layer: Some((layer, 0)),
        };
        let stops = [
            (
                Stop {
                    initialised: Some(3 << 14),
                    layer: None,
                },
                Stage::Initialising {
                    done: DoneChunks::first(2),
                },
            ),
            (
                Stop {
                    initialised: Some(5 << 14),
                    layer: None,
                },
                Stage::Initialising {
                    done: DoneChunks::first(4),
                },
            ),
            (
                at(layers[0]),
                Stage::Layers {
                    next: 0,
                    done: DoneChunks::default(),
                },
            ),
            (
                at(layers[1]),
                Stage::Layers {
                    next: layers[0] + 1,
                    done: DoneChunks::default(),
                },
            ),
            (
                at(layers[7]),
                Stage::Layers {
                    next: layers[6] + 1,
                    done: DoneChunks::default(),
                },
            ),
            (
                at(*layers.last().unwrap()),
                Stage::Layers {
                    next: layers[layers.len() - 2] + 1,
                    done: DoneChunks::default(),
                },
            ),
        ];
        for (stop, last) in stops {
            let _ = fs::remove_file(&path);
            let cancel = AtomicBool::new(false);
            let mut observer = StopAt::new(&cancel, stop);
            observer.keep = Some((path.clone(), last_save.clone()));
            let mut saving =
                Checkpoints::new(path.clone(), identity(&domain, &unit), Duration::ZERO);
            saving.segment_chunks = 2;
            let stopped = UnitSolver::new(&domain, &unit, Vec::new(), Some(&cancel))
                .unwrap()
                .with_count_down(CountDown::Backward)
                .run(&observer, Some(&mut saving));
            assert!(matches!(stopped, Err(crate::SolveError::Interrupted)));
            fs::rename(&last_save, &path).unwrap();
            let (tables, at) = taken_up(&domain, &unit, &path);
            assert_eq!(at, Some(last), "{stop:?}");
            assert_eq!(tables, expected, "{stop:?}");
        }
    }

    /// Told never to save, a stopped unit leaves no checkpoint.
    #[test]
    fn a_unit_told_never_to_save_saves_nothing_when_stopped() {
        let (domain, unit) = unit();
        let dir = tempfile::tempdir().unwrap();
        let path = Checkpoints::path_in(dir.path(), &unit[0].to_string());
        let cancel = AtomicBool::new(false);
        let stop = Stop {
            initialised: None,
            layer: Some((1, 1)),
        };
        let mut never = Checkpoints::new(path.clone(), identity(&domain, &unit), Duration::MAX);
        let stopped = UnitSolver::new(&domain, &unit, Vec::new(), Some(&cancel))
            .unwrap()
            .run(&StopAt::new(&cancel, stop), Some(&mut never));
        assert!(matches!(stopped, Err(crate::SolveError::Interrupted)));
        assert_eq!(never.saves(), 0);
        assert!(!path.exists());
    }

    /// A stopped unit whose save fails says so: it goes on from its last checkpoint, if any.
    #[test]
    fn a_stopped_unit_that_cannot_be_saved_says_so() {
        let (domain, unit) = unit();
        let dir = tempfile::tempdir().unwrap();
        let nowhere = dir.path().join("gone").join("3-3.ppck");
        let cancel = AtomicBool::new(false);
        let stop = Stop {
            initialised: None,
            layer: Some((1, 1)),
        };
        let mut failing = Checkpoints::new(nowhere, identity(&domain, &unit), Duration::MAX / 2);
        let err = UnitSolver::new(&domain, &unit, Vec::new(), Some(&cancel))
            .unwrap()
            .run(&StopAt::new(&cancel, stop), Some(&mut failing))
            .err()
            .unwrap();
        assert!(
            matches!(err, crate::SolveError::InterruptedUnsaved { .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("gone"), "{err}");
    }

    /// A unit taken up and stopped again before any chunk of it ends is where its checkpoint
    /// has it: the checkpoint is not written again (for the largest units, gigabytes), and it
    /// still gives the tables of one run in one go.
    #[test]
    fn a_unit_stopped_before_any_new_chunk_keeps_its_checkpoint_as_it_was() {
        let (domain, unit) = unit();
        let (expected, layers) = solved_in_one_go(&domain, &unit);
        let dir = tempfile::tempdir().unwrap();
        let path = Checkpoints::path_in(dir.path(), &unit[0].to_string());
        let d = layers[3];
        let run = |stop: Stop| stopped_at(&domain, &unit, &path, stop);
        let first = run(Stop {
            initialised: None,
            layer: Some((d, 2)),
        });
        assert_eq!(first, (1, None));
        let saved = fs::read(&path).unwrap();
        // Taken up in layer `d` and stopped as it begins again, before any chunk ends.
        let (saves, at) = run(Stop {
            initialised: None,
            layer: Some((d, 0)),
        });
        assert_eq!(saves, 0);
        assert!(
            matches!(at, Some(Stage::Layers { next, .. }) if next == d),
            "{at:?}"
        );
        assert_eq!(fs::read(&path).unwrap(), saved);
        assert_eq!(taken_up(&domain, &unit, &path).0, expected);
    }

    /// A periodic save that fails (the checkpoint's directory missing for a while) is tried
    /// again at the next chance, and saves once it can.
    #[test]
    fn a_failed_save_is_tried_again() {
        struct MakeDirAt<'a> {
            dir: &'a Path,
            layer: u32,
        }
        impl Observer for MakeDirAt<'_> {
            fn initialised(&self, _n: u64) {}
            fn layer(&self, d: u32, _max: u32) {
                if d == self.layer {
                    fs::create_dir_all(self.dir).unwrap();
                }
            }
        }
        let (domain, unit) = unit();
        let (expected, layers) = solved_in_one_go(&domain, &unit);
        let dir = tempfile::tempdir().unwrap();
        let later = dir.path().join("later");
        let mut saving = Checkpoints::new(
            later.join("3-3.ppck"),
            identity(&domain, &unit),
            Duration::ZERO,
        );
        let observer = MakeDirAt {
            dir: &later,
            layer: layers[2],
        };
        let solved = UnitSolver::new(&domain, &unit, Vec::new(), None)
            .unwrap()
            .run(&observer, Some(&mut saving))
            .unwrap();
        assert_eq!(payloads(&solved, unit.len()), expected);
        assert!(saving.failure().is_some_and(|why| why.contains("later")));
        assert!(saving.saves() > 0, "no save once the directory was there");
    }

    #[test]
    fn done_chunks_are_ranges() {
        let done = DoneChunks::from_flags(10, |c| [0, 1, 2, 5, 7, 8].contains(&c));
        assert_eq!(done, DoneChunks(vec![0..3, 5..6, 7..9]));
        assert_eq!(done.iter().collect::<Vec<_>>(), [0, 1, 2, 5, 7, 8]);
        assert!(done.is_plausible(9) && !done.is_plausible(8));
        assert_eq!(DoneChunks::first(3), DoneChunks::from_flags(10, |c| c < 3));
        assert!(DoneChunks::first(0).is_empty());
        assert!(
            !DoneChunks(vec![0..3, 3..4]).is_plausible(10),
            "ranges that touch"
        );
        assert!(
            !DoneChunks(vec![4..6, 0..2]).is_plausible(10),
            "out of order"
        );
        assert!(
            !DoneChunks(std::iter::once(2..2).collect()).is_plausible(10),
            "an empty range"
        );
    }

    /// A save that fails (here: into a directory that is not there) does not stop the unit,
    /// which writes the tables it would have written.
    #[test]
    fn a_failed_save_leaves_the_unit_to_finish() {
        let (domain, unit) = unit();
        let never = AtomicBool::new(false);
        let plain = UnitSolver::new(&domain, &unit, Vec::new(), None)
            .unwrap()
            .run(&StopAt::new(&never, Stop::default()), None)
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let nowhere = dir.path().join("gone").join("3-3.ppck");
        let mut failing = Checkpoints::new(nowhere, identity(&domain, &unit), Duration::ZERO);
        let solved = UnitSolver::new(&domain, &unit, Vec::new(), None)
            .unwrap()
            .run(&StopAt::new(&never, Stop::default()), Some(&mut failing))
            .unwrap();
        assert_eq!(payloads(&solved, unit.len()), payloads(&plain, unit.len()));
        assert_eq!(failing.saves(), 0);
        assert!(failing.failure().is_some_and(|why| why.contains("gone")));
    }

    /// A checkpoint that is damaged, cut short, or made for other rules, another unit or
    /// other exit tables is refused, naming what is wrong.
    #[test]
    fn checkpoints_that_do_not_fit_are_refused() {
        let (domain, unit) = unit();
        let dir = tempfile::tempdir().unwrap();
        let path = Checkpoints::path_in(dir.path(), &unit[0].to_string());
        let cancel = AtomicBool::new(false);
        let stop = StopAt::new(
            &cancel,
            Stop {
                initialised: None,
                layer: Some((3, 0)),
            },
        );
        let mut saving = Checkpoints::new(path.clone(), identity(&domain, &unit), Duration::ZERO);
        let _ = UnitSolver::new(&domain, &unit, Vec::new(), Some(&cancel))
            .unwrap()
            .run(&stop, Some(&mut saving));
        let whole = fs::read(&path).unwrap();
        let total: u64 = unit.iter().map(|&k| domain.size(k)).sum();
        let refusal = |identity: UnitIdentity| {
            let cells = Cells::new(total).unwrap();
            Checkpoints::new(path.clone(), identity, Duration::MAX)
                .load(&cells)
                .unwrap_err()
                .to_string()
        };

        let mut other_rules = identity(&domain, &unit);
        other_rules.rules.push_str(",removal=mill_immunity");
        assert!(refusal(other_rules).contains("rules is"));
        let mut other_exits = identity(&domain, &unit);
        other_exits.exits.push(ExitIdentity {
            subspace: "3-2".into(),
            encoding: Encoding::Wdl,
            positions: 9,
            payload_checksum: 1,
        });
        let err = refusal(other_exits);
        assert!(err.contains("exits read") && err.contains("3-2"), "{err}");
        let mut other_unit = identity(&domain, &unit);
        other_unit.subspaces.pop();
        assert!(refusal(other_unit).contains("unit is"));

        fs::write(&path, &whole[..whole.len() - 5]).unwrap();
        assert!(refusal(identity(&domain, &unit)).contains("truncated"));
        let mut flipped = whole.clone();
        let at = whole.len() - 1000;
        flipped[at] ^= 4;
        fs::write(&path, &flipped).unwrap();
        assert!(refusal(identity(&domain, &unit)).contains("cells checksum"));
        let mut newer = whole.clone();
        newer[8] = VERSION as u8 + 1;
        fs::write(&path, &newer).unwrap();
        assert!(refusal(identity(&domain, &unit)).contains("format version"));
        // Version 2 (no stale stages) is read as it is; version 1 is refused.
        let mut older = whole.clone();
        older[8] = 2;
        fs::write(&path, &older).unwrap();
        let cells = Cells::new(total).unwrap();
        let loaded = Checkpoints::new(path.clone(), identity(&domain, &unit), Duration::MAX)
            .load(&cells)
            .unwrap();
        assert!(loaded.is_some());
        older[8] = 1;
        fs::write(&path, &older).unwrap();
        assert!(refusal(identity(&domain, &unit)).contains("format version"));
        fs::write(&path, b"PPLAYDB\x1a not a checkpoint").unwrap();
        assert!(refusal(identity(&domain, &unit)).contains("unit checkpoint"));

        // Checksums are no seal: a header that says what no solver could go on from.
        let total_cells = total;
        let layers = |next: u32, done: DoneChunks| Stage::Layers { next, done };
        for (max_plies, stage) in [
            (300, layers(0, DoneChunks::default())),
            (20, layers(40, DoneChunks::default())),
            (
                20,
                Stage::Initialising {
                    done: DoneChunks::first(1 << 40),
                },
            ),
            (
                20,
                Stage::Initialising {
                    done: DoneChunks(vec![3..5, 1..2]),
                },
            ),
            // Chunks done of a layer with no positions.
            (20, layers(5, DoneChunks::first(1))),
            // An even layer looked at forward as an odd one.
            (
                20,
                Stage::Stale {
                    next: 0,
                    done: DoneChunks::first(1),
                    pass: Some(StalePass::Forward),
                },
            ),
        ] {
            let mut counts = vec![0u64; crate::value::MAX_DISTANCE as usize + 2];
            counts[0] = 1;
            let progress = Progress {
                stage,
                max_plies,
                layer_counts: counts,
            };
            let cells = Cells::new(total_cells).unwrap();
            let mut crafted =
                Checkpoints::new(path.clone(), identity(&domain, &unit), Duration::MAX);
            crafted.save(&progress, &cells).unwrap();
            assert!(refusal(identity(&domain, &unit)).contains("implausible progress"));
        }
        let mut counts = vec![0u64; crate::value::MAX_DISTANCE as usize + 2];
        counts[30] = 1;
        let beyond = Progress {
            stage: layers(0, DoneChunks::default()),
            max_plies: 20,
            layer_counts: counts,
        };
        Checkpoints::new(path.clone(), identity(&domain, &unit), Duration::MAX)
            .save(&beyond, &Cells::new(total_cells).unwrap())
            .unwrap();
        assert!(refusal(identity(&domain, &unit)).contains("implausible progress"));

        // Through the solver: a typed error that says how to start over.
        let err = UnitSolver::new(&domain, &unit, Vec::new(), None)
            .unwrap()
            .run(
                &stop,
                Some(&mut Checkpoints::new(
                    path.clone(),
                    identity(&domain, &unit),
                    Duration::MAX,
                )),
            )
            .err()
            .unwrap();
        assert!(matches!(err, crate::SolveError::UnitCheckpoint { .. }));
        assert!(err.to_string().contains("delete the file"), "{err}");
    }
}
