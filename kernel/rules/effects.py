"""What card code sees while a spell or ability resolves: :class:`Ctx`.

Card effects are small functions ``def effect(c: Ctx) -> None`` that read like
the Oracle text::

    def shock(c: Ctx) -> None:        # Shock deals 2 damage to target creature or player.
        c.damage(c.target(0), 2)

Every method here emits events through the engine; card code never touches
the state.  Targets that have become illegal read as ``None`` and the
methods ignore ``None``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from mtgk.log import events as ev
from mtgk.log.events import player_ref, ref_player
from mtgk.rules.seats import opponents_of, player_index, turn_order_from

if TYPE_CHECKING:
    from mtgk.rules.chars import Chars
    from mtgk.rules.engine import Game
    from mtgk.rules.filters import Filter
    from mtgk.rules.layers import View
    from mtgk.rules.state import StackItem


class Ctx:
    """The resolving spell or ability: its source, controller, targets and choices."""

    def __init__(self, game: Game, item: StackItem, legal: list[bool] | None = None,
                 event: Any = None) -> None:
        self.game = game
        self.item = item
        self.source = item.source
        self.controller = item.controller
        self.targets = list(item.targets)
        self.modes = list(item.modes)
        self.x = item.x
        if event is None and item.kind == "triggered":
            event = ev.event_from_data(item.data)
        self.event = event
        data = item.data
        #: the object this instance of a per-subject trigger is about (see ``Triggered.each``)
        self.subject: int | None = data[2] if (item.kind == "triggered" and isinstance(
            data, list) and len(data) == 3) else None
        self.legal = legal if legal is not None else [True] * len(self.targets)
        #: what the effect remembers between its steps, for this resolution only: "Exile
        #: target creature. Its controller gains life equal to its power" remembers the
        #: power before the exile (``sequence(step, step)`` shares one ``Ctx``).  Not part
        #: of the game state: a replay re-runs the effect and remembers the same
        self.memory: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"<Ctx {self.item.source_card!r} controller={self.controller}>"

    # A player is named by their index (``c.you``, ``c.opponent()``) or by a player
    # reference (what a target that is a player gives back: ``-1 - index``); every helper
    # that takes a player takes either.  Helpers that take an object refuse a player
    # reference, and those that take a player refuse what can't be one, so a card never
    # quietly acts on the wrong one.

    def as_player(self, who: int | None, helper: str = "a player") -> int:
        """The index of the player ``who`` names: an index or a player reference
        (raises ``ValueError`` naming ``helper`` for anything else, ``TypeError`` for
        ``None``: a target that is gone)."""
        return player_index(self.game.state, who, helper)

    def _object(self, oid: int, helper: str) -> int:
        if isinstance(oid, bool) or not isinstance(oid, int):
            raise TypeError(f"{helper}: {oid!r} is not an object id")
        if oid < 0:
            raise ValueError(f"{helper}: {oid} is a player reference, not an object")
        return oid

    # ---------------------------------------------------------------- reading
    @property
    def you(self) -> int:
        return self.controller

    @property
    def state(self) -> Any:
        return self.game.state

    def target(self, i: int = 0) -> int | None:
        """The i-th target if it is still legal, else ``None``."""
        if i < len(self.targets) and self.legal[i]:
            return self.targets[i]
        return None

    def legal_targets(self) -> list[int]:
        return [t for t, ok in zip(self.targets, self.legal, strict=False) if ok]

    def chars(self, oid: int) -> Chars:
        return self.game.chars(oid)

    def controller_of(self, ref: int | None) -> int | None:
        """The controller of an object (or the player a player reference names).

        Uses last known information if the object has left the battlefield.
        """
        if ref is None:
            return None
        p = ref_player(ref)
        if p is not None:
            return p
        return self.game.last_known_controller(ref)

    def players(self) -> list[int]:
        """"Each player": every player still in the game, teammates included (CR 102.1,
        810.9), in APNAP order (the active player first, then the others in turn order:
        CR 101.4)."""
        s = self.game.state
        return [p for p in turn_order_from(s, s.active) if not s.players[p].lost]

    def opponents(self, player: int | None = None) -> list[int]:
        me = self.controller if player is None else self.as_player(player, "opponents")
        return opponents_of(self.game.state, me)

    def opponent(self, player: int | None = None) -> int:
        return self.opponents(player)[0]

    def objects(self, f: Filter, zone: str = "battlefield") -> list[int]:
        """Objects that ``f`` accepts from the point of view of this ability."""
        from mtgk.rules.filters import matching
        return matching(self.game.view(), f, self.controller, self.source, zone)

    def count(self, f: Filter) -> int:
        return len(self.objects(f))

    def exists(self, oid: int | None) -> bool:
        return oid is not None and oid in self.game.state.objects and \
            self.game.state.objects[oid].zone != "none"

    def alt_cost_paid(self, name: str) -> bool:
        """Whether the resolving spell -- or, for an ability, its source permanent -- was
        cast for its alternative cost ``name`` ("if its prowl cost was paid"; see
        :func:`mtgk.cards.altcosts.alt_cost_paid`)."""
        if self.item.kind == "spell":
            return bool(self.item.data == name)
        return alt_cost_paid(self.game, self.source, name)

    def optional_cost_paid(self, name: str) -> bool:
        """Whether the resolving spell -- or, for an ability, its source permanent -- was
        cast with its optional additional cost ``name`` paid ("if it was kicked"; see
        :func:`mtgk.cards.altcosts.optional_cost_paid`)."""
        return optional_cost_paid(self.game, self.source, name)

    def power(self, oid: int) -> int:
        return self.game.chars(oid).power or 0

    # ---------------------------------------------------------------- doing
    def damage(self, to: int | None, amount: int, source: int | None = None) -> None:
        """Deal damage from this source (or ``source``) to an object or player."""
        if to is None or amount <= 0:
            return
        self.game.deal_damage(self.source if source is None else source, to, amount,
                              combat=False, controller=self.controller)

    def destroy(self, oid: int | None) -> None:
        if oid is not None:
            self.game.destroy(self._object(oid, "destroy"))

    def sacrifice(self, oid: int | None) -> None:
        if oid is not None:
            self.game.move(self._object(oid, "sacrifice"), "graveyard", reason="sacrifice")

    def bounce(self, oid: int | None) -> None:
        """Return to its owner's hand."""
        if oid is not None:
            self.game.move(self._object(oid, "bounce"), "hand", reason="bounce")

    def exile(self, oid: int | None, face_down: bool = False, linked: bool = False) -> int | None:
        if oid is None:
            return None
        return self.game.exile(self._object(oid, "exile"), face_down=face_down,
                               exiled_with=self.source if linked else 0)

    def put_onto_battlefield(self, oid: int | None, controller: int | None = None,
                             tapped: bool = False, counters: dict[str, int] | None = None
                             ) -> int | None:
        """Put ``oid`` onto the battlefield (under its owner's control, or
        ``controller``'s); ``tapped`` and ``counters`` are how it enters ("return it to
        the battlefield with a -1/-1 counter on it": ``counters={"-1/-1": 1}``, CR
        614.1c): its "enters" abilities see it so.  Its new id."""
        if oid is None:
            return None
        return self.game.move(self._object(oid, "put_onto_battlefield"), "battlefield",
                              reason="put", controller=-1 if controller is None else
                              self.as_player(controller, "put_onto_battlefield"),
                              tapped=tapped, counters=counters)

    # One instruction for several objects ("destroy all ...", "exile those cards", "each
    # player discards ..."): they all move at once (Game.move_together), so replacement
    # effects, indestructible and leaves-the-battlefield abilities see them all as they
    # were before any of them moved.  ``None`` in ``oids`` is skipped.

    def destroy_all(self, oids: Iterable[int | None]) -> None:
        """Destroy all of ``oids`` at once."""
        self.game.destroy_all([o for o in oids if o is not None])

    def sacrifice_all(self, oids: Iterable[int | None]) -> None:
        """Sacrifice all of ``oids`` at once."""
        self.game.move_all([o for o in oids if o is not None], "graveyard", reason="sacrifice")

    def bounce_all(self, oids: Iterable[int | None]) -> None:
        """Return all of ``oids`` to their owners' hands at once."""
        self.game.move_all([o for o in oids if o is not None], "hand", reason="bounce")

    def exile_all(self, oids: Iterable[int | None], linked: bool = False) -> list[int | None]:
        """Exile all of ``oids`` at once; their new ids (``None``: not exiled)."""
        return self.game.exile_all([o for o in oids if o is not None],
                                   exiled_with=self.source if linked else 0)

    def put_all_onto_battlefield(self, oids: Iterable[int | None], controller: int | None = None,
                                 tapped: bool = False) -> list[int | None]:
        """Put all of ``oids`` onto the battlefield at once (under their owners' control,
        or ``controller``'s); their new ids."""
        return self.game.move_all([self._object(o, "put_all_onto_battlefield") for o in oids
                                   if o is not None], "battlefield", reason="put",
                                  controller=-1 if controller is None else
                                  self.as_player(controller, "put_all_onto_battlefield"),
                                  tapped=tapped)

    def discard_all(self, oids: Iterable[int | None]) -> None:
        """Discard all of ``oids`` (cards in hands) at once."""
        self.game.move_all([o for o in oids if o is not None], "graveyard", reason="discard")

    def put_on_library(self, oid: int | None, bottom: bool = False) -> None:
        """Put on top (or the bottom) of its owner's library."""
        if oid is not None and oid in self.game.state.objects:
            owner = self.game.state.objects[oid].owner
            # (position -1 means "the top" for a card put into a library; past the end is
            # the bottom)
            bottom_at = len(self.game.state.players[owner].library) + 1
            self.game.move(oid, "library", reason="put", position=bottom_at if bottom else 0)

    def draw(self, player: int | None = None, n: int = 1) -> None:
        self.game.draw(self.controller if player is None else self.as_player(player, "draw"),
                       n)

    def discard(self, player: int, oid: int) -> None:
        self.as_player(player, "discard")
        self.game.move(self._object(oid, "discard"), "graveyard", reason="discard")

    def mill(self, player: int, n: int) -> None:
        """``player`` mills ``n`` cards (all at once)."""
        lib = self.game.state.players[self.as_player(player, "mill")].library
        self.game.move_all(list(lib[:n]), "graveyard", reason="mill")

    def shuffle(self, player: int | None = None) -> None:
        self.game.shuffle(self.controller if player is None else
                          self.as_player(player, "shuffle"))

    def gain_life(self, player: int | None, n: int) -> None:
        if player is not None and n > 0:
            self.game.emit(ev.LifeGained(player=self.as_player(player, "gain_life"), n=n))

    def lose_life(self, player: int | None, n: int) -> None:
        if player is not None and n > 0:
            self.game.emit(ev.LifeLost(player=self.as_player(player, "lose_life"), n=n))

    def tap(self, oid: int | None) -> None:
        if oid is not None and not self.game.state.objects[self._object(oid, "tap")].tapped:
            self.game.emit(ev.Tapped(obj=oid))

    def untap(self, oid: int | None) -> None:
        if oid is not None and self.game.state.objects[self._object(oid, "untap")].tapped:
            self.game.emit(ev.Untapped(obj=oid))

    def put_counters(self, oid: int | None, kind: str, n: int = 1) -> None:
        if oid is not None and n > 0:
            self.game.emit(ev.CounterPlaced(obj=self._object(oid, "put_counters"), kind=kind,
                                            n=n))

    def remove_counters(self, oid: int | None, kind: str, n: int = 1) -> None:
        if oid is None:
            return
        have = self.game.state.objects[oid].counters.get(kind, 0)
        n = min(n, have)
        if n > 0:
            self.game.emit(ev.CounterRemoved(obj=oid, kind=kind, n=n))

    def create_token(self, name: str, n: int = 1, controller: int | None = None,
                     attached_to: int = 0, tapped: bool = False) -> list[int]:
        who = self.controller if controller is None else self.as_player(controller,
                                                                         "create_token")
        return [self.game.create_token(name, who, attached_to=attached_to, tapped=tapped)
                for _ in range(n)]

    def create_token_copy(self, of: int | None, n: int = 1, controller: int | None = None,
                          tapped: bool = False) -> list[int]:
        """"Create a token that's a copy of [permanent ``of``]" (CR 707.2, 111.10): tokens of
        the card whose copiable values ``of`` has now -- its own card, or what it is a copy
        of (a Shapesharer that is a copy of a Mulldrifter is copied as a Mulldrifter).
        Nothing if ``of`` is gone (``None``)."""
        if of is None:
            return []
        from mtgk.rules.layers import copiable_name
        return self.create_token(copiable_name(self.game.chars(of)), n, controller,
                                 tapped=tapped)

    def until_end_of_turn(self, kind: str, objs: Sequence[int | None], params: Any = None
                          ) -> None:
        """A continuous effect on ``objs`` that lasts until end of turn (``None`` among
        them -- a target that is gone, ``c.subject`` -- is left out)."""
        present = _present(objs)
        if present is not None:
            self.game.add_effect(kind, present, params, self.source, self.controller, "eot")

    def until_your_next_turn(self, kind: str, objs: Sequence[int | None], params: Any = None
                             ) -> None:
        """A continuous effect on ``objs`` that lasts until this ability's controller's next
        turn (duration ``next_turn``: it ends as that turn begins)."""
        present = _present(objs)
        if present is not None:
            self.game.add_effect(kind, present, params, self.source, self.controller, "next_turn")

    def become_copy(self, oid: int | None, of: int | None, duration: str = "") -> None:
        """``oid`` becomes a copy of ``of`` (CR 707.2; layer 1): it copies ``of``'s copiable
        values as they are now, for ``duration`` (``"eot"``, ``"next_turn"``, ``""``)."""
        if oid is None or of is None:
            return
        from mtgk.rules.layers import copiable_name
        self.game.add_effect("copy", [oid], copiable_name(self.game.chars(of)), self.source,
                             self.controller, duration)

    def forever(self, kind: str, objs: Sequence[int | None], params: Any = None
                ) -> None:
        """A continuous effect on ``objs`` with no duration."""
        present = _present(objs)
        if present is not None:
            self.game.add_effect(kind, present, params, self.source, self.controller, "")

    def while_on_battlefield(self, kind: str, objs: Sequence[int | None], params: Any = None
                             ) -> None:
        """A continuous effect on ``objs`` "for as long as [this source] remains on the
        battlefield" (duration ``while_source``): it ends as the source leaves, and never
        begins if the source has already left."""
        present = _present(objs)
        o = self.game.state.objects.get(self.source)
        if o is not None and o.zone == "battlefield" and present:
            self.game.add_effect(kind, present, params, self.source, self.controller,
                                 "while_source")

    def gain_control(self, oid: int | None, until_eot: bool = False) -> None:
        if oid is not None:
            self.game.add_effect("control", [oid], self.controller, self.source,
                                 self.controller, "eot" if until_eot else "")

    def counter(self, item: int | None) -> None:
        """Counter a spell or ability on the stack."""
        if item is not None:
            self.game.counter(item, by=self.controller)

    # ---------------------------------------------------------------- asking
    def choose(self, options: Sequence[Any], kind: str = "choose", player: int | None = None,
               prompt: str = "", count: int | None = None, up_to: bool = False) -> Any:
        """Ask a player to choose one option (or, with ``count``, a list of them)."""
        return self.game.choose(self.controller if player is None else
                                self.as_player(player, "choose"), kind,
                                list(options), prompt=prompt, count=count, up_to=up_to)

    def may(self, prompt: str = "", player: int | None = None) -> bool:
        """Ask "you may ..."; the default answer is no."""
        return bool(self.game.choose(self.controller if player is None else
                                     self.as_player(player, "may"), "may",
                                     [False, True], prompt=prompt))

    def pay(self, player: int, cost: str, prompt: str = "") -> bool:
        """"[player] may pay [cost]" (as in "unless its controller pays {X}"): asks them
        (``may``, default no; the decision's context is ``{"answer": "pay", "cost": cost}``,
        which a scenario answers with ``{pay: yes}``) if they can pay -- one that can't is
        "asked" with the one answer no; True if they paid.  A cost of nothing is paid
        without asking."""
        from mtgk.rules.mana import ManaCost
        player = self.as_player(player, "pay")
        mana = ManaCost.parse(cost)
        if mana.is_free:
            return True
        plan = self.game.plan_mana(player, mana)
        paid = self.game.choose(player, "may", [False] if plan is None else [False, True],
                                prompt=prompt or f"pay {cost}?",
                                context={"answer": "pay", "cost": cost})
        if plan is None or not paid:
            return False
        self.game.pay(player, plan)
        return True

    def reveal(self, player: int, objs: Sequence[int]) -> None:
        if objs:
            self.game.emit(ev.Revealed(player=self.as_player(player, "reveal"),
                                       objs=tuple(self._object(o, "reveal") for o in objs)))

    def look_at(self, player: int, objs: Sequence[int]) -> None:
        """``player`` looks at ``objs`` privately ("look at the top card of your
        library"): a ``Revealed`` event shown to that player only (no one else learns
        what the cards are)."""
        p = self.as_player(player, "look_at")
        if objs:
            self.game.emit(ev.Revealed(player=p, objs=tuple(self._object(o, "look_at")
                                                            for o in objs), to=(p,)))

    def take_extra_turn(self, player: int | None = None) -> None:
        """``player`` (default: this ability's controller) takes an extra turn after this
        one (CR 500.7: the most recently created extra turn is taken first)."""
        who = self.controller if player is None else self.as_player(player,
                                                                     "take_extra_turn")
        self.game.add_effect("extra_turn", [], who, self.source, self.controller, "")

    def play(self, card: int | None, player: int | None = None, optional: bool = True,
             prompt: str = "") -> int | None:
        """``player`` (default: this ability's controller) plays ``card`` as this resolves,
        without paying its mana cost ("you may play/cast that card without paying its
        mana cost", CR 608.2g): a land counts as their land play (only on their turn with
        one left), any other card is cast from where it is (its modes, X and targets
        chosen then; no alternative cost).  ``optional``: "you may" (asked only if it
        can be played).  The spell's (or land's) new id, or ``None``."""
        if card is None:
            return None
        who = self.controller if player is None else self.as_player(player, "play")
        return self.game.play_during_resolution(who, self._object(card, "play"),
                                                optional=optional, prompt=prompt)

    def cast(self, card: int | None, player: int | None = None, free: bool = True,
             optional: bool = True, prompt: str = "") -> int | None:
        """``player`` casts ``card`` (not a land) as this resolves: without paying its mana
        cost (``free``), or paying it (``free=False``: "you may cast it", paid now).  The
        spell's id, or ``None`` if it isn't cast (see :meth:`play`)."""
        if card is None:
            return None
        who = self.controller if player is None else self.as_player(player, "cast")
        return self.game.cast_during_resolution(who, self._object(card, "cast"), free=free,
                                                optional=optional, prompt=prompt)

    def player_ref(self, player: int) -> int:
        return player_ref(player)


def _present(objs: Sequence[int | None]) -> list[int] | None:
    """``objs`` without ``None`` (a target that is gone, no ``Ctx.subject``); ``None`` if
    that leaves nothing of what was given (then the effect affects nothing)."""
    out = [o for o in objs if o is not None]
    return None if objs and not out else out


# ---------------------------------------------------------------- costs paid
def alt_cost_paid(v: View | Game, obj: int, name: str) -> bool:
    """Whether ``obj`` -- a spell on the stack, or a permanent -- was cast for its
    alternative cost ``name`` (what was *chosen* counts: a cost reduced to nothing was
    still paid).  A permanent that wasn't cast, or is a new object since (a flicker),
    was not."""
    s = v.state
    for item in s.stack:
        if item.id == obj and item.kind == "spell":
            return bool(item.data == name)
    o = s.objects.get(obj)
    return o is not None and o.zone == "battlefield" and o.flags.get("cast_alt") == name


def paid_flag(name: str) -> str:
    """The flag a spell cast with its optional cost ``name`` paid carries."""
    return f"cast_paid_{name}"


def optional_cost_paid(v: View | Game, obj: int, name: str) -> bool:
    """Whether the spell ``obj`` (on the stack or resolving), or the permanent it became,
    was cast with its optional cost ``name`` paid."""
    o = v.state.objects.get(obj)
    return bool(o is not None and o.flags.get(paid_flag(name)))
