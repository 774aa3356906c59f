"""Morningtide's own mechanics, written as a third-party pack writes them: kinship,
prowl and reinforce, on the public API only (mtgk.cards.dsl, mtgk.cards.altcosts, mtgk.cards.history,
mtgk.cards.keywords, mtgk.cards.filters, mtgk.cards.effects.Ctx)."""

from __future__ import annotations

from mtgk.cards.altcosts import AltCost, alt_cost
from mtgk.cards.definitions import Activated, Effect, Target, Triggered
from mtgk.cards.dsl import activated, at_upkeep, target
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import creature, kind, shares_creature_type
from mtgk.cards.history import dealt_combat_damage_to_a_player
from mtgk.cards.keywords import declare_keyword, has_alt_cost
from mtgk.rules.engine import Game

PACK = "mtgk_morningtide_pack"

declare_keyword("prowl", PACK, check=has_alt_cost("prowl"),
                what="an alternative cost after a creature of one of its creature types "
                     "dealt combat damage")
declare_keyword("kinship", PACK, what="an ability word: an upkeep look at the top card",
                ability=False)
declare_keyword("reinforce", PACK, what="discard this card: +1/+1 counters on a creature")


def _prowled(game: Game, player: int, card: int) -> bool:
    # CR 702.76a: with a source that had any of this spell's creature types (Latchkey
    # Faerie: a Faerie or Rogue; Stinkdrinker Bandit: a Goblin or Rogue; Morsel Theft: a
    # Rogue) -- the reminder text only spells those out.
    types = game.view().chars(card).creature_types()
    return bool(types) and dealt_combat_damage_to_a_player(game, player, kind(*types))


def prowl(cost: str) -> AltCost:
    """"Prowl [cost]" (You may cast this for its prowl cost if you dealt combat damage to a
    player this turn with a [creature of one of its creature types].)"""
    return alt_cost("prowl", cost, condition=_prowled,
                    unless="you dealt combat damage to a player this turn with a creature "
                           "of one of its creature types")


def kinship(effect: Effect, *targets: Target) -> Triggered:
    """"Kinship — At the beginning of your upkeep, you may look at the top card of your
    library. If it shares a creature type with ~, you may reveal it. If you do, [effect]."""
    def eff(c: Ctx) -> None:
        library = c.state.players[c.you].library
        if not library or not c.may("kinship: look at the top card of your library?"):
            return
        top = library[0]
        c.look_at(c.you, [top])
        if shares_creature_type(c.game.view(), top, c.source) and \
                c.may("kinship: reveal it?"):
            c.reveal(c.you, [top])
            effect(c)
    return at_upkeep(eff, *targets)


def reinforce(n: int, cost: str) -> Activated:
    """"Reinforce N—[cost]" ([cost], Discard this card: Put N +1/+1 counters on target
    creature.  It works from the hand, at instant speed.)"""
    return activated(f"{cost}, Discard ~", lambda c: c.put_counters(c.target(0), "+1/+1", n),
                     target(creature), zones=("hand",), text=f"reinforce {n}")
