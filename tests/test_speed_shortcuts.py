"""The shortcuts the engine takes for speed (issue 15, "do work once") change no game.

Each shortcut answers what a full computation would: a player who can do nothing at
instant speed passes without an enumeration; the same card twice in a hand is
enumerated once; the characteristics of a board without static abilities, CDAs or
effects are updated object by object, and the facts about its permanents carried over;
the permanents a target filter allows are kept across taps; the mana sources less the
one being tapped come from one list.  Validated mode (``Game.validate_caches``) checks
every one of them against the full computation after every event: random games run so
here (a property test), and a shortcut forced to be wrong is caught.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtgk import kind
from mtgk.agents import RandomAgent
from mtgk.cards.decks import parse_deck
from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.log.answers import PASS
from mtgk.rules.chars import chars_key
from mtgk.rules.engine import Game
from mtgk.rules.kept import StaleCache
from mtgk.rules.layers import compute
from tests.conftest import table

OGRES = ["Mountain"] * 17 + ["Gray Ogre"] * 23
HARRIERS = ["Plains"] * 17 + ["Goldmeadow Harrier"] * 23


def decks(registry: Registry) -> list[list[str]]:
    """The benchmark decks: ogres, the built-in Lorwyn decks, a deck of Harriers."""
    built_in = [parse_deck(text, registry)
                for _name, text in sorted(registry.sets["lorwyn"].decks.items())]
    return [OGRES, HARRIERS, *built_in]




@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), pair=st.tuples(st.integers(0, 3), st.integers(0, 3)))
def test_random_games_with_every_kept_fact_checked(registry: Registry, seed: int,
                                                   pair: tuple[int, int]) -> None:
    """Random games of the benchmark decks in validated mode: every shortcut is compared
    with the full computation after every event (a difference raises StaleCache)."""
    pool = decks(registry)
    g = Game(registry, ["p1", "p2"], seed=seed,
             agents=[RandomAgent(seed), RandomAgent(seed + 1)])
    g.validate_caches = True
    g.play([list(pool[pair[0]]), list(pool[pair[1]])], mulligans=False, max_turns=16)
    assert g.state.over or g.state.turn >= 16


def test_the_same_seed_plays_the_same_game_with_and_without_validation(
        registry: Registry) -> None:
    """Validated mode recomputes everything; the games it plays are the fast path's."""
    logs = []
    for validate in (False, True):
        g = Game(registry, ["p1", "p2"], seed=3, agents=[RandomAgent(3), RandomAgent(4)])
        g.validate_caches = validate
        g.play([list(HARRIERS), list(OGRES)], mulligans=False, max_turns=12)
        logs.append([env.event for env in g.log])
    assert logs[0] == logs[1]


def test_nothing_to_do_at_instant_speed_is_a_pass_and_is_checked(registry: Registry) -> None:
    g = table(registry, {0: {"hand": ["Gray Ogre", "Mountain"],
                             "battlefield": ["Mountain"] * 3}}, step="upkeep")
    assert g.legal_actions(0) == [PASS]
    assert g._idle.get(0) == g._idle_version  # (the shortcut was taken, and kept)
    # a card that may be cast at instant speed arrives: the test is made again
    g.emit(ev.ObjectCreated(obj=g.new_id(), card="Neck Snap", owner=0, zone="hand"))
    assert g._idle.get(0) != g._idle_version
    # forced to be wrong, the shortcut is caught by validated mode (Pestermite: flash)
    g2 = table(registry, {0: {"hand": ["Pestermite"], "battlefield": ["Island"] * 3}},
               step="upkeep")
    assert len(g2.legal_actions(0)) > 1
    g2._idle[0] = g2._idle_version
    with pytest.raises(StaleCache, match="nothing to do at instant speed"):
        g2.legal_actions(0)


def test_the_same_card_twice_in_hand_is_enumerated_once(registry: Registry) -> None:
    g = table(registry, {0: {"hand": ["Gray Ogre"] * 3 + ["Mountain"],
                             "battlefield": ["Mountain"] * 3}})
    calls: list[int] = []
    # the enumerations are counted by replacing a method of this one game, which a
    # compiled Game does not allow: there, only the answers are compared
    counted = not kind.compiled_modules()
    if counted:
        real = g._cast_options

        def counting(*a: Any, **k: Any) -> Any:
            calls.append(a[1])
            return real(*a, **k)

        g._cast_options = counting  # type: ignore[method-assign]
    shared = g._legal_actions(0, True)
    assert len(calls) == (1 if counted else 0)
    assert shared == g._legal_actions(0, True, share=False)
    assert len(calls) == (4 if counted else 0)
    casts = [a for a in shared if a[0] == "cast"]
    assert [a[1] for a in casts] == g.state.players[0].hand[:3]


def test_a_plain_board_keeps_its_characteristics_object_by_object(registry: Registry
                                                                 ) -> None:
    g = table(registry, {0: {"hand": ["Mountain", "Wizened Cenn"],
                             "battlefield": ["Gray Ogre", "Plains", "Plains"]}})
    g.view()
    assert g._chars_plain
    land = g.state.players[0].hand[0]
    g.perform(0, ["play", land])
    kept = g._chars
    assert kept is not None and g._chars_plain  # updated, not recomputed
    fresh = compute(g.state, registry)
    assert {o: chars_key(kept[o]) for o in g.state.battlefield} == \
        {o: chars_key(c) for o, c in fresh.items()}
    # a lord (a static ability) enters: from then on the layers are computed in full
    cenn = g.state.players[0].hand[0]
    g.emit(ev.ZoneChanged(obj=cenn, new_obj=g.new_id(), from_zone="hand",
                          to_zone="battlefield"))
    assert g._chars is None
    g.view()
    assert not g._chars_plain


def test_target_candidates_are_kept_across_taps(registry: Registry) -> None:
    g = table(registry, {0: {"battlefield": ["Goldmeadow Harrier", "Plains"]},
                         1: {"battlefield": ["Gray Ogre"]}})
    harrier, plains = g.state.battlefield[0], g.state.battlefield[1]
    before = g.legal_actions(0)
    assert [list(a[3]) for a in before if a[0] == "activate"] == \
        [[harrier], [g.state.battlefield[2]]]
    version = g._chars_version
    g.emit(ev.Tapped(obj=plains))
    assert g._chars_version == version  # the kept targets survive the tap ...
    assert not [a for a in g.legal_actions(0) if a[0] == "activate"]  # ... no mana now
    g.emit(ev.Untapped(obj=plains))
    assert g.legal_actions(0) == before


def test_mana_sources_less_one_are_the_full_list_less_it(registry: Registry) -> None:
    g = table(registry, {0: {"battlefield": ["Plains", "Goldmeadow Harrier", "Plains"]}})
    full = g.mana_sources(0)
    assert [oid for oid, _c in full] == [g.state.battlefield[0], g.state.battlefield[2]]
    for oid in g.state.battlefield:
        assert g.mana_sources(0, exclude=oid) == [s for s in full if s[0] != oid]
        assert g.mana_sources(0, exclude=oid, spend=("ability", oid)) == \
            g._mana_sources(0, oid, ("ability", oid))


def test_skip_trivial_playouts_ask_only_real_choices(registry: Registry) -> None:
    """``mtgk bench playouts --skip-trivial``: a player who may only pass passes unasked
    (as managym's ``skip_trivial``), so far fewer decisions are counted; the games are
    still whole games, their logs verified by the same engine."""
    from mtgk.tools.bench import playouts
    from tests.conftest import run_mtgk

    plain = playouts(registry, OGRES, 3, seed=2)
    skip = playouts(registry, OGRES, 3, seed=2, skip_trivial=True)
    assert 0 < skip.decisions < plain.decisions / 3
    assert skip.events > 3 * 100
    code, out, err = run_mtgk("bench", "playouts", "--games", "2", "--seed", "2",
                              "--skip-trivial", "--json")
    assert code == 0, err
    assert json.loads(out)["decisions"] == playouts(registry, OGRES, 2, seed=2,
                                                    skip_trivial=True).decisions
