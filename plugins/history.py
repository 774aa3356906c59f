"""What has happened: this turn, or while an ability's costs were paid.

* :func:`resolutions_this_turn` -- "If this is the third time this ability has resolved
  this turn" (Ashling the Pilgrim): how many times an activated ability of one object
  has resolved this turn (countered or fizzled ones don't count).
* :func:`activations_this_turn` and :func:`no_more_than` -- "Activate no more than twice
  each turn" (Fire-Belly Changeling): an activation restriction, a part of a cost's
  ``extra`` (:mod:`mtgk.plugins.costs`).
* :func:`sacrificed_for_cost` -- "the sacrificed creature" (Brion Stoutarm): the
  permanents sacrificed to pay the costs of the resolving ability, with their last
  known characteristics (``game.chars`` of the old object).

All of them read the game's log (events of the current turn: see
:func:`mtgk.cards.history.events_this_turn`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgk.cards.history import events_this_turn
from mtgk.log import events as ev

if TYPE_CHECKING:
    from mtgk.cards.effects import Ctx
    from mtgk.rules.engine import Game


def activations_this_turn(game: Game, source: int, ability: str) -> list[int]:
    """The stack items of ability ``ability`` (a key, ``"Card#i"``) of object ``source``
    activated this turn, oldest first."""
    return [e.item for e in events_this_turn(game)
            if isinstance(e, ev.AbilityActivated) and e.source == source and e.ability == ability]


def resolutions_this_turn(c: Ctx) -> int:
    """How many times the resolving activated ability (of the same object) has resolved
    before this turn; the current resolution is not counted yet."""
    mine = activations_this_turn(c.game, c.source, c.item.ability)
    return sum(1 for e in events_this_turn(c.game)
               if isinstance(e, ev.StackItemResolved) and e.item in mine and not e.fizzled)


class NoMoreThan:
    """"Activate no more than N times each turn": a restriction of the ability whose cost
    has it among its ``extra`` parts (nothing to pay)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __repr__(self) -> str:
        return f"activate this ability more than {self.n} times each turn"

    def can_pay(self, game: Game, player: int, source: int) -> bool:
        d = game.definition(source)
        keys = [k for k, ab in d.activated if any(part is self for part in ab.cost.extra)]
        return all(len(activations_this_turn(game, source, k)) < self.n for k in keys)

    def pay(self, game: Game, player: int, source: int) -> None:
        return None


def no_more_than(n: int) -> NoMoreThan:
    """"Activate no more than N times each turn." (``no_more_than(2)``: "twice")."""
    return NoMoreThan(n)


def sacrificed_for_cost(c: Ctx) -> list[int]:
    """The permanents (their old object ids: ``c.chars`` gives their last known
    characteristics) sacrificed to pay the costs of the resolving activated ability."""
    g = c.game
    seq = next((env.seq for env in reversed(g.log) if isinstance(env.event, ev.AbilityActivated)
                and env.event.item == c.item.id), None)
    if seq is None:
        return []
    return [env.event.obj for env in g.log[seq + 1:]
            if env.cause == seq and isinstance(env.event, ev.ZoneChanged)
            and env.event.reason == "sacrifice" and env.event.from_zone == "battlefield"]
