"""Events as a log stores them: the tag an event is logged under (:func:`event_tag`), and
upcasting -- events stored at an older schema version turned into the current class by
the functions registered with :func:`register_upcaster`.

Both readers (:mod:`mtgk.log.reader`, :mod:`mtgk.log.jsonl`) build an event whose stored
type or version their fast path does not take with :func:`resolve_values`; what cannot be
resolved (:class:`Unresolved`) they keep as an :class:`~mtgk.log.structs.UnknownEvent`
and report as a :class:`~mtgk.log.loaded.LogProblem`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeAlias

import msgspec

from mtgk.log.events import EVENT_TYPES, Event
from mtgk.log.structs import UnknownEvent

__all__ = ["Unresolved", "Upcaster", "event_tag", "register_upcaster", "resolve_values"]

Upcaster: TypeAlias = Callable[[list[Any]], list[Any]]


def event_tag(e: Event) -> str:
    """The tag ``e`` is logged under: its type's ``TAG``, or for an
    :class:`UnknownEvent` the original tag it was stored with.

    >>> event_tag(UnknownEvent("FutureEvent", 3, b""))
    'FutureEvent'
    """
    return e.tag if isinstance(e, UnknownEvent) else e.TAG


_UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def register_upcaster(tag: str, from_version: int, fn: Upcaster) -> Upcaster:
    """Register ``fn`` to convert ``tag`` events stored at ``from_version``.

    ``fn`` takes the record's field values (a list, in the old field order)
    and returns the field values at ``from_version + 1``.  Reading applies the
    chain of upcasters up to the event class's ``VERSION``.  Registering a
    different function for the same step raises :class:`ValueError`.
    Returns ``fn``.

    >>> def drop_second(fields: list[Any]) -> list[Any]:
    ...     return fields[:1]
    >>> _ = register_upcaster("DocExample", 1, drop_second)
    >>> _ = register_upcaster("DocExample", 1, drop_second)  # idempotent
    >>> del _UPCASTERS[("DocExample", 1)]
    """
    key = (tag, from_version)
    old = _UPCASTERS.get(key)
    if old is not None and old is not fn:
        raise ValueError(f"an upcaster for {tag!r} from version {from_version} already exists")
    _UPCASTERS[key] = fn
    return fn


def _upcast_chain(tag: str, version: int, target: int) -> list[Upcaster] | int:
    """The upcasters from ``version`` to ``target``, or the first missing step."""
    chain: list[Upcaster] = []
    for v in range(version, target):
        fn = _UPCASTERS.get((tag, v))
        if fn is None:
            return v
        chain.append(fn)
    return chain


class Unresolved(Exception):
    """An event cannot be resolved (:func:`resolve_values`): the readers keep it as an
    :class:`~mtgk.log.structs.UnknownEvent` and report a problem of ``kind``."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind


def resolve_values(tag: str, version: int, values: list[Any]) -> Event:
    """Build the current event for ``tag`` from field ``values`` stored at ``version``.

    Raises :class:`Unresolved` for unknown tags, newer versions, missing or
    failing upcasters; :class:`msgspec.ValidationError` if the (upcast) values
    do not fit the class.
    """
    cls = EVENT_TYPES.get(tag)
    if cls is None:
        raise Unresolved(f"unknown event type {tag!r} (version {version})", "unknown-event")
    if version > cls.VERSION:
        raise Unresolved(
            f"event {tag!r} is stored at version {version}, newer than this kernel's "
            f"version {cls.VERSION}",
            "unknown-event",
        )
    if version < cls.VERSION:
        chain = _upcast_chain(tag, version, cls.VERSION)
        if isinstance(chain, int):
            raise Unresolved(
                f"event {tag!r} is stored at version {version}, this kernel has version "
                f"{cls.VERSION} and no upcaster from version {chain} to {chain + 1}",
                "unknown-event",
            )
        try:
            for fn in chain:
                values = fn(list(values))
        except Exception as exc:  # an upcaster bug must not make the log unreadable
            raise Unresolved(
                f"upcasting {tag!r} from version {version} failed: {exc!r}", "upcast-failed"
            ) from exc
        try:
            return msgspec.convert(values, cls)
        except msgspec.ValidationError as exc:
            raise Unresolved(
                f"event {tag!r} upcast from version {version} does not fit version "
                f"{cls.VERSION}: {exc}",
                "upcast-failed",
            ) from exc
    return msgspec.convert(values, cls)
