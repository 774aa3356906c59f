"""The first-strike combat damage step (CR 510.4) with priority
after it, and activated abilities that work from the hand (CR 113.6, 602.2a).  Both sides
of each rule; the test-only cards are in ``conftest.py``."""

from __future__ import annotations

from typing import Any

import pytest

from mtgk.cards.definitions import Registry
from mtgk.cards.dsl import activated, draw, parse_cost
from mtgk.games.replay import verify
from mtgk.log import events as ev
from mtgk.log.answers import action_from
from mtgk.rules.engine import STEPS, Game, RulesError
from mtgk.rules.state import fold
from mtgk.scenario.logs import scenario_log_header
from mtgk.scenario.play import ScenarioResult
from tests.conftest import Scenario, events_of


def _combat(attackers: str, alice: str = "[]", bob: str = "[]", blocks: str = "",
            in_first_step: str = "", expect: str = "[]", hand: str = "[]",
            alice_library: str = "[]") -> str:
    """alice (turn 2) attacks bob with ``attackers``; bob blocks as ``blocks`` says; once
    the first-strike damage step has begun, alice does ``in_first_step`` (a YAML action);
    then the game goes on to the end of combat."""
    block = f"\n          - {{player: bob, block: {{{blocks}}}}}" if blocks else ""
    first = (f"\n          - {{pass_until: {{turn: 2, step: first_strike_damage}}}}"
             f"\n          - {in_first_step}") if in_first_step else ""
    return f"""
        name: first-strike-step
        strict: true
        players:
          alice:
            battlefield: {alice}
            hand: {hand}
            library: {alice_library}
          bob:
            battlefield: {bob}
        turn: {{number: 2, active: alice, step: precombat_main}}
        actions:
          - {{player: alice, attack: {{{attackers}}}}}{block}{first}
          - {{pass_until: {{turn: 2, step: end_of_combat}}}}
        expect: {expect}
        """


def _steps(res: ScenarioResult) -> list[str]:
    return [e.step for e in events_of(res, ev.StepBegan)]


def _between(res: ScenarioResult, first: str, then: str) -> list[Any]:
    """The events from the beginning of step ``first`` to the beginning of ``then``."""
    out: list[Any] = []
    inside = False
    for env in res.log:
        e = env.event
        if isinstance(e, ev.StepBegan):
            if e.step == then and inside:
                return out
            inside = inside or e.step == first
        if inside:
            out.append(e)
    return out


# ------------------------------------------------------------------ the two steps

def test_steps_are_named_in_turn_order() -> None:
    assert STEPS.index("declare_blockers") < STEPS.index("first_strike_damage") \
        < STEPS.index("combat_damage") < STEPS.index("end_of_combat")


def test_first_strike_makes_a_step_with_priority_before_regular_damage(
        scenario: Scenario) -> None:
    """CR 510.4: first-strike damage, then priority (a Shock kills the 4/4 that took 2),
    then the regular step, where the dead blocker deals nothing."""
    res = scenario(_combat("Test First Striker: bob", alice="[Test First Striker, Mountain]",
                           bob="[Test Big Bear]", blocks="Test Big Bear: Test First Striker",
                           in_first_step="{player: alice, cast: Shock, targets: [Test Big Bear]}",
                           hand="[Shock]",
                           expect="""
          - {card: Test Big Bear, zone: graveyard}
          - {card: Test First Striker, zone: battlefield}"""))
    steps = _steps(res)
    assert steps[steps.index("declare_blockers"):steps.index("end_of_combat")] == [
        "declare_blockers", "first_strike_damage", "combat_damage"]
    first = _between(res, "first_strike_damage", "combat_damage")
    assert any(isinstance(e, ev.FirstStrikers) for e in first)
    assert any(isinstance(e, ev.DecisionMade) and e.kind == "priority" for e in first)
    assert any(isinstance(e, ev.SpellCast) for e in first)
    assert not [e for e in _between(res, "combat_damage", "end_of_combat")
                if isinstance(e, ev.DamageDealt)]


def test_no_first_strike_no_first_strike_step(scenario: Scenario) -> None:
    """The other side: without first or double strike in the combat there is one combat
    damage step, the regular one."""
    res = scenario(_combat("Grizzly Bears: bob", alice="[Grizzly Bears]",
                           expect="[{player: bob, life: 18}]"))
    assert "first_strike_damage" not in _steps(res)
    assert "combat_damage" in _steps(res)
    assert not events_of(res, ev.FirstStrikers)


def test_a_creature_that_loses_first_strike_deals_no_damage_again(scenario: Scenario) -> None:
    """CR 702.7c: removing first strike after first-strike damage doesn't let the creature
    deal damage again in the regular step."""
    res = scenario(_combat("Test First Striker: bob", alice="[Test First Striker, Island]",
                           hand="[Test Slowing]", in_first_step="{player: alice, cast: Test Slowing, "
                                         "targets: [Test First Striker]}",
                           expect="[{player: bob, life: 18}]"))
    assert [d.amount for d in events_of(res, ev.DamageDealt)] == [2]


def test_a_double_striker_that_loses_double_strike_deals_only_first(
        scenario: Scenario) -> None:
    """CR 702.4d: removing double strike during the first-strike step stops the creature
    from dealing damage in the regular step; with it, it deals damage in both."""
    scenario(_combat("Test Double Striker: bob", alice="[Test Double Striker, Island]",
                     hand="[Test Slowing]", in_first_step="{player: alice, cast: Test Slowing, "
                                   "targets: [Test Double Striker]}",
                     expect="[{player: bob, life: 18}]"))
    scenario(_combat("Test Double Striker: bob", alice="[Test Double Striker]",
                     expect="[{player: bob, life: 16}]"))


def test_a_creature_that_gains_first_strike_after_the_first_step_deals_regular_damage(
        scenario: Scenario) -> None:
    """CR 702.7c / 510.4: giving first strike to a creature without it after first-strike
    damage doesn't stop it from dealing damage in the regular step (it had neither first
    strike nor double strike as the first step began)."""
    res = scenario(_combat("Test First Striker: bob, Grizzly Bears: bob",
                           alice="[Test First Striker, Grizzly Bears, Plains]",
                           hand="[Test Quickening]", in_first_step="{player: alice, cast: Test Quickening, "
                                         "targets: [Grizzly Bears]}",
                           expect="[{player: bob, life: 16}]"))
    regular = _between(res, "combat_damage", "end_of_combat")
    assert [(e.amount) for e in regular if isinstance(e, ev.DamageDealt)] == [2]


def test_a_first_striker_that_gains_double_strike_deals_damage_again(
        scenario: Scenario) -> None:
    """CR 702.4d: giving double strike to a creature with first strike after it dealt
    first-strike damage lets it deal damage in the regular step too."""
    scenario(_combat("Test First Striker: bob", alice="[Test First Striker, Mountain]",
                     hand="[Test Double Blessing]", in_first_step="{player: alice, cast: Test Double Blessing, "
                                   "targets: [Test First Striker]}",
                     expect="[{player: bob, life: 16}]"))


def test_combat_damage_step_triggers_at_the_beginning_of_each_combat_damage_step(
        scenario: Scenario) -> None:
    """"At the beginning of the combat damage step" triggers in both combat damage steps
    (each is one: CR 510.4); with one step, once."""
    scenario(_combat("Test First Striker: bob, Grizzly Bears: bob",
                     alice="[Test First Striker, Grizzly Bears, Test Combat Chime]",
                     expect="[{player: bob, life: 16}, {player: alice, life: 22}]"))
    scenario(_combat("Grizzly Bears: bob", alice="[Grizzly Bears, Test Combat Chime]",
                     expect="[{player: bob, life: 18}, {player: alice, life: 21}]"))


def test_a_combat_damage_trigger_of_first_strike_damage_resolves_before_regular_damage(
        scenario: Scenario) -> None:
    """"Whenever ~ deals combat damage to a player" triggers on first-strike damage and
    resolves in the first-strike step, before regular damage is dealt."""
    res = scenario(_combat("Test Striking Scout: bob, Grizzly Bears: bob",
                           alice="[Test Striking Scout, Grizzly Bears]",
                           alice_library="[Island, Island]",
                           expect="[{player: bob, life: 17}, {player: alice, hand_size: 1}]"))
    first = _between(res, "first_strike_damage", "combat_damage")
    assert any(isinstance(e, ev.ZoneChanged) and e.reason == "draw" for e in first)
    assert [e.amount for e in first if isinstance(e, ev.DamageDealt)] == [1]


def test_a_state_folded_from_the_log_knows_the_first_strikers(scenario: Scenario,
                                                              rules_registry: Registry) -> None:
    """What the regular step needs (which creatures had first strike) is in the state
    folded from the events: replaying any prefix inside the combat gives it, and the log
    verifies (the engine re-run on its decisions gives the same events)."""
    res = scenario(_combat("Test First Striker: bob, Grizzly Bears: bob",
                           alice="[Test First Striker, Grizzly Bears, Island]",
                           hand="[Test Slowing]", in_first_step="{player: alice, cast: Test Slowing, "
                                         "targets: [Test First Striker]}",
                           expect="[{player: bob, life: 16}]"))
    at = next(i for i, env in enumerate(res.log) if isinstance(env.event, ev.FirstStrikers))
    striker = res.log[at].event.objs
    assert len(striker) == 1
    for k in range(at + 1, len(res.log)):
        s = fold(list(res.log[:k]))
        if s.combat is None:
            break
        assert s.combat.first_strikers == list(striker)
    assert fold(list(res.log[:at])).combat.first_strikers == []  # type: ignore[union-attr]
    report = verify(scenario_log_header(res, rules_registry), res.log, rules_registry)
    assert report.divergence is None and not report.problems, report


# ------------------------------------------------------------------ abilities from the hand

def _hand_game(reg: Registry, hand: list[str], battlefield: list[str],
               library: int = 3) -> tuple[Game, dict[str, int]]:
    g = Game(reg, ["alice", "bob"], seed=1)
    ids: dict[str, int] = {}
    with g.setting_up():
        g.emit(ev.GameStarted(players=("alice", "bob"), seed=1))
        for zone, names in (("hand", hand), ("battlefield", battlefield),
                            ("library", ["Island"] * library)):
            for n in names:
                oid = g.new_id()
                g.emit(ev.ObjectCreated(obj=oid, card=n, owner=0, zone=zone))
                ids.setdefault(n, oid)
        g.emit(ev.TurnBegan(turn=2, active=0))
        g.emit(ev.StepBegan(step="precombat_main"))
    return g, ids


def _activations(g: Game, player: int = 0) -> list[list[Any]]:
    return [a for a in g.legal_actions(player) if a[0] == "activate"]


def test_an_ability_that_works_from_the_hand_is_offered_and_works(
        rules_registry: Registry) -> None:
    """A cycling-style ability ("{1}, Discard ~: Draw a card.") is a legal action while the
    card is in its owner's hand and mana can pay; activating it reveals the card (CR
    602.2a), discards it as a cost, and the ability draws."""
    g, ids = _hand_game(rules_registry, ["Test Cycler"], ["Island"])
    cycler = ids["Test Cycler"]
    assert action_from(["activate", cycler, 1, [], 0]) in _activations(g)
    assert not _activations(g, 1)  # not to the other player
    g.perform(0, g.check_action(0, action_from(["activate", cycler, 1, [], 0])))
    tail = [e.event for e in g.log[-6:]]
    assert any(isinstance(e, ev.Revealed) and e.objs == (cycler,) for e in tail)
    assert any(isinstance(e, ev.ZoneChanged) and e.obj == cycler and e.reason == "discard"
               for e in tail)
    hand_before = len(g.state.players[0].hand)
    g.resolve_top()
    assert len(g.state.players[0].hand) == hand_before + 1
    assert [g.state.objects[o].card for o in g.state.players[0].graveyard] == ["Test Cycler"]


def test_an_ability_from_the_hand_is_not_offered_when_it_cannot_be_paid(
        rules_registry: Registry) -> None:
    """The other side: with no mana, or from another zone (on the battlefield a card with
    only a hand ability has nothing to activate), nothing is offered."""
    g, _ids = _hand_game(rules_registry, ["Test Cycler"], [])
    assert _activations(g) == []
    g, ids = _hand_game(rules_registry, [], ["Test Cycler", "Island"])
    assert _activations(g) == []
    with pytest.raises(RulesError) as err:
        g.check_action(0, action_from(["activate", ids["Test Cycler"], 1, [], 0]))
    assert err.value.rule == "113.6" and "works only from: hand" in str(err.value)


def test_a_hand_ability_with_a_target_is_offered_per_target(rules_registry: Registry) -> None:
    """Reinforce-style: "{W}, Discard ~: Put a +1/+1 counter on target creature."."""
    g, ids = _hand_game(rules_registry, ["Test Reinforcer"], ["Plains", "Grizzly Bears"])
    bears = next(o for o in g.state.battlefield if g.state.objects[o].card == "Grizzly Bears")
    acts = _activations(g)
    assert action_from(["activate", ids["Test Reinforcer"], 1, [bears], 0]) in acts
    g.perform(0, g.check_action(0, action_from(["activate", ids["Test Reinforcer"], 1, [bears], 0])))
    g.resolve_top()
    assert g.state.objects[bears].counters == {"+1/+1": 1}


def test_abilities_of_a_hand_card_are_refused_from_elsewhere_and_to_others(
        rules_registry: Registry) -> None:
    """A battlefield ability isn't activated from the hand (CR 113.6), another player's
    hand card can't be activated by you (and isn't named), and a "Reveal ~" ability works
    from the hand only."""
    g, ids = _hand_game(rules_registry, ["Test Pinger", "Test Herald"], ["Plains"])
    with pytest.raises(RulesError) as err:
        g.check_action(0, action_from(["activate", ids["Test Pinger"], 1, [-2], 0]))
    assert err.value.rule == "113.6" and "hand" in str(err.value)
    with pytest.raises(RulesError) as err:
        g.check_action(1, action_from(["activate", ids["Test Herald"], 1, [], 0]))
    assert "another player's hand" in str(err.value) and "Herald" not in str(err.value)
    assert action_from(["activate", ids["Test Herald"], 1, [], 0]) in _activations(g)
    n = len(g.log)
    with pytest.raises(RulesError):
        g.check_action(0, action_from(["activate", ids["Test Pinger"], 1, [-2], 0]))
    assert len(g.log) == n  # a refused action appends nothing


def test_agents_are_offered_hand_abilities(rules_registry: Registry) -> None:
    """The random and heuristic agents choose among the legal actions: a hand ability is
    one of them."""
    from mtgk.agents import HeuristicAgent, RandomAgent
    from mtgk.rules.engine import Decision
    for agent in (RandomAgent(3), HeuristicAgent(3)):
        g, ids = _hand_game(rules_registry, ["Test Cycler"], ["Island"])
        opts = g.legal_actions(0)
        picks = {str(agent.decide(g, Decision("priority", 0, opts))) for _ in range(40)}
        assert str(action_from(["activate", ids["Test Cycler"], 1, [], 0])) in picks


def test_the_dsl_says_the_zone_and_the_self_costs() -> None:
    c = parse_cost("{1}, Discard ~")
    assert c.discard_self and c.mana == "{1}" and not c.reveal_self
    assert parse_cost("Reveal this card from your hand").reveal_self
    assert activated("{1}, Discard this card", draw(1), zones=("hand",)).zones == ("hand",)
    with pytest.raises(ValueError, match="hand"):
        activated("{1}, Discard ~", draw(1))  # a self-discard cost needs the hand
