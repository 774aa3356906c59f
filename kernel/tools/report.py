"""The game library as one page of plots (``mtgk db report``).

:func:`build_report` turns a library into a single self-contained HTML page -- inline CSS
and SVG drawn here, no script, no external assets, no network -- for people who would
rather look than read:

* **win rate as games accumulate**, per deck and per player: after each game it played,
  its win rate so far (a line) and the Wilson 95% interval of it (a band), so one sees
  the interval narrow as games are added and where the rate settles;
* **game length**: histograms of the turns and of the events of the games with a result,
  with their p10, median and p90;
* **who played first**: each deck's win rate playing first and playing later, and the
  win rates of all seats that played first, of the others, of the seats that kept their
  first seven cards and of those that took a mulligan, each with its interval;
* **deaths by card**: the cards whose permanents died (were put into a graveyard from the
  battlefield) most often, the cards to blame for the deaths (:class:`mtgk.tools.store.Blame`:
  the source of the lethal damage, the spell or ability that destroyed or sacrificed), and
  the cards that made a player lose; each with the number of games it happened in.

Every figure is the library's own: the totals, the interval bounds, the histograms and
the split by who played first are :meth:`mtgk.tools.store.SqliteStore.summary`'s
(:class:`mtgk.tools.store.Summary`, the numbers ``mtgk db summary`` prints), the running
win rates are counted with :class:`mtgk.tools.store.Tally` over the games in id order,
and the deaths and kills are the library's indexes of them (``SqliteStore.death_totals``,
``SqliteStore.kill_totals``; a library of schema 3 or older, which has no index of kills,
has them counted from its logs).  Every plot
has its numbers as a table beside it, and each mark carries its figures in ``data-``
attributes (and a tooltip).

>>> from mtgk.cards.loading import load_registry
>>> from mtgk.games.replay import new_header, run_from_header
>>> from mtgk.tools.store import SqliteStore
>>> reg = load_registry(["core", "lorwyn"])
>>> header = new_header(reg, ["Ann", "Bob"], [["20 Mountain"], ["20 Mountain"]], seed=3,
...                     meta={"max_turns": 3})
>>> with SqliteStore(":memory:") as store:
...     _ = store.add_log(header, run_from_header(reg, header).log)
...     page = build_report(store, "games.db")
>>> page.startswith("<!DOCTYPE html>") and "<script" not in page and "://" not in page
True
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mtgk.log.logfile import LogError
from mtgk.tools.store import (
    UNKNOWN_DECK,
    Distribution,
    GameRecord,
    SqliteStore,
    Summary,
    Tally,
    game_facts,
)

__all__ = ["MAX_POINTS", "Point", "ReportError", "build_report", "kills_from_logs",
           "running_rates", "thin", "write_report"]

MAX_POINTS = 500
"""At most this many points of a running win rate are drawn (evenly spread, the last one
always kept); the table beside the plot has them all up to this many, too."""

MOST_CARDS = 25
"""Deaths by card: the plot shows this many cards; the table below it, all of them."""


class ReportError(Exception):
    """The library holds nothing to report on."""


@dataclass(frozen=True)
class Point:
    """A running win rate: after ``games`` games (the game with library id ``game_id``
    the last of them), ``wins`` of the ``decided`` ones with a result were won; ``rate``
    and its Wilson 95% interval ``lo``..``hi`` are :class:`Tally`'s."""

    game_id: int
    games: int
    decided: int
    wins: int
    rate: float
    lo: float
    hi: float


def running_rates(records: Iterable[GameRecord], by: str = "deck"
                  ) -> dict[str, list[Point]]:
    """Each deck's (``by="deck"``) or player's (``by="player"``) win rate after every game
    it played, in the order of ``records`` (the library's id order).  A name is counted
    as :func:`mtgk.tools.store.summarize` counts it: once per seat (a mirror match is a
    win and a loss), and a seat without a deck name as
    :data:`mtgk.tools.store.UNKNOWN_DECK`."""
    tallies: dict[str, Tally] = {}
    out: dict[str, list[Point]] = {}
    for r in records:
        seen: list[str] = []
        for seat, player in enumerate(r.players):
            if by == "deck":
                deck = r.decks[seat] if seat < len(r.decks) else None
                name = deck or UNKNOWN_DECK
            else:
                name = player
            tallies.setdefault(name, Tally(name)).count(r.winner, seat, r.teams)
            if name not in seen:
                seen.append(name)
        for name in seen:
            t = tallies[name]
            lo, hi = t.interval
            out.setdefault(name, []).append(
                Point(r.id, t.games, t.decided, t.wins, t.win_rate, lo, hi))
    return out


def thin(points: Sequence[Point], most: int = MAX_POINTS) -> list[Point]:
    """At most ``most`` of ``points``, evenly spread, the first and the last kept."""
    if len(points) <= most:
        return list(points)
    step = (len(points) - 1) / (most - 1)
    return [points[round(i * step)] for i in range(most)]


# --------------------------------------------------------------------------
# drawing

PALETTE = ("#3b6fb6", "#d0642b", "#3c9a5f", "#a34ba3", "#b8860b", "#6b6b6b")
"""Line and bar colours, in order (colour-blind-safe enough for a few series)."""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _num(x: float) -> str:
    """A figure for an attribute: an integer as such, a fraction to 6 places."""
    return str(x) if isinstance(x, int) else f"{x:.6f}".rstrip("0").rstrip(".")


@dataclass
class _Frame:
    """A plot area inside an SVG of ``width`` x ``height`` with margins for the axes."""

    width: int = 600
    height: int = 240
    left: int = 48
    right: int = 16
    top: int = 12
    bottom: int = 36
    parts: list[str] = field(default_factory=list)

    @property
    def w(self) -> float:
        return self.width - self.left - self.right

    @property
    def h(self) -> float:
        return self.height - self.top - self.bottom

    def x(self, frac: float) -> float:
        return round(self.left + frac * self.w, 2)

    def y(self, frac: float) -> float:
        return round(self.top + (1 - frac) * self.h, 2)

    def svg(self, label: str, cls: str) -> str:
        return (f'<svg class="{cls}" viewBox="0 0 {self.width} {self.height}" '
                f'width="{self.width}" height="{self.height}" role="img" '
                f'aria-label="{_e(label)}">'
                + "".join(self.parts) + "</svg>")


def _nice_step(span: float, ticks: int = 5) -> float:
    """A round tick step (1, 2, 5 times a power of ten) for ``span`` in about ``ticks``."""
    if span <= 0:
        return 1.0
    raw = span / ticks
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * mag:
            return float(m * mag)
    return float(10 * mag)


def _count_ticks(most: int, ticks: int) -> tuple[int, range]:
    """A count axis for values up to ``most``: its top (a whole number of round steps, at
    least one) and its ticks from 0."""
    step = max(1, int(_nice_step(most, ticks)))
    top = max(step, math.ceil(most / step) * step)
    return top, range(0, top + 1, step)


def _rate_axes(f: _Frame, xmax: int, xlabel: str) -> None:
    """Gridlines at 0, 25, 50, 75, 100% (50% dashed) and an x axis of 0..``xmax``."""
    for q in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = f.y(q)
        dash = ' stroke-dasharray="4 3"' if q == 0.5 else ""
        f.parts.append(f'<line class="grid" x1="{f.left}" x2="{f.x(1)}" y1="{y}" y2="{y}"'
                       f'{dash}/><text class="tick" x="{f.left - 6}" y="{y + 4}" '
                       f'text-anchor="end">{q:.0%}</text>')
    step = max(1, int(_nice_step(xmax)))
    for v in range(0, xmax + 1, step):
        x = f.x(v / xmax if xmax else 0)
        f.parts.append(f'<text class="tick" x="{x}" y="{f.y(0) + 16}" '
                       f'text-anchor="middle">{v}</text>')
    f.parts.append(f'<text class="axis" x="{f.x(0.5)}" y="{f.height - 4}" '
                   f'text-anchor="middle">{_e(xlabel)}</text>')


def _running_plot(name: str, points: Sequence[Point], colour: str, key: str) -> str:
    """One name's running win rate: its line, its interval as a band, the last value."""
    f = _Frame()
    shown = thin(points)
    xmax = max(1, shown[-1].games)
    _rate_axes(f, xmax, "games played")
    decided = [p for p in shown if p.decided]
    if decided:
        upper = " ".join(f"{f.x(p.games / xmax)},{f.y(p.hi)}" for p in decided)
        lower = " ".join(f"{f.x(p.games / xmax)},{f.y(p.lo)}" for p in reversed(decided))
        f.parts.append(f'<polygon class="band" points="{upper} {lower}" fill="{colour}"/>')
        line = " ".join(f"{f.x(p.games / xmax)},{f.y(p.rate)}" for p in decided)
        f.parts.append(f'<polyline class="rate" points="{line}" stroke="{colour}"/>')
    for p in decided:
        tip = (f"after {p.games} game{'s' if p.games != 1 else ''} (game {p.game_id}): "
               f"{p.wins} won of {p.decided} with a result, {_pct(p.rate)} "
               f"[{_pct(p.lo)}–{_pct(p.hi)}]")
        f.parts.append(
            f'<circle class="pt" cx="{f.x(p.games / xmax)}" cy="{f.y(p.rate)}" r="2.2" '
            f'fill="{colour}" data-game="{p.game_id}" data-games="{p.games}" '
            f'data-decided="{p.decided}" data-wins="{p.wins}" data-rate="{_num(p.rate)}" '
            f'data-lo="{_num(p.lo)}" data-hi="{_num(p.hi)}"><title>{_e(tip)}</title>'
            '</circle>')
    last = points[-1]
    head = (f"{_pct(last.rate)} [{_pct(last.lo)}–{_pct(last.hi)}] after {last.games} "
            f"game{'s' if last.games != 1 else ''}" if last.decided else
            f"no game with a result in {last.games}")
    rows = "".join(f"<tr><td>{p.games}</td><td>{p.game_id}</td><td>{p.wins}</td>"
                   f"<td>{p.decided}</td><td>{_pct(p.rate)}</td><td>{_pct(p.lo)}</td>"
                   f"<td>{_pct(p.hi)}</td></tr>" for p in shown)
    note = (f" (every {len(points) / len(shown):.1f}th of {len(points)} points)"
            if len(shown) < len(points) else "")
    return (f'<figure class="plot running" id="{key}" data-name="{_e(name)}">'
            f'<figcaption><span class="swatch" style="background:{colour}"></span>'
            f'<b>{_e(name)}</b>: {_e(head)}</figcaption>'
            + f.svg(f"running win rate of {name}", "chart")
            + f'<details><summary>the numbers{_e(note)}</summary><table class="numbers">'
            '<tr><th>games</th><th>game id</th><th>won</th><th>with a result</th>'
            f'<th>win rate</th><th>low</th><th>high</th></tr>{rows}</table></details>'
            "</figure>")


def _histogram_plot(key: str, what: str, d: Distribution) -> str:
    """Games by ``what`` (turns, events): one bar per bin, p10/p50/p90 marked."""
    f = _Frame()
    most = max(n for _, _, n in d.bins)
    top, ticks = _count_ticks(most, 4)
    for v in ticks:
        y = f.y(v / top)
        f.parts.append(f'<line class="grid" x1="{f.left}" x2="{f.x(1)}" y1="{y}" y2="{y}"/>'
                       f'<text class="tick" x="{f.left - 6}" y="{y + 4}" '
                       f'text-anchor="end">{v}</text>')
    lo, hi = d.bins[0][0], d.bins[-1][1] + 1
    span = hi - lo

    def fx(v: float) -> float:
        return f.x((v - lo) / span)

    every = max(1, math.ceil(len(d.bins) / 12))
    for i, (a, b, n) in enumerate(d.bins):
        x0, x1 = fx(a), fx(b + 1)
        label = str(a) if a == b else f"{a}–{b}"
        tip = f"{n} game{'s' if n != 1 else ''} of {label} {what}"
        f.parts.append(f'<rect class="bar" fill="{PALETTE[0]}" x="{x0 + 1}" y="{f.y(n / top)}" '
                       f'width="{max(0.5, x1 - x0 - 2)}" height="{f.y(0) - f.y(n / top)}" '
                       f'data-from="{a}" data-to="{b}" data-games="{n}">'
                       f'<title>{_e(tip)}</title></rect>')
        if i % every == 0:
            f.parts.append(f'<text class="tick" x="{(x0 + x1) / 2}" y="{f.y(0) + 16}" '
                           f'text-anchor="middle">{_e(label)}</text>')
    marks: dict[float, list[str]] = {}  # quantiles of one value share a line and a label
    for q, value in (("p10", d.p10), ("median", d.p50), ("p90", d.p90)):
        marks.setdefault(value, []).append(q)
    for k, (value, names) in enumerate(marks.items()):
        x = fx(value + 0.5)  # the middle of the value's unit
        label = " = ".join(names)
        for q in names:
            f.parts.append(f'<line class="mark" x1="{x}" x2="{x}" y1="{f.top}" '
                           f'y2="{f.y(0)}" data-quantile="{q}" data-value="{_num(value)}">'
                           f'<title>{label} {value:g}</title></line>')
        f.parts.append(f'<text class="marklabel" x="{x + 3}" y="{f.top + 10 + 11 * k}">'
                       f'{label}</text>')
    f.parts.append(f'<text class="axis" x="{f.x(0.5)}" y="{f.height - 4}" '
                   f'text-anchor="middle">{_e(what)}</text>')
    rows = "".join(f"<tr><td>{a if a == b else f'{a}–{b}'}</td><td>{n}</td></tr>"
                   for a, b, n in d.bins)
    head = (f"{d.count} game{'s' if d.count != 1 else ''} with a result: mean {d.mean:.1f}, "
            f"p10 {d.p10:g}, median {d.p50:g}, p90 {d.p90:g} (min {d.min}, max {d.max})")
    return (f'<figure class="plot histogram" id="{key}"><figcaption><b>{_e(what)}</b>: '
            f'{_e(head)}</figcaption>' + f.svg(f"games by {what}", "chart")
            + f'<details><summary>the numbers</summary><table class="numbers"><tr><th>'
            f'{_e(what)}</th><th>games</th></tr>{rows}</table></details></figure>')


@dataclass(frozen=True)
class _Bar:
    group: str
    label: str
    tally: Tally
    colour: str


def _rate_bars(key: str, title: str, bars: Sequence[_Bar]) -> str:
    """Horizontal bars of win rates, each with its Wilson 95% interval as a whisker."""
    row, gap = 22, 10
    groups: list[str] = []
    for b in bars:
        if b.group not in groups:
            groups.append(b.group)
    f = _Frame(height=12 + 36 + len(bars) * row + len(groups) * gap, left=300, right=90)
    bottom = f.top + len(bars) * row + len(groups) * gap
    for q in (0.0, 0.25, 0.5, 0.75, 1.0):
        x = f.x(q)
        dash = ' stroke-dasharray="4 3"' if q == 0.5 else ""
        f.parts.append(f'<line class="grid" x1="{x}" x2="{x}" y1="{f.top}" y2="{bottom}"'
                       f'{dash}/><text class="tick" x="{x}" y="{bottom + 16}" '
                       f'text-anchor="middle">{q:.0%}</text>')
    f.parts.append(f'<text class="axis" x="{f.x(0.5)}" y="{f.height - 4}" '
                   'text-anchor="middle">win rate</text>')
    y = float(f.top)
    current = None
    for b in bars:
        if b.group != current:
            y += gap
            current = b.group
        t = b.tally
        mid = y + row / 2
        label = f"{b.group} — {b.label}" if b.group != b.label else b.label
        lo, hi = t.interval
        tip = (f"{label}: {t.wins} won of {t.decided} with a result, "
               + (f"{_pct(t.win_rate)} [{_pct(lo)}–{_pct(hi)}]" if t.decided else "no games"))
        attrs = (f'data-group="{_e(b.group)}" data-label="{_e(b.label)}" data-games="{t.games}" '
                 f'data-decided="{t.decided}" data-wins="{t.wins}" '
                 f'data-rate="{_num(t.win_rate)}" data-lo="{_num(lo)}" data-hi="{_num(hi)}"')
        f.parts.append(f'<text class="label" x="{f.left - 8}" y="{mid + 4}" '
                       f'text-anchor="end">{_e(_short(label, 48))}</text>')
        if t.decided:
            f.parts.append(f'<g class="ratebar" {attrs}><title>{_e(tip)}</title>'
                           f'<rect x="{f.left}" y="{y + 3}" width="{f.x(t.win_rate) - f.left}" '
                           f'height="{row - 6}" fill="{b.colour}"/>'
                           f'<line class="whisker" x1="{f.x(lo)}" x2="{f.x(hi)}" y1="{mid}" '
                           f'y2="{mid}"/><line class="whisker" x1="{f.x(lo)}" x2="{f.x(lo)}" '
                           f'y1="{mid - 5}" y2="{mid + 5}"/><line class="whisker" '
                           f'x1="{f.x(hi)}" x2="{f.x(hi)}" y1="{mid - 5}" y2="{mid + 5}"/>'
                           f'<text class="value" x="{f.x(1) + 4}" y="{mid + 4}">'
                           f'{_pct(t.win_rate)} of {t.decided}</text></g>')
        else:
            f.parts.append(f'<g class="ratebar" {attrs}><title>{_e(tip)}</title>'
                           f'<text class="value" x="{f.left + 4}" y="{mid + 4}">no games'
                           "</text></g>")
        y += row
    rows = "".join(
        f"<tr><td>{_e(b.group)}</td><td>{_e(b.label)}</td><td>{b.tally.games}</td>"
        f"<td>{b.tally.wins}</td><td>{b.tally.losses}</td><td>{b.tally.draws}</td>"
        f"<td>{_pct(b.tally.win_rate) if b.tally.decided else '-'}</td>"
        f"<td>{_pct(b.tally.interval[0]) if b.tally.decided else '-'}</td>"
        f"<td>{_pct(b.tally.interval[1]) if b.tally.decided else '-'}</td></tr>" for b in bars)
    return (f'<figure class="plot bars" id="{key}"><figcaption><b>{_e(title)}</b>'
            '</figcaption>' + f.svg(title, "chart")
            + '<details><summary>the numbers</summary><table class="numbers"><tr><th></th>'
            '<th></th><th>games</th><th>won</th><th>lost</th><th>drawn</th><th>win rate</th>'
            f'<th>low</th><th>high</th></tr>{rows}</table></details></figure>')


def _short(text: str, most: int) -> str:
    return text if len(text) <= most else text[:most - 1] + "…"


@dataclass(frozen=True)
class _CardPlot:
    """What a plot of cards counts: its id, title, caption words and the bar's colour."""

    key: str
    title: str
    did: str  # "died", "killed", "made a player lose"
    unit: str  # the axis
    colour: str


def _card_plot(what: _CardPlot, rows: Sequence[tuple[str, int, int]], games: int) -> str:
    """A bar per card (the count), the number of games beside it, most first."""
    shown = rows[:MOST_CARDS]
    row = 20
    f = _Frame(height=12 + 36 + len(shown) * row, left=200, right=120)
    most = max(n for _, n, _ in shown)
    top, ticks = _count_ticks(most, 5)
    for v in ticks:
        x = f.x(v / top)
        f.parts.append(f'<line class="grid" x1="{x}" x2="{x}" y1="{f.top}" '
                       f'y2="{f.top + len(shown) * row}"/><text class="tick" x="{x}" '
                       f'y="{f.top + len(shown) * row + 16}" text-anchor="middle">{v}</text>')
    for i, (card, n, in_games) in enumerate(shown):
        y = f.top + i * row
        tip = (f"{card}: {what.did} {n} time{'s' if n != 1 else ''}, in {in_games} of "
               f"{games} game{'s' if games != 1 else ''}")
        f.parts.append(f'<text class="label" x="{f.left - 8}" y="{y + row / 2 + 4}" '
                       f'text-anchor="end">{_e(_short(card, 30))}</text>'
                       f'<rect class="bar card" x="{f.left}" y="{y + 3}" '
                       f'width="{f.x(n / top) - f.left}" height="{row - 6}" '
                       f'fill="{what.colour}" data-card="{_e(card)}" data-times="{n}" '
                       f'data-games="{in_games}"><title>{_e(tip)}</title></rect>'
                       f'<text class="value" x="{f.x(n / top) + 4}" y="{y + row / 2 + 4}">'
                       f'{n} in {in_games} game{"s" if in_games != 1 else ""}</text>')
    f.parts.append(f'<text class="axis" x="{f.x(0.5)}" y="{f.height - 4}" '
                   f'text-anchor="middle">{_e(what.unit)}</text>')
    table = "".join(f"<tr><td>{_e(c)}</td><td>{n}</td><td>{g}</td></tr>" for c, n, g in rows)
    more = f"; the {MOST_CARDS} first are drawn" if len(rows) > MOST_CARDS else ""
    return (f'<figure class="plot bars" id="{what.key}"><figcaption><b>{_e(what.title)}'
            f'</b>: {len(rows)} card{"s" if len(rows) != 1 else ""}{_e(more)}</figcaption>'
            + f.svg(what.title, "chart")
            + '<details><summary>every card</summary><table class="numbers"><tr><th>card'
            f'</th><th>{_e(what.unit)}</th><th>in games</th></tr>{table}</table></details>'
            "</figure>")


CARD_PLOTS = (
    _CardPlot("deaths", "Cards that died most", "died", "times died", "#b04a3a"),
    _CardPlot("kills", "Cards that killed most", "killed a permanent", "permanents killed",
              "#7a4fb0"),
    _CardPlot("finishes", "Cards that finished a player", "made a player lose",
              "players finished", "#2f7f7a"),
)


def kills_from_logs(store: SqliteStore, progress: Callable[[int], None] | None = None
                    ) -> tuple[list[tuple[str, int, int]], list[tuple[str, int, int]]]:
    """The kills and finishes of every stored game (as
    :meth:`mtgk.tools.store.SqliteStore.kill_totals` gives them), computed from the logs:
    for a library of schema 3 or older, read as it is.  ``progress`` is told of each game
    read.  A log this kernel cannot read counts nothing."""
    tables: tuple[dict[str, list[int]], dict[str, list[int]]] = ({}, {})
    for rec in store.list():
        g = store.get(rec.id)
        try:
            header, envs = g.header_and_events() if g is not None else (None, [])
        except LogError:
            header = None
        if header is not None:
            facts = game_facts(header, envs)
            for table, counts in zip(tables, (facts.kills, facts.finishes), strict=True):
                for card, n in counts.items():
                    c = table.setdefault(card, [0, 0])
                    c[0] += n
                    c[1] += 1
        if progress is not None:
            progress(1)

    def rows(table: dict[str, list[int]]) -> list[tuple[str, int, int]]:
        return sorted(((c, n, k) for c, (n, k) in table.items()),
                      key=lambda r: (-r[1], -r[2], r[0]))

    return rows(tables[0]), rows(tables[1])


# --------------------------------------------------------------------------
# the page

CSS = """
:root { color-scheme: light dark; --fg: #1d1d1f; --bg: #fff; --muted: #6b6b6b;
        --grid: #d8d8d8; --panel: #f5f5f7; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e8e8ea; --bg: #1c1c1e; --muted: #a0a0a5; --grid: #3a3a3c;
          --panel: #2c2c2e; } }
body { font: 14px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg);
       margin: 0 auto; padding: 1em 2em 3em; max-width: 1400px; }
h1 { font-size: 1.5em; margin: .3em 0; } h2 { font-size: 1.2em; margin: 1.6em 0 .4em; }
p.lead, p.note { color: var(--muted); margin: .2em 0 .8em; }
.grid-of-plots { display: flex; flex-wrap: wrap; gap: 1em 2em; }
figure.plot { margin: 0; padding: .6em .8em; background: var(--panel); border-radius: 8px; }
figcaption { margin-bottom: .3em; }
.swatch { display: inline-block; width: .8em; height: .8em; border-radius: 2px;
          margin-right: .4em; vertical-align: -1px; }
svg.chart { display: block; max-width: 100%; height: auto; overflow: visible; }
svg text { fill: var(--fg); font-size: 11px; }
svg text.tick, svg text.axis, svg text.marklabel { fill: var(--muted); }
svg text.marklabel { fill: var(--fg); paint-order: stroke; stroke: var(--panel);
                     stroke-width: 3px; }
svg line.grid { stroke: var(--grid); stroke-width: 1; }
svg polygon.band { opacity: .22; stroke: none; }
svg polyline.rate { fill: none; stroke-width: 2; }
svg rect.bar:hover, svg g.ratebar:hover rect, svg circle.pt:hover { opacity: .75; }
svg line.whisker { stroke: var(--fg); stroke-width: 1.4; }
svg line.mark { stroke: var(--fg); stroke-width: 1; stroke-dasharray: 3 3; opacity: .6; }
details { margin-top: .3em; color: var(--muted); }
table.numbers { border-collapse: collapse; margin-top: .3em; font-size: 12px;
                color: var(--fg); }
table.numbers td, table.numbers th { padding: 1px 8px; text-align: right; }
table.numbers td:first-child, table.numbers th:first-child { text-align: left; }
"""


def _section(key: str, title: str, lead: str, body: str) -> str:
    return (f'<section id="{key}"><h2>{_e(title)}</h2><p class="lead">{_e(lead)}</p>'
            f"{body}</section>")


def _variants_line(s: Summary) -> str:
    """How many games of each variant the library holds, as a sentence; nothing for a
    library of two-player games only (its page is as it was)."""
    if not set(s.variants) - {"two-player"}:
        return ""
    return (' <span id="variants">Variants: '
            + _e(", ".join(f"{n} {name}" for name, n in s.variants.items())) + ".</span>")


def build_report(store: SqliteStore, name: str,
                 progress: Callable[[int], None] | None = None) -> str:
    """The page for the library ``store`` (called ``name`` on the page).  ``progress`` is
    told of each game whose log is read (only a library of schema 3 or older, which has
    no index of kills, has its logs read: :func:`kills_from_logs`).

    Raises :class:`ReportError` when it holds no games, and
    :class:`mtgk.tools.store.StoreError` as reading it may.
    """
    s: Summary = store.summary()
    if not s.games:
        raise ReportError(f"{name}: the game library holds no games; nothing to report "
                          f"(add some with `mtgk sim --db {name}`)")
    records = store.list()
    deaths = store.death_totals()
    parts = [f'<header><h1>Game library {_e(name)}</h1><p class="lead" id="totals" '
             f'data-games="{s.games}" data-decided="{s.decided}" data-draws="{s.draws}" '
             f'data-unfinished="{s.unfinished}" data-errors="{s.errors}">'
             f"{s.games} game{'s' if s.games != 1 else ''}: {s.decided} won, {s.draws} "
             f"drawn, {s.unfinished} without a result"
             + (f", {s.errors} failed" if s.errors else "")
             + ". The win rate is wins over the games with a result (draws count as games, "
             "not wins); its band and whiskers are the Wilson 95% interval."
             + _variants_line(s) + "</p></header>"]
    for by, title, tallies in (("deck", "Win rate by deck", s.decks),
                               ("player", "Win rate by player (seat)", s.players)):
        runs = running_rates(records, by)
        plots = "".join(_running_plot(t.name, runs[t.name], PALETTE[i % len(PALETTE)],
                                      f"running-{by}-{i}")
                        for i, t in enumerate(tallies) if t.name in runs)
        parts.append(_section(
            f"running-{by}s", title + ", as games accumulate",
            f"After each game a {by} played: its win rate so far (the line) and the Wilson "
            "95% interval (the band), which narrows as games are added. A "
            + ("deck that plays both seats of a game is counted once per seat."
               if by == "deck" else "player is a seat's name."),
            f'<div class="grid-of-plots">{plots}</div>'))
    team_bars = [_Bar("teams", t.name, t, PALETTE[i % len(PALETTE)])
                 for i, t in enumerate(s.teams) if t.games]
    if team_bars:
        parts.append(_section(
            "teams", "Win rate by team",
            "The teams of the games played in teams (Two-Headed Giant): every player of the "
            "winning team wins, and the team's games and wins are counted once.",
            '<div class="grid-of-plots">' + _rate_bars("teams", "Each team", team_bars)
            + "</div>"))
    if s.turns is not None and s.events is not None:
        parts.append(_section(
            "length", "Game length",
            f"The {s.turns.count} games with a result, by their turns and by their events.",
            '<div class="grid-of-plots">' + _histogram_plot("length-turns", "turns", s.turns)
            + _histogram_plot("length-events", "events", s.events) + "</div>"))
    else:
        parts.append(_section("length", "Game length", "No game has a result yet.", ""))
    bars: list[_Bar] = []
    for t in s.decks:
        if t.first is not None and t.later is not None and (t.first.games or t.later.games):
            bars.append(_Bar(t.name, "playing first", t.first, PALETTE[0]))
            bars.append(_Bar(t.name, "playing later", t.later, PALETTE[1]))
    seats = [_Bar("every seat", t.name, t, PALETTE[2 + i]) for i, t in enumerate(s.starts)
             if t.games]
    takes = [_Bar("mulligans", t.name, t, PALETTE[4 + i]) for i, t in enumerate(s.mulligans)
             if t.games]
    if bars or seats or takes:
        body = '<div class="grid-of-plots">'
        if bars:
            body += _rate_bars("first-by-deck", "Each deck playing first and later", bars)
        if seats or takes:
            body += _rate_bars("first-overall", "Every seat: who played first, mulligans",
                               seats + takes)
        parts.append(_section(
            "first", "Who played first",
            "Win rates of the seats that played first and of the others (games whose "
            "starting player the log does not say are left out), with their intervals.",
            body + "</div>"))
    else:
        parts.append(_section("first", "Who played first",
                              "No stored game says who played first.", ""))
    kills, finishes = store.kill_totals("permanent"), store.kill_totals("player")
    computed = kills is None or finishes is None
    if kills is None or finishes is None:  # an older library, read as it is
        kills, finishes = kills_from_logs(store, progress)
    plots = "".join(_card_plot(what, rows, s.games) for what, rows in
                    zip(CARD_PLOTS, (deaths, kills, finishes), strict=True) if rows)
    parts.append(_section(
        "deaths-by-card", "Deaths by card",
        "The cards whose permanents were put into a graveyard from the battlefield most "
        "often (destroyed, sacrificed, dead of lethal damage or of zero toughness ...); the "
        "cards to blame for those deaths (the source whose damage was lethal, the spell or "
        "ability that destroyed or sacrificed it); and the cards that made a player lose "
        "(their damage or effect took the last of the life). Over every stored game, with "
        "how many games it happened in. A death a player chose of their own accord (a "
        "sacrifice to pay a cost) has no card to blame."
        + (" (This library was written by an older mtgk, without an index of kills: they "
           "were counted from its logs for this page.)" if computed else ""),
        f'<div class="grid-of-plots">{plots}</div>' if plots else
        '<p class="note">No permanent died and no player lost in any stored game.</p>'))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'\">"
            '<meta name="generator" content="mtgk db report">'
            f"<title>{_e(name)} — mtgk game library report</title>"
            f"<style>{CSS}</style></head><body>" + "".join(parts) + "</body></html>\n")


def write_report(path: str | Path, store: SqliteStore, name: str,
                 progress: Callable[[int], None] | None = None) -> int:
    """Write :func:`build_report`'s page to ``path``; its size in bytes."""
    data = build_report(store, name, progress).encode("utf-8")
    with open(path, "wb") as fp:
        fp.write(data)
    return len(data)
