"""Dealing damage (CR 120): damage to creatures, planeswalkers and players, after
replacement and prevention effects (CR 614-616, in :mod:`mtgk.rules.replacement`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from mypy_extensions import trait

from mtgk.log import events as ev
from mtgk.rules.damage_results import DAMAGE_RESULTS, DamageResultChanged, damage_result_of
from mtgk.rules.names import DEATHTOUCH, LIFELINK
from mtgk.rules.parts import GamePart
from mtgk.rules.replacement import replace

if TYPE_CHECKING:
    from mtgk.rules.engine import Game


@trait  # a part of Game (mypyc: a native class has one base besides traits)
class Damage(GamePart):
    """Dealing damage (CR 120)."""

    # ------------------------------------------------------------------ damage
    def deal_damage(self, source: int, to: int, amount: int, combat: bool = False,
                    controller: int | None = None) -> None:
        """Deal damage, after replacement and prevention effects (:mod:`mtgk.rules.replacement`)."""
        if amount <= 0:
            return
        src_ctrl = self.last_known_controller(source) if controller is None else controller
        p = replace(cast("Game", self), "damage", {"source": source, "target": to, "amount": amount,
                                     "combat": combat, "controller": src_ctrl})
        if p is None or p["amount"] <= 0:
            return
        cause = p.get("cause")
        if cause is not None:
            with self.caused(cause):
                self._damage(p["source"], p["target"], p["amount"], p["combat"])
        else:
            self._damage(p["source"], p["target"], p["amount"], p["combat"])

    def _damage(self, source: int, to: int, amount: int, combat: bool) -> None:
        s = self.state
        try:
            sc = self.chars(source)
        except KeyError:
            sc = None
        if to > 0:
            o = s.objects.get(to)
            if o is None or o.zone != "battlefield":
                return
        if to > 0 and self.protected_from(to, source):
            return  # 702.16e: damage from a source with that quality is prevented
        deathtouch = bool(sc and sc.has(DEATHTOUCH))
        seq = self.emit(ev.DamageDealt(source=source, target=to, amount=amount, combat=combat,
                                       deathtouch=deathtouch))
        with self.caused(seq):
            if to > 0 and "Planeswalker" in self.chars(to).types:
                have = s.objects[to].counters.get("loyalty", 0)
                if have:
                    self.emit(ev.CounterRemoved(obj=to, kind="loyalty", n=min(have, amount)))
            if sc is not None and sc.has(LIFELINK):
                ctrl = self.last_known_controller(source)
                if ctrl is not None:
                    self.emit(ev.LifeGained(player=ctrl, n=amount))
            if sc is not None and DAMAGE_RESULTS and (to < 0 or self.chars(to).is_creature):
                # what the damage results in, by a quality of its source (wither, infect:
                # counters instead of marked damage or life loss; mtgk.rules.damage_results)
                result = damage_result_of(sc.abilities, to < 0)
                if result is not None:
                    self.emit(DamageResultChanged(target=to, amount=amount,
                                                  ability=result.ability))
                    self.emit(ev.CounterPlaced(obj=to, kind=result.players if to < 0
                                               else result.creatures, n=amount))

