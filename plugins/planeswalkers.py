"""Planeswalker rules of the Lorwyn 2007 profile.

Damage redirection and the uniqueness rule live in the engine, switched on by
the ``lorwyn-2007`` rules profile; this plugin is the place for later
variants (e.g. Two-Headed Giant teams).
"""

from __future__ import annotations

from mtgk.cards.definitions import Registry
from mtgk.cards.loading import hookimpl


@hookimpl
def mtgk_register(registry: Registry) -> None:
    registry.extras_loaded = [*registry.extras_loaded, "planeswalkers"]
