"""An outside author's Shadowmoor pack (examples/shadowmoor-pack), written on the public
API only: loaded the way pip installs it (a .dist-info entry point, as
tests/test_morningtide_pack.py loads the Morningtide pack), every card has a scenario and
they pass, and random games mix its cards with the built-in sets in validated mode."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mtgk.agents import RandomAgent
from mtgk.cards.definitions import Registry
from mtgk.cards.loading import load_registry
from mtgk.rules.engine import Game
from mtgk.scenario.board import known_card
from mtgk.scenario.play import run_scenario
from mtgk.scenario.reader import load_scenarios
from tests.conftest import fake_dist

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "examples" / "shadowmoor-pack"


@pytest.fixture(scope="module")
def reg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Registry]:
    tmp = tmp_path_factory.mktemp("dist")
    fake_dist(tmp, "mtgk_shadowmoor_pack", "mtgk.cardsets", "shadowmoor",
              "mtgk_shadowmoor_pack")
    sys.path[:0] = [str(tmp), str(PACK)]
    try:
        out = load_registry()
        assert "shadowmoor" in out.sets, out.failures
        yield out
    finally:
        sys.path.remove(str(tmp))
        sys.path.remove(str(PACK))


def _scenarios(reg: Registry) -> list[object]:
    return [sc for f in sorted(PACK.glob("scenario_*.yaml"))
            for sc in load_scenarios(f, known_card=known_card(reg))]


def _names(reg: Registry) -> list[str]:
    return [c.name for c in reg.sets["shadowmoor"].cards if c.facts.mana_cost is not None]


def test_the_pack_loads_its_fifteen_cards(reg: Registry) -> None:
    assert len(_names(reg)) == 15, _names(reg)


@pytest.mark.parametrize("name", [
    "boggart-ram-gang", "spectral-procession", "incremental-blight", "puncture-bolt",
    "cinderbones", "safehold-elite", "rattleblaze", "burn-trail", "flame-jab",
    "ravens-crime", "pili-pala", "heartlash-cinder", "primalcrux", "rugged-prairie",
    "runes-of-the-deus"])
def test_scenarios_pass(reg: Registry, name: str) -> None:
    scs = [sc for sc in _scenarios(reg) if sc.name.startswith(name)]  # type: ignore[attr-defined]
    assert scs, name
    failed = [(sc.name, r.reason) for sc in scs  # type: ignore[attr-defined]
              for r in [run_scenario(sc, reg)] if not r.passed]  # type: ignore[arg-type]
    assert not failed, failed


def test_every_card_of_the_pack_has_a_scenario(reg: Registry) -> None:
    text = "".join(f.read_text() for f in PACK.glob("scenario_*.yaml"))
    assert [c for c in _names(reg) if c not in text] == []


@pytest.mark.parametrize("seed", range(4))
def test_random_games_mix_the_pack_with_the_builtin_sets(reg: Registry, seed: int) -> None:
    rng = random.Random(seed)
    mine = _names(reg)
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
