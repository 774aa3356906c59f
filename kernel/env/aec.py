"""The PettingZoo AEC environment: one agent per seat (:class:`MtgAECEnv`, made by
:func:`aec_env`).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from mtgk.cards.definitions import Registry
from mtgk.env.checks import EnvError, whole_number
from mtgk.env.observation import MAX_ACTIONS, OBS_BOUND, obs_size, vocabulary_info
from mtgk.env.policies import Reward
from mtgk.env.setup import Seeds, Setup, make_setup, reseed
from mtgk.env.table import Table
from mtgk.games.replay import DEFAULT_MAX_TURNS
from mtgk.rules.state import copy_state


class MtgAECEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment: one agent per seat (``"player_0"`` ...), the one to act
    in ``agent_selection``.  Reward at the game's end: +1 the winner (each player of the
    winning team, in Two-Headed Giant), -1 the others, 0 each in a draw (plus, with a
    shaped ``reward``, its value for each agent after every step: :func:`aec_env`).  See the
    docs of :mod:`mtgk.env` for observations and actions."""

    metadata = {"name": "mtgk_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, setup: Setup, render_mode: str | None = None) -> None:
        super().__init__()
        self.setup = setup
        self.render_mode = render_mode
        n = len(setup.header.players)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND,
                                      (obs_size(n, setup.history, setup.masks),),
                                      dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (MAX_ACTIONS,), dtype=np.int8)})
        self._act_space = spaces.Discrete(MAX_ACTIONS)
        self.table: Table | None = None
        self.agents: list[str] = []
        self._seeds = Seeds(setup.header.seed)
        self.metadata = {**type(self).metadata,
                         "card_vocabulary": vocabulary_info(setup.cards)}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def _index(self, agent: str) -> int:
        if agent not in self.possible_agents:
            raise EnvError(f"no agent {agent!r}: the agents are "
                           f"{', '.join(self.possible_agents)}")
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game: with ``seed`` (an int or a NumPy integer, :func:`check_seed`),
        the game of that seed, and the environment's generator reseeded from it; without,
        the next game of the generator (the first ``reset()`` plays the seed the
        environment was made with)."""
        game_seed = self._seeds.next(seed)
        if self.table is not None:
            self.table.close()
        self.setup = reseed(self.setup, game_seed)
        self.table = Table(self.setup)
        self._start()

    def _start(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_move()

    def _after_move(self) -> None:
        t = self.table
        assert t is not None
        if t.over:
            winner, won = t.result(), t.winners()
            ends = self.truncations if t.truncated else self.terminations
            for i, a in enumerate(self.possible_agents):
                if a in self.agents:
                    self.rewards[a] = 0.0 if winner in (None, -1) else (
                        1.0 if i in won else -1.0)
                    ends[a] = True
            self.agent_selection = self.agents[0]
        else:
            assert t.seat is not None
            self.agent_selection = self.possible_agents[t.seat]
        for a in self.agents:
            self.infos[a] = t.info(self._index(a))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._index(agent)
        if self.table is None:
            raise EnvError("observe() before reset(): call reset() first")
        return self.table.observation(seat)

    def step(self, action: int | None) -> None:
        if self.table is None:
            raise EnvError("step() before reset(): call reset() first")
        if not self.agents:
            raise EnvError("step() after the game ended (every agent is done): call reset()")
        a = self.agent_selection
        if self.terminations[a] or self.truncations[a]:
            if action is not None and whole_number(action) != 0:
                raise EnvError(f"{a} is done: its step takes None (or 0, the terminal "
                               f"mask's no-op), not {action!r}")
            self._was_dead_step(None)
            return
        if action is None:
            raise EnvError(f"step(None) while {a} has a decision: give an action")
        shaped = self.setup.reward
        before = copy_state(self.table.game.state) if shaped is not None else None
        self.table.act(action)
        self._cumulative_rewards[a] = 0.0
        for k in self.rewards:
            self.rewards[k] = 0.0
        self._after_move()
        if shaped is not None and before is not None:
            after = self.table.game.state
            for i, k in enumerate(self.possible_agents):
                if k in self.rewards:
                    self.rewards[k] += float(shaped(before, after, i))
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.table is None:
            return None
        seat = self.table.seat if self.table.seat is not None else 0
        return self.table.board(seat)

    def close(self) -> None:
        if self.table is not None:
            self.table.close()

    def fork(self) -> MtgAECEnv:
        """An exact, independent copy of this environment."""
        assert self.table is not None
        other = MtgAECEnv(self.setup, self.render_mode)
        other.table = self.table.fork()
        other.agents = list(self.agents)
        other.rewards = dict(self.rewards)
        other._cumulative_rewards = dict(self._cumulative_rewards)
        other.terminations = dict(self.terminations)
        other.truncations = dict(self.truncations)
        other.infos = {a: dict(i) for a, i in self.infos.items()}
        other.agent_selection = self.agent_selection
        other._seeds = copy.deepcopy(self._seeds)
        return other

    def save(self, path: str | Path) -> int:
        """Write the episode so far as an ordinary mtgk log; returns its size."""
        assert self.table is not None
        return self.table.save(path)


def aec_env(decks: Sequence[str | Sequence[str]] | None = None, variant: str = "",
            seed: int | None = 0, registry: Registry | None = None,
            max_turns: int = DEFAULT_MAX_TURNS, skip_trivial: bool = True, text: bool = False,
            render_mode: str | None = None, profile: str | None = None,
            attack: str = "", history: int = 0, masks: bool = False,
            reward: Reward | None = None) -> MtgAECEnv:
    """A PettingZoo AEC environment: one game of the ``decks`` (built-in deck names, deck
    files or card lists; one seat each, two to four; default: the first two built-in
    decks), seed ``seed``: the first ``reset()``'s game and the seed of the environment's
    generator (``reset(seed=s)`` plays seed ``s`` and reseeds the generator, ``reset()``
    plays the generator's next game; ``None``: a seed drawn at random, as ``mtgk play``
    draws one, recorded in the log).  ``variant``: the game variant (``""``: two players, or a free-for-all game of three or four;
    ``"free-for-all"``; ``"two-headed-giant"``: four seats, ``player_0`` & ``player_2``
    against ``player_1`` & ``player_3``, the decks dealt round if fewer than four are
    given); a rules profile name there is taken as ``profile`` (as before multiplayer
    games).  ``profile``: the log's rules profile (default :data:`DEFAULT_PROFILE`).
    ``text``: put the board in words in each ``info`` (slower).  ``attack``: a
    free-for-all game's attack option, ``"multiple"`` (the default), ``"left"`` or
    ``"right"`` (CR 802-804; recorded in the log's header).

    Opt-in (the defaults keep the observation and the reward as they were):
    ``history``: K > 0 adds the ``history`` slice, the last K events as the seat may know
    them (:data:`HISTORY_FEATURES`, :data:`EVENT_TAGS`); ``masks``: adds the per-entity
    validity masks (``mask_*`` slices: :func:`layout`); ``reward``: a shaped reward
    (:data:`Reward`), ``reward(state_before, state_after, seat)`` added to each seat's
    reward at each step (with the +1/-1/0 at the end)."""
    return MtgAECEnv(make_setup(decks, variant, seed, None, None, registry, max_turns,
                            skip_trivial, text, "env", profile, attack, None, history,
                            masks, reward), render_mode)
