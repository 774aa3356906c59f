"""An example third-party mtgk card pack: four cards, written from their facts.

Installed with ``pip install examples/example-pack``, it is found through the
``mtgk.cardsets`` entry point in its pyproject.toml, like the built-in sets.
"""

from __future__ import annotations

import mtgk.plugins.wither  # noqa: F401 - declares wither (a keyword: the facts give it)
from mtgk.cards.definitions import CardSetInfo
from mtgk.cards.dsl import CardSet, damage, etb, gain_life, mana_ability, target
from mtgk.cards.filters import creature_or_player
from mtgk.cards.loading import hookimpl
from mtgk.plugins.persist import persist

S = CardSet("example", "0.1.0", __file__)

# When Sparkmage Apprentice enters, it deals 1 damage to target creature or player.
S.card("Sparkmage Apprentice", etb(damage(1), target(creature_or_player)))

# {T}: Add {G}.
S.card("Llanowar Elves", mana_ability("G"))

# Wither (This deals damage to creatures in the form of -1/-1 counters.)
S.vanilla("Sickle Ripper")

# When Kitchen Finks enters, you gain 2 life. Persist
S.card("Kitchen Finks", etb(gain_life(2)), persist())


@hookimpl
def mtgk_cardsets() -> list[CardSetInfo]:
    return [S.info()]
