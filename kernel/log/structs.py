r"""The msgspec Structs of a log file besides the events: its header and an event kept
verbatim.

Kept apart from :mod:`mtgk.log.logfile` (which re-exports them) because that module is
compiled with mypyc in a compiled kernel (docs/benchmarks.md), and a Struct defined in a
compiled module loses its precise annotations (and with them msgspec's checks) and its
``ClassVar``\ s: this module is always interpreted.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

import msgspec

from mtgk.log.events import EVENT_TYPES, UNLISTED_UNLESS_USED, Event

__all__ = ["FORMAT_VERSION", "LogHeader", "UnknownEvent"]

FORMAT_VERSION: Final = 2
"""The binary file format version this module writes (and the newest it reads)."""


def _current_event_table(multiplayer: bool = False) -> list[tuple[str, int]]:
    return sorted((tag, cls.VERSION) for tag, cls in EVENT_TYPES.items()
                  if multiplayer or tag not in UNLISTED_UNLESS_USED)


class LogHeader(msgspec.Struct, kw_only=True):
    """Everything needed to replay a game besides its events.

    ``events`` defaults to the table of all event types registered right now
    (:meth:`current_event_table`); ``format`` to :data:`FORMAT_VERSION`.

    >>> h = LogHeader(kernel_version="0.1.0", cardsets=[], players=["A", "B"],
    ...               decks=[["20 Forest"], []], seed=1)
    >>> h.format, h.profile, ("Tapped", 1) in h.events
    (2, 'lorwyn-2007', True)
    """

    format: int = FORMAT_VERSION
    kernel_version: str
    cardsets: list[tuple[str, str]]
    players: list[str]
    decks: list[list[str]] = msgspec.field(default_factory=list)
    seed: int
    profile: str = "lorwyn-2007"
    events: list[tuple[str, int]] = msgspec.field(default_factory=_current_event_table)
    meta: dict[str, Any] = msgspec.field(default_factory=dict)
    rules_revision: int | msgspec.UnsetType = msgspec.UNSET
    """The kernel's :data:`mtgk.RULES_REVISION` when the log was written; unset: not
    recorded (logs written before 2026-12-02).  Unset, it is not stored at all, so that
    an old header written out again keeps its bytes."""

    @staticmethod
    def current_event_table(multiplayer: bool = False) -> list[tuple[str, int]]:
        """``(tag, VERSION)`` for every registered event type, sorted by tag; the types of
        multiplayer games (:data:`~mtgk.log.events.UNLISTED_UNLESS_USED`) only with
        ``multiplayer``, so that two-player headers are what they were before.

        >>> ("DamageDealt", 1) in LogHeader.current_event_table()
        True
        """
        return _current_event_table(multiplayer)


class UnknownEvent(Event, frozen=True):
    """A logged event this kernel cannot decode, kept verbatim.

    ``tag`` and ``version`` are as stored; ``raw`` is the msgpack encoding of
    the event's fields.  Not part of :data:`~mtgk.log.events.EVENT_TYPES`: when a
    log is written again it goes out under its original tag and version.

    >>> UnknownEvent("FutureEvent", 3, b"\\x91\\x01").TAG
    'UnknownEvent'
    """

    TAG: ClassVar[str] = "UnknownEvent"
    tag: str
    version: int
    raw: bytes
