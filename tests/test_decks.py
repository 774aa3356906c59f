"""Tests for deck files and built-in decks (kernel.decks)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kernel.decks
from kernel.cards import CardDef, CardFacts, CardSetInfo, Registry
from kernel.decks import DeckError, builtin_decks, deck_lines, load_deck, parse_deck
from kernel.plugins import load_registry

REG = load_registry(["core", "lorwyn"])


def test_doctests() -> None:
    assert doctest.testmod(kernel.decks).failed == 0


def test_counts_comments_and_headers() -> None:
    text = """\
# a red deck
// made for tests
Deck
17 Mountain
4x Shock   # burn
Gray Ogre
2 gray ogre

Sideboard
4 Murder
"""
    cards = parse_deck(text, REG)
    assert cards == ["Mountain"] * 17 + ["Shock"] * 4 + ["Gray Ogre"] * 3


def test_sb_lines_and_set_suffixes_are_understood() -> None:
    text = "2 Shock (M10) 146\nSB: 3 Murder\n1 Forest (LRW)\n"
    assert parse_deck(text, REG) == ["Shock", "Shock", "Forest"]


def test_unknown_card_names_its_line_and_suggests_a_close_name() -> None:
    text = "17 Mountain\n\n3 Gray Orge\n4 Shock\n"
    with pytest.raises(DeckError) as info:
        parse_deck(text, REG, source="red.txt")
    err = info.value
    assert err.line == 3
    assert err.card == "Gray Orge"
    assert "Gray Ogre" in err.suggestions
    assert str(err).startswith("red.txt, line 3: unknown card 'Gray Orge'")
    assert "did you mean 'Gray Ogre'" in str(err)


def test_unknown_card_without_close_names() -> None:
    with pytest.raises(DeckError) as info:
        parse_deck("1 Mountain\n2 Zzyzx Qwop\n", REG)
    assert info.value.line == 2 and info.value.suggestions == []
    assert "did you mean" not in str(info.value)


@pytest.mark.parametrize(("text", "line", "what"), [
    ("1 Forest\n0 Shock", 2, "at least 1"),
    ("99999 Forest", 1, "not plausible"),
])
def test_bad_counts(text: str, line: int, what: str) -> None:
    with pytest.raises(DeckError, match=what) as info:
        parse_deck(text, REG)
    assert info.value.line == line


def test_empty_deck_is_an_error() -> None:
    with pytest.raises(DeckError, match="no cards"):
        parse_deck("# nothing\nSideboard\n4 Shock\n", REG)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["Forest", "Shock", "Gray Ogre", "Mountain"]), min_size=1,
                max_size=60))
def test_deck_lines_round_trip_keeps_the_order(cards: list[str]) -> None:
    lines = deck_lines(cards)
    assert parse_deck("\n".join(lines), REG) == cards
    assert all(line.split(" ", 1)[0].isdigit() for line in lines)


def _registry_with_decks() -> Registry:
    reg = Registry()
    for name in ("Forest", "Mountain", "Shock"):
        reg.add(CardDef(CardFacts(name=name)))
    reg.add_set(CardSetInfo("aaa", "1", [], decks={"Burn": "20 Mountain\n20 Shock",
                                                   "Green": "40 Forest"}))
    reg.add_set(CardSetInfo("bbb", "2", [], decks={"Burn": "40 Mountain"}))
    return reg


def test_builtin_decks_first_set_wins_and_every_deck_is_qualified() -> None:
    decks = builtin_decks(_registry_with_decks())
    assert list(decks) == ["Burn", "Green", "aaa/Burn", "aaa/Green", "bbb/Burn"]
    assert decks["Burn"] == "20 Mountain\n20 Shock"
    assert decks["bbb/Burn"] == "40 Mountain"


def test_load_deck_by_name_path_and_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    reg = _registry_with_decks()
    monkeypatch.chdir(tmp_path)
    assert load_deck("burn", reg) == ["Mountain"] * 20 + ["Shock"] * 20
    assert load_deck("bbb/Burn", reg) == ["Mountain"] * 40
    f = tmp_path / "mine.txt"
    f.write_text("3 Forest\n1 Shock\n", encoding="utf-8")
    assert load_deck(f, reg) == ["Forest"] * 3 + ["Shock"]
    bad = tmp_path / "bad.txt"
    bad.write_text("3 Forest\n1 Shokc\n", encoding="utf-8")
    with pytest.raises(DeckError) as info:
        load_deck(str(bad), reg)
    assert info.value.line == 2 and info.value.source == str(bad)
    with pytest.raises(DeckError) as info:
        load_deck("Bruns", reg)
    assert "Burn" in info.value.suggestions
    assert "built-in decks: Burn, Green" in str(info.value)


def test_installed_builtin_decks_parse() -> None:
    reg = load_registry()
    decks = builtin_decks(reg)
    assert decks, "the installed card sets ship no decks"
    for name, text in decks.items():
        assert parse_deck(text, reg, source=name), name
