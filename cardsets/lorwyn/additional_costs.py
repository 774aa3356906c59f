"""Lorwyn cards with an additional cost to cast them: the "reveal a [type] card from your
hand or pay {3}" cycle, Fodder Launch ("sacrifice a Goblin") and Familiar's Ruse ("return
a creature you control to its owner's hand").

The additional costs are :mod:`mtgk.plugins.reveal_cost`'s (``reveal_or_pay``,
``sacrifice_a``, ``return_a``), given as ``S.card(..., additional_cost=...)``; the
cookbook's "Additional costs" (docs/pack-authors.md) explains them.  Fodder Launch is a
Tribal Sorcery -- Goblin: it is here, with its mechanic, rather than in
:mod:`mtgk.cardsets.lorwyn.tribal`.  The "reveal a [type] card" lands (enter tapped unless
you reveal) are tribal.py's.
"""

from __future__ import annotations

from mtgk.cards.dsl import counter, draw, etb, spell, target
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import creature, kind
from mtgk.cards.filters import spell as a_spell
from mtgk.log import events as ev
from mtgk.plugins.reveal_cost import return_a, reveal_or_pay, sacrifice_a

from .cards import S

_EARLIER = set(S.defs)


# ======================================================================== reveal a [type] card or pay {3}

S.card("Goldmeadow Stalwart", additional_cost=reveal_or_pay("Kithkin"))
S.card("Silvergill Adept", etb(draw(1)), additional_cost=reveal_or_pay("Merfolk"))
S.card("Squeaking Pie Sneak", additional_cost=reveal_or_pay("Goblin"))  # fear
S.card("Flamekin Bladewhirl", additional_cost=reveal_or_pay("Elemental"))
S.card("Wren's Run Vanquisher", additional_cost=reveal_or_pay("Elf"))  # deathtouch


# ======================================================================== sacrifice, return

def _fodder_launch(c: Ctx) -> None:
    """Target creature gets -5/-5 until end of turn. Fodder Launch deals 5 damage to that
    creature's controller."""
    t = c.target(0)
    if t is None:
        return
    who = c.controller_of(t)
    c.until_end_of_turn("pt", [t], [-5, -5])
    if who is not None:
        c.damage(ev.player_ref(who), 5)


S.card("Fodder Launch", spell(_fodder_launch, target(creature)),
       additional_cost=sacrifice_a(kind("Goblin"), "a Goblin"))

S.card("Familiar's Ruse", spell(counter(), target(a_spell)),
       additional_cost=return_a(creature, "a creature you control"))


#: The cards this module defines (tokens included), in definition order.
CARDS: list[str] = [n for n in S.defs if n not in _EARLIER]
