"""A state-based check registered with the cards it is about (``Registry.add_sba_check``,
``cards=``) runs only in games where such a card has had an object: the Saga check, which
looks at the stack, no longer makes every game look for state-based actions after every
stack event."""

from __future__ import annotations

from typing import Any

from mtgk.agents import RandomAgent
from mtgk.cards.loading import load_registry
from mtgk.plugins import saga
from mtgk.rules.engine import Game


def _play(reg: Any, deck: list[str], seed: int = 3) -> Game:
    g = Game(reg, ["Ann", "Bob"], seed=seed, agents=[RandomAgent(1), RandomAgent(2)])
    g.play([list(deck), list(deck)], mulligans=False, max_turns=8)
    return g


def test_a_check_runs_only_in_games_with_its_cards() -> None:
    reg = load_registry()
    calls: list[int] = []

    def watches_ogres(game: Any) -> list[tuple[str, int, str]]:
        calls.append(len(game.log))
        return []

    reg.add_sba_check(watches_ogres, reads=(), cards=lambda d: d.name == "Gray Ogre")
    _play(reg, ["Mountain"] * 20)
    assert calls == []
    _play(reg, ["Mountain"] * 10 + ["Gray Ogre"] * 10)
    assert calls


def test_the_saga_check_is_live_only_with_a_saga() -> None:
    reg = load_registry()
    plain = _play(reg, ["Mountain"] * 17 + ["Gray Ogre"] * 13)
    assert saga._saga_sba not in plain.live_sba_checks()
    assert "stack" not in plain._sba_reads()
    sagas = [n for n, d in reg.cards.items() if d.extras.get("chapters")]
    assert sagas
    with_saga = _play(reg, ["Swamp"] * 10 + ["Plains"] * 10 + sagas[:1] * 10)
    assert saga._saga_sba in with_saga.live_sba_checks()
    assert "stack" in with_saga._sba_reads()


def test_a_card_new_to_the_game_makes_its_check_live() -> None:
    """A token (or any object) of a card the check needs, made mid-game, brings it in."""
    reg = load_registry()
    g = Game(reg, ["Ann", "Bob"], seed=1)

    def watches_ogres(game: Any) -> list[tuple[str, int, str]]:
        return []

    reg.add_sba_check(watches_ogres, reads=("exile",), cards=lambda d: d.name == "Gray Ogre")
    assert watches_ogres not in g.live_sba_checks()
    assert "exile" not in g._sba_reads()
    from mtgk.log import events as ev

    g.emit(ev.ObjectCreated(obj=g.state.next_id, card="Gray Ogre", owner=0, zone="hand"))
    assert watches_ogres in g.live_sba_checks()
    assert "exile" in g._sba_reads()
