"""Triggered mana abilities that add mana as a permanent is tapped for mana (CR 605.1b):
"Whenever enchanted land is tapped for mana, its controller adds an additional one
mana of any color" (Fertile Ground).

Such an ability resolves at once, so the kernel counts the additional mana as the
permanent's: :meth:`mtgk.rules.engine.Game.mana_sources` lists the land once more for it
(so a payment can use it), and a permanent tapped for mana that a payment uses only in
part leaves the rest in its controller's mana pool.  A static ability with an
``extra_mana(view, source, obj) -> colours`` ("" for none) says which permanents make
additional mana and of which colours.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mtgk.cards.definitions import Static

if TYPE_CHECKING:
    from mtgk.rules.layers import View


@dataclass(frozen=True)
class ExtraMana(Static):
    """Additional mana as a permanent is tapped for mana (see ``Game.extra_mana``)."""

    extra_mana: Callable[[View, int, int], str] | None = None


def enchanted_land_adds(colors: str = "WUBRG") -> Static:
    """An Aura's "Whenever enchanted land is tapped for mana, its controller adds an
    additional one mana of [colors]" (any color: ``"WUBRG"``)."""
    def extra(v: View, src: int, obj: int) -> str:
        return colors if v.obj(src).attached_to == obj else ""
    return ExtraMana(lambda v, s: [], "enchanted land adds an additional mana",
                     extra_mana=extra)
