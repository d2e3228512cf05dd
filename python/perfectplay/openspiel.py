"""OpenSpiel bridge: our games as pyspiel Python games, and a bot that plays from the tables.

Importing this module registers every game of ``perfectplay.game_ids()`` with OpenSpiel, so
its algorithms (MCTS, ``evaluate_bots``, the consistency checks of ``pyspiel.random_sim_test``)
run on them::

    import pyspiel
    import perfectplay as pp
    import perfectplay.openspiel as pps
    from open_spiel.python.algorithms import mcts

    game = pps.load_game("nine_mens_morris", ply_limit=200)   # our ids, aliases and options
    game = pyspiel.load_game("python_perfectplay_nine_mens_morris(ply_limit=200)")  # the same
    bot = mcts.MCTSBot(game, 2.0, 100, mcts.RandomRolloutEvaluator(1))
    perfect = pps.PerfectBot(pp.tablebase.open("solver-data/nine_mens_morris"), rng=0)

Decisions:

- Names: ``python_perfectplay_<id>``. OpenSpiel marks its Python games ``python_``, and
  ``checkers`` and ``nine_mens_morris`` are already names of its own C++ games, whose rules and action encodings differ from ours. Aliases are not registered;
  :func:`load_game` reads them.
- Parameters are our rule options, typed as OpenSpiel types them (int, bool, str). OpenSpiel
  has no "none", so an integer option that is none (``ply_limit``, ``move_rule``,
  ``flying``) is 0 there, which our rules read as none too.
- Actions, legal actions, utilities (win 1, loss -1, draw 0; zero-sum, terminal rewards) and
  the end of the game are our State's. A morris mill's removal and each checkers jump are
  actions of their own by the same player, as in our action space. The ply limit ends the
  game as a draw (or by adjudication where the rules ask for it), so OpenSpiel sees it as an
  ordinary terminal state.
- ``max_game_length`` counts actions: the ply limit plus every man of both sides, since each
  action beyond a turn's first takes a man; where a morris capture may be declined
  (``capture="optional"``), twice the ply limit plus every man, since a declined capture is a
  second action (the pass) that takes none. A game without a ply limit has no bound worth
  giving OpenSpiel (its algorithms size buffers by it), so it is refused with ValueError.
- Observations: ``observation_tensor(player)`` is ``State.observation()`` flattened, the
  position seen from the player to move, whichever player asks (a perfect-information game:
  both see everything, as OpenSpiel's tic-tac-toe ignores the player), at terminal states
  too. Its shape is ``Game.observation_shape()``. The observation string is ``str(state)``:
  the board as our State draws it and the actions of a half-made turn; the information
  state string is the action history.
- States compare equal when their games are equal and their histories too; they do not
  hash. ``clone()`` copies our State. ``new_initial_state(fen)`` starts from a position.
- :class:`PerfectBot` values each whole turn with the tables and plays it action by action.
  It keeps the move it chose, so that when asked in the middle of that turn (after a mill,
  before the removal; between jumps) it finishes the same move; in a turn it did not begin
  (``restart_at`` a half-made turn, or a first action someone else chose) it plays the best
  move that goes on from the actions already made. It wins by the shortest way, so a won
  game ends; with WDL-only tables (no distances) it keeps the win but may not convert it.
"""

from __future__ import annotations

import ctypes
import functools
import random
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

try:
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame
except ImportError as error:  # pragma: no cover - exercised where OpenSpiel is missing
    raise ImportError(
        "perfectplay.openspiel needs OpenSpiel: pip install perfectplay[openspiel]"
    ) from error

import numpy as np

from perfectplay._core import Game, Probe, State, Tablebase, game_ids
from perfectplay._core import load_game as _load_perfectplay_game

__all__ = [
    "BoardObserver",
    "PerfectBot",
    "PerfectplayGame",
    "PerfectplayState",
    "game_type",
    "load_game",
    "max_game_length",
    "short_name",
]

SHORT_NAME_PREFIX = "python_perfectplay_"
# Checkers sides start with 12 pieces; the morris games say how many men in their rules.
_CHECKERS_PIECES_A_SIDE = 12

ParameterValue = Union[bool, int, str]


def short_name(game_id: str) -> str:
    """The name OpenSpiel knows our game by: ``python_perfectplay_<id>`` (aliases resolved)."""
    return SHORT_NAME_PREFIX + _load_perfectplay_game(game_id).id


def _parameter_value(value: Union[bool, int, str, None]) -> ParameterValue:
    # OpenSpiel parameters cannot be none; every option that can is a count our rules read
    # as none when it is 0.
    return 0 if value is None else value


def _parameters(game: Game) -> Dict[str, ParameterValue]:
    return {name: _parameter_value(value) for name, value in game.rules().items()}


def _pieces_a_side(game: Game) -> int:
    if game.family == "checkers":
        return _CHECKERS_PIECES_A_SIDE
    return int(game.rules()["men"])


def max_game_length(game: Game) -> int:
    """The most actions a game of ``game`` takes: its ply limit plus every man of both sides
    (a turn is one action, and each further action of the turn, a removal or a jump, takes a
    man), and once more the ply limit where a morris capture may be declined (the pass that
    declines it is a second action of its turn). ValueError for a game without a ply limit."""
    ply_limit = game.rules()["ply_limit"]
    if ply_limit is None:
        raise ValueError(
            f"{game.id} without a ply limit has no useful bound on its length, which OpenSpiel "
            "needs: give it one, e.g. ply_limit=1000"
        )
    declines = int(ply_limit) if game.rules().get("capture") == "optional" else 0
    return int(ply_limit) + declines + 2 * _pieces_a_side(game)


def game_type(game: Game) -> pyspiel.GameType:
    """OpenSpiel's description of ``game`` (what ``Game.get_type()`` returns)."""
    return pyspiel.GameType(
        short_name=SHORT_NAME_PREFIX + game.id,
        long_name=f"perfectplay {game.id}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game),
    )


def _game_info(game: Game) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions(),
        max_chance_outcomes=0,
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=max_game_length(game),
    )


# Turns made of several actions ------------------------------------------------------------


def _start_of_turn(state: State) -> Tuple[State, int]:
    """A copy of ``state`` taken back to the start of its turn, and the number of actions
    the turn has made so far."""
    start = state.clone()
    made = 0
    while start.is_mid_turn():
        start.undo()
        made += 1
    return start, made


def _action_names(start: State, actions: Sequence[int]) -> List[str]:
    """The names of ``actions`` played from ``start``, each as it read when played."""
    replay = start.clone()
    names = []
    for action in actions:
        names.append(replay.action_to_string(action))
        replay.apply_action(action)
    return names


def _leads_to(start: State, actions: Sequence[int], state: State) -> bool:
    after = start.clone()
    for action in actions:
        after.apply_action(action)
    return after == state


class PerfectplayGame(pyspiel.Game):
    """One of our games as a pyspiel game; its parameters are the game's rule options."""

    def __init__(self, game_id: str, params: Optional[Mapping[str, Any]] = None) -> None:
        game = _load_perfectplay_game(game_id, **dict(params or {}))
        # Registered presets keep their type; a game id of ours is always registered.
        super().__init__(_GAME_TYPES[game.id], _game_info(game), _parameters(game))
        self._game = game

    def __reduce__(self) -> Tuple[Any, Tuple[str, Dict[str, ParameterValue]]]:
        # pyspiel pickles a game as its name and rebuilds only the C++ side; this game's
        # Python side is its rules.
        return (PerfectplayGame, (self._game.id, _parameters(self._game)))

    @property
    def perfectplay_game(self) -> Game:
        """Our Game, with its rules."""
        return self._game

    def new_initial_state(self, position: Optional[str] = None) -> "PerfectplayState":
        """The starting position, or the position string (FEN) ``position``."""
        if position is None:
            return PerfectplayState(self, self._game.new_initial_state())
        if isinstance(position, str):
            return PerfectplayState(self, self._game.state_from_fen(position))
        raise TypeError(
            f"new_initial_state takes a position string (FEN), not {type(position).__name__}"
        )

    def make_py_observer(
        self,
        iig_obs_type: Optional[pyspiel.IIGObservationType] = None,
        params: Optional[Mapping[str, Any]] = None,
    ) -> Any:
        """The board observer for observations, the history for information states."""
        if iig_obs_type is None or (
            iig_obs_type.public_info and not iig_obs_type.perfect_recall
        ):
            return BoardObserver(self._game, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class PerfectplayState(pyspiel.State):
    """A game in progress: pyspiel's state API over our State."""

    def __init__(self, game: PerfectplayGame, state: State) -> None:
        super().__init__(game)
        # The only attribute: pyspiel clones and serializes a Python state through __dict__.
        self._state = state

    @property
    def perfectplay_state(self) -> State:
        """A copy of our State (history included), to probe tables or draw the board."""
        return self._state.clone()

    def current_player(self) -> int:
        """0, 1 or pyspiel.PlayerId.TERMINAL (our TERMINAL_PLAYER is the same -4)."""
        return self._state.current_player()

    def _legal_actions(self, player: int) -> List[int]:
        return self._state.legal_actions()

    def _apply_action(self, action: int) -> None:
        self._state.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self._state.action_to_string(int(action))

    def string_to_action(self, *args: Any) -> int:
        """The legal action a string names (``string_to_action(text)`` or
        ``string_to_action(player, text)``, as pyspiel takes it); our notation is read, so
        checkers jumps may be written ``11x18``. IllegalActionError if none."""
        text = args[-1]
        return self._state.string_to_action(text)

    def is_terminal(self) -> bool:
        return self._state.is_terminal()

    def returns(self) -> List[float]:
        return self._state.returns()

    def __str__(self) -> str:
        """The board as our State draws it, and the actions of a half-made turn (a mill
        waiting for its removal, a jump to go on), which the drawing does not show."""
        if not self._state.is_mid_turn():
            return str(self._state)
        start, made = _start_of_turn(self._state)
        names = _action_names(start, self.history()[-made:])
        return f"{self._state}\nturn so far: {' '.join(names)}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PerfectplayState):
            return NotImplemented
        return self._state == other._state

    # States change as they are played, as ours do: no hash.
    __hash__ = None  # type: ignore[assignment]


class BoardObserver:
    """Observations for OpenSpiel (its PyObserver interface): our observation tensor, seen
    from the player to move whichever player asks, and the board drawn as text."""

    def __init__(self, game: Game, params: Optional[Mapping[str, Any]]) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {dict(params)}")
        shape = tuple(game.observation_shape())
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        # A view of the same memory, in the game's own shape.
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: PerfectplayState, player: int) -> None:
        self.tensor[:] = state._state.observation().ravel()

    def string_from(self, state: PerfectplayState, player: int) -> str:
        return str(state)


def load_game(game_id: str, **rules: Any) -> PerfectplayGame:
    """Our game ``game_id`` (an id or alias of ``perfectplay.game_ids(aliases=True)``) with
    rule options as keywords, as ``perfectplay.load_game`` takes them, as a pyspiel game.

    Unknown ids and options raise our errors; a game without a ply limit raises ValueError
    (see :func:`max_game_length`)."""
    game = _load_perfectplay_game(game_id, **rules)
    return PerfectplayGame(game.id, _parameters(game))


# OpenSpiel keeps each registered creator in a C++ registry, which lets go of them after the
# interpreter has shut down; if that is the last reference, the object is freed without an
# interpreter and the process aborts ("PyThreadState_Get: ... the GIL is released") on exit.
# A module-level reference is not enough: finalisation clears module dictionaries first
# (seen with a Jupyter kernel client's threads still open at exit). Each creator therefore
# gets one reference that is never released: a few small objects, alive until the process ends.
_GAME_CREATORS: Dict[str, Any] = {}


def _keep_for_the_process(obj: Any) -> None:
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(obj))


def _register_games() -> Dict[str, pyspiel.GameType]:
    """Registers every preset with OpenSpiel once per process (a reload finds them there)."""
    registered = set(pyspiel.registered_names())
    types = {}
    for game_id in game_ids():
        spiel_type = game_type(_load_perfectplay_game(game_id))
        if spiel_type.short_name not in registered:
            creator = functools.partial(PerfectplayGame, game_id)
            _GAME_CREATORS[game_id] = creator
            _keep_for_the_process(creator)
            pyspiel.register_game(spiel_type, creator)
        types[game_id] = spiel_type
    return types


_GAME_TYPES = _register_games()


# PerfectBot ------------------------------------------------------------------------------

Policy = List[Tuple[int, float]]


def _perfectplay_state(state: Union[PerfectplayState, State]) -> State:
    if isinstance(state, PerfectplayState):
        return state._state
    if isinstance(state, State):
        return state
    raise TypeError(
        "PerfectBot plays states of perfectplay's games (perfectplay.openspiel), not "
        f"{type(state).__name__}"
    )


class _Plan:
    """The whole move chosen at the start of a turn, as the actions that play it."""

    def __init__(self, start: State, actions: List[int]) -> None:
        self.start = start
        self.actions = actions

    def next_action(self, state: State, made: int) -> Optional[int]:
        """The plan's next action if ``state`` is its turn with the plan's first ``made``
        actions played, else None."""
        if made >= len(self.actions) or not _leads_to(self.start, self.actions[:made], state):
            return None
        return self.actions[made]


class PerfectBot(pyspiel.Bot):
    """Plays perfectly from a ``perfectplay`` tablebase: the fastest win, the slowest loss,
    or a move that keeps the draw, chosen uniformly among the equally good.

    It plays the states of :func:`load_game`'s games (or our own ``State``). A position the
    tables do not hold raises the tablebase's error: ``MissingTableError`` (a ``KeyError``)
    or ``OutOfScopeError`` (more pieces than the tables cover); a game with other rules than
    the tables' (history rules apart) raises ``TablebaseError``.

    A whole turn is chosen at its start; asked again in the middle of it, the bot plays the
    rest of the same move. ``step_with_policy`` gives the distribution the action is drawn
    from: the optimal moves' next actions, each move weighed equally, or the planned action
    alone in the middle of a planned turn.
    """

    def __init__(
        self,
        tablebase: Tablebase,
        rng: Union[random.Random, int, None] = None,
    ) -> None:
        pyspiel.Bot.__init__(self)
        self._tablebase = tablebase
        self._rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self._plan: Optional[_Plan] = None

    @property
    def tablebase(self) -> Tablebase:
        return self._tablebase

    def provides_policy(self) -> bool:
        return True

    def restart_at(self, state: Any) -> None:
        self._plan = None

    def inform_action(self, state: Any, player_id: int, action: int) -> None:
        # Nothing to track: a plan is checked against the state whenever it is used.
        pass

    def step(self, state: Any) -> int:
        return self.step_with_policy(state)[1]

    def step_with_policy(self, state: Any) -> Tuple[Policy, int]:
        """(policy, action) for the player to move; ([], INVALID_ACTION) once it is over."""
        current = _perfectplay_state(state)
        if current.is_terminal():
            return [], pyspiel.INVALID_ACTION
        start, made = _start_of_turn(current)
        if self._plan is not None:
            planned = self._plan.next_action(current, made)
            if planned is not None:
                return [(planned, 1.0)], planned
        options = self._optimal_continuations(start, made, current)
        chosen = self._rng.choice(options)
        self._plan = _Plan(start, chosen)
        return _policy_of(options, made), chosen[made]

    def _optimal_continuations(self, start: State, made: int, current: State) -> List[List[int]]:
        """The action lists of the best moves from ``start`` that go on from the ``made``
        actions that led to ``current``."""
        valued: List[Tuple[List[int], Probe]] = [
            (start.move_actions(move), value)
            for move, value in self._tablebase.move_values(start)
        ]
        if made:
            valued = [
                (actions, value)
                for actions, value in valued
                if len(actions) > made and _leads_to(start, actions[:made], current)
            ]
        # move_values lists the best first, so the first value is the best one left.
        best = valued[0][1]
        return [actions for actions, value in valued if value == best]


def _policy_of(options: List[List[int]], made: int) -> Policy:
    """Each option's next action, weighed by the share of options that play it."""
    weights: Dict[int, float] = {}
    for actions in options:
        weights[actions[made]] = weights.get(actions[made], 0.0) + 1.0 / len(options)
    return sorted(weights.items())
