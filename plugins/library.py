"""Looking at and rearranging the top of a library.

"Look at the top N cards of your library, then put them back in any order"
(Ponder, Inkfathom Divers, Gilt-Leaf Seer): :func:`look_and_reorder`.  The look is a
``Revealed`` event shown to that player only; while more than one card is left, the
player chooses the next card from the top (decision ``choose``, with the context
:func:`mtgk.plugins.scry.arrangement`; a scenario answers ``{arrange: {top: [NAMES]}}``).  A new order is recorded as one
:class:`mtgk.plugins.scry.LibraryOrdered` event (private to the library's owner).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgk.log import events as ev
from mtgk.plugins.scry import LibraryOrdered, put_in_any_order
from mtgk.rules.seats import player_index

if TYPE_CHECKING:
    from mtgk.rules.engine import Game


def look_and_reorder(game: Game, player: int, n: int) -> None:
    """``player`` looks at the top ``n`` cards of their library, then puts them back in any
    order (``player``: an index or a player reference)."""
    player = player_index(game.state, player, "look_and_reorder")
    lib = list(game.state.players[player].library)
    top = lib[:n]
    if not top:
        return
    game.emit(ev.Revealed(player=player, objs=tuple(top), to=(player,)))
    ordered = put_in_any_order(game, player, top, "put back: the next card from the top",
                               looked=top)
    new = ordered + lib[len(top):]
    if new != lib:
        game.emit(LibraryOrdered(player=player, order=tuple(new)))
