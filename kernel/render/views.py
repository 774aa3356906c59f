"""The JSON views of events and states, as a viewer may see them: :func:`event_json`,
:func:`mask_state`, :func:`state_json`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.rules.state import State, copy_state
from mtgk.rules.visibility import PUBLIC_FLAGS, Perspective, follows

if TYPE_CHECKING:
    pass
from mtgk.render.events import Renderer

__all__ = ["event_json", "mask_state", "state_json"]

def event_json(env: Envelope, renderer: Renderer | None = None) -> dict[str, Any]:
    """An envelope as a JSON Lines record (``seq``, ``cause``, ``type``, ``v``, ``event``).

    With a renderer that has a viewer, the record is the event as the viewer may
    see it (see :mod:`mtgk.rules.visibility`), and the renderer must have *just folded*
    ``env`` (:meth:`Renderer.advance`): private fields the viewer may not see are
    ``null`` (orders ``[]``), the seed ``null``, the ids of objects the viewer
    can't follow 0; ``cards`` maps the ids of the objects the event names that the
    viewer can follow to their names (``null``: face down), and a
    :class:`~mtgk.log.events.Revealed` event shown to the viewer lists the names it
    shows in ``revealed``.
    """
    from mtgk.log.logfile import UnknownEvent

    e = env.event
    if isinstance(e, UnknownEvent):  # for a viewer, not its fields: they can't be masked
        viewer = renderer.viewer if renderer is not None else None
        return {"seq": env.seq, "cause": env.cause, "type": e.tag, "v": e.version,
                "event": msgspec.msgpack.decode(e.raw) if viewer is None else None}
    if renderer is None or renderer.viewer is None:
        body = {name: getattr(e, name) for name in e.__struct_fields__}
        return {"seq": env.seq, "cause": env.cause, "type": e.TAG, "v": e.VERSION,
                "event": body}
    seen = renderer.seen
    rec: dict[str, Any] = {"seq": env.seq, "cause": env.cause, "type": e.TAG, "v": e.VERSION,
                           "event": seen.mask_event(e, renderer.state),
                           "cards": {str(k): v for k, v in seen.event_cards(e).items()}}
    if isinstance(e, ev.Revealed):
        names = seen.revealed_names(e, renderer.state)
        if names:
            rec["revealed"] = names
    return rec


def mask_state(state: State, viewer: int | None, seen: Perspective | None = None) -> State:
    """A copy of ``state`` as ``viewer`` may see it (``seen``: the viewer's
    :class:`~mtgk.rules.visibility.Perspective`, folded up to ``state``, for what was
    revealed and how cards were followed; without it, nothing was).

    No seed.  Objects the viewer can't follow (every library card, the cards of
    other players' hands) are left out of ``objects`` and listed as ``0`` in their
    zone.  The others keep their ids; their ``card_id`` is the viewer's (see
    :mod:`mtgk.rules.visibility`, rule 3); the ones the viewer may not know (face down)
    have the name ``""`` and keep only public marks.  Ids in free-form data (marks,
    stack items' data, effects' parameters) of objects the viewer can't follow are 0.
    """
    s = copy_state(state)
    if viewer is None:
        return s
    p_ = seen if seen is not None and seen.viewer == viewer else Perspective(viewer)
    s.seed = 0
    for p in s.players:
        for zone in ("library", "hand", "graveyard"):
            ids: list[int] = getattr(p, zone)
            shown = []
            for oid in ids:
                o = s.objects.get(oid)
                if o is not None and follows(o, viewer):
                    shown.append(oid)
                else:
                    shown.append(0)
                    s.objects.pop(oid, None)
            setattr(p, zone, shown)
    for o in s.objects.values():
        o.card_id = p_.card_id(o)
        if not p_.sees(o):
            o.card = ""
            o.flags = {k: v for k, v in o.flags.items() if k in PUBLIC_FLAGS}
        o.flags = {k: p_.mask_value(v, state) if k != "known_to" else v
                   for k, v in o.flags.items()}
    for it in s.stack + s.pending:
        it.data = p_.mask_value(it.data, state)
        src = state.objects.get(it.source)
        if src is not None and not p_.sees(src) and it.kind != "spell":
            it.ability = ""
            it.source_card = ""
    for x in s.effects:
        x.params = p_.mask_params(x.params, state)
        x.objs = [p_.shown_id(o, state) for o in x.objs]
    return s


def state_json(state: State, viewer: int | None, seen: Perspective | None = None) -> str:
    """``state`` as JSON, as ``viewer`` may see it (see :func:`mask_state`)."""
    return msgspec.json.encode(mask_state(state, viewer, seen)).decode()


