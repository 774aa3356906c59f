"""Evaluate a trained policy: games against the kernel's agents, in both seats.

    python examples/training/evaluate.py runs/policy.zip --games 40 --logs runs/eval

The policy (a MaskablePPO zip, examples/training/train.py) plays the learner's seat of
``gymnasium.make("mtgk/Lorwyn-v0", seat=s, opponent=...)`` -- seat 0 and seat 1 --
against each opponent of ``mtgk.search.AGENTS`` named by ``--opponents`` (default
``heuristic,mcts``: the heuristic agent and the search agent), taking the legal action
it likes best (``deterministic=True``, the mask from ``action_masks()``): ``--games``
games per seat, ``--search-games`` against the search agent (it thinks some 15 s a
game).  Both seats play the same deals (game ``i`` of a row has seed ``--seed + i``).

It prints a table: wins, draws and losses (a draw: a draw by the rules or the turn
limit), the win rate and its 95 % Wilson confidence interval.  Each game's log is
saved under ``--logs`` (``<opponent>-seat<s>-<i>.mtgk``: ordinary logs, ``mtgk
verify`` verifies each), and ``--json`` writes the table as JSON.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import time
from pathlib import Path
from typing import Any

import gymnasium
from sb3_contrib import MaskablePPO

# (importing mtgk.env registers mtgk/Lorwyn-v0 with Gymnasium)
from mtgk.env import MtgGymEnv
from mtgk.search import AGENTS, MctsAgent

ENV_ID = "mtgk/Lorwyn-v0"


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate ``wins / n`` (95 % for z = 1.96).

    >>> [round(x, 3) for x in wilson(7, 10)]
    [0.397, 0.892]
    """
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play(model: MaskablePPO, opponent: Any, seat: int, seed: int, log: Path) -> float:
    """One game of the policy at ``seat`` against ``opponent`` (a kernel agent maker):
    its log saved to ``log``; the learner's final reward (+1 won, -1 lost, 0 a draw)."""
    env = gymnasium.make(ENV_ID, seat=seat, opponent=opponent, seed=seed)
    obs, info = env.reset(seed=seed)
    reward, done = 0.0, False
    while not done:
        action, _ = model.predict(obs, action_masks=env.get_wrapper_attr("action_masks")(),
                                  deterministic=True)
        obs, r, terminated, truncated, info = env.step(int(action))
        reward, done = float(r), terminated or truncated
    assert isinstance(env.unwrapped, MtgGymEnv)  # (what gymnasium.make wrapped)
    env.unwrapped.save(log)
    env.close()
    return float(reward)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("policy", type=Path, help="a policy saved by train.py")
    p.add_argument("--games", type=int, default=40, help="games per opponent and seat (default 40)")
    p.add_argument("--search-games", type=int, default=10,
                   help="games per seat against the search agent (default 10: some 15 s each)")
    p.add_argument("--opponents", default="heuristic,mcts",
                   help="agents of mtgk.search.AGENTS, comma-separated (default heuristic,mcts)")
    p.add_argument("--simulations", type=int, default=32,
                   help="the search agent's simulations per decision (default 32, its own)")
    p.add_argument("--seed", type=int, default=1000, help="game i's seed: SEED + i (default 1000)")
    p.add_argument("--logs", type=Path, default=Path("runs/eval"),
                   help="where the games' logs go (default runs/eval)")
    p.add_argument("--json", type=Path, help="also write the table here, as JSON")
    args = p.parse_args(argv)

    model = MaskablePPO.load(args.policy, device="cpu")
    args.logs.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    print(f"{'opponent':<10} {'seat':>4} {'games':>5} {'won':>4} {'drawn':>5} {'lost':>4}"
          f" {'win rate':>8}  {'95% CI (Wilson)':<15} {'time':>5}", flush=True)
    for name in args.opponents.split(","):
        if name not in AGENTS:
            p.error(f"no agent {name!r} in mtgk.search.AGENTS ({', '.join(sorted(AGENTS))})")
        search = AGENTS[name] is MctsAgent
        opponent = (functools.partial(MctsAgent, simulations=args.simulations)
                    if search else AGENTS[name])
        games = args.search_games if search else args.games
        for seat in (0, 1):
            t = time.perf_counter()
            rewards = [play(model, opponent, seat, args.seed + i,
                            args.logs / f"{name}-seat{seat}-{i}.mtgk")
                       for i in range(games)]
            won = sum(r > 0 for r in rewards)
            lost = sum(r < 0 for r in rewards)
            low, high = wilson(won, len(rewards))
            row = {"opponent": name, "seat": seat, "games": len(rewards), "won": won,
                   "drawn": len(rewards) - won - lost, "lost": lost,
                   "win_rate": won / len(rewards) if rewards else 0.0,
                   "ci95": [low, high], "seconds": time.perf_counter() - t}
            rows.append(row)
            print(f"{name:<10} {seat:>4} {row['games']:>5} {won:>4} {row['drawn']:>5} "
                  f"{lost:>4} {row['win_rate']:>8.2f}  {f'[{low:.2f}, {high:.2f}]':<15} "
                  f"{row['seconds']:>4.0f}s", flush=True)
    total = sum(r["games"] for r in rows)
    print(f"{total} games in {time.perf_counter() - started:.0f} s; their logs in "
          f"{args.logs}/ (mtgk verify FILE)", flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps({"policy": str(args.policy), "rows": rows}, indent=1)
                             + "\n")


if __name__ == "__main__":
    main()
