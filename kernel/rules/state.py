"""Game state and the projector that folds events into it.

The state is plain data (msgspec Structs, lists, dicts, ints, strings): no
callables and no references into plugin objects.  The Structs (:class:`State`,
:class:`Obj`, :class:`Player`, ...) are defined in :mod:`mtgk.rules.structs` and
imported from here; this module is compiled with mypyc in a compiled kernel, that one
never (a Struct defined in a compiled module loses its precise annotations, with which
msgspec decodes the snapshots of a seek).  Card behaviour is referred
to by the card's Oracle name.  :func:`apply` is the *only* code that changes
a state; the engine appends events and the same function folds them, live or
in replay.

>>> from mtgk.log import events as ev
>>> s = new_state()
>>> apply(s, ev.GameStarted(players=("alice", "bob"), seed=7))
>>> apply(s, ev.ObjectCreated(obj=1, card="Forest", owner=0, zone="hand"))
>>> s.players[0].hand, s.objects[1].zone
([1], 'hand')
>>> apply(s, ev.LandPlayed(player=0, obj=1, new_obj=2))
>>> s.battlefield, s.players[0].lands_played
([2], 1)
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any, cast

import msgspec

from mtgk.log import events as ev
from mtgk.rules.names import zone_named
from mtgk.rules.seats import TWO_HEADED_GIANT, TWO_HEADED_GIANT_LIFE, team_of
from mtgk.rules.structs import Combat, Effect, Obj, Player, StackItem, State

__all__ = [
    "PLAYER_ZONES", "PROJECTORS", "ZONES", "Combat", "Effect", "Obj", "Player", "StackItem",
    "State", "apply", "copy_state", "decode_state", "encode_state", "fold", "new_state", "register_projector",
    "stack_controller", "stack_item", "zone_ids", "zone_list",
]

ZONES = ("library", "hand", "battlefield", "graveyard", "stack", "exile")
PLAYER_ZONES = ("library", "hand", "graveyard")


def zone_ids(state: State, zone: str) -> list[int]:
    """The ids of the objects in ``zone``: the battlefield, stack and exile in their order,
    a player zone (``hand``, ``library``, ``graveyard``) of every player in seat order.
    The battlefield and exile lists are the state's own (don't change them)."""
    if zone == "battlefield":
        return state.battlefield
    if zone == "stack":
        return [it.id for it in state.stack]
    if zone == "exile":
        return state.exile
    return [i for p in state.players for i in getattr(p, zone)]


def new_state() -> State:
    return State()


def stack_item(s: State, item: int | None) -> StackItem | None:
    """The spell or ability ``item`` on the stack (``None`` if it is not on the stack)."""
    return next((it for it in s.stack if it.id == item), None)


def stack_controller(s: State, item: int | None) -> int | None:
    """Who controls the spell or ability ``item`` on the stack (``None``: not on it)."""
    it = stack_item(s, item)
    return None if it is None else it.controller


# --------------------------------------------------------------------------
# helpers used by the projector (pure functions of state)

def zone_list(s: State, zone: str, player: int) -> list[int] | None:
    """The list of ids of ``zone`` (``player``'s, for a player zone) that the state keeps;
    ``None`` for the stack (a list of :class:`StackItem`) and any other name."""
    if zone == "battlefield":
        return s.battlefield
    if zone == "hand":
        return s.players[player].hand
    if zone == "library":
        return s.players[player].library
    if zone == "graveyard":
        return s.players[player].graveyard
    if zone == "exile":
        return s.exile
    return None


def _remove(s: State, o: Obj) -> None:
    zone = o.zone
    oid = o.id
    if zone == "stack":
        s.stack = [it for it in s.stack if it.id != oid]
        return
    lst = zone_list(s, zone, o.owner)
    if lst is not None:
        try:
            lst.remove(oid)
        except ValueError:
            pass
    if zone == "battlefield":
        if s.combat is not None:
            _drop_from_combat(s, oid)
        objects = s.objects
        for other in s.battlefield:
            oo = objects[other]
            if oo.attached_to == oid:
                oo.attached_to = 0


def _drop_from_combat(s: State, oid: int) -> None:
    c = s.combat
    assert c is not None
    c.attackers.pop(oid, None)
    c.blocked.pop(oid, None)
    c.blockers.pop(oid, None)
    for blockers in c.blocked.values():
        if oid in blockers:
            blockers.remove(oid)
    if oid in c.attackers.values() and oid not in c.removed_attacked:
        c.removed_attacked.append(oid)


def _place(s: State, o: Obj, position: int) -> None:
    lst = zone_list(s, o.zone, o.owner)
    if lst is None:
        return
    if position == -1 or position >= len(lst):
        lst.append(o.id)
    else:
        lst.insert(position, o.id)


def _move(s: State, old: int, new: int, to_zone: str, position: int = -1,
          controller: int = -1, face_down: bool = False) -> Obj:
    """Move object ``old`` to ``to_zone`` as the new object ``new`` (CR 400.7).  A token
    that leaves the battlefield is kept until the state-based action removes it."""
    objects = s.objects
    o = objects.pop(old)
    _remove(s, o)
    owner = o.owner
    s.timestamp = timestamp = s.timestamp + 1
    n = Obj(id=new, card_id=o.card_id, card=o.card, owner=owner,
            controller=owner if controller < 0 else controller, zone=zone_named(to_zone),
            token=o.token, face_down=face_down, timestamp=timestamp)
    if to_zone == "battlefield":
        n.sick = True
        if o.zone == "stack":  # a resolving permanent spell remembers how it was cast
            n.flags = {k: v for k, v in o.flags.items() if k.startswith("cast_")}
    objects[new] = n
    if new >= s.next_id:
        s.next_id = new + 1
    lst = zone_list(s, to_zone, owner)
    if lst is not None:
        if position == -1 or position >= len(lst):
            lst.append(new)
        else:
            lst.insert(position, new)
    return n


# --------------------------------------------------------------------------
# the projector

def _game_started(s: State, e: ev.GameStarted) -> None:
    s.players = [Player(name=n) for n in e.players]
    s.seed = e.seed
    s.profile = e.profile


def _game_variant(s: State, e: ev.GameVariant) -> None:
    s.variant = e.variant
    s.teams = [list(t) for t in e.teams]
    if e.variant == TWO_HEADED_GIANT:
        for p in s.players:  # the team's shared life total (CR 810.9)
            p.life = TWO_HEADED_GIANT_LIFE


def _object_created(s: State, e: ev.ObjectCreated) -> None:
    s.timestamp += 1
    o = Obj(id=e.obj, card_id=e.obj, card=e.card, owner=e.owner,
            controller=e.owner if e.controller < 0 else e.controller, zone=zone_named(e.zone),
            token=e.token, tapped=e.tapped, sick=e.sick, face_down=e.face_down,
            timestamp=s.timestamp)
    s.objects[e.obj] = o
    s.next_id = max(s.next_id, e.obj + 1)
    _place(s, o, -1)


def _library_shuffled(s: State, e: ev.LibraryShuffled) -> None:
    s.players[e.player].library = list(e.order)


def _turn_began(s: State, e: ev.TurnBegan) -> None:
    s.turn = e.turn
    s.active = e.active
    s.damaged = []
    for p in s.players:
        p.lands_played = 0
    team = team_of(s, e.active)
    objects = s.objects
    controls = [x for x in s.effects if x.kind == "control"]
    for oid in s.battlefield:
        o = objects[oid]
        ctrl = o.controller  # as _effect_controller says, the effects looked up once a turn
        for x in controls:
            if oid in x.objs:
                ctrl = int(x.params)
        if ctrl in team:
            o.sick = False


def _step_began(s: State, e: ev.StepBegan) -> None:
    s.step = e.step


def _decision(s: State, e: ev.DecisionMade) -> None:
    s.decisions += 1


def _zone_changed(s: State, e: ev.ZoneChanged) -> None:
    _move(s, e.obj, e.new_obj, e.to_zone, e.position, e.controller)


def _removed_from_game(s: State, e: ev.RemovedFromGame) -> None:
    n = _move(s, e.obj, e.new_obj, "exile", -1, -1, e.face_down)
    if e.exiled_with:
        n.flags = {"exiled_with": e.exiled_with}


def _token_created(s: State, e: ev.TokenCreated) -> None:
    s.timestamp += 1
    o = Obj(id=e.obj, card_id=e.obj, card=e.card, owner=e.owner, controller=e.controller,
            zone="battlefield", token=True, sick=True, tapped=e.tapped,
            attached_to=e.attached_to, timestamp=s.timestamp)
    s.objects[e.obj] = o
    s.next_id = max(s.next_id, e.obj + 1)
    s.battlefield.append(e.obj)


def _tapped(s: State, e: ev.Tapped) -> None:
    s.objects[e.obj].tapped = True


def _untapped(s: State, e: ev.Untapped) -> None:
    s.objects[e.obj].tapped = False


def _counter_placed(s: State, e: ev.CounterPlaced) -> None:
    if e.obj < 0:  # counters on a player: poison counters (CR 122.1f)
        s.players[-1 - e.obj].poison += e.n
        return
    o = s.objects[e.obj]
    c = dict(o.counters)
    c[e.kind] = c.get(e.kind, 0) + e.n
    o.counters = c


def _counter_removed(s: State, e: ev.CounterRemoved) -> None:
    o = s.objects[e.obj]
    c = dict(o.counters)
    left = c.get(e.kind, 0) - e.n
    if left > 0:
        c[e.kind] = left
    else:
        c.pop(e.kind, None)
    o.counters = c


def _attached(s: State, e: ev.Attached) -> None:
    s.timestamp += 1
    o = s.objects[e.obj]
    o.attached_to = e.to
    o.timestamp = s.timestamp


def _control_changed(s: State, e: ev.ControlChanged) -> None:
    s.timestamp += 1
    o = s.objects[e.obj]
    o.controller = e.controller
    o.sick = True
    o.timestamp = s.timestamp
    if s.combat is not None and o.zone == "battlefield":
        _drop_from_combat(s, o.id)
    for it in s.stack:  # a spell changing controllers: its new controller resolves it
        if it.id == e.obj and it.kind == "spell":
            it.controller = e.controller


def _object_flagged(s: State, e: ev.ObjectFlagged) -> None:
    o = s.objects[e.obj]
    f = dict(o.flags)
    if e.value is None:
        f.pop(e.key, None)
    else:
        f[e.key] = e.value
    o.flags = f
    if e.key == "known_to":
        o.known_to = list(e.value or [])


def _land_played(s: State, e: ev.LandPlayed) -> None:
    _move(s, e.obj, e.new_obj, "battlefield", -1, e.player)  # the player who plays it
    s.players[e.player].lands_played += 1


def _revealed(s: State, e: ev.Revealed) -> None:
    """Revealing changes nothing in the state: the event is the record of who saw what."""


def _spell_cast(s: State, e: ev.SpellCast) -> None:
    n = _move(s, e.obj, e.new_obj, "stack", -1, e.controller)
    if e.face:  # cast as another face (an Adventure): it has that face's characteristics
        n.flags = {"face": e.face}
    s.stack.append(StackItem(id=e.new_obj, kind="spell", source=e.new_obj, ability="spell",
                             controller=e.controller, targets=list(e.targets),
                             modes=list(e.modes), x=e.x, data=e.alt or None,
                             source_card=e.face or n.card))


def _ability_activated(s: State, e: ev.AbilityActivated) -> None:
    src = s.objects.get(e.source)
    s.stack.append(StackItem(id=e.item, kind="activated", source=e.source, ability=e.ability,
                             controller=e.controller, targets=list(e.targets), x=e.x,
                             source_card=src.card if src else ""))
    s.next_id = max(s.next_id, e.item + 1)
    if e.loyalty and src is not None:
        src.loyalty_turn = s.turn


def _ability_triggered(s: State, e: ev.AbilityTriggered) -> None:
    src = s.objects.get(e.source)
    s.pending.append(StackItem(id=e.item, kind="triggered", source=e.source, ability=e.ability,
                               controller=e.controller, data=e.data,
                               source_card=src.card if src else ""))
    s.next_id = max(s.next_id, e.item + 1)


def _trigger_put_on_stack(s: State, e: ev.TriggerPutOnStack) -> None:
    for i, it in enumerate(s.pending):
        if it.id == e.item:
            del s.pending[i]
            it.targets = list(e.targets)
            it.modes = list(e.modes)
            s.stack.append(it)
            return


def _stack_item_done(s: State, item: int) -> None:
    s.stack = [it for it in s.stack if it.id != item]
    s.pending = [it for it in s.pending if it.id != item]


def _resolved(s: State, e: ev.StackItemResolved) -> None:
    _stack_item_done(s, e.item)


def _countered(s: State, e: ev.StackItemCountered) -> None:
    _stack_item_done(s, e.item)


def _mana_added(s: State, e: ev.ManaAdded) -> None:
    # restricted mana is kept as "R:<restriction>" (mtgk.rules.mana.restriction)
    tag = ":" + e.spend if e.spend else ""
    s.players[e.player].mana = s.players[e.player].mana + [m + tag for m in e.mana]


def _mana_spent(s: State, e: ev.ManaSpent) -> None:
    pool = list(s.players[e.player].mana)
    tag = ":" + e.spend if e.spend else ""
    for m in e.mana:
        pool.remove(m + tag)
    s.players[e.player].mana = pool


def _mana_emptied(s: State, e: ev.ManaEmptied) -> None:
    s.players[e.player].mana = []


def _life_gained(s: State, e: ev.LifeGained) -> None:
    if s.teams:  # a team's life total is shared (CR 810.9): each player's is the team's
        for q in team_of(s, e.player):
            s.players[q].life += e.n
        return
    s.players[e.player].life += e.n


def _life_lost(s: State, e: ev.LifeLost) -> None:
    if s.teams:
        for q in team_of(s, e.player):
            s.players[q].life -= e.n
        return
    s.players[e.player].life -= e.n


def _damage_dealt(s: State, e: ev.DamageDealt) -> None:
    if e.target not in s.damaged:
        s.damaged = s.damaged + [e.target]
    p = ev.ref_player(e.target)
    if p is not None:
        for q in team_of(s, p) if s.teams else (p,):  # (a shared life total: CR 810.9)
            s.players[q].life -= e.amount
        return
    o = s.objects.get(e.target)
    if o is not None:
        # Damage to a planeswalker removes loyalty counters: the engine emits
        # CounterRemoved for that.  Damage is marked on creatures.
        o.damage += e.amount
        if e.deathtouch:
            o.deathtouched = True


def _damage_redirected(s: State, e: ev.DamageRedirected) -> None:
    pass


def _damage_marked(s: State, e: ev.DamageMarked) -> None:
    o = s.objects[e.obj]
    o.damage += e.amount
    if e.obj not in s.damaged:  # it was dealt damage this turn
        s.damaged = s.damaged + [e.obj]


def _damage_removed(s: State, e: ev.DamageRemoved) -> None:
    for oid in s.battlefield:
        o = s.objects[oid]
        o.damage = 0
        o.deathtouched = False


def _attackers(s: State, e: ev.AttackersDeclared) -> None:
    s.combat = Combat(attackers={a: d for a, d in e.attacks})
    if len(s.players) == 2 and not s.teams:  # the one opponent
        s.combat.defenders = [1 - s.active]
        return
    defenders: list[int] = []
    for _a, d in e.attacks:
        p = ev.ref_player(d)
        if p is None:
            p = _effect_controller(s, d) if d in s.objects else None
        if p is not None and p < len(s.players):
            defenders.extend(q for q in team_of(s, p) if q not in defenders)
    s.combat.defenders = defenders


def _blockers(s: State, e: ev.BlockersDeclared) -> None:
    c = s.combat
    if c is None:
        c = s.combat = Combat()
    for b, a in e.blocks:
        c.blockers.setdefault(b, []).append(a)
        c.blocked.setdefault(a, []).append(b)
        if a not in c.was_blocked:
            c.was_blocked.append(a)
    for a in c.attackers:
        c.blocked.setdefault(a, [])


def _removed_from_combat(s: State, e: ev.RemovedFromCombat) -> None:
    if s.combat is not None:
        _drop_from_combat(s, e.obj)


def _combat_ended(s: State, e: ev.CombatEnded) -> None:
    s.combat = None


def _first_strikers(s: State, e: ev.FirstStrikers) -> None:
    if s.combat is not None:
        s.combat.first_strikers = list(e.objs)


def _effect_controller(s: State, oid: int) -> int:
    """Who controls ``oid`` by the control effects of resolved spells and abilities (the
    latest one wins), for summoning sickness (CR 302.6): a permanent that comes under
    another player's control this way is "sick" until that player's next turn begins."""
    ctrl = s.objects[oid].controller
    for x in s.effects:
        if x.kind == "control" and oid in x.objs:
            ctrl = int(x.params)
    return ctrl


def _control_effects_change(s: State, objs: list[int], change: Callable[[], None]) -> None:
    """Apply ``change`` (to ``s.effects``); objects whose controller it changes get sick."""
    before = {o: _effect_controller(s, o) for o in objs if o in s.objects}
    change()
    for o, ctrl in before.items():
        if _effect_controller(s, o) != ctrl:
            s.objects[o].sick = True


def _effect_created(s: State, e: ev.EffectCreated) -> None:
    s.timestamp += 1
    new = Effect(id=e.effect, kind=e.kind, source=e.source, controller=e.controller,
                 objs=list(e.objs), params=e.params, duration=e.duration,
                 timestamp=s.timestamp)
    if e.kind == "control":
        _control_effects_change(s, list(e.objs), lambda: s.effects.append(new))
    else:
        s.effects.append(new)
    s.next_id = max(s.next_id, e.effect + 1)


def _effects_ended(s: State, e: ev.EffectsEnded) -> None:
    gone = e.effects
    objs = [o for x in s.effects if x.id in gone and x.kind == "control" for o in x.objs]

    def end() -> None:
        s.effects = [x for x in s.effects if x.id not in gone]
    if objs:
        _control_effects_change(s, objs, end)
    else:
        end()


def _player_lost(s: State, e: ev.PlayerLost) -> None:
    s.players[e.player].lost = True


def _drew_from_empty(s: State, e: ev.DrewFromEmptyLibrary) -> None:
    s.players[e.player].drew_from_empty = True


def _game_ended(s: State, e: ev.GameEnded) -> None:
    s.over = True
    s.winner = e.winner


def _next_ids(s: State, *ids: int) -> None:
    for i in ids:
        if i >= s.next_id:
            s.next_id = i + 1


PROJECTORS: dict[type[ev.Event], Callable[[State, Any], None]] = {
    ev.GameStarted: _game_started,
    ev.GameVariant: _game_variant,
    ev.ObjectCreated: _object_created,
    ev.LibraryShuffled: _library_shuffled,
    ev.TurnBegan: _turn_began,
    ev.StepBegan: _step_began,
    ev.DecisionMade: _decision,
    ev.ZoneChanged: _zone_changed,
    ev.RemovedFromGame: _removed_from_game,
    ev.TokenCreated: _token_created,
    ev.Tapped: _tapped,
    ev.Untapped: _untapped,
    ev.CounterPlaced: _counter_placed,
    ev.CounterRemoved: _counter_removed,
    ev.Attached: _attached,
    ev.ControlChanged: _control_changed,
    ev.ObjectFlagged: _object_flagged,
    ev.LandPlayed: _land_played,
    ev.Revealed: _revealed,
    ev.SpellCast: _spell_cast,
    ev.AbilityActivated: _ability_activated,
    ev.AbilityTriggered: _ability_triggered,
    ev.TriggerPutOnStack: _trigger_put_on_stack,
    ev.StackItemResolved: _resolved,
    ev.StackItemCountered: _countered,
    ev.ManaAdded: _mana_added,
    ev.ManaSpent: _mana_spent,
    ev.ManaEmptied: _mana_emptied,
    ev.LifeGained: _life_gained,
    ev.LifeLost: _life_lost,
    ev.DamageDealt: _damage_dealt,
    ev.DamageRedirected: _damage_redirected,
    ev.DamageRemoved: _damage_removed,
    ev.DamageMarked: _damage_marked,
    ev.AttackersDeclared: _attackers,
    ev.BlockersDeclared: _blockers,
    ev.RemovedFromCombat: _removed_from_combat,
    ev.CombatEnded: _combat_ended,
    ev.FirstStrikers: _first_strikers,
    ev.EffectCreated: _effect_created,
    ev.EffectsEnded: _effects_ended,
    ev.PlayerLost: _player_lost,
    ev.GameEnded: _game_ended,
    ev.DrewFromEmptyLibrary: _drew_from_empty,
}


def register_projector(cls: type[ev.Event], fn: Callable[[State, Any], None]) -> None:
    """Let a plugin that defines its own event type say how it changes the state."""
    PROJECTORS[cls] = fn


def apply(s: State, e: ev.Event) -> None:
    """Fold one event into ``s`` (in place).  The only writer of game state."""
    fn = PROJECTORS.get(type(e))
    if fn is not None:
        fn(s, e)


def fold(events: list[ev.Event] | list[ev.Envelope], state: State | None = None) -> State:
    """Replay ``events`` (or envelopes) onto a new (or the given) state.

    Without garbage collection meanwhile: a state is a tree (Structs, lists, dicts),
    folding makes no reference cycles, and collecting while its objects are made only
    walks them (and the events) again and again (about a tenth of a replay's time)."""
    s = state if state is not None else new_state()
    if not gc.isenabled():
        return _fold(s, events)
    gc.disable()
    try:
        return _fold(s, events)
    finally:
        gc.enable()


def _fold(s: State, events: list[ev.Event] | list[ev.Envelope]) -> State:
    get = cast("dict[type, Callable[[State, Any], None]]", PROJECTORS).get
    for fn, e in zip(map(get, map(type, events)), events, strict=True):  # (look-ups in C)
        if fn is None:  # an envelope (no projector is registered for Envelope), or no-op
            if not isinstance(e, ev.Envelope):
                continue
            e = e.event
            fn = get(type(e))
            if fn is None:
                continue
        fn(s, e)
    return s


_enc = msgspec.msgpack.Encoder()
_dec = msgspec.msgpack.Decoder(State)


def encode_state(s: State) -> bytes:
    """Canonical bytes of a state (for hashing and comparing)."""
    return _enc.encode(s)


def decode_state(data: bytes) -> State:
    """The state whose bytes :func:`encode_state` gave."""
    return _dec.decode(data)


def copy_state(s: State) -> State:
    """An independent copy of ``s`` (msgspec round trip; no deepcopy)."""
    return _dec.decode(_enc.encode(s))
