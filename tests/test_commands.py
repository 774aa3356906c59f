"""Commands (Lorwyn primer, "Cycle: Commands"): "If a mode has targets, you can't
choose that mode unless you can choose legal targets for it. If this prevents you
from choosing exactly two modes, you can't play the spell."  Every real Command
has two modes without targets, so a test-only Command whose modes all target
shows the second sentence."""

from __future__ import annotations

import pytest

from mtgk.cards.definitions import CardFacts, CardSetInfo, Registry
from mtgk.cards.dsl import CardSet, destroy, modal, mode, pump, target
from mtgk.cards.filters import artifact, creature, enchantment
from mtgk.cards.loading import hookimpl, load_registry

T = CardSet("commandtest", "0.0.1", __file__, facts="no-such-file.json")
T.card("Test Twin Command", modal(
    2,
    mode("Destroy target artifact.", destroy(), target(artifact)),
    mode("Destroy target enchantment.", destroy(), target(enchantment)),
    mode("Target creature gets +1/+1 until end of turn.", pump(1, 1), target(creature))),
    facts=CardFacts(name="Test Twin Command", mana_cost="{1}", mana_value=1,
                    types=("Sorcery",), type_line="Sorcery",
                    oracle_text="Choose two — • Destroy target artifact. • Destroy target "
                                "enchantment. • Target creature gets +1/+1 until end of turn."))


class Pack:
    __test__ = False

    @hookimpl
    def mtgk_cardsets(self) -> list[CardSetInfo]:
        return [T.info()]


@pytest.fixture(scope="module")
def reg() -> Registry:
    return load_registry(extra=[("commandtest", Pack())])


ONE_MODE_LEFT = """
name: only-one-mode-has-targets
strict: true
players:
  alice:
    battlefield: [Plains]
    hand: [Test Twin Command]
  bob:
    battlefield: [Grizzly Bears]
actions:
  - {player: alice, cast: Test Twin Command, modes: [1, 3], targets: [Grizzly Bears],
     refused: true}
  - {player: alice, cast: Test Twin Command, modes: [2, 3], targets: [Grizzly Bears],
     refused: true}
  - {player: alice, cast: Test Twin Command, modes: [1, 2], refused: true}
expect:
  - {card: Test Twin Command, zone: hand}
"""

TWO_MODES = """
name: two-modes-have-targets
strict: true
players:
  alice:
    battlefield: [Plains]
    hand: [Test Twin Command]
  bob:
    battlefield: [Grizzly Bears, Moonglove Extract]
actions:
  - {player: alice, cast: Test Twin Command, modes: [1, 3],
     targets: [Moonglove Extract, Grizzly Bears]}
  - {resolve: all}
expect:
  - {card: Moonglove Extract, zone: graveyard}
  - {card: Grizzly Bears, power: 3, toughness: 3}
"""


BOARD = """
name: just-the-board
players:
  alice:
    battlefield: [Plains]
    hand: [Test Twin Command]
  bob:
    battlefield: [Grizzly Bears, Moonglove Extract]
"""


def test_a_command_with_one_choosable_mode_cant_be_cast(reg: Registry) -> None:
    from tests.conftest import play_scenario

    res = play_scenario(ONE_MODE_LEFT, reg)
    assert res.passed, res.reason
    g = res.game
    assert g is not None
    card = next(o for o in g.state.players[0].hand)
    assert not [a for a in g.legal_actions(0) if a[0] == "cast" and a[1] == card]


def test_a_command_with_two_choosable_modes_can_be_cast(reg: Registry) -> None:
    from tests.conftest import play_scenario

    res = play_scenario(TWO_MODES, reg)
    assert res.passed, res.reason


def test_legal_actions_offer_only_modes_with_targets(reg: Registry) -> None:
    from tests.conftest import play_scenario

    res = play_scenario(BOARD, reg)
    g = res.game
    assert g is not None
    card = g.state.players[0].hand[0]
    modes = sorted({tuple(a[3]) for a in g.legal_actions(0) if a[0] == "cast" and a[1] == card})
    assert modes == [(1, 3)]
