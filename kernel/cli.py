"""The ``mtgk`` command line.

::

    mtgk play   [--seed N] [--out FILE] [--decks A [B]] [--agents KIND [KIND]] [--max-turns N]
    mtgk log    FILE [--json] [--as PLAYER] [--type T ...] [--from N] [--to N]
    mtgk replay FILE --at N [--as PLAYER] [--json]
    mtgk verify FILE [--repair]
    mtgk scenario ...            (the scenario runner, kernel.scenario.runner)

Global options (before or after the command): ``-v`` (more diagnostics;
``-vv`` for debug), ``--log-json`` (diagnostics as JSON lines), ``--strict``
(a card set or plugin that fails to load is an error).  Results go to
standard output, diagnostics and errors to standard error.

Exit status: 0 success; 1 the check failed (``verify``), the log is damaged
(a torn tail: the readable prefix is still shown) or the engine failed; 2 bad
input (unknown options, files, decks, players, event numbers; unreadable
logs).

A subcommand is one function decorated with :func:`command`: it adds its
arguments to the parser it is given and returns the function that runs it.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import secrets
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import IO, Any

import msgspec
import structlog

from kernel import diag
from kernel.agents import HeuristicAgent, RandomAgent
from kernel.cards import Registry
from kernel.decks import DeckError, builtin_decks, deck_lines, load_deck
from kernel.engine import Agent, Game
from kernel.events import EVENT_TYPES, Envelope
from kernel.logfile import (
    CorruptLogError,
    ForeignFileError,
    LogError,
    LogFile,
    LogHeader,
    LogWriter,
    NewerVersionError,
    TruncatedLogError,
    load_log,
    repair_log,
    write_jsonl,
)
from kernel.plugins import PluginError, load_registry
from kernel.render import Renderer, event_json, mask_state, render_state
from kernel.replay import DEFAULT_MAX_TURNS, new_header, replay_to, run_from_header, verify

__all__ = ["AGENTS", "UserError", "command", "main"]

log = structlog.get_logger("mtgk.cli")

Runner = Callable[[argparse.Namespace], int]
Setup = Callable[[argparse.ArgumentParser], Runner]

AGENTS: dict[str, Callable[[int], Agent]] = {
    "heuristic": HeuristicAgent,
    "random": RandomAgent,
}
"""Agent kinds ``mtgk play --agents`` knows: name -> class taking a seed."""

_COMMANDS: list[tuple[str, str, Setup, bool]] = []
_PASSTHROUGH: dict[str, Callable[[list[str]], int]] = {}


class UserError(Exception):
    """Bad input: reported as ``mtgk: error: ...`` with exit status 2 (or ``status``)."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def command(name: str, help: str, common: bool = True) -> Callable[[Setup], Setup]:
    """Register a subcommand: ``setup(parser)`` adds its arguments and returns its runner.

    ``common=False`` leaves out the global options (for commands that pass
    their arguments on to another program).
    """
    def deco(setup: Setup) -> Setup:
        _COMMANDS.append((name, help, setup, common))
        return setup
    return deco


# --------------------------------------------------------------------------
# shared helpers


def _out() -> IO[str]:
    return sys.stdout


def _err(msg: str) -> None:
    print(msg, file=sys.stderr)


def _registry(args: argparse.Namespace) -> Registry:
    try:
        reg = load_registry(strict=bool(getattr(args, "strict", False)))
    except PluginError as exc:
        raise UserError(f"{exc} (--strict makes plugin failures errors)") from None
    return reg


def _log_error_message(exc: LogError, path: str) -> str:
    where = f"byte {exc.offset}" + (f", record {exc.record}" if exc.record is not None else "")
    if isinstance(exc, ForeignFileError):
        return f"{path} is not an mtgk log ({where}): {exc.detail}"
    if isinstance(exc, NewerVersionError):
        return (f"{path} was written by a newer version of mtgk ({where}): {exc.detail}; "
                "upgrade mtgk to read it")
    if isinstance(exc, TruncatedLogError):
        return f"{path} is cut short ({where}): {exc.detail}"
    if isinstance(exc, CorruptLogError):
        return f"{path} is damaged at {where}: {exc.detail}"
    return f"{path}: cannot read the log ({where}): {exc.detail}"


def _read(path: str) -> LogFile:
    """Load a log; problems are reported on stderr; unreadable logs raise UserError."""
    if not os.path.exists(path):
        raise UserError(f"{path}: no such file")
    if os.path.isdir(path):
        raise UserError(f"{path} is a directory, not a log file")
    try:
        lf = load_log(path)
    except LogError as exc:
        raise UserError(_log_error_message(exc, path)) from None
    except OSError as exc:
        raise UserError(f"{path}: {exc.strerror or exc}") from None
    for problem in lf.problems:
        what = "torn" if problem.kind == "torn" else "warning"
        _err(f"mtgk: {what}: {path}: {problem}")
    return lf


def _player(arg: str | None, header: LogHeader) -> int | None:
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
    raise UserError(f"no player {arg!r} in this game (players: "
                    f"{', '.join(f'{i}={n}' for i, n in enumerate(names))})")


def _event_index(n: int, size: int, what: str = "--at") -> int:
    """Event ``n`` (negative: from the end) checked against a log of ``size`` events."""
    i = n + size if n < 0 else n
    if not 0 <= i < size:
        raise UserError(f"{what} {n}: the log has events 0 to {size - 1}" if size else
                        f"{what} {n}: the log has no events")
    return i


def _event_types(wanted: Sequence[str] | None) -> set[str] | None:
    if not wanted:
        return None
    known = sorted(EVENT_TYPES) + ["UnknownEvent"]
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
                raise UserError(f"--type: unknown event type {part!r}{hint}")
            out.add(tag)
    return out


def void(_: object) -> None:
    """Discard a value (lets a function with a result serve as a listener)."""


def _json_line(obj: Any) -> str:
    return msgspec.json.encode(obj).decode()


# --------------------------------------------------------------------------
# mtgk play


@command("play", "play one game between two decks and write its log")
def _play(p: argparse.ArgumentParser) -> Runner:
    p.description = ("Play one game between two decks (built-in decks by name, or deck "
                     "files) with computer agents, write its event log, and print a summary. "
                     "Without --decks the first two built-in decks are used.")
    p.add_argument("--seed", type=int, default=None,
                   help="game seed (default: a random one, printed in the summary)")
    p.add_argument("--out", "-o", default="game.mtgk", metavar="FILE",
                   help="where to write the log (default: %(default)s)")
    p.add_argument("--decks", nargs="+", metavar="DECK",
                   help="one or two decks: built-in deck names or deck files "
                        "(one deck: both players use it)")
    p.add_argument("--agents", nargs="+", metavar="KIND", choices=sorted(AGENTS),
                   help="who plays: one or two of %(choices)s (default: heuristic)")
    p.add_argument("--players", nargs=2, metavar=("NAME0", "NAME1"), default=["Alice", "Bob"],
                   help="player names (default: Alice Bob)")
    p.add_argument("--max-turns", type=int, default=DEFAULT_MAX_TURNS, metavar="N",
                   help="declare a draw after N turns (default: %(default)s)")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing on success")

    def run(args: argparse.Namespace) -> int:
        if args.max_turns < 1:
            raise UserError("--max-turns must be at least 1")
        if args.decks and len(args.decks) > 2:
            raise UserError("--decks takes one or two decks")
        if args.agents and len(args.agents) > 2:
            raise UserError("--agents takes one or two agent kinds")
        reg = _registry(args)
        names = list(args.decks or [])
        if not names:
            builtin = [k for k in builtin_decks(reg) if "/" not in k]
            if len(builtin) < 1:
                raise UserError("no built-in decks are installed: pass deck files with "
                                "--decks FILE [FILE]")
            names = builtin[:2]
        if len(names) == 1:
            names = names * 2
        try:
            decks = [load_deck(n, reg) for n in names]
        except DeckError as exc:
            raise UserError(str(exc)) from None
        seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        kinds = list(args.agents or ["heuristic"])
        if len(kinds) == 1:
            kinds = kinds * 2
        agent_seeds = [seed * 2 + i for i in range(2)]
        agents = [AGENTS[k](s) for k, s in zip(kinds, agent_seeds, strict=True)]
        meta = {"agents": [{"kind": k, "seed": s} for k, s in zip(kinds, agent_seeds,
                                                                    strict=True)],
                "deck_names": names, "max_turns": args.max_turns}
        header = new_header(reg, args.players, [deck_lines(d) for d in decks], seed, meta=meta)
        try:
            writer = LogWriter(args.out, header)
        except OSError as exc:
            raise UserError(f"cannot write {args.out}: {exc.strerror or exc}") from None
        game_ref: list[Game] = []

        def watch(game: Game) -> None:
            game_ref.append(game)
            diag.track(game)
            for env in game.log:
                writer.append(env)
            game.listeners.append(lambda env: void(writer.append(env)))

        log.info("playing", seed=seed, decks=names, agents=kinds)
        try:
            game = run_from_header(reg, header, agents, watch)
        except Exception as exc:  # noqa: BLE001 - report engine failures, keep the log
            n = len(game_ref[0].log) if game_ref else 0
            _err(f"mtgk: error: the engine failed after {n} events: "
                 f"{type(exc).__name__}: {exc}")
            _err(f"mtgk: the log so far is in {args.out}")
            if args.verbose:
                traceback.print_exc(file=sys.stderr)
            return 1
        finally:
            writer.close()
        size = os.path.getsize(args.out)
        if not args.quiet:
            _summary(game, header, args.out, size)
        return 0

    return run


def _summary(game: Game, header: LogHeader, path: str, size: int) -> None:
    s = game.state
    out = _out()
    agents = header.meta.get("agents", [])
    who = [f"{name} ({agents[i]['kind']}, {header.meta['deck_names'][i]})"
           if i < len(agents) else name for i, name in enumerate(header.players)]
    print(f"{' vs '.join(who)}, seed {header.seed}", file=out)
    if s.winner is None or s.winner < 0:
        print(f"result: a draw after {s.turn} turns", file=out)
    else:
        print(f"winner: {s.players[s.winner].name}", file=out)
    n = len(game.log)
    print(f"turns: {s.turn}", file=out)
    print(f"events: {n}", file=out)
    per = size / n if n else 0.0
    print(f"log: {path} ({size} bytes, {per:.1f} bytes/event)", file=out)


# --------------------------------------------------------------------------
# mtgk log


@command("log", "print a game log, one readable line per event")
def _log(p: argparse.ArgumentParser) -> Runner:
    p.description = ("Print a log file (binary .mtgk or JSON Lines) one readable line per "
                     "event, or as JSON Lines with --json. A torn (cut-off) file is reported "
                     "and its intact prefix printed (exit status 1).")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true",
                   help="write JSON Lines (a header line, then one line per event)")
    p.add_argument("--as", dest="as_player", metavar="PLAYER",
                   help="show only what PLAYER (name or index) could see")
    p.add_argument("--type", dest="types", action="extend", nargs="+", metavar="T",
                   help="only events of these types (e.g. DamageDealt SpellCast)")
    p.add_argument("--from", dest="start", type=int, metavar="N",
                   help="first event to show (negative: from the end)")
    p.add_argument("--to", dest="stop", type=int, metavar="N",
                   help="last event to show (negative: from the end)")

    def run(args: argparse.Namespace) -> int:
        types = _event_types(args.types)
        lf = _read(args.file)
        envs = lf.envelopes
        viewer = _player(args.as_player, lf.header)
        n = len(envs)
        start = 0 if args.start is None else (_event_index(args.start, n, "--from") if n else 0)
        stop = n - 1 if args.stop is None else (_event_index(args.stop, n, "--to") if n else -1)
        reg = _registry(args)
        out = _out()
        plain = types is None and viewer is None and start == 0 and stop == n - 1
        if args.json and plain:
            write_jsonl(out, lf.header, envs)
        else:
            r = Renderer(reg, viewer)
            if args.json:
                print(_json_line({"header": _visible_header(lf.header, viewer)}), file=out)
            for env in envs:
                if start <= env.seq <= stop and (types is None or env.event.TAG in types):
                    if args.json:
                        print(_json_line(event_json(env, r)), file=out)
                        r.advance(env)
                    else:
                        print(r.render(env), file=out)
                else:
                    r.advance(env)
        return 1 if lf.torn else 0

    return run


def _visible_header(header: LogHeader, viewer: int | None) -> LogHeader:
    """The header as ``viewer`` may see it: the other players' deck lists are hidden.

    (Library objects are created in deck order, so a deck list would tell
    which card every hidden library object is.)
    """
    if viewer is None:
        return header
    decks = [lines if i == viewer else [] for i, lines in enumerate(header.decks)]
    return msgspec.structs.replace(header, decks=decks)


# --------------------------------------------------------------------------
# mtgk replay


@command("replay", "show the whole game state right after an event")
def _replay(p: argparse.ArgumentParser) -> Runner:
    p.description = ("Show the state of a logged game right after event N: players, "
                     "battlefield (after continuous effects), exile, stack, combat and the "
                     "next decision.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--at", type=int, required=True, metavar="N",
                   help="the event number (negative: from the end; -1 = the last event)")
    p.add_argument("--as", dest="as_player", metavar="PLAYER",
                   help="show only what PLAYER (name or index) could see")
    p.add_argument("--json", action="store_true", help="print the state as JSON")

    def run(args: argparse.Namespace) -> int:
        lf = _read(args.file)
        envs = lf.envelopes
        at = _event_index(args.at, len(envs))
        viewer = _player(args.as_player, lf.header)
        state = replay_to(envs, at)
        out = _out()
        if args.json:
            print(msgspec.json.encode(mask_state(state, viewer)).decode(), file=out)
            return 1 if lf.torn else 0
        reg = _registry(args)
        r = Renderer(reg, viewer)
        for env in envs[:at]:
            r.advance(env)
        print(f"After {r.render(envs[at])}", file=out)
        print(render_state(state, reg, viewer, after=envs[at + 1:], names=r.names), file=out)
        return 1 if lf.torn else 0

    return run


# --------------------------------------------------------------------------
# mtgk verify


@command("verify", "check a log: integrity, and a re-run of the engine against it")
def _verify(p: argparse.ArgumentParser) -> Runner:
    p.description = ("Check a game log: its integrity (checksums, sequence), then re-run the "
                     "engine from its header with the recorded decisions and compare every "
                     "event; then check that folding the log gives the engine's final state. "
                     "Exit status 1 on any failure.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--repair", action="store_true",
                   help="first cut a torn (crash-interrupted) last record off the file")

    def run(args: argparse.Namespace) -> int:
        out = _out()
        path = args.file
        if not os.path.exists(path):
            raise UserError(f"{path}: no such file")
        if args.repair:
            try:
                problem = repair_log(path)
            except LogError as exc:
                print(f"FAILED: cannot repair: {_log_error_message(exc, path)}", file=out)
                return 1
            if problem is None:
                print("repair: nothing to do, the log has no torn tail", file=out)
            else:
                print(f"repaired: {problem}; the file now ends at byte {problem.offset}",
                      file=out)
        try:
            lf = load_log(path)
        except ForeignFileError as exc:
            raise UserError(_log_error_message(exc, path)) from None
        except LogError as exc:
            print(f"FAILED: {_log_error_message(exc, path)}", file=out)
            return 1
        for pr in lf.problems:
            if pr.kind != "torn":
                print(f"warning: {pr}", file=out)
        reg = _registry(args)
        report = verify(lf.header, lf.envelopes, reg)
        for note in report.notes:
            print(f"note: {note}", file=out)
        if report.divergence is not None:
            print(report.summary(), file=out)
            _show_divergence(report.divergence, lf.envelopes, reg, out)
        elif lf.torn:
            torn = next(pr for pr in lf.problems if pr.kind == "torn")
            print(f"FAILED: {torn}", file=out)
            print(f"  the {report.events} intact events before it: {report.summary()}",
                  file=out)
            print(f"  run `mtgk verify --repair {path}` to cut the torn record off", file=out)
            return 1
        else:
            print(report.summary(), file=out)
            for text in report.problems:
                print(f"  {text}", file=out)
        return 0 if report.ok else 1

    return run


def _show_divergence(div: Any, envs: list[Envelope], reg: Registry, out: IO[str]) -> None:
    r = Renderer(reg)
    for env in envs[: div.seq]:
        r.advance(env)
    if div.expected is not None:
        print(f"  log:    {_line(r, div.expected)}", file=out)
    else:
        print("  log:    (ends here)", file=out)
    if div.got is not None:
        print(f"  re-run: {_line(r, div.got)}", file=out)
    else:
        print("  re-run: (no such event)", file=out)


def _line(r: Renderer, env: Envelope) -> str:
    return f"{env.seq} {r.describe(env)}"


# --------------------------------------------------------------------------
# mtgk scenario (implemented by kernel.scenario.runner)


@command("scenario", "run rules scenario files (see `mtgk scenario --help`)", common=False)
def _scenario(p: argparse.ArgumentParser) -> Runner:
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the scenario runner")

    def run(args: argparse.Namespace) -> int:
        return _run_scenario(list(args.args))

    return run


def _run_scenario(argv: list[str]) -> int:
    try:
        mod = importlib.import_module("kernel.scenario.runner")
    except ModuleNotFoundError as exc:
        if exc.name in ("kernel.scenario.runner", "kernel.scenario"):
            raise UserError("the scenario runner (kernel.scenario.runner) is not installed in "
                            "this version of mtgk") from None
        raise
    fn = getattr(mod, "cli_main", None)
    if fn is None:
        raise UserError("kernel.scenario.runner has no cli_main(args) entry point")
    return int(fn(argv) or 0)


_PASSTHROUGH["scenario"] = _run_scenario


# --------------------------------------------------------------------------
# mtgk bench playouts


@command("bench", "benchmarks (reported, not gated): `mtgk bench playouts --games N --seed S`")
def _bench(p: argparse.ArgumentParser) -> Runner:
    p.add_argument("what", choices=["playouts"], help="which benchmark")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--deck", help="deck file or built-in deck name, used by both players "
                   "(default: bench/decks/ogres.txt's 17 Mountain + 23 Gray Ogre)")
    p.add_argument("--max-turns", type=int, default=200, help="a game stops as a draw after "
                   "this many turns (default 200)")
    p.add_argument("--progress", action="store_true", help="print progress while playing")

    def run(args: argparse.Namespace) -> int:
        from kernel.bench import playouts
        if args.games < 1:
            raise UserError("--games must be at least 1")
        reg = _registry(args)
        if args.deck:
            try:
                deck = load_deck(args.deck, reg)
            except DeckError as exc:
                raise UserError(str(exc)) from None
        else:
            deck = ["Mountain"] * 17 + ["Gray Ogre"] * 23
        r = playouts(reg, deck, args.games, seed=args.seed, max_turns=args.max_turns,
                     progress=args.progress)
        print(f"{r.games / r.seconds:.1f} games/s, {r.decisions / r.seconds:.0f} decisions/s, "
              f"{r.events / r.seconds:.0f} events/s", file=_out())
        print(r.line(), file=_out())
        return 0

    return run


from kernel import cli_view  # noqa: E402, F401 - registers view, sim and db

# --------------------------------------------------------------------------
# the parser and main


def _add_common(p: argparse.ArgumentParser, suppress: bool) -> None:
    p.add_argument("-v", "--verbose", action="count",
                   default=argparse.SUPPRESS if suppress else 0,
                   help="more diagnostics on stderr (-vv: debug)")
    p.add_argument("--log-json", action="store_true",
                   default=argparse.SUPPRESS if suppress else False,
                   help="write diagnostics as JSON lines")
    p.add_argument("--strict", action="store_true",
                   default=argparse.SUPPRESS if suppress else False,
                   help="a card set or plugin that fails to load is an error")


def build_parser() -> argparse.ArgumentParser:
    """The ``mtgk`` argument parser, with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="mtgk", description="mtgk: an event-sourced rules kernel for Magic: The Gathering")
    _add_common(parser, suppress=False)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text, setup, common in _COMMANDS:
        sp = sub.add_parser(name, help=help_text, description=help_text,
                            add_help=common)
        if common:
            _add_common(sp, suppress=True)
        sp.set_defaults(_run=setup(sp))
    return parser


_GLOBAL_FLAGS = ("--log-json", "--strict", "--verbose")


def _split_global(argv: list[str]) -> tuple[list[str], list[str]]:
    """Leading global options, and the rest (starting with the command)."""
    i = 0
    while i < len(argv) and (argv[i] in _GLOBAL_FLAGS or
                             (argv[i].startswith("-v") and set(argv[i][1:]) == {"v"})):
        i += 1
    return argv[:i], argv[i:]


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mtgk`` with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    glob, rest = _split_global(args_list)
    parser = build_parser()
    try:
        if rest and rest[0] in _PASSTHROUGH:
            args = parser.parse_args(glob)
            _configure(args)
            return _guard(lambda: _PASSTHROUGH[rest[0]](rest[1:]), args)
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else 2
    _configure(args)
    run: Runner | None = getattr(args, "_run", None)
    if run is None:
        parser.print_help(sys.stderr)
        return 2
    return _guard(lambda: run(args), args)


def _configure(args: argparse.Namespace) -> None:
    diag.configure(verbosity=int(getattr(args, "verbose", 0) or 0),
                   json=bool(getattr(args, "log_json", False)))


def _guard(fn: Callable[[], int], args: argparse.Namespace) -> int:
    try:
        return fn()
    except UserError as exc:
        _err(f"mtgk: error: {exc}")
        return exc.status
    except BrokenPipeError:  # e.g. `mtgk log game.mtgk | head`
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the final flush
        except OSError:
            pass
        return 0
    except KeyboardInterrupt:
        _err("mtgk: interrupted")
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
