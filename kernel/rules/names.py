"""The names the engine reads, typed: a typo is a mypy error, not a silent ``False``.

The rules compare zones, stack-item kinds and layers by name, and recognise the abilities
the kernel implements by their words.  Each is a ``Literal`` type here (``Zone``,
``StackKind``, ``Layer``), with its values in order, and the abilities are named
constants: ``c.has(FLYING)``, not ``c.has("flyng")``.  mypy (``strict_equality``) rejects
a comparison of a ``Zone`` with a string that is not one, and an argument that is not one;
tests/test_imports.py checks that the rules ask for abilities by these names.

>>> zone_named("battlefield")
'battlefield'
>>> zone_named("batlefield")
Traceback (most recent call last):
...
ValueError: 'batlefield' is not a zone (one of library, hand, battlefield, graveyard, stack, exile, none, left)
"""

from __future__ import annotations

from typing import Final, Literal, get_args

Zone = Literal["library", "hand", "battlefield", "graveyard", "stack", "exile", "none", "left"]
"""Where an object is (CR 400.1).  ``"none"``: it has left the game's zones (a token that
left the battlefield, a copy of a spell that resolved); ``"left"``: its owner left a
multiplayer game (CR 800.4a)."""
ZONES: Final[tuple[Zone, ...]] = get_args(Zone)

CARD_ZONES: Final[tuple[Zone, ...]] = ("library", "hand", "graveyard", "exile")
"""The zones where an object is a card, not a permanent or a spell."""

StackKind = Literal["spell", "activated", "triggered"]
"""What a stack item is (CR 405.1): a spell, an activated or a triggered ability."""
STACK_KINDS: Final[tuple[StackKind, ...]] = get_args(StackKind)

Layer = Literal["1", "2", "3", "4", "5", "6", "7a", "7b", "7c", "7d"]
"""A layer of continuous effects (CR 613.1): copy, control, text, type, color, abilities,
power/toughness (characteristic-defining, setting, modifying, switching)."""
LAYERS: Final[tuple[Layer, ...]] = get_args(Layer)
LAYER_ORDER: Final[tuple[Layer, ...]] = ("1", "2", "4", "5", "6", "7a", "7b", "7c", "7d")
"""The layers effects are applied in (CR 613.1; layer 3, text-changing, has no effects here)."""

LAYER_CHANGES: dict[str, frozenset[str]] = {
    "2": frozenset({"controller"}),
    "3": frozenset({"text"}),
    "4": frozenset({"types"}),
    "5": frozenset({"colors"}),
    "6": frozenset({"abilities"}),
    **{layer: frozenset({"pt"}) for layer in ("7a", "7b", "7c", "7d")}}
"""What the effects of each layer (from 2 on) change, in the groups of
``mtgk.rules.filters.Reads``; an effect kind a plugin adds to a layer must keep to it."""
ALL_CHANGES = frozenset({"controller", "text", "types", "colors", "abilities", "pt",
                         "mana_value"})


def layer_named(name: str, what: str = "a layer") -> Layer:
    """``name`` as a :data:`Layer`; ``ValueError`` naming ``what`` if it is none."""
    for layer in LAYERS:
        if layer == name:
            return layer
    raise ValueError(f"{what}: {name!r} is not a layer (one of {', '.join(LAYERS)})")


_ZONE_NAMED: Final[dict[str, Zone]] = {z: z for z in ZONES}


def zone_named(name: str) -> Zone:
    """``name`` as a :data:`Zone` (from a log's event, say); ``ValueError`` if it is none."""
    zone = _ZONE_NAMED.get(name)
    if zone is None:
        raise ValueError(f"{name!r} is not a zone (one of {', '.join(ZONES)})")
    return zone


# The abilities the kernel's rules recognise by their words (CR 702: keywords; and the
# words of abilities every set uses, such as "can't block").
FLYING: Final = "flying"
REACH: Final = "reach"
FIRST_STRIKE: Final = "first strike"
DOUBLE_STRIKE: Final = "double strike"
TRAMPLE: Final = "trample"
MENACE: Final = "menace"
HASTE: Final = "haste"
VIGILANCE: Final = "vigilance"
DEFENDER: Final = "defender"
DEATHTOUCH: Final = "deathtouch"
LIFELINK: Final = "lifelink"
INDESTRUCTIBLE: Final = "indestructible"
SHROUD: Final = "shroud"
HEXPROOF: Final = "hexproof"
FEAR: Final = "fear"
INTIMIDATE: Final = "intimidate"
FLASH: Final = "flash"
CANT_BLOCK: Final = "can't block"
CANT_ATTACK: Final = "can't attack"
CANT_BE_BLOCKED: Final = "can't be blocked"
CAN_BLOCK_ANY_NUMBER: Final = "can block any number"
ALL_ABLE_BLOCK_IT: Final = "all able block it"
DOESNT_UNTAP: Final = "doesn't untap"
CHANGELING: Final = "changeling"
UNBLOCKABLE_BY_POWER: Final = "unblockable_by_power:"
"""The prefix of "can't be blocked by creatures with power N or greater" (``...:N``)."""
