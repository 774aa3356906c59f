"""Vector environment steps per second: mtgk's :func:`mtgk.env.vector_env` beside managym's
native batched ``VectorEnv`` (N = 8 and N = 1), and the single environments beside
managym's ``Env.step`` (issue 27).

All play the benchmark deck (bench/decks/ogres.txt: 17 Mountain + 23 Gray Ogre, both
seats), trivial decisions skipped, a uniformly random legal action at every step (drawn
from the mask, vectorized in NumPy the same way on both sides).  The vector environments:
the learner at seat 0, the other seat played inside the environment by a random player
(mtgk's :class:`~mtgk.agents.RandomAgent`, managym's ``opponent_policy="random"``), the
observations written into preallocated buffers, autoreset.  The single environments:
mtgk's Gymnasium env (against a RandomAgent) and its PettingZoo AEC env (the caller plays
both seats, an observation built at each step), and managym's ``Env.step`` (the caller
plays both seats, its ``Observation`` built at each step).  A step is one call of ``step``
(for a vector env, N steps).  The engines run interleaved, round after round, in one
invocation (managym in a subprocess of its own Python, set up by ../shared/peers/setup.sh;
only its own loop is timed); the medians, ranges and the ratios mtgk/managym (the median of
the rounds' ratios) are printed, with the machine's loop speed (bench/run.py's
``loop_ms``).  Nothing here is run by CI.

    python bench/vector_env.py --managym /tmp/mtgk-peers/manabot/bin/python \\
        [--steps 4000] [--rounds 5]

Without ``--managym`` only mtgk is measured.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from managym_loop import VECTOR  # noqa: E402  (bench/managym_loop.py, beside this script)
from run import loop_ms  # noqa: E402  (bench/run.py)

from mtgk.agents import RandomAgent  # noqa: E402
from mtgk.cards.decks import load_deck  # noqa: E402
from mtgk.cards.loading import load_registry  # noqa: E402
from mtgk.env import aec_env, gym_env, vector_env  # noqa: E402

REG = load_registry()
DECK = load_deck(str(ROOT / "bench" / "decks" / "ogres.txt"), REG)


def pick(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of ``masks``."""
    return np.argmax(rng.random(masks.shape) * masks, axis=-1)


def mtgk_vector(n: int, steps: int, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    envs = vector_env(n, seed=seed * 1000, decks=[DECK, DECK], registry=REG,
                      opponent=RandomAgent)
    obs, _ = envs.reset(seed=seed * 1000)
    episodes = 0
    for _ in range(steps // n):
        obs, _r, t, u, _i = envs.step(pick(obs["action_mask"], rng))
        episodes += int((t | u).sum())
    seconds = time.perf_counter() - t0
    envs.close()
    return {"steps": steps // n * n, "seconds": seconds, "episodes": episodes}


def mtgk_gym(steps: int, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    env = gym_env(decks=[DECK, DECK], seed=seed * 1000, registry=REG, opponent=RandomAgent)
    obs, _ = env.reset()
    episodes = 0
    for _ in range(steps):
        obs, _r, term, trunc, _i = env.step(int(pick(obs["action_mask"], rng)))
        if term or trunc:
            episodes += 1
            obs, _ = env.reset()
    return {"steps": steps, "seconds": time.perf_counter() - t0, "episodes": episodes}


def mtgk_aec(steps: int, seed: int) -> dict[str, float]:
    rng = np.random.default_rng(seed)
    t0 = time.perf_counter()
    env = aec_env(decks=[DECK, DECK], seed=seed * 1000, registry=REG)
    env.reset()
    done = episodes = 0
    while done < steps:
        obs, _r, term, trunc, _i = env.last()
        if term or trunc:
            episodes += 1
            env.reset()
            continue
        env.step(int(pick(obs["action_mask"], rng)))
        done += 1
    return {"steps": done, "seconds": time.perf_counter() - t0, "episodes": episodes}


def managym(python: str, mode: str, n: int, steps: int, seed: int) -> dict[str, float]:
    out = subprocess.run([python, "-c", VECTOR, mode, str(n), str(steps), str(seed), "random"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--managym", metavar="PYTHON", help="the Python that has manabot installed")
    p.add_argument("--steps", type=int, default=4000, help="steps per measurement")
    p.add_argument("--rounds", type=int, default=5)
    a = p.parse_args()
    runs: list[tuple[str, Callable[[int], dict[str, float]],
                     Callable[[int], dict[str, float]] | None]] = []
    mg = a.managym
    runs.append(("vector N=8", lambda s: mtgk_vector(8, a.steps, s),
                 (lambda s: managym(mg, "vector", 8, a.steps, s)) if mg else None))
    runs.append(("vector N=1", lambda s: mtgk_vector(1, a.steps, s),
                 (lambda s: managym(mg, "vector", 1, a.steps, s)) if mg else None))
    runs.append(("single (gym env / Env.step)", lambda s: mtgk_gym(a.steps, s),
                 (lambda s: managym(mg, "single", 1, a.steps, s)) if mg else None))
    runs.append(("single (AEC env / Env.step)", lambda s: mtgk_aec(a.steps, s), None))
    rates: dict[str, tuple[list[float], list[float], list[float]]] = {
        name: ([], [], []) for name, _o, _t in runs}
    loops = []
    for r in range(a.rounds):
        loops.append(loop_ms())
        line = [f"round {r + 1} (loop {loops[-1]:.0f} ms):"]
        for name, ours, theirs in runs:
            o = ours(r)
            mine, their, ratio = rates[name]
            mine.append(o["steps"] / o["seconds"])
            text = f"{name}: mtgk {mine[-1]:,.0f}"
            if theirs is not None:
                t = theirs(r)
                their.append(t["steps"] / t["seconds"])
                ratio.append(mine[-1] / their[-1])
                text += f", managym {their[-1]:,.0f}, {ratio[-1]:.2f}x"
            line.append(text)
        print("\n  ".join(line), flush=True)
    print(f"\nsteps/s, median [range] of {a.rounds} rounds (loop {min(loops):.0f}-"
          f"{max(loops):.0f} ms; {a.steps} steps a measurement):")
    aec = rates["single (AEC env / Env.step)"][0]
    for name, _o, _t in runs:
        mine, their, ratio = rates[name]
        if name.startswith("single (AEC") and rates["single (gym env / Env.step)"][1]:
            their = rates["single (gym env / Env.step)"][1]
            ratio = [m / t for m, t in zip(aec, their, strict=True)]
        text = f"  {name}: mtgk {statistics.median(mine):,.0f} [{min(mine):,.0f}-{max(mine):,.0f}]"
        if their:
            text += (f"; managym {statistics.median(their):,.0f} [{min(their):,.0f}-"
                     f"{max(their):,.0f}]; mtgk/managym {statistics.median(ratio):.2f}x "
                     f"[{min(ratio):.2f}-{max(ratio):.2f}]")
        print(text)


if __name__ == "__main__":
    main()
