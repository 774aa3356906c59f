"""Benchmarks: random playouts, replay speed, seeking, log size, load time.

``mtgk bench playouts --games N --seed S [--deck FILE] [--skip-trivial]`` plays N
games of the same deck against itself with uniformly random legal decisions
(opening hands kept; with ``--skip-trivial``, a player who may only pass passes
without being asked, like managym's ``skip_trivial``) and ends with exactly one line::

    games=N decisions=N events=N seconds=S

so that it can be compared side by side with other engines on the same deck
(``bench/decks/ogres.txt``: 17 Mountain + 23 Gray Ogre).  ``bench/run.py``
prints every figure the project tracks.  Nothing here is asserted by CI.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mtgk.agents import RandomAgent
from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.rules.engine import Decision, Game


@dataclass
class PlayoutResult:
    games: int
    decisions: int
    events: int
    seconds: float

    def line(self) -> str:
        return (f"games={self.games} decisions={self.decisions} events={self.events} "
                f"seconds={self.seconds:.3f}")


class _Counting(RandomAgent):
    """A random agent that counts the decisions it makes; with ``skip_trivial``, it passes
    priority without a random draw (and without counting it) when passing is all it may
    do, as managym's ``skip_trivial`` steps over such decisions."""

    def __init__(self, seed: int, skip_trivial: bool = False) -> None:
        super().__init__(seed)
        self.asked = 0
        self.skip_trivial = skip_trivial

    def decide(self, game: Game, d: Decision) -> Any:
        if self.skip_trivial and d.kind == "priority" and d.options is not None \
                and len(d.options) == 1:
            return d.options[0]
        self.asked += 1
        return super().decide(game, d)


def playouts(reg: Registry, deck: Sequence[str], games: int, seed: int = 0,
             max_turns: int = 200, progress: bool = False,
             skip_trivial: bool = False) -> PlayoutResult:
    """Play ``games`` random games of ``deck`` against itself (one core).  ``skip_trivial``:
    a player whose only legal action is to pass passes without being asked (the pass
    is recorded as usual, which is to say not at all: a decision with one answer is
    not recorded); the games then differ from those without it, as managym's do."""
    decisions = events = 0
    start = time.perf_counter()
    for i in range(games):
        a = _Counting(seed * 7919 + 2 * i, skip_trivial)
        b = _Counting(seed * 7919 + 2 * i + 1, skip_trivial)
        g = Game(reg, ["p1", "p2"], seed=seed * 100003 + i, agents=[a, b])
        g.play([list(deck), list(deck)], mulligans=False, max_turns=max_turns)
        decisions += a.asked + b.asked
        events += len(g.log)
        if progress and (i + 1) % max(1, games // 20) == 0:
            print(f"  {i + 1}/{games} games", flush=True)
    return PlayoutResult(games, decisions, events, time.perf_counter() - start)


@dataclass
class ForkResult:
    forks: int
    exact: int
    times_us: list[float]
    events_max: int

    def median_us(self) -> float:
        t = sorted(self.times_us)
        return t[len(t) // 2] if t else 0.0

    def p99_us(self) -> float:
        t = sorted(self.times_us)
        return t[min(len(t) - 1, int(len(t) * 0.99))] if t else 0.0

    def line(self) -> str:
        return (f"forks={self.forks} exact={self.exact} median_us={self.median_us():.0f} "
                f"p99_us={self.p99_us():.0f} events_max={self.events_max}")


def forks(reg: Registry, decks: Sequence[Sequence[str]], games: int, seed: int = 0,
          every: int = 7, max_turns: int = 200, progress: bool = False) -> ForkResult:
    """Play ``games`` games of ``decks`` (heuristic agents, answered from outside through
    a :class:`~mtgk.stepper.Stepper`), then play each again with the same answers and
    fork it at every ``every``-th decision (spread over the whole game): each fork is
    timed, played on at once with the rest of the answers and counted exact if its log
    is the first game's, byte for byte (one fork alive at a time, as in a search)."""
    import msgspec

    from mtgk.agents import HeuristicAgent
    from mtgk.cards.decks import deck_lines
    from mtgk.games.replay import new_header
    from mtgk.stepper import Stepper

    encode_event = msgspec.msgpack.Encoder().encode
    times: list[float] = []
    exact = n = events_max = 0
    for i in range(games):
        header = new_header(reg, ["Alice", "Bob"], [deck_lines(d) for d in decks],
                            seed + i, meta={"max_turns": max_turns})
        first = Stepper(reg, header)
        agents = [HeuristicAgent(2 * (seed + i)), HeuristicAgent(2 * (seed + i) + 1)]
        while first.decision is not None:
            d = first.decision
            first.answer(agents[d.player].decide(first.game, d))
        full = [encode_event(e) for e in first.log]
        answers = first.answers
        game = Stepper(reg, header)
        for k, a in enumerate(answers):
            if k % every == every // 2:
                t = time.perf_counter_ns()
                f = game.fork()
                times.append((time.perf_counter_ns() - t) / 1000)
                events_max = max(events_max, len(game.log))
                for b in answers[k:]:
                    f.answer(b)
                n += 1
                exact += f.over and [encode_event(e) for e in f.log] == full
                del f
            game.answer(a)
        if progress:
            print(f"  {i + 1}/{games} games, {n} forks", flush=True)
    return ForkResult(n, exact, times, events_max)


def recorded_decisions(log: Sequence[ev.Envelope]) -> int:
    return sum(1 for e in log if isinstance(e.event, ev.DecisionMade))
