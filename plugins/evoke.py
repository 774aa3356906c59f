"""Evoke (Lorwyn; CR 502.74 of 2007, 702.74 today): an alternative cost and a trigger.

A card gets the keyword with one ability in its printed place::

    S.card("Mulldrifter", etb(draw(2)), evoke("{2}{U}"))     # flying: from the facts

"Evoke [cost]" means "You may cast this card by paying [cost] rather than
paying its mana cost" and "When this permanent enters, if its evoke cost was
paid, its controller sacrifices it" (Lorwyn primer, "Keyword Ability: Evoke"):

* :func:`evoke` gives the card the alternative cost ``evoke`` (an
  :class:`mtgk.cards.altcosts.AltCost` with no condition; a cast action's ``alt``; a
  scenario's ``evoke: true`` or ``alt_cost: evoke``): the spell is really cast, at its
  normal timing, and can be countered; its mana cost (and mana value) don't
  change; cost increases and reductions apply to the evoke cost like to any
  total cost; a spell cast "without paying its mana cost" can't use it (the
  engine refuses an alternative cost then, CR 118.9a);
* the kernel remembers the alternative cost chosen on the permanent as it
  enters (flag ``cast_alt``; :func:`mtgk.cards.altcosts.alt_cost_paid` asks it): what matters is that evoke was *chosen*, not what
  was actually paid.  The sacrifice ability triggers on that mark, at the moment
  the permanent enters -- together with its other enters abilities, so its
  controller orders them (decision kind ``order``) -- and checks it again as it
  resolves (an intervening "if");
* whoever controls the permanent then sacrifices it: a change of control
  before or after it enters doesn't stop that.  A permanent that entered
  without being cast (or as a new object after a flicker) has no mark.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mtgk.cards.altcosts import AltCost, alt_cost, alt_cost_paid, enters_if_alt_paid
from mtgk.cards.definitions import Triggered
from mtgk.cards.dsl import me
from mtgk.cards.keywords import declare_keyword, has_alt_cost

if TYPE_CHECKING:
    from mtgk.cards.effects import Ctx
    from mtgk.rules.layers import View

ALT = "evoke"

declare_keyword("evoke", "mtgk.plugins.evoke", check=has_alt_cost(ALT),
                what="an alternative cost, then sacrificed as it enters")


@dataclass(frozen=True)
class EvokeAbility(Triggered):
    """Evoke's triggered ability; ``alt_cost`` is its alternative cost (see ``CardSet.card``)."""

    alt_cost: AltCost = AltCost(ALT, "")


def was_evoked(v: View, oid: int) -> bool:
    """Was this permanent's (or spell's) evoke cost chosen as it was cast?"""
    return alt_cost_paid(v, oid, ALT)


def _sacrifice(c: Ctx) -> None:
    """Its controller sacrifices it (whoever controls it now)."""
    c.sacrifice(me(c))  # if it is still on the battlefield


def evoke(cost: str) -> EvokeAbility:
    """"Evoke [cost]"."""
    t = enters_if_alt_paid(ALT, _sacrifice, text=f"evoke {cost}")
    return EvokeAbility(t.on, t.when, t.effect, intervening_if=t.intervening_if,
                        text=t.text, alt_cost=alt_cost(ALT, cost))
