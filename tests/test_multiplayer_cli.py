"""The command line with multiplayer games (issue 16): ``mtgk play --variant
two-headed-giant`` and ``--players N``, ``verify``, ``log``/``replay``/``explain``
``--as`` each player (a teammate's hand stays hidden), the viewer with every seat,
``mtgk sim`` and the game library."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtgk.log.logfile import load_log
from mtgk.tools.cli import main

pytestmark = pytest.mark.usefixtures("reset_structlog")  # (mtgk configures structlog)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def thg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("thg") / "g.mtgk"
    assert main(["play", "--variant", "two-headed-giant", "--seed", "3", "--out", str(path),
                 "--quiet"]) == 0
    return path


def test_play_two_headed_giant_and_verify(thg: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = load_log(thg)
    assert log.header.players == ["Alice", "Bob", "Carol", "Dave"]
    assert log.header.meta["variant"] == "two_headed_giant"
    assert log.header.meta["teams"] == [[0, 2], [1, 3]]
    assert [a["kind"] for a in log.header.meta["agents"]] == ["heuristic"] * 4
    code, out, _err = run(capsys, "verify", str(thg))
    assert code == 0 and out.startswith("OK: ")
    code, out, _err = run(capsys, "log", str(thg))
    assert "Two-Headed Giant: Alice & Carol vs Bob & Dave" in out
    assert out.rstrip().splitlines()[-1].endswith(" win")  # the team wins


def test_play_summaries_name_the_teams(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = str(tmp_path / "g.mtgk")
    code, out, _err = run(capsys, "play", "--variant", "two-headed-giant", "--seed", "3",
                          "--out", out_file)
    assert code == 0 and "(Two-Headed Giant)" in out and "winners: " in out
    code, out, _err = run(capsys, "play", "--variant", "two-headed-giant", "--seed", "3",
                          "--out", out_file, "--json")
    summary = json.loads(out)
    assert summary["variant"] == "two-headed-giant"
    assert summary["teams"] == [["Alice", "Carol"], ["Bob", "Dave"]]
    code, out, _err = run(capsys, "play", "--seed", "3", "--out", out_file, "--json")
    assert "variant" not in json.loads(out)  # a two-player game's summary is as it was


@pytest.mark.parametrize("players", [["3"], ["4"], ["Ann", "Ben", "Cid"]])
def test_play_free_for_all(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                           players: list[str]) -> None:
    path = tmp_path / "g.mtgk"
    code, _out, err = run(capsys, "play", "--players", *players, "--seed", "5", "--agents",
                          "random", "heuristic", "--out", str(path), "--quiet")
    assert code == 0, err
    header = load_log(path).header
    n = int(players[0]) if players[0].isdigit() else len(players)
    assert len(header.players) == n and header.meta["variant"] == "free_for_all"
    assert [a["kind"] for a in header.meta["agents"]] == (["random", "heuristic"] * 2)[:n]
    assert len(header.decks) == n  # the built-in decks, dealt round
    code, out, _err = run(capsys, "verify", str(path))
    assert code == 0, out


@pytest.mark.parametrize("argv,message", [
    (["--players", "5"], "two to four players"),
    (["--players", "Ann"], "two to four players"),
    (["--players", "Ann", "Ann", "Bo"], "different names"),
    (["--variant", "two-headed-giant", "--players", "3"], "four players"),
    (["--players", "3", "--decks", "a", "b", "c", "d"], "one to 3 decks"),
])
def test_bad_player_options_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         argv: list[str], message: str) -> None:
    code, out, err = run(capsys, "play", "--out", str(tmp_path / "g.mtgk"), *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "g.mtgk").exists()


def test_a_teammates_hand_is_not_visible(thg: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Carol's view hides Alice's (her teammate's) hand as it hides the opponents'; her own
    she sees; the truth shows all of them."""
    code, truth, _err = run(capsys, "replay", str(thg), "--turn", "5")
    assert code == 0
    code, carol, _err = run(capsys, "replay", str(thg), "--turn", "5", "--as", "Carol")
    assert code == 0
    hands = [line for line in truth.splitlines() if "hand (" in line]
    shown = [line for line in carol.splitlines() if "hand (" in line]  # by seat
    assert len(shown) == 4 and len(hands) == 4
    assert ["hidden" in line for line in shown] == [True, True, False, True]  # Alice's too
    assert shown[2] == hands[2] and not any("hidden" in line for line in hands)
    code, out, _err = run(capsys, "log", str(thg), "--as", "Carol", "--json")
    header = json.loads(out.splitlines()[0])["header"]
    assert header["meta"]["variant"] == "two_headed_giant" and header["seed"] is None
    assert header["decks"][0] == [] and header["decks"][2] != []  # only her own deck list


def test_every_seat_in_the_viewer_and_explain(thg: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "g.html"
    code, _out, err = run(capsys, "view", str(thg), "--out", str(page), "--quiet")
    assert code == 0, err
    text = page.read_text()
    for name in ("Alice", "Bob", "Carol", "Dave"):
        assert f'"label":"{name}' in text or f'"{name}"' in text
    for who in ("Alice", "Dave"):
        code, _out, err = run(capsys, "view", str(thg), "--as", who, "--out", str(page),
                              "--quiet")
        assert code == 0, err
        code, out, err = run(capsys, "explain", str(thg), "300", "--as", who)
        assert code == 0, err


def test_sim_and_the_library(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "games.db")
    code, out, err = run(capsys, "sim", "--games", "2", "--workers", "1", "--seed", "4",
                         "--variant", "two-headed-giant", "--db", db)
    assert code == 0, err
    assert "Alice (" in out and ") & Carol (" in out and " won " in out
    code, out, err = run(capsys, "sim", "--games", "2", "--workers", "1", "--seed", "4",
                         "--players", "3", "--db", db, "--json")
    assert code == 0, err
    assert json.loads(out)["players"] == ["Alice", "Bob", "Carol"]
    code, out, err = run(capsys, "db", "--db", db, "list")
    assert code == 0 and out.count("Alice vs Bob vs Carol") == 2  # the free-for-all games
    assert out.count("Alice & Carol vs Bob & Dave") == 2  # the teams (was: four players apart)
    code, out, err = run(capsys, "verify", f"{db}:1")
    assert code == 0, out


def test_branch_a_two_headed_giant_game(thg: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``mtgk branch`` plays on with an agent in every seat, and the branch keeps the
    variant and the teams (its header copies the game's meta)."""
    out_file = tmp_path / "b.mtgk"
    log = load_log(thg)
    at = next(e.seq for e in log.envelopes[300:] if e.event.TAG == "DecisionMade")
    code, _out, err = run(capsys, "branch", str(thg), "--at", str(at), "--agent", "random",
                          "--out", str(out_file), "--quiet")
    assert code == 0, err
    header = load_log(out_file).header
    assert header.meta["variant"] == "two_headed_giant" and header.meta["teams"] == [[0, 2],
                                                                                     [1, 3]]
    code, out, _err = run(capsys, "verify", str(out_file))
    assert code == 0, out


def test_export_a_two_headed_giant_position(thg: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """``mtgk scenario export`` writes a multiplayer position with its variant and teams
    (every seat's cards), and the scenario it writes runs."""
    out_file = tmp_path / "pos.yaml"
    code, _out, err = run(capsys, "scenario", "export", str(thg), "--turn", "5", "--step",
                          "precombat_main", "--out", str(out_file))
    assert code == 0, err
    text = out_file.read_text()
    assert "variant: two_headed_giant" in text
    assert 'teams: [["Alice", "Carol"], ["Bob", "Dave"]]' in text
    assert all(f'  "{name}":' in text for name in ("Alice", "Bob", "Carol", "Dave"))
    code, out, err = run(capsys, "scenario", str(out_file))
    assert code == 0 and out.splitlines()[-1] == "1 passed, 0 failed", out + err


def test_leaving_the_game_reveals_no_hidden_card(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A player who leaves a free-for-all game takes their library and hand with them
    unseen (to the zone ``left``): in another player's view those events name no card and
    no object; what leaves from the battlefield or a graveyard is public."""
    path = tmp_path / "g.mtgk"
    assert main(["play", "--players", "4", "--seed", "2", "--out", str(path), "--quiet"]) == 0
    capsys.readouterr()
    log = load_log(path)
    left = [e for e in log.envelopes if e.event.TAG == "ZoneChanged"
            and e.event.reason == "left-game"]
    hidden = [e for e in left if e.event.from_zone in ("library", "hand")]
    assert hidden and len(hidden) < len(left)
    leaver = next(e.event for e in log.envelopes if e.event.TAG == "PlayerLost")
    viewer = next(name for i, name in enumerate(log.header.players)
                  if i != leaver.player)
    code, text, _err = run(capsys, "log", str(path), "--as", viewer)
    assert code == 0
    lines = {int(line.split(" ", 1)[0]): line for line in text.splitlines()
             if line[:1].isdigit()}
    for e in hidden:
        assert lines[e.seq].split(" ", 1)[1].startswith("a card leaves the game"), lines[e.seq]
    code, out, _err = run(capsys, "log", str(path), "--as", viewer, "--json")
    events = {r["seq"]: r for r in map(json.loads, out.splitlines()[1:])}
    assert all(events[e.seq]["event"]["obj"] == 0 for e in hidden)
