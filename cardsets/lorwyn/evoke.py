"""Lorwyn cards with evoke (issue 5): the twelve Elementals.

Evoke itself is :mod:`mtgk.plugins.evoke`: ``evoke(cost)`` is the keyword (the
alternative cost and the sacrifice trigger).  Keywords such as flash or reach
come from the card facts.  The 2007 wording "target creature or player" is
used where the current Oracle text says "any target" (planeswalkers could not
be targeted that way under the Lorwyn rules).
"""

from __future__ import annotations

from mtgk.cards.dsl import destroy, draw, etb, has, pump, return_to_hand, target
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import (
    artifact,
    creature,
    creature_or_player,
    enchantment,
    land,
    nonland_permanent,
    player,
)
from mtgk.plugins.evoke import evoke
from mtgk.plugins.prevention import prevent_next

from .cards import S

# ------------------------------------------------------------------ white

S.card("Dawnfluke",  # flash
       etb(lambda c: prevent_next(c, c.target(0), 3), target(creature_or_player)),
       evoke("{W}"))

S.card("Wispmare", etb(destroy(), target(enchantment)), evoke("{W}"))  # flying


# ------------------------------------------------------------------ blue

S.card("Aethersnipe", etb(return_to_hand(), target(nonland_permanent)),
       evoke("{1}{U}{U}"))

S.card("Mulldrifter", etb(draw(2)), evoke("{2}{U}"))  # flying


# ------------------------------------------------------------------ black

def _discard_two(c: Ctx) -> None:
    """Target player discards two cards (of their choice)."""
    who = c.controller_of(c.target(0))
    if who is None:
        return
    hand = list(c.state.players[who].hand)
    c.discard_all(c.choose(hand, kind="discard", player=who, prompt="discard two cards",
                           count=min(2, len(hand))))


S.card("Mournwhelk", etb(_discard_two, target(player)), evoke("{3}{B}"))

nonartifact_nonblack_creature = creature.not_color("B").where(
    lambda v, r, y, s: "Artifact" not in v.chars(r).types, "nonartifact()")
S.card("Shriekmaw", etb(destroy(), target(nonartifact_nonblack_creature)),  # fear
       evoke("{1}{B}"))


# ------------------------------------------------------------------ red

S.card("Faultgrinder", etb(destroy(), target(land)), evoke("{4}{R}"))  # trample


def _cant_block(c: Ctx) -> None:
    """Up to two target creatures can't block this turn."""
    chosen = c.legal_targets()
    if chosen:
        c.until_end_of_turn("grant", chosen, ["can't block"])


S.card("Glarewielder", etb(_cant_block, target(creature, count=2, up_to=True)),  # haste
       evoke("{1}{R}"))

S.card("Ingot Chewer", etb(destroy(), target(artifact)), evoke("{R}"))

S.card("Inner-Flame Acolyte", etb(pump(2, 0, grant=["haste"]), target(creature)),
       evoke("{R}"))


# ------------------------------------------------------------------ green

S.card("Briarhorn", etb(pump(3, 3), target(creature)), evoke("{1}{G}"))  # flash


def _cloudthresher(c: Ctx) -> None:
    """~ deals 2 damage to each creature with flying and each player."""
    for oid in c.objects(creature.with_ability("flying")):
        c.damage(oid, 2)
    for p in c.players():
        c.damage(c.player_ref(p), 2)


S.card("Cloudthresher", etb(_cloudthresher), evoke("{2}{G}{G}"))  # flash, reach


# ------------------------------------------------------------------ a simple Lorwyn card the
# evoke example needs (Cloudthresher's flying victim), unless the simple cards define it

if "Nightshade Stinger" not in S.defs:
    S.card("Nightshade Stinger", has("can't block"))  # flying
