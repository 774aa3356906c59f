"""Golden logs: logs written by an earlier kernel must keep loading, folding and
verifying in every later version.

``tests/golden/`` holds logs committed as they were written:

* ``game_walkers.mtgk`` (and ``.jsonl``): a whole game played by ``mtgk play`` with
  planeswalkers (loyalty abilities, damage redirected to planeswalkers, clashes),
  from the decks in ``tests/golden/decks/``;
* ``golden-walkers-and-hideaway.mtgk`` (and ``.jsonl``): the log of the scenario
  ``scenario_walkers.yaml`` (a setup recorded as events, a face-down hideaway card);
* ``upcast_v1.mtgk`` and ``upcast_v2.jsonl``: events of a type stored at older
  versions, read through upcasters;
* ``game_walkers-v2`` and ``golden-walkers-and-hideaway-v2`` (``.mtgk``, ``.jsonl``): the
  same game and scenario written again when the causes of events were made the events
  that really caused them (docs/debugging.md, "What a cause is"): the events are the
  same, 276 and 16 causes differ.  The first logs keep loading and folding; ``verify``
  re-runs today's engine, which gives other causes, so they diverge at the first of
  those (:data:`DIVERGES`);
* ``game_walkers-v3`` (``.mtgk``, ``.jsonl``): the same game played again when first strike
  got a combat damage step of its own with priority after it (CR 510.4, issue 12): until
  event 574 the events are those of ``game_walkers-v2``; there the first-strike combat
  damage step begins (``StepBegan(step="first_strike_damage")``, then ``FirstStrikers``)
  where the older kernel dealt both kinds of damage in one step.  ``game_walkers-v2``
  keeps loading and folding; its ``verify`` diverges there (:data:`DIVERGES`).  (This
  kernel's log header also lists the new event type and the ``max_events`` the game was
  played with.)

The logs are never regenerated to make a test pass: when a change of the kernel
or of a card makes a golden log stop verifying, either the change is wrong, or
the old behaviour was a bug; in that case add the new golden log next to the old
one (``python tests/test_golden.py --regenerate NEWSUFFIX``) and keep the old one
loading and folding (``verify`` may then be marked as expected to diverge at the
documented event, with the reason).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any, ClassVar

import msgspec
import pytest

from mtgk.cards.loading import load_registry
from mtgk.games.replay import verify
from mtgk.log import events as ev
from mtgk.log.events import Envelope, Event
from mtgk.log.logfile import (
    LogHeader,
    UnknownEvent,
    load_log,
    read_jsonl,
    read_log,
    register_upcaster,
    write_log,
)
from mtgk.rules.state import encode_state, fold
from mtgk.tools.cli import main
from tests.conftest import run_mtgk as run

GOLDEN = Path(__file__).parent / "golden"
REG = load_registry()
LOGS = ["game_walkers", "golden-walkers-and-hideaway", "game_walkers-v2",
        "golden-walkers-and-hideaway-v2", "game_walkers-v3", "game_walkers-v4",
        "golden-walkers-and-hideaway-v4"]
DIVERGES = {
    "game_walkers": (83, "DecisionMade has cause -1 in the log, the engine gives cause 0"),
    "golden-walkers-and-hideaway": (44, "DamageRedirected has cause 38 in the log, the "
                                        "engine gives cause 43"),
}
"""Golden logs written before a change of causes: where ``verify`` now diverges, and why
(the first player's choice is caused by the game's start; a redirection of damage by
the decision to redirect it, no longer by the spell)."""
REVISION_3 = {
    "game_walkers-v2": (267, "DecisionMade has cause 266 in the log, the engine gives cause 264"),
    "golden-walkers-and-hideaway-v2": (58, "DecisionMade has cause 57 in the log, the "
                                           "engine gives cause 54"),
    "game_walkers-v3": (267, "DecisionMade has cause 266 in the log, the engine gives cause 264"),
}
"""Golden logs written before rules revision 3 (a blockers decision is caused by the attack
it answers, combat damage by the attack and block declarations, no longer by their steps):
where ``verify`` now first diverges (``game_walkers-v2`` then also plays otherwise, at
:data:`GAME_CHANGED`'s event); ``-v4`` are the same games under revision 3."""
GAME_CHANGED = {
    "game_walkers-v2": (574, "StepBegan(step='combat_damage')",
                        "StepBegan(step='first_strike_damage')"),
}
"""Golden logs of games that the engine now plays differently (first strike's own combat
damage step): the event where ``verify`` diverges, the log's event and the engine's."""


pytestmark = pytest.mark.usefixtures("reset_structlog")


# ------------------------------------------------------------------ the golden logs


@pytest.mark.parametrize("name", LOGS)
def test_golden_log_loads_without_problems(name: str) -> None:
    log = read_log(GOLDEN / f"{name}.mtgk", strict=True)
    assert log.problems == [] and not log.torn and log.envelopes
    assert [env.seq for env in log.envelopes] == list(range(len(log.envelopes)))
    twin = read_jsonl(GOLDEN / f"{name}.jsonl", strict=True)
    assert twin.problems == []
    assert twin.header == log.header and twin.envelopes == log.envelopes


@pytest.mark.parametrize("name", LOGS)
def test_golden_log_folds(name: str) -> None:
    log = read_log(GOLDEN / f"{name}.mtgk")
    state = fold(log.envelopes)
    assert len(state.players) == 2
    assert encode_state(fold(read_jsonl(GOLDEN / f"{name}.jsonl").envelopes)) == \
        encode_state(state)


@pytest.mark.parametrize("name", LOGS)
def test_golden_log_verifies(name: str) -> None:
    log = read_log(GOLDEN / f"{name}.mtgk")
    report = verify(log.header, log.envelopes, REG)
    assert report.mode == "rerun"
    if name in REVISION_3:
        assert not report.ok and report.divergence is not None
        assert (report.divergence.seq, report.divergence.reason) == REVISION_3[name]
        assert report.verdict == "other-rules"
        return
    if name in DIVERGES:  # written with older causes: the events are the same
        seq, why = DIVERGES[name]
        assert not report.ok and report.divergence is not None
        assert (report.divergence.seq, report.divergence.reason) == (seq, why)
        assert report.verdict == "other-rules"  # (intact, written before rules revisions)
        return
    if name in GAME_CHANGED:  # the game itself changed (a rule the engine got wrong)
        seq, logged, rerun = GAME_CHANGED[name]
        assert not report.ok and report.divergence is not None
        assert report.divergence.seq == seq
        assert f"expected {logged}, got {rerun}" in report.divergence.reason
        assert report.verdict == "other-rules"
        return
    assert report.ok, report.summary()
    code, out, _ = run("verify", GOLDEN / f"{name}.mtgk")
    assert code == 0 and out.splitlines()[-1].startswith("OK: ")


@pytest.mark.parametrize("name", sorted(DIVERGES))
def test_golden_logs_rewritten_with_new_causes_have_the_same_events(name: str) -> None:
    old, new = read_log(GOLDEN / f"{name}.mtgk"), read_log(GOLDEN / f"{name}-v2.mtgk")
    assert old.header == new.header
    assert [e.event for e in old.envelopes] == [e.event for e in new.envelopes]
    assert [e.cause for e in old.envelopes] != [e.cause for e in new.envelopes]


def test_golden_game_replayed_with_the_first_strike_step_is_the_same_game_until_it(
        ) -> None:
    old, new = read_log(GOLDEN / "game_walkers-v2.mtgk"), read_log(GOLDEN / "game_walkers-v3.mtgk")
    seq = GAME_CHANGED["game_walkers-v2"][0]
    assert old.envelopes[:seq] == new.envelopes[:seq] != []
    assert new.envelopes[seq].event == ev.StepBegan(step="first_strike_damage")
    assert isinstance(new.envelopes[seq + 1].event, ev.FirstStrikers)


def test_golden_game_has_what_it_is_kept_for() -> None:
    log = read_log(GOLDEN / "game_walkers.mtgk")
    tags = {env.event.TAG for env in log.envelopes}
    assert {"AbilityActivated", "DamageRedirected", "CounterRemoved", "GameEnded"} <= tags
    assert log.header.meta["deck_names"] == ["walkers_rg.txt", "walkers_wu.txt"]
    scen = read_log(GOLDEN / "golden-walkers-and-hideaway.mtgk")
    assert scen.header.meta["scenario"] == "golden-walkers-and-hideaway"
    assert any(isinstance(e.event, ev.RemovedFromGame | ev.ObjectCreated)
               and getattr(e.event, "face_down", False) for e in scen.envelopes)


@pytest.mark.parametrize("name", LOGS)
def test_golden_log_reads_with_every_command(name: str) -> None:
    path = GOLDEN / f"{name}.mtgk"
    n = len(read_log(path).envelopes)
    for argv in (["log", path], ["log", path, "--as", "1"], ["replay", path, "--at", -1],
                 ["explain", path, n - 1], ["diff", path, 0, n - 1]):
        code, out, err = run(*argv)
        assert code in (0, 1) and out and "Traceback" not in err, argv


# ------------------------------------------------------------------ older event shapes


class GoldenScore(Event, frozen=True):
    """A test-only event at version 3, stored at versions 1 and 2 in golden files.

    v1: (player, points); v2 added ``reason`` (old records: "legacy");
    v3 renamed ``points`` to ``total`` and moved it last.
    """

    TAG: ClassVar[str] = "GoldenScore"
    VERSION: ClassVar[int] = 3
    player: int
    reason: str
    total: int


def _v1_to_v2(fields: list[Any]) -> list[Any]:
    return [*fields, "legacy"]


def _v2_to_v3(fields: list[Any]) -> list[Any]:
    player, points, reason = fields
    return [player, reason, points]


@pytest.fixture
def golden_score() -> Iterator[type[GoldenScore]]:
    ev.EVENT_TYPES["GoldenScore"] = GoldenScore
    register_upcaster("GoldenScore", 1, _v1_to_v2)
    register_upcaster("GoldenScore", 2, _v2_to_v3)
    yield GoldenScore
    del ev.EVENT_TYPES["GoldenScore"]
    from mtgk.log import upcasting

    upcasting._UPCASTERS.pop(("GoldenScore", 1), None)
    upcasting._UPCASTERS.pop(("GoldenScore", 2), None)


def test_upcasters_read_older_event_shapes(golden_score: type[GoldenScore]) -> None:
    v1 = read_log(GOLDEN / "upcast_v1.mtgk")
    assert ("GoldenScore", 1) in v1.header.events  # stored as version 1 ...
    assert v1.problems == []
    scores = [e.event for e in v1.envelopes if isinstance(e.event, GoldenScore)]
    assert scores == [GoldenScore(player=0, reason="legacy", total=3),  # ... read as 3
                      GoldenScore(player=1, reason="legacy", total=5)]
    v2 = load_log(GOLDEN / "upcast_v2.jsonl")
    assert v2.problems == []
    assert [e.event for e in v2.envelopes if isinstance(e.event, GoldenScore)] == [
        GoldenScore(player=0, reason="first blood", total=2)]
    assert fold(v1.envelopes).players[1].life == 17  # the kernel events around them fold


def test_without_the_upcaster_the_old_shape_is_reported_not_fatal() -> None:
    v1 = read_log(GOLDEN / "upcast_v1.mtgk")
    unknown = [e for e in v1.envelopes if isinstance(e.event, UnknownEvent)]
    assert len(unknown) == 2 and len(v1.problems) == 2
    assert "unknown event type 'GoldenScore' (version 1)" in str(v1.problems[0])
    code, out, err = run("log", GOLDEN / "upcast_v1.mtgk")
    assert code == 0 and "unknown event GoldenScore (version 1)" in out
    assert "(and 1 more event like it: records" in err


def test_a_field_added_at_the_end_needs_no_upcaster(tmp_path: Path) -> None:
    """SpellCast gained ``face`` after logs had been written without it: a record of the
    older shape (one field fewer) reads with the field's default, no version bump."""
    log = read_log(GOLDEN / "game_walkers.mtgk")
    envs = []
    for env in log.envelopes:
        e = env.event
        if isinstance(e, ev.SpellCast):
            fields = [getattr(e, f) for f in e.__struct_fields__]
            assert fields[-1] == ""
            e = UnknownEvent("SpellCast", 1, msgspec.msgpack.encode(fields[:-1]))
        envs.append(Envelope(env.seq, env.cause, e))
    path = tmp_path / "old.mtgk"
    write_log(path, log.header, envs)
    old = read_log(path)
    assert old.problems == [] and old.envelopes == log.envelopes


def test_causes_far_back_round_trip(tmp_path: Path) -> None:
    """A cause 16384 or more events back takes a 3-byte varint: the fast decoding path
    must not read its first byte as a one- or two-byte delta."""
    envs = [Envelope(0, -1, ev.GameStarted(players=("A", "B"), seed=1))]
    for i in range(1, 20_000):
        cause = -1 if i % 5000 == 3 else 0 if i % 7 == 0 else i - 1
        envs.append(Envelope(i, cause, ev.Untapped(obj=i)))
    header = LogHeader(kernel_version="0.1.0", cardsets=[], players=["A", "B"], seed=1)
    path = tmp_path / "long.mtgk"
    write_log(path, header, envs)
    assert read_log(path, strict=True).envelopes == envs


# ------------------------------------------------------------------ torn logs


def test_verify_repair_cuts_a_torn_golden_copy_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "torn.mtgk"
    shutil.copy(GOLDEN / "game_walkers-v3.mtgk", path)
    full = read_log(path)
    size = os.path.getsize(path)
    with open(path, "r+b") as fp:  # a crash in the middle of appending the last record
        fp.truncate(size - 2)
    code, out, _ = run("verify", path)
    n = len(full.envelopes) - 1
    assert code == 1 and f"FAILED: record {n} at byte" in out and "torn last record" in out
    assert os.path.getsize(path) == size - 2  # never repaired silently
    code, out, _ = run("verify", "--repair", path)
    # 4: the intact events re-run under other rules (revision 3: combat's causes), which
    # the repair doesn't hide (before revision 3: 3, incomplete)
    assert code == 4 and out.startswith(f"repaired: record {n} at byte")
    assert "OTHER RULES" in out and "FAILED" not in out.split("\n", 1)[1]
    assert read_log(path, strict=True).envelopes == full.envelopes[:n]
    assert Path(f"{path}.orig").read_bytes() == (GOLDEN / "game_walkers-v3.mtgk").read_bytes()[:-2]


# ------------------------------------------------------------------ regeneration


def regenerate(suffix: str = "") -> None:  # pragma: no cover - run by hand
    """Write the golden logs (see the module docs: add new ones, keep the old)."""
    os.chdir(GOLDEN / "decks")
    game = GOLDEN / f"game_walkers{suffix}.mtgk"
    assert main(["play", "--seed", "5", "--decks", "walkers_rg.txt", "walkers_wu.txt",
                 "--max-turns", "40", "--out", str(game), "-q"]) == 0
    os.chdir(GOLDEN.parent.parent)
    tmp = GOLDEN / "tmp-scenario-logs"
    assert main(["scenario", str((GOLDEN / "scenario_walkers.yaml").relative_to(Path.cwd())),
                 "--log", str(tmp)]) == 0
    shutil.move(tmp / "golden-walkers-and-hideaway.mtgk",
                GOLDEN / f"golden-walkers-and-hideaway{suffix}.mtgk")
    shutil.rmtree(tmp)
    for name in LOGS:
        src = GOLDEN / f"{name}{suffix}.mtgk"
        with open(GOLDEN / f"{name}{suffix}.jsonl", "w", encoding="utf-8") as fp:
            with redirect_stdout(fp):
                assert main(["log", str(src), "--json"]) == 0
    _write_upcast_files()


def _write_upcast_files() -> None:  # pragma: no cover - run by hand
    """The older-shape files: GoldenScore at version 1 (binary) and 2 (JSON Lines)."""
    header = LogHeader(kernel_version="0.1.0", cardsets=[], players=["Ann", "Bob"], seed=1,
                       meta={"about": "GoldenScore events stored at version 1"})
    envs = [Envelope(0, -1, ev.GameStarted(players=("Ann", "Bob"), seed=1)),
            Envelope(1, -1, UnknownEvent("GoldenScore", 1, msgspec.msgpack.encode([0, 3]))),
            Envelope(2, 1, ev.LifeLost(player=1, n=3)),
            Envelope(3, -1, UnknownEvent("GoldenScore", 1, msgspec.msgpack.encode([1, 5])))]
    write_log(GOLDEN / "upcast_v1.mtgk", header, envs)
    lines = [
        {"header": msgspec.to_builtins(msgspec.structs.replace(
            header, events=sorted([*header.events, ("GoldenScore", 2)]),
            meta={"about": "GoldenScore events stored at version 2"}))},
        {"seq": 0, "cause": -1, "type": "GameStarted", "v": 1,
         "event": {"players": ["Ann", "Bob"], "seed": 1, "profile": "lorwyn-2007"}},
        {"seq": 1, "cause": -1, "type": "GoldenScore", "v": 2,
         "event": {"player": 0, "points": 2, "reason": "first blood"}},
    ]
    with open(GOLDEN / "upcast_v2.jsonl", "wb") as fp:
        for line in lines:
            fp.write(msgspec.json.encode(line) + b"\n")


if __name__ == "__main__":  # pragma: no cover
    if "--regenerate" not in sys.argv:
        sys.exit("usage: python tests/test_golden.py --regenerate [SUFFIX]")
    args = sys.argv[sys.argv.index("--regenerate") + 1:]
    regenerate(args[0] if args else "")
