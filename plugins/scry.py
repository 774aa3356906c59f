"""Scry N (CR 701.22): look at the top N cards of your library, put any number of them
on the bottom and the rest on top in any order.

Decisions: ``choose`` the cards to put on the bottom (any number, default none),
then, while more than one card stays on top, ``choose`` the next card from the top.
The new order is recorded as one :class:`LibraryOrdered` event (private to the
library's owner).

Every decision of an arrangement of looked-at cards (scry; "put them back in any
order"; "put the rest on the bottom in any order") carries the context
:func:`arrangement`: ``{"answer": "arrange", "part": ..., "first": ..., "cards": ...}``,
so that one answer can place all the cards (a scenario's
``{arrange: {top: [...], bottom: [...]}}``).  ``part`` is ``"bottom_set"`` (which of
the cards go to the bottom), ``"top"`` (the next card from the top) or ``"bottom"``
(the next card put on the bottom, so below those put there before); ``first`` marks
the arrangement's first decision (asked even with one card: a decision with one option
is taken at once, without asking anyone); ``cards`` are all the cards looked at.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from mtgk.log.events import Event, event
from mtgk.rules.seats import player_index
from mtgk.rules.state import State, register_projector

if TYPE_CHECKING:
    from mtgk.rules.engine import Game


@event
class LibraryOrdered(Event, frozen=True):
    """``player`` rearranged cards of their library: ``order`` is the library, top first."""

    TAG: ClassVar[str] = "LibraryOrdered"
    PRIVATE: ClassVar[tuple[str, ...]] = ("order",)
    player: int
    order: tuple[int, ...]


def _ordered(s: State, e: LibraryOrdered) -> None:
    s.players[e.player].library = list(e.order)


register_projector(LibraryOrdered, _ordered)


def arrangement(part: str, first: bool, cards: Sequence[int]) -> dict[str, Any]:
    """The context of a decision that arranges looked-at cards (see the module docs)."""
    return {"answer": "arrange", "part": part, "first": first, "cards": tuple(cards)}


def put_in_any_order(game: Game, player: int, cards: list[int], prompt: str,
                     first: bool = True, looked: Sequence[int] | None = None) -> list[int]:
    """``player`` puts ``cards`` in any order: while more than one is left, a ``choose``
    decision (``prompt``) for the next one.  The order chosen, first first.  ``first``:
    this begins the arrangement of ``looked`` (default: ``cards``)."""
    keep = list(cards)
    seen = tuple(cards if looked is None else looked)
    if first and len(keep) == 1:  # one option: taken at once (see the module docs)
        game.choose(player, "choose", keep, prompt, context=arrangement("top", True, seen))
    ordered: list[int] = []
    while len(keep) > 1:
        nxt = game.choose(player, "choose", keep, prompt,
                          context=arrangement("top", first, seen))
        first = False
        ordered.append(nxt)
        keep.remove(nxt)
    return ordered + keep


def put_on_bottom_in_any_order(game: Game, player: int, cards: list[int], prompt: str
                               ) -> Iterator[int]:
    """"Put [cards] on the bottom of your library in any order": yields the next card to
    put on the bottom (each below those before it), chosen by ``player`` while more than
    one is left; the caller moves each as it comes."""
    rest = list(cards)
    first = True
    while rest:
        nxt = game.choose(player, "choose", rest, prompt,
                          context=arrangement("bottom", first, cards))
        first = False
        rest.remove(nxt)
        yield nxt


def scry(game: Game, player: int, n: int) -> None:
    """``player`` (an index or a player reference) scries ``n``."""
    player = player_index(game.state, player, "scry")
    lib = list(game.state.players[player].library)
    top = lib[:n]
    if not top:
        return
    bottom = game.choose(player, "choose", top, f"scry {n}: choose cards to put on the bottom",
                         count=len(top), up_to=True,
                         context=arrangement("bottom_set", True, top))
    bottom = [o for o in bottom]
    ordered = put_in_any_order(game, player, [o for o in top if o not in bottom],
                               "scry: the next card from the top", first=False, looked=top)
    new = ordered + lib[n:] + bottom
    if new != lib:
        game.emit(LibraryOrdered(player=player, order=tuple(new)))
