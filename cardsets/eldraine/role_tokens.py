"""The seven Role tokens (Wilds of Eldraine and its Commander decks).

Each is a colorless Enchantment — Aura Role token with enchant creature.  What a
Role gives "enchanted creature" is a static ability of the Role; abilities a Role
grants ("has 'Whenever this creature attacks, scry 1'") are triggered abilities
listed on the Role and granted to the creature in layer 6
(:func:`mtgk.plugins.grants.granted`).
"""

from __future__ import annotations

from typing import Any

from mtgk.cards.definitions import Triggered
from mtgk.cards.dsl import (
    attacks,
    each_opponent_loses_life,
    enchanted,
    host_of,
    self_put_into_graveyard,
    static,
    target,
    triggered,
)
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import creature, enchantment, matching
from mtgk.log import events as ev
from mtgk.plugins.grants import granted
from mtgk.plugins.scry import scry
from mtgk.plugins.ward import ward
from mtgk.rules.layers import View

from .cards import ROLE_FACTS, S


def _role(name: str, *abilities: Any) -> None:
    S.card(name, *abilities, facts=ROLE_FACTS[name], enchant=target(creature), grantable=True)


# Cursed Role: Enchanted creature is 1/1 (it sets base P/T in layer 7b, so +1/+1 effects
# and counters still apply on top).
_role("Cursed Role", static(lambda v, src: [("7b", "set_pt", host_of(v, src), [1, 1])],
                            "enchanted creature is 1/1"))

# Monster Role: +1/+1 and trample.
_role("Monster Role", enchanted(1, 1, ("trample",)))

# Royal Role: +1/+1 and ward {1}.
_role("Royal Role", enchanted(1, 1, ("ward", "Royal Role#1")),
      granted("Royal Role", ward("{1}")))


# Sorcerer Role: +1/+1 and "Whenever this creature attacks, scry 1."
def _scry_one(c: Ctx) -> None:
    scry(c.game, c.controller, 1)


_role("Sorcerer Role", enchanted(1, 1, ("Sorcerer Role#1",)),
      granted("Sorcerer Role", attacks(_scry_one)))


# Wicked Role: +1/+1. When this token is put into a graveyard, each opponent loses 1 life.
_role("Wicked Role", enchanted(1, 1),
      triggered(ev.ZoneChanged, self_put_into_graveyard, each_opponent_loses_life(1),
                look_back=True,
                text="when this token is put into a graveyard"))


# Young Hero Role: "Whenever this creature attacks, if its toughness is 3 or less, put a
# +1/+1 counter on it."
def _small(v: View, src: int, e: Any) -> bool:
    o = v.state.objects.get(src)
    return o is not None and o.zone == "battlefield" and (v.chars(src).toughness or 0) <= 3


def _grow(c: Ctx) -> None:
    c.put_counters(c.source, "+1/+1")


_young = attacks(_grow)
_role("Young Hero Role", enchanted(grant=("Young Hero Role#1",)),
      granted("Young Hero Role", Triggered(_young.on, _young.when, _grow,
                                           intervening_if=_small, text="young hero")))


# Virtuous Role: +1/+1 for each enchantment you control.
_your_enchantments = enchantment.you_control()


def _virtuous(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
    you = v.chars(src).controller
    n = len(matching(v, _your_enchantments, you, src))
    return [("7c", "pt", host_of(v, src), [n, n])]


_role("Virtuous Role", static(_virtuous, "+1/+1 for each enchantment you control"))
