//! Perfect play and endgame starts for `VectorEnv`: an opponent that plays a best move from
//! the databases, and starting positions drawn from one database subspace.
//!
//! Both read a [`Tablebase`] shared by every env. What the env's game can reach from its
//! starts is checked against the tables when the env is made: every subspace the start
//! subspace leads to (by captures, crowning, placements) must have its table, so the opponent
//! never meets a position without one, and each table's header is read: a table of another
//! game or rules, truncated, or of another format version is refused then. A table's payload
//! is checked when it is first read; if a probe fails during a step (a payload damaged, or a
//! file changed after the check), the opponent plays a uniformly random legal move instead
//! and the env counts it (`VectorEnv.perfect_misses`).

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use perfectplay_core::SplitMix64;
use perfectplay_solver::{Domain, Tablebase};

use crate::error::{Error, Result};
use crate::games::Family;

/// A game family with endgame databases: the environment's [`Family`] and the solver's
/// [`perfectplay_solver::Tabled`].
pub trait Tabled: Family + perfectplay_solver::Tabled {}

impl<F: Family + perfectplay_solver::Tabled> Tabled for F {}

/// Tables shared by the envs of a batch, and how often they failed a probe.
pub struct SharedTables<F: Tabled> {
    tb: Tablebase<F::Domain>,
    misses: AtomicU64,
}

impl<F: Tabled> SharedTables<F> {
    /// The tables of `game` in `dirs`.
    pub fn open(game: &F, dirs: &[std::path::PathBuf]) -> Result<Arc<Self>> {
        let tb = game.open_tables(dirs)?;
        Ok(Arc::new(SharedTables {
            tb,
            misses: AtomicU64::new(0),
        }))
    }

    /// Checks that every subspace reachable from `start` has a table, and that each table's
    /// header is whole and of this game, rules and subspace.
    pub fn check_covers(&self, start: <F::Domain as Domain>::Key) -> Result<()> {
        self.tb.check_covers(start)?;
        Ok(self.tb.check_headers(start)?)
    }

    /// The domain.
    pub fn domain(&self) -> &F::Domain {
        self.tb.domain()
    }

    /// Probes that failed during steps.
    pub fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }

    /// A best move of `pos` (uniformly among the equally good ones, from `rng`), or `None`
    /// when the probe fails (counted).
    pub fn best_move(&self, pos: &F::Position, rng: &mut SplitMix64) -> Option<F::Move> {
        match self.tb.best_moves(pos) {
            Ok(best) => rng.pick(&best).map(|m| m.mv),
            Err(_) => {
                self.misses.fetch_add(1, Ordering::Relaxed);
                None
            }
        }
    }
}

/// Where each game of a batch starts.
pub enum Start<F: Tabled> {
    /// The game's starting position.
    Initial,
    /// A position drawn uniformly from the subspace's indices whose positions are not over
    /// (see [`draw_position`]).
    Subspace {
        /// The tables (their domain enumerates the subspace).
        tables: Arc<SharedTables<F>>,
        /// The subspace.
        key: <F::Domain as Domain>::Key,
    },
}

impl<F: Tabled> Clone for Start<F> {
    fn clone(&self) -> Self {
        match self {
            Start::Initial => Start::Initial,
            Start::Subspace { tables, key } => Start::Subspace {
                tables: Arc::clone(tables),
                key: *key,
            },
        }
    }
}

impl<F: Tabled> fmt::Debug for Start<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Start::Initial => f.write_str("Initial"),
            Start::Subspace { key, .. } => write!(f, "Subspace({key})"),
        }
    }
}

/// Draws before a subspace is declared to have no playable position.
const START_TRIES: usize = 10_000;

/// The subspace of `domain` named `name`, if it holds positions.
pub fn parse_subspace<D: Domain>(domain: &D, name: &str) -> Result<D::Key> {
    domain
        .parse_key(name)
        .filter(|&k| domain.check_key(k).is_ok() && domain.size(k) > 0)
        .ok_or_else(|| {
            Error::BadArgument(format!(
                "no such subspace of {}: `{name}` (morris: men of the side to move and of the \
                 other side, such as 4-3; checkers: such as 2110-53)",
                domain.game_id()
            ))
        })
}

/// The position of a uniformly drawn index of subspace `key` whose position is not over (by
/// rejection); after `START_TRIES` failed draws, the first such position at or after one
/// more drawn index (wrapping), so that a subspace with any such position always gives one.
/// `None` when it has none.
pub fn draw_position<D: Domain>(
    domain: &D,
    key: D::Key,
    rng: &mut SplitMix64,
) -> Option<<D::Game as perfectplay_core::Game>::Position> {
    use perfectplay_core::Game;
    let size = domain.size(key);
    let playable = |range: std::ops::Range<u64>| {
        let mut found = None;
        domain.for_each_position(key, range, |i, pos| {
            if found.is_none()
                && !domain.is_hole(key, i, pos)
                && domain.game().outcome(pos).is_none()
            {
                found = Some(*pos);
            }
        });
        found
    };
    for _ in 0..START_TRIES {
        let index = rng.below(size as usize).unwrap_or(0) as u64;
        if let Some(pos) = playable(index..index + 1) {
            return Some(pos);
        }
    }
    let from = rng.below(size as usize).unwrap_or(0) as u64;
    playable(from..size).or_else(|| playable(0..from))
}

impl<F: Tabled> Start<F> {
    /// Starts from subspace `name` of `tables`' domain.
    pub fn subspace(tables: Arc<SharedTables<F>>, name: &str) -> Result<Self> {
        let key = parse_subspace(tables.domain(), name)
            .map_err(|e| Error::BadArgument(format!("start=\"subspace:{name}\": {e}")))?;
        if draw_position(tables.domain(), key, &mut SplitMix64::new(0)).is_none() {
            return Err(Error::BadArgument(format!(
                "start=\"subspace:{name}\": every position of it is already over"
            )));
        }
        Ok(Start::Subspace { tables, key })
    }

    /// A starting position: `None` for the game's own start.
    pub fn draw(&self, rng: &mut SplitMix64) -> Option<F::Position> {
        let Start::Subspace { tables, key } = self else {
            return None;
        };
        draw_position(tables.domain(), *key, rng)
    }
}
