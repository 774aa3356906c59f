"""Damage prevention created by resolving spells and abilities (CR 615).

"Prevent the next 3 damage that would be dealt to any target this turn"
(Dawnfluke) and "Prevent all combat damage that would be dealt this turn"
(Pollen Lullaby) are continuous effects of kind ``prevent_damage``::

    prevent_next(c, c.target(0), 3)          # a shield of 3 on one object or player
    prevent_all_combat_damage(c)            # every combat damage this turn

Each is a prevention effect of the kernel's replacement mechanism
(:mod:`mtgk.rules.replacement`), so it applies to all damage, combat or not.
Damage a shield prevents is recorded as :class:`DamagePrevented` (and is not
dealt: no ``DamageDealt``); the event uses the shield up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from mtgk.cards.rendering import register_renderer
from mtgk.log.events import Event, event
from mtgk.rules.replacement import Proposal, Replacement, register_effect_replacement
from mtgk.rules.state import State, register_projector

if TYPE_CHECKING:
    from mtgk.cards.effects import Ctx
    from mtgk.render import Renderer
    from mtgk.rules.engine import Game

KIND = "prevent_damage"


@event
class DamagePrevented(Event, frozen=True):
    """``amount`` damage ``source`` would have dealt to ``target`` (a Ref) was prevented
    by the prevention effect ``effect``."""

    TAG: ClassVar[str] = "DamagePrevented"
    source: int
    target: int
    amount: int
    effect: int = 0


def _prevented(s: State, e: DamagePrevented) -> None:
    for i, eff in enumerate(s.effects):
        if eff.id != e.effect:
            continue
        n = (eff.params or {}).get("n")
        if n is None:
            return
        if n - e.amount <= 0:
            del s.effects[i]
        else:
            eff.params = dict(eff.params, n=n - e.amount)
        return


register_projector(DamagePrevented, _prevented)


def _render_prevented(r: Renderer, e: DamagePrevented) -> str:
    return f"{e.amount} damage {r.obj(e.source)} would deal to {r.ref(e.target)} is prevented"


register_renderer(DamagePrevented.TAG, _render_prevented)


def _effect(game: Game, eid: int) -> Any:
    return next((e for e in game.state.effects if e.id == eid), None)


class PreventDamage(Replacement):
    """An effect ``prevent_damage`` with params ``{"to": Ref or None (any), "from": the
    source whose damage is prevented or None (any), "combat": only combat damage, "n": how
    much is left to prevent or None (all)}``."""

    key = "prevent"
    event = "damage"
    text = "prevent damage"

    def applies(self, game: Game, p: Proposal, source: int) -> bool:
        eff = _effect(game, source)
        if eff is None or p["amount"] <= 0:
            return False
        params = eff.params or {}
        if params.get("combat") and not p["combat"]:
            return False
        if params.get("from") is not None and params["from"] != p["source"]:
            return False
        to = params.get("to")
        return to is None or to == p["target"]

    def apply(self, game: Game, p: Proposal, source: int) -> Proposal | None:
        n = (_effect(game, source).params or {}).get("n")
        k = p["amount"] if n is None else min(n, p["amount"])
        game.emit(DamagePrevented(source=p["source"], target=p["target"], amount=k,
                                  effect=source))
        return dict(p, amount=p["amount"] - k)


register_effect_replacement(KIND, PreventDamage())


def prevent_next(c: Ctx, to: int | None, n: int) -> None:
    """"Prevent the next ``n`` damage that would be dealt to [to] this turn"."""
    if to is not None and n > 0:
        c.until_end_of_turn(KIND, [], {"to": to, "n": n})


def prevent_all_from(c: Ctx, source: int | None) -> None:
    """"Prevent all damage [source] would deal this turn"."""
    if source is not None:
        c.until_end_of_turn(KIND, [], {"from": source})


def prevent_all_combat_damage(c: Ctx) -> None:
    """"Prevent all combat damage that would be dealt this turn"."""
    c.until_end_of_turn(KIND, [], {"combat": True})
