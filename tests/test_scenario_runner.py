"""The scenario runner's own semantics (shared/spec/scenario-format.md): failures it must report."""

from __future__ import annotations

import pytest

from kernel.cards import Registry
from kernel.scenario.model import loads_scenarios
from kernel.scenario.runner import cli_main, run_scenario


def run(reg: Registry, text: str) -> tuple[bool, str]:
    [sc] = loads_scenarios(text)
    r = run_scenario(sc, reg)
    return r.passed, r.reason


SHOCK = """
name: shock
{strict}
players:
  alice: {{battlefield: [Mountain], hand: [Shock]}}
  bob: {{life: {life}, battlefield: [Grizzly Bears]}}
actions:
  - {{player: alice, cast: Shock, targets: [bob]{refused}}}
  - {{resolve: all{answers}}}
{more}
expect:
  - {{player: bob, life: {expect}}}
"""


def shock(strict: str = "", life: int = 20, refused: str = "", answers: str = "",
          more: str = "", expect: int = 18) -> str:
    return SHOCK.format(strict=strict, life=life, refused=refused, answers=answers,
                        more=more, expect=expect)


def test_a_passing_scenario_passes(registry: Registry) -> None:
    assert run(registry, shock()) == (True, "")


def test_a_wrong_expectation_fails_with_expected_and_got(registry: Registry) -> None:
    ok, why = run(registry, shock(expect=17))
    assert not ok and "expected 17, got 18" in why


def test_a_legal_action_marked_refused_fails(registry: Registry) -> None:
    ok, why = run(registry, shock(refused=", refused: true"))
    assert not ok and "should be refused" in why


def test_strict_unused_answer_fails(registry: Registry) -> None:
    ok, why = run(registry, shock(strict="strict: true", answers=", answers: [{may: yes}]"))
    assert not ok and "never used" in why
    ok, _ = run(registry, shock(answers=", answers: [{may: yes}]"))
    assert ok  # not strict: an unused answer is allowed


def test_actions_after_the_game_ended_fail(registry: Registry) -> None:
    text = shock(life=2, expect=0, more="  - {player: alice, play: Mountain}")
    ok, why = run(registry, text)
    assert not ok and "game ended" in why and "alice wins" in why


def test_an_ambiguous_name_in_an_expectation_fails(registry: Registry) -> None:
    text = """
name: two-bears
players:
  alice: {battlefield: [Grizzly Bears, Grizzly Bears]}
  bob: {}
expect:
  - {card: Grizzly Bears, zone: battlefield}
"""
    ok, why = run(registry, text)
    assert not ok and "ambiguous" in why


def test_an_action_whose_player_cannot_get_priority_fails(registry: Registry) -> None:
    # bob passes after alice's spell; alice then can't act again without Shock resolving
    text = """
name: no-priority
players:
  alice: {battlefield: [Mountain, Mountain], hand: [Shock, Shock]}
  bob: {battlefield: [Island], hand: []}
actions:
  - {player: alice, cast: Shock, targets: [bob]}
  - {player: bob, cast: Shock, targets: [alice]}
"""
    ok, why = run(registry, text)
    assert not ok and "Shock" in why


def test_cli_exit_status_and_closing_line(registry: Registry, tmp_path: pytest.TempPathFactory,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.yaml"  # type: ignore[operator]
    good.write_text(shock())
    bad = tmp_path / "bad.yaml"  # type: ignore[operator]
    bad.write_text(shock(expect=3))
    assert cli_main([str(good)], reg=registry) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 passed, 0 failed"
    assert cli_main([str(good), str(bad)], reg=registry) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "1 passed, 1 failed" and out[1].startswith("FAIL shock: ")
    invalid = tmp_path / "invalid.yaml"  # type: ignore[operator]
    invalid.write_text("name: x\nplayers: {alice: {}, bob: {}}\nbogus: 1\n")
    assert cli_main([str(invalid)], reg=registry) == 2
    assert "bogus" in capsys.readouterr().err
