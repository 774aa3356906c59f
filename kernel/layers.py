"""Characteristics after continuous effects, applied in layers (CR 613).

An object's current characteristics (:class:`Chars`) start from its card's
printed facts; continuous effects then apply layer by layer -- control (2),
type (4), colour (5), abilities (6), power/toughness (7a CDAs, 7b setting,
7c modifying, counters) -- and within a layer in timestamp order, with
characteristic-defining abilities first (CR 613.3).

Effects come from two places: resolved spells and abilities
(``state.effects``, created by :class:`~kernel.events.EffectCreated`) and the
static abilities of permanents (computed afresh from the card definitions, and
only while the source still has that ability).

Changeling is a characteristic-defining ability in layer 4, so, as the Lorwyn
primer explains: an effect that removes all creature types (also layer 4,
later) still removes them; one that sets new creature types leaves only
those; and removing changeling itself (layer 6) comes too late to take the
creature types away.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from kernel.cards import SpellAbility

if TYPE_CHECKING:
    from kernel.cards import Registry
    from kernel.state import Obj, State

LAYER_ORDER = ("2", "4", "5", "6", "7a", "7b", "7c", "7d")


@cache
def creature_types() -> tuple[str, ...]:
    """Every creature type in the Comprehensive Rules (CR 205.3m), shipped as data."""
    try:
        text = resources.files("kernel").joinpath("data/creature_types.txt").read_text("utf-8")
    except FileNotFoundError:
        text = ""
    return tuple(line.strip() for line in text.splitlines() if line.strip())


@cache
def _creature_type_set() -> frozenset[str]:
    return frozenset(creature_types())


def is_creature_type(t: str) -> bool:
    return t in _creature_type_set()


class Chars:
    """An object's characteristics as the game sees them now."""

    __slots__ = ("name", "types", "supertypes", "subtypes", "ctypes", "all_ctypes", "colors",
                 "power", "toughness", "abilities", "controller", "loyalty", "mana_value")

    def __init__(self, name: str, types: list[str], supertypes: list[str], subtypes: list[str],
                 ctypes: list[str], colors: list[str], power: int | None,
                 toughness: int | None, abilities: list[str], controller: int,
                 loyalty: int | None, mana_value: int) -> None:
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
        c = Chars(self.name, list(self.types), list(self.supertypes), list(self.subtypes),
                  list(self.ctypes), list(self.colors), self.power, self.toughness,
                  list(self.abilities), self.controller, self.loyalty, self.mana_value)
        c.all_ctypes = self.all_ctypes
        return c


def _num(v: str | None) -> int | None:
    if v is None:
        return None
    try:
        return int(v)
    except ValueError:
        return 0  # '*' and friends: set by a characteristic-defining ability in 7a


def printed(reg: Registry, o: Obj) -> Chars:
    """The object's characteristics before any continuous effect."""
    if o.face_down:
        return Chars("", [], [], [], [], [], None, None, [], o.controller, None, 0)
    cache: dict[str, Chars] = reg.__dict__.setdefault("_printed", {})
    t = cache.get(o.card)
    if t is None:
        t = cache[o.card] = _printed_template(reg, o.card)
    c = t.copy()
    c.controller = o.controller
    return c


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
    if "changeling" in c.abilities:
        c.all_ctypes = True  # CDA: in every zone
    return c


# --------------------------------------------------------------------------
# effect appliers: (chars, params, view) -> None

def _set_pt(c: Chars, p: Any, v: Any) -> None:
    c.power, c.toughness = int(p[0]), int(p[1])


def _mod_pt(c: Chars, p: Any, v: Any) -> None:
    if c.power is not None and c.toughness is not None:
        c.power += int(p[0])
        c.toughness += int(p[1])


def _grant(c: Chars, p: Any, v: Any) -> None:
    for a in p:
        if a not in c.abilities:
            c.abilities.append(a)


def _lose(c: Chars, p: Any, v: Any) -> None:
    c.abilities = [a for a in c.abilities if a not in p]


def _lose_all_abilities(c: Chars, p: Any, v: Any) -> None:
    c.abilities = []


def _all_creature_types(c: Chars, p: Any, v: Any) -> None:
    c.all_ctypes = True


def _lose_creature_types(c: Chars, p: Any, v: Any) -> None:
    c.all_ctypes = False
    c.ctypes = []


def _set_creature_types(c: Chars, p: Any, v: Any) -> None:
    c.all_ctypes = False
    c.ctypes = list(p)


def _add_creature_types(c: Chars, p: Any, v: Any) -> None:
    for t in p:
        if t not in c.ctypes:
            c.ctypes.append(t)


def _add_types(c: Chars, p: Any, v: Any) -> None:
    for t in p:
        if t not in c.types:
            c.types.append(t)


def _set_colors(c: Chars, p: Any, v: Any) -> None:
    c.colors = list(p)


def _control(c: Chars, p: Any, v: Any) -> None:
    c.controller = int(p)


def _switch_pt(c: Chars, p: Any, v: Any) -> None:
    c.power, c.toughness = c.toughness, c.power


APPLIERS: dict[str, tuple[str, Callable[[Chars, Any, Any], None]]] = {
    "control": ("2", _control),
    "add_all_creature_types": ("4", _all_creature_types),
    "lose_all_creature_types": ("4", _lose_creature_types),
    "set_creature_types": ("4", _set_creature_types),
    "add_creature_types": ("4", _add_creature_types),
    "add_types": ("4", _add_types),
    "set_colors": ("5", _set_colors),
    "grant": ("6", _grant),
    "lose": ("6", _lose),
    "lose_all_abilities": ("6", _lose_all_abilities),
    "set_pt": ("7b", _set_pt),
    "pt": ("7c", _mod_pt),
    "switch_pt": ("7d", _switch_pt),
}


def register_effect_kind(kind: str, layer: str,
                         fn: Callable[[Chars, Any, Any], None]) -> None:
    """Let a plugin add a kind of continuous effect (its layer and how it applies)."""
    APPLIERS[kind] = (layer, fn)


class View:
    """Read access to a state and its characteristics, used by filters and statics."""

    def __init__(self, state: State, reg: Registry, chars: dict[int, Chars]) -> None:
        self.state = state
        self.reg = reg
        self._chars = chars

    def chars(self, oid: int) -> Chars:
        c = self._chars.get(oid)
        if c is None:
            c = printed(self.reg, self.state.objects[oid])
            self._chars[oid] = c
        return c

    def obj(self, oid: int) -> Obj:
        return self.state.objects[oid]


def compute(state: State, reg: Registry) -> dict[int, Chars]:
    """Characteristics of every object on the battlefield, after all layers.

    Objects in other zones get their printed characteristics lazily (through
    :class:`View`); continuous effects only touch permanents here.
    """
    objs = state.objects
    chars: dict[int, Chars] = {oid: printed(reg, objs[oid]) for oid in state.battlefield}
    view = View(state, reg, chars)
    resolved: dict[str, list[tuple[int, str, list[int], Any]]] = {}
    for e in state.effects:
        entry = APPLIERS.get(e.kind)
        if entry is None:
            continue
        resolved.setdefault(entry[0], []).append((e.timestamp, e.kind, e.objs, e.params))
    sources: list[tuple[int, int, str, Any]] = []
    for oid in state.battlefield:
        d = reg.cards.get(objs[oid].card)
        if d is None or objs[oid].face_down:
            continue
        for key, st in d.statics:
            sources.append((objs[oid].timestamp, oid, key, st))
    for layer in LAYER_ORDER:
        batch = list(resolved.get(layer, ()))
        for ts, oid, key, st in sources:
            c = chars.get(oid)
            if c is None or key not in c.abilities:
                continue
            for lay, kind, affected, params in st.effects(view, oid):
                if lay == layer:
                    batch.append((ts, kind, affected, params))
        if layer == "7a":
            for oid, c in chars.items():
                fn = reg.dynamic_pt.get(objs[oid].card)
                if fn is not None and c.power is not None:
                    c.power, c.toughness = fn(view, oid)
        batch.sort(key=lambda b: b[0])
        for _ts, kind, affected, params in batch:
            fn2 = APPLIERS[kind][1]
            for oid in affected:
                c = chars.get(oid)
                if c is not None:
                    fn2(c, params, view)
        if layer == "7c":
            for oid, c in chars.items():
                cnt = objs[oid].counters
                if cnt and c.power is not None and c.toughness is not None:
                    n = cnt.get("+1/+1", 0) - cnt.get("-1/-1", 0)
                    c.power += n
                    c.toughness += n
        if layer == "4":
            for c in chars.values():
                if not c.has_creature_types:
                    c.ctypes = []
                    c.all_ctypes = False
    for oid, c in chars.items():
        if "Planeswalker" in c.types:
            c.loyalty = objs[oid].counters.get("loyalty", 0)
        if "Creature" not in c.types:
            c.power = c.toughness = None
    return chars
