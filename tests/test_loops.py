"""CR 104.4b: a game in a loop of mandatory actions, repeating with no way to stop, is a
draw (``GameEnded(winner=-1, reason="loop")``)."""

from __future__ import annotations

import pytest

from mtgk.agents import RandomAgent
from mtgk.cards.decks import parse_deck
from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.rules.engine import LOOP_WINDOW, Game


def test_two_oblivion_rings_exiling_each_other_forever_are_a_draw(registry: Registry) -> None:
    """Found by the playout benchmark (built-in deck, game 65 of seed 1): each Oblivion
    Ring returns the other as it leaves, and the returned one must exile the other again
    (the only other nonland permanent).  Nobody has a choice: a draw, not a hang."""
    deck = parse_deck(registry.sets["lorwyn"].decks["Lorwyn Kithkin & Faerie Flyers"], registry)
    i = 65
    g = Game(registry, ["p1", "p2"], seed=100003 + i,
             agents=[RandomAgent(7919 + 2 * i), RandomAgent(7919 + 2 * i + 1)])
    assert g.play([list(deck), list(deck)], mulligans=False) == -1
    end = g.log[-1].event
    assert isinstance(end, ev.GameEnded) and end.reason == "loop"
    tail = [e.event for e in g.log[-LOOP_WINDOW:]]
    assert not any(isinstance(e, ev.DecisionMade) for e in tail)  # no choice in the loop
    rings = [e for e in tail if isinstance(e, ev.AbilityTriggered)]
    assert rings and all(e.ability.startswith("Oblivion Ring#") for e in rings)
    assert g.state.turn < 20  # it stopped in the turn it began


def test_a_situation_leaves_object_ids_out(registry: Registry) -> None:
    g = Game(registry, ["A", "B"], seed=1)
    with g.setting_up():
        g.emit(ev.ObjectCreated(obj=g.new_id(), card="Grizzly Bears", owner=0,
                                zone="battlefield", sick=True))
    before = g.situation()
    bears = g.state.battlefield[0]
    back = g.move(g.exile(bears) or 0, "battlefield")
    assert back is not None and back != bears  # a new object (CR 400.7) ...
    assert g.situation() == before  # ... in the same situation
    g.emit(ev.DamageDealt(source=back, target=back, amount=1))
    assert g.situation() != before


def test_a_draw_by_the_turn_limit_says_so(registry: Registry) -> None:
    g = Game(registry, ["A", "B"], seed=3, agents=[RandomAgent(1), RandomAgent(2)])
    g.play([["Island"] * 40, ["Island"] * 40], mulligans=False, max_turns=4)
    end = g.log[-1].event
    assert isinstance(end, ev.GameEnded) and end.winner == -1 and end.reason == "turn-limit"


def test_a_game_that_only_moves_on_is_no_loop(registry: Registry,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody can do anything but draw and discard: the game goes on (steps, turns,
    draws) until a library runs out, however soon the engine starts looking for loops --
    both players passing in the same step is not the game repeating itself."""
    import mtgk.rules.priority
    monkeypatch.setattr(mtgk.rules.priority, "LOOP_WINDOW", 5)
    g = Game(registry, ["A", "B"], seed=5, agents=[RandomAgent(1), RandomAgent(2)])
    winner = g.play([["Gray Ogre"] * 30, ["Gray Ogre"] * 30], mulligans=False)
    end = g.log[-1].event
    assert isinstance(end, ev.GameEnded) and end.reason == "" and winner in (0, 1)
    assert g.state.turn > 40
