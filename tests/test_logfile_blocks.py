"""The binary log's format 2: records grouped in checksummed blocks (mtgk.log.logfile).

What format 1's tests (tests/test_logfile.py, tests/test_repair.py) check record by record
holds here block by block: a torn last block is cut by repair (after a copy is kept), damage
anywhere else is reported with its record number and offset and never cut, the blocks after
it are read with their own checksums holding, and a writer killed mid-way loses at most the
block it had not written yet.  The blocks are taken apart here by hand (the format as
docs/log-format.md describes it), not with the reader's code.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import msgspec
import pytest

from mtgk.agents import HeuristicAgent, RandomAgent
from mtgk.cards.decks import deck_lines
from mtgk.cards.loading import load_registry
from mtgk.games.replay import new_header, run_from_header
from mtgk.log.events import Envelope, Event, StepBegan, Tapped, Untapped
from mtgk.log.logfile import (
    BLOCK_RECORDS,
    FORMAT_VERSION,
    CorruptLogError,
    LogHeader,
    LogWriter,
    TruncatedLogError,
    UnknownEvent,
    decode_log,
    encode_log,
    read_log,
    repair_log,
    write_log,
)

REG = load_registry()


def header(**kw: object) -> LogHeader:
    return LogHeader(kernel_version="0.1.0", cardsets=[], players=["A", "B"], seed=1,
                     **kw)  # type: ignore[arg-type]


def envs_of(n: int) -> list[Envelope]:
    events: list[Event] = [Tapped(obj=i) if i % 3 == 0 else
                           Untapped(obj=i) if i % 3 == 1 else StepBegan(step="main1")
                           for i in range(n)]
    return [Envelope(i, i - 1 if i % 5 else -1, e) for i, e in enumerate(events)]


def blocks_of(data: bytes) -> list[tuple[int, int, int]]:
    """``(start, payload start, payload end)`` of every block (the crc follows the payload)."""
    assert data[4] == 2
    p = 9 + int.from_bytes(data[5:9], "little") + 4  # the header and its crc
    out = []
    while p < len(data):
        length, shift, q = 0, 0, p
        while True:
            b = data[q]
            q += 1
            length |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80:
                break
        out.append((p, q, q + length))
        p = q + length + 4
    return out


def rewrite_block(data: bytes, k: int, payload: bytes) -> bytes:
    """``data`` with block ``k``'s payload replaced and every crc from there on made to hold."""
    blocks = blocks_of(data)
    hend = 9 + int.from_bytes(data[5:9], "little")
    crc = zlib.crc32(data[9:hend])
    out = bytearray(data[:blocks[0][0]])
    for i, (_, q, end) in enumerate(blocks):
        body = payload if i == k else data[q:end]
        crc = zlib.crc32(body, crc)
        out += _varint(len(body)) + body + crc.to_bytes(4, "little")
    return bytes(out)


def _varint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    return bytes([*out, n])


@pytest.fixture
def ten(tmp_path: Path) -> tuple[Path, list[Envelope], list[tuple[int, int, int]]]:
    """Ten records in blocks of four: records 0-3, 4-7, 8-9."""
    path = tmp_path / "ten.mtgk"
    envs = envs_of(10)
    with LogWriter(path, header(), block=4) as w:
        w.extend(envs)
    blocks = blocks_of(path.read_bytes())
    assert len(blocks) == 3
    return path, envs, blocks


# ------------------------------------------------------------------ layout and round trips


def test_a_whole_log_is_written_in_blocks_of_block_records(tmp_path: Path) -> None:
    rest = BLOCK_RECORDS // 3
    envs = envs_of(2 * BLOCK_RECORDS + rest)
    path = tmp_path / "g.mtgk"
    write_log(path, header(), envs)
    data = path.read_bytes()
    assert data[4] == FORMAT_VERSION == 2
    blocks = blocks_of(data)
    assert len(blocks) == 3
    heads = [msgspec.msgpack.decode(data[q:end]) for _, q, end in blocks]
    assert [(h[0], len(h[1]), len(h[2])) for h in heads] == [
        (0, BLOCK_RECORDS, BLOCK_RECORDS), (BLOCK_RECORDS, BLOCK_RECORDS, BLOCK_RECORDS),
        (2 * BLOCK_RECORDS, rest, rest)]
    # one group per event type, in the order the types first come in the block
    table = [tag for tag, _ in header().events]
    assert [table[t] for t, _ in heads[0][3]] == ["Tapped", "Untapped", "StepBegan"]
    assert heads[0][2][:6] == [1, 1, 1, 1, 1, 6]  # seq - cause (no cause: seq + 1)
    log = read_log(path, strict=True)
    assert log.envelopes == envs and log.intact_size == len(data)
    assert decode_log(encode_log(header(), envs)).envelopes == envs


def test_a_format_1_log_reads_and_rewrites_as_format_2(tmp_path: Path) -> None:
    old, new = tmp_path / "old.mtgk", tmp_path / "new.mtgk"
    envs = envs_of(50)
    write_log(old, header(), envs, version=1)
    log = read_log(old, strict=True)
    assert old.read_bytes()[4] == 1 and log.header.format == 1 and log.envelopes == envs
    write_log(new, log.header, log.envelopes)
    again = read_log(new, strict=True)
    assert new.read_bytes()[4] == 2 and again.header.format == 2 and again.envelopes == envs


def test_reopen_continues_a_log_in_its_own_format(tmp_path: Path) -> None:
    for version in (1, 2):
        path = tmp_path / f"v{version}.mtgk"
        envs = envs_of(12)
        write_log(path, header(), envs[:7], version=version)
        with LogWriter.reopen(path, block=2) as w:
            assert w.next_seq == 7
            w.extend(envs[7:])
        assert path.read_bytes()[4] == version
        assert read_log(path, strict=True).envelopes == envs
    # format 2, continued in blocks of two: the 7 first records, then 2, 2 and 1
    sizes = [len(msgspec.msgpack.decode(path.read_bytes()[q:end])[1])
             for _, q, end in blocks_of((tmp_path / "v2.mtgk").read_bytes())]
    assert sizes == [7, 2, 2, 1]


def test_a_real_game_takes_fewer_bytes_in_format_2(tmp_path: Path) -> None:
    deck = deck_lines(["Mountain"] * 17 + ["Gray Ogre"] * 23)
    h = new_header(REG, ["A", "B"], [deck, deck], 3)
    game = run_from_header(REG, h, [RandomAgent(1), HeuristicAgent(2)])
    sizes = {}
    for version in (1, 2):
        empty = len(encode_log(h, [], version=version))
        sizes[version] = (len(encode_log(h, game.log, version=version)) - empty) / len(game.log)
    assert sizes[2] < sizes[1] - 3 and sizes[2] <= 22  # issue 15: at most 22 bytes an event


# ------------------------------------------------------------------ streaming


def test_a_writer_killed_mid_way_loses_at_most_the_block_it_keeps(tmp_path: Path) -> None:
    """The file as a process killed after these appends leaves it (nothing closed): every
    full block is written and flushed, the records of the block in flight are not there."""
    path = tmp_path / "live.mtgk"
    envs = envs_of(11)
    w = LogWriter(path, header(), block=4)
    offsets = [w.append(env) for env in envs]
    log = read_log(path, strict=True)  # what is on disk now
    assert log.envelopes == envs[:8] and not log.torn
    assert offsets[8] == offsets[10] == path.stat().st_size  # the next block starts there
    w.flush()  # writes the three kept ones as a shorter block
    assert read_log(path, strict=True).envelopes == envs
    w.append(Envelope(11, 10, Tapped(obj=1)))
    w.close()
    assert read_log(path, strict=True).envelopes == [*envs, Envelope(11, 10, Tapped(obj=1))]


def test_block_of_one_writes_every_record_at_once(tmp_path: Path) -> None:
    path = tmp_path / "one.mtgk"
    w = LogWriter(path, header(), block=1)
    for env in envs_of(3):
        w.append(env)
        assert len(read_log(path).envelopes) == env.seq + 1
    w.close()
    with pytest.raises(ValueError, match="at least one record"):
        LogWriter(tmp_path / "x.mtgk", header(), block=0)


def test_the_writer_checks_each_envelope_as_it_is_appended(tmp_path: Path) -> None:
    with LogWriter(tmp_path / "w.mtgk", header(events=[("Tapped", 1)])) as w:
        w.append(Envelope(0, -1, Tapped(obj=1)))
        with pytest.raises(ValueError, match="seq 1"):
            w.append(Envelope(2, -1, Tapped(obj=1)))
        with pytest.raises(ValueError, match="not in the header's event table"):
            w.append(Envelope(1, -1, Untapped(obj=1)))
        with pytest.raises(ValueError, match="cause"):
            w.append(Envelope(1, 1, Tapped(obj=1)))
    assert read_log(tmp_path / "w.mtgk").envelopes == [Envelope(0, -1, Tapped(obj=1))]


# ------------------------------------------------------------------ torn tails and repair


def test_a_torn_last_block_at_every_cut(ten: tuple[Path, list[Envelope], list[tuple[int, int, int]]]
                                        ) -> None:
    path, envs, blocks = ten
    data = path.read_bytes()
    last = blocks[-1][0]
    for cut in range(1, len(data) - last):  # cutting all of it leaves a clean log
        path.write_bytes(data[:-cut])
        log = read_log(path)
        assert log.torn and log.envelopes == envs[:8] and log.intact_size == last, cut
        [problem] = log.problems
        assert (problem.kind, problem.offset, problem.record) == ("torn", last, 8)
        assert "torn last block" in problem.message and f"byte {last}" in str(problem)
        with pytest.raises(TruncatedLogError) as info:
            read_log(path, strict=True)
        assert (info.value.offset, info.value.record) == (last, 8)


def test_repair_cuts_a_torn_last_block_and_keeps_the_original(
        ten: tuple[Path, list[Envelope], list[tuple[int, int, int]]]) -> None:
    path, envs, blocks = ten
    assert repair_log(path) is None
    torn = path.read_bytes()[:-3]
    path.write_bytes(torn)
    done = repair_log(path)
    assert done is not None and done.size == blocks[-1][0] == path.stat().st_size
    assert Path(done.backup).read_bytes() == torn
    assert read_log(path, strict=True).envelopes == envs[:8]
    with pytest.raises(TruncatedLogError):
        LogWriter.reopen(Path(done.backup))
    with LogWriter.reopen(path) as w:
        assert w.next_seq == 8
        w.extend(envs[8:])
    assert read_log(path, strict=True).envelopes == envs


def test_a_last_block_with_a_bad_crc_is_torn_and_zeros_after_the_log_too(
        ten: tuple[Path, list[Envelope], list[tuple[int, int, int]]]) -> None:
    path, envs, blocks = ten
    data = path.read_bytes()
    bad = bytearray(data)
    bad[-2] ^= 0xFF
    path.write_bytes(bytes(bad))
    log = read_log(path)
    assert log.torn and log.envelopes == envs[:8] and "crc mismatch" in log.problems[0].message
    path.write_bytes(data + bytes(40))
    log = read_log(path)
    assert log.torn and log.envelopes == envs and "zero bytes instead of a block" in \
        log.problems[0].message


# ------------------------------------------------------------------ damage


def test_damage_in_a_middle_block_is_reported_and_the_blocks_after_it_are_read(
        ten: tuple[Path, list[Envelope], list[tuple[int, int, int]]]) -> None:
    path, envs, blocks = ten
    data = path.read_bytes()
    start, q, end = blocks[1]
    for pos in range(start, end + 4):  # every byte of block 1 (records 4-7), its crc too
        bad = bytearray(data)
        bad[pos] ^= 0x41
        path.write_bytes(bytes(bad))
        with pytest.raises(CorruptLogError) as info:
            read_log(path)
        assert (info.value.record, info.value.offset) == (4, start), pos
        assert "expected" in str(info.value) and "found" in str(info.value)
        log = read_log(path, salvage=True)
        assert log.envelopes == envs[:4] and not log.torn and log.intact_size == start
        [brk] = log.breaks
        assert (brk.record, brk.offset, brk.exact) == (4, start, True)
        if pos >= end:  # only the stored crc: the next block confirms the payload
            assert (brk.resume, brk.lost, brk.envelopes) == (start, 0, envs[4:])
        else:  # the block is lost, the next one is read, numbered as it says
            assert (brk.resume, brk.lost, brk.envelopes) == (blocks[2][0], 4, envs[8:])
        with pytest.raises(CorruptLogError):
            repair_log(path)
        assert path.read_bytes() == bytes(bad)  # repair writes nothing, cuts nothing
        assert not list(path.parent.glob("*.orig*"))


def test_a_flipped_header_byte_is_damage_never_a_torn_tail(
        ten: tuple[Path, list[Envelope], list[tuple[int, int, int]]]) -> None:
    """The header has its own crc: a log of one block with a damaged header must not look
    like a torn last block (repair would cut the block)."""
    path = ten[0]
    write_log(path, header(), envs_of(5))
    data = path.read_bytes()
    hend = 9 + int.from_bytes(data[5:9], "little")
    for pos in range(9, hend + 4):
        bad = bytearray(data)
        bad[pos] ^= 0x01
        path.write_bytes(bytes(bad))
        with pytest.raises(CorruptLogError) as info:
            read_log(path)
        assert info.value.record is None and info.value.offset == 9, pos
        assert "header crc mismatch" in str(info.value)
        with pytest.raises(CorruptLogError):
            repair_log(path)
        assert path.read_bytes() == bytes(bad)
    path.write_bytes(data[:hend + 2])
    with pytest.raises(TruncatedLogError, match="header's 4-byte crc"):
        read_log(path)


def _payload(first: int, tags: list[int], deltas: list[int],
             groups: list[tuple[int, list[bytes]]]) -> bytes:
    enc = msgspec.msgpack.encode
    raws = [(t, msgspec.Raw(enc([msgspec.Raw(b) for b in bodies]))) for t, bodies in groups]
    return enc([first, tags, deltas, raws])


@pytest.mark.parametrize(("change", "expected"), [
    ("first", "expected a block starting at record 4, found one starting at 5"),
    ("tag", "tag indexes below"),
    ("short", "expected 2 Tapped events (as the block's tags say), found 1"),
    ("long", "expected 2 Tapped events (as the block's tags say), found 3"),
    ("missing", "expected a group of Untapped events"),
    ("delta", "expected cause deltas of at most the record number + 1"),
    ("type", "expected Tapped events, decoding failed"),
    ("shape", "expected a block (an array of the first record number"),
])
def test_a_block_whose_crc_holds_but_cannot_be_decoded_is_damage_and_the_chain_goes_on(
        ten: tuple[Path, list[Envelope], list[tuple[int, int, int]]], change: str,
        expected: str) -> None:
    """A writer bug (the crc holds): reported with the block's first record and offset; the
    next block is read (its crc chains from this one's) and says how many were lost."""
    path, envs, blocks = ten
    table = [tag for tag, _ in header().events]
    tp, un = table.index("Tapped"), table.index("Untapped")
    t = msgspec.msgpack.encode(Tapped(obj=1))
    u = msgspec.msgpack.encode(Untapped(obj=1))
    first, tags, deltas, groups = 4, [tp, un, tp, un], [1, 1, 1, 1], [(tp, [t, t]), (un, [u, u])]
    if change == "first":
        first = 5
    elif change == "tag":  # a tag index past the event table
        tags[1] = tags[3] = len(table) + 3
        groups = [(tp, [t, t]), (len(table) + 3, [u, u])]
    elif change == "short":
        groups[0] = (tp, [t])
    elif change == "long":
        groups[0] = (tp, [t, t, t])
    elif change == "missing":
        groups = groups[:1]
    elif change == "delta":
        deltas[0] = 6  # record 4's cause would be -2
    elif change == "type":
        groups[0] = (tp, [t, msgspec.msgpack.encode(["x", "y"])])
    payload = (msgspec.msgpack.encode([4, tags]) if change == "shape"
               else _payload(first, tags, deltas, groups))
    path.write_bytes(rewrite_block(path.read_bytes(), 1, payload))
    with pytest.raises(CorruptLogError) as info:
        read_log(path)
    assert (info.value.record, info.value.offset) == (4, blocks[1][0])
    assert expected in str(info.value)
    log = read_log(path, salvage=True)
    [brk] = log.breaks
    new_blocks = blocks_of(path.read_bytes())
    assert (brk.resume, brk.lost, brk.envelopes) == (new_blocks[2][0], 4, envs[8:])
    assert log.envelopes == envs[:4]


def test_a_block_made_by_hand_reads_like_a_written_one(
        ten: tuple[Path, list[Envelope], list[tuple[int, int, int]]]) -> None:
    """The layout of docs/log-format.md: a block built from it reads back (the test of the
    reader's checks above change one thing of this block)."""
    path, envs, blocks = ten
    table = [tag for tag, _ in header().events]
    tp, un = table.index("Tapped"), table.index("Untapped")
    t, u = msgspec.msgpack.encode(Tapped(obj=1)), msgspec.msgpack.encode(Untapped(obj=2))
    payload = _payload(4, [tp, un, tp, un], [1, 5, 1, 2], [(un, [u, u]), (tp, [t, t])])
    path.write_bytes(rewrite_block(path.read_bytes(), 1, payload))
    log = read_log(path, strict=True)
    assert log.envelopes[4:8] == [Envelope(4, 3, Tapped(obj=1)), Envelope(5, 0, Untapped(obj=2)),
                                  Envelope(6, 5, Tapped(obj=1)), Envelope(7, 5, Untapped(obj=2))]
    assert log.envelopes[8:] == envs[8:]


# ------------------------------------------------------------------ events this kernel cannot decode


class FutureThing(Event, frozen=True):
    """A test-only event type, registered while a log is written and not while it is read."""

    TAG = "FutureThing"
    x: int
    y: str


def test_unknown_events_in_a_block_are_kept_and_written_back_the_same(tmp_path: Path) -> None:
    from mtgk.log import events as ev

    envs = [Envelope(0, -1, Tapped(obj=1)), Envelope(1, 0, FutureThing(x=7, y="z")),
            Envelope(2, 1, Untapped(obj=1)), Envelope(3, 1, FutureThing(x=8, y="w"))]
    path, again = tmp_path / "f.mtgk", tmp_path / "g.mtgk"
    ev.EVENT_TYPES["FutureThing"] = FutureThing
    try:
        h = header()  # (its event table lists the registered types: FutureThing too)
        assert ("FutureThing", 1) in h.events
        write_log(path, h, envs)
    finally:
        del ev.EVENT_TYPES["FutureThing"]
    log = read_log(path)
    assert [p.record for p in log.problems] == [1, 3]
    assert all(p.kind == "unknown-event" and p.offset == blocks_of(path.read_bytes())[0][0]
               for p in log.problems)
    unknown = log.envelopes[1].event
    assert isinstance(unknown, UnknownEvent) and unknown.tag == "FutureThing"
    assert msgspec.msgpack.decode(unknown.raw) == [7, "z"]
    assert log.envelopes[2] == envs[2]
    write_log(again, log.header, log.envelopes)
    assert again.read_bytes() == path.read_bytes()
