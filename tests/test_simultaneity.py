"""Simultaneity and look-back for objects leaving together.

* CR 608.2e-style simultaneity: one instruction that affects several objects ("destroy
  all ...", "exile all ...", "return all ...", "each player sacrifices ...") does it to
  all of them at once (:meth:`mtgk.rules.engine.Game.move_together`): indestructible and
  replacement effects are checked against the state before any of them moved -- so a
  permanent whose replacement effect covers the others applies it to them though it goes
  with them;
* CR 603.10a: leaves-the-battlefield abilities look back at the state before the
  simultaneous moves: "whenever another creature you control dies" triggers once per
  creature that died with it, even though its own permanent died at the same moment;
* CR 603.6a-style: permanents that enter at the same time see each other enter.

Each rule is checked with the battlefield (or the targets) in both orders: the engine
used to move the objects one at a time, so the answer depended on which came first.
The YAML scenarios with real cards are in ``tests/scenarios/simultaneity/``.
"""

from __future__ import annotations

import pytest

from mtgk.log import events as ev
from tests.conftest import Scenario, events_of
from tests.test_causes import Checker

ORDERS = ["watcher-first", "watcher-last"]


def _battlefield(watcher: str, others: list[str], order: str) -> str:
    cards = [watcher, *others] if order == "watcher-first" else [*others, watcher]
    return "[" + ", ".join(cards) + "]"


@pytest.mark.parametrize("order", ORDERS)
def test_destroy_all_each_dies_seeing_the_others(scenario: Scenario, order: str) -> None:
    """Test Wrath destroys all creatures; Test Griever ("whenever another creature you
    control dies") dies with them and triggers once for each of the two others."""
    bf = _battlefield("Test Griever", ["Grizzly Bears", "Test Black Bear"], order)
    res = scenario(f"""
        name: wrath-{order}
        players:
          alice:
            battlefield: {bf}
            hand: [Test Wrath]
          bob:
            battlefield: [Plains, Plains, Plains, Plains]
        turn: {{number: 2, active: bob, step: precombat_main}}
        actions:
          - {{player: bob, cast: Test Wrath}}
          - {{resolve: all}}
        expect:
          - {{count: {{zone: battlefield, controller: alice}}, equals: 0}}
          - {{player: alice, life: 22}}
        """.replace("hand: [Test Wrath]\n          bob:", "hand: []\n          bob:\n"
                    "            hand: [Test Wrath]"))
    deaths = [env for env in res.log if isinstance(env.event, ev.ZoneChanged)
              and env.event.from_zone == "battlefield"]
    assert len(deaths) == 3, "one ZoneChanged per creature"
    triggers = [env for env in res.log if isinstance(env.event, ev.AbilityTriggered)]
    assert len(triggers) == 2
    # found as they all looked back at the same moment, recorded after all the moves, each
    # caused by a death (CR 603.10a; issue 23: a trigger follows what triggered it)
    assert min(t.seq for t in triggers) > max(d.seq for d in deaths)
    assert {t.cause for t in triggers} <= {d.seq for d in deaths}
    # the triggers' ids are new ids, not those of the moved objects
    assert not {t.event.item for t in triggers} & {d.event.new_obj for d in deaths}
    assert Checker(res.log).problems() == []


@pytest.mark.parametrize("order", ORDERS)
def test_exile_all_each_leaves_seeing_the_others(scenario: Scenario, order: str) -> None:
    """Test Exile Sweep exiles all creatures: Test Farewell Keeper ("whenever another
    creature you control leaves the battlefield") leaves with them and sees both."""
    bf = _battlefield("Test Farewell Keeper", ["Grizzly Bears", "Test Black Bear"], order)
    res = scenario(f"""
        name: exile-sweep-{order}
        players:
          alice:
            battlefield: {bf}
          bob:
            battlefield: [Plains, Plains, Plains, Plains, Plains]
            hand: [Test Exile Sweep]
        turn: {{number: 2, active: bob, step: precombat_main}}
        actions:
          - {{player: bob, cast: Test Exile Sweep}}
          - {{resolve: all}}
        expect:
          - {{count: {{zone: exile}}, equals: 3}}
          - {{player: alice, life: 22}}
        """)
    assert len(events_of(res, ev.RemovedFromGame)) == 3
    assert Checker(res.log).problems() == []


@pytest.mark.parametrize("order", ORDERS)
def test_return_all_each_leaves_seeing_the_others(scenario: Scenario, order: str) -> None:
    """Test Evacuation returns all creatures to their owners' hands at once."""
    bf = _battlefield("Test Farewell Keeper", ["Grizzly Bears", "Test Black Bear"], order)
    scenario(f"""
        name: evacuation-{order}
        players:
          alice:
            battlefield: {bf}
          bob:
            battlefield: [Island, Island, Island, Island, Island]
            hand: [Test Evacuation]
        turn: {{number: 2, active: bob, step: precombat_main}}
        actions:
          - {{player: bob, cast: Test Evacuation}}
          - {{resolve: all}}
        expect:
          - {{player: alice, hand_size: 3}}
          - {{player: alice, life: 22}}
        """)


@pytest.mark.parametrize("order", ORDERS)
def test_sacrifice_all_each_dies_seeing_the_others(scenario: Scenario, order: str) -> None:
    """Test Culling: each player sacrifices all creatures they control, at once."""
    bf = _battlefield("Test Griever", ["Grizzly Bears", "Test Black Bear"], order)
    scenario(f"""
        name: culling-{order}
        players:
          alice:
            battlefield: {bf}
          bob:
            battlefield: [Swamp, Swamp, Swamp, Swamp]
            hand: [Test Culling]
        turn: {{number: 2, active: bob, step: precombat_main}}
        actions:
          - {{player: bob, cast: Test Culling}}
          - {{resolve: all}}
        expect:
          - {{count: {{zone: graveyard, controller: alice}}, equals: 3}}
          - {{player: alice, life: 22}}
        """)


def test_a_single_death_is_seen_by_the_survivor(scenario: Scenario) -> None:
    """The other side: Test Griever survives and sees the one creature that died (and a
    watcher that leaves alone doesn't see itself)."""
    scenario("""
        name: murder-one
        players:
          alice:
            battlefield: [Test Griever, Grizzly Bears]
          bob:
            battlefield: [Swamp, Swamp, Swamp]
            hand: [Murder]
        turn: {number: 2, active: bob, step: precombat_main}
        actions:
          - {player: bob, cast: Murder, targets: [Grizzly Bears]}
          - {resolve: all}
          - {check: [{player: alice, life: 21}]}
          - {player: bob, cast: Murder, targets: [Test Griever], refused: true}
        expect:
          - {card: Test Griever, zone: battlefield}
        """)


@pytest.mark.parametrize("warden", ["warden-first", "warden-last"])
def test_a_replacement_effect_of_a_permanent_leaving_with_them_applies(
        scenario: Scenario, warden: str) -> None:
    """Test Warden ("If a creature an opponent controls would die, exile it instead") is
    destroyed by Test Wrath together with its opponent's creatures: its effect still
    exists as they would die, so they are exiled; the Warden itself dies."""
    mine = "battlefield: [Test Warden, Plains, Plains, Plains, Plains]"
    theirs = "battlefield: [Grizzly Bears, Test Black Bear]"
    first, second = (mine, theirs) if warden == "warden-first" else (theirs, mine)
    caster, other = ("alice", "bob") if warden == "warden-first" else ("bob", "alice")
    res = scenario(f"""
        name: warden-{warden}
        players:
          alice:
            {first}
            hand: [Test Wrath]
          bob:
            {second}
            hand: [Test Wrath]
        turn: {{number: 2, active: {caster}, step: precombat_main}}
        actions:
          - {{player: {caster}, cast: Test Wrath}}
          - {{resolve: all}}
        expect:
          - {{card: Test Warden, zone: graveyard}}
          - {{count: {{zone: exile, controller: {other}}}, equals: 2}}
          - {{count: {{zone: graveyard, controller: {other}}}, equals: 0}}
        """)
    assert len(events_of(res, ev.RemovedFromGame)) == 2


def test_the_warden_alone_exiles_what_dies(scenario: Scenario) -> None:
    """The other side: the Warden stays; a creature of its opponent that dies alone is
    exiled, and one of its controller's goes to the graveyard."""
    scenario("""
        name: warden-stays
        players:
          alice:
            battlefield: [Test Warden, Test Black Bear, Swamp, Swamp, Swamp, Swamp, Swamp,
                          Swamp]
            hand: [Murder, Murder]
          bob:
            battlefield: [Grizzly Bears]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Murder, targets: [Grizzly Bears]}
          - {resolve: all}
          - {player: alice, cast: Murder, targets: [Test Black Bear]}
          - {resolve: all}
        expect:
          - {card: Grizzly Bears, zone: exile}
          - {card: Test Black Bear, zone: graveyard}
        """)


@pytest.mark.parametrize("order", ORDERS)
def test_permanents_entering_together_see_each_other(scenario: Scenario, order: str) -> None:
    """Ghostly Flicker exiles two creatures and returns them at once: Hamletback Goliath
    ("Whenever another creature enters the battlefield, you may put X +1/+1 counters on
    it, where X is that creature's power") sees Grizzly Bears enter with it, whichever
    comes back first."""
    targets = "[Hamletback Goliath, Grizzly Bears]" if order == "watcher-first" \
        else "[Grizzly Bears, Hamletback Goliath]"
    res = scenario(f"""
        name: flicker-{order}
        players:
          alice:
            battlefield: [Hamletback Goliath, Grizzly Bears, Island, Island, Island]
            hand: [Ghostly Flicker]
          bob: {{}}
        turn: {{number: 2, active: alice, step: precombat_main}}
        actions:
          - {{player: alice, cast: Ghostly Flicker, targets: {targets}}}
          - {{resolve: all, answers: [{{may: yes}}]}}
        expect:
          - {{card: Hamletback Goliath, zone: battlefield, counters: {{"+1/+1": 2}}}}
          - {{card: Grizzly Bears, zone: battlefield}}
        """)
    assert len(events_of(res, ev.RemovedFromGame)) == 2


def test_causes_of_look_back_triggers_of_a_destroy_all(scenario: Scenario) -> None:
    """Two Mudbutton Torchrunners destroyed by one Austere Command: both dies abilities
    trigger, recorded after the moves, each caused by its Torchrunner's death; the cause
    checker of tests/test_causes.py accepts them (and would not accept a trigger whose
    event is not there)."""
    res = scenario("""
        name: torchrunners
        players:
          alice:
            battlefield: [Mudbutton Torchrunner, Mudbutton Torchrunner]
          bob:
            battlefield: [Plains, Plains, Plains, Plains, Plains, Plains]
            hand: [Austere Command]
        turn: {number: 2, active: bob, step: precombat_main}
        actions:
          - {player: bob, cast: Austere Command, modes: [2, 3]}
          - {resolve: 1}
          - {check: [{count: {name: Mudbutton Torchrunner, zone: graveyard}, equals: 2}]}
        """)
    log = list(res.log)
    triggers = [env for env in log if isinstance(env.event, ev.AbilityTriggered)]
    assert len(triggers) == 2
    assert Checker(log).problems() == []
    # a look-back trigger whose move is not there is caught
    second_move = triggers[1].cause
    assert isinstance(log[second_move].event, ev.ZoneChanged)
    assert log[second_move].event.obj == triggers[1].event.source
    broken = [env for env in log if env.seq != second_move]
    broken = [type(env)(seq=i, cause=env.cause if env.cause < second_move else env.cause - 1,
                        event=env.event) for i, env in enumerate(broken)]
    assert any("not the event it triggered on" in p for p in Checker(broken).problems())
