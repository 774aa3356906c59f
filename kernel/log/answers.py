"""What a player does with priority, as typed values: :data:`Action`.

Each priority action is a tagged msgspec Struct -- :class:`Pass`, :class:`PlayLand`,
:class:`Cast`, :class:`Activate` -- whose encoding is the list older kernels wrote and
read (``array_like``, the tag first): ``Cast(90)`` is ``["cast", 90, [], [], 0, ""]`` in
a log, byte for byte, so every log keeps its bytes and every old log reads as typed
values (``DecisionMade`` turns a priority choice written as a list into its action as
it is decoded: :func:`action_from`).

>>> Cast(90, targets=(-2,))
Cast(card=90, targets=(-2,), modes=(), x=0, alt='')
>>> import msgspec
>>> msgspec.json.encode(Cast(90, targets=(-2,)))
b'["cast",90,[-2],[],0,""]'
>>> action_from(["activate", 5, 1, [7], 0])
Activate(source=5, ability=1, targets=(7,), x=0)
>>> action_from(["pass"]) == PASS
True

An action still reads as that list (``action[0]`` is its tag, ``action[1]`` its card),
for code written against the lists; new code matches on the type.

A combat declaration is a list of typed pairs -- :class:`Attack`, :class:`Block`,
:class:`Assign` -- each encoded as the two-number list older kernels wrote
(``Attack(7, -2)`` is ``[7,-2]``); the decision's kind says which (``DecisionMade``
turns an ``attackers``, ``blockers`` or ``assign`` choice read as lists into them:
:func:`answer_from`).  A pair unpacks as the list did (``for a, t in attacks``).

>>> msgspec.json.encode([Attack(7, -2), Attack(8, 41)])
b'[[7,-2],[8,41]]'
>>> answer_from("blockers", [[12, 7]])
[Block(blocker=12, attacker=7)]
>>> attacker, target = Attack(7, -2)
>>> target
-2

The other answers are plain values, their kind naming them: ``mulligan`` and ``may``
a bool, ``targets``, ``modes`` and ``order`` lists of numbers, ``choose`` one of the
options the decision listed.
"""

from __future__ import annotations

from typing import Any

import msgspec

__all__ = ["PASS", "Action", "Activate", "Assign", "Attack", "Block", "Cast", "Pass", "PlayLand",
           "action_from", "answer_from"]


class _Action(msgspec.Struct, frozen=True, array_like=True, tag_field="kind"):
    """A priority action (its encoding: ``[tag, *fields]``)."""

    def __getitem__(self, i: Any) -> Any:  # (the list it was)
        if i == 0:
            return self.__struct_config__.tag
        if type(i) is int and 0 < i <= len(self.__struct_fields__):
            return getattr(self, self.__struct_fields__[i - 1])
        return [self.__struct_config__.tag, *msgspec.structs.astuple(self)][i]

    def __len__(self) -> int:
        return 1 + len(self.__struct_fields__)


class Pass(_Action, frozen=True, tag="pass"):
    """Pass priority (CR 117.3d)."""


class PlayLand(_Action, frozen=True, tag="play"):
    """Play the land ``card`` (CR 305)."""

    card: int


class Cast(_Action, frozen=True, tag="cast"):
    """Cast the spell ``card`` (CR 601): its ``targets`` (object ids; players as
    negative references), ``modes`` (numbered from 1), ``x``, and ``alt``, the
    alternative cost or face it is cast with (``""``: its mana cost)."""

    card: int
    targets: tuple[int, ...] = ()
    modes: tuple[int, ...] = ()
    x: int = 0
    alt: str = ""


class Activate(_Action, frozen=True, tag="activate"):
    """Activate ability number ``ability`` of ``source`` (CR 602; a negative number:
    an intrinsic mana ability of a land, CR 305.6), with its ``targets`` and ``x``."""

    source: int
    ability: int
    targets: tuple[int, ...] = ()
    x: int = 0


Action = Pass | PlayLand | Cast | Activate
"""A priority action."""

PASS = Pass()
"""Passing priority (one value: ``action is PASS`` or ``type(action) is Pass``)."""

_TYPES: dict[str, type[_Action]] = {"pass": Pass, "play": PlayLand, "cast": Cast,
                                    "activate": Activate}


def _ints(x: Any) -> tuple[int, ...]:
    if not isinstance(x, list | tuple):
        raise ValueError(f"not a list of numbers: {x!r}")
    return tuple(int(i) for i in x)


def action_from(value: Any) -> Any:
    """The :data:`Action` a list names (``["cast", 90, [], [], 0, ""]``; trailing parts
    may be left out); an action is itself.  Raises :class:`ValueError` for a value that
    names none."""
    if isinstance(value, _Action):
        return value
    if not isinstance(value, list | tuple) or not value or value[0] not in _TYPES:
        raise ValueError(f"not an action: {value!r}")
    kind, rest = value[0], list(value[1:])
    try:
        if kind == "pass":
            return PASS
        if kind == "play":
            return PlayLand(int(rest[0]))
        if kind == "cast":
            card, targets, modes, x, alt = (rest + [[], [], 0, ""][len(rest) - 1:])[:5]
            if not isinstance(alt, str):
                raise ValueError(f"not an alternative cost: {alt!r}")
            return Cast(int(card), _ints(targets), _ints(modes), int(x), alt)
        source, ability, targets, x = (rest + [0, [], 0][len(rest) - 1:])[:4]
        return Activate(int(source), int(ability), _ints(targets), int(x))
    except (IndexError, TypeError) as exc:
        raise ValueError(f"not an action: {value!r}") from exc


# --------------------------------------------------------------------------
# Combat declarations

class Pair(msgspec.Struct, frozen=True, array_like=True):
    """Two numbers of a declaration, encoded as the list ``[first, second]``; it unpacks
    and indexes as that list did."""

    def __iter__(self) -> Any:
        return iter(msgspec.structs.astuple(self))

    def __getitem__(self, i: Any) -> Any:
        return msgspec.structs.astuple(self)[i]

    def __len__(self) -> int:
        return 2


class Attack(Pair, frozen=True):
    """``attacker`` attacks ``target``: a player (a negative reference) or a planeswalker
    (CR 508.1b)."""

    attacker: int
    target: int


class Block(Pair, frozen=True):
    """``blocker`` blocks ``attacker`` (CR 509.1a)."""

    blocker: int
    attacker: int


class Assign(Pair, frozen=True):
    """``amount`` of an attacker's combat damage is assigned to ``recipient``: a blocker,
    or with trample the player or planeswalker it attacks (CR 510.1)."""

    recipient: int
    amount: int


PAIRS: dict[str, type[Pair]] = {"attackers": Attack, "blockers": Block, "assign": Assign}
"""The pair type of each declaration's kind."""


def answer_from(kind: str, value: Any) -> Any:
    """The typed answer of a ``kind`` decision that ``value`` names: an :data:`Action`
    for ``priority``, a list of :class:`Attack`, :class:`Block` or :class:`Assign` for
    ``attackers``, ``blockers``, ``assign``; any other kind's answer is ``value`` itself.
    Raises :class:`ValueError` for a value that names none."""
    if kind == "priority":
        return action_from(value)
    pair = PAIRS.get(kind)
    if pair is None:
        return value
    if not isinstance(value, list | tuple):
        raise ValueError(f"not a list of pairs: {value!r}")
    out = []
    for p in value:
        if type(p) is pair:
            out.append(p)
            continue
        if not isinstance(p, list | tuple | Pair) or len(p) != 2:
            raise ValueError(f"not a pair of numbers: {p!r}")
        a, b = p
        if type(a) is bool or type(b) is bool:
            raise ValueError(f"not a pair of numbers: {p!r}")
        try:
            out.append(pair(int(a), int(b)))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"not a pair of numbers: {p!r}") from exc
    return out
