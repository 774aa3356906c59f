"""What changed between two states (:func:`diff_states`), and where two logs part
(:func:`diff_logs`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.log.logfile import LogHeader, UnknownEvent, event_tag
from mtgk.render import Renderer
from mtgk.rules.state import Obj, State

__all__ = [
    "LogDiff",
    "ObjectChange",
    "StateDiff",
    "diff_logs",
    "diff_states",
    "envelope_difference",
]


_OBJ_FIELDS = ("id", "zone", "owner", "controller", "tapped", "sick", "token", "face_down",
               "counters", "damage", "deathtouched", "attached_to", "flags", "loyalty_turn",
               "known_to", "card")
_GAME_FIELDS = ("turn", "active", "step", "over", "winner", "profile")
_PLAYER_FIELDS = ("name", "life", "mana", "lands_played", "lost", "drew_from_empty")
_CHARS_FIELDS = ("power", "toughness", "loyalty", "types", "supertypes", "subtypes", "colors",
                 "abilities", "controller")


@dataclass
class ObjectChange:
    """One card (followed by ``card_id``) that appeared, vanished or changed.

    ``before``/``after`` are its object ids in the two states (``None`` where
    it does not exist); ``fields`` maps each changed field to ``(before,
    after)``.  Characteristics after layers (``power`` ...) are compared for
    permanents when a registry is given.
    """

    card_id: int
    card: str
    status: str
    before: int | None
    after: int | None
    fields: dict[str, tuple[Any, Any]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"card_id": self.card_id, "card": self.card, "status": self.status,
                "before": self.before, "after": self.after,
                "fields": {k: list(v) for k, v in self.fields.items()}}


@dataclass
class StateDiff:
    """Everything that differs between two states (see :func:`diff_states`)."""

    game: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    players: dict[str, dict[str, tuple[Any, Any]]] = field(default_factory=dict)
    objects: list[ObjectChange] = field(default_factory=list)
    stack: dict[str, list[str]] = field(default_factory=dict)
    effects: dict[str, list[str]] = field(default_factory=dict)
    combat: tuple[str, str] | None = None

    @property
    def empty(self) -> bool:
        return not (self.game or self.players or self.objects or self.stack or self.effects
                    or self.combat)

    def lines(self) -> list[str]:
        """The differences as text."""
        out: list[str] = []
        for k, (a, b) in self.game.items():
            out.append(f"game: {k} {_show(a)} → {_show(b)}")
        for name, changes in self.players.items():
            for k, (a, b) in changes.items():
                out.append(f"{name}: {k} {_show(a)} → {_show(b)}")
        for oc in self.objects:
            label = f"{oc.card or 'a card'}"
            if oc.status == "appeared":
                where = oc.fields.get("zone", (None, "?"))[1]
                out.append(f"+ {label} [{oc.after}] appeared in {where}")
                continue
            if oc.status == "vanished":
                where = oc.fields.get("zone", ("?", None))[0]
                out.append(f"- {label} [{oc.before}] vanished from {where}")
                continue
            ids = f"[{oc.before}]" if oc.before == oc.after else f"[{oc.before} → {oc.after}]"
            parts = [f"{k} {_show(a)} → {_show(b)}" for k, (a, b) in oc.fields.items()
                     if k != "id"]
            out.append(f"~ {label} {ids}: " + "; ".join(parts))
        for what in ("removed", "added"):
            for item in self.stack.get(what, []):
                out.append(f"stack: {what} {item}")
        for what in ("pending removed", "pending added"):
            for item in self.stack.get(what, []):
                out.append(f"triggered abilities waiting: {what.split()[1]} {item}")
        for what in ("ended", "created"):
            for item in self.effects.get(what, []):
                out.append(f"effect {what}: {item}")
        if self.combat is not None:
            out.append(f"combat: {self.combat[0]} → {self.combat[1]}")
        return out or ["no differences"]

    def to_json(self) -> dict[str, Any]:
        return {"game": {k: list(v) for k, v in self.game.items()},
                "players": {n: {k: list(v) for k, v in c.items()}
                            for n, c in self.players.items()},
                "objects": [oc.to_json() for oc in self.objects],
                "stack": self.stack, "effects": self.effects,
                "combat": list(self.combat) if self.combat else None}


def _show(v: Any) -> str:
    if isinstance(v, str):
        return v if v else '""'
    if v is None:
        return "none"
    try:
        return msgspec.json.encode(v).decode()
    except (TypeError, msgspec.EncodeError):
        return repr(v)


def _plain(v: Any) -> Any:
    return None if v is msgspec.UNSET else msgspec.to_builtins(v)  # (an unset header field)


def _chars_of(state: State, registry: Registry | None) -> dict[int, dict[str, Any]]:
    if registry is None:
        return {}
    from mtgk.cards.definitions import UnknownCardError
    from mtgk.rules.layers import compute

    try:
        chars = compute(state, registry)
    except (UnknownCardError, Exception):  # noqa: BLE001 - characteristics are extra
        return {}
    out: dict[int, dict[str, Any]] = {}
    for oid, c in chars.items():
        d = {k: getattr(c, k) for k in _CHARS_FIELDS}
        d["subtypes"] = list(c.subtypes) + list(c.creature_types())
        out[oid] = d
    return out


def diff_states(a: State, b: State, registry: Registry | None = None) -> StateDiff:
    """What changed from state ``a`` to state ``b``.

    Objects are matched by ``card_id`` (so a card that changed zones is one
    change, not a vanished and an appeared object); objects whose card id is
    unknown (0: masked for a viewer) are matched by id.  Player zone contents
    are reported through the objects; libraries also report a new order.

    >>> from mtgk.log import events as ev
    >>> from mtgk.rules.state import copy_state, fold
    >>> s1 = fold([ev.GameStarted(players=("A", "B"), seed=1),
    ...            ev.ObjectCreated(obj=1, card="Shock", owner=0, zone="hand")])
    >>> s2 = fold([ev.SpellCast(obj=1, new_obj=2, controller=0)], copy_state(s1))
    >>> diff_states(s1, s2).lines()
    ['A: hand size 1 → 0', '~ Shock [1 → 2]: zone hand → stack', 'stack: added [2] Shock']
    """
    d = StateDiff()
    for k in _GAME_FIELDS:
        va, vb = getattr(a, k), getattr(b, k)
        if va != vb:
            d.game[k] = (va, vb)
    for i in range(max(len(a.players), len(b.players))):
        pa = a.players[i] if i < len(a.players) else None
        pb = b.players[i] if i < len(b.players) else None
        name = (pb or pa).name if (pb or pa) else f"player {i}"  # type: ignore[union-attr]
        changes: dict[str, tuple[Any, Any]] = {}
        for k in _PLAYER_FIELDS:
            va = getattr(pa, k) if pa else None
            vb = getattr(pb, k) if pb else None
            if va != vb:
                changes[k] = (_plain(va), _plain(vb))
        for zone in ("hand", "library", "graveyard"):
            za = getattr(pa, zone) if pa else []
            zb = getattr(pb, zone) if pb else []
            if len(za) != len(zb):
                changes[f"{zone} size"] = (len(za), len(zb))
            elif zone == "library" and za != zb and sorted(za) == sorted(zb):
                changes["library order"] = ("(before)", "(changed)")
        if changes:
            d.players[name] = changes
    d.objects = _diff_objects(a, b, registry)
    ra, rb = Renderer(registry, None, a), Renderer(registry, None, b)
    for label, xa, xb in (("", a.stack, b.stack), ("pending ", a.pending, b.pending)):
        ida = {it.id: it for it in xa}
        idb = {it.id: it for it in xb}
        gone = [_describe_item(it, ra) for i, it in ida.items() if i not in idb]
        new = [_describe_item(it, rb) for i, it in idb.items() if i not in ida]
        if gone:
            d.stack[f"{label}removed"] = gone
        if new:
            d.stack[f"{label}added"] = new
    ea = {x.id: x for x in a.effects}
    eb = {x.id: x for x in b.effects}

    def effect(x: Any, r: Renderer) -> str:
        on = f" on {r.refs(x.objs)}" if x.objs else ""
        until = " until end of turn" if x.duration == "eot" else ""
        return f"[{x.id}] {r.obj(x.source)}: {r.effect_text(x.kind, x.params)}{on}{until}"

    ended = [effect(x, ra) for i, x in ea.items() if i not in eb]
    created = [effect(x, rb) for i, x in eb.items() if i not in ea]
    if ended:
        d.effects["ended"] = ended
    if created:
        d.effects["created"] = created
    if _plain(a.combat) != _plain(b.combat):
        d.combat = (_combat_text(a, ra), _combat_text(b, rb))
    return d


def _describe_item(it: Any, r: Renderer) -> str:
    tg = f" targeting {r.refs(it.targets)}" if it.targets else ""
    return f"[{it.id}] {r.item(it)}{tg}"


def _combat_text(s: State, r: Renderer) -> str:
    c = s.combat
    if c is None:
        return "no combat"
    if not c.attackers:
        return "combat, no attackers"
    parts = []
    for att, target in c.attackers.items():
        blockers = c.blocked.get(att, [])
        by = f" blocked by {', '.join(r.obj(b) for b in blockers)}" if blockers else ""
        parts.append(f"{r.obj(att)} attacks {r.ref(target)}{by}")
    return "; ".join(parts)


def _diff_objects(a: State, b: State, registry: Registry | None) -> list[ObjectChange]:
    def key(o: Obj) -> tuple[str, int]:
        return ("card", o.card_id) if o.card_id else ("id", o.id)

    ka = {key(o): o for o in a.objects.values()}
    kb = {key(o): o for o in b.objects.values()}
    ca = _chars_of(a, registry)
    cb = _chars_of(b, registry)
    out: list[ObjectChange] = []
    for k in sorted(set(ka) | set(kb), key=lambda k: (k[1], k[0])):
        oa, ob = ka.get(k), kb.get(k)
        card = (ob or oa).card  # type: ignore[union-attr]
        if registry is not None and card:
            card = registry.token_name(card)  # its printed name, not a token's key
        cid = (ob or oa).card_id  # type: ignore[union-attr]
        if oa is None:
            assert ob is not None
            out.append(ObjectChange(cid, card, "appeared", None, ob.id,
                                    {"zone": (None, ob.zone)}))
            continue
        if ob is None:
            out.append(ObjectChange(cid, card, "vanished", oa.id, None,
                                    {"zone": (oa.zone, None)}))
            continue
        fields: dict[str, tuple[Any, Any]] = {}
        for f in _OBJ_FIELDS:
            va, vb = _plain(getattr(oa, f)), _plain(getattr(ob, f))
            if va != vb:
                fields[f] = (va, vb)
        xa, xb = ca.get(oa.id), cb.get(ob.id)
        if xa is not None and xb is not None:
            for f in _CHARS_FIELDS:
                if f == "controller" and "controller" in fields:
                    continue
                if xa[f] != xb[f]:
                    fields[f] = (_plain(xa[f]), _plain(xb[f]))
        if fields:
            out.append(ObjectChange(cid, card, "changed", oa.id, ob.id, fields))
    return out


@dataclass
class LogDiff:
    """Where two logs part (see :func:`diff_logs`).

    ``header`` maps each differing header field to ``(first, second)``;
    ``common`` is the number of identical leading events; ``first`` the
    sequence number of the first difference (``None``: the logs are the
    same), with ``a`` and ``b`` the two events there (``None``: that log has
    ended).
    """

    header: dict[str, tuple[Any, Any]]
    common: int
    first: int | None
    a: Envelope | None
    b: Envelope | None
    reason: str
    sizes: tuple[int, int]

    @property
    def same(self) -> bool:
        return self.first is None and not self.header


def envelope_difference(a: Envelope, b: Envelope) -> str:
    """Why two envelopes differ, or ``""``."""
    from mtgk.games.replay import same_event

    if not same_event(a.event, b.event):
        if event_tag(a.event) != event_tag(b.event):
            return f"different events: {event_tag(a.event)} vs {event_tag(b.event)}"
        fa = _fields(a.event)
        fb = _fields(b.event)
        diff = [k for k in fa if fa.get(k) != fb.get(k)]
        return f"{event_tag(a.event)} differs in {', '.join(diff) or 'its fields'}"
    if a.cause != b.cause:
        return f"same {event_tag(a.event)} event, but cause {a.cause} vs {b.cause}"
    return ""


def _fields(e: ev.Event) -> dict[str, Any]:
    if isinstance(e, UnknownEvent):
        return {"raw": e.raw}
    return {k: _plain(getattr(e, k)) for k in e.__struct_fields__}


def diff_logs(ha: LogHeader, ea: Sequence[Envelope], hb: LogHeader, eb: Sequence[Envelope]
              ) -> LogDiff:
    """Compare two logs: their headers, and their events up to the first difference."""
    header: dict[str, tuple[Any, Any]] = {}
    for f in ha.__struct_fields__:
        va, vb = _plain(getattr(ha, f)), _plain(getattr(hb, f))
        if va == vb:
            continue
        if f == "events":
            ta, tb = dict(map(tuple, va)), dict(map(tuple, vb))
            va = {k: v for k, v in ta.items() if tb.get(k) != v}
            vb = {k: v for k, v in tb.items() if ta.get(k) != v}
        elif f == "meta":
            for k in sorted(set(va) | set(vb)):
                if va.get(k) != vb.get(k):
                    header[f"meta.{k}"] = (va.get(k), vb.get(k))
            continue
        header[f] = (va, vb)
    n = min(len(ea), len(eb))
    for i in range(n):
        why = envelope_difference(ea[i], eb[i])
        if why:
            return LogDiff(header, i, i, ea[i], eb[i], why, (len(ea), len(eb)))
    if len(ea) == len(eb):
        return LogDiff(header, n, None, None, None, "", (len(ea), len(eb)))
    longer = "first" if len(ea) > len(eb) else "second"
    return LogDiff(header, n, n, ea[n] if n < len(ea) else None, eb[n] if n < len(eb) else None,
                   f"the {'second' if longer == 'first' else 'first'} log ends after "
                   f"{n} events; the {longer} goes on", (len(ea), len(eb)))
