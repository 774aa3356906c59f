"""The game library with variants and teams (issue 16, schema 5): every player of a
Two-Headed Giant team that wins gets the win (``db summary`` text and ``--json``, ``db
find --winner``, ``db report``'s running rates), a free-for-all game's summary is right,
and a library of schema 4 is read as it is and migrated when written to."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from mtgk.log import events as ev
from mtgk.log.logfile import decode_log
from mtgk.tools.cli import main
from mtgk.tools.report import running_rates
from mtgk.tools.store import SqliteStore, open_store

pytestmark = pytest.mark.usefixtures("reset_structlog")  # (mtgk configures structlog)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def wins_from_logs(db: str) -> tuple[dict[str, int], dict[str, int]]:
    """Each player's wins and games, counted from the stored logs themselves: the
    ``GameEnded`` winner and, in a team game, every player of the winner's team."""
    wins: dict[str, int] = {}
    games: dict[str, int] = {}
    with open_store(db, must_exist=True) as store:
        for rec in store.list():
            stored = store.get(rec.id)
            assert stored is not None
            lf = decode_log(stored.log)
            names = lf.header.players
            teams = lf.header.meta.get("teams") or [[i] for i in range(len(names))]
            ended = [e.event for e in lf.envelopes if isinstance(e.event, ev.GameEnded)]
            winner = ended[0].winner if ended else None
            for name in names:
                games[name] = games.get(name, 0) + 1
                wins.setdefault(name, 0)
            if winner is not None and winner >= 0:
                for seat in next(t for t in teams if winner in t):
                    wins[names[seat]] += 1
    return wins, games


@pytest.fixture(scope="module")
def thg_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = str(tmp_path_factory.mktemp("thg") / "teams.db")
    assert main(["sim", "--games", "3", "--workers", "1", "--seed", "7", "--variant",
                 "two-headed-giant", "--db", db, "--quiet"]) == 0
    return db


def test_both_players_of_the_winning_team_win(thg_db: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    wins, games = wins_from_logs(thg_db)
    assert sum(wins.values()) >= 2 and wins["Alice"] == wins["Carol"] \
        and wins["Bob"] == wins["Dave"]
    code, out, err = run(capsys, "db", "--db", thg_db, "summary", "--json")
    assert code == 0, err
    s = json.loads(out)
    assert {t["name"]: t["wins"] for t in s["players"]} == wins
    assert {t["name"]: t["games"] for t in s["players"]} == games
    assert {t["name"]: t["wins"] + t["losses"] + t["draws"] for t in s["teams"]} \
        == {"Alice & Carol": 3, "Bob & Dave": 3}
    assert {t["name"]: t["wins"] for t in s["teams"]} \
        == {"Alice & Carol": wins["Alice"], "Bob & Dave": wins["Bob"]}
    assert s["variants"] == {"Two-Headed Giant": 3}
    code, out, err = run(capsys, "db", "--db", thg_db, "summary")
    assert code == 0, err
    assert "variants: 3 Two-Headed Giant" in out and "Alice & Carol" in out
    carol = next(line for line in out.splitlines() if line.strip().startswith("Carol "))
    assert f"{wins['Carol']:5d} won" in carol


def test_the_library_lists_and_finds_the_winning_team(thg_db: str) -> None:
    wins, _games = wins_from_logs(thg_db)
    with open_store(thg_db, must_exist=True) as store:
        records = store.list()
        assert all(r.variant == "two_headed_giant" and r.teams == [[0, 2], [1, 3]]
                   for r in records)
        assert all(r.result in ("Alice & Carol won", "Bob & Dave won", "draw")
                   for r in records)
        for who in ("Alice", "Bob", "Carol", "Dave"):
            assert len(store.find(winner=who)) == wins[who]
        rates = running_rates(records, by="player")
        assert {name: points[-1].wins for name, points in rates.items()} == wins


def test_a_four_player_free_for_all_summary(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "ffa.db")
    code, _out, err = run(capsys, "sim", "--games", "3", "--workers", "1", "--seed", "2",
                          "--players", "4", "--db", db, "--quiet")
    assert code == 0, err
    wins, games = wins_from_logs(db)
    code, out, err = run(capsys, "db", "--db", db, "summary", "--json")
    assert code == 0, err
    s = json.loads(out)
    assert {t["name"]: t["wins"] for t in s["players"]} == wins
    assert {t["name"]: t["games"] for t in s["players"]} == games == dict.fromkeys(
        ["Alice", "Bob", "Carol", "Dave"], 3)
    assert s["decided"] == sum(wins.values())  # one winner a game, no team
    assert s["variants"] == {"free-for-all": 3} and s["teams"] == []
    with open_store(db, must_exist=True) as store:
        assert all(r.variant == "free_for_all" and r.teams is None for r in store.list())


def as_schema_4(db: str) -> None:
    """Make a library what schema 4 wrote: no variant, no teams (the tables rebuilt
    without those columns)."""
    con = sqlite3.connect(db)
    for table, drop in (("games", ("variant", "teams")), ("seats", ("team",))):
        cols = [r[1] for r in con.execute(f"PRAGMA table_info({table})") if r[1] not in drop]
        con.execute(f"CREATE TABLE old AS SELECT {', '.join(cols)} FROM {table}")
        con.execute(f"DROP TABLE {table}")
        con.execute(f"ALTER TABLE old RENAME TO {table}")
    con.execute("UPDATE library_meta SET value = '4' WHERE key = 'schema'")
    con.commit()
    con.close()


def test_a_schema_4_library_is_read_as_it_is_and_migrated(thg_db: str, tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    db.write_bytes(Path(thg_db).read_bytes())
    as_schema_4(str(db))
    before = db.read_bytes()
    wins, _games = wins_from_logs(thg_db)
    with open_store(db, must_exist=True) as store:  # read only: as schema 4 had it
        assert all(r.teams is None for r in store.list())
        s = store.summary()
        assert sum(t.wins for t in s.players) == sum(1 for r in store.list()
                                                     if r.winner is not None and r.winner >= 0)
    assert db.read_bytes() == before  # never written
    with SqliteStore(db) as store:  # opened for adding: migrated, teams from the logs
        assert all(r.teams == [[0, 2], [1, 3]] for r in store.list())
        assert {t.name: t.wins for t in store.summary().players} == wins
        assert len(store.find(winner="Carol")) == wins["Carol"]


def test_the_report_names_the_variants_and_each_teams_wins(
        thg_db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``db report`` of a Two-Headed Giant library says how many games of each variant it
    holds and has each team's win rate (wins counted from the logs); a page of two-player
    games has neither."""
    import re

    wins, _games = wins_from_logs(thg_db)
    page = tmp_path / "teams.html"
    code, _out, err = run(capsys, "db", "report", thg_db, "--out", str(page), "--quiet")
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    assert re.search(r'<span id="variants">Variants: 3 Two-Headed Giant\.</span>', html)
    section = html[html.index('id="teams"'):]
    bars = dict(re.findall(r'data-group="teams" data-label="([^"]+)" data-games="\d+" '
                           r'data-decided="\d+" data-wins="(\d+)"', section))
    assert {k: int(v) for k, v in bars.items()} == \
        {"Alice &amp; Carol": wins["Alice"], "Bob &amp; Dave": wins["Bob"]}
    two = tmp_path / "two.db"
    assert main(["sim", "--games", "2", "--workers", "1", "--seed", "1", "--db", str(two),
                 "--quiet"]) == 0
    capsys.readouterr()
    out2 = tmp_path / "two.html"
    code, _out, err = run(capsys, "db", "report", str(two), "--out", str(out2), "--quiet")
    assert code == 0, err
    plain = out2.read_text(encoding="utf-8")
    assert 'id="variants"' not in plain and 'id="teams"' not in plain
