"""Characteristics after continuous effects, applied in layers (CR 613).

An object's current characteristics (:class:`~mtgk.rules.chars.Chars`) start from its
card's printed facts (:func:`~mtgk.rules.chars.printed`); continuous effects then apply layer by layer and, within a
layer, in timestamp order with characteristic-defining abilities first
(CR 613.3), except where one effect depends on another (CR 613.8).

What is supported (see ``docs/layers.md`` for the long form):

* **Layers** ``1`` copy effects, ``2`` control, ``4`` type (card types,
  subtypes, creature types), ``5`` colour, ``6`` abilities, ``7a`` P/T
  characteristic-defining abilities, ``7b`` P/T setting ("has base power and
  toughness X/X", 2007's "becomes X/X"), ``7c`` P/T modifying, then
  counters, ``7d`` P/T switching.  Layer 3 (text changing) is not
  implemented.
* **Copy effects** (layer 1, CR 707): an effect of kind ``copy`` whose params
  are a card name makes its objects have that card's printed characteristics
  -- name, mana cost, colours, types, subtypes, supertypes, rules text (its
  abilities), P/T, loyalty -- in place of their own; the other layers then
  apply on top.  Counters, damage, tapped status and controller are not
  copied.  The name is taken from the copied object's *copiable values* as the
  effect is created (:func:`copiable_name`: a copy of a copy copies what the
  latter copies).  ``Chars.card`` names the definition an object behaves as,
  and the engine looks behaviour up through it everywhere
  (:meth:`mtgk.rules.engine.Game.definition`: activated, triggered, static,
  replacement and mana abilities); static abilities here are read from the
  definitions the permanents have after layer 1.  Only resolved spells and
  abilities make copy effects (no static ability does).
* **Sources of effects**: resolved spells and abilities (``state.effects``,
  made by :class:`~mtgk.log.events.EffectCreated`; their affected objects are
  locked in as they resolve) and the static abilities of permanents
  (recomputed from the card definitions, and only while the permanent still
  has that ability).
* **Timestamps** (CR 613.7): an effect from a resolved spell or ability has
  the timestamp of its creation; a static ability's effects have their
  source's timestamp (it entered the battlefield, or became attached).
* **CR 613.6**: a static ability's effect that starts to apply in one layer
  keeps applying to the same objects in later layers, even if the ability
  is removed meanwhile; the set of objects is determined as it starts.
* **Dependencies** (CR 613.8): within a layer, a static ability's effect
  that would exist differently, apply to other objects or do something else
  once another effect of that layer has applied *depends* on it and waits
  for it (e.g. Lignify's "loses all abilities" before a lord's "Goblins
  have haste": the lord then has no ability left to grant anything).
  Detected by trial application; loops fall back to timestamp order.
  Effects of resolved spells and abilities never depend on others (their
  objects and values were locked in as they resolved).
* **Subtypes are correlated with card types** (Lorwyn primer, "Card Type:
  Tribal"): creature types belong to Creature and Tribal, land types to
  Land, and so on (:func:`subtype_set`).  Changing one set of subtypes
  replaces only that set; an object that stops being a type loses that
  type's subtypes unless another of its types takes them too (a Tribal
  Creature that stops being a creature keeps its creature types).
* **Changeling** is a characteristic-defining ability of layer 4 that works
  in every zone (CR 502.73 in 2007, now 702.73), applied first in layer 4.
  So, as the primer explains: an effect that removes all creature types
  (layer 4, later) still removes them; one that sets new creature types
  leaves only those; removing changeling itself (layer 6) comes too late to
  take the creature types away.  Effects that grant all creature types do
  not grant changeling.  A P/T-defining ability (7a) is lost with "loses all
  abilities" (layer 6 comes first).
* **Conditional effects**: a resolved effect whose params are a mapping with
  ``while_counter: KIND`` applies to an object only while that object has a
  counter of that kind (Aquitect's Will: "for as long as it has a flood
  counter on it").
* Durations are the engine's: ``eot`` effects end in the cleanup step,
  ``next_turn`` ("until your next turn") ones as their controller's next turn
  begins (in its untap step, before anything untaps), ``while_source`` ones as
  their source leaves the battlefield -- each with an
  :class:`~mtgk.log.events.EffectsEnded` event, so replays reproduce it.

Effect kinds (``APPLIERS``): ``copy``; ``control``; ``add_all_creature_types``,
``lose_all_creature_types``, ``set_creature_types``,
``add_creature_types``, ``add_subtypes``, ``set_subtypes``, ``add_types``,
``remove_types``, ``set_types``; ``set_colors``; ``grant``, ``lose``,
``lose_all_abilities``; ``set_pt``; ``pt``; ``switch_pt``.  Plugins add
their own with :func:`register_effect_kind`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any, NoReturn

from mtgk.rules.chars import CHARS_FIELDS, Chars, printed, printed_template
from mtgk.rules.errors import blame
from mtgk.rules.names import ALL_CHANGES, LAYER_CHANGES, LAYER_ORDER, Layer, layer_named
from mtgk.rules.subtypes import SUBTYPE_OWNERS, is_creature_type, subtype_set

if TYPE_CHECKING:
    from mtgk.rules.definitions import Registry
    from mtgk.rules.state import Obj, State

# --------------------------------------------------------------------------
# effect appliers: (chars, params, view) -> None

def _copy(c: Chars, p: Any, v: Any) -> None:
    """Layer 1 (CR 707.2): the object's copiable values become those of card ``p`` (a card
    name: the copied object's copiable values, fixed as the effect began).  Its controller
    stays; counters, damage and tapped status are not characteristics and stay too."""
    t = printed_template(v.reg, str(p))
    for slot in CHARS_FIELDS:
        if slot not in ("controller", "oid", "shared"):
            val = getattr(t, slot)
            setattr(c, slot, list(val) if isinstance(val, list) else val)


def _set_pt(c: Chars, p: Any, v: Any) -> None:
    c.power, c.toughness = int(p[0]), int(p[1])


def _mod_pt(c: Chars, p: Any, v: Any) -> None:
    if c.power is not None and c.toughness is not None:
        c.power += int(p[0])
        c.toughness += int(p[1])


def _grant(c: Chars, p: Any, v: Any) -> None:
    for a in p:
        if a not in c.abilities:
            c.abilities.append(a)


def _lose(c: Chars, p: Any, v: Any) -> None:
    c.abilities = [a for a in c.abilities if a not in p]


def _lose_all_abilities(c: Chars, p: Any, v: Any) -> None:
    c.abilities = []
    c.pt_cda = False


def _all_creature_types(c: Chars, p: Any, v: Any) -> None:
    c.all_ctypes = True


def _lose_creature_types(c: Chars, p: Any, v: Any) -> None:
    c.all_ctypes = False
    c.ctypes = []


def _set_creature_types(c: Chars, p: Any, v: Any) -> None:
    c.all_ctypes = False
    c.ctypes = list(p)


def _add_creature_types(c: Chars, p: Any, v: Any) -> None:
    for t in p:
        if t not in c.ctypes:
            c.ctypes.append(t)


def _types_of(p: Any) -> list[str]:
    return list(p["types"]) if isinstance(p, dict) else list(p)


def _add_subtypes(c: Chars, p: Any, v: Any) -> None:
    """Add subtypes of any set ("is an Island in addition to its other types")."""
    for t in _types_of(p):
        if is_creature_type(t):
            _add_creature_types(c, [t], v)
        elif t not in c.subtypes:
            c.subtypes.append(t)


def _set_subtypes(c: Chars, p: Any, v: Any) -> None:
    """Replace one set of subtypes (``{"set": "Land", "types": ["Island"]}``) and no other.

    Setting basic land types also removes the land's rules-text abilities
    (CR 305.7); its new mana abilities come from the basic land types.
    """
    which = p["set"]
    new = list(p["types"])
    if which == "Creature":
        _set_creature_types(c, new, v)
        return
    c.subtypes = [t for t in c.subtypes if subtype_set(t) != which] + new
    if which == "Land" and any(t in ("Plains", "Island", "Swamp", "Mountain", "Forest")
                               for t in new):
        c.abilities = []


def _add_types(c: Chars, p: Any, v: Any) -> None:
    for t in p:
        if t not in c.types:
            c.types.append(t)


def _remove_types(c: Chars, p: Any, v: Any) -> None:
    c.types = [t for t in c.types if t not in p]


def _set_types(c: Chars, p: Any, v: Any) -> None:
    c.types = list(p)


def _set_colors(c: Chars, p: Any, v: Any) -> None:
    c.colors = list(p)


def _control(c: Chars, p: Any, v: Any) -> None:
    c.controller = int(p)


def _switch_pt(c: Chars, p: Any, v: Any) -> None:
    c.power, c.toughness = c.toughness, c.power


APPLIERS: dict[str, tuple[Layer, Callable[[Chars, Any, Any], None]]] = {
    "copy": ("1", _copy),
    "control": ("2", _control),
    "add_all_creature_types": ("4", _all_creature_types),
    "lose_all_creature_types": ("4", _lose_creature_types),
    "set_creature_types": ("4", _set_creature_types),
    "add_creature_types": ("4", _add_creature_types),
    "add_subtypes": ("4", _add_subtypes),
    "set_subtypes": ("4", _set_subtypes),
    "add_types": ("4", _add_types),
    "remove_types": ("4", _remove_types),
    "set_types": ("4", _set_types),
    "set_colors": ("5", _set_colors),
    "grant": ("6", _grant),
    "lose": ("6", _lose),
    "lose_all_abilities": ("6", _lose_all_abilities),
    "set_pt": ("7b", _set_pt),
    "pt": ("7c", _mod_pt),
    "switch_pt": ("7d", _switch_pt),
}


def register_effect_kind(kind: str, layer: Layer,
                         fn: Callable[[Chars, Any, Any], None]) -> None:
    """Let a plugin add a kind of continuous effect (its layer and how it applies);
    ``ValueError`` for a layer that is not one of :data:`~mtgk.rules.names.LAYERS`."""
    APPLIERS[kind] = (layer_named(layer, f"register_effect_kind({kind!r})"), fn)


class View:
    """Read access to a state and its characteristics, used by filters and statics."""

    def __init__(self, state: State, reg: Registry, chars: dict[int, Chars],
                 others: dict[int, Chars] | None = None) -> None:
        self.state = state
        self.reg = reg
        self._chars = chars
        self._others = others  # (compute_with_reads(only=): the permanents left as they are)
        self.some: list[int] | None = None  # (what statics of scope "each" are asked about)
        self.x = 0  # the X of the spell or ability whose targets are being chosen

    def chars(self, oid: int) -> Chars:
        c = self._chars.get(oid)
        if c is None:
            if self._others is not None and oid in self._others:
                return self._others[oid]
            c = printed(self.reg, self.state.objects[oid])
            self._chars[oid] = c
        return c

    def obj(self, oid: int) -> Obj:
        return self.state.objects[oid]


# --------------------------------------------------------------------------
# computing characteristics

Out = tuple[str, str, list[int], Any]  # (layer, kind, objects, params) from a static ability


class _Entry:
    """One effect to apply in the current layer.

    ``static`` is the index of a static ability that has not started to
    apply yet (its objects and values are determined when it starts);
    otherwise ``kind``/``objs``/``params`` are fixed.
    """

    __slots__ = ("ts", "kind", "objs", "params", "static", "outs")

    def __init__(self, ts: int, kind: str = "", objs: Any = (), params: Any = None,
                 static: int = -1, outs: list[Out] | None = None) -> None:
        self.ts = ts
        self.kind = kind
        self.objs = objs
        self.params = params
        self.static = static
        self.outs = outs or []


def _apply(kind: str, objs: Any, params: Any, chars: dict[int, Chars], view: View) -> None:
    fn = APPLIERS[kind][1]
    cond = params.get("while_counter") if isinstance(params, dict) else None
    for oid in objs:
        c = chars.get(oid)
        if c is None:
            continue
        if cond and not view.state.objects[oid].counters.get(cond):
            continue
        if c.shared:  # (an applier may change its lists in place)
            c.unshare()
        fn(c, params, view)


def _parts(outs: list[Out], layer: str) -> list[tuple[str, list[int], Any]]:
    return [(k, list(o), p) for lay, k, o, p in outs if lay == layer]


class _Layers:
    """One computation of every permanent's characteristics."""

    def __init__(self, state: State, reg: Registry, check_layers: bool = False,
                 only: list[int] | None = None, others: dict[int, Chars] | None = None) -> None:
        self.state = state
        self.reg = reg
        #: validated mode: a static ability's effect in a layer it doesn't declare fails
        self.check_layers = check_layers
        #: whether to take the shortcuts that rest on what static abilities declare:
        #: ``Static.together`` (several sources asked at once) and ``reads`` (effects made
        #: before a layer's others applied kept, if it reads nothing they change) -- not in
        #: validated mode's full computation, which asks each source alone and afresh
        self.shortcuts = not check_layers
        self.others = others  # (:func:`compute_some`)
        objs = state.objects
        templates: dict[str, Chars] = reg.derived.get("printed") or {}
        chars: dict[int, Chars] = {}
        for oid in state.battlefield if only is None else only:  # (:func:`printed`, inlined)
            o = objs[oid]
            t = None if o.face_down or o.flags else templates.get(o.card)
            if t is None:
                chars[oid] = printed(reg, o)
            else:
                c = chars[oid] = t.shared_copy()
                c.controller = o.controller
                c.oid = oid
        self.chars = chars
        self.view = View(state, reg, self.chars, others)
        self.each_view = self.view if only is None else View(state, reg, self.chars, others)
        self.each_view.some = only  # (statics of scope "each" are asked about ``only`` alone)
        self.resolved: dict[str, list[_Entry]] = {}
        for e in state.effects:
            entry = APPLIERS.get(e.kind)
            if entry is not None:
                self.resolved.setdefault(entry[0], []).append(
                    _Entry(e.timestamp, e.kind, e.objs, e.params))
        self.statics: list[tuple[int, int, str, Any]] = []
        self.locked: dict[int, list[Out]] = {}  # static index -> its effects (CR 613.6)
        self.reads: set[str] = set()  # what the statics and CDAs look at (declared)
        self.reads_unknown = False  # some static or CDA didn't say

    def _gather_statics(self) -> None:
        """The static abilities of the permanents, from the definitions they have after
        layer 1 (a copy has the copied card's static abilities, not its own)."""
        objs = self.state.objects
        for oid in self.state.battlefield:
            o = objs[oid]
            d = self.reg.cards.get(self.view.chars(oid).card)
            if d is None or o.face_down:
                continue
            for key, st in d.statics:
                self.statics.append((o.timestamp, oid, key, st))
                if st.reads is None:
                    self.reads_unknown = True
                else:
                    self.reads |= st.reads

    def _has(self, chars: dict[int, Chars], i: int) -> bool:
        _ts, oid, key, _st = self.statics[i]
        c = chars.get(oid)
        if c is None and self.others is not None:
            c = self.others.get(oid)
        return c is not None and key in c.abilities

    def run(self) -> dict[int, Chars]:
        objs = self.state.objects
        chars = self.chars
        by_layer: dict[str, list[int]] = {}  # the statics that may apply in each layer
        for layer in LAYER_ORDER:
            batch = list(self.resolved.get(layer, ()))
            if layer == "1":  # copy effects: resolved spells and abilities only
                if batch:
                    self._layer(layer, batch)
                self._gather_statics()
                for i, (_ts, _oid, _key, st) in enumerate(self.statics):
                    for lay in st.layers or LAYER_ORDER[1:]:
                        by_layer.setdefault(lay, []).append(i)
                continue
            here = by_layer.get(layer, [])
            if self.locked:  # (a static that began to apply goes on to its later layers)
                here = sorted(set(here).union(self.locked))
            together = self._together(here, batch) if layer == "7c" and self.shortcuts \
                else None
            if together is not None:
                batch.extend(together)
            for i in here if together is None else ():
                ts, oid, _key, st = self.statics[i]
                outs = self.locked.get(i)
                if outs is not None:
                    batch.extend(_Entry(ts, k, o, p) for k, o, p in _parts(outs, layer))
                elif self._has(chars, i) and (not st.layers or layer in st.layers):
                    try:
                        fresh = st.effects(self.each_view if st.scope == "each"
                                           else self.view, oid)
                    except Exception as exc:
                        self._failed(exc, i)
                    if self.check_layers and st.layers:
                        self._check_declared(fresh, i)
                    if _parts(fresh, layer):
                        batch.append(_Entry(ts, static=i, outs=fresh))
            if layer == "7a":
                for oid, c in list(chars.items()):  # CDAs first (CR 613.3); they may look
                    # at other zones, whose objects the view then adds to ``chars``
                    fn = self.reg.dynamic_pt.get(c.card)
                    if fn is not None:
                        cda_reads = self.reg.dynamic_pt_reads.get(c.card)
                        if cda_reads is None:
                            self.reads_unknown = True
                        else:
                            self.reads |= cda_reads
                    if fn is not None and c.power is not None and c.pt_cda:
                        try:
                            c.power, c.toughness = fn(self.view, oid)
                        except Exception as exc:
                            blame(exc, self.reg, c.card, None, "power and toughness")
            if batch:
                self._layer(layer, batch)
            if layer == "4":
                for c in chars.values():
                    if not c.shared:  # (printed characteristics are consistent already)
                        _correlate_subtypes(c)
            elif layer == "7c":
                for oid, c in chars.items():
                    cnt = objs[oid].counters
                    if cnt and c.power is not None and c.toughness is not None:
                        n = cnt.get("+1/+1", 0) - cnt.get("-1/-1", 0)
                        c.power += n
                        c.toughness += n
        for oid, c in chars.items():
            if "Planeswalker" in c.types:
                c.loyalty = objs[oid].counters.get("loyalty", 0)
            if "Creature" not in c.types:
                c.power = c.toughness = None
        return chars

    def _together(self, here: list[int], resolved: list[_Entry]) -> list[_Entry] | None:
        """The entries of layer 7c's static abilities ``here``, those of one ability and
        one controller as one (``Static.together``: a lord's filter asked once per object
        for all its sources), if every effect of the layer is a P/T change (``pt``) and no
        static ability applying in it reads P/T: then they add up in any order, and each
        static ability's effects are the same whenever it starts to apply (CR 613.6),
        which is what applying them one by one in timestamp order (CR 613.7) gives; else
        ``None`` (they are applied one by one).  (``resolved``: the layer's effects of
        resolved spells and abilities.)"""
        if any(b.kind != "pt" for b in resolved):
            return None
        out: list[_Entry] = []
        groups: dict[tuple[int, int], list[int]] = {}
        chars = self.chars
        for i in here:
            ts, oid, _key, st = self.statics[i]
            outs = self.locked.get(i)
            if outs is not None:
                for k, o, p in _parts(outs, "7c"):
                    if k != "pt":
                        return None
                    out.append(_Entry(ts, k, o, p))
            elif self._has(chars, i) and (not st.layers or "7c" in st.layers):
                if st.reads is None or "pt" in st.reads:
                    return None
                if st.together is not None and st.layers == ("7c",):
                    groups.setdefault((id(st), self.view.chars(oid).controller), []).append(i)
                    continue
                try:
                    fresh = st.effects(self.each_view if st.scope == "each" else self.view, oid)
                except Exception as exc:
                    self._failed(exc, i)
                parts = _parts(fresh, "7c")
                if any(k != "pt" for k, _o, _p in parts):
                    return None
                if parts:
                    out.append(_Entry(ts, static=i, outs=fresh))
        for idx in groups.values():
            first = self.statics[idx[0]]
            st = first[3]
            assert st.together is not None
            try:
                fresh = st.together(self.each_view if st.scope == "each" else self.view,
                                    [self.statics[i][1] for i in idx])
            except Exception as exc:
                self._failed(exc, idx[0])
            for lay, k, o, p in fresh:
                if lay != "7c" or k != "pt":
                    self._failed(ValueError(
                        f"its effects together include {k!r} in layer {lay}: "
                        "Static.together gives P/T changes (pt) in layer 7c alone"), idx[0])
                if o:
                    out.append(_Entry(first[0], k, o, p))
        return out

    # one layer ------------------------------------------------------------
    def _layer(self, layer: str, batch: list[_Entry]) -> None:
        if self.others is not None and (layer < "6" or layer == "6" and any(
                k != "grant" for b in batch for k, _o, _p in
                ([(b.kind, (), None)] if b.static < 0 else _parts(b.outs, layer)))):
            raise NotForSome(layer)  # (for some objects: layers 6 (grants) and 7 only)
        batch.sort(key=lambda b: b.ts)
        fresh = [b for b in batch if b.static >= 0]
        # Dependencies (CR 613.8) are looked for where an effect can change what another
        # applies to -- types and abilities (layers 2-6); power/toughness effects apply in
        # timestamp order.
        deps: dict[int, list[_Entry]] = {}
        if fresh and len(batch) > 1 and not layer.startswith("7"):
            changes = LAYER_CHANGES.get(layer, ALL_CHANGES)
            grants = layer != "6" or all(k == "grant" for b in batch for k, _o, _p in (
                [(b.kind, (), None)] if b.static < 0 else _parts(b.outs, layer)))
            for a in fresh:
                reads = self.statics[a.static][3].reads
                if grants and reads is not None and reads.isdisjoint(changes):
                    continue  # (it depends on none of them: see _depends)
                found = [b for b in batch if b is not a and self._depends(layer, a, b)]
                if found:
                    deps[id(a)] = found
        if not deps:
            for n, b in enumerate(batch):
                self._apply_entry(layer, b, reuse=n == 0)
            return
        left = list(batch)
        while left:
            ready = [b for b in left if not any(d in left for d in deps.get(id(b), ()))]
            b = (ready or left)[0]  # a dependency loop: timestamp order (CR 613.8b)
            first = len(left) == len(batch)
            left.remove(b)
            self._apply_entry(layer, b, reuse=first)

    def _apply_entry(self, layer: str, b: _Entry, reuse: bool = False) -> None:
        if b.static < 0:
            _apply(b.kind, b.objs, b.params, self.chars, self.view)
            return
        # a static ability starts to apply: only if it still exists, with the objects
        # and values it has now (CR 613.6); they are kept for the later layers
        if not self._has(self.chars, b.static):
            return
        _ts, oid, _key, st = self.statics[b.static]
        if self.shortcuts and st.reads is not None:  # (not validated mode's full computation)
            reuse = reuse or st.reads.isdisjoint(LAYER_CHANGES.get(layer, ALL_CHANGES))
        try:  # (``reuse``: nothing it reads applied since)
            outs = b.outs if reuse else st.effects(
                self.each_view if st.scope == "each" else self.view, oid)
        except Exception as exc:
            self._failed(exc, b.static)
        if not _parts(outs, layer):
            return
        self.locked[b.static] = outs
        for k, o, p in _parts(outs, layer):
            _apply(k, o, p, self.chars, self.view)

    def _depends(self, layer: str, a: _Entry, b: _Entry) -> bool:
        """Would applying ``b`` first change whether ``a`` exists, what it applies to or what
        it does (CR 613.8a)?  Tried on copies of the objects ``b`` touches -- unless ``a``
        declares that it reads none of what this layer changes (``Static.reads``) and
        ``b`` only adds abilities or doesn't touch ``a``'s source."""
        parts_b = [(b.kind, list(b.objs), b.params)] if b.static < 0 else _parts(b.outs, layer)
        _ts, src, _key, st = self.statics[a.static]
        reads = st.reads
        blind = reads is not None and not reads & LAYER_CHANGES.get(layer, ALL_CHANGES)
        if blind and (layer != "6" or all(k == "grant" for k, _o, _p in parts_b)):
            return False
        touched = {o for _k, objs, _p in parts_b for o in objs if o in self.chars}
        if not touched or blind and src not in touched:
            return False
        trial = dict(self.chars)
        for o in touched:
            trial[o] = self.chars[o].copy()
        tv = View(self.state, self.reg, trial)
        for k, objs, p in parts_b:
            _apply(k, objs, p, trial, tv)
        if not self._has(trial, a.static):
            return True
        _ts, oid, _key, st = self.statics[a.static]
        try:
            return bool(_parts(st.effects(tv, oid), layer) != _parts(a.outs, layer))
        except Exception as exc:
            self._failed(exc, a.static)

    def _check_declared(self, outs: list[Out], static: int) -> None:
        """Validated mode: every effect of a static ability that declares ``layers`` is in
        one of them (an effect in another layer would be silently left out)."""
        st = self.statics[static][3]
        for lay, kind, _objs, _params in outs:
            if lay not in st.layers:
                self._failed(ValueError(
                    f"it gives an effect {kind!r} in layer {lay}, outside the layers it "
                    f"declares ({', '.join(st.layers)}): effects in an undeclared layer before the "
                    "first declared one are left out"), static)

    def _failed(self, error: Exception, static: int) -> NoReturn:
        """A static ability's code raised ``error`` (see :class:`mtgk.rules.effects.CardError`)."""
        _ts, _oid, key, _st = self.statics[static]
        blame(error, self.reg, key.rpartition("#")[0], key, "continuous effect")


_subtype_set = cache(subtype_set)  # the subtype lists are fixed data


def _correlate_subtypes(c: Chars) -> None:
    """Subtypes whose card type the object no longer has are gone (while it lacks it)."""
    if not c.has_creature_types:
        c.ctypes = []
        c.all_ctypes = False
    if c.subtypes:
        keep = []
        for t in c.subtypes:
            owners = SUBTYPE_OWNERS.get(_subtype_set(t))
            if owners is None or any(x in c.types for x in owners):
                keep.append(t)
        c.subtypes = keep


def has_copy_effects(state: State) -> bool:
    """Whether any effect of layer 1 exists (else every object behaves as its own card)."""
    return any(APPLIERS.get(e.kind, ("",))[0] == "1" for e in state.effects)


def copiable_name(chars: Chars) -> str:
    """The card whose printed characteristics are ``chars``' copiable values (CR 707.2:
    as modified by copy effects only): what "becomes a copy of" it copies."""
    return chars.card


def compute(state: State, reg: Registry, check_layers: bool = False) -> dict[int, Chars]:
    """Characteristics of every object on the battlefield, after all layers.

    Objects in other zones get their printed characteristics lazily (through
    :class:`View`); continuous effects only touch permanents here.  ``check_layers``
    (validated mode): a static ability that gives an effect outside the layers it
    declares fails, naming its card (:class:`mtgk.rules.effects.CardError`).
    """
    return _Layers(state, reg, check_layers).run()


def undeclared_readers(state: State, reg: Registry, oid: int,
                       changed: frozenset[str] | None) -> list[str]:
    """The abilities that may have read what they don't declare, for characteristics of
    ``oid`` found stale after an event that changed ``changed``: the static abilities on
    the battlefield whose effects touch ``oid`` and whose ``reads`` leave out all of
    ``changed``, and ``oid``'s characteristic-defining ability likewise, each as
    ``"CARD's static ability #i 'text' (reads: ...)"`` (validated mode's report)."""
    layers = _Layers(state, reg)
    chars = layers.run()
    out: list[str] = []
    if changed is None:
        return out
    for _ts, src, key, st in layers.statics:
        if st.reads is None or st.reads & changed:
            continue
        try:
            touched = any(oid in objs for _lay, _k, objs, _p in st.effects(layers.view, src))
        except Exception:  # noqa: BLE001 - a suspect list, never an error of its own
            touched = False
        if touched:
            card, _, idx = key.rpartition("#")
            text = f" {st.text!r}" if st.text else ""
            out.append(f"{card}'s static ability #{idx}{text} (reads: "
                       f"{', '.join(sorted(st.reads)) or 'nothing'})")
    c = chars.get(oid)
    if c is not None and c.card in reg.dynamic_pt:
        reads = reg.dynamic_pt_reads.get(c.card)
        if reads is not None and not reads & changed:
            out.append(f"{c.card}'s power/toughness-defining ability (pt_reads: "
                       f"{', '.join(sorted(reads)) or 'nothing'})")
    return out


class NotForSome(Exception):
    """:func:`compute_with_reads` of some objects met an effect of layers 1-5 (6: but a grant)."""


def compute_with_reads(state: State, reg: Registry, only: list[int] | None = None,
                       others: dict[int, Chars] | None = None
                       ) -> tuple[dict[int, Chars], frozenset[str] | None]:
    """:func:`compute`, and the parts of the state outside the permanents that the result
    depends on (``mtgk.log.events.STATE_PARTS`` the static abilities and characteristic-
    defining abilities on the battlefield declare they read), ``None`` if some static
    ability didn't declare it (it may look at anything).  Or for permanents ``only``, the
    others' being ``others`` (:mod:`mtgk.rules.incremental` says when that is sound)."""
    layers = _Layers(state, reg, only=only, others=others)
    chars = layers.run()
    return chars, None if layers.reads_unknown else frozenset(layers.reads)

