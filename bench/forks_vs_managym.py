"""mtgk's forks beside managym's clones, interleaved in one run.

Each round runs, one after the other and each in a fresh process of its own Python:

* ``mtgk bench forks --deck bench/decks/ogres.txt`` -- games of the benchmark deck (17
  Mountain + 23 Gray Ogre, both seats; heuristic agents), each played again with the same
  answers and forked at every seventh decision, each fork timed and checked exact;
* managym (the Python set up by ../shared/peers/setup.sh) -- random games of the same
  deck, ``Env.clone_env()`` timed at every seventh step (a uniformly random legal action
  at each; the clone is then dropped, not played on: its exactness is not checked);
* with ``--long``, ``mtgk bench forks --deck bench/decks/harbingers.txt`` -- one game of
  about 13,000 events (0/3 creatures that search and shuffle the library as they enter;
  nobody attacks until a library runs out): what a fork costs late in a very long game
  (managym has only the ogres deck).

The figures are the median and 99th percentile of the fork (clone) times in
microseconds, wall clock (``time.perf_counter_ns`` around the one call), and the most
events (steps) a game had when forked.  The machine is shared: read the medians of the
rounds and the ratios, round by round.  Nothing here is run by CI.

    python bench/forks_vs_managym.py --managym /tmp/mtgk-peers/manabot/bin/python \\
        [--games 10] [--rounds 3] [--seed 1] [--long] [--mtgk PYTHON]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from managym_loop import CLONES  # (bench/managym_loop.py, beside this script)

ROOT = Path(__file__).resolve().parent.parent


def mtgk_forks(python: str, deck: Path, games: int, seed: int, max_turns: int) -> dict[str, float]:
    mtgk = str(Path(python).parent / "mtgk")  # (the command the install put beside it)
    out = subprocess.run([mtgk, "bench", "forks", "--deck", str(deck),
                          "--games", str(games), "--seed", str(seed),
                          "--max-turns", str(max_turns), "--json"],
                         check=True, capture_output=True, text=True, cwd=ROOT).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def managym_clones(python: str, games: int, seed: int) -> dict[str, float]:
    out = subprocess.run([python, "-c", CLONES, str(games), str(seed), "7"], check=True,
                         capture_output=True, text=True, cwd=ROOT).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--managym", help="the Python with manabot installed")
    ap.add_argument("--mtgk", default=sys.executable, help="the Python of an mtgk install "
                    "(default: this one)")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--long", action="store_true",
                    help="also fork one very long game (bench/decks/harbingers.txt)")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT / "bench"))
    from run import loop_ms  # (bench/run.py: not a package)

    runs: list[tuple[str, Callable[[], dict[str, float]]]] = [
        ("mtgk ogres", lambda: mtgk_forks(args.mtgk, ROOT / "bench" / "decks" / "ogres.txt",
                                          args.games, args.seed, 200))]
    if args.managym:
        runs.append(("managym ogres", lambda: managym_clones(args.managym, args.games,
                                                             args.seed)))
    if args.long:
        runs.append(("mtgk long game", lambda: mtgk_forks(
            args.mtgk, ROOT / "bench" / "decks" / "harbingers.txt", 1, args.seed, 500)))
    got: dict[str, list[dict[str, float]]] = {label: [] for label, _ in runs}
    loops = []
    for r in range(args.rounds):
        loops.append(loop_ms())
        for label, fn in runs:
            res = fn()
            got[label].append(res)
            exact = f"{res['exact']:.0f}" if "exact" in res else "unchecked"
            print(f"round {r + 1} {label}: forks={res['forks']:.0f} exact={exact} "
                  f"median_us={res['median_us']:.1f} p99_us={res['p99_us']:.1f} "
                  f"events_max={res['events_max']:.0f}", flush=True)
    print(f"machine: a plain Python loop of 1,000,000 additions took "
          f"{min(loops):.0f}-{max(loops):.0f} ms (median {statistics.median(loops):.0f})")
    for label, rs in got.items():
        med = [x["median_us"] for x in rs]
        p99 = [x["p99_us"] for x in rs]
        print(f"median: {label} fork {statistics.median(med):.1f} us "
              f"(rounds {min(med):.1f}-{max(med):.1f}), p99 {statistics.median(p99):.1f} us "
              f"(rounds {min(p99):.1f}-{max(p99):.1f}), events_max "
              f"{max(x['events_max'] for x in rs):.0f}, exact " + (
                  f"{sum(x['exact'] for x in rs):.0f}/{sum(x['forks'] for x in rs):.0f}"
                  if all("exact" in x for x in rs) else "not checked (managym)"))


if __name__ == "__main__":
    main()
