"""Type stubs for perfectplay._core, the compiled extension (crates/python)."""

import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str
TERMINAL_PLAYER: int
"""`current_player()` of a finished game: -4, pyspiel's terminal player id."""

RuleValue = Union[bool, int, str, None]

class IllegalMoveError(ValueError):
    """A move that is not legal in the position, or text that names no legal move."""

class IllegalActionError(ValueError):
    """An action that is not legal now; the message names it and lists the legal ones."""

class InvalidPositionError(ValueError):
    """A position string (FEN) that cannot be read, or a position the rules forbid."""

class UnknownGameError(ValueError):
    """A game id that names no game; the message lists the valid ids and aliases."""

class MissingTableError(KeyError):
    """A probe whose table is in none of the tablebase's directories."""

    subspace: str
    """The subspace of the missing table (`5-4`, `2110-53`, `3-2-h6-6`)."""
    directories: List[str]
    """The directories searched."""

class OutOfScopeError(ValueError):
    """A position no table holds: a turn half made, more pieces than the databases cover."""

class RecordError(ValueError):
    """A game record (PDN) that cannot be read: names the game, the move and the problem."""

class TablebaseError(ValueError):
    """A table that cannot be used, a closed tablebase, another game's state, a failed build."""

def load_game(game_id: str, **rules: RuleValue) -> Game:
    """Loads a game by id or alias, with rule options as keywords."""

def game_ids(aliases: bool = False) -> List[str]:
    """Every game id: `checkers`, then the morris presets (with aliases if asked)."""

def _restore_game(id: str, options: List[Tuple[str, str]]) -> Game:
    """Unpickles a `Game`: an id and the options that differ from the preset's, as text."""

def _restore_state(game: Game, origin: str, moves: List[str], actions: List[int]) -> State:
    """Unpickles a `State` by replaying its moves and half-made turn from `origin`."""

def _cli_main(argv: List[str]) -> int: ...
def _self_check(state: State) -> None:
    """Checks a state against the rules engine (history rules, action table, observation)."""

class Game:
    """A game with its rules: English checkers or a morris game."""

    @property
    def id(self) -> str:
        """The game id, e.g. `checkers` or `nine_mens_morris`."""
    @property
    def family(self) -> str:
        """The game's family: `checkers` or `morris`."""
    def rules(self) -> Dict[str, RuleValue]:
        """Every rule option with its value."""
    def rule_options(self) -> List[Tuple[str, str, str]]:
        """Every rule option: (name, values taken, what it does)."""
    def new_initial_state(self) -> State:
        """A new game from the starting position."""
    def state_from_fen(self, fen: str) -> State:
        """A new game from a position string."""
    def num_distinct_actions(self) -> int:
        """The size of the action space."""
    def observation_shape(self) -> Tuple[int, ...]:
        """The shape of an observation."""
    def num_players(self) -> int:
        """The number of players: 2."""
    def get_type(self) -> Any:
        """OpenSpiel's ``pyspiel.GameType`` of this game (needs ``perfectplay[openspiel]``)."""
    def max_utility(self) -> float:
        """The winner's return: 1.0."""
    def min_utility(self) -> float:
        """The loser's return: -1.0."""
    def utility_sum(self) -> float:
        """The sum of both players' returns in every game: 0.0 (zero-sum)."""
    def action_to_string(self, action: int) -> str:
        """What `action` names without a position (`d6`, `a1-a4`, `pass`; checkers `11-15`)."""
    def string_to_action(self, text: str) -> int:
        """The action `text` names (checkers also reads jumps, `11x18`); IllegalActionError if none."""
    def point_names(self) -> List[str]:
        """The names of the board's points (squares `1`-`32` in checkers), in index order."""
    def mills(self) -> npt.NDArray[np.int64]:
        """The mills of a morris board: int64 `[mills, 3]` point indices (ValueError for checkers)."""
    def neighbours(self) -> npt.NDArray[np.bool_]:
        """bool `[points, points]`: true where a line joins two points (checkers: diagonal neighbours)."""
    def perft(self, state: State, depth: int) -> int:
        """The number of move sequences of `depth` whole moves from `state`'s position."""
    def __reduce__(self) -> Tuple[Any, Tuple[str, List[Tuple[str, str]]]]:
        """Pickles as the id and the changed options."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Move:
    """A move: one whole turn, such as `11-15`, `15x24x31`, `d6` or `a1-a4xd7`."""

    @property
    def is_capture(self) -> bool:
        """Whether the move takes one or more of the opponent's pieces."""
    @property
    def family(self) -> str:
        """`checkers` or `morris`."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Outcome:
    """How a game ended."""

    @property
    def winner(self) -> Optional[int]:
        """The winning player's index (0 moved first), or None for a draw or truncation."""
    @property
    def winner_color(self) -> Optional[str]:
        """`"black"`, `"white"` or None."""
    @property
    def reason(self) -> str:
        """no moves, no men, mill, board full, repetition, move rule, adjudication, ply limit."""
    @property
    def truncated(self) -> bool:
        """Whether the ply limit cut the game short without a result."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class State:
    """A game in progress."""

    @property
    def game(self) -> Game:
        """The game this state belongs to."""
    def legal_moves(self) -> List[Move]:
        """The legal moves (whole turns)."""
    def apply(self, move: Union[Move, str]) -> None:
        """Plays a move, given as a Move or in standard notation."""
    def clone(self) -> State:
        """An independent copy, history included."""
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: Any) -> State: ...
    def __reduce__(self) -> Tuple[Any, Tuple[Game, str, List[str], List[int]]]:
        """Pickles as the game, the starting position string, the moves and the half-made turn."""
    def to_pdn(
        self,
        tags: Union[Dict[str, str], Sequence[Tuple[str, str]], None] = None,
        result: Optional[str] = None,
    ) -> str:
        """The game as a record (PDN for checkers); `result` 1-0, 0-1, 1/2-1/2 or *."""
    def fen(self) -> str:
        """The position string."""
    def _repr_svg_(self) -> str:
        """The board as an SVG picture."""
    def render_rgb(self, scale: float = 1.0) -> npt.NDArray[np.uint8]:
        """The SVG board drawn at ``scale`` over white: a ``(height, width, 3)`` uint8 array."""
    def current_player(self) -> int:
        """0, 1, or -4 (TERMINAL_PLAYER) once the game is over."""
    def is_terminal(self) -> bool:
        """Whether the game is over."""
    def is_chance_node(self) -> bool:
        """False: no chance (OpenSpiel's state API)."""
    def is_simultaneous_node(self) -> bool:
        """False: the players take turns (OpenSpiel's state API)."""
    def is_player_node(self) -> bool:
        """Whether a player acts now: the game is not over (OpenSpiel's state API)."""
    def returns(self) -> List[float]:
        """[return of player 0, return of player 1]."""
    def outcome(self) -> Optional[Outcome]:
        """How the game ended, or None."""
    def legal_actions(self, player: Optional[int] = None) -> List[int]:
        """The legal actions, ascending."""
    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A bool array of num_distinct_actions(), true at the legal actions."""
    def apply_action(self, action: int) -> None:
        """Applies one action."""
    def child(self, action: int) -> State:
        """A copy of the state with `action` applied."""
    def action_to_string(self, action: int) -> str:
        """What `action` means now."""
    def string_to_action(self, text: str) -> int:
        """The legal action `text` names; IllegalActionError naming the legal ones if none."""
    def observation_tensor(self, player: Optional[int] = None) -> npt.NDArray[np.float32]:
        """The observation flattened (OpenSpiel's name); `player` must be the player to move."""
    def __eq__(self, other: object) -> bool:
        """Same game, same history (start, moves, actions of a half-made turn)."""
    __hash__: None  # type: ignore[assignment]
    def move_actions(self, move: Move) -> List[int]:
        """The actions that play `move` from the start of a turn."""
    def observation(self) -> npt.NDArray[np.float32]:
        """The observation tensor, seen from the player to move."""
    def undo(self) -> Optional[Move]:
        """Takes back the last action of a half-made turn, or else the last move."""
    def history(self) -> List[Move]:
        """The moves played so far."""
    def ply(self) -> int:
        """The number of whole moves played so far."""
    def is_mid_turn(self) -> bool:
        """Whether a turn is half made with apply_action."""

class VectorEnv:
    """Many games stepped together in Rust, in parallel, on `RAYON_NUM_THREADS` threads (one
    per CPU by default)."""

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        seed: int = 0,
        opponent: Optional[str] = None,
        agent_player: int = 0,
        copy: bool = True,
        tablebase: Union[str, "os.PathLike[str]", Sequence[Union[str, "os.PathLike[str]"]], Tablebase, None] = None,
        start: Optional[str] = None,
        packed_mask: bool = False,
        **rules: RuleValue,
    ) -> None: ...
    def reset(
        self, seed: Union[None, int, Sequence[int]] = None
    ) -> Tuple[npt.NDArray[np.float32], Dict[str, Any]]:
        """Restarts every game: (obs, info); `seed` an int for the batch or one per env."""
    def step(
        self, actions: Union[npt.NDArray[np.int64], Sequence[int]]
    ) -> Tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        Dict[str, Any],
    ]:
        """Steps every env: (obs, rewards, terminated, truncated, info)."""
    def sample_legal_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per env, from each env's seeded stream.

        A step whose actions equal this latest sample, with no step or reset since, skips the
        legality check; see the class documentation for when the draws are made."""
    def fen(self, index: int) -> str:
        """The position string of env `index`'s game."""
    @property
    def num_envs(self) -> int:
        """The number of envs."""
    @property
    def num_actions(self) -> int:
        """The size of the action space."""
    @property
    def observation_shape(self) -> Tuple[int, ...]:
        """The shape of one env's observation."""
    @property
    def game(self) -> Game:
        """The game, with its rules."""
    @property
    def opponent(self) -> Optional[str]:
        """`"random"` or `"perfect"` in single-agent mode, None for self-play."""
    @property
    def perfect_misses(self) -> int:
        """Probes of the perfect opponent that failed (each replaced by a random move)."""
    @property
    def agent_player(self) -> int:
        """The player the agent plays in single-agent mode."""
    @property
    def current_player(self) -> npt.NDArray[np.int32]:
        """The players to act: 0, 1, or -4 where a game has just ended."""
    @property
    def action_mask(self) -> Union[npt.NDArray[np.bool_], npt.NDArray[np.uint8]]:
        """The legal-action masks: bool [num_envs, num_actions], or with packed_mask=True
        uint8 [num_envs, ceil(num_actions / 8)], eight actions to a byte, lowest bit first."""

StateOrFen = Union["State", str]

class Probe:
    """The value of a position for the side to move, read from the tables."""

    @property
    def wdl(self) -> int:
        """1 (win), 0 (draw) or -1 (loss) for the side to move."""
    @property
    def plies(self) -> Optional[int]:
        """Plies to the end under optimal play; None for a draw or a WDL-only table."""
    @property
    def result(self) -> str:
        """`win`, `draw` or `loss`."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Tablebase:
    """Endgame tables of one game, read from one or more directories (see
    `perfectplay.tablebase.open`)."""

    def __init__(
        self, game: Game, directories: Sequence[str], distances: bool = True
    ) -> None: ...
    @property
    def game(self) -> Game:
        """The game the tables are of."""
    @property
    def directories(self) -> List[str]:
        """The directories searched, in order."""
    @property
    def closed(self) -> bool:
        """Whether `close()` was called."""
    def add_directory(self, directory: str) -> None:
        """Adds a directory to search after the others."""
    def subspaces(self) -> List[str]:
        """The subspaces with a table in some directory, sorted."""
    def probe(self, state: StateOrFen) -> Probe:
        """The value of the position for the side to move."""
    def get(self, state: StateOrFen, default: Any = None) -> Any:
        """Like `probe`, but `default` where the tables do not hold the position (a missing
        table, more pieces than they cover, a half-made turn)."""
    def move_values(self, state: StateOrFen) -> List[Tuple[Move, Probe]]:
        """Every legal move with the value it keeps for its player, best first."""
    def best_moves(self, state: StateOrFen) -> List[Move]:
        """The moves that keep the position's value."""
    def principal_variation(self, state: StateOrFen, max_plies: int = 400) -> List[Move]:
        """Best moves to the end of the game (or `max_plies` of them)."""
    def sample_states(self, subspace: str, count: int = 1, seed: int = 0) -> List[State]:
        """States drawn uniformly from a subspace's positions that are not over."""
    def encode(self, states: Sequence[StateOrFen]) -> npt.NDArray[np.uint32]:
        """Rows of four uint32 per position, as `probe_batch` reads them."""
    def probe_batch(
        self,
        positions: Union[npt.ArrayLike, Sequence[StateOrFen]],
        default: Optional[int] = None,
    ) -> Tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]]:
        """(wdl, plies) of many positions, probed in parallel with the GIL released.

        With `default` (an int8 such as -2), positions the tables do not hold get
        `wdl == default` and plies -1 instead of raising.

        Rows are any integer array whose values fit uint32 (others raise TablebaseError naming
        the row and field; float or bool arrays raise TypeError). A table changed on disk
        during the batch raises TablebaseError."""
    def check_tables(self) -> None:
        """Raises TablebaseError if a table read so far changed on disk since it was opened."""
    def close(self) -> None:
        """Lets the tables go; later calls raise TablebaseError."""
    def __enter__(self) -> Tablebase: ...
    def __exit__(self, *exc: Any) -> bool: ...

def _tables_game(directory: str) -> Optional[Game]:
    """The game of the first table in `directory` (from its header), or None."""

def _build_tables(
    game: Game,
    out: str,
    targets: Optional[List[str]] = None,
    max_men: Optional[int] = None,
    max_pieces: Optional[int] = None,
    whole_game: bool = False,
    threads: Optional[int] = None,
    wdl_only: bool = False,
    progress: Optional[Any] = None,
    force_threads: bool = False,
    wait: bool = False,
    compress: bool = False,
) -> List[Dict[str, Any]]:
    """Builds tables with the GIL released (see `perfectplay.tablebase.build`)."""

def _read_records(game: Game, text: str) -> List[Tuple[List[Tuple[str, str]], State, str]]:
    """The games of a record as (tags, state, result)."""
