"""The game library (kernel/tools/store/, ``mtgk db``, ``mtgk sim``) under load and with bad
files: concurrent runs and readers, a killed run, duplicates, older, newer, foreign and
damaged libraries.  What must hold: every game stored once, nothing finished lost, one
clear line for a file that is refused -- and a refused file is left byte for byte."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from mtgk.cards.decks import parse_deck
from mtgk.cards.definitions import Registry
from mtgk.log.logfile import decode_log
from mtgk.rules.state import fold
from mtgk.tools.sim import plan, play_header
from mtgk.tools.store import (
    SCHEMA_VERSION,
    Added,
    SqliteStore,
    StoreError,
    log_digest,
    open_store,
)
from tests.conftest import run_mtgk as run

ROOT = Path(__file__).resolve().parents[1]
GOLDEN_V1 = ROOT / "tests" / "golden" / "library-v1.db"
"""A library of 3 games written by the code of schema 1 (`mtgk sim -n 3 --seed 1
--max-turns 3`, before log digests)."""

pytestmark = pytest.mark.usefixtures("reset_structlog")


def logs(registry: Registry, n: int, seed: int = 1) -> list[bytes]:
    """``n`` short games' logs."""
    deck = parse_deck("20 Mountain", registry)
    return [play_header(registry, h).log
            for h in plan(registry, [deck], ["red"], n, seed, max_turns=2)]


def library(registry: Registry, path: Path, n: int = 3) -> Path:
    with SqliteStore(path) as store:
        for log in logs(registry, n):
            store.add(log)
    return path


def mtgk_process(*args: object, cwd: Path) -> subprocess.Popen[str]:
    """``mtgk`` in a new process (stdout and stderr piped)."""
    return subprocess.Popen([sys.executable, "-c", "import sys; from mtgk.tools.cli import main; "
                             "sys.exit(main())", *map(str, args)], cwd=cwd, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def stored_logs(path: Path) -> dict[int, bytes]:
    """Every game log that can be read from the file (plain SQLite, read only)."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {gid: bytes(log) for gid, log in con.execute("SELECT id, log FROM games")}
    finally:
        con.close()


# --------------------------------------------------------------------------
# several processes at once


def test_two_stores_add_to_one_library_at_once(registry: Registry, tmp_path: Path) -> None:
    """Each add is a short transaction of its own: a second writer is not locked out by
    the first (before: the first held the write lock until it committed, and the second
    failed with "database is locked" after 5 s)."""
    db = tmp_path / "two.db"
    one, two = logs(registry, 2)
    with SqliteStore(db) as a, SqliteStore(db) as b:
        assert a.add(one) == Added(1, False)
        assert b.add(two) == Added(2, False)
        with open_store(db, must_exist=True) as reader:  # both durable already
            assert reader.count() == 2
        assert b.add(one) == Added(1, True)  # b sees a's game


def test_concurrent_runs_store_every_game_once(tmp_path: Path) -> None:
    """Three runs into one library at once (two of them with the same seed) while
    ``mtgk db`` reads it: all succeed, each game is stored once, and each run's summary
    counts its own games."""
    db = tmp_path / "games.db"
    args = ("-n", 8, "-w", 1, "--max-turns", 8, "--db", db, "--json")
    runs = [mtgk_process("sim", "--seed", s, *args, cwd=tmp_path) for s in (1, 2, 1)]
    reads = 0
    while any(p.poll() is None for p in runs):
        if db.exists():
            code, out, err = run("db", "--db", db, "summary", "--json")
            if code == 0:
                reads += 1
            else:  # only before the first run has made the library
                assert "not a game library" in err or "no such" in err, err
        time.sleep(0.05)
    results = []
    for p in runs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        results.append(json.loads(out))
    assert reads > 0
    with open_store(db, must_exist=True) as store:
        records = store.list()
    assert len(records) == 16
    assert Counter((r.sim_seed, r.sim_game) for r in records) == Counter(
        (s, i) for s in (1, 2) for i in range(8))
    own = [set(r["ids"]) for r in results]
    assert sum(len(ids) for ids in own) == 16 and set().union(*own) == {r.id for r in records}
    for r in results:  # a game a run did not store was stored by the other run of its seed
        assert len(r["ids"]) + len(r["duplicates"]) == 8
    by_seed = {rec.id: rec.sim_seed for rec in records}
    assert {by_seed[i] for i in own[1]} == {2}
    assert set(results[0]["duplicates"]) <= own[2] and set(results[2]["duplicates"]) <= own[0]


def test_a_reader_holding_the_library_open_does_not_stop_a_run(registry: Registry,
                                                               tmp_path: Path) -> None:
    """Another tool reading the library (an open read transaction) during a run: with
    WAL the run's writes go on (before: the run failed with "database is locked")."""
    db = library(registry, tmp_path / "games.db")
    con = sqlite3.connect(db)
    try:
        con.execute("BEGIN")
        assert con.execute("SELECT COUNT(*) FROM games").fetchone() == (3,)
        p = mtgk_process("sim", "-n", 4, "-w", 1, "--seed", 9, "--max-turns", 10, "--db", db,
                         cwd=tmp_path)
        out, err = p.communicate(timeout=120)
        assert con.execute("SELECT COUNT(*) FROM games").fetchone() == (3,)  # its snapshot
    finally:
        con.close()
    assert p.returncode == 0, err
    assert "stored in" in out
    with open_store(db, must_exist=True) as store:
        assert store.count() == 7


def test_a_killed_run_keeps_the_games_it_finished(tmp_path: Path) -> None:
    """Killed (SIGKILL) in the middle, a run has lost at most the game being played: the
    library holds every game the progress bar had counted (before: nothing was committed
    before the 50th game)."""
    db = tmp_path / "games.db"
    p = subprocess.Popen([sys.executable, "-c", "import sys; from mtgk.tools.cli import main; "
                          "sys.exit(main())", "sim", "-n", "200", "-w", "1", "--seed", "3",
                          "--max-turns", "20", "--db", str(db), "--progress"],
                         cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert p.stderr is not None
    seen = b""
    done = 0
    deadline = time.monotonic() + 120
    while done < 5 and time.monotonic() < deadline and p.poll() is None:
        seen += os.read(p.stderr.fileno(), 4096)
        counts = re.findall(rb"(\d+)/200 games", seen)
        done = int(counts[-1]) if counts else 0
    p.kill()
    p.wait(timeout=30)
    p.stderr.close()
    assert done >= 5, seen.decode(errors="replace")[-300:]
    with open_store(db, must_exist=True) as store:
        records = store.list()
    assert len(records) >= done
    for r in records:
        assert r.winner is not None and r.error is None  # whole games, not torn ones


# --------------------------------------------------------------------------
# duplicates


def test_a_rerun_of_the_same_seed_adds_nothing(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    args = ("sim", "-n", 3, "-w", 1, "--seed", 5, "--max-turns", 5, "--db", db)
    assert run(*args)[0] == 0
    code, out, err = run(*args)
    assert code == 0, err
    assert out.splitlines()[-1] == (f"nothing new stored in {db}: 3 games were stored already "
                                    "(game ids 1–3), not added again (--allow-duplicates "
                                    "adds them)")
    code, out, _ = run(*args, "--json")
    assert json.loads(out)["ids"] == [] and json.loads(out)["duplicates"] == [1, 2, 3]
    code, out, _ = run("db", "--db", db, "summary", "--json")
    assert json.loads(out)["games"] == 3  # the statistics are not inflated
    code, out, _ = run(*args, "--allow-duplicates")
    assert code == 0 and f"stored in {db} (game ids 4–6)" in out
    with open_store(db, must_exist=True) as store:
        assert store.count() == 6


def test_db_add_of_a_stored_game_is_reported(registry: Registry, tmp_path: Path) -> None:
    db = library(registry, tmp_path / "games.db")
    src = tmp_path / "two.mtgk"
    assert run("db", "--db", db, "export", 2, "--out", src)[0] == 0
    code, out, err = run("db", "--db", db, "add", src)
    assert code == 0, err
    assert out.splitlines() == [f"{src}: already stored as game 2 (the same log), not added "
                                "again (--allow-duplicates adds it)"]
    other = tmp_path / "other.mtgk"
    other.write_bytes(logs(registry, 1, seed=77)[0])
    code, out, _ = run("db", "--db", db, "add", other, other)
    assert out.splitlines() == [
        f"{other}: already stored as game 4 (the same log), not added again "
        "(--allow-duplicates adds it)",
        f"added 1 game to {db} (ids 4)"]
    code, out, _ = run("db", "--db", db, "add", src, "--allow-duplicates")
    assert code == 0 and "added 1 game" in out
    with open_store(db, must_exist=True) as store:
        assert store.count() == 5
        assert [r.digest for r in store.list()].count(log_digest(src.read_bytes())) == 2


def test_db_add_reads_every_file_before_adding(registry: Registry, tmp_path: Path) -> None:
    db = library(registry, tmp_path / "games.db")
    good = tmp_path / "good.mtgk"
    good.write_bytes(logs(registry, 1, seed=78)[0])
    before = db.read_bytes()
    code, _, err = run("db", "--db", db, "add", good, tmp_path / "missing.mtgk")
    assert code == 2 and "missing.mtgk: no such file" in err
    assert db.read_bytes() == before


# --------------------------------------------------------------------------
# older, newer, foreign and damaged files

COMMANDS: list[tuple[str, ...]] = [
    ("db", "list"), ("db", "summary"), ("db", "find", "--event", "GameEnded"),
    ("db", "show", "1"), ("db", "export", "1", "--out", "{tmp}/out.mtgk"), ("db", "add", "{log}"),
    ("sim", "-n", "1", "-w", "1", "--seed", "1", "--max-turns", "2"),
]
"""Every command that opens a library (``--db`` is added)."""


def run_on(db: Path, command: tuple[str, ...], log: Path) -> tuple[int, str, str]:
    args = [a.format(tmp=db.parent, log=log) for a in command]
    return run(*args[:1], "--db", db, *args[1:]) if args[0] == "sim" else \
        run(args[0], "--db", db, *args[1:])


def assert_refused(db: Path, log: Path, what: str) -> None:
    """Every command refuses ``db`` in one line that names it and says ``what``; the file
    is left byte for byte (no table created, nothing migrated)."""
    before = db.read_bytes()
    for command in COMMANDS:
        code, out, err = run_on(db, command, log)
        assert code == 2, (command, out, err)
        assert err.count("\n") == 1 and err.startswith(f"mtgk: error: {db}"), (command, err)
        assert what in err, (command, err)
        assert db.read_bytes() == before, command


@pytest.fixture
def a_log(registry: Registry, tmp_path: Path) -> Path:
    path = tmp_path / "a.mtgk"
    path.write_bytes(logs(registry, 1, seed=99)[0])
    return path


def test_a_newer_library_is_refused_untouched(tmp_path: Path, a_log: Path) -> None:
    """A newer schema (here without a ``games`` table) is refused before anything is
    written to it (before: a ``games`` table was created in it first)."""
    db = tmp_path / "newer.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE library_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    con.execute("INSERT INTO library_meta VALUES ('schema', ?)", (str(SCHEMA_VERSION + 1),))
    con.execute("CREATE TABLE matches (id INTEGER PRIMARY KEY, log BLOB)")
    con.commit()
    con.close()
    assert_refused(db, a_log, f"written by a newer mtgk (schema {SCHEMA_VERSION + 1}, this "
                              f"one reads 1 to {SCHEMA_VERSION}); upgrade mtgk to use it")
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
    con.close()
    assert "games" not in tables


@pytest.mark.parametrize(("value", "what"), [
    ("2a", "not a game library, or a damaged one: its schema is '2a', not a number"),
    ("", "its schema is '', not a number"), ("-1", "its schema is '-1', not a number"),
    ("１", "its schema is '１', not a number"), ("0", "not a game library (unknown schema 0)"),
    ("9" * 5000, "written by a newer mtgk (schema 9999999999…, this one reads 1 to ")])
def test_a_schema_that_is_not_a_known_number_is_refused(registry: Registry, tmp_path: Path,
                                                        a_log: Path, value: str,
                                                        what: str) -> None:
    """(Before: ``'2a'`` gave a ValueError traceback, after a write to the file.)"""
    db = library(registry, tmp_path / "odd.db")
    con = sqlite3.connect(db)
    con.execute("UPDATE library_meta SET value = ? WHERE key = 'schema'", (value,))
    con.commit()
    con.close()
    assert_refused(db, a_log, what)


def test_another_programs_database_is_refused_untouched(tmp_path: Path, a_log: Path) -> None:
    db = tmp_path / "notes.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    con.execute("INSERT INTO notes (text) VALUES ('keep me')")
    con.commit()
    con.close()
    assert_refused(db, a_log, "not a game library (an SQLite database with the tables notes)")


def test_a_file_that_is_not_sqlite_is_refused_untouched(tmp_path: Path, a_log: Path) -> None:
    db = tmp_path / "junk.db"
    db.write_bytes(b"this is not a database\n" * 100)
    assert_refused(db, a_log, "not a game library (not an SQLite database")


def test_a_damaged_page_gives_one_line(registry: Registry, tmp_path: Path,
                                       a_log: Path) -> None:
    """The page of the ``games`` table overwritten: every command says the library is
    damaged, in one line (before: a traceback from each)."""
    db = library(registry, tmp_path / "damaged.db", n=3)
    con = sqlite3.connect(db)
    page_size = con.execute("PRAGMA page_size").fetchone()[0]
    root = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games'").fetchone()[0]
    con.execute("PRAGMA journal_mode = DELETE")  # the whole library in the one file
    con.close()
    data = bytearray(db.read_bytes())
    start = (root - 1) * page_size
    data[start:start + page_size] = bytes(range(256)) * (page_size // 256)
    db.write_bytes(bytes(data))
    assert_refused(db, a_log, "the game library is damaged")


def test_text_that_is_not_utf8_gives_one_line(registry: Registry, tmp_path: Path,
                                               a_log: Path) -> None:
    """A damaged byte in a table's name (found by the fuzz suite: a UnicodeDecodeError
    traceback, not an SQLite error)."""
    db = library(registry, tmp_path / "names.db")
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode = DELETE")
    con.close()
    data = bytearray(db.read_bytes())
    at = data.index(b"CREATE TABLE seats") + len(b"CREATE TABLE s")
    data[at] = 0xCF  # "s\xcfats": not UTF-8
    name = data.index(b"tableseatsseats")  # the record's name and table name columns
    data[name + len(b"tables")] = 0xCF
    db.write_bytes(bytes(data))
    assert_refused(db, a_log, "the game library is damaged (text that is not UTF-8")


def test_a_damaged_record_gives_one_line(registry: Registry, tmp_path: Path) -> None:
    """A value of the wrong kind in a record (a damaged file can hold anything): the
    commands that read it name the game; the others still work."""
    db = library(registry, tmp_path / "odd.db", n=3)
    con = sqlite3.connect(db)
    con.execute("UPDATE games SET players = '[\"Ann\", ' , winner = 'x' WHERE id = 2")
    con.commit()
    con.close()
    for command in (("list",), ("summary",), ("find", "--player", "Alice"), ("show", "2")):
        code, _, err = run("db", "--db", db, *command)
        assert code == 2 and err.startswith(f"mtgk: error: {db}: game 2: the stored record "
                                            "is damaged"), (command, err)
        assert err.count("\n") == 1
    code, out, _ = run("db", "--db", db, "show", "3")
    assert code == 0 and "Alice vs Bob" in out


# --------------------------------------------------------------------------
# a library of schema 1


def test_a_schema_1_library_is_read_as_it_is(tmp_path: Path) -> None:
    """Reading never writes: the file of an older library stays as it was."""
    db = tmp_path / "v1.db"
    shutil.copy(GOLDEN_V1, db)
    before = db.read_bytes()
    for command in (("list", "--json"), ("summary",), ("find", "--event", "GameEnded"),
                    ("show", "2"), ("export", "3", "--out", tmp_path / "three.mtgk")):
        code, out, err = run("db", "--db", db, *command)
        assert code == 0, (command, err)
    assert db.read_bytes() == before
    code, out, _ = run("db", "--db", db, "list", "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in rows] == [1, 2, 3] and all(r["digest"] is None for r in rows)


def test_a_schema_1_library_is_migrated_when_a_game_is_added(registry: Registry,
                                                             tmp_path: Path) -> None:
    db = tmp_path / "v1.db"
    shutil.copy(GOLDEN_V1, db)
    old = stored_logs(db)
    assert len(old) == 3
    exported = tmp_path / "one.mtgk"
    assert run("db", "--db", db, "export", 1, "--out", exported)[0] == 0
    code, out, err = run("db", "--db", db, "add", exported)  # migrates, then finds it stored
    assert code == 0, err
    assert "already stored as game 1" in out
    assert stored_logs(db) == old  # every old game, byte for byte
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        assert con.execute("SELECT value FROM library_meta").fetchall() == [
            (str(SCHEMA_VERSION),)]
        digests = dict(con.execute("SELECT id, digest FROM games").fetchall())
    finally:
        con.close()
    assert digests == {gid: log_digest(log) for gid, log in old.items()}
    for log in old.values():  # written by an older kernel (older cause links): they read
        lf = decode_log(log, strict=True)  # and fold as before; verify would re-link causes
        assert lf.problems == [] and fold(lf.envelopes).winner is not None


def test_reading_commands_never_create_a_library(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    code, _, err = run("db", "--db", empty, "list")
    assert code == 2 and "not a game library (an empty file)" in err
    assert empty.read_bytes() == b""
    with pytest.raises(StoreError, match="no such game library"):
        open_store(tmp_path / "none.db", must_exist=True)
    assert not (tmp_path / "none.db").exists()


def test_a_library_that_cannot_be_opened_gives_one_line(tmp_path: Path) -> None:
    for args in (("sim", "-n", 1, "--db", tmp_path / "no" / "such" / "dir.db"),
                 ("db", "--db", tmp_path, "list"), ("sim", "-n", 1, "--db", tmp_path)):
        code, _, err = run(*args)
        assert code == 2 and err.count("\n") == 1 and err.startswith("mtgk: error: "), err
    assert list(tmp_path.iterdir()) == []
