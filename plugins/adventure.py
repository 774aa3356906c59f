"""Adventure (CR 715): a creature card with an instant or sorcery "Adventure" half.

The owner may cast the Adventure half from their hand (the card is then that
instant or sorcery on the stack, with only the Adventure's characteristics); as it
resolves it is exiled instead of going to the graveyard, and while it stays in
exile its owner may cast the creature from there.  If the Adventure is countered
or its targets are all illegal, it goes to the graveyard as usual.

A pack defines both halves with :func:`adventure_card`; scenario files cast the
Adventure by its name (``cast: Betroth the Beast``) and the creature from exile by
the creature's name.  The card is known by its creature name in every zone
(``"A // B"`` is accepted as an alias).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from mtgk.cards.definitions import CardFacts, Effect, Registry, SpellAbility, Target
from mtgk.cards.loading import hookimpl
from mtgk.log import events as ev

if TYPE_CHECKING:
    from mtgk.cards.dsl import CardSet
    from mtgk.cards.effects import Ctx
    from mtgk.rules.engine import Game

ALT = "adventure"
ON_ADVENTURE = "on_adventure"
ALIASES: dict[str, str] = {}
"""``"Creature // Adventure"`` -> ``"Creature"`` for every card defined here."""


def adventure_spell(effect: Effect, *targets: Target) -> SpellAbility:
    """The Adventure half's spell ability: ``effect``, then the card goes on an adventure
    (exile, castable as the creature by its owner)."""
    def eff(c: Ctx) -> None:
        effect(c)
        o = c.state.objects.get(c.item.id)
        if o is not None and o.zone == "stack":
            new = c.game.move(c.item.id, "exile", reason=ALT)
            if new is not None and new in c.state.objects and \
                    c.state.objects[new].zone == "exile":
                c.game.emit(ev.ObjectFlagged(obj=new, key=ON_ADVENTURE, value=True))
    return SpellAbility(eff, tuple(targets))


def _face(f: dict[str, Any], keywords: tuple[str, ...] = ()) -> CardFacts:
    return msgspec.convert(dict(f, keywords=list(keywords)), CardFacts, strict=False)


def adventure_card(S: CardSet, raw: dict[str, Any], creature: tuple[Any, ...],
                   spell: SpellAbility, **extras: Any) -> None:
    """Define an Adventure card from its data record (with ``card_faces``): the creature
    (``creature`` abilities; keywords from the record) and the Adventure (``spell``,
    from :func:`adventure_spell`)."""
    main, adv = raw["card_faces"][0], raw["card_faces"][1]
    S.card(main["name"], *creature, facts=_face(main, tuple(raw.get("keywords", ()))),
           alt_costs={ALT: adv["mana_cost"]}, faces={ALT: adv["name"]}, **extras)
    S.card(adv["name"], spell, facts=_face(adv), adventure_of=main["name"])
    ALIASES[raw["name"]] = main["name"]


def _may_cast_from_exile(game: Game, player: int, oid: int) -> list[str]:
    o = game.state.objects[oid]
    if o.zone == "exile" and o.owner == player and o.flags.get(ON_ADVENTURE):
        return [""]  # the creature, for its mana cost (not the Adventure again)
    return []


def register(registry: Registry) -> None:
    registry.allow_casting_from(_may_cast_from_exile, zones=("exile",))
    for full, main in ALIASES.items():
        if main in registry.cards:
            registry.aliases.setdefault(full, main)


@hookimpl
def mtgk_register(registry: Registry) -> None:
    register(registry)
