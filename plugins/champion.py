"""Champion (Lorwyn; CR 502.72 of 2007, 702.72 today): two linked triggered abilities.

A card gets the keyword by spreading :func:`champion` among its abilities::

    S.card("Nova Chaser", *champion(kind("Elemental"), "an Elemental"))   # trample: from the facts
    S.card("Changeling Titan", *champion(creature, "a creature"))

"Champion an [object]" means "When this permanent enters, sacrifice it unless
you exile another [object] you control" and "When this permanent leaves the
battlefield, return the exiled card to the battlefield under its owner's
control" (Lorwyn primer, "Keyword Ability: Champion"):

* the quality is a permanent filter: "champion a Kithkin" (``kind("Kithkin")``)
  can exile a Kithkin tribal enchantment, not only creatures; the changeling
  champions have "champion a creature" (``creature``);
* the champion can't exile itself; its controller chooses (decision kind
  ``champion``, options ``[0, id, ...]`` where 0 is "exile nothing": then the
  champion is sacrificed, if it is still on the battlefield);
* the card is exiled with :class:`~mtgk.log.events.RemovedFromGame`
  ``exiled_with=<the champion>`` (reason ``champion``) -- the link between the
  two abilities.  The link is to that *object*: if the champion left the
  battlefield before its enters ability resolved, its leaves ability found
  nothing, and a card exiled afterwards never returns;
* the leaves ability returns every card exiled with the champion; if the
  champion lost the ability before leaving, it doesn't trigger and the card
  stays exiled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import Effect, Target, Triggered
from mtgk.cards.dsl import (
    ENTERS,
    leaves,
    me,
    return_exiled,
    self_entered,
    triggered,
)
from mtgk.cards.filters import Filter, matching
from mtgk.cards.keywords import declare_keyword
from mtgk.log import events as ev

if TYPE_CHECKING:
    from mtgk.cards.effects import Ctx
    from mtgk.rules.layers import View

declare_keyword("champion", "mtgk.plugins.champion",
                what="exiles another permanent as it enters, returns it as it leaves")


def champion(quality: Filter, text: str) -> tuple[Triggered, Triggered]:
    """"Champion [text]" where ``quality`` accepts the permanents that can be championed."""
    def exile_or_sacrifice(c: Ctx) -> None:
        v = c.game.view()
        others = [o for o in matching(v, quality.you_control(), c.controller, c.source)
                  if o != c.source]
        name = c.item.source_card or c.game.name(c.source)
        pick = c.choose([0] + others, kind="champion",
                        prompt=f"{name}: exile another {text.split(' ', 1)[-1]} you control "
                               f"(or none, and sacrifice {name})")
        if pick:
            c.game.exile(pick, exiled_with=c.source, reason="champion")
            return
        c.sacrifice(me(c))  # if it is still on the battlefield

    return (Triggered(ENTERS, self_entered, exile_or_sacrifice, text=f"champion {text}"),
            leaves(return_exiled))


def championed(f: Filter, effect: Effect, *targets: Target) -> Triggered:
    """"When a [f] is championed with ~, ...": ~'s champion ability exiled a [f]."""
    def when(v: View, src: int, e: Any) -> bool:
        return bool(e.exiled_with == src and e.reason == "champion"
                    and e.new_obj in v.state.objects
                    and f(v, e.new_obj, v.chars(src).controller, src))
    return triggered(ev.RemovedFromGame, when, effect, *targets, text="championed")
