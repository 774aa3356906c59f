"""Lorwyn cards about combat: restrictions ("can't attack or block unless", "can't
attack unless", "can't be blocked by creatures with power 4 or greater"), requirements
(Hunt Down's "blocks target creature this turn if able"), blocking an additional creature
(Lairwatch Giant), combat damage assigned by toughness (Doran, the Siege Tower) and
Brigid, Hero of Kinsbaile, who deals damage to attacking or blocking creatures.

Combat restrictions and requirements are abilities the engine reads by name
(``mtgk.cards.dsl.RULES_ABILITIES``: "can't attack", "can't block",
"unblockable_by_power:4", "must_block:<attacker>", "can block an additional creature",
"assigns combat damage by toughness"); a condition on them is a static ability
(:func:`mtgk.cardsets.lorwyn.simple.as_long_as`).  Protective Bubble ("can't be
blocked") is an Aura: :mod:`mtgk.cardsets.lorwyn.enchantments`.
"""

from __future__ import annotations

from typing import Any

from mtgk.cards.dsl import activated, controller, has, self_pump, spell, target, triggered
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import creature, kind, player
from mtgk.log import events as ev
from mtgk.rules.layers import View

from .cards import S
from .simple import as_long_as, attacking_or_blocking, you_control

_EARLIER = set(S.defs)


# ======================================================================== restrictions

# ~ can't attack or block unless you control another Giant.
S.card("Blind-Spot Giant",
       as_long_as(~you_control(kind("Giant").other()),
                  grant=["can't attack", "can't block"]))


def _no_island_for_defender(v: View, src: int) -> bool:
    """The defending player (the opponent) controls no Island."""
    me_ = controller(v, src)
    return not any(v.chars(o).controller != me_ and v.chars(o).has_subtype("Island")
                   for o in v.state.battlefield)


S.card("Ethereal Whiskergill",  # flying
       as_long_as(_no_island_for_defender, grant=["can't attack"]))

S.card("Goldmeadow Dodger", has("unblockable_by_power:4"))


# ======================================================================== blocking

def _lairwatch_blocks_two(v: View, src: int, e: Any) -> bool:
    return sum(1 for b, _a in e.blocks if b == src) >= 2


S.card("Lairwatch Giant",
       has("can block an additional creature"),
       triggered(ev.BlockersDeclared, _lairwatch_blocks_two,
                 self_pump(0, 0, grant=["first strike"]),
                 text="whenever ~ blocks two or more creatures"))


def _hunt_down(c: Ctx) -> None:
    """Target creature blocks target creature this turn if able."""
    blocker, attacker = c.target(0), c.target(1)
    if blocker is not None and attacker is not None:
        c.until_end_of_turn("grant", [blocker], [f"must_block:{attacker}"])


S.card("Hunt Down", spell(_hunt_down, target(creature), target(creature)))


# ======================================================================== combat damage

S.card("Doran, the Siege Tower", has("assigns combat damage by toughness"))


def _brigid(c: Ctx) -> None:
    """~ deals 2 damage to each attacking or blocking creature target player controls."""
    who = c.controller_of(c.target(0))
    for oid in c.objects(attacking_or_blocking):
        if c.chars(oid).controller == who:
            c.damage(oid, 2)


S.card("Brigid, Hero of Kinsbaile",  # first strike
       activated("{T}", _brigid, target(player)))


#: The cards this module defines (tokens included), in definition order.
CARDS: list[str] = [n for n in S.defs if n not in _EARLIER]
