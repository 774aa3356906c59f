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

from mtgk.cards.definitions import CardDef, Effect, Mode, Target, Triggered
from mtgk.cards.dsl import ENTERS
from mtgk.cards.effects import Ctx
from mtgk.log import events as ev

if TYPE_CHECKING:
    from mtgk.rules.engine import Game
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
    _trigger(c.game, c.game.reg[name], c.source, ability, c.controller, data)


def when_you_do_as_cast(game: Game, spell: int, ability: Triggered, controller: int,
                        data: Any = None) -> None:
    """A cost paid as spell ``spell`` is cast did the action: ``ability`` (a
    :func:`reflexive` of the spell's card) triggers, with the spell as its source.  For an
    optional cost's ``pay(game, player, spell)``: conspire's "When you do, copy it" goes
    on the stack above the spell once it is cast (CR 702.78a, 603.12)."""
    _trigger(game, game.card(spell), spell, ability, controller, data)


def _trigger(game: Game, d: CardDef, source: int, ability: Triggered, controller: int,
             data: Any) -> None:
    idx = next((i for i, a in enumerate(d.abilities) if a is ability), None)
    if idx is None:
        raise ValueError(f"{d.name}: the reflexive ability that triggered is not among "
                         "its abilities (list reflexive(...) in its card definition)")
    game.emit(ev.AbilityTriggered(item=game.new_id(), source=source,
                                  ability=f"{d.name}#{idx}", controller=controller,
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
