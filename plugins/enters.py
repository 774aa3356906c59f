"""How permanents enter the battlefield: choices made as they enter, and static abilities
that make other permanents enter tapped.

* :func:`choose_as_enters` -- "As ~ enters the battlefield, choose odd or even." (CR
  614.12: a replacement effect, not a triggered ability): the card is defined with
  ``as_enters=choose_as_enters(["odd", "even"])``; its controller chooses (decision kind
  ``choose``) and the choice is recorded on the permanent as the flag ``chosen``
  (:func:`chosen`).
* :func:`enters_tapped_if` -- "Each creature without ... enters the battlefield
  tapped": a static ability with an ``enters_tapped(view, source, obj)`` that the
  kernel asks as any permanent enters, a card or a token.
* :func:`enters_with_counters_if` -- "Each other Elf you control enters the
  battlefield with an additional +1/+1 counter on it": a static ability with an
  ``enters_with_counters(view, source, obj) -> {kind: n}`` that the kernel asks as any
  permanent enters, a card or a token.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import Static
from mtgk.log import events as ev

if TYPE_CHECKING:
    from mtgk.rules.engine import Game
    from mtgk.rules.layers import View

CHOSEN = "chosen"


def choose_as_enters(options: Sequence[Any], prompt: str = "") -> Callable[[Game, int], None]:
    """"As ~ enters, choose [one of options]"."""
    def as_enters(game: Game, new: int) -> None:
        who = game.state.objects[new].controller
        pick = game.choose(who, "choose", list(options),
                           prompt or f"as {game.name(new)} enters, choose one")
        game.emit(ev.ObjectFlagged(obj=new, key=CHOSEN, value=pick))
    return as_enters


def chosen(view: View | Any, oid: int) -> Any:
    """What was chosen as permanent ``oid`` entered (``None`` if nothing)."""
    o = view.state.objects.get(oid)
    return None if o is None else o.flags.get(CHOSEN)


@dataclass(frozen=True)
class EntersTapped(Static):
    """A static ability making permanents enter tapped (see ``Game._entered``)."""

    enters_tapped: Callable[[View, int, int], bool] | None = None


def enters_tapped_if(applies: Callable[[View, int, int], bool], text: str) -> Static:
    """"[Permanents] enter the battlefield tapped": ``applies(view, source, obj)`` says
    which (``obj`` is on the battlefield already, with its characteristics there)."""
    return EntersTapped(lambda v, s: [], text, enters_tapped=applies)


@dataclass(frozen=True)
class EntersWithCounters(Static):
    """A static ability putting counters on permanents as they enter (see
    :func:`enters_with_counters_if`)."""

    enters_with_counters: Callable[[View, int, int], dict[str, int] | None] | None = None


def enters_with_counters_if(applies: Callable[[View, int, int], bool], counters: dict[str, int],
                            text: str) -> Static:
    """"[Permanents] enter the battlefield with [counters] on them": ``applies(view, source,
    obj)`` says which (``obj`` is on the battlefield already, with its characteristics
    there); ``counters`` e.g. ``{"+1/+1": 1}``."""
    given = dict(counters)

    def hook(v: View, src: int, obj: int) -> dict[str, int] | None:
        return given if applies(v, src, obj) else None
    return EntersWithCounters(lambda v, s: [], text, enters_with_counters=hook)
