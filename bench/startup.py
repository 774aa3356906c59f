"""How long the quick commands take, as a person waits for them (wall time, whole process).

    python bench/startup.py [--rounds 7]      (about half a minute)

Each round runs, in turn: a plain Python loop of 1,000,000 additions (this machine's
speed at the moment), then ``mtgk --version``, ``mtgk sets``, ``mtgk cards Shock`` and
``mtgk log GAME`` (a game of about 500 events) with the catalog kept
(:mod:`mtgk.cards.catalog`) and again with ``MTGK_NO_CACHE=1`` (the card sets loaded).
It prints each command's median wall time and its range over the rounds.  Reported, not
gated: CI times nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LOOP = "s = 0\nfor i in range(1_000_000):\n    s += i\n"


def _wall(argv: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=False)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="mtgk-startup-"))
    game = tmp / "game.mtgk"
    mtgk = [sys.executable, "-m", "mtgk"]
    cached = {**os.environ, "MTGK_CACHE_DIR": str(tmp / "cache")}
    loading = {**cached, "MTGK_NO_CACHE": "1"}
    subprocess.run([*mtgk, "play", "--seed", "3", "--out", str(game), "-q"], env=cached,
                   check=True)
    subprocess.run([*mtgk, "--version"], env=cached, check=True,
                   stdout=subprocess.DEVNULL)  # keeps the catalog
    runs: dict[str, list[str]] = {
        "loop of 1,000,000 additions": [sys.executable, "-c", LOOP],
        "mtgk --version": [*mtgk, "--version"],
        "mtgk sets": [*mtgk, "sets"],
        "mtgk cards Shock": [*mtgk, "cards", "Shock"],
        f"mtgk log GAME ({game.stat().st_size // 1000} kB)": [*mtgk, "log", str(game)],
    }
    times: dict[str, list[float]] = {}
    for _ in range(args.rounds):
        for name, argv in runs.items():
            times.setdefault(name, []).append(_wall(argv, cached))
            if name.startswith("mtgk"):
                times.setdefault(name + ", sets loaded", []).append(_wall(argv, loading))
    print(f"{args.rounds} rounds, interleaved; wall seconds, median (min-max)")
    for name, ts in times.items():
        print(f"  {name:44} {statistics.median(ts) * 1000:6.0f} ms "
              f"({min(ts) * 1000:.0f}-{max(ts) * 1000:.0f})")


if __name__ == "__main__":
    main()
