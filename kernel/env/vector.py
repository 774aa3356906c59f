"""The vector environment: N games stepped together in this process, their observations
written into preallocated NumPy buffers (:class:`MtgVectorEnv`, made by :func:`vector_env`;
``gymnasium.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point")``).

Each of the N games is a :class:`~mtgk.env.gym.MtgGymEnv` (a :class:`~mtgk.env.table.Table`
driven by a :class:`~mtgk.stepper.Stepper`: no thread, no process): the learner plays
its seat, the other seats are played by the opponent agent or the policies, exactly as in
the single environment.  :meth:`MtgVectorEnv.step` answers each game's menu with its
action and writes the game's next observation into row ``i`` of :attr:`MtgVectorEnv.obs`
and :attr:`MtgVectorEnv.masks`, in place: from the events appended since that row was last
written (each seat's :class:`~mtgk.env.observation.BoardSight` reads only those), and
when a game appended none (the next menu of the same decision: another attacker, a
spell's targets) only the row's menu part is written again.

**Autoreset** is Gymnasium's ``NEXT_STEP`` (``metadata["autoreset_mode"]``, the mode of
``SyncVectorEnv``): the step that ends game ``i`` returns its terminal observation (its
mask: one legal no-op, action 0; ``terminated`` or ``truncated`` set, the reward of the
end); the next step ignores the action given for ``i`` (the no-op the mask offers),
starts sub-environment ``i``'s next game and returns that game's first observation with
reward 0 and neither flag set.  Sampling every action from the mask never picks an
illegal one, the autoreset step included.

**Seeds**, as ``SyncVectorEnv`` seeds N single environments: ``reset(seed=s)`` plays seed
``s + i`` in game ``i`` (a list: seed ``seeds[i]``), and reseeds sub-environment ``i``'s
generator from it; ``reset()`` and every autoreset play sub-environment ``i``'s
generator's next game (:meth:`MtgGymEnv.reset`).  ``vector_env(num_envs, seed=s)`` makes
sub-environment ``i`` as ``gym_env(seed=s + i)`` (its first ``reset()``: seed ``s + i``);
``seed=None``: each draws its own seed at random.  So game ``i`` of the vector environment
is, observation for observation and byte for byte, the single environment
``gym_env(seed=s + i)`` reset and stepped with the same actions (tests/test_env_vector.py).

>>> envs = vector_env(2, seed=3)
>>> obs, infos = envs.reset(seed=3)
>>> obs["observation"].shape, obs["action_mask"].shape, envs.action_masks().dtype
((2, 810), (2, 32), dtype('bool'))
>>> envs.close()
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from mtgk.env.checks import EnvError, check_seed, whole_number
from mtgk.env.gym import MtgGymEnv, gym_env
from mtgk.env.observation import MAX_ACTIONS, obs_size
from mtgk.rules.engine import Game


class MtgVectorEnv(gymnasium.vector.VectorEnv):  # type: ignore[misc]
    """N :class:`~mtgk.env.gym.MtgGymEnv` games stepped together (see the module's docs:
    autoreset ``NEXT_STEP``, seeds ``s + i``).

    The observations are two preallocated buffers, :attr:`obs` (float32, ``(N, size)``)
    and :attr:`masks` (int8, ``(N, MAX_ACTIONS)``), returned as the dict
    ``{"observation": obs, "action_mask": masks}`` by :meth:`reset` and :meth:`step` and
    overwritten in place by the next call (``copy=True``: copies are returned instead).
    :attr:`rewards` (float64), :attr:`terminations` and :attr:`truncations` (bool) are
    buffers too.  ``infos``: each step's ``info`` of every game, in Gymnasium's vector
    form (``infos["options"][i]`` and the ``"_options"`` mask ...); without it
    (the default) the step's ``infos`` is ``{}``, which is faster.  :meth:`action_masks`
    is the masks as booleans (a MaskablePPO-style learner's).  ``envs``: the N
    sub-environments (``envs[i].table`` is game ``i``: :meth:`save` writes its log)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["ansi"]}

    def __init__(self, envs: Sequence[MtgGymEnv], copy: bool = False,
                 infos: bool = False) -> None:
        if not envs:
            raise EnvError("a vector environment needs one game or more (num_envs >= 1)")
        self.envs = list(envs)
        self.num_envs = len(self.envs)
        first = self.envs[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = first.render_mode
        self.metadata = {**type(self).metadata,
                         "card_vocabulary": first.metadata["card_vocabulary"]}
        self.copy = copy
        self.infos = infos
        setup = first.setup
        size = obs_size(len(setup.header.players), setup.history, setup.masks)
        n = self.num_envs
        self.obs = np.zeros((n, size), dtype=np.float32)
        self.masks = np.zeros((n, MAX_ACTIONS), dtype=np.int8)
        self.rewards = np.zeros(n, dtype=np.float64)
        self.terminations = np.zeros(n, dtype=np.bool_)
        self.truncations = np.zeros(n, dtype=np.bool_)
        self.autoreset = np.zeros(n, dtype=np.bool_)
        """Which games ended at the last step (the next step starts their next game)."""
        self._written: list[tuple[Game | None, int]] = [(None, -1)] * n
        self._observations: dict[str, np.ndarray] = {"observation": self.obs,
                                                     "action_mask": self.masks}

    # ------------------------------------------------------------------ buffers
    def _write(self, i: int) -> None:
        """Write game ``i``'s observation into row ``i`` (its menu part only when the game
        appended no event since the row was written)."""
        env = self.envs[i]
        t = env.table
        assert t is not None
        game = t.game
        n = len(game.log)
        same = self._written[i]
        t.observe_into(env.seat, self.obs[i], self.masks[i],
                       board=not (same[0] is game and same[1] == n))
        self._written[i] = (game, n)

    def _out(self) -> dict[str, np.ndarray]:
        if self.copy:
            return {"observation": self.obs.copy(), "action_mask": self.masks.copy()}
        return self._observations

    def _merge(self, infos: dict[str, Any], i: int, info: dict[str, Any]) -> dict[str, Any]:
        return self._add_info(infos, info, i) if self.infos else infos  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ Gymnasium
    def reset(self, *, seed: int | Sequence[int | None] | None = None,
              options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a game in each sub-environment: ``seed`` an int ``s`` (game ``i``: seed
        ``s + i``), a list of N seeds (or ``None`` s), or ``None`` (each sub-environment's
        generator's next game)."""
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif whole_number(seed) is not None:
            base = check_seed(seed)
            seeds = [check_seed(base + i) for i in range(self.num_envs)]
        elif isinstance(seed, Sequence) and not isinstance(seed, str | bytes):
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise EnvError(f"reset() takes {self.num_envs} seeds (one per game), "
                               f"not {len(seeds)}")
            seeds = [None if s is None else check_seed(s) for s in seeds]
        else:
            check_seed(seed)  # (raises the one-line EnvError)
            seeds = []
        infos: dict[str, Any] = {}
        for i, env in enumerate(self.envs):
            info = env.start(seeds[i])
            self._write(i)
            infos = self._merge(infos, i, info)
        self.rewards[:] = 0
        self.terminations[:] = False
        self.truncations[:] = False
        self.autoreset[:] = False
        return self._out(), infos

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                          np.ndarray, dict[str, Any]]:
        """Answer each game's menu with ``actions[i]`` (an integer of the action space; a
        game that ended at the last step ignores it and starts its next game)."""
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,):
            raise EnvError(f"step() takes {self.num_envs} actions (one per game), not an "
                           f"array of shape {acts.shape}")
        infos: dict[str, Any] = {}
        rewards, terms, truncs, auto = (self.rewards, self.terminations, self.truncations,
                                        self.autoreset)
        listed = acts.tolist() if acts.dtype.kind in "iu" else list(acts)
        for i, env in enumerate(self.envs):
            if auto[i]:
                info = env.start(None)
                rewards[i], terms[i], truncs[i] = 0.0, False, False
                auto[i] = False
            else:
                reward, term, trunc, info = env.advance(listed[i])
                rewards[i], terms[i], truncs[i] = reward, term, trunc
                auto[i] = term or trunc
            self._write(i)
            if self.infos:
                infos = self._merge(infos, i, info)
        if self.copy:
            return (self._out(), rewards.copy(), terms.copy(), truncs.copy(), infos)
        return self._observations, rewards, terms, truncs, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of each game now, as booleans (``(N, MAX_ACTIONS)``: the
        masks of the last observation; a game that just ended offers action 0, the
        no-op that its autoreset ignores)."""
        return self.masks.astype(bool)

    def render(self) -> tuple[Any, ...] | None:
        """Each game's board in words (``render_mode="ansi"``)."""
        return tuple(env.render() for env in self.envs)

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()

    def save(self, i: int, path: Any) -> int:
        """Write game ``i``'s episode so far as an ordinary mtgk log; returns its size."""
        return self.envs[i].save(path)


def vector_env(num_envs: int = 1, seed: int | None = None, copy: bool = False,
               infos: bool = False, forks: bool = False, **kwargs: Any) -> MtgVectorEnv:
    """A vector environment of ``num_envs`` games: sub-environment ``i`` is
    ``gym_env(seed=seed + i, **kwargs)`` (``seed=None``: each its own seed drawn at
    random), so any :func:`~mtgk.env.gym.gym_env` argument can be given (``decks``,
    ``variant``, ``opponent``, ``policies``, ``history`` ...).  ``copy``: return copies
    of the buffers rather than the buffers; ``infos``: gather each game's ``info``
    (slower).  ``forks``: let the games record checkpoints, as the single environment's
    do (a sub-environment's :meth:`~mtgk.env.gym.MtgGymEnv.fork` then costs the same early
    and late in a game; without, the default, a fork plays the game again from its start,
    and each step is a little faster).  ``gymnasium.make_vec`` of a registered id with
    ``vectorization_mode="vector_entry_point"`` calls this."""
    n = whole_number(num_envs)
    if n is None or n < 1:
        raise EnvError(f"num_envs is a number of games (1 or more), not {num_envs!r}")
    kwargs.pop("max_episode_steps", None)  # (make_vec's; a game has its own limits)
    base = None if seed is None else check_seed(seed)
    envs = [gym_env(seed=None if base is None else check_seed(base + i), **kwargs)
            for i in range(n)]
    if not forks:
        for env in envs:
            env.setup = dataclasses.replace(env.setup, forks=False)
    return MtgVectorEnv(envs, copy=copy, infos=infos)
