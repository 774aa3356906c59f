"""Hidden information: the kernel exposes enough for a per-player view of a log
(``mtgk log --as PLAYER``) to hide a card exiled face down with hideaway from
everyone but the players who have controlled the land (Lorwyn primer, "Keyword
Ability: Hideaway")."""

from __future__ import annotations

import json
from typing import Any

from kernel import events as ev
from kernel.cards import Registry
from kernel.engine import Game
from kernel.scenario.runner import ScenarioResult
from kernel.state import apply, copy_state, new_state
from kernel.visibility import HIDDEN, can_see, visible_event, visible_log

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
    assert len(exiled) == 1 and exiled[0]["fields"]["face_down"] is True
    assert list(exiled[0]["cards"].values()) == [None, None]


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


def test_private_fields_are_masked_per_player() -> None:
    s = new_state()
    apply(s, ev.GameStarted(players=("alice", "bob"), seed=0))
    lib = ev.Envelope(seq=1, cause=-1,
                      event=ev.ObjectCreated(obj=1, card="Forest", owner=0, zone="library"))
    hand = ev.Envelope(seq=2, cause=-1,
                       event=ev.ObjectCreated(obj=2, card="Shock", owner=0, zone="hand"))
    bf = ev.Envelope(seq=3, cause=-1,
                     event=ev.ObjectCreated(obj=3, card="Plains", owner=1, zone="battlefield"))
    for p in (0, 1):
        assert visible_event(lib, s, p)["fields"]["card"] == HIDDEN
        assert visible_event(bf, s, p)["fields"]["card"] == "Plains"
    assert visible_event(hand, s, 0)["fields"]["card"] == "Shock"
    assert visible_event(hand, s, 1)["fields"]["card"] == HIDDEN
    after = copy_state(s)
    apply(after, lib.event)
    shuffle = ev.Envelope(seq=4, cause=-1, event=ev.LibraryShuffled(player=0, order=(1,)))
    assert visible_event(shuffle, after, 0)["fields"]["order"] == HIDDEN


def test_revealed_cards_are_named_to_whom_they_were_shown() -> None:
    s = new_state()
    apply(s, ev.GameStarted(players=("alice", "bob"), seed=0))
    apply(s, ev.ObjectCreated(obj=1, card="Dread", owner=1, zone="hand"))
    to_all = ev.Envelope(seq=2, cause=-1, event=ev.Revealed(player=1, objs=(1,)))
    to_bob = ev.Envelope(seq=3, cause=-1, event=ev.Revealed(player=1, objs=(1,), to=(1,)))
    assert visible_event(to_all, s, 0)["cards"] == {1: "Dread"}
    assert visible_event(to_bob, s, 0)["cards"] == {1: None}
    assert visible_event(to_bob, s, 1)["cards"] == {1: "Dread"}


def test_mtgk_log_as_the_opponent_hides_the_card(registry: Registry, tmp_path: Any,
                                                 capsys: Any) -> None:
    """End to end: the scenario's log file, printed by ``mtgk log --as PLAYER``."""
    from kernel.cli import main
    from kernel.scenario.runner import write_scenario_log

    path = write_scenario_log(_hide(registry), tmp_path, registry)
    assert main(["log", str(path), "--as", "bob"]) == 0
    as_bob = capsys.readouterr().out
    assert "Mosswort Bridge" in as_bob and "Oakgnarl Warrior" not in as_bob
    assert main(["log", str(path), "--as", "alice"]) == 0
    assert "Oakgnarl Warrior" in capsys.readouterr().out


def test_doctests() -> None:
    import doctest

    import kernel.visibility

    assert doctest.testmod(kernel.visibility).failed == 0
