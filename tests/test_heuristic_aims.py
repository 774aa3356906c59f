"""The heuristic agent aims an effect by what its words do (issue 28): what helps at its
own side ("target creature gets +2/+2", "target player draws a card"), what hurts at
another's; the card's name plays no part."""

from __future__ import annotations

import doctest

import pytest

import mtgk.agents
from mtgk.agents import HeuristicAgent, misaimed, mode_aims, target_aims
from mtgk.cards.definitions import Registry
from mtgk.cards.loading import load_registry
from mtgk.log import events as ev
from mtgk.log.events import player_ref
from mtgk.rules.core import Decision
from mtgk.rules.engine import Game


@pytest.fixture(scope="module")
def reg() -> Registry:
    return load_registry()


def test_the_doctests() -> None:
    assert doctest.testmod(mtgk.agents).failed == 0


@pytest.mark.parametrize(("text", "aims"), [
    ("Target player draws a card.", [1]),
    ("Target creature gets +2/+2 until end of turn.", [1]),
    ("Put a +1/+1 counter on target creature.", [1]),
    ("Regenerate target creature. You gain life equal to that creature's toughness.", [1]),
    ("Destroy target creature.", [-1]),
    ("Target creature gets -2/-2 until end of turn.", [-1]),
    ("Target player loses 2 life and you gain 2 life.", [-1]),
    ("Gain control of target creature until end of turn.", [-1]),
    ("Return target creature to its owner's hand.", [-1]),
    ("Target player mills twenty cards.", [-1]),
    ("You may tap or untap target permanent.", [0]),
    ("Target player shuffles their graveyard into their library.", [0]),
])
def test_what_the_words_do_to_a_target(text: str, aims: list[int]) -> None:
    assert target_aims(text) == aims


def test_the_chosen_modes_of_a_modal_spell(reg: Registry) -> None:
    text = reg["Primal Command"].facts.oracle_text  # gains 7 life / put on top / ...
    assert mode_aims(text, [1]) == [1]
    assert mode_aims(text, [2]) == [-1]


def _board(reg: Registry) -> tuple[Game, int, int, int]:
    g = Game(reg, ["alice", "bob"], seed=0)
    g.emit(ev.TurnBegan(turn=1, active=0))
    g.emit(ev.StepBegan(step="precombat_main"))
    for owner, name, zone in [(0, "Forest", "battlefield"), (0, "Forest", "battlefield"),
                              (0, "Grizzly Bears", "battlefield"),
                              (1, "Grizzly Bears", "battlefield"),
                              (0, "Fistful of Force", "hand")]:
        g.emit(ev.ObjectCreated(obj=g.new_id(), card=name, owner=owner, zone=zone))
    mine, theirs = g.state.battlefield[2], g.state.battlefield[3]
    return g, mine, theirs, g.state.players[0].hand[0]


def test_a_pump_is_cast_on_its_own_creature(reg: Registry) -> None:
    """The old agent took every targeted spell to hurt: it cast Fistful of Force on the
    opponent's creature (or not at all)."""
    g, mine, theirs, fistful = _board(reg)
    options = list(g.legal_actions(0))
    assert any(o[0] == "cast" and list(o[2]) == [theirs] for o in options)
    choice = HeuristicAgent(1).decide(g, Decision("priority", 0, options))
    assert choice[0] == "cast" and choice[1] == fistful and list(choice[2]) == [mine]


def test_a_pump_chooses_its_own_creature_as_target(reg: Registry) -> None:
    g, mine, theirs, fistful = _board(reg)
    d = Decision("targets", 0, [[theirs], [mine]], "targets for Fistful of Force",
                 context=fistful)
    assert HeuristicAgent(1).decide(g, d) == [mine]


def test_a_draw_targets_its_own_player_and_a_mill_the_opponent(reg: Registry) -> None:
    """The words decide (:func:`misaimed`): a draw aimed at the opponent is wrong, at
    oneself right; a mill the other way round."""
    g, _mine, _theirs, _fistful = _board(reg)
    me, you = player_ref(0), player_ref(1)
    draw, mill = target_aims("Target player draws a card."), target_aims(
        "Target player mills twenty cards.")
    assert misaimed(g, 0, [you], draw) and not misaimed(g, 0, [me], draw)
    assert misaimed(g, 0, [me], mill) and not misaimed(g, 0, [you], mill)


def test_harm_still_goes_to_the_opponent(reg: Registry) -> None:
    g, mine, theirs, _fistful = _board(reg)
    g.emit(ev.ObjectCreated(obj=g.new_id(), card="Shock", owner=0, zone="hand"))
    shock = g.state.players[0].hand[-1]
    d = Decision("targets", 0, [[mine], [theirs]], "targets for Shock", context=shock)
    assert HeuristicAgent(1).decide(g, d) == [theirs]


def test_an_activated_ability_is_read_by_its_number(reg: Registry) -> None:
    """An ability's number counts from 1 (negative: a land's intrinsic mana ability)."""
    from mtgk.agents import effect_text
    g = Game(reg, ["alice", "bob"], seed=0)
    g.emit(ev.ObjectCreated(obj=g.new_id(), card="Thousand-Year Elixir", owner=0,
                            zone="battlefield"))
    elixir = g.state.battlefield[0]
    assert effect_text(g, ["activate", elixir, 1, (), 0]) == "{1}, {T}: Untap target creature."
    assert effect_text(g, ["activate", elixir, 0, (), 0]) == ""
