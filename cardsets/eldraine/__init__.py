"""Wilds of Eldraine Roles: the Role tokens and the cards that create them (issue 6).

The mechanics live in ``plugins/`` (roles, ward, scry, fight, adventure, bargain,
saga, triggers); until they are listed as ``mtgk.plugins`` entry points this
module registers them itself (each registration is idempotent).
"""

from __future__ import annotations

from mtgk.cards.definitions import CardSetInfo, Registry
from mtgk.cards.loading import hookimpl
from mtgk.plugins import adventure, bargain, fight, roles, saga

# each module defines its cards into S when imported
from . import creators as creators  # noqa: F401
from . import role_tokens  # noqa: F401
from .cards import S


@hookimpl
def mtgk_cardsets() -> list[CardSetInfo]:
    return [S.info()]


@hookimpl
def mtgk_register(registry: Registry) -> None:
    for plugin in (roles, adventure, bargain, fight, saga):
        plugin.register(registry)
