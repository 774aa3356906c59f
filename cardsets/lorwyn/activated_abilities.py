"""Lorwyn permanents whose activated abilities (costing mana and {T} only) need more than
the kernel's basic vocabulary.

The Flamekin whose abilities count their own resolutions -- "If this is the third time
this ability has resolved this turn" (Ashling the Pilgrim, Inner-Flame Igniter,
Soulbright Flamekin); a choice of colour (Sygg, River Guide); a land's type changed until
end of turn (Streambed Aquitects); looking at and reordering the top of the library
(Gilt-Leaf Seer, :mod:`mtgk.plugins.library`); and Thousand-Year Elixir, which lets
abilities be activated "as though those creatures had haste"
(:func:`mtgk.cards.dsl.activate_as_though_haste`).

What happened this turn is :mod:`mtgk.plugins.history`'s (``resolutions_this_turn``;
Inner-Flame Igniter counts from :func:`mtgk.cards.history.events_this_turn` itself).
Activated abilities with costs beyond mana and {T} are in
:mod:`mtgk.cardsets.lorwyn.activation_costs`.
"""

from __future__ import annotations

from mtgk.cards.dsl import (
    activate_as_though_haste,
    activated,
    controller,
    me,
    pump,
    target,
)
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import creature, kind, land
from mtgk.cards.history import events_this_turn
from mtgk.log import events as ev
from mtgk.plugins.history import resolutions_this_turn
from mtgk.plugins.library import look_and_reorder
from mtgk.rules.layers import View

from .cards import S

_EARLIER = set(S.defs)

COLORS = ("white", "blue", "black", "red", "green")


# ======================================================================== the third time it has resolved this turn

def _ashling(c: Ctx) -> None:
    """Put a +1/+1 counter on ~. If this is the third time this ability has resolved this
    turn, remove all +1/+1 counters from ~, and it deals that much damage to each
    creature and each player."""
    src = me(c)
    c.put_counters(src, "+1/+1", 1)
    if resolutions_this_turn(c) != 2:
        return
    n = c.state.objects[src].counters.get("+1/+1", 0) if src is not None else 0
    c.remove_counters(src, "+1/+1", n)
    for oid in c.objects(creature):
        c.damage(oid, n)
    for p in c.players():
        c.damage(ev.player_ref(p), n)


S.card("Ashling the Pilgrim", activated("{1}{R}", _ashling))


def _times_resolved_this_turn(c: Ctx) -> int:
    """How many times this ability (of this object) has resolved this turn, before now."""
    mine: list[int] = []
    n = 0
    for e in events_this_turn(c.game):
        if isinstance(e, ev.AbilityActivated) and e.source == c.source \
                and e.ability == c.item.ability:
            mine.append(e.item)
        elif isinstance(e, ev.StackItemResolved) and e.item in mine and not e.fizzled:
            n += 1
    return n


def _igniter(c: Ctx) -> None:
    """Creatures you control get +1/+0 until end of turn. If this is the third time this
    ability has resolved this turn, creatures you control gain first strike until end of
    turn."""
    mine = c.objects(creature.you_control())
    if mine:
        c.until_end_of_turn("pt", mine, [1, 0])
    if _times_resolved_this_turn(c) + 1 == 3 and mine:
        c.until_end_of_turn("grant", mine, ["first strike"])


S.card("Inner-Flame Igniter", activated("{2}{R}", _igniter))


def _soulbright(c: Ctx) -> None:
    """Target creature gains trample until end of turn. If this is the third time this
    ability has resolved this turn, you may add {R}{R}{R}{R}{R}{R}{R}{R}."""
    t = c.target(0)
    if t is not None:
        c.until_end_of_turn("grant", [t], ["trample"])
    if resolutions_this_turn(c) == 2 and c.may("add {R}{R}{R}{R}{R}{R}{R}{R}?"):
        c.game.emit(ev.ManaAdded(player=c.controller, mana="R" * 8))


S.card("Soulbright Flamekin", activated("{2}", _soulbright, target(creature)))


# ======================================================================== Merfolk

def _protection_from_a_color(c: Ctx) -> None:
    """Target Merfolk you control gains protection from the color of your choice until end
    of turn."""
    t = c.target(0)
    if t is None:
        return
    color = c.choose(list(COLORS), prompt="choose a color")
    c.until_end_of_turn("grant", [t], [f"protection from {color}"])


S.card("Sygg, River Guide",  # islandwalk
       activated("{1}{W}", _protection_from_a_color, target(kind("Merfolk").you_control())))


def _becomes_island(c: Ctx) -> None:
    """Target land becomes an Island until end of turn."""
    t = c.target(0)
    if t is not None:
        c.until_end_of_turn("set_subtypes", [t], {"set": "Land", "types": ["Island"]})


S.card("Streambed Aquitects",
       activated("{T}", pump(1, 1, grant=["islandwalk"]), target(kind("Merfolk").creature)),
       activated("{T}", _becomes_island, target(land)))


# ======================================================================== the top of the library

# {G}, {T}: Look at the top two cards of your library, then put them back in any order.
S.card("Gilt-Leaf Seer", activated("{G}, {T}", lambda c: look_and_reorder(c.game, c.you, 2)))


# ======================================================================== artifacts

def _your_creature(v: View, src: int, oid: int) -> bool:
    return v.chars(oid).controller == controller(v, src)


S.card("Thousand-Year Elixir",
       activate_as_though_haste(_your_creature, "You may activate abilities of creatures you "
                                                "control as though those creatures had haste."),
       activated("{1}, {T}", lambda c: c.untap(c.target(0)), target(creature)))


#: The cards this module defines (tokens included), in definition order.
CARDS: list[str] = [n for n in S.defs if n not in _EARLIER]
