"""Shadowmoor's own mechanics, written as an outside pack writes them: conspire, retrace
and chroma, on the public API (mtgk.cards.*, mtgk.plugins.*)."""

from __future__ import annotations

import re
from typing import Any

from mtgk.cards.altcosts import (
    OPTIONAL_COSTS,
    AltCost,
    OptionalCost,
    alt_cost,
    alt_cost_paid,
    alt_costs_of,
    optional_cost,
)
from mtgk.cards.definitions import CardDef, Registry
from mtgk.cards.dsl import controller, mana_cost_of
from mtgk.cards.filters import card, creature, spell
from mtgk.cards.keywords import declare_keyword, has_alt_cost
from mtgk.plugins.copy_spell import choose_new_targets, copy_spell
from mtgk.plugins.costs import discard, tap_untapped
from mtgk.plugins.reveal_cost import AdditionalCost
from mtgk.rules.engine import Game
from mtgk.rules.layers import View

PACK = "mtgk_shadowmoor_pack"


def _has_conspire(card: CardDef) -> str:
    if any(oc.name == "conspire" for oc in card.extras.get(OPTIONAL_COSTS, ())):
        return ""
    return "no conspire optional cost (mtgk_shadowmoor_pack.mechanics.conspire())"


declare_keyword("conspire", PACK, check=_has_conspire,
                what="tap two untapped creatures that share a color with the spell: copy it")
declare_keyword("retrace", PACK, check=has_alt_cost("retrace"),
                what="cast from the graveyard, discarding a land card as well")
declare_keyword("chroma", PACK, what="an ability word: counts mana symbols", ability=False)

# --------------------------------------------------------------------------- chroma

_SYMBOL = re.compile(r"\{([^}]*)\}")


def mana_symbols(v: View, color: str, you: int) -> int:
    """Chroma: the number of [color] mana symbols in the mana costs of permanents ``you``
    control (a hybrid symbol {R/G} counts for both of its colours, {2/W} for white)."""
    n = 0
    for o in v.state.battlefield:
        if controller(v, o) != you:
            continue
        cost = mana_cost_of(v, o)
        n += sum(color in sym.split("/") for sym in _SYMBOL.findall(cost))
    return n


# --------------------------------------------------------------------------- conspire


def _shares_a_color(game: Game, player: int, item: int) -> Any:
    v = game.view()
    colors = [col for col in "WUBRG" if spell.of_color(col)(v, item, player, item)]
    f = None
    for col in colors:
        f = creature.of_color(col) if f is None else f | creature.of_color(col)
    return f


def _tap_two(game: Game, player: int, item: int) -> Any:
    f = _shares_a_color(game, player, item)
    return None if f is None else tap_untapped(f, 2, "two untapped creatures that share "
                                               "a color with it")


def _can_conspire(game: Game, player: int, item: int) -> bool:
    cost = _tap_two(game, player, item)
    return cost is not None and cost.can_pay(game, player, item)


def _conspire(game: Game, player: int, item: int) -> None:
    cost = _tap_two(game, player, item)
    assert cost is not None
    cost.pay(game, player, item)
    # WORKAROUND: "When you do, copy it" is a reflexive triggered ability, but an optional
    # cost's pay(game, player, spell) has no Ctx for mtgk.plugins.triggers.when_you_do:
    # the copy is made here, as the cost is paid (it still resolves first).
    choose_new_targets(game, player, copy_spell(game, player, item))


def conspire() -> OptionalCost:
    """"Conspire (As you cast this spell, you may tap two untapped creatures you control
    that share a color with it. When you do, copy it and you may choose a new target for
    the copy.)" """
    return optional_cost("conspire", can_pay=_can_conspire, pay=_conspire,
                         text="tap two untapped creatures you control that share a color "
                              "with it")


# --------------------------------------------------------------------------- retrace


def _in_graveyard(game: Game, player: int, oid: int) -> bool:
    o = game.state.objects.get(oid)
    return o is not None and o.zone == "graveyard" and o.owner == player


class DiscardALandIfRetraced(AdditionalCost):
    """Retrace's "by discarding a land card in addition to paying its other costs"."""

    def __init__(self) -> None:
        self.part = discard(card.with_type("Land"), "a land card")

    def unpayable(self, game: Game, player: int, oid: int) -> str:
        if _in_graveyard(game, player, oid) and not self.part.can_pay(game, player, oid):
            return "retrace: no land card in your hand to discard"
        return ""

    def pay(self, game: Game, player: int, spell: int) -> None:
        if alt_cost_paid(game, spell, "retrace"):
            self.part.pay(game, player, spell)


def retrace(mana_cost: str) -> tuple[AltCost, DiscardALandIfRetraced]:
    """"Retrace (You may cast this card from your graveyard by discarding a land card in
    addition to paying its other costs.)": an alternative cost named "retrace" that is its
    mana cost (CR 702.81a: the card is cast for its mana cost from the graveyard), and an
    additional cost that discards a land card when it is used.  Give the card both:
    ``alt, extra = retrace("{R}"); S.card(name, spell(...), alt, additional_cost=extra)``."""
    # WORKAROUND: retrace is not an alternative cost (CR 702.81a: the mana cost is paid),
    # but a cast permission can only offer the normal cost or a named alternative cost,
    # and an additional cost can't tell which zone its spell was cast from: an alternative
    # cost "retrace" equal to the mana cost marks a cast from the graveyard.
    return (alt_cost("retrace", mana_cost, condition=_in_graveyard,
                     unless="the card is in your graveyard"), DiscardALandIfRetraced())


def register(registry: Registry) -> None:
    """The rule retrace adds: its owner may cast a retrace card from their graveyard, for
    its "retrace" cost (:meth:`Registry.allow_casting_from`)."""
    def may_retrace(game: Game, player: int, oid: int) -> list[str]:
        o = game.state.objects.get(oid)
        if o is None or o.zone != "graveyard" or o.owner != player:
            return []
        return ["retrace"] if "retrace" in alt_costs_of(registry[o.card]) else []

    registry.allow_casting_from(may_retrace, zones=("graveyard",))


__all__ = ["conspire", "mana_symbols", "register", "retrace"]
