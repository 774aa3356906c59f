"""The game's core: its state and log, emitting events, reading characteristics,
asking the players.

:class:`GameCore` holds what every part of the rules uses: the fields of a game,
:meth:`~GameCore.emit` (the one way the state changes: an event appended and folded
in by :func:`~mtgk.rules.state.apply`), the characteristics after continuous effects
(:meth:`~GameCore.chars`, :meth:`~GameCore.view`; CR 613, computed in
:mod:`mtgk.rules.layers`) and decisions (:meth:`~GameCore.ask`, :meth:`~GameCore.choose`;
every choice is a :class:`Decision` answered by the player's agent and recorded).
The parts of the rules are mixins over it, one module each; :class:`mtgk.rules.engine.Game`
puts them together.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, cast

import msgspec
import structlog

from mtgk.cards.definitions import CardDef, Registry
from mtgk.cards.errors import blame
from mtgk.log import events as ev
from mtgk.log.events import Envelope, Event, ref_player
from mtgk.rules.layers import APPLIERS, Chars, View, chars_key, compute, compute_with_reads, printed
from mtgk.rules.state import StackItem, State, apply, new_state

if TYPE_CHECKING:
    from mtgk.rules.engine import Game

log = structlog.get_logger("mtgk.rules.engine")


class _Silent:
    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *a, **k: None


_SILENT = _Silent()


BASIC_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


_MOVES: frozenset[type] = frozenset({ev.ZoneChanged, ev.RemovedFromGame, ev.SpellCast})


"""Events that move object ``obj`` from ``from_zone`` (it becomes a new object)."""


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


def plain(x: Any) -> Any:
    if isinstance(x, tuple | list):
        return [plain(i) for i in x]
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    return x


def card_of(item: StackItem) -> str:
    """The card whose ability stack item ``item`` is (its key names it: ``"Foo#2"``)."""
    return item.ability.rpartition("#")[0] or item.source_card


def event_data(e: Event) -> Any:
    return [e.TAG, list(msgspec.structs.astuple(e))]


class _SetupScope:
    def __init__(self, game: GameCore) -> None:
        self.game = game

    def __enter__(self) -> None:
        self.game._setting_up = True

    def __exit__(self, *exc: object) -> None:
        self.game._setting_up = False


class _CauseScope:
    def __init__(self, game: GameCore, seq: int) -> None:
        self.game = game
        self.seq = seq

    def __enter__(self) -> None:
        self.game._cause.append(self.seq)

    def __exit__(self, *exc: object) -> None:
        self.game._cause.pop()



class GameCore:
    """The fields of a game and the parts every rule uses: events, characteristics, decisions."""

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

        >>> from mtgk.rules.engine import Game
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

        >>> from mtgk.rules.engine import Game
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
                answer = agent.decide(cast("Game", self), d)
            except Exception as exc:  # the agent's: not the card's whose effect asked
                self._foreign = exc
                raise
            try:
                if d.kind == "priority" and d.options is not None \
                        and _listed(answer, d.options):
                    # one of the actions the engine listed (legal_actions): legal as it is
                    choice = answer
                    if self.validate_caches and self.validate(d, plain(answer)) != answer:
                        raise StaleCache(f"the listed action {answer!r} is not what "
                                         "check_action makes of it")
                else:
                    choice = self.validate(d, plain(answer))
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
        options = plain(options)
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


    if TYPE_CHECKING:  # methods of the parts (mtgk.rules.parts) this core calls
        def _source_left(self, oid: int, seq: int) -> None:
            ...

        def _delayed_triggers(self, e: Event, seq: int) -> None:
            ...

        def _trigger_plans(self, tag: str) -> tuple[list[Any], list[Any]]:
            ...

        def _triggers(self, plan: list[Any], e: Event, seq: int, before: bool) -> None:
            ...
