//! Retrograde analysis of one unit: the subspaces whose positions lead to each other by quiet
//! turns, solved together once everything they lead to by other turns is known.
//!
//! # Method
//!
//! Working memory is one 16-bit cell per position (the private `cells` module): a value byte and a
//! counter, changed together by one compare-and-swap.
//!
//! 1. **Initialisation** (one forward pass). Each position generates its turns. Turns that
//!    leave the unit (captures, placements) are valued at once from the tables already built
//!    (or as the end of the game); turns that stay in the unit are counted, each successor index
//!    once (two turns reaching symmetric positions count once, as the backward pass finds them
//!    once). Where the domain knows no two quiet turns of a position meet
//!    ([`Domain::quiet_turns_are_distinct`]), they are counted without being located, and
//!    where it also knows which turns are quiet and that they all stay in the unit
//!    ([`Domain::is_quiet_turn`], [`Domain::quiet_successor_keys`]), without being played.
//!    A win in one ply (a turn into a lost exit) ends a position's valuing: nothing betters it.
//!    A position with a winning exit is marked *won in d* (possibly improved later); one with
//!    a drawing exit cannot lose; otherwise the counter holds its successors in the unit and
//!    the value byte the longest loss through its exits, and a position with no successor in
//!    the unit is lost (in that longest exit loss) or drawn.
//! 2. **Layers** `d = 0, 1, 2, ...`: every position whose value is final at distance `d` is
//!    unmoved. If it is lost, each predecessor is won in `d + 1` unless it already wins sooner.
//!    If it is won, each undecided predecessor's counter drops; at zero every successor wins,
//!    and the predecessor is lost in `max(d + 1, longest exit loss)`: layers come in order,
//!    so the successor that empties the counter is the longest internal one. Layers are
//!    processed with a barrier between them, so every value written in layer `d` is the same
//!    whatever the thread schedule. A layer scans the cells for its value four at a time, in
//!    the chunks marked as holding a position decided at its distance (module `layer_chunks`:
//!    every decision marks its chunk, so the late layers of a few positions each skip the
//!    rest of the unit); where a chunk holds many of its positions the chunk's boards are
//!    walked rather than unranked; predecessors are prefetched as they are located and updated
//!    once all are. An even layer (its positions lost) may look forward instead, in whole or
//!    member by member, where that visits fewer positions (module `forward`): each open
//!    position that a turn takes into the layer is won in `d + 1`, the same cells as unmoving
//!    the losses. So may an odd layer where its wins outnumber the positions still counting
//!    enough (module `odd_forward`): each counting position whose every turn into the unit
//!    reaches a win in `d` or fewer is lost in `d + 1`, and the counters, left stale, are
//!    recounted once, before the first odd layer unmoved after. Both kinds of look are
//!    queued a few positions deep, so that the cache misses of one look's cells overlap the
//!    work of the next (module `lookahead`).
//! 3. What is still undecided can only repeat or reach draws: a draw.
//!
//! Distances are exact under optimal play (the winner the shortest way, the loser the
//! longest). With WDL-only dependencies the distances of exits are unknown and read at their
//! result's nearest end (a loss at 0 plies, a win at 1); the results stay exact, the distances
//! count plies within the unit (the unit distances that prove a WDL-only table,
//! [`crate::verify_with_unit_distances`]), and such a unit is written in the WDL-only form.
//!
//! A cell's byte holds distances up to [`MAX_DISTANCE`] plies. From two short of that on,
//! positions are kept in a *tail* beside the cells (module `tail`), with a code of their
//! distance's parity in their cells: a unit that needs more fails with
//! [`SolveError::DistanceOverflow`] if its tables hold distances, and solves on if they are
//! WDL-only (its longer unit distances are written beside the others,
//! [`crate::long_distances`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use arrayvec::ArrayVec;
use perfectplay_core::Game;
use rayon::prelude::*;

use crate::cells::{Cell, Cells, CANNOT_LOSE};
use crate::domain::Domain;
use crate::error::{ProbeError, SolveError};
use crate::table::Table;
use crate::tablebase::terminal_value;
use crate::unit_checkpoint::{Checkpoints, DoneChunks, Progress, Stage, StalePass};
use crate::value::{Packed, Value, Wdl, MAX_DISTANCE};
use tail::{Tail, TAIL_FROM};

mod forward;
mod layer_chunks;
mod lookahead;
mod odd_forward;
mod tail;

use forward::EvenLayer;
pub(crate) use forward::WinSearch;
use layer_chunks::{ChunkMarks, LayerChunks};
use lookahead::{Begun, Queue};
pub(crate) use odd_forward::CountDown;

/// The most successors in the unit one position may have.
const MAX_INTERNAL: usize = 254;
/// Positions per parallel task (a multiple of the four cells of a word).
pub(crate) const CHUNK: u64 = 1 << 14;
/// The method as unit checkpoints name it: change it whenever a change to this module makes
/// the cells at a save point other than they were, so that no checkpoint of the old method is
/// taken up.
pub(crate) const METHOD: &str = "retrograde layers, 16-bit cells, 16384-position chunks: 1";
/// How many positions walking a chunk visits in the time of one unranking: a layer walks a
/// chunk rather than unranking its positions when more than this share of it is in the layer.
const WALK_PER_UNRANK: u64 = 8;
/// Cells one task of a count over the whole unit reads.
const COUNT_BLOCK: u64 = 1 << 20;
/// The most quiet predecessors one position may have.
const MAX_PREDECESSORS: usize = 4096;

/// Progress callbacks, called from worker threads.
pub(crate) trait Observer: Sync {
    /// `n` more positions initialised.
    fn initialised(&self, n: u64);
    /// Layer `d` begins; `max` is the longest distance known so far.
    fn layer(&self, d: u32, max: u32);
    /// One more chunk of the layer under way is done.
    fn layer_chunk_done(&self) {}
}

/// A solved unit: its cells, from which each subspace's payload (distance form) is taken when
/// it is written, one at a time, so that beside the cells only one subspace's payload is in
/// memory (the largest units hold several large subspaces: Twelve Men's Morris's memories).
pub(crate) struct Solved {
    cells: Cells,
    /// Start of each member in the unit's combined index space, and the total at the end.
    offsets: Vec<u64>,
    /// The distances of the positions whose cells hold a tail code (module `tail`), by
    /// combined index.
    tail: HashMap<u64, u32>,
    /// The subspace of each member, for errors.
    subspaces: Vec<String>,
}

impl Solved {
    fn range(&self, member: usize) -> std::ops::Range<u64> {
        self.offsets[member]..self.offsets[member + 1]
    }

    /// The payload of the unit's `member`-th subspace (in the unit's order), every distance
    /// exact; [`SolveError::DistanceOverflow`] if one does not fit a byte.
    pub(crate) fn payload(&self, member: usize) -> Result<Vec<u8>, SolveError> {
        let (payload, long) = self.unit_distances(member, MAX_DISTANCE);
        if long.is_empty() {
            Ok(payload)
        } else {
            Err(SolveError::DistanceOverflow {
                subspace: self.subspaces[member].clone(),
                max: MAX_DISTANCE,
            })
        }
    }

    /// The payload of the unit's `member`-th subspace with every distance up to `exact_up_to`
    /// plies exact, and beside it the longer ones by index in the subspace, in order: their
    /// bytes hold the code of their parity at `exact_up_to - 1` or `exact_up_to` (module
    /// `tail`), the form of a unit-distance file ([`crate::long_distances`]).
    pub(crate) fn unit_distances(
        &self,
        member: usize,
        exact_up_to: u32,
    ) -> (Vec<u8>, Vec<(u64, u32)>) {
        let range = self.range(member);
        let mut payload = self.cells.payload(range.clone());
        let mut long: Vec<(u64, u32)> = self
            .tail
            .iter()
            .filter(|(g, _)| range.contains(g))
            .map(|(&g, &plies)| (g - range.start, plies))
            .collect();
        long.sort_unstable();
        for &(index, plies) in &long {
            payload[index as usize] = tail::code_from(exact_up_to - 1, plies).0;
        }
        long.retain(|&(_, plies)| plies > exact_up_to);
        (payload, long)
    }

    /// The 2-bit (WDL) payload of the unit's `member`-th subspace, with the histogram of its
    /// byte payload, made without the byte payload.
    pub(crate) fn wdl_payload(&self, member: usize) -> ([u64; 256], Vec<u8>) {
        // A tail code has its distance's parity: the WDL payload needs no patch.
        self.cells.wdl_payload(self.range(member))
    }
}

/// One unit being solved.
pub(crate) struct UnitSolver<'a, D: Domain> {
    domain: &'a D,
    keys: &'a [D::Key],
    /// Start of each member in the unit's combined index space, and the total at the end.
    offsets: Vec<u64>,
    /// Tables of the subspaces the unit's exits lead to, by key.
    exits: Vec<(D::Key, Arc<Table>)>,
    /// For each exit, in `exits`' order, the one result its table holds, where it holds one
    /// ([`Table::sole_result`]): a successor there is valued by its subspace alone, without an
    /// index or a read. Where one side is far ahead, most exits are such tables, and locating
    /// successors in them was a third of the first pass.
    sole_by_exit: Vec<Option<Wdl>>,
    /// The same by key slot ([`Domain::key_slot`]); empty where no exit holds one result, or
    /// the domain numbers no slots, or too many, or none for some exit (`sole_by_exit` is
    /// searched then).
    sole_by_slot: Vec<Option<Wdl>>,
    /// Whether some exit's table holds one result.
    any_sole: bool,
    cells: Cells,
    /// For each key slot ([`Domain::key_slot`]), the member with that key or [`NO_MEMBER`];
    /// empty where the domain numbers no slots, or too many, and members are searched. Every
    /// turn and turn back located asks which member holds its subspace.
    member_by_slot: Vec<u16>,
    /// For each member: whether every subspace its quiet turns lead to is in the unit
    /// ([`Domain::quiet_successor_keys`]), so that the first pass counts those turns unplayed.
    quiet_stay: Vec<bool>,
    /// For each member: the members a turn from it may lead to ([`Domain::successor_keys`]).
    successor_members: Vec<Vec<usize>>,
    /// How even layers find the positions their losses win for (module `forward`).
    win_search: WinSearch,
    /// How odd layers count down (module `odd_forward`).
    count_down: CountDown,
    max_plies: AtomicU32,
    /// Positions decided at each distance under the tail's.
    layer_counts: Vec<AtomicU64>,
    /// Positions decided at the longest distances (module `tail`).
    tail: Tail,
    /// Whether a distance past [`MAX_DISTANCE`] is solved on (in the tail), as a unit whose
    /// tables are WDL-only can; else it fails the unit with [`SolveError::DistanceOverflow`].
    long_distances: bool,
    /// Which chunks hold positions decided at each distance (module `layer_chunks`).
    layer_chunks: LayerChunks,
    error: Mutex<Option<SolveError>>,
    failed: AtomicBool,
    cancel: Option<&'a AtomicBool>,
    /// The chunks of the pass under way that are done, a bit each: a stopped pass is saved
    /// with them, and a pass taken up skips them.
    done: Vec<AtomicU64>,
    /// Whether a chunk has ended since the unit began, was taken up or was last saved: a unit
    /// stopped without one is where its checkpoint (or its start) has it, and is not saved
    /// again (a large unit's save is gigabytes, and a stop soon after taking it up would write
    /// the same state twice).
    changed: AtomicBool,
}

/// A key slot no member of the unit has.
const NO_MEMBER: u16 = u16::MAX;
/// The most key slots numbered for [`UnitSolver::member`]'s table (128 KiB of it).
const MAX_MEMBER_SLOTS: usize = 1 << 16;

/// The most reads in the exits' tables one position gathers before making them. A position's
/// first read is made at once, then 2, 4 and this many at a time: enough to overlap their
/// cache misses, few enough that a win found among them (a turn into a lost position, which no
/// other turn betters) spares locating the position's turns left.
const EXIT_READS: usize = 8;

/// `values[i]` at the key slot ([`Domain::key_slot`]) of the `i`-th of `keys`, `none` at every
/// other slot; empty where the domain numbers more than [`MAX_MEMBER_SLOTS`] slots or some key
/// has none (its users search a list then).
fn by_key_slot<D: Domain, T: Copy>(
    domain: &D,
    keys: impl Iterator<Item = D::Key>,
    values: &[T],
    none: T,
) -> Vec<T> {
    let slots = domain.key_slots();
    if slots > MAX_MEMBER_SLOTS {
        return Vec::new();
    }
    let numbered: Option<Vec<usize>> = keys.map(|k| domain.key_slot(k)).collect();
    let Some(numbered) = numbered else {
        return Vec::new();
    };
    let mut table = vec![none; slots];
    for (slot, &value) in numbered.into_iter().zip(values) {
        table[slot] = value;
    }
    table
}

/// Sorts `indices` and drops the repeats.
fn sort_distinct<const N: usize>(indices: &mut ArrayVec<u64, N>) {
    indices.sort_unstable();
    let mut last = None;
    indices.retain(|q| last.replace(*q) != Some(*q));
}

/// Where a successor's value comes from.
enum Successor {
    /// Known at once: the game is over there.
    Value(Value),
    /// The cell of this combined index in the unit.
    Internal(u64),
    /// This index of the table of `exits[.0]`.
    Exit(usize, u64),
}

/// What a position's successors add up to.
#[derive(Default)]
struct Exits {
    /// The shortest win through a successor lost for its mover.
    best_win: Option<u32>,
    /// Whether some successor is drawn.
    draw: bool,
    /// The longest loss through successors won for their movers.
    longest_loss: Option<u32>,
    /// Successors in the unit, as combined indices, where two turns may reach one index.
    internal: ArrayVec<u64, MAX_INTERNAL>,
    /// Successors in the unit known to be distinct, not located.
    distinct: u32,
    /// More successors in the unit than the counter holds.
    overflow: bool,
}

impl Exits {
    fn add(&mut self, v: Value) {
        // A WDL-only table gives no distance. The parity of a distance is what says who wins
        // (odd: the mover), so such a successor counts as the nearest end of its result, a
        // loss at 0 plies or a win at 1: a position whose every turn leads to a win read so
        // is lost at 2 plies, not "at 1", which would read as a win.
        let plies = v.plies.unwrap_or(match v.wdl {
            Wdl::Win => 1,
            Wdl::Draw | Wdl::Loss => 0,
        }) + 1;
        match v.wdl {
            Wdl::Loss => self.best_win = Some(self.best_win.map_or(plies, |b| b.min(plies))),
            Wdl::Draw => self.draw = true,
            Wdl::Win => self.longest_loss = Some(self.longest_loss.map_or(plies, |l| l.max(plies))),
        }
    }
}

type Pos<D> = <<D as Domain>::Game as Game>::Position;

impl<'a, D: Domain> UnitSolver<'a, D> {
    /// A solver for `keys` whose exits lead to `exits`; `cancel` stops it between tasks.
    pub(crate) fn new(
        domain: &'a D,
        keys: &'a [D::Key],
        mut exits: Vec<(D::Key, Arc<Table>)>,
        cancel: Option<&'a AtomicBool>,
    ) -> Result<UnitSolver<'a, D>, SolveError> {
        // Sorted for a binary search: a checkers unit reads dozens of tables.
        exits.sort_by_key(|(k, _)| *k);
        let sole_by_exit: Vec<Option<Wdl>> = exits.iter().map(|(_, t)| t.sole_result()).collect();
        let any_sole = sole_by_exit.iter().any(Option::is_some);
        let sole_by_slot = if any_sole {
            by_key_slot(domain, exits.iter().map(|&(k, _)| k), &sole_by_exit, None)
        } else {
            Vec::new()
        };
        let mut offsets = vec![0u64];
        for &k in keys {
            offsets.push(offsets.last().copied().unwrap_or(0) + domain.size(k));
        }
        let total = *offsets.last().unwrap_or(&0);
        let cells = Cells::new(total).map_err(|source| SolveError::Memory {
            subspace: keys.first().map(ToString::to_string).unwrap_or_default(),
            bytes: total * 2,
            source,
        })?;
        let member_by_slot = if keys.len() < usize::from(NO_MEMBER) {
            let members: Vec<u16> = (0..keys.len() as u16).collect();
            by_key_slot(domain, keys.iter().copied(), &members, NO_MEMBER)
        } else {
            Vec::new()
        };
        let quiet_stay = keys
            .iter()
            .map(|&k| {
                domain
                    .quiet_successor_keys(k)
                    .is_some_and(|next| next.iter().all(|n| keys.contains(n)))
            })
            .collect();
        let successor_members = keys
            .iter()
            .map(|&k| {
                let next = domain.successor_keys(k);
                (0..keys.len())
                    .filter(|&s| next.contains(&keys[s]))
                    .collect()
            })
            .collect();
        Ok(UnitSolver {
            domain,
            keys,
            offsets,
            exits,
            sole_by_exit,
            sole_by_slot,
            any_sole,
            cells,
            member_by_slot,
            quiet_stay,
            successor_members,
            win_search: WinSearch::default(),
            count_down: CountDown::default(),
            max_plies: AtomicU32::new(0),
            layer_counts: (0..=MAX_DISTANCE + 1).map(|_| AtomicU64::new(0)).collect(),
            tail: Tail::new(TAIL_FROM),
            long_distances: false,
            layer_chunks: LayerChunks::new(total.div_ceil(CHUNK)),
            error: Mutex::new(None),
            failed: AtomicBool::new(false),
            cancel,
            done: (0..total.div_ceil(CHUNK).div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
            changed: AtomicBool::new(false),
        })
    }

    /// The bytes of memory a unit of `positions` positions whose largest subspace has `largest`
    /// takes at peak: a 2-byte cell per position while solving, then beside the cells the
    /// payload of one subspace at a time (a byte per position, or its 2-bit form alone with
    /// `wdl_only`).
    pub(crate) fn working_bytes(positions: u64, largest: u64, wdl_only: bool) -> u64 {
        2 * positions
            + if wdl_only {
                largest.div_ceil(4)
            } else {
                largest
            }
    }

    /// The same solver with even layers found `win_search`'s way (tests: every way writes the
    /// same cells).
    #[cfg(test)]
    pub(crate) fn with_win_search(mut self, win_search: WinSearch) -> Self {
        self.win_search = win_search;
        self
    }

    /// The same solver with odd layers counting down `count_down`'s way (tests: every way
    /// writes the same cells).
    #[cfg(test)]
    pub(crate) fn with_count_down(mut self, count_down: CountDown) -> Self {
        self.count_down = count_down;
        self
    }

    /// The same solver, going on past [`MAX_DISTANCE`] plies (module `tail`): for a unit whose
    /// tables are WDL-only, whose distances are only its proof.
    pub(crate) fn with_long_distances(mut self) -> Self {
        self.long_distances = true;
        self
    }

    /// The same solver with its tail from `from` plies (tests: the cells and distances are the
    /// same wherever the tail begins).
    #[cfg(test)]
    pub(crate) fn with_tail_from(mut self, from: u32) -> Self {
        self.tail = Tail::new(from);
        self
    }

    /// The same solver with every exit read by its index (tests: valuing successors in tables
    /// of one result by their subspace alone writes the same cells).
    #[cfg(test)]
    pub(crate) fn without_sole_exits(mut self) -> Self {
        self.any_sole = false;
        self
    }

    /// The same solver finding exits of one result by searching the exits, not by key slot
    /// (tests: both ways write the same cells).
    #[cfg(test)]
    pub(crate) fn with_sole_exits_searched(mut self) -> Self {
        self.sole_by_slot.clear();
        self
    }

    fn total(&self) -> u64 {
        *self.offsets.last().unwrap_or(&0)
    }

    fn member_of(&self, g: u64) -> (usize, u64) {
        let m = self.offsets[1..].partition_point(|&end| end <= g);
        (m, g - self.offsets[m])
    }

    #[inline]
    fn member(&self, key: D::Key) -> Option<usize> {
        if !self.member_by_slot.is_empty() {
            if let Some(slot) = self.domain.key_slot(key) {
                let m = self.member_by_slot[slot];
                debug_assert_eq!(
                    (m != NO_MEMBER).then_some(usize::from(m)),
                    self.keys.iter().position(|&k| k == key)
                );
                return (m != NO_MEMBER).then_some(usize::from(m));
            }
        }
        self.keys.iter().position(|&k| k == key)
    }

    /// The value of a successor in subspace `key` where that is an exit whose table holds one
    /// result ([`Table::sole_result`]).
    #[inline]
    fn sole_value(&self, key: D::Key) -> Option<Value> {
        let wdl = if self.sole_by_slot.is_empty() {
            self.sole_by_exit[self.exit_table(key)?]
        } else {
            *self.sole_by_slot.get(self.domain.key_slot(key)?)?
        }?;
        Some(Value::wdl_only(wdl))
    }

    fn fail(&self, e: SolveError) {
        self.failed.store(true, Ordering::Relaxed);
        let mut slot = self.error.lock().expect("error lock");
        if slot.is_none() {
            *slot = Some(e);
        }
    }

    fn stopped(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
            || self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }

    fn subspace(&self, g: u64) -> String {
        self.keys[self.member_of(g).0].to_string()
    }

    fn inconsistent(&self, g: u64, detail: impl Into<String>) -> SolveError {
        SolveError::Inconsistent {
            subspace: self.subspace(g),
            detail: detail.into(),
        }
    }

    fn position(&self, g: u64) -> Pos<D> {
        let (m, i) = self.member_of(g);
        self.domain.unrank(self.keys[m], i)
    }

    /// Runs `task` on each of the unit's `chunks` (numbered from 0, [`CHUNK`] positions each;
    /// a task each, as module `tasks` makes them) not yet done in this pass, in parallel, with
    /// a per-chunk count of the distances written, and marks each done as it ends; the first
    /// error stops the others, and so does a cancel, between chunks. Returns whether every
    /// chunk ran to its end: a pass cut short by an error or a cancel is not whole, whatever
    /// the flags say afterwards.
    #[must_use]
    fn for_each_chunk<F>(&self, chunks: impl ParallelIterator<Item = u64>, task: F) -> bool
    where
        F: Fn(std::ops::Range<u64>, &mut [u64; 256]) -> Result<(), SolveError> + Sync,
    {
        let cut = AtomicBool::new(false);
        chunks.for_each(|c| {
            if self.is_done(c) {
                return;
            }
            if self.stopped() {
                cut.store(true, Ordering::Relaxed);
                return;
            }
            let start = c * CHUNK;
            let mut local = [0u64; 256];
            match task(start..(start + CHUNK).min(self.total()), &mut local) {
                Ok(()) => {
                    self.merge_counts(&local);
                    self.mark_done(c);
                    self.changed.store(true, Ordering::Relaxed);
                }
                Err(e) => {
                    cut.store(true, Ordering::Relaxed);
                    self.fail(e);
                }
            }
        });
        !cut.load(Ordering::Relaxed)
    }

    fn is_done(&self, chunk: u64) -> bool {
        self.done[(chunk / 64) as usize].load(Ordering::Relaxed) >> (chunk % 64) & 1 == 1
    }

    fn mark_done(&self, chunk: u64) {
        self.done[(chunk / 64) as usize].fetch_or(1 << (chunk % 64), Ordering::Relaxed);
    }

    /// Whether no chunk of the pass under way is done.
    fn none_done(&self) -> bool {
        self.done
            .iter()
            .all(|word| word.load(Ordering::Relaxed) == 0)
    }

    /// The chunks done in the pass under way.
    fn done_chunks(&self) -> DoneChunks {
        DoneChunks::from_flags(self.total().div_ceil(CHUNK), |c| self.is_done(c))
    }

    /// A new pass: no chunk of it done.
    fn clear_done(&self) {
        for word in &self.done {
            word.store(0, Ordering::Relaxed);
        }
    }

    /// After a pass: its error, if it had one; else, if it was cut short (`whole` false) by a
    /// cancel, the state saved as `stage` (when `checkpoints` save a stopped unit) and
    /// `Interrupted`.
    fn finished(
        &self,
        whole: bool,
        checkpoints: Option<&mut Checkpoints>,
        stage: impl FnOnce() -> Stage,
    ) -> Result<(), SolveError> {
        if let Some(e) = self.error.lock().expect("error lock").take() {
            return Err(e);
        }
        if whole {
            return Ok(());
        }
        // No error, so every chunk of the pass ran to its end or was not begun: a whole state,
        // unless the tail holds a distance its cell does not say, which a checkpoint would lose
        // (module `tail`): the last checkpoint stays then, taken before.
        if let Some(checkpoints) = checkpoints
            .filter(|c| c.saves_when_stopped())
            .filter(|_| self.tail.is_exact())
        {
            if self.changed.load(Ordering::Relaxed) {
                checkpoints
                    .save(&self.progress(stage()), &self.cells)
                    .map_err(|source| SolveError::InterruptedUnsaved { source })?;
            }
        }
        Err(SolveError::Interrupted)
    }

    /// Calls `visit` with the member, index and position of each combined index of `range`, in
    /// order, walking the boards rather than unranking them; stops at the first error.
    fn walk<F>(&self, range: std::ops::Range<u64>, mut visit: F) -> Result<(), SolveError>
    where
        F: FnMut(usize, u64, &Pos<D>) -> Result<(), SolveError>,
    {
        for (m, part) in self.member_parts(range) {
            let first = self.offsets[m];
            let mut result = Ok(());
            self.domain.for_each_position(
                self.keys[m],
                part.start - first..part.end - first,
                |i, pos| {
                    if result.is_ok() {
                        result = visit(m, i, pos);
                    }
                },
            );
            result?;
        }
        Ok(())
    }

    /// Calls `visit` with the member, combined index and board of each position of chunk
    /// `range` that `marks` holds, in order: unranking each where they are few (the late layers
    /// of a unit are a few positions spread over every chunk, and testing each index of each
    /// chunk cost them more than scanning the cells did), walking the chunk's boards in order
    /// where they are many.
    fn visit_marked<F>(
        &self,
        range: std::ops::Range<u64>,
        marks: &ChunkMarks,
        mut visit: F,
    ) -> Result<(), SolveError>
    where
        F: FnMut(usize, u64, &Pos<D>) -> Result<(), SolveError>,
    {
        if marks.count() * WALK_PER_UNRANK < range.end - range.start {
            for g in marks.indices() {
                visit(self.member_of(g).0, g, &self.position(g))?;
            }
            Ok(())
        } else {
            self.walk(range, |m, i, pos| {
                let g = self.offsets[m] + i;
                if marks.has(g) {
                    visit(m, g, pos)
                } else {
                    Ok(())
                }
            })
        }
    }

    /// `count` of each block of the unit's cells ([`COUNT_BLOCK`] each), in parallel, added
    /// up by `add` from `zero`.
    fn count_cells<T: Send>(
        &self,
        zero: impl Fn() -> T + Sync + Send,
        count: impl Fn(std::ops::Range<u64>) -> T + Sync + Send,
        add: impl Fn(T, T) -> T + Sync + Send,
    ) -> T {
        let total = self.total();
        (0..total.div_ceil(COUNT_BLOCK))
            .into_par_iter()
            .map(|b| count(b * COUNT_BLOCK..((b + 1) * COUNT_BLOCK).min(total)))
            .reduce(zero, add)
    }

    /// The members `range` (of combined indices) overlaps, each with its part of `range`, in
    /// order.
    fn member_parts(
        &self,
        range: std::ops::Range<u64>,
    ) -> impl Iterator<Item = (usize, std::ops::Range<u64>)> + '_ {
        (0..self.keys.len()).filter_map(move |m| {
            let part = range.start.max(self.offsets[m])..range.end.min(self.offsets[m + 1]);
            (part.start < part.end).then_some((m, part))
        })
    }

    /// Solves the unit. With `checkpoints`, takes it up where a checkpoint left it, if there
    /// is one, saves one now and then, and one when the unit is stopped (module
    /// `unit_checkpoint`).
    pub(crate) fn run(
        self,
        observer: &dyn Observer,
        mut checkpoints: Option<&mut Checkpoints>,
    ) -> Result<Solved, SolveError> {
        // Where a checkpoint leaves the unit: the chunks done of the pass it was in are marked.
        let (mut d, mut stale, mut taken_up) = match self.resume(checkpoints.as_deref_mut())? {
            None | Some(Stage::Initialising { .. }) => {
                self.initialise_all(observer, checkpoints.as_deref_mut())?;
                (0, false, None)
            }
            Some(Stage::Layers { next, .. }) => (next, false, None),
            Some(Stage::Stale { next, pass, .. }) => (next, true, pass),
        };
        // A unit recounts once: after that, odd layers are unmoved (module `odd_forward`).
        let mut recounted = false;
        // The stage of layer `next` with the chunks done of its pass `pass`, as the counters
        // stand.
        let stage = |stale: bool, next: u32, done: DoneChunks, pass: Option<StalePass>| {
            if stale {
                Stage::Stale { next, done, pass }
            } else {
                Stage::Layers { next, done }
            }
        };
        while d <= self.max_plies.load(Ordering::Relaxed) {
            // What the chunks done of the layer taken up did: that layer only.
            let pass = taken_up.take();
            if self.tail.holds(d) {
                // The tail's layers save nothing (a stop there goes on from the last save): the
                // closures are never called.
                let no_stage = || unreachable!("no checkpoint is saved in the tail's layers");
                if self.tail.has_layer(d) {
                    observer.layer(d, self.max_plies.load(Ordering::Relaxed));
                    if stale && !d.is_multiple_of(2) {
                        // A forward pass taken up (an earlier build looked forward here) is
                        // done again by unmoving: its chunks done say nothing of the counts.
                        if matches!(pass, Some(StalePass::Forward)) {
                            self.clear_done();
                        }
                        let whole = self.recount(d, observer);
                        self.finished(whole, None, no_stage)?;
                        self.clear_done();
                        stale = false;
                    }
                    let whole = self.tail_layer(d, observer);
                    self.finished(whole, None, no_stage)?;
                }
                self.clear_done();
                d += 1;
                continue;
            }
            if self.layer_counts[d as usize].load(Ordering::Relaxed) > 0 {
                observer.layer(d, self.max_plies.load(Ordering::Relaxed));
                let forward = !d.is_multiple_of(2)
                    && match pass {
                        Some(StalePass::Forward) => true,
                        Some(StalePass::Recount) => false,
                        // A layer taken up with chunks done, and no pass named, was being
                        // unmoved: its chunks done hold wins unmoved, not positions looked at.
                        None => !recounted && self.none_done() && self.looks_forward(d),
                    };
                if forward {
                    let whole = self.odd_layer_forward(d, observer);
                    stale = true;
                    self.finished(whole, checkpoints.as_deref_mut(), || {
                        stage(true, d, self.done_chunks(), Some(StalePass::Forward))
                    })?;
                } else {
                    if stale && !d.is_multiple_of(2) {
                        let whole = self.recount(d, observer);
                        self.finished(whole, checkpoints.as_deref_mut(), || {
                            stage(true, d, self.done_chunks(), Some(StalePass::Recount))
                        })?;
                        self.clear_done();
                        stale = false;
                        recounted = true;
                    }
                    let split = d
                        .is_multiple_of(2)
                        .then(|| self.split_even_layer(d))
                        .flatten();
                    if split.is_some() {
                        // Chunks marked done by a checkpoint are those of a layer that unmoved
                        // every loss: they say nothing of the open positions in them.
                        self.clear_done();
                    }
                    let whole = self.layer(d, split.as_ref(), observer);
                    // A split layer cut short is saved as not begun (module `forward`).
                    self.finished(whole, checkpoints.as_deref_mut(), || {
                        let done = match split {
                            Some(_) => DoneChunks::default(),
                            None => self.done_chunks(),
                        };
                        stage(stale, d, done, None)
                    })?;
                }
                // After the last layer only the tables are left to write: nothing to save.
                if d < self.max_plies.load(Ordering::Relaxed) {
                    self.save_if_due(
                        checkpoints.as_deref_mut(),
                        stage(stale, d + 1, DoneChunks::default(), None),
                    );
                }
            }
            // The next layer is a new pass. (A layer taken up with chunks done always has
            // positions: a checkpoint saying otherwise is refused as implausible.)
            self.clear_done();
            d += 1;
        }

        let subspaces = self.keys.iter().map(ToString::to_string).collect();
        let UnitSolver {
            cells,
            offsets,
            tail,
            ..
        } = self;
        Ok(Solved {
            cells,
            offsets,
            tail: tail.into_distances(),
            subspaces,
        })
    }

    /// The first pass, in segments between which a checkpoint may be saved; the chunks marked
    /// done (by a checkpoint taken up) are skipped.
    fn initialise_all(
        &self,
        observer: &dyn Observer,
        mut checkpoints: Option<&mut Checkpoints>,
    ) -> Result<(), SolveError> {
        let chunks = self.total().div_ceil(CHUNK);
        let done: u64 = self
            .done_chunks()
            .iter()
            .map(|c| (c * CHUNK + CHUNK).min(self.total()) - c * CHUNK)
            .sum();
        if done > 0 {
            observer.initialised(done);
        }
        let segment = checkpoints
            .as_ref()
            .map_or(chunks, |c| c.segment_chunks)
            .max(1);
        let mut start = 0;
        while start < chunks {
            let end = (start + segment).min(chunks);
            let segment_chunks = crate::tasks::each_chunk(start..end);
            let whole = self.for_each_chunk(segment_chunks, |range, local| {
                let mut run: ArrayVec<Cell, { CHUNK as usize }> = ArrayVec::new();
                self.walk(range.clone(), |m, i, pos| {
                    run.push(self.initialise(m, i, pos, local)?);
                    Ok(())
                })?;
                self.cells.store_run(range.start, &run);
                observer.initialised(range.end - range.start);
                Ok(())
            });
            self.finished(whole, checkpoints.as_deref_mut(), || Stage::Initialising {
                done: self.done_chunks(),
            })?;
            start = end;
            let stage = if end < chunks {
                Stage::Initialising {
                    done: self.done_chunks(),
                }
            } else {
                Stage::Layers {
                    next: 0,
                    done: DoneChunks::default(),
                }
            };
            self.save_if_due(checkpoints.as_deref_mut(), stage);
        }
        self.clear_done();
        Ok(())
    }

    /// Loads the unit's checkpoint, if it has one, into the cells and the counts; returns
    /// where it stands.
    fn resume(&self, checkpoints: Option<&mut Checkpoints>) -> Result<Option<Stage>, SolveError> {
        let Some(checkpoints) = checkpoints else {
            return Ok(None);
        };
        let refused = |source| SolveError::UnitCheckpoint { source };
        let Some(progress) = checkpoints.load(&self.cells).map_err(refused)? else {
            return Ok(None);
        };
        self.max_plies.store(progress.max_plies, Ordering::Relaxed);
        for (count, &n) in self.layer_counts.iter().zip(&progress.layer_counts) {
            count.store(n, Ordering::Relaxed);
        }
        let (Stage::Initialising { done } | Stage::Layers { done, .. } | Stage::Stale { done, .. }) =
            &progress.stage;
        for c in done.iter() {
            self.mark_done(c);
        }
        // The checkpoint's decisions were made by another process: their layers' chunks are
        // marked from the cells (the chunks not yet initialised hold no decided distance).
        crate::tasks::each_chunk(0..self.total().div_ceil(CHUNK))
            .for_each(|c| self.layer_chunks.mark_decided(&self.cells, c));
        // So are its positions in the tail, whose cells hold their distances exactly (a
        // checkpoint is saved only then: module `tail`).
        crate::tasks::each_chunk(0..self.total().div_ceil(CHUNK)).for_each(|c| {
            let range = c * CHUNK..((c + 1) * CHUNK).min(self.total());
            for plies in [self.tail.from(), self.tail.from() + 1] {
                let code = Packed::decided(plies).expect("a tail code fits a byte").0;
                let _ = self.cells.for_each_decided(range.clone(), code, |g| {
                    self.tail.note(g, plies);
                    Ok::<(), std::convert::Infallible>(())
                });
            }
        });
        Ok(Some(progress.stage))
    }

    /// Saves a checkpoint at `stage` if one is due.
    fn save_if_due(&self, checkpoints: Option<&mut Checkpoints>, stage: Stage) {
        // Nothing new since the last save (or the checkpoint taken up): the same state again.
        // Nor a state whose cells do not say the tail's distances (module `tail`).
        if !self.changed.load(Ordering::Relaxed) || !self.tail.is_exact() {
            return;
        }
        let Some(checkpoints) = checkpoints.filter(|c| c.due()) else {
            return;
        };
        if checkpoints.save_or_note(&self.progress(stage), &self.cells) {
            self.changed.store(false, Ordering::Relaxed);
        }
    }

    /// The unit's state at `stage`, beside its cells.
    fn progress(&self, stage: Stage) -> Progress {
        Progress {
            stage,
            max_plies: self.max_plies.load(Ordering::Relaxed),
            layer_counts: self
                .layer_counts
                .iter()
                .map(|n| n.load(Ordering::Relaxed))
                .collect(),
        }
    }

    fn merge_counts(&self, local: &[u64; 256]) {
        for (d, &n) in local.iter().enumerate() {
            if n > 0 {
                self.layer_counts[d].fetch_add(n, Ordering::Relaxed);
                self.max_plies.fetch_max(d as u32, Ordering::Relaxed);
            }
        }
    }

    /// The byte of a position decided at `plies`: the distance or its tail code (module `tail`).
    fn packed(&self, g: u64, plies: u32) -> Result<Packed, SolveError> {
        self.fitting(plies)
            .ok_or_else(|| SolveError::DistanceOverflow {
                subspace: self.subspace(g),
                max: MAX_DISTANCE,
            })
    }

    /// [`UnitSolver::packed`] where `plies` may be solved, without the error.
    #[inline]
    fn fitting(&self, plies: u32) -> Option<Packed> {
        (plies <= MAX_DISTANCE || self.long_distances).then(|| self.tail.code(plies))
    }

    /// Values every successor of `pos` that leaves the unit; counts the others, or collects
    /// them as combined indices where two turns may reach the same index.
    ///
    /// A successor in the unit is valued by its own cell, even when the game ends there (it is
    /// then decided at initialisation and reaches `pos` through the layers), so it costs no
    /// end-of-game test and, usually, no index; one located in an exit's table is read there,
    /// with no such test either ([`Self::successor`]).
    ///
    /// `exits` is filled in place: it holds an array of indices, too large to return by value
    /// once per position.
    ///
    /// `quiet_stay`: every subspace the position's quiet turns lead to is in the unit.
    fn exits(
        &self,
        g: u64,
        pos: &Pos<D>,
        quiet_stay: bool,
        exits: &mut Exits,
    ) -> Result<(), SolveError> {
        let game = self.domain.game();
        let distinct = self.domain.quiet_turns_are_distinct(pos);
        // Counted unplayed: every turn that keeps the material stays in the unit.
        let count_quiet = distinct && quiet_stay;
        let mut error: Option<SolveError> = None;
        // Reads in the exits' tables, prefetched as they are located and made in batches
        // (`EXIT_READS`) and at the end, so that their cache misses overlap.
        let mut reads: ArrayVec<(usize, u64), EXIT_READS> = ArrayVec::new();
        let mut batch = 1;
        // Successors that keep the men of the side to move there share a part of locating:
        // see `Domain::locate_near`.
        let mut memo = D::LocateMemo::default();
        let mut on_turn = |mv: &<D::Game as Game>::Move| {
            // A win in one ply is the best a position can have: its other turns change
            // nothing, whether they stay in the unit or leave it.
            if error.is_some() || exits.best_win == Some(1) {
                return;
            }
            if count_quiet && self.domain.is_quiet_turn(pos, mv) {
                debug_assert!(
                    self.domain
                        .subspace_of(&game.play(pos, mv))
                        .and_then(|k| self.member(k))
                        .is_some(),
                    "a quiet turn leaves the unit"
                );
                exits.distinct += 1;
                return;
            }
            // Played on a copy in place: see `verify::recompute`.
            let mut next = *pos;
            game.play_in_place(&mut next, mv);
            // Where some exit's table holds one result, the subspace comes first: a successor
            // in such a table has that value, whether or not the game is over there (its table
            // holds the rules' value of such a position). One that fell on an index its table
            // says cannot arise (a fault of the index) would take that value too, where a read
            // fails: debug builds read every such successor to check.
            let subspace = self.any_sole.then(|| self.domain.subspace_of(&next));
            if let Some(v) = subspace.flatten().and_then(|k| self.sole_value(k)) {
                debug_assert_eq!(self.read_exit(&next), Some(v), "{next:?}");
                exits.add(v);
                return;
            }
            // With quiet turns counted unplayed, the turns played here (captures, mostly) leave
            // the unit: their subspace and index are found together, once. Otherwise the
            // subspace is looked up alone first, as the many successors that stay need no more
            // (and one that leaves is tested for the end of the game before it is located). A
            // position no subspace holds (where the game is over, mostly) is `None` here,
            // without the error's text.
            let located = count_quiet.then(|| self.domain.try_locate_near(&next, &mut memo));
            let key = match located {
                Some(located) => located.map(|(key, _)| key),
                None => subspace.unwrap_or_else(|| self.domain.subspace_of(&next)),
            };
            if let Some(m) = key.and_then(|k| self.member(k)) {
                if distinct {
                    exits.distinct += 1;
                    return;
                }
                // Not distinct: quiet turns are not counted unplayed, so nothing was located.
                match self.domain.locate(&next) {
                    Ok((_, index)) => {
                        if exits.internal.try_push(self.offsets[m] + index).is_err() {
                            exits.overflow = true;
                        }
                    }
                    Err(e) => {
                        error = Some(SolveError::Dependency {
                            subspace: self.subspace(g),
                            source: e,
                        })
                    }
                }
                return;
            }
            match self.successor(g, &next, located.flatten()) {
                Ok(Successor::Value(v)) => exits.add(v),
                Ok(Successor::Internal(internal)) => {
                    if exits.internal.try_push(internal).is_err() {
                        exits.overflow = true;
                    }
                }
                Ok(Successor::Exit(table, index)) => {
                    self.exits[table].1.prefetch(index);
                    reads.push((table, index));
                    // The position's first exit is read at once, then twice as many each
                    // time: where captures win (their successor lost), the first found spares
                    // locating the others.
                    if reads.len() == batch {
                        batch = (2 * batch).min(EXIT_READS);
                        if let Err(e) = self.read_exits(g, &mut reads, exits) {
                            error = Some(e);
                        }
                    }
                }
                Err(e) => error = Some(e),
            }
        };
        if count_quiet {
            // The domain may count quiet turns without generating each.
            let counted = self.domain.for_each_turn_counting_quiet(pos, &mut on_turn);
            exits.distinct += counted;
        } else {
            game.for_each_move(pos, &mut on_turn);
        }
        match error {
            Some(e) => Err(e),
            None => self.read_exits(g, &mut reads, exits),
        }
    }

    /// Makes the gathered reads in the exits' tables, adds their values to `exits`, and empties
    /// `reads`.
    fn read_exits(
        &self,
        g: u64,
        reads: &mut ArrayVec<(usize, u64), EXIT_READS>,
        exits: &mut Exits,
    ) -> Result<(), SolveError> {
        for (table, index) in reads.drain(..) {
            let (key, table) = &self.exits[table];
            match table.value(index)? {
                Some(v) => exits.add(v),
                None => {
                    return Err(self.inconsistent(g, format!("a successor in {key} cannot arise")))
                }
            }
        }
        Ok(())
    }

    /// The value the table of an exit stores for `next`, if it is located in one (debug
    /// checks).
    fn read_exit(&self, next: &Pos<D>) -> Option<Value> {
        let (key, index) = self.domain.locate(next).ok()?;
        self.exits[self.exit_table(key)?]
            .1
            .value(index)
            .ok()
            .flatten()
    }

    /// Debug builds: a successor located in an exit's table, where the game is over, is
    /// valued by that table as the end-of-game test values it.
    #[cfg(debug_assertions)]
    fn check_unplayed_end(&self, next: &Pos<D>) {
        match terminal_value(self.domain.game(), next) {
            None => {}
            // As `Exits::add` counts them: the result, and the plies where it has a distance.
            Some(Ok(v)) => debug_assert_eq!(
                self.read_exit(next).map(|r| (r.wdl, r.plies.unwrap_or(0))),
                Some((v.wdl, v.plies.unwrap_or(0))),
                "an exit's table values a finished game as the rules do: {next:?}"
            ),
            Some(Err(_)) => debug_assert_eq!(self.read_exit(next), None, "{next:?} cannot arise"),
        }
    }

    /// Where the table of `key` is in `exits`, if it is an exit of the unit.
    fn exit_table(&self, key: D::Key) -> Option<usize> {
        self.exits.binary_search_by(|(k, _)| k.cmp(&key)).ok()
    }

    /// Where successor `next` (outside the unit's quiet turns) is valued: at once (the end of
    /// the game), by its cell in the unit, or by a read in the table of an exit. `located` is
    /// its location where the caller has found it already; it is looked for again, for the
    /// error, where it was not found.
    ///
    /// A successor located in an exit's table is not tested for the end of the game: that
    /// table holds the rules' value of a position where the game is over (its unit's first
    /// pass decided it so: a loss at 0 plies, a draw, or one that cannot arise), and its read
    /// adds to [`Exits`] what the test's value would. The test is a call of `Game::outcome`
    /// for nearly every capture (BENCHMARKS.md). Debug builds compare the two.
    fn successor(
        &self,
        g: u64,
        next: &Pos<D>,
        located: Option<(D::Key, u64)>,
    ) -> Result<Successor, SolveError> {
        // The caller locates only successors that leave the unit.
        let exit = located.and_then(|(key, index)| Some((self.exit_table(key)?, index)));
        if let Some((table, index)) = exit {
            #[cfg(debug_assertions)]
            self.check_unplayed_end(next);
            return Ok(Successor::Exit(table, index));
        }
        if let Some(v) = terminal_value(self.domain.game(), next) {
            return v
                .map(Successor::Value)
                .map_err(|_| self.inconsistent(g, "a turn leads to a position won by its mover"));
        }
        let (key, index) = self
            .domain
            .locate(next)
            .map_err(|e| SolveError::Dependency {
                subspace: self.subspace(g),
                source: e,
            })?;
        if let Some(m) = self.member(key) {
            return Ok(Successor::Internal(self.offsets[m] + index));
        }
        match self.exit_table(key) {
            Some(table) => Ok(Successor::Exit(table, index)),
            None => Err(SolveError::Dependency {
                subspace: self.subspace(g),
                source: ProbeError::MissingTable {
                    subspace: key.to_string(),
                    dirs: Vec::new(),
                },
            }),
        }
    }

    /// The cell of `pos`, index `index` of member `m`: valued from its exits, or undecided with
    /// its successors in the unit counted.
    fn initialise(
        &self,
        m: usize,
        index: u64,
        pos: &Pos<D>,
        counts: &mut [u64; 256],
    ) -> Result<Cell, SolveError> {
        let g = self.offsets[m] + index;
        if self.domain.is_hole(self.keys[m], index, pos) {
            return Ok(Cell::CANNOT_ARISE);
        }
        if let Some(v) = terminal_value(self.domain.game(), pos) {
            // A finished position has no successor: nothing ever unmoves into it, and a draw
            // here is final.
            return Ok(match v {
                Ok(v) if v.wdl == Wdl::Draw => Cell::CANNOT_LOSE,
                Ok(_) => {
                    let cell = Cell::decided(self.packed(g, 0)?.0);
                    self.decided_at(g, 0, counts);
                    cell
                }
                Err(_) => Cell::CANNOT_ARISE,
            });
        }
        let mut exits = Exits::default();
        self.exits(g, pos, self.quiet_stay[m], &mut exits)?;
        if exits.overflow {
            return Err(SolveError::TooManySuccessors {
                subspace: self.subspace(g),
                max: MAX_INTERNAL as u32,
            });
        }
        if let Some(win) = exits.best_win {
            let cell = Cell::decided(self.packed(g, win)?.0);
            self.decided_at(g, win, counts);
            return Ok(cell);
        }
        if exits.draw {
            return Ok(Cell::CANNOT_LOSE);
        }
        sort_distinct(&mut exits.internal);
        let internal = exits.distinct as usize + exits.internal.len();
        let internal = u8::try_from(internal)
            .ok()
            .filter(|&n| usize::from(n) <= MAX_INTERNAL)
            .ok_or_else(|| SolveError::TooManySuccessors {
                subspace: self.subspace(g),
                max: MAX_INTERNAL as u32,
            })?;
        let exit_loss = exits.longest_loss.unwrap_or(0);
        if internal > 0 {
            // The longest exit loss is checked against the encoding when the position is lost.
            let exit_loss = u8::try_from(exit_loss).unwrap_or(u8::MAX);
            return Ok(Cell::counting(internal, exit_loss));
        }
        if exit_loss == 0 {
            return Err(self.inconsistent(g, "a position that goes on has no turn"));
        }
        let cell = Cell::decided(self.packed(g, exit_loss)?.0);
        self.decided_at(g, exit_loss, counts);
        Ok(cell)
    }

    /// Notes that combined index `g` is decided at `plies`: in the count of its distance
    /// (`counts`, the task's) and in the chunks of its layer, or in the tail.
    #[inline]
    fn decided_at(&self, g: u64, plies: u32, counts: &mut [u64; 256]) {
        if self.tail.holds(plies) {
            self.tail.note(g, plies);
            self.max_plies.fetch_max(plies, Ordering::Relaxed);
            return;
        }
        counts[plies as usize] += 1;
        self.layer_chunks.mark(plies, g);
    }

    /// Runs layer `d`: unmoves every position final at distance `d` or, for an even layer with
    /// a `split`, those of the members it unmoves, and looks forward from the open positions
    /// of the members it looks at (module `forward`).
    #[must_use]
    fn layer(&self, d: u32, split: Option<&EvenLayer>, observer: &dyn Observer) -> bool {
        let target = Packed::decided(d)
            .expect("layers stay within the encoding")
            .0;
        let lost = Cell::decided(target);
        let task = |range: std::ops::Range<u64>, local: &mut [u64; 256]| {
            // The positions of the layer unmoved, and the open ones that look forward.
            let mut unmoved = ChunkMarks::new(range.start);
            let mut looked_at = ChunkMarks::new(range.start);
            self.cells.for_each_decided(range.clone(), target, |g| {
                if split.is_none_or(|s| s.unmoves(self.member_of(g).0)) {
                    unmoved.mark(g);
                }
                Ok::<(), SolveError>(())
            })?;
            if let Some(split) = split {
                self.for_each_open(range.clone(), d, split, |g| looked_at.mark(g));
            }
            // Looks end in the order they began, a few positions later (module `lookahead`).
            let end = |look: Begun<Pos<D>>, local: &mut [u64; 256]| {
                if self.reaches(&look, lost)? {
                    self.improve_win(look.g, d + 1, local)
                } else {
                    Ok(())
                }
            };
            let mut looks = Queue::new();
            self.visit_marked(range, &unmoved.union(&looked_at), |m, g, pos| {
                if unmoved.has(g) {
                    self.unmove(g, pos, d, local)
                } else {
                    looks.push_ending(self.begin_win_look(m, g, pos)?, |oldest| end(oldest, local))
                }
            })?;
            looks.end_all(|oldest| end(oldest, local))?;
            observer.layer_chunk_done();
            Ok(())
        };
        // Unmoving every position of the layer visits the chunks that hold one; looking
        // forward from the open positions visits every chunk.
        match split {
            None => self.for_each_chunk(
                crate::tasks::each_listed(&self.layer_chunks.marked(d)),
                task,
            ),
            Some(_) => self.for_each_chunk(
                crate::tasks::each_chunk(0..self.total().div_ceil(CHUNK)),
                task,
            ),
        }
    }

    /// Runs layer `d` of the tail (module `tail`): unmoves every position decided at `d`, found
    /// from the tail's lists, chunk by chunk.
    #[must_use]
    fn tail_layer(&self, d: u32, observer: &dyn Observer) -> bool {
        let layer = self.tail.take_layer(d);
        let mut chunks: Vec<u64> = layer.iter().map(|g| g / CHUNK).collect();
        chunks.dedup();
        self.for_each_chunk(chunks.into_par_iter(), |range, local| {
            let first = layer.partition_point(|&g| g < range.start);
            for &g in layer[first..].iter().take_while(|&&g| g < range.end) {
                self.unmove(g, &self.position(g), d, local)?;
            }
            observer.layer_chunk_done();
            Ok(())
        })
    }

    fn unmove(
        &self,
        g: u64,
        pos: &Pos<D>,
        d: u32,
        counts: &mut [u64; 256],
    ) -> Result<(), SolveError> {
        let mut preds: ArrayVec<u64, MAX_PREDECESSORS> = ArrayVec::new();
        let mut overflow = false;
        let mut error = None;
        self.domain.for_each_quiet_predecessor(pos, |q| {
            if error.is_some() {
                return;
            }
            match self.domain.locate_predecessor(q) {
                Ok((key, index)) => {
                    // A predecessor in another subspace reaches this unit by a quiet turn from
                    // outside: it is solved later, forward.
                    if let Some(m) = self.member(key) {
                        let q = self.offsets[m] + index;
                        // Fetched while the next predecessors are located.
                        self.cells.prefetch(q);
                        if preds.try_push(q).is_err() {
                            overflow = true;
                        }
                    }
                }
                Err(e) => {
                    error = Some(SolveError::Dependency {
                        subspace: self.subspace(g),
                        source: e,
                    })
                }
            }
        });
        if let Some(e) = error {
            return Err(e);
        }
        if overflow {
            return Err(self.inconsistent(g, "more than 4096 predecessors"));
        }
        // A win found twice changes nothing the second time; a count down must happen once
        // per predecessor index.
        let repeats_matter = !d.is_multiple_of(2);
        if repeats_matter && !self.domain.quiet_predecessors_are_distinct(pos) {
            sort_distinct(&mut preds);
        }
        for &q in &preds {
            if d.is_multiple_of(2) {
                self.improve_win(q, d + 1, counts)?;
            } else {
                self.count_down(q, d, counts)?;
            }
        }
        Ok(())
    }

    /// `q` has a successor lost in `plies - 1`: it wins in `plies` unless it already wins sooner.
    fn improve_win(&self, q: u64, plies: u32, counts: &mut [u64; 256]) -> Result<(), SolveError> {
        let new = Cell::decided(self.packed(q, plies)?.0);
        let mut lost = false;
        let (seen, changed) = self.cells.update(q, |cell| {
            if !cell.is_decided() {
                return Some(new);
            }
            match Packed(cell.value).value() {
                Some(Value {
                    wdl: Wdl::Win,
                    plies: Some(p),
                }) => {
                    // A tail code's distance is in the tail; one not there yet was written in
                    // this layer, at `plies` (layers come in order).
                    let p = if self.tail.is_code(p) {
                        self.tail.plies_of(q).unwrap_or(plies)
                    } else {
                        p
                    };
                    (p > plies).then_some(new)
                }
                _ => {
                    lost = true;
                    None
                }
            }
        });
        if lost {
            return Err(self.inconsistent(q, "a lost position has a losing successor"));
        }
        if changed {
            // A win in the tail improved to one under it: the tail no longer holds it.
            if seen.is_decided()
                && !self.tail.holds(plies)
                && Packed(seen.value)
                    .plies()
                    .is_some_and(|p| self.tail.is_code(p))
            {
                self.tail.forget(q);
            }
            self.decided_at(q, plies, counts);
        }
        Ok(())
    }

    /// `q` has one more successor known to be won by its mover, in `d` plies.
    fn count_down(&self, q: u64, d: u32, counts: &mut [u64; 256]) -> Result<(), SolveError> {
        let mut lost_in = None;
        let (seen, _) = self.cells.update(q, |cell| {
            lost_in = None;
            match cell.counter {
                0 | CANNOT_LOSE => None,
                1 => {
                    // Every successor is won by the opponent: lost in one more than the
                    // longest, this one (layers come in order) or an exit.
                    let plies = (d + 1).max(u32::from(cell.value));
                    lost_in = Some(plies);
                    Some(Cell::decided(self.fitting(plies)?.0))
                }
                n => Some(Cell::counting(n - 1, cell.value)),
            }
        });
        // `lost_in` is what the last look at the cell found: the loss was written, or (an
        // error) its distance does not fit the encoding.
        if let (1, Some(plies)) = (seen.counter, lost_in) {
            self.packed(q, plies)?;
            self.decided_at(q, plies, counts);
        }
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::path::Path;

    pub(crate) use super::forward::tests::unit_with_exits;

    use perfectplay_core::checkers::Checkers;
    use perfectplay_core::morris::{Morris, MorrisRules};

    use super::*;
    use crate::checkers::CheckersDomain;
    use crate::morris::MorrisDomain;
    use crate::solve::BuildProgress;
    use crate::SolveOptions;

    /// Six Men's Morris with the no-re-forming memory and any man taken: a small board whose
    /// units where one side is far ahead lead to tables of one result, as Twelve Men's
    /// Morris's do.
    pub(crate) fn six_mens_morris_with_memories() -> MorrisDomain {
        let mut rules = MorrisRules::preset("six_mens_morris").unwrap().rules;
        rules.set("no_reforming", "true").unwrap();
        rules.set("removal", "any").unwrap();
        MorrisDomain::new(Morris::new(rules).unwrap()).unwrap()
    }

    /// The unit of `target` and the tables of its exits, built first into `dir` (WDL-only),
    /// with the result each exit's table holds throughout, if one.
    #[allow(clippy::type_complexity)]
    fn unit_and_exits<D: Domain>(
        make: impl Fn() -> D,
        target: &str,
        dir: &Path,
    ) -> (
        Vec<D::Key>,
        Vec<(D::Key, Arc<Table>)>,
        Vec<(String, Option<Wdl>)>,
    ) {
        let options = SolveOptions {
            threads: Some(2),
            wdl_only: true,
            ..SolveOptions::default()
        };
        let (unit, exits) = forward::tests::unit_with_exits(make, target, dir, &options);
        let sole = exits
            .iter()
            .map(|(k, t)| (k.to_string(), t.sole_result()))
            .collect();
        (unit, exits, sole)
    }

    /// The payloads of `unit` solved with its successors in exits of one result valued by their
    /// subspace alone (those exits found by key slot, and by a search of the exits), and with
    /// each read by its index.
    fn solved_three_ways<D: Domain>(
        domain: &D,
        unit: &[D::Key],
        exits: &[(D::Key, Arc<Table>)],
    ) -> [Vec<Vec<u8>>; 3] {
        let payloads = |solver: UnitSolver<'_, D>| -> Vec<Vec<u8>> {
            let solved = solver.run(&BuildProgress::default(), None).unwrap();
            (0..unit.len())
                .map(|m| solved.payload(m).unwrap())
                .collect()
        };
        let solver = || UnitSolver::new(domain, unit, exits.to_vec(), None).unwrap();
        let by_slot = payloads(solver());
        assert!(by_slot.iter().flatten().any(|&b| b != 0));
        [
            by_slot,
            payloads(solver().with_sole_exits_searched()),
            payloads(solver().without_sole_exits()),
        ]
    }

    /// The cells of `target`'s unit, its successors in exits of one result valued by their
    /// subspace alone, and each read by its index: the same. In 3-6 with its memories, the
    /// three-man side's captures lead to 5-3's tables, all won for the side to move. In 4-6
    /// the six-man side's captures lead to 3-6's tables, all lost for the side to move, the
    /// four-man side's to 5-4's, of every result.
    #[test]
    fn exits_of_one_result_valued_by_their_subspace_give_the_same_cells() {
        let domain = six_mens_morris_with_memories();
        for (target, sole_exits, mixed_exits) in [("3-6", "5-3", None), ("4-6", "3-6", Some("5-4"))]
        {
            let dir = tempfile::tempdir().unwrap();
            let (unit, exits, sole) =
                unit_and_exits(six_mens_morris_with_memories, target, dir.path());
            // Every exit of the family named, and at least one.
            let each = |name: &str, holds: fn(&Option<Wdl>) -> bool| {
                let family = |key: &str| key.split('-').take(2).eq(name.split('-'));
                let of: Vec<_> = sole.iter().filter(|(k, _)| family(k)).collect();
                !of.is_empty() && of.iter().all(|(_, s)| holds(s))
            };
            assert!(each(sole_exits, Option::is_some), "{target}: {sole:?}");
            if let Some(mixed) = mixed_exits {
                assert!(each(mixed, Option::is_none), "{target}: {sole:?}");
            }
            let [by_slot, searched, by_index] = solved_three_ways(&domain, &unit, &exits);
            assert!(by_slot == by_index, "{target}: the cells differ");
            assert!(
                searched == by_index,
                "{target}: the cells differ, exits searched"
            );
        }
    }

    /// A unit solved with its tail (module `tail`) from `from` plies: its payloads, every
    /// distance exact, and its unit distances exact up to `from + 1` with the longer ones
    /// beside them, checked against the exact payloads.
    fn solved_with_tail_from<D: Domain>(
        domain: &D,
        unit: &[D::Key],
        exits: &[(D::Key, Arc<Table>)],
        from: Option<u32>,
        count_down: CountDown,
    ) -> (Vec<Vec<u8>>, u32) {
        let layers = std::sync::atomic::AtomicU32::new(0);
        struct Longest<'a>(&'a std::sync::atomic::AtomicU32);
        impl Observer for Longest<'_> {
            fn initialised(&self, _n: u64) {}
            fn layer(&self, d: u32, _max: u32) {
                self.0.fetch_max(d, Ordering::Relaxed);
            }
        }
        let mut solver = UnitSolver::new(domain, unit, exits.to_vec(), None)
            .unwrap()
            .with_count_down(count_down)
            .with_long_distances();
        if let Some(from) = from {
            solver = solver.with_tail_from(from);
        }
        let solved = solver.run(&Longest(&layers), None).unwrap();
        let payloads: Vec<Vec<u8>> = (0..unit.len())
            .map(|m| solved.payload(m).unwrap())
            .collect();
        if let Some(from) = from {
            for (m, exact) in payloads.iter().enumerate() {
                let (coded, long) = solved.unit_distances(m, from + 1);
                let mut long = long.into_iter().peekable();
                for (i, (&c, &e)) in coded.iter().zip(exact).enumerate() {
                    let true_plies = Packed(e).plies();
                    match true_plies {
                        Some(p) if p > from + 1 => {
                            assert_eq!(long.next(), Some((i as u64, p)), "index {i}");
                            let code = Packed(c).plies().unwrap();
                            assert!(code == from || code == from + 1, "index {i}: {code}");
                            assert_eq!(code % 2, p % 2, "index {i}");
                        }
                        _ => assert_eq!(c, e, "index {i}"),
                    }
                }
                assert_eq!(long.next(), None);
            }
        }
        (payloads, layers.into_inner())
    }

    /// A tail from a few plies solves the same as one past the unit's longest distance: with
    /// positions decided into the tail by the first pass (exits with distances), by count downs
    /// and wins of its layers, and with counters left stale by odd layers looked forward and
    /// recounted before an odd layer of the tail.
    #[test]
    fn a_unit_solves_the_same_wherever_its_tail_begins() {
        let make = six_mens_morris_with_memories;
        let domain = make();
        let dir = tempfile::tempdir().unwrap();
        let options = SolveOptions {
            threads: Some(2),
            ..SolveOptions::default()
        };
        for target in ["4-6", "4-5"] {
            let (unit, exits) = forward::tests::unit_with_exits(make, target, dir.path(), &options);
            let (expected, longest) =
                solved_with_tail_from(&domain, &unit, &exits, None, CountDown::Backward);
            assert!(longest > 8, "{target}: layers up to {longest} only");
            for from in [1, 2, 5, 6, longest - 2] {
                for count_down in [CountDown::Backward, CountDown::ForwardThrough(u32::MAX)] {
                    let (payloads, _) =
                        solved_with_tail_from(&domain, &unit, &exits, Some(from), count_down);
                    assert!(
                        payloads == expected,
                        "{target}: differs with the tail from {from}, {count_down:?}"
                    );
                }
            }
        }
    }

    /// Past the byte a unit with distance tables fails; one allowed long distances solves on.
    #[test]
    fn a_distance_past_the_byte_fails_only_without_long_distances() {
        let domain = six_mens_morris_with_memories();
        let unit = [crate::morris::MorrisKey::moving(3, 3)];
        let solver = UnitSolver::new(&domain, &unit, Vec::new(), None).unwrap();
        assert!(solver.fitting(MAX_DISTANCE).is_some());
        assert!(solver.fitting(MAX_DISTANCE + 1).is_none());
        assert!(matches!(
            solver.packed(0, MAX_DISTANCE + 1),
            Err(SolveError::DistanceOverflow { .. })
        ));
        let solver = solver.with_long_distances();
        assert_eq!(
            solver.fitting(MAX_DISTANCE + 2),
            Packed::decided(MAX_DISTANCE)
        );
    }

    /// Checkers, a man against a man and two kings (1012-00): the man's captures of the other
    /// man lead to tables of two kings against a man, all won for the kings, and its other
    /// exits to tables of several results.
    #[test]
    fn checkers_exits_of_one_result_valued_by_their_subspace_give_the_same_cells() {
        let make = || CheckersDomain::new(Checkers::default());
        let domain = make();
        let dir = tempfile::tempdir().unwrap();
        let (unit, exits, sole) = unit_and_exits(make, "1012-00", dir.path());
        assert!(sole.iter().any(|(_, s)| s.is_some()), "{sole:?}");
        assert!(sole.iter().any(|(_, s)| s.is_none()), "{sole:?}");
        let [by_slot, searched, by_index] = solved_three_ways(&domain, &unit, &exits);
        assert!(by_slot == by_index, "the cells differ");
        assert!(searched == by_index, "the cells differ, exits searched");
    }
}
