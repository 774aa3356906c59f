"""Planeswalkers under the Lorwyn 2007 rules profile (and how other profiles differ).

2007 rules: planeswalkers are not legendary; two or more planeswalkers sharing a
planeswalker type are all put into their owners' graveyards (the "planeswalker
uniqueness rule"); noncombat damage a source would deal to an opponent may be
redirected to a planeswalker that player controls; loyalty abilities are
activated once per turn at sorcery speed.
"""

from __future__ import annotations

import textwrap

import pytest

from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.rules.engine import Game
from mtgk.scenario.play import ScenarioRun
from mtgk.scenario.reader import loads_scenarios
from tests.conftest import Scenario, events_of

LORWYN_WALKERS = ("Ajani Goldmane", "Chandra Nalaar", "Garruk Wildspeaker", "Jace Beleren",
                  "Liliana Vess")


@pytest.mark.parametrize("name", LORWYN_WALKERS)
def test_lorwyn_planeswalkers_are_not_legendary(registry: Registry, scenario: Scenario,
                                                name: str) -> None:
    if name not in registry:
        pytest.skip(f"{name} is not installed")
    assert "Legendary" not in registry[name].facts.supertypes
    res = scenario(f"""
        name: not-legendary
        players:
          alice:
            battlefield: [{name}]
          bob: {{}}
        turn: {{number: 2, active: alice, step: precombat_main}}
        expect:
          - {{card: {name}, types: [Planeswalker]}}
        """)
    g = res.game
    assert g is not None
    oid = g.state.battlefield[0]
    assert g.chars(oid).supertypes == []
    assert g.state.objects[oid].counters["loyalty"] == int(registry[name].facts.loyalty or 0)


def test_uniqueness_rule_puts_all_of_them_into_the_graveyard(scenario: Scenario) -> None:
    """2007 CR 420.5e: two planeswalkers sharing a type -- whoever controls them -- all go."""
    res = scenario("""
        name: uniqueness
        strict: true
        players:
          alice:
            battlefield: [Test Walker]
          bob:
            battlefield: [Plains, Plains, Plains, Plains]
            hand: [Test Walker Prime]
        turn: {number: 2, active: bob, step: precombat_main}
        actions:
          - {player: bob, cast: Test Walker Prime}
          - {resolve: all}
        expect:
          - {card: Test Walker, zone: graveyard, owner: alice}
          - {card: Test Walker Prime, zone: graveyard, owner: bob}
        """)
    reasons = [z.reason for z in events_of(res, ev.ZoneChanged) if z.to_zone == "graveyard"]
    assert reasons == ["sba:planeswalker-uniqueness"] * 2


def test_different_planeswalker_types_coexist(scenario: Scenario) -> None:
    scenario("""
        name: different-types
        strict: true
        players:
          alice:
            battlefield: [Test Walker, Plains, Plains, Plains, Plains]
            hand: [Test Legendary Walker]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Test Legendary Walker}
          - {resolve: all}
        expect:
          - {card: Test Walker, zone: battlefield}
          - {card: Test Legendary Walker, zone: battlefield, loyalty: 4}
        """)


def test_legendary_planeswalkers_follow_uniqueness_not_the_legend_rule(scenario: Scenario
                                                                      ) -> None:
    """Under the 2007 profile the legend rule skips planeswalkers: no choice is offered,
    and both copies go by the uniqueness rule."""
    res = scenario("""
        name: legendary-walkers-2007
        strict: true
        players:
          alice:
            battlefield: [Test Legendary Walker, Plains, Plains, Plains, Plains]
            hand: [Test Legendary Walker]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Test Legendary Walker}
          - {resolve: all}
        expect:
          - {count: {name: Test Legendary Walker, zone: graveyard}, equals: 2}
        """)
    assert not [d for d in events_of(res, ev.DecisionMade) if d.kind == "legend"]


def run_with_profile(reg: Registry, profile: str, text: str) -> Game:
    """Play a scenario's actions in a game with the given rules profile."""
    sc = loads_scenarios(textwrap.dedent(text), "inline.yaml")[0]
    run = ScenarioRun(sc, reg)
    run.game = Game(reg, run.names, seed=0, agents=[run, run], profile=profile)
    run.run()
    return run.game


def zones(g: Game, name: str) -> list[str]:
    return sorted(o.zone for o in g.state.objects.values() if o.card == name)


def test_other_profiles_use_the_legend_rule_and_no_uniqueness(rules_registry: Registry
                                                              ) -> None:
    """Outside the 2007 profile: two walkers sharing a type stay; legendary walkers with
    the same name follow the legend rule (one is kept). The same plays under the 2007
    profile lose both pairs to the uniqueness rule."""
    text = """
        name: current-rules
        players:
          alice:
            battlefield: [Test Walker, {card: Test Legendary Walker, as: keep}, Plains,
                          Plains, Plains, Plains, Plains, Plains, Plains, Plains]
            hand: [Test Walker Prime, Test Legendary Walker]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Test Walker Prime}
          - {resolve: all}
          - {player: alice, cast: Test Legendary Walker}
          - {resolve: all, answers: [{choose: keep}]}
        """
    g = run_with_profile(rules_registry, "current", text)
    assert zones(g, "Test Walker") == ["battlefield"]
    assert zones(g, "Test Walker Prime") == ["battlefield"]
    assert zones(g, "Test Legendary Walker") == ["battlefield", "graveyard"]
    kept = next(o for o in g.state.battlefield
                if g.state.objects[o].card == "Test Legendary Walker")
    assert g.state.objects[kept].card_id == 2  # the one alice chose (created second)
    assert [e.event.kind for e in g.log if isinstance(e.event, ev.DecisionMade)
            and e.event.kind == "legend"] == ["legend"]
    old = run_with_profile(rules_registry, "lorwyn-2007", text)
    assert zones(old, "Test Walker") == ["graveyard"]
    assert zones(old, "Test Walker Prime") == ["graveyard"]
    assert zones(old, "Test Legendary Walker") == ["graveyard", "graveyard"]


def test_loyalty_abilities(scenario: Scenario) -> None:
    """CR 606.3 / 606.4: a loyalty ability is activated at sorcery speed, once per turn per
    planeswalker; its cost adds or removes loyalty counters. A planeswalker enters with its
    printed loyalty (CR 306.5b)."""
    scenario("""
        name: loyalty
        strict: true
        players:
          alice:
            battlefield: [Plains, Plains, Plains, Mountain]
            hand: [Test Walker, Shock]
            library: [Plains]
          bob:
            library: [Plains]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Test Walker}
          - {resolve: all}
          - check: [{card: Test Walker, loyalty: 3}]
          - {player: alice, cast: Shock, targets: [bob]}
          - {player: alice, activate: Test Walker, ability: "+1", refused: true}
          - {resolve: all}
          - {player: alice, activate: Test Walker, ability: "+1"}
          - check: [{card: Test Walker, loyalty: 4}, {stack_size: 1}]
          - {resolve: all}
          - {player: alice, activate: Test Walker, ability: "+1", refused: true}
          - {pass_until: {turn: 2, step: end}}
          - {player: alice, activate: Test Walker, ability: "+1", refused: true}
          - {pass_until: {turn: 4, step: precombat_main}}
          - {player: alice, activate: Test Walker, ability: "+1"}
          - {resolve: all}
        expect:
          - {card: Test Walker, loyalty: 5}
          - {player: alice, life: 22}
        """)


@pytest.mark.parametrize("answer, life, loyalty", [("Test Walker", 20, 1), ("no", 18, 3)])
def test_noncombat_damage_may_be_redirected(scenario: Scenario, answer: str, life: int,
                                            loyalty: int) -> None:
    """2007 rules (Lorwyn primer): noncombat damage to an opponent may be dealt to a
    planeswalker that player controls instead; damage to a planeswalker removes loyalty."""
    res = scenario(f"""
        name: redirect
        strict: true
        players:
          alice:
            battlefield: [Mountain]
            hand: [Shock]
          bob:
            battlefield: [Test Walker]
        turn: {{number: 2, active: alice, step: precombat_main}}
        actions:
          - {{player: alice, cast: Shock, targets: [bob], answers: [{{redirect: {answer}}}]}}
          - {{resolve: all}}
        expect:
          - {{player: bob, life: {life}}}
          - {{card: Test Walker, loyalty: {loyalty}}}
          - {{log_has: DamageRedirected, count: {1 if answer != "no" else 0}}}
        """)
    dealt = events_of(res, ev.DamageDealt)
    assert len(dealt) == 1 and dealt[0].amount == 2


def test_no_redirection_of_combat_damage_or_to_your_own_walker(scenario: Scenario) -> None:
    """Only noncombat damage to an opponent is redirected: combat damage to the player
    stays, and damage to yourself can't go to your own planeswalker."""
    res = scenario("""
        name: no-redirect
        strict: true
        players:
          alice:
            battlefield: [Grizzly Bears, Mountain, Test Walker]
            hand: [Shock]
          bob:
            battlefield: [Test Walker Prime]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Shock, targets: [alice]}
          - {resolve: all}
          - {player: alice, attack: {Grizzly Bears: bob}}
          - {pass_until: {turn: 2, step: end_of_combat}}
        expect:
          - {player: alice, life: 18}
          - {player: bob, life: 18}
          - {card: Test Walker, loyalty: 3}
          - {card: Test Walker Prime, loyalty: 4}
        """)
    assert not [d for d in events_of(res, ev.DecisionMade) if d.kind == "redirect"]
