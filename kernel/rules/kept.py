"""What a game keeps across events for speed, and the one policy that keeps it right.

A rule reads as the rule: it asks the game for characteristics (:meth:`~GameCore.chars`,
:meth:`~GameCore.view`), legal actions, the static abilities with a hook, the trigger plan of
an event type.  Computing those afresh after every event is what a rule means, and it is
slow, so the game keeps them from one event to the next.  **The policy: a kept fact is
keyed by a version that every event which could change it bumps; an event that can't
change it (its ``Event.changes()`` names parts of the state the fact doesn't read) leaves
it kept.**  The versions and what bumps them are all here: after each event,
:meth:`GameCore.emit` calls :meth:`_forget_after` (with :meth:`_chars_after` and
:meth:`_sba_reads`) and, for new objects, :meth:`_new_objects`:

* ``_chars`` -- every permanent's characteristics after the layers (CR 613), with
  ``_chars_reads``, the parts of the state the static abilities on the battlefield read
  (``Static.reads``); forgotten by an event that changes permanents or a part read
  (``_chars_version`` counts the times) -- unless it is brought up to date for the
  permanents that event touched: on a plain board (:meth:`_plain_after`) or one whose
  static abilities allow it (:meth:`_some_after`, :mod:`mtgk.rules.incremental`).  ``_hooks`` (:meth:`static_hooks`,
  :meth:`permanents_with`, :meth:`cached`, :meth:`_grants_possible`) go with them.
* ``_version`` -- counts events that may change characteristics or what the rules look
  at (all but :data:`~mtgk.rules.core.NEUTRAL_EVENTS`): the key of ``_legal``
  (:meth:`~mtgk.rules.actions.LegalActions.legal_actions`, with ``_taps``, the player's
  mana pool and the timing) and of ``_effects_seen`` (:meth:`_effects_facts`); ``_taps``
  (tapped and untapped events) also keys the mana sources (:mod:`mtgk.rules.payment`).
* ``_sba_version`` -- counts events that may make a state-based action due (they change
  permanents, or a part of the state the checks read, :meth:`_sba_reads`); ``_settled``
  is its value when the checks last found nothing (:mod:`mtgk.rules.priority` skips them
  until it changes).
* ``_names`` -- the cards of the objects in this game so far; a new one clears
  ``_tag_plans`` (the trigger plans by event type, :mod:`mtgk.rules.triggers`),
  ``_game_facts`` (facts about its cards, :mod:`mtgk.rules.actions`) and ``_grantors``.

**Validated mode** (``validate_caches``; scenarios and tests run so) checks every kept
fact against a fresh computation after every event and raises
:class:`~mtgk.rules.core.StaleCache` on a difference: a card that reads a part of the state
it doesn't declare, or an event type whose ``CHANGES`` is too narrow, is found there.
To change what is kept, or to keep nothing, change this module (and the lookups named
above); no rule depends on it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from mypy_extensions import mypyc_attr

from mtgk.log import events as ev
from mtgk.log.answers import PASS
from mtgk.log.events import Envelope, Event
from mtgk.rules.chars import CHARS_FIELDS, Chars, chars_key, printed
from mtgk.rules.definitions import KEYWORD_MEANINGS, STATIC_HOOKS, CardDef, Registry, Static
from mtgk.rules.incremental import board_dependents, effect_allows
from mtgk.rules.layers import (
    APPLIERS,
    NotForSome,
    View,
    compute,
    compute_with_reads,
    undeclared_readers,
)
from mtgk.rules.seats import ATTACK_MULTIPLE
from mtgk.rules.state import Obj, State

KEYWORD_ZONE = "\0keywords"
"""The pseudo-zone of a trigger plan (``TriggeredAbilities._trigger_plans``) whose entries
are the triggered abilities keywords stand for, of the permanents that have them."""

MOVES: frozenset[type] = frozenset({ev.ZoneChanged, ev.RemovedFromGame, ev.SpellCast})
"""Events that move object ``obj`` from ``from_zone`` (it becomes a new object)."""

NEUTRAL_EVENTS: frozenset[type] = frozenset({
    ev.DecisionMade, ev.ManaAdded, ev.ManaSpent, ev.ManaEmptied, ev.Revealed,
    ev.LibraryShuffled, ev.StepBegan, ev.Tapped, ev.Untapped})
"""Event types that never call for a state-based action (but for tapping and untapping in
a game with an Aura whose enchant quality reads the tapped status: ``_sba_reads``) and
that change characteristics only through a static ability that *declares* it reads what
they change
(``Static.reads``: ``"tapped"``, ``"mana"``, ``"step"`` ...; a static that declares
nothing is taken not to look at these).  Legal actions kept across them are keyed on
tapped status and mana pools (:meth:`Game.legal_actions`)."""


def plain(x: Any) -> Any:
    """``x`` with its tuples made lists and its dicts' keys strings, as a log holds it."""
    if isinstance(x, tuple | list):
        return [plain(i) for i in x]
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    return x


def plain_chars(reg: Registry, o: Obj) -> Chars:
    """Permanent ``o``'s characteristics when no continuous effect applies to it: printed,
    with its counters (what :func:`compute` gives it then)."""
    c = printed(reg, o)
    cnt = o.counters
    if cnt and c.power is not None and c.toughness is not None:
        n = cnt.get("+1/+1", 0) - cnt.get("-1/-1", 0)
        c.power += n
        c.toughness += n
    if "Planeswalker" in c.types:
        c.loyalty = cnt.get("loyalty", 0)
    if "Creature" not in c.types:
        c.power = c.toughness = None
    return c


_NOTHING: frozenset[str] = frozenset()

T = TypeVar("T")
_MISSING: Any = object()  # (no entry in a store)
ANY_VERSION: Any = object()
"""The ``version`` of :meth:`KeptFacts.kept` for a store whose entries hold for as long as
the store does."""

IDLE_READS: frozenset[str] = frozenset({"hand", "graveyard", "exile", "library", "turn"})
"""What, beyond the permanents and their characteristics, decides whether a player who
can't cast a sorcery can do nothing but pass: the cards in their hand (one castable at
instant speed), cards in other zones (cast permissions, abilities that work there: kept
while the exiled cards, the characteristics and the turn stay, as
:meth:`~mtgk.rules.actions.LegalActions._castable_elsewhere` keeps them)."""


@mypyc_attr(native_class=False)  # mypyc: a subclass of a builtin other than Exception
class StaleCache(AssertionError):
    """In validated mode (``Game.validate_caches``), something the engine kept across
    events differs from a fresh computation: a card's or plugin's declarations of what
    it reads (``Static.reads``, ``pt_reads``, ``Registry.add_sba_check``) or an event
    type's ``CHANGES`` are wrong."""


@mypyc_attr(native_class=False)
class StaleCharacteristics(StaleCache):
    """The engine's kept characteristics differ from a fresh computation (see
    :meth:`Game.check_cached_characteristics`)."""


class KeptFacts:
    """The facts a game keeps across events, their versions, and when they are forgotten.
    A base of :class:`~mtgk.rules.core.GameCore`, whose ``__init__`` calls :meth:`_init_kept`."""

    # what GameCore provides; stubs here rather than under `if TYPE_CHECKING:`, which mypyc
    # cannot compile in a class body
    reg: Registry
    state: State
    log: list[Envelope]

    def definition(self, oid: int) -> CardDef:
        raise NotImplementedError  # defined by GameCore

    def view(self) -> View:
        raise NotImplementedError  # defined by GameCore

    def check_action(self, player: int, action: Any) -> Any:
        raise NotImplementedError  # defined by Casting

    def _legal_actions(self, player: int, sorcery_ok: bool, share: bool = True) -> Any:
        raise NotImplementedError  # defined by LegalActions

    def _sba_actions(self) -> list[Any]:
        raise NotImplementedError  # defined by StateBasedActions

    def _legend_groups_now(self) -> list[tuple[int, list[int]]]:
        raise NotImplementedError  # defined by StateBasedActions

    def _init_kept(self) -> None:
        """Nothing kept yet."""
        #: the game's attack option (:data:`mtgk.rules.seats.ATTACK_OPTIONS`): a rule of the
        #: game, not of its state; set before play by whoever starts the game (a log's
        #: header records it as ``meta["attack"]``)
        self.attack_option = ATTACK_MULTIPLE
        self._chars: dict[int, Chars] | None = None
        self._chars_reads: frozenset[str] | None = None  # what ``_chars`` depends on
        #: no static ability, characteristic-defining ability or continuous effect applies
        #: to the permanents of ``_chars``: each has its printed characteristics (with its
        #: counters), and an event that moves or changes a few of them changes those only
        self._chars_plain = False
        #: else, if the board lets an event's permanents be computed alone
        #: (:mod:`mtgk.rules.incremental`), the permanents that may change with them
        self._dependents: list[int] | None = None
        self._effect_objs: dict[int, list[int]] = {}  # (with them) effect id -> its objects
        self.full_computations = 0  # how many times every permanent's were computed
        self._tokens = False  # whether a token has existed (state-based actions look)
        self._effects_seen: tuple[int, bool, bool] = (-1, False, False)  # _effects_facts
        #: validated mode: check what the engine keeps across events against a fresh
        #: computation after every event (characteristics, state-based actions, legal
        #: actions) and raise :class:`StaleCache` on a difference.  Scenarios run so.
        self.validate_caches = False
        self._taps = 0  # counts Tapped and Untapped events
        self._names: set[str] = set()  # the cards of the objects in this game, so far
        self._grantors: set[str] | None = None  # those of them defined ``grantable``
        self._game_facts: dict[tuple[str, bool], list[Any]] = {}  # about its cards (so far)
        #: event tag -> (look-back plan, ordinary plan) for the cards in this game
        self._tag_plans: dict[str, tuple[list[Any], list[Any]]] = {}
        #: event tag -> (its plans, whether a card in this game has a look-back trigger for
        #: it, an ordinary one): without them, only granted triggers could be looked for
        self._tag_cards: dict[str, tuple[Any, bool, bool]] = {}
        #: legal_actions(), by player and whether they could cast a sorcery
        self._legal: dict[tuple[int, bool], tuple[Any, Sequence[Any]]] = {}
        #: player -> the ``_idle_version`` at which they could do nothing but pass at
        #: instant speed (:meth:`~mtgk.rules.actions.LegalActions._nothing_at_instant_speed`)
        self._idle: dict[int, int] = {}
        #: counts events that may change what that depends on: the permanents and their
        #: characteristics, the zones of :data:`IDLE_READS`, the turn
        self._idle_version = 0
        self._hooks: dict[Any, Any] = {}  # static_hooks() cache, keyed by _chars_version
        #: facts kept with the characteristics, carried over their updates object by object
        #: (:meth:`_carry_facts`): the permanents with an ability or of a type
        #: (:meth:`_permanents`), and what each makes for mana this turn (:meth:`mana_makers`)
        self._lists: dict[tuple[str, str], list[int]] = {}
        self._makers: tuple[int, dict[int, Any]] = (-1, {})
        self._chars_version = 0  # counts the times the characteristics were forgotten
        self._version = 0  # counts events that may change characteristics or SBAs
        self._settled = -1  # _sba_version when state-based actions last found nothing
        #: counts events that may call for a state-based action: that change permanents
        #: or a part of the state the checks look at (:meth:`_sba_reads`)
        self._sba_version = 0
        self._sba_parts: frozenset[str] | None = None
        #: :meth:`live_sba_checks`, until a card new to the game appears
        self._sba_live: list[Callable[[Any], list[tuple[str, int, str]]]] | None = None
        self._chars_at = -1

    # ---------------------------------------------------------------- the memo
    def kept(self, store: dict[Any, Any], key: Any, what: str, compute: Callable[..., T],
             *args: Any, version: Any = ANY_VERSION, fresh: Callable[..., T] | None = None
             ) -> T:
        """``compute(*args)``, kept in ``store`` under ``key``: the one way the rules keep a
        fact across events.

        ``store`` is forgotten by whoever owns it (a store of :meth:`_chars_cache` with the
        characteristics, ``_legal`` by its ``version``): with ``version``, the entry is
        ``(version, value)`` and counts only while ``version`` is the same.  In validated
        mode a kept value is compared with a fresh computation (``fresh(*args)``, else
        ``compute(*args)``) and a difference raises :class:`StaleCache` naming ``what``
        (formatted with ``args``: ``"the mana sources of player {0}"``).

        >>> from mtgk.rules.engine import Game
        >>> g = Game(Registry(), ["A", "B"], seed=1)
        >>> store: dict[str, int] = {}
        >>> g.kept(store, "k", "a demo", lambda n: n * 2, 21), g.kept(store, "k", "a demo", int, 0)
        (42, 42)
        >>> g.validate_caches = True
        >>> g.kept(store, "k", "the answer to {0}", int, 0)
        Traceback (most recent call last):
        ...
        mtgk.rules.kept.StaleCache: after event 0, the answer to 0 kept differs from a fresh computation
        """
        entry = store.get(key, _MISSING)
        if entry is not _MISSING:
            if version is ANY_VERSION:
                if not self.validate_caches:
                    return entry  # type: ignore[no-any-return]
                return self._checked(entry, what, fresh or compute, args)
            if entry[0] == version:
                if not self.validate_caches:
                    return entry[1]  # type: ignore[no-any-return]
                return self._checked(entry[1], what, fresh or compute, args)
        value = compute(*args)
        store[key] = value if version is ANY_VERSION else (version, value)
        return value

    def _checked(self, value: T, what: str, fresh: Callable[..., T], args: tuple[Any, ...]
                 ) -> T:
        """Validated mode: ``value``, kept, compared with ``fresh(*args)``."""
        if fresh(*args) != value:
            raise StaleCache(f"after event {len(self.log) - 1}, {what.format(*args)} "
                             "kept differs from a fresh computation")
        return value

    def confirm(self, claim: str, holds: Callable[..., bool], *args: Any) -> None:
        """In validated mode, check that a shortcut the rules took gives what the full
        computation gives: ``holds(*args)``, else :class:`StaleCache` saying ``claim``
        (formatted with ``args``).  Outside it, nothing is computed."""
        if self.validate_caches and not holds(*args):
            raise StaleCache(f"after event {len(self.log) - 1}, {claim.format(*args)}")

    def confirm_idle(self, player: int) -> None:
        """In validated mode, check that ``player``, taken to have nothing to do at instant
        speed (``_idle``), has nothing but to pass by a fresh enumeration."""
        if self.validate_caches and self._legal_actions(player, False, share=False) != [PASS]:
            raise StaleCache(f"after event {len(self.log) - 1}, player {player} was taken to "
                             "have nothing to do at instant speed, but a fresh enumeration "
                             "finds something")

    def confirm_listed(self, player: int, actions: Sequence[Any]) -> None:
        """In validated mode, check that each action the engine lists for ``player``
        (``legal_actions``, which an agent's answer is taken from as it is) is what
        ``check_action`` makes of it."""
        if not self.validate_caches:
            return
        for action in actions:
            try:
                same = self.check_action(player, action) == action
            except Exception as exc:  # noqa: BLE001 - a refusal of a listed action is the finding
                raise StaleCache(f"after event {len(self.log) - 1}, the listed action "
                                 f"{action!r} is refused by check_action: {exc}") from exc
            if not same:
                raise StaleCache(f"after event {len(self.log) - 1}, the listed action "
                                 f"{action!r} is not what check_action makes of it")

    def keep_like(self, other: KeptFacts) -> None:
        """Keep facts in the same mode as ``other`` (a fork of it: validated or not)."""
        self.validate_caches = other.validate_caches

    def _forget_after(self, e: Event, kind: type) -> None:
        """After :meth:`GameCore.emit` folded ``e`` (of type ``kind``) in: bump the versions
        ``e`` may invalidate and forget the characteristics it may have changed; in
        validated mode, check the characteristics still kept against a fresh computation."""
        if kind not in NEUTRAL_EVENTS:
            self._version += 1
            ch = e.changes()
            if ch is None or not ch.isdisjoint(self._sba_parts or self._sba_reads()):
                self._sba_version += 1
            if ch is None or not ch.isdisjoint(IDLE_READS):
                self._idle_version += 1
            if self._chars is not None:
                self._chars_after(e, ch, False)
        else:
            if kind is ev.Tapped or kind is ev.Untapped:
                self._taps += 1
                if "tapped" in (self._sba_parts or self._sba_reads()):
                    self._sba_version += 1  # (an Aura's "enchant tapped creature")
            if self._chars is not None and self._chars_reads != _NOTHING:
                self._chars_after(e, e.changes(), True)  # (no static ability reads: kept)
        if self.validate_caches:
            self.check_cached_characteristics()
            if self._settled == self._sba_version and not self.state.pending and (
                    self._sba_actions() or self._legend_groups_now()):
                raise StaleCache(f"after event {len(self.log) - 1}, state-based actions are "
                                 "due though no event since the last check changed what they "
                                 "look at (Registry.add_sba_check reads, Event.CHANGES)")

    def _sba_reads(self) -> frozenset[str]:
        """The parts of the state (beyond the permanents) that state-based actions look
        at: life, damage, players' standing; the zones once a token has existed (it
        ceases to exist there); what the registry's checks declare (all, if one doesn't)."""
        reads = self._sba_parts
        if reads is None:
            parts = {"life", "damage", "players"}
            if self._tokens:
                parts |= {"stack", "hand", "library", "graveyard", "exile"}
            for d in self._game_definitions():
                enchant = d.extras.get("enchant")  # an Aura's legality (CR 704.5m) reads
                if enchant is not None:           # what its enchant quality reads
                    reads = getattr(enchant.filter, "reads", None)
                    parts |= set(ev.STATE_PARTS) if reads is None \
                        else reads & frozenset(ev.STATE_PARTS)
            for check in self.live_sba_checks():
                declared = self.reg.sba_check_reads.get(check)
                parts |= set(ev.STATE_PARTS) if declared is None else declared
            reads = self._sba_parts = frozenset(parts)
        return reads

    def live_sba_checks(self) -> list[Callable[[Any], list[tuple[str, int, str]]]]:
        """The registry's state-based checks that can find something in this game: those
        that need no card in particular, and those whose cards (``Registry.add_sba_check``,
        ``cards``) have had an object in this game so far."""
        live = self._sba_live
        if live is None:
            reg = self.reg
            wanted = getattr(reg, "sba_check_cards", {})
            defs = self._game_definitions() if wanted else []
            live = self._sba_live = [
                check for check in getattr(reg, "sba_checks", [])
                if check not in wanted or any(wanted[check](d) for d in defs)]
        return live

    def _game_definitions(self) -> list[CardDef]:
        """The definitions of the cards that have had an object in this game so far, by name."""
        reg = self.reg
        return [d for n in sorted(self._names)
                if (d := reg.cards.get(reg.canonical(n))) is not None]

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
                self._sba_live = None  # (a check that needs this card may run now, and
                self._sba_parts = None  # an Aura's enchant quality may read more)
                self._game_facts.clear()
                self._tag_plans.clear()
                self._grantors = None

    def _chars_after(self, e: Event, ch: frozenset[str] | None, neutral: bool) -> None:
        """Forget the characteristics computed before ``e`` if ``e`` may have changed them:
        it changes permanents (``ch``, its ``Event.changes()``, is ``None``), or a part of
        the state that a static ability on the battlefield reads (``Static.reads``; one
        that didn't say reads every part but those of :data:`NEUTRAL_EVENTS`)."""
        reads = self._chars_reads
        if ch is None and (self._chars_plain or self._dependents is not None):
            touched = self._plain_after(e) if self._chars_plain else self._some_after(e)
            if touched is not None:
                self._chars_version += 1
                self._sba_version += 1
                self._idle_version += 1
                self._carry_facts(*touched)
                return
        if ch is None or (reads is None and not neutral) or (reads and not reads.isdisjoint(ch)):
            self._chars = None
            self._chars_version += 1
            self._sba_version += 1
            self._idle_version += 1
            if neutral:
                self._version += 1  # the caches of facts that depend on characteristics
        elif ch and self._chars is not None and type(e) in MOVES:
            self._chars.pop(e.obj, None)  # type: ignore[attr-defined]  # (a card that moved)

    def _plain_after(self, e: Event) -> tuple[list[int], list[int]] | None:
        """With plain characteristics kept (``_chars_plain``), bring them up to date after
        ``e``, an event that changes permanents, object by object if it is one that moves
        objects, creates them or changes their counters, and if no object it brings to the
        battlefield has a static ability or a characteristic-defining one: the objects that
        left and those that came (counters change no fact but power, toughness and
        loyalty); else ``None`` (then all are forgotten)."""
        cs = self._chars
        assert cs is not None
        kind = type(e)
        objs = self.state.objects
        gone: list[int] = []
        if kind in MOVES or kind is ev.LandPlayed:
            cs.pop(e.obj, None)  # type: ignore[attr-defined]
            gone.append(e.obj)  # type: ignore[attr-defined]
        elif kind is ev.CounterPlaced or kind is ev.CounterRemoved:
            o = objs.get(e.obj)  # type: ignore[attr-defined]
            if o is not None and o.zone == "battlefield":
                cs[o.id] = plain_chars(self.reg, o)  # (its power, toughness, loyalty)
            return gone, []
        elif kind is not ev.ObjectCreated and kind is not ev.TokenCreated:
            return None
        added: list[int] = []
        for oid in self.state.battlefield:
            if oid not in cs:
                o = objs[oid]
                if not self._plain_object(o):
                    return None
                cs[oid] = plain_chars(self.reg, o)
                added.append(oid)
        return gone, added

    def _some_after(self, e: Event) -> tuple[list[int], list[int]] | None:
        """With the characteristics of a board of statics that allow it kept
        (``_dependents``, :mod:`mtgk.rules.incremental`), bring them up to date after
        ``e``, an event that changes permanents, by computing the layers for the
        permanents it brings, puts counters on or gives or ends an effect of layer 6
        (grants) or 7 for, and the dependents alone, if it is one that moves objects,
        creates them, changes their counters or creates or ends effects, and if it
        brings or takes no permanent with a static ability: the objects that left and
        those that came (as :meth:`_plain_after`); else ``None`` (then all are
        forgotten)."""
        cs = self._chars
        deps = self._dependents
        assert cs is not None and deps is not None
        kind = type(e)
        s = self.state
        objs = s.objects
        cards = self.reg.cards
        gone: list[int] = []
        some: set[int] = set(deps)
        if kind in MOVES or kind is ev.LandPlayed:
            oid: int = e.obj  # type: ignore[attr-defined]
            old = cs.pop(oid, None)
            if getattr(e, "from_zone", "") == "battlefield":
                o = objs.get(oid)
                d = cards.get(old.card if old is not None else o.card if o else "")
                if d is not None and d.statics:
                    return None  # (what it gave other permanents ends)
                if oid in some:
                    deps.remove(oid)
                    some.discard(oid)
            gone.append(oid)
        elif kind is ev.CounterPlaced or kind is ev.CounterRemoved:
            o = objs.get(e.obj)  # type: ignore[attr-defined]
            if o is not None and o.zone == "battlefield":
                some.add(o.id)
        elif kind is ev.EffectCreated:
            x: Any = e
            if x.kind in APPLIERS and not effect_allows(x.kind):
                return None
            some.update(x.objs)
            self._effect_objs[x.effect] = list(x.objs)
        elif kind is ev.EffectsEnded:
            for i in e.effects:  # type: ignore[attr-defined]
                ended = self._effect_objs.pop(i, None)
                if ended is None:
                    return None
                some.update(ended)
        elif kind is not ev.ObjectCreated and kind is not ev.TokenCreated:
            return None
        added: list[int] = []
        for oid in s.battlefield:
            if oid not in cs:
                o = objs[oid]
                d = cards.get(o.card)
                if o.face_down or o.flags or (d is not None and d.statics):
                    return None  # (it may give other permanents something)
                added.append(oid)
                some.add(oid)
                if o.card in self.reg.dynamic_pt:
                    deps.append(oid)
        if not some:
            return gone, added
        only = [oid for oid in s.battlefield if oid in some]
        try:
            fresh, reads = compute_with_reads(s, self.reg, only, cs)
        except NotForSome:
            return None
        self._chars_reads = reads
        for oid in only:
            new = fresh[oid]
            old = cs.get(oid)
            if old is not None and (old.abilities != new.abilities or old.types != new.types):
                self._lists.clear()  # (a permanent kept in them changed)
            cs[oid] = new
            self._makers[1].pop(oid, None)
        return gone, added

    def _carry_facts(self, gone: list[int], added: list[int]) -> None:
        """After plain characteristics were brought up to date object by object
        (:meth:`_plain_after`: ``gone`` left the battlefield, ``added`` came), keep the
        facts about the permanents that stay true: the permanents with an ability or of a
        type (in battlefield order; validated mode compares them with a fresh look), and
        what each permanent makes as it is tapped for mana.  (The others, in
        :meth:`_chars_cache`, are forgotten, as with every computation.)"""
        lists = self._lists
        if lists:
            bf = self.state.battlefield
            cs = self._chars
            assert cs is not None
            if added and bf[len(bf) - len(added):] != added:
                lists.clear()  # (new permanents not last: looked for afresh)
            for key, found in list(lists.items()):  # (new lists: a caller may hold one)
                what, name = key
                found = [oid for oid in found if oid not in gone] if gone else list(found)
                for oid in added:
                    c = cs[oid]
                    if name in (c.abilities if what == "\0with" else c.types):
                        found.append(oid)
                lists[key] = found
            if self.validate_caches:
                for (what, name), found in lists.items():
                    fresh = [oid for oid in bf
                             if name in (cs[oid].abilities if what == "\0with" else cs[oid].types)]
                    if fresh != found:
                        raise StaleCache(f"after event {len(self.log) - 1}, the permanents "
                                         f"kept as {what[1:]} {name!r} differ from a fresh look")
        makers = self._makers[1]
        for oid in gone:
            makers.pop(oid, None)

    def mana_makers(self) -> dict[int, Any]:
        """What each permanent makes as it is tapped for mana (filled in by
        :mod:`mtgk.rules.payment`), kept this turn while the characteristics stay (and
        carried over their updates object by object)."""
        turn = self.state.turn
        self._all_chars()
        if self._makers[0] != turn:
            self._makers = (turn, {})
        return self._makers[1]

    def _plain_object(self, o: Obj) -> bool:
        """Whether permanent ``o`` has its printed characteristics as far as it is
        concerned: face up, no flags, no static ability and no characteristic-defining
        ability of power and toughness."""
        if o.face_down or o.flags or o.card in self.reg.dynamic_pt:
            return False
        d = self.reg.cards.get(o.card)
        return d is not None and not d.statics

    def _plain_board(self) -> bool:
        """Whether no static ability, characteristic-defining ability or continuous effect
        applies to any permanent now (see ``_chars_plain``)."""
        s = self.state
        if any(x.kind in APPLIERS for x in s.effects):
            return False
        objs = s.objects
        return all(self._plain_object(objs[oid]) for oid in s.battlefield)

    def check_cached_characteristics(self) -> None:
        """Validated mode (scenarios and tests run it after every event): the
        characteristics the engine kept across the last event must equal a fresh
        computation.  If not, a static ability on the battlefield reads a part of the
        state it didn't declare in ``Static.reads`` (or a CDA in ``pt_reads``), or an
        event type's ``CHANGES`` is too narrow; :class:`StaleCharacteristics` names them."""
        cs = self._chars
        if cs is None:
            return
        fresh = compute(self.state, self.reg, check_layers=True)
        for oid in self.state.battlefield:
            old, new = cs.get(oid), fresh.get(oid)
            if old is None or new is None or chars_key(old) != chars_key(new):
                last = self.log[-1].event if self.log else None
                diff = [f"{slot} {getattr(old, slot, None)!r} -> {getattr(new, slot, None)!r}"
                        for slot in CHARS_FIELDS
                        if slot != "shared" and getattr(old, slot, None) != getattr(new, slot, None)]
                changed = last.changes() if last else None
                suspects = undeclared_readers(self.state, self.reg, oid, changed)
                who = (f"; declared without it: {'; '.join(suspects)}" if suspects else "")
                raise StaleCharacteristics(
                    f"after event {len(self.log) - 1} ({type(last).__name__}, which changes "
                    f"{sorted(changed or ()) if last else '?'}), the characteristics "
                    f"kept for #{oid} {self.state.objects[oid].card} are stale "
                    f"({'; '.join(diff)}): a static ability or characteristic-defining "
                    f"ability on the battlefield reads a part of the state it doesn't "
                    f"declare (Static.reads, pt_reads){who}")

    def _all_chars(self) -> dict[int, Chars]:
        """The characteristics of every permanent (computed if need be): for loops over
        the battlefield, where each permanent is sure to be there."""
        cs = self._chars
        if cs is None:
            cs, self._chars_reads = compute_with_reads(self.state, self.reg)
            self._chars = cs
            self._chars_plain = self._plain_board()
            self._dependents = None if self._chars_plain else board_dependents(
                self.state, self.reg, cs)
            self._effect_objs = {x.id: list(x.objs) for x in self.state.effects}
            self.full_computations += 1
            self._lists = {}
            self._makers = (-1, {})
        return cs

    def static_hooks(self, attr: str) -> list[tuple[int, Any]]:
        """``(source, hook)`` for each static ability of a permanent on the battlefield
        that has the hook ``attr`` (``cost_change``, ``forbids_cast``, ``extra_mana``,
        ``enters_tapped``, ``as_though_haste`` ...) and that its source has now; cached
        until the next event that can change characteristics."""
        cache = self._chars_cache()
        out: list[tuple[int, Any]] | None = cache.get(attr)
        if out is None:
            if attr not in STATIC_HOOKS:
                raise KeyError(f"static_hooks: {attr!r} is no static hook (register it with "
                               "mtgk.rules.definitions.register_static_hook)")
            live = cache.get("\0statics")
            if live is None and self._chars_plain and not any(
                    isinstance(st, Static) for _w, _k, st in self.meaning_abilities()):
                live = cache["\0statics"] = []  # (no permanent has a static ability)
            if live is None:  # each static ability a permanent has now, with its source
                cs = self._all_chars()
                live = cache["\0statics"] = [
                    (src, st) for src in self.state.battlefield
                    for key, st in self.definition(src).statics if key in cs[src].abilities]
                for word, _key, st in self.meaning_abilities():  # a keyword's static hooks
                    if isinstance(st, Static):
                        live.extend((src, st) for src in self.permanents_with(word)
                                    if not any(a is st and k in cs[src].abilities
                                               for k, a in self.definition(src).statics))
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

    def meaning_keywords(self) -> list[str]:
        """The declared keywords that stand for abilities (persist:
        :data:`mtgk.rules.definitions.KEYWORD_MEANINGS`) and that a card in this game so far
        lists or names in its Oracle text ("creatures you control have persist"), in the
        order declared: the ones whose abilities the engine looks for."""
        found = self._game_facts.get(("\0meanings", False))
        if found is None:
            cards = self.reg.cards
            texts = [(d.facts.oracle_text.lower(), [k.lower() for k in d.facts.keywords])
                     for n in sorted(self._names) for d in [cards.get(n)] if d is not None]
            found = self._game_facts[("\0meanings", False)] = [
                kw for kw in KEYWORD_MEANINGS
                if any(kw in words or kw in text for text, words in texts)]
        return found

    def meaning_abilities(self) -> list[tuple[str, str, Any]]:
        """``(keyword, key, ability)`` for each ability the keywords of
        :meth:`meaning_keywords` stand for."""
        return [(word, key, ab) for word in self.meaning_keywords()
                for key, ab in KEYWORD_MEANINGS[word].items()]

    def permanents_of_type(self, card_type: str) -> list[int]:
        """The permanents of ``card_type`` now, in battlefield order (remembered while the
        characteristics hold)."""
        return self._permanents(("\0type", card_type), lambda c: card_type in c.types)

    def _permanents(self, key: tuple[str, str], test: Callable[[Chars], bool]) -> list[int]:
        cs = self._all_chars()
        found: list[int] | None = self._lists.get(key)
        if found is None:
            found = self._lists[key] = [oid for oid in self.state.battlefield if test(cs[oid])]
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

