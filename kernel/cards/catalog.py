"""What is installed, without loading it: the card sets, plugins and cards, kept on disk.

``mtgk --version``, ``mtgk sets`` and ``mtgk cards`` print facts about the installed card
sets -- names, versions, card counts, mana costs, type lines, Oracle text -- that loading
the sets (importing the kernel and every pack, 0.3-0.6 s) computes the same way each
time.  A :class:`Catalog` is those facts; :func:`catalog` gives it from a cache file when
nothing installed has changed since it was made, else loads the registry, makes it and
keeps it.

Never stale.  A cache file is named by a *fingerprint* of everything loading reads: the
entry points of the ``mtgk.cardsets`` and ``mtgk.plugins`` groups (names, targets,
distributions and their versions), and the size and modification time of every file in
the folders of the kernel and of each entry point's module; the Python version and the
kernel kind (pure or compiled).  A pack edited, installed or removed changes the
fingerprint, and the sets are loaded again.  ``MTGK_NO_CACHE=1`` never reads or writes a
cache; ``MTGK_CACHE_DIR`` says where it lives (default ``$XDG_CACHE_HOME/mtgk`` or
``~/.cache/mtgk``).  A cache that can't be read or written is ignored.  A load in which a
set or plugin failed is not kept (the failures are reported as they happen, each time).

This module imports nothing of the kernel until it must load the registry.

>>> c = catalog()
>>> "lorwyn" in [s.name for s in c.sets] and any(card.name == "Shock" for card in c.cards)
True
"""

from __future__ import annotations

import hashlib
import importlib.metadata as md
import importlib.util
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from mtgk.cards.definitions import CardDef, Registry

__all__ = ["CardEntry", "Catalog", "PluginEntry", "SetEntry", "cached", "catalog",
           "fingerprint", "from_registry", "remember"]

CARDSET_GROUP = "mtgk.cardsets"  # (mtgk.cards.loading's, without importing it)
PLUGIN_GROUP = "mtgk.plugins"
_VERSION = 1  # of the cache file's layout


class SetEntry(msgspec.Struct, frozen=True):
    """A loaded card set: its name, version, card and token counts, its package."""

    name: str
    version: str
    cards: int
    tokens: int
    package: str = ""


class PluginEntry(msgspec.Struct, frozen=True):
    """An installed mechanics plugin and the package (with its version) it comes from."""

    name: str
    package: str


class CardEntry(msgspec.Struct, frozen=True):
    """A card of a loaded set, as ``mtgk cards`` lists it."""

    name: str
    mana_cost: str
    type_line: str
    oracle_text: str
    set_code: str


class Catalog(msgspec.Struct, frozen=True):
    """The installed card sets, plugins and cards (sorted by name), and what failed."""

    sets: list[SetEntry]
    plugins: list[PluginEntry]
    cards: list[CardEntry]
    failures: list[tuple[str, str]] = []


def _is_token(d: CardDef) -> bool:
    f = d.facts
    return f.type_line.startswith("Token") or (f.mana_cost is None and "Land" not in f.types)


def _packages() -> dict[str, str]:
    """``group:name`` -> "package version" of every entry point of the two groups."""
    out: dict[str, str] = {}
    for group in (CARDSET_GROUP, PLUGIN_GROUP):
        for ep in md.entry_points(group=group):
            if ep.dist is not None:
                out[f"{group}:{ep.name}"] = f"{ep.dist.name} {ep.dist.version}"
    return out


def from_registry(reg: Registry) -> Catalog:
    """The catalog of a loaded registry."""
    packages = _packages()
    sets = []
    for name in sorted(reg.sets):
        info = reg.sets[name]
        tokens = sum(1 for d in info.cards if _is_token(d))
        sets.append(SetEntry(name, info.version, len(info.cards) - tokens, tokens,
                             packages.get(f"{CARDSET_GROUP}:{name}", "")))
    plugins = [PluginEntry(k.split(":", 1)[1], v) for k, v in sorted(packages.items())
               if k.startswith(PLUGIN_GROUP + ":")]
    cards = [CardEntry(name, d.facts.mana_cost or "", d.facts.type_line, d.facts.oracle_text,
                       d.set_code) for name, d in sorted(reg.cards.items())]
    return Catalog(sets, plugins, cards, [(n, str(e)) for n, e in reg.failures])


def _folders() -> list[str]:
    """The folders whose files loading reads: the kernel's and each entry point's."""
    import mtgk
    found = [os.path.dirname(os.path.abspath(mtgk.__file__ or "."))]
    for group in (CARDSET_GROUP, PLUGIN_GROUP):
        for ep in md.entry_points(group=group):
            module = ep.value.split(":", 1)[0].strip()
            try:
                spec = importlib.util.find_spec(module)
            except (ImportError, ValueError):
                spec = None
            if spec is None:
                found.append(f"missing:{module}")
                continue
            if spec.submodule_search_locations:
                found.extend(spec.submodule_search_locations)
            elif spec.origin:
                found.append(os.path.dirname(spec.origin))
    return sorted(set(found))


def fingerprint() -> str:
    """A digest of everything loading the card sets reads (see the module's docs)."""
    h = hashlib.blake2b(digest_size=12)
    from mtgk import kind
    h.update(f"{_VERSION} {sys.version} {kind.describe()}\n".encode())
    for group in (CARDSET_GROUP, PLUGIN_GROUP):
        for ep in sorted(md.entry_points(group=group), key=lambda e: (e.name, e.value)):
            dist = f"{ep.dist.name} {ep.dist.version}" if ep.dist is not None else ""
            h.update(f"{group} {ep.name} {ep.value} {dist}\n".encode())
    for folder in _folders():
        h.update(f"{folder}\n".encode())
        for root, dirs, files in os.walk(folder):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
            for f in sorted(files):
                if f.endswith((".pyc", ".pyo")):
                    continue
                try:
                    st = os.stat(os.path.join(root, f))
                except OSError:
                    continue
                h.update(f"{root}/{f} {st.st_size} {st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def _cache_dir() -> Path | None:
    if os.environ.get("MTGK_NO_CACHE"):
        return None
    if os.environ.get("MTGK_CACHE_DIR"):
        return Path(os.environ["MTGK_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "mtgk"


def _read(path: Path) -> Catalog | None:
    try:
        return msgspec.json.decode(path.read_bytes(), type=Catalog)
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return None


def _keep(folder: Path, path: Path, c: Catalog) -> None:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_bytes(msgspec.json.encode(c))
        os.replace(tmp, path)
        for old in folder.glob("catalog-*.json"):  # the stale ones
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        pass  # a cache that can't be written is no cache


def _path() -> tuple[Path, Path] | None:
    folder = _cache_dir()
    return None if folder is None else (folder, folder / f"catalog-{fingerprint()}.json")


def cached() -> Catalog | None:
    """The catalog kept for what is installed now, ``None`` if there is none (or no cache)."""
    where = _path()
    return None if where is None else _read(where[1])


def remember(reg: Registry) -> Catalog:
    """The catalog of ``reg`` (the registry of what is installed now, just loaded), kept
    for :func:`cached` unless something failed to load."""
    c = from_registry(reg)
    where = _path() if not c.failures else None
    if where is not None:
        _keep(where[0], where[1], c)
    return c


def catalog(strict: bool = False) -> Catalog:
    """The installed catalog: :func:`cached`, else by loading the registry
    (``load_registry(strict=strict)``: with ``strict`` a failing set raises) and
    :func:`remember`-ing it."""
    kept = cached()
    if kept is not None:
        return kept
    from mtgk.cards.loading import load_registry
    return remember(load_registry(strict=strict))
