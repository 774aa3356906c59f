"""Damage in a log, told from a torn tail; what repair does and never does (mtgk.log.logfile).

A torn last record (a crash during an append) is cut off by `mtgk verify --repair`, after
a copy of the file is written.  Damage anywhere else is reported as damage (record,
offset, what was expected), the records after it that read with their own checksums
holding are shown by `mtgk log` after a line marking the break, and nothing ever cuts
them off.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from mtgk import kind
from mtgk.agents import HeuristicAgent, RandomAgent
from mtgk.cards.decks import deck_lines
from mtgk.cards.loading import load_registry
from mtgk.games.replay import new_header, run_from_header
from mtgk.log import logfile
from mtgk.log.events import Envelope
from mtgk.log.logfile import (
    CorruptLogError,
    LogFile,
    LogHeader,
    LogWriter,
    TruncatedLogError,
    load_log,
    read_log,
    repair_log,
    write_jsonl,
)
from tests.conftest import run_mtgk as run

REG = load_registry()
DECK = ["Mountain"] * 17 + ["Gray Ogre"] * 19 + ["Shock"] * 4

pytestmark = pytest.mark.usefixtures("reset_structlog")


class Game:
    """A real game's log on disk, with the offset of every record."""

    def __init__(self, path: Path, header: LogHeader, envs: list[Envelope],
                 offsets: list[int]) -> None:
        self.path = path
        self.header = header
        self.envs = envs
        self.offsets = offsets  # start of every record, then the file size
        self.data = path.read_bytes()

    def record_at(self, pos: int) -> int:
        return max(i for i, off in enumerate(self.offsets[:-1]) if off <= pos)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Game:
    header = new_header(REG, ["Alice", "Bob"], [deck_lines(DECK)] * 2, 5, meta={"max_turns": 30})
    g = run_from_header(REG, header, [HeuristicAgent(1), RandomAgent(2)])
    path = tmp_path_factory.mktemp("repair") / "game.mtgk"
    with LogWriter(path, header, version=1) as w:  # format 1: a record at a time
        offsets = [w.append(env) for env in g.log]
    return Game(path, header, list(g.log), [*offsets, path.stat().st_size])


@pytest.fixture
def copy(game: Game, tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "copy.mtgk"
    path.write_bytes(game.data)
    yield path


def _damaged(path: Path, data: bytes) -> LogFile:
    path.write_bytes(data)
    with pytest.raises(CorruptLogError) as info:
        read_log(path)
    assert info.value.log is not None
    return info.value.log


# ------------------------------------------------------------------ the case


def test_two_bytes_at_the_start_of_a_record_in_the_middle_are_damage(game: Game,
                                                                     copy: Path) -> None:
    k = len(game.envs) // 2
    start = game.offsets[k]
    data = bytearray(game.data)
    data[start:start + 2] = b"\xff\xff"
    copy.write_bytes(bytes(data))
    with pytest.raises(CorruptLogError) as info:
        read_log(copy)
    err = info.value
    assert (err.record, err.offset) == (k, start)
    assert "expected" in err.detail and "found" in err.detail
    log = load_log(copy, salvage=True)
    assert not log.torn and log.envelopes == game.envs[:k]
    [brk] = log.breaks
    assert (brk.record, brk.offset, brk.resume) == (k, start, game.offsets[k + 1])
    assert [e.event for e in brk.envelopes] == [e.event for e in game.envs[k + 1:]]
    # repair leaves it alone, and says why
    with pytest.raises(CorruptLogError):
        repair_log(copy)
    assert copy.read_bytes() == bytes(data)
    assert not list(copy.parent.glob("*.orig*"))  # nothing written: nothing to keep a copy of
    code, out, _ = run("verify", "--repair", copy)
    assert code == 1 and copy.read_bytes() == bytes(data)
    assert f"FAILED: cannot repair: {copy} is damaged at byte {start}, record {k}" in out
    assert f"{len(game.envs) - k - 1} records after the damage" in out
    assert "left unchanged" in out
    code, out, _ = run("verify", copy)
    assert code == 1 and f"nothing from record {k} on is verified" in out


def test_mtgk_log_shows_the_records_after_the_damage_with_the_break(game: Game,
                                                                    copy: Path) -> None:
    k = 200
    data = bytearray(game.data)
    data[game.offsets[k] + 2] ^= 0x55  # inside record k's payload: its length holds
    copy.write_bytes(bytes(data))
    code, out, err = run("log", copy)
    assert code == 1
    lines = out.splitlines()
    assert lines[k - 1].startswith(f"{k - 1} ")
    assert lines[k].startswith(f"--- damaged: record {k} at byte {game.offsets[k]}: crc mismatch")
    assert lines[k + 1].startswith(f"{k + 1} ")  # exact numbers: one record lost
    assert len(lines) == len(game.envs)  # every record but the damaged one, and the marker
    assert f"only events 0 to {k - 1} are the log in sequence" in err
    code, out, _ = run("replay", copy, "--at", k - 1)
    assert code == 1 and out.startswith(f"After {k - 1} ")
    code, _, err = run("replay", copy, "--at", k + 5)  # no state is computed after a break
    assert code == 1  # (the damaged file's status, not bad usage)
    assert f"the log is damaged at record {k} before event {k + 5}" in err
    assert f"only events 0 to {k - 1} are the log in sequence" in err
    code, out, _ = run("log", copy, "--json")  # the intact prefix, as a log of its own
    assert code == 1
    prefix = copy.parent / "prefix.jsonl"
    prefix.write_text(out)
    assert load_log(prefix).envelopes == game.envs[:k]


def test_a_damaged_stored_crc_loses_nothing(game: Game, copy: Path) -> None:
    k = 123
    data = bytearray(game.data)
    data[game.offsets[k + 1] - 2] ^= 0x01  # the last byte but one of record k's crc
    log = _damaged(copy, bytes(data))
    [brk] = log.breaks
    assert brk.record == k and brk.lost == 0 and brk.exact
    assert log.envelopes + brk.envelopes == game.envs  # the next crc confirms record k


def test_a_damaged_length_in_the_middle_is_damage_not_a_torn_tail(game: Game,
                                                                   copy: Path) -> None:
    k = 77
    data = bytearray(game.data)
    data[game.offsets[k]:game.offsets[k] + 1] = b"\xff\x7f"  # a 2-byte length past the end
    log = _damaged(copy, bytes(data))
    [brk] = log.breaks
    assert brk.record == k and "damaged record length" in brk.detail
    assert "where the next intact record starts" in brk.detail
    assert [e.event for e in brk.envelopes] == [e.event for e in game.envs[k + 1:]]
    assert not brk.exact and brk.envelopes[0].seq == k + 1  # numbered as if one was lost


def test_two_damaged_places_and_a_torn_tail(game: Game, copy: Path) -> None:
    a, b = 100, 400
    data = bytearray(game.data)
    data[game.offsets[a] + 1] ^= 0x20
    data[game.offsets[b] + 1] ^= 0x20
    cut = bytes(data[:-3])  # and a crash in the last append
    log = _damaged(copy, cut)
    assert [brk.record for brk in log.breaks] == [a, b]
    assert log.torn and log.problems[-1].kind == "torn"
    salvaged = [e.event for brk in log.breaks for e in brk.envelopes]
    assert salvaged == [e.event for e in game.envs[a + 1:b] + game.envs[b + 1:-1]]
    with pytest.raises(CorruptLogError):
        repair_log(copy)
    assert copy.read_bytes() == cut


def test_an_undecodable_record_with_a_valid_crc_keeps_the_chain(game: Game, copy: Path) -> None:
    """A record whose crc holds but whose tag index is past the event table (a writer bug):
    the records after it still chain from its crc."""
    k = 50
    data = bytearray(game.data)
    start, end = game.offsets[k], game.offsets[k + 1]
    length = data[start]
    assert length < 0x80
    payload = bytearray(data[start + 1:end - 4])
    payload[0] = 0x7F  # tag index 127: the table is smaller
    prev = int.from_bytes(data[start - 4:start], "little")
    crc = zlib.crc32(bytes(payload), prev)
    data[start + 1:end] = bytes(payload) + crc.to_bytes(4, "little")
    # the records after it chained from the old crc: rewrite the chain from here on
    chained = crc
    for j in range(k + 1, len(game.envs)):
        s, e = game.offsets[j], game.offsets[j + 1]
        n_len = 1 if data[s] < 0x80 else 2
        body = bytes(data[s + n_len:e - 4])
        chained = zlib.crc32(body, chained)
        data[e - 4:e] = chained.to_bytes(4, "little")
    log = _damaged(copy, bytes(data))
    [brk] = log.breaks
    assert brk.record == k and "tag index" in brk.detail and brk.exact and brk.lost == 1
    assert brk.envelopes == game.envs[k + 1:]


# ------------------------------------------------------------------ what a torn tail is


def test_a_torn_tail_is_cut_and_the_original_kept(game: Game, copy: Path) -> None:
    k = len(game.envs) - 1
    torn = game.data[:-5]
    copy.write_bytes(torn)
    log = read_log(copy)
    assert log.torn and not log.breaks and log.envelopes == game.envs[:k]
    done = repair_log(copy)
    assert done is not None and done.size == game.offsets[k]
    assert done.backup == f"{copy}.orig" and Path(done.backup).read_bytes() == torn
    assert read_log(copy, strict=True).envelopes == game.envs[:k]
    copy.write_bytes(torn)  # again: the first copy is never overwritten
    done = repair_log(copy)
    assert done is not None and done.backup == f"{copy}.orig.1"
    assert Path(f"{copy}.orig").read_bytes() == torn == Path(f"{copy}.orig.1").read_bytes()
    assert repair_log(copy) is None  # nothing to do: nothing written


def test_a_zero_filled_tail_is_torn(game: Game, copy: Path) -> None:
    copy.write_bytes(game.data + bytes(4096))
    log = read_log(copy)
    assert log.torn and log.envelopes == game.envs and "zero bytes" in log.problems[0].message
    with pytest.raises(TruncatedLogError):
        read_log(copy, strict=True)


def test_a_crc_mismatch_followed_by_garbage_is_not_a_torn_tail(game: Game, copy: Path) -> None:
    data = bytearray(game.data)
    k = len(game.envs) - 3
    data[game.offsets[k] + 1] ^= 0x01
    data[game.offsets[k + 1]:] = bytes(random.Random(3).randrange(256)
                                       for _ in range(len(data) - game.offsets[k + 1]))
    copy.write_bytes(bytes(data))
    with pytest.raises(CorruptLogError):
        repair_log(copy)
    assert copy.read_bytes() == bytes(data)


def test_repair_writes_nothing_if_it_cannot_keep_a_copy(game: Game, copy: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    if kind.compiled_modules():
        pytest.skip("replaces a function that the compiled log file calls directly")
    copy.write_bytes(game.data[:-2])

    def no_room(path: str, data: bytes) -> str:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(logfile, "_write_backup", no_room)
    with pytest.raises(OSError):
        repair_log(copy)
    assert copy.read_bytes() == game.data[:-2]
    code, _, err = run("verify", "--repair", copy)
    assert code == 2 and "cannot repair" in err and "the file is unchanged" in err
    assert copy.read_bytes() == game.data[:-2]


# ------------------------------------------------------------------ JSON Lines


def test_jsonl_damage_in_the_middle(game: Game, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write_jsonl(path, game.header, game.envs)
    lines = path.read_bytes().split(b"\n")
    lines[41] = lines[41][:20] + b"#" + lines[41][21:]  # record 40: no longer JSON
    data = b"\n".join(lines)
    path.write_bytes(data)
    with pytest.raises(CorruptLogError) as info:
        load_log(path)
    assert info.value.record == 40
    log = load_log(path, salvage=True)
    [brk] = log.breaks
    assert brk.record == 40 and brk.lost == 1 and not brk.checked
    assert log.envelopes + brk.envelopes == game.envs[:40] + game.envs[41:]
    with pytest.raises(CorruptLogError):
        repair_log(path)
    assert path.read_bytes() == data
    path.write_bytes(data.replace(lines[41] + b"\n", b""))  # a line deleted: records lost
    log = load_log(path, salvage=True)
    assert log.breaks[0].lost == 1 and "expected seq 40, found 41" in log.breaks[0].detail


def test_jsonl_torn_last_line_is_cut_with_a_copy_kept(game: Game, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write_jsonl(path, game.header, game.envs)
    data = path.read_bytes()[:-7]
    path.write_bytes(data)
    done = repair_log(path)
    assert done is not None and Path(done.backup).read_bytes() == data
    assert load_log(path, strict=True).envelopes == game.envs[:-1]


# ------------------------------------------------------------------ linear time


def test_finding_intact_records_after_damage_is_linear(game: Game, copy: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Telling damage from a torn tail computes a crc at few offsets: the number of crc
    computations stays near the number of records, even with a long run of random bytes
    in the middle (it used to compute a crc per byte for every candidate record start:
    seconds for a 1.7 MB log)."""
    calls = [0]
    real = zlib.crc32

    def counting(data: bytes | memoryview, value: int = 0) -> int:
        calls[0] += 1
        return real(data, value)

    big = LogHeader(kernel_version="0", cardsets=[], players=["A", "B"], seed=1)
    envs = game.envs[1:] * 40
    envs = [Envelope(i, max(-1, min(e.cause, i - 1)), e.event) for i, e in enumerate(envs)]
    with LogWriter(copy, big, version=1) as w:
        offsets = [w.append(env) for env in envs]
    data = bytearray(copy.read_bytes())
    k = len(envs) // 2
    data[offsets[k]:offsets[k] + 2] = b"\xff\xff"  # the damage
    copy.write_bytes(bytes(data))
    monkeypatch.setattr(zlib, "crc32", counting)
    try:
        read_log(copy)
    except CorruptLogError:
        pass
    assert calls[0] < len(envs) + 100, (calls[0], len(envs))
    noise = bytes(random.Random(1).randrange(256) for _ in range(20_000))
    data[offsets[k // 2]:offsets[k // 2]] = noise  # and 20 KB of noise inserted earlier
    copy.write_bytes(bytes(data))
    calls[0] = 0
    log = read_log(copy, salvage=True)
    assert len(log.breaks) == 2
    assert log.breaks[1].envelopes[-1].event == envs[-1].event
    assert calls[0] < len(envs) + len(noise) // 4 + 100, (calls[0], len(envs))


def test_salvaged_events_decode_like_intact_ones(game: Game, copy: Path) -> None:
    data = bytearray(game.data)
    data[game.offsets[10] + 1] ^= 0xFF
    log = _damaged(copy, bytes(data))
    enc = msgspec.msgpack.Encoder().encode
    assert [enc(e.event) for e in log.breaks[0].envelopes] == \
        [enc(e.event) for e in game.envs[11:]]
