"""``mtgk campaign``: random games over the whole card pool, each checked (:mod:`mtgk.tools.campaign`)."""

from __future__ import annotations

import argparse

from mtgk.tools.cli_base import Runner

__all__ = ["pass_through", "setup"]

def setup(p: argparse.ArgumentParser) -> Runner:
    """``mtgk campaign``'s arguments, added to ``p``; returns the function that runs it."""
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments for mtgk.tools.campaign")

    def run(args: argparse.Namespace) -> int:
        return pass_through(list(args.args), [])

    return run


def pass_through(argv: list[str], glob: list[str]) -> int:
    from mtgk.tools.campaign import main as campaign_main
    return campaign_main(glob + argv)


