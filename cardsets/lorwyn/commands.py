"""Lorwyn cards: the five Commands ("Choose two --").

A Command is an ordinary modal spell (``modal(2, mode(...), ...)``): the kernel
asks for two different modes as it is cast, offers a mode only if its targets can
be chosen, lets both modes target the same object or player, and resolves the
chosen modes in printed order (see ``docs/mechanics/commands.md``).
"""

from __future__ import annotations

from collections.abc import Callable

from mtgk.cards.definitions import X_COUNT
from mtgk.cards.dsl import counter, damage, destroy, draw, modal, mode, return_to_hand, target
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import (
    Filter,
    artifact,
    creature,
    creature_card,
    enchantment,
    land,
    noncreature_permanent,
    permanent,
    player,
    spell,
)

from .cards import S

mv_at_least_4 = creature.where(lambda v, r, y, s: v.chars(r).mana_value >= 4,
                               "mana_value_at_least(4)")
nonbasic_land = land.where(lambda v, r, y, s: "Basic" not in v.chars(r).supertypes, "nonbasic()")
creature_card_mv_x_in_your_graveyard = creature_card.in_your("graveyard").where(
    lambda v, r, y, s: v.chars(r).mana_value <= v.x, "mana_value_at_most_x()")


def destroy_all(f: Filter) -> Callable[[Ctx], None]:
    """Destroy all [f]."""
    def eff(c: Ctx) -> None:
        c.destroy_all(c.objects(f))  # all at once
    return eff


# Austere Command -------------------------------------------------------------

S.card("Austere Command", modal(
    2,
    mode("Destroy all artifacts.", destroy_all(artifact)),
    mode("Destroy all enchantments.", destroy_all(enchantment)),
    mode("Destroy all creatures with mana value 3 or less.",
         destroy_all(creature.mana_value_at_most(3))),
    mode("Destroy all creatures with mana value 4 or greater.", destroy_all(mv_at_least_4))))


# Cryptic Command -------------------------------------------------------------

def _tap_opponents_creatures(c: Ctx) -> None:
    """Tap all creatures your opponents control."""
    for oid in c.objects(creature.opponent_controls()):
        c.tap(oid)


S.card("Cryptic Command", modal(
    2,
    mode("Counter target spell.", counter(), target(spell)),
    mode("Return target permanent to its owner's hand.", return_to_hand(),
         target(permanent)),
    mode("Tap all creatures your opponents control.", _tap_opponents_creatures),
    mode("Draw a card.", draw(1))))


# Incendiary Command ----------------------------------------------------------

def _two_to_each_creature(c: Ctx) -> None:
    """Incendiary Command deals 2 damage to each creature."""
    for oid in c.objects(creature):
        c.damage(oid, 2)


def _wheel(c: Ctx) -> None:
    """Each player discards all the cards in their hand, then draws that many cards."""
    order = c.players()
    counts = {p: len(c.state.players[p].hand) for p in order}
    c.discard_all([oid for p in order for oid in c.state.players[p].hand])  # all at once
    for p in order:
        c.draw(p, counts[p])


S.card("Incendiary Command", modal(
    2,
    # 2007 wording (the rules of the seeds): "deals 4 damage to target player"
    mode("Incendiary Command deals 4 damage to target player.", damage(4), target(player)),
    mode("Incendiary Command deals 2 damage to each creature.", _two_to_each_creature),
    mode("Destroy target nonbasic land.", destroy(), target(nonbasic_land)),
    mode("Each player discards all the cards in their hand, then draws that many cards.",
         _wheel)))


# Primal Command --------------------------------------------------------------

def _gain_seven(c: Ctx) -> None:
    c.gain_life(c.controller_of(c.target(0)), 7)


def _shuffle_graveyard_in(c: Ctx) -> None:
    """Target player shuffles their graveyard into their library."""
    p = c.controller_of(c.target(0))
    if p is None:
        return
    c.game.move_all(list(c.state.players[p].graveyard), "library", reason="shuffle")
    c.shuffle(p)


def _search_creature(c: Ctx) -> None:
    """Search your library for a creature card, reveal it, put it into your hand, then
    shuffle.  (A search for a card with a stated quality may find nothing.)"""
    you = c.controller
    found = [o for o in c.state.players[you].library if "Creature" in c.chars(o).types]
    pick = c.choose(found, prompt="search for a creature card", count=1, up_to=True) \
        if found else []
    for oid in pick:
        c.reveal(you, [oid])
        c.game.move(oid, "hand", reason="search")
    c.shuffle(you)


S.card("Primal Command", modal(
    2,
    mode("Target player gains 7 life.", _gain_seven, target(player)),
    mode("Put target noncreature permanent on top of its owner's library.",
         lambda c: c.put_on_library(c.target(0)), target(noncreature_permanent)),
    mode("Target player shuffles their graveyard into their library.", _shuffle_graveyard_in,
         target(player)),
    mode("Search your library for a creature card, reveal it, put it into your hand, then "
         "shuffle.", _search_creature)))


# Profane Command -------------------------------------------------------------

def _lose_x(c: Ctx) -> None:
    c.lose_life(c.controller_of(c.target(0)), c.x)


def _reanimate(c: Ctx) -> None:
    c.put_onto_battlefield(c.target(0), controller=c.controller)


def _minus_x(c: Ctx) -> None:
    t = c.target(0)
    if t is not None and c.x:
        c.until_end_of_turn("pt", [t], [-c.x, -c.x])


def _fear(c: Ctx) -> None:
    mine = c.legal_targets()
    if mine:
        c.until_end_of_turn("grant", mine, ["fear"])


S.card("Profane Command", modal(
    2,
    mode("Target player loses X life.", _lose_x, target(player)),
    mode("Return target creature card with mana value X or less from your graveyard to the "
         "battlefield.", _reanimate, target(creature_card_mv_x_in_your_graveyard)),
    mode("Target creature gets -X/-X until end of turn.", _minus_x, target(creature)),
    mode("Up to X target creatures gain fear until end of turn.", _fear,
         target(creature, count=X_COUNT, up_to=True))))
