"""What the game library knows about a game: the facts pulled out of a log when it is added
(:func:`game_facts`: header fields, result, the indexes of event types, deaths and
:class:`Blame`), a stored game's record (:class:`GameRecord`, :class:`StoredGame`), and
the library's errors."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple

from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.log.logfile import LogHeader, decode_log, event_tag
from mtgk.rules.state import State, apply, new_state

__all__ = [
    "Added",
    "BLAME_STEPS",
    "BUDGET_REASON",
    "Blame",
    "DEFAULT_DB",
    "GameFacts",
    "GameRecord",
    "GameSummary",
    "RECORD_COLUMNS",
    "StoreError",
    "StoredGame",
    "budget_error",
    "game_facts",
    "header_teams",
    "log_digest",
    "starting_player_and_mulligans",
    "winning_seats",
]


DEFAULT_DB = "games.db"
"""The library file ``mtgk sim`` and ``mtgk db`` use unless told otherwise."""

RECORD_COLUMNS = ("id, added, players, decks, agents, seed, profile, kernel_version, winner, "
                  "turns, events, size, sim_seed, sim_game, error, digest, starting_player, "
                  "mulligans, variant, teams")
"""The columns of a game's record in the library's ``games`` table, in order."""

BUDGET_REASON = "event-budget"
"""``GameEnded.reason`` of a game the engine stopped at its event budget
(:attr:`mtgk.rules.engine.Game.max_events`)."""


class StoreError(Exception):
    """The library cannot be opened or does not hold what was asked for."""


class Added(NamedTuple):
    """What :meth:`GameStore.add` did: the game's id, and whether an identical game (the
    same log bytes) was stored already -- then ``id`` is that game's and nothing was added."""

    id: int
    duplicate: bool


def log_digest(log: bytes) -> str:
    """The digest that tells identical logs apart (SHA-256 of the bytes, in hex)."""
    return hashlib.sha256(log).hexdigest()


def budget_error(events: int) -> str:
    """The error recorded for a game stopped at its event budget after ``events`` events."""
    return (f"the game reached its event budget of {events} events (meta max_events; "
            "a card may repeat something forever)")




@dataclass(kw_only=True)
class GameSummary:
    """What the library knows of every game: its seats, seed, rules, result and size,
    and which ``mtgk sim`` run it came from (see :class:`GameFacts`)."""

    players: list[str]
    decks: list[str | None]
    agents: list[str | None]
    seed: int
    profile: str
    kernel_version: str
    winner: int | None
    turns: int
    events: int
    sim_seed: int | None = None
    sim_game: int | None = None
    error: str | None = None
    starting_player: int | None = None
    mulligans: list[int] | None = None
    variant: str = ""
    teams: list[list[int]] | None = None

    @property
    def winners(self) -> list[int]:
        """The seats that won: the winner's team (``winner`` is its first player), or the
        winner alone; none for a draw or a game without a result."""
        if self.winner is None or self.winner < 0:
            return []
        return winning_seats(self.winner, self.teams)


def winning_seats(winner: int, teams: Sequence[Sequence[int]] | None) -> list[int]:
    """The seats of ``winner``'s team (``[winner]`` without teams)."""
    for team in teams or ():
        if winner in team:
            return list(team)
    return [winner]


@dataclass(kw_only=True)
class GameFacts(GameSummary):
    """Everything the library indexes about one game (computed from its log).

    ``winner`` is the winning seat, ``-1`` for a draw and ``None`` when the
    log has no result (it stops before the game's end).  ``event_types``
    counts the events of each type; ``died`` counts, per card name, the
    permanents put into a graveyard from the battlefield; ``kills`` counts, per card
    name, the deaths that card is to blame for and ``finishes`` the players it made lose
    (:func:`blame`).  ``sim_seed`` and
    ``sim_game`` say which ``mtgk sim`` run (its seed) and which of its games
    this is; ``error`` is the engine failure that cut the game short, if any.
    A game the engine stopped at its event budget has no result (``winner``
    is ``None``) and says so in ``error``.  ``starting_player`` is the seat that
    played first (``None``: the log does not say, e.g. it has no events) and
    ``mulligans`` how many mulligans each seat took.  ``variant`` is the header's
    (``""`` for a two-player game, ``free_for_all``, ``two_headed_giant``) and ``teams``
    its teams as lists of seats (``None``: each player for themselves); ``winner`` of a
    team game is the winning team's first player, and :attr:`winners` every seat of it.
    """

    event_types: dict[str, int] = field(default_factory=dict)
    died: dict[str, int] = field(default_factory=dict)
    kills: dict[str, int] = field(default_factory=dict)
    finishes: dict[str, int] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """Whether the log holds the game's end."""
        return self.winner is not None


def _seat_list(value: Any, n: int, key: str | None = None) -> list[Any]:
    out: list[Any] = [None] * n
    if isinstance(value, list):
        for i, v in enumerate(value[:n]):
            if key is not None:
                v = v.get(key) if isinstance(v, dict) else None
            out[i] = v if isinstance(v, str) else None
    return out


def header_teams(meta: dict[str, Any], n: int) -> tuple[str, list[list[int]] | None]:
    """The variant and teams of a header's meta (teams of seats ``0..n-1`` only; anything
    else reads as no teams)."""
    variant = meta.get("variant", "")
    teams = meta.get("teams")
    if not isinstance(variant, str):
        variant = ""
    if not isinstance(teams, list) or not teams or not all(
            isinstance(t, list) and t and all(type(p) is int and 0 <= p < n for p in t)
            for t in teams):
        return variant, None
    return variant, [list(t) for t in teams]


def game_facts(header: LogHeader, envelopes: Sequence[Envelope],
               error: str | None = None) -> GameFacts:
    """The facts :meth:`GameStore.add` indexes, from a game's header and events.

    The events are folded (once) to know which card every dying object was.
    """
    s = new_state()
    types: dict[str, int] = {}
    died: dict[str, int] = {}
    winner: int | None = None
    n = len(header.players)
    first, mulligans = starting_player_and_mulligans(envelopes, n)
    to_blame = Blame()
    for env in envelopes:
        e = env.event
        tag = event_tag(e)
        types[tag] = types.get(tag, 0) + 1
        to_blame.see(s, env)
        if isinstance(e, ev.ZoneChanged) and e.from_zone == "battlefield" \
                and e.to_zone == "graveyard":
            o = s.objects.get(e.obj)
            if o is not None:
                died[o.card] = died.get(o.card, 0) + 1
        elif isinstance(e, ev.GameEnded):
            winner = e.winner
            if e.reason == BUDGET_REASON:  # not a draw: the engine gave up on the game
                winner = None
                error = error or budget_error(env.seq)
        apply(s, e)
    meta = header.meta
    variant, teams = header_teams(meta, n)
    sim = meta.get("sim") if isinstance(meta.get("sim"), dict) else {}
    assert isinstance(sim, dict)
    return GameFacts(
        players=list(header.players), decks=_seat_list(meta.get("deck_names"), n),
        agents=_seat_list(meta.get("agents"), n, "kind"), seed=header.seed,
        profile=header.profile, kernel_version=header.kernel_version, winner=winner,
        turns=s.turn, events=len(envelopes), event_types=types, died=died,
        kills=to_blame.kills, finishes=to_blame.finishes,
        sim_seed=sim.get("seed") if isinstance(sim.get("seed"), int) else None,
        sim_game=sim.get("game") if isinstance(sim.get("game"), int) else None,
        error=error if error is not None else (
            meta.get("error") if isinstance(meta.get("error"), str) else None),
        starting_player=first, mulligans=mulligans, variant=variant, teams=teams)


BLAME_STEPS = 64
"""How far up a cause chain :class:`Blame` looks for a card to blame."""


class Blame:
    """Which card is to blame for each death and each lost game, from the cause links
    (fed the events in order with :meth:`see`, the state as it is *before* each one).

    A card is to blame for an event that names it as the doer: damage it dealt
    (``DamageDealt``'s source), the casting of it as a spell, an ability of it that was
    activated or triggered, and the putting on the stack and resolving of that spell or
    ability.  For a permanent put into a graveyard from the battlefield (``kills``) or a
    player who lost (``finishes``), the cause chain is followed up from the event, at
    most :data:`BLAME_STEPS` links, to the first such event: a creature dead of lethal
    damage is blamed on the source whose damage made it lethal (the engine links the
    state-based action to that damage), one destroyed or sacrificed by a spell or an
    ability on that spell's or ability's card, a player who lost for want of life on the
    card whose damage or effect took the last of it.  The chain is not followed past a
    step or turn beginning or a player's priority decision (what a player chose to do
    of their own accord, such as a sacrifice to pay a cost): such a death has no card
    to blame and is not counted.

    >>> from mtgk.log.events import DamageDealt, ObjectCreated, ZoneChanged
    >>> s, b = new_state(), Blame()
    >>> for env in [Envelope(0, -1, ObjectCreated(1, "Gray Ogre", 0, "battlefield")),
    ...             Envelope(1, -1, ObjectCreated(2, "Boggart Sprite-Chaser", 1, "battlefield")),
    ...             Envelope(2, -1, DamageDealt(source=2, target=1, amount=2, combat=True))]:
    ...     b.see(s, env)
    ...     apply(s, env.event)
    >>> b.see(s, Envelope(3, 2, ZoneChanged(1, 3, "battlefield", "graveyard", "sba")))
    >>> b.kills
    {'Boggart Sprite-Chaser': 1}
    """

    def __init__(self) -> None:
        self.kills: dict[str, int] = {}
        self.finishes: dict[str, int] = {}
        self._cause: dict[int, int] = {}
        self._doer: dict[int, str] = {}  # seq -> the card that did it
        self._stop: set[int] = set()  # seqs the chain is not followed past
        self._item: dict[int, str] = {}  # stack item -> its card

    def see(self, s: State, env: Envelope) -> None:
        """Take in the next event (``s``: the state before it)."""
        e: Any = env.event  # (of the type _BLAME_KINDS says)
        seq = env.seq
        self._cause[seq] = env.cause
        kind = _BLAME_KINDS.get(type(e))  # (most events are none of these)
        if kind is None:
            return
        doer: str | None = None
        if kind == "damage":
            doer = _card_of(s, e.source)
        elif kind == "cast":
            doer = _card_of(s, e.obj)
            if doer is not None:
                self._item[e.new_obj] = doer
        elif kind == "ability":
            doer = _card_of(s, e.source)
            if doer is not None:
                self._item[e.item] = doer
        elif kind == "item":
            doer = self._item.get(e.item)
        elif kind == "stop" or (kind == "decision" and e.kind == "priority"):
            self._stop.add(seq)
        elif kind == "moved":
            if e.from_zone == "battlefield" and e.to_zone == "graveyard":
                self._count(self.kills, env.cause)
        elif kind == "lost":
            self._count(self.finishes, env.cause)
        if doer is not None:
            self._doer[seq] = doer

    def _count(self, table: dict[str, int], cause: int) -> None:
        for _ in range(BLAME_STEPS):
            if cause in self._doer:
                card = self._doer[cause]
                table[card] = table.get(card, 0) + 1
                return
            if cause in self._stop or cause not in self._cause:
                return
            cause = self._cause[cause]


_BLAME_KINDS: dict[type, str] = {
    ev.DamageDealt: "damage", ev.SpellCast: "cast", ev.AbilityActivated: "ability",
    ev.AbilityTriggered: "ability", ev.TriggerPutOnStack: "item", ev.StackItemResolved: "item",
    ev.StepBegan: "stop", ev.TurnBegan: "stop", ev.DecisionMade: "decision",
    ev.ZoneChanged: "moved", ev.PlayerLost: "lost"}
"""What :meth:`Blame.see` makes of an event, by its type."""


def _card_of(s: State, oid: int) -> str | None:
    o = s.objects.get(oid)
    return o.card if o is not None else None


def starting_player_and_mulligans(envelopes: Iterable[Envelope], seats: int
                                  ) -> tuple[int | None, list[int]]:
    """Who played first (the engine's ``first_player`` decision; else the first turn's
    active player; ``None`` if neither is in the log) and the mulligans each of the
    ``seats`` took (its ``mulligan`` decisions answered "don't keep")."""
    first: int | None = None
    mulligans = [0] * seats
    for env in envelopes:
        e = env.event
        if isinstance(e, ev.DecisionMade):
            if e.kind == "first_player" and first is None and type(e.choice) is int:
                first = e.choice
            elif e.kind == "mulligan" and e.choice is False and 0 <= e.player < seats:
                mulligans[e.player] += 1
        elif isinstance(e, ev.TurnBegan):
            if first is None:
                first = e.active
            break  # mulligans are over when the first turn begins
    if first is not None and not 0 <= first < seats:
        first = None
    return first, mulligans


@dataclass(kw_only=True)
class GameRecord(GameSummary):
    """One game of the library, as listed (everything but the log itself).

    ``digest`` is :func:`log_digest` of the log (``None`` in a library of schema 1).
    """

    id: int
    added: str
    size: int
    digest: str | None = None

    @property
    def result(self) -> str:
        """``"Alice won"``, ``"draw"`` or ``"no result"``."""
        if self.winner is None:
            return "no result"
        if self.winner < 0:
            return "draw"
        return f"{' & '.join(self.players[i] for i in self.winners)} won"

    def to_json(self) -> dict[str, Any]:
        """Plain data (for ``--json``), in the order of the library's columns."""
        d = asdict(self)
        out = {k.strip(): d.pop(k.strip()) for k in RECORD_COLUMNS.split(",")}
        out.update(d)
        out["result"] = self.result
        return out


@dataclass
class StoredGame:
    """A game of the library with its log: ``log`` is the binary log's bytes."""

    record: GameRecord
    log: bytes

    def header_and_events(self) -> tuple[LogHeader, list[Envelope]]:
        """The decoded log."""
        lf = decode_log(self.log, name=f"game {self.record.id}")
        return lf.header, lf.envelopes
