"""The Gymnasium environment: one seat against kernel agents or policies
(:class:`MtgGymEnv`, made by :func:`gym_env`), and the ids it is registered under in
Gymnasium's registry (:data:`ENV_IDS`, :func:`register_envs`).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from mtgk.agents import HeuristicAgent
from mtgk.cards.definitions import Registry
from mtgk.env.checks import EnvError, check_action, check_seed, whole_number
from mtgk.env.observation import MAX_ACTIONS, OBS_BOUND, obs_size, vocabulary_info
from mtgk.env.policies import AgentMaker, Policies, Policy, Reward
from mtgk.env.setup import Seeds, Setup, make_setup, reseed
from mtgk.env.table import Table
from mtgk.games.replay import DEFAULT_MAX_TURNS
from mtgk.rules.state import copy_state


class MtgGymEnv(gymnasium.Env):  # type: ignore[misc]
    """A Gymnasium environment: the learner plays seat ``seat``; the other seats are played
    by kernel agents, or by policies (``(observation, mask) -> action`` callables, each
    seat's drawn per episode from its league: :func:`gym_env`).  Reward +1 for a win, -1
    for a loss, 0 for a draw, at the end (plus, with a shaped ``reward``, its value at
    every step: :func:`gym_env`); a game stopped by its turn limit (or the event
    budget) ends *truncated*, any other end *terminated*.  An action of the space the mask rules out is taken as action 0
    (``info["invalid_action"]``); one outside the space, or not an integer, is an
    :class:`EnvError`.  :meth:`action_masks` is the current mask (sb3-contrib's
    ``MaskablePPO`` asks for it)."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, setup: Setup, seat: int, render_mode: str | None = None) -> None:
        self.setup = setup
        self.seat = seat
        self.render_mode = render_mode
        n = len(setup.header.players)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-OBS_BOUND, OBS_BOUND,
                                      (obs_size(n, setup.history, setup.masks),),
                                      dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (MAX_ACTIONS,), dtype=np.int8)})
        self.action_space = spaces.Discrete(MAX_ACTIONS)
        self.table: Table | None = None
        self.playing: dict[int, Policy] = {}
        """The policy at each policy seat this episode (drawn from its league)."""
        self.league: dict[int, int] = {}
        """Which of its league's policies each policy seat plays this episode (an index)."""
        self._seeds = Seeds(setup.header.seed)
        self._np_random, self._np_random_seed = seeding.np_random(setup.header.seed)
        self.metadata = {**type(self).metadata,
                         "card_vocabulary": vocabulary_info(setup.cards)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a game: with ``seed`` (:func:`check_seed`), that seed's game (and the
        generator, :attr:`np_random`, reseeded from it); without, the generator's next
        game (the first ``reset()``: the seed the environment was made with)."""
        info = self.start(seed)
        assert self.table is not None
        return self.table.observation(self.seat), info

    def start(self, seed: int | None = None) -> dict[str, Any]:
        """:meth:`reset` without the observation (what the vector environment calls,
        writing the observation into its buffers): the new game's ``info``."""
        if seed is not None:
            seed = check_seed(seed)
        super().reset(seed=seed)
        game_seed = self._seeds.next(seed, self.np_random)
        if self.table is not None:
            self.table.close()
        self.setup = reseed(self.setup, game_seed)
        self.league = {}
        for i, league in sorted(self.setup.policies.items()):
            self.league[i] = int(self.np_random.integers(len(league))) if len(league) > 1 else 0
        self.playing = {i: self.setup.policies[i][k] for i, k in self.league.items()}
        self.table = Table(self.setup)
        self._others()
        info = self.table.info(self.seat)
        if self.league:
            info["league"] = dict(self.league)
        return info

    def _others(self) -> None:
        """Let the policies at the table play until the learner has a decision (or the
        game ends)."""
        t = self.table
        assert t is not None
        while t.seat is not None and t.seat != self.seat:
            seat = t.seat
            obs = t.observation(seat)
            answer = self.playing[seat](obs, obs["action_mask"])
            if isinstance(answer, np.ndarray) and answer.size == 1:
                answer = answer.reshape(())
            n = whole_number(answer)
            if n is None or n not in t.legal():
                shown = repr(answer) if len(repr(answer)) <= 40 else repr(answer)[:37] + "..."
                raise EnvError(f"the policy at seat {seat} answered {shown}, not a legal "
                               f"action (the legal ones: 0..{len(t.legal()) - 1})")
            t.act(n)

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
        reward, terminated, truncated, info = self.advance(action)
        assert self.table is not None
        return self.table.observation(self.seat), reward, terminated, truncated, info

    def advance(self, action: int) -> tuple[float, bool, bool, dict[str, Any]]:
        """:meth:`step` without the observation (what the vector environment calls):
        ``(reward, terminated, truncated, info)``."""
        t = self.table
        if t is None:
            raise EnvError("step() before reset(): call reset() first")
        if t.over:
            raise EnvError("step() after the game ended: call reset()")
        act = check_action(action)
        invalid = act not in t.legal()
        shaped = self.setup.reward
        before = copy_state(t.game.state) if shaped is not None else None
        t.act(0 if invalid else act)
        self._others()
        reward = 0.0
        if t.over:
            w = t.result()
            reward = 0.0 if w in (None, -1) else (1.0 if self.seat in t.winners() else -1.0)
        if shaped is not None and before is not None:
            reward += float(shaped(before, t.game.state, self.seat))
        info = t.info(self.seat)
        if invalid:
            info["invalid_action"] = True
        truncated = t.over and t.truncated
        return reward, t.over and not truncated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (``MAX_ACTIONS`` of them; the observation's
        ``action_mask``): what sb3-contrib's ``MaskablePPO`` calls.  Once the game is over
        (and before :meth:`reset`), only action 0, the no-op."""
        if self.table is None:
            mask = np.zeros(MAX_ACTIONS, dtype=bool)
            mask[0] = True
            return mask
        return self.table.observation(self.seat)["action_mask"].astype(bool)

    def render(self) -> str | None:
        return self.table.board(self.seat) if self.table is not None else None

    def close(self) -> None:
        if self.table is not None:
            self.table.close()

    def fork(self) -> MtgGymEnv:
        """An exact, independent copy (the opponent made anew from its seed, re-run; the
        policies at the table are the same objects: a policy that keeps state shares it)."""
        assert self.table is not None
        other = MtgGymEnv(self.setup, self.seat, self.render_mode)
        other.table = self.table.fork()
        other._seeds = copy.deepcopy(self._seeds)
        other._np_random = copy.deepcopy(self._np_random)
        other.playing, other.league = dict(self.playing), dict(self.league)
        return other

    def save(self, path: str | Path) -> int:
        """Write the episode so far as an ordinary mtgk log; returns its size."""
        assert self.table is not None
        return self.table.save(path)


def gym_env(decks: Sequence[str | Sequence[str]] | None = None, variant: str = "",
            seed: int | None = 0, seat: int = 0, opponent: AgentMaker = HeuristicAgent,
            registry: Registry | None = None, max_turns: int = DEFAULT_MAX_TURNS,
            skip_trivial: bool = True, text: bool = False,
            render_mode: str | None = None, profile: str | None = None,
            attack: str = "", policies: Policies | None = None, history: int = 0,
            masks: bool = False, reward: Reward | None = None) -> MtgGymEnv:
    """A Gymnasium environment: the learner plays ``seat``, ``opponent`` (a kernel agent
    maker taking a seed, such as :class:`~mtgk.agents.RandomAgent`) every other seat --
    but those ``policies`` take (:data:`Policies`: a policy, ``(observation, mask) ->
    action``, for every other seat; a list of them, a league, one drawn per episode and
    seat by the environment's generator, :attr:`MtgGymEnv.league` and ``info["league"]``
    say which; or a dict from seats to either).  A league list is read at each
    :meth:`~MtgGymEnv.reset`: a policy appended to it joins from the next episode.  The
    other arguments are :func:`aec_env`'s (``history``, ``masks``, ``reward``: the opt-in
    observation slices and shaped reward; ``reward(state_before, state_after, seat)`` is
    called once per learner step, ``state_before`` before its action and ``state_after``
    once the other seats have played up to its next decision)."""
    return MtgGymEnv(make_setup(decks, variant, seed, [seat], opponent, registry, max_turns,
                            skip_trivial, text, "env", profile, attack, policies, history,
                            masks, reward),
                     seat, render_mode)


# --------------------------------------------------------------------------
# Gymnasium's registry

LORWYN_DECKS = ("Lorwyn Giants & Treefolk", "Lorwyn Kithkin & Faerie Flyers")
"""The built-in decks of the registered environments."""

ENV_IDS: dict[str, dict[str, Any]] = {
    "mtgk/Lorwyn-v0": {"decks": list(LORWYN_DECKS), "seed": None},
    "mtgk/Lorwyn-FFA3-v0": {"decks": [*LORWYN_DECKS, LORWYN_DECKS[0]], "seed": None},
    "mtgk/Lorwyn-FFA4-v0": {"decks": [*LORWYN_DECKS, *LORWYN_DECKS], "seed": None},
    "mtgk/Lorwyn-2HG-v0": {"decks": list(LORWYN_DECKS), "variant": "two-headed-giant",
                           "seed": None},
}
"""The Gymnasium ids :func:`register_envs` registers, and their :func:`gym_env` arguments:
``Lorwyn-v0`` the two built-in Lorwyn decks head to head; ``Lorwyn-FFA3-v0`` and
``Lorwyn-FFA4-v0`` a free-for-all game of three and four (the decks dealt round);
``Lorwyn-2HG-v0`` Two-Headed Giant (seats 0 & 2 against 1 & 3).  The learner plays seat 0
against :class:`~mtgk.agents.HeuristicAgent` unless ``gymnasium.make`` is told otherwise
(any :func:`gym_env` argument: ``seed=``, ``seat=``, ``opponent=``, ``policies=`` ...).
Made without a seed, an environment's generator starts from one drawn at random (as
Gymnasium's own environments' do), so that the sub-environments of ``make_vec`` play
different games even when ``reset()`` is given none; ``seed=`` makes it deterministic."""


def register_envs() -> None:
    """Register :data:`ENV_IDS` with Gymnasium (done when :mod:`mtgk.env` is imported;
    again is harmless): ``gymnasium.make`` makes a :func:`gym_env`, ``gymnasium.make_vec``
    with ``vectorization_mode="vector_entry_point"`` a :func:`mtgk.env.vector.vector_env`
    (N games in this process, observations in preallocated buffers)."""
    for env_id, kwargs in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="mtgk.env:gym_env",
                               vector_entry_point="mtgk.env:vector_env",
                               kwargs=copy.deepcopy(kwargs))

