"""The simple Lorwyn cards (cardsets/lorwyn/simple.py) played through the real engine.

Each test sets up a small position with ``ObjectCreated`` events, then casts,
activates, attacks or lets triggers happen exactly as a game would.  One test
per kind of ability the module uses; then whole games with the built-in decks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from mtgk.agents import HeuristicAgent, RandomAgent
from mtgk.cards.decks import builtin_decks, parse_deck
from mtgk.cards.loading import load_registry
from mtgk.cardsets.lorwyn.simple import CARDS, DECKS
from mtgk.log import events as ev
from mtgk.log.events import player_ref
from mtgk.rules.engine import Decision, Game, GameOver, RulesError
from mtgk.rules.state import encode_state, fold

REG = load_registry(["lorwyn"], strict=True)
ALICE, BOB = 0, 1
A, B = player_ref(ALICE), player_ref(BOB)  # player references (targets)


# ------------------------------------------------------------------ helpers

class Script:
    """A scripted player: answers from per-kind queues, else sensible defaults.

    Queue entries may be callables ``(game, decision) -> answer``.  Defaults:
    pass priority, say yes to "you may", attack and block with nothing, take
    the first option (or the first ``count`` options).
    """

    def __init__(self, **answers: list[Any]) -> None:
        self.answers = {k: list(v) for k, v in answers.items()}
        self.asked: list[Decision] = []

    def decide(self, game: Game, d: Decision) -> Any:
        self.asked.append(d)
        q = self.answers.get(d.kind)
        if q:
            a = q.pop(0)
            return a(game, d) if callable(a) else a
        if d.kind == "priority":
            return ["pass"]
        if d.kind == "may":
            return True
        if d.kind in ("attackers", "blockers"):
            return []
        if d.kind == "assign":
            return d.context["default"]
        if d.kind == "order":
            return list(d.context)
        if d.options is None:
            return []
        return list(d.options[:d.count]) if d.many else d.options[0]


def table(alice: dict[str, list[str]] | None = None, bob: dict[str, list[str]] | None = None,
          agents: list[Any] | None = None, active: int = ALICE,
          step: str = "precombat_main") -> Game:
    """A game in ``step`` of turn 1 with the given cards in the given zones."""
    g = Game(REG, ["alice", "bob"], seed=0, agents=agents or [Script(), Script()])
    for p, zones in enumerate((alice or {}, bob or {})):
        for zone, names in zones.items():
            for name in names:
                g.emit(ev.ObjectCreated(obj=g.new_id(), card=name, owner=p, zone=zone))
    g.emit(ev.TurnBegan(turn=1, active=active))
    g.emit(ev.StepBegan(step=step))
    return g


def ids(g: Game, name: str, player: int | None = None, zone: str = "battlefield") -> list[int]:
    """Objects named ``name`` in a zone (battlefield: controlled by ``player``)."""
    s = g.state
    if zone == "battlefield":
        pool = s.battlefield
    elif zone in ("exile", "stack"):
        pool = s.exile if zone == "exile" else [it.id for it in s.stack]
    else:
        pool = [i for p, pl in enumerate(s.players) if player in (None, p)
                for i in getattr(pl, zone)]
    return [i for i in pool if s.objects[i].card == name
            and (zone != "battlefield" or player is None or g.chars(i).controller == player)]


def one(g: Game, name: str, player: int | None = None, zone: str = "battlefield") -> int:
    found = ids(g, name, player, zone)
    assert len(found) == 1, f"expected one {name} in {zone}, found {found}"
    return found[0]


def do(g: Game, player: int, action: list[Any]) -> None:
    """Check and perform a priority action, then let triggers go on the stack."""
    g.perform(player, g.check_action(player, action))
    g.settle()


def resolve(g: Game) -> None:
    """Resolve the whole stack (triggers included)."""
    while g.state.stack:
        g.resolve_top()
        g.settle()


def cast(g: Game, player: int, name: str, targets: Sequence[int] = (),
         modes: Sequence[int] = ()) -> None:
    do(g, player, ["cast", one(g, name, player, "hand"), list(targets), list(modes), 0, ""])


def activate(g: Game, player: int, name: str, targets: Sequence[int] = (), idx: int = 1
             ) -> None:
    do(g, player, ["activate", one(g, name, player), idx, list(targets), 0])


def enter(g: Game, name: str, player: int = ALICE) -> int:
    """Put a card from ``player``'s hand onto the battlefield (it enters: ETBs trigger)."""
    oid = g.new_id()
    g.emit(ev.ObjectCreated(obj=oid, card=name, owner=player, zone="hand"))
    new = g.move(oid, "battlefield", reason="put")
    assert new is not None
    g.settle()
    return new


def combat(g: Game, attackers: list[list[int]], blockers: Sequence[list[int]] = (),
           agents: tuple[Script, Script] | None = None) -> None:
    """Run turn 1 from beginning of combat to cleanup with the given attacks and blocks."""
    a, b = agents or (Script(), Script())
    a.answers.setdefault("attackers", []).append(attackers)
    b.answers.setdefault("blockers", []).append(list(blockers))
    g.agents = [a, b]
    try:
        g.turn_from("beginning_of_combat", 1, g.state.active)
    except GameOver:
        pass


def pt(g: Game, oid: int) -> tuple[int | None, int | None]:
    c = g.chars(oid)
    return c.power, c.toughness


def life(g: Game, player: int) -> int:
    return g.state.players[player].life


# ------------------------------------------------------------------ keyword-only creatures

def test_keyword_creatures_take_their_keywords_from_the_card_data() -> None:
    g = table(alice={"battlefield": ["Knight of Meadowgrain", "Plover Knights",
                                     "Hillcomber Giant", "Oakgnarl Warrior"]})
    assert g.chars(one(g, "Knight of Meadowgrain")).abilities == ["first strike", "lifelink"]
    assert set(g.chars(one(g, "Plover Knights")).abilities) == {"flying", "first strike"}
    assert g.chars(one(g, "Hillcomber Giant")).has("mountainwalk")
    assert set(g.chars(one(g, "Oakgnarl Warrior")).abilities) == {"vigilance", "trample"}


def test_knight_of_meadowgrain_attacks_with_first_strike_and_lifelink() -> None:
    g = table(alice={"battlefield": ["Knight of Meadowgrain"]},
              bob={"battlefield": ["Goldmeadow Harrier"]})
    knight, harrier = one(g, "Knight of Meadowgrain"), one(g, "Goldmeadow Harrier")
    combat(g, [[knight, B]], [[harrier, knight]])
    # first strike kills the 1/1 blocker before it deals damage; lifelink gains 2
    assert ids(g, "Goldmeadow Harrier", zone="graveyard")
    assert knight in g.state.battlefield
    assert life(g, ALICE) == 22 and life(g, BOB) == 20


def test_hillcomber_giant_cannot_be_blocked_by_a_player_with_a_mountain() -> None:
    g = table(alice={"battlefield": ["Hillcomber Giant"]},
              bob={"battlefield": ["Mountain", "Cloudcrown Oak"]})
    assert not g.can_block(one(g, "Cloudcrown Oak"), one(g, "Hillcomber Giant"))


# ------------------------------------------------------------------ spells

def test_neck_snap_destroys_only_an_attacking_or_blocking_creature() -> None:
    g = table(alice={"battlefield": ["Plains"] * 4, "hand": ["Neck Snap"]},
              bob={"battlefield": ["Axegrinder Giant"]}, active=BOB, step="declare_attackers")
    axe = one(g, "Axegrinder Giant")
    with pytest.raises(RulesError):
        cast(g, ALICE, "Neck Snap", [axe])
    g.emit(ev.AttackersDeclared(attacks=((axe, A),)))
    cast(g, ALICE, "Neck Snap", [axe])
    resolve(g)
    assert ids(g, "Axegrinder Giant", zone="graveyard")
    assert ids(g, "Neck Snap", zone="graveyard")


def test_hurly_burly_mode_two_damages_only_flyers() -> None:
    g = table(alice={"battlefield": ["Mountain", "Mountain"], "hand": ["Hurly-Burly"]},
              bob={"battlefield": ["Sentinels of Glen Elendra", "Cloudcrown Oak"]})
    with pytest.raises(RulesError):
        cast(g, ALICE, "Hurly-Burly", modes=[1, 2])  # choose one
    cast(g, ALICE, "Hurly-Burly", modes=[2])
    resolve(g)
    assert g.state.objects[one(g, "Sentinels of Glen Elendra")].damage == 1
    assert g.state.objects[one(g, "Cloudcrown Oak")].damage == 0


def test_final_revels_gives_all_creatures_minus_zero_minus_two() -> None:
    g = table(alice={"battlefield": ["Swamp"] * 5 + ["Goldmeadow Harrier"],
                     "hand": ["Final Revels"]},
              bob={"battlefield": ["Cloudcrown Oak"]})
    cast(g, ALICE, "Final Revels", modes=[2])
    resolve(g)
    assert ids(g, "Goldmeadow Harrier", zone="graveyard")
    assert pt(g, one(g, "Cloudcrown Oak")) == (3, 2)


def test_incremental_growth_puts_one_two_and_three_counters_on_different_creatures() -> None:
    g = table(alice={"battlefield": ["Forest"] * 5 + ["Leaf Gilder", "Cloudcrown Oak",
                                                      "Goldmeadow Harrier"],
                     "hand": ["Incremental Growth"]})
    gilder, oak, harrier = (one(g, n) for n in ("Leaf Gilder", "Cloudcrown Oak",
                                                  "Goldmeadow Harrier"))
    with pytest.raises(RulesError):
        cast(g, ALICE, "Incremental Growth", [gilder, gilder, oak])
    cast(g, ALICE, "Incremental Growth", [oak, harrier, gilder])
    resolve(g)
    assert [g.state.objects[o].counters for o in (oak, harrier, gilder)] == [
        {"+1/+1": 1}, {"+1/+1": 2}, {"+1/+1": 3}]
    assert pt(g, gilder) == (5, 4)


def test_lace_with_moonglove_grants_deathtouch_and_draws() -> None:
    g = table(alice={"battlefield": ["Forest"] * 3 + ["Goldmeadow Harrier"],
                     "hand": ["Lace with Moonglove"], "library": ["Island"]})
    harrier = one(g, "Goldmeadow Harrier")
    cast(g, ALICE, "Lace with Moonglove", [harrier])
    resolve(g)
    assert g.chars(harrier).has("deathtouch")
    assert ids(g, "Island", ALICE, "hand")


# ------------------------------------------------------------------ enters-the-battlefield triggers

def test_kinsbaile_skirmisher_cast_with_real_mana_pumps_its_target() -> None:
    g = table(alice={"battlefield": ["Plains", "Plains", "Goldmeadow Harrier"],
                     "hand": ["Kinsbaile Skirmisher"]})
    harrier = one(g, "Goldmeadow Harrier")
    cast(g, ALICE, "Kinsbaile Skirmisher")
    assert all(g.state.objects[p].tapped for p in ids(g, "Plains"))
    g.agents[ALICE] = Script(targets=[[harrier]])
    resolve(g)
    assert pt(g, harrier) == (2, 2)


def test_arbiter_of_knollridge_sets_each_life_total_to_the_highest() -> None:
    g = table()
    g.emit(ev.LifeLost(player=ALICE, n=7))
    g.emit(ev.LifeGained(player=BOB, n=4))
    enter(g, "Arbiter of Knollridge")
    resolve(g)
    assert (life(g, ALICE), life(g, BOB)) == (24, 24)


def test_giant_harbinger_puts_a_searched_giant_on_top_of_the_library() -> None:
    g = table(alice={"library": ["Forest", "Island", "Axegrinder Giant", "Plains"]})
    enter(g, "Giant Harbinger")
    resolve(g)
    lib = g.state.players[ALICE].library
    assert g.state.objects[lib[0]].card == "Axegrinder Giant" and len(lib) == 4
    assert any(isinstance(e.event, ev.Revealed) for e in g.log)
    assert any(isinstance(e.event, ev.LibraryShuffled) for e in g.log)


def test_harbinger_may_decline_to_search() -> None:
    g = table(alice={"library": ["Axegrinder Giant", "Forest"]},
              agents=[Script(may=[False]), Script()])
    enter(g, "Giant Harbinger")
    resolve(g)
    lib = g.state.players[ALICE].library
    assert [g.state.objects[o].card for o in lib] == ["Axegrinder Giant", "Forest"]
    assert not any(isinstance(e.event, ev.LibraryShuffled) for e in g.log)


def test_oblivion_ring_exiles_and_returns_the_card() -> None:
    g = table(alice={"battlefield": ["Plains"] * 3, "hand": ["Oblivion Ring"]},
              bob={"battlefield": ["Axegrinder Giant"]})
    cast(g, ALICE, "Oblivion Ring")
    resolve(g)
    assert not ids(g, "Axegrinder Giant") and ids(g, "Axegrinder Giant", zone="exile")
    g.destroy(one(g, "Oblivion Ring"))
    g.settle()
    resolve(g)
    axe = one(g, "Axegrinder Giant")
    assert g.chars(axe).controller == BOB and not ids(g, "Axegrinder Giant", zone="exile")


def test_spellstutter_sprite_counters_a_spell_with_mana_value_up_to_its_faeries() -> None:
    g = table(alice={"battlefield": ["Island", "Island", "Pestermite"],
                     "hand": ["Spellstutter Sprite"]},
              bob={"battlefield": ["Swamp", "Swamp"], "hand": ["Exiled Boggart"]}, active=BOB)
    cast(g, BOB, "Exiled Boggart")
    cast(g, ALICE, "Spellstutter Sprite")  # flash
    g.resolve_top()  # the Sprite; its trigger targets the Boggart spell (2 Faeries)
    g.settle()
    resolve(g)
    assert ids(g, "Exiled Boggart", zone="graveyard") and not ids(g, "Exiled Boggart")
    assert ids(g, "Spellstutter Sprite")


def test_spellstutter_sprite_alone_cannot_target_a_two_mana_spell() -> None:
    g = table(alice={"battlefield": ["Island", "Island"], "hand": ["Spellstutter Sprite"]},
              bob={"battlefield": ["Swamp", "Swamp"], "hand": ["Exiled Boggart"]}, active=BOB)
    cast(g, BOB, "Exiled Boggart")
    cast(g, ALICE, "Spellstutter Sprite")
    resolve(g)
    assert ids(g, "Exiled Boggart")


def test_pestermite_may_tap_target_permanent() -> None:
    g = table(bob={"battlefield": ["Axegrinder Giant"]},
              agents=[Script(choose=["tap"]), Script()])
    enter(g, "Pestermite")
    resolve(g)
    assert g.state.objects[one(g, "Axegrinder Giant")].tapped


def test_thundercloud_shaman_deals_damage_equal_to_giants_to_each_non_giant() -> None:
    g = table(alice={"battlefield": ["Axegrinder Giant", "Goldmeadow Harrier"]},
              bob={"battlefield": ["Sentinels of Glen Elendra", "Hillcomber Giant"]})
    enter(g, "Thundercloud Shaman")
    resolve(g)
    assert ids(g, "Goldmeadow Harrier", zone="graveyard")
    assert g.state.objects[one(g, "Sentinels of Glen Elendra")].damage == 2
    assert g.state.objects[one(g, "Hillcomber Giant")].damage == 0
    assert g.state.objects[one(g, "Axegrinder Giant")].damage == 0


def test_hunter_of_eyeblights_counter_then_destroy_creature_with_a_counter() -> None:
    g = table(alice={"battlefield": ["Swamp"] * 3},
              bob={"battlefield": ["Cloudcrown Oak", "Goldmeadow Harrier"]})
    oak = one(g, "Cloudcrown Oak")
    g.agents[ALICE] = Script(targets=[[oak]])
    hunter = enter(g, "Hunter of Eyeblights")
    resolve(g)
    assert g.state.objects[oak].counters == {"+1/+1": 1}
    g.emit(ev.TurnBegan(turn=3, active=ALICE))  # no longer summoning sick
    with pytest.raises(RulesError):
        activate(g, ALICE, "Hunter of Eyeblights", [one(g, "Goldmeadow Harrier")])
    activate(g, ALICE, "Hunter of Eyeblights", [oak])
    resolve(g)
    assert ids(g, "Cloudcrown Oak", zone="graveyard") and g.state.objects[hunter].tapped


def test_warren_pilferers_returns_a_goblin_and_gains_haste() -> None:
    g = table(alice={"graveyard": ["Exiled Boggart"]})
    pilferers = enter(g, "Warren Pilferers")
    resolve(g)
    assert ids(g, "Exiled Boggart", ALICE, "hand")
    assert g.chars(pilferers).has("haste")


def test_hamletback_goliath_gets_counters_equal_to_the_entering_creatures_power() -> None:
    g = table(alice={"battlefield": ["Hamletback Goliath"]})
    enter(g, "Axegrinder Giant", BOB)
    resolve(g)
    assert pt(g, one(g, "Hamletback Goliath")) == (12, 12)


# ------------------------------------------------------------------ dies / leaves triggers

def test_mudbutton_torchrunner_deals_three_damage_when_it_dies() -> None:
    g = table(alice={"battlefield": ["Mudbutton Torchrunner"]},
              agents=[Script(targets=[[B]]), Script()])
    g.destroy(one(g, "Mudbutton Torchrunner"))
    g.settle()
    resolve(g)
    assert life(g, BOB) == 17


def test_hornet_harasser_gives_minus_two_minus_two_when_it_dies() -> None:
    g = table(alice={"battlefield": ["Hornet Harasser"]},
              bob={"battlefield": ["Moonglove Winnower"]})
    g.destroy(one(g, "Hornet Harasser"))
    g.settle()
    resolve(g)
    assert pt(g, one(g, "Moonglove Winnower")) == (0, 1)


def test_exiled_boggart_makes_you_discard() -> None:
    g = table(alice={"battlefield": ["Exiled Boggart"], "hand": ["Forest", "Island"]},
              agents=[Script(discard=[lambda game, d: d.options[1]]), Script()])
    g.destroy(one(g, "Exiled Boggart"))
    g.settle()
    resolve(g)
    assert ids(g, "Island", ALICE, "graveyard") and ids(g, "Forest", ALICE, "hand")


def test_seedguide_ash_puts_forests_onto_the_battlefield_tapped() -> None:
    # one Forest in the library: "up to three" still lets the player choose (kernel fix)
    g = table(alice={"battlefield": ["Seedguide Ash"], "library": ["Island", "Forest"]})
    g.destroy(one(g, "Seedguide Ash"))
    g.settle()
    resolve(g)
    forest = one(g, "Forest")
    assert g.state.objects[forest].tapped
    assert [g.state.objects[o].card for o in g.state.players[ALICE].library] == ["Island"]


def test_knucklebone_witch_grows_when_a_goblin_you_control_dies() -> None:
    g = table(alice={"battlefield": ["Knucklebone Witch", "Exiled Boggart"]},
              bob={"battlefield": ["Boggart Forager"]})
    g.destroy(one(g, "Boggart Forager"))  # not yours: no trigger
    g.destroy(one(g, "Exiled Boggart"))
    g.settle()
    resolve(g)
    assert pt(g, one(g, "Knucklebone Witch")) == (2, 2)


# ------------------------------------------------------------------ attack / tapped triggers

def test_cenns_heir_grows_for_each_other_attacking_kithkin() -> None:
    g = table(alice={"battlefield": ["Cenn's Heir", "Goldmeadow Harrier", "Goldmeadow Harrier",
                                     "Cloudcrown Oak"]})
    attackers = [[o, B] for o in ids(g, "Cenn's Heir") + ids(g, "Goldmeadow Harrier")
                 + ids(g, "Cloudcrown Oak")]
    combat(g, attackers)
    assert life(g, BOB) == 20 - 3 - 1 - 1 - 3


def test_veteran_of_the_depths_gets_a_counter_when_it_becomes_tapped() -> None:
    g = table(alice={"battlefield": ["Veteran of the Depths"]})
    vet = one(g, "Veteran of the Depths")
    combat(g, [[vet, B]])
    assert g.state.objects[vet].counters == {"+1/+1": 1}
    assert life(g, BOB) == 17


def test_judge_of_currents_and_stonybrook_angler() -> None:
    g = table(alice={"battlefield": ["Judge of Currents", "Stonybrook Angler", "Island",
                                     "Island"]},
              bob={"battlefield": ["Axegrinder Giant"]},
              agents=[Script(choose=["tap"]), Script()])
    axe = one(g, "Axegrinder Giant")
    activate(g, ALICE, "Stonybrook Angler", [axe])  # the Angler (a Merfolk) becomes tapped
    resolve(g)
    assert g.state.objects[axe].tapped
    assert life(g, ALICE) == 21


def test_kithkin_mourncaller_draws_when_an_attacking_kithkin_dies() -> None:
    g = table(alice={"battlefield": ["Kithkin Mourncaller", "Goldmeadow Harrier"],
                     "library": ["Plains"]},
              bob={"battlefield": ["Axegrinder Giant"]})
    harrier, axe = one(g, "Goldmeadow Harrier"), one(g, "Axegrinder Giant")
    combat(g, [[harrier, B]], [[axe, harrier]])
    assert ids(g, "Goldmeadow Harrier", zone="graveyard")
    assert ids(g, "Plains", ALICE, "hand")


# ------------------------------------------------------------------ cast triggers

def test_lys_alana_huntmaster_makes_an_elf_warrior_for_each_elf_spell() -> None:
    g = table(alice={"battlefield": ["Lys Alana Huntmaster", "Forest", "Forest", "Forest",
                                     "Forest", "Forest"],
                     "hand": ["Elvish Eulogist", "Cloudcrown Oak"]})
    cast(g, ALICE, "Elvish Eulogist")
    resolve(g)
    cast(g, ALICE, "Cloudcrown Oak")
    resolve(g)
    warriors = ids(g, "Elf Warrior")
    assert len(warriors) == 1 and pt(g, warriors[0]) == (1, 1)
    assert g.state.objects[warriors[0]].token


def test_dreamspoiler_witches_trigger_only_during_an_opponents_turn() -> None:
    g = table(alice={"battlefield": ["Dreamspoiler Witches"] + ["Island"] * 8,
                     "hand": ["Sentinels of Glen Elendra", "Sentinels of Glen Elendra"]},
              bob={"battlefield": ["Moonglove Winnower"]})
    do(g, ALICE, ["cast", ids(g, "Sentinels of Glen Elendra", ALICE, "hand")[0], [], [], 0, ""])
    assert len(g.state.stack) == 1 and not g.state.pending  # no trigger on your own turn
    resolve(g)
    g.emit(ev.TurnBegan(turn=2, active=BOB))
    winnower = one(g, "Moonglove Winnower")
    g.agents[ALICE] = Script(targets=[[winnower]])
    cast(g, ALICE, "Sentinels of Glen Elendra")  # flash, during Bob's turn
    resolve(g)
    assert pt(g, winnower) == (1, 2)


# ------------------------------------------------------------------ activated abilities

def test_goldmeadow_harrier_taps_target_creature() -> None:
    g = table(alice={"battlefield": ["Goldmeadow Harrier", "Plains"]},
              bob={"battlefield": ["Axegrinder Giant"]})
    axe = one(g, "Axegrinder Giant")
    activate(g, ALICE, "Goldmeadow Harrier", [axe])
    resolve(g)
    assert g.state.objects[axe].tapped and g.state.objects[one(g, "Goldmeadow Harrier")].tapped
    with pytest.raises(RulesError):  # already tapped
        activate(g, ALICE, "Goldmeadow Harrier", [axe])


def test_summoning_sick_creature_cannot_use_a_tap_ability() -> None:
    g = table(alice={"battlefield": ["Plains"]}, bob={"battlefield": ["Axegrinder Giant"]})
    enter(g, "Goldmeadow Harrier")
    with pytest.raises(RulesError):
        activate(g, ALICE, "Goldmeadow Harrier", [one(g, "Axegrinder Giant")])


def test_flamekin_brawler_pumps_itself() -> None:
    g = table(alice={"battlefield": ["Flamekin Brawler", "Mountain", "Mountain"]})
    activate(g, ALICE, "Flamekin Brawler")
    activate(g, ALICE, "Flamekin Brawler")
    resolve(g)
    assert pt(g, one(g, "Flamekin Brawler")) == (2, 2)


def test_moonglove_extract_is_sacrificed_to_deal_two_damage() -> None:
    g = table(alice={"battlefield": ["Moonglove Extract"]})
    activate(g, ALICE, "Moonglove Extract", [B])
    assert ids(g, "Moonglove Extract", zone="graveyard")
    resolve(g)
    assert life(g, BOB) == 18


def test_flamekin_spitfire_targets_a_creature_or_player() -> None:
    g = table(alice={"battlefield": ["Flamekin Spitfire"] + ["Mountain"] * 4},
              bob={"battlefield": ["Goldmeadow Harrier"]})
    harrier = one(g, "Goldmeadow Harrier")
    activate(g, ALICE, "Flamekin Spitfire", [harrier])
    resolve(g)
    assert ids(g, "Goldmeadow Harrier", zone="graveyard")


def test_wydwen_pays_life_to_return_to_hand() -> None:
    g = table(alice={"battlefield": ["Wydwen, the Biting Gale", "Island", "Swamp"]})
    activate(g, ALICE, "Wydwen, the Biting Gale")
    assert life(g, ALICE) == 19
    resolve(g)
    assert ids(g, "Wydwen, the Biting Gale", ALICE, "hand")


def test_leaf_gilder_taps_for_green_mana_to_cast_a_spell() -> None:
    g = table(alice={"battlefield": ["Leaf Gilder"], "hand": ["Elvish Eulogist"]})
    cast(g, ALICE, "Elvish Eulogist")
    assert g.state.objects[one(g, "Leaf Gilder")].tapped
    resolve(g)
    assert ids(g, "Elvish Eulogist")


def test_elvish_eulogist_gains_life_for_each_elf_card_in_your_graveyard() -> None:
    g = table(alice={"battlefield": ["Elvish Eulogist"],
                     "graveyard": ["Leaf Gilder", "Imperious Perfect", "Cloudcrown Oak"]})
    activate(g, ALICE, "Elvish Eulogist")
    resolve(g)
    assert life(g, ALICE) == 23  # two Elves in the graveyard, plus the Eulogist itself


def test_imperious_perfect_lord_and_token_maker() -> None:
    g = table(alice={"battlefield": ["Imperious Perfect", "Leaf Gilder", "Forest"]})
    assert pt(g, one(g, "Leaf Gilder")) == (3, 2)
    assert pt(g, one(g, "Imperious Perfect")) == (2, 2)
    activate(g, ALICE, "Imperious Perfect")
    resolve(g)
    assert pt(g, one(g, "Elf Warrior")) == (2, 2)


def test_jagged_scar_archers_counts_elves_and_shoots_flyers() -> None:
    g = table(alice={"battlefield": ["Jagged-Scar Archers", "Leaf Gilder"]},
              bob={"battlefield": ["Sentinels of Glen Elendra", "Cloudcrown Oak"]})
    archers = one(g, "Jagged-Scar Archers")
    assert pt(g, archers) == (2, 2)
    with pytest.raises(RulesError):
        activate(g, ALICE, "Jagged-Scar Archers", [one(g, "Cloudcrown Oak")])
    activate(g, ALICE, "Jagged-Scar Archers", [one(g, "Sentinels of Glen Elendra")])
    resolve(g)
    assert g.state.objects[one(g, "Sentinels of Glen Elendra")].damage == 2


# ------------------------------------------------------------------ static abilities

def test_wizened_cenn_pumps_other_kithkin_you_control() -> None:
    g = table(alice={"battlefield": ["Wizened Cenn", "Goldmeadow Harrier", "Cloudcrown Oak"]},
              bob={"battlefield": ["Goldmeadow Harrier"]})
    assert pt(g, one(g, "Goldmeadow Harrier", ALICE)) == (2, 2)
    assert pt(g, one(g, "Goldmeadow Harrier", BOB)) == (1, 1)
    assert pt(g, one(g, "Wizened Cenn")) == (2, 2)
    assert pt(g, one(g, "Cloudcrown Oak")) == (3, 4)


def test_kithkin_greatheart_needs_a_giant() -> None:
    g = table(alice={"battlefield": ["Kithkin Greatheart"]})
    gh = one(g, "Kithkin Greatheart")
    assert pt(g, gh) == (2, 1) and not g.chars(gh).has("first strike")
    enter(g, "Axegrinder Giant")
    assert pt(g, gh) == (3, 2) and g.chars(gh).has("first strike")


def test_dauntless_dourbark_counts_forests_and_treefolk() -> None:
    g = table(alice={"battlefield": ["Dauntless Dourbark", "Forest", "Forest", "Mountain"]})
    bark = one(g, "Dauntless Dourbark")
    assert pt(g, bark) == (3, 3) and not g.chars(bark).has("trample")
    enter(g, "Cloudcrown Oak")
    assert pt(g, bark) == (4, 4) and g.chars(bark).has("trample")


def test_timber_protector_makes_treefolk_and_forests_indestructible() -> None:
    g = table(alice={"battlefield": ["Timber Protector", "Cloudcrown Oak", "Forest"]})
    oak, forest = one(g, "Cloudcrown Oak"), one(g, "Forest")
    assert pt(g, oak) == (4, 5) and pt(g, one(g, "Timber Protector")) == (4, 6)
    g.destroy(oak)
    g.destroy(forest)
    assert ids(g, "Cloudcrown Oak") and ids(g, "Forest")
    g.destroy(one(g, "Timber Protector"))
    assert ids(g, "Timber Protector", zone="graveyard")


def test_scion_of_oona_gives_other_faeries_shroud() -> None:
    g = table(alice={"battlefield": ["Scion of Oona", "Pestermite"]},
              bob={"battlefield": ["Goldmeadow Harrier", "Plains"]}, active=BOB)
    pester = one(g, "Pestermite")
    assert pt(g, pester) == (3, 2) and g.chars(pester).has("shroud")
    with pytest.raises(RulesError):
        activate(g, BOB, "Goldmeadow Harrier", [pester])
    activate(g, BOB, "Goldmeadow Harrier", [one(g, "Scion of Oona")])


def test_caterwauling_boggart_gives_goblins_and_elementals_menace() -> None:
    g = table(alice={"battlefield": ["Caterwauling Boggart", "Flamekin Brawler",
                                     "Cloudcrown Oak"]},
              bob={"battlefield": ["Exiled Boggart", "Goldmeadow Harrier"]})
    assert g.chars(one(g, "Caterwauling Boggart")).has("menace")
    assert g.chars(one(g, "Flamekin Brawler")).has("menace")
    assert not g.chars(one(g, "Cloudcrown Oak")).has("menace")
    assert not g.chars(one(g, "Exiled Boggart")).has("menace")
    cb = one(g, "Caterwauling Boggart")
    g.emit(ev.AttackersDeclared(attacks=((cb, B),)))
    with pytest.raises(RulesError):
        g.check_blockers(BOB, [[one(g, "Exiled Boggart"), cb]])
    g.check_blockers(BOB, [[one(g, "Exiled Boggart"), cb], [one(g, "Goldmeadow Harrier"), cb]])


# ------------------------------------------------------------------ Auras

def test_battle_mastery_gives_double_strike_and_dies_with_its_creature() -> None:
    g = table(alice={"battlefield": ["Plains"] * 3 + ["Goldmeadow Harrier"],
                     "hand": ["Battle Mastery"]})
    harrier = one(g, "Goldmeadow Harrier")
    cast(g, ALICE, "Battle Mastery", [harrier])
    resolve(g)
    aura = one(g, "Battle Mastery")
    assert g.state.objects[aura].attached_to == harrier
    assert g.chars(harrier).has("double strike")
    combat(g, [[harrier, B]])
    assert life(g, BOB) == 18
    g.destroy(harrier)
    g.settle()
    assert ids(g, "Battle Mastery", zone="graveyard")


def test_triclopean_sight_untaps_and_pumps() -> None:
    g = table(alice={"battlefield": ["Plains", "Plains", "Goldmeadow Harrier"],
                     "hand": ["Triclopean Sight"]}, active=BOB)
    harrier = one(g, "Goldmeadow Harrier")
    g.emit(ev.Tapped(obj=harrier))
    cast(g, ALICE, "Triclopean Sight", [harrier])  # flash
    resolve(g)
    assert not g.state.objects[harrier].tapped
    assert pt(g, harrier) == (2, 2) and g.chars(harrier).has("vigilance")


def test_soaring_hope_gains_life_grants_flying_and_goes_back_on_top() -> None:
    g = table(alice={"battlefield": ["Plains"] * 6 + ["Goldmeadow Harrier"],
                     "hand": ["Soaring Hope"]})
    harrier = one(g, "Goldmeadow Harrier")
    cast(g, ALICE, "Soaring Hope", [harrier])
    resolve(g)
    assert life(g, ALICE) == 23 and g.chars(harrier).has("flying")
    activate(g, ALICE, "Soaring Hope")
    resolve(g)
    top = g.state.players[ALICE].library[0]
    assert g.state.objects[top].card == "Soaring Hope"
    assert not g.chars(harrier).has("flying")


# ------------------------------------------------------------------ upkeep triggers

def test_nath_makes_the_opponent_discard_at_random_and_gets_an_elf() -> None:
    g = table(alice={"battlefield": ["Nath of the Gilt-Leaf"]}, bob={"hand": ["Forest"]})
    g.agents = [Script(), Script()]
    try:
        g.turn_from("upkeep", 1, ALICE)
    except GameOver:
        pass
    assert ids(g, "Forest", BOB, "graveyard")
    assert ids(g, "Elf Warrior", ALICE)


def test_wort_returns_a_goblin_card_at_upkeep() -> None:
    g = table(alice={"battlefield": ["Wort, Boggart Auntie"],
                     "graveyard": ["Cloudcrown Oak", "Exiled Boggart"]})
    g.turn_from("upkeep", 1, ALICE)
    assert ids(g, "Exiled Boggart", ALICE, "hand")
    assert ids(g, "Cloudcrown Oak", ALICE, "graveyard")


# ------------------------------------------------------------------ the set and its decks

def test_the_simple_cards_are_registered_with_their_lorwyn_facts() -> None:
    real = [n for n in CARDS if n != "Elf Warrior"]
    assert len(real) >= 45
    for name in real:
        d = REG[name]
        assert d.set_code == "lorwyn"
        assert not any(t in d.facts.types for t in ("Tribal", "Planeswalker"))
        assert "changeling" not in d.keywords
        low = d.facts.oracle_text.lower()
        for mechanic in ("clash", "champion", "evoke", "hideaway"):
            assert mechanic not in low, (name, mechanic)


@pytest.mark.parametrize("name", sorted(DECKS))
def test_builtin_decks_are_40_cards_with_17_lands(name: str) -> None:
    assert builtin_decks(REG)[name] == DECKS[name]
    cards = parse_deck(DECKS[name], REG)
    assert len(cards) == 40
    assert sum("Land" in REG[c].facts.types for c in cards) == 17
    assert all(c in CARDS or "Basic" in REG[c].facts.supertypes for c in cards)


def _play(seed: int, agent: Callable[[int], Any]) -> Game:
    decks = [parse_deck(DECKS[n], REG) for n in sorted(DECKS)]
    g = Game(REG, ["alice", "bob"], seed=seed, agents=[agent(seed), agent(seed + 1000)])
    g.play(decks)
    return g


def test_random_games_between_the_builtin_decks_finish_and_replay() -> None:
    for seed in range(20):
        g = _play(seed, RandomAgent)
        assert g.state.over, seed
        assert encode_state(fold(g.log)) == encode_state(g.state), seed


def test_heuristic_games_between_the_builtin_decks_end_in_reasonable_time() -> None:
    turns = []
    winners = set()
    for seed in range(20):
        g = _play(seed, HeuristicAgent)
        assert g.state.over and g.state.winner in (0, 1), seed
        winners.add(g.state.winner)
        turns.append(g.state.turn)
    assert sum(turns) / len(turns) <= 25
    assert winners == {0, 1}  # both decks can win


def test_entering_tapped_is_not_becoming_tapped(registry) -> None:  # type: ignore[no-untyped-def]
    """CR 603.2 / 110.5: a permanent that enters tapped doesn't "become tapped"."""
    from mtgk.log import events as ev
    from mtgk.rules.engine import Game

    g = Game(registry, ["alice", "bob"], seed=0)
    g.emit(ev.TurnBegan(turn=1, active=0))
    fallowsage = g.new_id()
    g.emit(ev.ObjectCreated(obj=fallowsage, card="Fallowsage", owner=0, zone="battlefield"))
    land = g.new_id()
    g.emit(ev.ObjectCreated(obj=land, card="Forest", owner=0, zone="hand"))
    g.move(land, "battlefield", tapped=True)
    assert not g.state.pending  # no "whenever Fallowsage becomes tapped" trigger
    g.emit(ev.Tapped(obj=fallowsage))
    assert [it.source for it in g.state.pending] == [fallowsage]
