"""``mtgk db``: the game library: list, find, summarize and export stored games."""

from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path

from mtgk.log.logfile import LogError, decode_log, write_jsonl
from mtgk.render import clean
from mtgk.tools.cli_base import Runner, UserError, event_types, json_line, read, stdout, versus
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

__all__ = ["setup"]


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


def setup(p: argparse.ArgumentParser) -> Runner:
    """``mtgk db``'s arguments, added to ``p``; returns the function that runs it."""
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
    out = stdout()
    if args.json:
        for r in records:
            print(json_line(r.to_json()), file=out)
    elif records:
        print(_records_table(records), file=out)
    else:
        print("no games", file=out)


def _db_find(args: argparse.Namespace) -> int:
    event = None
    if args.event:
        known = event_types([args.event], "--event") if "," not in args.event else None
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
    out = stdout()
    if args.json:
        print(json_line(s.to_json()), file=out)
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
    out = stdout()
    if args.json:
        print(json_line({**r.to_json(), "event_types": types, "died": died,
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
    print(f"game {gid} → {path} ({os.path.getsize(path)} bytes)", file=stdout())
    return 0


def _db_add(args: argparse.Namespace) -> int:
    from mtgk.log.logfile import encode_log
    from mtgk.tools.store import game_facts

    logs = [read(path) for path in args.files]  # every file read before one is added
    ids = []
    out = stdout()
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
                    "bytes; open it in a browser"), file=stdout())
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
