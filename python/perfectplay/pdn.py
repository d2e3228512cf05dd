"""Game records: PDN (Portable Draughts Notation) for checkers, the same layout for morris.

Read the games of a file or a string, each replayed into a :class:`perfectplay.State`, and
write a state back::

    import perfectplay as pp

    for record in pp.pdn.read("games.pdn"):          # a path or an open text file
        record.tags["Black"], record.result, record.state.history()
    games = pp.pdn.loads(text)                        # the same from a string
    text = state.to_pdn({"Event": "club night"})      # one game
    pp.pdn.write("out.pdn", [state, other_state])     # several, one after another

Reading takes tag pairs, move numbers, ``{comments}``, ``;`` comments, ``(variations)``
(skipped), ``$n`` annotations, ``!``/``?`` marks, the short form of multiple jumps
(``15x31``) and the results ``1-0``, ``0-1``, ``1/2-1/2``, ``*`` (and PDN 3.0's ``2-0``,
``0-2``, ``1-1``), and ``--``, a turn forfeited on time, which the state replays as
:meth:`perfectplay.State.forfeit_turn` (``history()`` shows it as ``None``). Every move is
checked as it is replayed: a bad record raises
:class:`perfectplay.RecordError` naming the game, the move number and the move. As in PGN and
the PDN documents, ``1-0`` is a White win. Morris records carry ``[Game "ID"]``; they are read
as that game, under the options of their ``[Rules "..."]`` tag, unless ``game=`` says
otherwise. A variant is written as the preset it differs from least and the options changed
(``[Game "nine_mens_morris"]`` ``[Rules "ply_limit=200"]``). The decisions behind the format
are in the Rust module ``perfectplay_core::record``.
"""

from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass
from typing import IO, Any, Dict, Iterable, List, Optional, Tuple, Union

from perfectplay._core import Game, RecordError, State, _read_records, load_game

__all__ = ["GameRecord", "loads", "read", "write"]

PathLike = Union[str, "os.PathLike[str]"]

_GAME_TAG = re.compile(r'^\s*\[Game\s+"([^"]*)"\s*\]', re.MULTILINE)
_RULES_TAG = re.compile(r'^\s*\[Rules\s+"([^"]*)"\s*\]', re.MULTILINE)
#: The first record's tag pairs, with the comments and blank lines before and among them.
_FIRST_HEADER = re.compile(
    r'\A(?:\s+|\{[^}]*\}|;[^\n]*|\[(?:[^\]"\n]|"(?:[^"\\\n]|\\.)*")*\])*'
)


@dataclass(frozen=True)
class GameRecord:
    """One game of a record: its tags, the game replayed, and its result."""

    #: Every tag pair, in the order written (a name may repeat).
    tag_pairs: Tuple[Tuple[str, str], ...]
    #: The game, replayed from its start (the ``FEN`` tag's position, else the game's start).
    state: State
    #: The result ending the movetext: ``1-0`` (White wins), ``0-1``, ``1/2-1/2`` or ``*``.
    result: str

    @property
    def tags(self) -> Dict[str, str]:
        """The tags by name (the first value of a repeated name)."""
        out: Dict[str, str] = {}
        for name, value in self.tag_pairs:
            out.setdefault(name, value)
        return out

    def to_pdn(self) -> str:
        """The record written back (tags, start, moves and result)."""
        return self.state.to_pdn(list(self.tag_pairs), self.result)


def _game(text: str, game: Union[Game, str, None], rules: Dict[str, Any]) -> Game:
    if isinstance(game, Game):
        if rules:
            raise ValueError("rule options go with a game id, not with a Game")
        return game
    # Only the first record's tags: a later game's are checked against the game when it is
    # read (a record of other rules is refused there).
    header = _FIRST_HEADER.match(text).group(0)  # type: ignore[union-attr]
    named = None
    if game is None:
        named = _GAME_TAG.search(header)
        game = named.group(1) if named else "checkers"
        if game.lower() == "morris":
            # The family's name: how records of rules no preset has were written before
            # they named the nearest preset. Their Rules tag holds every option, so any
            # preset under it is the game.
            game = "nine_mens_morris"
    # The first record's [Rules "name=value ..."] tag (a variant's options), under the keywords.
    tagged = _RULES_TAG.search(header)
    options: Dict[str, Any] = {}
    if tagged:
        for word in tagged.group(1).split():
            name, _, value = word.partition("=")
            # Which of two values the record was played under is not known: neither is taken
            # (the reader in Rust refuses the tag alike).
            if name in options and options[name].lower() != value.lower():
                raise RecordError(
                    f"game 1: {tagged.group(0).strip()}: the Rules tag sets {name} twice, to "
                    f"different values (`{name}={options[name]}` and `{name}={value}`)"
                )
            options[name] = value
    options.update(rules)
    try:
        return load_game(game, **options)
    except ValueError as exc:
        if named is None and tagged is None:
            raise
        said = " and ".join(m.group(0).strip() for m in (named, tagged) if m is not None)
        raise RecordError(f"game 1: {said}: {exc}") from exc


def loads(text: str, game: Union[Game, str, None] = None, **rules: Any) -> List[GameRecord]:
    """The games of the record ``text``. ``game`` is a :class:`perfectplay.Game`, a game id
    (rule options as keywords) or ``None``: the first ``[Game "ID"]`` tag's game, else
    checkers. A game id (or ``None``) takes the options of the first ``[Rules "..."]`` tag
    (written for a variant: ``[Rules "mandatory_capture=false complete_jumps=false"]``),
    keywords overriding them; a record whose ``Rules`` tag disagrees with the game's rules is
    refused (``RecordError``)."""
    if not isinstance(text, str):
        raise TypeError(f"loads takes the record as a str, not {type(text).__name__}")
    # A byte-order mark would hide a first [Game] tag from the search below.
    text = text.removeprefix("\ufeff")
    g = _game(text, game, rules)
    return [GameRecord(tuple(tags), state, result) for tags, state, result in _read_records(g, text)]


def read(
    source: Union[PathLike, IO[str]], game: Union[Game, str, None] = None, **rules: Any
) -> List[GameRecord]:
    """The games of a record file: a path or an open text file (UTF-8; a byte-order mark is
    skipped). See :func:`loads`."""
    if hasattr(source, "read"):
        text = source.read()  # type: ignore[union-attr]
    else:
        with open(os.fspath(source), encoding="utf-8-sig") as f:  # type: ignore[arg-type]
            text = f.read()
    return loads(text, game, **rules)


def write(
    path: PathLike,
    games: Iterable[Union[State, GameRecord]],
    tags: Optional[Dict[str, str]] = None,
    append: bool = False,
) -> None:
    """Writes ``games`` (states or records) to ``path``, a blank line between games; ``tags``
    go before each state's moves (a record keeps its own). ``append=True`` adds to the file.

    The file is written whole or not at all: the text goes to a new file beside it, which
    then replaces it, so an error or an interrupt leaves the file as it was. A file holds games
    of one game and rules, as :func:`read` reads them: games of others (among ``games``, or
    against the first game of the file appended to) raise ``ValueError`` before anything is
    written."""
    parts = []
    game = None
    for g in games:
        if isinstance(g, GameRecord):
            state, part = g.state, g.to_pdn()
        elif isinstance(g, State):
            state, part = g, g.to_pdn(tags)
        else:
            raise TypeError(f"write takes States or GameRecords, not {type(g).__name__}")
        game = _one_game(game, state.game, len(parts) + 1)
        parts.append(part)
    path = os.fspath(path)
    text = "\n".join(parts)
    if append and os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            earlier = f.read()
        if earlier:
            text = earlier + "\n" + text
        if game is not None:
            # The game `read` will take the file for, its first record's (a byte-order mark
            # and comments before it aside, as `read` sets them aside).
            try:
                first = _game(text.removeprefix("\ufeff"), None, {})
            except (RecordError, ValueError):
                first = None  # a file the reader refuses already: nothing to keep readable
            if first is not None and first != game:
                raise ValueError(
                    f"{path} holds games of {first.id}, and a file holds games of one game and "
                    f"rules: these are of {game.id}"
                )
    _replace_with(path, text)


def _one_game(game: Optional[Game], other: Game, number: int) -> Game:
    """``other``, the game of the ``number``-th game written, where it is ``game`` (or the
    first); else the ``ValueError`` of a file mixing games."""
    if game is not None and other != game:
        raise ValueError(
            f"game {number} is of {other.id}, game 1 of {game.id}: a file holds games of one "
            f"game and rules, as pdn.read reads it; write them to separate files"
        )
    return other


def _replace_with(path: str, text: str) -> None:
    """Writes ``text`` to a new file beside ``path`` (made as ``open`` makes files, under the
    umask), then renames it over ``path``."""
    folder, name = os.path.split(os.path.abspath(path))
    temporary = os.path.join(folder, f".{name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(temporary, "x", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise
