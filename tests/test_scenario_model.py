"""Tests of the scenario file model and loader (mtgk.scenario.model, .reader, .validation)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from mtgk.scenario import (
    Action,
    CardEntry,
    CountFilter,
    Scenario,
    ScenarioFileError,
    is_scenario_test_file,
    iter_scenario_files,
    load_scenarios,
    loads_scenarios,
)

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
EXAMPLES = SHARED / "scenarios" / "examples"
DATA = SHARED / "data"
KERNEL_DATA = REPO / "kernel" / "data"

needs_examples = pytest.mark.skipif(not EXAMPLES.is_dir(), reason="shared/ examples not found")
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="shared/ card data not found")


def example_files() -> list[Path]:
    return sorted(EXAMPLES.glob("*.yaml")) if EXAMPLES.is_dir() else []


def load(text: str, known_card=None, file: str = "f.yaml") -> list[Scenario]:
    return loads_scenarios(textwrap.dedent(text), file, known_card)


def error(text: str, known_card=None, file: str = "f.yaml") -> ScenarioFileError:
    with pytest.raises(ScenarioFileError) as info:
        load(text, known_card, file)
    return info.value


BASE = """\
name: base
players:
  alice:
    battlefield: [Forest, {card: Jace Beleren, as: jace, counters: {loyalty: 3}}]
    hand: [Shock]
  bob:
    battlefield: [Grizzly Bears]
"""


def with_actions(*lines: str) -> str:
    return BASE + "actions:\n" + "".join(f"  - {line}\n" for line in lines)


def with_expect(*lines: str) -> str:
    return BASE + "expect:\n" + "".join(f"  - {line}\n" for line in lines)


# ---------------------------------------------------------------------------
# the shared examples
# ---------------------------------------------------------------------------


@needs_examples
def test_examples_exist() -> None:
    assert len(example_files()) >= 9


@needs_examples
@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.name)
def test_every_example_loads(path: Path) -> None:
    scenarios = load_scenarios(path)
    assert scenarios
    for s in scenarios:
        assert s.file == str(path)
        assert 2 <= len(s.players) <= 4
        assert s.turn.active in s.players
        assert s.strict is True
        assert s.actions and s.expect
        for action in s.actions:
            assert isinstance(action, Action)


@needs_examples
def test_examples_content_is_normalised() -> None:
    pw = load_scenarios(EXAMPLES / "planeswalkers.yaml")
    names = [s.name for s in pw]
    assert len(pw) == 7 and len(set(names)) == 7
    by_name = {s.name: s for s in pw}

    redirect = by_name["shock-redirected-to-planeswalker"]
    first = redirect.actions[0]
    assert (first.verb, first.card, first.targets, first.refused) == (
        "cast",
        "Shock",
        ["Jace Beleren"],
        True,
    )
    ans = redirect.actions[2].answers[0]
    assert (ans.kind, ans.value, ans.player) == ("redirect", "Jace Beleren", "alice")
    assert redirect.actions[2].resolve == "all"
    log_exp = redirect.expect[2]
    assert (log_exp.log_has, log_exp.log_count, log_exp.count) == ("DamageRedirected", 1, None)
    assert (redirect.expect[3].log_has, redirect.expect[3].log_min) == ("CounterRemoved", 1)

    declined = by_name["shock-redirect-declined"].actions[1].answers[0]
    assert (declined.kind, declined.value, declined.player) == ("redirect", None, "alice")

    garruk = by_name["garruk-minus-one-makes-a-beast"]
    assert garruk.actions[0].ability == "-1"
    count = garruk.expect[1]
    assert count.count == CountFilter(
        name="Beast", controller="alice", token=True, zone="battlefield"
    )
    assert count.equals == 1

    combat = by_name["trampler-blocked-while-attacking-planeswalker"]
    assert combat.actions[0].attackers == {"Oakgnarl Warrior": "Jace Beleren"}
    assert combat.actions[1].blocks == {"Grizzly Bears": "Oakgnarl Warrior"}
    pu = combat.actions[2].pass_until
    assert pu is not None and (pu.turn, pu.step) == (1, "postcombat_main")
    assign = combat.actions[2].answers[0]
    assert (assign.kind, assign.value) == ("assign", {"Grizzly Bears": 2, "Jace Beleren": 3})
    jace = combat.players["bob"].battlefield[0]
    assert jace == CardEntry(card="Jace Beleren", counters={"loyalty": 1})

    chandra = by_name["two-planeswalkers-same-subtype-both-die"]
    assert chandra.players["alice"].hand[0].alias == "chandra_2"
    assert chandra.actions[0].card == "chandra_2"

    roles = load_scenarios(EXAMPLES / "roles.yaml")
    role = roles[1].players["alice"].battlefield[2]
    assert (role.card, role.token, role.attached_to) == ("Monster Role", True, "bears")

    champion = load_scenarios(EXAMPLES / "champion.yaml")[0]
    check = champion.actions[2]
    assert check.verb == "check" and [e.card for e in check.check] == [
        "Nova Chaser",
        "Flamekin Brawler",
    ]
    assert check.check[1].where == "actions[2].check[1]"


@needs_examples
@needs_data
def test_examples_name_only_known_cards() -> None:
    names: set[str] = set()
    for path in DATA.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        cards = data if isinstance(data, list) else data.get("roles", []) + data.get("cards", [])
        for card in cards:
            names.add(card["name"])
            if " // " in card["name"]:
                names.update(card["name"].split(" // "))
    for path in example_files():
        assert load_scenarios(path, known_card=names.__contains__)


# ---------------------------------------------------------------------------
# file layout
# ---------------------------------------------------------------------------


def test_single_scenario_defaults() -> None:
    [s] = load(
        """\
        name: minimal
        players:
          alice: {}
          bob:
        """
    )
    assert s.name == "minimal" and s.description == "" and s.strict is False
    assert s.player_names == ["alice", "bob"]
    assert s.turn.number == 1 and s.turn.active == "alice" and s.turn.step == "precombat_main"
    assert s.players["alice"].life == 20 and s.players["bob"].hand == []
    assert s.actions == [] and s.expect == []


def test_players_keep_turn_order() -> None:
    [s] = load(
        """\
        name: order
        players:
          zed: {life: 7}
          amy: {}
        turn: {number: 4, step: end}
        """
    )
    assert s.player_names == ["zed", "amy"]
    assert s.turn.active == "zed" and s.turn.number == 4 and s.turn.step == "end"
    assert s.players["zed"].life == 7


def test_scenarios_list_file(tmp_path: Path) -> None:
    path = tmp_path / "many.yaml"
    path.write_text(
        textwrap.dedent(
            """\
            scenarios:
              - name: one
                players: {a: {}, b: {}}
              - name: two
                players: {a: {}, b: {}}
                turn: {active: b}
            """
        ),
        encoding="utf-8",
    )
    one, two = load_scenarios(path)
    assert (one.name, two.name) == ("one", "two")
    assert two.turn.active == "b"
    assert one.file == two.file == str(path)


def test_duplicate_scenario_names_are_an_error() -> None:
    err = error(
        """\
        scenarios:
          - {name: same, players: {a: {}, b: {}}}
          - {name: same, players: {a: {}, b: {}}}
        """
    )
    assert "duplicate scenario name 'same'" in str(err)
    assert err.scenario == "same" and err.path == "scenarios[1].name"


def test_scenarios_key_holds_nothing_else() -> None:
    err = error("scenarios: []\nname: x\n")
    assert "unknown key `name`" in str(err)


def test_unnamed_scenario_in_list_is_located_by_index() -> None:
    err = error(
        """\
        scenarios:
          - {name: a, players: {x: {}, y: {}}}
          - {players: {x: {}, y: {}}}
        """
    )
    assert err.path == "scenarios[1].name"
    assert "missing required key `name`" in str(err)


@pytest.mark.parametrize(
    "players",
    ["{alice: {}}", "{a: {}, b: {}, c: {}, d: {}, e: {}}", "{}"],
)
def test_two_to_four_players(players: str) -> None:
    err = error(f"name: p\nplayers: {players}\n")
    assert err.path == "players" and "two to four players" in str(err)


def test_turn_active_must_be_a_player() -> None:
    err = error(BASE + "turn: {active: carol}\n")
    assert err.path == "turn.active" and "unknown player 'carol'" in str(err)


def test_invalid_step_names_the_allowed_steps() -> None:
    err = error(BASE + "turn: {step: main}\n")
    assert err.path == "turn.step"
    assert "'main'" in str(err) and "precombat_main" in str(err)


def test_empty_and_non_mapping_files() -> None:
    assert "empty" in str(error(""))
    assert "expected a scenario mapping" in str(error("- a\n- b\n"))


def test_invalid_yaml_and_duplicate_yaml_keys(tmp_path: Path) -> None:
    err = error(BASE + "actions: [\n")
    assert str(err).startswith("f.yaml: invalid YAML")
    err = error(BASE + "name: again\n")
    assert "duplicate key 'name'" in str(err)
    with pytest.raises(ScenarioFileError, match="cannot read"):
        load_scenarios(tmp_path / "missing.yaml")


# ---------------------------------------------------------------------------
# error messages: file, scenario, key path, what was expected
# ---------------------------------------------------------------------------


def test_unknown_key_names_file_scenario_and_key_path(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        textwrap.dedent(
            """\
            name: has-a-typo
            players:
              alice:
                battlefield: [Forest, Forest, {card: Garruk Wildspeaker, countres: {loyalty: 3}}]
              bob: {}
            """
        ),
        encoding="utf-8",
    )
    with pytest.raises(ScenarioFileError) as info:
        load_scenarios(path)
    err = info.value
    message = str(err)
    assert str(path) in message
    assert "has-a-typo" in message
    assert "players.alice.battlefield[2].countres" in message
    assert "unknown key `countres`" in message
    assert "counters" in message  # lists the allowed keys
    assert (err.file, err.scenario, err.path) == (
        str(path),
        "has-a-typo",
        "players.alice.battlefield[2].countres",
    )


def test_unknown_top_level_key() -> None:
    err = error(BASE + "expectations: []\n")
    assert err.path == "expectations" and "unknown key `expectations`" in str(err)


def test_wrong_type_names_path_and_expected_type() -> None:
    err = error(BASE.replace("counters: {loyalty: 3}", "counters: 3"))
    assert err.path == "players.alice.battlefield[1].counters"
    assert "expected a mapping" in str(err) and "f.yaml: scenario 'base'" in str(err)


def test_wrong_type_inside_a_mapping_names_the_key() -> None:
    err = error(BASE.replace("{loyalty: 3}", "{loyalty: three}"))
    assert err.path == "players.alice.battlefield[1].counters.loyalty"
    assert "expected an integer" in str(err) and "'three'" in str(err)


def test_negative_counter_is_an_error() -> None:
    err = error(BASE.replace("{loyalty: 3}", "{loyalty: -1}"))
    assert err.path == "players.alice.battlefield[1].counters.loyalty"
    assert ">= 0" in str(err)


def test_card_entry_of_wrong_type() -> None:
    err = error(BASE.replace("hand: [Shock]", "hand: [3]"))
    assert err.path == "players.alice.hand[0]"


def test_card_entry_without_card() -> None:
    err = error(BASE.replace("hand: [Shock]", "hand: [{as: s}]"))
    assert err.path == "players.alice.hand[0].card" and "missing required key" in str(err)


def test_nested_expectation_type_error_path() -> None:
    err = error(with_actions("{check: [{player: alice, life: lots}]}"))
    assert err.path == "actions[0].check[0].life"


def test_key_with_spaces_in_path() -> None:
    err = error(with_actions("{player: alice, attack: {Grizzly Bears: 3}}"))
    assert err.path == "actions[0].attack['Grizzly Bears']"


# ---------------------------------------------------------------------------
# card entries and known cards
# ---------------------------------------------------------------------------


def test_bare_string_and_mapping_card_entries() -> None:
    [s] = load(
        """\
        name: entries
        players:
          alice:
            battlefield:
              - Forest
              - {card: Grizzly Bears, as: bears, tapped: true, sick: true, counters: {"+1/+1": 2}}
              - {card: Monster Role, token: true, attached_to: bears, controller: bob}
            exile: [{card: Oakgnarl Warrior, face_down: true, exiled_with: bears}]
            library: [Island, Forest]
          bob: {}
        """
    )
    alice = s.players["alice"]
    assert alice.battlefield[0] == CardEntry(card="Forest")
    bears = alice.battlefield[1]
    assert (bears.card, bears.alias, bears.tapped, bears.sick, bears.counters) == (
        "Grizzly Bears",
        "bears",
        True,
        True,
        {"+1/+1": 2},
    )
    assert bears.ref == "bears" and alice.battlefield[0].ref == "Forest"
    role = alice.battlefield[2]
    assert (role.token, role.attached_to, role.controller) == (True, "bears", "bob")
    hidden = alice.exile[0]
    assert hidden.face_down and hidden.exiled_with == "bears"
    assert [c.card for c in alice.library] == ["Island", "Forest"]
    assert set(s.aliases()) == {"bears"}


def test_battlefield_only_keys_elsewhere_are_errors() -> None:
    err = error(BASE.replace("hand: [Shock]", "hand: [{card: Shock, tapped: true}]"))
    assert err.path == "players.alice.hand[0].tapped"
    err = error(BASE.replace("hand: [Shock]", "hand: [{card: Shock, face_down: true}]"))
    assert err.path == "players.alice.hand[0].face_down"


def test_setup_controller_must_be_a_player() -> None:
    err = error(BASE.replace("[Grizzly Bears]", "[{card: Grizzly Bears, controller: carol}]"))
    assert err.path == "players.bob.battlefield[0].controller"


def test_duplicate_alias_is_an_error() -> None:
    err = error(BASE.replace("[Grizzly Bears]", "[{card: Grizzly Bears, as: jace}]"))
    assert err.path == "players.bob.battlefield[0].as" and "duplicate alias 'jace'" in str(err)


def test_alias_may_not_be_a_player_name() -> None:
    err = error(BASE.replace("[Grizzly Bears]", "[{card: Grizzly Bears, as: alice}]"))
    assert "player" in str(err)


KNOWN = {"Forest", "Jace Beleren", "Shock", "Grizzly Bears", "Lightning Bolt"}


def test_unknown_card_in_setup() -> None:
    known = KNOWN - {"Grizzly Bears"}
    err = error(BASE, known_card=known.__contains__)
    assert err.path == "players.bob.battlefield[0]"
    assert "unknown card 'Grizzly Bears'" in str(err) and "f.yaml" in str(err)
    err = error(BASE, known_card=(KNOWN - {"Jace Beleren"}).__contains__)
    assert err.path == "players.alice.battlefield[1].card"


def test_unknown_card_in_actions_and_expectations() -> None:
    assert load(
        with_actions("{player: alice, cast: Shock, targets: [jace, bob]}"), KNOWN.__contains__
    )
    err = error(with_actions("{player: alice, cast: Shok}"), KNOWN.__contains__)
    assert err.path == "actions[0].cast" and "'Shok'" in str(err)
    err = error(with_actions("{player: alice, cast: Shock, targets: [Bears]}"), KNOWN.__contains__)
    assert err.path == "actions[0].targets[0]"
    err = error(with_expect("{card: Grizly Bears, zone: graveyard}"), KNOWN.__contains__)
    assert err.path == "expect[0].card"
    # without a card database any name is accepted
    assert load(with_expect("{card: Grizly Bears, zone: graveyard}"))


# ---------------------------------------------------------------------------
# actions
# ---------------------------------------------------------------------------


def test_action_verbs_are_normalised() -> None:
    [s] = load(
        with_actions(
            "{player: alice, play: Forest}",
            "{player: alice, cast: Shock, targets: [bob], modes: [1, 3], x: 2, evoke: true}",
            "{player: alice, activate: jace, ability: '+2'}",
            "{player: alice, attack: [Grizzly Bears]}",
            "{player: bob, block: {}}",
            "{resolve: 2}",
            "{pass_until: {turn: 2, step: upkeep}}",
            "{check: [{stack_size: 0}]}",
        )
    )
    a = s.actions
    assert [x.verb for x in a] == [
        "play",
        "cast",
        "activate",
        "attack",
        "block",
        "resolve",
        "pass_until",
        "check",
    ]
    assert a[0].card == "Forest" and a[0].player == "alice"
    assert (a[1].targets, a[1].modes, a[1].x, a[1].evoke) == (["bob"], [1, 3], 2, True)
    assert (a[2].card, a[2].ability) == ("jace", "+2")
    assert a[3].attackers == {"Grizzly Bears": None}
    assert a[4].verb == "block" and a[4].blocks == {}
    assert a[5].resolve == 2 and a[5].player is None
    assert a[6].pass_until is not None and a[6].pass_until.step == "upkeep"
    assert a[7].check[0].stack_size == 0
    assert a[1].where == "actions[1]"


def test_action_with_two_verbs_is_an_error() -> None:
    err = error(with_actions("{player: alice, cast: Shock, play: Forest}"))
    assert err.path == "actions[0]" and "exactly one verb" in str(err)


def test_action_without_verb_is_an_error() -> None:
    err = error(with_actions("{player: alice, targets: [bob]}"))
    assert err.path == "actions[0]" and "cast" in str(err)


@pytest.mark.parametrize(
    "line, key",
    [
        ("{player: alice, cast: Shock, ability: '+1'}", "ability"),
        ("{player: alice, play: Forest, targets: [bob]}", "targets"),
        ("{player: alice, activate: jace, evoke: true}", "evoke"),
        ("{resolve: all, x: 3}", "x"),
        ("{player: alice, attack: [Forest], modes: [1]}", "modes"),
    ],
)
def test_verb_with_disallowed_extra_key(line: str, key: str) -> None:
    err = error(with_actions(line))
    assert err.path == f"actions[0].{key}"
    assert f"`{key}` is not allowed with" in str(err)


def test_unknown_action_key() -> None:
    err = error(with_actions("{player: alice, cast: Shock, target: [bob]}"))
    assert err.path == "actions[0].target" and "unknown key `target`" in str(err)


def test_refused_player_and_answers_allowed_on_any_verb() -> None:
    [s] = load(
        with_actions(
            "{player: alice, play: Forest, refused: true, answers: [{may: yes}]}",
            "{player: bob, resolve: all, refused: true}",
        )
    )
    assert s.actions[0].refused and s.actions[0].answers[0].value is True
    assert s.actions[1].refused and s.actions[1].player == "bob"


def test_action_player_must_be_a_player() -> None:
    err = error(with_actions("{player: carol, cast: Shock}"))
    assert err.path == "actions[0].player" and "unknown player 'carol'" in str(err)


@pytest.mark.parametrize("value", ["0", "-1", "some", "1.5", "true"])
def test_resolve_must_be_positive_or_all(value: str) -> None:
    err = error(with_actions(f"{{resolve: {value}}}"))
    assert err.path == "actions[0].resolve"


@pytest.mark.parametrize(
    "written, expected",
    [
        ('"+1"', "+1"),
        ("+1", "+1"),  # unquoted: YAML reads the integer 1, the loader keeps the sign
        ('"-1"', "-1"),
        ("-1", "-1"),
        ("-X", "-X"),
        ('"\u22122"', "-2"),
        ("0", "0"),
        ("2", 2),
        ('"3"', 3),
    ],
)
def test_ability_normalisation(written: str, expected: object) -> None:
    [s] = load(with_actions(f"{{player: alice, activate: jace, ability: {written}}}"))
    assert s.actions[0].ability == expected


def test_invalid_ability() -> None:
    err = error(with_actions("{player: alice, activate: jace, ability: plus}"))
    assert err.path == "actions[0].ability"


def test_attack_mapping_and_invalid_attack() -> None:
    [s] = load(with_actions("{player: alice, attack: {Grizzly Bears: jace}}"))
    assert s.actions[0].attackers == {"Grizzly Bears": "jace"}
    err = error(with_actions("{player: alice, attack: Grizzly Bears}"))
    assert err.path == "actions[0].attack"


def test_pass_until_needs_turn_and_step() -> None:
    err = error(with_actions("{pass_until: {turn: 2}}"))
    assert err.path == "actions[0].pass_until.step"
    err = error(with_actions("{pass_until: {turn: 2, step: lunch}}"))
    assert err.path == "actions[0].pass_until.step"


# ---------------------------------------------------------------------------
# answers
# ---------------------------------------------------------------------------


def answers_of(*answers: str) -> list:
    [s] = load(with_actions("{resolve: all, answers: [" + ", ".join(answers) + "]}"))
    return [(a.kind, a.value, a.player) for a in s.actions[0].answers]


def test_redirect_no_is_normalised_to_no_redirect() -> None:
    assert answers_of("{redirect: no}") == [("redirect", None, None)]
    assert answers_of('{redirect: "no"}') == [("redirect", None, None)]
    assert answers_of("{redirect: jace, player: alice}") == [("redirect", "jace", "alice")]
    err = error(with_actions("{resolve: all, answers: [{redirect: yes}]}"))
    assert err.path == "actions[0].answers[0].redirect"


def test_answer_values_are_normalised() -> None:
    got = answers_of(
        "{may: yes}",
        "{may: no}",
        "{champion: none}",
        "{champion: Grizzly Bears}",
        "{clash: bottom, player: bob}",
        "{hideaway: Forest}",
        "{target: bob}",
        "{targets: [jace, bob]}",
        "{mode: 2}",
        "{modes: [1, 3]}",
        "{x: 4}",
        "{choose: Elf}",
        "{choose: [Forest, Shock]}",
        "{order: [jace, jace]}",
        "{assign: {Grizzly Bears: 2, bob: 1}}",
        "{discard: [Shock]}",
    )
    assert got == [
        ("may", True, None),
        ("may", False, None),
        ("champion", None, None),
        ("champion", "Grizzly Bears", None),
        ("clash", "bottom", "bob"),
        ("hideaway", "Forest", None),
        ("target", "bob", None),
        ("targets", ["jace", "bob"], None),
        ("mode", 2, None),
        ("modes", [1, 3], None),
        ("x", 4, None),
        ("choose", ["Elf"], None),
        ("choose", ["Forest", "Shock"], None),
        ("order", ["jace", "jace"], None),
        ("assign", {"Grizzly Bears": 2, "bob": 1}, None),
        ("discard", ["Shock"], None),
    ]


@pytest.mark.parametrize(
    "answer, path, fragment",
    [
        ("{may: yes, clash: top}", "actions[0].answers[0]", "exactly one decision key"),
        ("{player: alice}", "actions[0].answers[0]", "needs one of the keys"),
        ("{clash: middle}", "actions[0].answers[0].clash", "'middle'"),
        ("{pick: Forest}", "actions[0].answers[0].pick", "unknown key `pick`"),
        ("{may: yes, player: carol}", "actions[0].answers[0].player", "unknown player"),
        ("{mode: 0}", "actions[0].answers[0].mode", ">= 1"),
        ("{may: perhaps}", "actions[0].answers[0].may", "yes or no"),
        ("{targets: bob}", "actions[0].answers[0].targets", "expected a list"),
    ],
)
def test_invalid_answers(answer: str, path: str, fragment: str) -> None:
    err = error(with_actions(f"{{resolve: all, answers: [{answer}]}}"))
    assert err.path == path
    assert fragment in str(err)


# ---------------------------------------------------------------------------
# expectations
# ---------------------------------------------------------------------------


def test_expectations_are_parsed() -> None:
    [s] = load(
        with_expect(
            "{player: alice, life: 18, hand_size: 0, library_top: [Forest]}",
            "{player: bob, lost: true}",
            "{winner: alice}",
            "{card: jace, zone: battlefield, loyalty: 3, counters: {loyalty: 3}, tapped: false,"
            " controller: alice, owner: alice, types: [Planeswalker], has_subtypes: [Jace],"
            " lacks_subtypes: [Elf], lacks_ability: flying, face_down: false}",
            "{card: Grizzly Bears, power: 2, toughness: 2, has_ability: vigilance, attached_to: jace}",
            "{count: {name: Beast, zone: none, token: true, type: Creature, subtype: Beast,"
            " controller: alice, owner: alice}, equals: 0}",
            "{stack_size: 0}",
            "{log_has: DamageDealt, min: 1, max: 2}",
        )
    )
    e = s.expect
    assert e[0].items() == {
        "player": "alice",
        "life": 18,
        "hand_size": 0,
        "library_top": ["Forest"],
    }
    assert e[1].lost is True and e[2].winner == "alice"
    assert e[3].loyalty == 3 and e[3].types == ["Planeswalker"] and e[3].tapped is False
    assert e[4].power == 2 and e[4].attached_to == "jace"
    assert e[5].count is not None and e[5].count.zone == "none" and e[5].equals == 0
    assert e[6].stack_size == 0
    assert (e[7].log_has, e[7].log_count, e[7].log_min, e[7].log_max) == ("DamageDealt", None, 1, 2)
    assert e[7].where == "expect[7]"


@pytest.mark.parametrize(
    "expectation, path, fragment",
    [
        ("{life: 3}", "expect[0].life", "`life` needs `player`"),
        ("{player: alice}", "expect[0].player", "`player` needs one of"),
        ("{card: jace}", "expect[0].card", "`card` needs one of"),
        ("{loyalty: 3}", "expect[0].loyalty", "`loyalty` needs `card`"),
        ("{equals: 1}", "expect[0].equals", "`equals` needs a `count`"),
        ("{count: {name: Beast}}", "expect[0].count", "`count` needs `equals`"),
        ("{count: 2}", "expect[0].count", "FILTER"),
        ("{log_has: TokenCreated}", "expect[0].log_has", "needs `count`, `min` or `max`"),
        ("{log_has: TokenCreated, count: 1, max: 2}", "expect[0].count", "can't be combined"),
        ("{log_has: TokenCreated, count: {name: Beast}}", "expect[0].count", "number of events"),
        ("{min: 1}", "expect[0].min", "`min` needs `log_has`"),
        ("{card: jace, zone: play}", "expect[0].zone", "'play'"),
        ("{count: {name: B, zone: deck}, equals: 1}", "expect[0].count.zone", "'deck'"),
        ("{count: {colour: red}, equals: 1}", "expect[0].count.colour", "unknown key"),
        ("{card: jace, loyalty: three}", "expect[0].loyalty", "expected an integer"),
        ("{card: jace, colour: red}", "expect[0].colour", "unknown key `colour`"),
        ("{player: carol, life: 3}", "expect[0].player", "unknown player 'carol'"),
        ("{winner: carol}", "expect[0].winner", "unknown player"),
        ("{card: jace, controller: carol}", "expect[0].controller", "unknown player"),
        ("{count: {owner: carol}, equals: 1}", "expect[0].count.owner", "unknown player"),
        ("{}", "expect[0]", "at least one key"),
    ],
)
def test_invalid_expectations(expectation: str, path: str, fragment: str) -> None:
    err = error(with_expect(expectation))
    assert err.path == path
    assert fragment in str(err)
    assert str(err).startswith(f"f.yaml: scenario 'base': {path}: ")


# ---------------------------------------------------------------------------
# finding files
# ---------------------------------------------------------------------------


def test_iter_scenario_files(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z.yaml").write_text("x", encoding="utf-8")
    (tmp_path / "b" / "a.yaml").write_text("x", encoding="utf-8")
    (tmp_path / "b" / "notes.txt").write_text("x", encoding="utf-8")
    (tmp_path / "a.yaml").write_text("x", encoding="utf-8")
    single = tmp_path / "one.yml"
    single.write_text("x", encoding="utf-8")
    found = iter_scenario_files([single, tmp_path])
    assert found[0] == single
    assert found[1:] == [tmp_path / "a.yaml", tmp_path / "b" / "a.yaml", tmp_path / "b" / "z.yaml"]
    assert iter_scenario_files([tmp_path / "a.yaml", str(tmp_path / "a.yaml")]) == [
        tmp_path / "a.yaml"
    ]
    with pytest.raises(ScenarioFileError):
        iter_scenario_files([tmp_path / "nope"])


@pytest.mark.parametrize(
    "name, expected",
    [
        ("scenario_shock.yaml", True),
        ("shock.scenario.yaml", True),
        ("dir/scenario_x.yaml", True),
        ("shock.yaml", False),
        ("scenario_shock.yml", False),
        ("my_scenario.yaml", False),
        ("scenario.yaml", False),
    ],
)
def test_is_scenario_test_file(name: str, expected: bool) -> None:
    assert is_scenario_test_file(Path(name)) is expected


# ---------------------------------------------------------------------------
# type lists
# ---------------------------------------------------------------------------

NON_CREATURE_SUBTYPES = {
    "Aura", "Role", "Saga", "Curse", "Class", "Cartouche", "Rune", "Shard", "Shrine",
    "Background", "Equipment", "Vehicle", "Treasure", "Clue", "Food", "Fortification",
    "Forest", "Island", "Mountain", "Plains", "Swamp", "Arcane", "Trap", "Adventure",
}  # fmt: skip


def read_types(name: str) -> list[str]:
    return (KERNEL_DATA / name).read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("name", ["creature_types.txt", "planeswalker_types.txt"])
def test_type_lists_are_sorted_unique_plain(name: str) -> None:
    types = read_types(name)
    assert types == sorted(set(types))
    assert all(t and t == t.strip() for t in types)


def test_type_lists_hold_known_types() -> None:
    creatures = set(read_types("creature_types.txt"))
    assert len(creatures) > 280
    assert {
        "Shapeshifter",
        "Elemental",
        "Kithkin",
        "Faerie",
        "Goblin",
        "Treefolk",
        "Time Lord",
    } <= creatures
    assert not {"Boggart", "Flamekin", "Changeling", "Role", "Aura"} & creatures
    walkers = set(read_types("planeswalker_types.txt"))
    assert {"Ajani", "Chandra", "Garruk", "Jace", "Liliana"} <= walkers


@needs_data
def test_every_creature_type_in_card_data_is_listed() -> None:
    creatures = set(read_types("creature_types.txt"))
    walkers = set(read_types("planeswalker_types.txt"))
    missing: set[str] = set()
    for path in DATA.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        cards = data if isinstance(data, list) else data.get("roles", []) + data.get("cards", [])
        for card in cards:
            card_types = set(card.get("types", []))
            subtypes = set(card.get("subtypes", []))
            if card_types & {"Creature", "Tribal", "Kindred"}:
                missing |= subtypes - NON_CREATURE_SUBTYPES - creatures
            if "Planeswalker" in card_types:
                missing |= subtypes - walkers
    assert not missing


# ---------------------------------------------------------------------------
# bad input: a ScenarioFileError of one line naming the file and key path, never
# another exception, and bounded work (issue 11)
# ---------------------------------------------------------------------------


def one_line(err: ScenarioFileError) -> str:
    text = str(err)
    assert "\n" not in text and text.startswith("f.yaml: ") and len(text) < 400, text
    return text


@pytest.mark.parametrize("value", ["9" * 5000, "-" + "9" * 5000, str(2**70), str(-(2**64)),
                                   "1_000_000_001", "0x" + "f" * 30])
def test_integers_out_of_range_name_their_key_path(value: str) -> None:
    err = error(BASE.replace("bob:\n", f"bob:\n    life: {value}\n"))
    text = one_line(err)
    assert err.path == "players.bob.life" and "expected an integer" in text
    assert "1000000000" in text


def test_huge_numbers_elsewhere() -> None:
    huge = "9" * 5000
    err = error(with_actions(f"{{player: alice, cast: Shock, x: {huge}}}"))
    assert err.path == "actions[0].x" and "5000 characters" in one_line(err)
    err = error(with_actions(f"{{player: alice, activate: jace, ability: '+{huge}'}}"))
    assert err.path == "actions[0].ability" and "loyalty cost" in one_line(err)
    err = error(with_actions(f"{{player: alice, activate: jace, ability: '{huge}'}}"))
    assert err.path == "actions[0].ability"
    err = error(with_expect(f"{{card: jace, counters: {{loyalty: {2**64}}}}}"))
    assert err.path == "expect[0].counters.loyalty"
    # the largest allowed values load
    [s] = load(BASE.replace("bob:\n", "bob:\n    life: -1000000000\n"))
    assert s.players["bob"].life == -1_000_000_000


@pytest.mark.parametrize("tagged", ["!!int abc", "!!int ''", "!!float x", "!!bool maybe",
                                    "!!timestamp yesterday", "!!int 1:2:x"])
def test_tagged_values_that_cannot_be_read_are_yaml_errors(tagged: str) -> None:
    err = error(BASE.replace("bob:\n", f"bob:\n    life: {tagged}\n"))
    text = one_line(err)
    assert text.startswith("f.yaml: invalid YAML: line 7, column 11: ") and err.path == ""


def test_yaml_errors_are_one_line() -> None:
    text = one_line(error(BASE + "actions: [\n"))
    assert "invalid YAML: line " in text
    assert "duplicate key 'name'" in one_line(error(BASE + "name: again\n"))


@pytest.mark.parametrize("depth", [60, 1000, 20000])
def test_deep_nesting_is_refused(depth: int) -> None:
    flow = error(BASE + "description: " + "[" * depth + "]" * depth + "\n")
    assert "nesting deeper than 50 levels" in one_line(flow)
    block = "".join(" " * i + "a:\n" for i in range(depth)) if depth < 2000 else "a: 1\n"
    if depth < 2000:
        err = error(BASE + "description:\n" + textwrap.indent(block, "  "))
        assert "nesting deeper than 50 levels" in one_line(err)


def test_aliases_cannot_nest_deeper_than_written() -> None:
    # each anchor is 30 deep as written; through the aliases the values are 90 deep
    text = BASE + "description:\n"
    text += "  - &a " + "[" * 30 + "]" * 30 + "\n"
    text += "  - &b " + "[" * 30 + "*a" + "]" * 30 + "\n"
    text += "  - " + "[" * 30 + "*b" + "]" * 30 + "\n"
    assert "aliases expanded" in one_line(error(text))


def test_an_alias_inside_its_own_anchor_is_refused() -> None:
    err = error(BASE + "description: &a [*a]\n")
    assert "contains it" in one_line(err)


def alias_bomb(uses: int, size: int = 300) -> str:
    """A scenario whose one anchored check list (``size`` expectations) is used ``uses``
    more times: an 11 KB file for 64 uses."""
    checks = ", ".join(["{card: Forest, zone: battlefield}"] * size)
    return (BASE + "actions:\n" + f"  - check: &big [{checks}]\n"
            + "".join(["  - check: *big\n"] * uses))


def test_aliases_that_multiply_the_document_are_refused() -> None:
    text = alias_bomb(uses=300)
    assert len(text) < 16_000
    err = error(text)
    assert "aliases expand the document beyond 100000 values" in one_line(err)


def test_aliases_within_the_bound_still_work() -> None:
    [s] = load(alias_bomb(uses=10, size=3))
    assert len(s.actions) == 11 and all(len(a.check) == 3 for a in s.actions)
    assert s.actions[0].check[0] == s.actions[10].check[0].__class__(
        where="actions[0].check[0]", card="Forest", zone="battlefield")
    # a merge key works too
    [s] = load(BASE.replace("bob:\n    battlefield: [Grizzly Bears]",
                            "bob: {<<: &b {life: 7}, battlefield: [Grizzly Bears]}"))
    assert s.players["bob"].life == 7


def test_a_large_file_without_aliases_is_not_limited() -> None:
    many = ", ".join(["Forest"] * 60_000)
    [s] = load(BASE.replace("hand: [Shock]", f"hand: [{many}]"))
    assert len(s.players["alice"].hand) == 60_000


def test_long_names_are_cut_in_messages() -> None:
    name = "Q" * 10_000
    err = error(with_actions(f"{{player: alice, cast: {name}}}"), KNOWN.__contains__)
    assert err.path == "actions[0].cast" and "characters)" in one_line(err)
    err = error(BASE.replace("name: base", f"name: {name}") + "bogus: 1\n")
    assert "bogus" in one_line(err)
    err = error(BASE + f"{name[:1000]}: 1\n")  # YAML's longest simple key is 1,024 long
    assert "unknown key" in one_line(err)


def test_unknown_event_types_are_refused_at_load() -> None:
    known = {"DamageDealt", "Clashed"}.__contains__
    [s] = loads_scenarios(with_expect("{log_has: Clashed, count: 1}"), "f.yaml",
                          known_event=known)
    assert s.expect[0].log_has == "Clashed"
    with pytest.raises(ScenarioFileError) as info:
        loads_scenarios(with_expect("{log_has: Clashd, min: 1}"), "f.yaml", known_event=known)
    assert info.value.path == "expect[0].log_has"
    assert "unknown event type 'Clashd'" in one_line(info.value)


@pytest.mark.parametrize(("entry", "path", "what"), [
    ("{card: Forest, attached_to: bob}", "players.alice.battlefield[2].attached_to",
     "got the player 'bob'"),
    ("{card: Forest, attached_to: Shock}", "players.alice.battlefield[2].attached_to",
     "on the battlefield in the setup"),
    ("{card: Forest, attached_to: Lightning Bolt}", "players.alice.battlefield[2].attached_to",
     "on the battlefield in the setup"),
    ("{card: Forest, attached_to: Bolt}", "players.alice.battlefield[2].attached_to",
     "unknown card or alias 'Bolt'"),
])
def test_setup_links_name_a_permanent_of_the_setup(entry: str, path: str, what: str) -> None:
    text = BASE.replace("{card: Jace Beleren, as: jace, counters: {loyalty: 3}}]",
                        "{card: Jace Beleren, as: jace, counters: {loyalty: 3}}, " + entry + "]")
    err = error(text, KNOWN.__contains__)
    assert err.path == path and what in one_line(err)


def test_setup_links_that_hold() -> None:
    text = BASE.replace("hand: [Shock]", "exile: [{card: Shock, exiled_with: jace}]\n"
                        "    hand: [{card: Shock, as: s}]")
    text = text.replace("battlefield: [Grizzly Bears]",
                        "battlefield: [Grizzly Bears, {card: Forest, attached_to: Grizzly Bears}"
                        ", {card: Forest, attached_to: jace}]")
    [s] = load(text, KNOWN.__contains__)
    assert s.players["bob"].battlefield[2].attached_to == "jace"
    err = error(text.replace("exiled_with: jace", "exiled_with: s"), KNOWN.__contains__)
    assert err.path == "players.alice.exile[0].exiled_with"
    err = error(text.replace("exiled_with: jace", "exiled_with: alice"), KNOWN.__contains__)
    assert "got the player 'alice'" in one_line(err)


def test_an_expectation_is_not_attached_to_a_player() -> None:
    err = error(with_expect("{card: Shock, attached_to: bob}"))
    assert err.path == "expect[0].attached_to" and "got the player 'bob'" in one_line(err)


# the command line: an invalid file exits 2 ---------------------------------------------


SHOCK_BOB = textwrap.dedent("""\
    name: shock
    players:
      alice: {battlefield: [Mountain], hand: [Shock]}
      bob: {battlefield: []}
    actions:
      - {player: alice, cast: Shock, targets: [bob]}
      - {resolve: all}
    expect:
      - {player: bob, life: 18}
    """)
INVALID = {  # key path -> (text, replacement) making SHOCK_BOB invalid there
    "players.alice.life": ("alice: {", "alice: {life: 1180591620717411303424, "),
    "actions[0].cast": ("cast: Shock", "cast: Shokc"),
    "actions[0].targets[0]": ("targets: [bob]", "targets: [Bobby]"),
    "expect[0].card": ("{player: bob, life: 18}", "{card: Shockk, zone: graveyard}"),
    "expect[0].log_has": ("{player: bob, life: 18}", "{log_has: DamageDealtt, count: 1}"),
    "players.bob.battlefield[0].attached_to": (
        "bob: {battlefield: []}", "bob: {battlefield: [{card: Forest, attached_to: bob}]}"),
    "players.bob.exile[0].exiled_with": (
        "bob: {battlefield: []}", "bob: {exile: [{card: Forest, exiled_with: Tamiyo}]}"),
}


@pytest.mark.parametrize("path", list(INVALID))
def test_an_invalid_file_exits_2_naming_the_key_path(
    path: str, registry: object, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mtgk.scenario.runner import cli_main

    old, new = INVALID[path]
    assert old in SHOCK_BOB
    bad = SHOCK_BOB.replace(old, new)
    f = tmp_path / "f.yaml"
    f.write_text(bad)
    assert cli_main([str(f)], reg=registry) == 2  # type: ignore[arg-type]
    err = capsys.readouterr().err.strip()
    assert "error: " in err and "\n" not in err
    assert f"{f}: scenario 'shock': {path}: " in err
    f.write_text(SHOCK_BOB)
    assert cli_main([str(f)], reg=registry) == 0  # type: ignore[arg-type]


def test_log_has_accepts_the_plugins_event_types(registry: object, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from mtgk.log.events import EVENT_TYPES
    from mtgk.scenario.runner import cli_main

    plugin_events = ["Clashed", "DamagePrevented", "Regenerated", "LibraryOrdered",
                     "EnteredAttacking", "AbilityCopied", "SpellCopied", "TargetsChanged"]
    assert set(plugin_events) <= set(EVENT_TYPES)
    f = tmp_path / "f.yaml"
    f.write_text("name: events\nplayers: {alice: {}, bob: {}}\nexpect:\n"
                 + "".join(f"  - {{log_has: {t}, count: 0}}\n" for t in plugin_events))
    assert cli_main([str(f)], reg=registry) == 0  # type: ignore[arg-type]
    assert capsys.readouterr().out.splitlines() == ["PASS events", "1 passed, 0 failed"]


@pytest.mark.parametrize("text", [
    '"\\n": 1\n',  # an unknown key holding a line break
    "!!map name: x\n",  # a tag that doesn't fit its node
    "!!map\n",
    BASE + "turn: {number: !!int [1]}\n",
    BASE + "turn: {step: '+" + "9" * 5000 + "'}\n",  # a long value that is not allowed
])
def test_what_the_fuzzing_found(text: str) -> None:
    one_line(error(text))


# ---------------------------------------------------------------------------
# the second edition


def test_first_strike_damage_is_a_step_name() -> None:
    [sc] = load(BASE + "turn: {step: first_strike_damage}\nactions:\n"
                "  - {pass_until: {turn: 2, step: first_strike_damage}}\n")
    assert sc.turn.step == "first_strike_damage"
    assert sc.actions[0].pass_until is not None
    assert sc.actions[0].pass_until.step == "first_strike_damage"
    err = error(BASE + "turn: {step: first_strike}\n")
    assert err.path == "turn.step" and "first_strike_damage" in str(err)


def test_setup_damage() -> None:
    [sc] = load(BASE.replace("[Grizzly Bears]", "[{card: Grizzly Bears, damage: 1}]"))
    assert sc.players["bob"].battlefield[0].damage == 1
    err = error(BASE.replace("hand: [Shock]", "hand: [{card: Shock, damage: 1}]"))
    assert err.path == "players.alice.hand[0].damage" and "only allowed on the battlefield" \
        in str(err)
    err = error(BASE.replace("[Grizzly Bears]", "[{card: Grizzly Bears, damage: -1}]"))
    assert err.path == "players.bob.battlefield[0].damage"


def test_alt_cost() -> None:
    a = load(with_actions("{player: alice, cast: Shock, alt_cost: Prowl}",
                          "{player: alice, cast: Shock, evoke: true}",
                          "{player: alice, cast: Shock, evoke: true, alt_cost: evoke}"))[0].actions
    assert [x.alt_cost for x in a] == ["prowl", "evoke", "evoke"]
    err = error(with_actions("{player: alice, cast: Shock, evoke: true, alt_cost: prowl}"))
    assert err.path == "actions[0].alt_cost" and "two different costs" in str(err)
    err = error(with_actions("{player: alice, activate: jace, alt_cost: evoke}"))
    assert err.path == "actions[0].alt_cost" and "not allowed with `activate`" in str(err)
    err = error(with_actions("{player: alice, cast: Shock, alt_cost: ' '}"))
    assert err.path == "actions[0].alt_cost"


def test_arrange_and_pay_answers() -> None:
    [sc] = load(with_actions(
        "{resolve: all, answers: [{arrange: {top: [Forest], bottom: [Shock, jace]}},"
        " {arrange: {bottom: [Forest]}}, {pay: yes}, {pay: no, player: bob}, {pay: 'no'}]}"))
    arr, only_bottom, yes, no, quoted = sc.actions[0].answers
    assert arr.kind == "arrange" and (arr.value.top, arr.value.bottom) == (["Forest"],
                                                                         ["Shock", "jace"])
    assert (only_bottom.value.top, only_bottom.value.bottom) == ([], ["Forest"])
    assert [(x.kind, x.value, x.player) for x in (yes, no, quoted)] == [
        ("pay", True, None), ("pay", False, "bob"), ("pay", False, None)]
    err = error(with_actions("{resolve: all, answers: [{arrange: {middle: [Forest]}}]}"))
    assert err.path == "actions[0].answers[0].arrange.middle" and "unknown key" in str(err)
    err = error(with_actions("{resolve: all, answers: [{arrange: {}}]}"))
    assert err.path == "actions[0].answers[0].arrange"
    err = error(with_actions("{resolve: all, answers: [{pay: maybe}]}"))
    assert err.path == "actions[0].answers[0].pay" and "yes or no" in str(err)
    err = error(with_actions("{resolve: all, answers: [{arrange: {top: [Nope]}}]}"),
                known_card=lambda n: n in ("Forest", "Jace Beleren", "Shock", "Grizzly Bears"))
    assert err.path == "actions[0].answers[0].arrange.top[0]" and "unknown card" in str(err)


def test_draw_damage_and_tapped_expectations() -> None:
    [sc] = load(with_expect("{draw: true}", "{card: Grizzly Bears, damage: 0}",
                            "{count: {tapped: true, name: Forest}, equals: 1}"))
    draw, damage, count = sc.expect
    assert draw.draw is True and damage.damage == 0
    assert count.count is not None and count.count.tapped is True
    err = error(with_expect("{damage: 1}"))
    assert err.path == "expect[0].damage" and "needs `card`" in str(err)
    err = error(with_expect("{draw: maybe}"))
    assert err.path == "expect[0].draw"


FOUR = """\
name: 2hg
VARIANT
players:
  alice: {ALICE}
  bob: {}
  carol: {}
  dave: {}
"""


def test_more_players_and_two_headed_giant() -> None:
    [sc] = load(FOUR.replace("VARIANT", "").replace("ALICE", ""))
    assert sc.variant == "free_for_all" and sc.player_names == ["alice", "bob", "carol", "dave"]
    assert sc.players["alice"].life == 20
    two = FOUR.replace("VARIANT", "variant: two_headed_giant\nteams: [[alice, carol], [bob, dave]]")
    [sc] = load(two.replace("ALICE", ""))
    assert sc.teams == [["alice", "carol"], ["bob", "dave"]]
    assert [p.life for p in sc.players.values()] == [30, 30, 30, 30]
    [sc] = load(two.replace("ALICE", "life: 25"))
    assert [p.life for p in sc.players.values()] == [25, 30, 25, 30]  # one life per team
    err = error(two.replace("ALICE", "life: 25").replace("carol: {}", "carol: {life: 24}"))
    assert err.path == "players.carol.life" and "one life total" in str(err)


@pytest.mark.parametrize(("variant", "path", "reason"), [
    ("variant: two_headed_giant", "variant", "needs `teams`"),
    ("teams: [[alice, carol], [bob, dave]]", "teams", "needs `variant: two_headed_giant`"),
    ("variant: two_headed_giant\nteams: [[alice, carol, bob], [dave]]", "teams",
     "two teams of two"),
    ("variant: two_headed_giant\nteams: [[alice, carol], [bob, erin]]", "teams[1][1]",
     "unknown player 'erin'"),
    ("variant: two_headed_giant\nteams: [[alice, carol], [bob, alice]]", "teams[1][1]",
     "in two teams"),
    ("variant: archenemy", "variant", "free_for_all, two_headed_giant"),
])
def test_variant_errors(variant: str, path: str, reason: str) -> None:
    err = error(FOUR.replace("VARIANT", variant).replace("ALICE", ""))
    assert err.path == path and reason in str(err)
