"""Lorwyn card definitions (basic lands, vanilla and keyword-only creatures, simple spells)."""

from __future__ import annotations

from mtgk.cards.dsl import CardSet

S = CardSet("lorwyn", "0.2.0", __file__, extra_facts=("tokens.json",))

S.vanilla("Plains", "Island", "Swamp", "Mountain", "Forest")

# The tokens the set's cards create (tokens.json; Elf Warrior is the core set's too).  Two
# named "Elemental" (Eyes of the Wisent's; Hoofprints of the Stag's, keyed "Elemental
# (Hoofprints)"), and Rebellion of the Flamekin's and Hearthcage Giant's "Elemental
# Shaman" without haste (keyed apart from Hostility's, the core set's): cards create them
# by their keys, objects are named by their printed names.
S.vanilla("Elf Warrior", "Goblin Rogue", "Kithkin Soldier", "Merfolk Wizard", "Wolf",
          "Elemental", "Elemental (Hoofprints)", "Elemental Shaman (Rebellion)")
