"""Type stubs for perfectplay._core, the compiled extension (crates/python)."""

import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str
TERMINAL_PLAYER: int
"""`current_player()` of a finished game: -4, pyspiel's terminal player id."""
START_DRAWS: int
"""How many starts a reset draws (from a subspace or a callable start) before it gives up
finding one the opponent does not end before the agent acts: VectorEnv and the Gymnasium
environments alike."""
_target_cpu: str
"""The instruction-set level this build was compiled for: "x86-64-v3", "x86-64-v2", or the
architecture's name elsewhere (see `perfectplay.core_target`)."""

RuleValue = Union[bool, int, str, None]
_Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
"""A directory as the tablebase arguments take it: str, bytes or any path-like object."""
_StrPath = Union[str, "os.PathLike[str]"]

class IllegalMoveError(ValueError):
    """A move that is not legal in the position, or text that names no legal move.

    The state is left unchanged."""

class IllegalActionError(ValueError):
    """An action that is not legal now; the message names it and lists the legal ones.

    In a VectorEnv the message also names the env index; no env is stepped."""

class InvalidPositionError(ValueError):
    """A position string (FEN) that cannot be read, or describes a position the rules forbid."""

class UnknownGameError(ValueError):
    """A game id that names no game; the message lists the valid ids and aliases."""

class MissingTableError(KeyError):
    """A probe whose table is in none of the tablebase's directories, or a verification that needs a table its directory lacks.

    `subspace` names the missing table (the first, where several are), `missing` every one (the message lists at most twelve) and `directories` the directories searched."""

    subspace: str
    """The subspace of the missing table (`5-4`, `2110-53`, `3-2-h6-6`), the first where several are."""
    missing: List[str]
    """Every missing subspace, in the order a build would make them."""
    directories: List[str]
    """The directories searched."""

class OutOfScopeError(ValueError):
    """A position that no table of the tablebase can hold: a turn half made, more pieces than the databases cover, a position that cannot arise in play."""

class RecordError(ValueError):
    """A game record (PDN) that cannot be read; the message names the game in the text, the move and the problem."""

class TablebaseError(ValueError):
    """A table that cannot be used (truncated, corrupted, another format version or other rules), a closed tablebase, or a build that failed; the message names the file and the problem."""

def load_game(game_id: str, **rules: RuleValue) -> Game:
    """Loads a game by id or alias, with rule options as keywords.

    `load_game("checkers")`, `load_game("twelve_mens_morris", removal="mill_immunity")`,
    `load_game("cowboy_checkers", ply_limit=200, flying=None)`. Values are bools, ints, strs, or
    `None` for "no limit"/"never". An unknown id raises `UnknownGameError` and an unknown option,
    a bad value or a combination the rules cannot play raises `ValueError`, each naming the
    valid choices. `game_ids()` lists the ids and `Game.rule_options()` the options."""

def game_ids(aliases: bool = False) -> List[str]:
    """Every game id: `checkers`, then the morris presets; with `aliases=True`, each followed by
    its other names (such as `cowboy_checkers`)."""

def _restore_game(id: str, options: List[Tuple[str, str]]) -> Game:
    """Unpickles a `Game`: `id` with options written as text."""

def _restore_state(game: Game, origin: str, moves: List[str], actions: List[int]) -> State:
    """Unpickles a `State` by replaying its record; a record that does not replay raises the error
    of the first step that fails."""

def _cli_main(argv: List[str]) -> int:
    """Runs the command-line tool on `argv` (the program's name first) with the process's
    standard streams and returns its exit status. The GIL is released while it runs."""

def _self_check(state: State) -> None:
    """Checks `state` against the rules engine: its moves replayed through the engine's
    `GameState` give the same position, counters and outcome, and the legal actions of the
    position and stage, what each leads to and the observation are the engine's. Raises
    `AssertionError` at the first difference; the test suite runs it along random games."""

class Game:
    """A game with its rules: English checkers or a morris game, made by `load_game`.

    It makes states (`new_initial_state`, `state_from_fen`) and describes the action space and
    observation tensor that its states and `VectorEnv` share. Two games are equal when they
    play alike, the same family under the same rules, whatever id they were loaded by
    (`load_game("nine_mens_morris", men=12, diagonals=True)` is Morabaraba)."""

    @property
    def id(self) -> str:
        """The game id, e.g. `checkers` or `nine_mens_morris` (an alias given to `load_game` is
        replaced by the id it names)."""
    @property
    def family(self) -> str:
        """The game's family: `checkers` or `morris`."""
    def rules(self) -> Dict[str, RuleValue]:
        """Every rule option with its value: bools, ints, strs, and `None` for "no limit"."""
    def rule_options(self) -> List[Tuple[str, str, str]]:
        """Every rule option `load_game` accepts for this game: `(name, values taken, what it
        does)`."""
    def new_initial_state(self) -> State:
        """A new game from the starting position."""
    def state_from_fen(self, fen: str) -> State:
        """A new game from a position string: PDN FEN for checkers (`B:W21-32:B1-12`), the morris
        position string otherwise (`.../.../.../....../.../.../... w 9 9 0 - -`). Raises
        `InvalidPositionError` if it cannot be read."""
    def num_distinct_actions(self) -> int:
        """The size of the action space: every action is below it (128 for checkers, 600 on the
        24-point morris board)."""
    def observation_shape(self) -> Tuple[int, ...]:
        """The shape of an observation: `(5, 8, 8)` for checkers, `(7, points)` for morris."""
    def num_players(self) -> int:
        """The number of players: 2."""
    def get_type(self) -> Any:
        """OpenSpiel's description of this game (`pyspiel.GameType`, from `perfectplay.openspiel`;
        needs `pip install perfectplay[openspiel]`), so that OpenSpiel's algorithms
        (`MCTSBot`, `evaluate_bots`, ...) take this game and its states as they are."""
    def max_utility(self) -> float:
        """The winner's return: 1.0."""
    def min_utility(self) -> float:
        """The loser's return: -1.0."""
    def utility_sum(self) -> float:
        """The sum of both players' returns in every game: 0.0 (zero-sum)."""
    def action_to_string(self, action: int) -> str:
        """What `action` names without a position: `d6`, `a1-a4` or `pass` in morris (as
        `State.action_to_string` says it), the piece's square and the next square in the
        action's direction in checkers (`11-15`; in a position the same action may be the
        jump `11x18`). `IllegalActionError` for a number outside the action space or a checkers
        step off the board."""
    def string_to_action(self, text: str) -> int:
        """The action that `text` names, as `action_to_string` writes it (checkers also reads the
        jump form, `11x18`, as the action towards 15). `IllegalActionError` for text that
        names no action. `State.string_to_action` also checks the action is legal there."""
    def point_names(self) -> List[str]:
        """The names of the board's points (morris) or squares (checkers, `1` to `32`), in index
        order: the point of action `p` in morris, and square index `s` of checkers action
        `4 * s + d`."""
    def mills(self) -> npt.NDArray[np.int64]:
        """The mills of a morris board: an int64 array `[mills, 3]` of point indices, each row in
        ascending order, the rows in ascending order. `ValueError` for checkers."""
    def neighbours(self) -> npt.NDArray[np.bool_]:
        """Which points a man may slide between: a bool array `[points, points]`, symmetric, true
        where a line joins the two points (morris). For checkers, `[32, 32]`, true where the
        squares touch diagonally."""
    def perft(self, state: State, depth: int) -> int:
        """The number of move sequences of `depth` whole moves from `state`'s position (perft,
        counting every capture path in checkers), computed without the Python lock. `state`
        must be a state of this game under the same rules (`ValueError` otherwise), and `depth`
        from 0 to 64. Ctrl-C stops it (`KeyboardInterrupt`)."""
    def __reduce__(self) -> Tuple[Any, Tuple[str, List[Tuple[str, str]]]]:
        """Pickles as the id and the options that differ from the preset's."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Move:
    """A move: one whole turn, such as `11-15`, `15x24x31`, `d6` or `a1-a4xd7`.

    `str(move)` is its standard notation, which `State.apply` reads back. Moves compare equal
    and hash alike when they are the same turn of the same family."""

    @property
    def is_capture(self) -> bool:
        """Whether the move takes one or more of the opponent's pieces."""
    @property
    def family(self) -> str:
        """The family the move belongs to: `checkers` or `morris`."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __copy__(self) -> "Move":
        """The move itself: it cannot change, so a copy (`copy.copy`, `copy.deepcopy`) is the
        same object."""
    def __deepcopy__(self, memo: Any) -> "Move":
        """The move itself, as for `copy.copy`."""

class Outcome:
    """How a game ended: `winner` (the winning player's index, 0 being the side that moved first,
    or `None` for a draw or a truncated game), `reason` (one of "no moves", "no men", "mill",
    "board full", "repetition", "move rule", "adjudication", "ply limit") and `truncated`
    (whether the ply limit cut the game short without a result)."""

    @property
    def winner(self) -> Optional[int]:
        """The winning player's index (0 moved first), or `None` for a draw or truncation."""
    @property
    def winner_color(self) -> Optional[str]:
        """The winner's colour, `"black"` or `"white"`, or `None`."""
    @property
    def reason(self) -> str:
        """Why the game ended: "no moves", "no men", "mill", "board full", "repetition",
        "move rule", "adjudication" or "ply limit"."""
    @property
    def truncated(self) -> bool:
        """Whether the ply limit cut the game short (no result: both returns are 0)."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __copy__(self) -> "Outcome":
        """The outcome itself: it cannot change, so a copy (`copy.copy`, `copy.deepcopy`) is the
        same object."""
    def __deepcopy__(self, memo: Any) -> "Outcome":
        """The outcome itself, as for `copy.copy`."""

class State:
    """A game in progress: the position, its history (for repetition, the move rule, the ply limit
    and `undo`) and, while a turn is made action by action, how far it has got.

    Two interfaces share it. Whole moves: `legal_moves()` and `apply(move)`, in standard
    notation. Actions, for reinforcement learning: `legal_actions()`, `legal_action_mask()`,
    `apply_action(a)` and `observation()`, where a turn may take several actions by the same
    player (a checkers capture is one action per jump; a morris mill's removal is an action of
    its own). The observation and action encoding are those of `VectorEnv`.

    `current_player()` is 0 for the side that moves first under the rules (Black in checkers,
    White in morris), 1 for the other, and -4 (`TERMINAL_PLAYER`, pyspiel's terminal id) once
    the game is over."""

    @property
    def game(self) -> Game:
        """The game this state belongs to."""
    def legal_moves(self) -> List[Move]:
        """The legal moves (whole turns) as `Move` objects; none once the game is over. In the
        middle of a turn made with `apply_action`, the turns of the position as it stood at the
        start of the turn."""
    def apply(self, move: Union[Move, str]) -> None:
        """Plays a move, given as a `Move` or in standard notation (`"11-15"`, `"15x31"`, `"d6"`,
        `"a1-a4xd7"`). An illegal or unreadable move raises `IllegalMoveError` and leaves the
        state unchanged, as does a move while a turn is half made with `apply_action`. A
        forfeited turn (`--` in a game record) is played with `forfeit_turn()`."""
    def forfeit_turn(self) -> None:
        """Passes the turn without a move, as a player out of time forfeits it (the rule sheets'
        time limit; game records write it `--`, and `history()` shows it as `None`). It counts
        as a ply without progress. Raises `IllegalMoveError` while a turn is half made with
        `apply_action`, and once the game is over."""
    def clone(self) -> State:
        """An independent copy, history included."""
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: Any) -> State: ...
    def __reduce__(self) -> Tuple[Any, Tuple[Game, str, List[str], List[int]]]:
        """Pickles as the game, the position string the game started from, the moves played since
        and the actions of a half-made turn: unpickling replays them, so history (repetition,
        undo) survives."""
    def to_pdn(
        self,
        tags: Union[Dict[str, str], Sequence[Tuple[str, str]], None] = None,
        result: Optional[str] = None,
    ) -> str:
        """The game as a game record: PDN for checkers, the same layout for morris (see
        `perfectplay.pdn`). `tags` (a dict or a list of pairs) come first, but for `Result`,
        `FEN`, `SetUp`, `GameType`, `Game` and `Rules`, which the state writes; `result` is `1-0`
        (White wins), `0-1`, `1/2-1/2` or `*`, by default the game's own (`*` while it goes
        on). A half-made turn is left out."""
    def fen(self) -> str:
        """The position string: PDN FEN for checkers, the morris position string (which records
        the plies without progress) otherwise. `Game.state_from_fen` reads it back."""
    def _repr_svg_(self) -> str:
        """The board as an SVG picture (Jupyter shows it)."""
    def render_rgb(self, scale: float = 1.0) -> npt.NDArray[np.uint8]:
        """The board as pixels: a `(height, width, 3)` uint8 RGB array of the SVG picture drawn at
        `scale` times its size over white (Gymnasium's `rgb_array`). Text uses the machine's
        fonts; without any, it is left out and the rest is drawn."""
    def current_player(self) -> int:
        """The player to act: 0 (the side that moves first), 1, or -4 (`TERMINAL_PLAYER`) once the
        game is over."""
    def player_to_move(self) -> int:
        """The player the rules have to move: `current_player()` while the game goes on, and once
        it is over (where `current_player()` is -4) the side `observation()` is seen from."""
    def is_terminal(self) -> bool:
        """Whether the game is over: won, drawn, or truncated by the ply limit."""
    def is_chance_node(self) -> bool:
        """False: no chance (OpenSpiel's state API, which its algorithms ask)."""
    def is_simultaneous_node(self) -> bool:
        """False: the players take turns (OpenSpiel's state API)."""
    def is_player_node(self) -> bool:
        """Whether a player acts now: the game is not over (OpenSpiel's state API)."""
    def returns(self) -> List[float]:
        """`[return of player 0, return of player 1]`: 1.0 for a win, -1.0 for a loss, 0.0 for a
        draw, a truncated game, or a game still going on."""
    def outcome(self) -> Optional[Outcome]:
        """How the game ended, or `None` while it goes on."""
    def legal_actions(self, player: Optional[int] = None) -> List[int]:
        """The legal actions, ascending; none once the game is over. With `player` (OpenSpiel's
        form, `state.legal_actions(state.current_player())`), none unless that player acts now."""
    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """A bool array of `num_distinct_actions()`, true at the legal actions."""
    def apply_action(self, action: int) -> None:
        """Applies one action. A turn may take several: each jump of a checkers capture, and a
        morris placement or move and then each man it takes; the same player acts until the
        turn is complete. An illegal action raises `IllegalActionError` (naming it and the
        legal ones) and leaves the state unchanged."""
    def child(self, action: int) -> State:
        """A copy of the state with `action` applied."""
    def action_to_string(self, action: int) -> str:
        """What `action` means now: `11-15` (a step), `15x24` (one jump), `d6` (a placement, or a
        removal after a mill), `a1-a4`, `pass`, or `invalid`."""
    def string_to_action(self, text: str) -> int:
        """The legal action that `text` names (`11-15`, `15x24`, `d6`, `a1-a4`, `pass`: what
        `action_to_string` writes; case and spaces around it do not matter).
        `IllegalActionError` names the legal ones when none matches."""
    def observation_tensor(self, player: Optional[int] = None) -> npt.NDArray[np.float32]:
        """The observation flattened: a float32 array of `prod(Game.observation_shape())` values
        (OpenSpiel's `observation_tensor`). Observations are seen from `player_to_move()`,
        the game over or not; `player`, if given, must be that player (`ValueError`
        otherwise)."""
    def __eq__(self, other: object) -> bool:
        """Same game, same history (start, moves, actions of a half-made turn)."""
    __hash__: None  # type: ignore[assignment]
    def move_actions(self, move: Move) -> List[int]:
        """The actions that play `move` from the start of a turn, in order. A move that is not
        legal there raises `IllegalMoveError`."""
    def observation(self) -> npt.NDArray[np.float32]:
        """The observation tensor (float32, `Game.observation_shape()`), seen from the player to
        move. Checkers: planes of own men, own kings, the opponent's men and kings, and the
        capturing piece mid-capture, on the 8x8 board turned so that the player to move plays
        up. Morris: planes of own men, the opponent's men, empty points, own and the opponent's
        men in hand (as a fraction), a plane of ones while choosing men to take, and the point
        the turn's man arrived on then."""
    def undo(self) -> Optional[Move]:
        """Takes back the last action of a turn being made with `apply_action` (returns `None`),
        or else the last ply: a whole move (returns it) or a forfeited turn (returns `None`;
        `is_mid_turn()`, asked before, tells the two `None`s apart). Raises `IndexError` at the
        start of the history."""
    def history(self) -> List[Optional[Move]]:
        """The plies played so far, in order: each `Move`, or `None` where a turn was forfeited
        (`forfeit_turn`, or `--` in a game record)."""
    def ply(self) -> int:
        """The number of plies played so far: whole moves and forfeited turns."""
    def is_mid_turn(self) -> bool:
        """Whether a turn is half made with `apply_action` (the same player acts next)."""

class VectorEnv:
    """Many games stepped together in Rust, in parallel, with the Python lock released: the
    batched environment for reinforcement learning.

    `VectorEnv(game_id, num_envs, seed=0, opponent=None, agent_player=0, copy=True,
    tablebase=None, start=None, packed_mask=False, obs_dtype="float32", **rules)`. Rule options are keywords, as for
    `load_game`, with the same meanings: `ply_limit=200` stops games after 200 plies,
    `ply_limit=None` plays without a limit, and without `ply_limit` the game's own (1000 plies)
    holds.

    - `reset(seed=None) -> (obs, info)` restarts every game; a seed reseeds every env.
    - `step(actions) -> (obs, rewards, terminated, truncated, info)` takes one action per env
      (int64 array `[N]`). Observations are float32 (or uint8, below) `[N, *observation_shape]`, seen from the
      player to move; `terminated` and `truncated` are bool `[N]` (truncated: the ply limit
      cut the game short); `info["action_mask"]` is the bool `[N, num_actions]` mask of legal
      actions and `info["current_player"]` the int32 `[N]` players to act (also
      `env.current_player` and `env.action_mask`). Actions and observations are those of
      `State`: a turn may take several actions by the same player.
    - Self-play (`opponent=None`): each env's player to move acts; `rewards` is float32
      `[N, 2]`, the returns of players 0 and 1 in the step where a game ends (1 win, -1 loss,
      0 draw or truncation), else 0.
    - Single-agent (`opponent="random"`): the agent plays `agent_player` (0 moves first); after
      its action the opponent's uniformly random actions are applied in the same step until
      the agent is to move again or the game is over (and after a reset, when the opponent
      moves first). `rewards` is float32 `[N]`, from the agent's point of view. A reset
      leaves the agent to act in every env: a start the opponent ends first is drawn again
      (up to 1,000 times; `ValueError` where every draw ends at once, as with `ply_limit=1`).
    - Perfect opponent (`opponent="perfect"`, `tablebase=` a directory or a list of them): the
      opponent plays a best move from the endgame databases, uniformly among the equally good
      ones (from the env's seeded stream). Every subspace reachable from the starts must have
      its table (checked here, with the missing ones named, and each table's header read:
      `TablebaseError` for one of another game or rules, truncated or of another version);
      where a probe still fails during a step, the opponent plays a random move and
      `perfect_misses` counts it.
    - Endgame starts (`start="subspace:4-3"`): every game starts from a position drawn
      uniformly from the subspace's indices whose positions are not over, from each env's own
      stream (as `Tablebase.sample_states` draws them); the side to move there has the first
      count of men (or pieces): White in morris, Black in checkers. Without `tablebase` only
      the subspace's index is needed, no table. A `tablebase` without a perfect opponent,
      which alone reads it, is refused (`ValueError`).
    - Autoreset, Gymnasium's next-step mode: the step in which a game ends returns its final
      observation with `terminated` or `truncated` set; in the next step that env ignores its
      action and starts a new game, returning the first observation with zero reward and both
      flags false. A finished env's `current_player` is -4 and its mask all false.
    - `sample_legal_actions()` draws a uniformly random legal action per env from each env's
      own seeded stream, uniformly among the legal actions (taken in ascending order). Results
      depend on the seed and the calls made, never on the thread count (`RAYON_NUM_THREADS`).
      For the loop `env.step(env.sample_legal_actions())`: a step whose actions equal the
      latest sample (no step or reset since) skips the legality check, and after a sample the
      next step or reset draws the next samples while it has the envs at hand, for the next
      call to hand out (drawing stops after a pass whose samples went unused, and a seeded
      reset starts again as a new env does).
    - Threads: `RAYON_NUM_THREADS` (one per CPU by default). The first Python thread that steps
      envs steps them itself, with that many less one workers of its own; other threads step
      theirs on rayon's global pool. Each thread steps about the same envs at every call, in
      chunks of 32, so that their data stays in its core's caches; a batch of 32 envs or fewer
      is stepped by the calling thread alone (a second thread would cost more than it does).
      After a call the workers wait awake, spinning, for up to 50 µs, so that back-to-back
      calls find them ready: code run between steps on the same cores (a policy on the CPU)
      shares them with that spin. With multiprocessing, prefer the `spawn` or `forkserver`
      start method: a forked child steps its envs on its calling thread alone.
    - One env serves one Python thread at a time: a call made while another thread's call of the
      same env is still running (a step releases Python's lock) raises `RuntimeError` saying
      so, rather than waiting; make an env per thread.
    - An illegal action raises `IllegalActionError` naming the env index, before any env moves.
    - `packed_mask=True`: the masks are uint8 `[N, ceil(num_actions / 8)]`, eight actions to a
      byte, lowest bit first (`np.unpackbits(mask, axis=1, bitorder="little")[:, :num_actions]`
      is the bool mask), the bits past the last action zero: an eighth of the bytes to write
      each step and to move to a learner (600 bools per env become 75 bytes on the 24-point
      boards).
    - `obs_dtype="uint8"` (or `numpy.uint8`): the observations are uint8, a quarter of the bytes
      of float32 (168 instead of 672 per env on the 24-point boards, 320 instead of 1280 for
      checkers), so that a large batch's rows stay in the caches: the same planes, with 0 and 1
      for 0.0 and 1.0, except the morris planes of men in hand, which hold their number (0 to
      the men per side) rather than its fraction of the men per side. `observation_high` is the
      largest value either dtype holds.

    Buffers: by default (`copy=True`, as Gymnasium's vector envs) every call returns fresh
    arrays, safe to keep. `copy=False` is the fast path: the arrays returned by `reset`, `step`
    and `sample_legal_actions` then belong to the env and are overwritten in place by the next
    call, so that stepping allocates nothing; copy what you keep (`obs.copy()`), and do not
    hold a `torch.from_numpy` view of them across steps."""

    def __init__(
        self,
        game_id: str,
        num_envs: int,
        seed: int = 0,
        opponent: Optional[str] = None,
        agent_player: int = 0,
        copy: bool = True,
        tablebase: Union[_Path, Iterable[_Path], Tablebase, None] = None,
        start: Optional[str] = None,
        packed_mask: bool = False,
        obs_dtype: Union[str, "np.dtype[Any]", type, None] = None,
        **rules: RuleValue,
    ) -> None: ...
    def reset(
        self, seed: Union[None, int, Sequence[int]] = None
    ) -> Tuple[Union[npt.NDArray[np.float32], npt.NDArray[np.uint8]], Dict[str, Any]]:
        """Restarts every game and returns `(obs, info)`. `seed` reseeds the envs' random streams:
        an int reseeds every env as the constructor's seed does, a sequence of one int per env
        reseeds env `i` as the only env of a `VectorEnv` seeded `seed[i]`; `None` lets them go
        on."""
    def step(
        self, actions: Union[npt.NDArray[np.integer[Any]], Sequence[int]]
    ) -> Tuple[
        Union[npt.NDArray[np.float32], npt.NDArray[np.uint8]],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        Dict[str, Any],
    ]:
        """Steps every env with its action (int64 `[num_envs]`) and returns `(obs, rewards,
        terminated, truncated, info)`; see the class documentation. An illegal action raises
        `IllegalActionError` naming the env, and no env moves."""
    def sample_legal_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per env (int64 `[num_envs]`), from each env's own
        seeded stream; 0 for an env whose game just ended (it ignores its next action)."""
    def fen(self, index: int) -> str:
        """The position string of env `index`'s game."""
    @property
    def num_envs(self) -> int:
        """The number of envs."""
    @property
    def num_actions(self) -> int:
        """The size of the action space (`Game.num_distinct_actions()`)."""
    @property
    def observation_shape(self) -> Tuple[int, ...]:
        """The shape of one env's observation (`Game.observation_shape()`)."""
    @property
    def obs_dtype(self) -> str:
        """The observations' numpy dtype name: `"float32"`, or `"uint8"` (`obs_dtype="uint8"`)."""
    @property
    def observation_high(self) -> float:
        """The largest value an observation holds: 1.0 in float32; in uint8 1 for checkers and the
        men per side for morris (the planes of men in hand count them)."""
    @property
    def game(self) -> Game:
        """The game, with its rules."""
    @property
    def opponent(self) -> Optional[str]:
        """The opponent in single-agent mode (`"random"` or `"perfect"`), or `None` for self-play."""
    @property
    def perfect_misses(self) -> int:
        """How many of the perfect opponent's probes failed so far (each replaced by a random
        move): 0 unless a table's payload is damaged (found when it is first read) or a file
        changed after the env was made."""
    @property
    def agent_player(self) -> int:
        """The player the agent plays in single-agent mode (0 moves first)."""
    @property
    def current_player(self) -> npt.NDArray[np.int32]:
        """The players to act, int32 `[num_envs]`: 0 or 1, or -4 where a game has just ended."""
    @property
    def action_mask(self) -> Union[npt.NDArray[np.bool_], npt.NDArray[np.uint8]]:
        """The legal-action masks, bool `[num_envs, num_actions]` (uint8 `[num_envs,
        ceil(num_actions / 8)]` with `packed_mask=True`)."""

StateOrFen = Union["State", str]

class Probe:
    """What a probe found: the value for the side to move.

    `wdl` is 1 (win), 0 (draw) or -1 (loss) for the side to move; `plies` is the number of
    plies to the end of the game under optimal play (the winner the shortest way, the loser the
    longest), or `None` for a draw or a table stored without distances (WDL-only), where
    only what the rules decide has one: 0 for a game over, 1 for a move that ends it.
    `Probe(wdl, plies=None)` makes one by hand, as its `repr` writes it (and as unpickling
    does); a probe pickles and copies as the plain data it is."""

    def __init__(self, wdl: int, plies: Optional[int] = None) -> None: ...
    @property
    def wdl(self) -> int:
        """1, 0 or -1: win, draw or loss for the side to move."""
    @property
    def plies(self) -> Optional[int]:
        """Plies to the end under optimal play; `None` for a draw or a WDL-only table (but for
        what the rules decide: 0 for a game over, 1 for a move that ends it)."""
    @property
    def result(self) -> str:
        """`"win"`, `"draw"` or `"loss"`."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[type, Tuple[int, Optional[int]]]:
        """Pickles as `Probe(wdl, plies)`: a probe is plain data, so results can come back from
        worker processes."""
    def __copy__(self) -> "Probe":
        """The probe itself: it cannot change, so a copy (`copy.copy`, `copy.deepcopy`) is the
        same object."""
    def __deepcopy__(self, memo: Any) -> "Probe":
        """The probe itself, as for `copy.copy`."""

class Tablebase:
    """Endgame tables of one game, read from one or more directories.

    Made by `perfectplay.tablebase.open(...)`. Probes take a `State` (at the start of a turn) or
    a position string of the tablebase's game. A position whose table is in none of the
    directories raises `MissingTableError` (a `KeyError`) naming the subspace and the
    directories; a position no table can hold (a turn half made, more pieces than the
    databases cover) raises `OutOfScopeError`; a damaged, truncated or other-version file
    raises `TablebaseError`. Use it from any number of threads; `close()` (or a `with` block)
    lets the tables go."""

    def __init__(
        self,
        game: Game,
        directories: Union[_Path, Iterable[_Path]],
        distances: bool = True,
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
    def add_directory(self, directory: _StrPath) -> None:
        """Adds a directory to search after the others."""
    def rules_mismatch(self, game: Game) -> Optional[str]:
        """Why these tables cannot value positions of `game` (a `Game`), naming the rules that
        differ among those the tables read; `None` where they can. The history rules
        (repetition, the move rule, the ply limit) and, in checkers, who moves first and
        adjudication are read by no table: games that differ only there share tables."""
    def subspaces(self) -> List[str]:
        """The subspaces with a table in some directory, sorted (`5-4`, `2110-53`, ...)."""
    def probe(self, state: StateOrFen) -> Probe:
        """The value of the position for the side to move."""
    def get(self, state: StateOrFen, default: Any = None) -> Any:
        """Like `probe`, but `default` where the tables do not hold the position: its table is
        missing, or no table holds it (more pieces than the databases cover, a turn half
        made), as python-chess's `get_wdl` answers. A state of another game, a closed
        tablebase or a damaged table still raise."""
    def move_values(self, state: StateOrFen) -> List[Tuple[Move, Probe]]:
        """Every legal move with the value it keeps for the side playing it, best first (the
        quickest win, then draws, then the slowest loss): a list of `(Move, Probe)`."""
    def search(
        self,
        state: StateOrFen,
        *,
        table_bits: int = 22,
        threads: Optional[int] = None,
        checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None,
    ) -> Probe:
        """The value of a morris position with men in hand (the start above all) for the side to
        move, by an alpha-beta search of the placement phase whose leaves are probes of these
        moving-phase tables: a `Probe` without `plies` (the search gives win, draw or loss).

        `table_bits` sets the transposition table (2**table_bits entries of 8 bytes, 4 to 34),
        `threads` the workers (default: every core). With `checkpoint` (a path) the table is
        read from that file when it exists and written to it when the search returns, its
        value found or not: its entries are proven bounds, so a later call goes on from what
        this one proved, and `search_moves` can start from `search`'s bounds (the file
        `perfectplay search --checkpoint` writes). The call saves nothing while it runs and does
        not see Ctrl-C: a search of hours is better run as `perfectplay search --checkpoint`,
        which saves every few minutes and on Ctrl-C. The call holds the checkpoint's lock (the
        file's name with `.lock` added) while it runs: a checkpoint another search is using, or
        one whose directory is missing or cannot take the lock file, is a `TablebaseError` before
        any search; the temporary files a killed save left beside it are removed. A table that
        cannot be written at the end is a `RuntimeWarning`, the value still returned. Checkers
        has no placement phase
        (`ValueError`); rules whose placement positions can repeat are refused
        (`TablebaseError`)."""
    def search_moves(
        self,
        state: StateOrFen,
        *,
        table_bits: int = 22,
        threads: Optional[int] = None,
        checkpoint: Optional[Union[str, "os.PathLike[str]"]] = None,
    ) -> List[Tuple[Move, Probe]]:
        """Every turn of a morris position with men in hand with the value it keeps for the side
        playing it, best first, by the search of `search` (same arguments): a list of
        `(Move, Probe)`, each `Probe` without `plies`."""
    def best_moves(self, state: StateOrFen) -> List[Move]:
        """The moves that keep the position's value, best first (all equally good)."""
    def principal_variation(self, state: StateOrFen, max_plies: int = 400) -> List[Move]:
        """A line of best moves to the end of the game, or of `max_plies` moves for a draw (or a
        WDL-only table)."""
    def sample_states(self, subspace: str, count: int = 1, seed: int = 0) -> List[State]:
        """`count` states (at most ten million) drawn uniformly, with `seed`, from the indices of
        subspace `subspace` (`"4-3"`, `"2110-53"`) whose positions are not over: endgame
        starts for training and testing. An index stands for a position and its symmetric
        copies, and the state is the copy the index stores; the morris index also holds
        positions that no game reaches. The side to move has the first count of men (or
        pieces): White in morris, Black in checkers."""
    def encode(self, states: Iterable[StateOrFen]) -> npt.NDArray[np.uint32]:
        """Encodes states (or position strings) as rows of four `uint32` (see the module docs):
        what `probe_batch` reads."""
    def probe_batch(
        self,
        positions: Union[npt.ArrayLike, Sequence[StateOrFen]],
        default: Optional[int] = None,
    ) -> Tuple[npt.NDArray[np.int8], npt.NDArray[np.int32]]:
        """Probes many positions at once, in parallel with the GIL released. `positions` is an `[N, 4]`
        array of encoded positions (see `encode`; any integer dtype whose values fit `uint32`: a
        value that does not raises `TablebaseError` naming its row and field, and a float or bool
        array `TypeError`) or an iterable of states or position strings (a list, or an array of
        strings or objects; those whose position no row holds, a morris memory, are probed one by
        one). Returns `(wdl, plies)`: `int8` values 1, 0, -1 for the side to move and `int32` plies
        to the end (-1 for draws and WDL-only tables, but for what the rules decide). The first
        position that cannot be probed raises its error; a table changed on disk while the batch
        read it raises `TablebaseError`.

        `default` (an int from -128 to 127 other than the results -1, 0 and 1, such as -2) is the
        `wdl` of positions the tables do not hold (a missing table, more pieces than the
        databases cover, a state whose turn is half made), with plies -1, instead of an error:
        `wdl != default` is then the mask of positions found, as `get` would find them. Rows that
        are not positions, a closed tablebase and damaged tables still raise."""
    def check_tables(self) -> None:
        """Checks now that no table read so far changed on disk since it was opened (probes look
        once a tenth of a second per table); raises `TablebaseError` naming the file if one
        did."""
    def close(self) -> None:
        """Lets the tables go; every later call raises `TablebaseError`."""
    def __enter__(self) -> Tablebase: ...
    def __exit__(self, exc_type: Any, exc: Any, tb: Any, /) -> bool: ...

def _tables_game(directory: _StrPath) -> Optional[Game]:
    """The game whose tables lie in `directory`, from the first table's header
    ([`game_of_tables`]), or `None` when the directory holds no table."""

def _build_tables(
    game: Game,
    out: _StrPath,
    targets: Optional[Sequence[str]] = None,
    max_men: Optional[int] = None,
    max_pieces: Optional[int] = None,
    whole_game: bool = False,
    threads: Optional[int] = None,
    wdl_only: bool = False,
    progress: Optional[Any] = None,
    force_threads: bool = False,
    wait: bool = False,
    compress: bool = False,
    checkpoint_minutes: Optional[float] = 30.0,
    unit_distances: bool = False,
) -> List[Dict[str, Any]]:
    """Builds tables of `game` into `out` with the GIL released (see `perfectplay.tablebase.build`).
    `targets` are subspace names, or `None` with `max_men` (morris), `max_pieces` (checkers)
    or `whole_game`. `progress`, if given, is called about four times a second with a dict of
    the build's figures. Ctrl-C stops the build between tasks (the unit in progress is dropped
    but for its last checkpoint, no half-written file is left) and raises `KeyboardInterrupt`;
    a rerun resumes. `threads` is
    checked as on the command line (1 to 4 per CPU unless `force_threads`); another build
    holding `out`'s build lock is an error naming it, or waited for with `wait`. A unit saves
    its state (`KEY.ppck`) after `checkpoint_minutes` of work and as often again (`None`:
    never), and a build takes a unit up from its checkpoint. With `wdl_only` and
    `unit_distances`, each table's distances within its unit are written beside it (`KEY.ppud`)
    for `_verify_tables` to prove the results with."""

def _plan_units(
    game: Game,
    targets: Optional[Sequence[str]] = None,
    max_men: Optional[int] = None,
    max_pieces: Optional[int] = None,
    whole_game: bool = False,
    wdl_only: bool = False,
    unit_distances: bool = False,
) -> List[Dict[str, Any]]:
    """The units that building `targets` (or `max_men`, `max_pieces`, `whole_game`, as in
    `_build_tables`) takes, in an order where each comes after the units it reads: a list of
    dicts with `subspaces` (names), `reads` (indices of earlier units), `positions` and
    `working_bytes` (memory to build it; that of WDL-only tables with `wdl_only`, and with
    their unit distances with `unit_distances` too)."""

def _verify_tables(
    game: Game,
    db: _StrPath,
    targets: Optional[Sequence[str]] = None,
    threads: Optional[int] = None,
    unit_distances: bool = False,
    progress: Optional[Any] = None,
    force_threads: bool = False,
) -> Tuple[List[Dict[str, Any]], float]:
    """Verifies the tables of `game` in `db` (those of `targets`, subspace names or checkers
    materials, else every table there) with the GIL released: every stored value recomputed
    from its successors, and with `unit_distances` WDL-only tables proven right by their unit
    distances (`KEY.ppud`). `progress`, if given, is called about four times a second with a
    dict (`total`, `checked`, `table`). Ctrl-C stops it between chunks of positions (nothing is
    written) and raises `KeyboardInterrupt`. Returns `(tables, seconds)`, a dict per table
    (`subspace`, `positions`, `mismatches`, `example`). A directory without tables, or a table
    missing or unusable (the verified one or one its successors lie in), is an error."""

def _build_unit(
    game: Game,
    out: _StrPath,
    subspaces: Sequence[str],
    threads: Optional[int] = None,
    wdl_only: bool = False,
    compress: bool = False,
    checkpoint_minutes: Optional[float] = 30.0,
    unit_distances: bool = False,
) -> Dict[str, Any]:
    """Builds the unit made of `subspaces` into `out` on its own (the tables of the units it reads
    must be there, complete): kept if its files are complete and valid. No lock is taken: the
    driver holds the directory's (`_DirectoryClaim`). Returns a dict: `tables`
    (`{subspace: positions}`), `solved_positions` (0 when kept), `seconds`, `threads`,
    `peak_working_bytes` (0 when kept), `resumed` (taken up from a checkpoint),
    `checkpoints_saved` and `checkpoint_failures`; the GIL is released meanwhile. The unit saves
    its state after `checkpoint_minutes` of work and as often again (`None`: never), and where it
    stopped at a signal (Ctrl-C, a Ray task cancelled without force), which is then raised.
    With `wdl_only` and `unit_distances` each table's unit distances are written beside it."""

class _DirectoryClaim:
    """A directory claimed by a cluster build's driver: its build lock, held until `release()`
    (or the object is dropped), with the temporary files of killed writers removed when taken."""

    def __init__(self, out: _StrPath) -> None: ...
    def release(self) -> None:
        """Lets the directory go, first removing the temporary files that killed workers left
        (call it once no task writes there any more)."""

def _read_records(game: Game, text: str) -> List[Tuple[List[Tuple[str, str]], State, str]]:
    """The games of the record `text` read as games of `game`: `(tags, state, result)` each, the
    result as its token (`1-0` White wins, `0-1` Black wins, `1/2-1/2`, `*`). `RecordError`
    names the game, the move and the problem."""
