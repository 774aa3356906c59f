"""Priority, the stack and casting spells (CR 117, 405, 601, 608), costs and mana.

The core positions are in ``tests/scenarios/core/scenario_stack.yaml`` and
``scenario_lands_and_mana.yaml``; these tests need the test-only cards or a
look at the log.
"""

from __future__ import annotations

from typing import Any

import pytest

from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.rules.engine import Decision, Game, RulesError
from tests.conftest import Scenario, events_of


class Script:
    """Plays the given priority actions in order (by card name), then passes; logs priority."""

    def __init__(self, me: int, plan: list[tuple[str, str, str]], seen: list[Any]) -> None:
        self.me = me
        self.plan = list(plan)
        self.seen = seen

    def decide(self, game: Game, d: Decision) -> Any:
        assert d.kind == "priority", d
        s = game.state
        if self.plan:
            verb, card, target = self.plan[0]
            for oid in s.players[self.me].hand:
                if s.objects[oid].card == card:
                    self.plan.pop(0)
                    tgt = -1 - (1 - self.me) if target == "opponent" else -1 - self.me
                    self.seen.append((self.me, "cast " + card, len(s.stack)))
                    return ["cast", oid, [tgt], [], 0, ""]
        self.seen.append((self.me, "pass", len(s.stack)))
        return ["pass"]


def test_both_players_pass_in_succession_before_the_top_resolves(rules_registry: Registry
                                                                 ) -> None:
    """CR 117.3b-d / 117.4 / 405.5: after a player casts a spell they get priority again;
    the top object resolves only after all players pass in succession, and then the active
    player receives priority."""
    seen: list[Any] = []
    g = Game(rules_registry, ["alice", "bob"], seed=0,
             agents=[Script(0, [("cast", "Shock", "opponent")], seen),
                     Script(1, [("cast", "Lightning Bolt", "opponent")], seen)])
    g.setup_decks([["Shock", "Mountain"], ["Lightning Bolt", "Mountain"]])
    for p in (0, 1):
        g.draw(p, 2)
        land = next(o for o in g.state.players[p].hand if g.state.objects[o].card == "Mountain")
        g.move(land, "battlefield")
    g.emit(ev.TurnBegan(turn=2, active=0))
    g.emit(ev.StepBegan(step="precombat_main"))
    g.priority_round()
    assert seen == [
        (0, "cast Shock", 0),          # alice casts, and receives priority again
        (0, "pass", 1),
        (1, "cast Lightning Bolt", 1),  # bob responds
        (1, "pass", 2),
        (0, "pass", 2),                # both passed in succession: Bolt resolves
        (0, "pass", 1),                # the active player gets priority first
        (1, "pass", 1),                # both passed: Shock resolves
        (0, "pass", 0),
        (1, "pass", 0),                # empty stack, all passed: the step ends
    ]
    dealt = events_of_log(g, ev.DamageDealt)
    assert [(d.target, d.amount) for d in dealt] == [(-1, 3), (-2, 2)]


def events_of_log(g: Game, kind: type[ev.Event]) -> list[Any]:
    return [e.event for e in g.log if isinstance(e.event, kind)]


def test_a_spell_whose_targets_are_all_gone_does_nothing(scenario: Scenario) -> None:
    """CR 608.2b: the spell is removed from the stack as it tries to resolve ("countered
    on resolution") and none of its effects happen."""
    res = scenario("""
        name: fizzle
        strict: true
        players:
          alice:
            battlefield: [Mountain, Forest]
            hand: [Test Growth, Shock]
          bob:
            battlefield: [Runeclaw Bear]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Test Growth, targets: [Runeclaw Bear]}
          - {player: alice, cast: Shock, targets: [Runeclaw Bear]}
          - {resolve: all}
        expect:
          - {card: Runeclaw Bear, zone: graveyard}
          - {card: Test Growth, zone: graveyard}
        """)
    resolved = events_of(res, ev.StackItemResolved)
    assert [r.fizzled for r in resolved] == [False, True]
    assert events_of(res, ev.EffectCreated) == []


def test_instants_and_flash_at_instant_speed(scenario: Scenario) -> None:
    """CR 702.8a: flash lets a permanent spell be cast any time an instant could; a
    sorcery (or a creature without flash) waits for its controller's main phase."""
    scenario("""
        name: flash
        strict: true
        players:
          alice:
            battlefield: [Mountain]
            library: [Mountain]
          bob:
            battlefield: [Forest, Forest, Forest, Forest]
            hand: [Test Flash Bear, Grizzly Bears, Test Sorcery Growth, Test Growth]
        turn: {number: 2, active: alice, step: upkeep}
        actions:
          - {player: bob, cast: Grizzly Bears, refused: true}
          - {player: bob, cast: Test Flash Bear}
          - {player: bob, cast: Test Sorcery Growth, targets: [Test Flash Bear], refused: true}
          - {resolve: all}
          - {pass_until: {turn: 2, step: end}}
          - {player: bob, cast: Test Growth, targets: [Test Flash Bear]}
          - {resolve: all}
          - check: [{card: Test Flash Bear, power: 5, toughness: 5}]
        expect:
          - {card: Test Flash Bear, zone: battlefield, controller: bob}
          - {card: Grizzly Bears, zone: hand}
        """)


def test_x_costs(scenario: Scenario) -> None:
    """CR 107.3 / 601.2b: X is chosen on casting and paid as generic mana; X can't
    exceed what can be paid."""
    res = scenario("""
        name: x-spell
        strict: true
        players:
          alice:
            battlefield: [Mountain, Mountain, Mountain, Mountain, {card: Forest, as: spare}]
            hand: [Test Blaze]
          bob:
            battlefield: [Test Big Bear]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Test Blaze, targets: [Test Big Bear], x: 5, refused: true}
          - {player: alice, cast: Test Blaze, targets: [bob], x: 4}
          - {resolve: all}
        expect:
          - {player: bob, life: 16}
          - {card: spare, tapped: true}
          - {count: {type: Land, zone: battlefield, controller: alice}, equals: 5}
        """)
    cast = events_of(res, ev.SpellCast)
    assert [c.x for c in cast] == [4]
    spent = events_of(res, ev.ManaSpent)
    assert len(spent) == 1 and sorted(spent[0].mana) == sorted("RRRRG")


def test_legal_actions_offer_each_payable_x(rules_registry: Registry, scenario: Scenario
                                            ) -> None:
    res = scenario("""
        name: x-options
        players:
          alice:
            battlefield: [Mountain, Mountain, Mountain]
            hand: [Test Blaze]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        """)
    g = res.game
    assert g is not None
    blaze = g.state.players[0].hand[0]
    xs = sorted({a[4] for a in g.legal_actions(0) if a[0] == "cast" and a[1] == blaze
                 and list(a[2]) == [-2]})
    assert xs == [0, 1, 2]
    with pytest.raises(RulesError) as info:
        g.check_action(0, ["cast", blaze, [-2], [], 3, ""])
    assert info.value.rule == "601.2h"
    g.check_action(0, ["cast", blaze, [-2], [], 2, ""])


def test_mana_abilities_pay_automatically_but_not_when_summoning_sick(scenario: Scenario
                                                                      ) -> None:
    """CR 605 / 302.6: a creature's {T} mana ability pays for spells -- not while it is
    summoning sick."""
    scenario("""
        name: mana-elf
        strict: true
        players:
          alice:
            battlefield: [Forest, Test Mana Elf, {card: Test Mana Elf, sick: true, as: sick}]
            hand: [Grizzly Bears, Test Growth]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Grizzly Bears}
          - {resolve: all}
          - {player: alice, cast: Test Growth, targets: [Grizzly Bears], refused: true}
          - {player: alice, activate: sick, ability: 1, refused: true}
        expect:
          - {card: Grizzly Bears, zone: battlefield}
          - {card: sick, tapped: false}
          - {count: {name: Test Mana Elf, zone: battlefield}, equals: 2}
        """)


def test_a_mana_ability_does_not_use_the_stack(scenario: Scenario) -> None:
    """CR 605.3a: a mana ability resolves at once; its mana waits in the pool."""
    res = scenario("""
        name: mana-ability
        strict: true
        players:
          alice:
            battlefield: [Test Mana Elf]
            hand: [Test Growth]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, activate: Test Mana Elf, ability: 1}
          - {player: alice, cast: Test Growth, targets: [Test Mana Elf]}
          - check: [{stack_size: 1}]
          - {resolve: all}
        expect:
          - {card: Test Mana Elf, tapped: true, power: 4, toughness: 4}
        """)
    assert not events_of(res, ev.AbilityActivated)
    added = events_of(res, ev.ManaAdded)
    assert [a.mana for a in added] == ["G"]


def test_a_land_is_played_not_cast(scenario: Scenario) -> None:
    """CR 305.9: lands can't be cast; playing a land doesn't use the stack."""
    res = scenario("""
        name: land-not-cast
        strict: true
        players:
          alice:
            hand: [Forest]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Forest, refused: true}
          - {player: alice, play: Forest}
          - check: [{stack_size: 0}]
        expect:
          - {card: Forest, zone: battlefield}
        """)
    assert not events_of(res, ev.SpellCast)
