"""The game log file: a compact, checksummed, append-only record of events.

A game is its log: a header (who played what, with which seed and rules
profile) followed by every :class:`~mtgk.log.events.Envelope` in sequence order.
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

Binary format, version 2
------------------------

What this module writes (:data:`FORMAT_VERSION`); version 1 is still read, and
written to continue a log of that version (:meth:`LogWriter.reopen`).  The same
header, then its own crc, then *blocks* of records (docs/log-format.md)::

    offset   size  content
    0        4     magic b"MTGK"
    4        1     file format version (2)
    5        4     H = length of the header in bytes (uint32 LE)
    9        H     header: msgpack map of LogHeader (``format`` = 2)
    9+H      4     uint32 LE: zlib.crc32(header)
    13+H     ...   blocks, back to back, until the end of the file

    block:   varint L, L bytes of payload, 4 bytes crc (uint32 LE: zlib.crc32(payload,
             crc of the block before; block 0: the header's crc))
    payload: msgpack array [first, tags, deltas, groups]
             first   the number (seq) of the block's first record
             tags    array of the records' tag indexes (into the header's event table)
             deltas  array of the records' cause deltas (seq - cause, as in version 1)
             groups  array of [tag index, array of the events of that type in the
                     block, in order, each the array of its fields]; one group per
                     tag index in ``tags``

A block holds at least one record: :func:`write_log` writes :data:`BLOCK_RECORDS` to a
block, a :class:`LogWriter` :data:`STREAM_BLOCK_RECORDS`.  The reader decodes a block with
one msgspec call for the head and one per event type in it, instead of the
Python work per record of version 1 (framing, a crc, a decode call): about 2.5x
faster, and 4 to 5 bytes an event smaller (no length and crc per record).  Reading,
torn tails and damage are as below, with a block for a record: a torn last block
loses the records it held (a writer that is killed loses at most the records it
had not written yet: :class:`LogWriter`), and the records after damage are
numbered as their blocks say.  The header's own crc makes a damaged header damage,
never a torn last block.

Reading
-------

* Bad magic: :class:`ForeignFileError`; a version byte newer than this reader:
  :class:`NewerVersionError`.
* Records are read in sequence, each crc chained from the one before.  The
  first record that fails (its length runs past the end of the file, its crc
  does not hold, or it cannot be decoded) is either a *torn tail* or *damage*.
* A **torn last record** is what a crash during an append leaves behind: the
  file ends inside the record (in its length, or before its crc), or its crc
  fails and it ends exactly at the end of the file, or the file ends in zero
  bytes -- and no intact record can be found after it (see below).  It is not an
  error: :func:`read_log` returns the intact prefix with ``torn=True`` and a
  :class:`LogProblem` (``strict=True`` raises :class:`TruncatedLogError`), and
  :func:`repair_log` cuts it off, after writing a copy of the file.
* Anything else is **damage**: :class:`CorruptLogError`, naming the record
  number, its byte offset and what was expected and found.  A log is never
  silently half loaded.  With ``salvage=True`` the log is returned instead, its
  :attr:`LogFile.breaks` holding each place where the damage breaks the
  sequence and the records that could be read after it (the exception's
  ``log`` holds the same).  :func:`repair_log` never cuts damage: the records
  after it stay in the file.
* A record whose tag is not a known event type, or whose stored schema version
  is newer than the event class (or older, with no :func:`register_upcaster`
  chain up to the current version), is kept as an :class:`UnknownEvent`
  holding its raw bytes, and reported as a :class:`LogProblem`.  Written back
  out, an :class:`UnknownEvent` is stored under its original tag and version.

Finding intact records after damage
-----------------------------------

After the record that failed (record ``k``, starting at byte ``s``), the
reader looks for the first offset ``p > s`` where a record starts whose own
checksum holds.  The crc of record ``j`` is ``crc32(payload_j, crc_{j-1})``,
and ``crc_{j-1}`` is stored in the 4 bytes just before record ``j``; so a
record can be checked on its own: at ``p``, read a length, take the payload
and the crc after it, and check ``crc32(payload, u32(bytes p-4..p)) == crc``.
A record that holds there is one a writer wrote after the record whose crc
precedes it (a random match has odds of 2**-32).  From ``p`` on, records are
read in sequence again, chained as usual; a further failure starts the same
search again.

* If the length of record ``k`` is intact but its payload is not, the search
  finds record ``k + 1`` exactly where record ``k`` ends: one record is lost
  and the records after it keep their numbers.  If only record ``k``'s stored
  crc is damaged, the next record's crc, chained from the crc computed over
  record ``k``'s payload, confirms that payload: nothing is lost.  Otherwise
  the number of records the damaged bytes held is unknown; the records after
  it are numbered as if it were one (:attr:`LogBreak.exact` is false).
* The search is one pass over the bytes, linear in the file's size: at each
  offset a few byte tests -- a length that fits in the file, a tag index inside
  the event table, a cause delta of at least 1, a msgpack array where the event
  starts (every record that can be decoded passes them) -- decide whether a
  crc is computed at all.  Payloads up to 4 KiB are checked as they are met;
  longer ones (rare: a real log's records are 8 to 200 bytes) are checked
  afterwards, in order (those before the first short record that holds).
  Each search goes on from where the last one stopped, and all of them
  together spend at most 64 bytes of crc work per byte of the file (plus
  16 MiB), so a file damaged in many places is still read in linear time;
  past that the search gives up, which counts as damage, never as a torn
  tail.
* A failure with nothing readable after it is a torn tail only if it looks
  like one (above); otherwise (e.g. a crc mismatch with bytes after the record
  that hold no intact record) it is damage too.  So :func:`repair_log` never
  removes a record whose checksum holds.

JSON Lines format
=================

The first line is ``{"header": {...}}`` (the :class:`LogHeader` fields), then
one line per event::

    {"seq": 0, "cause": -1, "type": "Tapped", "v": 1, "event": {"obj": 42}}

``event`` maps field names to values; an event whose type the writer did not
know (an :class:`UnknownEvent`) is written as a list of field values.  A last
line that is cut short (no newline, not valid JSON) counts as torn, like a
torn binary record.  A header with a newer ``format`` than this reader's is a
:class:`NewerVersionError`; integers outside what a binary log can store
(``-2**63`` to ``2**64-1``) and JSON nested too deep to decode are damage.
Lines have no checksums: after a bad line, a salvaging read keeps the later
lines that read as the record their ``seq`` says.

Example
-------

>>> import os, tempfile
>>> from mtgk.log.events import DecisionMade, Tapped
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

import gc
import io
import os
import re
import struct
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from operator import itemgetter, length_hint, sub
from types import TracebackType
from typing import IO, Annotated, Any, Final, TypeAlias

import msgspec
from mypy_extensions import mypyc_attr

from mtgk.log.events import EVENT_TYPES, UNLISTED_UNLESS_USED, Envelope, Event
from mtgk.log.structs import FORMAT_VERSION, LogHeader, UnknownEvent

__all__ = [
    "FORMAT_VERSION",
    "BLOCK_RECORDS",
    "MAGIC",
    "STREAM_BLOCK_RECORDS",
    "CorruptLogError",
    "ForeignFileError",
    "LogError",
    "LogFile",
    "LogHeader",
    "LogBreak",
    "LogProblem",
    "LogWriter",
    "NewerVersionError",
    "Repair",
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


_PREAMBLE_SIZE: Final = len(MAGIC) + 1 + 4
_MAX_VARINT_BYTES: Final = 9

StrPath: TypeAlias = "str | os.PathLike[str]"
Upcaster: TypeAlias = Callable[[list[Any]], list[Any]]

WRITABLE_VERSIONS: Final = (1, 2)
"""The binary format versions this module writes (:data:`FORMAT_VERSION`, the newest, by
default; version 1 to continue a log of that version, :meth:`LogWriter.reopen`)."""

BLOCK_RECORDS: Final = 1024
"""How many records :func:`write_log` and :func:`encode_log` put in a block of format 2
(the last one may hold fewer): fewer blocks read faster."""

STREAM_BLOCK_RECORDS: Final = 256
"""How many records a :class:`LogWriter` keeps before it writes them as a block of
format 2 (by default): a process killed while it writes a log loses at most the records
not yet written."""

_u32 = struct.Struct("<I")
_VARINT1: Final = [bytes((i,)) for i in range(128)]


# --------------------------------------------------------------------------
# Header, unknown events, problems, errors


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


def _exc_text(exc: BaseException, limit: int = 200) -> str:
    """An exception's message, at most ``limit`` characters."""
    text = str(exc) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


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


def _header_bytes(header: LogHeader, version: int = FORMAT_VERSION) -> bytes:
    if header.format != version:
        header = msgspec.structs.replace(header, format=version)
    tags = [tag for tag, _ in header.events]
    if len(set(tags)) != len(tags):
        raise ValueError("the header's event table names a tag twice")
    return msgspec.msgpack.encode(header)


def _array_header(n: int) -> bytes:
    """The msgpack header of an array of ``n`` items.

    >>> _array_header(3), _array_header(300)
    (b'\\x93', b'\\xdc\\x01,')
    """
    if n < 16:
        return bytes((0x90 | n,))
    if n < 0x10000:
        return b"\xdc" + n.to_bytes(2, "big")
    return b"\xdd" + n.to_bytes(4, "big")


class _RecordEncoder:
    """Turns envelopes into records (format 1) or blocks of records (format 2), tracking
    seq and the crc chain."""

    def __init__(self, header: LogHeader, version: int = FORMAT_VERSION) -> None:
        if version not in WRITABLE_VERSIONS:
            raise ValueError(f"cannot write file format version {version} (only "
                             f"{', '.join(map(str, WRITABLE_VERSIONS))})")
        self.version = version
        self.header_bytes = _header_bytes(header, version)
        self.preamble = (
            MAGIC + bytes((version,)) + _u32.pack(len(self.header_bytes)) + self.header_bytes
        )
        self.crc = zlib.crc32(self.header_bytes)
        if version >= 2:
            self.preamble += _u32.pack(self.crc)
        self.index = {tag: (i, v) for i, (tag, v) in enumerate(header.events)}
        self.seq = 0
        self._encode = msgspec.msgpack.Encoder().encode

    def _body(self, env: Envelope, seq: int) -> tuple[int, bytes]:
        """The tag index and msgpack fields of ``env``, the record number ``seq`` (checked)."""
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
        return entry[0], body

    def encode(self, env: Envelope) -> bytes:
        """One record of format 1."""
        seq = self.seq
        index, body = self._body(env, seq)
        payload = _varint(index) + _varint(seq - env.cause) + body
        self.crc = crc = zlib.crc32(payload, self.crc)
        self.seq = seq + 1
        return _varint(len(payload)) + payload + _u32.pack(crc)

    def part(self, env: Envelope, seq: int) -> tuple[int, int, bytes]:
        """What a block keeps of ``env``, the record number ``seq`` (checked): its tag
        index, cause delta and msgpack fields."""
        index, body = self._body(env, seq)
        return index, seq - env.cause, body

    def block(self, parts: Sequence[tuple[int, int, bytes]]) -> bytes:
        """One block of format 2 holding ``parts`` (at least one; :meth:`part` of the
        envelopes numbered from :attr:`seq` on)."""
        if not parts:
            raise ValueError("a block holds at least one record")
        tags = [t for t, _, _ in parts]
        deltas = [d for _, d, _ in parts]
        groups: dict[int, list[bytes]] = {}
        for t, _, body in parts:
            group = groups.get(t)
            if group is None:
                groups[t] = [body]
            else:
                group.append(body)
        raws = [(t, msgspec.Raw(_array_header(len(g)) + b"".join(g))) for t, g in groups.items()]
        payload = self._encode((self.seq, tags, deltas, raws))
        self.crc = crc = zlib.crc32(payload, self.crc)
        self.seq += len(parts)
        return _varint(len(payload)) + payload + _u32.pack(crc)

    def encode_block(self, envs: Sequence[Envelope]) -> bytes:
        """One block of format 2 holding ``envs`` (at least one)."""
        seq = self.seq
        return self.block([self.part(env, seq + i) for i, env in enumerate(envs)])

    def encode_all(self, envs: Sequence[Envelope], block: int = BLOCK_RECORDS) -> list[bytes]:
        """The records (format 1) or blocks of ``block`` records (format 2) of ``envs``."""
        if self.version == 1:
            return [self.encode(env) for env in envs]
        return [self.encode_block(envs[i:i + block]) for i in range(0, len(envs), block)]


# --------------------------------------------------------------------------
# Writing


@mypyc_attr(native_class=False)  # mypyc: reopen() makes one with cls.__new__
class LogWriter:
    """Append envelopes to a new binary log, crash-safe one block at a time.

    The header is written when the writer is created (an existing file at
    ``path`` is replaced).  In format 2 (the default) appended envelopes are kept
    until ``block`` of them (:data:`STREAM_BLOCK_RECORDS`) are there, then written as one
    block with a single ``write`` and flushed (and synced with ``os.fsync``
    if ``fsync=True``); :meth:`flush` and :meth:`close` write the ones kept so far as a
    shorter block.  A process killed in between loses the envelopes not yet written,
    at most ``block - 1``, or those since the last :meth:`checkpoint`; a crash during a write leaves at worst a torn last block,
    which :func:`read_log` reports and :func:`repair_log` removes.  ``block=1``
    writes every envelope at once (larger files: about 14 bytes a record more).
    In format 1 (``version=1``) every :meth:`append` writes its record at once.
    Use :meth:`reopen` to continue a log (in its own format).
    """

    def __init__(self, path: StrPath, header: LogHeader, *, fsync: bool = False,
                 version: int = FORMAT_VERSION, block: int = STREAM_BLOCK_RECORDS) -> None:
        if block < 1:
            raise ValueError(f"a block holds at least one record, not {block}")
        self.path = os.fspath(path)
        self.header = header
        self.fsync = fsync
        self.block = block
        self._enc = _RecordEncoder(header, version)
        self._kept: list[tuple[int, int, bytes]] = []
        self._fp: IO[bytes] | None = open(self.path, "wb")
        self._offset = 0
        self._open = 0  # the length of the open block on the file (:meth:`checkpoint`)
        self._write(self._enc.preamble)

    @classmethod
    def reopen(cls, path: StrPath, *, fsync: bool = False, block: int = STREAM_BLOCK_RECORDS
               ) -> LogWriter:
        """Continue appending to an existing binary log, in the file's format version.

        The log must read cleanly: a torn tail raises :class:`TruncatedLogError`
        (call :func:`repair_log` first); unknown events are fine.
        """
        p = os.fspath(path)
        fp = open(p, "r+b")
        try:
            data = fp.read()
            log, crc = _scan_log(data, p, strict=True)
            _checked(log, p, strict=True, salvage=False)
            fp.seek(0, os.SEEK_END)
        except BaseException:
            fp.close()
            raise
        w = cls.__new__(cls)
        w.path = p
        w.header = log.header
        w.fsync = fsync
        w.block = block
        w._enc = _RecordEncoder(log.header, log.header.format)
        w._enc.crc = crc
        w._enc.seq = len(log)
        w._kept = []
        w._fp = fp
        w._offset = len(data)
        w._open = 0
        return w

    @property
    def next_seq(self) -> int:
        """The ``seq`` the next appended envelope must have."""
        return self._enc.seq + len(self._kept)

    def _write(self, data: bytes) -> None:
        fp = self._fp
        if fp is None:
            raise ValueError("the log writer is closed")
        if self._open:  # the open block is on the file: the closed one takes its place
            fp.seek(self._offset)
            self._open = 0
        fp.write(data)
        fp.flush()
        if self.fsync:
            os.fsync(fp.fileno())
        self._offset += len(data)

    def checkpoint(self) -> None:
        """Put every envelope appended so far on the file, leaving the block open (format
        2): the envelopes kept are written as a block where the next block starts, and
        later envelopes grow that block, written over itself in one ``write`` (it only
        grows), until it is full.  Call it where losing the envelopes since would hurt
        -- at each decision of a game, so that a process killed at any moment loses at
        most the events since the last decision -- with the file's blocks still
        ``block`` records long.  (In format 1 every envelope is on the file already.)"""
        fp = self._fp
        if fp is None:
            raise ValueError("the log writer is closed")
        if not self._kept:
            return
        enc = self._enc
        seq, crc = enc.seq, enc.crc
        data = enc.block(self._kept)
        enc.seq, enc.crc = seq, crc  # the block stays open
        if self._open:
            fp.seek(self._offset)
        fp.write(data)
        fp.flush()
        if self.fsync:
            os.fsync(fp.fileno())
        self._open = len(data)

    def append(self, env: Envelope) -> int:
        """Append one envelope; returns the byte offset its record (format 1) or the
        block it goes in (format 2) starts at.

        Raises :class:`ValueError` if ``env.seq`` is not :attr:`next_seq` (a
        gap or a double append), if its cause is not ``-1`` or an earlier seq,
        or if its event type is not in the header's event table.  (In format 2 the
        envelope is checked as it is appended, and written with its block.)
        """
        if self._fp is None:
            raise ValueError("the log writer is closed")
        offset = self._offset
        enc = self._enc
        if enc.version == 1:
            self._write(enc.encode(env))
            return offset
        kept = self._kept
        kept.append(enc.part(env, enc.seq + len(kept)))
        if len(kept) >= self.block:
            self._write_kept()
        return offset

    def _write_kept(self) -> None:
        """Write the envelopes kept so far as one block (format 2)."""
        if self._kept:
            block = self._enc.block(self._kept)
            self._kept = []
            self._write(block)

    def extend(self, envelopes: Iterable[Envelope]) -> None:
        """Append several envelopes."""
        for env in envelopes:
            self.append(env)

    def flush(self) -> None:
        """Write the envelopes kept so far (a block of them) and flush buffers (this also
        fsyncs if asked to)."""
        if self._fp is not None:
            self._write_kept()
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
    """Add the tags of UnknownEvents missing from the header's event table, and of the
    event types a table lists only when used (:data:`~mtgk.log.events.UNLISTED_UNLESS_USED`)."""
    table = dict(header.events)
    extra: dict[str, int] = {}
    for env in envelopes:
        ev = env.event
        if ev.TAG in UNLISTED_UNLESS_USED and ev.TAG not in table:
            extra[ev.TAG] = ev.VERSION
        elif isinstance(ev, UnknownEvent) and ev.tag not in table:
            if extra.setdefault(ev.tag, ev.version) != ev.version:
                raise ValueError(
                    f"unknown event {ev.tag!r} occurs at versions {extra[ev.tag]} and "
                    f"{ev.version}; one log stores one version per tag"
                )
    if not extra:
        return header
    return msgspec.structs.replace(header, events=sorted([*header.events, *extra.items()]))


def write_log(path: StrPath, header: LogHeader, envelopes: Iterable[Envelope], *,
              version: int = FORMAT_VERSION) -> int:
    """Write a whole binary log at once (in file format ``version``); returns its size in
    bytes.

    The file is written under a temporary name and then renamed over ``path``,
    so ``path`` never holds a half-written log.  Tags of
    :class:`UnknownEvent`\\ s missing from the header's event table are added.
    """
    data = encode_log(header, envelopes, version=version)
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


def encode_log(header: LogHeader, envelopes: Iterable[Envelope], *,
               version: int = FORMAT_VERSION) -> bytes:
    """A whole binary log as bytes (what :func:`write_log` writes), e.g. to store elsewhere."""
    envs = envelopes if isinstance(envelopes, Sequence) else list(envelopes)
    enc = _RecordEncoder(_with_unknown_tags(header, envs), version)
    return b"".join([enc.preamble, *enc.encode_all(envs)])


# --------------------------------------------------------------------------
# Reading


_TORN_KINDS: Final = frozenset({"length-eof", "past-eof", "crc"})
"""Failures a crash during an append can leave in the last record."""

_ARRAY_MARKERS: Final = bytes(i in range(0x90, 0xA0) or i in (0xDC, 0xDD) for i in range(256))
"""``_ARRAY_MARKERS[b]`` is 1 if ``b`` starts a msgpack array (every event is one)."""

_NONZERO: Final = re.compile(rb"[^\x00]")

_MIN_RECORD: Final = 8
"""The smallest possible record: 1 length byte, a 3-byte payload, a 4-byte crc."""

_SMALL_RECORD: Final = 4096
"""Payloads up to this size are checked at once when looking for intact records."""

_MIN_BLOCK: Final = 8
"""The smallest possible block payload (format 2): ``[first, [tag], [delta], [group]]``."""

_BLOCK_HEAD: Final = msgspec.msgpack.Decoder(
    tuple[int, list[Annotated[int, msgspec.Meta(ge=0)]], list[Annotated[int, msgspec.Meta(ge=1)]],
          list[tuple[int, msgspec.Raw]]]).decode
"""Decodes a block's payload: first record number, tag indexes, cause deltas and the
groups, each ``(tag index, the group's events as raw msgpack)``."""

_RAW_LIST: Final = msgspec.msgpack.Decoder(list[msgspec.Raw]).decode


def _msgpack_uint(data: bytes, pos: int, end: int) -> tuple[int, int]:
    """The unsigned msgpack integer at ``pos`` (before ``end``) and the offset after it;
    ``(-1, pos)`` if there is none.

    >>> _msgpack_uint(b"\\x07", 0, 1), _msgpack_uint(b"\\xcd\\x01\\x00", 0, 3)
    ((7, 1), (256, 3))
    """
    b = data[pos]
    if b < 0x80:
        return b, pos + 1
    size = {0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8}.get(b, 0)
    if not size or pos + 1 + size > end:
        return -1, pos
    return int.from_bytes(data[pos + 1:pos + 1 + size], "big"), pos + 1 + size


@dataclass(slots=True)
class _Fail:
    """Internal: where and why reading records in sequence stopped."""

    start: int  # the record's first byte
    seq: int  # its record number
    kind: str  # "length-eof", "long-length", "past-eof", "crc" or "undecodable"
    detail: str  # what was expected, what was found
    end: int = -1  # the byte after the record (its crc included), if its length is known
    computed: int = 0  # kind "crc": the crc computed over its payload
    claimed_end: int = 0  # kind "past-eof": where its length says it ends
    body: int = 0  # kinds "crc" and "undecodable": where its payload starts


class _Undecodable(Exception):
    """Internal: a record whose crc holds cannot be decoded (a writer bug)."""


_GROUP_DECODERS: dict[type[Event], Callable[[Any], list[Any]]] = {}
"""A decoder of a block's group of events, for each event class met so far."""


def _group_sizes(table: list[tuple[str, int]], tags: list[int],
                 groups: list[tuple[int, msgspec.Raw]]) -> str:
    """What is wrong with a block whose groups do not hold as many events as its tags say
    (the detail of its :class:`_Undecodable`)."""
    held = {t: len(_RAW_LIST(raw)) for t, raw in groups}
    for t in dict.fromkeys(tags):
        if t not in held:
            return f"expected a group of {table[t][0]} events (the block's tags name it), found none"
        if held[t] != tags.count(t):
            return (f"expected {tags.count(t)} {table[t][0]} events (as the block's tags "
                    f"say), found {held[t]}")
    return "expected no group for a type that the block's tags do not name"


class _Reader:
    """Decodes the records of one binary log held in memory."""

    def __init__(self, data: bytes, path: str | None, strict: bool) -> None:
        self.data = data
        self.path = path
        self.strict = strict
        self.problems: list[LogProblem] = []
        #: bytes of crc work the searches for intact records after damage may still do
        #: (all of them together, so that a file damaged in many places stays linear)
        self.crc_budget = 64 * len(data) + (16 << 20)
        self._group_decoders: list[Callable[[Any], list[Any]] | None] | None = None

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
        hcrc = zlib.crc32(hbytes)
        if version >= 2:  # the header's own crc follows it
            if hend + 4 > n:
                raise self.error(
                    TruncatedLogError,
                    f"expected the header's 4-byte crc at byte {hend}, the file ends after "
                    f"{n - hend} bytes", n)
            stored = _u32.unpack_from(data, hend)[0]
            if stored != hcrc:
                raise self.error(
                    CorruptLogError,
                    f"header crc mismatch: expected 0x{hcrc:08x} (computed from the header "
                    f"bytes {_PREAMBLE_SIZE}..{hend}), found 0x{stored:08x} (stored at byte "
                    f"{hend})", _PREAMBLE_SIZE)
            hend += 4
        try:
            header = msgspec.msgpack.decode(hbytes, type=LogHeader)
        except (msgspec.DecodeError, RecursionError) as exc:
            raise self.error(
                CorruptLogError,
                f"expected a msgpack LogHeader, decoding failed: {_exc_text(exc)}",
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
        return header, hend, hcrc

    # -- records

    def read_records(
        self, header: LogHeader, pos: int, crc: int, seq: int, lenient: bool = False
    ) -> tuple[list[Envelope], int, int, _Fail | None]:
        """Decode records in sequence from ``pos`` (record number ``seq``, chaining from
        ``crc``) until the end of the file or the first record that fails.

        Returns (envelopes, where reading stopped, the crc of the last record read,
        the failure or ``None``).  ``lenient``: the record numbers are a guess (after
        damage), so a cause further back than the guess allows is read as no cause.
        """
        events, causes, pos, crc, fail = self.read_events(header, pos, crc, seq, lenient)
        return list(map(Envelope, range(seq, seq + len(events)), causes, events)), pos, crc, fail

    def read_events(
        self, header: LogHeader, pos: int, crc: int, seq: int, lenient: bool = False
    ) -> tuple[list[Event], list[int], int, int, _Fail | None]:
        """:meth:`read_records`, returning the events and their causes as two lists
        (the reading of a whole log makes no envelope)."""
        data = self.data
        n = len(data)
        table = header.events
        # One decode function per one-byte tag index (indexes 0..127, the rest None);
        # None where the slow path must decide (an unknown tag, another version).
        decoders: list[Callable[[Any], Any] | None] = [None] * 256
        for i, (tag, version) in enumerate(table[:0x80]):
            cls = EVENT_TYPES.get(tag)
            if cls is not None and cls.VERSION == version:
                decoders[i] = msgspec.msgpack.Decoder(cls).decode
        events: list[Event] = []
        causes: list[int] = []
        append = events.append
        cause = causes.append
        crc32 = zlib.crc32
        unpack_u32 = _u32.unpack_from
        decode_errors = (msgspec.DecodeError, RecursionError)
        first = seq
        while pos < n:
            start = pos
            length = data[pos]
            if length < 0x80:
                pos += 1
            else:
                length, pos = _read_varint(data, start, n)
                if length == -1:
                    return events, causes, start, crc, _Fail(
                        start, seq, "length-eof", "the file ends inside the record length")
                if length < 0:
                    return events, causes, start, crc, _Fail(
                        start, seq, "long-length",
                        "expected a record length varint of at most 9 bytes, found more")
            end = pos + length
            if end + 4 > n:
                return events, causes, start, crc, _Fail(
                    start, seq, "past-eof",
                    f"expected {length} payload bytes and a 4-byte crc, the file ends "
                    f"{n - pos} bytes after the record length", claimed_end=end + 4)
            new_crc = crc32(data[pos:end], crc)
            if new_crc != unpack_u32(data, end)[0]:
                return events, causes, start, crc, _Fail(
                    start, seq, "crc",
                    f"crc mismatch: expected 0x{new_crc:08x} (computed from the "
                    f"{'header and ' if seq == 0 else ''}payload bytes {pos}..{end}), "
                    f"found 0x{unpack_u32(data, end)[0]:08x} (stored at byte {end})",
                    end + 4, new_crc, body=pos)
            # the fast path: a one-byte tag index, a cause delta of one or two bytes
            # (bytes read past a short payload are its crc's, still inside the file;
            # ``body < end`` then sends the record to the slow path)
            dec = decoders[data[pos]]
            delta = data[pos + 1]
            body = pos + 2
            if delta >= 0x80:
                if data[pos + 2] < 0x80:
                    delta = (delta & 0x7F) | (data[pos + 2] << 7)
                    body = pos + 3
                else:  # a longer varint (a cause 16384 or more events back)
                    dec = None
            if dec is not None and body < end and 0 < delta <= seq + 1:
                try:
                    ev = dec(data[body:end])
                except decode_errors as exc:
                    return events, causes, start, crc, _Fail(
                        start, seq, "undecodable",
                        f"expected a {table[data[pos]][0]} event, decoding failed: "
                        f"{_exc_text(exc)}", end + 4, new_crc, body=pos)
                append(ev)
                cause(seq - delta)
            else:
                try:
                    env = self.slow_record(header, start, pos, end, seq, lenient)
                except _Undecodable as exc:
                    return events, causes, start, crc, _Fail(
                        start, seq, "undecodable", str(exc), end + 4, new_crc, body=pos)
                append(env.event)
                cause(env.cause)
            crc = new_crc
            seq += 1
            pos = end + 4
        assert seq - first == len(events)
        return events, causes, pos, crc, None

    # -- format 2: blocks of records

    def group_decoders(self, header: LogHeader) -> list[Callable[[Any], list[Any]] | None]:
        """One decode function per tag index of the event table, for a block's group of
        events of that type; ``None`` where the slow path must decide (an unknown tag,
        another version)."""
        decoders = self._group_decoders
        if decoders is None:
            decoders = self._group_decoders = []
            made = _GROUP_DECODERS  # (made once per event class: a log's table names some
            # sixty types, and a game's log is read in a millisecond)
            for tag, version in header.events:
                cls = EVENT_TYPES.get(tag)
                if cls is None or cls.VERSION != version:
                    decoders.append(None)
                    continue
                dec = made.get(cls)
                if dec is None:
                    dec = made[cls] = msgspec.msgpack.Decoder(list[cls]).decode  # type: ignore[valid-type]
                decoders.append(dec)
        return decoders

    def read_blocks(
        self, header: LogHeader, pos: int, crc: int, seq: int, adopt: bool = False
    ) -> tuple[int, list[Event], list[int], int, int, _Fail | None]:
        """Format 2: decode blocks in sequence from ``pos`` (record number ``seq``,
        chaining from ``crc``) until the end of the file or the first block that fails.

        Returns (the number of the first record read, the events, their causes, where
        reading stopped, the crc of the last block read, the failure or ``None``).
        ``adopt`` (reading on after damage): the first block's own first record number,
        ``seq`` or more, is taken for it.
        """
        data = self.data
        n = len(data)
        decoders = self.group_decoders(header)
        events: list[Event] = []
        causes: list[int] = []
        crc32 = zlib.crc32
        unpack_u32 = _u32.unpack_from
        first = seq
        while pos < n:
            start = pos
            length = data[pos]
            if length < 0x80:
                pos += 1
            else:
                length, pos = _read_varint(data, start, n)
                if length == -1:
                    return first, events, causes, start, crc, _Fail(
                        start, seq, "length-eof", "the file ends inside the block length")
                if length < 0:
                    return first, events, causes, start, crc, _Fail(
                        start, seq, "long-length",
                        "expected a block length varint of at most 9 bytes, found more")
            end = pos + length
            if end + 4 > n:
                return first, events, causes, start, crc, _Fail(
                    start, seq, "past-eof",
                    f"expected a block of {length} payload bytes and a 4-byte crc, the file "
                    f"ends {n - pos} bytes after the block length", claimed_end=end + 4)
            payload = data[pos:end]
            new_crc = crc32(payload, crc)
            if new_crc != unpack_u32(data, end)[0]:
                return first, events, causes, start, crc, _Fail(
                    start, seq, "crc",
                    f"crc mismatch: expected 0x{new_crc:08x} (computed from the "
                    f"{'header and ' if seq == 0 else ''}block's payload bytes {pos}..{end}), "
                    f"found 0x{unpack_u32(data, end)[0]:08x} (stored at byte {end})",
                    end + 4, new_crc, body=pos)
            try:
                at, evs, cs = self.decode_block(header, payload, start, seq, decoders, adopt)
            except _Undecodable as exc:
                return first, events, causes, start, crc, _Fail(
                    start, seq, "undecodable", str(exc), end + 4, new_crc, body=pos)
            if adopt:
                first = at
                adopt = False
            events.extend(evs)
            causes.extend(cs)
            seq = at + len(evs)
            crc = new_crc
            pos = end + 4
        return first, events, causes, pos, crc, None

    def decode_block(self, header: LogHeader, payload: bytes, start: int, seq: int,
                     decoders: list[Callable[[Any], list[Any]] | None], adopt: bool = False
                     ) -> tuple[int, list[Event], list[int]]:
        """The records of one block whose crc holds: (its first record number, the events,
        their causes).  It must start at record ``seq`` (``adopt``: at ``seq`` or later).

        Raises :class:`_Undecodable` if it cannot be decoded (a writer bug).
        """
        try:
            first, tags, deltas, groups = _BLOCK_HEAD(payload)
        except (msgspec.DecodeError, RecursionError) as exc:
            raise _Undecodable("expected a block (an array of the first record number, tags, "
                               f"cause deltas and groups), decoding failed: {_exc_text(exc)}"
                               ) from None
        if first != seq and not (adopt and first > seq):
            raise _Undecodable(f"expected a block starting at record {seq}"
                               f"{' or later' if adopt else ''}, found one starting at {first}")
        k = len(tags)
        if not k or len(deltas) != k:
            raise _Undecodable(f"expected as many cause deltas as tags (at least one), found "
                               f"{len(deltas)} and {k}")
        causes = list(map(sub, range(first, first + k), deltas))
        if min(causes) < -1:
            raise _Undecodable("expected cause deltas of at most the record number + 1, found "
                               f"{deltas[causes.index(min(causes))]}")
        size = len(decoders)
        table = header.events
        # one iterator per type, at its tag index; the events in order are the next of
        # the iterator at each record's tag
        its: list[Iterator[Event] | None] = [None] * size
        held: list[Iterator[Event]] = []
        for t, raw in groups:
            if not 0 <= t < size or its[t] is not None:
                raise _Undecodable(f"expected groups of events of distinct tag indexes below "
                                   f"{size} (the size of the event table), found {t}")
            dec = decoders[t]
            try:
                group = (dec(raw) if dec is not None
                         else self.slow_group(table[t], raw, start,
                                              [first + i for i, x in enumerate(tags) if x == t]))
            except (msgspec.DecodeError, RecursionError) as exc:
                raise _Undecodable(f"expected {table[t][0]} events, decoding failed: "
                                   f"{_exc_text(exc)}") from None
            its[t] = it = iter(group)
            held.append(it)
        # (a group too short ends the list early; a tag without a group: TypeError)
        try:
            events: list[Event] = list(map(next, itemgetter(*tags)(its) if k > 1  # type: ignore[arg-type]
                                           else [its[tags[0]]]))
        except (TypeError, IndexError):
            events = []
        if len(events) != k or any(map(length_hint, held)):
            raise _Undecodable(_group_sizes(table, tags, groups))
        return first, events, causes


    def slow_group(self, entry: tuple[str, int], raw: msgspec.Raw, start: int,
                   seqs: list[int]) -> list[Event]:
        """A block's group of events whose type the fast path did not handle (an unknown
        tag or another version): each upcast, or kept as an :class:`UnknownEvent`."""
        tag, version = entry
        raws = _RAW_LIST(raw)
        if len(raws) != len(seqs):
            raise _Undecodable(f"expected {len(seqs)} {tag} events (as the block's tags say), "
                               f"found {len(raws)}")
        out: list[Event] = []
        for seq, r in zip(seqs, raws, strict=True):
            body = bytes(r)
            values = msgspec.msgpack.decode(body)
            if not isinstance(values, list):
                raise _Undecodable(f"expected the fields of {tag!r} as a msgpack array, found "
                                   f"{type(values).__name__}")
            try:
                out.append(_resolve_values(tag, version, values))
            except _Unresolved as exc:
                self.problems.append(LogProblem(start, seq, exc.message, exc.kind))
                out.append(UnknownEvent(tag, version, body))
        return out

    def resync_blocks(self, lo: int, hi: int, min_seq: int, prev: int | None = None
                      ) -> int | None:
        """Format 2: the first offset ``p`` in ``lo <= p < hi`` where a block starts whose
        own checksum holds (chained from the 4 bytes before it, or from ``prev``) and whose
        first record is ``min_seq`` or later; ``None`` if there is none, ``-1`` if the
        search gave up (:attr:`crc_budget`, as :meth:`resync`).

        One pass over the bytes: a crc is computed only where a length that fits in the
        file is followed by a msgpack array of four, an unsigned integer from ``min_seq``
        to ``min_seq + size of the file / 3`` (a record takes at least three bytes) and
        a msgpack array: every block that can be decoded passes these tests.
        """
        data = self.data
        n = len(data)
        crc32 = zlib.crc32
        unpack_u32 = _u32.unpack_from
        markers = _ARRAY_MARKERS
        mv = memoryview(data)
        budget = self.crc_budget
        top = min_seq + n // 3
        p = lo
        hi = min(hi, n - _MIN_BLOCK - 4)
        while p < hi:
            b = data[p]
            if b < _MIN_BLOCK:  # too short for a block; skip runs of zero bytes at once
                if b == 0:
                    m = _NONZERO.search(data, p, hi)
                    if m is None:
                        break
                    p = m.start()
                else:
                    p += 1
                continue
            if b < 0x80:
                length, q = b, p + 1
            else:
                length, q = _read_varint(data, p, n)
                if length < _MIN_BLOCK:
                    p += 1
                    continue
            end = q + length
            if end + 4 > n or data[q] != 0x94:
                p += 1
                continue
            first, r = _msgpack_uint(data, q + 1, end)
            if not min_seq <= first <= top or r >= end or not markers[data[r]]:
                p += 1
                continue
            budget -= length
            if budget < 0:
                self.crc_budget = 0
                return -1
            before = prev if prev is not None else unpack_u32(data, p - 4)[0]
            if crc32(mv[q:end], before) == unpack_u32(data, end)[0]:
                self.crc_budget = budget
                return p
            p += 1
        self.crc_budget = budget
        return None

    def read_damaged_blocks(self, header: LogHeader, fail: _Fail, crc: int
                            ) -> tuple[list[LogBreak], _Fail | None]:
        """Format 2: :meth:`read_damaged` (the same rules, a block for a record).  The
        records after a break are numbered as their blocks say, so ``lost`` is known
        once a block is read after it."""
        data = self.data
        n = len(data)
        breaks: list[LogBreak] = []
        decoders = self.group_decoders(header)
        exact = True
        while True:
            start, seq = fail.start, fail.seq
            salvaged: list[Envelope] = []
            resume: int | None = None
            pos, chain = -1, 0
            gave_up = False
            if fail.kind == "undecodable":  # its crc holds: the chain goes on after it
                resume, pos, chain = fail.end, fail.end, fail.computed
            elif fail.kind == "crc" and fail.end < n and self.resync_blocks(
                    fail.end, fail.end + 1, seq, fail.computed) == fail.end:
                # only its stored crc is damaged: the next block's crc confirms its payload
                try:
                    at, evs, cs = self.decode_block(header, data[fail.body:fail.end - 4], start,
                                                    seq, decoders)
                    salvaged = list(map(Envelope, range(at, at + len(evs)), cs, evs))
                    resume = start
                except _Undecodable:
                    resume = fail.end
                pos, chain = fail.end, fail.computed
            else:
                found = self.resync_blocks(start + 1, n, seq)
                whole = self.whole_tail(start, crc if not breaks else None)
                if found is None and whole is None and (
                        (fail.kind in _TORN_KINDS and (fail.kind != "crc" or fail.end == n))
                        or not any(data[start:])):
                    return breaks, fail  # a torn tail: nothing readable after it
                if found is None and whole is not None:
                    fail.detail = self.whole_tail_detail(fail, whole, "block")
                gave_up = found == -1
                if found is not None and found >= 0:
                    resume = pos = found
                    chain = _u32.unpack_from(data, found - 4)[0]
            detail = self.damage_detail(fail, resume, gave_up)
            brk = LogBreak(seq, start, detail, resume, 0 if salvaged else None, salvaged, exact)
            breaks.append(brk)
            if resume is None:
                return breaks, None
            at, evs, cs, _, _, nxt = self.read_blocks(header, pos, chain, seq + len(salvaged),
                                                      adopt=True)
            if evs and not salvaged:
                brk.lost = at - seq
            elif not evs and not salvaged:
                exact = False  # nothing read after it: the next break's number is a guess
            salvaged.extend(map(Envelope, range(at, at + len(evs)), cs, evs))
            if nxt is None:
                return breaks, None
            fail = nxt

    def slow_record(self, header: LogHeader, start: int, pos: int, end: int, seq: int,
                    lenient: bool = False) -> Envelope:
        """Decode a record the fast path did not handle (crc already checked).

        Raises :class:`_Undecodable` if it cannot be decoded.
        """
        data = self.data
        table = header.events
        ti, p = _read_varint(data, pos, end)
        if ti < 0:
            raise _Undecodable("expected a tag index varint, the payload ends inside it")
        if ti >= len(table):
            raise _Undecodable(
                f"expected a tag index below {len(table)} (the size of the event table), "
                f"found {ti}")
        delta, p = _read_varint(data, p, end)
        if delta < 0:
            raise _Undecodable("expected a cause delta varint, the payload ends inside it")
        if delta < 1 or (delta > seq + 1 and not lenient):
            raise _Undecodable(f"expected a cause delta between 1 and {seq + 1}, found {delta}")
        if p >= end:
            raise _Undecodable("expected a msgpack event after the cause, found nothing")
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
                    raise _Undecodable(
                        f"expected the fields of {tag!r} as a msgpack array, found "
                        f"{type(values).__name__}")
                ev = _resolve_values(tag, version, values)
        except _Unresolved as exc:
            self.problems.append(LogProblem(start, seq, exc.message, exc.kind))
            ev = UnknownEvent(tag, version, raw)
        except (msgspec.DecodeError, RecursionError) as exc:
            raise _Undecodable(f"expected a {tag} event, decoding failed: {_exc_text(exc)}"
                               ) from None
        return Envelope(seq, max(seq - delta, -1), ev)

    # -- damage: telling a torn tail from damage, and finding intact records after it

    def record_holds(self, p: int, prev: int, table_size: int) -> bool:
        """Whether a record starts at ``p`` whose crc holds when chained from ``prev``."""
        return self.resync(p, p + 1, table_size, prev) == p

    def resync(self, lo: int, hi: int, table_size: int, prev: int | None = None
               ) -> int | None:
        """The first offset ``p`` in ``lo <= p < hi`` where a record starts whose own
        checksum holds: chained from the 4 bytes before it (the crc stored by the
        record before it), or from ``prev`` if given.  ``None`` if there is none;
        ``-1`` if the search gave up (all searches in one file together spend at most
        :attr:`crc_budget` bytes of crc work, 64 per byte of the file and 16 MiB).

        One pass over the bytes: at each offset a few byte tests (a length that fits
        in the file, a tag index inside the event table, a cause delta of at least 1,
        a msgpack array where the event starts: every record that can be decoded
        passes them) decide whether a crc is computed at all.  Short records are
        checked as they are met; long ones (few, in real logs) are checked at the
        end, those before the first short one that holds, in order.
        """
        data = self.data
        n = len(data)
        crc32 = zlib.crc32
        unpack_u32 = _u32.unpack_from
        markers = _ARRAY_MARKERS
        mv = memoryview(data)
        budget = self.crc_budget
        long: list[tuple[int, int, int]] = []  # (p, payload start, payload end)
        found: int | None = None
        p = lo
        hi = min(hi, n - _MIN_RECORD + 1)
        while p < hi:
            b = data[p]
            if b < 3:  # too short for a record; skip runs of zero bytes at once
                if b == 0:
                    m = _NONZERO.search(data, p, hi)
                    if m is None:
                        break
                    p = m.start()
                else:
                    p += 1
                continue
            if b < 0x80:
                length, q = b, p + 1
            else:
                length, q = _read_varint(data, p, n)
                if length < 3:
                    p += 1
                    continue
            end = q + length
            if end + 4 > n:
                p += 1
                continue
            t = data[q]
            if t < 0x80:
                r = q + 1
            else:
                t, r = _read_varint(data, q, end)
            if not 0 <= t < table_size or r >= end:
                p += 1
                continue
            d = data[r]
            if d == 0:
                p += 1
                continue
            if d < 0x80:
                r += 1
            else:
                d, r = _read_varint(data, r, end)
                if d < 1:
                    p += 1
                    continue
            if r >= end or not markers[data[r]]:
                p += 1
                continue
            if length > _SMALL_RECORD:
                long.append((p, q, end))
                p += 1
                continue
            budget -= length
            if budget < 0:
                self.crc_budget = 0
                return -1
            before = prev if prev is not None else unpack_u32(data, p - 4)[0]
            if crc32(mv[q:end], before) == unpack_u32(data, end)[0]:
                found = p
                break
            p += 1
        for p, q, end in long:
            if found is not None and p > found:
                break
            budget -= end - q
            if budget < 0:
                self.crc_budget = 0
                return found if found is not None else -1
            before = prev if prev is not None else unpack_u32(data, p - 4)[0]
            if crc32(mv[q:end], before) == unpack_u32(data, end)[0]:
                self.crc_budget = budget
                return p
        self.crc_budget = budget
        return found

    def read_damaged(self, header: LogHeader, fail: _Fail, crc: int
                     ) -> tuple[list[LogBreak], _Fail | None]:
        """Read on after the first failure ``fail`` (``crc``: the crc of the record
        before it), as the module docs describe.

        Returns the breaks (each with the records read after it) and the torn tail
        (a last failure with nothing readable after it, which a crash can leave), if any.
        """
        data = self.data
        n = len(data)
        table_size = len(header.events)
        breaks: list[LogBreak] = []
        seq = fail.seq
        exact = True
        while True:
            start = fail.start
            salvaged: list[Envelope] = []
            resume: int | None = None
            lost: int | None = None
            chain = 0
            gave_up = False
            if fail.kind == "undecodable":  # its crc holds: the chain goes on after it
                resume, lost, chain = fail.end, 1, fail.computed
            elif fail.kind == "crc" and fail.end < n and self.record_holds(
                    fail.end, fail.computed, table_size):
                # only its stored crc is damaged: the next record's crc confirms its payload
                try:
                    salvaged.append(self.slow_record(header, start, fail.body, fail.end - 4,
                                                     seq, not exact))
                    resume, lost = start, 0
                except _Undecodable:
                    resume, lost = fail.end, 1
                chain = fail.computed
            else:
                found = self.resync(start + 1, n, table_size)
                whole = self.whole_tail(start, crc if not breaks else None)
                if found is None and whole is None and (
                        (fail.kind in _TORN_KINDS and (fail.kind != "crc" or fail.end == n))
                        or not any(data[start:])):
                    return breaks, fail  # a torn tail: nothing readable after it
                if found is None and whole is not None:
                    fail.detail = self.whole_tail_detail(fail, whole, "record")
                gave_up = found == -1
                if found is not None and found >= 0:
                    resume, chain = found, _u32.unpack_from(data, found - 4)[0]
                    lost = 1 if found == fail.end else None
            exact = exact and lost is not None
            detail = self.damage_detail(fail, resume, gave_up)
            breaks.append(LogBreak(seq, start, detail, resume, lost, salvaged, exact))
            if resume is None:
                return breaks, None
            seq += 1 if lost is None else lost
            seq += len(salvaged)
            pos = fail.end if lost == 0 else resume
            envs, _, _, nxt = self.read_records(header, pos, chain, seq, not exact)
            salvaged.extend(envs)
            seq += len(envs)
            if nxt is None:
                return breaks, None
            fail = nxt

    def whole_tail(self, start: int, prev: int | None) -> int | None:
        """Whether the bytes from ``start`` to the end of the file are one whole record or
        block -- a length, a payload and a crc that holds for it (chained from ``prev``, or
        from the 4 bytes before ``start``) -- whatever its stored length says: the file was
        then written completely, and a failure there is damaged length bytes, not a torn
        tail.  Returns the payload's length, or ``None``."""
        data = self.data
        n = len(data)
        if prev is None:
            if start < 4:
                return None
            prev = _u32.unpack_from(data, start - 4)[0]
        if n - start < 6:
            return None
        stored = _u32.unpack_from(data, n - 4)[0]
        mv = memoryview(data)
        for k in range(1, 10):  # the length varint's size
            if n - start - k - 4 < 1:
                break
            if zlib.crc32(mv[start + k:n - 4], prev) == stored:
                return n - start - k - 4
        return None

    @staticmethod
    def whole_tail_detail(fail: _Fail, payload: int, unit: str) -> str:
        return (f"damaged {unit} length: the file was written completely (the bytes from "
                f"the {unit}'s start to the end of the file are one {unit} of {payload} "
                f"payload bytes whose crc holds), but its length bytes are damaged "
                f"({fail.detail})")

    def damage_detail(self, fail: _Fail, resume: int | None, gave_up: bool) -> str:
        """What was expected and found at a break, and where reading resumed."""
        n = len(self.data)
        if fail.kind == "past-eof" and resume is not None:
            detail = (f"damaged record length: expected the record to end at byte {resume} "
                      "(where the next intact record starts), found a length that makes it "
                      f"end at byte {fail.claimed_end}, past the end of the file ({n} bytes)")
        else:
            detail = fail.detail
        if gave_up:
            detail += ("; the search for intact records after it gave up (too much crc work "
                       "for the size of the file)")
        return detail


def read_log(path: StrPath, *, strict: bool = False, salvage: bool = False) -> LogFile:
    """Read a binary log.

    A torn last record is dropped and reported (``torn=True`` and a
    :class:`LogProblem`), or raises :class:`TruncatedLogError` if ``strict``.
    Damage anywhere else raises :class:`CorruptLogError` (its ``log`` holds what
    could be read), unless ``salvage``: then the log is returned with the damage
    in :attr:`LogFile.breaks`.  See the module docs.
    """
    p = os.fspath(path)
    with open(p, "rb") as fp:
        data = fp.read()
    return _read_log_bytes(data, p, strict, salvage)


def _scan_log(data: bytes, path: str | None, strict: bool) -> tuple[LogFile, int]:
    """Decode a binary log: the log (with any damage in ``breaks``) and the crc its
    last intact record in sequence ends with.

    Without garbage collection meanwhile: decoding makes no reference cycles, and
    collecting while the events and their lists are made only walks them again and
    again."""
    if not gc.isenabled():
        return _scan(data, path, strict)
    gc.disable()
    try:
        return _scan(data, path, strict)
    finally:
        gc.enable()


def _scan(data: bytes, path: str | None, strict: bool) -> tuple[LogFile, int]:
    reader = _Reader(data, path, strict)
    header, pos, crc = reader.read_header()
    blocks = header.format >= 2
    if blocks:
        _, events, causes, pos, crc, fail = reader.read_blocks(header, pos, crc, 0)
    else:
        events, causes, pos, crc, fail = reader.read_events(header, pos, crc, 0)
    log = LogFile(header, None, reader.problems, False, pos, events=events, causes=causes)
    if fail is None:
        return log, crc
    log.intact_size = fail.start
    if blocks:
        log.breaks, torn = reader.read_damaged_blocks(header, fail, crc)
    else:
        log.breaks, torn = reader.read_damaged(header, fail, crc)
    if torn is not None:
        n = len(data)
        detail = torn.detail
        unit = "block" if blocks else "record"
        if not any(data[torn.start:]):
            detail = f"the file ends in {n - torn.start} zero bytes instead of a {unit}"
        message = f"torn last {unit} ({n - torn.start} bytes dropped): {detail}"
        log.problems.append(LogProblem(torn.start, torn.seq, message, "torn"))
        log.torn = True
    return log, crc


def _checked(log: LogFile, path: str | None, strict: bool, salvage: bool) -> LogFile:
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


def _read_log_bytes(data: bytes, path: str | None, strict: bool, salvage: bool = False
                    ) -> LogFile:
    return _checked(_scan_log(data, path, strict)[0], path, strict, salvage)


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
    >>> from mtgk.log.events import Tapped
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


_FIELDS: dict[type[Event], tuple[frozenset[str], list[tuple[str, Any, Any]]]] = {}
"""Per event class: its field names, and (name, default, default factory) for each."""


def _fields_of(cls: type[Event]) -> tuple[frozenset[str], list[tuple[str, Any, Any]]]:
    info = _FIELDS.get(cls)
    if info is None:
        info = _FIELDS[cls] = (frozenset(cls.__struct_fields__), [
            (f.name, f.default, f.default_factory) for f in msgspec.structs.fields(cls)])
    return info


def _values_from_dict(cls: type[Event], obj: dict[str, Any]) -> list[Any]:
    """The field values of ``cls`` named in ``obj``, defaults filled in."""
    names, fields = _fields_of(cls)
    if not names.issuperset(obj):
        extra = sorted(set(obj) - names)
        raise ValueError(
            f"unexpected field(s) {_short(extra)} for {cls.TAG} (fields: "
            f"{list(cls.__struct_fields__)})"
        )
    values: list[Any] = []
    for name, default, factory in fields:
        if name in obj:
            values.append(obj[name])
        elif default is not msgspec.NODEFAULT:
            values.append(default)
        elif factory is not msgspec.NODEFAULT:
            values.append(factory())
        else:
            raise ValueError(f"missing required field {name!r} of {cls.TAG}")
    return values


def _storable(env: Envelope) -> None:
    """Raise ValueError if ``env``'s event could not be written to a binary log (an
    integer outside msgpack's range, from a hand-edited JSON Lines file)."""
    ev = env.event
    try:
        _check_encoder.encode(ev if not isinstance(ev, UnknownEvent) else ev.raw)
    except OverflowError:
        raise ValueError(f"{event_tag(ev)} holds an integer outside the range a log stores "
                         f"({_INT_RANGE})") from None


_check_encoder = msgspec.msgpack.Encoder()
_INT_RANGE: Final = "-2**63 to 2**64-1"


def _jsonl_record(obj: Any, seq: int, table: dict[str, int] | None = None
                  ) -> tuple[Envelope, _Unresolved | None]:
    """Decode one JSON Lines record; raises ValueError/ValidationError if malformed
    (``table``: the header's event table, tag -> version, which the record's type and
    version must be in, as a binary record's type is an index into it)."""
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object, found {type(obj).__name__}")
    missing = [k for k in ("seq", "cause", "type", "v", "event") if k not in obj]
    if missing:
        raise ValueError(f"expected keys seq, cause, type, v and event; missing {missing}")
    rseq, cause, tag, version, body = obj["seq"], obj["cause"], obj["type"], obj["v"], obj["event"]
    if rseq != seq or type(rseq) is not int:
        raise ValueError(f"expected seq {seq}, found {_short(rseq)}")
    if type(cause) is not int or not -1 <= cause < seq:
        raise ValueError(f"expected a cause between -1 and {seq - 1}, found {_short(cause)}")
    if not isinstance(tag, str) or type(version) is not int:
        raise ValueError(f"expected a string type and an integer v, found {_short(tag)} and "
                         f"{_short(version)}")
    if not isinstance(body, (dict, list)):
        raise ValueError(f"expected the event as an object or list, found {type(body).__name__}")
    if table is not None and table.get(tag) != version:
        listed = (f"lists {_short(tag)} at version {table[tag]}" if tag in table else
                  f"does not list {_short(tag)}")
        raise ValueError(f"a {_short(tag)} event of version {version}, but the header's event "
                         f"table {listed}")
    cls = EVENT_TYPES.get(tag)
    try:
        if isinstance(body, list):
            values = body
        elif cls is not None and version == cls.VERSION:
            values = _values_from_dict(cls, body)
        else:  # an older or unknown shape: the field order as written
            values = list(body.values())
        env = Envelope(seq, cause, _resolve_values(tag, version, values))
        unresolved = None
    except _Unresolved as exc:
        values = body if isinstance(body, list) else list(body.values())
        try:
            raw = msgspec.msgpack.encode(values)
        except OverflowError:
            raise ValueError(f"{tag} holds an integer outside the range a log stores "
                             f"({_INT_RANGE})") from None
        env, unresolved = Envelope(seq, cause, UnknownEvent(tag, version, raw)), exc
    _storable(env)
    _holdable(env)
    return env, unresolved


STATE_INT_LIMIT: Final = 2**62
"""The largest magnitude of an integer in an event of a JSON Lines log (its ``seed``
aside): the state adds to and subtracts from the numbers it holds (an object id's
successor, life lost), and must still be able to store the result (msgpack's 64 bits).
The engine never comes near it; a hand-edited file can."""


def _holdable(env: Envelope) -> None:
    """Raise ValueError if ``env``'s event holds an integer the state can't hold."""
    ev = env.event
    if isinstance(ev, UnknownEvent):
        return
    for name in type(ev).__struct_fields__:
        if name == "seed":
            continue
        bad = _big_int(getattr(ev, name))
        if bad is not None:
            raise ValueError(f"{event_tag(ev)}.{name} holds {_short(bad)}, outside the range "
                             f"of the numbers a game's state holds (-2**62 to 2**62)")


def _big_int(value: Any, depth: int = 0) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if not -STATE_INT_LIMIT <= value <= STATE_INT_LIMIT else None
    if depth > 32:
        return None
    if isinstance(value, (list, tuple)):
        for v in value:
            bad = _big_int(v, depth + 1)
            if bad is not None:
                return bad
    elif isinstance(value, dict):
        for k, v in value.items():
            bad = _big_int(k, depth + 1)
            if bad is None:
                bad = _big_int(v, depth + 1)
            if bad is not None:
                return bad
    return None


def _short(value: Any, limit: int = 40) -> str:
    """``repr(value)``, cut to ``limit`` characters (values from outside files can be huge)."""
    if isinstance(value, int) and not isinstance(value, bool) and (
            value > 10**30 or value < -(10**30)):
        return f"an integer of about {int(value.bit_length() * 0.30103) + 1} digits"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def read_jsonl(path: StrPath, *, strict: bool = False, salvage: bool = False) -> LogFile:
    """Read a JSON Lines log written by :func:`write_jsonl`.

    Errors are reported like :func:`read_log`'s: offsets are byte offsets of
    lines, a cut-off last line (no newline, not valid JSON) is a torn record,
    and with ``salvage`` the lines that read after a bad one are kept in
    :attr:`LogFile.breaks`.  Blank lines are skipped.
    """
    p = os.fspath(path)
    with open(p, "rb") as fp:
        data = fp.read()
    return _read_jsonl_bytes(data, p, strict, salvage)


def _newer_writer(header: LogHeader) -> bool:
    """Whether ``header`` says it was written by a newer kernel than this one (a newer
    release or rules revision): one that may store header keys this one does not know."""
    import mtgk

    rev = header.rules_revision
    if isinstance(rev, int) and rev > mtgk.RULES_REVISION:
        return True
    mine, theirs = _release(mtgk.__version__), _release(header.kernel_version)
    return mine is not None and theirs is not None and theirs > mine


def _release(version: str) -> tuple[int, ...] | None:
    """``"0.1.0"`` -> ``(0, 1, 0)`` (``None``: not such a version)."""
    parts = version.split(".") if isinstance(version, str) and len(version) < 40 else []
    if not parts or not all(p.isdigit() and p.isascii() for p in parts):
        return None
    return tuple(int(p) for p in parts)


def _jsonl_header(obj: Any, pos: int, path: str | None) -> LogHeader:
    """The header of a JSON Lines log from its first line's JSON value."""
    if not isinstance(obj, dict) or set(obj) != {"header"}:
        raise ForeignFileError(
            'not an mtgk log: expected a first line {"header": {...}}', offset=pos, path=path)
    try:
        header = msgspec.convert(obj["header"], LogHeader)
    except msgspec.ValidationError as exc:
        raise CorruptLogError(
            f"expected a log header, found an invalid one: {_exc_text(exc)}", offset=pos,
            path=path) from None
    unknown = sorted(set(obj["header"]) - set(LogHeader.__struct_fields__))
    if unknown and not _newer_writer(header):
        # (a binary header is guarded by its crc: only a newer kernel can add a key)
        raise CorruptLogError(
            f"the header has a key this kernel does not know ({_short(unknown[0])}"
            + (f" and {len(unknown) - 1} more" if len(unknown) > 1 else "")
            + f") but says it was written by kernel {_short(header.kernel_version)}, not a "
            "newer one than this: an edited header", offset=pos, path=path)
    if header.format > FORMAT_VERSION:
        raise NewerVersionError(
            f"the header says format {header.format}, newer than this reader (which reads "
            f"versions up to {FORMAT_VERSION}); upgrade mtgk", offset=pos, path=path)
    if header.format < 1:
        raise CorruptLogError(f"expected a header format >= 1, found {header.format}",
                              offset=pos, path=path)
    tags = [tag for tag, _ in header.events]
    if len(set(tags)) != len(tags):
        raise CorruptLogError("the header's event table names a tag twice", offset=pos,
                              path=path)
    try:
        _check_encoder.encode(header)
    except OverflowError:
        raise CorruptLogError(f"the header holds an integer outside the range a log stores "
                              f"({_INT_RANGE})", offset=pos, path=path) from None
    return header


def _read_jsonl_bytes(data: bytes, path: str | None, strict: bool, salvage: bool = False
                      ) -> LogFile:
    n = len(data)
    decode = msgspec.json.decode
    decode_errors = (msgspec.DecodeError, RecursionError)
    problems: list[LogProblem] = []
    envs: list[Envelope] = []
    header: LogHeader | None = None
    table: dict[str, int] = {}  # the header's event table: tag -> version
    log: LogFile | None = None
    into = envs  # where records read go: the intact prefix, then after each break
    seq = 0  # the record number the next line must have
    broken: LogBreak | None = None  # after a bad line: the break, until a line reads again
    pos = 0
    while pos < n:
        nl = data.find(b"\n", pos)
        end = n if nl < 0 else nl
        nxt = n if nl < 0 else nl + 1
        line = data[pos:end]
        if not line.strip():
            pos = nxt
            continue
        record = None if header is None else seq
        try:
            obj = decode(line)
        except decode_errors as exc:
            if nl < 0:  # the last line, cut off
                message = (f"torn last line ({n - pos} bytes dropped): invalid JSON: "
                           f"{_exc_text(exc)}")
                if header is None:
                    raise TruncatedLogError(message, offset=pos, record=record,
                                            path=path) from None
                assert log is not None
                problems.append(LogProblem(pos, record, message, "torn"))
                log.torn = True
                if not log.breaks:
                    log.intact_size = pos
                break
            if header is None:
                raise CorruptLogError(
                    f"expected a JSON object, found invalid JSON: {_exc_text(exc)}",
                    offset=pos, path=path) from None
            obj = exc  # not a record: a break (or, after one, a line skipped)
        if header is None:
            header = _jsonl_header(obj, pos, path)
            table = dict(header.events)
            log = LogFile(header, envs, problems, False, n)
            pos = nxt
            continue
        assert log is not None
        if broken is not None:  # looking for a line that reads again
            rseq = obj.get("seq") if isinstance(obj, dict) else None
            if type(rseq) is int and rseq >= broken.record:
                try:
                    env, unresolved = _jsonl_record(obj, rseq, table)
                except (ValueError, msgspec.ValidationError):
                    pass
                else:
                    broken.resume, broken.lost = pos, rseq - broken.record
                    seq = rseq
                    into = broken.envelopes
                    broken = None
                    into.append(env)
                    if unresolved is not None:
                        problems.append(LogProblem(pos, seq, unresolved.message,
                                                   unresolved.kind))
                    seq += 1
            pos = nxt
            continue
        try:
            if isinstance(obj, Exception):
                raise ValueError(f"expected a JSON object, found invalid JSON: {_exc_text(obj)}")
            env, unresolved = _jsonl_record(obj, seq, table)
        except (ValueError, msgspec.ValidationError) as exc:
            if not log.breaks:
                log.intact_size = pos
            broken = LogBreak(seq, pos, str(exc), None, None, [], checked=False)
            log.breaks.append(broken)
            continue  # the same line may be where records resume (lines were lost)
        if unresolved is not None:
            problems.append(LogProblem(pos, seq, unresolved.message, unresolved.kind))
        into.append(env)
        seq += 1
        pos = nxt
    if log is None:
        raise TruncatedLogError(
            'expected a header line {"header": {...}}, the file is empty',
            offset=0,
            path=path,
        )
    return _checked(log, path, strict, salvage)


# --------------------------------------------------------------------------
# Detection and repair


def _is_jsonl(data: bytes) -> bool:
    return data[:1] == b"{" or data.lstrip()[:1] == b"{"


def load_log(path: StrPath, *, strict: bool = False, salvage: bool = False) -> LogFile:
    """Read a binary or JSON Lines log, whichever ``path`` holds.

    Binary logs start with :data:`MAGIC`; JSON Lines logs with ``{``.  Other
    files raise :class:`ForeignFileError`.  ``strict`` and ``salvage`` are as
    for :func:`read_log`.
    """
    p = os.fspath(path)
    with open(p, "rb") as fp:
        data = fp.read()
    return decode_log(data, strict=strict, salvage=salvage, name=p)


def decode_log(data: bytes, *, strict: bool = False, name: str | None = None,
               salvage: bool = False) -> LogFile:
    """Read a binary or JSON Lines log held in memory (like :func:`load_log`).

    ``name`` is used in error messages in place of a file path.
    """
    if _is_jsonl(data):
        return _read_jsonl_bytes(data, name, strict, salvage)
    return _read_log_bytes(data, name, strict, salvage)


@dataclass(frozen=True, slots=True)
class Repair:
    """What :func:`repair_log` did: the torn last record it cut off (``problem``),
    where it kept a copy of the file as it was (``backup``), and the file's size now."""

    problem: LogProblem
    backup: str
    size: int


def repair_log(path: StrPath) -> Repair | None:
    """Cut a torn last record off the log at ``path``, keeping a copy of the original.

    The copy is written first, as ``PATH.orig`` (or ``PATH.orig.1``, ``.2`` ...: an
    existing file is never overwritten), then the file is cut where its intact
    records end.  Returns what was done, or ``None`` if the log has no torn tail
    (the file is not touched).  A log damaged anywhere but in a torn last record
    raises :class:`CorruptLogError` (its ``log`` holds what could be read) and is
    left untouched: cutting it would delete the intact records after the damage.
    """
    p = os.fspath(path)
    with open(p, "rb") as fp:
        data = fp.read()
    log = decode_log(data, name=p, salvage=True)
    if log.breaks:
        first = log.breaks[0]
        exc = CorruptLogError(first.detail, offset=first.offset, record=first.record, path=p)
        exc.log = log
        raise exc
    if not log.torn:
        return None
    problem = next(pr for pr in reversed(log.problems) if pr.kind == "torn")
    backup = _write_backup(p, data)
    with open(p, "r+b") as fp:
        fp.truncate(log.intact_size)
        fp.flush()
        os.fsync(fp.fileno())
    return Repair(problem, backup, log.intact_size)


def _write_backup(path: str, data: bytes) -> str:
    """Write ``data`` to a new file next to ``path`` (``PATH.orig``, ``PATH.orig.1`` ...,
    never replacing an existing file) and return its name."""
    for i in range(1000):
        name = f"{path}.orig" if i == 0 else f"{path}.orig.{i}"
        try:
            fp = open(name, "xb")  # noqa: SIM115 - closed below, after fsync
        except FileExistsError:
            continue
        with fp:
            fp.write(data)
            fp.flush()
            os.fsync(fp.fileno())
        return name
    raise OSError(f"cannot keep a copy of {path}: {path}.orig and 999 numbered copies exist")


# --------------------------------------------------------------------------
# Reporting


def _version_key(v: str) -> tuple[tuple[int, int, str], ...]:
    """A sort key for a version string: numeric parts by value (compared as digit
    strings, so a part of any length is fine), then other parts as text.

    >>> _version_key("0.10.1") > _version_key("0.9"), _version_key("1" * 5000) > _version_key("2")
    (True, True)
    """
    out: list[tuple[int, int, str]] = []
    for part in v.replace("-", ".").split("."):
        if part.isascii() and part.isdigit():
            digits = part.lstrip("0") or "0"
            out.append((0, len(digits), digits))
        else:
            out.append((1, 0, part))
    return tuple(out)


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
        import mtgk

        current = mtgk.__version__
    if _version_key(header.kernel_version) <= _version_key(current):
        return None
    return (f"the log was written by mtgk kernel {_clip(header.kernel_version)}, newer than "
            f"this one ({current})")


def _clip(text: str, limit: int = 40) -> str:
    """``text``, cut to ``limit`` characters (strings from outside files can be huge).

    >>> _clip("9" * 100, 10)
    '9999999...'
    """
    return text if len(text) <= limit else text[: limit - 3] + "..."


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
