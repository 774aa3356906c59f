"""The game library's starting player and mulligans (schema 3, and the migration to it
from the committed libraries of schema 1 and 2), and what ``mtgk db summary`` computes
from them: Wilson 95% intervals, win rates by who played first, game-length quantiles
and histograms -- checked against known values and against a library built here."""

from __future__ import annotations

import json
import math
import shutil
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.log.logfile import decode_log
from mtgk.tools.sim import plan, play_header
from mtgk.tools.store import (
    SCHEMA_VERSION,
    Distribution,
    SqliteStore,
    log_digest,
    open_store,
    quantile,
    starting_player_and_mulligans,
    wilson,
)
from tests.conftest import run_mtgk as run

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = {1: ROOT / "tests" / "golden" / "library-v1.db",
          2: ROOT / "tests" / "golden" / "library-v2.db"}
"""Libraries written by older code: schema 1 (`mtgk sim -n 3 --seed 1 --max-turns 3`,
before log digests) and schema 2 (`mtgk sim -n 3 -w 1 --seed 2 --max-turns 4`, before
the starting player and mulligans)."""

pytestmark = pytest.mark.usefixtures("reset_structlog")

# --------------------------------------------------------------------------
# the numbers


@pytest.mark.parametrize(("wins", "n", "lo", "hi"), [
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Stat.
    # Med. 17:857-872, table I, method 3 (the score interval without continuity correction)
    (81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718), (29, 29, 0.8830, 1.0),
    # Wilson (1927) / Agresti & Coull (1998): 5 of 10 at 95%
    (5, 10, 0.2366, 0.7634),
])
def test_wilson_interval_known_values(wins: int, n: int, lo: float, hi: float) -> None:
    got = wilson(wins, n)
    assert got[0] == pytest.approx(lo, abs=5e-5) and got[1] == pytest.approx(hi, abs=5e-5)


def test_wilson_interval_edges() -> None:
    assert wilson(0, 0) == (0.0, 1.0)  # no games: nothing is known
    assert wilson(0, 7)[0] == 0.0 and wilson(7, 7)[1] == 1.0
    for n in (1, 2, 10, 1000):  # holds the rate, symmetric in wins and losses
        for k in range(0, n + 1, max(1, n // 7)):
            a, b = wilson(k, n)
            assert 0.0 <= a <= k / n <= b <= 1.0
            c, d = wilson(n - k, n)
            assert c == pytest.approx(1 - b) and d == pytest.approx(1 - a)
    wide, narrow = wilson(30, 60), wilson(300, 600)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]


def test_quantiles_interpolate_between_order_statistics() -> None:
    assert quantile([1, 2, 3, 4], 0.5) == 2.5
    ten = list(range(1, 11))
    assert quantile(ten, 0.1) == pytest.approx(1.9) and quantile(ten, 0.9) == pytest.approx(9.1)
    assert quantile([7], 0.1) == quantile([7], 0.9) == 7
    assert quantile([3, 5], 0.0) == 3 and quantile([3, 5], 1.0) == 5


def test_histogram_bins_cover_every_value() -> None:
    values = [3, 4, 4, 5, 9, 12, 20]
    d = Distribution.of(values)
    assert d is not None
    widths = {b - a + 1 for a, b, _ in d.bins}
    assert widths == {2} and len(d.bins) <= Distribution.BINS
    assert d.bins[0][0] <= 3 <= d.bins[0][1] and d.bins[-1][0] <= 20 <= d.bins[-1][1]
    assert sum(n for *_, n in d.bins) == len(values)
    for a, b, n in d.bins:
        assert n == sum(1 for v in values if a <= v <= b)
    assert (d.min, d.max, d.p50) == (3, 20, 5)
    big = Distribution.of(range(100, 2001))
    assert big is not None and len(big.bins) <= Distribution.BINS
    assert {b - a + 1 for a, b, _ in big.bins} == {200}
    assert Distribution.of([]) is None


# --------------------------------------------------------------------------
# a library built here


GAMES = 16


def truth(log: bytes) -> tuple[int, list[int], int | None, int, int]:
    """What a game says, found another way than the library does: the first turn's active
    player, the mulligans as the shuffles after the setup's, the winner, turns, events."""
    lf = decode_log(log)
    first = next(e.event.active for e in lf.envelopes if isinstance(e.event, ev.TurnBegan))
    until = next(i for i, e in enumerate(lf.envelopes) if isinstance(e.event, ev.TurnBegan))
    shuffles = Counter(e.event.player for e in lf.envelopes[:until]
                       if isinstance(e.event, ev.LibraryShuffled))
    ended = [e.event for e in lf.envelopes if isinstance(e.event, ev.GameEnded)]
    turns = max(e.event.turn for e in lf.envelopes if isinstance(e.event, ev.TurnBegan))
    return (first, [shuffles[p] - 1 for p in range(2)], ended[0].winner if ended else None,
            turns, len(lf.envelopes))


@pytest.fixture(scope="module")
def built(registry: Registry, tmp_path_factory: pytest.TempPathFactory
          ) -> tuple[Path, list[tuple[int, list[int], int | None, int, int]]]:
    from mtgk.cards.decks import builtin_decks, parse_deck

    decks = builtin_decks(registry)
    names = list(decks)[:2]
    headers = plan(registry, [parse_deck(decks[n], registry) for n in names], names, GAMES,
                   seed=11, max_turns=12)
    db = tmp_path_factory.mktemp("summary") / "games.db"
    truths = []
    with SqliteStore(db) as store:
        for h in headers:
            log = play_header(registry, h).log
            store.add(log)
            truths.append(truth(log))
    return db, truths


def test_the_library_stores_the_starting_player_and_mulligans(built: tuple[Path, list]
                                                              ) -> None:
    db, truths = built
    code, out, _ = run("db", "--db", db, "list", "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["starting_player"], r["mulligans"]) for r in rows] == [t[:2] for t in truths]
    assert {r["starting_player"] for r in rows} == {0, 1}, "the seed gives both"
    assert any(sum(t[1]) for t in truths), "the seed should give a mulligan"
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    seats = con.execute("SELECT game_id, seat, mulligans FROM seats ORDER BY 1, 2").fetchall()
    con.close()
    assert seats == [(i + 1, s, t[1][s]) for i, t in enumerate(truths) for s in range(2)]
    players = ["Alice", "Bob"]
    for gid in (1, 2):
        first, takes = truths[gid - 1][:2]
        code, out, _ = run("db", "--db", db, "show", gid)
        assert code == 0 and (f"played first: {players[first]}; mulligans: Alice {takes[0]}, "
                              f"Bob {takes[1]}") in out.splitlines()


def test_summary_by_who_played_first_matches_the_logs(built: tuple[Path, list]) -> None:
    db, truths = built
    code, out, _ = run("db", "--db", db, "summary", "--json")
    assert code == 0
    s = json.loads(out)
    with open_store(db, must_exist=True) as store:
        assert s == json.loads(json.dumps(store.summary().to_json()))
    decided = [t for t in truths if t[2] is not None]
    first_wins = sum(1 for t in decided if t[2] == t[0])
    later_wins = sum(1 for t in decided if t[2] is not None and t[2] >= 0 and t[2] != t[0])
    starts = {t["name"]: t for t in s["starts"]}
    assert starts["played first"]["games"] == starts["played later"]["games"] == GAMES
    assert starts["played first"]["wins"] == first_wins
    assert starts["played later"]["wins"] == later_wins
    lo, hi = wilson(first_wins, len(decided))
    assert starts["played first"]["interval"] == [round(lo, 6), round(hi, 6)]
    alice = next(p for p in s["players"] if p["name"] == "Alice")
    on_play = [t for t in decided if t[0] == 0]
    assert alice["first"]["games"] == sum(1 for t in truths if t[0] == 0)
    assert alice["first"]["wins"] == sum(1 for t in on_play if t[2] == 0)
    assert alice["first"]["wins"] + alice["later"]["wins"] == alice["wins"]
    took = {t["name"]: t for t in s["mulligans"]}
    assert took["took a mulligan"]["games"] == sum(1 for t in truths for m in t[1] if m)
    assert took["kept seven"]["games"] + took["took a mulligan"]["games"] == 2 * GAMES
    turns = sorted(t[3] for t in decided)
    events = sorted(t[4] for t in decided)
    for key, xs in (("turns", turns), ("events", events)):
        d = s[key]
        assert d["count"] == len(xs) and (d["min"], d["max"]) == (xs[0], xs[-1])
        assert d["p50"] == pytest.approx(quantile(xs, 0.5))
        assert sum(b["games"] for b in d["bins"]) == len(xs)
        for b in d["bins"]:
            assert b["games"] == sum(1 for x in xs if b["from"] <= x <= b["to"])
    assert s["turns"]["p10"] <= s["turns"]["p50"] <= s["turns"]["p90"]


def test_summary_text_shows_intervals_and_histograms(built: tuple[Path, list]) -> None:
    db, truths = built
    code, out, _ = run("db", "--db", db, "summary")
    assert code == 0
    with open_store(db, must_exist=True) as store:
        s = store.summary()
    assert s.turns is not None
    lines = out.splitlines()
    at = lines.index(next(x for x in lines if x.startswith("turns: p10")))
    bars = lines[at + 1:at + 1 + len(s.turns.bins)]
    assert [int(x.split()[-1]) for x in bars] == [n for *_, n in s.turns.bins]
    top = max(n for *_, n in s.turns.bins)
    assert any(x.count("#") == 40 and x.endswith(f" {top}") for x in bars)
    first = s.starts[0]
    lo, hi = first.interval
    assert (f"played first  {first.games:5d} games  {first.wins:5d} won" in out
            and f"[{lo:.1%}–{hi:.1%}]" in out)
    assert "who played first (win rate [Wilson 95% interval]):" in out
    assert "playing first" in out and "mulligans (win rate" in out


# --------------------------------------------------------------------------
# older libraries


def a_game(registry: Registry) -> bytes:
    """A short game's log, not in the committed libraries."""
    from mtgk.cards.decks import parse_deck

    deck = parse_deck("20 Mountain", registry)
    return play_header(registry, plan(registry, [deck], ["red"], 1, 5, max_turns=2)[0]).log


def columns(db: Path, table: str) -> set[str]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return {r[1] for r in con.execute(f"PRAGMA table_info({table})")}
    finally:
        con.close()


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_library_is_read_as_it_is(tmp_path: Path, version: int) -> None:
    db = tmp_path / f"v{version}.db"
    shutil.copy(GOLDEN[version], db)
    before = db.read_bytes()
    code, out, err = run("db", "--db", db, "summary", "--json")
    assert code == 0, err
    s = json.loads(out)
    assert s["games"] == 3 and s["turns"]["count"] == 3
    assert all(t["games"] == 0 for t in s["starts"] + s["mulligans"])  # not known
    code, out, err = run("db", "--db", db, "summary")
    assert code == 0 and "who played first" not in out and "turns: p10" in out
    code, out, _ = run("db", "--db", db, "list", "--json")
    assert all(json.loads(x)["starting_player"] is None for x in out.splitlines())
    assert db.read_bytes() == before


@pytest.mark.parametrize("version", [1, 2])
def test_an_older_library_is_migrated_and_filled_from_its_logs(
        registry: Registry, tmp_path: Path, version: int) -> None:
    db = tmp_path / f"v{version}.db"
    shutil.copy(GOLDEN[version], db)
    con = sqlite3.connect(db)
    old = {gid: bytes(log) for gid, log in con.execute("SELECT id, log FROM games")}
    con.close()
    assert "starting_player" not in columns(db, "games")
    new = a_game(registry)
    with SqliteStore(db) as store:  # opening to add migrates
        gid = store.add(new).id
        records = {r.id: r for r in store.list()}
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        assert con.execute("SELECT value FROM library_meta").fetchall() == [
            (str(SCHEMA_VERSION),)]
        assert {i: bytes(log) for i, log in con.execute("SELECT id, log FROM games")
                if i != gid} == old  # every old game, byte for byte
        seats = dict(((g, s), m) for g, s, m in con.execute(
            "SELECT game_id, seat, mulligans FROM seats"))
    finally:
        con.close()
    assert {"starting_player", "mulligans"} <= columns(db, "games")
    for i, log in {**old, gid: new}.items():
        lf = decode_log(log)
        first, takes = starting_player_and_mulligans(lf.envelopes, 2)
        assert first is not None
        assert (records[i].starting_player, records[i].mulligans) == (first, takes)
        assert [seats[(i, s)] for s in range(2)] == takes
        assert records[i].digest == log_digest(log)


def test_migration_leaves_a_log_it_cannot_read_as_it_is(registry: Registry,
                                                        tmp_path: Path) -> None:
    """A stored log this kernel can't decode keeps its bytes; its new columns stay NULL
    (unknown), and the other games are filled."""
    db = tmp_path / "v2.db"
    shutil.copy(GOLDEN[2], db)
    con = sqlite3.connect(db)
    junk = b"not a log at all"
    con.execute("UPDATE games SET log = ?, digest = ? WHERE id = 2", (junk, log_digest(junk)))
    con.commit()
    con.close()
    new = a_game(registry)
    with SqliteStore(db) as store:
        store.add(new)
        records = {r.id: r for r in store.list()}
        assert store.get(2) is not None and store.get(2).log == junk  # type: ignore[union-attr]
    assert records[2].starting_player is None and records[2].mulligans is None
    assert records[1].starting_player is not None and records[3].mulligans is not None
    s = SqliteStore(db, readonly=True).summary()
    assert sum(t.games for t in s.starts) == 2 * 3  # games 1, 3 and the new one
    assert not math.isnan(s.starts[0].win_rate)
