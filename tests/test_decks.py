"""Tests for deck files and built-in decks (mtgk.cards.decks)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mtgk.cards.decks
from mtgk.cards.decks import (
    MAX_DECK_SIZE,
    DeckError,
    builtin_decks,
    deck_lines,
    load_deck,
    parse_deck,
)
from mtgk.cards.definitions import CardDef, CardFacts, CardSetInfo, Registry
from mtgk.cards.loading import load_registry
from mtgk.games.replay import header_decks, new_header, run_from_header

REG = load_registry(["core", "lorwyn"])


def test_doctests() -> None:
    assert doctest.testmod(mtgk.cards.decks).failed == 0


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


# ---------------------------------------------------------------------------
# bad input (issue 11): one DeckError naming the line, never another exception; a
# deck the parser accepts starts a game


def test_a_count_of_thousands_of_digits_is_a_deck_error() -> None:
    with pytest.raises(DeckError, match="written with 5000 digits") as info:
        parse_deck("1 Forest\n" + "9" * 5000 + " Forest\n", REG, source="d.txt")
    assert info.value.line == 2 and str(info.value).startswith("d.txt, line 2: ")


def test_the_deck_size_is_checked_after_adding_the_lines_up() -> None:
    with pytest.raises(DeckError, match="12000 cards; a deck holds at most 10000") as info:
        parse_deck("6000 Forest\n6000 Forest\n", REG)
    assert info.value.line == 2
    with pytest.raises(DeckError, match="at most 10000"):
        parse_deck("\n".join(["Forest"] * (MAX_DECK_SIZE + 1)), REG)


def test_the_largest_deck_round_trips_through_a_header_and_starts_a_game() -> None:
    cards = parse_deck(f"{MAX_DECK_SIZE // 2} Forest\n{MAX_DECK_SIZE // 2} Forest", REG)
    assert len(cards) == MAX_DECK_SIZE and deck_lines(cards) == [f"{MAX_DECK_SIZE} Forest"]
    header = new_header(REG, ["A", "B"], [deck_lines(cards), ["40 Mountain"]], seed=1,
                        meta={"max_turns": 1})
    assert header_decks(header, REG) == [cards, ["Mountain"] * 40]
    game = run_from_header(REG, header)
    assert len(game.state.players[0].library) == MAX_DECK_SIZE - 7


def test_token_cards_are_not_deck_cards() -> None:
    assert "Beast" in REG and REG["Beast"].facts.type_line.startswith("Token")
    with pytest.raises(DeckError, match="'Beast' is a token") as info:
        parse_deck("20 Forest\n2 beast\n", REG)
    assert info.value.line == 2 and info.value.card == "Beast"


def test_a_byte_order_mark_is_ignored(tmp_path: Path) -> None:
    assert parse_deck("\ufeff2 Forest\n1 Shock", REG) == ["Forest", "Forest", "Shock"]
    f = tmp_path / "bom.txt"
    f.write_text("Deck\n3 Mountain\n", encoding="utf-8-sig")
    assert load_deck(f, REG) == ["Mountain"] * 3


def test_other_names_of_a_card_give_the_card() -> None:
    reg = load_registry()
    [(other, name)] = [(o, n) for o, n in reg.aliases.items() if n == "Besotted Knight"]
    assert parse_deck(f"1 {other}\n1 {other.upper()}", reg) == [name, name]


def test_a_long_unknown_name_gives_a_short_message() -> None:
    with pytest.raises(DeckError) as info:
        parse_deck("Q" * 100_000, REG, source="d.txt")
    assert len(str(info.value)) < 200 and "100000 characters" in str(info.value)
    assert info.value.card == "Q" * 100_000 and info.value.suggestions == []


def test_play_refuses_an_oversized_deck_before_the_game(tmp_path: Path) -> None:
    from tests.conftest import run_mtgk

    deck = tmp_path / "big.txt"
    deck.write_text("6000 Forest\n6000 Forest\n", encoding="utf-8")
    out = tmp_path / "game.mtgk"
    code, _, err = run_mtgk("play", "--decks", deck, "--seed", 1, "--out", out)
    assert code == 2 and f"{deck}, line 2: this line makes the deck 12000 cards" in err
    assert not out.exists()
