"""The game log file: a compact, checksummed, append-only record of events.

A game is its log: a header (who played what, with which seed and rules
profile) followed by every :class:`~mtgk.log.events.Envelope` in sequence order.
It is written and read in two formats:

* a **binary** format (``.mtgk``), compact and fast to decode, safe against
  crashes during an append; and
* **JSON Lines** (``.jsonl``), for humans, diffs and other tools.

:func:`load_log` reads either, telling them apart by their first bytes, and
:func:`repair_log` cuts a torn last record off a file.  This module is where a caller
finds it all: it re-exports the public names of the modules that hold the parts,

* :mod:`mtgk.log.codec` -- the binary format's layout (versions 1 and 2), varints, the
  encoding of records and blocks;
* :mod:`mtgk.log.writer` -- :class:`LogWriter` (appending, crash-safe, checkpoints),
  :func:`write_log`, :func:`encode_log`;
* :mod:`mtgk.log.reader` -- :func:`read_log`: decoding the header, the records and blocks,
  torn tails and damage;
* :mod:`mtgk.log.damage` -- finding the intact records after damage (salvage);
* :mod:`mtgk.log.jsonl` -- the JSON Lines format: :func:`write_jsonl`, :func:`read_jsonl`;
* :mod:`mtgk.log.upcasting` -- event tags, :func:`register_upcaster`, reading older
  event versions;
* :mod:`mtgk.log.loaded` -- :class:`LogFile`, :class:`LogProblem`, :class:`LogBreak` and
  the errors (:class:`LogError` ...).

Example
-------

>>> import os, tempfile
>>> from mtgk.log.events import DecisionMade, Envelope, Tapped
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

import os
from dataclasses import dataclass

from mtgk.log.codec import BLOCK_RECORDS, MAGIC, STREAM_BLOCK_RECORDS
from mtgk.log.jsonl import read_jsonl, read_jsonl_bytes, write_jsonl
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
)
from mtgk.log.reader import read_log, read_log_bytes
from mtgk.log.structs import FORMAT_VERSION, LogHeader, UnknownEvent
from mtgk.log.upcasting import event_tag, register_upcaster
from mtgk.log.writer import LogWriter, encode_log, write_log

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
        return read_jsonl_bytes(data, name, strict, salvage)
    return read_log_bytes(data, name, strict, salvage)


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
