"""The words of a whole state: :func:`render_state` (turn and step, each player, the
battlefield with characteristics after layers, exile, the stack, combat, pending
triggers and the next decision) and :func:`characteristics`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import KEYWORDS, Registry
from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.rules.state import StackItem, State, copy_state
from mtgk.rules.visibility import Perspective

if TYPE_CHECKING:
    from mtgk.rules.chars import Chars
from mtgk.render.events import Renderer
from mtgk.render.words import clean, plain_repr, step_name

__all__ = ["characteristics", "render_state"]

def _type_line(c: Chars) -> str:
    left = " ".join([*c.supertypes, *c.types])
    if c.all_ctypes and c.has_creature_types:
        right = " ".join(c.subtypes + ["(all creature types)"])
    else:
        right = " ".join(c.subtypes + c.creature_types())
    return f"{left} — {right}" if right else left


def characteristics(state: State, registry: Registry | None,
                     not_shown: str = "characteristics not shown"
                     ) -> tuple[dict[int, Chars], str]:
    """Every object's characteristics (layers applied) and ``""``, or ``{}`` and a
    note (starting with ``not_shown``) saying why they cannot be computed."""
    if registry is None:
        return {}, f"{not_shown}: no card registry"
    from mtgk.cards.definitions import UnknownCardError
    from mtgk.rules.layers import compute

    try:
        return compute(state, registry), ""
    except UnknownCardError as exc:
        return {}, f"{not_shown}: {exc}"
    except Exception as exc:  # noqa: BLE001 - e.g. a state folded past unknown events
        return {}, f"{not_shown}: {type(exc).__name__}: {exc}"


def render_state(state: State, game_or_registry: Any = None, as_player: int | None = None,
                 after: Sequence[Envelope] = (), names: dict[int, str] | None = None,
                 seen: Perspective | None = None, numbered: bool = False) -> str:
    """The whole of ``state``, readably, from everyone's or ``as_player``'s seat.

    ``game_or_registry`` (a :class:`~mtgk.rules.engine.Game` or a
    :class:`~mtgk.cards.definitions.Registry`) supplies the characteristics after
    layers; ``after`` are the events that follow ``state`` in its log: the
    first decision among them is shown as the pending decision; ``names``
    (object id -> card name) names objects no longer in the state; ``seen`` is the
    viewer's :class:`~mtgk.rules.visibility.Perspective` folded up to ``state`` (what was
    revealed to them), e.g. a :class:`Renderer`'s ``seen``; ``numbered``: cards are named
    with their numbers (:func:`numbered_name`) instead of permanents with their ids.
    """
    registry: Registry | None = getattr(game_or_registry, "reg", game_or_registry)
    if registry is not None and not isinstance(registry, Registry):
        registry = None
    r = Renderer(registry, as_player, state, numbered=numbered)
    if seen is not None and seen.viewer == as_player:
        r.seen = seen
    if names:
        for k, v in names.items():
            r.names.setdefault(k, v)
    chars, note = characteristics(state, registry)
    if note and as_player is not None and registry is not None:
        # the reason may name a card the viewer can't see
        note = note.partition(":")[0] + ": they cannot be computed for this state"
    out: list[str] = []
    if not state.players:
        return "(no game yet)"
    if state.over:
        out.append("Game over: " + ("a draw" if state.winner in (None, -1)
                                     else f"{r.player(state.winner)} won"))
    turn = f"Turn {state.turn}, {r.player(state.active)}'s turn" if state.turn else \
        "Before the first turn"
    out.append(turn + (f", step: {step_name(state.step)}" if state.step else ""))
    if as_player is not None:
        out.append(f"(as seen by {r.player(as_player)})")
    for i, p in enumerate(state.players):
        status = " — has lost" if p.lost else ""
        pool = "".join(f"{{{m}}}" for m in p.mana) or "empty"
        out.append(f"{p.name}: life {p.life}, mana pool {pool}, library {len(p.library)}, "
                   f"lands played this turn {p.lands_played}{status}")
        if as_player is None or as_player == i:
            hand = ", ".join(r.obj(o) for o in p.hand) or "empty"
            out.append(f"  hand ({len(p.hand)}): {hand}")
        else:
            known = sorted(r.obj(o) for o in p.hand  # by name: the order would say more
                           if o in state.objects and r.sees(state.objects[o]))
            extra = f"; known: {', '.join(known)}" if known else ""
            out.append(f"  hand ({len(p.hand)}): hidden{extra}")
        if as_player is None and p.library:
            out.append(f"  library top: {', '.join(r.obj(o) for o in p.library[:3])}")
        grave = ", ".join(r.obj(o) for o in reversed(p.graveyard)) or "empty"
        out.append(f"  graveyard ({len(p.graveyard)}, top first): {grave}")
    out.append("Battlefield:")
    if note:
        out.append(f"  ({note})")
    by_ctrl: dict[int, list[int]] = {}
    for oid in state.battlefield:
        c = chars.get(oid)
        ctrl = c.controller if c is not None else state.objects[oid].controller
        by_ctrl.setdefault(ctrl, []).append(oid)
    if not state.battlefield:
        out.append("  (empty)")
    for ctrl in sorted(by_ctrl):
        out.append(f"  {r.player(ctrl)}:")
        for oid in by_ctrl[ctrl]:
            out.append("    " + _permanent(state, oid, chars.get(oid), r))
    if state.exile:
        out.append("Exile:")
        for oid in state.exile:
            o = state.objects[oid]
            text = r.obj(oid)
            if o.flags.get("exiled_with"):
                text += f" (exiled with {r.obj(int(o.flags['exiled_with']))})"
            if o.face_down and o.known_to and as_player is None:
                text += f" (known to {', '.join(r.player(p) for p in o.known_to)})"
            out.append(f"  [{oid}] {text} (owner {r.player(o.owner)})")
    if state.stack:
        out.append("Stack (top first):")
        for it in reversed(state.stack):
            out.append("  " + _stack_line(it, r))
    else:
        out.append("Stack: empty")
    if state.pending:
        out.append("Triggered abilities waiting to go on the stack:")
        for it in state.pending:
            out.append("  " + _stack_line(it, r))
    if state.combat is not None:
        out.append("Combat:")
        cb = state.combat
        for a, t in cb.attackers.items():
            blockers = cb.blocked.get(a, [])
            if blockers:
                how = f", blocked by {', '.join(r.obj(b) for b in blockers)}"
            elif a in cb.was_blocked:
                how = ", blocked"
            else:
                how = ", unblocked" if cb.blockers or cb.blocked else ""
            out.append(f"  {r.obj(a)} attacks {r.ref(t)}{how}")
    if state.effects:
        out.append("Continuous effects:")
        for x in state.effects:
            on = f" on {r.refs(x.objs)}" if x.objs else ""
            until = " until end of turn" if x.duration == "eot" else ""
            out.append(f"  {r.obj(x.source)}: {r.effect_text(x.kind, x.params)}{on}{until}")
    nxt = _next_decision(state, registry, as_player, after, r.names)
    if nxt:
        out.append(nxt)
    return "\n".join(clean(line) for line in out)


def _next_decision(state: State, registry: Registry | None, as_player: int | None,
                   after: Sequence[Envelope], names: dict[int, str]) -> str:
    """The first decision in ``after``, described as of the state just before it."""
    for i, env in enumerate(after):
        e = env.event
        if isinstance(e, ev.DecisionMade) and e.player >= 0:
            gap = f", {i} events later" if i else ""
            if as_player is not None and e.player != as_player:  # not made yet: unknown
                who = Renderer(None, as_player, state).player(e.player)
                return f"Next decision (event {env.seq}{gap}): {e.kind}, by {who}"
            r = Renderer(registry, as_player, copy_state(state))
            r.names.update(names)
            for prev in after[:i]:
                r.advance(prev)
            return f"Next decision (event {env.seq}{gap}): {r.describe(env)}"
        if isinstance(e, ev.GameEnded):
            return ""
    return ""


def _permanent(state: State, oid: int, c: Chars | None, r: Renderer) -> str:
    o = state.objects[oid]
    parts = [r.obj(oid) if r.numbered else f"[{oid}] {r.obj(oid)}"]
    if c is not None and not (o.face_down and r.viewer is not None):
        parts.append(f"— {_type_line(c)}")
        if c.power is not None and c.toughness is not None:
            parts.append(f"{c.power}/{c.toughness}")
        if c.loyalty is not None and "Planeswalker" in c.types:
            parts.append(f"loyalty {c.loyalty}")
        kws = [a for a in c.abilities if a in KEYWORDS]
        if kws:
            parts.append(f"({', '.join(kws)})")
    flags = []
    if o.tapped:
        flags.append("tapped")
    if o.sick and (c is None or c.is_creature):
        flags.append("summoning sick")
    if o.token:
        flags.append("token")
    if o.damage and (c is None or c.is_creature):  # damage to a planeswalker removes loyalty
        flags.append(f"{o.damage} damage")
    counters = [f"{n} {k}" for k, n in sorted(o.counters.items())
                if not (k == "loyalty" and c is not None and c.loyalty is not None)]
    if counters:
        flags.append("counters: " + ", ".join(counters))
    if o.attached_to:
        flags.append(f"attached to {r.obj(o.attached_to)}")
    if c is not None and o.owner != c.controller:
        flags.append(f"owned by {r.player(o.owner)}")
    if o.loyalty_turn and o.loyalty_turn == state.turn:
        flags.append("loyalty ability used this turn")
    if r.viewer is None or r.sees(o):
        for k, v in sorted(o.flags.items()):
            if k in ("known_to", "face"):
                continue
            if k == "exiled_with" and isinstance(v, int):
                flags.append(f"exiled with {r.obj(v)}")
            else:
                flags.append(k if v is True else f"{k}={plain_repr(r.masked(v))}")
    if flags:
        parts.append(f"[{', '.join(flags)}]")
    return " ".join(parts)


def _stack_line(it: StackItem, r: Renderer) -> str:
    text = f"[{it.id}] {r.item(it)} ({it.kind}, {r.player(it.controller)})"
    text += r.targeting(it.targets)
    if it.modes:
        text += f" (modes {', '.join(map(str, it.modes))})"
    if it.x:
        text += f" X={it.x}"
    return text
