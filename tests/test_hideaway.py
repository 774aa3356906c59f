"""Hideaway rules a scenario file can't express (Lorwyn primer, "Keyword Ability:
Hideaway"): things that happen in response to the land's last ability."""

from __future__ import annotations

from typing import Any

from mtgk.cards.definitions import Registry
from mtgk.rules.engine import Decision, Game
from mtgk.scenario.play import ScenarioResult

ACTIVATE = """
name: activate-shelldock
players:
  alice:
    battlefield: [Shelldock Isle, Island]
    exile: [{card: HIDDEN, face_down: true, exiled_with: Shelldock Isle}]
  bob:
    battlefield: [Grizzly Bears]
    hand: [Shock]
actions:
  - {player: alice, activate: Shelldock Isle, ability: 2}
"""
IN_RESPONSE = """
name: activate-shelldock-in-response
players:
  alice:
    battlefield: [Shelldock Isle, Island]
    exile: [{card: HIDDEN, face_down: true, exiled_with: Shelldock Isle}]
  bob:
    battlefield: [Grizzly Bears, Mountain]
    hand: [Shock]
    library: [Forest]
turn: {number: 2, active: bob, step: precombat_main}
actions:
  - {player: bob, cast: Shock, targets: [Grizzly Bears]}
  - {player: alice, activate: Shelldock Isle, ability: 2}
"""


class Yes:
    """Says yes to every "may", takes the first option otherwise; notes the options."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, Any]] = []

    def decide(self, game: Game, d: Decision) -> Any:
        self.asked.append((d.kind, d.options))
        if d.kind == "may":
            return True
        return d.options[0] if d.options else []


def _activated(registry: Registry, hidden: str, text: str = ACTIVATE) -> tuple[Game, Yes]:
    """Alice's Shelldock Isle ability on the stack, ``hidden`` exiled with the land."""
    from tests.conftest import play_scenario

    res: ScenarioResult = play_scenario(text.replace("HIDDEN", hidden), registry)
    assert res.passed, res.reason
    g = res.game
    assert g is not None and g.state.stack and g.state.stack[-1].kind == "activated"
    agent = Yes()
    g.agents = [agent, agent]
    return g, agent


def _only(g: Game, name: str) -> int:
    ids = [oid for oid, o in g.state.objects.items() if o.card == name and o.zone != "none"]
    assert len(ids) == 1, ids
    return ids[0]


def test_losing_control_of_the_land_in_response_still_plays_the_card(
        registry: Registry) -> None:
    g, _ = _activated(registry, "Silvercoat Lion")
    land = _only(g, "Shelldock Isle")
    g.add_effect("control", [land], 1, land, 1, "")  # bob takes the land in response
    assert g.chars(land).controller == 1
    g.resolve_top()
    lion = _only(g, "Silvercoat Lion")
    assert g.state.objects[lion].zone == "stack"
    assert g.state.stack[-1].controller == 0  # the ability's controller plays it
    g.resolve_top()
    lion = _only(g, "Silvercoat Lion")
    assert g.state.objects[lion].zone == "battlefield" and g.chars(lion).controller == 0


def test_card_that_left_exile_in_response_is_not_played(registry: Registry) -> None:
    g, agent = _activated(registry, "Silvercoat Lion")
    hidden = _only(g, "Silvercoat Lion")
    g.move(hidden, "graveyard", reason="test")  # it leaves exile in response
    g.resolve_top()
    assert not g.state.stack
    lion = _only(g, "Silvercoat Lion")
    assert g.state.objects[lion].zone == "graveyard"
    assert ("may", [False, True]) not in agent.asked


def test_mode_without_legal_targets_is_not_offered(registry: Registry) -> None:
    g, agent = _activated(registry, "Cryptic Command")
    g.resolve_top()
    modes = next(opts for kind, opts in agent.asked if kind == "modes")
    assert [1, 2] not in modes and [1, 4] not in modes  # no spell to counter
    assert [2, 4] in modes and [3, 4] in modes
    assert _only(g, "Cryptic Command") == g.state.stack[-1].id


def test_mode_with_legal_targets_is_offered(registry: Registry) -> None:
    g, agent = _activated(registry, "Cryptic Command", IN_RESPONSE)  # over bob's Shock
    g.resolve_top()  # the Shelldock ability
    modes = next(opts for kind, opts in agent.asked if kind == "modes")
    assert [1, 2] in modes and [1, 4] in modes
