"""Characteristics computed again for the permanents an event touched, on boards with
static abilities (issue 15, "characteristics recomputed incrementally"): a lord or a
characteristic-defining ability on the battlefield no longer makes every event that
brings, takes or changes a permanent compute every permanent's characteristics
(``mtgk.rules.incremental``).  Validated mode compares the kept characteristics with a
full computation after every event; here it runs throughout, and the full computations
are counted (``Game.full_computations``: the times every permanent's characteristics
were computed; on the code before, the same counts taken by wrapping
``compute_with_reads`` were 8, 3 and 27 where these tests allow 1, 1 and 20)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mtgk.agents import RandomAgent
from mtgk.cards.decks import parse_deck
from mtgk.cards.definitions import Registry
from mtgk.cards.dsl import lord, static
from mtgk.cards.filters import creature, kind
from mtgk.log import events as ev
from mtgk.rules.chars import chars_key
from mtgk.rules.engine import Game
from mtgk.rules.incremental import static_allows
from mtgk.rules.layers import compute
from tests.conftest import table


def enter(g: Game, oid: int) -> int:
    """Put card ``oid`` onto the battlefield from where it is; its new id."""
    new = g.new_id()
    g.emit(ev.ZoneChanged(obj=oid, new_obj=new, from_zone=g.state.objects[oid].zone,
                          to_zone="battlefield"))
    return new


def pt(g: Game, oid: int) -> tuple[int | None, int | None]:
    c = g.chars(oid)
    return c.power, c.toughness


def same_as_full(g: Game) -> None:
    fresh = compute(g.state, g.reg)
    assert {o: chars_key(g.chars(o)) for o in g.state.battlefield} == \
        {o: chars_key(c) for o, c in fresh.items()}


def test_creatures_entering_a_board_with_a_lord_are_computed_alone(
        registry: Registry) -> None:
    """Wizened Cenn ("other Kithkin creatures you control get +1/+1") on the battlefield:
    a Kithkin entering, a token, counters, an effect until end of turn, a creature dying
    -- none computes every permanent again (on the old code each one did); the lord
    leaving does."""
    g = table(registry, {0: {"hand": ["Goldmeadow Harrier", "Gray Ogre"],
                             "battlefield": ["Wizened Cenn", "Plains"]},
                         1: {"battlefield": ["Goldmeadow Harrier"]}})
    cenn, theirs = g.state.battlefield[0], g.state.battlefield[2]
    g.view()
    assert g.full_computations == 1 and pt(g, theirs) == (1, 1)
    harrier = enter(g, g.state.players[0].hand[0])
    assert pt(g, harrier) == (2, 2)  # a Kithkin you control: +1/+1
    ogre = enter(g, g.state.players[0].hand[0])
    assert pt(g, ogre) == (2, 2)
    token = g.new_id()
    g.emit(ev.TokenCreated(obj=token, card="Kithkin Soldier", owner=0, controller=0))
    assert pt(g, token) == (2, 2)
    g.emit(ev.CounterPlaced(obj=harrier, kind="+1/+1", n=1))
    assert pt(g, harrier) == (3, 3)
    g.emit(ev.EffectCreated(effect=g.new_id(), kind="pt", source=cenn, controller=0,
                            objs=(ogre,), params=[2, 0]))
    assert pt(g, ogre) == (4, 2)
    g.emit(ev.EffectsEnded(effects=tuple(x.id for x in g.state.effects)))
    assert pt(g, ogre) == (2, 2)
    g.emit(ev.ZoneChanged(obj=token, new_obj=g.new_id(), from_zone="battlefield",
                          to_zone="graveyard"))
    same_as_full(g)
    assert g.full_computations == 1  # all of it object by object
    g.emit(ev.ZoneChanged(obj=cenn, new_obj=g.new_id(), from_zone="battlefield",
                          to_zone="graveyard"))
    assert pt(g, harrier) == (2, 2)  # the lord is gone: computed in full
    assert g.full_computations == 2
    same_as_full(g)


def test_a_characteristic_defining_ability_counts_what_enters(
        registry: Registry) -> None:
    """Dauntless Dourbark (P/T: Forests and Treefolk you control; trample as long as you
    control another Treefolk) depends on the other permanents: it is computed again with
    the one that enters, the rest are not."""
    g = table(registry, {0: {"hand": ["Forest", "Cloudcrown Oak"],
                             "battlefield": ["Dauntless Dourbark", "Forest"]}})
    bark = g.state.battlefield[0]
    assert pt(g, bark) == (2, 2) and "trample" not in g.chars(bark).abilities
    enter(g, g.state.players[0].hand[0])
    assert pt(g, bark) == (3, 3)
    oak = enter(g, g.state.players[0].hand[0])
    assert pt(g, bark) == (4, 4) and "trample" in g.chars(bark).abilities
    assert g.full_computations == 1
    g.emit(ev.ZoneChanged(obj=oak, new_obj=g.new_id(), from_zone="battlefield",
                          to_zone="graveyard"))
    assert pt(g, bark) == (3, 3) and "trample" not in g.chars(bark).abilities
    assert g.full_computations == 1
    same_as_full(g)


def test_type_changing_effects_and_unknown_statics_compute_everything(
        registry: Registry) -> None:
    """An effect of layer 4 decides whether a lord of layer 7 applies: with one in play
    (or a static ability that doesn't say what it affects), every permanent is computed
    again."""
    g = table(registry, {0: {"hand": ["Gray Ogre"],
                             "battlefield": ["Wizened Cenn", "Goldmeadow Harrier"]}})
    cenn, harrier = g.state.battlefield
    g.view()
    g.emit(ev.EffectCreated(effect=g.new_id(), kind="set_creature_types", source=cenn,
                            controller=0, objs=(harrier,), params=["Ogre"]))
    assert pt(g, harrier) == (1, 1)  # no longer a Kithkin
    assert g.full_computations == 2
    ogre = enter(g, g.state.players[0].hand[0])
    assert pt(g, ogre) == (2, 2)
    assert g.full_computations == 3  # (the type-changing effect is still there)
    assert not static_allows(static(lambda v, src: [], "hand-written", ("7c",), frozenset()))
    assert not static_allows(lord(creature.where(lambda v, r, y, s: True, reads=frozenset()),
                                  1, 1))
    assert static_allows(lord(kind("Giant").creature.other().you_control(), 1, 1))


def lorwyn_decks(registry: Registry) -> list[list[str]]:
    return [parse_deck(text, registry)
            for _name, text in sorted(registry.sets["lorwyn"].decks.items())]


def test_a_giants_game_computes_the_layers_far_fewer_times(
        registry: Registry) -> None:
    """A game of the Giants deck: the old code computed every permanent's characteristics
    after nearly every event that changed a permanent; now only as a permanent with a
    static ability comes or goes (or an effect the layers can't apply to some objects
    alone is made)."""
    giants = lorwyn_decks(registry)[0]
    g = Game(registry, ["p1", "p2"], seed=100003, agents=[RandomAgent(0), RandomAgent(1)])
    g.play([list(giants), list(giants)], mulligans=False, max_turns=200)
    changing = sum(1 for env in g.log if env.event.changes() is None)
    objs = g.state.objects

    def has_statics(e: Any) -> bool:
        o = objs.get(e.new_obj) or objs.get(e.obj)
        d = registry.cards.get(o.card) if o is not None else None
        return d is None or bool(d.statics)
    with_statics = sum(
        1 for env in g.log
        if isinstance(env.event, ev.ZoneChanged | ev.RemovedFromGame)
        and "battlefield" in (env.event.from_zone, getattr(env.event, "to_zone", ""))
        and has_statics(env.event))
    assert g.full_computations <= with_statics + 5 and g.full_computations * 4 < changing, (g.full_computations, changing)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), pair=st.tuples(st.integers(0, 1), st.integers(0, 1)))
def test_random_lorwyn_games_keep_their_characteristics_right(
        registry: Registry, seed: int, pair: tuple[int, int]) -> None:
    """Random games of the built-in Lorwyn decks in validated mode: the characteristics
    kept object by object equal a full computation after every event."""
    pool = lorwyn_decks(registry)
    g = Game(registry, ["p1", "p2"], seed=seed,
             agents=[RandomAgent(seed), RandomAgent(seed + 1)])
    g.validate_caches = True
    g.play([list(pool[pair[0]]), list(pool[pair[1]])], mulligans=False, max_turns=24)
    assert g.state.over or g.state.turn >= 24


def test_lords_of_one_card_and_controller_are_asked_together(
        registry: Registry, monkeypatch: Any) -> None:
    """Issue 29, lords boards: the Wizened Cenns of one player are asked once for all of
    them (``Static.together``: each permanent's verdict once, the P/T changes added up),
    not once per lord -- and the characteristics are those of asking each lord alone
    (what validated mode's full computation does), with resolved P/T effects, counters
    and a lord of another card (Goldmeadow Harrier is a Kithkin; Goblin lords grant, and
    are asked alone)."""
    import mtgk.cards.dsl as dsl

    g = table(registry, {0: {"battlefield": ["Wizened Cenn"] * 6 + ["Goldmeadow Harrier",
                                                                   "Gray Ogre", "Plains"]},
                         1: {"battlefield": ["Wizened Cenn"] * 4 + ["Goblin Chieftain",
                                                                   "Goldmeadow Harrier"]}})
    bf = g.state.battlefield
    cenns = [oid for oid in bf if g.state.objects[oid].card == "Wizened Cenn"]
    g.emit(ev.CounterPlaced(obj=cenns[0], kind="+1/+1", n=2))
    g.emit(ev.EffectCreated(effect=g.new_id(), kind="pt", source=cenns[1], controller=0,
                            objs=(cenns[1], bf[6]), params=[3, 0]))
    asked: list[int] = []
    real = dsl.matching

    def counting(*args: Any, **kw: Any) -> list[int]:
        asked.append(1)
        return real(*args, **kw)
    monkeypatch.setattr(dsl, "matching", counting)
    together = compute(g.state, g.reg)
    assert len(asked) == 3  # (one look for each player's Cenns, one for the Chieftain)
    alone = compute(g.state, g.reg, check_layers=True)  # (each lord asked alone)
    assert len(asked) > 2 + 10
    assert {o: chars_key(c) for o, c in together.items()} == \
        {o: chars_key(c) for o, c in alone.items()}
    assert (together[cenns[0]].power, together[cenns[1]].power) == (2 + 5 + 2, 2 + 5 + 3)
    assert (together[bf[6]].power, together[bf[7]].power) == (1 + 6 + 3, 2)
    their_harrier = bf[-1]
    assert (together[their_harrier].power, together[cenns[-1]].power) == (1 + 4, 2 + 3)
    st = registry.cards["Wizened Cenn"].statics[0][1]
    assert st.together is not None and st.layers == ("7c",)
    assert registry.cards["Goblin Chieftain"].statics[0][1].together is None  # (it grants)

