"""The scenario file's error and the wording of its messages.

:class:`ScenarioFileError` is the one exception the scenario reader raises
(:mod:`mtgk.scenario.reader`, :mod:`mtgk.scenario.validation`): its message names the
file, the scenario, the key path (``players.alice.battlefield[2].counters``) and what
was expected.  Beside it: the helpers that keep those messages one short readable line
(:func:`short`, :func:`name_list`), and :func:`explain`, which turns msgspec's
``ValidationError`` into a key path of the file and a reason in words.
"""

from __future__ import annotations

import functools
import re
import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import msgspec
from msgspec import Struct

# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


class ScenarioFileError(Exception):
    """A scenario file cannot be read or is invalid.

    ``str(err)`` is ``"FILE: scenario 'NAME': KEY.PATH: what was expected"``
    (parts that are unknown are left out).  The parts are also attributes.
    """

    def __init__(
        self, file: str, reason: str, *, scenario: str | None = None, path: str = ""
    ) -> None:
        self.file = file
        self.scenario = scenario
        self.path = path
        self.reason = reason
        super().__init__(self._message())

    def _message(self) -> str:
        parts = [self.file]
        if self.scenario is not None:
            parts.append(f"scenario {short(self.scenario)}")
        if self.path:
            parts.append(self.path)
        parts.append(self.reason)
        return ": ".join(_one_line(part) for part in parts)


def _one_line(text: str, limit: int = 1000) -> str:
    """``text`` with its control characters escaped, cut to about ``limit`` characters."""
    if not text.isprintable():
        text = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
    return text if len(text) <= limit else f"{text[:limit]}..."


def short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to about ``limit`` characters: error messages stay one short line."""
    text = repr(value)
    if len(text) > limit:
        text = f"{text[:limit]}... ({len(text)} characters)"
    return text


def plain(name: str) -> str:
    """A name as written if it is short and printable, else as :func:`short` shows it."""
    return name if len(name) <= 60 and name.isprintable() else short(name)


def name_list(names: list[str], most: int = 6) -> str:
    """``a, b, c`` (with ``, ...`` after the first ``most``), each name as :func:`plain`."""
    shown = ", ".join(plain(n) for n in names[:most])
    return shown + (", ..." if len(names) > most else "")


# ---------------------------------------------------------------------------
# Turning msgspec's ValidationError into a readable key path and reason
# ---------------------------------------------------------------------------

_SIMPLE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PATH_TOKEN = re.compile(r"\.([^.\[]+)|\[(\d+)\]|(\[\.\.\.\])")
_TYPE_WORDS = {
    "str": "a string",
    "int": "an integer",
    "float": "a number",
    "bool": "true or false",
    "object": "a mapping",
    "array": "a list",
    "null": "null",
}


def key_segment(key: Any) -> str:
    """The key path segment of a mapping key: ``.name`` for a plain name, else
    ``[repr]``."""
    if isinstance(key, str) and len(key) <= 60 and _SIMPLE_KEY.fullmatch(key):
        return f".{key}"
    return f"[{short(key)}]"


def join_path(prefix: str, seg: str) -> str:
    """``prefix`` and a segment made one key path (no leading dot)."""
    if not prefix:
        return seg[1:] if seg.startswith(".") else seg
    return prefix + seg


def _members(tp: Any) -> list[Any]:
    """Flatten Annotated / Union into the member types."""
    origin = get_origin(tp)
    if origin is Annotated:
        return _members(get_args(tp)[0])
    if origin is Union or origin is types.UnionType:
        out: list[Any] = []
        for arg in get_args(tp):
            out.extend(_members(arg))
        return out
    return [tp]


def _struct_of(tp: Any) -> type[Struct] | None:
    for m in _members(tp):
        if isinstance(m, type) and issubclass(m, Struct):
            return m
    return None


def _container(tp: Any, kind: type) -> Any:
    for m in _members(tp):
        if get_origin(m) is kind:
            return m
    return None


@functools.cache
def struct_fields(struct: type[Struct]) -> tuple[msgspec.structs.FieldInfo, ...]:
    """``msgspec.structs.fields(struct)``, worked out once (it evaluates the annotations
    on every call: a millisecond, which a file of many actions would pay each time)."""
    return msgspec.structs.fields(struct)


def _struct_field_type(struct: type[Struct], key: str) -> Any:
    for f in struct_fields(struct):
        if f.encode_name == key:
            return f.type
    return None


def _allowed_keys(struct: type[Struct]) -> list[str]:
    return [f.encode_name for f in struct_fields(struct)]


def _literals(tp: Any) -> list[Any]:
    out: list[Any] = []
    for m in _members(tp):
        if get_origin(m) is Literal:
            out.extend(get_args(m))
    return out


def _fails(data: Any, tp: Any) -> bool:
    try:
        msgspec.convert(data, tp)
    except msgspec.ValidationError:
        return True
    return False


def describe_value(value: Any) -> str:
    """A value as an error message shows it: a scalar in short, else what it is."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str | int | float):
        return short(value)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _words(spec: str) -> str:
    return " or ".join(_TYPE_WORDS.get(p.strip(), p.strip()) for p in spec.split("|"))


_BOOL_HINT = " (YAML reads unquoted yes/no/on/off/true/false as booleans: quote names)"


_MISSING = object()


def explain(message: str, data: Any, tp: Any) -> tuple[str, str]:
    """(key path, reason) for a msgspec ValidationError message."""
    key_error = False
    m = re.fullmatch(r"(.*) - at `key` in `\$(.*)`", message, re.S)
    if m:
        key_error = True
    else:
        m = re.fullmatch(r"(.*) - at `\$(.*)`", message, re.S)
    if m:
        reason, raw_path = m.group(1), m.group(2)
    else:
        reason, raw_path = message, ""

    # Walk the type and the data along msgspec's path, naming dict keys.
    path = ""
    cur_tp: Any = tp
    cur: Any = data
    for tok in _PATH_TOKEN.finditer(raw_path):
        field, index, dots = tok.group(1), tok.group(2), tok.group(3)
        if field is not None:
            path = join_path(path, f".{field}")
            struct = _struct_of(cur_tp)
            cur_tp = _struct_field_type(struct, field) if struct is not None else None
            cur = cur.get(field, _MISSING) if isinstance(cur, dict) else _MISSING
        elif index is not None:
            i = int(index)
            path = join_path(path, f"[{i}]")
            lst = _container(cur_tp, list)
            cur_tp = get_args(lst)[0] if lst is not None else None
            cur = cur[i] if isinstance(cur, list) and i < len(cur) else _MISSING
        elif dots is not None:
            dct = _container(cur_tp, dict)
            value_tp = get_args(dct)[1] if dct is not None else None
            found: Any = _MISSING
            if isinstance(cur, dict) and value_tp is not None:
                for k, v in cur.items():
                    if _fails(v, value_tp):
                        found = k
                        break
            if found is _MISSING:
                path = join_path(path, "[...]")
                cur = _MISSING
            else:
                path = join_path(path, key_segment(found))
                cur = cur[found]
            cur_tp = value_tp

    if key_error:
        bad = [k for k in cur if not isinstance(k, str)] if isinstance(cur, dict) else []
        got = f", got {describe_value(bad[0])}" if bad else ""
        hint = _BOOL_HINT if bad and isinstance(bad[0], bool) else ""
        return path, f"keys must be strings{got}{hint}"

    m2 = re.fullmatch(r"Object contains unknown field `(.*)`", reason, re.S)
    if m2:
        key = m2.group(1)
        struct = _struct_of(cur_tp)
        allowed = f"; allowed keys: {', '.join(_allowed_keys(struct))}" if struct else ""
        return join_path(path, key_segment(key)), f"unknown key `{plain(key)}`{allowed}"
    m2 = re.fullmatch(r"Object missing required field `(.*)`", reason, re.S)
    if m2:
        key = m2.group(1)
        return join_path(path, key_segment(key)), f"missing required key `{key}`"
    scalar = cur is not _MISSING and isinstance(cur, str | int | float) and cur is not None
    got = f" ({describe_value(cur)})" if scalar else ""
    m2 = re.fullmatch(r"Expected `([^`]*)`, got `([^`]*)`", reason)
    if m2:
        found = "a boolean" if m2.group(2) == "bool" else _words(m2.group(2))
        hint = _BOOL_HINT if isinstance(cur, bool) and "str" in m2.group(1) else ""
        return path, f"expected {_words(m2.group(1))}, got {found}{got}{hint}"
    m2 = re.fullmatch(r"Expected `([^`]*)` (.*)", reason)
    if m2:
        shown = f", got {describe_value(cur)}" if cur is not _MISSING else ""
        return path, f"expected {_words(m2.group(1))} {m2.group(2)}{shown}"
    m2 = re.fullmatch(r"Invalid enum value (.*)", reason, re.S)
    if m2:
        allowed_values = ", ".join(str(v) for v in _literals(cur_tp))
        shown = describe_value(cur) if cur is not _MISSING else short(m2.group(1))
        return path, f"invalid value {shown}; expected one of: {allowed_values}"
    return path, reason[:1].lower() + reason[1:]

