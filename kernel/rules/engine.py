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

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import combinations, islice, product
from typing import Any, NoReturn, Protocol

import msgspec
import structlog

from mtgk.cards.definitions import X_COUNT, Activated, CardDef, Cost, Registry, Target, Triggered
from mtgk.cards.effects import Ctx
from mtgk.cards.errors import blame
from mtgk.log import events as ev
from mtgk.log.events import Envelope, Event, player_ref, ref_player
from mtgk.rules.layers import (
    APPLIERS,
    Chars,
    View,
    chars_key,
    compute,
    compute_with_reads,
    is_creature_type,
    printed,
    printed_template,
)
from mtgk.rules.mana import (
    SPEND_RESTRICTIONS,
    ManaCost,
    Source,
    Spend,
    max_payable_x,
    plan_payment,
    restriction,
)
from mtgk.rules.replacement import replace
from mtgk.rules.state import Obj, StackItem, State, apply, new_state

log = structlog.get_logger("mtgk.rules.engine")


class _Silent:
    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *a, **k: None


_SILENT = _Silent()

STEPS = ("untap", "upkeep", "draw", "precombat_main", "beginning_of_combat",
         "declare_attackers", "declare_blockers", "first_strike_damage", "combat_damage",
         "end_of_combat", "postcombat_main", "end", "cleanup")
"""The steps of a turn in order.  ``first_strike_damage`` is the first of two combat
damage steps (CR 510.4): it happens only when an attacking or blocking creature has first
strike or double strike as combat damage begins; ``combat_damage`` is the regular one."""
ZONE_WORDS = {"hand": "a hand", "graveyard": "a graveyard", "exile": "exile",
              "library": "a library", "battlefield": "the battlefield", "stack": "the stack"}
ABILITY_ZONES = ("hand", "graveyard", "exile")
"""Zones other than the battlefield from which a player is offered the activated abilities
of their own cards that work there (``Activated.zones``)."""
COMBAT_DAMAGE_STEPS = ("first_strike_damage", "combat_damage")
"""The combat damage steps: "the combat damage step" of a trigger is either of them."""
COLOR_WORDS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
BASIC_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}
MAX_TARGET_COMBOS = 24
SKIP_DRAW = "skip your draw step"
"""A rules ability: its controller skips their draw step."""
KNOWN_TO_CONTROLLERS_OF = "known_to_controllers_of"
"""Flag of a face-down exiled card: the permanent whose controllers may look at it
(hideaway: "any player who has controlled [this land]"); see :meth:`Game.settle`."""
_MOVES: frozenset[type] = frozenset({ev.ZoneChanged, ev.RemovedFromGame, ev.SpellCast})
"""Events that move object ``obj`` from ``from_zone`` (it becomes a new object)."""

_STACK_ENTRIES: dict[type, str] = {ev.SpellCast: "new_obj", ev.AbilityActivated: "item",
                                   ev.TriggerPutOnStack: "item"}
"""Events that put a stack item on the stack, with the field naming it (``""``: an event
type that doesn't).  A plugin's event that does (a copy of a spell or ability) says so
with a class attribute ``STACK_ITEM`` naming that field."""

LOOP_WINDOW = 500
"""Events without a player's choice after which the engine looks for a loop of mandatory
actions (CR 104.4b, :meth:`Game._mandatory_loop`)."""

NEUTRAL_EVENTS: frozenset[type] = frozenset({
    ev.DecisionMade, ev.ManaAdded, ev.ManaSpent, ev.ManaEmptied, ev.Revealed,
    ev.LibraryShuffled, ev.StepBegan, ev.Tapped, ev.Untapped})
"""Event types that never call for a state-based action and that change characteristics
only through a static ability that *declares* it reads what they change
(``Static.reads``: ``"tapped"``, ``"mana"``, ``"step"`` ...; a static that declares
nothing is taken not to look at these).  Legal actions kept across them are keyed on
tapped status and mana pools (:meth:`Game.legal_actions`)."""


class StaleCache(AssertionError):
    """In validated mode (``Game.validate_caches``), something the engine kept across
    events differs from a fresh computation: a card's or plugin's declarations of what
    it reads (``Static.reads``, ``pt_reads``, ``Registry.add_sba_check``) or an event
    type's ``CHANGES`` are wrong."""


class StaleCharacteristics(StaleCache):
    """The engine's kept characteristics differ from a fresh computation (see
    :meth:`Game.check_cached_characteristics`)."""


class RulesError(Exception):
    """An illegal action.  ``rule`` names the Comprehensive Rules rule (or seed)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} (rule {rule})")
        self.rule = rule
        self.message = message


class GameOver(Exception):
    pass


class Decision:
    """A question for one player.

    ``options`` lists the legal answers when they can be listed (the first
    is the default); ``check`` validates answers that cannot (attackers,
    blockers, damage assignment, priority actions).
    """

    __slots__ = ("kind", "player", "options", "prompt", "count", "up_to", "check", "context",
                 "many")

    def __init__(self, kind: str, player: int, options: list[Any] | None, prompt: str = "",
                 count: int = 1, up_to: bool = False,
                 check: Callable[[Any], Any] | None = None, context: Any = None,
                 many: bool = False) -> None:
        self.many = many or count != 1 or up_to
        self.kind = kind
        self.player = player
        self.options = options
        self.prompt = prompt
        self.count = count
        self.up_to = up_to
        self.check = check
        self.context = context

    def __repr__(self) -> str:
        n = "?" if self.options is None else len(self.options)
        return f"Decision({self.kind!r}, player={self.player}, options={n})"


class Agent(Protocol):
    def decide(self, game: Game, decision: Decision) -> Any: ...


class _Pass:
    def decide(self, game: Game, decision: Decision) -> Any:
        return decision.options[0] if decision.options else []


PASS: list[Any] = ["pass"]


def _listed(answer: Any, options: list[Any]) -> bool:
    """Whether ``answer`` is one of ``options`` itself (not an equal copy)."""
    for o in options:
        if o is answer:
            return True
    return False


def _plain(x: Any) -> Any:
    if isinstance(x, tuple | list):
        return [_plain(i) for i in x]
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    return x


class Game:
    """One game: its state, its log, the registry of cards and the players' agents."""

    def __init__(self, registry: Registry, players: Sequence[str], seed: int = 0,
                 agents: Sequence[Agent] | None = None, profile: str = "lorwyn-2007",
                 start: bool = True) -> None:
        self.reg = registry
        self.state: State = new_state()
        self.log: list[Envelope] = []
        self.agents: list[Agent] = list(agents) if agents else [_Pass(), _Pass()]
        self.seed = seed
        self._cause: list[int] = [-1]
        self._chars: dict[int, Chars] | None = None
        self._chars_reads: frozenset[str] | None = None  # what ``_chars`` depends on
        self._tokens = False  # whether a token has existed (state-based actions look)
        self._effects_seen: tuple[int, bool, bool] = (-1, False, False)  # _effects_facts
        #: validated mode: check what the engine keeps across events against a fresh
        #: computation after every event (characteristics, state-based actions, legal
        #: actions) and raise :class:`StaleCache` on a difference.  Scenarios run so.
        self.validate_caches = False
        self._taps = 0  # counts Tapped and Untapped events
        self._choice_at = 0  # the log's length at the last choice a player made
        #: the event that ended the last step (its last recorded pass of priority, else its
        #: StepBegan) or began the turn: the cause of the next StepBegan or TurnBegan
        self._step_end = -1
        #: the log's length when state-based actions were last looked for and none was due:
        #: an action due now was made due by an event since then (:meth:`_sba_cause`)
        self._sba_clean = 0
        #: the last exception an agent or a listener raised: not card code's doing, it goes
        #: through the card code that asked the decision or emitted the event (see
        #: :meth:`card_failed`)
        self._foreign: BaseException | None = None
        self._loop_from = -1  # the choice since which situations are remembered
        self._loop_seen: set[tuple[int, int, tuple[Any, ...]]] = set()
        self._checks: list[Callable[[Any], Any]] = []  # check_action for each player
        self._names: set[str] = set()  # the cards of the objects in this game, so far
        self._grantors: set[str] | None = None  # those of them defined ``grantable``
        self._game_facts: dict[tuple[str, bool], list[Any]] = {}  # about its cards (so far)
        #: event tag -> (look-back plan, ordinary plan) for the cards in this game
        self._tag_plans: dict[str, tuple[list[Any], list[Any]]] = {}
        #: legal_actions(), by player and whether they could cast a sorcery
        self._legal: dict[tuple[int, bool], tuple[Any, list[Any]]] = {}
        self._setting_up = False  # inside setting_up(): events trigger nothing
        self._hooks: dict[Any, Any] = {}  # static_hooks() cache, keyed by _chars_version
        self._chars_version = 0  # counts the times the characteristics were forgotten
        self._version = 0  # counts events that may change characteristics or SBAs
        self._settled = -1  # _sba_version when state-based actions last found nothing
        #: counts events that may call for a state-based action: that change permanents
        #: or a part of the state the checks look at (:meth:`_sba_reads`)
        self._sba_version = 0
        self._sba_parts: frozenset[str] | None = None
        self._chars_at = -1
        self._lki: dict[int, tuple[int, Chars | None]] = {}
        #: the ids below this are taken by moves happening at once (:meth:`move_together`)
        self._id_floor = 0
        self.listeners: list[Callable[[Envelope], None]] = []
        if start:
            self.emit(ev.GameStarted(players=tuple(players), seed=seed, profile=profile))

    def diag(self) -> Any:
        """The kernel's diagnostics logger for this game (structlog), bound to its seed;
        silent unless structlog is configured (``mtgk -v``, :func:`mtgk.tools.diag.configure`)."""
        if not structlog.is_configured():
            return _SILENT
        return log.bind(seed=self.seed)

    def __repr__(self) -> str:
        return (f"Game(players={[p.name for p in self.state.players]!r}, seed={self.seed}, "
                f"events={len(self.log)})")

    # ------------------------------------------------------------------ events
    max_events: int = 1_000_000
    """The event budget: a game that reaches this many events without ending (a card
    looping forever, say) is ended there by ``GameEnded(winner=-1, reason="event-budget")``.
    Deterministic, unlike a wall clock; a log's header records it as ``meta["max_events"]``
    (:func:`mtgk.log.replay.run_from_header`).  The longest reference game has 1,872 events."""

    def emit(self, e: Event, cause: int | None = None, together: bool = False) -> int:
        """Append ``e`` to the log, fold it into the state, and collect triggers.
        ``together``: ``e`` is one of several moves that happen at once
        (:meth:`move_together`), which records last known information and triggers
        abilities for all of them."""
        if len(self.log) >= self.max_events and type(e) is not ev.GameEnded:
            self.emit(ev.GameEnded(winner=-1, reason="event-budget"))
            raise GameOver()
        why = self._cause[-1] if cause is None else cause
        kind = type(e)
        plans = None
        if not (self._setting_up or together):
            plans = self._tag_plans.get(e.TAG)
            if plans is None:
                plans = self._trigger_plans(e.TAG)
            if plans[0]:
                # look-back triggers (leaves-the-battlefield) are seen before the event and
                # recorded just before it, with the same cause; the event's seq comes after
                self._triggers(plans[0], e, why, before=True)
        s = self.state
        seq = len(self.log)
        env = Envelope(seq=seq, cause=why, event=e)
        left = kind in _MOVES and e.from_zone == "battlefield"  # type: ignore[attr-defined]
        if left and not together:
            o = s.objects.get(e.obj)  # type: ignore[attr-defined]
            if o is not None:
                self._lki[o.id] = (o.controller, self.chars(o.id))
        self.log.append(env)
        first_new = s.next_id
        apply(s, e)
        if s.next_id != first_new:
            self._new_objects(first_new)
        if kind not in NEUTRAL_EVENTS:
            self._version += 1
            ch = e.changes()
            if ch is None or not ch.isdisjoint(self._sba_parts or self._sba_reads()):
                self._sba_version += 1
            if self._chars is not None:
                self._chars_after(e, ch, False)
        else:
            if kind is ev.Tapped or kind is ev.Untapped:
                self._taps += 1
            if self._chars is not None:
                self._chars_after(e, e.changes(), True)
        if self.validate_caches:
            self.check_cached_characteristics()
        for fn in self.listeners:  # before any event this one triggers: in log order
            try:
                fn(env)
            except Exception as exc:
                self._foreign = exc
                raise
        if left and s.effects:
            self._source_left(e.obj, seq)  # type: ignore[attr-defined]
        if plans is not None:  # (not setting up, nor one of several moves at once)
            if plans[1]:
                self._triggers(plans[1], e, seq, before=False)
            if s.effects:
                self._delayed_triggers(e, seq)
        return seq

    def _sba_reads(self) -> frozenset[str]:
        """The parts of the state (beyond the permanents) that state-based actions look
        at: life, damage, players' standing; the zones once a token has existed (it
        ceases to exist there); what the registry's checks declare (all, if one doesn't)."""
        reads = self._sba_parts
        if reads is None:
            parts = {"life", "damage", "players"}
            if self._tokens:
                parts |= {"stack", "hand", "library", "graveyard", "exile"}
            for check in self.reg.sba_checks:
                declared = self.reg.sba_check_reads.get(check)
                parts |= set(ev.STATE_PARTS) if declared is None else declared
            reads = self._sba_parts = frozenset(parts)
        return reads

    def _new_objects(self, first: int) -> None:
        """Note the objects an event created (ids from ``first`` on): whether a token has
        existed, and cards new to this game (whose triggers are then looked for)."""
        objs = self.state.objects
        for i in range(first, self.state.next_id):
            o = objs.get(i)
            if o is None:
                continue
            if o.token and not self._tokens:
                self._tokens = True
                self._sba_parts = None
            if o.card not in self._names:
                self._names.add(o.card)
                self._game_facts.clear()
                self._tag_plans.clear()
                self._grantors = None

    def _chars_after(self, e: Event, ch: frozenset[str] | None, neutral: bool) -> None:
        """Forget the characteristics computed before ``e`` if ``e`` may have changed them:
        it changes permanents (``ch``, its ``Event.changes()``, is ``None``), or a part of
        the state that a static ability on the battlefield reads (``Static.reads``; one
        that didn't say reads every part but those of :data:`NEUTRAL_EVENTS`)."""
        reads = self._chars_reads
        if ch is None or (reads is None and not neutral) or (reads and not reads.isdisjoint(ch)):
            self._chars = None
            self._chars_version += 1
            self._sba_version += 1
            if neutral:
                self._version += 1  # the caches of facts that depend on characteristics
        elif ch and self._chars is not None and type(e) in _MOVES:
            self._chars.pop(e.obj, None)  # type: ignore[attr-defined]  # (a card that moved)

    def setting_up(self) -> _SetupScope:
        """``with game.setting_up():`` -- events emitted inside set up a position (a
        scenario's setup): they trigger nothing."""
        return _SetupScope(self)

    def _source_left(self, oid: int, seq: int) -> None:
        """Effects that last "for as long as [their source] remains on the battlefield"
        (duration ``while_source``) end as it leaves."""
        ended = tuple(x.id for x in self.state.effects
                      if x.duration == "while_source" and x.source == oid)
        if ended:
            self.emit(ev.EffectsEnded(effects=ended), cause=seq)

    def _delayed_triggers(self, e: Event, seq: int) -> None:
        """Delayed triggered abilities (CR 603.7) are effects of kind ``delayed_trigger``
        with params ``{"on": TAG, "match": {field: value or [values]}, "active": player
        or None, "ability": ability key, "data": ..., "event": bool}``: the first event
        that matches -- and satisfies the ability's ``condition(view, controller, event)``,
        if it has one -- triggers the ability (controlled by the effect's controller)
        once.  With ``"event": True`` the ability's data is that event (``Ctx.event``)."""
        for eff in [x for x in self.state.effects if x.kind == "delayed_trigger"]:
            p = eff.params
            if p.get("on") != e.TAG or p.get("active") not in (None, self.state.active):
                continue
            if any(getattr(e, k, None) not in (v if isinstance(v, list) else [v])
                   for k, v in (p.get("match") or {}).items()):
                continue
            name, _, idx = str(p.get("ability", "")).rpartition("#")
            d = self.reg.cards.get(name)
            cond = getattr(d.abilities[int(idx)], "condition", None) \
                if d is not None and idx.isdigit() else None
            try:
                if cond is not None and not cond(self.view(), eff.controller, e):
                    continue
            except Exception as exc:
                self.card_failed(exc, name, p["ability"], "delayed trigger's condition")
            data = _plain(_event_data(e)) if p.get("event") else p.get("data")
            self.emit(ev.EffectsEnded(effects=(eff.id,)), cause=seq)
            self.emit(ev.AbilityTriggered(item=self.new_id(), source=eff.source,
                                          ability=p["ability"], controller=eff.controller,
                                          data=data), cause=seq)

    def caused(self, seq: int) -> _CauseScope:
        """``with game.caused(seq):`` -- events emitted inside have ``seq`` as cause."""
        return _CauseScope(self, seq)

    def card_failed(self, error: Exception, card: str, ability: Any, part: str) -> NoReturn:
        """Called with the exception raised as the engine ran ``card``'s code (``ability``
        and ``part``: which, see :func:`mtgk.cards.effects.blame`): raise it as a
        :class:`~mtgk.cards.effects.CardError` naming the card, its ability and its set --
        unless it isn't the card's doing: a rules error, the game's end, a check of
        validated mode, or an exception of an agent or a listener, which go on as they
        are.  (Call sites are ``try``/``except``: nothing is done unless something is
        raised.)"""
        if isinstance(error, RulesError | GameOver | StaleCache) or error is self._foreign:
            raise error
        blame(error, self.reg, card, ability, part)

    # ------------------------------------------------------------------ reading
    def chars(self, oid: int) -> Chars:
        """Current characteristics of an object (after layers, for permanents)."""
        cs = self._chars
        if cs is None:
            cs = self._all_chars()
        c = cs.get(oid)
        if c is None:
            o = self.state.objects.get(oid)
            if o is None:
                lki = self._lki.get(oid)
                if lki and lki[1] is not None:
                    return lki[1]
                raise KeyError(oid)
            c = cs[oid] = printed(self.reg, o)
        return c

    def check_cached_characteristics(self) -> None:
        """Validated mode (scenarios and tests run it after every event): the
        characteristics the engine kept across the last event must equal a fresh
        computation.  If not, a static ability on the battlefield reads a part of the
        state it didn't declare in ``Static.reads`` (or a CDA in ``pt_reads``), or an
        event type's ``CHANGES`` is too narrow; :class:`StaleCharacteristics` names them."""
        cs = self._chars
        if cs is None:
            return
        fresh = compute(self.state, self.reg)
        for oid in self.state.battlefield:
            old, new = cs.get(oid), fresh.get(oid)
            if old is None or new is None or chars_key(old) != chars_key(new):
                last = self.log[-1].event if self.log else None
                diff = [f"{slot} {getattr(old, slot, None)!r} -> {getattr(new, slot, None)!r}"
                        for slot in Chars.__slots__
                        if slot != "shared" and getattr(old, slot, None) != getattr(new, slot, None)]
                raise StaleCharacteristics(
                    f"after event {len(self.log) - 1} ({type(last).__name__}, which changes "
                    f"{sorted(last.changes() or ()) if last else '?'}), the characteristics "
                    f"kept for #{oid} {self.state.objects[oid].card} are stale "
                    f"({'; '.join(diff)}): a static ability or characteristic-defining "
                    f"ability on the battlefield reads a part of the state it doesn't "
                    f"declare (Static.reads, pt_reads)")

    def _all_chars(self) -> dict[int, Chars]:
        """The characteristics of every permanent (computed if need be): for loops over
        the battlefield, where each permanent is sure to be there."""
        cs = self._chars
        if cs is None:
            cs, self._chars_reads = compute_with_reads(self.state, self.reg)
            self._chars = cs
        return cs

    def view(self) -> View:
        return View(self.state, self.reg, self._all_chars())

    def static_hooks(self, attr: str) -> list[tuple[int, Any]]:
        """``(source, hook)`` for each static ability of a permanent on the battlefield
        that has the hook ``attr`` (``cost_change``, ``forbids_cast``, ``extra_mana``,
        ``enters_tapped``, ``as_though_haste`` ...) and that its source has now; cached
        until the next event that can change characteristics."""
        cache = self._chars_cache()
        out: list[tuple[int, Any]] | None = cache.get(attr)
        if out is None:
            live = cache.get("\0statics")
            if live is None:  # each static ability a permanent has now, with its source
                cs = self._all_chars()
                live = cache["\0statics"] = [
                    (src, st) for src in self.state.battlefield
                    for key, st in self.definition(src).statics if key in cs[src].abilities]
            out = cache[attr] = [(src, fn) for src, st in live
                                 for fn in [getattr(st, attr, None)] if fn is not None]
        return out

    def permanents_with(self, ability: str) -> list[int]:
        """The permanents that have ``ability`` now, in battlefield order (remembered
        while the characteristics hold).

        >>> g = Game(Registry(), ["A", "B"], seed=1)
        >>> g.permanents_with("flying")
        []
        """
        return self._permanents(("\0with", ability), lambda c: ability in c.abilities)

    def permanents_of_type(self, card_type: str) -> list[int]:
        """The permanents of ``card_type`` now, in battlefield order (remembered while the
        characteristics hold)."""
        return self._permanents(("\0type", card_type), lambda c: card_type in c.types)

    def _permanents(self, key: tuple[str, str], test: Callable[[Chars], bool]) -> list[int]:
        cache = self._chars_cache()
        found: list[int] | None = cache.get(key)
        if found is None:
            cs = self._all_chars()
            found = cache[key] = [oid for oid in self.state.battlefield if test(cs[oid])]
        return found

    def cached(self, key: str, compute: Callable[[], Any]) -> Any:
        """``compute()``, remembered while the permanents and their characteristics stay
        as they are (until an event changes a permanent, or a part of the state that a
        static ability on the battlefield reads): for plugins' facts about the
        permanents (``key`` should name the plugin).

        >>> g = Game(Registry(), ["A", "B"], seed=1)
        >>> g.cached("demo:answer", lambda: 42), g.cached("demo:answer", lambda: 0)
        (42, 42)
        """
        cache = self._chars_cache()
        if key in cache:
            return cache[key]
        out = cache[key] = compute()
        return out

    def _chars_cache(self) -> dict[Any, Any]:
        """A cache for facts about the permanents and their characteristics, emptied as
        the characteristics are forgotten (:meth:`_chars_after`).  The characteristics
        are computed first, so that every event that could change such a fact is seen."""
        if self._chars is None:
            self.view()
        cache = self._hooks
        if cache.get("") != self._chars_version:
            cache.clear()
            cache[""] = self._chars_version
        return cache

    def _grants_possible(self) -> bool:
        """Whether a permanent may have been granted another card's triggered ability:
        only through a continuous effect from a resolved spell or ability, or a static
        ability of a card defined ``grantable`` (an Aura, a Role) on the battlefield."""
        s = self.state
        if s.effects and self._effects_facts()[1]:
            return True
        if self._grantors is None:  # the grantable cards in this game (so far)
            cards = self.reg.cards
            self._grantors = {n for n in self._names
                              if n in cards and cards[n].extras.get("grantable")}
        if not self._grantors:
            return False
        cache = self._chars_cache()
        found = cache.get("_grants")
        if found is None:
            grantors = self._grantors
            found = cache["_grants"] = any(s.objects[i].card in grantors
                                           for i in s.battlefield)
        return bool(found)

    def card(self, oid: int) -> CardDef:
        """The definition of ``oid``'s card (the physical card: what is cast, its faces and
        costs).  What a permanent *does* is :meth:`definition`."""
        name = self.state.objects[oid].card
        return self.reg.cards.get(name) or self.reg[name]

    def _effects_facts(self) -> tuple[bool, bool]:
        """Whether a copy effect exists (layer 1), and whether an effect may grant
        abilities (layer 6, other than taking them away); kept until the next event
        that may change the effects."""
        found = self._effects_seen
        if found[0] != self._version:
            copies = grants = False
            for x in self.state.effects:
                layer = APPLIERS.get(x.kind, ("",))[0]
                copies = copies or layer == "1"
                grants = grants or (layer == "6" and x.kind not in ("lose", "lose_all_abilities"))
            found = self._effects_seen = (self._version, copies, grants)
        return found[1], found[2]

    def definition(self, oid: int) -> CardDef:
        """The card definition whose abilities ``oid`` has now: its own card's, or, for a
        permanent that is a copy (layer 1, CR 707.2), the copied card's.  Every lookup of
        behaviour -- activated, triggered, static, replacement and mana abilities -- goes
        through here (an object that has left the battlefield: as it last existed)."""
        s = self.state
        o = s.objects.get(oid)
        if o is None or (s.effects and o.zone == "battlefield" and self._effects_facts()[0]):
            return self.reg[self.chars(oid).card]
        return self.reg.cards.get(o.card) or self.reg[o.card]

    def last_known_controller(self, oid: int) -> int | None:
        o = self.state.objects.get(oid)
        if o is not None and o.zone == "battlefield":
            return self.chars(oid).controller
        if oid in self._lki:
            return self._lki[oid][0]
        return o.controller if o is not None else None

    def name(self, ref: int) -> str:
        """A player's name, or an object's (a token's printed name, not its registry key:
        :meth:`~mtgk.cards.definitions.Registry.token_name`)."""
        p = ref_player(ref)
        if p is not None:
            return self.state.players[p].name
        o = self.state.objects.get(ref)
        return self.reg.token_name(o.card) if o else f"#{ref}"

    def opponent(self, player: int) -> int:
        return 1 - player

    def new_id(self) -> int:
        """The id of the next new object, stack item or effect (past the ids that moves
        happening at once have taken, :meth:`move_together`)."""
        n = self.state.next_id
        return n if n >= self._id_floor else self._id_floor

    def battlefield(self, controller: int | None = None) -> list[int]:
        if controller is None:
            return list(self.state.battlefield)
        return [o for o in self.state.battlefield if self.chars(o).controller == controller]

    # ------------------------------------------------------------------ asking
    def ask(self, d: Decision) -> Any:
        """Ask ``d`` of its player's agent until the answer is legal; record it."""
        if d.options is not None and len(d.options) == 1 and d.kind != "priority" \
                and not d.many:  # "choose up to one" of one option still has two answers
            forced = getattr(self.agents[d.player], "forced", None) \
                if 0 <= d.player < len(self.agents) else None
            if forced is not None:  # the agent may note it (a scenario's answer for it)
                try:
                    forced(self, d)
                except Exception as exc:
                    self._foreign = exc
                    raise
            return d.options[0]
        if d.options is not None and not d.options and d.check is None:
            raise RulesError("101", f"no legal choice for {d.kind}")
        agent = self.agents[d.player]
        for _attempt in range(1000):
            try:
                answer = agent.decide(self, d)
            except Exception as exc:  # the agent's: not the card's whose effect asked
                self._foreign = exc
                raise
            try:
                if d.kind == "priority" and d.options is not None \
                        and _listed(answer, d.options):
                    # one of the actions the engine listed (legal_actions): legal as it is
                    choice = answer
                    if self.validate_caches and self.validate(d, _plain(answer)) != answer:
                        raise StaleCache(f"the listed action {answer!r} is not what "
                                         "check_action makes of it")
                else:
                    choice = self.validate(d, _plain(answer))
            except RulesError as err:
                self.diag().debug("answer refused", decision=d.kind, player=d.player,
                                rule=err.rule, reason=err.message, event_no=len(self.log))
                refused = getattr(agent, "refused", None)
                if refused is None:
                    raise
                try:
                    refused(self, d, err)
                except Exception as exc:
                    self._foreign = exc
                    raise
                continue
            if not (d.options is not None and len(d.options) == 1 and choice == d.options[0]):
                self._choice_at = len(self.log)
                self.emit(ev.DecisionMade(player=d.player, kind=d.kind, choice=choice))
            return choice
        raise RulesError("101", f"agent for player {d.player} gave no legal answer")

    def validate(self, d: Decision, choice: Any) -> Any:
        if d.check is not None:
            out = d.check(choice)
            return choice if out is None else out
        assert d.options is not None
        if not d.many:
            if choice not in d.options:
                raise RulesError("101", f"{choice!r} is not a legal {d.kind} choice")
            return choice
        if not isinstance(choice, list):
            choice = [choice]
        if len(set(map(repr, choice))) != len(choice) or any(c not in d.options for c in choice):
            raise RulesError("101", f"{choice!r} is not a legal {d.kind} choice")
        if (len(choice) != d.count and not d.up_to) or len(choice) > d.count:
            raise RulesError("101", f"choose {'up to ' if d.up_to else ''}{d.count} for {d.kind}")
        return choice

    def choose(self, player: int, kind: str, options: list[Any], prompt: str = "",
               count: int | None = None, up_to: bool = False, context: Any = None) -> Any:
        """Ask for one option, or (with ``count``) a list of ``count`` (``up_to``: at most).
        ``context`` goes to the :class:`Decision` (what an agent may want to know of it)."""
        options = _plain(options)
        if count is not None or up_to:
            n = 1 if count is None else count
            if len(options) <= n and not up_to:
                return list(options)
            if n <= 0:
                return []
            return self.ask(Decision(kind, player, options, prompt, count=n, up_to=up_to,
                                     many=True, context=context))
        if not options:
            return None
        return self.ask(Decision(kind, player, options, prompt, context=context))

    # ------------------------------------------------------------------ the game
    def rng(self, what: str) -> random.Random:
        """A random generator for one outcome, seeded by the game seed and log position."""
        return random.Random(f"{self.seed}/{len(self.log)}/{what}")

    def setup_decks(self, decks: Sequence[Sequence[str]]) -> None:
        for deck in decks:
            for name in deck:
                self.reg[name]  # unknown cards fail before anything is appended
        for p, deck in enumerate(decks):
            for name in deck:
                self.emit(ev.ObjectCreated(obj=self.new_id(), card=name, owner=p, zone="library"))
            self.shuffle(p)

    def shuffle(self, player: int) -> None:
        order = list(self.state.players[player].library)
        self.rng("shuffle").shuffle(order)
        self.emit(ev.LibraryShuffled(player=player, order=tuple(order)))

    def play(self, decks: Sequence[Sequence[str]] | None = None, mulligans: bool = True,
             max_turns: int = 200) -> int:
        """Play a whole game from the decks; returns the winner (-1: draw)."""
        if decks is not None:
            self.setup_decks(decks)
        self.diag().info("game started", players=[p.name for p in self.state.players],
                       event_no=len(self.log))
        try:
            first = self.rng("first").randrange(2)
            started = next((env.seq for env in self.log if isinstance(env.event, ev.GameStarted)),
                           -1)
            chosen = self.emit(ev.DecisionMade(player=-1, kind="first_player", choice=first),
                               cause=started)
            with self.caused(chosen):  # the opening hands
                for p in (first, 1 - first):
                    self.draw(p, 7)
            self._step_end = self._mulligans(first, chosen) if mulligans else chosen
            self.run(first, max_turns=max_turns)
        except GameOver:
            pass
        self.diag().info("game over", winner=self.state.winner, turns=self.state.turn,
                       event_no=len(self.log))
        return -1 if self.state.winner is None else self.state.winner

    def _mulligans(self, first: int, dealt: int) -> int:
        """London mulligans; ``dealt`` is the event that dealt the opening hands (the first
        player's choice).  Each question is caused by the event that made the engine ask it
        (the hands dealt, the player's previous mulligan); what a decision does is caused by
        it.  Returns the last decision's event, the cause of the first turn."""
        last = dealt
        for p in (first, 1 - first):
            taken = 0
            asked_by = dealt
            while taken < 7:
                mark = len(self.log)
                with self.caused(asked_by):
                    keep = self.ask(Decision("mulligan", p, [True, False], "keep this hand?"))
                asked_by = last = self._decided(mark, asked_by)
                if keep:
                    break
                taken += 1
                with self.caused(asked_by):
                    for oid in list(self.state.players[p].hand):
                        self.move(oid, "library", reason="mulligan")
                    self.shuffle(p)
                    self.draw(p, 7)
            if taken:
                hand = list(self.state.players[p].hand)
                mark = len(self.log)
                with self.caused(asked_by):
                    bottom = self.choose(p, "bottom", hand, "put cards on the bottom",
                                         count=min(taken, len(hand)))
                last = self._decided(mark, asked_by)
                with self.caused(last):
                    for oid in bottom:
                        self.move(oid, "library", reason="mulligan", position=-1)
        return last

    def _decided(self, mark: int, otherwise: int) -> int:
        """:meth:`decided_since`, else ``otherwise``."""
        at = self.decided_since(mark)
        return otherwise if at is None else at

    def decided_since(self, mark: int) -> int | None:
        """The event of the decision recorded since the log had ``mark`` events, if one
        was (a decision with one legal answer is not recorded): for code that makes what
        a player chose the cause of what follows (a redirection of damage)."""
        at = self._choice_at
        return at if at >= mark else None

    def run(self, first: int = 0, max_turns: int = 200, start_step: str = "untap",
            turn: int | None = None) -> None:
        """Run turns until the game ends (or ``max_turns``, then it is a draw)."""
        active = first
        n = self.state.turn + 1 if turn is None else turn
        step = start_step
        while True:
            if step == "untap":
                active = self._extra_turn(active)
                self._turn_began(n, active)
            self.turn_from(step, n, active)
            if n >= max_turns:
                self.emit(ev.GameEnded(winner=-1, reason="turn-limit"), cause=self._ended())
                raise GameOver()
            n += 1
            active = 1 - active
            step = "untap"

    def _extra_turn(self, active: int) -> int:
        """Who takes the next turn: an extra turn (effect kind ``extra_turn``, params: the
        player) is taken first, the most recently created one first (CR 500.7)."""
        extra = [e for e in self.state.effects if e.kind == "extra_turn"]
        if not extra:
            return active
        self.emit(ev.EffectsEnded(effects=(extra[-1].id,)), cause=self._ended())
        return int(extra[-1].params)

    def _ended(self) -> int | None:
        """The event that ended the last step (:attr:`_step_end`), if there was one."""
        return self._step_end if self._step_end >= 0 else None

    def _turn_began(self, n: int, active: int) -> None:
        """A turn begins, caused by the end of the last one (or the game's start)."""
        self._step_end = self.emit(ev.TurnBegan(turn=n, active=active), cause=self._ended())

    def turn_from(self, step: str, n: int, active: int, resume: bool = False) -> None:
        """Play turn ``n`` from the beginning of ``step``.  ``resume``: the game is
        already *in* that step (a scenario's position): its beginning -- turn-based
        actions, "at the beginning of" triggers -- is past, and players get priority."""
        i = STEPS.index(step)
        if i == 0 and self.state.turn != n:
            self._turn_began(n, active)
        combat_skipped = False
        for s in STEPS[i:]:
            if combat_skipped and s in ("declare_blockers", *COMBAT_DAMAGE_STEPS):
                continue
            first: list[int] = []
            if s == "first_strike_damage" and not (resume and s == step):
                first = self._first_strikers()
                if not first:
                    continue  # CR 510.4: no creature in combat has first or double strike
            if s == "draw" and self.skips_draw_step(active):
                continue  # "Skip your draw step" (CR 614.10): the step doesn't happen
            if resume and s == step and s not in ("untap", "cleanup"):
                with self.setting_up():
                    self._step_end = self.emit(ev.StepBegan(step=s))
                with self.caused(self._step_end):
                    self.priority_round()
                    self._empty_pools()
                continue
            # a step begins as the last one ends: when all players have passed in
            # succession (its last recorded pass), else once its actions are done
            end = self._step_end
            began = self._step_end = self.emit(ev.StepBegan(step=s),
                                               cause=end if end >= 0 else None)
            with self.caused(began):
                if s == "untap":
                    self._turn_begins(active)
                for hook in self.reg.step_hooks:  # turn-based actions of plugins
                    hook(self, s, active)
                if s == "untap":
                    self._untap_step(active)
                    continue
                if s == "draw":
                    if n != 1:  # 103.8a: the first player skips the first turn's draw
                        self.draw(active, 1)
                elif s == "declare_attackers":
                    if not self._declare_attackers(active):
                        combat_skipped = True
                elif s == "declare_blockers":
                    self._declare_blockers(active)
                elif s == "first_strike_damage":
                    self.emit(ev.FirstStrikers(objs=tuple(first)))
                    self._damage_step(first_strike=True)
                elif s == "combat_damage":
                    self._damage_step(first_strike=False)
                elif s == "cleanup":
                    self._cleanup(active)
                    continue
                self.priority_round()
                self._empty_pools()
                if s == "end_of_combat" and self.state.combat is not None:
                    self.emit(ev.CombatEnded())

    def skips_draw_step(self, player: int) -> bool:
        """Whether ``player`` controls a permanent with the ability ``skip your draw step``
        (Colfenor's Plans: "Skip your draw step.")."""
        return any(self.chars(o).controller == player for o in self.permanents_with(SKIP_DRAW))

    def _turn_begins(self, active: int) -> None:
        """Effects that last "until your next turn" (duration ``next_turn``) end as their
        controller's next turn begins: first thing in its untap step."""
        ended = tuple(e.id for e in self.state.effects
                      if e.duration == "next_turn" and e.controller == active)
        if ended:
            self.emit(ev.EffectsEnded(effects=ended))

    def _untap_step(self, active: int) -> None:
        # "... doesn't untap during [its controller's / that player's] next untap step":
        # effects of kind ``skip_untap`` (params: the player) hold their objects down
        # during that player's next untap step, then end.  A permanent with the ability
        # ``doesn't untap`` ("doesn't untap during its controller's untap step") stays tapped.
        held = [e for e in self.state.effects if e.kind == "skip_untap" and e.params == active]
        skip = {oid for e in held for oid in e.objs}
        for oid in list(self.state.battlefield):
            o = self.state.objects[oid]
            if o.tapped and self.chars(oid).controller == active and oid not in skip \
                    and not self.chars(oid).has("doesn't untap"):
                self.emit(ev.Untapped(obj=oid))
        if held:
            self.emit(ev.EffectsEnded(effects=tuple(e.id for e in held)))

    def _empty_pools(self) -> None:
        for i, p in enumerate(self.state.players):
            if p.mana:
                self.emit(ev.ManaEmptied(player=i))

    def _cleanup(self, active: int) -> None:
        hand = self.state.players[active].hand
        if len(hand) > 7:
            extra = len(hand) - 7
            chosen = self.choose(active, "discard", list(hand), f"discard {extra}", count=extra)
            self.move_all(chosen, "graveyard", reason="discard")  # (at once)
        if any(self.state.objects[o].damage for o in self.state.battlefield):
            self.emit(ev.DamageRemoved())
        eot = tuple(e.id for e in self.state.effects if e.duration == "eot")
        if eot:
            self.emit(ev.EffectsEnded(effects=eot))
        self._empty_pools()
        # 514.3a: if anything happens, players get priority and cleanup repeats
        if self.state.pending or self._sba_actions():
            self.priority_round()
            self._cleanup(active)

    # ------------------------------------------------------------------ priority
    def priority_round(self) -> None:
        """Players get priority until all pass in succession with an empty stack."""
        s = self.state
        p = s.active
        passes = 0
        last_pass = -1  # the last recorded pass of those in succession so far
        if len(self._checks) != len(s.players):
            self._checks = [partial(self.check_action, i) for i in range(len(s.players))]
        while True:
            self.settle()
            if len(self.log) - self._choice_at > LOOP_WINDOW:
                self._mandatory_loop(p, passes)
            mark = len(self.log)
            action = self.ask(Decision("priority", p, self.legal_actions(p),
                                       check=self._checks[p]))
            if action[0] == "pass":
                if self._choice_at >= mark:
                    last_pass = self._choice_at
                passes += 1
                if passes >= len(s.players):
                    if not s.stack:
                        if last_pass >= 0:  # the step ends with this pass (CR 500.2)
                            self._step_end = last_pass
                        return
                    self.resolve_top()
                    passes = 0
                    last_pass = -1
                    p = s.active
                else:
                    p = 1 - p
                continue
            self.perform(p, action)
            passes = 0
            last_pass = -1

    def _mandatory_loop(self, player: int, passes: int) -> None:
        """CR 104.4b: a game in a loop of mandatory actions, repeating with no way to stop,
        is a draw.  Called as ``player`` gets priority (after ``passes`` passes in a row)
        once :data:`LOOP_WINDOW` events have passed without a player's choice: if the
        game is back in a situation (:meth:`situation`) it was in at that point of a round
        of priority since that choice, nobody can change what happens next.  (A game that
        only moves on -- steps, turns, draws -- never is: the turn and step are part of
        the situation.)"""
        if self._loop_from != self._choice_at:
            self._loop_from = self._choice_at
            self._loop_seen = set()
        here = (player, passes, self.situation())
        if here in self._loop_seen:
            self.diag().info("mandatory loop: a draw", event_no=len(self.log),
                             since_choice=self._choice_at)
            self.emit(ev.GameEnded(winner=-1, reason="loop"), cause=self._choice_at)
            raise GameOver()
        self._loop_seen.add(here)

    def situation(self) -> tuple[Any, ...]:
        """The game's state with object ids left out (they change with every zone change)
        but everything the rules look at kept: turn, step, players, each zone's cards in
        order, permanents with their status, the stack, effects (by kind and params).
        Two equal situations, with no choice made in between, play out the same."""
        s = self.state
        objs = s.objects

        def card(i: int) -> Any:
            o = objs.get(i)
            return (o.card, o.face_down) if o is not None else ("?", i)

        def permanent(i: int) -> Any:
            o = objs[i]
            return (o.card, o.controller, o.tapped, o.sick, o.face_down, o.token,
                    tuple(sorted(o.counters.items())), o.damage,
                    card(o.attached_to) if o.attached_to else None)

        return (s.turn, s.step, s.active,
                tuple((p.life, p.lost, tuple(map(card, p.hand)), tuple(map(card, p.library)),
                       tuple(map(card, p.graveyard)), tuple(p.mana), p.lands_played)
                      for p in s.players),
                tuple(map(permanent, s.battlefield)), tuple(map(card, s.exile)),
                tuple((it.kind, it.ability, it.controller, it.source_card, it.x,
                       tuple(map(card, (t for t in it.targets if t > 0))))
                      for it in [*s.stack, *s.pending]),
                tuple((x.kind, x.controller, repr(x.params), x.duration) for x in s.effects))

    def settle(self) -> None:
        """State-based actions, then triggered abilities to the stack, until stable (CR 117.5)."""
        if self._settled == self._sba_version and not self.state.pending:
            if self.validate_caches and (self._sba_actions() or self._legend_groups_now()):
                raise StaleCache(f"after event {len(self.log) - 1}, state-based actions "
                                 "are due though no event since the last check changed "
                                 "what they look at (Registry.add_sba_check reads, "
                                 "Event.CHANGES)")
            return  # nothing but decisions and mana since the last check: nothing to do
        while True:
            self._linked_knowledge()
            self._walkers_changed_control()
            while self._sba():
                pass
            if not self.state.pending:
                self._settled = self._sba_version
                return
            self._put_triggers_on_stack()

    def _walkers_changed_control(self) -> None:
        """An attacked planeswalker that changes controller is removed from combat and
        stays removed (Lorwyn primer, "Planeswalkers in Combat"; one that leaves the
        battlefield is removed by the projector).  Its attackers keep attacking."""
        c = self.state.combat
        if c is None:
            return
        defender = 1 - self.state.active
        for t in dict.fromkeys(c.attackers.values()):
            o = self.state.objects.get(t)
            if t > 0 and t not in c.removed_attacked and o is not None \
                    and o.zone == "battlefield" and self.chars(t).controller != defender:
                self.emit(ev.RemovedFromCombat(obj=t),  # (its change of control)
                          cause=self._sba_cause([t], [], len(self.log)))

    # ------------------------------------------------------------------ actions
    def legal_actions(self, player: int) -> list[Any]:
        """Every legal priority action (pass first); targets enumerated, capped per ability.

        Remembered while nothing they depend on changes: the characteristics and
        everything but the events of :data:`NEUTRAL_EVENTS` (``_version``), tapped
        status, the player's mana pool, whether they could cast a sorcery, and the top
        cards of the libraries."""
        s = self.state
        if s.over:
            return [PASS]
        sorcery_ok = s.active == player and not s.stack and s.step in ("precombat_main",
                                                                          "postcombat_main")
        key = (player, self._version, self._taps, tuple(s.players[player].mana), sorcery_ok,
               tuple([p.library[0] for p in s.players if p.library]))
        cached = self._legal.get((player, sorcery_ok))
        if cached is not None and cached[0] == key:
            if self.validate_caches and cached[1] != self._legal_actions(player, sorcery_ok):
                raise StaleCache(f"after event {len(self.log) - 1}, the legal actions kept "
                                 f"for player {player} differ from a fresh enumeration")
            return list(cached[1])
        out = self._legal_actions(player, sorcery_ok)
        self._legal[(player, sorcery_ok)] = (key, out)
        return list(out)

    def _legal_actions(self, player: int, sorcery_ok: bool) -> list[Any]:
        out: list[Any] = [PASS]
        s = self.state
        pl = s.players[player]
        listed: list[list[Source] | None] = []

        def sources() -> list[Source] | None:
            """The mana sources, listed once something may be cast or activated (``None``
            with mana whose spending is restricted: what may pay is found per action)."""
            if not listed:
                listed.append(None if self._restricted_mana(player)
                              else self.mana_sources(player))
            return listed[0]

        objs = s.objects
        for oid in pl.hand:
            if not sorcery_ok and not self._instant_speed(objs[oid]):
                continue  # neither a land nor a spell can be played now
            c = self.chars(oid)
            if "Land" in c.types:
                if sorcery_ok and pl.lands_played < 1:
                    out.append(["play", oid])
                continue
            out.extend(self._cast_options(player, oid, c, sorcery_ok, sources()))
        for oid, alts in self._castable_elsewhere(player):
            if "Land" in self.card(oid).facts.types:  # a permission to play it (CR 305.1)
                if sorcery_ok and pl.lands_played < 1 and "" in alts:
                    out.append(["play", oid])
                continue
            out.extend(self._cast_options(player, oid, self.chars(oid), sorcery_ok, sources(),
                                          alts))
        copies = bool(s.effects) and self._effects_facts()[0]  # else each behaves as its card
        activators, elsewhere, _makers = self._ability_cards()
        for oid in s.battlefield if copies or activators else ():
            if not copies and s.objects[oid].card not in activators:
                continue
            d = self.definition(oid) if copies else self.reg[s.objects[oid].card]
            if not d.activated:
                continue
            c = self.chars(oid)
            for idx, (key, ab) in enumerate(d.activated, start=1):
                if key not in c.abilities or ab.mana or (c.controller != player
                                                         and not ab.any_player):
                    continue
                out.extend(self._activate_options(player, oid, idx, ab, sorcery_ok, sources()))
        for zone in elsewhere:  # abilities that work from other zones (``Activated.zones``)
            for oid in self._own_cards_in(player, zone):
                if s.objects[oid].card not in elsewhere[zone]:
                    continue
                for idx, (_key, ab) in enumerate(self.definition(oid).activated, start=1):
                    if zone in ab.zones and not ab.mana:
                        out.extend(self._activate_options(player, oid, idx, ab, sorcery_ok,
                                                          sources()))
        return out

    def _own_cards_in(self, player: int, zone: str) -> list[int]:
        """``player``'s own cards in ``zone`` (hand, graveyard, library, or face-up cards
        in exile): where abilities that work from a zone other than the battlefield are
        offered from."""
        s = self.state
        if zone == "exile":
            return [o for o in s.exile if s.objects[o].owner == player
                    and not s.objects[o].face_down]
        if zone in ("hand", "graveyard", "library"):
            ids: list[int] = getattr(s.players[player], zone)
            return ids
        return []

    def _ability_cards(self) -> tuple[set[str], dict[str, set[str]], set[str]]:
        """The cards in this game (by the names objects have) with an activated ability
        that isn't a mana ability; by zone other than the battlefield (in the order
        :data:`ABILITY_ZONES`), those with one that works from there; and those with a
        mana ability whose mana has a spending restriction."""
        found = self._game_facts.get(("\0abilities", False))
        if found is None:
            reg = self.reg
            cards = {n: reg.cards.get(reg.canonical(n)) for n in self._names}
            elsewhere = {z: {n for n, d in cards.items() if d is not None and any(
                z in ab.zones and not ab.mana for _k, ab in d.activated)}
                for z in ABILITY_ZONES}
            found = self._game_facts[("\0abilities", False)] = [(
                {n for n, d in cards.items()
                 if d is not None and any(not ab.mana for _k, ab in d.activated)},
                {z: names for z, names in elsewhere.items() if names},
                {n for n, d in cards.items()
                 if d is not None and any(ab.spend for _k, ab in d.activated)})]
        out: tuple[set[str], dict[str, set[str]], set[str]] = found[0]
        return out

    def _instant_speed(self, o: Obj) -> bool:
        """Whether card ``o`` (in a hand) could ever be cast when only instants can: an
        instant, a card with flash, or one with a face or an alternative cost that is or
        grants that (cards in hand have their printed characteristics; cached per card)."""
        name = o.flags.get("face") or o.card if o.flags else o.card
        cache: dict[str, bool] | None = self.reg.__dict__.get("_instant_speed")
        if cache is None:
            cache = self.reg.__dict__["_instant_speed"] = {}
        fast = cache.get(name)
        if fast is None:
            d = self.reg[o.card]
            fast = False
            for alt in [""] + sorted(d.alt_costs):
                face = d.extras.get("faces", {}).get(alt) if alt else name
                t = printed_template(self.reg, face or name)
                if alt in d.extras.get("flash_alts", ()) or "Instant" in t.types \
                        or "flash" in t.abilities:
                    fast = True
            cache[name] = fast
        return fast

    def _timing_ok(self, player: int, c: Chars, sorcery_ok: bool) -> bool:
        return sorcery_ok or "Instant" in c.types or c.has("flash")

    def _cast_timing_ok(self, player: int, oid: int, alt: str, sorcery_ok: bool) -> bool:
        """Timing for casting ``oid`` with ``alt`` (a face's types; an alt granting flash)."""
        if alt and alt in self.card(oid).extras.get("flash_alts", ()):
            return True
        return self._timing_ok(player, self.cast_chars(oid, alt), sorcery_ok)

    def cast_def(self, oid: int, alt: str = "") -> CardDef:
        """The definition ``oid`` is cast with: its own, or a face's (``extras["faces"]``)."""
        d = self.card(oid)
        face = d.extras.get("faces", {}).get(alt)
        return self.reg[face] if face else d

    def cast_chars(self, oid: int, alt: str = "") -> Chars:
        """The characteristics ``oid`` would have as a spell cast with ``alt``."""
        face = self.card(oid).extras.get("faces", {}).get(alt)
        o = self.state.objects[oid]
        if not face and not o.face_down:
            return self.chars(oid)
        # a face-down card (in exile) is cast face up: its own characteristics
        return printed(self.reg, msgspec.structs.replace(
            o, face_down=False, flags={"face": face} if face else o.flags))

    def cast_alts_from(self, player: int, oid: int) -> list[str] | None:
        """How ``player`` may cast ``oid`` from where it is: ``None`` (any way: their hand)
        or the alt costs that permissions allow (``""`` = normal), empty if none.  For a
        land card, ``""`` means they may play it."""
        o = self.state.objects.get(oid)
        if o is None:
            return []
        if o.zone == "hand" and o.owner == player:
            return None
        out: list[str] = []
        for fn in self.reg.cast_permissions:
            for alt in fn(self, player, oid) or ():
                if alt not in out:
                    out.append(alt)
        return out

    def _castable_elsewhere(self, player: int) -> list[tuple[int, list[str]]]:
        perms = self.reg.cast_permissions
        if not perms:
            return []
        s = self.state
        plan = self.reg.__dict__.get("_permission_plan")
        zones = self.reg.cast_permission_zones
        if plan is None or plan[0] != (len(perms), len(zones)):  # what to ask, by zone
            everywhere = ("exile", "graveyard", "library")
            plan = self.reg.__dict__["_permission_plan"] = ((len(perms), len(zones)), [
                (zone, asked) for zone in everywhere
                for asked in [[fn for fn in perms if zone in zones.get(fn, everywhere)]]
                if asked])
        out: list[tuple[int, list[str]]] = []
        for zone, asked in plan[1]:
            if zone == "exile" and s.exile:
                # kept while the exiled cards, the characteristics and the turn stay
                key = ("\0exiled", player, s.turn, tuple(s.exile))
                cache = self._chars_cache()
                found = cache.get(key)
                if found is None:
                    found = cache[key] = self._castable_in(player, s.exile, asked)
                elif self.validate_caches and found != self._castable_in(player, s.exile, asked):
                    raise StaleCache(f"after event {len(self.log) - 1}, what player {player} "
                                     "may cast from exile differs from a fresh look")
                out.extend(found)
                continue
            ids = s.players[player].library[:1] if zone == "library" \
                else [o for p in s.players for o in p.graveyard] if zone == "graveyard" else []
            out.extend(self._castable_in(player, ids, asked))
        return out

    def _castable_in(self, player: int, ids: list[int], asked: list[Callable[..., Any]]
                     ) -> list[tuple[int, list[str]]]:
        """The cards among ``ids`` that permissions ``asked`` let ``player`` cast."""
        objs = self.state.objects
        out: list[tuple[int, list[str]]] = []
        for oid in ids:  # none in its owner's hand: :meth:`cast_alts_from`, inlined
            if oid not in objs:
                continue
            alts: list[str] = []
            for fn in asked:
                for alt in fn(self, player, oid) or ():
                    if alt not in alts:
                        alts.append(alt)
            if alts:
                out.append((oid, alts))
        return out

    def _auto_alt(self, player: int, oid: int, alt: str, sorcery_ok: bool) -> str:
        """Casting at instant speed a spell that may be cast "as though it had flash" for
        an extra cost uses that cost (``extras["flash_alts"]``)."""
        o = self.state.objects.get(oid)
        if alt or o is None or o.zone == "stack" or o.card not in self.reg:
            return alt
        flash = self.card(oid).extras.get("flash_alts", ())
        if flash and not self._cast_timing_ok(player, oid, "", sorcery_ok):
            return str(flash[0])
        return alt

    def _cast_options(self, player: int, oid: int, c: Chars, sorcery_ok: bool,
                      sources: list[Source] | None, alts: list[str] | None = None
                      ) -> list[Any]:
        d0 = self.card(oid)
        out: list[Any] = []
        # the mana there is, against what the printed cost asks (nothing changes costs)
        avail = -1 if sources is None or "additional_cost" in d0.extras \
            or self.static_hooks("cost_change") \
            else len(self.state.players[player].mana) + len(sources)
        for alt in [""] + sorted(d0.alt_costs) if d0.alt_costs else ("",):
            if alts is not None and alt not in alts:
                continue
            if avail >= 0 and ManaCost.parse(d0.alt_costs[alt] if alt else d0.facts.mana_cost
                                             ).least_mana > avail:
                continue  # (what plan_payment would find, sooner)
            if not self._cast_timing_ok(player, oid, alt, sorcery_ok):
                continue
            cost = self.spell_cost(oid, alt)
            pool, srcs = self.payment(player, ("spell", oid)) if sources is None else \
                (self.state.players[player].mana, sources)
            xs = [0]
            if cost.x:
                xs = list(range(0, max_payable_x(cost, pool, srcs) + 1))
            elif plan_payment(cost, pool, srcs) is None:
                continue
            if self.cast_forbidden(player, oid, alt):
                continue
            d = self.cast_def(oid, alt)
            for modes in self._mode_choices(d):
                slots = self._spell_target_slots(d, modes)
                payable = [x for x in xs if not cost.x or
                           plan_payment(cost.with_x(x), pool, srcs) is not None]
                by_x = {x: self._target_combos(player, oid, slots, x) for x in payable}
                seen: list[list[int]] = []
                for x in payable:
                    seen.extend(t for t in by_x[x] if t not in seen)
                for targets in seen:
                    for x in payable:
                        if targets in by_x[x]:
                            out.append(["cast", oid, targets, modes, x, alt])
        return out

    def _mode_choices(self, d: CardDef) -> list[list[int]]:
        sp = d.spell
        if sp is None or not sp.modes:
            return [[]]
        return [list(m) for m in combinations(range(1, len(sp.modes) + 1), sp.choose or 1)]

    def _spell_target_slots(self, d: CardDef, modes: list[int]) -> list[Target]:
        sp = d.spell
        if sp is None:
            ench = d.extras.get("enchant")
            return [ench] if ench is not None else []
        if sp.modes:
            return [t for m in modes for t in sp.modes[m - 1].targets]
        return list(sp.targets)

    @staticmethod
    def slot_count(t: Target, x: int = 0) -> int:
        """How many targets slot ``t`` takes (X for ``X_COUNT``)."""
        return x if t.count == X_COUNT else t.count

    def split_targets(self, slots: Sequence[Target], targets: Sequence[int], x: int = 0
                      ) -> list[list[int]]:
        """Which of ``targets`` fill each slot: a slot takes its count, an "up to" slot as
        many as the later required slots leave (CR 601.2c)."""
        out: list[list[int]] = []
        i = 0
        for k, t in enumerate(slots):
            n = self.slot_count(t, x)
            if t.up_to:
                later = sum(self.slot_count(u, x) for u in slots[k + 1:] if not u.up_to)
                n = max(0, min(n, len(targets) - i - later))
            out.append(list(targets[i:i + n]))
            i += n
        return out

    def _target_combos(self, player: int, source: int, slots: Sequence[Target],
                       x: int = 0) -> list[list[int]]:
        if not slots:
            return [[]]
        per_slot: list[list[list[int]]] = []
        for t in slots:
            cands = self.target_candidates(player, source, t, x)
            count = self.slot_count(t, x)
            if count == 1 and not t.up_to:
                opts = [[c] for c in cands]
            else:
                lo = 0 if t.up_to else count  # ("any number of targets": a large count)
                opts = [list(cs) for cs in islice(
                    (cs for n in range(lo, min(count, len(cands)) + 1)
                     for cs in combinations(cands, n)), MAX_TARGET_COMBOS)]
            if not opts:
                return []
            per_slot.append(opts)
        out: list[list[int]] = []
        for combo in product(*per_slot):
            out.append([r for part in combo for r in part])
            if len(out) >= MAX_TARGET_COMBOS:
                break
        return out

    def target_candidates(self, player: int, source: int, t: Target, x: int | None = None
                          ) -> list[int]:
        """Objects and players that could be chosen for target slot ``t`` (with X ``x``;
        by default the X of ``source`` if it is a spell or ability on the stack)."""
        v = self.view()
        if x is None:
            x = next((it.x for it in self.state.stack if it.id == source), 0)
        v.x = x
        try:
            out = [player_ref(p) for p in range(len(self.state.players))
                   if t.filter(v, player_ref(p), player, source)]
            for oid in self.state.battlefield:
                if t.filter(v, oid, player, source) and self._can_target(player, oid, source):
                    out.append(oid)
            for it in self.state.stack:
                if it.id != source and t.filter(v, it.id, player, source):
                    out.append(it.id)
            for zone in ("graveyard",):
                for p in self.state.players:
                    for oid in getattr(p, zone):
                        if t.filter(v, oid, player, source):
                            out.append(oid)
        except Exception as exc:
            card, ability = self._target_owner(source, t)
            self.card_failed(exc, card, ability, "target filter")
        return out

    def _target_owner(self, source: int, t: Target) -> tuple[str, Any]:
        """The card and ability whose target slot ``t`` is (``source``: the card, permanent
        or stack item choosing targets): for naming it in an error."""
        it = next((i for i in self.state.stack + self.state.pending if i.id == source), None)
        names = [_card_of(it)] if it is not None else []
        o = self.state.objects.get(source)
        if o is not None:
            names += [o.card, self.chars(source).card] if o.zone == "battlefield" else [o.card]
        for name in names:
            d = self.reg.cards.get(name)
            for ab in d.abilities if d is not None else ():
                slots = list(getattr(ab, "targets", ())) + [
                    u for m in getattr(ab, "modes", ()) for u in m.targets]
                if any(u is t for u in slots):
                    return name, ab
            if d is not None and d.extras.get("enchant") is t:
                return name, None
        return (names[0] if names else self.name(source)), None

    def _can_target(self, player: int, oid: int, source: int) -> bool:
        c = self.chars(oid)
        if c.has("shroud"):
            return False
        if c.has("hexproof") and c.controller != player:
            return False
        if source and self.protected_from(oid, source):
            return False
        return True

    def protected_from(self, oid: int, source: int) -> bool:
        """Whether permanent ``oid`` has protection from a quality of ``source`` (CR 702.16):
        ``protection from enchantments`` (any card type, plural), ``from red``, ``from
        everything``."""
        if oid <= 0 or source <= 0 or oid == source:
            return False
        try:
            if not any(a.startswith("protection from ") for a in self.chars(oid).abilities):
                return False
            return self.protected_against(oid, self.chars(source))
        except KeyError:
            return False

    def protected_against(self, oid: int, sc: Chars) -> bool:
        """Whether ``oid`` has protection from something with characteristics ``sc``."""
        prots = [a[16:] for a in self.chars(oid).abilities if a.startswith("protection from ")]
        for q in prots:
            if q == "everything":
                return True
            if q.endswith("s") and q[:-1].capitalize() in sc.types:
                return True
            if COLOR_WORDS.get(q, "?") in sc.colors:
                return True
            if any(t and is_creature_type(t) and sc.has_subtype(t) for t in _singulars(q)):
                return True  # a creature type: "protection from Elves"
        return False

    def can_enchant(self, aura: int, host: int) -> bool:
        """Whether ``aura`` could legally be attached to ``host`` (its enchant quality and
        the host's protection: CR 303.4d, 702.16c)."""
        o = self.state.objects.get(aura)
        h = self.state.objects.get(host)
        if o is None or h is None or h.zone != "battlefield":
            return False
        ench = self.definition(aura).extras.get("enchant")
        try:
            if ench is not None and not ench.filter(self.view(), host,
                                                    self.chars(aura).controller, aura):
                return False
        except Exception as exc:
            self.card_failed(exc, self.definition(aura).name, None, "enchant restriction")
        return not self.protected_from(host, aura)

    def _activate_options(self, player: int, oid: int, idx: int, ab: Activated,
                          sorcery_ok: bool, sources: list[Source] | None) -> list[Any]:
        if ab.sorcery and not sorcery_ok:
            return []
        try:
            self._check_activation_costs(player, oid, ab, 0)
        except RulesError:
            return []
        o = self.state.objects[oid]
        xs = [0]
        if ab.cost.loyalty_x:
            xs = list(range(0, o.counters.get("loyalty", 0) + 1))
        cost = ManaCost.parse(ab.cost.mana)
        if cost.x:
            pool, srcs = self.payment(player, ("ability", oid)) if sources is None else \
                (self.state.players[player].mana, sources)
            xs = list(range(0, max_payable_x(cost, pool, srcs) + 1))
        out: list[Any] = []
        for targets in self._target_combos(player, oid, ab.targets):
            for x in xs:
                out.append(["activate", oid, idx, targets, x])
        return out

    def check_action(self, player: int, action: Any) -> Any:
        """Raise :class:`RulesError` if ``action`` is not legal for ``player`` now."""
        if not isinstance(action, list) or not action:
            raise RulesError("117", f"not an action: {action!r}")
        kind = action[0]
        s = self.state
        sorcery_ok = s.active == player and not s.stack and s.step in ("precombat_main",
                                                                          "postcombat_main")
        if kind == "pass":
            return ["pass"]
        if kind == "play":
            oid = action[1]
            o = s.objects.get(oid)
            allowed = self.cast_alts_from(player, oid)  # ``None``: their own hand
            if o is None or not (allowed is None or "" in allowed):
                raise RulesError("305.1", "you can play only a land card from your hand")
            if "Land" not in self.cast_chars(oid).types:
                raise RulesError("305.1", f"{o.card} is not a land")
            if not sorcery_ok:
                raise RulesError("305.1", "a land can be played only in your main phase "
                                 "with an empty stack")
            if s.players[player].lands_played >= 1:
                raise RulesError("305.2", "you have already played a land this turn")
            return action
        if kind == "cast":
            oid, targets, modes, x, alt = (list(action) + [[], [], 0, ""])[1:6]
            alt = self._auto_alt(player, oid, alt, sorcery_ok)
            self._check_cast(player, oid, list(targets), list(modes), int(x), alt, sorcery_ok)
            return ["cast", oid, list(targets), list(modes), int(x), alt]
        if kind == "activate":
            oid, idx, targets, x = (list(action) + [[], 0])[1:5]
            if int(idx) < 0:  # an intrinsic mana ability (CR 305.6)
                self._check_intrinsic(player, oid, -int(idx))
                return ["activate", oid, int(idx), [], 0]
            self._check_activate(player, oid, int(idx), list(targets), int(x), sorcery_ok)
            return ["activate", oid, int(idx), list(targets), int(x)]
        raise RulesError("117", f"unknown action {kind!r}")

    def intrinsic_mana(self, oid: int) -> list[str]:
        """The mana of ``oid``'s intrinsic mana abilities (CR 305.6: a land with a basic
        land type has "{T}: Add [its mana]"), one per basic land type, in the order of its
        subtypes.  The action ``["activate", oid, -k]`` activates the ``k``-th."""
        return [BASIC_MANA[t] for t in self.chars(oid).subtypes if t in BASIC_MANA]

    def _check_intrinsic(self, player: int, oid: int, k: int) -> None:
        o = self.state.objects.get(oid)
        if o is None or o.zone != "battlefield":
            raise RulesError("602.2", "that is not a permanent on the battlefield")
        if self.chars(oid).controller != player:
            raise RulesError("602.2", f"only {o.card}'s controller can activate its abilities")
        if not 1 <= k <= len(self.intrinsic_mana(oid)):
            raise RulesError("305.6", f"{o.card} has no intrinsic mana ability {k}")
        self._check_activation_costs(player, oid, _intrinsic(self.intrinsic_mana(oid)[k - 1]), 0)

    def spell_cost(self, oid: int, alt: str = "") -> ManaCost:
        """The total cost to cast ``oid``: its mana cost or the alternative cost ``alt``,
        plus cost increases, minus cost reductions (CR 601.2f)."""
        d = self.card(oid)
        text = d.alt_costs[alt] if alt else d.facts.mana_cost
        cost = ManaCost.parse(text)
        change = self.cost_change(oid) + self.additional_mana(oid)
        return cost.plus(change) if change else cost

    def additional_mana(self, oid: int, player: int | None = None) -> int:
        """Generic mana that the additional cost to cast ``oid`` adds to its total cost
        whatever the player chooses (CR 601.2f): ``extras["additional_cost"]`` is an object
        with ``mana(game, player, card) -> int`` and ``unpayable(game, player, card) ->
        str`` (why it can't be paid now, or ``""``); a cast hook pays the rest of it (see
        ``mtgk.plugins.reveal_cost``: "reveal a Kithkin card from your hand or pay {3}")."""
        ac = self.card(oid).extras.get("additional_cost")
        if ac is None:
            return 0
        try:
            return int(ac.mana(self, self.state.objects[oid].owner if player is None
                               else player, oid))
        except Exception as exc:
            self.card_failed(exc, self.card(oid).name, None, "additional cost")

    def cast_forbidden(self, player: int, oid: int, alt: str = "") -> str:
        """Why an effect stops ``player`` from casting ``oid`` (with ``alt``), or ``""``:
        static abilities with a ``forbids_cast(view, source, card, player, alt)`` that
        returns a reason ("... can't be cast"; CR 101.2: a "can't" wins), or an additional
        cost that can't be paid (``extras["additional_cost"]``, see ``additional_mana``)."""
        ac = self.card(oid).extras.get("additional_cost")
        try:
            why = ac.unpayable(self, player, oid) if ac is not None else ""
        except Exception as exc:
            self.card_failed(exc, self.card(oid).name, None, "additional cost")
        if why:
            return str(why)
        for src, fn in self.static_hooks("forbids_cast"):
            try:
                why = fn(self.view(), src, oid, player, alt)
            except Exception as exc:
                self._hook_failed(exc, src, "forbids_cast", fn)
            if why:
                return str(why)
        for rule in self.reg.cast_restrictions:  # rules of plugins (with the game's history)
            why = rule(self, player, oid, alt)
            if why:
                return str(why)
        return ""

    def cost_change(self, oid: int) -> int:
        """How much generic mana more (or, negative, less) casting ``oid`` costs: the
        static abilities of permanents with a ``cost_change(view, source, card)``."""
        total = 0
        for src, fn in self.static_hooks("cost_change"):
            try:
                total += fn(self.view(), src, oid)
            except Exception as exc:
                self._hook_failed(exc, src, "cost_change", fn)
        return total

    def _hook_failed(self, error: Exception, src: int, attr: str, fn: Any) -> NoReturn:
        """:meth:`card_failed` for the hook ``attr`` of a static ability of ``src``."""
        d = self.definition(src)
        key = next((k for k, st in d.statics if getattr(st, attr, None) is fn), None)
        self.card_failed(error, d.name, key, attr)

    def _check_cast(self, player: int, oid: int, targets: list[int], modes: list[int], x: int,
                    alt: str, sorcery_ok: bool) -> None:
        s = self.state
        o = s.objects.get(oid)
        allowed = self.cast_alts_from(player, oid)
        if o is None or (allowed is not None and alt not in allowed):
            raise RulesError("601.2", "you can cast only a spell from your hand")
        if alt and alt not in self.card(oid).alt_costs:
            raise RulesError("601.2b", f"{o.card} has no {alt} cost")
        c = self.cast_chars(oid, alt)
        if "Land" in c.types:
            raise RulesError("305.9", f"{o.card} is a land: it is played, not cast")
        if not self._cast_timing_ok(player, oid, alt, sorcery_ok):
            what = "planeswalker" if "Planeswalker" in c.types else "sorcery-speed spell"
            raise RulesError("307.1", f"{c.name} ({what}) can be cast only in your main phase "
                             "when the stack is empty")
        ac = self.card(oid).extras.get("additional_cost")
        try:
            why = ac.unpayable(self, player, oid) if ac is not None else ""
        except Exception as exc:
            self.card_failed(exc, self.card(oid).name, None, "additional cost")
        if why:  # an additional cost that can't be paid (CR 601.2h)
            raise RulesError("601.2h", f"you can't pay the additional cost of {o.card}: {why}")
        why = self.cast_forbidden(player, oid, alt)
        if why:
            raise RulesError("101.2", f"{o.card} can't be cast: {why}")
        d = self.cast_def(oid, alt)
        sp = d.spell
        if sp is not None and sp.modes:
            want = sp.choose or 1
            if len(modes) != want or len(set(modes)) != len(modes) or \
                    any(not 1 <= m <= len(sp.modes) for m in modes):
                raise RulesError("700.2", f"choose {want} different modes of {o.card}")
            modes = sorted(modes)
        elif modes:
            raise RulesError("700.2", f"{o.card} is not modal")
        slots = self._spell_target_slots(d, modes)
        self.check_targets(player, oid, slots, targets, x)
        cost = self.spell_cost(oid, alt)
        if x and not cost.x:
            raise RulesError("107.3", f"{o.card} has no X in its cost")
        if plan_payment(cost.with_x(x), *self.payment(player, ("spell", oid))) is None:
            raise RulesError("601.2h", f"you can't pay {cost.text} for {o.card}")

    def check_targets(self, player: int, source: int, slots: Sequence[Target],
                      targets: list[int], x: int = 0) -> None:
        """Raise unless ``targets`` fill ``slots`` legally (CR 115, 601.2c).  The same
        object may be chosen for different slots (e.g. by two modes), not twice for one."""
        need_min = sum(0 if t.up_to else self.slot_count(t, x) for t in slots)
        need_max = sum(self.slot_count(t, x) for t in slots)
        if not need_min <= len(targets) <= need_max:
            raise RulesError("601.2c", f"expected {need_min} target(s), got {len(targets)}")
        for t, chunk in zip(slots, self.split_targets(slots, targets, x), strict=True):
            if len(set(chunk)) != len(chunk):
                raise RulesError("115.3", "the same object can't be chosen twice for one "
                                 "instance of 'target'")
            cands = self.target_candidates(player, source, t, x)
            for ref in chunk:
                if ref not in cands:
                    raise RulesError("115.1", f"{self.name(ref)} is not a legal target "
                                     f"({t.filter!r})")

    def _check_activation_costs(self, player: int, oid: int, ab: Activated, x: int) -> None:
        s = self.state
        o = s.objects[oid]
        if ab.cost.tap:
            if o.tapped:
                raise RulesError("602.5a", f"{o.card} is already tapped")
            if self.summoning_sick(oid):
                raise RulesError("302.6", f"{o.card} has summoning sickness")
        if ab.cost.loyalty is not None or ab.cost.loyalty_x:
            if s.active != player or s.stack or s.step not in ("precombat_main",
                                                                "postcombat_main"):
                raise RulesError("606.3", "loyalty abilities can be activated only at sorcery "
                                 "speed")
            if o.loyalty_turn == s.turn:
                raise RulesError("606.3", f"a loyalty ability of {o.card} was already "
                                 "activated this turn")
            need = x if ab.cost.loyalty_x else -(ab.cost.loyalty or 0)
            if need > 0 and o.counters.get("loyalty", 0) < need:
                raise RulesError("606.6", f"{o.card} has only {o.counters.get('loyalty', 0)} "
                                 f"loyalty: can't pay -{need}")
        if ab.cost.life and s.players[player].life < ab.cost.life:
            raise RulesError("119.4", f"you can't pay {ab.cost.life} life with "
                             f"{s.players[player].life} life")
        if ab.cost.mana:  # a mana ability's too ("{1}, {T}: Add one mana of any color.")
            cost = ManaCost.parse(ab.cost.mana).with_x(x)
            if plan_payment(cost, *self.payment(player, ("ability", oid),
                                                exclude=oid if ab.cost.tap else 0)) is None:
                raise RulesError("602.2b", f"you can't pay {ab.cost.mana}")
        if ab.cost.sacrifice is not None and not self.sacrifice_options(player, oid, ab):
            raise RulesError("602.2b", "you have nothing to sacrifice for that cost")
        if (ab.cost.discard_self or ab.cost.reveal_self) and not (
                o.zone == "hand" and o.owner == player):
            raise RulesError("602.2b", f"{'discard' if ab.cost.discard_self else 'reveal'} "
                             "this card: it must be in your hand")
        for part in ab.cost.extra:  # other costs and restrictions (``Cost.extra``)
            try:
                payable = part.can_pay(self, player, oid)
            except Exception as exc:
                self.card_failed(exc, self.definition(oid).name, ab, f"cost {part}")
            if not payable:
                raise RulesError("602.2b", f"you can't {part}")

    def summoning_sick(self, oid: int) -> bool:
        """Whether creature ``oid`` can't pay a {T} cost yet (CR 302.6): it came under its
        controller's control this turn and lacks haste, and no static ability (with an
        ``as_though_haste(view, source, creature)``: Thousand-Year Elixir) lets its
        abilities be activated as though it had haste."""
        o = self.state.objects[oid]
        c = self.chars(oid)
        if not (c.is_creature and o.sick) or c.has("haste"):
            return False
        for src, fn in self.static_hooks("as_though_haste"):
            try:
                if fn(self.view(), src, oid):
                    return False
            except Exception as exc:
                self._hook_failed(exc, src, "as_though_haste", fn)
        return True

    def sacrifice_options(self, player: int, oid: int, ab: Activated) -> list[int]:
        """Permanents ``player`` could sacrifice for ``ab``'s "Sacrifice a ..." cost."""
        v = self.view()
        f = ab.cost.sacrifice
        try:
            return [o for o in self.state.battlefield
                    if self.chars(o).controller == player and f(v, o, player, oid)]
        except Exception as exc:
            self.card_failed(exc, self.definition(oid).name, ab, "sacrifice cost")

    def _check_activate(self, player: int, oid: int, idx: int, targets: list[int], x: int,
                        sorcery_ok: bool) -> None:
        s = self.state
        o = s.objects.get(oid)
        if o is not None and o.zone in ("hand", "library") and o.owner != player:
            raise RulesError("602.2", f"that card is in another player's {o.zone}")
        acts = self.definition(oid).activated if o is not None and o.zone != "none" else []
        if o is None or not (o.zone == "battlefield" or any(  # ``Activated.zones``
                o.zone in ab.zones for _k, ab in acts)):
            where = f"a card in {ZONE_WORDS[o.zone]}" if o is not None and \
                o.zone in ZONE_WORDS else "that"
            raise RulesError("113.6", f"{where} has no ability that works there: abilities "
                             "work on the battlefield unless they say otherwise")
        c = self.chars(oid)
        if c.controller != player and not any(ab.any_player for _k, ab in acts):
            raise RulesError("602.2", f"only {o.card}'s controller can activate its abilities")
        if not 1 <= idx <= len(acts):
            raise RulesError("602.1", f"{o.card} has no activated ability {idx}")
        key, ab = acts[idx - 1]
        if o.zone not in ab.zones:
            raise RulesError("113.6", f"that ability of {self.name(oid)} works only from: "
                             f"{', '.join(ab.zones)} (it is in {ZONE_WORDS.get(o.zone, o.zone)})")
        if c.controller != player and not ab.any_player:
            raise RulesError("602.2", f"only {o.card}'s controller can activate its abilities")
        if key not in c.abilities:
            raise RulesError("602.1", f"{o.card} doesn't have that ability now")
        if ab.sorcery and not sorcery_ok:
            raise RulesError("602.5d", "that ability can be activated only at sorcery speed")
        self._check_activation_costs(player, oid, ab, x)
        if not ab.mana:
            self.check_targets(player, oid, ab.targets, targets, x)

    def perform(self, player: int, action: list[Any]) -> None:
        """Carry out a checked priority action."""
        seq = len(self.log) - 1
        with self.caused(seq):
            kind = action[0]
            if kind == "play":
                oid = action[1]
                new = self.new_id()
                self.emit(ev.LandPlayed(player=player, obj=oid, new_obj=new))
                self._entered(new, False, None)  # "this land enters tapped" ...
            elif kind == "cast":
                self._cast(player, *action[1:])
            elif kind == "activate":
                self._activate(player, *action[1:])

    def _cast(self, player: int, oid: int, targets: list[int], modes: list[int], x: int,
              alt: str, from_zone: str = "hand", free: bool = False) -> int:
        if free and alt in self.card(oid).alt_costs and \
                alt not in self.card(oid).extras.get("faces", {}):
            # "without paying its mana cost" is itself an alternative cost (CR 118.9a)
            raise RulesError("118.9a", f"{self.name(oid)} is cast without paying its mana "
                             f"cost: its {alt} cost can't be used as well")
        cost = self.spell_cost(oid, alt).with_x(x)
        if free:  # without paying its mana cost: an additional cost is still paid
            cost = ManaCost.parse("").plus(self.additional_mana(oid, player))
        plan = None if free and cost.is_free else \
            plan_payment(cost, *self.payment(player, ("spell", oid)))
        new = self.new_id()
        o = self.state.objects[oid]
        if from_zone == "hand" and o.zone != "hand":
            from_zone = o.zone  # cast with a permission (e.g. an Adventure card from exile)
        face = self.card(oid).extras.get("faces", {}).get(alt, "")
        seq = self.emit(ev.SpellCast(obj=oid, new_obj=new, controller=player, from_zone=from_zone,
                                     targets=tuple(targets), modes=tuple(sorted(modes)), x=x,
                                     alt=alt, face=face))
        with self.caused(seq):
            if plan is not None:
                self._pay(player, plan)
            for fn in self.reg.cast_hooks:
                fn(self, player, new)
        return new

    def _linked_knowledge(self) -> None:
        """Each player who controls the permanent a face-down card is flagged
        :data:`KNOWN_TO_CONTROLLERS_OF` may look at that card from then on; once the
        permanent has left the battlefield, no one may (hideaway)."""
        s = self.state
        for oid in list(s.exile):
            o = s.objects[oid]
            host = o.flags.get(KNOWN_TO_CONTROLLERS_OF) if o.flags else None
            if not host:
                continue
            h = s.objects.get(host)
            gone = h is None or h.zone != "battlefield"
            if not gone and self.chars(host).controller in o.known_to:
                continue
            # caused by the host's leaving or change of control (the last event about it)
            with self.caused(self._sba_cause([host], [], len(self.log))):
                if gone:
                    self.emit(ev.ObjectFlagged(obj=oid, key=KNOWN_TO_CONTROLLERS_OF, value=None))
                    self.emit(ev.ObjectFlagged(obj=oid, key="known_to", value=[]))
                else:
                    self.emit(ev.ObjectFlagged(obj=oid, key="known_to", value=sorted(
                        [*o.known_to, self.chars(host).controller])))

    # ------------------------------------------------------------ playing while resolving
    def play_during_resolution(self, player: int, oid: int, optional: bool = False,
                               prompt: str = "") -> int | None:
        """``player`` plays card ``oid`` as a spell or ability resolves, without paying
        its mana cost: a land with :meth:`play_land_from`, any other card with
        :meth:`cast_during_resolution`.  ``optional``: "you may play it" (a ``may``
        decision, asked only if it can be played)."""
        o = self.state.objects.get(oid)
        if o is not None and "Land" in self.reg[o.card].facts.types:
            return self.play_land_from(player, oid, optional, prompt)
        return self.cast_during_resolution(player, oid, free=True, optional=optional,
                                           prompt=prompt)

    def _may(self, player: int, possible: bool, prompt: str) -> bool:
        """"You may ...": a ``may`` decision; if it can't be done, "no" is the only answer."""
        return bool(self.choose(player, "may", [False, True] if possible else [False], prompt))

    def play_land_from(self, player: int, oid: int, optional: bool = False,
                       prompt: str = "") -> int | None:
        """Play land card ``oid`` from its zone as something resolves: only on ``player``'s
        turn with a land play left, and it counts as the land play (CR 305.2).  Returns
        the land's new id, or ``None`` (then nothing happens)."""
        s = self.state
        o = s.objects.get(oid)
        ok = (o is not None and o.zone not in ("battlefield", "stack", "none")
              and "Land" in self.reg[o.card].facts.types and s.active == player
              and s.players[player].lands_played < 1)
        if optional and not self._may(player, ok, prompt or f"play {self.name(oid)}?"):
            return None
        if not ok:
            return None
        new = self.new_id()
        self.emit(ev.LandPlayed(player=player, obj=oid, new_obj=new))
        self._entered(new, False, None)
        return new

    def cast_during_resolution(self, player: int, oid: int, free: bool = True,
                               optional: bool = False, prompt: str = "") -> int | None:
        """``player`` casts card ``oid`` from its zone (exile, a graveyard ...) while a
        spell or ability resolves (CR 608.2g).  Timing permissions by card type don't
        apply; modes, X and targets are chosen with the decisions ``modes``, ``x`` and
        ``targets``; no alternative cost may be used, and with ``free`` ("without paying
        its mana cost") no mana is paid and X is 0 (CR 107.3b).  A mode is offered only
        if its targets can be chosen.  Returns the spell's id, or ``None`` if it can't be
        cast (then nothing happens and the card stays where it is)."""
        o = self.state.objects.get(oid)
        plans: list[tuple[list[int], int, list[list[int]]]] = []
        if o is not None and o.zone not in ("battlefield", "stack", "none") and \
                "Land" not in self.reg[o.card].facts.types:
            plans = self._cast_plans(player, oid, free)
        name = self.name(oid)
        if optional and not self._may(player, bool(plans), prompt or f"cast {name}?"):
            return None
        if o is None or not plans:
            return None
        mode_opts: list[list[int]] = []
        for m, _x, _c in plans:
            if m not in mode_opts:
                mode_opts.append(m)
        modes = self.choose(player, "modes", mode_opts, f"modes for {name}")
        xs = [x for m, x, _c in plans if m == modes]
        x = self.choose(player, "x", xs, f"X for {name}")
        combos = next(c for m, xx, c in plans if m == modes and xx == x)
        slots = self._spell_target_slots(self.card(oid), modes)
        targets: list[int] = []
        if slots:
            targets = self.ask(Decision("targets", player, combos, f"targets for {name}",
                                        check=lambda ch: self._targets_answer(
                                            player, oid, slots, ch, x), context=oid))
        return self._cast(player, oid, targets, modes, x, "", from_zone=o.zone, free=free)

    def _cast_plans(self, player: int, oid: int, free: bool
                    ) -> list[tuple[list[int], int, list[list[int]]]]:
        """(modes, X, target combinations) with which ``oid`` can be cast now."""
        if self.cast_forbidden(player, oid, ""):
            return []
        d = self.card(oid)
        cost = self.spell_cost(oid)
        pool, sources = self.payment(player, ("spell", oid))
        if free:
            xs = [0]
        elif cost.x:
            xs = list(range(0, max_payable_x(cost, pool, sources) + 1))
        else:
            xs = [0] if plan_payment(cost, pool, sources) is not None else []
        out = []
        for modes in self._mode_choices(d):
            slots = self._spell_target_slots(d, modes)
            for x in xs:
                if not free and cost.x and plan_payment(cost.with_x(x), pool, sources) is None:
                    continue
                combos = self._target_combos(player, oid, slots, x)
                if combos:
                    out.append((modes, x, combos))
        return out

    def _targets_answer(self, player: int, source: int, slots: list[Target], choice: Any,
                        x: int = 0) -> list[int]:
        if not isinstance(choice, list):
            choice = [choice]
        self.check_targets(player, source, slots, choice, x)
        return choice

    def _activate(self, player: int, oid: int, idx: int, targets: list[int], x: int) -> None:
        if idx < 0:
            self._activate_mana(player, oid, _intrinsic(self.intrinsic_mana(oid)[-idx - 1]))
            return
        key, ab = self.definition(oid).activated[idx - 1]
        if ab.mana:
            self._activate_mana(player, oid, ab)
            return
        if self.state.objects[oid].zone in ("hand", "library"):
            # CR 602.2a: activated from a hidden zone, the card is revealed
            self.emit(ev.Revealed(player=player, objs=(oid,)))
        item = self.new_id()
        seq = self.emit(ev.AbilityActivated(item=item, source=oid, ability=key,
                                            controller=player, targets=tuple(targets), x=x,
                                            loyalty=ab.cost.loyalty is not None
                                            or ab.cost.loyalty_x))
        with self.caused(seq):
            self._pay_ability_costs(player, oid, ab, x)

    def _pay_ability_costs(self, player: int, oid: int, ab: Activated, x: int) -> None:
        c = ab.cost
        if c.loyalty_x and x:
            self.emit(ev.CounterRemoved(obj=oid, kind="loyalty", n=x))
        elif c.loyalty is not None and c.loyalty > 0:
            self.emit(ev.CounterPlaced(obj=oid, kind="loyalty", n=c.loyalty))
        elif c.loyalty is not None and c.loyalty < 0:
            self.emit(ev.CounterRemoved(obj=oid, kind="loyalty", n=-c.loyalty))
        if c.tap:
            self.emit(ev.Tapped(obj=oid))
        if c.mana:
            plan = plan_payment(ManaCost.parse(c.mana).with_x(x),
                                *self.payment(player, ("ability", oid)))
            if plan is not None:
                self._pay(player, plan)
        if c.life:
            self.emit(ev.LifeLost(player=player, n=c.life))
        if c.sacrifice is not None:
            opts = self.sacrifice_options(player, oid, ab)
            if opts:
                self.move(self.choose(player, "choose", opts, "sacrifice (cost)"), "graveyard",
                          reason="sacrifice")
        for part in c.extra:
            try:
                part.pay(self, player, oid)
            except Exception as exc:
                self.card_failed(exc, self.definition(oid).name, ab, f"cost {part}")
        if c.sacrifice_self:
            self.move(oid, "graveyard", reason="sacrifice")
        if c.discard_self:
            self.move(oid, "graveyard", reason="discard")

    def _activate_mana(self, player: int, oid: int, ab: Activated) -> None:
        if ab.cost.tap:
            self.emit(ev.Tapped(obj=oid))
        if ab.cost.mana:  # "{1}, {T}: Add one mana of any color."
            plan = plan_payment(ManaCost.parse(ab.cost.mana),
                                *self.payment(player, ("ability", oid)))
            if plan is not None:
                self._pay(player, plan)
        for part in ab.cost.extra:
            try:
                part.pay(self, player, oid)
            except Exception as exc:
                self.card_failed(exc, self.definition(oid).name, ab, f"cost {part}")
        mana = "".join(ab.mana[0] if len(ab.mana) == 1 else
                       self.choose(player, "choose", list(ab.mana), "choose the color of the mana")
                       for _ in range(ab.amount))
        self.emit(ev.ManaAdded(player=player, mana=mana, spend=ab.spend))
        if ab.cost.tap:  # tapped for mana: "... adds an additional one mana" (Fertile Ground)
            for colors in self.extra_mana(oid):
                self.emit(ev.ManaAdded(player=player, mana=self.choose(
                    player, "choose", list(colors), "choose the color of the additional mana")))
        if ab.cost.sacrifice_self:
            self.move(oid, "graveyard", reason="sacrifice")

    # ------------------------------------------------------------------ mana
    def payment(self, player: int, spend: Spend | None = None, exclude: int = 0
                ) -> tuple[list[str], list[Source]]:
        """The pool mana and the mana sources ``player`` may use to pay for ``spend`` (a
        spell being cast, an ability being activated; ``None``: anything else, e.g.
        "unless its controller pays {X}"), as :func:`~mtgk.rules.mana.plan_payment` takes
        them: mana with a spending restriction only where it may be spent, first."""
        return self.pool_for(player, spend), self.mana_sources(player, exclude, spend)

    def pool_for(self, player: int, spend: Spend | None = None) -> list[str]:
        """``player``'s pool mana that may pay for ``spend`` (restricted mana first)."""
        pool = self.state.players[player].mana
        if not any(restriction(m) for m in pool):
            return pool
        return [m for m in pool if restriction(m) and self._spend_ok(restriction(m), spend)] \
            + [m for m in pool if not restriction(m)]

    def _spend_ok(self, key: str, spend: Spend | None) -> bool:
        check = SPEND_RESTRICTIONS.get(key)
        return spend is not None and check is not None and \
            bool(check(self.view(), spend[0], spend[1]))

    def _restricted_mana(self, player: int) -> bool:
        """Whether ``player`` has mana, or an untapped source of mana, with a restriction."""
        if any(restriction(m) for m in self.state.players[player].mana):
            return True
        if not self._ability_cards()[2] and not (self.state.effects
                                                 and self._effects_facts()[0]):
            return False  # no card in this game makes any
        makers = self.cached("\0restricted_makers", lambda: [
            oid for oid in self.state.battlefield  # with an ability making restricted mana
            if any(ab.spend for _k, ab in self.definition(oid).activated)])
        return any(made[2] for oid in makers
                   if not self.state.objects[oid].tapped
                   and self.chars(oid).controller == player
                   for made in [self._tap_mana(oid, sick_ok=True)] if made is not None)

    def _tap_mana(self, oid: int, sick_ok: bool = False
                  ) -> tuple[list[str], int, str] | None:
        """What permanent ``oid`` makes when tapped for mana by the engine as a cost is paid:
        (the colours each mana may be, how many mana, the restriction on spending it).
        Mana abilities whose only cost is {T} count, and basic land types; a permanent that
        has an unrestricted one-mana ability uses those, else its first other one."""
        c = self.chars(oid)
        colors: list[str] = [BASIC_MANA[t] for t in c.subtypes if t in BASIC_MANA]
        other: tuple[list[str], int, str] | None = None
        for key, ab in self.definition(oid).activated:
            if ab.mana and ab.cost.tap and not ab.cost.mana and key in c.abilities \
                    and not ab.cost.sacrifice_self and not ab.cost.extra:
                if not sick_ok and self.summoning_sick(oid):
                    continue
                if ab.amount != 1 or ab.spend:
                    other = other or (list(ab.mana), ab.amount, ab.spend)
                    continue
                colors.extend(m for m in ab.mana if m not in colors)
        if colors:
            return colors, 1, ""
        return other

    def mana_sources(self, player: int, exclude: int = 0, spend: Spend | None = None
                     ) -> list[Source]:
        """Untapped permanents ``player`` can tap for one mana, with the colours they make.
        A permanent that makes more mana as it is tapped for mana (:meth:`extra_mana`, or a
        mana ability that adds several) is listed once more per additional mana; one whose
        mana has a spending restriction only if it may pay for ``spend``.  (Remembered
        while the characteristics, tapped status and turn stay as they are.)"""
        s = self.state
        cache = self._chars_cache()
        key = ("\0sources", player, exclude, spend, self._taps, s.turn)
        known = cache.get(key)
        if known is None:
            known = cache[key] = self._mana_sources(player, exclude, spend)
        elif self.validate_caches:
            cache.pop(("\0makes", s.turn), None)
            if known != self._mana_sources(player, exclude, spend):
                raise StaleCache(f"after event {len(self.log) - 1}, the mana sources kept "
                                 f"for player {player} differ from a fresh look")
        return list(known)

    def _mana_sources(self, player: int, exclude: int, spend: Spend | None) -> list[Source]:
        out: list[Source] = []
        s = self.state
        extra = self._extra_mana_statics()
        cs = self._all_chars()
        # what each permanent makes, while the characteristics hold, this turn
        makes = self._chars_cache().setdefault(("\0makes", s.turn), {})
        for oid in s.battlefield:
            o = s.objects[oid]
            if o.tapped or oid == exclude:
                continue
            if cs[oid].controller != player:
                continue
            if oid in makes:
                made = makes[oid]
            else:
                made = makes[oid] = self._tap_mana(oid)
            if made is None:
                continue
            colors, amount, key = made
            if key and not self._spend_ok(key, spend):
                continue
            out.extend([(oid, tuple(colors))] * amount)
            if extra:
                out.extend((oid, tuple(more)) for more in self.extra_mana(oid, extra))
        return out

    def _extra_mana_statics(self) -> list[tuple[int, Any]]:
        return self.static_hooks("extra_mana")

    def extra_mana(self, oid: int, statics: list[tuple[int, Any]] | None = None
                   ) -> list[str]:
        """The additional mana permanent ``oid`` makes as it is tapped for mana, one entry
        (the colours it may be) per mana: static abilities with an ``extra_mana(view,
        source, obj) -> colours`` ("Whenever enchanted land is tapped for mana, its
        controller adds an additional one mana of any color": a triggered mana ability,
        CR 605.1b, which resolves at once)."""
        v = self.view()
        out = []
        for src, fn in self._extra_mana_statics() if statics is None else statics:
            try:
                more = fn(v, src, oid)
            except Exception as exc:
                self._hook_failed(exc, src, "extra_mana", fn)
            if more:
                out.append(str(more))
        return out

    def _pay(self, player: int, plan: tuple[list[tuple[int, str]], list[str]]) -> None:
        used, from_pool = plan
        floating = ""  # mana a permanent tapped for mana makes that this payment doesn't use
        if used and self._extra_mana_statics():
            makes: dict[int, list[tuple[str, ...]]] = {}
            for oid, colors in self.mana_sources(player):
                makes.setdefault(oid, []).append(colors)
            for oid, m in used:
                left = sorted(makes.get(oid, []), key=len)
                if m in "".join(sum(left, ())):
                    left.remove(next(x for x in left if m in x))
                makes[oid] = left
            floating = "".join(colors[0] for oid in dict.fromkeys(u for u, _m in used)
                               for colors in makes.get(oid, []))
        added = ""
        tapped: list[int] = []
        # sources that make several mana, or mana with a spending restriction: (mana made,
        # restriction, mana used); what this payment doesn't use stays in the pool
        special: dict[int, tuple[str, str, str]] = {}
        for oid, m in used:
            if oid not in tapped:
                tapped.append(oid)
                made = self._tap_mana(oid, sick_ok=True)
                if made is not None and (made[1] != 1 or made[2]):
                    mine = "".join(mm for o, mm in used if o == oid)
                    special[oid] = (mine + mine[-1] * (made[1] - len(mine)), made[2], mine)
                self.emit(ev.Tapped(obj=oid))
            if oid not in special:
                added += m
        if added or floating:
            self.emit(ev.ManaAdded(player=player, mana=added + floating))
        spent: dict[str, str] = {"": added}  # restriction -> mana spent
        for oid in tapped:
            if oid in special:
                made_, key, mine = special[oid]
                self.emit(ev.ManaAdded(player=player, mana=made_, spend=key))
                spent[key] = spent.get(key, "") + mine
        for m in from_pool:
            spent[restriction(m)] = spent.get(restriction(m), "") + m[0]
        for key, mana in spent.items():
            if mana:
                self.emit(ev.ManaSpent(player=player, mana=mana, spend=key))

    # ------------------------------------------------------------------ stack
    def resolve_top(self) -> None:
        s = self.state
        item = s.stack[-1]
        with self.caused(self._item_cause(item)):
            if item.kind == "spell":
                self._resolve_spell(item)
            else:
                self._resolve_ability(item)

    def _item_cause(self, item: StackItem) -> int:
        """The event that put ``item`` on the stack (its cast, activation, trigger put on
        the stack, or copy): the cause of its resolution and of everything it does."""
        oid = item.id
        entries = _STACK_ENTRIES
        for env in reversed(self.log):
            e = env.event
            field = entries.get(type(e))
            if field is None:  # a type not seen yet: a plugin's may say (a copy ...)
                field = entries[type(e)] = getattr(type(e), "STACK_ITEM", "")
            if field and getattr(e, field) == oid:
                return env.seq
        return self._cause[-1]

    def _triggered_at(self, items: Sequence[StackItem]) -> dict[int, int]:
        """The event at which each of ``items`` (triggered abilities waiting to be put on
        the stack) triggered: its ``AbilityTriggered``."""
        want = {it.id for it in items}
        found: dict[int, int] = {}
        for env in reversed(self.log):
            e = env.event
            if type(e) is ev.AbilityTriggered and e.item in want:
                found[e.item] = env.seq
                if len(found) == len(want):
                    break
        return found

    def _target_slots_of(self, item: StackItem) -> list[Target]:
        if item.kind == "spell":
            return self._spell_target_slots(self.reg[item.source_card], item.modes)
        ab = self.ability(item)
        if getattr(ab, "modes", ()):
            return [t for m in item.modes for t in ab.modes[m - 1].targets]
        return list(ab.targets) if ab is not None else []

    def ability(self, item: StackItem) -> Any:
        name, _, idx = item.ability.rpartition("#")
        d = self.reg.cards.get(name)
        if d is None or not idx.isdigit():
            return self.reg.kernel_abilities.get(item.ability) \
                if hasattr(self.reg, "kernel_abilities") else None
        return d.abilities[int(idx)]

    def _legal_now(self, item: StackItem) -> list[bool]:
        slots = self._target_slots_of(item)
        out: list[bool] = []
        for t, chunk in zip(slots, self.split_targets(slots, item.targets, item.x), strict=True):
            cands = self.target_candidates(item.controller, item.source, t, item.x)
            out.extend(ref in cands for ref in chunk)
        out.extend([True] * (len(item.targets) - len(out)))
        return out

    def _resolve_spell(self, item: StackItem) -> None:
        d = self.reg[item.source_card]
        legal = self._legal_now(item)
        if item.targets and not any(legal):
            self.emit(ev.StackItemResolved(item=item.id, fizzled=True))
            self.move(item.id, "graveyard", reason="fizzle")
            return
        if d.is_permanent_card():
            aura = d.extras.get("enchant")
            self.emit(ev.StackItemResolved(item=item.id))
            new = self.move(item.id, "battlefield", reason="resolve", controller=item.controller,
                            cast_data={"alt": item.data or "", "x": item.x})
            if aura is not None and item.targets and new is not None:
                self.emit(ev.Attached(obj=new, to=item.targets[0]))
            return
        sp = d.spell
        ctx = Ctx(self, item, legal)
        if sp is not None:
            if sp.modes:
                # modes resolve in printed order; each sees its own targets
                pos = 0
                parts = self.split_targets(self._target_slots_of(item), item.targets, item.x)
                for m in sorted(item.modes):
                    mode = sp.modes[m - 1]
                    n = sum(len(parts.pop(0)) for _t in mode.targets)
                    sub = Ctx(self, item, legal)
                    sub.targets = item.targets[pos:pos + n]
                    sub.legal = legal[pos:pos + n]
                    pos += n
                    if n and not any(sub.legal):
                        continue
                    try:
                        mode.effect(sub)
                    except Exception as exc:
                        self.card_failed(exc, d.name, sp, f"effect of mode {m}")
            else:
                try:
                    sp.effect(ctx)
                except Exception as exc:
                    self.card_failed(exc, d.name, sp, "effect")
        self.emit(ev.StackItemResolved(item=item.id))
        if item.id in self.state.objects and self.state.objects[item.id].zone == "stack":
            self.move(item.id, "graveyard", reason="resolve")

    def _resolve_ability(self, item: StackItem) -> None:
        ab = self.ability(item)
        legal = self._legal_now(item)
        if item.targets and not any(legal):
            self.emit(ev.StackItemResolved(item=item.id, fizzled=True))
            return
        if isinstance(ab, Triggered) and ab.intervening_if is not None:
            try:
                holds = ab.intervening_if(self.view(), item.source, ev.event_from_data(item.data))
            except Exception as exc:
                self.card_failed(exc, _card_of(item), item.ability, "intervening 'if' condition")
            if not holds:
                self.emit(ev.StackItemResolved(item=item.id, fizzled=True))
                return
        if ab is not None:
            try:
                ab.effect(Ctx(self, item, legal))
            except Exception as exc:
                self.card_failed(exc, _card_of(item), item.ability, "effect")
        self.emit(ev.StackItemResolved(item=item.id))

    def counter(self, item_id: int, by: int | None = None, to_zone: str = "graveyard") -> None:
        """Counter a spell or ability on the stack (a spell goes to ``to_zone``: "exile it
        instead of putting it into its owner's graveyard").  ``by`` is the controller of
        the spell or ability countering it; replacement effects see the proposal
        ``"counter"``: ``{"item", "kind", "by"}`` (e.g. Guile's)."""
        for it in self.state.stack:
            if it.id == item_id:
                if replace(self, "counter", {"item": item_id, "kind": it.kind, "by": by}) is None:
                    return
                self.emit(ev.StackItemCountered(item=item_id))
                if it.kind == "spell":
                    self.move(item_id, to_zone, reason="countered")
                return

    # ------------------------------------------------------------------ triggers
    def _trigger_plans(self, tag: str) -> tuple[list[Any], list[Any]]:
        """The registry's trigger plans for event ``tag`` (look-back, ordinary), narrowed
        to the cards in this game; kept until a card new to the game appears."""
        names = self._names
        look_back, ordinary = (
            [(z, b, g) for z, by_card, g in self.reg.trigger_plan(tag, before)
             for b in [{n: t for n, t in by_card.items() if n in names}] if b or g]
            for before in (True, False))
        pair = self._tag_plans[tag] = (look_back, ordinary)
        return pair

    def _triggers(self, plan: list[Any], e: Event, seq: int, before: bool) -> None:
        """Trigger the abilities that ``e`` triggers (``before``: look-back triggers),
        following ``plan`` (see :meth:`_trigger_plans`)."""
        s = self.state
        objs = s.objects
        copies = bool(s.effects) and self._effects_facts()[0]  # else it behaves as its card
        for zone, by_card, granted in plan:
            on_battlefield = zone == "battlefield"
            if on_battlefield:
                ids = s.battlefield
            elif zone == "stack":
                ids = [it.id for it in s.stack]
            elif zone == "exile":
                ids = s.exile
            else:
                ids = [i for p in s.players for i in getattr(p, zone)]
            grants = bool(granted) and on_battlefield and self._grants_possible()
            if not by_card and not grants:
                continue
            if on_battlefield and not copies and not grants:
                # the permanents whose cards have these triggers, while nothing changes
                cache = self._chars_cache()
                hits = cache.get((zone, e.TAG, before))
                if hits is None:
                    hits = cache[(zone, e.TAG, before)] = [
                        (oid, by_card[o.card]) for oid in s.battlefield
                        for o in [objs[oid]] if not o.face_down and o.card in by_card]
            else:
                hits = [(oid, mine) for oid in list(ids) for o in [objs.get(oid)]
                        if o is not None and not o.face_down
                        for mine in [by_card.get(self.definition(oid).name
                                                 if copies and on_battlefield else o.card, ())]]
            for oid, mine in hits:
                if grants:
                    c0 = self.chars(oid)
                    extra = [(k, t) for k, t in granted if k in c0.abilities and (k, t) not in mine]
                    if extra:
                        mine = list(mine) + extra
                for key, t in mine:
                    c = self.chars(oid)
                    if key not in c.abilities:
                        continue
                    v = self.view()
                    try:
                        if not t.when(v, oid, e):
                            continue
                        if t.intervening_if is not None and not t.intervening_if(v, oid, e):
                            continue
                        # "whenever a creature you control attacks": one trigger per subject
                        subjects = t.each(v, oid, e) if t.each is not None else [None]
                    except Exception as exc:
                        self.card_failed(exc, key.rpartition("#")[0], key, "trigger condition")
                    data = _plain(_event_data(e))
                    for subject in subjects:
                        d = data if subject is None else data + [subject]
                        self.emit(ev.AbilityTriggered(item=self.new_id(), source=oid,
                                                      ability=key, controller=c.controller,
                                                      data=d), cause=seq)

    def trigger_kernel(self, ability: str, source: int, controller: int, data: Any = None
                       ) -> None:
        """Trigger an ability defined by the kernel or a plugin (not printed on a card)."""
        self.emit(ev.AbilityTriggered(item=self.new_id(), source=source, ability=ability,
                                      controller=controller, data=data))

    def _put_triggers_on_stack(self) -> None:
        s = self.state
        order = [s.active] + [p for p in range(len(s.players)) if p != s.active]
        for p in order:
            mine = [it for it in s.pending if it.controller == p]
            if not mine:
                continue
            at = self._triggered_at(mine)  # (some may have triggered as others went on)
            if len(mine) > 1:  # asked because the last of them triggered
                with self.caused(max((at[it.id] for it in mine if it.id in at),
                                     default=self._cause[-1])):
                    ids = self.ask(Decision("order", p, None, "order your triggered "
                                            "abilities (first goes on the stack first)",
                                            check=partial(_check_order, items=mine),
                                            context=[it.id for it in mine]))
                mine = [next(it for it in mine if it.id == i) for i in ids]
            for it in mine:
                with self.caused(at.get(it.id, self._cause[-1])):
                    self._put_on_stack(p, it)

    def _put_on_stack(self, p: int, it: StackItem) -> None:
        """Put triggered ability ``it`` of player ``p`` on the stack: its modes and targets
        chosen, or removed if it has none it can take (CR 603.3)."""
        ab = self.ability(it)
        slots = list(ab.targets) if ab is not None else []
        modes: list[int] = []
        if getattr(ab, "modes", ()):  # a modal triggered ability (CR 603.3c)
            ok = [list(m) for m in combinations(range(1, len(ab.modes) + 1),
                                                ab.choose or 1)
                  if all(self._target_combos(p, it.source, ab.modes[i - 1].targets)
                         for i in m)]
            if not ok:
                self.emit(ev.StackItemResolved(item=it.id, fizzled=True))
                return
            modes = self.ask(Decision("modes", p, ok, f"modes for {it.source_card}"))
            slots = [t for m in modes for t in ab.modes[m - 1].targets]
        targets: list[int] = []
        if slots:
            combos = self._target_combos(p, it.source, slots)
            # "up to" slots may stay empty: that choice is offered last
            combos = [c for c in combos if c] + [c for c in combos if not c]
            if not combos:  # 603.3d: no legal targets -> removed from the stack
                self.emit(ev.StackItemResolved(item=it.id, fizzled=True))
                return
            targets = self.ask(Decision("targets", p, combos,
                                        f"targets for {it.source_card}",
                                        check=partial(self._check_trigger_targets,
                                                      p, it, slots),
                                        context=it.id))
        self.emit(ev.TriggerPutOnStack(item=it.id, targets=tuple(targets),
                                       modes=tuple(modes)))

    def _check_trigger_targets(self, p: int, it: StackItem, slots: list[Target],
                               choice: Any) -> Any:
        if not isinstance(choice, list):
            choice = [choice]
        self.check_targets(p, it.source, slots, choice)
        return choice

    # ------------------------------------------------------------------ SBA
    def _sba_actions(self) -> list[tuple[str, int, str]]:
        s = self.state
        acts: list[tuple[str, int, str]] = []
        for i, p in enumerate(s.players):
            if p.lost:
                continue
            if p.life <= 0:
                acts.append(("lose", i, "life"))
            elif p.drew_from_empty:
                acts.append(("lose", i, "empty-library"))
        walkers: dict[str, list[int]] = {}
        cs = self._all_chars()
        for oid in s.battlefield:
            o = s.objects[oid]
            c = cs[oid]
            if c.toughness is not None and "Creature" in c.types:
                if c.toughness <= 0:
                    acts.append(("graveyard", oid, "toughness"))
                    continue
                if (o.damage >= c.toughness or (o.deathtouched and o.damage > 0)) \
                        and not c.has("indestructible"):
                    acts.append(("destroy", oid, "lethal-damage"))
                    continue
            if "Planeswalker" in c.types:
                if o.counters.get("loyalty", 0) <= 0:
                    acts.append(("graveyard", oid, "loyalty"))
                    continue
                for t in c.subtypes:
                    walkers.setdefault(t, []).append(oid)
            if o.attached_to and "Aura" in c.subtypes:
                host = s.objects.get(o.attached_to)
                if host is None or host.zone != "battlefield" or \
                        not self.can_enchant(oid, o.attached_to):
                    acts.append(("graveyard", oid, "aura"))
            elif "Aura" in c.subtypes and not o.attached_to:
                acts.append(("graveyard", oid, "aura"))
            if o.attached_to and "Equipment" in c.subtypes and not (
                    o.attached_to in s.objects and self.chars(o.attached_to).is_creature
                    and s.objects[o.attached_to].zone == "battlefield"
                    and not self.protected_from(o.attached_to, oid)):
                acts.append(("unattach", oid, "equipment"))  # CR 704.5n
            if o.counters.get("+1/+1") and o.counters.get("-1/-1"):
                acts.append(("annihilate", oid, "counters"))
        if s.profile == "lorwyn-2007":
            seen: set[int] = set()
            for t in sorted(walkers):
                if len(walkers[t]) > 1:
                    for oid in walkers[t]:
                        if oid not in seen:
                            seen.add(oid)
                            acts.append(("graveyard", oid, "planeswalker-uniqueness"))
        objs = s.objects
        if self._tokens:  # (only once a token has existed in this game)
            for p in s.players:
                for ids in (p.hand, p.library, p.graveyard):
                    acts.extend(("cease", oid, "token") for oid in ids if objs[oid].token)
            acts.extend(("cease", oid, "token") for oid in s.exile if objs[oid].token)
        for check in getattr(self.reg, "sba_checks", []):
            acts.extend(check(self))
        return acts

    def _sba(self) -> bool:
        """Perform the state-based actions due now, all at once (CR 704.3); ``False`` if
        none is.  Each is caused by the event that made it due (:meth:`_sba_cause`)."""
        acts = self._sba_actions()
        groups = self._legend_groups_now()
        if not acts and not groups:
            self._sba_clean = len(self.log)
            return False
        since = self._sba_clean
        causes = [self._moved_to(ref) if what == "cease" else
                  self._sba_cause(*self._sba_concerns(what, ref, why, acts), since,
                                  why in _BY_CHARACTERISTICS)
                  for what, ref, why in acts]  # (all seen before any is performed)
        legend: list[tuple[int, int]] = []
        for ctrl, ids in groups:
            why_now = self._sba_cause(ids, (), since)
            with self.caused(why_now):
                keep = self.choose(ctrl, "legend", ids, "legend rule: choose one to keep")
            legend.extend((i, why_now) for i in ids if i != keep)
        done: set[int] = set()
        todo: list[tuple[str, int, str, int]] = []
        for (what, ref, why), cause in zip(acts, causes, strict=True):
            if what != "lose":
                if ref in done or ref not in self.state.objects:
                    continue
                done.add(ref)
            todo.append((what, ref, why, cause))
        # the permanents put into graveyards, all at once (CR 704.3): replacement effects
        # and look-back triggers see the state before any of them moved
        moves = [Move(ref, "graveyard", "sba:" + why, cause)
                 for what, ref, why, cause in todo if what in ("destroy", "graveyard")]
        moves += [Move(oid, "graveyard", "sba:legend-rule", cause) for oid, cause in legend
                  if oid not in done and oid in self.state.objects]
        lost: int | None = None
        try:
            ready = self._ready_moves(moves)
            nxt = iter(ready)
            for what, ref, why, cause in todo:
                if what == "lose":
                    lost = self.emit(ev.PlayerLost(player=ref, reason=why), cause=cause)
                    continue
                if what in ("destroy", "graveyard"):
                    self._make_move(next(nxt))
                    continue
                with self.caused(cause):
                    if what == "annihilate":
                        o = self.state.objects[ref]
                        n = min(o.counters.get("+1/+1", 0), o.counters.get("-1/-1", 0))
                        self.emit(ev.CounterRemoved(obj=ref, kind="+1/+1", n=n))
                        self.emit(ev.CounterRemoved(obj=ref, kind="-1/-1", n=n))
                    elif what == "cease":
                        o = self.state.objects[ref]
                        self.emit(ev.ZoneChanged(obj=ref, new_obj=ref, from_zone=o.zone,
                                                 to_zone="none", reason="token-ceased"))
                    elif what == "unattach":  # e.g. Equipment attached to an illegal permanent
                        self.emit(ev.Attached(obj=ref, to=0))
            for r in nxt:  # the legend rule's
                self._make_move(r)
        finally:
            self._id_floor = 0
        self._moved_together(ready)
        self._check_game_over(lost)
        return True

    def _sba_concerns(self, what: str, ref: int, why: str,
                      acts: list[tuple[str, int, str]]) -> tuple[list[int], list[int]]:
        """The objects and players whose events may have made a state-based action due:
        the player who loses; the object, and the permanent it is attached to; for the
        planeswalker uniqueness rule, each planeswalker of the type it shares."""
        if what == "lose":
            return [], [ref]
        ids = [ref]
        if why == "planeswalker-uniqueness":
            mine = set(self.chars(ref).subtypes)
            ids = [oid for w, oid, y in acts if y == why and mine & set(self.chars(oid).subtypes)]
        o = self.state.objects.get(ref)
        if o is not None and o.attached_to:
            ids.append(o.attached_to)
        elif o is not None and o.zone == "battlefield" and why in ("aura", "equipment"):
            host = self._last_host(ref)  # (a host that left is forgotten by the state)
            if host:
                ids.append(host)
        return ids, []

    def _moved_to(self, oid: int) -> int:
        """The event that put object ``oid`` where it is (a token that left the
        battlefield, about to cease to exist)."""
        for env in reversed(self.log):
            if getattr(env.event, "new_obj", None) == oid or ev.entered(env.event) == oid:
                return env.seq
        return self._cause[-1]

    def _last_host(self, oid: int) -> int:
        """The permanent ``oid`` was last attached to (0: none), from the log."""
        for env in reversed(self.log):
            e = env.event
            if type(e) is ev.Attached and e.obj == oid:
                return e.to
            if type(e) is ev.TokenCreated and e.obj == oid:
                return e.attached_to
            if ev.entered(e) == oid:
                return 0
        return 0

    def _sba_cause(self, ids: Sequence[int], players: Sequence[int], since: int,
                   by_characteristics: bool = False) -> int:
        """The event that made a state-based action concerning objects ``ids`` and
        ``players`` due.  It became due after the log's first ``since`` events (when state-
        based actions were last found not due); of the events since then, the last that may
        call for a state-based action and is about them (damage dealt to them, a counter
        put on or removed from them, an effect naming them, their entering, their host
        leaving, life lost, a draw from an empty library ...); else the last other event
        about them (it became untapped ...); else the last event that may call for a
        state-based action -- with ``by_characteristics`` (the action depends on the
        permanents' characteristics), the last that may change permanents if there is one
        (e.g. a permanent whose static ability they depended on left, an Equipment
        moved); if there is none, the last event about them before; else the current
        cause."""
        log = self.log
        reads = self._sba_parts or self._sba_reads()
        refs = set(ids)
        who = set(players)
        refs.update(player_ref(p) for p in who)
        latest = other = changing = -1
        for i in range(len(log) - 1, since - 1, -1):
            e = log[i].event
            kind = type(e)
            if kind in NEUTRAL_EVENTS:
                if other < 0 and kind is not ev.DecisionMade and _about(e, refs, who):
                    other = i
                continue
            ch = e.changes()
            if ch is not None and ch.isdisjoint(reads):
                if other < 0 and _about(e, refs, who):
                    other = i
                continue  # it cannot have called for a state-based action
            if _about(e, refs, who):
                return i
            if latest < 0:
                latest = i
            if changing < 0 and ch is None:
                changing = i
        if by_characteristics and changing >= 0 and other < 0:
            return changing
        if other >= 0 or latest >= 0:
            return other if other >= 0 else latest
        for i in range(min(since, len(log)) - 1, -1, -1):
            e = log[i].event
            if type(e) is not ev.DecisionMade and _about(e, refs, who):
                return i
        return self._cause[-1]

    def _legend_groups(self) -> list[tuple[int, list[int]]]:
        """Legendary permanents one player controls that share a name (CR 704.5j)."""
        s = self.state
        by: dict[tuple[int, str], list[int]] = {}
        cs = self._all_chars()
        for oid in s.battlefield:
            c = cs[oid]
            if "Legendary" in c.supertypes:
                if s.profile == "lorwyn-2007" and "Planeswalker" in c.types:
                    continue  # 2007: planeswalkers use the uniqueness rule instead
                by.setdefault((c.controller, c.name), []).append(oid)
        return [(ctrl, ids) for (ctrl, _name), ids in by.items() if len(ids) > 1]

    def _legend_groups_now(self) -> list[tuple[int, list[int]]]:
        """:meth:`_legend_groups`, kept while the characteristics hold."""
        cache = self._chars_cache()
        groups: list[tuple[int, list[int]]] | None = cache.get("_legends")
        if groups is None:
            groups = cache["_legends"] = self._legend_groups()
        return groups

    def _check_game_over(self, lost: int | None = None) -> None:
        """The game ends when at most one player is left (``lost``: the event of the last
        player's loss, its cause)."""
        s = self.state
        alive = [i for i, p in enumerate(s.players) if not p.lost]
        if len(alive) <= 1 and not s.over:
            self.emit(ev.GameEnded(winner=alive[0] if alive else -1), cause=lost)
        if s.over:
            raise GameOver()

    # ------------------------------------------------------------------ moving
    def move(self, oid: int, to_zone: str, reason: str = "", position: int = -1,
             controller: int = -1, tapped: bool = False,
             cast_data: dict[str, Any] | None = None) -> int | None:
        """Move an object to another zone (a new object); returns its new id."""
        s = self.state
        o = s.objects.get(oid)
        if o is None or o.zone == "none":
            return None
        if o.token and o.zone not in ("battlefield", "stack") and to_zone != "none":
            return None  # (a copy of a spell leaves the stack, then ceases to exist: SBA)
        proposed = replace(self, "move", {"obj": oid, "from_zone": o.zone, "to_zone": to_zone,
                                          "reason": reason})
        if proposed is None:
            return None
        to_zone = proposed["to_zone"]
        if to_zone == "exile":
            return self.exile(oid, reason=reason)
        new = self.new_id()
        if to_zone == "library" and position == -1 and reason in ("put",):
            position = 0
        self.emit(ev.ZoneChanged(obj=oid, new_obj=new, from_zone=o.zone, to_zone=to_zone,
                                 reason=reason, position=position, controller=controller))
        if to_zone == "battlefield":
            self._entered(new, tapped, cast_data)
        return new

    def move_together(self, moves: Sequence[Move]) -> list[int | None]:
        """Move several objects at once, as one instruction does ("destroy all ...",
        "exile all ...", "each player discards ...") and as state-based actions do
        (CR 608.2e-style simultaneity, 704.3); returns each one's new id (``None``: it
        didn't move).

        Replacement effects -- indestructible for a destruction, regeneration shields,
        "exile it instead" -- are applied to each move against the state before any of
        them happened; then they all happen, one ``ZoneChanged`` (or ``RemovedFromGame``)
        each.  Leaves-the-battlefield abilities look back at the state before the first
        of them (CR 603.10a): each sees every object that left with it, the object with
        the ability included, and each object's last known characteristics are those it
        had then.  They trigger before the moves are recorded (as for one object, with
        its move's cause); other abilities trigger after the last of them.  A single
        move is :meth:`move` (or :meth:`destroy`, :meth:`exile`)."""
        try:
            ready = self._ready_moves(moves)
            for r in ready:
                self._make_move(r)
        finally:
            self._id_floor = 0
        self._moved_together(ready)
        return [r.new for r in ready]

    def move_all(self, oids: Sequence[int], to_zone: str, reason: str = "",
                 controller: int = -1, tapped: bool = False) -> list[int | None]:
        """Objects ``oids`` to ``to_zone``, all at once (:meth:`move_together`)."""
        return self.move_together([Move(o, to_zone, reason, controller=controller,
                                        tapped=tapped) for o in oids])

    def destroy_all(self, oids: Sequence[int]) -> list[int | None]:
        """"Destroy all ...": the permanents ``oids`` at once (:meth:`move_together`);
        one that is indestructible as they are destroyed stays."""
        return self.move_together([Move(o, "graveyard", "destroy", destroy=True)
                                   for o in oids])

    def exile_all(self, oids: Sequence[int], face_down: bool = False, exiled_with: int = 0,
                  reason: str = "") -> list[int | None]:
        """"Exile all ...": objects ``oids`` at once, like :meth:`exile` each."""
        return self.move_together([Move(o, "exile", reason, face_down=face_down,
                                        exiled_with=exiled_with, replaceable=False)
                                   for o in oids])

    def _ready_moves(self, moves: Sequence[Move]) -> list[_Ready]:
        """The first part of :meth:`move_together`: each move's replacement effects
        applied, its event made (new ids taken), the last known information of what
        leaves the battlefield kept, and the look-back abilities triggered -- all
        against the state before any of them moves.  (One move is left to
        :meth:`move`.)"""
        if len(moves) < 2:
            return [_Ready(m, plain=True) for m in moves]
        s = self.state
        ready: list[_Ready] = []
        seen: set[int] = set()
        for m in moves:
            r = _Ready(m)
            ready.append(r)
            o = s.objects.get(m.obj)
            if o is None or o.zone == "none" or m.obj in seen:
                continue
            seen.add(m.obj)
            if o.token and o.zone not in ("battlefield", "stack") and m.to_zone != "none":
                continue  # (see move)
            if m.destroy and (o.zone != "battlefield" or self.chars(m.obj).has("indestructible")):
                continue
            r.cause = self._cause[-1] if m.cause is None else m.cause
            to_zone = m.to_zone
            if m.replaceable:
                with self.caused(r.cause):
                    proposed = replace(self, "move", {"obj": m.obj, "from_zone": o.zone,
                                                      "to_zone": to_zone, "reason": m.reason})
                if proposed is None:
                    continue
                to_zone = proposed["to_zone"]
            r.to_zone = to_zone
        new = self.new_id()
        for r in ready:
            m = r.move
            if not r.to_zone or m.obj not in s.objects:
                r.to_zone = ""
                continue
            o = s.objects[m.obj]
            r.new = new
            new += 1
            if r.to_zone == "exile":
                r.event = ev.RemovedFromGame(obj=m.obj, new_obj=r.new, from_zone=o.zone,
                                             face_down=m.face_down, exiled_with=m.exiled_with,
                                             reason=m.reason)
            else:
                position = m.position
                if r.to_zone == "library" and position == -1 and m.reason in ("put",):
                    position = 0
                r.event = ev.ZoneChanged(obj=m.obj, new_obj=r.new, from_zone=o.zone,
                                         to_zone=r.to_zone, reason=m.reason, position=position,
                                         controller=m.controller)
            if o.zone == "battlefield":
                self._lki[o.id] = (o.controller, self.chars(o.id))
        self._id_floor = new  # (the triggered abilities' ids come after the new objects')
        if not self._setting_up:
            for r in ready:
                if r.event is not None:
                    plans = self._tag_plans.get(r.event.TAG) or self._trigger_plans(r.event.TAG)
                    if plans[0]:
                        self._triggers(plans[0], r.event, r.cause, before=True)
        return ready

    def _make_move(self, r: _Ready) -> None:
        """Make one move that :meth:`_ready_moves` made ready (a single one: :meth:`move`)."""
        m = r.move
        if r.plain:
            with self.caused(self._cause[-1] if m.cause is None else m.cause):
                if m.destroy:
                    r.new = self.destroy(m.obj)
                elif m.to_zone == "exile" and not m.replaceable:
                    r.new = self.exile(m.obj, face_down=m.face_down, exiled_with=m.exiled_with,
                                       reason=m.reason)
                else:
                    r.new = self.move(m.obj, m.to_zone, reason=m.reason, position=m.position,
                                      controller=m.controller, tapped=m.tapped)
            return
        if r.event is None:
            return
        r.seq = self.emit(r.event, cause=r.cause, together=True)
        if r.to_zone == "battlefield":
            with self.caused(r.cause):
                self._entered(r.new or 0, m.tapped, None)

    def _moved_together(self, ready: Sequence[_Ready]) -> None:
        """The last part of :meth:`move_together`: the abilities that trigger on the moves
        (other than look-back ones), once all of them have happened."""
        if self._setting_up:
            return
        for r in ready:
            e = r.event
            if e is None or r.seq < 0:
                continue
            plans = self._tag_plans.get(e.TAG) or self._trigger_plans(e.TAG)
            if plans[1]:
                self._triggers(plans[1], e, r.seq, before=False)
            if self.state.effects:
                self._delayed_triggers(e, r.seq)

    def _entered(self, new: int, tapped: bool, cast_data: dict[str, Any] | None) -> None:
        """What happens as permanent ``new`` enters the battlefield -- a card moved there
        or played, or a token created: its "as ~ enters" choice, entering tapped (asked,
        by its own ability, or by a static ability of another permanent), the counters it
        enters with."""
        o = self.state.objects[new]
        d = self.reg[o.card]
        try:
            if callable(d.extras.get("as_enters")):  # "As ~ enters, choose ..." (CR 614.12)
                d.extras["as_enters"](self, new)
            et = d.extras.get("enters_tapped")
            if callable(et):  # "as ~ enters, you may [do X]; if you don't, it enters tapped"
                et = et(self, new)
        except Exception as exc:
            self.card_failed(exc, d.name, None, "choice as it enters the battlefield")
        if (tapped or et or self._enters_tapped_by_statics(new)) and not o.tapped:
            self.emit(ev.Tapped(obj=new, entering=True))
        if cast_data and cast_data.get("alt"):
            self.emit(ev.ObjectFlagged(obj=new, key="cast_alt", value=cast_data["alt"]))
        # "enters with N counters" (e.g. a Saga's first lore counter), then those other
        # permanents give it ("each other Elf you control enters with an additional ...")
        for kind, n in sorted(d.extras.get("enters_with_counters", {}).items()):
            self.emit(ev.CounterPlaced(obj=new, kind=kind, n=n))
        for kind, n in self._enters_with_counters_by_statics(new):
            self.emit(ev.CounterPlaced(obj=new, kind=kind, n=n))
        if d.facts.loyalty and "Planeswalker" in d.facts.types:
            n = int(d.facts.loyalty)
            if n:
                self.emit(ev.CounterPlaced(obj=new, kind="loyalty", n=n))

    def _enters_with_counters_by_statics(self, new: int) -> list[tuple[str, int]]:
        """The counters static abilities of permanents (with an ``enters_with_counters(view,
        source, obj) -> {kind: n}``: "Each other Elf you control enters with an additional
        +1/+1 counter on it", ``mtgk.plugins.enters.enters_with_counters_if``) put on ``new`` as it
        enters, source by source in battlefield order, kinds in name order."""
        out: list[tuple[str, int]] = []
        for src, fn in self.static_hooks("enters_with_counters"):
            try:
                got = fn(self.view(), src, new) or {}
            except Exception as exc:
                self._hook_failed(exc, src, "enters_with_counters", fn)
            out.extend((str(k), int(n)) for k, n in sorted(got.items()) if int(n) > 0)
        return out

    def _enters_tapped_by_statics(self, new: int) -> bool:
        """Whether a static ability of a permanent (with an ``enters_tapped(view, source,
        obj)``: "Each creature without ... enters tapped") makes ``new`` enter tapped."""
        for src, fn in self.static_hooks("enters_tapped"):
            try:
                if fn(self.view(), src, new):
                    return True
            except Exception as exc:
                self._hook_failed(exc, src, "enters_tapped", fn)
        return False

    def exile(self, oid: int, face_down: bool = False, exiled_with: int = 0,
              reason: str = "") -> int | None:
        o = self.state.objects.get(oid)
        if o is None or o.zone == "none":
            return None
        new = self.new_id()
        self.emit(ev.RemovedFromGame(obj=oid, new_obj=new, from_zone=o.zone, face_down=face_down,
                                     exiled_with=exiled_with, reason=reason))
        return new

    def destroy(self, oid: int) -> int | None:
        """Destroy a permanent (not if it is indestructible); returns its new id."""
        if oid in self.state.objects and self.state.objects[oid].zone == "battlefield":
            if self.chars(oid).has("indestructible"):
                return None
            return self.move(oid, "graveyard", reason="destroy")
        return None

    def draw(self, player: int, n: int = 1) -> None:
        for _ in range(n):
            lib = self.state.players[player].library
            if not lib:
                self.emit(ev.DrewFromEmptyLibrary(player=player))
                return
            self.move(lib[0], "hand", reason="draw")

    def create_token(self, name: str, controller: int, attached_to: int = 0,
                     tapped: bool = False) -> int:
        """Create the token keyed ``name`` in the registry (its facts and abilities are
        that definition's; two tokens sharing a printed name have two keys: see
        :meth:`~mtgk.cards.definitions.Registry.token_name`) under ``controller``'s control.  It
        enters the battlefield as any permanent does (:meth:`_entered`): "as ~ enters"
        choices, "enters tapped" (its own or another permanent's), "enters with
        counters".  Returns its id."""
        self.reg[name]
        oid = self.new_id()
        self.emit(ev.TokenCreated(obj=oid, card=name, owner=controller, controller=controller,
                                  attached_to=attached_to, tapped=tapped))
        self._entered(oid, False, None)
        return oid

    def add_effect(self, kind: str, objs: Sequence[int], params: Any, source: int,
                   controller: int, duration: str) -> None:
        self.emit(ev.EffectCreated(effect=self.new_id(), kind=kind, source=source,
                                   controller=controller, objs=tuple(objs),
                                   params=_plain(params), duration=duration))

    # ------------------------------------------------------------------ damage
    def deal_damage(self, source: int, to: int, amount: int, combat: bool = False,
                    controller: int | None = None) -> None:
        """Deal damage, after replacement and prevention effects (:mod:`mtgk.rules.replacement`)."""
        if amount <= 0:
            return
        src_ctrl = self.last_known_controller(source) if controller is None else controller
        p = replace(self, "damage", {"source": source, "target": to, "amount": amount,
                                     "combat": combat, "controller": src_ctrl})
        if p is None or p["amount"] <= 0:
            return
        cause = p.get("cause")
        if cause is not None:
            with self.caused(cause):
                self._damage(p["source"], p["target"], p["amount"], p["combat"])
        else:
            self._damage(p["source"], p["target"], p["amount"], p["combat"])

    def _damage(self, source: int, to: int, amount: int, combat: bool) -> None:
        s = self.state
        try:
            sc = self.chars(source)
        except KeyError:
            sc = None
        if to > 0:
            o = s.objects.get(to)
            if o is None or o.zone != "battlefield":
                return
        if to > 0 and self.protected_from(to, source):
            return  # 702.16e: damage from a source with that quality is prevented
        deathtouch = bool(sc and sc.has("deathtouch"))
        seq = self.emit(ev.DamageDealt(source=source, target=to, amount=amount, combat=combat,
                                       deathtouch=deathtouch))
        with self.caused(seq):
            if to > 0 and "Planeswalker" in self.chars(to).types:
                have = s.objects[to].counters.get("loyalty", 0)
                if have:
                    self.emit(ev.CounterRemoved(obj=to, kind="loyalty", n=min(have, amount)))
            if sc is not None and sc.has("lifelink"):
                ctrl = self.last_known_controller(source)
                if ctrl is not None:
                    self.emit(ev.LifeGained(player=ctrl, n=amount))

    # ------------------------------------------------------------------ combat
    def can_attack(self, oid: int, player: int) -> bool:
        o = self.state.objects[oid]
        c = self.chars(oid)
        return (c.is_creature and c.controller == player and not o.tapped
                and not (o.sick and not c.has("haste")) and not c.has("defender")
                and not c.has("can't attack"))

    def attack_targets(self, player: int) -> list[int]:
        d = 1 - player
        return [player_ref(d)] + [oid for oid in self.permanents_of_type("Planeswalker")
                                  if self.chars(oid).controller == d]

    def _declare_attackers(self, active: int) -> bool:
        cands = [oid for oid in self.state.battlefield if self.can_attack(oid, active)]
        if not cands:
            return False
        mark = len(self.log)
        choice = self.ask(Decision("attackers", active, None, "declare attackers",
                                   check=lambda ch: self.check_attackers(active, ch),
                                   context={"attackers": cands,
                                            "targets": self.attack_targets(active)}))
        if not choice:
            return False
        seq = self.emit(ev.AttackersDeclared(attacks=tuple((a, t) for a, t in choice)),
                        cause=self.decided_since(mark))
        with self.caused(seq):
            for a, _t in choice:
                if not self.chars(a).has("vigilance"):
                    self.emit(ev.Tapped(obj=a))
        return True

    def check_attackers(self, player: int, choice: Any) -> list[list[int]]:
        if not isinstance(choice, list):
            raise RulesError("508.1", "attackers must be a list of [attacker, target] pairs")
        targets = self.attack_targets(player)
        seen: set[int] = set()
        out: list[list[int]] = []
        for pair in choice:
            if not isinstance(pair, list) or len(pair) != 2:
                raise RulesError("508.1", f"bad attack {pair!r}")
            a, t = int(pair[0]), int(pair[1])
            if a in seen:
                raise RulesError("508.1", f"{self.name(a)} can attack only once")
            seen.add(a)
            if a not in self.state.objects or self.state.objects[a].zone != "battlefield" \
                    or not self.can_attack(a, player):
                why = "it is summoning sick" if a in self.state.objects and \
                    self.state.objects[a].sick else "it can't attack"
                raise RulesError("508.1a", f"{self.name(a)} can't attack: {why}")
            if t not in targets:
                raise RulesError("508.1b", f"{self.name(t)} can't be attacked: a creature "
                                 "attacks the defending player or a planeswalker they control")
            out.append([a, t])
        return out

    def can_block(self, blocker: int, attacker: int) -> bool:
        o = self.state.objects[blocker]
        b = self.chars(blocker)
        a = self.chars(attacker)
        if not b.is_creature or o.tapped or b.has("can't block") or a.has("can't be blocked"):
            return False
        if self.protected_from(attacker, blocker):
            return False
        for r in a.abilities:  # "can't be blocked by creatures with power N or greater"
            if r.startswith("unblockable_by_power:") and (b.power or 0) >= int(r[21:]):
                return False
        if a.has("flying") and not (b.has("flying") or b.has("reach")):
            return False
        if a.has("fear") and not ("Artifact" in b.types or "B" in b.colors):
            return False
        if a.has("intimidate") and not ("Artifact" in b.types or set(a.colors) & set(b.colors)):
            return False
        for walk, land in (("islandwalk", "Island"), ("swampwalk", "Swamp"),
                           ("forestwalk", "Forest"), ("mountainwalk", "Mountain"),
                           ("plainswalk", "Plains")):
            if a.has(walk) and any(land in self.chars(x).subtypes
                                   for x in self.battlefield(b.controller)):
                return False
        return True

    def _declare_blockers(self, active: int) -> None:
        c = self.state.combat
        if c is None or not c.attackers:
            return
        d = 1 - active
        cands = [oid for oid in self.state.battlefield
                 if self.chars(oid).controller == d and self.chars(oid).is_creature
                 and not self.state.objects[oid].tapped]
        choice: list[list[int]] = []
        mark = len(self.log)
        if cands and any(self.can_block(b, a) for b in cands for a in c.attackers):
            choice = self.ask(Decision("blockers", d, None, "declare blockers",
                                       check=lambda ch: self.check_blockers(d, ch),
                                       context={"blockers": cands,
                                                "attackers": list(c.attackers)}))
        self.emit(ev.BlockersDeclared(blocks=tuple((b, a) for b, a in choice)),
                  cause=self.decided_since(mark))

    def check_blockers(self, player: int, choice: Any) -> list[list[int]]:
        c = self.state.combat
        if not isinstance(choice, list) or c is None:
            raise RulesError("509.1", "blockers must be a list of [blocker, attacker] pairs")
        seen: set[int] = set()
        count: dict[int, int] = {}
        out: list[list[int]] = []
        for pair in choice:
            if not isinstance(pair, list) or len(pair) != 2:
                raise RulesError("509.1", f"bad block {pair!r}")
            b, a = int(pair[0]), int(pair[1])
            if b in seen and ([b, a] in out or b not in self.state.objects
                              or sum(1 for bb, _a in out if bb == b) >= self.max_blocks(b)):
                n = self.max_blocks(b) if b in self.state.objects else 1
                raise RulesError("509.1a", f"{self.name(b)} can block only "
                                 f"{'one creature' if n == 1 else f'{n} creatures'}")
            seen.add(b)
            if a not in c.attackers:
                raise RulesError("509.1a", f"{self.name(a)} is not attacking")
            if b not in self.state.objects or self.state.objects[b].zone != "battlefield" or \
                    self.chars(b).controller != player or not self.can_block(b, a):
                raise RulesError("509.1b", f"{self.name(b)} can't block {self.name(a)}")
            count[a] = count.get(a, 0) + 1
            out.append([b, a])
        for a, n in count.items():
            need = self.min_blockers(a)
            if n < need and need == 2 and self.chars(a).has("menace"):
                raise RulesError("702.110b", f"{self.name(a)} has menace: it can't be blocked "
                                 "except by two or more creatures")
            if n < need:
                raise RulesError("509.1b", f"{self.name(a)} can't be blocked except by {need} "
                                 "or more creatures")
        self._check_block_requirements(player, out)
        return out

    def max_blocks(self, oid: int) -> int:
        """How many attackers ``oid`` can block: any number (``can block any number``),
        or one plus one per ``can block an additional creature``."""
        c = self.chars(oid)
        if c.has("can block any number"):
            return 10 ** 6
        return 1 + sum(1 for a in c.abilities if a == "can block an additional creature")

    def min_blockers(self, oid: int) -> int:
        """The fewest creatures that can block ``oid``: 2 with menace, N with an ability
        ``min_blockers:N`` ("can't be blocked except by N or more creatures")."""
        c = self.chars(oid)
        need = 2 if c.has("menace") else 1
        for a in c.abilities:
            if a.startswith("min_blockers:"):
                need = max(need, int(a[13:]))
        return need

    def _check_block_requirements(self, player: int, blocks: list[list[int]]) -> None:
        """Blocking requirements: "All creatures able to block ~ do so" (ability ``all able
        block it``) and "[this creature] blocks [that one] this turn if able" (ability
        ``must_block:<attacker>``).  Each creature obeys as many of its requirements as it
        can: it blocks one of the attackers it is required to block (all of them, up to
        the number of creatures it can block) -- CR 509.1c."""
        c = self.state.combat
        attackers = list(c.attackers) if c else []
        lures = [a for a in attackers if self.chars(a).has("all able block it")]
        mine = [b for b in self.state.battlefield
                if self.chars(b).controller == player and self.chars(b).is_creature]
        musts = {b: [int(r[11:]) for r in self.chars(b).abilities if r.startswith("must_block:")
                     and int(r[11:]) in attackers] for b in mine}
        if not lures and not any(musts.values()):
            return

        def feasible(a: int) -> bool:
            # a requirement that would break a restriction ("can't be blocked except by two
            # or more creatures" with too few able blockers) isn't one
            return len([b for b in mine if self.can_block(b, a)]) >= self.min_blockers(a)

        for b in mine:
            reqs = [a for a in lures + musts[b] if feasible(a) and self.can_block(b, a)]
            able = [a for i, a in enumerate(reqs) if a not in reqs[:i]]
            if not able:
                continue
            blocking = [a for bb, a in blocks if bb == b]
            if len(set(able) & set(blocking)) < min(len(able), self.max_blocks(b)):
                missed = next(a for a in able if a not in blocking)
                why = "all creatures able to block it do so" if missed in lures else \
                    "it blocks it this turn if able"
                raise RulesError("509.1c", f"{self.name(b)} must block "
                                 f"{self.name(missed)}: {why}")

    def _first_strikers(self) -> list[int]:
        """The attacking and blocking creatures that have first strike or double strike now
        (as the combat damage step would begin: CR 510.4), attackers first."""
        c = self.state.combat
        if c is None:
            return []
        objs = self.state.objects
        out: list[int] = []
        for o in list(c.attackers) + list(c.blockers):
            if o in objs and o not in out:
                ch = self.chars(o)
                if ch.has("first strike") or ch.has("double strike"):
                    out.append(o)
        return out

    def _deals_in(self, oid: int, first_strike: bool) -> bool:
        """Whether creature ``oid`` deals combat damage in the first-strike step
        (``first_strike``) or in the regular one (CR 510.4): in the first, those that had
        first or double strike as it began; in the regular one after it, the others and
        those that have double strike now (CR 702.4d, 702.7c); with no first-strike step,
        every creature."""
        c = self.state.combat
        if first_strike:
            return c is not None and oid in c.first_strikers
        if c is None or not c.first_strikers:
            return True
        return oid not in c.first_strikers or self.chars(oid).has("double strike")

    def _damage_step(self, first_strike: bool) -> None:
        """The combat damage of one combat damage step: each attacking and blocking
        creature that deals damage in it (:meth:`_deals_in`) assigns its damage, then all of
        it is dealt at once (CR 510.1-2)."""
        s = self.state
        c = s.combat
        if c is None:
            return
        dmg: list[tuple[int, int, int]] = []
        defender = 1 - s.active
        for a, target in list(c.attackers.items()):
            if a not in s.objects or s.objects[a].zone != "battlefield":
                continue
            if not self._deals_in(a, first_strike):
                continue
            power = self.combat_damage_of(a)
            if power <= 0:
                continue
            blockers = [b for b in c.blocked.get(a, []) if b in s.objects
                        and s.objects[b].zone == "battlefield"]
            target_ok = target < 0 or (target in s.objects and s.objects[target].zone ==
                                       "battlefield" and target not in c.removed_attacked
                                       and self.chars(target).controller == defender)
            if a not in c.was_blocked:
                if target_ok:
                    dmg.append((a, target, power))
                continue
            if not blockers:
                if self.chars(a).has("trample") and target_ok:
                    dmg.append((a, target, power))
                continue
            for to, n in self._assign(a, blockers, power, target if target_ok else None):
                dmg.append((a, to, n))
        for b, attackers in list(c.blockers.items()):
            if b not in s.objects or s.objects[b].zone != "battlefield" or not attackers:
                continue
            if not self._deals_in(b, first_strike):
                continue
            power = self.combat_damage_of(b)
            live = [a for a in attackers if a in s.objects and s.objects[a].zone == "battlefield"]
            if power > 0 and len(live) == 1:
                dmg.append((b, live[0], power))
            elif power > 0 and live:  # blocking several: its controller divides the damage
                for to, n in self._assign(b, live, power, None):
                    dmg.append((b, to, n))
        for src, to, n in dmg:
            if n > 0:  # through replacement and prevention effects, like all damage
                self.deal_damage(src, to, n, combat=True)

    def combat_damage_of(self, oid: int) -> int:
        """The combat damage creature ``oid`` assigns: its power, or its toughness while a
        permanent has ``assigns combat damage by toughness`` (Doran, the Siege Tower)."""
        c = self.chars(oid)
        if self.permanents_with("assigns combat damage by toughness"):
            return c.toughness or 0
        return c.power or 0

    def _lethal(self, blocker: int, attacker: int) -> int:
        o = self.state.objects[blocker]
        c = self.chars(blocker)
        if self.chars(attacker).has("deathtouch"):
            return 1 if o.damage == 0 else 0
        return max(0, (c.toughness or 0) - o.damage)

    def _assign(self, a: int, blockers: list[int], power: int, target: int | None
                ) -> list[tuple[int, int]]:
        trample = self.chars(a).has("trample") and target is not None
        if len(blockers) == 1 and not trample:
            return [(blockers[0], power)]
        recipients = list(blockers) + ([target] if trample and target is not None else [])
        default: dict[int, int] = {}
        left = power
        for b in blockers:
            n = min(left, self._lethal(b, a))
            default[b] = n
            left -= n
        if left:
            if trample and target is not None:
                default[target] = default.get(target, 0) + left
            else:
                default[blockers[-1]] += left
        attacker_ctrl = self.chars(a).controller
        choice = self.ask(Decision("assign", attacker_ctrl, None,
                                   f"assign {power} combat damage from {self.name(a)}",
                                   check=lambda ch: self._check_assign(a, blockers, power,
                                                                       trample, target, ch),
                                   context={"attacker": a, "default": [[k, v] for k, v in
                                                                       default.items()],
                                            "recipients": recipients}))
        return [(int(k), int(v)) for k, v in choice]

    def _check_assign(self, a: int, blockers: list[int], power: int, trample: bool,
                      target: int | None, choice: Any) -> list[list[int]]:
        if not isinstance(choice, list):
            raise RulesError("510.1", "damage assignment must be a list of [recipient, amount]")
        got: dict[int, int] = {}
        for pair in choice:
            k, v = int(pair[0]), int(pair[1])
            if k not in blockers and not (trample and k == target):
                raise RulesError("510.1c", f"{self.name(k)} can't be assigned damage from "
                                 f"{self.name(a)}")
            if v < 0:
                raise RulesError("510.1", "damage can't be negative")
            got[k] = got.get(k, 0) + v
        if sum(got.values()) != power:
            raise RulesError("510.1", f"assign exactly {power} damage")
        # 510.1c: lethal damage to every blocker before any to the attacked player/planeswalker
        if trample and target is not None and got.get(target, 0) > 0:
            for b in blockers:
                if got.get(b, 0) < self._lethal(b, a):
                    raise RulesError("702.19c", f"{self.name(b)} must be assigned lethal damage "
                                     "before damage tramples over")
        return [[k, v] for k, v in got.items()]


def _intrinsic(mana: str) -> Activated:
    """The intrinsic mana ability "{T}: Add [mana]" of a basic land type (CR 305.6)."""
    return Activated(Cost(tap=True), lambda c: None, mana=(mana,), text=f"{{T}}: Add {{{mana}}}.")


def _singulars(q: str) -> list[str]:
    """The creature type a plural quality may name: ``elves`` -> Elf, ``goblins`` ->
    Goblin, ``merfolk`` -> Merfolk."""
    out = [q.capitalize()]
    if q.endswith("ves"):
        out.append(q[:-3].capitalize() + "f")
    if q.endswith("s"):
        out.append(q[:-1].capitalize())
    return out


_BY_CHARACTERISTICS = frozenset({"toughness", "lethal-damage", "loyalty", "aura", "equipment",
                                 "planeswalker-uniqueness", "counters"})
"""The kernel's state-based actions on permanents, whose conditions depend on their
characteristics (see :meth:`Game._sba_cause`)."""

_ABOUT_FIELDS = ("obj", "new_obj", "target", "to", "attached_to", "objs", "player")
_about_fields: dict[type, tuple[str, ...]] = {}


def _about(e: Event, refs: set[int], players: set[int]) -> bool:
    """Whether event ``e`` names one of the objects or player references ``refs`` (in
    ``obj``, ``new_obj``, ``target``, ``to``, ``attached_to`` or ``objs``), or one of
    ``players`` in ``player`` (other than by gaining life)."""
    kind = type(e)
    fields = _about_fields.get(kind)
    if fields is None:
        fields = _about_fields[kind] = tuple(f for f in _ABOUT_FIELDS
                                             if f in kind.__struct_fields__)
    for f in fields:
        v = getattr(e, f)
        if f == "objs":
            if any(x in refs for x in v):
                return True
        elif f == "player":
            if v in players and kind is not ev.LifeGained:
                return True
        elif isinstance(v, int) and v in refs:
            return True
    return False


def _check_order(choice: Any, items: list[StackItem]) -> list[int]:
    ids = [it.id for it in items]
    if not isinstance(choice, list) or sorted(choice) != sorted(ids):
        raise RulesError("603.3b", "order must list each of your triggered abilities once")
    return [int(c) for c in choice]


def _card_of(item: StackItem) -> str:
    """The card whose ability stack item ``item`` is (its key names it: ``"Foo#2"``)."""
    return item.ability.rpartition("#")[0] or item.source_card


def _event_data(e: Event) -> Any:
    return [e.TAG, list(msgspec.structs.astuple(e))]


@dataclass(frozen=True)
class Move:
    """One object's part of moves that happen at once (:meth:`Game.move_together`).

    ``to_zone``, ``reason``, ``position``, ``controller`` and ``tapped`` are those of
    :meth:`Game.move`, ``face_down`` and ``exiled_with`` those of :meth:`Game.exile`;
    ``cause``: the event that caused this move (``None``: the current cause);
    ``destroy``: it is a destruction (an indestructible permanent isn't moved);
    ``replaceable``: replacement effects apply to it (:meth:`Game.exile` has none).
    """

    obj: int
    to_zone: str
    reason: str = ""
    cause: int | None = None
    position: int = -1
    controller: int = -1
    tapped: bool = False
    face_down: bool = False
    exiled_with: int = 0
    destroy: bool = False
    replaceable: bool = True


@dataclass
class _Ready:
    """A :class:`Move` made ready to happen together with others (``plain``: alone, by
    :meth:`Game.move`): where it goes after replacement effects (``""``: nowhere, it
    doesn't happen), its cause, its event and the object's new id, and the event's
    number once recorded."""

    move: Move
    plain: bool = False
    to_zone: str = ""
    cause: int = -1
    event: Event | None = None
    new: int | None = None
    seq: int = -1


class _SetupScope:
    def __init__(self, game: Game) -> None:
        self.game = game

    def __enter__(self) -> None:
        self.game._setting_up = True

    def __exit__(self, *exc: object) -> None:
        self.game._setting_up = False


class _CauseScope:
    def __init__(self, game: Game, seq: int) -> None:
        self.game = game
        self.seq = seq

    def __enter__(self) -> None:
        self.game._cause.append(self.seq)

    def __exit__(self, *exc: object) -> None:
        self.game._cause.pop()
