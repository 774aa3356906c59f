"""Lorwyn's Equipment: Deathrender and Runed Stalactite.

Equipment is :mod:`mtgk.plugins.equipment`'s: ``equipped(power, toughness, grant,
effect)`` is the static ability on the equipped creature (Runed Stalactite's "is every
creature type" is a layer-4 ``add_all_creature_types`` effect) and ``equip(cost)`` the
equip ability; "whenever equipped creature dies" is a look-back trigger on the creature's
move to the graveyard.
"""

from __future__ import annotations

from typing import Any

from mtgk.cards.dsl import me, triggered
from mtgk.cards.effects import Ctx
from mtgk.log import events as ev
from mtgk.plugins.equipment import equip, equipped
from mtgk.rules.layers import View

from .cards import S

_EARLIER = set(S.defs)


def _equipped_dies(v: View, src: int, e: Any) -> bool:
    """Whenever equipped creature dies ..."""
    host = v.obj(src).attached_to
    return bool(host and e.obj == host and e.from_zone == "battlefield"
                and e.to_zone == "graveyard" and v.chars(host).is_creature)


def _deathrender(c: Ctx) -> None:
    """... you may put a creature card from your hand onto the battlefield and attach ~
    to it."""
    v = c.game.view()
    cards = [o for o in c.state.players[c.you].hand if v.chars(o).is_creature]
    if not cards or not c.may("put a creature card from your hand onto the battlefield?"):
        return
    new = c.put_onto_battlefield(c.choose(cards, prompt="put which creature card?"))
    if new is not None and me(c) is not None and c.state.objects[new].zone == "battlefield" \
            and c.chars(new).is_creature:
        c.game.emit(ev.Attached(obj=c.source, to=new))


S.card("Deathrender",
       equipped(2, 2),
       triggered(ev.ZoneChanged, _equipped_dies, _deathrender, look_back=True,
                 text="whenever equipped creature dies"),
       equip("{2}"))

S.card("Runed Stalactite",
       equipped(1, 1, (), ("4", "add_all_creature_types", None)),
       equip("{2}"))


#: The cards this module defines (tokens included), in definition order.
CARDS: list[str] = [n for n in S.defs if n not in _EARLIER]
