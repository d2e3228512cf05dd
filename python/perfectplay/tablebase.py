"""Perfect play from endgame databases, in the manner of python-chess's ``chess.syzygy``.

Open the tables that ``perfectplay solve`` (or :func:`build`) wrote, and ask them::

    import perfectplay as pp

    with pp.tablebase.open("solver-data/nine_mens_morris") as tb:
        state = tb.game.state_from_fen("W../.W./..W/B..B../.../.../B.. b 0 0")  # any State
        p = tb.probe(state)           # p.wdl: 1, 0, -1 for the side to move; p.plies
        tb.get(state)                 # None instead of MissingTableError
        tb.best_moves(state)          # the moves that keep the value
        tb.principal_variation(state) # best play to the end
        wdl, plies = tb.probe_batch(states_or_encoded_rows)   # numpy out, GIL released

What the tables value is the game as the position defines it: repetition, the move rule and
the ply limit are history rules the databases do without, so a position that can only repeat
is a draw, and ``plies`` counts every ply to the end of the game with the winner hurrying and
the loser resisting.

Errors: ``MissingTableError`` (a ``KeyError``; ``.subspace`` and ``.directories`` say what
was looked for where), ``OutOfScopeError`` (a position no table holds: a turn half made with
``apply_action``, more pieces than the databases cover) and ``TablebaseError`` (a truncated,
corrupted or other-version file, a closed tablebase, another game's state), both
``ValueError`` subclasses.
"""

from __future__ import annotations

import collections.abc
import os
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, Union

import numpy as np

from perfectplay import _core
from perfectplay._games import exact_int
from perfectplay._core import (
    Game,
    MissingTableError,
    OutOfScopeError,
    Probe,
    Tablebase,
    TablebaseError,
    load_game,
)

# ``open`` is left out: ``from perfectplay.tablebase import *`` must not shadow the builtin.
# Call it as ``pp.tablebase.open``.
__all__ = [
    "MissingTableError",
    "OutOfScopeError",
    "Probe",
    "Tablebase",
    "PolicyScore",
    "TablebaseError",
    "VerifiedTable",
    "VerifyReport",
    "build",
    "score_policy",
    "verify",
]

PathLike = Union[str, bytes, "os.PathLike[str]"]


def _directories(directories: Union[PathLike, Iterable[PathLike]]) -> List[str]:
    # A path may be str, bytes (decoded as the file system does) or os.PathLike; bytes are
    # one path, not an iterable of directories.
    if isinstance(directories, (str, bytes, os.PathLike)):
        return [os.fsdecode(directories)]
    if not isinstance(directories, collections.abc.Iterable):
        raise TypeError(
            "directories: a path (str, bytes or os.PathLike) or an iterable of paths, not "
            f"{type(directories).__name__}"
        )
    dirs = [os.fsdecode(d) for d in directories]
    if not dirs:
        raise ValueError("open() needs at least one directory")
    return dirs


def _game_of_tables(dirs: List[str]) -> Game:
    """The game the first table found in ``dirs`` was built for, from its header."""
    for d in dirs:
        if not os.path.isdir(d):
            raise TablebaseError(f"no such directory: {d}")
        found = _core._tables_game(d)
        if found is not None:
            return found
    raise TablebaseError(
        "no tables in " + ", ".join(dirs) + ": build some with perfectplay.tablebase.build(...)"
        " or `perfectplay solve`, or say which game (game=...)"
    )


def _resolve_game(
    game: Union[Game, str, None], rules: Dict[str, Any], dirs: List[str], call: str
) -> Game:
    """The game of a call on tables: ``game`` itself, loaded from its id with ``rules``, or
    (``None``) the one the tables' headers name."""
    if game is None:
        if rules:
            raise ValueError(f"rule options need a game id: {call}(..., game='...', **rules)")
        return _game_of_tables(dirs)
    if isinstance(game, str):
        return load_game(game, **rules)
    if rules:
        raise ValueError("rule options go with a game id, not with a Game")
    return game


def open(
    directories: Union[PathLike, Iterable[PathLike]],
    game: Union[Game, str, None] = None,
    *,
    distances: bool = True,
    **rules: Any,
) -> Tablebase:
    """Opens the tables in ``directories`` (one path or several, searched in order).

    ``game`` is a ``Game``, a game id (rule options as keywords, as for ``load_game``), or
    ``None`` to take the game and rules from the tables' headers. Nothing is read until a
    probe needs it. Use it in a ``with`` block, or call ``close()``.

    Plain and compressed tables (``build(..., compress=True)``, ``perfectplay compress``) are
    read alike. ``distances=False`` reads a compressed set's result files only (``KEY.ppdb``,
    a tenth the size of its distance files and probed about twice as fast): values then have
    no distance (``plies`` is ``None``) where they come from compressed tables (only where the
    rules alone decide, such as a capture of the last piece).
    """
    dirs = _directories(directories)
    return Tablebase(_resolve_game(game, rules, dirs, "open"), dirs, distances=distances)


def _importable(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


def _subspace_names(subspaces: Union[None, str, Iterable[str]]) -> Optional[List[str]]:
    """``subspaces`` as a list of names: one name given alone is one name, not its letters."""
    if subspaces is None:
        return None
    if isinstance(subspaces, str):
        return [subspaces]
    return [str(s) for s in subspaces]


def _progress_style() -> str:
    """How to draw progress here: ``"tqdm"`` (a widget in notebooks with ipywidgets, a bar in
    terminals), ``"notebook-line"`` (a notebook without ipywidgets, where tqdm's text bar would
    leave one output line per update: one line of text updated in place instead) or
    ``"stderr-line"`` (no tqdm: one line rewritten on standard error)."""
    in_notebook = "ipykernel" in sys.modules
    if in_notebook and not _importable("ipywidgets"):
        return "notebook-line"
    return "tqdm" if _importable("tqdm") else "stderr-line"


def _progress_callback(
    progress: Union[bool, None, Callable[[Dict[str, Any]], None]],
) -> Tuple[Optional[_Progress], Optional[Callable[[Dict[str, Any]], None]]]:
    """What a ``progress`` argument asks for: the bar to close afterwards (``True``: one of
    ours) and the function to hand the solver (``False``/``None``: none)."""
    if progress is True:
        drawer = _Progress()
        return drawer, drawer
    if progress is False or progress is None:
        return None, None
    if not callable(progress):
        # Refused before the work starts, not when the first report would call it.
        raise TypeError(
            f"progress is True, False or a function of one dict, not {type(progress).__name__}"
        )
    return None, progress


class _Progress:
    """Draws the progress of a build or a verification in the style :func:`_progress_style`
    picks."""

    def __init__(self) -> None:
        self._bar: Any = None
        self._display: Any = None
        self._last_line = ""
        self._started = time.monotonic()
        self._style = _progress_style()
        self._tqdm: Any = None
        if self._style == "tqdm":
            from tqdm.auto import tqdm  # type: ignore[import-not-found]

            self._tqdm = tqdm

    def __call__(self, figures: Dict[str, Any]) -> None:
        total = figures["total"]
        if "checked" in figures:  # a verification's figures
            done = figures["checked"]
            what = f"verifying {figures['table']}" if figures["table"] else "opening"
            self._draw(total, done, what)
            return
        finished = figures["finished"]
        unit = figures["unit"]
        if unit:
            done_in_unit = figures["unit_initialised"] / 2
            if figures["layer"]:
                done_in_unit = figures["unit_positions"] / 2
            done = finished + done_in_unit
            what = f"{unit}: " + (
                f"layer {figures['layer']}" if figures["layer"] else "first pass"
            )
        else:
            done = finished
            what = "done" if total and finished >= total else "planning"
        self._draw(total, done, what)

    def _draw(self, total: int, done: float, what: str) -> None:
        if self._tqdm is not None:
            if self._bar is None:
                self._bar = self._tqdm(
                    total=total, unit=" positions", unit_scale=True, desc="tables"
                )
            # The total is known once the build has planned its units (0 before).
            self._bar.total = total
            self._bar.n = min(int(done), total)
            self._bar.set_postfix_str(what, refresh=False)
            self._bar.refresh()
            return
        share = 100.0 * done / total if total else 100.0
        elapsed = time.monotonic() - self._started
        line = f"tables: {share:5.1f}% of {total:,} positions, {elapsed:.0f} s, {what}"
        if line == self._last_line:
            return
        if self._style == "notebook-line":
            from IPython.display import display  # type: ignore[import-not-found]

            if self._display is None:
                self._display = display(line, display_id=True)
            else:
                self._display.update(line)
        else:
            sys.stderr.write("\r" + line.ljust(len(self._last_line)))
            sys.stderr.flush()
        self._last_line = line

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        elif self._last_line and self._style == "stderr-line":
            sys.stderr.write("\n")
            sys.stderr.flush()


def build(
    game: Union[Game, str],
    out: PathLike,
    *,
    max_men: Optional[int] = None,
    max_pieces: Optional[int] = None,
    subspaces: Union[None, str, Iterable[str]] = None,
    whole_game: bool = False,
    threads: Optional[int] = None,
    wdl_only: bool = False,
    progress: Union[bool, Callable[[Dict[str, Any]], None]] = True,
    force_threads: bool = False,
    wait: bool = False,
    compress: bool = False,
    checkpoint_minutes: Optional[float] = 30.0,
    unit_distances: bool = False,
    **rules: Any,
) -> List[Dict[str, Any]]:
    """Builds endgame tables into ``out`` with the Rust solver, the GIL released.

    Say which tables with one of ``max_men`` (morris: every moving-phase subspace with at most
    that many men a side), ``max_pieces`` (checkers: every ending of 2 to that many pieces),
    ``subspaces`` (a name or names such as ``"5-4"`` or ``"2110-53"``, or a checkers material such as
    ``"2110"`` for every slice of it, with what they depend on) or
    ``whole_game=True`` (the small morris games, placement included). Tables already complete
    in ``out`` are kept, so a rerun resumes an interrupted build. Ctrl-C (or the stop button
    of a notebook) stops the build cleanly: the unit in progress is saved where it stopped
    (its checkpoint, below; a ``RuntimeWarning`` if that save fails), no half-written file is
    left, and ``KeyboardInterrupt`` is raised.

    ``threads`` is 1 to 4 per CPU (``ValueError`` otherwise); ``force_threads=True`` allows
    more, up to 4096. ``max_men`` and ``max_pieces`` are checked as on the command line, with the same
    message (``ValueError``).

    One build at a time writes into a directory: a build holds an advisory lock on
    ``out/.lock`` (released by the system however the process ends), and a second build raises
    ``TablebaseError`` naming the holder (pid, host, command, start time), or with
    ``wait=True`` waits for it to end (Ctrl-C still stops the wait).

    ``progress`` is ``True`` (a bar: tqdm where installed, else a line on standard error),
    ``False``, or a function called about four times a second with a dict of figures
    (``total``, ``finished``, ``unit``, ``unit_positions``, ``unit_initialised``, ``layer``).

    ``compress=True`` compresses each table once built (results in ``KEY.ppdb``, distances
    unless ``wdl_only`` in ``KEY.ppdd``; every reader reads either form): Nine Men's Morris
    and checkers endings take a tenth of the disk or less (figures in BENCHMARKS.md).

    A unit that takes long saves its solving state beside its tables (``KEY.ppck``, 2 bytes a
    position) after ``checkpoint_minutes`` of work and as often again, so that a build
    stopped in the middle of it (Ctrl-C, a killed kernel, a machine handed back) takes the unit
    up from the last save when run again, with the same tables as a build in one go; the file
    goes once the unit's tables are written. ``None`` saves none, not even when the build is
    stopped (one already there is still taken up); a checkpoint made from other rules or tables, or damaged, raises
    ``TablebaseError`` naming it (delete it to start the unit over).

    ``unit_distances=True`` (with ``wdl_only``) also writes each table's distances counted
    within its unit (``KEY.ppud``, a byte a position, never read by probes; the distances
    past a byte's 253 plies, where a unit has them, in ``KEY.ppud.long`` beside it), which
    :func:`verify` needs to prove WDL-only tables right; delete them once verified.

    Returns one dict per table: ``subspace``, ``positions``, ``wins``, ``draws``, ``losses``,
    ``longest_win``, ``seconds``, ``kept``, ``resumed`` (its unit taken up from a checkpoint)
    and ``path``, and with ``compress``
    ``compressed_bytes`` for the tables compressed by this call.
    """
    if unit_distances and not wdl_only:
        raise ValueError("unit_distances=True goes with wdl_only=True (distance tables need none)")
    if isinstance(game, str):
        game = load_game(game, **rules)
    elif rules:
        raise ValueError("rule options go with a game id, not with a Game")
    drawer, callback = _progress_callback(progress)
    try:
        return _core._build_tables(
            game,
            os.fsdecode(out),
            targets=_subspace_names(subspaces),
            max_men=max_men,
            max_pieces=max_pieces,
            whole_game=whole_game,
            threads=threads,
            wdl_only=wdl_only,
            progress=callback,
            force_threads=force_threads,
            wait=wait,
            compress=compress,
            checkpoint_minutes=checkpoint_minutes,
            unit_distances=unit_distances,
        )
    finally:
        if drawer is not None:
            drawer.close()


@dataclass(frozen=True)
class VerifiedTable:
    """One table's verification (see :func:`verify`)."""

    #: The subspace, as its file name stem (``"5-4"``, ``"2110-53"``).
    subspace: str
    #: Positions checked.
    positions: int
    #: Positions whose stored value differs from the one recomputed from their successors.
    mismatches: int
    #: The first mismatch (index, stored and recomputed values), or ``None``.
    example: Optional[str]


@dataclass(frozen=True)
class VerifyReport:
    """What :func:`verify` found: every table checked, in order, and the time it took."""

    tables: List[VerifiedTable]
    #: Wall-clock seconds.
    seconds: float

    @property
    def passed(self) -> bool:
        """Whether every table passed."""
        return all(t.mismatches == 0 for t in self.tables)

    @property
    def mismatches(self) -> int:
        """Mismatches in all the tables."""
        return sum(t.mismatches for t in self.tables)

    @property
    def positions(self) -> int:
        """Positions checked in all the tables."""
        return sum(t.positions for t in self.tables)


def verify(
    directory: PathLike,
    game: Union[Game, str, None] = None,
    *,
    subspaces: Union[None, str, Iterable[str]] = None,
    threads: Optional[int] = None,
    unit_distances: bool = False,
    progress: Union[bool, Callable[[Dict[str, Any]], None]] = True,
    force_threads: bool = False,
    **rules: Any,
) -> VerifyReport:
    """Rechecks the tables in ``directory``: every stored value recomputed from its successors
    by forward move generation, independently of the solver's backward pass (as ``perfectplay
    verify`` does). Nothing is written.

    ``game`` is a ``Game``, a game id (rule options as keywords), or ``None`` to take the game
    and rules from the tables' headers. ``subspaces`` names the table or tables to check (a checkers
    material such as ``"2110"`` for every slice of it), else every table in the directory;
    the tables their successors lie in must be there too, and are read, not checked (check a
    whole set, or a table with what it depends on).

    A table with distances that passes is proven right. A WDL-only table (``wdl_only=True``)
    can only be found in agreement with its successors, which wins and losses that merely
    agree with each other (draws stored as a cycle of wins and losses) would pass; built with
    ``unit_distances=True``, ``verify(..., unit_distances=True)`` checks it against its
    distances within the unit and so proves it (every table of its unit needs its
    ``KEY.ppud``, else ``TablebaseError`` names the missing file).

    ``threads`` is 1 to 4 per CPU (``ValueError`` otherwise; ``force_threads=True`` allows
    more, up to 4096). ``progress`` is ``True`` (a bar), ``False``, or a function called about four times
    a second with a dict (``total`` and ``checked`` positions, ``table`` under way). Ctrl-C
    stops it between chunks of positions and raises ``KeyboardInterrupt``.

    Returns a :class:`VerifyReport`: mismatches are reported there (``report.passed``), not
    raised. A directory without tables, or a table that is damaged or from another version
    or rules, raises ``TablebaseError``; a table named in ``subspaces``, or one a successor
    needs, that the directory lacks, ``MissingTableError``.
    """
    path = os.fsdecode(directory)  # one directory: a TypeError for a list, as os.fspath's
    if not os.path.isdir(path):
        raise TablebaseError(f"no such directory: {path}")
    game = _resolve_game(game, rules, [path], "verify")
    drawer, callback = _progress_callback(progress)
    try:
        tables, seconds = _core._verify_tables(
            game,
            path,
            targets=_subspace_names(subspaces),
            threads=threads,
            unit_distances=unit_distances,
            progress=callback,
            force_threads=force_threads,
        )
    finally:
        if drawer is not None:
            drawer.close()
    return VerifyReport([VerifiedTable(**t) for t in tables], seconds)


@dataclass(frozen=True)
class PolicyScore:
    """How a policy's moves compare with perfect play (see :func:`score_policy`)."""

    #: Positions scored.
    positions: int
    #: Share of them where the policy's move keeps the position's value (win, draw or loss).
    kept: float
    #: Won positions whose move gave the win away (to a draw or a loss).
    wins_lost: int
    #: Drawn positions whose move lost.
    draws_lost: int
    #: Positions whose move ended better than the tables' value: only where the game's
    #: history rules (repetition, the move rule, the ply limit with adjudication), which the
    #: tables do without, ended the game at once.
    better: int
    #: Over the moves that keep a win or a loss: the mean number of plies the policy gives
    #: away (a slower win, or a quicker loss, than the best move). 0 when there are none or
    #: the tables hold no distances.
    mean_plies_lost: float


def _play_turn(state: Any, policy: Callable[[Any], Any]) -> Any:
    """The state after ``policy``'s whole turn from ``state`` (a copy): a policy answering
    actions is asked again while its turn is half made."""
    after = state.clone()
    player = after.current_player()
    while True:
        choice = policy(after.clone())
        # An action: an int or numpy integer; a bool is refused, as the core refuses it.
        if isinstance(choice, (bool, np.bool_)) or hasattr(choice, "__index__"):
            after.apply_action(exact_int(choice, "the policy's action"))
            if after.is_mid_turn() and after.current_player() == player:
                continue
        else:
            after.apply(choice)
        return after


def score_policy(
    tablebase: Tablebase, policy: Callable[[Any], Any], states: Iterable[Any]
) -> PolicyScore:
    """Scores ``policy`` on ``states`` against the tables.

    ``policy(state)`` returns a ``Move``, a move in notation, or an action (an ``int``; it is
    asked again for the rest of a turn that takes several actions). Each state must be at
    the start of a turn and in the tables, and so must every position the policy's turn
    leads to (or the game must be over). Draw states with
    :meth:`perfectplay.Tablebase.sample_states` to score a subspace. A turn that ends the
    game is valued by the game's result, history rules included; every other by the tables.
    """
    if not isinstance(tablebase, Tablebase):
        raise TypeError(
            f"score_policy takes a perfectplay.Tablebase first, not {type(tablebase).__name__}"
        )
    positions = kept = wins_lost = draws_lost = better = 0
    plies_lost: List[int] = []
    for state in states:
        if isinstance(state, str):
            state = tablebase.game.state_from_fen(state)
        best = tablebase.probe(state)
        after = _play_turn(state, policy)
        if after.is_terminal():
            returns = after.returns()
            wdl = int(returns[state.current_player()])
            plies = 1
        else:
            reply = tablebase.probe(after)
            wdl = -reply.wdl
            plies = None if reply.plies is None else reply.plies + 1
        positions += 1
        if wdl == best.wdl:
            kept += 1
            if best.wdl != 0 and best.plies is not None and plies is not None:
                lost = plies - best.plies if best.wdl > 0 else best.plies - plies
                plies_lost.append(lost)
        elif wdl > best.wdl:
            better += 1
        elif best.wdl == 1:
            wins_lost += 1
        elif best.wdl == 0:
            draws_lost += 1
    return PolicyScore(
        positions=positions,
        kept=kept / positions if positions else 1.0,
        wins_lost=wins_lost,
        draws_lost=draws_lost,
        better=better,
        mean_plies_lost=sum(plies_lost) / len(plies_lost) if plies_lost else 0.0,
    )
