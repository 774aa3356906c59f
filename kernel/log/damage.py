"""Damage in a binary log: finding where intact records start again after it.

Where reading a log in sequence stops at a record (or block) that fails,
:mod:`mtgk.log.reader` asks a :class:`DamageSearch` where the next record whose own
checksum holds starts: a salvaging read keeps the records from there on, and a failure
with nothing intact after it can be a torn tail.

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
"""

from __future__ import annotations

import re
import zlib
from typing import Final

from mtgk.log.codec import U32, read_varint

__all__ = ["DamageSearch"]

_ARRAY_MARKERS: Final = bytes(i in range(0x90, 0xA0) or i in (0xDC, 0xDD) for i in range(256))
"""``_ARRAY_MARKERS[b]`` is 1 if ``b`` starts a msgpack array (every event is one)."""

_NONZERO: Final = re.compile(rb"[^\x00]")

_MIN_RECORD: Final = 8
"""The smallest possible record: 1 length byte, a 3-byte payload, a 4-byte crc."""

_SMALL_RECORD: Final = 4096
"""Payloads up to this size are checked at once when looking for intact records."""

_MIN_BLOCK: Final = 8
"""The smallest possible block payload (format 2): ``[first, [tag], [delta], [group]]``."""


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


class DamageSearch:
    """Looks for intact records (format 1) or blocks (format 2) in a binary log held in
    memory: where one starts whose own checksum holds."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        #: bytes of crc work the searches for intact records after damage may still do
        #: (all of them together, so that a file damaged in many places stays linear)
        self.crc_budget = 64 * len(data) + (16 << 20)

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
        unpack_u32 = U32.unpack_from
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
                length, q = read_varint(data, p, n)
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
                t, r = read_varint(data, q, end)
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
                d, r = read_varint(data, r, end)
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
        unpack_u32 = U32.unpack_from
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
                length, q = read_varint(data, p, n)
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
            prev = U32.unpack_from(data, start - 4)[0]
        if n - start < 6:
            return None
        stored = U32.unpack_from(data, n - 4)[0]
        mv = memoryview(data)
        for k in range(1, 10):  # the length varint's size
            if n - start - k - 4 < 1:
                break
            if zlib.crc32(mv[start + k:n - 4], prev) == stored:
                return n - start - k - 4
        return None
