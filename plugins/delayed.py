"""Delayed triggered abilities (CR 603.7): "at the beginning of your next main phase, ...".

A card lists the delayed ability among its abilities (it never triggers by
itself); its spell or ability schedules it as it resolves::

    S.card("Scattering Stroke", spell(_stroke, target(a_spell)), delayed(_add_mana))

    def _stroke(c: Ctx) -> None:
        ...
        at_your_next(c, MAIN_PHASES, data={"mana": 3})

Scheduling creates a continuous effect of kind ``delayed_trigger``; the engine
triggers the ability (controlled by the scheduling player) the first time a
matching event happens, then ends the effect.  The ability's effect reads
``c.item.data``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kernel import events as ev
from kernel.cards import Effect, Triggered

if TYPE_CHECKING:
    from kernel.effects import Ctx

MAIN_PHASES = ("precombat_main", "postcombat_main")


@dataclass(frozen=True)
class DelayedAbility(Triggered):
    """A triggered ability that exists only once a spell or ability schedules it."""


def delayed(effect: Effect, text: str = "delayed") -> DelayedAbility:
    """The delayed triggered ability a card's spell or ability can schedule."""
    return DelayedAbility((), lambda v, s, e: False, effect, zones=(), text=text)


def schedule(c: Ctx, on: type[ev.Event], match: dict[str, Any] | None = None,
             active: int | None = None, data: Any = None) -> None:
    """Schedule the source card's delayed ability: it triggers the next time an event
    ``on`` whose fields match ``match`` (a value or a list of values) happens (during
    ``active``'s turn, if given)."""
    d = c.game.reg[c.item.source_card]
    idx = next(i for i, a in enumerate(d.abilities) if isinstance(a, DelayedAbility))
    c.forever("delayed_trigger", [], {"on": on.TAG, "match": dict(match or {}),
                                      "active": active, "ability": f"{d.name}#{idx}",
                                      "data": data})


def at_your_next(c: Ctx, steps: Sequence[str], data: Any = None) -> None:
    """"At the beginning of your next [step]" (any of ``steps``)."""
    schedule(c, ev.StepBegan, {"step": list(steps)}, active=c.controller, data=data)
