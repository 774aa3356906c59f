"""A table: one game, any seats played by the caller one menu at a time
(:class:`Table`), driven by a :class:`~mtgk.stepper.Stepper`; what both environments
are built on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from mtgk.env.checks import TRUNCATING, EnvError, check_action
from mtgk.env.observation import (
    ACTION_FEATURES,
    ACTION_KINDS,
    DECISION_KINDS,
    HISTORY_FEATURES,
    MAX_ACTIONS,
    BoardSight,
    HistoryView,
    encode_board,
    layout,
    obs_size,
)
from mtgk.env.setup import Setup
from mtgk.log import events as ev
from mtgk.log.logfile import write_log
from mtgk.menus import MORE, Menu, SeatView
from mtgk.rules.engine import Agent, Decision, Game, RulesError
from mtgk.rules.seats import same_team
from mtgk.stepper import ASK, Stepper

NO_ANSWER = ASK
"""What :func:`trivial_answer` returns for a decision that needs its :class:`Menu`
(:data:`mtgk.stepper.ASK`: the table's stepper calls it, ``auto``)."""


def trivial_answer(d: Decision) -> Any:
    """The answer a :class:`Menu` of ``d`` would take by itself when its one menu has
    one choice (``skip_trivial``), found without building the menu: a priority with one
    action (or none listed: passing), a listed choice of one answer.  Any other decision:
    :data:`NO_ANSWER` (the menu is built and tells)."""
    k = d.kind
    opts = d.options
    if k == "priority":
        if not opts:
            return ["pass"]
        return opts[0] if len(opts) == 1 else NO_ANSWER
    if opts is not None and len(opts) == 1 and not d.many and k not in (
            "attackers", "blockers", "assign", "order"):
        return opts[0]
    return NO_ANSWER


class Table:
    """One game whose ``external`` seats the caller plays step by step (the others are
    played by kernel agents: ``internal`` maps a seat to an agent maker and its seed).

    ``seat`` is the seat to act (``None`` once the game is over), ``menu`` its current
    :class:`Menu`; :meth:`act` answers it; :meth:`observation` and :meth:`info` give
    what a seat sees; :meth:`fork` copies the table exactly; :meth:`save` writes the log.
    """

    def __init__(self, setup: Setup, stepper: Stepper | None = None) -> None:
        self.setup = setup
        self.header = setup.header
        self.cards = setup.cards
        self.seats = len(setup.header.players)
        self.history = setup.history
        self.where = layout(self.seats, setup.history, setup.masks)
        self.size = obs_size(self.seats, setup.history, setup.masks)
        w = self.where
        self._menu_at = (w["global"].start + 4, w["decision"], w["actions"])
        self.full: SeatView | None = (HistoryView(self.seats, setup.history, setup.cards)
                                      if setup.history > 0 else None)
        """The seats' full perspectives, folded with a state of their own (only with a
        ``history``: its rows need them; else each seat's :class:`BoardSight` reads the
        game's state)."""
        self.sights: dict[int, BoardSight] = {}
        self._words: SeatView | None = None  # (the board in words: :meth:`board`)
        self._cache: dict[int, tuple[Game, int, np.ndarray]] = {}
        self.menu: Menu | None = None
        self.seat: int | None = None
        self.refusal = ""
        if stepper is None:
            agents: list[Agent | None] = []
            for i in range(self.seats):
                if i in setup.external:
                    agents.append(None)
                else:
                    make, seed = setup.internal[i]
                    agents.append(make(seed))
            try:
                stepper = Stepper(setup.reg, setup.header, agents, forks=setup.forks,
                                  auto=trivial_answer if setup.skip_trivial else None)
            except Exception as exc:  # noqa: BLE001 - the engine's failure, in one line
                raise EnvError(f"the engine failed: {type(exc).__name__}: {exc}") from exc
        self.stepper = stepper
        self._settle()

    @property
    def game(self) -> Game:
        return self.stepper.game

    @property
    def over(self) -> bool:
        return self.seat is None

    def _settle(self) -> None:
        """Take the stepper's pending decision: a menu to answer (trivial menus are
        answered here), or the end."""
        skip = self.setup.skip_trivial
        while True:
            d = self.stepper.decision
            if d is None:
                self.seat, self.menu = None, None
                return
            if skip:
                quick = trivial_answer(d)
                if quick is not NO_ANSWER:
                    self._give(quick)
                    continue
            menu = Menu(self.game, d, self.cards)
            while menu.answer is MORE and len(menu.choices) == 1 and skip:
                menu.pick(0)
            if menu.answer is MORE:
                self.seat, self.menu = d.player, menu
                return
            self._give(menu.answer)

    def _give(self, answer: Any) -> None:
        """Answer the pending decision (an answer refused is noted in :attr:`refusal`,
        and the decision stays pending)."""
        try:
            self.stepper.answer(answer)
        except RulesError as err:
            self.refusal = str(err)
        except Exception as exc:  # noqa: BLE001 - the engine's failure, in one line
            self.seat, self.menu = None, None
            raise EnvError(f"the engine failed after {len(self.game.log)} events: "
                           f"{type(exc).__name__}: {exc}") from exc
        else:
            self.refusal = ""

    def legal(self) -> list[int]:
        """The legal actions now (indexes into the current menu)."""
        return list(range(min(len(self.menu.choices), MAX_ACTIONS))) if self.menu else []

    def act(self, action: int) -> None:
        """Answer the current menu with choice ``action`` (an int or a NumPy integer:
        :func:`check_action`; :class:`EnvError` if it is not legal now, and nothing
        changes)."""
        action = check_action(action)
        if self.menu is None:
            raise EnvError("the game is over: there is nothing to decide")
        if not action < min(len(self.menu.choices), MAX_ACTIONS):
            raise EnvError(f"action {action} is not legal now: the legal actions are "
                           f"0..{min(len(self.menu.choices), MAX_ACTIONS) - 1}")
        answer = self.menu.pick(action)
        if answer is MORE:
            return
        self.menu = None
        self._give(answer)
        self._settle()

    # ------------------------------------------------------------------ seeing
    def observation(self, seat: int) -> dict[str, np.ndarray]:
        """What ``seat`` sees, as numbers (see :func:`layout`): new arrays each call.  (The
        board part is built again only when events were appended since the last call for
        ``seat``; else the last one's is copied and only the menu part is written.)"""
        vec = np.empty(self.size, dtype=np.float32)
        mask = np.empty(MAX_ACTIONS, dtype=np.int8)
        game = self.game
        n = len(game.log)
        last = self._cache.get(seat)
        if last is not None and last[0] is game and last[1] == n:
            vec[:] = last[2]
            self.observe_into(seat, vec, mask, board=False)
        else:
            self.observe_into(seat, vec, mask)
            self._cache[seat] = (game, n, vec.copy())
        return {"observation": vec, "action_mask": mask}

    def observe_into(self, seat: int, vec: np.ndarray, mask: np.ndarray,
                     board: bool = True) -> None:
        """Write what ``seat`` sees into ``vec`` (float32, :func:`obs_size` long) and
        ``mask`` (int8, :data:`MAX_ACTIONS`), in place: :meth:`observation` without the
        allocation (what the vector environment does with its buffers).  ``board=False``:
        ``vec`` holds this seat's observation of the same moment (no event appended
        since), and only its menu part is written again (``global``'s ``menu_depth``,
        ``decision``, ``actions``)."""
        if not 0 <= seat < self.seats:
            raise EnvError(f"no seat {seat}: this game's seats are 0..{self.seats - 1}")
        w = self.where
        depth_at, decision, actions = self._menu_at
        if board:
            vec.fill(0)
            log = self.game.log
            full = self.full
            if full is None and self.sights.get(seat, None) is None:
                self.sights[seat] = BoardSight(seat, self.seats)
            sight = self.sights.get(seat)
            if sight is not None:
                sight.catch_up(log)
                if sight.lost:  # (a library rearranged without its order: fold it all)
                    self.full = full = SeatView(self.seats)
                    self.sights.clear()
            if full is None and sight is not None:
                encode_board(self.game.state, sight, self.game.chars, self.cards, vec, w)
            else:
                assert full is not None
                full.catch_up(log)
                encode_board(full.state, full.seen[seat], self.game.chars, self.cards, vec,
                             w)
            if isinstance(full, HistoryView):
                rows = full.rows[seat]
                if rows:
                    hist = vec[w["history"]].reshape(self.history, len(HISTORY_FEATURES))
                    hist[:len(rows)] = np.array(rows, dtype=np.float32)
                    if "mask_history" in w:
                        vec[w["mask_history"].start + np.arange(len(rows))] = 1
        else:
            vec[depth_at] = 0
            vec[decision] = 0
            vec[actions] = 0
        mask.fill(0)
        if self.seat is None:
            mask[0] = 1  # (the end: one legal no-op, so that a sampler never sees no choice)
            return
        menu = self.menu
        if menu is not None and self.seat == seat:
            vec[depth_at] = menu.depth
            k = menu.d.kind
            at = DECISION_KINDS.index(k) if k in DECISION_KINDS else len(DECISION_KINDS)
            vec[decision.start + at] = 1
            choices = menu.choices[:MAX_ACTIONS]
            rows_of = [(1, ACTION_KINDS.index(c.kind) + 1, c.card, c.target_card,
                        c.target_seat, c.number) for c in choices]
            if rows_of:
                m = len(rows_of) * len(ACTION_FEATURES)
                vec[actions.start:actions.start + m] = np.array(
                    rows_of, dtype=np.float32).reshape(-1)
                mask[:len(rows_of)] = 1

    def info(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees, in words: its decision and options (when it is to act),
        and with ``text`` the board as ``mtgk replay --as`` shows it."""
        out: dict[str, Any] = {}
        menu = self.menu
        if menu is not None and self.seat == seat:
            out["decision"] = menu.d.kind
            out["prompt"] = menu.d.prompt
            out["options"] = [c.label for c in menu.choices[:MAX_ACTIONS]]
            if self.refusal:
                out["refused"] = self.refusal
        if self.setup.text:
            out["board"] = self.board(seat)
        return out

    def board(self, seat: int) -> str:
        """The board as ``seat`` sees it, in text (``mtgk replay --as``)."""
        from mtgk.render import render_state

        view = self.full
        if view is None:
            view = self._words = self._words or SeatView(self.seats)
        view.catch_up(self.game.log)
        return render_state(view.state, self.setup.reg, as_player=seat, seen=view.seen[seat])

    def result(self) -> int | None:
        """The winner (-1: a draw) once the game is over, else ``None`` (in Two-Headed
        Giant the winning team's first player: :meth:`winners` has both)."""
        if not self.over:
            return None
        w = self.game.state.winner
        return -1 if w is None else w

    def end_reason(self) -> str | None:
        """Why the game ended (the :class:`~mtgk.log.events.GameEnded` reason: ``""`` a
        win or a draw with no player left, ``"loop"``, ``"turn-limit"``,
        ``"event-budget"``), or ``None`` while it goes on."""
        if not self.over:
            return None
        for env in reversed(self.game.log):
            if isinstance(env.event, ev.GameEnded):
                return env.event.reason
        return ""

    @property
    def truncated(self) -> bool:
        """Whether the game is over because it was cut short (:data:`TRUNCATING`: the turn
        limit, the event budget) rather than ended by the rules."""
        return self.end_reason() in TRUNCATING

    def winners(self) -> list[int]:
        """The seats that won (the winning team's players; none for a draw or a game
        not over)."""
        w = self.result()
        if w is None or w < 0:
            return []
        s = self.game.state
        return [p for p in range(self.seats) if same_team(s, w, p)]

    # ------------------------------------------------------------------ copies and logs
    def fork(self) -> Table:
        """An exact, independent copy (:meth:`mtgk.stepper.Stepper.fork`: the seats'
        kernel agents copied too), at the same menu."""
        t = Table(self.setup, self.stepper.fork())
        if self.menu is not None and t.menu is not None:
            menu = Menu(t.game, t.menu.d, t.cards)
            for i in self.menu.picked:
                menu.pick(i)
            t.menu = menu
        return t

    def __copy__(self) -> Table:
        return self.fork()

    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        return self.fork()

    def __reduce__(self) -> Any:
        raise EnvError("a table cannot be pickled: use fork() for a copy, or save() its log")

    def save(self, path: str | Path) -> int:
        """Write the game so far as an ordinary log (``mtgk verify`` accepts it)."""
        return write_log(path, self.header, self.game.log)

    def close(self) -> None:
        """Stop playing this table (its game is freed with it; there is nothing to end)."""
        self.menu, self.seat = None, None
