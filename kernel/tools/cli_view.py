"""``mtgk view``, ``mtgk sim`` and ``mtgk db``: the replay viewer and the game library.

::

    mtgk view FILE [--out FILE.html] [--as PLAYER] [--every K]
    mtgk sim  [--games N] [--workers W] [--seed S] [--decks A [B]] [--agents K [K]]
              [--players N0 N1] [--max-turns N] [--db FILE] [--progress] [--json]
    mtgk db   [--db FILE] list    [--limit N] [--json]
    mtgk db   [--db FILE] find    [--event TYPE] [--died CARD] [--player P] [--deck D]
                                  [--winner NAME|draw] [--json]
    mtgk db   [--db FILE] summary [--json]
    mtgk db   [--db FILE] show ID [--json]
    mtgk db   [--db FILE] export ID [--out FILE.mtgk | --jsonl]
    mtgk db   [--db FILE] add LOG ...
    mtgk db   [--db FILE] report [LIBRARY] [--out FILE.html]

The commands register themselves with :func:`mtgk.tools.cli.command`; importing
this module (``mtgk.tools.cli`` does) is what makes them available.
"""

from __future__ import annotations

import argparse
import io
import os
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path

from mtgk.cards.decks import builtin_decks
from mtgk.log.logfile import LogError, decode_log, write_jsonl
from mtgk.tools.cli_base import (
    Runner,
    UserError,
    command,
)
from mtgk.tools.cli_base import add_game_args as _add_game_args
from mtgk.tools.cli_base import event_types as _event_types
from mtgk.tools.cli_base import game_decks as _game_decks
from mtgk.tools.cli_base import json_line as _json_line
from mtgk.tools.cli_base import log_stem as _log_stem
from mtgk.tools.cli_base import out as _out
from mtgk.tools.cli_base import player as _player
from mtgk.tools.cli_base import read as _read
from mtgk.tools.cli_base import registry as _registry
from mtgk.tools.render import clean
from mtgk.tools.store import (
    DEFAULT_DB,
    Distribution,
    GameRecord,
    SqliteStore,
    StoreError,
    Summary,
    Tally,
    open_store,
)

__all__: list[str] = []


# --------------------------------------------------------------------------
# mtgk view


@command("view", "write a game as one self-contained HTML page to step through in a browser")
def _view(p: argparse.ArgumentParser) -> Runner:
    p.description = (
        "Write a log as a single self-contained HTML file (no server, no network: the page "
        "holds its styles, script and the game) showing both boards, hands, stack, life and "
        "loyalty at every event, the event list, jumping to an event or turn, arrow keys to "
        "step and the cause chain of the selected event. Without --as the page has a "
        "perspective switch (everyone, or each player); with --as it holds only what that "
        "player could see.")
    p.add_argument("file", metavar="FILE", help="a log (binary .mtgk or JSON Lines), or "
                   "LIBRARY:ID for a game of a game library (games.db:14)")
    p.add_argument("--out", "-o", metavar="FILE.html",
                   help="where to write the page (default: FILE with the suffix .html)")
    p.add_argument("--as", dest="as_player", metavar="PLAYER",
                   help="build the page for PLAYER (name or index) only: the hidden "
                        "information is left out of the file")
    p.add_argument("--every", type=int, default=50, metavar="K",
                   help="a full state snapshot every K events, diffs in between "
                        "(default: %(default)s)")
    p.add_argument("--at", type=int, metavar="N",
                   help="open the page at event N (default: the first decision a player made)")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing on success")

    def run(args: argparse.Namespace) -> int:
        from mtgk.tools.sim import Progress
        from mtgk.tools.viewer import write_viewer

        if args.every < 1:
            raise UserError("--every must be at least 1")
        lf = _read(args.file)
        if not lf.envelopes:
            raise UserError(f"{args.file}: the log has no events")
        viewer = _player(args.as_player, lf.header)
        if args.at is not None and not 0 <= args.at < len(lf.envelopes):
            raise UserError(f"--at {args.at}: the log has events 0 to {len(lf.envelopes) - 1}")
        out = args.out or (_log_stem(args.file) + ".html")
        if os.path.abspath(out) == os.path.abspath(args.file):
            raise UserError("--out would overwrite the log itself")
        reg = _registry(args)
        bar = Progress(len(lf.envelopes), sys.stderr, enabled=sys.stderr.isatty() and
                       not args.quiet, unit="events")
        try:
            size, folded = write_viewer(out, lf.header, lf.envelopes, reg, viewer, args.every,
                                        progress=bar.advance, at=args.at, source=args.file)
        except OSError as exc:
            raise UserError(f"cannot write {out}: {exc.strerror or exc}") from None
        finally:
            bar.finish()
        if folded:
            print(f"mtgk: warning: {folded}", file=sys.stderr)
        if not args.quiet:
            who = f" as {lf.header.players[viewer]}" if viewer is not None else ""
            print(clean(f"{out}: {len(lf.envelopes)} events{who}, {size} bytes; open it in a "
                        f"browser"), file=_out())
        return 1 if lf.torn else 0

    return run


# --------------------------------------------------------------------------
# mtgk sim


@command("sim", "play many games in parallel processes into the game library")
def _sim(p: argparse.ArgumentParser) -> Runner:
    p.description = (
        "Play N games between two decks with computer agents, in W worker processes, and "
        "store every log in the game library (a SQLite file). Game i's seed is derived from "
        "--seed and i, so a run gives the same logs whatever the number of workers. A "
        "progress bar is drawn on standard error when it is a terminal (or with --progress).")
    p.add_argument("--games", "-n", type=int, default=10, metavar="N",
                   help="how many games (default: %(default)s)")
    p.add_argument("--workers", "-w", type=int, default=None, metavar="W",
                   help="worker processes (default: one per CPU; 1 plays in this process)")
    p.add_argument("--seed", type=int, default=None,
                   help="the run's seed (default: a random one, printed)")
    _add_game_args(p, decks_help="one deck per player, dealt round the seats: built-in deck "
                                 "names or deck files (default: the first two built-in decks)")
    p.add_argument("--db", default=DEFAULT_DB, metavar="FILE",
                   help="the game library to add the games to (default: %(default)s)")
    p.add_argument("--backend", choices=("process", "ray"), default="process",
                   help="play the games in this machine's worker processes (the default) "
                        "or as Ray tasks (needs mtgk[ray]; a local Ray instance of W CPUs "
                        "unless --address)")
    p.add_argument("--address", metavar="ADDR",
                   help="with --backend ray: the Ray cluster to run on (auto, "
                        "ray://HOST:10001, HOST:6379); W tasks at a time")
    p.add_argument("--progress", action="store_true",
                   help="draw the progress bar even when standard error is not a terminal")
    p.add_argument("--json", action="store_true", help="print the run's result as JSON")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing on success")
    p.add_argument("--allow-duplicates", action="store_true",
                   help="store a game even if the library holds an identical one (the same "
                        "log bytes: the same settings and seed)")

    def run(args: argparse.Namespace) -> int:
        from mtgk.tools.sim import (
            Progress,
            SimError,
            default_workers,
            id_ranges,
            plan,
            retried_note,
            run_sim,
        )

        if args.games < 1:
            raise UserError("--games must be at least 1")
        if args.workers is not None and args.workers < 1:
            raise UserError("--workers must be at least 1")
        if args.address and args.backend != "ray":
            raise UserError("--address is for --backend ray")
        backend = None
        workers = args.workers if args.workers is not None else default_workers(args.games)
        if args.backend == "ray":
            from mtgk.tools.sim_ray import ray_backend

            try:
                backend = ray_backend(workers, args.address,
                                      strict=bool(getattr(args, "strict", False)),
                                      timeout=args.timeout or None)
            except SimError as exc:
                raise UserError(str(exc)) from None
        reg, names, decks = _game_decks(args)
        builtin = builtin_decks(reg)
        # deck files are named by their file name without folder and suffix
        names = [n if n in builtin and not os.path.isfile(n) else Path(n).stem for n in names]
        seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        headers = plan(reg, decks, names, args.games, seed, args.agents or ["heuristic"],
                       args.players, args.max_turns, args.max_events, args.variant, args.teams,
                       attack=args.attack)
        show = args.progress or (sys.stderr.isatty() and not args.quiet)
        progress = Progress(args.games, sys.stderr, enabled=show)
        try:
            with open_store(args.db) as store:
                # the games are played in worker processes even with --workers 1, so that
                # one that crashes its process or outlives --timeout is a failed game
                result = run_sim(reg, headers, store, workers, progress,
                                 strict=bool(getattr(args, "strict", False)),
                                 timeout=args.timeout or None, isolate=True,
                                 allow_duplicates=args.allow_duplicates, backend=backend)
        except StoreError as exc:
            raise UserError(str(exc)) from None
        except SimError as exc:
            raise UserError(str(exc), status=1) from None
        out = _out()
        if args.json:
            print(_json_line({"seed": seed, "games": args.games, "workers": workers,
                              "backend": args.backend,
                              "db": args.db, "decks": names, "players": args.players,
                              **({"variant": args.variant.replace("_", "-"),
                                  "teams": args.teams} if args.variant else {}),
                              **result.to_json()}), file=out)
        elif not args.quiet:
            secs = result.seconds
            rate = args.games / secs if secs > 0 else 0.0
            how = " as Ray tasks" if backend is not None else ""
            sides = versus(names, args.teams)
            print(f"{args.games} games ({sides}), seed {seed}, {workers} "
                  f"worker{'s' if workers != 1 else ''}{how}: {secs:.1f} s, {rate:.1f} games/s, "
                  f"{result.events} events", file=out)
            seats = args.teams or [[i] for i in range(len(args.players))]  # (a win: the
            # team's first player's)
            res = ", ".join(" & ".join(f"{args.players[i]} ({names[i]})" for i in t)
                            + f" won {result.wins[t[0]]}" for t in seats)
            extra = f", {result.unfinished} without a result" if result.unfinished else ""
            extra += f", {len(result.errors)} failed (below)" if result.errors else ""
            print(f"{res}, {result.draws} draw{'s' if result.draws != 1 else ''}{extra}",
                  file=out)
            if result.retried:
                print(retried_note(result.retried), file=out)
            dups = result.duplicates
            again = (f"{len(dups)} game{'s were' if len(dups) != 1 else ' was'} stored "
                     f"already ({id_ranges(dups)}), not added again "
                     "(--allow-duplicates adds them)")
            if not result.ids:
                print(f"nothing new stored in {args.db}: {again}", file=out)
            else:
                print(f"stored in {args.db} ({id_ranges(result.ids)})"
                      + (f"; {again}" if dups else ""), file=out)
        out.flush()  # the summary first, then the failures (even when both go to one pipe)
        for index, error in result.errors:
            print(f"mtgk: game {index} failed: {error}", file=sys.stderr)
        return 1 if result.errors else 0

    return run


# --------------------------------------------------------------------------
# mtgk db


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


def _records_table(records: list[GameRecord]) -> str:
    """A plain text table of games (players and decks by team in a team game)."""
    head = ("id", "players", "decks", "result", "turns", "events", "seed")
    rows = [head]
    for r in records:
        decks = versus([d or "?" for d in r.decks], r.teams)
        result = r.result + (" (failed)" if r.error else "")
        rows.append((str(r.id), versus(r.players, r.teams), decks, result, str(r.turns),
                     str(r.events), str(r.seed)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) if i not in (0, 4, 5) else c.rjust(w)
                       for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip()
             for row in rows]
    return "\n".join(lines)


def _rate(t: Tally) -> str:
    """``54.2% [48.1–60.2]``: a win rate and its Wilson 95% interval (``-`` for no games)."""
    if not t.decided:
        return "-"
    lo, hi = t.interval
    return f"{t.win_rate:.1%} [{lo:.1%}–{hi:.1%}]"


def _tally_lines(tallies: list[Tally], split: bool) -> list[str]:
    """One line per tally; with ``split``, its win rate playing first and later too."""
    w = max(len(t.name) for t in tallies)
    out = []
    for t in tallies:
        games = "games" if t.games != 1 else "game "
        line = (f"  {t.name.ljust(w)}  {t.games:5d} {games}  {t.wins:5d} won  {t.losses:5d} lost  "
                f"{t.draws:4d} drawn  win rate {_rate(t)}")
        out.append(line)
        if split and t.first is not None and t.later is not None and \
                (t.first.games or t.later.games):
            out.append(f"  {''.ljust(w)}  playing first {_rate(t.first)} of {t.first.decided}, "
                       f"later {_rate(t.later)} of {t.later.decided}")
    return out


def _histogram(dist: Distribution, width: int = 40) -> list[str]:
    """A text histogram: one line per bin, a bar of ``#`` scaled to the fullest bin."""
    most = max(n for _, _, n in dist.bins)
    labels = [f"{a}" if a == b else f"{a}–{b}" for a, b, _ in dist.bins]
    w = max(len(x) for x in labels)
    return [f"  {label.rjust(w)}  {'#' * round(n * width / most) if n else ''}"
            f"{' ' if n else ''}{n}".rstrip()
            for label, (_, _, n) in zip(labels, dist.bins, strict=True)]


def _summary_text(s: Summary, path: str) -> str:
    out = [f"{path}: {s.games} game{'s' if s.games != 1 else ''}: {s.decided} won, "
           f"{s.draws} drawn, {s.unfinished} without a result"
           + (f", {s.errors} failed" if s.errors else "")]
    if set(s.variants) - {"two-player"}:  # (a library of two-player games only: as it was)
        out.append("variants: " + ", ".join(f"{n} {name}" for name, n in s.variants.items()))
    if s.turns is not None and s.events is not None:
        out.append(f"game length: turns mean {s.turns_mean:.1f}, median {s.turns_median:g}; "
                   f"events mean {s.events_mean:.1f}, median {s.events_median:g} "
                   f"(over the {s.turns.count} games with a result)")
        for name, d in (("turns", s.turns), ("events", s.events)):
            out.append(f"{name}: p10 {d.p10:g}, p50 {d.p50:g}, p90 {d.p90:g} "
                       f"(min {d.min}, max {d.max}); games by {name}:")
            out.extend(_histogram(d))
    for title, tallies, split in (("decks", s.decks, True), ("players", s.players, True),
                                  ("teams, a team's game counted once", s.teams, False),
                                  ("who played first", s.starts, False),
                                  ("mulligans", s.mulligans, False)):
        if not tallies or not any(t.games for t in tallies):
            continue
        out.append(f"{title} (win rate [Wilson 95% interval]):")
        out.extend(_tally_lines(tallies, split))
    return "\n".join(out)


def _open(path: str) -> SqliteStore:
    try:
        return open_store(path, must_exist=True)
    except StoreError as exc:
        raise UserError(str(exc)) from None


def _game_id(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise UserError(f"{text!r} is not a game id (a number, see `mtgk db list`)") from None
    return n


@command("db", "the game library: list, find, summarize and export stored games")
def _db(p: argparse.ArgumentParser) -> Runner:
    p.description = ("Query the game library that `mtgk sim` fills (a SQLite file, "
                     f"{DEFAULT_DB} by default).")
    p.add_argument("--db", default=DEFAULT_DB, metavar="FILE",
                   help="the game library (default: %(default)s)")
    sub = p.add_subparsers(dest="db_command", metavar="WHAT")
    sub.required = True

    def sp(name: str, help_text: str, json_flag: bool = True) -> argparse.ArgumentParser:
        q = sub.add_parser(name, help=help_text, description=help_text)
        q.add_argument("--db", default=argparse.SUPPRESS, metavar="FILE",
                       help=f"the game library (default: {DEFAULT_DB})")
        if json_flag:
            q.add_argument("--json", action="store_true", help="print JSON")
        return q

    q = sp("list", "list the stored games")
    q.add_argument("--limit", type=int, default=None, metavar="N", help="at most N games")
    q.add_argument("--offset", type=int, default=0, metavar="N", help="skip the first N games")
    q = sp("find", "find the games where something happened (all conditions must hold)")
    q.add_argument("--event", metavar="TYPE", help="an event of this type occurred "
                   "(e.g. DamageRedirected)")
    q.add_argument("--died", metavar="CARD", help="a permanent with this name died "
                   "(was put into a graveyard from the battlefield)")
    q.add_argument("--player", metavar="NAME", help="this player played")
    q.add_argument("--deck", metavar="DECK", help="this deck was played")
    q.add_argument("--winner", metavar="NAME", help="this player or deck won ('draw': drawn)")
    q.add_argument("--limit", type=int, default=None, metavar="N", help="at most N games")
    sp("summary", "win rates per deck and player, game lengths")
    q = sp("show", "one game's details: result, indexed event types and deaths")
    q.add_argument("id", metavar="ID")
    q = sp("export", "write a stored game's log to a file", json_flag=False)
    q.add_argument("id", metavar="ID")
    q.add_argument("--out", "-o", metavar="FILE", help="where (default: game-ID.mtgk)")
    q.add_argument("--jsonl", action="store_true", help="write JSON Lines instead of binary")
    q = sp("add", "add existing log files to the library (a game stored already, the "
                  "same log bytes, is not added again)", json_flag=False)
    q.add_argument("files", nargs="+", metavar="LOG")
    q.add_argument("--allow-duplicates", action="store_true",
                   help="add a log even if the library holds an identical one")

    q = sp("report", "write the library as one self-contained HTML page of plots: win "
                     "rates as games accumulate, game lengths, who played first, deaths by "
                     "card", json_flag=False)
    q.add_argument("library", nargs="?", metavar="LIBRARY",
                   help=f"the game library (the same as --db; default: {DEFAULT_DB})")
    q.add_argument("--out", "-o", metavar="FILE.html",
                   help="where to write the page (default: LIBRARY with the suffix .html)")
    q.add_argument("--quiet", "-q", action="store_true", help="print nothing on success")

    def run(args: argparse.Namespace) -> int:
        try:
            return _DB_COMMANDS[args.db_command](args)
        except StoreError as exc:  # a damaged page met while reading, say
            raise UserError(str(exc)) from None

    return run


def _db_list(args: argparse.Namespace) -> int:
    with _open(args.db) as store:
        records = store.list(args.limit, args.offset)
    _print_records(records, args)
    return 0


def _print_records(records: list[GameRecord], args: argparse.Namespace) -> None:
    out = _out()
    if args.json:
        for r in records:
            print(_json_line(r.to_json()), file=out)
    elif records:
        print(_records_table(records), file=out)
    else:
        print("no games", file=out)


def _db_find(args: argparse.Namespace) -> int:
    event = None
    if args.event:
        known = _event_types([args.event], "--event") if "," not in args.event else None
        if known is None or len(known) != 1:
            raise UserError("--event takes one event type")
        event = next(iter(known))
    if not any([event, args.died, args.player, args.deck, args.winner]):
        raise UserError("say what to find: --event, --died, --player, --deck or --winner")
    with _open(args.db) as store:
        records = store.find(event=event, died=args.died, player=args.player, deck=args.deck,
                             winner=args.winner, limit=args.limit)
    _print_records(records, args)
    return 0


def _db_summary(args: argparse.Namespace) -> int:
    with _open(args.db) as store:
        s = store.summary()
    out = _out()
    if args.json:
        print(_json_line(s.to_json()), file=out)
    else:
        print(_summary_text(s, args.db), file=out)
    return 0


def _db_show(args: argparse.Namespace) -> int:
    gid = _game_id(args.id)
    with _open(args.db) as store:
        g = store.get(gid)
        if g is None:
            raise UserError(f"no game {gid} in {args.db}")
        types = store.event_counts(gid)
        died = store.deaths(gid)
        kills = store.kills(gid)
    r = g.record
    out = _out()
    if args.json:
        print(_json_line({**r.to_json(), "event_types": types, "died": died,
                          "killed": kills["permanent"], "finished": kills["player"]}),
              file=out)
        return 0
    print(_records_table([r]), file=out)
    if r.sim_seed is not None:
        print(f"simulation: seed {r.sim_seed}, game {r.sim_game}", file=out)
    if r.starting_player is not None and r.starting_player < len(r.players):
        takes = ""
        if r.mulligans is not None:
            takes = "; mulligans: " + ", ".join(f"{p} {n}" for p, n in
                                               zip(r.players, r.mulligans, strict=False))
        print(clean(f"played first: {r.players[r.starting_player]}{takes}"), file=out)
    if r.error:
        print(f"failed: {r.error}", file=out)
    print(f"log: {r.size} bytes, kernel {r.kernel_version}, rules {r.profile}, added {r.added}",
          file=out)
    print("events: " + ", ".join(f"{t} {n}" for t, n in sorted(types.items())), file=out)
    for what, counts in (("died", died), ("killed", kills["permanent"]),
                         ("finished a player", kills["player"])):
        if counts or what == "died":
            print(f"{what}: " + (", ".join(f"{c} ×{n}" if n > 1 else c
                                           for c, n in sorted(counts.items())) or "nothing"),
                  file=out)
    return 0


def _db_export(args: argparse.Namespace) -> int:
    gid = _game_id(args.id)
    with _open(args.db) as store:
        g = store.get(gid)
    if g is None:
        raise UserError(f"no game {gid} in {args.db}")
    path = args.out or f"game-{gid}" + (".jsonl" if args.jsonl else ".mtgk")
    try:
        if args.jsonl:
            lf = decode_log(g.log, name=f"game {gid}")
            buf = io.StringIO()
            write_jsonl(buf, lf.header, lf.envelopes)
            with open(path, "w", encoding="utf-8") as fp:
                fp.write(buf.getvalue())
        else:
            with open(path, "wb") as fp:
                fp.write(g.log)
    except OSError as exc:
        raise UserError(f"cannot write {path}: {exc.strerror or exc}") from None
    except LogError as exc:
        raise UserError(f"{args.db}: the stored log cannot be read: {exc}") from None
    print(f"game {gid} → {path} ({os.path.getsize(path)} bytes)", file=_out())
    return 0


def _db_add(args: argparse.Namespace) -> int:
    from mtgk.log.logfile import encode_log
    from mtgk.tools.store import game_facts

    logs = [_read(path) for path in args.files]  # every file read before one is added
    ids = []
    out = _out()
    with _open_for_add(args.db) as store:
        for path, lf in zip(args.files, logs, strict=True):
            # (in the file's own format version, so that a log stored in an older one is
            # found as the same log)
            added = store.add(encode_log(lf.header, lf.envelopes, version=lf.header.format),
                              game_facts(lf.header, lf.envelopes),
                              allow_duplicates=args.allow_duplicates)
            if added.duplicate:
                print(f"{path}: already stored as game {added.id} (the same log), not added "
                      "again (--allow-duplicates adds it)", file=out)
            else:
                ids.append(added.id)
    if ids or not logs:
        print(f"added {len(ids)} game{'s' if len(ids) != 1 else ''} to {args.db} (ids "
              f"{', '.join(map(str, ids))})", file=out)
    return 0


def _open_for_add(path: str) -> SqliteStore:
    try:
        return open_store(path)
    except StoreError as exc:
        raise UserError(str(exc)) from None


def _db_report(args: argparse.Namespace) -> int:
    from mtgk.tools.report import ReportError, write_report
    from mtgk.tools.sim import Progress

    path = args.library if args.library is not None else args.db
    if args.library is not None and args.db not in (DEFAULT_DB, path):
        raise UserError(f"two libraries: {args.library} and --db {args.db}")
    out = args.out or str(Path(path).with_suffix(".html"))
    if os.path.abspath(out) == os.path.abspath(path):
        raise UserError("--out would overwrite the game library itself")
    with _open(path) as store:
        games = store.count()
        # (the logs are read only for a library written before the index of kills)
        bar = Progress(games, sys.stderr, enabled=sys.stderr.isatty() and not args.quiet,
                       unit="logs read")
        try:  # (the page is built whole before the file is opened)
            size = write_report(out, store, path, progress=bar.advance)
        except ReportError as exc:
            raise UserError(str(exc)) from None
        except OSError as exc:
            raise UserError(f"cannot write {out}: {exc.strerror or exc}") from None
        finally:
            if bar.done:
                bar.finish()
    if not args.quiet:
        print(clean(f"{out}: {games} game{'s' if games != 1 else ''} of {path}, {size} "
                    "bytes; open it in a browser"), file=_out())
    return 0


_DB_COMMANDS = {
    "list": _db_list,
    "find": _db_find,
    "summary": _db_summary,
    "show": _db_show,
    "export": _db_export,
    "add": _db_add,
    "report": _db_report,
}
