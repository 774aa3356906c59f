"""Activated and triggered abilities (CR 602, 603): costs, the stack, APNAP order,
the order of a player's own triggers, intervening "if" clauses, leaves-the-battlefield
triggers that look back in time."""

from __future__ import annotations

from mtgk.log import events as ev
from tests.conftest import Scenario, events_of


def test_activated_ability_pays_its_cost_and_uses_the_stack(scenario: Scenario) -> None:
    """CR 602.2: the cost ({T}) is paid as the ability is activated; the ability waits on
    the stack, and the opponent may respond before it resolves."""
    res = scenario("""
        name: pinger
        strict: true
        players:
          alice:
            battlefield: [Test Pinger]
          bob:
            battlefield: [Mountain]
            hand: [Shock]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, activate: Test Pinger, ability: 1, targets: [bob]}
          - check: [{card: Test Pinger, tapped: true}, {stack_size: 1}, {player: bob, life: 20}]
          - {player: bob, cast: Shock, targets: [Test Pinger]}
          - {resolve: all}
        expect:
          - {card: Test Pinger, zone: graveyard}
          - {player: bob, life: 19}
        """)
    assert len(events_of(res, ev.AbilityActivated)) == 1


def test_activation_restrictions(scenario: Scenario) -> None:
    """CR 602.2 / 302.6 / 602.5a: only the controller activates; a summoning-sick
    creature can't pay {T}; a tapped permanent can't pay {T} again."""
    scenario("""
        name: pinger-restrictions
        strict: true
        players:
          alice:
            battlefield: [{card: Test Pinger, sick: true, as: sick}, {card: Test Pinger, as: ready}]
          bob:
            battlefield: [Forest]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, activate: sick, ability: 1, targets: [bob], refused: true}
          - {player: alice, activate: ready, ability: 1, targets: [Forest], refused: true}
          - {player: alice, activate: ready, ability: 1, targets: [bob]}
          - {player: alice, activate: ready, ability: 1, targets: [bob], refused: true}
          - {player: bob, activate: ready, ability: 1, targets: [alice], refused: true}
          - {resolve: all}
        expect:
          - {player: bob, life: 19}
          - {card: sick, tapped: false}
        """)


def test_apnap_order(scenario: Scenario) -> None:
    """CR 603.3b / 101.4: triggers waiting at once go on the stack in APNAP order -- the
    active player's first, so the non-active player's resolves first."""
    res = scenario("""
        name: apnap
        strict: true
        players:
          alice:
            battlefield: [Test Upkeep Healer]
            library: [Forest]
          bob:
            battlefield: [Test Upkeep Healer]
            library: [Forest]
        turn: {number: 1, active: alice, step: end}
        actions:
          - {pass_until: {turn: 2, step: upkeep}}
          - check: [{stack_size: 2}]
          - {resolve: all}
        expect:
          - {player: alice, life: 21}
          - {player: bob, life: 21}
        """)
    put = [e.item for e in events_of(res, ev.TriggerPutOnStack)]
    triggered = {e.item: e.controller for e in events_of(res, ev.AbilityTriggered)}
    assert [triggered[i] for i in put] == [1, 0]  # bob is active in turn 2
    gained = [e.player for e in events_of(res, ev.LifeGained)]
    assert gained == [0, 1]  # alice's (on top) resolves first


def test_a_player_orders_their_own_triggers(scenario: Scenario) -> None:
    """CR 603.3b: a player puts their simultaneous triggers on the stack in any order."""
    for order, first in ((["Test Upkeep Healer", "Test Hopeful Scholar"], ev.ZoneChanged),
                         (["Test Hopeful Scholar", "Test Upkeep Healer"], ev.LifeGained)):
        res = scenario(f"""
            name: order
            strict: true
            players:
              alice:
                battlefield: [Test Upkeep Healer, Test Hopeful Scholar]
                library: [Forest, Forest]
              bob:
                library: [Forest]
            turn: {{number: 2, active: bob, step: end}}
            actions:
              - {{pass_until: {{turn: 3, step: upkeep}}, answers: [{{order: {order}}}]}}
              - {{resolve: all}}
            expect:
              - {{player: alice, life: 21, hand_size: 1}}
            """)
        effects = [e.event for e in res.log
                   if isinstance(e.event, ev.LifeGained) or (isinstance(e.event, ev.ZoneChanged)
                                                             and e.event.reason == "draw")]
        assert len(effects) == 2
        assert isinstance(effects[0], first), order  # the last one put on the stack


def test_intervening_if_is_checked_on_trigger(scenario: Scenario) -> None:
    """CR 603.4: with the condition false as the event happens, the ability doesn't
    trigger at all."""
    res = scenario("""
        name: no-trigger
        strict: true
        players:
          alice:
            life: 15
            battlefield: [Test Hopeful Scholar]
            library: [Forest, Forest]
          bob:
            library: [Forest]
        turn: {number: 2, active: bob, step: end}
        actions:
          - {pass_until: {turn: 3, step: draw}}
        expect:
          - {player: alice, hand_size: 1, library_size: 1}
        """)
    assert events_of(res, ev.AbilityTriggered) == []


def test_intervening_if_is_checked_again_on_resolution(scenario: Scenario) -> None:
    """CR 603.4: the condition is checked again as the ability resolves; if it is false
    then, the ability does nothing."""
    res = scenario("""
        name: condition-fails-later
        strict: true
        players:
          alice:
            life: 17
            battlefield: [Test Hopeful Scholar]
            library: [Forest, Forest]
          bob:
            battlefield: [Mountain]
            hand: [Shock]
            library: [Forest]
        turn: {number: 2, active: bob, step: end}
        actions:
          - {pass_until: {turn: 3, step: upkeep}}
          - check: [{stack_size: 1}]
          - {player: bob, cast: Shock, targets: [alice]}
          - {resolve: all}
        expect:
          - {player: alice, life: 15, hand_size: 0, library_size: 2}
        """)
    assert len(events_of(res, ev.AbilityTriggered)) == 1
    # and with nothing in response it draws
    scenario("""
        name: condition-holds
        strict: true
        players:
          alice:
            life: 17
            battlefield: [Test Hopeful Scholar]
            library: [Forest, Forest]
          bob:
            library: [Forest]
        turn: {number: 2, active: bob, step: end}
        actions:
          - {pass_until: {turn: 3, step: upkeep}}
          - {resolve: all}
        expect:
          - {player: alice, hand_size: 1, library_size: 1}
        """)


def test_dies_triggers_look_back_in_time(scenario: Scenario) -> None:
    """CR 603.10a: "whenever a creature dies" looks back: the creature was a creature on
    the battlefield; both players' abilities trigger and use APNAP order."""
    res = scenario("""
        name: mourners
        strict: true
        players:
          alice:
            battlefield: [Mountain, Test Mourner]
            hand: [Shock]
          bob:
            battlefield: [Test Mourner, Grizzly Bears]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Shock, targets: [Grizzly Bears]}
          - {resolve: all}
        expect:
          - {card: Grizzly Bears, zone: graveyard}
          - {player: alice, life: 21}
          - {player: bob, life: 21}
        """)
    assert [e.player for e in events_of(res, ev.LifeGained)] == [1, 0]
    seqs = [env.seq for env in res.log]
    assert seqs == list(range(len(res.log)))  # the log stays gapless around look-back triggers
