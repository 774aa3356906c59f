"""Shared helpers for cards that care about creature types (Lorwyn's tribes).

Imported by card modules (``cardsets/lorwyn/tribal.py``); they follow the
filter vocabulary of :mod:`mtgk.cards.filters` (see ``docs/filters.md``):

* "for each Elf you control" -- :func:`for_each` (``kind("Elf")``: permanents);
* "If you control a Kithkin, ..." -- :func:`if_you_control` (never counts spells,
  not even the spell asking);
* "Choose a creature type" -- :func:`choose_creature_type` (decision kind
  ``creature_type``, options: every creature type, sorted);
* "reveal a Merfolk card from your hand" -- :func:`reveal_from_hand`, and for the
  lands that enter tapped unless you do, :func:`unless_you_reveal`;
* "Creatures target player controls ..." -- :func:`creatures_of`.

>>> from mtgk.cards.filters import kind
>>> for_each(kind("Elf"))
for_each(kind('Elf').you_control())
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import Effect
from mtgk.cards.filters import Filter, creature, matching
from mtgk.log import events as ev
from mtgk.rules.subtypes import creature_types

if TYPE_CHECKING:
    from mtgk.cards.effects import Ctx
    from mtgk.rules.engine import Game



class for_each:  # noqa: N801 - reads like the card text
    """"for each [f] you control": ``for_each(kind("Elf"))(ctx)`` counts them now."""

    def __init__(self, f: Filter) -> None:
        self.f = f.you_control()

    def __repr__(self) -> str:
        return f"for_each({self.f!r})"

    def __call__(self, c: Ctx) -> int:
        return c.count(self.f)


def you_control_a(c: Ctx, f: Filter) -> bool:
    """"you control a [f]": a permanent only, never a spell (CR 212.8 in the 2007 rules)."""
    return c.count(f.you_control()) > 0


def if_you_control(f: Filter, effect: Effect) -> Effect:
    """"If you control a [f], [effect]" (checked as the spell or ability resolves)."""
    def eff(c: Ctx) -> None:
        if you_control_a(c, f):
            effect(c)
    return eff


def creature_type_options() -> list[str]:
    """The answers to "choose a creature type": every creature type, sorted."""
    return sorted(creature_types())


def choose_creature_type(c: Ctx, player: int | None = None,
                         prompt: str = "choose a creature type") -> str:
    """Ask for a creature type (decision kind ``creature_type``; a scenario answers
    ``{choose: Elf}``).  Any creature type of the Comprehensive Rules may be chosen."""
    return str(c.choose(creature_type_options(), kind="creature_type", player=player,
                        prompt=prompt))


def cards_in_hand(game: Game, player: int, f: Filter, exclude: Sequence[int] = ()) -> list[int]:
    """Cards in ``player``'s hand that ``f`` accepts (a changeling card is every type)."""
    v = game.view()
    return [o for o in game.state.players[player].hand
            if o not in exclude and f(v, o, player, 0)]


def reveal_from_hand(game: Game, player: int, f: Filter, exclude: Sequence[int] = (),
                     optional: bool = True, prompt: str = "") -> int | None:
    """"(You may) reveal a [f] card from your hand": if ``optional``, a ``may`` decision
    (default no); then the player picks one (a ``choose`` decision, asked only if there
    are several), it is revealed (a :class:`~mtgk.log.events.Revealed` event) and returned.
    ``None`` if there is none or the player declines."""
    cands = cards_in_hand(game, player, f, exclude)
    if not cands:
        return None
    text = prompt or f"reveal a card ({f!r}) from your hand"
    if optional and not game.choose(player, "may", [False, True], text):
        return None
    pick = game.choose(player, "choose", cands, text)
    game.emit(ev.Revealed(player=player, objs=(int(pick),)))
    return int(pick)


def unless_you_reveal(f: Filter) -> Callable[[Game, int], bool]:
    """For ``enters_tapped``: "As ~ enters the battlefield, you may reveal a [f] card from
    your hand.  If you don't, ~ enters the battlefield tapped" (the Lorwyn tribal lands).
    The controller answers ``may`` (and ``choose``: which card) if they have such a card."""
    def enters_tapped(game: Game, new: int) -> bool:
        who = game.state.objects[new].controller
        return reveal_from_hand(game, who, f, optional=True,
                                prompt=f"reveal a card ({f!r}) so that "
                                       f"{game.name(new)} enters untapped?") is None
    return enters_tapped


def creatures_of(c: Ctx, player: int | None) -> list[int]:
    """The creatures ``player`` controls now (locked in as the effect begins)."""
    if player is None:
        return []
    v = c.game.view()
    return [o for o in matching(v, creature, c.controller, c.source)
            if v.chars(o).controller == player]


def until_eot(c: Ctx, objs: Sequence[int | None], *parts: tuple[str, Any]) -> None:
    """Several continuous effects on the same objects until end of turn, in order:
    ``until_eot(c, objs, ("pt", [2, 0]), ("add_all_creature_types", None))``."""
    live = [o for o in objs if o is not None]
    if not live:
        return
    for kind, params in parts:
        c.until_end_of_turn(kind, live, params)
