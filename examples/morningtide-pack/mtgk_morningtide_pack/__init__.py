"""A second example card pack: seventeen Morningtide cards (kinship, prowl, reinforce,
an "enters with counters" lord, evoke, champion, changeling), written only against
mtgk's public API -- the pack-level mechanics are in :mod:`.mechanics`.

Installed with ``pip install examples/morningtide-pack``; ``pytest`` in this folder runs
its scenarios (``scenario_*.yaml``).
"""

from __future__ import annotations

from typing import Any

from mtgk.cards.altcosts import enters_if_alt_paid
from mtgk.cards.definitions import CardSetInfo
from mtgk.cards.dsl import (
    CardSet,
    activated,
    attacks_and_isnt_blocked,
    becomes_blocked,
    casts,
    controller,
    draw,
    each_opponent_loses_life,
    etb,
    leaves,
    may,
    self_pump,
    spell,
    target,
    triggered,
)
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import card_in_graveyard, creature, kind, player
from mtgk.cards.history import damage_dealt_to_player_this_turn
from mtgk.cards.loading import hookimpl
from mtgk.log import events as ev
from mtgk.plugins.champion import champion
from mtgk.plugins.enters import enters_with_counters_if
from mtgk.plugins.evoke import evoke
from mtgk.rules.layers import View

from .mechanics import kinship, prowl, reinforce

S = CardSet("morningtide", "0.1.0", __file__, extra_facts=("tokens.json",))
S.vanilla("Wolf", "Faerie Rogue")

# --- prowl
S.card("Latchkey Faerie", prowl("{2}{U}"), enters_if_alt_paid("prowl", draw(1)))

S.card("Stinkdrinker Bandit", prowl("{1}{B}"),
       attacks_and_isnt_blocked(lambda c: c.until_end_of_turn("pt", [c.subject], [2, 1]),
                                f=kind("Rogue").creature.you_control()))


def _morsel_theft(c: Ctx) -> None:
    c.lose_life(c.target(0), 3)
    c.gain_life(c.you, 3)
    if c.alt_cost_paid("prowl"):
        c.draw(c.you, 1)


S.card("Morsel Theft", prowl("{1}{B}"), spell(_morsel_theft, target(player)))


def _notorious_throng(c: Ctx) -> None:
    x = sum(damage_dealt_to_player_this_turn(c.game, p) for p in c.opponents())
    c.create_token("Faerie Rogue", x)
    if c.alt_cost_paid("prowl"):
        c.take_extra_turn()


S.card("Notorious Throng", prowl("{5}{U}"), spell(_notorious_throng))

# --- "enters with counters" from another permanent


def _other_rogue(v: View, src: int, obj: int) -> bool:
    return obj != src and kind("Rogue").creature.you_control()(v, obj, controller(v, src), src)


def _countered_creature_hits_player(v: View, src: int, e: Any) -> bool:
    o = v.state.objects.get(e.source)
    return bool(e.combat and ev.ref_player(e.target) is not None and o is not None
                and o.zone == "battlefield" and o.counters.get("+1/+1", 0) > 0
                and controller(v, e.source) == controller(v, src))


def _discards(c: Ctx) -> None:
    who = c.as_player(c.event.target)
    hand = list(c.state.players[who].hand)
    if hand:
        c.discard(who, c.choose(hand, kind="discard", player=who, prompt="discard a card"))


S.card("Oona's Blackguard",
       enters_with_counters_if(_other_rogue, {"+1/+1": 1},
                               "each other Rogue creature you control enters with an "
                               "additional +1/+1 counter"),
       triggered(ev.DamageDealt, _countered_creature_hits_player, _discards))

# --- kinship
S.card("Wolf-Skull Shaman", kinship(lambda c: c.create_token("Wolf")))
S.card("Winnower Patrol", kinship(lambda c: c.put_counters(c.source, "+1/+1", 1)))
S.card("Nightshade Schemers", kinship(each_opponent_loses_life(2)))
S.card("Mudbutton Clanger", kinship(self_pump(1, 1)))

# --- reinforce
S.card("Burrenton Bombardier", reinforce(2, "{2}{W}"))
S.card("Mosquito Guard", reinforce(1, "{1}{W}"))

# --- champion
S.card("Unstoppable Ash", *champion(kind("Treefolk", "Warrior"), "a Treefolk or Warrior"),
       becomes_blocked(lambda c: c.until_end_of_turn("pt", [c.subject], [0, 5]),
                       f=creature.you_control()))

# --- evoke
S.card("Offalsnout", leaves(lambda c: c.exile(c.target(0)), target(card_in_graveyard)),
       evoke("{B}"))

# --- changeling (the keyword is the kernel's)
S.card("Moonglove Changeling",
       activated("{B}", lambda c: c.until_end_of_turn("grant", [c.source], ["deathtouch"])))
S.card("Chameleon Colossus",
       activated("{2}{G}{G}", lambda c: c.until_end_of_turn("pt", [c.source],
                                                            [c.power(c.source)] * 2)))

# --- "whenever you cast a spell that has ...", a private look
S.card("Lys Alana Bowmaster",
       casts(kind("Elf").spell, may(lambda c: c.damage(c.target(0), 2)),
             target(creature.with_ability("flying"))))
S.card("Dewdrop Spy",
       etb(lambda c: c.look_at(c.you, c.state.players[c.as_player(c.target(0))].library[:1]),
           target(player)))


@hookimpl
def mtgk_cardsets() -> list[CardSetInfo]:
    return [S.info()]
