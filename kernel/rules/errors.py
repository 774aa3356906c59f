"""Errors in a card's code: :class:`CardError` names the card, its set and the part of it
that failed (an effect, a trigger's condition, a static ability, a cost ...).

The engine, the layers and the effect context raise them through :func:`blame`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from mtgk.rules.definitions import Activated, SpellAbility, Static, Triggered

if TYPE_CHECKING:
    from mtgk.rules.definitions import Registry


class CardError(Exception):
    """An exception raised in a card's code -- an effect, a trigger's condition, a static
    ability, a cost, a filter the card defines -- as the engine called it.

    ``str()`` is the one line to show (``card "Foo" (set example) failed in its triggered
    ability #0 'etb' (trigger condition): KeyError: 'grnat'``); the original exception is
    ``__cause__`` (and ``error``), with its traceback.  ``card``, ``set_name`` and
    ``part`` say where it happened.
    """

    def __init__(self, card: str, set_name: str, part: str, error: BaseException) -> None:
        self.card = card
        self.set_name = set_name
        self.part = part
        self.error = error
        super().__init__(f'card "{card}" (set {set_name or "unknown"}) failed in {part}: '
                         f"{type(error).__name__}: {error}")


def _kind(ability: Any) -> str:
    """What kind of ability ``ability`` is, in words."""
    if isinstance(ability, SpellAbility):
        return "spell ability"
    if isinstance(ability, Activated):
        return "mana ability" if ability.mana else "activated ability"
    if isinstance(ability, Triggered):
        return "triggered ability"
    if isinstance(ability, Static):
        return "static ability"
    if hasattr(ability, "apply") and hasattr(ability, "event"):
        return "replacement effect"
    return "ability"


def describe_ability(reg: Registry, card: str, ability: Any) -> str:
    """How a CardError names an ability of ``card`` (an ability object of the card or its
    key, ``"Foo#2"``): ``its triggered ability #2 'etb'``; ``""`` if it is none of them."""
    d = reg.cards.get(card)
    if d is None:
        return ""
    if isinstance(ability, str):
        name, _, idx = ability.rpartition("#")
        ok = name == card and idx.isdigit() and int(idx) < len(d.abilities)
        ability = d.abilities[int(idx)] if ok else None
    at = next((i for i, a in enumerate(d.abilities) if a is ability), None)
    if ability is None or at is None:
        return ""
    text = getattr(ability, "text", "")
    return f"its {_kind(ability)} #{at}" + (f" {text!r}" if text else "")


def blame(error: Exception, reg: Registry, card: str, ability: Any, part: str) -> NoReturn:
    """Raise :class:`CardError` for ``error``, raised in ``card``'s code: in ``part`` (e.g.
    ``"trigger condition"``) of ``ability`` (see :func:`describe_ability`), or, with no
    ability, in the card's ``part`` (``"additional cost"``); ``error`` is its cause.  A
    CardError (from another card the code called) is raised as it is."""
    if isinstance(error, CardError):
        raise error
    d = reg.cards.get(card)
    where = describe_ability(reg, card, ability)
    raise CardError(card, d.set_code if d is not None else "",
                    f"{where} ({part})" if where else f"its {part}", error) from error
