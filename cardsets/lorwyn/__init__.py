"""Lorwyn (2007): card definitions written from the set's card facts.

Loaded through the ``mtgk.cardsets`` entry point exactly as a third-party pack.
"""

from __future__ import annotations

from mtgk.cards.definitions import CardSetInfo, Registry
from mtgk.cards.loading import hookimpl
from mtgk.plugins import play_exiled, reveal_cost

# Each module defines its cards into S when imported, one module a subject (a mechanic or
# a card type: each module's docstring says which cards it holds and where the others
# are).  simple.py goes first (the cards the kernel expresses directly, and the built-in
# decks), as it notes which cards came before it.
#
# The order cards are defined in is their order in the registry.  Within Lorwyn it
# decides one thing only: the order of the triggered abilities granted to one permanent
# (Nettlevine Blight's before Heat Shimmer's, both in granted_abilities.py, whose
# docstring says so); which module a card is in, and the order of the modules below,
# decide nothing else (tests/test_registration_order.py).
from . import simple  # noqa: F401

# isort: split
from . import (  # noqa: F401
    activated_abilities,
    activation_costs,
    additional_costs,
    casting,
    champion,
    clash,
    combat,
    commands,
    delayed_triggers,
    enchantments,
    equipment,
    evoke,
    granted_abilities,
    hideaway,
    incarnations,
    instants_and_sorceries,
    lands_and_mana,
    planeswalkers,
    prevention_and_regeneration,
    tribal,
    triggered_abilities,
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
