"""CR 601.2i / 602.2i: a spell becomes cast (an ability activated) once its costs are paid;
"whenever ... casts" ("whenever you activate") abilities trigger then, see the choices and
the costs paid, and name the cast as their cause.  On main ``SpellCast`` triggered as it
was emitted, before the mana was spent and the lands tapped."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from mtgk.cards.definitions import CardFacts, CardSetInfo, Registry
from mtgk.cards.dsl import CardSet, triggered
from mtgk.cards.loading import hookimpl, load_registry
from mtgk.log import events as ev
from mtgk.rules.layers import View
from mtgk.scenario.play import ScenarioResult, run_scenario
from mtgk.scenario.reader import loads_scenarios

C = CardSet("casttiming", "0.0.1", __file__, facts="no-such-file.json")


def _cast_with_no_untapped_land(v: View, src: int, e: Any) -> bool:
    you = v.chars(src).controller
    return bool(e.controller == you and not any(
        "Land" in v.chars(o).types and not v.state.objects[o].tapped
        and v.chars(o).controller == you for o in v.state.battlefield))


C.card("Test Spent Watcher",
       triggered(ev.SpellCast, _cast_with_no_untapped_land,
                 lambda c: c.gain_life(c.controller, 1),
                 text="whenever you cast a spell, if you control no untapped lands"),
       facts=CardFacts(name="Test Spent Watcher", mana_cost="{W}", mana_value=1, colors=("W",),
                       supertypes=(), types=("Enchantment",), subtypes=(),
                       type_line="Enchantment", oracle_text="Whenever you cast a spell, if "
                       "you control no untapped lands, you gain 1 life.", power=None,
                       toughness=None, loyalty=None, keywords=()))


class _Pack:
    __test__ = False

    @hookimpl
    def mtgk_cardsets(self) -> list[CardSetInfo]:
        return [C.info()]


@pytest.fixture(scope="module")
def reg() -> Registry:
    r = load_registry(extra=[("casttiming", _Pack())])
    assert "casttiming" in r.sets, r.failures
    return r


def run(reg: Registry, text: str) -> ScenarioResult:
    [sc] = loads_scenarios(textwrap.dedent(text))
    res = run_scenario(sc, reg)
    assert res.passed, res.reason
    return res


def _first(log: list[ev.Envelope], kind: type) -> int:
    return next(env.seq for env in log if isinstance(env.event, kind))


def test_cast_triggers_come_after_the_costs_and_name_the_cast(reg: Registry) -> None:
    res = run(reg, """
    name: splashy
    strict: true
    players:
      alice:
        battlefield: [Splashy Spellcaster, {card: Grizzly Bears, as: bears}, Mountain]
        hand: [Shock]
      bob: {}
    actions:
      - {player: alice, cast: Shock, targets: [bob], answers: [{target: bears}]}
      - {resolve: all}
    expect:
      - {player: bob, life: 18}
      - {count: {name: Sorcerer Role, zone: battlefield}, equals: 1}
    """)
    log = res.log
    cast = _first(log, ev.SpellCast)
    trig = _first(log, ev.AbilityTriggered)
    paid = [env.seq for env in log if isinstance(env.event, ev.ManaSpent | ev.Tapped)]
    assert paid and cast < max(paid) < trig
    assert log[trig].cause == cast


def test_a_cast_trigger_sees_the_costs_paid(reg: Registry) -> None:
    """The watcher triggers only if no land of alice's is untapped: the Mountain tapped to
    pay for the Shock counts (main: the condition was judged before it was tapped)."""
    res = run(reg, """
    name: watcher
    players:
      alice:
        battlefield: [Test Spent Watcher, Mountain]
        hand: [Shock]
      bob: {}
    actions:
      - {player: alice, cast: Shock, targets: [bob]}
      - {resolve: all}
    expect:
      - {player: alice, life: 21}
      - {player: bob, life: 18}
    """)
    assert sum(isinstance(env.event, ev.AbilityTriggered) for env in res.log) == 1


def test_an_activation_triggers_after_its_costs(reg: Registry) -> None:
    """CR 602.2i: Rings of Brighthearth triggers once the Spitfire's {3}{R} is paid."""
    res = run(reg, """
    name: rings
    strict: true
    players:
      alice:
        battlefield: [Rings of Brighthearth, Flamekin Spitfire, Mountain, Mountain, Mountain,
                      Mountain, Mountain, Mountain]
      bob: {}
    actions:
      - {player: alice, activate: Flamekin Spitfire, targets: [bob]}
      - {resolve: 1, answers: [{pay: yes}, {may: no}]}
      - {resolve: all}
    expect:
      - {player: bob, life: 18}
    """)
    log = res.log
    act = _first(log, ev.AbilityActivated)
    trig = _first(log, ev.AbilityTriggered)
    spent = [env.seq for env in log[:trig] if isinstance(env.event, ev.ManaSpent)]
    assert spent and act < spent[0] < trig and log[trig].cause == act
