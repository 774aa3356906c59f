"""Lorwyn cards: the five Incarnations (mechanics: :mod:`mtgk.plugins.incarnations`), and
Thoughtseize (the primer's Dread example discards Dread with it).

Keywords (fear, flying, haste, trample) come from the card data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtgk.cards.dsl import controller, spell, target, triggered
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import player
from mtgk.log import events as ev
from mtgk.plugins.incarnations import (
    Prevent,
    cant_be_blocked_except_by,
    put_into_graveyard_from_anywhere,
    shuffle_into_owners_library,
)
from mtgk.rules.replacement import Proposal, Replacement

from .cards import S

if TYPE_CHECKING:
    from mtgk.rules.engine import Game
    from mtgk.rules.layers import View


def _shuffle_in(name: str) -> Any:
    return put_into_graveyard_from_anywhere(
        shuffle_into_owners_library,
        f"When {name} is put into a graveyard from anywhere, shuffle it into its owner's "
        "library.")


# Dread -----------------------------------------------------------------------

def _creature_damaged_you(v: View, src: int, e: Any) -> bool:
    """Whenever a creature deals damage to you ..."""
    o = v.state.objects.get(e.source)
    return bool(e.target == ev.player_ref(v.chars(src).controller) and o is not None
                and o.zone == "battlefield" and "Creature" in v.chars(e.source).types)


def _destroy_it(c: Ctx) -> None:
    """... destroy it."""
    c.destroy(c.event.source if c.event is not None else None)


S.card("Dread",
       triggered(ev.DamageDealt, _creature_damaged_you, _destroy_it,
                 text="Whenever a creature deals damage to you, destroy it."),
       _shuffle_in("Dread"))


# Guile -----------------------------------------------------------------------

class _ExileInstead(Replacement):
    """If a spell or ability you control would counter a spell, instead exile that spell
    and you may play that card without paying its mana cost."""

    event = "counter"
    key = "guile"

    def applies(self, game: Game, p: Proposal, source: int) -> bool:
        return bool(p["kind"] == "spell" and p["by"] == controller(game, source))

    def apply(self, game: Game, p: Proposal, source: int) -> Proposal | None:
        card = game.move(p["item"], "exile", reason="guile")
        if card is not None:
            game.play_during_resolution(controller(game, source), card, optional=True,
                                        prompt="play the exiled card without paying its "
                                               "mana cost?")
        return None  # the spell isn't countered


S.card("Guile",
       cant_be_blocked_except_by(3),
       _ExileInstead(),
       _shuffle_in("Guile"))


# Hostility -------------------------------------------------------------------

def _your_spell_to_opponent(game: Game, p: Proposal, source: int) -> bool:
    """If a spell you control would deal damage to an opponent ..."""
    you = controller(game, source)
    who = ev.ref_player(p["target"])
    return who is not None and who != you and any(
        it.id == p["source"] and it.kind == "spell" and it.controller == you
        for it in game.state.stack)


def _elemental_shamans(game: Game, p: Proposal, source: int, n: int) -> None:
    """Create a 3/1 red Elemental Shaman creature token with haste for each 1 damage
    prevented this way."""
    for _ in range(n):
        game.create_token("Elemental Shaman", controller(game, source))


S.card("Hostility",
       Prevent("hostility", _your_spell_to_opponent, _elemental_shamans),
       _shuffle_in("Hostility"))


# Purity ----------------------------------------------------------------------

def _noncombat_to_you(game: Game, p: Proposal, source: int) -> bool:
    """If noncombat damage would be dealt to you ..."""
    return bool(not p["combat"] and p["target"] == ev.player_ref(controller(game, source)))


def _gain_prevented(game: Game, p: Proposal, source: int, n: int) -> None:
    """You gain life equal to the damage prevented this way."""
    game.emit(ev.LifeGained(player=controller(game, source), n=n))


S.card("Purity",
       Prevent("purity", _noncombat_to_you, _gain_prevented),
       _shuffle_in("Purity"))


# Vigor -----------------------------------------------------------------------

def _to_another_creature_of_yours(game: Game, p: Proposal, source: int) -> bool:
    """If damage would be dealt to another creature you control ..."""
    t = p["target"]
    o = game.state.objects.get(t) if t > 0 else None
    return bool(o is not None and t != source and o.zone == "battlefield"
                and game.chars(t).is_creature
                and game.chars(t).controller == controller(game, source))


def _plus_counters(game: Game, p: Proposal, source: int, n: int) -> None:
    """Put a +1/+1 counter on that creature for each 1 damage prevented this way."""
    game.emit(ev.CounterPlaced(obj=p["target"], kind="+1/+1", n=n))


S.card("Vigor",
       Prevent("vigor", _to_another_creature_of_yours, _plus_counters),
       _shuffle_in("Vigor"))


# Thoughtseize ----------------------------------------------------------------

def _thoughtseize(c: Ctx) -> None:
    """Target player reveals their hand. You choose a nonland card from it. That player
    discards that card. You lose 2 life."""
    p = c.controller_of(c.target(0))
    if p is not None:
        hand = list(c.state.players[p].hand)
        c.reveal(p, hand)
        nonland = [o for o in hand if "Land" not in c.chars(o).types]
        if nonland:
            c.discard(p, c.choose(nonland, prompt="choose a nonland card to be discarded"))
    c.lose_life(c.controller, 2)


S.card("Thoughtseize", spell(_thoughtseize, target(player)))
