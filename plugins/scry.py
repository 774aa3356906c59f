"""Scry N (CR 701.22): look at the top N cards of your library, put any number of them
on the bottom and the rest on top in any order.

Decisions: ``choose`` the cards to put on the bottom (any number, default none),
then, while more than one card stays on top, ``choose`` the next card from the top.
The new order is recorded as one :class:`LibraryOrdered` event (private to the
library's owner).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from kernel.events import Event, event
from kernel.state import State, register_projector

if TYPE_CHECKING:
    from kernel.engine import Game


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


def put_in_any_order(game: Game, player: int, cards: list[int], prompt: str) -> list[int]:
    """``player`` puts ``cards`` in any order: while more than one is left, a ``choose``
    decision (``prompt``) for the next one.  The order chosen, first first."""
    keep = list(cards)
    ordered: list[int] = []
    while len(keep) > 1:
        nxt = game.choose(player, "choose", keep, prompt)
        ordered.append(nxt)
        keep.remove(nxt)
    return ordered + keep


def scry(game: Game, player: int, n: int) -> None:
    """``player`` scries ``n``."""
    lib = list(game.state.players[player].library)
    top = lib[:n]
    if not top:
        return
    bottom = game.choose(player, "choose", top, f"scry {n}: choose cards to put on the bottom",
                         count=len(top), up_to=True)
    bottom = [o for o in bottom]
    ordered = put_in_any_order(game, player, [o for o in top if o not in bottom],
                               "scry: the next card from the top")
    new = ordered + lib[n:] + bottom
    if new != lib:
        game.emit(LibraryOrdered(player=player, order=tuple(new)))
