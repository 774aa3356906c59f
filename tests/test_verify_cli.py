"""`mtgk verify`: its exit statuses, incomplete logs, and headers that must not weaken it.

Exit status 0: verified to the game's (or scenario's) end; 3: every event verified but
the log stops before the end; 1: it did not verify (damage, torn, divergence, a kind of
log that can't be re-run); 2: bad usage or not a log.
"""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from mtgk.agents import HeuristicAgent, RandomAgent
from mtgk.cards.decks import deck_lines
from mtgk.cards.loading import load_registry
from mtgk.games.replay import new_header, run_from_header, verify
from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.log.logfile import FORMAT_VERSION, LogHeader, read_log, write_log
from tests.conftest import run_mtgk as run

REG = load_registry()
RED = ["Mountain"] * 17 + ["Gray Ogre"] * 19 + ["Shock"] * 4
GREEN = ["Forest"] * 17 + ["Grizzly Bears"] * 23

pytestmark = pytest.mark.usefixtures("reset_structlog")


@pytest.fixture(scope="module")
def played() -> tuple[LogHeader, list[Envelope]]:
    header = new_header(REG, ["Alice", "Bob"], [deck_lines(RED), deck_lines(GREEN)], 9,
                        meta={"max_turns": 40})
    g = run_from_header(REG, header, [HeuristicAgent(1), RandomAgent(2)])
    assert isinstance(g.log[-1].event, ev.GameEnded)
    return header, list(g.log)


def _write(tmp_path: Path, header: LogHeader, envs: list[Envelope],
           name: str = "g.mtgk") -> Path:
    path = tmp_path / name
    write_log(path, header, envs)
    return path


def test_verify_help_documents_the_exit_statuses() -> None:
    code, out, _ = run("verify", "--help")
    assert code == 0
    text = " ".join(out.split())
    for what in ("exit status: 0", "3 every event verified, but the log stops before the end",
                 "1 it did not verify", "2 bad usage"):
        assert what in text, what


def test_a_whole_game_exits_0(played: tuple[LogHeader, list[Envelope]],
                              tmp_path: Path) -> None:
    code, out, _ = run("verify", _write(tmp_path, *played))
    assert code == 0 and out.splitlines()[-1] == f"OK: {len(played[1])} events verified"


@pytest.mark.parametrize("keep", [1, 2, 150, -1])
def test_a_log_cut_at_a_record_boundary_is_incomplete(
        played: tuple[LogHeader, list[Envelope]], tmp_path: Path, keep: int) -> None:
    header, envs = played
    cut = envs[:keep]
    code, out, _ = run("verify", _write(tmp_path, header, cut))
    assert code == 3, out
    assert out.splitlines()[-1].startswith(
        f"INCOMPLETE: the {len(cut)} events verified, but the log stops before the game's end")


def test_a_log_cut_just_before_a_decision_is_incomplete_too(
        played: tuple[LogHeader, list[Envelope]], tmp_path: Path) -> None:
    header, envs = played
    at = next(e.seq for e in envs[100:] if isinstance(e.event, ev.DecisionMade))
    code, out, _ = run("verify", _write(tmp_path, header, envs[:at]))
    assert code == 3 and "INCOMPLETE" in out


def test_a_header_only_log_says_so_once(played: tuple[LogHeader, list[Envelope]],
                                        tmp_path: Path) -> None:
    code, out, _ = run("verify", _write(tmp_path, played[0], []))
    assert code == 3
    assert out.splitlines() == ["INCOMPLETE: the log has no events, only its header: the game "
                                "stopped before it began"]
    assert "FAILED" not in out and "folding" not in out


def test_a_game_log_relabelled_as_a_scenario_does_not_verify(
        played: tuple[LogHeader, list[Envelope]], tmp_path: Path) -> None:
    """Relabelled, the pre-game events would be emitted as recorded: a card swapped in the
    deck would go unnoticed.  A scenario log has no decks and a setup of setup events."""
    header, envs = played
    swapped = list(envs)
    first = next(e for e in envs if isinstance(e.event, ev.ObjectCreated)
                 and e.event.card == "Mountain")
    swapped[first.seq] = Envelope(first.seq, first.cause, msgspec.structs.replace(
        first.event, card="Lightning Bolt"))
    assert not verify(header, swapped, REG).ok  # as a game log: the swap is found
    as_scenario = msgspec.structs.replace(header, meta={**header.meta, "scenario": "x"})
    code, out, _ = run("verify", _write(tmp_path, as_scenario, swapped))
    assert code == 1 and "FAILED: not a scenario log: the header lists decks" in out
    no_decks = msgspec.structs.replace(as_scenario, decks=[])
    code, out, _ = run("verify", _write(tmp_path, no_decks, swapped))
    assert code == 1
    assert "FAILED: not a scenario log: event 1: a scenario's setup starts with TurnBegan" in out
    report = verify(msgspec.structs.replace(no_decks, meta={"kind": "scenario"}), swapped, REG)
    assert not report.ok and "names no scenario" in report.summary() + str(report.problems)


def test_an_unknown_kind_is_not_verified(played: tuple[LogHeader, list[Envelope]],
                                         tmp_path: Path) -> None:
    header, envs = played
    odd = msgspec.structs.replace(header, meta={**header.meta, "kind": "puzzle"})
    code, out, _ = run("verify", _write(tmp_path, odd, envs))
    assert code == 1
    assert out.splitlines()[-1].startswith("NOT VERIFIED: no re-runner is registered for "
                                           "'puzzle' logs")


def test_setup_events_must_have_no_cause(tmp_path: Path) -> None:
    from mtgk.scenario.logs import ScenarioLogs
    from mtgk.scenario.play import run_scenario
    from mtgk.scenario.reader import loads_scenarios

    sc = loads_scenarios("""
name: bears
players:
  alice: {battlefield: [Mountain, Grizzly Bears], hand: [Shock]}
  bob: {battlefield: [Grizzly Bears]}
actions:
  - {player: alice, cast: Shock, targets: [bob]}
  - {resolve: all}
expect:
  - {player: bob, life: 18}
""")[0]
    result = run_scenario(sc, REG)
    assert result.passed, result.reason
    path = ScenarioLogs(tmp_path).write(result, REG)
    assert path is not None
    assert run("verify", path)[0] == 0
    log = read_log(path)
    envs = list(log.envelopes)
    envs[3] = Envelope(3, 1, envs[3].event)
    code, out, _ = run("verify", _write(tmp_path, log.header, envs, "caused.mtgk"))
    assert code == 1 and "event 3: the setup event ObjectCreated has cause 1" in out
    code, out, _ = run("verify", _write(tmp_path, log.header, log.envelopes[:-3], "cut.mtgk"))
    assert code == 3
    assert f"the header says the scenario ended after {len(envs)} events" in out


def test_odd_headers_and_numbers_get_one_line_not_a_traceback(
        played: tuple[LogHeader, list[Envelope]], tmp_path: Path) -> None:
    header, envs = played
    huge = _write(tmp_path, msgspec.structs.replace(header, kernel_version="9" * 10_000), envs)
    for argv in (["log", huge], ["replay", huge, "--at", 5], ["verify", huge]):
        code, out, err = run(*argv)
        assert code == 0 and out, argv
        assert all(len(line) < 300 for line in (out + err).splitlines() if "9999" in line)
    jsonl = tmp_path / "g.jsonl"
    code, out, _ = run("log", _write(tmp_path, header, envs), "--json")
    lines = out.splitlines()
    lines[8] = re.sub(r'"obj":\d+', f'"obj":{2**70}', lines[8], count=1)
    assert str(2**70) in lines[8]
    jsonl.write_text("\n".join(lines) + "\n")
    code, out, err = run("replay", jsonl, "--at", 20)  # (broken before 20: the damaged status)
    assert code == 1 and "holds an integer outside the range a log stores" in err
    code, out, err = run("verify", jsonl)
    assert code == 1 and "FAILED" in out and "record 7" in out
    newer = FORMAT_VERSION + 1
    lines[0] = lines[0].replace(f'"format":{FORMAT_VERSION}', f'"format":{newer}')
    jsonl.write_text("\n".join(lines) + "\n")
    code, out, err = run("verify", jsonl)
    assert code == 2 and "newer version of mtgk" in err and f"format {newer}" in err


def test_scenario_logs_written_before_the_header_said_how_still_verify(tmp_path: Path) -> None:
    """`mtgk scenario --log` wrote no meta.scenario_setup/scenario_end before: such a log
    of the current runner re-runs the older way first, diverges, then the current way."""
    from mtgk.scenario.logs import scenario_log_header
    from mtgk.scenario.play import run_scenario
    from mtgk.scenario.reader import loads_scenarios

    # a set-up Saga: re-run the older way (setup outside setting_up), its chapter triggers,
    # so the older way diverges and the current one is tried
    [sc] = loads_scenarios("""
name: unmarked
players:
  alice:
    battlefield: [Nexus Wardens, {card: "Gadwick's First Duel", counters: {lore: 2}}]
    library: [Island, Forest]
  bob: {}
actions:
  - check: [{stack_size: 0}]
""", known_card=lambda n: n in REG)
    result = run_scenario(sc, REG)
    header = scenario_log_header(result, REG)
    old = msgspec.structs.replace(header, meta={"scenario": "unmarked", "file": "x.yaml"})
    report = verify(old, result.log, REG)
    assert report.verified, report.summary()
    assert any("meta.scenario_setup" in note for note in report.notes)
    assert verify(header, result.log, REG).notes == []
