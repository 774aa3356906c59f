"""Combat (CR 506-511) and the combat keywords (CR 702), with one test-only creature per
keyword (see ``conftest.py``).  Basic combat with core cards is in
``tests/scenarios/core/scenario_combat.yaml``."""

from __future__ import annotations

import pytest

from mtgk.log import events as ev
from tests.conftest import Scenario, events_of


def fight(attacker: str, blockers: list[str], *, expect: str, assign: str = "",
          alice: str = "", strict: bool = True) -> str:
    """A scenario: alice attacks bob with ``attacker``; bob blocks with ``blockers``.

    ``expect`` holds expectations, one per line (YAML flow mappings).
    """
    blocks = ", ".join(f"{b}: {attacker}" for b in blockers)
    answers = f", answers: [{{assign: {assign}, player: alice}}]" if assign else ""
    exp = "\n".join(" " * 10 + line.strip() for line in expect.strip().splitlines())
    return f"""
        name: combat
        strict: {str(strict).lower()}
        players:
          alice:
            battlefield: [{attacker}{", " + alice if alice else ""}]
          bob:
            battlefield: [{", ".join(blockers)}]
        turn: {{number: 2, active: alice, step: precombat_main}}
        actions:
          - {{player: alice, attack: {{{attacker}: bob}}}}
          - {{player: bob, block: {{{blocks}}}}}
          - {{pass_until: {{turn: 2, step: end_of_combat}}{answers}}}
        expect:
{exp}
        """


def test_first_strike(scenario: Scenario) -> None:
    """CR 702.7b / 510.4: a first-strike combat damage step comes first; the blocker dies
    before it can deal damage."""
    res = scenario(fight("Test First Striker", ["Grizzly Bears"], expect="""
          - {card: Grizzly Bears, zone: graveyard}
          - {card: Test First Striker, zone: battlefield}"""))
    assert len(events_of(res, ev.DamageDealt)) == 1


def test_first_strike_on_the_blocker(scenario: Scenario) -> None:
    scenario(fight("Grizzly Bears", ["Test First Striker"], expect="""
          - {card: Grizzly Bears, zone: graveyard}
          - {card: Test First Striker, zone: battlefield}"""))


def test_double_strike_unblocked_hits_twice(scenario: Scenario) -> None:
    """CR 702.4b: double strike deals damage in both combat damage steps."""
    res = scenario("""
        name: double-strike
        strict: true
        players:
          alice:
            battlefield: [Test Double Striker]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, attack: {Test Double Striker: bob}}
          - {pass_until: {turn: 2, step: end_of_combat}}
        expect:
          - {player: bob, life: 16}
        """)
    assert [d.amount for d in events_of(res, ev.DamageDealt)] == [2, 2]


def test_double_strike_against_a_bigger_blocker(scenario: Scenario) -> None:
    """Both steps: 2 first-strike damage, then the 4/4 strikes back, then 2 more."""
    scenario(fight("Test Double Striker", ["Test Big Bear"], expect="""
          - {card: Test Big Bear, zone: graveyard}
          - {card: Test Double Striker, zone: graveyard}"""))


def test_trample_excess_to_the_player(scenario: Scenario) -> None:
    """CR 702.19b: the default assigns lethal damage to the blocker and the rest to the
    player."""
    scenario(fight("Test Trampler", ["Grizzly Bears"], strict=False, expect="""
          - {card: Grizzly Bears, zone: graveyard}
          - {player: bob, life: 17}"""))


def test_trample_must_assign_lethal_damage_first(scenario: Scenario) -> None:
    """CR 702.19c: damage can't trample over before every blocker has lethal damage."""
    res = scenario(fight("Test Trampler", ["Grizzly Bears"], assign="{Grizzly Bears: 1, bob: 4}",
                         expect="- {player: bob, life: 16}"), passed=False)
    assert "702.19c" in res.reason
    # assigning more than lethal to the blocker is fine
    scenario(fight("Test Trampler", ["Grizzly Bears"], assign="{Grizzly Bears: 4, bob: 1}",
                   expect="""
          - {card: Grizzly Bears, zone: graveyard}
          - {player: bob, life: 19}"""))


def test_trample_with_deathtouch_needs_only_one(scenario: Scenario) -> None:
    """CR 702.2c + 702.19c: with deathtouch, 1 damage is lethal damage, so the rest may
    trample over."""
    scenario(fight("Test Deadly Trampler", ["Test Big Bear"], assign="{Test Big Bear: 1, bob: 2}",
                   expect="""
          - {player: bob, life: 18}
          - {card: Test Big Bear, zone: graveyard}
          - {card: Test Deadly Trampler, zone: graveyard}"""))


def test_multiple_blockers_divide_damage(scenario: Scenario) -> None:
    """CR 509.1a / 510.1c-d: several creatures may block one attacker; its controller
    divides its combat damage among them; they all deal damage to it."""
    text = """
        name: two-blockers
        strict: true
        players:
          alice:
            battlefield: [Test Big Bear]
          bob:
            battlefield: [{card: Grizzly Bears, as: b1}, {card: Test Black Bear, as: b2}]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, attack: {Test Big Bear: bob}}
          - {player: bob, block: {b1: Test Big Bear, b2: Test Big Bear}}
          - {pass_until: {turn: 2, step: end_of_combat}, answers: [{assign: ASSIGN, player: alice}]}
        expect:
          EXPECT
        """
    scenario(text.replace("ASSIGN", "{b1: 3, b2: 1}").replace("EXPECT", """
          - {card: b1, zone: graveyard}
          - {card: b2, zone: battlefield}
          - {card: Test Big Bear, zone: graveyard}"""))
    scenario(text.replace("ASSIGN", "{b1: 1, b2: 3}").replace("EXPECT", """
          - {card: b1, zone: battlefield}
          - {card: b2, zone: graveyard}"""))
    res = scenario(text.replace("ASSIGN", "{b1: 3, b2: 3}").replace("EXPECT", "[]"),
                   passed=False)
    assert "510.1" in res.reason  # exactly its power
    res = scenario(text.replace("ASSIGN", "{b1: 2, bob: 2}").replace("EXPECT", "[]"),
                   passed=False)
    assert "510.1" in res.reason  # no trample: nothing to the player


def test_multiple_blockers_default_assignment(scenario: Scenario) -> None:
    """Unanswered, the engine assigns lethal damage to the blockers in block order."""
    scenario("""
        name: two-blockers-default
        players:
          alice:
            battlefield: [Test Big Bear]
          bob:
            battlefield: [{card: Grizzly Bears, as: b1}, {card: Test Black Bear, as: b2}]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, attack: {Test Big Bear: bob}}
          - {player: bob, block: {b1: Test Big Bear, b2: Test Big Bear}}
          - {pass_until: {turn: 2, step: end_of_combat}}
        expect:
          - {card: b1, zone: graveyard}
          - {card: b2, zone: graveyard}
          - {card: Test Big Bear, zone: graveyard}
        """)


@pytest.mark.parametrize("blocker, can", [("Grizzly Bears", False), ("Test Reacher", True),
                                          ("Test Flyer", True)])
def test_flying_and_reach(scenario: Scenario, blocker: str, can: bool) -> None:
    """CR 702.9b / 702.17b: a flyer can be blocked only by creatures with flying or reach."""
    scenario(f"""
        name: flying
        strict: true
        players:
          alice:
            battlefield: [{{card: Test Flyer, as: attacker}}]
          bob:
            battlefield: [{{card: {blocker}, as: blocker}}, {{card: Test Reacher, as: spare}}]
        turn: {{number: 2, active: alice, step: precombat_main}}
        actions:
          - {{player: alice, attack: {{attacker: bob}}}}
          - {{player: bob, block: {{blocker: attacker}}, refused: {str(not can).lower()}}}
          - {{pass_until: {{turn: 2, step: end_of_combat}}}}
        expect:
          - {{player: bob, life: {20 if can else 18}}}
        """)


def test_a_flyer_can_block_a_ground_creature(scenario: Scenario) -> None:
    scenario(fight("Grizzly Bears", ["Test Flyer"], expect="""
          - {card: Grizzly Bears, zone: graveyard}
          - {card: Test Flyer, zone: graveyard}"""))


def test_vigilance(scenario: Scenario) -> None:
    """CR 702.20b: attacking doesn't cause a creature with vigilance to tap."""
    scenario("""
        name: vigilance
        strict: true
        players:
          alice:
            battlefield: [Test Vigilant, Grizzly Bears]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, attack: {Test Vigilant: bob, Grizzly Bears: bob}}
          - check: [{card: Test Vigilant, tapped: false}, {card: Grizzly Bears, tapped: true}]
          - {pass_until: {turn: 2, step: end_of_combat}}
        expect:
          - {player: bob, life: 16}
        """)


def test_haste_and_summoning_sickness(scenario: Scenario) -> None:
    """CR 702.10b / 302.6: a creature with haste can attack (and {T}) the turn it arrives;
    a creature without it can't."""
    scenario("""
        name: haste
        strict: true
        players:
          alice:
            battlefield: [Mountain, Forest]
            hand: [Test Hasty, Grizzly Bears]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Test Hasty}
          - {resolve: all}
          - {player: alice, cast: Grizzly Bears, refused: true}
          - {player: alice, attack: {Test Hasty: bob}}
          - {pass_until: {turn: 2, step: end_of_combat}}
        expect:
          - {player: bob, life: 18}
        """)
    scenario("""
        name: no-haste
        strict: true
        players:
          alice:
            battlefield: [Forest, Forest, Test Hasty]
            hand: [Grizzly Bears]
          bob: {}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Grizzly Bears}
          - {resolve: all}
          - {player: alice, attack: {Grizzly Bears: bob}, refused: true}
          - {pass_until: {turn: 2, step: end_of_combat}}
        expect:
          - {player: bob, life: 20}
          - {card: Grizzly Bears, tapped: false}
        """)


@pytest.mark.parametrize("blocker, can", [("Grizzly Bears", False), ("Test Black Bear", True)])
def test_fear(scenario: Scenario, blocker: str, can: bool) -> None:
    """CR 702.36b: fear -- blocked only by artifact and/or black creatures."""
    scenario(f"""
        name: fear
        strict: true
        players:
          alice:
            battlefield: [Test Fearsome]
          bob:
            battlefield: [{blocker}, {{card: Test Black Bear, as: spare}}]
        turn: {{number: 2, active: alice, step: precombat_main}}
        actions:
          - {{player: alice, attack: {{Test Fearsome: bob}}}}
          - {{player: bob, block: {{{blocker}: Test Fearsome}}, refused: {str(not can).lower()}}}
          - {{pass_until: {{turn: 2, step: end_of_combat}}}}
        expect:
          - {{player: bob, life: {20 if can else 18}}}
        """)


def test_defender(scenario: Scenario) -> None:
    """CR 702.3b: a creature with defender can't attack; it blocks normally."""
    scenario("""
        name: defender
        strict: true
        players:
          alice:
            battlefield: [Test Wall, Grizzly Bears]
            library: [Forest]
          bob:
            battlefield: [Test Big Bear]
            library: [Forest]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, attack: {Test Wall: bob}, refused: true}
          - {pass_until: {turn: 3, step: precombat_main}}
          - {player: bob, attack: {Test Big Bear: alice}}
          - {player: alice, block: {Test Wall: Test Big Bear}}
          - {pass_until: {turn: 3, step: end_of_combat}}
        expect:
          - {card: Test Wall, zone: graveyard}
          - {player: alice, life: 20}
          - {player: bob, life: 20}
        """)


def test_islandwalk(scenario: Scenario) -> None:
    """CR 702.14b: landwalk -- unblockable while the defending player controls that land."""
    text = """
        name: islandwalk
        strict: true
        players:
          alice:
            battlefield: [Test Islandwalker, Island]
          bob:
            battlefield: [LAND, Grizzly Bears]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, attack: {Test Islandwalker: bob}}
          BLOCK
          - {pass_until: {turn: 2, step: end_of_combat}}
        expect:
          - {player: bob, life: LIFE}
        """
    scenario(text.replace("LAND", "Forest").replace("LIFE", "20").replace(
        "BLOCK", "- {player: bob, block: {Grizzly Bears: Test Islandwalker}}"))
    # with an Island, no block is possible: bob is not even asked
    res = scenario(text.replace("LAND", "Island").replace("LIFE", "18").replace("BLOCK", ""))
    assert not [d for d in events_of(res, ev.DecisionMade) if d.kind == "blockers"]
    assert [b.blocks for b in events_of(res, ev.BlockersDeclared)] == [()]


def test_deathtouch_blocker(scenario: Scenario) -> None:
    """CR 702.2b: any damage from a deathtouch source is lethal -- also for a blocker."""
    scenario(fight("Test Big Bear", ["Test Deathtoucher"], expect="""
          - {card: Test Big Bear, zone: graveyard}
          - {card: Test Deathtoucher, zone: graveyard}"""))


def test_lifelink(scenario: Scenario) -> None:
    """CR 702.15b: damage dealt by a source with lifelink causes its controller to gain
    that much life (combat and noncombat alike)."""
    res = scenario("""
        name: lifelink
        strict: true
        players:
          alice:
            life: 10
            battlefield: [Test Lifelinker]
          bob:
            battlefield: [Grizzly Bears]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, attack: {Test Lifelinker: bob}}
          - {player: bob, block: {Grizzly Bears: Test Lifelinker}}
          - {pass_until: {turn: 2, step: end_of_combat}}
        expect:
          - {player: alice, life: 13}
          - {card: Grizzly Bears, zone: graveyard}
        """)
    assert [g.n for g in events_of(res, ev.LifeGained)] == [3]


def test_attacking_a_planeswalker(scenario: Scenario) -> None:
    """CR 506.3c / 510.1: a creature can attack a planeswalker; its combat damage removes
    loyalty counters and never reaches the player."""
    scenario("""
        name: attack-walker
        strict: true
        players:
          alice:
            battlefield: [Grizzly Bears]
          bob:
            battlefield: [{card: Test Walker Prime, counters: {loyalty: 4}}]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, attack: {Grizzly Bears: Test Walker Prime}}
          - {pass_until: {turn: 2, step: end_of_combat}}
        expect:
          - {card: Test Walker Prime, loyalty: 2}
          - {player: bob, life: 20}
        """)


def test_attackers_must_be_untapped_creatures_you_control(scenario: Scenario) -> None:
    """CR 508.1a: tapped creatures can't attack."""
    scenario("""
        name: tapped-attacker
        strict: true
        players:
          alice:
            battlefield: [{card: Grizzly Bears, tapped: true}, Test Big Bear]
          bob:
            battlefield: [Test Black Bear]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, attack: {Grizzly Bears: bob}, refused: true}
          - {pass_until: {turn: 2, step: end_of_combat}}
        expect:
          - {player: bob, life: 20}
        """)
