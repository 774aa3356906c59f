"""A scenario's log file: ``mtgk scenario --log DIR`` and what ``mtgk verify`` needs to
re-run it.

A scenario's log is an ordinary game log (:mod:`mtgk.log.logfile`) whose header says
which scenario it is and how the runner set it up (:func:`scenario_log_header`);
:class:`ScenarioLogs` names one run's files apart (:func:`log_file_name`).  A scenario
that starts from the opening hands is re-run by :func:`run_opening_hands_log`, registered
for :data:`OPENING_HANDS_KIND` logs as this module is imported.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mtgk.cards.definitions import Registry
from mtgk.games.replay import (
    DEFAULT_MAX_TURNS,
    Watch,
    register_rerunner,
    start_game,
)
from mtgk.log import events as ev
from mtgk.log.logfile import LogHeader, write_log
from mtgk.rules.engine import Game, GameOver
from mtgk.rules.seats import ATTACK_MULTIPLE
from mtgk.scenario.play import ScenarioResult
from mtgk.scenario.rerun import SCENARIO_SETUP, SETUP_EVENTS

MAX_LOG_NAME = 80
"""The longest file name stem ``mtgk scenario --log`` writes (before ``.mtgk``)."""


class ScenarioLogError(Exception):
    """A scenario's log cannot be written (the message says why, in one line)."""


def log_file_name(name: str) -> str:
    """A safe file name stem for a scenario's log: letters, digits, ``-``, ``_``
    and ``.`` (other characters become ``_``), no leading dot, at most
    :data:`MAX_LOG_NAME` characters.  A name that had to be changed gets a short
    hash of the original, so different names never share a stem.

    >>> log_file_name("shock-the-bears"), log_file_name("a_b")
    ('shock-the-bears', 'a_b')
    >>> log_file_name("a/b")
    'a_b-c14cddc0'
    >>> len(log_file_name("x" * 300))
    80
    """
    safe = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_.") else "_"
                   for ch in name).lstrip(".")
    if safe == name and 0 < len(name) <= MAX_LOG_NAME:
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{safe[:MAX_LOG_NAME - 9] or 'scenario'}-{digest}"


class ScenarioLogs:
    """Writes the logs of one ``mtgk scenario --log DIR`` run: one file per scenario,
    named by :func:`log_file_name`; two scenarios of the same name in one run get
    ``-2``, ``-3`` ... so no log of the run overwrites another.

    Raises :class:`ScenarioLogError` if ``out_dir`` is not a directory and can't be
    made one.
    """

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = out_dir
        self.taken: set[str] = set()
        if out_dir.exists() and not out_dir.is_dir():
            raise ScenarioLogError(f"--log {out_dir}: not a directory")
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ScenarioLogError(f"--log {out_dir}: cannot make the directory: "
                                   f"{exc.strerror or exc}") from None

    def path_for(self, name: str) -> Path:
        """The file the log of the scenario ``name`` goes to (reserved for it)."""
        stem = log_file_name(name)
        unique, k = stem, 1
        while unique.casefold() in self.taken:  # (case-insensitive file systems too)
            k += 1
            unique = f"{stem}-{k}"
        self.taken.add(unique.casefold())
        return self.out_dir / f"{unique}.mtgk"

    def write(self, result: ScenarioResult, reg: Registry) -> Path | None:
        """Write ``result``'s log; ``None`` (nothing written) if the scenario never
        started a game (e.g. it names an unknown card)."""
        if result.game is None:
            return None
        path = self.path_for(result.name)
        try:
            write_log(path, scenario_log_header(result, reg), result.log)
        except OSError as exc:
            raise ScenarioLogError(f"cannot write {path}: {exc.strerror or exc}") from None
        return path


def scenario_log_header(result: ScenarioResult, reg: Registry) -> LogHeader:
    """The header of a scenario's log: players, card sets, no decks, seed 0 (as the
    runner plays it), and in ``meta`` the scenario's name, file and the number of
    events it produced (``scenario_end``, so that ``mtgk verify`` can tell a log
    cut short from a whole one) and how this runner sets a scenario up
    (``scenario_setup``, :data:`mtgk.scenario.rerun.SCENARIO_SETUP`)."""
    g = result.game
    players = [p.name for p in g.state.players] if g else []
    meta: dict[str, Any] = {"scenario": result.name, "file": result.file,
                            "scenario_end": len(result.log), "scenario_setup": SCENARIO_SETUP}
    if g is not None and g.attack_option != ATTACK_MULTIPLE:
        meta["attack"] = g.attack_option  # (a free-for-all game's option; default: multiple)
    opening = opening_hands_start(result.log)
    if opening is not None:  # a scenario from the opening hands: re-run by this module
        meta["kind"] = OPENING_HANDS_KIND
        meta["opening_hands"] = list(opening)
    multiplayer = g is not None and bool(g.state.variant)
    if g is not None and g.state.variant:  # a multiplayer game: its variant and teams
        meta["variant"] = g.state.variant
        if g.state.teams:
            meta["teams"] = [list(t) for t in g.state.teams]
    return LogHeader(kernel_version=_kernel_version(), players=players,
                     cardsets=[(i.name, i.version) for i in sorted(reg.sets.values(),
                                                                   key=lambda i: i.name)],
                     decks=[], seed=0, meta=meta,
                     events=LogHeader.current_event_table(multiplayer),
                     rules_revision=_rules_revision())


OPENING_HANDS_KIND = "scenario_opening_hands"
"""``meta["kind"]`` of the log of a scenario that starts from the opening hands
(``step: opening_hands``): its setup has no ``TurnBegan``, the players keep or mulligan
(the game's own decisions), then the first turn begins (``meta["opening_hands"]``:
``[turn, active]``).  :func:`run_opening_hands_log` re-runs such logs for ``mtgk verify``."""


def opening_hands_start(log: Sequence[ev.Envelope]) -> tuple[int, int] | None:
    """``(turn, active)`` of the first turn of a scenario that starts from the opening
    hands (its setup, after ``GameStarted`` and a ``GameVariant``, has no ``TurnBegan``);
    ``None`` for another log."""
    start = 2 if len(log) > 1 and isinstance(log[1].event, ev.GameVariant) else 1
    if len(log) <= start or isinstance(log[start].event, ev.TurnBegan):
        return None
    first = next((env.event for env in log if isinstance(env.event, ev.TurnBegan)), None)
    if first is None:
        return None
    return first.turn, first.active


def run_opening_hands_log(registry: Registry, header: LogHeader, agents: Sequence[Any],
                          watch: Watch, log: Sequence[ev.Envelope] = ()) -> Game:
    """Re-run the log of a scenario that starts from the opening hands
    (:data:`OPENING_HANDS_KIND`): its setup events (those before the first decision) again
    as recorded, triggering nothing; then the mulligans and the turns, as the runner plays
    them."""
    turn, active = (int(x) for x in header.meta.get("opening_hands", (1, 0)))
    game = start_game(registry, header, agents)
    watch(game)
    with game.setting_up():
        for env in log[len(game.log):]:
            if not isinstance(env.event, SETUP_EVENTS) or env.cause != -1:
                break
            game.emit(env.event)
    max_turns = int(header.meta.get("max_turns", DEFAULT_MAX_TURNS))
    try:
        game.take_mulligans(active, game.log[-1].seq)
        game.run(first=active, turn=turn, max_turns=max_turns)
    except GameOver:
        pass
    return game


run_opening_hands_log.wants_log = True  # type: ignore[attr-defined]
register_rerunner(OPENING_HANDS_KIND, run_opening_hands_log)


def write_scenario_log(result: ScenarioResult, out_dir: Path, reg: Registry) -> Path | None:
    """Write one scenario's log into ``out_dir`` (see :class:`ScenarioLogs`, which
    also keeps the names of one run's logs apart)."""
    return ScenarioLogs(out_dir).write(result, reg)


def _kernel_version() -> str:
    import mtgk
    return mtgk.__version__


def _rules_revision() -> int:
    import mtgk
    return mtgk.RULES_REVISION
