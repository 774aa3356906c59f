"""The pack contract, round 2 (issue 22): what two outside pack authors hit.

Each test names the bug or the way in it covers; the cards are this file's own small
pack (``contract``), registered beside the installed sets.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mtgk.cards.altcosts import optional_cost
from mtgk.cards.definitions import CardDefinitionError, CardFacts, CardSetInfo, Registry
from mtgk.cards.dsl import (
    CardSet,
    activated,
    casts,
    damage,
    etb,
    gain_life,
    mana_ability,
    parse_cost,
    sequence,
    spell,
    target,
)
from mtgk.cards.filters import creature, creature_or_player
from mtgk.cards.filters import spell as a_spell
from mtgk.cards.keywords import declare_keyword
from mtgk.cards.loading import hookimpl, load_registry
from mtgk.log import events as ev
from mtgk.plugins import wither as _wither  # noqa: F401 - its declarations
from mtgk.plugins.enters import enters_with_counters_if
from mtgk.plugins.persist import persist
from mtgk.rules.engine import Game
from mtgk.rules.mana import ManaCost, plan_payment
from tests.conftest import fake_dist, play_scenario

K = CardSet("contract", "0.0.1", __file__, facts="no-such-file.json")


def facts(name: str, cost: str | None, types: tuple[str, ...], mv: int,
          subtypes: tuple[str, ...] = (), pt: tuple[int, int] | None = None,
          keywords: tuple[str, ...] = (), colors: tuple[str, ...] = (),
          text: str = "") -> CardFacts:
    return CardFacts(name=name, mana_cost=cost, mana_value=mv, colors=colors, types=types,
                     subtypes=subtypes, type_line=" ".join(types), oracle_text=text,
                     power=None if pt is None else str(pt[0]),
                     toughness=None if pt is None else str(pt[1]),
                     keywords=keywords)


# Flame Javelin's cost: {2/R}{2/R}{2/R}
K.card("Contract Javelin", spell(damage(4), target(creature_or_player)),
       facts=facts("Contract Javelin", "{2/R}{2/R}{2/R}", ("Instant",), 6, colors=("R",),
                   text="Contract Javelin deals 4 damage to any target."))

# Shadowmoor's untap symbol: "{1}, {Q}: You gain 2 life." ({Q}: untap this creature)
K.card("Contract Merrow", activated("{1}, {Q}", gain_life(2)),
       facts=facts("Contract Merrow", "{W/U}{W/U}", ("Creature",), 2, ("Merfolk",), (2, 2),
                   colors=("W", "U"), text="{1}, {Q}: You gain 2 life."))

# Shimmering Grotto: "{T}: Add {C}. {1}, {T}: Add one mana of any color."
K.card("Contract Grotto", mana_ability("C"), mana_ability("WUBRG", "{1}, {T}"),
       facts=facts("Contract Grotto", None, ("Land",), 0,
                   text="{T}: Add {C}.\n{1}, {T}: Add one mana of any color."))
# Pili-Pala: "{2}, {Q}: Add one mana of any color." (the untap symbol in a mana ability)
K.card("Contract Scarecrow", mana_ability("WUBRG", "{2}, {Q}"),
       facts=facts("Contract Scarecrow", "{2}", ("Artifact", "Creature"), 2, ("Scarecrow",),
                   (1, 1), text="{2}, {Q}: Add one mana of any color."))
K.card("Contract Pilgrim", facts=facts("Contract Pilgrim", "{1}{W}", ("Creature",), 2,
                                       ("Kithkin",), (2, 2), colors=("W",)))
K.card("Contract Ritual", spell(lambda c: c.gain_life(c.you, c.x)),
       facts=facts("Contract Ritual", "{X}{W}{U}", ("Sorcery",), 2, colors=("W", "U"),
                   text="You gain X life."))

# a keyword a pack declares (a made-up one: the test declares it for the whole process)
declare_keyword("sporeweave", "tests.test_pack_contract", what="a test keyword ability")
declare_keyword("sporecall", "tests.test_pack_contract", what="a test ability word",
                ability=False)
K.card("Contract Weaver", facts=facts("Contract Weaver", "{1}{G}", ("Creature",), 2,
                                      ("Fungus",), (2, 2), ("Sporeweave", "Sporecall"),
                                      ("G",), "Sporeweave"))


def _other_creature_you_control(v: Any, src: int, obj: int) -> bool:
    return obj != src and v.chars(obj).is_creature and \
        v.chars(obj).controller == v.chars(src).controller


# "Each other creature you control enters with an additional +1/+1 counter on it."
K.card("Contract Welcomer",
       enters_with_counters_if(_other_creature_you_control, {"+1/+1": 1},
                               "each other creature you control enters with a +1/+1 counter"),
       facts=facts("Contract Welcomer", "{2}{G}", ("Creature",), 3, ("Elf",), (2, 2),
                   colors=("G",), text="Each other creature you control enters with an "
                                       "additional +1/+1 counter on it."))

# Wither (mtgk.plugins.wither): "{T}: ~ deals 1 damage to target creature or player."
K.card("Contract Witherer", activated("{T}", damage(1), target(creature_or_player)),
       facts=facts("Contract Witherer", "{B}", ("Creature",), 1, ("Elemental",), (1, 1),
                   ("Wither",), ("B",), "Wither\n{T}: Contract Witherer deals 1 damage to "
                   "any target."))
K.card("Contract Infecter", activated("{T}", damage(1), target(creature_or_player)),
       facts=facts("Contract Infecter", "{B}", ("Creature",), 1, ("Horror",), (1, 1),
                   ("Infect",), ("B",), "Infect\n{T}: Contract Infecter deals 1 damage to "
                   "any target."))


def _gain_per_minus_counter(c: Any) -> None:
    me = c.state.objects.get(c.source)
    c.gain_life(c.you, 1 + (me.counters.get("-1/-1", 0) if me is not None else 0))


# Persist (mtgk.plugins.persist); "When ~ enters, you gain 1 life, and 1 more for each -1/-1
# counter on it" sees the counter it returns with
K.card("Contract Finks", etb(_gain_per_minus_counter), persist(),
       facts=facts("Contract Finks", "{1}{W}{G}", ("Creature",), 3, ("Ouphe",), (3, 2),
                   ("Persist",), ("W", "G"), "When Contract Finks enters, you gain 1 life "
                   "plus 1 life for each -1/-1 counter on it.\nPersist"))


# Kicker {1} (an optional additional cost): "~ deals 1 damage to any target. If this spell
# was kicked, it deals 3 damage instead."
K.card("Contract Kicker",
       spell(lambda c: c.damage(c.target(0), 3 if c.optional_cost_paid("kicker") else 1),
             target(creature_or_player)),
       optional_cost("kicker", "{1}"),
       facts=facts("Contract Kicker", "{R}", ("Instant",), 1, colors=("R",),
                   text="Kicker {1}\nContract Kicker deals 1 damage to any target. If this "
                        "spell was kicked, it deals 3 damage instead."))


# "Whenever an opponent casts a red spell, you gain 1 life."
K.card("Contract Watcher",
       casts(a_spell.of_color("R"), lambda c: c.gain_life(c.you, 1), who="opponent"),
       facts=facts("Contract Watcher", "{1}{W}", ("Creature",), 2, ("Kithkin",), (1, 1),
                   colors=("W",), text="Whenever an opponent casts a red spell, you gain "
                                       "1 life."))


def _swap(c: Any) -> None:
    c.until_end_of_turn("pt", [c.target(0)], [2, 0])
    c.until_end_of_turn("pt", [c.target(1)], [-2, 0])


# "Target creature gets +2/+0 until end of turn and another target creature gets -2/-0."
K.card("Contract Swap", spell(_swap, target(creature), target(creature, another=True)),
       facts=facts("Contract Swap", "{U}", ("Instant",), 1, colors=("U",),
                   text="Target creature gets +2/+0 until end of turn and another target "
                        "creature gets -2/-0 until end of turn."))


def _remember_power(c: Any) -> None:
    c.memory["power"] = c.power(c.target(0))


# "Exile target creature. You gain life equal to its power." (two steps, one memory)
K.card("Contract Exiler", spell(sequence(_remember_power, lambda c: c.exile(c.target(0)),
                                         lambda c: c.gain_life(c.you, c.memory["power"])),
                                target(creature)),
       facts=facts("Contract Exiler", "{W}", ("Instant",), 1, colors=("W",),
                   text="Exile target creature. You gain life equal to its power."))


class PayTwoLife:
    """An additional cost written as the docs describe it -- any object with mana(),
    unpayable() and pay(), not a subclass of a kernel class: "As an additional cost to
    cast this spell, pay 2 life." (The old kernel checked such a cost, then never paid it.)"""

    def mana(self, game: Any, player: int, card: int) -> int:
        return 0

    def unpayable(self, game: Any, player: int, card: int) -> str:
        return "" if game.state.players[player].life >= 2 else "you have less than 2 life"

    def pay(self, game: Any, player: int, spell: int) -> None:
        from mtgk.log import events as ev
        game.emit(ev.LifeLost(player=player, n=2))


# "As an additional cost to cast this spell, pay 2 life. Draw a card."
K.card("Contract Bargain", spell(lambda c: c.draw(c.you, 1)), additional_cost=PayTwoLife(),
       facts=facts("Contract Bargain", "{B}", ("Sorcery",), 1, colors=("B",),
                   text="As an additional cost to cast this spell, pay 2 life. Draw a card."))


class ContractPack:
    __test__ = False

    @hookimpl
    def mtgk_cardsets(self) -> list[CardSetInfo]:
        return [K.info()]


@pytest.fixture(scope="module")
def reg() -> Registry:
    out = load_registry(extra=[("contract", ContractPack())])
    assert "contract" in out.sets, out.failures
    return out


def run(reg: Registry, text: str) -> Any:
    res = play_scenario(text, reg)
    assert res.passed, res.reason
    return res


# ---------------------------------------------------------------- 1. {2/X}

def test_monocolored_hybrid_counts_two_and_is_payable_with_two_generic() -> None:
    cost = ManaCost.parse("{2/R}{2/R}{2/R}")
    assert cost.mana_value == 6  # CR 202.3f
    assert ManaCost.parse("{1}{2/W}").mana_value == 3
    # CR 107.4e: each symbol is {R} or two generic mana
    assert plan_payment(cost, [], [(i, ("G",)) for i in range(6)]) is not None
    assert plan_payment(cost, [], [(i, ("G",)) for i in range(5)]) is None
    assert plan_payment(cost, [], [(1, ("R",)), (2, ("R",)), (3, ("R",))]) is not None
    assert plan_payment(cost, [], [(1, ("R",)), (2, ("G",)), (3, ("G",)), (4, ("G",)),
                                   (5, ("G",))]) is not None
    assert plan_payment(cost, [], [(1, ("R",)), (2, ("G",)), (3, ("G",)),
                                   (4, ("G",))]) is None


def test_a_monocolored_hybrid_spell_is_cast_with_generic_mana(reg: Registry) -> None:
    run(reg, """
        name: javelin-with-forests
        players:
          alice: {battlefield: [Forest, Forest, Forest, Forest, Forest, Forest],
                  hand: [Contract Javelin]}
          bob: {}
        actions:
          - {player: alice, cast: Contract Javelin, targets: [bob]}
          - {resolve: all}
        expect:
          - {player: bob, life: 16}
        """)


def test_clash_compares_the_mana_value_of_a_monocolored_hybrid_card(reg: Registry) -> None:
    from mtgk.plugins.clash import mana_values

    g = Game(reg, ["alice", "bob"], seed=0)
    oid = g.new_id()
    g.emit(ev.ObjectCreated(obj=oid, card="Contract Javelin", owner=0, zone="library"))
    assert mana_values(g, oid) == (6,)


# ---------------------------------------------------------------- 2. costs

def test_the_untap_symbol_is_a_cost() -> None:
    c = parse_cost("{1}{W}{W}, {Q}")
    assert (c.mana, c.untap, c.tap, c.unread) == ("{1}{W}{W}", True, False, ())


def test_an_untap_cost_untaps_a_tapped_creature(reg: Registry) -> None:
    res = run(reg, """
        name: merrow-untaps
        players:
          alice: {battlefield: [Plains, {card: Contract Merrow, tapped: true}]}
          bob: {}
        actions:
          - {player: alice, activate: Contract Merrow, ability: 1}
          - {resolve: all}
        expect:
          - {player: alice, life: 22}
          - {card: Contract Merrow, tapped: false}
          - {card: Plains, tapped: true}
        """)
    assert any(isinstance(e.event, ev.Untapped) for e in res.log)


def test_an_untap_cost_needs_the_permanent_tapped_and_not_sick(reg: Registry) -> None:
    for setup in ("Contract Merrow", "{card: Contract Merrow, tapped: true, sick: true}"):
        run(reg, f"""
            name: merrow-cannot-untap
            players:
              alice: {{battlefield: [Plains, {setup}]}}
              bob: {{}}
            actions:
              - {{player: alice, activate: Contract Merrow, ability: 1, refused: true}}
            expect:
              - {{player: alice, life: 20}}
            """)


def _load(*cards: tuple[str, Any, CardFacts]) -> Registry:
    S = CardSet("broken", "0.0.1", __file__, facts="no-such-file.json")
    for name, ab, f in cards:
        S.card(name, *(() if ab is None else (ab,)), facts=f)

    class Broken:
        @hookimpl
        def mtgk_cardsets(self) -> list[CardSetInfo]:
            return [S.info()]

    return load_registry(["core"], strict=True, extra=[("broken", Broken())])


@pytest.mark.parametrize(("cost", "ab", "symbol"), [
    ("{1}{Uu}", None, "{Uu}"),                                   # a typo in a mana cost
    ("{S}", None, "{S}"),                                        # snow: not supported
    ("{1}", activated("{1}{W}{W}, {S}", gain_life(1)), "{S}"),   # in an ability's cost
    ("{1}", activated("{2}, Tap an untapped Merfolk you control", gain_life(1)),
     "Tap an untapped Merfolk you control"),                     # a cost nothing reads
])
def test_a_cost_the_kernel_cannot_read_fails_at_load_time(cost: str, ab: Any,
                                                           symbol: str) -> None:
    from mtgk.cards.loading import PluginError

    with pytest.raises(PluginError) as err:
        _load(("Broken Card", ab, facts("Broken Card", cost, ("Creature",), 1, pt=(1, 1))))
    msg = str(err.value)
    assert "'Broken Card'" in msg and symbol in msg and "{2/W}" in msg, msg
    assert "\n" not in msg


def test_a_readable_cost_loads() -> None:
    reg = _load(("Fine Card", activated("{1}{2/W}, {Q}", gain_life(1)),
                 facts("Fine Card", "{W/U}{2/B}", ("Creature",), 3, pt=(1, 1))))
    assert "Fine Card" in reg
    with pytest.raises(CardDefinitionError):
        from mtgk.cards.definitions import check_definition
        check_definition(K.card("Contract Typo", facts=facts("Contract Typo", "{Uu}",
                                                            ("Creature",), 1, pt=(1, 1))),
                         "contract")
    del K.defs["Contract Typo"]


# ---------------------------------------------------------------- 3. filter lands

def test_payment_uses_a_mana_ability_that_costs_mana(reg: Registry) -> None:
    res = run(reg, """
        name: grotto-filters
        players:
          alice: {battlefield: [Contract Grotto, Mountain, Mountain], hand: [Contract Pilgrim]}
          bob: {}
        actions:
          - {player: alice, cast: Contract Pilgrim}
          - {resolve: all}
        expect:
          - {card: Contract Pilgrim, zone: battlefield}
          - {count: {zone: battlefield, tapped: true, controller: alice}, equals: 3}
        """)
    spent = [e.event for e in res.log if isinstance(e.event, ev.ManaSpent)]
    assert [e.mana for e in spent] == ["R", "WR"]  # {1} for the Grotto, then {W}{1}


def test_payment_uses_an_untap_symbol_mana_ability(reg: Registry) -> None:
    """A tapped Pili-Pala's "{2}, {Q}: Add one mana of any color" pays a white spell from
    two Mountains: they pay the {2}, the {Q} untaps it (the old planner used {T} only)."""
    run(reg, """
        name: scarecrow-untaps-for-mana
        players:
          alice: {battlefield: [Mountain, Mountain, Mountain,
                                {card: Contract Scarecrow, tapped: true}],
                  hand: [Contract Pilgrim]}
          bob: {}
        actions:
          - {player: alice, cast: Contract Pilgrim}
          - {resolve: all}
        expect:
          - {card: Contract Pilgrim, zone: battlefield}
          - {card: Contract Scarecrow, tapped: false}
          - {count: {name: Mountain, tapped: true}, equals: 3}
        """)
    g = _game(reg, ["Mountain", "Mountain", "Contract Scarecrow"])
    assert g.plan_mana(0, ManaCost.parse("{W}")) is None  # untapped: no {Q}


def test_a_filter_ability_cannot_pay_for_itself(reg: Registry) -> None:
    g = _game(reg, ["Contract Grotto", "Mountain"])
    assert g.plan_mana(0, ManaCost.parse("{1}{W}")) is None
    assert g.plan_mana(0, ManaCost.parse("{W}")) is not None
    g = _game(reg, ["Contract Grotto"])
    assert g.plan_mana(0, ManaCost.parse("{W}")) is None
    assert g.plan_mana(0, ManaCost.parse("{1}")) is not None


def test_two_filters_and_x(reg: Registry) -> None:
    g = _game(reg, ["Contract Grotto", "Contract Grotto", "Mountain", "Mountain"])
    assert g.plan_mana(0, ManaCost.parse("{W}{U}")) is not None
    assert g.plan_mana(0, ManaCost.parse("{W}{U}{1}")) is None
    oid = g.new_id()
    g.emit(ev.ObjectCreated(obj=oid, card="Contract Ritual", owner=0, zone="hand"))
    assert g.max_payable(0, ManaCost.parse("{X}{W}{U}"), ("spell", oid)) == 0
    assert any(a[0] == "cast" and a[1] == oid for a in g.legal_actions(0))


def _game(reg: Registry, lands: list[str]) -> Game:
    g = Game(reg, ["alice", "bob"], seed=0)
    g.emit(ev.TurnBegan(turn=1, active=0))
    g.emit(ev.StepBegan(step="precombat_main"))
    for name in lands:
        g.emit(ev.ObjectCreated(obj=g.new_id(), card=name, owner=0, zone="battlefield"))
    return g


# ---------------------------------------------------------------- 4. keywords

def test_a_declared_keyword_is_an_ability(reg: Registry) -> None:
    g = _game(reg, ["Contract Weaver"])
    weaver = g.state.battlefield[0]
    assert g.chars(weaver).has("sporeweave")
    assert not g.chars(weaver).has("sporecall")  # an ability word is no ability
    assert reg["Contract Weaver"].keywords == ("sporeweave",)
    g.add_effect("lose_all_abilities", [weaver], None, weaver, 0, "eot")
    assert not g.chars(weaver).has("sporeweave")


def test_has_ability_of_a_declared_keyword_in_a_scenario(reg: Registry) -> None:
    run(reg, """
        name: weaver-has-sporeweave
        players:
          alice: {battlefield: [Contract Weaver]}
          bob: {}
        actions: []
        expect:
          - {card: Contract Weaver, has_ability: sporeweave}
        """)


# ---------------------------------------------------------------- 5. two packs, one name

def _pack_module(tmp: Path, module: str, set_name: str, card: str) -> None:
    (tmp / f"{module}.py").write_text(
        "from mtgk.cards.definitions import CardFacts\n"
        "from mtgk.cards.dsl import CardSet\n"
        "from mtgk.cards.loading import hookimpl\n"
        f"S = CardSet({set_name!r}, '9.9', __file__)\n"
        f"S.card({card!r}, facts=CardFacts(name={card!r}, types=('Creature',)))\n"
        "@hookimpl\n"
        "def mtgk_cardsets():\n    return [S.info()]\n")


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for mod in [m for m in sys.modules if m.startswith("dup_pack_")]:
        del sys.modules[mod]


def test_two_packs_with_one_entry_point_name_refuse_the_second(sandbox: Path) -> None:
    _pack_module(sandbox, "dup_pack_a", "dupa", "Zyx Dup Bear A")
    _pack_module(sandbox, "dup_pack_b", "dupb", "Zyx Dup Bear B")
    fake_dist(sandbox, "dup_pack_a", "mtgk.cardsets", "dup", "dup_pack_a")
    fake_dist(sandbox, "dup_pack_b", "mtgk.cardsets", "dup", "dup_pack_b")
    reg = load_registry()
    assert "dupa" in reg.sets and "Zyx Dup Bear A" in reg
    assert "dupb" not in reg.sets and "Zyx Dup Bear B" not in reg
    [(name, error)] = reg.failures
    assert name == "dup" and "\n" not in error, error
    assert "dup_pack_a" in error and "dup_pack_b" in error, error
    from mtgk.cards.loading import PluginError
    with pytest.raises(PluginError) as info:
        load_registry(strict=True)
    assert "dup_pack_a" in str(info.value) and "dup_pack_b" in str(info.value)
    assert "\n" not in str(info.value)


def test_two_packs_with_one_set_name_refuse_the_second(sandbox: Path) -> None:
    _pack_module(sandbox, "dup_pack_a", "same", "Zyx Dup Bear A")
    _pack_module(sandbox, "dup_pack_b", "same", "Zyx Dup Bear B")
    fake_dist(sandbox, "dup_pack_a", "mtgk.cardsets", "dupa", "dup_pack_a")
    fake_dist(sandbox, "dup_pack_b", "mtgk.cardsets", "dupb", "dup_pack_b")
    reg = load_registry()
    assert "Zyx Dup Bear A" in reg and "Zyx Dup Bear B" not in reg
    [(name, error)] = reg.failures
    assert name == "dupb" and "\n" not in error, error
    assert "dup_pack_a" in error and "dup_pack_b" in error, error



# ---------------------------------------------------------------- 6. entering together

@pytest.mark.parametrize("order", [["Contract Welcomer", "Grizzly Bears"],
                                   ["Grizzly Bears", "Contract Welcomer"]])
def test_permanents_entering_together_dont_see_each_others_enters_with(
        reg: Registry, order: list[str]) -> None:
    run(reg, f"""
        name: flicker-lord-and-bears
        players:
          alice: {{battlefield: [Island, Island, Island, Contract Welcomer, Grizzly Bears],
                  hand: [Ghostly Flicker]}}
          bob: {{}}
        actions:
          - {{player: alice, cast: Ghostly Flicker, targets: {order}}}
          - {{resolve: all}}
        expect:
          - {{card: Grizzly Bears, zone: battlefield, power: 2, toughness: 2}}
          - {{card: Contract Welcomer, zone: battlefield, power: 2, toughness: 2}}
        """)


def test_a_permanent_entering_alone_still_gets_the_counter(reg: Registry) -> None:
    run(reg, """
        name: lord-then-bears
        players:
          alice: {battlefield: [Island, Island, Island, Contract Welcomer, Grizzly Bears,
                                Forest], hand: [Ghostly Flicker]}
          bob: {}
        actions:
          - {player: alice, cast: Ghostly Flicker, targets: [Grizzly Bears, Forest]}
          - {resolve: all}
        expect:
          - {card: Grizzly Bears, zone: battlefield, power: 3, toughness: 3}
        """)



# ---------------------------------------------------------------- 7. what damage does

def test_wither_damage_is_dealt_and_results_in_counters(reg: Registry) -> None:
    res = run(reg, """
        name: wither-pings-bears
        players:
          alice: {battlefield: [Contract Witherer]}
          bob: {battlefield: [Grizzly Bears]}
        actions:
          - {player: alice, activate: Contract Witherer, ability: 1, targets: [Grizzly Bears]}
          - {resolve: all}
        expect:
          - {card: Grizzly Bears, zone: battlefield, power: 1, toughness: 1,
             counters: {"-1/-1": 1}, damage: 0}
        """)
    dealt = [e.event for e in res.log if isinstance(e.event, ev.DamageDealt)]
    assert [(d.amount, d.deathtouch) for d in dealt] == [(1, False)]  # still damage dealt


def test_wither_and_deathtouch_destroy(reg: Registry) -> None:
    g = _game(reg, ["Contract Witherer"])
    bears = g.new_id()
    g.emit(ev.ObjectCreated(obj=bears, card="Grizzly Bears", owner=1, zone="battlefield"))
    witherer = g.state.battlefield[0]
    g.add_effect("grant", [witherer], ["deathtouch"], witherer, 0, "eot")
    g.deal_damage(witherer, bears, 1)
    o = g.state.objects[bears]
    assert (o.damage, o.counters.get("-1/-1"), o.deathtouched) == (0, 1, True)


def test_infect_gives_a_player_poison_counters_not_life_loss(reg: Registry) -> None:
    g = _game(reg, ["Contract Infecter"])
    g.deal_damage(g.state.battlefield[0], ev.player_ref(1), 2)
    assert (g.state.players[1].life, g.state.players[1].poison) == (20, 2)



# ---------------------------------------------------------------- 7. entering with counters

def test_persist_returns_the_creature_with_its_counter(reg: Registry) -> None:
    res = run(reg, """
        name: finks-persist
        players:
          alice: {battlefield: [Contract Finks]}
          bob: {battlefield: [Mountain, Mountain], hand: [Shock, Shock]}
        actions:
          - {player: bob, cast: Shock, targets: [Contract Finks]}
          - {resolve: all}
          - {player: bob, cast: Shock, targets: [Contract Finks]}
          - {resolve: all}
        expect:
          - {card: Contract Finks, zone: graveyard}
          - {player: alice, life: 22}
        """)
    # it entered with the counter: no CounterPlaced after it was on the battlefield
    placed = [i for i, e in enumerate(res.log) if isinstance(e.event, ev.CounterPlaced)]
    entered = [i for i, e in enumerate(res.log) if isinstance(e.event, ev.ZoneChanged)
               and e.event.to_zone == "battlefield"]
    triggered = [i for i, e in enumerate(res.log) if isinstance(e.event, ev.AbilityTriggered)]
    assert len(placed) == 1 and entered[0] < placed[0]
    assert not any(entered[0] < t < placed[0] for t in triggered)


def test_a_creature_returned_with_a_counter_enters_with_it(reg: Registry) -> None:
    run(reg, """
        name: finks-once
        players:
          alice: {battlefield: [Contract Finks]}
          bob: {battlefield: [Mountain], hand: [Shock]}
        actions:
          - {player: bob, cast: Shock, targets: [Contract Finks]}
          - {resolve: all}
        expect:
          - {card: Contract Finks, zone: battlefield, power: 2, toughness: 1,
             counters: {"-1/-1": 1}}
          - {player: alice, life: 22}
        """)



# ---------------------------------------------------------------- 7. optional costs

@pytest.mark.parametrize(("lands", "answers", "life"), [
    ("[Mountain, Mountain]", "[{may: yes}]", 17), ("[Mountain, Mountain]", "[{may: no}]", 19),
    ("[Mountain]", "[]", 19)])  # (with one land it can't be kicked: nothing is asked)
def test_an_optional_additional_cost(reg: Registry, lands: str, answers: str,
                                     life: int) -> None:
    run(reg, f"""
        name: kicker
        strict: true
        players:
          alice: {{battlefield: {lands}, hand: [Contract Kicker]}}
          bob: {{}}
        actions:
          - {{player: alice, cast: Contract Kicker, targets: [bob], answers: {answers}}}
          - {{resolve: all}}
        expect:
          - {{player: bob, life: {life}}}
        """)



# ---------------------------------------------------------------- 7. casts() filters

def test_whenever_an_opponent_casts_a_red_spell(reg: Registry) -> None:
    run(reg, """
        name: watcher
        players:
          alice: {battlefield: [Contract Watcher, Mountain], hand: [Shock]}
          bob: {battlefield: [Mountain, Forest, Forest, Swamp, Swamp],
                hand: [Shock, Grizzly Bears, Murder]}
        actions:
          - {player: bob, cast: Shock, targets: [alice]}
          - {resolve: all}
          - {player: alice, cast: Shock, targets: [bob]}
          - {resolve: all}
          - {player: bob, cast: Murder, targets: [Contract Watcher]}
          - {resolve: all}
        expect:
          - {player: alice, life: 19}
        """)


def test_casts_refuses_an_unknown_caster() -> None:
    with pytest.raises(ValueError, match="opponent"):
        casts(a_spell, lambda c: None, who="opponents")



# ---------------------------------------------------------------- 7. target slots

def test_another_target_is_a_different_object(reg: Registry) -> None:
    run(reg, """
        name: swap
        players:
          alice: {battlefield: [Island, Island, Grizzly Bears, Gray Ogre],
                  hand: [Contract Swap, Contract Swap]}
          bob: {}
        actions:
          - {player: alice, cast: Contract Swap, targets: [Grizzly Bears, Grizzly Bears],
             refused: true}
          - {player: alice, cast: Contract Swap, targets: [Grizzly Bears, Gray Ogre]}
          - {resolve: all}
        expect:
          - {card: Grizzly Bears, power: 4}
          - {card: Gray Ogre, power: 0}
        """)
    g = _game(reg, ["Island", "Grizzly Bears"])
    swap = g.new_id()
    g.emit(ev.ObjectCreated(obj=swap, card="Contract Swap", owner=0, zone="hand"))
    assert not any(a[0] == "cast" and a[1] == swap for a in g.legal_actions(0))
    ogre = g.new_id()
    g.emit(ev.ObjectCreated(obj=ogre, card="Gray Ogre", owner=1, zone="battlefield"))
    casts_ = [a for a in g.legal_actions(0) if a[0] == "cast" and a[1] == swap]
    assert casts_ and all(len(set(a[2])) == 2 for a in casts_)



# ---------------------------------------------------------------- 7. Ctx.memory

def test_an_effect_remembers_between_its_steps(reg: Registry) -> None:
    run(reg, """
        name: exiler
        players:
          alice: {battlefield: [Plains], hand: [Contract Exiler]}
          bob: {battlefield: [Gray Ogre]}
        actions:
          - {player: alice, cast: Contract Exiler, targets: [Gray Ogre]}
          - {resolve: all}
        expect:
          - {player: alice, life: 22}
          - {card: Gray Ogre, zone: exile}
        """)


# ---------------------------------------------------------------- 8. the example pack

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "example-pack"


def test_the_example_pack_shows_wither_and_persist(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    from mtgk.scenario.board import known_card
    from mtgk.scenario.play import run_scenario
    from mtgk.scenario.reader import load_scenarios

    fake_dist(tmp_path, "mtgk_example_pack", "mtgk.cardsets", "example", "mtgk_example_pack")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(EXAMPLE))
    try:
        reg = load_registry()
    finally:
        sys.modules.pop("mtgk_example_pack", None)
    assert reg.failures == [] and {"Sickle Ripper", "Kitchen Finks"} <= set(reg.cards)
    scs = [sc for f in sorted(EXAMPLE.glob("scenario_*.yaml"))
           for sc in load_scenarios(f, known_card=known_card(reg))]
    assert len(scs) >= 3
    failed = [(sc.name, r.reason) for sc in scs for r in [run_scenario(sc, reg)] if not r.passed]
    assert not failed, failed



def test_a_pack_cannot_register_its_own_hook_under_a_kernel_hook_name() -> None:
    from mtgk.cards.definitions import register_static_hook

    with pytest.raises(ValueError, match="'extra_mana' is a hook the kernel calls itself"):
        register_static_hook("extra_mana", "my pack's own extra mana")



# ---------------------------------------------------------------- outside authors' finds

def test_an_additional_cost_of_any_class_is_paid(reg: Registry) -> None:
    run(reg, """
        name: duck-typed additional cost
        players:
          alice: {battlefield: [Swamp], hand: [Contract Bargain], library: [Swamp]}
          bob: {}
        turn: {number: 3, active: alice, step: precombat_main}
        actions:
          - {player: alice, cast: Contract Bargain}
          - {resolve: all}
        expect:
          - {player: alice, life: 18, hand_size: 1}
        """)


def test_an_additional_cost_without_pay_is_refused_at_load_time() -> None:
    from mtgk.cards.definitions import CardDefinitionError, check_definition

    class NoPay:
        def mana(self, game: Any, player: int, card: int) -> int:
            return 0

    card = K.card("Contract Unpaid", additional_cost=NoPay(),
                  facts=facts("Contract Unpaid", "{B}", ("Sorcery",), 1))
    try:
        with pytest.raises(CardDefinitionError, match="Contract Unpaid.*NoPay has no "
                           "unpayable, pay method"):
            check_definition(card, "contract")
    finally:
        del K.defs["Contract Unpaid"]


def test_discard_a_card_takes_a_player_reference(reg: Registry) -> None:
    """Raven's Crime-like "target player discards a card": the target is a player
    reference; the old helper indexed the players with it (-1 - index), so in a
    two-player game the caster discarded instead."""
    from mtgk.cards.dsl import discard_a_card
    from mtgk.log.events import player_ref
    g = _game(reg, [])
    for owner in (0, 1):
        g.emit(ev.ObjectCreated(obj=g.new_id(), card="Forest", owner=owner, zone="hand"))
    from mtgk.cards.effects import Ctx
    from mtgk.rules.state import StackItem
    c = Ctx(g, StackItem(id=0, kind="spell", source=0, ability="", controller=0))
    discard_a_card(c, player_ref(1))
    assert [len(p.hand) for p in g.state.players] == [1, 0]
    with pytest.raises(ValueError, match="discard_a_card: 7 is an object's id"):
        discard_a_card(c, 7)


def test_mana_cost_of_reads_the_card_and_a_copy(reg: Registry) -> None:
    """Chroma counts the mana symbols of permanents: ``mana_cost_of`` gives an object's
    mana cost as it is now (a land's is empty)."""
    from mtgk.cards.dsl import mana_cost_of
    g = _game(reg, ["Forest"])
    land = g.state.battlefield[0]
    g.emit(ev.ObjectCreated(obj=g.new_id(), card="Grizzly Bears", owner=0, zone="hand"))
    bears = g.state.players[0].hand[-1]
    assert (mana_cost_of(g, land), mana_cost_of(g, bears)) == ("", "{1}{G}")
