"""The stepper (mtgk.stepper): a game driven from outside, forks and undo."""

from __future__ import annotations

import copy
import pickle
import random
import threading

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mtgk.agents import HeuristicAgent, RandomAgent
from mtgk.cards.decks import builtin_decks, deck_lines, load_deck
from mtgk.cards.loading import load_registry
from mtgk.games.replay import new_header, run_from_header
from mtgk.rules.checkpoints import SNAPSHOT_EVERY
from mtgk.rules.engine import RulesError
from mtgk.stepper import ForkError, Stepper, StepperError

ENC = msgspec.msgpack.Encoder()


@pytest.fixture(scope="module")
def reg():
    return load_registry()


def header(reg, seed, max_turns=40, players=("Alice", "Bob"), **kw):
    names = list(builtin_decks(reg))[:2]
    decks = [deck_lines(load_deck(names[i % 2], reg)) for i in range(len(players))]
    return new_header(reg, list(players), decks, seed, meta={"max_turns": max_turns}, **kw)


def key(log):
    return [ENC.encode(e) for e in log]


def play_on(stepper, answers):
    for a in answers:
        stepper.answer(a)


def random_game(reg, seed, fork_every=0.1, validated=False, **kw):
    """A game answered by random agents from outside, forked at random decisions;
    returns the stepper and the forks with the number of answers given when made."""
    s = Stepper(reg, header(reg, seed, **kw))
    s.game.validate_caches = validated
    agents = [RandomAgent(seed * 7 + i) for i in range(len(s.state.players))]
    rng = random.Random(seed)
    forks = []
    while s.decision is not None:
        if rng.random() < fork_every:
            forks.append((s.fork(), len(s.answers)))
        d = s.decision
        s.answer(agents[d.player].decide(s.game, d))
    return s, forks


def test_doctests():
    import doctest

    import mtgk.log.answers
    import mtgk.search
    import mtgk.stepper

    for mod in (mtgk.stepper, mtgk.search, mtgk.log.answers):
        assert doctest.testmod(mod).failed == 0, mod.__name__


def test_a_stepper_plays_the_game_run_from_header_plays(reg):
    h = header(reg, 3)
    agents = [RandomAgent(1), RandomAgent(2)]
    direct = run_from_header(reg, h, [RandomAgent(1), RandomAgent(2)])
    s = Stepper(reg, h)
    assert s.play(agents) == (-1 if direct.state.winner is None else direct.state.winner)
    assert key(s.log) == key(direct.log)
    assert s.over and s.decision is None


def test_own_agents_are_asked_by_the_stepper(reg):
    h = header(reg, 4)
    direct = run_from_header(reg, h, [HeuristicAgent(1), RandomAgent(2)])
    s = Stepper(reg, h, [HeuristicAgent(1), None])
    other = RandomAgent(2)
    while s.decision is not None:
        assert s.decision.player == 1
        s.answer(other.decide(s.game, s.decision))
    assert key(s.log) == key(direct.log)


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000))
def test_forks_are_exact_and_independent(reg, seed):
    s, forks = random_game(reg, seed)
    assert forks
    full = key(s.log)
    for f, k in forks:
        assert len(f.answers) == k
        play_on(f, s.answers[k:])  # the same answers: the same game, event for event
        assert f.over and key(f.log) == full
    assert key(s.log) == full  # (the forks played on without touching it)


def test_forks_in_validated_mode_and_in_two_headed_giant(reg):
    s, forks = random_game(reg, 11, fork_every=0.2, validated=True, max_turns=8)
    for f, k in forks:
        play_on(f, s.answers[k:])
        assert key(f.log) == key(s.log)
    s, forks = random_game(reg, 12, players=("A", "B", "C", "D"), max_turns=10,
                           variant="two_headed_giant", teams=[[0, 2], [1, 3]])
    for f, k in forks:
        play_on(f, s.answers[k:])
        assert key(f.log) == key(s.log)


def test_a_fork_in_the_middle_of_a_resolution(reg):
    """A decision that is not a priority (a target, a may, blockers...) forks exactly."""
    s, forks = random_game(reg, 5, fork_every=1.0, max_turns=12)
    kinds = {f.decision.kind for f, _k in forks if f.decision is not None}
    assert "priority" in kinds and len(kinds) > 2
    for f, k in forks:
        play_on(f, s.answers[k:])
        assert key(f.log) == key(s.log)


def test_forks_cost_the_same_early_and_late(reg):
    """A fork resumes at the last checkpoint: it folds at most a snapshot's distance of
    events and answers again only the answers since the last priority."""
    s = Stepper(reg, header(reg, 8, max_turns=60))
    agents = [RandomAgent(1), RandomAgent(2)]
    while s.decision is not None and len(s.log) < 1500:
        s.answer(agents[s.decision.player].decide(s.game, s.decision))
    cps = s.game.checkpoints
    assert cps and cps[-1].at - cps[-1].snapshot[0] < SNAPSHOT_EVERY and cps[-1].asked > len(s.answers) - 30


def test_undo_goes_back_to_the_previous_decision(reg):
    s = Stepper(reg, header(reg, 9))
    agents = [RandomAgent(1), RandomAgent(2)]
    for _ in range(60):
        s.answer(agents[s.decision.player].decide(s.game, s.decision))
    before = key(s.log)
    d = s.decision
    answer = agents[d.player].decide(s.game, d)
    s.answer(answer)
    s.undo()
    assert s.decision.kind == d.kind and s.decision.player == d.player
    assert len(s.answers) == 60
    assert key(s.log) == before
    s.answer(answer)  # and play on from there
    with pytest.raises(StepperError, match="nothing to undo"):
        Stepper(reg, header(reg, 9)).undo()


def test_an_illegal_answer_appends_nothing_and_keeps_the_decision(reg):
    s = Stepper(reg, header(reg, 2))
    s.answer(True)
    s.answer(True)
    d = s.decision
    n = len(s.log)
    with pytest.raises(RulesError, match="rule"):
        s.answer(["cast", 999999, [], [], 0, ""])
    assert s.decision is d and len(s.log) == n


def test_answering_a_finished_game_is_refused(reg):
    s = Stepper(reg, header(reg, 2, max_turns=2))
    s.play([RandomAgent(1), RandomAgent(2)])
    with pytest.raises(StepperError, match="over"):
        s.answer(True)


def test_copy_forks_and_pickle_is_refused(reg):
    s = Stepper(reg, header(reg, 2))
    c = copy.copy(s)
    assert key(c.log) == key(s.log) and c is not s and c.game is not s.game
    assert key(copy.deepcopy(s).log) == key(s.log)
    with pytest.raises(ForkError, match="fork"):
        pickle.dumps(s)


def test_no_thread_through_a_whole_env_episode():
    from mtgk.env import aec_env

    env = aec_env(decks=["bench/decks/ogres.txt"] * 2, seed=3)
    before = threading.active_count()
    env.reset(seed=3)
    rng = random.Random(1)
    while env.agents:
        obs, _r, term, trunc, _i = env.last()
        legal = [i for i, m in enumerate(obs["action_mask"]) if m]
        env.step(None if term or trunc else rng.choice(legal))
        assert threading.active_count() == before
    env.close()


def _view(reg, log, viewer):
    from mtgk.render import Renderer

    r = Renderer(reg, as_player=viewer)
    return [r.render(env) for env in log]


def test_a_determinized_fork_keeps_what_the_player_saw_and_deals_the_rest_anew(reg):
    from mtgk.rules.state import encode_state, fold

    s = Stepper(reg, header(reg, 21))
    agents = [RandomAgent(1), RandomAgent(2)]
    while s.decision is not None and len(s.log) < 400:
        s.answer(agents[s.decision.player].decide(s.game, s.decision))
    assert s.decision is not None
    p = s.decision.player
    mine = _view(reg, s.log, p)
    worlds = [s.fork(perspective=p, seed=k) for k in range(3)]
    hidden = []
    for w in worlds:
        assert len(w.log) == len(s.log)
        assert _view(reg, w.log, p) == mine  # every event the player saw reads the same
        assert encode_state(fold(w.log)) == encode_state(w.state)  # its log is its state
        other = w.state.players[1 - p]
        hidden.append([w.state.objects[o].card for o in other.hand + other.library])
        w.play([RandomAgent(3), RandomAgent(4)])  # and it plays on
    truth = s.state.players[1 - p]
    real = [s.state.objects[o].card for o in truth.hand + truth.library]
    assert sorted(hidden[0]) == sorted(real)  # the owner's own cards, dealt anew
    assert hidden[0] != hidden[1] or hidden[1] != hidden[2]
    assert any(h != real for h in hidden)
    assert _view(reg, s.log, p) == mine  # (the original is untouched)


def test_the_search_agent_never_sees_the_hidden_cards(reg):
    """Two games the player can't tell apart (the same view from their seat, other hidden
    cards): the search decides alike in both."""
    from mtgk.search import MctsAgent

    s = Stepper(reg, header(reg, 23))
    agents = [HeuristicAgent(1), HeuristicAgent(2)]
    asked = 0
    while s.decision is not None and asked < 3:
        d = s.decision
        if d.kind == "priority" and len(d.options) > 1 and len(s.log) > 60:
            twin = s.fork(perspective=d.player, seed=99)
            me = d.player
            other = twin.state.players[1 - me]
            truth = s.state.players[1 - me]
            assert [twin.state.objects[o].card for o in other.library] != \
                [s.state.objects[o].card for o in truth.library]
            a = MctsAgent(5, simulations=6).decide(s.game, d)
            b = MctsAgent(5, simulations=6).decide(twin.game, twin.decision)
            assert a == b
            asked += 1
        s.answer(agents[d.player].decide(s.game, d))
    assert asked


def test_mtgk_play_with_the_search_agent(tmp_path):
    from mtgk.tools.cli import main

    out = tmp_path / "g.mtgk"
    assert main(["play", "--agents", "mcts", "heuristic", "--seed", "4", "--max-turns", "6",
                 "--out", str(out), "-q"]) == 0
    assert main(["verify", str(out)]) == 0


def test_every_listed_choice_has_words(reg):
    """``Stepper.text`` words every legal choice of every listed decision of random games,
    naming the card an action is about."""
    seen: set[str] = set()
    for seed in (3, 4):
        s = Stepper(reg, header(reg, seed, max_turns=12))
        agents = [RandomAgent(seed), RandomAgent(seed + 1)]
        while s.decision is not None:
            d = s.decision
            for o in d.options or []:
                t = s.text(o)
                assert t and "#" not in t, (d, o, t)
                if d.kind == "priority" and o[0] != "pass":
                    assert s.game.name(o[1]) in t
                seen.add(d.kind)
            a = agents[d.player].decide(s.game, d)
            assert s.text(a)
            s.answer(a)
    assert {"mulligan", "priority"} <= seen
    with pytest.raises(StepperError, match="over"):
        s.text(True)
