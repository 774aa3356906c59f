"""`mtgk upgrade OLD --out NEW`: an old log's decisions re-run under today's rules into a
new log, with where the two games part and the decisions that no longer apply."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from mtgk.cards.loading import load_registry
from mtgk.log import events as ev
from mtgk.log.logfile import read_jsonl, read_log, write_jsonl
from mtgk.tools.upgrade import upgrade
from tests.conftest import run_mtgk as run
from tests.test_archive import ARCHIVE, LOGS

REG = load_registry()

pytestmark = pytest.mark.usefixtures("reset_structlog")


def _read(path: Path):  # type: ignore[no-untyped-def]
    return read_jsonl(path, strict=True) if path.suffix == ".jsonl" else read_log(
        path, strict=True)


def _verdict(name: str) -> str:
    """The archived verdict of log ``name`` (tests/archive/VERDICTS.txt)."""
    for line in (ARCHIVE / "VERDICTS.txt").read_text().splitlines():
        if line.split() and line.split()[0] == name:
            return line.split()[1]
    raise KeyError(name)


@pytest.mark.parametrize("name", LOGS)
def test_every_archived_log_upgrades_to_a_log_that_verifies(name: str, tmp_path: Path) -> None:
    new = tmp_path / "new.mtgk"
    code, out, err = run("upgrade", ARCHIVE / name, "--out", new, "--json")
    assert code == 0, err
    obj = json.loads(out)
    old = _read(ARCHIVE / name)
    assert obj["decisions"] == obj["applied"] and obj["dropped"] is None
    if name.startswith("e0f947f/"):  # causes changed since: the games part at once
        assert obj["first_difference"]["seq"] > 0
        assert "cause" in obj["first_difference"]["reason"]
        assert obj["written_by"]["rules_revision"] == 0
    elif _verdict(name) == "ok":  # (the rules that wrote it still run)
        assert obj["first_difference"] is None and obj["events"] == len(old.envelopes)
    else:  # written by rules since changed (tests/archive/VERDICTS.txt): they part
        assert obj["first_difference"]["seq"] > 0
    code, out, err = run("verify", new)
    assert code == 0, out + err
    lf = read_log(new, strict=True)
    up = lf.header.meta["upgraded_from"]
    assert up["file"] == str(ARCHIVE / name)
    assert up["rules_revision"] == (2 if name.startswith("93154b3/") else 0)  # (0: none)
    assert lf.header.rules_revision >= 1


def test_the_summary_says_where_the_games_part(tmp_path: Path) -> None:
    code, out, err = run("upgrade", ARCHIVE / "e0f947f/game-s7.mtgk", "--out",
                         tmp_path / "new.mtgk")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("upgraded ")
    assert "the two games first differ at event 83: DecisionMade has cause -1" in out
    assert "  old: 83 Bob plays first  (no cause)" in lines
    assert "  new: 83 Bob plays first  (caused by event 0)" in lines
    assert "decisions: all 42 recorded decisions apply" in lines


def test_a_recorded_decision_that_no_longer_applies_is_where_agents_play_on(
        tmp_path: Path) -> None:
    """A priority decision the engine now refuses (here: casting an object not in the
    game) is reported, and the agents play the game on to its end."""
    lf = read_log(ARCHIVE / "f690e4e/game-s7.mtgk", strict=True)
    envs = list(lf.envelopes)
    i, env = next((i, e) for i, e in enumerate(envs) if i > 200
                  and isinstance(e.event, ev.DecisionMade) and e.event.kind == "priority"
                  and e.event.player >= 0)
    assert isinstance(env.event, ev.DecisionMade)
    bad = msgspec.structs.replace(env.event, choice=["cast", 99999, [], [], 0, ""])
    envs[i] = ev.Envelope(env.seq, env.cause, bad)
    old = tmp_path / "old.jsonl"
    write_jsonl(old, lf.header, envs)
    res = upgrade(REG, lf.header, envs, agents=[_Agent(), _Agent()])
    assert res.dropped is not None and res.dropped.seq == i
    assert "refuses the recorded priority answer" in res.dropped.why
    assert res.game.state.over
    code, out, err = run("upgrade", old, "--out", tmp_path / "new.mtgk")
    assert code == 0, err
    assert f"the one at event {i} of the old log no longer does" in out
    assert "agents played on: heuristic" in out
    code, out, err = run("verify", tmp_path / "new.mtgk")
    assert code == 0, out + err


class _Agent:
    def __init__(self) -> None:
        from mtgk.agents import HeuristicAgent
        self.inner = HeuristicAgent(1)

    def decide(self, game, d):  # type: ignore[no-untyped-def]
        return self.inner.decide(game, d)


def test_upgrade_refuses_a_damaged_log(tmp_path: Path) -> None:
    data = bytearray((ARCHIVE / "e0f947f/game-s7.mtgk").read_bytes())
    data[len(data) // 2] ^= 0x55
    bad = tmp_path / "bad.mtgk"
    bad.write_bytes(bytes(data))
    code, _, err = run("upgrade", bad, "--out", tmp_path / "new.mtgk")
    assert code != 0 and "damaged" in err
    assert not (tmp_path / "new.mtgk").exists()
