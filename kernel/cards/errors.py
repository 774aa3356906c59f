"""The card writer's errors in card code, and whom they blame: :mod:`mtgk.rules.errors`.

The names are defined in the rules core, whose own data model and effect API they are
(docs/architecture.md, "Floors"); a card pack imports them from here, the card-writing
API, which keeps these names whatever the rules' modules are called.
"""

from __future__ import annotations

from mtgk.rules.errors import (
    CardError,
    blame,
    describe_ability,
)

__all__ = [
    'CardError',
    'blame',
    'describe_ability',
]
