"""Who plays the seats the learner doesn't: kernel agent makers, policies and leagues, and
the shaped reward's type.

:data:`Policy` is any ``(observation, mask) -> action`` callable; :data:`Policies` is
what :func:`mtgk.env.gym_env` takes (one, a league, or a dict of seats to either), and
:func:`seat_policies` reads it into each seat's league.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from mtgk.env.checks import EnvError, whole_number
from mtgk.rules.engine import Agent
from mtgk.rules.state import State

AgentMaker = Callable[[int], Agent]
"""Makes a kernel agent from a seed (an entry of ``mtgk.tools.cli.AGENTS``)."""


Policy = Callable[[dict[str, np.ndarray], np.ndarray], Any]
"""A policy at the table: called with a seat's observation (the dict the learner gets,
``{"observation", "action_mask"}``) and its mask, it returns the action (an int or a
NumPy integer) -- a frozen copy of the learner, a scripted player, a trained model."""

Reward = Callable[[State, State, int], float]
"""A shaped reward (the ``reward`` option): called with the game's state before a step
and after it (the whole truth: a reward is not an observation) and a seat, it returns a
number added to that seat's reward for the step (the sparse end-of-game reward is
still given at the end, added to it)."""

Policies = Policy | Sequence[Policy] | Mapping[int, Policy | Sequence[Policy]]
"""The ``policies`` of :func:`gym_env`: one policy, a league (a list of them: each
episode, one is drawn for the seat by the environment's generator), or a dict from seats
to either."""


def seat_policies(policies: Policies | None, learner: int, seats: int
                   ) -> dict[int, Sequence[Policy]]:
    """Each seat's league (a list of one for a lone policy) from ``policies``."""
    if policies is None:
        return {}
    if isinstance(policies, Mapping):
        given: dict[int, Any] = dict(policies)
    else:
        given = {i: policies for i in range(seats) if i != learner}
    out: dict[int, Sequence[Policy]] = {}
    for seat, league in given.items():
        if whole_number(seat) is None or not 0 <= seat < seats or seat == learner:
            raise EnvError(f"a policy can sit at a seat other than the learner's ({learner}) "
                           f"of 0..{seats - 1}, not at {seat!r}")
        league = [league] if callable(league) else league
        if isinstance(league, str | bytes) or not isinstance(league, Sequence) or not league \
                or not all(callable(f) for f in league):
            raise EnvError(f"the policies of seat {seat} are a callable (observation, mask) "
                           "-> action or a non-empty list of them")
        out[int(seat)] = league
    return out
