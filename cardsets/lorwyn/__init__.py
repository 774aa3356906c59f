"""Lorwyn (2007): card definitions written from the set's card facts.

Loaded through the ``mtgk.cardsets`` entry point exactly as a third-party pack.
"""

from __future__ import annotations

from kernel.cards import CardSetInfo
from kernel.plugins import hookimpl

from . import planeswalkers  # noqa: F401  (defines cards into S)
from .cards import S


@hookimpl
def mtgk_cardsets() -> list[CardSetInfo]:
    return [S.info()]
