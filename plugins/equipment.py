"""Equipment (CR 301.5, 702.6).

* :func:`equip` -- "Equip [cost]": "[Cost]: Attach this permanent to target creature you
  control. Activate only as a sorcery."  Attaching is an ``Attached`` event (a new
  timestamp for the Equipment); nothing happens if the Equipment has left the
  battlefield or is already attached to that creature.
* :func:`equipped` -- "Equipped creature gets +P/+T and has ..." (a static ability of
  the Equipment, like an Aura's).
* The kernel's state-based action (CR 704.5n) unattaches an Equipment attached to a
  permanent that isn't a creature (or has protection from it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import Activated, Static
from mtgk.cards.dsl import activated, gets_and_has, pt_and_grant_layers, static, target
from mtgk.cards.filters import creature
from mtgk.cards.keywords import declare_keyword
from mtgk.log import events as ev
from mtgk.rules.names import Layer

if TYPE_CHECKING:
    from mtgk.cards.effects import Ctx
    from mtgk.rules.layers import View

declare_keyword("equip", "mtgk.plugins.equipment",
                what="attach to target creature you control, as a sorcery",
                ability=False)  # (its activated ability is the ability)


def _attach(c: Ctx) -> None:
    t = c.target(0)
    o = c.state.objects.get(c.source)
    if t is None or o is None or o.zone != "battlefield" or o.attached_to == t:
        return
    if c.chars(c.source).controller != c.controller:
        return
    c.game.emit(ev.Attached(obj=c.source, to=t))


def equip(cost: str) -> Activated:
    """"Equip [cost]"."""
    return activated(cost, _attach, target(creature.you_control()), sorcery=True,
                     text=f"equip {cost}")


def equipped_creature(v: View, src: int) -> list[int]:
    """The creature an Equipment is attached to, as a list (empty if none)."""
    o = v.state.objects.get(src)
    host = o.attached_to if o is not None else 0
    if not host or host not in v.state.objects or v.state.objects[host].zone != "battlefield":
        return []
    return [host]


def equipped(power: int = 0, toughness: int = 0, grant: Sequence[str] = (),
             *more: tuple[Layer, str, Any]) -> Static:
    """"Equipped creature gets +P/+T (and has [abilities])"; ``more``: other
    ``(layer, kind, params)`` effects on it (e.g. ``("4", "add_all_creature_types",
    None)``: "is every creature type")."""
    def effects(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
        host = equipped_creature(v, src)
        if not host:
            return []
        out: list[tuple[str, str, list[int], Any]] = [(lay, k, host, p) for lay, k, p in more]
        return out + gets_and_has(host, power, toughness, grant)
    return static(effects, f"equipped creature gets +{power}/+{toughness} {list(grant)}",
                  tuple(lay for lay, _k, _p in more) + pt_and_grant_layers(power, toughness, grant),
                  frozenset())
