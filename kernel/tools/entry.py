"""The ``mtgk`` command's entry point: the commands that only tell what is installed are
answered from the catalog kept for what is installed (:mod:`mtgk.cards.catalog`, without
importing the kernel's rules), every other one -- and these when no catalog is kept yet --
by :func:`mtgk.tools.cli.main`, whose answer to them keeps one.

``mtgk --version``, ``mtgk sets`` and ``mtgk cards [QUERY] [--set NAME] [--text]`` print
the same words either way (:func:`print_version`, :func:`print_sets`,
:func:`print_cards` are what both call); with any other option (``--strict``, ``-v``,
``--help`` ...) the full command line answers.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import IO

from mtgk.cards.catalog import Catalog, cached

__all__ = ["main", "print_cards", "print_sets", "print_version"]


def print_version(c: Catalog, out: IO[str]) -> int:
    """``mtgk --version``: the kernel, then every card set and plugin with its version."""
    import mtgk
    from mtgk import kind
    print(f"mtgk {mtgk.__version__} (kernel: {kind.describe()}, {sys.implementation.name} "
          f"{sys.version.split()[0]})", file=out)
    for s in c.sets:
        print(f"card set {s.name} {s.version} ({s.cards + s.tokens} cards)", file=out)
    for p in c.plugins:
        print(f"plugin {p.name} (from {p.package or '?'})", file=out)
    for name, error in c.failures:
        print(f"failed to load: {name}: {error}", file=out)
    return 1 if c.failures else 0


def print_sets(c: Catalog, out: IO[str]) -> int:
    """``mtgk sets``: the card sets (versions, packages, card and token counts), the
    plugins, and what failed to load."""
    print("card sets:", file=out)
    for s in c.sets:
        print(f"  {s.name} {s.version}: {s.cards} cards, {s.tokens} tokens"
              + (f" (package {s.package})" if s.package else ""), file=out)
    print("plugins:", file=out)
    for p in c.plugins:
        print(f"  {p.name} (package {p.package})", file=out)
    for name, error in c.failures:
        print(f"failed: {name}: {error}", file=out)
    return 1 if c.failures else 0


def print_cards(c: Catalog, query: str, set_name: str | None, text: bool, out: IO[str]
                ) -> int:
    """``mtgk cards``: the cards whose name, type line or Oracle text contains ``query``
    (any case), one line each; 1 if none."""
    q = query.lower()
    found = 0
    for card in c.cards:
        if set_name and card.set_code != set_name:
            continue
        if q and not any(q in s.lower() for s in (card.name, card.type_line,
                                                   card.oracle_text)):
            continue
        found += 1
        print(f"{card.name}  {card.mana_cost}  {card.type_line}  [{card.set_code}]".replace(
            "    ", "  "), file=out)
        if text and card.oracle_text:
            for line in card.oracle_text.splitlines():
                print(f"    {line}", file=out)
    print(f"{found} card(s)", file=out)
    return 0 if found else 1


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
