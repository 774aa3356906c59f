"""What fuzzing the readers of saved files at size still found (issue 24, "Also"): each
test failed before its fix."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from mtgk.cards.decks import parse_deck
from mtgk.cards.definitions import Registry
from mtgk.tools.sim import plan, play_header
from mtgk.tools.store import SqliteStore
from tests.conftest import run_mtgk as run

pytestmark = pytest.mark.usefixtures("reset_structlog")

DB_READERS: list[tuple[str, ...]] = [
    ("db", "list"), ("db", "show", "1"), ("db", "find", "--player", "Alice"),
    ("db", "find", "--deck", "ogres"), ("db", "summary"), ("db", "summary", "--json"),
    ("db", "report", "--out", "{tmp}/report.html", "-q"),
]


@pytest.fixture(scope="module")
def library(registry: Registry, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("lib")
    deck = parse_deck("12 Mountain\n8 Gray Ogre", registry)
    games = [play_header(registry, h) for h in plan(registry, [deck], ["ogres"], 5, 2,
                                                    max_turns=3)]
    with SqliteStore(folder / "lib.db") as store:
        for g in games:
            store.add(g.log, g.facts)
    return folder / "lib.db"


@pytest.mark.parametrize("winner", [7, 2, -2])
@pytest.mark.parametrize("command", DB_READERS, ids=" ".join)
def test_a_library_row_whose_winner_is_not_a_seat_is_refused_as_damaged(
        library: Path, tmp_path: Path, winner: int, command: tuple[str, ...]) -> None:
    db = tmp_path / "lib.db"
    db.write_bytes(library.read_bytes())
    con = sqlite3.connect(db)
    con.execute("UPDATE games SET winner = ? WHERE id = 1", (winner,))
    con.commit()
    con.close()
    args = [a.replace("{tmp}", str(tmp_path)) for a in command]
    code, _, err = run(*args, "--db", db)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "internal error" not in err
    assert f"game 1: the stored record is damaged (winner is {winner}" in lines[0]
