"""Card definitions of the core reference pack."""

from __future__ import annotations

from kernel.dsl import CardSet, damage, destroy, draw, lord, mana_ability, spell, target
from kernel.filters import creature, creature_or_player, kind

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
