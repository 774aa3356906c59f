"""Rulings on Lorwyn cards that the scenario files (tests/scenarios/lorwyn/, one file per
card module of cardsets/lorwyn/) can't express: a creature blocking two attackers
(Lairwatch Giant), refused blocks under a blocking requirement (Hunt Down), and a few
checks on the game after a scenario: Gaddock Teeg's "can't be cast" reason, Makeshift
Mannequin's ability only while the mannequin counter stays, Nath's Buffoon's prevention
of damage from Elves, Runed Stalactite falling off a noncreature."""

from __future__ import annotations

import pytest

from mtgk.cards.definitions import Registry
from mtgk.cards.loading import load_registry
from mtgk.log import events as ev
from mtgk.log.answers import Block
from mtgk.rules.engine import Game, RulesError
from tests.conftest import play_scenario


@pytest.fixture(scope="module")
def reg() -> Registry:
    return load_registry()


def _named(g: Game, name: str) -> list[int]:
    return [o for o in g.state.battlefield if g.state.objects[o].card == name]


LAIRWATCH = """
name: lairwatch-attacked-by-three
players:
  alice:
    battlefield: [Lairwatch Giant]
  bob:
    battlefield: [Grizzly Bears, Grizzly Bears, Grizzly Bears]
turn: {number: 2, active: bob, step: precombat_main}
actions:
  - {player: bob, attack: [Grizzly Bears, Grizzly Bears, Grizzly Bears]}
"""


def test_lairwatch_giant_blocks_two_not_three(reg: Registry) -> None:
    res = play_scenario(LAIRWATCH.replace(
        "[Grizzly Bears, Grizzly Bears, Grizzly Bears]}",
        "{b1: alice, b2: alice, b3: alice}}").replace(
        "battlefield: [Grizzly Bears, Grizzly Bears, Grizzly Bears]",
        "battlefield: [{card: Grizzly Bears, as: b1}, {card: Grizzly Bears, as: b2}, "
        "{card: Grizzly Bears, as: b3}]"), reg)
    g = res.game
    assert g is not None and g.state.combat is not None
    giant = _named(g, "Lairwatch Giant")[0]
    b1, b2, b3 = _named(g, "Grizzly Bears")
    assert g.max_blocks(giant) == 2
    with pytest.raises(RulesError, match="can block only 2 creatures"):
        g.check_blockers(0, [[giant, b1], [giant, b2], [giant, b3]])
    assert g.check_blockers(0, [[giant, b1], [giant, b2]]) == [Block(giant, b1),
                                                                Block(giant, b2)]


def test_lairwatch_giant_blocking_two_gains_first_strike(reg: Registry) -> None:
    """Blocking both Bears, it gains first strike and kills them before they deal damage."""
    res = play_scenario("""
name: lairwatch-blocks-two
players:
  alice:
    battlefield: [Lairwatch Giant]
  bob:
    battlefield: [{card: Grizzly Bears, as: b1}, {card: Grizzly Bears, as: b2}]
turn: {number: 2, active: bob, step: precombat_main}
actions:
  - {player: bob, attack: {b1: alice, b2: alice}}
""", reg)
    g = res.game
    assert g is not None
    giant = _named(g, "Lairwatch Giant")[0]
    b1, b2 = _named(g, "Grizzly Bears")

    class Alice:
        def decide(self, game: Game, d: object) -> object:
            kind = getattr(d, "kind", "")
            if kind == "blockers":
                return [[giant, b1], [giant, b2]]
            if kind == "assign":
                return [[b1, 2], [b2, 3]]
            return d.options[0] if d.options else []  # type: ignore[attr-defined]

    class Pass:
        def decide(self, game: Game, d: object) -> object:
            return d.options[0] if d.options else []  # type: ignore[attr-defined]

    g.agents = [Alice(), Pass()]
    g.turn_from("declare_blockers", 2, 1)  # the rest of bob's turn
    s = g.state
    assert any(isinstance(e.event, ev.EffectCreated) and e.event.params == ["first strike"]
               and e.event.objs == (giant,) for e in g.log)
    assert s.players[0].life == 20
    assert not _named(g, "Grizzly Bears")
    assert s.objects[giant].zone == "battlefield"


HUNT = """
name: hunt-down-requirement
players:
  alice:
    battlefield: [Forest, Grizzly Bears, Axegrinder Giant]
    hand: [Hunt Down]
  bob:
    battlefield: [Runeclaw Bear]
actions:
  - {player: alice, cast: Hunt Down, targets: [Runeclaw Bear, Grizzly Bears]}
  - {resolve: all}
  - {player: alice, attack: [Grizzly Bears, Axegrinder Giant]}
"""


def test_hunt_down_requirement_refuses_other_blocks(reg: Registry) -> None:
    res = play_scenario(HUNT, reg)
    g = res.game
    assert g is not None and g.state.combat is not None
    bear = _named(g, "Runeclaw Bear")[0]
    grizzly = _named(g, "Grizzly Bears")[0]
    giant = _named(g, "Axegrinder Giant")[0]
    with pytest.raises(RulesError, match="must block Grizzly Bears"):
        g.check_blockers(1, [])
    with pytest.raises(RulesError, match="must block Grizzly Bears"):
        g.check_blockers(1, [[bear, giant]])
    assert g.check_blockers(1, [[bear, grizzly]]) == [Block(bear, grizzly)]


def test_hunt_down_requirement_lasts_the_turn(reg: Registry) -> None:
    res = play_scenario(HUNT.replace(
        "  - {player: alice, attack: [Grizzly Bears, Axegrinder Giant]}\n",
        "  - {pass_until: {turn: 1, step: end}}\n"), reg)
    g = res.game
    assert g is not None
    bear = _named(g, "Runeclaw Bear")[0]
    assert any(a.startswith("must_block:") for a in g.chars(bear).abilities)


def test_gaddock_teeg_reason(reg: Registry) -> None:
    text = """
name: teeg
players:
  alice:
    battlefield: [TEEG]
  bob:
    battlefield: [Forest, Forest, Forest, Forest, Swamp, Swamp]
    hand: [Heal the Scars, Profane Command]
turn: {number: 2, active: bob, step: precombat_main}
actions: []
"""
    for with_teeg in (True, False):
        res = play_scenario(text.replace("TEEG", "Gaddock Teeg" if with_teeg else "Grizzly Bears"),
                            reg)
        g = res.game
        assert g is not None
        hand = g.state.players[1].hand
        heal = next(o for o in hand if g.state.objects[o].card == "Heal the Scars")
        cmd = next(o for o in hand if g.state.objects[o].card == "Profane Command")
        target = g.state.battlefield[0]
        actions = (["cast", heal, [target], [], 0, ""],
                   ["cast", cmd, [ev.player_ref(0), target], [1, 3], 1, ""])
        for action in actions:
            if with_teeg:
                with pytest.raises(RulesError, match="can't be cast"):
                    g.check_action(1, action)
            else:
                g.check_action(1, action)
        assert any(a[0] == "cast" for a in g.legal_actions(1)) is not with_teeg


def test_makeshift_mannequin_only_while_it_has_the_counter(reg: Registry) -> None:
    res = play_scenario("""
name: mannequin
players:
  alice:
    battlefield: [Swamp, Swamp, Swamp, Swamp]
    hand: [Makeshift Mannequin]
    graveyard: [Axegrinder Giant]
  bob: {}
actions:
  - {player: alice, cast: Makeshift Mannequin, targets: [Axegrinder Giant]}
  - {resolve: all}
""", reg)
    g = res.game
    assert g is not None
    giant = _named(g, "Axegrinder Giant")[0]
    assert "Makeshift Mannequin#1" in g.chars(giant).abilities
    g.emit(ev.CounterRemoved(obj=giant, kind="mannequin", n=1))
    assert "Makeshift Mannequin#1" not in g.chars(giant).abilities


def test_naths_buffoon_prevents_damage_from_elves(reg: Registry) -> None:
    res = play_scenario("""
name: buffoon
players:
  alice:
    battlefield: [Nath's Buffoon]
  bob:
    battlefield: [Leaf Gilder, Grizzly Bears]
actions: []
""", reg)
    g = res.game
    assert g is not None
    buffoon = _named(g, "Nath's Buffoon")[0]
    elf = _named(g, "Leaf Gilder")[0]
    bears = _named(g, "Grizzly Bears")[0]
    g.deal_damage(elf, buffoon, 2)
    assert g.state.objects[buffoon].damage == 0
    g.deal_damage(bears, buffoon, 1)
    assert g.state.objects[buffoon].damage == 1
    assert not g.can_block(elf, buffoon) and g.can_block(bears, buffoon)


def test_runed_stalactite_falls_off_a_noncreature(reg: Registry) -> None:
    res = play_scenario("""
name: stalactite
players:
  alice:
    battlefield: [Grizzly Bears, {card: Runed Stalactite, attached_to: Grizzly Bears}]
  bob: {}
actions: []
""", reg)
    g = res.game
    assert g is not None
    bears = _named(g, "Grizzly Bears")[0]
    stalactite = _named(g, "Runed Stalactite")[0]
    assert g.chars(bears).power == 3 and g.chars(bears).has_subtype("Merfolk")
    g.add_effect("remove_types", [bears], ["Creature"], bears, 0, "eot")
    g.settle()
    assert g.state.objects[stalactite].attached_to == 0
    assert g.state.objects[stalactite].zone == "battlefield"
