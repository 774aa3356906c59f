"""Lorwyn cards that give another object a triggered ability: Makeshift Mannequin ("When
this creature becomes the target of a spell or ability, sacrifice it", for as long as it
has a mannequin counter), Nettlevine Blight ("At the beginning of your end step,
sacrifice this permanent and attach Nettlevine Blight to a creature or land you
control") and Heat Shimmer (a token copy with haste and "At the beginning of the end
step, exile this permanent").

The granted ability is defined on the granting card with
``granted(card name, ability)`` (its key is ``"<card name>#<index>"``) and the card with
``grantable=True``; an effect or an Aura's static ability then grants the key
(:mod:`mtgk.plugins.grants`: ``GRANT_WHILE_COUNTER``, ``becomes_target``).

**Definition order matters here** (and, in Lorwyn, only here): the triggered abilities
granted to one permanent trigger in the order their cards were registered
(``Registry.trigger_plan``), so a Heat Shimmer token enchanted by Nettlevine Blight puts
Nettlevine Blight's trigger before its own.  Keep Nettlevine Blight defined before Heat
Shimmer (``tests/test_registration_order.py`` says so if not).
"""

from __future__ import annotations

from mtgk.cards.dsl import each_step, enchanted, me, spell, target, triggered, your_step
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import creature, creature_card, land
from mtgk.log import events as ev
from mtgk.plugins.grants import GRANT_WHILE_COUNTER, becomes_target, granted

from .cards import S

_EARLIER = set(S.defs)


# ======================================================================== while it has a counter

MANNEQUIN = "Makeshift Mannequin"


def _mannequin(c: Ctx) -> None:
    """Return target creature card from your graveyard to the battlefield with a mannequin
    counter on it. For as long as that creature has a mannequin counter on it, it has
    "When this creature becomes the target of a spell or ability, sacrifice it." """
    new = c.put_onto_battlefield(c.target(0), controller=c.you)
    if new is None or c.state.objects[new].zone != "battlefield":
        return
    c.put_counters(new, "mannequin", 1)
    c.forever(GRANT_WHILE_COUNTER, [new], {"abilities": [f"{MANNEQUIN}#1"],
                                           "while_counter": "mannequin"})


def _sacrifice_me(c: Ctx) -> None:
    src = me(c)
    if src is not None and c.chars(src).controller == c.you:
        c.sacrifice(src)


S.card(MANNEQUIN, spell(_mannequin, target(creature_card.in_your("graveyard"))),
       granted(MANNEQUIN, becomes_target(_sacrifice_me)), grantable=True)


# ======================================================================== granted by an Aura

BLIGHT = "Nettlevine Blight"


def _nettlevine(c: Ctx) -> None:
    """Sacrifice this permanent and attach Nettlevine Blight to a creature or land you
    control."""
    s = c.state
    blights = [o for o in s.battlefield if s.objects[o].card == BLIGHT
               and s.objects[o].attached_to == c.source]
    c.sacrifice(me(c))
    for b in blights:
        if b not in s.objects or s.objects[b].zone != "battlefield":
            continue
        hosts = [o for o in c.objects((creature | land).you_control())
                 if c.game.can_enchant(b, o)]
        if hosts:
            host = c.choose(hosts, prompt=f"attach {BLIGHT} to a creature or land you control")
            c.game.emit(ev.Attached(obj=b, to=host))


S.card(BLIGHT,
       enchanted(grant=[f"{BLIGHT}#1"]),
       granted(BLIGHT, triggered(ev.StepBegan, your_step("end"), _nettlevine,
                                 text="at the beginning of your end step")),
       enchant=target(creature | land), grantable=True)


# ======================================================================== granted to a token copy
# (after Nettlevine Blight: see the module's docstring)

HEAT_SHIMMER = "Heat Shimmer"


def _heat_shimmer(c: Ctx) -> None:
    """Create a token that's a copy of target creature, except it has haste and "At the
    beginning of the end step, exile this permanent." (A token of the card whose
    copiable values the creature has: its own, or what it is a copy of, CR 707.2.)"""
    for tok in c.create_token_copy(c.target(0)):
        c.forever("grant", [tok], ["haste", f"{HEAT_SHIMMER}#1"])


def _exile_me(c: Ctx) -> None:
    c.exile(me(c))


S.card(HEAT_SHIMMER, spell(_heat_shimmer, target(creature)),
       granted(HEAT_SHIMMER, triggered(ev.StepBegan, each_step("end"), _exile_me,
                                       text="at the beginning of the end step")),
       grantable=True)


#: The cards this module defines (tokens included), in definition order.
CARDS: list[str] = [n for n in S.defs if n not in _EARLIER]
