"""Every log the project writes verifies: scenario logs (`mtgk scenario --log`) for every
scenario under tests/, exported scenarios run with `--log`, branches; and the files
`--log` writes are named safely, never overwrite each other, and errors are one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from mtgk.cards.loading import load_registry
from mtgk.games.replay import verify
from mtgk.log.logfile import decode_log, encode_log, read_log
from mtgk.scenario.logs import MAX_LOG_NAME, ScenarioLogs, log_file_name, scenario_log_header
from mtgk.scenario.play import run_scenario
from mtgk.scenario.reader import iter_scenario_files, loads_scenarios
from mtgk.scenario.runner import run_file
from tests.conftest import run_mtgk as run

TESTS = Path(__file__).parent
REG = load_registry()

pytestmark = pytest.mark.usefixtures("reset_structlog")


def test_every_scenario_log_under_tests_verifies() -> None:
    """Each scenario is run in-process, its log encoded as `--log` writes it (the same
    header and bytes, kept in memory), read back and verified: to its end (the
    scenario's), with nothing left unverified."""
    files = iter_scenario_files([str(TESTS / "scenarios"), str(TESTS / "golden")])
    written = 0
    failures = []
    for f in files:
        for result in run_file(f, REG):
            if result.game is None:
                continue
            written += 1
            data = encode_log(scenario_log_header(result, REG), result.log)
            log = decode_log(data, strict=True, name=result.name)
            report = verify(log.header, log.envelopes, REG)
            if not report.verified:
                failures.append(f"{f.name}: {result.name}: {report.summary()}")
    assert written > 500  # every scenario of the tests (about 600)
    assert not failures, "\n".join(failures[:20])


def test_the_example_scenarios_logs_verify_with_the_commands(tmp_path: Path) -> None:
    out_dir = tmp_path / "logs"
    code, out, _ = run("scenario", TESTS / "scenarios" / "examples", "--log", out_dir)
    assert code == 0, out
    paths = sorted(out_dir.glob("*.mtgk"))
    assert len(paths) == 20
    for path in paths:
        code, out, _ = run("verify", path)
        assert code == 0 and out.splitlines()[-1].startswith("OK: "), (path.name, out)


def test_an_exported_scenario_run_with_log_verifies(tmp_path: Path) -> None:
    game = tmp_path / "game.mtgk"
    assert run("play", "--seed", 7, "--out", game, "-q")[0] == 0
    bug = tmp_path / "bug.yaml"
    code, out, err = run("scenario", "export", game, "--turn", 6, "--step", "precombat_main",
                         "--out", bug)
    assert code == 0, err
    text = bug.read_text()
    bug.write_text(text.replace("actions: []", "actions:\n  - {pass_until: {turn: 7, step: precombat_main}}"))
    code, out, _ = run("scenario", bug, "--log", tmp_path / "logs")
    assert code in (0, 1), out  # passed or not, its log must verify
    [path] = (tmp_path / "logs").glob("*.mtgk")
    code, out, _ = run("verify", path)
    assert code == 0, out
    branch = tmp_path / "branch.mtgk"
    log = read_log(game)
    at = next(e.seq for e in log.envelopes[200:] if e.event.TAG == "DecisionMade"
              and getattr(e.event, "player", -1) >= 0)
    assert run("branch", game, "--at", at, "--agent", "random", "--out", branch, "-q")[0] == 0
    code, out, _ = run("verify", branch)
    assert code == 0, out


# ------------------------------------------------------------------ file names


def _named(name: str) -> str:
    return f"""
name: {name!r}
players:
  alice: {{battlefield: [Mountain], hand: [Shock]}}
  bob: {{}}
actions:
  - {{player: alice, cast: Shock, targets: [bob]}}
  - {{resolve: all}}
expect:
  - {{player: bob, life: 18}}
"""


def test_log_file_names_are_safe_bounded_and_unique(tmp_path: Path) -> None:
    names = ["a/b", "a_b", "a_b", "x" * 300, "../../escape", ".hidden", "ünï cödé", "con"]
    logs = ScenarioLogs(tmp_path)
    written = []
    for name in names:
        [sc] = loads_scenarios(_named(name))
        result = run_scenario(sc, REG)
        assert result.passed, result.reason
        path = logs.write(result, REG)
        assert path is not None
        written.append(path)
    assert len({p.name for p in written}) == len(names)  # nothing overwritten
    for path, name in zip(written, names, strict=True):
        assert path.parent == tmp_path and not path.name.startswith(".")
        assert len(path.stem) <= MAX_LOG_NAME + 3
        assert read_log(path).header.meta["scenario"] == name
    assert [p.name for p in written[:3]] == ["a_b-c14cddc0.mtgk", "a_b.mtgk", "a_b-2.mtgk"]
    assert log_file_name("x" * 300) != log_file_name("x" * 299)


def test_log_into_a_file_or_an_unwritable_place_is_one_line(tmp_path: Path) -> None:
    scen = tmp_path / "s.yaml"
    scen.write_text(_named("x" * 300))
    code, out, err = run("scenario", scen, "--log", tmp_path / "logs")
    assert code == 0 and len(list((tmp_path / "logs").glob("*.mtgk"))) == 1
    afile = tmp_path / "afile"
    afile.write_text("")
    code, out, err = run("scenario", scen, "--log", afile)
    assert code == 2 and err.strip() == f"mtgk: error: --log {afile}: not a directory"
    assert "Traceback" not in err
    code, out, err = run("scenario", scen, "--log", afile / "sub")
    assert code == 2 and err.startswith(f"mtgk: error: --log {afile / 'sub'}: cannot make")
    assert len(err.strip().splitlines()) == 1
