//! Probing: a set of directories whose tables open lazily, on the first probe that needs them.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock, RwLock};

use perfectplay_core::{Color, Game};

use crate::domain::Domain;
use crate::error::{DbError, MissingTables, ProbeError};
use crate::format::{file_name, Expected, DISTANCE_EXTENSION, EXTENSION};
use crate::table::{Resolved, Table};
use crate::touched::Touched;
use crate::value::Value;

type Position<D> = <<D as Domain>::Game as Game>::Position;
type Move<D> = <<D as Domain>::Game as Game>::Move;

/// Endgame tables of one game under one rule set, read from one or more directories.
///
/// `Tablebase` is `Send + Sync`: probe it from any number of threads. A table is mapped on the
/// first probe that needs it and kept for the tablebase's life.
pub struct Tablebase<D: Domain> {
    domain: D,
    dirs: Vec<PathBuf>,
    /// Opened tables of domains without slot numbers.
    tables: RwLock<HashMap<D::Key, Arc<Table>>>,
    /// Opened tables by [`Domain::key_slot`]: read without a lock.
    slots: Box<[OnceLock<Resolved>]>,
    /// Whether a subspace's compressed distance file is read where there is one (else its
    /// smaller win/draw/loss file).
    distances: bool,
}

/// A table found for a probe: borrowed from its slot, or shared out of the map.
enum Found<'a> {
    Slot(&'a Resolved),
    Shared(Arc<Table>),
}

impl Found<'_> {
    #[inline]
    fn value(&self, index: u64) -> Result<Option<Value>, DbError> {
        match self {
            Found::Slot(t) => t.value(index),
            Found::Shared(t) => t.value(index),
        }
    }

    /// Whether the table leaves out the positions its domain omits ([`Domain::omits`]).
    #[inline]
    fn omits(&self) -> bool {
        match self {
            Found::Slot(t) => t.omits(),
            Found::Shared(t) => t.omitted().is_some(),
        }
    }

    /// Whether the table stores distances (else only win, draw or loss).
    #[inline]
    fn has_distances(&self) -> bool {
        match self {
            Found::Slot(t) => t.has_distances(),
            Found::Shared(t) => t.has_distances(),
        }
    }

    /// Starts the read of `index`, a byte read once.
    #[inline]
    fn prefetch(&self, index: u64) {
        match self {
            Found::Slot(t) => t.prefetch_once(index),
            Found::Shared(t) => t.prefetch_once(index),
        }
    }

    /// The second step of a compressed table's read, once the first ([`Found::prefetch`])
    /// has had time: starts fetching the block that holds `index`, whose place the first
    /// fetched. Nothing for a plain table.
    #[inline]
    fn prefetch_block(&self, index: u64) {
        match self {
            Found::Slot(t) => t.prefetch_block(index),
            Found::Shared(t) => t.prefetch_block(index),
        }
    }
}

/// A probe of a batch: answered already, or waiting for its table read. Small, for it is
/// moved through a ring of them: a failure (rare, and large) is boxed.
enum Pending<'a> {
    Ready(Value),
    Failed(Box<ProbeError>),
    Read(Found<'a>, u64),
    /// A position its table leaves out, to be valued by a search the caller makes.
    Search,
}

impl<'a> Pending<'a> {
    fn of(value: Result<Value, ProbeError>) -> Self {
        match value {
            Ok(v) => Pending::Ready(v),
            Err(e) => Pending::Failed(Box::new(e)),
        }
    }

    /// The value, reading the table now; the table read is noted in `touched`, to be
    /// checked before the value is trusted.
    ///
    /// `None` for [`Pending::Search`].
    #[inline]
    fn finish(self, touched: &mut Touched<'a>) -> Option<Result<Value, ProbeError>> {
        Some(match self {
            Pending::Ready(v) => Ok(v),
            Pending::Failed(e) => Err(*e),
            Pending::Read(table, index) => {
                match &table {
                    Found::Slot(t) => touched.note(t),
                    Found::Shared(t) => touched.note_shared(t),
                }
                stored(table.value(index))
            }
            Pending::Search => return None,
        })
    }
}

/// A value read from a table, as a probe answers it.
#[inline]
pub(crate) fn stored(read: Result<Option<Value>, DbError>) -> Result<Value, ProbeError> {
    // Matched rather than `ok_or`, which would make (and drop) the error for every read.
    match read {
        Ok(Some(v)) => Ok(v),
        Ok(None) => Err(ProbeError::CannotArise),
        Err(e) => Err(ProbeError::from(e)),
    }
}

/// Reads in flight at once in [`Tablebase::probe_batch_with`]: as many as the processor's
/// first-level cache can have outstanding (16 line-fill buffers on recent x86 cores), and no
/// more: a prefetch beyond them waits for one to free, stalling the locating of the next
/// positions.
const IN_FLIGHT: usize = 16;

/// Positions a batch reads before it searches those their tables leave out, with all their
/// successors in one batch.
const SEARCH_CHUNK: usize = 1024;

/// The best of successors' values seen from the mover, or the first error among them.
///
/// Its distance is given only where it is exact: where every successor has one (read for
/// results only, only the rules give some), or for a win in one ply, the quickest there is.
fn best_successor(values: &mut [Option<Result<Value, ProbeError>>]) -> Result<Value, ProbeError> {
    let mut best = BestSuccessor::new();
    for value in values.iter_mut() {
        best.add(value.take().expect("every successor is valued")?);
    }
    best.finish()
}

/// The value of a position its table leaves out, gathered from its successors' values as they
/// come: the best of them seen from its mover, without distance unless every successor has one
/// (or the best wins at once).
struct BestSuccessor {
    best: Option<Value>,
    all_distances: bool,
}

impl BestSuccessor {
    fn new() -> Self {
        BestSuccessor {
            best: None,
            all_distances: true,
        }
    }

    /// Takes in one successor's value, seen from the side to move there.
    #[inline]
    fn add(&mut self, successor: Value) {
        let v = successor.before();
        self.all_distances &= v.plies.is_some() || v.wdl == crate::value::Wdl::Draw;
        if self.best.is_none_or(|b| v.better_than(b)) {
            self.best = Some(v);
        }
    }

    /// The position's value; an error if it had no successor.
    fn finish(self) -> Result<Value, ProbeError> {
        let best = self.best.ok_or_else(|| {
            ProbeError::OutOfScope("a position left out of its table has no move".to_owned())
        })?;
        Ok(if self.all_distances || best.plies == Some(1) {
            best
        } else {
            Value::wdl_only(best.wdl)
        })
    }
}

/// The value of `pos` from its successors' values, each given by `value_of` (the rules' value
/// where the game is over at `pos`): the search of a position its table leaves out.
pub(crate) fn search_successors<G: Game>(
    game: &G,
    pos: &G::Position,
    mut value_of: impl FnMut(&G::Position) -> Result<Value, ProbeError>,
) -> Result<Value, ProbeError> {
    if let Some(v) = terminal_value(game, pos) {
        return v;
    }
    let mut best = BestSuccessor::new();
    let mut error = None;
    game.for_each_move(pos, |mv| {
        if error.is_none() {
            // Played on a copy in place: see `verify::recompute`.
            let mut next = *pos;
            game.play_in_place(&mut next, mv);
            match value_of(&next) {
                Ok(v) => best.add(v),
                Err(e) => error = Some(e),
            }
        }
    });
    match error {
        Some(e) => Err(e),
        None => best.finish(),
    }
}

/// The value of the position after a move, and the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveValue<M> {
    /// The move.
    pub mv: M,
    /// The value of the position before the move if this move is played: the successor's
    /// value seen from the mover, one ply longer.
    pub value: Value,
}

impl<D: Domain> Tablebase<D> {
    /// A tablebase with no directory yet.
    pub fn new(domain: D) -> Tablebase<D> {
        let slots = (0..domain.key_slots()).map(|_| OnceLock::new()).collect();
        Tablebase {
            domain,
            dirs: Vec::new(),
            tables: RwLock::new(HashMap::new()),
            slots,
            distances: true,
        }
    }

    /// The same tablebase reading only results where a subspace has its compressed results
    /// apart (`KEY.ppdb` beside `KEY.ppdd`): the smaller file, for the fastest probes of win,
    /// draw or loss. Values then carry no distance, except from plain tables with distances
    /// (which hold both in one file).
    #[must_use]
    pub fn results_only(mut self) -> Tablebase<D> {
        self.distances = false;
        self
    }

    /// Whether compressed distance files are read ([`Tablebase::results_only`]).
    #[must_use]
    pub fn reads_distances(&self) -> bool {
        self.distances
    }

    /// A tablebase reading `dir`, which must exist.
    pub fn open(domain: D, dir: impl AsRef<Path>) -> Result<Tablebase<D>, DbError> {
        Tablebase::with_directories(domain, &[dir])
    }

    /// A tablebase reading `dirs`, searched in order; each must exist.
    pub fn with_directories<P: AsRef<Path>>(
        domain: D,
        dirs: &[P],
    ) -> Result<Tablebase<D>, DbError> {
        let mut tb = Tablebase::new(domain);
        for dir in dirs {
            tb.add_directory(dir)?;
        }
        Ok(tb)
    }

    /// Reads every table of the directories not opened yet into memory: one anonymous map
    /// backed by huge pages, checked as it is read ([`Table::copy_all`]). Random probes over
    /// gigabytes of tables then rarely miss the TLB (each probe through the page cache's small
    /// pages pays a page walk), at the cost of the tables' size in memory. Returns the bytes
    /// read. Tables opened before keep being read where they were.
    ///
    /// Refused with [`ProbeError::NotEnoughMemory`], before anything is copied, where the
    /// copies would take more than the memory the system has available without swapping
    /// ([`crate::limits::available_memory`]): an overcommitting system would grant the map
    /// and then kill the process part way through the copy.
    pub fn preload(&self) -> Result<u64, ProbeError> {
        self.preload_within(crate::limits::available_memory())
    }

    /// [`Tablebase::preload`] within a budget of `available` bytes (`None`: no bound), rather
    /// than the memory the system says it has: refused with [`ProbeError::NotEnoughMemory`],
    /// before anything is copied, where the copies would take more.
    pub fn preload_within(&self, available: Option<u64>) -> Result<u64, ProbeError> {
        let opened: Vec<(D::Key, Table)> = self
            .available()
            .into_iter()
            .filter(|&(key, _)| !self.is_open(key))
            // The file a probe would read: a compressed distance file where distances are read.
            .map(|(key, path)| (key, self.find(key).unwrap_or(path)))
            .map(|(key, path)| Ok((key, Table::open(&path, Some(&self.expected(key)))?)))
            .collect::<Result<_, DbError>>()?;
        let refs: Vec<&Table> = opened.iter().map(|(_, t)| t).collect();
        let needed = Table::copy_all_bytes(&refs);
        if let Some(available) = available.filter(|&free| needed > free) {
            return Err(ProbeError::NotEnoughMemory { needed, available });
        }
        let copies = Table::copy_all(&refs)?;
        let mut bytes = 0;
        for ((key, _), copy) in opened.iter().zip(copies) {
            bytes += copy.payload().len() as u64;
            let copy = Arc::new(copy);
            match self.slot(*key) {
                Some(slot) => {
                    let _ = slot.set(Resolved::new(copy));
                }
                None => {
                    self.tables
                        .write()
                        .expect("table map lock")
                        .entry(*key)
                        .or_insert(copy);
                }
            }
        }
        Ok(bytes)
    }

    fn is_open(&self, key: D::Key) -> bool {
        match self.slot(key) {
            Some(slot) => slot.get().is_some(),
            None => self
                .tables
                .read()
                .expect("table map lock")
                .contains_key(&key),
        }
    }

    /// Adds a directory to search (after those already added). Nothing is read yet.
    pub fn add_directory(&mut self, dir: impl AsRef<Path>) -> Result<(), DbError> {
        let dir = dir.as_ref();
        if !dir.is_dir() {
            return Err(DbError::io(dir, crate::format::not_a_directory(dir)));
        }
        self.dirs.push(dir.to_owned());
        Ok(())
    }

    /// The directories searched, in order.
    #[must_use]
    pub fn directories(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// The game's database scheme.
    pub fn domain(&self) -> &D {
        &self.domain
    }

    /// What a table of subspace `key` must say about itself.
    #[must_use]
    pub fn expected(&self, key: D::Key) -> Expected {
        expected_for(&self.domain, key)
    }

    /// The path of `key`'s table in the first directory that has an entry of its name, if
    /// any. The entry is not checked: a directory, a FIFO, a broken link or an unreadable file
    /// of that name is found here and refused when opened, so that a broken table is reported
    /// as broken, not as missing.
    ///
    /// Where the tablebase reads distances, a compressed distance file (`KEY.ppdd`) comes before
    /// the `KEY.ppdb` of the same directory.
    #[must_use]
    pub fn find(&self, key: D::Key) -> Option<PathBuf> {
        let stem = key.to_string();
        let name = file_name(&stem);
        let distances = format!("{stem}.{DISTANCE_EXTENSION}");
        let exists = |p: &PathBuf| !matches!(p.symlink_metadata(), Err(e) if e.kind() == std::io::ErrorKind::NotFound);
        self.dirs.iter().find_map(|d| {
            let compressed = d.join(&distances);
            if self.distances && exists(&compressed) {
                return Some(compressed);
            }
            let path = d.join(&name);
            exists(&path).then_some(path)
        })
    }

    /// The table of subspace `key`, opened and checked on first use.
    pub fn table(&self, key: D::Key) -> Result<Arc<Table>, ProbeError> {
        match self.found(key)? {
            Found::Slot(t) => Ok(Arc::clone(t.table())),
            Found::Shared(t) => Ok(t),
        }
    }

    #[inline]
    fn slot(&self, key: D::Key) -> Option<&OnceLock<Resolved>> {
        self.domain.key_slot(key).and_then(|s| self.slots.get(s))
    }

    /// The table of `key` for a probe: from its slot without a lock where the domain numbers
    /// its keys.
    #[inline]
    fn found(&self, key: D::Key) -> Result<Found<'_>, ProbeError> {
        match self.slot(key).and_then(OnceLock::get) {
            Some(t) => Ok(Found::Slot(t)),
            None => self.found_elsewhere(key),
        }
    }

    /// [`Tablebase::found`] for a table not in its slot: in the map (domains without slot
    /// numbers), or opened now. Kept out of line, so that the probes' loops of domains with
    /// slots hold only the slot lookup.
    #[inline(never)]
    fn found_elsewhere(&self, key: D::Key) -> Result<Found<'_>, ProbeError> {
        let slot = self.slot(key);
        if slot.is_none() {
            if let Some(t) = self.tables.read().expect("table map lock").get(&key) {
                return Ok(Found::Shared(Arc::clone(t)));
            }
        }
        let path = self.find(key).ok_or_else(|| ProbeError::MissingTable {
            subspace: key.to_string(),
            dirs: self.dirs.clone(),
        })?;
        let table = Arc::new(Table::open(&path, Some(&self.expected(key)))?);
        if let Some(slot) = slot {
            // Two threads may open the same table at once; the first to finish is kept.
            return Ok(Found::Slot(slot.get_or_init(|| Resolved::new(table))));
        }
        let mut tables = self.tables.write().expect("table map lock");
        Ok(Found::Shared(Arc::clone(
            tables.entry(key).or_insert(table),
        )))
    }

    /// The value of `pos` for the side to move. A position that is already over needs no
    /// table. The table read is checked afterwards ([`Table::check_recent`]).
    pub fn probe(&self, pos: &Position<D>) -> Result<Value, ProbeError> {
        // One table at most: checked at once, without a set of tables read.
        match self.start_probe(pos, false) {
            Pending::Read(table, index) => {
                let read = table.value(index);
                match &table {
                    Found::Slot(t) => t.check_recent()?,
                    Found::Shared(t) => t.check_recent()?,
                }
                stored(read)
            }
            answered => answered
                .finish(&mut Touched::default())
                .unwrap_or_else(|| self.value_by_search(pos)),
        }
    }

    /// The value of every position of `positions`, as [`Tablebase::probe`] gives it, in order.
    /// Faster than probing one by one: the table reads of many positions are started before
    /// the first is waited for, so their memory latencies overlap. [`Tablebase::probe_batch_with`]
    /// does the same without the vector.
    ///
    /// If a table read changed on disk during the batch ([`Table::check_recent`]), every
    /// value the batch read is replaced by that error.
    pub fn probe_batch(&self, positions: &[Position<D>]) -> Vec<Result<Value, ProbeError>> {
        let mut out = Vec::with_capacity(positions.len());
        let checked = self.probe_batch_with(positions, |_, value| {
            out.push(value);
            ControlFlow::Continue(())
        });
        if let Err(changed) = checked {
            for value in &mut out {
                if value.is_ok() {
                    *value = Err(ProbeError::Db(changed.duplicate()));
                }
            }
        }
        out
    }

    /// Probes `positions` as [`Tablebase::probe_batch`] does and hands `visit` each one's
    /// index in `positions` and value, in order, until `visit` breaks. Nothing is allocated
    /// per position: the caller writes the values where it wants them (a probe's result is
    /// large, for its error, and a vector of a million of them costs more than the probes).
    ///
    /// The tables read are checked once the reads are done ([`Table::check_recent`]): an
    /// `Err` says a table changed on disk while the batch read it, and that the values
    /// visited must be discarded.
    #[must_use = "an error means the values visited may be wrong"]
    pub fn probe_batch_with<F>(
        &self,
        positions: &[Position<D>],
        mut visit: F,
    ) -> Result<(), DbError>
    where
        F: FnMut(usize, Result<Value, ProbeError>) -> ControlFlow<()>,
    {
        let mut touched = Touched::default();
        if self.domain.omission().is_none() {
            self.pipeline(positions, false, &mut touched, |i, value| {
                visit(i, value.expect("searches are made at once"))
            });
            return touched.check();
        }
        // Positions left out of compressed tables are searched a chunk at a time: their
        // successors are probed as one batch (itself pipelined), not one by one.
        let mut results: Vec<Option<Result<Value, ProbeError>>> = Vec::new();
        let mut successors: Vec<Position<D>> = Vec::new();
        let mut searched: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
        let game = self.domain.game();
        for (c, chunk) in positions.chunks(SEARCH_CHUNK).enumerate() {
            results.clear();
            results.resize_with(chunk.len(), || None);
            successors.clear();
            searched.clear();
            self.pipeline(chunk, true, &mut touched, |i, value| {
                match value {
                    Some(v) => results[i] = Some(v),
                    None => {
                        let start = successors.len();
                        game.for_each_move(&chunk[i], |mv| {
                            successors.push(game.play(&chunk[i], mv))
                        });
                        searched.push((i, start..successors.len()));
                    }
                }
                ControlFlow::Continue(())
            });
            if !searched.is_empty() {
                let mut values: Vec<Option<Result<Value, ProbeError>>> =
                    (0..successors.len()).map(|_| None).collect();
                self.probe_into(&successors, &mut values)?;
                for (i, range) in searched.drain(..) {
                    results[i] = Some(best_successor(&mut values[range]));
                }
            }
            for (i, value) in results.drain(..).enumerate() {
                let value = value.expect("every position of the chunk is valued");
                if visit(c * SEARCH_CHUNK + i, value).is_break() {
                    return touched.check();
                }
            }
        }
        touched.check()
    }

    /// [`Tablebase::probe_batch_with`] into `values` (as long as `positions`): the searches of
    /// a batch call it for the successors they need, through this one function, so that the
    /// recursion has one closure type.
    fn probe_into(
        &self,
        positions: &[Position<D>],
        values: &mut [Option<Result<Value, ProbeError>>],
    ) -> Result<(), DbError> {
        self.probe_batch_with(positions, |k, v| {
            values[k] = Some(v);
            ControlFlow::Continue(())
        })
    }

    /// The probes of `positions` through the read pipeline: each position's read is started
    /// `IN_FLIGHT` positions before it is made, so the processor always has reads under way
    /// while it locates the next positions, and never waits for a whole group at once.
    /// `visit` gets `None` for a position left out of its table when `defer_searches`.
    fn pipeline<'a>(
        &'a self,
        positions: &[Position<D>],
        defer_searches: bool,
        touched: &mut Touched<'a>,
        mut visit: impl FnMut(usize, Option<Result<Value, ProbeError>>) -> ControlFlow<()>,
    ) {
        let mut ring: [Option<Pending<'_>>; IN_FLIGHT] = std::array::from_fn(|_| None);
        let mut finish = |i: usize, pending: Pending<'a>, touched: &mut Touched<'a>| {
            let value = pending.finish(touched);
            let value = match value {
                None if !defer_searches => Some(self.value_by_search(&positions[i])),
                other => other,
            };
            visit(i, value)
        };
        for (i, pos) in positions.iter().enumerate() {
            // Half-way through the ring, a compressed table's read takes its second step.
            if let Some(Pending::Read(table, index)) = &ring[(i + IN_FLIGHT / 2) % IN_FLIGHT] {
                table.prefetch_block(*index);
            }
            let slot = &mut ring[i % IN_FLIGHT];
            if let Some(earlier) = slot.take() {
                if finish(i - IN_FLIGHT, earlier, touched).is_break() {
                    return;
                }
            }
            *slot = Some(self.start_probe(pos, true));
        }
        for i in positions.len().saturating_sub(IN_FLIGHT)..positions.len() {
            if let Some(p) = ring[i % IN_FLIGHT].take() {
                if finish(i, p, touched).is_break() {
                    return;
                }
            }
        }
    }

    /// A probe with its table read started: answered already where no read is needed.
    ///
    /// A position that is over is answered by the rules, table or not. The end-of-game test
    /// is only made where it can change the answer, though: a table with distances stores
    /// exactly that answer for every finished position it indexes (the solver writes it and
    /// `verify` checks it), and the test's unpredictable branches, made for every probe, would
    /// throw away the table reads a batch has in flight each time one is mispredicted.
    ///
    /// A position its table leaves out is [`Pending::Search`] where `defer` (the caller
    /// searches), and searched now otherwise.
    #[inline]
    fn start_probe(&self, pos: &Position<D>, defer: bool) -> Pending<'_> {
        let over = || terminal_value(self.domain.game(), pos);
        match self
            .domain
            .locate(pos)
            .and_then(|(key, index)| Ok((self.found(key)?, index)))
        {
            Ok((table, index)) => {
                if table.omits() && self.domain.omits(pos) {
                    return if defer {
                        Pending::Search
                    } else {
                        Pending::of(self.value_by_search(pos))
                    };
                }
                if !table.has_distances() {
                    // Such a table says "lost" where the rules say "lost now".
                    if let Some(v) = over() {
                        return Pending::of(v);
                    }
                }
                table.prefetch(index);
                Pending::Read(table, index)
            }
            // Cannot arise whatever the rules say of it: `B:W:B` has White just moved without a
            // piece, as `B:W:B1` has, though Black has no move there.
            Err(ProbeError::CannotArise) => Pending::of(Err(ProbeError::CannotArise)),
            // Whatever the rules would say of it is of another position.
            Err(e @ ProbeError::NotAPosition(_)) => Pending::of(Err(e)),
            // Located, so a position of the rules.
            Err(e @ ProbeError::MissingTable { .. }) => Pending::of(over().unwrap_or(Err(e))),
            // The whole check only here, off the probes' path: a position whose counts make no
            // subspace may be one the rules refuse, whose end would be another's.
            Err(e) => Pending::of(
                self.domain
                    .check_position(pos)
                    .and_then(|()| over().unwrap_or(Err(e))),
            ),
        }
    }

    /// The value of a position its table leaves out ([`Domain::omits`]): the best of its
    /// successors' values, each probed in turn (and searched again where left out too; every
    /// such step goes to fewer pieces, so the search ends).
    #[cold]
    fn value_by_search(&self, pos: &Position<D>) -> Result<Value, ProbeError> {
        search_successors(self.domain.game(), pos, |next| self.probe(next))
    }

    /// Like [`Tablebase::probe`], but `None` when the table is missing.
    pub fn get(&self, pos: &Position<D>) -> Result<Option<Value>, ProbeError> {
        match self.probe(pos) {
            Ok(v) => Ok(Some(v)),
            Err(ProbeError::MissingTable { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Every legal move of `pos` with its value, best first (quickest win, then draws, then
    /// the slowest loss); moves of equal value keep the generator's order.
    pub fn move_values(&self, pos: &Position<D>) -> Result<Vec<MoveValue<Move<D>>>, ProbeError> {
        self.domain.check_position(pos)?;
        let game = self.domain.game();
        let mut moves = Vec::new();
        let mut error = None;
        let mut touched = Touched::default();
        game.for_each_move(pos, |mv| {
            if error.is_some() {
                return;
            }
            let next = game.play(pos, mv);
            let value = self
                .start_probe(&next, false)
                .finish(&mut touched)
                .unwrap_or_else(|| self.value_by_search(&next));
            match value {
                Ok(v) => moves.push(MoveValue {
                    mv: *mv,
                    value: v.before(),
                }),
                Err(e) => error = Some(e),
            }
        });
        if let Some(e) = error {
            return Err(e);
        }
        touched.check()?;
        moves.sort_by_key(|m| std::cmp::Reverse(m.value.rank_key()));
        Ok(moves)
    }

    /// The moves that keep the best value of `pos`.
    pub fn best_moves(&self, pos: &Position<D>) -> Result<Vec<MoveValue<Move<D>>>, ProbeError> {
        let mut moves = self.move_values(pos)?;
        if let Some(best) = moves.first().map(|m| m.value.rank_key()) {
            moves.retain(|m| m.value.rank_key() == best);
        }
        Ok(moves)
    }

    /// A line of best moves (the first of each position's best moves) until the game is over,
    /// or `max_plies` for a draw or a table without distances.
    pub fn principal_variation(
        &self,
        pos: &Position<D>,
        max_plies: usize,
    ) -> Result<Vec<Move<D>>, ProbeError> {
        self.domain.check_position(pos)?;
        let game = self.domain.game();
        let mut line = Vec::new();
        let mut current = *pos;
        while line.len() < max_plies && game.outcome(&current).is_none() {
            let Some(best) = self.best_moves(&current)?.into_iter().next() else {
                break;
            };
            line.push(best.mv);
            current = game.play(&current, &best.mv);
        }
        Ok(line)
    }

    /// Checks every table opened so far as [`Table::check_intact`] does, now: queries look
    /// at a file's length and time once per [`crate::CHECK_INTERVAL`] only, so a caller who
    /// must know that no table changed on disk since it read them (at the end of a long
    /// analysis, say) asks here.
    pub fn check_tables(&self) -> Result<(), DbError> {
        for slot in self.slots.iter().filter_map(OnceLock::get) {
            slot.table().check_intact()?;
        }
        let shared = self.tables.read().expect("table map lock");
        shared.values().try_for_each(|t| t.check_intact())
    }

    /// Checks that every subspace play from subspace `start` can reach (`start` included)
    /// has a table in some directory, so that a perfect player from `start` never meets a
    /// position it cannot value; the missing ones otherwise.
    pub fn check_covers(&self, start: D::Key) -> Result<(), MissingTables> {
        let available: std::collections::HashSet<D::Key> =
            self.available().into_iter().map(|(k, _)| k).collect();
        let missing: Vec<String> = crate::plan::plan(&self.domain, &[start])
            .into_iter()
            .flatten()
            .filter(|k| !available.contains(k))
            .map(|k| k.to_string())
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        Err(MissingTables {
            start: start.to_string(),
            missing,
            dirs: self.dirs.clone(),
        })
    }

    /// Checks the header of every table that play from `start` can reach and that has a file
    /// ([`Tablebase::check_covers`] says whether each has one): that it is a whole table of
    /// this game, rules and subspace ([`crate::format::check_file_header`]). Payloads are
    /// checked when a table is first read, as ever: this reads a few kilobytes a table.
    pub fn check_headers(&self, start: D::Key) -> Result<(), DbError> {
        for key in crate::plan::plan(&self.domain, &[start])
            .into_iter()
            .flatten()
        {
            if let Some(path) = self.find(key) {
                crate::format::check_file_header(&path, &self.expected(key))?;
            }
        }
        Ok(())
    }

    /// The subspaces with a table file in some directory (not checked yet), by key.
    #[must_use]
    pub fn available(&self) -> Vec<(D::Key, PathBuf)> {
        let mut found: Vec<(D::Key, PathBuf)> = Vec::new();
        for dir in &self.dirs {
            for (key, path) in list_tables(&self.domain, dir) {
                if !found.iter().any(|(k, _)| *k == key) {
                    found.push((key, path));
                }
            }
        }
        found.sort_by_key(|(k, _)| *k);
        found
    }
}

/// The header fields a table of `key` must carry.
pub(crate) fn expected_for<D: Domain>(domain: &D, key: D::Key) -> Expected {
    Expected {
        subspace: Some(key.to_string()),
        positions: Some(domain.size(key)),
        ..expected_of_game(domain)
    }
}

/// What every table of `domain`'s game and rules holds in its header, whatever its subspace
/// (for a check of tables found by other means than their names: a checksum manifest).
pub fn expected_of_game<D: Domain>(domain: &D) -> Expected {
    Expected {
        game_id: domain.game_id(),
        rules: domain.rules_text(),
        index_scheme: domain.index_scheme().to_owned(),
        subspace: None,
        positions: None,
        omission: domain.omission().map(str::to_owned),
    }
}

/// The tables in `dir` whose names parse as keys of `domain`.
pub(crate) fn list_tables<D: Domain>(domain: &D, dir: &Path) -> Vec<(D::Key, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().and_then(|e| e.to_str()) != Some(EXTENSION) {
            continue;
        }
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if let Some(key) = domain.parse_key(stem) {
            found.push((key, path));
        }
    }
    found.sort_by_key(|(k, _)| *k);
    found
}

/// The value of a position that is over, for the side to move; `Err(CannotArise)` if the side
/// to move has already won.
#[inline]
pub(crate) fn terminal_value<G: Game>(
    game: &G,
    pos: &G::Position,
) -> Option<Result<Value, ProbeError>> {
    let outcome = game.outcome(pos)?;
    let mover: Color = game.side_to_move(pos);
    Some(match outcome.winner {
        None => Ok(Value::DRAW),
        Some(w) if w == mover => Err(ProbeError::CannotArise),
        Some(_) => Ok(Value::decided(0)),
    })
}
