"""Role rules that no printed card of these sets can show in a scenario."""

from __future__ import annotations

from typing import Any

from mtgk.cards.loading import load_registry
from mtgk.log import events as ev
from mtgk.plugins.roles import create_roles
from mtgk.rules.engine import Decision, Game
from mtgk.rules.state import encode_state, fold


class Keep:
    """Answers the "role" decision with the named Role; passes otherwise."""

    def __init__(self, keep: str) -> None:
        self.keep = keep
        self.asked: list[Decision] = []

    def decide(self, game: Game, d: Decision) -> Any:
        if d.kind == "role":
            self.asked.append(d)
            return next(o for o in d.options or [] if game.state.objects[o].card == self.keep)
        return d.options[0] if d.options else []


def _game(agent: Keep) -> tuple[Game, int]:
    g = Game(load_registry(), ["alice", "bob"], seed=0, agents=[agent, agent])
    g.emit(ev.TurnBegan(turn=1, active=0))
    g.emit(ev.ObjectCreated(obj=g.new_id(), card="Grizzly Bears", owner=0, zone="battlefield"))
    return g, g.state.battlefield[0]


def test_roles_attached_at_the_same_time_their_controller_chooses() -> None:
    """Two Roles of one player attached at once (as a token doubler would make them):
    that player chooses which to keep -- here the older one, Monster -- and the other
    goes to the graveyard as a state-based action."""
    agent = Keep("Monster Role")
    g, bears = _game(agent)
    made = create_roles(g, 0, [("Monster Role", bears), ("Royal Role", bears)])
    assert len(made) == 2 and len(agent.asked) == 1
    assert agent.asked[0].player == 0
    g.settle()
    names = [g.state.objects[o].card for o in g.state.battlefield]
    assert "Monster Role" in names and "Royal Role" not in names
    assert g.chars(bears).power == 3 and g.chars(bears).has("trample")
    assert any(isinstance(e.event, ev.DecisionMade) and e.event.kind == "role" for e in g.log)
    assert encode_state(fold(g.log)) == encode_state(g.state)


def test_roles_of_one_player_created_one_after_the_other_keep_the_newest() -> None:
    """Created by two separate instructions, the newest timestamp wins, no choice."""
    agent = Keep("Monster Role")
    g, bears = _game(agent)
    create_roles(g, 0, [("Monster Role", bears)])
    create_roles(g, 0, [("Royal Role", bears)])
    g.settle()
    names = [g.state.objects[o].card for o in g.state.battlefield]
    assert "Royal Role" in names and "Monster Role" not in names
    assert not agent.asked


def test_same_batch_different_players_is_no_choice() -> None:
    agent = Keep("Monster Role")
    g, bears = _game(agent)
    create_roles(g, 0, [("Monster Role", bears)])
    create_roles(g, 1, [("Cursed Role", bears)])
    g.settle()
    assert g.chars(bears).power == 2 and g.chars(bears).toughness == 2
    assert not agent.asked


def test_role_events_render_readably(registry) -> None:  # type: ignore[no-untyped-def]
    """Issue 6: "Splashy Spellcaster: Sorcerer Role created attached to Grizzly Bears";
    "Monster Role put into graveyard (newer Role from the same player)"."""
    from mtgk.render import render_log
    from mtgk.scenario.play import run_scenario
    from mtgk.scenario.reader import loads_scenarios

    [sc] = loads_scenarios("""
name: roles-render
players:
  alice:
    battlefield: [Splashy Spellcaster, {card: Grizzly Bears, as: bears},
      {card: Monster Role, token: true, attached_to: bears}, Mountain]
    hand: [Shock]
  bob: {}
actions:
  - {player: alice, cast: Shock, targets: [bob], answers: [{target: bears}]}
  - {resolve: all}
""")
    r = run_scenario(sc, registry)
    assert r.passed, r.reason
    text = "\n".join(render_log(r.log, registry))
    assert "Splashy Spellcaster: Sorcerer Role created attached to Grizzly Bears" in text
    assert "Monster Role put into alice's graveyard (newer Role from the same player)" in text
