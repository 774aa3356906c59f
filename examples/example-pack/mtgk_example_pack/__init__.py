"""An example third-party mtgk card pack: two cards, written from their facts.

Installed with ``pip install examples/example-pack``, it is found through the
``mtgk.cardsets`` entry point in its pyproject.toml, like the built-in sets.
"""

from __future__ import annotations

from mtgk.cards.definitions import CardSetInfo
from mtgk.cards.dsl import CardSet, damage, etb, mana_ability, target
from mtgk.cards.filters import creature_or_player
from mtgk.cards.loading import hookimpl

S = CardSet("example", "0.1.0", __file__)

# When Sparkmage Apprentice enters, it deals 1 damage to target creature or player.
S.card("Sparkmage Apprentice", etb(damage(1), target(creature_or_player)))

# {T}: Add {G}.
S.card("Llanowar Elves", mana_ability("G"))


@hookimpl
def mtgk_cardsets() -> list[CardSetInfo]:
    return [S.info()]
