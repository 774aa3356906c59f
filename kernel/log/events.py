"""Events: every change to a game is one of these.

Each event is a frozen :class:`msgspec.Struct` with an explicit, stable string
tag (``TAG``) and a schema version (``VERSION``).  The tag, not the class name,
is what is written to logs, so classes may be renamed or moved freely.  All
event classes form one tagged union, :data:`EVENT_TYPES` (tag -> class), that
plugins may extend with :func:`event`.

The log wraps every event in an :class:`Envelope` carrying its gapless
sequence number and its *cause*: the sequence number of the decision or event
that produced it (``-1`` for none).

>>> ev = CounterPlaced(obj=7, kind="loyalty", n=2)
>>> ev
CounterPlaced(obj=7, kind='loyalty', n=2)
>>> ev.TAG, ev.VERSION
('CounterPlaced', 1)
>>> EVENT_TYPES["CounterPlaced"] is CounterPlaced
True
>>> Envelope(seq=5, cause=4, event=ev)
Envelope(seq=5, cause=4, event=CounterPlaced(obj=7, kind='loyalty', n=2))

Players are referred to by index (0, 1); objects by their integer id.  A
*reference* (``Ref``) that may name either uses ``-1 - player`` for players
(see :func:`player_ref`).
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

import msgspec

from mtgk.log.answers import PAIRS, answer_from

Ref = int
"""An object id (>= 1) or a player reference (``-1`` = player 0, ``-2`` = player 1)."""


def player_ref(player: int) -> Ref:
    """The reference for ``player``: ``player_ref(0) == -1``."""
    return -1 - player


def ref_player(ref: Ref) -> int | None:
    """The player a reference names, or ``None`` if it names an object."""
    return -1 - ref if ref < 0 else None


class Event(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """Base of all events.  Subclasses set ``TAG`` and (when bumped) ``VERSION``."""

    TAG: ClassVar[str] = ""
    VERSION: ClassVar[int] = 1
    #: Fields whose values only some players may see (see :func:`visible_fields`).
    PRIVATE: ClassVar[tuple[str, ...]] = ()
    #: What events of this kind change, when it is not the permanents on the battlefield
    #: (see :data:`STATE_PARTS`); ``None`` (the default): they may change permanents.
    #: The engine keeps the characteristics it computed across an event that changes
    #: only parts no static ability on the battlefield reads (``Static.reads``).
    CHANGES: ClassVar[frozenset[str] | None] = None

    def changes(self) -> frozenset[str] | None:
        """What this event changes (:attr:`CHANGES`; events that move an object between
        zones name the zones)."""
        return self.CHANGES


STATE_PARTS = ("hand", "library", "graveyard", "exile", "stack", "turn", "step", "combat",
               "damage", "life", "tapped", "mana", "players")
"""Parts of a game state outside the permanents on the battlefield, as events
(``Event.CHANGES``) and static abilities (``Static.reads``) name them: a zone's
contents, the turn (number, active player, summoning sickness), the step, combat,
damage marked, life totals, tapped status, mana pools, players' standing."""


def _moved(*zones: str) -> frozenset[str] | None:
    return None if "battlefield" in zones else frozenset(zones)


class Envelope(msgspec.Struct, frozen=True, gc=False):
    """An event as it stands in the log: sequence number, cause and payload."""

    seq: int
    cause: int
    event: Event


EVENT_TYPES: dict[str, type[Event]] = {}

E = TypeVar("E", bound=type[Event])


def event(cls: E) -> E:
    """Class decorator: register ``cls`` in the event union under ``cls.TAG``.

    Plugins use it to add their own event types; a tag may be registered once.
    """
    tag = cls.__dict__.get("TAG") or ""
    if not tag:
        raise ValueError(f"event class {cls.__name__} has no TAG")
    if tag in EVENT_TYPES and EVENT_TYPES[tag] is not cls:
        raise ValueError(f"event tag {tag!r} is already registered")
    EVENT_TYPES[tag] = cls
    return cls


# --------------------------------------------------------------------------
# Game setup and structure

@event
class GameStarted(Event, frozen=True):
    TAG: ClassVar[str] = "GameStarted"
    players: tuple[str, ...]
    seed: int
    profile: str = "lorwyn-2007"


@event
class GameVariant(Event, frozen=True):
    """The game is a multiplayer one (right after :class:`GameStarted`): ``variant`` is
    ``"free_for_all"`` (each player for themselves, CR 806) or ``"two_headed_giant"``
    (CR 810); ``teams`` lists the players of each team in their order (empty in a
    free-for-all game: each player is a team of one).  A two-player game has none, and
    its log header does not list the type (:data:`UNLISTED_UNLESS_USED`), so two-player
    logs stay as they were written before multiplayer games existed."""

    TAG: ClassVar[str] = "GameVariant"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"players"})
    variant: str
    teams: tuple[tuple[int, ...], ...] = ()


UNLISTED_UNLESS_USED = frozenset({"GameVariant", "DamageResultChanged"})
"""Event types a log header's event table lists only when the log holds such an event
(see :meth:`mtgk.log.logfile.LogHeader.current_event_table`): ``GameVariant`` (a
multiplayer game's), ``DamageResultChanged`` (:mod:`mtgk.rules.damage_results`: wither, infect)."""


@event
class ObjectCreated(Event, frozen=True):
    """A card (or, in scenario setups, a token) is put directly into a zone.

    Used when a game is set up; tokens created during play use
    :class:`TokenCreated`.
    """

    TAG: ClassVar[str] = "ObjectCreated"
    PRIVATE: ClassVar[tuple[str, ...]] = ("card",)
    obj: int
    card: str
    owner: int
    zone: str
    controller: int = -1
    token: bool = False
    tapped: bool = False
    sick: bool = False
    face_down: bool = False

    def changes(self) -> frozenset[str] | None:
        return _moved(self.zone)


@event
class LibraryShuffled(Event, frozen=True):
    """A library was shuffled; ``order`` is the resulting order, top first."""

    TAG: ClassVar[str] = "LibraryShuffled"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"library"})
    PRIVATE: ClassVar[tuple[str, ...]] = ("order",)
    player: int
    order: tuple[int, ...]


@event
class TurnBegan(Event, frozen=True):
    TAG: ClassVar[str] = "TurnBegan"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"turn"})
    turn: int
    active: int


@event
class StepBegan(Event, frozen=True):
    TAG: ClassVar[str] = "StepBegan"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"step"})
    step: str


@event
class DecisionMade(Event, frozen=True):
    """A player's decision, as the engine asked it and the player answered.

    ``kind`` names the decision (``priority``, ``targets``, ``attackers``,
    ``blockers``, ``redirect``, ``may``, ``choose``, ``order``, ``mulligan`` ...);
    ``choice`` is the answer, typed by its kind (:mod:`mtgk.log.answers`): for
    ``priority`` an :data:`~mtgk.log.answers.Action`, for ``attackers``, ``blockers``
    and ``assign`` a list of :class:`~mtgk.log.answers.Attack`,
    :class:`~mtgk.log.answers.Block` or :class:`~mtgk.log.answers.Assign` pairs;
    other kinds' answers are plain data (bools, ints, strings, lists).  A log holds
    each typed answer as the list it encodes to, and a choice read as lists is turned
    into its typed value as it is decoded (:func:`~mtgk.log.answers.answer_from`).
    """

    TAG: ClassVar[str] = "DecisionMade"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset()
    player: int
    kind: str
    choice: Any

    def __post_init__(self) -> None:
        if type(self.choice) is list and (self.kind == "priority" or self.kind in PAIRS):
            try:
                msgspec.structs.force_setattr(self, "choice", answer_from(self.kind,
                                                                          self.choice))
            except ValueError:
                pass  # (not an answer: a damaged record, reported as it is)


# --------------------------------------------------------------------------
# Objects and zones

@event
class ZoneChanged(Event, frozen=True):
    """Object ``obj`` left ``from_zone``; it is now object ``new_obj`` in ``to_zone``.

    ``position`` is where it went in an ordered zone: 0 = top, -1 = bottom.
    ``reason`` is informative (``draw``, ``discard``, ``destroy``, ``sacrifice``,
    ``dies``, ``resolve``, ``bounce``, ``sba`` ...).
    """

    TAG: ClassVar[str] = "ZoneChanged"
    obj: int
    new_obj: int
    from_zone: str
    to_zone: str
    reason: str = ""
    position: int = -1
    controller: int = -1

    def changes(self) -> frozenset[str] | None:
        return _moved(self.from_zone, self.to_zone)


@event
class RemovedFromGame(Event, frozen=True):
    """A card or permanent was put into exile (face up or face down)."""

    TAG: ClassVar[str] = "RemovedFromGame"
    obj: int
    new_obj: int
    from_zone: str
    face_down: bool = False
    exiled_with: int = 0
    reason: str = ""

    def changes(self) -> frozenset[str] | None:
        return _moved(self.from_zone, "exile")


@event
class TokenCreated(Event, frozen=True):
    TAG: ClassVar[str] = "TokenCreated"
    obj: int
    card: str
    owner: int
    controller: int
    attached_to: int = 0
    tapped: bool = False


@event
class Tapped(Event, frozen=True):
    """``obj`` became tapped; ``entering``: it entered the battlefield tapped (it did
    not "become tapped", CR 110.5 / 603.2)."""

    TAG: ClassVar[str] = "Tapped"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"tapped"})
    obj: int
    entering: bool = False


@event
class Untapped(Event, frozen=True):
    TAG: ClassVar[str] = "Untapped"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"tapped"})
    obj: int


@event
class CounterPlaced(Event, frozen=True):
    TAG: ClassVar[str] = "CounterPlaced"
    obj: int
    kind: str
    n: int


@event
class CounterRemoved(Event, frozen=True):
    TAG: ClassVar[str] = "CounterRemoved"
    obj: int
    kind: str
    n: int


@event
class Attached(Event, frozen=True):
    """``obj`` (an Aura, Equipment or Role) became attached to ``to`` (0 = unattached)."""

    TAG: ClassVar[str] = "Attached"
    obj: int
    to: int


@event
class ControlChanged(Event, frozen=True):
    TAG: ClassVar[str] = "ControlChanged"
    obj: int
    controller: int


@event
class ObjectFlagged(Event, frozen=True):
    """Set a named per-object mark (e.g. ``evoked``, ``x``, ``exiled_with``)."""

    TAG: ClassVar[str] = "ObjectFlagged"
    obj: int
    key: str
    value: Any


@event
class LandPlayed(Event, frozen=True):
    TAG: ClassVar[str] = "LandPlayed"
    player: int
    obj: int
    new_obj: int


@event
class Revealed(Event, frozen=True):
    """Cards shown to players (all players unless ``to`` names some)."""

    TAG: ClassVar[str] = "Revealed"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset()
    player: int
    objs: tuple[int, ...]
    to: tuple[int, ...] = ()


# --------------------------------------------------------------------------
# Stack

@event
class SpellCast(Event, frozen=True):
    """``obj`` moved from ``from_zone`` to the stack as spell ``new_obj``."""

    TAG: ClassVar[str] = "SpellCast"
    obj: int
    new_obj: int
    controller: int
    from_zone: str = "hand"
    targets: tuple[int, ...] = ()
    modes: tuple[int, ...] = ()
    x: int = 0
    alt: str = ""
    face: str = ""  # the card face cast (an Adventure), "" for the card's normal face

    def changes(self) -> frozenset[str] | None:
        return _moved(self.from_zone, "stack")


@event
class AbilityActivated(Event, frozen=True):
    """An activated ability of ``source`` went on the stack as ``item``."""

    TAG: ClassVar[str] = "AbilityActivated"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"stack"})
    item: int
    source: int
    ability: str
    controller: int
    targets: tuple[int, ...] = ()
    x: int = 0
    loyalty: bool = False


@event
class AbilityTriggered(Event, frozen=True):
    """A triggered ability of ``source`` triggered and waits to go on the stack."""

    TAG: ClassVar[str] = "AbilityTriggered"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"stack"})
    item: int
    source: int
    ability: str
    controller: int
    data: Any = None


@event
class TriggerPutOnStack(Event, frozen=True):
    TAG: ClassVar[str] = "TriggerPutOnStack"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"stack"})
    item: int
    targets: tuple[int, ...] = ()
    modes: tuple[int, ...] = ()


@event
class StackItemResolved(Event, frozen=True):
    """The top stack item resolved (or was removed as it tried to: ``fizzled``)."""

    TAG: ClassVar[str] = "StackItemResolved"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"stack"})
    item: int
    fizzled: bool = False


@event
class StackItemCountered(Event, frozen=True):
    TAG: ClassVar[str] = "StackItemCountered"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"stack"})
    item: int


# --------------------------------------------------------------------------
# Mana, life, damage

@event
class ManaAdded(Event, frozen=True):
    """Mana (one colour letter each) added to ``player``'s pool; ``spend`` names the
    restriction on spending it ("spend this mana only to ...", see
    :data:`mtgk.rules.mana.SPEND_RESTRICTIONS`), ``""`` for none."""

    TAG: ClassVar[str] = "ManaAdded"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"mana"})
    player: int
    mana: str
    spend: str = ""


@event
class ManaSpent(Event, frozen=True):
    """Mana spent from ``player``'s pool (of the restriction ``spend``, as added)."""

    TAG: ClassVar[str] = "ManaSpent"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"mana"})
    player: int
    mana: str
    spend: str = ""


@event
class ManaEmptied(Event, frozen=True):
    TAG: ClassVar[str] = "ManaEmptied"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"mana"})
    player: int


@event
class LifeGained(Event, frozen=True):
    TAG: ClassVar[str] = "LifeGained"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"life"})
    player: int
    n: int


@event
class LifeLost(Event, frozen=True):
    TAG: ClassVar[str] = "LifeLost"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"life"})
    player: int
    n: int


@event
class DamageDealt(Event, frozen=True):
    """``source`` dealt ``amount`` damage to ``target`` (a :data:`Ref`)."""

    TAG: ClassVar[str] = "DamageDealt"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"damage", "life"})
    source: int
    target: int
    amount: int
    combat: bool = False
    deathtouch: bool = False


@event
class DamageRedirected(Event, frozen=True):
    """Damage ``source`` would deal to ``from_player`` goes to planeswalker ``to`` instead."""

    TAG: ClassVar[str] = "DamageRedirected"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset()
    source: int
    from_player: int
    to: int
    amount: int


@event
class DamageRemoved(Event, frozen=True):
    """Damage wears off all permanents (cleanup)."""

    TAG: ClassVar[str] = "DamageRemoved"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"damage"})


@event
class DamageMarked(Event, frozen=True):
    """A scenario's setup: ``amount`` damage is marked on permanent ``obj``, as dealt to it
    earlier this turn (it wears off in cleanup).  Not damage being dealt: nothing deals
    it, nothing sees it dealt (that is :class:`DamageDealt`)."""

    TAG: ClassVar[str] = "DamageMarked"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"damage"})
    obj: int
    amount: int


# --------------------------------------------------------------------------
# Combat

@event
class AttackersDeclared(Event, frozen=True):
    """Each pair is (attacker, attacked Ref: a player or a planeswalker)."""

    TAG: ClassVar[str] = "AttackersDeclared"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"combat"})
    attacks: tuple[tuple[int, int], ...]


@event
class BlockersDeclared(Event, frozen=True):
    """Each pair is (blocker, attacker)."""

    TAG: ClassVar[str] = "BlockersDeclared"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"combat"})
    blocks: tuple[tuple[int, int], ...]


@event
class RemovedFromCombat(Event, frozen=True):
    TAG: ClassVar[str] = "RemovedFromCombat"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"combat"})
    obj: int


@event
class CombatEnded(Event, frozen=True):
    TAG: ClassVar[str] = "CombatEnded"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"combat"})


@event
class FirstStrikers(Event, frozen=True):
    """The first-strike combat damage step has begun (CR 510.4): ``objs`` are the attacking
    and blocking creatures that had first strike or double strike as it began.  Only they
    deal combat damage in it; in the regular combat damage step that follows, only the
    others and those that have double strike then (CR 702.4d, 702.7c).  The combat state
    keeps them (``Combat.first_strikers``), so a state folded from the log knows which
    creatures the regular step leaves out."""

    TAG: ClassVar[str] = "FirstStrikers"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"combat"})
    objs: tuple[int, ...]


# --------------------------------------------------------------------------
# Continuous effects

@event
class EffectCreated(Event, frozen=True):
    """A continuous effect from a resolved spell or ability.

    ``kind`` names an effect applier in the kernel registry (see
    :mod:`mtgk.rules.layers`); ``params`` is plain data for it; ``objs`` the
    affected objects (locked in as it began), ``duration`` ``eot`` (until end
    of turn), ``next_turn`` (until its controller's next turn), ``while_source``
    (while its source stays on the battlefield) or ``""`` (indefinitely).
    """

    TAG: ClassVar[str] = "EffectCreated"
    effect: int
    kind: str
    source: int
    controller: int
    objs: tuple[int, ...] = ()
    params: Any = None
    duration: str = "eot"


@event
class EffectsEnded(Event, frozen=True):
    TAG: ClassVar[str] = "EffectsEnded"
    effects: tuple[int, ...]


# --------------------------------------------------------------------------
# Game end

@event
class PlayerLost(Event, frozen=True):
    TAG: ClassVar[str] = "PlayerLost"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"players"})
    player: int
    reason: str


@event
class GameEnded(Event, frozen=True):
    """The game is over; ``winner`` is a player index or -1 for a draw.  ``reason`` says
    why a game ended in a draw: ``"turn-limit"`` (the game's turn limit), ``"loop"`` (a
    loop of mandatory actions, CR 104.4b), ``""`` (no player left, or a win).  (Added
    at the end: a record written before it reads with ``""``.)"""

    TAG: ClassVar[str] = "GameEnded"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"players"})
    winner: int
    reason: str = ""


def visible_fields(ev: Event) -> tuple[str, ...]:
    """Names of ``ev``'s fields that are private (shown only to players allowed)."""
    return ev.PRIVATE


@event
class DrewFromEmptyLibrary(Event, frozen=True):
    """A player was told to draw with an empty library (loses at the next SBA check)."""

    TAG: ClassVar[str] = "DrewFromEmptyLibrary"
    CHANGES: ClassVar[frozenset[str] | None] = frozenset({"players"})
    player: int


def entered(e: Event) -> int:
    """The id of the object ``e`` put onto the battlefield, or 0."""
    if isinstance(e, ZoneChanged):
        return e.new_obj if e.to_zone == "battlefield" else 0
    if isinstance(e, LandPlayed):
        return e.new_obj
    if isinstance(e, TokenCreated):
        return e.obj
    return 0


def event_from_data(data: Any) -> Event | None:
    """Rebuild the triggering event stored in a triggered ability's ``data``
    (``[tag, fields]`` or ``[tag, fields, subject]``); ``None`` if it holds none."""
    if not isinstance(data, list) or len(data) not in (2, 3) or data[0] not in EVENT_TYPES:
        return None
    return msgspec.convert(data[1], EVENT_TYPES[data[0]])
