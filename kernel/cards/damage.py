"""The card writer's damage results decided by a quality of the source (wither, infect): :mod:`mtgk.rules.damage_results`.

The names are defined in the rules core, whose own data model and effect API they are
(docs/architecture.md, "Floors"); a card pack imports them from here, the card-writing
API, which keeps these names whatever the rules' modules are called.
"""

from __future__ import annotations

from typing import Any

from mtgk.cards.rendering import register_renderer
from mtgk.rules.damage_results import (
    DAMAGE_RESULTS,
    DamageResult,
    DamageResultChanged,
    damage_result_of,
    register_damage_result,
)

__all__ = [
    'DAMAGE_RESULTS',
    'DamageResult',
    'DamageResultChanged',
    'damage_result_of',
    'register_damage_result',
]


def _render(r: Any, e: DamageResultChanged) -> str:
    what = "life loss" if e.target < 0 else "marked damage"
    return (f"{e.amount} damage to {r.ref(e.target)} results in counters ({e.ability}), "
            f"not {what}")


register_renderer(DamageResultChanged.TAG, _render)
