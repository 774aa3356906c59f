"""Determinization: a copy of a game in which what one player can't see is dealt anew.

A search under hidden information (IS-MCTS) must not play from the true hidden cards.
:class:`Sight` follows a game's log from one player's seat and keeps every physical
card (``card_id``) that player has seen, in any zone, at any time (by the model of
``--as``: :class:`~mtgk.rules.visibility.Perspective`).  :func:`redeal` then deals the
cards nobody showed that player anew: for each owner, the cards of theirs the player
has never seen (in libraries, other players' hands, face down) are shuffled among
those same places.  Each owner's cards stay their own (the player is taken to know
the decklists, as a player in a tournament knows the cards that exist), and every
event the player saw reads the same in the new game (:func:`mtgk.rules.visibility`'s
view of it is unchanged): only the names of cards they never saw move.

The log is rewritten with the state: a card's name is given once, by the
``ObjectCreated`` that made it, so the new game's log folds to its new state.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import msgspec

from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.rules.state import State, apply, new_state
from mtgk.rules.visibility import Perspective

__all__ = ["Sight", "redeal"]


class Sight:
    """The cards ``viewer`` has seen along a log (:meth:`catch_up` folds what is new)."""

    def __init__(self, viewer: int) -> None:
        self.viewer = viewer
        self.state: State = new_state()
        self.seen = Perspective(viewer)
        self.known: set[int] = set()  # the card ids the viewer has seen
        self.created: dict[int, int] = {}  # card id -> the seq of its ObjectCreated
        self.folded = 0

    def catch_up(self, log: Sequence[Envelope]) -> None:
        s, p, known = self.state, self.seen, self.known
        for env in log[self.folded:]:
            e = env.event
            first = s.next_id
            p.before(e, s)
            apply(s, e)
            p.after(e, s)
            if type(e) is ev.ObjectCreated:
                self.created[e.obj] = env.seq
            named: list[int] = list(range(first, s.next_id))
            if type(e) is ev.Revealed:
                named.extend(e.objs)
            elif type(e) is ev.ObjectFlagged:
                named.append(e.obj)
            for oid in named:
                o = s.objects.get(oid)
                if o is not None and p.sees(o):
                    known.add(o.card_id)
        self.folded = len(log)


def redeal(state: State, log: list[Envelope], sight: Sight, seed: int) -> list[Envelope]:
    """Deal anew, in ``state`` (changed in place), the cards ``sight``'s viewer has never
    seen; returns ``log`` with the ``ObjectCreated`` of each card dealt anew naming its
    new card (a new list; ``log`` is unchanged)."""
    rng = random.Random(f"redeal/{seed}")
    viewer, known = sight.viewer, sight.known
    renamed: dict[int, str] = {}
    for q, player in enumerate(state.players):
        pool = list(player.library)
        if q != viewer:
            pool.extend(player.hand)
        pool.extend(oid for oid in state.exile
                    if state.objects[oid].face_down and state.objects[oid].owner == q)
        objs = [state.objects[oid] for oid in pool]
        objs = [o for o in objs if o.card_id not in known and viewer not in o.known_to]
        names = sorted(o.card for o in objs)  # (not their true order: nothing to learn)
        rng.shuffle(names)
        for o, name in zip(objs, names, strict=True):
            if o.card != name:
                o.card = name
                renamed[o.card_id] = name
    if not renamed:
        return list(log)
    out = list(log)
    for card_id, name in renamed.items():
        seq = sight.created.get(card_id)
        if seq is None or seq >= len(out):
            continue
        env = out[seq]
        out[seq] = msgspec.structs.replace(
            env, event=msgspec.structs.replace(env.event, card=name))  # type: ignore[arg-type]
    return out
