"""Lorwyn creatures whose activated abilities cost more than mana and {T}.

Tapping untapped creatures you control (Benthicore, Cloudgoat Ranger, Drowner of Secrets),
sacrificing a permanent (Boggart Loggers, Brion Stoutarm, Facevaulter, Tar Pitcher,
Guardian of Cloverdell, Marsh Flitter, Hearthcage Giant), discarding (Lys Alana
Scarblade; Oona's Prowler, whose ability any player may activate), exiling a card from
your graveyard (Scarred Vinebreeder) and the restriction "Activate only during your turn"
(Tideshaper Mystic).

Mechanisms: such costs and restrictions are parts of ``Cost.extra``
(:mod:`mtgk.plugins.costs`: ``ability(cost(mana, *extras), effect)``, ``tap_untapped``,
``discard``, ``exile_from_graveyard``, ``DURING_YOUR_TURN``, ``any_player=True``); a
cost written in the card's words -- "Sacrifice a Goblin", "Sacrifice another creature",
"Sacrifice ~" -- is parsed by :func:`mtgk.cards.dsl.parse_cost`; what was sacrificed to
pay the cost is :func:`mtgk.plugins.history.sacrificed_for_cost`.  Summon the School
(tap four untapped Merfolk, from the graveyard), Hoofprints of the Stag (remove four
counters, during your turn) and Fire-Belly Changeling (no more than twice each turn) are
tribal cards: see :mod:`mtgk.cardsets.lorwyn.tribal`; the Vivid lands and Springleaf Drum
(mana abilities with such costs) are :mod:`mtgk.cardsets.lorwyn.lands_and_mana`'s.

Oracle wordings, with the 2007 rules where they differ: Brion Stoutarm targets a player
(its printed "target player"; today's Oracle adds "or planeswalker"), and Tar Pitcher's
"target creature or player" doesn't include planeswalkers.
"""

from __future__ import annotations

from typing import Any

from mtgk.cards.dsl import (
    activated,
    create,
    damage,
    destroy,
    etb,
    gain_life,
    me,
    pump,
    self_pump,
    target,
)
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import creature, creature_or_player, kind, land, permanent, player
from mtgk.plugins.costs import (
    DURING_YOUR_TURN,
    ability,
    cost,
    discard,
    exile_from_graveyard,
    tap_untapped,
)
from mtgk.plugins.history import sacrificed_for_cost

from .cards import S
from .clash import REBELLION_TOKEN

_EARLIER = set(S.defs)

ELEMENTAL_SHAMAN = REBELLION_TOKEN  # a 3/1 red Elemental Shaman (no haste)
BASIC_LAND_TYPES = ("Plains", "Island", "Swamp", "Mountain", "Forest")


def _set_base_pt(power: int, toughness: int) -> Any:
    """"~ has base power and toughness P/T until end of turn"."""
    def eff(c: Ctx) -> None:
        src = me(c)
        if src is not None:
            c.until_end_of_turn("set_pt", [src], [power, toughness])
    return eff


# ======================================================================== tap untapped creatures

def _benthicore(c: Ctx) -> None:
    """Untap ~. It gains shroud until end of turn."""
    src = me(c)
    c.untap(src)
    if src is not None:
        c.until_end_of_turn("grant", [src], ["shroud"])


S.card("Benthicore",
       etb(create("Merfolk Wizard", 2)),
       ability(cost("", tap_untapped(kind("Merfolk"), 2, "two untapped Merfolk")), _benthicore))

S.card("Cloudgoat Ranger",
       etb(create("Kithkin Soldier", 3)),
       ability(cost("", tap_untapped(kind("Kithkin"), 3, "three untapped Kithkin")),
               self_pump(2, 0, grant=["flying"])))


def _target_player_mills_a_card(c: Ctx) -> None:
    who = c.controller_of(c.target(0))
    if who is not None:
        c.mill(who, 1)


S.card("Drowner of Secrets",
       ability(cost("", tap_untapped(kind("Merfolk"), 1, "an untapped Merfolk")),
               _target_player_mills_a_card, target(player)))


# ======================================================================== sacrifice

S.card("Boggart Loggers",  # forestwalk
       activated("{2}{B}, Sacrifice ~", destroy(),
                 target(kind("Treefolk") | permanent.with_subtype("Forest"))))


def _brion(c: Ctx) -> None:
    """~ deals damage equal to the sacrificed creature's power to target player."""
    for oid in sacrificed_for_cost(c):
        c.damage(c.target(0), c.power(oid))


S.card("Brion Stoutarm",  # lifelink
       activated("{R}, {T}, Sacrifice another creature", _brion, target(player)))

S.card("Facevaulter", activated("{B}, Sacrifice a Goblin", self_pump(2, 2)))

S.card("Tar Pitcher",
       activated("{T}, Sacrifice a Goblin", damage(2), target(creature_or_player)))

S.card("Guardian of Cloverdell",
       etb(create("Kithkin Soldier", 3)),
       ability(cost("{G}", sacrifice=kind("Kithkin")), gain_life(1)))

S.card("Marsh Flitter",  # flying
       etb(create("Goblin Rogue", 2)),
       ability(cost("", sacrifice=kind("Goblin")), _set_base_pt(3, 3)))

S.card("Hearthcage Giant",
       etb(create(ELEMENTAL_SHAMAN, 2)),
       ability(cost("", sacrifice=kind("Elemental")), pump(3, 1),
               target(kind("Giant").creature)))


# ======================================================================== discard

def _scarblade(c: Ctx) -> None:
    """Target creature gets -X/-X until end of turn, where X is the number of Elves you
    control."""
    x = c.count(kind("Elf").you_control())
    pump(-x, -x)(c)


S.card("Lys Alana Scarblade",
       ability(cost("{T}", discard(kind("Elf").card, "an Elf card")), _scarblade,
               target(creature)))

S.card("Oona's Prowler",  # flying
       ability(cost("", discard()), self_pump(-2, 0), any_player=True))


# ======================================================================== exile from a graveyard

S.card("Scarred Vinebreeder",
       ability(cost("{2}{B}", exile_from_graveyard(kind("Elf").card, "an Elf card")),
               self_pump(3, 3)))


# ======================================================================== only during your turn

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


#: The cards this module defines (tokens included), in definition order.
CARDS: list[str] = [n for n in S.defs if n not in _EARLIER]
