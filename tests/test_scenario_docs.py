"""docs/scenarios.md can't drift from the runner: every ``yaml`` block of the page that
is a whole scenario (it has a top-level ``name``) loads, and passes; every answer kind,
expectation key, setup key, action key and step the model knows is on the page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from mtgk.cards.definitions import Registry
from mtgk.scenario.board import known_card
from mtgk.scenario.model import (
    ANSWER_KINDS,
    CARD_EXPECT_KEYS,
    PLAYER_EXPECT_KEYS,
    STEPS,
    VERB_KEYS,
    VERBS,
    CardEntry,
    CountFilter,
)
from mtgk.scenario.play import run_scenario
from mtgk.scenario.reader import loads_scenarios

PAGE = Path(__file__).resolve().parent.parent / "docs" / "scenarios.md"
TEXT = PAGE.read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```yaml\n(.*?)^```", TEXT, re.M | re.S)
SCENARIOS = [b for b in BLOCKS if isinstance(yaml.safe_load(b), dict)
             and "name" in yaml.safe_load(b)]


def test_the_page_has_examples() -> None:
    assert len(SCENARIOS) >= 6


@pytest.mark.parametrize("block", SCENARIOS, ids=lambda b: yaml.safe_load(b)["name"])
def test_every_example_scenario_passes(block: str, registry: Registry) -> None:
    [sc] = loads_scenarios(block, "docs/scenarios.md", known_card(registry))
    result = run_scenario(sc, registry)
    assert result.passed, result.reason


def test_every_key_of_the_format_is_documented() -> None:
    keys: list[str] = [*ANSWER_KINDS, *CARD_EXPECT_KEYS, *PLAYER_EXPECT_KEYS, *STEPS, *VERBS,
                       "winner", "draw", "count", "equals", "stack_size", "log_has", "min",
                       "max", "strict", "variant", "teams", "refused", "answers", "player"]
    keys += [k for extra in VERB_KEYS.values() for k in extra]
    keys += [f.encode_name for f in __import__("msgspec").structs.fields(CardEntry)]
    keys += [f.encode_name for f in __import__("msgspec").structs.fields(CountFilter)]
    missing = sorted({k for k in keys
                      if not re.search(rf"(`|\{{|, ){re.escape(k)}(`|:)", TEXT)})
    assert missing == []
