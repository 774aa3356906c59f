"""Logs whose integrity holds but whose content makes no sense: one clear line, never a
traceback, in ``log``, ``replay``, ``diff``, ``explain`` and ``view``, as everyone and
as either player; and names with control characters or markup are printed harmless.

The fuzz test takes a real game as JSON Lines, gives one field of one event another
value of the same JSON type (a player index of 40, an object id that never existed,
a list of ids, a string with escape sequences ...), and runs the tools on it.  The
reader accepts such a file (it is well formed); the tools must then report what they
can't fold (a warning naming the event) and go on, or refuse in one ``mtgk:`` line.
``MTGK_FUZZ_EXAMPLES`` sets the number of logs tried (default 40; three command runs
each); ``MTGK_FUZZ_STATS=FILE`` appends one line per command run to FILE: its outcome
(``shown``: exit 0 or 1, nothing left out; ``warned``: shown, with the one-line warning
naming the first event that could not be folded; ``refused``: exit 2, one line) and the
seconds it took.
"""

from __future__ import annotations

import io
import json
import os
import time
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from mtgk.agents import RandomAgent
from mtgk.cards.decks import deck_lines, parse_deck
from mtgk.cards.loading import load_registry
from mtgk.games.replay import new_header, run_from_header
from mtgk.log.logfile import write_jsonl
from tests.conftest import run_mtgk as run

REG = load_registry()
EXAMPLES = int(os.environ.get("MTGK_FUZZ_EXAMPLES", "40"))
STATS = os.environ.get("MTGK_FUZZ_STATS")
DECK = "9 Forest\n8 Mountain\n4 Gray Ogre\n4 Shock\n4 Leaf Gilder\n3 Oakgnarl Warrior\n" \
       "4 Mosswort Bridge\n4 Cloudcrown Oak\n"


@cache
def base() -> list[str]:
    """A short game between two decks with a hideaway land, as JSON Lines."""
    deck = deck_lines(parse_deck(DECK, REG))
    header = new_header(REG, ["Alice", "Bob"], [deck, deck], 11, meta={"max_turns": 6})
    g = run_from_header(REG, header, [RandomAgent(3), RandomAgent(4)])
    buf = io.StringIO()
    write_jsonl(buf, header, g.log)
    return buf.getvalue().splitlines()


def _values(v: Any) -> st.SearchStrategy[Any]:
    """Other values of the JSON type of ``v``."""
    ints = st.one_of(st.integers(-3, 3), st.integers(-50, 400), st.sampled_from([2**40, -2**40]))
    text = st.one_of(st.text(max_size=12),
                     st.sampled_from(["\x1b[2J\x1b[31m", "a\nb\rc", "<script>x</script>",
                                      "\u202eevil", "", "library", "hand", "exile"]))
    if isinstance(v, bool):
        return st.booleans()
    if isinstance(v, int):
        return ints
    if isinstance(v, str):
        return text
    if isinstance(v, list):
        return st.lists(st.one_of(ints, st.lists(ints, max_size=3)), max_size=5)
    return st.one_of(st.none(), ints, text)


COMMANDS = [
    ["log", "{f}"], ["log", "{f}", "--as", "Bob"], ["log", "{f}", "--as", "Alice", "--json"],
    ["log", "{f}", "--card", "Gray Ogre", "--as", "Bob"], ["log", "{f}", "--player", "Bob"],
    ["replay", "{f}", "--at", "{n}"], ["replay", "{f}", "--at", "{n}", "--as", "Bob"],
    ["replay", "{f}", "--at", "{n}", "--json", "--as", "Alice"],
    ["diff", "{f}", "{m}", "{n}"], ["diff", "{f}", "{m}", "{n}", "--as", "Bob", "--json"],
    ["explain", "{f}", "{n}"], ["explain", "{f}", "{n}", "--as", "Bob"],
    ["view", "{f}", "--out", "{h}", "-q"], ["view", "{f}", "--out", "{h}", "--as", "Bob", "-q"],
]


def _check(argv: list[str]) -> tuple[int, str, str]:
    start = time.perf_counter()
    try:
        code, out, err = run(*argv)
    except Exception as exc:  # noqa: BLE001 - the test's point: nothing escapes
        pytest.fail(f"`mtgk {' '.join(argv)}` raised {type(exc).__name__}: {exc}")
    assert code in (0, 1, 2), (argv, code, err)
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    for line in err.splitlines():
        assert line.startswith("mtgk: "), (argv, line)
    if STATS:
        outcome = "refused" if code == 2 else "warned" if "could not be folded" in err \
            else "shown"
        with open(STATS, "a", encoding="utf-8") as f:
            f.write(f"{outcome} {time.perf_counter() - start:.4f}\n")
    return code, out, err


@settings(max_examples=EXAMPLES, deadline=None, phases=[Phase.explicit, Phase.generate],
          database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_a_log_that_makes_no_sense_gives_clear_lines(tmp_path_factory: pytest.TempPathFactory,
                                                    data: st.DataObject) -> None:
    lines = list(base())
    i = data.draw(st.integers(1, len(lines) - 1), label="line")
    rec = json.loads(lines[i])
    body = rec["event"]
    if not body:
        return
    field = data.draw(st.sampled_from(sorted(body)), label="field")
    body[field] = data.draw(_values(body[field]), label="value")
    lines[i] = json.dumps(rec)
    d = tmp_path_factory.mktemp("nonsense")
    f = d / "game.jsonl"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    n = len(lines) - 2
    seq = rec["seq"]
    picks = data.draw(st.lists(st.sampled_from(range(len(COMMANDS))), min_size=3, max_size=3,
                               unique=True), label="commands")
    for k in picks:
        at = data.draw(st.sampled_from([seq, min(seq + 1, n), n]), label="at")
        argv = [a.format(f=f, n=at, m=max(0, seq - 1), h=d / "v.html") for a in COMMANDS[k]]
        _check(argv)


def test_a_player_who_is_not_in_the_game_is_one_warning(tmp_path: Path) -> None:
    """`TurnBegan.active=40`: every tool says which event it could not fold, and goes on
    (``diff`` and ``replay`` gave tracebacks)."""
    lines = list(base())
    turn = next(i for i, x in enumerate(lines) if '"TurnBegan"' in x and '"turn":2' in x)
    rec = json.loads(lines[turn])
    rec["event"]["active"] = 40
    lines[turn] = json.dumps(rec)
    f = tmp_path / "bad.jsonl"
    f.write_text("\n".join(lines) + "\n", encoding="utf-8")
    seq = rec["seq"]
    for argv in (["diff", f, seq - 1, seq + 3], ["diff", f, seq - 1, seq + 3, "--as", "Bob"],
                 ["replay", f, "--at", seq + 3], ["replay", f, "--at", seq + 3, "--as", "Bob"],
                 ["log", f], ["explain", f, seq + 3], ["view", f, "--out", tmp_path / "v.html"]):
        code, out, err = _check([str(a) for a in argv])
        assert code in (0, 1) and out, argv
        assert f"the first is event {seq}: TurnBegan.active is 40, not a player of this game" \
            in err, (argv, err)


def test_names_with_control_characters_are_printed_escaped(tmp_path: Path) -> None:
    """Player, card and deck names are whatever the log says: an escape sequence in one
    is shown as ``\\x1b``, never sent to the terminal; JSON escapes them anyway, the
    viewer escapes markup."""
    lines = list(base())
    evil = "Al\x1b[2J\x1b]0;pwned\x07ice\n"
    text = "\n".join(lines).replace('"Alice"', json.dumps(evil))
    text = text.replace('"Gray Ogre"', json.dumps("Gray\x1b[31mOgre<b>"))
    f = tmp_path / "evil.jsonl"
    f.write_text(text + "\n", encoding="utf-8")
    n = len(lines) - 2
    shown = []
    for argv in (["log", f], ["log", f, "--as", "Bob"], ["replay", f, "--at", n],
                 ["replay", f, "--at", n, "--as", "1"], ["diff", f, 1, n],
                 ["explain", f, n, "--depth", "3"], ["log", f, "--as", "x"],
                 ["view", f, "--out", tmp_path / "v.html"]):
        code, out, err = run(*argv)
        assert "\x1b" not in out + err and "\x07" not in out + err, argv
        shown.append(out + err)
    assert any("Al\\x1b[2J" in s for s in shown)
    html = (tmp_path / "v.html").read_text(encoding="utf-8")
    assert "Ogre<b>" not in html and "Ogre\\u003cb>" in html  # markup stays data
    assert "\x1b" not in html
