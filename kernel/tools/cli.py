"""The ``mtgk`` command line.

::

    mtgk play    [--seed N] [--out FILE] [--decks A [B ...]] [--agents KIND ...] [--max-turns N]
                 [--players N | --players NAME ...] [--variant two-headed-giant]
    mtgk serve   [--port N] [--host ADDR] [--open] [--decks A [B ...]] [--opponent KIND]
                 [--players ... | --variant ...] [--log PATH]   (play in the browser)
    mtgk log     FILE [--json] [--as PLAYER] [--type T ...] [--card NAME] [--player P]
                 [--turn T] [--step S] [--from N] [--to N]
    mtgk replay  FILE (--at N | --turn T [--step S]) [--as PLAYER] [--json]
    mtgk verify  FILE [--repair]
    mtgk explain FILE N [--depth D] [--as PLAYER] [--json]
    mtgk diff    FILE A B [--as PLAYER] [--json]      (two moments of one game)
    mtgk diff    FILE1 FILE2 [--context K] [--json]   (where two logs part)
    mtgk branch  FILE --at N [--choice JSON | --agent KIND] [--seed S] [--out FILE]
    mtgk upgrade OLD [--out NEW] [--agent KIND] [--seed S] [--json]
    mtgk scenario export FILE (--at N | --turn T [--step S]) [--out FILE] [--check]
    mtgk scenario ...            (the scenario runner, mtgk.scenario.runner)

A FILE (LOG) may also be ``LIBRARY:ID``, game ID of a game library (``games.db:14``); a
file that exists by that name is read as a file.

Debugging saved logs is described in docs/debugging.md.

Global options (before or after the command): ``-v`` (more diagnostics;
``-vv`` for debug), ``--log-json`` (diagnostics as JSON lines), ``--strict``
(a card set or plugin that fails to load is an error).  Results go to
standard output, diagnostics and errors to standard error.

Exit status: 0 success; 1 the check failed (``verify``), the log is damaged
(a torn tail: the readable prefix is still shown) or the engine failed; 2 bad
input (unknown options, files, decks, players, event numbers; unreadable
logs); ``verify`` also 3 (incomplete) and 4 (intact, written by other rules).

Each command is a module of :mod:`mtgk.tools.commands` (``mtgk play`` is
:mod:`mtgk.tools.commands.play`), listed in :data:`COMMANDS` with its one-line help: its
``setup(parser)`` adds its arguments to the parser it is given and returns the function
that runs it; a command that parses its own arguments (``scenario``, ``campaign``) also has
``pass_through(arguments, global options)``.  A command's module is imported only when
that command is parsed (``mtgk log FILE`` imports the ``log`` command alone).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from mtgk.cards.catalog import remember
from mtgk.cards.errors import CardError
from mtgk.cards.loading import PluginError
from mtgk.tools.cli_base import Runner, UserError, add_common, configure, err, registry, stdout
from mtgk.tools.installed import print_version

__all__ = ["COMMANDS", "Command", "UserError", "build_parser", "main"]


@dataclass(frozen=True)
class Command:
    """One ``mtgk`` command: its name, its one-line help, and whether it takes the global
    options (``common=False``: it passes its arguments on to another program, through its
    module's ``pass_through``)."""

    name: str
    help: str
    common: bool = True

    @property
    def module(self) -> str:
        """The module that implements it: :mod:`mtgk.tools.commands` ``.NAME``."""
        return f"mtgk.tools.commands.{self.name}"

    def load(self) -> ModuleType:
        """Its module, imported."""
        return importlib.import_module(self.module)


COMMANDS: tuple[Command, ...] = (
    Command("play", "play one game between two decks and write its log"),
    Command("log", "print a game log, one readable line per event"),
    Command("replay", "show the whole game state right after an event, or as a step began"),
    Command("verify", "check a log: integrity, and a re-run of the engine against it"),
    Command("explain", "why did an event happen? its chain of causes, and its consequences"),
    Command("diff", "what changed between two events of a log, or where two logs part"),
    Command("branch", "what if? replay a game to a decision, change it, and play on"),
    Command("upgrade", "re-run an old log's decisions under today's rules and write a new "
                       "log, saying where the two games part"),
    Command("scenario", "run rules scenario files, or export a position from a log as one "
                        "(`mtgk scenario export --help`)", common=False),
    Command("campaign", "random games over the whole card pool, each checked (validated "
                        "mode, fold, verify, trigger causes)", common=False),
    Command("bench", "benchmarks (reported, not gated): `mtgk bench playouts --games N "
                     "--seed S`, `mtgk bench forks --games N --seed S`"),
    Command("view", "write a game as one self-contained HTML page to step through in a "
                    "browser"),
    Command("sim", "play many games in parallel processes into the game library"),
    Command("db", "the game library: list, find, summarize and export stored games"),
    Command("sets", "the installed card sets and plugins: versions, card counts, failures"),
    Command("cards", "find cards by name, type or text across the loaded card sets"),
    Command("serve", "play a game against the computer in the browser (a local web app)"),
)
"""Every ``mtgk`` command, in the order ``mtgk --help`` lists them."""

PASSTHROUGH = {c.name: c for c in COMMANDS if not c.common}
"""The commands that parse their own arguments (the global options given before the
command's name are passed on to them)."""


class CommandParser(argparse.ArgumentParser):
    """A command's parser: its command's module adds the arguments the first time the
    parser is used (to parse, or to print its ``--help``), so that only the command that
    runs is imported.  (A parser a command's arguments make, ``mtgk db``'s, has no
    ``command``.)"""

    def __init__(self, *args: Any, command: Command | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.command = command

    def ready(self) -> None:
        """Add the command's arguments (once)."""
        c, self.command = self.command, None
        if c is not None:
            self.set_defaults(_run=c.load().setup(self))

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self.ready()
        return super().parse_known_args(args, namespace)


def build_parser() -> argparse.ArgumentParser:
    """The ``mtgk`` argument parser, with every command of :data:`COMMANDS`."""
    parser = argparse.ArgumentParser(
        prog="mtgk", description="mtgk: an event-sourced rules kernel for Magic: The Gathering")
    add_common(parser, suppress=False)
    parser.add_argument("--version", action="store_true",
                        help="print the kernel's version and the installed card sets and "
                             "plugins with their versions, then exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND",
                                parser_class=CommandParser)
    for c in COMMANDS:
        sp = sub.add_parser(c.name, help=c.help, description=c.help, add_help=c.common,
                            command=c)
        if c.common:
            add_common(sp, suppress=True)
    return parser


_GLOBAL_FLAGS = ("--log-json", "--strict", "--verbose", "--version")


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
        if rest and rest[0] in PASSTHROUGH and "--version" not in glob:
            args = parser.parse_args(glob)
            configure(args)
            # the global options go on to the passed-through command, which takes them too
            # (so `mtgk --strict scenario X` and `mtgk scenario --strict X` are the same)
            pass_on = [a for a in glob if a != "--version"]
            return _guard(lambda: PASSTHROUGH[rest[0]].load().pass_through(rest[1:], pass_on),
                          args)
        args = parser.parse_args(args_list)
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else 2
    configure(args)
    if getattr(args, "version", False):
        return _guard(lambda: _print_version(args), args)
    run: Runner | None = getattr(args, "_run", None)
    if run is None:
        parser.print_help(sys.stderr)
        return 2
    return _guard(lambda: run(args), args)


def _print_version(args: argparse.Namespace) -> int:
    """``mtgk --version``: the kernel, then every card set and plugin with its version
    (:func:`mtgk.tools.installed.print_version`, of the sets just loaded)."""
    return print_version(remember(registry(args)), stdout())


def _guard(fn: Callable[[], int], args: argparse.Namespace) -> int:
    try:
        return fn()
    except UserError as exc:
        err(f"mtgk: error: {exc}")
        return exc.status
    except PluginError as exc:  # --strict: a card set or plugin failed to load
        err(f"mtgk: error: {exc}")
        return 2
    except CardError as exc:  # a card's own code failed: name the card, not the engine
        err(f"mtgk: error: {exc}" +
             ("" if getattr(args, "verbose", 0) else " (run with -v to see the traceback)"))
        if getattr(args, "verbose", 0):
            traceback.print_exception(exc.error, file=sys.stderr)
        return 1
    except BrokenPipeError:  # e.g. `mtgk log game.mtgk | head`
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the final flush
        except OSError:
            pass
        return 0
    except KeyboardInterrupt:
        err("mtgk: interrupted")
        return 130
    except Exception as exc:  # noqa: BLE001 - no traceback reaches a user unless asked for
        err(f"mtgk: error: internal error: {type(exc).__name__}: {exc}" +
             ("" if getattr(args, "verbose", 0) else " (run with -v to see the traceback)"))
        if getattr(args, "verbose", 0):
            traceback.print_exc(file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
