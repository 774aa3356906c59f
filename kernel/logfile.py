"""The game log file: a compact, checksummed, append-only record of events.

A game is its log: a header (who played what, with which seed and rules
profile) followed by every :class:`~kernel.events.Envelope` in sequence order.
This module writes and reads that log in two formats:

* a **binary** format (``.mtgk``), compact and fast to decode, safe against
  crashes during an append; and
* **JSON Lines** (``.jsonl``), for humans, diffs and other tools.

:func:`load_log` reads either, telling them apart by their first bytes.

Binary format, version 1
========================

All integers are little-endian.  *varint* is an unsigned LEB128 integer: 7
bits per byte, least significant group first, high bit set on every byte but
the last (``0..127`` take one byte, ``128..16383`` two, and so on; at most 9
bytes).  *msgpack* is MessagePack as produced by :mod:`msgspec`.

File::

    offset  size  content
    0       4     magic b"MTGK"
    4       1     file format version (FORMAT_VERSION = 1)
    5       4     H = length of the header in bytes (uint32 LE)
    9       H     header: msgpack map of LogHeader (see below)
    9+H     ...   records, back to back, until the end of the file

Record ``i`` (``i`` = 0, 1, 2, ...)::

    varint   L        length of the payload in bytes
    L bytes  payload
    4 bytes  crc      uint32 LE: zlib.crc32(payload, crc of record i-1)

The checksums are *chained*: record 0 chains from ``zlib.crc32(header)``
(the ``H`` header bytes only), record ``i`` from the crc stored in record
``i - 1``.  So every record's crc covers the header and every payload up to
it, and records can be neither lost, reordered nor spliced in unnoticed.

Payload::

    varint   tag index    index into the header's event table ``events``
    varint   cause delta  seq - cause >= 1 (cause -1 = "no cause": delta = seq + 1)
    msgpack  event        the event's fields as a msgpack array, in field order
                          (events are ``array_like`` msgspec structs)

Sequence numbers are not stored: record ``i`` has ``seq == i``.  Typical
events take 8 to 20 bytes (e.g. ``Tapped(obj=42)``: 1 length + 1 tag + 1 delta
+ 2 msgpack + 4 crc = 9 bytes).

The header (:class:`LogHeader`) is a msgpack map with the keys ``format``
(equal to the version byte), ``kernel_version``, ``cardsets`` (list of
``[name, version]``), ``players``, ``decks`` (list of lists of deck lines such
as ``"4 Forest"``), ``seed``, ``profile``, ``events`` and ``meta``.  ``events``
is the *event table*: ``[tag, schema version]`` for every event type known to
the writer, sorted by tag; records refer to it by index, so the tag strings
are stored once per file.  Readers ignore header keys they do not know.

Reading
-------

* Bad magic: :class:`ForeignFileError`; a version byte newer than this reader:
  :class:`NewerVersionError`.
* A **torn last record** (the file ends inside it, its crc fails and it ends
  exactly at the end of the file, or the file ends in zero bytes), which is
  what a crash during an append leaves behind, is not an error: :func:`read_log`
  returns the intact prefix with ``torn=True`` and a :class:`LogProblem`
  (``strict=True`` raises :class:`TruncatedLogError` instead), and
  :func:`repair_log` cuts it off.
* Anything else that is wrong (a crc mismatch or an undecodable record
  followed by more data, a bad tag index or cause) raises
  :class:`CorruptLogError` naming the byte offset and record number.  A log is
  never silently half loaded.
* A record whose tag is not a known event type, or whose stored schema version
  is newer than the event class (or older, with no :func:`register_upcaster`
  chain up to the current version), is kept as an :class:`UnknownEvent`
  holding its raw bytes, and reported as a :class:`LogProblem`.  Written back
  out, an :class:`UnknownEvent` is stored under its original tag and version.

JSON Lines format
=================

The first line is ``{"header": {...}}`` (the :class:`LogHeader` fields), then
one line per event::

    {"seq": 0, "cause": -1, "type": "Tapped", "v": 1, "event": {"obj": 42}}

``event`` maps field names to values; an event whose type the writer did not
know (an :class:`UnknownEvent`) is written as a list of field values.  A last
line that is cut short (no newline, not valid JSON) counts as torn, like a
torn binary record.

Example
-------

>>> import os, tempfile
>>> from kernel.events import DecisionMade, Tapped
>>> header = LogHeader(kernel_version="0.1.0", cardsets=[("core", "1")],
...                    players=["Ann", "Bob"], decks=[[], []], seed=7)
>>> envs = [Envelope(0, -1, DecisionMade(player=0, kind="priority", choice=0)),
...         Envelope(1, 0, Tapped(obj=42))]
>>> path = os.path.join(tempfile.mkdtemp(), "game.mtgk")
>>> with LogWriter(path, header) as w:
...     for env in envs:
...         _ = w.append(env)
>>> log = read_log(path)
>>> log.envelopes == envs, log.torn, log.problems
(True, False, [])
>>> log.header.players
['Ann', 'Bob']
"""

from __future__ import annotations

import io
import os
import struct
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import IO, Any, ClassVar, Final, TypeAlias

import msgspec

from kernel.events import EVENT_TYPES, Envelope, Event

__all__ = [
    "FORMAT_VERSION",
    "MAGIC",
    "CorruptLogError",
    "ForeignFileError",
    "LogError",
    "LogFile",
    "LogHeader",
    "LogProblem",
    "LogWriter",
    "NewerVersionError",
    "TruncatedLogError",
    "UnknownEvent",
    "decode_log",
    "encode_log",
    "event_tag",
    "load_log",
    "newer_kernel",
    "problem_summary",
    "read_jsonl",
    "read_log",
    "register_upcaster",
    "repair_log",
    "write_jsonl",
    "write_log",
]

MAGIC: Final = b"MTGK"
"""The first four bytes of every binary log."""

FORMAT_VERSION: Final = 1
"""The binary file format version this module writes (and the newest it reads)."""

_PREAMBLE_SIZE: Final = len(MAGIC) + 1 + 4
_MAX_VARINT_BYTES: Final = 9

StrPath: TypeAlias = "str | os.PathLike[str]"
Upcaster: TypeAlias = Callable[[list[Any]], list[Any]]

_u32 = struct.Struct("<I")
_VARINT1: Final = [bytes((i,)) for i in range(128)]


# --------------------------------------------------------------------------
# Header, unknown events, problems, errors


def _current_event_table() -> list[tuple[str, int]]:
    return sorted((tag, cls.VERSION) for tag, cls in EVENT_TYPES.items())


class LogHeader(msgspec.Struct, kw_only=True):
    """Everything needed to replay a game besides its events.

    ``events`` defaults to the table of all event types registered right now
    (:meth:`current_event_table`); ``format`` to :data:`FORMAT_VERSION`.

    >>> h = LogHeader(kernel_version="0.1.0", cardsets=[], players=["A", "B"],
    ...               decks=[["20 Forest"], []], seed=1)
    >>> h.format, h.profile, ("Tapped", 1) in h.events
    (1, 'lorwyn-2007', True)
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

    @staticmethod
    def current_event_table() -> list[tuple[str, int]]:
        """``(tag, VERSION)`` for every registered event type, sorted by tag.

        >>> ("DamageDealt", 1) in LogHeader.current_event_table()
        True
        """
        return _current_event_table()


class UnknownEvent(Event, frozen=True):
    """A logged event this kernel cannot decode, kept verbatim.

    ``tag`` and ``version`` are as stored; ``raw`` is the msgpack encoding of
    the event's fields.  Not part of :data:`~kernel.events.EVENT_TYPES`: when a
    log is written again it goes out under its original tag and version.

    >>> UnknownEvent("FutureEvent", 3, b"\\x91\\x01").TAG
    'UnknownEvent'
    """

    TAG: ClassVar[str] = "UnknownEvent"
    tag: str
    version: int
    raw: bytes


def event_tag(e: Event) -> str:
    """The tag ``e`` is logged under: its type's ``TAG``, or for an
    :class:`UnknownEvent` the original tag it was stored with.

    >>> event_tag(UnknownEvent("FutureEvent", 3, b""))
    'FutureEvent'
    """
    return e.tag if isinstance(e, UnknownEvent) else e.TAG


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
class LogFile:
    """A loaded log.

    ``envelopes`` are the intact records in order (``envelopes[i].seq == i``);
    ``torn`` tells whether a cut-off last record was dropped; ``problems``
    lists everything that was not right; ``intact_size`` is the number of
    bytes holding the header and the intact records (where
    :func:`repair_log` truncates).
    """

    header: LogHeader
    envelopes: list[Envelope]
    problems: list[LogProblem] = field(default_factory=list)
    torn: bool = False
    intact_size: int = 0

    @property
    def events(self) -> list[Event]:
        """Just the events, in order."""
        return [env.event for env in self.envelopes]


# --------------------------------------------------------------------------
# Upcasters and event resolution

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


class _Unresolved(Exception):
    """Internal: an event cannot be decoded; becomes an UnknownEvent + problem."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind


def _resolve_values(tag: str, version: int, values: list[Any]) -> Event:
    """Build the current event for ``tag`` from field ``values`` stored at ``version``.

    Raises :class:`_Unresolved` for unknown tags, newer versions, missing or
    failing upcasters; :class:`msgspec.ValidationError` if the (upcast) values
    do not fit the class.
    """
    cls = EVENT_TYPES.get(tag)
    if cls is None:
        raise _Unresolved(f"unknown event type {tag!r} (version {version})", "unknown-event")
    if version > cls.VERSION:
        raise _Unresolved(
            f"event {tag!r} is stored at version {version}, newer than this kernel's "
            f"version {cls.VERSION}",
            "unknown-event",
        )
    if version < cls.VERSION:
        chain = _upcast_chain(tag, version, cls.VERSION)
        if isinstance(chain, int):
            raise _Unresolved(
                f"event {tag!r} is stored at version {version}, this kernel has version "
                f"{cls.VERSION} and no upcaster from version {chain} to {chain + 1}",
                "unknown-event",
            )
        try:
            for fn in chain:
                values = fn(list(values))
        except Exception as exc:  # an upcaster bug must not make the log unreadable
            raise _Unresolved(
                f"upcasting {tag!r} from version {version} failed: {exc!r}", "upcast-failed"
            ) from exc
        try:
            return msgspec.convert(values, cls)
        except msgspec.ValidationError as exc:
            raise _Unresolved(
                f"event {tag!r} upcast from version {version} does not fit version "
                f"{cls.VERSION}: {exc}",
                "upcast-failed",
            ) from exc
    return msgspec.convert(values, cls)


# --------------------------------------------------------------------------
# Varints and record encoding


def _varint(n: int) -> bytes:
    """Unsigned LEB128.

    >>> _varint(5), _varint(300)
    (b'\\x05', b'\\xac\\x02')
    """
    if n < 0x80:
        if n < 0:
            raise ValueError(f"varint must be >= 0, got {n}")
        return _VARINT1[n]
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    if len(out) > _MAX_VARINT_BYTES:
        raise ValueError("varint too large")
    return bytes(out)


def _read_varint(data: bytes, pos: int, limit: int) -> tuple[int, int]:
    """Decode a varint at ``pos`` not reaching ``limit``: ``(value, next pos)``.

    Returns ``(-1, pos)`` if it runs into ``limit``, ``(-2, pos)`` if longer
    than the maximum of 9 bytes.

    >>> _read_varint(b"\\xac\\x02", 0, 2), _read_varint(b"\\xac", 0, 1)
    ((300, 2), (-1, 0))
    """
    result = 0
    shift = 0
    p = pos
    while True:
        if p >= limit:
            return -1, pos
        b = data[p]
        p += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, p
        shift += 7
        if p - pos >= _MAX_VARINT_BYTES:
            return -2, pos


def _header_bytes(header: LogHeader) -> bytes:
    if header.format != FORMAT_VERSION:
        header = msgspec.structs.replace(header, format=FORMAT_VERSION)
    tags = [tag for tag, _ in header.events]
    if len(set(tags)) != len(tags):
        raise ValueError("the header's event table names a tag twice")
    return msgspec.msgpack.encode(header)


class _RecordEncoder:
    """Turns envelopes into records, tracking seq and the crc chain."""

    def __init__(self, header: LogHeader) -> None:
        self.header_bytes = _header_bytes(header)
        self.preamble = (
            MAGIC + bytes((FORMAT_VERSION,)) + _u32.pack(len(self.header_bytes)) + self.header_bytes
        )
        self.index = {tag: (i, v) for i, (tag, v) in enumerate(header.events)}
        self.crc = zlib.crc32(self.header_bytes)
        self.seq = 0
        self._encode = msgspec.msgpack.Encoder().encode

    def encode(self, env: Envelope) -> bytes:
        seq = self.seq
        if env.seq != seq:
            raise ValueError(f"expected an envelope with seq {seq}, got seq {env.seq}")
        cause = env.cause
        if not -1 <= cause < seq:
            raise ValueError(f"envelope {seq}: cause must be -1 or an earlier seq, got {cause}")
        ev = env.event
        if isinstance(ev, UnknownEvent):
            tag, version, body = ev.tag, ev.version, ev.raw
        else:
            tag, version = ev.TAG, ev.VERSION
            body = self._encode(ev)
        entry = self.index.get(tag)
        if entry is None:
            raise ValueError(
                f"envelope {seq}: event type {tag!r} is not in the header's event table"
            )
        if entry[1] != version:
            raise ValueError(
                f"envelope {seq}: event {tag!r} has version {version}, the header's event "
                f"table says version {entry[1]}"
            )
        payload = _varint(entry[0]) + _varint(seq - cause) + body
        self.crc = crc = zlib.crc32(payload, self.crc)
        self.seq = seq + 1
        return _varint(len(payload)) + payload + _u32.pack(crc)


# --------------------------------------------------------------------------
# Writing


class LogWriter:
    """Append envelopes to a new binary log, one crash-safe record at a time.

    The header is written when the writer is created (an existing file at
    ``path`` is replaced).  Each :meth:`append` writes its whole record with a
    single ``write`` and flushes it (and ``os.fsync``s it if ``fsync=True``),
    so a crash leaves at worst a torn last record, which :func:`read_log`
    reports and :func:`repair_log` removes.  Use :meth:`reopen` to continue a
    log.
    """

    def __init__(self, path: StrPath, header: LogHeader, *, fsync: bool = False) -> None:
        self.path = os.fspath(path)
        self.header = header
        self.fsync = fsync
        self._enc = _RecordEncoder(header)
        self._fp: IO[bytes] | None = open(self.path, "wb")
        self._offset = 0
        self._write(self._enc.preamble)

    @classmethod
    def reopen(cls, path: StrPath, *, fsync: bool = False) -> LogWriter:
        """Continue appending to an existing binary log.

        The log must read cleanly: a torn tail raises :class:`TruncatedLogError`
        (call :func:`repair_log` first); unknown events are fine.
        """
        p = os.fspath(path)
        fp = open(p, "r+b")
        try:
            data = fp.read()
            log, crc = _scan_log(data, p, strict=True)
            fp.seek(0, os.SEEK_END)
        except BaseException:
            fp.close()
            raise
        w = cls.__new__(cls)
        w.path = p
        w.header = log.header
        w.fsync = fsync
        w._enc = _RecordEncoder(log.header)
        w._enc.crc = crc
        w._enc.seq = len(log.envelopes)
        w._fp = fp
        w._offset = len(data)
        return w

    @property
    def next_seq(self) -> int:
        """The ``seq`` the next appended envelope must have."""
        return self._enc.seq

    def _write(self, data: bytes) -> None:
        fp = self._fp
        if fp is None:
            raise ValueError("the log writer is closed")
        fp.write(data)
        fp.flush()
        if self.fsync:
            os.fsync(fp.fileno())
        self._offset += len(data)

    def append(self, env: Envelope) -> int:
        """Write one envelope; returns the byte offset its record starts at.

        Raises :class:`ValueError` if ``env.seq`` is not :attr:`next_seq` (a
        gap or a double append), if its cause is not ``-1`` or an earlier seq,
        or if its event type is not in the header's event table.
        """
        if self._fp is None:
            raise ValueError("the log writer is closed")
        record = self._enc.encode(env)
        offset = self._offset
        self._write(record)
        return offset

    def extend(self, envelopes: Iterable[Envelope]) -> None:
        """Append several envelopes."""
        for env in envelopes:
            self.append(env)

    def flush(self) -> None:
        """Flush buffers (appends already flush; this also fsyncs if asked to)."""
        if self._fp is not None:
            self._fp.flush()
            if self.fsync:
                os.fsync(self._fp.fileno())

    def close(self) -> None:
        """Flush and close the file; closing twice is fine."""
        if self._fp is not None:
            try:
                self.flush()
            finally:
                self._fp.close()
                self._fp = None

    @property
    def closed(self) -> bool:
        return self._fp is None

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def _with_unknown_tags(header: LogHeader, envelopes: Sequence[Envelope]) -> LogHeader:
    """Add the tags of UnknownEvents missing from the header's event table."""
    table = dict(header.events)
    extra: dict[str, int] = {}
    for env in envelopes:
        ev = env.event
        if isinstance(ev, UnknownEvent) and ev.tag not in table:
            if extra.setdefault(ev.tag, ev.version) != ev.version:
                raise ValueError(
                    f"unknown event {ev.tag!r} occurs at versions {extra[ev.tag]} and "
                    f"{ev.version}; one log stores one version per tag"
                )
    if not extra:
        return header
    return msgspec.structs.replace(header, events=sorted([*header.events, *extra.items()]))


def write_log(path: StrPath, header: LogHeader, envelopes: Iterable[Envelope]) -> int:
    """Write a whole binary log at once; returns its size in bytes.

    The file is written under a temporary name and then renamed over ``path``,
    so ``path`` never holds a half-written log.  Tags of
    :class:`UnknownEvent`\\ s missing from the header's event table are added.
    """
    envs = envelopes if isinstance(envelopes, Sequence) else list(envelopes)
    enc = _RecordEncoder(_with_unknown_tags(header, envs))
    parts = [enc.preamble]
    parts.extend(enc.encode(env) for env in envs)
    data = b"".join(parts)
    target = os.fspath(path)
    tmp = f"{target}.tmp{os.getpid()}"
    try:
        with open(tmp, "wb") as fp:
            fp.write(data)
            fp.flush()
            os.fsync(fp.fileno())
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return len(data)


def encode_log(header: LogHeader, envelopes: Iterable[Envelope]) -> bytes:
    """A whole binary log as bytes (what :func:`write_log` writes), e.g. to store elsewhere."""
    envs = envelopes if isinstance(envelopes, Sequence) else list(envelopes)
    enc = _RecordEncoder(_with_unknown_tags(header, envs))
    return b"".join([enc.preamble, *(enc.encode(env) for env in envs)])


# --------------------------------------------------------------------------
# Reading


class _Reader:
    """Decodes the records of one binary log held in memory."""

    def __init__(self, data: bytes, path: str | None, strict: bool) -> None:
        self.data = data
        self.path = path
        self.strict = strict
        self.problems: list[LogProblem] = []

    def error(
        self, cls: type[LogError], detail: str, offset: int, record: int | None = None
    ) -> LogError:
        return cls(detail, offset=offset, record=record, path=self.path)

    # -- preamble and header

    def read_header(self) -> tuple[LogHeader, int, int]:
        """Returns (header, offset of record 0, crc of the header bytes)."""
        data = self.data
        n = len(data)
        if n < len(MAGIC) and MAGIC.startswith(data):
            raise self.error(
                TruncatedLogError,
                f"expected the signature {MAGIC!r}, the file has only {n} bytes",
                n,
            )
        if data[:4] != MAGIC:
            raise self.error(
                ForeignFileError,
                f"not an mtgk log: expected the signature {MAGIC!r}, found {data[:4]!r}",
                0,
            )
        if n < _PREAMBLE_SIZE:
            raise self.error(
                TruncatedLogError,
                f"expected {_PREAMBLE_SIZE} bytes of signature, version and header "
                f"length, the file has only {n}",
                n,
            )
        version = data[4]
        if version > FORMAT_VERSION:
            raise self.error(
                NewerVersionError,
                f"file format version {version} is newer than this reader "
                f"(which reads versions up to {FORMAT_VERSION}); upgrade mtgk",
                4,
            )
        if version < 1:
            raise self.error(
                CorruptLogError, f"expected a file format version >= 1, found {version}", 4
            )
        (hlen,) = _u32.unpack_from(data, 5)
        hend = _PREAMBLE_SIZE + hlen
        if hend > n:
            raise self.error(
                TruncatedLogError,
                f"expected a header of {hlen} bytes, the file ends after {n - _PREAMBLE_SIZE}",
                n,
            )
        hbytes = data[_PREAMBLE_SIZE:hend]
        try:
            header = msgspec.msgpack.decode(hbytes, type=LogHeader)
        except msgspec.DecodeError as exc:
            raise self.error(
                CorruptLogError,
                f"expected a msgpack LogHeader, decoding failed: {exc}",
                _PREAMBLE_SIZE,
            ) from None
        if header.format != version:
            raise self.error(
                CorruptLogError,
                f"the header says format {header.format}, the version byte says {version}",
                _PREAMBLE_SIZE,
            )
        tags = [tag for tag, _ in header.events]
        if len(set(tags)) != len(tags):
            raise self.error(
                CorruptLogError, "the header's event table names a tag twice", _PREAMBLE_SIZE
            )
        return header, hend, zlib.crc32(hbytes)

    # -- records

    def read_records(
        self, header: LogHeader, pos: int, crc: int
    ) -> tuple[list[Envelope], bool, int, int]:
        """Decode all records: (envelopes, torn, intact prefix size, last good crc)."""
        data = self.data
        n = len(data)
        mv = memoryview(data)
        table = header.events
        fast_tags = min(len(table), 0x80)  # tag indexes that fit in one byte
        # One decoder per tag index; None where the slow path must decide.
        decoders: list[msgspec.msgpack.Decoder[Any] | None] = []
        for tag, version in table:
            cls = EVENT_TYPES.get(tag)
            ok = cls is not None and cls.VERSION == version
            decoders.append(msgspec.msgpack.Decoder(cls) if ok else None)
        envs: list[Envelope] = []
        append = envs.append
        crc32 = zlib.crc32
        unpack_u32 = _u32.unpack_from
        decode_error = msgspec.DecodeError
        seq = 0
        while pos < n:
            start = pos
            length = data[pos]
            pos += 1
            if length >= 0x80:
                length, pos = _read_varint(data, start, n)
                if length == -1:
                    self.tail_problem(start, seq, crc, "the file ends inside the record length")
                    return envs, True, start, crc
                if length < 0:
                    raise self.error(
                        CorruptLogError,
                        "expected a record length varint of at most 9 bytes, found more",
                        start,
                        seq,
                    )
            end = pos + length
            if end + 4 > n:
                self.tail_problem(
                    start,
                    seq,
                    crc,
                    f"expected {length} payload bytes and a 4-byte crc, the file ends "
                    f"{n - pos} bytes after the record length",
                    claimed_end=end + 4,
                )
                return envs, True, start, crc
            new_crc = crc32(mv[pos:end], crc)
            if new_crc != unpack_u32(data, end)[0]:
                if end + 4 == n or not any(data[start:]):
                    self.tail_problem(
                        start,
                        seq,
                        crc,
                        f"crc mismatch in the last record: expected 0x{new_crc:08x} "
                        f"(computed), found 0x{unpack_u32(data, end)[0]:08x} (stored)",
                    )
                    return envs, True, start, crc
                raise self.error(
                    CorruptLogError,
                    f"crc mismatch: expected 0x{new_crc:08x} (computed from the "
                    f"{'header and ' if seq == 0 else ''}payload bytes {pos}..{end}), "
                    f"found 0x{unpack_u32(data, end)[0]:08x} (stored at byte {end})",
                    start,
                    seq,
                )
            crc = new_crc
            ti = data[pos]
            delta = data[pos + 1]
            body = pos + 2
            if delta >= 0x80:
                if length >= 4 and data[pos + 2] < 0x80:  # 2-byte cause delta
                    delta = (delta & 0x7F) | (data[pos + 2] << 7)
                    body = pos + 3
                else:  # a longer varint (a cause 16384 or more events back): slow path
                    delta = 0
            if length >= 3 and ti < fast_tags and 0 < delta <= seq + 1 and delta < 0x4000:
                dec = decoders[ti]
                if dec is not None:
                    try:
                        ev = dec.decode(mv[body:end])
                    except decode_error as exc:
                        raise self.error(
                            CorruptLogError,
                            f"expected a {table[ti][0]} event, decoding failed: {exc}",
                            start,
                            seq,
                        ) from None
                    append(Envelope(seq, seq - delta, ev))
                    seq += 1
                    pos = end + 4
                    continue
            append(self.slow_record(header, start, pos, end, seq))
            seq += 1
            pos = end + 4
        return envs, False, pos, crc

    def slow_record(self, header: LogHeader, start: int, pos: int, end: int, seq: int) -> Envelope:
        """Decode a record the fast path did not handle (crc already checked)."""
        data = self.data
        table = header.events
        ti, p = _read_varint(data, pos, end)
        if ti < 0:
            raise self.error(
                CorruptLogError,
                "expected a tag index varint, the payload ends inside it",
                start,
                seq,
            )
        if ti >= len(table):
            raise self.error(
                CorruptLogError,
                f"expected a tag index below {len(table)} (the size of the event table), "
                f"found {ti}",
                start,
                seq,
            )
        delta, p = _read_varint(data, p, end)
        if delta < 0:
            raise self.error(
                CorruptLogError,
                "expected a cause delta varint, the payload ends inside it",
                start,
                seq,
            )
        if not 0 < delta <= seq + 1:
            raise self.error(
                CorruptLogError,
                f"expected a cause delta between 1 and {seq + 1}, found {delta}",
                start,
                seq,
            )
        if p >= end:
            raise self.error(
                CorruptLogError,
                "expected a msgpack event after the cause, found nothing",
                start,
                seq,
            )
        tag, version = table[ti]
        raw = data[p:end]
        cls = EVENT_TYPES.get(tag)
        ev: Event
        try:
            if cls is not None and cls.VERSION == version:
                ev = msgspec.msgpack.decode(raw, type=cls)
            else:
                values = msgspec.msgpack.decode(raw)
                if not isinstance(values, list):
                    raise self.error(
                        CorruptLogError,
                        f"expected the fields of {tag!r} as a msgpack array, found "
                        f"{type(values).__name__}",
                        start,
                        seq,
                    )
                ev = _resolve_values(tag, version, values)
        except _Unresolved as exc:
            self.problems.append(LogProblem(start, seq, exc.message, exc.kind))
            ev = UnknownEvent(tag, version, raw)
        except msgspec.DecodeError as exc:
            raise self.error(
                CorruptLogError, f"expected a {tag} event, decoding failed: {exc}", start, seq
            ) from None
        return Envelope(seq, seq - delta, ev)

    def tail_problem(
        self, start: int, seq: int, crc: int, detail: str, *, claimed_end: int = 0
    ) -> None:
        """Record (or, when strict, raise) a torn last record at ``start``.

        If the length field claims more bytes than the file has, but a
        complete record with a valid crc can still be found after ``start``,
        the length itself is damaged: that is corruption, not a torn tail.
        """
        data = self.data
        n = len(data)
        if claimed_end > n and any(data[start:]):
            found = _find_valid_record(data, start, crc)
            if found is not None:
                raise self.error(
                    CorruptLogError,
                    f"damaged record length: expected the record to end at byte {found} "
                    f"(where its valid crc is), found a length that makes it end at byte "
                    f"{claimed_end}, past the end of the file ({n} bytes)",
                    start,
                    seq,
                )
        if not any(data[start:]):
            detail = f"the file ends in {n - start} zero bytes instead of a record"
        message = f"torn last record ({n - start} bytes dropped): {detail}"
        if self.strict:
            raise self.error(TruncatedLogError, message, start, seq)
        self.problems.append(LogProblem(start, seq, message, "torn"))


def _find_valid_record(data: bytes, start: int, crc: int) -> int | None:
    """End offset of a record that starts near ``start`` and has a valid crc, if any.

    Tries every payload start a 1..9 byte length varint allows, and every
    payload length that fits in the file.  Only used on the error path.
    """
    n = len(data)
    crc32 = zlib.crc32
    unpack_u32 = _u32.unpack_from
    for s in range(start + 1, min(start + 1 + _MAX_VARINT_BYTES, n)):
        c = crc
        for e in range(s, n - 4):
            c = crc32(data[e : e + 1], c)
            if e + 1 - s >= 3 and unpack_u32(data, e + 1)[0] == c:
                return e + 5
    return None


def read_log(path: StrPath, *, strict: bool = False) -> LogFile:
    """Read a binary log.

    A torn last record is dropped and reported (``torn=True`` and a
    :class:`LogProblem`), or raises :class:`TruncatedLogError` if ``strict``.
    Other damage raises :class:`CorruptLogError`; see the module docs.
    """
    p = os.fspath(path)
    with open(p, "rb") as fp:
        data = fp.read()
    return _read_log_bytes(data, p, strict)


def _scan_log(data: bytes, path: str | None, strict: bool) -> tuple[LogFile, int]:
    """Decode a binary log: the log and the crc its last intact record ends with."""
    reader = _Reader(data, path, strict)
    header, pos, crc = reader.read_header()
    envs, torn, size, crc = reader.read_records(header, pos, crc)
    return LogFile(header, envs, reader.problems, torn, size), crc


def _read_log_bytes(data: bytes, path: str | None, strict: bool) -> LogFile:
    return _scan_log(data, path, strict)[0]


# --------------------------------------------------------------------------
# JSON Lines


def _event_json(ev: Event) -> tuple[str, int, Any]:
    if isinstance(ev, UnknownEvent):
        return ev.tag, ev.version, msgspec.msgpack.decode(ev.raw)
    fields = type(ev).__struct_fields__
    return ev.TAG, ev.VERSION, {name: getattr(ev, name) for name in fields}


def _jsonl_lines(header: LogHeader, envelopes: Iterable[Envelope]) -> Iterable[bytes]:
    encode = msgspec.json.Encoder().encode
    yield encode({"header": header}) + b"\n"
    expected = 0
    for env in envelopes:
        if env.seq != expected:
            raise ValueError(f"expected an envelope with seq {expected}, got seq {env.seq}")
        expected += 1
        tag, version, body = _event_json(env.event)
        yield (
            encode({"seq": env.seq, "cause": env.cause, "type": tag, "v": version, "event": body})
            + b"\n"
        )


def write_jsonl(
    fp_or_path: StrPath | IO[bytes] | IO[str], header: LogHeader, envelopes: Iterable[Envelope]
) -> None:
    """Write a log as JSON Lines to a path or an open (text or binary) file.

    >>> import io
    >>> from kernel.events import Tapped
    >>> out = io.StringIO()
    >>> h = LogHeader(kernel_version="0", cardsets=[], players=["A", "B"], seed=1, events=[])
    >>> write_jsonl(out, h, [Envelope(0, -1, Tapped(obj=3))])
    >>> out.getvalue().splitlines()[1]
    '{"seq":0,"cause":-1,"type":"Tapped","v":1,"event":{"obj":3,"entering":false}}'
    """
    lines = _jsonl_lines(header, envelopes)
    if isinstance(fp_or_path, (str, os.PathLike)):
        with open(fp_or_path, "wb") as fp:
            for line in lines:
                fp.write(line)
        return
    if isinstance(fp_or_path, io.TextIOBase):
        for line in lines:
            fp_or_path.write(line.decode())
        return
    bfp: IO[Any] = fp_or_path
    for line in lines:
        bfp.write(line)


def _values_from_dict(cls: type[Event], obj: dict[str, Any]) -> list[Any]:
    """The field values of ``cls`` named in ``obj``, defaults filled in."""
    names = cls.__struct_fields__
    extra = set(obj) - set(names)
    if extra:
        raise ValueError(
            f"unexpected field(s) {sorted(extra)} for {cls.TAG} (fields: {list(names)})"
        )
    values: list[Any] = []
    for info in msgspec.structs.fields(cls):
        if info.name in obj:
            values.append(obj[info.name])
        elif info.default is not msgspec.NODEFAULT:
            values.append(info.default)
        elif info.default_factory is not msgspec.NODEFAULT:
            values.append(info.default_factory())
        else:
            raise ValueError(f"missing required field {info.name!r} of {cls.TAG}")
    return values


def _jsonl_record(obj: Any, seq: int) -> tuple[Envelope, _Unresolved | None]:
    """Decode one JSON Lines record; raises ValueError/ValidationError if malformed."""
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object, found {type(obj).__name__}")
    missing = [k for k in ("seq", "cause", "type", "v", "event") if k not in obj]
    if missing:
        raise ValueError(f"expected keys seq, cause, type, v and event; missing {missing}")
    rseq, cause, tag, version, body = obj["seq"], obj["cause"], obj["type"], obj["v"], obj["event"]
    if rseq != seq or type(rseq) is not int:
        raise ValueError(f"expected seq {seq}, found {rseq!r}")
    if type(cause) is not int or not -1 <= cause < seq:
        raise ValueError(f"expected a cause between -1 and {seq - 1}, found {cause!r}")
    if not isinstance(tag, str) or type(version) is not int:
        raise ValueError(f"expected a string type and an integer v, found {tag!r} and {version!r}")
    if not isinstance(body, (dict, list)):
        raise ValueError(f"expected the event as an object or list, found {type(body).__name__}")
    cls = EVENT_TYPES.get(tag)
    try:
        if isinstance(body, list):
            values = body
        elif cls is not None and version == cls.VERSION:
            values = _values_from_dict(cls, body)
        else:  # an older or unknown shape: the field order as written
            values = list(body.values())
        ev = _resolve_values(tag, version, values)
    except _Unresolved as exc:
        values = body if isinstance(body, list) else list(body.values())
        return Envelope(seq, cause, UnknownEvent(tag, version, msgspec.msgpack.encode(values))), exc
    return Envelope(seq, cause, ev), None


def read_jsonl(path: StrPath, *, strict: bool = False) -> LogFile:
    """Read a JSON Lines log written by :func:`write_jsonl`.

    Errors are reported like :func:`read_log`'s: offsets are byte offsets of
    lines, a cut-off last line (no newline, not valid JSON) is a torn record.
    Blank lines are skipped.
    """
    p = os.fspath(path)
    with open(p, "rb") as fp:
        data = fp.read()
    return _read_jsonl_bytes(data, p, strict)


def _read_jsonl_bytes(data: bytes, path: str | None, strict: bool) -> LogFile:
    n = len(data)
    decode = msgspec.json.decode
    problems: list[LogProblem] = []
    envs: list[Envelope] = []
    header: LogHeader | None = None
    pos = 0
    while pos < n:
        nl = data.find(b"\n", pos)
        end = n if nl < 0 else nl
        nxt = n if nl < 0 else nl + 1
        line = data[pos:end]
        if not line.strip():
            pos = nxt
            continue
        record = None if header is None else len(envs)
        try:
            obj = decode(line)
        except msgspec.DecodeError as exc:
            if nl < 0:  # the last line, cut off
                message = f"torn last line ({n - pos} bytes dropped): invalid JSON: {exc}"
                if strict or header is None:
                    raise TruncatedLogError(message, offset=pos, record=record, path=path) from None
                problems.append(LogProblem(pos, record, message, "torn"))
                return LogFile(header, envs, problems, True, pos)
            raise CorruptLogError(
                f"expected a JSON object, found invalid JSON: {exc}",
                offset=pos,
                record=record,
                path=path,
            ) from None
        if header is None:
            if not isinstance(obj, dict) or set(obj) != {"header"}:
                raise ForeignFileError(
                    'not an mtgk log: expected a first line {"header": {...}}',
                    offset=pos,
                    path=path,
                )
            try:
                header = msgspec.convert(obj["header"], LogHeader)
            except msgspec.ValidationError as exc:
                raise CorruptLogError(
                    f"expected a log header, found an invalid one: {exc}", offset=pos, path=path
                ) from None
        else:
            seq = len(envs)
            try:
                env, unresolved = _jsonl_record(obj, seq)
            except (ValueError, msgspec.ValidationError) as exc:
                raise CorruptLogError(str(exc), offset=pos, record=seq, path=path) from None
            if unresolved is not None:
                problems.append(LogProblem(pos, seq, unresolved.message, unresolved.kind))
            envs.append(env)
        pos = nxt
    if header is None:
        raise TruncatedLogError(
            'expected a header line {"header": {...}}, the file is empty',
            offset=0,
            path=path,
        )
    return LogFile(header, envs, problems, False, n)


# --------------------------------------------------------------------------
# Detection and repair


def load_log(path: StrPath, *, strict: bool = False) -> LogFile:
    """Read a binary or JSON Lines log, whichever ``path`` holds.

    Binary logs start with :data:`MAGIC`; JSON Lines logs with ``{``.  Other
    files raise :class:`ForeignFileError`.
    """
    p = os.fspath(path)
    with open(p, "rb") as fp:
        data = fp.read()
    if data[:1] == b"{" or data.lstrip()[:1] == b"{":
        return _read_jsonl_bytes(data, p, strict)
    return _read_log_bytes(data, p, strict)


def decode_log(data: bytes, *, strict: bool = False, name: str | None = None) -> LogFile:
    """Read a binary or JSON Lines log held in memory (like :func:`load_log`).

    ``name`` is used in error messages in place of a file path.
    """
    if data[:1] == b"{" or data.lstrip()[:1] == b"{":
        return _read_jsonl_bytes(data, name, strict)
    return _read_log_bytes(data, name, strict)


def repair_log(path: StrPath) -> LogProblem | None:
    """Cut a torn last record off the log at ``path``.

    Returns the :class:`LogProblem` that was repaired (for the caller to
    report), or ``None`` if the log was intact.  Any other damage raises as
    in :func:`load_log`, and the file is left untouched.
    """
    log = load_log(path)
    if not log.torn:
        return None
    problem = next(pr for pr in reversed(log.problems) if pr.kind == "torn")
    with open(path, "r+b") as fp:
        fp.truncate(log.intact_size)
        fp.flush()
        os.fsync(fp.fileno())
    return problem


# --------------------------------------------------------------------------
# Reporting


def _version_key(v: str) -> tuple[tuple[int, int | str], ...]:
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in v.replace("-", ".").split("."))


def newer_kernel(header: LogHeader, current: str | None = None) -> str | None:
    """A sentence if the log was written by a newer kernel than ``current``
    (default: this one), else ``None``.

    >>> h = LogHeader(kernel_version="9.0.0", cardsets=[], players=["A", "B"], seed=1)
    >>> newer_kernel(h, "0.1.0")
    'the log was written by mtgk kernel 9.0.0, newer than this one (0.1.0)'
    >>> newer_kernel(h, "9.0.0") is None
    True
    """
    if current is None:
        import kernel

        current = kernel.__version__
    try:
        newer = _version_key(header.kernel_version) > _version_key(current)
    except TypeError:
        newer = False
    if not newer:
        return None
    return (f"the log was written by mtgk kernel {header.kernel_version}, newer than this one "
            f"({current})")


def problem_summary(log: LogFile, limit: int = 5) -> list[tuple[str, str]]:
    """``(kind, line)`` for each kind of problem in ``log``: events of one unknown
    type (or one unreadable version) are grouped, naming the first and counting
    the others.

    Every line names the record (event) number, the byte offset, the event type
    and its stored version, as :class:`LogProblem` does.
    """
    groups: dict[tuple[str, str], list[LogProblem]] = {}
    for pr in log.problems:
        key = (pr.kind, pr.message)
        if pr.record is not None and pr.record < len(log.envelopes):
            ev = log.envelopes[pr.record].event
            if isinstance(ev, UnknownEvent):
                key = (pr.kind, f"{ev.tag}/{ev.version}")
        groups.setdefault(key, []).append(pr)
    out: list[tuple[str, str]] = []
    for probs in groups.values():
        first = probs[0]
        line = str(first)
        if len(probs) > 1:
            more = [str(p.record) for p in probs[1 : 1 + limit]]
            etc = ", ..." if len(probs) > 1 + limit else ""
            line += (f" (and {len(probs) - 1} more event{'s' if len(probs) > 2 else ''} like "
                     f"it: records {', '.join(more)}{etc})")
        out.append((first.kind, line))
    return out
