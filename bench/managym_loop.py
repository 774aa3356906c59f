"""The managym side of the benchmarks beside managym (bench/vs_managym.py, bench/env_steps.py).

:func:`managym_code` is a program for the Python that has manabot installed (set up by
``../shared/peers/setup.sh``): it plays random games of the benchmark deck (17 Mountain +
23 Gray Ogre, both seats), a uniformly random legal action at every ``Env.step``, and
prints one JSON line ``{"games", "steps", "seconds"}``.  Its arguments: games, seed and
skip_trivial (0 or 1).  Not a package module: the scripts beside it import it by name.
"""

from __future__ import annotations

_PROGRAM = """
import json, random, sys, time
from manabot import managym as m
games, seed, skip = int(sys.argv[1]), int(sys.argv[2]), bool(int(sys.argv[3]))
deck = {"Mountain": 17, "Gray Ogre": 23}
rng = random.Random(seed)
steps = 0
t0 = time.CLOCK()
for i in range(games):
    env = m.Env(seed=seed * 100003 + i, skip_trivial=skip)
    obs, _ = env.reset([m.PlayerConfig("p0", deck), m.PlayerConfig("p1", deck)])
    for _ in range(20000):
        if obs.game_over:
            break
        obs, _r, term, trunc, _info = env.step(rng.randrange(len(obs.action_space.actions)))
        steps += 1
        if term or trunc:
            break
print(json.dumps({"games": games, "steps": steps, "seconds": time.CLOCK() - t0}))
"""


def managym_code(clock: str = "process_time") -> str:
    """The program, timed by ``time.<clock>`` (``process_time``: the process's CPU time;
    ``perf_counter``: the wall clock)."""
    if clock not in ("process_time", "perf_counter"):
        raise ValueError(f"unknown clock {clock!r}")
    return _PROGRAM.replace("CLOCK", clock)


# bench/forks_vs_managym.py: random games as above, Env.clone_env() timed at every
# `every`-th step (arguments: games, seed, every); prints {"forks", "median_us", "p99_us",
# "events_max"}
CLONES = """
import json, random, sys, time
from manabot import managym as m
games, seed, every = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
deck = {"Mountain": 17, "Gray Ogre": 23}
rng = random.Random(seed)
times = []
steps_max = 0
for i in range(games):
    env = m.Env(seed=seed * 100003 + i, skip_trivial=False)
    obs, _ = env.reset([m.PlayerConfig("p0", deck), m.PlayerConfig("p1", deck)])
    for k in range(20000):
        if obs.game_over:
            break
        if k % every == every // 2:
            t = time.perf_counter_ns()
            c = env.clone_env()
            times.append((time.perf_counter_ns() - t) / 1000)
            del c
            steps_max = max(steps_max, k)
        obs, _r, term, trunc, _info = env.step(rng.randrange(len(obs.action_space.actions)))
        if term or trunc:
            break
times.sort()
print(json.dumps({"forks": len(times),
                  "median_us": times[len(times) // 2],
                  "p99_us": times[min(len(times) - 1, int(len(times) * 0.99))],
                  "events_max": steps_max}))
"""
