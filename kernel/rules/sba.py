"""State-based actions (CR 704): finding the actions due, performing them at once, the
legend and planeswalker uniqueness rules (CR 704.5j-k), the game's end (CR 104)."""

from __future__ import annotations

from collections.abc import Sequence

from mypy_extensions import trait

from mtgk.log import events as ev
from mtgk.log.events import Event, player_ref
from mtgk.rules.core import GameOver
from mtgk.rules.kept import NEUTRAL_EVENTS
from mtgk.rules.names import INDESTRUCTIBLE
from mtgk.rules.parts import GamePart
from mtgk.rules.seats import team_of
from mtgk.rules.zones import Move

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


@trait  # a part of Game (mypyc: a native class has one base besides traits)
class StateBasedActions(GamePart):
    """State-based actions (CR 704)."""

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
            elif p.poison >= 10 and not s.teams:
                acts.append(("lose", i, "poison"))  # CR 704.5c
        if s.teams:
            self._team_losses(acts)
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
                        and not c.has(INDESTRUCTIBLE):
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
        for check in self.live_sba_checks():
            acts.extend(check(self))
        return acts

    def _team_losses(self, acts: list[tuple[str, int, str]]) -> None:
        """Two-Headed Giant: a team with fifteen or more poison counters loses (CR 704.6b),
        and a team loses together -- when one of its players loses, so does the other
        (CR 810.8a)."""
        s = self.state
        for team in s.teams:
            alive = [p for p in team if not s.players[p].lost]
            if sum(s.players[p].poison for p in team) >= 15:
                acts.extend(("lose", p, "poison") for p in alive
                            if ("lose", p) not in [(w, r) for w, r, _y in acts])
            losing = [r for w, r, _y in acts if w == "lose" and r in team]
            if losing:
                acts.extend(("lose", p, "team") for p in alive if p not in losing)

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
        for what, ref, _why, _cause in todo:  # (the game goes on: CR 800.4a)
            if what == "lose":
                self.leave_game(ref)
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
        return self.kept(self._chars_cache(), "_legends", "the groups of legends",
                         self._legend_groups)

    def _check_game_over(self, lost: int | None = None) -> None:
        """The game ends when at most one player is left (``lost``: the event of the last
        player's loss, its cause)."""
        s = self.state
        alive = [i for i, p in enumerate(s.players) if not p.lost]
        teams = {team_of(s, i)[0] for i in alive}  # (a team of one outside Two-Headed Giant)
        if len(teams) <= 1 and not s.over:  # the winner: the first player of the last team
            self.emit(ev.GameEnded(winner=team_of(s, alive[0])[0] if alive else -1), cause=lost)
        if s.over:
            raise GameOver()

