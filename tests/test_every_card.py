"""Random games with every card of every installed set.

Two seeded random decks per game, drawn from all the cards the registry knows
(tokens and Role tokens apart), play against each other with random agents.
The games run in validated mode (``Game.validate_caches``): after every event
the test checks that

* the characteristics the engine kept across the event (it keeps them when the
  event changes no part of the state a static ability on the battlefield reads,
  see ``Static.reads`` and ``Event.CHANGES``) equal a fresh computation
  (:meth:`Game.check_cached_characteristics`);
* no state-based action is due when the engine skipped looking for them, and
  legal actions it kept equal a fresh enumeration;
* no exception escapes a game, whatever cards meet.

A card whose static ability reads something it doesn't declare fails here with
the card's name and the event that should have invalidated the cache.
"""

from __future__ import annotations

import random

import pytest

from mtgk.agents import RandomAgent
from mtgk.cards.decks import parse_deck
from mtgk.cards.definitions import Registry
from mtgk.rules.engine import Game

BASICS = ("Plains", "Island", "Swamp", "Mountain", "Forest")
GAMES = 60


def spells(reg: Registry) -> list[str]:
    """Every card a deck may hold: not a token, not a basic land, not an Adventure face."""
    out = []
    for name, d in sorted(reg.cards.items()):
        f = d.facts
        token = f.mana_cost is None and "Land" not in f.types
        if name in BASICS or token or d.extras.get("adventure_of") or "Basic" in f.supertypes:
            continue
        out.append(name)
    return out


def random_deck(rng: random.Random, pool: list[str]) -> list[str]:
    lands = [rng.choice(BASICS) for _ in range(17)]
    return lands + [rng.choice(pool) for _ in range(23)]


@pytest.mark.parametrize("seed", range(GAMES))
def test_random_game_with_every_card(registry: Registry, seed: int) -> None:
    rng = random.Random(seed)
    pool = spells(registry)
    decks = [random_deck(rng, pool), random_deck(rng, pool)]
    g = Game(registry, ["p1", "p2"], seed=seed, agents=[RandomAgent(seed), RandomAgent(~seed)])
    g.validate_caches = True
    g.play(decks, mulligans=False, max_turns=30)
    assert g.state.over or g.state.turn >= 30


def test_the_pool_is_every_card(registry: Registry) -> None:
    pool = spells(registry)
    assert "Dauntless Dourbark" in pool and "Cairn Wanderer" in pool
    assert "Forest" not in pool
    assert len(pool) > 300


@pytest.mark.parametrize("seed", range(6))
def test_built_in_decks_in_validated_mode(registry: Registry, seed: int) -> None:
    """The playout benchmark's games (built-in decks, random agents), every kept fact
    checked after every event."""
    decks = sorted(registry.sets["lorwyn"].decks.items())
    (_n0, t0), (_n1, t1) = decks[seed % 2], decks[(seed // 2) % 2]
    g = Game(registry, ["p1", "p2"], seed=seed, agents=[RandomAgent(seed), RandomAgent(~seed)])
    g.validate_caches = True
    g.play([parse_deck(t0, registry), parse_deck(t1, registry)], mulligans=False)
    assert g.state.over
