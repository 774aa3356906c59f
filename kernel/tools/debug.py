"""Debugging saved logs: who and what an event involves, why it happened, what
changed, and what would have happened had a decision gone otherwise.

The command line (``mtgk log --card/--player/--turn``, ``mtgk explain``,
``mtgk diff``, ``mtgk branch``) is a thin layer over this module:

* :func:`event_refs` -- the objects and players an event names (in its fields
  and, for decisions, in the choice), and :func:`map_event_ids` (from
  :mod:`mtgk.rules.visibility`), which rewrites those object ids (to mask hidden
  objects, or to compare two logs whose ids differ); :class:`CardIndex` follows each physical card across zone changes
  (``Obj.card_id``) so that ``--card NAME`` finds every event about it;
* :func:`moments` / :func:`find_moment` -- which turn and step every event
  belongs to, and the event where a step of a turn began;
* :func:`explain` -- the chain of causes from an event back to the decision
  (or rule) that started it, and its consequences;
* :func:`diff_states` / :func:`diff_logs` -- what changed between two states,
  and where two logs part;
* :func:`branch` -- re-run a game up to one of its decisions, answer it
  differently, and let agents play on: a "what if".

>>> from mtgk.log import events as ev
>>> refs = event_refs(ev.DamageDealt(source=7, target=-2, amount=3))
>>> refs.objects, refs.players
((7,), (1,))
>>> event_refs(ev.DecisionMade(player=0, kind="priority", choice=["cast", 9, [-2], [], 0, ""]))
Refs(objects=(9,), players=(0, 1))
>>> map_event_ids(ev.Attached(obj=3, to=4), lambda i: i * 10)
Attached(obj=30, to=40)
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from mtgk.agents import ReplayAgent
from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.log.answers import Action, Pair
from mtgk.log.events import Envelope, ref_player
from mtgk.log.logfile import LogHeader, UnknownEvent, event_tag
from mtgk.render import Renderer, step_name
from mtgk.rules.engine import Agent, Decision, Game, RulesError
from mtgk.rules.state import Obj, State
from mtgk.rules.visibility import (
    PLAIN_CHOICE_KINDS,
    PLAYER_FIELDS,
    REF_FIELDS,
    field_holds_ids,
    map_choice,
    map_event_ids,
)
from mtgk.stepper import Stepper

__all__ = [
    "BranchError",
    "BranchRefused",
    "BranchResult",
    "CardIndex",
    "Explanation",
    "Link",
    "LogDiff",
    "Moment",
    "ObjectChange",
    "Refs",
    "StateDiff",
    "branch",
    "diff_logs",
    "diff_states",
    "event_refs",
    "explain",
    "find_moment",
    "map_choice",
    "map_event_ids",
    "moments",
]

# --------------------------------------------------------------------------
# Which objects and players an event names

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


# --------------------------------------------------------------------------
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


# --------------------------------------------------------------------------
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


# --------------------------------------------------------------------------
# Explain: why did an event happen, and what did it lead to?


@dataclass
class Link:
    """One event in an explanation: its number, type, readable text and cause."""

    seq: int
    type: str
    text: str
    cause: int
    depth: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "type": self.type, "text": self.text, "cause": self.cause,
                **({"depth": self.depth} if self.depth else {})}


@dataclass
class Explanation:
    """Why event ``event.seq`` happened (see :func:`explain`).

    ``chain`` runs from the event back, cause by cause, to ``origin``: the
    player's decision that started it (``None`` when the chain starts with a
    rule of the game in a step, e.g. a turn-based action or a state-based
    action, whose first event, the step's beginning, is ``root``).  ``context``
    is the rest of the causes beyond the decision, up to the step it was made
    in (then ``root``).  ``consequences`` are the events
    whose cause is the event (and theirs, up to the asked depth).
    ``decisions_along`` maps a link to the decision made just before it while its
    cause was being carried out (a redirect, a target, a "may"): not its cause,
    but what shaped it.  ``fold_errors`` are the events the renderer could not fold
    (``(seq, why)``: a log whose content makes no sense there).
    """

    event: Link
    chain: list[Link]
    origin: Link | None
    origin_text: str
    root: Link
    context: list[Link] = field(default_factory=list)
    consequences: list[Link] = field(default_factory=list)
    more_consequences: int = 0
    decisions_along: dict[int, Link] = field(default_factory=dict)
    fold_errors: list[tuple[int, str]] = field(default_factory=list)

    def summary(self) -> str:
        """``"CounterRemoved ← DamageDealt ← SpellCast ← cast Shock by Alice at event 95"``."""
        if self.root.seq == self.event.seq:
            return f"{self.event.type}: {self.origin_text}"
        parts = [link.type for link in self.chain
                 if link is not self.origin and (self.origin or link is not self.root)]
        return " ← ".join([*parts, self.origin_text])

    def lines(self) -> list[str]:
        """The explanation as text, one line per item."""
        out = [f"event {self.event.seq}: {self.event.text}", "", "why:",
               "  " + self.summary(), ""]
        width = max(len(str(link.seq)) for link in self.chain + self.context)
        for link in self.chain:
            mark = "  ← started by this decision" if link is self.origin else ""
            out.append(f"  {link.seq:>{width}} {link.type:<18} {link.text}{mark}")
            d = self.decisions_along.get(link.seq)
            if d is not None:
                out.append(f"  {'':>{width}} {'':<18} (after {d.seq} {d.text})")
        for link in self.context:
            out.append(f"  {link.seq:>{width}} {link.type:<18} {link.text}  (context)")
        out.append("")
        if not self.consequences:
            out.append(f"consequences: none (no event has event {self.event.seq} as its cause)")
            return out
        out.append(f"consequences (events caused by event {self.event.seq}):")
        for link in self.consequences:
            indent = "  " * link.depth
            out.append(f"  {indent}{link.seq} {link.type}: {link.text}")
        if self.more_consequences:
            out.append(f"  ... and {self.more_consequences} more")
        return out

    def to_json(self) -> dict[str, Any]:
        return {"event": self.event.to_json(), "summary": self.summary(),
                "chain": [link.to_json() for link in self.chain],
                "origin": self.origin.to_json() if self.origin else None,
                "origin_text": self.origin_text, "root": self.root.to_json(),
                "context": [link.to_json() for link in self.context],
                "consequences": [link.to_json() for link in self.consequences],
                "more_consequences": self.more_consequences,
                "decisions_along": {str(k): v.to_json()
                                    for k, v in self.decisions_along.items()}}


def _children(envelopes: Sequence[Envelope]) -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for env in envelopes:
        if env.cause >= 0:
            kids.setdefault(env.cause, []).append(env.seq)
    return kids


def explain(envelopes: Sequence[Envelope], n: int, registry: Registry | None = None,
            viewer: int | None = None, depth: int = 1, limit: int = 100) -> Explanation:
    """Explain event ``n``: its chain of causes back to the decision or rule that
    started it, and its consequences down to ``depth`` levels (at most ``limit``).

    Every event is described as it read when it happened (cards named, hidden
    ones masked for ``viewer``).
    """
    if not 0 <= n < len(envelopes):
        raise IndexError(f"event {n} is not in the log (it has events 0 to "
                         f"{len(envelopes) - 1})")
    chain_seqs: list[int] = []
    seq = n
    while seq >= 0:
        chain_seqs.append(seq)
        seq = envelopes[seq].cause
    kids = _children(envelopes)
    conseq: list[tuple[int, int]] = []
    more = 0
    stack = [(k, 0) for k in reversed(kids.get(n, []))]
    while stack:
        s, d = stack.pop()
        if len(conseq) >= limit:
            more += 1
            continue
        conseq.append((s, d))
        if d + 1 < depth:
            stack.extend((k, d + 1) for k in reversed(kids.get(s, [])))
    # a decision made while the cause of a link was being carried out, just before the
    # link (a redirect, a target, a "may"): it shaped the link without being its cause
    along: dict[int, int] = {}
    for seq in chain_seqs:
        c = envelopes[seq].cause
        if c < 0:
            continue
        sib = [k for k in kids.get(c, []) if k < seq and k not in chain_seqs
               and isinstance(envelopes[k].event, ev.DecisionMade)]
        if sib:
            along[seq] = sib[-1]
    need = set(chain_seqs) | {s for s, _ in conseq} | set(along.values())
    texts: dict[int, str] = {}
    choices: dict[int, str] = {}
    r = Renderer(registry, viewer)
    last = max(need)
    for env in envelopes[: last + 1]:
        if env.seq in need:
            texts[env.seq] = r.describe(env)
            e = env.event
            if isinstance(e, ev.DecisionMade):
                choices[env.seq] = r.choice(e.kind, e.choice, e.player)
        r.advance(env)

    def link(s: int, d: int = 0) -> Link:
        env = envelopes[s]
        return Link(s, event_tag(env.event), texts[s], env.cause, d)

    # the chain stops at the player's decision that started it, or at the beginning of the
    # step (or turn) whose rules did; the context is the rest up to the step it was made in
    all_links = [link(s) for s in chain_seqs]
    origin: Link | None = None
    chain: list[Link] = []
    context: list[Link] = []
    for lk in all_links:
        e = envelopes[lk.seq].event
        if origin is None:
            chain.append(lk)
            if isinstance(e, ev.DecisionMade) and e.player >= 0 and lk.seq != n:
                origin = lk
            elif isinstance(e, ev.StepBegan | ev.TurnBegan) and lk.seq != n:
                break
        else:
            context.append(lk)
            if isinstance(e, ev.StepBegan | ev.TurnBegan):
                break
    root = (context or chain)[-1]
    if origin is not None:
        e = envelopes[origin.seq].event
        assert isinstance(e, ev.DecisionMade)
        who = r.player(e.player)
        what = choices.get(origin.seq, "")
        if e.kind == "priority":
            origin_text = f"{what} by {who} at event {origin.seq}"
        else:
            origin_text = f"{who}'s {e.kind} decision ({what}) at event {origin.seq}"
    else:
        origin_text = _rule_origin(envelopes, root, n)
    return Explanation(link(n), chain, origin, origin_text, root, context,
                       [link(s, d) for s, d in conseq], more,
                       {k: link(v) for k, v in along.items()}, list(r.fold_errors))


def _rule_origin(envelopes: Sequence[Envelope], root: Link, n: int) -> str:
    e = envelopes[root.seq].event
    if root.seq == n:
        return "no recorded cause (it starts its own chain: game setup, or a rule of the game)"
    rule = "the game rules"
    seq = n
    while envelopes[seq].cause > root.seq:
        seq = envelopes[seq].cause
    # what the rules did first: a state-based action names itself in its reason
    reason = getattr(envelopes[seq].event, "reason", "")
    if isinstance(reason, str) and reason.startswith("sba"):
        what = reason.partition(":")[2]
        rule = "a state-based action" + (f" ({what})" if what else "")
    explained = envelopes[n].event
    if isinstance(e, ev.StepBegan):
        turn = moments(envelopes[: root.seq + 1])[-1].turn
        if isinstance(explained, ev.StepBegan | ev.TurnBegan):  # the next step, or turn
            return f"the end of turn {turn}'s {step_name(e.step)} step (event {root.seq})"
        return f"{rule}, in turn {turn}'s {step_name(e.step)} step (event {root.seq})"
    if isinstance(e, ev.TurnBegan):
        return f"{rule}, at the start of turn {e.turn} (event {root.seq})"
    return f"{rule}: {root.text} (event {root.seq})"


# --------------------------------------------------------------------------
# Diff: what changed between two states, or where two logs part

_OBJ_FIELDS = ("id", "zone", "owner", "controller", "tapped", "sick", "token", "face_down",
               "counters", "damage", "deathtouched", "attached_to", "flags", "loyalty_turn",
               "known_to", "card")
_GAME_FIELDS = ("turn", "active", "step", "over", "winner", "profile")
_PLAYER_FIELDS = ("name", "life", "mana", "lands_played", "lost", "drew_from_empty")
_CHARS_FIELDS = ("power", "toughness", "loyalty", "types", "supertypes", "subtypes", "colors",
                 "abilities", "controller")


@dataclass
class ObjectChange:
    """One card (followed by ``card_id``) that appeared, vanished or changed.

    ``before``/``after`` are its object ids in the two states (``None`` where
    it does not exist); ``fields`` maps each changed field to ``(before,
    after)``.  Characteristics after layers (``power`` ...) are compared for
    permanents when a registry is given.
    """

    card_id: int
    card: str
    status: str
    before: int | None
    after: int | None
    fields: dict[str, tuple[Any, Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"card_id": self.card_id, "card": self.card, "status": self.status,
                "before": self.before, "after": self.after,
                "fields": {k: list(v) for k, v in self.fields.items()}}


@dataclass
class StateDiff:
    """Everything that differs between two states (see :func:`diff_states`)."""

    game: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    players: dict[str, dict[str, tuple[Any, Any]]] = field(default_factory=dict)
    objects: list[ObjectChange] = field(default_factory=list)
    stack: dict[str, list[str]] = field(default_factory=dict)
    effects: dict[str, list[str]] = field(default_factory=dict)
    combat: tuple[str, str] | None = None

    @property
    def empty(self) -> bool:
        return not (self.game or self.players or self.objects or self.stack or self.effects
                    or self.combat)

    def lines(self) -> list[str]:
        """The differences as text."""
        out: list[str] = []
        for k, (a, b) in self.game.items():
            out.append(f"game: {k} {_show(a)} → {_show(b)}")
        for name, changes in self.players.items():
            for k, (a, b) in changes.items():
                out.append(f"{name}: {k} {_show(a)} → {_show(b)}")
        for oc in self.objects:
            label = f"{oc.card or 'a card'}"
            if oc.status == "appeared":
                where = oc.fields.get("zone", (None, "?"))[1]
                out.append(f"+ {label} [{oc.after}] appeared in {where}")
                continue
            if oc.status == "vanished":
                where = oc.fields.get("zone", ("?", None))[0]
                out.append(f"- {label} [{oc.before}] vanished from {where}")
                continue
            ids = f"[{oc.before}]" if oc.before == oc.after else f"[{oc.before} → {oc.after}]"
            parts = [f"{k} {_show(a)} → {_show(b)}" for k, (a, b) in oc.fields.items()
                     if k != "id"]
            out.append(f"~ {label} {ids}: " + "; ".join(parts))
        for what in ("removed", "added"):
            for item in self.stack.get(what, []):
                out.append(f"stack: {what} {item}")
        for what in ("pending removed", "pending added"):
            for item in self.stack.get(what, []):
                out.append(f"triggered abilities waiting: {what.split()[1]} {item}")
        for what in ("ended", "created"):
            for item in self.effects.get(what, []):
                out.append(f"effect {what}: {item}")
        if self.combat is not None:
            out.append(f"combat: {self.combat[0]} → {self.combat[1]}")
        return out or ["no differences"]

    def to_json(self) -> dict[str, Any]:
        return {"game": {k: list(v) for k, v in self.game.items()},
                "players": {n: {k: list(v) for k, v in c.items()}
                            for n, c in self.players.items()},
                "objects": [oc.to_json() for oc in self.objects],
                "stack": self.stack, "effects": self.effects,
                "combat": list(self.combat) if self.combat else None}


def _show(v: Any) -> str:
    if isinstance(v, str):
        return v if v else '""'
    if v is None:
        return "none"
    try:
        return msgspec.json.encode(v).decode()
    except (TypeError, msgspec.EncodeError):
        return repr(v)


def _plain(v: Any) -> Any:
    return None if v is msgspec.UNSET else msgspec.to_builtins(v)  # (an unset header field)


def _chars_of(state: State, registry: Registry | None) -> dict[int, dict[str, Any]]:
    if registry is None:
        return {}
    from mtgk.cards.definitions import UnknownCardError
    from mtgk.rules.layers import compute

    try:
        chars = compute(state, registry)
    except (UnknownCardError, Exception):  # noqa: BLE001 - characteristics are extra
        return {}
    out: dict[int, dict[str, Any]] = {}
    for oid, c in chars.items():
        d = {k: getattr(c, k) for k in _CHARS_FIELDS}
        d["subtypes"] = list(c.subtypes) + list(c.creature_types())
        out[oid] = d
    return out


def diff_states(a: State, b: State, registry: Registry | None = None) -> StateDiff:
    """What changed from state ``a`` to state ``b``.

    Objects are matched by ``card_id`` (so a card that changed zones is one
    change, not a vanished and an appeared object); objects whose card id is
    unknown (0: masked for a viewer) are matched by id.  Player zone contents
    are reported through the objects; libraries also report a new order.

    >>> from mtgk.log import events as ev
    >>> from mtgk.rules.state import copy_state, fold
    >>> s1 = fold([ev.GameStarted(players=("A", "B"), seed=1),
    ...            ev.ObjectCreated(obj=1, card="Shock", owner=0, zone="hand")])
    >>> s2 = fold([ev.SpellCast(obj=1, new_obj=2, controller=0)], copy_state(s1))
    >>> diff_states(s1, s2).lines()
    ['A: hand size 1 → 0', '~ Shock [1 → 2]: zone hand → stack', 'stack: added [2] Shock']
    """
    d = StateDiff()
    for k in _GAME_FIELDS:
        va, vb = getattr(a, k), getattr(b, k)
        if va != vb:
            d.game[k] = (va, vb)
    for i in range(max(len(a.players), len(b.players))):
        pa = a.players[i] if i < len(a.players) else None
        pb = b.players[i] if i < len(b.players) else None
        name = (pb or pa).name if (pb or pa) else f"player {i}"  # type: ignore[union-attr]
        changes: dict[str, tuple[Any, Any]] = {}
        for k in _PLAYER_FIELDS:
            va = getattr(pa, k) if pa else None
            vb = getattr(pb, k) if pb else None
            if va != vb:
                changes[k] = (_plain(va), _plain(vb))
        for zone in ("hand", "library", "graveyard"):
            za = getattr(pa, zone) if pa else []
            zb = getattr(pb, zone) if pb else []
            if len(za) != len(zb):
                changes[f"{zone} size"] = (len(za), len(zb))
            elif zone == "library" and za != zb and sorted(za) == sorted(zb):
                changes["library order"] = ("(before)", "(changed)")
        if changes:
            d.players[name] = changes
    d.objects = _diff_objects(a, b, registry)
    ra, rb = Renderer(registry, None, a), Renderer(registry, None, b)
    for label, xa, xb in (("", a.stack, b.stack), ("pending ", a.pending, b.pending)):
        ida = {it.id: it for it in xa}
        idb = {it.id: it for it in xb}
        gone = [_describe_item(it, ra) for i, it in ida.items() if i not in idb]
        new = [_describe_item(it, rb) for i, it in idb.items() if i not in ida]
        if gone:
            d.stack[f"{label}removed"] = gone
        if new:
            d.stack[f"{label}added"] = new
    ea = {x.id: x for x in a.effects}
    eb = {x.id: x for x in b.effects}

    def effect(x: Any, r: Renderer) -> str:
        on = f" on {r.refs(x.objs)}" if x.objs else ""
        until = " until end of turn" if x.duration == "eot" else ""
        return f"[{x.id}] {r.obj(x.source)}: {r.effect_text(x.kind, x.params)}{on}{until}"

    ended = [effect(x, ra) for i, x in ea.items() if i not in eb]
    created = [effect(x, rb) for i, x in eb.items() if i not in ea]
    if ended:
        d.effects["ended"] = ended
    if created:
        d.effects["created"] = created
    if _plain(a.combat) != _plain(b.combat):
        d.combat = (_combat_text(a, ra), _combat_text(b, rb))
    return d


def _describe_item(it: Any, r: Renderer) -> str:
    tg = f" targeting {r.refs(it.targets)}" if it.targets else ""
    return f"[{it.id}] {r.item(it)}{tg}"


def _combat_text(s: State, r: Renderer) -> str:
    c = s.combat
    if c is None:
        return "no combat"
    if not c.attackers:
        return "combat, no attackers"
    parts = []
    for att, target in c.attackers.items():
        blockers = c.blocked.get(att, [])
        by = f" blocked by {', '.join(r.obj(b) for b in blockers)}" if blockers else ""
        parts.append(f"{r.obj(att)} attacks {r.ref(target)}{by}")
    return "; ".join(parts)


def _diff_objects(a: State, b: State, registry: Registry | None) -> list[ObjectChange]:
    def key(o: Obj) -> tuple[str, int]:
        return ("card", o.card_id) if o.card_id else ("id", o.id)

    ka = {key(o): o for o in a.objects.values()}
    kb = {key(o): o for o in b.objects.values()}
    ca = _chars_of(a, registry)
    cb = _chars_of(b, registry)
    out: list[ObjectChange] = []
    for k in sorted(set(ka) | set(kb), key=lambda k: (k[1], k[0])):
        oa, ob = ka.get(k), kb.get(k)
        card = (ob or oa).card  # type: ignore[union-attr]
        if registry is not None and card:
            card = registry.token_name(card)  # its printed name, not a token's key
        cid = (ob or oa).card_id  # type: ignore[union-attr]
        if oa is None:
            assert ob is not None
            out.append(ObjectChange(cid, card, "appeared", None, ob.id,
                                    {"zone": (None, ob.zone)}))
            continue
        if ob is None:
            out.append(ObjectChange(cid, card, "vanished", oa.id, None,
                                    {"zone": (oa.zone, None)}))
            continue
        fields: dict[str, tuple[Any, Any]] = {}
        for f in _OBJ_FIELDS:
            va, vb = _plain(getattr(oa, f)), _plain(getattr(ob, f))
            if va != vb:
                fields[f] = (va, vb)
        xa, xb = ca.get(oa.id), cb.get(ob.id)
        if xa is not None and xb is not None:
            for f in _CHARS_FIELDS:
                if f == "controller" and "controller" in fields:
                    continue
                if xa[f] != xb[f]:
                    fields[f] = (_plain(xa[f]), _plain(xb[f]))
        if fields:
            out.append(ObjectChange(cid, card, "changed", oa.id, ob.id, fields))
    return out


@dataclass
class LogDiff:
    """Where two logs part (see :func:`diff_logs`).

    ``header`` maps each differing header field to ``(first, second)``;
    ``common`` is the number of identical leading events; ``first`` the
    sequence number of the first difference (``None``: the logs are the
    same), with ``a`` and ``b`` the two events there (``None``: that log has
    ended).
    """

    header: dict[str, tuple[Any, Any]]
    common: int
    first: int | None
    a: Envelope | None
    b: Envelope | None
    reason: str
    sizes: tuple[int, int]

    @property
    def same(self) -> bool:
        return self.first is None and not self.header


def _same(a: Envelope, b: Envelope) -> str:
    """Why two envelopes differ, or ``""``."""
    from mtgk.log.replay import same_event

    if not same_event(a.event, b.event):
        if event_tag(a.event) != event_tag(b.event):
            return f"different events: {event_tag(a.event)} vs {event_tag(b.event)}"
        fa = _fields(a.event)
        fb = _fields(b.event)
        diff = [k for k in fa if fa.get(k) != fb.get(k)]
        return f"{event_tag(a.event)} differs in {', '.join(diff) or 'its fields'}"
    if a.cause != b.cause:
        return f"same {event_tag(a.event)} event, but cause {a.cause} vs {b.cause}"
    return ""


def _fields(e: ev.Event) -> dict[str, Any]:
    if isinstance(e, UnknownEvent):
        return {"raw": e.raw}
    return {k: _plain(getattr(e, k)) for k in e.__struct_fields__}


def diff_logs(ha: LogHeader, ea: Sequence[Envelope], hb: LogHeader, eb: Sequence[Envelope]
              ) -> LogDiff:
    """Compare two logs: their headers, and their events up to the first difference."""
    header: dict[str, tuple[Any, Any]] = {}
    for f in ha.__struct_fields__:
        va, vb = _plain(getattr(ha, f)), _plain(getattr(hb, f))
        if va == vb:
            continue
        if f == "events":
            ta, tb = dict(map(tuple, va)), dict(map(tuple, vb))
            va = {k: v for k, v in ta.items() if tb.get(k) != v}
            vb = {k: v for k, v in tb.items() if ta.get(k) != v}
        elif f == "meta":
            for k in sorted(set(va) | set(vb)):
                if va.get(k) != vb.get(k):
                    header[f"meta.{k}"] = (va.get(k), vb.get(k))
            continue
        header[f] = (va, vb)
    n = min(len(ea), len(eb))
    for i in range(n):
        why = _same(ea[i], eb[i])
        if why:
            return LogDiff(header, i, i, ea[i], eb[i], why, (len(ea), len(eb)))
    if len(ea) == len(eb):
        return LogDiff(header, n, None, None, None, "", (len(ea), len(eb)))
    longer = "first" if len(ea) > len(eb) else "second"
    return LogDiff(header, n, n, ea[n] if n < len(ea) else None, eb[n] if n < len(eb) else None,
                   f"the {'second' if longer == 'first' else 'first'} log ends after "
                   f"{n} events; the {longer} goes on", (len(ea), len(eb)))


# --------------------------------------------------------------------------
# Branch: what if a decision had gone otherwise?


class BranchError(Exception):
    """A branch cannot be made: the event is not a decision, the log does not
    re-run up to it, or logs of its kind cannot be re-run."""


class BranchRefused(BranchError):
    """The engine refused the replacement choice: ``rule`` and ``reason`` say why."""

    def __init__(self, err: RulesError, decision: Decision) -> None:
        self.rule = err.rule
        self.reason = err.message
        self.decision = decision
        opts = decision.options
        hint = ""
        if opts is not None:
            shown = ", ".join(msgspec.json.encode(o).decode() for o in opts[:8])
            more = f", ... ({len(opts)} in all)" if len(opts) > 8 else ""
            hint = f"; the legal choices are: {shown}{more}"
        super().__init__(f"the engine refuses this {decision.kind} choice: {err.message} "
                         f"(rule {err.rule}){hint}")


_UNSET: Any = object()


@dataclass
class BranchResult:
    """A branched game: the new game (its ``log`` is the new log) and its header."""

    game: Game
    header: LogHeader
    at: int
    kind: str
    player: int
    original: Any
    choice: Any


def branch(registry: Registry, header: LogHeader, envelopes: Sequence[Envelope], at: int, *,
           agents: Sequence[Agent], choice: Any = _UNSET, chooser: Agent | None = None,
           meta: dict[str, Any] | None = None,
           watch: Callable[[Game], None] | None = None) -> BranchResult:
    """Re-run the game of ``header``/``envelopes`` up to decision ``at``, answer it
    with ``choice`` (or let ``chooser``, by default the deciding player's agent,
    choose), then let ``agents`` (one per player) play on to the end.

    The engine validates the new choice as it validates every answer: an
    illegal one raises :class:`BranchRefused`.  The new log's header is a
    header of this kernel for the same game (players, decks, seed, rules) with
    ``meta`` added to the original meta, and ``meta["branched_from"]`` = ``{"event",
    "kind", "player", "original", "choice"}`` (callers add ``"file"``).
    ``watch(game)`` is called once the new game exists (e.g. to write its log
    as it grows).  Engine errors after the branch point propagate.
    """
    from mtgk.log.replay import log_kind, new_header, rerun_log, rerunner_for

    if not 0 <= at < len(envelopes):
        raise BranchError(f"event {at} is not in the log (it has events 0 to "
                          f"{len(envelopes) - 1})")
    rec = envelopes[at].event
    if not isinstance(rec, ev.DecisionMade):
        near = [env.seq for env in envelopes if isinstance(env.event, ev.DecisionMade)
                and env.event.player >= 0]
        before = [s for s in near if s < at][-1:]
        after = [s for s in near if s > at][:1]
        hint = ", ".join(f"event {s}" for s in before + after)
        raise BranchError(f"event {at} is {event_tag(rec)}, not a player's decision (DecisionMade)"
                          + (f"; the nearest decisions are {hint}" if hint else ""))
    if rec.player < 0:
        raise BranchError(f"event {at} is the game's own {rec.kind} choice (made at random "
                          "from the seed), not a player's decision")
    rerun = rerunner_for(header)
    if rerun is None:
        raise BranchError(f"logs of kind {log_kind(header)!r} cannot be re-run by this kernel")
    chosen_meta = dict(header.meta)
    chosen_meta.update(meta or {})
    problem: list[str] = []

    def check_prefix(env: Envelope) -> None:
        if env.seq < at and not problem:
            why = _same(envelopes[env.seq], env)
            if why:
                problem.append(f"the log does not re-run to event {at}: at event {env.seq} "
                               f"the engine gives another event ({why}); try `mtgk verify`")

    def on_start(game: Game) -> None:
        for env in game.log:
            check_prefix(env)
        game.listeners.append(check_prefix)
        if watch is not None:
            watch(game)

    def run(members: Sequence[Agent], seen: Callable[[Game], None]) -> Any:
        return rerun_log(rerun, registry, header, members, seen, envelopes)

    stepper = Stepper.driving(run, registry, header, watch=on_start)
    replay = ReplayAgent(envelopes)
    chosen: Any = _UNSET
    while chosen is _UNSET:
        d = stepper.decision
        seq = len(stepper.log)
        if problem:
            raise BranchError(problem[0])
        if d is None or seq > at:
            raise BranchError(f"the re-run game ended before event {at}" if d is None else
                              f"the log does not re-run to event {at}: the engine's next "
                              f"decision comes at event {seq}; try `mtgk verify`")
        if seq < at:
            try:
                stepper.answer(replay.decide(stepper.game, d))
            except RulesError as err:
                raise BranchError(f"the log does not re-run to event {at}: the recorded "
                                  f"{d.kind} decision at event {seq} is illegal now: "
                                  f"{err}") from None
            continue
        if rec.kind != d.kind or rec.player != d.player:
            if d.options is not None and len(d.options) == 1:
                stepper.answer(d.options[0])  # a decision with one option, not recorded
                continue
            raise BranchError(f"the re-run engine asks {stepper.game.name(-1 - d.player)} "
                              f"for a {d.kind} decision at event {seq}, the log records "
                              f"{rec.kind} by player {rec.player}: the log does not re-run "
                              "to this point (try `mtgk verify`)")
        pick = chooser or agents[d.player]
        chosen = choice if choice is not _UNSET else pick.decide(stepper.game, d)
        stepper.agents = list(agents)
        try:
            stepper.answer(chosen)
        except RulesError as err:
            raise BranchRefused(err, d) from None
    game = stepper.game
    chosen_meta["branched_from"] = {"event": at, "kind": rec.kind, "player": rec.player,
                                    "original": msgspec.to_builtins(rec.choice),
                                    "choice": msgspec.to_builtins(chosen)}
    new = new_header(registry, header.players, header.decks, header.seed, header.profile,
                     chosen_meta)
    return BranchResult(game, new, at, rec.kind, rec.player, rec.choice, chosen)
