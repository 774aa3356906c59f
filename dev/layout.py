"""Lay the checkout out as the installed package: ``python dev/layout.py [DEST]``.

The repository keeps ``kernel/``, ``plugins/`` and ``cardsets/`` at the top (the
project's layout); installed, they are ``mtgk``, ``mtgk.plugins`` and ``mtgk.cardsets``.
Tools that read folders rather than installed names -- mypy (``dev/typecheck.py``), mypyc
(setup.py) and the structure drawing (``farm-studio``) -- read a copy laid out as
``mtgk/``: this writes it to ``DEST/mtgk`` (default ``build/layout``) with setup.py's
``lay_out``, the one place that knows the mapping, and prints the folder to point the
tool at.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from setup import lay_out  # noqa: E402


def main(argv: list[str]) -> int:
    dest = Path(argv[0]).resolve() if argv else ROOT / "build" / "layout"
    tree = lay_out(dest)
    print(tree / "mtgk")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
