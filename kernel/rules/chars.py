"""An object's characteristics (:class:`Chars`) and its printed ones (CR 109.3, 613).

:func:`printed` gives an object's characteristics before any continuous effect -- its card's
printed facts (with the characteristic-defining ability of changeling, which works in every
zone) -- from a template kept per card and registry (:func:`printed_template`, shared until
an effect changes a list: ``Chars.shared``); :mod:`mtgk.rules.layers` then applies the
continuous effects to them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from mtgk.rules.definitions import SpellAbility
from mtgk.rules.names import CHANGELING
from mtgk.rules.subtypes import creature_types, is_creature_type

if TYPE_CHECKING:
    from mtgk.rules.definitions import Registry
    from mtgk.rules.state import Obj

CHARS_FIELDS: Final = (
    "name", "types", "supertypes", "subtypes", "ctypes", "all_ctypes", "colors", "power",
    "toughness", "abilities", "controller", "loyalty", "mana_value", "oid", "pt_cda", "card",
    "shared")
"""The fields of :class:`Chars` (its ``__slots__``; a compiled kernel reads them here)."""


class Chars:
    """An object's characteristics as the game sees them now.

    Creature types are kept apart from the other subtypes: ``ctypes`` (or
    ``all_ctypes``: every creature type, as changeling or Mirror Entity make
    it) and ``subtypes`` (land, artifact, enchantment, spell, planeswalker
    types).  ``oid`` is the object these are the characteristics of; ``card`` the name
    of the card definition whose behaviour it has (its own card's, or after a copy effect
    of layer 1 the copied card's).
    """

    __slots__ = CHARS_FIELDS

    def __init__(self, name: str, types: list[str], supertypes: list[str], subtypes: list[str],
                 ctypes: list[str], colors: list[str], power: int | None,
                 toughness: int | None, abilities: list[str], controller: int,
                 loyalty: int | None, mana_value: int, oid: int = 0) -> None:
        self.name = name
        self.types = types
        self.supertypes = supertypes
        self.subtypes = subtypes  # non-creature subtypes (land, enchantment, spell, planeswalker)
        self.ctypes = ctypes  # creature types
        self.all_ctypes = False
        self.colors = colors
        self.power = power
        self.toughness = toughness
        self.abilities = abilities
        self.controller = controller
        self.loyalty = loyalty
        self.mana_value = mana_value
        self.oid = oid
        self.pt_cda = True  # its P/T-defining ability (if any) still exists
        self.card = name  # the card definition it behaves as (layer 1 may change it)
        self.shared = False  # its lists are a printed template's (copied before a change)

    def __repr__(self) -> str:
        pt = f" {self.power}/{self.toughness}" if self.power is not None else ""
        return f"<Chars {self.name!r} {' '.join(self.types)}{pt}>"

    def is_(self, card_type: str) -> bool:
        return card_type in self.types

    @property
    def is_creature(self) -> bool:
        return "Creature" in self.types

    def has(self, ability: str) -> bool:
        return ability in self.abilities

    def has_subtype(self, t: str) -> bool:
        """Has this subtype (of any set); a changeling has every creature type."""
        if t in self.subtypes:
            return True
        if not self.has_creature_types:
            return False
        return t in self.ctypes or (self.all_ctypes and is_creature_type(t))

    @property
    def has_creature_types(self) -> bool:
        """Creature types only exist on creatures and tribals (CR 205.3d)."""
        return "Creature" in self.types or "Tribal" in self.types or "Kindred" in self.types

    def creature_types(self) -> list[str]:
        if not self.has_creature_types:
            return []
        return list(creature_types()) if self.all_ctypes else list(self.ctypes)

    def all_subtypes(self) -> list[str]:
        return self.subtypes + self.creature_types()

    def copy(self) -> Chars:
        """A copy with lists of its own."""
        c = self.shared_copy()
        c.unshare()
        return c

    def shared_copy(self) -> Chars:
        """A copy that shares this one's lists until :meth:`unshare` (the hot path of
        ``printed``: most objects' characteristics are never changed by an effect)."""
        c = Chars(self.name, self.types, self.supertypes, self.subtypes, self.ctypes,
                  self.colors, self.power, self.toughness, self.abilities, self.controller,
                  self.loyalty, self.mana_value, self.oid)
        c.all_ctypes = self.all_ctypes
        c.pt_cda = self.pt_cda
        c.card = self.card
        c.shared = True
        return c

    def unshare(self) -> None:
        """Give this object lists of its own (before an effect changes one in place)."""
        self.types = self.types[:]
        self.supertypes = self.supertypes[:]
        self.subtypes = self.subtypes[:]
        self.ctypes = self.ctypes[:]
        self.colors = self.colors[:]
        self.abilities = self.abilities[:]
        self.shared = False


def chars_key(c: Chars) -> tuple[Any, ...]:
    """Every characteristic of ``c`` as a comparable tuple (lists of types and abilities
    compared as sets)."""
    return (c.name, sorted(c.types), sorted(c.supertypes), sorted(c.subtypes),
            sorted(c.ctypes), c.all_ctypes, sorted(c.colors), c.power, c.toughness,
            sorted(c.abilities), c.controller, c.loyalty, c.mana_value, c.pt_cda, c.card)


def _num(v: str | None) -> int | None:
    if v is None:
        return None
    try:
        return int(v)
    except ValueError:
        return 0  # '*' and friends: set by a characteristic-defining ability in 7a


def printed(reg: Registry, o: Obj) -> Chars:
    """The object's characteristics before any continuous effect (CDAs of layer 4 included)."""
    if o.face_down:
        c = Chars("", [], [], [], [], [], None, None, [], o.controller, None, 0, o.id)
        c.card = o.card
        return c
    name = o.flags.get("face") or o.card  # a spell cast as another face (an Adventure)
    c = printed_template(reg, name).shared_copy()
    c.controller = o.controller
    c.oid = o.id
    return c


def printed_template(reg: Registry, name: str) -> Chars:
    """The printed characteristics of card ``name`` (cached per registry; never mutate)."""
    cache: dict[str, Chars] | None = reg.derived.get("printed")
    if cache is None:
        cache = reg.derived["printed"] = {}
    t = cache.get(name)
    if t is None:
        t = cache[name] = _printed_template(reg, name)
    return t


def _printed_template(reg: Registry, name: str) -> Chars:
    d = reg[name]
    f = d.facts
    ctypes = [t for t in f.subtypes if is_creature_type(t)]
    others = [t for t in f.subtypes if not is_creature_type(t)]
    if not creature_types():  # no data: treat every subtype of a creature/tribal as a creature type
        ctypes, others = (list(f.subtypes), []) if ("Creature" in f.types or "Tribal" in f.types) \
            else ([], list(f.subtypes))
    abilities = list(d.keywords) + [k for k, a in d.keyed(object) if not isinstance(a, SpellAbility)]
    c = Chars(f.name, list(f.types), list(f.supertypes), others, ctypes, list(f.colors),
              _num(f.power), _num(f.toughness), abilities, -1, _num(f.loyalty),
              f.mana_value)
    if f.printed_name:  # a token keyed apart from another of its name: its printed name
        c.name = f.printed_name
    if CHANGELING in c.abilities:
        c.all_ctypes = True  # CDA (layer 4, first): in every zone
    return c
