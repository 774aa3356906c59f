"""Champion rules that need a test-only card (Lorwyn primer, "Keyword Ability:
Champion"): a champion that lost the ability before leaving returns nothing."""

from __future__ import annotations

from collections.abc import Callable

from mtgk.cards.definitions import CardFacts, CardSetInfo, Registry
from mtgk.cards.dsl import CardSet, spell, target
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import creature
from mtgk.cards.loading import hookimpl, load_registry
from mtgk.log import events as ev
from mtgk.scenario.play import ScenarioResult
from tests.conftest import play_scenario

T = CardSet("championtest", "0.0.1", __file__, facts="no-such-file.json")


def _humble(c: Ctx) -> None:
    """Target creature loses all abilities until end of turn."""
    if c.target(0) is not None:
        c.until_end_of_turn("lose_all_abilities", [c.target(0)])


T.card("Test Humble", spell(_humble, target(creature)), facts=CardFacts(
    name="Test Humble", mana_cost="{W}", mana_value=1, types=("Instant",), colors=("W",),
    type_line="Instant", oracle_text="Target creature loses all abilities until end of turn."))


class Pack:
    __test__ = False

    @hookimpl
    def mtgk_cardsets(self) -> list[CardSetInfo]:
        return [T.info()]


def _reg() -> Registry:
    return load_registry(extra=[("championtest", Pack())])


LOST = """
name: lost-champion-before-leaving
strict: true
players:
  alice:
    battlefield: [Plains, Mountain, Nova Chaser]
    exile: [{card: Flamekin Brawler, exiled_with: Nova Chaser}]
    hand: [HAND]
  bob: {}
actions:
  - ACTIONS
  - {player: alice, cast: Shock, targets: [Nova Chaser]}
  - {resolve: all}
"""


def _run(humble: bool) -> ScenarioResult:
    text = LOST.replace("HAND", "Test Humble, Shock" if humble else "Shock")
    first = ("{player: alice, cast: Test Humble, targets: [Nova Chaser]}\n  - {resolve: all}"
             if humble else "check: [{card: Nova Chaser, zone: battlefield}]")
    res = play_scenario(text.replace("ACTIONS", first), _reg())
    assert res.passed, res.reason
    return res


def _zone(res: ScenarioResult, name: str) -> str:
    assert res.game is not None
    s = res.game.state
    return next(o.zone for o in s.objects.values() if o.card == name)


def test_a_champion_that_lost_champion_returns_nothing() -> None:
    """"If a creature with champion loses the champion ability (due to Humble, for
    example) and then leaves play, champion's leaves-play ability won't trigger. The
    removed card remains removed from the game.\""""
    res = _run(humble=True)
    assert _zone(res, "Nova Chaser") == "graveyard"
    assert _zone(res, "Flamekin Brawler") == "exile"
    triggered: Callable[[ev.Envelope], bool] = lambda e: isinstance(  # noqa: E731
        e.event, ev.AbilityTriggered)
    assert not [e for e in res.log if triggered(e)]


def test_the_same_champion_with_its_ability_returns_the_card() -> None:
    res = _run(humble=False)
    assert _zone(res, "Nova Chaser") == "graveyard"
    assert _zone(res, "Flamekin Brawler") == "battlefield"
