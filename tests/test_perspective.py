"""Perspective views hide what the player could not see: a property test over many games.

For each random game (two random decks from every card the registry knows, random
or heuristic agents) a *twin* game is built by transforming the log so that it
differs only in what Bob cannot see (the hidden-information model is
:mod:`mtgk.rules.visibility`'s):

* another seed (in the header and in ``GameStarted``), other agent seeds, another
  name for Alice's deck;
* Alice's cards Bob never sees get other names (a permutation of them, and some
  replaced by other cards of the pool): her deck list changes;
* every recorded library order (shuffles, rearrangements) is permuted;
* another deck order: the same cards are made with other ids (Bob's own among cards of
  the same name, since he knows his deck list);
* the cards that sit unseen in one hidden zone (Alice's library or hand, or Bob's
  library) trade places from some event on: what the original did with one, the twin
  does with another, and their names are swapped at creation so that what becomes
  public stays the same.  This is "the card Alice drew on turn 3 is the one she cast
  on turn 7" against "it is the one she drew on turn 5": Bob can't tell (a hand may be
  arranged at will), so no view may tell.  A card Bob saw before its library was last
  shuffled trades places only with cards of its name (he knows it is there, not
  where);

and every ``--as Bob`` output (``log`` text and JSON, with ``--card`` and
``--player`` filters, ``replay`` text and JSON, ``diff`` of two moments and of the
two logs, ``explain``, ``view``) must be byte for byte the same for the game and
its twin.  The truth (``mtgk log`` without ``--as``) differs.  Every output as
either player is also produced without error.

The twin is built by rewriting events, not by playing: both logs fold (that is
checked), though the twin's shuffles are not what its seed would give.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from mtgk.agents import HeuristicAgent, RandomAgent
from mtgk.cards.decks import deck_lines
from mtgk.cards.loading import load_registry
from mtgk.games.replay import new_header, run_from_header
from mtgk.log import events as ev
from mtgk.log.answers import Action
from mtgk.log.events import Envelope, event_from_data
from mtgk.log.logfile import LogHeader, read_log, write_log
from mtgk.rules.state import apply, fold, new_state
from mtgk.tools.debug import map_choice, map_event_ids
from tests.conftest import run_mtgk as run
from tests.test_every_card import random_deck, spells

REG = load_registry()
POOL = spells(REG)
GAMES = int(os.environ.get("MTGK_TWIN_GAMES", "32"))
"""How many different random games the property test draws from."""
EXAMPLES = int(os.environ.get("MTGK_TWIN_EXAMPLES", "24"))
"""How many game/twin pairs it checks (each at a few moments)."""
TRADES = 5
"""How many times in a twin the unseen cards of a hidden zone trade places."""
ALICE, BOB = 0, 1
PUBLIC = ("battlefield", "stack", "graveyard", "exile", "none")
ID_KEYS = {"obj", "new_obj", "source", "item", "target", "to", "from", "of", "attached_to",
           "exiled_with", "objs", "targets"}
"""Keys of an effect's parameters that hold ids (mtgk.rules.visibility.ID_KEYS, restated)."""


@cache
def game(seed: int) -> tuple[LogHeader, tuple[Envelope, ...]]:
    """Random game ``seed``: random decks from every card, short (12 turns at most)."""
    rng = random.Random(seed)
    decks = [random_deck(rng, POOL), random_deck(rng, POOL)]
    kind = "random" if seed % 3 else "heuristic"
    agent = RandomAgent if kind == "random" else HeuristicAgent
    meta = {"max_turns": 12, "deck_names": [f"deck {seed}a", f"deck {seed}b"],
            "agents": [{"kind": kind, "seed": seed * 2}, {"kind": kind, "seed": seed * 2 + 1}]}
    header = new_header(REG, ["Alice", "Bob"], [deck_lines(d) for d in decks], seed, meta=meta)
    g = run_from_header(REG, header, [agent(seed * 2), agent(seed * 2 + 1)])
    return header, tuple(g.log)


# --------------------------------------------------------------------------
# what Bob sees, computed independently of mtgk.rules.visibility


@dataclass
class Facts:
    """For every physical card (``card_id``): its owner and name, and the events after
    which Bob saw it; for every object, the event that made it; for every player, the
    events after which Bob no longer knew their library's order (shuffles, and
    rearrangements by someone else); for every event, the objects that exist right
    after it, with their zone and card."""

    owner: dict[int, int]
    name: dict[int, str]
    seen: dict[int, list[int]]
    born: dict[int, int]
    mixed: dict[int, list[int]]
    after: list[dict[int, tuple[str, int]]]  # seq -> {object: (zone, card_id)}

    def seen_by(self, cid: int, t: int) -> int | None:
        """The last event at or before ``t`` after which Bob saw card ``cid``."""
        return max((s for s in self.seen.get(cid, []) if s <= t), default=None)


def facts(envs: Sequence[Envelope], viewer: int = BOB) -> Facts:
    s = new_state()
    owner: dict[int, int] = {}
    name: dict[int, str] = {}
    seen: dict[int, list[int]] = {}
    born: dict[int, int] = {}
    mixed: dict[int, list[int]] = {}
    after: list[dict[int, tuple[str, int]]] = []

    def saw(cid: int, seq: int) -> None:
        got = seen.setdefault(cid, [])
        if not got or got[-1] != seq:
            got.append(seq)

    for env in envs:
        e = env.event
        if isinstance(e, ev.Revealed) and (not e.to or viewer in e.to):
            for r in e.objs:
                if r in s.objects:
                    saw(s.objects[r].card_id, env.seq)
        if isinstance(e, ev.AbilityActivated | ev.AbilityTriggered) and e.source in s.objects:
            saw(s.objects[e.source].card_id, env.seq)  # its key names the card
        if isinstance(e, ev.DecisionMade):
            named: list[int] = []  # what a decision makes public, what Bob chose among
            c = e.choice
            if e.kind == "priority" and isinstance(c, list | Action) and len(c) > 1 \
                    and c[0] in ("play", "cast", "activate"):
                named.append(c[1])
            if e.kind in ("discard", "reveal") or e.player == viewer:
                map_choice(e.kind, c, _collect(named))
            for r in named:
                if r in s.objects:
                    saw(s.objects[r].card_id, env.seq)
        if "order" in e.PRIVATE and (isinstance(e, ev.LibraryShuffled)
                                     or getattr(e, "player", viewer) != viewer):
            mixed.setdefault(getattr(e, "player", -1), []).append(env.seq)
        apply(s, e)
        now: dict[int, tuple[str, int]] = {}
        for o in s.objects.values():
            owner.setdefault(o.card_id, o.owner)
            name.setdefault(o.card_id, o.card)
            born.setdefault(o.id, env.seq)
            now[o.id] = (o.zone, o.card_id)
            if (o.zone in PUBLIC and not o.face_down) or viewer in o.known_to or (
                    o.zone == "hand" and o.owner == viewer) or o.token:
                saw(o.card_id, env.seq)
        after.append(now)
    return Facts(owner, name, seen, born, mixed, after)


def _collect(into: list[int]) -> Any:
    def note(i: int) -> int:
        into.append(i)
        return i
    return note


# --------------------------------------------------------------------------
# the twin


def _deep(x: Any, fn: Any) -> Any:
    if isinstance(x, list | tuple):
        return type(x)(_deep(i, fn) for i in x)
    if isinstance(x, dict):
        return {k: _deep(v, fn) for k, v in x.items()}
    if isinstance(x, int) and not isinstance(x, bool) and x > 0:
        return fn(x)
    return x


def remap(e: ev.Event, fn: Any) -> ev.Event:
    """``e`` with object ids mapped by ``fn``: its id fields and choice, the triggering
    event (and subject) a trigger's data holds, any int of other free-form data (a
    flag's value, data of another shape), the id-valued keys of an effect's
    parameters (the others are amounts and players)."""
    e = map_event_ids(e, fn)  # id fields, choices, orders, exiled_with
    changes: dict[str, Any] = {}
    data = getattr(e, "data", None)
    if data is not None:
        inner = event_from_data(data)
        if inner is not None:
            moved = remap(inner, fn)
            changes["data"] = [data[0], [msgspec.to_builtins(getattr(moved, f))
                                         for f in moved.__struct_fields__],
                               *_deep(list(data[2:]), fn)]
        else:
            changes["data"] = _deep(data, fn)
    if isinstance(e, ev.EffectCreated):
        changes["params"] = _keys(e.params, fn)
    if isinstance(e, ev.ObjectFlagged) and e.key not in ("known_to", "exiled_with"):
        changes["value"] = _deep(e.value, fn)
    return msgspec.structs.replace(e, **changes) if changes else e


def _keys(x: Any, fn: Any) -> Any:
    if isinstance(x, dict):
        return {k: _deep(v, fn) if k in ID_KEYS else _keys(v, fn) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_keys(i, fn) for i in x]
    return x


def twin(header: LogHeader, envs: tuple[Envelope, ...], rnd: random.Random
         ) -> tuple[LogHeader, list[Envelope], list[str]]:
    """A game that differs from ``header``/``envs`` only in what Bob can't see, and
    what was changed (for the failure message)."""
    cur = list(envs)
    f = facts(cur)
    what: list[str] = []
    # Alice's cards Bob never sees: other names (permuted, some from elsewhere)
    unseen = sorted(c for c in f.name if not f.seen.get(c) and f.owner[c] == ALICE)
    new = [f.name[c] for c in unseen]
    rnd.shuffle(new)
    for i in range(len(new)):
        if rnd.random() < 0.2:
            new[i] = rnd.choice(POOL)
    cur = rename(cur, dict(zip(unseen, new, strict=True)))
    what.append(f"{sum(n != f.name[c] for c, n in zip(unseen, new, strict=True))} of Alice's "
                f"{len(unseen)} unseen cards renamed")
    # library cards are made in deck order: another deck order, the same game
    for owner in (ALICE, BOB):
        made = [env.seq for env in cur if isinstance(env.event, ev.ObjectCreated)
                and env.event.owner == owner and env.event.zone == "library"]
        if made:
            f = facts(cur)
            cur = trade_places(cur, f, max(made), _groups(f, max(made), owner, "library"), rnd)
            what.append(f"player {owner}'s deck order changed")
    # the unseen cards of a hidden zone trade places from some event on
    for _ in range(TRADES):
        f = facts(cur)
        for _ in range(40):
            t = rnd.randrange(len(cur))
            owner, zone = rnd.choice([(ALICE, "library"), (ALICE, "hand"), (ALICE, "hand"),
                                      (BOB, "library")])
            groups = _groups(f, t, owner, zone)
            if groups:
                cur = trade_places(cur, f, t, groups, rnd)
                what.append(f"player {owner}'s {zone}: cards trade places after event {t}")
                break
    out: list[Envelope] = []
    for env in cur:
        e = env.event
        if isinstance(e, ev.GameStarted):
            e = msgspec.structs.replace(e, seed=e.seed + 7919)
        if isinstance(e, ev.LibraryShuffled) or (
                isinstance(getattr(e, "order", None), tuple) and "order" in e.PRIVATE):
            order = list(e.order)  # type: ignore[attr-defined]
            rnd.shuffle(order)
            e = msgspec.structs.replace(e, order=tuple(order))
        out.append(Envelope(env.seq, env.cause, e))
    lib = [e.event.card for e in out if isinstance(e.event, ev.ObjectCreated)
           and e.event.owner == ALICE and e.event.zone == "library"]
    meta = dict(header.meta)
    meta["deck_names"] = ["some other deck", meta["deck_names"][1]]
    meta["agents"] = [{**a, "seed": a["seed"] + 1000} for a in meta["agents"]]
    decks = [deck_lines(lib), list(header.decks[1])]
    h = msgspec.structs.replace(header, seed=header.seed + 7919, decks=decks, meta=meta)
    return h, out, what


def rename(envs: list[Envelope], names: dict[int, str]) -> list[Envelope]:
    """``envs`` with the cards made by ``ObjectCreated`` (by id) named anew."""
    out = []
    for env in envs:
        e = env.event
        if isinstance(e, ev.ObjectCreated) and e.obj in names and names[e.obj] != e.card:
            e = msgspec.structs.replace(e, card=names[e.obj])
        out.append(Envelope(env.seq, env.cause, e))
    return out


def _groups(f: Facts, t: int, owner: int, zone: str) -> list[list[int]]:
    """The objects of ``owner``'s ``zone`` right after event ``t`` that may trade places:
    cards Bob has not seen by then; and in a library, cards he saw before the library
    was last shuffled (he knows their names, not where they are), among cards of the
    same name.  Bob knows his own deck list: his library's cards go by name too."""
    groups: dict[str, list[int]] = {}
    last_mix = max((m for m in f.mixed.get(owner, []) if m <= t), default=None)
    for oid, (z, cid) in sorted(f.after[t].items()):
        if z != zone or f.owner[cid] != owner:
            continue
        seen = f.seen_by(cid, t)
        name = f.name[cid]
        if seen is None:
            key = f"by name: {name}" if owner == BOB else "unseen"
        elif zone == "library" and last_mix is not None and seen < last_mix \
                and f.born[oid] <= last_mix:
            key = f"by name: {name}"
        else:
            continue
        groups.setdefault(key, []).append(oid)
    return [g for g in groups.values() if len(g) >= 2]


def trade_places(envs: list[Envelope], f: Facts, t: int, groups: list[list[int]],
                 rnd: random.Random) -> list[Envelope]:
    """From event ``t`` on, what each object of a group did another of its group does (a
    random permutation); each card takes the name of the one whose place it takes."""
    perm: dict[int, int] = {}
    for ids in groups:
        moved = list(ids)
        rnd.shuffle(moved)
        perm.update(zip(ids, moved, strict=True))
    names = {f.after[t][y][1]: f.name[f.after[t][x][1]] for x, y in perm.items()}
    out = []
    for env in rename(envs, names):
        e = remap(env.event, lambda i: perm.get(i, i)) if env.seq > t else env.event
        out.append(Envelope(env.seq, env.cause, e))
    return out


# --------------------------------------------------------------------------
# what Bob is shown


def outputs(path: Path, viewer: str, ats: list[int], cards: list[str]) -> dict[str, str]:
    """Every perspective output for ``viewer``: name -> exit status, stdout and stderr."""
    a, b, c = ats
    runs: dict[str, list[Any]] = {
        "log": ["log", path],
        "log --json": ["log", path, "--json"],
        "log --player": ["log", path, "--player", "Alice", "--json"],
        f"replay {a}": ["replay", path, "--at", a],
        f"replay {b} --json": ["replay", path, "--at", b, "--json"],
        f"replay {c}": ["replay", path, "--at", c],
        f"replay {c} --json": ["replay", path, "--at", c, "--json"],
        f"diff {a} {c}": ["diff", path, a, c],
        f"diff {b} {c} --json": ["diff", path, b, c, "--json"],
        f"explain {b}": ["explain", path, b, "--depth", "2"],
        f"explain {c} --json": ["explain", path, c, "--json"],
    }
    for name in cards:
        runs[f"log --card {name}"] = ["log", path, "--card", name]
    out = {}
    for key, argv in runs.items():
        code, o, e = run(*argv, "--as", viewer)
        out[key] = f"exit {code}\n{o}\n{e}"
    html = path.with_suffix(f".{viewer}.html")
    code, _, e = run("view", path, "--as", viewer, "--out", html, "-q")
    out["view"] = f"exit {code}\n{e}\n{html.read_text(encoding='utf-8')}"
    return out


def _cards_to_ask(envs: tuple[Envelope, ...], rnd: random.Random) -> list[str]:
    """A card Bob sees, one of Alice's he never sees, and one in neither deck."""
    f = facts(envs)
    seen = sorted({f.name[c] for c in f.name if f.seen.get(c)})
    unseen = sorted({f.name[c] for c in f.name if not f.seen.get(c)} - set(seen))
    return ([rnd.choice(seen)] if seen else []) + ([rnd.choice(unseen)] if unseen else []) \
        + ["Rancor"]


@pytest.mark.slow  # (a hundred twin games: .ci/run runs it, pytest -m slow)
@settings(max_examples=EXAMPLES, deadline=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(seed=st.integers(0, GAMES - 1), rnd=st.randoms(use_true_random=False),
       data=st.data())
def test_bobs_view_is_the_same_for_a_game_and_its_twin(tmp_path_factory: pytest.TempPathFactory,
                                                       seed: int, rnd: random.Random,
                                                       data: st.DataObject) -> None:
    header, envs = game(seed)
    th, tenvs, what = twin(header, envs, rnd)
    fold(tenvs)  # the twin is a game the kernel can fold
    d = tmp_path_factory.mktemp(f"twin{seed}")
    orig, other = d / "game.mtgk", d / "twin.mtgk"
    write_log(orig, header, list(envs))
    write_log(other, th, tenvs)
    assert tenvs != list(envs)  # the truth differs
    n = len(envs)
    ats = sorted(data.draw(st.lists(st.integers(0, n - 1), min_size=3, max_size=3),
                           label="moments"))
    cards = _cards_to_ask(envs, rnd)
    mine, theirs = outputs(orig, "Bob", ats, cards), outputs(other, "Bob", ats, cards)
    # (the viewer's page names the file it was made from, for its "branch from here")
    theirs = {k: v.replace(str(other), str(orig)) for k, v in theirs.items()}
    for key in mine:
        assert "Traceback" not in mine[key] and "internal error" not in mine[key], key
        assert mine[key] == theirs[key], (
            f"game {seed}, `{key} --as Bob` differs between the game and its twin "
            f"({'; '.join(what)}):\n" + _first_difference(mine[key], theirs[key]))
    code, out, err = run("diff", orig, other, "--as", "Bob")
    assert code == 0 and "headers: the same" in out and "events: the same" in out, out + err


def _first_difference(a: str, b: str) -> str:
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb, strict=False)):
        if x != y:
            at = next(k for k in range(min(len(x), len(y)) + 1)
                      if k == min(len(x), len(y)) or x[k] != y[k])
            return (f"line {i}, column {at}:\n  game: ...{x[max(0, at - 300):at + 300]}\n"
                    f"  twin: ...{y[max(0, at - 300):at + 300]}")
    return f"one output is longer ({len(la)} and {len(lb)} lines)"


@pytest.mark.parametrize("seed", range(0, GAMES, 8))
def test_every_view_of_either_player_is_produced(tmp_path: Path, seed: int) -> None:
    """Every perspective output, as Alice and as Bob, runs without error."""
    header, envs = game(seed)
    path = tmp_path / "game.mtgk"
    write_log(path, header, list(envs))
    n = len(envs)
    rnd = random.Random(seed)
    for viewer in ("Alice", "1"):  # by name and by index
        for key, text in outputs(path, viewer, [0, n // 2, n - 1], _cards_to_ask(envs, rnd)
                                 ).items():
            code = int(text.split()[1])
            expected = (0, 2) if key.startswith("log --card") else (0, 1)
            assert code in expected, (viewer, key, text[-500:])
            assert "Traceback" not in text and "internal error" not in text, (viewer, key)


# --------------------------------------------------------------------------
# the model, on small examples


def test_the_twin_changes_only_hidden_things() -> None:
    """The transformation itself: Bob's cards and everything public keep their names."""
    header, envs = game(1)
    th, tenvs, _ = twin(header, envs, random.Random(5))
    a, b = fold(list(envs)), fold(tenvs)
    assert a.seed != b.seed
    for oid in a.battlefield + [o for p in a.players for o in p.graveyard]:
        assert a.objects[oid].card == b.objects[oid].card
    assert th.decks[1] == header.decks[1] and th.decks[0] != header.decks[0]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``mtgk play --seed 7`` (the README's game, built-in decks)."""
    path = tmp_path_factory.mktemp("played") / "game.mtgk"
    code, _, err = run("play", "--seed", 7, "--out", path, "-q")
    assert code == 0, err
    return path


def test_no_seed_no_other_deck_in_a_players_view(played: Path) -> None:
    """`mtgk log --as Bob --json` showed ``"seed": 7`` and Alice's deck name: with them
    `mtgk play --seed 7` rebuilds the game.  Nor the agents' seeds, in any output."""
    header = read_log(played).header
    alice_deck = header.meta["deck_names"][0]
    for argv in (["log", played, "--json"], ["log", played], ["replay", played, "--at", 0,
                                                                "--json"],
                 ["replay", played, "--at", -1, "--json"], ["replay", played, "--at", -1],
                 ["view", played, "--out", played.with_suffix(".bob.html")]):
        code, out, err = run(*argv, "--as", "Bob")
        assert code == 0, err
        if argv[0] == "view":
            out = played.with_suffix(".bob.html").read_text(encoding="utf-8")
        assert alice_deck not in out, argv
        assert '"seed":7,' not in out and '"seed": 7' not in out and "seed 7" not in out, argv
    recs = [json.loads(x) for x in run("log", played, "--json", "--as", "Bob")[1].splitlines()]
    h = recs[0]["header"]
    assert h["seed"] is None and h["decks"][0] == [] and h["decks"][1] == header.decks[1]
    assert h["meta"]["deck_names"] == [None, header.meta["deck_names"][1]]
    assert all("seed" not in a for a in h["meta"]["agents"])
    assert recs[1]["type"] == "GameStarted" and recs[1]["event"]["seed"] is None
    state = json.loads(run("replay", played, "--at", 5, "--json", "--as", "Bob")[1])
    assert state["seed"] == 0
    assert json.loads(run("replay", played, "--at", 5, "--json")[1])["seed"] == 7


def _alice_never_shows(path: Path) -> tuple[str, str]:
    """A card name only in Alice's deck that Bob never sees, and one Bob sees."""
    envs = read_log(path).envelopes
    f = facts(envs)
    seen = {f.name[c] for c in f.name if f.seen.get(c)}
    hidden = sorted({f.name[c] for c in f.name if f.owner[c] == ALICE} - seen)
    assert hidden, "every card of Alice's was seen"
    return hidden[0], sorted(seen)[0]


def test_card_filter_is_no_oracle_of_hidden_cards(played: Path) -> None:
    """`--as Bob --card NAME` told by its exit status whether a hidden card is in the
    log, and its "did you mean" named hidden cards: a hidden card and a card that is not
    in the game get the same answer."""
    hidden, seen = _alice_never_shows(played)
    code_h, out_h, err_h = run("log", played, "--as", "Bob", "--card", hidden)
    code_a, out_a, err_a = run("log", played, "--as", "Bob", "--card", "Rancor")
    assert (code_h, out_h) == (code_a, out_a) == (2, "")
    assert err_h.replace(repr(hidden), "NAME") == err_a.replace(repr("Rancor"), "NAME")
    assert "did you mean" not in err_h or hidden not in err_h.split("did you mean")[1]
    # a close misspelling of a hidden card suggests nothing hidden
    code, _, err = run("log", played, "--as", "Bob", "--card", hidden[:-1])
    assert code == 2 and hidden not in err
    code, out, _ = run("log", played, "--as", "Bob", "--card", seen)
    assert code == 0 and out
    assert run("log", played, "--card", hidden)[0] == 0  # everyone's view: it is there


def test_public_actions_are_not_masked(played: Path) -> None:
    """"Alice: priority → play a card" hid a land play that is public; the same for a
    spell cast (the decision before the SpellCast)."""
    everyone = run("log", played)[1].splitlines()
    bob = run("log", played, "--as", "Bob")[1].splitlines()
    plays = [x for x in everyone if re.match(r"\d+ Alice: priority → (play|cast) ", x)]
    assert plays
    for line in plays:
        assert line in bob
    assert not any("priority → play a card" in x or "priority → cast a card" in x for x in bob)
    cast = next(x for x in plays if " cast " in x)
    name = re.sub(r" targeting .*| \(modes .*| with X=.*| for its .*", "",
                  cast.split(" cast ", 1)[1])
    assert cast in run("log", played, "--as", "Bob", "--card", name)[1].splitlines()


def _ids_of_alices_hidden_cards(path: Path, at: int) -> set[int]:
    s = fold(read_log(path).envelopes[: at + 1])
    return set(s.players[ALICE].hand) | set(s.players[ALICE].library)


def test_no_ids_of_cards_bob_cannot_follow(played: Path) -> None:
    """`diff --as`, `explain --as` and the JSON views showed ids like ``[128]`` of cards in
    Alice's hand: her hand's and every library's cards have no id in Bob's view."""
    envs = read_log(played).envelopes
    n = len(envs)
    for at in (n // 3, n // 2, (2 * n) // 3):
        hidden = _ids_of_alices_hidden_cards(played, at)
        code, out, _ = run("diff", played, at - 40, at, "--as", "Bob")
        assert code == 1 and out
        shown = {int(x) for x in re.findall(r"\[(\d+)(?: → \d+)?\]", out)} | {
            int(x) for x in re.findall(r"→ (\d+)\]", out)}
        assert not shown & hidden, (at, shown & hidden)
        diff = json.loads(run("diff", played, at - 40, at, "--as", "Bob", "--json")[1])
        ids = {o[k] for o in diff["objects"] for k in ("before", "after") if o[k]}
        assert not ids & hidden
        code, out, _ = run("explain", played, at, "--as", "Bob", "--depth", "3")
        assert code == 0 and not re.search(r"#\d", out)
        state = json.loads(run("replay", played, "--at", at, "--json", "--as", "Bob")[1])
        assert not {int(k) for k in state["objects"]} & hidden
        assert set(state["players"][ALICE]["hand"]) <= {0}


def _write(tmp: Path, events: list[ev.Event], name: str = "made.mtgk") -> Path:
    header = LogHeader(kernel_version="0", cardsets=[], players=["Alice", "Bob"],
                       decks=[["3 Forest"], ["2 Plains"]], seed=3)
    path = tmp / name
    write_log(path, header, [Envelope(i, -1, e) for i, e in enumerate(events)])
    return path


def _setup() -> list[ev.Event]:
    return [ev.GameStarted(players=("Alice", "Bob"), seed=3),
            ev.ObjectCreated(obj=1, card="Forest", owner=0, zone="library"),
            ev.ObjectCreated(obj=2, card="Oakgnarl Warrior", owner=0, zone="library"),
            ev.ObjectCreated(obj=3, card="Forest", owner=0, zone="library"),
            ev.ObjectCreated(obj=4, card="Plains", owner=1, zone="library"),
            ev.ObjectCreated(obj=5, card="Plains", owner=1, zone="library")]


def test_a_revealed_card_is_forgotten_when_its_library_is_shuffled(tmp_path: Path) -> None:
    """Bob sees the top card of Alice's library (a clash); she draws it: he knows what she
    drew.  Shuffled back in first, it could be anywhere: he doesn't."""
    kept = _setup() + [ev.Revealed(player=0, objs=(2,)),
                       ev.ZoneChanged(obj=2, new_obj=6, from_zone="library", to_zone="hand",
                                      reason="draw")]
    mixed = _setup() + [ev.Revealed(player=0, objs=(2,)),
                        ev.LibraryShuffled(player=0, order=(3, 2, 1)),
                        ev.ZoneChanged(obj=2, new_obj=6, from_zone="library", to_zone="hand",
                                       reason="draw")]
    out = run("log", _write(tmp_path, kept), "--as", "Bob")[1].splitlines()
    assert out[-1] == "7 Alice draws Oakgnarl Warrior"
    out = run("log", _write(tmp_path, mixed, "mixed.mtgk"), "--as", "Bob")[1].splitlines()
    assert out[-1] == "8 Alice draws a card"


def test_free_form_data_names_no_hidden_object(tmp_path: Path) -> None:
    """Ids reach events' free-form data too: the triggering event a trigger holds, a
    flag's value, an effect's parameters, a choice of a kind the renderer has no words
    for.  In Bob's view they are 0 (and in words, "a card")."""
    events = _setup() + [
        ev.ZoneChanged(obj=2, new_obj=6, from_zone="library", to_zone="hand", reason="draw"),
        ev.ObjectCreated(obj=7, card="Hoofprints of the Stag", owner=1, zone="battlefield"),
        ev.AbilityTriggered(item=8, source=7, ability="Hoofprints of the Stag#0", controller=1,
                            data=["ZoneChanged", [2, 6, "library", "hand", "draw", -1, -1]]),
        ev.ObjectFlagged(obj=7, key="chosen", value=6),
        ev.EffectCreated(effect=9, kind="prevent_damage", source=7, controller=1,
                         params={"to": 6, "n": 3}),
        ev.DecisionMade(player=0, kind="rummage", choice=[6, 2]),
    ]
    path = _write(tmp_path, events)
    recs = [json.loads(x) for x in run("log", path, "--as", "Bob", "--json")[1].splitlines()]
    trig, flag, effect, choice = (r["event"] for r in recs[-4:])
    assert trig["data"] == ["ZoneChanged", [0, 0, "library", "hand", "draw", -1, -1]]
    assert flag["value"] == 0 and effect["params"] == {"to": 0, "n": 3}
    assert choice["choice"] == [0, 0]
    assert "6" not in run("log", path, "--as", "Bob", "--from", -3)[1]
    code, out, _ = run("explain", path, -1, "--as", "Bob")
    assert code == 0 and "Alice: rummage → a card, a card" in out and "6" not in out
    alice = [json.loads(x) for x in run("log", path, "--as", "Alice", "--json")[1].splitlines()]
    assert alice[-4]["event"]["data"][1][:2] == [0, 6]  # her hand card; no library id


def test_two_logs_compared_as_a_player(tmp_path: Path) -> None:
    """`mtgk diff LOG1 LOG2 --as Bob` compares what Bob saw: a hidden difference (a card
    in Alice's library, the seed) is none; a public one is where the games part."""
    a = _setup() + [ev.LifeLost(player=1, n=2)]
    b = list(a)
    b[2] = ev.ObjectCreated(obj=2, card="Gray Ogre", owner=0, zone="library")
    c = b[:-1] + [ev.LifeLost(player=1, n=3)]
    pa, pb, pc = _write(tmp_path, a, "a.mtgk"), _write(tmp_path, b, "b.mtgk"), \
        _write(tmp_path, c, "c.mtgk")
    code, out, _ = run("diff", pa, pb)
    assert code == 1 and "ObjectCreated differs in card" in out
    code, out, _ = run("diff", pa, pb, "--as", "Bob")
    assert code == 0 and "events: the same (7 events)" in out
    code, out, _ = run("diff", pa, pc, "--as", "Bob", "--json")
    d = json.loads(out)
    assert code == 1 and d["first"] == 6 and d["reason"] == "LifeLost differs in n"
    assert d["a"]["text"] == "Bob loses 2 life (life 20 → 18)"
    assert "Oakgnarl" not in out and "Gray Ogre" not in out
