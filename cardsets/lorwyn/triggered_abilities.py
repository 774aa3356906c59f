"""Lorwyn permanents whose triggered abilities need more than the kernel's basic
vocabulary.

Triggers on casting (Bog-Strider Ash, Masked Admirers -- which triggers from its owner's
graveyard, ``zones=("graveyard",)`` -- and Forced Fruition), on activating an ability
(Ceaseless Searblades; Rings of Brighthearth, which copies it:
:mod:`mtgk.plugins.copy_ability`), on becoming tapped (Surgespanner), on entering
(Inkfathom Divers, looking at the top of the library with :mod:`mtgk.plugins.library`;
Sower of Temptation, whose control effect lasts "for as long as" it stays on the
battlefield, :meth:`mtgk.cards.effects.Ctx.while_on_battlefield`) and Colfenor's Urn (a
look-back trigger on dying, and an end-step trigger with an intervening "if").

Triggers that "may pay" ask :meth:`mtgk.cards.effects.Ctx.pay`.  Delayed triggers ("at
the beginning of the next end step") are in :mod:`mtgk.cardsets.lorwyn.delayed_triggers`,
triggered abilities given to other objects in :mod:`mtgk.cardsets.lorwyn.granted_abilities`.

Known limit: Ceaseless Searblades triggers on activated abilities that use the stack
(loyalty abilities too); mana abilities of Elementals, which the engine activates while
paying costs, don't trigger it.
"""

from __future__ import annotations

from typing import Any

from mtgk.cards.dsl import (
    casts,
    controller,
    draw,
    each_step,
    etb,
    exiled_with,
    me,
    self_pump,
    target,
    triggered,
)
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import creature, creature_spell, kind, permanent
from mtgk.log import events as ev
from mtgk.plugins.copy_ability import copy_activated
from mtgk.plugins.library import look_and_reorder
from mtgk.rules.layers import View

from .cards import S
from .simple import becomes_tapped

_EARLIER = set(S.defs)


# ======================================================================== casting

def _may_pay_g_to_gain_two(c: Ctx) -> None:
    """You may pay {G}. If you do, you gain 2 life."""
    if c.pay(c.you, "{G}", prompt="pay {G} to gain 2 life?"):
        c.gain_life(c.you, 2)


S.card("Bog-Strider Ash",  # swampwalk
       casts(kind("Goblin").spell, _may_pay_g_to_gain_two, who="any"))


def _you_cast_a_creature_spell(v: View, src: int, e: Any) -> bool:
    return bool(e.controller == controller(v, src) and creature_spell(v, e.new_obj,
                                                                      e.controller, src))


def _admirers_return(c: Ctx) -> None:
    """You may pay {G}{G}. If you do, return ~ from your graveyard to your hand."""
    if c.pay(c.you, "{G}{G}", "pay {G}{G} to return Masked Admirers to your hand?"):
        o = c.state.objects.get(c.source)
        if o is not None and o.zone == "graveyard":
            c.game.move(c.source, "hand", reason="return")


S.card("Masked Admirers",
       etb(draw(1)),
       triggered(ev.SpellCast, _you_cast_a_creature_spell, _admirers_return,
                 zones=("graveyard",), text="whenever you cast a creature spell"))


def _opponent_casts(v: View, src: int, e: Any) -> bool:
    return bool(e.controller != controller(v, src))


S.card("Forced Fruition",
       triggered(ev.SpellCast, _opponent_casts, lambda c: c.draw(c.event.controller, 7),
                 text="whenever an opponent casts a spell, that player draws seven cards"))


# ======================================================================== activating an ability

def _activated_an_elemental(v: View, src: int, e: Any) -> bool:
    """Whenever you activate an ability of an Elemental ..."""
    return bool(e.controller == controller(v, src) and e.source in v.state.objects
                and v.chars(e.source).has_subtype("Elemental"))


S.card("Ceaseless Searblades",
       triggered(ev.AbilityActivated, _activated_an_elemental, self_pump(1, 0),
                 text="whenever you activate an ability of an Elemental"))


def _rings(c: Ctx) -> None:
    """You may pay {2}. If you do, copy that ability. You may choose new targets for the
    copy."""
    if c.event is not None and c.pay(c.you, "{2}", "pay {2} to copy that ability?"):
        copy_activated(c.game, c.you, c.event)


S.card("Rings of Brighthearth",
       triggered(ev.AbilityActivated, lambda v, src, e: e.controller == controller(v, src),
                 _rings, text="whenever you activate an ability (not a mana ability)"))


# ======================================================================== becoming tapped

def _surgespanner(c: Ctx) -> None:
    """You may pay {1}{U}. If you do, return target permanent to its owner's hand."""
    if c.pay(c.controller, "{1}{U}", prompt="pay {1}{U} to return target permanent to its "
                                            "owner's hand?"):
        c.bounce(c.target(0))


S.card("Surgespanner", becomes_tapped(None, _surgespanner, target(permanent)))


# ======================================================================== entering

# When ~ enters the battlefield, look at the top four cards of your library, then put them
# back in any order.
S.card("Inkfathom Divers", etb(lambda c: look_and_reorder(c.game, c.you, 4)))  # islandwalk


def _sower(c: Ctx) -> None:
    """Gain control of target creature for as long as Sower of Temptation remains on the
    battlefield."""
    t = c.target(0)
    if t is not None:
        c.while_on_battlefield("control", [t], c.controller)


S.card("Sower of Temptation", etb(_sower, target(creature)))  # flying


# ======================================================================== dying, and the end step

def _urn_dies(v: View, src: int, e: Any) -> bool:
    """Whenever a creature with toughness 4 or greater is put into your graveyard from
    the battlefield ..."""
    if not (e.from_zone == "battlefield" and e.to_zone == "graveyard"
            and e.obj in v.state.objects):
        return False
    c = v.chars(e.obj)
    return bool(c.is_creature and (c.toughness or 0) >= 4
                and v.obj(e.obj).owner == controller(v, src))


def _urn_exile(c: Ctx) -> None:
    """... you may exile it."""
    card: int | None = getattr(c.event, "new_obj", None)
    if card is None:
        return
    o = c.state.objects.get(card)
    if o is not None and o.zone == "graveyard" and c.may(f"exile {c.game.name(card)}?"):
        c.game.exile(card, exiled_with=c.source, reason="Colfenor's Urn")


def _urn_full(v: View, src: int, e: Any) -> bool:
    return len(exiled_with(v, src)) >= 3


def _urn_returns(c: Ctx) -> None:
    """Sacrifice it. If you do, return those cards to the battlefield under their owner's
    control."""
    if me(c) is None:
        return
    cards = exiled_with(c, c.source)
    c.sacrifice(c.source)
    if c.state.objects.get(c.source) is not None:
        return  # it wasn't sacrificed
    c.put_all_onto_battlefield(cards)  # under their owners' control


S.card("Colfenor's Urn",
       triggered(ev.ZoneChanged, _urn_dies, _urn_exile, look_back=True,
                 text="a creature with toughness 4 or greater is put into your graveyard"),
       triggered(ev.StepBegan, each_step("end"), _urn_returns,
                 intervening_if=_urn_full,
                 text="at the beginning of the end step, if three or more cards have been "
                      "exiled with ~"))


#: The cards this module defines (tokens included), in definition order.
CARDS: list[str] = [n for n in S.defs if n not in _EARLIER]
