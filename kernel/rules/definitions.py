"""Card facts, card definitions and the registry they are kept in.

A card is keyed by its Oracle name.  Its *facts* (cost, types, power ...)
come from a set's data file; its *behaviour* is a :class:`CardDef` made of
abilities.  A card set is a list of printings plus the definitions it adds.

>>> reg = Registry()
>>> facts = CardFacts(name="Gray Ogre", mana_cost="{2}{R}", mana_value=3,
...                   types=("Creature",), subtypes=("Ogre",), power="2", toughness="2")
>>> reg.add(CardDef(facts))
>>> reg["Gray Ogre"]
CardDef('Gray Ogre')
>>> reg["Gray Ogre"].facts.types
('Creature',)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from mtgk.rules.names import Layer

if TYPE_CHECKING:
    from mtgk.rules.effects import Ctx
    from mtgk.rules.filters import Filter

KEYWORDS = frozenset({
    "flying", "trample", "haste", "vigilance", "reach", "defender", "first strike",
    "double strike", "deathtouch", "lifelink", "fear", "flash", "changeling",
    "hexproof", "shroud", "indestructible", "menace", "intimidate", "islandwalk",
    "swampwalk", "forestwalk", "mountainwalk", "plainswalk", "ward",
    "protection from enchantments",
})

KEYWORD_ABILITIES: dict[str, None] = {}
"""The keyword abilities packs and plugins declare (``mtgk.cards.keywords.declare_keyword``,
lower case, in the order declared): a card whose facts list one has it as an ability,
like a kernel keyword (``Chars.has``; "loses all abilities" takes it away)."""

KEYWORD_MEANINGS: dict[str, dict[str, Any]] = {}
"""What a declared keyword *means* when its meaning is an ability (persist, undying: a
triggered ability; a replacement effect; a static ability's hooks), by lower-case keyword:
``{ability key: ability}`` (the key is the keyword itself, ``"persist"``, then
``"persist:2"``, ...).  A permanent that has the keyword -- printed, granted by a static
ability, an Aura or an effect -- has these abilities; one that loses it loses them
(``mtgk.cards.keywords.declare_keyword(..., meaning=...)`` fills it)."""

KEYWORD_ABILITY_KEYS: dict[str, tuple[str, Any]] = {}
"""Every ability of :data:`KEYWORD_MEANINGS` by its key: ``(keyword, ability)`` (how the
engine finds a keyword's triggered ability on the stack)."""


class CardFacts(msgspec.Struct, frozen=True, kw_only=True):
    """What a card *is* (from the set's data file), before any effect."""

    name: str
    mana_cost: str | None = None
    mana_value: int = 0
    colors: tuple[str, ...] = ()
    type_line: str = ""
    printed_type_line: str = ""
    supertypes: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    oracle_text: str = ""
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    keywords: tuple[str, ...] = ()
    #: a token's printed name when it is not ``name``: ``name`` is the key a card is known
    #: by in a registry, and two different tokens that share a printed name ("Elemental",
    #: from Eyes of the Wisent and from Hoofprints of the Stag) need two keys
    #: ("Elemental", "Elemental (Hoofprints)"); see :meth:`Registry.token_name`
    printed_name: str = ""


def load_facts(path: str | Path) -> list[CardFacts]:
    """Card facts from a JSON list in the shared data format (unknown keys ignored).  An
    entry with a ``"key"`` (a token that shares its printed ``"name"`` with another
    token) is known by that key, its ``name`` kept as :attr:`CardFacts.printed_name`."""
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(raw, dict):
        raw = raw.get("cards", [])
    return [msgspec.convert(_keyed(c), CardFacts, strict=False) for c in raw]


def _keyed(entry: Any) -> Any:
    """A data entry with a ``"key"``: named by its key, its printed name its token name."""
    if isinstance(entry, dict) and entry.get("key") and entry.get("key") != entry.get("name"):
        return {**entry, "name": entry["key"], "printed_name": entry.get("name", "")}
    return entry


# --------------------------------------------------------------------------
# abilities

Effect = Callable[["Ctx"], object]  # (what it returns is ignored)


X_COUNT = -1
"""A target slot's ``count`` meaning X ("up to X target creatures"): the X chosen."""


@dataclass(frozen=True)
class Target:
    """One target slot: a filter, and how many objects/players it takes (``count`` may be
    :data:`X_COUNT`).  While targets are chosen, a filter reads the X chosen as ``view.x``.
    One object is never chosen twice for one slot ("two target creatures": ``count=2``);
    it may be for two slots ("target creature ... target creature") unless the later one
    says ``another`` ("target creature ... another target creature")."""

    filter: Filter
    count: int = 1
    up_to: bool = False
    label: str = "target"
    #: "another target ...": none of the objects chosen for the slots before it (CR 115.3)
    another: bool = False


@dataclass(frozen=True)
class Cost:
    """Costs beyond mana: tapping, loyalty, sacrificing the source, life."""

    mana: str = ""
    tap: bool = False
    #: ``{Q}``, the untap symbol (CR 107.6): untap this permanent (it must be tapped; a
    #: creature's needs it to have been under its controller's control since the turn
    #: began, CR 302.6)
    untap: bool = False
    loyalty: int | None = None  # +N / -N;  X loyalty is -X
    loyalty_x: bool = False
    sacrifice_self: bool = False
    life: int = 0
    #: "Sacrifice a [filter]": a filter ``(view, obj, you, source)`` of the permanent to
    #: sacrifice (among those you control), chosen as the cost is paid
    sacrifice: Any = None
    #: "Discard ~" ("Discard this card": cycling, reinforce): the source, in its owner's
    #: hand, is discarded as the cost is paid (so the ability works only from the hand)
    discard_self: bool = False
    #: "Reveal ~" ("Reveal this card from your hand"): the source is shown to every player
    reveal_self: bool = False
    #: other costs and activation restrictions ("Discard an Elf card", "Remove four
    #: counters", "Activate only during your turn"): objects with ``can_pay(game, player,
    #: source) -> bool`` and ``pay(game, player, source)`` (see ``mtgk.plugins.costs``)
    extra: tuple[Any, ...] = ()
    #: the parts of the printed cost no cost reader understood (an error as the card's
    #: set loads: :func:`check_definition`)
    unread: tuple[str, ...] = ()


COST_PARTS = ("mana symbols ({2}{R}, {W/U}, {2/W}, {X}, {C}), {T}, {Q}, "
              "\"Sacrifice ~\" / \"Sacrifice a <type>\" / \"Sacrifice another <type>\", "
              "\"Pay N life\", \"Discard ~\", \"Reveal ~\"; other costs are "
              "Cost.extra objects (mtgk.plugins.costs)")
"""What an activated ability's printed cost may be made of (see :func:`mtgk.cards.dsl.parse_cost`)."""


@dataclass(frozen=True)
class SpellAbility:
    """What an instant or sorcery does as it resolves (and what it targets)."""

    effect: Effect
    targets: tuple[Target, ...] = ()
    modes: tuple[Mode, ...] = ()
    choose: int = 0  # number of modes to choose (0 = not modal)


@dataclass(frozen=True)
class Mode:
    text: str
    effect: Effect
    targets: tuple[Target, ...] = ()


@dataclass(frozen=True)
class Activated:
    cost: Cost
    effect: Effect
    targets: tuple[Target, ...] = ()
    sorcery: bool = False
    mana: tuple[str, ...] = ()  # a mana ability: the mana it can add (one of these)
    text: str = ""
    #: the zones its source may be in to activate it (Summon the School: its graveyard;
    #: a cycling-style ability: ``("hand",)``); the engine offers it from each of them
    #: (``"hand"``, ``"graveyard"``, ``"exile"``: the activating player's own cards)
    zones: tuple[str, ...] = ("battlefield",)
    any_player: bool = False  # "Any player may activate this ability."
    #: a mana ability: how many mana it adds (each one of ``mana``: "two mana in any
    #: combination of colors"), and the restriction on spending it (a key of
    #: :data:`mtgk.rules.mana.SPEND_RESTRICTIONS`, "" for none)
    amount: int = 1
    spend: str = ""


@dataclass(frozen=True)
class Triggered:
    """A triggered ability.

    ``on`` is an event tag; ``when(ctx, event)`` says whether this event
    triggers it for that source; ``zones`` where the source must be (or have
    been, for leaves-the-battlefield triggers: ``look_back=True``).
    """

    on: tuple[str, ...]
    when: Callable[[Any, int, Any], bool]
    effect: Effect
    targets: tuple[Target, ...] = ()
    zones: tuple[str, ...] = ("battlefield",)
    look_back: bool = False
    intervening_if: Callable[[Any, int, Any], bool] | None = None
    text: str = ""
    modes: tuple[Mode, ...] = ()  # modal: the modes are chosen as it is put on the stack
    choose: int = 0
    # one trigger per subject the event gives (e.g. each creature you control that
    # attacks); the effect reads it as ``Ctx.subject``
    each: Callable[[Any, int, Any], list[int]] | None = None


@dataclass(frozen=True)
class Static:
    """A static ability: a function giving the continuous effects it generates.

    ``effects(view, source)`` returns a list of ``(layer, kind, objs, params)``.
    """

    effects: Callable[[Any, int], list[tuple[str, str, list[int], Any]]]
    text: str = ""
    layers: tuple[Layer, ...] = ()  # the layers it has effects in, if known (a speed hint)
    #: the characteristics (groups, see ``mtgk.rules.filters.Reads``) that which objects it
    #: affects and what it does to them depend on; ``None``: unknown, any
    reads: frozenset[str] | None = None
    #: which objects its effects touch, and what decides that: ``"each"`` -- what it does
    #: to an object depends only on that object (its characteristics and status, as its
    #: ``reads`` declare) and on its source's controller, never on other objects (a lord:
    #: "other Giants you control get +1/+1"); ``"self"`` -- it affects its source alone
    #: (it may look at other objects: "as long as you control another Treefolk, ~ has
    #: trample"); ``""``: unknown (the engine then computes every permanent's
    #: characteristics again after an event that changes one)
    scope: str = ""
    #: for an ability whose effects are P/T changes in layer 7c alone (``layers`` ``("7c",)``,
    #: reading no P/T): ``together(view, sources)`` gives the effects the ability of
    #: ``sources`` (several permanents with it, controlled by one player) has in all, as
    #: ``effects`` gives them: P/T changes (``pt``) that add up, on each object, to what
    #: their ``effects`` give one by one -- a lord's filter asked once per object, not once
    #: per object and lord (``mtgk.rules.layers`` uses it where the P/T changes of a layer
    #: add up in any order); ``None``: each source is asked alone
    together: Callable[[Any, list[int]], list[tuple[str, str, list[int], Any]]] | None = None


Ability = SpellAbility | Activated | Triggered | Static

#: The hooks a :class:`Static` subclass may carry, each a function the engine calls
#: through ``Game.static_hooks(name)``; a pack whose own code asks for another hook
#: registers it with :func:`register_static_hook`.  Any other public attribute of a
#: subclass is refused as its set loads (a misspelled hook would never be called).
STATIC_HOOKS: dict[str, str] = {
    "cost_change": "spells cost more or less to cast (Game.cost_change)",
    "forbids_cast": "spells can't be cast (Game.cast_forbidden)",
    "as_though_haste": "abilities activated as though creatures had haste",
    "extra_mana": "additional mana as a permanent is tapped for mana",
    "enters_tapped": "permanents enter the battlefield tapped",
    "enters_with_counters": "permanents enter the battlefield with counters",
}


KERNEL_STATIC_HOOKS = frozenset(STATIC_HOOKS)
"""The static hooks the kernel itself calls: a pack can't register one of these names for
its own use (the kernel would call its functions as the kernel's hook)."""


def register_static_hook(name: str, what: str) -> None:
    """Declare a static-ability hook that a pack's own code asks for with
    ``game.static_hooks(name)``; ``what`` says what it does.  A name the kernel's own hooks
    have (:data:`KERNEL_STATIC_HOOKS`) is refused: the kernel would call the pack's
    functions as its own hook."""
    if not name.isidentifier() or name.startswith("_"):
        raise ValueError(f"register_static_hook: {name!r} is not a public attribute name")
    if name in KERNEL_STATIC_HOOKS:
        raise ValueError(f"register_static_hook: {name!r} is a hook the kernel calls itself "
                         f"({STATIC_HOOKS[name]}); a pack's own hook needs another name "
                         "(a static ability carrying this one is the kernel's hook)")
    STATIC_HOOKS.setdefault(name, what)


class CardDefinitionError(ValueError):
    """A card's definition is wrong in a way that can be told as its set loads."""


def _static_extras(cls: type) -> list[str]:
    """The public attributes a subclass of :class:`Static` adds (fields and methods)."""
    base = set(Static.__dataclass_fields__) | set(vars(Static))
    names: list[str] = []
    for klass in cls.__mro__:
        if klass in (Static, object):
            break
        for name in list(getattr(klass, "__dataclass_fields__", {})) + list(vars(klass)):
            if not name.startswith("_") and name not in base and name not in names:
                names.append(name)
    return names


def check_definition(card: CardDef, set_name: str) -> None:
    """Raise :class:`CardDefinitionError` naming the card and its set for what is wrong in
    its definition that loading can tell: a static ability with an attribute that is no
    static hook (see :data:`STATIC_HOOKS`); a cost it can't read -- a mana cost or an
    alternative cost with a symbol that is no mana symbol, an activated ability's cost
    with a part no cost reader understood (``{S}``, ``{Uu}``, a typo)."""
    from mtgk.rules.mana import ManaCost

    where = f"card {card.facts.name!r} (set {set_name})"
    costs = [("its mana cost", card.facts.mana_cost or "")] + [
        (f"its {name} cost", cost) for name, cost in sorted(card.alt_costs.items())]
    for half in costs:
        for part in half[1].split("//"):
            try:
                ManaCost.parse(part.strip())
            except ValueError as exc:
                raise CardDefinitionError(f"{where}: {half[0]} {half[1]!r} can't be read: "
                                          f"{exc}") from None
    for i, ab in enumerate(card.abilities):
        if isinstance(ab, Activated):
            what = f"{where}: the cost of its activated ability #{i}"
            if ab.cost.unread:
                raise CardDefinitionError(
                    f"{what} has {ab.cost.unread[0]!r}, which no cost reader understands; "
                    f"a cost may be {COST_PARTS}")
            try:
                ManaCost.parse(ab.cost.mana)
            except ValueError as exc:
                raise CardDefinitionError(f"{what} can't be read: {exc}") from None
    ac = card.extras.get("additional_cost")
    if ac is not None:  # (a cost the kernel would check but never pay: refused here)
        lacking = [m for m in ("mana", "unpayable", "pay") if not callable(getattr(ac, m, None))]
        if lacking:
            raise CardDefinitionError(
                f"{where}: its additional_cost {type(ac).__name__} has no "
                f"{', '.join(lacking)} method; an additional cost has mana(game, player, card), "
                "unpayable(game, player, card) and pay(game, player, spell) "
                "(mtgk.plugins.reveal_cost.AdditionalCost gives defaults)")
    for i, ab in enumerate(card.abilities):
        if isinstance(ab, Static) and type(ab) is not Static:
            for name in _static_extras(type(ab)):
                if name not in STATIC_HOOKS:
                    known = ", ".join(sorted(STATIC_HOOKS))
                    text = f" {ab.text!r}" if ab.text else ""
                    raise CardDefinitionError(
                        f"card {card.facts.name!r} (set {set_name}): its static ability #{i}"
                        f"{text} ({type(ab).__name__}) has {name!r}, which is no static hook "
                        f"(the hooks: {known}; a pack adds one with register_static_hook)")


@dataclass
class CardDef:
    """A card's facts plus its behaviour."""

    facts: CardFacts
    abilities: list[Any] = field(default_factory=list)
    keywords: tuple[str, ...] = ()
    alt_costs: dict[str, str] = field(default_factory=dict)
    extras: dict[str, Any] = field(default_factory=dict)
    set_code: str = ""

    def __post_init__(self) -> None:
        if not self.keywords:
            self.keywords = tuple(k.lower() for k in self.facts.keywords
                                  if k.lower() in KEYWORDS or k.lower() in KEYWORD_ABILITIES)
            if any(k.lower() == "protection" for k in self.facts.keywords):
                self.keywords += protection_keywords(self.facts.oracle_text)

    def __repr__(self) -> str:
        return f"CardDef({self.facts.name!r})"

    @property
    def name(self) -> str:
        """The key the card is known by in a registry (its Oracle name; a token's key)."""
        return self.facts.name

    @property
    def token_name(self) -> str:
        """The name objects of this card have: its printed name (see
        :attr:`CardFacts.printed_name`)."""
        return self.facts.printed_name or self.facts.name

    @property
    def spell(self) -> SpellAbility | None:
        for a in self.abilities:
            if isinstance(a, SpellAbility):
                return a
        return None

    def ability_key(self, ab: Any) -> str:
        return f"{self.facts.name}#{self.abilities.index(ab)}"

    def keyed(self, kind: type) -> list[tuple[str, Any]]:
        return [(f"{self.facts.name}#{i}", a) for i, a in enumerate(self.abilities)
                if isinstance(a, kind)]

    @cached_property
    def activated(self) -> list[tuple[str, Activated]]:
        return self.keyed(Activated)

    @cached_property
    def triggered(self) -> list[tuple[str, Triggered]]:
        return self.keyed(Triggered)

    @cached_property
    def statics(self) -> list[tuple[str, Static]]:
        return self.keyed(Static)

    def is_permanent_card(self) -> bool:
        return any(t in ("Creature", "Artifact", "Enchantment", "Land", "Planeswalker", "Battle")
                   for t in self.facts.types)


def protection_keywords(oracle_text: str) -> tuple[str, ...]:
    """The "protection from X" keywords on the keyword lines of an Oracle text
    (``"Flying, protection from enchantments"`` -> ``("protection from enchantments",)``)."""
    out: list[str] = []
    for line in oracle_text.splitlines():
        parts = [p.strip().lower() for p in line.split("(")[0].split(",")]
        for p in parts:
            if p.startswith("protection from ") and p not in out:
                out.append(p.rstrip("."))
    return tuple(out)


TriggerPlan = list[tuple[str, dict[str, list[tuple[str, Triggered]]],
                         list[tuple[str, Triggered]]]]
"""What :meth:`Registry.trigger_plan` gives for an event tag: for each zone to scan (in
order), the triggers that work there by card name, and the grantable ones."""


class Registry:
    """All cards known to a game, keyed by Oracle name, plus the kernel's indexes.

    Plugins fill it once, at load time; the engine reads its indexes on the
    hot path (never a pluggy call per event).
    """

    def __init__(self) -> None:
        self.cards: dict[str, CardDef] = {}
        self.sets: dict[str, CardSetInfo] = {}
        self.trigger_index: dict[str, list[tuple[str, str, Triggered]]] = {}
        from mtgk.rules.replacement import kernel_replacements
        self.replacements: list[Any] = kernel_replacements()
        self.effect_kinds: dict[str, Callable[..., Any]] = {}
        self.dynamic_pt: dict[str, Callable[..., tuple[int, int]]] = {}
        self.dynamic_pt_reads: dict[str, frozenset[str] | None] = {}
        self.failures: list[tuple[str, str]] = []
        self.sba_checks: list[Callable[..., list[tuple[str, int, str]]]] = []
        #: what a state-based check looks at beyond the permanents (see
        #: :meth:`add_sba_check`); a check not listed here is run after every event but
        #: those of ``mtgk.rules.engine.NEUTRAL_EVENTS``.
        self.sba_check_reads: dict[Callable[..., list[tuple[str, int, str]]],
                                   frozenset[str]] = {}
        #: the cards a state-based check needs (see :meth:`add_sba_check`): in a game
        #: with none of them so far, it is not run
        self.sba_check_cards: dict[Callable[..., list[tuple[str, int, str]]],
                                   Callable[[CardDef], bool]] = {}
        self.kernel_abilities: dict[str, Any] = {}
        # proposal kind -> card name -> [(ability key, Replacement)] (static replacement abilities)
        self.replacement_cards: dict[str, dict[str, list[tuple[str, Any]]]] = {}
        #: ``fn(game, player, obj) -> alt names`` (``""``: the normal cost) with which
        #: ``player`` may cast ``obj`` from a zone other than their hand (e.g. exile); for
        #: a land card, ``""`` lets them play it.
        self.cast_permissions: list[Callable[..., list[str]]] = []
        #: the zones a cast permission can apply to (see :meth:`allow_casting_from`); a
        #: permission not listed here is asked about every card in exile, in a graveyard
        #: and on top of a library.
        self.cast_permission_zones: dict[Callable[..., list[str]], tuple[str, ...]] = {}
        #: ``fn(game, player, spell)`` as a spell is cast, after its mana is paid
        #: (optional additional costs such as bargain).
        self.cast_hooks: list[Callable[..., object]] = []
        #: ``fn(game, player, card, alt) -> str``: why a rule stops ``player`` from casting
        #: ``card`` now ("You can't cast more than one spell each turn"), ``""`` if not.
        #: The first is the kernel's: an alternative cost's condition
        #: (:func:`mtgk.cards.altcosts.alt_cost`).
        self.cast_restrictions: list[Callable[..., str]] = [alt_cost_restriction]
        #: ``fn(game, step, active)``: turn-based actions as a step begins (lore counters).
        self.step_hooks: list[Callable[..., object]] = []
        #: keys of triggered abilities that objects other than their card can be granted.
        self.grantable: set[str] = set()
        #: other names a card is known by (``"A // B"`` -> ``"A"``).
        self.aliases: dict[str, str] = {}
        #: names of rules plugins that announced themselves (e.g. ``"planeswalkers"``).
        self.extras_loaded: list[str] = []
        #: facts the rules derive from the cards alone, for speed (the printed
        #: characteristics, the trigger plans, which cards could be cast at instant
        #: speed, ...): named by the module that keeps each, made anew by :meth:`add`
        self.derived: dict[str, Any] = {}

    def add_sba_check(self, fn: Callable[..., list[tuple[str, int, str]]],
                      reads: Sequence[str] | None = None,
                      cards: Callable[[CardDef], bool] | None = None) -> None:
        """Add a state-based check ``fn(game) -> [(action, object, reason)]`` (see
        :attr:`sba_checks`).  ``reads``: the parts of the state it looks at beyond the
        permanents on the battlefield (``mtgk.log.events.STATE_PARTS``), so that the engine
        runs it only after events that change one of them or a permanent (by default,
        after every event that may matter to any check).  ``cards``: which card
        definitions the check can find anything about (a Saga's chapters, say); in a game
        where no object of such a card has existed so far it is not run, and its
        ``reads`` don't count.

        >>> reg = Registry()
        >>> def sagas_done(game): return []
        >>> reg.add_sba_check(sagas_done, reads=("stack",),
        ...                   cards=lambda d: "chapters" in d.extras)
        >>> reg.sba_check_reads[sagas_done]
        frozenset({'stack'})
        """
        if fn not in self.sba_checks:
            self.sba_checks.append(fn)
        if reads is not None:
            self.sba_check_reads[fn] = frozenset(reads)
        if cards is not None:
            self.sba_check_cards[fn] = cards

    def allow_casting_from(self, fn: Callable[..., list[str]],
                           zones: Sequence[str] = ("exile", "graveyard", "library")) -> None:
        """Add a cast permission ``fn(game, player, obj) -> alt names`` (see
        :attr:`cast_permissions`) that only ever lets cards in ``zones`` be cast, so that
        legal-action enumeration asks it about those cards only.  What a permission for
        exiled cards answers is kept while the exiled cards, the characteristics of the
        permanents and the turn stay as they are (scenarios check it: validated mode)."""
        if fn not in self.cast_permissions:
            self.cast_permissions.append(fn)
        self.cast_permission_zones[fn] = tuple(zones)

    def __getitem__(self, name: str) -> CardDef:
        try:
            return self.cards[name]
        except KeyError:
            if name in self.aliases:
                return self.cards[self.aliases[name]]
            raise UnknownCardError(name) from None

    def __deepcopy__(self, memo: dict[int, Any]) -> Registry:
        """A registry is shared, never deep-copied: what is loaded is the same for every
        game (its caches included). Gymnasium deep-copies an env's spec with its
        arguments, a registry among them (the compiled kernel's cached objects can't be
        copied). ``copy.copy`` still makes a registry to change (a test's extra
        replacement effect)."""
        return self

    def __contains__(self, name: object) -> bool:
        return name in self.cards or name in self.aliases

    def canonical(self, name: str) -> str:
        """The registry name of a card known by ``name``."""
        return self.aliases.get(name, name)

    def token_name(self, key: str) -> str:
        """The name an object of the card or token keyed ``key`` has -- what logs,
        scenarios and the viewer show: a token's printed name, which two different tokens
        may share (the keys ``"Elemental"`` and ``"Elemental (Hoofprints)"`` both give
        ``"Elemental"``); any other card's name (an unknown key: the key itself)."""
        d = self.cards.get(key) or self.cards.get(self.aliases.get(key, ""))
        return key if d is None else d.token_name

    def keys_named(self, name: str) -> list[str]:
        """The keys of the cards and tokens whose objects are named ``name`` (several for a
        printed name that tokens share, in key order; ``[]`` if none): how a scenario's
        ``{card: Elemental}`` finds the tokens it may mean."""
        by_name = self.derived.get("by_token_name")
        if by_name is None:
            by_name = {}
            for key in sorted(self.cards):
                by_name.setdefault(self.cards[key].token_name, []).append(key)
            self.derived["by_token_name"] = by_name
        found: list[str] = by_name.get(name, [])
        if not found and name in self.aliases:
            return [self.aliases[name]]
        return list(found)

    def add(self, card: CardDef) -> None:
        name = card.facts.name
        self.derived = {}  # (a new dict: a copy of this registry keeps its own)
        self.cards[name] = card
        for i, ab in enumerate(card.abilities):
            kind = getattr(ab, "event", None)
            if kind and hasattr(ab, "apply") and hasattr(ab, "applies"):
                self.replacement_cards.setdefault(kind, {}).setdefault(name, []).append(
                    (f"{name}#{i}", ab))
        if callable(card.extras.get("pt")):
            self.dynamic_pt[name] = card.extras["pt"]
            reads = card.extras.get("pt_reads")  # what the CDA looks at (``Static.reads``)
            self.dynamic_pt_reads[name] = None if reads is None else frozenset(reads)
        for key, t in card.triggered:
            for tag in t.on:
                self.trigger_index.setdefault(tag, []).append((name, key, t))

    def replace(self, card: CardDef) -> None:
        """Replace a definition (e.g. a set giving behaviour to a vanilla printing)."""
        old = self.cards.get(card.facts.name)
        if old is not None:
            for tag, lst in self.trigger_index.items():
                self.trigger_index[tag] = [x for x in lst if x[0] != old.facts.name]
        self.add(card)

    def add_set(self, info: CardSetInfo) -> None:
        """Add a card set's cards.  Raises :class:`NameClash` (adding nothing) if the set's
        name, or a card name with a different definition, is already a loaded set's."""
        clash = set_clash(info, self.sets.values())
        if clash is not None:
            raise clash
        self.sets[info.name] = info
        for c in info.cards:
            if c.facts.name in self.cards and not c.abilities and self.cards[c.facts.name].abilities:
                continue  # never let a bare printing shadow a full definition
            self.replace(c)
            for hook in c.extras.get("cast_hooks", ()):  # what casting it asks (optional costs)
                if hook not in self.cast_hooks:
                    self.cast_hooks.append(hook)

    def trigger_plan(self, tag: str, before: bool) -> TriggerPlan:
        """For event ``tag`` and look-back (``before``) or ordinary triggers: each zone to
        scan, with the triggers that work in it by card name and the grantable ones among
        them (cached; the engine's per-event index)."""
        cache: dict[tuple[str, bool, int], TriggerPlan] = self.derived.setdefault("plans", {})
        plan = cache.get((tag, before, len(self.grantable)))
        if plan is None:
            entries = self.trigger_index.get(tag, [])
            zones: list[str] = []  # in the order the event's triggers name them
            for _name, _key, t in entries:
                for z in t.zones:
                    if z not in zones:
                        zones.append(z)
            plan = []
            for z in zones:
                by_card: dict[str, list[tuple[str, Triggered]]] = {}
                granted: list[tuple[str, Triggered]] = []
                for name, key, t in entries:
                    if t.look_back == before and z in t.zones:
                        by_card.setdefault(name, []).append((key, t))
                        if key in self.grantable:
                            granted.append((key, t))
                if by_card:
                    plan.append((z, by_card, granted))
            cache[(tag, before, len(self.grantable))] = plan
        return plan

    def triggers_for(self, tag: str) -> list[tuple[str, str, Triggered]]:
        return self.trigger_index.get(tag, [])


@dataclass
class CardSetInfo:
    name: str
    version: str
    cards: list[CardDef]
    printings: list[dict[str, Any]] = field(default_factory=list)
    decks: dict[str, str] = field(default_factory=dict)


def same_card(a: CardDef, b: CardDef) -> bool:
    """Whether two card sets' definitions of one name are one card: the same facts, and
    behaviour (abilities) in at most one of them (the other is a bare printing, which
    never shadows the full definition)."""
    return a is b or (a.facts == b.facts and not (a.abilities and b.abilities))


class NameClash(Exception):
    """A card set can't be loaded: its name, or the name of one of its cards (with a
    different definition, see :func:`same_card`), belongs to a set loaded before it."""

    def __init__(self, new_set: str, old_set: str, card: str | None = None) -> None:
        self.new_set = new_set
        self.old_set = old_set
        self.card = card
        super().__init__(self.reason())

    def reason(self, new_set: str = "", old_set: str = "") -> str:
        """Why, naming the sets as ``new_set`` / ``old_set`` (default: by set name)."""
        new = new_set or f"card set {self.new_set!r}"
        old = old_set or f"card set {self.old_set!r}"
        if self.card is None:
            return f"{new} has the name of {old}"
        return f"{new} defines the card {self.card!r}, which {old} already defines differently"


def set_clash(info: CardSetInfo, loaded: Iterable[CardSetInfo]) -> NameClash | None:
    """Why ``info`` can't be loaded beside the ``loaded`` sets (``None``: it can).

    A card is keyed by its name, so a second, different definition of a name would
    silently replace (or be shadowed by) the first and change games: that is a clash,
    as is a second set of the same name.  Two sets may share a card only as
    :func:`same_card` (e.g. the same token, or a bare printing of a defined card).
    """
    by_card: dict[str, tuple[str, CardDef]] = {}
    for other in loaded:
        if other.name == info.name:
            return NameClash(info.name, other.name)
        for card in other.cards:
            by_card.setdefault(card.facts.name, (other.name, card))
    for card in info.cards:
        hit = by_card.get(card.facts.name)
        if hit is not None and not same_card(card, hit[1]):
            return NameClash(info.name, hit[0], card.facts.name)
    return None


class UnknownCardError(KeyError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name

    def __str__(self) -> str:
        return f"unknown card {self.name!r} (is its card set installed and loaded?)"


def facts_index(items: Iterable[CardFacts]) -> dict[str, CardFacts]:
    out: dict[str, CardFacts] = {}
    for f in items:
        out.setdefault(f.name, f)
    return out


ALT_CONDITIONS = "alt_conditions"
"""The key of ``CardDef.extras`` holding a card's alternative costs with conditions
(:class:`mtgk.cards.altcosts.AltCost` objects by name)."""


def alt_cost_restriction(game: Any, player: int, card: int, alt: str) -> str:
    """The registry's cast restriction for alternative costs with a condition: why
    ``player`` can't cast ``card`` for ``alt`` now (``""``: they can)."""
    if not alt:
        return ""
    d = game.card(card)
    conds = d.extras.get(ALT_CONDITIONS)
    ac = conds.get(alt) if conds else None
    if ac is None or ac.condition is None:
        return ""
    try:
        ok = ac.condition(game, player, card)
    except Exception as exc:
        game.card_failed(exc, d.name, None, f"{alt} cost condition")
    if ok:
        return ""
    return f"its {alt} cost can be paid only if {ac.unless or 'its condition holds'}"
