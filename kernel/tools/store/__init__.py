"""The game library: stored game logs, indexed for queries.

A *game store* keeps whole game logs (the binary log format of
:mod:`mtgk.log.logfile`, byte for byte) together with facts pulled out of them
when they are added: the header fields (players, deck names, agents, seed),
the result (winner, turns, number of events) and two indexes for queries --
which event types occurred in the game (and how often), which cards died
(were put into a graveyard from the battlefield, CR 700.4), and which cards are to blame
for those deaths and for the players' losses (:func:`blame`).  A game is stored
once: adding a log whose bytes equal a stored one's reports that game
(:class:`Added`) instead of adding it again, unless duplicates are allowed.

:class:`GameStore` is the interface (``add``, ``get``, ``list``, ``find``,
``summary``); :class:`SqliteStore` implements it on an embedded SQLite
database (:mod:`sqlite3` from the standard library; ``games.db`` by default).
Other backends implement the same protocol.  Several processes may add to
one SQLite library and read it at once: it is in WAL mode, every game is
added in a short transaction of its own, and a busy library is waited for.
A file that is not a library this code can read (another SQLite database, a
newer schema, a damaged file) is refused with :class:`StoreError` before
anything is written to it.

>>> from mtgk.cards.loading import load_registry
>>> from mtgk.log.logfile import encode_log
>>> from mtgk.games.replay import new_header, run_from_header
>>> reg = load_registry(["core", "lorwyn"])
>>> header = new_header(reg, ["Ann", "Bob"], [["20 Mountain"], ["20 Mountain"]], seed=3,
...                     meta={"max_turns": 3})
>>> game = run_from_header(reg, header)
>>> with SqliteStore(":memory:") as store:
...     added = store.add(encode_log(header, game.log))
...     again = store.add(encode_log(header, game.log))
...     rec = store.get(added.id).record
...     (rec.players, rec.winner, rec.turns, rec.events == len(game.log), again)
(['Ann', 'Bob'], -1, 3, True, Added(id=1, duplicate=True))

The package's modules: :mod:`~mtgk.tools.store.facts` (what is known about a game),
:mod:`~mtgk.tools.store.summary` (win rates and game lengths) and
:mod:`~mtgk.tools.store.sqlite` (the interface and the SQLite backend); the names below
are theirs.
"""

from mtgk.tools.store.facts import (
    BLAME_STEPS,
    BUDGET_REASON,
    DEFAULT_DB,
    RECORD_COLUMNS,
    Added,
    Blame,
    GameFacts,
    GameRecord,
    GameSummary,
    StoredGame,
    StoreError,
    budget_error,
    game_facts,
    header_teams,
    log_digest,
    starting_player_and_mulligans,
    winning_seats,
)
from mtgk.tools.store.sqlite import SCHEMA_VERSION, WAIT_SECONDS, GameStore, SqliteStore, open_store
from mtgk.tools.store.summary import (
    UNKNOWN_DECK,
    VARIANT_NAMES,
    Z95,
    Distribution,
    Summary,
    SummaryRow,
    Tally,
    quantile,
    summarize,
    wilson,
)

__all__ = [
    "Added",
    "BLAME_STEPS",
    "BUDGET_REASON",
    "Blame",
    "DEFAULT_DB",
    "Distribution",
    "GameFacts",
    "GameRecord",
    "GameStore",
    "GameSummary",
    "RECORD_COLUMNS",
    "SCHEMA_VERSION",
    "SqliteStore",
    "StoreError",
    "StoredGame",
    "Summary",
    "SummaryRow",
    "Tally",
    "UNKNOWN_DECK",
    "VARIANT_NAMES",
    "WAIT_SECONDS",
    "Z95",
    "budget_error",
    "game_facts",
    "header_teams",
    "log_digest",
    "open_store",
    "quantile",
    "starting_player_and_mulligans",
    "summarize",
    "wilson",
    "winning_seats",
]
