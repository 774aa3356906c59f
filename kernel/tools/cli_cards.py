"""``mtgk sets`` and ``mtgk cards``: what is installed and loaded -- the first place a pack
author checks that a pack loaded.

* ``mtgk sets`` -- every installed card set (its version, its package, how many cards and
  tokens it defines) and mechanics plugin (its package and version), and every plugin that
  failed to load, with why.
* ``mtgk cards [QUERY] [--set NAME]`` -- the cards of the loaded sets whose name, type
  line or Oracle text contains QUERY (any case), one line each: name, mana cost, type
  line, set.
"""

from __future__ import annotations

import argparse
import sys

from mtgk.cards.catalog import remember
from mtgk.cards.definitions import Registry
from mtgk.cards.loading import PluginError, load_registry
from mtgk.tools.cli_base import Runner, UserError, command
from mtgk.tools.installed import print_cards, print_sets


def _load(args: argparse.Namespace) -> Registry:
    try:
        return load_registry(strict=bool(getattr(args, "strict", False)))
    except PluginError as exc:
        raise UserError(f"{exc} (--strict makes plugin failures errors)") from None


@command("sets", "the installed card sets and plugins: versions, card counts, failures")
def _sets(p: argparse.ArgumentParser) -> Runner:
    def run(args: argparse.Namespace) -> int:
        return print_sets(remember(_load(args)), sys.stdout)
    return run


@command("cards", "find cards by name, type or text across the loaded card sets")
def _cards(p: argparse.ArgumentParser) -> Runner:
    p.add_argument("query", nargs="?", default="", help="text to look for (any case); "
                   "nothing lists every card")
    p.add_argument("--set", dest="set_name", help="only this card set")
    p.add_argument("--text", action="store_true", help="print each card's Oracle text too")

    def run(args: argparse.Namespace) -> int:
        reg = _load(args)
        if args.set_name and args.set_name not in reg.sets:
            raise UserError(f"no card set {args.set_name!r} is loaded (loaded: "
                            f"{', '.join(sorted(reg.sets))}; see `mtgk sets`)")
        return print_cards(remember(reg), args.query, args.set_name, args.text, sys.stdout)
    return run
