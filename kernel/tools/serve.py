"""``mtgk serve``: a person plays a whole game in the browser against computer agents.

The server holds the game -- a :class:`~mtgk.stepper.Stepper` whose seat 0 is the
person's, the other seats played by agents -- and a page asks it for the state and
posts answers, as JSON over HTTP (the standard library's
:class:`~http.server.ThreadingHTTPServer`; docs/serve.md says why).  What the page
is sent is what the person's seat may see and nothing else: the state map and the
event texts of a viewer page built ``--as`` that player
(:class:`mtgk.tools.viewer.LiveView`), the choices of the pending decision worded
with the same masked names.  Decisions are asked as the terminal game asks them
(:class:`mtgk.menus.Menu`: one engine decision may take a few small menus;
a menu with one choice is answered at once).  Undo goes back to the person's
previous decision (:meth:`~mtgk.stepper.Stepper.undo`, a fork of the game), so the
log stays an ordinary log: it is written as the game goes (``mtgk verify`` accepts
it, ``mtgk view`` opens it).

A stepper's game runs in a greenlet, which only the thread that made it can switch
to: every call on the game runs in one thread of its own (:class:`GameThread`); the
HTTP threads hand it their requests and wait.

Endpoints (all answers are JSON; an error is ``{"error": "one line"}`` with a 4xx or
5xx status): ``GET /`` the page; ``GET /api/state?since=N&epoch=E`` the state (the
events from ``N`` on; all of them when ``E`` is not the current epoch, which undo
changes); ``POST /api/answer`` ``{"choice": i, "version": v}``; ``POST /api/back``
(the last pick of a decision asked in several menus); ``POST /api/undo``;
``POST /api/stops`` ``{"mine": [steps], "theirs": [steps]}`` (the steps you are asked in
with the stack empty; the others pass for you); ``POST /api/yield`` (pass until the turn
ends); ``POST /api/pay`` ``{"by_hand": true}`` (paying by hand: the priority menus list the
mana the person can make, "tap Forest #12 for {G}"; false: casting pays automatically); ``GET /api/events?since=N&epoch=E&wait=S`` the events from ``N`` on, waiting up to
``S`` seconds for one (a long poll: the page shows the agents' turns as they are
played); ``GET /api/log`` the log file.
"""

from __future__ import annotations

import argparse
import errno
import functools
import json
import queue
import re
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

import msgspec

from mtgk.cards.definitions import Registry
from mtgk.games.replay import new_header
from mtgk.log import events as ev
from mtgk.log.answers import Activate, Attack, Block, Cast, PlayLand
from mtgk.log.logfile import LogHeader, LogWriter, write_log
from mtgk.menus import MORE, PRIORITY_STEPS, Menu, Stops, decision_menu
from mtgk.rules.engine import Agent, Decision, Game, RulesError
from mtgk.search import AGENTS
from mtgk.stepper import Stepper, StepperError
from mtgk.tools.cli_base import UserError
from mtgk.tools.viewer import LiveView

__all__ = ["DEFAULT_PORT", "OPPONENTS", "GameServer", "GameThread", "ServedGame", "game_header",
           "make_server"]

OPPONENTS: dict[str, str] = {"heuristic": "heuristic", "search": "mcts", "random": "random"}
"""``--opponent`` -> the agent kind (:data:`mtgk.search.AGENTS`) that plays the other seats."""

DEFAULT_PORT = 8028
_ASSETS = "viewer_assets"  # (the viewer's folder of page assets: serve.html, .js, .css, board.js)
_PLACEHOLDER = re.compile(r"/\*\{\{(CSS|BOARD|JS)\}\}\*/")


class BadRequest(Exception):
    """A request the game cannot take: answered with ``{"error": ...}`` and ``status``."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


# --------------------------------------------------------------------------
# the game


class ServedGame:
    """The game a server holds, seen and answered by the person at ``seat``.

    ``makers``: one per seat, making that seat's agent (the person's is not called).
    Every method must be called from the thread that made the object (see the module
    docs); :meth:`public` is what the page is sent."""

    def __init__(self, reg: Registry, header: LogHeader, makers: Sequence[Callable[[], Agent]],
                 log_path: str, seat: int = 0) -> None:
        self.reg = reg
        self.header = header
        self.seat = seat
        self.log_path = log_path
        self.version = 0  # bumped by every change
        self.epoch = 0  # bumped when the events shown so far are taken back (undo)
        self.message = ""  # the last refusal, said once
        self.failed = ""  # the engine's failure, if it failed
        self.events: list[str] = []  # every event's text so far (appended under ``feed``)
        #: notified as events are added (the game thread) for :meth:`wait_events` (any)
        self.feed = threading.Condition()
        self.menu: Menu | None = None
        self._marks: list[int] = []  # len(answers) before each decision the person answered
        self._picks: list[int] = []  # len(menu.picked) before each pick of the person's
        #: the steps the person is asked in when they get priority with the stack empty
        #: (else they pass), and "pass turn"
        self.stops = Stops(seat)
        #: "pay by hand": the priority menus list the mana the person can make
        self.pay_by_hand = False
        self._writer: LogWriter | None = LogWriter(log_path, header)
        self._written = 0
        self._rewrite = False  # the log is written anew at the next write (after an undo)
        agents: list[Agent | None] = [None if i == seat else make()
                                      for i, make in enumerate(makers)]
        self.view = LiveView(reg, seat, header.players[seat])
        self.stepper: Stepper = None  # type: ignore[assignment]  # (set once it has started)
        try:
            self.stepper = Stepper(reg, header, agents, watch=self._listen)
        except Exception as exc:  # noqa: BLE001 - the engine failed before the first question
            self._fail(exc)
            return
        self._settle()

    # ------------------------------------------------------------------ running
    def _fail(self, exc: BaseException) -> None:
        n = len(self.stepper.log) if self.stepper is not None and self.stepper.game else 0
        self.failed = f"the game stopped after {n} events: {type(exc).__name__}: {exc}"
        self.menu = None
        self._write()
        self.close()

    def _name(self, ref: int) -> str:
        return self.view.renderer.ref(ref)

    def _menu(self, game: Game, d: Decision) -> Menu:
        """The menus ``d`` is asked in (the terminal game's: damage assignment asked too,
        the mana sources listed when paying by hand)."""
        return decision_menu(game, d, self._name, by_hand=self.pay_by_hand)

    def _settle(self) -> None:
        """Ask the pending decision as a menu; answer at once what has one choice."""
        st = self.stepper
        try:
            while st.decision is not None:
                self._catch_up()
                auto = self._auto_pass(st.decision)
                if auto is not None:
                    st.answer(auto)
                    continue
                menu = self._menu(st.game, st.decision)
                while menu.answer is MORE and len(menu.choices) == 1:
                    menu.pick(0)
                if menu.answer is MORE:
                    self.menu = menu
                    self._picks = []
                    break
                st.answer(menu.answer)
            else:
                self.menu = None
        except Exception as exc:  # noqa: BLE001 - an engine or card failure ends the game
            self._fail(exc)
            return
        self._catch_up()
        self._write()
        if st.decision is None:
            self.close()

    def _listen(self, game: Game) -> None:
        """Tell the page of ``game``'s events as they happen (while the agents play)."""
        def heard(env: ev.Envelope) -> None:
            if self.stepper is None or self.stepper.game is game:  # (not a fork's replay)
                self._catch_up(game)
        game.listeners.append(heard)

    def _auto_pass(self, d: Decision) -> Any:
        """The pass that answers ``d`` for the person (their stops and yield), or ``None``."""
        return self.stops.auto_pass(self.stepper.state, d)

    def set_stops(self, mine: Any, theirs: Any, version: Any = None) -> None:
        """Ask the person in these steps only (with the stack empty): the others pass."""
        if not isinstance(mine, list) or not isinstance(theirs, list):
            raise BadRequest(f"{'mine' if not isinstance(mine, list) else 'theirs'} is a "
                             "list of step names")
        try:
            self.stops.set(mine, theirs)
        except ValueError as err:
            raise BadRequest(str(err)) from None
        self.version += 1
        self._pass_now()

    def yield_turn_now(self, version: Any = None) -> None:
        """Pass priority until this turn ends (other decisions are still asked)."""
        self._check(version)
        self.stops.yield_turn(self.stepper.state)
        self.version += 1
        self._pass_now()

    def set_pay_by_hand(self, on: Any, version: Any = None) -> None:
        """Paying by hand on (the person's priority menus list "tap ... for mana", each
        mana ability they can activate now) or off (casting pays automatically)."""
        if not isinstance(on, bool):
            raise BadRequest("on is true or false")
        self.pay_by_hand = on
        self.version += 1
        menu = self.menu
        if menu is not None and not self._picks and menu.d.kind == "priority" and \
                not self.failed:
            self.menu = self._menu(menu.game, menu.d)  # (the menu again, with or without)

    def _pass_now(self) -> None:
        """The pending decision is a priority the stops now pass: pass it and play on."""
        menu = self.menu
        if menu is None or self._picks or self.failed:
            return
        auto = self._auto_pass(menu.d)
        if auto is None:
            return
        try:
            self.stepper.answer(auto)
        except Exception as exc:  # noqa: BLE001 - an engine or card failure ends the game
            self._fail(exc)
            return
        self._settle()

    def _catch_up(self, game: Game | None = None) -> None:
        lines = self.view.catch_up((game or self.stepper.game).log)
        if lines:
            with self.feed:
                self.events += lines
                self.feed.notify_all()

    def wait_events(self, since: int, epoch: int, wait: float) -> dict[str, Any]:
        """The events from ``since`` on, waiting up to ``wait`` seconds for one (any
        thread may ask: the game's thread may be busy playing the agents' turns)."""
        with self.feed:
            self.feed.wait_for(lambda: len(self.events) > since or self.epoch != epoch,
                               timeout=max(0.0, min(wait, 30.0)))
            if self.epoch != epoch:
                since = 0
            since = max(0, min(since, len(self.events)))
            return {"epoch": self.epoch, "events": {"from": since, "lines": self.events[since:]},
                    "total": len(self.events)}

    def _write(self) -> None:
        """Write the events not written yet (the whole log again after an undo)."""
        if self._writer is None or self.stepper is None or self.stepper.game is None:
            return
        log = self.stepper.log
        if self._rewrite or len(log) < self._written:
            self._rewrite = False
            self._writer.close()
            write_log(self.log_path, self.header, log)
            self._writer = LogWriter.reopen(self.log_path)
        else:
            for env in log[self._written:]:
                self._writer.append(env)
            self._writer.checkpoint()  # on the file, its blocks still full-sized
        self._written = len(log)

    def close(self, stopped: bool = False) -> None:
        """Write what is left of the log and close it (``stopped``: the server stops
        before the game's end, and the log's header says so, as ``mtgk play`` does)."""
        if self._writer is None:
            return
        self._writer.close()
        self._writer = None
        over = self.stepper is not None and self.stepper.decision is None
        if stopped and not over and self.stepper is not None:
            meta = dict(self.header.meta)
            meta["stopped"] = f"the server stopped after {len(self.stepper.log)} events"
            self.header = msgspec.structs.replace(self.header, meta=meta)
            write_log(self.log_path, self.header, self.stepper.log)

    # ------------------------------------------------------------------ the person's
    def _check(self, version: Any) -> Menu:
        if self.failed:
            raise BadRequest(self.failed, 409)
        if self.menu is None:
            raise BadRequest("the game is over: there is nothing to answer", 409)
        if version is not None and version != self.version:
            raise BadRequest("the game has moved on since that page was drawn: reload it", 409)
        return self.menu

    def answer(self, choice: Any, version: Any = None) -> None:
        """Pick choice number ``choice`` of the current menu."""
        menu = self._check(version)
        if not isinstance(choice, int) or isinstance(choice, bool) or \
                not 0 <= choice < len(menu.choices):
            raise BadRequest(f"choice must be a number from 0 to {len(menu.choices) - 1}")
        self.version += 1
        self.message = ""
        self._picks.append(len(menu.picked))
        menu.pick(choice)
        while menu.answer is MORE and len(menu.choices) == 1:
            menu.pick(0)
        if menu.answer is MORE:
            return
        st = self.stepper
        self._marks.append(len(st.answers))
        try:
            st.answer(menu.answer)
        except RulesError as err:
            self._marks.pop()
            self.message = f"refused: {err}"
            self.menu = None
        except Exception as exc:  # noqa: BLE001 - an engine or card failure ends the game
            self._fail(exc)
            return
        self._settle()

    def back(self, version: Any = None) -> None:
        """Take back the last pick of a decision asked in several menus."""
        menu = self._check(version)
        if not self._picks:
            raise BadRequest("nothing to take back in this decision (undo goes back a "
                             "whole decision)")
        keep = self._picks.pop()
        again = self._menu(menu.game, menu.d)
        for i in menu.picked[:keep]:
            again.pick(i)
        self.menu = again
        self.version += 1
        self.message = ""

    def undo(self, version: Any = None) -> None:
        """Go back to the person's previous decision (a fork of the game there)."""
        if self.failed:
            raise BadRequest(self.failed, 409)
        if version is not None and version != self.version:
            raise BadRequest("the game has moved on since that page was drawn: reload it", 409)
        if not self._marks or self._writer is None and self.stepper.decision is None:
            raise BadRequest("nothing to undo: you have not answered a decision yet"
                             if not self._marks else "the game is over", 409)
        target = self._marks.pop()
        st = self.stepper
        try:
            while len(st.answers) > target:
                st.undo()
        except StepperError as err:
            raise BadRequest(f"cannot undo: {err}", 409) from None
        self.view = LiveView(self.reg, self.seat, self.header.players[self.seat])
        self._rewrite = True  # (what follows the undone decision is another game's)
        with self.feed:
            self.events = []
            self.epoch += 1
            self.feed.notify_all()
        self._listen(st.game)
        self.version += 1
        self.message = "undone: back at your previous decision"
        self._settle()

    # ------------------------------------------------------------------ the page's
    def public(self, since: int = 0, epoch: int | None = None) -> dict[str, Any]:
        """What the page is sent: only what the person's seat may see."""
        st = self.stepper
        if epoch != self.epoch:
            since = 0
        since = max(0, min(since, len(self.events)))
        players = list(self.header.players)
        state = self.view.state() if st is not None and st.game is not None else {}
        s = self.view.renderer.state
        winner = s.winner if s.over else None
        out: dict[str, Any] = {
            "version": self.version, "epoch": self.epoch, "you": self.seat,
            "players": players, "teams": [list(t) for t in s.teams],
            "deck": self.header.meta.get("deck_names", [""] * len(players))[self.seat],
            "over": st is None or st.decision is None or bool(self.failed), "winner": winner,
            "result": self._result(), "failed": self.failed,
            "state": state, "cards": self.view.cards(),
            "events": {"from": since, "lines": self.events[since:]},
            "total": len(self.events), "message": self.message,
            "can_undo": bool(self._marks) and not self.failed and self.menu is not None,
            "steps": list(PRIORITY_STEPS), "yielding": bool(self.stops.yielding),
            "stops": self.stops.listed(), "pay_by_hand": self.pay_by_hand,
            "pool": self._pool(),
            "log": self.log_path, "decision": self._decision()}
        return out

    def _pool(self) -> str:
        """The person's mana pool, as ``{G}{G}`` ("" when empty)."""
        s = self.view.renderer.state
        if self.seat >= len(s.players):
            return ""
        return "".join("{" + m + "}" for m in s.players[self.seat].mana)

    def _result(self) -> str:
        st = self.stepper
        if self.failed:
            return self.failed
        if st is None or st.decision is not None:
            return ""
        s = st.state
        ended = next((env.event for env in reversed(st.log) if isinstance(env.event,
                                                                           ev.GameEnded)), None)
        why = f" ({ended.reason})" if ended is not None and ended.reason else ""
        if s.winner is None or s.winner < 0:
            return "the game is a draw" + why
        team = next((t for t in s.teams if s.winner in t), [s.winner])
        names = " & ".join(s.players[p].name for p in team)
        return f"{names} won" + why

    def _decision(self) -> dict[str, Any] | None:
        menu = self.menu
        if menu is None:
            return None
        d = menu.d
        choices = []
        for i, c in enumerate(menu.choices):
            label = c.label
            if d.kind == "mulligan" and isinstance(c.value, bool):
                label = "keep this hand" if c.value else "mulligan"
            item: dict[str, Any] = {"i": i, "label": label, "kind": c.kind}
            oid = self._subject(c.value)
            if oid:
                item["oid"] = oid
            choices.append(item)
        return {"kind": d.kind, "prompt": d.prompt or _PROMPTS.get(d.kind, d.kind),
                "choices": choices, "can_back": bool(self._picks), "step": len(self._picks)}

    def _subject(self, value: Any) -> int:
        """The card a choice is about, when the person may see it where it is (the page
        marks it, and a click on it picks the choice)."""
        if isinstance(value, list) and value and isinstance(value[0], PlayLand | Cast | Activate):
            value = value[0]  # (a priority choice: the ways of one action)
        if isinstance(value, PlayLand | Cast):
            value = value.card
        elif isinstance(value, Activate):
            value = value.source
        elif isinstance(value, Attack):
            value = value.attacker
        elif isinstance(value, Block):
            value = value.blocker
        elif isinstance(value, list) and len(value) == 2 and all(
                isinstance(v, int) for v in value):
            value = value[0]  # an attack or a block: [creature, whom]
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            return 0
        s = self.view.renderer.state
        o = s.objects.get(value)
        if o is None:
            return 0
        if o.zone == "battlefield" or (o.zone == "hand" and o.owner == self.seat):
            return value
        return 0


_PROMPTS = {"priority": "you have priority", "attackers": "declare attackers",
            "blockers": "declare blockers", "mulligan": "keep this hand?",
            "order": "order these (first picked goes first)", "targets": "choose targets",
            "modes": "choose modes", "x": "choose X", "may": "yes or no?",
            "assign": "assign combat damage"}


class GameThread:
    """The one thread every call on a :class:`ServedGame` runs in (see the module docs)."""

    def __init__(self, make: Callable[[], ServedGame]) -> None:
        self._jobs: queue.Queue[tuple[Callable[[], Any], Future[Any]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._run, name="mtgk-game", daemon=True)
        self._thread.start()
        self.game: ServedGame = self.call(make)

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            fn, fut = job
            try:
                fut.set_result(fn())
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                fut.set_exception(exc)

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn()`` in the game's thread; its result (or its exception, raised)."""
        fut: Future[Any] = Future()
        self._jobs.put((fn, fut))
        return fut.result()

    def stop(self) -> None:
        """Close the game's log (as stopped, if it is not over) and end the thread."""
        self.call(functools.partial(self.game.close, True))
        self._jobs.put(None)
        self._thread.join(timeout=10)


# --------------------------------------------------------------------------
# the server


def _asset(name: str) -> bytes:
    try:
        return resources.files("mtgk.tools").joinpath(_ASSETS, name).read_bytes()
    except (FileNotFoundError, OSError) as exc:
        raise RuntimeError(f"the page's {name} is missing from the mtgk installation "
                           f"(kernel/tools/{_ASSETS}/{name}): {exc}") from None


def page() -> bytes:
    """The page: one HTML document with its CSS and script inline."""
    html = _asset("serve.html").decode("utf-8")
    css = _asset("viewer.css").decode("utf-8")  # (the viewer's look: the same board)
    parts = {"CSS": css + "\n" + _asset("serve.css").decode("utf-8"),
             "BOARD": _asset("board.js").decode("utf-8"),  # (drawn as the viewer draws it)
             "JS": _asset("serve.js").decode("utf-8")}
    # one pass over the template: inserted text is never scanned for placeholders
    return _PLACEHOLDER.sub(lambda m: parts[m.group(1)], html).encode("utf-8")


class GameServer(ThreadingHTTPServer):
    """An HTTP server of one game (``server.games``: its :class:`GameThread`)."""

    daemon_threads = True
    allow_reuse_address = False

    def __init__(self, address: tuple[str, int], games: GameThread, quiet: bool = True) -> None:
        self.games = games
        self.quiet = quiet
        self.page = page()
        super().__init__(address, _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A request that failed outside its handler (a connection dropped): one line."""
        exc = sys.exc_info()[1]
        if not self.quiet and exc is not None:
            sys.stderr.write(f"mtgk serve: a request from {client_address[0]} failed: "
                             f"{type(exc).__name__}: {exc}\n")

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        shown = f"[{name}]" if ":" in name else name
        return f"http://{shown}:{port}/"


class _Handler(BaseHTTPRequestHandler):
    server: GameServer
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        if not self.server.quiet:
            sys.stderr.write(f"mtgk serve: {self.address_string()} {format % args}\n")

    def _send(self, status: int, body: bytes, kind: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, status: int, data: Any) -> None:
        self._send(status, msgspec.json.encode(data))

    def _error(self, status: int, message: str) -> None:
        self._json(status, {"error": " ".join(str(message).split())})

    def _guarded(self, fn: Callable[[], None]) -> None:
        try:
            fn()
        except BadRequest as exc:
            self._error(exc.status, str(exc))
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as exc:  # noqa: BLE001 - no traceback reaches the page
            self._error(500, f"internal error: {type(exc).__name__}: {exc}")

    def do_GET(self) -> None:  # noqa: N802 - the http.server API
        self._guarded(self._get)

    def do_HEAD(self) -> None:  # noqa: N802
        self._guarded(self._get)

    def do_POST(self) -> None:  # noqa: N802
        self._guarded(self._post)

    def _get(self) -> None:
        url = urlsplit(self.path)
        games = self.server.games
        if url.path in ("/", "/index.html"):
            self._send(200, self.server.page, "text/html; charset=utf-8")
        elif url.path == "/favicon.ico":
            self._send(204, b"", "image/x-icon")
        elif url.path == "/api/state":
            q = parse_qs(url.query)
            since, epoch = _int(q, "since", 0), _int(q, "epoch", -1)
            self._json(200, games.call(lambda: games.game.public(since, epoch)))
        elif url.path == "/api/events":  # (answered here: the game's thread may be busy)
            q = parse_qs(url.query)
            self._json(200, games.game.wait_events(_int(q, "since", 0), _int(q, "epoch", -1),
                                                   _seconds(q, "wait")))
        elif url.path == "/api/log":
            with open(games.game.log_path, "rb") as fp:
                data = fp.read()
            self._send(200, data, "application/octet-stream")
        else:
            raise BadRequest(f"no such page: {url.path}", 404)

    def _post(self) -> None:
        url = urlsplit(self.path)
        n = self.headers.get("Content-Length") or "0"
        if not n.isdigit() or int(n) > 65536:
            raise BadRequest("a request body is a small JSON object")
        raw = self.rfile.read(int(n)) if int(n) else b"{}"
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            raise BadRequest("the request body is not JSON") from None
        if not isinstance(body, dict):
            raise BadRequest("the request body is a JSON object")
        games = self.server.games
        g = games.game
        version = body.get("version")
        acts: dict[str, Callable[[], None]] = {
            "/api/answer": lambda: g.answer(body.get("choice"), version),
            "/api/back": lambda: g.back(version),
            "/api/undo": lambda: g.undo(version),
            "/api/stops": lambda: g.set_stops(body.get("mine"), body.get("theirs"), version),
            "/api/yield": lambda: g.yield_turn_now(version),
            "/api/pay": lambda: g.set_pay_by_hand(body.get("by_hand"), version)}
        act = acts.get(url.path)
        if act is None:
            raise BadRequest(f"no such action: {url.path}", 404)
        since, epoch = _int(body, "since", 0), _int(body, "epoch", -1)

        def run() -> dict[str, Any]:
            act()
            return g.public(since, epoch)
        self._json(200, games.call(run))


def _int(q: dict[str, Any], key: str, default: int) -> int:
    v = q.get(key, default)
    if isinstance(v, list):
        v = v[0] if v else default
    try:
        return int(v)
    except (TypeError, ValueError):
        raise BadRequest(f"{key} must be a whole number") from None


def _seconds(q: dict[str, Any], key: str) -> float:
    v = q.get(key, ["0"])[0]
    try:
        n = float(v)
    except ValueError:
        raise BadRequest(f"{key} must be a number of seconds") from None
    if not 0 <= n <= 3600:  # (not NaN either)
        raise BadRequest(f"{key} must be a number of seconds")
    return n


def make_server(reg: Registry, header: LogHeader, makers: Sequence[Callable[[], Agent]],
                log_path: str, host: str = "127.0.0.1", port: int = 0, seat: int = 0,
                quiet: bool = True) -> GameServer:
    """A server of the game of ``header`` (not yet serving: call ``serve_forever``; then
    ``shutdown()``, ``server_close()`` and ``games.stop()``).  Raises
    :class:`UserError` when the address can't be bound (a port in use)."""
    games = GameThread(lambda: ServedGame(reg, header, makers, log_path, seat))
    try:
        return GameServer((host, port), games, quiet)
    except OSError as exc:
        games.stop()
        if exc.errno == errno.EADDRINUSE:
            raise UserError(f"port {port} on {host} is in use (another mtgk serve?): "
                            "pass another --port, or --port 0 for any free one") from None
        raise UserError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


# --------------------------------------------------------------------------
# mtgk serve


def game_header(reg: Registry, deck_names: Sequence[str], decks: Sequence[Sequence[str]],
                seed: int, args: argparse.Namespace
                ) -> tuple[LogHeader, list[Callable[[], Agent]]]:
    """The header of a served game (the person at seat 0, ``args.opponent`` at the other
    seats; a Two-Headed Giant partner plays as the heuristic agent) and its agent makers."""
    seats = len(args.players)
    opp = OPPONENTS[getattr(args, "opponent", "heuristic") or "heuristic"]
    teams = getattr(args, "teams", []) or []
    mine = next((t for t in teams if 0 in t), [0])
    kinds = ["human" if i == 0 else "heuristic" if i in mine else opp for i in range(seats)]
    agent_seeds = [seed * 2 + i for i in range(seats)]
    meta = {"agents": [{"kind": k, "seed": s} for k, s in zip(kinds, agent_seeds, strict=True)],
            "deck_names": list(deck_names), "max_turns": args.max_turns,
            "max_events": args.max_events, "served": True,
            **getattr(args, "attack_meta", {})}
    header = new_header(reg, args.players, [list(d) for d in decks], seed, meta=meta,
                        variant=args.variant, teams=teams)
    makers: list[Callable[[], Agent]] = [
        functools.partial(AGENTS[k], s) if k != "human" else _nobody
        for k, s in zip(kinds, agent_seeds, strict=True)]
    return header, makers


def _nobody() -> Agent:
    raise AssertionError("the person's seat has no agent")

