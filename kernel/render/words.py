"""The small words of the renderer: how a hidden card and an unknown player are named, what
a viewer may see of an object, text made fit for a terminal, steps and numbered names."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import msgspec

from mtgk.rules.state import Obj
from mtgk.rules.visibility import sees

if TYPE_CHECKING:
    pass

__all__ = ["HIDDEN", "UNKNOWN_PLAYER", "can_see", "clean", "numbered_name", "plain_repr",
           "step_name"]

HIDDEN = "a card"
"""How a card the viewer cannot see is named."""

UNKNOWN_PLAYER = "an unknown player"
"""Whose an object is when the state doesn't know it: a record read after damage that
names an object made in the damaged part (never guessed)."""

def can_see(o: Obj, viewer: int | None) -> bool:
    """Whether ``viewer`` (a player, or ``None`` for everyone's view) may see what ``o`` is.

    >>> o = Obj(id=1, card_id=1, card="Shock", owner=0, controller=0, zone="hand")
    >>> can_see(o, 0), can_see(o, 1), can_see(o, None)
    (True, False, True)
    """
    return sees(o, viewer)


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e"
                      "\u2066-\u2069]")


def clean(text: str) -> str:
    """``text`` fit for a terminal: control characters (escape sequences, carriage
    returns, newlines, bidirectional overrides) written as ``\\x1b``-style escapes.

    Names in a log (players, cards, decks) are whatever the log says; printed raw,
    an escape sequence in one would act on the terminal.

    >>> print(clean("Bob\\x1b[2J\\nAlice"))
    Bob\\x1b[2J\\nAlice
    """
    if text.isprintable():
        return text
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def step_name(step: str) -> str:
    """A step's name in words: ``precombat_main`` -> ``precombat main``."""
    return step.replace("_", " ")


def plain_repr(x: Any) -> str:
    """``x`` as a log shows free-form data: a string as it is, anything else as JSON (else
    its ``repr``)."""
    if isinstance(x, str):
        return x
    try:
        return msgspec.json.encode(x).decode()
    except (TypeError, msgspec.EncodeError):
        return repr(x)


def numbered_name(name: str, o: Obj) -> str:
    """``name`` told apart from identical cards: with the number of the physical card
    (``card_id``, the same in every zone and after an undo: a game re-run gives its cards
    the same numbers).

    >>> numbered_name("Forest", Obj(id=40, card_id=12, card="Forest", owner=0,
    ...                             controller=0, zone="battlefield"))
    'Forest #12'
    """
    return f"{name} #{o.card_id or o.id}"

