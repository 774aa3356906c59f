"""The card-definition vocabulary pack authors write cards with.

A card's facts (cost, types, power/toughness, keywords) come from the set's
data file; its definition only adds what the Oracle text *does*::

    S = CardSet("core", "0.1.0", __file__)
    S.vanilla("Grizzly Bears", "Gray Ogre")          # keywords come from the data
    S.card("Shock", spell(damage(2), target(creature_or_player)))
    S.card("Goblin Chieftain",
           lord(kind("Goblin").creature.other(), 1, 1, grant=["haste"]))

Effects are functions of a :class:`~mtgk.cards.effects.Ctx`; the helpers below
build the common ones, and any plain function works too.

>>> from mtgk.cards.filters import creature_or_player
>>> spell(damage(2), target(creature_or_player)).targets[0].filter
creature | player
>>> parse_cost("{2}{R}, {T}")
Cost(mana='{2}{R}', tap=True, loyalty=None, loyalty_x=False, sacrifice_self=False, life=0)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mtgk.cards.altcosts import (
    ALT_CONDITIONS,
    OPTIONAL_COSTS,
    AltCost,
    OptionalCost,
    pay_optional_costs,
)
from mtgk.cards.definitions import (
    Activated,
    CardDef,
    CardFacts,
    CardSetInfo,
    Cost,
    Effect,
    Mode,
    SpellAbility,
    Static,
    Target,
    Triggered,
    load_facts,
)
from mtgk.cards.effects import Ctx
from mtgk.cards.filters import Filter, matching
from mtgk.log import events as ev
from mtgk.rules.layers import View
from mtgk.rules.names import Layer
from mtgk.rules.seats import is_active, same_team

if TYPE_CHECKING:
    from mtgk.rules.engine import Game

__all__ = [
    "CardSet", "spell", "modal", "mode", "target", "activated", "mana_ability", "loyalty",
    "triggered", "triggered_on", "ENTERS", "etb", "dies", "leaves", "at_upkeep", "attacks",
    "attacks_and_isnt_blocked", "becomes_blocked", "casts", "static", "lord",
    "damage", "draw", "gain_life", "destroy", "counter", "return_to_hand", "create", "pump",
    "sequence",
    "parse_cost", "token_facts",
    # the source ("~"), its controller, trigger conditions
    "controller", "mana_cost_of", "me", "self_entered", "self_put_into_graveyard", "your_step", "each_step",
    "is_step",
    # statics and effects shared by many cards
    "gets_and_has", "host_of", "enchanted", "may", "self_pump", "discard_a_card",
    "each_opponent_loses_life", "exiled_with", "return_exiled",
]


class CardSet:
    """A card pack: its name, version, card facts file and card definitions."""

    def __init__(self, name: str, version: str, module_file: str,
                 facts: str = "cards.json", extra_facts: Sequence[str] = ()) -> None:
        self.name = name
        self.version = version
        here = Path(module_file).parent
        self.facts: dict[str, CardFacts] = {}
        self.printings: list[dict[str, Any]] = []
        for fname in [facts, *extra_facts]:
            path = here / fname
            if path.exists():
                for f in load_facts(path):
                    self.facts.setdefault(f.name, f)
                    self.printings.append({"name": f.name, "set": name})
        self.defs: dict[str, CardDef] = {}
        self.decks: dict[str, str] = {}

    def __repr__(self) -> str:
        return f"CardSet({self.name!r}, {self.version!r}, cards={len(self.defs)})"

    def fact(self, name: str) -> CardFacts:
        try:
            return self.facts[name]
        except KeyError:
            raise KeyError(f"{name!r} is not in the {self.name} card data") from None

    def card(self, name: str, *abilities: Any, alt_costs: dict[str, str] | None = None,
             facts: CardFacts | None = None, **extras: Any) -> CardDef:
        """Define a card: its abilities in printed order (keywords come from the facts).

        An :class:`~mtgk.cards.altcosts.AltCost` among them (:func:`mtgk.cards.altcosts.alt_cost`)
        is no ability: it gives the card that alternative cost (with its condition).  An
        ability with an ``alt_cost`` attribute -- an ``AltCost`` or ``(name, cost)``
        (e.g. evoke's trigger) -- also gives the card that alternative cost.
        ``alt_costs``: more of them, as ``{name: cost}``.  An
        :class:`~mtgk.cards.altcosts.OptionalCost` (:func:`mtgk.cards.altcosts.optional_cost`:
        kicker, conspire) is no ability either: it becomes one of the card's optional
        additional costs, offered as it is cast.
        """
        alts = dict(alt_costs or {})
        declared: dict[str, AltCost] = {}
        optional: list[OptionalCost] = []
        kept: list[Any] = []
        for a in abilities:
            if isinstance(a, OptionalCost):
                optional.append(a)
                continue
            found = a if isinstance(a, AltCost) else getattr(a, "alt_cost", None)
            if isinstance(found, AltCost):
                declared.setdefault(found.name, found)
                alts.setdefault(found.name, found.cost)
            elif found:
                alts.setdefault(*found)
            if not isinstance(a, AltCost):
                kept.append(a)
        extras = dict(extras)
        if declared:
            extras[ALT_CONDITIONS] = declared
        if optional:
            extras[OPTIONAL_COSTS] = tuple(optional)
            extras["cast_hooks"] = (pay_optional_costs,)
        d = CardDef(facts or self.fact(name), kept, alt_costs=alts,
                    extras=extras, set_code=self.name)
        self.defs[name] = d
        return d

    def vanilla(self, *names: str) -> None:
        """Cards whose whole text is keywords the kernel knows (or no text)."""
        for n in names:
            self.card(n)

    def token(self, name: str, color: str, subtypes: Sequence[str], power: int,
              toughness: int, keywords: Sequence[str] = (), key: str = "") -> None:
        """Define a creature token the set's cards create (its facts are not in the card
        data); ``color`` is one colour letter ("" for a colourless token).  ``key``: the
        name the token is known by in the registry when another token has its printed
        ``name`` (``S.token("Elemental", "W", ("Elemental",), 4, 4, ("Flying",),
        key="Elemental (Hoofprints)")``; cards create it by its key, objects are named
        ``name``).  A token already defined (by another module of the set) is left as it
        is."""
        if (key or name) in self.defs:
            return
        self.card(key or name, facts=token_facts(
            name, ("Creature",), subtypes, colors=(color,) if color else (), power=str(power),
            toughness=str(toughness), keywords=keywords, key=key))

    def deck(self, name: str, text: str) -> None:
        self.decks[name] = text

    def info(self) -> CardSetInfo:
        return CardSetInfo(self.name, self.version, list(self.defs.values()), self.printings,
                           dict(self.decks))


def token_facts(name: str, types: Sequence[str], subtypes: Sequence[str], text: str = "",
                colors: Sequence[str] = (), power: str | None = None,
                toughness: str | None = None, keywords: Sequence[str] = (),
                key: str = "") -> CardFacts:
    """The facts of a token a card creates (type line "Token [types] — [subtypes]"), for
    ``S.card(key or name, ..., facts=token_facts(...))``; creature tokens:
    :meth:`CardSet.token`.  ``key``: the registry key of a token whose printed ``name``
    another token has too (:attr:`~mtgk.cards.definitions.CardFacts.printed_name`)."""
    return CardFacts(name=key or name, colors=tuple(colors), types=tuple(types),
                     subtypes=tuple(subtypes),
                     type_line=f"Token {' '.join(types)} — {' '.join(subtypes)}",
                     oracle_text=text, power=power, toughness=toughness,
                     keywords=tuple(keywords), printed_name=name if key and key != name else "")


# ---------------------------------------------------------------- targets and costs

def target(f: Filter, count: int = 1, up_to: bool = False, another: bool = False) -> Target:
    """A target slot: "target creature" ``target(creature)``; "two target creatures"
    ``target(creature, 2)`` (two different ones); "up to three targets" ``up_to=True``;
    "another target creature" (after a first slot) ``target(creature, another=True)``:
    none of the objects the slots before it took.  Each slot has its own filter; the
    effect reads the chosen ones in slot order, ``c.target(0)``, ``c.target(1)`` ..."""
    return Target(f, count, up_to, another=another)


_LOYALTY = re.compile(r"^([+\-−]?)(\d+|X)$")


_THIS_CARD = ("~", "this card", "this")


def parse_cost(text: str) -> Cost:
    """Parse an activation cost as printed: ``"{2}{R}, {T}"``, ``"{T}, Sacrifice ~"``,
    ``"{T}, Sacrifice a Goblin"`` (a permanent of that type you control), ``"{1}, Discard
    ~"`` / ``"Discard this card"`` (from its owner's hand: give the ability
    ``zones=("hand",)``), ``"Reveal ~"`` / ``"Reveal this card"``."""
    mana = ""
    tap = untap = sac = discard = reveal = False
    life = 0
    victim: Filter | None = None
    unread: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        low = part.lower()
        if low.startswith(("discard ", "reveal ")) and \
                low.split(" ", 1)[1].removesuffix(" from your hand") in _THIS_CARD:
            discard = discard or low.startswith("discard")
            reveal = reveal or low.startswith("reveal")
        elif part.upper() == "{T}":
            tap = True
        elif part.upper() == "{Q}":
            untap = True
        elif part.lower().startswith("sacrifice"):
            victim = _sacrifice_filter(part[len("sacrifice"):].strip())
            sac = victim is None
        elif re.fullmatch(r"pay (\d+) life", low):
            life = int(re.findall(r"\d+", part)[0])
        elif re.fullmatch(r"(\{[^{}]+\})+", part):
            for sym in re.findall(r"\{[^{}]+\}", part):
                if sym.upper() == "{T}":
                    tap = True
                elif sym.upper() == "{Q}":
                    untap = True
                else:
                    mana += sym
        elif part:
            unread.append(part)
    return Cost(mana=mana, tap=tap, untap=untap, sacrifice_self=sac, life=life,
                sacrifice=victim, discard_self=discard, reveal_self=reveal,
                unread=tuple(unread))


def _sacrifice_filter(what: str) -> Filter | None:
    """"a Goblin", "a creature", "another Elf": the permanents a sacrifice cost accepts
    (``None``: "~", the source itself)."""
    from mtgk.cards import filters
    from mtgk.rules.layers import is_creature_type

    words = what.split(maxsplit=1)
    if len(words) < 2 or words[0].lower() not in ("a", "an", "another"):
        return None
    noun = words[1]
    f = getattr(filters, noun.lower(), None) if noun.lower() in (
        "creature", "land", "artifact", "enchantment", "permanent") else None
    if f is None and is_creature_type(noun):
        f = filters.kind(noun)
    if f is None:
        raise ValueError(f"unknown sacrifice cost {what!r}")
    return f.other() if words[0].lower() == "another" else f


# ---------------------------------------------------------------- abilities

ENTERS = (ev.ZoneChanged.TAG, ev.LandPlayed.TAG, ev.TokenCreated.TAG)
"""Events that put an object onto the battlefield (see :func:`mtgk.log.events.entered`)."""


def controller(v: View | Game, src: int) -> int:
    """The controller of ``src`` (the "you" of a condition on a source)."""
    return v.chars(src).controller


def mana_cost_of(v: View | Game, oid: int) -> str:
    """The mana cost of object ``oid`` as it is now (``"{1}{R/G}"``; ``""`` for none): its
    card's, or what it is a copy of (CR 707.2: the mana cost is a copiable value) -- what
    chroma counts the symbols of ("for each red mana symbol in the mana costs of
    permanents you control")."""
    reg = v.reg
    d = reg.cards.get(v.chars(oid).card)
    return (d.facts.mana_cost or "") if d is not None else ""


def self_entered(v: View, src: int, e: Any) -> bool:
    """Trigger condition: "When ~ enters (the battlefield)" (on :data:`ENTERS` events)."""
    return ev.entered(e) == src


def self_put_into_graveyard(v: View, src: int, e: Any) -> bool:
    """Trigger condition: "When ~ is put into a graveyard" (on ``ZoneChanged``; from the
    battlefield it needs ``look_back``)."""
    return bool(e.obj == src and e.to_zone == "graveyard")


def is_step(began: str, step: str) -> bool:
    """Whether a step that began as ``began`` (``StepBegan.step``) is a ``step``: itself,
    and ``"combat_damage"`` is either combat damage step (with first strike in a combat
    there are two, ``first_strike_damage`` then ``combat_damage``: CR 510.4), so "at the
    beginning of the combat damage step" triggers at the beginning of each."""
    return began == step or (step == "combat_damage" and began == "first_strike_damage")


def your_step(step: str) -> Callable[[View, int, Any], bool]:
    """Trigger condition: "At the beginning of [step] on your turn" (on ``StepBegan``):
    ``triggered(ev.StepBegan, your_step("end"), effect)`` is "At the beginning of your end
    step, ..." (step names: ``mtgk.rules.engine.STEPS``; see :func:`is_step`)."""
    def when(v: View, src: int, e: Any) -> bool:
        return bool(is_step(e.step, step) and is_active(v.state, v.chars(src).controller))
    return when


def each_step(step: str) -> Callable[[View, int, Any], bool]:
    """Trigger condition: "At the beginning of the [step]" of every turn, whoever's it is
    (on ``StepBegan``): ``triggered(ev.StepBegan, each_step("end"), effect)`` (see
    :func:`is_step`)."""
    def when(v: View, src: int, e: Any) -> bool:
        return bool(is_step(e.step, step))
    return when


def spell(effect: Effect, *targets: Target) -> SpellAbility:
    """What an instant or sorcery does: ``spell(damage(3), target(creature))``."""
    return SpellAbility(effect, tuple(targets))


def mode(text: str, effect: Effect, *targets: Target) -> Mode:
    return Mode(text, effect, tuple(targets))


def modal(choose: int, *modes: Mode) -> SpellAbility:
    """A modal spell: "Choose two -- ..." is ``modal(2, mode(...), mode(...), ...)``."""
    return SpellAbility(lambda c: None, (), tuple(modes), choose)


def activated(cost: str, effect: Effect, *targets: Target, sorcery: bool = False,
              text: str = "", zones: tuple[str, ...] = ("battlefield",)) -> Activated:
    """An activated ability; ``zones``: where its source may be to activate it (Summon the
    School's works from the graveyard: ``zones=("graveyard",)``; a cycling-style ability
    from the hand: ``activated("{1}, Discard ~", draw(1), zones=("hand",))``).  The engine
    offers it to the player whose card it is in each of those zones and refuses it
    elsewhere (CR 113.6).  A cost that discards or reveals the card itself ("Discard
    ~") needs the hand in ``zones``."""
    c = parse_cost(cost)
    if (c.discard_self or c.reveal_self) and "hand" not in zones:
        raise ValueError(f"{cost!r}: a cost that discards or reveals the card itself works "
                         "from the hand (add zones=(\"hand\",))")
    return Activated(c, effect, tuple(targets), sorcery=sorcery, text=text, zones=zones)


def mana_ability(colors: str, cost: str = "{T}", amount: int = 1, spend: str = "") -> Activated:
    """``{T}: Add {G}.`` is ``mana_ability("G")``; any colour: ``mana_ability("WUBRG")``;
    "Add two mana in any combination of colors" ``amount=2``; "Spend this mana only to
    ..." ``spend=`` a restriction registered with
    :func:`mtgk.rules.mana.register_spend_restriction`."""
    return Activated(parse_cost(cost), lambda c: None, (), mana=tuple(colors), amount=amount,
                     spend=spend)


def loyalty(cost: str, effect: Effect, *targets: Target) -> Activated:
    """A planeswalker ability: ``loyalty("+1", gain_life(2))``, ``loyalty("-X", ...)``."""
    m = _LOYALTY.match(cost.strip())
    if not m:
        raise ValueError(f"bad loyalty cost {cost!r}")
    sign, n = m.groups()
    if n == "X":
        c = Cost(loyalty_x=True)
    else:
        c = Cost(loyalty=-int(n) if sign in ("-", "−") else int(n))
    return Activated(c, effect, tuple(targets), sorcery=True, text=cost)


def triggered(on: type[ev.Event] | Sequence[type[ev.Event]], when: Callable[[View, int, Any], bool], effect: Effect,
              *targets: Target, zones: tuple[str, ...] = ("battlefield",),
              look_back: bool = False, intervening_if: Callable[[View, int, Any], bool]
              | None = None, text: str = "",
              each: Callable[[View, int, Any], list[int]] | None = None) -> Triggered:
    """A triggered ability on events of type ``on`` (one or several) for which
    ``when(view, source, event)`` holds.  ``zones``: where its source must be;
    ``look_back``: judged on the game as it was before the event (leaves-the-battlefield
    abilities); ``intervening_if(view, source, data)``: an "if" checked again as it
    resolves.  ``each(view, source, event) -> objects``: one trigger per object (its
    effect reads it as ``Ctx.subject``): "Whenever a Goblin you control attacks" is
    ``triggered(ev.AttackersDeclared, when, effect, each=goblins_attacking)``."""
    tags = (on.TAG,) if isinstance(on, type) else tuple(o.TAG for o in on)
    return Triggered(tags, when, effect, tuple(targets), zones, look_back, intervening_if,
                     text, each=each)


def triggered_on(tags: Sequence[str], when: Callable[[View, int, Any], bool], effect: Effect,
                 *targets: Target, text: str = "") -> Triggered:
    """A triggered ability on several event tags (e.g. :data:`ENTERS`)."""
    return Triggered(tuple(tags), when, effect, tuple(targets), text=text)


def etb(effect: Effect, *targets: Target) -> Triggered:
    """"When ~ enters (the battlefield), ..." """
    return Triggered(ENTERS, self_entered, effect, tuple(targets), text="etb")


def dies(effect: Effect, *targets: Target) -> Triggered:
    """"When ~ dies, ..." (look back in time: it triggers from the battlefield)."""
    return Triggered((ev.ZoneChanged.TAG,), self_put_into_graveyard, effect, tuple(targets),
                     look_back=True, text="dies")


def leaves(effect: Effect, *targets: Target) -> Triggered:
    """"When ~ leaves the battlefield, ..." """
    def when(v: View, src: int, e: Any) -> bool:
        return bool(e.obj == src and e.from_zone == "battlefield")
    return Triggered((ev.ZoneChanged.TAG, ev.RemovedFromGame.TAG), when, effect, tuple(targets),
                     look_back=True, text="leaves")


def at_upkeep(effect: Effect, *targets: Target) -> Triggered:
    """"At the beginning of your upkeep, ..." """
    return Triggered((ev.StepBegan.TAG,), your_step("upkeep"), effect, tuple(targets),
                     text="upkeep")


def attacks(effect: Effect, *targets: Target) -> Triggered:
    """"Whenever ~ attacks, ..." """
    def when(v: View, src: int, e: Any) -> bool:
        return any(a == src for a, _t in e.attacks)
    return Triggered((ev.AttackersDeclared.TAG,), when, effect, tuple(targets), text="attacks")


def attacks_and_isnt_blocked(effect: Effect, *targets: Target,
                             f: Filter | None = None) -> Triggered:
    """"Whenever ~ attacks and isn't blocked, ..." (it triggers as blockers are declared,
    CR 509.1h: ~ is attacking and no creature blocks it).  With ``f``: "Whenever a [f]
    attacks and isn't blocked" -- one trigger for each such attacker, which the effect
    reads as ``Ctx.subject`` (``f`` seen by the source's controller)."""
    def unblocked(v: View, src: int, e: Any) -> list[int]:
        c = v.state.combat
        if c is None:
            return []
        out = [a for a in c.attackers if not c.blocked.get(a) and a not in c.was_blocked]
        if f is None:
            return [a for a in out if a == src]
        you = controller(v, src)
        return [a for a in out if f(v, a, you, src)]
    if f is None:
        return Triggered((ev.BlockersDeclared.TAG,), lambda v, s, e: bool(unblocked(v, s, e)),
                         effect, tuple(targets), text="attacks and isn't blocked")
    return Triggered((ev.BlockersDeclared.TAG,), lambda v, s, e: bool(unblocked(v, s, e)),
                     effect, tuple(targets), text="attacks and isn't blocked", each=unblocked)


def becomes_blocked(effect: Effect, *targets: Target, f: Filter | None = None) -> Triggered:
    """"Whenever ~ becomes blocked, ..." (once per combat, however many creatures block
    it, CR 509.1h).  With ``f``: "Whenever a [f] becomes blocked" -- one trigger for each
    (``Ctx.subject``)."""
    def blocked(v: View, src: int, e: Any) -> list[int]:
        out: list[int] = []
        for _b, a in e.blocks:
            if a not in out and (a == src if f is None else
                                 a in v.state.objects and f(v, a, controller(v, src), src)):
                out.append(a)
        return out
    return Triggered((ev.BlockersDeclared.TAG,), lambda v, s, e: bool(blocked(v, s, e)),
                     effect, tuple(targets), text="becomes blocked",
                     each=None if f is None else blocked)


CASTERS = ("you", "opponent", "any")
"""Who ``casts(..., who=...)`` watches: you, an opponent, any player."""


def casts(f: Filter, effect: Effect, *targets: Target, who: str = "you",
          opponents_turn: bool = False) -> Triggered:
    """"Whenever you cast a [f] spell" (``who="you"``), "Whenever an opponent casts ..."
    (``who="opponent"``) or "Whenever a player casts ..." (``who="any"``);
    ``opponents_turn``: "... during an opponent's turn".  ``f`` sees the spell on the
    stack: ``kind("Faerie").spell``, "a green spell" ``spell.of_color("G")``, "a spell
    that has flying" ``spell.where(lambda v, o, you, src: v.chars(o).has("flying"))``."""
    if who not in CASTERS:
        raise ValueError(f"casts: who={who!r} is none of {', '.join(map(repr, CASTERS))}")

    def when(v: View, src: int, e: Any) -> bool:
        you = controller(v, src)
        if who == "you" and e.controller != you:
            return False
        if who == "opponent" and same_team(v.state, e.controller, you):
            return False
        if opponents_turn and is_active(v.state, you):  # (your team's turn: not an opponent's)
            return False
        return f(v, e.new_obj, you, src)
    return triggered(ev.SpellCast, when, effect, *targets, text="cast")


def static(effects: Callable[[View, int], list[tuple[str, str, list[int], Any]]],
           text: str = "", layers: Sequence[Layer] = (),
           reads: frozenset[str] | None = None, scope: str = "") -> Static:
    """A static ability; ``effects(view, source)`` gives ``(layer, kind, objs, params)``
    tuples.  ``layers`` (optional) names the layers it can have effects in; ``reads``
    (optional) the characteristics it looks at (a filter's ``reads``, see
    ``mtgk.cards.filters.Reads``); ``scope`` (optional) which objects it affects
    (``"each"``, ``"self"``: see ``Static.scope``).  They only spare the layer system
    work: leave them out if unsure."""
    return Static(effects, text, tuple(layers), reads, scope)


RULES_ABILITIES = ("can't block", "can block any number", "all able block it",
                   "can block an additional creature", "can't be blocked", "doesn't untap",
                   "can't attack", "assigns combat damage by toughness", "skip your draw step")
"""Abilities the engine reads by name: "Skip your draw step" (on a permanent its controller
controls), "~ can't block", "~ can't attack", "~ can block any
number of creatures", Doran's "Each creature assigns combat damage equal to its toughness
rather than its power" (on the permanent with that ability), "All creatures able to block ~ do so", "~ can block an additional creature
each combat", "~ can't be blocked", "~ doesn't untap during its controller's untap step".
Parametrized ones: ``min_blockers:N`` ("can't be blocked except by N or more creatures"),
``unblockable_by_power:N`` ("can't be blocked by creatures with power N or greater"),
``must_block:<attacker>`` ("blocks that creature this turn if able")."""


def has(ability: str) -> Static:
    """A static ability the engine knows by name (a keyword or one of
    :data:`RULES_ABILITIES`): ``has("can't block")`` is "~ can't block"."""
    return Static(lambda v, src: [("6", "grant", [src], [ability])], ability, ("6",),
                  frozenset(), "self")


@dataclass(frozen=True)
class CostChange(Static):
    """A static ability that makes spells cost more or less (see ``Game.cost_change``)."""

    cost_change: Callable[[View, int, int], int] | None = None


def cost_change(applies: Callable[[View, int, int], bool], n: int, text: str = "") -> Static:
    """"[Spells] cost {N} more to cast" (``n`` > 0) or "... {N} less" (``n`` < 0):
    ``applies(view, source, card)`` says which cards being cast it changes (the card
    is in the zone it is cast from; ``view.obj(card).controller`` casts it)."""
    return CostChange(lambda v, s: [], text,
                      cost_change=lambda v, s, card: n if applies(v, s, card) else 0)


@dataclass(frozen=True)
class AsThoughHaste(Static):
    """A static ability letting abilities of creatures be activated as though they had
    haste (see ``Game.summoning_sick``)."""

    as_though_haste: Callable[[View, int, int], bool] | None = None


def activate_as_though_haste(applies: Callable[[View, int, int], bool], text: str = "") -> Static:
    """"You may activate abilities of [creatures] as though those creatures had haste":
    ``applies(view, source, creature)``."""
    return AsThoughHaste(lambda v, s: [], text, as_though_haste=applies)


@dataclass(frozen=True)
class CastProhibition(Static):
    """A static ability that stops spells from being cast (see ``Game.cast_forbidden``)."""

    forbids_cast: Callable[[View, int, int, int, str], str] | None = None


def cant_be_cast(applies: Callable[[View, int, int, int], bool], text: str) -> Static:
    """"[Spells] can't be cast": ``applies(view, source, card, player)`` says which cards
    ``player`` can't cast (whatever cost they would pay: an alternative cost too)."""
    return CastProhibition(lambda v, s: [], text,
                           forbids_cast=lambda v, s, card, p, alt: text
                           if applies(v, s, card, p) else "")


def gets_and_has(objs: list[int], power: int, toughness: int, grant: Sequence[str] = ()
                 ) -> list[tuple[str, str, list[int], Any]]:
    """The continuous effects of "[objs] get +P/+T and have [abilities]" (layers 7c and 6),
    for a static ability's ``effects``."""
    out: list[tuple[str, str, list[int], Any]] = []
    if power or toughness:
        out.append(("7c", "pt", objs, [power, toughness]))
    if grant:
        out.append(("6", "grant", objs, list(grant)))
    return out


def pt_and_grant_layers(power: int, toughness: int, grant: Sequence[str] = ()
                        ) -> tuple[Layer, ...]:
    """The layers :func:`gets_and_has` effects are in (a static ability's ``layers``)."""
    six: tuple[Layer, ...] = ("6",) if grant else ()
    return six + (("7c",) if power or toughness else ())


def lord(f: Filter, power: int, toughness: int, grant: Sequence[str] = ()) -> Static:
    """"[Filter] get +P/+T (and have [abilities])": e.g. Goblin Chieftain."""
    from mtgk.rules.layers import APPLIERS  # noqa: F401  (layers own the effect kinds)

    local = f.local and f.reads is not None

    def effects(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
        you = v.chars(src).controller
        some = getattr(v, "some", None) if local else None  # (the layers ask about these)
        objs = matching(v, f, you, src) if some is None else [
            oid for oid in some if f(v, oid, you, src)]
        return gets_and_has(objs, power, toughness, grant)

    base = f if f.sourceless else f.besides  # (the filter but "other", which looks at none)

    def together(v: View, srcs: list[int]) -> list[tuple[str, str, list[int], Any]]:
        assert base is not None
        you = v.chars(srcs[0]).controller
        some = getattr(v, "some", None)
        objs = matching(v, base, you) if some is None else [
            oid for oid in some if base(v, oid, you)]
        k = len(srcs)
        if base is f:  # each object gets it from every source
            return [("7c", "pt", objs, [k * power, k * toughness])]
        mine = set(srcs)  # ("other": a source gets it from the others alone)
        out = [("7c", "pt", [oid for oid in objs if oid not in mine], [k * power, k * toughness])]
        if k > 1:
            out.append(("7c", "pt", [oid for oid in objs if oid in mine],
                        [(k - 1) * power, (k - 1) * toughness]))
        return out
    return Static(effects, f"lord({f!r}, {power}, {toughness})",
                  pt_and_grant_layers(power, toughness, grant),
                  None if f.reads is None else f.reads | {"controller"},
                  "each" if local else "",
                  together if local and base is not None and not grant else None)


def host_of(view: View, src: int) -> list[int]:
    """The permanent an Aura (or Equipment) is attached to, as a list (empty if none)."""
    o = view.state.objects.get(src)
    if o is None or not o.attached_to or o.attached_to not in view.state.objects:
        return []
    return [o.attached_to]


def enchanted(power: int = 0, toughness: int = 0, grant: Sequence[str] = ()) -> Static:
    """An Aura's "Enchanted creature gets +P/+T and has [abilities]"."""
    def effects(v: View, src: int) -> list[tuple[str, str, list[int], Any]]:
        host = host_of(v, src)
        return gets_and_has(host, power, toughness, grant) if host else []
    return static(effects, f"enchanted creature gets +{power}/+{toughness} {list(grant)}",
                  pt_and_grant_layers(power, toughness, grant), frozenset())


# ---------------------------------------------------------------- effects

def me(c: Ctx) -> int | None:
    """The source permanent ("~"), or ``None`` if it is no longer on the battlefield."""
    o = c.state.objects.get(c.source)
    return c.source if o is not None and o.zone == "battlefield" else None


def exiled_with(c: View | Ctx, source: int) -> list[int]:
    """Cards in exile linked to ``source`` (exiled "with" it: champion, hideaway, ...)."""
    s = c.state
    return [oid for oid in s.exile if s.objects[oid].flags.get("exiled_with") == source]


def return_exiled(c: Ctx) -> None:
    """"Return the exiled card(s) to the battlefield under (their) owner's control": the
    cards exiled with this permanent (:func:`exiled_with`)."""
    c.put_all_onto_battlefield(exiled_with(c, c.source))  # under their owners' control


def may(effect: Effect, prompt: str = "") -> Effect:
    """"You may [effect]" (a ``may`` decision, default no; the prompt is the card's name
    unless given)."""
    def eff(c: Ctx) -> None:
        if c.may(prompt or c.item.source_card):
            effect(c)
    return eff


def self_pump(power: int, toughness: int, grant: Sequence[str] = ()) -> Effect:
    """"~ gets +P/+T (and gains [abilities]) until end of turn"."""
    def eff(c: Ctx) -> None:
        src = me(c)
        if src is None:
            return
        if power or toughness:
            c.until_end_of_turn("pt", [src], [power, toughness])
        if grant:
            c.until_end_of_turn("grant", [src], list(grant))
    return eff


def discard_a_card(c: Ctx, player: int | None) -> None:
    """``player`` discards a card of their choice (nothing happens if ``player`` is
    ``None`` or their hand is empty); ``player`` is an index or a player reference (a
    target: ``c.target(0)``)."""
    if player is None:
        return
    player = c.as_player(player, "discard_a_card")
    hand = list(c.state.players[player].hand)
    if hand:
        c.discard(player, c.choose(hand, kind="discard", player=player, prompt="discard a card"))


def each_opponent_loses_life(n: int) -> Effect:
    """"Each opponent loses N life"."""
    def eff(c: Ctx) -> None:
        for p in c.opponents():
            c.lose_life(p, n)
    return eff


def damage(n: int | Callable[[Ctx], int], to: int = 0) -> Effect:
    """Deal ``n`` damage to target number ``to``."""
    def eff(c: Ctx) -> None:
        c.damage(c.target(to), n(c) if callable(n) else n)
    return eff


def draw(n: int = 1) -> Effect:
    return lambda c: c.draw(c.controller, n)


def gain_life(n: int) -> Effect:
    return lambda c: c.gain_life(c.controller, n)


def destroy(to: int = 0) -> Effect:
    return lambda c: c.destroy(c.target(to))


def counter(to: int = 0) -> Effect:
    """Counter target spell (target number ``to``)."""
    return lambda c: c.counter(c.target(to))


def return_to_hand(to: int = 0) -> Effect:
    """Return target card (in a graveyard) or permanent (target number ``to``) to its
    owner's hand."""
    return lambda c: c.bounce(c.target(to))


def create(token: str, n: int = 1) -> Effect:
    def eff(c: Ctx) -> None:
        c.create_token(token, n)
    return eff


def pump(power: int, toughness: int, grant: Sequence[str] = (), to: int = 0) -> Effect:
    """Target creature gets +P/+T (and gains abilities) until end of turn."""
    def eff(c: Ctx) -> None:
        t = c.target(to)
        if t is None:
            return
        if power or toughness:
            c.until_end_of_turn("pt", [t], [power, toughness])
        if grant:
            c.until_end_of_turn("grant", [t], list(grant))
    return eff


def sequence(*effects: Effect) -> Effect:
    def eff(c: Ctx) -> None:
        for e in effects:
            e(c)
    return eff
