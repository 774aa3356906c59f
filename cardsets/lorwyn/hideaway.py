"""Lorwyn cards: the five hideaway lands (mechanic: :mod:`mtgk.plugins.hideaway`).

Each: "Hideaway 4 ... This land enters tapped. {T}: Add {C}. {C}, {T}: You may play
the exiled card without paying its mana cost if [condition]."
"""

from __future__ import annotations

from collections.abc import Callable

from mtgk.cards.dsl import activated, mana_ability
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import creature
from mtgk.plugins.hideaway import (
    creatures_attacked_this_turn,
    damage_dealt_this_turn,
    hideaway,
    play_hidden,
)

from .cards import S


def _no_cards_in_hand(c: Ctx) -> bool:
    """Each player has no cards in hand."""
    return all(not c.state.players[p].hand for p in c.players())


def _power_ten(c: Ctx) -> bool:
    """Creatures you control have total power 10 or greater."""
    return sum(c.power(o) for o in c.objects(creature.you_control())) >= 10


def _small_library(c: Ctx) -> bool:
    """A library has twenty or fewer cards in it."""
    return any(len(p.library) <= 20 for p in c.state.players)


def _opponent_dealt_seven(c: Ctx) -> bool:
    """An opponent was dealt 7 or more damage this turn."""
    return any(damage_dealt_this_turn(c.game, p) >= 7 for p in c.opponents())


def _attacked_with_three(c: Ctx) -> bool:
    """You attacked with three or more creatures this turn."""
    return creatures_attacked_this_turn(c.game, c.controller) >= 3


def _hideaway_land(name: str, color: str, condition: Callable[[Ctx], bool]) -> None:
    S.card(name,
           hideaway(4),
           mana_ability(color),
           activated(f"{{{color}}}, {{T}}", play_hidden(condition)),
           enters_tapped=True)


_hideaway_land("Howltooth Hollow", "B", _no_cards_in_hand)
_hideaway_land("Mosswort Bridge", "G", _power_ten)
_hideaway_land("Shelldock Isle", "U", _small_library)
_hideaway_land("Spinerock Knoll", "R", _opponent_dealt_seven)
_hideaway_land("Windbrisk Heights", "W", _attacked_with_three)
