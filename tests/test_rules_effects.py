"""Continuous effects in layers with timestamps (CR 613), counters (CR 122), tokens
(CR 111), "until end of turn" durations (CR 514.2) and the replacement-effect
mechanism (CR 614, 616) through ``registry.replacements`` with test-only effects."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Scenario, TestPack, events_of, play_scenario

from mtgk.cards.definitions import Registry
from mtgk.cards.loading import hookimpl, load_registry
from mtgk.log import events as ev
from mtgk.rules.engine import Decision, Game
from mtgk.rules.replacement import Replacement
from mtgk.scenario.play import ScenarioResult, ScenarioRun
from mtgk.scenario.reader import loads_scenarios

# ---------------------------------------------------------------- layers

def test_lord_and_pump_add_up(scenario: Scenario) -> None:
    """CR 613.4c: Goblin Chieftain's +1/+1 and Test Growth's +3/+3 both apply in layer 7c;
    the pump ends at cleanup, the lord's bonus stays while the Chieftain does."""
    scenario("""
        name: lord-and-pump
        strict: true
        players:
          alice:
            battlefield: [Forest, Goblin Chieftain, Goblin Roughrider]
            hand: [Test Growth]
            library: [Forest]
          bob:
            library: [Forest]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Test Growth, targets: [Goblin Roughrider]}
          - {resolve: all}
          - check: [{card: Goblin Roughrider, power: 7, toughness: 6, has_ability: haste}]
          - {pass_until: {turn: 3, step: upkeep}}
        expect:
          - {card: Goblin Roughrider, power: 4, toughness: 3}
        """)


@pytest.mark.parametrize("first, second, pt", [
    ("Test Growth", "Test Shrink", (3, 5)),   # 7b applies before 7c whatever the timestamps
    ("Test Shrink", "Test Growth", (3, 5)),
    ("Test Shrink", "Test Enlarge", (5, 5)),  # within layer 7b, the later timestamp wins
    ("Test Enlarge", "Test Shrink", (0, 2)),
])
def test_layers_then_timestamps(scenario: Scenario, first: str, second: str,
                                pt: tuple[int, int]) -> None:
    """CR 613.1 / 613.4 / 613.7: effects apply layer by layer (setting P/T in 7b, then
    modifications in 7c); within one layer, in timestamp order."""
    scenario(f"""
        name: layers
        strict: true
        players:
          alice:
            battlefield: [Forest, Forest, Island, Island, Grizzly Bears]
            hand: [{first}, {second}]
          bob: {{}}
        turn: {{number: 2, active: alice, step: precombat_main}}
        actions:
          - {{player: alice, cast: {first}, targets: [Grizzly Bears]}}
          - {{resolve: all}}
          - {{player: alice, cast: {second}, targets: [Grizzly Bears]}}
          - {{resolve: all}}
        expect:
          - {{card: Grizzly Bears, power: {pt[0]}, toughness: {pt[1]}}}
        """)


def test_counters_apply_after_setting_effects(scenario: Scenario) -> None:
    """CR 613.4c: +1/+1 counters modify P/T after base-setting effects (7b)."""
    scenario("""
        name: counters-and-set
        strict: true
        players:
          alice:
            battlefield: [Island, {card: Grizzly Bears, counters: {"+1/+1": 2}}]
            hand: [Test Shrink]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - check: [{card: Grizzly Bears, power: 4, toughness: 4}]
          - {player: alice, cast: Test Shrink, targets: [Grizzly Bears]}
          - {resolve: all}
        expect:
          - {card: Grizzly Bears, power: 2, toughness: 4}
        """)


def test_characteristic_defining_ability_first(scenario: Scenario) -> None:
    """CR 613.4a: Avatar's P/T (equal to its controller's life) is defined in 7a; pumps
    apply on top."""
    scenario("""
        name: avatar
        strict: true
        players:
          alice:
            life: 12
            battlefield: [Forest, Mountain, {card: Avatar, token: true}]
            hand: [Test Growth, Shock]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Test Growth, targets: [Avatar]}
          - {resolve: all}
          - {player: alice, cast: Shock, targets: [alice]}
          - {resolve: all}
        expect:
          - {card: Avatar, power: 13, toughness: 13}
        """)


def test_counters(scenario: Scenario) -> None:
    """CR 122.1a: +1/+1 and -1/-1 counters change P/T; they stay from turn to turn."""
    scenario("""
        name: counters
        strict: true
        players:
          alice:
            battlefield: [Forest, Swamp, Grizzly Bears]
            hand: [Test Plus Counter]
            library: [Forest]
          bob:
            library: [Forest]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Test Plus Counter, targets: [Grizzly Bears]}
          - {resolve: all}
          - {pass_until: {turn: 3, step: upkeep}}
        expect:
          - {card: Grizzly Bears, power: 3, toughness: 3, counters: {"+1/+1": 1}}
          - {log_has: CounterPlaced, count: 1}
        """)


def test_tokens_are_permanents_with_summoning_sickness(scenario: Scenario) -> None:
    """CR 111.1 / 302.6: a token is created on the battlefield under its creator's control;
    it is summoning sick like any creature."""
    scenario("""
        name: token
        strict: true
        players:
          alice:
            battlefield: [Forest, Grizzly Bears]
            hand: [Test Beastcall]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Test Beastcall}
          - {resolve: all}
          - {player: alice, attack: {Beast: bob}, refused: true}
        expect:
          - {count: {name: Beast, token: true, controller: alice, zone: battlefield}, equals: 1}
          - {card: Beast, types: [Creature], has_subtypes: [Beast]}
        """)


# ---------------------------------------------------------------- replacement effects

class ExileInstead(Replacement):
    """Test-only: if a creature would be put into a graveyard from the battlefield,
    exile it instead."""

    key, event = "test-exile-instead", "move"

    def applies(self, game: Game, p: dict[str, Any], source: int) -> bool:
        o = game.state.objects.get(p["obj"])
        return (p["from_zone"] == "battlefield" and p["to_zone"] == "graveyard"
                and o is not None and "Creature" in game.chars(p["obj"]).types)

    def apply(self, game: Game, p: dict[str, Any], source: int) -> dict[str, Any] | None:
        return dict(p, to_zone="exile")


class PlusOne(Replacement):
    """Test-only: damage that would be dealt to a creature is increased by 1."""

    key, event = "test-plus-one", "damage"

    def applies(self, game: Game, p: dict[str, Any], source: int) -> bool:
        return p["target"] > 0 and "Creature" in game.chars(p["target"]).types

    def apply(self, game: Game, p: dict[str, Any], source: int) -> dict[str, Any] | None:
        return dict(p, amount=p["amount"] + 1)


class Double(Replacement):
    """Test-only: damage that would be dealt to a creature is doubled."""

    key, event = "test-double", "damage"

    def applies(self, game: Game, p: dict[str, Any], source: int) -> bool:
        return p["target"] > 0 and "Creature" in game.chars(p["target"]).types

    def apply(self, game: Game, p: dict[str, Any], source: int) -> dict[str, Any] | None:
        return dict(p, amount=p["amount"] * 2)


class PreventToPlayers(Replacement):
    """Test-only: prevent all damage that would be dealt to players."""

    key, event = "test-prevent-players", "damage"

    def applies(self, game: Game, p: dict[str, Any], source: int) -> bool:
        return p["target"] < 0

    def apply(self, game: Game, p: dict[str, Any], source: int) -> dict[str, Any] | None:
        return None


class Rules:
    """A mechanics plugin registering test-only replacement effects."""

    def __init__(self, *reps: Replacement) -> None:
        self.reps = reps

    @hookimpl
    def mtgk_register(self, registry: Registry) -> None:
        registry.replacements.extend(self.reps)


def registry_with(*reps: Replacement) -> Registry:
    reg = load_registry(extra=[("testpack", TestPack()), ("testrules", Rules(*reps))])
    assert any(isinstance(r, type(reps[0])) for r in reg.replacements)
    return reg


def test_a_replacement_changes_where_an_object_goes() -> None:
    """CR 614.1a / 614.6: "instead": the modified event happens, the original never does."""
    reg = registry_with(ExileInstead())
    res = run(reg, """
        name: exile-instead
        strict: true
        players:
          alice:
            battlefield: [Mountain, Mountain]
            hand: [Shock, Lightning Bolt]
          bob:
            battlefield: [Grizzly Bears, {card: Test Mourner, as: mourner}]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Shock, targets: [Grizzly Bears]}
          - {resolve: all}
          - {player: alice, cast: Lightning Bolt, targets: [bob]}
          - {resolve: all}
        expect:
          - {card: Grizzly Bears, zone: exile}
          - {player: bob, graveyard_size: 0, life: 17}
          - {player: alice, graveyard_size: 2}
          - {log_has: RemovedFromGame, count: 1}
        """)
    # the creature never "died": the Mourner's dies trigger didn't trigger
    assert events_of(res, ev.AbilityTriggered) == []
    assert not [z for z in events_of(res, ev.ZoneChanged) if z.to_zone == "graveyard"
                and z.from_zone == "battlefield"]


def test_without_the_replacement_the_creature_dies(rules_registry: Registry) -> None:
    res = run(rules_registry, """
        name: no-replacement
        strict: true
        players:
          alice:
            battlefield: [Mountain]
            hand: [Shock]
          bob:
            battlefield: [Grizzly Bears, Test Mourner]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Shock, targets: [Grizzly Bears]}
          - {resolve: all}
        expect:
          - {card: Grizzly Bears, zone: graveyard}
          - {player: bob, life: 21}
        """)
    assert len(events_of(res, ev.AbilityTriggered)) == 1


def test_prevention_and_single_application() -> None:
    """CR 615.1 / 614.5: a prevention effect stops damage (no DamageDealt, no life lost);
    a replacement modifies an event only once (doubling 2 gives 4, not more)."""
    reg = registry_with(PreventToPlayers(), Double())
    res = run(reg, """
        name: prevent-and-double
        strict: true
        players:
          alice:
            battlefield: [Mountain, Mountain]
            hand: [Shock, Lightning Bolt]
          bob:
            battlefield: [Test Big Bear]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Lightning Bolt, targets: [bob]}
          - {resolve: all}
          - {player: alice, cast: Shock, targets: [Test Big Bear]}
          - {resolve: all}
        expect:
          - {player: bob, life: 20}
          - {card: Test Big Bear, zone: graveyard}
        """)
    assert [(d.target > 0, d.amount) for d in events_of(res, ev.DamageDealt)] == [(True, 4)]


class Chooser:
    """Answers "replacement" decisions with ``order[0]`` first; delegates the rest."""

    def __init__(self, inner: Any, first: str, asked: list[Decision]) -> None:
        self.inner = inner
        self.first = first
        self.asked = asked

    def decide(self, game: Game, d: Decision) -> Any:
        if d.kind == "replacement":
            self.asked.append(d)
            return next(o for o in d.options or [] if o.startswith(self.first))
        return self.inner.decide(game, d)


@pytest.mark.parametrize("first, damage", [("test-plus-one", 6), ("test-double", 5)])
def test_affected_player_orders_replacements(first: str, damage: int) -> None:
    """CR 616.1: with several replacement effects, the affected object's controller
    chooses one to apply, then the next (still applicable) one, and so on."""
    reg = registry_with(PlusOne(), Double())
    sc = loads_scenarios("""
name: order-replacements
players:
  alice:
    battlefield: [Mountain]
    hand: [Shock]
  bob:
    battlefield: [Test Trampler]
turn: {number: 2, active: alice, step: precombat_main}
actions:
  - {player: alice, cast: Shock, targets: [Test Trampler]}
  - {resolve: all}
""", "inline.yaml")[0]
    run_ = ScenarioRun(sc, reg)
    asked: list[Decision] = []
    run_.game.agents = [Chooser(run_, first, asked), Chooser(run_, first, asked)]
    run_.run()
    dealt = [e.event for e in run_.game.log if isinstance(e.event, ev.DamageDealt)]
    assert [d.amount for d in dealt] == [damage]
    assert len(asked) == 1 and asked[0].player == 1  # bob controls the creature
    tramplers = [o for o in run_.game.state.objects.values() if o.card == "Test Trampler"]
    assert [o.zone for o in tramplers] == ["graveyard"]


def run(reg: Registry, text: str) -> ScenarioResult:
    res = play_scenario(text, reg)
    assert res.passed, res.reason
    return res
