"""Activation costs beyond mana, tapping, life and sacrifice (CR 602.2b, 118), and
activation restrictions (CR 602.5): the parts of a :class:`~mtgk.cards.definitions.Cost`'s
``extra`` tuple.

Each part has ``can_pay(game, player, source)`` (checked, like every cost, before the
ability can be activated) and ``pay(game, player, source)`` (done as the costs are
paid; it may ask the player a decision).  Card code builds activated abilities with
:func:`ability`::

    ability(cost("{T}", discard(kind("Elf").card, "an Elf card")), effect, target(creature))
    ability(cost("{2}{W}", remove_counters("hoofprint", 4), DURING_YOUR_TURN), effect)
    ability(cost("", sacrifice=kind("Goblin")), effect)           # "Sacrifice a Goblin: ..."
    ability(cost("", discard()), effect, any_player=True)         # "Any player may activate"

Decisions: the card to discard is a ``discard`` decision (a scenario answers
``{discard: [NAME]}``); the permanent to sacrifice a ``choose`` decision.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, ClassVar

from mtgk.cards.definitions import Activated, Cost, Effect, Target
from mtgk.cards.dsl import parse_cost
from mtgk.log import events as ev
from mtgk.rules.seats import is_active

if TYPE_CHECKING:
    from mtgk.cards.filters import Filter
    from mtgk.rules.engine import Game


class _CardFromZone:
    """A cost that takes one [filter] card (``f`` None: any card) from a zone of the
    activating player's (``zone``): the player chooses which (a ``decision`` decision)
    and :meth:`take` does the rest."""

    zone: ClassVar[str]
    decision: ClassVar[str]

    def __init__(self, f: Filter | None = None, text: str = "a card") -> None:
        self.f = f
        self.text = text

    def options(self, game: Game, player: int) -> list[int]:
        cards = list(getattr(game.state.players[player], self.zone))
        if self.f is None:
            return cards
        v = game.view()
        return [o for o in cards if self.f(v, o, player, 0)]

    def can_pay(self, game: Game, player: int, source: int) -> bool:
        return bool(self.options(game, player))

    def pay(self, game: Game, player: int, source: int) -> None:
        pick = game.choose(player, self.decision, self.options(game, player), f"{self!r} (cost)")
        if pick is not None:
            self.take(game, pick)

    def take(self, game: Game, card: int) -> None:
        raise NotImplementedError


class Discard(_CardFromZone):
    """"Discard a [filter] card" (``f`` None: any card) from the activating player's hand."""

    zone = "hand"
    decision = "discard"

    def __repr__(self) -> str:
        return f"discard {self.text}"

    def take(self, game: Game, card: int) -> None:
        game.move(card, "graveyard", reason="discard")


class RemoveCounters:
    """"Remove N [kind] counters from ~"."""

    def __init__(self, kind: str, n: int) -> None:
        self.kind = kind
        self.n = n

    def __repr__(self) -> str:
        return f"remove {self.n} {self.kind} counters"

    def can_pay(self, game: Game, player: int, source: int) -> bool:
        return game.state.objects[source].counters.get(self.kind, 0) >= self.n

    def pay(self, game: Game, player: int, source: int) -> None:
        game.emit(ev.CounterRemoved(obj=source, kind=self.kind, n=self.n))


class DuringYourTurn:
    """"Activate only during your turn." (a restriction: nothing to pay).  In Two-Headed
    Giant "your turn" is your team's turn (CR 805.4, 805.4a: each team takes turns; the team
    whose turn it is is the active team), so a teammate of the active player may activate."""

    def __repr__(self) -> str:
        return "activate this only during your turn"

    def can_pay(self, game: Game, player: int, source: int) -> bool:
        return is_active(game.state, player)

    def pay(self, game: Game, player: int, source: int) -> None:
        return None


DURING_YOUR_TURN = DuringYourTurn()


def discard(f: Filter | None = None, text: str = "a card") -> Discard:
    return Discard(f, text)


def remove_counters(kind: str, n: int) -> RemoveCounters:
    return RemoveCounters(kind, n)


def cost(text: str, *extra: Any, sacrifice: Any = None) -> Cost:
    """A cost: the printed mana/{T} part (``"{1}{R}, {T}"``) plus ``extra`` parts and
    "Sacrifice a [filter]" (``sacrifice``)."""
    base = parse_cost(text) if text else Cost()
    return dataclasses.replace(base, extra=tuple(extra),
                               sacrifice=base.sacrifice if sacrifice is None else sacrifice)


def ability(c: Cost, effect: Effect, *targets: Target, sorcery: bool = False,
            any_player: bool = False, text: str = "",
            zones: tuple[str, ...] = ("battlefield",)) -> Activated:
    """An activated ability with a cost built by :func:`cost`; ``zones``: where its source
    may be to activate it (see :func:`mtgk.cards.dsl.activated`)."""
    return Activated(c, effect, tuple(targets), sorcery=sorcery, text=text,
                     any_player=any_player, zones=zones)


class TapUntapped:
    """"Tap [n] untapped [filter] you control" (Springleaf Drum, Summon the School).  Any
    such permanents may be tapped, summoning sick creatures too (only {T} cares, CR
    302.6); with ``{T}`` in the same cost (``besides_source``) the source itself can't be
    one of them.  The player chooses which (a ``choose`` decision)."""

    def __init__(self, f: Filter, n: int = 1, text: str = "", besides_source: bool = False
                 ) -> None:
        self.f = f
        self.n = n
        self.text = text or f"{n} untapped {f!r}"
        self.besides_source = besides_source

    def __repr__(self) -> str:
        return f"tap {self.text} you control"

    def options(self, game: Game, player: int, source: int) -> list[int]:
        v = game.view()
        return [o for o in game.state.battlefield
                if not game.state.objects[o].tapped and game.chars(o).controller == player
                and not (self.besides_source and o == source) and self.f(v, o, player, source)]

    def can_pay(self, game: Game, player: int, source: int) -> bool:
        return len(self.options(game, player, source)) >= self.n

    def pay(self, game: Game, player: int, source: int) -> None:
        chosen = game.choose(player, "choose", self.options(game, player, source),
                             f"tap {self.text} (cost)", count=self.n)
        for o in chosen:
            game.emit(ev.Tapped(obj=o))


class ExileFromGraveyard(_CardFromZone):
    """"Exile a [filter] card from your graveyard" (Scarred Vinebreeder): the player
    chooses which (a ``choose`` decision)."""

    zone = "graveyard"
    decision = "choose"

    def __init__(self, f: Filter, text: str = "a card") -> None:
        super().__init__(f, text)

    def __repr__(self) -> str:
        return f"exile {self.text} from your graveyard"

    def take(self, game: Game, card: int) -> None:
        game.exile(card, reason="cost")


def tap_untapped(f: Filter, n: int = 1, text: str = "", besides_source: bool = False
                 ) -> TapUntapped:
    return TapUntapped(f, n, text, besides_source)


def exile_from_graveyard(f: Filter, text: str = "a card") -> ExileFromGraveyard:
    return ExileFromGraveyard(f, text)
