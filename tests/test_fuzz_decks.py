"""Fuzzing the deck parser (mtgk.cards.decks): every deck file loads or is refused with one
DeckError line naming the file, never another exception, in bounded time, and the file is
never changed.  A deck that loads can be written to a log header and read back, and its
cards can be put into a game's libraries.

``MTGK_FUZZ_EXAMPLES`` sets the number of inputs per test; ``MTGK_FUZZ_STATS=FILE``
appends each input's outcome (``loaded`` / ``refused``, and the seconds it took) to FILE (see
tests/test_fuzz_scenarios.py).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgk.cards.decks import MAX_DECK_SIZE, DeckError, deck_lines, load_deck, parse_deck
from mtgk.cards.definitions import Registry
from mtgk.cards.loading import load_registry
from mtgk.games.replay import header_decks, new_header
from mtgk.rules.engine import Game
from tests.conftest import is_utf8

EXAMPLES = int(os.environ.get("MTGK_FUZZ_EXAMPLES", "150"))
STATS = os.environ.get("MTGK_FUZZ_STATS")
SECONDS_PER_INPUT = 10.0

FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture])

REG: Registry = load_registry()
CARDS = [n for n in sorted(REG.cards) if not REG[n].facts.type_line.startswith("Token")]
NAMES = sorted(REG.cards)[:60] + ["Forest", "Shock", "Beast", "Elf Warrior", "Treasure",
                                  *REG.aliases]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz-decks")


def check(folder: Path, data: str | bytes) -> str:
    """Load ``data`` as a deck file: ``"loaded"`` or ``"refused"``; anything else fails."""
    path = folder / "deck.txt"
    raw = data.encode("utf-8") if isinstance(data, str) else data
    path.write_bytes(raw)
    start = time.perf_counter()
    try:
        cards = load_deck(path, REG)
        outcome = "loaded"
    except DeckError as err:
        message = str(err)
        assert message.startswith(f"{path}"), message
        assert "\n" not in message and "\r" not in message, message
        assert len(message) < 1_000, message[:200]
        outcome = "refused"
    elapsed = time.perf_counter() - start
    assert elapsed < SECONDS_PER_INPUT, f"{elapsed:.1f} s for one input"
    assert path.read_bytes() == raw, "the parser changed the file"
    if outcome == "loaded":
        assert 1 <= len(cards) <= MAX_DECK_SIZE
        assert all(c in REG.cards for c in cards)  # registry names, never another name
        assert not any(REG[c].facts.type_line.startswith("Token") for c in cards)
        # what a log header stores reads back, and a game can be set up from it
        header = new_header(REG, ["A", "B"], [deck_lines(cards), deck_lines(cards)], seed=1)
        assert header_decks(header, REG) == [cards, cards]
        if len(cards) <= 200:
            game = Game(REG, ["A", "B"], seed=1)
            game.setup_decks([cards, cards])
            assert len(game.state.players[0].library) == len(cards)
    if STATS:
        with open(STATS, "a", encoding="utf-8") as out:
            out.write(f"{outcome} {elapsed:.4f}\n")
    return outcome


counts = st.one_of(
    st.integers(0, 30).map(str), st.integers(0, 20_000).map(str),
    st.integers(1, 6000).map(lambda n: "9" * n), st.just("0" * 10 + "4"),
    st.sampled_from(["", "4x", "4 x", "4X", "٣", "²", "-1", "+2", "1.5", "1e3", "0x10"]),
)
names = st.one_of(
    st.sampled_from(NAMES), st.sampled_from(NAMES).map(str.upper),
    st.sampled_from(NAMES).map(lambda n: n + " (M10) 150"), st.text(max_size=30),
    st.text(st.characters(codec="utf-8"), max_size=8), st.just("Q" * 5000),
)
specials = st.sampled_from([
    "Deck", "Sideboard", "SIDEBOARD:", "main deck", "Maybeboard", "SB: 2 Shock", "sb: 99999 x",
    "# comment", "// comment", "", "   ", "\t", "\ufeff", "\x00", "\x0b", "\x1c", "\u2028",
    "\r", "Forest # trailing", "Shock //", "A // B",
])


@st.composite
def deck_text(draw: st.DrawFn) -> str:
    lines = []
    for _ in range(draw(st.integers(0, 25))):
        kind = draw(st.integers(0, 9))
        if kind == 0:
            lines.append(draw(specials))
        elif kind < 6:  # mostly good lines, so that many decks load
            lines.append(f"{draw(st.integers(1, 30))} {draw(st.sampled_from(CARDS))}")
        else:
            sep = draw(st.sampled_from([" ", "x ", "  ", "\t", " x ", ""]))
            lines.append(draw(counts) + sep + draw(names))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r", "\x85"]))
    text = newline.join(lines)
    if draw(st.booleans()):
        text = "\ufeff" + text
    return text


@FUZZ
@given(text=deck_text())
def test_deck_like_text(folder: Path, text: str) -> None:
    check(folder, text)


@FUZZ
@given(data=st.one_of(st.text(st.characters(codec="utf-8"), max_size=400),
                      st.binary(max_size=300).filter(lambda b: not is_utf8(b))))
def test_any_text_and_bytes(folder: Path, data: str | bytes) -> None:
    check(folder, data)


@settings(FUZZ, max_examples=max(10, EXAMPLES // 5))
@given(sizes=st.lists(st.integers(1, MAX_DECK_SIZE), min_size=1, max_size=4))
def test_big_decks_either_fit_or_are_refused(folder: Path, sizes: list[int]) -> None:
    text = "\n".join(f"{n} Forest" for n in sizes)
    outcome = check(folder, text)
    assert outcome == ("loaded" if sum(sizes) <= MAX_DECK_SIZE else "refused")
    if outcome == "loaded":  # the header's one merged line holds the whole deck
        assert deck_lines(parse_deck(text, REG)) == [f"{sum(sizes)} Forest"]


def test_known_cases(folder: Path) -> None:
    assert check(folder, "\ufeff2 Forest\n1 Shock") == "loaded"
    assert check(folder, "6000 Forest\n6000 Forest") == "refused"
    assert check(folder, "9" * 5000 + " Forest") == "refused"
    assert check(folder, "20 Forest\n1 Beast") == "refused"
