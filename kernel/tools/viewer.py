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
:func:`mtgk.rules.layers.compute` and :class:`mtgk.render.Renderer`, which masks
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
permanent 123, ``s`` the stack ...).  A perspective stores the full map at
some events (*keyframes*, at the events ``keyAt`` lists) and, for the other
events, only the parts that changed (a *diff*: ``[changed parts, removed part
keys, spliced parts]``, the last two left out when empty).  A long list part
(16 items or more: a graveyard, a hand) that changed is *spliced*:
``[keep, keep_end, middle]`` says the new list is the old one's first
``keep`` items, then ``middle``, then its last ``keep_end`` items, so a card
put into a graveyard of 3,000 costs a few bytes.  A keyframe comes at event
0, then once the diffs since the last keyframe add up to its size, and never
less than ``every`` events after the last one: rebuilding a state costs at
most about two keyframes' worth of data, and the page stays proportional to
what changes.  The page rebuilds the state at event ``n`` from the keyframe
before it.

The page's data (format 3) names things once: the event texts are numbers in
the page's ``strings``, a card of a hand or graveyard is ``[id, k]`` with its
name ``names[k]``, the step in ``g`` a number in ``steps``.  Beside everyone's
perspective (``base`` 0), a player's stores only the parts of its maps that
differ from everyone's at the same event (the hidden hands, mostly); the page
lays them over the base's.  A cause is stored as how many events back it is,
the turn after each event as runs (``turns``: ``[turn, first event]``).  A
1,000-event game makes a file of about 150 kilobytes with every perspective;
the 100,000-event game of ``bench/viewer_speed.py``, about 11 megabytes.
Building runs with the garbage collector off; the keyframes and diffs are
encoded as they are made, and the page is written in pieces.

>>> from mtgk.cards.loading import load_registry
>>> from mtgk.games.replay import new_header, run_from_header
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

import gc
import html as _html
import re
from collections.abc import Callable, Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import msgspec

from mtgk.cards.definitions import KEYWORDS, Registry
from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.log.logfile import LogHeader, event_tag
from mtgk.render import FOLD_NOTE, Renderer, characteristics, clean, fold_note
from mtgk.rules.state import Obj, StackItem, State

__all__ = ["DEFAULT_EVERY", "LiveView", "build_viewer", "viewer_data", "write_viewer"]

DEFAULT_EVERY = 50
"""The fewest events between two keyframes."""

_PROGRESS_STEP = 500

_ASSETS = "viewer_assets"
_PLACEHOLDER = re.compile(r"/\*\{\{(CSS|BOARD|JS)\}\}\*/|\{\{(TITLE|DATA)\}\}")
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


class _Tables:
    """The page's tables: the event texts, the card names and the steps, each numbered
    in the order first met (a page's parts name them by number)."""

    def __init__(self) -> None:
        self.strings: dict[str, int] = {}
        self.names: dict[str, int] = {}
        self.name_list: list[str] = []
        self.steps: dict[Any, int] = {}

    def string(self, text: str) -> int:
        k = self.strings.get(text)
        if k is None:
            k = self.strings[text] = len(self.strings)
        return k

    def name(self, name: str) -> int:
        k = self.names.get(name)
        if k is None:
            k = self.names[name] = len(self.name_list)
            self.name_list.append(name)
        return k

    def step(self, step: Any) -> int:
        k = self.steps.get(step)
        if k is None:
            k = self.steps[step] = len(self.steps)
        return k


class _Viewpoint:
    """Builds the flat state map (and the event texts) of one perspective.  With
    ``tables`` (a page's), the maps name cards and steps by their numbers in them."""

    def __init__(self, reg: Registry | None, viewer: int | None, label: str, key: str,
                 cache: bool = True, tables: _Tables | None = None) -> None:
        self.reg = reg
        self.viewer = viewer
        self.label = label
        self.key = key
        self.r = Renderer(reg, viewer)
        self.texts: list[int] = []
        self.keyframes: list[bytes] = []  # (encoded)
        self.diffs: list[bytes] = []
        self.prev: dict[str, Any] = {}
        self.cards: set[str] = set()
        self.cache = cache
        self.tables = tables
        self._names: dict[str, str] = {}
        self._refs: dict[str, Any] = {}  # card key -> its name, or its number in tables
        self._over: dict[str, Any] = {}  # (over: the parts that differ from the base's)
        self._own_prev: dict[str, Any] = {}
        self._base_prev: dict[str, Any] = {}
        self._last: dict[str, Any] = {}  # the last map made
        self._graveyards: dict[int, tuple[list[int], list[Any], list[int]]] = {}
        self.key_at: list[int] = []  # the events the keyframes are at
        self._since_key = 0  # bytes of diffs since the last keyframe
        self._key_size = 0  # bytes of the last keyframe

    # names -------------------------------------------------------------------
    def sees(self, o: Obj) -> bool:
        return self.r.sees(o)

    def name(self, o: Obj) -> str | None:
        """The card's name, or ``None`` if this viewer may not see it."""
        if not self.sees(o):
            return None
        return self._card_name(o.card)

    def _card_name(self, key: str) -> str:
        """A token's printed name, or the card's (remembered per key)."""
        name = self._names.get(key)
        if name is None:
            self.cards.add(key)
            name = self._names[key] = self.r.card_name(key)
        return name

    def _card_ref(self, key: str) -> Any:
        """The card's name, or its number in the page's names table."""
        ref = self._refs.get(key)
        if ref is None:
            name = self._card_name(key)
            ref = self._refs[key] = name if self.tables is None else self.tables.name(name)
        return ref

    def _by_name(self, card: list[Any]) -> str:
        """A card's name (to sort by)."""
        return card[1] if self.tables is None else self.tables.name_list[card[1]]

    def card(self, o: Obj) -> list[Any] | None:
        """``[id, name]`` of a card in a hidden-able zone (the name's number in the
        page's table, on a page); ``None`` if hidden (the id is 0 for a card the viewer
        knows but can't follow: one revealed from a hand)."""
        if self.viewer is None:  # everyone's view sees and follows every card
            return [o.id, self._card_ref(o.card)]
        if not self.sees(o):
            return None
        return [self.r.seen.shown_id(o.id, self.r.state), self._card_ref(o.card)]

    # the event text ------------------------------------------------------------
    def text(self, env: Envelope) -> str:
        """The event's text as this viewer reads it (then the event is folded)."""
        text = self.r.describe(env)
        self.r.advance(env)
        return text

    # the state map -------------------------------------------------------------
    def snapshot(self, s: State, chars: dict[int, Any], same_hands: bool = False
                 ) -> dict[str, Any]:
        """The state map of ``s`` as this viewer sees it.  ``same_hands``: the event
        just folded changed nothing but the step (``StepBegan``), so the hands read as
        in the last map (what a viewer knows of a card changes only with an event
        that names it or moves it)."""
        m: dict[str, Any] = {}
        prev = self._last if same_hands and self.cache else None
        m["g"] = [s.turn, s.active, s.step if self.tables is None else
                  self.tables.step(s.step), int(s.over),
                  -2 if s.winner is None else s.winner]
        for i, p in enumerate(s.players):
            m[f"p{i}"] = [p.life, len(p.library), len(p.hand), "".join(p.mana), int(p.lost),
                          p.lands_played]
            if prev is not None and f"h{i}" in prev:
                m[f"h{i}"] = prev[f"h{i}"]
                m[f"y{i}"] = self._graveyard(s, i, p.graveyard)
                continue
            hand = [self.card(s.objects[o]) for o in p.hand if o in s.objects]
            if self.viewer is not None and self.viewer != i:
                # another player's hand: the cards this viewer knows first, by name (where
                # a known card sits in the hand would tell when it came there)
                hand = sorted((c for c in hand if c is not None), key=self._by_name) + \
                    [None] * sum(c is None for c in hand)
            m[f"h{i}"] = hand
            m[f"y{i}"] = self._graveyard(s, i, p.graveyard)
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
        self._last = m
        return m

    def _graveyard(self, s: State, i: int, ids: list[int]) -> list[Any]:
        """Player ``i``'s graveyard, newest first, made from the list made before.

        A face-up card in a graveyard (a public zone, where every zone change gives
        a new id) reads the same to every viewer for as long as it stays there; so
        the list for the same ids is the same list, and when cards come or go only
        theirs are made (a long game's graveyards are not rebuilt card by card at
        every event).  A graveyard with a face-down card in it is made afresh."""
        kept = self._graveyards.get(i)
        if not self.cache:
            return [self.card(s.objects[o]) for o in reversed(ids)]
        if kept is not None and kept[0] == ids:
            return kept[1]
        new_ids = ids[::-1]
        if kept is None:
            keep, keep_end, middle = 0, 0, new_ids
        else:
            keep, keep_end, middle = _splice(kept[2], new_ids)
        objs = [s.objects[o] for o in middle]
        made = [self.card(o) for o in objs]
        if kept is not None:
            old = kept[1]
            made = old[:keep] + made + old[len(old) - keep_end:]
        if any(o.face_down for o in objs):
            self._graveyards.pop(i, None)
            return [self.card(s.objects[o]) for o in new_ids]
        self._graveyards[i] = (list(ids), made, new_ids)
        return made

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
        """Store the state map of event ``n``: a keyframe (at event 0, then at most one
        every ``every`` events, when the diffs since the last one have grown to its
        size), or a diff against the map of event ``n - 1``."""
        prev = self.prev
        if n == 0 or (n - self.key_at[-1] >= every and self._since_key >= self._key_size):
            raw = _ENCODE(snap)
            self.keyframes.append(raw)
            self.key_at.append(n)
            self.diffs.append(b"0")
            self._key_size = len(raw)
            self._since_key = 0
        else:
            changed: dict[str, Any] = {}
            spliced: dict[str, list[Any]] = {}
            for k, v in snap.items():
                old = prev.get(k)
                if old is v or old == v:
                    continue
                if type(old) is list and type(v) is list and len(v) >= _SPLICE_MIN:
                    spliced[k] = _splice(old, v)
                else:
                    changed[k] = v
            gone = [k for k in prev if k not in snap]
            d: list[Any] = [changed, gone, spliced] if spliced else \
                [changed, gone] if gone else [changed]
            raw = _ENCODE(d)
            self.diffs.append(raw)
            self._since_key += len(raw)
        self.prev = snap

    def over(self, snap: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
        """The parts of this viewer's map ``snap`` that differ from those of the base
        perspective's map ``base`` at the same event (the maps have the same keys).  A
        part that neither map changed since the event before keeps its standing."""
        out: dict[str, Any] = {}
        own, was, kept = self._own_prev, self._base_prev, self._over
        for k, v in snap.items():
            b = base.get(k)
            if own.get(k) is v and was.get(k) is b:
                if k in kept:
                    out[k] = v
            elif not (b is v or b == v):
                out[k] = v
        self._own_prev, self._base_prev, self._over = snap, base, out
        return out


_ENCODE = msgspec.json.Encoder().encode
_SPLICE_MIN = 16
"""A list part this long or longer changes by a splice (what stays at its start and end,
what is new in between) rather than by its new value."""


def _common_prefix(a: list[Any], b: list[Any], limit: int) -> int:
    """How many items ``a`` and ``b`` share at their starts (at most ``limit``)."""
    if a[:limit] == b[:limit]:
        return limit
    lo, hi = 0, limit - 1  # a[:lo] == b[:lo] and a[:hi + 1] != b[:hi + 1]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _splice(old: list[Any], new: list[Any]) -> list[Any]:
    """``[keep, keep_end, middle]``: ``new`` is ``old[:keep] + middle + old[len(old) -
    keep_end:]``.  A card put on top of a pile or taken from it costs one compare.

    >>> _splice([1, 2, 3], [0, 1, 2, 3]), _splice([1, 2, 3], [1, 9, 3])
    ([0, 3, [0]], [1, 1, [9]])
    """
    lo, ln = len(old), len(new)
    if ln == lo + 1 and new[1:] == old:
        return [0, lo, new[:1]]
    if lo == ln + 1 and old[1:] == new:
        return [0, ln, []]
    if ln == lo + 1 and new[:-1] == old:
        return [lo, 0, new[-1:]]
    if lo == ln + 1 and old[:-1] == new:
        return [ln, 0, []]
    pre = _common_prefix(old, new, min(lo, ln))
    ro, rn = old[::-1], new[::-1]
    suf = _common_prefix(ro, rn, min(lo, ln) - pre)
    return [pre, suf, new[pre:ln - suf]]


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


class _Built:
    """A page's data, its bulk already encoded: ``head`` the small fields, ``views`` the
    perspectives (their keyframes and diffs as JSON bytes)."""

    def __init__(self, head: dict[str, Any], views: list[_Viewpoint], based: bool) -> None:
        self.head = head
        self.views = views
        self.based = based  # (the perspectives after the first store what differs from it)

    def chunks(self) -> Iterator[bytes]:
        """The data's JSON, in pieces."""
        yield _ENCODE(self.head)[:-1] + b',"perspectives":['
        for i, v in enumerate(self.views):
            small = {"key": v.key, "label": v.label, "viewer": v.viewer,
                     "base": 0 if self.based and i else None, "text": v.texts,
                     "keyAt": v.key_at}
            yield (b"," if i else b"") + _ENCODE(small)[:-1] + b',"keyframes":['
            yield b",".join(v.keyframes)
            yield b'],"diffs":['
            yield b",".join(v.diffs)
            yield b"]}"
        yield b"]}"

    def data(self) -> dict[str, Any]:
        out: dict[str, Any] = msgspec.json.decode(b"".join(self.chunks()))
        return out


def viewer_data(header: LogHeader, envelopes: Sequence[Envelope], registry: Registry | None,
                as_player: int | None = None, every: int = DEFAULT_EVERY,
                title: str | None = None, progress: Callable[[int], None] | None = None,
                cache: bool = True, at: int | None = None, source: str = ""
                ) -> dict[str, Any]:
    """The data a viewer page embeds (see the module docs for what it holds).

    ``as_player`` builds the page for one player; ``every`` is the shortest
    keyframe interval.  ``progress(k)`` is called after every ``k`` events
    done (for a progress bar); ``cache=False`` rebuilds every part of every
    state map (to check that the kept parts read the same).  The page opens at
    event ``at`` (default: the first decision a player made; ``start``);
    ``source`` is the log's path, for the "branch from here" command the page
    offers.  Raises :class:`ValueError` for a player who is not in the game or an
    event that is not in the log.
    """
    return _build(header, envelopes, registry, as_player, every, title, progress, cache,
                  at, source).data()


def _build(header: LogHeader, envelopes: Sequence[Envelope], registry: Registry | None,
           as_player: int | None = None, every: int = DEFAULT_EVERY,
           title: str | None = None, progress: Callable[[int], None] | None = None,
           cache: bool = True, at: int | None = None, source: str = "") -> _Built:
    """:func:`viewer_data`'s work, the garbage collector off (the states and maps it
    makes hold no reference cycles)."""
    was = gc.isenabled()
    gc.disable()
    try:
        return _build_data(header, envelopes, registry, as_player, every, title, progress,
                           cache, at, source)
    finally:
        if was:
            gc.enable()


def _build_data(header: LogHeader, envelopes: Sequence[Envelope], registry: Registry | None,
                as_player: int | None, every: int, title: str | None,
                progress: Callable[[int], None] | None, cache: bool, at: int | None,
                source: str) -> _Built:
    if every < 1:
        raise ValueError("keyframes must be at least 1 event apart")
    if at is not None and not 0 <= at < len(envelopes):
        raise ValueError(f"event {at} is not in the log (it has events 0 to "
                         f"{len(envelopes) - 1})")
    start = at if at is not None else next(
        (env.seq for env in envelopes if isinstance(env.event, ev.DecisionMade)
         and env.event.player >= 0), 0)
    players = list(header.players)
    if as_player is not None and not 0 <= as_player < len(players):
        raise ValueError(f"no player {as_player} in this game")
    tables = _Tables()
    if as_player is None:
        views = [_Viewpoint(registry, None, "Everyone (all cards shown)", "all", cache, tables)]
        views += [_Viewpoint(registry, i, f"{name}'s view", f"p{i}", cache, tables)
                  for i, name in enumerate(players)]
    else:
        views = [_Viewpoint(registry, as_player, f"{players[as_player]}'s view",
                            f"p{as_player}", cache, tables)]
    base, others = views[0], views[1:]
    tags: dict[str, int] = {}
    tag_of: list[int] = []
    causes: list[int] = []  # n - cause (small numbers)
    turns: list[list[int]] = []  # [turn, first event]: the turn after each event, in runs
    turn_starts: list[list[int]] = []
    refs: list[list[int]] = []
    notes: list[str] = []
    truth = base.r.state  # every renderer folds the same (unmasked) events
    before: set[int] = set()
    string = tables.string
    for n, env in enumerate(envelopes):
        e = env.event
        tag = event_tag(e)
        tag_of.append(tags.setdefault(tag, len(tags)))
        causes.append(n - env.cause)
        for v in views:
            v.texts.append(string(v.text(env)))
        s = truth
        if isinstance(e, ev.TurnBegan):
            turn_starts.append([e.turn, n, e.active])
        if not turns or turns[-1][0] != s.turn:
            turns.append([s.turn, n])
        chars, note = _chars(s, registry)
        if note and as_player is not None and registry is not None:
            # the reason may name a card the viewer can't see
            note = note.partition(":")[0] + ": they cannot be computed for some events"
        if note and note not in notes:
            notes.append(note)
        now = set(s.battlefield) | {it.id for it in s.stack}
        refs.append([r for r in dict.fromkeys(_refs(e)) if r in now or r in before])
        before = now
        same_hands = type(e) is ev.StepBegan
        snap = base.snapshot(base.r.state, chars, same_hands)
        base.add(n, snap, every)
        for v in others:
            v.add(n, v.over(v.snapshot(v.r.state, chars, same_hands), snap), every)
        if progress is not None and n % _PROGRESS_STEP == _PROGRESS_STEP - 1:
            progress(_PROGRESS_STEP)
    if progress is not None and len(envelopes) % _PROGRESS_STEP:
        progress(len(envelopes) % _PROGRESS_STEP)
    folded = base.r.fold_errors
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
    head = {
        "format": 3,
        "title": title or (" vs ".join(" & ".join(players[p] for p in t) for t in final.teams)
                           if final.teams else f"{' vs '.join(players)}"),
        "players": players,
        "teams": [list(t) for t in final.teams],  # (Two-Headed Giant; else empty)
        "decks": decks,
        "seed": header.seed if as_player is None else None,
        "profile": header.profile,
        "asPlayer": as_player,
        "start": start,  # the event the page opens at
        "source": source,
        "winner": final.winner if final.over else None,
        "over": final.over,
        "every": every,
        "events": len(envelopes),
        "tags": list(tags),
        "tag": tag_of,
        "cause": causes,
        "turns": turns,
        "turnStarts": turn_starts,
        "refs": refs,
        "cards": cards,
        "notes": notes,
        "strings": list(tables.strings),
        "names": tables.name_list,
        "steps": list(tables.steps),
    }
    return _Built(head, views, bool(others))


class LiveView:
    """One player's view of a game in progress (``mtgk serve``), made with the viewer's
    own machinery: :meth:`catch_up` folds the events not folded yet and returns their
    texts as that player reads them (``mtgk log --as``); :meth:`state` is the state map
    of a viewer page's perspective for that player (hidden cards have no name and no
    id); :meth:`cards` the card texts of the cards the player has seen.  ``numbered``:
    events name cards with their numbers, as the terminal game does (``Forest #12``).
    """

    def __init__(self, reg: Registry | None, viewer: int | None, label: str = "",
                 numbered: bool = True) -> None:
        self.reg = reg
        self._v = _Viewpoint(reg, viewer, label or f"player {viewer}", f"p{viewer}",
                             cache=False)
        self._v.r.numbered = numbered
        self.folded = 0

    @property
    def renderer(self) -> Renderer:
        """The renderer that folds the events (its names are the player's)."""
        return self._v.r

    def catch_up(self, envelopes: Sequence[Envelope]) -> list[str]:
        """Fold the events from :attr:`folded` on; their texts."""
        out = [self._v.text(env) for env in envelopes[self.folded:]]
        self.folded = len(envelopes)
        return out

    def state(self) -> dict[str, Any]:
        """The state map after the events folded (see the module docs)."""
        s = self._v.r.state
        chars, _ = _chars(s, self.reg)
        return self._v.snapshot(s, chars)

    def cards(self) -> dict[str, list[Any]]:
        """``name -> [cost, type line, text, power/toughness, loyalty]`` of the cards seen."""
        out: dict[str, list[Any]] = {}
        reg = self.reg
        for key in sorted(self._v.cards):
            if reg is not None and key in reg:
                f = reg[key].facts
                out[reg.token_name(key)] = [
                    f.mana_cost or "", f.type_line, f.oracle_text,
                    f"{f.power}/{f.toughness}" if f.power is not None else "", f.loyalty or ""]
        return out


# --------------------------------------------------------------------------
# the page


def _asset(name: str) -> str:
    try:
        return resources.files("mtgk.tools").joinpath(_ASSETS, name).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError) as exc:
        raise RuntimeError(f"the viewer's {name} is missing from the mtgk installation "
                           f"(kernel/tools/{_ASSETS}/{name}): {exc}") from None


def _for_script(chunk: bytes) -> bytes:
    """JSON that is safe inside a ``<script type="application/json">`` element."""
    # "<" only occurs inside JSON strings, where \u003c means the same
    return chunk.replace(b"<", b"\\u003c")


def build_viewer(header: LogHeader, envelopes: Sequence[Envelope], registry: Registry | None,
                 as_player: int | None = None, every: int = DEFAULT_EVERY,
                 title: str | None = None, at: int | None = None, source: str = "") -> str:
    """The viewer page for a game: one self-contained HTML document (see
    :func:`viewer_data` for ``at`` and ``source``)."""
    built = _build(header, envelopes, registry, as_player, every, title, at=at, source=source)
    return b"".join(_page(header, built, as_player)).decode("utf-8")


def _page(header: LogHeader, built: _Built, as_player: int | None) -> Iterator[bytes]:
    """The page, in pieces (the data is never one string in memory)."""
    heading = clean(built.head["title"] + (f" — as {header.players[as_player]}"
                                           if as_player is not None else ""))
    parts = {"CSS": _asset("viewer.css"), "BOARD": _asset("board.js"),  # (shared with serve)
             "JS": _asset("viewer.js"), "TITLE": _html.escape(heading)}
    # one pass over the template: inserted text is never scanned for placeholders
    template = _asset("viewer.html")
    at = 0
    for m in _PLACEHOLDER.finditer(template):
        yield template[at:m.start()].encode("utf-8")
        key = m.group(1) or m.group(2)
        if key == "DATA":
            for chunk in built.chunks():
                yield _for_script(chunk)
        else:
            yield parts[key].encode("utf-8")
        at = m.end()
    yield template[at:].encode("utf-8")


def write_viewer(path: str | Path, header: LogHeader, envelopes: Sequence[Envelope],
                 registry: Registry | None, as_player: int | None = None,
                 every: int = DEFAULT_EVERY, progress: Callable[[int], None] | None = None,
                 at: int | None = None, source: str = "") -> tuple[int, str]:
    """Write the viewer page to ``path``; returns its size in bytes and a note on the
    events that could not be folded (``""``: none; the page's footer shows it too).
    ``progress(k)``: called as events are done; ``at``, ``source``: see
    :func:`viewer_data`."""
    built = _build(header, envelopes, registry, as_player, every, progress=progress,
                   at=at, source=source)
    size = 0
    with open(path, "wb") as f:
        for chunk in _page(header, built, as_player):
            f.write(chunk)
            size += len(chunk)
    note = next((n for n in built.head["notes"] if FOLD_NOTE in n), "")
    return size, note
