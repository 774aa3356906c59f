"""Tests for simulating many games (mtgk.tools.sim, ``mtgk sim``) and the game library
(mtgk.tools.store, ``mtgk db``).

Every answer the library gives is checked against the stored logs themselves,
decoded and folded here independently of the library's index.
"""

from __future__ import annotations

import doctest
import io
import json
import sqlite3
import statistics
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

import mtgk.tools.sim
import mtgk.tools.store
import mtgk.tools.store.facts
import mtgk.tools.store.sqlite
import mtgk.tools.store.summary
from mtgk.cards.decks import parse_deck
from mtgk.cards.definitions import Registry
from mtgk.games.replay import verify
from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.log.logfile import LogHeader, decode_log, load_log
from mtgk.rules.engine import DEFAULT_MAX_EVENTS
from mtgk.tools.sim import Progress, game_seed, plan, play_header, simulate
from mtgk.tools.store import GameStore, SqliteStore, StoreError, game_facts, open_store
from tests.conftest import run_mtgk as run

JACE = "9 Island\n9 Mountain\n4 Jace Beleren\n8 Shock\n10 Gray Ogre\n"
RED = "17 Mountain\n19 Gray Ogre\n4 Shock\n"
GAMES = 6
SEED = 3


@dataclass
class Truth:
    """What a stored log says about its game, worked out from the log alone."""

    header: LogHeader
    envs: list[Envelope]

    @property
    def winner(self) -> int | None:
        ends = [e.event.winner for e in self.envs if isinstance(e.event, ev.GameEnded)]
        return ends[-1] if ends else None

    @property
    def turns(self) -> int:
        return max((e.event.turn for e in self.envs if isinstance(e.event, ev.TurnBegan)),
                   default=0)

    def has(self, tag: str) -> bool:
        return any(e.event.TAG == tag for e in self.envs)

    def died(self) -> Counter[str]:
        """Cards put into a graveyard from the battlefield (found by following ids)."""
        names: dict[int, str] = {}
        out: Counter[str] = Counter()
        for env in self.envs:
            e = env.event
            if isinstance(e, ev.ObjectCreated | ev.TokenCreated):
                names[e.obj] = e.card
            elif isinstance(e, ev.ZoneChanged | ev.LandPlayed | ev.SpellCast
                            | ev.RemovedFromGame):
                names[e.new_obj] = names.get(e.obj, "?")
                if isinstance(e, ev.ZoneChanged) and e.from_zone == "battlefield" \
                        and e.to_zone == "graveyard":
                    out[names[e.obj]] += 1
        return out


@dataclass
class Library:
    db: Path
    out: str
    truths: dict[int, Truth]  # game id -> truth


@pytest.fixture(scope="module")
def decks(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("decks")
    (d / "jace.txt").write_text(JACE, encoding="utf-8")
    (d / "red.txt").write_text(RED, encoding="utf-8")
    return d / "jace.txt", d / "red.txt"


@pytest.fixture(scope="module")
def library(decks: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Library:
    db = tmp_path_factory.mktemp("lib") / "games.db"
    code, out, err = run("sim", "--games", GAMES, "--workers", 2, "--seed", SEED, "--decks",
                         *decks, "--db", db, "--max-turns", 80)
    assert code == 0, err
    truths = {}
    with SqliteStore(db) as store:
        for rec in store.list():
            g = store.get(rec.id)
            assert g is not None
            lf = decode_log(g.log)
            truths[rec.id] = Truth(lf.header, lf.envelopes)
    return Library(db, out, truths)


def test_sim_stores_every_game(library: Library) -> None:
    """Every game once; ids in the order the games ended (``sim_game`` is the game's index)."""
    assert sorted(library.truths) == list(range(1, GAMES + 1))
    assert f"{GAMES} games (jace vs red), seed {SEED}, 2 workers" in library.out
    assert f"stored in {library.db} (game ids 1–{GAMES})" in library.out
    games = sorted(t.header.meta["sim"]["game"] for t in library.truths.values())
    assert games == list(range(GAMES))
    for t in library.truths.values():
        i = t.header.meta["sim"]["game"]
        assert t.header.meta["sim"] == {"seed": SEED, "game": i}
        assert t.header.seed == game_seed(SEED, i)
        assert t.header.meta["max_events"] == DEFAULT_MAX_EVENTS  # the budget is recorded
        assert t.header.meta["deck_names"] == ["jace", "red"]
        assert isinstance(t.envs[0].event, ev.GameStarted)
        assert t.winner is not None  # every game finished
    wins = Counter(t.winner for t in library.truths.values())
    line = f"Alice (jace) won {wins[0]}, Bob (red) won {wins[1]}"
    assert line in library.out


def test_stored_logs_verify(library: Library, registry: Registry) -> None:
    t = library.truths[1]
    report = verify(t.header, t.envs, registry)
    assert report.ok, report.summary()


def test_list_matches_the_logs(library: Library) -> None:
    code, out, _ = run("db", "--db", library.db, "list", "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["id"] for r in rows] == sorted(library.truths)
    for r in rows:
        t = library.truths[r["id"]]
        assert r["players"] == ["Alice", "Bob"]
        assert r["decks"] == ["jace", "red"]
        assert r["agents"] == ["heuristic", "heuristic"]
        assert r["winner"] == t.winner
        assert r["turns"] == t.turns
        assert r["events"] == len(t.envs)
        assert r["seed"] == t.header.seed
        assert t.winner is not None
        assert r["result"] == ("draw" if t.winner == -1 else
                               f"{['Alice', 'Bob'][t.winner]} won")
    code, out, _ = run("db", "list", "--db", library.db, "--limit", 2, "--offset", 1)
    lines = out.splitlines()
    assert lines[0].split() == ["id", "players", "decks", "result", "turns", "events", "seed"]
    assert [int(x.split()[0]) for x in lines[1:]] == [2, 3]


@pytest.mark.parametrize("tag", ["DamageRedirected", "CounterRemoved", "GameEnded",
                                 "RemovedFromCombat"])
def test_find_by_event(library: Library, tag: str) -> None:
    code, out, err = run("db", "--db", library.db, "find", "--event", tag.lower(), "--json")
    assert code == 0, err
    found = [json.loads(line)["id"] for line in out.splitlines()]
    assert found == [gid for gid, t in sorted(library.truths.items()) if t.has(tag)]


def test_find_finds_redirects_and_dead_jaces(library: Library) -> None:
    """The run has both games with and games without them, so find really filters."""
    redirected = {gid for gid, t in library.truths.items() if t.has("DamageRedirected")}
    jace = {gid for gid, t in library.truths.items() if t.died()["Jace Beleren"]}
    assert 0 < len(redirected) < GAMES or 0 < len(jace) < GAMES
    code, out, _ = run("db", "--db", library.db, "find", "--died", "jace beleren", "--json")
    assert code == 0
    assert {json.loads(line)["id"] for line in out.splitlines()} == jace
    code, out, _ = run("db", "--db", library.db, "find", "--event", "DamageRedirected",
                       "--died", "Jace Beleren", "--json")
    assert {json.loads(line)["id"] for line in out.splitlines()} == redirected & jace


def test_index_matches_the_logs(library: Library) -> None:
    with open_store(library.db) as store:
        for gid, t in library.truths.items():
            assert store.deaths(gid) == dict(t.died())
            assert store.event_counts(gid) == dict(Counter(e.event.TAG for e in t.envs))


def test_find_by_player_deck_and_winner(library: Library) -> None:
    with open_store(library.db) as store:
        alice_won = [g.id for g in store.find(winner="alice")]
        red_won = [g.id for g in store.find(winner="RED")]
        assert [g.id for g in store.find(player="Bob")] == sorted(library.truths)
        assert store.find(player="Carol") == []
        assert [g.id for g in store.find(deck="jace", limit=2)] == [1, 2]
        assert store.find(winner="draw") == [] or all(
            library.truths[g.id].winner == -1 for g in store.find(winner="draw"))
    assert alice_won == [gid for gid, t in sorted(library.truths.items()) if t.winner == 0]
    assert red_won == [gid for gid, t in sorted(library.truths.items()) if t.winner == 1]


def test_find_needs_a_condition_and_known_event_types(library: Library) -> None:
    code, _, err = run("db", "--db", library.db, "find")
    assert code == 2 and "say what to find" in err
    code, _, err = run("db", "--db", library.db, "find", "--event", "DamageRedirekted")
    assert code == 2 and "did you mean DamageRedirected" in err


def test_summary_matches_the_logs(library: Library) -> None:
    code, out, _ = run("db", "--db", library.db, "summary", "--json")
    assert code == 0
    s = json.loads(out)
    truths = list(library.truths.values())
    winners = [t.winner for t in truths]
    assert s["games"] == GAMES
    assert s["draws"] == winners.count(-1)
    assert s["decided"] == sum(1 for w in winners if w is not None and w >= 0)
    assert s["unfinished"] == 0
    turns = [t.turns for t in truths]
    events = [len(t.envs) for t in truths]
    assert s["turns_mean"] == pytest.approx(statistics.fmean(turns))
    assert s["turns_median"] == pytest.approx(statistics.median(turns))
    assert s["events_mean"] == pytest.approx(statistics.fmean(events))
    assert s["events_median"] == pytest.approx(statistics.median(events))
    decks = {d["name"]: d for d in s["decks"]}
    for seat, name in enumerate(["jace", "red"]):
        wins = winners.count(seat)
        assert decks[name]["games"] == GAMES
        assert decks[name]["wins"] == wins
        assert decks[name]["draws"] == winners.count(-1)
        assert decks[name]["losses"] == GAMES - wins - winners.count(-1)
        assert decks[name]["win_rate"] == pytest.approx(wins / GAMES, abs=1e-6)  # (6 places)
    players = {p["name"]: p for p in s["players"]}
    assert players["Alice"]["wins"] == winners.count(0)
    code, out, _ = run("db", "--db", library.db, "summary")
    assert f"{GAMES} games" in out and "win rate" in out and "median" in out


def test_show_and_export(library: Library, tmp_path: Path) -> None:
    code, out, _ = run("db", "--db", library.db, "show", 2)
    game = library.truths[2].header.meta["sim"]["game"]
    assert code == 0 and f"simulation: seed {SEED}, game {game}" in out
    code, out, _ = run("db", "--db", library.db, "show", 2, "--json")
    shown = json.loads(out)
    assert shown["event_types"]["GameStarted"] == 1
    dest = tmp_path / "two.mtgk"
    code, out, _ = run("db", "--db", library.db, "export", 2, "--out", dest)
    assert code == 0 and "game 2 →" in out
    with open_store(library.db) as store:
        g = store.get(2)
        assert g is not None
        assert dest.read_bytes() == g.log
    lf = load_log(dest)
    assert lf.envelopes == library.truths[2].envs and not lf.problems
    code, _, _ = run("db", "--db", library.db, "export", 2, "--jsonl", "--out",
                     tmp_path / "two.jsonl")
    assert code == 0 and load_log(tmp_path / "two.jsonl").envelopes == lf.envelopes
    code, _, err = run("db", "--db", library.db, "export", 99, "--out", tmp_path / "x")
    assert code == 2 and "no game 99" in err
    code, _, err = run("db", "--db", library.db, "show", "abc")
    assert code == 2 and "not a game id" in err


def test_add_existing_logs(library: Library, tmp_path: Path) -> None:
    src = tmp_path / "one.mtgk"
    assert run("db", "--db", library.db, "export", 1, "--out", src)[0] == 0
    db = tmp_path / "other.db"
    code, out, _ = run("db", "--db", db, "add", src)
    assert code == 0 and "added 1 game" in out
    with open_store(db) as store:
        assert [r.sim_game for r in store.list()] == [library.truths[1].header.meta["sim"]["game"]]
        assert store.deaths(1) == dict(library.truths[1].died())


def test_missing_or_foreign_library(tmp_path: Path) -> None:
    code, _, err = run("db", "--db", tmp_path / "none.db", "list")
    assert code == 2 and "no such game library" in err
    assert not (tmp_path / "none.db").exists()
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError):
        open_store(junk)
    code, _, err = run("db", "--db", junk, "summary")
    assert code == 2 and "not a game library" in err


# --------------------------------------------------------------------------
# determinism, the store interface, the progress bar


def test_same_seed_same_logs_whatever_the_workers(registry: Registry,
                                                  decks: tuple[Path, Path]) -> None:
    cards = [parse_deck(p.read_text(), registry) for p in decks]
    headers = plan(registry, cards, ["jace", "red"], 4, seed=11, max_turns=60)
    assert [h.seed for h in headers] == [game_seed(11, i) for i in range(4)]
    one = list(simulate(registry, headers, workers=1))
    three = sorted(simulate(registry, headers, workers=3), key=lambda r: r.index)
    assert [r.index for r in one] == [r.index for r in three] == [0, 1, 2, 3]
    assert [r.log for r in one] == [r.log for r in three]
    assert len({r.log for r in one}) == 4  # different games
    again = plan(registry, cards, ["jace", "red"], 4, seed=11, max_turns=60)
    assert play_header(registry, again[2]).log == one[2].log


def test_sim_command_is_deterministic_across_worker_counts(decks: tuple[Path, Path],
                                                           tmp_path: Path) -> None:
    logs = []
    for workers in (1, 2):
        db = tmp_path / f"w{workers}.db"
        code, out, err = run("sim", "-n", 3, "-w", workers, "--seed", 5, "--decks", *decks,
                             "--db", db, "--json", "--max-turns", 40)
        assert code == 0, err
        assert json.loads(out)["ids"] == [1, 2, 3]
        with open_store(db) as store:
            by_game = {r.sim_game: store.get(r.id).log for r in store.list()}  # type: ignore[union-attr]
            logs.append([by_game[i] for i in (0, 1, 2)])
    assert logs[0] == logs[1]


def test_sim_appends_to_an_existing_library(decks: tuple[Path, Path], tmp_path: Path) -> None:
    db = tmp_path / "grow.db"
    for seed in (1, 2):
        code, _, err = run("sim", "-n", 2, "-w", 1, "--seed", seed, "--decks", decks[1],
                           "--db", db, "-q", "--max-turns", 10)
        assert code == 0, err
    with open_store(db) as store:
        assert store.count() == 4
        assert [r.decks for r in store.list()] == [["red", "red"]] * 4


def test_sim_rejects_bad_arguments(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    assert run("sim", "--games", 0, "--db", db)[0] == 2
    assert run("sim", "--workers", 0, "--db", db)[0] == 2
    code, _, err = run("sim", "--decks", "no-such-deck", "--db", db)
    assert code == 2 and "no-such-deck" in err
    assert run("sim", "--agents", "psychic", "--db", db)[0] == 2


def test_sqlite_store_is_a_game_store(registry: Registry) -> None:
    from mtgk.games.replay import new_header, run_from_header
    from mtgk.log.logfile import encode_log

    header = new_header(registry, ["Ann", "Bob"], [["20 Mountain"]] * 2, seed=4,
                        meta={"max_turns": 2})
    game = run_from_header(registry, header)
    cut = game.log[: len(game.log) // 2]  # a log without its end
    with SqliteStore(":memory:") as store:
        assert isinstance(store, GameStore)
        a = store.add(encode_log(header, game.log)).id
        b = store.add_log(header, cut, error="RuntimeError: boom").id
        assert store.get(a).record.winner == -1  # type: ignore[union-attr]
        rec = store.get(b).record  # type: ignore[union-attr]
        assert rec.winner is None and rec.result == "no result" and rec.error
        assert store.get(99) is None
        s = store.summary()
        assert (s.games, s.draws, s.unfinished, s.errors) == (2, 1, 1, 1)
        assert s.turns_mean == 2.0  # over the games with a result
        assert store.find(winner="draw")[0].id == a
        assert "GameStarted" in store.event_types() and store.cards_died() == []
    facts = game_facts(header, game.log)
    assert facts.complete and facts.decks == [None, None] and facts.sim_game is None


def test_schema_is_plain_sqlite(library: Library) -> None:
    """Other tools can query the library with plain SQL."""
    con = sqlite3.connect(library.db)
    try:
        n = con.execute("SELECT COUNT(DISTINCT game_id) FROM deaths WHERE card = "
                        "'Jace Beleren'").fetchone()[0]
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE "
                                            "type = 'table'")}
    finally:
        con.close()
    assert {"games", "seats", "game_events", "deaths"} <= tables
    assert n == sum(1 for t in library.truths.values() if t.died()["Jace Beleren"])


def test_progress_bar() -> None:
    buf = io.StringIO()
    p = Progress(4, buf, enabled=True, width=8)
    p.advance()
    p.advance(3)
    p.finish()
    text = buf.getvalue()
    assert "\r[##------] 1/4 games" in text
    assert "[########] 4/4 games" in text and text.endswith("\n")
    quiet = io.StringIO()
    q = Progress(4, quiet, enabled=False)
    q.advance(4)
    q.finish()
    assert quiet.getvalue() == "" and q.done == 4


def test_sim_progress_when_asked(decks: tuple[Path, Path], tmp_path: Path) -> None:
    code, _, err = run("sim", "-n", 2, "-w", 1, "--seed", 2, "--decks", decks[1],
                       "--db", tmp_path / "p.db", "--progress", "--max-turns", 5)
    assert code == 0
    assert "[" in err and "2/2 games" in err
    code, _, err = run("sim", "-n", 2, "-w", 1, "--seed", 2, "--decks", decks[1],
                       "--db", tmp_path / "p.db", "--max-turns", 5)
    assert code == 0 and "games" not in err  # not a terminal: no bar


def test_game_facts_from_a_fold() -> None:
    """Deaths are counted by the card the dying object was, tokens included."""
    header = LogHeader(kernel_version="0", cardsets=[], players=["A", "B"], seed=0)
    envs = [Envelope(i, -1, e) for i, e in enumerate([
        ev.GameStarted(players=("A", "B"), seed=0),
        ev.ObjectCreated(obj=1, card="Gray Ogre", owner=0, zone="battlefield"),
        ev.TokenCreated(obj=2, card="Beast", owner=1, controller=1),
        ev.ZoneChanged(obj=1, new_obj=3, from_zone="battlefield", to_zone="graveyard"),
        ev.ZoneChanged(obj=2, new_obj=4, from_zone="battlefield", to_zone="graveyard"),
        ev.ZoneChanged(obj=3, new_obj=5, from_zone="graveyard", to_zone="hand"),
        ev.TurnBegan(turn=1, active=0),
        ev.GameEnded(winner=1),
    ])]
    f = game_facts(header, envs)
    assert f.died == {"Gray Ogre": 1, "Beast": 1}
    assert (f.winner, f.turns, f.events) == (1, 1, 8)
    assert f.event_types["ZoneChanged"] == 3


def test_doctests() -> None:
    for mod in (mtgk.tools.sim, mtgk.tools.store, mtgk.tools.store.facts,
                mtgk.tools.store.summary, mtgk.tools.store.sqlite):
        assert doctest.testmod(mod).failed == 0, mod.__name__
