"""Fighting (CR 701.12) and "if that creature would die this turn, exile it instead".

``fight(c, a, b)``: each of two creatures deals damage equal to its power to the
other.  If either is no longer on the battlefield (or ``b`` is ``None``, as in
"fights up to one target creature" with no target), no damage is dealt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgk.cards.definitions import Registry
from mtgk.cards.loading import hookimpl
from mtgk.rules.replacement import Proposal, Replacement, register_effect_replacement

if TYPE_CHECKING:
    from mtgk.cards.effects import Ctx
    from mtgk.rules.engine import Game

EXILE_IF_DIES = "exile_if_dies"


def _on_battlefield(c: Ctx, oid: int | None) -> bool:
    return oid is not None and oid in c.state.objects and \
        c.state.objects[oid].zone == "battlefield" and c.chars(oid).is_creature


def fight(c: Ctx, a: int | None, b: int | None) -> None:
    """Creature ``a`` fights creature ``b``."""
    if a is None or b is None or a == b or not (_on_battlefield(c, a) and _on_battlefield(c, b)):
        return
    pa, pb = c.power(a), c.power(b)
    c.damage(b, pa, source=a)
    c.damage(a, pb, source=b)


def exile_if_dies_this_turn(c: Ctx, oid: int | None) -> None:
    """"If that creature would die this turn, exile it instead." """
    if oid is not None:
        c.until_end_of_turn(EXILE_IF_DIES, [oid])


class ExileIfDies(Replacement):
    key = EXILE_IF_DIES
    event = "move"

    def applies(self, game: Game, p: Proposal, source: int) -> bool:
        eff = next((e for e in game.state.effects if e.id == source), None)
        return (eff is not None and p["obj"] in eff.objs and p["from_zone"] == "battlefield"
                and p["to_zone"] == "graveyard")

    def apply(self, game: Game, p: Proposal, source: int) -> Proposal | None:
        return dict(p, to_zone="exile")


def register(registry: Registry) -> None:
    register_effect_replacement(EXILE_IF_DIES, ExileIfDies())


@hookimpl
def mtgk_register(registry: Registry) -> None:
    register(registry)

