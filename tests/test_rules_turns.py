"""Turn structure (CR 500-514), the London mulligan (CR 103.5) and cleanup.

Whole games are played with scripted agents through :meth:`Game.play`;
positions use the scenario runner (see ``conftest.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.rules.engine import STEPS, Decision, Game
from mtgk.rules.state import fold
from mtgk.scenario.play import ScenarioResult

NO_COMBAT = [s for s in STEPS if s not in ("declare_blockers", "first_strike_damage", "combat_damage")]


class Passer:
    """Keeps its hand, never attacks or blocks, passes priority; records who got priority."""

    def __init__(self, seen: list[tuple[int, str, int]]) -> None:
        self.seen = seen

    def decide(self, game: Game, d: Decision) -> Any:
        if d.kind == "priority":
            self.seen.append((game.state.turn, game.state.step, d.player))
            return ["pass"]
        if d.kind == "mulligan":
            return True
        if d.options is None:
            return []
        return d.options[:d.count] if d.many else d.options[0]


def turns(log: list[ev.Envelope]) -> dict[int, list[ev.Event]]:
    """The events of each turn."""
    out: dict[int, list[ev.Event]] = {}
    turn = 0
    for env in log:
        if isinstance(env.event, ev.TurnBegan):
            turn = env.event.turn
        out.setdefault(turn, []).append(env.event)
    return out


def play_passing(reg: Registry, seed: int, max_turns: int) -> tuple[Game, list[Any]]:
    seen: list[tuple[int, str, int]] = []
    g = Game(reg, ["alice", "bob"], seed=seed, agents=[Passer(seen), Passer(seen)])
    g.play([["Mountain"] * 30, ["Forest"] * 30], max_turns=max_turns)
    return g, seen


def test_turn_steps_in_order_and_the_first_player_skips_the_first_draw(
        registry: Registry) -> None:
    for seed in range(4):
        g, _seen = play_passing(registry, seed, max_turns=4)
        by_turn = turns(g.log)
        first = next(e.choice for e in by_turn[0]
                     if isinstance(e, ev.DecisionMade) and e.kind == "first_player")
        for n in range(1, 5):
            events = by_turn[n]
            began = events[0]
            assert isinstance(began, ev.TurnBegan)
            assert began.active == (first if n % 2 else 1 - first)  # turns alternate
            steps = [e.step for e in events if isinstance(e, ev.StepBegan)]
            assert steps == NO_COMBAT, f"turn {n}: {steps}"  # no attackers: 508.8
            draws = [e for e in events if isinstance(e, ev.ZoneChanged) and e.reason == "draw"]
            # CR 103.8a: the starting player skips the draw of their first turn
            assert len(draws) == (0 if n == 1 else 1), f"turn {n}"
            hand = [e for e in draws if g.state.objects.get(e.new_obj) is not None]
            assert all(g.state.objects[e.new_obj].owner == began.active for e in hand)
        drawn = [len(p.hand) + len(p.graveyard) for p in g.state.players]  # nothing was played
        assert drawn[first] == 7 + 1  # turn 3
        assert drawn[1 - first] == 7 + 2  # turns 2 and 4


def test_priority_in_every_step_but_untap_and_cleanup(registry: Registry) -> None:
    g, seen = play_passing(registry, 1, max_turns=3)
    actives = {e.event.turn: e.event.active for e in g.log if isinstance(e.event, ev.TurnBegan)}
    for n in (1, 2, 3):
        for step in NO_COMBAT:
            who = [p for t, s, p in seen if t == n and s == step]
            if step in ("untap", "cleanup"):  # CR 502.4, 514.3
                assert who == [], (n, step)
            else:  # CR 117.3a-d: the active player first, then each other player passes
                assert who == [actives[n], 1 - actives[n]], (n, step, who)


def test_cleanup_discards_down_to_seven_only_for_the_active_player(registry: Registry) -> None:
    """CR 514.1: in cleanup the active player (only) discards down to seven cards."""
    g, _seen = play_passing(registry, 2, max_turns=6)
    by_turn = turns(g.log)
    for n in range(1, 7):
        active = by_turn[n][0].active  # type: ignore[attr-defined]
        discards = [e for e in by_turn[n] if isinstance(e, ev.ZoneChanged)
                    and e.reason == "discard"]
        assert all(g.state.objects[e.new_obj].owner == active for e in discards)
        # nothing but lands in hand and none played: the hand only grows, so each
        # cleanup discards exactly what exceeds seven
        end = next(i for i, env in enumerate(g.log) if isinstance(env.event, ev.TurnBegan)
                   and env.event.turn == n + 1) if n < 6 else len(g.log)
        after = fold(g.log[:end])
        assert len(after.players[active].hand) == 7, n
        assert len(after.players[1 - active].hand) <= 8
        assert len(discards) == (0 if n == 1 else 1), n  # the first player skips a draw


class Mulligan:
    """Takes ``n`` mulligans, then keeps and bottoms the cards ``pick`` chooses."""

    def __init__(self, n: int, pick: Callable[[list[int], int], list[int]]) -> None:
        self.n = n
        self.pick = pick
        self.hands: list[list[int]] = []
        self.bottomed: list[int] = []
        self.chosen: list[int] = []

    def decide(self, game: Game, d: Decision) -> Any:
        if d.kind == "mulligan":
            self.hands.append(list(game.state.players[d.player].hand))
            if len(self.hands) <= self.n:
                return False
            return True
        if d.kind == "bottom":
            assert d.count == self.n
            chosen = self.chosen = self.pick(list(d.options or []), d.count)
            self.bottomed = [game.state.objects[i].card_id for i in chosen]
            return chosen
        if d.kind == "priority":
            return ["pass"]
        if d.options is None:
            return []
        return d.options[:d.count] if d.many else d.options[0]


def test_london_mulligan(registry: Registry) -> None:
    """CR 103.5: shuffle the hand away, draw seven, then put one card per mulligan on the
    bottom of the library in an order of your choice."""
    deck = ["Mountain"] * 10 + ["Shock"] * 10 + ["Gray Ogre"] * 10 + ["Lightning Bolt"] * 10
    for n in (1, 2):
        for seed in (3, 4):
            agents = [Mulligan(n, lambda opts, k: list(reversed(opts))[:k]),
                      Mulligan(0, lambda opts, k: [])]
            g = Game(registry, ["alice", "bob"], seed=seed, agents=agents)
            g.play([deck, deck], max_turns=1)
            alice, bob = g.state.players
            a = agents[0]
            assert len(a.hands) == n + 1
            assert all(len(h) == 7 for h in a.hands)  # each time a full seven
            assert len(alice.hand) == 7 - n
            assert len(bob.hand) == 7
            assert len(alice.library) == 40 - 7 + n
            cards = g.state.objects
            assert [cards[i].card_id for i in alice.library[-n:]] == a.bottomed  # in that order
            assert set(a.chosen) <= set(a.hands[-1])  # from the kept seven
            assert not set(a.bottomed) & {cards[i].card_id for i in alice.hand}
            shuffles = [e.event for e in g.log if isinstance(e.event, ev.LibraryShuffled)]
            assert [s.player for s in shuffles] == [0, 1] + [0] * n
            decisions = [e.event for e in g.log if isinstance(e.event, ev.DecisionMade)
                         and e.event.kind == "mulligan"]
            assert [d.choice for d in decisions if d.player == 0] == [False] * n + [True]


def test_no_mulligans_when_disabled(registry: Registry) -> None:
    agents = [Mulligan(3, lambda opts, k: opts[:k]), Mulligan(3, lambda opts, k: opts[:k])]
    g = Game(registry, ["alice", "bob"], seed=1, agents=agents)
    g.play([["Mountain"] * 20, ["Forest"] * 20], mulligans=False, max_turns=1)
    assert agents[0].hands == [] and agents[1].hands == []
    assert [len(p.hand) for p in g.state.players] == [7, 7]


def test_until_end_of_turn_effects_end_in_cleanup(scenario: Callable[..., ScenarioResult]
                                                  ) -> None:
    """CR 514.2: "until end of turn" effects end, and damage is removed, in cleanup."""
    res = scenario("""
        name: growth-wears-off
        strict: true
        players:
          alice:
            battlefield: [Forest, Mountain, Grizzly Bears]
            hand: [Test Growth, Shock]
            library: [Forest]
          bob:
            library: [Forest]
        turn: {number: 2, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Test Growth, targets: [Grizzly Bears]}
          - {resolve: all}
          - {player: alice, cast: Shock, targets: [Grizzly Bears]}
          - {resolve: all}
          - check: [{card: Grizzly Bears, power: 5, toughness: 5}]
          - {pass_until: {turn: 2, step: end}}
          - check: [{card: Grizzly Bears, power: 5, toughness: 5}]
          - {pass_until: {turn: 3, step: upkeep}}
        expect:
          - {card: Grizzly Bears, zone: battlefield, power: 2, toughness: 2}
        """)
    g = res.game
    assert g is not None
    assert g.state.effects == []
    bears = next(o for o in g.state.battlefield if g.state.objects[o].card == "Grizzly Bears")
    assert g.state.objects[bears].damage == 0
    ended = [e for e in res.log if isinstance(e.event, ev.EffectsEnded)]
    steps = [e.event.step for e in res.log[:ended[0].seq] if isinstance(e.event, ev.StepBegan)]
    assert steps[-1] == "cleanup"
