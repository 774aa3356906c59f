"""Lorwyn enchantments and Auras that have no mechanic of their own elsewhere: Ashling's
Prerogative (choose odd or even as it enters; haste, or entering tapped, by mana value)
and the Auras Glimmerdust Nap ("doesn't untap") and Protective Bubble ("can't be blocked"
and shroud).

Mechanisms: choices made as a permanent enters and permanents entering tapped are
:mod:`mtgk.plugins.enters`'s (``choose_as_enters``, ``chosen``, ``enters_tapped_if``);
an Aura is ``S.card(..., enchant=target(...))`` with an ``enchanted(...)`` static ability;
"doesn't untap" and "can't be blocked" are abilities the engine reads by name
(``mtgk.cards.dsl.RULES_ABILITIES``).

The other Lorwyn enchantments are filed by what they do: Forced Fruition in
triggered_abilities.py, Colfenor's Plans in casting.py, Fertile Ground in
lands_and_mana.py, Nettlevine Blight in granted_abilities.py, the Auras the kernel
expresses directly in simple.py, the tribal enchantments in tribal.py.
"""

from __future__ import annotations

from typing import Any

from mtgk.cards.dsl import enchanted, static, target
from mtgk.cards.filters import creature
from mtgk.plugins.enters import choose_as_enters, chosen, enters_tapped_if
from mtgk.rules.layers import View

from .cards import S

_EARLIER = set(S.defs)


# ======================================================================== Ashling's Prerogative

# As Ashling's Prerogative enters the battlefield, choose odd or even. Each creature with
# mana value of the chosen quality has haste. Each creature without mana value of the
# chosen quality enters the battlefield tapped.
def _of_chosen_quality(v: View, src: int, oid: int) -> bool:
    return v.chars(oid).mana_value % 2 == (1 if chosen(v, src) == "odd" else 0)


def _prerogative_haste(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
    if chosen(v, src) is None:
        return []
    fast = [o for o in v.state.battlefield if v.chars(o).is_creature
            and _of_chosen_quality(v, src, o)]
    return [("6", "grant", fast, ["haste"])] if fast else []


S.card("Ashling's Prerogative",
       static(_prerogative_haste, "creatures of the chosen quality have haste", ("6",)),
       enters_tapped_if(lambda v, src, o: chosen(v, src) is not None and v.chars(o).is_creature
                        and not _of_chosen_quality(v, src, o),
                        "creatures not of the chosen quality enter tapped"),
       as_enters=choose_as_enters(["odd", "even"], "choose odd or even"))


# ======================================================================== Auras

S.card("Glimmerdust Nap", enchanted(grant=["doesn't untap"]),
       enchant=target(creature.tapped()))
S.card("Protective Bubble", enchanted(grant=["can't be blocked", "shroud"]),
       enchant=target(creature))


#: The cards this module defines (tokens included), in definition order.
CARDS: list[str] = [n for n in S.defs if n not in _EARLIER]
