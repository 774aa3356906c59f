"""The keywords a card's facts may list, and the mechanisms that give them meaning.

A card's facts (``keywords`` in its set's data) list its keywords as printed.  Some the
kernel implements itself (:data:`mtgk.cards.definitions.KEYWORDS`: flying, trample, ...); every
other keyword -- evoke, champion, clash, prowl -- needs a *mechanism*, code in a plugin
or a pack, that declares it with :func:`declare_keyword`::

    from mtgk.cards.keywords import declare_keyword, has_alt_cost

    declare_keyword("prowl", "mtgk_morningtide_pack", check=has_alt_cost("prowl"),
                    what="an alternative cost after a creature sharing a type dealt "
                         "combat damage")

As a card set loads, each of its cards' keywords must be known (a kernel keyword or a
declared one) and pass its mechanism's ``check`` (``check(card) -> str``: what the
card's definition lacks, ``""`` if nothing): a misspelled ``"Flyng"``, or ``"Prowl"``
listed on a card that declares no prowl cost, refuses the set, naming the card and the
set (``mtgk.cards.definitions.CardDefinitionError``), instead of a card that silently lacks it.

A declaration is made when the mechanism's module is *imported* (at its top level),
not in a plugin hook: a card that uses a mechanism imports it, so its keyword is known
even when the registry is loaded without the mechanics plugins
(``load_registry(plugins=False)``).  Declarations are global to the process and
idempotent (a module imported twice declares once).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mtgk.cards.definitions import (
    KEYWORD_ABILITIES,
    KEYWORD_ABILITY_KEYS,
    KEYWORD_MEANINGS,
    KEYWORDS,
    STATIC_HOOKS,
    CardDefinitionError,
    Static,
    Triggered,
)

if TYPE_CHECKING:
    from mtgk.cards.definitions import CardDef

__all__ = ["KeywordMechanism", "MECHANISMS", "declare_keyword", "known_keyword",
           "has_alt_cost", "check_keywords"]

KeywordCheck = Callable[["CardDef"], str]
"""What a card's definition lacks for a keyword its facts list (``""``: nothing)."""


@dataclass(frozen=True)
class KeywordMechanism:
    """A declared keyword: its (lower-case) name, the module that implements it, what it
    is, and the check a card listing it must pass (``None``: none)."""

    name: str
    provider: str
    what: str = ""
    check: KeywordCheck | None = None
    #: a keyword ability the card has (``Chars.has(name)``, lost with "loses all
    #: abilities"); ``False`` for a keyword action (clash, mill) or an ability word
    #: (kinship, constellation), which are no abilities
    ability: bool = True
    #: what the keyword means, when that is an ability (see :func:`declare_keyword`)
    meaning: tuple[Any, ...] = ()


MECHANISMS: dict[str, KeywordMechanism] = {}
"""The declared keyword mechanisms by lower-case name (see :func:`declare_keyword`)."""


def declare_keyword(name: str, provider: str, check: KeywordCheck | None = None,
                    what: str = "", ability: bool = True,
                    meaning: Sequence[Any] = ()) -> KeywordMechanism:
    """Declare that module ``provider`` implements the keyword ``name`` (any case); a
    card listing it in its facts must pass ``check`` as its set loads, and has it as an
    ability (``Chars.has(name)``: granted, lost and copied like a kernel keyword) unless
    ``ability=False`` (a keyword action such as clash, an ability word such as kinship).
    Declaring a name again keeps the first declaration (a kernel keyword can't be
    redeclared).

    ``meaning``: the abilities the keyword stands for, when it stands for some (CR
    702.1: persist is a triggered ability) -- :class:`~mtgk.cards.definitions.Triggered`
    abilities of the battlefield, :class:`~mtgk.rules.replacement.Replacement` effects,
    and :class:`~mtgk.cards.definitions.Static` subclasses that carry a static hook
    (``enters_tapped`` ...).  Every permanent that has the keyword has them, however it
    has it: printed, granted by a lord, an Aura or an until-end-of-turn effect, or
    copied; losing the keyword ("loses all abilities") loses them.  A card may also list
    the same ability object among its own (``persist()`` returns it): it is then that
    card's printed instance, not a second one.  Anything else is refused here (a
    keyword's meaning that changes characteristics is a static ability of the cards)."""
    key = name.strip().lower()
    if not key:
        raise ValueError("declare_keyword: an empty keyword")
    if key in KEYWORDS:
        raise ValueError(f"declare_keyword: {name!r} is a keyword the kernel implements")
    for ab in meaning:
        why = _no_meaning(ab)
        if why:
            raise ValueError(f"declare_keyword: the meaning of {name!r} has {ab!r}, {why}")
    if meaning and not ability:
        raise ValueError(f"declare_keyword: {name!r} is no ability (ability=False), so it "
                         "can't mean one")
    mech = MECHANISMS.setdefault(key, KeywordMechanism(key, provider, what, check, ability,
                                                       tuple(meaning)))
    if mech.ability:
        KEYWORD_ABILITIES.setdefault(key, None)
    if mech.meaning and key not in KEYWORD_MEANINGS:
        keys = {(key if i == 0 else f"{key}:{i + 1}"): ab for i, ab in enumerate(mech.meaning)}
        KEYWORD_MEANINGS[key] = keys
        for k, ab in keys.items():
            KEYWORD_ABILITY_KEYS[k] = (key, ab)
    return mech


def _no_meaning(ab: Any) -> str:
    """Why ``ab`` can't be part of a keyword's meaning (``""``: it can)."""
    if isinstance(ab, Triggered):
        return "" if tuple(ab.zones) == ("battlefield",) else \
            "a triggered ability that works outside the battlefield (zones=" \
            f"{tuple(ab.zones)!r}): only a permanent has a keyword's meaning"
    if isinstance(ab, Static):
        hooks = [n for n in STATIC_HOOKS if getattr(ab, n, None) is not None]
        return "" if hooks else ("a static ability without a static hook: a keyword's "
                                 "meaning can't change characteristics")
    if hasattr(ab, "applies") and hasattr(ab, "apply") and bool(getattr(ab, "event", "")):
        return ""  # a Replacement
    return "which is neither a triggered ability, a replacement effect nor a static hook"


def known_keyword(name: str) -> bool:
    """Whether a card's facts may list ``name``: a kernel keyword or a declared one."""
    key = name.strip().lower()
    return key in KEYWORDS or key in MECHANISMS


def has_alt_cost(alt: str) -> KeywordCheck:
    """A keyword check: the card has the alternative cost ``alt`` (evoke, prowl)."""
    def check(card: CardDef) -> str:
        return "" if alt in card.alt_costs else \
            f"no {alt} alternative cost (mtgk.cards.altcosts.alt_cost({alt!r}, ...))"
    return check


def check_keywords(card: CardDef, set_name: str) -> None:
    """Raise :class:`~mtgk.cards.definitions.CardDefinitionError` naming the card and ``set_name`` for
    a keyword in its facts that no one implements, or whose mechanism's check fails."""
    from difflib import get_close_matches

    for kw in card.facts.keywords:
        key = kw.strip().lower()
        if key in KEYWORDS:
            continue
        mech = MECHANISMS.get(key)
        where = f"card {card.facts.name!r} (set {set_name})"
        if mech is None:
            close = get_close_matches(key, sorted(KEYWORDS | set(MECHANISMS)), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise CardDefinitionError(
                f"{where}: its facts list the keyword {kw!r}, which neither the kernel nor "
                f"any loaded mechanism implements{hint}; a pack implementing it declares "
                "it with mtgk.cards.keywords.declare_keyword")
        missing = mech.check(card) if mech.check is not None else ""
        if missing:
            raise CardDefinitionError(
                f"{where}: its facts list the keyword {kw!r} ({mech.provider}), but its "
                f"definition has {missing}")
        if mech.ability and key not in card.keywords:  # (declared after the card was)
            card.keywords += (key,)


for _name, _what in (
        ("enchant", "Auras (the engine attaches them)"),
        ("protection", "protection from ... (the engine reads it from the Oracle text)"),
        ("landwalk", "the landwalk keywords (islandwalk, ...) the facts list as well"),
        ("mill", "a keyword action (Ctx.mill)"),
        ("constellation", "an ability word: no rules meaning, its trigger is the card's own")):
    declare_keyword(_name, "mtgk (kernel)", what=_what, ability=False)
