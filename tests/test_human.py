"""``mtgk play --agents human heuristic``: a person in the terminal, driven by scripted input."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from mtgk.cards.loading import load_registry
from mtgk.log.logfile import read_log
from mtgk.rules.state import apply, new_state
from tests.conftest import run_mtgk

REG = load_registry()


def play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, keys: str, name: str = "h.mtgk",
         *extra: str) -> tuple[int, str, str, Path]:
    """Play with ``keys`` typed (one command a line); (exit status, stdout, stderr, log)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(keys))
    out = tmp_path / name
    code, o, e = run_mtgk("play", "--agents", "human", "heuristic", "--seed", "3",
                          "--out", out, *extra)
    return code, o, e, out


def test_quit_keeps_the_log_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err, log = play(tmp_path, monkeypatch, "?\nq\n")
    assert code == 0, err
    assert "Type the number of an option" in out  # the help
    assert "  1. yes\n  2. no" in out  # keep this hand?
    assert "stopped: the player quit after" in out and str(log) in out
    lf = read_log(log)
    assert lf.header.meta["stopped"].startswith("the player quit after")
    assert lf.header.meta["agents"][0]["kind"] == "human"
    code, vout, _ = run_mtgk("verify", log)
    assert code == 3 and vout.startswith(f"INCOMPLETE: the {len(lf.envelopes)} events verified")


def test_end_of_input_quits_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err, log = play(tmp_path, monkeypatch, "1\n")
    assert code == 0 and "stopped: the player quit" in out, out + err
    assert log.exists()


def test_a_whole_game_is_an_ordinary_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err, log = play(tmp_path, monkeypatch, "1\n" * 3000)  # always the first option
    assert code == 0, err
    assert "winner:" in out or "result: a draw" in out, out[-2000:]
    assert "stopped" not in read_log(log).header.meta
    code, vout, _ = run_mtgk("verify", log)
    assert code == 0 and vout.startswith("OK:"), vout


def test_bad_input_is_asked_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _, _ = play(tmp_path, monkeypatch, "abc\n0\n99\nu\nq\n")
    assert code == 0
    assert out.count("not an option: type 1 to 2, or ? for help") == 3
    assert "nothing to undo yet" in out


def test_the_person_sees_only_their_seat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, out, _, log = play(tmp_path, monkeypatch, "1\n" * 40 + "q\n")
    lf = read_log(log)
    bob_cards = {e.event.card for e in lf.envelopes if e.event.TAG == "ObjectCreated"
                and e.event.owner == 1}
    alice_cards = {e.event.card for e in lf.envelopes if e.event.TAG == "ObjectCreated"
                   and e.event.owner == 0}
    assert "(as seen by Alice)" in out and "hand (7): hidden" in out
    assert "library top" not in out  # nobody's library order
    assert "(seed " not in out  # the log says "Game started: ... (seed 3, ...)"; Alice is not told
    state = new_state()
    public: set[str] = set()  # every card that was ever in a public zone
    for env in lf.envelopes:
        apply(state, env.event)
        ids = state.battlefield + state.exile + [it.source for it in state.stack]
        ids += [o for p in state.players for o in p.graveyard]
        public |= {state.objects[o].card for o in ids if o in state.objects}
    hidden = bob_cards - alice_cards - public
    assert hidden, "the test needs a card of Bob's Alice never saw"
    for card in hidden:
        assert card not in out, f"Alice is shown {card}, one of Bob's hidden cards"


def test_undo_replays_to_the_decision_before(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Taking a mulligan, then undoing it and keeping, gives the game of keeping at once."""
    rest = "1\n" * 60 + "q\n"
    code, out, err, undone = play(tmp_path, monkeypatch, "2\nu\n1\n" + rest, "undone.mtgk")
    assert code == 0, err
    assert "(undone: back at your previous decision)" in out
    _, _, _, straight = play(tmp_path, monkeypatch, "1\n" + rest, "straight.mtgk")
    assert undone.read_bytes() == straight.read_bytes()
    _, _, _, mull = play(tmp_path, monkeypatch, "2\n" + rest, "mull.mtgk")
    assert mull.read_bytes() != straight.read_bytes()


def test_the_terminal_game_through_a_pipe(tmp_path: Path) -> None:
    """A real process, its standard input a pipe: quits cleanly at the end of the input."""
    out = tmp_path / "pipe.mtgk"
    p = subprocess.run([sys.executable, "-m", "mtgk.tools.cli", "play", "--agents", "heuristic",
                        "human", "--seed", "5", "--out", str(out)], input="b\n1\n",
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "(as seen by Bob)" in p.stdout and "Traceback" not in p.stderr
    assert "stopped: the player quit" in p.stdout


def _menus(out: str) -> list[list[str]]:
    """The option lists the person was shown."""
    menus: list[list[str]] = []
    current: list[str] | None = None
    for line in out.splitlines():
        if line.startswith("  ") and ". " in line and line.strip().split(".", 1)[0].isdigit():
            if current is None:
                current = []
                menus.append(current)
            current.append(line.strip().split(". ", 1)[1])
        else:
            current = None
    return menus


def test_every_event_is_told_and_identical_cards_are_told_apart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Everything the seat may see is told before each question and at the end (the
    opponent's turns, every combat, the last one included: the old terminal showed the
    latest 12 events and nothing after the last question); every card is numbered, so no
    menu offers two options with the same words (the old one offered "play Forest"
    twice)."""
    from mtgk.render import Renderer
    code, out, err, log = play(tmp_path, monkeypatch, "1\n" * 3000)
    assert code == 0, err
    assert "earlier events" not in out
    r = Renderer(REG, as_player=0, numbered=True)
    told = [line.removeprefix("> ") for line in out.splitlines()]
    at = 0
    for env in read_log(log).envelopes:
        line = r.render(env)
        at = told.index(line, at)  # in order, each one
    menus = _menus(out)
    assert menus and all(len(set(m)) == len(m) for m in menus), \
        [m for m in menus if len(set(m)) != len(m)][:1]
    assert any("#" in label for m in menus for label in m)


def test_l_shows_the_whole_game_so_far(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _, _ = play(tmp_path, monkeypatch, "1\n" * 30 + "l\nq\n")
    assert code == 0
    first = next(line for line in out.splitlines() if line.startswith("0 "))
    assert out.count(first) == 2  # told once as it happened, once more by `l`


def test_a_killed_terminal_game_keeps_its_log(tmp_path: Path) -> None:
    """The log is on its file before each of the person's decisions: a game killed while
    the person thinks loses nothing (it used to be written only at the end)."""
    import os
    import signal
    import time
    out = tmp_path / "killed.mtgk"
    p = subprocess.Popen([sys.executable, "-m", "mtgk.tools.cli", "play", "--agents", "human",
                          "heuristic", "--seed", "3", "--out", str(out)],
                         stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, text=True)
    assert p.stdin is not None
    p.stdin.write("1\n" * 6)  # keep the hand, then a few first options; then think
    p.stdin.flush()
    # the person is thinking once the file has stopped growing for a second
    deadline, last, still = time.monotonic() + 60, -1, 0.0
    while time.monotonic() < deadline and still < 1.0:
        time.sleep(0.1)
        size = os.path.getsize(out) if out.exists() else -1
        still = still + 0.1 if size == last and size > 0 else 0.0
        last = size
    os.kill(p.pid, signal.SIGKILL)
    p.wait(timeout=30)
    lf = read_log(out, strict=True)
    assert len(lf.envelopes) > 20
    code, vout, _ = run_mtgk("verify", out)
    assert code == 3 and vout.startswith("INCOMPLETE"), vout


def test_paying_by_hand_lists_the_mana_a_person_can_make() -> None:
    """``m``: the priority menu lists "tap ... for mana" for each mana ability the person
    can activate now; taking it puts the mana in their pool (the engine takes mana
    abilities at priority though it doesn't list them), so the Forest pays, not the
    Leaf Gilder that would rather attack (issue 28)."""
    from functools import partial

    from mtgk.log import events as ev
    from mtgk.rules.core import Decision
    from mtgk.rules.engine import Game
    from mtgk.tools.human import HumanAgent, mana_choices

    g = Game(REG, ["alice", "bob"], seed=0)
    g.emit(ev.TurnBegan(turn=3, active=0))
    g.emit(ev.StepBegan(step="precombat_main"))
    for name, zone in [("Forest", "battlefield"), ("Leaf Gilder", "battlefield"),
                       ("Grizzly Bears", "hand")]:
        g.emit(ev.ObjectCreated(obj=g.new_id(), card=name, owner=0, zone=zone))
    forest, gilder = g.state.battlefield

    def decision() -> Decision:
        return Decision("priority", 0, g.legal_actions(0), check=partial(g.check_action, 0))

    labels = [c.label for c in mana_choices(g, decision(), g.name)]
    assert labels == ["tap Forest for {G}", "tap Leaf Gilder for {G}"], labels
    out = io.StringIO()
    person = HumanAgent(stdin=io.StringIO("m\n3\n"), stdout=out)  # 1 pass, 2 cast, 3 Forest
    answer = person.ask(g, decision())
    assert "paying by hand" in out.getvalue()
    assert answer[0] == "activate" and answer[1] == forest and answer[2] == -1
    g.check_action(0, answer)


def _questions(out: str) -> list[tuple[int, str, str, bool, str]]:
    """Each question the person was shown after a board: (turn, whose turn, step, the
    stack empty, the question's header)."""
    import re
    found = []
    board = re.compile(r"^Turn (\d+), (\w+)'s turn, step: ([a-z ]+)$")
    last: tuple[int, str, str] | None = None
    empty = True
    for line in out.splitlines():
        m = board.match(line.removeprefix("> "))
        if m:
            last = (int(m[1]), m[2], m[3].replace(" ", "_"))
            continue
        if line.startswith("Stack:"):
            empty = line == "Stack: empty"
        elif last is not None and line.startswith("Alice, "):
            found.append((*last, empty, line))
            last = None
    return found


def test_stops_pass_where_the_person_is_not_asked(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``s``: asked with the stack empty only in the precombat main phase of their own
    turns (3, then none for the others'): every other such priority is passed for them;
    undo goes back to their own last decision, past the passes; the log verifies
    (issue 28)."""
    keys = "s\n3\nnone\n1\n1\nu\n" + "1\n" * 3000
    code, out, err, log = play(tmp_path, monkeypatch, keys)
    assert code == 0, err
    assert "asked on your turns in: precombat_main" in out
    assert "asked on their turns in: no step" in out
    asked = [q for q in _questions(out) if q[4] == "Alice, priority:"]
    assert len(asked) > 3
    for turn, whose, step, empty, _ in asked:
        assert not empty or (whose, step) == ("Alice", "precombat_main"), (turn, whose, step)
    before, after = out.split("(undone: back at your previous decision)", 1)
    first = [q for q in _questions(before) if q[4] == "Alice, priority:"][-1]
    assert _questions(after)[0][:3] == first[:3]  # the decision before, not a pass
    assert "stopped" not in read_log(log).header.meta
    code, vout, _ = run_mtgk("verify", log)
    assert code == 0 and vout.startswith("OK:"), vout


def test_stops_default_to_asking_everywhere(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The stops begin as every step (``s`` and Enter keeps them; a bad line is asked
    again): the game is the one played without ``s`` (today's behaviour)."""
    rest = "1\n" * 80 + "q\n"
    code, out, err, kept = play(tmp_path, monkeypatch, "s\nx\n\n\n" + rest, "kept.mtgk")
    assert code == 0, err
    assert "not stops: numbers from 1 to 11, all or none" in out
    assert "asked on their turns in: upkeep, draw, precombat_main, beginning_of_combat" in out
    _, _, _, plain = play(tmp_path, monkeypatch, rest, "plain.mtgk")
    assert kept.read_bytes() == plain.read_bytes()


def test_p_passes_until_the_end_of_the_turn(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """``p`` at a priority: not asked for priority again until the turn ends (other
    questions still are); the log verifies (issue 28)."""
    code, out, err, log = play(tmp_path, monkeypatch, "p\n1\np\n" + "1\n" * 3000)
    assert code == 0, err
    assert "p passes priority: answer this question first" in out  # (keep this hand?)
    assert "passing until the end of this turn" in out
    before, after = out.split("passing until the end of this turn", 1)
    turn = _questions(before)[-1][0]
    later = [q for q in _questions(after) if q[4] == "Alice, priority:"]
    assert later and all(q[0] > turn for q in later), (turn, later[:3])
    code, vout, _ = run_mtgk("verify", log)
    assert code == 0 and vout.startswith("OK:"), vout


def test_damage_assignment_is_asked_of_the_person() -> None:
    """A combat damage assignment among several blockers is asked (the rules' order first,
    or by hand, one recipient at a time), as ``mtgk serve`` asks it; among one, answered
    for them (issue 28: the terminal answered every one with the default)."""
    from mtgk.log import events as ev
    from mtgk.rules.core import Decision
    from mtgk.rules.engine import Game
    from mtgk.tools.human import HumanAgent

    g = Game(REG, ["alice", "bob"], seed=0)
    g.emit(ev.TurnBegan(turn=3, active=0))
    g.emit(ev.StepBegan(step="combat_damage"))
    for owner, name in [(0, "Gray Ogre"), (1, "Grizzly Bears"), (1, "Grizzly Bears")]:
        g.emit(ev.ObjectCreated(obj=g.new_id(), card=name, owner=owner, zone="battlefield"))
    ogre, b1, b2 = g.state.battlefield

    def decision(recipients: list[int], default: list[list[int]]) -> Decision:
        return Decision("assign", 0, None, "assign 2 combat damage from Gray Ogre",
                        context={"attacker": ogre, "default": default,
                                 "recipients": recipients})

    out = io.StringIO()
    person = HumanAgent(stdin=io.StringIO("2\n1\n"), stdout=out)  # by hand: 0 to the first
    answer = person.ask(g, decision([b1, b2], [[b1, 2], [b2, 0]]))
    assert answer == [[b1, 0], [b2, 2]], answer
    text = out.getvalue()
    assert "  1. as the rules order it: 2 to Grizzly Bears #" in text
    assert "  2. assign it myself" in text and "  1. 0 to Grizzly Bears #" in text
    person = HumanAgent(stdin=io.StringIO("1\n"), stdout=io.StringIO())
    assert person.ask(g, decision([b1, b2], [[b1, 2], [b2, 0]])) == [[b1, 2], [b2, 0]]
    out = io.StringIO()
    person = HumanAgent(stdin=io.StringIO(""), stdout=out)  # one recipient: nothing asked
    assert person.ask(g, decision([b1], [[b1, 2]])) == [[b1, 2]]
    assert out.getvalue() == ""
