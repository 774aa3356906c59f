"""Diagnostics: how the kernel's structlog loggers are set up by the command line.

(Named ``diag`` rather than ``logging`` so that it is never confused with the
standard library module, and with the game *log*.)

Diagnostics go to standard error, never to standard output (which carries
the commands' results).  They are quiet by default (warnings and errors
only); ``verbosity=1`` shows info, ``2`` debug.  ``json=True`` writes one JSON
object per line for machines.

Every message is bound to the game it is about: :func:`track` makes a game
publish its seed (``game``) and the number of the event being processed
(``event``) through context variables, which :func:`configure` adds to each
message.  Filtered-out calls cost well under a microsecond, so loggers may
stay in place on warm paths; keep them off the per-event hot path unless
guarded.

>>> import io
>>> out = io.StringIO()
>>> configure(verbosity=0, json=True, stream=out)
>>> log = structlog.get_logger("mtgk.test")
>>> log.debug("hidden")
>>> with game_context(seed=7):
...     log.warning("shown", card="Shock")
>>> print(out.getvalue().strip())
{"card": "Shock", "event": "shown", "game": 7, "level": "warning", "logger": "mtgk.test"}
>>> structlog.reset_defaults()
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import sys
from collections.abc import Iterator, MutableMapping
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, TextIO

import structlog

if TYPE_CHECKING:
    from mtgk.log.events import Envelope
    from mtgk.rules.engine import Game

__all__ = ["add_common_options", "configure", "game_context", "track"]

_GAME: ContextVar[int | None] = ContextVar("mtgk_game", default=None)
_EVENT: ContextVar[int | None] = ContextVar("mtgk_event", default=None)

_LEVELS = {0: logging.WARNING, 1: logging.INFO}


def _add_game(logger: Any, method: str, event_dict: MutableMapping[str, Any]
              ) -> MutableMapping[str, Any]:
    game = _GAME.get()
    if game is not None:
        event_dict.setdefault("game", game)
    n = _EVENT.get()
    if n is not None:
        event_dict.setdefault("event_no", n)
    return event_dict


def _logger_name(logger: Any, method: str, event_dict: MutableMapping[str, Any]
                 ) -> MutableMapping[str, Any]:
    name = event_dict.pop("logger_name", None)
    if name is None:
        name = getattr(logger, "name", None)
    if name:
        event_dict.setdefault("logger", name)
    return event_dict


class _NamedPrintLogger(structlog.PrintLogger):
    def __init__(self, file: TextIO, name: str | None) -> None:
        super().__init__(file)
        self.name = name


def configure(verbosity: int = 0, json: bool = False, stream: TextIO | None = None) -> None:
    """Set up structlog for the command line (call once, early; calling again reconfigures).

    ``verbosity`` 0 = warnings, 1 = info, 2+ = debug; ``json`` for JSON lines;
    ``stream`` defaults to standard error.
    """
    level = _LEVELS.get(verbosity, logging.DEBUG)
    out = stream if stream is not None else sys.stderr

    def factory(*args: Any) -> _NamedPrintLogger:
        return _NamedPrintLogger(out, args[0] if args else None)

    processors: list[Any] = [
        structlog.contextvars.merge_contextvars,
        _add_game,
        structlog.processors.add_log_level,
        _logger_name,
        structlog.processors.format_exc_info,
    ]
    if json:
        processors.append(structlog.processors.JSONRenderer(sort_keys=True))
    else:
        processors.append(structlog.dev.ConsoleRenderer(colors=False))
    structlog.configure(
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=factory,
        cache_logger_on_first_use=False,
    )


def add_common_options(p: argparse.ArgumentParser, suppress: bool = False) -> None:
    """Add the options every ``mtgk`` command takes, with the same meaning everywhere:
    ``-v``/``--verbose`` (more diagnostics, ``-vv`` debug), ``--log-json`` (diagnostics
    as JSON lines) and ``--strict`` (a card set or plugin that fails to load is an error).

    ``suppress=True`` gives them no default, so that a subcommand's parser does not
    overwrite values given before the subcommand's name.

    >>> p = argparse.ArgumentParser()
    >>> add_common_options(p)
    >>> a = p.parse_args(["-vv", "--strict"])
    >>> a.verbose, a.strict, a.log_json
    (2, True, False)
    """
    p.add_argument("-v", "--verbose", action="count",
                   default=argparse.SUPPRESS if suppress else 0,
                   help="more diagnostics on stderr (-vv: debug; tracebacks of failures)")
    p.add_argument("--log-json", action="store_true",
                   default=argparse.SUPPRESS if suppress else False,
                   help="write diagnostics as JSON lines")
    p.add_argument("--strict", action="store_true",
                   default=argparse.SUPPRESS if suppress else False,
                   help="a card set or plugin that fails to load is an error")


@contextlib.contextmanager
def game_context(seed: int | None = None) -> Iterator[None]:
    """Bind diagnostics inside the block to the game with ``seed``."""
    token = _GAME.set(seed)
    etoken = _EVENT.set(None)
    try:
        yield
    finally:
        _EVENT.reset(etoken)
        _GAME.reset(token)


def track(game: Game) -> None:
    """Bind diagnostics to ``game``: its seed, and the number of each event as it is emitted."""
    _GAME.set(game.seed)
    _EVENT.set(len(game.log) - 1 if game.log else None)

    def on_event(env: Envelope) -> None:
        _EVENT.set(env.seq)

    game.listeners.append(on_event)
