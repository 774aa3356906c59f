"""Scenarios that need a part of the engine another branch builds (tests/pending/).

``tests/pending/first_strike_damage.yaml`` needs the first-strike combat damage step
(``first_strike_damage`` in :data:`kernel.engine.STEPS`, CR 510.4): while the engine lacks
it, each scenario must fail (strict ``xfail``: one that passes is reported); once it has it,
each must pass and its log must verify, like every scenario under tests/scenarios/.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kernel.engine import STEPS
from kernel.logfile import decode_log, encode_log
from kernel.plugins import load_registry
from kernel.replay import verify
from kernel.scenario.model import load_scenarios
from kernel.scenario.runner import known_card, run_scenario, scenario_log_header

PENDING = Path(__file__).parent / "pending" / "first_strike_damage.yaml"
HAS_STEP = "first_strike_damage" in STEPS
REG = load_registry()
SCENARIOS = load_scenarios(PENDING, known_card=known_card(REG))


@pytest.mark.xfail(not HAS_STEP, strict=True,
                   reason="the engine has no first_strike_damage step yet (issue 12, combat)")
@pytest.mark.parametrize("sc", SCENARIOS, ids=lambda sc: sc.name)
def test_first_strike_damage_scenario(sc: object) -> None:
    r = run_scenario(sc, REG)  # type: ignore[arg-type]
    assert r.passed, r.reason
    log = decode_log(encode_log(scenario_log_header(r, REG), r.log), strict=True)
    report = verify(log.header, log.envelopes, REG)
    assert report.verified, report.summary()


@pytest.mark.skipif(not HAS_STEP, reason="the engine has no first_strike_damage step yet")
def test_pass_until_a_first_strike_damage_step_a_combat_does_not_have_fails() -> None:
    from kernel.scenario.model import loads_scenarios

    [sc] = loads_scenarios("""
name: no-first-strike
players:
  alice: {battlefield: [Grizzly Bears]}
  bob: {}
actions:
  - {player: alice, attack: [Grizzly Bears]}
  - {pass_until: {turn: 1, step: first_strike_damage}}
""")
    r = run_scenario(sc, REG)
    assert not r.passed
    assert r.reason.startswith("actions[1]: the game passed turn 1 without a first strike "
                               "damage step (that step happens only when")
