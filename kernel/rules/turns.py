"""Turn structure (CR 500-514): starting the game and mulligans (CR 103), turns, steps and
phases, the untap, draw and cleanup steps, extra turns, ending the game."""

from __future__ import annotations

import random
from collections.abc import Sequence

from mypy_extensions import trait

from mtgk.log import events as ev
from mtgk.rules.checkpoints import Checkpoint
from mtgk.rules.core import Decision, GameOver
from mtgk.rules.names import DOESNT_UNTAP
from mtgk.rules.parts import GamePart
from mtgk.rules.seats import (
    TWO_HEADED_GIANT,
    active_team,
    first_player_choices,
    next_turn,
    team_of,
    turn_order_from,
)

STEPS = ("untap", "upkeep", "draw", "precombat_main", "beginning_of_combat",
         "declare_attackers", "declare_blockers", "first_strike_damage", "combat_damage",
         "end_of_combat", "postcombat_main", "end", "cleanup")
"""The steps of a turn in order.  ``first_strike_damage`` is the first of two combat
damage steps (CR 510.4): it happens only when an attacking or blocking creature has first
strike or double strike as combat damage begins; ``combat_damage`` is the regular one."""


COMBAT_DAMAGE_STEPS = ("first_strike_damage", "combat_damage")
"""The combat damage steps: "the combat damage step" of a trigger is either of them."""


SKIP_DRAW = "skip your draw step"
"""A rules ability: its controller skips their draw step."""


@trait  # a part of Game (mypyc: a native class has one base besides traits)
class TurnStructure(GamePart):
    """Turns, steps and phases (CR 500-514)."""

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
            cands = first_player_choices(self.state)  # (two players: randrange(2), as always)
            first = cands[self.rng("first").randrange(len(cands))]
            started = next((env.seq for env in self.log if isinstance(env.event, ev.GameStarted)),
                           -1)
            chosen = self.emit(ev.DecisionMade(player=-1, kind="first_player", choice=first),
                               cause=started)
            with self.caused(chosen):  # the opening hands
                for p in turn_order_from(self.state, first):
                    self.draw(p, 7)
            self._step_end = self.take_mulligans(first, chosen) if mulligans else chosen
            self.run(first, max_turns=max_turns)
        except GameOver:
            pass
        self.diag().info("game over", winner=self.state.winner, turns=self.state.turn,
                       event_no=len(self.log))
        return -1 if self.state.winner is None else self.state.winner

    def take_mulligans(self, first: int, dealt: int) -> int:
        """London mulligans (CR 103.5), in rounds: each player who hasn't kept, in turn
        order from ``first``, keeps or mulligans; those who mulliganed shuffle their hands
        into their libraries and draw seven, then decide again in the next round.  A player
        who keeps puts one card on the bottom per mulligan taken (the first one is free in
        a multiplayer game, CR 103.5c); after seven mulligans a player keeps.  ``dealt`` is
        the event that dealt the opening hands.  Each question is caused by the event that
        made the engine ask it (the hands dealt, the player's previous mulligan); what a
        decision does is caused by it.  Returns the last decision's event, the cause of the
        first turn."""
        last = dealt
        order = turn_order_from(self.state, first)
        taken = dict.fromkeys(order, 0)
        asked_by = dict.fromkeys(order, dealt)
        deciding = list(order)
        while deciding:
            mulligans: list[int] = []
            for p in deciding:
                keep = True
                if taken[p] < 7:
                    mark = len(self.log)
                    with self.caused(asked_by[p]):
                        keep = self.ask(Decision("mulligan", p, [True, False],
                                                 "keep this hand?"))
                    asked_by[p] = last = self._decided(mark, asked_by[p])
                if not keep:
                    mulligans.append(p)
                    continue
                # CR 103.5c: in a multiplayer game the first mulligan is free (puts none back)
                back = taken[p] - 1 if taken[p] and len(self.state.players) > 2 else taken[p]
                if back:
                    hand = list(self.state.players[p].hand)
                    mark = len(self.log)
                    with self.caused(asked_by[p]):
                        bottom = self.choose(p, "bottom", hand, "put cards on the bottom",
                                             count=min(back, len(hand)))
                    last = self._decided(mark, asked_by[p])
                    with self.caused(last):
                        for oid in bottom:
                            self.move(oid, "library", reason="mulligan", position=-1)
            for p in mulligans:  # those who mulligan do so at the same time
                taken[p] += 1
                with self.caused(asked_by[p]):
                    for oid in list(self.state.players[p].hand):
                        self.move(oid, "library", reason="mulligan")
                    self.shuffle(p)
                    self.draw(p, 7)
            deciding = mulligans
        self._step_end = last
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
            turn: int | None = None, at: Checkpoint | None = None) -> None:
        """Run turns until the game ends (or ``max_turns``, then it is a draw).  ``at``:
        from that checkpoint of a round of priority (:meth:`resume`)."""
        self.max_turns = max_turns
        active = first
        n = self.state.turn + 1 if turn is None else turn
        step = start_step
        if at is not None:
            active, n, step = at.active, at.turn, at.step
        while True:
            if step == "untap":
                active = self._extra_turn(active)
                self._turn_began(n, active)
            self.turn_from(step, n, active, at=at)
            at = None
            if n >= max_turns:
                self.emit(ev.GameEnded(winner=-1, reason="turn-limit"), cause=self._ended())
                raise GameOver()
            n += 1
            active = next_turn(self.state, active)
            step = "untap"

    def resume(self, at: Checkpoint) -> int:
        """Play on from checkpoint ``at`` (a game made by
        :func:`~mtgk.rules.checkpoints.resume_game`) to the end; returns the winner."""
        try:
            self.run(at.active, max_turns=at.max_turns, at=at)
        except GameOver:
            pass
        return -1 if self.state.winner is None else self.state.winner

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

    def turn_from(self, step: str, n: int, active: int, resume: bool = False,
                  at: Checkpoint | None = None) -> None:
        """Play turn ``n`` from the beginning of ``step``.  ``resume``: the game is
        already *in* that step (a scenario's position): its beginning -- turn-based
        actions, "at the beginning of" triggers -- is past, and players get priority.
        ``at``: the game is in that step's round of priority, at that checkpoint."""
        i = STEPS.index(step)
        if i == 0 and self.state.turn != n and at is None:
            self._turn_began(n, active)
        combat_skipped = at.combat_skipped if at is not None else False
        for s in STEPS[i:]:
            if at is not None:  # (the first step: the one the checkpoint is in)
                self._round_from(at)
                at = None
                continue
            if combat_skipped and (s == "declare_blockers" or s in COMBAT_DAMAGE_STEPS):
                continue
            first: list[int] = []
            if s == "first_strike_damage" and not (resume and s == step):
                first = self._first_strikers()
                if not first:
                    continue  # CR 510.4: no creature in combat has first or double strike
            if s == "draw" and self.skips_draw_step(active) and not self._drawing(active):
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
                elif s == "draw":
                    if n != 1 or self._draws_first_turn():
                        # 103.8a-c: the first player (team, in Two-Headed Giant) skips the
                        # first turn's draw in a two-player game, not in other multiplayer games
                        for p in self._drawing(active):
                            self.draw(p, 1)
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
                    for k, p in enumerate(self._cleaning(active)):
                        self._cleanup(p, n, k)
                if s != "untap" and s != "cleanup":  # (no `continue` inside `with`: mypyc)
                    self._round_ctx = (s, n, active, combat_skipped, 0)
                    self.priority_round()
                    self._round_ctx = None
                    self._after_round(s)

    def _after_round(self, step: str) -> None:
        """What ends a step once its round of priority is over: mana empties (CR 500.4);
        combat ends with the end of combat step (CR 511.3)."""
        self._empty_pools()
        if step == "end_of_combat" and self.state.combat is not None:
            self.emit(ev.CombatEnded())

    def _cleaning(self, active: int) -> Sequence[int]:
        """Who has a cleanup step this turn: the active player, or the active team."""
        return active_team(self.state) if self.state.teams else (active,)

    def _round_from(self, at: Checkpoint) -> None:
        """The rest of the step of checkpoint ``at`` (its round of priority from there on),
        with the causes recorded there."""
        self._cause = list(at.cause)
        self._round_ctx = (at.step, at.turn, at.active, at.combat_skipped, at.cleanup)
        self.priority_round(at=at)
        self._round_ctx = None
        if at.step == "cleanup":  # 514.3a: after priority, the cleanup step repeats
            team = self._cleaning(at.active)
            for k in range(at.cleanup, len(team)):
                self._cleanup(team[k], at.turn, k)
        else:
            self._after_round(at.step)
        self._cause = [-1]

    def _draws_first_turn(self) -> bool:
        """Whether the first player draws in the first turn: only in a free-for-all game of
        more than two players (CR 103.8c)."""
        s = self.state
        return len(s.players) > 2 and s.variant != TWO_HEADED_GIANT

    def _drawing(self, active: int) -> list[int]:
        """Who draws in this draw step: the active player, or each player of the active
        team in its order (CR 810, shared team turns), but not one who skips their draw
        step (a step skipped by the whole team doesn't happen)."""
        s = self.state
        if not s.teams:  # (a player who left the game in their turn draws no more)
            return [] if self.skips_draw_step(active) or s.players[active].lost else [active]
        return [p for p in active_team(s) if not s.players[p].lost
                and not self.skips_draw_step(p)]

    def skips_draw_step(self, player: int) -> bool:
        """Whether ``player`` controls a permanent with the ability ``skip your draw step``
        (Colfenor's Plans: "Skip your draw step.")."""
        return any(self.chars(o).controller == player for o in self.permanents_with(SKIP_DRAW))

    def _turn_begins(self, active: int) -> None:
        """Effects that last "until your next turn" (duration ``next_turn``) end as their
        controller's next turn begins: first thing in its untap step."""
        team = team_of(self.state, active)
        ended = tuple(e.id for e in self.state.effects
                      if e.duration == "next_turn" and e.controller in team)
        if ended:
            self.emit(ev.EffectsEnded(effects=ended))

    def _untap_step(self, active: int) -> None:
        # "... doesn't untap during [its controller's / that player's] next untap step":
        # effects of kind ``skip_untap`` (params: the player) hold their objects down
        # during that player's next untap step, then end.  A permanent with the ability
        # ``doesn't untap`` ("doesn't untap during its controller's untap step") stays tapped.
        team = team_of(self.state, active)
        held = [e for e in self.state.effects if e.kind == "skip_untap" and e.params in team]
        skip = {oid for e in held for oid in e.objs}
        for oid in list(self.state.battlefield):
            o = self.state.objects[oid]
            if o.tapped and self.chars(oid).controller in team and oid not in skip \
                    and not self.chars(oid).has(DOESNT_UNTAP):
                self.emit(ev.Untapped(obj=oid))
        if held:
            self.emit(ev.EffectsEnded(effects=tuple(e.id for e in held)))

    def _empty_pools(self) -> None:
        for i, p in enumerate(self.state.players):
            if p.mana:
                self.emit(ev.ManaEmptied(player=i))

    def _cleanup(self, active: int, turn: int = 0, k: int = 0) -> None:
        """``active``'s cleanup step (the ``k``-th player of the active team's, in turn
        ``turn``)."""
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
            self._round_ctx = ("cleanup", turn, self.state.active, False, k) if turn else None
            self.priority_round()
            self._round_ctx = None
            self._cleanup(active, turn, k)
