"""``mtgk sim --backend ray``: the games as Ray tasks on a local Ray instance.

One run on a local cluster (Ray takes seconds to start): a deck whose lands end the
process (tests/misbehaving.py) against a built-in deck.  Games where Exit Land enters
fail twice (the retry) and are recorded as failed with the reason; a game where Once Exit
Land enters dies the first time only, so its retry plays it whole; every stored log is
byte-identical to ``--workers 1`` of the process pool, and the ids follow the game order.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mtgk.tools.store import open_store
from tests import misbehaving
from tests.conftest import run_mtgk
from tests.test_sim_failures import mtgk

DECKS = ["bad.txt", "Lorwyn Kithkin & Faerie Flyers"]


@pytest.fixture
def pack(tmp_path: Path) -> Path:
    misbehaving.install(tmp_path)
    (tmp_path / "bad.txt").write_text("1 Exit Land\n1 Once Exit Land\n18 Gray Ogre\n")
    return tmp_path


def test_without_ray_one_line_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                   tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    code, out, err = run_mtgk("sim", "-n", 1, "--backend", "ray", "--db", tmp_path / "x.db")
    assert code == 2 and out == ""
    assert err == ('mtgk: error: the ray backend needs Ray: install mtgk[ray] '
                   '(pip install "mtgk[ray]")\n')
    assert not (tmp_path / "x.db").exists()


def test_address_is_for_the_ray_backend(tmp_path: Path) -> None:
    code, _, err = run_mtgk("sim", "-n", 1, "--address", "auto", "--db", tmp_path / "x.db")
    assert code == 2 and err == "mtgk: error: --address is for --backend ray\n"


def test_ray_on_a_local_cluster_matches_the_process_pool(pack: Path) -> None:
    pytest.importorskip("ray")
    mark = pack / "died-once"
    env = {misbehaving.ONCE_MARK: str(mark)}
    args = ["sim", "-n", 6, "-w", 2, "--seed", 1, "--decks", *DECKS, "--max-turns", 5]
    res = mtgk(pack, *args, "--backend", "ray", "--db", pack / "ray.db", env=env, limit=240)
    reason = ("the Ray worker process playing the game died (WorkerCrashedError; a card or "
              "plugin may have called os._exit, or the out-of-memory killer); the game was "
              "tried twice")
    assert res.returncode == 1, res.stderr
    assert res.stderr.splitlines() == [f"mtgk: game {i} failed: {reason}" for i in (1, 4)]
    assert "workers as Ray tasks" in res.stdout and "2 failed (below)" in res.stdout
    assert mark.exists(), "a worker died on Once Exit Land (and its game was retried)"
    # the process pool, Once Exit Land now harmless: the same logs, byte for byte
    res = mtgk(pack, *args[:4], 1, *args[5:], "--db", pack / "pool.db", env=env)
    assert res.returncode == 1, res.stderr
    with open_store(pack / "ray.db", must_exist=True) as a, \
            open_store(pack / "pool.db", must_exist=True) as b:
        ray_games, pool_games = a.list(), b.list()
        assert [r.sim_game for r in ray_games] == list(range(6))  # in game order
        assert [r.id for r in ray_games] == list(range(1, 7))
        assert [r.error is not None for r in ray_games] == [False, True, False, False, True,
                                                           False]
        pool_logs = {r.sim_game: b.get(r.id).log for r in pool_games}  # type: ignore[union-attr]
        for r in ray_games:
            g = a.get(r.id)
            assert g is not None and g.log == pool_logs[r.sim_game], r.sim_game


def test_a_cluster_that_does_not_answer_is_one_line(tmp_path: Path) -> None:
    """(Ray itself retries for minutes, printing warnings.)"""
    import socket

    pytest.importorskip("ray")
    with socket.socket() as s:  # a loopback port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code, out, err = run_mtgk("sim", "-n", 1, "--backend", "ray", "--address",
                              f"127.0.0.1:{port}", "--db", tmp_path / "x.db")
    assert (code, out) == (1, "")
    assert err.startswith(f"mtgk: error: cannot connect to the Ray cluster at 127.0.0.1:{port}: "
                          "nothing answers there") and err.count("\n") == 1
