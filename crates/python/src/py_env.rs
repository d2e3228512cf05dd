//! Python's `VectorEnv`: an `AnyBatch` of either family behind numpy buffers that it owns.

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, TryLockError};

use numpy::ndarray::Dimension;
use numpy::{
    Element, PyArray, PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyReadonlyArray1,
    PyReadwriteArray,
};
use perfectplay_core::{ActionGame, Player};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use perfectplay_core::registry::AnyGame;
use perfectplay_core::with_family;
use perfectplay_env::batch::{Buffers, Mask, Observations, Reseed};
use perfectplay_env::{pool, AnyBatch, BatchSpec, OpponentKind};

use crate::arrays::exact_integers;
use crate::errors::Error;
use crate::ints::Int;
use crate::py_game::{options_from_kwargs, PyGame};
use crate::py_tablebase::PyTablebase;

/// Many games stepped together in Rust, in parallel, with the Python lock released: the
/// batched environment for reinforcement learning.
///
/// `VectorEnv(game_id, num_envs, seed=0, opponent=None, agent_player=0, copy=True,
/// tablebase=None, start=None, packed_mask=False, obs_dtype="float32", **rules)`. Rule options are keywords, as for
/// `load_game`, with the same meanings: `ply_limit=200` stops games after 200 plies,
/// `ply_limit=None` plays without a limit, and without `ply_limit` the game's own (1000 plies)
/// holds.
///
/// - `reset(seed=None) -> (obs, info)` restarts every game; a seed reseeds every env.
/// - `step(actions) -> (obs, rewards, terminated, truncated, info)` takes one action per env
///   (int64 array `[N]`). Observations are float32 (or uint8, below) `[N, *observation_shape]`, seen from the
///   player to move; `terminated` and `truncated` are bool `[N]` (truncated: the ply limit
///   cut the game short); `info["action_mask"]` is the bool `[N, num_actions]` mask of legal
///   actions and `info["current_player"]` the int32 `[N]` players to act (also
///   `env.current_player` and `env.action_mask`). Actions and observations are those of
///   `State`: a turn may take several actions by the same player.
/// - Self-play (`opponent=None`): each env's player to move acts; `rewards` is float32
///   `[N, 2]`, the returns of players 0 and 1 in the step where a game ends (1 win, -1 loss,
///   0 draw or truncation), else 0.
/// - Single-agent (`opponent="random"`): the agent plays `agent_player` (0 moves first); after
///   its action the opponent's uniformly random actions are applied in the same step until
///   the agent is to move again or the game is over (and after a reset, when the opponent
///   moves first). `rewards` is float32 `[N]`, from the agent's point of view. A reset
///   leaves the agent to act in every env: a start the opponent ends first is drawn again
///   (up to 1,000 times; `ValueError` where every draw ends at once, as with `ply_limit=1`).
/// - Perfect opponent (`opponent="perfect"`, `tablebase=` a directory or a list of them): the
///   opponent plays a best move from the endgame databases, uniformly among the equally good
///   ones (from the env's seeded stream). Every subspace reachable from the starts must have
///   its table (checked here, with the missing ones named, and each table's header read:
///   `TablebaseError` for one of another game or rules, truncated or of another version);
///   where a probe still fails during a step, the opponent plays a random move and
///   `perfect_misses` counts it.
/// - Endgame starts (`start="subspace:4-3"`): every game starts from a position drawn
///   uniformly from the subspace's indices whose positions are not over, from each env's own
///   stream (as `Tablebase.sample_states` draws them); the side to move there has the first
///   count of men (or pieces): White in morris, Black in checkers. Without `tablebase` only
///   the subspace's index is needed, no table. A `tablebase` without a perfect opponent,
///   which alone reads it, is refused (`ValueError`).
/// - Autoreset, Gymnasium's next-step mode: the step in which a game ends returns its final
///   observation with `terminated` or `truncated` set; in the next step that env ignores its
///   action and starts a new game, returning the first observation with zero reward and both
///   flags false. A finished env's `current_player` is -4 and its mask all false.
/// - `sample_legal_actions()` draws a uniformly random legal action per env from each env's
///   own seeded stream, uniformly among the legal actions (taken in ascending order). Results
///   depend on the seed and the calls made, never on the thread count (`RAYON_NUM_THREADS`).
///   For the loop `env.step(env.sample_legal_actions())`: a step whose actions equal the
///   latest sample (no step or reset since) skips the legality check, and after a sample the
///   next step or reset draws the next samples while it has the envs at hand, for the next
///   call to hand out (drawing stops after a pass whose samples went unused, and a seeded
///   reset starts again as a new env does).
/// - Threads: `RAYON_NUM_THREADS` (one per CPU by default). The first Python thread that steps
///   envs steps them itself, with that many less one workers of its own; other threads step
///   theirs on rayon's global pool. Each thread steps about the same envs at every call, in
///   chunks of 32, so that their data stays in its core's caches; a batch of 32 envs or fewer
///   is stepped by the calling thread alone (a second thread would cost more than it does).
///   After a call the workers wait awake, spinning, for up to 50 µs, so that back-to-back
///   calls find them ready: code run between steps on the same cores (a policy on the CPU)
///   shares them with that spin. With multiprocessing, prefer the `spawn` or `forkserver`
///   start method: a forked child steps its envs on its calling thread alone.
/// - One env serves one Python thread at a time: a call made while another thread's call of the
///   same env is still running (a step releases Python's lock) raises `RuntimeError` saying
///   so, rather than waiting; make an env per thread.
/// - An illegal action raises `IllegalActionError` naming the env index, before any env moves.
/// - `packed_mask=True`: the masks are uint8 `[N, ceil(num_actions / 8)]`, eight actions to a
///   byte, lowest bit first (`np.unpackbits(mask, axis=1, bitorder="little")[:, :num_actions]`
///   is the bool mask), the bits past the last action zero: an eighth of the bytes to write
///   each step and to move to a learner (600 bools per env become 75 bytes on the 24-point
///   boards).
/// - `obs_dtype="uint8"` (or `numpy.uint8`): the observations are uint8, a quarter of the bytes
///   of float32 (168 instead of 672 per env on the 24-point boards, 320 instead of 1280 for
///   checkers), so that a large batch's rows stay in the caches: the same planes, with 0 and 1
///   for 0.0 and 1.0, except the morris planes of men in hand, which hold their number (0 to
///   the men per side) rather than its fraction of the men per side. `observation_high` is the
///   largest value either dtype holds.
///
/// Buffers: by default (`copy=True`, as Gymnasium's vector envs) every call returns fresh
/// arrays, safe to keep. `copy=False` is the fast path: the arrays returned by `reset`, `step`
/// and `sample_legal_actions` then belong to the env and are overwritten in place by the next
/// call, so that stepping allocates nothing; copy what you keep (`obs.copy()`), and do not
/// hold a `torch.from_numpy` view of them across steps.
#[pyclass(module = "perfectplay", name = "VectorEnv", frozen)]
pub(crate) struct PyVectorEnv {
    game: PyGame,
    num_envs: usize,
    opponent: Option<&'static str>,
    agent_player: usize,
    copy: bool,
    obs: ObsArray,
    mask: MaskArray,
    players: Py<PyArray1<i32>>,
    rewards: Py<PyArrayDyn<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    sampled: Py<PyArray1<i64>>,
    /// The envs, which one Python thread at a time may step or read (with the Python lock
    /// released during a step, a second thread would otherwise find them, and the arrays,
    /// half written).
    stepper: Mutex<Stepper>,
}

/// What a step changes besides the arrays.
struct Stepper {
    batch: AnyBatch,
    /// The actions of the step being made, copied from Python's array (kept to reuse).
    actions: Vec<i64>,
}

/// The observations: float32, or uint8 with `obs_dtype="uint8"`.
enum ObsArray {
    Floats(Py<PyArrayDyn<f32>>),
    Bytes(Py<PyArrayDyn<u8>>),
}

/// A zeroed array of `shape` made by numpy's own `zeros`, so that a failed allocation is the
/// `MemoryError` numpy raises (rust-numpy's `zeros` panics on one).
fn zeros<'py, T: Element, D: Dimension>(
    py: Python<'py>,
    shape: &[usize],
) -> PyResult<Bound<'py, PyArray<T, D>>> {
    let array = py
        .import("numpy")?
        .call_method1("zeros", (shape.to_vec(), numpy::dtype::<T>(py)))?;
    Ok(array.cast_into::<PyArray<T, D>>()?)
}

impl ObsArray {
    /// Zeroed observations of `shape` in `dtype` (`"float32"` or `"uint8"`).
    fn zeros(py: Python<'_>, shape: &[usize], dtype: &str) -> PyResult<ObsArray> {
        Ok(if dtype == "uint8" {
            ObsArray::Bytes(zeros(py, shape)?.unbind())
        } else {
            ObsArray::Floats(zeros(py, shape)?.unbind())
        })
    }

    fn bind<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match self {
            ObsArray::Floats(a) => a.bind(py).clone().into_any(),
            ObsArray::Bytes(a) => a.bind(py).clone().into_any(),
        }
    }
}

/// The name of an `obs_dtype=` argument as numpy spells it (`numpy.dtype(value).name`):
/// `"float32"` or `"uint8"`.
fn obs_dtype_name(value: &Bound<'_, PyAny>) -> PyResult<&'static str> {
    let name: String = value
        .py()
        .import("numpy")?
        .getattr("dtype")?
        .call1((value,))
        .and_then(|dtype| dtype.getattr("name")?.extract())
        .map_err(|_| {
            Error::BadArgument(format!(
                "obs_dtype takes \"float32\" or \"uint8\" (or the numpy dtypes), not {value}"
            ))
        })?;
    match name.as_str() {
        "float32" => Ok("float32"),
        "uint8" => Ok("uint8"),
        other => Err(Error::BadArgument(format!(
            "obs_dtype takes \"float32\" or \"uint8\", not {other}"
        ))
        .into()),
    }
}

/// The legal-action masks: bool `[N, num_actions]`, or with `packed_mask=True` uint8
/// `[N, ceil(num_actions / 8)]`, eight actions to a byte, lowest bit first.
enum MaskArray {
    Bools(Py<PyArray2<bool>>),
    Bits(Py<PyArray2<u8>>),
}

impl MaskArray {
    fn bind<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match self {
            MaskArray::Bools(a) => a.bind(py).clone().into_any(),
            MaskArray::Bits(a) => a.bind(py).clone().into_any(),
        }
    }
}

/// The directories of a `tablebase=` argument: a `Tablebase` (its directories), one path
/// (`str`, `bytes` or `os.PathLike`) or an iterable of them.
fn table_dirs(value: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if let Ok(tb) = value.cast::<PyTablebase>() {
        return Ok(tb.borrow().dirs());
    }
    crate::py_tablebase::directory_list(value, "tablebase", "a Tablebase, ", false)
}

/// The seeds of a `reset(seed=...)`: `None`, one int for the whole batch, or one per env.
enum SeedArg {
    Keep,
    All(u64),
    Each(Vec<u64>),
}

impl SeedArg {
    /// `num_envs` bounds what is read of an iterable: an endless one (`itertools.count()`)
    /// is refused after one seed too many instead of being read until memory runs out.
    fn parse(seed: Option<&Bound<'_, PyAny>>, num_envs: usize) -> PyResult<SeedArg> {
        let Some(seed) = seed.filter(|s| !s.is_none()) else {
            return Ok(SeedArg::Keep);
        };
        if let Ok(one) = seed.extract::<Int>() {
            return Ok(SeedArg::All(one.unsigned("seed")?));
        }
        let refused = || {
            PyErr::from(Error::ArgumentType(
                "seed takes None, an int from 0 to 2**64 - 1, or a sequence of them, one per env"
                    .into(),
            ))
        };
        if seed.is_instance_of::<pyo3::types::PyString>() {
            return Err(refused());
        }
        let items = seed.try_iter().map_err(|_| refused())?;
        let mut seeds = Vec::new();
        for (env, item) in items.enumerate() {
            if env == num_envs {
                return Err(Error::BadArgument(format!(
                    "seed: more than {num_envs} seeds for {num_envs} envs (one per env)"
                ))
                .into());
            }
            let one = item?.extract::<Int>().map_err(|_| refused())?;
            seeds.push(one.unsigned(&format!("seed[{env}]"))?);
        }
        Ok(SeedArg::Each(seeds))
    }

    fn reseed(&self) -> Reseed<'_> {
        match self {
            SeedArg::Keep => Reseed::Keep,
            SeedArg::All(seed) => Reseed::All(*seed),
            SeedArg::Each(seeds) => Reseed::Each(seeds),
        }
    }
}

/// The actions as a contiguous int64 array, converting other arrays and sequences.
/// The actions of a step as read, before the envs are taken: reading other than an int64
/// array runs Python code (`numpy.asarray`, a sequence's `__iter__`), which could call the env.
enum ReadActions<'py> {
    /// A C-contiguous int64 array, borrowed (the fast path: nothing allocated).
    Array(PyReadonlyArray1<'py, i64>),
    /// Anything else, converted.
    Converted(Vec<i64>),
}

impl ReadActions<'_> {
    /// Copies the actions into `into`.
    fn copy_into(&self, into: &mut Vec<i64>) -> PyResult<()> {
        match self {
            ReadActions::Array(array) => into.extend_from_slice(array.as_slice()?),
            ReadActions::Converted(values) => into.extend_from_slice(values),
        }
        Ok(())
    }
}

/// The actions of `actions` (int64 `[num_envs]`, or any integer array or sequence that converts
/// without loss). Floats, bools and values outside int64 are refused, not rounded or wrapped
/// into other actions.
fn read_actions<'py>(actions: &Bound<'py, PyAny>) -> PyResult<ReadActions<'py>> {
    if let Ok(array) = actions.extract::<PyReadonlyArray1<'py, i64>>() {
        if array.as_slice().is_ok() {
            return Ok(ReadActions::Array(array));
        }
    }
    let (values, shape) = exact_integers::<i64>(actions, "actions", |i, v| {
        Error::BadArgument(format!("actions[{i}] is {v}, outside the action numbers"))
    })?;
    if shape.len() != 1 {
        return Err(Error::BadArgument(format!(
            "actions must be one-dimensional, one per env; got shape {shape:?}"
        ))
        .into());
    }
    Ok(ReadActions::Converted(values))
}

impl PyVectorEnv {
    /// The envs, for this thread alone; an error where another thread has them (a call of
    /// this env still running there), rather than waiting: one env stepped by two threads
    /// is a mistake to report, not to serialize.
    fn stepper(&self) -> PyResult<MutexGuard<'_, Stepper>> {
        self.stepper.try_lock().map_err(|err| {
            Error::Busy(match err {
                TryLockError::WouldBlock => "this VectorEnv is in use by another thread (a call \
                    of it is still running there): a VectorEnv serves one thread at a time; \
                    make one per thread"
                    .to_owned(),
                TryLockError::Poisoned(_) => "this VectorEnv stopped in the middle of a call \
                    that failed unexpectedly, and its games are in no known state: make a new \
                    one"
                .to_owned(),
            })
            .into()
        })
    }

    /// Runs `f` on `batch` and the buffers, without the Python lock.
    fn with_buffers<R: Send>(
        &self,
        batch: &mut AnyBatch,
        py: Python<'_>,
        f: impl FnOnce(&mut AnyBatch, Buffers<'_>) -> R + Send,
    ) -> PyResult<R> {
        let (mut floats, mut bytes);
        let obs = match &self.obs {
            ObsArray::Floats(array) => {
                floats = writable(array.bind(py), "observation")?;
                Observations::Floats(floats.as_slice_mut()?)
            }
            ObsArray::Bytes(array) => {
                bytes = writable(array.bind(py), "observation")?;
                Observations::Bytes(bytes.as_slice_mut()?)
            }
        };
        let (mut bools, mut bits);
        let mask = match &self.mask {
            MaskArray::Bools(array) => {
                bools = writable(array.bind(py), "action mask")?;
                Mask::Bools(bools.as_slice_mut()?)
            }
            MaskArray::Bits(array) => {
                bits = writable(array.bind(py), "action mask")?;
                Mask::Bits(bits.as_slice_mut()?)
            }
        };
        let mut players = writable(self.players.bind(py), "current player")?;
        let mut rewards = writable(self.rewards.bind(py), "reward")?;
        let mut terminated = writable(self.terminated.bind(py), "terminated")?;
        let mut truncated = writable(self.truncated.bind(py), "truncated")?;
        let buffers = Buffers {
            obs,
            mask,
            players: players.as_slice_mut()?,
            rewards: rewards.as_slice_mut()?,
            terminated: terminated.as_slice_mut()?,
            truncated: truncated.as_slice_mut()?,
        };
        Ok(py.detach(move || pool::run_steps(move || f(batch, buffers))))
    }

    /// Checks `actions` and steps every env of `batch` with them.
    fn step_with(&self, batch: &mut AnyBatch, py: Python<'_>, actions: &[i64]) -> PyResult<()> {
        batch.check(actions).map_err(Error::from)?;
        self.with_buffers(batch, py, |batch, buffers| batch.step(actions, buffers))?
            .map_err(Error::from)?;
        Ok(())
    }

    /// `array`, or a copy of it with `copy=True`.
    fn out<'py>(&self, array: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        if self.copy {
            array.call_method0("copy")
        } else {
            Ok(array)
        }
    }

    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let info = PyDict::new(py);
        info.set_item("action_mask", self.out(self.mask.bind(py))?)?;
        info.set_item(
            "current_player",
            self.out(self.players.bind(py).clone().into_any())?,
        )?;
        Ok(info)
    }
}

#[pymethods]
impl PyVectorEnv {
    #[new]
    #[pyo3(signature = (
        game_id, num_envs, seed = Int::Fits(0), opponent = None, agent_player = Int::Fits(0), copy = true,
        tablebase = None, start = None, packed_mask = false, obs_dtype = None, **rules
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game_id: &str,
        num_envs: Int,
        seed: Int,
        opponent: Option<&str>,
        agent_player: Int,
        copy: bool,
        tablebase: Option<&Bound<'_, PyAny>>,
        start: Option<&str>,
        packed_mask: bool,
        obs_dtype: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let num_envs: usize = num_envs.positive("num_envs")?;
        let seed: u64 = seed.unsigned("seed")?;
        let obs_dtype = obs_dtype.map(obs_dtype_name).transpose()?;
        let options = options_from_kwargs(rules)?;
        let game = PyGame::load(game_id, &options)?;
        let agent = match agent_player.get::<u8>() {
            Some(0) => Player::First,
            Some(1) => Player::Second,
            _ => {
                return Err(Error::BadArgument(format!(
                    "agent_player must be 0 or 1, not {agent_player}"
                ))
                .into())
            }
        };
        let spec = BatchSpec {
            num_envs,
            seed,
            opponent: opponent
                .map(OpponentKind::parse)
                .transpose()
                .map_err(Error::from)?,
            agent,
            tables: tablebase.map(table_dirs).transpose()?,
            start: start.map(str::to_owned),
        };
        let batch = AnyBatch::new(&game.game, &spec).map_err(Error::from)?;
        let shape = batch.observation_shape();
        let (_, count, per_env) = batch.row_lens();
        let mut obs_shape = vec![num_envs];
        obs_shape.extend(shape);
        let reward_shape = if per_env == 1 {
            vec![num_envs]
        } else {
            vec![num_envs, per_env]
        };
        let env = PyVectorEnv {
            game,
            num_envs,
            opponent: spec.opponent.map(OpponentKind::name),
            agent_player: usize::from(agent == Player::Second),
            copy,
            obs: ObsArray::zeros(py, &obs_shape, obs_dtype.unwrap_or("float32"))?,
            mask: if packed_mask {
                MaskArray::Bits(zeros(py, &[num_envs, count.div_ceil(8)])?.unbind())
            } else {
                MaskArray::Bools(zeros(py, &[num_envs, count])?.unbind())
            },
            players: zeros(py, &[num_envs])?.unbind(),
            rewards: zeros(py, &reward_shape)?.unbind(),
            terminated: zeros(py, &[num_envs])?.unbind(),
            truncated: zeros(py, &[num_envs])?.unbind(),
            sampled: zeros(py, &[num_envs])?.unbind(),
            stepper: Mutex::new(Stepper {
                batch,
                actions: Vec::with_capacity(num_envs),
            }),
        };
        {
            let mut stepper = env.stepper()?;
            env.with_buffers(&mut stepper.batch, py, |batch, buffers| {
                batch.reset(Reseed::Keep, buffers)
            })?
            .map_err(Error::from)?;
        }
        Ok(env)
    }

    /// Restarts every game and returns `(obs, info)`. `seed` reseeds the envs' random streams:
    /// an int reseeds every env as the constructor's seed does, a sequence of one int per env
    /// reseeds env `i` as the only env of a `VectorEnv` seeded `seed[i]`; `None` lets them go
    /// on.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let seed = SeedArg::parse(seed, self.num_envs)?;
        let mut stepper = self.stepper()?;
        self.with_buffers(&mut stepper.batch, py, |batch, buffers| {
            batch.reset(seed.reseed(), buffers)
        })?
        .map_err(Error::from)?;
        let obs = self.out(self.obs.bind(py))?;
        PyTuple::new(py, [obs, self.info(py)?.into_any()])
    }

    /// Steps every env with its action (int64 `[num_envs]`) and returns `(obs, rewards,
    /// terminated, truncated, info)`; see the class documentation. An illegal action raises
    /// `IllegalActionError` naming the env, and no env moves.
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        // Read before the envs are taken (reading may run Python code that calls this env),
        // and copied while Python's lock is held: with the lock released, another Python
        // thread could change the array between the check and the step.
        let read = read_actions(actions)?;
        let mut guard = self.stepper()?;
        let stepper = &mut *guard;
        stepper.actions.clear();
        read.copy_into(&mut stepper.actions)?;
        drop(read);
        self.step_with(&mut stepper.batch, py, &stepper.actions)?;
        PyTuple::new(
            py,
            [
                self.out(self.obs.bind(py))?,
                self.out(self.rewards.bind(py).clone().into_any())?,
                self.out(self.terminated.bind(py).clone().into_any())?,
                self.out(self.truncated.bind(py).clone().into_any())?,
                self.info(py)?.into_any(),
            ],
        )
    }

    /// A uniformly random legal action per env (int64 `[num_envs]`), from each env's own
    /// seeded stream; 0 for an env whose game just ended (it ignores its next action).
    fn sample_legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut stepper = self.stepper()?;
        {
            let mut sampled = writable(self.sampled.bind(py), "sampled actions")?;
            let out = sampled.as_slice_mut()?;
            let batch = &mut stepper.batch;
            if batch.samples_drawn() {
                // A copy of what the last step drew: no pass over the envs, so neither the
                // lock released nor the pool's workers called on.
                batch.sample(out)
            } else {
                // `run`, not `run_steps`: the draw is a rayon loop of its own, which waiting
                // workers would not help with.
                py.detach(move || pool::run(move || batch.sample(out)))
            }
            .map_err(Error::from)?;
        }
        self.out(self.sampled.bind(py).clone().into_any())
    }

    /// The position string of env `index`'s game.
    fn fen(&self, index: Int) -> PyResult<String> {
        let env = index.get::<usize>();
        let stepper = self.stepper()?;
        env.and_then(|i| stepper.batch.fen(i)).ok_or_else(|| {
            Error::BadArgument(format!(
                "env index {index} out of range 0..{}",
                self.num_envs
            ))
            .into()
        })
    }

    /// The number of envs.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }

    /// The size of the action space (`Game.num_distinct_actions()`).
    #[getter]
    fn num_actions(&self) -> usize {
        with_family!(AnyGame, &self.game.game, g => g.action_count())
    }

    /// The shape of one env's observation (`Game.observation_shape()`).
    #[getter]
    fn observation_shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let shape = with_family!(AnyGame, &self.game.game, g => g.observation_shape());
        PyTuple::new(py, shape)
    }

    /// The observations' numpy dtype name: `"float32"`, or `"uint8"` (`obs_dtype="uint8"`).
    #[getter]
    fn obs_dtype(&self) -> &'static str {
        match self.obs {
            ObsArray::Floats(_) => "float32",
            ObsArray::Bytes(_) => "uint8",
        }
    }

    /// The largest value an observation holds: 1.0 in float32; in uint8 1 for checkers and the
    /// men per side for morris (the planes of men in hand count them).
    #[getter]
    fn observation_high(&self) -> f64 {
        match self.obs {
            ObsArray::Floats(_) => 1.0,
            ObsArray::Bytes(_) => {
                f64::from(with_family!(AnyGame, &self.game.game, g => g.observation_byte_max()))
            }
        }
    }

    /// The game, with its rules.
    #[getter]
    fn game(&self) -> PyGame {
        self.game
    }

    /// The opponent in single-agent mode (`"random"` or `"perfect"`), or `None` for self-play.
    #[getter]
    fn opponent(&self) -> Option<&'static str> {
        self.opponent
    }

    /// How many of the perfect opponent's probes failed so far (each replaced by a random
    /// move): 0 unless a table's payload is damaged (found when it is first read) or a file
    /// changed after the env was made.
    #[getter]
    fn perfect_misses(&self) -> PyResult<u64> {
        Ok(self.stepper()?.batch.perfect_misses())
    }

    /// The player the agent plays in single-agent mode (0 moves first).
    #[getter]
    fn agent_player(&self) -> usize {
        self.agent_player
    }

    /// The players to act, int32 `[num_envs]`: 0 or 1, or -4 where a game has just ended.
    #[getter]
    fn current_player<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let _envs = self.stepper()?;
        self.out(self.players.bind(py).clone().into_any())
    }

    /// The legal-action masks, bool `[num_envs, num_actions]` (uint8 `[num_envs,
    /// ceil(num_actions / 8)]` with `packed_mask=True`).
    #[getter]
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let _envs = self.stepper()?;
        self.out(self.mask.bind(py))
    }

    fn __repr__(&self) -> String {
        format!(
            "<perfectplay.VectorEnv {} x{} opponent={}>",
            self.game.id,
            self.num_envs,
            self.opponent.unwrap_or("None")
        )
    }
}

/// `array`, one of the env's own, to write into; a `ValueError` where Python has made it
/// read-only (or holds it borrowed), before any env moves.
fn writable<'py, T: Element, D: Dimension>(
    array: &Bound<'py, PyArray<T, D>>,
    name: &str,
) -> PyResult<PyReadwriteArray<'py, T, D>> {
    array.try_readwrite().map_err(|_| {
        Error::BadArgument(format!(
            "the env's {name} array cannot be written: its flags.writeable was cleared (the env \
             writes every step into the arrays it returned with copy=False: copy what you keep \
             instead)"
        ))
        .into()
    })
}
