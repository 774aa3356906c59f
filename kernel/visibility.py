"""Who may see what: hidden information in states and logs.

The log stores the truth (which card each object is, every library order); a
per-player view of it shows only what that player may know, which is what
``mtgk log --as PLAYER`` prints.

* :func:`can_see` -- whether a player may know which card an object is: cards in
  public zones face up (battlefield, stack, graveyards, face-up exile), a hand's
  cards to its owner, and any object to the players in its ``known_to`` (a card
  exiled face down with hideaway: the players who have controlled the land).
  Library cards and face-down cards are hidden from everyone else.
* :func:`visible_event` -- one log entry as a player may see it: private fields
  (the event class's ``PRIVATE``) the player can't see are replaced by
  :data:`HIDDEN`, and ``cards`` names the objects the event mentions, as the
  player may see them just before or just after it (``None``: "a card" the player
  can't identify).  Cards shown by a ``Revealed`` event are
  named to the players it was shown to.

>>> from kernel import events as ev
>>> from kernel.state import apply, new_state
>>> s = new_state()
>>> apply(s, ev.GameStarted(players=("alice", "bob"), seed=0))
>>> apply(s, ev.ObjectCreated(obj=1, card="Forest", owner=0, zone="hand"))
>>> can_see(s, 1, 0), can_see(s, 1, 1)
(True, False)
"""

from __future__ import annotations

from typing import Any

import msgspec

from kernel import events as ev
from kernel.state import State, apply, copy_state

HIDDEN = "?"
PUBLIC_ZONES = ("battlefield", "stack", "graveyard", "exile", "none")
OBJECT_FIELDS = ("obj", "new_obj", "source", "target", "item", "to", "targets", "objs",
                 "attacks", "blocks")
"""Event fields that name objects (and, as negative numbers, players)."""


def can_see(state: State, obj_id: int, player: int) -> bool:
    """Whether ``player`` may know which card object ``obj_id`` is in ``state``."""
    o = state.objects.get(obj_id)
    if o is None:
        return False
    if player in o.known_to:
        return True
    if o.face_down:
        return False
    if o.zone in PUBLIC_ZONES:
        return True
    return o.zone == "hand" and o.owner == player


def visible_name(state: State, obj_id: int, player: int) -> str | None:
    """The card name of ``obj_id`` if ``player`` may see it, else ``None``."""
    o = state.objects.get(obj_id)
    return o.card if o is not None and can_see(state, obj_id, player) else None


def _ids(value: Any) -> list[int]:
    if isinstance(value, int) and not isinstance(value, bool):
        return [value] if value > 0 else []
    if isinstance(value, tuple | list):
        return [i for v in value for i in _ids(v)]
    return []


def _private_visible(e: ev.Event, player: int, after: State) -> bool:
    """Whether ``player`` may see the private fields of ``e``: those of an object
    event are visible when the object (as it is after the event) is."""
    if isinstance(e, ev.LibraryShuffled):
        return False  # no one knows a library's order
    oid = getattr(e, "new_obj", 0) or getattr(e, "obj", 0)
    return bool(oid) and can_see(after, oid, player)


def visible_event(env: ev.Envelope, state_before: State, player: int,
                  state_after: State | None = None) -> dict[str, Any]:
    """Log entry ``env`` as ``player`` may see it (``state_before``: the state just
    before it; ``state_after`` is computed if not given).

    Returns ``{"seq", "cause", "type", "fields": {name: value or HIDDEN},
    "cards": {object id: card name or None}}``.
    """
    e = env.event
    if state_after is None:
        state_after = copy_state(state_before)
        apply(state_after, e)
    fields: dict[str, Any] = msgspec.structs.asdict(e)
    if e.PRIVATE and not _private_visible(e, player, state_after):
        for name in e.PRIVATE:
            fields[name] = HIDDEN
    cards: dict[int, str | None] = {}
    shown_to_me = isinstance(e, ev.Revealed) and (not e.to or player in e.to)
    for name in OBJECT_FIELDS:
        if name not in fields or (name == "to" and isinstance(e, ev.Revealed)):
            continue
        for oid in _ids(fields[name]):
            o = state_before.objects.get(oid) or state_after.objects.get(oid)
            if oid in cards or o is None:
                continue
            seen = (shown_to_me and name == "objs") or can_see(state_before, oid, player) \
                or can_see(state_after, oid, player)
            cards[oid] = o.card if seen else None
    return {"seq": env.seq, "cause": env.cause, "type": e.TAG, "fields": fields,
            "cards": cards}


def visible_log(log: list[ev.Envelope], player: int) -> list[dict[str, Any]]:
    """Every entry of ``log`` as ``player`` may see it (folding the log as it goes)."""
    from kernel.state import new_state

    out = []
    state = new_state()
    for env in log:
        after = copy_state(state)
        apply(after, env.event)
        out.append(visible_event(env, state, player, after))
        state = after
    return out
