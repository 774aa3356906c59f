"""Lorwyn (2007): card definitions written from the set's card facts.

Loaded through the ``mtgk.cardsets`` entry point exactly as a third-party pack.
"""

from __future__ import annotations

from mtgk.cards.definitions import CardSetInfo, Registry
from mtgk.cards.loading import hookimpl
from mtgk.plugins import play_exiled, reveal_cost

# each module defines its cards into S when imported; simple.py first (the cards the
# kernel expresses directly, and the built-in decks), as it notes which cards came before it
from . import simple  # noqa: F401

# isort: split
from . import (  # noqa: F401
    champion,
    clash,
    commands,
    evoke,
    hideaway,
    incarnations,
    more_a,
    more_b,
    more_c,
    planeswalkers,
    tribal,
)
from .cards import S


@hookimpl
def mtgk_cardsets() -> list[CardSetInfo]:
    return [S.info()]


@hookimpl
def mtgk_register(registry: Registry) -> None:
    """Mechanics the Lorwyn cards need in the registry (each registration is idempotent)."""
    for plugin in (reveal_cost, play_exiled):
        plugin.register(registry)
