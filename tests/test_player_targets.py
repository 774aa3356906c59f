"""A player target works with the natural code, and helpers refuse the wrong kind.

A newcomer's first card, "When ~ enters, target player loses 2 life", written as
``etb(lambda c: c.lose_life(c.target(0), 2), target(player))``: ``c.target(0)`` gives a
player *reference* (``-1 - index``), which ``lose_life`` used to index the players with
(``players[-2]`` is the caster in a two-player game): the caster lost the life and
nothing noticed.  Every :class:`mtgk.cards.effects.Ctx` helper that takes a player now takes
an index or a reference; one that takes an object refuses a player reference, and one
that takes a player refuses an object's id -- as a card error naming the card.
"""

from __future__ import annotations

from typing import Any

import pytest

from mtgk.cards.definitions import CardSetInfo, Registry
from mtgk.cards.dsl import CardSet, etb, target
from mtgk.cards.filters import creature, player
from mtgk.cards.loading import hookimpl, load_registry
from tests.conftest import _facts, play_scenario

P = CardSet("player-targets", "0.0.1", __file__, facts="no-such-file.json")


def _creature(name: str, text: str) -> Any:
    return _facts(name, "{B}", ("Creature",), ("Rat",), (1, 1), colors=("B",), text=text)


P.card("Drain Rat", etb(lambda c: c.lose_life(c.target(0), 2), target(player)),
       facts=_creature("Drain Rat", "When Drain Rat enters, target player loses 2 life."))
P.card("Gift Rat", etb(lambda c: c.gain_life(c.target(0), 3), target(player)),
       facts=_creature("Gift Rat", "When Gift Rat enters, target player gains 3 life."))
P.card("Study Rat", etb(lambda c: c.draw(c.target(0), 1), target(player)),
       facts=_creature("Study Rat", "When Study Rat enters, target player draws a card."))
P.card("Confused Rat", etb(lambda c: c.tap(c.target(0)), target(player)),
       facts=_creature("Confused Rat", "When Confused Rat enters, tap target player."))
P.card("Muddled Rat", etb(lambda c: c.lose_life(c.target(0), 1), target(creature)),
       facts=_creature("Muddled Rat", "When Muddled Rat enters, target creature loses 1 "
                                      "life."))


class Pack:
    @hookimpl
    def mtgk_cardsets(self) -> list[CardSetInfo]:
        return [P.info()]


@pytest.fixture(scope="module")
def reg() -> Registry:
    out = load_registry(extra=[("player-targets", Pack())])
    assert "player-targets" in out.sets, out.failures
    return out


def run(reg: Registry, card: str, target_name: str, expect: str) -> Any:
    return play_scenario(f"""
        name: {card}
        players:
          alice:
            battlefield: [Swamp, Grizzly Bears]
            hand: [{card}]
            library: [Swamp, Swamp]
          bob:
            battlefield: [Plains]
            library: [Plains, Plains]
        actions:
          - {{player: alice, cast: {card}}}
          - {{resolve: all, answers: [{{targets: [{target_name}]}}]}}
        expect:
{expect}
        """, reg)


def test_target_player_loses_life_the_natural_way(reg: Registry) -> None:
    r = run(reg, "Drain Rat", "bob", "          - {player: bob, life: 18}\n"
                                     "          - {player: alice, life: 20}")
    assert r.passed, r.reason
    r = run(reg, "Drain Rat", "alice", "          - {player: alice, life: 18}\n"
                                       "          - {player: bob, life: 20}")
    assert r.passed, r.reason


def test_gain_life_and_draw_take_a_target_player(reg: Registry) -> None:
    r = run(reg, "Gift Rat", "bob", "          - {player: bob, life: 23}\n"
                                    "          - {player: alice, life: 20}")
    assert r.passed, r.reason
    r = run(reg, "Study Rat", "bob", "          - {count: {zone: hand, controller: bob}, "
                                     "equals: 1}\n"
                                     "          - {count: {zone: hand, controller: alice}, "
                                     "equals: 0}")
    assert r.passed, r.reason


def test_an_object_helper_refuses_a_player_and_a_player_helper_an_object(reg: Registry
                                                                        ) -> None:
    r = run(reg, "Confused Rat", "bob", "          - {player: bob, life: 20}")
    assert not r.passed
    assert 'card "Confused Rat" (set player-targets)' in r.reason
    assert "tap: -2 is a player reference, not an object" in r.reason
    r = run(reg, "Muddled Rat", "Grizzly Bears", "          - {player: bob, life: 20}")
    assert not r.passed
    assert 'card "Muddled Rat" (set player-targets)' in r.reason
    assert "lose_life:" in r.reason and "is an object's id, not a player" in r.reason

