"""A keyword that stands for an ability (persist, undying, a pack's own: issue 22) has
that ability however the permanent has the keyword -- printed, granted by a lord, by an
Aura, by an effect until end of turn -- and loses it with the keyword."""

from __future__ import annotations

from typing import Any

import pytest

from mtgk.cards.definitions import CardFacts, CardSetInfo, Registry, Triggered
from mtgk.cards.dsl import CardSet, activated, enchanted, lord, spell, target
from mtgk.cards.filters import creature
from mtgk.cards.keywords import declare_keyword
from mtgk.cards.loading import hookimpl, load_registry
from mtgk.log import events as ev
from mtgk.plugins.enters import enters_tapped_if
from mtgk.plugins.persist import persist  # (importing it declares persist and undying)
from mtgk.rules.replacement import Replacement
from tests.conftest import play_scenario

M = CardSet("meanings", "0.0.1", __file__, facts="no-such-file.json")


def facts(name: str, cost: str | None, types: tuple[str, ...], mv: int,
          pt: tuple[int, int] | None = None, keywords: tuple[str, ...] = (),
          text: str = "", subtypes: tuple[str, ...] = ()) -> CardFacts:
    return CardFacts(name=name, mana_cost=cost, mana_value=mv, types=types,
                     subtypes=subtypes, type_line=" ".join(types), oracle_text=text,
                     power=None if pt is None else str(pt[0]),
                     toughness=None if pt is None else str(pt[1]), keywords=keywords)


# "Other creatures you control have persist."
M.card("Meaning Lord", lord(creature.other().you_control(), 0, 0, grant=["persist"]),
       facts=facts("Meaning Lord", "{2}{B}", ("Creature",), 3, (1, 1),
                   text="Other creatures you control have persist."))
# "Enchant creature. Enchanted creature has undying."
M.card("Meaning Aura", enchanted(0, 0, grant=["undying"]), enchant=target(creature),
       facts=facts("Meaning Aura", "{G}", ("Enchantment",), 1, subtypes=("Aura",),
                   text="Enchant creature\nEnchanted creature has undying."))
# "Target creature gains persist until end of turn."
M.card("Meaning Gift", spell(lambda c: c.until_end_of_turn("grant", [c.target(0)],
                                                           ["persist"]), target(creature)),
       facts=facts("Meaning Gift", "{B}", ("Instant",), 1,
                   text="Target creature gains persist until end of turn."))
# "Target creature loses all abilities until end of turn."
M.card("Meaning Hush", spell(lambda c: c.until_end_of_turn("lose_all_abilities",
                                                           [c.target(0)], None),
                             target(creature)),
       facts=facts("Meaning Hush", "{U}", ("Instant",), 1,
                   text="Target creature loses all abilities until end of turn."))
# a card whose facts list Persist, and nothing more
M.card("Meaning Persister", facts=facts("Meaning Persister", "{1}{B}", ("Creature",), 2,
                                           (2, 2), ("Persist",), "Persist"))


# persist() among a card's own abilities: its printed instance (one, with the lord's too)
M.card("Meaning Finks", persist(), facts=facts("Meaning Finks", "{1}{B}", ("Creature",), 2,
                                              (2, 2), ("Persist",), "Persist"))


# a pack's keyword standing for a replacement effect and a static hook:
# "Stoneward (If a source would deal damage to this creature, prevent 1 of that damage.
# This permanent enters the battlefield tapped.)"
class _Stoneward(Replacement):
    key, event = "meaning-stoneward", "damage"

    def applies(self, game: Any, p: Any, source: int) -> bool:
        return bool(p["target"] == source)

    def apply(self, game: Any, p: Any, source: int) -> Any:
        return dict(p, amount=p["amount"] - 1)


declare_keyword("stoneward", "tests.test_keyword_meanings",
                meaning=(_Stoneward(), enters_tapped_if(lambda v, s, o: o == s,
                                                        "enters tapped")),
                what="a test keyword: prevent 1 damage to it; it enters tapped")
M.card("Meaning Wall", facts=facts("Meaning Wall", "{1}{W}", ("Creature",), 2, (0, 3),
                                      ("Stoneward",), "Stoneward"))
# "{T}: Target creature gains stoneward until end of turn."
M.card("Meaning Mason", activated("{T}", lambda c: c.until_end_of_turn(
    "grant", [c.target(0)], ["stoneward"]), target(creature)),
       facts=facts("Meaning Mason", "{W}", ("Creature",), 1, (1, 1),
                   text="{T}: Target creature gains stoneward until end of turn."))


class MeaningsPack:
    __test__ = False

    @hookimpl
    def mtgk_cardsets(self) -> list[CardSetInfo]:
        return [M.info()]


@pytest.fixture(scope="module")
def reg() -> Registry:
    out = load_registry(extra=[("meanings", MeaningsPack())])
    assert "meanings" in out.sets, out.failures
    return out


def run(reg: Registry, text: str) -> Any:
    res = play_scenario(text, reg)
    assert res.passed, res.reason
    return res


def test_persist_granted_by_a_lord_returns_the_creature_with_a_counter(reg: Registry) -> None:
    res = run(reg, """
        name: lord-grants-persist
        players:
          alice: {battlefield: [Meaning Lord, Grizzly Bears]}
          bob: {battlefield: [Mountain], hand: [Shock]}
        actions:
          - {check: [{card: Grizzly Bears, has_ability: persist}]}
          - {player: bob, cast: Shock, targets: [Grizzly Bears]}
          - {resolve: all}
        expect:
          - {card: Grizzly Bears, zone: battlefield, counters: {"-1/-1": 1}, power: 1}
        """)
    fired = [e.event for e in res.log if isinstance(e.event, ev.AbilityTriggered)]
    assert [e.ability for e in fired] == ["persist"]


def test_a_persisted_creature_with_a_counter_stays_dead(reg: Registry) -> None:
    run(reg, """
        name: lord-persist-once
        players:
          alice: {battlefield: [Meaning Lord, {card: Grizzly Bears, counters: {"-1/-1": 1}}]}
          bob: {battlefield: [Mountain], hand: [Shock]}
        actions:
          - {player: bob, cast: Shock, targets: [Grizzly Bears]}
          - {resolve: all}
        expect:
          - {card: Grizzly Bears, zone: graveyard}
        """)


def test_persist_until_end_of_turn_and_undying_from_an_aura(reg: Registry) -> None:
    run(reg, """
        name: gift-and-aura
        players:
          alice: {battlefield: [Swamp, Forest, Grizzly Bears, Gray Ogre],
                  hand: [Meaning Gift, Meaning Aura]}
          bob: {battlefield: [Mountain, Mountain], hand: [Shock, Shock]}
        actions:
          - {player: alice, cast: Meaning Gift, targets: [Grizzly Bears]}
          - {resolve: all}
          - {player: alice, cast: Meaning Aura, targets: [Gray Ogre]}
          - {resolve: all}
          - {player: bob, cast: Shock, targets: [Grizzly Bears]}
          - {resolve: all}
          - {player: bob, cast: Shock, targets: [Gray Ogre]}
          - {resolve: all}
        expect:
          - {card: Grizzly Bears, zone: battlefield, counters: {"-1/-1": 1}}
          - {card: Gray Ogre, zone: battlefield, counters: {"+1/+1": 1}, power: 3}
        """)


def test_a_printed_keyword_alone_is_enough_and_triggers_once(reg: Registry) -> None:
    res = run(reg, """
        name: printed-persist
        players:
          alice: {battlefield: [Meaning Lord, Meaning Persister, Meaning Finks]}
          bob: {battlefield: [Mountain, Mountain], hand: [Shock, Shock]}
        actions:
          - {player: bob, cast: Shock, targets: [Meaning Persister]}
          - {resolve: all}
          - {player: bob, cast: Shock, targets: [Meaning Finks]}
          - {resolve: all}
        expect:
          - {card: Meaning Persister, zone: battlefield, counters: {"-1/-1": 1}}
          - {card: Meaning Finks, zone: battlefield, counters: {"-1/-1": 1}}
        """)
    fired = [e.event.ability for e in res.log if isinstance(e.event, ev.AbilityTriggered)]
    # the vanilla one's is the keyword's; the one listing persist() has its own, once
    assert fired == ["persist", "Meaning Finks#0"]


def test_losing_all_abilities_loses_a_granted_persist(reg: Registry) -> None:
    run(reg, """
        name: hushed
        players:
          alice: {battlefield: [Meaning Lord, Grizzly Bears]}
          bob: {battlefield: [Island, Mountain], hand: [Meaning Hush, Shock]}
        actions:
          - {player: bob, cast: Meaning Hush, targets: [Grizzly Bears]}
          - {resolve: all}
          - {check: [{card: Grizzly Bears, lacks_ability: persist}]}
          - {player: bob, cast: Shock, targets: [Grizzly Bears]}
          - {resolve: all}
        expect:
          - {card: Grizzly Bears, zone: graveyard}
          - {log_has: AbilityTriggered, count: 0}
        """)


def test_a_keyword_standing_for_a_replacement_and_a_static_hook(reg: Registry) -> None:
    run(reg, """
        name: stoneward
        players:
          alice: {battlefield: [Meaning Mason, Grizzly Bears, Plains, Plains],
                  hand: [Meaning Wall]}
          bob: {battlefield: [Mountain, Mountain], hand: [Shock, Shock]}
        actions:
          - {player: alice, cast: Meaning Wall}
          - {resolve: all}
          - {check: [{card: Meaning Wall, tapped: true}]}
          - {player: bob, cast: Shock, targets: [Meaning Wall]}
          - {resolve: all}
          - {check: [{card: Meaning Wall, damage: 1}]}
          - {player: alice, activate: Meaning Mason, targets: [Grizzly Bears]}
          - {resolve: all}
          - {player: bob, cast: Shock, targets: [Grizzly Bears]}
          - {resolve: all}
        expect:
          - {card: Grizzly Bears, zone: battlefield, damage: 1}
        """)


def test_a_meaning_that_is_no_triggered_replacement_or_hook_is_refused() -> None:
    with pytest.raises(ValueError, match="static ability without a static hook"):
        declare_keyword("meaningless", "tests", meaning=(
            lord(creature, 1, 1),))
    with pytest.raises(ValueError, match="outside the battlefield"):
        declare_keyword("meaningless", "tests", meaning=(
            Triggered((ev.StepBegan.TAG,), lambda v, s, e: True, lambda c: None,
                      zones=("graveyard",)),))
