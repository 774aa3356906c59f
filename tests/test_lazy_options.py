"""The options of activated abilities are made as they are asked for (issue 15).

``Game.legal_actions`` lists, after pass, the plays and the casts, the options of every
activated ability a player may activate: each source x each choice of targets x each X.
With activated abilities to offer it returns an :class:`~mtgk.rules.options.Options`,
a sequence that makes option k when it is asked for (a random agent picking one of 481
options pays for one), and that reads, compares and prints as the list the eager
enumeration makes (``_legal_actions(..., share=False)``, what validated mode compares it
with).  These tests check that the two agree on varied boards (a property test), that
the sequence behaves as that list does for every way a caller reads it, and that one
decision on a big board of Goldmeadow Harriers makes one option, not 480.
"""

from __future__ import annotations

import gc
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from mtgk.agents import RandomAgent
from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.log.answers import Activate, action_from
from mtgk.rules.actions import MAX_TARGET_COMBOS, Activations
from mtgk.rules.engine import Game, GameOver
from mtgk.rules.options import Options

# cards with activated abilities of every shape: one target, two targets (Garruk,
# Shapesharer), "up to one" (Living Lectern), {X} (Mirror Entity), loyalty and -X
# (Chandra), "any player may" (Oona's Prowler), from the graveyard (Summon the School),
# targets beyond permanents (players, cards in graveyards, creature or player), a
# filter that looks at its source (``other()``), sorcery speed, tapping and not
ABILITY_CARDS = [
    "Goldmeadow Harrier", "Amoeboid Changeling", "Boggart Forager", "Chandra Nalaar",
    "Deathrender", "Embereth Veteran", "Flamekin Spitfire", "Garruk Wildspeaker",
    "Horde of Notions", "Kithkin Healer", "Living Lectern", "Mad Auntie", "Mirror Entity",
    "Oona's Prowler", "Shapesharer", "Summon the School", "Thousand-Year Elixir",
    "Tideshaper Mystic", "Wellgabber Apothecary", "Immaculate Magistrate", "Jace Beleren",
]
OTHER_CARDS = ["Plains", "Island", "Swamp", "Mountain", "Forest", "Gray Ogre",
               "Flamekin Harbinger", "Shock", "Tarfire"]


def harrier_board(registry: Registry, n: int) -> Game:
    """``n`` Goldmeadow Harriers and ``n`` Plains a side, untapped and able to activate
    (the board of ``bench/harriers.py``)."""
    g = Game(registry, ["p1", "p2"], seed=1, agents=[RandomAgent(1), RandomAgent(2)])
    with g.setting_up():
        for p in (0, 1):
            for name in ["Goldmeadow Harrier"] * n + ["Plains"] * n:
                g.emit(ev.ObjectCreated(obj=g.new_id(), card=name, owner=p,
                                        zone="battlefield"))
            for _ in range(5):
                g.emit(ev.ObjectCreated(obj=g.new_id(), card="Plains", owner=p,
                                        zone="library"))
    return g


def activate_lists() -> int:
    """How many options to activate an ability are in memory."""
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is Activate)


def test_one_decision_on_a_board_of_harriers_makes_the_option_picked(
        registry: Registry) -> None:
    """20 untapped Harriers with 20 Plains: 480 options to activate (each Harrier, each
    of the first 24 creatures).  A random pick makes one of them; the eager enumeration
    made all 480 at every decision."""
    g = harrier_board(registry, 20)
    before = activate_lists()
    opts = g.legal_actions(0)
    assert len(opts) == 1 + 20 * MAX_TARGET_COMBOS
    k = random.Random(5).randrange(len(opts))  # (what random.choice does)
    picked = opts[k]
    assert picked[0] == "activate"
    assert activate_lists() - before == 1
    assert g.legal_actions(0)[k] is picked  # (kept: made once)
    assert activate_lists() - before == 1
    eager = g._legal_actions(0, False, share=False)
    assert opts == eager and list(opts) == eager


def test_a_random_agent_deciding_on_a_board_of_harriers_makes_a_few_options(
        registry: Registry) -> None:
    """The engine asks the agent, checks the answer is one of the options (by identity,
    without making the others) and records it: one option per decision is made."""
    g = harrier_board(registry, 20)
    asked: dict[int, tuple[Options, int]] = {}  # the options asked with, and how often

    class Counting(RandomAgent):
        def decide(self, game: Game, d: Any) -> Any:
            if d.kind == "priority" and isinstance(d.options, Options):
                n = asked.get(id(d.options), (d.options, 0))[1]
                asked[id(d.options)] = (d.options, n + 1)
            return super().decide(game, d)

    g.agents = [Counting(3), Counting(4)]
    try:
        g.run(0, max_turns=2)
    except GameOver:
        pass
    assert len(asked) > 20
    for opts, times in asked.values():
        assert len(opts) > 1 and len(opts.built) <= times


def family_options(oid: int, idx: int, xs: list[int], single: list[int] | None,
                   combos: list[list[int]] | None) -> list[Any]:
    """What :class:`Activations` stands for, listed the way the eager enumeration does."""
    targets = [[c] for c in single[:MAX_TARGET_COMBOS]] if single is not None \
        else combos or []
    return [action_from(["activate", oid, idx, t, x]) for t in targets for x in xs]


families = st.lists(st.tuples(
    st.integers(1, 99), st.integers(1, 3), st.lists(st.integers(0, 4), min_size=0, max_size=3),
    st.one_of(st.none(), st.lists(st.integers(-2, 60), max_size=30)),
    st.lists(st.lists(st.integers(-2, 60), max_size=2), max_size=5)), max_size=6)


@settings(max_examples=150, deadline=None)
@given(head=st.lists(st.lists(st.integers(0, 9), max_size=2), max_size=4), fams=families,
       data=st.data())
def test_the_sequence_reads_as_the_list_it_stands_for(head: list[Any], fams: list[Any],
                                                      data: st.DataObject) -> None:
    """Length, indexing (negative too), slices, iteration, ``in``, ``index``,
    comparison and printing: as the list of the options it stands for."""
    made = [Activations(oid, idx, xs, single, None if single is not None else combos)
            for oid, idx, xs, single, combos in fams]
    opts = Options([["pass"], *head], [f for f in made if f.count])
    want: list[Any] = [["pass"], *head]
    for oid, idx, xs, single, combos in fams:
        want.extend(family_options(oid, idx, xs, single, combos))
    assert len(opts) == len(want) and bool(opts) == bool(want)
    assert isinstance(opts, Sequence) and not isinstance(want, Options)
    assert not isinstance((), Options) and not isinstance("", Options)
    for k in data.draw(st.lists(st.integers(-len(want), len(want) - 1), max_size=8)):
        assert opts[k] == want[k]
        assert opts[k] is opts[k] and opts.listed(opts[k])
        assert not opts.listed(list(opts[k]))  # (an equal copy is not one of them)
    a, b, c = (data.draw(st.one_of(st.none(), st.integers(-40, 40))) for _ in range(3))
    if c != 0:
        assert opts[a:b:c] == want[a:b:c]
    assert list(opts) == want and opts == want and want == opts and not opts != want
    assert repr(opts) == repr(want)
    for o in want[:3]:
        assert o in opts and opts.index(o) == want.index(o)
    assert action_from(["activate", 0, 0, [], 9]) not in opts
    assert opts != [*want, ["pass"]] and opts != tuple(want)
    with pytest.raises(IndexError):
        opts[len(want)]
    with pytest.raises(IndexError):
        opts[-len(want) - 1]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 100_000),
       cards=st.lists(st.tuples(st.sampled_from(ABILITY_CARDS + OTHER_CARDS),
                                st.integers(0, 1),
                                st.sampled_from(["battlefield"] * 4 + ["hand", "graveyard"]),
                                st.booleans()), min_size=1, max_size=24))
def test_lazy_options_are_the_eager_ones_on_varied_boards(
        registry: Registry, seed: int, cards: list[tuple[str, int, str, bool]]) -> None:
    """On boards of cards with activated abilities of every shape (some tapped, some in
    a hand or a graveyard): the options made as asked for are the eager enumeration's,
    for each player, at sorcery speed and not; then a few turns of random play in
    validated mode, which compares the two at every decision."""
    g = Game(registry, ["p1", "p2"], seed=seed,
             agents=[RandomAgent(seed), RandomAgent(seed + 1)])
    with g.setting_up():
        for name, owner, zone, tapped in cards:
            oid = g.new_id()
            g.emit(ev.ObjectCreated(obj=oid, card=name, owner=owner, zone=zone))
            if zone == "battlefield" and tapped:
                g.emit(ev.Tapped(obj=oid))
            if zone == "battlefield" and name in ("Chandra Nalaar", "Jace Beleren",
                                                  "Garruk Wildspeaker"):
                g.emit(ev.CounterPlaced(obj=oid, kind="loyalty", n=3))
        for p in (0, 1):
            if seed % 3:
                g.emit(ev.ManaAdded(player=p, mana="WUBRG"[seed % 5] * (seed % 3)))
            for _ in range(8):
                g.emit(ev.ObjectCreated(obj=g.new_id(), card="Plains", owner=p,
                                        zone="library"))
    for p in (0, 1):
        for sorcery_ok in (True, False):
            lazy = g._legal_actions(p, sorcery_ok)
            assert list(lazy) == g._legal_actions(p, sorcery_ok, share=False)
            event(f"families: {len(lazy.families) if isinstance(lazy, Options) else 0}")
    g.validate_caches = True
    g.max_events = len(g.log) + 3000  # (random play on such a board may go on and on)
    try:
        g.run(0, max_turns=3)
    except GameOver:
        pass


@pytest.mark.parametrize("zone", ["battlefield", "graveyard"])
def test_an_ability_that_works_only_from_the_graveyard_is_offered_only_there(
        registry: Registry, zone: str) -> None:
    """Summon the School's ability works from its owner's graveyard (``Activated.zones``).
    Put on the battlefield (a scenario's setup may put any card anywhere) it was offered
    there, and the engine, taking a listed action as legal, failed performing it (CR
    113.6; found by the property test above)."""
    g = Game(registry, ["p1", "p2"], seed=0, agents=[RandomAgent(1), RandomAgent(2)])
    with g.setting_up():
        school = g.new_id()
        g.emit(ev.ObjectCreated(obj=school, card="Summon the School", owner=0, zone=zone))
        for _ in range(4):  # (changelings: four Merfolk to tap for its cost)
            g.emit(ev.ObjectCreated(obj=g.new_id(), card="Mirror Entity", owner=0,
                                    zone="battlefield"))
    offered = [a for a in g.legal_actions(0) if a[0] == "activate" and a[1] == school]
    assert offered == ([action_from(["activate", school, 1, [], 0])] if zone == "graveyard" else [])
    for action in offered:
        g.check_action(0, action)  # (legal as listed)
