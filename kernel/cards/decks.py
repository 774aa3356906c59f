"""Deck lists: the common text format, built-in decks, and the lines logs store.

A deck file holds one line per card entry::

    # a comment            (also "// a comment")
    Deck                   (optional header; "Sideboard" starts the ignored part)
    17 Mountain
    4x Shock
    19 Gray Ogre (M10) 150 (a set code and collector number are ignored)

Blank lines and comments are ignored; a line without a count means one copy;
``SB: 2 Shock`` lines and everything after a ``Sideboard`` header are the
sideboard, which a game does not use.  A UTF-8 byte-order mark at the start is
ignored.  Card names must be known to the registry (matching ignores case); an
unknown name raises :class:`DeckError` naming the line and suggesting close
names.  A token (a card whose type line starts with "Token") is not a card a
deck can hold.  A deck holds at most :data:`MAX_DECK_SIZE` cards, counted after
all its lines are added up, so that every deck this module reads can be written
to a log header (:func:`deck_lines`) and read back.

The order of the cards is kept: a game creates the library objects in deck
order before shuffling, so a log header stores the deck as lines
(:func:`deck_lines`) that expand back to exactly the same list.

>>> from mtgk.cards.loading import load_registry
>>> reg = load_registry(["core", "lorwyn"])
>>> cards = parse_deck("2 Mountain\\n// burn\\n1 Shock\\nSideboard\\n4 Murder", reg)
>>> cards
['Mountain', 'Mountain', 'Shock']
>>> deck_lines(cards)
['2 Mountain', '1 Shock']
>>> parse_deck("3 Mountian", reg)
Traceback (most recent call last):
    ...
mtgk.cards.decks.DeckError: line 1: unknown card 'Mountian' (did you mean 'Mountain'?)
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from mtgk.cards.definitions import Registry

__all__ = ["MAX_DECK_SIZE", "DeckError", "builtin_decks", "deck_lines", "load_deck",
           "parse_deck"]

MAX_DECK_SIZE = 10_000
"""The most cards a main deck may hold (any one line's count included)."""

_MAIN_HEADERS = frozenset({"deck", "main", "maindeck", "mainboard", "main deck"})
_SIDE_HEADERS = frozenset({"sideboard", "side", "maybeboard", "considering"})
_LINE = re.compile(r"^(?:(\d+)\s*[xX]?\s+)?(.+?)$")
_SET_SUFFIX = re.compile(r"\s+\([A-Za-z0-9]{2,6}\)(\s+[A-Za-z0-9\-★]+)?$")


class DeckError(ValueError):
    """A deck cannot be read: ``line`` (1-based, or ``None``) and ``source`` say where.

    ``card`` is the unknown card name, if that is the problem, and
    ``suggestions`` lists close known names.
    """

    def __init__(self, message: str, *, line: int | None = None, source: str | None = None,
                 card: str | None = None, suggestions: Sequence[str] = ()) -> None:
        self.message = message
        self.line = line
        self.source = source
        self.card = card
        self.suggestions = list(suggestions)
        where = [source] if source else []
        if line is not None:
            where.append(f"line {line}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)


def _strip_comment(line: str) -> str:
    s = line.strip()
    if s.startswith(("#", "//")):
        return ""
    if " #" in s:  # a trailing comment; card names never hold " #"
        s = s.split(" #", 1)[0].rstrip()
    return s


_LONGEST_NAME = 200
"""Names longer than this get no "did you mean" (no card name is nearly this long)."""


def _shown(name: str, limit: int = 60) -> str:
    """``repr(name)``, cut to about ``limit`` characters: a message stays one short line."""
    text = repr(name)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(name)} characters)"


def _name_index(registry: Registry) -> dict[str, str]:
    index = {name.casefold(): name for name in registry.cards}
    for other, name in registry.aliases.items():
        index.setdefault(other.casefold(), name)
    return index


def _is_token(registry: Registry, name: str) -> bool:
    return registry[name].facts.type_line.split(" ", 1)[0] == "Token"


def _resolve(name: str, registry: Registry, index: dict[str, str], lineno: int,
             source: str | None) -> str:
    if name in registry:
        return registry.canonical(name)
    found = index.get(name.casefold())
    if found is not None:
        return found
    close: list[str] = []
    if len(name) <= _LONGEST_NAME:
        close = difflib.get_close_matches(name, list(registry.cards), n=3, cutoff=0.6)
        if not close:
            folded = difflib.get_close_matches(name.casefold(), list(index), n=3, cutoff=0.6)
            close = [index[f] for f in folded]
    hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
    raise DeckError(f"unknown card {_shown(name)}{hint}", line=lineno, source=source,
                    card=name, suggestions=close)


def parse_deck(text: str, registry: Registry, source: str | None = None) -> list[str]:
    """The main deck of deck-file ``text`` as a list of card names, in order.

    ``source`` (a file or deck name) is used in error messages only.

    >>> from mtgk.cards.loading import load_registry
    >>> reg = load_registry(["core", "lorwyn"])
    >>> parse_deck("Deck\\n2x forest\\nSB: 1 Shock", reg)
    ['Forest', 'Forest']
    >>> parse_deck("0 Forest", reg)
    Traceback (most recent call last):
        ...
    mtgk.cards.decks.DeckError: line 1: a card count must be at least 1, found 0
    """
    index = _name_index(registry)
    cards: list[str] = []
    in_side = False
    text = text.removeprefix("\ufeff")
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = _strip_comment(raw)
        if not line:
            continue
        low = line.casefold().rstrip(":")
        if low in _MAIN_HEADERS:
            in_side = False
            continue
        if low in _SIDE_HEADERS:
            in_side = True
            continue
        if line[:3].casefold() == "sb:":
            continue
        if in_side:
            continue
        m = _LINE.match(line)
        if m is None:  # pragma: no cover - the pattern matches any non-empty line
            raise DeckError(f"cannot read {line!r}", line=lineno, source=source)
        count_text, name = m.group(1), m.group(2).strip()
        if count_text is not None and len(count_text) > len(str(MAX_DECK_SIZE)):
            raise DeckError(f"a card count written with {len(count_text)} digits is not "
                            f"plausible (a deck holds at most {MAX_DECK_SIZE} cards)",
                            line=lineno, source=source)
        count = int(count_text) if count_text is not None else 1
        if count < 1:
            raise DeckError(f"a card count must be at least 1, found {count}", line=lineno,
                            source=source)
        if count > MAX_DECK_SIZE:
            raise DeckError(f"a card count of {count} is not plausible (a deck holds at most "
                            f"{MAX_DECK_SIZE} cards)", line=lineno, source=source)
        if len(cards) + count > MAX_DECK_SIZE:
            raise DeckError(f"this line makes the deck {len(cards) + count} cards; a deck "
                            f"holds at most {MAX_DECK_SIZE}", line=lineno, source=source)
        if name not in registry:
            name = _SET_SUFFIX.sub("", name).strip() or name
        card = _resolve(name, registry, index, lineno, source)
        if _is_token(registry, card):
            raise DeckError(f"{card!r} is a token, not a card a deck can hold", line=lineno,
                            source=source, card=card)
        cards.extend([card] * count)
    if not cards:
        raise DeckError("the deck has no cards", source=source)
    return cards


def deck_lines(cards: Iterable[str]) -> list[str]:
    """Deck lines (``"4 Shock"``) that :func:`parse_deck` expands back to ``cards``.

    Only runs of the same card are merged, so the order survives the round trip.

    >>> deck_lines(["Forest", "Forest", "Shock", "Forest"])
    ['2 Forest', '1 Shock', '1 Forest']
    """
    out: list[tuple[str, int]] = []
    for name in cards:
        if out and out[-1][0] == name:
            out[-1] = (name, out[-1][1] + 1)
        else:
            out.append((name, 1))
    return [f"{n} {name}" for name, n in out]


def builtin_decks(registry: Registry) -> dict[str, str]:
    """Decks shipped by the loaded card sets: deck name -> deck text.

    Sets are visited in name order and each set's decks in the order it
    declared them.  A name that an earlier set already used is also reachable
    as ``"set/name"`` (every deck is).
    """
    out: dict[str, str] = {}
    for set_name in sorted(registry.sets):
        for deck_name, text in registry.sets[set_name].decks.items():
            out.setdefault(deck_name, text)
    for set_name in sorted(registry.sets):
        for deck_name, text in registry.sets[set_name].decks.items():
            out.setdefault(f"{set_name}/{deck_name}", text)
    return out


def load_deck(name_or_path: str | Path, registry: Registry) -> list[str]:
    """A deck by built-in name (see :func:`builtin_decks`) or from a deck file.

    A built-in name wins over a file of the same name in the current folder
    only if no such file exists.  Raises :class:`DeckError` for unknown names
    (listing the built-in decks) and unreadable files.
    """
    path = Path(name_or_path)
    if path.is_file():
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise DeckError(f"cannot read the deck file: {exc}", source=str(path)) from None
        return parse_deck(text, registry, source=str(path))
    decks = builtin_decks(registry)
    key = str(name_or_path)
    if key in decks:
        return parse_deck(decks[key], registry, source=f"built-in deck {key!r}")
    folded = {k.casefold(): k for k in decks}
    if key.casefold() in folded:
        real = folded[key.casefold()]
        return parse_deck(decks[real], registry, source=f"built-in deck {real!r}")
    if path.exists():
        raise DeckError("not a deck file (a directory?)", source=str(path))
    names = [k for k in decks if "/" not in k]
    close = difflib.get_close_matches(key, names, n=3, cutoff=0.5)
    hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
    known = f"built-in decks: {', '.join(names)}" if names else "no built-in decks are installed"
    raise DeckError(f"no deck file or built-in deck named {key!r}{hint} ({known})",
                    suggestions=close)
