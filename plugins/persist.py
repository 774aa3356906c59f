"""Persist and undying (CR 702.79, 702.93): a creature that returns with a counter.

"When this creature dies, if it had no -1/-1 counters on it, return it to the battlefield
under its owner's control with a -1/-1 counter on it." (persist; undying: +1/+1).  The
card returns *with* the counter -- it enters with it, a replacement (CR 614.1c), so its
"when ~ enters" abilities see it (``Ctx.put_onto_battlefield(card, counters=...)``):

    from mtgk.plugins.persist import persist

    S.card("Kitchen Finks", etb(gain_life(2)), persist())   # facts: "keywords": ["Persist"]

Importing this module declares both keywords, each standing for its triggered ability
(``declare_keyword(..., meaning=...)``): a creature that has persist -- printed in its
facts, granted by a lord ("creatures you control have persist"), an Aura or an effect until
end of turn -- has the trigger, and one that loses it ("loses all abilities") hasn't.  A
card whose facts list the keyword needs nothing more (``S.vanilla``); :func:`persist` and
:func:`undying` give the same ability to list among a card's own, in printed order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import Triggered
from mtgk.cards.dsl import triggered
from mtgk.cards.keywords import declare_keyword
from mtgk.log import events as ev

if TYPE_CHECKING:
    from mtgk.cards.effects import Ctx
    from mtgk.rules.layers import View

PROVIDER = "mtgk.plugins.persist"


def _returns_with(keyword: str, kind: str) -> Triggered:
    def when(v: View, src: int, e: Any) -> bool:  # looked at as the creature was (look back)
        o = v.state.objects.get(src)
        return bool(e.obj == src and e.from_zone == "battlefield" and e.to_zone == "graveyard"
                    and o is not None and not o.counters.get(kind))

    def effect(c: Ctx) -> None:
        e = c.event
        card = getattr(e, "new_obj", None)
        if card is None or not c.exists(card) or c.state.objects[card].zone != "graveyard":
            return  # it left the graveyard meanwhile: a new object (CR 400.7)
        c.put_onto_battlefield(card, controller=c.state.objects[card].owner,
                               counters={kind: 1})

    return triggered(ev.ZoneChanged, when, effect, look_back=True, text=keyword)


_PERSIST = _returns_with("persist", "-1/-1")
_UNDYING = _returns_with("undying", "+1/+1")


def persist() -> Triggered:
    """Persist: it returns with a -1/-1 counter if it had none (CR 702.79a)."""
    return _PERSIST


def undying() -> Triggered:
    """Undying: it returns with a +1/+1 counter if it had none (CR 702.93a)."""
    return _UNDYING


declare_keyword("persist", PROVIDER, meaning=(_PERSIST,),
                what="returns from the graveyard with a -1/-1 counter (CR 702.79)")
declare_keyword("undying", PROVIDER, meaning=(_UNDYING,),
                what="returns from the graveyard with a +1/+1 counter (CR 702.93)")
