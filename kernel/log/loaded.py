"""A loaded log, and what reading it found wrong: :class:`LogFile`, :class:`LogProblem`,
:class:`LogBreak` and the errors (:class:`LogError` and its kinds).

Both readers -- the binary one (:mod:`mtgk.log.reader`) and the JSON Lines one
(:mod:`mtgk.log.jsonl`) -- return a :class:`LogFile` and raise these errors; :func:`checked`
is the rule they share for when a read raises instead (``strict``, ``salvage``).
:mod:`mtgk.log.logfile` re-exports the public names.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TypeAlias

from mtgk.log.events import Envelope, Event
from mtgk.log.structs import LogHeader

__all__ = [
    "CorruptLogError",
    "ForeignFileError",
    "LogBreak",
    "LogError",
    "LogFile",
    "LogProblem",
    "NewerVersionError",
    "StrPath",
    "TruncatedLogError",
    "checked",
    "exc_text",
]

StrPath: TypeAlias = "str | os.PathLike[str]"
"""A file's path, as the functions that read and write logs take it."""


@dataclass(frozen=True, slots=True)
class LogProblem:
    """Something wrong with a log that did not stop it from loading.

    ``kind`` is ``"torn"`` (cut-off last record), ``"unknown-event"`` or
    ``"upcast-failed"``.  ``record`` is the record (= sequence) number, or
    ``None`` when the problem is not about one record.
    """

    offset: int
    record: int | None
    message: str
    kind: str = "torn"

    def __str__(self) -> str:
        return f"{_where(self.offset, self.record)}: {self.message}"


def _where(offset: int, record: int | None) -> str:
    if record is None:
        return f"at byte {offset}"
    return f"record {record} at byte {offset}"


class LogError(Exception):
    """A log cannot be read.

    ``offset`` is the byte offset (in the file) where the problem is,
    ``record`` the record number (``None`` for the file header) and ``path``
    the file, when known.  ``detail`` says what was expected and what was
    found.
    """

    def __init__(
        self, detail: str, *, offset: int, record: int | None = None, path: str | None = None
    ) -> None:
        self.detail = detail
        self.offset = offset
        self.record = record
        self.path = path
        self.log: LogFile | None = None  # what could be read, when reading got that far
        prefix = f"{path}: " if path else ""
        super().__init__(f"{prefix}{_where(offset, record)}: {detail}")


class ForeignFileError(LogError):
    """The file is not an mtgk log at all (bad magic)."""


class NewerVersionError(LogError):
    """The file was written in a newer file format than this reader knows."""


class CorruptLogError(LogError):
    """The log is damaged somewhere other than a torn last record."""


class TruncatedLogError(LogError):
    """The log ends inside a record (raised by strict reads, or inside the header)."""


@dataclass(slots=True)
class LogBreak:
    """Damage in a log: where reading records in sequence stops, and what reads after it.

    ``record`` and ``offset`` name the first record that cannot be read and the
    byte it starts at; ``detail`` says what was expected and what was found.
    ``resume`` is the byte where readable records start again (``None``: nothing
    after the damage could be read); ``lost`` is how many records the damaged
    bytes held, when that is known (``None``: unknown).  ``envelopes`` are the
    records read after the damage, each with its own checksum holding; the chain
    of checksums from the file's start is broken at ``record``, so they are not
    part of the log in sequence.  Their ``seq`` is exact if ``exact``; otherwise
    the damaged bytes of this break (and of earlier ones) count as one record.
    ``checked`` is false in JSON Lines logs, whose lines have no checksums: there
    a line after the damage is kept if it reads as the record its ``seq`` says.
    """

    record: int
    offset: int
    detail: str
    resume: int | None
    lost: int | None
    envelopes: list[Envelope]
    exact: bool = True
    checked: bool = True

    def __str__(self) -> str:
        return f"{_where(self.offset, self.record)}: {self.detail}"


class LogFile:
    """A loaded log.

    ``envelopes`` are the intact records in order (``envelopes[i].seq == i``);
    ``torn`` tells whether a cut-off last record was dropped; ``problems``
    lists everything that was not right; ``intact_size`` is the number of
    bytes holding the header and the intact records (where
    :func:`repair_log` truncates).  ``breaks`` is empty unless the log is
    damaged and was read with ``salvage=True``: then it lists each place where
    the damage breaks the sequence, with the records read after it.

    A binary log is read into its events and causes; the envelopes are made
    from them the first time :attr:`envelopes` is asked for, so a replay that
    folds :attr:`events` makes no envelope at all.
    """

    __slots__ = ("header", "_envelopes", "_events", "_causes", "problems", "torn",
                 "intact_size", "breaks")

    def __init__(self, header: LogHeader, envelopes: list[Envelope] | None = None,
                 problems: list[LogProblem] | None = None, torn: bool = False,
                 intact_size: int = 0, breaks: list[LogBreak] | None = None, *,
                 events: list[Event] | None = None, causes: list[int] | None = None) -> None:
        self.header = header
        self._envelopes = envelopes
        self._events = events
        self._causes = causes
        if envelopes is None and (events is None or causes is None):
            self._envelopes = []
        self.problems: list[LogProblem] = [] if problems is None else problems
        self.torn = torn
        self.intact_size = intact_size
        self.breaks: list[LogBreak] = [] if breaks is None else breaks

    def __repr__(self) -> str:
        return (f"LogFile(header={self.header!r}, records={len(self)}, problems="
                f"{self.problems!r}, torn={self.torn}, intact_size={self.intact_size}, "
                f"breaks={self.breaks!r})")

    def __len__(self) -> int:
        """The number of intact records."""
        if self._envelopes is not None:
            return len(self._envelopes)
        assert self._events is not None
        return len(self._events)

    @property
    def envelopes(self) -> list[Envelope]:
        """The intact records, in order (made once, then kept)."""
        envs = self._envelopes
        if envs is None:
            assert self._events is not None and self._causes is not None
            envs = self._envelopes = list(map(Envelope, range(len(self._events)),
                                              self._causes, self._events))
            self._events = self._causes = None
        return envs

    @property
    def events(self) -> list[Event]:
        """Just the events, in order (a new list)."""
        if self._envelopes is None:
            assert self._events is not None
            return list(self._events)
        return [env.event for env in self._envelopes]

    @property
    def salvaged(self) -> int:
        """How many records were read after damage (in :attr:`breaks`)."""
        return sum(len(b.envelopes) for b in self.breaks)


def exc_text(exc: BaseException, limit: int = 200) -> str:
    """An exception's message, at most ``limit`` characters."""
    text = str(exc) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


def checked(log: LogFile, path: str | None, strict: bool, salvage: bool) -> LogFile:
    """``log``, or the error a read without ``salvage`` (or a ``strict`` one) raises."""
    if log.breaks and (strict or not salvage):
        first = log.breaks[0]
        exc = CorruptLogError(first.detail, offset=first.offset, record=first.record, path=path)
        exc.log = log
        raise exc
    if strict and log.torn:
        torn = next(pr for pr in log.problems if pr.kind == "torn")
        exc2 = TruncatedLogError(torn.message, offset=torn.offset, record=torn.record,
                                 path=path)
        exc2.log = log
        raise exc2
    return log
