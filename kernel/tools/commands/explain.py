"""``mtgk explain``: an event's chain of causes, and its consequences."""

from __future__ import annotations

import argparse

from mtgk.render import clean
from mtgk.tools.cli_base import (
    Runner,
    UserError,
    err,
    event_index,
    fold_message,
    json_line,
    player,
    read,
    registry,
    stdout,
)
from mtgk.tools.debug import explain

__all__ = ["setup"]


def setup(p: argparse.ArgumentParser) -> Runner:
    """``mtgk explain``'s arguments, added to ``p``; returns the function that runs it."""
    p.description = ("Walk the cause links of event N back to the player's decision (or the "
                     "rule of the game) that started it, e.g. \"CounterRemoved ← DamageDealt ← "
                     "DamageRedirected ← SpellCast ← cast Shock targeting Bob by Alice at event "
                     "811\", listing each event readably; then list its consequences (the "
                     "events whose cause is N).")
    p.add_argument("file", metavar="FILE")
    p.add_argument("event", type=int, metavar="N", help="the event (negative: from the end)")
    p.add_argument("--depth", type=int, default=1, metavar="D",
                   help="list consequences D levels deep (default: %(default)s)")
    p.add_argument("--as", dest="as_player", metavar="PLAYER",
                   help="describe events as PLAYER (name or index) saw them")
    p.add_argument("--json", action="store_true", help="print the explanation as JSON")

    def run(args: argparse.Namespace) -> int:
        if args.depth < 0:
            raise UserError("--depth must be at least 0")
        lf = read(args.file)
        n = event_index(args.event, len(lf.envelopes), "event")
        viewer = player(args.as_player, lf.header)
        reg = registry(args)
        x = explain(lf.envelopes, n, reg, viewer, depth=args.depth)
        out = stdout()
        if args.json:
            print(json_line(x.to_json()), file=out)
        else:
            print("\n".join(clean(line) for line in x.lines()), file=out)
        if x.fold_errors:
            err(fold_message(x.fold_errors))
        return 1 if lf.torn else 0

    return run

