"""Entering as a copy (CR 707.5, 614.1c; issue 22) and copies read as what they copy
(issue 23's copy audit): a permanent that enters as a copy *enters* as it -- the copied
card's "enters with" and "as ~ enters" apply and its "when ~ enters" abilities trigger --
and an effect that copies a permanent copies its copiable values, not its printed card."""

from __future__ import annotations

from typing import Any

import pytest

from mtgk.cards.definitions import CardFacts, CardSetInfo, Registry
from mtgk.cards.dsl import CardSet, spell, target
from mtgk.cards.filters import creature
from mtgk.cards.loading import hookimpl, load_registry
from mtgk.plugins.enters import enter_as_copy
from tests.conftest import play_scenario

C = CardSet("copies", "0.0.1", __file__, facts="no-such-file.json")


def facts(name: str, cost: str, types: tuple[str, ...], mv: int,
          pt: tuple[int, int] | None = None, text: str = "",
          subtypes: tuple[str, ...] = ()) -> CardFacts:
    return CardFacts(name=name, mana_cost=cost, mana_value=mv, types=types,
                     subtypes=subtypes, type_line=" ".join(types), oracle_text=text,
                     power=None if pt is None else str(pt[0]),
                     toughness=None if pt is None else str(pt[1]))


# "You may have Test Clone enter the battlefield as a copy of any creature on the battlefield."
C.card("Test Clone", as_enters=enter_as_copy(creature),
       facts=facts("Test Clone", "{U}", ("Creature",), 1, (0, 0),
                   "You may have Test Clone enter the battlefield as a copy of any creature "
                   "on the battlefield.", ("Shapeshifter",)))
# "Counter Hulk enters the battlefield with two +1/+1 counters on it."
C.card("Counter Hulk", enters_with_counters={"+1/+1": 2},
       facts=facts("Counter Hulk", "{2}{G}", ("Creature",), 3, (1, 1),
                   "Counter Hulk enters the battlefield with two +1/+1 counters on it."))
# "Return target creature you control to its owner's hand."
C.card("Test Recall", spell(lambda c: c.bounce(c.target(0)), target(creature.you_control())),
       facts=facts("Test Recall", "{U}", ("Instant",), 1, text="Return target creature you "
                   "control to its owner's hand."))


class CopiesPack:
    __test__ = False

    @hookimpl
    def mtgk_cardsets(self) -> list[CardSetInfo]:
        return [C.info()]


@pytest.fixture(scope="module")
def reg() -> Registry:
    out = load_registry(extra=[("copies", CopiesPack())])
    assert "copies" in out.sets, out.failures
    return out


def run(reg: Registry, text: str) -> Any:
    res = play_scenario(text, reg)
    assert res.passed, res.reason
    return res


def test_a_clone_enters_as_a_copy_of_the_chosen_creature(reg: Registry) -> None:
    run(reg, """
        name: clone a bears
        players:
          alice: {battlefield: [Island], hand: [{card: Test Clone, as: cl}]}
          bob: {battlefield: [{card: Grizzly Bears, as: gb}]}
        turn: {number: 3, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: cl}
          - {resolve: all, answers: [{choose: gb}]}
        expect:
          - {card: cl, zone: battlefield, power: 2, toughness: 2, controller: alice}
          - {card: gb, zone: battlefield}
    """)


def test_declining_it_enters_as_itself_and_dies(reg: Registry) -> None:
    run(reg, """
        name: no copy
        players:
          alice: {battlefield: [Island], hand: [{card: Test Clone, as: cl}]}
          bob: {battlefield: [Grizzly Bears]}
        turn: {number: 3, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: cl}
          - {resolve: all, answers: [{choose: []}]}
        expect:
          - {card: cl, zone: graveyard}
    """)


def test_the_copied_cards_enters_trigger_triggers(reg: Registry) -> None:
    """Mulldrifter: "When Mulldrifter enters the battlefield, draw two cards." """
    run(reg, """
        name: clone a mulldrifter
        players:
          alice: {battlefield: [Island], hand: [{card: Test Clone, as: cl}],
                  library: [Forest, Forest, Forest]}
          bob: {battlefield: [{card: Mulldrifter, as: md}]}
        turn: {number: 3, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: cl}
          - {resolve: all, answers: [{choose: md}]}
        expect:
          - {card: cl, zone: battlefield, power: 2, toughness: 2}
          - {player: alice, hand_size: 2}
    """)


def test_the_copied_cards_enters_with_counters_apply(reg: Registry) -> None:
    run(reg, """
        name: clone a hulk
        players:
          alice: {battlefield: [Island], hand: [{card: Test Clone, as: cl}]}
          bob: {battlefield: [{card: Counter Hulk, as: hulk}]}
        turn: {number: 3, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: cl}
          - {resolve: all, answers: [{choose: hulk}]}
        expect:
          - {card: cl, zone: battlefield, power: 3, toughness: 3, counters: {+1/+1: 2}}
    """)


def test_a_copy_of_a_copy_copies_what_that_copies(reg: Registry) -> None:
    run(reg, """
        name: clone a clone
        players:
          alice: {battlefield: [Island, Island], hand: [{card: Test Clone, as: c1}, {card: Test Clone, as: c2}]}
          bob: {battlefield: [{card: Grizzly Bears, as: gb}]}
        turn: {number: 3, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: c1}
          - {resolve: all, answers: [{choose: gb}]}
          - {player: alice, cast: c2}
          - {resolve: all, answers: [{choose: c1}]}
        expect:
          - {card: c2, zone: battlefield, power: 2, toughness: 2}
    """)


def test_heat_shimmer_copies_what_a_copy_is_not_its_printed_card(reg: Registry) -> None:
    """Heat Shimmer: "Create a token that's a copy of target creature": a Test Clone that
    is a Mulldrifter is copied as a Mulldrifter (a 2/2 that draws two as it enters), not
    as a 0/0 Test Clone (the old code created the printed card's token, which died)."""
    run(reg, """
        name: shimmer a clone
        players:
          alice: {battlefield: [Island, Mountain, Mountain, Mountain],
                  hand: [{card: Test Clone, as: cl}, Heat Shimmer],
                  library: [Forest, Forest, Forest, Forest, Forest]}
          bob: {battlefield: [{card: Mulldrifter, as: md}]}
        turn: {number: 3, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: cl}
          - {resolve: all, answers: [{choose: md}]}
          - {player: alice, cast: Heat Shimmer, targets: [cl]}
          - {resolve: all}
        expect:
          - {player: alice, hand_size: 4}
          - {count: {name: Mulldrifter, controller: alice, zone: battlefield, token: true}, equals: 1}
    """)
