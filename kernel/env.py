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
  ``gymnasium.make_vec``) once this module is imported.

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

>>> env = aec_env(decks=["bench/decks/ogres.txt"] * 2, seed=3)
>>> env.reset(seed=3)
>>> env.agent_selection in env.agents, env.observe("player_0")["observation"].shape
(True, (810,))
>>> env.close()
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import operator
import secrets
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeGuard

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from mtgk.agents import HeuristicAgent
from mtgk.cards.decks import builtin_decks, deck_lines, load_deck
from mtgk.cards.definitions import Registry
from mtgk.cards.loading import load_registry
from mtgk.log import events as ev
from mtgk.log.logfile import LogHeader, write_log
from mtgk.log.replay import DEFAULT_MAX_TURNS, new_header
from mtgk.rules.engine import DEFAULT_MAX_EVENTS, STEPS, Agent, Game, RulesError
from mtgk.rules.seats import TWO_HEADED_GIANT, VARIANTS, attack_meta, is_active, same_team
from mtgk.rules.state import Obj, State, copy_state
from mtgk.rules.visibility import Perspective
from mtgk.stepper import Stepper
from mtgk.tools.menus import MORE, Choice, Menu, SeatView

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
    "vocabulary_info",
]

MAX_ACTIONS = 32
"""The size of the action space: at most this many choices in one menu."""
HAND = 10
"""Hand slots (the seat's own hand; cards past the tenth are not encoded)."""
PERMANENTS = 16
"""Battlefield slots per seat (permanents past the sixteenth are not encoded)."""
GRAVEYARD = 8
"""Graveyard slots per seat: its top cards."""
STACK = 6
"""Stack slots, top first."""
DECISION_KINDS = ("priority", "attackers", "blockers", "targets", "modes", "may", "mulligan",
                  "redirect", "choose", "order", "discard", "bottom", "x")
"""Decision kinds with a slot of their own in the one-hot (others share the last slot)."""
ACTION_KINDS = ("pass", "play", "cast", "activate", "form", "option", "attack", "no_attack",
                "block", "no_block", "pick", "done")
"""What a menu choice is (the ``kind`` feature of the ``actions`` slice is its index + 1):
``form``: one form of a cast or activation (targets, modes, X); ``option``: one listed
answer of a decision; ``pick``: one card of a choice of several (or of an order)."""
SEAT_FEATURES = ("life", "library", "hand", "graveyard", "exile", "lands_played", "lost",
                 "active", "mana_W", "mana_U", "mana_B", "mana_R", "mana_G", "mana_C")
CARD_FEATURES = ("present", "card", "mana_value", "land", "creature", "power", "toughness")
PERMANENT_FEATURES = ("present", "card", "tapped", "sick", "creature", "land", "power",
                      "toughness", "damage", "counters", "attacking", "blocking", "token",
                      "face_down")
STACK_FEATURES = ("present", "card", "controller", "kind")
ACTION_FEATURES = ("present", "kind", "card", "target_card", "target_seat", "number")
"""Per action slot: whether it is legal; its :data:`ACTION_KINDS` index + 1; the card of the
object it acts with (the card cast, the creature attacking ...); the card of its first
target object (or of the attacker blocked); the seat it targets or attacks, relative to
the viewer, + 1 (1: the viewer itself); X (or a mode)."""
OBS_BOUND = 1e6
"""The observation space's bounds (no number in an observation reaches them)."""
GLOBAL_FEATURES = ("turn", "my_turn", "over", "stack_size", "menu_depth")
EVENT_TAGS = (
    "GameStarted", "GameVariant", "ObjectCreated", "LibraryShuffled", "TurnBegan", "StepBegan",
    "DecisionMade", "ZoneChanged", "RemovedFromGame", "TokenCreated", "Tapped", "Untapped",
    "CounterPlaced", "CounterRemoved", "Attached", "ControlChanged", "ObjectFlagged",
    "LandPlayed", "Revealed", "SpellCast", "AbilityActivated", "AbilityTriggered",
    "TriggerPutOnStack", "StackItemResolved", "StackItemCountered", "ManaAdded", "ManaSpent",
    "ManaEmptied", "LifeGained", "LifeLost", "DamageDealt", "DamageRedirected",
    "DamageRemoved", "DamageMarked", "AttackersDeclared", "BlockersDeclared",
    "RemovedFromCombat", "CombatEnded", "FirstStrikers", "EffectCreated", "EffectsEnded",
    "PlayerLost", "GameEnded", "DrewFromEmptyLibrary", "DamageResultChanged", "SpellCopied",
    "TargetsChanged", "LibraryOrdered", "Clashed", "DamagePrevented", "EnteredAttacking",
    "AbilityCopied", "Regenerated")
"""The event ids of the ``history`` slice: tag ``EVENT_TAGS[i]`` is event id ``i + 1``
(``0``: an empty row; ``len(EVENT_TAGS) + 1``: a tag not in the table, a pack's).  The
table only grows at its end (tests/test_env.py fails while an event type the kernel or
its plugins register has no id), so an id always means the same event type."""
HISTORY_FEATURES = ("event", "card", "seat", "amount")
"""Per ``history`` row: the event id (:data:`EVENT_TAGS`); the card number of its main
object (``new_obj``, else ``obj``, else ``source``) when the viewer may see which card it
is, else 0; the seat it names (``player``, ``controller``, ``active``, ``winner``,
``from_player``; else the controller of its main object on the battlefield or the stack,
its owner elsewhere), relative to the viewer, + 1 (0: none); its amount (``amount``, ``n``,
``x`` or ``turn``; 0: none)."""
MASK_BLOCKS = ("hand", "battlefield", "graveyard", "stack", "seat")
"""The entity blocks that have a validity mask (``mask_hand``, ``mask_battlefield{k}`` ...,
``mask_history`` too with a history)."""


def layout(seats: int = 2, history: int = 0, masks: bool = False) -> dict[str, slice]:
    """The slices of the observation vector for a game of ``seats`` seats (``history``,
    ``masks``: the environment's options of those names, which add slices at the end).

    Seats are ordered from the viewer's (relative seat 0) on, in turn order.

    * ``global``: turn number, 1 if it is the viewer's turn, 1 if the game is over,
      stack size, how many menus of this decision were answered already;
    * ``step``: one-hot of the step (:data:`mtgk.rules.engine.STEPS`);
    * ``decision``: one-hot of the decision kind (:data:`DECISION_KINDS`, then "other";
      all zero when the seat has no decision to make);
    * ``seat{k}``: :data:`SEAT_FEATURES` of relative seat k (sizes of hidden zones are
      public; mana pools by color, ``C`` colorless);
    * ``hand``: :data:`HAND` slots x :data:`CARD_FEATURES`, the viewer's hand in order;
    * ``battlefield{k}``: :data:`PERMANENTS` slots x :data:`PERMANENT_FEATURES`, the
      permanents relative seat k controls (power and toughness after layers; a face-down
      permanent the viewer may not see has only ``present``, ``tapped``, ``face_down``);
    * ``graveyard{k}``: the card numbers of the top :data:`GRAVEYARD` cards;
    * ``stack``: :data:`STACK` slots x :data:`STACK_FEATURES`, top first (``controller``
      is the relative seat + 1; ``kind`` 1 spell, 2 activated, 3 triggered ability);
    * ``actions``: :data:`MAX_ACTIONS` slots x :data:`ACTION_FEATURES`, the current
      menu's choices (slot i is action i);
    * ``team`` (only with more than two seats; a two-seat vector ends with ``actions``):
      one value per relative seat, 1 if that seat is the viewer or its teammate (Two-Headed
      Giant), else 0.

    "The viewer's turn" (``my_turn``, a seat's ``active``) is its team's turn in
    Two-Headed Giant (both players of the active team have ``active`` 1).

    Opt-in slices, after those (the default vector is the same without them):

    * with ``masks``: ``mask_seat`` (one per relative seat), ``mask_hand`` (:data:`HAND`),
      ``mask_battlefield{k}`` (:data:`PERMANENTS` each), ``mask_graveyard{k}``
      (:data:`GRAVEYARD` each), ``mask_stack`` (:data:`STACK`), and with a history
      ``mask_history`` (``history``): 1 where the slot of that block holds a real
      entity (a player, a card, a permanent, a stack item, an event), 0 where it is padding;
    * with ``history`` K > 0: ``history``, K rows x :data:`HISTORY_FEATURES`: the last K
      events of the game, oldest first, as the viewer may know them (padding at the end).
    """
    parts: list[tuple[str, int]] = [("global", len(GLOBAL_FEATURES)), ("step", len(STEPS)),
                                    ("decision", len(DECISION_KINDS) + 1)]
    parts += [(f"seat{k}", len(SEAT_FEATURES)) for k in range(seats)]
    parts.append(("hand", HAND * len(CARD_FEATURES)))
    parts += [(f"battlefield{k}", PERMANENTS * len(PERMANENT_FEATURES)) for k in range(seats)]
    parts += [(f"graveyard{k}", GRAVEYARD) for k in range(seats)]
    parts.append(("stack", STACK * len(STACK_FEATURES)))
    parts.append(("actions", MAX_ACTIONS * len(ACTION_FEATURES)))
    if seats > 2:
        parts.append(("team", seats))
    if masks:
        parts.append(("mask_seat", seats))
        parts.append(("mask_hand", HAND))
        parts += [(f"mask_battlefield{k}", PERMANENTS) for k in range(seats)]
        parts += [(f"mask_graveyard{k}", GRAVEYARD) for k in range(seats)]
        parts.append(("mask_stack", STACK))
        if history > 0:
            parts.append(("mask_history", history))
    if history > 0:
        parts.append(("history", history * len(HISTORY_FEATURES)))
    out: dict[str, slice] = {}
    at = 0
    for name, n in parts:
        out[name] = slice(at, at + n)
        at += n
    return out


def obs_size(seats: int = 2, history: int = 0, masks: bool = False) -> int:
    """The length of the observation vector for ``seats`` seats (and the opt-in slices:
    :func:`layout`)."""
    return max(s.stop for s in layout(seats, history, masks).values())


class EnvError(Exception):
    """The environment was used wrongly (an action that is not legal now, a step after
    the game ended, a seed that is not one) or the engine failed while playing.  The
    message is one line."""


SEED_LIMIT = 2**62
"""Seeds are integers from 0 to ``SEED_LIMIT - 1``: a log stores 64-bit integers, and the
seeds of the kernel agents at the table (``seed * 2 + seat``) are recorded too."""

TRUNCATING = ("turn-limit", "event-budget")
"""The :class:`~mtgk.log.events.GameEnded` reasons that cut a game short (Gymnasium's
*truncated*: the game's turn limit, the event budget); every other end -- a win, a draw
by the rules (a loop of mandatory actions, no player left) -- *terminates* it."""


def _whole(value: Any) -> int | None:
    """``value`` as an int if it is an integer (Python's or NumPy's; not a bool), else
    ``None``."""
    if isinstance(value, bool | np.bool_):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def check_seed(seed: Any) -> int:
    """``seed`` as an int (a NumPy integer too), or :class:`EnvError` if it is not an
    integer from 0 to :data:`SEED_LIMIT` - 1 (a float, a string, a bool, a negative
    number, one too large for a log)."""
    n = _whole(seed)
    if n is None or not 0 <= n < SEED_LIMIT:
        shown = repr(seed) if len(repr(seed)) <= 40 else repr(seed)[:37] + "..."
        raise EnvError(f"a seed is an integer from 0 to 2**62 - 1, not {shown}")
    return n


def check_action(action: Any) -> int:
    """``action`` as an int (a NumPy integer too), or :class:`EnvError` if it is not an
    integer of the action space (``0 .. MAX_ACTIONS - 1``)."""
    n = _whole(action)
    if n is None:
        shown = repr(action) if len(repr(action)) <= 40 else repr(action)[:37] + "..."
        raise EnvError(f"an action is an integer from 0 to {MAX_ACTIONS - 1} (an index of "
                       f"the mask), not {shown}")
    if not 0 <= n < MAX_ACTIONS:
        raise EnvError(f"action {n} is not legal: actions are 0 to {MAX_ACTIONS - 1} "
                       "(indexes of the mask)")
    return n


# --------------------------------------------------------------------------
# Cards by number


VOCABULARY_FILE = "data/card_vocabulary.txt"
"""The card vocabulary, in the package (``kernel/data/card_vocabulary.txt``): a
``@version N`` line, then one card name a line, card ``k`` on the ``k``-th; ``#`` lines
are comments."""


@functools.cache
def card_vocabulary() -> tuple[int, tuple[str, ...]]:
    """``(version, names)`` of the published card vocabulary: ``names[k - 1]`` is card
    ``k``.  A new version only appends names, so a card's number never changes."""
    text = resources.files("mtgk").joinpath(VOCABULARY_FILE).read_text("utf-8")
    version, names = 0, []
    for line in text.splitlines():
        if line.startswith("@version "):
            version = int(line.split()[1])
        elif line.strip() and not line.startswith("#"):
            names.append(line.strip())
    return version, tuple(names)


VOCABULARY_VERSION = card_vocabulary()[0]
"""The version of the card vocabulary this kernel ships (:func:`card_vocabulary`)."""


def card_numbers(reg: Registry) -> dict[str, int]:
    """Card numbers (0: no card): the published vocabulary's (:func:`card_vocabulary`,
    1 to its size, the same in every version and whatever else is installed), then the
    cards ``reg`` knows that it doesn't have (a pack's), numbered on from there in name
    order.  One number past the last (``len + 1``) is a card with none (a token's own
    name)."""
    _version, names = card_vocabulary()
    out = {name: i + 1 for i, name in enumerate(names)}
    for name in sorted(set(reg.cards) - set(out)):
        out[name] = len(out) + 1
    return out


def vocabulary_info(cards: Mapping[str, int]) -> dict[str, Any]:
    """What an environment says of its card numbers (``metadata["card_vocabulary"]``): the
    vocabulary's ``version`` and ``size``, the ``extension`` (the names numbered after
    it, in order: a pack's cards) and ``other``, the number of a card with none."""
    version, names = card_vocabulary()
    extension = sorted((n for n in cards if cards[n] > len(names)), key=cards.__getitem__)
    return {"version": version, "size": len(names), "extension": extension,
            "other": len(cards) + 1}


# --------------------------------------------------------------------------
# What one seat sees: the board part of the observation


CharsOf = Callable[[int], Any]
"""An object's characteristics after layers (:meth:`mtgk.rules.engine.Game.chars`, or a
lookup in :func:`mtgk.rules.layers.compute`'s result)."""


def _mana(pool: Sequence[str]) -> list[int]:
    counts = dict.fromkeys("WUBRGC", 0)
    for m in pool:
        counts[m if m in counts else "C"] += 1
    return list(counts.values())


def encode_board(state: State, seen: Perspective, chars: CharsOf, cards: Mapping[str, int],
                 out: np.ndarray, where: Mapping[str, slice]) -> None:
    """Write the board slices of ``where`` (:func:`layout`) into ``out``: what
    ``seen.viewer`` may know of ``state`` (``seen`` folded up to it)."""
    viewer = seen.viewer
    assert viewer is not None
    n = len(state.players)
    order = [(viewer + k) % n for k in range(n)]
    rel = {p: k for k, p in enumerate(order)}
    other = len(cards) + 1

    def number(o: Obj) -> int:
        return cards.get(o.card, other) if seen.sees(o) else 0

    g = out[where["global"]]
    g[0], g[1], g[2], g[3] = (state.turn, is_active(state, viewer), state.over,
                              len(state.stack))
    if state.step in STEPS:
        out[where["step"].start + STEPS.index(state.step)] = 1
    exiled = [0] * n
    for oid in state.exile:
        o = state.objects.get(oid)
        if o is not None and 0 <= o.owner < n:
            exiled[o.owner] += 1
    for p, pl in enumerate(state.players):
        seat = out[where[f"seat{rel[p]}"]]
        seat[:8] = (pl.life, len(pl.library), len(pl.hand), len(pl.graveyard), exiled[p],
                    pl.lands_played, pl.lost, is_active(state, p))
        seat[8:] = _mana(pl.mana)
        grave = out[where[f"graveyard{rel[p]}"]]
        for i, oid in enumerate(reversed(pl.graveyard[-GRAVEYARD:])):
            grave[i] = number(state.objects[oid])
    hand = out[where["hand"]].reshape(HAND, len(CARD_FEATURES))
    for i, oid in enumerate(state.players[viewer].hand[:HAND]):
        o = state.objects[oid]
        c = chars(oid)
        hand[i] = (1, number(o), c.mana_value, "Land" in c.types, "Creature" in c.types,
                   c.power or 0, c.toughness or 0)
    combat = state.combat
    slots = [0] * n
    for oid in state.battlefield:
        o = state.objects[oid]
        c = chars(oid)
        k = rel.get(c.controller, 0)
        i = slots[k]
        if i >= PERMANENTS:
            continue
        slots[k] += 1
        row = out[where[f"battlefield{k}"]].reshape(PERMANENTS, len(PERMANENT_FEATURES))[i]
        if o.face_down and not seen.sees(o):
            row[0], row[2], row[13] = 1, o.tapped, 1
            continue
        row[:] = (1, number(o), o.tapped, o.sick, c.is_creature, "Land" in c.types,
                  c.power or 0, c.toughness or 0, o.damage,
                  o.counters.get("+1/+1", 0) - o.counters.get("-1/-1", 0),
                  combat is not None and oid in combat.attackers,
                  combat is not None and oid in combat.blockers, o.token, o.face_down)
    if "team" in where:
        team = out[where["team"]]
        for p in range(n):
            team[rel[p]] = same_team(state, viewer, p)
    stack = out[where["stack"]].reshape(STACK, len(STACK_FEATURES))
    for i, it in enumerate(reversed(state.stack[-STACK:])):
        src = state.objects.get(it.source)
        card = 0
        if src is not None and seen.sees(src):
            card = cards.get(src.card, other)
        elif it.kind == "spell" or src is None:
            card = cards.get(it.source_card, other) if it.source_card else 0
        kind = {"spell": 1, "activated": 2, "triggered": 3}.get(it.kind, 0)
        stack[i] = (1, card, rel.get(it.controller, 0) + 1, kind)
    if "mask_hand" in where:  # (the masks: which slots hold a real entity)
        out[where["mask_seat"]] = 1
        out[where["mask_hand"]] = hand[:, 0]
        out[where["mask_stack"]] = stack[:, 0]
        for p, pl in enumerate(state.players):
            k = rel[p]
            out[where[f"mask_battlefield{k}"]] = out[where[f"battlefield{k}"]].reshape(
                PERMANENTS, len(PERMANENT_FEATURES))[:, 0]
            out[where[f"mask_graveyard{k}"].start + np.arange(min(len(pl.graveyard),
                                                                 GRAVEYARD))] = 1


# --------------------------------------------------------------------------
# What one seat sees: the events so far (the ``history`` slice)

_EVENT_IDS = {tag: i + 1 for i, tag in enumerate(EVENT_TAGS)}
_SEAT_FIELDS = ("player", "controller", "active", "winner", "from_player")
_AMOUNT_FIELDS = ("amount", "n", "x", "turn")
_OBJECT_FIELDS = ("new_obj", "obj", "source")


def _int(x: Any) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def event_row(e: ev.Event, seen: Perspective, state: State, cards: Mapping[str, int]
              ) -> tuple[int, int, int, int]:
    """The :data:`HISTORY_FEATURES` of event ``e`` for ``seen.viewer``: ``seen`` must have
    just folded ``e`` (:meth:`Perspective.after`; ``state``: the state right after it), so
    that what it knows of the objects ``e`` names (:attr:`Perspective.last`) is as of
    ``e``.  A card the viewer may not see is 0; a private field (a library's order, a
    hidden card's name) is never read.  The seat is the one the event names, else the
    one its main object belongs to (its controller on the battlefield or the stack, else
    its owner: whose hand, library ... it is in, which is public)."""
    viewer = seen.viewer
    assert viewer is not None
    seats = len(state.players)
    tag = _EVENT_IDS.get(e.TAG, len(EVENT_TAGS) + 1)
    card = 0
    main: Obj | None = None
    for name in _OBJECT_FIELDS:
        oid = getattr(e, name, None)
        if _int(oid) and oid > 0:
            main = main or state.objects.get(oid)
            k = seen.last.get(oid)
            if k is not None and k[1] is not None:
                card = cards.get(k[1], len(cards) + 1)
                break
    seat = 0
    for name in _SEAT_FIELDS:
        p = getattr(e, name, None)
        if name not in e.PRIVATE and _int(p) and 0 <= p < seats:
            seat = (p - viewer) % seats + 1
            break
    else:
        if main is not None:
            p = main.controller if main.zone in ("battlefield", "stack") else main.owner
            if 0 <= p < seats:
                seat = (p - viewer) % seats + 1
    amount = 0
    for name in _AMOUNT_FIELDS:
        n = getattr(e, name, None)
        if name not in e.PRIVATE and _int(n):
            amount = n
            break
    return tag, card, seat, amount


class _HistoryView(SeatView):
    """A :class:`SeatView` that also keeps each seat's last ``k`` events as rows
    (:func:`event_row`), made as the events are folded (each event once)."""

    def __init__(self, seats: int, k: int, cards: Mapping[str, int]) -> None:
        super().__init__(seats)
        self.cards = cards
        self.rows: list[deque[tuple[int, int, int, int]]] = [
            deque(maxlen=k) for _ in range(seats)]

    def folded_one(self, e: ev.Event) -> None:
        s = self.state
        for p, rows in zip(self.seen, self.rows, strict=True):
            rows.append(event_row(e, p, s, self.cards))


def _copy(x: Any) -> Any:
    """A copy of an answer (plain lists, numbers, strings)."""
    return [_copy(i) for i in x] if isinstance(x, list | tuple) else x


# --------------------------------------------------------------------------
# A table: one game, any seats played by the caller


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


def _seat_policies(policies: Policies | None, learner: int, seats: int
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
        if _whole(seat) is None or not 0 <= seat < seats or seat == learner:
            raise EnvError(f"a policy can sit at a seat other than the learner's ({learner}) "
                           f"of 0..{seats - 1}, not at {seat!r}")
        league = [league] if callable(league) else league
        if isinstance(league, str | bytes) or not isinstance(league, Sequence) or not league \
                or not all(callable(f) for f in league):
            raise EnvError(f"the policies of seat {seat} are a callable (observation, mask) "
                           "-> action or a non-empty list of them")
        out[int(seat)] = league
    return out


@dataclass
class _Setup:
    reg: Registry
    cards: dict[str, int]
    header: LogHeader
    external: tuple[int, ...]
    internal: dict[int, tuple[AgentMaker, int]] = field(default_factory=dict)
    skip_trivial: bool = True
    text: bool = False
    policies: dict[int, Sequence[Policy]] = field(default_factory=dict)
    history: int = 0
    masks: bool = False
    reward: Reward | None = None


class Table:
    """One game whose ``external`` seats the caller plays step by step (the others are
    played by kernel agents: ``internal`` maps a seat to an agent maker and its seed).

    ``seat`` is the seat to act (``None`` once the game is over), ``menu`` its current
    :class:`Menu`; :meth:`act` answers it; :meth:`observation` and :meth:`info` give
    what a seat sees; :meth:`fork` copies the table exactly; :meth:`save` writes the log.
    """

    def __init__(self, setup: _Setup, stepper: Stepper | None = None) -> None:
        self.setup = setup
        self.header = setup.header
        self.cards = setup.cards
        self.seats = len(setup.header.players)
        self.history = setup.history
        self.where = layout(self.seats, setup.history, setup.masks)
        self.size = obs_size(self.seats, setup.history, setup.masks)
        self.view: SeatView = (_HistoryView(self.seats, setup.history, setup.cards)
                               if setup.history > 0 else SeatView(self.seats))
        self.menu: Menu | None = None
        self.seat: int | None = None
        self.refusal = ""
        if stepper is None:
            agents: list[Agent | None] = []
            for i in range(self.seats):
                if i in setup.external:
                    agents.append(None)
                else:
                    make, seed = setup.internal[i]
                    agents.append(make(seed))
            try:
                stepper = Stepper(setup.reg, setup.header, agents)
            except Exception as exc:  # noqa: BLE001 - the engine's failure, in one line
                raise EnvError(f"the engine failed: {type(exc).__name__}: {exc}") from exc
        self.stepper = stepper
        self._settle()

    @property
    def game(self) -> Game:
        return self.stepper.game

    @property
    def over(self) -> bool:
        return self.seat is None

    def _settle(self) -> None:
        """Take the stepper's pending decision: a menu to answer (trivial menus are
        answered here), or the end."""
        skip = self.setup.skip_trivial
        while True:
            d = self.stepper.decision
            if d is None:
                self.seat, self.menu = None, None
                return
            menu = Menu(self.game, d, self.cards)
            while menu.answer is MORE and len(menu.choices) == 1 and skip:
                menu.pick(0)
            if menu.answer is MORE:
                self.seat, self.menu = d.player, menu
                return
            self._give(menu.answer)

    def _give(self, answer: Any) -> None:
        """Answer the pending decision (an answer refused is noted in :attr:`refusal`,
        and the decision stays pending)."""
        try:
            self.stepper.answer(answer)
        except RulesError as err:
            self.refusal = str(err)
        except Exception as exc:  # noqa: BLE001 - the engine's failure, in one line
            self.seat, self.menu = None, None
            raise EnvError(f"the engine failed after {len(self.game.log)} events: "
                           f"{type(exc).__name__}: {exc}") from exc
        else:
            self.refusal = ""

    def legal(self) -> list[int]:
        """The legal actions now (indexes into the current menu)."""
        return list(range(min(len(self.menu.choices), MAX_ACTIONS))) if self.menu else []

    def act(self, action: int) -> None:
        """Answer the current menu with choice ``action`` (an int or a NumPy integer:
        :func:`check_action`; :class:`EnvError` if it is not legal now, and nothing
        changes)."""
        action = check_action(action)
        if self.menu is None:
            raise EnvError("the game is over: there is nothing to decide")
        if not action < min(len(self.menu.choices), MAX_ACTIONS):
            raise EnvError(f"action {action} is not legal now: the legal actions are "
                           f"0..{min(len(self.menu.choices), MAX_ACTIONS) - 1}")
        answer = self.menu.pick(action)
        if answer is MORE:
            return
        self.menu = None
        self._give(answer)
        self._settle()

    # ------------------------------------------------------------------ seeing
    def observation(self, seat: int) -> dict[str, np.ndarray]:
        """What ``seat`` sees, as numbers (see :func:`layout`)."""
        self.view.catch_up(self.game.log)
        w = self.where
        vec = np.zeros(self.size, dtype=np.float32)
        encode_board(self.view.state, self.view.seen[seat], self.game.chars, self.cards, vec, w)
        if isinstance(self.view, _HistoryView):
            rows = self.view.rows[seat]
            if rows:
                hist = vec[w["history"]].reshape(self.history, len(HISTORY_FEATURES))
                hist[:len(rows)] = np.array(rows, dtype=np.float32)
                if "mask_history" in w:
                    vec[w["mask_history"].start + np.arange(len(rows))] = 1
        mask = np.zeros(MAX_ACTIONS, dtype=np.int8)
        if self.over:
            mask[0] = 1  # (the end: one legal no-op, so that a sampler never sees no choice)
        menu = self.menu
        if menu is not None and self.seat == seat:
            vec[w["global"].start + 4] = menu.depth
            k = menu.d.kind
            at = DECISION_KINDS.index(k) if k in DECISION_KINDS else len(DECISION_KINDS)
            vec[w["decision"].start + at] = 1
            acts = vec[w["actions"]].reshape(MAX_ACTIONS, len(ACTION_FEATURES))
            for i, c in enumerate(menu.choices[:MAX_ACTIONS]):
                acts[i] = (1, ACTION_KINDS.index(c.kind) + 1, c.card, c.target_card,
                           c.target_seat, c.number)
                mask[i] = 1
        return {"observation": vec, "action_mask": mask}

    def info(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees, in words: its decision and options (when it is to act),
        and with ``text`` the board as ``mtgk replay --as`` shows it."""
        out: dict[str, Any] = {}
        menu = self.menu
        if menu is not None and self.seat == seat:
            out["decision"] = menu.d.kind
            out["prompt"] = menu.d.prompt
            out["options"] = [c.label for c in menu.choices[:MAX_ACTIONS]]
            if self.refusal:
                out["refused"] = self.refusal
        if self.setup.text:
            out["board"] = self.board(seat)
        return out

    def board(self, seat: int) -> str:
        """The board as ``seat`` sees it, in text (``mtgk replay --as``)."""
        from mtgk.render import render_state

        self.view.catch_up(self.game.log)
        return render_state(self.view.state, self.setup.reg, as_player=seat,
                            seen=self.view.seen[seat])

    def result(self) -> int | None:
        """The winner (-1: a draw) once the game is over, else ``None`` (in Two-Headed
        Giant the winning team's first player: :meth:`winners` has both)."""
        if not self.over:
            return None
        w = self.game.state.winner
        return -1 if w is None else w

    def end_reason(self) -> str | None:
        """Why the game ended (the :class:`~mtgk.log.events.GameEnded` reason: ``""`` a
        win or a draw with no player left, ``"loop"``, ``"turn-limit"``,
        ``"event-budget"``), or ``None`` while it goes on."""
        if not self.over:
            return None
        for env in reversed(self.game.log):
            if isinstance(env.event, ev.GameEnded):
                return env.event.reason
        return ""

    @property
    def truncated(self) -> bool:
        """Whether the game is over because it was cut short (:data:`TRUNCATING`: the turn
        limit, the event budget) rather than ended by the rules."""
        return self.end_reason() in TRUNCATING

    def winners(self) -> list[int]:
        """The seats that won (the winning team's players; none for a draw or a game
        not over)."""
        w = self.result()
        if w is None or w < 0:
            return []
        s = self.game.state
        return [p for p in range(self.seats) if same_team(s, w, p)]

    # ------------------------------------------------------------------ copies and logs
    def fork(self) -> Table:
        """An exact, independent copy (:meth:`mtgk.stepper.Stepper.fork`: the seats'
        kernel agents copied too), at the same menu."""
        t = Table(self.setup, self.stepper.fork())
        if self.menu is not None and t.menu is not None:
            menu = Menu(t.game, t.menu.d, t.cards)
            for i in self.menu.picked:
                menu.pick(i)
            t.menu = menu
        return t

    def __copy__(self) -> Table:
        return self.fork()

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return self.fork()

    def __reduce__(self) -> Any:
        raise EnvError("a table cannot be pickled: use fork() for a copy, or save() its log")

    def save(self, path: str | Path) -> int:
        """Write the game so far as an ordinary log (``mtgk verify`` accepts it)."""
        return write_log(path, self.header, self.game.log)

    def close(self) -> None:
        """Stop playing this table (its game is freed with it; there is nothing to end)."""
        self.menu, self.seat = None, None


# --------------------------------------------------------------------------
# Building a table


def _decks(reg: Registry, decks: Sequence[str | Sequence[str]] | None) -> tuple[
        list[str], list[list[str]]]:
    names: list[str] = []
    out: list[list[str]] = []
    if decks is None:
        decks = [k for k in builtin_decks(reg) if "/" not in k][:2]
    for d in decks:
        if isinstance(d, str):
            names.append(Path(d).stem if Path(d).suffix else d)
            out.append(load_deck(d, reg))
        else:
            names.append("cards")
            out.append(list(d))
    if len(out) < 2:
        raise EnvError("a game needs a deck for each seat (two or more)")
    return names, out


DEFAULT_PROFILE = "lorwyn-2007"
"""The rules profile of an environment's games unless told otherwise."""


def game_variant(variant: str, profile: str | None) -> tuple[str, str]:
    """``(game variant, rules profile)`` of an environment's ``variant`` and ``profile``
    arguments: ``variant`` is a game variant (``"two-headed-giant"``, ``"free-for-all"``, or
    with underscores; ``""``: by the number of decks) -- or, as before multiplayer games, a
    rules profile (then ``profile`` must not be given too)."""
    name = variant.replace("-", "_")
    if not variant or name in VARIANTS:
        return name, profile or DEFAULT_PROFILE
    if profile is not None:
        raise EnvError(f"unknown game variant {variant!r} (known: "
                       f"{', '.join(v.replace('_', '-') for v in VARIANTS)})")
    return "", variant


def _setup(decks: Sequence[str | Sequence[str]] | None, variant: str, seed: int | None,
           external: Sequence[int] | None, opponent: AgentMaker | None,
           registry: Registry | None, max_turns: int, skip_trivial: bool, text: bool,
           kind: str, profile: str | None = None, attack: str = "",
           policies: Policies | None = None, history: int = 0, masks: bool = False,
           reward: Reward | None = None) -> _Setup:
    # (no seed: one drawn at random, as `mtgk play` draws one; the log records it)
    seed = secrets.randbelow(SEED_LIMIT) if seed is None else check_seed(seed)
    reg = registry or _registry()
    names, cards = _decks(reg, decks)
    kind_of_game, profile = game_variant(variant, profile)
    teams: list[list[int]] = []
    if kind_of_game == TWO_HEADED_GIANT:
        if len(cards) < 4:  # (dealt round the seats, as `mtgk play` deals them)
            names = [names[i % len(names)] for i in range(4)]
            cards = [cards[i % len(cards)] for i in range(4)]
        teams = [[0, 2], [1, 3]]
    seats = len(cards)
    ext = tuple(range(seats)) if external is None else tuple(external)
    for i in ext:
        if not 0 <= i < seats:
            raise EnvError(f"no seat {i}: this game's seats are 0..{seats - 1}")
    at_table = _seat_policies(policies, ext[0], seats) if ext else {}
    ext = tuple(sorted({*ext, *at_table}))
    internal: dict[int, tuple[AgentMaker, int]] = {}
    agents_meta: list[dict[str, Any]] = []
    for i in range(seats):
        if i in at_table:
            agents_meta.append({"kind": "policy"})
        elif i in ext:
            agents_meta.append({"kind": kind})
        else:
            make = opponent or HeuristicAgent
            internal[i] = (make, seed * 2 + i)
            agents_meta.append({"kind": getattr(make, "__name__", "agent"), "seed": seed * 2 + i})
    players = [f"player_{i}" for i in range(seats)]
    meta = {"agents": agents_meta, "deck_names": names, "max_turns": max_turns,
            "max_events": DEFAULT_MAX_EVENTS}
    try:
        meta.update(attack_meta(attack, seats, kind_of_game))
        header = new_header(reg, players, [deck_lines(d) for d in cards], seed,
                            profile=profile, meta=meta, variant=kind_of_game, teams=teams)
    except ValueError as err:  # a game the kernel can't play (five seats ...)
        raise EnvError(str(err)) from None
    k = _whole(history)
    if k is None or k < 0:
        raise EnvError(f"history is a number of events (0: none), not {history!r}")
    if reward is not None and not callable(reward):
        raise EnvError("reward is a callable (state_before, state_after, seat) -> float")
    return _Setup(reg, card_numbers(reg), header, ext, internal, skip_trivial, text, at_table,
                  k, bool(masks), reward)


@functools.cache
def _registry() -> Registry:
    return load_registry()


def _reseed(setup: _Setup, seed: int) -> _Setup:
    h = setup.header
    meta = dict(h.meta)
    meta["agents"] = [dict(a, seed=seed * 2 + i) if "seed" in a else dict(a)
                      for i, a in enumerate(meta["agents"])]
    header = new_header(setup.reg, h.players, h.decks, seed, profile=h.profile, meta=meta)
    internal = {i: (make, seed * 2 + i) for i, (make, _s) in setup.internal.items()}
    return dataclasses.replace(setup, header=header, internal=internal)


class _Seeds:
    """The seeds of an environment's games, as Gymnasium seeds its environments: a seed
    given to ``reset`` is that game's, and reseeds the environment's generator; no seed
    is the generator's next draw -- but the first game of an environment is the seed it
    was made with (so ``env(seed=3).reset()`` is ``reset(seed=3)``)."""

    def __init__(self, seed: int) -> None:
        self.first: int | None = seed
        self.rng = np.random.default_rng(seed)

    def next(self, seed: Any, rng: np.random.Generator | None = None) -> int:
        """The next game's seed (``rng``: the generator to draw from, instead of
        :attr:`rng`; the caller reseeds it when ``seed`` is given)."""
        if seed is not None:
            n = check_seed(seed)
            self.rng, self.first = np.random.default_rng(n), None
            return n
        if self.first is not None:
            n, self.first = self.first, None
            return n
        return int((rng or self.rng).integers(SEED_LIMIT))


# --------------------------------------------------------------------------
# PettingZoo


class MtgAECEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment: one agent per seat (``"player_0"`` ...), the one to act
    in ``agent_selection``.  Reward at the game's end: +1 the winner (each player of the
    winning team, in Two-Headed Giant), -1 the others, 0 each in a draw (plus, with a
    shaped ``reward``, its value for each agent after every step: :func:`aec_env`).  See the
    module docs for observations and actions."""

    metadata = {"name": "mtgk_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, setup: _Setup, render_mode: str | None = None) -> None:
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
        self._seeds = _Seeds(setup.header.seed)
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
        self.setup = _reseed(self.setup, game_seed)
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
            if action is not None and _whole(action) != 0:
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
    return MtgAECEnv(_setup(decks, variant, seed, None, None, registry, max_turns,
                            skip_trivial, text, "env", profile, attack, None, history,
                            masks, reward), render_mode)


# --------------------------------------------------------------------------
# Gymnasium


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

    def __init__(self, setup: _Setup, seat: int, render_mode: str | None = None) -> None:
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
        self._seeds = _Seeds(setup.header.seed)
        self._np_random, self._np_random_seed = seeding.np_random(setup.header.seed)
        self.metadata = {**type(self).metadata,
                         "card_vocabulary": vocabulary_info(setup.cards)}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a game: with ``seed`` (:func:`check_seed`), that seed's game (and the
        generator, :attr:`np_random`, reseeded from it); without, the generator's next
        game (the first ``reset()``: the seed the environment was made with)."""
        if seed is not None:
            seed = check_seed(seed)
        super().reset(seed=seed)
        game_seed = self._seeds.next(seed, self.np_random)
        if self.table is not None:
            self.table.close()
        self.setup = _reseed(self.setup, game_seed)
        self.league = {}
        for i, league in sorted(self.setup.policies.items()):
            self.league[i] = int(self.np_random.integers(len(league))) if len(league) > 1 else 0
        self.playing = {i: self.setup.policies[i][k] for i, k in self.league.items()}
        self.table = Table(self.setup)
        self._others()
        info = self.table.info(self.seat)
        if self.league:
            info["league"] = dict(self.league)
        return self.table.observation(self.seat), info

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
            n = _whole(answer)
            if n is None or n not in t.legal():
                shown = repr(answer) if len(repr(answer)) <= 40 else repr(answer)[:37] + "..."
                raise EnvError(f"the policy at seat {seat} answered {shown}, not a legal "
                               f"action (the legal ones: 0..{len(t.legal()) - 1})")
            t.act(n)

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
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
        return t.observation(self.seat), reward, t.over and not truncated, truncated, info

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
    return MtgGymEnv(_setup(decks, variant, seed, [seat], opponent, registry, max_turns,
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
    again is harmless)."""
    for env_id, kwargs in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="mtgk.env:gym_env",
                               kwargs=copy.deepcopy(kwargs))


register_envs()
