"""Tests for ``mtgk db report`` (mtgk.tools.report): the game library as a page of plots.

The page's figures are read back off it (each plot's marks carry their numbers in
``data-`` attributes) and compared with figures computed here, independently, from the
stored logs themselves: who won, who played first, the turns and events of every game
and which cards died are read out of each game's events, and the win rates, intervals,
histogram bins and quantiles counted from those.  The page is checked to be
self-contained, and loaded in a real headless Chromium (selenium + chromedriver, as in
tests/test_viewer.py; skipped, saying why, when one is missing): no console errors, and
every plot is drawn.  Then the bad inputs: each one line, and nothing written where it
should not be.
"""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy
import pytest

from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.rules.state import apply, new_state
from mtgk.tools.report import MAX_POINTS, Point, thin
from mtgk.tools.store import open_store, wilson
from tests.conftest import headless_chromium, play_scenario
from tests.conftest import run_mtgk as run

ROOT = Path(__file__).resolve().parents[1]
OGRES = ROOT / "bench" / "decks" / "ogres.txt"
GOLDEN = {v: ROOT / "tests" / "golden" / f"library-v{v}.db" for v in (1, 2, 3)}
"""Libraries written by older code (see tests/test_store_summary.py for 1 and 2); schema 3
before the index of kills: `mtgk sim -n 3 -w 1 --seed 2 --max-turns 20`."""

pytestmark = pytest.mark.usefixtures("reset_structlog")


# --------------------------------------------------------------------------
# what the stored games say, read from their logs here


@dataclass
class Game:
    """One stored game, as its log tells it."""

    id: int
    players: list[str]
    decks: list[str]
    winner: int | None  # the seat, -1 a draw, None no result
    first: int | None
    turns: int
    events: int
    died: dict[str, int] = field(default_factory=dict)
    kills: dict[str, int] = field(default_factory=dict)
    finishes: dict[str, int] = field(default_factory=dict)


def blame(envs: list[ev.Envelope]) -> tuple[dict[str, int], dict[str, int]]:
    """Who killed what, by the rules mtgk.tools.store.Blame documents, written again here:
    up the cause chain from a death (or a lost game) to the first event a card did."""
    s = new_state()
    by_seq = {env.seq: env for env in envs}
    did: dict[int, str] = {}  # seq -> card
    on_stack: dict[int, str] = {}
    kills: dict[str, int] = {}
    finishes: dict[str, int] = {}

    def card(oid: int) -> str | None:
        return s.objects[oid].card if oid in s.objects else None

    def walk(seq: int) -> str | None:
        for _ in range(64):
            if seq in did:
                return did[seq]
            env = by_seq.get(seq)
            if env is None or isinstance(env.event, ev.StepBegan | ev.TurnBegan) or (
                    isinstance(env.event, ev.DecisionMade) and env.event.kind == "priority"):
                return None
            seq = env.cause
        return None

    for env in envs:
        e = env.event
        who = None
        if isinstance(e, ev.DamageDealt):
            who = card(e.source)
        elif isinstance(e, ev.SpellCast):
            who = on_stack[e.new_obj] = card(e.obj)  # type: ignore[assignment]
        elif isinstance(e, ev.AbilityActivated | ev.AbilityTriggered):
            who = on_stack[e.item] = card(e.source)  # type: ignore[assignment]
        elif isinstance(e, ev.TriggerPutOnStack | ev.StackItemResolved):
            who = on_stack.get(e.item)
        if who is not None:
            did[env.seq] = who
        table = (kills if isinstance(e, ev.ZoneChanged) and (e.from_zone, e.to_zone) == (
            "battlefield", "graveyard") else finishes if isinstance(e, ev.PlayerLost) else None)
        if table is not None:
            killer = walk(env.cause)
            if killer is not None:
                table[killer] = table.get(killer, 0) + 1
        apply(s, e)
    return kills, finishes


def games_of(db: Path) -> list[Game]:
    out = []
    with open_store(db, must_exist=True) as store:
        for rec in store.list():
            g = store.get(rec.id)
            assert g is not None
            header, envs = g.header_and_events()
            s = new_state()
            game = Game(rec.id, list(header.players), list(header.meta["deck_names"]), None,
                        None, 0, len(envs))
            for env in envs:
                e = env.event
                if isinstance(e, ev.TurnBegan):
                    game.turns = e.turn
                    if game.first is None:
                        game.first = e.active
                elif isinstance(e, ev.GameEnded):
                    game.winner = e.winner
                elif isinstance(e, ev.ZoneChanged) and (e.from_zone, e.to_zone) == (
                        "battlefield", "graveyard"):
                    card = s.objects[e.obj].card
                    game.died[card] = game.died.get(card, 0) + 1
                apply(s, e)
            game.kills, game.finishes = blame(envs)
            out.append(game)
    return out


def running(games: list[Game], by: str) -> dict[str, list[tuple[int, int, int, int]]]:
    """name -> [(game id, games, decided, wins)] after every game it played."""
    counts: dict[str, list[int]] = {}
    out: dict[str, list[tuple[int, int, int, int]]] = {}
    for g in games:
        names = g.decks if by == "deck" else g.players
        for seat, name in enumerate(names):
            c = counts.setdefault(name, [0, 0, 0])
            c[0] += 1
            if g.winner is not None:
                c[1] += 1
                c[2] += int(g.winner == seat)
        for name in dict.fromkeys(names):
            out.setdefault(name, []).append((g.id, *counts[name]))
    return out


def wins_and_decided(games: list[Game], deck: str | None, first: bool) -> tuple[int, int]:
    """A deck's (every seat's, ``deck=None``) wins and games with a result, over the seats
    that played first (``first``) or later."""
    wins = decided = 0
    for g in games:
        for seat, name in enumerate(g.decks):
            if (deck is not None and name != deck) or g.first is None or \
                    (g.first == seat) != first or g.winner is None:
                continue
            decided += 1
            wins += int(g.winner == seat)
    return wins, decided


# --------------------------------------------------------------------------
# the page, read back


class Marks(HTMLParser):
    """Every element of the page with ``data-`` attributes, with the id of the figure it
    is in; and every reference to something outside the page."""

    def __init__(self) -> None:
        super().__init__()
        self.figure: list[str] = []
        self.marks: list[tuple[str, str, dict[str, str]]] = []  # (figure, tag, attrs)
        self.figures: dict[str, dict[str, str]] = {}
        self.outside: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        for key in ("src", "href", "xlink:href", "action", "data"):
            if key in a:
                self.outside.append(f"<{tag} {key}={a[key]!r}>")
        if tag == "figure":
            self.figure.append(a.get("id", ""))
            self.figures[a.get("id", "")] = a
        elif any(k.startswith("data-") for k in a):
            self.marks.append((self.figure[-1] if self.figure else "", tag, a))

    def handle_endtag(self, tag: str) -> None:
        if tag == "figure":
            self.figure.pop()

    def in_figure(self, fid: str, tag: str | None = None) -> list[dict[str, str]]:
        return [a for f, t, a in self.marks if f == fid and (tag is None or t == tag)]


def read_page(path: Path) -> Marks:
    m = Marks()
    m.feed(path.read_text(encoding="utf-8"))
    return m


def close(a: str, b: float) -> bool:
    return abs(float(a) - b) < 1e-6


@dataclass
class Library:
    db: Path
    page: Path
    games: list[Game]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    """Two runs: 12 games between the two built-in decks, and 3 short ogres mirror matches
    (draws at the turn limit, and a deck in both seats)."""
    d = tmp_path_factory.mktemp("report")
    db = d / "lib.db"
    for args in (("-n", 12, "--seed", 3, "--max-turns", 30),
                 ("-n", 3, "--seed", 4, "--decks", OGRES, "--max-turns", 4)):
        code, _, err = run("sim", *args, "--workers", 1, "--db", db, "-q")
        assert code == 0, err
    page = d / "report.html"
    code, out, err = run("db", "report", db, "--out", page)
    assert code == 0, err
    assert out == f"{page}: 15 games of {db}, {page.stat().st_size} bytes; open it in a browser\n"
    return Library(db, page, games_of(db))


# --------------------------------------------------------------------------
# the figures


def test_the_totals_are_the_librarys(library: Library) -> None:
    m = read_page(library.page)
    totals = next(a for _, t, a in m.marks if a.get("id") == "totals")
    games = library.games
    assert {k: int(totals[f"data-{k}"]) for k in ("games", "decided", "draws", "unfinished")} \
        == {"games": 15, "decided": sum(g.winner is not None and g.winner >= 0 for g in games),
            "draws": sum(g.winner == -1 for g in games),
            "unfinished": sum(g.winner is None for g in games)}
    assert sum(g.winner == -1 for g in games) >= 1 and sum(g.winner == 0 for g in games) >= 1


@pytest.mark.parametrize("by", ["deck", "player"])
def test_running_win_rates_follow_the_games(library: Library, by: str) -> None:
    m = read_page(library.page)
    want = running(library.games, by)
    figures = {a["data-name"]: fid for fid, a in m.figures.items()
               if fid.startswith(f"running-{by}-")}
    assert sorted(figures) == sorted(want)
    for name, fid in figures.items():
        points = m.in_figure(fid, "circle")
        decided = [p for p in want[name] if p[2]]  # a point once a game has a result
        assert [(int(p["data-game"]), int(p["data-games"]), int(p["data-decided"]),
                 int(p["data-wins"])) for p in points] == decided, name
        for p in points:
            wins, n = int(p["data-wins"]), int(p["data-decided"])
            lo, hi = wilson(wins, n)
            assert close(p["data-rate"], wins / n)
            assert close(p["data-lo"], lo) and close(p["data-hi"], hi)
    # the mirror match counts the ogres once per seat: two games for each of its games
    if by == "deck":
        assert [p[1] for p in want["ogres"]] == [2, 4, 6]
    # where each line ends is what `mtgk db summary` says of that name
    code, out, _ = run("db", "summary", "--json", "--db", library.db)
    assert code == 0
    for t in json.loads(out)[f"{by}s"]:
        last = m.in_figure(figures[t["name"]], "circle")[-1]
        assert (int(last["data-wins"]), int(last["data-decided"])) == (
            t["wins"], t["games"] - t["unfinished"])
        assert [float(last["data-lo"]), float(last["data-hi"])] == pytest.approx(
            t["interval"], abs=1e-6)


@pytest.mark.parametrize("what", ["turns", "events"])
def test_game_length_histograms_count_the_games(library: Library, what: str) -> None:
    m = read_page(library.page)
    values = sorted(getattr(g, what) for g in library.games if g.winner is not None)
    bars = m.in_figure(f"length-{what}", "rect")
    bins = [(int(b["data-from"]), int(b["data-to"]), int(b["data-games"])) for b in bars]
    assert bins[0][0] <= values[0] and bins[-1][1] >= values[-1]
    for (_, to, _), (nxt, _, _) in zip(bins, bins[1:], strict=False):
        assert nxt == to + 1  # contiguous, of equal width
    assert len({b - a for a, b, _ in bins}) == 1
    assert [n for _, _, n in bins] == [sum(a <= v <= b for v in values) for a, b, _ in bins]
    marks = {a["data-quantile"]: float(a["data-value"]) for a in m.in_figure(f"length-{what}",
                                                                              "line")}
    want = numpy.quantile(values, [0.1, 0.5, 0.9])
    assert marks == pytest.approx(dict(zip(["p10", "median", "p90"], want, strict=True)))


def test_who_played_first_splits_the_win_rates(library: Library) -> None:
    m = read_page(library.page)
    bars = m.in_figure("first-by-deck", "g")
    decks = {d for g in library.games for d in g.decks}
    assert {(b["data-group"], b["data-label"]) for b in bars} == {
        (d, f"playing {w}") for d in decks for w in ("first", "later")}
    for b in bars + m.in_figure("first-overall", "g"):
        if b["data-group"] == "mulligans":
            continue
        deck = None if b["data-group"] == "every seat" else b["data-group"]
        first = b["data-label"] in ("playing first", "played first")
        wins, decided = wins_and_decided(library.games, deck, first)
        assert (int(b["data-wins"]), int(b["data-decided"])) == (wins, decided), b
        lo, hi = wilson(wins, decided)
        assert close(b["data-lo"], lo) and close(b["data-hi"], hi)
    overall = {b["data-label"] for b in m.in_figure("first-overall", "g")}
    assert {"played first", "played later", "kept seven"} <= overall


def totals(games: list[Game], what: str) -> list[tuple[str, int, int]]:
    """(card, times, games) over ``games`` of their ``died``/``kills``/``finishes``, most
    first."""
    out: dict[str, list[int]] = {}
    for g in games:
        for card, n in getattr(g, what).items():
            c = out.setdefault(card, [0, 0])
            c[0] += n
            c[1] += 1
    return sorted(((c, n, k) for c, (n, k) in out.items()), key=lambda x: (-x[1], -x[2], x[0]))


def plotted(page: Path, key: str) -> list[tuple[str, int, int]]:
    return [(b["data-card"], int(b["data-times"]), int(b["data-games"]))
            for b in read_page(page).in_figure(key, "rect")]


@pytest.mark.parametrize(("key", "what"), [("deaths", "died"), ("kills", "kills"),
                                           ("finishes", "finishes")])
def test_deaths_by_card_are_counted_from_the_logs(library: Library, key: str,
                                                  what: str) -> None:
    want = totals(library.games, what)
    got = plotted(library.page, key)
    assert got, f"something to plot ({what})"
    assert got == want[:len(got)]
    text = library.page.read_text(encoding="utf-8")
    for card, _, _ in want:  # every card in the table beneath, not only the drawn ones
        assert f"<tr><td>{card}</td>" in text
    if what == "finishes":  # every game won by a player's loss has its finisher here
        assert sum(n for _, n, _ in want) == sum(g.winner is not None and g.winner >= 0
                                                 for g in library.games)


def test_the_page_is_self_contained(library: Library) -> None:
    text = library.page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert not re.search(r"https?:", text)
    assert "<script" not in text and "<link" not in text and "url(" not in text
    assert "default-src 'none'" in text  # the page may not fetch anything
    assert read_page(library.page).outside == []


def test_reading_never_writes_to_the_library(library: Library, tmp_path: Path) -> None:
    before = library.db.read_bytes()
    code, _, err = run("db", "--db", library.db, "report", "-q", "--out", tmp_path / "x.html")
    assert code == 0 and err == ""
    assert library.db.read_bytes() == before
    assert (tmp_path / "x.html").read_bytes() == library.page.read_bytes()


@pytest.mark.parametrize("version", [1, 2, 3])
def test_an_older_library_is_reported_as_it_is(tmp_path: Path, version: int) -> None:
    """Without an index of kills, they are counted from the logs; the file is only read."""
    db = tmp_path / "old.db"
    shutil.copy(GOLDEN[version], db)
    before = db.read_bytes()
    code, out, err = run("db", "report", db)
    assert code == 0, err
    assert out.startswith(f"{tmp_path / 'old.html'}: 3 games of {db}, ")  # the default name
    assert db.read_bytes() == before
    page = tmp_path / "old.html"
    text = page.read_text(encoding="utf-8")
    assert 'id="running-deck-0"' in text and 'id="length-turns"' in text
    assert "without an index of kills: they were counted from its logs" in text
    games = games_of(db)
    for key, what in (("deaths", "died"), ("kills", "kills"), ("finishes", "finishes")):
        assert plotted(page, key) == totals(games, what)[:25]
    if version == 3:
        assert plotted(page, "kills") and plotted(page, "finishes")


def test_an_older_library_gets_its_kills_when_it_is_migrated(tmp_path: Path) -> None:
    db = tmp_path / "v3.db"
    shutil.copy(GOLDEN[3], db)
    old = {g.id: g for g in games_of(db)}
    with open_store(db, must_exist=True) as store:
        assert store.kill_totals() is None  # read as it is: no index
        logs = {gid: store.get(gid).log for gid in old}  # type: ignore[union-attr]
    code, _, err = run("sim", "-n", 1, "--seed", 9, "--max-turns", 10, "--workers", 1,
                       "--db", db, "-q")  # adding a game migrates the library
    assert code == 0, err
    games = games_of(db)
    with open_store(db, must_exist=True) as store:
        for g in games:
            assert store.kills(g.id) == {"permanent": g.kills, "player": g.finishes}, g.id
            if g.id in logs:
                assert store.get(g.id).log == logs[g.id]  # type: ignore[union-attr]
        assert store.kill_totals() == totals(games, "kills")
        assert store.kill_totals("player") == totals(games, "finishes")
    code, _, err = run("db", "report", db, "-q")
    assert code == 0, err
    assert "counted from its logs" not in (tmp_path / "v3.html").read_text(encoding="utf-8")


def test_doctests() -> None:
    import doctest

    import mtgk.tools.report

    assert doctest.testmod(mtgk.tools.report).failed == 0


def test_death_totals_of_the_store(library: Library) -> None:
    """What the page's deaths come from: the library's index, summed per card."""
    want: dict[str, tuple[int, int]] = {}
    for g in library.games:
        for card, n in g.died.items():
            a, b = want.get(card, (0, 0))
            want[card] = (a + n, b + 1)
    with open_store(library.db, must_exist=True) as store:
        got = store.death_totals()
    assert {c: (n, k) for c, n, k in got} == want
    assert [n for _, n, _ in got] == sorted((n for _, n, _ in got), reverse=True)


def test_blame_stops_at_what_a_player_chose() -> None:
    """A death caused by a player's priority decision (a sacrifice to pay a cost) has no
    card to blame, even if damage was dealt before it in the chain; a chain of links that
    loops or runs past the log's start ends without one too."""
    from mtgk.tools.store import Blame

    s, b = new_state(), Blame()
    setup = [ev.Envelope(0, -1, ev.GameStarted(("Ann", "Bob"), 1)),
             ev.Envelope(1, 0, ev.ObjectCreated(1, "Gray Ogre", 0, "battlefield")),
             ev.Envelope(2, 0, ev.ObjectCreated(2, "Mogg Fanatic", 1, "battlefield")),
             ev.Envelope(3, 2, ev.DamageDealt(source=2, target=1, amount=1)),
             ev.Envelope(4, 3, ev.DecisionMade(player=0, kind="priority", choice=["pass"]))]
    for env in setup:
        b.see(s, env)
        apply(s, env.event)
    b.see(s, ev.Envelope(5, 4, ev.ZoneChanged(1, 3, "battlefield", "graveyard", "sacrifice")))
    b.see(s, ev.Envelope(6, 6, ev.ZoneChanged(2, 4, "battlefield", "graveyard", "sba")))
    b.see(s, ev.Envelope(7, 99, ev.PlayerLost(player=1, reason="life")))
    assert (b.kills, b.finishes) == ({}, {})
    b.see(s, ev.Envelope(8, 3, ev.ZoneChanged(1, 5, "battlefield", "graveyard", "sba")))
    assert b.kills == {"Mogg Fanatic": 1}


def blamed(envs: list[ev.Envelope]) -> tuple[dict[str, int], dict[str, int]]:
    """What mtgk.tools.store.Blame makes of a log."""
    from mtgk.tools.store import Blame

    s, b = new_state(), Blame()
    for env in envs:
        b.see(s, env)
        apply(s, env.event)
    return b.kills, b.finishes


BLAME_CASES = {
    "combat": ("""
        players:
          alice: {battlefield: [Gray Ogre, Grizzly Bears]}
          bob: {battlefield: [Grizzly Bears]}
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, attack: {Gray Ogre: bob, Grizzly Bears: bob}}
          - {player: bob, block: {Grizzly Bears: Gray Ogre}}
          - {pass_until: {turn: 2, step: end_of_combat}}
        expect:
          - {player: bob, life: 18}
          - {card: Gray Ogre, zone: graveyard}
        """, {"Gray Ogre": 1, "Grizzly Bears": 1}, {}),
    "a spell": ("""
        players:
          alice: {battlefield: [Mountain, Mountain], hand: [Shock]}
          bob: {battlefield: [Grizzly Bears]}
        actions:
          - {player: alice, cast: Shock, targets: [Grizzly Bears]}
          - {resolve: all}
        expect:
          - {card: Grizzly Bears, zone: graveyard}
        """, {"Shock": 1}, {}),
    "a spell to the face": ("""
        players:
          alice: {battlefield: [Mountain, Mountain], hand: [Shock]}
          bob: {life: 2}
        actions:
          - {player: alice, cast: Shock, targets: [bob]}
          - {resolve: all}
        expect:
          - {player: bob, life: 0}
        """, {}, {"Shock": 1}),
}


@pytest.mark.parametrize("case", sorted(BLAME_CASES))
def test_blame_names_the_card_that_did_it(registry: Registry, case: str) -> None:
    """Known answers: the blocker and the attacker that traded each killed the other (the
    unblocked attacker killed nobody); Shock killed the Bears, or made bob lose."""
    text, kills, finishes = BLAME_CASES[case]
    body = textwrap.indent(textwrap.dedent(text).strip(), "    ")
    res = play_scenario(f"scenarios:\n  - name: blame\n    strict: true\n{body}\n", registry)
    assert res.passed, res.reason
    assert blamed(res.log) == (kills, finishes)


def test_thin_keeps_the_first_and_last_points() -> None:
    points = [Point(i + 1, i + 1, i + 1, i // 2, 0.5, 0.4, 0.6) for i in range(1234)]
    kept = thin(points)
    assert len(kept) == MAX_POINTS and kept[0] == points[0] and kept[-1] == points[-1]
    assert [p.games for p in kept] == sorted({p.games for p in kept})  # in order, no repeats
    assert thin(points[:10]) == points[:10]


# --------------------------------------------------------------------------
# bad inputs: one line each, nothing written where it should not be


def test_a_missing_or_empty_library_is_one_line(tmp_path: Path) -> None:
    code, out, err = run("db", "report", tmp_path / "none.db")
    assert (code, out) == (2, "")
    assert err == (f"mtgk: error: {tmp_path / 'none.db'}: no such game library (create one "
                   f"with `mtgk sim --db {tmp_path / 'none.db'}`)\n")
    assert list(tmp_path.iterdir()) == []
    empty = tmp_path / "empty.db"
    open_store(empty).close()  # a library without games
    code, out, err = run("db", "report", empty, "--out", tmp_path / "e.html")
    assert (code, out) == (2, "")
    assert err == (f"mtgk: error: {empty}: the game library holds no games; nothing to "
                   f"report (add some with `mtgk sim --db {empty}`)\n")
    assert not (tmp_path / "e.html").exists()


def test_a_file_that_is_no_library_is_refused_and_left_alone(tmp_path: Path) -> None:
    notes = tmp_path / "notes.db"
    notes.write_text("not a library\n")
    code, _, err = run("db", "report", notes)
    assert code == 2 and err.startswith(f"mtgk: error: {notes}: not a game library")
    assert err.count("\n") == 1
    assert notes.read_text() == "not a library\n" and not (tmp_path / "notes.html").exists()


def test_an_unwritable_out_is_one_line(library: Library, tmp_path: Path) -> None:
    for out, why in ((tmp_path, "Is a directory"),
                     (tmp_path / "no" / "such" / "r.html", "No such file or directory")):
        code, text, err = run("db", "report", library.db, "--out", out)
        assert (code, text) == (2, "")
        assert err == f"mtgk: error: cannot write {out}: {why}\n"
    before = library.db.read_bytes()
    code, _, err = run("db", "report", library.db, "--out", library.db)
    assert (code, err) == (2, "mtgk: error: --out would overwrite the game library itself\n")
    assert library.db.read_bytes() == before
    code, _, err = run("db", "--db", tmp_path / "other.db", "report", library.db)
    assert code == 2 and err == (f"mtgk: error: two libraries: {library.db} and --db "
                                 f"{tmp_path / 'other.db'}\n")


def test_an_existing_page_is_overwritten(library: Library, tmp_path: Path) -> None:
    """As ``mtgk view --out`` and ``mtgk db export --out`` do."""
    out = tmp_path / "r.html"
    out.write_text("an old page")
    code, _, err = run("db", "report", library.db, "--out", out, "-q")
    assert code == 0, err
    assert out.read_bytes() == library.page.read_bytes()


def test_a_library_where_nothing_died_and_nobody_won(tmp_path: Path) -> None:
    db = tmp_path / "calm.db"
    deck = tmp_path / "mountains.txt"
    deck.write_text("20 Mountain\n")
    code, _, err = run("sim", "-n", 2, "--seed", 1, "--decks", deck, "--max-turns", 2,
                       "--workers", 1, "--db", db, "-q")
    assert code == 0, err
    code, _, err = run("db", "report", db, "-q")
    assert code == 0, err
    text = (tmp_path / "calm.html").read_text(encoding="utf-8")
    assert "No permanent died and no player lost in any stored game." in text
    m = read_page(tmp_path / "calm.html")
    points = [a for f in m.figures if f.startswith("running-") for a in m.in_figure(f, "circle")]
    assert points and all(a["data-wins"] == "0" and a["data-rate"] == "0" for a in points)


# --------------------------------------------------------------------------
# the page in a real browser


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with headless_chromium(window="1400,900", console=True) as driver:
        yield driver


def test_the_page_loads_in_a_browser_with_every_plot_drawn(browser: Any,
                                                           library: Library) -> None:
    from selenium.webdriver.common.by import By

    browser.get(library.page.as_uri())
    assert browser.execute_script("return document.readyState") == "complete"
    errors = [e for e in browser.get_log("browser") if e.get("level") in ("SEVERE", "WARNING")]
    assert errors == []
    decks = {d for g in library.games for d in g.decks}
    players = {p for g in library.games for p in g.players}
    charts = browser.find_elements(By.CSS_SELECTOR, "figure.plot svg.chart")
    # a running rate per deck and player, two histograms, two of who played first, and
    # the cards that died, killed and finished
    assert len(charts) == len(decks) + len(players) + 2 + 2 + 3
    for svg in charts:
        box = browser.execute_script(
            "const r = arguments[0].getBoundingClientRect(); return [r.width, r.height];", svg)
        assert box[0] > 300 and box[1] > 100, box
    # the line and its band are drawn, with as many points as the games with a result
    for fid in [f"running-deck-{i}" for i in range(len(decks))]:
        fig = browser.find_element(By.ID, fid)
        band = fig.find_element(By.CSS_SELECTOR, "polygon.band")
        assert band.size["height"] > 0 and band.size["width"] > 0
        line = fig.find_element(By.CSS_SELECTOR, "polyline.rate")
        assert line.size["width"] > 0
        name = fig.get_attribute("data-name")
        assert len(fig.find_elements(By.CSS_SELECTOR, "circle.pt")) == sum(
            1 for p in running(library.games, "deck")[name] if p[2])
    bars = browser.find_elements(By.CSS_SELECTOR, "#length-turns rect.bar")
    assert sum(int(b.get_attribute("data-games")) for b in bars) == sum(
        g.winner is not None for g in library.games)
    assert max(b.size["height"] for b in bars) > 50
    # a tooltip says the figures in words
    tip = browser.find_element(By.CSS_SELECTOR, "#deaths rect.bar title")
    assert re.fullmatch(r".+: died \d+ times?, in \d+ of 15 games",
                        tip.get_attribute("textContent"))
    tip = browser.find_element(By.CSS_SELECTOR, "#kills rect.bar title")
    assert re.fullmatch(r".+: killed a permanent \d+ times?, in \d+ of 15 games",
                        tip.get_attribute("textContent"))
    # the numbers open beneath a plot
    details = browser.find_element(By.CSS_SELECTOR, "#deaths details")
    details.find_element(By.TAG_NAME, "summary").click()
    assert details.find_element(By.TAG_NAME, "table").is_displayed()
