"""Shared fixtures for the rules and invariant tests.

* ``registry`` -- every installed card set and plugin, loaded once per session;
* ``rules_registry`` -- the same plus ``testpack``, a test-only card set of
  small cards that isolate one rule each (keyword creatures, an X spell, an
  Aura, a legend, triggers with APNAP and intervening-if conditions ...);
* ``reset_structlog`` -- structlog back to its defaults after a test that ran ``mtgk``
  (with :func:`run_mtgk`, which runs it in-process);
* ``scenario`` -- run a scenario written inline as YAML (the format of
  ``shared/spec/scenario-format.md``) through :mod:`mtgk.scenario.runner`
  and check that it passed (or failed, when asked).

Test-only cards never go into a card set package: they live here and are
registered with ``load_registry(extra=[("testpack", TestPack())])``.
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import structlog

from mtgk.cards.definitions import CardFacts, CardSetInfo, Registry
from mtgk.cards.dsl import (
    CardSet,
    activated,
    create,
    damage,
    draw,
    each_step,
    loyalty,
    mana_ability,
    pump,
    spell,
    static,
    target,
    triggered,
)
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import creature, creature_or_player
from mtgk.cards.loading import hookimpl, load_registry
from mtgk.log import events as ev
from mtgk.log.events import DamageDealt, Event, StepBegan, ZoneChanged
from mtgk.plugins.enters import enters_with_counters_if
from mtgk.rules.layers import View
from mtgk.rules.replacement import Replacement
from mtgk.scenario.play import ScenarioResult, run_scenario
from mtgk.scenario.reader import loads_scenarios
from mtgk.tools.cli import main

if TYPE_CHECKING:
    from mtgk.rules.engine import Game

# the catalog cache (mtgk.cards.catalog) of the tests' commands goes to a folder of their
# own, never the user's ~/.cache/mtgk (subprocesses inherit it)
os.environ.setdefault("MTGK_CACHE_DIR", tempfile.mkdtemp(prefix="mtgk-test-cache-"))

# ---------------------------------------------------------------------------
# the test-only card set

T = CardSet("testpack", "0.0.1", __file__, facts="no-such-file.json")


def _facts(name: str, cost: str | None, types: tuple[str, ...], subtypes: tuple[str, ...] = (),
           pt: tuple[int, int] | None = None, keywords: tuple[str, ...] = (),
           colors: tuple[str, ...] = (), supertypes: tuple[str, ...] = (),
           loyalty: int | None = None, text: str = "") -> CardFacts:
    """Card facts as a set's data file would give them."""
    mv = 0
    if cost:
        for sym in cost.strip("{}").split("}{"):
            mv += int(sym) if sym.isdigit() else 0 if sym == "X" else 1
    return CardFacts(name=name, mana_cost=cost, mana_value=mv, colors=colors,
                     supertypes=supertypes, types=types, subtypes=subtypes,
                     type_line=" ".join(supertypes + types) +
                     (" — " + " ".join(subtypes) if subtypes else ""),
                     oracle_text=text,
                     power=None if pt is None else str(pt[0]),
                     toughness=None if pt is None else str(pt[1]),
                     loyalty=None if loyalty is None else str(loyalty),
                     keywords=tuple(k.title() for k in keywords))


def _creature(name: str, cost: str, color: str, subtype: str, pt: tuple[int, int],
              *keywords: str, supertypes: tuple[str, ...] = ()) -> CardFacts:
    return _facts(name, cost, ("Creature",), (subtype,), pt, keywords, (color,), supertypes)


# Vanilla creatures with one keyword each (the keyword comes from the facts).
KEYWORD_CREATURES = {
    "Test Flyer": _creature("Test Flyer", "{1}{U}", "U", "Bird", (2, 2), "flying"),
    "Test Reacher": _creature("Test Reacher", "{1}{G}", "G", "Spider", (1, 3), "reach"),
    "Test Trampler": _creature("Test Trampler", "{2}{G}", "G", "Rhino", (5, 5), "trample"),
    "Test First Striker": _creature("Test First Striker", "{1}{W}", "W", "Soldier", (2, 2),
                                    "first strike"),
    "Test Double Striker": _creature("Test Double Striker", "{2}{R}", "R", "Warrior", (2, 2),
                                     "double strike"),
    "Test Deathtoucher": _creature("Test Deathtoucher", "{B}", "B", "Snake", (1, 1),
                                   "deathtouch"),
    "Test Deadly Trampler": _creature("Test Deadly Trampler", "{2}{B}", "B", "Wurm", (3, 3),
                                      "deathtouch", "trample"),
    "Test Lifelinker": _creature("Test Lifelinker", "{1}{W}", "W", "Cleric", (3, 3), "lifelink"),
    "Test Vigilant": _creature("Test Vigilant", "{1}{W}", "W", "Soldier", (2, 3), "vigilance"),
    "Test Hasty": _creature("Test Hasty", "{R}", "R", "Berserker", (2, 1), "haste"),
    "Test Fearsome": _creature("Test Fearsome", "{1}{B}", "B", "Zombie", (2, 2), "fear"),
    "Test Wall": _creature("Test Wall", "{1}{W}", "W", "Wall", (0, 4), "defender"),
    "Test Islandwalker": _creature("Test Islandwalker", "{1}{U}", "U", "Merfolk", (2, 2),
                                   "islandwalk"),
    "Test Flash Bear": _creature("Test Flash Bear", "{1}{G}", "G", "Bear", (2, 2), "flash"),
    "Test Black Bear": _creature("Test Black Bear", "{1}{B}", "B", "Bear", (2, 2)),
    "Test Big Bear": _creature("Test Big Bear", "{3}{G}", "G", "Bear", (4, 4)),
    "Test Legend": _creature("Test Legend", "{1}{G}", "G", "Elf", (2, 2),
                             supertypes=("Legendary",)),
}
for _name, _f in KEYWORD_CREATURES.items():
    T.card(_name, facts=_f)


def _x_damage(c: Ctx) -> None:
    c.damage(c.target(0), c.x)


T.card("Test Blaze", spell(_x_damage, target(creature_or_player)),
       facts=_facts("Test Blaze", "{X}{R}", ("Sorcery",), colors=("R",),
                    text="Test Blaze deals X damage to target creature or player."))
T.card("Test Growth", spell(pump(3, 3), target(creature)),
       facts=_facts("Test Growth", "{G}", ("Instant",), colors=("G",),
                    text="Target creature gets +3/+3 until end of turn."))
T.card("Test Sorcery Growth", spell(pump(3, 3), target(creature)),
       facts=_facts("Test Sorcery Growth", "{G}", ("Sorcery",), colors=("G",),
                    text="Target creature gets +3/+3 until end of turn."))


def _set_pt(p: int, t: int) -> Callable[[Ctx], None]:
    def eff(c: Ctx) -> None:
        tgt = c.target(0)
        if tgt is not None:
            c.until_end_of_turn("set_pt", [tgt], [p, t])
    return eff


T.card("Test Shrink", spell(_set_pt(0, 2), target(creature)),
       facts=_facts("Test Shrink", "{U}", ("Instant",), colors=("U",),
                    text="Target creature has base power and toughness 0/2 until end of turn."))
T.card("Test Enlarge", spell(_set_pt(5, 5), target(creature)),
       facts=_facts("Test Enlarge", "{G}", ("Instant",), colors=("G",),
                    text="Target creature has base power and toughness 5/5 until end of turn."))


def _counter(kind: str) -> Callable[[Ctx], None]:
    return lambda c: c.put_counters(c.target(0), kind, 1)


T.card("Test Plus Counter", spell(_counter("+1/+1"), target(creature)),
       facts=_facts("Test Plus Counter", "{G}", ("Instant",), colors=("G",),
                    text="Put a +1/+1 counter on target creature."))
T.card("Test Minus Counter", spell(_counter("-1/-1"), target(creature)),
       facts=_facts("Test Minus Counter", "{B}", ("Instant",), colors=("B",),
                    text="Put a -1/-1 counter on target creature."))
T.card("Test Beastcall", spell(create("Beast")),
       facts=_facts("Test Beastcall", "{G}", ("Sorcery",), colors=("G",),
                    text="Create a 3/3 green Beast creature token."))
T.card("Test Pinger", activated("{T}", damage(1), target(creature_or_player)),
       facts=_facts("Test Pinger", "{2}{R}", ("Creature",), ("Wizard",), (1, 1), colors=("R",),
                    text="{T}: Test Pinger deals 1 damage to target creature or player."))
T.card("Test Mana Elf", mana_ability("G"),
       facts=_facts("Test Mana Elf", "{G}", ("Creature",), ("Elf",), (1, 1), colors=("G",),
                    text="{T}: Add {G}."))


def _aura_static(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
    host = v.obj(src).attached_to
    return [("7c", "pt", [host], [2, 2])] if host else []


T.card("Test Aura", static(_aura_static, "enchanted creature gets +2/+2"),
       enchant=target(creature),
       facts=_facts("Test Aura", "{W}", ("Enchantment",), ("Aura",), colors=("W",),
                    text="Enchant creature\nEnchanted creature gets +2/+2."))


def _each_upkeep(v: View, src: int, e: Any) -> bool:
    return bool(e.step == "upkeep")


T.card("Test Upkeep Healer",
       triggered(StepBegan, _each_upkeep, lambda c: c.gain_life(c.controller, 1)),
       facts=_facts("Test Upkeep Healer", "{W}", ("Enchantment",), colors=("W",),
                    text="At the beginning of each upkeep, you gain 1 life."))


def _your_upkeep(v: View, src: int, e: Any) -> bool:
    return bool(e.step == "upkeep" and v.state.active == v.chars(src).controller)


def _sixteen_or_more(v: View, src: int, e: Any) -> bool:
    return bool(v.state.players[v.chars(src).controller].life >= 16)


T.card("Test Hopeful Scholar",
       triggered(StepBegan, _your_upkeep, draw(1), intervening_if=_sixteen_or_more),
       facts=_facts("Test Hopeful Scholar", "{U}", ("Enchantment",), colors=("U",),
                    text="At the beginning of your upkeep, if you have 16 or more life, "
                         "draw a card."))


def _creature_died(v: View, src: int, e: Any) -> bool:
    return bool(e.from_zone == "battlefield" and e.to_zone == "graveyard"
                and "Creature" in v.chars(e.obj).types)


T.card("Test Mourner",
       triggered(ZoneChanged, _creature_died, lambda c: c.gain_life(c.controller, 1),
                 look_back=True),
       facts=_facts("Test Mourner", "{B}", ("Enchantment",), colors=("B",),
                    text="Whenever a creature dies, you gain 1 life."))

# Simultaneity (CR 608.2e-style "all at once") and look-back for objects leaving together
# (CR 603.10a): one instruction moving several objects, and watchers of those moves.

def _all_creatures(c: Ctx) -> list[int]:
    return c.objects(creature)


T.card("Test Wrath", spell(lambda c: c.destroy_all(_all_creatures(c))),
       facts=_facts("Test Wrath", "{2}{W}{W}", ("Sorcery",), colors=("W",),
                    text="Destroy all creatures."))
T.card("Test Exile Sweep", spell(lambda c: c.exile_all(_all_creatures(c))),
       facts=_facts("Test Exile Sweep", "{3}{W}{W}", ("Sorcery",), colors=("W",),
                    text="Exile all creatures."))
T.card("Test Evacuation", spell(lambda c: c.bounce_all(_all_creatures(c))),
       facts=_facts("Test Evacuation", "{3}{U}{U}", ("Instant",), colors=("U",),
                    text="Return all creatures to their owners' hands."))
T.card("Test Culling", spell(lambda c: c.sacrifice_all(_all_creatures(c))),
       facts=_facts("Test Culling", "{2}{B}{B}", ("Sorcery",), colors=("B",),
                    text="Each player sacrifices all creatures they control."))


def _another_of_yours(v: View, src: int, e: Any) -> bool:
    """Another creature you control (as it last existed) left the battlefield."""
    return bool(e.from_zone == "battlefield" and e.obj != src and e.obj in v.state.objects
                and v.chars(e.obj).is_creature
                and v.chars(e.obj).controller == v.chars(src).controller)


T.card("Test Griever",
       triggered(ZoneChanged, lambda v, s, e: e.to_zone == "graveyard"
                 and _another_of_yours(v, s, e), lambda c: c.gain_life(c.controller, 1),
                 look_back=True, text="whenever another creature you control dies"),
       facts=_facts("Test Griever", "{1}{B}", ("Creature",), ("Human",), (2, 2),
                    colors=("B",), text="Whenever another creature you control dies, "
                                        "you gain 1 life."))
T.card("Test Farewell Keeper",
       triggered((ZoneChanged, ev.RemovedFromGame), _another_of_yours,
                 lambda c: c.gain_life(c.controller, 1), look_back=True,
                 text="whenever another creature you control leaves the battlefield"),
       facts=_facts("Test Farewell Keeper", "{W}", ("Creature",), ("Spirit",), (1, 1),
                    colors=("W",), text="Whenever another creature you control leaves the "
                                        "battlefield, you gain 1 life."))


class _WardenExile(Replacement):
    """If a creature an opponent controls would die, exile it instead."""

    key, event = "test-warden", "move"

    def applies(self, game: Any, p: dict[str, Any], source: int) -> bool:
        c = game.chars(p["obj"])
        return bool(p["from_zone"] == "battlefield" and p["to_zone"] == "graveyard"
                    and c.is_creature and c.controller != game.chars(source).controller)

    def apply(self, game: Any, p: dict[str, Any], source: int) -> dict[str, Any] | None:
        return dict(p, to_zone="exile")


T.card("Test Warden", _WardenExile(),
       facts=_facts("Test Warden", "{1}{W}", ("Creature",), ("Human",), (1, 1), colors=("W",),
                    text="If a creature an opponent controls would die, exile it instead."))

T.card("Test Walker",
       loyalty("+1", lambda c: c.gain_life(c.controller, 1)),
       facts=_facts("Test Walker", "{2}{W}", ("Planeswalker",), ("Testwalker",),
                    colors=("W",), loyalty=3, text="+1: You gain 1 life."))
T.card("Test Walker Prime",
       facts=_facts("Test Walker Prime", "{3}{W}", ("Planeswalker",), ("Testwalker",),
                    colors=("W",), loyalty=4, text=""))
T.card("Test Legendary Walker",
       facts=_facts("Test Legendary Walker", "{3}{W}", ("Planeswalker",), ("Otherwalker",),
                    colors=("W",), supertypes=("Legendary",), loyalty=4, text=""))


# -- issue 12: the first-strike combat damage step, abilities from the hand ---------------

def _grant_until_eot(*abilities: str) -> Callable[[Ctx], None]:
    return pump(0, 0, grant=abilities)


def _lose_strikes(c: Ctx) -> None:
    t = c.target(0)
    if t is not None:
        c.until_end_of_turn("lose", [t], ["first strike", "double strike"])


T.card("Test Quickening", spell(_grant_until_eot("first strike"), target(creature)),
       facts=_facts("Test Quickening", "{W}", ("Instant",), colors=("W",),
                    text="Target creature gains first strike until end of turn."))
T.card("Test Double Blessing", spell(_grant_until_eot("double strike"), target(creature)),
       facts=_facts("Test Double Blessing", "{R}", ("Instant",), colors=("R",),
                    text="Target creature gains double strike until end of turn."))
T.card("Test Slowing", spell(_lose_strikes, target(creature)),
       facts=_facts("Test Slowing", "{U}", ("Instant",), colors=("U",),
                    text="Target creature loses first strike and double strike until end "
                         "of turn."))
T.card("Test Combat Chime",
       triggered(StepBegan, each_step("combat_damage"), lambda c: c.gain_life(c.controller, 1)),
       facts=_facts("Test Combat Chime", "{W}", ("Enchantment",), colors=("W",),
                    text="At the beginning of each combat damage step, you gain 1 life."))


def _me_to_a_player(v: View, src: int, e: Any) -> bool:
    return bool(e.combat and e.source == src and e.target < 0)


T.card("Test Striking Scout",
       triggered(DamageDealt, _me_to_a_player, draw(1)),
       facts=_facts("Test Striking Scout", "{W}", ("Creature",), ("Scout",), (1, 1),
                    ("first strike",), ("W",),
                    text="First strike\nWhenever Test Striking Scout deals combat damage "
                         "to a player, draw a card."))
T.card("Test Cycler",
       activated("{1}, Discard ~", draw(1), zones=("hand",)),
       facts=_facts("Test Cycler", "{3}{U}", ("Creature",), ("Bird",), (2, 2), ("flying",),
                    ("U",), text="Flying\nCycling {1} ({1}, Discard this card: Draw a card.)"))
T.card("Test Reinforcer",
       activated("{W}, Discard ~", lambda c: c.put_counters(c.target(0), "+1/+1", 1),
                 target(creature), zones=("hand",)),
       facts=_facts("Test Reinforcer", "{1}{W}", ("Creature",), ("Soldier",), (1, 1),
                    colors=("W",),
                    text="Reinforce 1—{W} ({W}, Discard this card: Put a +1/+1 counter on "
                         "target creature.)"))
T.card("Test Herald",
       activated("{1}, Reveal ~", lambda c: c.gain_life(c.controller, 1), zones=("hand",)),
       facts=_facts("Test Herald", "{2}{W}", ("Creature",), ("Cleric",), (2, 2),
                    colors=("W",),
                    text="{1}, Reveal Test Herald from your hand: You gain 1 life."))



def _other_creature_you_control(v: View, src: int, obj: int) -> bool:
    return obj != src and v.chars(obj).is_creature and \
        v.chars(obj).controller == v.chars(src).controller


T.card("Test Welcomer",
       enters_with_counters_if(_other_creature_you_control, {"+1/+1": 1},
                               "each other creature you control enters with a +1/+1 counter"),
       facts=_facts("Test Welcomer", "{1}{G}", ("Enchantment",), colors=("G",),
                    text="Each other creature you control enters the battlefield with an "
                         "additional +1/+1 counter on it."))


class TestPack:
    """Hook implementation registering the test-only card set."""

    __test__ = False  # not a pytest test class

    @hookimpl
    def mtgk_cardsets(self) -> list[CardSetInfo]:
        return [T.info()]


TEST_CARDS = sorted(T.defs)

# ---------------------------------------------------------------------------
# fixtures


@pytest.fixture(scope="session")
def registry() -> Registry:
    """Every installed card set and mechanics plugin, loaded once."""
    return load_registry()


@pytest.fixture(scope="session")
def rules_registry() -> Registry:
    """Installed sets plus the test-only ``testpack`` set."""
    reg = load_registry(extra=[("testpack", TestPack())])
    assert "testpack" in reg.sets, reg.failures
    return reg


Scenario = Callable[..., ScenarioResult]
"""The type of the ``scenario`` fixture."""


def events_of(res: ScenarioResult, kind: type[Event]) -> list[Any]:
    """The events of type ``kind`` in a scenario's log."""
    return [e.event for e in res.log if isinstance(e.event, kind)]


def fake_dist(tmp: Path, dist: str, group: str, name: str, target: str) -> None:
    """Install an entry point the way pip would, without pip: a .dist-info folder in
    ``tmp`` (which must be on ``sys.path``) declaring ``name = target`` in ``group``."""
    info = tmp / f"{dist}-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[{group}]\n{name} = {target}\n")


def run_mtgk(*argv: object) -> tuple[int, str, str]:
    """Run ``mtgk`` in-process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def reset_structlog() -> Iterator[None]:
    """Put structlog back to its defaults after the test (``mtgk`` configures it to log
    to the stream it was given, which a test redirects)."""
    yield
    structlog.reset_defaults()


def play_scenario(text: str, reg: Registry) -> ScenarioResult:
    """Run the single scenario written in ``text`` (YAML) and return its result."""
    scs = loads_scenarios(textwrap.dedent(text), "inline.yaml", lambda n: n in reg)
    assert len(scs) == 1, "one scenario per call"
    return run_scenario(scs[0], reg)


@pytest.fixture
def scenario(rules_registry: Registry) -> Callable[..., ScenarioResult]:
    """``scenario(yaml_text, passed=True)``: run it and check the outcome."""

    def run(text: str, passed: bool = True, reg: Registry | None = None) -> ScenarioResult:
        res = play_scenario(text, reg or rules_registry)
        assert res.passed == passed, res.reason or "scenario passed but was expected to fail"
        return res

    return run


def _find_program(env: str, *names: str) -> str | None:
    given = os.environ.get(env)
    if given:
        return given if os.path.exists(given) else None
    for n in names:
        path = shutil.which(n)
        if path:
            return path
    return None


@contextmanager
def headless_chromium(window: str = "1400,900", console: bool = False) -> Iterator[Any]:
    """A selenium driver of a headless Chromium for the browser tests of the pages mtgk
    writes (the viewer, the library report), with a profile of its own, removed after;
    ``console`` keeps the page's console messages (``driver.get_log("browser")``). Skips
    the test when selenium, Chromium or chromedriver is missing (MTGK_CHROMIUM and
    MTGK_CHROMEDRIVER name them when they are not on PATH)."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (pip install selenium)")
    chromium = _find_program("MTGK_CHROMIUM", "chromium", "chromium-browser", "google-chrome")
    driver_bin = _find_program("MTGK_CHROMEDRIVER", "chromedriver")
    if chromium is None:
        pytest.skip("Chromium is not installed (apt-get install chromium; or name it in "
                    "MTGK_CHROMIUM)")
    if driver_bin is None:
        pytest.skip("chromedriver is not installed (apt-get install chromium-driver; or name "
                    "it in MTGK_CHROMEDRIVER)")
    profile = tempfile.mkdtemp(prefix="mtgk-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--no-first-run", f"--window-size={window}",
                f"--user-data-dir={profile}"):
        opts.add_argument(arg)
    if console:
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_bin), options=opts)
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def is_utf8(b: bytes) -> bool:
    """Whether ``b`` decodes as UTF-8 (the fuzz tests' readers of outside input take text
    files, and fuzz them with bytes that are not)."""
    try:
        b.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def table(registry: Registry, zones: dict[int, dict[str, list[str]]],
          step: str = "precombat_main") -> Game:
    """A game in ``step`` of turn 1 (player 0 active) with these cards (player -> zone ->
    card names), in validated mode, random agents: for tests of what the engine keeps."""
    from mtgk.agents import RandomAgent
    from mtgk.rules.engine import Game

    g: Game = Game(registry, ["a", "b"], seed=0, agents=[RandomAgent(1), RandomAgent(2)])
    g.validate_caches = True
    for p, where in zones.items():
        for zone, names in where.items():
            for name in names:
                g.emit(ev.ObjectCreated(obj=g.new_id(), card=name, owner=p, zone=zone))
    g.emit(ev.TurnBegan(turn=1, active=0))
    g.emit(ev.StepBegan(step=step))
    return g
