"""The rules engine: turns, priority, the stack, combat and state-based actions.

A :class:`Game` owns a state and its log.  The engine only ever changes the
state by appending an event (:meth:`Game.emit`), which the projector folds in.
Every choice is asked of the player's agent as a :class:`Decision`; the answer
is checked, then recorded as a :class:`~mtgk.log.events.DecisionMade` event.
Random outcomes (shuffles) are recorded with their results.

>>> from mtgk.cards.loading import load_registry
>>> from mtgk.agents import RandomAgent
>>> reg = load_registry()
>>> g = Game(reg, ["alice", "bob"], seed=1)
>>> g
Game(players=['alice', 'bob'], seed=1, events=1)
"""

from __future__ import annotations

from mtgk.rules.actions import ABILITY_ZONES, COLOR_WORDS, MAX_TARGET_COMBOS, LegalActions
from mtgk.rules.casting import KNOWN_TO_CONTROLLERS_OF, ZONE_WORDS, Casting
from mtgk.rules.combat import Combat
from mtgk.rules.core import (
    BASIC_MANA,
    DEFAULT_MAX_EVENTS,
    PASS,
    Agent,
    Decision,
    GameOver,
    RulesError,
)
from mtgk.rules.damage import Damage
from mtgk.rules.kept import NEUTRAL_EVENTS, StaleCache, StaleCharacteristics
from mtgk.rules.payment import ManaPayment
from mtgk.rules.priority import LOOP_WINDOW, PriorityAndStack
from mtgk.rules.sba import StateBasedActions
from mtgk.rules.triggers import TriggeredAbilities
from mtgk.rules.turns import COMBAT_DAMAGE_STEPS, SKIP_DRAW, STEPS, TurnStructure
from mtgk.rules.zones import Move, ZoneChanges

__all__ = [
    "Game",
    "ABILITY_ZONES",
    "Agent",
    "BASIC_MANA",
    "COLOR_WORDS",
    "COMBAT_DAMAGE_STEPS",
    "DEFAULT_MAX_EVENTS",
    "Decision",
    "GameOver",
    "KNOWN_TO_CONTROLLERS_OF",
    "LOOP_WINDOW",
    "MAX_TARGET_COMBOS",
    "Move",
    "NEUTRAL_EVENTS",
    "PASS",
    "RulesError",
    "SKIP_DRAW",
    "STEPS",
    "StaleCache",
    "StaleCharacteristics",
    "ZONE_WORDS",
]


class Game(TurnStructure, PriorityAndStack, LegalActions, Casting, ManaPayment,
           TriggeredAbilities, StateBasedActions, ZoneChanges, Damage, Combat):
    """One game: its state, its log, the registry of cards and the players' agents.

    The parts of the rules are its bases, one module each (see the package docstring of
    :mod:`mtgk.rules`); :class:`~mtgk.rules.core.GameCore` holds its fields.
    """
