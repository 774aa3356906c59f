"""Per-decision cost on a board of activated abilities beside a vanilla board.

Each side starts with N Goldmeadow Harriers ("{W}, {T}: Tap target creature.") and N
Plains on the battlefield (untapped, able to attack and to activate), and a library of
Plains; the other board is the same with N Gray Ogres (no ability) in place of the
Harriers.  Random agents (a uniformly random legal choice at every decision) then play
``--turns`` turns; the figure is the CPU time (``time.process_time``) per decision (every
decision the agents are asked) and per turn.  Issue 15's target: the Harriers' per-decision cost within 3x of
the vanilla board's for N = 5, 10, 20, 40.  The machine is shared: the two boards are
measured alternately, round after round, and the medians are reported.  Issue 29's
target: the Harriers' cost per decision grows at most linearly in N (the exponent fitted
between successive N, ``log(cost(N2) / cost(N1)) / log(N2 / N1)``, at most 1; the decisions
per turn grow with N themselves).  Nothing here is run by CI.

    python bench/harriers.py [--sizes 5 10 20 40] [--turns 2] [--rounds 3] [--seeds 3]
                             [--instructions]

``--instructions`` also counts the Harriers games' instructions per decision with
valgrind's callgrind (``PYTHONHASHSEED=0``; a run that builds the boards and plays less
one that only builds them, as bench/lords.py does): repeatable on a noisy machine.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mtgk.agents import RandomAgent  # noqa: E402
from mtgk.cards.definitions import Registry  # noqa: E402
from mtgk.cards.loading import load_registry  # noqa: E402
from mtgk.log import events as ev  # noqa: E402
from mtgk.rules.engine import Decision, Game, GameOver  # noqa: E402


class Counting(RandomAgent):
    """A random agent that counts the decisions it is asked."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.asked = 0

    def decide(self, game: Game, d: Decision) -> Any:
        self.asked += 1
        return super().decide(game, d)


def board(reg: Registry, creature: str, n: int, seed: int) -> tuple[Game, list[Counting]]:
    """A game about to begin turn 1: ``n`` of ``creature`` and ``n`` Plains a side."""
    agents = [Counting(2 * seed), Counting(2 * seed + 1)]
    g = Game(reg, ["p1", "p2"], seed=seed, agents=agents)
    with g.setting_up():
        for p in (0, 1):
            for name in [creature] * n + ["Plains"] * n:
                g.emit(ev.ObjectCreated(obj=g.new_id(), card=name, owner=p, zone="battlefield"))
            for _ in range(30):
                g.emit(ev.ObjectCreated(obj=g.new_id(), card="Plains", owner=p, zone="library"))
    return g, agents


def measure(reg: Registry, creature: str, n: int, turns: int, seeds: int, run: bool = True
            ) -> tuple[float, float, int]:
    """(seconds per decision, seconds per turn, decisions) over ``seeds`` games (with
    ``run`` false: the boards built, nothing played)."""
    seconds = 0.0
    decisions = played = 0
    for seed in range(seeds):
        g, agents = board(reg, creature, n, seed)
        if not run:
            continue
        t = time.process_time()
        try:
            g.run(0, max_turns=turns)
        except GameOver:
            pass
        seconds += time.process_time() - t
        decisions += sum(a.asked for a in agents)
        played += g.state.turn
    return (seconds / decisions, seconds / played, decisions) if run else (0.0, 0.0, 0)


def instructions(n: int, turns: int, seeds: int) -> int:
    """Callgrind's instructions for the Harriers games alone (built and played, less built)."""
    def collected(run: bool) -> int:
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, __file__, "--child", str(n), "--turns", str(turns),
               "--seeds", str(seeds)] + ([] if run else ["--build-only"])
        env = dict(os.environ, PYTHONHASHSEED="0")
        out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stderr
        m = re.search(r"Collected : (\d+)", out)
        if m is None:
            raise RuntimeError(f"no instruction count from callgrind:\n{out[-2000:]}")
        return int(m.group(1))
    return collected(True) - collected(False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[5, 10, 20, 40])
    ap.add_argument("--turns", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=3, help="games per board and round")
    ap.add_argument("--instructions", action="store_true",
                    help="also count instructions with callgrind (one run per size)")
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--build-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    reg = load_registry()
    if args.child is not None:
        measure(reg, "Goldmeadow Harrier", args.child, args.turns, args.seeds,
                run=not args.build_only)
        return
    ins = "Harriers k instructions/decision | exponent | " if args.instructions else ""
    print("| N a side | vanilla µs/decision | Harriers µs/decision | exponent | ratio | "
          f"Harriers ms/turn | Harriers decisions/turn | {ins}".rstrip())
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
          + (" ---: | ---: |" if args.instructions else ""))
    last: tuple[int, float, float] | None = None
    for n in args.sizes:
        van: list[float] = []
        har: list[float] = []
        turn: list[float] = []
        per_turn = 0.0
        decisions = 0
        for _ in range(args.rounds):
            van.append(measure(reg, "Gray Ogre", n, args.turns, args.seeds)[0])
            d, t, k = measure(reg, "Goldmeadow Harrier", n, args.turns, args.seeds)
            har.append(d)
            turn.append(t)
            per_turn = k / (args.turns * args.seeds)
            decisions = k
        v, h = statistics.median(van), statistics.median(har)
        counted = instructions(n, args.turns, args.seeds) / decisions / 1e3 \
            if args.instructions else 0.0
        grows = "" if last is None else f"{math.log(h / last[1]) / math.log(n / last[0]):.2f}"
        line = (f"| {n} | {v * 1e6:.0f} | {h * 1e6:.0f} | {grows} | {h / v:.1f} | "
                f"{statistics.median(turn) * 1e3:.1f} | {per_turn:.0f} |")
        if args.instructions:
            more = "" if last is None else \
                f"{math.log(counted / last[2]) / math.log(n / last[0]):.2f}"
            line += f" {counted:.0f} | {more} |"
        print(line, flush=True)
        last = (n, h, counted)


if __name__ == "__main__":
    main()
