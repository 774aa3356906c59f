"""Cost per turn on a board of lords: N Wizened Cenn a side, N from 5 to 40.

Each side starts with N Wizened Cenn ("Other Kithkin creatures you control get +1/+1.")
and N Plains on the battlefield (untapped, able to attack), a library of Plains and
Wizened Cenns, one after the other (a lord drawn may be cast), and 1,000,000 life more (so
that the games last the turns: the lords attack for a lot).  Lords die in combat and come,
and the layers are computed again for the whole board.
Random agents (a uniformly random legal choice at every decision) then play ``--turns``
turns; the figure is the cost per turn played: the CPU time (``time.process_time``) and,
with ``--instructions`` (valgrind's callgrind, ``PYTHONHASHSEED=0``: repeatable on a noisy
shared machine), the instructions of the games alone (a run that builds the boards and
plays less one that only builds them).  Between successive N the growth exponent is fitted:
``log(cost(N2) / cost(N1)) / log(N2 / N1)``, 1 for a cost linear in N, 2 for quadratic.
Issue 29's target: at most linear from 5 to 40 on both kernels.  Also printed: decisions and
events per turn, and the layer computations of every permanent per turn
(``Game.full_computations``).  The games are the same on every run (seeded).  Nothing here
is run by CI.

    python bench/lords.py [--sizes 5 10 20 40] [--turns 4] [--rounds 3] [--seeds 3]
                          [--instructions] [--lord "Scion of Oona"]

``--lord`` puts another lord in the Cenn's place (Scion of Oona: "Other Faerie creatures
you control get +1/+1. Other Faeries you control have shroud.", a lord that grants).
The machine's speed at the moment is printed first (bench/run.py's loop of 1,000,000
additions).
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

sys.path.insert(0, str(ROOT / "bench"))
from run import loop_ms  # noqa: E402

LORD = "Wizened Cenn"
LIFE = 1_000_000


class Counting(RandomAgent):
    """A random agent that counts the decisions it is asked."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.asked = 0

    def decide(self, game: Game, d: Decision) -> Any:
        self.asked += 1
        return super().decide(game, d)


def board(reg: Registry, n: int, seed: int, lord: str = LORD) -> tuple[Game, list[Counting]]:
    """A game about to begin turn 1: ``n`` Wizened Cenn and ``n`` Plains a side, a library
    of Plains and Wizened Cenns, and ``LIFE`` more life each."""
    agents = [Counting(2 * seed), Counting(2 * seed + 1)]
    g = Game(reg, ["p1", "p2"], seed=seed, agents=agents)
    with g.setting_up():
        for p in (0, 1):
            g.emit(ev.LifeGained(player=p, n=LIFE))
            for name in [lord] * n + ["Plains"] * n:
                g.emit(ev.ObjectCreated(obj=g.new_id(), card=name, owner=p, zone="battlefield"))
            for i in range(30):
                g.emit(ev.ObjectCreated(obj=g.new_id(), card=lord if i % 2 else "Plains",
                                        owner=p, zone="library"))
    return g, agents


def play(reg: Registry, n: int, turns: int, seeds: int, run: bool = True, lord: str = LORD
         ) -> tuple[float, int, int, int, int]:
    """(CPU seconds, turns, decisions, events, full layer computations) of ``seeds`` games
    of ``turns`` turns (with ``run`` false: the boards built, nothing played)."""
    seconds = 0.0
    played = decisions = events = full = 0
    for seed in range(seeds):
        g, agents = board(reg, n, seed, lord)
        before, full_before = len(g.log), g.full_computations
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
        events += len(g.log) - before
        full += g.full_computations - full_before
    return seconds, played, decisions, events, full


def instructions(n: int, turns: int, seeds: int, lord: str = LORD) -> int:
    """Callgrind's instructions for the games alone (boards built and played, less built)."""
    def collected(run: bool) -> int:
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
               sys.executable, __file__, "--child", str(n), "--turns", str(turns),
               "--seeds", str(seeds), "--lord", lord] + ([] if run else ["--build-only"])
        env = dict(os.environ, PYTHONHASHSEED="0")
        out = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stderr
        m = re.search(r"Collected : (\d+)", out)
        if m is None:
            raise RuntimeError(f"no instruction count from callgrind:\n{out[-2000:]}")
        return int(m.group(1))
    return collected(True) - collected(False)


def exponent(n1: int, c1: float, n2: int, c2: float) -> float:
    """The growth exponent between two sizes: cost ~ N ** exponent."""
    return math.log(c2 / c1) / math.log(n2 / n1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[5, 10, 20, 40])
    ap.add_argument("--turns", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seeds", type=int, default=3, help="games per board and round")
    ap.add_argument("--instructions", action="store_true",
                    help="also count instructions with callgrind (one run per size)")
    ap.add_argument("--lord", default=LORD, help="the lord on the board (default: %(default)s)")
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--build-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    reg = load_registry()
    if args.child is not None:
        play(reg, args.child, args.turns, args.seeds, run=not args.build_only, lord=args.lord)
        return
    print(f"{args.lord}; machine: a plain Python loop of 1,000,000 additions takes "
          f"{loop_ms():.0f} ms now\n")
    print(f"| N a side | ms/turn (CPU, median of {args.rounds}) | exponent | "
          + ("M instructions/turn | exponent | " if args.instructions else "")
          + "decisions/turn | events/turn | full layer computations/turn |")
    print("| ---: | ---: | ---: | " + ("---: | ---: | " if args.instructions else "")
          + "---: | ---: | ---: |")
    last: tuple[int, float, float] | None = None
    for n in args.sizes:
        per_turn: list[float] = []
        played = decisions = events = full = 0
        for _ in range(args.rounds):
            seconds, played, decisions, events, full = play(reg, n, args.turns, args.seeds,
                                                            lord=args.lord)
            per_turn.append(seconds / played)
        ms = statistics.median(per_turn) * 1e3
        ins = 0.0
        if args.instructions:
            ins = instructions(n, args.turns, args.seeds, args.lord) / played / 1e6
        cells = [f"{n}", f"{ms:.1f}",
                 "" if last is None else f"{exponent(last[0], last[1], n, ms):.2f}"]
        if args.instructions:
            cells += [f"{ins:.1f}",
                      "" if last is None else f"{exponent(last[0], last[2], n, ins):.2f}"]
        cells += [f"{decisions / played:.0f}", f"{events / played:.0f}", f"{full / played:.1f}"]
        print("| " + " | ".join(cells) + " |", flush=True)
        last = (n, ms, ins)


if __name__ == "__main__":
    main()
