"""Tests for scenario export (mtgk.tools.export, ``mtgk scenario export``): a position of a
logged game written as a scenario file, checked against the contract's loader and
runner, and proved by re-running the game from it with the recorded decisions."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

import mtgk.tools.export
from mtgk.agents import HeuristicAgent
from mtgk.cards.decks import parse_deck
from mtgk.cards.loading import load_registry
from mtgk.games.replay import new_header, run_from_header
from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.log.logfile import LogHeader, read_log
from mtgk.rules.state import fold
from mtgk.scenario.logs import write_scenario_log
from mtgk.scenario.play import run_scenario
from mtgk.scenario.reader import loads_scenarios
from mtgk.tools.export import (
    Export,
    ExportError,
    check_export,
    export_scenario,
    exportable,
    priority_point,
)
from tests.conftest import run_mtgk as run

REG = load_registry()
RG = ("9 Mountain\n8 Forest\n2 Garruk Wildspeaker\n2 Chandra Nalaar\n4 Shock\n"
      "2 Lightning Bolt\n4 Gray Ogre\n4 Grizzly Bears\n2 Fistful of Force\n3 Grizzly Bears\n")
WU = ("9 Plains\n8 Island\n2 Ajani Goldmane\n2 Jace Beleren\n3 Liliana Vess\n"
      "4 Knight of Meadowgrain\n4 Kinsbaile Skirmisher\n4 Wizened Cenn\n4 Plover Knights\n")


pytestmark = pytest.mark.usefixtures("reset_structlog")


class Played:
    def __init__(self, header: LogHeader, envs: list[Envelope]) -> None:
        self.header = header
        self.envs = envs


@pytest.fixture(scope="module")
def game() -> Played:
    decks = [parse_deck(RG, REG), parse_deck(WU, REG)]
    from mtgk.cards.decks import deck_lines

    header = new_header(REG, ["Alice", "Bob"], [deck_lines(d) for d in decks], 5,
                        meta={"max_turns": 40})
    g = run_from_header(REG, header, [HeuristicAgent(10), HeuristicAgent(11)])
    return Played(header, g.log)


def _steps(envs: list[Envelope]) -> list[int]:
    return [e.seq for e in envs if isinstance(e.event, ev.StepBegan)]


def test_doctests() -> None:
    assert doctest.testmod(mtgk.tools.export).failed == 0


def test_exports_follow_the_contract_and_run(game: Played) -> None:
    """Every position where a step began exports to a file the contract's loader accepts
    (known cards, unique aliases), whose setup gives the same position, and which the
    scenario runner runs (no actions: it passes)."""
    checked = proved = 0
    for at in _steps(game.envs)[::7]:
        x = export_scenario(game.header, game.envs, at, REG, source="game.mtgk")
        sc = loads_scenarios(x.text, "export.yaml", lambda n: n in REG)[0]
        state = fold(game.envs[: at + 1])
        assert sc.turn.number == state.turn and sc.turn.step == state.step
        assert [sc.players[p.name].life for p in state.players] == [p.life for p in
                                                                      state.players]
        aliases = [e.alias for p in sc.players.values() for _, es in p.zones() for e in es]
        assert len(aliases) == len(set(aliases)) == len(x.created)
        assert all(re.fullmatch(r".+#\d+", a or "") for a in aliases)
        res = run_scenario(sc, REG)
        assert res.passed, (at, res.reason)
        check = check_export(x, game.header, game.envs, REG)
        assert not check.setup_problems, (at, check.setup_problems)
        checked += 1
        if not x.warnings and not x.notes:
            assert check.ok, (at, check.summary())
            proved += 1
    assert checked >= 10 and proved >= 2


def test_export_reproduces_the_rest_of_the_game(game: Played) -> None:
    """From a quiet position (nothing the format can't say), the exported setup plus the
    recorded decisions give the original's events to the end of the game, modulo ids."""
    proved = []
    for at in _steps(game.envs):
        x = export_scenario(game.header, game.envs, at, REG)
        if x.warnings or x.notes:
            continue
        c = check_export(x, game.header, game.envs, REG)
        assert c.ok, (at, c.summary())
        proved.append((at, c))
    assert proved
    at, c = proved[0]
    assert c.complete and c.compared == len(game.envs) - at - 1


def test_a_busy_stack_is_refused_naming_the_nearest_valid_event(game: Played) -> None:
    cast = next(e.seq for e in game.envs if isinstance(e.event, ev.SpellCast))
    with pytest.raises(ExportError) as err:
        export_scenario(game.header, game.envs, cast, REG)
    nearest = err.value.nearest
    assert nearest is not None and nearest < cast
    assert exportable(fold(game.envs[: nearest + 1])) is None
    assert all(exportable(fold(game.envs[: k + 1])) is not None
               for k in range(nearest + 1, cast + 1))
    assert f"the stack is not empty (1 object on it); the nearest earlier position that can " \
           f"be exported is after event {nearest}" in str(err.value)
    with pytest.raises(ExportError, match="the first turn has not begun"):
        export_scenario(game.header, game.envs, 50, REG)


def test_lossy_positions_say_what_is_left_out(game: Played) -> None:
    land = next(e.seq for e in game.envs if isinstance(e.event, ev.LandPlayed))
    x = export_scenario(game.header, game.envs, land, REG)
    assert any("has played 1 land(s) this turn" in w for w in x.warnings)
    assert "# Not part of this position" in x.text and "has played 1 land(s)" in x.text
    assert "# What happened next in the original game:" in x.text


SETUP = """
name: rich-position
players:
  alice:
    battlefield:
      - Shelldock Isle
      - {card: Island, tapped: true}
      - {card: Garruk Wildspeaker, counters: {loyalty: 2}}
      - {card: Grizzly Bears, as: bears, counters: {"+1/+1": 2}, sick: true}
      - {card: Battle Mastery, attached_to: bears}
      - {card: Beast, token: true}
      - {card: Silvercoat Lion, controller: bob}
    hand: [Shock]
    library: [Forest, Plains, Island, Forest]
    exile: [{card: Divination, face_down: true, exiled_with: Shelldock Isle}]
    graveyard: [Lightning Bolt]
  bob:
    life: 17
    battlefield: [{card: Jace Beleren, counters: {loyalty: 4}}, Plains]
    library: [Plains, Island, Plains]
turn: {number: 5, active: alice, step: upkeep}
actions:
  - {pass_until: {turn: 5, step: precombat_main}}
  - {player: alice, activate: Garruk Wildspeaker, ability: "+1", targets: [Island, Shelldock Isle]}
  - {resolve: all}
  - {pass_until: {turn: 6, step: draw}}
"""


@pytest.fixture(scope="module")
def rich(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sc = loads_scenarios(SETUP, "rich.yaml", lambda n: n in REG)[0]
    res = run_scenario(sc, REG)
    assert res.passed, res.reason
    return write_scenario_log(res, tmp_path_factory.mktemp("export"), REG)


def test_export_writes_every_setup_key(rich: Path) -> None:
    log = read_log(rich)
    envs = log.envelopes
    at = next(e.seq for e in envs if isinstance(e.event, ev.StepBegan)
              and e.event.step == "precombat_main")
    x = export_scenario(log.header, envs, at, REG, source=str(rich))
    t = x.text
    assert re.search(r'\{card: "Island", as: "Island#\d+", tapped: true\}', t)
    assert re.search(r'\{card: "Grizzly Bears", as: "Grizzly Bears#(\d+)", sick: true, '
                     r'counters: \{"\+1/\+1": 2\}\}', t)
    bears = re.search(r'"Grizzly Bears#(\d+)"', t)
    assert bears and f'attached_to: "Grizzly Bears#{bears.group(1)}"' in t
    assert re.search(r'\{card: "Beast", as: "Beast#\d+", token: true\}', t)
    assert re.search(r'\{card: "Silvercoat Lion", as: "Silvercoat Lion#\d+", controller: '
                     r'"bob"\}', t)
    assert re.search(r'\{card: "Divination", as: "Divination#\d+", face_down: true, '
                     r'exiled_with: "Shelldock Isle#\d+"\}', t)
    assert re.search(r'"Garruk Wildspeaker#\d+", counters: \{"loyalty": 2\}', t)
    assert "life: 17" in t and 'turn: {number: 5, active: "alice", step: "precombat_main"}' in t
    assert re.search(r'library:\n      - \{card: "Plains", as: "Plains#\d+"\}\n      - '
                     r'\{card: "Island"', t)  # top first (the Forest on top was drawn)
    c = check_export(x, log.header, envs, REG)
    assert not c.setup_problems, c.setup_problems


def test_export_of_a_sick_and_tapped_position(rich: Path) -> None:
    log = read_log(rich)
    envs = log.envelopes
    at = next(e.seq for e in envs if isinstance(e.event, ev.StepBegan)
              and e.event.step == "end")
    x = export_scenario(log.header, envs, at, REG)
    assert re.search(r'"Island#\d+", tapped: true', x.text) is None  # Garruk untapped it
    assert re.search(r'"Garruk Wildspeaker#\d+", counters: \{"loyalty": 3\}', x.text)
    assert any("already activated a loyalty ability this turn" in w for w in x.warnings)
    c = check_export(x, log.header, envs, REG)
    assert not c.setup_problems


def test_marked_damage_is_exported(tmp_path: Path) -> None:
    """Damage marked on a permanent is part of the position (the second edition's setup
    key ``damage``); main left it out with a warning."""
    sc = loads_scenarios("""
name: damaged
players:
  alice: {battlefield: [Axegrinder Giant], library: [Forest, Forest]}
  bob: {battlefield: [Mountain], hand: [Shock], library: [Forest, Forest]}
actions:
  - {player: bob, cast: Shock, targets: [Axegrinder Giant]}
  - {resolve: all}
  - {pass_until: {turn: 2, step: upkeep}}
""", "damaged.yaml", lambda n: n in REG)[0]
    res = run_scenario(sc, REG)
    assert res.passed, res.reason
    log = read_log(write_scenario_log(res, tmp_path, REG))
    envs = log.envelopes
    at = next(e.seq for e in envs if isinstance(e.event, ev.StepBegan)
              and e.event.step == "beginning_of_combat")
    x = export_scenario(log.header, envs, at, REG)
    assert re.search(r'\{card: "Axegrinder Giant", as: "Axegrinder Giant#\d+", damage: 2\}',
                     x.text)
    assert not [w for w in x.warnings if "damage" in w]
    c = check_export(x, log.header, envs, REG)
    assert c.ok and not c.setup_problems, c.summary()
    [exported] = loads_scenarios(x.text, "x.yaml", lambda n: n in REG)
    assert exported.players["alice"].battlefield[0].damage == 2


# ------------------------------------------------------------------ command line


def test_scenario_export_command(tmp_path: Path) -> None:
    path = tmp_path / "g.mtgk"
    deck = tmp_path / "rg.txt"
    deck.write_text(RG, encoding="utf-8")
    deck2 = tmp_path / "wu.txt"
    deck2.write_text(WU, encoding="utf-8")
    assert run("play", "--seed", 5, "--decks", deck, deck2, "--max-turns", 40, "-q",
               "--out", path)[0] == 0
    out_file = tmp_path / "pos.yaml"
    code, out, err = run("scenario", "export", path, "--turn", 3, "--step", "upkeep",
                         "--out", out_file, "--check")
    assert code == 0, err
    assert out == "" and f"wrote {out_file}" in err and "check: OK" in err
    assert "g-event-" in out_file.read_text(encoding="utf-8")
    code, out, _ = run("scenario", out_file)
    assert code == 0 and out.startswith("PASS g-event-")
    code, out, err = run("scenario", "export", path, "--at", -1)
    assert code == 2 and "cannot export the position" in err and "Traceback" not in err
    code, out, _ = run("scenario", "export", "--help")
    assert code == 0 and out.startswith("usage: mtgk scenario export")
    code, out, err = run("scenario", "export", path)
    assert code == 2 and "give either --at N or --turn T" in err
    code, out, err = run("scenario", "export", path, "--turn", 4, "--step", "precombat_main",
                         "--name", "my-bug")
    assert code == 0 and 'name: "my-bug"' in out
    assert "mtgk: warning: not exported:" not in err or "land" not in err


def test_export_keeps_exported_setup_ids_traceable(game: Played) -> None:
    at = _steps(game.envs)[40]
    x: Export = export_scenario(game.header, game.envs, at, REG)
    state = fold(game.envs[: at + 1])
    for oid in x.created:
        assert x.aliases[oid] == f"{state.objects[oid].card}#{oid}"


def test_the_check_proves_what_the_runner_plays(game: Played) -> None:
    """A scenario starts in its step with the step's beginning past (the runner resumes
    it). A position taken as the draw step began, before the draw, is exported with a
    warning that the draw won't happen, and the check -- which plays the scenario as the
    runner does -- finds the difference; the position once the step's beginning is done
    (``priority_point``, what ``--turn T --step S`` exports) holds the drawn card and
    reproduces the game. (The check used to begin the step anew, unlike the runner, and
    called such exports proven.)"""
    began = next(e.seq for e in game.envs if isinstance(e.event, ev.StepBegan)
                 and e.event.step == "draw" and fold(game.envs[: e.seq + 1]).turn > 1)
    drawn = game.envs[began + 1].event
    assert isinstance(drawn, ev.ZoneChanged) and drawn.reason == "draw"
    x = export_scenario(game.header, game.envs, began, REG)
    assert any("before what happens as it begins" in w and f"events {began + 1} to" in w
               for w in x.warnings)
    assert not check_export(x, game.header, game.envs, REG).ok
    point = priority_point(game.envs, began)
    assert point > began and priority_point(game.envs, point) == point
    y = export_scenario(game.header, game.envs, point, REG)
    assert not any("before what happens" in w for w in y.warnings)
    assert drawn.new_obj in y.aliases
    c = check_export(y, game.header, game.envs, REG)
    assert c.ok, c.summary()


def test_export_command_takes_a_step_once_its_beginning_is_done(tmp_path: Path) -> None:
    log = tmp_path / "g.mtgk"
    code, _, err = run("play", "--seed", 5, "--max-turns", 6, "--out", log)
    assert code == 0, err
    out = tmp_path / "s.yaml"
    code, _, err = run("scenario", "export", log, "--turn", 3, "--step", "draw", "--out", out,
                       "--check")
    assert code == 0 and "check: OK" in err, err
    assert "before what happens as it begins" not in out.read_text(encoding="utf-8")


def test_printed_names_not_token_keys(tmp_path: Path) -> None:
    """Two tokens share the printed name Elemental (Hoofprints of the Stag's is keyed
    "Elemental (Hoofprints)"): an export names the one that needs it by its key only in
    ``card:`` (what sets up that very token), its alias and messages by its printed name;
    ``mtgk diff`` prints the printed name.  (The old code printed the key everywhere.)"""
    from mtgk.tools.debug import diff_states
    sc = loads_scenarios("""
name: elementals
players:
  alice: {battlefield: [Mountain, {card: Elemental (Hoofprints), token: true},
                        {card: Elemental, token: true}], library: [Forest, Forest]}
  bob: {library: [Forest, Forest]}
actions:
  - {pass_until: {turn: 2, step: upkeep}}
""", "elementals.yaml", lambda n: n in REG)[0]
    res = run_scenario(sc, REG)
    assert res.passed, res.reason
    log = read_log(write_scenario_log(res, tmp_path, REG))
    envs = log.envelopes
    at = next(e.seq for e in envs if isinstance(e.event, ev.StepBegan)
              and e.event.step == "upkeep")
    x = export_scenario(log.header, envs, at, REG)
    assert re.search(r'\{card: "Elemental \(Hoofprints\)", as: "Elemental#\d+", token: true\}',
                     x.text), x.text
    assert re.search(r'\{card: "Elemental", as: "Elemental#\d+", token: true\}', x.text)
    assert '"Elemental (Hoofprints)#' not in x.text
    c = check_export(x, log.header, envs, REG)
    assert not c.setup_problems, c.setup_problems
    created = next(e.seq for e in envs if isinstance(e.event, ev.ObjectCreated)
                   and e.event.card == "Elemental (Hoofprints)")
    text = "\n".join(diff_states(fold(envs[:created]), fold(envs[:created + 1]), REG).lines())
    assert "+ Elemental [" in text and "Hoofprints" not in text, text
