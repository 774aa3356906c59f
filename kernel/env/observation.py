"""What one seat sees, as numbers: the observation vector's layout, the card numbers, the
board slices and the ``history`` rows.

:func:`layout` gives the vector's slices (documented there and in docs/agents.md);
:func:`encode_board` writes the board part from what a seat may know
(:class:`~mtgk.rules.visibility.Perspective`); :func:`event_row` makes one ``history`` row
and :class:`HistoryView` keeps each seat's last rows as the log is folded.  Cards are
numbered by the published vocabulary (:func:`card_vocabulary`, :func:`card_numbers`).
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from typing import Any, Protocol, TypeGuard

import numpy as np

from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.menus import SeatView
from mtgk.rules.engine import STEPS
from mtgk.rules.seats import is_active, same_team
from mtgk.rules.state import Obj, State
from mtgk.rules.visibility import Perspective, sees

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


class Sees(Protocol):
    """What :func:`encode_board` asks of a seat's sight: whose it is, and whether it may
    know which card an object is (a :class:`~mtgk.rules.visibility.Perspective`, or the
    lighter :class:`BoardSight`)."""

    @property
    def viewer(self) -> int | None: ...

    def sees(self, o: Obj) -> bool: ...


class BoardSight:
    """What the board part of one seat's observation needs of a
    :class:`~mtgk.rules.visibility.Perspective`: which cards were shown to the seat
    (``Revealed``, forgotten when their library is shuffled or rearranged), kept from the
    events alone, so that :func:`encode_board` can read the game's own state (a full
    perspective folds a state of its own: the state just before each event).  It answers
    :meth:`sees` as the perspective folded along the same log does, for every object the
    board shows (tests/test_env_vector.py compares the two).  :meth:`catch_up` reads the
    events appended since the last call; an event that rearranges a library without
    saying how (``"order"`` private but no ``order`` field) makes it :attr:`lost`, and the
    table falls back to the full perspective."""

    def __init__(self, viewer: int, seats: int) -> None:
        self.viewer = viewer
        self.seats = seats
        self.revealed: dict[int, set[int]] = {}
        self.folded = 0
        self.lost = False

    def sees(self, o: Obj) -> bool:
        """Whether the seat may know which card ``o`` is (rule 1 of
        :mod:`mtgk.rules.visibility`)."""
        if sees(o, self.viewer):
            return True
        return self.viewer in self.revealed.get(o.id, ())

    def catch_up(self, log: Sequence[ev.Envelope]) -> None:
        """Read the events of ``log`` not read yet."""
        revealed = self.revealed
        for env in log[self.folded:]:
            e = env.event
            if isinstance(e, ev.Revealed):
                to = set(e.to) if e.to else set(range(self.seats))
                for oid in e.objs:
                    revealed.setdefault(oid, set()).update(to)
            elif "order" in e.PRIVATE and revealed:
                # (a shuffle or a rearrangement: the library's cards are ``order``'s, the
                # same before and after; a perspective reads them from the state before)
                order = getattr(e, "order", None)
                player = getattr(e, "player", -1)
                if not isinstance(order, tuple):
                    self.lost = True
                elif _int(player) and 0 <= player < self.seats:
                    keep = {player} if not isinstance(e, ev.LibraryShuffled) else set()
                    for oid in order:
                        if oid in revealed:
                            revealed[oid] &= keep
        self.folded = len(log)


def _mana(pool: Sequence[str]) -> list[int]:
    counts = dict.fromkeys("WUBRGC", 0)
    for m in pool:
        counts[m if m in counts else "C"] += 1
    return list(counts.values())


_STACK_KINDS = {"spell": 1, "activated": 2, "triggered": 3}
_NP = len(PERMANENT_FEATURES)
_NC = len(CARD_FEATURES)
_NS = len(STACK_FEATURES)


def encode_board(state: State, seen: Sees, chars: CharsOf, cards: Mapping[str, int],
                 out: np.ndarray, where: Mapping[str, slice]) -> None:
    """Write the board slices of ``where`` (:func:`layout`) into ``out``: what
    ``seen.viewer`` may know of ``state`` (``seen`` folded up to it).  The slices are
    written whole (their empty slots as zeros); the others (``decision``, ``actions``,
    ``history``, ``global``'s ``menu_depth``) are left as they are.

    (The board is built in a Python list and written into ``out`` in a few slice
    assignments: a NumPy write per value cost more than the rest of the encoding.)"""
    viewer = seen.viewer
    assert viewer is not None
    n = len(state.players)
    rel = {(viewer + k) % n: k for k in range(n)}
    other = len(cards) + 1
    sees_o = seen.sees
    objects = state.objects

    out[where["global"].start:where["global"].start + 4] = (
        state.turn, is_active(state, viewer), state.over, len(state.stack))
    step = where["step"]
    steps = [0] * (step.stop - step.start)
    if state.step in STEPS:
        steps[STEPS.index(state.step)] = 1
    out[step] = steps

    # seats, hand, battlefields, graveyards and stack: one run of the vector
    base = where["seat0"].start
    top = where["stack"].stop
    run: list[Any] = [0] * (top - base)
    exiled = [0] * n
    for oid in state.exile:
        o = objects.get(oid)
        if o is not None and 0 <= o.owner < n:
            exiled[o.owner] += 1
    grave_mask: list[int] = [0] * n
    for p, pl in enumerate(state.players):
        k = rel[p]
        at = where[f"seat{k}"].start - base
        run[at:at + 14] = (pl.life, len(pl.library), len(pl.hand), len(pl.graveyard),
                           exiled[p], pl.lands_played, pl.lost, is_active(state, p),
                           *_mana(pl.mana))
        at = where[f"graveyard{k}"].start - base
        shown = pl.graveyard[-GRAVEYARD:]
        grave_mask[k] = len(shown)
        for i, oid in enumerate(reversed(shown)):
            o = objects[oid]
            run[at + i] = cards.get(o.card, other) if sees_o(o) else 0
    at = where["hand"].start - base
    held = state.players[viewer].hand[:HAND]
    for i, oid in enumerate(held):
        o = objects[oid]
        c = chars(oid)
        types = c.types
        j = at + i * _NC
        run[j:j + _NC] = (1, cards.get(o.card, other) if sees_o(o) else 0, c.mana_value,
                          "Land" in types, "Creature" in types, c.power or 0,
                          c.toughness or 0)
    combat = state.combat
    attackers = combat.attackers if combat is not None else ()
    blockers = combat.blockers if combat is not None else ()
    slots = [0] * n
    fields = [where[f"battlefield{k}"].start - base for k in range(n)]
    for oid in state.battlefield:
        o = objects[oid]
        c = chars(oid)
        k = rel.get(c.controller, 0)
        i = slots[k]
        if i >= PERMANENTS:
            continue
        slots[k] += 1
        j = fields[k] + i * _NP
        if o.face_down and not sees_o(o):
            run[j], run[j + 2], run[j + 13] = 1, o.tapped, 1
            continue
        counters = o.counters
        run[j:j + _NP] = (1, cards.get(o.card, other) if sees_o(o) else 0, o.tapped, o.sick,
                          c.is_creature, "Land" in c.types, c.power or 0, c.toughness or 0,
                          o.damage,
                          counters.get("+1/+1", 0) - counters.get("-1/-1", 0),
                          oid in attackers, oid in blockers, o.token, o.face_down)
    at = where["stack"].start - base
    shown_stack = state.stack[-STACK:]
    for i, it in enumerate(reversed(shown_stack)):
        src = objects.get(it.source)
        card = 0
        if src is not None and sees_o(src):
            card = cards.get(src.card, other)
        elif it.kind == "spell" or src is None:
            card = cards.get(it.source_card, other) if it.source_card else 0
        j = at + i * _NS
        run[j:j + _NS] = (1, card, rel.get(it.controller, 0) + 1,
                          _STACK_KINDS.get(it.kind, 0))
    out[base:top] = run
    if "team" in where:
        team = [0] * n
        for p in range(n):
            team[rel[p]] = same_team(state, viewer, p)
        out[where["team"]] = team
    if "mask_hand" in where:  # (the masks: which slots hold a real entity)
        out[where["mask_seat"]] = 1
        out[where["mask_hand"]] = [1] * len(held) + [0] * (HAND - len(held))
        out[where["mask_stack"]] = [1] * len(shown_stack) + [0] * (STACK - len(shown_stack))
        for k in range(n):
            out[where[f"mask_battlefield{k}"]] = [1] * slots[k] + [0] * (PERMANENTS - slots[k])
            out[where[f"mask_graveyard{k}"]] = ([1] * grave_mask[k]
                                                + [0] * (GRAVEYARD - grave_mask[k]))


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


class HistoryView(SeatView):
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

