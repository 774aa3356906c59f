"""Card sets as plugins: entry-point discovery, isolation of broken plugins, hook docs."""

from __future__ import annotations

import inspect
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from mtgk.cards.definitions import CardDef, CardFacts, CardSetInfo, NameClash, Registry, same_card
from mtgk.cards.loading import HookSpecs, PluginError, load_registry
from mtgk.scenario.play import run_scenario
from mtgk.scenario.reader import load_scenarios
from tests.conftest import fake_dist

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "examples" / "example-pack"


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(PACK))
    yield tmp_path
    for mod in [m for m in sys.modules
                if m.startswith(("mtgk_example_pack", "broken_pack", "clash_pack"))]:
        del sys.modules[mod]


def test_example_pack_loads_through_entry_point(sandbox: Path) -> None:
    fake_dist(sandbox, "mtgk_example_pack", "mtgk.cardsets", "example", "mtgk_example_pack")
    reg = load_registry()
    assert "example" in reg.sets
    assert reg.sets["example"].version == "0.1.0"
    assert "Sparkmage Apprentice" in reg and "Llanowar Elves" in reg
    assert "Shock" in reg  # the built-in sets load beside it


def test_example_pack_scenario_passes(sandbox: Path) -> None:
    fake_dist(sandbox, "mtgk_example_pack", "mtgk.cardsets", "example", "mtgk_example_pack")
    reg = load_registry()
    [sc] = load_scenarios(PACK / "scenario_example.yaml")
    result = run_scenario(sc, reg)
    assert result.passed, result.reason


def test_broken_plugin_is_reported_and_others_load(sandbox: Path) -> None:
    (sandbox / "broken_pack.py").write_text("raise RuntimeError('boom at import')\n")
    fake_dist(sandbox, "broken_pack", "mtgk.cardsets", "broken", "broken_pack")
    reg = load_registry()
    assert [name for name, _ in reg.failures] == ["broken"]
    assert "boom at import" in reg.failures[0][1]
    assert "Shock" in reg and "Jace Beleren" in reg


def test_strict_mode_turns_a_broken_plugin_into_an_error(sandbox: Path) -> None:
    (sandbox / "broken_pack.py").write_text("raise RuntimeError('boom at import')\n")
    fake_dist(sandbox, "broken_pack", "mtgk.cardsets", "broken", "broken_pack")
    with pytest.raises(PluginError, match="broken"):
        load_registry(strict=True)


def test_misspelled_hook_fails_fast(sandbox: Path) -> None:
    (sandbox / "broken_pack.py").write_text(
        "from mtgk.cards.loading import hookimpl\n"
        "@hookimpl\n"
        "def mtgk_cardset():\n    return []\n")
    fake_dist(sandbox, "broken_pack", "mtgk.cardsets", "typo", "broken_pack")
    reg = load_registry()
    assert [name for name, _ in reg.failures] == ["typo"]
    assert "mtgk_cardset" in reg.failures[0][1]


def test_only_requested_sets_load() -> None:
    reg = load_registry(["core"])
    assert sorted(reg.sets) == ["core"]
    assert "Shock" in reg and "Jace Beleren" not in reg


def test_every_hookspec_is_documented_with_its_signature() -> None:
    guide = (ROOT / "docs" / "pack-authors.md").read_text(encoding="utf-8")
    specs = [m for m in dir(HookSpecs) if m.startswith("mtgk_")]
    assert specs
    for name in specs:
        fn = getattr(HookSpecs, name)
        assert inspect.getdoc(fn), f"hookspec {name} has no docstring"
        params = [p for p in inspect.signature(fn).parameters if p != "self"]
        sig = f"{name}({', '.join(params)})"
        assert sig in guide, f"docs/pack-authors.md must document `{sig}`"


# ---------------------------------------------------------------------------
# name clashes and slow loads (issue 11): throwaway packs, registered as pip would


def _pack(tmp: Path, module: str, set_name: str, cards: str, extra: str = "") -> None:
    """A card pack module ``module`` with card set ``set_name``; ``cards`` is Python
    adding its cards to ``S`` (a ``mtgk.cards.dsl.CardSet``)."""
    (tmp / f"{module}.py").write_text(
        "from mtgk.cards.definitions import CardFacts\n"
        "from mtgk.cards.dsl import CardSet, damage, spell, target\n"
        "from mtgk.cards.filters import creature_or_player\n"
        "from mtgk.cards.loading import hookimpl\n"
        f"S = CardSet({set_name!r}, '9.9', __file__)\n"
        f"{cards}\n"
        "@hookimpl\n"
        "def mtgk_cardsets():\n    return [S.info()]\n"
        f"{extra}\n")


ODD_SHOCK = ("S.card('Shock', spell(damage(3), target(creature_or_player)), facts=CardFacts("
             "name='Shock', mana_cost='{R}', mana_value=1, types=('Instant',), "
             "oracle_text='Shock deals 3 damage to any target.'))")
UNIQUE = "S.card('Zyx Unique Bear', facts=CardFacts(name='Zyx Unique Bear', types=('Creature',)))"


def test_a_card_with_the_name_of_a_loaded_card_is_refused(sandbox: Path) -> None:
    core_shock = load_registry(["core"])["Shock"].facts
    _pack(sandbox, "clash_pack", "aaa", f"{ODD_SHOCK}\n{UNIQUE}",
          extra="REGISTERED = []\n@hookimpl\ndef mtgk_register(registry):\n"
                "    REGISTERED.append(registry)\n")
    fake_dist(sandbox, "clash_pack", "mtgk.cardsets", "aaa", "clash_pack")
    reg = load_registry()
    # core keeps Shock; the clashing pack is refused as a whole, named with the other one
    assert reg["Shock"].facts == core_shock and "aaa" not in reg.sets
    assert "Zyx Unique Bear" not in reg
    assert sys.modules["clash_pack"].REGISTERED == []
    [(name, error)] = reg.failures
    assert name == "aaa"
    assert "'Shock'" in error and "card set 'core' of plugin 'core' (package mtgk)" in error
    assert {"core", "lorwyn", "eldraine"} <= set(reg.sets) and "Jace Beleren" in reg
    with pytest.raises(PluginError) as info:
        load_registry(strict=True)
    assert "plugin 'aaa' (package clash_pack)" in str(info.value)
    assert "plugin 'core' (package mtgk)" in str(info.value)


def test_a_pack_named_like_a_loaded_set_is_refused(sandbox: Path) -> None:
    _pack(sandbox, "clash_pack", "core", UNIQUE)
    fake_dist(sandbox, "clash_pack", "mtgk.cardsets", "zcore", "clash_pack")
    reg = load_registry()
    assert "Zyx Unique Bear" not in reg and "Shock" in reg and "Mountain" in reg
    [(name, error)] = reg.failures
    assert name == "zcore" and "has the name of card set 'core' of plugin 'core'" in error
    with pytest.raises(PluginError, match="zcore"):
        load_registry(strict=True)


def test_a_clash_fails_the_command_with_strict(sandbox: Path, tmp_path: Path) -> None:
    from tests.conftest import run_mtgk

    _pack(sandbox, "clash_pack", "aaa", ODD_SHOCK)
    fake_dist(sandbox, "clash_pack", "mtgk.cardsets", "aaa", "clash_pack")
    scenario = tmp_path / "s.yaml"
    scenario.write_text("name: s\nplayers: {alice: {}, bob: {}}\n")
    game = tmp_path / "g.mtgk"
    code, _, err = run_mtgk("-v", "--strict", "play", "--seed", 1, "--out", game)
    assert code == 2 and "Traceback" not in err and not game.exists()
    assert "plugin 'aaa' (package clash_pack)" in err and "plugin 'core'" in err
    # without --strict the game is played with core's Shock, and the refusal is an error line
    code, _, err = run_mtgk("play", "--seed", 1, "--out", game, "--max-turns", 2)
    assert code == 0 and "plugin refused" in err and "[error" in err


def test_the_same_card_in_two_sets_is_one_card(sandbox: Path) -> None:
    reg0 = load_registry()
    elf = reg0["Elf Warrior"].facts  # a token both core and lorwyn define
    shock = reg0["Shock"].facts
    _pack(sandbox, "clash_pack", "aaa",
          f"S.card('Elf Warrior', facts=CardFacts(**{msgspec.structs.asdict(elf)!r}))\n"
          f"S.card('Shock', facts=CardFacts(**{msgspec.structs.asdict(shock)!r}))\n{UNIQUE}")
    fake_dist(sandbox, "clash_pack", "mtgk.cardsets", "aaa", "clash_pack")
    reg = load_registry(strict=True)
    assert "aaa" in reg.sets and "Zyx Unique Bear" in reg and not reg.failures
    assert reg["Shock"].abilities == reg0["Shock"].abilities  # a bare printing never shadows


def test_the_registry_refuses_a_clashing_set() -> None:
    reg = Registry()
    bear = CardDef(CardFacts(name="Bear", types=("Creature",), power="2", toughness="2"))
    reg.add_set(CardSetInfo("one", "1", [bear]))
    big = CardDef(CardFacts(name="Bear", types=("Creature",), power="5", toughness="5"))
    with pytest.raises(NameClash, match="'two' defines the card 'Bear', which card set 'one'"):
        reg.add_set(CardSetInfo("two", "1", [big, CardDef(CardFacts(name="Other"))]))
    with pytest.raises(NameClash, match="has the name of card set 'one'"):
        reg.add_set(CardSetInfo("one", "2", []))
    assert reg["Bear"] is bear and "Other" not in reg and sorted(reg.sets) == ["one"]
    assert same_card(bear, CardDef(bear.facts)) and not same_card(bear, big)


def test_slow_loads_are_reported(sandbox: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    import structlog

    import mtgk.cards.loading
    import mtgk.diag

    _pack(sandbox, "clash_pack", "slowpack", "import time\ntime.sleep(0.5)\n" + UNIQUE)
    fake_dist(sandbox, "clash_pack", "mtgk.cardsets", "slowpack", "clash_pack")
    _pack(sandbox, "clash_pack_fast", "fastpack", UNIQUE.replace("Zyx", "Fast"))
    fake_dist(sandbox, "clash_pack_fast", "mtgk.cardsets", "fastpack", "clash_pack_fast")
    monkeypatch.setattr(mtgk.cards.loading, "SLOW_LOAD_SECONDS", 0.4)
    try:
        out = io.StringIO()
        mtgk.diag.configure(verbosity=0, stream=out)  # without -v: only the slow one
        reg = load_registry(["slowpack", "fastpack"], plugins=False)
        assert "Zyx Unique Bear" in reg and "Fast Unique Bear" in reg
        lines = out.getvalue().splitlines()
        assert len(lines) == 1 and "card set plugin 'slowpack' is slow to load" in lines[0]
        assert "warning" in lines[0]
        monkeypatch.setattr(mtgk.cards.loading, "SLOW_LOAD_SECONDS", 5.0)
        out = io.StringIO()
        mtgk.diag.configure(verbosity=1, stream=out)  # -v: every plugin, with its time
        load_registry()
        text = out.getvalue()
        for name in ("core", "lorwyn", "eldraine"):
            assert f"loaded card set plugin {name!r} in " in text
        assert "loaded plugin 'planeswalkers' in " in text
        [line] = [x for x in text.splitlines() if "'slowpack'" in x]
        seconds = float(line.split("'slowpack' in ", 1)[1].split(" s", 1)[0])
        assert seconds >= 0.5  # its first import, done by the first load
    finally:
        structlog.reset_defaults()


def test_a_misspelled_creature_type_fails_the_pack_at_load_time(sandbox: Path) -> None:
    """``kind("Rouge")`` used to build a filter that silently matched nothing."""
    (sandbox / "broken_pack.py").write_text(
        "from mtgk.cards.filters import kind\n"
        "ROGUES = kind('Rouge')\n")
    fake_dist(sandbox, "broken_pack", "mtgk.cardsets", "rogues", "broken_pack")
    reg = load_registry()
    assert [name for name, _ in reg.failures] == ["rogues"]
    assert ("kind('Rouge'): 'Rouge' is not a creature type (CR 205.3m) (did you mean "
            "'Rogue'?)") in reg.failures[0][1]
    assert "Shock" in reg


def test_kind_accepts_every_creature_type_and_nothing_else() -> None:
    from mtgk.cards.filters import kind
    from mtgk.rules.subtypes import creature_types

    for t in creature_types():
        kind(t)
    for bad in ("Rouge", "Forest", "Ajani", "elf", ""):
        with pytest.raises(ValueError, match="is not a creature type"):
            kind(bad)


def test_a_static_ability_with_a_misspelled_hook_fails_its_set_naming_the_card() -> None:
    """A ``Static`` subclass whose hook is misspelled (``cost_chnage``) was loaded and its
    hook never called; now its set is refused, naming the card, and the others load."""
    from dataclasses import dataclass as dc

    from mtgk.cards.definitions import Static, register_static_hook
    from mtgk.cards.dsl import CardSet
    from mtgk.cards.loading import hookimpl
    from tests.conftest import _facts

    @dc(frozen=True)
    class Cheaper(Static):
        cost_chnage: Any = None

    t = CardSet("typo-hooks", "0.0.1", __file__, facts="no-such-file.json")
    t.card("Thrifty Imp", Cheaper(lambda v, s: [], "spells cost {1} less",
                                   cost_chnage=lambda v, s, c: -1),
           facts=_facts("Thrifty Imp", "{B}", ("Creature",), ("Imp",), (1, 1)))

    class Pack:
        @hookimpl
        def mtgk_cardsets(self) -> list[CardSetInfo]:
            return [t.info()]

    reg = load_registry(extra=[("typo-hooks", Pack())])
    [(name, error)] = reg.failures
    assert name == "typo-hooks" and "Thrifty Imp" not in reg and "Shock" in reg
    assert ("card 'Thrifty Imp' (set typo-hooks): its static ability #0 'spells cost {1} "
            "less' (Cheaper) has 'cost_chnage', which is no static hook") in error
    register_static_hook("cost_chnage", "a hook this test's own code would ask for")
    try:
        reg = load_registry(extra=[("typo-hooks", Pack())])
        assert not reg.failures and "Thrifty Imp" in reg
    finally:
        from mtgk.cards.definitions import STATIC_HOOKS
        del STATIC_HOOKS["cost_chnage"]


def test_asking_for_an_unregistered_static_hook_fails() -> None:
    from mtgk.rules.engine import Game

    g = Game(Registry(), ["A", "B"], seed=1)
    with pytest.raises(KeyError, match="'cost_chnage' is no static hook"):
        g.static_hooks("cost_chnage")
    assert g.static_hooks("cost_change") == []


def test_a_scenario_naming_a_card_of_a_pack_that_failed_says_so_first(tmp_path: Path) -> None:
    """A pack that fails to load used to surface only as "unknown card ... is its card set
    installed?" in each scenario of its cards; now what failed leads the message."""
    from mtgk.cards.loading import hookimpl
    from mtgk.scenario.runner import run_file

    class Broken:
        @hookimpl
        def mtgk_cardsets(self) -> list[CardSetInfo]:
            raise RuntimeError("boom while building the set")

    reg = load_registry(extra=[("rogues", Broken())])
    f = tmp_path / "scenario_rogue.yaml"
    f.write_text("name: rogue\nplayers:\n  alice: {hand: [Rogue Thing]}\n  bob: {}\n",
                 encoding="utf-8")
    from mtgk.scenario.errors import ScenarioFileError
    with pytest.raises(ScenarioFileError) as err:
        run_file(f, reg)
    assert err.value.reason.startswith("card set or plugin 'rogues' failed to load "
                                       "(RuntimeError: boom while building the set), so: "
                                       "unknown card 'Rogue Thing'")
    reg = load_registry()
    with pytest.raises(ScenarioFileError) as err:
        run_file(f, reg)
    assert err.value.reason.startswith("unknown card 'Rogue Thing'")
