"""Train a policy for mtgk/Lorwyn-v0 with sb3-contrib's MaskablePPO, on the CPU.

The environment is taken as Gymnasium makes it, ``gymnasium.make("mtgk/Lorwyn-v0")``,
and MaskablePPO reads its legal actions from the env's own ``action_masks()``: no
wrapper, no glue.  The learner plays seat 0 against the kernel's heuristic agent (or
``--opponent random`` / ``mcts``), or, with ``--opponent self``, against a league of
frozen copies of itself: the env's ``policies=`` option seats any
``(observation, mask) -> action`` callable, and a snapshot appended to the league
list joins it from the next episode (docs/agents.md, "Policies at the table").

    python examples/training/train.py --steps 4096 --out runs/policy.zip

Seeds are fixed (``--seed``: the environment's games, the network's initialisation,
PyTorch's sampling), so the same command trains the same policy.  One line is printed
per rollout; the policy is saved with ``model.save`` (a zip ``MaskablePPO.load`` reads;
examples/training/evaluate.py plays it).
"""

from __future__ import annotations

import argparse
import copy
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.callbacks import BaseCallback

# (importing mtgk.env registers mtgk/Lorwyn-v0 with Gymnasium)
from mtgk.env import MAX_ACTIONS, Policy, obs_size
from mtgk.search import AGENTS

ENV_ID = "mtgk/Lorwyn-v0"
OPPONENTS = ("heuristic", "random", "mcts", "self")


class Frozen:
    """A frozen copy of a policy network, as the env seats a policy: called with the
    seat's observation and mask, it answers the legal action the network likes best."""

    def __init__(self, policy: MaskableActorCriticPolicy) -> None:
        self.policy = copy.deepcopy(policy)
        self.policy.set_training_mode(False)

    def __call__(self, obs: dict[str, np.ndarray], mask: np.ndarray) -> int:
        action, _ = self.policy.predict(obs, action_masks=mask.astype(bool),
                                        deterministic=True)
        return int(action)


class LegalAtRandom:
    """A policy that answers a legal action at random (seeded): the league's first
    member, before the learner has a snapshot."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, obs: dict[str, np.ndarray], mask: np.ndarray) -> int:
        return int(self.rng.choice(np.flatnonzero(mask)))


class Progress(BaseCallback):
    """One line per rollout: steps so far, the episodes that ended in it (won, lost,
    other: a draw or the turn limit), their mean length in steps, and speed; with a
    league, a snapshot of the learner joins it every ``snapshot_every`` steps."""

    def __init__(self, league: list[Policy] | None, snapshot_every: int) -> None:
        super().__init__()
        self.league = league
        self.snapshot_every = snapshot_every
        self.next_snapshot = snapshot_every
        self.rewards: list[float] = []
        self.lengths: list[int] = []
        self.start = time.perf_counter()

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            if "episode" in info:  # (Monitor's record of an episode that just ended)
                self.rewards.append(float(info["episode"]["r"]))
                self.lengths.append(int(info["episode"]["l"]))
        if self.league is not None and self.num_timesteps >= self.next_snapshot:
            assert isinstance(self.model.policy, MaskableActorCriticPolicy)
            self.league.append(Frozen(self.model.policy))
            self.next_snapshot += self.snapshot_every
        return True

    def _on_rollout_end(self) -> None:
        r = np.array(self.rewards)
        won, lost = int((r > 0).sum()), int((r < 0).sum())
        mean_len = float(np.mean(self.lengths)) if self.lengths else 0.0
        speed = self.num_timesteps / (time.perf_counter() - self.start)
        league = f"  league {len(self.league)}" if self.league is not None else ""
        print(f"steps {self.num_timesteps:6d}  episodes {len(r):3d}  won {won:3d}  "
              f"lost {lost:3d}  other {len(r) - won - lost:2d}  mean length {mean_len:5.1f}  "
              f"{speed:5.0f} steps/s{league}", flush=True)
        self.rewards, self.lengths = [], []


def make_env(opponent: str, seed: int, league: list[Policy] | None) -> gymnasium.Env:
    """The registered env, the learner at seat 0: against a kernel agent of
    ``mtgk.search.AGENTS``, or (``self``) against the league."""
    kwargs: dict[str, Any] = {"seed": seed}
    if opponent == "self":
        kwargs["policies"] = league
    else:
        kwargs["opponent"] = AGENTS[opponent]
    return gymnasium.make(ENV_ID, **kwargs)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--steps", type=int, default=4096, help="learner steps (default 4096)")
    p.add_argument("--seed", type=int, default=0, help="the seed of everything (default 0)")
    p.add_argument("--opponent", choices=OPPONENTS, default="heuristic",
                   help="who plays seat 1 (default heuristic; self: a league of snapshots)")
    p.add_argument("--snapshot-every", type=int, default=1024,
                   help="with --opponent self: steps between snapshots (default 1024)")
    p.add_argument("--rollout", type=int, default=512,
                   help="steps per rollout, PPO's n_steps (default 512)")
    p.add_argument("--out", type=Path, default=Path("runs/policy.zip"),
                   help="where the policy is saved (default runs/policy.zip)")
    args = p.parse_args(argv)

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # (a small network: one thread is fastest, and repeatable)
    started = time.perf_counter()
    league: list[Policy] | None = None
    if args.opponent == "self":
        league = [LegalAtRandom(args.seed)]  # the first opponent; snapshots join it
    env = make_env(args.opponent, args.seed, league)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=args.rollout, batch_size=64,
                        n_epochs=4, learning_rate=3e-4, gamma=0.99, seed=args.seed,
                        verbose=0, device="cpu")
    print(f"training on {ENV_ID} against {args.opponent}: {args.steps} steps, seed "
          f"{args.seed}, observation {obs_size(2)} numbers, {MAX_ACTIONS} actions", flush=True)
    model.learn(total_timesteps=args.steps,
                callback=Progress(league, args.snapshot_every), progress_bar=False)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    model.save(args.out)
    env.close()
    print(f"saved {args.out} after {model.num_timesteps} steps in "
          f"{time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()
