"""Gymnasium environments for every perfectplay game.

Importing this module registers one Gymnasium id per game::

    import gymnasium as gym
    import perfectplay.gymnasium_env  # registers the perfectplay/... ids

    env = gym.make("perfectplay/NineMensMorris-v0")
    obs, info = env.reset(seed=0)
    action = env.action_space.sample(mask=info["action_mask"])
    obs, reward, terminated, truncated, info = env.step(action)

Without the import, ``gym.make("perfectplay.gymnasium_env:perfectplay/Checkers-v0")`` imports
it on the fly. Keyword arguments given to ``gym.make`` that the environment does not take
itself are rule options for :func:`perfectplay.load_game`, e.g.
``gym.make("perfectplay/TwelveMensMorris-v0", ply_limit=200)``.

:class:`PerfectPlayEnv` is single-agent: the agent plays one side (``agent_player``, 0 being
the side that moves first) against an opponent that moves inside :meth:`PerfectPlayEnv.step`.
:class:`PerfectPlayVectorEnv` is the batched form, stepped in Rust by
:class:`perfectplay.VectorEnv`; ``gym.make_vec(id, num_envs=N)`` builds it.

Actions and observations are those of :class:`perfectplay.State`: a turn may take several
actions by the same player (each jump of a checkers capture, and a morris mill's removal), so
the agent may act several times in a row. ``info["action_mask"]`` (int8, 1 at the legal
actions) says what it may do; an illegal action ends the episode as a loss by default.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np

try:
    import gymnasium as gym
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv as _GymVectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "perfectplay.gymnasium_env needs Gymnasium 1.1 or later (its AutoresetMode): "
        "pip install 'perfectplay[gym]' (or pip install gymnasium)"
    ) from exc

import perfectplay as pp
from perfectplay._games import checked_start, exact_int

__all__ = [
    "ENV_IDS",
    "START_DRAWS",
    "Opponent",
    "Start",
    "PerfectPlayEnv",
    "PerfectPlayVectorEnv",
    "register_envs",
]

#: Each registered Gymnasium id and the perfectplay game id it plays.
ENV_IDS: Dict[str, str] = {
    "perfectplay/Checkers-v0": "checkers",
    "perfectplay/NineMensMorris-v0": "nine_mens_morris",
    "perfectplay/TwelveMensMorris-v0": "twelve_mens_morris",
    "perfectplay/NineMensMorrisNoFlying-v0": "nine_mens_morris_no_flying",
    "perfectplay/Shah-v0": "shah",
    "perfectplay/LaskerMorris-v0": "lasker_morris",
    "perfectplay/Morabaraba-v0": "morabaraba",
    "perfectplay/SixMensMorris-v0": "six_mens_morris",
    "perfectplay/ThreeMensMorris-v0": "three_mens_morris",
}

#: An opponent: ``"random"`` (uniform among the legal actions, drawn from the environment's
#: seeded generator), ``"perfect"`` (a best move from the endgame databases given as
#: ``tablebase``, uniformly among the equally good ones) or a callable
#: ``opponent(state) -> action`` given a copy of the state.
Opponent = Union[str, Callable[[Any], int]]

#: Where games start: ``None`` (the game's starting position), ``"subspace:KEY"`` (a position
#: drawn uniformly from a database subspace, such as ``"subspace:4-3"``: endgame training), or
#: a callable ``start(np_random) -> State or position string``.
Start = Union[None, str, Callable[[np.random.Generator], Any]]

_Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
TablebaseLike = Union[None, _Path, Iterable[_Path], "pp.Tablebase"]


def _tablebase(game: Any, tablebase: TablebaseLike) -> Optional["pp.Tablebase"]:
    """``tablebase`` as a :class:`perfectplay.Tablebase` of ``game`` (None stays None)."""
    if tablebase is None or isinstance(tablebase, pp.Tablebase):
        return tablebase
    return pp.tablebase.open(tablebase, game=game)


def _table_dirs(tablebase: TablebaseLike) -> Union[None, List[str]]:
    """The directories of ``tablebase``, for :class:`perfectplay.VectorEnv`."""
    if tablebase is None:
        return None
    if isinstance(tablebase, pp.Tablebase):
        return list(tablebase.directories)
    return pp.tablebase._directories(tablebase)

_ILLEGAL_ACTION_MODES = ("lose", "raise")

#: How many starts :meth:`PerfectPlayEnv.reset` draws (from a subspace or a callable start)
#: before it gives up finding one the opponent does not end before the agent acts: the
#: batched VectorEnv's figure, one number for both.
START_DRAWS: int = pp.START_DRAWS


def _observation_space(game: Any, dtype: str = "float32", high: float = 1.0) -> spaces.Box:
    """The Box every observation of ``game`` lies in: float32 in [0, 1], or ``dtype`` up to
    ``high``."""
    shape = tuple(int(n) for n in game.observation_shape())
    return spaces.Box(low=0, high=high, shape=shape, dtype=np.dtype(dtype))


class PerfectPlayEnv(gym.Env):
    """One perfectplay game as a single-agent Gymnasium environment.

    The agent plays ``agent_player`` (0, the default, is the side that moves first: Black in
    checkers, White in morris); the opponent's actions are applied inside :meth:`step` (and
    :meth:`reset`, when the opponent moves first) until the agent is to act again or the game
    is over.

    - Observation: float32 ``Box(0, 1, game.observation_shape())``, seen from the agent (the
      player to act); at the end of a game, seen from the player the rules would have to move.
    - Action: ``Discrete(game.num_distinct_actions())``.
    - ``info["action_mask"]``: int8 ``[num_actions]``, 1 at the legal actions (all zeros once
      the episode is over), ready for ``env.action_space.sample(mask=...)``; also
      :meth:`action_masks`. ``info["current_player"]`` is the player to act (-4 at the end).
    - Reward: 0 until the game ends, then +1 for a win, -1 for a loss, 0 for a draw, from the
      agent's point of view.
    - ``terminated`` when the game is decided or drawn; ``truncated`` when the engine's ply
      limit cuts it short (rule option ``ply_limit``). At the end ``info`` also has
      ``"winner"`` (0, 1 or ``None``) and ``"reason"`` (the outcome's reason).
    - An illegal action: with ``illegal_action="lose"`` (the default) the episode terminates
      with reward -1 and ``info["illegal_action"] = True``; with ``"raise"`` the engine's
      ``IllegalActionError`` (a ``ValueError``) propagates and nothing changes.

    Args:
        game_id: any id of :func:`perfectplay.game_ids` (aliases too).
        agent_player: the side the agent plays, 0 or 1.
        opponent: ``"random"``, ``"perfect"`` (needs ``tablebase``) or a callable
            ``opponent(state) -> action``.
        render_mode: ``None``, ``"ansi"`` (the ASCII board, ``str(state)``) or ``"rgb_array"``
            (the SVG board as a ``(height, width, 3)`` uint8 array, :meth:`State.render_rgb`:
            what ``gymnasium.wrappers.RecordVideo`` records).
        illegal_action: ``"lose"`` or ``"raise"``.
        tablebase: a directory of endgame tables, a list of them, or a
            :class:`perfectplay.Tablebase`: what ``opponent="perfect"`` reads (and only it:
            given with another opponent, ``ValueError``).
        start: where games start (:data:`Start`); ``reset(options={"fen": ...})`` overrides it
            for one game.
        **rules: rule options for :func:`perfectplay.load_game` (``ply_limit=...`` and the
            game's own options).
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(
        self,
        game_id: str = "nine_mens_morris",
        agent_player: int = 0,
        opponent: Opponent = "random",
        render_mode: Optional[str] = None,
        illegal_action: str = "lose",
        tablebase: TablebaseLike = None,
        start: Start = None,
        **rules: Any,
    ) -> None:
        if agent_player not in (0, 1):
            raise ValueError(f"agent_player must be 0 or 1, not {agent_player!r}")
        if not (opponent in ("random", "perfect") or callable(opponent)):
            raise ValueError(
                f"unknown opponent {opponent!r}; valid opponents: 'random', 'perfect' (with "
                "tablebase=...) or a callable opponent(state) -> action"
            )
        if opponent == "perfect" and tablebase is None:
            raise ValueError("opponent='perfect' needs tablebase=DIR (or a list of directories)")
        if opponent != "perfect" and tablebase is not None:
            # As the batched env: tables nothing reads are refused, not ignored.
            raise ValueError(
                "tablebase= is read by opponent='perfect' alone (a subspace start needs the "
                "subspace's index, no table): leave tablebase out, or ask for that opponent"
            )
        if not (start is None or callable(start) or str(start).startswith("subspace:")):
            raise ValueError(
                f"unknown start {start!r}: give None, 'subspace:KEY' (such as 'subspace:4-3') "
                "or a callable start(np_random) -> State or position string"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"unknown render_mode {render_mode!r}; valid render modes: "
                f"{self.metadata['render_modes']} or None"
            )
        if illegal_action not in _ILLEGAL_ACTION_MODES:
            raise ValueError(
                f"unknown illegal_action {illegal_action!r}; valid values: {_ILLEGAL_ACTION_MODES}"
            )
        self.game = pp.load_game(game_id, **rules)
        self.game_id: str = self.game.id
        self.agent_player = exact_int(agent_player, "agent_player")
        self.opponent = opponent
        self.tablebase = _tablebase(self.game, tablebase)
        # Tables opened from a path here are this env's to close; a Tablebase given is not.
        self._owns_tablebase = self.tablebase is not None and self.tablebase is not tablebase
        self.start = start
        self._sampler: Optional[pp.Tablebase] = None
        if isinstance(start, str):
            # Sampling a subspace needs its index only, and states of this env's own game
            # (its ply limit and history rules): an empty tablebase of the game will do.
            self._sampler = pp.Tablebase(self.game, [])
            self._sampler.sample_states(start[len("subspace:"):], 1)  # checks the name now
        if opponent == "perfect" and not callable(start):
            # The batched env checks, as it is made, that the tables are of this game and hold
            # every subspace reachable from the starts: make a one-env batch to run it.
            pp.VectorEnv(
                self.game_id,
                1,
                opponent="perfect",
                tablebase=_table_dirs(tablebase),
                start=start,
                **rules,
            )
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.observation_space = _observation_space(self.game)
        self.action_space = spaces.Discrete(int(self.game.num_distinct_actions()))
        self.state = self.game.new_initial_state()
        self._episode_over = False

    # -- pickling ----------------------------------------------------------------------------

    def __getstate__(self) -> Dict[str, Any]:
        # The subspace sampler is an empty tablebase of the game (tables do not pickle): it is
        # made again on loading. Tables this env reads do not pickle, so neither does it.
        state = self.__dict__.copy()
        state["_sampler"] = None
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        if isinstance(self.start, str):
            self._sampler = pp.Tablebase(self.game, [])

    # -- the game ---------------------------------------------------------------------------

    def _opponent_action(self) -> int:
        """The opponent's action in the current state."""
        if callable(self.opponent):
            return exact_int(self.opponent(self.state.clone()), "the opponent's action")
        legal = self.state.legal_actions()
        return int(legal[int(self.np_random.integers(len(legal)))])

    def _play_opponent(self) -> None:
        """Applies the opponent's actions until the agent is to act or the game is over."""
        state = self.state
        while not state.is_terminal() and state.current_player() != self.agent_player:
            if self.opponent == "perfect" and not state.is_mid_turn():
                best = self.tablebase.best_moves(state)
                state.apply(best[int(self.np_random.integers(len(best)))])
            else:
                state.apply_action(self._opponent_action())

    def _start_state(self) -> Any:
        """A new game where :attr:`start` says."""
        if self._sampler is not None:
            seed = int(self.np_random.integers(2**63))
            return self._sampler.sample_states(self.start[len("subspace:"):], 1, seed)[0]
        if callable(self.start):
            return checked_start(self.start(self.np_random), self.game, "start(np_random)")
        return self.game.new_initial_state()

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as a bool array of ``num_actions`` (all false once over)."""
        if self._episode_over:
            return np.zeros(self.action_space.n, dtype=bool)
        return np.asarray(self.state.legal_action_mask(), dtype=bool)

    def _info(self) -> Dict[str, Any]:
        """A fresh info dict for the current state."""
        info: Dict[str, Any] = {
            "action_mask": self.action_masks().astype(np.int8),
            "current_player": int(self.state.current_player()),
        }
        outcome = self.state.outcome()
        if outcome is not None:
            info["winner"] = outcome.winner
            info["reason"] = outcome.reason
        return info

    # -- the Gymnasium API ------------------------------------------------------------------

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Starts a new game and returns ``(observation, info)``.

        ``seed`` seeds the environment's generator (``self.np_random``), from which the random
        opponent draws. ``options`` may hold ``"fen"``: a position string to start from
        (see :meth:`perfectplay.Game.state_from_fen`).

        The agent always has an action after a reset: a start drawn from a subspace or a
        callable that the opponent ends before the agent acts is drawn again (up to
        :data:`START_DRAWS` times), and a ``"fen"`` start that is over, or that the opponent
        ends at once, raises ``ValueError``.
        """
        super().reset(seed=seed)
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be a dict (such as {{'fen': ...}}), not {options!r}")
        fen = (options or {}).get("fen")
        drawn = fen is None and (self._sampler is not None or callable(self.start))
        for _ in range(START_DRAWS if drawn else 1):
            if fen is not None:
                self.state = self.game.state_from_fen(fen)
            else:
                self.state = self._start_state()
            self._episode_over = False
            self._play_opponent()
            if not self.state.is_terminal():
                return self.state.observation(), self._info()
        self._episode_over = True
        outcome = self.state.outcome()
        where = (
            f"every one of {START_DRAWS} starts drawn was"
            if drawn
            else f"the start {self.state.fen()!r} is"
        )
        raise ValueError(
            f"{where} over before the agent (player {self.agent_player}) is to act "
            f"({outcome.reason}): give a start the agent has a move in"
        )

    def step(self, action: Any) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        """Plays the agent's ``action``, then the opponent's until the agent is to act again.

        Returns ``(observation, reward, terminated, truncated, info)``; see the class
        documentation.
        """
        if self._episode_over:
            raise RuntimeError("the episode is over: call reset() before step()")
        action = exact_int(action, "action")
        if not 0 <= action < self.action_space.n or not self.state.legal_action_mask()[action]:
            if self.illegal_action == "raise":
                self.state.apply_action(action)  # raises IllegalActionError
                raise ValueError(f"illegal action {action}")  # pragma: no cover
            self._episode_over = True
            info = self._info()
            info["illegal_action"] = True
            return self.state.observation(), -1.0, True, False, info
        self.state.apply_action(action)
        self._play_opponent()
        terminated = truncated = False
        reward = 0.0
        outcome = self.state.outcome()
        if outcome is not None:
            self._episode_over = True
            reward = float(self.state.returns()[self.agent_player])
            truncated = bool(outcome.truncated)
            terminated = not truncated
        return self.state.observation(), reward, terminated, truncated, self._info()

    def render(self) -> Union[str, np.ndarray, None]:
        """The board as text (``str(state)``) with ``render_mode="ansi"``, as an RGB array with
        ``"rgb_array"``; else ``None``."""
        if self.render_mode == "ansi":
            return str(self.state)
        if self.render_mode == "rgb_array":
            return self.state.render_rgb()
        gym.logger.warn(
            "render() was called without a render mode; "
            "make the environment with render_mode='ansi' or 'rgb_array'"
        )
        return None


    def close(self) -> None:
        """Closes the tables this env opened from a path (a :class:`perfectplay.Tablebase`
        given to it stays open: it is the caller's)."""
        if self._owns_tablebase and self.tablebase is not None:
            self.tablebase.close()
        super().close()


class PerfectPlayVectorEnv(_GymVectorEnv):
    """A batch of single-agent games as a Gymnasium vector environment.

    It wraps :class:`perfectplay.VectorEnv` in single-agent mode (``opponent="random"`` or
    ``"perfect"``): all envs step together in Rust, in parallel. The spaces and conventions are those of
    :class:`PerfectPlayEnv`, batched:

    - ``reset() -> (obs [N, *shape], info)``; ``step(actions [N]) -> (obs, rewards [N],
      terminated [N], truncated [N], info)``, rewards float32 from the agent's point of view.
    - ``info["action_mask"]``: int8 ``[N, num_actions]``; ``info["current_player"]``: int32
      ``[N]`` (-4 where a game has just ended); also :meth:`action_masks`.
    - Autoreset: Gymnasium's next-step mode (``metadata["autoreset_mode"]``): the step after
      an env's game ends ignores that env's action and starts a new game.
    - An illegal action raises ``perfectplay.IllegalActionError`` naming the env index, and
      no env moves.

    ``gym.make_vec("perfectplay/NineMensMorris-v0", num_envs=1024)`` builds it (its
    ``vector_entry_point``).

    Args:
        num_envs: the number of games.
        game_id: any id of :func:`perfectplay.game_ids`.
        agent_player: the side the agent plays in every env, 0 or 1.
        opponent: ``"random"`` or ``"perfect"`` (needs ``tablebase``), both stepped in Rust.
        seed: the seed of the envs' random streams until :meth:`reset` gets one.
        tablebase: a directory of endgame tables, a list of them, or a
            :class:`perfectplay.Tablebase` (its directories are read), for
            ``opponent="perfect"`` alone.
        start: ``None`` or ``"subspace:KEY"`` (a callable start needs :class:`PerfectPlayEnv`).
        copy: ``True`` (default) returns fresh arrays from every call; ``False`` returns the
            env's own buffers, overwritten by the next call (faster; copy what you keep).
        obs_dtype: ``"float32"`` (default) or ``"uint8"``, a quarter of the bytes (the
            morris planes of men in hand then count them: ``Box(0, men per side)``); see
            :class:`perfectplay.VectorEnv`.
        render_mode: must be ``None``.
        **rules: rule options for :func:`perfectplay.load_game`.
    """

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        num_envs: int = 1,
        game_id: str = "nine_mens_morris",
        agent_player: int = 0,
        opponent: str = "random",
        seed: int = 0,
        copy: bool = True,
        render_mode: Optional[str] = None,
        tablebase: TablebaseLike = None,
        start: Optional[str] = None,
        obs_dtype: Any = "float32",
        **rules: Any,
    ) -> None:
        if opponent not in ("random", "perfect"):
            raise ValueError(
                f"unknown opponent {opponent!r}; the vector env supports 'random' and 'perfect'"
            )
        if start is not None and not isinstance(start, str):
            raise ValueError("the vector env takes start=None or 'subspace:KEY'")
        if render_mode is not None:
            raise ValueError("PerfectPlayVectorEnv has no render modes; use render_mode=None")
        if "packed_mask" in rules:
            # Gymnasium's action masks are one value per action.
            raise ValueError(
                "PerfectPlayVectorEnv takes no packed_mask: its masks are one value per action "
                "(use perfectplay.VectorEnv(..., packed_mask=True) directly for bit masks)"
            )
        self.env = pp.VectorEnv(
            game_id,
            exact_int(num_envs, "num_envs"),
            seed=exact_int(seed, "seed"),
            opponent=opponent,
            agent_player=exact_int(agent_player, "agent_player"),
            copy=bool(copy),
            tablebase=_table_dirs(tablebase),
            start=start,
            obs_dtype=obs_dtype,
            **rules,
        )
        self.game = self.env.game
        self.game_id: str = self.game.id
        self.agent_player = self.env.agent_player
        self.num_envs = self.env.num_envs
        self.render_mode = None
        self.single_observation_space = _observation_space(
            self.game, self.env.obs_dtype, self.env.observation_high
        )
        self.single_action_space = spaces.Discrete(int(self.game.num_distinct_actions()))
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    def _info(self, info: Dict[str, Any]) -> Dict[str, Any]:
        """The Gymnasium info from :class:`perfectplay.VectorEnv`'s (the mask as int8)."""
        return {
            "action_mask": info["action_mask"].view(np.int8),
            "current_player": info["current_player"],
        }

    def reset(
        self,
        *,
        seed: Union[None, int, Sequence[int]] = None,
        options: Optional[Dict[str, Any]] = None,
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Restarts every game and returns ``(obs, info)``. ``seed`` reseeds every env's random
        streams (the opponent's and :meth:`sample_legal_actions`'): an int seeds the batch, a
        sequence of one int per env seeds env ``i`` as a one-env batch seeded ``seed[i]``
        would be (as Gymnasium's vector envs take a list of seeds). ``options`` must be empty:
        every env starts where ``start`` says (a ``"fen"`` start needs
        :class:`PerfectPlayEnv`)."""
        if options:
            raise ValueError(
                f"PerfectPlayVectorEnv.reset takes no options, got {sorted(options)}: every env "
                "starts where start= says (PerfectPlayEnv takes options={'fen': ...})"
            )
        if isinstance(seed, np.ndarray) and seed.ndim <= 1:
            seed = seed.tolist()  # one seed, or one per env, as an int or a list gives them
        # The batched env checks the seeds (a ValueError naming one out of range) before
        # Gymnasium's generator takes the first.
        if isinstance(seed, (bool, np.bool_)):
            raise TypeError(f"seed must be None, an int or a sequence of ints, not {seed!r}")
        if seed is None or isinstance(seed, (int, np.integer)):
            obs, info = self.env.reset(seed=None if seed is None else int(seed))
            super().reset(seed=None if seed is None else int(seed))
            return obs, self._info(info)
        if isinstance(seed, (str, bytes)) or not isinstance(seed, Sequence):
            raise TypeError(
                f"seed must be None, an int or a sequence of ints (one per env), not {seed!r}"
            )
        seeds = [exact_int(s, "seed") for s in seed]
        if len(seeds) != self.num_envs:
            raise ValueError(f"seed: one per env ({self.num_envs}), got {len(seeds)}")
        obs, info = self.env.reset(seed=seeds)
        super().reset(seed=seeds[0])
        return obs, self._info(info)

    def step(
        self, actions: Any
    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """Steps every env with its action; see the class documentation."""
        # Taken as they are: the batched env refuses floats, bools and objects (TypeError).
        obs, rewards, terminated, truncated, info = self.env.step(actions)
        return obs, rewards, terminated, truncated, self._info(info)

    def action_masks(self) -> np.ndarray:
        """The legal-action masks now, bool ``[num_envs, num_actions]``."""
        return self.env.action_mask

    def sample_legal_actions(self) -> np.ndarray:
        """A uniformly random legal action per env (int64 ``[num_envs]``), seeded."""
        return self.env.sample_legal_actions()

    @property
    def current_player(self) -> np.ndarray:
        """The players to act, int32 ``[num_envs]`` (-4 where a game has just ended)."""
        return self.env.current_player

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the games live in the wrapped :class:`perfectplay.VectorEnv`."""


def register_envs() -> None:
    """Registers every id of :data:`ENV_IDS` with Gymnasium (ids already there are kept).

    Called when this module is imported; also suitable as a ``gymnasium.envs`` plugin entry
    point (``perfectplay = "perfectplay.gymnasium_env:register_envs"``), which older Gymnasium
    releases call at import.
    """
    for env_id, game_id in ENV_IDS.items():
        if env_id in gym.registry:
            continue
        gym.register(
            id=env_id,
            entry_point="perfectplay.gymnasium_env:PerfectPlayEnv",
            vector_entry_point="perfectplay.gymnasium_env:PerfectPlayVectorEnv",
            kwargs={"game_id": game_id},
            nondeterministic=False,
        )


register_envs()
