"""Triggered abilities come after what triggered them and name it as their cause
(CR 603.2, 603.10a): a leaves-the-battlefield ability is found against the state before
the event but triggers after it.  Main recorded look-back triggers *before* the event,
caused by the event's own cause (the damage, not the death)."""

from __future__ import annotations

import textwrap

import pytest

from mtgk.agents import HeuristicAgent, RandomAgent
from mtgk.cards.decks import builtin_decks, deck_lines, load_deck
from mtgk.cards.definitions import Triggered
from mtgk.cards.loading import load_registry
from mtgk.games.replay import new_header, run_from_header
from mtgk.log import events as ev
from mtgk.scenario.play import run_scenario
from mtgk.scenario.reader import loads_scenarios
from mtgk.tools.debug import explain

REG = load_registry()

MOURNCALLER = """
name: mourncaller-and-stalwart-die-together
strict: true
players:
  alice:
    battlefield: [{card: Kithkin Mourncaller, as: km}, Goldmeadow Stalwart]
    library: [Plains, Plains, Plains]
  bob:
    battlefield: [{card: Grizzly Bears, as: b1}, {card: Grizzly Bears, as: b2}]
actions:
  - {player: alice, attack: {km: bob, Goldmeadow Stalwart: bob}}
  - {player: bob, block: {b1: km, b2: Goldmeadow Stalwart}}
  - {pass_until: {turn: 1, step: postcombat_main},
     answers: [{order: [km, km], player: alice}, {may: yes, player: alice},
               {may: yes, player: alice}]}
expect:
  - {player: alice, hand_size: 2}
"""


def test_dies_triggers_follow_the_deaths_they_name_as_cause() -> None:
    [sc] = loads_scenarios(textwrap.dedent(MOURNCALLER))
    res = run_scenario(sc, REG)
    assert res.passed, res.reason
    log = res.log
    triggers = [env for env in log if isinstance(env.event, ev.AbilityTriggered)]
    assert len(triggers) == 2
    for t in triggers:
        death = log[t.cause]
        assert isinstance(death.event, ev.ZoneChanged) and death.event.to_zone == "graveyard"
        assert death.seq < t.seq
        chain = _chain(log, t.seq)
        assert chain[:3] == ["AbilityTriggered", "ZoneChanged", "DamageDealt"], chain
        assert explain(log, t.seq, REG) is not None


def _chain(log: list[ev.Envelope], seq: int) -> list[str]:
    """The event types from event ``seq`` back along its causes."""
    out = []
    while seq >= 0:
        out.append(log[seq].event.TAG)
        seq = log[seq].cause
    return out


def _games() -> list[tuple[int, str, list[list[int]]]]:
    return [(n, v, t) for n, v, t in ((2, "", []), (3, "", []), (4, "", []),
                                      (4, "two_headed_giant", [[0, 2], [1, 3]]))]


@pytest.mark.parametrize("seed", range(6))
def test_every_trigger_of_random_games_is_caused_by_an_event_it_triggers_on(seed: int) -> None:
    """Every card's triggered ability in random games (the built-in decks, 2-4 players and
    Two-Headed Giant): its cause is an earlier event of a type it triggers on."""
    decks = [load_deck(k, REG) for k in sorted(builtin_decks(REG)) if "/" not in k]
    n, variant, teams = _games()[seed % 4]
    lines = [deck_lines(decks[(seed + i) % len(decks)]) for i in range(n)]
    agent = RandomAgent if seed % 2 else HeuristicAgent
    h = new_header(REG, [f"p{i}" for i in range(n)], lines, seed, variant=variant, teams=teams)
    game = run_from_header(REG, h, [agent(seed * 10 + i) for i in range(n)])
    checked = 0
    for env in game.log:
        e = env.event
        if not isinstance(e, ev.AbilityTriggered):
            continue
        name, _, idx = e.ability.rpartition("#")
        d = REG.cards.get(name)
        if d is None or not idx.isdigit() or not isinstance(d.abilities[int(idx)], Triggered):
            continue  # a kernel's or plugin's ability, a delayed trigger
        t = d.abilities[int(idx)]
        if not t.on:
            continue  # a reflexive ability ("when you do"): caused by the one that did it
        cause = game.log[env.cause]
        assert cause.seq < env.seq
        assert cause.event.TAG in t.on, (env.seq, e.ability, cause.event.TAG, t.on)
        checked += 1
    assert checked or seed % 4 == 0  # (most games have some)

