"""Lorwyn lands and mana sources beyond "{T}: Add [mana]": the Vivid lands, Shimmering
Grotto, Springleaf Drum, Smokebraider and Fertile Ground.

Mechanisms:

* a mana ability is :func:`mtgk.cards.dsl.mana_ability` (its colours, an activation
  cost, an amount, a spending restriction) or an ``Activated`` with ``mana=`` (``any_color``
  below); costs such as "Remove a charge counter from ~" and "Tap an untapped creature you
  control" are parts of ``Cost.extra`` (:mod:`mtgk.plugins.costs`);
* the Vivid lands enter tapped with two charge counters (``enters_tapped=True``,
  ``enters_with_counters=``);
* Smokebraider's mana may be spent only on Elementals: a mana ability adding two mana
  with the spending restriction ``"Elemental"`` (:func:`mtgk.rules.mana.register_spend_restriction`;
  the engine pays with restricted mana only where it may be spent);
* Fertile Ground's additional mana from tapping the enchanted land is
  :func:`mtgk.plugins.extra_mana.enchanted_land_adds`.

The "reveal a [type] card" lands are tribal.py's; Leaf Gilder and Elvish Harbinger
(simple.py) have plain mana abilities.
"""

from __future__ import annotations

from mtgk.cards.definitions import Activated, Cost
from mtgk.cards.dsl import mana_ability, target
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import creature, land
from mtgk.plugins.costs import cost, remove_counters, tap_untapped
from mtgk.plugins.extra_mana import enchanted_land_adds
from mtgk.rules.layers import View
from mtgk.rules.mana import register_spend_restriction

from .cards import S

_EARLIER = set(S.defs)


def _no_effect(c: Ctx) -> None:
    return None


def any_color(c: Cost) -> Activated:
    """"[cost]: Add one mana of any color." (a mana ability)"""
    return Activated(c, _no_effect, (), mana=tuple("WUBRG"))


# ======================================================================== lands

def _vivid(name: str, color: str) -> None:
    """[name] enters tapped with two charge counters on it.  {T}: Add [color].  {T}, Remove
    a charge counter from [name]: Add one mana of any color."""
    S.card(name, mana_ability(color), any_color(cost("{T}", remove_counters("charge", 1))),
           enters_tapped=True, enters_with_counters={"charge": 2})


_vivid("Vivid Crag", "R")
_vivid("Vivid Creek", "U")
_vivid("Vivid Grove", "G")
_vivid("Vivid Marsh", "B")
_vivid("Vivid Meadow", "W")

S.card("Shimmering Grotto", mana_ability("C"), mana_ability("WUBRG", "{1}, {T}"))


# ======================================================================== other mana sources

S.card("Springleaf Drum",
       any_color(cost("{T}", tap_untapped(creature, 1, "an untapped creature",
                                          besides_source=True))))


def _elemental_only(v: View, what: str, obj: int) -> bool:
    """"Spend this mana only to cast Elemental spells or activate abilities of Elementals"
    (a changeling is an Elemental)."""
    return v.chars(obj).has_subtype("Elemental")


register_spend_restriction("Elemental", _elemental_only)
S.card("Smokebraider",  # {T}: Add two mana in any combination of colors. Spend this mana ...
       mana_ability("WUBRG", amount=2, spend="Elemental"))

S.card("Fertile Ground", enchanted_land_adds("WUBRG"), enchant=target(land))


#: The cards this module defines (tokens included), in definition order.
CARDS: list[str] = [n for n in S.defs if n not in _EARLIER]
