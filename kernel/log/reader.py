"""Reading a binary log: its header, then its records (format 1) or blocks (format 2) in
sequence, each checksum chained from the one before -- the decode loops where a replay
spends its reading time -- and, where that stops, telling a torn tail from damage and
reading on after damage (:mod:`mtgk.log.damage` finds where intact records start again).
:func:`read_log` reads a file; the layout is :mod:`mtgk.log.codec`'s.

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
  bytes -- and no intact record can be found after it (see :mod:`mtgk.log.damage`).
  It is not an error: :func:`read_log` returns the intact prefix with ``torn=True`` and a
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
"""

from __future__ import annotations

import gc
import os
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from operator import itemgetter, length_hint, sub
from typing import Annotated, Any, Final

import msgspec

from mtgk.log.codec import MAGIC, PREAMBLE_SIZE, U32, read_varint
from mtgk.log.damage import DamageSearch
from mtgk.log.events import EVENT_TYPES, Envelope, Event
from mtgk.log.loaded import (
    CorruptLogError,
    ForeignFileError,
    LogBreak,
    LogError,
    LogFile,
    LogProblem,
    NewerVersionError,
    StrPath,
    TruncatedLogError,
    checked,
    exc_text,
)
from mtgk.log.structs import FORMAT_VERSION, LogHeader, UnknownEvent
from mtgk.log.upcasting import Unresolved, resolve_values

__all__ = ["read_log", "read_log_bytes", "scan_log"]


_TORN_KINDS: Final = frozenset({"length-eof", "past-eof", "crc"})
"""Failures a crash during an append can leave in the last record."""

_BLOCK_HEAD: Final = msgspec.msgpack.Decoder(
    tuple[int, list[Annotated[int, msgspec.Meta(ge=0)]], list[Annotated[int, msgspec.Meta(ge=1)]],
          list[tuple[int, msgspec.Raw]]]).decode
"""Decodes a block's payload: first record number, tag indexes, cause deltas and the
groups, each ``(tag index, the group's events as raw msgpack)``."""

_RAW_LIST: Final = msgspec.msgpack.Decoder(list[msgspec.Raw]).decode


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
        #: where intact records start again after damage (its crc budget is the file's)
        self.search = DamageSearch(data)
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
        if n < PREAMBLE_SIZE:
            raise self.error(
                TruncatedLogError,
                f"expected {PREAMBLE_SIZE} bytes of signature, version and header "
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
        (hlen,) = U32.unpack_from(data, 5)
        hend = PREAMBLE_SIZE + hlen
        if hend > n:
            raise self.error(
                TruncatedLogError,
                f"expected a header of {hlen} bytes, the file ends after {n - PREAMBLE_SIZE}",
                n,
            )
        hbytes = data[PREAMBLE_SIZE:hend]
        hcrc = zlib.crc32(hbytes)
        if version >= 2:  # the header's own crc follows it
            if hend + 4 > n:
                raise self.error(
                    TruncatedLogError,
                    f"expected the header's 4-byte crc at byte {hend}, the file ends after "
                    f"{n - hend} bytes", n)
            stored = U32.unpack_from(data, hend)[0]
            if stored != hcrc:
                raise self.error(
                    CorruptLogError,
                    f"header crc mismatch: expected 0x{hcrc:08x} (computed from the header "
                    f"bytes {PREAMBLE_SIZE}..{hend}), found 0x{stored:08x} (stored at byte "
                    f"{hend})", PREAMBLE_SIZE)
            hend += 4
        try:
            header = msgspec.msgpack.decode(hbytes, type=LogHeader)
        except (msgspec.DecodeError, RecursionError) as exc:
            raise self.error(
                CorruptLogError,
                f"expected a msgpack LogHeader, decoding failed: {exc_text(exc)}",
                PREAMBLE_SIZE,
            ) from None
        if header.format != version:
            raise self.error(
                CorruptLogError,
                f"the header says format {header.format}, the version byte says {version}",
                PREAMBLE_SIZE,
            )
        tags = [tag for tag, _ in header.events]
        if len(set(tags)) != len(tags):
            raise self.error(
                CorruptLogError, "the header's event table names a tag twice", PREAMBLE_SIZE
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
        unpack_u32 = U32.unpack_from
        decode_errors = (msgspec.DecodeError, RecursionError)
        first = seq
        while pos < n:
            start = pos
            length = data[pos]
            if length < 0x80:
                pos += 1
            else:
                length, pos = read_varint(data, start, n)
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
                        f"{exc_text(exc)}", end + 4, new_crc, body=pos)
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
        unpack_u32 = U32.unpack_from
        first = seq
        while pos < n:
            start = pos
            length = data[pos]
            if length < 0x80:
                pos += 1
            else:
                length, pos = read_varint(data, start, n)
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
                               f"cause deltas and groups), decoding failed: {exc_text(exc)}"
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
                                   f"{exc_text(exc)}") from None
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
                out.append(resolve_values(tag, version, values))
            except Unresolved as exc:
                self.problems.append(LogProblem(start, seq, exc.message, exc.kind))
                out.append(UnknownEvent(tag, version, body))
        return out

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
            elif fail.kind == "crc" and fail.end < n and self.search.resync_blocks(
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
                found = self.search.resync_blocks(start + 1, n, seq)
                whole = self.search.whole_tail(start, crc if not breaks else None)
                if found is None and whole is None and (
                        (fail.kind in _TORN_KINDS and (fail.kind != "crc" or fail.end == n))
                        or not any(data[start:])):
                    return breaks, fail  # a torn tail: nothing readable after it
                if found is None and whole is not None:
                    fail.detail = self.whole_tail_detail(fail, whole, "block")
                gave_up = found == -1
                if found is not None and found >= 0:
                    resume = pos = found
                    chain = U32.unpack_from(data, found - 4)[0]
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
        ti, p = read_varint(data, pos, end)
        if ti < 0:
            raise _Undecodable("expected a tag index varint, the payload ends inside it")
        if ti >= len(table):
            raise _Undecodable(
                f"expected a tag index below {len(table)} (the size of the event table), "
                f"found {ti}")
        delta, p = read_varint(data, p, end)
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
                ev = resolve_values(tag, version, values)
        except Unresolved as exc:
            self.problems.append(LogProblem(start, seq, exc.message, exc.kind))
            ev = UnknownEvent(tag, version, raw)
        except (msgspec.DecodeError, RecursionError) as exc:
            raise _Undecodable(f"expected a {tag} event, decoding failed: {exc_text(exc)}"
                               ) from None
        return Envelope(seq, max(seq - delta, -1), ev)


    # -- damage: telling a torn tail from damage, and reading on after it

    def read_damaged(self, header: LogHeader, fail: _Fail, crc: int
                     ) -> tuple[list[LogBreak], _Fail | None]:
        """Read on after the first failure ``fail`` (``crc``: the crc of the record
        before it), as :mod:`mtgk.log.damage` describes.

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
            elif fail.kind == "crc" and fail.end < n and self.search.record_holds(
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
                found = self.search.resync(start + 1, n, table_size)
                whole = self.search.whole_tail(start, crc if not breaks else None)
                if found is None and whole is None and (
                        (fail.kind in _TORN_KINDS and (fail.kind != "crc" or fail.end == n))
                        or not any(data[start:])):
                    return breaks, fail  # a torn tail: nothing readable after it
                if found is None and whole is not None:
                    fail.detail = self.whole_tail_detail(fail, whole, "record")
                gave_up = found == -1
                if found is not None and found >= 0:
                    resume, chain = found, U32.unpack_from(data, found - 4)[0]
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
    return read_log_bytes(data, p, strict, salvage)


def scan_log(data: bytes, path: str | None, strict: bool) -> tuple[LogFile, int]:
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


def read_log_bytes(data: bytes, path: str | None, strict: bool, salvage: bool = False
                   ) -> LogFile:
    return checked(scan_log(data, path, strict)[0], path, strict, salvage)
