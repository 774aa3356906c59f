"""Lorwyn cards with clash, and the three that care when you clash (issue 5).

Clash itself is :mod:`mtgk.plugins.clash`: ``clash(c)`` is "clash with an
opponent" and returns whether you won.
"""

from __future__ import annotations

from mtgk.cards.dsl import attacks, dies, etb, has, me, spell, target, triggered, your_step
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import card_in_graveyard, creature, enchantment, permanent
from mtgk.cards.filters import spell as a_spell
from mtgk.log import events as ev
from mtgk.plugins.clash import clash, clash_with, whenever_you_clash, won
from mtgk.plugins.delayed import MAIN_PHASES, at_your_next, delayed
from mtgk.plugins.prevention import prevent_all_combat_damage
from mtgk.rules.mana import ManaCost
from mtgk.rules.state import stack_controller, stack_item

from .cards import S

# ------------------------------------------------------------------ helpers


def clash_for_a_counter(c: Ctx) -> None:
    """"Clash with an opponent. If you win, put a +1/+1 counter on ~."""
    if clash(c):
        c.put_counters(me(c), "+1/+1")


def spell_mana_value(c: Ctx, item: int | None) -> int:
    """A spell's mana value on the stack, X included."""
    it = stack_item(c.state, item)
    if it is None:
        return 0
    cost = ManaCost.parse(c.game.reg[it.source_card].facts.mana_cost)
    return cost.mana_value + it.x * cost.x


def doesnt_untap(c: Ctx, objs: list[int], player: int | None) -> None:
    """"... don't untap during [player]'s next untap step"."""
    if objs and player is not None:
        c.forever("skip_untap", objs, player)


# ------------------------------------------------------------------ white

def _entangling_trap(c: Ctx) -> None:
    """Tap target creature an opponent controls. If you won, that creature doesn't untap
    during its controller's next untap step."""
    t = c.target(0)
    if t is None:
        return
    c.tap(t)
    if won(c):
        doesnt_untap(c, [t], c.controller_of(t))


S.card("Entangling Trap",
       whenever_you_clash(_entangling_trap, target(creature.opponent_controls())))

S.card("Oaken Brawler", etb(clash_for_a_counter))


def _pollen_lullaby(c: Ctx) -> None:
    """Prevent all combat damage that would be dealt this turn. Clash with an opponent.
    If you win, creatures that player controls don't untap during the player's next
    untap step."""
    prevent_all_combat_damage(c)
    result = clash_with(c)
    if result.won:
        theirs = [o for o in c.objects(creature) if c.chars(o).controller == result.opponent]
        doesnt_untap(c, theirs, result.opponent)


S.card("Pollen Lullaby", spell(_pollen_lullaby))


def _sentry_oak(c: Ctx) -> None:
    """You may clash with an opponent. If you win, ~ gets +2/+0 and loses defender
    until end of turn."""
    if c.may("clash with an opponent?") and clash(c) and me(c) is not None:
        c.until_end_of_turn("pt", [c.source], [2, 0])
        c.until_end_of_turn("lose", [c.source], ["defender"])


S.card("Sentry Oak", triggered(ev.StepBegan, your_step("beginning_of_combat"), _sentry_oak))


def _springjack_knight(c: Ctx) -> None:
    """Clash with an opponent. If you win, target creature gains double strike until end
    of turn."""
    if not clash(c):
        return
    t = c.target(0)
    if t is not None:
        c.until_end_of_turn("grant", [t], ["double strike"])


S.card("Springjack Knight", attacks(_springjack_knight, target(creature)))


# ------------------------------------------------------------------ blue

def _broken_ambitions(c: Ctx) -> None:
    """Counter target spell unless its controller pays {X}. Clash with an opponent. If
    you win, that spell's controller mills four cards."""
    t = c.target(0)
    who = stack_controller(c.state, t)
    if t is not None and who is not None and not c.pay(who, f"{{{c.x}}}"):
        c.counter(t)
    if clash(c) and who is not None:
        c.mill(who, 4)


S.card("Broken Ambitions", spell(_broken_ambitions, target(a_spell)))


def _captivating_glance(c: Ctx) -> None:
    """Clash with an opponent. If you win, gain control of enchanted creature.
    Otherwise, that player gains control of enchanted creature."""
    result = clash_with(c)
    host = c.state.objects[c.source].attached_to if me(c) is not None else 0
    if host:
        c.forever("control", [host], c.controller if result.won else result.opponent)


S.card("Captivating Glance", triggered(ev.StepBegan, your_step("end"), _captivating_glance),
       enchant=target(creature))

S.card("Paperfin Rascal", etb(clash_for_a_counter))


def _ringskipper(c: Ctx) -> None:
    """Clash with an opponent. If you win, return ~ to its owner's hand."""
    if clash(c):
        card = c.event.new_obj  # Ringskipper, now in the graveyard
        if c.exists(card) and c.state.objects[card].zone == "graveyard":
            c.bounce(card)


S.card("Ringskipper", dies(_ringskipper))


def _scattering_stroke(c: Ctx) -> None:
    """Counter target spell. Clash with an opponent. If you win, at the beginning of your
    next main phase, you may add an amount of {C} equal to that spell's mana value."""
    t = c.target(0)
    mana_value = spell_mana_value(c, t)
    c.counter(t)
    if clash(c):
        at_your_next(c, MAIN_PHASES, data={"mana": mana_value})


def _add_colorless(c: Ctx) -> None:
    """You may add an amount of {C} equal to that spell's mana value."""
    n = int(c.item.data["mana"])
    if n > 0 and c.may(f"add {'{C}' * n}?"):
        c.game.emit(ev.ManaAdded(player=c.controller, mana="C" * n))


S.card("Scattering Stroke", spell(_scattering_stroke, target(a_spell)),
       delayed(_add_colorless, "at the beginning of your next main phase"))


def _whirlpool_whelm(c: Ctx) -> None:
    """Clash with an opponent, then return target creature to its owner's hand. If you
    win, you may put that creature on top of its owner's library instead."""
    you_won = clash(c)
    t = c.target(0)
    if t is None:
        return
    if you_won and c.may("put it on top of its owner's library instead?"):
        c.put_on_library(t)
    else:
        c.bounce(t)


S.card("Whirlpool Whelm", spell(_whirlpool_whelm, target(creature)))


# ------------------------------------------------------------------ black

S.card("Bog Hoodlums", has("can't block"), etb(clash_for_a_counter))


def _hoarders_greed(c: Ctx) -> None:
    """You lose 2 life and draw two cards, then clash with an opponent. If you win, repeat
    this process."""
    while True:
        c.lose_life(c.controller, 2)
        c.draw(c.controller, 2)
        if not clash(c):
            return


S.card("Hoarder's Greed", spell(_hoarders_greed))


def _weed_strangle(c: Ctx) -> None:
    """Destroy target creature. Clash with an opponent. If you win, you gain life equal
    to that creature's toughness."""
    t = c.target(0)
    c.destroy(t)
    if clash(c) and t is not None:
        c.gain_life(c.controller, c.chars(t).toughness or 0)  # last known, if it died


S.card("Weed Strangle", spell(_weed_strangle, target(creature)))


# ------------------------------------------------------------------ red

S.card("Adder-Staff Boggart", etb(clash_for_a_counter))


def _lash_out(c: Ctx) -> None:
    """~ deals 3 damage to target creature. Clash with an opponent. If you win, ~ deals 3
    damage to that creature's controller."""
    t = c.target(0)
    c.damage(t, 3)
    if clash(c) and t is not None:
        who = c.controller_of(t)  # last known, if the creature died
        if who is not None:
            c.damage(c.player_ref(who), 3)


S.card("Lash Out", spell(_lash_out, target(creature)))

REBELLION_TOKEN = "Elemental Shaman (Rebellion)"
"""The key of the 3/1 red Elemental Shaman token without haste (the set's tokens.json): its
objects are named "Elemental Shaman", like Hostility's token with haste."""


def _rebellion(c: Ctx) -> None:
    """You may pay {1}. If you do, create a 3/1 red Elemental Shaman creature token. If
    you won, that token gains haste until end of turn."""
    if c.pay(c.controller, "{1}", "pay {1} to create a 3/1 red Elemental Shaman?"):
        token = c.create_token(REBELLION_TOKEN)
        if won(c):
            c.until_end_of_turn("grant", token, ["haste"])


S.card("Rebellion of the Flamekin", whenever_you_clash(_rebellion))


# ------------------------------------------------------------------ green

def _fistful_of_force(c: Ctx) -> None:
    """Target creature gets +2/+2 until end of turn. Clash with an opponent. If you win,
    that creature gets an additional +2/+2 and gains trample until end of turn."""
    t = c.target(0)
    if t is None:
        return
    c.until_end_of_turn("pt", [t], [2, 2])
    if clash(c):
        c.until_end_of_turn("pt", [t], [2, 2])
        c.until_end_of_turn("grant", [t], ["trample"])


S.card("Fistful of Force", spell(_fistful_of_force, target(creature)))


def _gilt_leaf_ambush(c: Ctx) -> None:
    """Create two 1/1 green Elf Warrior creature tokens. Clash with an opponent. If you
    win, those creatures gain deathtouch until end of turn."""
    tokens = c.create_token("Elf Warrior", 2)
    if clash(c):
        alive = [t for t in tokens if c.exists(t) and c.state.objects[t].zone == "battlefield"]
        if alive:
            c.until_end_of_turn("grant", alive, ["deathtouch"])


S.card("Gilt-Leaf Ambush", spell(_gilt_leaf_ambush))

S.card("Nath's Elite", has("all able block it"), etb(clash_for_a_counter))


def _spring_cleaning(c: Ctx) -> None:
    """Destroy target enchantment. Clash with an opponent. If you win, destroy all
    enchantments your opponents control."""
    c.destroy(c.target(0))
    if clash(c):
        c.destroy_all(c.objects(enchantment.opponent_controls()))


S.card("Spring Cleaning", spell(_spring_cleaning, target(enchantment)))


def _sylvan_echoes(c: Ctx) -> None:
    """You may draw a card."""
    if c.may("draw a card?"):
        c.draw(c.controller, 1)


S.card("Sylvan Echoes", whenever_you_clash(_sylvan_echoes, and_win=True))


def _woodland_guidance(c: Ctx) -> None:
    """Return target card from your graveyard to your hand. Clash with an opponent. If you
    win, untap all Forests you control. Exile ~."""
    c.bounce(c.target(0))
    if clash(c):
        for oid in c.objects(permanent.with_subtype("Forest").you_control()):
            c.untap(oid)
    c.exile(c.item.id)


S.card("Woodland Guidance", spell(_woodland_guidance, target(card_in_graveyard.you_own())))
