"""What the order cards are defined in decides, for the Lorwyn card files.

A set's cards go into the registry in the order they are defined (``CardSet.defs``), and
Lorwyn's modules are imported in ``cardsets/lorwyn/__init__.py``'s order.  The registry
is order-sensitive in these places only:

* ``Registry.trigger_plan``: for each event, the zones scanned for triggered abilities
  (in the order the registered triggers first name them) and the granted triggered
  abilities (in registration order: the order those granted to one permanent trigger);
* ``mtgk.scenario.board.card_key``: a name printed on two cards or tokens means the one
  registered first;
* ``Registry.cast_hooks``: in the order the first card needing each was registered.

The tests pin what Lorwyn's order decides there -- Nettlevine Blight's granted trigger
before Heat Shimmer's (granted_abilities.py) -- and check that any other order of the
cards the subject modules define gives the same, so that moving a card from one
module to another, or importing the modules in another order, changes no game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import mtgk.cardsets.lorwyn  # noqa: F401  (defines the cards)
from mtgk.cards.definitions import Registry
from mtgk.cards.loading import load_registry
from mtgk.cardsets.lorwyn import simple
from mtgk.cardsets.lorwyn.cards import S
from mtgk.scenario.board import printed_name

BLIGHT, SHIMMER = "Nettlevine Blight#1", "Heat Shimmer#1"


def order_facts(reg: Registry) -> list[str]:
    """Everything the registry's order decides (see the module's docstring)."""
    out = []
    for tag in sorted(reg.trigger_index):
        for before in (True, False):
            plan = reg.trigger_plan(tag, before)
            out.append(f"{tag} look_back={before}: zones {[z for z, _b, _g in plan]}, "
                       f"granted {[(z, [k for k, _t in g]) for z, _b, g in plan if g]}")
    named: dict[str, list[str]] = {}
    for key in reg.cards:
        named.setdefault(printed_name(reg, key), []).append(key)
    out += [f"printed {n!r}: {keys}" for n, keys in sorted(named.items()) if len(keys) > 1]
    out.append(f"cast hooks {[h.__qualname__ for h in reg.cast_hooks]}")
    return out


@contextmanager
def lorwyn_defined_in(order: list[str]) -> Iterator[None]:
    """Lorwyn's definitions in ``order`` while the block runs."""
    saved = dict(S.defs)
    assert sorted(order) == sorted(saved)
    S.defs.clear()
    S.defs.update((n, saved[n]) for n in order)
    try:
        yield
    finally:
        S.defs.clear()
        S.defs.update(saved)


def test_nettlevine_blights_granted_trigger_comes_before_heat_shimmers() -> None:
    plan = load_registry().trigger_plan("StepBegan", False)
    granted = [k for _z, _b, g in plan for k, _t in g]
    assert granted.index(BLIGHT) < granted.index(SHIMMER)


@pytest.mark.parametrize("seed", range(3))
def test_another_order_of_the_subject_modules_cards_decides_nothing_else(seed: int) -> None:
    """Shuffle the cards defined after cards.py's basics and tokens (keeping Nettlevine
    Blight before Heat Shimmer): the registry's order-sensitive parts don't change."""
    names = list(S.defs)
    cut = names.index(simple.CARDS[0])  # cards.py's come before simple.py's
    first, rest = names[:cut], names[cut:]
    random.Random(seed).shuffle(rest)
    b, s = rest.index(BLIGHT.split("#")[0]), rest.index(SHIMMER.split("#")[0])
    if b > s:
        rest[b], rest[s] = rest[s], rest[b]
    expected = order_facts(load_registry())
    with lorwyn_defined_in(first + rest):
        assert order_facts(load_registry()) == expected
