"""A scenario's board: setting its position up, and naming its objects.

:class:`ScenarioBoard` holds the game a scenario is played in and puts the scenario's
setup in place (:meth:`ScenarioBoard.setup`: recorded as events, triggering nothing);
then it resolves the names the scenario writes -- aliases, players, card names, tokens by
their printed names (:func:`printed_name`) -- to the game's objects, as actions name them
(:meth:`~ScenarioBoard.ref`: the first so called) and as expectations do
(:meth:`~ScenarioBoard.expect_ref`: exactly one).  :class:`mtgk.scenario.play.ScenarioRun`,
the scripted agent that plays the scenario, is a board.

Beside it: what the scenario loader needs to know the cards of a registry
(:func:`card_key`, :func:`known_card`), and :class:`ScenarioFailed`, what a scenario that
does not hold raises.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.log.events import player_ref
from mtgk.rules.engine import Agent, Game
from mtgk.rules.seats import FREE_FOR_ALL, TWO_HEADED_GIANT
from mtgk.scenario.model import OPENING_HANDS, CardEntry, Scenario

SEARCH_ORDER = ("battlefield", "stack", "hand", "graveyard", "exile", "library", "none")
"""Where a name is looked for, in order (``none``: tokens that have ceased to exist)."""


class ScenarioFailed(Exception):
    """The scenario does not hold (or can't be played): the message says where and why."""


_QUALIFIED = re.compile(r"(.+) \([^()]*\)")

def printed_name(reg: Registry, card: str) -> str:
    """The name the card (or token) ``card`` -- a registry name -- is printed or created
    with: what scenarios call it.  A card set may register two different tokens that
    share a name under names qualified in parentheses ("Elemental (Hoofprints)" is the
    Elemental token of Hoofprints of the Stag); the qualifier is not part of the name.
    (A registry that knows its tokens' printed names says: ``Registry.token_name``.)"""
    token_name = getattr(reg, "token_name", None)
    if callable(token_name):
        return str(token_name(card))
    name = reg[card].facts.name if card in reg else card
    m = _QUALIFIED.fullmatch(name)
    return m.group(1) if m else name


_PRINTED: dict[int, tuple[int, dict[str, list[str]]]] = {}
"""id(registry) -> (its number of cards, printed name -> registry names)."""

def card_key(reg: Registry, name: str) -> str | None:
    """The registry name of the card a scenario calls ``name``: the card of that name (or
    alias), else the first card or token printed with that name; ``None``: none is."""
    if name in reg:
        return reg.canonical(name)
    known = _PRINTED.get(id(reg))
    if known is None or known[0] != len(reg.cards):
        names: dict[str, list[str]] = {}
        for key in reg.cards:
            names.setdefault(printed_name(reg, key), []).append(key)
        known = _PRINTED[id(reg)] = (len(reg.cards), names)
    keys = known[1].get(name)
    return keys[0] if keys else None


def known_card(reg: Registry) -> Callable[[str], bool]:
    """The ``known_card`` test of the scenario loader for ``reg`` (printed names too)."""
    return lambda name: card_key(reg, name) is not None


def load_failures(reg: Registry) -> str:
    """The card sets and plugins that failed to load into ``reg``, as the first words of an
    "unknown card" message ("" if none did): the likely reason a card is unknown."""
    return "; ".join(f"card set or plugin {name!r} failed to load ({error})"
                     for name, error in reg.failures)


def unknown_card_reason(reg: Registry, reason: str) -> str:
    """``reason`` (an "unknown card ..." message), led by what failed to load, if anything."""
    failed = load_failures(reg)
    return f"{failed}, so: {reason}" if failed else reason


def in_no_zone(zone: str) -> str:
    """A zone as expectations name it: a card that left the game with its owner from a
    library or hand (zone ``left``: unseen) is in no zone, ``none``, like one that left
    from a public zone or a token that ceased to exist."""
    return "none" if zone == "left" else zone


def game_variant(sc: Scenario) -> tuple[str, list[list[int]]]:
    """The engine's variant and teams (player indices) for ``sc``: a two-player scenario
    plays the two-player game (variant ``""``: its log is a two-player log), more players
    a free-for-all game unless the scenario says Two-Headed Giant."""
    names = list(sc.players)
    if sc.variant == "two_headed_giant":
        return TWO_HEADED_GIANT, [[names.index(n) for n in team] for team in sc.teams]
    return ("" if len(names) == 2 else FREE_FOR_ALL), []


class ScenarioBoard:
    """A scenario's game and the names of its objects.  ``agent`` answers every player's
    decisions (:class:`~mtgk.scenario.play.ScenarioRun`, a board, is its own agent)."""

    def __init__(self, sc: Scenario, reg: Registry, agent: Agent) -> None:
        self.sc = sc
        self.reg = reg
        self.names = list(sc.players)
        variant, teams = game_variant(sc)
        self.game = Game(reg, self.names, seed=0, agents=[agent] * len(self.names),
                         variant=variant, teams=teams)
        # validated mode: a card whose static ability reads more than it declares fails
        self.game.validate_caches = True
        self.game.attack_option = sc.attack_option
        self.aliases: dict[str, int] = {}  # alias -> card_id
        self.moved: dict[int, int] = {}  # object id -> card_id, of objects that moved
        self.moves_seen = 0  # the log's length when ``moved`` was brought up to date

    # ------------------------------------------------------------ setup
    def setup(self) -> None:
        """Put the position in place: recorded as events, but nothing triggers."""
        with self.game.setting_up():
            self._setup()

    def _setup(self) -> None:
        g = self.game
        sc = self.sc
        active = self.names.index(sc.turn.active)
        if sc.turn.step != OPENING_HANDS:  # (the first turn begins once the hands are kept)
            g.emit(ev.TurnBegan(turn=sc.turn.number, active=active))
        for p, pname in enumerate(self.names):  # life first: no object exists yet to trigger
            diff = sc.players[pname].life - g.state.players[p].life
            if diff:
                g.emit(ev.LifeGained(player=p, n=diff) if diff > 0 else
                       ev.LifeLost(player=p, n=-diff))
        links: list[tuple[int, CardEntry, int, str]] = []
        for p, pname in enumerate(self.names):
            for zone, entries in sc.players[pname].zones():
                for entry in entries:
                    key = card_key(self.reg, entry.card)
                    if key is None:
                        raise ScenarioFailed(unknown_card_reason(
                            self.reg, f"unknown card {entry.card!r} (players.{pname}.{zone}): "
                                      "is its card set installed?"))
                    oid = g.new_id()
                    ctrl = self.names.index(entry.controller) if entry.controller else -1
                    g.emit(ev.ObjectCreated(obj=oid, card=key, owner=p, zone=zone,
                                            controller=ctrl, token=entry.token,
                                            tapped=entry.tapped, sick=entry.sick,
                                            face_down=entry.face_down))
                    if entry.alias:
                        self.aliases[entry.alias] = oid
                    links.append((oid, entry, p, key))
        for oid, entry, p, key in links:
            d = self.reg[key]
            counters = dict(entry.counters)
            if entry.face_down is False and "Planeswalker" in d.facts.types and \
                    "loyalty" not in counters and entry in sc.players[self.names[p]].battlefield \
                    and d.facts.loyalty:
                counters["loyalty"] = int(d.facts.loyalty)
            for kind in sorted(counters):
                if counters[kind]:
                    g.emit(ev.CounterPlaced(obj=oid, kind=kind, n=counters[kind]))
            if entry.damage:
                g.emit(ev.DamageMarked(obj=oid, amount=entry.damage))
            if entry.attached_to:
                g.emit(ev.Attached(obj=oid, to=self.ref(entry.attached_to)))
            if entry.exiled_with:
                host = self.ref(entry.exiled_with)
                g.emit(ev.ObjectFlagged(obj=oid, key="exiled_with", value=host))
                if entry.face_down:
                    g.emit(ev.ObjectFlagged(obj=oid, key="known_to",
                                            value=[g.state.objects[host].controller]))

    # ------------------------------------------------------------ names
    def current(self, card_id: int) -> int | None:
        best = None
        for oid, o in self.game.state.objects.items():
            if o.card_id == card_id and (best is None or oid > best):
                best = oid
        return best

    def printed(self, card: str) -> str:
        """The printed name of the registry name ``card`` (:func:`printed_name`)."""
        return printed_name(self.reg, card)

    def named(self, oid: int, name: str) -> bool:
        """Whether object ``oid`` is the one called ``name`` (an alias, or its name)."""
        o = self.game.state.objects[oid]
        if name in self.aliases:
            return o.card_id == self.aliases[name]
        return o.card == self.reg.canonical(name) or self.printed(o.card) == name

    def objects_named(self, name: str) -> list[int]:
        """The objects called ``name``, zone by zone in :data:`SEARCH_ORDER`."""
        if name in self.aliases:
            oid = self.current(self.aliases[name])
            if oid is None:
                raise ScenarioFailed(f"{name!r} no longer exists")
            return [oid]
        return [o for zone in SEARCH_ORDER for o in self._in_zone(zone) if self.named(o, name)]

    def ref(self, name: str, candidates: Sequence[int] | None = None,
            avoid: Sequence[int] = ()) -> int:
        """Resolve a name or alias (or player name) used in an action or answer: one of
        ``candidates`` if any is so called, else the first object so called (not in
        ``avoid`` if possible)."""
        if name in self.names:
            return player_ref(self.names.index(name))
        found = self.objects_named(name)
        if candidates is not None:
            among = [o for o in found if o in candidates] or \
                [c for c in candidates if c > 0 and c in self.game.state.objects
                 and self.named(c, name)]
            found = among or found
        fresh = [o for o in found if o not in avoid]
        if fresh:
            return fresh[0]
        if found:
            return found[0]
        raise ScenarioFailed(f"no object named {name!r}" +
                             (" among the legal choices" if candidates is not None else ""))

    def _in_zone(self, zone: str) -> list[int]:
        s = self.game.state
        if zone == "battlefield":
            return list(s.battlefield)
        if zone == "stack":
            return [it.id for it in s.stack if it.id in s.objects]
        if zone == "exile":
            return list(s.exile)
        if zone == "none":
            return [o for o, x in s.objects.items() if in_no_zone(x.zone) == "none"]
        return [o for p in s.players for o in getattr(p, zone)]

    def expect_ref(self, name: str) -> int:
        """Resolve a name in an expectation: an alias, or exactly one object."""
        if name in self.aliases:
            oid = self.current(self.aliases[name])
            if oid is None:
                raise ScenarioFailed(f"{name!r} no longer exists")
            return oid
        for zone in SEARCH_ORDER:
            hits = [o for o in self._in_zone(zone) if self.named(o, name)]
            if len(hits) == 1:
                return hits[0]
            if len(hits) > 1:
                raise ScenarioFailed(f"{name!r} is ambiguous: {len(hits)} objects in {zone} "
                                     "(use an alias or count)")
        raise ScenarioFailed(f"no object named {name!r}")

    def player(self, name: str) -> int:
        return self.names.index(name)

    def label(self, oid: int) -> str:
        """How messages name object ``oid``: its printed name (``#N`` once it is gone)."""
        o = self.game.state.objects.get(oid)
        return self.printed(o.card) if o else f"#{oid}"

    def _card_id(self, oid: int) -> int:
        """The physical card (``Obj.card_id``) of object ``oid``, which may have left its
        zone since (a new object, CR 400.7): followed through the log's moves."""
        o = self.game.state.objects.get(oid)
        if o is not None:
            return o.card_id
        log = self.game.log
        for env in log[self.moves_seen:]:
            e = env.event
            new = getattr(e, "new_obj", None)
            old = getattr(e, "obj", None)
            if isinstance(new, int) and isinstance(old, int):
                self.moved[new] = self.moved.get(old, old)
        self.moves_seen = len(log)
        return self.moved.get(oid, oid)

    def source_named(self, source: int, source_card: str, name: str) -> bool:
        """Whether the source of a pending or stacked ability (object ``source``, the card
        ``source_card``) is the one called ``name``."""
        if name in self.aliases:  # (also after the source left its zone: CR 400.7)
            return self._card_id(source) == self.aliases[name]
        return source_card == self.reg.canonical(name) or self.printed(source_card) == name

    def fail(self, where: str, msg: str) -> ScenarioFailed:
        """The failure ``msg`` at the key path ``where`` of the file."""
        return ScenarioFailed(f"{where}: {msg}" if where else msg)
