"""Answers to the engine's decisions: a scenario's ``answers`` turned into the options the
engine offers.

Which answer kinds serve a decision (:data:`ANSWER_FOR`, :func:`answer_kinds`), how many
legal answers a decision has (:func:`answer_count`: strict mode fails on an unanswered one
with more than one), and the conversion of an answer's value -- names of objects,
players, printed words, modes, amounts -- into the decision's options
(:func:`convert_answer`, :func:`pick_option`); an ``arrange`` answer becomes an
:class:`ArrangementPlan`.  Which answer serves which decision, and when, is
:class:`mtgk.scenario.play.ScenarioRun`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mtgk.rules.engine import COLOR_WORDS, Decision
from mtgk.scenario.board import ScenarioBoard, ScenarioFailed
from mtgk.scenario.model import Answer, Arrangement, split_ability_ref

ANSWER_FOR: dict[str, tuple[str, ...]] = {
    "targets": ("target", "targets"),
    "redirect": ("redirect",),
    "may": ("may",),
    "clash": ("clash",),
    "hideaway": ("hideaway",),
    "champion": ("champion",),
    "modes": ("mode", "modes"),
    "x": ("x",),
    "order": ("order",),
    "assign": ("assign",),
    "discard": ("discard", "choose"),
}
"""Decision kind -> the answer kinds that serve it.  Every other decision kind (``choose``,
``search``, ``legend``, ``role``, ``creature_type``, ``replacement``, ``reveal``, a
plugin's own ...) is answered by ``choose``.  A decision whose context is a mapping with
an ``"answer"`` key is answered by that kind instead (``pay``: ``Ctx.pay``; ``arrange``:
:func:`mtgk.plugins.scry.arrangement`)."""


def answer_kinds(d: Decision) -> tuple[str, ...]:
    """The answer kinds that serve decision ``d``, in order of preference."""
    ctx = d.context
    if isinstance(ctx, dict) and isinstance(ctx.get("answer"), str):
        if ctx["answer"] == "new_targets":  # "you may choose new targets for the copy"
            return ("new_targets", "may")
        return (ctx["answer"],)
    return ANSWER_FOR.get(d.kind, ("choose",))


def answer_count(d: Decision) -> int:
    """How many legal answers ``d`` has (2: more than one)."""
    if d.options is None:
        if d.kind == "order":
            return 2 if len(d.context or ()) > 1 else 1
        if d.kind == "assign":
            return 2 if len(d.context["recipients"]) > 1 else 1
        return 2
    n = len(d.options)
    if d.many:
        if d.up_to:
            return 2 if n else 1
        return 2 if n > d.count else 1
    return n


def convert_answer(board: ScenarioBoard, d: Decision, ans: Answer) -> Any:
    """The answer to decision ``d`` that ``ans`` stands for (raises
    :class:`~mtgk.scenario.board.ScenarioFailed` if it names no legal option)."""
    v = ans.value
    opts = d.options or []
    flat = [o for o in opts if isinstance(o, int) and not isinstance(o, bool)]
    if d.kind == "targets":
        names = v if isinstance(v, list) else [v]
        cands = sorted({r for combo in opts for r in combo}) if opts else None
        out: list[int] = []
        for n in names:
            out.append(board.ref(n, candidates=cands, avoid=out))
        return out
    if d.kind == "redirect":
        return 0 if v is None else pick_option(board, v, opts, flat, [])
    if ans.kind in ("may", "pay"):
        return bool(v)
    if d.kind == "order":
        return _order_triggers(board, d, v)
    if d.kind == "assign":
        return [[board.ref(k, candidates=d.context["recipients"]), int(n)]
                for k, n in v.items()]
    if d.kind == "modes":
        return v if isinstance(v, list) else [v]
    if d.kind == "x":
        return int(v)
    if d.kind == "clash":
        return v
    # choose-like: objects, players, or words among the options
    names = v if isinstance(v, list) else [v]
    picked: list[Any] = []
    for n in names:
        picked.append(pick_option(board, n, opts, flat, picked))
    if d.many:
        return picked
    if len(picked) != 1:
        raise ScenarioFailed(f"expected one choice for this {d.kind} decision, got "
                             f"{len(picked)}")
    return picked[0]


def pick_option(board: ScenarioBoard, name: Any, opts: Sequence[Any], flat: list[int],
                picked: list[Any]) -> Any:
    """The option a ``choose`` answer's name stands for."""
    if name is None:
        return 0 if 0 in opts else None
    if name in opts and not isinstance(name, bool):
        return name
    words = [o for o in opts if isinstance(o, str)]
    if words:
        low = str(name).lower()
        for o in words:  # a word as printed, in any case
            if o.lower() == low:
                return o
        color = COLOR_WORDS.get(low)
        if color is not None and color in words:  # a colour of mana
            return color
        for o in words:  # a replacement effect, by its source ("Card#0")
            if "#" in o and board.printed(o.split("#", 1)[0]) == name:
                return o
        if not flat:
            raise ScenarioFailed(f"{name!r} is not one of the choices: "
                                 f"{', '.join(words[:12])}{', ...' if len(words) > 12 else ''}")
    oid = board.ref(str(name), candidates=flat, avoid=picked)
    if flat and oid not in flat:
        shown = ["none" if o == 0 else board.game.name(o) if o < 0 else board.label(o)
                 for o in flat[:12]]
        raise ScenarioFailed(f"{name!r} is not one of the choices: {', '.join(shown)}"
                             f"{', ...' if len(flat) > 12 else ''}")
    return oid


def _order_triggers(board: ScenarioBoard, d: Decision, v: list[str]) -> list[int]:
    """The pending triggered abilities an ``order`` answer names (``NAME#N``), in order."""
    s = board.game.state
    items = list(d.context)
    out: list[int] = []
    for n in v:
        base, index = split_ability_ref(n)
        match = [i for i in items if i not in out and any(
            it.id == i and board.source_named(it.source, it.source_card, base)
            and (index is None or _trigger_index(board, it.source_card, it.ability) == index)
            for it in s.pending)]
        if not match:
            raise ScenarioFailed(f"no pending triggered ability from {n!r} to order")
        out.append(match[0])
    return out


def _trigger_index(board: ScenarioBoard, card: str, ability: str) -> int:
    """The 1-based index of ``ability`` among ``card``'s triggered abilities in printed
    order (0: not one of them)."""
    try:
        keys = [k for k, _t in board.reg[card].triggered]
    except KeyError:
        return 0
    return keys.index(ability) + 1 if ability in keys else 0


@dataclass
class ArrangementPlan:
    """An ``arrange`` answer being carried out: the looked-at cards for the top and the
    bottom, each top first."""

    answer: Answer
    top: list[int]
    bottom: list[int]


def plan_arrangement(board: ScenarioBoard, ans: Answer, cards: list[int],
                     ctx: dict[str, Any]) -> ArrangementPlan:
    """The looked-at cards an ``arrange`` answer names, top and bottom."""
    value: Arrangement = ans.value
    taken: list[int] = []
    sides: dict[str, list[int]] = {"top": [], "bottom": []}
    for side in ("top", "bottom"):
        for name in getattr(value, side):
            hit = next((c for c in cards if c not in taken and c in board.game.state.objects
                        and board.named(c, name)), None)
            if hit is None:
                looked = ", ".join(board.label(c) for c in cards)
                raise board.fail(ans.where, f"{name!r} is not among the looked-at cards "
                                 f"({looked})")
            taken.append(hit)
            sides[side].append(hit)
    part = ctx.get("part")
    if part == "top" and sides["bottom"]:
        raise board.fail(ans.where, "these cards are put back on top: none can go to the "
                         "bottom")
    if part == "bottom" and sides["top"]:
        raise board.fail(ans.where, "these cards go to the bottom: none can stay on top")
    return ArrangementPlan(ans, sides["top"], sides["bottom"])
