"""The lists of subtypes the rules know (CR 205.3), shipped as data.

>>> "Rogue" in creature_types(), is_creature_type("Rouge")
(True, False)
"""

from __future__ import annotations

from functools import cache
from importlib import resources

__all__ = ["ARTIFACT_TYPES", "BATTLE_TYPES", "ENCHANTMENT_TYPES", "LAND_TYPES", "SPELL_TYPES",
           "SUBTYPE_OWNERS", "creature_types", "is_creature_type", "planeswalker_types",
           "subtype_set"]


@cache
def creature_types() -> tuple[str, ...]:
    """Every creature type in the Comprehensive Rules (CR 205.3m), shipped as data, sorted."""
    return _data_list("creature_types.txt")


@cache
def planeswalker_types() -> tuple[str, ...]:
    return _data_list("planeswalker_types.txt")


def _data_list(name: str) -> tuple[str, ...]:
    try:
        text = resources.files("mtgk").joinpath(f"data/{name}").read_text("utf-8")
    except FileNotFoundError:
        text = ""
    return tuple(sorted(line.strip() for line in text.splitlines() if line.strip()))


@cache
def _creature_type_set() -> frozenset[str]:
    return frozenset(creature_types())


def is_creature_type(t: str) -> bool:
    return t in _creature_type_set()


# CR 205.3g-k: the other lists of subtypes, each correlated with its card type(s).
LAND_TYPES = frozenset({"Plains", "Island", "Swamp", "Mountain", "Forest", "Desert", "Gate",
                        "Lair", "Locus", "Mine", "Power-Plant", "Tower", "Urza's", "Cave",
                        "Sphere", "Town"})
ARTIFACT_TYPES = frozenset({"Attraction", "Blood", "Bobblehead", "Clue", "Contraption",
                            "Equipment", "Food", "Fortification", "Gold", "Incubator", "Junk",
                            "Lander", "Map", "Powerstone", "Spacecraft", "Treasure", "Vehicle"})
ENCHANTMENT_TYPES = frozenset({"Aura", "Background", "Cartouche", "Case", "Class", "Curse",
                               "Role", "Room", "Rune", "Saga", "Shard", "Shrine"})
SPELL_TYPES = frozenset({"Adventure", "Arcane", "Lesson", "Omen", "Trap"})
BATTLE_TYPES = frozenset({"Siege"})

#: which card types each set of subtypes goes with
SUBTYPE_OWNERS: dict[str, tuple[str, ...]] = {
    "Creature": ("Creature", "Tribal", "Kindred"),
    "Land": ("Land",),
    "Artifact": ("Artifact",),
    "Enchantment": ("Enchantment",),
    "Spell": ("Instant", "Sorcery"),
    "Planeswalker": ("Planeswalker",),
    "Battle": ("Battle",),
}


@cache
def subtype_set(t: str) -> str:
    """The set a subtype belongs to: ``Creature``, ``Land``, ``Artifact``, ``Enchantment``,
    ``Spell``, ``Planeswalker``, ``Battle``; ``""`` if unknown.

    >>> subtype_set("Goblin"), subtype_set("Aura"), subtype_set("Island"), subtype_set("Jace")
    ('Creature', 'Enchantment', 'Land', 'Planeswalker')
    """
    if is_creature_type(t):
        return "Creature"
    for name, group in (("Land", LAND_TYPES), ("Artifact", ARTIFACT_TYPES),
                        ("Enchantment", ENCHANTMENT_TYPES), ("Spell", SPELL_TYPES),
                        ("Battle", BATTLE_TYPES)):
        if t in group:
            return name
    if t in planeswalker_types():
        return "Planeswalker"
    return ""
