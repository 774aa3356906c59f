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
Every problem raises :class:`mtgk.scenario.errors.ScenarioFileError`, whose message
names the file, the scenario, the key path (``players.alice.battlefield[2].counters``)
and what was expected.

Where the rest is
-----------------
This module holds the vocabulary (step names, verbs, answer kinds, limits) and the
model Structs.  Reading a file is :mod:`mtgk.scenario.reader` (the bounded YAML
loader and the entry points :func:`~mtgk.scenario.reader.load_scenarios`,
:func:`~mtgk.scenario.reader.loads_scenarios`,
:func:`~mtgk.scenario.reader.parse_scenarios`); checking every key and value and
building the :class:`Scenario` is :mod:`mtgk.scenario.validation`; the error and
the wording of its messages are :mod:`mtgk.scenario.errors`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Annotated, Any, Literal, get_args

import msgspec
from msgspec import Meta, Struct

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
    "TurnSpec",
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
:mod:`mtgk.scenario.reader`); a file that writes more out without aliases is not limited."""

Int = Annotated[int, Meta(ge=-INT_LIMIT, le=INT_LIMIT)]
NonNeg = Annotated[int, Meta(ge=0, le=INT_LIMIT)]
Positive = Annotated[int, Meta(ge=1, le=INT_LIMIT)]


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


