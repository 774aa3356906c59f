"""A step environment for game-playing agents: PettingZoo (AEC) and Gymnasium.

A step environment gives one answer and gets back the next question
(:meth:`Table.act`).  A :class:`Table` drives its game with a
:class:`~mtgk.stepper.Stepper` (no thread: the engine and the caller take turns
in one thread), so a game is as deterministic as ``mtgk play`` (same seed, same
actions: the same log, byte for byte).

* :func:`aec_env` -- a PettingZoo AEC environment, one agent per seat
  (``"player_0"``, ``"player_1"``, ...; as many seats as the decks given);
* :func:`gym_env` -- a Gymnasium environment for one seat against a fixed
  opponent (any kernel agent; default :class:`~mtgk.agents.HeuristicAgent`), or
  against policies (:data:`Policy`: any ``(observation, mask) -> action``
  callable, or a league of them drawn from per episode: self-play);
  Gymnasium's registry has it as :data:`ENV_IDS` (``gymnasium.make("mtgk/Lorwyn-v0")``,
  ``gymnasium.make_vec``) once this module is imported;
* :func:`vector_env` -- N of those games stepped together in this process, observations
  written into preallocated NumPy buffers, autoreset ``NEXT_STEP``
  (``gymnasium.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point")``).

**Episodes end** *terminated* (a win, a draw by the rules) or *truncated* (the turn
limit, the event budget: :data:`TRUNCATING`); the terminal observation's mask is one
legal no-op, action 0.  **Seeds** are Gymnasium's: ``reset(seed=s)`` plays seed ``s`` and
reseeds the environment's generator, ``reset()`` plays its next draw
(:func:`check_seed` says which seeds are seeds).

**What a seat sees.**  Observations are built only from what that seat may
know, by the model of ``--as`` (:class:`mtgk.rules.visibility.Perspective`, folded
along the log): its own hand, the public zones (face-down cards it may not see
as only face down), counts of the hidden zones.  The readable form is in
``info`` (``"options"``: the legal actions in words; ``"board"``: the board as
``mtgk replay --as`` shows it, when the environment is made with ``text=True``).

**The numeric observation** is a dict ``{"observation": float32[N],
"action_mask": int8[MAX_ACTIONS]}``; the vector's slices are
:func:`layout` (documented there and in docs/agents.md).  Opt-in, both environments
append the last K events as the seat may know them (``history=K``: :data:`EVENT_TAGS`,
:data:`HISTORY_FEATURES`) and per-entity validity masks (``masks=True``), and add a
shaped reward to the end-of-game one (``reward=``: :data:`Reward`); without them the
vector and the reward are as they were.  Cards are numbered
by :attr:`Table.cards` (``0``: no card, or one the seat may not see): the published
vocabulary's numbers (:func:`card_numbers`; an environment's
``metadata["card_vocabulary"]`` says its version), which never change.

**Actions** are ``Discrete(MAX_ACTIONS)``: action ``i`` picks the ``i``-th
legal choice of the current *menu* (``info["options"][i]``; the vector's
``actions`` slice describes each).  An engine decision is answered in one or
more menus (see :class:`Menu`):

* priority: first *what* (pass, play a land, cast a card, activate an ability of
  a permanent), then, when that has several forms, *how* (its targets, modes,
  X, alternative cost: one choice per form the engine lists);
* declare attackers: one menu per creature that could attack: don't attack, or
  attack each player or planeswalker it may attack;
* declare blockers: one menu per creature that could block: don't block, or
  block each attacker it can block (requirements -- "must be blocked", menace --
  are applied to the result as the kernel's own agents apply them);
* a choice among listed answers (targets, modes, may, mulligan, redirect, X,
  choose ...): one menu, one choice per answer;
* a choice of several (discard, bottom, sacrifice ...): one menu per card picked,
  with "done" once enough are picked (or at any point of an "up to");
* ordering triggered abilities: one menu per place, first to go on the stack first;
* combat damage assignment: the engine's default (lethal damage to each blocker in
  order, the rest to the last, or to the player with trample) is taken.

A menu with one choice is answered without a step when ``skip_trivial`` (the
default); a menu with more than :data:`MAX_ACTIONS` choices offers the first
:data:`MAX_ACTIONS` (the engine lists passing first).

:meth:`Table.fork` (and ``copy.copy``) is an exact, independent copy
(:meth:`mtgk.stepper.Stepper.fork`: it costs the same early and late in a game).  :meth:`Table.save` writes the episode as an ordinary log
that ``mtgk verify`` accepts.

The package's modules: :mod:`mtgk.env.observation` (the vector's layout, card numbers,
the board and ``history`` encodings), :mod:`mtgk.env.checks` (:class:`EnvError`, seeds and
actions), :mod:`mtgk.env.policies` (who plays the other seats), :mod:`mtgk.env.setup`
(building a table from an environment's arguments), :mod:`mtgk.env.table` (:class:`Table`),
:mod:`mtgk.env.aec` (PettingZoo), :mod:`mtgk.env.gym` (Gymnasium and its registry) and
:mod:`mtgk.env.vector` (the vector environment).
Everything is imported from :mod:`mtgk.env` itself.

>>> env = aec_env(decks=["bench/decks/ogres.txt"] * 2, seed=3)
>>> env.reset(seed=3)
>>> env.agent_selection in env.agents, env.observe("player_0")["observation"].shape
(True, (810,))
>>> env.close()
"""

from __future__ import annotations

from mtgk.env.aec import MtgAECEnv, aec_env
from mtgk.env.checks import (
    SEED_LIMIT,
    TRUNCATING,
    EnvError,
    check_action,
    check_seed,
)
from mtgk.env.gym import ENV_IDS, LORWYN_DECKS, MtgGymEnv, gym_env, register_envs
from mtgk.env.observation import (
    ACTION_FEATURES,
    ACTION_KINDS,
    DECISION_KINDS,
    EVENT_TAGS,
    HISTORY_FEATURES,
    MAX_ACTIONS,
    VOCABULARY_VERSION,
    card_numbers,
    card_vocabulary,
    encode_board,
    event_row,
    layout,
    obs_size,
    vocabulary_info,
)
from mtgk.env.observation import CARD_FEATURES as CARD_FEATURES
from mtgk.env.observation import GLOBAL_FEATURES as GLOBAL_FEATURES
from mtgk.env.observation import GRAVEYARD as GRAVEYARD
from mtgk.env.observation import HAND as HAND
from mtgk.env.observation import MASK_BLOCKS as MASK_BLOCKS
from mtgk.env.observation import OBS_BOUND as OBS_BOUND
from mtgk.env.observation import PERMANENT_FEATURES as PERMANENT_FEATURES
from mtgk.env.observation import PERMANENTS as PERMANENTS
from mtgk.env.observation import SEAT_FEATURES as SEAT_FEATURES
from mtgk.env.observation import STACK as STACK
from mtgk.env.observation import STACK_FEATURES as STACK_FEATURES
from mtgk.env.observation import VOCABULARY_FILE as VOCABULARY_FILE
from mtgk.env.observation import CharsOf as CharsOf
from mtgk.env.policies import AgentMaker as AgentMaker
from mtgk.env.policies import Policies, Policy, Reward
from mtgk.env.setup import DEFAULT_PROFILE as DEFAULT_PROFILE
from mtgk.env.setup import game_variant as game_variant
from mtgk.env.table import Table
from mtgk.env.vector import MtgVectorEnv, vector_env
from mtgk.menus import Choice, Menu, SeatView

# (the names imported ``as`` themselves are the old single module's others, outside
# __all__: kept as mtgk.env.HAND and the like)
__all__ = [
    "ACTION_FEATURES",
    "ACTION_KINDS",
    "DECISION_KINDS",
    "ENV_IDS",
    "EVENT_TAGS",
    "HISTORY_FEATURES",
    "LORWYN_DECKS",
    "MAX_ACTIONS",
    "SEED_LIMIT",
    "TRUNCATING",
    "VOCABULARY_VERSION",
    "Choice",
    "EnvError",
    "Menu",
    "MtgAECEnv",
    "MtgGymEnv",
    "MtgVectorEnv",
    "Policies",
    "Policy",
    "Reward",
    "SeatView",
    "Table",
    "aec_env",
    "card_numbers",
    "card_vocabulary",
    "check_action",
    "check_seed",
    "encode_board",
    "event_row",
    "gym_env",
    "layout",
    "obs_size",
    "register_envs",
    "vector_env",
    "vocabulary_info",
]


register_envs()  # (importing mtgk.env registers ENV_IDS with Gymnasium: docs/agents.md)
