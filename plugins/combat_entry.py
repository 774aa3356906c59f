"""Permanents put onto the battlefield attacking (CR 506.3, 508.4).

"Create a 1/1 ... token that's tapped and attacking" (Militia's Pride): the token was
never declared as an attacker, so "whenever ~ attacks" abilities don't trigger for
it.  Its controller chooses which player or planeswalker it attacks, among those an
attacking creature of theirs could attack (decision ``choose`` when there are
several).  Outside combat it just stays on the battlefield.  The change is recorded
as :class:`EnteredAttacking`.

A card's effect says it with :func:`put_onto_battlefield_attacking` ("put it onto the
battlefield tapped and attacking") or :func:`create_tokens_attacking`; "enters tapped"
alone is ``Ctx.put_onto_battlefield(card, tapped=True)`` / ``Ctx.create_token(name,
tapped=True)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from mtgk.log.events import Event, event
from mtgk.rules.state import State, register_projector

if TYPE_CHECKING:
    from mtgk.cards.effects import Ctx
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


def put_onto_battlefield_attacking(c: Ctx, card: int | None, controller: int | None = None,
                                   tapped: bool = True) -> int | None:
    """"Put [card] onto the battlefield tapped and attacking" (CR 506.3): ``card`` enters
    (tapped unless ``tapped=False``, a replacement of how it enters, CR 614.1c) and then
    is attacking -- never declared as an attacker, so "whenever ~ attacks" doesn't trigger;
    its controller chooses which player or planeswalker it attacks among those the combat
    allows.  Outside combat it merely enters.  Its new id."""
    new = c.put_onto_battlefield(card, controller=controller, tapped=tapped)
    if new is not None:
        put_into_combat_attacking(c.game, new, c.game.state.objects[new].controller)
    return new


def create_tokens_attacking(c: Ctx, name: str, n: int = 1, tapped: bool = True
                            ) -> list[int]:
    """"Create N [name] tokens that are tapped and attacking" (``tapped=False``: "...
    that are attacking"), under ``c``'s controller: as
    :func:`put_onto_battlefield_attacking`.  Their ids."""
    made = c.create_token(name, n, tapped=tapped)
    for tok in made:
        put_into_combat_attacking(c.game, tok, c.controller)
    return made
