"""The Incarnations' mechanics (Lorwyn primer, "Cycle: Incarnations").

* :func:`put_into_graveyard_from_anywhere` -- "When ~ is put into a graveyard from
  anywhere, ...": it triggers *from the graveyard* (``zones=("graveyard",)``, no
  look-back), after the card got there from any zone -- hand, library, stack or
  battlefield.  So it triggers even if the permanent had lost the ability on the
  battlefield (the card in the graveyard has it), not if the card lacks it in the
  graveyard, and not if a replacement effect put it somewhere else instead.
* :func:`shuffle_into_owners_library` -- "shuffle it into its owner's library":
  nothing happens if the card left the graveyard before the ability resolved (it
  is a new object then).
* :class:`Prevent` -- a static ability "If [damage] would be dealt ..., prevent
  that damage. [Then ...]": a prevention effect of the kernel's replacement
  mechanism (:mod:`mtgk.rules.replacement`); the prevented damage is recorded as
  ``DamagePrevented`` and is not dealt.
* :func:`cant_be_blocked_except_by` -- "can't be blocked except by N or more
  creatures" (the kernel's ``min_blockers:N`` ability, like menace's 2).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import Static, Triggered
from mtgk.cards.dsl import static
from mtgk.cards.effects import Ctx
from mtgk.log import events as ev
from mtgk.plugins.prevention import DamagePrevented
from mtgk.rules.replacement import Proposal, Replacement

if TYPE_CHECKING:
    from mtgk.rules.engine import Game
    from mtgk.rules.layers import View


def put_into_graveyard_from_anywhere(effect: Callable[[Ctx], None],
                                     text: str = "put into a graveyard from anywhere"
                                     ) -> Triggered:
    """"When ~ is put into a graveyard from anywhere, [effect]" (checked from the
    graveyard, so the card there must have the ability)."""
    def when(v: View, src: int, e: Any) -> bool:
        return bool(e.new_obj == src and e.to_zone == "graveyard")
    return Triggered((ev.ZoneChanged.TAG,), when, effect, zones=("graveyard",), text=text)


def shuffle_into_owners_library(c: Ctx) -> None:
    """Shuffle it (this card, if it is still in the graveyard) into its owner's library."""
    o = c.state.objects.get(c.source)
    if o is None or o.zone != "graveyard":
        return
    c.game.move(c.source, "library", reason="shuffle")
    c.shuffle(o.owner)


class Prevent(Replacement):
    """"If [``when``] damage would be dealt ..., prevent that damage." and then
    ``then(game, proposal, source, amount_prevented)`` ("You gain life equal to the
    damage prevented this way")."""

    event = "damage"

    def __init__(self, key: str, when: Callable[[Game, Proposal, int], bool],
                 then: Callable[[Game, Proposal, int, int], None], text: str = "") -> None:
        self.key = key
        self.when = when
        self.then = then
        self.text = text

    def applies(self, game: Game, p: Proposal, source: int) -> bool:
        return bool(p["amount"] > 0 and self.when(game, p, source))

    def apply(self, game: Game, p: Proposal, source: int) -> Proposal | None:
        n = int(p["amount"])
        game.emit(DamagePrevented(source=p["source"], target=p["target"], amount=n))
        self.then(game, p, source, n)
        return None  # all of it is prevented: no damage is dealt


def cant_be_blocked_except_by(n: int) -> Static:
    """"~ can't be blocked except by N or more creatures." """
    def effects(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
        return [("6", "grant", [src], [f"min_blockers:{n}"])]
    return static(effects, f"can't be blocked except by {n} or more creatures", ("6",),
                  frozenset())
