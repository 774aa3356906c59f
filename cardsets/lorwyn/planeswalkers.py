"""The five Lorwyn planeswalkers, with their 2007 rules (issue 3).

Under the Lorwyn rules the planeswalkers are not legendary (the 2007
uniqueness rule applies instead), so their facts use the printed type line
``Planeswalker — Ajani``.  Where a target changed meaning since 2007, the
printed wording is used: Chandra's abilities target a *player*.
"""

from __future__ import annotations

import msgspec

from mtgk.cards.dsl import create, discard_a_card, gain_life, loyalty, target
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import creature, land, player

from .cards import S


def _walker(name: str, *abilities: object, printed_text: bool = False) -> None:
    """Define a planeswalker with its printed (2007) type line, not legendary; with
    ``printed_text`` its text is the printed one too (where today's Oracle wording
    would mean something else)."""
    f = S.fact(name)
    printed = f.printed_type_line.replace(" - ", " — ")
    facts = msgspec.structs.replace(f, supertypes=(), type_line=printed)
    if printed_text:
        text = "\n".join(line.replace("-", "−", 1) if line.startswith("-") else line
                         for line in _PRINTED[name].splitlines())
        facts = msgspec.structs.replace(facts, oracle_text=text)
    S.card(name, *abilities, facts=facts)


_PRINTED = {
    # Chandra Nalaar as printed in 2007: her +1 and -8 target a *player*
    # (today's Oracle: "target player or planeswalker").
    "Chandra Nalaar": "+1: Chandra Nalaar deals 1 damage to target player.\n"
                      "-X: Chandra Nalaar deals X damage to target creature.\n"
                      "-8: Chandra Nalaar deals 10 damage to target player and each creature "
                      "he or she controls.",
}


# Ajani Goldmane --------------------------------------------------------------

def _ajani_counters(c: Ctx) -> None:
    """Put a +1/+1 counter on each creature you control; they gain vigilance until end of turn."""
    mine = c.objects(creature.you_control())
    for oid in mine:
        c.put_counters(oid, "+1/+1")
    c.until_end_of_turn("grant", mine, ["vigilance"])


_walker("Ajani Goldmane",
        loyalty("+1", gain_life(2)),
        loyalty("-1", _ajani_counters),
        loyalty("-6", create("Avatar")))


# Chandra Nalaar --------------------------------------------------------------

def _chandra_ult(c: Ctx) -> None:
    """10 damage to target player and each creature he or she controls."""
    p = c.target(0)
    if p is None:
        return
    who = c.controller_of(p)
    c.damage(p, 10)
    for oid in c.objects(creature):
        if c.chars(oid).controller == who:
            c.damage(oid, 10)


_walker("Chandra Nalaar",
        loyalty("+1", lambda c: c.damage(c.target(0), 1), target(player)),
        loyalty("-X", lambda c: c.damage(c.target(0), c.x), target(creature)),
        loyalty("-8", _chandra_ult, target(player)),
        printed_text=True)


# Garruk Wildspeaker ----------------------------------------------------------

def _untap_targets(c: Ctx) -> None:
    for oid in c.legal_targets():
        c.untap(oid)


def _overrun(c: Ctx) -> None:
    mine = c.objects(creature.you_control())
    c.until_end_of_turn("pt", mine, [3, 3])
    c.until_end_of_turn("grant", mine, ["trample"])


_walker("Garruk Wildspeaker",
        loyalty("+1", _untap_targets, target(land, count=2)),
        loyalty("-1", create("Beast")),
        loyalty("-4", _overrun))


# Jace Beleren ----------------------------------------------------------------

def _each_draws(c: Ctx) -> None:
    for p in c.players():
        c.draw(p, 1)


def _target_draws(c: Ctx) -> None:
    p = c.target(0)
    if p is not None:
        c.draw(c.controller_of(p), 1)


def _mill_twenty(c: Ctx) -> None:
    p = c.target(0)
    if p is not None:
        c.mill(c.controller_of(p) or 0, 20)


_walker("Jace Beleren",
        loyalty("+2", _each_draws),
        loyalty("-1", _target_draws, target(player)),
        loyalty("-10", _mill_twenty, target(player)))


# Liliana Vess ----------------------------------------------------------------

def _discard(c: Ctx) -> None:
    """Target player discards a card (of their choice)."""
    discard_a_card(c, c.controller_of(c.target(0)))


def _tutor(c: Ctx) -> None:
    """Search your library for a card, then shuffle and put that card on top."""
    lib = list(c.state.players[c.controller].library)
    if not lib:
        c.shuffle()
        return
    card_id = c.state.objects[c.choose(lib, prompt="search your library for a card")].card_id
    c.shuffle()
    now = next(o for o in c.state.players[c.controller].library
               if c.state.objects[o].card_id == card_id)
    c.put_on_library(now)


def _reanimate_all(c: Ctx) -> None:
    graves = [o for p in c.state.players for o in p.graveyard
              if "Creature" in c.chars(o).types]
    c.put_all_onto_battlefield(graves, controller=c.controller)  # all at once


_walker("Liliana Vess",
        loyalty("+1", _discard, target(player)),
        loyalty("-2", _tutor),
        loyalty("-8", _reanimate_all))
