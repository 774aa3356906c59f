"""The scenario runner's own semantics (shared/spec/scenario-format.md): failures it must report."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from mtgk.cards.definitions import Registry
from mtgk.scenario.board import card_key, known_card, printed_name
from mtgk.scenario.play import run_scenario
from mtgk.scenario.reader import loads_scenarios
from mtgk.scenario.runner import cli_main


def run(reg: Registry, text: str) -> tuple[bool, str]:
    [sc] = loads_scenarios(text)
    r = run_scenario(sc, reg)
    return r.passed, r.reason


SHOCK = """
name: shock
{strict}
players:
  alice: {{battlefield: [Mountain], hand: [Shock]}}
  bob: {{life: {life}, battlefield: [Grizzly Bears]}}
actions:
  - {{player: alice, cast: Shock, targets: [bob]{refused}}}
  - {{resolve: all{answers}}}
{more}
expect:
  - {{player: bob, life: {expect}}}
"""


def shock(strict: str = "", life: int = 20, refused: str = "", answers: str = "",
          more: str = "", expect: int = 18) -> str:
    return SHOCK.format(strict=strict, life=life, refused=refused, answers=answers,
                        more=more, expect=expect)


def test_a_passing_scenario_passes(registry: Registry) -> None:
    assert run(registry, shock()) == (True, "")


def test_a_wrong_expectation_fails_with_expected_and_got(registry: Registry) -> None:
    ok, why = run(registry, shock(expect=17))
    assert not ok and "expected 17, got 18" in why


def test_a_legal_action_marked_refused_fails(registry: Registry) -> None:
    ok, why = run(registry, shock(refused=", refused: true"))
    assert not ok and "should be refused" in why


def test_strict_unused_answer_fails(registry: Registry) -> None:
    ok, why = run(registry, shock(strict="strict: true", answers=", answers: [{may: yes}]"))
    assert not ok and "never used" in why
    ok, _ = run(registry, shock(answers=", answers: [{may: yes}]"))
    assert ok  # not strict: an unused answer is allowed


def test_actions_after_the_game_ended_fail(registry: Registry) -> None:
    text = shock(life=2, expect=0, more="  - {player: alice, play: Mountain}")
    ok, why = run(registry, text)
    assert not ok and "game ended" in why and "alice wins" in why


def test_an_ambiguous_name_in_an_expectation_fails(registry: Registry) -> None:
    text = """
name: two-bears
players:
  alice: {battlefield: [Grizzly Bears, Grizzly Bears]}
  bob: {}
expect:
  - {card: Grizzly Bears, zone: battlefield}
"""
    ok, why = run(registry, text)
    assert not ok and "ambiguous" in why


def test_an_action_whose_player_cannot_get_priority_fails(registry: Registry) -> None:
    # bob passes after alice's spell; alice then can't act again without Shock resolving
    text = """
name: no-priority
players:
  alice: {battlefield: [Mountain, Mountain], hand: [Shock, Shock]}
  bob: {battlefield: [Island], hand: []}
actions:
  - {player: alice, cast: Shock, targets: [bob]}
  - {player: bob, cast: Shock, targets: [alice]}
"""
    ok, why = run(registry, text)
    assert not ok and "Shock" in why


def test_cli_exit_status_and_closing_line(registry: Registry, tmp_path: pytest.TempPathFactory,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.yaml"  # type: ignore[operator]
    good.write_text(shock())
    bad = tmp_path / "bad.yaml"  # type: ignore[operator]
    bad.write_text(shock(expect=3))
    assert cli_main([str(good)], reg=registry) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "1 passed, 0 failed"
    assert cli_main([str(good), str(bad)], reg=registry) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "1 passed, 1 failed" and out[1].startswith("FAIL shock: ")
    invalid = tmp_path / "invalid.yaml"  # type: ignore[operator]
    invalid.write_text("name: x\nplayers: {alice: {}, bob: {}}\nbogus: 1\n")
    assert cli_main([str(invalid)], reg=registry) == 2
    assert "bogus" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# the second edition (docs/scenarios.md): each rule of the format the runner decides


def run_text(reg: Registry, text: str) -> tuple[bool, str]:
    [sc] = loads_scenarios(textwrap.dedent(text))
    r = run_scenario(sc, reg)
    return r.passed, r.reason


EMPTY_LIBRARIES = """
name: nobody-can-draw
players:
  alice: {}
  bob: {}
actions:
  - {pass_until: {turn: TURN, step: upkeep}}
"""


@pytest.mark.parametrize("turn", [3, 1_000_000_000])
def test_a_pass_until_the_game_never_reaches_fails_naming_the_end(registry: Registry,
                                                                   turn: int) -> None:
    """Bob draws from his empty library in turn 2's draw step and loses: turn 3's upkeep
    (or turn 1,000,000,000's) is never reached.  Main passed it, testing nothing."""
    ok, why = run_text(registry, EMPTY_LIBRARIES.replace("TURN", str(turn)))
    assert not ok
    assert why.startswith("actions[0]: the game ended at event ")
    assert "bob loses the game (drew from an empty library)" in why
    assert f"before turn {turn}'s upkeep step" in why


def test_checks_after_the_game_ended_still_run(registry: Registry) -> None:
    text = shock(life=2, expect=0, more="  - check: [{player: bob, lost: true}]")
    assert run(registry, text) == (True, "")
    text = shock(life=2, expect=0, more="  - check: [{player: bob, life: 5}]")
    ok, why = run(registry, text)
    assert not ok and "bob's life: expected 5, got 0" in why


def test_a_resolve_during_which_the_game_ends_stops_there(registry: Registry) -> None:
    """Third edition: a ``resolve`` during which the game ends stops there and does not
    fail; the expectations are judged on the ended game (the second Shock stays on the
    stack).  An action after it still fails (main failed the resolve as "cut short")."""
    text = """
    name: two-shocks
    players:
      alice: {battlefield: [Mountain, Mountain], hand: [Shock, Shock]}
      bob: {life: 2}
    actions:
      - {player: alice, cast: Shock, targets: [bob]}
      - {player: alice, cast: Shock, targets: [bob]}
      - {resolve: RESOLVE}
    expect:
      - {winner: alice}
      - {stack_size: 1}
    """
    for n in ("1", "2", "all"):
        assert run_text(registry, text.replace("RESOLVE", n)) == (True, ""), n
    after = text.replace("{resolve: RESOLVE}", "{resolve: all}\n      - {pass_until: "
                         "{turn: 2, step: upkeep}}")
    ok, why = run_text(registry, after)
    assert not ok and "the game ended at event" in why


GAME_OVER = """
name: decking
strict: true
players:
  alice: {library: [Plains, Plains]}
  bob: {library: BOB}
actions:
  - {pass_until: game_over}
expect:
  - {player: bob, lost: true}
  - {winner: alice}
"""


def test_pass_until_game_over(registry: Registry) -> None:
    """Third edition: ``pass_until: game_over`` passes (declaring no attackers) until the
    game ends -- a loss in a draw step, where nobody receives priority; it fails if the game
    hasn't ended within 20 turns.  (Main could not read it.)"""
    assert run_text(registry, GAME_OVER.replace("BOB", "[]")) == (True, "")
    ok, why = run_text(registry, GAME_OVER.replace("BOB", "[Island]"))
    assert ok, why  # bob draws once, then can't
    ok, why = run_text(registry, GAME_OVER.replace("strict: true\n", "")
                       .replace("alice: {library: [Plains, Plains]}",
                                                   "alice: {library: [" + "Plains, " * 30
                                                   + "Plains]}")
                       .replace("BOB", "[" + "Island, " * 30 + "Island]"))
    assert not ok and "has not ended within 20 turns" in why


TEAMS = """
name: team-results
variant: two_headed_giant
teams: [[alice, carol], [bob, dave]]
players:
  alice: {battlefield: [Mountain], hand: [Shock]}
  bob: {life: 2}
  carol: {}
  dave: {}
turn: {number: 2, active: alice}
actions:
  - {player: alice, cast: Shock, targets: [dave]}
  - {resolve: 1}
expect:
  - EXPECT
"""


def test_team_results_in_two_headed_giant(registry: Registry) -> None:
    """Third edition: ``{winner: P}`` holds when P's team won, ``lost: true`` when P's team
    lost (main: ``{winner: carol}`` failed with "got 'alice'")."""
    for good in ("{winner: carol}", "{winner: alice}", "{player: bob, lost: true}",
                 "{player: dave, lost: true}", "{player: carol, lost: false}"):
        assert run_text(registry, TEAMS.replace("EXPECT", good)) == (True, ""), good
    ok, why = run_text(registry, TEAMS.replace("EXPECT", "{winner: bob}"))
    assert not ok and "expected 'bob', got 'alice & carol'" in why
    ok, why = run_text(registry, TEAMS.replace("EXPECT", "{player: alice, lost: true}"))
    assert not ok


OPENING = """
name: opening
strict: true
players:
  alice:
    hand: [Plains, Plains, Plains, Plains, Plains, Plains, Plains]
    library: [Plains, Plains, Plains, Plains, Plains, Plains, Plains, Plains]
  bob:
    hand: [Island, Island, Island, Island, Island, Island, Island]
    library: [Island, Island, Island, Island, Island, Island, Island, Island]
PLAYERS
turn: {number: 1, active: alice, step: opening_hands}
actions:
ACTIONS
  - {pass_until: {turn: 1, step: precombat_main}}
expect:
  - {player: alice, hand_size: HAND}
"""
CAROL = """  carol:
    hand: [Swamp, Swamp, Swamp, Swamp, Swamp, Swamp, Swamp]
    library: [Swamp, Swamp, Swamp, Swamp, Swamp, Swamp, Swamp, Swamp]"""


def opening(players: str, actions: list[str], hand: int) -> str:
    return (OPENING.replace("PLAYERS\n", players + "\n" if players else "")
            .replace("ACTIONS", "\n".join(f"  - {a}" for a in actions))
            .replace("HAND", str(hand)))


def test_opening_hands_and_mulligans(registry: Registry) -> None:
    """Third edition: a scenario from the opening hands; the players keep or mulligan in
    rounds in turn order (CR 103.5), the London mulligan puts one card per mulligan on the
    bottom, the first mulligan of a multiplayer game is free (CR 103.5c)."""
    two = ["{player: alice, mulligan: true}", "{player: bob, keep: true}",
           "{player: alice, mulligan: true}", "{player: alice, keep: true, bottom: [Plains, "
           "Plains]}"]
    assert run_text(registry, opening("", two, 5)) == (True, "")
    ok, why = run_text(registry, opening("", [*two[:3], "{player: alice, keep: true, "
                                                        "bottom: [Plains]}"], 5))
    assert not ok and "puts 2 card(s) on the bottom" in why and "not 1" in why
    # out of turn order: bob decides in the first round before alice's second decision
    ok, why = run_text(registry, opening("", [two[0], two[2], two[1], two[3]], 5))
    assert not ok and "bob keeps or mulligans first" in why
    three = ["{player: alice, mulligan: true}", "{player: bob, keep: true}",
             "{player: carol, keep: true}", "{player: alice, keep: true}"]
    assert run_text(registry, opening(CAROL, three, 8)) == (True, "")  # (she draws: 103.8c)
    ok, why = run_text(registry, opening(CAROL, three[:3], 7))
    assert not ok and "alice keeps or mulligans now" in why

SEARCH = """
name: search
strict: true
players:
  alice:
    battlefield: [Wanderer's Twig, Mountain]
    library: [Shock, Forest]
  bob: {}
actions:
  - {player: alice, activate: Wanderer's Twig}
  - {resolve: all ANSWERS}
"""


def test_strict_an_unanswered_search_fails_even_with_one_card_to_find(registry: Registry
                                                                       ) -> None:
    """One basic land to find: still two answers (it, or nothing).  Main took "find nothing"
    in strict mode."""
    ok, why = run_text(registry, SEARCH.replace(" ANSWERS", ""))
    assert not ok and "unanswered search decision for alice" in why and "strict" in why
    assert run_text(registry, SEARCH.replace("ANSWERS", ", answers: [{choose: Forest}]")) \
        == (True, "")
    assert run_text(registry, SEARCH.replace("ANSWERS", ", answers: [{choose: []}]")) \
        == (True, "")
    ok, why = run_text(registry, SEARCH.replace("ANSWERS", ", answers: [{choose: Shock}]"))
    assert not ok and why == "actions[1].answers[0]: 'Shock' is not one of the choices: Forest"


def test_a_search_unanswered_outside_strict_finds_nothing(registry: Registry) -> None:
    text = SEARCH.replace("strict: true", "").replace(" ANSWERS", "") + \
        "expect:\n  - {player: alice, hand_size: 0, library_size: 2}\n"
    assert run_text(registry, text) == (True, "")


NO_ATTACKER = """
name: no-attacker
players:
  alice:
    battlefield: [{card: Grizzly Bears, sick: true}]
  bob:
    battlefield: [{card: Gray Ogre, tapped: true}]
actions:
  - {player: alice, attack: [Grizzly Bears]}
"""


def test_an_attack_no_creature_could_make_fails_with_the_reason(registry: Registry) -> None:
    ok, why = run_text(registry, NO_ATTACKER)
    assert not ok
    assert why == ("actions[0]: illegal attack: Grizzly Bears can't attack: it is summoning "
                   "sick (rule 508.1a)")


def test_a_block_no_creature_could_make_fails_with_the_reason(registry: Registry) -> None:
    text = NO_ATTACKER.replace("sick: true", "sick: false").replace(
        "  - {player: alice, attack: [Grizzly Bears]}",
        "  - {player: alice, attack: [Grizzly Bears]}\n"
        "  - {player: bob, block: {Gray Ogre: Grizzly Bears}}")
    ok, why = run_text(registry, text)
    assert not ok and why.startswith("actions[1]: illegal block: Gray Ogre can't block "
                                     "Grizzly Bears")


def test_an_attack_refused_and_then_accepted_as_refused_fails(registry: Registry) -> None:
    text = NO_ATTACKER.replace("sick: true", "sick: false").replace(
        "attack: [Grizzly Bears]}", "attack: [Grizzly Bears], refused: true}")
    ok, why = run_text(registry, text)
    assert not ok and why == "actions[0]: attack was accepted but should be refused"


@pytest.mark.parametrize(("action", "holds"), [
    ("{resolve: all, refused: true}", True),  # nothing to resolve
    ("{pass_until: {turn: 1, step: upkeep}, refused: true}", True),  # already past
    ("{pass_until: {turn: 1, step: end}, refused: true}", False),  # still to come
    ("{check: [{stack_size: 0}], refused: true}", False),  # not a game action
])
def test_refused_on_resolve_pass_until_and_check(registry: Registry, action: str,
                                                 holds: bool) -> None:
    text = f"""
name: refused
players:
  alice: {{}}
  bob: {{}}
actions:
  - {action}
"""
    ok, why = run_text(registry, text)
    assert ok is holds, why
    if not holds:
        assert "refused" in why


def test_a_refused_resolve_with_something_to_resolve_fails(registry: Registry) -> None:
    text = shock().replace("{resolve: all}", "{resolve: all, refused: true}")
    ok, why = run(registry, text)
    assert not ok and "resolve was accepted but should be refused" in why


@pytest.mark.parametrize("extra", [
    "variant: two_headed_giant\nteams: [[alice, carol], [bob, dave]]",
    "",
])
def test_more_than_two_players_play(registry: Registry, extra: str,
                                    tmp_path: pytest.TempPathFactory,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Three or four players (a free-for-all game) and Two-Headed Giant play (issue 16;
    they were refused as "not supported yet" before): the life totals start as the
    variant says, and a wrong one fails as a failed expectation, not as invalid."""
    players = "players: {alice: {}, bob: {}, carol: {}" + (", dave: {}}" if extra else "}")
    for life, passed in ((30 if extra else 20, True), (21, False)):
        text = f"name: many\n{extra}\n{players}\nexpect:\n  - {{player: alice, life: {life}}}\n"
        [sc] = loads_scenarios(text)
        r = run_scenario(sc, registry)
        assert r.passed is passed and not r.invalid, r.reason
        f = tmp_path / "many.yaml"  # type: ignore[operator]
        f.write_text(text)
        assert cli_main([str(f)], reg=registry) == (0 if passed else 1)
        out = capsys.readouterr().out
        assert out.splitlines()[-1] == ("1 passed, 0 failed" if passed else "0 passed, 1 failed")


def test_an_arrangement_naming_a_card_not_looked_at_fails(registry: Registry) -> None:
    text = """
    name: ponder
    players:
      alice: {battlefield: [Island], hand: [Ponder], library: [Forest, Island, Swamp, Plains]}
      bob: {}
    actions:
      - {player: alice, cast: Ponder}
      - {resolve: all, answers: [{arrange: {top: [Plains, Forest]}}]}
    """
    ok, why = run_text(registry, text)
    assert not ok
    assert why == ("actions[1].answers[0]: 'Plains' is not among the looked-at cards "
                   "(Forest, Island, Swamp)")
    ok, why = run_text(registry, text.replace("top: [Plains, Forest]", "bottom: [Forest]"))
    assert not ok and "none can go to the bottom" in why


def test_an_arrangement_left_unanswered(registry: Registry) -> None:
    """Strict: the arrangement is a decision with several answers.  Otherwise the cards
    stay as they were (the documented default)."""
    text = """
    name: ponder
    STRICT
    players:
      alice: {battlefield: [Island], hand: [Ponder], library: [Forest, Island, Swamp, Plains]}
      bob: {}
    actions:
      - {player: alice, cast: Ponder}
      - {resolve: all}
    expect:
      - {player: alice, library_top: [Island, Swamp, Plains]}
    """
    ok, why = run_text(registry, text.replace("STRICT", "strict: true"))
    assert not ok and "unanswered choose decision for alice" in why and "{arrange: ...}" in why
    assert run_text(registry, text.replace("STRICT", "")) == (True, "")


def test_a_word_that_is_not_a_choice_fails_listing_the_choices(registry: Registry) -> None:
    text = """
    name: pestermite
    players:
      alice: {battlefield: [Island, Island, Island], hand: [Pestermite]}
      bob: {battlefield: [Gray Ogre]}
    actions:
      - {player: alice, cast: Pestermite}
      - {resolve: all, answers: [{target: Gray Ogre}, {choose: flip}]}
    """
    ok, why = run_text(registry, text)
    assert not ok
    assert why == "actions[1].answers[1]: 'flip' is not one of the choices: tap, untap, neither"


def test_an_answer_of_the_next_action_serves_a_decision_of_one_under_way(registry: Registry
                                                                          ) -> None:
    """An attack's trigger is put on the stack as the attack is under way; its target may be
    answered on the attack, or on the action after it; in strict mode an answer that
    serves nothing still fails."""
    text = """
    name: surgespanner
    strict: true
    players:
      alice: {battlefield: [Surgespanner, Island, Island]}
      bob: {battlefield: [Gray Ogre]}
    actions:
      - {player: alice, attack: {Surgespanner: bob} ON_ATTACK}
      - {resolve: all, answers: [{pay: yes} ON_RESOLVE]}
    expect:
      - {card: Gray Ogre, zone: hand}
    """
    target = ", {target: Gray Ogre}"
    on_attack = text.replace(" ON_ATTACK", f", answers: [{target[2:]}]").replace(" ON_RESOLVE", "")
    assert run_text(registry, on_attack) == (True, "")
    on_resolve = text.replace(" ON_ATTACK", "").replace(" ON_RESOLVE", target)
    assert run_text(registry, on_resolve) == (True, "")
    twice = text.replace(" ON_ATTACK", f", answers: [{target[2:]}]").replace(" ON_RESOLVE",
                                                                             target)
    ok, why = run_text(registry, twice)
    assert not ok and "answer {target: 'Gray Ogre'} was never used (strict)" in why


def test_a_setup_token_named_by_its_registry_name_is_called_by_its_printed_name(
        registry: Registry) -> None:
    text = """
    name: elementals
    players:
      alice:
        battlefield: [{card: Elemental (Hoofprints), token: true}, {card: Elemental, token: true}]
      bob: {}
    expect:
      - {count: {name: Elemental, token: true}, equals: 2}
      - {count: {name: Elemental (Hoofprints)}, equals: 1}
    """
    assert run_text(registry, text) == (True, "")
    ok, why = run_text(registry, text + "  - {card: Elemental, power: 4}\n")
    assert not ok and "'Elemental' is ambiguous: 2 objects in battlefield" in why


def test_pass_until_a_first_strike_damage_step_a_combat_does_not_have_fails(
        registry: Registry) -> None:
    [sc] = loads_scenarios("""
name: no-first-strike
players:
  alice: {battlefield: [Grizzly Bears]}
  bob: {}
actions:
  - {player: alice, attack: [Grizzly Bears]}
  - {pass_until: {turn: 1, step: first_strike_damage}}
""")
    r = run_scenario(sc, registry)
    assert not r.passed
    assert r.reason.startswith("actions[1]: the game passed turn 1 without a first strike "
                               "damage step (that step happens only when")


def test_a_redirect_to_a_planeswalker_that_is_no_choice_fails_naming_the_choices(
        registry: Registry) -> None:
    text = """
    name: redirect
    players:
      alice: {battlefield: [Mountain, Garruk Wildspeaker], hand: [Shock]}
      bob: {battlefield: [Jace Beleren]}
    actions:
      - {player: alice, cast: Shock, targets: [bob]}
      - {resolve: all, answers: [{redirect: Garruk Wildspeaker}]}
    """
    ok, why = run_text(registry, text)
    assert not ok
    assert why == ("actions[1].answers[0]: 'Garruk Wildspeaker' is not one of the choices: "
                   "none, Jace Beleren")


SHARED_DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="the shared card data is not here")
def test_every_card_and_token_of_the_shared_data_can_be_named(registry: Registry) -> None:
    """The hidden scenarios name the cards and tokens of the shared data files."""
    names: set[str] = set()
    for f in ("tokens.json", "lorwyn.json", "core.json", "eldraine-roles.json"):
        data = json.loads((SHARED_DATA / f).read_text())
        cards = data if isinstance(data, list) else data["cards"] + data["roles"]
        for c in cards:
            names.add(c["name"])
            names.update(face["name"] for face in c.get("card_faces") or [])
    assert len(names) > 350
    unknown = sorted(n for n in names if not known_card(registry)(n))
    assert unknown == []
    tokens = json.loads((SHARED_DATA / "tokens.json").read_text())
    for t in tokens:  # each token can be set up, and is called by its name
        key = card_key(registry, t["name"])
        assert key is not None and printed_name(registry, key) == t["name"]
