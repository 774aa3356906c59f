"""State-based actions (CR 704) that need the test-only cards; the core ones are in
``tests/scenarios/core/scenario_sba.yaml``."""

from __future__ import annotations

from typing import Any

from mtgk.log import events as ev
from mtgk.scenario.play import ScenarioResult
from tests.conftest import Scenario, events_of


def moved(res: ScenarioResult, reason: str) -> list[Any]:
    return [e for e in events_of(res, ev.ZoneChanged) if e.reason == reason]


def test_zero_toughness_goes_to_the_graveyard(scenario: Scenario) -> None:
    """CR 704.5f: a creature with toughness 0 or less is put into its owner's graveyard
    (it isn't destroyed)."""
    res = scenario("""
        name: zero-toughness
        strict: true
        players:
          alice:
            battlefield: [Swamp]
            hand: [Test Minus Counter]
          bob:
            battlefield: [Test Mana Elf]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Test Minus Counter, targets: [Test Mana Elf]}
          - {resolve: all}
        expect:
          - {card: Test Mana Elf, zone: graveyard, owner: bob}
        """)
    assert len(moved(res, "sba:toughness")) == 1


def test_deathtouch_damage_is_lethal(scenario: Scenario) -> None:
    """CR 704.5h: a creature dealt damage by a source with deathtouch is destroyed."""
    scenario("""
        name: deathtouch
        strict: true
        players:
          alice:
            battlefield: [Test Deathtoucher]
          bob:
            battlefield: [Test Big Bear]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, attack: {Test Deathtoucher: bob}}
          - {player: bob, block: {Test Big Bear: Test Deathtoucher}}
          - {pass_until: {turn: 2, step: end_of_combat}}
        expect:
          - {card: Test Big Bear, zone: graveyard}
          - {card: Test Deathtoucher, zone: graveyard}
        """)


def test_legend_rule_keeps_the_chosen_one(scenario: Scenario) -> None:
    """CR 704.5j: a player controlling two or more legendary permanents with the same
    name chooses one and puts the rest into their owners' graveyards."""
    for keep, gone in (("first", "second"), ("second", "first")):
        res = scenario(f"""
            name: legend-rule
            strict: true
            players:
              alice:
                battlefield: [{{card: Test Legend, as: first}}, Forest, Forest]
                hand: [{{card: Test Legend, as: second}}]
              bob: {{}}
            turn: {{number: 2, active: alice, step: precombat_main}}
            actions:
              - {{player: alice, cast: second}}
              - {{resolve: all, answers: [{{choose: {keep}, player: alice}}]}}
            expect:
              - {{card: {keep}, zone: battlefield}}
              - {{card: {gone}, zone: graveyard}}
            """)
        assert len(moved(res, "sba:legend-rule")) == 1


def test_legend_rule_is_per_controller(scenario: Scenario) -> None:
    """CR 704.5j: each player may control one: legends of the same name controlled by
    different players both stay."""
    scenario("""
        name: legends-on-both-sides
        strict: true
        players:
          alice:
            battlefield: [Test Legend, Forest, Forest]
          bob:
            battlefield: [Forest, Forest]
            hand: [Test Legend]
        turn: {number: 2, active: bob, step: precombat_main}
        actions:
          - {player: bob, cast: Test Legend}
          - {resolve: all}
        expect:
          - {count: {name: Test Legend, zone: battlefield}, equals: 2}
        """)


def test_aura_goes_when_its_creature_leaves(scenario: Scenario) -> None:
    """CR 303.4c / 704.5m: an Aura attached to nothing (or to an illegal object) is put
    into its owner's graveyard."""
    scenario("""
        name: aura-falls-off
        strict: true
        players:
          alice:
            battlefield: [Plains, Grizzly Bears]
            hand: [Test Aura]
          bob:
            battlefield: [Swamp, Swamp, Swamp]
            hand: [Murder]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Test Aura, targets: [Grizzly Bears]}
          - {resolve: all}
          - check: [{card: Test Aura, attached_to: Grizzly Bears}, {card: Grizzly Bears, power: 4, toughness: 4}]
          - {player: bob, cast: Murder, targets: [Grizzly Bears]}
          - {resolve: all}
        expect:
          - {card: Grizzly Bears, zone: graveyard}
          - {card: Test Aura, zone: graveyard}
        """)


def test_aura_on_an_illegal_object(scenario: Scenario) -> None:
    """CR 704.5m: an Aura with "enchant creature" attached to a land is put into the
    graveyard at the first state-based action check."""
    res = scenario("""
        name: aura-on-a-land
        strict: true
        players:
          alice:
            battlefield: [Forest, {card: Test Aura, attached_to: Forest}, Grizzly Bears,
                          {card: Test Aura, as: ok, attached_to: Grizzly Bears}]
            hand: [Forest]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, play: Forest}
        expect:
          - {count: {name: Test Aura, zone: graveyard}, equals: 1}
          - {card: ok, zone: battlefield, attached_to: Grizzly Bears}
        """)
    assert len(moved(res, "sba:aura")) == 1


def test_aura_targets_what_it_can_enchant(scenario: Scenario) -> None:
    """CR 303.4a / 115.1: an Aura spell targets the object it will enchant."""
    scenario("""
        name: aura-target
        strict: true
        players:
          alice:
            battlefield: [Plains, Forest]
            hand: [Test Aura]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Test Aura, targets: [Forest], refused: true}
          - {player: alice, cast: Test Aura, targets: [bob], refused: true}
        expect:
          - {card: Test Aura, zone: hand}
        """)


def test_plus_and_minus_counters_annihilate(scenario: Scenario) -> None:
    """CR 704.5q: if a permanent has both +1/+1 and -1/-1 counters, N of each are removed,
    N the smaller number."""
    res = scenario("""
        name: annihilate
        strict: true
        players:
          alice:
            battlefield: [Forest, Forest, Swamp,
                          {card: Grizzly Bears, counters: {"+1/+1": 2}}]
            hand: [Test Minus Counter]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Test Minus Counter, targets: [Grizzly Bears]}
          - {resolve: all}
        expect:
          - {card: Grizzly Bears, power: 3, toughness: 3, counters: {"+1/+1": 1, "-1/-1": 0}}
        """)
    removed = [(e.kind, e.n) for e in events_of(res, ev.CounterRemoved)]
    assert sorted(removed) == [("+1/+1", 1), ("-1/-1", 1)]


def test_planeswalker_with_no_loyalty_goes(scenario: Scenario) -> None:
    """CR 704.5i: a planeswalker with 0 loyalty is put into its owner's graveyard."""
    scenario("""
        name: walker-dies
        strict: true
        players:
          alice:
            battlefield: [Mountain, Mountain]
            hand: [Lightning Bolt]
          bob:
            battlefield: [{card: Test Walker, counters: {loyalty: 3}}]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Lightning Bolt, targets: [bob], answers: [{redirect: Test Walker}]}
          - {resolve: all}
        expect:
          - {card: Test Walker, zone: graveyard}
          - {player: bob, life: 20}
        """)


def test_tokens_cease_to_exist_in_any_other_zone(scenario: Scenario) -> None:
    """CR 704.5d: a token in a zone other than the battlefield ceases to exist; the
    Beast made by Test Beastcall is an ordinary creature while on the battlefield."""
    res = scenario("""
        name: token-lifecycle
        strict: true
        players:
          alice:
            battlefield: [Forest, Mountain, Mountain]
            hand: [Test Beastcall, Lightning Bolt]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Test Beastcall}
          - {resolve: all}
          - check: [{card: Beast, zone: battlefield, power: 3, toughness: 3, controller: alice}]
          - {player: alice, cast: Lightning Bolt, targets: [Beast]}
          - {resolve: all}
        expect:
          - {card: Beast, zone: none}
          - {player: alice, graveyard_size: 2}
          - {log_has: TokenCreated, count: 1}
        """)
    ceased = [e for e in events_of(res, ev.ZoneChanged) if e.to_zone == "none"]
    assert len(ceased) == 1 and ceased[0].from_zone == "graveyard"


def test_an_aura_whose_enchant_quality_reads_tapped_falls_off_as_its_host_untaps(
        scenario: Scenario) -> None:
    """CR 704.5m for "Enchant tapped creature" (Glimmerdust Nap): the state-based check
    looks at the tapped status, so an untap that no stack event goes with (an effect's
    Untapped alone) must still make the engine look again.  It didn't: tapping and
    untapping are not events that call for state-based actions, and the Aura fell off only
    when something else (a spell resolving, say) made the engine look."""
    res = scenario("""
        name: nap-on-a-tapped-bear
        strict: true
        players:
          alice:
            battlefield: [{card: Glimmerdust Nap, attached_to: Grizzly Bears}]
          bob:
            battlefield: [{card: Grizzly Bears, tapped: true}]
        turn: {number: 2, active: alice, step: precombat_main}
        expect:
          - {card: Glimmerdust Nap, zone: battlefield}
        """)
    game = res.game
    assert game is not None
    bears = next(o.id for o in game.state.objects.values()
                 if o.card == "Grizzly Bears" and o.zone == "battlefield")
    game.validate_caches = False  # (validated mode would report the stale check instead)
    game.settle()
    game.emit(ev.Untapped(obj=bears))
    game.settle()
    nap = [o for o in game.state.objects.values() if o.card == "Glimmerdust Nap"]
    assert [o.zone for o in nap] == ["graveyard"]
