"""The browser replay viewer: one self-contained HTML file per game.

:func:`build_viewer` turns a log into a single HTML page -- inline CSS and
JavaScript, the game as embedded JSON, no external assets, no server, no
network -- that steps through the game event by event: both players' boards
(permanents with their power/toughness after continuous effects, tapped,
counters, damage, attachments), hands, graveyards, exile, the stack and
pending triggers, combat, life and loyalty; the event list with the current
event highlighted; jumping to an event or a turn; the arrow keys to step; and
the cause chain of the selected event.

Perspectives
------------
Every state is computed here, in Python, with the kernel's own code (the
projector :func:`mtgk.rules.state.apply`, the layer system
:func:`mtgk.rules.layers.compute` and :class:`mtgk.tools.render.Renderer`, which masks
hidden cards).  A page holds one or more *perspectives*: "everyone" (all
cards shown) and one per player.  Built for one player (``as_player``), the
page holds that player's perspective only, so the hidden information is not
in the file at all: the other hands are counts, cards the player cannot see
have no name and no id, the opponents' deck names and the game seed (which
with a known deck list would give away every library's order) are left out.

Snapshots
---------
The state after each event is flattened into a map of small keyed parts
(``g`` the turn, ``p0`` player 0's counters, ``h0`` their hand, ``o123``
permanent 123, ``s`` the stack ...).  A perspective stores the full map every
``every`` events (a *keyframe*) and, for the other events, only the parts
that changed (a *diff*: changed parts, removed part keys).  The page rebuilds
the state at event ``n`` from the keyframe before it.  A 1,000-event game
makes a file of a few hundred kilobytes per perspective.

>>> from mtgk.cards.loading import load_registry
>>> from mtgk.log.replay import new_header, run_from_header
>>> reg = load_registry(["core", "lorwyn"])
>>> header = new_header(reg, ["Ann", "Bob"], [["20 Mountain"], ["20 Mountain"]], seed=3,
...                     meta={"max_turns": 3})
>>> game = run_from_header(reg, header)
>>> data = viewer_data(header, game.log, reg, as_player=1)
>>> [p["label"] for p in data["perspectives"]], data["seed"]
(["Bob's view"], None)
>>> html = build_viewer(header, game.log, reg)
>>> html.startswith("<!DOCTYPE html>") and "<script src" not in html
True
"""

from __future__ import annotations

import html as _html
import re
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import msgspec

from mtgk.cards.definitions import KEYWORDS, Registry
from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.log.logfile import LogHeader, event_tag
from mtgk.rules.state import Obj, StackItem, State
from mtgk.tools.render import FOLD_NOTE, Renderer, characteristics, clean, fold_note

__all__ = ["DEFAULT_EVERY", "build_viewer", "viewer_data", "write_viewer"]

DEFAULT_EVERY = 50
"""Events between two keyframes."""

_ASSETS = "viewer_assets"
_PLACEHOLDER = re.compile(r"/\*\{\{(CSS|JS)\}\}\*/|\{\{(TITLE|DATA)\}\}")
_REF_FIELDS = ("obj", "new_obj", "source", "target", "item", "to", "attached_to")
_LIST_REF_FIELDS = ("targets", "objs")


# --------------------------------------------------------------------------
# one state, flattened, as one viewer sees it


def _type_line(c: Any) -> str:
    left = " ".join([*c.supertypes, *c.types])
    right = " ".join(c.subtypes + c.creature_types())
    return f"{left} — {right}" if right else left


def _printed_pt(reg: Registry | None, name: str) -> tuple[int, int] | None:
    if reg is None or name not in reg:
        return None
    f = reg[name].facts
    try:
        return (int(f.power), int(f.toughness)) if f.power and f.toughness else None
    except ValueError:
        return None


class _Viewpoint:
    """Builds the flat state map (and the event texts) of one perspective."""

    def __init__(self, reg: Registry | None, viewer: int | None, label: str, key: str) -> None:
        self.reg = reg
        self.viewer = viewer
        self.label = label
        self.key = key
        self.r = Renderer(reg, viewer)
        self.texts: list[str] = []
        self.keyframes: list[dict[str, Any]] = []
        self.diffs: list[Any] = []
        self.prev: dict[str, Any] = {}
        self.cards: set[str] = set()

    # names -------------------------------------------------------------------
    def sees(self, o: Obj) -> bool:
        return self.r.sees(o)

    def name(self, o: Obj) -> str | None:
        """The card's name, or ``None`` if this viewer may not see it."""
        if not self.sees(o):
            return None
        self.cards.add(o.card)
        return self.r.card_name(o.card)  # a token's printed name

    def card(self, o: Obj) -> list[Any] | None:
        """``[id, name]`` of a card in a hidden-able zone; ``None`` if hidden (the id is
        0 for a card the viewer knows but can't follow: one revealed from a hand)."""
        n = self.name(o)
        return None if n is None else [self.r.seen.shown_id(o.id, self.r.state), n]

    # the event text ------------------------------------------------------------
    def text(self, env: Envelope) -> str:
        """The event's text as this viewer reads it (then the event is folded)."""
        text = self.r.describe(env)
        self.r.advance(env)
        return text

    # the state map -------------------------------------------------------------
    def snapshot(self, s: State, chars: dict[int, Any]) -> dict[str, Any]:
        m: dict[str, Any] = {}
        m["g"] = [s.turn, s.active, s.step, int(s.over),
                  -2 if s.winner is None else s.winner]
        for i, p in enumerate(s.players):
            m[f"p{i}"] = [p.life, len(p.library), len(p.hand), "".join(p.mana), int(p.lost),
                          p.lands_played]
            hand = [self.card(s.objects[o]) for o in p.hand if o in s.objects]
            if self.viewer is not None and self.viewer != i:
                # another player's hand: the cards this viewer knows first, by name (where
                # a known card sits in the hand would tell when it came there)
                hand = sorted((c for c in hand if c is not None), key=lambda c: c[1]) + \
                    [None] * sum(c is None for c in hand)
            m[f"h{i}"] = hand
            m[f"y{i}"] = [self.card(s.objects[o]) for o in reversed(p.graveyard)]
        m["x"] = [self._exiled(s, s.objects[o]) for o in s.exile]
        m["bf"] = list(s.battlefield)
        for oid in s.battlefield:
            m[f"o{oid}"] = self._permanent(s, s.objects[oid], chars.get(oid))
        if s.stack:
            m["s"] = [self._item(s, it) for it in reversed(s.stack)]
        if s.pending:
            m["t"] = [self._item(s, it) for it in s.pending]
        if s.combat is not None:
            cb = s.combat
            m["c"] = [[a, self.r.ref(t), list(cb.blocked.get(a, [])),
                       int(a in cb.was_blocked)] for a, t in cb.attackers.items()]
        if s.effects:
            m["fx"] = [self._effect(x) for x in s.effects]
        return m

    def _exiled(self, s: State, o: Obj) -> list[Any]:
        n = self.name(o)
        if n is None:
            return [None, None, o.owner, int(o.face_down)]
        with_ = o.flags.get("exiled_with")
        extra = self.r.obj(int(with_)) if isinstance(with_, int) and with_ else ""
        return [o.id, n, o.owner, int(o.face_down), extra]

    def _permanent(self, s: State, o: Obj, c: Any) -> dict[str, Any]:
        seen = self.sees(o)
        d: dict[str, Any] = {"n": self.name(o) if seen else None,
                             "c": c.controller if c is not None else o.controller}
        if o.owner != d["c"]:
            d["w"] = o.owner
        if o.tapped:
            d["tp"] = 1
        if o.token:
            d["tk"] = 1
        if o.face_down:
            d["fd"] = 1
        if o.damage and (c is None or c.is_creature):
            d["dm"] = o.damage
        if o.attached_to:
            d["a"] = o.attached_to
        counters = dict(o.counters)
        if c is not None and seen:
            d["ty"] = _type_line(c)
            if c.is_creature:
                if o.sick:
                    d["sk"] = 1
                if c.power is not None and c.toughness is not None:
                    d["pt"] = [c.power, c.toughness]
                    printed = _printed_pt(self.reg, o.card)
                    if printed is not None and printed != (c.power, c.toughness):
                        d["bpt"] = list(printed)
            if c.loyalty is not None and "Planeswalker" in c.types:
                d["l"] = c.loyalty
                counters.pop("loyalty", None)
            kws = [a for a in c.abilities if a in KEYWORDS]
            if kws:
                d["kw"] = kws
        if counters:
            d["k"] = counters
        return d

    def _item(self, s: State, it: StackItem) -> list[Any]:
        targets = [self.r.ref(t) for t in it.targets]
        text = self.r.item(it)
        if it.x:
            text += f" (X={it.x})"
        return [it.id, text, it.kind, it.controller, targets]

    def _effect(self, x: Any) -> str:
        on = f" on {self.r.refs(x.objs)}" if x.objs else ""
        until = " until end of turn" if x.duration == "eot" else ""
        return f"{self.r.obj(x.source)}: {self.r.effect_text(x.kind, x.params)}{on}{until}"

    # encoding ------------------------------------------------------------------
    def add(self, n: int, snap: dict[str, Any], every: int) -> None:
        if n % every == 0:
            self.keyframes.append(snap)
            self.diffs.append(0)
        else:
            prev = self.prev
            changed = {k: v for k, v in snap.items() if prev.get(k) != v}
            gone = [k for k in prev if k not in snap]
            self.diffs.append([changed, gone] if gone else [changed])
        self.prev = snap


def _refs(e: ev.Event) -> list[int]:
    out: list[int] = []
    for f in _REF_FIELDS:
        v = getattr(e, f, None)
        if isinstance(v, int) and not isinstance(v, bool) and v > 0:
            out.append(v)
    for f in _LIST_REF_FIELDS:
        v = getattr(e, f, None)
        if isinstance(v, tuple | list):
            out.extend(x for x in v if isinstance(x, int) and x > 0)
    if isinstance(e, ev.AttackersDeclared):
        out.extend(a for a, _ in e.attacks)
    if isinstance(e, ev.BlockersDeclared):
        for b, a in e.blocks:
            out += [b, a]
    return out


def _chars(s: State, reg: Registry | None) -> tuple[dict[int, Any], str]:
    if reg is None:
        return {}, "no card registry: power and toughness not shown"
    return characteristics(s, reg, "power and toughness not shown")


def viewer_data(header: LogHeader, envelopes: Sequence[Envelope], registry: Registry | None,
                as_player: int | None = None, every: int = DEFAULT_EVERY,
                title: str | None = None) -> dict[str, Any]:
    """The data a viewer page embeds (see the module docs for what it holds).

    ``as_player`` builds the page for one player; ``every`` is the keyframe
    interval.  Raises :class:`ValueError` for a player who is not in the game.
    """
    if every < 1:
        raise ValueError("keyframes must be at least 1 event apart")
    players = list(header.players)
    if as_player is not None and not 0 <= as_player < len(players):
        raise ValueError(f"no player {as_player} in this game")
    if as_player is None:
        views = [_Viewpoint(registry, None, "Everyone (all cards shown)", "all")]
        views += [_Viewpoint(registry, i, f"{name}'s view", f"p{i}")
                  for i, name in enumerate(players)]
    else:
        views = [_Viewpoint(registry, as_player, f"{players[as_player]}'s view",
                            f"p{as_player}")]
    tags: dict[str, int] = {}
    tag_of: list[int] = []
    causes: list[int] = []
    turns: list[int] = []
    turn_starts: list[list[int]] = []
    refs: list[list[int]] = []
    notes: list[str] = []
    truth = views[0].r.state  # every renderer folds the same (unmasked) events
    before: set[int] = set()
    for n, env in enumerate(envelopes):
        e = env.event
        tag = event_tag(e)
        tag_of.append(tags.setdefault(tag, len(tags)))
        causes.append(env.cause)
        for v in views:
            v.texts.append(v.text(env))
        s = truth
        if isinstance(e, ev.TurnBegan):
            turn_starts.append([e.turn, n, e.active])
        turns.append(s.turn)
        chars, note = _chars(s, registry)
        if note and as_player is not None and registry is not None:
            # the reason may name a card the viewer can't see
            note = note.partition(":")[0] + ": they cannot be computed for some events"
        if note and note not in notes:
            notes.append(note)
        now = set(s.battlefield) | {it.id for it in s.stack}
        refs.append([r for r in dict.fromkeys(_refs(e)) if r in now or r in before])
        before = now
        for v in views:
            v.add(n, v.snapshot(v.r.state, chars), every)
    folded = views[0].r.fold_errors
    if folded:
        notes.append(fold_note(folded))
    meta = header.meta
    given = meta.get("deck_names")
    deck_names: list[Any] = given if isinstance(given, list) else []
    decks: list[str | None] = []
    for i in range(len(players)):
        name = deck_names[i] if i < len(deck_names) and isinstance(deck_names[i], str) else None
        decks.append(name if as_player is None or as_player == i else None)
    final = truth
    cards: dict[str, list[Any]] = {}
    seen_cards: set[str] = set().union(*(v.cards for v in views))
    for name in sorted(seen_cards):
        if registry is not None and name in registry:
            f = registry[name].facts
            cards[registry.token_name(name)] = [f.mana_cost or "", f.type_line, f.oracle_text,
                           f"{f.power}/{f.toughness}" if f.power is not None else "",
                           f.loyalty or ""]
    return {
        "format": 1,
        "title": title or f"{' vs '.join(players)}",
        "players": players,
        "decks": decks,
        "seed": header.seed if as_player is None else None,
        "profile": header.profile,
        "asPlayer": as_player,
        "winner": final.winner if final.over else None,
        "over": final.over,
        "every": every,
        "tags": list(tags),
        "tag": tag_of,
        "cause": causes,
        "turn": turns,
        "turnStarts": turn_starts,
        "refs": refs,
        "cards": cards,
        "notes": notes,
        "perspectives": [{"key": v.key, "label": v.label, "viewer": v.viewer,
                          "text": v.texts, "keyframes": v.keyframes, "diffs": v.diffs}
                         for v in views],
    }


# --------------------------------------------------------------------------
# the page


def _asset(name: str) -> str:
    try:
        return resources.files("mtgk.tools").joinpath(_ASSETS, name).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError) as exc:
        raise RuntimeError(f"the viewer's {name} is missing from the mtgk installation "
                           f"(kernel/tools/{_ASSETS}/{name}): {exc}") from None


def _json_for_script(data: Any) -> str:
    """JSON that is safe inside a ``<script type="application/json">`` element."""
    # "<" only occurs inside JSON strings, where \u003c means the same
    return msgspec.json.encode(data).decode().replace("<", "\\u003c")


def build_viewer(header: LogHeader, envelopes: Sequence[Envelope], registry: Registry | None,
                 as_player: int | None = None, every: int = DEFAULT_EVERY,
                 title: str | None = None) -> str:
    """The viewer page for a game: one self-contained HTML document."""
    return _page(header, viewer_data(header, envelopes, registry, as_player, every, title),
                 as_player)


def _page(header: LogHeader, data: dict[str, Any], as_player: int | None) -> str:
    heading = clean(data["title"] + (f" — as {header.players[as_player]}"
                                     if as_player is not None else ""))
    parts = {"CSS": _asset("viewer.css"), "JS": _asset("viewer.js"),
             "TITLE": _html.escape(heading), "DATA": _json_for_script(data)}
    # one pass over the template: inserted text is never scanned for placeholders
    return _PLACEHOLDER.sub(lambda m: parts[m.group(1) or m.group(2)], _asset("viewer.html"))


def write_viewer(path: str | Path, header: LogHeader, envelopes: Sequence[Envelope],
                 registry: Registry | None, as_player: int | None = None,
                 every: int = DEFAULT_EVERY) -> tuple[int, str]:
    """Write the viewer page to ``path``; returns its size in bytes and a note on the
    events that could not be folded (``""``: none; the page's footer shows it too)."""
    data = viewer_data(header, envelopes, registry, as_player, every)
    raw = _page(header, data, as_player).encode("utf-8")
    Path(path).write_bytes(raw)
    note = next((n for n in data["notes"] if FOLD_NOTE in n), "")
    return len(raw), note
