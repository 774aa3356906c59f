"""Core: the classic reference cards rules tests use, and the predefined tokens.

Facts come from ``cards.json`` and ``tokens.json`` beside this file (2007
wordings: "target creature or player").
"""

from __future__ import annotations

from mtgk.cards.definitions import CardSetInfo
from mtgk.cards.loading import hookimpl

from .cards import S


@hookimpl
def mtgk_cardsets() -> list[CardSetInfo]:
    return [S.info()]
