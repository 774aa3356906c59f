"""Fuzzing the log readers (binary and JSON Lines) with mutations of real logs.

Every mutated file must be read (in sequence, or salvaged after damage) or refused with a
:class:`~mtgk.log.logfile.LogError`; nothing else may escape, and `mtgk verify` / `mtgk log`
answer with an exit status, never a traceback.  And *data lost: 0*: repair never removes
a record that could still be read with its checksum holding.  That is checked against
an oracle independent of the reader: the mutations track where every original byte went,
and an original record (format 1) or block of records (format 2) counts as readable when
it and the 4 bytes before it (the crc it chains from) are all still there, unchanged and
in order.  Binary logs are fuzzed in both formats: format 1, and format 2 written in
blocks of :data:`BLOCK` records (so that the game's log has many).

Bounded for CI; a bigger campaign: ``MTGK_FUZZ_EXAMPLES=5000 python -m pytest -q -s
tests/test_fuzz_logs.py`` (the figures are printed at the end with ``-s``).
"""

from __future__ import annotations

import os
import re
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgk.agents import HeuristicAgent, RandomAgent
from mtgk.cards.decks import deck_lines
from mtgk.cards.loading import load_registry
from mtgk.games.replay import new_header, run_from_header
from mtgk.log.logfile import LogError, LogWriter, decode_log, repair_log, write_jsonl
from tests.conftest import run_mtgk

EXAMPLES = int(os.environ.get("MTGK_FUZZ_EXAMPLES", "100"))
REG = load_registry()
DECK = ["Mountain"] * 17 + ["Gray Ogre"] * 19 + ["Shock"] * 4
STATS: Counter[str] = Counter()
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 200,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow, HealthCheck.data_too_large])

pytestmark = pytest.mark.usefixtures("reset_structlog")


BLOCK = 16
"""Records per block of the format 2 log that is fuzzed."""


@dataclass
class Original:
    data: bytes
    offsets: list[int]  # every record's (format 1) or block's (2) start, then the file's size
    jsonl: bytes


@pytest.fixture(scope="module", params=[1, 2], ids=["format1", "format2"])
def original(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
             ) -> Original:
    header = new_header(REG, ["Alice", "Bob"], [deck_lines(DECK)] * 2, 3, meta={"max_turns": 8})
    game = run_from_header(REG, header, [HeuristicAgent(1), RandomAgent(2)])
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "g.mtgk"
    with LogWriter(path, header, version=request.param, block=BLOCK) as w:
        offsets = sorted({w.append(env) for env in game.log})  # (a block's records: its start)
    assert len(offsets) == (len(game.log) if request.param == 1 else -(-len(game.log) // BLOCK))
    write_jsonl(folder / "g.jsonl", header, game.log)
    return Original(path.read_bytes(), [*offsets, path.stat().st_size],
                    (folder / "g.jsonl").read_bytes())


@pytest.fixture(scope="module", autouse=True)
def report() -> Iterator[None]:
    yield
    if STATS:
        print(f"\nfuzz logs: {STATS['inputs']} inputs ({STATS['binary']} binary, "
              f"{STATS['jsonl']} JSON Lines): {STATS['read']} read in sequence, "
              f"{STATS['salvaged']} read as damaged (salvaged), {STATS['refused']} refused "
              f"cleanly; repair: {STATS['repaired']} torn tails cut, {STATS['repair-refused']} "
              f"refused; CLI runs {STATS['cli']}; tracebacks {STATS['traceback']}; "
              f"data lost {STATS['lost']}")


# ------------------------------------------------------------------ mutations

Op = tuple[str, int, int, bytes]
BYTES = st.binary(min_size=1, max_size=24) | st.sampled_from(
    [b"\xff\xff", b"\x00" * 8, b"\x80" * 10, b"\xcf" + b"\xff" * 8, b"\xdc\xff\xff"])
OPS = st.lists(st.tuples(
    st.sampled_from(["flip", "flip", "cut", "insert", "delete", "overwrite", "splice", "zeros",
                     "rechain"]),
    st.integers(0, 1 << 30), st.integers(1, 255), BYTES), min_size=1, max_size=3)


def mutate(data: bytes, ops: list[Op]) -> tuple[bytes, list[int]]:
    """Apply ``ops``; returns the bytes and, for each, the offset it had in ``data``
    (-1: a byte that is new or changed)."""
    buf = bytearray(data)
    origin = list(range(len(data)))
    for kind, a, b, blob in ops:
        n = len(buf)
        pos = a % (n + 1)
        if kind == "flip" and n:
            pos %= n
            buf[pos] ^= b
            origin[pos] = -1
        elif kind == "cut":
            del buf[pos:], origin[pos:]
        elif kind == "insert":
            buf[pos:pos] = blob
            origin[pos:pos] = [-1] * len(blob)
        elif kind == "delete":
            del buf[pos:pos + b], origin[pos:pos + b]
        elif kind == "overwrite":
            for i, byte in enumerate(blob[: n - pos]):
                if buf[pos + i] != byte:
                    buf[pos + i] = byte
                    origin[pos + i] = -1
        elif kind == "splice" and n:
            src = (a * 7 + b) % n
            piece = bytes(buf[src:src + 4 * b])
            buf[pos:pos] = piece
            origin[pos:pos] = [-1] * len(piece)
        elif kind == "zeros":
            buf[pos:pos] = bytes(b * 8)
            origin[pos:pos] = [-1] * (b * 8)
        elif kind == "rechain":
            _rechain_after_overwrite(buf, origin, pos, blob)
    return bytes(buf), origin


def _rechain_after_overwrite(buf: bytearray, origin: list[int], pos: int, blob: bytes) -> None:
    """Overwrite a record's (or block's) payload, then make every crc from there on hold
    again: a file whose checksums are all right but whose content is odd (huge numbers,
    wrong types)."""
    n = len(buf)
    preamble = 9 + int.from_bytes(buf[5:9], "little") if n >= 9 else n
    crc = zlib.crc32(bytes(buf[9:preamble]))
    if n >= 9 and buf[4] >= 2:  # format 2: the header's crc after it
        preamble += 4
    p, hit = preamble, False
    while p < n:
        length, q = _varint(buf, p)
        if length < 0 or q + length + 4 > n:
            return
        if not hit and q + length > pos >= q:
            for i, byte in enumerate(blob[: q + length - pos]):
                buf[pos + i] = byte
                origin[pos + i] = -1
            hit = True
        crc = zlib.crc32(bytes(buf[q:q + length]), crc)
        stored = crc.to_bytes(4, "little")
        if hit and buf[q + length:q + length + 4] != stored:
            buf[q + length:q + length + 4] = stored
            origin[q + length:q + length + 4] = [-1] * 4
        p = q + length + 4


def _varint(buf: bytearray, p: int) -> tuple[int, int]:
    value, shift = 0, 0
    for i in range(p, min(p + 9, len(buf))):
        value |= (buf[i] & 0x7F) << shift
        if buf[i] < 0x80:
            return value, i + 1
        shift += 7
    return -1, p


def readable_records(orig: Original, origin: list[int]) -> list[int]:
    """For each original record (or block) that is still whole, with the 4 bytes before it
    (the crc it chains from; the first one: the whole header) unchanged and in order: where
    it ends now."""
    where = {o: i for i, o in enumerate(origin) if o >= 0}
    ends = []
    for j in range(len(orig.offsets) - 1):
        lo = 9 if j == 0 else orig.offsets[j] - 4
        hi = orig.offsets[j + 1]
        at = where.get(lo)
        if at is not None and origin[at:at + hi - lo] == list(range(lo, hi)):
            ends.append(at + hi - lo)
    return ends


# ------------------------------------------------------------------ checks


def read_any(data: bytes, name: str) -> None:
    """Read as the commands do: in sequence, strictly and salvaging; only LogError may
    come out."""
    try:
        log = decode_log(data, name=name, salvage=True)
    except LogError:
        STATS["refused"] += 1
    except Exception:
        STATS["traceback"] += 1
        raise
    else:
        STATS["salvaged" if log.breaks else "read"] += 1
    for strict in (False, True):
        try:
            decode_log(data, name=name, strict=strict)
        except LogError:
            pass
        except Exception:
            STATS["traceback"] += 1
            raise


def repair_and_count_losses(path: Path, data: bytes, readable: list[int]) -> None:
    path.write_bytes(data)
    for old in path.parent.glob(path.name + ".orig*"):
        old.unlink()
    try:
        done = repair_log(path)
    except LogError:
        STATS["repair-refused"] += 1
        assert path.read_bytes() == data  # never writes to a file it refuses
        return
    except Exception:
        STATS["traceback"] += 1
        raise
    if done is None:
        assert path.read_bytes() == data
        return
    STATS["repaired"] += 1
    assert path.read_bytes() == data[:done.size]
    assert Path(done.backup).read_bytes() == data
    lost = [end for end in readable if end > done.size]
    STATS["lost"] += len(lost)
    assert not lost, f"repair cut {len(lost)} readable record(s)"


def run_cli(*argv: object) -> None:
    """Run a command; a failure is an exception escaping ``main()`` *or* one it turned
    into an ``internal error:`` line (exit status 1), which a user sees as a crash."""
    STATS["cli"] += 1
    try:
        code, _, err = run_mtgk(*argv)
    except Exception:
        STATS["traceback"] += 1
        raise
    if "internal error" in err:
        STATS["traceback"] += 1
    assert "internal error" not in err, (argv, err)
    assert code in (0, 1, 2, 3, 4), (argv, code, err)
    assert "Traceback" not in err


def test_the_harness_counts_an_internal_error_as_a_failure(
        original: Original, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``main()`` turns an exception into ``mtgk: error: internal error: ...`` and exit
    status 1; the harness must not take that for a clean refusal."""
    import mtgk.tools.commands.verify

    path = tmp_path / "g.mtgk"
    path.write_bytes(original.data)
    run_cli("verify", path)  # (a clean run passes)

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(mtgk.tools.commands.verify, "verify", broken)
    before = STATS["traceback"]
    with pytest.raises(AssertionError, match="internal error"):
        run_cli("verify", path)
    STATS["traceback"] = before


# ------------------------------------------------------------------ binary logs


@FUZZ
@given(ops=OPS)
def test_mutated_binary_logs(original: Original, tmp_path_factory: pytest.TempPathFactory,
                             ops: list[Op]) -> None:
    data, origin = mutate(original.data, ops)
    STATS["inputs"] += 1
    STATS["binary"] += 1
    read_any(data, "fuzz.mtgk")
    folder = tmp_path_factory.mktemp("bin", numbered=True)
    repair_and_count_losses(folder / "r.mtgk", data, readable_records(original, origin))
    path = folder / "f.mtgk"
    path.write_bytes(data)
    run_cli("verify", path)
    run_cli("log", path)


# ------------------------------------------------------------------ JSON Lines logs

HUGE = st.sampled_from([str(2**64), str(-(2**63) - 1), "1" + "0" * 5000, "1e400", "-0",
                        "3.5", '"x"', "null", "[]", "{}", "true", "[" * 2000 + "]" * 2000,
                        '{"a":' * 500 + "1" + "}" * 500])
LINE_OPS = st.lists(st.tuples(
    st.sampled_from(["number", "number", "key", "dup", "swap", "drop", "cut", "garbage",
                     "flip", "header"]),
    st.integers(0, 1 << 30), st.integers(0, 1 << 30), HUGE), min_size=1, max_size=3)
NUMBER = re.compile(rb"-?\d+")


def mutate_lines(data: bytes, ops: list[tuple[str, int, int, str]]) -> bytes:
    lines = data.split(b"\n")
    for kind, a, b, value in ops:
        i = a % len(lines)
        if kind == "number":
            hits = list(NUMBER.finditer(lines[i]))
            if hits:
                m = hits[b % len(hits)]
                lines[i] = lines[i][:m.start()] + value.encode() + lines[i][m.end():]
        elif kind == "key":
            keys = list(re.finditer(rb'"(\w+)":', lines[i]))
            if keys:
                m = keys[b % len(keys)]
                lines[i] = lines[i][:m.start()] + b'"_' + m.group(1) + b'":' + lines[i][m.end():]
        elif kind == "dup":
            lines.insert(i, lines[b % len(lines)])
        elif kind == "swap":
            j = b % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "drop":
            del lines[i]
        elif kind == "cut":
            joined = b"\n".join(lines)
            return joined[: a % (len(joined) + 1)]
        elif kind == "garbage":
            lines.insert(i, value.encode())
        elif kind == "flip" and lines[i]:
            line = bytearray(lines[i])
            line[b % len(line)] ^= 1 + a % 255
            lines[i] = bytes(line)
        elif kind == "header":
            lines[0] = re.sub(rb'"(format|seed)":\d+', b'"\\1":' + value.encode(), lines[0],
                              count=1)
        if not lines:
            return b""
    return b"\n".join(lines)


@FUZZ
@given(ops=LINE_OPS)
def test_mutated_jsonl_logs(original: Original, tmp_path_factory: pytest.TempPathFactory,
                            ops: list[tuple[str, int, int, str]]) -> None:
    if original.data[4] != 1:
        pytest.skip("the JSON Lines log is the same for both binary formats: fuzzed once")
    data = mutate_lines(original.jsonl, ops)
    STATS["inputs"] += 1
    STATS["jsonl"] += 1
    read_any(data, "fuzz.jsonl")
    folder = tmp_path_factory.mktemp("jsonl", numbered=True)
    intact = original.jsonl.split(b"\n")
    whole = set(intact[:-1])  # complete original lines (each ends in a newline)
    ends, pos = [], 0
    for line in data.split(b"\n")[:-1]:
        pos += len(line) + 1
        if line in whole:
            ends.append(pos)
    repair_and_count_losses(folder / "r.jsonl", data, ends)
    path = folder / "f.jsonl"
    path.write_bytes(data)
    run_cli("verify", path)
