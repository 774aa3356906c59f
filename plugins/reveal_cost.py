"""Additional costs to cast a spell (CR 601.2b, 601.2f-h): "As an additional cost to cast
this spell, ...".

A card gets one with ``additional_cost=`` in its definition::

    S.card("Goldmeadow Stalwart", additional_cost=reveal_or_pay("Kithkin"))
    S.card("Fodder Launch", spell(...), additional_cost=sacrifice_a(kind("Goblin"), "a Goblin"))
    S.card("Familiar's Ruse", spell(...),
           additional_cost=return_a(creature, "a creature you control"))

* :func:`reveal_or_pay` -- "reveal a [type] card from your hand or pay {3}" (the
  Lorwyn cycle).  A card of that creature type counts, a changeling card too (it is
  every creature type in every zone); the spell itself can't be revealed (it is on the
  stack by then).  The choice is a ``choose`` decision whose options are the cards that
  can be revealed plus ``"pay"`` (offered if {3} more can be paid); with no card to
  reveal, paying {3} is the only option and the {3} is part of the spell's total cost
  (so the spell can be cast only if the player can pay it; cost reductions apply to
  it).  A revealed card is shown to everyone (``Revealed``); the choice is recorded on
  the spell (and the permanent it becomes) as the flag ``cast_reveal_cost``: the card
  revealed, or ``"pay"``.
* :func:`sacrifice_a` / :func:`return_a` -- "sacrifice a [permanent]" / "return a
  [permanent] you control to its owner's hand": a mandatory cost; the spell can't be
  cast without such a permanent.  The permanent is chosen (``choose`` decision) and
  sacrificed / returned as the spell is cast; flag ``cast_cost_paid``: that permanent.
* A spell cast "without paying its mana cost" still has its additional cost paid (the
  Lorwyn primer, "Hideaway"): the {3} of "or pay {3}" too.

The kernel asks the cost object (``Game.additional_mana``, ``Game.cast_forbidden``)
what the total cost includes and whether the spell can be cast; this plugin's cast hook
(registered with :func:`register`) pays the rest as the spell is cast, after its mana.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import Registry
from mtgk.cards.filters import Filter, kind
from mtgk.cards.loading import hookimpl
from mtgk.log import events as ev
from mtgk.rules.mana import ManaCost

if TYPE_CHECKING:
    from mtgk.rules.engine import Game

REVEAL_FLAG = "cast_reveal_cost"
PAID_FLAG = "cast_cost_paid"
PAY = "pay"


class AdditionalCost:
    """An additional cost to cast a spell (see the module documentation)."""

    def mana(self, game: Game, player: int, card: int) -> int:
        """Generic mana the cost adds to the total cost, whatever is chosen."""
        return 0

    def unpayable(self, game: Game, player: int, card: int) -> str:
        """Why ``player`` can't pay it now (``""`` if they can)."""
        return ""

    def pay(self, game: Game, player: int, spell: int) -> None:
        """Pay it as ``spell`` is cast (after its mana is paid)."""


class RevealOrPay(AdditionalCost):
    """"Reveal a [creature type] card from your hand or pay {N}"."""

    def __init__(self, creature_type: str, n: int = 3) -> None:
        self.creature_type = creature_type
        self.f = kind(creature_type).card
        self.n = n

    def __repr__(self) -> str:
        return f"reveal a {self.creature_type} card from your hand or pay {{{self.n}}}"

    def revealable(self, game: Game, player: int, card: int = 0) -> list[int]:
        v = game.view()
        return [o for o in game.state.players[player].hand
                if o != card and self.f(v, o, player, card)]

    def _can_pay_n(self, game: Game, player: int) -> bool:
        return game.plan_mana(player, ManaCost.parse(f"{{{self.n}}}")) is not None

    def mana(self, game: Game, player: int, card: int) -> int:
        return 0 if self.revealable(game, player, card) else self.n

    def unpayable(self, game: Game, player: int, card: int) -> str:
        if self.revealable(game, player, card) or self._can_pay_n(game, player):
            return ""
        return f"no {self.creature_type} card to reveal and {{{self.n}}} can't be paid"

    def pay(self, game: Game, player: int, spell: int) -> None:
        cands = self.revealable(game, player, spell)
        prompt = f"{game.name(spell)}: {self!r}"
        if not cands:  # the {N} was part of the total cost just paid
            game.choose(player, "choose", [PAY], prompt)
            choice: Any = PAY
        else:
            options: list[Any] = list(cands)
            plan = game.plan_mana(player, ManaCost.parse(f"{{{self.n}}}"), ("spell", spell))
            if plan is not None:
                options.append(PAY)
            choice = game.choose(player, "choose", options, prompt)
            if choice == PAY:
                assert plan is not None
                game.pay(player, plan)
            else:
                game.emit(ev.Revealed(player=player, objs=(int(choice),)))
        game.emit(ev.ObjectFlagged(obj=spell, key=REVEAL_FLAG, value=choice))


class PermanentCost(AdditionalCost):
    """"Sacrifice a [f]" / "Return a [f] you control to its owner's hand"."""

    def __init__(self, f: Filter, text: str, action: str) -> None:
        self.f = f
        self.text = text
        self.action = action  # "sacrifice" | "return"

    def __repr__(self) -> str:
        return f"{self.action} {self.text}"

    def options(self, game: Game, player: int, card: int) -> list[int]:
        v = game.view()
        return [o for o in game.state.battlefield
                if game.chars(o).controller == player and self.f(v, o, player, card)]

    def unpayable(self, game: Game, player: int, card: int) -> str:
        return "" if self.options(game, player, card) else f"nothing to {self!r}"

    def pay(self, game: Game, player: int, spell: int) -> None:
        opts = self.options(game, player, spell)
        if not opts:
            return
        pick = int(game.choose(player, "choose", opts, f"{game.name(spell)}: {self!r}"))
        game.emit(ev.ObjectFlagged(obj=spell, key=PAID_FLAG, value=pick))
        if self.action == "sacrifice":
            game.move(pick, "graveyard", reason="sacrifice")
        else:
            game.move(pick, "hand", reason="bounce")


def reveal_or_pay(creature_type: str, n: int = 3) -> RevealOrPay:
    """"As an additional cost to cast this spell, reveal a [type] card from your hand or
    pay {3}." """
    return RevealOrPay(creature_type, n)


def sacrifice_a(f: Filter, text: str) -> PermanentCost:
    """"As an additional cost to cast this spell, sacrifice [text]" (``f``: a permanent
    filter, e.g. ``kind("Goblin")``)."""
    return PermanentCost(f, text, "sacrifice")


def return_a(f: Filter, text: str) -> PermanentCost:
    """"As an additional cost to cast this spell, return [text] to its owner's hand"."""
    return PermanentCost(f, text, "return")


def cost_paid_with(view: Any, oid: int) -> Any:
    """What was revealed (or ``"pay"``) for a spell's "reveal ... or pay" cost, or the
    permanent sacrificed/returned for its cost (``None`` if none)."""
    o = view.state.objects.get(oid)
    if o is None:
        return None
    return o.flags.get(REVEAL_FLAG, o.flags.get(PAID_FLAG))


def _pay_additional(game: Game, player: int, spell: int) -> None:
    o = game.state.objects.get(spell)
    if o is None:
        return
    ac = game.reg[o.flags.get("face") or o.card].extras.get("additional_cost")
    if ac is not None:  # any object with the three methods (a subclass or not)
        ac.pay(game, player, spell)


def register(registry: Registry) -> None:
    if _pay_additional not in registry.cast_hooks:
        registry.cast_hooks.append(_pay_additional)


@hookimpl
def mtgk_register(registry: Registry) -> None:
    register(registry)
