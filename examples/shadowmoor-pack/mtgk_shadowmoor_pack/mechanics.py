"""Shadowmoor's own mechanics, written as an outside pack writes them: conspire, retrace
and chroma, on the public API (mtgk.cards.*, mtgk.plugins.*)."""

from __future__ import annotations

import re
from typing import Any

from mtgk.cards.altcosts import OPTIONAL_COSTS, OptionalCost, optional_cost
from mtgk.cards.definitions import CardDef, Registry, Triggered
from mtgk.cards.dsl import controller, mana_cost_of
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import card, creature, spell
from mtgk.cards.history import cast_from
from mtgk.cards.keywords import declare_keyword
from mtgk.plugins.copy_spell import choose_new_targets, copy_spell
from mtgk.plugins.costs import discard, tap_untapped
from mtgk.plugins.reveal_cost import AdditionalCost
from mtgk.plugins.triggers import reflexive, when_you_do_as_cast
from mtgk.rules.engine import Game
from mtgk.rules.layers import View

PACK = "mtgk_shadowmoor_pack"


def _has_conspire(card: CardDef) -> str:
    if any(oc.name == "conspire" for oc in card.extras.get(OPTIONAL_COSTS, ())):
        return ""
    return "no conspire optional cost (mtgk_shadowmoor_pack.mechanics.conspire())"


declare_keyword("conspire", PACK, check=_has_conspire,
                what="tap two untapped creatures that share a color with the spell: copy it")
declare_keyword("retrace", PACK, check=lambda d: _has_retrace(d),
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


def _copy_it(c: Ctx) -> None:
    """"copy it and you may choose a new target for the copy" (nothing if the spell has
    left the stack)."""
    copy = copy_spell(c.game, c.controller, c.source)
    if copy is not None:
        choose_new_targets(c.game, c.controller, copy)


def conspire() -> tuple[OptionalCost, Triggered]:
    """"Conspire (As you cast this spell, you may tap two untapped creatures you control
    that share a color with it. When you do, copy it and you may choose a new target for
    the copy.)": the optional cost and its reflexive ability; give the card both,
    ``S.card(name, spell(...), *conspire())``.  The copy is made when the reflexive
    ability resolves, above the spell (CR 702.78a)."""
    when_you_do = reflexive(_copy_it, text="when you do, copy it")

    def pay(game: Game, player: int, item: int) -> None:
        cost = _tap_two(game, player, item)
        assert cost is not None
        cost.pay(game, player, item)
        when_you_do_as_cast(game, item, when_you_do, player)

    return (optional_cost("conspire", can_pay=_can_conspire, pay=pay,
                          text="tap two untapped creatures you control that share a color "
                               "with it"), when_you_do)


# --------------------------------------------------------------------------- retrace


def _in_graveyard(game: Game, player: int, oid: int) -> bool:
    o = game.state.objects.get(oid)
    return o is not None and o.zone == "graveyard" and o.owner == player


class Retrace(AdditionalCost):
    """Retrace's "by discarding a land card in addition to paying its other costs": paid
    when the spell is cast from the graveyard (:func:`mtgk.cards.history.cast_from`)."""

    def __init__(self) -> None:
        self.part = discard(card.with_type("Land"), "a land card")

    def unpayable(self, game: Game, player: int, oid: int) -> str:
        if _in_graveyard(game, player, oid) and not self.part.can_pay(game, player, oid):
            return "retrace: no land card in your hand to discard"
        return ""

    def pay(self, game: Game, player: int, spell: int) -> None:
        if cast_from(game, spell) == "graveyard":
            self.part.pay(game, player, spell)


def retrace() -> Retrace:
    """"Retrace (You may cast this card from your graveyard by discarding a land card in
    addition to paying its other costs.)": the additional cost; the rule that lets its
    owner cast it from the graveyard, for its mana cost (CR 702.81a), is :func:`register`'s.
    ``S.card(name, spell(...), additional_cost=retrace())``."""
    return Retrace()


def _has_retrace(d: CardDef) -> str:
    if isinstance(d.extras.get("additional_cost"), Retrace):
        return ""
    return "no retrace additional cost (mtgk_shadowmoor_pack.mechanics.retrace())"


def register(registry: Registry) -> None:
    """The rule retrace adds: its owner may cast a retrace card from their graveyard, for
    its "retrace" cost (:meth:`Registry.allow_casting_from`)."""
    def may_retrace(game: Game, player: int, oid: int) -> list[str]:
        o = game.state.objects.get(oid)
        if o is None or o.zone != "graveyard" or o.owner != player:
            return []
        return [""] if not _has_retrace(registry[o.card]) else []  # its normal cost

    registry.allow_casting_from(may_retrace, zones=("graveyard",))
