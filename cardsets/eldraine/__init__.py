"""Wilds of Eldraine Roles: the Role tokens and the cards that create them (issue 6)."""

from __future__ import annotations

from kernel.cards import CardSetInfo
from kernel.plugins import hookimpl

from .cards import S


@hookimpl
def mtgk_cardsets() -> list[CardSetInfo]:
    return [S.info()]
