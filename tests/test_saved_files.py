"""What fuzzing the readers of saved files at size still found (issue 24, "Also"): each
test failed before its fix."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


# ------------------------------------------------------------------ JSON Lines values

ARCHIVE = Path(__file__).parent / "archive"


def _jsonl_with(tmp_path: Path, edit: Callable[[dict[str, Any]], bool]) -> tuple[Path, int]:
    """The archived two-player JSON Lines log with the first record ``edit`` changes
    (returns True) after event 100 changed; and that record's number."""
    lines = (ARCHIVE / "f690e4e/game-s7.jsonl").read_text().splitlines()
    for i, line in enumerate(lines[101:], 101):
        obj = json.loads(line)
        if edit(obj):
            lines[i] = json.dumps(obj)
            path = tmp_path / "edited.jsonl"
            path.write_text("\n".join(lines) + "\n")
            return path, obj["seq"]
    raise AssertionError("no record to edit")


def _huge_new_obj(obj: dict[str, Any]) -> bool:
    if "new_obj" in obj["event"]:
        obj["event"]["new_obj"] = 2**64 - 1
        return True
    return False


def test_a_jsonl_value_the_state_cannot_hold_is_refused_by_the_reader(tmp_path: Path) -> None:
    path, seq = _jsonl_with(tmp_path, _huge_new_obj)
    for args, status in ((("replay", path, "--at", seq - 1), 1),
                         (("replay", path, "--at", seq - 1, "--as", "Bob"), 1),
                         (("diff", path, 1, seq - 1), 2), (("verify", path), 1),
                         (("log", path), 1), (("explain", path, 3), 2)):
        code, out, err = run(*args)
        assert "internal error" not in err, (args, err)
        assert code == status, (args, out, err)
        assert "outside the range of the numbers a game's state holds" in out + err, args


def test_replay_at_an_event_after_the_damage_exits_with_the_damaged_status(
        tmp_path: Path) -> None:
    path, seq = _jsonl_with(tmp_path, _huge_new_obj)
    code, _, err = run("replay", path, "--at", seq + 50)
    assert code == 1, err
    assert (f"--at {seq + 50}: the log is damaged at record {seq} before event {seq + 50}"
            in err)
    code, _, err = run("replay", path, "--turn", 30)
    assert code == 1, err
    code, _, err = run("replay", ARCHIVE / "f690e4e/game-s7.jsonl", "--at", 5000)
    assert code == 2, err  # (an intact log: bad usage, as before)
