"""Zone changes (CR 400.7, 603.6): moving objects one at a time or at once (CR 603.10a),
entering the battlefield (tapped, with counters; CR 614.1c-d), destroying, exiling,
drawing, creating tokens (CR 111), adding continuous effects."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from mypy_extensions import trait

from mtgk.log import events as ev
from mtgk.log.events import Event
from mtgk.rules.core import plain
from mtgk.rules.names import INDESTRUCTIBLE
from mtgk.rules.parts import GamePart
from mtgk.rules.replacement import replace

if TYPE_CHECKING:
    from mtgk.rules.engine import Game

@dataclass(frozen=True)
class Move:
    """One object's part of moves that happen at once (:meth:`Game.move_together`).

    ``to_zone``, ``reason``, ``position``, ``controller`` and ``tapped`` are those of
    :meth:`Game.move`, ``face_down`` and ``exiled_with`` those of :meth:`Game.exile`;
    ``cause``: the event that caused this move (``None``: the current cause);
    ``destroy``: it is a destruction (an indestructible permanent isn't moved);
    ``replaceable``: replacement effects apply to it (:meth:`Game.exile` has none);
    ``counters``: onto the battlefield, the counters it enters with (``(("-1/-1", 1),)``).
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
    counters: tuple[tuple[str, int], ...] = ()


@dataclass
class ReadyMove:
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
    looked: list[Any] = field(default_factory=list)
    """Its look-back abilities, found before the moves, triggered after its event."""


@trait  # a part of Game (mypyc: a native class has one base besides traits)
class ZoneChanges(GamePart):
    """Moving objects between zones (CR 400.7)."""

    # ------------------------------------------------------------------ moving
    def move(self, oid: int, to_zone: str, reason: str = "", position: int = -1,
             controller: int = -1, tapped: bool = False,
             cast_data: dict[str, Any] | None = None,
             counters: dict[str, int] | None = None) -> int | None:
        """Move an object to another zone (a new object); returns its new id.  Onto the
        battlefield, ``tapped`` and ``counters`` (``{"-1/-1": 1}``: persist) are how it
        enters (replacement effects, CR 614.1c): the abilities that trigger on its
        entering see it tapped and with those counters, as they see every "enters with"
        and "enters tapped" (:meth:`_entered`)."""
        s = self.state
        o = s.objects.get(oid)
        if o is None or o.zone == "none":
            return None
        if o.token and o.zone not in ("battlefield", "stack") and to_zone != "none":
            return None  # (a copy of a spell leaves the stack, then ceases to exist: SBA)
        proposed = replace(cast("Game", self), "move", {"obj": oid, "from_zone": o.zone, "to_zone": to_zone,
                                          "reason": reason})
        if proposed is None:
            return None
        to_zone = proposed["to_zone"]
        if to_zone == "exile":
            return self.exile(oid, reason=reason)
        new = self.new_id()
        if to_zone == "library" and position == -1 and reason in ("put",):
            position = 0
        e = ev.ZoneChanged(obj=oid, new_obj=new, from_zone=o.zone, to_zone=to_zone,
                           reason=reason, position=position, controller=controller)
        if to_zone != "battlefield":
            self.emit(e)
            return new
        # entering: the abilities that trigger on it are looked at once it has entered as
        # its replacement effects say (tapped, with counters), as for moves made together
        r = ReadyMove(Move(oid, to_zone, reason), to_zone=to_zone, cause=self._cause[-1],
                      event=e, new=new)
        if not self._setting_up:
            plans = self._tag_plans.get(e.TAG) or self._trigger_plans(e.TAG)
            if plans[0]:
                self._triggers(plans[0], e, r.cause, before=True)
        r.seq = self.emit(e, together=True)
        self._entered(new, tapped, cast_data, counters=counters)
        self._moved_together([r])
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
            # entering together, none of them applies its "enters with" / "enters tapped"
            # replacement effects to the others (CR 614.12: the board before they moved)
            together = [r.new for r in ready if r.to_zone == "battlefield" and r.new]
            for r in ready:
                self._make_move(r, together)
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

    def _ready_moves(self, moves: Sequence[Move]) -> list[ReadyMove]:
        """The first part of :meth:`move_together`: each move's replacement effects
        applied, its event made (new ids taken), the last known information of what
        leaves the battlefield kept, and the look-back abilities triggered -- all
        against the state before any of them moves.  (One move is left to
        :meth:`move`.)"""
        if len(moves) < 2:
            return [ReadyMove(m, plain=True) for m in moves]
        s = self.state
        ready: list[ReadyMove] = []
        seen: set[int] = set()
        for m in moves:
            r = ReadyMove(m)
            ready.append(r)
            o = s.objects.get(m.obj)
            if o is None or o.zone == "none" or m.obj in seen:
                continue
            seen.add(m.obj)
            if o.token and o.zone not in ("battlefield", "stack") and m.to_zone != "none":
                continue  # (see move)
            if m.destroy and (o.zone != "battlefield" or self.chars(m.obj).has(INDESTRUCTIBLE)):
                continue
            r.cause = self._cause[-1] if m.cause is None else m.cause
            to_zone = m.to_zone
            if m.replaceable:
                with self.caused(r.cause):
                    proposed = replace(cast("Game", self), "move", {"obj": m.obj, "from_zone": o.zone,
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
                        self._triggers(plans[0], r.event, r.cause, before=True,
                                       collect=r.looked)
        return ready

    def _make_move(self, r: ReadyMove, together: Sequence[int] = ()) -> None:
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
                self._entered(r.new or 0, m.tapped, None, together, dict(m.counters))

    def _moved_together(self, ready: Sequence[ReadyMove]) -> None:
        """The last part of :meth:`move_together`: the abilities that trigger on the moves
        (other than look-back ones), once all of them have happened."""
        if self._setting_up:
            return
        for r in ready:
            e = r.event
            if e is None or r.seq < 0:
                continue
            if r.looked:
                self._triggered_after(r.looked, r.seq)
            plans = self._tag_plans.get(e.TAG) or self._trigger_plans(e.TAG)
            if plans[1]:
                self._triggers(plans[1], e, r.seq, before=False)
            if self.state.effects:
                self._delayed_triggers(e, r.seq)

    def _entered(self, new: int, tapped: bool, cast_data: dict[str, Any] | None,
                 together: Sequence[int] = (), counters: dict[str, int] | None = None
                 ) -> None:
        """What happens as permanent ``new`` enters the battlefield -- a card moved there
        or played, or a token created: its "as ~ enters" choice, entering tapped (asked,
        by its own ability, or by a static ability of another permanent), the counters it
        enters with.  ``together``: the permanents entering with it (:meth:`move_together`),
        whose static abilities don't apply to it as it enters (CR 614.12); ``counters``:
        the counters the instruction that put it there says it enters with (persist)."""
        o = self.state.objects[new]
        d = self.reg[o.card]
        et: Any = None
        self._together = tuple(together)
        try:
            if callable(d.extras.get("as_enters")):  # "As ~ enters, choose ..." (CR 614.12)
                d.extras["as_enters"](self, new)
            copied = self.definition(new)
            if copied.name != d.name:  # it entered as a copy (CR 707.5): the copy's replacements
                d = copied
                if callable(d.extras.get("as_enters")):
                    d.extras["as_enters"](self, new)
            et = d.extras.get("enters_tapped")
            if callable(et):  # "as ~ enters, you may [do X]; if you don't, it enters tapped"
                et = et(self, new)
        except Exception as exc:
            self.card_failed(exc, d.name, None, "choice as it enters the battlefield")
        finally:
            self._together = ()
        if (tapped or et or self._enters_tapped_by_statics(new, together)) and not o.tapped:
            self.emit(ev.Tapped(obj=new, entering=True))
        if cast_data and cast_data.get("alt"):
            self.emit(ev.ObjectFlagged(obj=new, key="cast_alt", value=cast_data["alt"]))
        # "enters with N counters" (e.g. a Saga's first lore counter), then those other
        # permanents give it ("each other Elf you control enters with an additional ...")
        for kind, n in sorted((counters or {}).items()):
            if n > 0:
                self.emit(ev.CounterPlaced(obj=new, kind=kind, n=n))
        for kind, n in sorted(d.extras.get("enters_with_counters", {}).items()):
            self.emit(ev.CounterPlaced(obj=new, kind=kind, n=n))
        for kind, n in self._enters_with_counters_by_statics(new, together):
            self.emit(ev.CounterPlaced(obj=new, kind=kind, n=n))
        if d.facts.loyalty and "Planeswalker" in d.facts.types:
            n = int(d.facts.loyalty)
            if n:
                self.emit(ev.CounterPlaced(obj=new, kind="loyalty", n=n))

    def entering_together(self) -> tuple[int, ...]:
        """The permanents entering the battlefield at once with the one whose "as ~ enters"
        choice is being made (:meth:`move_together`; CR 614.12: they aren't on the
        battlefield yet as far as that choice goes); empty outside such a choice."""
        return self._together

    def _enters_with_counters_by_statics(self, new: int, together: Sequence[int] = ()
                                         ) -> list[tuple[str, int]]:
        """The counters static abilities of permanents (with an ``enters_with_counters(view,
        source, obj) -> {kind: n}``: "Each other Elf you control enters with an additional
        +1/+1 counter on it", ``mtgk.plugins.enters.enters_with_counters_if``) put on ``new`` as it
        enters, source by source in battlefield order, kinds in name order."""
        out: list[tuple[str, int]] = []
        for src, fn in self.static_hooks("enters_with_counters"):
            if src != new and src in together:
                continue
            try:
                got = fn(self.view(), src, new) or {}
            except Exception as exc:
                self._hook_failed(exc, src, "enters_with_counters", fn)
            out.extend((str(k), int(n)) for k, n in sorted(got.items()) if int(n) > 0)
        return out

    def _enters_tapped_by_statics(self, new: int, together: Sequence[int] = ()) -> bool:
        """Whether a static ability of a permanent (with an ``enters_tapped(view, source,
        obj)``: "Each creature without ... enters tapped") makes ``new`` enter tapped."""
        for src, fn in self.static_hooks("enters_tapped"):
            if src != new and src in together:
                continue
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
            if self.chars(oid).has(INDESTRUCTIBLE):
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
        :meth:`~mtgk.rules.definitions.Registry.token_name`) under ``controller``'s control.  It
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
                                   params=plain(params), duration=duration))


    def leave_game(self, player: int) -> None:
        """``player`` (who has lost) leaves a game that goes on (CR 800.4a): the effects
        that give them control of objects end; everything they own leaves the game
        (reason ``left-game``: what was in a public zone to ``"none"``, as a token ceases
        to exist, and the cards of their library and hand to ``"left"``, a zone nobody
        sees, so that leaving reveals none of them); what they still control that others
        own is exiled; then the spells and abilities they control on the stack (and
        their triggered abilities waiting for it, those of the objects that just left
        included) cease to exist; creatures attacking them are removed from combat."""
        s = self.state
        if s.over or not s.players[player].lost:
            return
        ended = tuple(e.id for e in s.effects if e.kind == "control" and e.params == player)
        if ended:
            self.emit(ev.EffectsEnded(effects=ended))
        owned = [o.id for o in s.objects.values() if o.owner == player
                 and o.zone not in ("none", "left")]
        for oid in owned:
            o = s.objects[oid]
            if o.zone == "stack":
                self.emit(ev.StackItemCountered(item=oid))
            to = "left" if o.zone in ("library", "hand") else "none"
            self.emit(ev.ZoneChanged(obj=oid, new_obj=oid, from_zone=o.zone, to_zone=to,
                                     reason="left-game"))
        for oid in list(s.battlefield):
            if self.chars(oid).controller == player:
                self.exile(oid)
        for it in [*s.stack, *s.pending]:
            if it.controller == player:
                self.emit(ev.StackItemCountered(item=it.id))
        c = s.combat
        if c is not None:
            for a, t in list(c.attackers.items()):
                if t == ev.player_ref(player):
                    self.emit(ev.RemovedFromCombat(obj=a))
