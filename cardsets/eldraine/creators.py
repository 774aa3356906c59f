"""Every Wilds of Eldraine (and WOE Commander) card that creates a Role token.

Each definition does everything its Oracle text says; the Oracle text is quoted
above it.  Role creation never targets the permanent it attaches to unless the
text says "target" (see :func:`mtgk.plugins.roles.create_role`).
"""

from __future__ import annotations

from typing import Any

from mtgk.cards.definitions import Activated, Cost, Triggered
from mtgk.cards.dsl import (
    ENTERS,
    activated,
    attacks,
    create,
    dies,
    enchanted,
    etb,
    host_of,
    lord,
    mode,
    self_entered,
    spell,
    static,
    target,
    token_facts,
    triggered,
)
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import (
    Filter,
    card_in_graveyard,
    creature,
    enchantment,
    opponent,
)
from mtgk.log import events as ev
from mtgk.plugins.adventure import adventure_card, adventure_spell
from mtgk.plugins.bargain import bargained
from mtgk.plugins.copy_spell import choose_new_targets, copy_spell
from mtgk.plugins.delayed import delayed, schedule
from mtgk.plugins.fight import exile_if_dies_this_turn, fight
from mtgk.plugins.grants import granted
from mtgk.plugins.roles import create_role, create_roles
from mtgk.plugins.saga import chapter, saga_card
from mtgk.plugins.scry import scry
from mtgk.plugins.triggers import etb_modal, modal_trigger, reflexive, when_you_do
from mtgk.rules.layers import View
from mtgk.rules.mana import ManaCost
from mtgk.rules.seats import is_active
from mtgk.rules.state import stack_item

from . import role_tokens  # noqa: F401  (the Role tokens are defined before these cards)
from .cards import RAW_CARDS, S

# ------------------------------------------------------------------ vocabulary

your_creature = creature.you_control()
another_creature_you_control = creature.you_control().other()
creature_you_dont_control = creature.opponent_controls()


def _has_aura(v: View, r: int) -> bool:
    return any(v.state.objects[a].attached_to == r and v.chars(a).has_subtype("Aura")
               for a in v.state.battlefield)


enchanted_creature = creature.where(lambda v, r, y, s: _has_aura(v, r), "enchanted()")


def role_on_target(role: str, to: int = 0) -> Any:
    """"Create a [role] token attached to target creature ..." (target number ``to``)."""
    def eff(c: Ctx) -> None:
        create_role(c, role, c.target(to))
    return eff


def role_on_self(role: str) -> Any:
    """"Create a [role] token attached to it (this creature)." """
    return lambda c: create_role(c, role, c.source)


def discard_cards(c: Ctx, player: int, n: int) -> None:
    """``player`` discards ``n`` cards of their choice."""
    hand = list(c.state.players[player].hand)
    if not hand:
        return
    c.discard_all(c.choose(hand, kind="discard", player=player, prompt=f"discard {n}",
                           count=min(n, len(hand))))


# ------------------------------------------------------------------ tokens other than Roles

# Food: "{2}, {T}, Sacrifice this artifact: You gain 3 life."
S.card("Food", activated("{2}, {T}, Sacrifice ~", lambda c: c.gain_life(c.controller, 3)),
       facts=token_facts("Food", ("Artifact",), ("Food",),
                         "{2}, {T}, Sacrifice this artifact: You gain 3 life."))
# Rat: 1/1 black Rat creature token with "This creature can't block."
S.card("Rat", facts=token_facts("Rat", ("Creature",), ("Rat",), "This creature can't block.",
                                colors=("B",), power="1", toughness="1"))
S.defs["Rat"].keywords = ("can't block",)

# ================================================================== white

# Besotted Knight // Betroth the Beast — Adventure: "Create a Royal Role token attached to
# target creature you control."
adventure_card(S, RAW_CARDS["Besotted Knight // Betroth the Beast"], (),
               adventure_spell(role_on_target("Royal Role"), target(your_creature)))

# Charmed Clothier — Flying. When it enters, create a Royal Role token attached to another
# target creature you control.
S.card("Charmed Clothier",
       etb(role_on_target("Royal Role"), target(another_creature_you_control)))

# Cursed Courtier — Lifelink. When it enters, create a Cursed Role token attached to it.
S.card("Cursed Courtier", etb(role_on_self("Cursed Role")))

# Protective Parents — When it dies, create a Young Hero Role token attached to up to one
# target creature you control.
S.card("Protective Parents",
       dies(role_on_target("Young Hero Role"), target(your_creature, up_to=True)))


# Return Triumphant — Return target creature card with mana value 3 or less from your
# graveyard to the battlefield. Create a Young Hero Role token attached to it.
def _return_triumphant(c: Ctx) -> None:
    new = c.put_onto_battlefield(c.target(0))
    create_role(c, "Young Hero Role", new)


S.card("Return Triumphant",
       spell(_return_triumphant,
             target(card_in_graveyard.with_type("Creature").you_own().mana_value_at_most(3))))


# Spellbook Vendor — Vigilance. At the beginning of combat on your turn, you may pay {1}.
# When you do, create a Sorcerer Role token attached to target creature you control.
_vendor_reflex = reflexive(role_on_target("Sorcerer Role"), target(your_creature))


def _vendor(c: Ctx) -> None:
    if c.pay(c.controller, "{1}", "pay {1} for a Sorcerer Role?"):
        when_you_do(c, _vendor_reflex)


def _your_combat(v: View, src: int, e: Any) -> bool:
    # ("your turn": your team's in Two-Headed Giant, CR 805.4a)
    return bool(e.step == "beginning_of_combat" and is_active(v.state, v.chars(src).controller))


S.card("Spellbook Vendor", triggered(ev.StepBegan, _your_combat, _vendor,
                                     text="beginning of combat on your turn"),
       _vendor_reflex)


# Unassuming Sage — When it enters, you may pay {2}. If you do, create a Sorcerer Role
# token attached to it.
def _sage(c: Ctx) -> None:
    if c.pay(c.controller, "{2}", "pay {2} for a Sorcerer Role?"):
        create_role(c, "Sorcerer Role", c.source)


S.card("Unassuming Sage", etb(_sage))

# ================================================================== blue


# Asinine Antics — You may cast it as though it had flash if you pay {2} more. For each
# creature your opponents control, create a Cursed Role token attached to that creature.
def _antics(c: Ctx) -> None:
    theirs = c.objects(creature.opponent_controls())
    create_roles(c.game, c.controller, [("Cursed Role", oid) for oid in theirs])


S.card("Asinine Antics", spell(_antics), alt_costs={"flash": "{4}{U}{U}"},
       flash_alts=("flash",))


# Diminisher Witch — Bargain. When it enters, if it was bargained, create a Cursed Role
# token attached to target creature an opponent controls.
S.card("Diminisher Witch",
       Triggered(ENTERS, self_entered, role_on_target("Cursed Role"),
                 (target(creature.opponent_controls()),),
                 intervening_if=lambda v, src, e: bargained(v, src), text="etb if bargained"),
       bargain=True)


# Gadwick's First Duel — Saga. I — Create a Cursed Role token attached to up to one target
# creature. II — Scry 2. III — When you cast your next instant or sorcery spell with mana
# value 3 or less this turn, copy that spell. You may choose new targets for the copy.
def _spell_mana_value(v: View, oid: int) -> int:
    """A spell's mana value on the stack: X included (CR 202.3b), an Adventure's own."""
    it = stack_item(v.state, oid)
    if it is None:
        return v.chars(oid).mana_value
    return v.chars(oid).mana_value + it.x * ManaCost.parse(v.reg[it.source_card].facts.mana_cost).x


def _instant_or_sorcery_mv_3(v: View, you: int, e: Any) -> bool:
    types = v.chars(e.new_obj).types
    return ("Instant" in types or "Sorcery" in types) and _spell_mana_value(v, e.new_obj) <= 3


def _next_small_spell(c: Ctx) -> None:
    schedule(c, ev.SpellCast, {"controller": c.controller}, this_turn=True, with_event=True)


def _copy_that_spell(c: Ctx) -> None:
    spell = c.event.new_obj if c.event is not None else None
    choose_new_targets(c.game, c.controller, copy_spell(c.game, c.controller, spell))


saga_card(S, "Gadwick's First Duel",
          chapter(1, role_on_target("Cursed Role"), target(creature, up_to=True)),
          chapter(2, lambda c: scry(c.game, c.controller, 2)),
          chapter(3, _next_small_spell),
          others=(delayed(_copy_that_spell, "when you next cast an instant or sorcery spell "
                          "with mana value 3 or less this turn",
                          condition=_instant_or_sorcery_mv_3),))


# Living Lectern — {1}, Sacrifice it: Draw a card. Create a Sorcerer Role token attached
# to up to one other target creature you control. Activate only as a sorcery.
def _lectern(c: Ctx) -> None:
    c.draw(c.controller, 1)
    create_role(c, "Sorcerer Role", c.target(0))


S.card("Living Lectern", activated("{1}, Sacrifice ~", _lectern,
                                   target(another_creature_you_control, up_to=True),
                                   sorcery=True))


# Splashy Spellcaster — Whenever you cast an instant or sorcery spell, create a Sorcerer
# Role token attached to up to one other target creature you control.
def _you_cast_instant_or_sorcery(v: View, src: int, e: Any) -> bool:
    if e.controller != v.chars(src).controller:
        return False
    types = v.chars(e.new_obj).types
    return "Instant" in types or "Sorcery" in types


S.card("Splashy Spellcaster",
       triggered(ev.SpellCast, _you_cast_instant_or_sorcery, role_on_target("Sorcerer Role"),
                 target(another_creature_you_control, up_to=True),
                 text="whenever you cast an instant or sorcery spell"))


# Vantress Transmuter // Croaking Curse — Adventure: "Tap target creature. Create a Cursed
# Role token attached to it."
def _croak(c: Ctx) -> None:
    c.tap(c.target(0))
    create_role(c, "Cursed Role", c.target(0))


adventure_card(S, RAW_CARDS["Vantress Transmuter // Croaking Curse"], (),
               adventure_spell(_croak, target(creature)))

# ================================================================== black

# Conceited Witch // Price of Beauty — Menace. Adventure: "Create a Wicked Role token
# attached to target creature you control."
adventure_card(S, RAW_CARDS["Conceited Witch // Price of Beauty"], (),
               adventure_spell(role_on_target("Wicked Role"), target(your_creature)))


# Eriette's Whisper — Target opponent discards two cards. Create a Wicked Role token
# attached to up to one target creature you control.
def _whisper(c: Ctx) -> None:
    who = c.controller_of(c.target(0))
    if who is not None:
        discard_cards(c, who, 2)
    create_role(c, "Wicked Role", c.target(1))


S.card("Eriette's Whisper", spell(_whisper, target(opponent), target(your_creature, up_to=True)))


# Lord Skitter's Blessing — When it enters, create a Wicked Role token attached to target
# creature you control. At the beginning of your draw step, if you control an enchanted
# creature, you lose 1 life and you draw an additional card.
def _your_draw_step(v: View, src: int, e: Any) -> bool:
    return bool(e.step == "draw" and is_active(v.state, v.chars(src).controller))


def _you_control_enchanted(v: View, src: int, e: Any) -> bool:
    o = v.state.objects.get(src)
    if o is None or o.zone != "battlefield":
        return False
    return bool(matching_any(v, enchanted_creature.you_control(), v.chars(src).controller, src))


def matching_any(v: View, f: Filter, you: int, src: int) -> bool:
    return any(f(v, r, you, src) for r in v.state.battlefield)


def _blessing_draw(c: Ctx) -> None:
    c.lose_life(c.controller, 1)
    c.draw(c.controller, 1)


S.card("Lord Skitter's Blessing",
       etb(role_on_target("Wicked Role"), target(your_creature)),
       Triggered((ev.StepBegan.TAG,), _your_draw_step, _blessing_draw,
                 intervening_if=_you_control_enchanted, text="beginning of your draw step"))


# Not Dead After All — Until end of turn, target creature you control gains "When this
# creature dies, return it to the battlefield tapped under its owner's control, then
# create a Wicked Role token attached to it."
def _come_back(c: Ctx) -> None:
    card = c.event.new_obj if c.event is not None else None
    o = c.state.objects.get(card) if card else None
    if o is None or o.zone != "graveyard":
        return
    new = c.put_onto_battlefield(card, controller=o.owner, tapped=True)
    create_role(c, "Wicked Role", new)


_not_dead_grant = granted("Not Dead After All", dies(_come_back))


def _not_dead(c: Ctx) -> None:
    t = c.target(0)
    if t is not None:
        c.until_end_of_turn("grant", [t], ["Not Dead After All#1"])


S.card("Not Dead After All", spell(_not_dead, target(your_creature)), _not_dead_grant,
       grantable=True)


# Shatter the Oath — Destroy target creature or enchantment. Create a Wicked Role token
# attached to up to one target creature you control.
def _shatter(c: Ctx) -> None:
    c.destroy(c.target(0))
    create_role(c, "Wicked Role", c.target(1))


S.card("Shatter the Oath", spell(_shatter, target(creature | enchantment),
                                 target(your_creature, up_to=True)))

# Spiteful Hexmage — When it enters, create a Cursed Role token attached to target
# creature you control.
S.card("Spiteful Hexmage", etb(role_on_target("Cursed Role"), target(your_creature)))


# Twisted Sewer-Witch — When it enters, create a 1/1 black Rat creature token with "This
# creature can't block." Then for each Rat you control, create a Wicked Role token
# attached to that Rat.
def _sewer_witch(c: Ctx) -> None:
    c.create_token("Rat")
    rats = c.objects(creature.with_subtype("Rat").you_control())
    create_roles(c.game, c.controller, [("Wicked Role", r) for r in rats])


S.card("Twisted Sewer-Witch", etb(_sewer_witch))

# The Witch's Vanity — Saga. I — Destroy target creature an opponent controls with mana
# value 2 or less. II — Create a Food token. III — Create a Wicked Role token attached to
# target creature you control.
saga_card(S, "The Witch's Vanity",
          chapter(1, lambda c: c.destroy(c.target(0)),
                  target(creature.opponent_controls().mana_value_at_most(2))),
          chapter(2, create("Food")),
          chapter(3, role_on_target("Wicked Role"), target(your_creature)))

# ================================================================== red


# Charming Scoundrel — Haste. When it enters, choose one — • Discard a card, then draw a
# card. • Create a Treasure token. • Create a Wicked Role token attached to target
# creature you control.
def _rummage(c: Ctx) -> None:
    discard_cards(c, c.controller, 1)
    c.draw(c.controller, 1)


S.card("Charming Scoundrel",
       etb_modal(1, mode("Discard a card, then draw a card.", _rummage),
                 mode("Create a Treasure token.", create("Treasure")),
                 mode("Create a Wicked Role token attached to target creature you control.",
                      role_on_target("Wicked Role"), target(your_creature))))


# Cut In — Cut In deals 4 damage to target creature. Create a Young Hero Role token
# attached to up to one target creature you control.
def _cut_in(c: Ctx) -> None:
    c.damage(c.target(0), 4)
    create_role(c, "Young Hero Role", c.target(1))


S.card("Cut In", spell(_cut_in, target(creature), target(your_creature, up_to=True)))

# Embereth Veteran — {1}, Sacrifice it: Create a Young Hero Role token attached to another
# target creature.
S.card("Embereth Veteran", activated("{1}, Sacrifice ~", role_on_target("Young Hero Role"),
                                     target(creature.other())))

# Merry Bards — When it enters, you may pay {1}. When you do, create a Young Hero Role
# token attached to target creature you control.
_bards_reflex = reflexive(role_on_target("Young Hero Role"), target(your_creature))


def _bards(c: Ctx) -> None:
    if c.pay(c.controller, "{1}", "pay {1} for a Young Hero Role?"):
        when_you_do(c, _bards_reflex)


S.card("Merry Bards", etb(_bards), _bards_reflex)


# Monstrous Rage — Target creature gets +2/+0 until end of turn. Create a Monster Role
# token attached to it.
def _rage(c: Ctx) -> None:
    t = c.target(0)
    if t is None:
        return
    c.until_end_of_turn("pt", [t], [2, 0])
    create_role(c, "Monster Role", t)


S.card("Monstrous Rage", spell(_rage, target(creature)))


# Twisted Fealty — Gain control of target creature until end of turn. Untap that creature.
# It gains haste until end of turn. Create a Wicked Role token attached to up to one
# target creature.
def _fealty(c: Ctx) -> None:
    t = c.target(0)
    if t is not None:
        c.gain_control(t, until_eot=True)
        c.untap(t)
        c.until_end_of_turn("grant", [t], ["haste"])
    create_role(c, "Wicked Role", c.target(1))


S.card("Twisted Fealty", spell(_fealty, target(creature), target(creature, up_to=True)))


# Witch's Mark — You may discard a card. If you do, draw two cards. Create a Wicked Role
# token attached to up to one target creature you control.
def _mark(c: Ctx) -> None:
    hand = list(c.state.players[c.controller].hand)
    if hand and c.may("discard a card to draw two?"):
        discard_cards(c, c.controller, 1)
        c.draw(c.controller, 2)
    create_role(c, "Wicked Role", c.target(0))


S.card("Witch's Mark", spell(_mark, target(your_creature, up_to=True)))

# ================================================================== green

# Curse of the Werefox — Create a Monster Role token attached to target creature you
# control. When you do, that creature fights up to one target creature you don't control.
_werefox_reflex = reflexive(lambda c: fight(c, c.item.data, c.target(0)),
                            target(creature_you_dont_control, up_to=True))


def _werefox(c: Ctx) -> None:
    t = c.target(0)
    if create_role(c, "Monster Role", t) is not None:
        when_you_do(c, _werefox_reflex, data=t)


S.card("Curse of the Werefox", spell(_werefox, target(your_creature)), _werefox_reflex)

# Ferocious Werefox // Guard Change — Trample. Adventure (instant): "Create a Monster Role
# token attached to target creature you control."
adventure_card(S, RAW_CARDS["Ferocious Werefox // Guard Change"], (),
               adventure_spell(role_on_target("Monster Role"), target(your_creature)))

# Redtooth Genealogist — When it enters, create a Royal Role token attached to another
# target creature you control.
S.card("Redtooth Genealogist",
       etb(role_on_target("Royal Role"), target(another_creature_you_control)))


# Royal Treatment — Target creature you control gains hexproof until end of turn. Create
# a Royal Role token attached to that creature.
def _treatment(c: Ctx) -> None:
    t = c.target(0)
    if t is None:
        return
    c.until_end_of_turn("grant", [t], ["hexproof"])
    create_role(c, "Royal Role", t)


S.card("Royal Treatment", spell(_treatment, target(your_creature)))


# Faunsbane Troll — When it enters, create a Monster Role token attached to it. {1},
# Sacrifice an Aura attached to it: it fights target creature you don't control. If that
# creature would die this turn, exile it instead. Activate only as a sorcery.
def _aura_on_source(v: View, r: int, you: int, src: int) -> bool:
    return v.obj(r).attached_to == src and v.chars(r).has_subtype("Aura")


def _troll_fight(c: Ctx) -> None:
    t = c.target(0)
    exile_if_dies_this_turn(c, t)
    fight(c, c.source, t)


S.card("Faunsbane Troll", etb(role_on_self("Monster Role")),
       Activated(Cost(mana="{1}", sacrifice=_aura_on_source), _troll_fight,
                 (target(creature_you_dont_control),), sorcery=True,
                 text="{1}, Sacrifice an Aura attached to ~"))

# ================================================================== multicolored

# Syr Armont, the Redeemer — When it enters, create a Monster Role token attached to
# another target creature you control. Enchanted creatures you control get +1/+1.
S.card("Syr Armont, the Redeemer",
       etb(role_on_target("Monster Role"), target(another_creature_you_control)),
       lord(enchanted_creature.you_control(), 1, 1))


# Become Brutes — One or two target creatures each gain haste until end of turn. For each
# of those creatures, create a Monster Role token attached to it.
def _brutes(c: Ctx) -> None:
    ts = c.legal_targets()
    c.until_end_of_turn("grant", ts, ["haste"])
    create_roles(c.game, c.controller, [("Monster Role", t) for t in ts])


S.card("Become Brutes", spell(_brutes, target(creature, count=2, up_to=True)))


# Ellivere of the Wild Court — Whenever it enters or attacks, create a Virtuous Role token
# attached to another target creature you control. Whenever an enchanted creature you
# control deals combat damage to a player, draw a card.
def _enters_or_attacks(v: View, src: int, e: Any) -> bool:
    if isinstance(e, ev.AttackersDeclared):
        return any(a == src for a, _t in e.attacks)
    return ev.entered(e) == src


def _enchanted_hits_player(v: View, src: int, e: Any) -> bool:
    if not e.combat or e.target >= 0 or e.source not in v.state.objects:
        return False
    return bool(enchanted_creature.you_control()(v, e.source, v.chars(src).controller, src))


S.card("Ellivere of the Wild Court",
       triggered([ev.ZoneChanged, ev.LandPlayed, ev.TokenCreated, ev.AttackersDeclared],
                 _enters_or_attacks, role_on_target("Virtuous Role"),
                 target(another_creature_you_control), text="enters or attacks"),
       triggered(ev.DamageDealt, _enchanted_hits_player, lambda c: c.draw(c.controller, 1),
                 text="enchanted creature deals combat damage to a player"))


# Gylwain, Casting Director — Whenever it or another nontoken creature you control enters,
# choose one — • Royal Role • Sorcerer Role • Monster Role — attached to that creature.
def _gylwain_sees(v: View, src: int, e: Any) -> bool:
    new = ev.entered(e)
    if not new:
        return False
    if new == src:
        return True
    c = v.chars(new)
    return c.is_creature and not v.obj(new).token and c.controller == v.chars(src).controller


def _role_on_entered(role: str) -> Any:
    return lambda c: create_role(c, role, ev.entered(c.event) if c.event is not None else None)


S.card("Gylwain, Casting Director",
       modal_trigger(ENTERS, _gylwain_sees, 1,
                     mode("Create a Royal Role token attached to that creature.",
                          _role_on_entered("Royal Role")),
                     mode("Create a Sorcerer Role token attached to that creature.",
                          _role_on_entered("Sorcerer Role")),
                     mode("Create a Monster Role token attached to that creature.",
                          _role_on_entered("Monster Role")),
                     text="enters (modal)"))


# Giant Inheritance — Enchant creature. Enchanted creature gets +5/+5 and has "Whenever
# this creature attacks, create a Monster Role token attached to up to one target
# attacking creature." When it is put into a graveyard from the battlefield, return it to
# its owner's hand.
def _back_to_hand(c: Ctx) -> None:
    e = c.event
    if e is not None and e.new_obj in c.state.objects and \
            c.state.objects[e.new_obj].zone == "graveyard":
        c.game.move(e.new_obj, "hand", reason="return")


def _from_battlefield_to_graveyard(v: View, src: int, e: Any) -> bool:
    return bool(e.obj == src and e.from_zone == "battlefield" and e.to_zone == "graveyard")


S.card("Giant Inheritance",
       enchanted(5, 5, ("Giant Inheritance#1",)),
       granted("Giant Inheritance",
               attacks(role_on_target("Monster Role"),
                       target(creature.attacking(), up_to=True))),
       triggered(ev.ZoneChanged, _from_battlefield_to_graveyard, _back_to_hand,
                 look_back=True, text="put into a graveyard from the battlefield"),
       enchant=target(creature), grantable=True)

_ = (static, host_of, scry)  # re-exported vocabulary for pack authors
