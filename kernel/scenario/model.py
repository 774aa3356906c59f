"""The rules-scenario file model: typed, validated scenarios read from YAML.

This module implements the file format of docs/scenarios.md (the third edition
of the contract ``shared/spec/scenario-format.md``): it reads a YAML file holding
one scenario (a mapping) or several (``scenarios:`` followed by a list), checks
every key and value, and returns :class:`Scenario` objects ready for a runner.
It does not run anything.

Model
-----
``Scenario(name, description, strict, players, variant, teams, turn, actions, expect,
file)``
    ``players`` maps each of the two to four players' names to a
    :class:`PlayerSetup` (life and five zones of :class:`CardEntry`), in turn
    order (dict order).  ``turn`` is a :class:`TurnSpec` whose ``active`` is
    always filled in.  ``variant`` is one of :data:`VARIANTS`; ``teams`` is set
    for Two-Headed Giant only.
:class:`Action`
    One struct for every verb: ``verb`` is one of :data:`VERBS` and the fields
    that verb uses are set (``card`` for cast/play/activate, ``attackers``,
    ``blocks``, ``resolve``, ``pass_until``, ``check``); the others keep their
    defaults.  Every action carries ``player``, ``answers`` and ``refused``.
:class:`Answer`
    ``Answer(kind, value, player)``, ``kind`` being the answer's key as
    written (one of :data:`ANSWER_KINDS`), ``value`` normalised (see below).
:class:`Expectation`
    All keys optional; only those written are set (not ``None``).  The
    ``count`` key is split by meaning: a FILTER mapping goes to ``count``
    (with ``equals``), a number next to ``log_has`` goes to ``log_count``
    (``min``/``max`` to ``log_min``/``log_max``).

Normalisation choices (documented here, as the spec asks)
---------------------------------------------------------
* YAML is read with ``yaml.safe_load`` semantics (YAML 1.1), so unquoted
  ``yes/no/on/off`` are booleans.  Hence:

  - ``{redirect: no}`` (boolean ``False``), ``{redirect: "no"}`` and
    ``{redirect: null}`` all mean "don't redirect": ``Answer.value is None``;
    otherwise the value is the planeswalker's name.  ``{redirect: yes}`` is an
    error (name the planeswalker).
  - ``{champion: none}`` (the string; any case), ``{champion: no}`` and
    ``{champion: null}`` mean "exile nothing": ``Answer.value is None``.
  - ``{may: yes}`` / ``{may: no}`` and ``{pay: yes}`` / ``{pay: no}``
    (booleans, or the quoted strings) give a ``bool``.
* An unquoted ``ability: +1`` would be the integer 1 in YAML; the loader
  keeps the plus sign, so it means the loyalty cost ``"+1"`` like the quoted
  form.  Loyalty costs become strings (``"+1"``, ``"-2"``, ``"-X"``, ``"0"``;
  a typographic minus is accepted); a positive integer, or a string of
  digits, is the 1-based index of an activated ability (``int``).  A negative
  integer (unquoted ``-1``) is a loyalty cost.
* A card entry given as a bare string becomes ``CardEntry(card=name)``.  A
  player given as ``null`` (``bob:``) and a zone given as ``null`` are empty.
* ``attack: [A, B]`` becomes ``attackers={"A": None, "B": None}``: ``None``
  stands for "the defending player".
* ``resolve`` is an ``int >= 1`` or the string ``"all"``.
* Answer values: ``targets``, ``modes``, ``choose``, ``order`` and ``discard``
  are lists (``{choose: X}`` gives ``["X"]``); ``assign`` is a dict of name to
  amount; ``clash`` is ``"top"``/``"bottom"``; ``target``/``hideaway`` are
  names; ``mode``/``x`` are ints; ``arrange`` is an :class:`Arrangement`
  (``top`` and ``bottom`` lists, at least one of them not empty).
* ``cast``'s ``alt_cost`` is kept in lower case; ``evoke: true`` sets it to
  ``"evoke"`` (both written: they must agree).
* Two-Headed Giant (``variant: two_headed_giant``) needs ``teams``: two teams of
  two, every player in one; a team's ``life`` (default 30) is written on either
  player or on both alike, and both players' setups hold it.  ``teams`` without
  that variant is an error.
* ``pass_until`` needs both ``turn`` and ``step``, or is the string ``game_over``.
* ``mulligan: true`` and ``keep: true`` (``bottom``: a list of names) need
  ``turn.step: opening_hands`` and ``player``, and come before every other action
  but ``check``.
* An ``order`` answer's name may be ``NAME#N`` (:func:`split_ability_ref`); a
  ``new_targets`` answer is a list of names, or ``no`` (``Answer.value is None``); a
  ``block`` value is an attacker or a list of attackers.
* ``attack_option`` (``multiple``, ``left``, ``right``) is for a free-for-all game of
  three or four players.
* Setup keys that only make sense on the battlefield (``tapped``, ``sick``,
  ``token``, ``attached_to``, ``controller``, ``damage``) are errors in other zones;
  ``face_down`` and ``exiled_with`` are errors outside exile.
* Keys a verb does not take are errors (``ability`` on ``cast``); ``player``,
  ``answers`` and ``refused`` are accepted on every action, as the spec says.
* An expectation may combine several subjects (``card``, ``player``,
  ``count``, ``stack_size``, ``log_has``, ``winner``); every key must belong
  to a subject that is present (``life`` needs ``player``, ``loyalty`` needs
  ``card``, ``equals`` needs a ``count`` FILTER, ``min`` needs ``log_has``),
  and each subject needs something to check.
* Duplicate keys in one YAML mapping are errors (YAML would keep the last).
* Every number is an integer from -10^9 to 10^9 (:data:`INT_LIMIT`; a log could
  not hold much larger ones); one written with more than 40 characters is not
  even converted.  A tagged value that can't be read (``!!int abc``) is a YAML
  error.
* Nesting is at most :data:`MAX_DEPTH` (50) levels, and YAML aliases (``*a``)
  may expand a file to at most :data:`MAX_VALUES` (100,000) values, or to as
  many as the file writes out, if that is more: reading a file takes time
  linear in its size, however its aliases are nested.  An alias inside its own
  anchor is an error.
* In a setup, ``attached_to`` and ``exiled_with`` name a permanent of the setup
  (an alias, or the name of a battlefield entry), never a player; an
  expectation's ``attached_to`` names a permanent too.

Names that refer to objects (targets, attackers, expectation ``card``, ...)
are checked against the scenario's aliases and players first, then, when a
``known_card`` callback is given, against the card database; ``choose``
answers, subtypes and keywords are not card names and are not checked.  Event
type names (``log_has``) are checked when a ``known_event`` callback is given
(the runner passes every event type of the loaded sets and plugins).

Errors
------
Every problem raises :class:`ScenarioFileError`, whose message names the file,
the scenario, the key path (``players.alice.battlefield[2].counters``) and
what was expected.
"""

from __future__ import annotations

import functools
import re
import types
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import msgspec
import yaml
from msgspec import UNSET, Meta, Struct, UnsetType

__all__ = [
    "ANSWER_KINDS",
    "EXPECTATION_ZONES",
    "SETUP_ZONES",
    "STEPS",
    "VARIANTS",
    "VERBS",
    "VERB_KEYS",
    "Action",
    "Answer",
    "Arrangement",
    "CardEntry",
    "CountFilter",
    "Expectation",
    "PassUntil",
    "PlayerSetup",
    "Scenario",
    "ScenarioFileError",
    "TurnSpec",
    "is_scenario_test_file",
    "iter_scenario_files",
    "load_scenarios",
    "loads_scenarios",
    "parse_scenarios",
    "split_ability_ref",
]

# ---------------------------------------------------------------------------
# Vocabulary
# ---------------------------------------------------------------------------

Step = Literal[
    "untap",
    "upkeep",
    "draw",
    "precombat_main",
    "beginning_of_combat",
    "declare_attackers",
    "declare_blockers",
    "first_strike_damage",
    "combat_damage",
    "end_of_combat",
    "postcombat_main",
    "end",
    "cleanup",
]
STEPS: tuple[str, ...] = get_args(Step)
"""Step names in turn order."""

StartStep = Step | Literal["opening_hands"]
OPENING_HANDS = "opening_hands"
"""``turn.step`` of a scenario that starts before any player has kept an opening hand."""

Zone = Literal["battlefield", "hand", "library", "graveyard", "stack", "exile", "none"]
EXPECTATION_ZONES: tuple[str, ...] = get_args(Zone)
"""Zones an expectation may name (``none``: a token that ceased to exist)."""

SETUP_ZONES: tuple[str, ...] = ("battlefield", "hand", "library", "graveyard", "exile")
"""Zones of :class:`PlayerSetup`, in field order."""

VERBS: tuple[str, ...] = (
    "cast",
    "play",
    "activate",
    "attack",
    "block",
    "resolve",
    "pass_until",
    "check",
    "mulligan",
    "keep",
)
"""Action verbs: each action has exactly one of these keys."""

COMMON_ACTION_KEYS: tuple[str, ...] = ("player", "answers", "refused")
"""Keys every action may carry."""

VERB_KEYS: dict[str, tuple[str, ...]] = {
    "cast": ("targets", "modes", "x", "evoke", "alt_cost"),
    "play": (),
    "activate": ("ability", "targets", "x"),
    "attack": (),
    "block": (),
    "resolve": (),
    "pass_until": (),
    "check": (),
    "mulligan": (),
    "keep": ("bottom",),
}
"""Extra keys each verb takes besides :data:`COMMON_ACTION_KEYS`."""

ANSWER_KINDS: tuple[str, ...] = (
    "redirect",
    "clash",
    "hideaway",
    "champion",
    "target",
    "targets",
    "mode",
    "modes",
    "x",
    "may",
    "choose",
    "arrange",
    "pay",
    "order",
    "assign",
    "discard",
    "new_targets",
)
"""Decision keys of an answer: each answer has exactly one of these."""

Variant = Literal["free_for_all", "two_headed_giant"]
VARIANTS: tuple[str, ...] = get_args(Variant)
"""Values of the top-level ``variant`` key (``free_for_all``: the default, named)."""

MIN_PLAYERS = 2
MAX_PLAYERS = 4

PLAYER_EXPECT_KEYS: tuple[str, ...] = (
    "life",
    "hand_size",
    "library_size",
    "graveyard_size",
    "library_top",
    "library_bottom",
    "lost",
)
CARD_EXPECT_KEYS: tuple[str, ...] = (
    "zone",
    "loyalty",
    "counters",
    "power",
    "toughness",
    "damage",
    "tapped",
    "controller",
    "owner",
    "types",
    "has_subtypes",
    "lacks_subtypes",
    "has_ability",
    "lacks_ability",
    "attached_to",
    "face_down",
)

INT_LIMIT = 1_000_000_000
"""The largest number (in absolute value) a scenario file may write anywhere."""
MAX_DEPTH = 50
"""The deepest nesting of mappings and lists a scenario file may have (aliases expanded)."""
MAX_VALUES = 100_000
"""How many values (mappings, lists, scalars) a file's aliases may expand it to (see
:func:`_check_expansion`); a file that writes more out without aliases is not limited."""

Int = Annotated[int, Meta(ge=-INT_LIMIT, le=INT_LIMIT)]
NonNeg = Annotated[int, Meta(ge=0, le=INT_LIMIT)]
Positive = Annotated[int, Meta(ge=1, le=INT_LIMIT)]

# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


class ScenarioFileError(Exception):
    """A scenario file cannot be read or is invalid.

    ``str(err)`` is ``"FILE: scenario 'NAME': KEY.PATH: what was expected"``
    (parts that are unknown are left out).  The parts are also attributes.
    """

    def __init__(
        self, file: str, reason: str, *, scenario: str | None = None, path: str = ""
    ) -> None:
        self.file = file
        self.scenario = scenario
        self.path = path
        self.reason = reason
        super().__init__(self._message())

    def _message(self) -> str:
        parts = [self.file]
        if self.scenario is not None:
            parts.append(f"scenario {_short(self.scenario)}")
        if self.path:
            parts.append(self.path)
        parts.append(self.reason)
        return ": ".join(_one_line(part) for part in parts)


_ABILITY_REF = re.compile(r"(.+)#([0-9]{1,9})")


def split_ability_ref(name: str) -> tuple[str, int | None]:
    """An ``order`` answer's name split as ``NAME#N``: the source's name (or alias) and N,
    the 1-based index of the triggered ability among the source's triggered abilities in
    printed order (``None``: any of them).

    >>> split_ability_ref("Kithkin Mourncaller#2"), split_ability_ref("km")
    (('Kithkin Mourncaller', 2), ('km', None))
    """
    m = _ABILITY_REF.fullmatch(name)
    if m is None:
        return name, None
    return m.group(1), int(m.group(2))


def _one_line(text: str, limit: int = 1000) -> str:
    """``text`` with its control characters escaped, cut to about ``limit`` characters."""
    if not text.isprintable():
        text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
    return text if len(text) <= limit else f"{text[:limit]}..."


# ---------------------------------------------------------------------------
# Public model
# ---------------------------------------------------------------------------


class CardEntry(Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """One card put into a zone by the setup (YAML: a name or a mapping)."""

    card: str
    """English Oracle name."""
    alias: str | None = msgspec.field(default=None, name="as")
    """YAML key ``as``: unique name to refer to this object later."""
    tapped: bool = False
    sick: bool = False
    """Came under its controller's control this turn (summoning sick)."""
    counters: dict[str, NonNeg] = {}
    token: bool = False
    attached_to: str | None = None
    face_down: bool = False
    exiled_with: str | None = None
    controller: str | None = None
    """Player controlling it when not its owner (battlefield only)."""
    damage: NonNeg = 0
    """Damage marked on it this turn (battlefield only; it wears off in cleanup)."""

    @property
    def ref(self) -> str:
        """The alias if any, else the card name."""
        return self.alias if self.alias is not None else self.card


class PlayerSetup(Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """A player's starting position.  ``library`` is top first."""

    life: int = 20
    battlefield: list[CardEntry] = []
    hand: list[CardEntry] = []
    library: list[CardEntry] = []
    graveyard: list[CardEntry] = []
    exile: list[CardEntry] = []

    def zones(self) -> Iterator[tuple[str, list[CardEntry]]]:
        """``(zone name, entries)`` for the five setup zones."""
        for zone in SETUP_ZONES:
            yield zone, getattr(self, zone)


class TurnSpec(Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """Where the game starts: turn number, active player, step."""

    number: Positive = 1
    active: str = ""
    """Always a player's name after loading (default: the first player)."""
    step: StartStep = "precombat_main"
    """A step, or ``opening_hands``: before any player has kept an opening hand."""


class PassUntil(Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """Target of ``pass_until``: that step of that turn."""

    turn: Positive
    step: Step


class CountFilter(Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """FILTER of a ``count`` expectation; unset keys match anything."""

    name: str | None = None
    zone: Zone | None = None
    controller: str | None = None
    owner: str | None = None
    type: str | None = None
    subtype: str | None = None
    token: bool | None = None
    tapped: bool | None = None


class Arrangement(Struct, forbid_unknown_fields=True, frozen=True, kw_only=True):
    """The value of an ``arrange`` answer: where looked-at cards go, each list top first."""

    top: list[str] = []
    bottom: list[str] = []


class Answer(Struct, frozen=True, kw_only=True):
    """An answer to a decision.  ``kind`` is one of :data:`ANSWER_KINDS`.

    ``value`` by kind: redirect ``str | None`` (None: don't redirect), clash
    ``"top" | "bottom"``, hideaway ``str``, champion ``str | None`` (None:
    none), target ``str``, targets ``list[str]``, mode ``int``, modes
    ``list[int]``, x ``int``, may ``bool``, choose ``list[str]``, arrange
    :class:`Arrangement`, pay ``bool``, order ``list[str]``, assign
    ``dict[str, int]``, discard ``list[str]``, new_targets ``list[str] | None``
    (None: keep the original's targets).
    ``player`` is ``None`` for the acting player.
    """

    kind: str
    value: Any
    player: str | None = None
    where: str = ""
    """Key path in the file, e.g. ``actions[1].answers[0]``."""


class Expectation(Struct, frozen=True, kw_only=True):
    """A mapping of things that must all hold.  Unset keys are ``None``."""

    where: str = ""
    """Key path in the file, e.g. ``expect[2]`` or ``actions[3].check[0]``."""
    # player subject
    player: str | None = None
    life: int | None = None
    hand_size: int | None = None
    library_size: int | None = None
    graveyard_size: int | None = None
    library_top: list[str] | None = None
    library_bottom: list[str] | None = None
    lost: bool | None = None
    winner: str | None = None
    draw: bool | None = None
    """The game is over and no player won (``False``: it is not so)."""
    # card subject
    card: str | None = None
    zone: str | None = None
    loyalty: int | None = None
    counters: dict[str, int] | None = None
    power: int | None = None
    toughness: int | None = None
    damage: int | None = None
    tapped: bool | None = None
    controller: str | None = None
    owner: str | None = None
    types: list[str] | None = None
    has_subtypes: list[str] | None = None
    lacks_subtypes: list[str] | None = None
    has_ability: str | None = None
    lacks_ability: str | None = None
    attached_to: str | None = None
    face_down: bool | None = None
    # count subject
    count: CountFilter | None = None
    equals: int | None = None
    # stack
    stack_size: int | None = None
    # event log (YAML keys log_has + count / min / max)
    log_has: str | None = None
    log_count: int | None = None
    log_min: int | None = None
    log_max: int | None = None

    def items(self) -> dict[str, Any]:
        """The keys that are set (model field names, without ``where``)."""
        out: dict[str, Any] = {}
        for name in self.__struct_fields__:
            if name == "where":
                continue
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        return out


class Action(Struct, frozen=True, kw_only=True):
    """One step of a scenario.  ``verb`` is one of :data:`VERBS`.

    Fields used per verb: cast ``card, targets, modes, x, evoke, alt_cost``; play
    ``card``; activate ``card, ability, targets, x``; attack ``attackers``;
    block ``blocks``; resolve ``resolve``; pass_until ``pass_until``; check
    ``check``.  All verbs: ``player`` (None when not written), ``answers``,
    ``refused``.
    """

    verb: str
    where: str = ""
    """Key path in the file, e.g. ``actions[2]``."""
    player: str | None = None
    refused: bool = False
    answers: list[Answer] = []
    card: str | None = None
    """The NAME (card name or alias) of cast / play / activate."""
    targets: list[str] = []
    modes: list[int] = []
    x: int | None = None
    evoke: bool = False
    alt_cost: str = ""
    """The alternative cost paid instead of the mana cost (``evoke: true`` gives
    ``"evoke"``); ``""``: the mana cost."""
    ability: str | int | None = None
    """Loyalty cost (``"+1"``, ``"-1"``, ``"-X"``, ``"0"``) or 1-based index."""
    attackers: dict[str, str | None] = {}
    """Attacker -> defender (player / planeswalker name or alias); ``None`` =
    the defending player (list form)."""
    blocks: dict[str, str | list[str]] = {}
    """Blocker -> attacker, or the list of attackers it blocks (empty: no blocks)."""
    resolve: int | Literal["all"] | None = None
    pass_until: PassUntil | Literal["game_over"] | None = None
    """That step of that turn, or ``"game_over"``: until the game ends."""
    bottom: list[str] = []
    """``keep``: the cards put on the bottom of the library, in that order."""
    check: list[Expectation] = []


class Scenario(Struct, frozen=True, kw_only=True):
    """One scenario: setup, actions and expectations."""

    name: str
    description: str = ""
    strict: bool = False
    players: dict[str, PlayerSetup]
    """Player name -> setup, in turn order."""
    variant: str = "free_for_all"
    """One of :data:`VARIANTS`."""
    teams: list[list[str]] = []
    """Two-Headed Giant: the two teams, each a list of player names."""
    attack_option: str = "multiple"
    """A free-for-all game's attack option: ``multiple`` (attack multiple players, the
    default), ``left`` or ``right`` (CR 802-804)."""
    turn: TurnSpec
    actions: list[Action] = []
    expect: list[Expectation] = []
    file: str = ""

    @property
    def player_names(self) -> list[str]:
        """Player names in turn order."""
        return list(self.players)

    def aliases(self) -> dict[str, CardEntry]:
        """Alias -> card entry, over every player's zones."""
        out: dict[str, CardEntry] = {}
        for setup in self.players.values():
            for _zone, entries in setup.zones():
                for entry in entries:
                    if entry.alias is not None:
                        out[entry.alias] = entry
        return out


# ---------------------------------------------------------------------------
# Raw (as written) structs: msgspec checks keys and types against these
# ---------------------------------------------------------------------------


class _RawPlayer(Struct, forbid_unknown_fields=True):
    life: Int | None = None
    battlefield: list[str | CardEntry] = []
    hand: list[str | CardEntry] = []
    library: list[str | CardEntry] = []
    graveyard: list[str | CardEntry] = []
    exile: list[str | CardEntry] = []


class _RawTurn(Struct, forbid_unknown_fields=True):
    number: Positive = 1
    active: str | None = None
    step: StartStep = "precombat_main"


class _RawAnswer(Struct, forbid_unknown_fields=True):
    player: str | UnsetType = UNSET
    redirect: str | bool | None | UnsetType = UNSET
    clash: Literal["top", "bottom"] | UnsetType = UNSET
    hideaway: str | UnsetType = UNSET
    champion: str | bool | None | UnsetType = UNSET
    target: str | UnsetType = UNSET
    targets: list[str] | UnsetType = UNSET
    mode: Positive | UnsetType = UNSET
    modes: list[Positive] | UnsetType = UNSET
    x: NonNeg | UnsetType = UNSET
    may: bool | str | UnsetType = UNSET
    choose: str | list[str] | UnsetType = UNSET
    arrange: Arrangement | UnsetType = UNSET
    pay: bool | str | UnsetType = UNSET
    order: list[str] | UnsetType = UNSET
    assign: dict[str, NonNeg] | UnsetType = UNSET
    discard: list[str] | UnsetType = UNSET
    new_targets: list[str] | bool | str | UnsetType = UNSET


class _RawExpectation(Struct, forbid_unknown_fields=True):
    player: str | UnsetType = UNSET
    life: Int | UnsetType = UNSET
    hand_size: NonNeg | UnsetType = UNSET
    library_size: NonNeg | UnsetType = UNSET
    graveyard_size: NonNeg | UnsetType = UNSET
    library_top: list[str] | UnsetType = UNSET
    library_bottom: list[str] | UnsetType = UNSET
    lost: bool | UnsetType = UNSET
    winner: str | UnsetType = UNSET
    draw: bool | UnsetType = UNSET
    card: str | UnsetType = UNSET
    zone: Zone | UnsetType = UNSET
    loyalty: Int | UnsetType = UNSET
    counters: dict[str, NonNeg] | UnsetType = UNSET
    power: Int | UnsetType = UNSET
    toughness: Int | UnsetType = UNSET
    damage: NonNeg | UnsetType = UNSET
    tapped: bool | UnsetType = UNSET
    controller: str | UnsetType = UNSET
    owner: str | UnsetType = UNSET
    types: list[str] | UnsetType = UNSET
    has_subtypes: list[str] | UnsetType = UNSET
    lacks_subtypes: list[str] | UnsetType = UNSET
    has_ability: str | UnsetType = UNSET
    lacks_ability: str | UnsetType = UNSET
    attached_to: str | UnsetType = UNSET
    face_down: bool | UnsetType = UNSET
    count: CountFilter | NonNeg | UnsetType = UNSET
    equals: NonNeg | UnsetType = UNSET
    stack_size: NonNeg | UnsetType = UNSET
    log_has: str | UnsetType = UNSET
    min: NonNeg | UnsetType = UNSET
    max: NonNeg | UnsetType = UNSET


class _RawAction(Struct, forbid_unknown_fields=True):
    cast: str | UnsetType = UNSET
    play: str | UnsetType = UNSET
    activate: str | UnsetType = UNSET
    attack: dict[str, str] | list[str] | UnsetType = UNSET
    block: dict[str, str | list[str]] | UnsetType = UNSET
    resolve: Int | str | UnsetType = UNSET
    pass_until: PassUntil | Literal["game_over"] | UnsetType = UNSET
    check: list[_RawExpectation] | UnsetType = UNSET
    player: str | UnsetType = UNSET
    targets: list[str] | UnsetType = UNSET
    modes: list[Positive] | UnsetType = UNSET
    x: NonNeg | UnsetType = UNSET
    evoke: bool | UnsetType = UNSET
    alt_cost: str | UnsetType = UNSET
    answers: list[_RawAnswer] | UnsetType = UNSET
    ability: str | Int | UnsetType = UNSET
    refused: bool | UnsetType = UNSET
    mulligan: bool | UnsetType = UNSET
    keep: bool | UnsetType = UNSET
    bottom: list[str] | UnsetType = UNSET


class _RawScenario(Struct, forbid_unknown_fields=True):
    name: str
    players: dict[str, _RawPlayer]
    description: str = ""
    strict: bool = False
    variant: Variant = "free_for_all"
    teams: list[list[str]] | None = None
    attack_option: Literal["multiple", "left", "right"] | None = None
    turn: _RawTurn | None = None
    actions: list[_RawAction] = []
    expect: list[_RawExpectation] = []


class _RawFile(Struct, forbid_unknown_fields=True):
    scenarios: list[dict[str, Any]]


# ---------------------------------------------------------------------------
# YAML reading
# ---------------------------------------------------------------------------


class _PlusInt(int):
    """An integer written with a leading ``+`` (so ``ability: +1`` stays "+1")."""


_INT_CHARS = 40
"""An integer written with more characters than this is a :class:`_HugeInt`."""


class _HugeInt(int):
    """An integer written with more characters than any allowed value needs.

    It is not converted (turning thousands of digits into an ``int`` is slow, and
    Python refuses more than 4,300): it stands for a value beyond the allowed range
    with the right sign, so the range check names its key path like any other
    out-of-range number.
    """

    chars: int

    def __new__(cls, negative: bool, chars: int) -> _HugeInt:
        out = super().__new__(cls, -(10 ** _INT_CHARS) if negative else 10 ** _INT_CHARS)
        out.chars = chars
        return out

    def __repr__(self) -> str:
        return f"an integer written with {self.chars} characters"


class _Loader(yaml.SafeLoader):
    """SafeLoader that rejects duplicate keys, remembers ``+N`` integers and bounds the work.

    Composing the document refuses nesting deeper than :data:`MAX_DEPTH`; once the
    document is composed, :func:`_check_expansion` refuses aliases that expand it
    beyond :data:`MAX_VALUES` values or :data:`MAX_DEPTH` levels.  Every later step
    (constructing the Python values, msgspec's conversion, the checks) walks the
    expanded document, so its work is bounded by the file's size.
    """

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = 0
        self.written = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            return super().compose_node(parent, index)
        self.depth += 1
        self.written += 1
        try:
            if self.depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise yaml.composer.ComposerError(
                    None, None, f"nesting deeper than {MAX_DEPTH} levels", mark
                )
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1

    def get_single_node(self) -> Any:
        node = super().get_single_node()
        if node is not None:
            _check_expansion(node, max(MAX_VALUES, self.written))
        return node


def _check_expansion(root: yaml.Node, limit: int) -> None:
    """Refuse a document whose aliases expand it beyond ``limit`` values or
    :data:`MAX_DEPTH` levels, or that contains itself (an alias inside its anchor).

    Each node is measured once (its expanded size and height are remembered), so this
    takes time linear in the written document, however its aliases multiply.
    """
    measured: dict[int, tuple[int, int]] = {}  # id(node) -> (values, levels) expanded
    open_nodes: set[int] = set()

    def refuse(node: yaml.Node, problem: str) -> yaml.composer.ComposerError:
        return yaml.composer.ComposerError(None, None, problem, node.start_mark)

    def visit(node: yaml.Node, depth: int) -> tuple[int, int]:
        key = id(node)
        got = measured.get(key)
        if got is None:
            if key in open_nodes:
                raise refuse(node, "an alias refers to a value that contains it")
            if depth > MAX_DEPTH:
                raise refuse(node, f"nesting deeper than {MAX_DEPTH} levels (aliases expanded)")
            open_nodes.add(key)
            children: list[yaml.Node] = []
            if isinstance(node, yaml.SequenceNode):
                children = list(node.value)
            elif isinstance(node, yaml.MappingNode):
                children = [part for pair in node.value for part in pair]
            values, levels = 1, 1
            for child in children:
                v, h = visit(child, depth + 1)
                values += v
                levels = max(levels, h + 1)
                if values > limit:
                    raise refuse(
                        node, f"aliases expand the document beyond {limit} values"
                    )
            open_nodes.discard(key)
            got = measured[key] = (values, levels)
        if depth + got[1] - 1 > MAX_DEPTH:
            raise refuse(node, f"nesting deeper than {MAX_DEPTH} levels (aliases expanded)")
        return got

    visit(root, 1)


def _not_a(kind: str, node: yaml.Node) -> yaml.constructor.ConstructorError:
    found = {yaml.ScalarNode: "scalar", yaml.SequenceNode: "list"}.get(type(node), "mapping")
    return yaml.constructor.ConstructorError(
        None, None, f"expected {kind} for the tag {node.tag}, found a {found}", node.start_mark
    )


def _construct_int(loader: yaml.SafeLoader, node: yaml.Node) -> int:
    if not isinstance(node, yaml.ScalarNode):
        raise _not_a("a scalar", node)
    text = str(node.value).strip()
    if len(text) > _INT_CHARS:
        return _HugeInt(text.startswith("-"), len(text))
    value = loader.construct_yaml_int(node)
    if text.startswith("+"):
        return _PlusInt(value)
    return int(value)


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.Node) -> dict[Any, Any]:
    if not isinstance(node, yaml.MappingNode):
        raise _not_a("a mapping", node)
    loader.flatten_mapping(node)
    out: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping",
                node.start_mark,
                "found an unhashable key",
                key_node.start_mark,
            ) from None
        if key in out:
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping",
                node.start_mark,
                f"found duplicate key {_short(key)}",
                key_node.start_mark,
            )
        out[key] = loader.construct_object(value_node, deep=True)
    return out


def _checked(
    constructor: Callable[[yaml.SafeLoader, yaml.Node], Any],
) -> Callable[[yaml.SafeLoader, yaml.Node], Any]:
    """``constructor``, with the Python errors PyYAML's constructors raise on values they
    can't read (``!!int abc``, ``!!bool maybe``, ``!!timestamp x``) made YAML errors."""

    def construct(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
        try:
            return constructor(loader, node)
        except (ValueError, TypeError, KeyError, AttributeError, IndexError, OverflowError):
            raise yaml.constructor.ConstructorError(
                None,
                None,
                f"cannot read {_short(node.value)} as {node.tag.rsplit(':', 1)[-1]}",
                node.start_mark,
            ) from None

    return construct


_Loader.add_constructor("tag:yaml.org,2002:int", _construct_int)
_Loader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)
for _tag, _fn in list(_Loader.yaml_constructors.items()):
    _Loader.add_constructor(_tag, _checked(_fn))


def _short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to about ``limit`` characters: error messages stay one short line."""
    text = repr(value)
    if len(text) > limit:
        text = f"{text[:limit]}... ({len(text)} characters)"
    return text


def _plain(name: str) -> str:
    """A name as written if it is short and printable, else as :func:`_short` shows it."""
    return name if len(name) <= 60 and name.isprintable() else _short(name)


def _name_list(names: list[str], most: int = 6) -> str:
    """``a, b, c`` (with ``, ...`` after the first ``most``), each name as :func:`_plain`."""
    shown = ", ".join(_plain(n) for n in names[:most])
    return shown + (", ..." if len(names) > most else "")


def _yaml_message(exc: yaml.YAMLError) -> str:
    """One line for a YAML error: where (line, column) and what went wrong."""
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        what = "; ".join(p for p in (exc.context, exc.problem) if p)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
        return " ".join(f"{where}{what}".split())
    return " ".join(str(exc).split())


def _read_yaml(text: str, file: str) -> Any:
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        raise ScenarioFileError(file, f"invalid YAML: {_yaml_message(exc)}") from None


# ---------------------------------------------------------------------------
# Turning msgspec's ValidationError into a readable key path and reason
# ---------------------------------------------------------------------------

_SIMPLE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PATH_TOKEN = re.compile(r"\.([^.\[]+)|\[(\d+)\]|(\[\.\.\.\])")
_TYPE_WORDS = {
    "str": "a string",
    "int": "an integer",
    "float": "a number",
    "bool": "true or false",
    "object": "a mapping",
    "array": "a list",
    "null": "null",
}


def _key_seg(key: Any) -> str:
    if isinstance(key, str) and len(key) <= 60 and _SIMPLE_KEY.fullmatch(key):
        return f".{key}"
    return f"[{_short(key)}]"


def _join_path(prefix: str, seg: str) -> str:
    if not prefix:
        return seg[1:] if seg.startswith(".") else seg
    return prefix + seg


def _members(tp: Any) -> list[Any]:
    """Flatten Annotated / Union into the member types."""
    origin = get_origin(tp)
    if origin is Annotated:
        return _members(get_args(tp)[0])
    if origin is Union or origin is types.UnionType:
        out: list[Any] = []
        for arg in get_args(tp):
            out.extend(_members(arg))
        return out
    return [tp]


def _struct_of(tp: Any) -> type[Struct] | None:
    for m in _members(tp):
        if isinstance(m, type) and issubclass(m, Struct):
            return m
    return None


def _container(tp: Any, kind: type) -> Any:
    for m in _members(tp):
        if get_origin(m) is kind:
            return m
    return None


@functools.cache
def _fields(struct: type[Struct]) -> tuple[msgspec.structs.FieldInfo, ...]:
    """``msgspec.structs.fields(struct)``, worked out once (it evaluates the annotations
    on every call: a millisecond, which a file of many actions would pay each time)."""
    return msgspec.structs.fields(struct)


def _struct_field_type(struct: type[Struct], key: str) -> Any:
    for f in _fields(struct):
        if f.encode_name == key:
            return f.type
    return None


def _allowed_keys(struct: type[Struct]) -> list[str]:
    return [f.encode_name for f in _fields(struct)]


def _literals(tp: Any) -> list[Any]:
    out: list[Any] = []
    for m in _members(tp):
        if get_origin(m) is Literal:
            out.extend(get_args(m))
    return out


def _fails(data: Any, tp: Any) -> bool:
    try:
        msgspec.convert(data, tp)
    except msgspec.ValidationError:
        return True
    return False


def _describe_value(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int | float):
        return _short(value)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _words(spec: str) -> str:
    return " or ".join(_TYPE_WORDS.get(p.strip(), p.strip()) for p in spec.split("|"))


_BOOL_HINT = " (YAML reads unquoted yes/no/on/off/true/false as booleans: quote names)"


_MISSING = object()


def _explain(message: str, data: Any, tp: Any) -> tuple[str, str]:
    """(key path, reason) for a msgspec ValidationError message."""
    key_error = False
    m = re.fullmatch(r"(.*) - at `key` in `\$(.*)`", message, re.S)
    if m:
        key_error = True
    else:
        m = re.fullmatch(r"(.*) - at `\$(.*)`", message, re.S)
    if m:
        reason, raw_path = m.group(1), m.group(2)
    else:
        reason, raw_path = message, ""

    # Walk the type and the data along msgspec's path, naming dict keys.
    path = ""
    cur_tp: Any = tp
    cur: Any = data
    for tok in _PATH_TOKEN.finditer(raw_path):
        field, index, dots = tok.group(1), tok.group(2), tok.group(3)
        if field is not None:
            path = _join_path(path, f".{field}")
            struct = _struct_of(cur_tp)
            cur_tp = _struct_field_type(struct, field) if struct is not None else None
            cur = cur.get(field, _MISSING) if isinstance(cur, dict) else _MISSING
        elif index is not None:
            i = int(index)
            path = _join_path(path, f"[{i}]")
            lst = _container(cur_tp, list)
            cur_tp = get_args(lst)[0] if lst is not None else None
            cur = cur[i] if isinstance(cur, list) and i < len(cur) else _MISSING
        elif dots is not None:
            dct = _container(cur_tp, dict)
            value_tp = get_args(dct)[1] if dct is not None else None
            found: Any = _MISSING
            if isinstance(cur, dict) and value_tp is not None:
                for k, v in cur.items():
                    if _fails(v, value_tp):
                        found = k
                        break
            if found is _MISSING:
                path = _join_path(path, "[...]")
                cur = _MISSING
            else:
                path = _join_path(path, _key_seg(found))
                cur = cur[found]
            cur_tp = value_tp

    if key_error:
        bad = [k for k in cur if not isinstance(k, str)] if isinstance(cur, dict) else []
        got = f", got {_describe_value(bad[0])}" if bad else ""
        hint = _BOOL_HINT if bad and isinstance(bad[0], bool) else ""
        return path, f"keys must be strings{got}{hint}"

    m2 = re.fullmatch(r"Object contains unknown field `(.*)`", reason, re.S)
    if m2:
        key = m2.group(1)
        struct = _struct_of(cur_tp)
        allowed = f"; allowed keys: {', '.join(_allowed_keys(struct))}" if struct else ""
        return _join_path(path, _key_seg(key)), f"unknown key `{_plain(key)}`{allowed}"
    m2 = re.fullmatch(r"Object missing required field `(.*)`", reason, re.S)
    if m2:
        key = m2.group(1)
        return _join_path(path, _key_seg(key)), f"missing required key `{key}`"
    scalar = cur is not _MISSING and isinstance(cur, str | int | float) and cur is not None
    got = f" ({_describe_value(cur)})" if scalar else ""
    m2 = re.fullmatch(r"Expected `([^`]*)`, got `([^`]*)`", reason)
    if m2:
        found = "a boolean" if m2.group(2) == "bool" else _words(m2.group(2))
        hint = _BOOL_HINT if isinstance(cur, bool) and "str" in m2.group(1) else ""
        return path, f"expected {_words(m2.group(1))}, got {found}{got}{hint}"
    m2 = re.fullmatch(r"Expected `([^`]*)` (.*)", reason)
    if m2:
        shown = f", got {_describe_value(cur)}" if cur is not _MISSING else ""
        return path, f"expected {_words(m2.group(1))} {m2.group(2)}{shown}"
    m2 = re.fullmatch(r"Invalid enum value (.*)", reason, re.S)
    if m2:
        allowed_values = ", ".join(str(v) for v in _literals(cur_tp))
        shown = _describe_value(cur) if cur is not _MISSING else _short(m2.group(1))
        return path, f"invalid value {shown}; expected one of: {allowed_values}"
    return path, reason[:1].lower() + reason[1:]


# ---------------------------------------------------------------------------
# Building and checking one scenario
# ---------------------------------------------------------------------------


class _Builder:
    """Validates one raw scenario mapping and builds the :class:`Scenario`."""

    def __init__(
        self,
        file: str,
        label: str | None,
        known_card: Callable[[str], bool] | None,
        prefix: str = "",
        known_event: Callable[[str], bool] | None = None,
    ) -> None:
        self.file = file
        self.label = label
        self.prefix = prefix
        self.known_card = known_card
        self.known_event = known_event
        self.players: list[str] = []
        self.aliases: set[str] = set()
        self.permanents: set[str] = set()
        """Names and aliases of the setup's battlefield entries."""

    def error(self, path: str, reason: str) -> ScenarioFileError:
        if self.label is None and self.prefix:
            # an unnamed scenario of a list: locate it by its index instead
            path = f"{self.prefix}.{path}" if path else self.prefix
        return ScenarioFileError(self.file, reason, scenario=self.label, path=path)

    # -- pre-processing of the raw YAML data --------------------------------

    def _prepare(self, data: dict[str, Any]) -> dict[str, Any]:
        data = dict(data)
        players = data.get("players")
        if isinstance(players, dict):
            players = {k: ({} if v is None else v) for k, v in players.items()}
            for name, setup in list(players.items()):
                if isinstance(setup, dict):
                    setup = dict(setup)
                    for zone in SETUP_ZONES:
                        if zone in setup and setup[zone] is None:
                            setup[zone] = []
                    players[name] = setup
            data["players"] = players
        actions = data.get("actions")
        if isinstance(actions, list):
            fixed = []
            for act in actions:
                if isinstance(act, dict) and isinstance(act.get("ability"), _PlusInt):
                    act = dict(act)
                    act["ability"] = f"+{int(act['ability'])}"
                fixed.append(act)
            data["actions"] = fixed
        for key in ("actions", "expect"):
            if key in data and data[key] is None:
                data[key] = []
        return data

    # -- name checks ---------------------------------------------------------

    def check_player(self, name: str, path: str) -> None:
        if name not in self.players:
            raise self.error(
                path,
                f"unknown player {_short(name)}; players are {_name_list(self.players)}",
            )

    def check_card(self, name: str, path: str) -> None:
        """A card name (setup): checked against the card database only."""
        if self.known_card is not None and not self.known_card(name):
            raise self.error(path, f"unknown card {_short(name)}")

    def check_ref(self, name: str, path: str, *, player_ok: bool = False) -> None:
        """A reference to an object: an alias, a card name, or (if allowed) a player."""
        if name in self.aliases or (player_ok and name in self.players):
            return
        if self.known_card is not None and not self.known_card(name):
            what = "card, alias or player" if player_ok else "card or alias"
            raise self.error(path, f"unknown {what} {_short(name)}")

    def check_permanent(self, name: str, path: str) -> None:
        """A setup link (``attached_to``, ``exiled_with``): a permanent of the setup."""
        if name in self.permanents:
            return
        if name in self.players:
            raise self.error(path, f"expected a permanent, got the player {_short(name)}")
        self.check_ref(name, path)
        raise self.error(
            path,
            f"expected the name or alias of a permanent on the battlefield in the setup, "
            f"got {_short(name)}",
        )

    def check_event(self, name: str, path: str) -> None:
        """An event type name (``log_has``): checked against the loaded event types."""
        if self.known_event is not None and not self.known_event(name):
            raise self.error(path, f"unknown event type {_short(name)}")

    # -- the whole scenario --------------------------------------------------

    def build(self, data: dict[str, Any]) -> Scenario:
        prepared = self._prepare(data)
        try:
            raw = msgspec.convert(prepared, _RawScenario)
        except msgspec.ValidationError as exc:
            path, reason = _explain(str(exc), prepared, _RawScenario)
            raise self.error(path, reason) from None

        if not raw.name.strip():
            raise self.error("name", "expected a non-empty scenario name")
        self.players = list(raw.players)
        if not MIN_PLAYERS <= len(self.players) <= MAX_PLAYERS:
            raise self.error(
                "players",
                f"two to four players are required, got {len(self.players)}"
                + (f" ({_name_list(self.players)})" if self.players else ""),
            )
        for name in self.players:
            if not name.strip():
                raise self.error("players", "player names must not be empty")
        teams = self._teams(raw)

        # aliases first: later checks may refer to them
        for pname, rp in raw.players.items():
            for zone in SETUP_ZONES:
                for i, entry in enumerate(getattr(rp, zone)):
                    if isinstance(entry, CardEntry) and entry.alias is not None:
                        path = f"players{_key_seg(pname)}.{zone}[{i}].as"
                        if entry.alias in self.aliases:
                            raise self.error(path, f"duplicate alias {_short(entry.alias)}")
                        if entry.alias in self.players:
                            raise self.error(
                                path, f"alias {_short(entry.alias)} is also a player's name"
                            )
                        if not entry.alias.strip():
                            raise self.error(path, "expected a non-empty alias")
                        self.aliases.add(entry.alias)
            for entry in rp.battlefield:
                if isinstance(entry, str):
                    self.permanents.add(entry)
                else:
                    self.permanents.add(entry.card)
                    if entry.alias is not None:
                        self.permanents.add(entry.alias)

        default_life = 30 if raw.variant == "two_headed_giant" else 20
        players = {pname: self._player(pname, rp, default_life)
                   for pname, rp in raw.players.items()}
        if teams:
            self._team_life(raw, teams, players)
        turn = self._turn(raw.turn)
        actions = [self._action(a, f"actions[{i}]") for i, a in enumerate(raw.actions)]
        self._check_opening(turn, actions)
        if raw.attack_option is not None and (raw.variant == "two_headed_giant"
                                               or len(self.players) < 3):
            raise self.error("attack_option", "`attack_option` is an option of a "
                             "free-for-all game of three or four players")
        expect = [self._expectation(e, f"expect[{i}]") for i, e in enumerate(raw.expect)]
        return Scenario(
            name=raw.name,
            description=raw.description,
            strict=raw.strict,
            players=players,
            variant=raw.variant,
            teams=teams,
            attack_option=raw.attack_option or "multiple",
            turn=turn,
            actions=actions,
            expect=expect,
            file=self.file,
        )

    def _teams(self, raw: _RawScenario) -> list[list[str]]:
        """Check ``variant`` and ``teams``: Two-Headed Giant needs two teams of two that
        are the four players; ``teams`` means nothing in another variant."""
        if raw.variant != "two_headed_giant":
            if raw.teams is not None:
                raise self.error("teams", "`teams` needs `variant: two_headed_giant`")
            return []
        if raw.teams is None:
            raise self.error("variant", "`variant: two_headed_giant` needs `teams` "
                             "(e.g. teams: [[alice, carol], [bob, dave]])")
        if len(raw.teams) != 2 or any(len(team) != 2 for team in raw.teams):
            raise self.error("teams", "Two-Headed Giant has two teams of two players")
        seen: list[str] = []
        for t, team in enumerate(raw.teams):
            for k, name in enumerate(team):
                self.check_player(name, f"teams[{t}][{k}]")
                if name in seen:
                    raise self.error(f"teams[{t}][{k}]", f"{_short(name)} is in two teams")
                seen.append(name)
        if len(seen) != len(self.players):
            left = [n for n in self.players if n not in seen]
            raise self.error("teams", f"every player is in a team; not in one: "
                             f"{_name_list(left)}")
        return [list(team) for team in raw.teams]

    def _team_life(self, raw: _RawScenario, teams: list[list[str]],
                   players: dict[str, PlayerSetup]) -> None:
        """A team shares one life total: ``life:`` on either player sets it (both may
        write it only if they agree); both players' setups then hold it."""
        for team in teams:
            written = {n: raw.players[n].life for n in team if raw.players[n].life is not None}
            if len(set(written.values())) > 1:
                raise self.error(f"players{_key_seg(team[1])}.life",
                                 f"{team[0]} and {team[1]} are a team with one life total; "
                                 f"their `life` differs ({', '.join(map(str, written.values()))})")
            if written:
                life = next(iter(written.values()))
                for n in team:
                    players[n] = msgspec.structs.replace(players[n], life=life)

    def _player(self, pname: str, rp: _RawPlayer, default_life: int = 20) -> PlayerSetup:
        zones: dict[str, list[CardEntry]] = {}
        base = f"players{_key_seg(pname)}"
        for zone in SETUP_ZONES:
            entries: list[CardEntry] = []
            for i, item in enumerate(getattr(rp, zone)):
                path = f"{base}.{zone}[{i}]"
                if isinstance(item, str):
                    entry = CardEntry(card=item)
                    self.check_card(item, path)
                else:
                    entry = item
                    self._check_entry(entry, zone, path)
                if not entry.card.strip():
                    raise self.error(path, "expected a card name")
                entries.append(entry)
            zones[zone] = entries
        return PlayerSetup(life=default_life if rp.life is None else rp.life, **zones)

    def _check_entry(self, entry: CardEntry, zone: str, path: str) -> None:
        self.check_card(entry.card, f"{path}.card")
        if zone != "battlefield":
            for key in ("tapped", "sick", "token", "damage"):
                if getattr(entry, key):
                    raise self.error(f"{path}.{key}", f"`{key}` is only allowed on the battlefield")
            for key in ("attached_to", "controller"):
                if getattr(entry, key) is not None:
                    raise self.error(f"{path}.{key}", f"`{key}` is only allowed on the battlefield")
        if zone != "exile":
            if entry.face_down:
                raise self.error(f"{path}.face_down", "`face_down` is only allowed in exile")
            if entry.exiled_with is not None:
                raise self.error(f"{path}.exiled_with", "`exiled_with` is only allowed in exile")
        if entry.attached_to is not None:
            self.check_permanent(entry.attached_to, f"{path}.attached_to")
            if entry.attached_to == entry.alias:
                raise self.error(f"{path}.attached_to", "a permanent can't be attached to itself")
        if entry.exiled_with is not None:
            self.check_permanent(entry.exiled_with, f"{path}.exiled_with")
        if entry.controller is not None:
            self.check_player(entry.controller, f"{path}.controller")

    def _check_opening(self, turn: TurnSpec, actions: list[Action]) -> None:
        """``mulligan`` and ``keep`` actions need ``step: opening_hands`` and a ``player``,
        and come before every other action but ``check``."""
        opening = turn.step == OPENING_HANDS
        played = False
        for a in actions:
            if a.verb in ("mulligan", "keep"):
                if not opening:
                    raise self.error(a.where, f"`{a.verb}` needs `turn.step: opening_hands`")
                if a.player is None:
                    raise self.error(a.where, f"`{a.verb}` needs `player`")
                if played:
                    raise self.error(a.where, f"`{a.verb}` comes after the game has begun: "
                                     "opening hands are kept before any other action")
            elif a.verb != "check":
                played = True

    def _turn(self, rt: _RawTurn | None) -> TurnSpec:
        if rt is None:
            return TurnSpec(active=self.players[0])
        active = rt.active if rt.active is not None else self.players[0]
        self.check_player(active, "turn.active")
        return TurnSpec(number=rt.number, active=active, step=rt.step)

    # -- actions ---------------------------------------------------------------

    def _action(self, ra: _RawAction, path: str) -> Action:
        present = [
            f.encode_name
            for f in _fields(_RawAction)
            if getattr(ra, f.name) is not UNSET
        ]
        verbs = [k for k in present if k in VERBS]
        if not verbs:
            raise self.error(path, f"an action needs one of the keys {', '.join(VERBS)}")
        if len(verbs) > 1:
            raise self.error(path, f"an action has exactly one verb, got {', '.join(verbs)}")
        verb = verbs[0]
        allowed = set(COMMON_ACTION_KEYS) | set(VERB_KEYS[verb])
        for key in present:
            if key != verb and key not in allowed:
                extra = sorted(allowed)
                raise self.error(
                    f"{path}.{key}",
                    f"`{key}` is not allowed with `{verb}`; allowed: {', '.join(extra)}",
                )

        player: str | None = None
        if not isinstance(ra.player, UnsetType):
            player = ra.player
            self.check_player(player, f"{path}.player")
        answers: list[Answer] = []
        if not isinstance(ra.answers, UnsetType):
            answers = [self._answer(a, f"{path}.answers[{i}]") for i, a in enumerate(ra.answers)]
        fields: dict[str, Any] = {
            "verb": verb,
            "where": path,
            "player": player,
            "refused": bool(ra.refused) if not isinstance(ra.refused, UnsetType) else False,
            "answers": answers,
        }

        if verb in ("cast", "play", "activate"):
            name = getattr(ra, verb)
            if not name.strip():
                raise self.error(f"{path}.{verb}", "expected a card name or alias")
            self.check_ref(name, f"{path}.{verb}")
            fields["card"] = name
        if not isinstance(ra.targets, UnsetType):
            for i, t in enumerate(ra.targets):
                self.check_ref(t, f"{path}.targets[{i}]", player_ok=True)
            fields["targets"] = list(ra.targets)
        if not isinstance(ra.modes, UnsetType):
            fields["modes"] = list(ra.modes)
        if not isinstance(ra.x, UnsetType):
            fields["x"] = ra.x
        if not isinstance(ra.evoke, UnsetType):
            fields["evoke"] = ra.evoke
            if ra.evoke:
                fields["alt_cost"] = "evoke"
        if not isinstance(ra.alt_cost, UnsetType):
            alt = ra.alt_cost.strip().lower()
            if not alt:
                raise self.error(f"{path}.alt_cost", "expected the name of an alternative cost "
                                 "(evoke, prowl, ...)")
            if fields.get("alt_cost", alt) != alt:
                raise self.error(f"{path}.alt_cost", f"`evoke: true` and `alt_cost: "
                                 f"{_plain(alt)}` name two different costs")
            fields["alt_cost"] = alt
        if not isinstance(ra.ability, UnsetType):
            fields["ability"] = self._ability(ra.ability, f"{path}.ability")

        if verb == "attack":
            attackers: dict[str, str | None] = {}
            assert not isinstance(ra.attack, UnsetType)
            if isinstance(ra.attack, list):
                for i, a in enumerate(ra.attack):
                    self.check_ref(a, f"{path}.attack[{i}]")
                    if a in attackers:
                        raise self.error(f"{path}.attack[{i}]", f"{_short(a)} attacks twice")
                    attackers[a] = None
            else:
                for a, d in ra.attack.items():
                    self.check_ref(a, f"{path}.attack{_key_seg(a)}")
                    self.check_ref(d, f"{path}.attack{_key_seg(a)}", player_ok=True)
                    attackers[a] = d
            if not attackers:
                raise self.error(
                    f"{path}.attack", "expected at least one attacker (use `pass_until` to skip)"
                )
            fields["attackers"] = attackers
        elif verb == "block":
            assert not isinstance(ra.block, UnsetType)
            blocks: dict[str, str | list[str]] = {}
            for b, blocked in ra.block.items():
                self.check_ref(b, f"{path}.block{_key_seg(b)}")
                if isinstance(blocked, list):
                    if not blocked:
                        raise self.error(f"{path}.block{_key_seg(b)}",
                                         "expected the attackers it blocks")
                    for i, one in enumerate(blocked):
                        self.check_ref(one, f"{path}.block{_key_seg(b)}[{i}]")
                        if one in blocked[:i]:
                            raise self.error(f"{path}.block{_key_seg(b)}[{i}]",
                                             f"{_short(one)} is named twice")
                    blocks[b] = list(blocked)
                else:
                    self.check_ref(blocked, f"{path}.block{_key_seg(b)}")
                    blocks[b] = blocked
            fields["blocks"] = blocks
        elif verb == "resolve":
            r = ra.resolve
            if isinstance(r, bool) or not ((isinstance(r, int) and r >= 1) or r == "all"):
                raise self.error(
                    f"{path}.resolve",
                    f"expected an integer >= 1 or `all`, got {_describe_value(r)}",
                )
            fields["resolve"] = r
        elif verb == "pass_until":
            fields["pass_until"] = ra.pass_until
        elif verb in ("mulligan", "keep"):
            if getattr(ra, verb) is not True:
                raise self.error(f"{path}.{verb}", f"expected `{verb}: true`")
            if verb == "mulligan" and ra.refused is True:
                raise self.error(f"{path}.refused", "a mulligan can't be refused")
            if not isinstance(ra.bottom, UnsetType):
                for i, name in enumerate(ra.bottom):
                    self.check_ref(name, f"{path}.bottom[{i}]")
                fields["bottom"] = list(ra.bottom)
        elif verb == "check":
            assert not isinstance(ra.check, UnsetType)
            fields["check"] = [
                self._expectation(e, f"{path}.check[{i}]") for i, e in enumerate(ra.check)
            ]
        return Action(**fields)

    _LOYALTY = re.compile(r"[+\-\u2212]([0-9]{1,9}|X)")

    def _ability(self, value: str | int, path: str) -> str | int:
        if isinstance(value, bool):
            raise self.error(path, 'expected a loyalty cost like "+1" or an ability index')
        if isinstance(value, int):
            if value >= 1:
                return int(value)
            return str(value)  # 0 or a negative loyalty cost written unquoted
        text = value.strip()
        if text == "0":
            return "0"
        if self._LOYALTY.fullmatch(text):
            return text.replace("\u2212", "-")
        if re.fullmatch(r"[0-9]{1,9}", text) and int(text) >= 1:
            return int(text)
        raise self.error(
            path,
            'expected a loyalty cost ("+1", "-1", "-X", "0") or the 1-based index '
            f"of an activated ability, got {_short(value)}",
        )

    # -- answers ---------------------------------------------------------------

    def _answer(self, raw: _RawAnswer, path: str) -> Answer:
        kinds = [k for k in ANSWER_KINDS if getattr(raw, k) is not UNSET]
        if not kinds:
            raise self.error(path, f"an answer needs one of the keys {', '.join(ANSWER_KINDS)}")
        if len(kinds) > 1:
            raise self.error(
                path, f"an answer has exactly one decision key, got {', '.join(kinds)}"
            )
        kind = kinds[0]
        kpath = f"{path}.{kind}"
        player: str | None = None
        if not isinstance(raw.player, UnsetType):
            player = raw.player
            self.check_player(player, f"{path}.player")
        v: Any = getattr(raw, kind)
        value: Any
        if kind == "redirect":
            if v is None or v is False or (isinstance(v, str) and v.lower() == "no"):
                value = None
            elif isinstance(v, str):
                self.check_ref(v, kpath)
                value = v
            else:
                raise self.error(kpath, "expected a planeswalker's name or `no`, got yes")
        elif kind == "champion":
            if v is None or v is False or (isinstance(v, str) and v.lower() in ("none", "no")):
                value = None
            elif isinstance(v, str):
                self.check_ref(v, kpath)
                value = v
            else:
                raise self.error(kpath, "expected a permanent's name or `none`, got yes")
        elif kind in ("may", "pay"):
            if isinstance(v, bool):
                value = v
            elif v.lower() in ("yes", "true"):
                value = True
            elif v.lower() in ("no", "false"):
                value = False
            else:
                raise self.error(kpath, f"expected yes or no, got {_short(v)}")
        elif kind == "arrange":
            for side in ("top", "bottom"):
                for i, name in enumerate(getattr(v, side)):
                    self.check_ref(name, f"{kpath}.{side}[{i}]")
            if not v.top and not v.bottom:
                raise self.error(kpath, "expected `top` and/or `bottom`: the looked-at cards, "
                                 "each list top first")
            value = v
        elif kind in ("hideaway", "target"):
            self.check_ref(v, kpath, player_ok=kind == "target")
            value = v
        elif kind == "order":
            for i, name in enumerate(v):
                base, ability = split_ability_ref(name)
                if ability == 0:
                    raise self.error(f"{kpath}[{i}]", f"expected NAME#N with N >= 1, got "
                                     f"{_short(name)}")
                self.check_ref(base, f"{kpath}[{i}]")
            value = list(v)
        elif kind in ("targets", "discard"):
            for i, name in enumerate(v):
                self.check_ref(name, f"{kpath}[{i}]", player_ok=kind == "targets")
            value = list(v)
        elif kind == "new_targets":
            if v is False or (isinstance(v, str) and v.lower() == "no"):
                value = None
            elif isinstance(v, list):
                for i, name in enumerate(v):
                    self.check_ref(name, f"{kpath}[{i}]", player_ok=True)
                value = list(v)
            else:
                raise self.error(kpath, "expected a list of new targets, or `no` (keep the "
                                 "original's targets)")
        elif kind == "choose":
            value = [v] if isinstance(v, str) else list(v)
        elif kind == "assign":
            for name in v:
                self.check_ref(name, f"{kpath}{_key_seg(name)}", player_ok=True)
            value = dict(v)
        elif kind == "modes":
            value = list(v)
        else:  # clash, mode, x
            value = v
        return Answer(kind=kind, value=value, player=player, where=path)

    # -- expectations ------------------------------------------------------------

    def _expectation(self, raw: _RawExpectation, path: str) -> Expectation:
        present = {
            f.encode_name
            for f in _fields(_RawExpectation)
            if getattr(raw, f.name) is not UNSET
        }
        if not present:
            raise self.error(path, "an expectation needs at least one key")
        count = raw.count
        count_is_filter = isinstance(count, CountFilter)
        count_is_number = "count" in present and not count_is_filter

        # every key must belong to a subject that is present
        for key in PLAYER_EXPECT_KEYS:
            if key in present and "player" not in present:
                raise self.error(f"{path}.{key}", f"`{key}` needs `player`")
        for key in CARD_EXPECT_KEYS:
            if key in present and "card" not in present:
                raise self.error(f"{path}.{key}", f"`{key}` needs `card`")
        if "player" in present and not present & set(PLAYER_EXPECT_KEYS):
            raise self.error(
                f"{path}.player",
                f"`player` needs one of {', '.join(PLAYER_EXPECT_KEYS)}",
            )
        if "card" in present and not present & set(CARD_EXPECT_KEYS):
            raise self.error(f"{path}.card", f"`card` needs one of {', '.join(CARD_EXPECT_KEYS)}")
        if "log_has" in present:
            if count_is_filter:
                raise self.error(
                    f"{path}.count",
                    "with `log_has`, `count` is a number of events, not a FILTER",
                )
            bounds = present & {"count", "min", "max"}
            if not bounds:
                raise self.error(f"{path}.log_has", "`log_has` needs `count`, `min` or `max`")
            if "count" in bounds and len(bounds) > 1:
                raise self.error(f"{path}.count", "`count` can't be combined with `min`/`max`")
        else:
            for key in ("min", "max"):
                if key in present:
                    raise self.error(f"{path}.{key}", f"`{key}` needs `log_has`")
            if count_is_number:
                raise self.error(
                    f"{path}.count",
                    "expected a FILTER mapping (name, zone, controller, owner, type, "
                    "subtype, token, tapped), or `log_has` with a number of events",
                )
        if count_is_filter and "equals" not in present:
            raise self.error(f"{path}.count", "`count` needs `equals`")
        if "equals" in present and not count_is_filter:
            raise self.error(f"{path}.equals", "`equals` needs a `count` FILTER")

        # names
        def opt(value: Any) -> Any:
            return None if isinstance(value, UnsetType) else value

        for key in ("player", "winner", "controller", "owner"):
            value = opt(getattr(raw, key))
            if value is not None:
                self.check_player(value, f"{path}.{key}")
        if not isinstance(raw.card, UnsetType):
            self.check_ref(raw.card, f"{path}.card")
        if not isinstance(raw.attached_to, UnsetType):
            if raw.attached_to in self.players:
                raise self.error(
                    f"{path}.attached_to",
                    f"expected a permanent, got the player {_short(raw.attached_to)}",
                )
            self.check_ref(raw.attached_to, f"{path}.attached_to")
        for key in ("library_top", "library_bottom"):
            names = opt(getattr(raw, key))
            if names is not None:
                for i, name in enumerate(names):
                    self.check_ref(name, f"{path}.{key}[{i}]")
        if isinstance(count, CountFilter):
            for key in ("controller", "owner"):
                value = getattr(count, key)
                if value is not None:
                    self.check_player(value, f"{path}.count.{key}")
            if count.name is not None:
                self.check_ref(count.name, f"{path}.count.name")
        if not isinstance(raw.log_has, UnsetType):
            if not raw.log_has.strip():
                raise self.error(f"{path}.log_has", "expected an event type name")
            self.check_event(raw.log_has, f"{path}.log_has")

        return Expectation(
            where=path,
            player=opt(raw.player),
            life=opt(raw.life),
            hand_size=opt(raw.hand_size),
            library_size=opt(raw.library_size),
            graveyard_size=opt(raw.graveyard_size),
            library_top=opt(raw.library_top),
            library_bottom=opt(raw.library_bottom),
            lost=opt(raw.lost),
            winner=opt(raw.winner),
            draw=opt(raw.draw),
            card=opt(raw.card),
            zone=opt(raw.zone),
            loyalty=opt(raw.loyalty),
            counters=opt(raw.counters),
            power=opt(raw.power),
            toughness=opt(raw.toughness),
            damage=opt(raw.damage),
            tapped=opt(raw.tapped),
            controller=opt(raw.controller),
            owner=opt(raw.owner),
            types=opt(raw.types),
            has_subtypes=opt(raw.has_subtypes),
            lacks_subtypes=opt(raw.lacks_subtypes),
            has_ability=opt(raw.has_ability),
            lacks_ability=opt(raw.lacks_ability),
            attached_to=opt(raw.attached_to),
            face_down=opt(raw.face_down),
            count=count if isinstance(count, CountFilter) else None,
            equals=opt(raw.equals),
            stack_size=opt(raw.stack_size),
            log_has=opt(raw.log_has),
            log_count=None if count_is_filter else opt(count),
            log_min=opt(raw.min),
            log_max=opt(raw.max),
        )


# ---------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------


def parse_scenarios(
    data: Any,
    file: str = "<data>",
    known_card: Callable[[str], bool] | None = None,
    known_event: Callable[[str], bool] | None = None,
) -> list[Scenario]:
    """Validate already-loaded YAML data (one scenario or ``{scenarios: [...]}``)."""
    if data is None:
        raise ScenarioFileError(file, "the file is empty; expected a scenario mapping")
    if not isinstance(data, dict):
        raise ScenarioFileError(
            file,
            f"expected a scenario mapping or `scenarios:` with a list, got {_describe_value(data)}",
        )
    items: list[tuple[str, Any]]
    if "scenarios" in data:
        try:
            wrapper = msgspec.convert(data, _RawFile)
        except msgspec.ValidationError as exc:
            path, reason = _explain(str(exc), data, _RawFile)
            if "unknown key" in reason:
                reason += " (a file with `scenarios:` holds nothing else)"
            raise ScenarioFileError(file, reason, path=path) from None
        items = [(f"scenarios[{i}]", s) for i, s in enumerate(wrapper.scenarios)]
        if not items:
            raise ScenarioFileError(file, "`scenarios:` is empty", path="scenarios")
    else:
        items = [("", data)]

    out: list[Scenario] = []
    seen: dict[str, str] = {}
    for where, raw in items:
        name = raw.get("name") if isinstance(raw, dict) else None
        label = name if isinstance(name, str) else None
        builder = _Builder(file, label, known_card, prefix=where, known_event=known_event)
        scenario = builder.build(raw)
        if scenario.name in seen:
            raise ScenarioFileError(
                file,
                f"duplicate scenario name {_short(scenario.name)} "
                f"(also {seen[scenario.name] or 'above'})",
                scenario=scenario.name,
                path=_join_path(where, ".name") if where else "name",
            )
        seen[scenario.name] = where
        out.append(scenario)
    return out


def loads_scenarios(
    text: str,
    file: str = "<string>",
    known_card: Callable[[str], bool] | None = None,
    known_event: Callable[[str], bool] | None = None,
) -> list[Scenario]:
    """Read scenarios from YAML text; ``file`` is used in error messages."""
    return parse_scenarios(_read_yaml(text, file), file, known_card, known_event)


def load_scenarios(
    path: str | Path,
    known_card: Callable[[str], bool] | None = None,
    known_event: Callable[[str], bool] | None = None,
) -> list[Scenario]:
    """Read and validate every scenario of a YAML file.

    ``known_card(name)`` says whether a card name exists; when given, unknown
    card names are errors.  ``known_event(name)`` says the same of event type
    names (``log_has``).  Raises :class:`ScenarioFileError` for any problem
    (unreadable file, invalid YAML, unknown key, wrong type, unknown card,
    unknown player, duplicate scenario name or alias, ...), and nothing else.
    """
    file = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioFileError(file, f"cannot read the file: {exc}") from None
    return loads_scenarios(text, file, known_card, known_event)


def iter_scenario_files(paths: Iterable[str | Path]) -> list[Path]:
    """The scenario files named by ``paths``.

    A file is used as is (whatever its name); a folder is searched
    recursively for ``*.yaml`` files, sorted.  Duplicates are dropped, order is
    kept.  A path that does not exist raises :class:`ScenarioFileError`.
    """
    out: list[Path] = []
    seen: set[Path] = set()
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = sorted(f for f in path.rglob("*.yaml") if f.is_file())
        elif path.exists():
            found = [path]
        else:
            raise ScenarioFileError(str(path), "no such file or folder")
        for f in found:
            key = f.resolve()
            if key not in seen:
                seen.add(key)
                out.append(f)
    return out


def is_scenario_test_file(path: str | Path) -> bool:
    """True for ``scenario_*.yaml`` and ``*.scenario.yaml`` (pytest collection)."""
    name = Path(path).name
    return (name.startswith("scenario_") and name.endswith(".yaml")) or (
        name.endswith(".scenario.yaml") and len(name) > len(".scenario.yaml")
    )
