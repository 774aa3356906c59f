"""Type-check the ``mtgk`` namespace from a checkout: ``python dev/typecheck.py``.

The repository keeps the folders ``kernel/``, ``plugins/`` and ``cardsets/``, which the
build backend installs as ``mtgk``, ``mtgk.plugins`` and ``mtgk.cardsets``
(pyproject.toml, ``[tool.setuptools.package-dir]``).  An editable install finds them
through an import hook that mypy cannot see, so this script lays the sources out as the
installed package (a copy of the ``.py`` files under ``build/typecheck/mtgk``, made by
setup.py's ``lay_out``, as the compiled build's), runs
``mypy -p mtgk`` on it with the project's configuration, and prints mypy's report with
every path turned back into the file of the checkout.  Its exit status is mypy's.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREE = ROOT / "build" / "typecheck"

sys.path.insert(0, str(ROOT))  # setup.py: the one place that lays the sources out
from setup import LAYOUT, lay_out  # noqa: E402


def to_checkout(line: str) -> str:
    """``mtgk/plugins/saga.py:3: error`` -> ``plugins/saga.py:3: error``."""
    for installed, folder in sorted(LAYOUT.items(), key=lambda p: -len(p[0])):
        if line.startswith(installed + "/"):
            return folder + line[len(installed):]
    return line


def main(argv: list[str]) -> int:
    tree = lay_out(TREE)
    cmd = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
           "--cache-dir", str(ROOT / ".mypy_cache"), "-p", "mtgk", *argv]
    r = subprocess.run(cmd, cwd=tree, capture_output=True, text=True)
    for line in (r.stdout + r.stderr).splitlines():
        print(to_checkout(line))
    return r.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
