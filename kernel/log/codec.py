"""The binary log's bytes: its layout (file format versions 1 and 2), varints, and the
encoding of envelopes into records (format 1) and blocks of records (format 2).

:class:`RecordEncoder` is what :mod:`mtgk.log.writer` writes with; :mod:`mtgk.log.reader`
decodes what it encodes (docs/log-format.md has the layout in short).

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

What :mod:`mtgk.log.logfile` writes (:data:`FORMAT_VERSION`); version 1 is still read, and
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
torn tails and damage are as :mod:`mtgk.log.reader` and :mod:`mtgk.log.damage` describe
them, with a block for a record: a torn last block
loses the records it held (a writer that is killed loses at most the records it
had not written yet: :class:`LogWriter`), and the records after damage are
numbered as their blocks say.  The header's own crc makes a damaged header damage,
never a torn last block.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from typing import Final

import msgspec

from mtgk.log.events import Envelope
from mtgk.log.structs import FORMAT_VERSION, LogHeader, UnknownEvent

__all__ = [
    "BLOCK_RECORDS",
    "MAGIC",
    "PREAMBLE_SIZE",
    "STREAM_BLOCK_RECORDS",
    "U32",
    "WRITABLE_VERSIONS",
    "RecordEncoder",
    "read_varint",
]

MAGIC: Final = b"MTGK"
"""The first four bytes of every binary log."""

PREAMBLE_SIZE: Final = len(MAGIC) + 1 + 4
"""The bytes before the header: magic, version byte, header length."""

_MAX_VARINT_BYTES: Final = 9

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

U32 = struct.Struct("<I")
"""A uint32, little-endian: the header's length and every crc."""

_VARINT1: Final = [bytes((i,)) for i in range(128)]


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


def read_varint(data: bytes, pos: int, limit: int) -> tuple[int, int]:
    """Decode a varint at ``pos`` not reaching ``limit``: ``(value, next pos)``.

    Returns ``(-1, pos)`` if it runs into ``limit``, ``(-2, pos)`` if longer
    than the maximum of 9 bytes.

    >>> read_varint(b"\\xac\\x02", 0, 2), read_varint(b"\\xac", 0, 1)
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


class RecordEncoder:
    """Turns envelopes into records (format 1) or blocks of records (format 2), tracking
    seq and the crc chain."""

    def __init__(self, header: LogHeader, version: int = FORMAT_VERSION) -> None:
        if version not in WRITABLE_VERSIONS:
            raise ValueError(f"cannot write file format version {version} (only "
                             f"{', '.join(map(str, WRITABLE_VERSIONS))})")
        self.version = version
        self.header_bytes = _header_bytes(header, version)
        self.preamble = (
            MAGIC + bytes((version,)) + U32.pack(len(self.header_bytes)) + self.header_bytes
        )
        self.crc = zlib.crc32(self.header_bytes)
        if version >= 2:
            self.preamble += U32.pack(self.crc)
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
        return _varint(len(payload)) + payload + U32.pack(crc)

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
        return _varint(len(payload)) + payload + U32.pack(crc)

    def encode_block(self, envs: Sequence[Envelope]) -> bytes:
        """One block of format 2 holding ``envs`` (at least one)."""
        seq = self.seq
        return self.block([self.part(env, seq + i) for i, env in enumerate(envs)])

    def encode_all(self, envs: Sequence[Envelope], block: int = BLOCK_RECORDS) -> list[bytes]:
        """The records (format 1) or blocks of ``block`` records (format 2) of ``envs``."""
        if self.version == 1:
            return [self.encode(env) for env in envs]
        return [self.encode_block(envs[i:i + block]) for i in range(0, len(envs), block)]
