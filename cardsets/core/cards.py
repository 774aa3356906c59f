"""Card definitions of the core reference pack."""

from __future__ import annotations

from typing import Any

from kernel import events as ev
from kernel.dsl import (
    ENTERS,
    CardSet,
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
from kernel.effects import Ctx
from kernel.filters import creature, creature_or_player, enchantment, kind

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


def _life_total(view: object, oid: int) -> tuple[int, int]:
    """This creature's power and toughness are each equal to your life total."""
    life = view.state.players[view.chars(oid).controller].life  # type: ignore[attr-defined]
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
