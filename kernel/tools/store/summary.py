"""The library's numbers: win rates with their Wilson intervals (:class:`Tally`,
:func:`wilson`), distributions of game lengths (:class:`Distribution`, :func:`quantile`)
and the whole :class:`Summary` ``mtgk db summary`` prints (:func:`summarize`)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple

from mtgk.tools.store.facts import winning_seats

__all__ = [
    "Distribution",
    "Summary",
    "SummaryRow",
    "Tally",
    "UNKNOWN_DECK",
    "VARIANT_NAMES",
    "Z95",
    "quantile",
    "summarize",
    "wilson",
]


Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion of ``wins`` in ``n`` (95% by default):
    ``(0.0, 1.0)`` when ``n`` is 0.

    >>> [round(x, 4) for x in wilson(5, 10)]
    [0.2366, 0.7634]
    """
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    lo = 0.0 if wins <= 0 else max(0.0, centre - half)
    hi = 1.0 if wins >= n else min(1.0, centre + half)
    return lo, hi


@dataclass
class Tally:
    """Results of one deck (or player, or group of seats) over the games it played.

    A deck that plays both seats of a game (a mirror match) is counted once
    per seat: one win and one loss, or two draws.  In a team game (Two-Headed Giant)
    every seat of the winning team wins.  ``first`` and ``later`` are
    the same counts over the games it played first and those where another seat
    did (games whose starting player is unknown are in neither).
    """

    name: str
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    unfinished: int = 0
    first: Tally | None = None
    later: Tally | None = None

    @property
    def decided(self) -> int:
        """Games with a result (draws included)."""
        return self.games - self.unfinished

    @property
    def win_rate(self) -> float:
        """Wins over games with a result (draws count as games, not wins)."""
        return self.wins / self.decided if self.decided else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The win rate's Wilson 95% interval (:func:`wilson`)."""
        return wilson(self.wins, self.decided)

    def count(self, winner: int | None, seat: int,
              teams: Sequence[Sequence[int]] | None = None) -> None:
        """Count one game ``seat`` played that ``winner`` won (-1 a draw, None no result);
        with ``teams`` (lists of seats), ``seat`` wins when it is on the winner's team."""
        self.games += 1
        if winner is None:
            self.unfinished += 1
        elif winner < 0:
            self.draws += 1
        elif seat in winning_seats(winner, teams):
            self.wins += 1
        else:
            self.losses += 1

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "games": self.games, "wins": self.wins,
                             "losses": self.losses, "draws": self.draws,
                             "unfinished": self.unfinished,
                             "win_rate": round(self.win_rate, 6),
                             "interval": [round(x, 6) for x in self.interval]}
        for key in ("first", "later"):
            sub = getattr(self, key)
            if sub is not None:
                d[key] = sub.to_json()
        return d


def quantile(xs: Sequence[int], q: float) -> float:
    """The ``q`` quantile of sorted ``xs`` by linear interpolation between order statistics
    (what ``numpy.quantile`` does by default): ``quantile([1, 2, 3, 4], 0.5) == 2.5``."""
    if not xs:
        raise ValueError("no values")
    h = (len(xs) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (h - lo) * (xs[hi] - xs[lo])


def _bin_width(lo: int, hi: int, most: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50 ... that puts ``lo..hi`` into ``most`` bins."""
    width, steps = 1, (2, 5 / 2, 2)  # 1, 2, 5, 10, 20, 50, ...
    k = 0
    while (hi // width - lo // width + 1) > most:
        width = int(round(width * steps[k % 3]))
        k += 1
    return width


@dataclass
class Distribution:
    """How a whole number (a game's turns, its events) is spread over games: the count,
    mean, minimum, p10, median (p50), p90, maximum (:func:`quantile`), and a histogram of
    at most :attr:`BINS` bins of equal width (1, 2, 5, 10, 20 ...): ``bins`` holds
    ``(lowest, highest, games)`` of every bin from the first value's to the last's."""

    BINS = 12

    count: int
    mean: float
    min: int
    p10: float
    p50: float
    p90: float
    max: int
    bins: list[tuple[int, int, int]]

    @classmethod
    def of(cls, values: Iterable[int]) -> Distribution | None:
        """The distribution of ``values``; ``None`` when there are none."""
        xs = sorted(values)
        if not xs:
            return None
        width = _bin_width(xs[0], xs[-1], cls.BINS)
        first = xs[0] // width
        counts = [0] * (xs[-1] // width - first + 1)
        for x in xs:
            counts[x // width - first] += 1
        bins = [((first + i) * width, (first + i + 1) * width - 1, n)
                for i, n in enumerate(counts)]
        return cls(count=len(xs), mean=statistics.fmean(xs), min=xs[0],
                   p10=quantile(xs, 0.1), p50=quantile(xs, 0.5), p90=quantile(xs, 0.9),
                   max=xs[-1], bins=bins)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["mean"] = round(self.mean, 6)
        d["bins"] = [{"from": a, "to": b, "games": n} for a, b, n in self.bins]
        return d


@dataclass
class Summary:
    """What the whole library says: results per deck and player, by who played first,
    game lengths.

    Game lengths (``turns_*``, ``events_*``, and their :class:`Distribution` in
    ``turns`` and ``events``) are over the games with a result; ``None`` when
    there are none.  ``starts`` has two tallies over every seat of the games whose
    starting player is known: the seats that played first, and the others;
    ``mulligans`` two over the seats whose mulligans are known: the seats that kept
    their first seven cards, and those that took a mulligan or more.  ``variants``
    counts the games of each variant (:data:`VARIANT_NAMES`); ``teams`` has a tally per
    team of the team games (named by its players, ``"Alice & Carol"``), counted once per
    game.
    """

    games: int
    decided: int
    draws: int
    unfinished: int
    errors: int
    decks: list[Tally]
    players: list[Tally]
    turns_mean: float | None
    turns_median: float | None
    events_mean: float | None
    events_median: float | None
    starts: list[Tally] = field(default_factory=list)
    mulligans: list[Tally] = field(default_factory=list)
    turns: Distribution | None = None
    events: Distribution | None = None
    variants: dict[str, int] = field(default_factory=dict)
    teams: list[Tally] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        for key in ("decks", "players", "starts", "mulligans", "teams"):
            d[key] = [t.to_json() for t in getattr(self, key)]
        for key in ("turns", "events"):
            dist = getattr(self, key)
            d[key] = dist.to_json() if dist is not None else None
        return d


class SummaryRow(NamedTuple):
    """What :func:`summarize` needs of one game."""

    players: list[str]
    decks: list[str | None]
    winner: int | None
    turns: int
    events: int
    failed: bool
    starting_player: int | None = None
    mulligans: list[int] | None = None
    variant: str = ""
    teams: list[list[int]] | None = None


VARIANT_NAMES = {"": "two-player", "free_for_all": "free-for-all",
                 "two_headed_giant": "Two-Headed Giant"}
"""How :class:`Summary`'s ``variants`` name a game's variant (``meta.variant``)."""


UNKNOWN_DECK = "(unknown deck)"
"""What a seat without a deck name counts as in the results per deck."""


def summarize(rows: Iterable[tuple[Any, ...]]) -> Summary:
    """A :class:`Summary` of :class:`SummaryRow` rows (or plain tuples of their fields:
    ``(players, decks, winner, turns, events, failed[, starting_player, mulligans,
    variant, teams])``).

    Shared by the backends so that they agree on every number.
    """
    games = decided = draws = unfinished = errors = 0
    decks: dict[str, Tally] = {}
    players: dict[str, Tally] = {}
    starts = [Tally("played first"), Tally("played later")]
    takes = [Tally("kept seven"), Tally("took a mulligan")]
    variants: dict[str, int] = {}
    teams: dict[str, Tally] = {}
    turns: list[int] = []
    events: list[int] = []
    for row in rows:
        r = SummaryRow(*row)
        winner = r.winner
        kind = VARIANT_NAMES.get(r.variant, r.variant) if r.variant or len(r.players) <= 2 \
            else VARIANT_NAMES["free_for_all"]
        variants[kind] = variants.get(kind, 0) + 1
        for team in r.teams or ():
            name = " & ".join(r.players[i] for i in team if i < len(r.players))
            teams.setdefault(name, Tally(name)).count(winner, team[0], r.teams)
        games += 1
        errors += int(r.failed)
        if winner is None:
            unfinished += 1
        else:
            turns.append(r.turns)
            events.append(r.events)
            if winner < 0:
                draws += 1
            else:
                decided += 1
        for seat, name in enumerate(r.players):
            deck = r.decks[seat] if seat < len(r.decks) else None
            first = None if r.starting_player is None else \
                seat in winning_seats(r.starting_player, r.teams)  # (a team plays first)
            for table, key in ((players, name), (decks, deck or UNKNOWN_DECK)):
                t = table.setdefault(key, Tally(key, first=Tally(key), later=Tally(key)))
                t.count(winner, seat, r.teams)
                if first is not None:
                    sub = t.first if first else t.later
                    assert sub is not None
                    sub.count(winner, seat, r.teams)
            if first is not None:
                starts[0 if first else 1].count(winner, seat, r.teams)
            if r.mulligans is not None and seat < len(r.mulligans):
                takes[0 if r.mulligans[seat] == 0 else 1].count(winner, seat, r.teams)

    def order(table: dict[str, Tally]) -> list[Tally]:
        return sorted(table.values(), key=lambda t: (-t.win_rate, -t.games, t.name))

    def mean(xs: list[int]) -> float | None:
        return statistics.fmean(xs) if xs else None

    def median(xs: list[int]) -> float | None:
        return float(statistics.median(xs)) if xs else None

    return Summary(games=games, decided=decided, draws=draws, unfinished=unfinished,
                   errors=errors, decks=order(decks), players=order(players),
                   turns_mean=mean(turns), turns_median=median(turns),
                   events_mean=mean(events), events_median=median(events),
                   starts=starts, mulligans=takes,
                   turns=Distribution.of(turns), events=Distribution.of(events),
                   variants=variants, teams=order(teams))
