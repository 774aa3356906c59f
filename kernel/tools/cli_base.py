"""What the ``mtgk`` subcommands share: bad-input errors, reading a log with its problems
reported, the game options of ``play`` and ``sim``, the moment options of ``replay`` and
``scenario export``, the global options' set-up.

The commands themselves are the modules of :mod:`mtgk.tools.commands`, one a command, each
built on this module (none imports another's); :mod:`mtgk.tools.cli` lists them.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

import msgspec

from mtgk import diag
from mtgk.cards.decks import DeckError, builtin_decks, load_deck
from mtgk.cards.definitions import Registry
from mtgk.cards.loading import PluginError, load_registry
from mtgk.games.replay import DEFAULT_MAX_TURNS
from mtgk.log.events import EVENT_TYPES, Envelope
from mtgk.log.logfile import (
    CorruptLogError,
    ForeignFileError,
    LogBreak,
    LogError,
    LogFile,
    LogHeader,
    NewerVersionError,
    TruncatedLogError,
    decode_log,
    load_log,
    newer_kernel,
    problem_summary,
)
from mtgk.render import Renderer, clean, fold_note
from mtgk.rules.engine import DEFAULT_MAX_EVENTS
from mtgk.rules.seats import (
    ATTACK_MULTIPLE,
    ATTACK_OPTIONS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    attack_meta,
    player_count_problem,
)
from mtgk.search import AGENTS
from mtgk.tools.debug import find_moment
from mtgk.tools.human import HumanAgent

PEOPLE: dict[str, Callable[[int], Any]] = {"human": HumanAgent}
"""Agent kinds that are a person at the terminal (``mtgk play`` only: not ``sim``, ``branch``
or anything else that plays without one)."""

Runner = Callable[[argparse.Namespace], int]
"""What runs a command: ``run(args)`` returns the exit status."""


class UserError(Exception):
    """Bad input: reported as ``mtgk: error: ...`` with exit status 2 (or ``status``)."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


# --------------------------------------------------------------------------
# shared helpers


def stdout() -> IO[str]:
    """Where results go: standard output (as it is now)."""
    return sys.stdout


def err(msg: str) -> None:
    """Print ``msg`` on standard error."""
    print(msg, file=sys.stderr)


def registry(args: argparse.Namespace) -> Registry:
    try:
        reg = load_registry(strict=bool(getattr(args, "strict", False)))
    except PluginError as exc:
        raise UserError(f"{exc} (--strict makes plugin failures errors)") from None
    return reg


def log_error_message(exc: LogError, path: str) -> str:
    where = f"byte {exc.offset}" + (f", record {exc.record}" if exc.record is not None else "")
    if isinstance(exc, ForeignFileError):
        return f"{path} is not an mtgk log ({where}): {exc.detail}"
    if isinstance(exc, NewerVersionError):
        return f"{path} was written by a newer version of mtgk ({where}): {exc.detail}"
    if isinstance(exc, TruncatedLogError):
        return f"{path} is cut short ({where}): {exc.detail}"
    if isinstance(exc, CorruptLogError):
        after = after_damage(exc.log.breaks[0], path) if exc.log and exc.log.breaks else ""
        return f"{path} is damaged at {where}: {exc.detail}{after}"
    return f"{path}: cannot read the log ({where}): {exc.detail}"


def after_damage(brk: LogBreak, path: str) -> str:
    """What reads after a damaged record, as the end of a sentence."""
    n = len(brk.envelopes)
    if brk.resume is None:
        return "; nothing after it could be read"
    how = "with their own checksums holding" if brk.checked else "line by line"
    if brk.lost == 0:
        return (f"; only its stored checksum is damaged: the next record's checksum confirms "
                f"its contents, and the {n} records from it on read {how} (`mtgk log {path}` "
                "shows them)")
    return (f"; the log is broken at record {brk.record}: {n} record"
            f"{'' if n == 1 else 's'} after the damage (from byte {brk.resume}) read {how} "
            f"(`mtgk log {path}` shows them)")


_plugins_imported = False


def import_plugins() -> None:
    """Import the installed card sets and plugins once, so that the event types they
    define are known when a log is read (load failures are reported by the registry)."""
    global _plugins_imported
    if _plugins_imported:
        return
    _plugins_imported = True
    from mtgk.cards import loading

    loading.import_plugins()  # (timed there: -v reports each plugin's load time)


def library_game(path: str) -> tuple[str, int] | None:
    """``LIBRARY:ID`` (``games.db:14``) read as game ID of a game library, as (library, id);
    ``None`` for anything else -- a file that exists by that name is a file."""
    if os.path.exists(path):
        return None
    library, sep, gid = path.rpartition(":")
    if not sep or not library or not (gid.isascii() and gid.isdigit()) or len(gid) > 18:
        return None
    return library, int(gid)


def log_stem(path: str) -> str:
    """What files made from a log are named after: the log's name without its suffix, or
    ``games-14`` for game 14 of the library ``games.db``."""
    game = library_game(path)
    if game is not None:
        return f"{os.path.splitext(game[0])[0]}-{game[1]}"
    return os.path.splitext(path)[0]


def load(path: str, salvage: bool = False) -> LogFile:
    """Read a log file, or a game of a library (``LIBRARY:ID``, :func:`library_game`):
    a missing file, a directory, a refused library or an unknown id raise UserError;
    what reading the log raises (:class:`LogError`, ``OSError``) is the caller's."""
    game = library_game(path)
    if game is None:
        if not os.path.exists(path):
            raise UserError(f"{path}: no such file")
        if os.path.isdir(path):
            raise UserError(f"{path} is a directory, not a log file")
        return load_log(path, salvage=salvage)
    from mtgk.tools.store import StoreError, open_store

    library, gid = game
    if not os.path.exists(library):
        raise UserError(f"{path}: no such file (nor a game library {library})")
    try:
        with open_store(library, must_exist=True) as store:
            stored = store.get(gid)
            count = store.count() if stored is None else 0
    except StoreError as exc:
        raise UserError(str(exc)) from None
    if stored is None:
        raise UserError(f"{library}: no game {gid} (the library holds {count} game"
                        f"{'s' if count != 1 else ''}; `mtgk db list --db {library}`)")
    return decode_log(stored.log, salvage=salvage, name=path)


def read(path: str, salvage: bool = False) -> LogFile:
    """Load a log; problems are reported on stderr; unreadable logs raise UserError.

    ``path`` is a log file, or ``LIBRARY:ID`` for a game of a game library (a file that
    exists by that name wins).

    Card sets and plugins are imported first, so that their event types are known.
    Problems are summarized: one line per unknown event type (naming the first
    such event, its byte offset and stored version), and a note if the log comes
    from a newer kernel.  A damaged log raises UserError, unless ``salvage``: then
    it is returned with the damage in ``breaks`` (reported on stderr); its
    ``envelopes`` are the intact events before the damage.
    """
    import_plugins()
    try:
        lf = load(path, salvage=salvage)
    except LogError as exc:
        raise UserError(log_error_message(exc, path)) from None
    except OSError as exc:
        raise UserError(f"{path}: {exc.strerror or exc}") from None
    newer = newer_kernel(lf.header)
    if newer:
        err(f"mtgk: warning: {path}: {newer}")
    for kind, line in problem_summary(lf):
        what = "torn" if kind == "torn" else "warning"
        err(f"mtgk: {what}: {path}: {line}")
    if any(p.kind != "torn" for p in lf.problems):
        err(f"mtgk: note: {path}: events this kernel cannot read are shown as unknown events "
             "and left out when states are computed")
    for brk in lf.breaks:
        err(f"mtgk: damaged: {path}: {brk}{after_damage(brk, path)}")
    if lf.breaks:
        first = lf.breaks[0].record
        err(f"mtgk: note: {path}: "
             + (f"only events 0 to {first - 1} are the log in sequence; " if first else
                "no event before the damage could be read; ")
             + "records read after damage are shown after a line marking the break"
             + ("" if all(b.exact for b in lf.breaks) else
                " (numbers marked ~ are a guess: how many records the damage destroyed is "
                "unknown)") + ", and no state is computed from them")
    return lf


def player(arg: str | None, header: LogHeader) -> int | None:
    """A player given by name (any case) or index, as an index."""
    if arg is None:
        return None
    names = list(header.players)
    for i, n in enumerate(names):
        if n == arg:
            return i
    folded = [n.casefold() for n in names]
    if arg.casefold() in folded:
        return folded.index(arg.casefold())
    if arg.isdigit() and int(arg) < len(names):
        return int(arg)
    raise UserError(clean(f"no player {arg!r} in this game (players: "
                          f"{', '.join(f'{i}={n}' for i, n in enumerate(names))})"))


def event_index(n: int, size: int, what: str = "--at") -> int:
    """Event ``n`` (negative: from the end) checked against a log of ``size`` events."""
    i = n + size if n < 0 else n
    if not 0 <= i < size:
        raise UserError(f"{what} {n}: the log has events 0 to {size - 1}" if size else
                        f"{what} {n}: the log has no events")
    return i


def known_event_types() -> dict[str, str]:
    """Every event type the kernel, the installed card sets and the plugins define:
    tag -> the module that defines it (``UnknownEvent``: events a log holds that no
    loaded code knows)."""
    import_plugins()
    known = {tag: cls.__module__ for tag, cls in EVENT_TYPES.items()}
    known["UnknownEvent"] = "mtgk.log.logfile"
    return dict(sorted(known.items()))


def event_types(wanted: Sequence[str] | None, option: str = "--type") -> set[str] | None:
    """The event types named in ``wanted`` (names or comma-separated lists, any case),
    or ``None`` for "all"; an unknown name is a :class:`UserError` naming ``option``."""
    if not wanted:
        return None
    known = list(known_event_types())
    folded = {k.casefold(): k for k in known}
    out: set[str] = set()
    for w in wanted:
        for part in w.split(","):
            part = part.strip()
            if not part:
                continue
            tag = folded.get(part.casefold())
            if tag is None:
                close = difflib.get_close_matches(part, known, n=3)
                hint = f" (did you mean {', '.join(close)}?)" if close else ""
                raise UserError(f"{option}: unknown event type {part!r}{hint} "
                                "(`mtgk log --types` lists them)")
            out.add(tag)
    return out


def void(_: object) -> None:
    """Discard a value (lets a function with a result serve as a listener)."""


def json_line(obj: Any) -> str:
    return msgspec.json.encode(obj).decode()


def add_game_args(p: argparse.ArgumentParser, decks_help: str, people: bool = False) -> None:
    """The options ``mtgk play`` and ``mtgk sim`` share: --decks, --agents, --players,
    --max-turns, --max-events and --timeout (checked, and the decks loaded, by
    :func:`game_decks`)."""
    from mtgk.tools.sim import DEFAULT_TIMEOUT

    p.add_argument("--decks", nargs="+", metavar="DECK", help=decks_help)
    p.add_argument("--agents", nargs="+", metavar="KIND",
                   choices=sorted({**AGENTS, **PEOPLE}) if people else sorted(AGENTS),
                   help="who plays: one kind per seat of %(choices)s, dealt round "
                        "(default: heuristic)")
    p.add_argument("--players", nargs="+", metavar="N|NAME", default=None,
                   help=f"how many players ({MIN_PLAYERS} to {MAX_PLAYERS}: --players 4) or "
                        "their names in turn order (default: Alice Bob; three or four players play a "
                        "free-for-all game)")
    p.add_argument("--variant", choices=["free-for-all", "two-headed-giant"], default=None,
                   help="a multiplayer variant: two-headed-giant is four players, Alice & "
                        "Carol against Bob & Dave (the first and third seats against the "
                        "second and fourth), with a shared life of 30 per team")
    p.add_argument("--attack", choices=list(ATTACK_OPTIONS), default=ATTACK_MULTIPLE,
                   help="a free-for-all game's attack option (CR 802-804): attack multiple "
                        "players (one combat attacks any opponents, the default), or only "
                        "the opponent to the left (the next in turn order) or right; "
                        "recorded in the log's header")
    p.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS, metavar="N",
                   help="declare a draw after N turns (default: %(default)s)")
    p.add_argument("--max-events", type=int, default=DEFAULT_MAX_EVENTS, metavar="N",
                   help="the event budget: the engine stops a game that reaches N events, "
                        "a failure (default: %(default)s; recorded in the log)")
    p.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                   help="stop a game still being played after SECONDS of wall-clock time, "
                        "a failure (default: %(default)g; 0: no limit)")


DEFAULT_NAMES = ("Alice", "Bob", "Carol", "Dave")
"""The players' names when ``--players`` gives a number (or nothing: two)."""


def seat_names(args: argparse.Namespace) -> None:
    """Check ``--players`` (a number of players or their names) and ``--variant``, and set
    ``args.players`` to the names, ``args.variant`` to the engine's variant name (``""``:
    a two-player game) and ``args.teams`` to the teams (player indices)."""
    given = list(getattr(args, "players", None) or [])
    variant = (getattr(args, "variant", None) or "").replace("-", "_")
    if len(given) == 1 and given[0].isdigit():
        count = int(given[0])
        if player_count_problem(count):
            raise UserError(f"--players: {player_count_problem(count)}")
        names = list(DEFAULT_NAMES[:count])
    elif given:
        names = given
    else:
        names = list(DEFAULT_NAMES[:4 if variant == "two_headed_giant" else 2])
    if player_count_problem(len(names)):
        raise UserError(f"--players: {player_count_problem(len(names))}")
    if len(set(names)) != len(names):
        raise UserError("--players: the players need different names")
    teams: list[list[int]] = []
    if variant == "two_headed_giant":
        if len(names) != 4:
            raise UserError("--variant two-headed-giant is played by four players")
        teams = [[0, 2], [1, 3]]
    elif variant == "free_for_all" and len(names) == 2:
        variant = ""  # (a two-player game)
    elif len(names) > 2:
        variant = "free_for_all"
    args.players, args.variant, args.teams = names, variant, teams
    try:
        args.attack_meta = attack_meta(getattr(args, "attack", "") or "", len(names), variant)
    except ValueError as err:
        raise UserError(f"--attack: {err}") from None


def game_decks(args: argparse.Namespace) -> tuple[Registry, list[str], list[list[str]]]:
    """Check the options of :func:`add_game_args` and load the registry and the two
    decks: ``(registry, deck names, deck card lists)``. Without --decks the first two
    built-in decks are used; one deck is used by both players."""
    if args.max_turns < 1:
        raise UserError("--max-turns must be at least 1")
    if args.max_events < 1:
        raise UserError("--max-events must be at least 1")
    if not args.timeout >= 0:  # (not NaN either)
        raise UserError("--timeout must be 0 (no limit) or more seconds")
    seat_names(args)  # (checks --players and --variant)
    n = len(args.players)
    if args.decks and len(args.decks) > n:
        raise UserError(f"--decks takes one to {n} decks (one per player, dealt round)")
    if args.agents and len(args.agents) > n:
        raise UserError(f"--agents takes one to {n} agent kinds (one per player, dealt round)")
    reg = registry(args)
    names = list(args.decks or [])
    if not names:
        names = [k for k in builtin_decks(reg) if "/" not in k][:2]
        if not names:
            raise UserError("no built-in decks are installed: pass deck files with "
                            "--decks FILE [FILE]")
    names = [names[i % len(names)] for i in range(n)]  # dealt round the seats
    try:
        decks = [load_deck(n, reg) for n in names]
    except DeckError as exc:
        raise UserError(str(exc)) from None
    return reg, names, decks


def versus(items: Sequence[str], teams: Sequence[Sequence[int]] | None = None) -> str:
    """Seats' names (or decks) side against side: ``Alice vs Bob``, and by team where
    there are teams (Two-Headed Giant: ``Alice & Carol vs Bob & Dave``).

    >>> versus(["Alice", "Bob", "Carol", "Dave"], [[0, 2], [1, 3]])
    'Alice & Carol vs Bob & Dave'
    >>> versus(["Alice", "Bob", "Carol"])
    'Alice vs Bob vs Carol'
    """
    if not teams or any(not 0 <= p < len(items) for t in teams for p in t):
        return " vs ".join(items)
    return " vs ".join(" & ".join(items[p] for p in t) for t in teams)


def fold_warning(r: Renderer) -> None:
    """Warn on standard error of the events ``r`` could not fold into its state."""
    if r.fold_errors:
        err(fold_message(r.fold_errors))


def fold_message(errors: Sequence[tuple[int, str]]) -> str:
    """The warning about events that could not be folded (:func:`fold_note`)."""
    return f"mtgk: warning: {fold_note(errors)}"


def moment_arg(args: argparse.Namespace, envs: Sequence[Envelope], what: str = "--at",
               broken: str = "") -> int:
    """The event ``--at N`` or ``--turn T [--step S]`` designates (exactly one is needed).

    ``broken``: the log is damaged or torn after its events ``envs`` (what happened, for
    the message); a moment past them is then the damaged file's failure (exit status 1),
    not bad usage."""
    if args.turn is None and args.step is not None:
        raise UserError("--step needs --turn")
    if (args.at is None) == (args.turn is None):
        raise UserError(f"give either {what} N or --turn T [--step S]")
    if args.at is not None:
        if broken and args.at >= len(envs):
            raise UserError(f"{what} {args.at}: the log is {broken} before event {args.at}: "
                            f"only events 0 to {len(envs) - 1} are the log in sequence",
                            status=1)
        return event_index(args.at, len(envs), what)
    try:
        return find_moment(envs, args.turn, args.step)
    except LookupError as exc:
        if broken:
            raise UserError(f"{exc} (the log is {broken} after event {len(envs) - 1}; the "
                            "moment may be in what was lost)", status=1) from None
        raise UserError(str(exc)) from None


@contextlib.contextmanager
def folding() -> Iterator[None]:
    """Report a log that cannot be folded (events this kernel can't read left objects
    out) as an error (exit status 1), not a traceback."""
    try:
        yield
    except (KeyError, IndexError, ValueError, AttributeError) as exc:
        raise UserError(f"the game state cannot be computed from this log: "
                        f"{type(exc).__name__}: {exc} (does it hold events this kernel "
                        "cannot read?)", status=1) from None


def cause_text(cause: int) -> str:
    """An event's cause in words (where two events differ only in it)."""
    return "no cause" if cause < 0 else f"caused by event {cause}"


def event_line(r: Renderer, env: Envelope) -> str:
    """``N text``: event ``env`` described by ``r`` (which has seen the events before it)."""
    return f"{env.seq} {r.describe(env)}"


def add_common(p: argparse.ArgumentParser, suppress: bool) -> None:
    """The global options (``-v``, ``--log-json``, ``--strict``) on ``p``."""
    diag.add_common_options(p, suppress)


def configure(args: argparse.Namespace) -> None:
    """Set up the diagnostics the global options ask for."""
    diag.configure(verbosity=int(getattr(args, "verbose", 0) or 0),
                   json=bool(getattr(args, "log_json", False)))
