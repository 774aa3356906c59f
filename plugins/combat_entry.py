"""Permanents put onto the battlefield attacking (CR 506.3, 508.4).

"Create a 1/1 ... token that's tapped and attacking" (Militia's Pride): the token was
never declared as an attacker, so "whenever ~ attacks" abilities don't trigger for
it.  Its controller chooses which player or planeswalker it attacks, among those an
attacking creature of theirs could attack (decision ``choose`` when there are
several).  Outside combat it just stays on the battlefield.  The change is recorded
as :class:`EnteredAttacking`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from mtgk.log.events import Event, event
from mtgk.rules.state import State, register_projector

if TYPE_CHECKING:
    from mtgk.rules.engine import Game


@event
class EnteredAttacking(Event, frozen=True):
    """``obj`` is now an attacking creature, attacking ``attacking`` (a player Ref or a
    planeswalker)."""

    TAG: ClassVar[str] = "EnteredAttacking"
    obj: int
    attacking: int


def _entered_attacking(s: State, e: EnteredAttacking) -> None:
    if s.combat is not None:
        s.combat.attackers[e.obj] = e.attacking


register_projector(EnteredAttacking, _entered_attacking)


def put_into_combat_attacking(game: Game, oid: int, controller: int) -> None:
    """``oid`` (just put onto the battlefield) is attacking, if there is a combat."""
    s = game.state
    if s.combat is None or oid not in s.objects or s.objects[oid].zone != "battlefield":
        return
    options = game.attack_targets(controller)
    where = game.choose(controller, "choose", options,
                        f"which player or planeswalker does {game.name(oid)} attack?")
    game.emit(EnteredAttacking(obj=oid, attacking=where))
