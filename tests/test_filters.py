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


OTHERS: list[Filter] = [
    kind("Kithkin").creature.other().you_control(), kind("Elf").other().you_control(),
    creature.other(), (creature & kind("Giant")).other().untapped(),
    creature.you_control() & permanent.other(), kind("Faerie", "Elf").other().other(),
]


def test_which_filters_look_at_the_source() -> None:
    """``sourceless``: a filter of the kernel's vocabulary never looks at the source but
    through ``.other()`` (and ``where``, or a hand-made filter, is taken to);
    ``besides``: ``f.other()`` (with more sourceless conditions) is ``besides`` but the
    source itself -- what lets a lord's filter be asked once for several sources."""
    for f in FILTERS:
        assert f.sourceless and f.besides is None, f
    for f in OTHERS:
        assert not f.sourceless and f.besides is not None and f.besides.sourceless, f
    hand_made = Filter(lambda v, r, y, s: True, "anything")
    for f in (creature.where(lambda v, r, y, s: True), hand_made, hand_made.other(),
              creature.other().where(lambda v, r, y, s: True), ~creature.other(),
              creature.other() | land):
        assert not f.sourceless and f.besides is None, f


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_a_filter_besides_the_source_says_what_it_says(reg, seed: int) -> None:
    """On the boards of random games: ``f`` accepts what ``f.besides`` accepts but the
    source, and a sourceless filter gives the same verdict whatever the source."""
    for view in boards(reg, seed, every=40):
        bf = view.state.battlefield
        for source in bf[:6]:
            for you in (0, 1):
                for f in OTHERS:
                    assert f.besides is not None
                    assert matching(view, f, you, source) == [
                        o for o in matching(view, f.besides, you, source) if o != source]
                for f in FILTERS:
                    assert matching(view, f, you, source) == matching(view, f, you, bf[0])
