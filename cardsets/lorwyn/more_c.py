"""Lorwyn cards, group C: the Vivid lands, cost changers, control and copy effects, and
other cards with costs beyond mana and {T}.

Mechanisms these cards use, beyond the kernel's basic vocabulary:

* costs such as "Remove a charge counter from ~", "Tap an untapped creature you
  control", "Exile an Elf card from your graveyard" and the restriction "Activate only
  during your turn" are parts of ``Cost.extra`` (:mod:`mtgk.plugins.costs`); "Sacrifice a
  Goblin" is parsed by :func:`mtgk.cards.dsl.parse_cost`;
* Summon the School's ability works from its owner's graveyard (``Activated.zones``);
* Sower of Temptation's control effect lasts "for as long as" it stays on the
  battlefield (:meth:`mtgk.cards.effects.Ctx.while_on_battlefield`);
* Wild Ricochet copies a spell and chooses new targets (:mod:`mtgk.plugins.copy_spell`);
* Thousand-Year Elixir lets abilities be activated "as though those creatures had
  haste" (:func:`mtgk.cards.dsl.activate_as_though_haste`);
* Smokebraider's mana may be spent only on Elementals: a mana ability adding two mana
  with the spending restriction ``"Elemental"`` (:func:`mtgk.rules.mana.register_spend_restriction`;
  the engine pays with restricted mana only where it may be spent).

"Target creature or player" (the 2007 wording of Tar Pitcher) doesn't include
planeswalkers.  Cards of the group that are not defined are in :data:`SKIPPED`.
"""

from __future__ import annotations

from mtgk.cards.definitions import Activated, Cost
from mtgk.cards.dsl import (
    activate_as_though_haste,
    activated,
    controller,
    cost_change,
    create,
    damage,
    etb,
    mana_ability,
    pump,
    self_pump,
    spell,
    target,
)
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import creature, creature_or_player, kind, land, permanent
from mtgk.cards.filters import spell as a_spell
from mtgk.cards.history import spell_names_cast_this_turn
from mtgk.log import events as ev
from mtgk.plugins.copy_spell import choose_new_targets, copy_spell
from mtgk.plugins.costs import (
    DURING_YOUR_TURN,
    ability,
    cost,
    exile_from_graveyard,
    remove_counters,
    tap_untapped,
)
from mtgk.plugins.history import resolutions_this_turn
from mtgk.plugins.prevention import KIND as PREVENT_DAMAGE
from mtgk.rules.layers import View
from mtgk.rules.mana import register_spend_restriction

from .cards import S
from .simple import becomes_tapped

_EARLIER = set(S.defs)

SKIPPED: dict[str, str] = {}

COLORS = ("white", "blue", "black", "red", "green")
BASIC_LAND_TYPES = ("Plains", "Island", "Swamp", "Mountain", "Forest")


def _no_effect(c: Ctx) -> None:
    return None


def any_color(c: Cost) -> Activated:
    """"[cost]: Add one mana of any color." (a mana ability)"""
    return Activated(c, _no_effect, (), mana=tuple("WUBRG"))


# ======================================================================== lands

def _vivid(name: str, color: str) -> None:
    """[name] enters tapped with two charge counters on it.  {T}: Add [color].  {T}, Remove
    a charge counter from [name]: Add one mana of any color."""
    S.card(name, mana_ability(color), any_color(cost("{T}", remove_counters("charge", 1))),
           enters_tapped=True, enters_with_counters={"charge": 2})


_vivid("Vivid Crag", "R")
_vivid("Vivid Creek", "U")
_vivid("Vivid Grove", "G")
_vivid("Vivid Marsh", "B")
_vivid("Vivid Meadow", "W")

S.card("Shimmering Grotto", mana_ability("C"), mana_ability("WUBRG", "{1}, {T}"))


# ======================================================================== white

def _prevent_all_damage_to_target(c: Ctx) -> None:
    """Prevent all damage that would be dealt to target ... this turn."""
    t = c.target(0)
    if t is not None:
        c.until_end_of_turn(PREVENT_DAMAGE, [], {"to": t})


S.card("Wellgabber Apothecary",
       activated("{1}{W}", _prevent_all_damage_to_target,
                 target(kind("Merfolk", "Kithkin").creature.tapped())))


def _protection_from_a_color(c: Ctx) -> None:
    """Target Merfolk you control gains protection from the color of your choice until end
    of turn."""
    t = c.target(0)
    if t is None:
        return
    color = c.choose(list(COLORS), prompt="choose a color")
    c.until_end_of_turn("grant", [t], [f"protection from {color}"])


S.card("Sygg, River Guide",  # islandwalk
       activated("{1}{W}", _protection_from_a_color, target(kind("Merfolk").you_control())))


# ======================================================================== blue

def _becomes_island(c: Ctx) -> None:
    """Target land becomes an Island until end of turn."""
    t = c.target(0)
    if t is not None:
        c.until_end_of_turn("set_subtypes", [t], {"set": "Land", "types": ["Island"]})


S.card("Streambed Aquitects",
       activated("{T}", pump(1, 1, grant=["islandwalk"]), target(kind("Merfolk").creature)),
       activated("{T}", _becomes_island, target(land)))


def _surgespanner(c: Ctx) -> None:
    """You may pay {1}{U}. If you do, return target permanent to its owner's hand."""
    if c.pay(c.controller, "{1}{U}", prompt="pay {1}{U} to return target permanent to its "
                                            "owner's hand?"):
        c.bounce(c.target(0))


S.card("Surgespanner", becomes_tapped(None, _surgespanner, target(permanent)))


def _sower(c: Ctx) -> None:
    """Gain control of target creature for as long as Sower of Temptation remains on the
    battlefield."""
    t = c.target(0)
    if t is not None:
        c.while_on_battlefield("control", [t], c.controller)


S.card("Sower of Temptation", etb(_sower, target(creature)))  # flying


def _tideshaper(c: Ctx) -> None:
    """Target land becomes the basic land type of your choice until end of turn."""
    t = c.target(0)
    if t is None:
        return
    chosen = c.choose(list(BASIC_LAND_TYPES), prompt="choose a basic land type")
    c.until_end_of_turn("set_subtypes", [t], {"set": "Land", "types": [chosen]})


S.card("Tideshaper Mystic",
       ability(cost("{T}", DURING_YOUR_TURN), _tideshaper, target(land),
               text="{T}: ... Activate only during your turn."))


# ======================================================================== black

S.card("Scarred Vinebreeder",
       ability(cost("{2}{B}", exile_from_graveyard(kind("Elf").card, "an Elf card")),
               self_pump(3, 3)))


# ======================================================================== red

S.vanilla("Warren-Scourge Elf")  # protection from Goblins (a creature type: kernel)

S.card("Tar Pitcher",
       activated("{T}, Sacrifice a Goblin", damage(2), target(creature_or_player)))


def _wild_ricochet(c: Ctx) -> None:
    """You may choose new targets for target instant or sorcery spell. Then copy that
    spell. You may choose new targets for the copy."""
    t = c.target(0)
    if t is None:
        return
    choose_new_targets(c.game, c.controller, t)
    choose_new_targets(c.game, c.controller, copy_spell(c.game, c.controller, t))


S.card("Wild Ricochet", spell(_wild_ricochet,
                              target(a_spell.with_type("Instant") | a_spell.with_type("Sorcery"))))


def _soulbright(c: Ctx) -> None:
    """Target creature gains trample until end of turn. If this is the third time this
    ability has resolved this turn, you may add {R}{R}{R}{R}{R}{R}{R}{R}."""
    t = c.target(0)
    if t is not None:
        c.until_end_of_turn("grant", [t], ["trample"])
    if resolutions_this_turn(c) == 2 and c.may("add {R}{R}{R}{R}{R}{R}{R}{R}?"):
        c.game.emit(ev.ManaAdded(player=c.controller, mana="R" * 8))


S.card("Soulbright Flamekin", activated("{2}", _soulbright, target(creature)))


def _your_giant_spell(v: View, src: int, card: int) -> bool:
    return v.obj(card).controller == controller(v, src) and v.chars(card).has_subtype("Giant")


S.card("Stinkdrinker Daredevil",
       cost_change(_your_giant_spell, -2, "Giant spells you cast cost {2} less to cast."))


def _elemental_only(v: View, what: str, obj: int) -> bool:
    """"Spend this mana only to cast Elemental spells or activate abilities of Elementals"
    (a changeling is an Elemental)."""
    return v.chars(obj).has_subtype("Elemental")


register_spend_restriction("Elemental", _elemental_only)
S.card("Smokebraider",  # {T}: Add two mana in any combination of colors. Spend this mana ...
       mana_ability("WUBRG", amount=2, spend="Elemental"))


# ======================================================================== tribal



def _return_from_graveyard(c: Ctx) -> None:
    """Return ~ from your graveyard to your hand."""
    o = c.state.objects.get(c.source)
    if o is not None and o.zone == "graveyard":
        c.bounce(c.source)


S.card("Summon the School",
       spell(create("Merfolk Wizard", 2)),
       Activated(cost("", tap_untapped(kind("Merfolk"), 4, "four untapped Merfolk")),
                 _return_from_graveyard, zones=("graveyard",),
                 text="Tap four untapped Merfolk you control: Return ~ from your graveyard"))


# ======================================================================== artifacts

S.card("Springleaf Drum",
       any_color(cost("{T}", tap_untapped(creature, 1, "an untapped creature",
                                          besides_source=True))))

S.card("Thorn of Amethyst",
       cost_change(lambda v, s, card: "Creature" not in v.chars(card).types, 1,
                   "Noncreature spells cost {1} more to cast."))


def _your_creature(v: View, src: int, oid: int) -> bool:
    return v.chars(oid).controller == controller(v, src)


S.card("Thousand-Year Elixir",
       activate_as_though_haste(_your_creature, "You may activate abilities of creatures you "
                                                "control as though those creatures had haste."),
       activated("{1}, {T}", lambda c: c.untap(c.target(0)), target(creature)))


def _twinning_glass(c: Ctx) -> None:
    """You may cast a spell from your hand without paying its mana cost if it has the same
    name as a spell that was cast this turn."""
    names = spell_names_cast_this_turn(c.game)
    hand = [o for o in c.state.players[c.controller].hand
            if c.state.objects[o].card in names and not c.chars(o).is_("Land")]
    if not hand:
        return
    pick = c.choose(hand, prompt="choose a card with the name of a spell cast this turn")
    c.game.cast_during_resolution(c.controller, pick, free=True, optional=True,
                                  prompt=f"cast {c.game.name(pick)} without paying its mana "
                                         "cost?")


S.card("Twinning Glass", activated("{1}, {T}", _twinning_glass))


#: The cards this module defines (tokens included), in definition order.
CARDS: list[str] = [n for n in S.defs if n not in _EARLIER]
