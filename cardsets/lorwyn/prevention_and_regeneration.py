"""Lorwyn cards that prevent damage or regenerate: Burrenton Forge-Tender (all damage a
red source of your choice would deal this turn), Dolmen Gate (combat damage to your
attacking creatures), Kithkin Healer (the next 1 damage), Wellgabber Apothecary (all
damage to a tapped Merfolk or Kithkin this turn), Heal the Scars and Herbal Poultice
(regenerate target creature).

Mechanisms: prevention effects of resolving abilities are :mod:`mtgk.plugins.prevention`'s
(``prevent_all_from``, ``prevent_next``, the effect kind ``KIND`` "prevent all damage to
..."); Dolmen Gate's static prevention is a replacement effect of the card
(:class:`mtgk.plugins.incarnations.Prevent`); regeneration is
:mod:`mtgk.plugins.regeneration`'s (``regenerate``, ``regenerate_target``).  The
cookbook's "Replacement and prevention effects" and "Regeneration"
(docs/pack-authors.md) explain them.

Oracle wordings, with the 2007 rules where they differ: Kithkin Healer's "target creature
or player" where today's Oracle text says "any target".
"""

from __future__ import annotations

from typing import Any

from mtgk.cards.dsl import activated, spell, target
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import creature, creature_or_player, kind
from mtgk.plugins.incarnations import Prevent
from mtgk.plugins.prevention import KIND as PREVENT_DAMAGE
from mtgk.plugins.prevention import prevent_all_from, prevent_next
from mtgk.plugins.regeneration import regenerate, regenerate_target

from .cards import S

_EARLIER = set(S.defs)


# ======================================================================== prevention

def _forge_tender(c: Ctx) -> None:
    """Prevent all damage a red source of your choice would deal this turn."""
    v = c.game.view()
    red = [o for o in list(c.state.battlefield) + [it.id for it in c.state.stack
                                                   if it.kind == "spell"]
           if "R" in v.chars(o).colors]
    if red:
        prevent_all_from(c, c.choose(red, prompt="choose a red source"))


S.card("Burrenton Forge-Tender",  # protection from red
       activated("Sacrifice ~", _forge_tender))


def _attacking_creature_of_yours(game: Any, p: dict[str, Any], src: int) -> bool:
    """Combat damage that would be dealt to an attacking creature you control."""
    t = p["target"]
    combat = game.state.combat
    return bool(p["combat"] and t > 0 and combat is not None and t in combat.attackers
                and game.chars(t).controller == game.chars(src).controller)


S.card("Dolmen Gate",
       Prevent("dolmen-gate", _attacking_creature_of_yours, lambda g, p, s, n: None,
               "Prevent all combat damage that would be dealt to attacking creatures you "
               "control."))

S.card("Kithkin Healer",
       activated("{T}", lambda c: prevent_next(c, c.target(0), 1), target(creature_or_player)))


def _prevent_all_damage_to_target(c: Ctx) -> None:
    """Prevent all damage that would be dealt to target ... this turn."""
    t = c.target(0)
    if t is not None:
        c.until_end_of_turn(PREVENT_DAMAGE, [], {"to": t})


S.card("Wellgabber Apothecary",
       activated("{1}{W}", _prevent_all_damage_to_target,
                 target(kind("Merfolk", "Kithkin").creature.tapped())))


# ======================================================================== regeneration

def _heal_the_scars(c: Ctx) -> None:
    """Regenerate target creature. You gain life equal to that creature's toughness."""
    t = c.target(0)
    if t is None:
        return
    regenerate(c, t)
    c.gain_life(c.you, c.chars(t).toughness or 0)


S.card("Heal the Scars", spell(_heal_the_scars, target(creature)))

S.card("Herbal Poultice",
       activated("{3}, Sacrifice ~", regenerate_target(), target(creature)))


#: The cards this module defines (tokens included), in definition order.
CARDS: list[str] = [n for n in S.defs if n not in _EARLIER]
