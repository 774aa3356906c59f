"""``mtgk sim --backend ray``: the games as Ray tasks on a local Ray instance.

One run on a local cluster that ``mtgk`` starts (Ray takes seconds to start): a deck whose
lands end the process (tests/misbehaving.py) against a built-in deck.  Games where Exit
Land enters fail twice (the retry) and are recorded as failed with the reason; a game
where Once Exit Land enters dies the first time only, so its retry plays it whole; every
stored log is byte-identical to ``--workers 1`` of the process pool, and the ids follow
the game order; the summary names every game played again, with why.  A run whose Ray
workers are slow to start (misbehaving.SLOW_LOAD) gets no game timed out by a --timeout
shorter than the start, and its --json lists the game re-run (``retried``).  Without Ray:
the task's own clock (:func:`mtgk.tools.sim_ray.play_timed`) and the run's bookkeeping of
re-run games.

Then runs on a cluster that is running already (``--address``): one local Ray instance for
the module, started by a process of its own as ``ray start --head`` would be, with the
misbehaving cards installed for its workers.  A run on it gives the pool's logs and leaves
the cluster running; a game where Spin Land enters (it never ends) is cancelled at
``--timeout``, recorded as timed out, and the run goes on (exit status 1).
"""

from __future__ import annotations

import json
import os
import secrets
import select
import socket
import subprocess
import sys
import time
from collections.abc import Generator, Iterator, Sequence
from pathlib import Path

import pytest

from mtgk.cards.definitions import Registry
from mtgk.cards.loading import load_registry
from mtgk.log.logfile import LogHeader
from mtgk.tools.sim import SimResult, plan, play_header, retried_note, run_sim
from mtgk.tools.sim_ray import play_timed
from mtgk.tools.store import open_store
from tests import misbehaving
from tests.conftest import run_mtgk
from tests.test_sim_failures import ROOT, mtgk

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


@pytest.mark.slow  # (a Ray cluster started and stopped: .ci/run runs it, pytest -m slow)
def test_ray_on_a_local_cluster_matches_the_process_pool(pack: Path) -> None:
    pytest.importorskip("ray")
    mark = pack / "died-once"
    # without --address a new local instance, whatever RAY_ADDRESS says (Ray itself would
    # join that cluster, and refuse the instance's size: "num_cpus must not be provided")
    env = {misbehaving.ONCE_MARK: str(mark), "RAY_ADDRESS": "127.0.0.1:9"}
    args = ["sim", "-n", 6, "-w", 2, "--seed", 1, "--decks", *DECKS, "--max-turns", 5]
    res = mtgk(pack, *args, "--backend", "ray", "--db", pack / "ray.db", env=env, limit=240)
    reason = ("the Ray worker process playing the game died (WorkerCrashedError; a card or "
              "plugin may have called os._exit, or the out-of-memory killer); the game was "
              "tried twice")
    assert res.returncode == 1, res.stderr
    # (the games whose decks play Exit Land: 1, 3 and 4 since the rules of issue 23 --
    # mulligans in rounds, cast triggers after costs -- changed the games' courses)
    assert res.stderr.splitlines() == [f"mtgk: game {i} failed: {reason}" for i in (1, 3, 4)]
    assert "workers as Ray tasks" in res.stdout and "3 failed (below)" in res.stdout
    assert mark.exists(), "a worker died on Once Exit Land (and its game was retried)"
    # every game played again is named in the summary, with why its first attempt failed
    # (games 1, 3 and 4 failed twice; the one where Once Exit Land entered first, once)
    crash = reason.removesuffix("; the game was tried twice")
    rerun = [ln for ln in res.stdout.splitlines() if " re-run: " in ln]
    assert len(rerun) == 1, res.stdout
    assert rerun[0].startswith("4 games re-run: games ") and rerun[0].endswith(f" ({crash})")
    assert {1, 3, 4} < {int(i) for i in rerun[0][22:-len(crash) - 3].split(", ")}
    # the process pool, Once Exit Land now harmless: the same logs, byte for byte
    res = mtgk(pack, *args[:4], 1, *args[5:], "--db", pack / "pool.db", env=env)
    assert res.returncode == 1, res.stderr
    with open_store(pack / "ray.db", must_exist=True) as a, \
            open_store(pack / "pool.db", must_exist=True) as b:
        ray_games, pool_games = a.list(), b.list()
        assert [r.sim_game for r in ray_games] == list(range(6))  # in game order
        assert [r.id for r in ray_games] == list(range(1, 7))
        assert [r.error is not None for r in ray_games] == [False, True, False, True, True,
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


def test_a_cluster_that_wants_a_token_is_named_in_the_error(monkeypatch: pytest.MonkeyPatch,
                                                             tmp_path: Path) -> None:
    """A cluster with token authentication refuses a driver with an explicit address and
    no RAY_AUTH_MODE=token (Ray retries for 20 s, then raises ConnectionError): the line
    says what to set.  (Ray's own init is replaced here, to keep the test fast.)"""
    ray = pytest.importorskip("ray")

    def refused(*args: object, **kwargs: object) -> None:
        raise ConnectionError("Failed to connect to Ray cluster at 127.0.0.1:1.")

    monkeypatch.setattr(ray, "init", refused)
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    with socket.socket() as s:  # something answers at the address
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        code, out, err = run_mtgk("sim", "-n", 1, "--backend", "ray", "--address",
                                  f"127.0.0.1:{port}", "--db", tmp_path / "x.db")
    assert (code, out) == (1, "")
    assert err == (f"mtgk: error: cannot connect to the Ray cluster at 127.0.0.1:{port}: "
                   "ConnectionError: Failed to connect to Ray cluster at 127.0.0.1:1. (a "
                   "cluster with token authentication, the default of recent Ray versions, "
                   "needs RAY_AUTH_MODE=token in this environment)\n")


def test_a_games_own_clock_stops_it() -> None:
    """The task's clock (play_timed): a game that spins is cut off ``timeout`` seconds after
    it starts to play; one that ends is its result.  (No Ray needed.)"""
    reg = load_registry(extra=[("misbehave", misbehaving)])
    [spin] = plan(reg, [["Spin Land"] * 20], ["spin"], 1, seed=1, max_turns=3)
    started = time.monotonic()
    assert play_timed(reg, spin, 0.5) == ("timedout", None)
    assert time.monotonic() - started < 30
    [calm] = plan(reg, [["Gray Ogre"] * 20], ["ogres"], 1, seed=1, max_turns=2)
    kind, result = play_timed(reg, calm, 60)
    assert kind == "done" and isinstance(result, SimResult) and result.error is None


def test_a_rerun_game_is_in_the_runs_result(tmp_path: Path) -> None:
    """A backend's result that says it was played again (SimResult.retried) is in the run's
    ``retried``, its --json and the summary's line.  (No Ray needed.)"""
    reg = load_registry()
    headers = plan(reg, [["Gray Ogre"] * 20], ["ogres"], 3, seed=1, max_turns=2)

    def backend(registry: Registry, hs: Sequence[LogHeader]
                ) -> Generator[SimResult, None, None]:
        for h in hs:
            r = play_header(registry, h)
            r.retried = "worker died" if r.index == 1 else None
            yield r

    with open_store(tmp_path / "x.db") as store:
        run = run_sim(reg, headers, store, backend=backend)
    assert run.retried == [(1, "worker died")] and not run.errors
    assert run.to_json()["retried"] == [{"game": 1, "reason": "worker died"}]
    assert retried_note(run.retried) == "1 game re-run: game 1 (worker died)"
    assert retried_note([(4, "b"), (2, "a")]) == "2 games re-run: game 2 (a), game 4 (b)"
    assert retried_note([(4, "a"), (2, "a")]) == "2 games re-run: games 2, 4 (a)"
    assert retried_note([]) == ""


SLOW_START = 8
"""Seconds a Ray worker of the slow-start run takes to load the card sets: twice its
--timeout (the clock starts when the game starts to play)."""


@pytest.mark.slow  # (a Ray cluster started and stopped: .ci/run runs it, pytest -m slow)
def test_a_rerun_is_reported_and_a_slow_worker_start_is_not_game_time(pack: Path) -> None:
    """Workers that take SLOW_START s to load the card sets (misbehaving.SLOW_LOAD), with a
    --timeout of half that: no game times out.  The first game to play Once Exit Land kills
    its worker and is played again (by a new worker, slow to start again): --json names
    it, with why, in ``retried``."""
    pytest.importorskip("ray")
    (pack / "once.txt").write_text("10 Once Exit Land\n10 Gray Ogre\n")
    mark = pack / "died-once"
    env = {misbehaving.ONCE_MARK: str(mark), misbehaving.SLOW_LOAD: str(SLOW_START)}
    res = mtgk(pack, "sim", "-n", 3, "-w", 1, "--seed", 1, "--decks", "once.txt",
               "Lorwyn Kithkin & Faerie Flyers", "--max-turns", 4, "--backend", "ray",
               "--timeout", SLOW_START // 2, "--db", pack / "ray.db", "--json", env=env,
               limit=300)
    assert res.returncode == 0, res.stderr
    assert mark.exists(), "a worker died on Once Exit Land"
    out = json.loads(res.stdout)
    assert out["errors"] == []
    reason = ("the Ray worker process playing the game died (WorkerCrashedError; a card or "
              "plugin may have called os._exit, or the out-of-memory killer)")
    assert [r["reason"] for r in out["retried"]] == [reason], out["retried"]
    assert out["retried"][0]["game"] in range(3)


# --------------------------------------------------------------------------
# a cluster that is running already: --address

HEAD = """\
import logging, sys
import ray
info = ray.init(address="local", num_cpus=2, include_dashboard=False,
                logging_level=logging.ERROR, log_to_driver=False)
print(info.address_info["gcs_address"], flush=True)
sys.stdin.read()  # until the test closes it
ray.shutdown()
"""
"""The head of the module's cluster: a new local Ray instance of 2 CPUs whose address is
printed; it runs until its standard input is closed, then stops every Ray process it
started."""


START_SECONDS = 120
"""How long the module's Ray head may take to start."""


class Cluster:
    """The module's running Ray instance: its address, the folder where the misbehaving
    set is installed for its workers, and the environment a driver needs to join it."""

    def __init__(self, where: Path) -> None:
        self.where = where
        # Ray 2.5x turns on token authentication for a new local instance; a driver given
        # an explicit address sends the token only with RAY_AUTH_MODE=token (one random
        # token for the module, so that nothing is read from or written to ~/.ray)
        self.env = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32)}
        self.err = open(where / "head.err", "w")  # noqa: SIM115 - closed by stop()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", HEAD], cwd=where, text=True, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=self.err,
            env={**os.environ, **self.env, "RAY_ADDRESS": "",
                 "PYTHONPATH": os.pathsep.join([str(where), str(ROOT)])})
        assert self.proc.stdout is not None
        # the address, once Ray is up (a head that hangs is a failure, not a hung test)
        up = select.select([self.proc.stdout], [], [], START_SECONDS)[0]
        self.address = self.proc.stdout.readline().strip() if up else ""
        if not self.address:
            self.stop()
            said = (self.where / "head.err").read_text(errors="replace")[-2000:]
            pytest.fail(f"the test's Ray head did not start in {START_SECONDS} s: {said}")

    def answers(self) -> bool:
        """Whether the head is still running and its address takes connections."""
        host, _, port = self.address.rpartition(":")
        try:
            with socket.create_connection((host, int(port)), timeout=5):
                pass
        except OSError:
            return False
        return self.proc.poll() is None

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()  # ray.shutdown() in the head
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        finally:
            assert self.proc.stdout is not None
            self.proc.stdout.close()
            self.err.close()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    pytest.importorskip("ray")
    where = tmp_path_factory.mktemp("ray-cluster")
    misbehaving.install(where)
    # Spin Land loops forever as it enters; with seed 2 only game 3 of 6 plays it
    (where / "spin.txt").write_text("2 Spin Land\n18 Gray Ogre\n")
    c = Cluster(where)
    try:
        yield c
    finally:
        c.stop()


def test_a_run_joins_a_running_cluster_and_leaves_it_running(cluster: Cluster,
                                                               tmp_path: Path) -> None:
    args = ["sim", "-n", 4, "-w", 2, "--seed", 5, "--max-turns", 6]
    ray_db, pool_db = tmp_path / "ray.db", tmp_path / "pool.db"
    res = mtgk(cluster.where, *args, "--backend", "ray", "--address", cluster.address,
               "--db", ray_db, "--json", env=cluster.env, limit=240)
    assert res.returncode == 0, res.stderr
    assert '"backend":"ray"' in res.stdout.replace(" ", "")
    assert cluster.answers(), "the run left the cluster it joined running"
    res = mtgk(cluster.where, *args[:4], 1, *args[5:], "--db", pool_db)
    assert res.returncode == 0, res.stderr
    with open_store(ray_db, must_exist=True) as a, open_store(pool_db, must_exist=True) as b:
        ours, theirs = a.list(), b.list()
        assert [r.sim_game for r in ours] == [0, 1, 2, 3]
        assert all(r.winner is not None and r.error is None for r in ours)
        for r, s in zip(ours, theirs, strict=True):
            g, h = a.get(r.id), b.get(s.id)
            assert g is not None and h is not None and g.log == h.log, r.sim_game


LIMIT = 12
"""The --timeout of the run with Spin Land: far above a real game's time on a loaded
machine (the clock is the task's, started when it begins to play: a new Ray worker's start
and loading of the card sets do not count)."""


def test_a_game_over_its_time_fails_and_the_run_goes_on(cluster: Cluster,
                                                        tmp_path: Path) -> None:
    db = tmp_path / "spin.db"
    started = time.monotonic()
    res = mtgk(cluster.where, "sim", "-n", 6, "-w", 2, "--seed", 2, "--decks", "spin.txt",
               "Lorwyn Kithkin & Faerie Flyers", "--max-turns", 5, "--backend", "ray",
               "--address", cluster.address, "--timeout", LIMIT, "--db", db, env=cluster.env,
               limit=240)
    took = time.monotonic() - started
    reason = f"timed out: the game was still being played after {LIMIT} s (--timeout)"
    assert res.returncode == 1, res.stderr
    # (which games play the spinning card depends on the games' course: not written here)
    lines = res.stderr.splitlines()
    assert lines and all(ln.startswith("mtgk: game ") and ln.endswith(f"failed: {reason}")
                         for ln in lines), lines
    failed = [int(ln.split()[2]) for ln in lines]
    assert f"{len(failed)} failed (below)" in res.stdout and "stored in" in res.stdout
    assert took < 120, f"{took:.0f} s: the spinning game was not cut off"
    with open_store(db, must_exist=True) as store:
        games = store.list()
    assert [r.sim_game for r in games] == list(range(6))  # the run went on, in game order
    assert [r.error for r in games] == [reason if i in failed else None for i in range(6)]
    assert [r.winner is not None for r in games] == [i not in failed for i in range(6)]
    assert all(games[i].events == 0 for i in failed)  # the header without events
    assert cluster.answers(), "cancelling the game left the cluster running"
