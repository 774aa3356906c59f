"""Which objects and players an event names (:func:`event_refs`), each physical card followed
across zone changes (:class:`CardIndex`), and the turn and step of every event
(:func:`moments`, :func:`find_moment`)."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from mtgk.log import events as ev
from mtgk.log.answers import Action, Pair
from mtgk.log.events import Envelope, ref_player
from mtgk.log.logfile import UnknownEvent
from mtgk.rules.visibility import (
    PLAIN_CHOICE_KINDS,
    PLAYER_FIELDS,
    REF_FIELDS,
    field_holds_ids,
    map_choice,
)

__all__ = [
    "CardIndex",
    "Moment",
    "Refs",
    "event_refs",
    "find_moment",
    "moments",
]


_NON_ID_FIELDS = frozenset({"effect", "effects"})  # effect ids: mapped, but not objects


@dataclass(frozen=True)
class Refs:
    """The objects and players an event names (each listed once, in order)."""

    objects: tuple[int, ...]
    players: tuple[int, ...]


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def event_refs(e: ev.Event) -> Refs:
    """The objects and players ``e`` names: see the module docs and :func:`map_event_ids`.

    Players count when a player field names them, a reference (a target, an
    attacked player) names them, or they make a decision.  Effect ids are not
    objects and are left out.
    """
    objs: list[int] = []
    players: list[int] = []

    def obj(i: int) -> int:
        if i not in objs:
            objs.append(i)
        return i

    def player(p: Any) -> None:
        if _is_int(p) and p >= 0 and p not in players:
            players.append(p)

    if isinstance(e, UnknownEvent):
        return Refs((), ())
    for name in e.__struct_fields__:
        v = getattr(e, name)
        if name in PLAYER_FIELDS:
            player(v)
        elif name == "to" and isinstance(e, ev.Revealed):
            for p in v:
                player(p)
        elif name == "choice" and isinstance(e, ev.DecisionMade):
            if e.kind == "first_player":
                player(v)
            else:
                map_choice(e.kind, v, obj)
                for p in _choice_players(e.kind, v):
                    player(p)
        elif name in _NON_ID_FIELDS or name == "order":
            continue  # effect ids; a library's order names every card in it
        elif field_holds_ids(e, name, v) or name in REF_FIELDS or name in ("attacks", "blocks"):
            _walk_refs(v, obj, player)
    return Refs(tuple(objs), tuple(players))


def _walk_refs(v: Any, obj: Callable[[int], int], player: Callable[[Any], None]) -> None:
    if isinstance(v, list | tuple):
        for i in v:
            _walk_refs(i, obj, player)
    elif _is_int(v):
        if v > 0:
            obj(v)
        elif v < 0:
            player(ref_player(v))


def _choice_players(kind: str, choice: Any) -> list[int]:
    """The players a decision's choice refers to (targets, attacked players)."""
    found: list[int] = []
    if kind in PLAIN_CHOICE_KINDS:
        return found

    def walk(x: Any) -> None:
        if isinstance(x, list | tuple | Pair):
            for i in x:
                walk(i)
        elif _is_int(x) and x < 0:
            found.append(-1 - x)

    if kind == "priority":
        if isinstance(choice, Action):
            choice = msgspec.to_builtins(choice)  # (the list it encodes to)
        if isinstance(choice, list) and choice:
            slot = 2 if choice[0] == "cast" else 3 if choice[0] == "activate" else 0
            if slot and len(choice) > slot:
                walk(choice[slot])
        return found
    if kind in ("attackers", "targets", "redirect", "assign"):
        walk(choice)
    return found


# Following cards across zone changes


class CardIndex:
    """Which physical card every object id of a log is, and the cards' names.

    An object gets a new id each time it changes zones; ``card_id`` stays the
    id of the object as first created (as :attr:`mtgk.rules.state.Obj.card_id`
    does).  Stack items of abilities count as their source's card.  Built in
    one pass over the events, without folding them.

    >>> from mtgk.log import events as ev
    >>> envs = [Envelope(0, -1, ev.ObjectCreated(obj=1, card="Shock", owner=0, zone="hand")),
    ...         Envelope(1, -1, ev.SpellCast(obj=1, new_obj=2, controller=0))]
    >>> ix = CardIndex(envs)
    >>> ix.card_of(2), ix.matching("shock")
    (1, {1})
    """

    def __init__(self, envelopes: Iterable[Envelope] = ()) -> None:
        self.card_id: dict[int, int] = {}
        self.names: dict[int, set[str]] = {}
        for env in envelopes:
            self.add(env.event)

    def add(self, e: ev.Event) -> None:
        """Take note of the objects ``e`` creates or moves."""
        if isinstance(e, ev.ObjectCreated | ev.TokenCreated):
            self.card_id[e.obj] = e.obj
            self.names.setdefault(e.obj, set()).add(e.card)
            return
        new: Any = getattr(e, "new_obj", None)
        old: Any = getattr(e, "obj", None)
        if _is_int(new) and new > 0 and _is_int(old):
            cid: int = self.card_id.get(old, old)
            self.card_id[new] = cid
            face = getattr(e, "face", "")
            if isinstance(face, str) and face:
                self.names.setdefault(cid, set()).add(face)
            return
        item: Any = getattr(e, "item", None)
        source: Any = getattr(e, "source", None)
        if isinstance(e, ev.AbilityActivated | ev.AbilityTriggered) and _is_int(item) \
                and _is_int(source):
            self.card_id[item] = self.card_id.get(source, source)

    def card_of(self, oid: int) -> int:
        """The card id of object (or ability item) ``oid`` (itself if never seen)."""
        return self.card_id.get(oid, oid)

    def all_names(self) -> list[str]:
        """Every card name in the log, sorted."""
        return sorted({n for names in self.names.values() for n in names})

    def matching(self, name: str) -> set[int]:
        """Card ids of the cards named ``name`` (ignoring case; faces count)."""
        want = name.casefold()
        return {cid for cid, names in self.names.items()
                if any(n.casefold() == want for n in names)}

    def suggest(self, name: str) -> list[str]:
        """Card names of the log close to ``name``."""
        names = self.all_names()
        folded = {n.casefold(): n for n in names}
        close = difflib.get_close_matches(name.casefold(), list(folded), n=3, cutoff=0.6)
        return [folded[c] for c in close]


# Turns and steps


@dataclass(frozen=True)
class Moment:
    """Where in the game an event happened: turn number, active player and step."""

    turn: int
    active: int
    step: str


def moments(envelopes: Sequence[Envelope]) -> list[Moment]:
    """The turn, active player and step in effect right after each event.

    Events before the first turn are in turn 0, step ``""``.
    """
    out: list[Moment] = []
    m = Moment(0, 0, "")
    for env in envelopes:
        e = env.event
        if isinstance(e, ev.TurnBegan):
            m = Moment(e.turn, e.active, "")
        elif isinstance(e, ev.StepBegan):
            m = Moment(m.turn, m.active, e.step)
        out.append(m)
    return out


def find_moment(envelopes: Sequence[Envelope], turn: int, step: str | None = None) -> int:
    """The event at which turn ``turn``'s first step began (or its step ``step`` began;
    a turn whose log has no step: its ``TurnBegan``).  The state right after it is the
    turn's, not the previous turn's cleanup step.

    Raises :class:`LookupError` with a message listing what the log has.

    >>> from mtgk.log import events as ev
    >>> envs = [Envelope(0, -1, ev.TurnBegan(turn=1, active=0)),
    ...         Envelope(1, -1, ev.StepBegan(step="upkeep"))]
    >>> find_moment(envs, 1), find_moment(envs, 1, "upkeep")
    (1, 1)
    >>> find_moment(envs[:1], 1)
    0
    >>> find_moment(envs, 1, "draw")
    Traceback (most recent call last):
        ...
    LookupError: turn 1 has no draw step in this log (it has: upkeep)
    """
    began: int | None = None
    steps: list[tuple[str, int]] = []
    turns: list[int] = []
    current = 0
    for env in envelopes:
        e = env.event
        if isinstance(e, ev.TurnBegan):
            current = e.turn
            turns.append(e.turn)
            if e.turn == turn and began is None:
                began = env.seq
        elif isinstance(e, ev.StepBegan) and current == turn and began is not None:
            steps.append((e.step, env.seq))
    if began is None:
        have = f"turns {turns[0]} to {turns[-1]}" if turns else "no turns"
        raise LookupError(f"turn {turn} is not in this log (it has {have})")
    if step is None:
        return steps[0][1] if steps else began
    for name, seq in steps:
        if name == step:
            return seq
    have = ", ".join(dict.fromkeys(n for n, _ in steps)) or "no steps"
    raise LookupError(f"turn {turn} has no {step.replace('_', ' ')} step in this log "
                      f"(it has: {have})")
