"""Lorwyn cards with a delayed triggered ability: "at the beginning of the next end step"
return the exiled card (Galepowder Mage) or sacrifice the creature (Lowland Oaf,
Incandescent Soulstoke).

An effect schedules the delayed ability with :func:`mtgk.plugins.delayed.schedule`
(here through ``_at_next_end_step``, with the object it is about as its data); the card
lists that ability as ``delayed(effect, text=...)``, which reads the object back from
``c.item.data`` (:mod:`mtgk.plugins.delayed`).  Heat Shimmer's token, exiled "at the
beginning of the end step", has a granted (not a delayed) ability: see
:mod:`mtgk.cardsets.lorwyn.granted_abilities`.
"""

from __future__ import annotations

from typing import Any

from mtgk.cards.dsl import activated, attacks, lord, pump, target
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import creature, kind
from mtgk.log import events as ev
from mtgk.plugins.delayed import delayed, schedule

from .cards import S

_EARLIER = set(S.defs)


def _at_next_end_step(c: Ctx, data: Any) -> None:
    """Schedule this card's delayed ability "at the beginning of the next end step"."""
    schedule(c, ev.StepBegan, {"step": "end"}, data=data)


def _sacrifice_it(c: Ctx) -> None:
    """Delayed: sacrifice that creature (``c.item.data``), if it is still on the
    battlefield under the control of this ability's controller."""
    oid = c.item.data
    o = c.state.objects.get(oid) if isinstance(oid, int) else None
    if o is not None and o.zone == "battlefield" and c.chars(oid).controller == c.you:
        c.sacrifice(oid)


# ======================================================================== return the exiled card

def _galepowder(c: Ctx) -> None:
    """Exile another target creature. Return that card to the battlefield under its owner's
    control at the beginning of the next end step."""
    exiled = c.exile(c.target(0))
    if exiled is not None:
        _at_next_end_step(c, exiled)


def _return_that_card(c: Ctx) -> None:
    oid = c.item.data
    o = c.state.objects.get(oid) if isinstance(oid, int) else None
    if o is not None and o.zone == "exile":
        c.put_onto_battlefield(oid)  # under its owner's control


S.card("Galepowder Mage",  # flying
       attacks(_galepowder, target(creature.other())),
       delayed(_return_that_card, text="return the exiled card"))


# ======================================================================== sacrifice that creature

def _lowland_oaf(c: Ctx) -> None:
    """Target Goblin creature you control gets +1/+0 and gains flying until end of turn.
    Sacrifice that creature at the beginning of the next end step."""
    t = c.target(0)
    if t is None:
        return
    pump(1, 0, grant=["flying"])(c)
    _at_next_end_step(c, t)


S.card("Lowland Oaf",
       activated("{T}", _lowland_oaf, target(kind("Goblin").creature.you_control())),
       delayed(_sacrifice_it, text="sacrifice that creature"))


def _soulstoke(c: Ctx) -> None:
    """You may put an Elemental creature card from your hand onto the battlefield. That
    creature gains haste until end of turn. Sacrifice it at the beginning of the next end
    step."""
    cards = c.objects(kind("Elemental").card.with_type("Creature").in_your("hand"), zone="hand")
    if not cards or not c.may("put an Elemental creature card onto the battlefield?"):
        return
    new = c.put_onto_battlefield(c.choose(cards, prompt="choose an Elemental creature card"))
    if new is None or c.state.objects[new].zone != "battlefield":
        return
    c.until_end_of_turn("grant", [new], ["haste"])
    _at_next_end_step(c, new)


S.card("Incandescent Soulstoke",
       lord(kind("Elemental").creature.other().you_control(), 1, 1),
       activated("{1}{R}, {T}", _soulstoke),
       delayed(_sacrifice_it, text="sacrifice it"))


#: The cards this module defines (tokens included), in definition order.
CARDS: list[str] = [n for n in S.defs if n not in _EARLIER]
