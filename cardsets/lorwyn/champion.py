"""Lorwyn cards with champion (issue 5), and Morningtide's Lightning Crafter.

Champion itself is :mod:`mtgk.plugins.champion`: ``*champion(quality, text)`` spreads
its two linked triggered abilities into a card.  Keywords such as trample,
flash or changeling come from the card facts.
"""

from __future__ import annotations

from typing import Any

from mtgk.cards.dsl import activated, create, has, lord, target, triggered
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import creature, kind, land, player
from mtgk.log import events as ev
from mtgk.plugins.champion import champion, championed
from mtgk.rules.layers import View

from .cards import S


def deals_combat_damage_to_a_player(who: Any) -> Any:
    """"Whenever [who(view, source, event)] deals combat damage to a player"."""
    def when(v: View, src: int, e: Any) -> bool:
        return bool(e.combat and e.target < 0 and e.source in v.state.objects
                    and who(v, src, e))
    return when


# ------------------------------------------------------------------ white

S.card("Changeling Hero", *champion(creature, "a creature"))  # changeling, lifelink

S.card("Thoughtweft Trio",  # first strike, vigilance
       *champion(kind("Kithkin"), "a Kithkin"),
       has("can block any number"))


# ------------------------------------------------------------------ blue

def _tap_all_lands(c: Ctx) -> None:
    """Tap all lands target player controls."""
    who = c.controller_of(c.target(0))
    for oid in c.objects(land):
        if c.chars(oid).controller == who:
            c.tap(oid)


S.card("Mistbind Clique",  # flash, flying
       *champion(kind("Faerie"), "a Faerie"),
       championed(kind("Faerie").card, _tap_all_lands, target(player)))


def _extra_turn(c: Ctx) -> None:
    """You may sacrifice a Merfolk. If you do, take an extra turn after this one."""
    merfolk = c.objects(kind("Merfolk").you_control())
    if merfolk and c.may("sacrifice a Merfolk to take an extra turn?"):
        c.sacrifice(c.choose(merfolk, prompt="sacrifice a Merfolk"))
        c.take_extra_turn()


S.card("Wanderwine Prophets",
       *champion(kind("Merfolk"), "a Merfolk"),
       triggered(ev.DamageDealt,
                 deals_combat_damage_to_a_player(lambda v, src, e: e.source == src),
                 _extra_turn))


# ------------------------------------------------------------------ black



def _goblin_you_control(v: View, src: int, e: Any) -> bool:
    return kind("Goblin").you_control()(v, e.source, v.chars(src).controller, src)


def _goblin_rogue(c: Ctx) -> None:
    """You may create a 1/1 black Goblin Rogue creature token."""
    if c.may("create a 1/1 black Goblin Rogue?"):
        c.create_token("Goblin Rogue")


S.card("Boggart Mob",
       *champion(kind("Goblin"), "a Goblin"),
       triggered(ev.DamageDealt, deals_combat_damage_to_a_player(_goblin_you_control),
                 _goblin_rogue))


# ------------------------------------------------------------------ red

S.card("Changeling Berserker", *champion(creature, "a creature"))  # changeling, haste
S.card("Nova Chaser", *champion(kind("Elemental"), "an Elemental"))  # trample


# ------------------------------------------------------------------ green

S.card("Changeling Titan", *champion(creature, "a creature"))  # changeling

S.card("Wren's Run Packmaster",
       *champion(kind("Elf"), "an Elf"),
       activated("{2}{G}", create("Wolf")),
       lord(kind("Wolf").you_control(), 0, 0, grant=["deathtouch"]))



