"""Evoke (Lorwyn; CR 502.74 of 2007, 702.74 today): an alternative cost and a trigger.

A card gets the keyword with one ability in its printed place::

    S.card("Mulldrifter", etb(draw(2)), evoke("{2}{U}"))     # flying: from the facts

"Evoke [cost]" means "You may cast this card by paying [cost] rather than
paying its mana cost" and "When this permanent enters, if its evoke cost was
paid, its controller sacrifices it" (Lorwyn primer, "Keyword Ability: Evoke"):

* :func:`evoke` gives the card the alternative cost ``evoke`` (a cast action's
  ``alt``; a scenario's ``evoke: true``): the spell is really cast, at its
  normal timing, and can be countered; its mana cost (and mana value) don't
  change; cost increases and reductions apply to the evoke cost like to any
  total cost; a spell cast "without paying its mana cost" can't use it (the
  engine refuses an alternative cost then, CR 118.9a);
* the kernel remembers the alternative cost chosen on the permanent as it
  enters (flag ``cast_alt``): what matters is that evoke was *chosen*, not what
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
from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import Triggered
from mtgk.cards.dsl import me
from mtgk.log import events as ev

if TYPE_CHECKING:
    from mtgk.cards.effects import Ctx
    from mtgk.rules.layers import View

ALT = "evoke"


@dataclass(frozen=True)
class EvokeAbility(Triggered):
    """Evoke's triggered ability; ``alt_cost`` is its alternative cost (see ``CardSet.card``)."""

    alt_cost: tuple[str, str] = (ALT, "")


def was_evoked(v: View, oid: int) -> bool:
    """Was this permanent's evoke cost chosen as it was cast?"""
    o = v.state.objects.get(oid)
    return o is not None and o.flags.get("cast_alt") == ALT


def _enters_evoked(v: View, src: int, e: Any) -> bool:
    return bool(e.obj == src and e.key == "cast_alt" and e.value == ALT)


def _still_evoked(v: View, src: int, data: Any) -> bool:
    o = v.state.objects.get(src)
    return o is None or o.zone != "battlefield" or was_evoked(v, src)


def _sacrifice(c: Ctx) -> None:
    """Its controller sacrifices it (whoever controls it now)."""
    c.sacrifice(me(c))  # if it is still on the battlefield


def evoke(cost: str) -> EvokeAbility:
    """"Evoke [cost]"."""
    return EvokeAbility((ev.ObjectFlagged.TAG,), _enters_evoked, _sacrifice,
                        intervening_if=_still_evoked, text=f"evoke {cost}",
                        alt_cost=(ALT, cost))
