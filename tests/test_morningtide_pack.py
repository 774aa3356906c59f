"""The second example pack (examples/morningtide-pack), written on the public API only,
and the load-time checks a pack author meets (issue 14).

The pack is found the way pip installs it (a .dist-info entry point, as
tests/test_plugins.py does for example-pack); its scenarios run here, and random games
mix its cards with the built-in sets in validated mode.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mtgk.agents import RandomAgent
from mtgk.cards.definitions import CardSetInfo, Registry
from mtgk.cards.dsl import CardSet
from mtgk.cards.keywords import declare_keyword, has_alt_cost
from mtgk.cards.loading import PluginError, hookimpl, load_registry
from mtgk.rules.engine import Game
from mtgk.scenario.board import known_card
from mtgk.scenario.play import run_scenario
from mtgk.scenario.reader import load_scenarios
from tests.conftest import _facts, fake_dist

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "examples" / "morningtide-pack"


@pytest.fixture(scope="module")
def reg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Registry]:
    tmp = tmp_path_factory.mktemp("dist")
    fake_dist(tmp, "mtgk_morningtide_pack", "mtgk.cardsets", "morningtide",
              "mtgk_morningtide_pack")
    sys.path[:0] = [str(tmp), str(PACK)]
    try:
        out = load_registry()
        assert "morningtide" in out.sets, out.failures
        yield out
    finally:
        sys.path.remove(str(tmp))
        sys.path.remove(str(PACK))


def _scenarios(reg: Registry) -> list[object]:
    return [sc for f in sorted(PACK.glob("scenario_*.yaml"))
            for sc in load_scenarios(f, known_card=known_card(reg))]


def test_every_card_of_the_pack_has_a_scenario_and_they_pass(reg: Registry) -> None:
    scs = _scenarios(reg)
    failed = [(sc.name, r.reason) for sc in scs  # type: ignore[attr-defined]
              for r in [run_scenario(sc, reg)] if not r.passed]  # type: ignore[arg-type]
    assert not failed, failed
    text = "".join(f.read_text() for f in PACK.glob("scenario_*.yaml"))
    cards = [c.name for c in reg.sets["morningtide"].cards
             if c.facts.mana_cost is not None]
    assert len(cards) >= 15
    assert [c for c in cards if c not in text] == []


@pytest.mark.parametrize("seed", range(6))
def test_random_games_mix_the_pack_with_the_builtin_sets(reg: Registry, seed: int) -> None:
    rng = random.Random(seed)
    mine = [c.name for c in reg.sets["morningtide"].cards if c.facts.mana_cost is not None]
    others = sorted(n for n, d in reg.cards.items() if d.facts.mana_cost is not None
                    and "Basic" not in d.facts.supertypes and not d.extras.get("adventure_of"))
    basics = ["Plains", "Island", "Swamp", "Mountain", "Forest"]
    decks = [[rng.choice(basics) for _ in range(17)] +
             [rng.choice(mine) for _ in range(15)] + [rng.choice(others) for _ in range(8)]
             for _ in range(2)]
    g = Game(reg, ["p1", "p2"], seed=seed, agents=[RandomAgent(seed), RandomAgent(~seed)])
    g.validate_caches = True
    g.play(decks, mulligans=False, max_turns=25)
    assert g.state.over or g.state.turn >= 25


def _pack(name: str, keywords: tuple[str, ...], alt: dict[str, str] | None = None) -> object:
    s = CardSet(name, "0.0.1", __file__, facts="no-such-file.json")
    s.card("Typo Bear", alt_costs=alt,
           facts=_facts("Typo Bear", "{1}{G}", ("Creature",), ("Bear",), (2, 2),
                        keywords=keywords))

    class Pack:
        @hookimpl
        def mtgk_cardsets(self) -> list[CardSetInfo]:
            return [s.info()]
    return Pack()


def test_an_unknown_keyword_refuses_the_set_naming_card_and_set() -> None:
    with pytest.raises(PluginError, match=r"card 'Typo Bear' \(set typo\).*'Flyng'.*"
                                          r"did you mean 'flying'"):
        load_registry(["core"], strict=True, extra=[("typo", _pack("typo", ("Flyng",)))])
    reg = load_registry(["core"], extra=[("typo", _pack("typo", ("Flyng",)))])
    assert "typo" not in reg.sets and "Shock" in reg  # the others load


def test_a_keyword_without_its_mechanism_refuses_the_set() -> None:
    declare_keyword("sneak-test", "tests", check=has_alt_cost("sneak-test"))
    with pytest.raises(PluginError, match=r"card 'Typo Bear' \(set nomech\).*'Sneak-Test'.*"
                                          r"no sneak-test alternative cost"):
        load_registry(["core"], strict=True,
                      extra=[("nomech", _pack("nomech", ("Sneak-Test",)))])
    ok = load_registry(["core"], extra=[("withmech", _pack("withmech", ("Sneak-Test",),
                                                           {"sneak-test": "{G}"}))])
    assert "withmech" in ok.sets, ok.failures


def test_builtin_sets_load_without_the_mechanics_plugins() -> None:
    """Keyword mechanisms are declared as their modules are imported, so a registry
    loaded without the mechanics plugins still knows evoke, clash, champion ..."""
    reg = load_registry(plugins=False)
    assert reg.failures == [] and "lorwyn" in reg.sets
