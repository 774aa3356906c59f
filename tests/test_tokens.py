"""Tokens: they enter the battlefield as every permanent does ("as ~
enters", "enters tapped" from another permanent), and tokens are named by the names they
are created with, two different tokens sharing a printed name keyed apart in the
registry (``Registry.token_name``), with facts from the sets' ``tokens.json`` (the core
set's and Lorwyn's: the shared token list)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtgk.cards.definitions import Registry, load_facts
from mtgk.log import events as ev
from mtgk.render import Renderer, render_state
from mtgk.rules.engine import Game
from tests.conftest import Scenario, events_of

SETS = Path(__file__).parent.parent / "cardsets"
TOKENS = [SETS / "core" / "tokens.json", SETS / "lorwyn" / "tokens.json"]


# ------------------------------------------------------------------ entering the battlefield

def _prerogative(quality: str, maker: str, lands: str) -> str:
    """alice casts Ashling's Prerogative choosing ``quality``, then ``maker`` (a card that
    creates a token of mana value 0, paid with ``lands``)."""
    odd = quality == "odd"
    haste = "" if odd else ", has_ability: haste"  # even: mana value 0 has the quality
    return f"""
        name: prerogative-and-tokens
        strict: true
        players:
          alice:
            battlefield: [Mountain, Mountain, {lands}]
            hand: [Ashling's Prerogative, {maker}]
          bob: {{}}
        turn: {{number: 2, active: alice, step: precombat_main}}
        actions:
          - {{player: alice, cast: Ashling's Prerogative, answers: [{{choose: {quality}}}]}}
          - {{resolve: all}}
          - {{player: alice, cast: {maker}}}
          - {{resolve: all}}
        expect:
          - {{card: Beast, tapped: {str(odd).lower()}{haste}}}
        """


@pytest.mark.parametrize("quality", ["odd", "even"])
def test_a_token_enters_tapped_by_ashlings_prerogative(scenario: Scenario, quality: str) -> None:
    """Ashling's Prerogative: "Each creature without mana value of the chosen quality
    enters the battlefield tapped."  A token's mana value is 0 (even): with odd chosen it
    enters tapped, with even untapped (and has haste)."""
    res = scenario(_prerogative(quality, "Test Beastcall", "Forest"))
    tapped = [e for e in events_of(res, ev.Tapped) if e.entering]
    assert len(tapped) == (1 if quality == "odd" else 0)


@pytest.mark.parametrize("quality", ["odd", "even"])
def test_elf_warrior_tokens_of_a_lorwyn_card_enter_tapped_with_odd(
        scenario: Scenario, quality: str) -> None:
    """The issue's case: the Elf Warrior tokens of Elvish Promenade ("Create a 1/1 green
    Elf Warrior creature token for each Elf you control") with odd chosen enter tapped;
    with even, untapped."""
    tapped = str(quality == "odd").lower()
    res = scenario(f"""
        name: promenade-and-prerogative
        strict: true
        players:
          alice:
            battlefield: [Mountain, Mountain, Forest, Forest, Forest, Forest,
                          {{card: Elvish Eulogist, tapped: true}}]
            hand: [Ashling's Prerogative, Elvish Promenade]
          bob: {{}}
        turn: {{number: 2, active: alice, step: precombat_main}}
        actions:
          - {{player: alice, cast: Ashling's Prerogative, answers: [{{choose: {quality}}}]}}
          - {{resolve: all}}
          - {{player: alice, cast: Elvish Promenade}}
          - {{resolve: all}}
        expect:
          - {{card: Elf Warrior, tapped: {tapped}}}
          - {{count: {{name: Elf Warrior}}, equals: 1}}
        """)
    assert res.passed


@pytest.mark.parametrize("welcomer", [True, False])
def test_a_token_enters_with_the_counters_another_permanent_gives(
        scenario: Scenario, welcomer: bool) -> None:
    """"Each other creature you control enters with an additional +1/+1 counter on it"
    (a static ability of another permanent, ``mtgk.plugins.enters.enters_with_counters_if``)
    applies to a token; without it, the token has none.  The opponent's Welcomer gives
    nothing (it is not theirs)."""
    mine = "Test Welcomer, " if welcomer else ""
    counters = "{+1/+1: 1}" if welcomer else "{}"
    scenario(f"""
        name: welcomer-and-a-token
        strict: true
        players:
          alice:
            battlefield: [{mine}Forest]
            hand: [Test Beastcall]
          bob:
            battlefield: [Test Welcomer]
        turn: {{number: 2, active: alice, step: precombat_main}}
        actions:
          - {{player: alice, cast: Test Beastcall}}
          - {{resolve: all}}
        expect:
          - {{card: Beast, counters: {counters}, power: {4 if welcomer else 3}}}
        """)


# ------------------------------------------------------------------ names and data

def _token_entries() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for path in TOKENS:
        raw = json.loads(path.read_text(encoding="utf-8"))
        assert isinstance(raw, list)
        out.extend(raw)
    return out


def test_every_token_of_the_data_is_defined_with_its_facts(registry: Registry) -> None:
    """Each entry of tokens.json is a token of the registry, known by its key (its name
    unless another token has that name) and named by its printed name."""
    for entry in _token_entries():
        key = str(entry.get("key") or entry["name"])
        d = registry[key]
        assert registry.token_name(key) == entry["name"]
        assert d.facts.colors == tuple(entry["colors"])  # type: ignore[arg-type]
        assert d.facts.types == tuple(entry["types"])  # type: ignore[arg-type]
        assert d.facts.subtypes == tuple(entry["subtypes"])  # type: ignore[arg-type]
        assert (d.facts.power, d.facts.toughness) == (entry["power"], entry["toughness"])
        assert d.keywords == tuple(str(k).lower() for k in entry["keywords"])  # type: ignore[attr-defined]


def test_two_tokens_sharing_a_printed_name_are_keyed_apart(registry: Registry) -> None:
    assert registry.keys_named("Elemental") == ["Elemental", "Elemental (Hoofprints)"]
    assert registry.keys_named("Elemental Shaman") == ["Elemental Shaman",
                                                       "Elemental Shaman (Rebellion)"]
    eyes, hoof = registry["Elemental"], registry["Elemental (Hoofprints)"]
    assert (eyes.facts.colors, eyes.keywords) == (("G",), ())
    assert (hoof.facts.colors, hoof.keywords) == (("W",), ("flying",))
    assert registry.token_name("Grizzly Bears") == "Grizzly Bears"  # a card: its name
    assert registry.token_name("No Such Card") == "No Such Card"
    facts = {f.name: f for f in load_facts(TOKENS[1])}
    assert facts["Elemental (Hoofprints)"].printed_name == "Elemental"
    assert facts["Elemental"].printed_name == ""


def _game_with_tokens(reg: Registry, *keys: str) -> tuple[Game, list[int]]:
    g = Game(reg, ["alice", "bob"], seed=1)
    with g.setting_up():
        g.emit(ev.GameStarted(players=("alice", "bob"), seed=1))
        g.emit(ev.TurnBegan(turn=1, active=0))
        g.emit(ev.StepBegan(step="precombat_main"))
    return g, [g.create_token(k, 0) for k in keys]


@pytest.mark.parametrize("key", ["Elemental", "Elemental (Hoofprints)", "Elemental Shaman",
                                 "Elemental Shaman (Rebellion)", "Kithkin Soldier", "Wolf",
                                 "Goblin Rogue", "Merfolk Wizard", "Elf Warrior", "Beast"])
def test_a_created_token_has_the_facts_and_name_of_its_data(registry: Registry,
                                                            key: str) -> None:
    entry = next(e for e in _token_entries() if (e.get("key") or e["name"]) == key)
    g, (tok,) = _game_with_tokens(registry, key)
    c = g.chars(tok)
    assert g.name(tok) == c.name == entry["name"]
    assert c.card == key  # the definition it behaves as
    assert c.colors == list(entry["colors"])  # type: ignore[call-overload]
    assert c.ctypes == list(entry["subtypes"])  # type: ignore[call-overload]
    assert (c.power, c.toughness) == (int(str(entry["power"])), int(str(entry["toughness"])))
    assert [a for a in c.abilities if "#" not in a] == [
        str(k).lower() for k in entry["keywords"]]  # type: ignore[attr-defined]
    assert g.state.objects[tok].token


def test_logs_and_states_name_a_token_by_its_printed_name(registry: Registry) -> None:
    g, (hoof, eyes) = _game_with_tokens(registry, "Elemental (Hoofprints)", "Elemental")
    r = Renderer(registry)
    lines = [r.render(env) for env in g.log]
    made = [line for line in lines if "creates" in line]
    assert made and all("Elemental token" in line and "(Hoofprints)" not in line
                        for line in made), made
    state = render_state(g.state, registry)
    assert "(Hoofprints)" not in state and state.count("Elemental") >= 2
