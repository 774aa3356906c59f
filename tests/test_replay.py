"""Tests for starting games from headers, seeking and verifying logs (mtgk.games.replay)."""

from __future__ import annotations

import doctest
import random
from collections.abc import Sequence

import msgspec
import pytest

import mtgk.games.replay
from mtgk.agents import HeuristicAgent, RandomAgent, ReplayAgent
from mtgk.cards.decks import deck_lines
from mtgk.cards.definitions import Registry
from mtgk.cards.loading import load_registry
from mtgk.games.replay import (
    Seeker,
    log_kind,
    new_header,
    register_rerunner,
    replay_to,
    run_from_header,
    start_game,
    verify,
)
from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.log.logfile import LogHeader, UnknownEvent
from mtgk.rules.engine import Agent, Game
from mtgk.rules.state import encode_state, fold

REG = load_registry()
RED = ["Mountain"] * 17 + ["Gray Ogre"] * 19 + ["Shock"] * 4


def _header(seed: int = 5, max_turns: int = 40, **meta: object) -> LogHeader:
    return new_header(REG, ["Alice", "Bob"], [deck_lines(RED), deck_lines(RED)], seed,
                      meta={"max_turns": max_turns, **meta})


def _play(header: LogHeader, agents: Sequence[Agent] | None = None) -> Game:
    return run_from_header(REG, header, agents or [HeuristicAgent(1), RandomAgent(2)])


@pytest.fixture(scope="module")
def game() -> Game:
    return _play(_header())


def test_doctests() -> None:
    assert doctest.testmod(mtgk.games.replay).failed == 0


# ------------------------------------------------------------------ headers


def test_new_header_records_sets_versions_decks_and_meta() -> None:
    h = _header(seed=9, agents=["x"])
    assert ("lorwyn", REG.sets["lorwyn"].version) in [tuple(x) for x in h.cardsets]
    assert [name for name, _ in h.cardsets] == sorted(REG.sets)
    assert h.decks[0] == ["17 Mountain", "19 Gray Ogre", "4 Shock"]
    assert h.seed == 9 and h.meta["agents"] == ["x"] and h.players == ["Alice", "Bob"]


def test_start_game_follows_the_header() -> None:
    h = msgspec.structs.replace(_header(seed=11), profile="modern")
    g = start_game(REG, h, [])
    first = g.log[0].event
    assert isinstance(first, ev.GameStarted)
    assert (list(first.players), first.seed, first.profile) == (["Alice", "Bob"], 11, "modern")


def test_run_from_header_plays_the_header_decks_and_turn_limit() -> None:
    g = _play(_header(max_turns=4))
    created = [e.event.card for e in g.log if isinstance(e.event, ev.ObjectCreated)]
    assert created == RED + RED  # deck order, before the shuffles
    assert g.state.over and g.state.turn == 4 and g.state.winner == -1


def test_replaying_the_decisions_reproduces_the_log(game: Game) -> None:
    again = run_from_header(REG, _header(), [ReplayAgent(game.log)] * 2)
    assert [(e.seq, e.cause, e.event) for e in again.log] == \
        [(e.seq, e.cause, e.event) for e in game.log]


def test_log_kind() -> None:
    assert log_kind(_header()) == "game"
    assert log_kind(_header(scenario="x")) == "scenario"
    assert log_kind(_header(kind="puzzle", scenario="x")) == "puzzle"


# ------------------------------------------------------------------ seeking


def test_replay_to_bounds(game: Game) -> None:
    assert replay_to(game.log, -1).players == []
    assert encode_state(replay_to(game.log, len(game.log) - 1)) == encode_state(game.state)
    for bad in (len(game.log), -2):
        with pytest.raises(IndexError, match="not in the log"):
            replay_to(game.log, bad)


@pytest.mark.parametrize("every", [3, 7, 100, 1000])
def test_seeker_equals_a_plain_fold_everywhere(game: Game, every: int) -> None:
    log = game.log
    rng = random.Random(every)
    positions = [-1, 0, len(log) - 1] + [rng.randrange(len(log)) for _ in range(25)]
    seeker = Seeker(log, every=every)
    for n in positions:  # in random order, forwards and backwards
        assert encode_state(seeker.state_at(n)) == encode_state(fold(log[: n + 1])), n


def test_seeker_states_are_independent_copies(game: Game) -> None:
    seeker = Seeker(game.log, every=50)
    s = seeker.state_at(200)
    s.players[0].life = -100
    s.battlefield.clear()
    assert encode_state(seeker.state_at(200)) == encode_state(fold(game.log[:201]))


def _long_log(n: int) -> list[Envelope]:
    """A consistent log of about ``n`` events: a board, then many taps, untaps and mana."""
    envs: list[Envelope] = []

    def add(e: ev.Event) -> None:
        envs.append(Envelope(len(envs), -1, e))

    add(ev.GameStarted(players=("Alice", "Bob"), seed=1))
    ids = []
    for i in range(60):
        add(ev.ObjectCreated(obj=i + 1, card="Mountain" if i % 3 else "Gray Ogre",
                             owner=i % 2, zone="battlefield"))
        ids.append(i + 1)
    for i in range(40):
        add(ev.ObjectCreated(obj=100 + i, card="Shock", owner=i % 2, zone="library"))
    rng = random.Random(3)
    tapped: set[int] = set()
    while len(envs) < n:
        oid = rng.choice(ids)
        if oid in tapped:
            tapped.discard(oid)
            add(ev.Untapped(obj=oid))
        else:
            tapped.add(oid)
            add(ev.Tapped(obj=oid))
            add(ev.ManaAdded(player=oid % 2, mana="R"))
            add(ev.ManaEmptied(player=oid % 2))
    return envs


def test_seeking_into_a_100k_event_log_folds_at_most_one_snapshot_interval(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Seeking is fast because it replays from the nearest snapshot: once the snapshots
    exist, no seek folds more than ``every`` events (work counted, not time: CI times
    nothing; bench/run.py reports the milliseconds)."""
    import mtgk.games.replay as replay_mod

    log = _long_log(100_000)
    seeker = Seeker(log)
    seeker.state_at(len(log) - 1)  # builds the snapshot cache once
    assert seeker.snapshots() == len(log) // 1000 + 1
    folded = []
    real_apply = replay_mod.apply
    monkeypatch.setattr(replay_mod, "apply", lambda s, e: (folded.append(1), real_apply(s, e)))
    rng = random.Random(1)
    for n in [rng.randrange(len(log)) for _ in range(30)] + [len(log) - 1, 998, 999]:
        folded.clear()
        seeker.state_at(n)
        assert len(folded) < seeker.every, (n, len(folded))
    monkeypatch.undo()
    for n in (0, 999, 1000, 54_321, len(log) - 1):
        assert encode_state(seeker.state_at(n)) == encode_state(fold(log[: n + 1]))


# ------------------------------------------------------------------ verify


def test_verify_accepts_a_real_game(game: Game) -> None:
    report = verify(_header(), game.log, REG)
    assert report.ok, report.summary()
    assert report.mode == "rerun" and report.fold_ok and report.complete
    assert report.summary() == f"OK: {len(game.log)} events verified"


def _decisions(log: Sequence[Envelope], kind: str) -> list[Envelope]:
    return [e for e in log if isinstance(e.event, ev.DecisionMade) and e.event.kind == kind]


def _replace(log: Sequence[Envelope], seq: int, choice: object) -> list[Envelope]:
    out = list(log)
    old = out[seq]
    assert isinstance(old.event, ev.DecisionMade)
    out[seq] = Envelope(seq, old.cause, msgspec.structs.replace(old.event, choice=choice))
    return out


def test_verify_reports_a_legal_but_different_decision_at_the_next_event(game: Game) -> None:
    play = next(e for e in _decisions(game.log, "priority") if e.event.choice[0] == "play")
    report = verify(_header(), _replace(game.log, play.seq, ["pass"]), REG)
    assert not report.ok and report.divergence is not None
    assert report.divergence.seq == play.seq + 1
    assert isinstance(report.divergence.expected.event, ev.LandPlayed)  # type: ignore[union-attr]
    assert report.summary().startswith(f"FAILED: diverges at event {play.seq + 1}: expected")


def test_verify_reports_an_illegal_decision_where_it_is(game: Game) -> None:
    play = _decisions(game.log, "priority")[3]
    report = verify(_header(), _replace(game.log, play.seq, ["play", 99999]), REG)
    assert report.divergence is not None and report.divergence.seq == play.seq
    assert "illegal" in report.divergence.reason


def test_verify_reports_an_extra_and_a_missing_event(game: Game) -> None:
    log = list(game.log)
    extra = log + [Envelope(len(log), -1, ev.DamageRemoved())]
    report = verify(_header(), extra, REG)
    assert report.divergence is not None and report.divergence.seq == len(log)
    assert "ended before this event" in report.divergence.reason
    unknown = log[:-1] + [Envelope(len(log) - 1, log[-1].cause, UnknownEvent("X", 1, b"\x90"))]
    report = verify(_header(), unknown, REG)
    assert report.divergence is not None and report.divergence.seq == len(log) - 1
    assert "unknown to this kernel" in report.divergence.reason


def test_verify_accepts_a_log_cut_short(game: Game) -> None:
    report = verify(_header(), game.log[:300], REG)
    assert report.ok and not report.complete and report.events == 300
    assert "stops before the game's end" in report.summary()


def test_verify_checks_the_header_against_the_first_event(game: Game) -> None:
    report = verify(_header(seed=6), game.log, REG)
    assert not report.ok and report.mode == "integrity"
    assert "does not match the header" in report.problems[0]
    gap = list(game.log)
    gap[10] = Envelope(11, -1, gap[10].event)
    report = verify(_header(), gap, REG)
    assert report.problems == ["event 10: has sequence number 11"]


def test_verify_notes_card_set_version_differences(game: Game) -> None:
    h = _header()
    h = msgspec.structs.replace(h, cardsets=[*h.cardsets, ("nonesuch", "9")])
    report = verify(h, game.log, REG)
    assert report.ok
    assert any("'nonesuch'" in n and "not loaded" in n for n in report.notes)


def test_logs_of_other_kinds_are_not_verified_unless_a_rerunner_is_registered(
        game: Game) -> None:
    h = _header(kind="custom", scenario="some scenario")
    report = verify(h, game.log, REG)
    assert not report.ok and not report.verified and not report.rerunnable
    assert report.mode == "integrity" and report.kind == "custom" and report.fold_ok
    assert report.summary().startswith("NOT VERIFIED: no re-runner is registered for 'custom'")
    calls: list[str] = []

    def rerun(reg: Registry, header: LogHeader, agents: Sequence[Agent], watch: object) -> Game:
        calls.append(header.meta["scenario"])
        return run_from_header(reg, header, agents, watch)  # type: ignore[arg-type]

    register_rerunner("custom", rerun)
    try:
        report = verify(h, game.log, REG)
    finally:
        mtgk.games.replay._RERUNNERS.pop("custom")
    assert calls == ["some scenario"] and report.mode == "rerun" and report.ok


def test_verify_detects_state_changed_outside_events(game: Game) -> None:
    def tampering(reg: Registry, header: LogHeader, agents: Sequence[Agent], watch: object
                  ) -> Game:
        def watch_and_tamper(g: Game) -> None:
            watch(g)  # type: ignore[operator]

            def tamper(env: Envelope) -> None:
                if env.seq == 150:
                    g.state.decisions += 1  # a bug: a change no event records

            g.listeners.append(tamper)
        return run_from_header(reg, header, agents, watch_and_tamper)

    register_rerunner("tamper", tampering)
    try:
        report = verify(_header(kind="tamper"), game.log, REG)
    finally:
        mtgk.games.replay._RERUNNERS.pop("tamper")
    assert not report.ok and report.fold_ok is False and report.divergence is None
    assert "outside an event" in report.problems[0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_builtin_deck_games_verify(seed: int) -> None:
    from mtgk.cards.decks import builtin_decks, parse_deck

    decks = [k for k in builtin_decks(REG) if "/" not in k][:2]
    assert decks, "no built-in decks installed"
    lines = [deck_lines(parse_deck(builtin_decks(REG)[d], REG)) for d in decks * (3 - len(decks))]
    h = new_header(REG, ["Ann", "Ben"], lines[:2], seed, meta={"max_turns": 30})
    g = run_from_header(REG, h, [RandomAgent(seed), HeuristicAgent(seed + 1)])
    report = verify(h, g.log, REG)
    assert report.ok, report.summary()


def test_seeker_snapshots_are_encoded_states_spaced_by_their_size() -> None:
    """Snapshots are bytes (nothing for the garbage collector to walk), and a large state
    is snapshotted less often than every ``every`` events, so that a long log's snapshots
    take a bounded part of memory: no more than SNAPSHOT_BYTES_PER_EVENT bytes per event
    folded, plus one snapshot."""
    envs = [Envelope(0, -1, ev.GameStarted(players=("A", "B"), seed=1))]
    for i in range(3000):  # a big state: 3,000 cards in libraries
        envs.append(Envelope(len(envs), -1, ev.ObjectCreated(
            obj=i + 1, card="Gray Ogre", owner=i % 2, zone="library")))
    while len(envs) < 60_000:
        envs.append(Envelope(len(envs), -1, ev.LifeLost(player=len(envs) % 2, n=0)))
    seeker = Seeker(envs, every=100)
    last = seeker.state_at(len(envs) - 1)
    assert encode_state(last) == encode_state(fold(envs))
    size = len(encode_state(last))
    assert size > 200_000
    assert seeker.snapshot_bytes() <= Seeker.SNAPSHOT_BYTES_PER_EVENT * len(envs) + size
    assert seeker.snapshots() < len(envs) // 100 // 2  # fewer than one per `every` events
    for n in (0, 3000, 3001, 31_234, 59_999):  # and the states are still right
        assert encode_state(seeker.state_at(n)) == encode_state(fold(envs[: n + 1]))


def test_a_seek_leaves_the_garbage_collector_as_it_found_it(game: Game) -> None:
    import gc

    seeker = Seeker(game.log, every=50)
    assert gc.isenabled()
    seeker.state_at(len(game.log) - 1)
    assert gc.isenabled()
    gc.disable()
    try:
        seeker.state_at(10)
        assert not gc.isenabled()
    finally:
        gc.enable()
