"""Lorwyn cards: the tribal cards and the changelings (issue 4).

Tribal cards have creature types though they are not creatures (Lorwyn
primer, "Card Type: Tribal"); a card with changeling is every creature type
in every zone ("Keyword Ability: Changeling").  Both come for free from the
kernel: tribal subtypes are creature types in :mod:`mtgk.rules.layers`, and the
filter vocabulary of :mod:`mtgk.cards.filters` (``docs/filters.md``) says which
objects "Goblin", "Goblin creature", "Goblin card" and "Goblin spell" mean.  A few
need plugins besides: extra activation costs and restrictions -- "Remove four hoofprint
counters", "Tap four untapped Merfolk you control", "Activate only during your turn"
(:mod:`mtgk.plugins.costs`), "no more than twice each turn"
(:func:`mtgk.plugins.history.no_more_than`) -- Summon the School's ability works from its
owner's graveyard (``Activated.zones``), and Militia's Pride's token enters tapped and
attacking (:mod:`mtgk.plugins.combat_entry`).

Oracle wordings are used, with the 2007 rules where they differ: "target
player" where today's Oracle says "target player or planeswalker" (Giant's
Ire, Boggart Shenanigans), "target creature or player" for Tarfire's "any
target", and Mirror Entity's creatures *become* X/X (a P/T-setting effect,
layer 7b, like "base power and toughness X/X").

Cards of this group that are not defined (their text needs rules the kernel
does not have yet) are listed in ``SKIPPED`` with the reason.
"""

from __future__ import annotations

from typing import Any

from mtgk.cards.definitions import Activated, Effect, Triggered
from mtgk.cards.dsl import (
    activated,
    controller,
    create,
    damage,
    destroy,
    draw,
    each_opponent_loses_life,
    lord,
    mana_ability,
    may,
    me,
    modal,
    mode,
    return_to_hand,
    self_pump,
    spell,
    static,
    target,
    triggered,
    your_step,
)
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import (
    creature,
    creature_or_player,
    kind,
    land,
    matching,
    noncreature_permanent,
    permanent,
    player,
)
from mtgk.cards.filters import spell as a_spell
from mtgk.log import events as ev
from mtgk.plugins.combat_entry import put_into_combat_attacking
from mtgk.plugins.costs import DURING_YOUR_TURN, ability, cost, remove_counters, tap_untapped
from mtgk.plugins.history import no_more_than
from mtgk.plugins.regeneration import regenerate, regenerate_target
from mtgk.plugins.tribal import (
    creatures_of,
    for_each,
    if_you_control,
    unless_you_reveal,
    until_eot,
)
from mtgk.rules.layers import View
from mtgk.rules.seats import is_active, same_team

from .cards import S

SKIPPED: dict[str, str] = {}
# Rebellion of the Flamekin (Tribal Enchantment -- Elemental, "whenever you clash") is
# defined with the other clash cards, in clash.py, and Fodder Launch (Tribal Sorcery --
# Goblin, "as an additional cost ... sacrifice a Goblin") with the other additional costs,
# in additional_costs.py.

FLYING_ELEMENTAL = "Elemental (Hoofprints)"  # the key of a 4/4 white flying "Elemental"


# ============================================================ tokens



# ============================================================ changelings

S.vanilla("Avian Changeling",  # changeling, flying
          "Woodland Changeling")  # changeling


def _mirror_entity(c: Ctx) -> None:
    """Until end of turn, creatures you control become X/X and gain all creature types."""
    mine = c.objects(creature.you_control())
    until_eot(c, mine, ("set_pt", [c.x, c.x]), ("add_all_creature_types", None))


S.card("Mirror Entity", activated("{X}", _mirror_entity))


def _types_for(kind_: str) -> Effect:
    def eff(c: Ctx) -> None:
        until_eot(c, [c.target(0)], (kind_, None))
    return eff


S.card("Amoeboid Changeling",
       activated("{T}", _types_for("add_all_creature_types"), target(creature)),
       activated("{T}", _types_for("lose_all_creature_types"), target(creature)))

S.card("Turtleshell Changeling",
       activated("{1}{U}", lambda c: until_eot(c, [me(c)], ("switch_pt", None))))

S.card("Ghostly Changeling", activated("{1}{B}", self_pump(1, 1)))


def _shapesharer(c: Ctx) -> None:
    """Target Shapeshifter becomes a copy of target creature until your next turn (a copy
    effect, layer 1: it copies the creature's copiable values as the ability resolves)."""
    c.become_copy(c.target(0), c.target(1), duration="next_turn")


S.card("Shapesharer",  # changeling
       activated("{2}{U}", _shapesharer, target(kind("Shapeshifter")), target(creature)))

_GRAVEYARD_KEYWORDS = ("flying", "fear", "first strike", "double strike", "deathtouch", "haste",
                       "lifelink", "reach", "trample", "shroud", "vigilance")
_LANDWALK = ("islandwalk", "swampwalk", "forestwalk", "mountainwalk", "plainswalk")


def _cairn_wanderer(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
    """As long as a creature card with [keyword] is in a graveyard, ~ has [keyword]
    (flying, fear, first strike, double strike, deathtouch, haste, landwalk,
    lifelink, protection, reach, trample, shroud and vigilance)."""
    found: list[str] = []
    for p in v.state.players:
        for oid in p.graveyard:
            c = v.chars(oid)
            if "Creature" not in c.types:
                continue
            for a in c.abilities:
                if a in _GRAVEYARD_KEYWORDS or a in _LANDWALK or a.startswith("protection"):
                    if a not in found:
                        found.append(a)
    return [("6", "grant", [src], found)] if found else []


S.card("Cairn Wanderer", static(_cairn_wanderer, "keywords of creature cards in graveyards"))

S.card("Fire-Belly Changeling",  # changeling
       ability(cost("{R}", no_more_than(2)), self_pump(1, 0)))


# ============================================================ white

def _crib_swap(c: Ctx) -> None:
    """Exile target creature. Its controller creates a 1/1 colorless Shapeshifter creature
    token with changeling."""
    t = c.target(0)
    if t is None:
        return
    who = c.controller_of(t)
    c.exile(t)
    c.create_token("Shapeshifter", controller=who)


S.card("Crib Swap", spell(_crib_swap, target(creature)))


PROTECTION_FROM_ALL_COLORS = ["protection from white", "protection from blue",
                              "protection from black", "protection from red",
                              "protection from green"]


def _favor_of_the_mighty(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
    """Each creature with the highest mana value has protection from all colors."""
    mvs = {oid: v.chars(oid).mana_value for oid in matching(v, creature, 0, src)}
    if not mvs:
        return []
    top = max(mvs.values())
    return [("6", "grant", [o for o, mv in mvs.items() if mv == top],
             PROTECTION_FROM_ALL_COLORS)]


S.card("Favor of the Mighty", static(_favor_of_the_mighty,
                                     "creatures with the highest mana value: protection"))


def _shields(c: Ctx) -> None:
    """Creatures target player controls get +0/+1 and gain all creature types until end
    of turn."""
    mine = creatures_of(c, c.controller_of(c.target(0)))
    until_eot(c, mine, ("pt", [0, 1]), ("add_all_creature_types", None))


S.card("Shields of Velis Vel", spell(_shields, target(player)))


def _surge(c: Ctx) -> None:
    """Creatures you control get +1/+1 until end of turn. If you control a Kithkin, draw."""
    until_eot(c, c.objects(creature.you_control()), ("pt", [1, 1]))
    if_you_control(kind("Kithkin"), draw(1))(c)


S.card("Surge of Thoughtweft", spell(_surge))


# ============================================================ blue

def _aquitects_will(c: Ctx) -> None:
    """Put a flood counter on target land. That land is an Island in addition to its other
    types for as long as it has a flood counter on it. If you control a Merfolk, draw."""
    t = c.target(0)
    if t is not None:
        c.put_counters(t, "flood", 1)
        c.forever("add_subtypes", [t], {"types": ["Island"], "while_counter": "flood"})
    if_you_control(kind("Merfolk"), draw(1))(c)


S.card("Aquitect's Will", spell(_aquitects_will, target(land)))


def _ego_erasure(c: Ctx) -> None:
    """Creatures target player controls get -2/-0 and lose all creature types until end
    of turn."""
    mine = creatures_of(c, c.controller_of(c.target(0)))
    until_eot(c, mine, ("pt", [-2, 0]), ("lose_all_creature_types", None))


S.card("Ego Erasure", spell(_ego_erasure, target(player)))


def _faerie_trickery(c: Ctx) -> None:
    """Counter target non-Faerie spell. If that spell is countered this way, exile it
    instead of putting it into its owner's graveyard."""
    t = c.target(0)
    if t is None or not any(it.id == t for it in c.state.stack):
        return
    c.game.counter(t, by=c.controller, to_zone="exile")


S.card("Faerie Trickery", spell(_faerie_trickery, target(a_spell.without_subtype("Faerie"))))


def _untap_merfolk(c: Ctx) -> None:
    """Untap all Merfolk you control."""
    for oid in c.objects(kind("Merfolk").you_control()):
        c.untap(oid)


S.card("Merrow Commerce", triggered(ev.StepBegan, your_step("end"), _untap_merfolk,
                                    text="at the beginning of your end step"))


def _wings(c: Ctx) -> None:
    """Until end of turn, target creature has base power and toughness 4/4, gains all
    creature types, and gains flying."""
    until_eot(c, [c.target(0)], ("set_pt", [4, 4]), ("add_all_creature_types", None),
              ("grant", ["flying"]))


S.card("Wings of Velis Vel", spell(_wings, target(creature)))


# ============================================================ black

S.card("Boggart Birth Rite", spell(return_to_hand(),
                                   target(kind("Goblin").card.in_your("graveyard"))))

S.card("Eyeblight's Ending", spell(destroy(), target(creature.without_subtype("Elf"))))


def _cast_on_opponents_turn(v: View, src: int, e: Any) -> bool:
    you = controller(v, src)
    return bool(e.controller == you and not is_active(v.state, you))  # (not your team's)


S.card("Faerie Tauntings", triggered(ev.SpellCast, _cast_on_opponents_turn,
                                     may(each_opponent_loses_life(1)),
                                     text="whenever you cast a spell during an opponent's turn"))


def _nameless_inversion(c: Ctx) -> None:
    """Target creature gets +3/-3 and loses all creature types until end of turn."""
    until_eot(c, [c.target(0)], ("pt", [3, -3]), ("lose_all_creature_types", None))


S.card("Nameless Inversion", spell(_nameless_inversion, target(creature)))


def _peppersmoke(c: Ctx) -> None:
    """Target creature gets -1/-1 until end of turn. If you control a Faerie, draw a card."""
    until_eot(c, [c.target(0)], ("pt", [-1, -1]))
    if_you_control(kind("Faerie"), draw(1))(c)


S.card("Peppersmoke", spell(_peppersmoke, target(creature)))


def _dies_from_battlefield(pred: Any) -> Any:
    """A ZoneChanged from the battlefield to a graveyard, seen before it happens."""
    def when(v: View, src: int, e: Any) -> bool:
        return bool(e.from_zone == "battlefield" and e.to_zone == "graveyard"
                    and e.obj != src and e.obj in v.state.objects and pred(v, src, e))
    return when


def _prowess_of_the_fair(v: View, src: int, e: Any) -> bool:
    """Another nontoken Elf (a permanent: tribal Elves too) put into your graveyard."""
    o = v.obj(e.obj)
    return bool(not o.token and o.owner == controller(v, src)
                and v.chars(e.obj).has_subtype("Elf"))


S.card("Prowess of the Fair",
       triggered(ev.ZoneChanged, _dies_from_battlefield(_prowess_of_the_fair),
                 may(create("Elf Warrior")), look_back=True,
                 text="whenever another nontoken Elf is put into your graveyard"))


S.card("Skeletal Changeling", activated("{1}{B}", lambda c: regenerate(c, me(c))))

# Cards that regenerate a permanent of a creature type (a tribal permanent or a changeling
# is one too).
S.card("Mad Auntie",
       lord(kind("Goblin").creature.other().you_control(), 1, 1),
       activated("{T}", regenerate_target(), target(kind("Goblin").other())))
S.card("Black Poplar Shaman",
       activated("{2}{B}", regenerate_target(), target(kind("Treefolk"))))


# ============================================================ red

def _blades(c: Ctx) -> None:
    """Up to two target creatures each get +2/+0 and gain all creature types until end of
    turn."""
    until_eot(c, c.legal_targets(), ("pt", [2, 0]), ("add_all_creature_types", None))


S.card("Blades of Velis Vel", spell(_blades, target(creature, count=2, up_to=True)))


def _another_goblin_you_control(v: View, src: int, e: Any) -> bool:
    c = v.chars(e.obj)
    return bool(c.controller == controller(v, src) and c.has_subtype("Goblin"))


S.card("Boggart Shenanigans",
       triggered(ev.ZoneChanged, _dies_from_battlefield(_another_goblin_you_control),
                 may(damage(1)), target(player), look_back=True,
                 text="whenever another Goblin you control is put into a graveyard"))

S.card("Consuming Bonfire", modal(
    1,
    mode("Consuming Bonfire deals 4 damage to target non-Elemental creature.", damage(4),
         target(creature.without_subtype("Elemental"))),
    mode("Consuming Bonfire deals 7 damage to target Treefolk creature.", damage(7),
         target(kind("Treefolk").creature))))


def _crush_underfoot(c: Ctx) -> None:
    """Choose a Giant creature you control. It deals damage equal to its power to target
    creature."""
    t = c.target(0)
    giants = c.objects(kind("Giant").creature.you_control())
    if t is None or not giants:
        return
    giant = c.choose(giants, prompt="choose a Giant creature you control")
    c.damage(t, c.power(giant), source=giant)


S.card("Crush Underfoot", spell(_crush_underfoot, target(creature)))


def _giants_ire(c: Ctx) -> None:
    """~ deals 4 damage to target player. If you control a Giant, draw a card."""
    c.damage(c.target(0), 4)
    if_you_control(kind("Giant"), draw(1))(c)


S.card("Giant's Ire", spell(_giants_ire, target(player)))

S.card("Tarfire", spell(damage(2), target(creature_or_player)))


# ============================================================ green

def _elvish_promenade(c: Ctx) -> None:
    """Create a 1/1 green Elf Warrior creature token for each Elf you control."""
    n = for_each(kind("Elf"))(c)
    if n:
        c.create_token("Elf Warrior", n)


S.card("Elvish Promenade", spell(_elvish_promenade))


def _branchbender(c: Ctx) -> None:
    """Until end of turn, target Forest becomes an X/X Treefolk creature in addition to its
    other types, where X is the number of Elves you control."""
    x = for_each(kind("Elf"))(c)
    until_eot(c, [c.target(0)], ("add_types", ["Creature"]), ("add_creature_types", ["Treefolk"]),
              ("set_pt", [x, x]))


S.card("Elvish Branchbender", activated("{T}", _branchbender,
                                        target(permanent.with_subtype("Forest"))))


def _blue_spell_on_your_turn(v: View, src: int, e: Any) -> bool:
    you = controller(v, src)
    return bool(not same_team(v.state, e.controller, you) and is_active(v.state, you)
                and "U" in v.chars(e.new_obj).colors)


S.card("Eyes of the Wisent",
       triggered(ev.SpellCast, _blue_spell_on_your_turn,
                 may(create("Elemental")),
                 text="whenever an opponent casts a blue spell during your turn"))


def _lignify(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
    """Enchanted creature is a Treefolk with base power and toughness 0/4 and loses all
    abilities."""
    host = v.obj(src).attached_to
    if not host:
        return []
    return [("4", "set_creature_types", [host], ["Treefolk"]),
            ("6", "lose_all_abilities", [host], None),
            ("7b", "set_pt", [host], [0, 4])]


S.card("Lignify", static(_lignify, "enchanted creature is a 0/4 Treefolk with no abilities"),
       enchant=target(creature))


def _rootgrapple(c: Ctx) -> None:
    """Destroy target noncreature permanent. If you control a Treefolk, draw a card."""
    c.destroy(c.target(0))
    if_you_control(kind("Treefolk"), draw(1))(c)


S.card("Rootgrapple", spell(_rootgrapple, target(noncreature_permanent)))


# ============================================================ tribal enchantments and sorceries
# with costs beyond mana (mtgk.plugins.costs) and triggers of their own

def _you_drew(v: View, src: int, e: Any) -> bool:
    return bool(e.reason == "draw" and e.to_zone == "hand" and e.new_obj in v.state.objects
                and v.obj(e.new_obj).owner == controller(v, src))


S.card("Hoofprints of the Stag",
       triggered(ev.ZoneChanged, _you_drew,
                 may(lambda c: c.put_counters(me(c), "hoofprint", 1), "put a hoofprint counter?"),
                 text="whenever you draw a card"),
       ability(cost("{2}{W}", remove_counters("hoofprint", 4), DURING_YOUR_TURN),
               create(FLYING_ELEMENTAL)))


def _nontoken_attackers(v: View, src: int, e: Any) -> list[int]:
    you = controller(v, src)
    return [a for a, _t in e.attacks if a in v.state.objects and not v.obj(a).token
            and v.chars(a).controller == you and v.chars(a).is_creature]


def _militias_pride(c: Ctx) -> None:
    """You may pay {W}. If you do, create a 1/1 white Kithkin Soldier creature token that's
    tapped and attacking."""
    if c.pay(c.you, "{W}", "pay {W} to create a Kithkin Soldier tapped and attacking?"):
        for tok in c.create_token("Kithkin Soldier", tapped=True):
            put_into_combat_attacking(c.game, tok, c.you)


S.card("Militia's Pride",
       Triggered((ev.AttackersDeclared.TAG,),
                 lambda v, src, e: bool(_nontoken_attackers(v, src, e)), _militias_pride,
                 text="whenever a nontoken creature you control attacks",
                 each=_nontoken_attackers))


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


# ============================================================ "reveal a [type] card from your hand"

for _land, _tribe, _colors in (("Ancient Amphitheater", "Giant", "RW"),
                               ("Auntie's Hovel", "Goblin", "BR"),
                               ("Gilt-Leaf Palace", "Elf", "BG"),
                               ("Secluded Glen", "Faerie", "UB"),
                               ("Wanderwine Hub", "Merfolk", "WU")):
    # As ~ enters the battlefield, you may reveal a [tribe] card from your hand. If you
    # don't, ~ enters the battlefield tapped.  {T}: Add {c1} or {c2}.
    S.card(_land, mana_ability(_colors), enters_tapped=unless_you_reveal(kind(_tribe).card))
