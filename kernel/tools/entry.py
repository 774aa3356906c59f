"""The ``mtgk`` command's entry point: the commands that only tell what is installed are
answered from the catalog kept for what is installed (:mod:`mtgk.cards.catalog`, without
importing the kernel's rules), every other one -- and these when no catalog is kept yet --
by :func:`mtgk.tools.cli.main`, whose answer to them keeps one.

``mtgk --version``, ``mtgk sets`` and ``mtgk cards [QUERY] [--set NAME] [--text]`` print
the same words either way (:mod:`mtgk.tools.installed` prints for both); with any other option (``--strict``, ``-v``,
``--help`` ...) the full command line answers.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from mtgk.cards.catalog import cached
from mtgk.tools.installed import print_cards, print_sets, print_version

__all__ = ["main"]


def _fast(argv: Sequence[str]) -> int | None:
    """The exit status of a command answered from the kept catalog, ``None`` if it isn't
    one or no catalog is kept for what is installed now (the full command line then loads
    the sets, and keeps their catalog)."""
    if list(argv) not in (["--version"], ["sets"]) and (not argv or argv[0] != "cards"):
        return None
    c = cached()
    if c is None:
        return None
    if list(argv) == ["--version"]:
        return print_version(c, sys.stdout)
    if list(argv) == ["sets"]:
        return print_sets(c, sys.stdout)
    query, set_name, text = "", None, False
    rest = list(argv[1:])
    while rest:
        a = rest.pop(0)
        if a == "--text":
            text = True
        elif a == "--set" and rest and not rest[0].startswith("-"):
            set_name = rest.pop(0)
        elif not a.startswith("-") and not query:
            query = a
        else:
            return None  # anything else: the full command line says what it means
    if set_name and set_name not in {s.name for s in c.sets}:
        return None  # (its error names the loaded sets)
    return print_cards(c, query, set_name, text, sys.stdout)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``mtgk`` with ``argv`` (default: ``sys.argv[1:]``); returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        status = _fast(args)
    except Exception:  # noqa: BLE001 - whatever went wrong, the full command line tells it
        status = None
    if status is not None:
        return status
    from mtgk.tools.cli import main as full
    return full(args)
