"""The game library: stored game logs, indexed for queries.

A *game store* keeps whole game logs (the binary log format of
:mod:`kernel.logfile`, byte for byte) together with facts pulled out of them
when they are added: the header fields (players, deck names, agents, seed),
the result (winner, turns, number of events) and two indexes for queries --
which event types occurred in the game (and how often) and which cards died
(were put into a graveyard from the battlefield, CR 700.4).

:class:`GameStore` is the interface (``add``, ``get``, ``list``, ``find``,
``summary``); :class:`SqliteStore` implements it on an embedded SQLite
database (:mod:`sqlite3` from the standard library; ``games.db`` by default).
Other backends implement the same protocol.

>>> from kernel.plugins import load_registry
>>> from kernel.logfile import encode_log
>>> from kernel.replay import new_header, run_from_header
>>> reg = load_registry(["core", "lorwyn"])
>>> header = new_header(reg, ["Ann", "Bob"], [["20 Mountain"], ["20 Mountain"]], seed=3,
...                     meta={"max_turns": 3})
>>> game = run_from_header(reg, header)
>>> with SqliteStore(":memory:") as store:
...     gid = store.add(encode_log(header, game.log))
...     rec = store.get(gid).record
...     (rec.players, rec.winner, rec.turns, rec.events == len(game.log))
(['Ann', 'Bob'], -1, 3, True)
"""

from __future__ import annotations

import builtins
import datetime as _dt
import json
import sqlite3
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, runtime_checkable

from kernel import events as ev
from kernel.events import Envelope
from kernel.logfile import LogHeader, decode_log, encode_log, event_tag
from kernel.state import apply, new_state

__all__ = [
    "DEFAULT_DB",
    "GameFacts",
    "GameRecord",
    "GameStore",
    "SqliteStore",
    "StoreError",
    "StoredGame",
    "Summary",
    "Tally",
    "game_facts",
    "open_store",
]

DEFAULT_DB = "games.db"
"""The library file ``mtgk sim`` and ``mtgk db`` use unless told otherwise."""

SCHEMA_VERSION = 1


class StoreError(Exception):
    """The library cannot be opened or does not hold what was asked for."""


# --------------------------------------------------------------------------
# What is known about a game


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


@dataclass(kw_only=True)
class GameFacts(GameSummary):
    """Everything the library indexes about one game (computed from its log).

    ``winner`` is the winning seat, ``-1`` for a draw and ``None`` when the
    log has no result (it stops before the game's end).  ``event_types``
    counts the events of each type; ``died`` counts, per card name, the
    permanents put into a graveyard from the battlefield.  ``sim_seed`` and
    ``sim_game`` say which ``mtgk sim`` run (its seed) and which of its games
    this is; ``error`` is the engine failure that cut the game short, if any.
    """

    event_types: dict[str, int] = field(default_factory=dict)
    died: dict[str, int] = field(default_factory=dict)

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


def game_facts(header: LogHeader, envelopes: Sequence[Envelope],
               error: str | None = None) -> GameFacts:
    """The facts :meth:`GameStore.add` indexes, from a game's header and events.

    The events are folded (once) to know which card every dying object was.
    """
    s = new_state()
    types: dict[str, int] = {}
    died: dict[str, int] = {}
    winner: int | None = None
    for env in envelopes:
        e = env.event
        tag = event_tag(e)
        types[tag] = types.get(tag, 0) + 1
        if isinstance(e, ev.ZoneChanged) and e.from_zone == "battlefield" \
                and e.to_zone == "graveyard":
            o = s.objects.get(e.obj)
            if o is not None:
                died[o.card] = died.get(o.card, 0) + 1
        elif isinstance(e, ev.GameEnded):
            winner = e.winner
        apply(s, e)
    n = len(header.players)
    meta = header.meta
    sim = meta.get("sim") if isinstance(meta.get("sim"), dict) else {}
    assert isinstance(sim, dict)
    return GameFacts(
        players=list(header.players), decks=_seat_list(meta.get("deck_names"), n),
        agents=_seat_list(meta.get("agents"), n, "kind"), seed=header.seed,
        profile=header.profile, kernel_version=header.kernel_version, winner=winner,
        turns=s.turn, events=len(envelopes), event_types=types, died=died,
        sim_seed=sim.get("seed") if isinstance(sim.get("seed"), int) else None,
        sim_game=sim.get("game") if isinstance(sim.get("game"), int) else None,
        error=error if error is not None else (
            meta.get("error") if isinstance(meta.get("error"), str) else None))


@dataclass(kw_only=True)
class GameRecord(GameSummary):
    """One game of the library, as listed (everything but the log itself)."""

    id: int
    added: str
    size: int

    @property
    def result(self) -> str:
        """``"Alice won"``, ``"draw"`` or ``"no result"``."""
        if self.winner is None:
            return "no result"
        if self.winner < 0:
            return "draw"
        return f"{self.players[self.winner]} won"

    def to_json(self) -> dict[str, Any]:
        """Plain data (for ``--json``), in the order of the library's columns."""
        d = asdict(self)
        out = {k.strip(): d.pop(k.strip()) for k in _COLUMNS.split(",")}
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


@dataclass
class Tally:
    """Results of one deck (or player) over the games it played.

    A deck that plays both seats of a game (a mirror match) is counted once
    per seat: one win and one loss, or two draws.
    """

    name: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    unfinished: int = 0

    @property
    def win_rate(self) -> float:
        """Wins over games with a result (draws count as games, not wins)."""
        decided = self.games - self.unfinished
        return self.wins / decided if decided else 0.0

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["win_rate"] = round(self.win_rate, 6)
        return d


@dataclass
class Summary:
    """What the whole library says: results per deck and player, game lengths.

    Game lengths (``turns_*``, ``events_*``) are over the games with a
    result; ``None`` when there are none.
    """

    games: int
    decided: int
    draws: int
    unfinished: int
    errors: int
    decks: list[Tally]
    players: list[Tally]
    turns_mean: float | None
    turns_median: float | None
    events_mean: float | None
    events_median: float | None

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["decks"] = [t.to_json() for t in self.decks]
        d["players"] = [t.to_json() for t in self.players]
        return d


def summarize(rows: Iterable[tuple[list[str], list[str | None], int | None, int, int, bool]]
              ) -> Summary:
    """A :class:`Summary` of ``(players, decks, winner, turns, events, failed)`` rows.

    Shared by the backends so that they agree on every number.
    """
    games = decided = draws = unfinished = errors = 0
    decks: dict[str, Tally] = {}
    players: dict[str, Tally] = {}
    turns: list[int] = []
    events: list[int] = []
    for names, deck_names, winner, n_turns, n_events, failed in rows:
        games += 1
        errors += int(failed)
        if winner is None:
            unfinished += 1
        else:
            turns.append(n_turns)
            events.append(n_events)
            if winner < 0:
                draws += 1
            else:
                decided += 1
        for seat, name in enumerate(names):
            deck = deck_names[seat] if seat < len(deck_names) else None
            for table, key in ((players, name), (decks, deck or "(unknown deck)")):
                t = table.setdefault(key, Tally(key))
                t.games += 1
                if winner is None:
                    t.unfinished += 1
                elif winner < 0:
                    t.draws += 1
                elif winner == seat:
                    t.wins += 1
                else:
                    t.losses += 1

    def order(table: dict[str, Tally]) -> list[Tally]:
        return sorted(table.values(), key=lambda t: (-t.win_rate, -t.games, t.name))

    def mean(xs: list[int]) -> float | None:
        return statistics.fmean(xs) if xs else None

    def median(xs: list[int]) -> float | None:
        return float(statistics.median(xs)) if xs else None

    return Summary(games=games, decided=decided, draws=draws, unfinished=unfinished,
                   errors=errors, decks=order(decks), players=order(players),
                   turns_mean=mean(turns), turns_median=median(turns),
                   events_mean=mean(events), events_median=median(events))


# --------------------------------------------------------------------------
# The interface


@runtime_checkable
class GameStore(Protocol):
    """A game library backend.

    ``add`` stores a binary log (``facts`` as computed by :func:`game_facts`;
    computed from the log when not given) and returns the new game's id;
    ``get`` returns a game with its log (``None``: no such game); ``list``
    the games in id order; ``find`` the games that match every given
    condition (an event type that occurred, a card that died, a player, a
    deck, a winner); ``summary`` the library's :class:`Summary`.
    """

    def add(self, log: bytes, facts: GameFacts | None = None) -> int: ...

    def get(self, game_id: int) -> StoredGame | None: ...

    def list(self, limit: int | None = None, offset: int = 0) -> builtins.list[GameRecord]: ...

    def find(self, *, event: str | None = None, died: str | None = None,
             player: str | None = None, deck: str | None = None,
             winner: str | None = None, limit: int | None = None
             ) -> builtins.list[GameRecord]: ...

    def summary(self) -> Summary: ...

    def close(self) -> None: ...


# --------------------------------------------------------------------------
# SQLite

_SCHEMA = """
CREATE TABLE IF NOT EXISTS library_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    added TEXT NOT NULL,
    kernel_version TEXT NOT NULL,
    profile TEXT NOT NULL,
    seed INTEGER NOT NULL,
    players TEXT NOT NULL,          -- JSON list of names, by seat
    decks TEXT NOT NULL,            -- JSON list of deck names (null: unknown)
    agents TEXT NOT NULL,           -- JSON list of agent kinds (null: unknown)
    winner INTEGER,                 -- seat; -1 a draw; NULL no result
    turns INTEGER NOT NULL,
    events INTEGER NOT NULL,
    sim_seed INTEGER,
    sim_game INTEGER,
    error TEXT,
    size INTEGER NOT NULL,
    log BLOB NOT NULL               -- the binary log (kernel.logfile), byte for byte
);
CREATE TABLE IF NOT EXISTS seats (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    player TEXT NOT NULL,
    deck TEXT,
    agent TEXT,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS game_events (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (game_id, type)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS deaths (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    card TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (game_id, card)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS game_events_type ON game_events (type COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS deaths_card ON deaths (card COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS seats_player ON seats (player COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS seats_deck ON seats (deck COLLATE NOCASE);
CREATE INDEX IF NOT EXISTS games_sim ON games (sim_seed, sim_game);
"""

_COLUMNS = ("id, added, players, decks, agents, seed, profile, kernel_version, winner, turns, "
            "events, size, sim_seed, sim_game, error")


def _record(row: sqlite3.Row | tuple[Any, ...]) -> GameRecord:
    (gid, added, players, decks, agents, seed, profile, kv, winner, turns, events, size,
     sim_seed, sim_game, error) = tuple(row)
    return GameRecord(id=gid, added=added, players=json.loads(players), decks=json.loads(decks),
                      agents=json.loads(agents), seed=seed, profile=profile, kernel_version=kv,
                      winner=winner, turns=turns, events=events, size=size, sim_seed=sim_seed,
                      sim_game=sim_game, error=error)


class SqliteStore:
    """A :class:`GameStore` in one SQLite file (``":memory:"`` for a throwaway one).

    Adds are written in a transaction that :meth:`commit` (or closing the
    store, or leaving its ``with`` block) ends; :meth:`add` with
    ``commit=True`` commits at once.  Opening a file that is not a library
    raises :class:`StoreError`.
    """

    def __init__(self, path: str | Path = DEFAULT_DB) -> None:
        self.path = str(path)
        try:
            self._db = sqlite3.connect(self.path)
            self._db.execute("PRAGMA foreign_keys = ON")
            self._db.executescript(_SCHEMA)
            row = self._db.execute(
                "SELECT value FROM library_meta WHERE key = 'schema'").fetchone()
            if row is None:
                self._db.execute("INSERT INTO library_meta VALUES ('schema', ?)",
                                 (str(SCHEMA_VERSION),))
                self._db.commit()
            elif int(row[0]) > SCHEMA_VERSION:
                raise StoreError(f"{self.path}: the game library was written by a newer "
                                 f"mtgk (schema {row[0]}, this one reads {SCHEMA_VERSION})")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: not a game library ({exc})") from None

    # -- context manager -------------------------------------------------
    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def commit(self) -> None:
        """Make the games added so far durable."""
        self._db.commit()

    def close(self) -> None:
        """Commit and close; closing twice is fine."""
        if self._db is not None:
            try:
                self._db.commit()
            finally:
                self._db.close()
                # a closed store has no connection; its ``_db`` is typed for the open one
                self._db = None  # type: ignore[assignment]

    # -- GameStore ---------------------------------------------------------
    def add(self, log: bytes, facts: GameFacts | None = None, *, commit: bool = False) -> int:
        """Store a binary log (and its facts); returns the game's id."""
        if facts is None:
            lf = decode_log(log, name="the added log")
            facts = game_facts(lf.header, lf.envelopes)
        added = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
        cur = self._db.execute(
            "INSERT INTO games (added, kernel_version, profile, seed, players, decks, agents, "
            "winner, turns, events, sim_seed, sim_game, error, size, log) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (added, facts.kernel_version, facts.profile, facts.seed, json.dumps(facts.players),
             json.dumps(facts.decks), json.dumps(facts.agents), facts.winner, facts.turns,
             facts.events, facts.sim_seed, facts.sim_game, facts.error, len(log),
             sqlite3.Binary(log)))
        gid = cur.lastrowid
        assert gid is not None
        self._db.executemany(
            "INSERT INTO seats VALUES (?, ?, ?, ?, ?)",
            [(gid, i, name, facts.decks[i] if i < len(facts.decks) else None,
              facts.agents[i] if i < len(facts.agents) else None)
             for i, name in enumerate(facts.players)])
        self._db.executemany("INSERT INTO game_events VALUES (?, ?, ?)",
                             [(gid, t, n) for t, n in sorted(facts.event_types.items())])
        self._db.executemany("INSERT INTO deaths VALUES (?, ?, ?)",
                             [(gid, c, n) for c, n in sorted(facts.died.items())])
        if commit:
            self._db.commit()
        return gid

    def add_log(self, header: LogHeader, envelopes: Sequence[Envelope],
                error: str | None = None) -> int:
        """Encode and store a game given as a header and its events."""
        return self.add(encode_log(header, envelopes), game_facts(header, envelopes, error))

    def get(self, game_id: int) -> StoredGame | None:
        row = self._db.execute(f"SELECT {_COLUMNS}, log FROM games WHERE id = ?",
                               (game_id,)).fetchone()
        if row is None:
            return None
        return StoredGame(_record(row[:-1]), bytes(row[-1]))

    def list(self, limit: int | None = None, offset: int = 0) -> builtins.list[GameRecord]:
        rows = self._db.execute(f"SELECT {_COLUMNS} FROM games ORDER BY id LIMIT ? OFFSET ?",
                                (-1 if limit is None else limit, offset)).fetchall()
        return [_record(r) for r in rows]

    def find(self, *, event: str | None = None, died: str | None = None,
             player: str | None = None, deck: str | None = None,
             winner: str | None = None, limit: int | None = None
             ) -> builtins.list[GameRecord]:
        """Games matching all the given conditions (names match ignoring case).

        ``event``: an event of this type occurred; ``died``: a permanent with
        this card name died; ``player`` / ``deck``: someone of that name / with
        that deck played; ``winner``: the winner's player or deck name, or
        ``"draw"``.
        """
        where: builtins.list[str] = []
        params: builtins.list[Any] = []
        if event is not None:
            where.append("id IN (SELECT game_id FROM game_events WHERE type = ? "
                         "COLLATE NOCASE)")
            params.append(event)
        if died is not None:
            where.append("id IN (SELECT game_id FROM deaths WHERE card = ? COLLATE NOCASE)")
            params.append(died)
        if player is not None:
            where.append("id IN (SELECT game_id FROM seats WHERE player = ? COLLATE NOCASE)")
            params.append(player)
        if deck is not None:
            where.append("id IN (SELECT game_id FROM seats WHERE deck = ? COLLATE NOCASE)")
            params.append(deck)
        if winner is not None:
            if winner.casefold() == "draw":
                where.append("winner = -1")
            else:
                where.append("id IN (SELECT s.game_id FROM seats s JOIN games g ON "
                             "g.id = s.game_id WHERE s.seat = g.winner AND "
                             "(s.player = ? COLLATE NOCASE OR s.deck = ? COLLATE NOCASE))")
                params += [winner, winner]
        sql = f"SELECT {_COLUMNS} FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id LIMIT ?"
        params.append(-1 if limit is None else limit)
        return [_record(r) for r in self._db.execute(sql, params).fetchall()]

    def summary(self) -> Summary:
        rows = self._db.execute(
            "SELECT players, decks, winner, turns, events, error FROM games ORDER BY id")
        return summarize((json.loads(p), json.loads(d), w, t, e, err is not None)
                         for p, d, w, t, e, err in rows)

    # -- extras ----------------------------------------------------------------
    def count(self) -> int:
        """How many games the library holds."""
        return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def event_counts(self, game_id: int) -> dict[str, int]:
        """The indexed event-type counts of one game."""
        return dict(self._db.execute("SELECT type, n FROM game_events WHERE game_id = ?",
                                     (game_id,)).fetchall())

    def deaths(self, game_id: int) -> dict[str, int]:
        """The indexed deaths (card name -> count) of one game."""
        return dict(self._db.execute("SELECT card, n FROM deaths WHERE game_id = ?",
                                     (game_id,)).fetchall())

    def event_types(self) -> builtins.list[str]:
        """Every event type that occurs in some stored game."""
        return [r[0] for r in self._db.execute(
            "SELECT DISTINCT type FROM game_events ORDER BY type").fetchall()]

    def cards_died(self) -> builtins.list[str]:
        """Every card name that died in some stored game."""
        return [r[0] for r in self._db.execute(
            "SELECT DISTINCT card FROM deaths ORDER BY card").fetchall()]


def open_store(path: str | Path = DEFAULT_DB, *, must_exist: bool = False) -> SqliteStore:
    """Open (or create) the library at ``path``.

    ``must_exist`` raises :class:`StoreError` for a missing file instead of
    creating an empty library (for commands that only read).
    """
    p = str(path)
    if must_exist and p != ":memory:" and not Path(p).exists():
        raise StoreError(f"{p}: no such game library (create one with `mtgk sim --db {p}`)")
    if p != ":memory:" and Path(p).is_dir():
        raise StoreError(f"{p} is a directory, not a game library")
    return SqliteStore(p)
