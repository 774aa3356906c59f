"""The msgspec Structs of a game state: :class:`State` and what it holds.

Kept apart from :mod:`mtgk.rules.state` (which imports them, and where code takes them
from: ``from mtgk.rules.state import State, Obj``) because that module is compiled with
mypyc in a compiled kernel (docs/benchmarks.md), and a Struct defined in a compiled
module loses its precise annotations (and with them msgspec's checks when a snapshot is
decoded): this module is always interpreted, like :mod:`mtgk.log.structs`.
"""

from __future__ import annotations

from typing import Any

import msgspec

from mtgk.rules.names import StackKind, Zone

__all__ = ["Combat", "Effect", "Obj", "Player", "StackItem", "State"]


class Obj(msgspec.Struct, kw_only=True):
    """A card, token or spell in some zone.

    ``id`` changes whenever the object changes zones (a new object, rule
    400.7); ``card_id`` stays the same for the physical card so that scenario
    aliases can follow it.
    """

    id: int
    card_id: int
    card: str
    owner: int
    controller: int
    zone: Zone
    tapped: bool = False
    sick: bool = False
    token: bool = False
    face_down: bool = False
    counters: dict[str, int] = {}
    damage: int = 0
    deathtouched: bool = False
    attached_to: int = 0
    timestamp: int = 0
    flags: dict[str, Any] = {}
    loyalty_turn: int = 0
    known_to: list[int] = []


class StackItem(msgspec.Struct, kw_only=True):
    """A spell or ability on the stack (or a triggered ability waiting to go there)."""

    id: int
    kind: StackKind
    source: int
    ability: str
    controller: int
    targets: list[int] = []
    modes: list[int] = []
    x: int = 0
    data: Any = None
    source_card: str = ""


class Player(msgspec.Struct, kw_only=True):
    name: str
    life: int = 20
    library: list[int] = []
    hand: list[int] = []
    graveyard: list[int] = []
    mana: list[str] = []
    lands_played: int = 0
    lost: bool = False
    drew_from_empty: bool = False
    poison: int = 0


class Effect(msgspec.Struct, kw_only=True):
    id: int
    kind: str
    source: int
    controller: int
    objs: list[int]
    params: Any
    duration: str
    timestamp: int


class Combat(msgspec.Struct, kw_only=True):
    attackers: dict[int, int] = {}  # attacker id -> attacked Ref
    blockers: dict[int, list[int]] = {}  # blocker id -> attackers it blocks
    blocked: dict[int, list[int]] = {}  # attacker id -> blockers (in order)
    removed_attacked: list[int] = []  # planeswalkers removed from combat
    was_blocked: list[int] = []  # attackers that became blocked (they stay blocked)
    #: the attackers and blockers that had first strike or double strike as the
    #: first-strike combat damage step began (``FirstStrikers``; empty: no such step yet)
    first_strikers: list[int] = []
    #: the defending players: the attacked player's team, or the team of the controller of
    #: the attacked planeswalkers, as attackers were declared (:func:`defending_players`)
    defenders: list[int] = []


class State(msgspec.Struct, kw_only=True):
    players: list[Player] = []
    seed: int = 0
    profile: str = "lorwyn-2007"
    objects: dict[int, Obj] = {}
    battlefield: list[int] = []
    exile: list[int] = []
    stack: list[StackItem] = []
    pending: list[StackItem] = []
    effects: list[Effect] = []
    combat: Combat | None = None
    turn: int = 0
    active: int = 0
    step: str = ""
    next_id: int = 1
    timestamp: int = 0
    winner: int | None = None
    over: bool = False
    decisions: int = 0
    #: objects and players (Refs) dealt damage this turn ("was dealt damage this turn")
    damaged: list[int] = []
    #: ``""``: a two-player game; ``"free_for_all"`` or ``"two_headed_giant"`` (``GameVariant``)
    variant: str = ""
    #: the teams, each its players in their order (Two-Headed Giant); empty: every player
    #: is a team of one
    teams: list[list[int]] = []
