"""A card whose code raises is named: the card, the ability and its set.

Throwaway cards of a test-only set, ``raisers``, each raise ``KeyError('grnat')`` in one
place the engine calls card code: a trigger's condition, a spell's effect, an activated
ability's effect, a static ability's continuous effect, a static ability's hook (a cost
change), an additional cost of an activated ability, a target filter, a replacement
effect and an "as it enters" choice.  Each is played in a scenario and must fail with
one line naming all three -- ``card "Raising Sprite" (set raisers) failed in its
triggered ability #0 'When ~ enters' (trigger condition): KeyError: 'grnat'`` -- as
:class:`mtgk.cards.effects.CardError`, whose ``__cause__`` is the original exception with
its traceback.  What is not the card's doing (an agent's exception, a rules error)
goes on unchanged through card code.
"""

from __future__ import annotations

import traceback
from dataclasses import replace
from typing import Any

import pytest

from mtgk.cards.definitions import CardSetInfo, Cost, Registry
from mtgk.cards.dsl import CardSet, activated, cost_change, spell, static, target, triggered
from mtgk.cards.effects import Ctx
from mtgk.cards.errors import CardError
from mtgk.cards.filters import Filter
from mtgk.cards.loading import hookimpl, load_registry
from mtgk.log.events import ZoneChanged
from mtgk.rules.engine import Decision, Game, RulesError
from mtgk.rules.replacement import Replacement
from tests.conftest import _facts, play_scenario

R = CardSet("raisers", "0.0.1", __file__, facts="no-such-file.json")


def grnat(*_args: Any) -> Any:
    """Card code with a bug: a dictionary without the key it reads."""
    return {"green": 1}["grnat"]


def _creature(name: str, text: str = "") -> Any:
    return _facts(name, "{G}", ("Creature",), ("Elf",), (1, 1), colors=("G",), text=text)


R.card("Raising Sprite", triggered(ZoneChanged, grnat, lambda c: None, text="When ~ enters"),
       facts=_creature("Raising Sprite", "When Raising Sprite enters, nothing happens."))
R.card("Raising Bolt", spell(grnat),
       facts=_facts("Raising Bolt", "{R}", ("Instant",), colors=("R",), text="Nothing."))
R.card("Raising Engine", activated("{0}", grnat, text="{0}: nothing"),
       facts=_creature("Raising Engine", "{0}: Nothing."))
R.card("Raising Anthem", static(grnat, "creatures get +0/+0"),
       facts=_facts("Raising Anthem", "{G}", ("Enchantment",), colors=("G",),
                    text="Creatures get +0/+0."))
R.card("Raising Tax", cost_change(grnat, 1, text="spells cost {1} more"),
       facts=_facts("Raising Tax", "{G}", ("Enchantment",), colors=("G",),
                    text="Spells cost {1} more."))


class _GrnatCost:
    """An additional cost whose code raises as it is checked."""

    def can_pay(self, game: Game, player: int, source: int) -> bool:
        return bool(grnat())

    def pay(self, game: Game, player: int, source: int) -> None:
        grnat()

    def __str__(self) -> str:
        return "pay grnat"


R.card("Raising Toll", replace(activated("{0}", lambda c: None, text="{0}, pay grnat: nothing"),
                               cost=Cost(mana="{0}", extra=(_GrnatCost(),))),
       facts=_creature("Raising Toll", "{0}, Pay grnat: Nothing."))
R.card("Raising Shot", spell(lambda c: None, target(Filter(grnat, "grnat creature"))),
       facts=_facts("Raising Shot", "{R}", ("Instant",), colors=("R",),
                    text="Target grnat creature."))


class _GrnatShield(Replacement):
    key, event, text = "grnat-shield", "damage", "prevent damage to grnat"

    def applies(self, game: Game, p: dict[str, Any], source: int) -> bool:
        return bool(grnat())


R.card("Raising Shield", _GrnatShield(),
       facts=_creature("Raising Shield", "Prevent all damage that would be dealt to grnat."))
R.card("Raising Chooser", as_enters=grnat,
       facts=_creature("Raising Chooser", "As Raising Chooser enters, choose grnat."))
R.card("Quiet Anthem", static(lambda v, src: [], "nothing"),
       facts=_facts("Quiet Anthem", "{G}", ("Enchantment",), colors=("G",), text="Nothing."))


class RaisersPack:
    """Hook implementation registering the ``raisers`` set."""

    @hookimpl
    def mtgk_cardsets(self) -> list[CardSetInfo]:
        return [R.info()]


@pytest.fixture(scope="module")
def reg() -> Registry:
    out = load_registry(extra=[("raisers", RaisersPack())])
    assert "raisers" in out.sets, out.failures
    return out


def scenario(actions: str, alice: str = "", bob: str = "", hand: str = "") -> str:
    return f"""
        name: raises
        players:
          alice:
            battlefield: [Forest, Mountain{alice}]
            hand: [{hand}]
          bob:
            battlefield: [Plains{bob}]
        turn: {{number: 2, active: alice, step: precombat_main}}
        actions:
{actions}
        """


CASES = {
    "trigger condition": (
        "          - {player: alice, cast: Raising Sprite}\n          - {resolve: all}", "", "",
        'card "Raising Sprite" (set raisers) failed in its triggered ability #0 '
        "'When ~ enters' (trigger condition): KeyError: 'grnat'"),
    "spell effect": (
        "          - {player: alice, cast: Raising Bolt}\n          - {resolve: all}", "", "",
        'card "Raising Bolt" (set raisers) failed in its spell ability #0 (effect): '
        "KeyError: 'grnat'"),
    "activated ability": (
        "          - {player: alice, activate: Raising Engine}\n          - {resolve: all}",
        ", Raising Engine", "",
        'card "Raising Engine" (set raisers) failed in its activated ability #0 '
        "'{0}: nothing' (effect): KeyError: 'grnat'"),
    "continuous effect": (
        "          - {player: alice, cast: Grizzly Bears}", ", Raising Anthem", "",
        'card "Raising Anthem" (set raisers) failed in its static ability #0 '
        "'creatures get +0/+0' (continuous effect): KeyError: 'grnat'"),
    "cost change": (
        "          - {player: alice, cast: Grizzly Bears}", "", ", Raising Tax",
        'card "Raising Tax" (set raisers) failed in its static ability #0 '
        "'spells cost {1} more' (cost_change): KeyError: 'grnat'"),
    "additional cost": (
        "          - {player: alice, activate: Raising Toll}", ", Raising Toll", "",
        'card "Raising Toll" (set raisers) failed in its activated ability #0 '
        "'{0}, pay grnat: nothing' (cost pay grnat): KeyError: 'grnat'"),
    "target filter": (
        "          - {player: alice, cast: Raising Shot, targets: [Grizzly Bears]}", "",
        ", Grizzly Bears",
        'card "Raising Shot" (set raisers) failed in its spell ability #0 (target filter): '
        "KeyError: 'grnat'"),
    "replacement effect": (
        "          - {player: alice, cast: Lightning Bolt, targets: [Raising Shield]}\n"
        "          - {resolve: all}", "", ", Raising Shield",
        'card "Raising Shield" (set raisers) failed in its replacement effect #0 '
        "'prevent damage to grnat' (replacement effect): KeyError: 'grnat'"),
    "as it enters": (
        "          - {player: alice, cast: Raising Chooser}\n          - {resolve: all}", "", "",
        'card "Raising Chooser" (set raisers) failed in its choice as it enters the '
        "battlefield: KeyError: 'grnat'"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_scenario_whose_card_raises_fails_naming_the_card(reg: Registry, case: str) -> None:
    actions, alice, bob, line = CASES[case]
    hand = actions.split("cast: ")[1].split("}")[0].split(",")[0] if "cast: " in actions \
        else ""
    res = play_scenario(scenario(actions, alice, bob, hand), reg)
    assert not res.passed
    assert res.reason == line


def test_the_error_keeps_the_original_exception_and_its_traceback(reg: Registry) -> None:
    g = _game_with(reg, "Raising Anthem")
    with pytest.raises(CardError) as info:
        g.chars(g.state.battlefield[0])
    err = info.value
    assert err.card == "Raising Anthem" and err.set_name == "raisers"
    assert isinstance(err.__cause__, KeyError) and err.error is err.__cause__
    text = "".join(traceback.format_exception(err))
    assert "in grnat" in text and "The above exception was the direct cause" in text
    assert str(err).count("\n") == 0


def test_what_is_not_the_cards_doing_goes_on_unchanged(reg: Registry) -> None:
    """An agent's exception raised while a card's effect asks a decision is the agent's;
    a rules error from the engine stays a rules error."""

    class Broken(Exception):
        pass

    class Refuses:
        def decide(self, game: Game, d: Decision) -> Any:
            raise Broken("the agent gave up")

    def asks(c: Ctx) -> None:
        c.choose([1, 2])

    R.card("Asking Bolt", spell(asks),
           facts=_facts("Asking Bolt", "{R}", ("Instant",), colors=("R",), text="Choose."))
    try:
        local = load_registry(extra=[("raisers", RaisersPack())])
        g = _game_with(local, "Mountain", hand=["Asking Bolt"])
        g.perform(0, g.check_action(0, ["cast", g.state.players[0].hand[0], [], [], 0, ""]))
        g.agents = [Refuses(), Refuses()]
        with pytest.raises(Broken):
            g.resolve_top()
        with pytest.raises(RulesError):
            g.check_action(0, ["cast", 10**6, [], [], 0, ""])
    finally:
        del R.defs["Asking Bolt"]


def test_a_card_that_does_not_raise_costs_nothing(reg: Registry) -> None:
    """The same card code without the bug plays normally (the wrapping is transparent)."""
    g = _game_with(reg, "Quiet Anthem")
    assert g.chars(g.state.battlefield[0]).card == "Quiet Anthem"


def _game_with(reg: Registry, *battlefield: str, hand: tuple[str, ...] | list[str] = ()) -> Game:
    from mtgk.log import events as ev

    g = Game(reg, ["alice", "bob"], seed=1)
    with g.setting_up():
        for name in battlefield:
            g.emit(ev.ObjectCreated(obj=g.new_id(), card=name, owner=0, zone="battlefield",
                                    controller=0))
        for name in hand:
            g.emit(ev.ObjectCreated(obj=g.new_id(), card=name, owner=0, zone="hand"))
        g.emit(ev.TurnBegan(turn=1, active=0))
        g.emit(ev.StepBegan(step="precombat_main"))
    return g
