"""Ways in for "put onto the battlefield tapped and attacking" (CR 506.3, 614.1c; issue 22):
the permanent enters tapped, is attacking, and was never declared as an attacker."""

from __future__ import annotations

from typing import Any

import pytest

from mtgk.cards.definitions import CardFacts, CardSetInfo, Registry
from mtgk.cards.dsl import CardSet, attacks, gain_life, spell, target
from mtgk.cards.filters import creature_card
from mtgk.cards.loading import hookimpl, load_registry
from mtgk.log import events as ev
from mtgk.plugins.combat_entry import create_tokens_attacking, put_onto_battlefield_attacking
from tests.conftest import play_scenario

E = CardSet("entries", "0.0.1", __file__, facts="no-such-file.json")


def facts(name: str, cost: str, types: tuple[str, ...], mv: int,
          pt: tuple[int, int] | None = None, text: str = "") -> CardFacts:
    return CardFacts(name=name, mana_cost=cost, mana_value=mv, types=types,
                     type_line=" ".join(types), oracle_text=text,
                     power=None if pt is None else str(pt[0]),
                     toughness=None if pt is None else str(pt[1]))


# "Whenever ~ attacks, you gain 1 life."
E.card("Entry Raider", attacks(gain_life(1)),
       facts=facts("Entry Raider", "{1}{R}", ("Creature",), 2, (3, 1),
                   "Whenever Entry Raider attacks, you gain 1 life."))
# "Put target creature card from your graveyard onto the battlefield tapped and attacking."
E.card("Entry Ambush", spell(lambda c: put_onto_battlefield_attacking(c, c.target(0)),
                             target(creature_card.in_your("graveyard"))),
       facts=facts("Entry Ambush", "{R}", ("Instant",), 1,
                   "Put target creature card from your graveyard onto the battlefield tapped "
                   "and attacking."))
# "Create two 1/1 white Kithkin Soldier creature tokens that are tapped and attacking."
E.card("Entry Muster", spell(lambda c: create_tokens_attacking(c, "Kithkin Soldier", 2)),
       facts=facts("Entry Muster", "{W}", ("Instant",), 1,
                   "Create two 1/1 white Kithkin Soldier creature tokens that are tapped "
                   "and attacking."))


class EntriesPack:
    __test__ = False

    @hookimpl
    def mtgk_cardsets(self) -> list[CardSetInfo]:
        return [E.info()]


@pytest.fixture(scope="module")
def reg() -> Registry:
    out = load_registry(extra=[("entries", EntriesPack())])
    assert "entries" in out.sets, out.failures
    return out


def run(reg: Registry, text: str) -> Any:
    res = play_scenario(text, reg)
    assert res.passed, res.reason
    return res


def test_put_onto_the_battlefield_attacking_is_never_declared(reg: Registry) -> None:
    res = run(reg, """
        name: ambush
        players:
          alice: {battlefield: [Grizzly Bears, Mountain], hand: [Entry Ambush], graveyard: [Entry Raider]}
          bob: {}
        turn: {number: 3, active: alice, step: precombat_main}
        actions:
          - {player: alice, attack: [Grizzly Bears]}
          - {player: alice, cast: Entry Ambush, targets: [Entry Raider]}
          - {resolve: all}
          - {check: [{card: Entry Raider, zone: battlefield, tapped: true}]}
          - {pass_until: {turn: 3, step: end_of_combat}}
        expect:
          - {player: bob, life: 15}
          - {player: alice, life: 20}
          - {log_has: EnteredAttacking, count: 1}
        """)
    assert not any(isinstance(e.event, ev.AbilityTriggered) for e in res.log)


def test_tokens_created_tapped_and_attacking(reg: Registry) -> None:
    run(reg, """
        name: muster
        players:
          alice: {battlefield: [Grizzly Bears, Plains], hand: [Entry Muster]}
          bob: {}
        turn: {number: 3, active: alice, step: precombat_main}
        actions:
          - {player: alice, attack: [Grizzly Bears]}
          - {player: alice, cast: Entry Muster}
          - {resolve: all}
          - {pass_until: {turn: 3, step: end_of_combat}}
        expect:
          - {player: bob, life: 16}
          - {log_has: EnteredAttacking, count: 2}
        """)


def test_outside_combat_it_merely_enters_tapped(reg: Registry) -> None:
    run(reg, """
        name: ambush-main
        players:
          alice: {battlefield: [Mountain], hand: [Entry Ambush], graveyard: [Entry Raider]}
          bob: {}
        actions:
          - {player: alice, cast: Entry Ambush, targets: [Entry Raider]}
          - {resolve: all}
        expect:
          - {card: Entry Raider, zone: battlefield, tapped: true}
          - {log_has: EnteredAttacking, count: 0}
        """)
