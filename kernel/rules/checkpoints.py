"""Checkpoints: the points where a game can be taken up again, for forks and undo.

A game driven by a :class:`~mtgk.stepper.Stepper` that forks records a
:class:`Checkpoint` each time a player gets priority in a round of priority of the turn
structure (the points where the rules' own position is a handful of numbers: the step,
who has priority, how many passed in succession).  A checkpoint holds those numbers,
the engine's own bookkeeping that the log does not hold (the cause being recorded, the
last choice's event, what state-based actions last found ...), and a reference to the
latest *snapshot*: the state's bytes, taken every :data:`SNAPSHOT_EVERY` events.

To take a game up again at a checkpoint (:func:`resume_game`): decode its snapshot,
fold the log's events from the snapshot to the checkpoint onto it (the state is a fold
of the log), set the numbers, and run the turn structure from that round of priority
(:meth:`~mtgk.rules.turns.TurnStructure.resume`).  The work is the same early and late
in a game: one decode, at most :data:`SNAPSHOT_EVERY` events folded, a copy of the
log's list.  A decision after the checkpoint (a target, a ``may`` of a resolving spell)
is reached by answering again the answers given since it.

Checkpoints cost nothing in a game nobody forks: ``Game.checkpoints`` is ``None``.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mtgk.rules.state import State, decode_state, encode_state, fold

if TYPE_CHECKING:
    from mtgk.rules.engine import Agent, Game

__all__ = ["SNAPSHOT_EVERY", "Checkpoint", "record", "resume_game"]

SNAPSHOT_EVERY = 64
"""Events between two snapshots of the state: a fork folds at most this many."""


class Checkpoint:
    """Where a game can be taken up again: a player is about to get priority.

    ``at``: the log's length; ``asked``: the answers given so far (``Game.asked``);
    ``player``, ``passes``, ``last_pass``: the round of priority's position; ``step``,
    ``turn``, ``active``, ``combat_skipped``, ``cleanup``: the turn structure's; the
    rest is the engine's bookkeeping (see :func:`record`); ``snapshot``: ``(at, bytes)``
    of the latest snapshot of the state at or before ``at``.
    """

    __slots__ = ("active", "asked", "at", "cause", "choice_at", "cleanup", "combat_skipped",
                 "id_floor", "last_pass", "loop_from", "loop_seen", "max_turns", "names",
                 "passes", "player", "sba_clean", "settled", "snapshot", "step", "step_end",
                 "tokens", "turn")
    at: int
    asked: int
    player: int
    passes: int
    last_pass: int
    step: str
    turn: int
    active: int
    combat_skipped: bool
    cleanup: int
    cause: tuple[int, ...]
    step_end: int
    choice_at: int
    sba_clean: int
    settled: bool
    loop_from: int
    loop_seen: frozenset[Any]
    id_floor: int
    max_turns: int
    names: frozenset[str]
    tokens: bool
    snapshot: tuple[int, bytes]

    def __repr__(self) -> str:
        return (f"Checkpoint(at={self.at}, asked={self.asked}, turn={self.turn}, "
                f"step={self.step!r}, player={self.player}, passes={self.passes})")


def record(game: Game, player: int, passes: int, last_pass: int) -> None:
    """Append a checkpoint to ``game.checkpoints``: ``player`` is about to get priority
    after ``passes`` passes in succession (the last recorded one ``last_pass``)."""
    cps = game.checkpoints
    assert cps is not None and game._round_ctx is not None
    step, turn, active, skipped, cleanup = game._round_ctx
    at = len(game.log)
    prev = cps[-1] if cps else None
    c = Checkpoint()
    c.at, c.asked, c.player, c.passes, c.last_pass = at, game.asked, player, passes, last_pass
    c.step, c.turn, c.active, c.combat_skipped, c.cleanup = step, turn, active, skipped, cleanup
    c.cause = tuple(game._cause)
    c.step_end, c.choice_at, c.sba_clean = game._step_end, game._choice_at, game._sba_clean
    c.settled = game._settled == game._sba_version
    c.loop_from = game._loop_from
    c.loop_seen = frozenset(game._loop_seen) if game._loop_seen else frozenset()
    c.id_floor, c.max_turns, c.tokens = game._id_floor, game.max_turns, game._tokens
    names = game._names
    c.names = prev.names if prev is not None and len(prev.names) == len(names) \
        else frozenset(names)
    if prev is None or at - prev.snapshot[0] >= SNAPSHOT_EVERY:
        c.snapshot = (at, encode_state(game.state))
    else:
        c.snapshot = prev.snapshot
    cps.append(c)


def state_at(cp: Checkpoint, log: Sequence[Any]) -> State:
    """The state at checkpoint ``cp`` of a game whose log begins with ``log``."""
    at, data = cp.snapshot
    enabled = gc.isenabled()
    gc.disable()  # (decoding makes no reference cycles: collecting meanwhile only walks)
    try:
        s = decode_state(data)
        if cp.at > at:
            fold(list(log[at:cp.at]), s)
    finally:
        if enabled:
            gc.enable()
    return s


def resume_game(source: Game, index: int, agents: Sequence[Agent]) -> Game:
    """A new game at checkpoint ``source.checkpoints[index]`` of ``source`` (which has
    played past it), played by ``agents``: not yet running (call its ``resume(cp)``)."""
    src = source.checkpoints
    assert src is not None
    cp = src[index]
    g = type(source)(source.reg, [p.name for p in source.state.players], seed=source.seed,
             agents=agents, start=False)
    g.state = state_at(cp, source.log)
    g.log = source.log[:cp.at]
    g.max_events = source.max_events
    g.keep_like(source)
    g.memo = {k: (dict(v) if isinstance(v, dict) else v) for k, v in source.memo.items()}
    g._lki = dict(source._lki)  # (only ever added to, for objects that left: a superset)
    g.asked = cp.asked
    g._cause = list(cp.cause)
    g._step_end, g._choice_at, g._sba_clean = cp.step_end, cp.choice_at, cp.sba_clean
    if cp.settled:
        g._settled = g._sba_version
    g._loop_from, g._loop_seen = cp.loop_from, set(cp.loop_seen)
    g._id_floor, g.max_turns = cp.id_floor, cp.max_turns
    g._names = set(cp.names)
    g._tokens = cp.tokens
    g.checkpoints = src[:index + 1]
    return g
