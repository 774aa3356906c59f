"""Random playouts stay bounded (issue 23): a uniform choice at every priority made any
free repeatable ability a random walk of the stack's height with no finite mean (one
4-player game's stack passed 100 abilities), and Mirror Entity at X = 0 was such an
ability.  The random agent now passes with probability ``1 - 2**-k`` when the stack holds
``k`` objects, the heuristic agent activates again in a step only with probability
``2**-j`` after ``j`` activations, and neither activates an ability whose only cost is
{X} with X = 0 (``mtgk.agents.only_x_at_zero``; docs/agents.md, "The kernel's
agents")."""

from __future__ import annotations

from statistics import mean
from typing import Any

import pytest

from mtgk.agents import HeuristicAgent, RandomAgent, only_x_at_zero
from mtgk.cards.definitions import CardFacts, CardSetInfo, Registry
from mtgk.cards.dsl import CardSet, activated
from mtgk.cards.loading import hookimpl, load_registry
from mtgk.log import events as ev
from mtgk.log.answers import Activate
from mtgk.rules.core import GameOver
from mtgk.rules.engine import Decision, Game

B = CardSet("bounded", "0.0.1", __file__, facts="no-such-file.json")

# "{0}: Nothing happens." -- free and repeatable, but not an {X} ability: only the
# stack rule bounds a random player's use of it.
B.card("Free Repeater", activated("{0}", lambda c: None, text="{0}: Nothing happens."),
       facts=CardFacts(name="Free Repeater", mana_cost="{1}", mana_value=1,
                       types=("Artifact",), type_line="Artifact",
                       oracle_text="{0}: Nothing happens."))


class BoundedPack:
    __test__ = False

    @hookimpl
    def mtgk_cardsets(self) -> list[CardSetInfo]:
        return [B.info()]


@pytest.fixture(scope="module")
def reg() -> Registry:
    out = load_registry(extra=[("bounded", BoundedPack())])
    assert "bounded" in out.sets, out.failures
    return out


class Watching:
    """A kernel agent that notes the stack's height at each of its priority decisions
    and each activation it makes while the stack is not empty."""

    def __init__(self, inner: Any, heights: list[int], streaks: list[int]) -> None:
        self.inner = inner
        self.heights = heights
        self.streaks = streaks

    def decide(self, game: Game, d: Decision) -> Any:
        choice = self.inner.decide(game, d)
        if d.kind == "priority":
            k = len(game.state.stack)
            self.heights.append(k)
            if type(choice) is Activate and k:
                self.streaks[-1] += 1
            elif not k:
                self.streaks.append(0)
        return choice


def _board(reg: Registry, seed: int, card: str, players: int, agents: list[Any],
           mana: str = "") -> Game:
    names = [f"p{i}" for i in range(players)]
    g = Game(reg, names, seed=seed, agents=agents)
    with g.setting_up():
        for p in range(players):
            g.emit(ev.ObjectCreated(obj=g.new_id(), card=card, owner=p, zone="battlefield"))
            if mana:
                g.emit(ev.ManaAdded(player=p, mana=mana))
            for _ in range(8):
                g.emit(ev.ObjectCreated(obj=g.new_id(), card="Plains", owner=p,
                                        zone="library"))
    return g


def test_a_free_repeatable_ability_keeps_the_stack_short_in_random_four_player_games(
        reg: Registry) -> None:
    """Four random players, each with "{0}: Nothing happens.": uniformly, each added to
    the stack half the time and the top resolved only when all four passed in a row
    (1 in 16), so the stack grew without bound until the event budget ended the game.
    Now the stack's height has a small mean, and every game ends its first turn.  (With
    an empty stack the choice is still uniform: each step sees about 2**4 rounds of
    activations before all four pass, some 5,000 events a turn.)"""
    budget_hits = 0
    tallest: list[int] = []
    streak_means: list[float] = []
    for seed in range(12):
        heights: list[int] = []
        streaks: list[int] = [0]
        agents = [Watching(RandomAgent(seed * 4 + i), heights, streaks) for i in range(4)]
        g = _board(reg, seed, "Free Repeater", 4, agents)
        g.max_events = len(g.log) + 30_000
        try:
            g.run(0, max_turns=1)
        except GameOver:
            pass
        budget_hits += any(isinstance(e.event, ev.GameEnded) and e.event.reason ==
                           "event-budget" for e in g.log)
        tallest.append(max(heights))
        streak_means.append(mean(streaks))
    assert budget_hits == 0
    assert mean(tallest) < 6, tallest
    assert mean(streak_means) < 3, streak_means


def test_the_random_agent_passes_more_often_the_taller_the_stack(reg: Registry) -> None:
    """With one other option besides passing and ``k`` objects on the stack, it acts with
    probability ``2**-k / 2`` (``1 - 2**-k`` pass outright, else a uniform choice); and
    with an empty stack it draws just as a uniform choice does."""
    g = _board(reg, 0, "Free Repeater", 2, [RandomAgent(1), RandomAgent(2)])
    opts = g.legal_actions(0)
    assert len(opts) == 2 and opts[1][0] == "activate"
    plain, agent = RandomAgent(5), RandomAgent(5)
    for _ in range(200):  # empty stack: the same draws as r.choice
        assert agent.priority(g, opts) == plain.rng.choice(opts)
    for _ in range(3):
        g.perform(0, opts[1])
    assert len(g.state.stack) == 3
    opts = g.legal_actions(0)
    assert len(opts) == 2 and opts[1][0] == "activate"
    acts = sum(type(agent.priority(g, opts)) is Activate for _ in range(4000))
    assert 4000 / 16 * 0.7 < acts < 4000 / 16 * 1.3  # 2**-3 / 2 of the time


def test_a_random_game_is_the_same_for_the_same_seeds(reg: Registry) -> None:
    """The pass rule draws from the agent's own generator: same seeds, same log."""
    def play() -> list[Any]:
        g = _board(reg, 3, "Free Repeater", 4, [RandomAgent(30 + i) for i in range(4)])
        try:
            g.run(0, max_turns=1)
        except GameOver:
            pass
        return [e.event for e in g.log]
    assert play() == play()


def _mirror_options(reg: Registry, mana: str) -> tuple[Game, Any, list[Any]]:
    g = _board(reg, 0, "Mirror Entity", 2, [RandomAgent(1), RandomAgent(2)], mana=mana)
    opts = g.legal_actions(0)
    xs = [o for o in opts if o[0] == "activate"]
    return g, opts, xs


@pytest.mark.parametrize("mana", ["", "GGG"])
def test_the_random_agent_never_activates_an_only_x_ability_with_x_zero(
        reg: Registry, mana: str) -> None:
    """Mirror Entity ("{X}: Until end of turn, creatures you control have base power and
    toughness X/X") at X = 0 is free, repeatable and makes its controller's creatures
    0/0: the random agent took it as often as any other option.  Now it never does; with
    mana it still activates it with each X > 0."""
    g, opts, acts = _mirror_options(reg, mana)
    zero = [o for o in acts if o[4] == 0]
    assert len(zero) == 1 and only_x_at_zero(g, zero[0])
    assert not any(only_x_at_zero(g, o) for o in acts if o[4] > 0)
    assert len(acts) == 1 + len(mana)
    chosen = [RandomAgent(seed).decide(g, Decision("priority", 0, opts)) for seed in range(300)]
    assert zero[0] not in chosen
    if mana:
        assert {o[4] for o in chosen if o[0] == "activate"} == {1, 2, 3}
    else:
        assert all(o[0] == "pass" for o in chosen)


def test_the_heuristic_agent_never_activates_an_only_x_ability_with_x_zero(
        reg: Registry) -> None:
    """On its turn with an empty stack the heuristic agent activated a random ability of
    its own: without mana, Mirror Entity at X = 0 (again each time the stack emptied)."""
    g, opts, acts = _mirror_options(reg, "")
    assert g.state.active == 0 and not g.state.stack
    assert [o[4] for o in acts] == [0]
    for seed in range(20):
        assert HeuristicAgent(seed).decide(g, Decision("priority", 0, opts))[0] == "pass"
    g, opts, acts = _mirror_options(reg, "GG")  # (with mana: X = 1 or 2)
    for seed in range(20):
        choice = HeuristicAgent(seed).decide(g, Decision("priority", 0, opts))
        assert choice[0] == "activate" and choice[4] in (1, 2)


def test_the_heuristic_agent_does_not_repeat_a_free_ability_for_ever(reg: Registry) -> None:
    """On its turn with an empty stack the heuristic agent activated a random ability of
    its own every time: "{0}: Nothing happens." again each time the stack emptied, until
    the event budget ended the game.  Now after j activations in a step it activates
    again only with probability 2**-j: two turns take a few hundred events."""
    for seed in range(6):
        g = _board(reg, seed, "Free Repeater", 2, [HeuristicAgent(seed), HeuristicAgent(seed + 9)])
        g.max_events = len(g.log) + 5000
        try:
            g.run(0, max_turns=2)
        except GameOver:
            pass
        ended = [e.event for e in g.log if isinstance(e.event, ev.GameEnded)]
        assert [e.reason for e in ended] == ["turn-limit"], seed
        acts = [e.event for e in g.log if isinstance(e.event, ev.DecisionMade)
                and type(e.event.choice) is Activate]
        assert 0 < len(acts) < 100, seed


class Refusing:
    """A kernel agent that notes each only-{X} activation at X = 0 it makes, as it
    makes it (the source may die of it: Mirror Entity at 0)."""

    def __init__(self, inner: Any, taken: list[Any]) -> None:
        self.inner = inner
        self.taken = taken

    def decide(self, game: Game, d: Decision) -> Any:
        choice = self.inner.decide(game, d)
        if d.kind == "priority" and only_x_at_zero(game, choice):
            self.taken.append((len(game.log), choice))
        return choice


@pytest.mark.parametrize("kind", [RandomAgent, HeuristicAgent])
def test_whole_games_with_mirror_entities_never_activate_it_at_zero(
        reg: Registry, kind: Any) -> None:
    """Whole games (two players, a Mirror Entity each, a little mana and lands to draw):
    no activation of it with X = 0."""
    for seed in range(8):
        taken: list[Any] = []
        g = _board(reg, seed, "Mirror Entity", 2,
                   [Refusing(kind(seed), taken), Refusing(kind(seed + 50), taken)],
                   mana="WW")
        g.max_events = len(g.log) + 20_000
        try:
            g.run(0, max_turns=4)
        except GameOver:
            pass
        assert taken == [], seed
