"""The code base stays lint-clean (ruff) and type-checks (mypy), as CI runs it."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *cmd], cwd=ROOT, capture_output=True, text=True)


@pytest.mark.skipif(shutil.which("ruff") is None and _run("ruff", "--version").returncode,
                    reason="ruff is not installed (pip install -e '.[test]')")
def test_ruff_is_clean() -> None:
    r = _run("ruff", "check", ".")
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.skipif(_run("mypy", "--version").returncode != 0,
                    reason="mypy is not installed (pip install -e '.[test]')")
def test_mypy_is_clean() -> None:
    # the checkout's folders are the package mtgk (pyproject.toml); dev/typecheck.py lays
    # them out as installed and runs ``mypy -p mtgk``, naming the checkout's files
    r = subprocess.run([sys.executable, str(ROOT / "dev" / "typecheck.py")], cwd=ROOT,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no issues found" in r.stdout, r.stdout
