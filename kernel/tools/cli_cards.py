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
import importlib.metadata as md
import sys

from mtgk.cards.definitions import CardDef, Registry
from mtgk.cards.loading import CARDSET_GROUP, PLUGIN_GROUP, PluginError, load_registry
from mtgk.tools.cli_base import Runner, UserError, command


def _load(args: argparse.Namespace) -> Registry:
    try:
        return load_registry(strict=bool(getattr(args, "strict", False)))
    except PluginError as exc:
        raise UserError(f"{exc} (--strict makes plugin failures errors)") from None


def _is_token(d: CardDef) -> bool:
    return d.facts.type_line.startswith("Token") or (d.facts.mana_cost is None and
                                                     "Land" not in d.facts.types)


@command("sets", "the installed card sets and plugins: versions, card counts, failures")
def _sets(p: argparse.ArgumentParser) -> Runner:
    def run(args: argparse.Namespace) -> int:
        reg = _load(args)
        out = sys.stdout
        dists: dict[str, str] = {}
        for group in (CARDSET_GROUP, PLUGIN_GROUP):
            for ep in md.entry_points(group=group):
                if ep.dist is not None:
                    dists[f"{group}:{ep.name}"] = f"{ep.dist.name} {ep.dist.version}"
        print("card sets:", file=out)
        for name in sorted(reg.sets):
            info = reg.sets[name]
            tokens = sum(1 for d in info.cards if _is_token(d))
            pkg = dists.get(f"{CARDSET_GROUP}:{name}", "")
            print(f"  {name} {info.version}: {len(info.cards) - tokens} cards, {tokens} tokens"
                  + (f" (package {pkg})" if pkg else ""), file=out)
        plugins = sorted(k.split(":", 1)[1] for k in dists if k.startswith(PLUGIN_GROUP))
        print("plugins:", file=out)
        for name in plugins:
            print(f"  {name} (package {dists[f'{PLUGIN_GROUP}:{name}']})", file=out)
        for name, error in reg.failures:
            print(f"failed: {name}: {error}", file=out)
        return 1 if reg.failures else 0
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
        q = args.query.lower()
        found = 0
        for name in sorted(reg.cards):
            d = reg.cards[name]
            if args.set_name and d.set_code != args.set_name:
                continue
            f = d.facts
            if q and not any(q in s.lower() for s in (name, f.type_line, f.oracle_text)):
                continue
            found += 1
            print(f"{name}  {f.mana_cost or ''}  {f.type_line}  [{d.set_code}]".replace(
                "    ", "  "), file=sys.stdout)
            if args.text and f.oracle_text:
                for line in f.oracle_text.splitlines():
                    print(f"    {line}", file=sys.stdout)
        print(f"{found} card(s)", file=sys.stdout)
        return 0 if found else 1
    return run
