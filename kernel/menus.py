"""Engine decisions as menus of numbered choices, and what a seat has seen.

A :class:`~mtgk.rules.engine.Decision` may need an answer no list can hold (which of
six creatures attack, and whom); a :class:`Menu` asks it as a short series of
small menus instead, each a list of :class:`Choice` with words and a few numbers,
and assembles the engine's answer.  The step environment (:mod:`mtgk.env`)
and the terminal player (:mod:`mtgk.tools.human`) both answer decisions this way;
docs/agents.md lists how each kind of decision is asked.

:class:`SeatView` folds a log into a state of its own with every seat's
:class:`~mtgk.rules.visibility.Perspective` (what ``--as`` shows).

What a person is asked (``mtgk serve`` and the terminal game alike): :func:`decision_menu`
(damage assignment asked as an :class:`AssignMenu`; paying by hand adds
:func:`mana_choices`), and :class:`Stops`, where a priority with nothing but passing to
do is passed for them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mtgk.agents import HeuristicAgent, legal_menace_blocks, required_blocks
from mtgk.log import events as ev
from mtgk.log.answers import Activate
from mtgk.rules.engine import Decision, Game, RulesError
from mtgk.rules.state import State, apply, new_state
from mtgk.rules.turns import STEPS
from mtgk.rules.visibility import Perspective
from mtgk.stepper import action_words

__all__ = ["MORE", "PRIORITY_STEPS", "AssignMenu", "Choice", "Menu", "SeatView", "Stops",
           "decision_menu", "mana_choices"]

PRIORITY_STEPS = tuple(x for x in STEPS if x not in ("untap", "cleanup"))
"""The steps a player gets priority in (CR 502.4, 514.3: none in untap and cleanup)."""


class SeatView:
    """The seats' perspectives, folded along a log with a state of their own (a
    :class:`~mtgk.rules.visibility.Perspective` needs the state just before each event).
    :meth:`catch_up` folds the events not folded yet."""

    def __init__(self, seats: int) -> None:
        self.state: State = new_state()
        self.seen = [Perspective(i) for i in range(seats)]
        self.folded = 0

    def catch_up(self, log: Sequence[ev.Envelope]) -> None:
        s = self.state
        for env in log[self.folded:]:
            e = env.event
            for p in self.seen:
                p.before(e, s)
            apply(s, e)
            for p in self.seen:
                p.after(e, s)
            self.folded_one(e)
        self.folded = len(log)

    def folded_one(self, e: ev.Event) -> None:
        """Called after each event is folded, every perspective caught up with it (for a
        subclass that keeps something per event; nothing here)."""


@dataclass
class Choice:
    """One legal choice of a menu: its words, its features (:data:`mtgk.env.ACTION_FEATURES`
    without ``present``), and what it means to the menu (:attr:`value`)."""

    label: str
    kind: str
    card: int = 0
    target_card: int = 0
    target_seat: int = 0
    number: int = 0
    value: Any = None


MORE = object()
"""What :meth:`Menu.pick` returns while the decision needs more menus."""


class Menu:
    """The menus one engine decision is answered in (see the module docs), built from the
    :class:`~mtgk.rules.engine.Decision` and the game as the engine paused it.  ``choices``
    is the current menu; :meth:`pick` answers it and returns the engine's answer once
    the decision is complete (else :data:`MORE`, and ``choices`` is the next menu)."""

    def __init__(self, game: Game, d: Decision, cards: Mapping[str, int],
                 name: Callable[[int], str] | None = None) -> None:
        self.game = game
        self.d = d
        self.cards = cards
        #: how an object is named in the choices' words (default :meth:`Game.name`; the
        #: terminal game numbers identical cards apart)
        self.name_of = name or game.name
        self.depth = 0
        self.picked: list[int] = []  # the choices picked so far (what a fork repeats)
        self.choices: list[Choice] = []
        self.answer: Any = MORE
        self._parts: list[Any] = []
        self._queue: list[int] = []  # attackers or blockers still to declare
        k = d.kind
        if k == "priority":
            self._priority_groups()
        elif k == "attackers":
            self._queue = list(d.context["attackers"])
            self._attack_menu()
        elif k == "blockers":
            self._queue = list(d.context["blockers"])
            self._block_menu()
        elif k == "assign":
            self.answer = d.context["default"]
        elif k == "order":
            self._rest = list(d.context)
            self._pick_menu()
        elif d.options is not None and d.many:
            self._rest = list(d.options)
            self._pick_menu()
        elif d.options is not None:
            self.choices = [self._option(o) for o in d.options]
        else:  # a plugin's decision without listed answers: the kernel's heuristic answers
            self.answer = HeuristicAgent(0).decide(game, d)

    # ------------------------------------------------------------------ words
    def _card(self, oid: Any) -> int:
        o = self.game.state.objects.get(oid) if isinstance(oid, int) else None
        if o is None:
            return 0
        return self.cards.get(o.card, len(self.cards) + 1)

    def _name(self, ref: Any) -> str:
        if isinstance(ref, int) and not isinstance(ref, bool):
            return self.name_of(ref)
        return repr(ref)

    def _seat(self, ref: Any) -> int:
        """A player reference's seat relative to the deciding player, + 1 (0: not one)."""
        if isinstance(ref, int) and not isinstance(ref, bool) and ref < 0:
            n = len(self.game.state.players)
            return (-1 - ref - self.d.player) % n + 1
        return 0

    def _targets(self, targets: Sequence[Any]) -> tuple[str, int, int]:
        if not targets:
            return "", 0, 0
        first = targets[0]
        words = ", ".join(self._name(t) for t in targets)
        return f" targeting {words}", self._card(first), self._seat(first)

    # ------------------------------------------------------------------ priority
    def _priority_groups(self) -> None:
        groups: dict[tuple[Any, ...], list[Any]] = {}
        for a in self.d.options or [["pass"]]:
            key = tuple(a[:3]) if a[0] == "activate" else tuple(a[:2])
            groups.setdefault(key, []).append(a)
        self._groups = list(groups.values())
        out = []
        for forms in self._groups:
            a = forms[0]
            if a[0] == "pass":
                out.append(Choice("pass", "pass", value=forms))
                continue
            name = self._name(a[1])
            label = {"play": f"play {name}", "cast": f"cast {name}",
                     "activate": f"activate {name}'s ability {a[2] if len(a) > 2 else ''}"
                     }.get(a[0], f"{a[0]} {name}")
            if len(forms) > 1:
                label += f" ({len(forms)} ways)"
            elif a[0] in ("cast", "activate"):
                label += self._form_words(a)
            out.append(Choice(label.strip(), a[0], card=self._card(a[1]),
                              number=a[2] if a[0] == "activate" else 0, value=forms))
        self.choices = out

    def _form_words(self, a: list[Any]) -> str:
        if a[0] == "cast":
            return action_words(self._name, a[2], a[3], a[4], a[5] if len(a) > 5 else "")
        return action_words(self._name, a[3], (), a[4], "")

    def _forms_menu(self, forms: list[Any]) -> None:
        out = []
        for a in forms:
            targets, x = (a[2], a[4]) if a[0] == "cast" else (a[3], a[4])
            _, tc, ts = self._targets(targets)
            out.append(Choice(f"{a[0]} {self._name(a[1])}{self._form_words(a)}", "form",
                              card=self._card(a[1]), target_card=tc, target_seat=ts,
                              number=x, value=a))
        self.choices = out

    # ------------------------------------------------------------------ combat
    def _attack_menu(self) -> None:
        a = self._queue[0]
        name = self._name(a)
        out = [Choice(f"{name} does not attack", "no_attack", card=self._card(a))]
        for t in self.d.context["targets"]:
            out.append(Choice(f"{name} attacks {self._name(t)}", "attack", card=self._card(a),
                              target_card=self._card(t), target_seat=self._seat(t),
                              value=[a, t]))
        self.choices = out

    def _block_menu(self) -> None:
        while self._queue:
            b = self._queue[0]
            can = [a for a in self.d.context["attackers"] if self.game.can_block(b, a)]
            if can:
                name = self._name(b)
                out = [Choice(f"{name} does not block", "no_block", card=self._card(b))]
                out += [Choice(f"{name} blocks {self._name(a)}", "block", card=self._card(b),
                               target_card=self._card(a), value=[b, a]) for a in can]
                self.choices = out
                return
            self._queue.pop(0)
        g = self.game
        self.answer = legal_menace_blocks(
            g, required_blocks(g, self.d.context["blockers"], self._parts))

    # ------------------------------------------------------------------ options
    def _option(self, o: Any) -> Choice:
        k = self.d.kind
        if k == "targets" and isinstance(o, list):
            words, tc, ts = self._targets(o)
            return Choice(words.strip() or "no target", "option", target_card=tc,
                          target_seat=ts, value=o)
        if isinstance(o, bool):
            return Choice("yes" if o else "no", "option", number=int(o), value=o)
        if isinstance(o, int) and k in ("x", "number", "modes", "mode", "redirect"):
            label = self._name(o) if k == "redirect" else str(o)
            return Choice(label, "option", target_card=self._card(o) if k == "redirect" else 0,
                          target_seat=self._seat(o), number=o if k != "redirect" else 0,
                          value=o)
        if isinstance(o, int):
            return Choice(self._name(o), "option", card=self._card(o), target_seat=self._seat(o),
                          value=o)
        if isinstance(o, list) and all(isinstance(i, int) for i in o) and k == "modes":
            return Choice("modes " + ", ".join(map(str, o)), "option",
                          number=o[0] if o else 0, value=o)
        return Choice(str(o), "option", value=o)

    def _pick_menu(self) -> None:
        d = self.d
        need = len(d.context) if d.kind == "order" else d.count
        if len(self._parts) >= need or not self._rest or (
                d.kind == "order" and len(self._rest) == 1):
            self.answer = self._parts + (self._rest if d.kind == "order" else [])
            return
        out = []
        if d.kind != "order" and d.up_to:
            out.append(Choice("done", "done"))
        for o in self._rest:
            c = self._option(o)
            out.append(Choice(c.label, "pick", card=c.card, target_card=c.target_card,
                              target_seat=c.target_seat, number=c.number, value=o))
        self.choices = out

    # ------------------------------------------------------------------ answering
    def pick(self, i: int) -> Any:
        """Answer the current menu with choice ``i``."""
        c = self.choices[i]
        self.depth += 1
        self.picked.append(i)
        k = self.d.kind
        if k == "priority":
            if c.kind == "form":
                self.answer = c.value
            elif len(c.value) == 1:
                self.answer = c.value[0]
            else:
                self._forms_menu(c.value)
        elif k == "attackers":
            self._queue.pop(0)
            if c.value is not None:
                self._parts.append(c.value)
            if self._queue:
                self._attack_menu()
            else:
                self.answer = self._parts
        elif k == "blockers":
            self._queue.pop(0)
            if c.value is not None:
                self._parts.append(c.value)
            self._block_menu()
        elif k == "order" or (self.d.options is not None and self.d.many):
            if c.kind == "done":
                self.answer = self._parts
            else:
                self._parts.append(c.value)
                self._rest = [o for o in self._rest if o is not c.value]
                self._pick_menu()
        else:
            self.answer = c.value
        return self.answer


def decision_menu(game: Game, d: Decision, name: Callable[[int], str],
                  by_hand: bool = False) -> Menu:
    """The menus a person is asked ``d`` in (``mtgk serve`` and the terminal game): a
    :class:`Menu`, a damage assignment among several recipients as an :class:`AssignMenu`
    (among one, the rules' default answers it), and with ``by_hand`` (paying by hand) a
    priority menu with :func:`mana_choices` after the actions (when it offers more than
    passing: mana made for nothing is not asked about)."""
    if d.kind == "assign" and isinstance(d.context, dict) and \
            len(d.context.get("recipients") or ()) > 1:
        return AssignMenu(game, d, name)
    menu = Menu(game, d, {}, name=name)
    if by_hand and d.kind == "priority" and menu.answer is MORE and \
            any(c.kind != "pass" for c in menu.choices):  # (mana for nothing: not asked)
        menu.choices += mana_choices(game, d, name)
    return menu


def mana_choices(game: Game, d: Decision, name: Callable[[int], str]) -> list[Choice]:
    """The "tap ... for mana" choices of priority decision ``d``: each mana ability of a
    permanent of the deciding player that they can activate now (CR 605.3a: a player
    with priority may activate mana abilities; the engine takes such an action though
    it doesn't list it), a land's intrinsic ones (``["activate", land, -k]``) first.
    A choice's ``value`` is ``[Activate(source, k)]`` (as a priority choice's ways are)."""
    me = d.player
    out: list[Choice] = []
    for oid in game.state.battlefield:
        if game.chars(oid).controller != me:
            continue
        made = [(-k, m) for k, m in enumerate(game.intrinsic_mana(oid), 1)]
        made += [(i, "".join(ab.mana) if len(ab.mana) == 1 else "/".join(ab.mana))
                 for i, (_key, ab) in enumerate(game.definition(oid).activated, 1)
                 if ab.mana]
        for idx, mana in made:
            action = Activate(oid, idx)
            try:
                if d.check is not None:
                    d.check(action)  # (it only judges the action)
            except RulesError:
                continue
            word = "{" + mana + "}" if "/" not in mana else f"one of {mana}"
            out.append(Choice(f"tap {name(oid)} for {word}", "mana", value=[action]))
    return out


class Stops:
    """Where a person is asked when all they can sensibly do is pass (``mtgk serve``'s
    stops and "pass turn", the terminal game's ``s`` and ``p``): with the stack empty,
    a priority is passed for them in the steps not in ``steps["mine"]`` on their (team's)
    turns, not in ``steps["theirs"]`` on the others'; all steps to begin with (everything
    asked).  :meth:`yield_turn` passes every priority until the turn ends."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.steps: dict[str, set[str]] = {"mine": set(PRIORITY_STEPS),
                                           "theirs": set(PRIORITY_STEPS)}
        self.yielding = 0  # pass every priority until this turn ends (0: not yielding)

    def set(self, mine: Any, theirs: Any) -> None:
        """Stop in these steps only (lists of step names); :class:`ValueError` says why
        not (nothing changes then)."""
        for name, steps in (("mine", mine), ("theirs", theirs)):
            if not isinstance(steps, list | tuple | set) or \
                    not all(isinstance(x, str) for x in steps):
                raise ValueError(f"{name} is a list of step names")
            bad = [x for x in steps if x not in PRIORITY_STEPS]
            if bad:
                raise ValueError(f"{bad[0]!r} is not a step with priority (the steps: "
                                 f"{', '.join(PRIORITY_STEPS)})")
        self.steps = {"mine": set(mine), "theirs": set(theirs)}

    def listed(self) -> dict[str, list[str]]:
        """The stops, each list in the steps' order."""
        return {k: [x for x in PRIORITY_STEPS if x in v] for k, v in self.steps.items()}

    def yield_turn(self, state: State) -> None:
        """Pass every priority until this turn ends (the other decisions are still asked)."""
        self.yielding = state.turn

    def auto_pass(self, state: State, d: Decision) -> Any:
        """The pass that answers ``d`` for the person (their stops and yield), or ``None``."""
        if d.kind != "priority" or not d.options:
            return None
        passes = [o for o in d.options if o[0] == "pass"]
        if not passes:
            return None
        if self.yielding:
            if state.turn == self.yielding:
                return passes[0]
            self.yielding = 0
        if state.stack or state.step not in PRIORITY_STEPS:
            return None
        team = next((t for t in state.teams if self.seat in t), [self.seat])
        whose = "mine" if state.active in team else "theirs"
        return None if state.step in self.steps[whose] else passes[0]


class AssignMenu(Menu):
    """A combat damage assignment asked as menus (``mtgk serve`` and the terminal game;
    :class:`Menu`, the step environment's, answers it with the engine's default): the
    engine's default (lethal damage to
    each blocker in order, CR 510.1c), or how much each recipient gets, one at a time (the
    last gets what is left; the engine checks the whole, and refuses an illegal one)."""

    def __init__(self, game: Game, d: Decision, name: Callable[[int], str]) -> None:
        self.game = game
        self.d = d
        self.cards = {}
        self.name_of = name
        self.depth = 0
        self.picked: list[int] = []
        self.answer: Any = MORE
        self._parts: list[Any] = []
        ctx = d.context
        self._default = [list(p) for p in ctx["default"]]
        self._rest: list[Any] = list(ctx["recipients"])
        self._left = sum(n for _, n in self._default)
        words = ", ".join(f"{n} to {name(r)}" for r, n in self._default)
        self.choices = [Choice(f"as the rules order it: {words}", "default", value=None),
                        Choice("assign it myself", "own", value=MORE)]

    def _amounts(self) -> None:
        r = self._rest[0]
        if len(self._rest) == 1:
            self._parts.append([r, self._left])
            self.answer = self._parts
            return
        self.choices = [Choice(f"{n} to {self.name_of(r)}", "assign", number=n, value=n)
                        for n in range(self._left + 1)]

    def pick(self, i: int) -> Any:
        c = self.choices[i]
        self.depth += 1
        self.picked.append(i)
        if c.kind == "default":
            self.answer = self._default
        elif c.kind == "own":
            self._amounts()
        else:
            self._parts.append([self._rest.pop(0), c.value])
            self._left -= c.value
            self._amounts()
        return self.answer
