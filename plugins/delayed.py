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

An event matches when its fields have the values ``match`` gives and, if the
delayed ability has a ``condition`` (``condition(view, you, event)``, ``you``
being the player who scheduled it), when that holds too: "when you next cast an
instant or sorcery spell with mana value 3 or less this turn" is::

    delayed(_copy_it, condition=_instant_or_sorcery_mv_3)   # an ability of the card
    schedule(c, ev.SpellCast, {"controller": c.controller}, this_turn=True, with_event=True)

``this_turn``: the ability can trigger only until the turn ends (the effect ends in
the cleanup step).  ``with_event``: the triggered ability carries the event that
triggered it instead of ``data``, so its effect reads it as ``c.event`` (e.g. the
spell cast, ``c.event.new_obj``), as an ordinary triggered ability's does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import Effect, Triggered
from mtgk.log import events as ev

if TYPE_CHECKING:
    from mtgk.cards.effects import Ctx
    from mtgk.rules.layers import View

MAIN_PHASES = ("precombat_main", "postcombat_main")


@dataclass(frozen=True)
class DelayedAbility(Triggered):
    """A triggered ability that exists only once a spell or ability schedules it.

    ``condition(view, you, event)``, if given, must also hold for an event to trigger
    it (``you``: the player who scheduled it, its controller)."""

    condition: Callable[[View, int, Any], bool] | None = None


def delayed(effect: Effect, text: str = "delayed",
            condition: Callable[[View, int, Any], bool] | None = None) -> DelayedAbility:
    """The delayed triggered ability a card's spell or ability can schedule; ``condition``
    (view, you, event) is what the triggering event must satisfy beyond its fields."""
    return DelayedAbility((), lambda v, s, e: False, effect, zones=(), text=text,
                          condition=condition)


def schedule(c: Ctx, on: type[ev.Event], match: dict[str, Any] | None = None,
             active: int | None = None, data: Any = None, this_turn: bool = False,
             with_event: bool = False) -> None:
    """Schedule the source card's delayed ability: it triggers the next time an event
    ``on`` whose fields match ``match`` (a value or a list of values) happens (during
    ``active``'s turn, if given) and the ability's ``condition`` holds.  ``this_turn``:
    only until this turn ends.  ``with_event``: the ability's effect gets the triggering
    event as ``c.event`` (then it has no ``data``)."""
    if with_event and data is not None:
        raise ValueError("a delayed ability gets either the triggering event or data")
    # the card whose ability this is: a copy's (Shapesharer as Galepowder Mage) is the
    # copied card's, named by the ability's key, not the printed card (CR 707.2, 603.7)
    d = c.game.reg.cards.get(c.item.ability.rpartition("#")[0]) or \
        c.game.reg[c.item.source_card]
    idx = next(i for i, a in enumerate(d.abilities) if isinstance(a, DelayedAbility))
    params = {"on": on.TAG, "match": dict(match or {}), "active": active,
              "ability": f"{d.name}#{idx}", "data": data}
    if with_event:
        params["event"] = True
    if this_turn:
        c.until_end_of_turn("delayed_trigger", [], params)
    else:
        c.forever("delayed_trigger", [], params)


def at_your_next(c: Ctx, steps: Sequence[str], data: Any = None) -> None:
    """"At the beginning of your next [step]" (any of ``steps``)."""
    schedule(c, ev.StepBegan, {"step": list(steps)}, active=c.controller, data=data)
