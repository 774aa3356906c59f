"""``mtgk sets``: every installed card set (its version, its package, how many cards and
tokens it defines) and mechanics plugin (its package and version), and every plugin that
failed to load, with why -- the first place a pack author checks that a pack loaded.

(``mtgk sets`` is answered from the kept catalog without loading the sets when one is
kept: :mod:`mtgk.tools.entry`; the words are :func:`mtgk.tools.installed.print_sets`.)
"""

from __future__ import annotations

import argparse
import sys

from mtgk.cards.catalog import remember
from mtgk.tools.cli_base import Runner, registry
from mtgk.tools.installed import print_sets

__all__ = ["setup"]


def setup(p: argparse.ArgumentParser) -> Runner:
    """``mtgk sets``'s arguments (none), added to ``p``; returns the function that runs it."""
    def run(args: argparse.Namespace) -> int:
        return print_sets(remember(registry(args)), sys.stdout)
    return run
