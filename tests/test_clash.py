"""Clash rules a scenario file can't express (Lorwyn primer, "Keyword Action: Clash"):
the order of the clash decisions, split cards, what the log records, blocking
requirements of Nath's Elite."""

from __future__ import annotations

from typing import Any

import pytest

from mtgk.cards.definitions import CardFacts, CardSetInfo, Registry
from mtgk.cards.dsl import CardSet
from mtgk.cards.loading import hookimpl, load_registry
from mtgk.log import events as ev
from mtgk.log.answers import Block
from mtgk.plugins.clash import Clashed, winners
from mtgk.rules.engine import RulesError
from tests.conftest import play_scenario

LASH_OUT = """
name: lash-out
players:
  alice:
    battlefield: [Mountain, Mountain]
    hand: [Lash Out]
    library: [TOP_A]
  bob:
    battlefield: [Silvercoat Lion, Sylvan Echoes]
    library: [TOP_B, Forest]
turn: {number: 1, active: ACTIVE, step: precombat_main}
actions:
  - {player: alice, cast: Lash Out, targets: [Silvercoat Lion]}
  - {resolve: all, answers: [{clash: bottom, player: alice}, {clash: top, player: bob},
                             {may: yes, player: bob}]}
"""


def lash_out(reg: Registry, top_a: str = "Axegrinder Giant", top_b: str = "Forest",
             active: str = "alice") -> Any:
    text = LASH_OUT.replace("TOP_A", top_a).replace("TOP_B", top_b).replace("ACTIVE", active)
    res = play_scenario(text, reg)
    assert res.passed, res.reason
    return res


def clash_decisions(log: list[ev.Envelope]) -> list[tuple[int, Any]]:
    return [(e.event.player, e.event.choice) for e in log
            if isinstance(e.event, ev.DecisionMade) and e.event.kind == "clash"]


@pytest.mark.parametrize("active, order", [("alice", [0, 1]), ("bob", [1, 0])])
def test_clash_choices_are_made_in_turn_order(registry: Registry, active: str,
                                              order: list[int]) -> None:
    """Step 4: the active player decides first, whoever controls the clash; the
    second decides after the first's choice is in the log."""
    res = lash_out(registry, active=active)
    got = clash_decisions(res.log)
    assert [p for p, _c in got] == order
    assert dict(got) == {0: "bottom", 1: "top"}


def test_all_cards_revealed_before_anyone_decides(registry: Registry) -> None:
    res = lash_out(registry)
    tags = [e.event.TAG for e in res.log]
    first_decision = next(i for i, e in enumerate(res.log)
                          if isinstance(e.event, ev.DecisionMade) and e.event.kind == "clash")
    assert tags[:first_decision].count("Revealed") == 2
    assert "Revealed" not in tags[first_decision:]


def test_clashed_events_say_what_happened(registry: Registry) -> None:
    """Enough for "alice clashes: reveals Axegrinder Giant (6), puts it on the bottom"."""
    res = lash_out(registry)
    clashed = [e.event for e in res.log if isinstance(e.event, Clashed)]
    assert [(c.player, c.card, c.mana_value, c.to, c.won) for c in clashed] == [
        (0, "Axegrinder Giant", 6, "bottom", True), (1, "Forest", 0, "top", False)]
    lash = next(e.event.new_obj for e in res.log if isinstance(e.event, ev.SpellCast))
    assert all(c.source == lash for c in clashed)
    g = res.game
    assert g.state.players[1].life == 17
    assert g.state.players[1].hand == []  # bob didn't win: his Sylvan Echoes didn't trigger


def test_winners_compares_with_every_other_revealed_card() -> None:
    assert winners({0: (6,), 1: (0,)}) == [0]
    assert winners({0: (2,), 1: (2,)}) == []  # no draws: nobody wins
    assert winners({0: (0,), 1: ()}) == [0]  # the only card revealed
    assert winners({0: (), 1: ()}) == []
    # split cards: each half counts, so both players can win (primer example)
    assert winners({0: (1, 3), 1: (2,)}) == [0, 1]
    assert winners({0: (1, 3), 1: (4,)}) == [1]


SPLIT = CardSet("splitpack", "0.0.1", __file__, facts="no-such-file.json")
SPLIT.card("Test Split", facts=CardFacts(
    name="Test Split", mana_cost="{W} // {1}{U}{U}", mana_value=4, types=("Instant",),
    type_line="Instant // Instant", colors=("W", "U")))


class SplitPack:
    __test__ = False

    @hookimpl
    def mtgk_cardsets(self) -> list[CardSetInfo]:
        return [SPLIT.info()]


def test_a_split_card_and_a_card_between_its_halves_both_win() -> None:
    """"If Player A reveals a split card with converted mana costs 1 and 3, and Player B
    reveals a card with converted mana cost 2, they'll both win": alice's Lash Out deals
    its extra damage and bob's Sylvan Echoes lets him draw."""
    reg = load_registry(extra=[("splitpack", SplitPack())])
    res = lash_out(reg, top_a="Test Split", top_b="Grizzly Bears")
    g = res.game
    assert g.state.players[1].life == 17
    assert [g.state.objects[o].card for o in g.state.players[1].hand] == ["Grizzly Bears"]
    clashed = [e.event for e in res.log if isinstance(e.event, Clashed)]
    assert [(c.mana_values, c.won) for c in clashed] == [((1, 3), True), ((2,), True)]


NATHS_ELITE = """
name: nath-s-elite-attacks
players:
  alice:
    battlefield: [Nath's Elite]
  bob:
    battlefield: [Grizzly Bears, Silvercoat Lion, {card: Runeclaw Bear, tapped: true},
                  Bog Hoodlums]
actions:
  - {player: alice, attack: {Nath's Elite: bob}}
"""


def test_every_creature_able_to_block_nath_s_elite_must(registry: Registry) -> None:
    res = play_scenario(NATHS_ELITE, registry)
    assert res.passed, res.reason
    g = res.game
    ids = {g.state.objects[o].card: o for o in g.state.battlefield}
    elite, bears, lion = ids["Nath's Elite"], ids["Grizzly Bears"], ids["Silvercoat Lion"]
    before = len(g.log)
    for blocks in ([], [[bears, elite]], [[lion, elite]]):
        with pytest.raises(RulesError) as err:
            g.check_blockers(1, blocks)
        assert err.value.rule == "509.1c"
    # the tapped Runeclaw Bear and Bog Hoodlums (can't block) aren't required to
    assert g.check_blockers(1, [[bears, elite], [lion, elite]]) == [Block(bears, elite),
                                                                    Block(lion, elite)]
    with pytest.raises(RulesError):
        g.check_blockers(1, [[bears, elite], [lion, elite], [ids["Bog Hoodlums"], elite]])
    assert len(g.log) == before
