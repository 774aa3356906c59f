"""Bargain (Wilds of Eldraine): "You may sacrifice an artifact, enchantment, or token as
you cast this spell."  An optional additional cost.

A card with bargain is defined with ``bargain=True`` (``S.card(name, ..., bargain=True)``).
As it is cast its controller is asked ``may`` (bargain?) and then ``choose`` what to
sacrifice.  The spell is flagged ``cast_bargained``; a permanent spell passes the flag
on to the permanent, so "if it was bargained" is :func:`bargained`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import Registry
from mtgk.cards.keywords import declare_keyword
from mtgk.cards.loading import hookimpl
from mtgk.log import events as ev

if TYPE_CHECKING:
    from mtgk.rules.engine import Game

FLAG = "cast_bargained"

declare_keyword("bargain", "mtgk.plugins.bargain",
                what="an optional additional cost: sacrifice an artifact, enchantment or token")


def bargained(view: Any, oid: int) -> bool:
    """Whether the spell (or the permanent it became) was bargained."""
    o = view.state.objects.get(oid)
    return bool(o is not None and o.flags.get(FLAG))


def _offer(game: Game, player: int, spell: int) -> None:
    o = game.state.objects.get(spell)
    if o is None:
        return
    d = game.reg[o.flags.get("face") or o.card]
    if not d.extras.get("bargain"):
        return
    options = [p for p in game.state.battlefield
               if game.chars(p).controller == player and
               (game.state.objects[p].token or "Artifact" in game.chars(p).types
                or "Enchantment" in game.chars(p).types)]
    if not options or not game.choose(player, "may", [False, True],
                                      f"bargain {d.name}? (sacrifice an artifact, "
                                      "enchantment or token)"):
        return
    victim = game.choose(player, "choose", options, "bargain: sacrifice which?")
    game.move(victim, "graveyard", reason="sacrifice")
    game.emit(ev.ObjectFlagged(obj=spell, key=FLAG, value=True))


def register(registry: Registry) -> None:
    if _offer not in registry.cast_hooks:
        registry.cast_hooks.append(_offer)


@hookimpl
def mtgk_register(registry: Registry) -> None:
    register(registry)
