"""The game library's interface, :class:`GameStore`, and its SQLite backend,
:class:`SqliteStore` (:func:`open_store`): WAL mode, one short transaction a game, older
schemas migrated in place, a file that is not a library refused before anything is written."""

from __future__ import annotations

import builtins
import datetime as _dt
import json
import sqlite3
import time
import urllib.parse
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, TypeVar, runtime_checkable

from mtgk.log.events import Envelope
from mtgk.log.logfile import LogFile, LogHeader, decode_log, encode_log
from mtgk.tools.store.facts import (
    DEFAULT_DB,
    RECORD_COLUMNS,
    Added,
    GameFacts,
    GameRecord,
    StoredGame,
    StoreError,
    game_facts,
    header_teams,
    log_digest,
    starting_player_and_mulligans,
)
from mtgk.tools.store.summary import Summary, SummaryRow, summarize

__all__ = [
    "GameStore",
    "SCHEMA_VERSION",
    "SqliteStore",
    "WAIT_SECONDS",
    "open_store",
]


SCHEMA_VERSION = 5
"""The library schema this code writes.  Schema 1 (no log digests), schema 2 (no
starting player, no mulligans), schema 3 (no index of kills) and schema 4 (no variant,
no teams) are read as they are and
migrated in place, in one transaction, when a game is added to them: the new columns and
tables are filled from the stored logs, which are left byte for byte."""



@runtime_checkable
class GameStore(Protocol):
    """A game library backend.

    ``add`` stores a binary log (``facts`` as computed by :func:`game_facts`;
    computed from the log when not given) and says what it did (:class:`Added`:
    a log identical to a stored game's is not stored again unless
    ``allow_duplicates``); every ``add`` is durable when it returns;
    ``get`` returns a game with its log (``None``: no such game); ``list``
    the games in id order; ``find`` the games that match every given
    condition (an event type that occurred, a card that died, a player, a
    deck, a winner); ``summary`` the library's :class:`Summary`.
    """

    def add(self, log: bytes, facts: GameFacts | None = None, *,
            allow_duplicates: bool = False) -> Added: ...

    def get(self, game_id: int) -> StoredGame | None: ...

    def list(self, limit: int | None = None, offset: int = 0) -> builtins.list[GameRecord]: ...

    def find(self, *, event: str | None = None, died: str | None = None,
             player: str | None = None, deck: str | None = None,
             winner: str | None = None, limit: int | None = None
             ) -> builtins.list[GameRecord]: ...

    def summary(self) -> Summary: ...

    def close(self) -> None: ...



_TABLES = """
CREATE TABLE library_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    added TEXT NOT NULL,
    kernel_version TEXT NOT NULL,
    profile TEXT NOT NULL,
    seed INTEGER NOT NULL,
    players TEXT NOT NULL,          -- JSON list of names, by seat
    decks TEXT NOT NULL,            -- JSON list of deck names (null: unknown)
    agents TEXT NOT NULL,           -- JSON list of agent kinds (null: unknown)
    winner INTEGER,                 -- the seat, -1 a draw, NULL no result
    turns INTEGER NOT NULL,
    events INTEGER NOT NULL,
    sim_seed INTEGER,
    sim_game INTEGER,
    error TEXT,
    size INTEGER NOT NULL,
    log BLOB NOT NULL,              -- the binary log (mtgk.log.logfile), byte for byte
    digest TEXT,                    -- log_digest(log): finds an identical game
    starting_player INTEGER,        -- the seat that played first (NULL: unknown)
    mulligans TEXT,                 -- JSON list of mulligans taken, by seat (NULL: unknown)
    variant TEXT,
    teams TEXT
);
CREATE TABLE seats (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    player TEXT NOT NULL,
    deck TEXT,
    agent TEXT,
    mulligans INTEGER,
    team INTEGER,                   -- the seat's team, by its place in games.teams (NULL: none)
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE TABLE game_events (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    type TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (game_id, type)
) WITHOUT ROWID;
CREATE TABLE deaths (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    card TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (game_id, card)
) WITHOUT ROWID;
CREATE TABLE kills (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    card TEXT NOT NULL,             -- the card to blame (Blame): its damage, spell, ability
    victim TEXT NOT NULL,           -- 'permanent' (it died) or 'player' (they lost)
    n INTEGER NOT NULL,
    PRIMARY KEY (game_id, card, victim)
) WITHOUT ROWID;
CREATE INDEX game_events_type ON game_events (type COLLATE NOCASE);
CREATE INDEX deaths_card ON deaths (card COLLATE NOCASE);
CREATE INDEX seats_player ON seats (player COLLATE NOCASE);
CREATE INDEX seats_deck ON seats (deck COLLATE NOCASE);
CREATE INDEX games_sim ON games (sim_seed, sim_game);
"""
"""The tables of a new library (schema :data:`SCHEMA_VERSION`).  ``games.variant`` is
the header's ``meta.variant`` (``free_for_all``, ``two_headed_giant``, empty for two
players), ``games.teams`` a JSON list of teams, each a list of seats (NULL: no teams), and
``seats.team`` the seat's team by its place in that list."""

_DIGEST_INDEX = "CREATE INDEX games_digest ON games (digest)"


_NEWER_COLUMNS = {2: ("digest",), 3: ("starting_player", "mulligans"), 5: ("variant", "teams")}
"""The columns of ``games`` each schema added."""

_KILLS_TABLE = _TABLES[_TABLES.index("CREATE TABLE kills"):].split(";")[0]
_NEWER_TABLES = {4: ("kills",)}
"""The tables each schema added."""

_V1_GAME_COLUMNS = frozenset(c.strip() for c in RECORD_COLUMNS.split(",")) - {
    c for cols in _NEWER_COLUMNS.values() for c in cols} | {"log"}
_LIBRARY_TABLES = frozenset({"library_meta", "games", "seats", "game_events", "deaths"})
_SQLITE_MAGIC = b"SQLite format 3\x00"

WAIT_SECONDS = 60.0
"""How long an add waits for another process's write to the same library to end."""

_T = TypeVar("_T")


def _one_line(text: str, most: int = 200) -> str:
    """Text from the file (a table name, SQLite's message) fit for a one-line report."""
    flat = " ".join("".join(c if c.isprintable() else " " for c in text).split())
    return flat if len(flat) <= most else flat[:most] + "…"


def _record_error(path: str, gid: Any, what: str) -> StoreError:
    return StoreError(f"{path}: game {gid}: the stored record is damaged ({_one_line(what)}); the "
                      "library's other games can still be read")


def _json_seats(path: str, gid: Any, column: str, text: Any, names: bool) -> list[Any]:
    """A seats column (JSON list of strings; ``names=False``: strings or nulls), checked."""
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):  # (``[[[[…`` a thousand deep)
        value = None
    if not isinstance(value, list) or not all(
            isinstance(v, str) or (v is None and not names) for v in value):
        raise _record_error(path, gid, f"{column} is {str(text)[:40]!r}")
    return value


def _json_counts(path: str, gid: Any, column: str, text: Any) -> list[int]:
    """A column holding a JSON list of counts by seat, checked."""
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, list) or not all(type(v) is int and v >= 0 for v in value):
        raise _record_error(path, gid, f"{column} is {str(text)[:40]!r}")
    return value


def _json_teams(path: str, gid: Any, text: Any, seats: int) -> list[list[int]] | None:
    """The teams column (JSON list of lists of seats; NULL: no teams), checked."""
    if text is None:
        return None
    try:
        value = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, list) or not all(
            isinstance(t, list) and t and all(type(p) is int and 0 <= p < seats for p in t)
            for t in value):
        raise _record_error(path, gid, f"teams is {str(text)[:40]!r}")
    return value


def _check_seat(path: str, gid: Any, column: str, value: int | None, seats: int) -> None:
    """A winner column: ``None`` (no result), ``-1`` (a draw) or one of the game's seats."""
    if value is not None and not -1 <= value < seats:
        raise _record_error(path, gid, f"{column} is {value!r}, not one of its {seats} "
                            "seats (nor -1, a draw)")


def _record(path: str, row: Sequence[Any]) -> GameRecord:
    """A :class:`GameRecord` from a row of :data:`RECORD_COLUMNS`, its types checked (a damaged
    file can hold anything)."""
    (gid, added, players, decks, agents, seed, profile, kv, winner, turns, events, size,
     sim_seed, sim_game, error, digest, first, mulligans, variant, teams) = tuple(row)
    ints = {"id": gid, "seed": seed, "turns": turns, "events": events, "size": size}
    for name, value in ints.items():
        if type(value) is not int:
            raise _record_error(path, gid, f"{name} is {value!r}")
    optional_ints = {"winner": winner, "sim_seed": sim_seed, "sim_game": sim_game,
                     "starting_player": first}
    for name, value in optional_ints.items():
        if value is not None and type(value) is not int:
            raise _record_error(path, gid, f"{name} is {value!r}")
    texts = {"added": added, "profile": profile, "kernel_version": kv}
    for name, value in {**texts, "error": error, "digest": digest, "variant": variant}.items():
        if not isinstance(value, str) and (value is not None or name in texts):
            raise _record_error(path, gid, f"{name} is {value!r}")
    takes = None if mulligans is None else _json_counts(path, gid, "mulligans", mulligans)
    names = _json_seats(path, gid, "players", players, True)
    _check_seat(path, gid, "winner", winner, len(names))
    return GameRecord(id=gid, added=added, players=names,
                      decks=_json_seats(path, gid, "decks", decks, False),
                      agents=_json_seats(path, gid, "agents", agents, False), seed=seed,
                      profile=profile, kernel_version=kv, winner=winner, turns=turns,
                      events=events, size=size, sim_seed=sim_seed, sim_game=sim_game,
                      error=error, digest=digest, starting_player=first, mulligans=takes,
                      variant=variant or "", teams=_json_teams(path, gid, teams, len(names)))


_DB_ERRORS = (sqlite3.Error, UnicodeDecodeError)
"""What reading a damaged file can raise (SQLite's errors, and text that is not UTF-8)."""


def _kill_rows(gid: int, facts: GameFacts) -> builtins.list[tuple[int, str, str, int]]:
    """The rows of the table of kills for one game's facts."""
    return ([(gid, c, "permanent", n) for c, n in sorted(facts.kills.items())]
            + [(gid, c, "player", n) for c, n in sorted(facts.finishes.items())])


def _seat_teams(teams: Sequence[Sequence[int]] | None, seats: int) -> list[int | None]:
    """Each seat's team (its place in ``teams``; ``None``: no teams)."""
    out: list[int | None] = [None] * seats
    for k, team in enumerate(teams or ()):
        for p in team:
            if 0 <= p < seats:
                out[p] = k
    return out


def _busy(exc: Exception) -> bool:
    text = str(exc).lower()
    return "locked" in text or "busy" in text


class SqliteStore:
    """A :class:`GameStore` in one SQLite file (``":memory:"`` for a throwaway one).

    ``readonly`` opens an existing library for reading only (nothing is ever written
    to the file); otherwise a missing file is created, a library of schema 1 is
    migrated, and the file is put in WAL mode so that other processes can read and
    add while this one does.  Every :meth:`add` is a transaction of its own, committed
    before it returns.  A file that is not a library this code reads (not SQLite,
    another program's database, a newer or unknown schema, a damaged file) raises
    :class:`StoreError` before anything is written to it; so does a damaged page met
    later, and any other SQLite failure, with the file's name.
    """

    def __init__(self, path: str | Path = DEFAULT_DB, *, readonly: bool = False) -> None:
        self.path = str(path)
        self.readonly = readonly
        self._db: sqlite3.Connection | None = None
        self._wal_pending = False  # WAL is switched on after the first committed write
        memory = self.path == ":memory:"
        fresh = memory or not Path(self.path).exists()
        if not memory and not fresh:
            self._check_file()
        elif readonly:
            raise StoreError(f"{self.path}: no such game library")
        try:
            if readonly:
                uri = "file:" + urllib.parse.quote(str(Path(self.path).absolute())) + "?mode=ro"
                self._db = sqlite3.connect(uri, uri=True, timeout=WAIT_SECONDS / 6,
                                           isolation_level=None)
            else:
                self._db = sqlite3.connect(self.path, timeout=WAIT_SECONDS / 6,
                                           isolation_level=None)
        except _DB_ERRORS as exc:
            raise self._error(exc) from None
        try:
            self._open(fresh)
        except BaseException:
            self.close()
            raise

    def _check_file(self) -> None:
        """Refuse, by its first bytes, a file that is no SQLite database at all."""
        p = Path(self.path)
        if p.is_dir():
            raise StoreError(f"{self.path} is a directory, not a game library")
        try:
            with open(p, "rb") as fp:
                start = fp.read(100)
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot read it: {exc.strerror or exc}") from None
        if not start:
            if self.readonly:
                raise StoreError(f"{self.path}: not a game library (an empty file)")
            return  # an empty file: SQLite makes a new database of it
        if not start.startswith(_SQLITE_MAGIC):
            raise StoreError(f"{self.path}: not a game library (not an SQLite database: it "
                             f"starts with {start[:16]!r})")
        if len(start) < 100:
            raise StoreError(f"{self.path}: not a game library, or a damaged one (an SQLite "
                             f"file of only {len(start)} bytes)")

    def _open(self, fresh: bool) -> None:
        db = self._conn
        try:
            db.execute("PRAGMA foreign_keys = ON")
            schema = self._inspect()
        except _DB_ERRORS as exc:
            raise self._error(exc) from None
        if self.readonly:
            self._schema = schema
            if schema == 0:
                raise StoreError(f"{self.path}: not a game library (an SQLite database "
                                 "without tables)")
            return
        if not fresh:
            self._quick_check()
        # WAL mode (readers beside a writer) is set after the first write that commits,
        # never before: switching rewrites the file's header, and a library that turns out
        # to be damaged when it is written to must be left byte for byte as it was
        try:
            mode = db.execute("PRAGMA journal_mode").fetchone()
        except _DB_ERRORS as exc:
            raise self._error(exc) from None
        self._wal_pending = not (mode and str(mode[0]).lower() == "wal")
        if schema != SCHEMA_VERSION:
            self._schema = self._write(self._create_or_migrate)
        else:
            self._schema = schema

    def _switch_to_wal(self) -> None:
        """Once a write has committed: the library goes into WAL mode."""
        self._wal_pending = False
        try:
            self._conn.execute("PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError as exc:
            # another process has the file open in rollback mode: it works, only slower
            if not _busy(exc):
                raise self._error(exc) from None

    @property
    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError(f"{self.path}: the game library is closed")
        return self._db

    def _inspect(self) -> int:
        """The file's schema version (0: an SQLite database without tables), or
        :class:`StoreError` for one this code does not read.  Only reads."""
        db = self._conn
        tables = {r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()}
        tables.discard("sqlite_sequence")
        if not tables:
            return 0
        if "library_meta" not in tables:
            names = _one_line(", ".join(sorted(str(t) for t in tables)[:5]))
            raise StoreError(f"{self.path}: not a game library (an SQLite database with the "
                             f"tables {names})")
        rows = db.execute("SELECT value FROM library_meta WHERE key = 'schema'").fetchall()
        value = rows[0][0] if rows else None
        text = str(value) if isinstance(value, int | str) else ""
        if not (text.isascii() and text.isdigit()):
            shown = _one_line(repr(value), 40)
            raise StoreError(f"{self.path}: not a game library, or a damaged one: its schema "
                             f"is {shown}, not a number")
        version = int(text) if len(text) < 10 else SCHEMA_VERSION + 1  # (no int() of 5,000
        if version > SCHEMA_VERSION:                                     # digits either)
            shown = text if len(text) < 10 else text[:10] + "…"
            raise StoreError(f"{self.path}: the game library was written by a newer mtgk "
                             f"(schema {shown}, this one reads 1 to {SCHEMA_VERSION}); "
                             "upgrade mtgk to use it")
        if version < 1:
            raise StoreError(f"{self.path}: not a game library (unknown schema {version})")
        missing = (_LIBRARY_TABLES | {name for v, names in _NEWER_TABLES.items()
                                      if v <= version for name in names}) - tables
        columns = {r[1] for r in db.execute("PRAGMA table_info(games)").fetchall()}
        want = _V1_GAME_COLUMNS | {c for v, cols in _NEWER_COLUMNS.items() if v <= version
                                   for c in cols}
        if missing or not want <= columns:
            what = (f"the tables {', '.join(sorted(missing))} are missing" if missing else
                    f"the games table lacks {', '.join(sorted(want - columns))}")
            raise StoreError(f"{self.path}: a damaged game library of schema {version}: {what}")
        return version

    def _quick_check(self) -> None:
        """Refuse a damaged file before writing to it (SQLite's own structural check)."""
        try:
            rows = self._conn.execute("PRAGMA quick_check(1)").fetchall()
        except _DB_ERRORS as exc:
            raise self._error(exc) from None
        if [tuple(r) for r in rows] != [("ok",)]:
            problem = str(rows[0][0]).replace("*** in database main ***", "") if rows else \
                "no answer"
            raise StoreError(f"{self.path}: the game library is damaged ({_one_line(problem)}); "
                             "nothing was written to it")

    def _create_or_migrate(self) -> int:
        """Inside a write transaction: make a new library, or migrate one of schema 1
        (its games get their digests); another process may have done it first."""
        db = self._conn
        schema = self._inspect()
        if schema == 0:
            for statement in _TABLES.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(_DIGEST_INDEX)
            db.execute("INSERT INTO library_meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        else:
            if schema < 2:
                db.execute("ALTER TABLE games ADD COLUMN digest TEXT")
                rows = db.execute("SELECT id, log FROM games").fetchall()
                db.executemany("UPDATE games SET digest = ? WHERE id = ?",
                               [(log_digest(bytes(log)), gid) for gid, log in rows
                                if isinstance(log, bytes)])
                db.execute(_DIGEST_INDEX)
            if schema < 3:
                self._add_starts_and_mulligans()
            if schema < 4:
                self._add_kills()
            if schema < 5:
                self._add_teams()
            db.execute("UPDATE library_meta SET value = ? WHERE key = 'schema'",
                       (str(SCHEMA_VERSION),))
        return SCHEMA_VERSION

    def _readable_logs(self) -> Iterator[tuple[int, LogFile]]:
        """Each stored game's id and decoded log, in id order, for the migrations that
        fill new columns from the logs; a log this kernel can't read is left out (its
        new columns stay NULL: unknown)."""
        rows = self._conn.execute("SELECT id, log FROM games ORDER BY id").fetchall()
        for gid, log in rows:
            if not isinstance(log, bytes):
                continue
            try:
                lf = decode_log(log, name=f"game {gid}")
            except Exception:  # noqa: BLE001 - a log this kernel can't read: left unknown
                continue
            yield gid, lf

    def _add_starts_and_mulligans(self) -> None:
        """Migrating to schema 3: the columns for the starting player and the mulligans,
        filled from each stored log (one that cannot be read keeps them NULL: unknown)."""
        db = self._conn
        db.execute("ALTER TABLE games ADD COLUMN starting_player INTEGER")
        db.execute("ALTER TABLE games ADD COLUMN mulligans TEXT")
        db.execute("ALTER TABLE seats ADD COLUMN mulligans INTEGER")
        for gid, lf in self._readable_logs():
            first, takes = starting_player_and_mulligans(lf.envelopes, len(lf.header.players))
            db.execute("UPDATE games SET starting_player = ?, mulligans = ? WHERE id = ?",
                       (first, json.dumps(takes), gid))
            db.executemany("UPDATE seats SET mulligans = ? WHERE game_id = ? AND seat = ?",
                           [(n, gid, seat) for seat, n in enumerate(takes)])

    def _add_kills(self) -> None:
        """Migrating to schema 4: the table of kills, filled from each stored log (one
        that cannot be read has none: unknown)."""
        db = self._conn
        db.execute(_KILLS_TABLE)
        for gid, lf in self._readable_logs():
            try:
                facts = game_facts(lf.header, lf.envelopes)
            except Exception:  # noqa: BLE001 - a log this kernel can't follow: left unknown
                continue
            db.executemany("INSERT INTO kills VALUES (?, ?, ?, ?)", _kill_rows(gid, facts))

    def _add_teams(self) -> None:
        """Migrating to schema 5: the columns for the variant and the teams, filled from
        each stored log's header (one that cannot be read keeps them NULL: unknown, read
        as a game without teams)."""
        db = self._conn
        db.execute("ALTER TABLE games ADD COLUMN variant TEXT")
        db.execute("ALTER TABLE games ADD COLUMN teams TEXT")
        db.execute("ALTER TABLE seats ADD COLUMN team INTEGER")
        for gid, lf in self._readable_logs():
            header = lf.header
            n = len(header.players)
            variant, teams = header_teams(header.meta, n)
            db.execute("UPDATE games SET variant = ?, teams = ? WHERE id = ?",
                       (variant, None if teams is None else json.dumps(teams), gid))
            if teams is not None:
                db.executemany("UPDATE seats SET team = ? WHERE game_id = ? AND seat = ?",
                               [(k, gid, seat) for seat, k in
                                enumerate(_seat_teams(teams, n)) if k is not None])

    def _error(self, exc: Exception) -> StoreError:
        """The one line that says what went wrong with the file."""
        if isinstance(exc, UnicodeDecodeError):
            return StoreError(f"{self.path}: the game library is damaged (text that is not "
                              f"UTF-8: {_one_line(str(exc))})")
        text = _one_line(str(exc))
        low = text.lower()
        if _busy(exc):
            return StoreError(f"{self.path}: the game library is busy: another process "
                              f"has been writing to it for more than {WAIT_SECONDS:.0f} s")
        if "malformed" in low or "not a database" in low or "corrupt" in low:
            return StoreError(f"{self.path}: the game library is damaged ({text}); "
                              + ("nothing was written to it" if not self.readonly else
                                 "`sqlite3 FILE .recover` may save the readable games"))
        if "readonly" in low or "read-only" in low or "disk" in low or "full" in low:
            return StoreError(f"{self.path}: cannot write to the game library ({text})")
        if "unable to open" in low:
            return StoreError(f"{self.path}: cannot open the game library ({text})")
        return StoreError(f"{self.path}: cannot read the game library ({text})")

    def _read(self, sql: str, params: Sequence[Any] = ()) -> builtins.list[Any]:
        try:
            return self._conn.execute(sql, params).fetchall()
        except _DB_ERRORS as exc:
            raise self._error(exc) from None

    def _write(self, fn: Callable[[], _T]) -> _T:
        """Run ``fn`` in a write transaction of its own, waiting (up to
        :data:`WAIT_SECONDS`) while another process writes."""
        if self.readonly:
            raise StoreError(f"{self.path}: opened for reading only")
        db = self._conn
        deadline = time.monotonic() + WAIT_SECONDS
        pause = 0.01
        while True:
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    out = fn()
                    db.execute("COMMIT")
                finally:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                if self._wal_pending:
                    self._switch_to_wal()
                return out
            except sqlite3.OperationalError as exc:
                if not _busy(exc) or time.monotonic() > deadline:
                    raise self._error(exc) from None
                time.sleep(pause)
                pause = min(pause * 2, 0.5)
            except _DB_ERRORS as exc:
                raise self._error(exc) from None

    # -- context manager -------------------------------------------------
    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Close the library (every add is committed already); closing twice is fine."""
        if self._db is not None:
            db, self._db = self._db, None
            try:
                db.close()
            except sqlite3.Error:
                pass

    # -- GameStore ---------------------------------------------------------
    def add(self, log: bytes, facts: GameFacts | None = None, *,
            allow_duplicates: bool = False) -> Added:
        """Store a binary log (and its facts), unless an identical log is stored already."""
        if facts is None:
            lf = decode_log(log, name="the added log")
            facts = game_facts(lf.header, lf.envelopes)
        digest = log_digest(log)
        added = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
        db = self._conn

        def insert() -> Added:
            if not allow_duplicates:
                for gid, stored in db.execute("SELECT id, log FROM games WHERE digest = ? "
                                              "ORDER BY id", (digest,)):
                    if stored == log:
                        return Added(int(gid), True)
            takes = facts.mulligans
            cur = db.execute(
                "INSERT INTO games (added, kernel_version, profile, seed, players, decks, "
                "agents, winner, turns, events, sim_seed, sim_game, error, size, log, digest, "
                "starting_player, mulligans, variant, teams) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (added, facts.kernel_version, facts.profile, facts.seed,
                 json.dumps(facts.players), json.dumps(facts.decks), json.dumps(facts.agents),
                 facts.winner, facts.turns, facts.events, facts.sim_seed, facts.sim_game,
                 facts.error, len(log), sqlite3.Binary(log), digest, facts.starting_player,
                 None if takes is None else json.dumps(takes), facts.variant,
                 None if facts.teams is None else json.dumps(facts.teams)))
            gid = cur.lastrowid
            assert gid is not None
            team = _seat_teams(facts.teams, len(facts.players))
            db.executemany(
                "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?)",
                [(gid, i, name, facts.decks[i] if i < len(facts.decks) else None,
                  facts.agents[i] if i < len(facts.agents) else None,
                  takes[i] if takes is not None and i < len(takes) else None, team[i])
                 for i, name in enumerate(facts.players)])
            db.executemany("INSERT INTO game_events VALUES (?, ?, ?)",
                           [(gid, t, n) for t, n in sorted(facts.event_types.items())])
            db.executemany("INSERT INTO deaths VALUES (?, ?, ?)",
                           [(gid, c, n) for c, n in sorted(facts.died.items())])
            db.executemany("INSERT INTO kills VALUES (?, ?, ?, ?)", _kill_rows(gid, facts))
            return Added(gid, False)

        return self._write(insert)

    def add_log(self, header: LogHeader, envelopes: Sequence[Envelope],
                error: str | None = None, *, allow_duplicates: bool = False) -> Added:
        """Encode and store a game given as a header and its events."""
        return self.add(encode_log(header, envelopes), game_facts(header, envelopes, error),
                        allow_duplicates=allow_duplicates)

    @property
    def _columns(self) -> str:
        """:data:`RECORD_COLUMNS`, the ones this library's schema lacks read as NULL."""
        cols = [c.strip() for c in RECORD_COLUMNS.split(",")]
        missing = {c for v, added in _NEWER_COLUMNS.items() if v > self._schema for c in added}
        return ", ".join("NULL" if c in missing else c for c in cols)

    def get(self, game_id: int) -> StoredGame | None:
        rows = self._read(f"SELECT {self._columns}, log FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        row = rows[0]
        if not isinstance(row[-1], bytes):
            raise _record_error(self.path, game_id, "the log is not binary")
        return StoredGame(_record(self.path, row[:-1]), bytes(row[-1]))

    def list(self, limit: int | None = None, offset: int = 0) -> builtins.list[GameRecord]:
        rows = self._read(f"SELECT {self._columns} FROM games ORDER BY id LIMIT ? OFFSET ?",
                          (-1 if limit is None else limit, offset))
        return [_record(self.path, r) for r in rows]

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
                won = ("s.seat = g.winner" if self._schema < 5 else
                       "(s.seat = g.winner OR s.team = (SELECT w.team FROM seats w WHERE "
                       "w.game_id = g.id AND w.seat = g.winner))")  # (a team's players)
                where.append("id IN (SELECT s.game_id FROM seats s JOIN games g ON "
                             f"g.id = s.game_id WHERE {won} AND "
                             "(s.player = ? COLLATE NOCASE OR s.deck = ? COLLATE NOCASE))")
                params += [winner, winner]
        sql = f"SELECT {self._columns} FROM games"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY id LIMIT ?"
        params.append(-1 if limit is None else limit)
        return [_record(self.path, r) for r in self._read(sql, params)]

    def summary(self) -> Summary:
        extra = "starting_player, mulligans" if self._schema >= 3 else "NULL, NULL"
        extra += ", variant, teams" if self._schema >= 5 else ", NULL, NULL"
        rows = self._read(f"SELECT id, players, decks, winner, turns, events, error, {extra} "
                          "FROM games ORDER BY id")
        out = []
        for gid, players, decks, winner, turns, events, error, first, takes, kind, teams in rows:
            if winner is not None and type(winner) is not int:
                raise _record_error(self.path, gid, f"winner is {winner!r}")
            if type(turns) is not int or type(events) is not int:
                raise _record_error(self.path, gid, f"turns/events are {turns!r}/{events!r}")
            if first is not None and type(first) is not int:
                raise _record_error(self.path, gid, f"starting_player is {first!r}")
            if kind is not None and not isinstance(kind, str):
                raise _record_error(self.path, gid, f"variant is {kind!r}")
            names = _json_seats(self.path, gid, "players", players, True)
            _check_seat(self.path, gid, "winner", winner, len(names))
            out.append(SummaryRow(
                names, _json_seats(self.path, gid, "decks", decks, False), winner, turns,
                events, error is not None, first,
                None if takes is None else _json_counts(self.path, gid, "mulligans", takes),
                kind or "", _json_teams(self.path, gid, teams, len(names))))
        return summarize(out)

    # -- extras ----------------------------------------------------------------
    def count(self) -> int:
        """How many games the library holds."""
        return int(self._read("SELECT COUNT(*) FROM games")[0][0])

    def _counts(self, sql: str, game_id: int) -> dict[str, int]:
        out: dict[str, int] = {}
        for key, n in self._read(sql, (game_id,)):
            if not isinstance(key, str) or type(n) is not int:
                raise _record_error(self.path, game_id, f"an index entry is {key!r}: {n!r}")
            out[key] = n
        return out

    def event_counts(self, game_id: int) -> dict[str, int]:
        """The indexed event-type counts of one game."""
        return self._counts("SELECT type, n FROM game_events WHERE game_id = ?", game_id)

    def deaths(self, game_id: int) -> dict[str, int]:
        """The indexed deaths (card name -> count) of one game."""
        return self._counts("SELECT card, n FROM deaths WHERE game_id = ?", game_id)

    def death_totals(self) -> builtins.list[tuple[str, int, int]]:
        """Every card that died in some stored game, as ``(card, deaths, games)``: how many
        of its permanents died in all, and in how many games; most deaths first."""
        rows = self._read("SELECT card, SUM(n), COUNT(*) FROM deaths GROUP BY card "
                          "ORDER BY SUM(n) DESC, COUNT(*) DESC, card")
        return self._totals(rows, "deaths")

    def kill_totals(self, victim: str = "permanent"
                    ) -> builtins.list[tuple[str, int, int]] | None:
        """The cards to blame (:class:`Blame`) for the deaths of permanents (``victim=
        "permanent"``) or for the players' losses (``"player"``) over every stored game, as
        ``(card, times, games)``, most first; ``None`` for a library of schema 3 or older
        opened for reading (it has no index of kills until a game is added to it)."""
        if self._schema < 4:
            return None
        rows = self._read("SELECT card, SUM(n), COUNT(*) FROM kills WHERE victim = ? "
                          "GROUP BY card ORDER BY SUM(n) DESC, COUNT(*) DESC, card", (victim,))
        return self._totals(rows, "kills")

    def kills(self, game_id: int) -> dict[str, dict[str, int]]:
        """One game's indexed kills: ``{"permanent": {card: n}, "player": {card: n}}``
        (empty for a library of schema 3 or older opened for reading)."""
        out: dict[str, dict[str, int]] = {"permanent": {}, "player": {}}
        if self._schema < 4:
            return out
        for card, victim, n in self._read("SELECT card, victim, n FROM kills WHERE "
                                          "game_id = ?", (game_id,)):
            if not isinstance(card, str) or victim not in out or type(n) is not int:
                raise _record_error(self.path, game_id, f"a kill is {card!r}: {n!r}")
            out[victim][card] = n
        return out

    def _totals(self, rows: Sequence[Any], what: str) -> builtins.list[tuple[str, int, int]]:
        out = []
        for card, n, games in rows:
            if not isinstance(card, str) or type(n) is not int or type(games) is not int:
                raise StoreError(f"{self.path}: the index of {what} is damaged (an entry is "
                                 f"{_one_line(repr((card, n)), 60)}); the games can still be "
                                 "read")
            out.append((card, n, games))
        return out

    def event_types(self) -> builtins.list[str]:
        """Every event type that occurs in some stored game."""
        return [str(r[0]) for r in self._read(
            "SELECT DISTINCT type FROM game_events ORDER BY type")]

    def cards_died(self) -> builtins.list[str]:
        """Every card name that died in some stored game."""
        return [str(r[0]) for r in self._read("SELECT DISTINCT card FROM deaths ORDER BY card")]


def open_store(path: str | Path = DEFAULT_DB, *, must_exist: bool = False) -> SqliteStore:
    """Open the library at ``path``: for reading only with ``must_exist`` (a missing
    file raises :class:`StoreError`, and nothing is ever written), else for adding
    games too (a missing file becomes a new library)."""
    p = str(path)
    if must_exist and p != ":memory:" and not Path(p).exists():
        raise StoreError(f"{p}: no such game library (create one with `mtgk sim --db {p}`)")
    if p != ":memory:" and Path(p).is_dir():
        raise StoreError(f"{p} is a directory, not a game library")
    return SqliteStore(p, readonly=must_exist and p != ":memory:")
