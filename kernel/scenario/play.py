"""Playing a scenario: :class:`ScenarioRun`, the scripted agent that answers the engine's
decisions from the scenario's actions and answers, and :func:`run_scenario`.

A scenario's setup is recorded as the first events of an ordinary game log
(:class:`~mtgk.scenario.board.ScenarioBoard`); its actions are played by the run,
which answers the engine's decisions; its expectations are checked against the live
state and the log (:mod:`mtgk.scenario.expectations`); and, always, the log is replayed
from the start and must give exactly the live state.

How actions become the engine's decisions
-----------------------------------------
The engine asks; the runner answers from the scenario.  Action ``i`` is the
*current* one.  A ``cast``, ``play``, ``activate``, ``attack`` or ``block`` is
handed to the engine as the answer to a decision (priority, or the declaration
of attackers or blockers) and is then *under way* until a player next receives
priority -- so the decisions it leads to (targets of the triggers it causes, a
card chosen as a spell is cast) are answered from its ``answers``.  A
``resolve`` or ``pass_until`` passes priority until its goal is reached at a
moment a player receives priority.  A ``check`` runs when a player would next
receive priority (after the decisions of the action before it).  The next
action starts when the current one is done; then, in strict mode, an answer of
the finished action that no decision used fails the scenario.

Implementation choices the spec leaves open (docs/scenarios.md lists them all):

* Setup objects are created after the turn begins, so ``sick`` is exactly as
  written.  Nothing is checked before the first action that is not a ``check``:
  checks written before it see the setup as it is, and a scenario without such
  an action never starts play (no state-based action is ever checked).
* A name in an action resolves to an alias, a player, or an object with that
  name (battlefield, then stack, hand, graveyard, exile, library): the first for
  which the action is legal; an expectation's name must match exactly one
  object in the first zone (in that order) where it matches any.  A token is
  named by its printed name (:func:`~mtgk.scenario.board.printed_name`).
* Answers without ``player:`` belong to the acting player of their action; on
  ``resolve`` and ``pass_until`` (which have no acting player) they serve
  whoever decides.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mtgk.cards.definitions import Registry
from mtgk.cards.errors import CardError
from mtgk.log import events as ev
from mtgk.rules.engine import STEPS, Decision, Game, RulesError, StaleCache
from mtgk.rules.seats import active_team, defending_players, next_turn, team_of
from mtgk.rules.state import encode_state, fold
from mtgk.scenario.actions import attack_choice, block_choice, engine_action
from mtgk.scenario.answers import (
    ArrangementPlan,
    answer_count,
    answer_kinds,
    convert_answer,
    pick_option,
    plan_arrangement,
)
from mtgk.scenario.board import ScenarioBoard, ScenarioFailed
from mtgk.scenario.expectations import check_expectation
from mtgk.scenario.model import OPENING_HANDS, Action, Answer, Expectation, PassUntil, Scenario
from mtgk.stepper import Stepper

GAME_OVER_TURNS = 20
"""``pass_until: game_over`` fails if the game has not ended within this many turns."""

DECLARATIONS = ("attackers", "blockers")
"""Decision kinds driven by ``attack`` / ``block`` actions, not by answers."""


_DONE = object()
"""What :meth:`ScenarioRun.decide` gives once the scenario has no action left: the run
stops answering (the game is left where it is)."""


@dataclass
class ScenarioResult:
    """What playing one scenario gave: passed or not and why, the log and the game."""

    name: str
    file: str
    passed: bool
    reason: str = ""
    log: list[ev.Envelope] = field(default_factory=list)
    game: Game | None = None
    invalid: bool = False  # the scenario can't be run (e.g. a card is unknown): a bad file
    #: the exception a card's code (or the engine) raised, if that is why it failed: the
    #: traceback ``mtgk -v scenario`` prints
    error: BaseException | None = None

    def __repr__(self) -> str:
        extra = f", reason={self.reason!r}" if self.reason else ""
        return f"ScenarioResult({self.name!r}, passed={self.passed}{extra})"


def unsupported(sc: Scenario) -> str:
    """Why the engine can't play ``sc`` yet ("" if it can)."""
    steps = [("turn.step", sc.turn.step)] + [
        (f"{a.where}.pass_until.step", a.pass_until.step) for a in sc.actions
        if isinstance(a.pass_until, PassUntil)]
    for where, step in steps:
        if step not in STEPS and not (where == "turn.step" and step == OPENING_HANDS):
            return f"not supported yet: {where}: the engine has no {step} step"
    return ""


class ScenarioRun(ScenarioBoard):
    """One scenario being played: the board (the game and its names) and the scripted
    agent that answers its decisions."""

    def __init__(self, sc: Scenario, reg: Registry) -> None:
        super().__init__(sc, reg, self)
        self.i = 0  # the current action
        self.under_way = False  # the current action was handed to the engine
        self.actors: dict[int, int] = {}  # action index -> who took it (else: anyone)
        self.checked: set[int] = set()  # actions whose unused answers were looked at
        self.used_by: dict[int, set[int]] = {}  # action index -> indexes of its used answers
        self.started = False  # the current action has been looked at in play
        self.passed = False  # the runner has passed priority for the current action
        self.action_start = 0  # the log's length as the current action started
        self.start_pos: tuple[int, int] = (0, 0)  # (turn, step index) then
        self.passers: list[int] = []  # players who passed in succession, so far
        self.pass_mark = -1  # the log's length at the last pass
        self.declared: set[tuple[int, str]] = set()  # (turn, "attackers"/"blockers") asked
        self.plan: ArrangementPlan | None = None  # the arrangement under way
        self.mulligans: dict[int, int] = {}  # opening hands: player -> mulligans taken
        self.keeping: Action | None = None  # the keep whose cards go to the bottom now
        self.retarget: tuple[int, Answer] | None = None  # a new_targets answer's targets
        #: a `block` of several defending players: action index -> the blockers declared
        self.block_keys: dict[int, set[str]] = {}
        #: pass_until: (log position, turn, steps begun) since the current action started
        self.scan: tuple[int, int, set[tuple[int, str]]] = (0, 0, set())

    # ------------------------------------------------------------ running
    def run(self) -> None:
        """Set up, then play the actions (raises :class:`ScenarioFailed`)."""
        self.setup()
        g = self.game
        why = unsupported(self.sc)
        if why:
            raise ScenarioFailed(why)
        self._next()  # checks before the first action see the setup as it is
        if self.i >= len(self.sc.actions):
            # nothing to play: the game is in its step, but no state-based action is ever
            # checked (the StepBegan is the one play would begin with: the log re-runs)
            with g.setting_up():
                g.emit(ev.StepBegan(step=self.sc.turn.step))
            self._close()
            return
        active = self.names.index(self.sc.turn.active)

        def play(agents: Sequence[Any], watch: Callable[[Game], None]) -> None:
            g.agents = list(agents)
            watch(g)
            if self.sc.turn.step == OPENING_HANDS:
                g.take_mulligans(active, g.log[-1].seq if g.log else -1)
                g.run(first=active, turn=self.sc.turn.number)
            else:
                g.turn_from(self.sc.turn.step, self.sc.turn.number, active, resume=True)
                g.run(first=next_turn(g.state, active), turn=self.sc.turn.number + 1)

        # the game is driven by a stepper: each decision is answered here (by the game's
        # agents: this run, unless a test put others in its place), until the scenario
        # has no action left (then the game is left where it is) or the game ends
        deciders = list(g.agents)
        stepper = Stepper.driving(play, g.reg, None, [None] * len(self.names),
                                  forced=self.forced)
        while stepper.decision is not None:
            d = stepper.decision
            who = deciders[d.player] if 0 <= d.player < len(deciders) else self
            answer = who.decide(g, d)
            if answer is _DONE:
                break
            try:
                stepper.answer(answer)
            except RulesError as err:
                getattr(who, "refused", self.refused)(g, d, err)
        if stepper.over:
            self._game_over()
        self._close()

    def _next(self) -> Action | None:
        """The current action, after running the checks that come first."""
        while self.i < len(self.sc.actions):
            a = self.sc.actions[self.i]
            if a.verb != "check":
                return a
            if a.refused:
                raise self.fail(a.where, "a check can't be refused (it is not a game action)")
            for exp in a.check:
                self.check(exp)
            self._advance()
        return None

    def _advance(self) -> None:
        """The current action is done; the next one starts.  The action before the
        current one can no longer serve decisions (see :meth:`_reachable`): in strict
        mode, none of its answers may be left unused."""
        before = self._before(self.i)
        if before is not None and self.sc.actions[self.i].verb != "check":
            self._unused(before)  # (a check between an action and its resolve: not yet)
        self.i += 1
        self.under_way = False
        self.started = False
        self.passed = False
        self.plan = None

    def _before(self, k: int) -> int | None:
        """The last action before ``k`` that is not a ``check``."""
        k -= 1
        while k >= 0 and self.sc.actions[k].verb == "check":
            k -= 1
        return k if k >= 0 else None

    def _after(self, k: int) -> int | None:
        """The first action after ``k`` that is not a ``check``."""
        k += 1
        while k < len(self.sc.actions) and self.sc.actions[k].verb == "check":
            k += 1
        return k if k < len(self.sc.actions) else None

    def _reachable(self) -> list[int]:
        """The actions whose answers serve a decision now: the current one; while it is
        under way (handed to the engine), then the one after it (an attack's trigger
        answered on the ``pass_until`` that follows); while it passes priority
        (``resolve``, ``pass_until``), then the one before it (a spell's choices made as
        it resolves, answered on its ``cast``)."""
        if self.i >= len(self.sc.actions):
            return []
        other = self._after(self.i) if self.under_way else self._before(self.i)
        return [self.i] if other is None else [self.i, other]

    def _unused(self, k: int) -> None:
        """Strict: action ``k``'s answers must all have been used."""
        if k in self.checked:
            return
        self.checked.add(k)
        if not self.sc.strict:
            return
        a = self.sc.actions[k]
        used = self.used_by.get(k, set())
        left = [ans for n, ans in enumerate(a.answers) if n not in used]
        if left:
            ans = left[0]
            raise self.fail(ans.where or a.where, f"answer {{{ans.kind}: {ans.value!r}}} "
                            "was never used (strict)")

    def _close(self) -> None:
        """The scenario's actions are over: every answer must have been used (strict)."""
        for k in range(min(self.i + 1, len(self.sc.actions))):
            self._unused(k)

    def _start(self) -> None:
        """The current action is looked at in play for the first time: remember where."""
        if not self.started:
            g = self.game
            self.started = True
            self.action_start = len(g.log)
            self.start_pos = self._pos()
            self.scan = (len(g.log), g.state.turn, set())

    def _pos(self) -> tuple[int, int]:
        s = self.game.state
        return (s.turn, STEPS.index(s.step) if s.step in STEPS else -1)

    def _ended(self) -> str:
        """``at event N (what ended the game)``: the game's end, for messages."""
        from mtgk.render import Renderer
        g = self.game
        r = Renderer(self.reg, None, g.state)
        end = next((e for e in reversed(g.log) if isinstance(e.event, ev.GameEnded)), None)
        if end is None:
            return "(the game is over)"
        lost = [r.describe(e) for e in g.log if isinstance(e.event, ev.PlayerLost)]
        return f"at event {end.seq} ({'; '.join([*lost, r.describe(end)])})"

    def _game_over(self) -> None:
        """The game ended during the current action: the actions left can't be taken (but
        checks run); an action whose goal was not reached fails."""
        ended = self._ended()
        if self.under_way:
            self._advance()
        elif self.i < len(self.sc.actions):
            a = self.sc.actions[self.i]
            if a.verb == "resolve" or a.pass_until == "game_over":
                # the game ended as things resolved: the resolve stops there (third edition)
                self._advance()
            elif isinstance(a.pass_until, PassUntil):
                raise self.fail(a.where, f"the game ended {ended} before turn "
                                f"{a.pass_until.turn}'s {_step_text(a.pass_until.step)}")
        left = self._next()
        if left is not None:
            raise self.fail(left.where, f"the game ended {ended} before this action")

    def decide(self, game: Game, d: Decision) -> Any:
        if d.kind == "priority":
            return self._priority(d)
        return self._answer(d)

    # priority ---------------------------------------------------------------
    def _priority(self, d: Decision) -> Any:
        g = self.game
        s = g.state
        p = d.player
        if self.pass_mark >= 0 and any(not isinstance(e.event, ev.DecisionMade)
                                       for e in g.log[self.pass_mark:]):
            self.passers = []  # something happened since: a new succession of passes
        if self.under_way:
            self._advance()
        while True:
            a = self._next()
            if a is None:
                return _DONE
            self._start()
            verb = a.verb
            if verb in ("cast", "play", "activate"):
                actor = self.player(a.player) if a.player else s.active
                if p != actor:
                    return self._pass_for(a, p, actor)
                out = self._do(a, p)
                if out is None:
                    continue  # refused as expected; next action
                return out
            if verb == "resolve":
                out = self._resolve(a, p)
            elif verb == "pass_until":
                out = self._pass_until(a, p)
            elif verb in ("attack", "block"):
                out = self._combat(a, p)
            else:
                raise self.fail(a.where, f"unknown action {verb!r}")
            if out is not None:
                return out

    def _pass(self, p: int) -> Any:
        self.passed = True
        self.passers.append(p)
        self.pass_mark = len(self.game.log)
        return ["pass"]

    def _pass_for(self, a: Action, p: int, actor: int) -> Any:
        """``p`` passes so that ``actor`` gets priority -- unless ``actor`` has passed
        since anything last happened (then everyone would have passed: the top of the
        stack would resolve, or the step end)."""
        if actor in self.passers:
            raise self.fail(a.where, f"{self.names[actor]} can't get priority now without "
                            "the top of the stack resolving or the step ending (every player "
                            "would have passed in succession)")
        return self._pass(p)

    def _resolved_count(self) -> int:
        return sum(1 for e in self.game.log[self.action_start:]
                   if isinstance(e.event, ev.StackItemResolved | ev.StackItemCountered))

    def _resolved(self, a: Action) -> bool:
        if a.resolve == "all":
            return not self.game.state.stack
        return isinstance(a.resolve, int) and self._resolved_count() >= a.resolve

    def _resolve(self, a: Action, p: int) -> Any:
        s = self.game.state
        if a.refused and not self.passed:
            if s.stack:
                raise self.fail(a.where, "resolve was accepted but should be refused (the "
                                "stack is not empty)")
            self._advance()  # nothing to resolve: refused
            return None
        if self._resolved(a):
            self._advance()
            return None
        if not s.stack:
            raise self.fail(a.where, f"only {self._resolved_count()} object(s) resolved; the "
                            "stack is empty")
        return self._pass(p)

    def _began_since(self, turn: int, step: str) -> bool:
        """Whether ``step`` of ``turn`` has begun since the current action started."""
        pos, now, began = self.scan
        log = self.game.log
        for env in log[pos:]:
            e = env.event
            if isinstance(e, ev.TurnBegan):
                now = e.turn
            elif isinstance(e, ev.StepBegan):
                began.add((now, e.step))
        self.scan = (len(log), now, began)
        return (turn, step) in began

    def _pass_until(self, a: Action, p: int) -> Any:
        pu = a.pass_until
        if pu == "game_over":
            if a.refused:
                raise self.fail(a.where, "pass_until: game_over can't be refused")
            turns = self.game.state.turn - self.start_pos[0]
            if turns >= GAME_OVER_TURNS:
                here = self.game.state.step.replace("_", " ")
                raise self.fail(a.where, f"the game has not ended within {GAME_OVER_TURNS} "
                                f"turns (it is in turn {self.game.state.turn}'s {here} step)")
            return self._pass(p)
        assert pu is not None
        target = (pu.turn, STEPS.index(pu.step))
        now = self._pos()
        if now == target or self._began_since(pu.turn, pu.step):
            if a.refused:
                raise self.fail(a.where, "pass_until was accepted but should be refused")
            self._advance()
            return None
        if now > target:
            if self.start_pos > target:
                if a.refused:
                    self._advance()
                    return None
                here = f"turn {now[0]}'s {_step_text(STEPS[now[1]])}" if now[1] >= 0 else ""
                raise self.fail(a.where, f"turn {pu.turn}'s {_step_text(pu.step)} has already "
                                f"passed (the game is in {here})")
            raise self.fail(a.where, f"the game passed turn {pu.turn} without a "
                            f"{_step_text(pu.step)}{_SKIPPED.get(pu.step, '')}")
        if a.refused:
            raise self.fail(a.where, f"pass_until was accepted but should be refused (turn "
                            f"{pu.turn}'s {_step_text(pu.step)} is still to come)")
        return self._pass(p)

    def _do(self, a: Action, p: int) -> list[Any] | None:
        g = self.game
        before_len, before = len(g.log), encode_state(g.state)
        try:
            action = engine_action(self, a, p)
        except (RulesError, ScenarioFailed) as err:
            if not a.refused:
                raise self.fail(a.where, f"illegal action: {err}") from None
            if len(g.log) != before_len or encode_state(g.state) != before:
                raise self.fail(a.where, "a refused action changed the game") from None
            self._advance()
            return None
        if a.refused:
            raise self.fail(a.where, f"{a.verb} {a.card} was accepted but should be refused")
        self.under_way = True
        self.actors[self.i] = p
        self.passers = []
        return action

    # attack and block ---------------------------------------------------------
    def _combat(self, a: Action, p: int) -> Any:
        """An ``attack`` / ``block`` action when a player receives priority: pass on to
        its declaration step; once that step has begun (the engine asks for the
        declaration as it begins, if any creature could make one), the action is judged
        here: it is illegal now, so it holds only with ``refused: true``."""
        s = self.game.state
        now = STEPS.index(s.step) if s.step in STEPS else -1
        attackers = s.combat.attackers if s.combat is not None else {}
        if a.verb == "attack":
            before = now < STEPS.index("declare_attackers")
        else:
            before = now < STEPS.index("declare_attackers") or (
                now == STEPS.index("declare_attackers") and bool(attackers))
        if before:
            if s.stack:
                raise self.fail(a.where, "the stack must be empty to move to combat")
            return self._pass(p)
        reason = self._too_late(a)
        if reason is None:  # ``block: {}`` where no blocks were declared: that is so
            if a.refused:
                raise self.fail(a.where, "block was accepted but should be refused")
            self._advance()
            return None
        if a.refused:
            self._advance()
            return None
        raise self.fail(a.where, f"illegal {a.verb}: {reason}")

    def _too_late(self, a: Action) -> str | None:
        """Why ``a`` can't be taken now that its declaration step has begun (``None``: a
        ``block: {}`` with no blocks declared, which holds)."""
        g = self.game
        s = g.state
        what = "attackers" if a.verb == "attack" else "blockers"
        rule = "508.1" if a.verb == "attack" else "509.1"
        if (s.turn, what) in self.declared:
            return f"{what} have already been declared this combat (rule {rule})"
        active = s.active
        try:
            if a.verb == "attack":
                if a.player and self.player(a.player) not in active_team(s):
                    return (f"{a.player} is not the active player: only the active player "
                            "declares attackers (rule 508.1)")
                choice = attack_choice(self, a, active, [], [])
                g.check_attackers(active, choice)
                return ("attackers are declared as the declare attackers step begins "
                        "(rule 508.1)")
            defenders = defending_players(s)
            defender = defenders[0] if defenders else active
            if a.player and self.player(a.player) not in defenders:
                return (f"{a.player} is not the defending player: only the defending player "
                        "declares blockers (rule 509.1)")
            if not a.blocks:
                return None
            attackers = s.combat.attackers if s.combat is not None else {}
            if not attackers:
                first = next(iter(a.blocks))
                return f"{first} can't block: no creature is attacking (rule 509.1)"
            choice = block_choice(self, a, [], list(attackers))
            g.check_blockers(defender, choice)
            return "blockers are declared as the declare blockers step begins (rule 509.1)"
        except RulesError as err:
            return str(err)
        except ScenarioFailed as err:
            return str(err)

    def _declare(self, d: Decision) -> Any:
        """The engine asks for attackers (blockers): the next action, if it is an
        ``attack`` (``block``), declares them; one refused as it should be leaves the
        declaration to the action after it."""
        s = self.game.state
        verb = "attack" if d.kind == "attackers" else "block"
        ctx = d.context if isinstance(d.context, dict) else {}
        defenders: list[int] = list(ctx.get("defenders", []))
        if not defenders or ctx.get("last"):
            self.declared.add((s.turn, d.kind))
        if defenders and self.under_way and self.i < len(self.sc.actions) and \
                self.sc.actions[self.i].verb == "block" and \
                self.actors.get(self.i) not in team_of(s, d.player):
            self._advance()  # the previous defending player's block is done
        while True:
            a = self._peek()
            if a is None or a.verb != verb:
                return []  # no attackers (no blocks)
            if defenders and not a.refused and a.player and \
                    self.player(a.player) in defenders and \
                    self.player(a.player) not in team_of(s, d.player):
                return []  # another defending player's blocks: this one declares none
            self._run_checks_up_to(a)
            if defenders and not a.player and not ctx.get("last"):
                # one `block` for several defending players: this one's creatures' blocks
                mine = self._own_blocks(a, d)
                choice = block_choice(self, a, ctx.get("blockers", []),
                                      ctx.get("attackers", []), keys=mine)
                try:
                    assert d.check is not None
                    d.check(choice)
                except (RulesError, ScenarioFailed) as err:
                    raise self.fail(a.where, f"illegal {verb}: {err}") from None
                self.block_keys.setdefault(self.i, set()).update(mine)
                return choice
            try:
                choice = self._declaration(a, d)
                assert d.check is not None
                d.check(choice)
            except (RulesError, ScenarioFailed) as err:
                if not a.refused:
                    raise self.fail(a.where, f"illegal {verb}: {err}") from None
                self._advance()  # refused, as it should be: the declaration is still open
                continue
            if a.refused:
                raise self.fail(a.where, f"{verb} was accepted but should be refused")
            self.under_way = True
            self.actors[self.i] = d.player
            return choice

    def _declaration(self, a: Action, d: Decision) -> list[list[int]]:
        ctx = d.context or {}
        if d.kind == "attackers":
            if a.player and self.player(a.player) not in team_of(self.game.state, d.player):
                raise RulesError("508.1", f"{a.player} is not the active player: only the "
                                 "active player declares attackers")
            return attack_choice(self, a, d.player, ctx.get("attackers", []),
                                 ctx.get("targets", []))
        if a.player and self.player(a.player) not in team_of(self.game.state, d.player):
            raise RulesError("509.1", f"{a.player} is not the defending player: only the "
                             "defending player declares blockers")
        keys = None
        if ctx.get("defenders") and not a.player:  # the blocks the other defenders left
            keys = [k for k in a.blocks if k not in self.block_keys.get(self.i, set())]
        return block_choice(self, a, ctx.get("blockers", []), ctx.get("attackers", []), keys)

    def _own_blocks(self, a: Action, d: Decision) -> list[str]:
        """The blockers of ``a`` that are the deciding defending player's creatures."""
        ctx = d.context if isinstance(d.context, dict) else {}
        cands = list(ctx.get("blockers", []))
        taken = self.block_keys.get(self.i, set())
        out = []
        for k in a.blocks:
            if k in taken:
                continue
            try:
                oid = self.ref(k, candidates=cands)
            except ScenarioFailed:
                continue
            if oid in cands:
                out.append(k)
        return out

    def _peek(self) -> Action | None:
        """The next action that is not a ``check``, without running the checks: a
        ``check`` waits until a player would receive priority (a decision asked while a
        spell is being cast or resolved comes first)."""
        for a in self.sc.actions[self.i:]:
            if a.verb != "check":
                return a
        return None

    def _run_checks_up_to(self, a: Action) -> None:
        """Run the ``check`` actions that stand before ``a`` (a declaration is made now)."""
        while self.i < len(self.sc.actions) and self.sc.actions[self.i] is not a:
            for exp in self.sc.actions[self.i].check:
                self.check(exp)
            self._advance()

    # answers ----------------------------------------------------------------
    def _find_answer(self, d: Decision, kinds: tuple[str, ...],
                     accept: Callable[[Answer], bool] | None = None) -> Answer | None:
        """The first unused answer of one of ``kinds`` for the deciding player, of the
        current action, else of the other one within reach (:meth:`_reachable`); marked
        used."""
        for k in self._reachable():
            a = self.sc.actions[k]
            used = self.used_by.setdefault(k, set())
            for n, ans in enumerate(a.answers):
                if ans.kind not in kinds or n in used:
                    continue
                who = self.player(ans.player) if ans.player else self.actors.get(k)
                if who is not None and who != d.player:
                    continue
                if accept is not None and not accept(ans):
                    continue
                used.add(n)
                return ans
        return None

    def forced(self, game: Game, d: Decision) -> None:
        """A decision with one legal option was taken without asking. An answer the
        action gives for it is used if it names that option (for ``may`` and ``pay``: any
        answer; choosing to do what can't be done does nothing), so a strict scenario may
        state a forced choice."""
        kinds = answer_kinds(d)
        if "arrange" in kinds:
            self._arranged(d)
            return

        def accept(ans: Answer) -> bool:
            if d.kind == "may":
                return True
            try:
                return bool(convert_answer(self, d, ans) == (d.options or [None])[0])
            except ScenarioFailed:
                return False
        self._find_answer(d, kinds, accept)

    def _answer(self, d: Decision) -> Any:
        if d.kind in DECLARATIONS:
            return self._declare(d)
        if d.kind == "mulligan":
            return self._mulligan(d)
        if d.kind == "bottom" and self.keeping is not None:
            return self._bottom(d)
        kinds = answer_kinds(d)
        if "arrange" in kinds:
            return self._arranged(d)
        if d.kind == "targets" and self.retarget is not None and self.retarget[0] == d.player:
            new = self.retarget[1]  # the new targets of a copy, the may answered before
            self.retarget = None
            try:
                return convert_answer(self, d, Answer(kind="targets", value=new.value,
                                                      where=new.where))
            except ScenarioFailed as err:
                raise self.fail(new.where, str(err)) from None
        ans = self._find_answer(d, kinds)
        if ans is not None and ans.kind == "new_targets":
            if ans.value is None:
                return False  # keep the original's targets
            self.retarget = (d.player, ans)
            return True
        if ans is None:
            return self._default(d)
        try:
            return convert_answer(self, d, ans)
        except ScenarioFailed as err:
            raise self.fail(ans.where, str(err)) from None

    def _mulligan(self, d: Decision) -> bool:
        """A player keeps or mulligans (opening hands): the next action says which; it must
        be this player's.  Without such an action the player keeps (strict: fails)."""
        who = self.names[d.player]
        a = self._next()
        if a is None or a.verb not in ("mulligan", "keep"):
            if self.sc.strict:
                raise self.fail(a.where if a else "", f"{who} keeps or mulligans now: a "
                                f"`{{player: {who}, keep: true}}` or `mulligan: true` action "
                                "comes first (strict)")
            return True
        if a.player != who:
            raise self.fail(a.where, f"{a.player} can't decide now: {who} keeps or mulligans "
                            "first (in each round the players decide in turn order, starting "
                            "with the active player)")
        self._start()
        self.actors[self.i] = d.player
        taken = self.mulligans.get(d.player, 0)
        if a.verb == "mulligan":
            self.mulligans[d.player] = taken + 1
            self._advance()
            return False
        free = 1 if taken and len(self.names) > 2 else 0
        need = min(taken - free, len(self.game.state.players[d.player].hand))
        if len(a.bottom) != need:
            raise self.fail(f"{a.where}.bottom", f"{who} puts {need} card(s) on the bottom "
                            f"({taken} mulligan(s){', the first free' if free else ''}), "
                            f"not {len(a.bottom)}")
        self.keeping = a if need else None
        self._advance()
        return True

    def _bottom(self, d: Decision) -> list[int]:
        """The cards a player who kept puts on the bottom: the ``keep`` action's list."""
        a = self.keeping
        assert a is not None
        self.keeping = None
        out: list[int] = []
        for name in a.bottom:
            try:
                out.append(pick_option(self, name, d.options or [], list(d.options or []), out))
            except ScenarioFailed as err:
                raise self.fail(f"{a.where}.bottom", str(err)) from None
        return out

    def _where(self) -> str:
        return self.sc.actions[self.i].where if self.i < len(self.sc.actions) else ""

    def _default(self, d: Decision) -> Any:
        """The documented default answer; in strict mode, a decision with more than one
        legal answer fails instead."""
        if self.sc.strict and answer_count(d) > 1:
            kinds = " or ".join(f"{{{k}: ...}}" for k in answer_kinds(d))
            raise self.fail(self._where(), f"unanswered {d.kind} decision for "
                            f"{self.names[d.player]}: {d.prompt or d.kind} (strict: answer it "
                            f"with {kinds})")
        if d.kind == "assign":
            return d.context["default"]
        if d.kind == "order":
            return list(d.context)
        if d.options is None:
            return []
        if not d.many:
            return d.options[0]
        return [] if d.up_to else d.options[:d.count]

    def _arranged(self, d: Decision) -> Any:
        """A decision arranging looked-at cards (:func:`mtgk.plugins.scry.arrangement`): the
        arrangement's first decision takes an ``arrange`` answer, which then answers
        every decision of that arrangement."""
        ctx = d.context
        if ctx.get("first"):
            ans = self._find_answer(d, ("arrange",))
            self.plan = None if ans is None else plan_arrangement(self, ans, list(ctx["cards"]),
                                                                  ctx)
        plan = self.plan
        opts = list(d.options or [])
        if plan is None:
            return self._default(d) if len(opts) > 1 or d.many else opts[0]
        part = ctx.get("part")
        if part == "bottom_set":
            return [o for o in plan.bottom if o in opts]
        order = plan.top if part == "top" else plan.bottom
        nxt = [o for o in order if o in opts]
        rest = [o for o in opts if o not in plan.top and o not in plan.bottom]
        return (nxt or rest or opts)[0]

    def refused(self, game: Game, d: Decision, err: RulesError) -> None:
        raise self.fail(self._where(), f"illegal answer: {err}")

    # ------------------------------------------------------------ expectations
    def check(self, e: Expectation) -> None:
        """Check the expectation ``e`` now
        (:func:`mtgk.scenario.expectations.check_expectation`)."""
        check_expectation(self, e)


_SKIPPED = {
    "first_strike_damage": " (that step happens only when an attacking or blocking creature "
                           "has first strike or double strike as combat damage begins)",
    "declare_blockers": " (no creature attacked)",
    "combat_damage": " (no creature attacked)",
    "draw": " (the draw step was skipped)",
}
"""Why a step may not happen in a turn, for the message of a ``pass_until`` that passed it."""


def _step_text(step: str) -> str:
    return f"{step.replace('_', ' ')} step"


def run_scenario(sc: Scenario, reg: Registry) -> ScenarioResult:
    """Play one scenario and check it; never raises for a failing scenario.  A scenario
    the engine can't play yet (:func:`unsupported`) fails as ``invalid``."""
    why = unsupported(sc)
    if why:
        return ScenarioResult(sc.name, sc.file, False, why, invalid=True)
    run = ScenarioRun(sc, reg)
    try:
        run.run()
        for exp in sc.expect:
            run.check(exp)
        replayed = fold(run.game.log)
        if encode_state(replayed) != encode_state(run.game.state):
            raise ScenarioFailed("replaying the scenario's log does not give the live state")
    except ScenarioFailed as err:
        return ScenarioResult(sc.name, sc.file, False, str(err), run.game.log, run.game)
    except RulesError as err:
        return ScenarioResult(sc.name, sc.file, False, f"rules error: {err}", run.game.log,
                              run.game)
    except StaleCache as err:  # validated mode: a declaration of what a card reads is wrong
        return ScenarioResult(sc.name, sc.file, False, f"validated mode: {err}", run.game.log,
                              run.game)
    except CardError as err:  # a card's code raised: the line names the card and its set
        return ScenarioResult(sc.name, sc.file, False, str(err), run.game.log, run.game,
                              error=err.error)
    except Exception as err:  # noqa: BLE001 - a crashing card must not stop the other scenarios
        return ScenarioResult(sc.name, sc.file, False, f"internal error: {type(err).__name__}: "
                              f"{err}", run.game.log, run.game, error=err)
    return ScenarioResult(sc.name, sc.file, True, "", run.game.log, run.game)
