"""The filter vocabulary: how card text names objects and players.

Built once and used by every card, so that "Goblin", "Goblin creature",
"Goblin card" and "Goblin spell" mean what the Lorwyn primer says they mean:

* ``kind("Goblin")`` -- a Goblin *permanent* (a tribal permanent counts);
* ``kind("Goblin").creature`` -- only Goblin creatures on the battlefield;
* ``kind("Goblin").card`` -- a Goblin card not on the battlefield (tribal cards count);
* ``kind("Goblin").spell`` -- a Goblin spell on the stack;
* ``kind("Goblin").you_control()`` -- "you control a Goblin": permanents only,
  never spells (not even the spell asking).

Filters combine with ``&``, ``|`` and ``~``; they read like the card text:

>>> creature.you_control()
creature.you_control()
>>> creature_or_player
creature | player
>>> kind("Elf").creature.other()
kind('Elf').creature.other()

A filter is called as ``f(view, ref, you, source)``: ``view`` is a
:class:`kernel.layers.View`, ``ref`` an object id or player reference,
``you`` the controller of the spell or ability asking, ``source`` its object.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kernel.events import ref_player

Pred = Callable[[Any, int, int, int], bool]


class Filter:
    def __init__(self, pred: Pred, desc: str) -> None:
        self.pred = pred
        self.desc = desc

    def __call__(self, view: Any, ref: int, you: int, source: int = 0) -> bool:
        return self.pred(view, ref, you, source)

    def __repr__(self) -> str:
        return self.desc

    def __and__(self, other: Filter) -> Filter:
        a, b = self.pred, other.pred
        return Filter(lambda v, r, y, s: a(v, r, y, s) and b(v, r, y, s), f"({self} & {other})")

    def __or__(self, other: Filter) -> Filter:
        a, b = self.pred, other.pred
        return Filter(lambda v, r, y, s: a(v, r, y, s) or b(v, r, y, s), f"{self} | {other}")

    def __invert__(self) -> Filter:
        a = self.pred
        return Filter(lambda v, r, y, s: not a(v, r, y, s), f"~{self}")

    def _and(self, pred: Pred, suffix: str) -> Filter:
        a = self.pred
        return Filter(lambda v, r, y, s: a(v, r, y, s) and pred(v, r, y, s), f"{self}{suffix}")

    # modifiers -----------------------------------------------------------
    def you_control(self) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and v.chars(r).controller == y, ".you_control()")

    def opponent_controls(self) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and v.chars(r).controller != y,
                         ".opponent_controls()")

    def you_own(self) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and v.obj(r).owner == y, ".you_own()")

    def other(self) -> Filter:
        return self._and(lambda v, r, y, s: r != s, ".other()")

    def with_ability(self, ability: str) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and v.chars(r).has(ability),
                         f".with_ability({ability!r})")

    def without_ability(self, ability: str) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and not v.chars(r).has(ability),
                         f".without_ability({ability!r})")

    def with_type(self, card_type: str) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and v.chars(r).is_(card_type),
                         f".with_type({card_type!r})")

    def with_subtype(self, subtype: str) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and v.chars(r).has_subtype(subtype),
                         f".with_subtype({subtype!r})")

    def of_color(self, color: str) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and color in v.chars(r).colors,
                         f".of_color({color!r})")

    def not_color(self, color: str) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and color not in v.chars(r).colors,
                         f".not_color({color!r})")

    def nontoken(self) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and not v.obj(r).token, ".nontoken()")

    def tapped(self) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and v.obj(r).tapped, ".tapped()")

    def untapped(self) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and not v.obj(r).tapped, ".untapped()")

    def attacking(self) -> Filter:
        def pred(v: Any, r: int, y: int, s: int) -> bool:
            c = v.state.combat
            return c is not None and r in c.attackers
        return self._and(pred, ".attacking()")

    def power_at_most(self, n: int) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and (v.chars(r).power or 0) <= n,
                         f".power_at_most({n})")

    def power_at_least(self, n: int) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and (v.chars(r).power or 0) >= n,
                         f".power_at_least({n})")

    def mana_value_at_most(self, n: int) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and v.chars(r).mana_value <= n,
                         f".mana_value_at_most({n})")

    def in_zone(self, zone: str) -> Filter:
        return self._and(lambda v, r, y, s: r > 0 and v.obj(r).zone == zone,
                         f".in_zone({zone!r})")

    def where(self, pred: Pred, desc: str = "where(...)") -> Filter:
        return self._and(pred, f".{desc}")


def _zone(zone: str) -> Pred:
    return lambda v, r, y, s: r > 0 and r in v.state.objects and v.state.objects[r].zone == zone


def _on_bf(v: Any, r: int, y: int, s: int) -> bool:
    return r > 0 and r in v.state.objects and v.state.objects[r].zone == "battlefield"


def _typed(card_type: str) -> Pred:
    return lambda v, r, y, s: _on_bf(v, r, y, s) and card_type in v.chars(r).types


player = Filter(lambda v, r, y, s: r < 0 and not v.state.players[ref_player(r)].lost, "player")
opponent = Filter(lambda v, r, y, s: r < 0 and ref_player(r) != y, "opponent")
you = Filter(lambda v, r, y, s: r < 0 and ref_player(r) == y, "you")
permanent = Filter(_on_bf, "permanent")
creature = Filter(_typed("Creature"), "creature")
land = Filter(_typed("Land"), "land")
artifact = Filter(_typed("Artifact"), "artifact")
enchantment = Filter(_typed("Enchantment"), "enchantment")
planeswalker = Filter(_typed("Planeswalker"), "planeswalker")
nonland_permanent = Filter(lambda v, r, y, s: _on_bf(v, r, y, s) and "Land" not in v.chars(r).types,
                           "nonland_permanent")
noncreature_permanent = Filter(
    lambda v, r, y, s: _on_bf(v, r, y, s) and "Creature" not in v.chars(r).types,
    "noncreature_permanent")
creature_or_player = creature | player
"""The 2007 "target creature or player": planeswalkers are not included."""
any_target = creature | player | planeswalker


def _is_spell(v: Any, r: int, y: int, s: int) -> bool:
    return r > 0 and any(it.id == r and it.kind == "spell" for it in v.state.stack)


spell = Filter(_is_spell, "spell")
card = Filter(lambda v, r, y, s: r > 0 and r in v.state.objects
              and v.state.objects[r].zone not in ("battlefield", "stack"), "card")
card_in_graveyard = Filter(_zone("graveyard"), "card_in_graveyard")
card_in_hand = Filter(_zone("hand"), "card_in_hand")
creature_card = card.with_type("Creature")
creature_spell = spell.with_type("Creature")
noncreature_spell = spell & ~spell.with_type("Creature")


class Kind(Filter):
    """A creature type used as a noun: ``kind("Goblin")`` is a Goblin permanent."""

    def __init__(self, subtype: str) -> None:
        self.subtype = subtype
        has = lambda v, r, y, s: v.chars(r).has_subtype(subtype)  # noqa: E731
        self._has = has
        super().__init__(lambda v, r, y, s: _on_bf(v, r, y, s) and has(v, r, y, s),
                         f"kind({subtype!r})")

    @property
    def creature(self) -> Filter:
        h = self._has
        return Filter(lambda v, r, y, s: creature(v, r, y, s) and h(v, r, y, s),
                      f"kind({self.subtype!r}).creature")

    @property
    def card(self) -> Filter:
        h = self._has
        return Filter(lambda v, r, y, s: card(v, r, y, s) and h(v, r, y, s),
                      f"kind({self.subtype!r}).card")

    @property
    def spell(self) -> Filter:
        h = self._has
        return Filter(lambda v, r, y, s: _is_spell(v, r, y, s) and h(v, r, y, s),
                      f"kind({self.subtype!r}).spell")


def kind(*subtypes: str) -> Filter:
    """A permanent of any of the given creature types (``kind("Goblin", "Shaman")``)."""
    if len(subtypes) == 1:
        return Kind(subtypes[0])
    f: Filter = Kind(subtypes[0])
    for t in subtypes[1:]:
        f = f | Kind(t)
    return f


def matching(view: Any, f: Filter, you: int, source: int = 0,
             zone: str = "battlefield") -> list[int]:
    """Object ids in ``zone`` (battlefield order) that ``f`` accepts."""
    s = view.state
    if zone == "battlefield":
        ids: list[int] = s.battlefield
    elif zone == "stack":
        ids = [it.id for it in s.stack]
    elif zone == "exile":
        ids = s.exile
    else:
        ids = [i for p in s.players for i in getattr(p, zone)]
    return [i for i in ids if f(view, i, you, source)]
