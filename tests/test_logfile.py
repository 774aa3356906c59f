"""Tests for the game log file formats (mtgk.log.logfile)."""

from __future__ import annotations

import doctest
import io
import os
import zlib
from pathlib import Path
from typing import Any, ClassVar

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgk import kind
from mtgk.log import codec, damage, jsonl, loaded, logfile, reader, upcasting, writer
from mtgk.log.events import (
    EVENT_TYPES,
    UNLISTED_UNLESS_USED,
    AbilityActivated,
    AbilityTriggered,
    Attached,
    AttackersDeclared,
    BlockersDeclared,
    CombatEnded,
    ControlChanged,
    CounterPlaced,
    CounterRemoved,
    DamageDealt,
    DamageRedirected,
    DamageRemoved,
    DecisionMade,
    EffectCreated,
    EffectsEnded,
    Envelope,
    Event,
    GameEnded,
    GameStarted,
    GameVariant,
    LandPlayed,
    LibraryShuffled,
    LifeGained,
    LifeLost,
    ManaAdded,
    ManaEmptied,
    ManaSpent,
    ObjectCreated,
    ObjectFlagged,
    PlayerLost,
    RemovedFromCombat,
    RemovedFromGame,
    Revealed,
    SpellCast,
    StackItemCountered,
    StackItemResolved,
    StepBegan,
    Tapped,
    TokenCreated,
    TriggerPutOnStack,
    TurnBegan,
    Untapped,
    ZoneChanged,
)
from mtgk.log.logfile import (
    FORMAT_VERSION,
    MAGIC,
    CorruptLogError,
    ForeignFileError,
    LogError,
    LogFile,
    LogHeader,
    LogWriter,
    NewerVersionError,
    TruncatedLogError,
    UnknownEvent,
    decode_log,
    encode_log,
    load_log,
    read_jsonl,
    read_log,
    register_upcaster,
    repair_log,
    write_jsonl,
    write_log,
)

# --------------------------------------------------------------------------
# Fixtures and helpers


def make_header(**kw: Any) -> LogHeader:
    base: dict[str, Any] = dict(
        kernel_version="0.1.0",
        cardsets=[("core", "1.0"), ("lorwyn", "0.3")],
        players=["Alice", "Bob"],
        decks=[["20 Forest", "4 Llanowar Elves"], ["20 Island"]],
        seed=1234,
        meta={"scenario": "test", "branched_from": None},
    )
    base.update(kw)
    return LogHeader(**base)


SAMPLE_EVENTS: list[Event] = [
    GameStarted(players=("Alice", "Bob"), seed=1234),
    ObjectCreated(obj=1, card="Llanowar Elves", owner=0, zone="library"),
    ObjectCreated(obj=2, card="Forest", owner=0, zone="battlefield", controller=0, tapped=True),
    LibraryShuffled(player=0, order=(5, 3, 1, 4, 2)),
    TurnBegan(turn=1, active=0),
    StepBegan(step="untap"),
    Untapped(obj=2),
    StepBegan(step="draw"),
    ZoneChanged(obj=3, new_obj=40, from_zone="library", to_zone="hand", reason="draw", position=0),
    DecisionMade(player=0, kind="priority", choice=0),
    DecisionMade(player=0, kind="targets", choice=[1, 2, [3, "x"]]),
    DecisionMade(player=1, kind="may", choice=None),
    LandPlayed(player=0, obj=40, new_obj=41),
    Tapped(obj=41),
    ManaAdded(player=0, mana="G"),
    SpellCast(obj=1, new_obj=42, controller=0, targets=(-2,), modes=(1,), x=3, alt="evoke"),
    ManaSpent(player=0, mana="G"),
    ManaEmptied(player=0),
    AbilityActivated(item=43, source=41, ability="tap: add G", controller=0, targets=(7, 8)),
    AbilityTriggered(item=44, source=42, ability="etb", controller=0, data={"n": 2, "k": [1]}),
    TriggerPutOnStack(item=44, targets=(-1,)),
    StackItemResolved(item=44),
    StackItemResolved(item=43, fizzled=True),
    StackItemCountered(item=42),
    TokenCreated(obj=50, card="Elf Warrior", owner=0, controller=0, attached_to=0, tapped=True),
    CounterPlaced(obj=50, kind="+1/+1", n=2),
    CounterRemoved(obj=50, kind="+1/+1", n=1),
    Attached(obj=51, to=50),
    ControlChanged(obj=50, controller=1),
    ObjectFlagged(obj=50, key="evoked", value=True),
    ObjectFlagged(obj=50, key="x", value=[1, 2]),
    Revealed(player=1, objs=(3, 4), to=(0,)),
    RemovedFromGame(obj=4, new_obj=52, from_zone="hand", face_down=True, exiled_with=50),
    AttackersDeclared(attacks=((50, -2), (41, 60))),
    BlockersDeclared(blocks=((70, 50),)),
    DamageDealt(source=50, target=-2, amount=3, combat=True),
    DamageDealt(source=70, target=50, amount=1, deathtouch=True),
    DamageRedirected(source=50, from_player=1, to=60, amount=2),
    LifeLost(player=1, n=3),
    LifeGained(player=0, n=4),
    RemovedFromCombat(obj=50),
    CombatEnded(),
    EffectCreated(effect=1, kind="pump", source=42, controller=0, objs=(50,), params={"p": 2}),
    EffectsEnded(effects=(1, 2)),
    DamageRemoved(),
    PlayerLost(player=1, reason="life"),
    GameEnded(winner=0),
]


def envelopes_for(events: list[Event]) -> list[Envelope]:
    out = []
    for i, ev in enumerate(events):
        cause = -1 if i % 5 == 0 else (i - 1 if i % 3 else i // 2)
        out.append(Envelope(seq=i, cause=cause, event=ev))
    return out


SAMPLE = envelopes_for(SAMPLE_EVENTS)


def small_mix(n: int) -> list[Envelope]:
    """A plausible stream of small, frequent events."""
    events: list[Event] = []
    for i in range(n):
        r = i % 6
        if r == 0:
            events.append(DecisionMade(player=i % 2, kind="priority", choice=0))
        elif r == 1:
            events.append(Tapped(obj=1 + i % 250))
        elif r == 2:
            events.append(DamageDealt(source=1 + i % 250, target=-1 - i % 2, amount=1 + i % 5))
        elif r == 3:
            events.append(Untapped(obj=1 + i % 250))
        elif r == 4:
            events.append(ManaAdded(player=i % 2, mana="G"))
        else:
            events.append(StepBegan(step="main1"))
    return [Envelope(i, i - 1 if i else -1, ev) for i, ev in enumerate(events)]


def write_with_offsets(
    path: Path, envs: list[Envelope], header: LogHeader | None = None
) -> list[int]:
    """Write with LogWriter in format 1 (a record at a time: the tests of torn records and
    damage that use it are about that format; tests/test_logfile_blocks.py has format 2's);
    returns the start offset of every record and the file size."""
    with LogWriter(path, header or make_header(), version=1) as w:
        offsets = [w.append(env) for env in envs]
    return [*offsets, path.stat().st_size]


# --------------------------------------------------------------------------
# Round trips


def test_sample_covers_many_event_types() -> None:
    tags = {ev.TAG for ev in SAMPLE_EVENTS}
    assert len(tags) >= 40
    assert tags <= set(EVENT_TYPES)


def test_binary_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "game.mtgk"
    header = make_header()
    size = write_log(path, header, SAMPLE)
    assert size == path.stat().st_size
    log = read_log(path)
    assert log.envelopes == SAMPLE
    assert log.header == header
    assert log.header.cardsets[0] == ("core", "1.0")  # tuples stay tuples
    assert not log.torn and log.problems == []
    assert log.intact_size == size
    assert log.events == SAMPLE_EVENTS


def test_logwriter_matches_write_log(tmp_path: Path) -> None:
    a, b = tmp_path / "a.mtgk", tmp_path / "b.mtgk"
    header = make_header()
    write_log(a, header, iter(SAMPLE))
    with LogWriter(b, header) as w:
        for env in SAMPLE:
            w.append(env)
        assert w.next_seq == len(SAMPLE)
    assert w.closed
    assert a.read_bytes() == b.read_bytes()


def test_jsonl_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    header = make_header()
    write_jsonl(path, header, SAMPLE)
    lines = path.read_text().splitlines()
    assert msgspec.json.decode(lines[0])["header"]["players"] == ["Alice", "Bob"]
    first = msgspec.json.decode(lines[1])
    assert first == {
        "seq": 0,
        "cause": -1,
        "type": "GameStarted",
        "v": 1,
        "event": {"players": ["Alice", "Bob"], "seed": 1234, "profile": "lorwyn-2007"},
    }
    log = read_jsonl(path)
    assert log.envelopes == SAMPLE
    assert log.header == header
    assert not log.torn and log.problems == []
    assert load_log(path).envelopes == SAMPLE


def test_jsonl_to_text_and_binary_streams() -> None:
    header = make_header()
    text, raw = io.StringIO(), io.BytesIO()
    write_jsonl(text, header, SAMPLE[:5])
    write_jsonl(raw, header, SAMPLE[:5])
    assert text.getvalue().encode() == raw.getvalue()
    assert len(text.getvalue().splitlines()) == 6


def test_jsonl_fields_may_be_omitted_when_defaulted(tmp_path: Path) -> None:
    path = tmp_path / "hand.jsonl"
    header = msgspec.json.encode({"header": make_header()}).decode()
    path.write_text(
        header + "\n"
        '{"seq": 0, "cause": -1, "type": "SpellCast", "v": 1, '
        '"event": {"obj": 1, "new_obj": 2, "controller": 0, "targets": [5]}}\n'
        "\n"
    )
    log = load_log(path)
    assert log.envelopes == [
        Envelope(0, -1, SpellCast(obj=1, new_obj=2, controller=0, targets=(5,)))
    ]


def test_load_log_dispatches(tmp_path: Path) -> None:
    b, j = tmp_path / "g.mtgk", tmp_path / "g.jsonl"
    write_log(b, make_header(), SAMPLE)
    write_jsonl(j, make_header(), SAMPLE)
    assert load_log(b).envelopes == load_log(j).envelopes == SAMPLE
    # the extension does not matter
    swapped = tmp_path / "g.txt"
    swapped.write_bytes(b.read_bytes())
    assert load_log(swapped).envelopes == SAMPLE


def test_empty_log(tmp_path: Path) -> None:
    path = tmp_path / "empty.mtgk"
    with LogWriter(path, make_header()):
        pass
    log = read_log(path)
    assert log.envelopes == [] and not log.torn
    assert path.read_bytes()[:5] == MAGIC + bytes((FORMAT_VERSION,))


@pytest.mark.parametrize("version", [1, 2])
def test_bytes_per_event_is_small(tmp_path: Path, version: int) -> None:
    envs = small_mix(3000)
    path = tmp_path / "mix.mtgk"
    header = make_header()
    write_log(path, header, envs, version=version)
    with LogWriter(tmp_path / "empty.mtgk", header, version=version):
        pass
    header_size = (tmp_path / "empty.mtgk").stat().st_size
    per_event = (path.stat().st_size - header_size) / len(envs)
    print(f"bytes per event: {per_event:.2f}")
    assert per_event < (30 if version == 1 else 9)  # (format 1: 8.1 bytes; format 2: 3.3)
    # the common case is much smaller still
    w = tmp_path / "one.mtgk"
    write_log(w, header, [Envelope(0, -1, Tapped(obj=42))], version=version)
    if version == 1:  # length 1 + tag 1 + cause 1 + [42, false] 3 + crc 4
        assert w.stat().st_size - header_size == 10
    else:  # length 1 + [first 0, [tag], [cause], [[tag, [[42, false]]]]] 13 + crc 4
        assert w.stat().st_size - header_size == 18


def test_a_large_log_round_trips(tmp_path: Path) -> None:
    """60,000 events decode back exactly (speed is reported by bench/run.py, not
    asserted here: CI times nothing)."""
    envs = small_mix(60_000)
    path = tmp_path / "big.mtgk"
    write_log(path, make_header(), envs)
    assert read_log(path).envelopes == envs


# --------------------------------------------------------------------------
# Property: random event sequences round-trip through both formats

_ints = st.integers(min_value=-(2**31), max_value=2**40)
_small = st.integers(min_value=-3, max_value=300)
_plain = st.recursive(
    st.none() | st.booleans() | _ints | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3),
    max_leaves=6,
)
_event_strategy: st.SearchStrategy[Event] = st.one_of(
    st.builds(Tapped, obj=_small),
    st.builds(Untapped, obj=_ints),
    st.builds(DecisionMade, player=st.integers(0, 1), kind=st.text(max_size=12), choice=_plain),
    st.builds(
        DamageDealt,
        source=_small,
        target=_small,
        amount=_ints,
        combat=st.booleans(),
        deathtouch=st.booleans(),
    ),
    st.builds(CounterPlaced, obj=_small, kind=st.text(max_size=10), n=_ints),
    st.builds(
        AttackersDeclared,
        attacks=st.lists(st.tuples(_small, _small), max_size=4).map(tuple),
    ),
    st.builds(LibraryShuffled, player=st.integers(0, 1), order=st.lists(_small).map(tuple)),
    st.builds(CombatEnded),
)


@st.composite
def _envelope_lists(draw: st.DrawFn) -> list[Envelope]:
    events = draw(st.lists(_event_strategy, max_size=40))
    envs = []
    for seq, ev in enumerate(events):
        cause = draw(st.integers(min_value=-1, max_value=seq - 1))
        envs.append(Envelope(seq, cause, ev))
    return envs


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(envs=_envelope_lists(), version=st.sampled_from([1, 2]), block=st.integers(1, 9))
def test_round_trip_property(tmp_path: Path, envs: list[Envelope], version: int,
                             block: int) -> None:
    header = make_header()
    b, j, w = tmp_path / "p.mtgk", tmp_path / "p.jsonl", tmp_path / "w.mtgk"
    write_log(b, header, envs, version=version)
    write_jsonl(j, header, envs)
    with LogWriter(w, header, version=version, block=block) as writer:
        writer.extend(envs)
    for log in (read_log(b), read_jsonl(j), read_log(w)):
        assert log.envelopes == envs
        assert not log.torn and log.problems == []
    # a torn tail never loses more than the last record (format 1) or block (format 2)
    if envs:
        data = w.read_bytes()
        w.write_bytes(data[:-1])
        log = read_log(w)
        last = 1 if version == 1 else (len(envs) - 1) % block + 1
        assert log.torn and log.envelopes == envs[:-last]


# --------------------------------------------------------------------------
# Torn tails


@pytest.fixture
def five(tmp_path: Path) -> tuple[Path, list[Envelope], list[int]]:
    envs = SAMPLE[:5]
    path = tmp_path / "five.mtgk"
    offsets = write_with_offsets(path, envs)
    return path, envs, offsets


def test_torn_last_record_every_cut(five: tuple[Path, list[Envelope], list[int]]) -> None:
    path, envs, offsets = five
    data = path.read_bytes()
    last_start = offsets[-2]
    for cut in range(1, len(data) - last_start):  # cutting all of it leaves a clean log
        path.write_bytes(data[:-cut])
        log = read_log(path)
        assert log.torn, cut
        assert log.envelopes == envs[:-1]
        assert log.intact_size == last_start
        [problem] = log.problems
        assert problem.kind == "torn"
        assert (problem.offset, problem.record) == (last_start, len(envs) - 1)
        assert f"byte {last_start}" in str(problem)
        with pytest.raises(TruncatedLogError) as info:
            read_log(path, strict=True)
        assert info.value.offset == last_start
        assert info.value.record == len(envs) - 1
        assert str(path) in str(info.value)


def test_last_record_with_bad_crc_is_torn(five: tuple[Path, list[Envelope], list[int]]) -> None:
    path, envs, offsets = five
    data = bytearray(path.read_bytes())
    data[-2] ^= 0xFF  # e.g. a partially flushed page at the end
    path.write_bytes(bytes(data))
    log = read_log(path)
    assert log.torn and log.envelopes == envs[:-1]
    assert "crc mismatch" in log.problems[0].message


def test_zero_filled_tail_is_torn(five: tuple[Path, list[Envelope], list[int]]) -> None:
    path, envs, offsets = five
    path.write_bytes(path.read_bytes() + bytes(37))
    log = read_log(path)
    assert log.torn and log.envelopes == envs
    assert log.problems[0].record == len(envs)
    assert "zero bytes" in log.problems[0].message


def test_repair_log(five: tuple[Path, list[Envelope], list[int]]) -> None:
    path, envs, offsets = five
    assert repair_log(path) is None
    intact = path.read_bytes()
    path.write_bytes(intact[:-3])
    repaired = repair_log(path)
    assert repaired is not None
    problem = repaired.problem
    assert (problem.record, problem.offset) == (len(envs) - 1, offsets[-2])
    assert path.stat().st_size == offsets[-2] == repaired.size
    assert Path(repaired.backup).read_bytes() == intact[:-3]  # the original, kept
    log = read_log(path, strict=True)
    assert not log.torn and log.envelopes == envs[:-1]
    assert repair_log(path) is None


def test_repair_never_truncates_corruption(five: tuple[Path, list[Envelope], list[int]]) -> None:
    path, envs, offsets = five
    data = bytearray(path.read_bytes())
    data[offsets[1] + 2] ^= 0x40
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptLogError):
        repair_log(path)
    assert path.read_bytes() == bytes(data)


def test_reopen_continues_the_log(five: tuple[Path, list[Envelope], list[int]]) -> None:
    path, envs, offsets = five
    path.write_bytes(path.read_bytes()[:-1])
    with pytest.raises(TruncatedLogError):
        LogWriter.reopen(path)
    repair_log(path)
    with LogWriter.reopen(path) as w:
        assert w.next_seq == 4
        assert w.append(envs[4]) == offsets[4]
        w.append(Envelope(5, 4, Tapped(obj=9)))
    assert read_log(path, strict=True).envelopes == [*envs, Envelope(5, 4, Tapped(obj=9))]


# --------------------------------------------------------------------------
# Corruption and foreign files


def _record_of(offsets: list[int], pos: int) -> int:
    return max(i for i, off in enumerate(offsets[:-1]) if off <= pos)


def test_flipped_byte_in_the_middle(tmp_path: Path) -> None:
    envs = SAMPLE[:12]
    path = tmp_path / "flip.mtgk"
    offsets = write_with_offsets(path, envs)
    data = path.read_bytes()
    # every byte of every record but the last
    for pos in range(offsets[0], offsets[-2]):
        for mask in (0x01, 0x80, 0xFF):
            bad = bytearray(data)
            bad[pos] ^= mask
            path.write_bytes(bytes(bad))
            with pytest.raises(CorruptLogError) as info:
                read_log(path)
            rec = _record_of(offsets, pos)
            assert info.value.record == rec, (pos, mask)
            assert info.value.offset == offsets[rec]
            msg = str(info.value)
            assert f"record {rec} at byte {offsets[rec]}" in msg
            assert "expected" in msg and "found" in msg
            with pytest.raises(CorruptLogError):
                load_log(path)


@pytest.mark.parametrize("version", [1, 2])
def test_flipped_header_byte(tmp_path: Path, version: int) -> None:
    path = tmp_path / "h.mtgk"
    write_log(path, make_header(), SAMPLE[:3], version=version)
    data = bytearray(path.read_bytes())
    hlen = int.from_bytes(data[5:9], "little")
    for pos in range(9, 9 + hlen, 7):
        bad = bytearray(data)
        bad[pos] ^= 0x01
        path.write_bytes(bytes(bad))
        with pytest.raises(CorruptLogError) as info:
            read_log(path)
        assert info.value.record in (None, 0)


def test_damaged_length_is_not_mistaken_for_a_torn_tail(tmp_path: Path) -> None:
    envs = SAMPLE[:8]
    path = tmp_path / "len.mtgk"
    offsets = write_with_offsets(path, envs)
    data = bytearray(path.read_bytes())
    assert data[offsets[2]] < 0x80
    data[offsets[2] : offsets[2] + 1] = b"\xff\x7f"  # a 2-byte length way past the end
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptLogError) as info:
        read_log(path)
    assert info.value.record == 2 and info.value.offset == offsets[2]


def test_bad_magic(tmp_path: Path) -> None:
    path = tmp_path / "x.bin"
    path.write_bytes(b"PK\x03\x04 not a log at all")
    with pytest.raises(ForeignFileError) as info:
        read_log(path)
    assert "not an mtgk log" in str(info.value)
    assert info.value.offset == 0
    with pytest.raises(ForeignFileError):
        load_log(path)
    assert isinstance(info.value, LogError)


def test_text_that_is_not_a_log(tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl"
    path.write_text('{"hello": 1}\n')
    with pytest.raises(ForeignFileError):
        load_log(path)


def test_newer_format_version(tmp_path: Path) -> None:
    path = tmp_path / "new.mtgk"
    write_log(path, make_header(), SAMPLE[:2])
    data = bytearray(path.read_bytes())
    data[4] = FORMAT_VERSION + 1
    path.write_bytes(bytes(data))
    with pytest.raises(NewerVersionError) as info:
        read_log(path)
    assert info.value.offset == 4
    assert str(FORMAT_VERSION + 1) in str(info.value)


def test_truncated_header(tmp_path: Path) -> None:
    path = tmp_path / "h.mtgk"
    write_log(path, make_header(), [])
    data = path.read_bytes()
    for cut in (0, 2, 4, 7, len(data) - 1):
        path.write_bytes(data[:cut])
        with pytest.raises(TruncatedLogError):
            read_log(path)


def test_bad_tag_index_is_corrupt(tmp_path: Path) -> None:
    # a well-checksummed record pointing past the event table: a writer bug, not a torn tail
    header = make_header(events=[("Tapped", 1)])
    path = tmp_path / "t.mtgk"
    write_log(path, header, [Envelope(0, -1, Tapped(obj=1))], version=1)
    data = bytearray(path.read_bytes())
    hlen = int.from_bytes(data[5:9], "little")
    start = 9 + hlen
    payload = bytes([5, 1]) + msgspec.msgpack.encode(Tapped(obj=1))
    crc = zlib.crc32(payload, zlib.crc32(bytes(data[9:start])))
    data[start:] = bytes([len(payload)]) + payload + crc.to_bytes(4, "little")
    path.write_bytes(bytes(data))
    with pytest.raises(CorruptLogError) as info:
        read_log(path)
    assert info.value.record == 0 and "tag index" in str(info.value)


# --------------------------------------------------------------------------
# Writer checks


def test_logwriter_refuses_gaps_and_double_appends(tmp_path: Path) -> None:
    with LogWriter(tmp_path / "w.mtgk", make_header()) as w:
        w.append(Envelope(0, -1, Tapped(obj=1)))
        with pytest.raises(ValueError, match="seq 1"):
            w.append(Envelope(0, -1, Tapped(obj=1)))  # double append
        with pytest.raises(ValueError, match="seq 1"):
            w.append(Envelope(2, 0, Tapped(obj=1)))  # gap
        with pytest.raises(ValueError, match="cause"):
            w.append(Envelope(1, 1, Tapped(obj=1)))  # caused by itself
        w.append(Envelope(1, 0, Untapped(obj=1)))
    assert read_log(tmp_path / "w.mtgk").envelopes == [
        Envelope(0, -1, Tapped(obj=1)),
        Envelope(1, 0, Untapped(obj=1)),
    ]
    with pytest.raises(ValueError, match="closed"):
        w.append(Envelope(2, 1, Tapped(obj=1)))


def test_logwriter_refuses_events_missing_from_the_table(tmp_path: Path) -> None:
    with LogWriter(tmp_path / "w.mtgk", make_header(events=[("Tapped", 1)])) as w:
        with pytest.raises(ValueError, match="Untapped"):
            w.append(Envelope(0, -1, Untapped(obj=1)))
        w.append(Envelope(0, -1, Tapped(obj=1)))


def test_write_log_refuses_gaps(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        write_log(tmp_path / "g.mtgk", make_header(), [Envelope(1, -1, Tapped(obj=1))])
    assert not (tmp_path / "g.mtgk").exists()
    with pytest.raises(ValueError):
        write_jsonl(tmp_path / "g.jsonl", make_header(), [Envelope(1, -1, Tapped(obj=1))])


def test_header_event_table_is_sorted_and_current() -> None:
    table = LogHeader.current_event_table()
    assert table == sorted(table)
    # every type but those listed only by a multiplayer game's header (issue 16: two-player
    # headers are what they were before)
    assert dict(table) == {tag: cls.VERSION for tag, cls in EVENT_TYPES.items()
                           if tag not in UNLISTED_UNLESS_USED}
    assert make_header().events == table
    full = LogHeader.current_event_table(multiplayer=True)
    assert full == sorted(full)
    assert dict(full) == {tag: cls.VERSION for tag, cls in EVENT_TYPES.items()}


def test_a_whole_log_lists_the_multiplayer_event_types_it_holds() -> None:
    """``encode_log`` adds a type that headers list only when used (``GameVariant``) to a
    header that doesn't list it, so the log reads back."""
    envs = [Envelope(0, -1, GameStarted(players=("A", "B", "C"), seed=1)),
            Envelope(1, -1, GameVariant(variant="free_for_all"))]
    header = make_header()
    assert "GameVariant" not in dict(header.events)
    back = decode_log(encode_log(header, envs))
    assert [e.event for e in back.envelopes] == [e.event for e in envs]
    assert "GameVariant" in dict(back.header.events)


# --------------------------------------------------------------------------
# Unknown events and upcasters


def test_unknown_tag_is_kept(tmp_path: Path) -> None:
    future = UnknownEvent("FutureThing", 1, msgspec.msgpack.encode([7, "shiny"]))
    envs = [
        Envelope(0, -1, Tapped(obj=1)),
        Envelope(1, 0, future),
        Envelope(2, 1, Untapped(obj=1)),
    ]
    path = tmp_path / "u.mtgk"
    write_log(path, make_header(), envs)  # adds FutureThing to the event table
    log = read_log(path)
    assert ("FutureThing", 1) in log.header.events
    assert log.envelopes == envs
    assert not log.torn
    [problem] = log.problems
    assert problem.kind == "unknown-event"
    assert problem.record == 1
    assert "FutureThing" in problem.message and "version 1" in problem.message
    # written back out it is preserved byte for byte
    again = tmp_path / "again.mtgk"
    write_log(again, log.header, log.envelopes)
    assert again.read_bytes() == path.read_bytes()
    # and through JSON Lines
    j = tmp_path / "u.jsonl"
    write_jsonl(j, log.header, log.envelopes)
    jlog = read_jsonl(j)
    assert jlog.envelopes == envs
    assert [p.record for p in jlog.problems] == [1]


def test_known_tag_with_newer_version_is_unknown(tmp_path: Path) -> None:
    header = make_header(events=[("Tapped", 2), ("Untapped", 1)])
    newer = UnknownEvent("Tapped", 2, msgspec.msgpack.encode([1, "reason"]))
    envs = [Envelope(0, -1, newer), Envelope(1, -1, Untapped(obj=1))]
    path = tmp_path / "n.mtgk"
    with LogWriter(path, header) as w:
        w.extend(envs)
    log = read_log(path)
    assert log.envelopes == envs
    [problem] = log.problems
    assert problem.record == 0 and "newer" in problem.message and "version 2" in problem.message


class _Scored(Event, frozen=True):
    """Test-only event at version 3: v1 was (obj, n), v2 (obj, n, why), v3 (obj, points, why, bonus)."""

    TAG: ClassVar[str] = "TestScored"
    VERSION: ClassVar[int] = 3
    obj: int
    points: int
    why: str
    bonus: tuple[int, ...] = ()


@pytest.fixture
def scored(monkeypatch: pytest.MonkeyPatch) -> type[_Scored]:
    monkeypatch.setitem(EVENT_TYPES, _Scored.TAG, _Scored)
    monkeypatch.setattr(upcasting, "_UPCASTERS", {})
    return _Scored


def _old_scored_log(path: Path) -> list[Envelope]:
    header = make_header(events=[("Tapped", 1), ("TestScored", 1)])
    envs = [
        Envelope(0, -1, Tapped(obj=3)),
        Envelope(1, 0, UnknownEvent("TestScored", 1, msgspec.msgpack.encode([3, 10]))),
    ]
    write_log(path, header, envs)
    return envs


def test_upcasters(tmp_path: Path, scored: type[_Scored]) -> None:
    path = tmp_path / "old.mtgk"
    envs = _old_scored_log(path)

    # without upcasters: kept raw, reported
    log = read_log(path)
    assert log.envelopes == envs
    assert "no upcaster from version 1 to 2" in log.problems[0].message

    register_upcaster("TestScored", 1, lambda f: [*f, "legacy"])
    log = read_log(path)
    assert "no upcaster from version 2 to 3" in log.problems[0].message

    def v2_to_v3(f: list[Any]) -> list[Any]:
        obj, n, why = f
        return [obj, n * 100, why, [1, 2]]

    register_upcaster("TestScored", 2, v2_to_v3)
    register_upcaster("TestScored", 2, v2_to_v3)  # the same one again is fine
    with pytest.raises(ValueError):
        register_upcaster("TestScored", 2, lambda f: f)
    log = read_log(path, strict=True)
    assert log.problems == []
    assert log.envelopes[1] == Envelope(
        1, 0, scored(obj=3, points=1000, why="legacy", bonus=(1, 2))
    )
    assert isinstance(log.envelopes[1].event.bonus, tuple)  # type: ignore[attr-defined]


def test_upcasters_jsonl(tmp_path: Path, scored: type[_Scored]) -> None:
    path = tmp_path / "old.jsonl"
    old = make_header()  # (as written when TestScored was at version 1: its table says so)
    old.events = [(t, 1 if t == "TestScored" else v) for t, v in old.events]
    header = msgspec.json.encode({"header": old}).decode()
    path.write_text(
        header + "\n"
        '{"seq": 0, "cause": -1, "type": "TestScored", "v": 1, "event": {"obj": 3, "n": 10}}\n'
    )
    log = read_jsonl(path)
    assert isinstance(log.envelopes[0].event, UnknownEvent)
    assert log.problems[0].record == 0
    register_upcaster("TestScored", 1, lambda f: [*f, "legacy"])
    register_upcaster("TestScored", 2, lambda f: [f[0], f[1], f[2]])
    log = read_jsonl(path)
    assert log.envelopes == [Envelope(0, -1, scored(obj=3, points=10, why="legacy"))]


def test_failing_upcaster_is_reported_not_fatal(tmp_path: Path, scored: type[_Scored]) -> None:
    path = tmp_path / "old.mtgk"
    envs = _old_scored_log(path)
    register_upcaster("TestScored", 1, lambda f: [*f, "legacy"])
    register_upcaster("TestScored", 2, lambda f: [f[0], "not an int", f[2]])
    log = read_log(path)
    assert log.envelopes == envs
    assert log.problems[0].kind == "upcast-failed"


# --------------------------------------------------------------------------
# JSON Lines damage


def test_jsonl_torn_and_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write_jsonl(path, make_header(), SAMPLE[:6])
    data = path.read_bytes()
    last_line = data.rstrip(b"\n").rfind(b"\n") + 1
    path.write_bytes(data[:-5])
    log = load_log(path)
    assert log.torn and log.envelopes == SAMPLE[:5]
    assert (log.problems[0].record, log.problems[0].offset) == (5, last_line)
    with pytest.raises(TruncatedLogError):
        load_log(path, strict=True)
    assert repair_log(path) is not None
    assert load_log(path, strict=True).envelopes == SAMPLE[:5]

    lines = data.split(b"\n")
    lines[3] = lines[3][:-3]
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(CorruptLogError) as info:
        load_log(path)
    assert info.value.record == 2
    assert info.value.offset == len(lines[0]) + len(lines[1]) + len(lines[2]) + 3

    lines = data.split(b"\n")
    lines[2] = lines[2].replace(b'"seq":1', b'"seq":7')
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(CorruptLogError, match="expected seq 1, found 7"):
        load_log(path)


# --------------------------------------------------------------------------
# Documentation examples


def test_doctests() -> None:
    if kind.compiled_modules():
        pytest.skip("doctest cannot see the compiled module's functions (the pure run has them)")
    attempted = {}
    for mod in (logfile, codec, writer, reader, damage, jsonl, upcasting, loaded):
        result = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
        assert result.failed == 0, mod.__name__
        attempted[mod.__name__.rpartition(".")[2]] = result.attempted
    assert attempted["logfile"] > 5, attempted
    assert all(attempted[m] for m in ("codec", "damage", "jsonl", "upcasting")), attempted


def test_logfile_result_type(tmp_path: Path) -> None:
    path = tmp_path / "r.mtgk"
    write_log(path, make_header(), SAMPLE[:1])
    assert isinstance(read_log(os.fspath(path)), LogFile)


# --------------------------------------------------------------------------
# Logs as bad input: one clear refusal, never another exception


def test_a_huge_kernel_version_reads_and_is_reported_short(tmp_path: Path) -> None:
    path = tmp_path / "v.mtgk"
    write_log(path, make_header(kernel_version="9" * 10_000), SAMPLE[:3])
    log = read_log(path)
    assert logfile.newer_kernel(log.header, "0.1.0") is not None
    assert len(logfile.newer_kernel(log.header, "0.1.0") or "") < 200
    assert logfile.newer_kernel(make_header(kernel_version="1" * 5000 + ".0"), "2") is not None
    assert logfile.newer_kernel(make_header(kernel_version="0.10"), "0.9") is not None
    assert logfile.newer_kernel(make_header(kernel_version="0.9"), "0.10") is None


@pytest.mark.parametrize("big", [2**64, -(2**63) - 1, 10**30])
def test_jsonl_integers_a_log_cannot_store_are_refused(tmp_path: Path, big: int) -> None:
    path = tmp_path / "big.jsonl"
    write_jsonl(path, make_header(), SAMPLE[:6])
    lines = path.read_text().splitlines()
    lines[3] = lines[3].replace('"obj":2', f'"obj":{big}')
    assert str(big) in lines[3]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(CorruptLogError, match="integer outside the range") as info:
        load_log(path)
    assert info.value.record == 2
    lines = path.read_text().splitlines()
    lines[0] = lines[0].replace('"seed":1234', f'"seed":{big}')
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(CorruptLogError, match="header holds an integer"):
        load_log(path)


def test_jsonl_header_of_a_newer_or_invalid_format(tmp_path: Path) -> None:
    path = tmp_path / "f.jsonl"
    write_jsonl(path, make_header(), SAMPLE[:3])
    text = path.read_text()
    now = f'"format":{FORMAT_VERSION}'
    assert now in text
    path.write_text(text.replace(now, f'"format":{FORMAT_VERSION + 1}', 1))
    with pytest.raises(NewerVersionError, match=f"format {FORMAT_VERSION + 1}"):
        load_log(path)
    path.write_text(text.replace(now, '"format":0', 1))
    with pytest.raises(CorruptLogError, match="format >= 1"):
        load_log(path)


def _leb128(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    return bytes([*out, n])


def test_deeply_nested_values_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep.jsonl"
    write_jsonl(path, make_header(), SAMPLE[:12])
    lines = path.read_text().splitlines()
    deep = "[" * 100_000 + "]" * 100_000
    lines[11] = lines[11].replace('"choice":[1,2,[3,"x"]]', f'"choice":{deep}')
    assert deep in lines[11]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(CorruptLogError) as info:
        load_log(path)
    assert info.value.record == 10
    # the same in a binary record whose crc holds
    bpath = tmp_path / "deep.mtgk"
    header = make_header()
    write_with_offsets(bpath, SAMPLE[:11], header)
    data = bytearray(bpath.read_bytes())
    tag = [t for t, _ in header.events].index("DecisionMade")
    body = msgspec.msgpack.encode([0, "targets", 0])[:-1] + b"\x91" * 100_000 + b"\x90"
    payload = bytes([tag, 1]) + body  # tag index, cause delta 1
    prev = int.from_bytes(data[-4:], "little")  # the crc of the last record
    record = _leb128(len(payload)) + payload + zlib.crc32(payload, prev).to_bytes(4, "little")
    bpath.write_bytes(bytes(data) + record)
    with pytest.raises(CorruptLogError) as binfo:
        read_log(bpath)
    assert binfo.value.record == 11 and "decoding failed" in binfo.value.detail
