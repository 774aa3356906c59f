"""Writing binary logs: a :class:`LogWriter` appends envelopes to a file, crash-safe one
block at a time, with :meth:`LogWriter.checkpoint` to put the open block on the file and
:meth:`LogWriter.reopen` to continue a log; :func:`write_log` and :func:`encode_log` write a
whole log at once.  The bytes are :mod:`mtgk.log.codec`'s.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from types import TracebackType
from typing import IO

import msgspec
from mypy_extensions import mypyc_attr

from mtgk.log.codec import STREAM_BLOCK_RECORDS, RecordEncoder
from mtgk.log.events import UNLISTED_UNLESS_USED, Envelope
from mtgk.log.loaded import StrPath, checked
from mtgk.log.reader import scan_log
from mtgk.log.structs import FORMAT_VERSION, LogHeader, UnknownEvent

__all__ = ["LogWriter", "encode_log", "write_log"]


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
        self._enc = RecordEncoder(header, version)
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
            log, crc = scan_log(data, p, strict=True)
            checked(log, p, strict=True, salvage=False)
            fp.seek(0, os.SEEK_END)
        except BaseException:
            fp.close()
            raise
        w = cls.__new__(cls)
        w.path = p
        w.header = log.header
        w.fsync = fsync
        w.block = block
        w._enc = RecordEncoder(log.header, log.header.format)
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
    enc = RecordEncoder(_with_unknown_tags(header, envs), version)
    return b"".join([enc.preamble, *enc.encode_all(envs)])
