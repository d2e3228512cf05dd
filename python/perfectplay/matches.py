"""Matches between two players, for evaluating agents: ``perfectplay.match``.

The same rules as ``perfectplay match`` on the command line, for Python players::

    import perfectplay as pp
    tb = pp.tablebase.open("solver-data/three")
    result = pp.match("three_mens_morris", [my_policy, "perfect"], games=20,
                      alternate=True, tablebase=tb, seed=0)
    result["points"], result["winner"], result["score"]

A player is ``"random"`` (a uniformly random legal move), ``"perfect"`` (a best move from
``tablebase``, uniformly among the equally good) or a function ``policy(state)`` answering a
``Move``, a move in notation or an action (asked again while its turn is half made, as
:func:`perfectplay.tablebase.score_policy` does). Player 0 moves first in the first game; with
``alternate=True`` the players swap sides every game (Construction Checkers: "players should
alternate which player moves first"), with ``draw_lots=True`` a seeded coin decides before each
game (the Twelve-Man Morris sheet: "players draw lots to see who begins"). ``clock`` (seconds)
is each player's thinking time for a game, a chess clock: a player whose calls have used it up
loses that game. Random and perfect players draw from ``seed`` and the game's number, so a
match repeats with its seed.

The result is a plain dict of numpy arrays and numbers (no pandas needed):

- ``"first"``: ``[games]`` int8, which player (0 or 1) moved first in each game;
- ``"winner"``: ``[games]`` int8, the player who won each game, -1 for a draw, -2 for a game
  cut short by ``max_plies``;
- ``"reason"``: the reason each game ended (the outcome's, ``"clock"`` or ``"max_plies"``);
- ``"plies"``: ``[games]`` int32;
- ``"thinking"``: ``[games, 2]`` float64, each player's seconds per game;
- ``"score"``: ``[2, 4]`` int32: wins, draws, losses and unfinished games of each player;
- ``"points"``: ``[2]`` float64, a win 1, a draw 1/2.
"""

from __future__ import annotations

import os
import random
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from perfectplay._core import Game, State, Tablebase, load_game
from perfectplay._games import checked_start, exact_int
from perfectplay.tablebase import _play_turn
from perfectplay.tablebase import open as _open_tables

__all__ = ["match"]

Player = Union[str, Callable[[State], Any]]

DRAW = -1
UNFINISHED = -2


def _policy(player: Player, tablebase: Optional[Tablebase], rng: random.Random) -> Callable:
    if callable(player):
        return player
    if player == "random":
        return lambda state: rng.choice(state.legal_moves())
    if player == "perfect":
        if tablebase is None:
            raise ValueError("a 'perfect' player plays from tables: give tablebase=...")
        return lambda state: rng.choice(tablebase.best_moves(state))
    raise ValueError(
        f"unknown player {player!r}: 'random', 'perfect' or a function policy(state)"
    )


def _first_players(games: int, alternate: bool, draw_lots: bool, seed: int) -> List[int]:
    """Which player moves first in each game."""
    if alternate and draw_lots:
        raise ValueError("alternate=True and draw_lots=True: choose one")
    lots = random.Random(f"lots {seed}")
    if draw_lots:
        return [lots.randrange(2) for _ in range(games)]
    return [i % 2 if alternate else 0 for i in range(games)]


def match(
    game: Union[Game, str],
    players: Sequence[Player],
    *,
    games: int = 2,
    alternate: bool = False,
    draw_lots: bool = False,
    clock: Optional[float] = None,
    tablebase: Union[
        Tablebase, str, bytes, "os.PathLike[str]", List[Any], Tuple[Any, ...], None
    ] = None,
    start: Union[State, str, None] = None,
    max_plies: Optional[int] = None,
    seed: int = 0,
    **rules: Any,
) -> Dict[str, Any]:
    """Plays ``games`` games between ``players`` (two of them) and scores them; see the module
    documentation for the players, the sides and the result. ``start`` is a ``State`` or
    position string every game starts from (default: the game's start); ``max_plies`` cuts
    each game short. ``tablebase`` is an open ``Tablebase``, or a directory (or a list of
    them) opened for the match as tables of the match's game."""
    if len(players) != 2:
        raise ValueError(f"a match is between two players, not {len(players)}")
    games = exact_int(games, "games")
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if max_plies is not None:
        max_plies = exact_int(max_plies, "max_plies")
        if max_plies < 1:
            raise ValueError(f"max_plies must be at least 1 (or None: no limit), not {max_plies}")
    seed = exact_int(seed, "seed")
    if clock is not None and not clock > 0:
        raise ValueError(f"clock is a positive number of seconds, not {clock!r}")
    the_game = load_game(game, **rules) if isinstance(game, str) else game
    if rules and not isinstance(game, str):
        raise ValueError("rule options go with a game id, not with a Game")
    if start is not None:
        start = checked_start(start, the_game, "start")
    if tablebase is not None and not isinstance(tablebase, Tablebase):
        if not isinstance(tablebase, (str, bytes, os.PathLike, list, tuple)):
            raise TypeError(
                "tablebase must be a perfectplay.Tablebase or a directory of tables, not "
                f"{type(tablebase).__name__}"
            )
        tablebase = _open_tables(tablebase, game=the_game)
    first = _first_players(games, alternate, draw_lots, seed)
    winner = np.full(games, UNFINISHED, dtype=np.int8)
    plies = np.zeros(games, dtype=np.int32)
    thinking = np.zeros((games, 2), dtype=np.float64)
    reasons: List[str] = []
    for index in range(games):
        rng = random.Random(f"game {seed} {index}")
        policies = [_policy(p, tablebase, rng) for p in players]
        # seat[s]: the player in side s (side 0 moves first).
        seat = [first[index], 1 - first[index]]
        state = start.clone() if start is not None else the_game.new_initial_state()
        reason = "max_plies"
        while True:
            outcome = state.outcome()
            if outcome is not None:
                winner[index] = DRAW if outcome.winner is None else seat[outcome.winner]
                reason = outcome.reason
                break
            if max_plies is not None and state.ply() >= max_plies:
                break
            player = seat[state.current_player()]
            began = time.perf_counter()
            state = _play_turn(state, policies[player])
            thinking[index, player] += time.perf_counter() - began
            if clock is not None and thinking[index, player] >= clock:
                winner[index] = 1 - player
                reason = "clock"
                break
        plies[index] = state.ply()
        reasons.append(reason)
    score = np.zeros((2, 4), dtype=np.int32)
    for player in (0, 1):
        score[player, 0] = np.sum(winner == player)
        score[player, 1] = np.sum(winner == DRAW)
        score[player, 2] = np.sum(winner == 1 - player)
        score[player, 3] = np.sum(winner == UNFINISHED)
    return {
        "first": np.array(first, dtype=np.int8),
        "winner": winner,
        "reason": reasons,
        "plies": plies,
        "thinking": thinking,
        "score": score,
        "points": score[:, 0] + 0.5 * score[:, 1],
    }
