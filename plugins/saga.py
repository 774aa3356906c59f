"""Sagas (CR 714): lore counters, chapter abilities, sacrifice after the last chapter.

* As a Saga enters, it gets a lore counter (``enters_with_counters``), and as its
  controller's precombat main phase begins (after the draw step), another one: a
  turn-based action (a step hook, no stack).
* Chapter N triggers whenever lore counters put on the Saga bring their number
  from below N to N or more (:func:`chapter`).
* A Saga with at least as many lore counters as its final chapter number, that
  isn't the source of a chapter ability still waiting or on the stack, is
  sacrificed (a state-based action).

Define one with :func:`saga_card`: ``saga_card(S, name, chapter(1, ...), ...)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import CardDef, Effect, Registry, Target, Triggered
from mtgk.cards.loading import hookimpl
from mtgk.log import events as ev

if TYPE_CHECKING:
    from collections.abc import Sequence

    from mtgk.cards.dsl import CardSet
    from mtgk.rules.engine import Game
    from mtgk.rules.layers import View

LORE = "lore"


def chapter(n: int, effect: Effect, *targets: Target) -> Triggered:
    """Chapter ``n`` of a Saga (roman numeral ``n``)."""
    def when(v: View, src: int, e: Any) -> bool:
        if e.obj != src or e.kind != LORE:
            return False
        after = v.obj(src).counters.get(LORE, 0)
        return after - e.n < n <= after
    return Triggered((ev.CounterPlaced.TAG,), when, effect, tuple(targets),
                     text=f"chapter {n}")


def saga_card(S: CardSet, name: str, *chapters: Triggered, others: Sequence[Any] = (),
              **extras: Any) -> None:
    """A Saga whose abilities are its chapters (last chapter = number of chapters), then
    ``others``: abilities that are not chapters (e.g. the delayed triggered ability a
    chapter schedules, :func:`mtgk.plugins.delayed.delayed`)."""
    S.card(name, *chapters, *others, enters_with_counters={LORE: 1}, chapters=len(chapters),
           **extras)


def _is_saga(game: Game, oid: int) -> bool:
    return "Saga" in game.chars(oid).subtypes  # an enchantment subtype


def _lore_step(game: Game, step: str, active: int) -> None:
    if step != "precombat_main":
        return
    for oid in list(game.permanents_of_type("Enchantment")):  # battlefield order
        if _is_saga(game, oid) and game.chars(oid).controller == active:
            game.emit(ev.CounterPlaced(obj=oid, kind=LORE, n=1))


def _has_chapters(d: CardDef) -> bool:
    return bool(d.extras.get("chapters"))


def _saga_sba(game: Game) -> list[tuple[str, int, str]]:
    s = game.state
    out: list[tuple[str, int, str]] = []
    for oid in game.permanents_of_type("Enchantment"):
        if not _is_saga(game, oid):
            continue
        last = game.definition(oid).extras.get("chapters", 0)  # (a copy: the copied Saga's)
        if not last or s.objects[oid].counters.get(LORE, 0) < last:
            continue
        if any(it.source == oid and it.kind == "triggered" for it in s.stack + s.pending):
            continue
        out.append(("graveyard", oid, "saga"))
    return out


def register(registry: Registry) -> None:
    if _lore_step not in registry.step_hooks:
        registry.step_hooks.append(_lore_step)
    # (it looks at the stack for the chapter abilities: only in games with a Saga)
    registry.add_sba_check(_saga_sba, reads=("stack",), cards=_has_chapters)


@hookimpl
def mtgk_register(registry: Registry) -> None:
    register(registry)
