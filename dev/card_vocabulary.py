"""Append the built-in cards the card vocabulary lacks: ``python dev/card_vocabulary.py``.

The card vocabulary (``kernel/data/card_vocabulary.txt``, :func:`mtgk.env.card_vocabulary`)
numbers the cards of the step environment's observations; a number, once published, never
changes (docs/agents.md, "The card vocabulary").  A new built-in card has no number until
it is appended: this script appends every card of the kernel's own card sets (the
``mtgk.cardsets`` entry points of the ``mtgk`` package) that the file lacks, in name
order, raises its ``@version`` by one, and prints the line to add to
``VOCABULARY_SIZES`` in tests/test_env_gym.py.  It never reorders, renames or removes a
line.  ``--check`` only says what it would append (exit 1 if anything).
"""

from __future__ import annotations

import argparse
import importlib.metadata as md
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "kernel" / "data" / "card_vocabulary.txt"


def builtin_card_sets() -> list[str]:
    """The entry-point names of the kernel's own card sets."""
    return sorted(ep.name for ep in md.distribution("mtgk").entry_points
                  if ep.group == "mtgk.cardsets")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="change nothing")
    args = parser.parse_args(argv)
    from mtgk.cards.loading import load_registry

    text = FILE.read_text("utf-8")
    names = {line.strip() for line in text.splitlines()
             if line.strip() and not line.startswith(("#", "@"))}
    cards = load_registry(builtin_card_sets()).cards
    new = sorted(set(cards) - names)
    if not new:
        print("the card vocabulary has every built-in card")
        return 0
    print(f"{len(new)} built-in card(s) without a number: {', '.join(new)}")
    if args.check:
        return 1
    found = re.search(r"^@version (\d+)$", text, re.M)
    if found is None:
        print(f"{FILE}: no @version line", file=sys.stderr)
        return 2
    version = int(found.group(1)) + 1
    text = text[:found.start()] + f"@version {version}" + text[found.end():]
    FILE.write_text(text.rstrip("\n") + "\n" + "".join(f"{n}\n" for n in new), "utf-8")
    print(f"appended; add {version}: {len(names) + len(new)} to VOCABULARY_SIZES in "
          "tests/test_env_gym.py")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
