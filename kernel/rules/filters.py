"""The filter vocabulary: how card text names objects and players.

Built once and used by every card, so that "Goblin", "Goblin creature",
"Goblin card" and "Goblin spell" mean what the Lorwyn primer says they mean:

* ``kind("Goblin")`` -- a Goblin *permanent* (a tribal permanent counts);
* ``kind("Goblin").creature`` -- only Goblin creatures on the battlefield;
* ``kind("Goblin").card`` -- a Goblin card not on the battlefield (tribal cards count);
* ``kind("Goblin").spell`` -- a Goblin spell on the stack;
* ``kind("Goblin").you_control()`` -- "you control a Goblin": permanents only,
  never spells (not even the spell asking);
* ``kind("Goblin", "Elemental")`` -- either type; ``creature.without_subtype("Elf")``
  -- a non-Elf creature; ``kind("Goblin").card.in_your("graveyard")`` -- a Goblin
  card in your graveyard.  A changeling has every creature type in every zone.

The whole vocabulary, with examples, is in ``docs/filters.md``.

Filters combine with ``&``, ``|`` and ``~``; they read like the card text:

>>> creature.you_control()
creature.you_control()
>>> creature_or_player
creature | player
>>> kind("Elf").creature.other()
kind('Elf').creature.other()

A filter is called as ``f(view, ref, you, source)``: ``view`` is a
:class:`mtgk.rules.layers.View`, ``ref`` an object id or player reference,
``you`` the controller of the spell or ability asking, ``source`` its object.
"""

from __future__ import annotations

from collections.abc import Callable
from difflib import get_close_matches
from typing import Any

from mtgk.log.events import ref_player
from mtgk.rules.seats import same_team
from mtgk.rules.state import zone_ids
from mtgk.rules.subtypes import creature_types, is_creature_type

Pred = Callable[[Any, int, int, int], bool]


Reads = frozenset[str] | None
"""What a filter looks at: groups of characteristics -- ``"controller"``, ``"types"``
(card types, supertypes, subtypes), ``"colors"``, ``"abilities"``, ``"pt"``,
``"mana_value"`` -- and parts of the state beyond the permanents
(``mtgk.log.events.STATE_PARTS``: ``"tapped"``, ``"combat"``, a zone ...); ``None``:
unknown (it may look at anything).  The layer system uses it to skip dependency
trials (CR 613.8a) that cannot find one, and the engine to keep characteristics
across events that change nothing a static ability reads."""

NOTHING: frozenset[str] = frozenset()


def _union(a: Reads, b: Reads) -> Reads:
    return None if a is None or b is None else a | b


def _all_of(parts: tuple[Pred, ...]) -> Pred:
    """One predicate for "all of ``parts``" (a flat chain: each part called once at most)."""
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        a, b = parts
        return lambda v, r, y, s: a(v, r, y, s) and b(v, r, y, s)
    if len(parts) == 3:
        a, b, c = parts
        return lambda v, r, y, s: a(v, r, y, s) and b(v, r, y, s) and c(v, r, y, s)
    if len(parts) == 4:
        a, b, c, d = parts
        return lambda v, r, y, s: (a(v, r, y, s) and b(v, r, y, s) and c(v, r, y, s)
                                   and d(v, r, y, s))

    def pred(v: Any, r: int, y: int, s: int) -> bool:
        for p in parts:
            if not p(v, r, y, s):
                return False
        return True
    return pred


def _not_source(v: Any, r: int, y: int, s: int) -> bool:
    return r != s


class Filter:
    def __init__(self, pred: Pred, desc: str, reads: Reads = None,
                 parts: tuple[Pred, ...] | None = None, local: bool = False,
                 sourceless: bool = False) -> None:
        self.pred = pred
        self.desc = desc
        self.reads = reads
        #: whether its verdict on an object depends on that object alone (its
        #: characteristics and status), the source and "you" -- never on other objects
        #: (the kernel's filters and modifiers are; ``where`` and hand-made ones are not
        #: taken to be): a lord with such a filter is of ``Static.scope`` ``"each"``
        self.local = local
        #: the conditions ``pred`` is all of (``&`` and the modifiers extend the list)
        self.parts: tuple[Pred, ...] = (pred,) if parts is None else parts
        #: whether its verdict never depends on the source (the kernel's filters and
        #: modifiers but ``.other()`` and ``where``; a hand-made one is taken to look at it)
        self.sourceless = sourceless
        #: if it is ``f.other()`` for a filter ``f`` that doesn't look at the source (with
        #: more sourceless conditions, in any order): ``f`` with them -- it accepts what
        #: that accepts but the source itself (a lord asks it once for several sources)
        self.besides: Filter | None = None

    def __call__(self, view: Any, ref: int, you: int, source: int = 0) -> bool:
        return bool(self.pred(view, ref, you, source))  # (a compiled caller wants a bool)

    def __repr__(self) -> str:
        return self.desc

    def __and__(self, other: Filter) -> Filter:
        f = Filter(_all_of(self.parts + other.parts), f"({self} & {other})",
                   _union(self.reads, other.reads), self.parts + other.parts,
                   self.local and other.local, self.sourceless and other.sourceless)
        if self.besides is not None or other.besides is not None:
            a = self.besides or (self if self.sourceless else None)
            b = other.besides or (other if other.sourceless else None)
            if a is not None and b is not None:
                f.besides = a & b
        return f

    def __or__(self, other: Filter) -> Filter:
        a, b = self.pred, other.pred
        return Filter(lambda v, r, y, s: a(v, r, y, s) or b(v, r, y, s), f"{self} | {other}",
                      _union(self.reads, other.reads), local=self.local and other.local,
                      sourceless=self.sourceless and other.sourceless)

    def __invert__(self) -> Filter:
        a = self.pred
        return Filter(lambda v, r, y, s: not a(v, r, y, s), f"~{self}", self.reads,
                      local=self.local, sourceless=self.sourceless)

    def _and(self, pred: Pred, suffix: str, reads: Reads = NOTHING,
             local: bool = True, sourceless: bool = True) -> Filter:
        parts = self.parts + (pred,)
        f = Filter(_all_of(parts), f"{self}{suffix}", _union(self.reads, reads), parts,
                   self.local and local, self.sourceless and sourceless)
        if self.besides is not None and sourceless:
            f.besides = self.besides._and(pred, suffix, reads, local)
        return f

    # modifiers -----------------------------------------------------------
    def you_control(self) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and v.chars(r).controller == y, ".you_control()",
                         CONTROLLER)

    def opponent_controls(self) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and not same_team(v.state,
                                                                    v.chars(r).controller, y),
                         ".opponent_controls()", CONTROLLER)

    def you_own(self) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and v.obj(r).owner == y, ".you_own()")

    def other(self) -> Filter:
        f = self._and(_not_source, ".other()", sourceless=False)
        f.besides = self.besides or (self if self.sourceless else None)
        return f

    def with_ability(self, ability: str) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and v.chars(r).has(ability),
                         f".with_ability({ability!r})", ABILITIES)

    def without_ability(self, ability: str) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and not v.chars(r).has(ability),
                         f".without_ability({ability!r})", ABILITIES)

    def with_type(self, card_type: str) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and v.chars(r).is_(card_type),
                         f".with_type({card_type!r})", TYPES)

    def with_subtype(self, subtype: str) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and v.chars(r).has_subtype(subtype),
                         f".with_subtype({subtype!r})", TYPES)

    def without_subtype(self, subtype: str) -> Filter:
        """"non-[type]": ``creature.without_subtype("Elf")`` is a non-Elf creature."""
        return self._and(lambda v, r, y, s: r > 0 and not v.chars(r).has_subtype(subtype),
                         f".without_subtype({subtype!r})", TYPES)

    def in_your(self, zone: str) -> Filter:
        """"... in/from your graveyard (hand, library)": in ``zone`` and owned by you."""
        return self._and(lambda v, r, y, s: r > 0 and r in v.state.objects
                         and v.state.objects[r].zone == zone and v.state.objects[r].owner == y,
                         f".in_your({zone!r})", frozenset({zone}))

    def permanent_card(self) -> Filter:
        """"permanent card": a card with a permanent type (not an instant or sorcery)."""
        return self._and(lambda v, r, y, s: r > 0 and any(t in PERMANENT_TYPES
                                                          for t in v.chars(r).types),
                         ".permanent_card()", TYPES)

    def of_color(self, color: str) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and color in v.chars(r).colors,
                         f".of_color({color!r})", COLORS)

    def not_color(self, color: str) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and color not in v.chars(r).colors,
                         f".not_color({color!r})", COLORS)

    def nontoken(self) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and not v.obj(r).token, ".nontoken()")

    def tapped(self) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and v.obj(r).tapped, ".tapped()", TAPPED)

    def untapped(self) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and not v.obj(r).tapped, ".untapped()",
                         TAPPED)

    def attacking(self) -> Filter:
        def pred(v: Any, r: int, y: int, s: int) -> bool:
            c = v.state.combat
            return c is not None and r in c.attackers
        return self._and(pred, ".attacking()", frozenset({"combat"}))

    def power_at_most(self, n: int) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and (v.chars(r).power or 0) <= n,
                         f".power_at_most({n})", PT)

    def power_at_least(self, n: int) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and (v.chars(r).power or 0) >= n,
                         f".power_at_least({n})", PT)

    def mana_value_at_most(self, n: int) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and v.chars(r).mana_value <= n,
                         f".mana_value_at_most({n})",
                         MANA_VALUE)

    def in_zone(self, zone: str) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and v.obj(r).zone == zone,
                         f".in_zone({zone!r})", frozenset({zone}))

    def where(self, pred: Pred, desc: str = "where(...)", reads: Reads = None) -> Filter:
        """Also ``pred(view, ref, you, source)``; ``reads``: the characteristics it looks
        at (see :data:`Reads`; by default, any)."""
        return self._and(pred, f".{desc}", reads, local=False, sourceless=False)


CONTROLLER = frozenset({"controller"})
TYPES = frozenset({"types"})
COLORS = frozenset({"colors"})
ABILITIES = frozenset({"abilities"})
PT = frozenset({"pt"})
MANA_VALUE = frozenset({"mana_value"})
TAPPED = frozenset({"tapped"})
PERMANENT_TYPES = ("Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle")


def _zone(zone: str) -> Pred:
    return lambda v, r, y, s: r > 0 and r in v.state.objects and v.state.objects[r].zone == zone


def _on_bf(v: Any, r: int, y: int, s: int) -> bool:
    return r > 0 and r in v.state.objects and v.state.objects[r].zone == "battlefield"


def _typed(card_type: str) -> Pred:
    return lambda v, r, y, s: _on_bf(v, r, y, s) and card_type in v.chars(r).types


def _of_type(card_type: str) -> Pred:
    return lambda v, r, y, s: card_type in v.chars(r).types


def _typed_filter(card_type: str, desc: str) -> Filter:
    """A permanent of ``card_type``: on the battlefield, then of the type (two parts, so
    that :func:`matching` over the battlefield can leave the first out)."""
    return Filter(_typed(card_type), desc, TYPES, (_on_bf, _of_type(card_type)), True, True)


player = Filter(lambda v, r, y, s: r < 0 and not v.state.players[ref_player(r)].lost, "player",
                frozenset({"players"}), local=True, sourceless=True)
opponent = Filter(lambda v, r, y, s: r < 0 and not same_team(v.state, -1 - r, y),
                  "opponent", NOTHING, local=True, sourceless=True)
you = Filter(lambda v, r, y, s: r < 0 and ref_player(r) == y, "you", NOTHING, local=True,
             sourceless=True)
permanent = Filter(_on_bf, "permanent", NOTHING, local=True, sourceless=True)
creature = _typed_filter("Creature", "creature")
land = _typed_filter("Land", "land")
artifact = _typed_filter("Artifact", "artifact")
enchantment = _typed_filter("Enchantment", "enchantment")
planeswalker = _typed_filter("Planeswalker", "planeswalker")
nonland_permanent = Filter(lambda v, r, y, s: _on_bf(v, r, y, s) and "Land" not in v.chars(r).types,
                           "nonland_permanent", TYPES, local=True, sourceless=True)
noncreature_permanent = Filter(
    lambda v, r, y, s: _on_bf(v, r, y, s) and "Creature" not in v.chars(r).types,
    "noncreature_permanent", TYPES, local=True, sourceless=True)
creature_or_player = creature | player
"""The 2007 "target creature or player": planeswalkers are not included."""
any_target = creature | player | planeswalker


def _is_spell(v: Any, r: int, y: int, s: int) -> bool:
    return r > 0 and any(it.id == r and it.kind == "spell" for it in v.state.stack)


spell = Filter(_is_spell, "spell", frozenset({"stack"}), local=True, sourceless=True)
CARD_ZONES = ("library", "hand", "graveyard", "exile")


def _is_card(v: Any, r: int, y: int, s: int) -> bool:
    o = v.state.objects.get(r) if r > 0 else None
    return o is not None and o.zone in CARD_ZONES and not o.token


card = Filter(_is_card, "card", frozenset(CARD_ZONES), local=True, sourceless=True)
"""A card not on the battlefield or the stack (a token is never a card)."""
card_in_graveyard = Filter(_zone("graveyard"), "card_in_graveyard", frozenset({"graveyard"}),
                           local=True, sourceless=True)
card_in_hand = Filter(_zone("hand"), "card_in_hand", frozenset({"hand"}), local=True,
                      sourceless=True)
creature_card = card.with_type("Creature")
creature_spell = spell.with_type("Creature")
noncreature_spell = spell & ~spell.with_type("Creature")


class Kind(Filter):
    """Creature types used as a noun: ``kind("Goblin")`` is a Goblin *permanent*.

    ``kind("Goblin", "Elemental")`` is a permanent that is a Goblin or an
    Elemental (or both).  The properties say which other objects are meant:
    ``.creature`` (only creatures on the battlefield), ``.card`` (cards not on
    the battlefield or the stack), ``.spell`` (spells on the stack).
    """

    def __init__(self, *subtypes: str) -> None:
        self.subtypes = subtypes
        if len(subtypes) == 1:
            t = subtypes[0]
            has: Pred = lambda v, r, y, s: v.chars(r).has_subtype(t)  # noqa: E731
        else:
            def has(v: Any, r: int, y: int, s: int) -> bool:
                c = v.chars(r)
                return any(c.has_subtype(t) for t in subtypes)
        self._has = has
        self._name = "kind(" + ", ".join(repr(t) for t in subtypes) + ")"
        super().__init__(lambda v, r, y, s: _on_bf(v, r, y, s) and has(v, r, y, s), self._name,
                         TYPES, (_on_bf, has), True, True)

    @property
    def creature(self) -> Filter:
        parts = creature.parts + (self._has,)
        return Filter(_all_of(parts), f"{self._name}.creature", TYPES, parts, True, True)

    @property
    def card(self) -> Filter:
        parts = card.parts + (self._has,)
        return Filter(_all_of(parts), f"{self._name}.card", _union(card.reads, TYPES), parts,
                      True, True)

    @property
    def spell(self) -> Filter:
        parts = (_is_spell, self._has)
        return Filter(_all_of(parts), f"{self._name}.spell", _union(spell.reads, TYPES), parts,
                      True, True)


def kind(*subtypes: str) -> Kind:
    """A permanent of any of the given creature types (``kind("Goblin", "Shaman")``)."""
    if not subtypes:
        raise ValueError("kind() needs at least one creature type")
    for t in subtypes:
        if not is_creature_type(t):
            close = get_close_matches(t, creature_types(), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(f"kind({t!r}): {t!r} is not a creature type (CR 205.3m){hint}")
    return Kind(*subtypes)


def _pred_in(f: Filter, zone: str) -> Pred:
    """``f``'s predicate for the objects of ``zone`` (on the battlefield, without its
    "is on the battlefield" part)."""
    if zone == "battlefield" and f.parts[0] is _on_bf:  # (each id here is on it)
        return f.__dict__.get("_on_battlefield") or f.__dict__.setdefault(
            "_on_battlefield", _all_of(f.parts[1:]) if len(f.parts) > 1 else _anything)
    return f.pred


def matching(view: Any, f: Filter, you: int, source: int = 0,
             zone: str = "battlefield") -> list[int]:
    """Object ids in ``zone`` (battlefield order) that ``f`` accepts."""
    pred = _pred_in(f, zone)
    return [i for i in zone_ids(view.state, zone) if pred(view, i, you, source)]


def exists(view: Any, f: Filter, you: int, source: int = 0, zone: str = "battlefield") -> bool:
    """Whether ``f`` accepts an object in ``zone`` ("as long as you control a ..."): the
    first one found ends the search."""
    pred = _pred_in(f, zone)
    return any(pred(view, i, you, source) for i in zone_ids(view.state, zone))


def _anything(v: Any, r: int, y: int, s: int) -> bool:
    return True


def shares_creature_type(view: Any, a: int, b: int) -> bool:
    """Whether objects ``a`` and ``b`` share a creature type, in any zones ("if it shares
    a creature type with ~": kinship); a changeling shares every one."""
    ca, cb = view.chars(a), view.chars(b)
    if not (ca.has_creature_types and cb.has_creature_types):
        return False
    if ca.all_ctypes:
        return bool(cb.creature_types())
    return any(cb.has_subtype(t) for t in ca.creature_types())
