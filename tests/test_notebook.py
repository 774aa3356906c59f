"""A Game or State in a notebook shows its board as HTML (``mtgk.tools.notebook``)."""

from __future__ import annotations

import doctest
from html import escape
from typing import Any

import mtgk.tools.notebook
from mtgk.agents import HeuristicAgent
from mtgk.cards.decks import builtin_decks, deck_lines, load_deck
from mtgk.cards.loading import load_registry
from mtgk.games.replay import new_header, run_from_header
from mtgk.rules.engine import Game
from mtgk.rules.state import State
from mtgk.tools.notebook import board_html, load_ipython_extension

REG = load_registry()


def test_doctests() -> None:
    assert doctest.testmod(mtgk.tools.notebook).failed == 0


def test_the_board_shows_permanents_after_the_layers_and_escapes_names() -> None:
    decks = [load_deck(k, REG) for k in builtin_decks(REG) if "/" not in k][:2]
    header = new_header(REG, ["<b>Ann</b>", "Bob"], [deck_lines(d) for d in decks], 7,
                        meta={"max_turns": 6})
    game = run_from_header(REG, header, [HeuristicAgent(1), HeuristicAgent(2)])
    html = board_html(game)
    assert "&lt;b&gt;Ann&lt;/b&gt;" in html and "<b>Ann</b>" not in html
    on_bf = [game.state.objects[o] for o in game.state.battlefield]
    assert on_bf, "six turns put permanents on the battlefield"
    for o in on_bf:
        c = game.chars(o.id)
        assert escape(c.name) in html
        if c.power is not None:
            assert f"{c.power}/{c.toughness}" in html
    assert board_html(game.state, REG) == html  # a State with its registry: the same board
    assert "characteristics not shown" in board_html(game.state)  # no registry: said so


def test_the_extension_registers_an_html_formatter_for_game_and_state() -> None:
    registered: dict[type, Any] = {}

    class Formatter:
        def for_type(self, cls: type, fn: Any) -> None:
            registered[cls] = fn

    class DisplayFormatter:
        formatters = {"text/html": Formatter()}

    class IPython:
        display_formatter = DisplayFormatter()

    load_ipython_extension(IPython())
    assert registered == {Game: board_html, State: board_html}
