"""Card definitions of the core reference pack."""

from __future__ import annotations

from typing import Any

from mtgk.cards.definitions import Triggered
from mtgk.cards.dsl import (
    ENTERS,
    CardSet,
    activated,
    at_upkeep,
    damage,
    destroy,
    draw,
    etb,
    lord,
    mana_ability,
    spell,
    target,
    triggered_on,
)
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import artifact, creature, creature_or_player, enchantment, kind, land
from mtgk.log import events as ev
from mtgk.plugins.champion import champion
from mtgk.rules.engine import Move
from mtgk.rules.layers import View

S = CardSet("core", "0.1.0", __file__, extra_facts=("tokens.json",))

S.vanilla("Grizzly Bears", "Gray Ogre", "Runeclaw Bear", "Silvercoat Lion", "Goblin Roughrider",
          "Game-Trail Changeling", "Azorius First-Wing",
          # tokens
          "Beast", "Elemental Shaman", "Shapeshifter", "Faerie Rogue", "Elf Warrior")

S.card("Shock", spell(damage(2), target(creature_or_player)))
S.card("Lightning Bolt", spell(damage(3), target(creature_or_player)))
S.card("Murder", spell(destroy(), target(creature)))
S.card("Divination", spell(draw(2)))
S.card("Goblin Chieftain", lord(kind("Goblin").creature.other().you_control(), 1, 1,
                                grant=["haste"]))
S.card("Treasure", mana_ability("WUBRG", "{T}, Sacrifice ~"))


def _life_total(view: View, oid: int) -> tuple[int, int]:
    """This creature's power and toughness are each equal to your life total."""
    life = view.state.players[view.chars(oid).controller].life
    return life, life


S.card("Avatar", pt=_life_total)


def _trick(c: Ctx) -> None:
    """Tap target creature an opponent controls. It loses all abilities until end of turn."""
    t = c.target(0)
    if t is not None:
        c.tap(t)
        c.until_end_of_turn("lose_all_abilities", [t])


S.card("Merfolk Trickster", etb(_trick, target(creature.opponent_controls())))


def _your_enchantment_enters(v: Any, src: int, e: ev.Event) -> bool:
    new = ev.entered(e)
    return bool(new) and enchantment(v, new, v.chars(src).controller, src) and \
        v.chars(new).controller == v.chars(src).controller


# Constellation — Whenever an enchantment enters the battlefield under your control, you gain 2 life.
S.card("Nexus Wardens", triggered_on(ENTERS, _your_enchantment_enters,
                                     lambda c: c.gain_life(c.controller, 2)))


# Exhume, Ghostly Flicker, Lightning Crafter, Bitterblossom ------------------------------

def _exhume(c: Ctx) -> None:
    """Each player puts a creature card from their graveyard onto the battlefield."""
    chosen = []
    for p in c.players():  # in turn order; then all of them enter at once
        cards = [o for o in c.state.players[p].graveyard if "Creature" in c.chars(o).types]
        if cards:
            chosen.append((p, c.choose(cards, player=p, prompt="put a creature card from your "
                                       "graveyard onto the battlefield")))
    c.game.move_together([Move(oid, "battlefield", "put", controller=p) for p, oid in chosen])


def _ghostly_flicker(c: Ctx) -> None:
    """Exile two target artifacts, creatures, and/or lands you control, then return those
    cards to the battlefield under your control."""
    exiled = c.exile_all(c.legal_targets())  # both at once, then both return at once
    c.put_all_onto_battlefield(exiled, controller=c.controller)


def _bitterblossom(c: Ctx) -> None:
    """You lose 1 life and put a 1/1 black Faerie Rogue creature token with flying onto
    the battlefield."""
    c.lose_life(c.controller, 1)
    c.create_token("Faerie Rogue")


S.card("Exhume", spell(_exhume))
S.card("Ghostly Flicker",
       spell(_ghostly_flicker, target((artifact | creature | land).you_control(), count=2)))
S.card("Lightning Crafter",
       *champion(kind("Goblin", "Shaman"), "a Goblin or Shaman"),
       activated("{T}", damage(3), target(creature_or_player)))
S.card("Bitterblossom", at_upkeep(_bitterblossom))


def _your_attackers(v: Any, src: int, e: ev.AttackersDeclared) -> list[int]:
    me = v.chars(src).controller
    return [a for a, _t in e.attacks if v.chars(a).controller == me]


def _animosity(c: Ctx) -> None:
    """It gets +1/+0 until end of turn for each other attacking creature that shares a
    creature type with it."""
    me = c.subject
    if me is None or not c.exists(me) or c.state.combat is None:
        return
    mine = c.chars(me)
    n = sum(1 for a in c.state.combat.attackers
            if a != me and c.exists(a) and any(mine.has_subtype(t)
                                               for t in c.chars(a).creature_types()))
    if n:
        c.until_end_of_turn("pt", [me], [n, 0])


# Whenever a creature you control attacks, it gets +1/+0 until end of turn for each other
# attacking creature that shares a creature type with it.
S.card("Shared Animosity", Triggered((ev.AttackersDeclared.TAG,), lambda v, s, e: True,
                                     _animosity, each=_your_attackers,
                                     text="whenever a creature you control attacks"))
