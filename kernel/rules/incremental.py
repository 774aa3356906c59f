"""When the characteristics of a few permanents can be computed again alone (CR 613).

After an event that moves a permanent onto or off the battlefield, creates one or puts
counters on one, the engine computes the layers again for the permanents it may have
changed only, if the board lets it be sure the others' characteristics stay as they were
(:meth:`~mtgk.rules.kept.KeptFacts._some_after`); else for all of them.  It is sure when,
on the battlefield after a full computation (:func:`board_dependents`):

* every static ability declares ``Static.scope``, ``layers`` within 6, 7b, 7c and 7d and
  its ``reads``: of scope ``"each"`` (a lord: what it does to an object depends only on
  that object and its source's controller) or ``"self"`` (it affects its source alone;
  what it reads of other objects is not changed by its own layer or a later one, so the
  others' final characteristics are what it would see of them);
* a static ability with an effect in layer 6 reads no abilities, and every effect in
  layer 6 grants abilities (then no effect of layers 2-6 depends on another, CR 613.8,
  and each layer applies in timestamp order; checked as the layers are applied);
* the effects of resolved spells and abilities are of layers 6 (grants) and 7 only
  (their objects were locked in as they resolved);

and the event brings no permanent with a static ability, face down or flagged, and takes
none with a static ability away (a static's source coming or going changes what others
get).  Then what the event may have changed is the permanents it brings or changes, and
the *dependents* -- the sources of static abilities of scope ``"self"`` and the creatures
with a characteristic-defining ability of power and toughness, which may count other
permanents.  Such an ability is taken to read no other object's power and toughness (it
applies in layer 7a, before they are final); validated mode, which compares the kept
characteristics with a full computation after every event, would find one that does.
"""

from __future__ import annotations

from mtgk.rules.chars import Chars
from mtgk.rules.definitions import Registry, Static
from mtgk.rules.layers import APPLIERS
from mtgk.rules.names import LAYER_CHANGES
from mtgk.rules.state import State

SOME_LAYERS = frozenset({"6", "7b", "7c", "7d"})
"""The layers in which static abilities and resolved effects may have effects."""

_LATER_CHANGES: dict[str, frozenset[str]] = {
    layer: LAYER_CHANGES[layer] | LAYER_CHANGES["7c"] for layer in ("6", "7b", "7c", "7d")}
"""What the effects of a layer and the later ones change (groups of ``Reads``)."""


def static_allows(st: Static) -> bool:
    """Whether static ability ``st`` lets the characteristics of some permanents be
    computed alone (see the module's list)."""
    reads = st.reads
    if reads is None or not st.layers or not SOME_LAYERS.issuperset(st.layers):
        return False
    if "6" in st.layers and not reads.isdisjoint(LAYER_CHANGES["6"]):
        return False
    if st.scope == "each":
        return True
    if st.scope == "self":
        first = min(st.layers)  # ("6" < "7b" < "7c" < "7d")
        return reads.isdisjoint(_LATER_CHANGES[first])
    return False


def effect_allows(kind: str) -> bool:
    """Whether a resolved effect of ``kind`` lets some permanents be computed alone."""
    layer = APPLIERS.get(kind, ("",))[0]
    return kind == "grant" if layer == "6" else layer in ("7b", "7c", "7d")


def board_dependents(state: State, reg: Registry, chars: dict[int, Chars]) -> list[int] | None:
    """For the battlefield whose characteristics ``chars`` were just computed in full:
    the permanents an event that brings, takes or changes another one may change too
    (the sources of static abilities of scope ``"self"``, the creatures with a
    characteristic-defining ability of power and toughness), in battlefield order; or
    ``None`` if the board doesn't let the engine compute some permanents alone."""
    if not all(effect_allows(x.kind) for x in state.effects if x.kind in APPLIERS):
        return None
    objs = state.objects
    cards = reg.cards
    found: list[int] = []
    for oid in state.battlefield:
        o = objs[oid]
        if o.face_down:
            return None
        card = chars[oid].card
        d = cards.get(card)
        mine = card in reg.dynamic_pt
        if d is not None:
            for _key, st in d.statics:
                if not static_allows(st):
                    return None
                mine = mine or st.scope == "self"
        if mine:
            found.append(oid)
    return found
