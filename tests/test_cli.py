"""Tests for the command line (mtgk.tools.cli) and event/state rendering (mtgk.render)."""

from __future__ import annotations

import doctest
import io
import json
import os
import re
import sys
import types
from pathlib import Path

import msgspec
import pytest
import structlog

import mtgk.cards.rendering
import mtgk.diag
import mtgk.render
import mtgk.render.board
import mtgk.render.events
import mtgk.render.views
import mtgk.render.words
import mtgk.tools.cli_base
from mtgk.cards.loading import load_registry
from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.log.logfile import LogHeader, UnknownEvent, read_log, write_jsonl, write_log
from mtgk.render import Renderer, render_event, render_state
from mtgk.rules.state import State, encode_state, fold
from tests.conftest import run_mtgk as run

RED = "17 Mountain\n19 Gray Ogre\n4 Shock\n"
REG = load_registry()


pytestmark = pytest.mark.usefixtures("reset_structlog")


class Played:
    def __init__(self, path: Path, deck: Path, out: str) -> None:
        self.path = path
        self.deck = deck
        self.out = out
        self.log = read_log(path)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    d = tmp_path_factory.mktemp("cli")
    deck = d / "red.txt"
    deck.write_text(RED, encoding="utf-8")
    path = d / "game.mtgk"
    code, out, err = run("play", "--seed", 5, "--decks", deck, "--agents", "heuristic", "random",
                         "--max-turns", 40, "--out", path)
    assert code == 0, err
    return Played(path, deck, out)


def test_doctests() -> None:
    for mod in (mtgk.render, mtgk.render.words, mtgk.render.events, mtgk.render.views,
                mtgk.render.board, mtgk.diag, mtgk.tools.cli_base):
        assert doctest.testmod(mod).failed == 0, mod.__name__


# ------------------------------------------------------------------ play


def test_play_writes_a_log_that_reads_back(played: Played) -> None:
    lf = played.log
    assert not lf.torn and not lf.problems
    n = len(lf.envelopes)
    assert f"events: {n}\n" in played.out
    size = os.path.getsize(played.path)
    assert f"log: {played.path} ({size} bytes, {size / n:.1f} bytes/event)" in played.out
    assert re.search(r"^(winner: (Alice|Bob)|result: a draw after \d+ turns)$", played.out, re.M)
    h = lf.header
    assert h.decks == [["17 Mountain", "19 Gray Ogre", "4 Shock"]] * 2
    assert h.seed == 5 and h.players == ["Alice", "Bob"]
    assert [a["kind"] for a in h.meta["agents"]] == ["heuristic", "random"]
    assert h.meta["max_turns"] == 40
    assert dict((k, v) for k, v in h.cardsets)["lorwyn"] == REG.sets["lorwyn"].version
    first = lf.envelopes[0].event
    assert isinstance(first, ev.GameStarted) and first.seed == 5
    assert isinstance(lf.envelopes[-1].event, ev.GameEnded)


def test_play_is_deterministic(played: Played, tmp_path: Path) -> None:
    again = tmp_path / "again.mtgk"
    code, _out, err = run("play", "--seed", 5, "--decks", played.deck, "--agents", "heuristic",
                          "random", "--max-turns", 40, "--out", again, "--quiet")
    assert code == 0 and _out == "", err
    assert again.read_bytes() == played.path.read_bytes()


def test_play_default_uses_two_builtin_decks(tmp_path: Path) -> None:
    path = tmp_path / "b.mtgk"
    code, out, err = run("play", "--seed", 3, "--max-turns", 6, "--out", path)
    assert code == 0, err
    names = read_log(path).header.meta["deck_names"]
    from mtgk.cards.decks import builtin_decks
    assert names == [k for k in builtin_decks(REG) if "/" not in k][:2]
    assert names[0] in out


def test_play_bad_deck_names_the_line(tmp_path: Path) -> None:
    deck = tmp_path / "bad.txt"
    deck.write_text("17 Mountain\n19 Gray Orge\n", encoding="utf-8")
    code, out, err = run("play", "--decks", deck, "--out", tmp_path / "x.mtgk")
    assert code == 2 and out == ""
    assert f"mtgk: error: {deck}, line 2: unknown card 'Gray Orge'" in err
    assert "Traceback" not in err
    assert not (tmp_path / "x.mtgk").exists()


def test_play_diagnostics_are_json_on_stderr(tmp_path: Path, played: Played) -> None:
    code, out, err = run("-v", "--log-json", "play", "--seed", 1, "--decks", played.deck,
                         "--max-turns", 2, "--out", tmp_path / "d.mtgk")
    assert code == 0
    lines = [json.loads(line) for line in err.splitlines()]
    playing = [x for x in lines if x["event"] == "playing"]
    assert playing and playing[0]["seed"] == 1 and playing[0]["level"] == "info"
    assert "winner" in out or "draw" in out
    code, out, err = run("play", "--seed", 1, "--decks", played.deck, "--max-turns", 2,
                         "--out", tmp_path / "d.mtgk")
    assert err == ""  # quiet by default


# ------------------------------------------------------------------ log


def test_log_prints_one_readable_line_per_event(played: Played) -> None:
    code, out, err = run("log", played.path)
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == len(played.log.envelopes)
    assert all(line.startswith(f"{i} ") for i, line in enumerate(lines))
    assert lines[0] == "0 Game started: Alice vs Bob (seed 5, rules lorwyn-2007)"
    assert "1 Mountain is put into Alice's library" in lines
    assert any(re.fullmatch(r"\d+ Turn 3 \((Alice|Bob)\)", x) for x in lines)
    assert any(re.fullmatch(r"\d+ — declare attackers —", x) for x in lines)
    assert any(re.fullmatch(r"\d+ (Alice|Bob) plays Mountain", x) for x in lines)
    assert any(re.fullmatch(r"\d+ (Alice|Bob) casts (Shock|Gray Ogre)( targeting .+)?", x)
               for x in lines)
    assert not any(re.search(r"#\d", x) for x in lines)  # objects are named, not numbered


def test_log_as_player_masks_hidden_cards(played: Played) -> None:
    _, everyone, _ = run("log", played.path)
    code, bob, _ = run("log", played.path, "--as", "bob")
    assert code == 0
    assert re.search(r"^\d+ Alice draws (Mountain|Gray Ogre|Shock)$", everyone, re.M)
    assert not re.search(r"^\d+ Alice draws (Mountain|Gray Ogre|Shock)$", bob, re.M)
    assert re.search(r"^\d+ Alice draws a card$", bob, re.M)
    assert re.search(r"^\d+ Bob draws (Mountain|Gray Ogre|Shock)$", bob, re.M)
    assert "1 a card is put into Alice's library" in bob.splitlines()
    assert "order hidden" in bob and "top:" not in bob
    # what is public stays public
    plays = re.findall(r"^\d+ Alice plays Mountain$", everyone, re.M)
    assert plays and plays == re.findall(r"^\d+ Alice plays Mountain$", bob, re.M)


def test_log_filters(played: Played) -> None:
    code, out, _ = run("log", played.path, "--type", "DamageDealt", "lifelost")
    n_dmg = sum(isinstance(e.event, ev.DamageDealt | ev.LifeLost) for e in played.log.envelopes)
    assert code == 0 and len(out.splitlines()) == n_dmg > 0
    assert all(" damage to " in x or " loses " in x for x in out.splitlines())
    code, out, _ = run("log", played.path, "--from", 10, "--to", 19)
    assert [int(x.split()[0]) for x in out.splitlines()] == list(range(10, 20))
    code, out, _ = run("log", played.path, "--from", -3)
    assert len(out.splitlines()) == 3 and "Game over" in out.splitlines()[-1]


def test_log_json_is_the_jsonl_format(played: Played) -> None:
    code, out, _ = run("log", played.path, "--json")
    assert code == 0
    expected = io.StringIO()
    write_jsonl(expected, played.log.header, played.log.envelopes)
    assert out == expected.getvalue()
    code, out, _ = run("log", played.path, "--json", "--as", "Bob", "--to", 100)
    recs = [json.loads(x) for x in out.splitlines()]
    assert recs[0]["header"]["decks"] == [[], ["17 Mountain", "19 Gray Ogre", "4 Shock"]]
    created = [r["event"] for r in recs[1:] if r["type"] == "ObjectCreated"]
    assert {c["card"] for c in created if c["owner"] == 0} == {None}
    assert [r["seq"] for r in recs[1:]] == list(range(101))
    shuffles = [r["event"]["order"] for r in recs[1:] if r["type"] == "LibraryShuffled"]
    assert shuffles and all(o == [] for o in shuffles)


# ------------------------------------------------------------------ replay


def _life_change(envs: list[Envelope]) -> int:
    return next(e.seq for e in envs if isinstance(e.event, ev.DamageDealt) and e.event.target < 0)


def test_replay_shows_the_state_after_an_event(played: Played) -> None:
    envs = played.log.envelopes
    n = _life_change(envs)
    state = fold(envs[: n + 1])
    code, out, err = run("replay", played.path, "--at", n)
    assert code == 0, err
    assert out.startswith(f"After {n} ")
    for p in state.players:
        assert f"{p.name}: life {p.life}," in out
    assert state.players[0].life + state.players[1].life < 40
    assert "Battlefield:" in out and "Stack" in out


def test_replay_json_is_the_folded_state(played: Played) -> None:
    n = len(played.log.envelopes) // 2
    code, out, _ = run("replay", played.path, "--at", n, "--json")
    assert code == 0
    got = msgspec.json.decode(out, type=State)
    assert encode_state(got) == encode_state(fold(played.log.envelopes[: n + 1]))
    code, out, _ = run("replay", played.path, "--at", n, "--json", "--as", "0")
    masked = msgspec.json.decode(out, type=State)
    hand1 = masked.players[1].hand
    assert hand1 and set(hand1) == {0}  # the other hand's cards have no ids
    assert all(masked.objects[o].card for o in masked.players[0].hand)


def test_replay_as_player_hides_the_other_hand(played: Played) -> None:
    n = len(played.log.envelopes) // 3
    state = fold(played.log.envelopes[: n + 1])
    _, out, _ = run("replay", played.path, "--at", n, "--as", "Alice")
    assert "(as seen by Alice)" in out
    assert f"  hand ({len(state.players[1].hand)}): hidden" in out
    assert "library top" not in out
    alice_hand = ", ".join(state.objects[o].card for o in state.players[0].hand) or "empty"
    assert f"  hand ({len(state.players[0].hand)}): {alice_hand}" in out


# ------------------------------------------------------------------ verify


def test_verify_passes_on_a_real_log(played: Played) -> None:
    code, out, err = run("verify", played.path)
    assert (code, out) == (0, f"OK: {len(played.log.envelopes)} events verified\n"), err


def test_verify_reports_an_altered_decision(played: Played, tmp_path: Path) -> None:
    envs = list(played.log.envelopes)
    d = next(e for e in envs if isinstance(e.event, ev.DecisionMade)
             and e.event.kind == "priority" and e.event.choice[0] == "play")
    envs[d.seq] = Envelope(d.seq, d.cause, msgspec.structs.replace(d.event, choice=["pass"]))
    bad = tmp_path / "altered.mtgk"
    write_log(bad, played.log.header, envs)
    code, out, _ = run("verify", bad)
    assert code == 1
    assert out.startswith(f"FAILED: diverges at event {d.seq + 1}: expected LandPlayed(")
    assert f"  log:    {d.seq + 1} " in out and "plays Mountain" in out
    assert f"  re-run: {d.seq + 1} " in out


def _torn_copy(played: Played, tmp_path: Path) -> tuple[Path, int]:
    torn = tmp_path / "torn.mtgk"
    data = played.path.read_bytes()
    torn.write_bytes(data[:-3])
    offset = read_log(torn).problems[0].offset
    return torn, offset


def test_torn_file_is_reported_with_its_offset_and_prefix_listed(played: Played,
                                                                 tmp_path: Path) -> None:
    torn, offset = _torn_copy(played, tmp_path)
    n = read_log(torn).problems[0].record  # the first record of the torn last block
    assert n is not None and 0 < n < len(played.log.envelopes)
    code, out, err = run("log", torn)
    assert code == 1
    assert f"record {n} at byte {offset}: torn last block" in err
    assert len(out.splitlines()) == n and out.splitlines()[-1].startswith(f"{n - 1} ")
    code, out, _ = run("verify", torn)
    assert code == 1 and out.startswith(f"FAILED: record {n} at byte {offset}: torn")
    assert f"the {n} intact events before it verify; the log stops before the game's end" in out
    code, out, _ = run("verify", torn, "--repair")
    assert code == 3 and out.startswith(f"repaired: record {n} at byte {offset}")
    assert f"the original is kept in {torn}.orig" in out
    assert f"INCOMPLETE: the {n} events verified, but the log stops before the game's end" in out
    assert os.path.getsize(torn) == offset
    code, out, _ = run("verify", "--repair", torn)
    assert code == 3 and out.startswith("repair: nothing to do")


def test_corrupt_and_foreign_files(played: Played, tmp_path: Path) -> None:
    bad = tmp_path / "bad.mtgk"
    data = bytearray(played.path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    bad.write_bytes(bytes(data))
    code, out, err = run("log", bad)  # shows what reads, the damage marked
    assert code == 1 and "--- damaged: record " in out
    assert re.search(r"damaged: .*bad\.mtgk: record \d+ at byte \d+: ", err)
    code, out, err = run("explain", bad, 3)
    assert code == 2 and out == ""
    assert re.search(r"bad\.mtgk is damaged at byte \d+, record \d+: ", err)
    code, out, _ = run("verify", bad)
    assert code == 1 and "FAILED: " in out and "is damaged at byte" in out
    foreign = tmp_path / "notes.txt"
    foreign.write_text("hello", encoding="utf-8")
    code, _, err = run("replay", foreign, "--at", 0)
    assert code == 2 and "is not an mtgk log (byte 0)" in err
    newer = tmp_path / "newer.mtgk"
    newer.write_bytes(played.path.read_bytes()[:4] + b"\x09" + played.path.read_bytes()[5:])
    code, _, err = run("log", newer)
    assert code == 2 and "newer version of mtgk" in err


def test_unknown_events_are_listed_and_reported(played: Played, tmp_path: Path) -> None:
    envs = list(played.log.envelopes[:20])
    envs.append(Envelope(20, -1, UnknownEvent("FutureThing", 2, msgspec.msgpack.encode([1]))))
    path = tmp_path / "future.mtgk"
    write_log(path, played.log.header, envs)
    code, out, err = run("log", path)
    assert code == 0
    assert out.splitlines()[-1] == ("20 unknown event FutureThing (version 2): this kernel "
                                    "cannot read it")
    assert "record 20 at byte" in err and "FutureThing" in err


@pytest.mark.parametrize("argv", [
    ["log", "/nonexistent/game.mtgk"],
    ["replay", "{game}", "--at", "999999"],
    ["replay", "{game}", "--at", "3", "--as", "Carol"],
    ["log", "{game}", "--type", "NoSuchEvent"],
    ["replay", "{game}"],
    ["frobnicate"],
    ["play", "--agents", "genius"],
    ["play", "--max-turns", "0"],
    [],
])
def test_bad_input_exits_2_without_a_traceback(played: Played, argv: list[str]) -> None:
    code, out, err = run(*[a.replace("{game}", str(played.path)) for a in argv])
    assert code == 2
    assert "Traceback" not in err and err
    assert out == ""


@pytest.mark.parametrize("cmd", ["play", "log", "replay", "verify"])
def test_every_command_has_help(cmd: str) -> None:
    code, out, _ = run(cmd, "--help")
    assert code == 0 and out.startswith(f"usage: mtgk {cmd}")


def test_scenario_is_passed_to_the_scenario_runner(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[str]] = []
    fake = types.ModuleType("mtgk.scenario.runner")
    fake.cli_main = lambda argv: seen.append(list(argv)) or 3  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "mtgk.scenario.runner", fake)
    assert run("-v", "scenario", "a.yaml", "--json", "--help")[0] == 3
    # the global options given before the command's name go on to the runner
    assert seen == [["-v", "a.yaml", "--json", "--help"]]
    monkeypatch.setitem(sys.modules, "mtgk.scenario.runner", None)
    code, _, err = run("scenario", "a.yaml")
    assert code == 2 and "scenario runner" in err and "not installed" in err


# ------------------------------------------------------------------ rendering


def test_every_kernel_event_type_has_its_own_rendering() -> None:
    missing = [tag for tag, cls in ev.EVENT_TYPES.items()
               if cls.__module__ == "mtgk.log.events" and not hasattr(Renderer, "_" + tag)]
    assert missing == []


def _envs(*events: ev.Event) -> list[Envelope]:
    return [Envelope(i, -1, e) for i, e in enumerate(events)]


PW_GAME = _envs(
    ev.GameStarted(players=("Alice", "Bob"), seed=1),
    ev.ObjectCreated(obj=1, card="Shock", owner=0, zone="hand"),
    ev.ObjectCreated(obj=2, card="Jace Beleren", owner=1, zone="battlefield"),
    ev.CounterPlaced(obj=2, kind="loyalty", n=3),
    ev.ObjectCreated(obj=3, card="Game-Trail Changeling", owner=1, zone="battlefield"),
    ev.ObjectCreated(obj=4, card="Gray Ogre", owner=0, zone="battlefield", tapped=True),
    ev.ObjectCreated(obj=5, card="Murder", owner=1, zone="exile", face_down=True),
    ev.TurnBegan(turn=3, active=0),
    ev.StepBegan(step="declare_attackers"),
    ev.DecisionMade(player=0, kind="priority", choice=["pass"]),
    ev.SpellCast(obj=1, new_obj=6, controller=0, targets=(-2,)),
    ev.DecisionMade(player=0, kind="redirect", choice=2),
    ev.DamageRedirected(source=6, from_player=1, to=2, amount=2),
    ev.DamageDealt(source=6, target=2, amount=2),
    ev.CounterRemoved(obj=2, kind="loyalty", n=2),
    ev.StackItemResolved(item=6),
    ev.ZoneChanged(obj=6, new_obj=7, from_zone="stack", to_zone="graveyard", reason="resolve"),
    ev.AttackersDeclared(attacks=((4, 2),)),
    ev.BlockersDeclared(blocks=((3, 4),)),
)


def test_event_lines_name_cards_and_players() -> None:
    r = Renderer(REG)
    lines = [r.render(e) for e in PW_GAME]
    assert lines[3] == "3 Jace Beleren: loyalty 0 → 3"
    assert lines[7:] == [
        "7 Turn 3 (Alice)",
        "8 — declare attackers —",
        "9 Alice: priority → pass",
        "10 Alice casts Shock targeting Bob",
        "11 Alice: redirect → to Jace Beleren",
        "12 Shock: 2 damage redirected from Bob to Jace Beleren",
        "13 Shock deals 2 damage to Jace Beleren",
        "14 Jace Beleren: loyalty 3 → 1",
        "15 Shock resolves",
        "16 Shock moves from stack to Alice's graveyard (resolve)",
        "17 Alice attacks: Gray Ogre → Jace Beleren",
        "18 Bob: Game-Trail Changeling blocks Gray Ogre",
    ]
    # the same event rendered from a plain state (no renderer history)
    before = fold(PW_GAME[:10])
    assert render_event(PW_GAME[10], before) == "10 Alice casts Shock targeting Bob"
    assert encode_state(before) == encode_state(fold(PW_GAME[:10]))  # left unchanged


def test_hidden_cards_in_event_lines() -> None:
    bob = Renderer(REG, as_player=1)
    lines = [bob.render(e) for e in PW_GAME]
    assert lines[1] == "1 a card is put into Alice's hand"
    assert lines[5] == "5 Gray Ogre (tapped) is put onto the battlefield under Alice's control"
    assert lines[6] == "6 a card (face down) is put into exile (Bob's)"
    assert lines[10] == "10 Alice casts Shock targeting Bob"  # casting reveals it
    alice = Renderer(REG, as_player=0)
    assert [alice.render(e) for e in PW_GAME][1] == "1 Shock is put into Alice's hand"


def test_render_state_after_layers_and_perspectives() -> None:
    state = fold(PW_GAME)
    text = render_state(state, REG)
    assert "Turn 3, Alice's turn, step: declare attackers" in text
    assert "[2] Jace Beleren — Planeswalker — Jace loyalty 1" in text
    assert "[3] Game-Trail Changeling — Creature — (all creature types) 4/4 (changeling, " \
        "trample)" in text
    assert "[4] Gray Ogre — Creature — Ogre 2/2 [tapped]" in text
    assert "Gray Ogre attacks Jace Beleren, blocked by Game-Trail Changeling" in text
    assert "[5] Murder (face down) (owner Bob)" in text
    assert "graveyard (1, top first): Shock" in text
    bob = render_state(state, REG, as_player=1)
    assert "[5] a face-down card (owner Bob)" in bob and "Murder" not in bob
    state.objects[5].known_to = [1]
    assert "[5] Murder (face down)" in render_state(state, REG, as_player=1)


def test_render_state_shows_the_stack_and_the_next_decision() -> None:
    state = fold(PW_GAME[:11])
    after = PW_GAME[11:]
    text = render_state(state, REG, after=after)
    assert "Stack (top first):\n  [6] Shock (spell, Alice) targeting Bob" in text
    assert text.endswith("Next decision (event 11): Alice: redirect → to Jace Beleren")
    assert render_state(fold([]), REG) == "(no game yet)"


def test_state_render_without_registry_still_names_cards() -> None:
    text = render_state(fold(PW_GAME), None)
    assert "[2] Jace Beleren" in text and "characteristics not shown" in text


def test_renderer_handles_unregistered_plugin_events() -> None:
    class Custom(ev.Event, frozen=True):
        TAG = "CustomThing"
        obj: int

    r = Renderer()
    for env in PW_GAME[:3]:
        r.render(env)
    assert r.render(Envelope(3, -1, Custom(obj=2))) == "3 CustomThing(obj=Jace Beleren)"
    mtgk.render.register_renderer("CustomThing", lambda rr, e: f"{rr.obj(e.obj)} glows")
    try:
        assert r.render(Envelope(4, -1, Custom(obj=2))) == "4 Jace Beleren glows"
    finally:
        del mtgk.cards.rendering.RENDERERS["CustomThing"]


def test_plugin_events_read_well() -> None:
    from mtgk.cards.loading import load_registry as load

    load()  # plugins register their event types
    clashed = ev.EVENT_TYPES.get("Clashed")
    prevented = ev.EVENT_TYPES.get("DamagePrevented")
    assert clashed is not None and prevented is not None
    r = Renderer(REG)
    for env in PW_GAME[:3]:
        r.render(env)
    line = r.render(Envelope(3, -1, clashed(player=1, obj=2, mana_value=4, won=True,
                                           card="Jace Beleren", to="bottom")))
    assert line == ("3 Bob clashes: reveals Jace Beleren (mana value 4), puts it on the bottom "
                    "and wins")
    line = r.render(Envelope(4, -1, prevented(source=2, target=-1, amount=3)))
    assert line == "4 3 damage Jace Beleren would deal to Alice is prevented"


def test_log_header_default_players_match(played: Played) -> None:
    assert isinstance(played.log.header, LogHeader)
    assert played.log.header.players == list(fold(played.log.envelopes).players[i].name
                                              for i in range(2))


def test_strict_makes_plugin_failures_errors(played: Played, monkeypatch: pytest.MonkeyPatch
                                             ) -> None:
    import mtgk.tools.cli
    from mtgk.cards.loading import PluginError

    calls: list[bool] = []

    def fake_load(strict: bool = False) -> object:
        calls.append(strict)
        if strict:
            raise PluginError("plugin 'broken' (package x) failed to load: ImportError: no")
        return REG

    monkeypatch.setattr(mtgk.tools.cli_base, "load_registry", fake_load)
    assert run("verify", played.path)[0] == 0
    code, out, err = run("--strict", "verify", played.path)
    assert code == 2 and "plugin 'broken'" in err and "Traceback" not in err
    code, _, err = run("log", played.path, "--strict")  # after the command works too
    assert code == 2 and "plugin 'broken'" in err
    assert calls == [False, True, True]


def test_diagnostics_are_bound_to_the_game_and_event() -> None:
    from mtgk.rules.engine import Game

    out = io.StringIO()
    mtgk.diag.configure(verbosity=2, json=True, stream=out)
    with mtgk.diag.game_context():
        g = Game(REG, ["A", "B"], seed=42)
        mtgk.diag.track(g)
        g.emit(ev.TurnBegan(turn=1, active=0))
        structlog.get_logger("mtgk.test").debug("checked", what="x")
    rec = json.loads(out.getvalue())
    assert (rec["game"], rec["event_no"], rec["level"], rec["what"]) == (42, 1, "debug", "x")
    mtgk.diag.configure(verbosity=0, json=True, stream=out)
    structlog.get_logger("mtgk.test").info("not shown")
    assert out.getvalue().count("\n") == 1


def test_log_as_a_player_hides_the_seed(tmp_path: Path) -> None:
    """The seed decides every shuffle: a player's view of the log must not reveal it."""
    import contextlib
    import io

    from mtgk.tools.cli import main as cli
    out = tmp_path / "g.mtgk"
    assert cli(["play", "--seed", "12345", "--out", str(out), "--quiet"]) == 0
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert cli(["log", str(out), "--as", "Bob", "--to", "0"]) == 0
    assert "12345" not in buf.getvalue() and "Game started" in buf.getvalue()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert cli(["log", str(out), "--to", "0"]) == 0
    assert "seed 12345" in buf.getvalue()
