"""Invariants of the engine over many seeded random games.

(a) Replaying every prefix of the log gives the live state at that point, and
    the log survives a round trip through the binary log file.
(b) Re-running the engine from the same seed and decks, answering every
    decision from the recorded log (:class:`ReplayAgent`), gives the identical
    event stream.
(c) No exception escapes a game.
(d) An illegal action is refused with a rule number, appends nothing and
    changes nothing -- asked directly (``check_action``) and proposed by an
    agent to the engine (which then calls ``agent.refused``).
(e) A game is the same byte for byte whatever ``PYTHONHASHSEED`` is.

Games use the core reference cards, the test-only ``testpack`` (triggers, X
spells, Auras, counters, planeswalkers, keywords) and the Lorwyn built-in
decks when that set ships them.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgk.agents import HeuristicAgent, RandomAgent, ReplayAgent, ReplayExhausted
from mtgk.cards.decks import deck_lines, parse_deck
from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.log.logfile import LogHeader, read_log, write_log
from mtgk.rules.engine import Decision, Game, RulesError
from mtgk.rules.mana import plan_payment
from mtgk.rules.state import State, apply, encode_state, fold, new_state

TESTS = Path(__file__).resolve().parent
PLAYERS = ("alice", "bob")
MAX_TURNS = 40
RULE = re.compile(r"^\d{3}(\.\d+[a-z]?)?$")

CORE_RG = (["Mountain"] * 9 + ["Forest"] * 8 + ["Grizzly Bears"] * 3 + ["Runeclaw Bear"] * 3
           + ["Gray Ogre"] * 3 + ["Goblin Roughrider"] * 3 + ["Goblin Chieftain"] * 3
           + ["Game-Trail Changeling"] * 2 + ["Shock"] * 3 + ["Lightning Bolt"] * 3)
CORE_BRU = (["Swamp"] * 6 + ["Mountain"] * 6 + ["Island"] * 5 + ["Murder"] * 4
            + ["Divination"] * 3 + ["Lightning Bolt"] * 3 + ["Shock"] * 3 + ["Gray Ogre"] * 4
            + ["Goblin Roughrider"] * 3 + ["Goblin Chieftain"] * 3)
TESTPACK = (["Plains", "Island", "Swamp", "Mountain", "Forest"] * 4
            + ["Test Blaze", "Test Pinger", "Test Aura", "Test Plus Counter", "Test Minus Counter",
               "Test Legend", "Test Growth", "Test Shrink"] * 2
            + ["Test Upkeep Healer", "Test Hopeful Scholar", "Test Mourner", "Test Beastcall",
               "Test Walker", "Test Walker Prime", "Test Trampler", "Test Double Striker",
               "Test Deathtoucher", "Test Deadly Trampler", "Test Lifelinker", "Test Flash Bear", "Test Mana Elf",
               "Test Flyer", "Test Reacher", "Test Fearsome", "Test Wall", "Test Vigilant",
               "Test Hasty", "Test First Striker", "Test Islandwalker", "Test Enlarge",
               "Test Sorcery Growth", "Test Legendary Walker", "Murder", "Lightning Bolt",
               "Test Wrath", "Test Exile Sweep", "Test Griever", "Test Farewell Keeper",
               "Test Warden"])


def deck_pool(reg: Registry) -> dict[str, list[str]]:
    """The decks random games are played with (Lorwyn's built-in decks if present)."""
    pool = {"core-rg": CORE_RG, "core-bru": CORE_BRU}
    if "Test Blaze" in reg:
        pool["testpack"] = TESTPACK
    lorwyn = reg.sets.get("lorwyn")
    for name, text in sorted((lorwyn.decks if lorwyn else {}).items()):
        pool[f"lorwyn:{name}"] = parse_deck(text, reg, source=name)
    return pool


class ChaosAgent(RandomAgent):
    """A random agent that also takes mulligans at random (London mulligan paths)."""

    def decide(self, game: Game, d: Decision) -> Any:
        if d.kind == "mulligan":
            return self.rng.random() < 0.75
        return super().decide(game, d)


AGENTS: dict[str, Callable[[int], Any]] = {
    "random": RandomAgent, "heuristic": HeuristicAgent, "chaos": ChaosAgent}


class StateRecorder:
    """A listener that folds each event into its own state and compares with the live one."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.shadow: State = new_state()
        self.digests: list[bytes] = []
        self.seqs: list[int] = []
        self.mismatch: int | None = None

    def __call__(self, env: ev.Envelope) -> None:
        assert self.game is not None
        self.seqs.append(env.seq)
        apply(self.shadow, env.event)
        live = encode_state(self.game.state)
        if self.mismatch is None and encode_state(self.shadow) != live:
            self.mismatch = env.seq
        self.digests.append(hashlib.sha256(live).digest())


def new_game(reg: Registry, seed: int, agents: Sequence[Any],
             recorder: StateRecorder | None = None) -> Game:
    """A game whose recorder (a listener) sees every event, the first one included."""
    g = Game(reg, list(PLAYERS), seed=seed, agents=list(agents), start=False)
    if recorder is not None:
        recorder.game = g
        g.listeners.append(recorder)
    g.emit(ev.GameStarted(players=PLAYERS, seed=seed, profile="lorwyn-2007"))
    return g


def agents_for(kind: str, seed: int) -> list[Any]:
    make = AGENTS[kind]
    return [make(seed * 2 + 1), make(seed * 2 + 2)]


def matchups(reg: Registry, n: int, salt: int = 0) -> list[tuple[int, str, str, str]]:
    """``n`` reproducible (seed, deck0, deck1, agent kind) combinations."""
    names = sorted(deck_pool(reg))
    rng = random.Random(f"matchups/{salt}")
    kinds = sorted(AGENTS)
    return [(salt * 10_000 + i, rng.choice(names), rng.choice(names), kinds[i % len(kinds)])
            for i in range(n)]


def check_log_shape(log: Sequence[ev.Envelope]) -> None:
    """Sequence numbers are gapless and every cause points back in time."""
    for i, env in enumerate(log):
        assert env.seq == i, f"event {i} has seq {env.seq}"
        assert -1 <= env.cause < env.seq, f"event {i} has cause {env.cause}"


def play_recorded(reg: Registry, seed: int, d0: str, d1: str, kind: str
                  ) -> tuple[Game, StateRecorder]:
    pool = deck_pool(reg)
    rec = StateRecorder()
    g = new_game(reg, seed, agents_for(kind, seed), rec)
    g.play([pool[d0], pool[d1]], max_turns=MAX_TURNS)  # (c): nothing may escape
    return g, rec


def assert_prefix_replay(g: Game, rec: StateRecorder, seed: int) -> None:
    check_log_shape(g.log)
    assert rec.seqs == list(range(len(g.log))), "listeners saw events out of log order"
    assert rec.mismatch is None, f"folding the log up to event {rec.mismatch} differs from " \
        "the live state"
    assert len(rec.digests) == len(g.log)
    assert encode_state(fold(g.log)) == encode_state(g.state)
    # a few prefixes folded from scratch, independently of the incremental fold
    rng = random.Random(seed)
    for k in sorted(rng.sample(range(len(g.log)), min(8, len(g.log)))):
        got = hashlib.sha256(encode_state(fold(g.log[:k + 1]))).digest()
        assert got == rec.digests[k], f"fold of the first {k + 1} events differs"


# ---------------------------------------------------------------- (a) + (c)

@pytest.mark.parametrize("batch", range(6))
def test_every_prefix_of_the_log_replays_to_the_live_state(rules_registry: Registry,
                                                          batch: int) -> None:
    for seed, d0, d1, kind in matchups(rules_registry, 15, salt=batch):
        g, rec = play_recorded(rules_registry, seed, d0, d1, kind)
        assert g.state.over, f"seed {seed}: the game did not end"
        assert_prefix_replay(g, rec, seed)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), d0=st.integers(0, 50), d1=st.integers(0, 50),
       kind=st.sampled_from(sorted(AGENTS)))
def test_prefix_replay_property(rules_registry: Registry, seed: int, d0: int, d1: int,
                                kind: str) -> None:
    names = sorted(deck_pool(rules_registry))
    g, rec = play_recorded(rules_registry, seed, names[d0 % len(names)],
                           names[d1 % len(names)], kind)
    assert_prefix_replay(g, rec, seed)


@pytest.mark.parametrize("salt", [100, 101])
def test_log_file_round_trip(rules_registry: Registry, tmp_path: Path, salt: int) -> None:
    pool = deck_pool(rules_registry)
    for seed, d0, d1, kind in matchups(rules_registry, 6, salt=salt):
        g, _rec = play_recorded(rules_registry, seed, d0, d1, kind)
        header = LogHeader(kernel_version="test", players=list(PLAYERS),
                           cardsets=sorted((i.name, i.version)
                                           for i in rules_registry.sets.values()),
                           decks=[deck_lines(pool[d0]), deck_lines(pool[d1])], seed=seed)
        path = tmp_path / f"{seed}.mtgk"
        write_log(path, header, g.log)
        back = read_log(path, strict=True)
        assert not back.problems and not back.torn
        assert back.header.seed == seed and back.header.players == list(PLAYERS)
        assert back.envelopes == g.log
        assert encode_state(fold(back.envelopes)) == encode_state(g.state)


def test_recorder_notices_a_state_the_log_does_not_explain(rules_registry: Registry) -> None:
    """The prefix check can fail: a change made behind the log's back is caught."""
    rec = StateRecorder()
    g = new_game(rules_registry, 1, [RandomAgent(1), RandomAgent(2)], rec)
    g.setup_decks([CORE_RG, CORE_RG])
    g.state.players[0].life = 7  # not an event
    g.emit(ev.LifeGained(player=1, n=1))
    assert rec.mismatch == len(g.log) - 1


# ---------------------------------------------------------------- (b)

def replay_log(reg: Registry, seed: int, decks: Sequence[Sequence[str]],
               log: Sequence[ev.Envelope]) -> Game:
    g = Game(reg, list(PLAYERS), seed=seed, agents=[ReplayAgent(log), ReplayAgent(log)])
    g.play(decks, max_turns=MAX_TURNS)
    return g


@pytest.mark.parametrize("batch", range(4))
def test_replaying_the_decisions_reproduces_the_event_stream(rules_registry: Registry,
                                                            batch: int) -> None:
    pool = deck_pool(rules_registry)
    for seed, d0, d1, kind in matchups(rules_registry, 15, salt=200 + batch):
        decks = [pool[d0], pool[d1]]
        g = Game(rules_registry, list(PLAYERS), seed=seed, agents=agents_for(kind, seed))
        g.play(decks, max_turns=MAX_TURNS)
        again = replay_log(rules_registry, seed, decks, g.log)
        assert len(again.log) == len(g.log), f"seed {seed}: {len(again.log)} != {len(g.log)}"
        for a, b in zip(again.log, g.log, strict=True):
            assert a == b, f"seed {seed}: first difference at event {a.seq}: {a} != {b}"
        assert encode_state(again.state) == encode_state(g.state)


def test_replay_detects_a_changed_decision(rules_registry: Registry) -> None:
    """The replay comparison can fail: with one recorded choice altered, the re-run
    diverges -- it refuses a recorded answer that no longer fits, or its stream differs."""
    pool = deck_pool(rules_registry)
    decks = [pool["core-rg"], pool["core-rg"]]
    g = Game(rules_registry, list(PLAYERS), seed=5, agents=agents_for("random", 5))
    g.play(decks, max_turns=MAX_TURNS)
    log = list(g.log)
    i = next(k for k, env in enumerate(log) if isinstance(env.event, ev.DecisionMade)
             and env.event.kind == "priority" and env.event.choice[0] == "play")
    log[i] = ev.Envelope(seq=i, cause=log[i].cause,
                         event=ev.DecisionMade(player=log[i].event.player, kind="priority",
                                               choice=["pass"]))
    again = Game(rules_registry, list(PLAYERS), seed=5,
                 agents=[ReplayAgent(log), ReplayAgent(log)])
    with pytest.raises((RulesError, ReplayExhausted)):
        again.play(decks, max_turns=MAX_TURNS)
    assert again.log[:i] == g.log[:i]
    assert again.log[i] != g.log[i]


# ---------------------------------------------------------------- (d)

def sorcery_ok(g: Game, p: int) -> bool:
    s = g.state
    return s.active == p and not s.stack and s.step in ("precombat_main", "postcombat_main")


def illegal_actions(g: Game, p: int, rng: random.Random) -> list[tuple[str, list[Any], str]]:
    """Illegal priority actions for ``p`` now: (what, action, the rule it breaks)."""
    s = g.state
    out: list[tuple[str, list[Any], str]] = []
    me, opp = s.players[p], s.players[1 - p]
    hand = list(me.hand)
    elsewhere = me.library + me.graveyard + opp.hand
    if elsewhere:
        oid = rng.choice(elsewhere)
        if "Land" not in g.chars(oid).types:
            out.append(("cast a card not in hand", ["cast", oid, [], [], 0, ""], "601.2"))
    lands = [o for o in hand if "Land" in g.chars(o).types]
    spells = [o for o in hand if "Land" not in g.chars(o).types]
    if lands and me.lands_played >= 1 and sorcery_ok(g, p):
        out.append(("a second land", ["play", rng.choice(lands)], "305.2"))
    if lands and not sorcery_ok(g, p):
        out.append(("a land at instant speed", ["play", rng.choice(lands)], "305.1"))
    slow = [o for o in spells if "Instant" not in g.chars(o).types
            and not g.chars(o).has("flash")]
    if slow and not sorcery_ok(g, p):
        out.append(("a sorcery-speed spell at instant speed",
                    ["cast", rng.choice(slow), [], [], 0, ""], "307.1"))
    legal = g.legal_actions(p)
    targeted = [a for a in legal if a[0] == "cast" and a[2]]
    if targeted and me.library:
        a = rng.choice(targeted)
        bad = [me.library[0]] + list(a[2][1:])  # a card in a library is never a legal target
        out.append(("an illegal target", ["cast", a[1], bad, a[3], a[4], a[5]], "115.1"))
    sources = g.mana_sources(p)
    for o in spells:
        c = g.chars(o)
        ok_time = sorcery_ok(g, p) or "Instant" in c.types or c.has("flash")
        if ok_time and not g.card(o).spell and "Aura" not in c.subtypes and \
                plan_payment(g.spell_cost(o), me.mana, sources) is None:
            out.append(("an unaffordable spell", ["cast", o, [], [], 0, ""], "601.2h"))
            break
    for a in legal:
        if a[0] == "cast" and g.spell_cost(a[1]).x:
            out.append(("an unaffordable X", ["cast", a[1], a[2], a[3], 99, a[5]], "601.2h"))
            break
    theirs = [o for o in s.battlefield if g.chars(o).controller != p]
    if theirs:
        out.append(("an opponent's permanent's ability",
                    ["activate", rng.choice(theirs), 1, [], 0], "602.2"))
    out.append(("not an action", ["shuffle"], "117"))
    out.append(("no such object", ["cast", 10**6, [], [], 0, ""], "601.2"))
    return out


def assert_refused(g: Game, p: int, what: str, action: list[Any], rule: str) -> None:
    before_len, before = len(g.log), encode_state(g.state)
    with pytest.raises(RulesError) as info:
        g.check_action(p, action)
    err = info.value
    assert RULE.match(err.rule), f"{what}: rule {err.rule!r} is not a rule number"
    assert err.rule.startswith(rule), f"{what}: refused under rule {err.rule}, expected {rule}"
    assert err.message
    assert len(g.log) == before_len, f"{what}: the refusal appended events"
    assert encode_state(g.state) == before, f"{what}: the refusal changed the state"


class Prober:
    """Wraps an agent; at random priority decisions, checks that illegal actions are refused."""

    def __init__(self, inner: Any, seed: int, rate: float = 0.3) -> None:
        self.inner = inner
        self.rng = random.Random(seed)
        self.rate = rate
        self.seen: dict[str, int] = {}

    def decide(self, game: Game, d: Decision) -> Any:
        if d.kind == "priority" and self.rng.random() < self.rate:
            for what, action, rule in illegal_actions(game, d.player, self.rng):
                assert_refused(game, d.player, what, action, rule)
                self.seen[what] = self.seen.get(what, 0) + 1
        return self.inner.decide(game, d)


@pytest.mark.parametrize("batch", range(3))
def test_illegal_actions_are_refused_without_a_trace(rules_registry: Registry,
                                                     batch: int) -> None:
    pool = deck_pool(rules_registry)
    seen: dict[str, int] = {}
    for seed, d0, d1, kind in matchups(rules_registry, 14, salt=300 + batch):
        probes = [Prober(a, seed * 7 + i) for i, a in enumerate(agents_for(kind, seed))]
        g = Game(rules_registry, list(PLAYERS), seed=seed, agents=probes)
        g.play([pool[d0], pool[d1]], max_turns=MAX_TURNS)
        assert encode_state(fold(g.log)) == encode_state(g.state)
        for pr in probes:
            for k, n in pr.seen.items():
                seen[k] = seen.get(k, 0) + n
    # every kind of illegal action was tried
    assert {"cast a card not in hand", "a second land", "a land at instant speed",
            "a sorcery-speed spell at instant speed", "an illegal target",
            "an unaffordable spell", "an opponent's permanent's ability"} <= set(seen), seen


class Stubborn:
    """Proposes an illegal answer first, then (after ``refused``) the inner agent's answer.

    Checks that the refused proposal appended nothing and changed nothing.
    """

    def __init__(self, inner: Any, seed: int) -> None:
        self.inner = inner
        self.rng = random.Random(seed)
        self.pending: tuple[int, bytes] | None = None
        self.refusals: list[str] = []
        self.retrying = False

    def decide(self, game: Game, d: Decision) -> Any:
        if self.retrying:
            self.retrying = False
            return self.inner.decide(game, d)
        bad = self._illegal(game, d)
        if bad is None:
            return self.inner.decide(game, d)
        self.pending = (len(game.log), encode_state(game.state))
        self.retrying = True
        return bad

    def _illegal(self, game: Game, d: Decision) -> Any:
        if self.rng.random() > 0.4:
            return None
        s = game.state
        if d.kind == "priority":
            acts = illegal_actions(game, d.player, self.rng)
            return self.rng.choice(acts)[1]
        if d.kind == "attackers":
            lands = [o for o in s.battlefield if "Land" in game.chars(o).types]
            return [[lands[0], ev.player_ref(1 - d.player)]] if lands else None
        if d.kind == "blockers":
            attackers = d.context["attackers"]
            return [[attackers[0], attackers[0]]]  # an attacker can't block for the defender
        return None

    def refused(self, game: Game, d: Decision, err: RulesError) -> None:
        assert self.pending is not None and self.retrying
        assert RULE.match(err.rule), err.rule
        assert (len(game.log), encode_state(game.state)) == self.pending
        self.refusals.append(err.rule)


@pytest.mark.parametrize("batch", range(2))
def test_agent_refusals_leave_the_game_as_if_never_proposed(rules_registry: Registry,
                                                            batch: int) -> None:
    pool = deck_pool(rules_registry)
    total = 0
    for seed, d0, d1, kind in matchups(rules_registry, 10, salt=400 + batch):
        decks = [pool[d0], pool[d1]]
        plain = Game(rules_registry, list(PLAYERS), seed=seed, agents=agents_for(kind, seed))
        plain.play(decks, max_turns=MAX_TURNS)
        stubborn = [Stubborn(a, seed + i) for i, a in enumerate(agents_for(kind, seed))]
        g = Game(rules_registry, list(PLAYERS), seed=seed, agents=stubborn)
        g.play(decks, max_turns=MAX_TURNS)
        total += sum(len(a.refusals) for a in stubborn)
        assert g.log == plain.log, f"seed {seed}: refused proposals changed the game"
    assert total > 50


def test_an_agent_without_refused_gets_the_error(rules_registry: Registry) -> None:
    class Cheater:
        def decide(self, game: Game, d: Decision) -> Any:
            if d.kind == "priority":
                return ["cast", 10**6, [], [], 0, ""]
            return RandomAgent(0).decide(game, d)

    g = Game(rules_registry, list(PLAYERS), seed=3, agents=[Cheater(), Cheater()])
    with pytest.raises(RulesError) as info:
        g.play([CORE_RG, CORE_RG], max_turns=MAX_TURNS)
    assert info.value.rule == "601.2"
    assert not any(isinstance(e.event, ev.DecisionMade) and e.event.kind == "priority"
                   for e in g.log)


# ---------------------------------------------------------------- (e)

SUBPROCESS = """
import json, sys
sys.path.insert(0, {tests!r})
from conftest import TestPack
from mtgk.cards.loading import load_registry
from mtgk.log.logfile import LogHeader, write_log
import test_invariants as t
reg = load_registry(extra=[("testpack", TestPack())])
pool = t.deck_pool(reg)
out = []
for seed, d0, d1, kind in {games!r}:
    g = t.new_game(reg, seed, t.agents_for(kind, seed))
    g.play([pool[d0], pool[d1]], max_turns=t.MAX_TURNS)
    path = {out!r} + f"/{{seed}}.mtgk"
    header = LogHeader(kernel_version="test", players=list(t.PLAYERS), cardsets=[], seed=seed)
    write_log(path, header, g.log)
    out.append(path)
print(json.dumps(out))
"""


def test_games_do_not_depend_on_the_hash_seed(rules_registry: Registry, tmp_path: Path) -> None:
    names = sorted(deck_pool(rules_registry))
    games = [(11, names[0], names[-1], "random"), (12, names[-1], names[1], "heuristic"),
             (13, "testpack", "testpack", "chaos")]
    files: list[list[bytes]] = []
    for hashseed in ("0", "12345"):
        out = tmp_path / hashseed
        out.mkdir()
        code = SUBPROCESS.format(tests=str(TESTS), games=games, out=str(out))
        env = dict(os.environ, PYTHONHASHSEED=hashseed)
        proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, timeout=300, cwd=str(TESTS.parent))
        assert proc.returncode == 0, proc.stderr
        files.append([Path(p).read_bytes() for p in json.loads(proc.stdout.splitlines()[-1])])
    assert len(files[0]) == len(games)
    for a, b, game in zip(files[0], files[1], games, strict=True):
        assert len(a) > 1000
        assert a == b, f"game {game} differs between hash seeds"
