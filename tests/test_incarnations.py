"""Incarnation rules no card in the installed sets can set up (Lorwyn primer,
"Cycle: Incarnations"): the card losing the ability as it goes to the graveyard
(Yixlid Jailer), and the card leaving the graveyard before the ability resolves."""

from __future__ import annotations

import pytest

from mtgk import kind
from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.rules.chars import Chars
from mtgk.rules.engine import Game

BOARD = """
name: dread-in-hand
players:
  alice: {}
  bob:
    hand: [Dread]
    library: [Island, Island]
"""


def _game(registry: Registry) -> Game:
    from tests.conftest import play_scenario

    res = play_scenario(BOARD, registry)
    assert res.passed, res.reason
    assert res.game is not None
    return res.game


def _dread(g: Game) -> int:
    return next(oid for oid, o in g.state.objects.items() if o.card == "Dread")


def _triggered(g: Game) -> int:
    return sum(1 for env in g.log if isinstance(env.event, ev.AbilityTriggered))


def test_discarded_dread_triggers(registry: Registry) -> None:
    g = _game(registry)
    g.move(_dread(g), "graveyard", reason="discard")
    assert _triggered(g) == 1


def test_no_trigger_if_the_card_has_no_abilities_in_the_graveyard(registry: Registry) -> None:
    """Like Yixlid Jailer ("Cards in graveyards lose all abilities"): the ability is
    looked for on the card in the graveyard, so it doesn't trigger."""
    if kind.compiled_modules():
        pytest.skip("replaces a method of one game, which a compiled Game does not allow")
    g = _game(registry)
    printed = g.chars

    def jailer(oid: int) -> Chars:
        c = printed(oid)
        o = g.state.objects.get(oid)
        if o is not None and o.zone == "graveyard":
            c = c.copy()
            c.abilities = []
        return c

    g.chars = jailer  # type: ignore[method-assign]
    g.move(_dread(g), "graveyard", reason="discard")
    assert _triggered(g) == 0
    assert g.state.objects[_dread(g)].zone == "graveyard"


def test_card_that_left_the_graveyard_is_not_shuffled_in(registry: Registry) -> None:
    g = _game(registry)
    g.move(_dread(g), "graveyard", reason="discard")
    g.settle()
    assert len(g.state.stack) == 1
    g.move(_dread(g), "exile", reason="test")  # removed in response
    g.resolve_top()
    assert not g.state.stack
    assert g.state.objects[_dread(g)].zone == "exile"
    assert len(g.state.players[1].library) == 2


def test_card_still_in_the_graveyard_is_shuffled_in(registry: Registry) -> None:
    g = _game(registry)
    g.move(_dread(g), "graveyard", reason="discard")
    g.settle()
    g.resolve_top()
    assert g.state.objects[_dread(g)].zone == "library"
    assert len(g.state.players[1].library) == 3
    assert isinstance(g.log[-1].event, ev.StackItemResolved)
    assert any(isinstance(env.event, ev.LibraryShuffled) for env in g.log[-3:])
