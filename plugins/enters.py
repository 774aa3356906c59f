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
* :func:`enter_as_copy` -- "You may have ~ enter the battlefield as a copy of any
  creature on the battlefield" (CR 707.5, 614.1c): defined with
  ``as_enters=enter_as_copy(creature)``; it *enters* as the copy, so the copied card's
  "enters with" and "as ~ enters" abilities apply to it and its "when ~ enters"
  abilities trigger.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import Static
from mtgk.cards.filters import Filter, creature
from mtgk.log import events as ev
from mtgk.rules.layers import copiable_name

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


def enter_as_copy(of: Filter = creature, prompt: str = "") -> Callable[[Game, int], None]:
    """"You may have ~ enter the battlefield as a copy of any [permanent ``of`` matches] on
    the battlefield" (CR 707.5, 614.1c: a replacement effect, it doesn't enter and then
    become a copy).

    As it enters, its controller may choose one (decision kind ``choose``, up to one; a
    scenario answers ``{choose: NAME}`` or ``{choose: []}``); nothing is targeted, so
    shroud doesn't stop it, and it can't choose itself or a permanent entering with it.
    It becomes a copy (layer 1, no end) of the chosen permanent's copiable values as they
    are then (a copy of a copy copies what that copies; counters, damage and tapped status
    aren't copied).  The copied card's "as ~ enters" choice, "enters tapped" and "enters
    with counters" apply to it, and the copied card's "when ~ enters" abilities trigger.
    Declining, it enters as itself (a 0/0 Clone then dies).  The copy's own timestamp is
    the moment it entered."""
    def as_enters(game: Game, new: int) -> None:
        o = game.state.objects[new]
        v = game.view()
        together = game.entering_together()
        options = [p for p in game.state.battlefield
                   if p != new and p not in together and of(v, p, o.controller, new)]
        if not options:
            return
        pick = game.choose(o.controller, "choose", options,
                           prompt or f"{game.name(new)} may enter as a copy of",
                           count=1, up_to=True)
        if pick:
            game.add_effect("copy", [new], copiable_name(game.chars(pick[0])), new,
                            o.controller, "")
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
