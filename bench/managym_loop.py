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


# bench/vector_env.py: managym's native batched VectorEnv (observations written into the
# buffers given to set_buffers, the shapes of manabot's default ObservationSpaceHypers) and
# its single Env, random legal actions; arguments: mode ("vector" or "single"), num_envs,
# steps, seed, opponent policy ("random", "none"); prints {"steps", "seconds", "episodes"}
VECTOR = """
import json, sys, time
import numpy as np
from manabot import managym as m
mode, n, steps, seed, policy = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
deck = {"Mountain": 17, "Gray Ogre": 23}
configs = [m.PlayerConfig("p0", deck), m.PlayerConfig("p1", deck)]
rng = np.random.default_rng(seed)
def count(e):
    return len([a for a in dir(e) if a.isupper()])
if mode == "vector":
    C, P, A, F, E = 60, 40, 64, 2, 32
    nz, nph, nst, na = count(m.ZoneEnum), count(m.PhaseEnum), count(m.StepEnum), count(m.ActionEnum)
    shapes = {"semantic_cards": (2, C), "known_hand": (2, C, 2),
              "agent_player": (1, 2 + nz + nph + nst + 14),
              "opponent_player": (1, 2 + nz + nph + nst + 14),
              "agent_cards": (C, nz + 34), "opponent_cards": (C, nz + 34),
              "agent_permanents": (P, 28), "opponent_permanents": (P, 28),
              "actions": (A, na + 4), "events": (E, 7), "action_focus": (A, F),
              "agent_player_valid": (1,), "opponent_player_valid": (1,),
              "agent_cards_valid": (C,), "opponent_cards_valid": (C,),
              "agent_permanents_valid": (P,), "opponent_permanents_valid": (P,),
              "actions_valid": (A,), "events_valid": (E,)}
    bufs = {k: np.zeros((n, *s), dtype=np.int32 if k == "action_focus" else np.float32)
            for k, s in shapes.items()}
    bufs.update(rewards=np.zeros(n, np.float64), terminated=np.zeros(n, np.uint8),
                truncated=np.zeros(n, np.uint8))
    t0 = time.perf_counter()
    env = m.VectorEnv(num_envs=n, seed=seed, skip_trivial=True, opponent_policy=policy)
    env.set_buffers(bufs)
    env.reset_all_into_buffers(configs)
    valid = bufs["actions_valid"]
    episodes = 0
    for _ in range(steps // n):
        env.step_into_buffers(np.argmax(rng.random(valid.shape) * valid, axis=1).tolist())
        episodes += int(bufs["terminated"].sum() + bufs["truncated"].sum())
    done = steps // n * n
else:
    t0 = time.perf_counter()
    env = m.Env(seed=seed, skip_trivial=True)
    obs, _ = env.reset(configs)
    episodes = done = 0
    while done < steps:
        obs, _r, term, trunc, _info = env.step(int(rng.integers(len(obs.action_space.actions))))
        done += 1
        if term or trunc or obs.game_over:
            episodes += 1
            obs, _ = env.reset(configs)
print(json.dumps({"steps": done, "seconds": time.perf_counter() - t0, "episodes": episodes}))
"""
