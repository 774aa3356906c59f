"""The legal priority actions as a sequence that makes each option as it is asked for.

``Game.legal_actions`` (:mod:`mtgk.rules.actions`) lists pass, plays and casts, then the
options of the activated abilities a player may activate: each source x each choice of
targets x each X, hundreds on a board of creatures with "{T}: tap target creature".
:class:`Options` holds the first as a list and the others by families (one per source
and ability, :class:`Family`), and makes option k when it is asked for.

This module is not compiled (``mtgk.kind.COMPILED``): :class:`Options` is a
``collections.abc.Sequence``, and a class that mypyc compiles as a native class with an
ABC as its base shares that base's registry (``isinstance([], Options)`` would be true).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import Any, Protocol, overload


class Family(Protocol):
    """The options of one activated ability of one source
    (:class:`mtgk.rules.actions.Activations`): ``count`` of them, made by ``option(k)``."""

    @property
    def count(self) -> int: ...

    def option(self, k: int) -> Any: ...


class Options(Sequence[Any]):
    """A player's legal priority actions (``Game.legal_actions``) as a
    sequence that makes an option when it is asked for: first ``head`` (pass, playing
    lands, casting spells), then the options of each of ``families`` (activated
    abilities: sources x targets x X), each made once (the same object every time it
    is asked for).  It reads, compares and prints as the list of those options."""

    def __init__(self, head: list[Any], families: Sequence[Family]) -> None:
        self.head = head
        self.families = families
        starts: list[int] = []
        n = len(head)
        for f in families:
            starts.append(n)
            n += f.count
        self.starts = starts
        self.size = n
        self.built: dict[int, list[Any]] = {}

    def __len__(self) -> int:
        return self.size

    @overload
    def __getitem__(self, i: int) -> Any: ...

    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...

    def __getitem__(self, i: int | slice) -> Any:
        if isinstance(i, slice):
            return [self.at(k) for k in range(*i.indices(self.size))]
        if i < 0:
            i += self.size
        if not 0 <= i < self.size:
            raise IndexError("option index out of range")
        return self.at(i)

    def at(self, k: int) -> Any:
        """Option ``k`` (``0 <= k < len(self)``)."""
        head = self.head
        if k < len(head):
            return head[k]
        found = self.built.get(k)
        if found is None:
            f = bisect_right(self.starts, k) - 1
            found = self.built[k] = self.families[f].option(k - self.starts[f])
        return found

    def __iter__(self) -> Iterator[Any]:
        for k in range(self.size):
            yield self.at(k)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Options | list):
            return False
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __repr__(self) -> str:
        return repr(list(self))

    def listed(self, answer: Any) -> bool:
        """Whether ``answer`` is one of these options itself (not an equal copy): one of
        ``head`` or one made by this sequence."""
        for o in self.head:
            if o is answer:
                return True
        for o in self.built.values():
            if o is answer:
                return True
        return False
