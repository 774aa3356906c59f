"""What happened: questions about this turn, answered from the game's log alone.

Card text asks about the past: "if you dealt combat damage to a player this turn with a
Faerie or Rogue" (prowl), "the second spell you cast this turn", "damage dealt to you
this turn".  Everything here is computed from ``game.log`` (and the state it folds to):
no clock, no memory kept beside the log, so a re-run or a replay gives the same answers.

Last-known information.  An object's characteristics at the time something happened
are those of the game *as it was then*: :func:`view_before` folds the log up to an event
and computes the layers, so a filter (``kind("Rogue")``, any ``mtgk.cards.filters`` filter)
asked of that view matches the source as it was -- a Rogue that has died since, or a
changeling that has lost its types since, is judged by what it was when it dealt the
damage (:func:`matched_then`).

* :func:`events_this_turn` / :func:`envelopes_this_turn` -- the log since the turn began;
* :func:`spells_cast_this_turn` / :func:`spell_names_cast_this_turn` -- spells cast this turn (by a player, matching a filter
  as they were cast);
* :func:`combat_damage_this_turn` -- combat damage events this turn, with the source as it
  was: :func:`dealt_combat_damage_to_a_player` answers prowl's question;
* :func:`damage_dealt_to_player_this_turn`;
* :func:`cast_from` -- the zone a spell was cast from (retrace: "by discarding a land
  card" only when cast from the graveyard).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mtgk.log import events as ev

if TYPE_CHECKING:
    from mtgk.cards.filters import Filter
    from mtgk.rules.chars import Chars
    from mtgk.rules.engine import Game
    from mtgk.rules.layers import View

__all__ = ["events_this_turn", "envelopes_this_turn", "view_before", "view_after",
           "matched_then", "spells_cast_this_turn", "spell_names_cast_this_turn", "CombatDamage", "combat_damage_this_turn",
           "dealt_combat_damage_to_a_player", "damage_dealt_to_player_this_turn",
           "cast_from"]


def envelopes_this_turn(game: Game) -> list[ev.Envelope]:
    """The log's envelopes of the current turn (from its ``TurnBegan``), oldest first."""
    log = game.log
    i = len(log) - 1
    while i >= 0 and not isinstance(log[i].event, ev.TurnBegan):
        i -= 1
    return list(log[i + 1:]) if i >= 0 else list(log)


def events_this_turn(game: Game) -> list[ev.Event]:
    """The events of the current turn, oldest first (after its ``TurnBegan``)."""
    return [env.event for env in envelopes_this_turn(game)]


_KEPT_VIEWS = 32
"""How many past views :func:`view_before` keeps per game (the questions are about this
turn: the latest few are the ones asked again)."""


def view_before(game: Game, seq: int) -> View:
    """The game as it was just before event ``seq`` of its log (its characteristics after
    the layers): last-known information for what happened at ``seq``.  Folded from the
    log, kept per game (the log only grows)."""
    views: dict[int, View] = game.memo.setdefault("history:views", {})
    v = views.get(seq)
    if v is None:
        from mtgk.rules.layers import View, compute
        from mtgk.rules.state import fold
        past = fold(list(game.log[:seq]))
        v = views[seq] = View(past, game.reg, compute(past, game.reg))
        if len(views) > _KEPT_VIEWS:  # each holds a whole state: keep the latest only
            for old in sorted(views)[: len(views) - _KEPT_VIEWS]:
                del views[old]
    return v


def view_after(game: Game, seq: int) -> View:
    """The game as it was just after event ``seq`` (a spell as it was cast)."""
    return view_before(game, seq + 1)


def matched_then(game: Game, f: Filter, obj: int, seq: int, you: int,
                 after: bool = False) -> bool:
    """Whether ``f`` (seen by player ``you``) matched ``obj`` as it was just before (or
    ``after``) event ``seq``."""
    v = view_after(game, seq) if after else view_before(game, seq)
    return obj in v.state.objects and bool(f(v, obj, you, obj))


def spells_cast_this_turn(game: Game, player: int | None = None,
                          f: Filter | None = None) -> list[int]:
    """The spells (their stack ids) cast this turn, oldest first: by ``player`` (any player
    if ``None``), and matching ``f`` as they were cast (``kind("Faerie").spell``)."""
    out: list[int] = []
    for env in envelopes_this_turn(game):
        e = env.event
        if isinstance(e, ev.SpellCast) and (player is None or e.controller == player):
            if f is None or matched_then(game, f, e.new_obj, env.seq, e.controller, after=True):
                out.append(e.new_obj)
    return out


def spell_names_cast_this_turn(game: Game, player: int | None = None) -> list[str]:
    """The names of the spells cast this turn (by ``player``, or anyone), oldest first, as
    they were cast (an adventure's or a split card's half by the name it was cast as)."""
    return [e.face or view_after(game, env.seq).chars(e.new_obj).name
            for env in envelopes_this_turn(game)
            for e in [env.event]
            if isinstance(e, ev.SpellCast) and (player is None or e.controller == player)]


@dataclass(frozen=True)
class CombatDamage:
    """Combat damage dealt this turn: the event's ``seq``, its ``source`` and ``target``
    (a Ref), the ``amount``, and the source's characteristics then (``chars``; its
    ``controller`` then)."""

    seq: int
    source: int
    target: int
    amount: int
    chars: Chars


def combat_damage_this_turn(game: Game, to_players: bool = False) -> list[CombatDamage]:
    """Combat damage dealt this turn, oldest first (``to_players``: to players only), each
    with its source as it was when it dealt the damage."""
    out: list[CombatDamage] = []
    for env in envelopes_this_turn(game):
        e = env.event
        if isinstance(e, ev.DamageDealt) and e.combat and e.amount > 0 and \
                (not to_players or ev.ref_player(e.target) is not None):
            v = view_before(game, env.seq)
            if e.source in v.state.objects:
                out.append(CombatDamage(env.seq, e.source, e.target, e.amount,
                                        v.chars(e.source)))
    return out


def dealt_combat_damage_to_a_player(game: Game, player: int, f: Filter | None = None) -> bool:
    """"If you dealt combat damage to a player this turn with a [f]": a source ``player``
    controlled, matching ``f`` (seen by ``player``) as it was when it dealt the damage."""
    for d in combat_damage_this_turn(game, to_players=True):
        if d.chars.controller == player and (
                f is None or matched_then(game, f, d.source, d.seq, player)):
            return True
    return False


def damage_dealt_to_player_this_turn(game: Game, player: int) -> int:
    """Damage dealt to ``player`` this turn (combat and other)."""
    ref = ev.player_ref(player)
    return sum(e.amount for e in events_this_turn(game)
               if isinstance(e, ev.DamageDealt) and e.target == ref)


def cast_from(game: Game, spell: int) -> str:
    """The zone spell ``spell`` (its id on the stack) was cast from: ``"hand"``,
    ``"graveyard"``, ``"exile"`` ...; ``""`` if it wasn't cast (a copy, or not a spell).
    An additional cost asks it as the spell is cast (retrace's "by discarding a land card
    in addition to paying its other costs" applies only to a cast from the graveyard)."""
    log = game.log
    for i in range(len(log) - 1, -1, -1):
        e = log[i].event
        if isinstance(e, ev.SpellCast) and e.new_obj == spell:
            return e.from_zone
    return ""
