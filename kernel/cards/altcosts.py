"""Alternative costs: "You may cast this spell by paying [cost] rather than paying its mana
cost" (CR 118.9), as a general mechanism a pack declares.

An alternative cost has a name (``"evoke"``, ``"prowl"``), a cost, and optionally a
condition saying when it may be used::

    from mtgk.cards.altcosts import alt_cost, alt_cost_paid

    # Prowl {2}{U} (You may cast this for its prowl cost if you dealt combat damage to
    # a player this turn with a Faerie or Rogue: a creature of one of its types.)
    def prowl(cost: str) -> AltCost:
        return alt_cost("prowl", cost, condition=dealt_damage_with_one_of_its_types,
                        unless="you dealt combat damage to a player this turn with a "
                               "creature of one of its creature types")

    S.card("Latchkey Faerie", prowl("{2}{U}"),
           etb(draw(1), intervening_if=...))       # "if its prowl cost was paid"

* :func:`alt_cost` builds an :class:`AltCost`; give it to ``CardSet.card`` among the
  card's abilities (it is not an ability: ``CardSet.card`` takes it out and records it
  as the card's alternative cost, ``CardDef.alt_costs[name]``).
* A player chooses it with a cast action's ``alt`` (a scenario's ``alt_cost: prowl``);
  the engine offers it among the legal actions when the condition holds, and refuses it
  otherwise with a rules error naming what the condition asks.  Cost increases and
  reductions apply to it; a spell cast "without paying its mana cost" can't use it
  (CR 118.9a); its mana cost and mana value don't change (CR 118.9c).
* :func:`alt_cost_paid` asks whether it was paid: for a spell on the stack (or
  resolving) and for the permanent that spell became (the engine marks a permanent with
  the alternative cost it was cast for as it enters, ``ObjectFlagged(key="cast_alt")``;
  a permanent that entered any other way has no mark).  ``Ctx.alt_cost_paid(name)``
  asks it about the resolving spell or the source of the resolving ability.
* :func:`enters_if_alt_paid` is the trigger "When ~ enters, if its [name] cost was
  paid, ..." (evoke's sacrifice is one).

A condition is ``condition(game, player, card) -> bool``: may ``player`` cast ``card``
(in the zone it is cast from) for this cost now?  It reads the game (``mtgk.cards.history``
answers questions about this turn) and must not change it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import (
    ALT_CONDITIONS,
    CardDef,
    Effect,
    Target,
    Triggered,
)
from mtgk.log import events as ev
from mtgk.rules.effects import alt_cost_paid, optional_cost_paid, paid_flag

if TYPE_CHECKING:
    from mtgk.rules.engine import Game
    from mtgk.rules.layers import View

__all__ = ["AltCost", "alt_cost", "alt_cost_paid", "alt_costs_of", "enters_if_alt_paid",
           "ALT_CONDITIONS", "OptionalCost", "optional_cost", "optional_cost_paid",
           "OPTIONAL_COSTS", "pay_optional_costs"]


Condition = Callable[["Game", int, int], bool]


@dataclass(frozen=True)
class AltCost:
    """An alternative cost a card may be cast for: its ``name`` (what a cast action's
    ``alt`` and a scenario's ``alt_cost`` say), its ``cost`` (mana, as printed), and when
    it may be used: ``condition(game, player, card)`` (``None``: always), ``unless`` the
    condition in words, for the error when it doesn't hold."""

    name: str
    cost: str
    condition: Condition | None = None
    unless: str = ""

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.strip().lower():
            raise ValueError(f"alt_cost: the name {self.name!r} must be lower case "
                             "(\"prowl\"), as a scenario's alt_cost gives it")


def alt_cost(name: str, cost: str, condition: Condition | None = None,
             unless: str = "") -> AltCost:
    """An alternative cost for ``CardSet.card``: ``alt_cost("prowl", "{1}{B}",
    condition=..., unless="you dealt combat damage ...")`` (see :class:`AltCost`)."""
    from mtgk.rules.mana import ManaCost
    ManaCost.parse(cost)  # a cost that doesn't parse fails as the pack loads
    return AltCost(name, cost, condition, unless)


def alt_costs_of(card: CardDef) -> dict[str, AltCost]:
    """The alternative costs of a card definition, by name (each as an :class:`AltCost`;
    one given only as a name and a cost has no condition)."""
    conds: dict[str, AltCost] = card.extras.get(ALT_CONDITIONS, {})
    faces = card.extras.get("faces", {})
    return {n: conds.get(n) or AltCost(n, c) for n, c in card.alt_costs.items()
            if n not in faces}


def enters_if_alt_paid(name: str, effect: Effect, *targets: Target,
                       text: str = "") -> Triggered:
    """"When ~ enters, if its [name] cost was paid, [effect]": it triggers as the
    permanent is marked with the alternative cost it was cast for, together with its
    other enters abilities, and checks the mark again as it resolves (an intervening
    "if"; a permanent that has left by then still counts)."""
    def marked(v: View, src: int, e: Any) -> bool:
        return bool(e.obj == src and e.key == "cast_alt" and e.value == name)

    def still(v: View, src: int, data: Any) -> bool:
        o = v.state.objects.get(src)
        return o is None or o.zone != "battlefield" or alt_cost_paid(v, src, name)

    return Triggered((ev.ObjectFlagged.TAG,), marked, effect, tuple(targets),
                     intervening_if=still, text=text or f"enters, if its {name} cost was paid")


# ---------------------------------------------------------------- optional additional costs

OPTIONAL_COSTS = "optional_costs"
"""The key of ``CardDef.extras`` holding a card's :class:`OptionalCost` objects."""

CanPay = Callable[["Game", int, int], bool]
Pay = Callable[["Game", int, int], None]


@dataclass(frozen=True)
class OptionalCost:
    """An optional additional cost of a spell: "You may [cost] as you cast this spell"
    (kicker, conspire, buyback, bargain-like).  ``name`` (lower case) is what
    :func:`optional_cost_paid` asks; ``mana`` its mana part (``"{1}{G}"``, or ``""``);
    ``can_pay(game, player, spell)`` and ``pay(game, player, spell)`` its other part
    ("tap two untapped creatures you control that share a color with it"), ``None`` when
    it has none; ``text`` the cost in words, for the question."""

    name: str
    mana: str = ""
    can_pay: CanPay | None = None
    pay: Pay | None = None
    text: str = ""

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.strip().lower():
            raise ValueError(f"optional_cost: the name {self.name!r} must be lower case")


def optional_cost(name: str, mana: str = "", can_pay: CanPay | None = None,
                  pay: Pay | None = None, text: str = "") -> OptionalCost:
    """An optional additional cost for ``CardSet.card`` (see :class:`OptionalCost`):
    kicker {1}{G} is ``optional_cost("kicker", "{1}{G}")``.  As the spell is cast (after
    its mana cost is paid) its controller is asked ``may`` (a scenario answers
    ``{may: yes}``) when they can pay it; paid, the spell -- and the permanent it
    becomes -- is marked, and :func:`optional_cost_paid` (``Ctx.optional_cost_paid``)
    says so."""
    from mtgk.rules.mana import ManaCost
    ManaCost.parse(mana)  # a cost that doesn't parse fails as the pack loads
    return OptionalCost(name, mana, can_pay, pay, text)


def pay_optional_costs(game: Game, player: int, spell: int) -> None:
    """The cast hook that offers a spell's optional costs (``CardSet.card`` adds it to a
    registry with a card that has one): each in printed order, when it can be paid."""
    from mtgk.rules.mana import ManaCost

    o = game.state.objects.get(spell)
    if o is None:
        return
    d = game.reg[o.flags.get("face") or o.card]
    for oc in d.extras.get(OPTIONAL_COSTS, ()):
        mana = ManaCost.parse(oc.mana)
        plan = None
        try:
            if not mana.is_free:
                plan = game.plan_mana(player, mana, ("spell", spell))
                if plan is None:
                    continue
            if oc.can_pay is not None and not oc.can_pay(game, player, spell):
                continue
        except Exception as exc:
            game.card_failed(exc, d.name, None, f"optional cost {oc.name}")
        words = oc.text or (oc.mana if oc.mana else oc.name)
        if not game.choose(player, "may", [False, True],
                           f"{d.name}: {oc.name} -- pay {words}?",
                           context={"answer": "may", "optional_cost": oc.name}):
            continue
        if plan is not None:
            game.pay(player, plan)
        if oc.pay is not None:
            try:
                oc.pay(game, player, spell)
            except Exception as exc:
                game.card_failed(exc, d.name, None, f"optional cost {oc.name}")
        game.emit(ev.ObjectFlagged(obj=spell, key=paid_flag(oc.name), value=True))
