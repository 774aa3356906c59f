"""A log on its file as the game goes (issue 29): the writer's checkpoint puts every event
appended so far on the file without ending its block, `mtgk play` checkpoints at each
decision, so a game killed at any moment loses at most the events since its last
decision -- and the finished file is byte for byte the one written without checkpoints."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtgk.cards.loading import load_registry
from mtgk.log.logfile import LogWriter, read_log
from mtgk.search import AGENTS
from mtgk.stepper import Stepper

ROOT = Path(__file__).resolve().parents[1]
GAME = read_log(ROOT / "tests" / "golden" / "game_walkers-v3.mtgk")


def _write(path: Path, plan: list[int], block: int, checkpoints: bool) -> list[int]:
    """Append the golden game's envelopes in runs of ``plan``'s lengths, checkpointing
    after each run if asked; returns how many envelopes the file held after each."""
    envs = GAME.envelopes
    w = LogWriter(path, GAME.header, block=block)
    seen: list[int] = []
    i = 0
    for n in plan:
        for env in envs[i:i + n]:
            w.append(env)
        i = min(len(envs), i + n)
        if checkpoints:
            w.checkpoint()
            seen.append(len(read_log(path, strict=True).envelopes))
    w.close()
    return seen


@settings(max_examples=40, deadline=None)
@given(plan=st.lists(st.integers(0, 40), min_size=1, max_size=25),
       block=st.sampled_from([1, 3, 8, 256]))
def test_a_checkpoint_puts_every_event_on_the_file(tmp_path_factory: pytest.TempPathFactory,
                                                   plan: list[int], block: int) -> None:
    tmp = tmp_path_factory.mktemp("ckpt")
    seen = _write(tmp / "a.mtgk", plan, block, checkpoints=True)
    total = len(GAME.envelopes)
    expected, i = [], 0
    for n in plan:
        i = min(total, i + n)
        expected.append(i)
    assert seen == expected  # the file holds everything appended, at every checkpoint
    _write(tmp / "b.mtgk", plan, block, checkpoints=False)
    assert (tmp / "a.mtgk").read_bytes() == (tmp / "b.mtgk").read_bytes()
    got = read_log(tmp / "a.mtgk", strict=True)
    assert [e.seq for e in got.envelopes] == list(range(min(total, sum(plan))))


def _play(out: Path, seed: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "mtgk", "play", "--seed", str(seed), "--agents", "random",
         "--max-turns", "200", "--out", str(out), "-q"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _decision_points(header: object) -> set[int]:
    """The numbers of events in the game before each of its decisions (its agents, made
    from the header as ``mtgk play`` made them, asked again in this process)."""
    points: set[int] = set()

    class Noting:
        def __init__(self, agent: object) -> None:
            self.agent = agent

        def decide(self, game: object, d: object) -> object:
            points.add(len(game.log))  # type: ignore[attr-defined]
            return self.agent.decide(game, d)  # type: ignore[attr-defined]

    meta = header.meta  # type: ignore[attr-defined]
    agents = [Noting(AGENTS[a["kind"]](a["seed"])) for a in meta["agents"]]
    Stepper(load_registry(), header, agents)  # type: ignore[arg-type]
    return points


def test_a_killed_game_loses_at_most_the_events_since_its_last_decision(tmp_path: Path
                                                                        ) -> None:
    """``mtgk play`` killed with SIGKILL at random moments: its file reads cleanly and
    holds the game's events up to a decision being asked (the event after it, in the
    whole game played again from the seed, is that decision)."""
    seed = 11
    whole = tmp_path / "whole.mtgk"
    began = time.monotonic()
    assert _play(whole, seed).wait(timeout=120) == 0
    took = time.monotonic() - began
    played = read_log(whole, strict=True)
    full = played.events
    asked = _decision_points(played.header)
    assert len(asked) > 100
    w = LogWriter(tmp_path / "empty.mtgk", read_log(whole).header)
    w.close()
    header_size = os.path.getsize(tmp_path / "empty.mtgk")  # the preamble alone
    assert len(full) > 300
    rng = random.Random(2)
    mid_game = 0
    for k in range(8):
        out = tmp_path / f"killed-{k}.mtgk"
        proc = _play(out, seed)
        # once the game has put its first events on the file, a random moment later
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline and not (
                out.exists() and os.path.getsize(out) > header_size):
            time.sleep(0.002)
        time.sleep(rng.random() * took / 4)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        if not out.exists() or os.path.getsize(out) == 0:
            continue  # killed before it opened the file
        got = read_log(out, strict=True).events
        n = len(got)
        assert got == full[:n]
        if 0 < n < len(full):
            mid_game += 1
            assert n in asked, f"the file stops at event {n}, where no decision was asked"
    assert mid_game >= 2, "too few kills landed in the game to tell"
