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


# ------------------------------------------------------------------ torn or damaged

def _small_game() -> tuple[Any, list[Any]]:
    from mtgk.cards.loading import load_registry
    from mtgk.games.replay import new_header, run_from_header

    reg = load_registry()
    header = new_header(reg, ["Alice", "Bob"], [["20 Mountain"], ["20 Mountain"]], seed=3,
                        meta={"max_turns": 3})
    game = run_from_header(reg, header)
    return header, list(game.log)


@pytest.mark.parametrize("version", [1, 2])
def test_a_whole_file_with_damaged_length_bytes_is_damaged_not_torn(
        tmp_path: Path, version: int) -> None:
    """A finished game of one block (format 2; format 1: its last record) whose length
    bytes are damaged reads as damage: the file's size says it was written completely, so
    verify gives no advice to repair (which would cut it to its header), and repair
    refuses."""
    import struct

    from mtgk.log.logfile import encode_log, read_log

    header, envs = _small_game()
    assert len(envs) < 256
    data = bytearray(encode_log(header, envs, version=version))
    (hlen,) = struct.unpack_from("<I", data, 5)
    if version == 2:
        start = 9 + hlen + 4  # the only block
    else:
        full = encode_log(header, envs, version=1)
        start = len(encode_log(header, envs[:-1], version=1))  # the last record
        assert full[:start] == encode_log(header, envs[:-1], version=1)
    if version == 2:  # its two length bytes: it claims more than the file holds
        assert data[start] >= 0x80 and data[start + 1] < 0x80
        data[start + 1] ^= 0x7f
        data[start] ^= 0x11
    else:  # a short record's one length byte
        assert data[start] < 0x40
        data[start] = 0x7f
    path = tmp_path / "game.mtgk"
    path.write_bytes(bytes(data))
    lf = read_log(path, salvage=True)
    assert not lf.torn and lf.breaks, lf.problems
    assert "written completely" in lf.breaks[0].detail
    code, out, _ = run("verify", path)
    assert code == 1 and out.startswith("FAILED:")
    assert "written completely" in out and "--repair` to cut" not in out
    code, out, _ = run("verify", "--repair", path)
    assert code == 1 and "cannot repair" in out
    assert path.read_bytes() == bytes(data)
    assert not list(tmp_path.glob("*.orig*"))


def test_a_torn_last_block_is_still_torn(tmp_path: Path) -> None:
    from mtgk.log.logfile import encode_log, read_log

    header, envs = _small_game()
    data = encode_log(header, envs)
    path = tmp_path / "torn.mtgk"
    path.write_bytes(data[:-2])
    lf = read_log(path, salvage=True)
    assert lf.torn and not lf.breaks
    code, out, _ = run("verify", path)
    assert code == 1 and "--repair" in out


# ------------------------------------------------------------------ salvaged records

def test_a_salvaged_record_naming_an_object_made_in_the_damage_shows_no_guessed_owner(
        tmp_path: Path) -> None:
    """Format 1: the record that made Bob's card is damaged; Bob's draw of that card,
    read after the damage, must not read as Alice's ("Alice draws #41")."""
    from mtgk.log import events as ev
    from mtgk.log.logfile import encode_log, read_log

    lf = read_log(ARCHIVE / "e0f947f/game-s7.mtgk", strict=True)
    envs = list(lf.envelopes)
    owners = {e.event.obj: e.event.owner for e in envs if isinstance(e.event, ev.ObjectCreated)}
    made = {e.event.obj: e.seq for e in envs if isinstance(e.event, ev.ObjectCreated)}
    draw = next(e for e in envs if isinstance(e.event, ev.ZoneChanged)
                and e.event.reason == "draw" and owners.get(e.event.obj) == 1)
    assert isinstance(draw.event, ev.ZoneChanged)
    k = made[draw.event.obj]
    data = bytearray(encode_log(lf.header, envs, version=1))
    at = len(encode_log(lf.header, envs[:k], version=1))  # record k's first byte
    data[at + 3] ^= 0x55  # inside its payload: its length holds
    path = tmp_path / "damaged.mtgk"
    path.write_bytes(bytes(data))
    code, out, _ = run("log", path)
    assert code == 1
    line = next(x for x in out.splitlines() if x.startswith(f"{draw.seq} "))
    assert line == f"{draw.seq} an unknown player draws #{draw.event.obj}", line
    assert "Alice draws" not in line


# ------------------------------------------------------------------ JSON Lines headers

def _edit_header(tmp_path: Path, edit: Callable[[dict[str, Any]], None],
                 source: str = "f690e4e/game-s7.jsonl") -> Path:
    lines = (ARCHIVE / source).read_text().splitlines()
    obj = json.loads(lines[0])
    edit(obj["header"])
    lines[0] = json.dumps(obj)
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_jsonl_header_with_a_key_this_kernel_does_not_know_is_refused(
        tmp_path: Path) -> None:
    path = _edit_header(tmp_path, lambda h: h.update(extra_rule="on"))
    code, out, err = run("verify", path)
    assert code == 1 and "FAILED" in out + err, out + err
    assert "a key this kernel does not know ('extra_rule')" in out + err
    # written by a newer kernel, it may hold keys this one does not know
    path = _edit_header(tmp_path, lambda h: h.update(extra_rule="on", kernel_version="9.0.0"))
    code, out, err = run("log", path)
    assert code == 0, err


def test_a_jsonl_record_outside_the_header_event_table_is_damage(tmp_path: Path) -> None:
    def drop_tapped(h: dict[str, Any]) -> None:
        h["events"] = [t for t in h["events"] if t[0] != "Tapped"]

    path = _edit_header(tmp_path, drop_tapped)
    code, out, err = run("verify", path)
    assert code == 1 and "FAILED" in out, out + err
    assert "the header's event table does not list 'Tapped'" in out

    def bump_tapped(h: dict[str, Any]) -> None:
        h["events"] = [[t, v + 1 if t == "Tapped" else v] for t, v in h["events"]]

    path = _edit_header(tmp_path, bump_tapped)
    code, out, err = run("verify", path)
    assert code == 1 and "lists 'Tapped' at version 2" in out, out + err


def test_a_jsonl_header_of_format_1_still_reads() -> None:
    """A JSON Lines log written from a format-1 binary log says format 1 (the archive's
    of 2026-11-29 does): that is no damage."""
    code, out, err = run("verify", ARCHIVE / "e0f947f/game-s7.jsonl")
    assert code == 4, out + err
