"""What is installed, in words: ``mtgk --version``, ``mtgk sets`` and ``mtgk cards`` print
a :class:`~mtgk.cards.catalog.Catalog` with these, whether it was kept or just made from
the loaded sets (:mod:`mtgk.tools.entry` and the full command line say the same)."""

from __future__ import annotations

import sys
from typing import IO

from mtgk.cards.catalog import Catalog

__all__ = ["print_cards", "print_sets", "print_version"]


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
