"""Copy effects (CR 707, layer 1) and the duration "until your next turn".

A copy effect (kind ``copy``, params: the name of the card whose printed characteristics
are copied) replaces an object's copiable values in layer 1; every later layer applies
on top, and the engine finds the object's behaviour through :meth:`Game.definition`.
"""

from __future__ import annotations

from typing import Any

import pytest

from mtgk.cards.definitions import Registry
from mtgk.cards.loading import load_registry
from mtgk.log import events as ev
from mtgk.log.answers import action_from
from mtgk.rules.engine import Game
from mtgk.rules.layers import copiable_name, has_copy_effects
from mtgk.rules.state import encode_state, fold


@pytest.fixture(scope="module")
def reg() -> Registry:
    return load_registry()


def new_game(reg: Registry) -> Game:
    g = Game(reg, ["alice", "bob"], seed=0)
    g.emit(ev.TurnBegan(turn=3, active=0))
    g.emit(ev.StepBegan(step="precombat_main"))
    return g


def put(g: Game, name: str, owner: int = 0, tapped: bool = False) -> int:
    oid = g.new_id()
    g.emit(ev.ObjectCreated(obj=oid, card=name, owner=owner, zone="battlefield",
                            tapped=tapped))
    return oid


def copy(g: Game, oid: int, of: int, duration: str = "eot", controller: int = 0) -> None:
    g.add_effect("copy", [oid], copiable_name(g.chars(of)), source=oid,
                 controller=controller, duration=duration)


def test_copy_replaces_copiable_values_only(reg: Registry) -> None:
    g = new_game(reg)
    sharer = put(g, "Shapesharer")
    perfect = put(g, "Imperious Perfect", owner=1, tapped=True)
    gilder = put(g, "Leaf Gilder")
    g.emit(ev.CounterPlaced(obj=perfect, kind="+1/+1", n=2))
    assert not has_copy_effects(g.state)
    copy(g, sharer, perfect)
    assert has_copy_effects(g.state)
    c = g.chars(sharer)
    assert (c.name, c.card, c.power, c.toughness) == ("Imperious Perfect", "Imperious Perfect",
                                                        2, 2)
    assert c.controller == 0 and c.mana_value == 3 and c.colors == ["G"]
    assert c.has_subtype("Elf") and not c.has_subtype("Shapeshifter")
    assert not c.has("changeling")
    assert all(a.startswith("Imperious Perfect#") for a in c.abilities)
    # the card is still a Shapesharer; what it does is the Perfect's
    assert g.card(sharer).name == "Shapesharer"
    assert g.definition(sharer).name == "Imperious Perfect"
    assert not g.state.objects[sharer].tapped and not g.state.objects[sharer].counters
    # the copied static ability works ("Other Elves you control get +1/+1")
    assert (g.chars(gilder).power, g.chars(gilder).toughness) == (3, 2)
    # later layers apply on top of the copy; counters on the copy count
    g.add_effect("pt", [sharer], [1, 1], source=0, controller=0, duration="eot")
    g.emit(ev.CounterPlaced(obj=sharer, kind="+1/+1", n=1))
    assert (g.chars(sharer).power, g.chars(sharer).toughness) == (4, 4)


def test_copied_activated_ability_is_offered_and_own_is_not(reg: Registry) -> None:
    g = new_game(reg)
    sharer = put(g, "Shapesharer")
    perfect = put(g, "Imperious Perfect", owner=1)
    for _ in range(3):
        put(g, "Island")
    put(g, "Forest")
    mine = [a for a in g.legal_actions(0) if a[0] == "activate" and a[1] == sharer]
    assert mine and all(len(a[3]) == 2 for a in mine)  # Shapesharer's two targets
    copy(g, sharer, perfect)
    mine = [a for a in g.legal_actions(0) if a[0] == "activate" and a[1] == sharer]
    assert mine == [action_from(["activate", sharer, 1, [], 0])]  # {G}, {T}: create an Elf Warrior


def test_copy_of_a_copy_and_timestamps(reg: Registry) -> None:
    g = new_game(reg)
    first = put(g, "Shapesharer")
    second = put(g, "Shapesharer")
    vanquisher = put(g, "Wren's Run Vanquisher", owner=1)
    perfect = put(g, "Imperious Perfect", owner=1)
    copy(g, first, vanquisher)
    copy(g, second, first)  # copiable values of a copy: what it copies (CR 707.2)
    assert g.chars(second).name == "Wren's Run Vanquisher"
    copy(g, first, perfect)  # the later copy effect applies last (CR 613.7)
    assert g.chars(first).name == "Imperious Perfect"
    assert g.chars(second).name == "Wren's Run Vanquisher"  # locked in as it began


def test_until_your_next_turn_ends_as_that_turn_begins(reg: Registry) -> None:
    g = new_game(reg)
    sharer = put(g, "Shapesharer")
    vanquisher = put(g, "Wren's Run Vanquisher", owner=1)
    copy(g, sharer, vanquisher, duration="next_turn")
    g._cleanup(0)  # not an end-of-turn effect
    assert g.chars(sharer).name == "Wren's Run Vanquisher"
    g._turn_begins(1)  # the opponent's turn: still a copy
    assert g.chars(sharer).name == "Wren's Run Vanquisher"
    g._turn_begins(0)
    assert g.chars(sharer).name == "Shapesharer"
    assert g.definition(sharer).name == "Shapesharer"
    assert not g.state.effects


def test_replay_reproduces_copies(reg: Registry) -> None:
    g = new_game(reg)
    sharer = put(g, "Shapesharer")
    copy(g, sharer, put(g, "Imperious Perfect", owner=1))
    assert encode_state(fold(g.log)) == encode_state(g.state)


def test_mtgk_log_renders_a_copys_decision_with_the_copied_ability(tmp_path: Any) -> None:
    """Shapesharer as Flamekin Spitfire activates the Spitfire's {3}{R} ability: the
    priority decision reads so, as the event below it does (main named Shapesharer's own
    printed {2}{U} ability in the decision)."""
    import textwrap

    from mtgk.scenario.logs import write_scenario_log
    from mtgk.scenario.play import run_scenario
    from mtgk.scenario.reader import loads_scenarios
    from tests.conftest import run_mtgk
    [sc] = loads_scenarios(textwrap.dedent("""
    name: copy-activates
    players:
      alice:
        battlefield: [{card: Shapesharer, as: ss}, Island, Island, Island, Mountain, Mountain,
                      Mountain, Mountain, {card: Flamekin Spitfire, as: fs}]
      bob: {}
    actions:
      - {player: alice, activate: ss, targets: [ss, fs]}
      - {resolve: all}
      - {player: alice, activate: ss, ability: 1, targets: [bob]}
      - {resolve: all}
    expect:
      - {player: bob, life: 19}
    """))
    reg = load_registry()
    res = run_scenario(sc, reg)
    assert res.passed, res.reason
    path = write_scenario_log(res, tmp_path, reg)
    code, out, err = run_mtgk("log", path)
    assert code == 0, err
    lines = [ln for ln in out.splitlines() if "targeting bob" in ln]
    assert len(lines) == 2 and all("{3}{R} ability" in ln for ln in lines), lines
