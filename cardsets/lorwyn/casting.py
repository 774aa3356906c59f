"""Lorwyn cards that change casting: what spells cost (Stinkdrinker Daredevil, Thorn of
Amethyst), which spells can't be cast (Gaddock Teeg), and playing cards from elsewhere or
without paying their mana costs (Colfenor's Plans, Twinning Glass, Horde of Notions).

Mechanisms: cost changes are static abilities (:func:`mtgk.cards.dsl.cost_change`),
"can't be cast" too (:func:`mtgk.cards.dsl.cant_be_cast`); playing the cards exiled with a
permanent and "You can't cast more than one spell each turn" are
:mod:`mtgk.plugins.play_exiled`'s (``PLAY_EXILED``, ``ONE_SPELL``,
``exile_top_face_down``; "Skip your draw step" is the kernel's ``SKIP_DRAW``); casting or
playing during a resolution is ``Game.cast_during_resolution`` and
``Game.play_during_resolution``; the names of the spells cast this turn are
:func:`mtgk.cards.history.spell_names_cast_this_turn`'s.  Additional costs to cast a spell
are in :mod:`mtgk.cardsets.lorwyn.additional_costs`.
"""

from __future__ import annotations

from mtgk.cards.dsl import activated, cant_be_cast, controller, cost_change, etb, has, target
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import kind
from mtgk.cards.history import spell_names_cast_this_turn
from mtgk.plugins.play_exiled import ONE_SPELL, PLAY_EXILED, SKIP_DRAW, exile_top_face_down
from mtgk.rules.layers import View

from .cards import S

_EARLIER = set(S.defs)


# ======================================================================== what spells cost

def _your_giant_spell(v: View, src: int, card: int) -> bool:
    return v.obj(card).controller == controller(v, src) and v.chars(card).has_subtype("Giant")


S.card("Stinkdrinker Daredevil",
       cost_change(_your_giant_spell, -2, "Giant spells you cast cost {2} less to cast."))

S.card("Thorn of Amethyst",
       cost_change(lambda v, s, card: "Creature" not in v.chars(card).types, 1,
                   "Noncreature spells cost {1} more to cast."))


# ======================================================================== spells that can't be cast

def _noncreature_card(v: View, card: int) -> bool:
    return "Creature" not in v.chars(card).types


S.card("Gaddock Teeg",
       cant_be_cast(lambda v, s, card, p: _noncreature_card(v, card)
                    and v.chars(card).mana_value >= 4,
                    "Noncreature spells with mana value 4 or greater can't be cast."),
       cant_be_cast(lambda v, s, card, p: _noncreature_card(v, card)
                    and "{X}" in (v.reg[v.obj(card).card].facts.mana_cost or ""),
                    "Noncreature spells with {X} in their mana costs can't be cast."))


# ======================================================================== playing from elsewhere, for free

# When ~ enters the battlefield, exile the top seven cards of your library face down. You
# may look at the cards exiled with ~, and you may play lands and cast spells from among
# those cards. Skip your draw step. You can't cast more than one spell each turn.
S.card("Colfenor's Plans", etb(exile_top_face_down(7)), has(PLAY_EXILED), has(SKIP_DRAW),
       has(ONE_SPELL))


def _twinning_glass(c: Ctx) -> None:
    """You may cast a spell from your hand without paying its mana cost if it has the same
    name as a spell that was cast this turn."""
    names = spell_names_cast_this_turn(c.game)
    hand = [o for o in c.state.players[c.controller].hand
            if c.state.objects[o].card in names and not c.chars(o).is_("Land")]
    if not hand:
        return
    pick = c.choose(hand, prompt="choose a card with the name of a spell cast this turn")
    c.game.cast_during_resolution(c.controller, pick, free=True, optional=True,
                                  prompt=f"cast {c.game.name(pick)} without paying its mana "
                                         "cost?")


S.card("Twinning Glass", activated("{1}, {T}", _twinning_glass))


def _horde(c: Ctx) -> None:
    """You may play target Elemental card from your graveyard without paying its mana
    cost."""
    t = c.target(0)
    if t is not None:
        c.game.play_during_resolution(c.you, t, optional=True,
                                      prompt=f"play {c.game.name(t)} without paying its mana "
                                             "cost?")


S.card("Horde of Notions",  # vigilance, trample, haste
       activated("{W}{U}{B}{R}{G}", _horde,
                 target(kind("Elemental").card.in_your("graveyard"))))


#: The cards this module defines (tokens included), in definition order.
CARDS: list[str] = [n for n in S.defs if n not in _EARLIER]
