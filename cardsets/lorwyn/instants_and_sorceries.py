"""Lorwyn instants and sorceries that have no mechanic of their own elsewhere: Ponder,
Fathom Trawl, Footbottom Feast and Lammastide Weave (the library), Needle Drop (damage
to what was dealt damage this turn) and Wild Ricochet (copying a spell).

Mechanisms: looking at and reordering the top of a library is
:func:`mtgk.plugins.library.look_and_reorder`, putting cards on the bottom in any order
:func:`mtgk.plugins.scry.put_on_bottom_in_any_order`; what was dealt damage this turn is
``state.damaged``; Wild Ricochet copies a spell and chooses new targets
(:mod:`mtgk.plugins.copy_spell`, the cookbook's "Copying spells" in docs/pack-authors.md).

The other Lorwyn instants and sorceries are filed by what they do: Fodder Launch and
Familiar's Ruse in additional_costs.py, Hunt Down in combat.py, Heal the Scars in
prevention_and_regeneration.py, Makeshift Mannequin and Heat Shimmer in
granted_abilities.py, the tribal ones in tribal.py, the Commands in commands.py, the
spells the kernel expresses directly in simple.py.

Oracle wordings, with the 2007 rules where they differ: Needle Drop's "target creature
or player" where today's Oracle text says "any target".
"""

from __future__ import annotations

from mtgk.cards.dsl import spell, target
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import card_in_graveyard, creature_or_player, player
from mtgk.cards.filters import spell as a_spell
from mtgk.plugins.copy_spell import choose_new_targets, copy_spell
from mtgk.plugins.library import look_and_reorder
from mtgk.plugins.scry import put_on_bottom_in_any_order

from .cards import S

_EARLIER = set(S.defs)


# ======================================================================== the library

def _ponder(c: Ctx) -> None:
    """Look at the top three cards of your library, then put them back in any order. You
    may shuffle. Draw a card."""
    look_and_reorder(c.game, c.you, 3)
    if c.may("shuffle your library?"):
        c.shuffle()
    c.draw(c.you, 1)


S.card("Ponder", spell(_ponder))


def _fathom_trawl(c: Ctx) -> None:
    """Reveal cards from the top of your library until you reveal three nonland cards. Put
    the nonland cards revealed this way into your hand, then put the rest of the revealed
    cards on the bottom of your library in any order."""
    lib = c.state.players[c.you].library
    shown: list[int] = []
    nonland: list[int] = []
    for oid in lib:
        if len(nonland) == 3:
            break
        shown.append(oid)
        if "Land" not in c.chars(oid).types:
            nonland.append(oid)
    c.reveal(c.you, shown)
    c.game.move_all(nonland, "hand", reason="reveal")
    rest = [o for o in shown if o not in nonland]
    for nxt in put_on_bottom_in_any_order(c.game, c.you, rest,
                                          "put on the bottom of your library: the next card"):
        c.put_on_library(nxt, bottom=True)


S.card("Fathom Trawl", spell(_fathom_trawl))


def _footbottom_feast(c: Ctx) -> None:
    """Put any number of target creature cards from your graveyard on top of your library.
    Draw a card."""
    for oid in c.legal_targets():
        c.put_on_library(oid)
    c.draw(c.you, 1)


S.card("Footbottom Feast",
       spell(_footbottom_feast,
             target(card_in_graveyard.with_type("Creature").you_own(), count=99, up_to=True)))


def _lammastide_weave(c: Ctx) -> None:
    """Choose a card name, then target player mills a card. If a card with the chosen name
    was milled this way, you gain life equal to its mana value. Draw a card."""
    name = c.choose(sorted(c.game.reg.cards), prompt="choose a card name")
    who = c.controller_of(c.target(0))
    if who is not None:
        milled = [c.state.objects[o].card for o in c.state.players[who].library[:1]]
        c.mill(who, 1)
        if milled and milled[0] == name:
            c.gain_life(c.you, c.game.reg[name].facts.mana_value)
    c.draw(c.you, 1)


S.card("Lammastide Weave", spell(_lammastide_weave, target(player)))


# ======================================================================== damage dealt this turn

damaged_this_turn = creature_or_player.where(lambda v, r, y, s: r in v.state.damaged,
                                             "dealt_damage_this_turn()")


def _needle_drop(c: Ctx) -> None:
    """~ deals 1 damage to target creature or player that was dealt damage this turn.
    Draw a card."""
    c.damage(c.target(0), 1)
    c.draw(c.you, 1)


S.card("Needle Drop", spell(_needle_drop, target(damaged_this_turn)))


# ======================================================================== copying a spell

def _wild_ricochet(c: Ctx) -> None:
    """You may choose new targets for target instant or sorcery spell. Then copy that
    spell. You may choose new targets for the copy."""
    t = c.target(0)
    if t is None:
        return
    choose_new_targets(c.game, c.controller, t)
    choose_new_targets(c.game, c.controller, copy_spell(c.game, c.controller, t))


S.card("Wild Ricochet", spell(_wild_ricochet,
                              target(a_spell.with_type("Instant") | a_spell.with_type("Sorcery"))))


#: The cards this module defines (tokens included), in definition order.
CARDS: list[str] = [n for n in S.defs if n not in _EARLIER]
