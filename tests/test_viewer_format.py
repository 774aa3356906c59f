"""The viewer page's data (format 3) shows, at every event and in every perspective,
the state map the kernel makes for that viewer straight from the state.

The page stores its maps compactly: the event texts, the cards' names and the steps as
numbers in page-wide tables, a player's perspective as the parts that differ from
everyone's, keyframes and diffs in between.  Decoded as the page does
(``tests.test_viewer.frame``), every event's map must be the one
:class:`mtgk.tools.viewer.LiveView` makes afresh (no part kept from the event before,
nothing numbered: what the page showed in its first format, and what ``mtgk serve``
shows), and every text the renderer's.  Checked on a Lorwyn deck game, a Jace deck
against a burn deck, a free-for-all of three, a Two-Headed Giant game and a game of
Gray Ogres whose graveyards grow long enough to be spliced.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from typing import Any

import pytest

from mtgk.cards.decks import builtin_decks, deck_lines, load_deck, parse_deck
from mtgk.cards.definitions import Registry
from mtgk.games.replay import new_header, run_from_header
from mtgk.log.events import Envelope
from mtgk.log.logfile import LogHeader
from mtgk.rules.state import apply, new_state
from mtgk.tools.viewer import LiveView, build_viewer, viewer_data
from tests.test_viewer import JACE, RED, causes, frame, stored, texts


def lorwyn_decks(registry: Registry) -> list[list[str]]:
    names = [k for k in builtin_decks(registry) if "/" not in k][:2]
    return [deck_lines(load_deck(n, registry)) for n in names]


def game(registry: Registry, kind: str) -> tuple[LogHeader, list[Envelope]]:
    if kind == "lorwyn":
        header = new_header(registry, ["Ann", "Bob"], lorwyn_decks(registry), 11,
                            meta={"max_turns": 60})
    elif kind == "burn":
        decks = [deck_lines(parse_deck(JACE, registry)), deck_lines(parse_deck(RED, registry))]
        header = new_header(registry, ["Ann", "Bob"], decks, 4, meta={"max_turns": 60})
    elif kind == "three":
        d = lorwyn_decks(registry)
        header = new_header(registry, ["Ann", "Bob", "Cid"], [d[0], d[1], d[0]], 7,
                            variant="free_for_all", meta={"max_turns": 60})
    elif kind == "thg":
        d = lorwyn_decks(registry)
        header = new_header(registry, ["Ann", "Bob", "Cid", "Dee"], [d[i % 2] for i in range(4)],
                            3, variant="two_headed_giant", teams=((0, 2), (1, 3)),
                            meta={"max_turns": 60})
    else:  # ogres: nobody can do anything but draw and discard
        header = new_header(registry, ["Ann", "Bob"], [["120 Gray Ogre"]] * 2, 5,
                            meta={"max_turns": 90})
    g = run_from_header(registry, header)
    return header, list(g.log)


def expected(registry: Registry, envs: Sequence[Envelope], viewer: int | None
             ) -> tuple[list[dict[str, Any]], list[str]]:
    """Every event's state map for ``viewer``, made afresh, and the event texts."""
    view = LiveView(registry, viewer, numbered=False)
    maps, out = [], []
    for n in range(len(envs)):
        out += view.catch_up(envs[:n + 1])
        maps.append(view.state())
    return maps, out


@pytest.mark.parametrize("kind", ["lorwyn", "burn", "three", "thg", "ogres"])
def test_every_event_decodes_to_the_viewers_state_map(registry: Registry, kind: str) -> None:
    header, envs = game(registry, kind)
    n_players = len(header.players)
    assert len(envs) > 250
    everyone = viewer_data(header, envs, registry)
    assert everyone["format"] == 3
    assert [P["base"] for P in everyone["perspectives"]] == [None] + [0] * n_players
    assert causes(everyone) == [env.cause for env in envs]
    runs = everyone["turns"]  # [turn, first event]: the turn after each event, in runs
    turns: list[int] = []
    for i, (t, a) in enumerate(runs):
        turns += [t] * ((runs[i + 1][1] if i + 1 < len(runs) else len(envs)) - a)
    s = new_state()
    for n, env in enumerate(envs):
        apply(s, env.event)
        assert turns[n] == s.turn, n
    assert len(turns) == len(envs) and turns[-1] > 1
    alone = viewer_data(header, envs, registry, as_player=1)
    assert [P["base"] for P in alone["perspectives"]] == [None]
    pages = [(everyone, p, v) for p, v in enumerate([None, *range(n_players)])] + \
        [(alone, 0, 1)]
    spliced = 0
    for data, p, viewer in pages:
        maps, want_texts = expected(registry, envs, viewer)
        assert texts(data, p) == want_texts
        for n, want in enumerate(maps):
            assert frame(data, p, n) == want, (kind, viewer, n)
        spliced += sum(len(d) > 2 for d in data["perspectives"][p]["diffs"] if d)
    if kind == "ogres":
        assert spliced  # the long graveyards changed by splices


def test_a_players_perspective_stores_what_differs_from_everyones(registry: Registry) -> None:
    """Beside everyone's view, a player's holds only the parts that differ (the hidden
    hands, cards it can't see): far fewer bytes than a map of its own."""
    header, envs = game(registry, "ogres")
    data = viewer_data(header, envs, registry)
    for n in range(0, len(envs), 37):
        own = stored(data, 1, n)  # Ann's view
        assert set(own) <= {"h1"}, (n, sorted(own))  # only Bob's hand, hidden from her
        assert own.get("h1", []) == [None] * len(own.get("h1", []))
    size = [len(str(P["diffs"])) + len(str(P["keyframes"])) for P in data["perspectives"]]
    assert size[1] * 4 < size[0], size


def test_the_tables_name_each_thing_once(registry: Registry) -> None:
    header, envs = game(registry, "ogres")
    data = viewer_data(header, envs, registry)
    assert len(set(data["strings"])) == len(data["strings"]) < len(envs) // 4
    assert data["names"] == ["Gray Ogre"]
    page = build_viewer(header, envs, registry)
    # the name is written in the names table and the card texts, not once per card of
    # a hand or a graveyard at every keyframe and diff
    assert page.count('"Gray Ogre"') == 2


def test_building_leaves_the_garbage_collector_as_it_was(registry: Registry) -> None:
    header, envs = game(registry, "lorwyn")
    assert gc.isenabled()
    viewer_data(header, envs[:200], registry)
    assert gc.isenabled()
    gc.disable()
    try:
        viewer_data(header, envs[:200], registry)
        assert not gc.isenabled()
    finally:
        gc.enable()
