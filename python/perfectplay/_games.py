"""Whether a state given to start games from belongs to the games it would start."""

from __future__ import annotations

import operator
from typing import Any, Optional

import numpy as np


def exact_int(value: Any, what: str) -> int:
    """``value`` as an ``int`` when it is an integer exactly (a Python or numpy integer, or a
    0-d integer array), else ``TypeError`` naming ``what``: a float, a bool or a string is
    neither truncated nor parsed, as the Rust core refuses them."""
    if not isinstance(value, (bool, np.bool_)):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise TypeError(f"{what} must be an integer, not {type(value).__name__} {value!r}")


def game_mismatch(found: Any, expected: Any) -> Optional[str]:
    """Why a state of the game ``found`` cannot start games of ``expected``, naming the id or
    each rule that differs; ``None`` when they are the same game under the same rules."""
    if found == expected:
        return None
    if found.family != expected.family:
        return f"a state of {found.id} cannot start games of {expected.id}"
    ours, theirs = expected.rules(), found.rules()
    differ = ", ".join(
        f"{name}={theirs.get(name)!r} (the games have {ours.get(name)!r})"
        for name in sorted(set(ours) | set(theirs))
        if ours.get(name) != theirs.get(name)
    )
    return f"a state of {found.id} under other rules cannot start these games: {differ}"


def checked_start(start: Any, game: Any, what: str) -> Any:
    """``start`` (a ``State`` or a position string) as a new state of ``game``; ``what`` names
    where it came from in the errors: ``TypeError`` for anything else, ``ValueError`` for a
    state of another game or other rules."""
    from perfectplay._core import State

    if isinstance(start, str):
        return game.state_from_fen(start)
    if not isinstance(start, State):
        raise TypeError(
            f"{what} must be a perfectplay.State or a position string, not {type(start).__name__}"
        )
    why = game_mismatch(start.game, game)
    if why is not None:
        raise ValueError(f"{what}: {why}")
    return start.clone()
