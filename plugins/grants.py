"""Triggered abilities one object grants another ("Enchanted permanent has 'At the
beginning of your end step, ...'", "It has 'When this creature becomes the target of a
spell or ability, sacrifice it.'").

The ability is listed on the granting card (:func:`granted`: it never works for that
card's own object) and the card is defined with ``grantable=True``, so that a
permanent granted the ability's key (``"Card Name#i"``) in layer 6 has it (see
:attr:`mtgk.cards.definitions.Registry.grantable`).

* :data:`GRANT_WHILE_COUNTER` -- an effect kind: "for as long as it has a [kind] counter
  on it, it has [abilities]": ``c.forever(GRANT_WHILE_COUNTER, [obj], {"abilities":
  [...], "while_counter": "mannequin"})``.
* :func:`becomes_target` -- "When this [permanent] becomes the target of a spell or
  ability, ...".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import Effect, Triggered
from mtgk.log import events as ev
from mtgk.rules.layers import register_effect_kind

if TYPE_CHECKING:
    from mtgk.rules.chars import Chars
    from mtgk.rules.layers import View

GRANT_WHILE_COUNTER = "grant_while_counter"


def _grant_while_counter(c: Chars, p: Any, v: Any) -> None:
    for a in p["abilities"]:  # the kernel checks ``while_counter`` before applying
        if a not in c.abilities:
            c.abilities.append(a)


register_effect_kind(GRANT_WHILE_COUNTER, "6", _grant_while_counter)


def granted(owner: str, t: Triggered) -> Triggered:
    """A triggered ability card ``owner`` grants to other objects (not its own)."""
    when = t.when
    return Triggered(t.on, lambda v, src, e: v.obj(src).card != owner and when(v, src, e),
                     t.effect, t.targets, t.zones, t.look_back, t.intervening_if, t.text)


BECOMES_TARGET_ON = (ev.SpellCast.TAG, ev.AbilityActivated.TAG, ev.TriggerPutOnStack.TAG)


def _targets_of(e: Any) -> tuple[int, ...]:
    return tuple(getattr(e, "targets", ()) or ())


def becomes_target(effect: Effect, text: str = "becomes the target") -> Triggered:
    """"When this permanent becomes the target of a spell or ability, [effect]"."""
    def when(v: View, src: int, e: Any) -> bool:
        return src in _targets_of(e)
    return Triggered(BECOMES_TARGET_ON, when, effect, text=text)
