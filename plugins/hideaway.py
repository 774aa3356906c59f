"""Hideaway (Lorwyn primer, "Keyword Ability: Hideaway"; CR 702.75).

Current Oracle wording: "Hideaway 4 (When this land enters, look at the top four
cards of your library, exile one face down, then put the rest on the bottom in a
random order.)"  The lands also say "This land enters tapped." (the card
definition's ``enters_tapped=True``) and end with an ability that plays the
exiled card::

    S.card("Mosswort Bridge",
           hideaway(4),
           mana_ability("G"),
           activated("{G}, {T}", play_hidden(creatures_total_power_at_least(10))),
           enters_tapped=True)

* :func:`hideaway` -- the triggered ability.  Its controller looks at the top N
  cards (fewer if the library is smaller; the look is a ``Revealed`` event shown
  to that player only), exiles one face down (decision ``hideaway``; the card is
  linked to the land: ``exiled_with``) and puts the rest on the bottom in a
  random order: the order is drawn from the game's seeded generator and
  recorded by the order of the moves in the log.
* Who may look at the exiled card: it is ``known_to`` its controller at once;
  the kernel adds every later controller of the land (flag
  :data:`~mtgk.rules.engine.KNOWN_TO_CONTROLLERS_OF`) and forgets them all when the
  land leaves the battlefield.  :mod:`mtgk.rules.visibility` hides it from everyone
  else.
* :func:`play_hidden` -- the last ability's effect: if the exiled card is still
  there and the condition holds, its controller *may* play it without paying its
  mana cost as the ability resolves (:meth:`~mtgk.rules.engine.Game.play_during_resolution`):
  timing by card type is ignored, a land only on their turn with a land play
  left (it counts as that play), no alternative cost (evoke), X is 0; if it can't
  be played it stays exiled face down for another try.  The ability's
  controller plays it even if the land changed controllers or left meanwhile.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from mtgk.cards.definitions import Triggered
from mtgk.cards.dsl import etb
from mtgk.cards.effects import Ctx
from mtgk.cards.history import damage_dealt_to_player_this_turn, events_this_turn
from mtgk.cards.keywords import declare_keyword
from mtgk.log import events as ev
from mtgk.rules.engine import KNOWN_TO_CONTROLLERS_OF, Game
from mtgk.rules.seats import is_active

Condition = Callable[[Ctx], bool]

declare_keyword("hideaway", "mtgk.plugins.hideaway",
                what="exile one of the top four cards face down as it enters")


def hideaway(n: int = 4) -> Triggered:
    """"Hideaway N": when this permanent enters, look at the top N cards of your
    library, exile one face down, then put the rest on the bottom in a random order."""
    def hide(c: Ctx) -> None:
        g = c.game
        you = c.controller
        top = list(c.state.players[you].library[:n])
        if not top:
            return
        g.emit(ev.Revealed(player=you, objs=tuple(top), to=(you,)))  # you look at them
        pick = g.choose(you, "hideaway", top, f"exile one of the top {len(top)} cards "
                        "face down")
        hidden = g.exile(pick, face_down=True, exiled_with=c.source, reason="hideaway")
        if hidden is not None:
            g.emit(ev.ObjectFlagged(obj=hidden, key="known_to", value=[you]))
            g.emit(ev.ObjectFlagged(obj=hidden, key=KNOWN_TO_CONTROLLERS_OF, value=c.source))
        rest = [o for o in top if o != pick]
        g.rng("hideaway").shuffle(rest)  # the random order is the order of these moves
        for oid in rest:
            g.move(oid, "library", reason="hideaway", position=-1)
    return dataclasses.replace(etb(hide), text=f"hideaway {n}")


def hidden_card(game: Game, land: int) -> int | None:
    """The card exiled with hideaway land ``land`` (the object id the ability knows),
    if it is still in exile."""
    s = game.state
    for oid in s.exile:
        o = s.objects[oid]
        if o.flags and o.flags.get("exiled_with") == land:
            return oid
    return None


def play_hidden(condition: Condition) -> Callable[[Ctx], None]:
    """"You may play the exiled card without paying its mana cost if [condition]." """
    def eff(c: Ctx) -> None:
        card = hidden_card(c.game, c.source)
        possible = card is not None and condition(c)
        if not possible:
            c.game.choose(c.controller, "may", [False], "play the exiled card? (it can't be "
                          "played now)")
            return
        assert card is not None
        c.game.play_during_resolution(c.controller, card, optional=True,
                                      prompt="play the exiled card without paying its mana "
                                             "cost?")
    return eff


# ---------------------------------------------------------------- "this turn"

# (the questions about this turn are mtgk.cards.history's; these names are kept for the cards
# that import them from here)
damage_dealt_this_turn = damage_dealt_to_player_this_turn


def creatures_attacked_this_turn(game: Game, player: int) -> int:
    """How many creatures ``player`` attacked with this turn (only the active player
    attacks; in Two-Headed Giant the active team attacks together, and ``player``'s are the
    attackers they control, or own once gone from the battlefield)."""
    if not is_active(game.state, player):
        return 0
    seen: list[int] = []
    team = bool(game.state.teams)
    for e in events_this_turn(game):
        if isinstance(e, ev.AttackersDeclared):
            seen.extend(a for a, _t in e.attacks if a not in seen and (
                not team or _attacker_of(game, a) == player))
    return len(seen)


def _attacker_of(game: Game, attacker: int) -> int:
    """Whose attacker ``attacker`` counts as: its controller while it is on the battlefield,
    else its owner (-1: an object the state no longer knows)."""
    o = game.state.objects.get(attacker)
    if o is None:
        return -1
    return game.chars(attacker).controller if attacker in game.state.battlefield else o.owner
