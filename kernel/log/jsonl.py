"""JSON Lines logs (``.jsonl``): the same log as the binary format, for humans, diffs and
other tools -- :func:`write_jsonl` and :func:`read_jsonl`.

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
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable
from typing import IO, Any, Final

import msgspec

from mtgk.log.events import EVENT_TYPES, Envelope, Event
from mtgk.log.loaded import (
    CorruptLogError,
    ForeignFileError,
    LogBreak,
    LogFile,
    LogProblem,
    NewerVersionError,
    StrPath,
    TruncatedLogError,
    checked,
    exc_text,
)
from mtgk.log.structs import FORMAT_VERSION, LogHeader, UnknownEvent
from mtgk.log.upcasting import Unresolved, event_tag, resolve_values

__all__ = ["STATE_INT_LIMIT", "read_jsonl", "read_jsonl_bytes", "write_jsonl"]


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
                  ) -> tuple[Envelope, Unresolved | None]:
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
        env = Envelope(seq, cause, resolve_values(tag, version, values))
        unresolved = None
    except Unresolved as exc:
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
    return read_jsonl_bytes(data, p, strict, salvage)


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
            f"expected a log header, found an invalid one: {exc_text(exc)}", offset=pos,
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


def read_jsonl_bytes(data: bytes, path: str | None, strict: bool, salvage: bool = False
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
                           f"{exc_text(exc)}")
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
                    f"expected a JSON object, found invalid JSON: {exc_text(exc)}",
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
                raise ValueError(f"expected a JSON object, found invalid JSON: {exc_text(obj)}")
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
    return checked(log, path, strict, salvage)
