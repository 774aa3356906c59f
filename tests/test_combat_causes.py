"""Combat damage is caused by the declarations that brought it about (CR 510.1: the
attacking and blocking creatures deal it as they were declared), so ``mtgk explain`` walks
a combat death back death -> damage -> (the blocks ->) the attack, instead of stopping at
the combat damage step (docs/debugging.md, "What a cause is").

* an attacker's damage to the player or planeswalker it attacks: the ``AttackersDeclared``;
* the damage between a blocked attacker and its blockers, either way: the
  ``BlockersDeclared`` (and a damage assignment asked for it is caused by it too);
* the blockers decisions (and the blocks declared with none): the ``AttackersDeclared``
  they answer.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mtgk.agents import HeuristicAgent, RandomAgent
from mtgk.cards.decks import builtin_decks, deck_lines, load_deck
from mtgk.cards.loading import load_registry
from mtgk.games.replay import new_header, run_from_header
from mtgk.log import events as ev
from mtgk.log.logfile import read_log
from tests.conftest import run_mtgk as run

REG = load_registry()
SCENARIO = Path(__file__).parent / "scenarios" / "combat_causes" / "scenario_combat_deaths.yaml"

pytestmark = pytest.mark.usefixtures("reset_structlog")


def _chain_lines(out: str) -> list[tuple[int, str]]:
    """The ``why`` lines of ``mtgk explain``'s output: (event, type), in order."""
    why = out.split("why:", 1)[1].split("consequences", 1)[0]
    return [(int(m[1]), m[2]) for m in re.finditer(r"^\s+(\d+) (\w+)\s", why, re.M)]


def test_mtgk_explain_walks_a_combat_death_back_to_the_damage_and_the_attack(
        tmp_path: Path) -> None:
    code, out, err = run("scenario", SCENARIO, "--log", tmp_path)
    assert code == 0, out + err
    [path] = tmp_path.glob("*.mtgk")
    log = read_log(path).envelopes
    deaths = [env.seq for env in log if isinstance(env.event, ev.ZoneChanged)
              and env.event.reason == "sba:lethal-damage"]
    assert len(deaths) == 3  # Kithkin Mourncaller (attacking), the two blockers
    attack = next(env.seq for env in log if isinstance(env.event, ev.AttackersDeclared))
    blocks = next(env.seq for env in log if isinstance(env.event, ev.BlockersDeclared))
    for death in deaths:
        code, out, err = run("explain", path, death)
        assert code == 0, err
        lines = _chain_lines(out)
        assert [t for _s, t in lines] == [
            "ZoneChanged", "DamageDealt", "BlockersDeclared", "DecisionMade",
            "AttackersDeclared", "DecisionMade", "StepBegan"], out
        damage = log[lines[1][0]].event
        assert isinstance(damage, ev.DamageDealt) and damage.combat
        assert lines[2][0] == blocks and lines[4][0] == attack
        assert "← started by this decision" in out and "blockers decision" in out
        assert "— declare attackers —  (context)" in out
        assert "combat damage —" not in out  # (not the step: the declarations)
    # the unblocked attacker's damage to Bob: caused by the attack
    hit = next(env for env in log if isinstance(env.event, ev.DamageDealt)
               and env.event.target < 0)
    code, out, _ = run("explain", path, hit.seq)
    assert [t for _s, t in _chain_lines(out)] == [
        "DamageDealt", "AttackersDeclared", "DecisionMade", "StepBegan"], out
    assert re.search(r"DamageDealt ← AttackersDeclared ← alice's attackers decision", out)


def _games() -> list[tuple[int, str, list[list[int]]]]:
    return [(2, "", []), (3, "", []), (4, "", []), (4, "two_headed_giant", [[0, 2], [1, 3]])]


@pytest.mark.parametrize("seed", range(8))
def test_every_combat_damage_is_caused_by_an_attack_or_block_declaration(seed: int) -> None:
    """Random games of the built-in decks (2-4 players and Two-Headed Giant, random and
    heuristic agents): every combat damage event's cause is the attack declaring its
    source attacking what it hits, or the blocks pairing its source and what it hits;
    every blockers decision's the attack."""
    decks = [load_deck(k, REG) for k in sorted(builtin_decks(REG)) if "/" not in k]
    n, variant, teams = _games()[seed % 4]
    lines = [deck_lines(decks[(seed + i) % len(decks)]) for i in range(n)]
    agent = RandomAgent if seed % 2 else HeuristicAgent
    h = new_header(REG, [f"p{i}" for i in range(n)], lines, seed, variant=variant, teams=teams)
    game = run_from_header(REG, h, [agent(seed * 10 + i) for i in range(n)])
    log = game.log
    checked = 0
    for env in log:
        e = env.event
        cause = log[env.cause].event if env.cause >= 0 else None
        if isinstance(e, ev.DecisionMade) and e.kind == "blockers":
            assert isinstance(cause, ev.AttackersDeclared), (env.seq, cause)
        if not (isinstance(e, ev.DamageDealt) and e.combat):
            continue
        if isinstance(cause, ev.AttackersDeclared):
            assert {a: t for a, t in cause.attacks}.get(e.source, e.target) == e.target, \
                (env.seq, e, cause)
        else:
            assert isinstance(cause, ev.BlockersDeclared), (env.seq, e, cause)
            pairs = [(b, a) for b, a in cause.blocks]
            assert (e.source, e.target) in pairs or (e.target, e.source) in pairs
        checked += 1
    assert checked
