"""Reading a game straight from the library: ``mtgk replay games.db:14 --at 300``,
``mtgk view games.db:14`` and the other commands that read a log (``log``, ``explain``,
``verify``, ``diff``) take ``LIBRARY:ID`` and show what they show for the exported log.
A file that exists by that name is read as a file; an unknown id is one line, exit 2."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mtgk.cards.decks import builtin_decks, parse_deck
from mtgk.cards.definitions import Registry
from mtgk.tools.sim import plan, play_header
from mtgk.tools.store import SqliteStore
from tests.conftest import run_mtgk as run

pytestmark = pytest.mark.usefixtures("reset_structlog")


@pytest.fixture
def lib(registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``games.db`` with two games in the current folder, and each exported (g1, g2.mtgk)."""
    monkeypatch.chdir(tmp_path)
    decks = builtin_decks(registry)
    names = list(decks)[:2]
    headers = plan(registry, [parse_deck(decks[n], registry) for n in names], names, 2,
                   seed=3, max_turns=6)
    with SqliteStore(tmp_path / "games.db") as store:
        for i, h in enumerate(headers, 1):
            log = play_header(registry, h).log
            assert store.add(log).id == i
            (tmp_path / f"g{i}.mtgk").write_bytes(log)
    return tmp_path


COMMANDS = [(0, "log", "{}"), (0, "log", "{}", "--as", "Bob", "--turn", "2"),
            (0, "replay", "{}", "--at", "120"),
            (0, "replay", "{}", "--turn", "3", "--step", "precombat_main", "--json"),
            (0, "verify", "{}"), (0, "explain", "{}", "150"),
            (1, "diff", "{}", "100", "140")]  # (diff: 1, something changed)


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c[1:]) for c in COMMANDS])
def test_a_library_game_reads_as_its_exported_log(lib: Path, command: tuple[object, ...]
                                                  ) -> None:
    status, *argv = command
    code_f, out_f, err_f = run(*("g2.mtgk" if a == "{}" else a for a in argv))
    code_l, out_l, err_l = run(*("games.db:2" if a == "{}" else a for a in argv))
    assert (code_l, err_l) == (code_f, err_f) == (status, ""), err_l
    assert out_l == out_f and out_f


def test_diff_of_two_library_games(lib: Path) -> None:
    files = run("diff", "g1.mtgk", "g2.mtgk")
    games = run("diff", "games.db:1", "games.db:2")
    assert games[0] == files[0] == 1
    assert games[1] == files[1].replace("g1.mtgk", "games.db:1").replace("g2.mtgk",
                                                                          "games.db:2")


def test_view_from_the_library(lib: Path) -> None:
    code, out, err = run("view", "games.db:2")
    assert code == 0, err
    assert out.startswith("games-2.html: ") and (lib / "games-2.html").exists()
    code, _, err = run("view", "g2.mtgk", "--out", "file.html")
    assert code == 0, err
    # the same page, but for the source its "branch from here" command names
    library = (lib / "games-2.html").read_text()
    file = (lib / "file.html").read_text()
    assert '"source":"games.db:2"' in library.replace(": ", ":")
    assert library.replace("games.db:2", "g2.mtgk") == file


def test_a_file_by_that_name_wins(lib: Path) -> None:
    (lib / "games.db:2").write_bytes((lib / "g1.mtgk").read_bytes())
    assert run("log", "games.db:2")[1] == run("log", "g1.mtgk")[1] != run("log", "g2.mtgk")[1]
    os.remove(lib / "games.db:2")


@pytest.mark.parametrize(("ref", "message"), [
    ("games.db:7", "games.db: no game 7 (the library holds 2 games; `mtgk db list --db "
                   "games.db`)"),
    ("games.db:0", "games.db: no game 0 (the library holds 2 games; `mtgk db list --db "
                   "games.db`)"),
    ("nope.db:1", "nope.db:1: no such file (nor a game library nope.db)"),
    ("g1.mtgk:1", "g1.mtgk: not a game library (not an SQLite database: it starts with "
                  "b'MTGK"),
    ("games.db:x", "games.db:x: no such file"),
])
def test_a_reference_that_names_no_game_is_one_line(lib: Path, ref: str, message: str) -> None:
    for argv in (("replay", ref, "--at", "3"), ("view", ref), ("log", ref), ("verify", ref),
                 ("explain", ref, "3"), ("diff", ref, "1", "2")):
        code, out, err = run(*argv)
        assert code == 2 and out == "", argv
        assert err.startswith(f"mtgk: error: {message}") and err.count("\n") == 1, (argv, err)
    before = (lib / "games.db").read_bytes()
    assert run("verify", "--repair", "games.db:1")[0] == 2  # a library is never repaired
    assert (lib / "games.db").read_bytes() == before
