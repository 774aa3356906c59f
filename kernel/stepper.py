"""Driving a game from outside: the :class:`Stepper`.

The engine asks its questions from inside the rules (``if c.may(...)`` in a card's
effect is a plain ``if``).  A stepper turns that inside out without a thread: the game
runs in a *greenlet* (a coroutine of the C library ``greenlet``) that switches back to
the caller whenever a player must decide, and on with the answer when the caller gives
one.  Exactly one side runs at a time; nothing is raised to stop the engine (a game
left unanswered is simply never switched to again, and freed).

>>> from mtgk.cards.loading import load_registry
>>> from mtgk.cards.decks import builtin_decks, deck_lines, load_deck
>>> from mtgk.games.replay import new_header
>>> reg = load_registry()
>>> decks = [deck_lines(load_deck(name, reg)) for name in list(builtin_decks(reg))[:2]]
>>> header = new_header(reg, ["Alice", "Bob"], decks, seed=7)
>>> game = Stepper(reg, header)
>>> game.decision
Decision('mulligan', player=1, options=2)
>>> game.decision.options
[True, False]
>>> game.answer(True)
Decision('mulligan', player=0, options=2)

Seats can be played by the stepper itself (``agents``: an agent for a seat, ``None``
for a seat the caller answers); :meth:`Stepper.fork` copies a game at any pending
decision, exactly; :meth:`Stepper.undo` goes back to the previous decision.
"""

from __future__ import annotations

import bisect
import copy
import gc
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from greenlet import getcurrent, greenlet

from mtgk.cards.definitions import Registry
from mtgk.games.start import run_from_header
from mtgk.log.logfile import LogHeader
from mtgk.rules.checkpoints import resume_game
from mtgk.rules.core import GameOver
from mtgk.rules.engine import Agent, Decision, Game, RulesError
from mtgk.rules.redeal import Sight, redeal
from mtgk.rules.state import State

__all__ = ["ASK", "Auto", "ForkError", "Stepper", "StepperError", "action_words", "words"]

Run = Callable[[Sequence[Agent], Callable[[Game], None]], Any]
"""Plays a game with the agents given, calling ``watch(game)`` once the game exists
(:func:`mtgk.games.replay.run_from_header` is one)."""


class StepperError(Exception):
    """A stepper used wrongly: an answer after the game's end, say."""


class ForkError(StepperError):
    """A game that cannot be forked (``copy``, ``pickle``: use :meth:`Stepper.fork`)."""


_END = object()

ASK = object()
"""What an :data:`Auto` returns for a decision the caller is to be asked."""

Auto = Callable[[Decision], Any]
"""Answers some of the caller's decisions itself (``Stepper(..., auto=)``): the answer, or
:data:`ASK` to hand the decision to the caller.  It is called in the engine, without the
hand-off to the caller and back (the step environment answers a decision with one legal
answer so: ``skip_trivial``)."""

_BY_GAME: weakref.WeakValueDictionary[int, Stepper] = weakref.WeakValueDictionary()
"""The stepper that drives each game (by the game's id: a game lives as long as its
stepper, which holds it)."""


def words(game: Game, d: Decision, answer: Any) -> str:
    """Readable words for ``answer`` to the decision ``d`` of ``game`` (what the
    terminal player's menus show; ``Stepper.text`` asks it of the pending decision):

    >>> from mtgk.log.answers import PASS, Attack
    >>> class _G:  # (any game: it is asked only for names)
    ...     def name(self, ref): return {-1: "Alice", -2: "Bob", 7: "Gray Ogre"}[ref]
    >>> words(_G(), Decision("priority", 0, None), PASS)
    'pass'
    >>> words(_G(), Decision("attackers", 0, None), [Attack(7, -2)])
    'Gray Ogre attacks Bob'
    >>> words(_G(), Decision("may", 1, [True, False]), False)
    'no'
    """
    name = game.name
    k = d.kind
    if k == "priority":
        tag = answer[0]
        if tag == "pass":
            return "pass"
        if tag == "activate":
            return f"activate {name(answer[1])}'s ability {answer[2]}" + action_words(
                name, answer[3], (), answer[4], "")
        if tag == "cast":
            return f"cast {name(answer[1])}" + action_words(name, answer[2], answer[3],
                                                             answer[4], answer[5])
        return f"{tag} {name(answer[1])}"
    if k in ("attackers", "blockers"):
        verb = " attacks " if k == "attackers" else " blocks "
        return ", ".join(name(a) + verb + name(b) for a, b in answer) or f"no {k}"
    if k == "assign":
        return ", ".join(f"{n} to {name(r)}" for r, n in answer) or "no damage"
    if isinstance(answer, bool):
        return "yes" if answer else "no"
    if k in ("x", "number", "modes", "mode"):
        return ", ".join(map(str, answer)) if isinstance(answer, list) else str(answer)
    if isinstance(answer, int):
        return name(answer)
    if isinstance(answer, list) and all(type(i) is int for i in answer):
        return ", ".join(name(i) for i in answer) or "none"
    return str(answer)


def action_words(name: Callable[[int], str], targets: Sequence[int], modes: Sequence[int],
                 x: int, alt: str) -> str:
    """The words after a spell's or ability's name in an action: its targets, modes, X
    and alternative cost (`` targeting Bob (modes 1, 2) X=3 (evoke)``)."""
    words = f" targeting {', '.join(name(t) for t in targets)}" if targets else ""
    if modes:
        words += f" (modes {', '.join(map(str, modes))})"
    if x:
        words += f" X={x}"
    if alt:
        words += f" ({alt})"
    return words


class _Seat:
    """The agent of every seat of a stepper's game: hands the decision to the stepper."""

    __slots__ = ("driver",)

    def __init__(self, driver: weakref.ref[Stepper]) -> None:
        self.driver = driver

    def decide(self, game: Game, d: Decision) -> Any:
        drv = self.driver()
        assert drv is not None
        if drv._script:  # a fork catching up: the answers given before
            answer, by_caller = drv._script.pop()
        elif drv._auto is not None and 0 <= d.player < len(drv.agents) and \
                drv.agents[d.player] is None and (
                answer := drv._auto(d)) is not ASK:
            by_caller = True  # (answered for the caller, as the caller would have)
        else:
            # (no reference to the stepper, nor to this greenlet, held while it waits: a
            # stepper nobody holds any more is freed at once, its greenlet with it)
            del drv
            answer = getcurrent().parent.switch(d)
            drv = self.driver()
            assert drv is not None
            by_caller = drv._by_caller
        drv.answers.append(answer)
        drv.callers.append(by_caller)
        return answer

    def refused(self, game: Game, d: Decision, err: Exception) -> None:
        drv = self.driver()
        assert drv is not None
        drv._refused(err)


class _ForcedSeat(_Seat):
    """A seat whose own agent wants to hear of decisions with one legal answer."""

    __slots__ = ()

    def forced(self, game: Game, d: Decision) -> None:
        drv = self.driver()
        assert drv is not None
        if drv._forced is not None:
            drv._forced(game, d)
            return
        agent = drv.agents[d.player] if 0 <= d.player < len(drv.agents) else None
        if agent is not None and hasattr(agent, "forced"):
            agent.forced(game, d)


class Stepper:
    """One game, driven from outside.

    ``Stepper(registry, header, agents)`` starts the game of a log header
    (:func:`mtgk.games.replay.new_header`) and plays until a seat without an agent must
    decide: :attr:`decision` is that question (``None`` once the game is over),
    :meth:`answer` gives its answer and plays on to the next one.  ``agents``: one per
    seat, ``None`` for a seat the caller answers (no agents: the caller answers all).

    ``forks``: record checkpoints (:mod:`mtgk.rules.checkpoints`), so that :meth:`fork`
    and :meth:`undo` cost the same early and late in a game (default: when a seat is
    the caller's or its agent forks, ``forks = True``, as a search agent does; a game
    all of whose seats are played by agents that don't fork records none).

    ``auto``: answers some of the caller's decisions in the engine, without stopping
    (:data:`Auto`; recorded as the caller's answers: a fork and :meth:`undo` see them as
    given by the caller).
    """

    def __init__(self, registry: Registry, header: LogHeader,
                 agents: Sequence[Agent | None] = (), *, forks: bool | None = None,
                 watch: Callable[[Game], None] | None = None, auto: Auto | None = None
                 ) -> None:
        def run(members: Sequence[Agent], watch: Callable[[Game], None]) -> Any:
            return run_from_header(registry, header, members, watch)

        seats: list[Agent | None] = list(agents) or [None] * len(header.players)
        if forks is None:  # a caller's seat, or an agent that forks (a search)
            forks = any(a is None or getattr(a, "forks", False) for a in seats)
        self._setup(registry, header, seats, forks, watch, auto=auto)
        if not forks and all(a is not None for a in seats):
            self._straight(run)  # nobody to hand a decision to, nothing to fork
        else:
            self._start(run)

    @classmethod
    def driving(cls, run: Run, registry: Registry, header: LogHeader | None,
                agents: Sequence[Agent | None] = (),
                watch: Callable[[Game], None] | None = None,
                forced: Callable[[Game, Decision], None] | None = None) -> Stepper:
        """A stepper for a game that ``run`` plays (a log's re-runner, a scenario's):
        it forks by playing the game again with the answers given so far.  ``watch(game)``
        is called once the game exists, before anything else happens; ``forced(game, d)``
        is told of each decision with one legal answer, which is taken without asking
        (a scenario's runner notes the answer it had for it).  ``header``: the game's log
        header, if it has one; without it, ``agents`` says how many seats."""
        self = cls.__new__(cls)
        seats = list(agents) or [None] * (len(header.players) if header is not None else 2)
        self._setup(registry, header, seats, False, watch, forced)
        self._start(run)
        return self

    def _setup(self, registry: Registry, header: LogHeader | None, agents: list[Agent | None],
               forks: bool, watch: Callable[[Game], None] | None = None,
               forced: Callable[[Game, Decision], None] | None = None,
               auto: Auto | None = None) -> None:
        self._watch = watch
        self._forced = forced
        self._auto = auto
        self.straight = False  #: played straight through by its agents (:meth:`_straight`)
        self.registry = registry
        self.header = header
        self.agents = agents
        self.forks = forks
        self.answers: list[Any] = []  #: every legal answer given, in order
        self.callers: list[bool] = []  #: for each, whether the caller gave it
        self._by_caller = False
        self.decision: Decision | None = None
        self.refusal: RulesError | None = None
        self.game: Game = None  # type: ignore[assignment]  # (set as the game starts)
        self._script: list[Any] = []  # answers to give again (a fork catching up)
        self._failed: BaseException | None = None
        self._run: Run | None = None
        self._sights: dict[int, Sight] = {}
        ref = weakref.ref(self)
        told = forced is not None or any(a is not None and hasattr(a, "forced") for a in agents)
        self._seats = [(_ForcedSeat if told else _Seat)(ref) for _ in agents]

    # ------------------------------------------------------------------ running
    def _start(self, run: Run) -> None:
        self._run = run
        ref = weakref.ref(self)  # (the greenlet holds no reference to its stepper: a
        seats = self._seats  # stepper nobody holds is freed at once, not by the collector)

        def watch(game: Game) -> None:
            me = ref()
            assert me is not None
            me.game = game
            _BY_GAME[id(game)] = me
            if me.forks:
                game.checkpoints = []
            if me._watch is not None:
                me._watch(game)

        def main(_: Any = None) -> Any:
            try:
                run(seats, watch)
            except GameOver:
                pass
            return _END

        self._engine = greenlet(main)
        self._go(None, False)

    def _straight(self, run: Run) -> None:
        """Play a game all of whose seats have agents that don't fork straight through:
        the engine asks the agents itself (no greenlet to switch to: the play loop of
        ``mtgk play`` and ``sim``, as fast as the engine alone)."""
        self._run = None
        self.straight = True

        def watch(game: Game) -> None:
            self.game = game
            _BY_GAME[id(game)] = self
            if self._watch is not None:
                self._watch(game)

        try:
            run([a for a in self.agents if a is not None], watch)
        except GameOver:
            pass
        except BaseException as exc:
            self._failed = exc
            raise

    def _resume(self, source: Game, index: int, script: list[Any],
                deal: tuple[Sight, int] | None = None) -> None:
        self.game = resume_game(source, index, self._seats)
        _BY_GAME[id(self.game)] = self
        if deal is not None:
            sight, seed = deal
            self.game.log = redeal(self.game.state, self.game.log, sight, seed)
            # (the true seed tells the library orders: the copy's randomness is its own)
            self.game.seed = (seed * 1_000_003 + 1) % 2**63
        self._script = script
        cp = self.game.checkpoints[-1]  # type: ignore[index]
        game = self.game

        def main(_: Any = None) -> Any:
            game.resume(cp)
            return _END

        self._engine = greenlet(main)
        self._go(None, False)

    def _go(self, value: Any, by_caller: bool) -> None:
        """Switch to the engine with ``value`` (the caller's answer, or ``None`` to start);
        answer what the stepper's own agents are asked; stop at the caller's next
        decision or the end."""
        while True:
            self._by_caller = by_caller
            self._engine.parent = getcurrent()
            try:
                got = self._engine.switch(value)
            except BaseException as exc:
                self._failed = exc
                self.decision = None
                raise
            if got is _END:
                self.decision = None
                return
            d: Decision = got
            agent = self.agents[d.player] if 0 <= d.player < len(self.agents) else None
            err, self.refusal = self.refusal, None
            self.decision = d
            if agent is None:
                if err is not None:
                    raise err  # (the decision stays pending)
                return
            if err is not None:
                refused = getattr(agent, "refused", None)
                if refused is None:
                    raise err
                refused(self.game, d, err)
            value, by_caller = agent.decide(self.game, d), False

    def _refused(self, err: Exception) -> None:
        """(In the engine's greenlet.)  The last answer was not legal."""
        self.answers.pop()
        self.callers.pop()
        if self._script:
            raise StepperError(f"an answer given again was refused: {err}")
        assert isinstance(err, RulesError)
        self.refusal = err

    @staticmethod
    def of(game: Game) -> Stepper | None:
        """The stepper driving ``game``, if one is (what an agent that forks the game it
        plays asks: :class:`mtgk.search.MctsAgent`)."""
        st = _BY_GAME.get(id(game))
        return st if st is not None and st.game is game else None

    # ------------------------------------------------------------------ the caller's
    @property
    def over(self) -> bool:
        """Whether the game is over (no decision pending)."""
        return self.decision is None

    @property
    def state(self) -> State:
        return self.game.state

    @property
    def log(self) -> list[Any]:
        return self.game.log

    @property
    def winner(self) -> int | None:
        """The winner once the game is over (``-1``: a draw), else ``None``."""
        if self.decision is not None:
            return None
        w = self.game.state.winner
        return -1 if w is None else w

    def text(self, choice: Any) -> str:
        """Words for ``choice`` as an answer to the pending decision (:func:`words`)."""
        if self.decision is None:
            raise StepperError("the game is over: there is no decision to answer")
        return words(self.game, self.decision, choice)

    def answer(self, choice: Any) -> Decision | None:
        """Answer the pending decision with ``choice`` and play on: the next pending
        decision, or ``None`` at the game's end.  An illegal answer raises
        :class:`~mtgk.rules.engine.RulesError` (naming the rule) and the decision stays
        pending, nothing appended."""
        if self.decision is None:
            raise StepperError("the game is over: there is nothing to answer"
                               if self._failed is None else
                               f"the game failed: {type(self._failed).__name__}: "
                               f"{self._failed}")
        self._go(choice, True)
        return self.decision

    def play(self, agents: Sequence[Agent]) -> int:
        """Answer every decision from here on with ``agents`` (one per seat); the
        winner (``-1``: a draw)."""
        while self.decision is not None:
            d = self.decision
            self.answer(agents[d.player].decide(self.game, d))
        w = self.game.state.winner
        return -1 if w is None else w

    # ------------------------------------------------------------------ forks
    def fork(self, agents: Sequence[Agent | None] | None = None, *,
             perspective: int | None = None, seed: int = 0,
             forks: bool | None = None) -> Stepper:
        """An exact, independent copy of this game at its pending decision: answered
        alike, both play alike, event for event.  ``agents``: the copy's (default: copies
        of this game's own agents, which then answer alike without touching these).

        ``perspective``: a *determinized* copy for a search by that player instead
        (:mod:`mtgk.rules.redeal`): the cards they have never seen (other hands, library
        orders, face-down cards) are dealt anew, at random from ``seed``, and the game's
        later random outcomes are drawn from ``seed`` too; every event they saw reads
        the same.  (Not before the first priority: the opening hands are being kept.)

        ``forks=False``: the copy records no checkpoints of its own (it can't be forked
        in turn, and plays on a little faster: a search's playout)."""
        if agents is None:
            agents = [None if a is None else copy.deepcopy(a) for a in self.agents]
        if perspective is None:
            other = self._copy(len(self.answers), agents)
        else:
            if not 0 <= perspective < len(self.state.players):
                raise ForkError(f"there is no player {perspective} to see the game")
            sight = self._sights.get(perspective)
            if sight is None:
                sight = self._sights[perspective] = Sight(perspective)
            sight.catch_up(self.game.log)
            other = self._copy(len(self.answers), agents, (sight, seed))
        if forks is False:
            other.forks = False
            other.game.checkpoints = None
        return other

    def undo(self) -> Decision | None:
        """Go back to the previous decision the caller answered (python-chess's
        ``pop()``), at the cost of a fork; returns it.  The answers since are forgotten."""
        k = len(self.answers) - 1
        while k >= 0 and not self.callers[k]:
            k -= 1
        if k < 0:
            raise StepperError("nothing to undo: no decision has been answered")
        other = self._copy(k, None)
        self.__dict__.update(other.__dict__)
        for seat in self._seats:  # (the game of ``other`` holds them: they ask this one)
            seat.driver = weakref.ref(self)
        _BY_GAME[id(self.game)] = self
        return self.decision

    def _copy(self, k: int, agents: Sequence[Agent | None] | None,
              deal: tuple[Sight, int] | None = None) -> Stepper:
        """A new stepper at the decision answered by ``answers[k]`` (``deal``: what a
        determinized copy deals anew, :meth:`fork`), made without the cyclic garbage
        collector (a fork makes no reference cycles: a collection meanwhile would only
        walk the objects it makes)."""
        enabled = gc.isenabled()
        gc.disable()
        try:
            return self._copy_now(k, agents, deal)
        finally:
            if enabled:
                gc.enable()

    def _copy_now(self, k: int, agents: Sequence[Agent | None] | None,
                  deal: tuple[Sight, int] | None) -> Stepper:
        if self._failed is not None:
            raise ForkError("a game that failed cannot be forked")
        if self.straight:
            raise ForkError("a game played straight through by its agents (forks=False) "
                            "recorded nothing to fork from")
        other = Stepper.__new__(Stepper)
        other._setup(self.registry, self.header,
                     list(self.agents) if agents is None else list(agents), self.forks,
                     None, self._forced, self._auto)
        cps = self.game.checkpoints if self.game is not None else None
        i = -1
        if cps:
            i = bisect.bisect_right(cps, k, key=lambda c: c.asked) - 1
        if deal is not None and (i < 0 or cps is None):
            raise ForkError("a determinized fork needs a game past its opening hands "
                            "(and one started by Stepper(registry, header))")
        if i < 0 or cps is None:
            assert self._run is not None
            other._script = self._again(0, k)
            other._start(self._run)
        else:
            other._run = self._run
            cp = cps[i]
            other.answers = self.answers[:cp.asked]
            other.callers = self.callers[:cp.asked]
            other._resume(self.game, i, self._again(cp.asked, k), deal)
        return other

    def _again(self, lo: int, hi: int) -> list[tuple[Any, bool]]:
        """Answers ``lo`` to ``hi`` and who gave them, to be given again (last first)."""
        return list(reversed(list(zip(self.answers[lo:hi], self.callers[lo:hi], strict=True))))

    def __copy__(self) -> Stepper:
        return self.fork()

    def __deepcopy__(self, memo: dict[int, Any]) -> Stepper:
        return self.fork()

    def __reduce__(self) -> Any:
        raise ForkError("a game in progress cannot be pickled: use fork() for a copy, "
                        "or save its log (mtgk.log.logfile.write_log) and replay it")

    def __repr__(self) -> str:
        where = "over" if self.decision is None else repr(self.decision)
        return f"<Stepper {self.game!r}: {where}>"
