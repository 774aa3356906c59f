"""Filters (mtgk.cards.filters): ``exists`` says what ``matching`` says, in every zone, on
the boards of random games."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgk.agents import RandomAgent
from mtgk.cards.decks import builtin_decks, deck_lines, load_deck
from mtgk.cards.filters import (
    Filter,
    card,
    creature,
    enchantment,
    exists,
    kind,
    land,
    matching,
    nonland_permanent,
    permanent,
)
from mtgk.cards.loading import load_registry
from mtgk.games.replay import new_header
from mtgk.stepper import Stepper

FILTERS: list[Filter] = [
    permanent, creature, land, enchantment, nonland_permanent, card,
    kind("Faerie").you_control(), kind("Elf", "Treefolk"), creature.you_control(),
    land.tapped(), creature.untapped().opponent_controls(),
    creature & ~kind("Giant"),
]
ZONES = ["battlefield", "hand", "graveyard", "library", "exile", "stack"]


@pytest.fixture(scope="module")
def reg():
    return load_registry()


def boards(reg, seed: int, every: int = 15):
    """The view at every ``every``-th decision of a random game of the built-in decks."""
    names = list(builtin_decks(reg))[:2]
    decks = [deck_lines(load_deck(n, reg)) for n in names]
    s = Stepper(reg, new_header(reg, ["Alice", "Bob"], decks, seed, meta={"max_turns": 20}))
    agents = [RandomAgent(seed), RandomAgent(seed + 1)]
    n = 0
    while s.decision is not None:
        if n % every == 0:
            yield s.game.view()
        d = s.decision
        s.answer(agents[d.player].decide(s.game, d))
        n += 1


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), pick=st.randoms(use_true_random=False))
def test_exists_is_whether_matching_finds_anything(reg, seed: int, pick: random.Random) -> None:
    checked = found = 0
    for view in boards(reg, seed):
        source = pick.choice(sorted(view.state.objects))
        for f in FILTERS:
            for zone in ZONES:
                for you in (0, 1):
                    want = bool(matching(view, f, you, source, zone))
                    assert exists(view, f, you, source, zone) is want, (f, zone, you)
                    checked += 1
                    found += want
    assert checked and 0 < found < checked  # (both answers were seen)
