"""``mtgk sim`` when a game takes its process down or never ends: the game is recorded as
failed with the reason, the run goes on, and the exit status is 1 -- with one worker or
several.  ``mtgk`` runs in a subprocess here (with a time limit, so that a hang is a
failure, not a hung test run); the misbehaving cards are in tests/misbehaving.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from mtgk.cards.loading import load_registry
from mtgk.games.replay import verify
from mtgk.log.logfile import decode_log
from mtgk.tools.store import open_store
from tests import misbehaving

ROOT = Path(__file__).resolve().parents[1]


def mtgk(where: Path, *args: object, limit: float = 120,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``mtgk`` in a new process that has the misbehaving set installed (and ``env``
    added to its environment)."""
    env = {**os.environ, **(env or {}),
           "PYTHONPATH": os.pathsep.join([str(where), str(ROOT)])}
    return subprocess.run([sys.executable, "-c", "import sys; from mtgk.tools.cli import main; "
                           "sys.exit(main())", *map(str, args)], cwd=where, env=env,
                          capture_output=True, text=True, timeout=limit)


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    misbehaving.install(tmp_path)
    (tmp_path / "mountain.txt").write_text("20 Mountain\n")
    return tmp_path


CASES = [
    ("Exit Land", 1, [], "the worker process playing the game died (exit status 3; a card "
                         "or plugin may have called os._exit)"),
    ("Sys Exit Land", 1, [], "SystemExit: something in the game called sys.exit(4)"),
    ("Segfault Land", 2, [], "the worker process playing the game died (killed by SIGSEGV)"),
    ("Sigkill Land", 1, [], "the worker process playing the game died (killed by SIGKILL; "
                            "the out-of-memory killer?)"),
    ("Spin Land", 1, ["--timeout", 1.5], "timed out: the game was still being played after "
                                         "1.5 s (--timeout)"),
]


@pytest.mark.parametrize(("card", "workers", "extra", "reason"), CASES,
                         ids=[f"{c[0]}-w{c[1]}" for c in CASES])
def test_a_game_that_takes_its_process_down_is_a_failed_game(
        pack: Path, card: str, workers: int, extra: list[object], reason: str) -> None:
    (pack / "bad.txt").write_text(f"20 {card}\n")
    db = pack / "games.db"
    res = mtgk(pack, "sim", "-n", 2, "-w", workers, "--seed", 1, "--decks", "bad.txt",
               "mountain.txt", "--max-turns", 4, "--db", db, *extra)
    assert res.returncode == 1, res.stderr
    assert res.stderr.splitlines() == [f"mtgk: game {i} failed: {reason}" for i in (0, 1)]
    assert "2 without a result, 2 failed (below)" in res.stdout
    with open_store(db, must_exist=True) as store:
        records = store.list()
        assert sorted(r.sim_game for r in records) == [0, 1]  # ... and every game is stored
        assert all(r.error == reason and r.winner is None for r in records)


def test_the_run_goes_on_after_a_dead_worker(pack: Path) -> None:
    """Two Exit Lands, the deck's only lands: the games where one is drawn (and played)
    fail, the others are whole games that verify."""
    (pack / "risky.txt").write_text("2 Exit Land\n18 Gray Ogre\n")
    db = pack / "games.db"
    res = mtgk(pack, "sim", "-n", 6, "-w", 2, "--seed", 1, "--decks", "risky.txt",
               "mountain.txt", "--max-turns", 2, "--db", db, "--json")
    assert res.returncode == 1, res.stderr
    reg = load_registry(extra=[("misbehave", misbehaving)])
    with open_store(db, must_exist=True) as store:
        records = store.list()
        assert sorted(r.sim_game for r in records) == list(range(6))
        failed = [r for r in records if r.error]
        whole = [r for r in records if not r.error]
        assert failed and whole, "the seed should give both kinds of game"
        assert all("died (exit status 3" in (r.error or "") for r in failed)
        for r in whole:
            g = store.get(r.id)
            assert g is not None and r.winner is not None
            lf = decode_log(g.log)
            assert verify(lf.header, lf.envelopes, reg).ok
    assert len(res.stderr.splitlines()) == len(failed)


def test_a_worker_that_cannot_load_the_card_sets_stops_the_run(pack: Path) -> None:
    """A set that loads in the main process but fails in the workers: reported in one
    line (exit status 1), not a hang or a traceback."""
    (pack / "worker_shy.py").write_text(
        "import multiprocessing\n"
        "if multiprocessing.parent_process() is not None:\n"
        "    raise RuntimeError('boom in a worker')\n"
        "from tests.misbehaving import mtgk_cardsets  # noqa: F401\n")
    info = pack / "mtgk_misbehave-0.0.1.dist-info" / "entry_points.txt"
    info.write_text("[mtgk.cardsets]\nmisbehave = worker_shy\n")
    res = mtgk(pack, "sim", "-n", 2, "-w", 1, "--seed", 1, "--decks", "mountain.txt",
               "--max-turns", 2, "--db", "x.db")
    assert res.returncode == 1, res.stderr
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr
    assert res.stderr.startswith("mtgk: error: a worker process loaded other card sets")
