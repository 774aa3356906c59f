"""Hidden information: the kernel exposes enough for a per-player view of a log
(``mtgk log --as PLAYER``) to hide a card exiled face down with hideaway from
everyone but the players who have controlled the land (Lorwyn primer, "Keyword
Ability: Hideaway")."""

from __future__ import annotations

import json
from typing import Any

from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.render import Renderer, event_json
from mtgk.rules.engine import Game
from mtgk.rules.visibility import can_see
from mtgk.scenario.play import ScenarioResult

HIDE = """
name: hide-oakgnarl
strict: true
players:
  alice:
    hand: [Mosswort Bridge]
    library: [Oakgnarl Warrior, Forest, Forest, Forest, Plains]
  bob: {}
actions:
  - {player: alice, play: Mosswort Bridge}
  - {resolve: all, answers: [{hideaway: Oakgnarl Warrior}]}
"""


def _hide(registry: Registry) -> ScenarioResult:
    from tests.conftest import play_scenario

    res = play_scenario(HIDE, registry)
    assert res.passed, res.reason
    return res


def _only(g: Game, name: str) -> int:
    ids = [oid for oid, o in g.state.objects.items() if o.card == name and o.zone != "none"]
    assert len(ids) == 1, ids
    return ids[0]


def visible_log(log: list[ev.Envelope], player: int) -> list[dict[str, Any]]:
    """Every entry of ``log`` as ``player`` may see it (``mtgk log --as --json``)."""
    r = Renderer(None, player)
    out = []
    for env in log:
        r.advance(env)
        out.append(event_json(env, r))
    return out


def _as_text(view: list[dict[str, Any]]) -> str:
    return json.dumps(view, default=str)


def test_hidden_card_is_hidden_from_the_opponent_in_the_log(registry: Registry) -> None:
    res = _hide(registry)
    alice, bob = visible_log(res.log, 0), visible_log(res.log, 1)
    assert "Oakgnarl Warrior" not in _as_text(bob)
    assert "Oakgnarl Warrior" in _as_text(alice)  # she looked at it and knows it
    # positive: bob sees the public facts -- the land, and that a card was exiled
    assert "Mosswort Bridge" in _as_text(bob)
    exiled = [v for v in bob if v["type"] == "RemovedFromGame"]
    assert len(exiled) == 1 and exiled[0]["event"]["face_down"] is True
    # the card came from a library (no id), the face-down card is one Bob can follow
    assert exiled[0]["event"]["obj"] == 0 and exiled[0]["event"]["new_obj"] > 0
    x = exiled[0]["event"]
    assert exiled[0]["cards"] == {str(x["new_obj"]): None, str(x["exiled_with"]):
                                  "Mosswort Bridge"}


def test_can_see_the_face_down_card(registry: Registry) -> None:
    g = _hide(registry).game
    assert g is not None
    hidden = _only(g, "Oakgnarl Warrior")
    assert g.state.objects[hidden].face_down
    assert can_see(g.state, hidden, 0)
    assert not can_see(g.state, hidden, 1)
    land = _only(g, "Mosswort Bridge")
    assert can_see(g.state, land, 1)


def test_new_controller_may_look_and_everyone_forgets_when_the_land_leaves(
        registry: Registry) -> None:
    g = _hide(registry).game
    assert g is not None
    land, hidden = _only(g, "Mosswort Bridge"), _only(g, "Oakgnarl Warrior")
    g.add_effect("control", [land], 1, land, 1, "")  # bob gains control of the land
    g.settle()
    assert g.state.objects[hidden].known_to == [0, 1]
    assert can_see(g.state, hidden, 1)
    g.emit(ev.EffectsEnded(effects=tuple(e.id for e in g.state.effects)))  # alice again
    g.settle()
    assert can_see(g.state, hidden, 1)  # bob has controlled the land: he still may look
    g.destroy(land)
    g.settle()
    assert not can_see(g.state, hidden, 0)
    assert not can_see(g.state, hidden, 1)
    assert g.state.objects[hidden].zone == "exile"


def _records(envs: list[ev.Envelope], player: int) -> list[dict[str, Any]]:
    return visible_log(envs, player)


def test_private_fields_are_masked_per_player() -> None:
    envs = [ev.Envelope(0, -1, ev.GameStarted(players=("alice", "bob"), seed=5)),
            ev.Envelope(1, -1, ev.ObjectCreated(obj=1, card="Forest", owner=0, zone="library")),
            ev.Envelope(2, -1, ev.ObjectCreated(obj=2, card="Shock", owner=0, zone="hand")),
            ev.Envelope(3, -1, ev.ObjectCreated(obj=3, card="Plains", owner=1,
                                                zone="battlefield")),
            ev.Envelope(4, -1, ev.LibraryShuffled(player=0, order=(1,)))]
    alice, bob = _records(envs, 0), _records(envs, 1)
    for view in (alice, bob):
        assert view[0]["event"]["seed"] is None
        assert view[1]["event"]["card"] is None and view[1]["event"]["obj"] == 0
        assert view[3]["event"]["card"] == "Plains" and view[3]["cards"] == {"3": "Plains"}
        assert view[4]["event"]["order"] == []
    assert alice[2]["event"]["card"] == "Shock" and alice[2]["event"]["obj"] == 2
    assert bob[2]["event"]["card"] is None and bob[2]["event"]["obj"] == 0


def test_revealed_cards_are_named_to_whom_they_were_shown() -> None:
    envs = [ev.Envelope(0, -1, ev.GameStarted(players=("alice", "bob"), seed=0)),
            ev.Envelope(1, -1, ev.ObjectCreated(obj=1, card="Dread", owner=1, zone="hand")),
            ev.Envelope(2, -1, ev.Revealed(player=1, objs=(1,), to=(1,))),
            ev.Envelope(3, -1, ev.Revealed(player=1, objs=(1,)))]
    alice, bob = _records(envs, 0), _records(envs, 1)
    assert "revealed" not in alice[2] and alice[3]["revealed"] == ["Dread"]
    assert bob[2]["revealed"] == ["Dread"]
    assert list(alice[3]["event"]["objs"]) == [0]  # a card in Bob's hand: no id for Alice


def test_mtgk_log_as_the_opponent_hides_the_card(registry: Registry, tmp_path: Any,
                                                 capsys: Any) -> None:
    """End to end: the scenario's log file, printed by ``mtgk log --as PLAYER``."""
    from mtgk.scenario.logs import write_scenario_log
    from mtgk.tools.cli import main

    path = write_scenario_log(_hide(registry), tmp_path, registry)
    assert main(["log", str(path), "--as", "bob"]) == 0
    as_bob = capsys.readouterr().out
    assert "Mosswort Bridge" in as_bob and "Oakgnarl Warrior" not in as_bob
    assert main(["log", str(path), "--as", "alice"]) == 0
    assert "Oakgnarl Warrior" in capsys.readouterr().out


def test_doctests() -> None:
    import doctest

    import mtgk.rules.visibility

    assert doctest.testmod(mtgk.rules.visibility).failed == 0
