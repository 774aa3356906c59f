"""Playing cards exiled with a permanent, and "one spell each turn" (Colfenor's Plans).

Colfenor's Plans: "When Colfenor's Plans enters the battlefield, exile the top seven
cards of your library face down.  You may look at the cards exiled with Colfenor's
Plans, and you may play lands and cast spells from among those cards.  Skip your draw
step.  You can't cast more than one spell each turn."::

    S.card("Colfenor's Plans", etb(exile_top_face_down(7)), has(PLAY_EXILED),
           has(SKIP_DRAW), has(ONE_SPELL))

* :func:`exile_top_face_down` -- the triggered ability's effect: the cards are exiled
  face down and linked to the permanent (``exiled_with``); its controller may look at
  them (``known_to``, kept up to date by the kernel through
  :data:`~mtgk.rules.engine.KNOWN_TO_CONTROLLERS_OF`, and forgotten once it has left the
  battlefield).
* :data:`PLAY_EXILED` -- a rules ability: the controller of a permanent that has it may
  play lands and cast spells from among the cards exiled with it (a cast permission:
  the normal costs or the card's alternative costs, at the normal timing; a land uses
  the turn's land play).  A face-down card is cast face up, with its own
  characteristics.  Once the permanent has left the battlefield, the cards stay exiled.
* :data:`ONE_SPELL` -- a rules ability: its controller can't cast a spell if they have
  cast one this turn (spells cast before the permanent arrived count, the Plans itself
  too).
* "Skip your draw step" is the kernel's rules ability :data:`~mtgk.rules.engine.SKIP_DRAW`.
"""

from __future__ import annotations

from mtgk.cards.definitions import Effect, Registry
from mtgk.cards.effects import Ctx
from mtgk.cards.history import events_this_turn
from mtgk.log import events as ev
from mtgk.rules.engine import KNOWN_TO_CONTROLLERS_OF, SKIP_DRAW, Game

__all__ = ["PLAY_EXILED", "ONE_SPELL", "SKIP_DRAW", "exile_top_face_down", "register"]

PLAY_EXILED = "may play cards exiled with it"
ONE_SPELL = "can't cast more than one spell each turn"


def exile_top_face_down(n: int) -> Effect:
    """"Exile the top N cards of your library face down" (linked to this permanent; its
    controller may look at them)."""
    def eff(c: Ctx) -> None:
        g = c.game
        you = c.controller
        for oid in list(c.state.players[you].library[:n]):
            new = g.exile(oid, face_down=True, exiled_with=c.source, reason="exile")
            if new is not None:
                g.emit(ev.ObjectFlagged(obj=new, key="known_to", value=[you]))
                g.emit(ev.ObjectFlagged(obj=new, key=KNOWN_TO_CONTROLLERS_OF, value=c.source))
    return eff


def _may_play_exiled(game: Game, player: int, oid: int) -> list[str]:
    o = game.state.objects[oid]
    host = o.flags.get("exiled_with") if o.zone == "exile" and o.flags else None
    h = game.state.objects.get(host) if host else None
    if h is None or h.zone != "battlefield":
        return []
    c = game.chars(h.id)
    if c.controller != player or not c.has(PLAY_EXILED):
        return []
    return [""] + sorted(game.card(oid).alt_costs)


def _one_spell_controllers(game: Game) -> list[int]:
    return sorted({game.chars(o).controller for o in game.permanents_with(ONE_SPELL)})


def _one_spell_each_turn(game: Game, player: int, card: int, alt: str) -> str:
    if player not in game.cached("play_exiled:one_spell", lambda: _one_spell_controllers(game)):
        return ""
    if any(isinstance(e, ev.SpellCast) and e.controller == player
           for e in events_this_turn(game)):
        return "you can't cast more than one spell each turn"
    return ""


def register(registry: Registry) -> None:
    registry.allow_casting_from(_may_play_exiled, zones=("exile",))
    if _one_spell_each_turn not in registry.cast_restrictions:
        registry.cast_restrictions.append(_one_spell_each_turn)
