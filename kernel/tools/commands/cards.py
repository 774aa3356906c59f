"""``mtgk cards [QUERY] [--set NAME] [--text]``: the cards of the loaded sets whose name,
type line or Oracle text contains QUERY (any case), one line each: name, mana cost, type
line, set.

(Answered from the kept catalog without loading the sets when one is kept:
:mod:`mtgk.tools.entry`; the words are :func:`mtgk.tools.installed.print_cards`.)
"""

from __future__ import annotations

import argparse
import sys

from mtgk.cards.catalog import remember
from mtgk.tools.cli_base import Runner, UserError, registry
from mtgk.tools.installed import print_cards

__all__ = ["setup"]


def setup(p: argparse.ArgumentParser) -> Runner:
    """``mtgk cards``'s arguments, added to ``p``; returns the function that runs it."""
    p.add_argument("query", nargs="?", default="", help="text to look for (any case); "
                   "nothing lists every card")
    p.add_argument("--set", dest="set_name", help="only this card set")
    p.add_argument("--text", action="store_true", help="print each card's Oracle text too")

    def run(args: argparse.Namespace) -> int:
        reg = registry(args)
        if args.set_name and args.set_name not in reg.sets:
            raise UserError(f"no card set {args.set_name!r} is loaded (loaded: "
                            f"{', '.join(sorted(reg.sets))}; see `mtgk sets`)")
        return print_cards(remember(reg), args.query, args.set_name, args.text, sys.stdout)
    return run
