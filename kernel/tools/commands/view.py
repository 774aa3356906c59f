"""``mtgk view``: a game as one self-contained HTML page to step through in a browser."""

from __future__ import annotations

import argparse
import os
import sys

from mtgk.render import clean
from mtgk.tools.cli_base import Runner, UserError, log_stem, player, read, registry, stdout

__all__ = ["setup"]


def setup(p: argparse.ArgumentParser) -> Runner:
    """``mtgk view``'s arguments, added to ``p``; returns the function that runs it."""
    p.description = (
        "Write a log as a single self-contained HTML file (no server, no network: the page "
        "holds its styles, script and the game) showing both boards, hands, stack, life and "
        "loyalty at every event, the event list, jumping to an event or turn, arrow keys to "
        "step and the cause chain of the selected event. Without --as the page has a "
        "perspective switch (everyone, or each player); with --as it holds only what that "
        "player could see.")
    p.add_argument("file", metavar="FILE", help="a log (binary .mtgk or JSON Lines), or "
                   "LIBRARY:ID for a game of a game library (games.db:14)")
    p.add_argument("--out", "-o", metavar="FILE.html",
                   help="where to write the page (default: FILE with the suffix .html)")
    p.add_argument("--as", dest="as_player", metavar="PLAYER",
                   help="build the page for PLAYER (name or index) only: the hidden "
                        "information is left out of the file")
    p.add_argument("--every", type=int, default=50, metavar="K",
                   help="a full state snapshot every K events, diffs in between "
                        "(default: %(default)s)")
    p.add_argument("--at", type=int, metavar="N",
                   help="open the page at event N (default: the first decision a player made)")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing on success")

    def run(args: argparse.Namespace) -> int:
        from mtgk.tools.sim import Progress
        from mtgk.tools.viewer import write_viewer

        if args.every < 1:
            raise UserError("--every must be at least 1")
        lf = read(args.file)
        if not lf.envelopes:
            raise UserError(f"{args.file}: the log has no events")
        viewer = player(args.as_player, lf.header)
        if args.at is not None and not 0 <= args.at < len(lf.envelopes):
            raise UserError(f"--at {args.at}: the log has events 0 to {len(lf.envelopes) - 1}")
        out = args.out or (log_stem(args.file) + ".html")
        if os.path.abspath(out) == os.path.abspath(args.file):
            raise UserError("--out would overwrite the log itself")
        reg = registry(args)
        bar = Progress(len(lf.envelopes), sys.stderr, enabled=sys.stderr.isatty() and
                       not args.quiet, unit="events")
        try:
            size, folded = write_viewer(out, lf.header, lf.envelopes, reg, viewer, args.every,
                                        progress=bar.advance, at=args.at, source=args.file)
        except OSError as exc:
            raise UserError(f"cannot write {out}: {exc.strerror or exc}") from None
        finally:
            bar.finish()
        if folded:
            print(f"mtgk: warning: {folded}", file=sys.stderr)
        if not args.quiet:
            who = f" as {lf.header.players[viewer]}" if viewer is not None else ""
            print(clean(f"{out}: {len(lf.envelopes)} events{who}, {size} bytes; open it in a "
                        f"browser"), file=stdout())
        return 1 if lf.torn else 0

    return run


