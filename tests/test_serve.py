"""Tests for ``mtgk serve`` (mtgk.tools.serve): a person plays in the browser.

The server runs in-process on port 0 in a thread.  Whole games are played through its
HTTP API by posting answers (two players, a free-for-all, Two-Headed Giant), and the
saved log verifies; every response is checked against what the person's seat may see
(the viewer's perspective ``--as``: the same state map, the same event texts, no name
of a card they have not seen); errors are one line of JSON.  The browser test plays a
whole two-player game in a headless Chromium with the mouse (skipped, saying why, when
selenium, Chromium or chromedriver is missing, as the viewer's are); with
``MTGK_SCREENSHOT`` set it saves ``docs/serve.png`` (or the path the variable names).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from mtgk.agents import HeuristicAgent
from mtgk.cards.decks import deck_lines, parse_deck
from mtgk.cards.definitions import Registry
from mtgk.log.logfile import read_log
from mtgk.menus import MORE, AssignMenu, SeatView
from mtgk.render import Renderer
from mtgk.rules.engine import Decision
from mtgk.rules.visibility import Perspective
from mtgk.tools.cli_base import seat_names
from mtgk.tools.serve import GameServer, game_header, make_server
from mtgk.tools.viewer import viewer_data
from tests.conftest import headless_chromium
from tests.conftest import run_mtgk as run
from tests.test_viewer import frame

ROOT = Path(__file__).resolve().parents[1]

# decks with no card name in common: a name of the opponent's on the page is one of theirs
JACE = ("9 Island\n9 Plains\n4 Jace Beleren\n4 Wizened Cenn\n4 Knight of Meadowgrain\n"
        "4 Kinsbaile Skirmisher\n6 Goldmeadow Harrier\n")
RED = "17 Mountain\n19 Gray Ogre\n4 Shock\n"


@contextmanager
def served(registry: Registry, path: Path, seed: int = 3, players: list[str] | None = None,
           variant: str | None = None, decks: tuple[str, ...] = (JACE, RED),
           max_turns: int = 40, opponent: str = "heuristic") -> Iterator[Client]:
    args = argparse.Namespace(players=players, variant=variant, attack="multiple",
                              opponent=opponent, max_turns=max_turns, max_events=200_000)
    seat_names(args)
    n = len(args.players)
    lists = [deck_lines(parse_deck(decks[i % len(decks)], registry)) for i in range(n)]
    names = [f"deck{i % len(decks)}" for i in range(n)]
    header, makers = game_header(registry, names, lists, seed, args)
    srv = make_server(registry, header, makers, str(path))
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield Client(srv)
    finally:
        srv.shutdown()
        srv.server_close()
        srv.games.stop()


class Client:
    """The page's side of the protocol, in Python."""

    def __init__(self, srv: GameServer) -> None:
        self.srv = srv
        self.url = srv.url
        self.raw: list[bytes] = []  # every response body
        self.events: list[str] = []
        self.state: dict[str, Any] = self.get("/api/state?since=0&epoch=-1")

    def _fold(self, data: dict[str, Any]) -> dict[str, Any]:
        ev = data["events"]
        if ev["from"] == 0:
            self.events = []
        assert ev["from"] == len(self.events), (ev["from"], len(self.events))
        self.events += ev["lines"]
        assert len(self.events) == data["total"]
        self.state = data
        return data

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, dict[str, Any]]:
        data = None if body is None else (body if isinstance(body, bytes)
                                          else json.dumps(body).encode())
        req = urllib.request.Request(self.url + path.lstrip("/"), data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                raw, status = r.read(), r.status
        except urllib.error.HTTPError as exc:
            raw, status = exc.read(), exc.code
        self.raw.append(raw)
        return status, json.loads(raw)

    def get(self, path: str) -> dict[str, Any]:
        status, data = self.request("GET", path)
        assert status == 200, data
        return self._fold(data)

    def post(self, path: str, **body: Any) -> dict[str, Any]:
        body = {"since": len(self.events), "epoch": self.state["epoch"],
                "version": self.state["version"], **body}
        status, data = self.request("POST", path, body)
        assert status == 200, data
        return self._fold(data)

    def answer(self, i: int) -> dict[str, Any]:
        return self.post("/api/answer", choice=i)


def policy(rng: random.Random, d: dict[str, Any]) -> int:
    """Mostly play lands, cast spells and attack; else a random choice."""
    want = [c["i"] for c in d["choices"] if c["kind"] in ("play", "cast", "attack")]
    if want and rng.random() < 0.8:
        return rng.choice(want)
    return rng.randrange(len(d["choices"]))


def play_out(c: Client, seed: int, limit: int = 3000) -> set[str]:
    rng = random.Random(seed)
    kinds: set[str] = set()
    for _ in range(limit):
        d = c.state["decision"]
        if d is None:
            break
        kinds.add(d["kind"])
        c.answer(policy(rng, d))
    assert c.state["over"] and c.state["decision"] is None, "the game did not end"
    return kinds


def check_log(path: Path, c: Client) -> None:
    code, out, err = run("verify", path)
    assert code == 0, (out, err)
    assert "verified" in out
    assert len(read_log(path).envelopes) == len(c.events)


# --------------------------------------------------------------------------
# whole games through the API


def test_a_whole_game_through_the_api(registry: Registry, tmp_path: Path) -> None:
    log = tmp_path / "game.mtgk"
    with served(registry, log) as c:
        assert c.state["decision"] is not None and c.state["you"] == 0
        kinds = play_out(c, 1)
        assert {"mulligan", "priority", "attackers"} <= kinds | {"mulligan"}
        assert c.state["result"].endswith(")") or "won" in c.state["result"]
        assert "seed" not in c.state
    check_log(log, c)
    code, out, err = run("view", log, "--out", tmp_path / "game.html")
    assert code == 0, err


@pytest.mark.parametrize("players,variant", [(["Ann", "Bob", "Cid"], None),
                                             (None, "two-headed-giant")],
                         ids=["free-for-all", "two-headed-giant"])
def test_multiplayer_games_through_the_api(registry: Registry, tmp_path: Path,
                                           players: list[str] | None, variant: str | None
                                           ) -> None:
    log = tmp_path / "game.mtgk"
    with served(registry, log, seed=5, players=players, variant=variant, max_turns=30) as c:
        assert len(c.state["players"]) == (3 if players else 4)
        if variant:
            assert c.state["teams"] == [[0, 2], [1, 3]]
        play_out(c, 2)
    check_log(log, c)
    header = read_log(log).header
    kinds = [a["kind"] for a in header.meta["agents"]]
    assert kinds[0] == "human" and "human" not in kinds[1:]


def test_the_search_agent_as_the_opponent(registry: Registry, tmp_path: Path) -> None:
    log = tmp_path / "game.mtgk"
    with served(registry, log, seed=2, opponent="search", max_turns=8) as c:
        play_out(c, 3)
    check_log(log, c)
    assert read_log(log).header.meta["agents"][1]["kind"] == "mcts"


def test_undo_and_back(registry: Registry, tmp_path: Path) -> None:
    log = tmp_path / "game.mtgk"
    with served(registry, log, seed=4) as c:
        assert not c.state["can_undo"]
        status, data = c.request("POST", "/api/undo", {})
        assert status == 409 and "nothing to undo" in data["error"]
        rng = random.Random(3)
        while c.state["decision"] and (c.state["total"] < 200 or c.state["decision"]["step"]):
            c.answer(policy(rng, c.state["decision"]))
        assert c.state["can_undo"]
        before, epoch = c.state["decision"], c.state["epoch"]
        c.answer(policy(rng, before))
        while c.state["decision"] and c.state["decision"]["step"]:  # (its further menus)
            c.answer(policy(rng, c.state["decision"]))
        n_after = c.state["total"]
        c.post("/api/undo")
        assert c.state["epoch"] == epoch + 1 and "undone" in c.state["message"]
        assert c.state["decision"]["kind"] == before["kind"]
        assert [x["label"] for x in c.state["decision"]["choices"]] == \
            [x["label"] for x in before["choices"]]
        assert c.state["total"] <= n_after
        if c.state["can_undo"]:  # and once more: two decisions back
            c.post("/api/undo")
            assert c.state["epoch"] == epoch + 2 and c.state["decision"]
        # a decision asked in several menus (attackers one by one, a spell's ways): back
        # takes its last pick back
        backs = 0
        while c.state["decision"]:
            shown = c.state["decision"]
            c.answer(policy(rng, shown))
            d = c.state["decision"]
            if d and d["can_back"] and backs < 3:
                c.post("/api/back")
                assert c.state["decision"]["choices"] == shown["choices"]
                assert c.state["decision"]["step"] == shown["step"]
                backs += 1
        assert backs
        play_out(c, 5)
    check_log(log, c)


def test_bad_requests_get_one_line_of_json(registry: Registry, tmp_path: Path) -> None:
    with served(registry, tmp_path / "game.mtgk") as c:
        cases = [("GET", "/nothing", None, 404), ("POST", "/api/answer", b"{not json", 400),
                 ("POST", "/api/answer", b"[1]", 400), ("POST", "/api/nothing", {}, 404),
                 ("POST", "/api/answer", {"choice": 999}, 400),
                 ("POST", "/api/answer", {"choice": "first"}, 400),
                 ("POST", "/api/answer", {"choice": 0, "version": -5}, 409),
                 ("GET", "/api/state?since=x", None, 400)]
        for method, path, body, status in cases:
            got, data = c.request(method, path, body)
            assert got == status, (path, body, data)
            assert set(data) == {"error"} and "\n" not in data["error"], data
            assert "Traceback" not in data["error"]
        status, page = 200, urllib.request.urlopen(c.url).read().decode()
        assert page.startswith("<!DOCTYPE html>") and "{{" not in page
        log = urllib.request.urlopen(c.url + "api/log").read()
        assert log.startswith(b"MTGK") or len(log) > 100


def test_a_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        code, out, err = run("serve", "--port", port, "--log", tmp_path / "g.mtgk", "--seed", 1)
    assert code == 2, (out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and f"port {port}" in lines[0] and "in use" in lines[0], err
    code, out, err = run("serve", "--port", 0, "--log", tmp_path / "no" / "such" / "g.mtgk")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "cannot write" in err, err
    code, out, err = run("serve", "--port", 70000)
    assert code == 2 and "--port" in err and "Traceback" not in err


# --------------------------------------------------------------------------
# hidden information


def test_the_page_is_sent_only_what_the_seat_may_see(registry: Registry, tmp_path: Path
                                                     ) -> None:
    log = tmp_path / "game.mtgk"
    theirs = {line.split(" ", 1)[1] for line in RED.strip().splitlines()}
    ours = {line.split(" ", 1)[1] for line in JACE.strip().splitlines()}
    assert not theirs & ours
    rng = random.Random(7)
    with served(registry, log, seed=8) as c:
        seen = SeatView(2)
        known: set[str] = set()  # the opponent's card names the person has seen
        first = c.raw[0].decode()
        assert not any(name in first for name in theirs), "an opponent's card before any play"
        checked = k = 0
        games = c.srv.games
        while True:
            envs = games.call(lambda: list(games.game.stepper.log))
            seen.catch_up(envs)
            for o in seen.state.objects.values():
                if o.owner == 1 and seen.seen[0].sees(o):
                    known.add(registry.token_name(o.card))
            c.request("GET", f"/api/events?since=0&epoch={c.state['epoch']}")
            c.request("GET", "/api/state?since=0&epoch=-1")
            body = b"".join(c.raw[k:]).decode()  # every response since the last look
            k = len(c.raw)
            for name in theirs - known:
                assert name not in body, f"{name} is in a response before Alice saw one"
            if checked % 10 == 0 or c.state["decision"] is None:
                same_as_the_viewer(c, registry, envs)
            checked += 1
            d = c.state["decision"]
            if d is None:
                break
            c.answer(policy(rng, d))
    assert checked > 10


def same_as_the_viewer(c: Client, registry: Registry, envs: list[Any]) -> None:
    """The served state is the viewer's ``--as`` perspective at the last event; the event
    texts are the renderer's for that player (numbered, as the terminal game's)."""
    header = read_log(Path(c.state["log"])).header
    data = viewer_data(header, envs, registry, as_player=0)
    assert c.state["state"] == frame(data, 0, len(envs) - 1)
    r = Renderer(registry, as_player=0, numbered=True)
    texts = []
    for env in envs:
        texts.append(r.describe(env))
        r.advance(env)
    assert c.events == texts
    assert Perspective  # (the machinery the viewer's page is built with)


# --------------------------------------------------------------------------
# in a real browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with headless_chromium(window="1500,950", console=True) as driver:
        yield driver


def drawn(browser: Any, version: int) -> int:
    """Wait until the page has drawn a state other than ``version`` and is not busy; its
    version."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 60).until(lambda d: d.execute_script(
        "return document.body.dataset.ready === '1' && "
        "!document.body.classList.contains('busy') && "
        f"document.body.dataset.version !== '{version}'"))
    return int(browser.execute_script("return document.body.dataset.version"))


def test_browser_plays_a_whole_game_with_the_mouse(browser: Any, registry: Registry,
                                                   tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    log = tmp_path / "game.mtgk"
    rng = random.Random(11)
    shot = False
    with served(registry, log, seed=6) as c:
        browser.get(c.url)
        version = -1
        clicks = card_clicks = bf_clicks = 0
        stops_set = undone = False
        shot_turn = 0
        for _ in range(3000):
            version = drawn(browser, version)
            if browser.execute_script("return document.body.dataset.over") == "1":
                break
            turn = int(browser.execute_script("return document.body.dataset.turn"))
            if turn != shot_turn and 6 <= turn <= 12 and \
                    browser.find_elements(By.CSS_SELECTOR, "#bf-1 .perm"):
                if not shot:
                    check_board(browser)
                shot, shot_turn = True, turn
                if os.environ.get("MTGK_SCREENSHOT"):  # (the last one kept: a fuller board)
                    dest = os.environ["MTGK_SCREENSHOT"]
                    path = Path(dest) if dest.endswith(".png") else ROOT / "docs" / "serve.png"
                    path.parent.mkdir(parents=True, exist_ok=True)
                    assert browser.save_screenshot(str(path))
            if not stops_set:  # the stops: not asked in their upkeeps
                browser.find_element(By.CSS_SELECTOR, "#stops-box summary").click()
                browser.find_element(
                    By.CSS_SELECTOR, '#stops input[data-whose="theirs"][data-step="upkeep"]').click()
                browser.find_element(By.CSS_SELECTOR, "#stops-box summary").click()
                stops_set = True
                continue
            undo = browser.find_element(By.ID, "undo")
            if not undone and turn >= 3 and undo.is_enabled():
                undo.click()
                undone = True
                continue
            creatures = browser.find_elements(By.CSS_SELECTOR, "#bf-0 .perm.can")
            cards = browser.find_elements(By.CSS_SELECTOR, "#hand-0 .mini.can")
            if creatures and rng.random() < 0.6:
                creatures[0].click()  # an attacker: the click declares it
                lit = browser.find_elements(By.CSS_SELECTOR, "button.choice.lit")
                if lit:
                    lit[0].click()
                card_clicks += 1
                bf_clicks += 1
            elif cards and rng.random() < 0.7:
                cards[0].click()  # a card in the hand with one choice: the click picks it
                lit = browser.find_elements(By.CSS_SELECTOR, "button.choice.lit")
                if lit:  # several: they are lit, pick one of them
                    lit[0].click()
                card_clicks += 1
            else:
                buttons = browser.find_elements(By.CSS_SELECTOR, "#choices button.choice")
                assert buttons, browser.find_element(By.ID, "decision").text
                kinds = [b.get_attribute("class") for b in buttons]
                want = [i for i, k in enumerate(kinds) if {"attack", "play", "cast"} & set(k.split())]
                if "keep this hand" in browser.find_element(By.ID, "prompt").text:
                    want = [0]  # (keep: a game with cards on the table)
                i = rng.choice(want) if want and rng.random() < 0.8 else \
                    rng.randrange(len(buttons))
                buttons[i].click()
            clicks += 1
        assert browser.execute_script("return document.body.dataset.over") == "1"
        assert browser.find_element(By.ID, "result").text, "no result shown"
        shown = browser.execute_script(
            "return Array.from(document.querySelectorAll('#events .line')).map((e) => e.title)")
        assert shown == c.get("/api/state?since=0&epoch=-1")["events"]["lines"]
        errors = [m for m in browser.get_log("browser") if m.get("level") == "SEVERE"]
        assert not errors, errors
        assert c.state["stops"]["theirs"] == [x for x in c.state["steps"] if x != "upkeep"]
    assert shot and clicks > 10 and card_clicks > 0 and bf_clicks > 0 and undone, \
        (shot, clicks, card_clicks, bf_clicks, undone, turn)
    check_log(log, c)


def check_board(browser: Any) -> None:
    """The board's parts are on the page; tapped cards don't overlap their neighbours."""
    from selenium.webdriver.common.by import By

    for sel in ("#side-top #player-1", "#side-bottom #player-0", "#life-0", "#life-1",
                "#hand-0", "#bf-0", "#bf-1", "#stack-zone", "#events .line",
                "#decision #choices button.choice", "#library-1"):
        assert browser.find_elements(By.CSS_SELECTOR, sel), sel
    mine = browser.find_elements(By.CSS_SELECTOR, "#hand-0 .mini:not(.hidden)")
    assert all(m.get_attribute("title") for m in mine)  # card text on hover
    assert not browser.find_elements(By.CSS_SELECTOR, "#hand-1 .mini:not(.hidden)")
    boxes = browser.execute_script(
        "return Array.from(document.querySelectorAll('#table .row')).map((row) => "
        "Array.from(row.querySelectorAll('.perm')).map((e) => {"
        "const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];}));")
    for row in boxes:
        for i, a in enumerate(row):
            for b in row[i + 1:]:
                assert a[2] <= b[0] + 0.5 or b[2] <= a[0] + 0.5 or a[3] <= b[1] + 0.5 \
                    or b[3] <= a[1] + 0.5, (a, b)


# --------------------------------------------------------------------------
# damage assignment, the events as they happen, the command itself


def test_damage_assignment_is_asked_as_menus() -> None:
    class _G:
        def name(self, ref: int) -> str:
            return {5: "Elf", 6: "Ogre", -2: "Bob"}[ref]

    d = Decision("assign", 0, None, "assign 3 combat damage from Giant",
                 context={"attacker": 9, "default": [[5, 1], [6, 2]], "recipients": [5, 6, -2]})
    m = AssignMenu(_G(), d, _G().name)  # type: ignore[arg-type]
    assert [c.label for c in m.choices] == ["as the rules order it: 1 to Elf, 2 to Ogre",
                                            "assign it myself"]
    assert m.pick(0) == [[5, 1], [6, 2]]
    m = AssignMenu(_G(), d, _G().name)  # type: ignore[arg-type]
    assert m.pick(1) is MORE and [c.label for c in m.choices] == [
        "0 to Elf", "1 to Elf", "2 to Elf", "3 to Elf"]
    assert m.pick(2) is MORE and [c.label for c in m.choices] == ["0 to Ogre", "1 to Ogre"]
    assert m.pick(1) == [[5, 2], [6, 1], [-2, 0]]


class _Slow(HeuristicAgent):
    """The heuristic agent, thinking a while before each decision (a search would)."""

    def decide(self, game: Any, d: Any) -> Any:
        time.sleep(0.02)
        return super().decide(game, d)


def test_the_events_come_while_the_agents_play(registry: Registry, tmp_path: Path) -> None:
    """``GET /api/events`` is answered while an answer is being carried out: the page
    shows the other players' turns as they are played."""
    args = argparse.Namespace(players=None, variant=None, attack="multiple",
                              opponent="heuristic", max_turns=20, max_events=200_000)
    seat_names(args)
    lists = [deck_lines(parse_deck(d, registry)) for d in (JACE, RED)]
    header, _ = game_header(registry, ["a", "b"], lists, 9, args)
    srv = make_server(registry, header, [HeuristicAgent, lambda: _Slow(1)],
                      str(tmp_path / "game.mtgk"))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        c = Client(srv)
        rng = random.Random(2)
        early = 0
        while c.state["decision"] and not early:
            total, epoch = c.state["total"], c.state["epoch"]
            done = threading.Event()

            def answer(done: threading.Event = done) -> None:
                c.answer(policy(rng, c.state["decision"]))
                done.set()
            t = threading.Thread(target=answer)
            t.start()
            status, got = Client.request(c, "GET", f"/api/events?since={total}&epoch={epoch}"
                                                   "&wait=5")
            assert status == 200
            if not done.is_set() and got["events"]["lines"]:
                early = len(got["events"]["lines"])
                assert got["events"]["from"] == total
            t.join()
        assert early, "no event came before the answer was carried out"
        lines = c.events
        status, got = Client.request(c, "GET", f"/api/events?since={len(lines)}&epoch="
                                               f"{c.state['epoch']}&wait=0.1")
        assert got["events"]["lines"] == [] and got["total"] == len(lines)
    finally:
        srv.shutdown()
        srv.server_close()
        srv.games.stop()


def test_the_command_prints_the_url_serves_and_stops_keeping_the_log(tmp_path: Path) -> None:
    log = tmp_path / "game.mtgk"
    proc = subprocess.Popen([sys.executable, "-m", "mtgk", "serve", "--port", "0", "--seed", "3",
                             "--log", str(log)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = re.search(r"play at (http://127\.0\.0\.1:\d+/)", line)
        assert m, line
        with urllib.request.urlopen(m.group(1) + "api/state", timeout=60) as r:
            state = json.load(r)
        assert state["decision"] is not None and state["you"] == 0
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "stopped; the log is in" in out and "Traceback" not in err
    lf = read_log(log)
    assert lf.header.meta["stopped"].startswith("the server stopped after")
    assert lf.header.meta["agents"][0]["kind"] == "human"


def test_stops_and_pass_turn(registry: Registry, tmp_path: Path) -> None:
    """With no stops, priority with the stack empty is passed for the person; pass turn
    passes every priority until the turn ends; both keep the log an ordinary one."""
    log = tmp_path / "game.mtgk"
    with served(registry, log, seed=12) as c:
        assert c.state["stops"]["mine"] == c.state["steps"]  # (asked everywhere at first)
        status, data = c.request("POST", "/api/stops", {"mine": ["nap"], "theirs": []})
        assert status == 400 and "'nap' is not a step" in data["error"]
        rng = random.Random(4)
        while c.state["decision"]["kind"] == "mulligan":
            c.answer(0)
        c.post("/api/stops", mine=["precombat_main"], theirs=[])
        assert c.state["stops"] == {"mine": ["precombat_main"], "theirs": []}
        yielded = 0
        for _ in range(3000):
            d = c.state["decision"]
            if d is None:
                break
            g = c.state["state"]["g"]  # [turn, active, step, ...]
            if d["kind"] == "priority" and d["step"] == 0 and "s" not in c.state["state"]:
                assert g[1] == 0 and g[2] == "precombat_main", g  # only where a stop is
                if not yielded and g[0] >= 3:
                    c.post("/api/yield")
                    yielded = g[0]
                    d2, g2 = c.state["decision"], c.state["state"]["g"]
                    assert d2 is None or d2["kind"] != "priority" or g2[0] > yielded, g2
                    continue
            c.answer(policy(rng, d))
        assert c.state["over"] and yielded
    check_log(log, c)


class _Boom(HeuristicAgent):
    """An agent that fails at its third decision (a card's or an agent's bug)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.asked = 0

    def decide(self, game: Any, d: Any) -> Any:
        self.asked += 1
        if self.asked == 3:
            raise RuntimeError("boom")
        return super().decide(game, d)


def test_a_failing_game_is_one_line_and_keeps_its_log(registry: Registry, tmp_path: Path
                                                      ) -> None:
    args = argparse.Namespace(players=None, variant=None, attack="multiple",
                              opponent="heuristic", max_turns=20, max_events=200_000)
    seat_names(args)
    lists = [deck_lines(parse_deck(d, registry)) for d in (JACE, RED)]
    header, _ = game_header(registry, ["a", "b"], lists, 9, args)
    log = tmp_path / "game.mtgk"
    srv = make_server(registry, header, [HeuristicAgent, _Boom], str(log))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        c = Client(srv)
        rng = random.Random(1)
        while c.state["decision"]:
            c.answer(policy(rng, c.state["decision"]))
        assert c.state["failed"].startswith("the game stopped after ")
        assert c.state["failed"].endswith("RuntimeError: boom") and c.state["over"]
        status, data = c.request("POST", "/api/answer", {"choice": 0})
        assert status == 409 and data["error"] == c.state["failed"]
    finally:
        srv.shutdown()
        srv.server_close()
        srv.games.stop()
    assert len(read_log(log).envelopes) == len(c.events)


def test_serve_has_help() -> None:
    code, out, _ = run("serve", "--help")
    assert code == 0 and out.startswith("usage: mtgk serve")
    for option in ("--port", "--host", "--open", "--decks", "--opponent", "--players",
                   "--variant", "--log"):
        assert option in out


@pytest.mark.slow  # (a few minutes: whole multiplayer games, click by click; in .ci/run)
@pytest.mark.parametrize("players,variant", [(["Ann", "Bob", "Cid"], None),
                                             (None, "two-headed-giant")],
                         ids=["free-for-all", "two-headed-giant"])
def test_browser_plays_a_whole_multiplayer_game_with_the_mouse(
        browser: Any, registry: Registry, tmp_path: Path, players: list[str] | None,
        variant: str | None) -> None:
    """A free-for-all and a Two-Headed Giant game played to their end by clicks alone
    (the choice buttons: lands, spells and attacks mostly), the log verifying."""
    from selenium.webdriver.common.by import By

    log = tmp_path / "game.mtgk"
    rng = random.Random(5)
    with served(registry, log, seed=4, players=players, variant=variant, max_turns=30) as c:
        browser.get(c.url)
        version = -1
        clicks = 0
        for _ in range(4000):
            version = drawn(browser, version)
            if browser.execute_script("return document.body.dataset.over") == "1":
                break
            buttons = browser.find_elements(By.CSS_SELECTOR, "#choices button.choice")
            assert buttons, browser.find_element(By.ID, "decision").text
            kinds = [set((b.get_attribute("class") or "").split()) for b in buttons]
            want = [i for i, k in enumerate(kinds) if {"attack", "play", "cast"} & k]
            if "keep this hand" in browser.find_element(By.ID, "prompt").text:
                want = [0]
            i = rng.choice(want) if want and rng.random() < 0.8 else \
                rng.randrange(len(buttons))
            buttons[i].click()
            clicks += 1
        assert browser.execute_script("return document.body.dataset.over") == "1", clicks
        assert browser.find_element(By.ID, "result").text, "no result shown"
        errors = [m for m in browser.get_log("browser") if m.get("level") == "SEVERE"]
        assert not errors, errors
        shown = browser.execute_script(
            "return Array.from(document.querySelectorAll('#events .line')).map((e) => e.title)")
        assert shown == c.get("/api/state?since=0&epoch=-1")["events"]["lines"]
    assert clicks > 10
    check_log(log, c)


def test_browser_draws_two_headed_giant_as_two_teams(browser: Any, registry: Registry,
                                                     tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    with served(registry, tmp_path / "game.mtgk", seed=5, variant="two-headed-giant") as c:
        browser.get(c.url)
        for _ in range(6):  # a few clicks: the mulligans, the first priorities
            version = c.state["version"]
            WebDriverWait(browser, 60).until(lambda d: d.execute_script(
                "return document.body.dataset.ready === '1' && "
                "!document.body.classList.contains('busy')"))
            browser.find_elements(By.CSS_SELECTOR, "#choices button.choice")[0].click()
            WebDriverWait(browser, 60).until(lambda d, v=version: d.execute_script(
                f"return document.body.dataset.version !== '{v}' && "
                "!document.body.classList.contains('busy')"))
            c.get("/api/state?since=0&epoch=-1")
        teams = browser.find_elements(By.CSS_SELECTOR, ".team")
        assert len(teams) == 2
        assert "Alice & Carol" in browser.find_element(By.CSS_SELECTOR, "#side-bottom").text
        assert "Bob & Dave" in browser.find_element(By.CSS_SELECTOR, "#side-top").text
        assert browser.find_element(By.ID, "team-life-0").text == \
            str(c.state["state"]["p0"][0])
        assert len(browser.find_elements(By.CSS_SELECTOR, ".player")) == 4
        assert not browser.find_elements(By.CSS_SELECTOR, "#hand-2 .mini:not(.hidden)")


def test_the_decisions_of_the_built_in_decks(registry: Registry, tmp_path: Path) -> None:
    """Games of the built-in decks ask every common kind of decision through the page's
    menus (a random person: damage splits the rules refuse are asked again)."""
    from mtgk.cards.decks import builtin_decks, load_deck

    names = [k for k in builtin_decks(registry) if "/" not in k][:2]
    decks = tuple("\n".join(deck_lines(load_deck(n, registry))) for n in names)
    kinds: set[str] = set()
    for seed in range(1, 7):
        log = tmp_path / f"game{seed}.mtgk"
        with served(registry, log, seed=seed, decks=decks) as c:
            kinds |= play_out(c, seed)
        check_log(log, c)
    assert {"mulligan", "priority", "attackers", "blockers", "assign", "may", "targets",
            "search", "bottom"} <= kinds, kinds


def test_an_illegal_damage_split_is_refused_and_asked_again(registry: Registry,
                                                            tmp_path: Path) -> None:
    from mtgk.cards.decks import builtin_decks, load_deck

    names = [k for k in builtin_decks(registry) if "/" not in k][:2]
    decks = tuple("\n".join(deck_lines(load_deck(n, registry))) for n in names)
    log = tmp_path / "game.mtgk"
    with served(registry, log, seed=1, decks=decks) as c:
        rng = random.Random(1)
        while c.state["decision"] and c.state["decision"]["kind"] != "assign":
            c.answer(policy(rng, c.state["decision"]))
        asked = c.state["decision"]
        assert asked is not None, "no damage assignment in this game"
        c.answer(1)  # assign it myself: nothing to the blocker, all of it trampling over
        assert c.state["decision"]["choices"][0]["label"].startswith("0 to ")
        c.answer(0)
        assert c.state["message"].startswith("refused: ") and "702.19c" in c.state["message"]
        assert c.state["decision"] == asked  # asked again
        c.answer(0)  # the rules' order
        play_out(c, 1)
    check_log(log, c)


# --------------------------------------------------------------------------
# paying by hand

ELVES = "20 Forest\n20 Elvish Handservant\n"


def _forests(c: Client) -> list[int]:
    """The person's Forests on the battlefield, untapped first (each in its order)."""
    m = c.state["state"]
    mine = [i for i in m.get("bf", []) if m[f"o{i}"].get("c") == 0 and
            m[f"o{i}"].get("n") == "Forest"]
    return sorted(mine, key=lambda i: bool(m[f"o{i}"].get("tp")))


def test_paying_by_hand_through_the_api(registry: Registry, tmp_path: Path) -> None:
    """With pay by hand on, the priority menu lists "tap Forest #n for {G}" for each untapped
    Forest (the card marked, so a click taps it); taking one puts {G} in the pool (the
    state shows it), and a spell cast then is paid from the pool: the Forest chosen is
    the one tapped, not the one the automatic payment would take (issue 28)."""
    from mtgk.rules.state import apply, new_state

    log = tmp_path / "game.mtgk"
    with served(registry, log, seed=5, decks=(ELVES, RED)) as c:
        status, data = c.request("POST", "/api/pay", {"by_hand": "yes"})
        assert status == 400 and data["error"] == "on is true or false"
        assert c.get("/api/state")["pay_by_hand"] is False
        chosen = 0
        for _ in range(600):
            d = c.state["decision"]
            assert d is not None, "the game ended before the test was done"
            kinds = {ch["kind"]: ch for ch in reversed(d["choices"])}
            untapped = [f for f in _forests(c) if not c.state["state"][f"o{f}"].get("tp")]
            if d["kind"] != "priority":
                c.answer(0)  # keep; no attack, no block
            elif "play" in kinds:
                c.answer(kinds["play"]["i"])
            elif "cast" in kinds and len(untapped) >= 2 and \
                    c.state["state"]["g"][2] == "precombat_main":
                assert "mana" not in kinds  # (off: no mana choices)
                c.post("/api/pay", by_hand=True)
                assert c.state["pay_by_hand"] is True
                mana = [ch for ch in c.state["decision"]["choices"] if ch["kind"] == "mana"]
                assert [ch.get("oid") for ch in mana] == untapped, mana
                assert all(re.fullmatch(r"tap Forest #\d+ for \{G\}", ch["label"])
                           for ch in mana), mana
                chosen = untapped[-1]  # (the automatic payment would take the first)
                c.answer(mana[-1]["i"])
                assert c.state["pool"] == "{G}" and c.state["state"]["p0"][3] == "G"
                assert c.state["state"][f"o{chosen}"].get("tp")
                named = mana[-1]["label"].removeprefix("tap ").removesuffix(" for {G}")
                assert any(line.endswith(f"priority → activate {named}: {{T}} mana ability")
                           for line in c.events), c.events[-4:]
                cast = next(ch for ch in c.state["decision"]["choices"]
                            if ch["kind"] == "cast")
                c.answer(cast["i"])
                break
            else:
                c.answer(next(ch["i"] for ch in d["choices"] if ch["kind"] == "pass"))
        assert chosen, "the person never had two Forests and an elf"
        assert c.state["pool"] == ""
        s = new_state()
        for env in read_log(log).envelopes:
            apply(s, env.event)
        forests = [o for o in s.battlefield if s.objects[o].card == "Forest"
                   and s.objects[o].controller == 0]
        assert s.objects[chosen].tapped, "the Forest chosen did not pay"
        assert any(not s.objects[o].tapped for o in forests), "another Forest paid too"
        assert any(it.card == "Elvish Handservant" for it in
                   (s.objects[x.source] for x in s.stack)) or any(
            s.objects[o].card == "Elvish Handservant" for o in s.battlefield)
        c.post("/api/pay", by_hand=False)
        assert not any(ch["kind"] == "mana" for ch in (c.state["decision"] or {}).get(
            "choices", []))


def test_browser_pays_by_hand_with_a_click_on_a_land(browser: Any, registry: Registry,
                                                     tmp_path: Path) -> None:
    """"pay by hand" on, the person's untapped lands are outlined; a click on one taps it
    for mana (the pool shows {G}); "auto-pay" turns it off (issue 28).  With
    ``MTGK_SCREENSHOT`` set this is the picture of docs/serve.png."""
    from selenium.webdriver.common.by import By

    log = tmp_path / "game.mtgk"
    with served(registry, log, seed=5, decks=(ELVES, RED)) as c:
        browser.get(c.url)
        version = -1

        def find(sel: str) -> list[Any]:
            return browser.find_elements(By.CSS_SELECTOR, sel)

        tapped = False
        for _ in range(400):
            version = drawn(browser, version)
            assert browser.execute_script("return document.body.dataset.over") == "0"
            turn = int(browser.execute_script("return document.body.dataset.turn"))
            mine = bool(find("#player-0.active"))
            by_hand = find("#pay")[0].get_attribute("aria-pressed") == "true"
            if by_hand and find("#bf-0 .perm.land.can"):
                land = find("#bf-0 .perm.land.can")[-1]
                oid = land.get_attribute("data-oid")
                lit = find(f'#choices button.choice.mana[data-oid="{oid}"]')
                assert lit and lit[0].text.startswith("tap Forest #"), lit
                land.click()
                version = drawn(browser, version)
                assert find(f'#bf-0 .perm.land.tapped[data-oid="{oid}"]'), "not tapped"
                assert find("#mana-0")[0].text == "{G}"
                assert browser.execute_script("return document.body.dataset.pool") == "{G}"
                if os.environ.get("MTGK_SCREENSHOT"):
                    dest = os.environ["MTGK_SCREENSHOT"]
                    path = Path(dest) if dest.endswith(".png") else ROOT / "docs" / "serve.png"
                    path.parent.mkdir(parents=True, exist_ok=True)
                    assert browser.save_screenshot(str(path))
                tapped = True
                find("#autopay")[0].click()  # off again: no mana choices
                version = drawn(browser, version)
                assert find("#pay")[0].get_attribute("aria-pressed") == "false"
                assert not find("#choices button.choice.mana")
                browser.find_element(By.TAG_NAME, "body").send_keys("m")  # (the key: on)
                version = drawn(browser, version)
                assert find("#pay")[0].get_attribute("aria-pressed") == "true"
                assert find("#choices button.choice.mana")
                break
            plays = find("#choices button.choice.play")
            casts = find("#choices button.choice.cast")
            if mine and turn >= 9 and not by_hand and casts and not plays:
                find("#pay")[0].click()  # (a land played first: a fuller board)
                continue
            buttons = find("#choices button.choice")
            assert buttons, browser.find_element(By.ID, "decision").text
            prompt = browser.find_element(By.ID, "prompt").text
            if plays or casts and not (mine and turn >= 9):
                (plays or casts)[0].click()
            elif "priority" in prompt or find("#choices button.choice.pass"):
                find("#choices button.choice.pass")[0].click()
            else:
                buttons[0].click()  # keep the hand; no attack, no block
        assert tapped, "no land to tap by hand"
        errors = [m for m in browser.get_log("browser") if m.get("level") == "SEVERE"]
        assert not errors, errors


def test_a_mana_ability_with_a_colour_choice_asks_it(registry: Registry, tmp_path: Path) -> None:
    """Paying by hand with a land that makes one of two colours: the tap asks which (the
    engine's "choose" decision, as any), and the pool holds the colour chosen (issue 28)."""
    with served(registry, tmp_path / "game.mtgk", seed=5,
                decks=("20 Ancient Amphitheater\n20 Gray Ogre\n", RED)) as c:
        c.post("/api/pay", by_hand=True)
        for _ in range(800):
            d = c.state["decision"]
            assert d is not None, "the game ended before the test was done"
            kinds = {ch["kind"]: ch for ch in reversed(d["choices"])}
            if d["kind"] != "priority":
                c.answer(0)
            elif "play" in kinds:
                c.answer(kinds["play"]["i"])
            elif "cast" in kinds:
                assert kinds["mana"]["label"].endswith(" for one of R/W"), kinds["mana"]
                c.answer(kinds["mana"]["i"])
                d = c.state["decision"]
                assert d["kind"] == "choose" and [ch["label"] for ch in d["choices"]] == \
                    ["R", "W"], d
                c.answer(1)
                assert c.state["pool"] == "{W}" and c.state["decision"]["kind"] == "priority"
                n = len(c.events)
                c.answer(next(ch["i"] for ch in c.state["decision"]["choices"]
                              if ch["kind"] == "cast"))  # {2}{R}: W from the pool
                assert c.state["pool"] == ""
                after = c.events[n:n + 8]
                assert any(" casts Gray Ogre #" in line for line in after), after
                assert "Alice spends {R}{R}{W}" in after, after
                break
            else:
                c.answer(next(ch["i"] for ch in d["choices"] if ch["kind"] == "pass"))
        else:
            pytest.fail("the person never could cast an Ogre")
