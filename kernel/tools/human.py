"""A person plays in the terminal: ``mtgk play --agents human heuristic``.

:class:`HumanAgent` answers a seat's decisions by asking on a text stream: what
happened since its last question (each event as ``mtgk log --as`` tells it), the
board as ``mtgk replay --as`` shows it, then the decision as numbered options
(:class:`mtgk.menus.Menu`: one engine decision may take a few menus, such as
one per creature that could attack).  The person sees only what their seat may
see.  Commands: a number picks an option, ``?`` shows help, ``b`` the board
again, ``u`` undoes the person's last decision, ``m`` turns paying by hand on and off,
``s`` sets the stops and ``p`` passes until the turn ends
(:class:`mtgk.menus.Stops`, as ``mtgk serve``'s), ``q`` (or the end of the input)
quits.

:func:`play` plays a whole game so, driven by a :class:`~mtgk.stepper.Stepper`:
undo goes back to the person's previous decision (:meth:`~mtgk.stepper.Stepper.undo`,
the cost of a fork), so the log stays an ordinary log that ``mtgk verify`` accepts.  A game the person quits is written as far as it went,
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
from mtgk.menus import MORE, PRIORITY_STEPS, Menu, Stops, decision_menu, mana_choices
from mtgk.render import Renderer, numbered_name, render_state
from mtgk.rules.engine import Agent, Decision, Game, RulesError
from mtgk.stepper import Stepper

__all__ = ["HELP", "QUIT", "UNDO", "HumanAgent", "Played", "mana_choices", "play"]

HELP = """\
Type the number of an option and press Enter.
  ?   this help
  b   show the board again
  l   show the whole game so far (every event you may see)
  u   undo your last decision
  m   pay by hand, on or off: your priority menus list "tap ... for mana" (each
      mana ability you can activate now); the mana goes to your pool, and a spell
      you cast then is paid from the pool first, the rest automatically
  s   stops: the steps you are asked in when the stack is empty and you could
      only pass, on your turns and on the others' (all of them to begin with)
  p   pass until the end of this turn (other questions are still asked)
  q   quit (the log so far is kept; end of input quits too)
You see what your seat may see: your hand, the public zones, how many cards
the others hold. Before each question you see everything that happened since
your last one (the other players' turns and combat included). Cards are
numbered (Forest #12) so that identical ones can be told apart; a card keeps its
number in every zone and after an undo. Menus with a single option are answered
for you."""


class _Said:
    """The person's word instead of an answer (undo, quit)."""

    def __init__(self, word: str) -> None:
        self.word = word

    def __repr__(self) -> str:
        return self.word.upper()


UNDO: Any = _Said("undo")
"""What :meth:`HumanAgent.ask` returns when the person asks to undo their last decision."""

QUIT: Any = _Said("quit")
"""What :meth:`HumanAgent.ask` returns when the person quits (or the input ends)."""

_AGAIN: Any = _Said("again")
"""What :meth:`HumanAgent._ask` returns when the menu is to be made anew (``m``)."""


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
        self._told: list[str] = []  # every event's line told so far (``l``)
        self._seat = 0
        #: ``m``: the priority menus list the mana abilities the person can activate
        self.pay_by_hand = False
        #: ``s`` and ``p``: where a priority with nothing but passing is passed for them
        self.stops: Stops | None = None

    def __repr__(self) -> str:
        return "HumanAgent()"

    def _out(self, text: str = "") -> None:
        out = self.stdout or sys.stdout
        out.write(text + "\n")
        out.flush()

    def _read(self) -> str | None:
        line = (self.stdin or sys.stdin).readline()
        return line.strip() if line else None

    # ------------------------------------------------------------------ seeing
    def _catch_up(self, game: Game, seat: int) -> list[str]:
        """Fold the new events into the seat's view; their lines, as the seat sees them."""
        if self._seen is None:
            self._seen = Renderer(game.reg, as_player=seat, numbered=True)
            self._told = []
        r = self._seen
        lines = [r.render(env) for env in game.log[self._shown:]]
        self._shown = len(game.log)
        self._told += lines
        return lines

    def _named(self, game: Game) -> Callable[[int], str]:
        """How the menus name objects: numbered as the events and the board name them."""
        def name(ref: int) -> str:
            o = game.state.objects.get(ref)
            return numbered_name(game.name(ref), o) if o is not None else game.name(ref)
        return name

    def tell(self, game: Game, seat: int) -> None:
        """Tell ``seat`` everything that happened since its last question."""
        self._seat = seat
        for line in self._catch_up(game, seat):
            self._out(line)

    def board(self, game: Game, seat: int) -> str:
        """The board as ``seat`` sees it (``mtgk replay --as``)."""
        self._catch_up(game, seat)
        assert self._seen is not None
        return render_state(self._seen.state, game.reg, as_player=seat, seen=self._seen.seen,
                            numbered=True)

    # ------------------------------------------------------------------ answering
    def _menu(self, game: Game, d: Decision) -> Menu:
        return decision_menu(game, d, self._named(game), by_hand=self.pay_by_hand)

    def _stops(self, seat: int) -> Stops:
        if self.stops is None:
            self.stops = Stops(seat)
        return self.stops

    def auto(self, game: Game, d: Decision) -> Any:
        """The pass that answers ``d`` without asking (the person's stops, ``p``), or
        ``None``: ask."""
        return self._stops(d.player).auto_pass(game.state, d)

    def ask(self, game: Game, d: Decision) -> Any:
        """The person's answer to ``d``, or :data:`UNDO` or :data:`QUIT`."""
        menu = self._menu(game, d)
        while menu.answer is MORE and len(menu.choices) == 1:
            menu.pick(0)
        if menu.answer is MORE:
            self.tell(game, d.player)
            self._out()
            self._out(self.board(game, d.player))
        while menu.answer is MORE:
            said = self._ask(game, d, menu)
            if said is _AGAIN:  # (paying by hand turned on or off: the menu made anew)
                menu = self._menu(game, d)
            elif said is not None:
                return said
        self.answers.append(menu.answer)
        return menu.answer

    def decide(self, game: Game, d: Decision) -> Any:
        """(As an agent in a game the engine drives: undo is not available, and the end
        of the input passes.)"""
        auto = self.auto(game, d)
        if auto is not None:
            return auto
        answer = self.ask(game, d)
        if answer is UNDO or answer is QUIT:
            return d.options[0] if d.options else ["pass"]
        return answer

    def after_undo(self, game: Game) -> None:
        """The game went back (``game``'s log is shorter): see it from there on, as
        though the undone events never were."""
        self._seen = None
        self._shown = 0  # (all of it folded anew, none of it told again)
        self._catch_up(game, self._seat)
        self.answers = self.answers[:-1]

    def _ask(self, game: Game, d: Decision, menu: Menu) -> Any:
        self._seat = d.player
        self._out()
        self._out(f"{game.state.players[d.player].name}, {d.prompt or d.kind}:")
        for i, c in enumerate(menu.choices, 1):
            self._out(f"  {i}. {c.label}")
        while True:
            (self.stdout or sys.stdout).write("> ")
            (self.stdout or sys.stdout).flush()
            text = self._read()
            if text is None or text in ("q", "quit"):
                return QUIT
            if text in ("?", "h", "help"):
                self._out(HELP)
                continue
            if text == "b":
                self._out(self.board(game, d.player))
                continue
            if text == "l":
                for line in self._told:
                    self._out(line)
                continue
            if text == "m":
                self.pay_by_hand = not self.pay_by_hand
                self._out("paying by hand: your menus list the mana you can make" if
                          self.pay_by_hand else "paying automatically")
                return _AGAIN
            if text == "s":
                self._set_stops(d.player)
                continue
            if text == "p":
                if d.kind != "priority" or not any(o[0] == "pass" for o in d.options or ()):
                    self._out("p passes priority: answer this question first")
                    continue
                self._stops(d.player).yield_turn(game.state)
                self._out("passing until the end of this turn")
                menu.answer = self.auto(game, d)
                return None
            if text == "u":
                if not self.can_undo:
                    self._out("undo is not available here")
                elif not self.answers:
                    self._out("nothing to undo yet")
                else:
                    return UNDO
                continue
            if text.isdigit() and 1 <= int(text) <= len(menu.choices):
                menu.pick(int(text) - 1)
                return None
            self._out(f"not an option: type 1 to {len(menu.choices)}, or ? for help")

    def _set_stops(self, seat: int) -> None:
        """``s``: show the stops, and read the new ones (Enter keeps a list)."""
        stops = self._stops(seat)
        self._out("Stops: the steps you are asked in when the stack is empty and you could")
        self._out("only pass (in the others you pass).")
        for i, step in enumerate(PRIORITY_STEPS, 1):
            marks = ["x" if step in stops.steps[w] else " " for w in ("mine", "theirs")]
            self._out(f"  {i:2}. [{marks[0]}] your turn  [{marks[1]}] their turns  "
                      f"{step.replace('_', ' ')}")
        new: dict[str, list[str]] = {}
        for whose, words in (("mine", "your turns"), ("theirs", "their turns")):
            while True:
                self._out(f"stops on {words}: numbers (1 3 5), all, none, or Enter to keep")
                (self.stdout or sys.stdout).write("> ")
                (self.stdout or sys.stdout).flush()
                text = self._read()
                steps = _steps(text)
                if steps is not None:
                    new[whose] = steps if text else stops.listed()[whose]
                    break
                self._out(f"not stops: numbers from 1 to {len(PRIORITY_STEPS)}, all or none")
        stops.set(new["mine"], new["theirs"])
        listed = stops.listed()
        self._out("asked on your turns in: " + (", ".join(listed["mine"]) or "no step"))
        self._out("asked on their turns in: " + (", ".join(listed["theirs"]) or "no step"))

    def refused(self, game: Game, d: Decision, err: Exception) -> None:
        self._out(f"refused: {err}")


def _steps(text: str | None) -> list[str] | None:
    """The steps a line of ``s`` names ("" and the end of the input: none typed), or
    ``None`` (not stops)."""
    if not text:
        return []
    words = text.replace(",", " ").split()
    if words == ["all"]:
        return list(PRIORITY_STEPS)
    if words == ["none"]:
        return []
    if not all(w.isdigit() and 1 <= int(w) <= len(PRIORITY_STEPS) for w in words):
        return None
    return [PRIORITY_STEPS[int(w) - 1] for w in words]


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
    seats' agents made by ``makers``) and write its log to ``out``: before each of the
    person's decisions (a game killed then loses nothing the person saw), at the end,
    when the person quits, and if the engine fails.  The game is driven by a
    :class:`~mtgk.stepper.Stepper`: undo is :meth:`~mtgk.stepper.Stepper.undo`."""
    people = {i: HumanAgent(stdin=stdin, stdout=stdout, can_undo=True) for i in humans}
    agents: list[Agent | None] = [None if i in people else make()
                                  for i, make in enumerate(makers)]
    stepper: Stepper | None = None
    try:
        stepper = Stepper(reg, header, agents)
        if watch is not None:
            watch(stepper.game)
        written = -1
        marks: list[int] = []  # len(stepper.answers) before each decision the person answered
        while stepper.decision is not None:
            d = stepper.decision
            person = people[d.player]
            auto = person.auto(stepper.game, d)
            if auto is not None:  # (the person's stops pass it)
                stepper.answer(auto)
                continue
            if len(stepper.log) != written:  # on the file before the person decides
                write_log(out, header, stepper.log)
                written = len(stepper.log)
            answer = person.ask(stepper.game, d)
            if answer is QUIT:
                meta = dict(header.meta)
                meta["stopped"] = f"the player quit after {len(stepper.log)} events"
                header = msgspec.structs.replace(header, meta=meta)
                write_log(out, header, stepper.log)
                return Played(stepper.game, header, True)
            if answer is UNDO:
                target = marks.pop() if marks else len(stepper.answers) - 1
                stepper.undo()
                while len(stepper.answers) > target:  # (past the passes the stops made)
                    stepper.undo()
                if person.stops is not None:
                    person.stops.yielding = 0
                written = -1
                if watch is not None:
                    watch(stepper.game)
                person.after_undo(stepper.game)
                person._out("(undone: back at your previous decision)")
                continue
            marks.append(len(stepper.answers))
            try:
                stepper.answer(answer)
            except RulesError as err:
                marks.pop()
                person.answers.pop()
                person.refused(stepper.game, d, err)
    except BaseException:
        if stepper is not None and stepper.game is not None:
            write_log(out, header, stepper.log)
        raise
    write_log(out, header, stepper.log)
    for seat, person in people.items():  # how it ended: the last events, the final combat
        person.tell(stepper.game, seat)
    return Played(stepper.game, header, False)
