"""Regeneration (CR 701.15; 2007: "Regenerate [permanent]").

"Regenerate [permanent]" sets up a replacement effect, a *regeneration
shield*: the next time that permanent would be destroyed this turn, instead
all damage marked on it is removed, it is tapped, and (if it is attacking or
blocking) it is removed from combat.  Destruction means a "destroy" effect or
lethal damage (deathtouch included); sacrifice, toughness 0 or less, and
"put into the graveyard" are not destruction and can't be regenerated.

A shield is a continuous effect of kind ``regeneration`` on the permanent
(it does nothing in the layers) that lasts until end of turn; it is a
replacement effect of the kernel's mechanism (:mod:`mtgk.rules.replacement`) on
``move`` proposals.  Using it up is recorded as :class:`Regenerated` (which
removes the damage and the shield), followed by ``Tapped`` and
``RemovedFromCombat`` events as needed, so "whenever ~ becomes tapped"
abilities see it.

>>> regenerate  # doctest: +ELLIPSIS
<function regenerate at ...>
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from mtgk.cards.definitions import Effect
from mtgk.log import events as ev
from mtgk.log.events import Event, event
from mtgk.rules.replacement import Proposal, Replacement, register_effect_replacement
from mtgk.rules.state import State, register_projector

if TYPE_CHECKING:
    from mtgk.cards.effects import Ctx
    from mtgk.rules.engine import Game

KIND = "regeneration"
DESTROYED = ("destroy", "sba:lethal-damage")
"""Move reasons that are destruction (a destroy effect; lethal damage, deathtouch)."""


@event
class Regenerated(Event, frozen=True):
    """``obj`` regenerated: the shield ``effect`` is used up and its damage removed."""

    TAG: ClassVar[str] = "Regenerated"
    obj: int
    effect: int


def _regenerated(s: State, e: Regenerated) -> None:
    o = s.objects.get(e.obj)
    if o is not None:
        o.damage = 0
        o.deathtouched = False
    s.effects = [x for x in s.effects if x.id != e.effect]


register_projector(Regenerated, _regenerated)


class RegenerationShield(Replacement):
    """The next time the shielded permanent would be destroyed this turn, regenerate it."""

    key = "regeneration"
    event = "move"
    text = "regenerate"

    def applies(self, game: Game, p: Proposal, source: int) -> bool:
        eff = next((e for e in game.state.effects if e.id == source), None)
        return bool(eff is not None and p["obj"] in eff.objs and p["from_zone"] == "battlefield"
                    and p["reason"] in DESTROYED)

    def apply(self, game: Game, p: Proposal, source: int) -> Proposal | None:
        oid = p["obj"]
        game.emit(Regenerated(obj=oid, effect=source))
        if not game.state.objects[oid].tapped:
            game.emit(ev.Tapped(obj=oid))
        combat = game.state.combat
        if combat is not None and (oid in combat.attackers or oid in combat.blockers):
            game.emit(ev.RemovedFromCombat(obj=oid))
        return None


register_effect_replacement(KIND, RegenerationShield())


def regenerate(c: Ctx, oid: int | None) -> None:
    """"Regenerate [oid]": a shield on it until end of turn (if it is on the battlefield)."""
    if oid is None:
        return
    o = c.state.objects.get(oid)
    if o is not None and o.zone == "battlefield":
        c.until_end_of_turn(KIND, [oid])


def regenerate_target(to: int = 0) -> Effect:
    """"Regenerate target [permanent]" (target number ``to``)."""
    return lambda c: regenerate(c, c.target(to))
