"""The card writer's :class:`Ctx`, what an effect sees and does: :mod:`mtgk.rules.effects`.

The names are defined in the rules core, whose own data model and effect API they are
(docs/architecture.md, "Floors"); a card pack imports them from here, the card-writing
API, which keeps these names whatever the rules' modules are called.
"""

from __future__ import annotations

from mtgk.rules.effects import (
    Ctx,
)

__all__ = [
    'Ctx',
]
