"""Environment steps per second: mtgk's step environment beside managym's ``Env.step``.

Both play random games of the benchmark deck (bench/decks/ogres.txt: 17 Mountain + 23
Gray Ogre, both seats), a uniformly random legal action at every step, and count steps
(calls of ``step``) and seconds.  The two run interleaved, round after round, in one
invocation (managym in a subprocess of its own Python, set up by
../shared/peers/setup.sh under /tmp), and the ratios are reported: the machine is
noisy, read ratios, not absolute figures.  Nothing here is run by CI.

    python bench/env_steps.py --managym /tmp/mtgk-peers/manabot/bin/python \\
        [--games 30] [--rounds 5] [--skip-trivial 1]

Without ``--managym`` only mtgk is measured.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from managym_loop import managym_code  # noqa: E402  (bench/managym_loop.py, beside this script)

from mtgk.cards.decks import load_deck  # noqa: E402
from mtgk.cards.loading import load_registry  # noqa: E402
from mtgk.env import aec_env  # noqa: E402

MANAGYM = managym_code("perf_counter")  # (bench/managym_loop.py)


def mtgk_round(games: int, seed: int, skip: bool) -> dict[str, float]:
    reg = load_registry()
    deck = load_deck(str(ROOT / "bench" / "decks" / "ogres.txt"), reg)
    rng = random.Random(seed)
    steps = 0
    t0 = time.perf_counter()
    for i in range(games):
        env = aec_env(decks=[deck, deck], seed=seed * 100003 + i, registry=reg,
                      skip_trivial=skip)
        env.reset(seed=seed * 100003 + i)
        while env.agents:
            obs, _r, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
                continue
            mask = obs["action_mask"]
            env.step(rng.choice([j for j in range(len(mask)) if mask[j]]))
            steps += 1
        env.close()
    return {"games": games, "steps": steps, "seconds": time.perf_counter() - t0}


def managym_round(python: str, games: int, seed: int, skip: bool) -> dict[str, float]:
    out = subprocess.run([python, "-c", MANAGYM, str(games), str(seed), str(int(skip))],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--managym", metavar="PYTHON", help="the Python that has manabot installed")
    p.add_argument("--games", type=int, default=30)
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--skip-trivial", type=int, default=1, choices=(0, 1))
    a = p.parse_args()
    skip = bool(a.skip_trivial)
    ratios = []
    ours_rates, theirs_rates = [], []
    for r in range(a.rounds):
        ours = mtgk_round(a.games, a.seed + r, skip)
        rate = ours["steps"] / ours["seconds"]
        ours_rates.append(rate)
        line = f"round {r + 1}: mtgk {ours['steps']:.0f} steps {rate:,.0f} steps/s"
        if a.managym:
            theirs = managym_round(a.managym, a.games, a.seed + r, skip)
            trate = theirs["steps"] / theirs["seconds"]
            theirs_rates.append(trate)
            ratios.append(trate / rate)
            line += (f"; managym {theirs['steps']:.0f} steps {trate:,.0f} steps/s; "
                     f"managym/mtgk {trate / rate:.1f}x")
        print(line, flush=True)
    print(f"median: mtgk {statistics.median(ours_rates):,.0f} steps/s", end="")
    if ratios:
        print(f", managym {statistics.median(theirs_rates):,.0f} steps/s, "
              f"managym/mtgk {statistics.median(ratios):.1f}x")
    else:
        print()


if __name__ == "__main__":
    main()
