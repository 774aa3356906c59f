"""A search agent: Monte Carlo tree search over determinized forks.

:class:`MctsAgent` decides by trying its candidate answers in copies of the game and
keeping the one that did best.  It never looks at what its player can't see: every
copy is a *determinized* fork from its own seat (``Stepper.fork(perspective=...)``,
:mod:`mtgk.rules.redeal`): the other hands and the library orders are dealt anew,
consistent with everything the player has seen (information-set Monte Carlo).

For each decision with more than one candidate it makes a few worlds (determinized
forks), then spends its budget: each *simulation* takes the candidate with the best
upper confidence bound (UCB1), forks a world exactly (cheap: :mod:`mtgk.rules.checkpoints`),
answers with the candidate, plays on with heuristic agents until ``horizon`` more turns
have begun (default 1: to the end of this turn) and
scores the result from the player's side (a win 1, a loss 0, else :func:`evaluate`).

The budget is ``simulations`` per decision (deterministic: the same seed, the same
game) or, with ``ms``, milliseconds of wall-clock time per decision (not reproducible).
Decisions the search doesn't cover (mulligans, before the first priority, orders of
triggers, damage assignment) are left to :class:`~mtgk.agents.HeuristicAgent`.

It plays in a game driven by a :class:`~mtgk.stepper.Stepper` (``mtgk play``, ``sim``,
``branch``, the env's opponents), which is what it forks.

>>> MctsAgent(7)
MctsAgent(seed=7, simulations=32)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mtgk.agents import AGENTS as BASIC_AGENTS
from mtgk.agents import HeuristicAgent, RandomAgent
from mtgk.rules.seats import same_team
from mtgk.stepper import ForkError, Stepper

if TYPE_CHECKING:
    from mtgk.rules.engine import Agent, Decision, Game

__all__ = ["AGENTS", "MctsAgent", "evaluate"]

SEARCHED = ("priority", "attackers", "blockers", "targets", "may", "modes", "choose", "x")
"""The decision kinds the search covers (the others go to the heuristic agent)."""


def evaluate(game: Game, player: int) -> float:
    """How good the position is for ``player``, in (0, 1): life, the power and
    toughness of the creatures on the battlefield, cards in hand, each side's."""
    s = game.state
    if s.over:
        w = s.winner
        return 0.5 if w is None or w < 0 else (1.0 if same_team(s, w, player) else 0.0)
    score = 0.0
    for q, p in enumerate(s.players):
        sign = 1.0 if same_team(s, q, player) else -1.0
        if p.lost:
            score -= sign * 30
            continue
        value = p.life * 0.5 + len(p.hand) * 0.6
        for oid in s.battlefield:
            c = game.chars(oid)
            if c.controller == q:
                value += 0.8 + ((c.power or 0) + (c.toughness or 0)) * 0.5 \
                    if c.is_creature else 0.4
        score += sign * value
    return 1.0 / (1.0 + math.exp(-score / 8.0))


class MctsAgent:
    """Monte Carlo tree search over determinized forks (see the module's docstring).

    ``simulations``: simulations per decision; ``ms``: a time budget per decision
    instead (wall clock: not reproducible); ``worlds``: determinized worlds per
    decision; ``horizon``: turns each playout plays before it is scored; ``width``:
    at most this many candidates of a priority decision (the heuristic agent's own
    choice always among them).
    """

    forks = True  # (it forks the game it plays: Stepper.of)

    def __init__(self, seed: int = 0, simulations: int = 32, ms: float | None = None,
                 worlds: int = 4, horizon: int = 1, width: int = 8) -> None:
        self.seed = seed
        self.simulations = simulations
        self.ms = ms
        self.worlds = worlds
        self.horizon = horizon
        self.width = width
        self.rng = random.Random(seed)
        self.heuristic = HeuristicAgent(seed)

    def __repr__(self) -> str:
        budget = f"ms={self.ms}" if self.ms is not None else f"simulations={self.simulations}"
        return f"MctsAgent(seed={self.seed}, {budget})"

    def decide(self, game: Game, d: Decision) -> Any:
        stepper = Stepper.of(game)
        if stepper is None or d.kind not in SEARCHED:
            return self.heuristic.decide(game, d)
        cands = self._candidates(game, d)
        if len(cands) <= 1:
            return cands[0] if cands else self.heuristic.decide(game, d)
        try:
            worlds = [stepper.fork([None] * len(game.state.players), perspective=d.player,
                                   seed=self.rng.randrange(2**31))
                      for _ in range(max(1, self.worlds))]
        except ForkError:
            return self.heuristic.decide(game, d)
        return cands[self._search(worlds, cands, d.player)]

    def _candidates(self, game: Game, d: Decision) -> list[Any]:
        """The answers the search compares: the heuristic agent's first, then listed
        options (a priority decision: at most ``width``), or a few others for decisions
        whose answers aren't listed (attack with nothing, at random)."""
        first = self.heuristic.decide(game, d)
        out = [first]
        if d.options is not None and not d.many:
            for o in d.options:
                if len(out) >= self.width:
                    break
                if o != first:
                    out.append(o)
            return out
        if d.kind in ("attackers", "blockers"):
            others: list[Any] = [[], RandomAgent(self.rng.randrange(2**31)).decide(game, d)]
            for a in others:
                if a not in out:
                    out.append(a)
        return out

    def _search(self, worlds: list[Stepper], cands: list[Any], me: int) -> int:
        n = [0] * len(cands)
        total = [0.0] * len(cands)
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000
        sims = 0
        while True:
            if deadline is None:
                if sims >= self.simulations:
                    break
            elif time.perf_counter() >= deadline and sims >= len(cands):
                break
            i = self._pick(n, total, sims)
            world = worlds[sims % len(worlds)]
            total[i] += self._simulate(world, cands[i], me)
            n[i] += 1
            sims += 1
        return max(range(len(cands)), key=lambda i: (total[i] / n[i] if n[i] else -1.0, -i))

    @staticmethod
    def _pick(n: list[int], total: list[float], sims: int) -> int:
        for i, k in enumerate(n):
            if k == 0:
                return i
        log_n = math.log(sims)
        return max(range(len(n)),
                   key=lambda i: total[i] / n[i] + 1.4 * math.sqrt(log_n / n[i]))

    def _simulate(self, world: Stepper, answer: Any, me: int) -> float:
        f = world.fork(forks=False)
        try:
            f.answer(answer)
        except Exception:  # noqa: BLE001 - not legal in this world: the worst score
            return 0.0
        seed = self.rng.randrange(2**31)
        players = [HeuristicAgent(seed + i) for i in range(len(f.state.players))]
        until = f.state.turn + self.horizon
        while f.decision is not None and f.state.turn < until:
            d = f.decision
            f.answer(players[d.player].decide(f.game, d))
        return evaluate(f.game, me)


AGENTS: dict[str, Callable[[int], Agent]] = {**BASIC_AGENTS, "mcts": MctsAgent}
"""The agents ``--agents`` may name: :data:`mtgk.agents.AGENTS` and ``mcts``."""
