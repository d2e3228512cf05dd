//! `AnyBatch`: a batch of either family, made from a loaded game and a [`BatchSpec`], with its
//! size checked against the machine's memory before anything is allocated.

use std::path::PathBuf;
use std::sync::Arc;

use perfectplay_core::checkers::Checkers;
use perfectplay_core::morris::Morris;
use perfectplay_core::registry::AnyGame;
use perfectplay_core::{ActionGame, Player};

use crate::batch::{Batch, Buffers, Opponent, OwnedBuffers, Reseed};
use crate::error::{Error, Result};
use crate::perfect::{SharedTables, Start, Tabled};
use perfectplay_core::with_family;

/// Who plays the other side of a single-agent batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpponentKind {
    /// Uniformly random legal actions.
    Random,
    /// A best move from the tables of [`BatchSpec::tables`].
    Perfect,
}

impl OpponentKind {
    /// The opponent's name as the fronts take it: `random` or `perfect`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            OpponentKind::Random => "random",
            OpponentKind::Perfect => "perfect",
        }
    }

    /// Reads `random` or `perfect`.
    pub fn parse(text: &str) -> Result<Self> {
        match text {
            "random" => Ok(OpponentKind::Random),
            "perfect" => Ok(OpponentKind::Perfect),
            other => Err(Error::BadArgument(format!(
                "unknown opponent `{other}`; valid opponents: random, perfect (with \
                 tablebase=...), or None for self-play"
            ))),
        }
    }
}

/// How to make a batch.
#[derive(Clone, Debug)]
pub struct BatchSpec {
    /// The number of envs (at least 1).
    pub num_envs: usize,
    /// The seed of every env's random streams.
    pub seed: u64,
    /// Self-play (`None`) or single-agent play against this opponent.
    pub opponent: Option<OpponentKind>,
    /// The agent's side in single-agent play.
    pub agent: Player,
    /// The directories of the tables a perfect opponent or an endgame start reads.
    pub tables: Option<Vec<PathBuf>>,
    /// Where games start: `None` for the game's starting position, or `subspace:KEY` for
    /// positions drawn from a table's subspace.
    pub start: Option<String>,
}

impl BatchSpec {
    /// `num_envs` envs in self-play from the starting position, seeded with `seed`.
    #[must_use]
    pub fn self_play(num_envs: usize, seed: u64) -> Self {
        BatchSpec {
            num_envs,
            seed,
            opponent: None,
            agent: Player::First,
            tables: None,
            start: None,
        }
    }

    /// Rewards per env: one (the agent's) in single-agent play, both players' in self-play.
    #[must_use]
    pub fn rewards_per_env(&self) -> usize {
        if self.opponent.is_some() {
            1
        } else {
            2
        }
    }
}

/// A batch of either family.
#[derive(Clone, Debug)]
pub enum AnyBatch {
    /// English checkers.
    Checkers(Batch<Checkers>),
    /// A morris game.
    Morris(Batch<Morris>),
}

impl AnyBatch {
    /// The batch of `game` that `spec` describes, its games not yet begun: call
    /// [`AnyBatch::reset`], which draws their starts and writes the first observations. Refused when its envs and the buffers of
    /// [`AnyBatch::row_lens`] would not fit this machine's memory, before allocating.
    pub fn new(game: &AnyGame, spec: &BatchSpec) -> Result<Self> {
        if spec.num_envs == 0 {
            return Err(Error::BadArgument("num_envs must be at least 1".to_owned()));
        }
        check_memory(game, spec)?;
        Ok(match *game {
            AnyGame::Checkers(g) => AnyBatch::Checkers(make_batch(g, spec)?),
            AnyGame::Morris(g) => AnyBatch::Morris(make_batch(g, spec)?),
        })
    }

    /// The shape of one env's observation.
    #[must_use]
    pub fn observation_shape(&self) -> Vec<usize> {
        with_family!(AnyBatch, self, b => b.game().observation_shape())
    }

    /// The sizes of the [`Buffers`] that [`AnyBatch::reset`] and [`AnyBatch::step`] write:
    /// values per observation, actions per mask, rewards per env (each times the envs).
    #[must_use]
    pub fn row_lens(&self) -> (usize, usize, usize) {
        with_family!(AnyBatch, self, b => (
            b.observation_len(),
            b.game().action_count(),
            b.rewards_per_env(),
        ))
    }

    /// Buffers for this batch.
    #[must_use]
    pub fn owned_buffers(&self) -> OwnedBuffers {
        with_family!(AnyBatch, self, b => b.owned_buffers())
    }

    /// The number of envs.
    #[must_use]
    pub fn len(&self) -> usize {
        with_family!(AnyBatch, self, b => b.len())
    }

    /// Whether the batch has no env (never: a batch has at least one).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Restarts every game; see [`Batch::reset`].
    pub fn reset(&mut self, seed: Reseed<'_>, buffers: Buffers<'_>) -> Result<()> {
        with_family!(AnyBatch, self, b => b.reset(seed, buffers))
    }

    /// Checks the actions before any env moves; see [`Batch::check`].
    pub fn check(&self, actions: &[i64]) -> Result<()> {
        with_family!(AnyBatch, self, b => b.check(actions))
    }

    /// Steps every env with actions checked by [`AnyBatch::check`]; see [`Batch::step`].
    ///
    /// # Panics
    ///
    /// In debug builds, if an action was not legal (unchecked), as [`Batch::step`].
    pub fn step(&mut self, actions: &[i64], buffers: Buffers<'_>) -> Result<()> {
        with_family!(AnyBatch, self, b => b.step(actions, buffers))
    }

    /// A uniformly random legal action per env; see [`Batch::sample`].
    pub fn sample(&mut self, out: &mut [i64]) -> Result<()> {
        with_family!(AnyBatch, self, b => b.sample(out))
    }

    /// Whether the next [`AnyBatch::sample`] only copies samples already drawn; see
    /// [`Batch::samples_drawn`].
    #[must_use]
    pub fn samples_drawn(&self) -> bool {
        with_family!(AnyBatch, self, b => b.samples_drawn())
    }

    /// The position string of env `index`, `None` outside the batch.
    #[must_use]
    pub fn fen(&self, index: usize) -> Option<String> {
        with_family!(AnyBatch, self, b => b.fen(index))
    }

    /// Probes of the perfect opponent that failed (and were played at random instead).
    #[must_use]
    pub fn perfect_misses(&self) -> u64 {
        with_family!(AnyBatch, self, b => b.perfect_misses())
    }
}

/// Refuses a batch whose envs and output buffers would not fit the memory this machine has
/// free (`MemAvailable`, or its physical memory where the system does not say), saying how
/// much they would need, rather than failing to allocate them half-way (an abort, or numpy's
/// failed allocation) or pushing the machine into swap.
fn check_memory(game: &AnyGame, spec: &BatchSpec) -> Result<()> {
    let (slot, obs, actions) = with_family!(AnyGame, game, g => (
        bytes_per_env(g),
        g.observation_shape().iter().product::<usize>(),
        g.action_count(),
    ));
    // The env, then its rows: observation (float32), mask (bool), player (int32), rewards
    // (float32), terminated and truncated (bool), sample and action (int64).
    let per_env = slot + 4 * obs + actions + 4 + 4 * spec.rewards_per_env() + 2 + 8 + 8;
    let total = (spec.num_envs as u128) * (per_env as u128);
    let memory = perfectplay_solver::limits::available_memory()
        .map(|free| (free, "free"))
        .or_else(|| physical_memory().map(|all| (all, "of memory")));
    if memory.is_some_and(|(m, _)| total > u128::from(m)) || total > isize::MAX as u128 {
        let limit = memory.map_or_else(String::new, |(m, what)| {
            format!(", more than this machine's {m} bytes {what}")
        });
        return Err(Error::BadArgument(format!(
            "num_envs={} would need {total} bytes ({per_env} per env){limit}",
            spec.num_envs
        )));
    }
    Ok(())
}

/// [`Batch::bytes_per_env`] of `game`'s family.
fn bytes_per_env<F: Tabled>(_game: &F) -> usize {
    Batch::<F>::bytes_per_env()
}

/// The machine's physical memory in bytes, where the system says.
fn physical_memory() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: `sysconf` only reads system configuration.
        let (pages, size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        if pages > 0 && size > 0 {
            return u64::try_from(pages)
                .ok()?
                .checked_mul(u64::try_from(size).ok()?);
        }
    }
    None
}

/// The batch of `game` that `spec` describes.
fn make_batch<F: Tabled>(game: F, spec: &BatchSpec) -> Result<Batch<F>> {
    let (num_envs, seed, agent) = (spec.num_envs, spec.seed, spec.agent);
    let perfect = spec.opponent == Some(OpponentKind::Perfect);
    if perfect && spec.tables.is_none() {
        return Err(Error::BadArgument(
            "opponent=\"perfect\" needs tablebase=DIR (or a list of directories)".to_owned(),
        ));
    }
    // Only a perfect opponent reads tables (a start drawn from a subspace needs its index
    // alone): tables given without one are a mistake to report (an opponent meant to be
    // perfect), not to ignore.
    if !perfect && spec.tables.is_some() {
        return Err(Error::BadArgument(
            "tablebase= is read by opponent=\"perfect\" alone (a start=\"subspace:KEY\" needs \
             the subspace's index, no table): leave tablebase out, or ask for that opponent"
                .to_owned(),
        ));
    }
    if !perfect && spec.start.is_none() {
        // Nothing reads tables or an index.
        let agent = spec.opponent.map(|_| (agent, Opponent::Random));
        return Ok(Batch::new(game, num_envs, seed, agent, Start::Initial));
    }
    let tables = SharedTables::open(&game, spec.tables.as_deref().unwrap_or_default())?;
    let start = match spec.start.as_deref() {
        None => Start::Initial,
        Some(text) => {
            let Some(name) = text.strip_prefix("subspace:") else {
                return Err(Error::BadArgument(format!(
                    "start=\"{text}\": give start=\"subspace:KEY\" (such as subspace:4-3), or \
                     None for the game's starting position"
                )));
            };
            Start::subspace(Arc::clone(&tables), name)?
        }
    };
    let agent = match spec.opponent {
        None => None,
        Some(OpponentKind::Random) => Some((agent, Opponent::Random)),
        Some(OpponentKind::Perfect) => {
            let covered = match &start {
                Start::Subspace { key, .. } => Some(*key),
                Start::Initial => F::start_key(tables.domain()),
            };
            let Some(key) = covered else {
                return Err(Error::BadArgument(
                    "no database holds this game's starting position: give \
                     start=\"subspace:KEY\" for perfect play"
                        .to_owned(),
                ));
            };
            tables.check_covers(key)?;
            Some((agent, Opponent::Perfect(Arc::clone(&tables))))
        }
    };
    Ok(Batch::new(game, num_envs, seed, agent, start))
}
