"""The environment's error, and the checks of what a caller gives it: seeds and actions.

:class:`EnvError` is what every misuse raises (one line); :func:`check_seed` and
:func:`check_action` take an int or a NumPy integer; :data:`TRUNCATING` says which ends of
a game cut it short.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from mtgk.env.observation import MAX_ACTIONS


class EnvError(Exception):
    """The environment was used wrongly (an action that is not legal now, a step after
    the game ended, a seed that is not one) or the engine failed while playing.  The
    message is one line."""


SEED_LIMIT = 2**62
"""Seeds are integers from 0 to ``SEED_LIMIT - 1``: a log stores 64-bit integers, and the
seeds of the kernel agents at the table (``seed * 2 + seat``) are recorded too."""

TRUNCATING = ("turn-limit", "event-budget")
"""The :class:`~mtgk.log.events.GameEnded` reasons that cut a game short (Gymnasium's
*truncated*: the game's turn limit, the event budget); every other end -- a win, a draw
by the rules (a loop of mandatory actions, no player left) -- *terminates* it."""


def whole_number(value: Any) -> int | None:
    """``value`` as an int if it is an integer (Python's or NumPy's; not a bool), else
    ``None``."""
    if isinstance(value, bool | np.bool_):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def check_seed(seed: Any) -> int:
    """``seed`` as an int (a NumPy integer too), or :class:`EnvError` if it is not an
    integer from 0 to :data:`SEED_LIMIT` - 1 (a float, a string, a bool, a negative
    number, one too large for a log)."""
    n = whole_number(seed)
    if n is None or not 0 <= n < SEED_LIMIT:
        shown = repr(seed) if len(repr(seed)) <= 40 else repr(seed)[:37] + "..."
        raise EnvError(f"a seed is an integer from 0 to 2**62 - 1, not {shown}")
    return n


def check_action(action: Any) -> int:
    """``action`` as an int (a NumPy integer too), or :class:`EnvError` if it is not an
    integer of the action space (``0 .. MAX_ACTIONS - 1``)."""
    n = whole_number(action)
    if n is None:
        shown = repr(action) if len(repr(action)) <= 40 else repr(action)[:37] + "..."
        raise EnvError(f"an action is an integer from 0 to {MAX_ACTIONS - 1} (an index of "
                       f"the mask), not {shown}")
    if not 0 <= n < MAX_ACTIONS:
        raise EnvError(f"action {n} is not legal: actions are 0 to {MAX_ACTIONS - 1} "
                       "(indexes of the mask)")
    return n
