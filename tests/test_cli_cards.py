"""``mtgk sets`` and ``mtgk cards`` (issue 14): what is installed and loaded."""

from __future__ import annotations

import pytest

from mtgk.tools.cli import main


def test_sets_lists_card_sets_with_versions_counts_and_plugins(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sets"]) == 0
    out = capsys.readouterr().out
    assert "card sets:" in out and "plugins:" in out
    assert "  core 0.1.0: 19 cards, 7 tokens (package mtgk " in out
    assert "  lorwyn 0.2.0: " in out and "  roles (package mtgk " in out


def test_cards_finds_by_name_type_or_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "shock", "--set", "core"]) == 0
    assert capsys.readouterr().out.splitlines() == ["Shock  {R}  Instant  [core]", "1 card(s)"]
    assert main(["cards", "faerie rogue"]) == 0  # a type line
    assert "Oona's Prowler  {1}{B}  Creature — Faerie Rogue  [lorwyn]" in \
        capsys.readouterr().out
    assert main(["cards", "deals 2 damage to any target", "--text"]) in (0, 1)
    capsys.readouterr()
    assert main(["cards", "no card says this"]) == 1
    assert capsys.readouterr().out == "0 card(s)\n"


def test_cards_with_an_unknown_set_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "--set", "nope"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["mtgk: error: no card set 'nope' is loaded (loaded: core, eldraine, "
                   "lorwyn; see `mtgk sets`)"]
