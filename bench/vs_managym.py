"""Random playouts of mtgk beside managym's, interleaved in one run.

Both engines play random games of the benchmark deck (bench/decks/ogres.txt: 17 Mountain
+ 23 Gray Ogre, both seats), a uniformly random legal choice at every decision.  Each
round runs every engine once, one after the other, each in a fresh process of its own
Python (managym: the Python set up by ../shared/peers/setup.sh under /tmp, running
../shared/peers/bench_managym.py's loop); the figures are the games per second of the
game loop alone (imports and loading the card sets left out), in CPU time of the process
(``time.process_time``: both engines run on one thread, and the CPU time moves less than
the wall-clock time when other processes share the machine).  The machine is shared and
its speed varies by half from minute to minute: read the medians and the ratios, which
are taken round by round.  Nothing here is run by CI.

    python bench/vs_managym.py --managym /tmp/mtgk-peers/manabot/bin/python \\
        [--games 60] [--rounds 5] [--seed 1] [--skip-trivial 0|1] [--deck FILE|NAME] \\
        [--mtgk PYTHON ...]

``--mtgk`` names the Python of an mtgk install to measure (repeatable: e.g. a checkout of
``main`` beside this one; default this Python).  ``--deck`` plays another deck on mtgk's
side (managym has only the ogres deck; its figure is then the ogres deck's).  With
``--skip-trivial 1`` both skip the decisions where the only legal action is to pass
(managym's ``skip_trivial``, mtgk's ``--skip-trivial``); they are still played (and, in
mtgk, recorded in the log as usual).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from managym_loop import managym_code  # (bench/managym_loop.py, beside this script)

ROOT = Path(__file__).resolve().parent.parent

MTGK = """
import json, sys, time
from mtgk.cards.decks import load_deck
from mtgk.cards.loading import load_registry
from mtgk.tools import bench
games, seed, skip, deck = int(sys.argv[1]), int(sys.argv[2]), bool(int(sys.argv[3])), sys.argv[4]
reg = load_registry()
cards = load_deck(deck, reg)
kw = {"skip_trivial": True} if skip else {}
t0 = time.process_time()
r = bench.playouts(reg, cards, games, seed=seed, **kw)
print(json.dumps({"games": r.games, "steps": r.decisions, "events": r.events,
                  "seconds": time.process_time() - t0}))
"""

MANAGYM = managym_code("process_time")  # (bench/managym_loop.py)


def run(python: str, code: str, *args: object) -> dict[str, float]:
    out = subprocess.run([python, "-c", code, *map(str, args)], check=True,
                         capture_output=True, text=True, cwd=ROOT).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def loop_ms() -> float:
    """The machine's speed now: bench/run.py's plain Python loop of 1,000,000 additions
    (the best of five), in ms."""
    sys.path.insert(0, str(ROOT / "bench"))
    from run import loop_ms as run_loop_ms  # (bench/run.py: not a package)
    return run_loop_ms()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--managym", help="the Python with manabot installed")
    ap.add_argument("--mtgk", action="append", help="the Python of an mtgk install "
                    "(repeatable; default: this one)")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-trivial", type=int, default=0, choices=[0, 1])
    ap.add_argument("--deck", default=str(ROOT / "bench" / "decks" / "ogres.txt"))
    args = ap.parse_args()
    engines: list[tuple[str, str, str, tuple[object, ...]]] = []
    for py in args.mtgk or [sys.executable]:
        label = "mtgk" if not args.mtgk or len(args.mtgk) == 1 else f"mtgk({py})"
        engines.append((label, py, MTGK, (args.games, args.seed, args.skip_trivial, args.deck)))
    if args.managym:
        engines.append(("managym", args.managym, MANAGYM,
                        (args.games, args.seed, args.skip_trivial)))
    rates: dict[str, list[float]] = {e[0]: [] for e in engines}
    ratios: dict[str, list[float]] = {e[0]: [] for e in engines}
    loops = []
    for r in range(args.rounds):
        loops.append(loop_ms())
        here: dict[str, float] = {}
        for label, py, code, a in engines:
            res = run(py, code, *a)
            here[label] = res["games"] / res["seconds"]
            rates[label].append(here[label])
            extra = f" events={res['events']:.0f}" if "events" in res else ""
            print(f"round {r + 1} {label}: games={res['games']:.0f} steps={res['steps']:.0f}"
                  f"{extra} seconds={res['seconds']:.3f} ({here[label]:.1f} games/s)",
                  flush=True)
        if "managym" in here:
            for label in here:
                ratios[label].append(here[label] / here["managym"])
    print(f"machine: a plain Python loop of 1,000,000 additions took "
          f"{min(loops):.0f}-{max(loops):.0f} ms (median {statistics.median(loops):.0f})")
    mtgks = [e[0] for e in engines if e[0] != "managym"]
    if len(mtgks) > 1:  # the last mtgk beside the first, round by round
        per = [b / a for a, b in zip(rates[mtgks[0]], rates[mtgks[-1]], strict=True)]
        print(f"{mtgks[-1]} / {mtgks[0]}: median {statistics.median(per):.2f} (per-round "
              f"{', '.join(f'{x:.2f}' for x in per)})")
    for label, _py, _code, _a in engines:
        line = f"median: {label} {statistics.median(rates[label]):.1f} games/s"
        if ratios[label] and label != "managym":
            line += f", {statistics.median(ratios[label]):.2f}x managym (per-round ratios " \
                    f"{', '.join(f'{x:.2f}' for x in ratios[label])})"
        print(line)


if __name__ == "__main__":
    main()
