"""Who may see what: hidden information in states, events and log headers.

The log stores the truth (which card each object is, every library order, the
seed).  A *perspective view* (``--as PLAYER`` in ``mtgk log``, ``replay``,
``diff``, ``explain`` and ``view``) shows only what that player may know, and
this module decides what that is.  The model, in four rules:

1. **Names.**  A player may know which card an object is (:meth:`Perspective.sees`)
   when it is face up in a public zone (battlefield, stack, graveyard, exile), in
   their own hand, known to them (``known_to``: a card exiled face down with
   hideaway, to the players who have controlled the land), or shown to them by a
   :class:`~mtgk.log.events.Revealed` event and still where it was shown (in the
   same zone, as the same object, with no shuffle of its library since).  Nobody
   sees a library's cards or order, not even its owner.
2. **Ids.**  Object ids are handed out one after the other as objects come into
   being, so the id of an object tells when it was made; library cards are made
   in deck-list order, so their ids tell which card of the list they are.  A
   player can tell an object apart from the others only where they can *follow*
   it (:func:`follows`): in a public zone (face down too) and in their own hand.
   Such an object is shown with its id (the id follows from the public sequence
   of events, and the player may link it to what happened to it while they could
   follow it).  An object the player can't follow -- a card in any library or in
   another player's hand -- has no id in the view at all: ``0`` in JSON (no
   object has id 0), nothing in text.  A label of its own, however opaque, would
   let the player link "the card Alice drew on turn 3" to "the card she cast on
   turn 7", which the rules don't let them do (a hand may be arranged at will,
   CR 402.3; a library is shuffled).  Once such a card moves where the player can
   follow it (it is cast, played, discarded, exiled), it is a new object with a
   new id: it is shown, and is not linked to where it came from.
3. **Cards followed across zones.**  A masked state's ``card_id`` (which the
   engine keeps across zone changes) is the player's own: it carries over a zone
   change only when the player could follow the card on both sides (a creature
   dying, a spell resolving), and starts afresh after the card was out of sight.
4. **The rest.**  The seed and every random state are never shown (with the
   decks they rebuild the whole game); nor are other players' decks, deck names
   and agents' seeds (:func:`visible_header`).  Free-form data of events (a
   trigger's triggering event, a flag's value, an effect's parameters) is masked
   by the same rules: an id of an object the player can't follow becomes ``0``.

:class:`Perspective` keeps what the rules above need while a log is folded
(:class:`mtgk.render.Renderer` folds one along); :meth:`Perspective.mask_event`
gives an event's fields as a player may see them.

>>> from mtgk.log import events as ev
>>> from mtgk.rules.state import apply, new_state
>>> s = new_state()
>>> apply(s, ev.GameStarted(players=("alice", "bob"), seed=0))
>>> apply(s, ev.ObjectCreated(obj=1, card="Forest", owner=0, zone="hand"))
>>> can_see(s, 1, 0), can_see(s, 1, 1)
(True, False)
>>> follows(s.objects[1], 0), follows(s.objects[1], 1)
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from mtgk.log import events as ev
from mtgk.log.answers import Activate, Assign, Cast, Pair, Pass, PlayLand
from mtgk.rules.state import Obj, State

__all__ = [
    "ID_CHOICE_KINDS",
    "OBJECT_FIELDS",
    "PLAIN_CHOICE_KINDS",
    "PLAYER_FIELDS",
    "PUBLIC_ZONES",
    "REF_FIELDS",
    "Perspective",
    "can_see",
    "field_holds_ids",
    "follows",
    "map_choice",
    "map_event_ids",
    "sees",
    "visible_header",
]

PUBLIC_ZONES = ("battlefield", "stack", "graveyard", "exile", "none")
"""Zones whose objects everyone can follow (and name, when they are face up)."""

# --------------------------------------------------------------------------
# Which fields of an event hold object ids

PLAYER_FIELDS = frozenset({"player", "controller", "owner", "winner", "active", "from_player"})
"""Event fields holding a player index."""
OBJECT_FIELDS = frozenset({"obj", "new_obj", "source", "item", "attached_to", "exiled_with",
                           "objs", "to", "order", "effect", "effects", "of"})
"""Event fields holding object ids (or tuples of them); ``to`` only when it is an int
(``Revealed.to`` lists players, plugin events may use it for a zone name)."""
REF_FIELDS = frozenset({"target", "targets", "attacking"})
"""Event fields holding references: an object id, or ``-1 - player``."""
ID_CHOICE_KINDS = frozenset({"bottom", "discard", "legend", "choose_card", "champion",
                             "hideaway", "sacrifice", "exile", "choose", "order", "role",
                             "scry", "top", "reveal", "search"})
"""Decision kinds whose choice is object ids (a list or one), or other plain values."""
PLAIN_CHOICE_KINDS = frozenset({"mulligan", "may", "modes", "mode", "x", "clash", "number",
                                "creature_type", "color", "first_player"})
"""Decision kinds whose choice never names an object."""
ID_KEYS = frozenset({"obj", "new_obj", "source", "item", "target", "to", "from", "of",
                     "attached_to", "exiled_with", "objs", "targets"})
"""Keys of free-form dictionaries (an effect's parameters) whose values are ids or refs."""
ID_FLAGS = frozenset({"exiled_with", "known_to_controllers_of"})
"""Per-object marks (``ObjectFlagged.key``) whose value is an object id."""
PUBLIC_FLAGS = frozenset({"exiled_with", "known_to", "known_to_controllers_of"})
"""Marks that are public even on a card the player can't see (who may look at it, what
it was exiled with)."""

IdMap = Callable[[int], int]


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _map_ref(x: Any, fn: IdMap) -> Any:
    """Map an object id (> 0) with ``fn``; players (< 0), 0 and non-ints unchanged."""
    if _is_int(x) and x > 0:
        return fn(x)
    return x


def _map_deep(x: Any, fn: IdMap) -> Any:
    if isinstance(x, list | tuple):
        return type(x)(_map_deep(i, fn) for i in x)
    return _map_ref(x, fn)


def map_choice(kind: str, choice: Any, fn: IdMap) -> Any:
    """``choice`` of a ``kind`` decision with every object id in it mapped by ``fn``.

    Priority actions (``["cast", obj, targets, modes, x, alt]``,
    ``["activate", obj, index, targets, x]``, ``["play", obj]``), target lists,
    attackers and blockers (pairs), damage assignments (``[ref, amount]``) and
    the kinds in :data:`ID_CHOICE_KINDS` are understood; numbers in other
    positions (modes, X, amounts, ability indexes) are left alone.  A kind not
    known here has every positive int in its choice mapped.

    >>> map_choice("priority", ["activate", 5, 2, [7, -1], 3], lambda i: i + 100)
    ['activate', 105, 2, [107, -1], 3]
    >>> map_choice("priority", Activate(5, 2, (7, -1), 3), lambda i: i + 100)
    Activate(source=105, ability=2, targets=(107, -1), x=3)
    >>> map_choice("assign", [[5, 2], [-2, 1]], lambda i: 0)
    [[0, 2], [-2, 1]]
    >>> from mtgk.log.answers import Attack
    >>> map_choice("attackers", [Attack(5, -2), Attack(6, 9)], lambda i: i + 100)
    [Attack(attacker=105, target=-2), Attack(attacker=106, target=109)]
    >>> map_choice("x", 5, lambda i: 0)
    5
    """
    try:
        if kind == "priority" and isinstance(choice, Cast):
            return Cast(_map_ref(choice.card, fn), tuple(_map_deep(list(choice.targets), fn)),
                        choice.modes, choice.x, choice.alt)
        if kind == "priority" and isinstance(choice, Activate):
            return Activate(_map_ref(choice.source, fn), choice.ability,
                            tuple(_map_deep(list(choice.targets), fn)), choice.x)
        if kind == "priority" and isinstance(choice, PlayLand):
            return PlayLand(_map_ref(choice.card, fn))
        if kind == "priority" and isinstance(choice, Pass):
            return choice
        if kind == "priority" and isinstance(choice, list) and choice:
            out = list(choice)
            if out[0] in ("play", "cast", "activate") and len(out) > 1:
                out[1] = _map_ref(out[1], fn)
            if out[0] == "cast" and len(out) > 2:
                out[2] = _map_deep(out[2], fn)
            if out[0] == "activate" and len(out) > 3:
                out[3] = _map_deep(out[3], fn)
            return out
        if kind in PLAIN_CHOICE_KINDS:
            return choice
        if kind == "assign" and isinstance(choice, list):
            return [Assign(_map_ref(p.recipient, fn), p.amount) if isinstance(p, Assign)
                    else [_map_ref(p[0], fn), *p[1:]] if isinstance(p, list) and p else p
                    for p in choice]
        if kind in ("attackers", "blockers") and isinstance(choice, list):
            return [type(p)(_map_ref(p[0], fn), _map_ref(p[1], fn)) if isinstance(p, Pair)
                    else _map_deep(p, fn) for p in choice]
        if kind in ("attackers", "blockers", "targets", "redirect") or kind in ID_CHOICE_KINDS:
            return _map_deep(choice, fn)
    except (TypeError, IndexError):
        return choice
    return _map_deep(choice, fn)


def field_holds_ids(e: ev.Event, name: str, value: Any) -> bool:
    """Whether field ``name`` (of value ``value``) of ``e`` holds object ids."""
    if name not in OBJECT_FIELDS:
        return False
    if name == "to" and isinstance(e, ev.Revealed):
        return False
    if _is_int(value):
        return True
    return isinstance(value, tuple | list) and all(_is_int(v) for v in value)


def map_event_ids(e: ev.Event, fn: IdMap) -> ev.Event:
    """A copy of ``e`` with the object (and effect) ids in its fields mapped by ``fn``.

    Covers the fields of :data:`OBJECT_FIELDS` and :data:`REF_FIELDS`,
    attack and block pairs, library orders, ``exiled_with`` flags and decision
    choices (see :func:`map_choice`).  Player references, zero ("none") and
    free-form data (``params``, ``data``) are left alone.  Events this kernel
    cannot read are returned unchanged.

    >>> map_event_ids(ev.Attached(obj=3, to=4), lambda i: i * 10)
    Attached(obj=30, to=40)
    """
    if not e.TAG or e.TAG not in ev.EVENT_TYPES:
        return e
    changes: dict[str, Any] = {}
    for name in e.__struct_fields__:
        v = getattr(e, name)
        if field_holds_ids(e, name, v) or name in REF_FIELDS:
            nv = _map_deep(v, fn)
        elif name in ("attacks", "blocks") or (name == "order" and isinstance(
                e, ev.LibraryShuffled)):
            nv = _map_deep(v, fn)
        elif name == "choice" and isinstance(e, ev.DecisionMade):
            nv = map_choice(e.kind, v, fn)
        elif name == "value" and isinstance(e, ev.ObjectFlagged) and e.key == "exiled_with":
            nv = _map_ref(v, fn)
        else:
            continue
        if nv != v:
            changes[name] = nv
    return msgspec.structs.replace(e, **changes) if changes else e


# --------------------------------------------------------------------------
# Who sees and follows an object


def can_see(state: State, obj_id: int, player: int) -> bool:
    """Whether ``player`` may know which card object ``obj_id`` is in ``state`` (rule 1,
    without what was revealed: see :meth:`Perspective.sees`)."""
    o = state.objects.get(obj_id)
    return o is not None and sees(o, player)


def sees(o: Obj, viewer: int | None) -> bool:
    """Whether ``viewer`` (``None``: everyone's view) may know which card ``o`` is by
    where it is (rule 1, without what was revealed)."""
    if viewer is None or viewer in o.known_to:
        return True
    if o.face_down:
        return False
    if o.zone in PUBLIC_ZONES:
        return True
    return o.zone == "hand" and o.owner == viewer


def follows(o: Obj, viewer: int | None) -> bool:
    """Whether ``viewer`` (``None``: everyone's view) can tell ``o`` apart from the
    other objects: it is in a public zone (face up or down), or in their own hand."""
    return viewer is None or o.zone in PUBLIC_ZONES or (o.zone == "hand" and o.owner == viewer)


# --------------------------------------------------------------------------
# A perspective, folded along a log


Status = tuple[bool, str | None]
"""What a perspective knows of one object: whether it follows it, and its name (or
``None``: the player may not know which card it is)."""


class Perspective:
    """What ``viewer`` (a player index; ``None`` for everyone) may know of a game, kept
    up to date as its log is folded: call :meth:`before` with each event and the
    state just before it, fold the event, then call :meth:`after` with the new state.

    ``revealed`` maps objects to the players they were shown to (while they stay
    where they were shown); ``gone`` remembers, for objects that no longer exist,
    what the viewer knew of them; ``last`` is what the viewer knew of each object the
    last folded event names, as of that event (before it for the objects it moves,
    after it for the ones it makes); ``cards`` maps followed objects to their card id
    in the viewer's eyes (rule 3; an object not in it is its own); ``names`` is every
    card name the viewer has been shown so far.  Whether the viewer follows an object
    never changes while the object exists (it stays in its zone), so ids are masked
    the same way at every moment.
    """

    def __init__(self, viewer: int | None = None) -> None:
        self.viewer = viewer
        self.revealed: dict[int, set[int]] = {}
        self.gone: dict[int, Status] = {}
        self.cards: dict[int, int] = {}
        self.last: dict[int, Status] = {}
        self.names: set[str] = set()
        self._pending: list[int] = []

    # ------------------------------------------------------------------ objects
    def sees(self, o: Obj) -> bool:
        """Whether the viewer may know which card ``o`` is (rule 1)."""
        if sees(o, self.viewer):
            return True
        return self.viewer in self.revealed.get(o.id, ())

    def follows(self, o: Obj) -> bool:
        """Whether the viewer can tell ``o`` apart from other objects (rule 2)."""
        return follows(o, self.viewer)

    def status(self, o: Obj) -> Status:
        """What the viewer knows of ``o`` now."""
        return (self.follows(o), o.card if self.sees(o) else None)

    def known(self, oid: int, state: State) -> Status | None:
        """What the viewer knows of object ``oid`` as of the last folded event (``None``:
        ``oid`` is not an object: a stack item, an effect, or a number)."""
        if oid in self.last:
            return self.last[oid]
        o = state.objects.get(oid)
        if o is not None:
            return self.status(o)
        return self.gone.get(oid)

    def shown_id(self, oid: int, state: State) -> int:
        """The id the viewer is shown for ``oid``: itself, or 0 for an object they can't
        follow (rule 2)."""
        if self.viewer is None:
            return oid
        k = self.known(oid, state)
        return oid if k is None or k[0] else 0

    def card_id(self, o: Obj) -> int:
        """The viewer's card id of a followed object (rule 3)."""
        return self.cards.get(o.id, o.id)

    # ------------------------------------------------------------------ folding
    def before(self, e: ev.Event, state: State) -> None:
        """Take note of ``e`` (with ``state`` as it is just before it)."""
        if self.viewer is None:
            return
        if isinstance(e, ev.Revealed):
            to = set(e.to) if e.to else set(range(len(state.players)))
            for oid in e.objs:
                self.revealed.setdefault(oid, set()).update(to)
        elif "order" in e.PRIVATE:  # a library shuffled or rearranged: nobody knows where
            player = getattr(e, "player", -1)
            if _is_int(player) and 0 <= player < len(state.players):
                keep = {player} if not isinstance(e, ev.LibraryShuffled) else set()
                for oid in state.players[player].library:
                    if oid in self.revealed:
                        self.revealed[oid] &= keep
        last: dict[int, Status] = {}
        pending: list[int] = []
        for oid in event_ids(e):
            if oid in last:
                continue
            o = state.objects.get(oid)
            if o is not None:
                last[oid] = self.status(o)
            else:
                pending.append(oid)
        self.last = last
        self._pending = pending

    def after(self, e: ev.Event, state: State) -> None:
        """Take note of ``e`` once folded (``state`` is the state right after it)."""
        if self.viewer is None:
            return
        last = self.last
        objects = state.objects
        for oid in self._pending:
            o = objects.get(oid)
            if o is not None:
                last[oid] = self.status(o)
        for oid, k in last.items():
            if oid not in objects:
                self.gone[oid] = k
                self.revealed.pop(oid, None)
            if k[1] is not None:
                self.names.add(k[1])
        face = getattr(e, "face", "")
        if isinstance(face, str) and face:  # the face a spell was cast as (public)
            self.names.add(face)
        old = getattr(e, "obj", None)
        new = getattr(e, "new_obj", None)
        if _is_int(old) and _is_int(new) and old in last and new in objects \
                and last[old][0] and self.follows(objects[new]):
            self.cards[new] = self.cards.get(old, old)

    # ------------------------------------------------------------------ masking
    def mask_event(self, e: ev.Event, state: State) -> dict[str, Any]:
        """The fields of the last folded event ``e`` as the viewer may see them
        (``state``: the state after it): ids of objects the viewer can't follow are 0,
        private fields they may not see are ``None`` (``[]`` for sequences), and so is
        an ability's key (``"Card#1"``) when its source is hidden."""
        body = {name: getattr(e, name) for name in e.__struct_fields__}
        if self.viewer is None:
            return body

        def shown(oid: int) -> int:
            return self.shown_id(oid, state)

        masked = map_event_ids(e, shown)
        for name in e.__struct_fields__:
            body[name] = getattr(masked, name)
        if e.PRIVATE and not self._private_visible(e):
            for name in e.PRIVATE:
                body[name] = [] if isinstance(body[name], tuple | list) else None
        if "seed" in body:  # the seed determines every random outcome
            body["seed"] = None
        if "ability" in body and isinstance(getattr(e, "source", None), int):
            k = self.known(e.source, state)  # type: ignore[attr-defined]
            if k is not None and k[1] is None:
                body["ability"] = None
        if "data" in body:
            body["data"] = self.mask_data(body["data"], state)
        if isinstance(e, ev.EffectCreated):
            body["params"] = self._mask_keys(e.params, shown)
        if isinstance(e, ev.ObjectFlagged):
            k = self.known(e.obj, state)
            if e.key == "known_to":
                pass  # players
            elif e.key in ID_FLAGS:
                body["value"] = _map_ref(e.value, shown)
            elif e.key not in PUBLIC_FLAGS and k is not None and k[1] is None:
                body["value"] = None
            else:
                body["value"] = self._mask_ints(e.value, state)
        return body

    def _private_visible(self, e: ev.Event) -> bool:
        if isinstance(e, ev.LibraryShuffled) or "order" in e.PRIVATE:
            return False  # no one knows a library's order
        oid = getattr(e, "new_obj", 0) or getattr(e, "obj", 0)
        k = self.last.get(oid) if _is_int(oid) else None
        return k is not None and k[1] is not None

    def mask_data(self, data: Any, state: State) -> Any:
        """A trigger's free-form ``data`` as the viewer may see it: a triggering event
        (``[tag, fields]`` and maybe a subject id) with its ids mapped, any other id of
        an object the viewer can't follow made 0."""
        if self.viewer is None or data is None:
            return data
        inner = _data_event(data)
        if inner is not None:
            body = self._mask_inner(inner, state)
            out: list[Any] = [data[0], [msgspec.to_builtins(body[f])
                                        for f in inner.__struct_fields__]]
            if len(data) == 3:
                out.append(self._mask_ints(data[2], state))
            return out
        return self._mask_ints(data, state)

    def _mask_inner(self, e: ev.Event, state: State) -> dict[str, Any]:
        """An event embedded in data (it happened earlier: its objects may be gone)."""
        saved = self.last
        self.last = {}
        try:
            body = self.mask_event(e, state)
        finally:
            self.last = saved
        if e.PRIVATE:
            for name in e.PRIVATE:
                body[name] = [] if isinstance(body[name], tuple | list) else None
        return body

    def _mask_ints(self, x: Any, state: State) -> Any:
        """``x`` with every int that is the id of an object the viewer can't follow
        made 0 (free-form data: other ints are left alone)."""
        if isinstance(x, list | tuple):
            return [self._mask_ints(i, state) for i in x]
        if isinstance(x, dict):
            return {k: self._mask_ints(v, state) for k, v in x.items()}
        if _is_int(x) and x > 0:
            k = self.known(x, state)
            return x if k is None or k[0] else 0
        return x

    def _mask_keys(self, x: Any, shown: IdMap) -> Any:
        """Free-form parameters: the values under :data:`ID_KEYS` mapped as ids."""
        if isinstance(x, dict):
            return {k: _map_deep(v, shown) if k in ID_KEYS else self._mask_keys(v, shown)
                    for k, v in x.items()}
        if isinstance(x, list | tuple):
            return [self._mask_keys(i, shown) for i in x]
        return x

    def mask_params(self, params: Any, state: State) -> Any:
        """An effect's free-form parameters as the viewer may see them (the ids under
        :data:`ID_KEYS` of objects they can't follow made 0)."""
        if self.viewer is None:
            return params
        return self._mask_keys(params, lambda oid: self.shown_id(oid, state))

    def mask_value(self, x: Any, state: State) -> Any:
        """Free-form data (a flag's value, a stack item's data) as the viewer may see it."""
        if self.viewer is None:
            return x
        return self.mask_data(x, state)

    def event_cards(self, e: ev.Event) -> dict[int, str | None]:
        """The objects the last folded event ``e`` names that the viewer can follow, with
        their names (``None``: a card they can't see, e.g. face down)."""
        return {oid: k[1] for oid, k in self.last.items() if k[0]}

    def revealed_names(self, e: ev.Event, state: State) -> list[str]:
        """The names of the cards a :class:`~mtgk.log.events.Revealed` event (the last
        folded one) shows the viewer (empty if they are not shown to them)."""
        if not isinstance(e, ev.Revealed) or (e.to and self.viewer not in e.to):
            return []
        return [k[1] for oid in e.objs if (k := self.last.get(oid)) is not None
                and k[1] is not None]


def event_ids(e: ev.Event) -> list[int]:
    """Every positive int in ``e`` that may be an object id, by the same rules the
    masking follows: its id fields and choice, the triggering event (and subject) in
    its ``data``, the id-valued keys of its ``params``, an id-valued flag."""
    found: list[int] = []

    def note(oid: int) -> int:
        found.append(oid)
        return oid

    if not e.TAG or e.TAG not in ev.EVENT_TYPES:
        return found
    map_event_ids(e, note)
    data = getattr(e, "data", None)
    if data is not None:
        inner = _data_event(data)
        if inner is not None:
            found.extend(event_ids(inner))
            _walk_ints(list(data[2:]), note)
        else:
            _walk_ints(data, note)
    if isinstance(e, ev.EffectCreated):
        _walk_keys(e.params, note)
    if isinstance(e, ev.ObjectFlagged) and e.key not in ("known_to",):
        _walk_ints(e.value, note)
    return found


def _data_event(data: Any) -> ev.Event | None:
    """The triggering event a trigger's ``data`` holds (``[tag, fields]`` or ``[tag,
    fields, subject]``), or ``None``."""
    if not (isinstance(data, list | tuple) and len(data) in (2, 3) and isinstance(data[0], str)
            and data[0] in ev.EVENT_TYPES and isinstance(data[1], list | tuple)):
        return None
    try:
        return msgspec.convert(list(data[1]), ev.EVENT_TYPES[data[0]])
    except (msgspec.ValidationError, TypeError, ValueError):
        return None


def _walk_ints(x: Any, note: IdMap) -> None:
    if isinstance(x, list | tuple):
        for i in x:
            _walk_ints(i, note)
    elif isinstance(x, dict):
        for v in x.values():
            _walk_ints(v, note)
    elif _is_int(x) and x > 0:
        note(x)


def _walk_keys(x: Any, note: IdMap) -> None:
    if isinstance(x, dict):
        for k, v in x.items():
            if k in ID_KEYS:
                _walk_ints(v, note)
            else:
                _walk_keys(v, note)
    elif isinstance(x, list | tuple):
        for i in x:
            _walk_keys(i, note)


# --------------------------------------------------------------------------
# The header


PUBLIC_META = ("max_turns", "mulligans", "kind", "scenario", "file", "variant", "teams")
"""Keys of a header's ``meta`` a perspective view keeps as they are (the game's variant,
teams and options, and where a scenario log came from)."""


def visible_header(header: Any, viewer: int | None) -> dict[str, Any]:
    """A log header (:class:`~mtgk.log.logfile.LogHeader`) as plain data, as ``viewer``
    may see it: no seed, the other players' deck lists and deck names left out, the
    agents without their seeds, and of the rest of ``meta`` only :data:`PUBLIC_META`
    and where a branched game branched (not the choices made there).

    >>> from mtgk.log.logfile import LogHeader
    >>> h = LogHeader(kernel_version="0.1.0", cardsets=[], players=["A", "B"],
    ...               decks=[["20 Forest"], ["20 Island"]], seed=7,
    ...               meta={"deck_names": ["Green", "Blue"], "max_turns": 9,
    ...                     "agents": [{"kind": "random", "seed": 14}] * 2})
    >>> v = visible_header(h, 1)
    >>> v["seed"], v["decks"], v["meta"]
    (None, [[], ['20 Island']], {'agents': [{'kind': 'random'}, {'kind': 'random'}], \
'deck_names': [None, 'Blue'], 'max_turns': 9})
    """
    out: dict[str, Any] = msgspec.to_builtins(header)
    if viewer is None:
        return out
    out["seed"] = None
    out["decks"] = [lines if i == viewer else [] for i, lines in enumerate(out["decks"])]
    raw = out.get("meta")
    meta: dict[str, Any] = raw if isinstance(raw, dict) else {}
    shown: dict[str, Any] = {k: meta[k] for k in PUBLIC_META if k in meta}
    agents = meta.get("agents")
    if isinstance(agents, list):
        shown["agents"] = [{"kind": a.get("kind")} if isinstance(a, dict) else None
                           for a in agents]
    names = meta.get("deck_names")
    if isinstance(names, list):
        shown["deck_names"] = [n if i == viewer else None for i, n in enumerate(names)]
    branched = meta.get("branched_from")
    if isinstance(branched, dict):
        shown["branched_from"] = {k: branched[k] for k in ("event", "kind", "player", "file")
                                  if k in branched}
    out["meta"] = dict(sorted(shown.items()))
    return out

