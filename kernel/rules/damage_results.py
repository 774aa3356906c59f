"""What damage does: damage results decided by a quality of its source (CR 120.3).

Damage is dealt as ever -- a ``DamageDealt`` event, seen by every "whenever ~ deals
damage" trigger, by lifelink and deathtouch, and by the log -- and then, when its source
has an ability registered with :func:`register_damage_result`, its *result* is not the
usual one: damage a source with wither deals to a creature results in that many -1/-1
counters instead of being marked (CR 702.80a); infect also gives a player poison counters
instead of making them lose life (CR 702.90b)::

    from mtgk.cards.damage import register_damage_result

    register_damage_result("wither", creatures="-1/-1")
    register_damage_result("infect", creatures="-1/-1", players="poison")

Right after the ``DamageDealt`` (caused by it) the kernel records a
:class:`DamageResultChanged` (the marked damage, or the life lost, taken back) and a
``CounterPlaced`` of that kind (so "whenever counters are put on" sees them); damage to
a planeswalker removes loyalty as usual.  ``mtgk.plugins.wither`` registers wither and
infect (and declares them as keywords); :mod:`mtgk.cards.damage`, where card packs
import these names from, says how the event reads.

:class:`DamageResultChanged` is an event type a log's header lists only when the log holds
one (``mtgk.log.events.UNLISTED_UNLESS_USED``), so the logs of games without such damage
are what they were.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from mtgk.log import events as ev
from mtgk.rules.seats import team_of
from mtgk.rules.state import State, register_projector

__all__ = ["DamageResult", "DAMAGE_RESULTS", "register_damage_result", "DamageResultChanged",
           "damage_result_of"]


@dataclass(frozen=True)
class DamageResult:
    """What damage from a source with ``ability`` results in: counters of kind
    ``creatures`` on a creature it is dealt to (``""``: the usual, marked damage), of kind
    ``players`` on a player (``""``: the usual life loss)."""

    ability: str
    creatures: str = ""
    players: str = ""


DAMAGE_RESULTS: dict[str, DamageResult] = {}
"""The registered damage results by (lower-case) ability name, in registration order."""


@ev.event
class DamageResultChanged(ev.Event, frozen=True):
    """The damage ``DamageDealt`` event ``amount`` to ``target`` (a :data:`~mtgk.log.events.Ref`)
    just dealt doesn't have its usual result (damage marked, life lost): it is taken back,
    and the counters it results in come next (``CounterPlaced``; see :mod:`mtgk.rules.damage_results`)."""

    TAG: ClassVar[str] = "DamageResultChanged"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"damage", "life"})
    target: int
    amount: int
    ability: str = ""


def _fold(s: State, e: DamageResultChanged) -> None:
    p = ev.ref_player(e.target)
    if p is not None:
        for q in team_of(s, p) if s.teams else [p]:
            s.players[q].life += e.amount
        return
    o = s.objects.get(e.target)
    if o is not None:
        o.damage = max(0, o.damage - e.amount)


register_projector(DamageResultChanged, _fold)


def register_damage_result(ability: str, creatures: str = "", players: str = "") -> DamageResult:
    """Damage from a source with ``ability`` results in ``creatures`` counters on a
    creature (``"-1/-1"``: wither) and ``players`` counters on a player (``"poison"``:
    infect) instead of its usual result.  Registering a name again keeps the first."""
    key = ability.strip().lower()
    if not key:
        raise ValueError("register_damage_result: an empty ability name")
    return DAMAGE_RESULTS.setdefault(key, DamageResult(key, creatures, players))


def damage_result_of(abilities: Any, to_player: bool) -> DamageResult | None:
    """The registered damage result a source with ``abilities`` (its characteristics'
    abilities) gives damage to a player (``to_player``) or a creature (``None``: the
    usual result)."""
    for key, result in DAMAGE_RESULTS.items():
        if key in abilities and (result.players if to_player else result.creatures):
            return result
    return None
