//! `Batch`: many games stepped together, in parallel, into caller-provided buffers.
//!
//! Each env is a `Slot`: an [`ActionState`] (position, stage, the history the ending rules
//! need, and its legal actions, kept up to date after every action so that checking a batch of
//! actions and sampling are cheap) and its own random streams. A slot depends on its own data alone,
//! so results are the same for any number of threads.

use std::fmt;
use std::marker::PhantomData;
use std::slice;
use std::sync::Arc;

use perfectplay_core::{History, Player};
use rayon::prelude::*;

use crate::action_state::ActionState;
use crate::error::{Error, Result};
use crate::games::Family;
use crate::lanes::Lanes;
use crate::perfect::{SharedTables, Start, Tabled};
use crate::pool;
use crate::state::{returns, TERMINAL_PLAYER};
use perfectplay_core::prefetch::prefetch_whole;
use perfectplay_core::SplitMix64;

/// Envs per chunk that a thread claims: enough work to outweigh the claim, and chunks enough
/// to even out the threads' shares at the end of a pass (a batch of 1024 makes 32; chunks of
/// 64 left one thread waiting for the other's last chunk too long).
const ENVS_PER_TASK: usize = 32;

/// How many starts a single-agent env draws at a reset before it gives up finding one the
/// opponent does not end before the agent acts (a subspace start the opponent wins at once,
/// a random opponent that closes a mill first).
pub const START_DRAWS: usize = 1000;

/// How many envs ahead a thread asks for the memory of a slot it is about to step.
const SLOT_AHEAD: usize = 3;

/// Who plays the other side in single-agent mode.
pub enum Opponent<F: Tabled> {
    /// Uniformly random legal actions, from each env's own stream.
    Random,
    /// A best move from the databases, uniformly among the equally good ones.
    Perfect(Arc<SharedTables<F>>),
}

impl<F: Tabled> Clone for Opponent<F> {
    fn clone(&self) -> Self {
        match self {
            Opponent::Random => Opponent::Random,
            Opponent::Perfect(t) => Opponent::Perfect(Arc::clone(t)),
        }
    }
}

impl<F: Tabled> fmt::Debug for Opponent<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Opponent::Random => "Random",
            Opponent::Perfect(_) => "Perfect",
        })
    }
}

/// A uniformly random legal turn of `pos`, if there is one.
fn random_move<F: Family>(game: &F, pos: &F::Position, rng: &mut SplitMix64) -> Option<F::Move> {
    let mut moves = Vec::new();
    game.for_each_move(pos, |mv| moves.push(*mv));
    rng.pick(&moves).copied()
}

/// The stream of starting positions of env `index` (apart from the action streams, so that
/// drawing starts changes no other random choice).
fn start_stream(seed: u64, index: usize) -> SplitMix64 {
    SplitMix64::stream(seed ^ 0x5354_4152_5453, index as u64)
}

/// One env: a game in progress (keeping only the history repetition needs) and its random
/// streams.
#[derive(Clone, Debug)]
struct Slot<F: Family> {
    state: ActionState<F>,
    sample_rng: SplitMix64,
    opponent_rng: SplitMix64,
    start_rng: SplitMix64,
}

impl<F: Tabled> Slot<F> {
    fn new(game: F, seed: u64, index: usize) -> Self {
        Slot {
            state: ActionState::new(game, game.start_position(), 0, History::Window),
            sample_rng: SplitMix64::stream(seed, 2 * index as u64),
            opponent_rng: SplitMix64::stream(seed, 2 * index as u64 + 1),
            start_rng: start_stream(seed, index),
        }
    }

    fn seed(&mut self, seed: u64, index: usize) {
        self.sample_rng = SplitMix64::stream(seed, 2 * index as u64);
        self.opponent_rng = SplitMix64::stream(seed, 2 * index as u64 + 1);
        self.start_rng = start_stream(seed, index);
    }

    /// Starts a new game; in single-agent mode the opponent then moves until it is the
    /// agent's turn, and a game the opponent ends first is drawn again, up to
    /// [`START_DRAWS`] times (after which the last game is left over: callers read its
    /// outcome).
    fn reset(&mut self, agent: Option<&(Player, Opponent<F>)>, start: &Start<F>) {
        for _ in 0..START_DRAWS {
            match start.draw(&mut self.start_rng) {
                Some(pos) => self.state.restart_at(pos),
                None => self.state.restart(),
            }
            let Some((agent, opponent)) = agent else {
                return;
            };
            self.opponent_moves(*agent, opponent);
            if self.state.outcome().is_none() {
                return;
            }
        }
    }

    /// The opponent's turns, until the agent is to move or the game is over. The agent has
    /// just finished a turn (or the game just began), so each of the opponent's turns is
    /// played from its start.
    fn opponent_moves(&mut self, agent: Player, opponent: &Opponent<F>) {
        while self.state.outcome().is_none()
            && self.state.game().player_to_move(self.state.position()) != agent
        {
            if let Opponent::Perfect(tables) = opponent {
                // A whole turn: the best one, or (a probe failed) a uniformly random one.
                let pos = self.state.position();
                let mv = tables
                    .best_move(pos, &mut self.opponent_rng)
                    .or_else(|| random_move(self.state.game(), pos, &mut self.opponent_rng));
                match mv {
                    Some(mv) => {
                        self.state.play(&mv);
                        continue;
                    }
                    None => break,
                }
            }
            let steps = self.state.fresh_steps();
            if steps.is_empty() {
                break;
            }
            let action = steps.nth(self.opponent_rng.below(steps.len()).unwrap_or(0));
            self.state.act(usize::from(action));
        }
    }

    /// A uniformly random legal action; 0 when there is none (the game is over, and the env
    /// ignores its next action).
    fn sample(&mut self) -> i64 {
        let steps = self.state.fresh_steps();
        match steps.len() {
            0 => 0,
            n => i64::from(steps.nth(self.sample_rng.below(n).unwrap_or(0))),
        }
    }

    /// Writes the observation, the mask and the player to move.
    fn write(&self, obs: ObsRow<'_>, mask: MaskRow<'_>, player: &mut i32) {
        let (game, pos, stage) = (self.state.game(), self.state.position(), self.state.stage());
        match obs {
            Row::Full(obs) => game.write_observation(pos, stage, obs),
            Row::Compact(obs) => game.write_observation_bytes(pos, stage, obs),
        }
        let set = self.state.fresh_steps().set();
        match mask {
            Row::Full(mask) => set.write_mask(mask),
            Row::Compact(mask) => set.write_mask_bits(mask),
        }
        *player = if self.state.outcome().is_some() {
            TERMINAL_PLAYER
        } else {
            game.player_to_move(pos).index() as i32
        };
    }
}

/// The buffers a step writes, one row per env.
pub struct Buffers<'a> {
    /// Observations, `observation_len` values per env.
    pub obs: Observations<'a>,
    /// Legal-action masks.
    pub mask: Mask<'a>,
    /// The players to move.
    pub players: &'a mut [i32],
    /// Rewards: two per env in self-play (both players), one in single-agent mode.
    pub rewards: &'a mut [f32],
    /// Whether each env's game ended with a result this step.
    pub terminated: &'a mut [bool],
    /// Whether each env's game was cut short by the ply limit this step.
    pub truncated: &'a mut [bool],
}

/// Where a step writes the observations.
#[derive(Debug)]
pub enum Observations<'a> {
    /// float32 values ([`perfectplay_core::ActionGame::write_observation`]).
    Floats(&'a mut [f32]),
    /// Bytes ([`perfectplay_core::ActionGame::write_observation_bytes`]): a quarter of the
    /// bytes to write and to move.
    Bytes(&'a mut [u8]),
}

impl Observations<'_> {
    fn len(&self) -> usize {
        match self {
            Observations::Floats(obs) => obs.len(),
            Observations::Bytes(obs) => obs.len(),
        }
    }
}

/// Where a step writes the legal-action masks.
#[derive(Debug)]
pub enum Mask<'a> {
    /// One value per action: `action_count` per env.
    Bools(&'a mut [bool]),
    /// One bit per action, eight to a byte, lowest bit first (what numpy's
    /// `unpackbits(..., bitorder="little")` reads): `action_count.div_ceil(8)` bytes per env, the
    /// bits past the last action zero. An eighth of the bytes to write and to move.
    Bits(&'a mut [u8]),
}

impl Mask<'_> {
    /// Its entries per env for an action space of `count` actions.
    #[must_use]
    pub fn per_env(&self, count: usize) -> usize {
        match self {
            Mask::Bools(_) => count,
            Mask::Bits(_) => count.div_ceil(8),
        }
    }

    fn len(&self) -> usize {
        match self {
            Mask::Bools(mask) => mask.len(),
            Mask::Bits(mask) => mask.len(),
        }
    }
}

/// Buffers a Rust caller owns, sized for a batch: what [`Buffers`] borrows (value masks).
#[derive(Clone, Debug, PartialEq)]
pub struct OwnedBuffers {
    /// Observations, [`Batch::observation_len`] values per env.
    pub obs: Vec<f32>,
    /// Legal-action masks, `action_count` values per env.
    pub mask: Vec<bool>,
    /// The players to move.
    pub players: Vec<i32>,
    /// Rewards: two per env in self-play, one in single-agent mode.
    pub rewards: Vec<f32>,
    /// Whether each env's game ended with a result in the last step.
    pub terminated: Vec<bool>,
    /// Whether each env's game was cut short by the ply limit in the last step.
    pub truncated: Vec<bool>,
}

impl OwnedBuffers {
    /// Zeroed buffers for `num_envs` envs whose rows are `lens` long (values per observation,
    /// actions per mask, rewards per env).
    #[must_use]
    pub fn new(num_envs: usize, lens: (usize, usize, usize)) -> Self {
        let (obs, count, rewards) = lens;
        OwnedBuffers {
            obs: vec![0.0; num_envs * obs],
            mask: vec![false; num_envs * count],
            players: vec![0; num_envs],
            rewards: vec![0.0; num_envs * rewards],
            terminated: vec![false; num_envs],
            truncated: vec![false; num_envs],
        }
    }

    /// The buffers, borrowed for a step or a reset.
    pub fn buffers(&mut self) -> Buffers<'_> {
        Buffers {
            obs: Observations::Floats(&mut self.obs),
            mask: Mask::Bools(&mut self.mask),
            players: &mut self.players,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
        }
    }
}

/// One env's row of a buffer that holds either its full values (float observations, a bool
/// per action) or their compact form (bytes, bits).
enum Row<'a, Full, Compact> {
    Full(&'a mut [Full]),
    Compact(&'a mut [Compact]),
}

/// The start of such a buffer, as a [`SharedRows`] keeps it.
enum RowStart<Full, Compact> {
    Full(*mut Full),
    Compact(*mut Compact),
}

// Not derived: a derive would ask the element types to be `Copy` too.
impl<Full, Compact> Clone for RowStart<Full, Compact> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<Full, Compact> Copy for RowStart<Full, Compact> {}

impl<Full, Compact> RowStart<Full, Compact> {
    /// Row `i` of rows `len` long.
    ///
    /// # Safety
    ///
    /// Row `i` lies within the buffer the start came from, which outlives `'a`, and no other
    /// reference to that row is alive.
    unsafe fn row<'a>(self, i: usize, len: usize) -> Row<'a, Full, Compact> {
        // SAFETY: the caller's promise.
        unsafe {
            match self {
                RowStart::Full(p) => Row::Full(slice::from_raw_parts_mut(p.add(i * len), len)),
                RowStart::Compact(p) => {
                    Row::Compact(slice::from_raw_parts_mut(p.add(i * len), len))
                }
            }
        }
    }
}

/// One env's observation row: floats, or bytes.
type ObsRow<'a> = Row<'a, f32, u8>;

/// One env's mask row: a bool per action, or a bit.
type MaskRow<'a> = Row<'a, bool, u8>;

/// One env's rows of the [`Buffers`].
struct Rows<'a> {
    obs: ObsRow<'a>,
    mask: MaskRow<'a>,
    player: &'a mut i32,
    reward: &'a mut [f32],
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    /// Where the env's next sample goes, when the pass draws one.
    sample: &'a mut i64,
}

/// What a [`SharedRows`] borrows: the slots, the buffers and the samples.
type Borrows<'a, F> = (&'a mut [Slot<F>], Buffers<'a>, &'a mut [i64]);

/// Every env's slot, action and rows during one pass, for the threads of the pool to share:
/// [`SharedRows::env`] hands env `i`'s out to the one thread that claimed its chunk.
struct SharedRows<'a, F: Family, A> {
    slots: *mut Slot<F>,
    actions: &'a [A],
    obs: RowStart<f32, u8>,
    mask: RowStart<bool, u8>,
    /// Mask entries per env.
    mask_len: usize,
    players: *mut i32,
    rewards: *mut f32,
    terminated: *mut bool,
    truncated: *mut bool,
    samples: *mut i64,
    /// Values per observation, actions per mask, rewards per env.
    lens: (usize, usize, usize),
    /// The number of envs.
    len: usize,
    /// The pointers come from these borrows, held for `'a`.
    _borrows: PhantomData<Borrows<'a, F>>,
}

// SAFETY: a `SharedRows` is the unique borrow of its slots and buffers for `'a` (it is made
// from `&mut` borrows of them, and they are reached through it alone), and its threads reach
// each env's data only through `env` (and, to prefetch, through shared references to the slots
// of later envs in the same claimed chunk), for the chunk each has claimed alone: sharing it moves
// slots (`Send`) and plain numbers between threads, and reads actions (`Sync`) from several.
unsafe impl<F: Family, A: Sync> Sync for SharedRows<'_, F, A> where Slot<F>: Send {}

impl<'a, F: Family, A> SharedRows<'a, F, A> {
    /// The envs' slots, actions and rows; `None` if the buffers do not hold a row for every
    /// slot (the env sizes them so, once).
    fn new(
        buffers: Buffers<'a>,
        slots: &'a mut [Slot<F>],
        actions: &'a [A],
        samples: &'a mut [i64],
        lens: (usize, usize, usize),
    ) -> Option<Self> {
        let len = slots.len();
        let (obs_len, count, per_env) = lens;
        let mask_len = buffers.mask.per_env(count);
        let fits = actions.len() == len
            && buffers.obs.len() == len * obs_len
            && buffers.mask.len() == len * mask_len
            && buffers.players.len() == len
            && buffers.rewards.len() == len * per_env
            && buffers.terminated.len() == len
            && buffers.truncated.len() == len
            && samples.len() == len;
        fits.then_some(SharedRows {
            slots: slots.as_mut_ptr(),
            actions,
            obs: match buffers.obs {
                Observations::Floats(obs) => RowStart::Full(obs.as_mut_ptr()),
                Observations::Bytes(obs) => RowStart::Compact(obs.as_mut_ptr()),
            },
            mask: match buffers.mask {
                Mask::Bools(mask) => RowStart::Full(mask.as_mut_ptr()),
                Mask::Bits(mask) => RowStart::Compact(mask.as_mut_ptr()),
            },
            mask_len,
            players: buffers.players.as_mut_ptr(),
            rewards: buffers.rewards.as_mut_ptr(),
            terminated: buffers.terminated.as_mut_ptr(),
            truncated: buffers.truncated.as_mut_ptr(),
            samples: samples.as_mut_ptr(),
            lens,
            len,
            _borrows: PhantomData,
        })
    }

    /// Env `i`'s slot, action and rows.
    ///
    /// # Safety
    ///
    /// `i` is below the number of envs, and no other reference to env `i`'s data (from an
    /// earlier call for `i`) is alive: the caller has claimed `i` for itself alone.
    // Mutable data from a shared `self` is the point: the threads share the rows and each
    // takes its own envs' (the safety contract).
    #[expect(clippy::mut_from_ref)]
    unsafe fn env<'s>(&'s self, i: usize) -> (&'s mut Slot<F>, &'s A, Rows<'s>) {
        let (obs_len, _, per_env) = self.lens;
        let count = self.mask_len;
        debug_assert!(i < self.len);
        // SAFETY: `i` is in range (the caller's promise), so every offset stays within the
        // slice its pointer came from (`new` checked each slice's length against the number
        // of envs); the slices and slots are borrowed for `'a`, which outlives `'s`; and no
        // other reference to env `i`'s data exists (the caller's promise again), so the `&mut`
        // made here is unique while it lives.
        unsafe {
            let rows = Rows {
                obs: self.obs.row(i, obs_len),
                mask: self.mask.row(i, count),
                player: &mut *self.players.add(i),
                reward: slice::from_raw_parts_mut(self.rewards.add(i * per_env), per_env),
                terminated: &mut *self.terminated.add(i),
                truncated: &mut *self.truncated.add(i),
                sample: &mut *self.samples.add(i),
            };
            (&mut *self.slots.add(i), &self.actions[i], rows)
        }
    }
}

impl Buffers<'_> {
    /// Calls `visit` with each env's index, slot, action and rows, in parallel: the envs go in
    /// chunks of [`ENVS_PER_TASK`] to the threads of the pool, dealt by `lanes` so that each
    /// thread steps nearly the same envs from one pass to the next.
    fn for_each_env<F: Family, A: Sync>(
        self,
        lanes: &mut Lanes,
        slots: &mut [Slot<F>],
        actions: &[A],
        samples: &mut [i64],
        lens: (usize, usize, usize),
        visit: impl Fn(usize, &mut Slot<F>, &A, Rows<'_>) + Sync,
    ) -> Result<()> {
        // The env sizes its buffers for its slots when it is made (and numpy refuses to resize
        // them while the env holds them), and `Batch::check` checks the number of actions.
        let rows = SharedRows::new(self, slots, actions, samples, lens).ok_or_else(|| {
            Error::BadArgument(
                "the env's output arrays no longer have a row for every env".to_owned(),
            )
        })?;
        let len = rows.len;
        let threads = rayon::current_num_threads();
        let chunks = len.div_ceil(ENVS_PER_TASK);
        lanes.deal(chunks, threads);
        let lanes = &*lanes;
        // Whichever thread runs `pass(me)` works through the chunks of its own lane and then
        // helps with the others, so the pass is done whichever threads take part.
        let pass = |me: usize| {
            while let Some(chunk) = lanes.claim(me) {
                let first = chunk * ENVS_PER_TASK;
                let end = (first + ENVS_PER_TASK).min(len);
                // The envs a few places on in the chunk are asked for ahead: at thousands of
                // envs each pass finds them out of the cache again, and the end of a history
                // is a heap block of its own that no hardware prefetcher foresees.
                for i in first..end {
                    if i + SLOT_AHEAD < end {
                        // SAFETY: as for `rows.env` below: env `i + SLOT_AHEAD` is in this
                        // thread's chunk (below `end`, at most the number of envs), and no
                        // mutable reference to its slot is alive (its own is made at its turn,
                        // after this one has gone).
                        prefetch_whole(unsafe { &*rows.slots.add(i + SLOT_AHEAD) });
                    }
                    if i + 1 < end {
                        // SAFETY: as just above, for env `i + 1`.
                        unsafe { &*rows.slots.add(i + 1) }
                            .state
                            .state()
                            .prefetch_history();
                    }
                    // SAFETY: `Lanes::claim` takes each chunk of a deal out of its lane with
                    // a compare-exchange on the lane's one word, so no two claims get the
                    // same chunk (tested in `lanes`): env `i` of this chunk is this thread's
                    // alone for the pass, and `i` is below the number of envs.
                    let (slot, action, rows) = unsafe { rows.env(i) };
                    visit(i, slot, action, rows);
                }
            }
        };
        // A pass of one chunk is the caller's alone: it gives a worker nothing to claim, and
        // opening it to them (the lines they spin on change hands, the caller waits for any
        // that joined) cost about a microsecond on two cores, as much as the whole pass of a
        // few envs. Within `pool::run_steps` the waiting workers join longer passes directly;
        // elsewhere one rayon task per thread of the pool runs them.
        if chunks <= 1 {
            pass(0);
        } else if !pool::share(&pass) {
            (0..threads)
                .into_par_iter()
                .with_max_len(1)
                .for_each(|_| pass(rayon::current_thread_index().unwrap_or(0)));
        }
        Ok(())
    }
}

/// How [`Batch::reset`] reseeds the envs' random streams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reseed<'a> {
    /// The streams go on.
    Keep,
    /// Every env from one seed, as a new batch with this seed would be (env `i` on its own
    /// streams of the seed).
    All(u64),
    /// One seed per env: env `i` plays as the only env of a batch seeded `seeds[i]`.
    Each(&'a [u64]),
}

/// Many games of one kind.
#[derive(Clone, Debug)]
pub struct Batch<F: Tabled> {
    game: F,
    slots: Vec<Slot<F>>,
    /// The learning side and its opponent, in single-agent mode.
    agent: Option<(Player, Opponent<F>)>,
    /// Where each game starts.
    start: Start<F>,
    /// How the envs are shared out between the threads at each pass.
    lanes: Lanes,
    /// A uniformly random legal action per env, drawn by the last pass or by
    /// [`Batch::sample`]; what they are now is `samples_are`.
    samples: Vec<i64>,
    samples_are: Samples,
    /// Whether the step and reset passes draw the next samples (from the first call to
    /// [`Batch::sample`] on).
    draw_in_passes: bool,
}

/// What a [`Batch`]'s samples are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Samples {
    /// Not of the current positions.
    Stale,
    /// Drawn by the last step or reset pass and not yet handed out: the next
    /// [`Batch::sample`] hands them out instead of drawing again.
    Drawn,
    /// Handed out by [`Batch::sample`] since the envs last moved: legal, so a step with these
    /// same actions needs no check (the usual self-play loop).
    HandedOut,
}

impl<F: Tabled> Batch<F> {
    /// `num_envs` games of `game`, seeded with `seed`, not yet begun: [`Batch::reset`] draws
    /// their starts (so that a batch made with a seed plays as one reset with it).
    pub fn new(
        game: F,
        num_envs: usize,
        seed: u64,
        agent: Option<(Player, Opponent<F>)>,
        start: Start<F>,
    ) -> Self {
        let slots: Vec<Slot<F>> = (0..num_envs).map(|i| Slot::new(game, seed, i)).collect();
        Batch {
            game,
            slots,
            agent,
            start,
            lanes: Lanes::default(),
            samples: vec![0; num_envs],
            samples_are: Samples::Stale,
            draw_in_passes: false,
        }
    }

    /// Bytes one env of `game` takes in a batch when it is made: its slot and its sample.
    /// (A game's history then grows by a few bytes a ply.)
    pub fn bytes_per_env() -> usize {
        std::mem::size_of::<Slot<F>>() + std::mem::size_of::<i64>()
    }

    /// The number of envs.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the batch has no env.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Probes of the perfect opponent that failed (and were played at random instead).
    pub fn perfect_misses(&self) -> u64 {
        match &self.agent {
            Some((_, Opponent::Perfect(tables))) => tables.misses(),
            _ => 0,
        }
    }

    /// Values per observation.
    pub fn observation_len(&self) -> usize {
        self.game.observation_shape().iter().product()
    }

    /// Rewards per env.
    pub fn rewards_per_env(&self) -> usize {
        if self.agent.is_some() {
            1
        } else {
            2
        }
    }

    /// Restarts every game (reseeding every env's streams as `seed` says) and writes the
    /// first observations. In single-agent mode every env is left with the agent to act;
    /// refused where an env's [`START_DRAWS`] starts all ended before that (the opponent
    /// ends every game at once: a ply limit of one ply, a subspace the opponent always wins).
    pub fn reset(&mut self, seed: Reseed<'_>, buffers: Buffers<'_>) -> Result<()> {
        if let Reseed::Each(seeds) = seed {
            if seeds.len() != self.slots.len() {
                return Err(Error::BadArgument(format!(
                    "one seed per env ({}), got {}",
                    self.slots.len(),
                    seeds.len()
                )));
            }
        }
        if !matches!(seed, Reseed::Keep) {
            // As a new env with this seed would, whatever was asked of this one before.
            self.draw_in_passes = false;
        }
        let draw = self.keep_drawing();
        let (agent, start) = (self.agent.as_ref(), &self.start);
        let lens = self.row_lens();
        // No actions: a unit per env.
        let none = vec![(); self.slots.len()];
        buffers.for_each_env(
            &mut self.lanes,
            &mut self.slots,
            &none,
            &mut self.samples,
            lens,
            |i, slot, (), rows| {
                match seed {
                    Reseed::Keep => {}
                    Reseed::All(seed) => slot.seed(seed, i),
                    // Env `i` then plays as the only env of a batch seeded `seeds[i]` would.
                    Reseed::Each(seeds) => slot.seed(seeds[i], 0),
                }
                // Whether every env went on is read back below, after the pass.
                slot.reset(agent, start);
                slot.write(rows.obs, rows.mask, rows.player);
                rows.reward.fill(0.0);
                *rows.terminated = false;
                *rows.truncated = false;
                if draw {
                    *rows.sample = slot.sample();
                }
            },
        )?;
        self.samples_are = if draw { Samples::Drawn } else { Samples::Stale };
        if let Some((agent, _)) = &self.agent {
            if let Some(i) = self.slots.iter().position(|s| s.state.outcome().is_some()) {
                return Err(Error::BadArgument(format!(
                    "env {i}: each of {START_DRAWS} starts drawn was over before the agent \
                     (player {}) was to act: the opponent ends these games at once (a ply \
                     limit too short, or starts the opponent wins on its first turn)",
                    agent.index()
                )));
            }
        }
        Ok(())
    }

    /// Buffers for this batch.
    pub fn owned_buffers(&self) -> OwnedBuffers {
        OwnedBuffers::new(self.len(), self.row_lens())
    }

    /// Values per observation, actions per mask and rewards per env.
    pub fn row_lens(&self) -> (usize, usize, usize) {
        (
            self.observation_len(),
            self.game.action_count(),
            self.rewards_per_env(),
        )
    }

    /// Whether the pass about to move the envs draws the next samples: as long as the last
    /// ones drawn were asked for. The samples are stale from here on.
    fn keep_drawing(&mut self) -> bool {
        if self.samples_are == Samples::Drawn {
            self.draw_in_passes = false;
        }
        self.samples_are = Samples::Stale;
        self.draw_in_passes
    }

    /// Checks every action before any env moves: an env whose game ended last step takes any
    /// action (it resets instead); every other env needs one of its legal actions.
    pub fn check(&self, actions: &[i64]) -> Result<()> {
        if actions.len() != self.slots.len() {
            return Err(Error::ActionCount {
                expected: self.slots.len(),
                found: actions.len(),
            });
        }
        if self.samples_are == Samples::HandedOut && self.samples == actions {
            // Drawn among the legal actions of these very positions (0 where a game is over,
            // which any action may be).
            return Ok(());
        }
        for (env, (slot, &action)) in self.slots.iter().zip(actions).enumerate() {
            let state = &slot.state;
            if state.outcome().is_some() {
                continue;
            }
            let legal =
                usize::try_from(action).is_ok_and(|a| state.fresh_steps().set().contains(a));
            if !legal {
                let text = usize::try_from(action).map_or_else(
                    |_| "invalid".to_owned(),
                    |a| {
                        self.game
                            .action_to_string(state.position(), state.stage(), a)
                    },
                );
                return Err(Error::EnvAction {
                    env,
                    action,
                    text,
                    legal: state.fresh_steps().set().iter().collect(),
                });
            }
        }
        Ok(())
    }

    /// Steps every env with its action (checked by [`Batch::check`]): an env whose game ended
    /// last step resets instead, with zero reward (Gymnasium's next-step autoreset).
    ///
    /// # Panics
    ///
    /// In debug builds, if an action was not legal in its env: the check is the caller's, once
    /// per step, so that this loop stays free of it (the Python binding makes it). A release
    /// build leaves such an env where it was.
    pub fn step(&mut self, actions: &[i64], buffers: Buffers<'_>) -> Result<()> {
        let draw = self.keep_drawing();
        let (game, agent, start) = (self.game, self.agent.as_ref(), &self.start);
        let lens = self.row_lens();
        buffers.for_each_env(
            &mut self.lanes,
            &mut self.slots,
            actions,
            &mut self.samples,
            lens,
            |_, slot, &action, rows| {
                if slot.state.outcome().is_some() {
                    // Should every draw end at once (a batch whose reset was refused for
                    // it), the game stays over and the next step draws again.
                    slot.reset(agent, start);
                    rows.reward.fill(0.0);
                } else {
                    // Checked legal by `Batch::check`.
                    let legal = slot.state.act(action as usize);
                    debug_assert!(legal, "an unchecked action {action}");
                    if let Some((agent, opponent)) = agent {
                        slot.opponent_moves(*agent, opponent);
                    }
                    let both = returns(&game, slot.state.outcome().as_ref());
                    match agent {
                        Some((agent, _)) => rows.reward[0] = both[agent.index()],
                        None => rows.reward.copy_from_slice(&both),
                    }
                }
                let outcome = slot.state.outcome();
                let truncation = outcome.is_some_and(|o| o.is_truncation());
                *rows.terminated = outcome.is_some() && !truncation;
                *rows.truncated = truncation;
                slot.write(rows.obs, rows.mask, rows.player);
                if draw {
                    *rows.sample = slot.sample();
                }
            },
        )?;
        self.samples_are = if draw { Samples::Drawn } else { Samples::Stale };
        Ok(())
    }

    /// A uniformly random legal action for every env, from each env's own stream.
    ///
    /// A call draws them in a pass of its own and has the next step or reset pass draw the
    /// next ones while it has each env at hand (a pass over every env for a few nanoseconds
    /// of work per env cost more in waking the threads and fetching each env's legal actions
    /// again than the work itself); a call after such a pass hands its draws out, and the
    /// passes go on drawing while they are asked for. So a loop that samples before every
    /// step draws exactly what drawing at each call would; a pass whose draws go unused
    /// stops the drawing until the next call, and a reset with a seed stops it as a new
    /// env starts without it: the draws depend on the seed and the calls made since, never
    /// on the threads.
    pub fn sample(&mut self, out: &mut [i64]) -> Result<()> {
        if out.len() != self.slots.len() {
            return Err(Error::BadArgument(
                "the env's sample array no longer has one entry per env".to_owned(),
            ));
        }
        if self.samples_are != Samples::Drawn {
            // Drawn into the env's own copy, which no other thread can reach, and only then
            // handed out: what a step trusts is what was drawn.
            self.slots
                .par_chunks_mut(ENVS_PER_TASK)
                .zip(self.samples.par_chunks_mut(ENVS_PER_TASK))
                .for_each(|(slots, samples)| {
                    for (slot, a) in slots.iter_mut().zip(samples) {
                        *a = slot.sample();
                    }
                });
            self.draw_in_passes = true;
        }
        out.copy_from_slice(&self.samples);
        self.samples_are = Samples::HandedOut;
        Ok(())
    }

    /// Whether the next [`Batch::sample`] only hands out samples drawn by the last pass (a
    /// copy, with no pass over the envs of its own).
    pub fn samples_drawn(&self) -> bool {
        self.samples_are == Samples::Drawn
    }

    /// The position string of env `index`.
    pub fn fen(&self, index: usize) -> Option<String> {
        let state = &self.slots.get(index)?.state;
        Some(
            self.game
                .write_position(state.position(), state.state().no_progress_plies()),
        )
    }

    /// The game.
    pub fn game(&self) -> &F {
        &self.game
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::State;
    use perfectplay_core::registry::AnyGame;
    use perfectplay_core::with_family;

    /// The buffers of `rows`, with the masks packed into `packed`.
    fn with_bits<'a>(rows: &'a mut OwnedBuffers, packed: &'a mut [u8]) -> Buffers<'a> {
        Buffers {
            obs: Observations::Floats(&mut rows.obs),
            mask: Mask::Bits(packed),
            players: &mut rows.players,
            rewards: &mut rows.rewards,
            terminated: &mut rows.terminated,
            truncated: &mut rows.truncated,
        }
    }

    /// Seeded one seed per env, env `i` plays exactly as the only env of a batch seeded
    /// `seeds[i]`: the same samples and positions, step after step.
    #[test]
    fn one_seed_per_env_plays_as_a_batch_of_one() {
        let game = perfectplay_core::morris::Morris::preset("nine_mens_morris").unwrap();
        let seeds = [7u64, 7, 123, 9_000_000_000];
        let mut batch = Batch::new(game, seeds.len(), 0, None, Start::Initial);
        let mut rows = batch.owned_buffers();
        batch.reset(Reseed::Each(&seeds), rows.buffers()).unwrap();
        let mut alone: Vec<(Batch<_>, OwnedBuffers)> = seeds
            .iter()
            .map(|&seed| {
                let mut b = Batch::new(game, 1, 99, None, Start::Initial);
                let mut r = b.owned_buffers();
                b.reset(Reseed::All(seed), r.buffers()).unwrap();
                (b, r)
            })
            .collect();
        let mut actions = vec![0; seeds.len()];
        for _ in 0..200 {
            batch.sample(&mut actions).unwrap();
            batch.step(&actions, rows.buffers()).unwrap();
            for (i, (b, r)) in alone.iter_mut().enumerate() {
                let mut one = [0];
                b.sample(&mut one).unwrap();
                assert_eq!(one[0], actions[i], "env {i}");
                b.step(&one, r.buffers()).unwrap();
                assert_eq!(b.fen(0), batch.fen(i), "env {i}");
            }
        }
        assert_eq!(batch.fen(0), batch.fen(1), "the same seed, the same game");
        let wrong = batch.reset(Reseed::Each(&seeds[..3]), rows.buffers());
        assert!(matches!(wrong, Err(Error::BadArgument(_))), "{wrong:?}");
    }

    /// Steps a self-play batch of `game` with its own samples, and beside it one [`State`]
    /// per env with the same actions (a new one where a game ended a step before): every row
    /// the batch writes equals what the state says.
    fn batch_agrees_with_states<F: Tabled>(id: &'static str, game: F) {
        let num_envs = 40;
        let mut batch = Batch::new(game, num_envs, 3, None, Start::Initial);
        let mut rows = batch.owned_buffers();
        batch.reset(Reseed::Keep, rows.buffers()).unwrap();
        let mut states: Vec<State<F>> = (0..num_envs).map(|_| State::new(id, game)).collect();
        let mut actions = vec![0; num_envs];
        let (obs_len, count, _) = batch.row_lens();
        let mut want_obs = vec![0.0; obs_len];
        for _ in 0..300 {
            batch.sample(&mut actions).unwrap();
            batch.check(&actions).unwrap();
            batch.step(&actions, rows.buffers()).unwrap();
            for (i, state) in states.iter_mut().enumerate() {
                if state.is_terminal() {
                    *state = State::new(id, game);
                } else {
                    state.apply_action(actions[i]).unwrap();
                }
                let ending = state.ending();
                let truncated = ending.is_some_and(|e| e.truncated);
                assert_eq!(
                    rows.terminated[i],
                    ending.is_some() && !truncated,
                    "env {i}"
                );
                assert_eq!(rows.truncated[i], truncated, "env {i}");
                assert_eq!(rows.players[i], state.current_player(), "env {i}");
                let rewards = if rows.terminated[i] || rows.truncated[i] {
                    state.returns()
                } else {
                    [0.0; 2]
                };
                assert_eq!(rows.rewards[2 * i..2 * i + 2], rewards, "env {i}");
                let mut mask = vec![false; count];
                state.legal_actions().write_mask(&mut mask);
                assert_eq!(rows.mask[i * count..(i + 1) * count], mask, "env {i}");
                state.write_observation(&mut want_obs);
                assert_eq!(
                    rows.obs[i * obs_len..(i + 1) * obs_len],
                    want_obs,
                    "env {i}"
                );
                assert_eq!(batch.fen(i).unwrap(), state.fen(), "env {i}");
            }
        }
    }

    #[test]
    fn batches_agree_with_states() {
        for id in [
            "checkers",
            "nine_mens_morris",
            "three_mens_morris",
            "twelve_mens_morris",
        ] {
            let options = [("ply_limit".to_owned(), "60".to_owned())];
            let (id, game) = AnyGame::load(id, &options).unwrap();
            let id = id.name();
            with_family!(AnyGame, game, g => batch_agrees_with_states(id, g));
        }
    }

    /// The rows of 200 steps of a random-opponent batch run on a pool of `threads`.
    fn rows_after_steps(threads: usize) -> OwnedBuffers {
        let (_, game) = AnyGame::load("nine_mens_morris", &[] as &[(&str, &str)]).unwrap();
        let AnyGame::Morris(game) = game else {
            unreachable!()
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let agent = Some((Player::Second, Opponent::Random));
            let mut batch = Batch::new(game, 300, 11, agent, Start::Initial);
            let mut rows = batch.owned_buffers();
            let mut actions = vec![0; batch.len()];
            batch.reset(Reseed::Keep, rows.buffers()).unwrap();
            for _ in 0..200 {
                batch.sample(&mut actions).unwrap();
                batch.check(&actions).unwrap();
                batch.step(&actions, rows.buffers()).unwrap();
            }
            rows
        })
    }

    #[test]
    fn a_reset_the_opponent_always_ends_at_once_is_refused() {
        let (_, game) = AnyGame::load("nine_mens_morris", &[("ply_limit", "1")]).unwrap();
        let AnyGame::Morris(game) = game else {
            unreachable!()
        };
        let agent = Some((Player::Second, Opponent::Random));
        let mut batch = Batch::new(game, 3, 0, agent, Start::Initial);
        let mut rows = batch.owned_buffers();
        let refused = batch.reset(Reseed::Keep, rows.buffers());
        assert!(
            matches!(&refused, Err(Error::BadArgument(why)) if why.contains("env 0")),
            "{refused:?}"
        );
        // With the agent moving first the same rules start every game.
        let agent = Some((Player::First, Opponent::Random));
        let mut batch = Batch::new(game, 3, 0, agent, Start::Initial);
        batch.reset(Reseed::Keep, rows.buffers()).unwrap();
    }

    #[test]
    fn buffers_a_row_short_are_refused_and_left_unwritten() {
        // `Buffers` is public: the length check in `SharedRows::new` is what keeps a Rust
        // caller's short slices from being written past their end.
        let (_, game) = AnyGame::load("nine_mens_morris", &[] as &[(&str, &str)]).unwrap();
        let AnyGame::Morris(game) = game else {
            unreachable!()
        };
        let agent = Some((Player::Second, Opponent::Random));
        let mut batch = Batch::new(game, 5, 3, agent, Start::Initial);
        let whole = batch.owned_buffers();
        let actions = vec![0; batch.len()];
        for field in 0..6 {
            let mut rows = whole.clone();
            let shorten = |len: usize, per: usize| len - per;
            let (obs_per, count) = (whole.obs.len() / 5, whole.mask.len() / 5);
            match field {
                0 => rows.obs.truncate(shorten(whole.obs.len(), obs_per)),
                1 => rows.mask.truncate(shorten(whole.mask.len(), count)),
                2 => rows.players.truncate(4),
                3 => rows.rewards.truncate(shorten(whole.rewards.len(), 1)),
                4 => rows.terminated.truncate(4),
                _ => rows.truncated.truncate(4),
            }
            let before = rows.clone();
            for refused in [
                batch.reset(Reseed::Keep, rows.buffers()),
                batch.step(&actions, rows.buffers()),
            ] {
                assert!(
                    matches!(&refused, Err(Error::BadArgument(why)) if why.contains("no longer have a row")),
                    "field {field}: {refused:?}"
                );
            }
            assert_eq!(rows, before, "field {field}: written although refused");
        }
    }

    #[test]
    fn results_do_not_depend_on_the_threads() {
        let one = rows_after_steps(1);
        assert_eq!(one, rows_after_steps(3));
        assert!(one.terminated.iter().any(|&t| t), "no game ended");
    }

    #[test]
    fn bit_masks_are_the_value_masks_packed() {
        let (_, game) = AnyGame::load("nine_mens_morris", &[] as &[(&str, &str)]).unwrap();
        let AnyGame::Morris(game) = game else {
            unreachable!()
        };
        let mut values = Batch::new(game, 50, 5, None, Start::Initial);
        let mut bits = values.clone();
        let mut rows = values.owned_buffers();
        let mut other = bits.owned_buffers();
        let count = game.action_count();
        let mut packed = vec![0xffu8; 50 * count.div_ceil(8)];
        let mut actions = vec![0; 50];
        values.reset(Reseed::Keep, rows.buffers()).unwrap();
        bits.reset(Reseed::Keep, with_bits(&mut other, &mut packed))
            .unwrap();
        for _ in 0..200 {
            values.sample(&mut actions).unwrap();
            values.step(&actions, rows.buffers()).unwrap();
            bits.step(&actions, with_bits(&mut other, &mut packed))
                .unwrap();
            for (env, row) in packed.chunks(count.div_ceil(8)).enumerate() {
                for a in 0..8 * row.len() {
                    let want = a < count && rows.mask[env * count + a];
                    assert_eq!(row[a / 8] >> (a % 8) & 1 == 1, want, "env {env} action {a}");
                }
            }
            assert_eq!(rows.obs, other.obs);
        }
        // A buffer of the wrong size for packed masks is refused, not written past.
        let mut short = vec![0u8; 10];
        assert!(bits
            .step(&actions, with_bits(&mut other, &mut short))
            .is_err());
    }

    /// `rows`'s buffers with the observations written as bytes into `bytes`.
    fn with_bytes<'a>(rows: &'a mut OwnedBuffers, bytes: &'a mut [u8]) -> Buffers<'a> {
        Buffers {
            obs: Observations::Bytes(bytes),
            mask: Mask::Bools(&mut rows.mask),
            players: &mut rows.players,
            rewards: &mut rows.rewards,
            terminated: &mut rows.terminated,
            truncated: &mut rows.truncated,
        }
    }

    /// A batch writing byte observations steps as one writing floats, and its rows are the
    /// game's byte observations of the same positions.
    fn byte_observations_follow_the_floats<F: Tabled>(game: F) {
        let mut floats = Batch::new(game, 40, 9, None, Start::Initial);
        let mut bytes = floats.clone();
        let (mut rows, mut other) = (floats.owned_buffers(), bytes.owned_buffers());
        let len = floats.observation_len();
        let mut obs = vec![0xffu8; 40 * len];
        let mut actions = vec![0; 40];
        floats.reset(Reseed::Keep, rows.buffers()).unwrap();
        bytes
            .reset(Reseed::Keep, with_bytes(&mut other, &mut obs))
            .unwrap();
        for _ in 0..150 {
            floats.sample(&mut actions).unwrap();
            floats.step(&actions, rows.buffers()).unwrap();
            bytes
                .step(&actions, with_bytes(&mut other, &mut obs))
                .unwrap();
            assert_eq!(rows.mask, other.mask);
            assert_eq!(rows.rewards, other.rewards);
            for (env, row) in obs.chunks(len).enumerate() {
                let slot = &bytes.slots[env];
                assert_eq!(
                    slot.state.position(),
                    floats.slots[env].state.position(),
                    "env {env}"
                );
                let mut want = vec![0u8; len];
                game.write_observation_bytes(slot.state.position(), slot.state.stage(), &mut want);
                assert_eq!(row, want.as_slice(), "env {env}");
                // Each byte stands where its float does: the same cells set, whatever their
                // scale (a man, or a hand as a fraction of the men).
                let float_row = &rows.obs[env * len..(env + 1) * len];
                for (cell, (&f, &b)) in float_row.iter().zip(row).enumerate() {
                    assert_eq!(f == 0.0, b == 0, "env {env}, cell {cell}: {f} and {b}");
                }
            }
        }
        // A buffer of the wrong size for byte observations is refused, not written past.
        let mut short = vec![0u8; 10];
        assert!(bytes
            .step(&actions, with_bytes(&mut other, &mut short))
            .is_err());
    }

    #[test]
    fn byte_observations_are_the_games_bytes() {
        for id in ["checkers", "nine_mens_morris", "six_mens_morris"] {
            let (_, game) = AnyGame::load(id, &[] as &[(&str, &str)]).unwrap();
            with_family!(AnyGame, game, g => byte_observations_follow_the_floats(g));
        }
    }

    #[test]
    fn illegal_actions_and_short_batches_are_refused_before_any_env_moves() {
        let (_, game) = AnyGame::load("checkers", &[] as &[(&str, &str)]).unwrap();
        let AnyGame::Checkers(game) = game else {
            unreachable!()
        };
        let batch = Batch::new(game, 4, 0, None, Start::Initial);
        assert!(matches!(
            batch.check(&[0; 3]),
            Err(Error::ActionCount {
                expected: 4,
                found: 3
            })
        ));
        let mut actions = vec![0; 4];
        let mut sampled = batch.clone();
        sampled.sample(&mut actions).unwrap();
        actions[2] = -1;
        match batch.check(&actions) {
            Err(Error::EnvAction {
                env: 2, action: -1, ..
            }) => {}
            other => panic!("{other:?}"),
        }
    }
}
