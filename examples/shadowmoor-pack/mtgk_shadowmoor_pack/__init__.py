"""An outside author's card pack: fifteen Shadowmoor and Eventide cards (hybrid and
monocolored hybrid mana, -1/-1 counters, wither, persist, conspire, retrace, {Q}, chroma,
a filter land, an Aura, Scarecrows), written only against mtgk's public API -- the
pack-level mechanics are in :mod:`.mechanics`.

Installed with ``pip install examples/shadowmoor-pack``; ``pytest`` in this folder runs
its scenarios (``scenario_*.yaml``).
"""

from __future__ import annotations

from typing import Any

import mtgk.plugins.wither  # noqa: F401 - declares wither (a keyword: the facts give it)
from mtgk.cards.definitions import CardSetInfo, Registry
from mtgk.cards.dsl import (
    CardSet,
    activated,
    controller,
    damage,
    discard_a_card,
    etb,
    gets_and_has,
    host_of,
    mana_ability,
    spell,
    static,
)
from mtgk.cards.dsl import target as target_slot
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import any_target, creature, exists, player
from mtgk.cards.loading import hookimpl
from mtgk.plugins.persist import persist
from mtgk.plugins.regeneration import regenerate
from mtgk.rules.layers import View

from . import mechanics
from .mechanics import conspire, mana_symbols, retrace

S = CardSet("shadowmoor", "0.1.0", __file__, extra_facts=("tokens.json",))
S.vanilla("Spirit")

# --- hybrid mana, wither
# {R/G}{R/G}{R/G} -- Haste. Wither
S.vanilla("Boggart Ram-Gang")

# {3}{B} -- Wither. {1}{B}: Regenerate Cinderbones.
S.card("Cinderbones", activated("{1}{B}", lambda c: regenerate(c, c.source)))

# --- monocolored hybrid
# {2/W}{2/W}{2/W} -- Create three 1/1 white Spirit creature tokens with flying.
S.card("Spectral Procession", spell(lambda c: c.create_token("Spirit", 3)))

# --- -1/-1 counters


def _incremental_blight(c: Ctx) -> None:
    for i, n in enumerate((1, 2, 3)):
        c.put_counters(c.target(i), "-1/-1", n)


# Put a -1/-1 counter on target creature, two -1/-1 counters on another target creature,
# and three -1/-1 counters on a third target creature.
S.card("Incremental Blight", spell(_incremental_blight, target_slot(creature),
                                   target_slot(creature, another=True),
                                   target_slot(creature, another=True)))


def _puncture_bolt(c: Ctx) -> None:
    c.damage(c.target(0), 1)
    c.put_counters(c.target(0), "-1/-1", 1)


# Puncture Bolt deals 1 damage to target creature. Put a -1/-1 counter on that creature.
S.card("Puncture Bolt", spell(_puncture_bolt, target_slot(creature)))

# --- persist
# {1}{G/W}{G/W} -- Persist
S.card("Safehold Elite", persist())

_black_creature = creature.of_color("B").you_control()
_red_creature = creature.of_color("R").you_control()


def _rattleblaze(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
    you = controller(v, src)
    grant = [kw for kw, f in (("persist", _black_creature), ("haste", _red_creature))
             if exists(v, f, you, src)]
    return gets_and_has([src], 0, 0, grant) if grant else []


# As long as you control a black creature, ~ has persist.
# As long as you control a red creature, ~ has haste.
S.card("Rattleblaze Scarecrow", static(_rattleblaze, "has persist with a black creature, "
                                       "haste with a red creature", scope="self"))

# --- conspire
# Burn Trail deals 3 damage to any target. Conspire
S.card("Burn Trail", spell(damage(3), target_slot(any_target)), *conspire())

# --- retrace
# Flame Jab deals 1 damage to any target. Retrace
S.card("Flame Jab", spell(damage(1), target_slot(any_target)), additional_cost=retrace())


def _ravens_crime(c: Ctx) -> None:
    discard_a_card(c, c.target(0))


# Target player discards a card. Retrace
S.card("Raven's Crime", spell(_ravens_crime, target_slot(player)),
       additional_cost=retrace())

# --- the untap symbol, a Scarecrow
# Flying. {2}, {Q}: Add one mana of any color.
S.card("Pili-Pala", mana_ability("WUBRG", "{2}, {Q}"))

# --- chroma


def _heartlash(c: Ctx) -> None:
    c.until_end_of_turn("pt", [c.source], [mana_symbols(c.game.view(), "R", c.you), 0])


# Haste. Chroma -- When ~ enters, it gets +X/+0 until end of turn, where X is the number
# of red mana symbols in the mana costs of permanents you control.
S.card("Heartlash Cinder", etb(_heartlash))


def _primalcrux_pt(v: View, oid: int) -> tuple[int, int]:
    n = mana_symbols(v, "G", controller(v, oid))
    return n, n


# Trample. Chroma -- ~'s power and toughness are each equal to the number of green mana
# symbols in the mana costs of permanents you control.
S.card("Primalcrux", pt=_primalcrux_pt)

# --- a filter land
# {T}: Add {C}. {R/W}, {T}: Add {R}{R}, {R}{W}, or {W}{W}.
S.card("Rugged Prairie", mana_ability("C"), mana_ability("RW", "{R/W}, {T}", amount=2))

# --- an Aura
_red, _green = creature.of_color("R"), creature.of_color("G")


def _runes(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
    out: list[tuple[str, str, list[int], Any]] = []
    you = controller(v, src)
    for host in host_of(v, src):
        if _red(v, host, you, src):
            out += gets_and_has([host], 1, 1, ["double strike"])
        if _green(v, host, you, src):
            out += gets_and_has([host], 1, 1, ["trample"])
    return out


# Enchant creature. As long as enchanted creature is red, it gets +1/+1 and has double
# strike. As long as enchanted creature is green, it gets +1/+1 and has trample.
S.card("Runes of the Deus", static(_runes, "+1/+1 and double strike if red, +1/+1 and "
                                   "trample if green"), enchant=target_slot(creature))


@hookimpl
def mtgk_cardsets() -> list[CardSetInfo]:
    return [S.info()]


@hookimpl
def mtgk_register(registry: Registry) -> None:
    mechanics.register(registry)
