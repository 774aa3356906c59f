"""Evoke rules a scenario file alone can't express (Lorwyn primer, "Keyword Ability:
Evoke"): cost changes, a change of control, the order of the two enters abilities,
and "without paying its mana cost".  Test-only cards live here."""

from __future__ import annotations

from typing import Any

import pytest

from mtgk.cards.definitions import CardFacts, CardSetInfo, Registry
from mtgk.cards.dsl import CardSet, cant_be_cast, cost_change, spell, target
from mtgk.cards.filters import creature
from mtgk.cards.filters import spell as a_spell
from mtgk.cards.loading import hookimpl, load_registry
from mtgk.log import events as ev
from mtgk.rules.engine import Decision, Game, RulesError
from mtgk.rules.state import encode_state
from tests.conftest import play_scenario

T = CardSet("evoketest", "0.0.1", __file__, facts="no-such-file.json")


def _facts(name: str, cost: str, types: tuple[str, ...], text: str) -> CardFacts:
    return CardFacts(name=name, mana_cost=cost, mana_value=1, types=types, colors=("U",),
                     type_line=" ".join(types), oracle_text=text)


T.card("Test Elemental Discount",
       cost_change(lambda v, s, card: v.chars(card).has_subtype("Elemental")
                   and v.obj(card).controller == v.chars(s).controller, -1),
       facts=_facts("Test Elemental Discount", "{U}", ("Enchantment",),
                    "Elemental spells you cast cost {1} less to cast."))
T.card("Test Creature Tax",
       cost_change(lambda v, s, card: "Creature" in v.chars(card).types, 1),
       facts=_facts("Test Creature Tax", "{U}", ("Enchantment",),
                    "Creature spells cost {1} more to cast."))
T.card("Test Creature Ban",
       cant_be_cast(lambda v, s, card, p: "Creature" in v.chars(card).types,
                    "creature spells can't be cast"),
       facts=_facts("Test Creature Ban", "{U}", ("Enchantment",),
                    "Creature spells can't be cast."))
def _steal_spell(c: Any) -> None:
    """Gain control of target spell."""
    t = c.target(0)
    if t is not None:
        c.game.emit(ev.ControlChanged(obj=t, controller=c.controller))


T.card("Test Spell Thief", spell(_steal_spell, target(a_spell)),
       facts=_facts("Test Spell Thief", "{U}", ("Instant",), "Gain control of target spell."))
T.card("Test Steal", spell(lambda c: c.gain_control(c.target(0)), target(creature)),
       facts=_facts("Test Steal", "{U}", ("Instant",), "Gain control of target creature."))


class Pack:
    __test__ = False

    @hookimpl
    def mtgk_cardsets(self) -> list[CardSetInfo]:
        return [T.info()]


@pytest.fixture(scope="module")
def reg() -> Registry:
    r = load_registry(extra=[("evoketest", Pack())])
    return r


EVOKE = """
name: evoke-with-cost-changes
strict: true
players:
  alice:
    battlefield: [ALICE]
    hand: [Mulldrifter]
    library: [Forest, Forest]
  bob:
    battlefield: [BOB]
actions:
  - {player: alice, cast: Mulldrifter, evoke: true, refused: REFUSED}
  - {resolve: all, answers: [{order: [Mulldrifter, Mulldrifter]}]}
expect:
  - {player: alice, hand_size: HAND}
"""


def _evoke(reg: Registry, alice: str, bob: str = "Plains", refused: bool = False) -> Any:
    text = (EVOKE.replace("ALICE", alice).replace("BOB", bob)
            .replace("REFUSED", "true" if refused else "false")
            .replace("HAND", "1" if refused else "2"))
    if refused:
        text = text.replace("  - {resolve: all, answers: [{order: [Mulldrifter, Mulldrifter]}]}\n",
                            "")
    res = play_scenario(text, reg)
    assert res.passed, res.reason
    return res


def test_cost_reductions_apply_to_the_evoke_cost(reg: Registry) -> None:
    """Mulldrifter's evoke cost {2}{U} costs {1}{U} with one reduction of {1}."""
    _evoke(reg, "Island, Island", refused=True)
    res = _evoke(reg, "Island, Island, Test Elemental Discount")
    s = res.game.state
    assert next(o.zone for o in s.objects.values() if o.card == "Mulldrifter") == "graveyard"


def test_cost_increases_apply_to_the_evoke_cost(reg: Registry) -> None:
    """... and {3}{U} with a creature spell tax of {1}."""
    _evoke(reg, "Island, Island, Island", bob="Test Creature Tax", refused=True)
    _evoke(reg, "Island, Island, Island, Island", bob="Test Creature Tax")


def test_what_stops_casting_a_spell_stops_evoking_it(reg: Registry) -> None:
    """"Effects that prevent you from playing a spell also prevent you from playing the
    spell with evoke"."""
    _evoke(reg, "Island, Island, Island", bob="Test Creature Ban", refused=True)
    res = play_scenario(HAND.replace("bob: {}", "bob: {battlefield: [Test Creature Ban]}"),
                        reg)
    g = res.game
    legal = g.legal_actions(0)
    assert not [a for a in legal if a[0] == "cast"]


def test_sacrificed_if_evoke_was_chosen_whatever_was_paid(reg: Registry) -> None:
    """Two reductions: alice pays only {U}, but she chose the evoke cost, so Mulldrifter
    is sacrificed."""
    res = _evoke(reg, "Island, Test Elemental Discount, Test Elemental Discount")
    s = res.game.state
    assert next(o.zone for o in s.objects.values() if o.card == "Mulldrifter") == "graveyard"
    assert len([e for e in res.log if isinstance(e.event, ev.Tapped)]) == 1


STEAL = """
name: stolen-after-it-entered
strict: true
players:
  alice:
    battlefield: [Island, Island, Island]
    hand: [Mulldrifter]
    library: [Forest, Forest]
  bob:
    battlefield: [Island]
    hand: [Test Steal]
actions:
  - {player: alice, cast: Mulldrifter, evoke: true}
  - {resolve: 1, answers: [{order: [Mulldrifter, Mulldrifter]}]}
  - {player: bob, cast: Test Steal, targets: [Mulldrifter]}
  - {resolve: 1}
  - check: [{card: Mulldrifter, controller: bob}, {stack_size: 2}]
  - {resolve: all}
expect:
  - {card: Mulldrifter, zone: graveyard, owner: alice}
  - {player: alice, hand_size: 2}
"""


def test_a_control_change_after_it_enters_doesn_t_stop_the_sacrifice(reg: Registry) -> None:
    res = play_scenario(STEAL, reg)
    assert res.passed, res.reason


SPELL_STOLEN = """
name: stolen-on-the-stack
strict: true
players:
  alice:
    battlefield: [Island, Island, Island]
    hand: [Mulldrifter]
    library: [Forest, Forest]
  bob:
    battlefield: [Island]
    hand: [Test Spell Thief]
    library: [Forest, Forest]
actions:
  - {player: alice, cast: Mulldrifter, evoke: true}
  - {player: bob, cast: Test Spell Thief, targets: [Mulldrifter]}
  - {resolve: all, answers: [{order: [Mulldrifter, Mulldrifter], player: bob}]}
expect:
  - {card: Mulldrifter, zone: graveyard, owner: alice}
  - {player: bob, hand_size: 2}
  - {player: alice, hand_size: 0}
"""


def test_a_control_change_before_it_enters_doesn_t_stop_the_sacrifice(reg: Registry) -> None:
    """"If a creature spell played with evoke changes controllers before it comes into
    play, it will still be sacrificed": bob takes the evoked Mulldrifter spell; it
    enters under his control, he draws, and he sacrifices it."""
    res = play_scenario(SPELL_STOLEN, reg)
    assert res.passed, res.reason


class Orderer:
    """Orders triggered abilities (reversed or not); passes and takes defaults otherwise."""

    def __init__(self, reverse: bool) -> None:
        self.reverse = reverse

    def decide(self, game: Game, d: Decision) -> Any:
        if d.kind == "order":
            return list(reversed(d.context)) if self.reverse else list(d.context)
        if d.kind == "priority":
            return ["pass"]
        return d.options[0] if d.options else []


CAST = """
name: mulldrifter-evoked-on-the-stack
players:
  alice:
    battlefield: [Island, Island, Island]
    hand: [Mulldrifter]
    library: [Forest, Forest]
  bob: {}
actions:
  - {player: alice, cast: Mulldrifter, evoke: true}
"""


@pytest.mark.parametrize("reverse", [False, True])
def test_its_controller_orders_the_two_enters_abilities(registry: Registry,
                                                        reverse: bool) -> None:
    """The sacrifice ability and Mulldrifter's own: alice puts them on the stack in the
    order she likes; the last one put there resolves first."""
    res = play_scenario(CAST, registry)
    assert res.passed, res.reason
    g = res.game
    g.agents = [Orderer(reverse), Orderer(reverse)]
    g.resolve_top()  # Mulldrifter enters: both abilities trigger
    assert len(g.state.pending) == 2
    g.settle()
    assert len(g.state.stack) == 2
    # (the order she was asked in is the order they triggered in; either may come first)
    sacrifice_on_top = g.ability(g.state.stack[-1]).text.startswith("evoke")
    assert sacrifice_on_top != g.ability(g.state.stack[0]).text.startswith("evoke")
    g.resolve_top()
    s = g.state
    drifter = next(o for o in s.objects.values() if o.card == "Mulldrifter")
    if not sacrifice_on_top:  # draw on top: it resolves first, Mulldrifter still there
        assert (drifter.zone, len(s.players[0].hand)) == ("battlefield", 2)
    else:  # the sacrifice on top
        assert (drifter.zone, len(s.players[0].hand)) == ("graveyard", 0)
    g.settle()
    g.resolve_top()
    assert len(s.players[0].hand) == 2
    assert next(o for o in s.objects.values() if o.card == "Mulldrifter").zone == "graveyard"


HAND = """
name: mulldrifter-in-hand
players:
  alice:
    battlefield: [Island, Island, Island, Island, Island]
    hand: [Mulldrifter]
    library: [Forest, Forest]
  bob: {}
actions:
  - check: [{card: Mulldrifter, zone: hand}]
"""


def test_without_paying_its_mana_cost_evoke_can_t_be_used(registry: Registry) -> None:
    """"If you're playing a spell 'without paying its mana cost,' you can't use its evoke
    ability": the engine refuses the combination and changes nothing."""
    res = play_scenario(HAND, registry)
    assert res.passed, res.reason
    g = res.game
    oid = g.state.players[0].hand[0]
    before, n = encode_state(g.state), len(g.log)
    with pytest.raises(RulesError) as err:
        g._cast(0, oid, [], [], 0, "evoke", free=True)
    assert err.value.rule == "118.9a"
    assert encode_state(g.state) == before and len(g.log) == n
    # cast for free the normal way, it stays
    g.agents = [Orderer(False), Orderer(False)]
    g._cast(0, oid, [], [], 0, "", free=True)
    g.resolve_top()
    g.settle()
    g.resolve_top()
    assert next(o for o in g.state.objects.values() if o.card == "Mulldrifter").zone == \
        "battlefield"
    assert not [e for e in g.log if isinstance(e.event, ev.ManaSpent)]
