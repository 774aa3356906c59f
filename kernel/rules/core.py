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

from mtgk.log import events as ev
from mtgk.log.answers import PASS as PASS  # (re-exported: the engine passes with it)
from mtgk.log.events import Envelope, Event, ref_player
from mtgk.rules.chars import Chars, printed
from mtgk.rules.definitions import CardDef, Registry
from mtgk.rules.errors import blame
from mtgk.rules.kept import KEYWORD_ZONE, MOVES, KeptFacts, StaleCache
from mtgk.rules.kept import plain as plain  # (re-exported: the parts use it)
from mtgk.rules.layers import View
from mtgk.rules.seats import opponents_of, variant_event
from mtgk.rules.state import PROJECTORS, StackItem, new_state

if TYPE_CHECKING:
    from mtgk.rules.engine import Game

log = structlog.get_logger("mtgk.rules.engine")


DEFAULT_MAX_EVENTS = 1_000_000
"""The event budget of a game unless set (:attr:`GameCore.max_events`); read it here, not
as ``Game.max_events``, which in a compiled kernel is the attribute's descriptor."""

class _Silent:
    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *a, **k: None


_SILENT = _Silent()


BASIC_MANA = {"Plains": "W", "Island": "U", "Swamp": "B", "Mountain": "R", "Forest": "G"}


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

    def __init__(self, kind: str, player: int, options: Sequence[Any] | None, prompt: str = "",
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




def _listed(answer: Any, options: Sequence[Any]) -> bool:
    """Whether ``answer`` is one of ``options`` itself (not an equal copy); a sequence
    that makes its options as they are asked for (``legal_actions``) says so itself."""
    listed = getattr(options, "listed", None)
    if listed is not None:
        return bool(listed(answer))
    for o in options:
        if o is answer:
            return True
    return False


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


class GameCore(KeptFacts):
    """The fields of a game and the parts every rule uses: events, characteristics, decisions."""

    def __init__(self, registry: Registry, players: Sequence[str], seed: int = 0,
                 agents: Sequence[Agent] | None = None, profile: str = "lorwyn-2007",
                 start: bool = True, variant: str = "",
                 teams: Sequence[Sequence[int]] = ()) -> None:
        self.reg = registry
        # declared once, in KeptFacts: mypyc's garbage-collector support visits an attribute
        # once per class that declares it, and one seen twice is freed while still in use
        self.state = new_state()
        self.log = []
        self.agents: list[Agent] = list(agents) if agents else [_Pass() for _ in players]
        self.seed = seed
        self._cause: list[int] = [-1]
        self._init_kept()
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
        self._setting_up = False  # inside setting_up(): events trigger nothing
        self._lki: dict[int, tuple[int, Chars | None]] = {}
        #: the ids below this are taken by moves happening at once (:meth:`move_together`)
        self._id_floor = 0
        #: the permanents entering the battlefield at once with the one entering now
        #: (:meth:`entering_together`)
        self._together: tuple[int, ...] = ()
        self.listeners: list[Callable[[Envelope], None]] = []
        # what a card module or plugin keeps about this game while it lives (a key names its
        # owner; never cleared): a compiled Game cannot be weakly referenced
        self.memo: dict[str, Any] = {}
        #: how many answers the agents have given that were legal (the decisions with one
        #: legal answer, which are not asked, not counted): a decision's ordinal
        self.asked = 0
        #: where a driver may resume this game (:mod:`mtgk.rules.checkpoints`): ``None``
        #: unless a :class:`~mtgk.stepper.Stepper` that forks asked for them
        self.checkpoints: list[Any] | None = None
        #: the step a top-level round of priority is in (``turns.turn_from`` sets it):
        #: ``(step, turn, active, combat_skipped, cleanup_player)``, else ``None``
        self._round_ctx: tuple[str, int, int, bool, int] | None = None
        self.max_turns = 200  # (set by ``run``)
        if start:
            self.emit(ev.GameStarted(players=tuple(players), seed=seed, profile=profile))
            game_variant = variant_event(len(players), variant, teams)
            if game_variant is not None:  # a multiplayer game (none in a two-player one)
                self.emit(game_variant)

    def diag(self) -> Any:
        """The kernel's diagnostics logger for this game (structlog), bound to its seed;
        silent unless structlog is configured (``mtgk -v``, :func:`mtgk.diag.configure`)."""
        if not structlog.is_configured():
            return _SILENT
        return log.bind(seed=self.seed)

    def __repr__(self) -> str:
        return (f"Game(players={[p.name for p in self.state.players]!r}, seed={self.seed}, "
                f"events={len(self.log)})")

    # ------------------------------------------------------------------ events
    max_events: int = DEFAULT_MAX_EVENTS
    """The event budget: a game that reaches this many events without ending (a card
    looping forever, say) is ended there by ``GameEnded(winner=-1, reason="event-budget")``.
    Deterministic, unlike a wall clock; a log's header records it as ``meta["max_events"]``
    (:func:`mtgk.games.replay.run_from_header`).  The longest reference game has 1,872 events."""

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
        seen: tuple[Any, bool, bool] = (None, True, True)
        looked: list[Any] = []  # look-back abilities found before the event, triggered after
        s = self.state
        if not (self._setting_up or together):
            tag = e.TAG
            plans = self._tag_plans.get(tag)
            if plans is None:
                plans = self._trigger_plans(tag)
            found = self._tag_cards.get(tag)
            if found is None or found[0] is not plans:  # whether a card in the game has one
                found = self._tag_cards[tag] = (
                    plans, any(b or z == KEYWORD_ZONE for z, b, _g in plans[0]),
                    any(b or z == KEYWORD_ZONE for z, b, _g in plans[1]))
            seen = found
            if plans[0] and (seen[1] or s.effects or self._grantors is None or self._grantors):
                # (else no card in the game has one, and no permanent can have been granted
                # another card's triggered ability: :meth:`_grants_possible`)
                # look-back triggers (leaves-the-battlefield) are found against the state
                # before the event, and trigger after it, caused by it
                self._triggers(plans[0], e, why, before=True, collect=looked)
        seq = len(self.log)
        env = Envelope(seq=seq, cause=why, event=e)
        left = kind in MOVES and e.from_zone == "battlefield"  # type: ignore[attr-defined]
        if left and not together:
            o = s.objects.get(e.obj)  # type: ignore[attr-defined]
            if o is not None:
                self._lki[o.id] = (o.controller, self.chars(o.id))
        self.log.append(env)
        first_new = s.next_id
        fold_in = PROJECTORS.get(kind)  # (:func:`~mtgk.rules.state.apply`, inlined)
        if fold_in is not None:
            fold_in(s, e)
        if s.next_id != first_new:
            self._new_objects(first_new)
        self._forget_after(e, kind)
        for fn in self.listeners:  # before any event this one triggers: in log order
            try:
                fn(env)
            except Exception as exc:
                self._foreign = exc
                raise
        if left and s.effects:
            self._source_left(e.obj, seq)  # type: ignore[attr-defined]
        if looked:
            self._triggered_after(looked, seq)
        if plans is not None:  # (not setting up, nor one of several moves at once)
            if plans[1] and (seen[2] or s.effects or self._grantors is None or self._grantors):
                self._triggers(plans[1], e, seq, before=False)
            if s.effects:
                self._delayed_triggers(e, seq)
        return seq

    def setting_up(self) -> _SetupScope:
        """``with game.setting_up():`` -- events emitted inside set up a position (a
        scenario's setup): they trigger nothing."""
        return _SetupScope(self)

    def caused(self, seq: int) -> _CauseScope:
        """``with game.caused(seq):`` -- events emitted inside have ``seq`` as cause."""
        return _CauseScope(self, seq)

    def card_failed(self, error: Exception, card: str, ability: Any, part: str) -> NoReturn:
        """Called with the exception raised as the engine ran ``card``'s code (``ability``
        and ``part``: which, see :func:`mtgk.rules.effects.blame`): raise it as a
        :class:`~mtgk.rules.effects.CardError` naming the card, its ability and its set --
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

    def view(self) -> View:
        return View(self.state, self.reg, self._all_chars())

    def card(self, oid: int) -> CardDef:
        """The definition of ``oid``'s card (the physical card: what is cast, its faces and
        costs).  What a permanent *does* is :meth:`definition`."""
        name = self.state.objects[oid].card
        return self.reg.cards.get(name) or self.reg[name]

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
        :meth:`~mtgk.rules.definitions.Registry.token_name`)."""
        p = ref_player(ref)
        if p is not None:
            return self.state.players[p].name
        o = self.state.objects.get(ref)
        return self.reg.token_name(o.card) if o else f"#{ref}"

    def opponent(self, player: int) -> int:
        """``player``'s first opponent in turn order (the opponent, in a two-player game)."""
        return opponents_of(self.state, player)[0]

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
        if d.kind != "priority" and d.options is not None and len(d.options) == 1 \
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
            options = d.options
            try:
                if d.kind == "priority" and options is not None \
                        and ((len(options) == 1 and options[0] is answer)
                             or _listed(answer, options)):
                    # one of the actions the engine listed (legal_actions): legal as it is
                    choice = answer  # (validated mode checks the listed: KeptFacts.confirm_listed)
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
            self.asked += 1
            if not (options is not None and len(options) == 1 and choice == options[0]):
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


    # methods of the parts (mtgk.rules.parts) this core calls; stubs here rather than under
    # `if TYPE_CHECKING:`, which mypyc cannot compile in a class body
    def _source_left(self, oid: int, seq: int) -> None:
        raise NotImplementedError  # defined by another part

    def _delayed_triggers(self, e: Event, seq: int) -> None:
        raise NotImplementedError  # defined by another part

    def _trigger_plans(self, tag: str) -> tuple[list[Any], list[Any]]:
        raise NotImplementedError  # defined by another part

    def _triggers(self, plan: list[Any], e: Event, seq: int, before: bool,
                  collect: list[Any] | None = None) -> None:
        raise NotImplementedError  # defined by another part

    def _triggered_after(self, found: list[Any], seq: int) -> None:
        raise NotImplementedError  # defined by another part
