"""The board in a notebook: ``%load_ext mtgk.tools.notebook`` makes a ``Game`` or a
``State`` display as an HTML board (players, the battlefield with each permanent's
characteristics after the layers, the stack), like the viewer's; ``repr`` stays the
code-like one (``Game(players=['Alice', 'Bob'], seed=7, events=556)``).

Outside IPython, :func:`board_html` gives the same HTML.

>>> from mtgk.rules.engine import Game
>>> from mtgk.cards.definitions import Registry
>>> html = board_html(Game(Registry(), ["Ann", "Bob"], seed=1))
>>> "<table" in html and "Ann" in html and "life 20" in html
True
"""

from __future__ import annotations

from html import escape
from typing import Any

from mtgk.cards.definitions import Registry
from mtgk.render import characteristics, clean, step_name
from mtgk.rules.engine import Game
from mtgk.rules.state import State

__all__ = ["board_html", "load_ipython_extension"]

_STYLE = ("font-family: sans-serif; font-size: 13px; border-collapse: collapse; "
          "margin: 4px 0")
_CELL = "border: 1px solid #bbb; padding: 2px 6px; text-align: left; vertical-align: top"


def _text(s: str) -> str:
    return escape(clean(s))


def board_html(obj: Game | State, registry: Registry | None = None) -> str:
    """The board of a game (or of a state, with ``registry`` for its characteristics) as
    an HTML fragment: everything public and hidden alike (it is the whole state, as
    ``mtgk replay`` without ``--as`` shows it)."""
    if isinstance(obj, Game):
        state, registry = obj.state, obj.reg
    else:
        state = obj
    chars, note = characteristics(state, registry)
    rows = []
    step = step_name(state.step) if state.step else "before the first turn"
    head = (f"turn {state.turn}, {escape(state.players[state.active].name)}'s turn, "
            f"{_text(step)}" if state.players and state.turn else _text(step))
    for p, pl in enumerate(state.players):
        perms = []
        for oid in state.battlefield:
            o = state.objects[oid]
            if o.controller != p:
                continue
            c = chars.get(oid)
            name = c.name if c is not None else o.card
            bits = [f"<b>{_text(name)}</b>"]
            if c is not None and c.power is not None:
                bits.append(f"{c.power}/{c.toughness}")
            if o.tapped:
                bits.append("<i>tapped</i>")
            if o.counters:
                bits.append(_text(", ".join(f"{n} {k}" for k, n in sorted(o.counters.items()))))
            if o.damage:
                bits.append(f"damage {o.damage}")
            perms.append(" ".join(bits))
        summary = (f"<b>{escape(pl.name)}</b><br>life {pl.life}<br>hand {len(pl.hand)}, "
                   f"library {len(pl.library)}, graveyard {len(pl.graveyard)}")
        rows.append(f"<tr><td style='{_CELL}'>{summary}</td>"
                    f"<td style='{_CELL}'>{'<br>'.join(perms) or '&mdash;'}</td></tr>")
    stack = [f"{_text(it.source_card or '?')} ({escape(it.kind)})" for it in reversed(state.stack)]
    if stack:
        rows.append(f"<tr><td style='{_CELL}'><b>stack</b> (top first)</td>"
                    f"<td style='{_CELL}'>{'<br>'.join(stack)}</td></tr>")
    foot = f"<div style='color:#888'>{_text(note)}</div>" if note else ""
    return (f"<div><div>{head}</div><table style='{_STYLE}'>{''.join(rows)}</table>"
            f"{foot}</div>")


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext mtgk.tools.notebook``: Game and State display as their board."""
    html = ipython.display_formatter.formatters["text/html"]
    html.for_type(Game, board_html)
    html.for_type(State, board_html)
