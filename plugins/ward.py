"""Ward (CR 702.21): "Whenever this permanent becomes the target of a spell or ability
an opponent controls, counter it unless that player pays [cost]."

Ward is a triggered ability; :func:`ward` builds it for a card's ability list::

    S.card("Some Creature", ward("{1}"))

A permanent *granted* ward (e.g. by a Royal Role) gets both the keyword, so that
``has("ward")`` holds, and the key of the card's ward trigger (see
:func:`mtgk.cards.definitions.Registry.grantable`).  Hexproof and ward only matter for
targets: a Role created attached to a warded creature does not target it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import Triggered
from mtgk.log import events as ev
from mtgk.rules.state import stack_controller

if TYPE_CHECKING:
    from mtgk.cards.effects import Ctx
    from mtgk.rules.layers import View

ON = (ev.SpellCast.TAG, ev.AbilityActivated.TAG, ev.TriggerPutOnStack.TAG)


def _item_and_targets(v: View | None, e: Any) -> tuple[int, tuple[int, ...]]:
    if isinstance(e, ev.SpellCast):
        return e.new_obj, e.targets
    if isinstance(e, ev.AbilityActivated | ev.TriggerPutOnStack):
        return e.item, e.targets
    return 0, ()


def ward(cost: str) -> Triggered:
    """Ward [cost]: counter a spell or ability an opponent controls that targets this
    permanent unless its controller pays ``cost``."""
    def when(v: View, src: int, e: Any) -> bool:
        item, targets = _item_and_targets(v, e)
        if src not in targets:
            return False
        who = stack_controller(v.state, item)
        return who is not None and who != v.chars(src).controller

    def effect(c: Ctx) -> None:
        item, _t = _item_and_targets(None, c.event)
        who = stack_controller(c.state, item)
        if who is None:
            return  # it already left the stack
        if not c.pay(who, cost, f"ward: pay {cost} or {c.game.name(item)} is countered"):
            c.counter(item)

    return Triggered(ON, when, effect, text=f"ward {cost}")
