"""One CLI: the options and conventions every ``mtgk`` command shares.

``--version``; ``-v``/``--strict`` with the same meaning in every subcommand (the
scenario runner included, before or after its name); errors start with
``mtgk: error:``; no traceback without ``-v``; ``--json`` on play, bench and scenario
(JSON Lines to the end); every event type of the loaded sets and plugins usable with
``log --type`` and ``db find --event``, listed by ``log --types``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import mtgk
from mtgk import kind
from mtgk.tools import cli
from tests.conftest import fake_dist
from tests.conftest import run_mtgk as run

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "tests" / "scenarios" / "examples"

pytestmark = pytest.mark.usefixtures("reset_structlog")


@pytest.fixture
def broken_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A card set that fails to import, installed beside the built-in ones."""
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "broken_cli_pack.py").write_text("raise RuntimeError('boom at import')\n")
    fake_dist(tmp_path, "broken_cli_pack", "mtgk.cardsets", "broken", "broken_cli_pack")
    yield tmp_path
    sys.modules.pop("broken_cli_pack", None)


def test_version_names_the_kernel_the_card_sets_and_the_plugins() -> None:
    code, out, err = run("--version")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith(f"mtgk {mtgk.__version__} (kernel: {kind.describe()}, ")
    assert any(line.startswith("card set lorwyn 0.2.0 (") and "cards)" in line for line in lines)
    assert any(line.startswith("card set core ") for line in lines)
    assert any(line.startswith("plugin roles (from mtgk ") for line in lines)


def test_python_dash_m_mtgk_is_the_mtgk_command() -> None:
    import subprocess

    got = subprocess.run([sys.executable, "-m", "mtgk", "--version"], capture_output=True,
                         text=True, timeout=120)
    assert got.returncode == 0, got.stderr
    assert got.stdout == run("--version")[1]


def test_version_reports_a_broken_pack(broken_pack: Path) -> None:
    code, out, _ = run("--version")
    assert code == 1
    assert "failed to load: broken: RuntimeError: boom at import" in out


@pytest.mark.parametrize("argv", [
    ["scenario", "-v", str(EXAMPLES / "scenario_evoke.yaml")],
    ["-v", "scenario", str(EXAMPLES / "scenario_evoke.yaml")],
    ["scenario", str(EXAMPLES / "scenario_evoke.yaml"), "--log-json"],
])
def test_scenario_takes_the_common_options(argv: list[str]) -> None:
    code, out, err = run(*argv)
    assert code == 0, err
    assert out.splitlines()[-1].endswith("passed, 0 failed")


@pytest.mark.parametrize("argv", [
    ["--strict", "scenario", str(EXAMPLES / "scenario_evoke.yaml")],
    ["scenario", "--strict", str(EXAMPLES / "scenario_evoke.yaml")],
    ["scenario", "--strict-plugins", str(EXAMPLES / "scenario_evoke.yaml")],
    ["--strict", "scenario", "export", str(ROOT / "tests" / "golden" / "game_walkers.mtgk"),
     "--at", "5"],
    ["--strict", "play", "--seed", "1", "--out", "/dev/null"],
    ["play", "--strict", "--seed", "1", "--out", "/dev/null"],
])
def test_strict_means_the_same_in_every_command(broken_pack: Path, argv: list[str]) -> None:
    code, out, err = run(*argv)
    assert code == 2, (out, err)
    assert err.startswith("mtgk: error: plugin 'broken'"), err
    assert "boom at import" in err and "Traceback" not in err


def test_without_strict_a_broken_pack_is_a_warning(broken_pack: Path) -> None:
    code, out, err = run("scenario", str(EXAMPLES / "scenario_evoke.yaml"))
    assert code == 0, err
    assert "plugin failed to load" in err and "broken" in err


def test_scenario_errors_start_with_mtgk_error(tmp_path: Path) -> None:
    code, _, err = run("scenario", str(tmp_path / "nothing-here"))
    assert code == 2
    assert err.startswith("mtgk: error: ")
    code, _, err = run("scenario", "--no-such-option", str(EXAMPLES))
    assert code == 2 and "unrecognized arguments" in err


def test_scenario_json_is_json_lines_to_the_end() -> None:
    code, out, err = run("scenario", "--json", str(EXAMPLES))
    assert code == 0, err
    objs = [json.loads(line) for line in out.splitlines()]
    *each, total = objs
    assert all(set(o) == {"file", "name", "passed", "reason"} for o in each)
    assert total == {"passed": len(each), "failed": 0,
                     "summary": f"{len(each)} passed, 0 failed"}
    assert err.splitlines()[-1] == f"{len(each)} passed, 0 failed"


def test_scenario_without_json_ends_with_the_plain_closing_line() -> None:
    code, out, _ = run("scenario", str(EXAMPLES / "scenario_evoke.yaml"))
    assert code == 0
    assert out.splitlines()[-1] == f"{len(out.splitlines()) - 1} passed, 0 failed"


def test_play_json(tmp_path: Path) -> None:
    code, out, err = run("play", "--seed", "7", "--json", "--out", tmp_path / "g.mtgk")
    assert code == 0, err
    [line] = out.splitlines()
    s = json.loads(line)
    assert s["seed"] == 7 and s["players"] == ["Alice", "Bob"]
    assert s["log"] == str(tmp_path / "g.mtgk")
    assert s["events"] > 100 and s["bytes"] == (tmp_path / "g.mtgk").stat().st_size
    assert s["result"] in ("win", "draw") and (s["winner"] in s["players"]) == (
        s["result"] == "win")


def test_bench_json() -> None:
    code, out, err = run("bench", "playouts", "--games", "2", "--seed", "3", "--json")
    assert code == 0, err
    [line] = out.splitlines()
    figures = json.loads(line)
    assert set(figures) == {"games", "decisions", "events", "seconds", "games_per_second"}
    assert figures["games"] == 2 and figures["events"] > figures["decisions"] > 0


def test_bench_forks_plays_the_deck_it_is_given(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``--deck`` was silently ignored by ``bench forks`` (it forked the built-in decks'
    games): it is both players' deck, as it is for ``bench playouts``."""
    from mtgk.tools import bench
    seen: list[list[list[str]]] = []
    real = bench.forks

    def spy(reg, decks, *a, **kw):  # type: ignore[no-untyped-def]
        seen.append([list(d) for d in decks])
        return real(reg, decks, *a, **kw)

    monkeypatch.setattr(bench, "forks", spy)
    (tmp_path / "lands.txt").write_text("40 Forest\n")
    code, out, err = run("bench", "forks", "--deck", tmp_path / "lands.txt", "--games", "1",
                         "--max-turns", "4", "--json")
    assert code == 0, err
    assert seen == [[["Forest"] * 40, ["Forest"] * 40]]
    figures = json.loads(out)
    assert figures["forks"] == figures["exact"] > 0


def test_plugin_event_types_work_with_type_and_are_listed(tmp_path: Path) -> None:
    code, out, _ = run("log", "--types")
    assert code == 0
    listed = dict(line.split() for line in out.splitlines())
    # events defined by plugins and card sets, not by the kernel
    for tag in ("Clashed", "DamagePrevented", "Regenerated", "LibraryOrdered",
                "EnteredAttacking", "AbilityCopied", "SpellCopied", "TargetsChanged"):
        assert tag in listed and not listed[tag].startswith("kernel."), tag
    assert listed["DamageDealt"] == "mtgk.log.events"
    code, out, _ = run("log", "--types", "--json")
    assert {json.loads(line)["type"] for line in out.splitlines()} == set(listed)

    log = ROOT / "tests" / "golden" / "game_walkers.mtgk"
    code, out, err = run("log", log, "--type", "Clashed")
    assert code == 0, err
    assert out and all("clash" in line.lower() for line in out.splitlines())


def test_db_find_event_accepts_plugin_events_and_names_its_own_option(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    code, _, err = run("db", "--db", db, "add", ROOT / "tests" / "golden" / "game_walkers.mtgk")
    assert code == 0, err
    code, out, err = run("db", "--db", db, "find", "--event", "Clashed")
    assert code == 0, err
    assert out.strip()
    code, _, err = run("db", "--db", db, "find", "--event", "Clashd")
    assert code == 2
    assert err.startswith("mtgk: error: --event: unknown event type 'Clashd' (did you mean "
                          "Clashed?)")


def test_an_unexpected_exception_is_one_line_and_the_traceback_needs_v(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(args: object) -> int:
        raise ZeroDivisionError("deep inside")

    monkeypatch.setattr(cli, "_print_version", boom)
    code, _, err = run("--version")
    assert code == 1
    assert err.splitlines() == ["mtgk: error: internal error: ZeroDivisionError: deep inside "
                                "(run with -v to see the traceback)"]
    code, _, err = run("-v", "--version")
    assert "Traceback (most recent call last)" in err


def test_verify_json(tmp_path: Path) -> None:
    log = tmp_path / "g.mtgk"
    assert run("play", "--seed", "3", "--out", log, "-q")[0] == 0
    code, out, _ = run("verify", log, "--json")
    assert code == 0
    [line] = out.splitlines()
    obj = json.loads(line)
    assert {k: obj[k] for k in ("file", "result", "exit", "lines")} == {
        "file": str(log), "result": "verified", "exit": 0, "lines": [obj["lines"][0]]}
    assert obj["divergence"] is None and obj["rules_differ"] == []
    assert obj["written_by"] == obj["running"]  # (the versions: docs/debugging.md)
    assert json.loads(line)["lines"][0].startswith("OK: ")
    data = log.read_bytes()
    cut = tmp_path / "cut.mtgk"
    cut.write_bytes(data[: len(data) - 3])  # a torn last block (format 2)
    code, out, _ = run("verify", cut, "--json")
    report = json.loads(out)
    assert code == 1 and report["result"] == "failed" and report["exit"] == 1
    assert report["lines"][0].startswith("FAILED: ") and "torn last block" in report["lines"][0]


def test_a_card_error_names_the_card_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from mtgk.cards.errors import CardError

    def boom(args: object) -> int:
        try:
            {}["grnat"]
        except KeyError as exc:
            raise CardError("Raising Sprite", "raisers", "its triggered ability #0", exc) \
                from exc
        return 0

    monkeypatch.setattr(cli, "_print_version", boom)
    code, _, err = run("--version")
    assert code == 1
    assert err.splitlines() == ['mtgk: error: card "Raising Sprite" (set raisers) failed in its '
                                "triggered ability #0: KeyError: 'grnat' (run with -v to see "
                                "the traceback)"]
    code, _, err = run("-v", "--version")
    assert "Traceback (most recent call last)" in err and "{}[\"grnat\"]" in err


def test_v_gives_a_cards_traceback_in_scenario_too(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """`mtgk -v scenario` prints the traceback of a card whose code raised, as `mtgk -v
    play` does (the old runner printed only the FAIL line); without -v, the one line."""
    from mtgk.cards.definitions import CardFacts, CardSetInfo
    from mtgk.cards.dsl import CardSet, etb
    from mtgk.cards.loading import hookimpl, load_registry
    from mtgk.scenario.runner import cli_main

    B = CardSet("buggy", "0.0.1", __file__, facts="no-such-file.json")

    def grant(c: object) -> None:
        {}["grnat"]  # a pack author's typo

    B.card("Buggy Sprite", etb(grant),
           facts=CardFacts(name="Buggy Sprite", mana_cost="{U}", mana_value=1,
                           types=("Creature",), type_line="Creature", power="1",
                           toughness="1"))

    class Pack:
        @hookimpl
        def mtgk_cardsets(self) -> list[CardSetInfo]:
            return [B.info()]

    reg = load_registry(extra=[("buggy", Pack())])
    sc = tmp_path / "buggy.yaml"
    sc.write_text("name: buggy\nplayers:\n  alice: {battlefield: [Island], hand: [Buggy Sprite]}\n"
                  "  bob: {}\nactions:\n  - {player: alice, cast: Buggy Sprite}\n"
                  "  - {resolve: all}\nexpect:\n  - {card: Buggy Sprite, zone: battlefield}\n")
    assert cli_main([str(sc)], reg=reg) == 1
    out, err = capsys.readouterr()
    assert 'FAIL buggy: card "Buggy Sprite" (set buggy)' in out and "Traceback" not in err
    assert cli_main(["-v", str(sc)], reg=reg) == 1
    out, err = capsys.readouterr()
    assert "Traceback (most recent call last)" in err and '{}["grnat"]' in err, err
