"""Clash (Lorwyn; CR 501.10 of 2007, 701.23 today): a reusable keyword action.

Card code calls :func:`clash` while its spell or ability resolves::

    def lash_out(c: Ctx) -> None:
        target = c.target(0)
        c.damage(target, 3)
        if clash(c):                                    # "Clash with an opponent. If you win, ..."
            c.damage(c.controller_of(target), 3)

What happens, in order (Lorwyn primer, "Keyword Action: Clash"):

1. the controller of the spell or ability chooses an opponent (not a target;
   with two players there is nothing to choose);
2. each clashing player reveals the top card of their library (``Revealed``);
3. in turn order -- the active player first, whoever controls the clash --
   each chooses to keep that card on top or put it on the bottom (decision
   kind ``clash``, options ``["top", "bottom"]``); the second player decides
   knowing the first's choice (it is in the log);
4. the cards move at the same time;
5. a player wins if their card has a higher mana value than *every other card
   revealed* in the clash.  There are no draws and no losses: nobody else
   "loses".  X counts as 0, a card without a mana cost (a land) has mana
   value 0, and each half of a split card counts separately, so both players
   can win (a split card "has a higher mana value" than another card if one
   of its values is higher than one of the other card's values);
6. one :class:`Clashed` event per clashing player, in turn order: "whenever
   you clash" abilities trigger now (for clashes caused by anyone's spell)
   and go on the stack once the clashing spell or ability has finished
   resolving, like any triggered ability.

A player whose library is empty reveals nothing and can't win.  Read
literally, "higher than all other cards revealed" is then true of the other
player's card whatever its mana value (there is no other card), so that
player wins -- even with a land.  If nobody reveals anything, nobody wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from mtgk.cards.definitions import Effect, Target, Triggered
from mtgk.cards.dsl import controller, triggered
from mtgk.cards.keywords import declare_keyword
from mtgk.cards.rendering import register_renderer
from mtgk.log import events as ev
from mtgk.log.events import Event, event, player_ref, ref_player
from mtgk.rules.mana import ManaCost

if TYPE_CHECKING:
    from mtgk.cards.effects import Ctx
    from mtgk.render import Renderer
    from mtgk.rules.engine import Game
    from mtgk.rules.layers import View

declare_keyword("clash", "mtgk.plugins.clash",
                what="a keyword action: reveal the top card of your library, compare mana values",
                ability=False)


@event
class Clashed(Event, frozen=True):
    """``player`` clashed (one event per clashing player, after the cards moved).

    ``obj`` is the card as it was revealed (0: an empty library, nothing revealed),
    ``card`` its name, ``mana_value`` its mana value (-1: nothing revealed; a split
    card's highest half, ``mana_values`` lists every half); ``to`` is where the
    player put it (``"top"`` / ``"bottom"``); ``won`` whether the player won;
    ``source`` the spell or ability that made them clash.
    """

    TAG: ClassVar[str] = "Clashed"
    player: int
    obj: int
    mana_value: int
    won: bool
    card: str = ""
    to: str = ""
    source: int = 0
    mana_values: tuple[int, ...] = ()


def _render_clashed(r: Renderer, e: Clashed) -> str:
    who = r.player(e.player)
    if not e.obj:
        return f"{who} clashes with an empty library" + (" and wins" if e.won else "")
    card = e.card or r.obj(e.obj)
    to = f", puts it on the {e.to}" if e.to else ""
    won = "wins" if e.won else "doesn't win"
    return f"{who} clashes: reveals {card} (mana value {e.mana_value}){to} and {won}"


register_renderer(Clashed.TAG, _render_clashed)


@dataclass(frozen=True)
class ClashResult:
    """How a clash went for the controller of the clash (``won``) and who else clashed."""

    won: bool
    opponent: int
    winners: tuple[int, ...]


def mana_values(game: Game, oid: int) -> tuple[int, ...]:
    """The mana values a revealed card is compared by: one, or one per half of a split
    card (a mana cost ``"{1}{W} // {2}{U}"``); X counts as 0, no mana cost is 0."""
    cost = game.card(oid).facts.mana_cost or ""
    return tuple(ManaCost.parse(half).mana_value for half in cost.split("//"))


def winners(values: dict[int, tuple[int, ...]]) -> list[int]:
    """The players (keys) whose revealed card beats every other revealed card."""
    out = []
    for p, mine in values.items():
        if mine and all(max(mine) > min(theirs) for q, theirs in values.items()
                        if q != p and theirs):
            out.append(p)
    return out


def clash_with(c: Ctx, opponent: int | None = None) -> ClashResult:
    """"Clash with an opponent": the whole clash; returns how it went."""
    game = c.game
    me = c.controller
    if opponent is None:
        ref = c.choose([player_ref(p) for p in c.opponents()], kind="choose",
                       prompt="choose an opponent to clash with")
        opponent = ref_player(ref)
        assert opponent is not None
    n = len(game.state.players)
    clashing = sorted([me, opponent], key=lambda p: (p - game.state.active) % n)
    revealed: dict[int, int] = {}
    for p in clashing:
        lib = game.state.players[p].library
        if lib:
            revealed[p] = lib[0]
            game.emit(ev.Revealed(player=p, objs=(lib[0],)))
    values = {p: mana_values(game, revealed[p]) if p in revealed else () for p in clashing}
    names = {p: game.name(oid) for p, oid in revealed.items()}
    where: dict[int, str] = {}
    for p in clashing:
        if p in revealed:
            where[p] = game.choose(p, "clash", ["top", "bottom"],
                                   f"clash: keep {names[p]} on top of your library, or put "
                                   "it on the bottom?")
    for p in clashing:  # all at once: nothing happens between these moves
        if where.get(p) == "bottom":
            game.move(revealed[p], "library", reason="clash", position=-1)
    won = winners(values)
    for p in clashing:
        oid = revealed.get(p, 0)
        game.emit(Clashed(player=p, obj=oid, mana_value=max(values[p], default=-1),
                          won=p in won, card=names.get(p, ""), to=where.get(p, ""),
                          source=c.item.id, mana_values=values[p]))
    return ClashResult(me in won, opponent, tuple(won))


def clash(c: Ctx, opponent: int | None = None) -> bool:
    """"Clash with an opponent": True if the controller of ``c`` won."""
    return clash_with(c, opponent).won


# ---------------------------------------------------------------- "whenever you clash"

def whenever_you_clash(effect: Effect, *targets: Target, and_win: bool = False,
                       text: str = "") -> Triggered:
    """"Whenever you clash, ..." (``and_win``: "Whenever you clash and win, ...").

    It triggers for every clash you take part in, whoever's spell or ability caused
    it; the effect reads the clash from ``c.event`` (a :class:`Clashed`:
    ``c.event.won``).  It goes on the stack after the clash spell finishes resolving.
    """
    def when(v: View, src: int, e: Any) -> bool:
        return bool(e.player == controller(v, src) and (e.won or not and_win))
    return triggered(Clashed, when, effect, *targets,
                     text=text or ("whenever you clash and win" if and_win
                                   else "whenever you clash"))


def won(c: Ctx) -> bool:
    """In a "whenever you clash" ability: did you win that clash?"""
    return bool(getattr(c.event, "won", False))

