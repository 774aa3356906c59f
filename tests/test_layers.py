"""The layer system (kernel/rules/layers.py) and the filter vocabulary (kernel/cards/filters.py).

Rules: the Lorwyn primer's "Card Type: Tribal" and "Keyword Ability:
Changeling" sections, CR 613 (layers, timestamps, dependencies).  Effects are
created directly with events (as resolved spells would create them), on
real cards where one exists and on small test-only cards (registered here,
never in a card set) where no Lorwyn card isolates the rule.
"""

from __future__ import annotations

from typing import Any

import pytest

from mtgk.cards.definitions import CardFacts, CardSetInfo, Registry
from mtgk.cards.dsl import CardSet, lord, spell, static
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import card, creature, kind, matching
from mtgk.cards.filters import spell as a_spell
from mtgk.cards.loading import hookimpl, load_registry
from mtgk.log import events as ev
from mtgk.plugins.tribal import choose_creature_type, creature_type_options, until_eot
from mtgk.rules.engine import Decision, Game
from mtgk.rules.layers import View, subtype_set
from mtgk.rules.subtypes import creature_types
from mtgk.scenario.play import run_scenario
from mtgk.scenario.reader import loads_scenarios

# ---------------------------------------------------------------------------
# test-only cards

L = CardSet("layertest", "0.0.1", __file__, facts="no-such-file.json")


def _facts(name: str, types: tuple[str, ...], subtypes: tuple[str, ...] = (),
           pt: tuple[int, int] | None = None, keywords: tuple[str, ...] = (),
           cost: str = "{1}", text: str = "") -> CardFacts:
    return CardFacts(name=name, mana_cost=cost, mana_value=1, colors=("G",), types=types,
                     subtypes=subtypes, oracle_text=text,
                     power=None if pt is None else str(pt[0]),
                     toughness=None if pt is None else str(pt[1]),
                     keywords=tuple(k.title() for k in keywords))


L.card("Test Dryad", facts=_facts("Test Dryad", ("Land", "Creature"), ("Forest", "Dryad"),
                                  (1, 1)))
L.card("Test Tribal Goblin", facts=_facts("Test Tribal Goblin", ("Tribal", "Creature"),
                                          ("Goblin",), (2, 2)))


def _totem(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
    """~ is a Spirit in addition to its other types and gets +1/+1."""
    return [("4", "add_creature_types", [src], ["Spirit"]), ("7c", "pt", [src], [1, 1])]


L.card("Test Totem", static(_totem, "~ is also a Spirit and gets +1/+1"),
       facts=_facts("Test Totem", ("Creature",), ("Bear",), (2, 2)))


def _spirits_fly(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
    """Spirits have flying."""
    return [("6", "grant", matching(v, kind("Spirit"), 0, src), ["flying"])]


L.card("Test Spirit Wind", static(_spirits_fly, "Spirits have flying"),
       facts=_facts("Test Spirit Wind", ("Enchantment",)))


def _chosen_type_pump(c: Ctx) -> None:
    """Choose a creature type. Creatures of the chosen type get +1/+1 until end of turn."""
    t = choose_creature_type(c)
    until_eot(c, c.objects(kind(t).creature), ("pt", [1, 1]))


L.card("Test Tribal Rally", spell(_chosen_type_pump),
       facts=_facts("Test Tribal Rally", ("Instant",), cost="{G}",
                    text="Choose a creature type. Creatures of the chosen type get +1/+1 "
                         "until end of turn."))


L.card("Test Vigil Banner", lord(creature.untapped().you_control(), 1, 1),
       facts=_facts("Test Vigil Banner", ("Enchantment",),
                    text="Untapped creatures you control get +1/+1."))


def _graveyard_count(v: View, src: int) -> tuple[int, int]:
    n = len(v.state.players[v.chars(src).controller].graveyard)
    return n, n


L.card("Test Grave Giant", pt=_graveyard_count, pt_reads=("graveyard",),
       facts=_facts("Test Grave Giant", ("Creature",), ("Giant",), (0, 0),
                    text="~'s power and toughness are each equal to the number of cards in "
                         "your graveyard."))


def _flies_with_a_graveyard(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
    """~ has flying as long as a card is in your graveyard."""
    mine = v.state.players[v.chars(src).controller].graveyard
    return [("6", "grant", [src], ["flying"])] if mine else []


# declares, wrongly, that it reads nothing beyond the battlefield (for the validated mode)
L.card("Test Careless Drake", static(_flies_with_a_graveyard, "flying with a graveyard",
                                     ("6",), frozenset()),
       facts=_facts("Test Careless Drake", ("Creature",), ("Drake",), (2, 2)))


def _others_fly_with_a_graveyard(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
    """Other creatures you control have flying as long as a card is in your graveyard."""
    me = v.chars(src).controller
    if not v.state.players[me].graveyard:
        return []
    others = [o for o in v.state.battlefield if o != src and v.chars(o).controller == me
              and "Creature" in v.chars(o).types]
    return [("6", "grant", others, ["flying"])]


# declares, wrongly, that it reads nothing beyond the battlefield; the stale object is
# another card, so the report must name this one
L.card("Test Careless Banner", static(_others_fly_with_a_graveyard,
                                      "other creatures fly with a graveyard", ("6",),
                                      frozenset()),
       facts=_facts("Test Careless Banner", ("Enchantment",), (), None))
# declares layer 7c only, but also grants vigilance (layer 6): that part is left out
L.card("Test Muddled Anthem", static(lambda v, s: [("6", "grant", [s], ["vigilance"]),
                                                   ("7c", "pt", [s], [1, 1])],
                                     "vigilance and +1/+1", ("7c",), frozenset()),
       facts=_facts("Test Muddled Anthem", ("Creature",), ("Soldier",), (1, 1)))

# "other creatures with power 2 or less get +1/+1": a lord of layer 7c that reads P/T, so
# the order of layer 7c's effects matters (the lords are asked one by one, not together)
L.card("Test Small Anthem", lord(creature.power_at_most(2).other(), 1, 1),
       facts=_facts("Test Small Anthem", ("Creature",), ("Soldier",), (1, 1)))


class LayerPack:
    __test__ = False

    @hookimpl
    def mtgk_cardsets(self) -> list[CardSetInfo]:
        return [L.info()]


@pytest.fixture(scope="module")
def reg() -> Registry:
    r = load_registry(extra=[("layertest", LayerPack())])
    assert not r.failures, r.failures
    return r


# ---------------------------------------------------------------------------
# helpers

def new_game(reg: Registry) -> Game:
    g = Game(reg, ["alice", "bob"], seed=0)
    g.emit(ev.TurnBegan(turn=1, active=0))
    return g


def put(g: Game, name: str, zone: str = "battlefield", owner: int = 0,
        token: bool = False) -> int:
    oid = g.new_id()
    g.emit(ev.ObjectCreated(obj=oid, card=name, owner=owner, zone=zone, token=token))
    return oid


def effect(g: Game, kind_: str, objs: list[int], params: Any = None) -> None:
    g.add_effect(kind_, objs, params, source=0, controller=0, duration="eot")


# ---------------------------------------------------------------------------
# subtypes are correlated with card types (primer, "Card Type: Tribal")

def test_subtype_sets() -> None:
    assert [subtype_set(t) for t in ("Goblin", "Forest", "Aura", "Equipment", "Arcane",
                                     "Jace", "Shapeshifter", "Nonsense")] == \
        ["Creature", "Land", "Enchantment", "Artifact", "Spell", "Planeswalker", "Creature", ""]


def test_losing_a_type_loses_its_subtypes_only(reg: Registry) -> None:
    g = new_game(reg)
    dryad = put(g, "Test Dryad")
    assert g.chars(dryad).all_subtypes() == ["Forest", "Dryad"]
    effect(g, "remove_types", [dryad], ["Creature"])
    c = g.chars(dryad)
    assert c.all_subtypes() == ["Forest"] and c.power is None
    assert not c.has_subtype("Dryad")


def test_losing_land_keeps_creature_types_and_stops_tapping_for_mana(reg: Registry) -> None:
    g = new_game(reg)
    dryad = put(g, "Test Dryad")
    assert (dryad, ("G",)) in g.mana_sources(0)
    effect(g, "remove_types", [dryad], ["Land"])
    assert g.chars(dryad).all_subtypes() == ["Dryad"]
    assert all(oid != dryad for oid, _m in g.mana_sources(0))


def test_subtypes_come_back_with_their_type(reg: Registry) -> None:
    g = new_game(reg)
    dryad = put(g, "Test Dryad")
    effect(g, "remove_types", [dryad], ["Land"])
    effect(g, "add_types", [dryad], ["Land"])
    assert g.chars(dryad).has_subtype("Forest")


def test_tribal_keeps_creature_types_when_it_stops_being_a_creature(reg: Registry) -> None:
    g = new_game(reg)
    gob = put(g, "Test Tribal Goblin")
    effect(g, "remove_types", [gob], ["Creature"])
    c = g.chars(gob)
    assert c.types == ["Tribal"] and c.has_subtype("Goblin")
    assert g.view() and gob in matching(g.view(), kind("Goblin"), 0)
    assert gob not in matching(g.view(), kind("Goblin").creature, 0)


def test_setting_one_subtype_set_leaves_the_others(reg: Registry) -> None:
    g = new_game(reg)
    dryad = put(g, "Test Dryad")
    effect(g, "set_subtypes", [dryad], {"set": "Land", "types": ["Island"]})
    assert g.chars(dryad).all_subtypes() == ["Island", "Dryad"]
    assert (dryad, ("U",)) in g.mana_sources(0)
    effect(g, "set_creature_types", [dryad], ["Treefolk"])
    assert g.chars(dryad).all_subtypes() == ["Island", "Treefolk"]


def test_creature_types_on_a_noncreature_nontribal_are_dropped(reg: Registry) -> None:
    g = new_game(reg)
    forest = put(g, "Forest")
    effect(g, "add_creature_types", [forest], ["Treefolk"])
    assert not g.chars(forest).has_subtype("Treefolk")
    effect(g, "add_types", [forest], ["Creature"])
    effect(g, "set_pt", [forest], [2, 3])
    c = g.chars(forest)
    assert c.has_subtype("Treefolk") and c.has_subtype("Forest") and (c.power, c.toughness) == (2, 3)


def test_in_addition_while_a_counter_is_there(reg: Registry) -> None:
    """Aquitect's Will: an Island in addition to its other types while it has a flood counter."""
    g = new_game(reg)
    forest = put(g, "Forest")
    g.emit(ev.CounterPlaced(obj=forest, kind="flood", n=1))
    g.add_effect("add_subtypes", [forest], {"types": ["Island"], "while_counter": "flood"},
                 source=0, controller=0, duration="")
    assert g.chars(forest).subtypes == ["Forest", "Island"]
    g.emit(ev.CounterRemoved(obj=forest, kind="flood", n=1))
    assert g.chars(forest).subtypes == ["Forest"]


# ---------------------------------------------------------------------------
# changeling (primer, "Keyword Ability: Changeling")

@pytest.mark.parametrize("zone", ["library", "hand", "graveyard", "exile", "battlefield"])
def test_changeling_is_every_creature_type_in_every_zone(reg: Registry, zone: str) -> None:
    g = new_game(reg)
    oid = put(g, "Woodland Changeling", zone=zone)
    c = g.chars(oid)
    assert c.creature_types() == list(creature_types())
    assert all(c.has_subtype(t) for t in ("Elf", "Goat", "Kithkin", "Shapeshifter"))
    assert not c.has_subtype("Forest")


def test_a_changeling_spell_is_every_creature_type(reg: Registry) -> None:
    g = new_game(reg)
    put(g, "Swamp")
    put(g, "Swamp")
    bears = put(g, "Grizzly Bears", owner=1)
    inv = put(g, "Nameless Inversion", zone="hand")
    g.perform(0, ["cast", inv, [bears], [], 0, ""])
    spell_id = g.state.stack[-1].id
    v = g.view()
    assert kind("Faerie").spell(v, spell_id, 0)
    assert not a_spell.without_subtype("Faerie")(v, spell_id, 0)
    assert not kind("Faerie")(v, spell_id, 0)  # a noun means a permanent
    assert not kind("Faerie").you_control()(v, spell_id, 0)


def test_losing_all_creature_types_keeps_changeling(reg: Registry) -> None:
    g = new_game(reg)
    oid = put(g, "Woodland Changeling")
    effect(g, "lose_all_creature_types", [oid])
    c = g.chars(oid)
    assert c.creature_types() == [] and c.has("changeling")


def test_new_creature_types_keep_changeling_but_only_those_types(reg: Registry) -> None:
    g = new_game(reg)
    oid = put(g, "Woodland Changeling")
    effect(g, "set_creature_types", [oid], ["Treefolk"])
    c = g.chars(oid)
    assert c.creature_types() == ["Treefolk"] and c.has("changeling")


@pytest.mark.parametrize("how", ["lose", "lose_all_abilities"])
def test_losing_changeling_keeps_all_creature_types(reg: Registry, how: str) -> None:
    g = new_game(reg)
    oid = put(g, "Woodland Changeling")
    effect(g, how, [oid], ["changeling"] if how == "lose" else None)
    c = g.chars(oid)
    assert not c.has("changeling")
    assert c.creature_types() == list(creature_types())


def test_gaining_all_creature_types_does_not_give_changeling(reg: Registry) -> None:
    g = new_game(reg)
    oid = put(g, "Grizzly Bears")
    effect(g, "add_all_creature_types", [oid])
    c = g.chars(oid)
    assert c.has_subtype("Elf") and c.has_subtype("Bear") and not c.has("changeling")


def test_multiple_changelings_are_redundant(reg: Registry) -> None:
    g = new_game(reg)
    oid = put(g, "Woodland Changeling")
    effect(g, "grant", [oid], ["changeling"])
    c = g.chars(oid)
    assert c.abilities.count("changeling") == 1
    assert c.creature_types() == list(creature_types())


def test_type_changes_apply_in_timestamp_order(reg: Registry) -> None:
    g = new_game(reg)
    oid = put(g, "Woodland Changeling")
    effect(g, "lose_all_creature_types", [oid])
    effect(g, "add_all_creature_types", [oid])
    assert g.chars(oid).has_subtype("Elf")
    effect(g, "set_creature_types", [oid], ["Goblin"])
    assert g.chars(oid).creature_types() == ["Goblin"]


# ---------------------------------------------------------------------------
# power and toughness

def test_pt_sublayers_ignore_timestamps_across_sublayers(reg: Registry) -> None:
    g = new_game(reg)
    oid = put(g, "Grizzly Bears")
    effect(g, "switch_pt", [oid])          # 7d
    effect(g, "pt", [oid], [3, 0])         # 7c
    g.emit(ev.CounterPlaced(obj=oid, kind="+1/+1", n=1))
    effect(g, "set_pt", [oid], [0, 4])     # 7b
    c = g.chars(oid)
    assert (c.power, c.toughness) == (5, 4)  # 0/4 -> 3/4 -> 4/5 -> switched 5/4


def test_later_setting_effect_wins(reg: Registry) -> None:
    g = new_game(reg)
    oid = put(g, "Grizzly Bears")
    effect(g, "set_pt", [oid], [4, 4])
    effect(g, "set_pt", [oid], [0, 2])
    assert (g.chars(oid).power, g.chars(oid).toughness) == (0, 2)


def test_pt_defining_ability_is_lost_with_all_abilities(reg: Registry) -> None:
    """Layer 6 comes before 7a: a creature that loses all abilities has no P/T CDA."""
    g = new_game(reg)
    avatar = put(g, "Avatar", token=True)
    assert g.chars(avatar).power == 20
    effect(g, "lose_all_abilities", [avatar])
    assert (g.chars(avatar).power, g.chars(avatar).toughness) == (0, 0)


def test_end_of_turn_effects_end_in_cleanup(reg: Registry) -> None:
    g = new_game(reg)
    oid = put(g, "Woodland Changeling")
    effect(g, "lose_all_creature_types", [oid])
    effect(g, "pt", [oid], [3, -1])
    g._cleanup(0)
    c = g.chars(oid)
    assert c.has_subtype("Elf") and (c.power, c.toughness) == (2, 2)
    assert not g.state.effects
    assert isinstance(g.log[-1].event, ev.EffectsEnded)


# ---------------------------------------------------------------------------
# CR 613.6 and dependencies (CR 613.8)

def test_effect_started_in_an_earlier_layer_keeps_applying(reg: Registry) -> None:
    """Test Totem's effect starts in layer 4 (it is also a Spirit); losing all abilities in
    layer 6 doesn't stop its layer 7c part (+1/+1) from applying (CR 613.6)."""
    g = new_game(reg)
    totem = put(g, "Test Totem")
    assert (g.chars(totem).power, g.chars(totem).has_subtype("Spirit")) == (3, True)
    effect(g, "lose_all_abilities", [totem])
    c = g.chars(totem)
    assert c.abilities == [] and c.has_subtype("Spirit") and c.power == 3


def test_static_sees_type_changes_of_earlier_layers(reg: Registry) -> None:
    """'Spirits have flying' (layer 6) decides which objects are Spirits after layer 4: an
    object made a Spirit by a later effect still gets flying."""
    g = new_game(reg)
    put(g, "Test Spirit Wind")
    bears = put(g, "Grizzly Bears")
    assert not g.chars(bears).has("flying")
    effect(g, "add_creature_types", [bears], ["Spirit"])
    assert g.chars(bears).has("flying")


def test_ability_removal_first_when_a_static_depends_on_it(reg: Registry) -> None:
    """Goblin Chieftain's grant (layer 6) depends on "loses all abilities" (layer 6) applied
    to it: the removal applies first whatever the timestamps, so nothing is granted."""
    g = new_game(reg)
    chief = put(g, "Goblin Chieftain")
    rider = put(g, "Goblin Roughrider")
    assert g.chars(rider).has("haste") and g.chars(rider).power == 4
    effect(g, "lose_all_abilities", [chief])
    c = g.chars(rider)
    assert not c.has("haste") and c.power == 3


def test_independent_effects_keep_timestamp_order(reg: Registry) -> None:
    """A grant and a later removal of the same ability on the same creature don't depend
    on each other: timestamp order, so the later removal wins, and vice versa."""
    g = new_game(reg)
    bears = put(g, "Grizzly Bears")
    effect(g, "grant", [bears], ["flying"])
    effect(g, "lose", [bears], ["flying"])
    assert not g.chars(bears).has("flying")
    effect(g, "grant", [bears], ["flying"])
    assert g.chars(bears).has("flying")


# ---------------------------------------------------------------------------
# the filter vocabulary (docs/filters.md)

def test_noun_card_spell_and_creature(reg: Registry) -> None:
    g = new_game(reg)
    ench = put(g, "Boggart Shenanigans")             # Tribal Enchantment -- Goblin
    rider = put(g, "Goblin Roughrider")              # Goblin creature
    in_gy = put(g, "Tarfire", zone="graveyard")      # Tribal Instant -- Goblin card
    chg_hand = put(g, "Woodland Changeling", zone="hand")
    bears_gy = put(g, "Grizzly Bears", zone="graveyard")
    v = g.view()
    assert matching(v, kind("Goblin"), 0) == [ench, rider]
    assert matching(v, kind("Goblin").creature, 0) == [rider]
    assert matching(v, kind("Goblin").card, 0, zone="graveyard") == [in_gy]
    assert matching(v, kind("Goblin").card, 0, zone="hand") == [chg_hand]
    assert not kind("Goblin").card(v, bears_gy, 0)
    assert not kind("Goblin").card(v, ench, 0)  # on the battlefield: a permanent, not a card


def test_tokens_are_never_cards(reg: Registry) -> None:
    g = new_game(reg)
    tok = put(g, "Shapeshifter", token=True)
    v = g.view()
    assert kind("Elf")(v, tok, 0) and not card(v, tok, 0)


def test_kind_of_several_types(reg: Registry) -> None:
    g = new_game(reg)
    rider = put(g, "Goblin Roughrider")
    ogre = put(g, "Gray Ogre")
    f = kind("Ogre", "Elemental")
    v = g.view()
    assert matching(v, f, 0) == [ogre] and matching(v, f.creature, 0) == [ogre]
    assert repr(f.creature) == "kind('Ogre', 'Elemental').creature"
    assert rider not in matching(v, f, 0)


def test_without_subtype_and_in_your_zone(reg: Registry) -> None:
    g = new_game(reg)
    chg = put(g, "Woodland Changeling")
    ogre = put(g, "Gray Ogre")
    mine = put(g, "Tarfire", zone="graveyard", owner=0)
    theirs = put(g, "Tarfire", zone="graveyard", owner=1)
    v = g.view()
    assert matching(v, creature.without_subtype("Elf"), 0) == [ogre] and chg
    f = kind("Goblin").card.in_your("graveyard")
    assert f(v, mine, 0) and not f(v, theirs, 0)
    assert not kind("Goblin").card.permanent_card()(v, mine, 0)


# ---------------------------------------------------------------------------
# "Choose a creature type"

class _Recorder:
    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.seen: list[Decision] = []

    def decide(self, game: Game, d: Decision) -> Any:
        self.seen.append(d)
        return self.answer


def test_choose_a_creature_type_is_a_decision_with_every_type(reg: Registry) -> None:
    g = new_game(reg)
    agent = _Recorder("Kithkin")
    g.agents = [agent, agent]
    from mtgk.rules.state import StackItem  # a resolving spell is all the helper needs
    ctx = Ctx(g, StackItem(id=999, kind="spell", source=999, ability="spell", controller=0))
    assert choose_creature_type(ctx) == "Kithkin"
    d = agent.seen[-1]
    assert d.kind == "creature_type"
    assert d.options == sorted(creature_types()) == creature_type_options()
    assert len(d.options) == len(creature_types()) > 250
    last = g.log[-1].event
    assert isinstance(last, ev.DecisionMade) and last.choice == "Kithkin"


def test_choose_a_creature_type_refuses_a_non_type(reg: Registry) -> None:
    from mtgk.rules.engine import RulesError
    g = new_game(reg)
    g.agents = [_Recorder("Forest"), _Recorder("Forest")]
    from mtgk.rules.state import StackItem
    ctx = Ctx(g, StackItem(id=999, kind="spell", source=999, ability="spell", controller=0))
    with pytest.raises(RulesError):
        choose_creature_type(ctx)


RALLY = """
name: rally-for-elves
strict: true
players:
  alice:
    battlefield: [Forest, Woodland Changeling, Grizzly Bears]
    hand: [Test Tribal Rally]
  bob:
    battlefield: [Avian Changeling]
actions:
  - {player: alice, cast: Test Tribal Rally, answers: [{choose: %s}]}
  - {resolve: all}
expect:
  - {card: Woodland Changeling, power: %d, toughness: %d}
  - {card: Avian Changeling, power: %d}
  - {card: Grizzly Bears, power: %d}
"""


@pytest.mark.parametrize("choice, changeling, avian, bears", [
    ("Elf", 3, 3, 2), ("Bear", 3, 3, 3), ("Kor", 3, 3, 2)])
def test_scenario_answers_choose_a_creature_type(reg: Registry, choice: str, changeling: int,
                                                 avian: int, bears: int) -> None:
    text = RALLY % (choice, changeling, changeling, avian, bears)
    sc = loads_scenarios(text, "inline.yaml", lambda n: n in reg)[0]
    res = run_scenario(sc, reg)
    assert res.passed, res.reason
    kinds = [e.event.kind for e in res.log if isinstance(e.event, ev.DecisionMade)]
    assert "creature_type" in kinds


def test_scenario_with_an_unknown_creature_type_fails(reg: Registry) -> None:
    text = RALLY % ("Swamp", 3, 3, 3, 2)
    sc = loads_scenarios(text, "inline.yaml", lambda n: n in reg)[0]
    res = run_scenario(sc, reg)
    assert not res.passed and "Swamp" in res.reason


def test_printed_characteristics_need_no_subtype_correlation(registry: Registry) -> None:
    """Layer 4 drops subtypes whose card type an object lost; the layer system skips that
    for objects no effect touched, which is right only if every card's printed
    characteristics are consistent already."""
    from mtgk.rules.chars import chars_key, printed_template
    from mtgk.rules.layers import _correlate_subtypes
    for name in registry.cards:
        t = printed_template(registry, name)
        c = t.copy()
        _correlate_subtypes(c)
        assert chars_key(c) == chars_key(t), name


def test_printed_characteristics_share_lists_until_an_effect_changes_them(
        registry: Registry) -> None:
    from mtgk.rules.chars import printed_template
    from mtgk.rules.layers import APPLIERS, _apply
    g = Game(registry, ["A", "B"], seed=1)
    with g.setting_up():
        g.emit(ev.ObjectCreated(obj=g.new_id(), card="Grizzly Bears", owner=0,
                                zone="battlefield"))
    oid = g.state.battlefield[0]
    c = g.chars(oid)
    t = printed_template(registry, "Grizzly Bears")
    assert c.shared and c.abilities is t.abilities
    _apply("grant", [oid], ["flying"], {oid: c}, g.view())
    assert "flying" in c.abilities and "flying" not in t.abilities and not c.shared
    assert APPLIERS["grant"][0] == "6"


# ---------------------------------------------------------------------------
# characteristics kept across events that change nothing a static ability reads

def test_a_static_that_reads_tapped_status_sees_a_creature_tap(reg: Registry) -> None:
    """Tapping changes no characteristic by itself (the engine keeps the layer result
    across it), but "untapped creatures you control get +1/+1" reads tapped status: its
    filter says so (``.untapped()`` reads ``"tapped"``) and the creature shrinks."""
    g = new_game(reg)
    put(g, "Test Vigil Banner")
    bear = put(g, "Grizzly Bears")
    assert (g.chars(bear).power, g.chars(bear).toughness) == (3, 3)
    g.emit(ev.Tapped(obj=bear))
    assert (g.chars(bear).power, g.chars(bear).toughness) == (2, 2)
    g.emit(ev.Untapped(obj=bear))
    assert g.chars(bear).power == 3


def test_a_cda_that_reads_the_graveyard_sees_a_card_arrive(reg: Registry) -> None:
    g = new_game(reg)
    giant = put(g, "Test Grave Giant")
    card = put(g, "Grizzly Bears", zone="hand")
    assert g.chars(giant).power == 0
    g.move(card, "graveyard", reason="discard")
    assert g.chars(giant).power == 1


def test_a_draw_keeps_the_layer_result_when_nothing_reads_hands(reg: Registry) -> None:
    g = new_game(reg)
    put(g, "Test Vigil Banner")
    put(g, "Grizzly Bears")
    put(g, "Grizzly Bears", zone="library")
    kept = g.view()._chars
    g.draw(0)
    assert g._chars is kept  # the same computation, not a new one
    g.validate_caches = True
    g.check_cached_characteristics()


def test_filters_say_what_they_read() -> None:
    assert kind("Elf").you_control().reads == {"types", "controller"}
    assert creature.untapped().reads == {"types", "tapped"}
    assert creature.attacking().reads == {"types", "combat"}
    assert card.in_your("graveyard").reads is not None
    assert "graveyard" in card.in_your("graveyard").reads
    assert creature.where(lambda v, r, y, s: True).reads is None  # unknown: anything


CARELESS = """
name: careless-drake
players:
  alice:
    battlefield: [Test Careless Drake, Mountain]
    hand: [Lightning Bolt]
    library: [Island, Island]
  bob:
    library: [Island, Island]
actions:
  - {player: alice, cast: Lightning Bolt, targets: [bob]}
  - {resolve: all}
expect:
  - {card: Test Careless Drake, has_ability: flying}
"""


def test_a_wrong_reads_declaration_fails_the_scenario_naming_the_card(reg: Registry) -> None:
    """Validated mode: the Drake reads its controller's graveyard but declares nothing;
    the scenario fails as the resolved Bolt goes to the graveyard, naming the card, the
    event and the difference."""
    sc = loads_scenarios(CARELESS, "inline.yaml", lambda n: n in reg)[0]
    res = run_scenario(sc, reg)
    assert not res.passed
    assert res.reason.startswith("validated mode: ") and "stale" in res.reason, res.reason
    assert "Test Careless Drake" in res.reason
    assert "ZoneChanged" in res.reason and "flying" in res.reason


def test_a_stale_report_names_the_card_whose_declaration_is_wrong(reg: Registry) -> None:
    """Validated mode: the Bears' kept characteristics go stale, but the Banner's
    declaration is what is wrong; the report names it (it named only the Bears)."""
    text = CARELESS.replace("name: careless-drake", "name: careless-banner").replace(
        "battlefield: [Test Careless Drake, Mountain]",
        "battlefield: [Test Careless Banner, Grizzly Bears, Mountain]").replace(
        "{card: Test Careless Drake, has_ability: flying}",
        "{card: Grizzly Bears, has_ability: flying}")
    sc = loads_scenarios(text, "inline.yaml", lambda n: n in reg)[0]
    res = run_scenario(sc, reg)
    assert not res.passed and "stale" in res.reason, res.reason
    assert "Grizzly Bears" in res.reason
    assert ("declared without it: Test Careless Banner's static ability #0 'other creatures "
            "fly with a graveyard' (reads: nothing)") in res.reason, res.reason


def test_an_effect_outside_the_declared_layers_fails_naming_the_card(reg: Registry) -> None:
    """A static ability declaring ``layers=("7c",)`` that also gives a layer-6 effect: the
    vigilance was silently left out; in validated mode it fails naming the card."""
    text = """
name: muddled-anthem
players:
  alice:
    battlefield: [Test Muddled Anthem, Mountain]
    hand: [Lightning Bolt]
  bob: {}
actions:
  - {player: alice, cast: Lightning Bolt, targets: [bob]}
  - {resolve: all}
"""
    sc = loads_scenarios(text, "inline.yaml", lambda n: n in reg)[0]
    res = run_scenario(sc, reg)
    assert not res.passed
    assert 'card "Test Muddled Anthem"' in res.reason, res.reason
    assert ("gives an effect 'grant' in layer 6, outside the layers it declares (7c)"
            in res.reason), res.reason
    g = new_game(reg)
    put(g, "Test Muddled Anthem")
    c = g.chars(next(iter(g.state.battlefield)))
    assert c.power == 2 and not c.has("vigilance")  # unvalidated: the grant is left out


def test_lords_together_or_one_by_one_as_the_order_of_layer_7c_decides(reg: Registry) -> None:
    """Issue 29: lords of one card and controller are asked together where layer 7c's
    P/T changes add up in any order; a lord there that reads P/T (Test Small Anthem) makes
    the order matter (CR 613.7: timestamps; it affects what it sees as it starts to
    apply), and then each is asked alone, in order.  Either way the characteristics are
    those of asking each source alone (``check_layers``, validated mode's computation)."""
    from mtgk.rules.chars import chars_key
    from mtgk.rules.layers import compute

    g = new_game(reg)
    cenn1, cenn2 = put(g, "Wizened Cenn"), put(g, "Wizened Cenn")
    harrier = put(g, "Goldmeadow Harrier")
    mine = compute(g.state, g.reg)
    assert [mine[o].power for o in (cenn1, cenn2, harrier)] == [3, 3, 3]
    anthem = put(g, "Test Small Anthem")
    ogre = put(g, "Gray Ogre")
    effect(g, "pt", [ogre], [0, 0])
    for chars in (compute(g.state, g.reg), compute(g.state, g.reg, check_layers=True)):
        # the Cenns first (3/3 each), then the anthem: only the Ogre (2/2) has power <= 2
        assert [chars[o].power for o in (cenn1, cenn2, harrier, anthem, ogre)] == \
            [3, 3, 3, 1, 3]
    early = new_game(reg)
    anthem = put(early, "Test Small Anthem")
    cenn1, cenn2 = put(early, "Wizened Cenn"), put(early, "Wizened Cenn")
    harrier = put(early, "Goldmeadow Harrier")
    together = compute(early.state, early.reg)
    alone = compute(early.state, early.reg, check_layers=True)
    assert {o: chars_key(c) for o, c in together.items()} == \
        {o: chars_key(c) for o, c in alone.items()}
    # the anthem first: +1/+1 for all three (power 2, 2, 1), then the Cenns
    assert [together[o].power for o in (cenn1, cenn2, harrier, anthem)] == [4, 4, 4, 1]
