"""A person plays in the terminal: ``mtgk play --agents human heuristic``.

:class:`HumanAgent` answers a seat's decisions by asking on a text stream: what
happened since its last question (each event as ``mtgk log --as`` tells it), the
board as ``mtgk replay --as`` shows it, then the decision as numbered options
(:class:`mtgk.tools.menus.Menu`: one engine decision may take a few menus, such as
one per creature that could attack).  The person sees only what their seat may
see.  Commands: a number picks an option, ``?`` shows help, ``b`` the board
again, ``u`` undoes the person's last decision, ``q`` (or the end of the input)
quits.

:func:`play` plays a whole game so.  Undo re-runs the game from its header with
the person's decisions before the undone one (the other seats' agents made anew
from their seeds answer as they did), so the log stays an ordinary log that
``mtgk verify`` accepts.  A game the person quits is written as far as it went,
its header saying so (``meta["stopped"]``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any

import msgspec

from mtgk.cards.definitions import Registry
from mtgk.log.logfile import LogHeader, write_log
from mtgk.log.replay import run_from_header
from mtgk.rules.engine import Agent, Decision, Game
from mtgk.tools.menus import MORE, Menu
from mtgk.tools.render import Renderer, render_state

__all__ = ["HELP", "HumanAgent", "Played", "play"]

HELP = """\
Type the number of an option and press Enter.
  ?   this help
  b   show the board again
  u   undo your last decision (the game is re-run up to it)
  q   quit (the log so far is kept; end of input quits too)
You see what your seat may see: your hand, the public zones, how many cards
the others hold. Menus with a single option are answered for you."""

RECENT = 12
"""How many of the events since the last question are shown (the latest)."""


class Undo(BaseException):
    """The person asked to undo their last decision (not an ``Exception``: no card code
    or agent wrapper catches it)."""


class Quit(BaseException):
    """The person quit (or the input ended)."""


class HumanAgent:
    """A person at a terminal: reads answers from ``stdin`` (default: ``sys.stdin`` when
    asked), writes to ``stdout``.  ``script``: answers to give without asking (a game
    re-run after an undo); ``answers``: every answer given, in order."""

    def __init__(self, seed: int = 0, stdin: IO[str] | None = None,
                 stdout: IO[str] | None = None, script: Sequence[Any] = (),
                 can_undo: bool = False) -> None:
        self.seed = seed
        self.stdin = stdin
        self.stdout = stdout
        self.script = list(script)
        self.answers: list[Any] = []
        self.can_undo = can_undo
        self._seen: Renderer | None = None
        self._shown = 0  # the events told so far

    def __repr__(self) -> str:
        return "HumanAgent()"

    def _out(self, text: str = "") -> None:
        out = self.stdout or sys.stdout
        out.write(text + "\n")
        out.flush()

    def _read(self) -> str:
        line = (self.stdin or sys.stdin).readline()
        if not line:
            raise Quit()
        return line.strip()

    # ------------------------------------------------------------------ seeing
    def _catch_up(self, game: Game, seat: int) -> list[str]:
        """Fold the new events into the seat's view; their lines, as the seat sees them."""
        if self._seen is None:
            self._seen = Renderer(game.reg, as_player=seat)
        r = self._seen
        lines = [r.render(env) for env in game.log[self._shown:]]
        self._shown = len(game.log)
        return lines

    def board(self, game: Game, seat: int) -> str:
        """The board as ``seat`` sees it (``mtgk replay --as``)."""
        self._catch_up(game, seat)
        assert self._seen is not None
        return render_state(self._seen.state, game.reg, as_player=seat, seen=self._seen.seen)

    # ------------------------------------------------------------------ answering
    def decide(self, game: Game, d: Decision) -> Any:
        if self.script:
            answer = self.script.pop(0)
            self.answers.append(answer)
            return answer
        menu = Menu(game, d, {})
        while menu.answer is MORE and len(menu.choices) == 1:
            menu.pick(0)
        if menu.answer is MORE:
            lines = self._catch_up(game, d.player)
            if len(lines) > RECENT:
                self._out(f"... ({len(lines) - RECENT} earlier events)")
            for line in lines[-RECENT:]:
                self._out(line)
            self._out()
            self._out(self.board(game, d.player))
        while menu.answer is MORE:
            self._ask(game, d, menu)
        self.answers.append(menu.answer)
        return menu.answer

    def _ask(self, game: Game, d: Decision, menu: Menu) -> None:
        self._out()
        self._out(f"{game.state.players[d.player].name}, {d.prompt or d.kind}:")
        for i, c in enumerate(menu.choices, 1):
            self._out(f"  {i}. {c.label}")
        while True:
            (self.stdout or sys.stdout).write("> ")
            (self.stdout or sys.stdout).flush()
            text = self._read()
            if text in ("q", "quit"):
                raise Quit()
            if text in ("?", "h", "help"):
                self._out(HELP)
                continue
            if text == "b":
                self._out(self.board(game, d.player))
                continue
            if text == "u":
                if not self.can_undo:
                    self._out("undo is not available here")
                elif not self.answers:
                    self._out("nothing to undo yet")
                else:
                    raise Undo()
                continue
            if text.isdigit() and 1 <= int(text) <= len(menu.choices):
                menu.pick(int(text) - 1)
                return
            self._out(f"not an option: type 1 to {len(menu.choices)}, or ? for help")

    def refused(self, game: Game, d: Decision, err: Exception) -> None:
        self._out(f"refused: {err}")


# --------------------------------------------------------------------------
# A whole game


@dataclass
class Played:
    """How a game with a person ended: the game, its header (``meta["stopped"]`` when
    the person quit), and whether they quit."""

    game: Game
    header: LogHeader
    quit: bool


def play(reg: Registry, header: LogHeader, makers: Sequence[Callable[[], Agent]],
         humans: Sequence[int], out: str, stdin: IO[str] | None = None,
         stdout: IO[str] | None = None, watch: Callable[[Game], None] | None = None) -> Played:
    """Play the game of ``header`` with a person at each seat in ``humans`` (the other
    seats' agents made by ``makers``) and write its log to ``out`` (at the end, or when
    the person quits; also if the engine fails).  Undo re-runs the game."""
    script: list[Any] = []
    while True:
        agents: list[Agent] = []
        people: list[HumanAgent] = []
        for i, make in enumerate(makers):
            if i in humans:
                h = HumanAgent(stdin=stdin, stdout=stdout, can_undo=True)
                people.append(h)
                agents.append(h)
            else:
                agents.append(make())
        if people:
            people[0].script = list(script)  # (one person: several would share a script)
        games: list[Game] = []

        def seen(game: Game, games: list[Game] = games) -> None:
            games.append(game)
            if watch is not None:
                watch(game)

        try:
            game = run_from_header(reg, header, agents, seen)
        except Undo:
            script = people[0].answers[:-1]
            (stdout or sys.stdout).write("(undone: the game is re-run to your previous "
                                         "decision)\n")
            continue
        except Quit:
            game = games[0]
            meta = dict(header.meta)
            meta["stopped"] = f"the player quit after {len(game.log)} events"
            header = msgspec.structs.replace(header, meta=meta)
            write_log(out, header, game.log)
            return Played(game, header, True)
        except BaseException:
            if games:
                write_log(out, header, games[0].log)
            raise
        write_log(out, header, game.log)
        return Played(game, header, False)
