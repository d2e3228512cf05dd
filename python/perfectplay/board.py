"""A notebook board to play against perfect play, with every legal move's value shown.

``PlayBoard`` is an anywidget (``pip install anywidget``): the person clicks a piece or
point and then where it goes, or picks a move from the list of legal moves with their
values; the tables reply at once with a best move::

    import perfectplay as pp
    from perfectplay.board import PlayBoard

    pp.tablebase.build("three_mens_morris", "tables/three", whole_game=True)
    board = PlayBoard(pp.tablebase.open("tables/three"))
    board                      # in Jupyter: the board, its moves and their values

Clicks build up a move one point at a time: a morris placement is one click on an empty
point, a move is its man then its destination, and a mill's removal one more click on the
man to take; a checkers move is the piece then each landing square of its jumps. Clicking
the last point chosen again takes that step back.

Everything the browser does goes through plain methods (``click``, ``play``, ``undo``,
``new_game``, ``new_position``) and the synced traits they set, so the board is played and
tested from Python without a browser.
"""

from __future__ import annotations

import os
import random
import re
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import anywidget
import traitlets

from perfectplay import tablebase as _tablebase
from perfectplay._core import (
    Game,
    MissingTableError,
    Move,
    OutOfScopeError,
    Probe,
    State,
    Tablebase,
    TablebaseError,
)

__all__ = ["PlayBoard"]

# Player 0 moves first: Black in checkers, White in the morris games.
_COLOR_NAMES = {"checkers": ("Black", "White"), "morris": ("White", "Black")}
# States drawn from a subspace at a time when looking for a won position, and how many won
# ones to choose the longest win from.
_SAMPLES_PER_SUBSPACE = 16
_WON_CANDIDATES = 16
# Replies in a row the opponent may make before the person moves again (a pass may give the
# same player another turn); a bound, so a faulty table cannot loop forever.
_MAX_REPLIES = 8
# What the tables raise for a position they cannot value: shown on the board, not raised
# out of a click that nobody would see fail.
_NOT_COVERED = (MissingTableError, OutOfScopeError, TablebaseError)


@dataclass(frozen=True)
class _Geometry:
    """Where each point of a board is drawn, in the SVG's own coordinates."""

    centers: Dict[str, Tuple[float, float]]
    # Half the side of the square around each point that a click selects it in.
    half: float


def _geometry(game: Game) -> _Geometry:
    """Each point's centre, from the elements the SVG names with ``data-point``: a morris
    point's circle, a checkers square's rect."""
    root = ElementTree.fromstring(game.new_initial_state()._repr_svg_())
    centers: Dict[str, Tuple[float, float]] = {}
    sides: List[float] = []
    for element in root.iter():
        name = element.get("data-point")
        kind = element.get("class", "")
        if name is None or kind not in ("point", "square"):
            continue
        if kind == "point":
            centers[name] = (float(element.get("cx", 0)), float(element.get("cy", 0)))
        else:
            x, y = float(element.get("x", 0)), float(element.get("y", 0))
            side = float(element.get("width", 0))
            centers[name] = (x + side / 2, y + side / 2)
            sides.append(side)
    names = game.point_names()
    if sorted(centers) != sorted(names):
        raise RuntimeError(f"the board picture names {len(centers)} points, the game {len(names)}")
    half = min(sides) / 2 if sides else _half_spacing(list(centers.values()))
    return _Geometry(centers, half)


def _half_spacing(centers: Sequence[Tuple[float, float]]) -> float:
    """Half the shortest distance between two points: the click areas do not overlap."""
    shortest = min(
        max(abs(ax - bx), abs(ay - by))
        for i, (ax, ay) in enumerate(centers)
        for (bx, by) in centers[i + 1 :]
    )
    return shortest / 2


def _click_path(move: Move, names: Sequence[str]) -> Optional[List[str]]:
    """The points a person clicks to make ``move``: ``a1-a4xd7`` is a1, a4, d7 and
    ``15x24x31`` is 15, 24, 31. None for a move with no point to click (a pass)."""
    steps = re.split(r"[-x]", str(move))
    return steps if all(step in names for step in steps) else None


def _value_label(probe: Probe) -> str:
    if probe.plies is None:
        return probe.result
    unit = "ply" if probe.plies == 1 else "plies"
    return f"{probe.result} in {probe.plies} {unit}"


def _is_won_for(value: Probe, state: State, player: int) -> bool:
    to_move = state.current_player()
    return (to_move == player and value.wdl == 1) or (to_move != player and value.wdl == -1)


def _sample_won_state(tb: Tablebase, player: int, rng: random.Random) -> State:
    """A position drawn from the tables that ``player`` wins under perfect play: the longest
    win among the first few drawn, so that the game is not over in a move or two."""
    subspaces = tb.subspaces()
    rng.shuffle(subspaces)
    won: List[Tuple[int, State]] = []
    for subspace in subspaces:
        seed = rng.randrange(2**31)
        for state in tb.sample_states(subspace, _SAMPLES_PER_SUBSPACE, seed=seed):
            value = tb.probe(state)
            if _is_won_for(value, state, player):
                won.append((value.plies or 0, state))
        if len(won) >= _WON_CANDIDATES:
            break
    if not won:
        raise TablebaseError(
            f"no position won by player {player} was drawn from the tables in "
            + ", ".join(tb.directories)
        )
    return max(won, key=lambda candidate: candidate[0])[1]


def _starting_state(tb: Tablebase, player: int, rng: random.Random) -> State:
    """The game's start where the tables hold it, else a position the person wins."""
    initial = tb.game.new_initial_state()
    if tb.get(initial) is not None:
        return initial
    return _sample_won_state(tb, player, rng)


def _checked_start(tb: Tablebase, start: Union[State, str]) -> State:
    """``start`` as a state, after a probe: the tables' own error (MissingTableError,
    OutOfScopeError, TablebaseError) where they do not hold it."""
    if not isinstance(start, (str, State)):
        raise TypeError(
            f"start must be a perfectplay.State or a position string, not {type(start).__name__}"
        )
    state = tb.game.state_from_fen(start) if isinstance(start, str) else start.clone()
    # Rules that differ only where the tables do not care (the ply limit, repetition, the
    # move rule; in checkers also who moves first and adjudication) are the probe's to accept:
    # it names the rules where they matter.
    if not state.is_terminal():
        tb.probe(state)
        return state
    # A finished game is not probed (the tables may not hold it), so its rules are checked
    # here, by the probe's own test: those the tables read must be theirs, or the board would
    # draw and name the points of another game.
    why = tb.rules_mismatch(state.game)
    if why is not None:
        raise TablebaseError(
            f"a finished start of {state.game.id} cannot be shown with the tables of "
            f"{tb.game.id}: {why}"
        )
    return state


_ESM = r"""
const TRAITS = ["svg", "moves", "status", "message", "message_kind", "history", "can_undo", "over"];

function button(label, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  b.addEventListener("click", onClick);
  return b;
}

function moveItem(model, move) {
  const item = document.createElement("li");
  const b = button(`${move.move}: ${move.label}`, () => model.send({ event: "play", move: move.move }));
  b.className = `pp-move pp-${move.result}` + (move.best ? " pp-best" : "");
  b.title = move.best ? "keeps the position's value" : "gives value away";
  item.append(b);
  return item;
}

function pointOf(target) {
  const area = target instanceof Element ? target.closest("[data-point]") : null;
  return area ? area.getAttribute("data-point") : null;
}

function render({ model, el }) {
  el.classList.add("pp-root");
  const board = document.createElement("div");
  board.className = "pp-board";
  const side = document.createElement("div");
  side.className = "pp-side";
  const status = document.createElement("p");
  status.className = "pp-status";
  status.setAttribute("aria-live", "polite");
  const message = document.createElement("p");
  message.className = "pp-message";
  message.setAttribute("role", "status");
  const send = (event) => () => model.send({ event });
  const undo = button("Undo", send("undo"));
  const controls = document.createElement("div");
  controls.className = "pp-controls";
  controls.append(undo, button("New game", send("new_game")), button("New position", send("new_position")));
  const moves = document.createElement("ol");
  moves.className = "pp-moves";
  moves.setAttribute("aria-label", "your legal moves with their values, best first");
  const history = document.createElement("p");
  history.className = "pp-history";
  side.append(status, message, controls, moves, history);
  el.append(board, side);

  board.addEventListener("click", (e) => {
    const point = pointOf(e.target);
    if (point !== null) model.send({ event: "click", point });
  });
  board.addEventListener("keydown", (e) => {
    const point = pointOf(e.target);
    if (point !== null && (e.key === "Enter" || e.key === " ")) {
      e.preventDefault();
      model.send({ event: "click", point });
    }
  });

  const update = () => {
    // Redrawing the board would drop the keyboard focus: put it back on the same point.
    const focused = board.contains(document.activeElement) ? pointOf(document.activeElement) : null;
    board.innerHTML = model.get("svg");
    if (focused !== null) {
      const again = board.querySelector(`[data-point="${CSS.escape(focused)}"]`);
      if (again) again.focus();
    }
    status.textContent = model.get("status");
    message.textContent = model.get("message");
    message.dataset.kind = model.get("message_kind");
    undo.disabled = !model.get("can_undo");
    moves.replaceChildren(...model.get("moves").map((m) => moveItem(model, m)));
    const played = model.get("history");
    history.textContent = played.length ? `moves: ${played.join(" ")}` : "";
  };
  for (const name of TRAITS) model.on(`change:${name}`, update);
  update();
  return () => {
    for (const name of TRAITS) model.off(`change:${name}`, update);
  };
}

export default { render };
"""

_CSS = """
.pp-root { display: flex; flex-wrap: wrap; gap: 1em; align-items: flex-start; font-family: sans-serif; }
.pp-board svg { display: block; max-width: 100%; height: auto; }
.pp-board .pp-hit { cursor: pointer; outline: none; }
.pp-board .pp-hit:focus { stroke: #1e6fd9; stroke-width: 3; stroke-opacity: 1; }
.pp-side { min-width: 16em; max-width: 28em; }
.pp-status { font-weight: bold; margin: 0 0 0.4em; }
.pp-message { min-height: 1.2em; margin: 0 0 0.6em; }
.pp-message[data-kind="refused"] { color: #b3261e; }
.pp-message[data-kind="error"] { color: #b3261e; font-weight: bold; }
.pp-controls { display: flex; gap: 0.4em; margin-bottom: 0.6em; }
.pp-moves { margin: 0; padding-left: 1.6em; max-height: 18em; overflow-y: auto; }
.pp-move { border: 1px solid #bbb; border-radius: 3px; background: #fafafa; cursor: pointer; margin: 1px 0; }
.pp-win { color: #1b7a3a; }
.pp-draw { color: #555; }
.pp-loss { color: #b3261e; }
.pp-best { font-weight: bold; }
.pp-history { color: #555; font-size: 0.9em; }
"""


class PlayBoard(anywidget.AnyWidget):
    """A board where a person plays one side and the tables play the other perfectly.

    ``tablebase`` is an open ``Tablebase`` or a directory of tables. ``player`` is the side
    the person plays (0 moves first). ``start`` is a ``State`` or position string; by
    default the game's start where the tables hold it, else a position drawn from the tables
    that the person wins. A start the tables do not hold raises their error
    (``MissingTableError``, ``OutOfScopeError``). ``seed`` fixes the draws: sampled
    positions and the opponent's choice among equally good moves.
    """

    _esm = _ESM
    _css = _CSS

    #: The board as SVG, with the chosen points, the next legal points, the last move
    #: and the click areas (``data-point`` attributes) drawn on it.
    svg = traitlets.Unicode("").tag(sync=True)
    #: The person's legal moves, best first: ``move``, ``result`` (win, draw, loss),
    #: ``wdl`` (1, 0 or -1, as ``Probe.wdl``), ``plies`` (None for a draw), ``label`` and
    #: ``best`` (keeps the position's value).
    moves = traitlets.List(traitlets.Dict()).tag(sync=True)
    #: The points clicked so far towards a move.
    selection = traitlets.List(traitlets.Unicode()).tag(sync=True)
    #: The points a next click may choose.
    targets = traitlets.List(traitlets.Unicode()).tag(sync=True)
    #: Whose turn it is and what the position is worth, or how the game ended.
    status = traitlets.Unicode("").tag(sync=True)
    #: What the last action did, or why it was refused.
    message = traitlets.Unicode("").tag(sync=True)
    #: ``info``, ``refused`` (an illegal click or move) or ``error`` (the tables failed).
    message_kind = traitlets.Unicode("info").tag(sync=True)
    #: The moves played from the start, in notation.
    history = traitlets.List(traitlets.Unicode()).tag(sync=True)
    #: Whether ``undo`` has a move of the person's to take back.
    can_undo = traitlets.Bool(False).tag(sync=True)
    #: Whether the game is over.
    over = traitlets.Bool(False).tag(sync=True)
    #: The side the person plays (0 moves first).
    player = traitlets.Int(0).tag(sync=True)
    #: The touch-move rule (Construction Checkers), as ``perfectplay play --touch-move``: a
    #: piece of the person's clicked that can be played must be moved (clicking another of
    #: them instead, or taking the touch back, loses the game); clicking one that cannot be
    #: played is warned once and loses the game the next time.
    touch_move = traitlets.Bool(False).tag(sync=True)

    def __init__(
        self,
        tablebase: Union[Tablebase, str, "os.PathLike[str]"],
        *,
        player: int = 0,
        start: Union[State, str, None] = None,
        seed: Optional[int] = None,
        touch_move: bool = False,
        **kwargs: Any,
    ) -> None:
        if player not in (0, 1):
            raise ValueError(f"player: 0 (moves first) or 1, not {player!r}")
        super().__init__(player=player, touch_move=touch_move, **kwargs)
        # Touch-move: the person's unplayable touches so far, and why the game was lost.
        self._adjustments = 0
        self._forfeit: Optional[str] = None
        self._tb = (
            tablebase if isinstance(tablebase, Tablebase) else _tablebase.open(tablebase)
        )
        self._rng = random.Random(seed)
        self._geometry = _geometry(self._tb.game)
        self._names = self._tb.game.point_names()
        self._colors = _COLOR_NAMES[self._tb.game.family]
        self._start = (
            _starting_state(self._tb, player, self._rng)
            if start is None
            else _checked_start(self._tb, start)
        )
        self._state = self._start.clone()
        # The states before each of the person's moves, for undo.
        self._past: List[State] = []
        self._last_reply: List[str] = []
        self.on_msg(self._on_browser_message)
        self._begin(self._start)

    # What a person does: each is what the matching click in the browser does.

    def click(self, point: str) -> None:
        """A click on ``point``: chooses it as the next step of a move, plays the move once
        its last step is chosen, takes the last step back when it is clicked again, and
        otherwise is refused with a message. Where a checkers capture may stop part way
        (``complete_jumps=False``), a landing it may stop on is chosen, and a second click on
        it stops the capture there; likewise where a morris capture may be declined
        (``capture="optional"``), a second click on the point a mill was closed on takes
        nothing."""
        refusal = self._refusal_before_move()
        if refusal is not None:
            self._say(refusal, "refused")
            return
        if self.touch_move and self._breaks_touch_move(point):
            return
        if self.selection and point == self.selection[-1]:
            # A capture that may stop here (checkers with complete_jumps off) or a mill whose
            # capture may be declined (a morris step or placement): the second click on its
            # last point ends the turn there; otherwise the click takes the step back. (A
            # checkers piece alone or a morris man picked up is no complete move.)
            stopped = self._complete_move(self.selection)
            if stopped is not None:
                self._play_move(stopped)
            else:
                self._choose(self.selection[:-1])
            return
        for candidate in (self.selection + [point], [point]):
            move = self._complete_move(candidate)
            going_on = self._continuations(candidate)
            if move is not None and not going_on:
                self._play_move(move)
                return
            if going_on:
                self._choose(candidate)
                if move is not None:
                    self._say(self._stop_or_go_on(move, point), "info")
                return
        self._say(self._illegal_click_message(point), "refused")

    def _stop_or_go_on(self, move: Move, point: str) -> str:
        """What to click next where ``move`` is complete and may still go on."""
        if self._tb.game.family == "morris":
            return f"{move}: click {point} again to take nothing, or click the man to take"
        return f"{move}: click {point} again to stop here, or jump on"

    def play(self, move: Union[Move, str]) -> None:
        """Plays one of the person's legal moves, given as a Move or its notation (the move
        list's buttons); anything else is refused with a message."""
        refusal = self._refusal_before_move()
        if refusal is not None:
            self._say(refusal, "refused")
            return
        chosen = next((m for m in self._state.legal_moves() if str(m) == str(move)), None)
        if chosen is None:
            legal = ", ".join(str(m) for m in self._state.legal_moves())
            self._say(f"{move} is not a legal move; legal: {legal}", "refused")
            return
        if self.touch_move and self._moves_a_piece():
            path = _click_path(chosen, self._names) or []
            if path[:1] != self.selection[:1]:
                self._lose_by_touch_move(f"you touched {self.selection[0]} and moved another")
                return
        self._play_move(chosen)

    def undo(self) -> None:
        """Takes back the person's last move, and the opponent's reply to it."""
        if self._forfeit is not None:
            self._forfeit = None
            self._refresh(["took back the touch that lost the game"], "info")
            return
        if not self._past:
            self._say("nothing to undo", "refused")
            return
        self._state = self._past.pop()
        self._last_reply = []
        self._refresh(["took back your last move"], "info")

    def new_game(self) -> None:
        """Starts again from the start position."""
        self._begin(self._start)

    def new_position(self) -> None:
        """Starts from a new position drawn from the tables that the person wins."""
        self._start = _sample_won_state(self._tb, self.player, self._rng)
        self._begin(self._start)

    @property
    def state(self) -> State:
        """A copy of the position on the board."""
        return self._state.clone()

    @property
    def tablebase(self) -> Tablebase:
        """The tables the opponent plays and the values come from."""
        return self._tb

    # Turns.

    def _begin(self, start: State) -> None:
        self._forfeit = None
        self._adjustments = 0
        self._state = start.clone()
        self._past = []
        self._last_reply = []
        said, failed = self._opponent_replies()
        self._refresh(said, "error" if failed else "info")

    def _play_move(self, move: Move) -> None:
        self._past.append(self._state.clone())
        self._state.apply(move)
        self._last_reply = []
        said, failed = self._opponent_replies()
        self._refresh([f"you played {move}"] + said, "error" if failed else "info")

    def _is_opponents_turn(self) -> bool:
        return not self._state.is_terminal() and self._state.current_player() != self.player

    def _opponent_replies(self) -> Tuple[List[str], bool]:
        """Plays the opponent's best moves until the person is to move: what it did, and
        whether the tables failed it (the game then waits, and undo still works)."""
        said: List[str] = []
        for _ in range(_MAX_REPLIES):
            if not self._is_opponents_turn():
                break
            color = self._colors[self._state.current_player()]
            try:
                values = self._tb.move_values(self._state)
            except _NOT_COVERED as error:
                said.append(f"the tables cannot answer for {color}: {error}")
                return said, True
            reply = self._choose_best(values)
            self._state.apply(reply)
            self._last_reply = _click_path(reply, self._names) or []
            said.append(f"{color} replied {reply}")
        return said, False

    def _choose_best(self, values: List[Tuple[Move, Probe]]) -> Move:
        """One of the moves as good as the first (same result, same distance), at random:
        the opponent varies its play among equally perfect moves."""
        best = values[0][1]
        equal = [m for m, p in values if (p.wdl, p.plies) == (best.wdl, best.plies)]
        return self._rng.choice(equal)

    def _breaks_touch_move(self, point: str) -> bool:
        """Applies the touch-move rule to a click on ``point``; True when the click was taken
        care of here (refused, warned, or the game lost)."""
        touched = self.selection[0] if self.selection and self._moves_a_piece() else None
        own = point in self._own_pieces()
        if touched is not None:
            if point == touched and len(self.selection) == 1:
                self._say(f"touch-move: you touched {touched}; move it", "refused")
                return True
            if own and point != touched and not self._continuations(self.selection + [point]):
                self._lose_by_touch_move(f"you touched {touched} and then {point}")
                return True
            return False
        if own and not self._continuations([point]):
            if self._state.ply() == 0:
                # The sheet: "before the first move is made, either player can adjust the
                # position of any piece on the board".
                said = f"touch-move: adjusted {point} (before the first move, no warning)"
                self._say(said, "info")
                return True
            self._adjustments += 1
            if self._adjustments > 1:
                self._lose_by_touch_move(f"{point} cannot be played, touched again")
            else:
                self._say(
                    f"touch-move: {point} cannot be played; the next such touch loses the game",
                    "refused",
                )
            return True
        return False

    def _moves_a_piece(self) -> bool:
        """Whether the selection's first point is one of the person's pieces (a move), not an
        empty point (a placement)."""
        return bool(self.selection) and self.selection[0] in self._own_pieces()

    def _own_pieces(self) -> List[str]:
        """The points where the person's pieces stand, read from the board's picture."""
        color = self._colors[self.player].lower()
        root = ElementTree.fromstring(self._state._repr_svg_())
        return [
            element.get("data-point", "")
            for element in root.iter()
            if element.get("class", "").split()[1:] == [color]
        ]

    def _lose_by_touch_move(self, why: str) -> None:
        self._forfeit = why
        self._refresh([f"touch-move: {why}: you lose the game"], "refused")

    def _refusal_before_move(self) -> Optional[str]:
        if self._forfeit is not None:
            return "the game is over (touch-move): undo, new game or new position"
        if self._state.is_terminal():
            return "the game is over: undo, new game or new position"
        if self._state.current_player() != self.player:
            return "it is not your move"
        return None

    # Clicks.

    def _paths(self) -> List[Tuple[Move, List[str]]]:
        paths = []
        for move in self._state.legal_moves():
            path = _click_path(move, self._names)
            if path is not None:
                paths.append((move, path))
        return paths

    def _complete_move(self, clicked: List[str]) -> Optional[Move]:
        return next((m for m, path in self._paths() if path == clicked), None)

    def _continuations(self, clicked: List[str]) -> List[str]:
        """The points that may follow ``clicked`` towards a legal move, in board order."""
        n = len(clicked)
        following = {p[n] for _, p in self._paths() if len(p) > n and p[:n] == clicked}
        return [name for name in self._names if name in following]

    def _illegal_click_message(self, point: str) -> str:
        if point not in self._names:
            return f"{point!r} is no point of this board"
        legal = ", ".join(self._continuations(self.selection))
        if self.selection:
            after = "-".join(self.selection)
            return f"{point} does not continue {after}; next: {legal}"
        return f"no move of yours starts at {point}; moves start at {legal}"

    def _choose(self, clicked: List[str]) -> None:
        with self.hold_sync():
            self._set_selection(clicked)
            self._say("", "info")

    def _set_selection(self, clicked: List[str]) -> None:
        with self.hold_sync():
            self.selection = clicked
            self.targets = [] if self._state.is_terminal() else self._continuations(clicked)
            self.svg = self._board_svg()

    # What is shown.

    def _say(self, message: str, kind: str) -> None:
        with self.hold_sync():
            self.message = message
            self.message_kind = kind

    def _refresh(self, said: List[str], kind: str) -> None:
        """Brings every synced trait up to date after a move, an undo or a new start."""
        with self.hold_sync():
            self.moves = []
            if self._is_persons_turn():
                try:
                    self.moves = self._move_values()
                except _NOT_COVERED as error:
                    said = said + [f"the tables cannot value this position: {error}"]
                    kind = "error"
            self.status = self._status_text()
            self.history = ["--" if m is None else str(m) for m in self._state.history()]
            self.can_undo = bool(self._past)
            self.over = self._state.is_terminal() or self._forfeit is not None
            self._set_selection([])
            self._say("; ".join(said), kind)

    def _is_persons_turn(self) -> bool:
        return (
            self._forfeit is None
            and not self._state.is_terminal()
            and self._state.current_player() == self.player
        )

    def _status_text(self) -> str:
        if self._forfeit is not None:
            return f"game over: you lose (touch-move: {self._forfeit})"
        if self._state.is_terminal():
            return self._outcome_text()
        to_move = self._state.current_player()
        if to_move != self.player:
            return f"{self._colors[to_move]} to move"
        value = f": {self.moves[0]['label']}" if self.moves else ""
        return f"your move ({self._colors[to_move]}){value}"

    def _move_values(self) -> List[Dict[str, Any]]:
        values = self._tb.move_values(self._state)
        best = values[0][1]
        return [
            {
                "move": str(move),
                "result": probe.result,
                "wdl": probe.wdl,
                "plies": probe.plies,
                "label": _value_label(probe),
                "best": probe.wdl == best.wdl,
            }
            for move, probe in values
        ]

    def _outcome_text(self) -> str:
        outcome = self._state.outcome()
        if outcome is None or outcome.winner is None:
            reason = f" ({outcome.reason})" if outcome is not None else ""
            return f"game over: a draw{reason}"
        who = "you win" if outcome.winner == self.player else "you lose"
        return f"game over: {self._colors[outcome.winner]} wins ({outcome.reason}), {who}"

    def _board_svg(self) -> str:
        """The state's picture with the last reply, the chosen points, the next legal points
        and the click areas drawn over it."""
        picture = self._state._repr_svg_()
        closing = "</svg>"
        if not picture.endswith(closing):
            raise RuntimeError("the board picture does not end with </svg>")
        marks = (
            self._marks(self._last_reply, "pp-last", self._ring, dashed=True)
            + self._marks(self.selection, "pp-selected", self._ring, dashed=False)
            + self._marks(self.targets, "pp-target", self._dot, dashed=False)
            + "".join(self._click_area(name) for name in self._names)
        )
        return picture[: -len(closing)] + marks + closing

    def _marks(self, points: Sequence[str], css_class: str, shape: Any, dashed: bool) -> str:
        return "".join(shape(point, css_class, dashed) for point in points)

    def _ring(self, point: str, css_class: str, dashed: bool) -> str:
        x, y = self._geometry.centers[point]
        radius = 0.8 * self._geometry.half
        dash = ' stroke-dasharray="5 3"' if dashed else ""
        color = "#e0a800" if dashed else "#1e6fd9"
        return (
            f'<circle class="{css_class}" cx="{x:g}" cy="{y:g}" r="{radius:g}" fill="none" '
            f'stroke="{color}" stroke-width="4"{dash} pointer-events="none"/>'
        )

    def _dot(self, point: str, css_class: str, _dashed: bool) -> str:
        x, y = self._geometry.centers[point]
        radius = 0.28 * self._geometry.half
        return (
            f'<circle class="{css_class}" cx="{x:g}" cy="{y:g}" r="{radius:g}" fill="#2e9d4f" '
            'fill-opacity="0.85" stroke="#ffffff" stroke-width="1.5" pointer-events="none"/>'
        )

    def _click_area(self, point: str) -> str:
        """A transparent square over the point that takes its clicks and keyboard focus."""
        x, y = self._geometry.centers[point]
        half = self._geometry.half
        return (
            f'<rect class="pp-hit" data-point="{point}" x="{x - half:g}" y="{y - half:g}" '
            f'width="{2 * half:g}" height="{2 * half:g}" fill="#000000" fill-opacity="0" '
            f'pointer-events="all" tabindex="0" role="button" aria-label="point {point}"/>'
        )

    # The browser.

    def _on_browser_message(self, _widget: Any, content: Dict[str, Any], _buffers: Any) -> None:
        """The browser's events, each handled by the method a Python caller would use; an
        error (tables that fail) is shown instead of raised, as nobody sees it otherwise."""
        event = content.get("event")
        actions = {
            "click": lambda: self.click(str(content.get("point", ""))),
            "play": lambda: self.play(str(content.get("move", ""))),
            "undo": self.undo,
            "new_game": self.new_game,
            "new_position": self.new_position,
        }
        action = actions.get(str(event))
        if action is None:
            self._say(f"unknown event {event!r}", "error")
            return
        try:
            action()
        except _NOT_COVERED as error:
            self._say(f"{type(error).__name__}: {error}", "error")
