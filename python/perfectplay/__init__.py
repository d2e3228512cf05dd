"""perfectplay: English checkers and the morris family, exact and fast, for Python.

Games and states, in the manner of OpenSpiel::

    import perfectplay as pp
    game = pp.load_game("checkers")              # any id of pp.game_ids(); rule options as keywords
    state = game.new_initial_state()             # or game.state_from_fen("...")
    state.apply("11-15")                         # a Move or its notation
    state.legal_actions(); state.apply_action(a) # the fixed action space for learning
    state.observation()                          # float32, seen from the player to move

Many games at once, stepped in Rust in parallel::

    env = pp.VectorEnv("nine_mens_morris", 1024, seed=0)
    obs, info = env.reset()
    obs, rewards, terminated, truncated, info = env.step(env.sample_legal_actions())

Perfect play from endgame databases (``perfectplay.tablebase``)::

    tb = pp.tablebase.open("solver-data/nine_mens_morris")
    tb.probe(state).wdl; tb.best_moves(state); tb.probe_batch(states)

Errors are ``ValueError`` subclasses: ``UnknownGameError``, ``InvalidPositionError``,
``IllegalMoveError``, ``IllegalActionError``, ``OutOfScopeError``, ``TablebaseError`` and
``RecordError``; ``MissingTableError`` is a ``KeyError``.

The compiled core: x86-64 Linux wheels carry a second build for x86-64-v3 CPUs (AVX2, BMI2),
loaded where the CPU has it; ``pp.core_target`` names the build in use, and
``PERFECTPLAY_CORE=baseline`` (or ``x86-64-v3``) in the environment chooses by hand.

Game records (PDN for checkers): ``pp.pdn.read(path)``, ``pp.pdn.loads(text)``,
``state.to_pdn()``.
"""

from perfectplay import _select_core

_select_core.select()

from perfectplay._core import (  # noqa: E402  (after the choice of build)
    START_DRAWS,
    TERMINAL_PLAYER,
    Game,
    IllegalActionError,
    IllegalMoveError,
    InvalidPositionError,
    MissingTableError,
    Move,
    OutOfScopeError,
    Outcome,
    Probe,
    RecordError,
    State,
    Tablebase,
    TablebaseError,
    UnknownGameError,
    VectorEnv,
    __version__,
    game_ids,
    load_game,
)
from perfectplay._core import _target_cpu as core_target  # noqa: E402
from perfectplay import pdn, tablebase
from perfectplay.matches import match

__all__ = [
    "START_DRAWS",
    "TERMINAL_PLAYER",
    "Game",
    "IllegalActionError",
    "IllegalMoveError",
    "InvalidPositionError",
    "MissingTableError",
    "Move",
    "OutOfScopeError",
    "Outcome",
    "Probe",
    "RecordError",
    "State",
    "Tablebase",
    "TablebaseError",
    "UnknownGameError",
    "VectorEnv",
    "__version__",
    "core_target",
    "game_ids",
    "load_game",
    "match",
    "pdn",
    "tablebase",
]
