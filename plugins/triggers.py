"""Reflexive and modal triggered abilities.

Reflexive (CR 603.12): "you may pay {1}. When you do, create ... attached to target
creature you control."  The reflexive ability is listed among the card's abilities
(:func:`reflexive`; it never triggers by itself) and triggers when the resolving
ability does the action (:func:`when_you_do`); it goes on the stack the next time
a player would receive priority, choosing its targets then.  ``c.item.data`` is
what the triggering ability passed on ("that creature").

Modal (CR 603.3c): "When ~ enters, choose one -- ..." is :func:`modal_trigger`:
the kernel asks the ``modes`` decision as the ability is put on the stack, then
each chosen mode's targets; each mode resolves with its own targets.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import Effect, Mode, Target, Triggered
from mtgk.cards.dsl import ENTERS
from mtgk.cards.effects import Ctx
from mtgk.log import events as ev

if TYPE_CHECKING:
    from mtgk.rules.layers import View


def _never(v: Any, src: int, e: Any) -> bool:
    return False


def reflexive(effect: Effect, *targets: Target, text: str = "when you do") -> Triggered:
    """A reflexive triggered ability ("When you do, ...") of the card it is listed on."""
    return Triggered((), _never, effect, tuple(targets), zones=(), text=text)


def when_you_do(c: Ctx, ability: Triggered, data: Any = None) -> None:
    """The resolving spell or ability did the action: ``ability`` (a :func:`reflexive`
    of the same card) triggers."""
    name = c.item.ability.rpartition("#")[0] or c.item.source_card
    d = c.game.reg[name]
    idx = next(i for i, a in enumerate(d.abilities) if a is ability)
    c.game.emit(ev.AbilityTriggered(item=c.game.new_id(), source=c.source,
                                    ability=f"{d.name}#{idx}", controller=c.controller,
                                    data=data))


def modal_trigger(on: Sequence[str], when: Callable[[View, int, Any], bool], choose: int,
                  *modes: Mode, look_back: bool = False, text: str = "") -> Triggered:
    """A triggered ability with modes ("choose one -- ..."): ``on`` event tags."""
    def effect(c: Ctx) -> None:
        pos = 0
        for m in sorted(c.modes):
            mode = modes[m - 1]
            n = sum(t.count for t in mode.targets)
            sub = Ctx(c.game, c.item, c.legal, event=c.event)
            sub.targets = c.targets[pos:pos + n]
            sub.legal = c.legal[pos:pos + n]
            pos += n
            if n and not any(sub.legal):
                continue
            mode.effect(sub)
    return Triggered(tuple(on), when, effect, (), look_back=look_back, text=text,
                     modes=tuple(modes), choose=choose)


def etb_modal(choose: int, *modes: Mode) -> Triggered:
    """"When ~ enters, choose one -- ..." """
    return modal_trigger(ENTERS, lambda v, src, e: ev.entered(e) == src, choose, *modes,
                         text="etb (modal)")
