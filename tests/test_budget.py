"""The engine's event budget (``Game.max_events``, ``meta["max_events"]``) and the wall
clock of ``mtgk play --timeout``: a card that repeats something forever ends its game, in
a way the log records and a re-run reproduces, instead of hanging ``mtgk``."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from mtgk.agents import HeuristicAgent
from mtgk.cards.definitions import Registry
from mtgk.cards.loading import load_registry
from mtgk.games.replay import new_header, run_from_header, verify
from mtgk.log import events as ev
from mtgk.log.logfile import LogHeader, load_log
from mtgk.rules.engine import DEFAULT_MAX_EVENTS, Game
from mtgk.tools.store import game_facts, open_store
from tests import misbehaving
from tests.conftest import run_mtgk as run

pytestmark = pytest.mark.usefixtures("reset_structlog")


@pytest.fixture(scope="module")
def reg() -> Registry:
    r = load_registry(extra=[("misbehave", misbehaving)])
    assert "Long Flood Land" in r, r.failures
    return r


def _header(reg: Registry, deck: str, **meta: object) -> LogHeader:
    return new_header(reg, ["Ann", "Bob"], [[deck], ["20 Mountain"]], seed=1,
                      meta={"max_turns": 6, **meta})


def _play(reg: Registry, header: LogHeader) -> Game:
    return run_from_header(reg, header, [HeuristicAgent(2), HeuristicAgent(3)])


def test_a_game_with_too_many_events_ends_at_its_budget(reg: Registry) -> None:
    """Long Flood Land gains life 30,000 times: the budget of 2,000 ends the game first,
    with an event that says why; the library calls it a failure, not a draw."""
    header = _header(reg, "20 Long Flood Land", max_events=2000)
    game = _play(reg, header)
    assert len(game.log) == 2001
    assert game.log[-1].event == ev.GameEnded(winner=-1, reason="event-budget")
    assert sum(isinstance(e.event, ev.GameEnded) for e in game.log) == 1
    facts = game_facts(header, game.log)
    assert facts.winner is None and not facts.complete
    assert facts.error is not None and "event budget of 2000 events" in facts.error


def test_verify_applies_the_budget_of_the_header(reg: Registry) -> None:
    header = _header(reg, "20 Long Flood Land", max_events=2000)
    game = _play(reg, header)
    report = verify(header, game.log, reg)
    assert report.ok, report.summary()
    other = copy.deepcopy(header)
    other.meta["max_events"] = 2500  # a re-run with another budget goes on past event 2000
    assert not verify(other, game.log, reg).ok


def test_the_budget_counts_the_events_before_the_end(reg: Registry) -> None:
    """A game that ends by itself within the budget keeps its log byte for byte (the
    GameEnded that ends it is not cut); one event fewer of budget, and the budget ends it."""
    header = _header(reg, "20 Mountain")
    whole = _play(reg, header).log
    assert isinstance(whole[-1].event, ev.GameEnded) and whole[-1].event.reason == "turn-limit"
    n = len(whole)
    exact = _play(reg, _header(reg, "20 Mountain", max_events=n - 1)).log
    assert exact == whole
    cut = _play(reg, _header(reg, "20 Mountain", max_events=n - 2)).log
    assert cut[:-1] == whole[: n - 2]
    assert cut[-1].event == ev.GameEnded(winner=-1, reason="event-budget")


def test_a_header_without_a_budget_gets_the_default(reg: Registry) -> None:
    """Logs written before the budget existed read and re-run with the default, which
    is far above any real game (the longest reference game has 1,872 events)."""
    header = _header(reg, "20 Mountain")
    assert "max_events" not in header.meta
    game = _play(reg, header)
    assert game.max_events == DEFAULT_MAX_EVENTS >= 500 * 1872
    assert verify(header, game.log, reg).ok


@pytest.fixture
def pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The misbehaving set installed (for ``mtgk`` run in this process and its workers),
    and deck files of its cards in ``tmp_path``."""
    misbehaving.install(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in misbehaving.CARDS:
        (tmp_path / f"{name.split()[0].lower()}.txt").write_text(f"20 {name}\n")
    (tmp_path / "mountain.txt").write_text("20 Mountain\n")
    return tmp_path


def test_play_reports_the_budget_in_one_line(pack: Path) -> None:
    out = pack / "flood.mtgk"
    code, stdout, err = run("play", "--seed", 1, "--decks", pack / "flood.txt",
                            pack / "mountain.txt", "--max-events", 3000, "--out", out)
    assert code == 1
    assert err.splitlines() == [f"mtgk: error: the game reached its event budget of 3000 "
                                f"events (meta max_events; a card may repeat something "
                                f"forever); the log is in {out}"]
    lf = load_log(out)
    assert lf.header.meta["max_events"] == 3000 and len(lf.envelopes) == 3001
    assert lf.envelopes[-1].event == ev.GameEnded(winner=-1, reason="event-budget")
    assert run("verify", out)[0] == 0  # the re-run ends at the same event


def test_play_records_the_default_budget(pack: Path) -> None:
    out = pack / "plain.mtgk"
    assert run("play", "--seed", 2, "--decks", pack / "mountain.txt", "--max-turns", 2,
               "--out", out, "-q")[0] == 0
    assert load_log(out).header.meta["max_events"] == DEFAULT_MAX_EVENTS


def test_play_timeout_stops_a_card_that_loops_without_events(pack: Path) -> None:
    out = pack / "spin.mtgk"
    code, _, err = run("play", "--seed", 1, "--decks", pack / "spin.txt",
                       pack / "mountain.txt", "--timeout", 1, "--out", out)
    assert code == 1
    assert err.splitlines() == [f"mtgk: error: the game was still being played after 1 s "
                                f"(--timeout); the log so far is in {out}"]
    lf = load_log(out)  # every record written whole
    assert not lf.problems and lf.envelopes
    assert not any(isinstance(e.event, ev.GameEnded) for e in lf.envelopes)


def test_play_reports_a_card_calling_sys_exit(pack: Path) -> None:
    code, _, err = run("play", "--seed", 1, "--decks", pack / "sys.txt", pack / "mountain.txt",
                       "--out", pack / "x.mtgk")
    assert code == 1, err
    assert err.startswith("mtgk: error: the game stopped after") and "SystemExit: 4" in err


def test_sim_records_the_budget_as_a_failure(pack: Path) -> None:
    db = pack / "flood.db"
    code, out, err = run("sim", "-n", 2, "-w", 1, "--seed", 1, "--decks", pack / "flood.txt",
                         pack / "mountain.txt", "--max-events", 3000, "--db", db)
    assert code == 1
    assert [line.split(": ", 1)[1] for line in err.splitlines()] == [
        f"game {i} failed: the game reached its event budget of 3000 events (meta "
        "max_events; a card may repeat something forever)" for i in (0, 1)]
    assert "2 without a result, 2 failed" in out
    with open_store(db, must_exist=True) as store:
        records = store.list()
        assert [(r.events, r.winner) for r in records] == [(3001, None)] * 2
        assert all(r.error and "event budget" in r.error for r in records)
        g = store.get(records[0].id)
        assert g is not None
        header, envs = g.header_and_events()
        assert header.meta["max_events"] == 3000
        assert envs[-1].event == ev.GameEnded(winner=-1, reason="event-budget")
