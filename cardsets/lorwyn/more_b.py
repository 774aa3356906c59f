"""Lorwyn cards, group B (Hunt Down ... Gaddock Teeg).

Oracle wordings, with the 2007 rules where they differ: "target creature or player"
where today's Oracle text says "any target" (Needle Drop, Kithkin Healer).  Mechanics
shared with other cards live in plugins: extra activation costs and "any player may
activate" (:mod:`mtgk.plugins.costs`), looking at and reordering the top of a library
(:mod:`mtgk.plugins.library`), delayed "at the beginning of the next end step" triggers
(:mod:`mtgk.plugins.delayed`), granted triggered abilities (:mod:`mtgk.plugins.grants`),
Equipment (:mod:`mtgk.plugins.equipment`), tokens entering attacking
(:mod:`mtgk.plugins.combat_entry`) and copies of activated abilities
(:mod:`mtgk.plugins.copy_ability`).  Combat restrictions and requirements are abilities
the engine reads by name (``mtgk.cards.dsl.RULES_ABILITIES``).
"""

from __future__ import annotations

from typing import Any

from mtgk.cards.definitions import Triggered
from mtgk.cards.dsl import (
    activated,
    attacks,
    cant_be_cast,
    controller,
    create,
    draw,
    each_step,
    enchanted,
    etb,
    gain_life,
    has,
    lord,
    may,
    me,
    pump,
    self_pump,
    spell,
    target,
    triggered,
    your_step,
)
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import (
    creature,
    creature_card,
    creature_or_player,
    creature_spell,
    kind,
    land,
    player,
)
from mtgk.cards.history import events_this_turn
from mtgk.log import events as ev
from mtgk.plugins.combat_entry import put_into_combat_attacking
from mtgk.plugins.copy_ability import copy_activated
from mtgk.plugins.costs import DURING_YOUR_TURN, ability, cost, discard, remove_counters
from mtgk.plugins.delayed import delayed, schedule
from mtgk.plugins.equipment import equip, equipped
from mtgk.plugins.grants import GRANT_WHILE_COUNTER, becomes_target, granted
from mtgk.plugins.library import look_and_reorder
from mtgk.plugins.prevention import prevent_next
from mtgk.plugins.regeneration import regenerate, regenerate_target
from mtgk.rules.layers import View

from .cards import S
from .clash import REBELLION_TOKEN

_EARLIER = set(S.defs)

ELEMENTAL_SHAMAN = REBELLION_TOKEN  # a 3/1 red Elemental Shaman (no haste)
FLYING_ELEMENTAL = "Elemental (Hoofprints)"  # the key of a 4/4 white flying "Elemental"


# ======================================================================== helpers

def _at_next_end_step(c: Ctx, data: Any) -> None:
    """Schedule this card's delayed ability "at the beginning of the next end step"."""
    schedule(c, ev.StepBegan, {"step": "end"}, data=data)


def _sacrifice_it(c: Ctx) -> None:
    """Delayed: sacrifice that creature (``c.item.data``), if it is still on the
    battlefield under the control of this ability's controller."""
    oid = c.item.data
    o = c.state.objects.get(oid) if isinstance(oid, int) else None
    if o is not None and o.zone == "battlefield" and c.chars(oid).controller == c.you:
        c.sacrifice(oid)


def _look(n: int) -> Any:
    """"Look at the top N cards of your library, then put them back in any order." """
    return lambda c: look_and_reorder(c.game, c.you, n)


def _set_base_pt(power: int, toughness: int) -> Any:
    """"~ has base power and toughness P/T until end of turn"."""
    def eff(c: Ctx) -> None:
        src = me(c)
        if src is not None:
            c.until_end_of_turn("set_pt", [src], [power, toughness])
    return eff


# ======================================================================== white

def _lairwatch_blocks_two(v: View, src: int, e: Any) -> bool:
    return sum(1 for b, _a in e.blocks if b == src) >= 2


S.card("Lairwatch Giant",
       has("can block an additional creature"),
       triggered(ev.BlockersDeclared, _lairwatch_blocks_two,
                 self_pump(0, 0, grant=["first strike"]),
                 text="whenever ~ blocks two or more creatures"))

S.card("Kithkin Healer",
       activated("{T}", lambda c: prevent_next(c, c.target(0), 1), target(creature_or_player)))


def _galepowder(c: Ctx) -> None:
    """Exile another target creature. Return that card to the battlefield under its owner's
    control at the beginning of the next end step."""
    exiled = c.exile(c.target(0))
    if exiled is not None:
        _at_next_end_step(c, exiled)


def _return_that_card(c: Ctx) -> None:
    oid = c.item.data
    o = c.state.objects.get(oid) if isinstance(oid, int) else None
    if o is not None and o.zone == "exile":
        c.put_onto_battlefield(oid)  # under its owner's control


S.card("Galepowder Mage",  # flying
       attacks(_galepowder, target(creature.other())),
       delayed(_return_that_card, text="return the exiled card"))

S.card("Goldmeadow Dodger", has("unblockable_by_power:4"))

S.card("Guardian of Cloverdell",
       etb(create("Kithkin Soldier", 3)),
       ability(cost("{G}", sacrifice=kind("Kithkin")), gain_life(1)))


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


def _noncreature_card(v: View, card: int) -> bool:
    return "Creature" not in v.chars(card).types


S.card("Gaddock Teeg",
       cant_be_cast(lambda v, s, card, p: _noncreature_card(v, card)
                    and v.chars(card).mana_value >= 4,
                    "Noncreature spells with mana value 4 or greater can't be cast."),
       cant_be_cast(lambda v, s, card, p: _noncreature_card(v, card)
                    and "{X}" in (v.reg[v.obj(card).card].facts.mana_cost or ""),
                    "Noncreature spells with {X} in their mana costs can't be cast."))


# ======================================================================== blue

def _ponder(c: Ctx) -> None:
    """Look at the top three cards of your library, then put them back in any order. You
    may shuffle. Draw a card."""
    look_and_reorder(c.game, c.you, 3)
    if c.may("shuffle your library?"):
        c.shuffle()
    c.draw(c.you, 1)


S.card("Ponder", spell(_ponder))
S.card("Inkfathom Divers", etb(_look(4)))  # islandwalk
S.card("Glimmerdust Nap", enchanted(grant=["doesn't untap"]),
       enchant=target(creature.tapped()))
S.card("Protective Bubble", enchanted(grant=["can't be blocked", "shroud"]),
       enchant=target(creature))


def _rings(c: Ctx) -> None:
    """You may pay {2}. If you do, copy that ability. You may choose new targets for the
    copy."""
    if c.event is not None and c.pay(c.you, "{2}", "pay {2} to copy that ability?"):
        copy_activated(c.game, c.you, c.event)


S.card("Rings of Brighthearth",
       triggered(ev.AbilityActivated, lambda v, src, e: e.controller == controller(v, src),
                 _rings, text="whenever you activate an ability (not a mana ability)"))


# ======================================================================== black

S.vanilla("Nath's Buffoon")  # protection from Elves

S.card("Marsh Flitter",  # flying
       etb(create("Goblin Rogue", 2)),
       ability(cost("", sacrifice=kind("Goblin")), _set_base_pt(3, 3)))


def _scarblade(c: Ctx) -> None:
    """Target creature gets -X/-X until end of turn, where X is the number of Elves you
    control."""
    x = c.count(kind("Elf").you_control())
    pump(-x, -x)(c)


S.card("Lys Alana Scarblade",
       ability(cost("{T}", discard(kind("Elf").card, "an Elf card")), _scarblade,
               target(creature)))

MANNEQUIN = "Makeshift Mannequin"


def _mannequin(c: Ctx) -> None:
    """Return target creature card from your graveyard to the battlefield with a mannequin
    counter on it. For as long as that creature has a mannequin counter on it, it has
    "When this creature becomes the target of a spell or ability, sacrifice it." """
    new = c.put_onto_battlefield(c.target(0), controller=c.you)
    if new is None or c.state.objects[new].zone != "battlefield":
        return
    c.put_counters(new, "mannequin", 1)
    c.forever(GRANT_WHILE_COUNTER, [new], {"abilities": [f"{MANNEQUIN}#1"],
                                           "while_counter": "mannequin"})


def _sacrifice_me(c: Ctx) -> None:
    src = me(c)
    if src is not None and c.chars(src).controller == c.you:
        c.sacrifice(src)


S.card(MANNEQUIN, spell(_mannequin, target(creature_card.in_your("graveyard"))),
       granted(MANNEQUIN, becomes_target(_sacrifice_me)), grantable=True)

BLIGHT = "Nettlevine Blight"


def _nettlevine(c: Ctx) -> None:
    """Sacrifice this permanent and attach Nettlevine Blight to a creature or land you
    control."""
    s = c.state
    blights = [o for o in s.battlefield if s.objects[o].card == BLIGHT
               and s.objects[o].attached_to == c.source]
    c.sacrifice(me(c))
    for b in blights:
        if b not in s.objects or s.objects[b].zone != "battlefield":
            continue
        hosts = [o for o in c.objects((creature | land).you_control())
                 if c.game.can_enchant(b, o)]
        if hosts:
            host = c.choose(hosts, prompt=f"attach {BLIGHT} to a creature or land you control")
            c.game.emit(ev.Attached(obj=b, to=host))


S.card(BLIGHT,
       enchanted(grant=[f"{BLIGHT}#1"]),
       granted(BLIGHT, triggered(ev.StepBegan, your_step("end"), _nettlevine,
                                 text="at the beginning of your end step")),
       enchant=target(creature | land), grantable=True)

S.card("Oona's Prowler",  # flying
       ability(cost("", discard()), self_pump(-2, 0), any_player=True))


# ======================================================================== red

def _lowland_oaf(c: Ctx) -> None:
    """Target Goblin creature you control gets +1/+0 and gains flying until end of turn.
    Sacrifice that creature at the beginning of the next end step."""
    t = c.target(0)
    if t is None:
        return
    pump(1, 0, grant=["flying"])(c)
    _at_next_end_step(c, t)


S.card("Lowland Oaf",
       activated("{T}", _lowland_oaf, target(kind("Goblin").creature.you_control())),
       delayed(_sacrifice_it, text="sacrifice that creature"))

damaged_this_turn = creature_or_player.where(lambda v, r, y, s: r in v.state.damaged,
                                             "dealt_damage_this_turn()")


def _needle_drop(c: Ctx) -> None:
    """~ deals 1 damage to target creature or player that was dealt damage this turn.
    Draw a card."""
    c.damage(c.target(0), 1)
    c.draw(c.you, 1)


S.card("Needle Drop", spell(_needle_drop, target(damaged_this_turn)))

S.card("Hearthcage Giant",
       etb(create(ELEMENTAL_SHAMAN, 2)),
       ability(cost("", sacrifice=kind("Elemental")), pump(3, 1),
               target(kind("Giant").creature)))

HEAT_SHIMMER = "Heat Shimmer"


def _heat_shimmer(c: Ctx) -> None:
    """Create a token that's a copy of target creature, except it has haste and "At the
    beginning of the end step, exile this permanent." (A token of the card whose
    copiable values the creature has: its own, or what it is a copy of, CR 707.2.)"""
    for tok in c.create_token_copy(c.target(0)):
        c.forever("grant", [tok], ["haste", f"{HEAT_SHIMMER}#1"])


def _exile_me(c: Ctx) -> None:
    c.exile(me(c))


S.card(HEAT_SHIMMER, spell(_heat_shimmer, target(creature)),
       granted(HEAT_SHIMMER, triggered(ev.StepBegan, each_step("end"), _exile_me,
                                       text="at the beginning of the end step")),
       grantable=True)


def _soulstoke(c: Ctx) -> None:
    """You may put an Elemental creature card from your hand onto the battlefield. That
    creature gains haste until end of turn. Sacrifice it at the beginning of the next end
    step."""
    cards = c.objects(kind("Elemental").card.with_type("Creature").in_your("hand"), zone="hand")
    if not cards or not c.may("put an Elemental creature card onto the battlefield?"):
        return
    new = c.put_onto_battlefield(c.choose(cards, prompt="choose an Elemental creature card"))
    if new is None or c.state.objects[new].zone != "battlefield":
        return
    c.until_end_of_turn("grant", [new], ["haste"])
    _at_next_end_step(c, new)


S.card("Incandescent Soulstoke",
       lord(kind("Elemental").creature.other().you_control(), 1, 1),
       activated("{1}{R}, {T}", _soulstoke),
       delayed(_sacrifice_it, text="sacrifice it"))


def _times_resolved_this_turn(c: Ctx) -> int:
    """How many times this ability (of this object) has resolved this turn, before now."""
    mine: list[int] = []
    n = 0
    for e in events_this_turn(c.game):
        if isinstance(e, ev.AbilityActivated) and e.source == c.source \
                and e.ability == c.item.ability:
            mine.append(e.item)
        elif isinstance(e, ev.StackItemResolved) and e.item in mine and not e.fizzled:
            n += 1
    return n


def _igniter(c: Ctx) -> None:
    """Creatures you control get +1/+0 until end of turn. If this is the third time this
    ability has resolved this turn, creatures you control gain first strike until end of
    turn."""
    mine = c.objects(creature.you_control())
    if mine:
        c.until_end_of_turn("pt", mine, [1, 0])
    if _times_resolved_this_turn(c) + 1 == 3 and mine:
        c.until_end_of_turn("grant", mine, ["first strike"])


S.card("Inner-Flame Igniter", activated("{2}{R}", _igniter))


# ======================================================================== green

def _hunt_down(c: Ctx) -> None:
    """Target creature blocks target creature this turn if able."""
    blocker, attacker = c.target(0), c.target(1)
    if blocker is not None and attacker is not None:
        c.until_end_of_turn("grant", [blocker], [f"must_block:{attacker}"])


S.card("Hunt Down", spell(_hunt_down, target(creature), target(creature)))


def _heal_the_scars(c: Ctx) -> None:
    """Regenerate target creature. You gain life equal to that creature's toughness."""
    t = c.target(0)
    if t is None:
        return
    regenerate(c, t)
    c.gain_life(c.you, c.chars(t).toughness or 0)


S.card("Heal the Scars", spell(_heal_the_scars, target(creature)))

S.card("Gilt-Leaf Seer", activated("{G}, {T}", _look(2)))


def _lammastide_weave(c: Ctx) -> None:
    """Choose a card name, then target player mills a card. If a card with the chosen name
    was milled this way, you gain life equal to its mana value. Draw a card."""
    name = c.choose(sorted(c.game.reg.cards), prompt="choose a card name")
    who = c.controller_of(c.target(0))
    if who is not None:
        milled = [c.state.objects[o].card for o in c.state.players[who].library[:1]]
        c.mill(who, 1)
        if milled and milled[0] == name:
            c.gain_life(c.you, c.game.reg[name].facts.mana_value)
    c.draw(c.you, 1)


S.card("Lammastide Weave", spell(_lammastide_weave, target(player)))


def _you_cast_a_creature_spell(v: View, src: int, e: Any) -> bool:
    return bool(e.controller == controller(v, src) and creature_spell(v, e.new_obj,
                                                                      e.controller, src))


def _admirers_return(c: Ctx) -> None:
    """You may pay {G}{G}. If you do, return ~ from your graveyard to your hand."""
    if c.pay(c.you, "{G}{G}", "pay {G}{G} to return Masked Admirers to your hand?"):
        o = c.state.objects.get(c.source)
        if o is not None and o.zone == "graveyard":
            c.game.move(c.source, "hand", reason="return")


S.card("Masked Admirers",
       etb(draw(1)),
       triggered(ev.SpellCast, _you_cast_a_creature_spell, _admirers_return,
                 zones=("graveyard",), text="whenever you cast a creature spell"))


# ======================================================================== multicolour

def _horde(c: Ctx) -> None:
    """You may play target Elemental card from your graveyard without paying its mana
    cost."""
    t = c.target(0)
    if t is not None:
        c.game.play_during_resolution(c.you, t, optional=True,
                                      prompt=f"play {c.game.name(t)} without paying its mana "
                                             "cost?")


S.card("Horde of Notions",  # vigilance, trample, haste
       activated("{W}{U}{B}{R}{G}", _horde,
                 target(kind("Elemental").card.in_your("graveyard"))))


# ======================================================================== artifacts

S.card("Herbal Poultice",
       activated("{3}, Sacrifice ~", regenerate_target(), target(creature)))

S.card("Runed Stalactite",
       equipped(1, 1, (), ("4", "add_all_creature_types", None)),
       equip("{2}"))


#: The cards this module defines (tokens included), in definition order.
CARDS: list[str] = [n for n in S.defs if n not in _EARLIER]
