"""Plugins: card sets and mechanics, discovered through entry points.

Two entry-point groups: ``mtgk.cardsets`` (card packs) and ``mtgk.plugins``
(mechanics, agents, variants).  Each entry point names a module (or object)
holding pluggy hook implementations of the hookspecs below.  Plugins are
loaded in sorted name order; hooks are called *once, at load time* to fill a
:class:`~mtgk.cards.definitions.Registry`; the engine never calls pluggy per event.

A plugin that fails to import or register is reported by name and the others
still load (``strict=True`` turns that into :class:`PluginError`).  So is a
plugin whose card set takes a set name or a card name another plugin's set
already has (see :func:`load_registry`): it is refused as a whole, because
letting it replace the other definition would change games silently.

>>> reg = load_registry(["core"])
>>> "Shock" in reg, sorted(reg.sets)
(True, ['core'])
"""

from __future__ import annotations

import importlib.metadata as md
import re
import time
import traceback
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import pluggy
import structlog

from mtgk.cards.definitions import CardSetInfo, Registry, check_definition, set_clash
from mtgk.cards.keywords import check_keywords

hookspec = pluggy.HookspecMarker("mtgk")
hookimpl = pluggy.HookimplMarker("mtgk")
log = structlog.get_logger("mtgk.plugins")

CARDSET_GROUP = "mtgk.cardsets"
PLUGIN_GROUP = "mtgk.plugins"


class HookSpecs:
    """The hooks a plugin may implement.  Each is called once per registry load."""

    @hookspec
    def mtgk_cardsets(self) -> list[CardSetInfo]:  # type: ignore[empty-body]  # spec only
        """Return the card sets this plugin provides (name, version, card definitions)."""

    @hookspec
    def mtgk_register(self, registry: Registry) -> None:
        """Register mechanics into the kernel's registry: replacement effects
        (``registry.replacements``), state-based checks (``registry.sba_checks``),
        effect kinds, dynamic power/toughness functions, event types."""


class PluginError(Exception):
    """A plugin failed to load (raised only in strict mode)."""


class LoadFailure:
    def __init__(self, name: str, dist: str, error: str) -> None:
        self.name = name
        self.dist = dist
        self.error = error

    def __repr__(self) -> str:
        return f"LoadFailure({self.name!r}, {self.dist!r}, {self.error!r})"

    def __str__(self) -> str:
        return f"plugin {self.name!r} (package {self.dist}) failed to load: {self.error}"


def _entry_points(group: str) -> list[md.EntryPoint]:
    """The entry points of ``group`` by name; two of one name (from two packages) with the
    kernel's first, then by package name (:func:`load_registry` refuses the second)."""
    return sorted(md.entry_points(group=group),
                  key=lambda e: (e.name, _dist(e) != KERNEL_DISTRIBUTION, _dist(e), e.value))


def _dist(ep: md.EntryPoint) -> str:
    """The name of the package (distribution) an entry point comes from."""
    return ep.dist.name if ep.dist is not None else "?"


_import_seconds: dict[tuple[str, str, str], float] = {}
"""How long the first import of each entry point (group, name, value) took."""


def load_entry_point(ep: md.EntryPoint) -> Any:
    """``ep.load()``, remembering how long its first import took, so that
    :func:`load_registry` reports it even when the module was imported earlier."""
    start = time.perf_counter()
    try:
        return ep.load()
    finally:
        _import_seconds.setdefault((ep.group, ep.name, ep.value), time.perf_counter() - start)


def import_plugins() -> None:
    """Import every installed card set and plugin (so that the event types they define
    are known); errors are left for :func:`load_registry` to report."""
    for group in (CARDSET_GROUP, PLUGIN_GROUP):
        for ep in _entry_points(group):
            try:
                load_entry_point(ep)
            except Exception:  # noqa: BLE001, S110 - reported when the registry loads
                pass


def plugin_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager("mtgk")
    pm.add_hookspecs(HookSpecs)
    return pm


SLOW_LOAD_SECONDS = 5.0
"""A plugin that takes longer than this to load is reported even without ``-v``."""

KERNEL_DISTRIBUTION = "mtgk"
"""The package the kernel (and its built-in card sets and plugins) is installed as."""


@dataclass
class _Plugin:
    """One plugin being loaded: where it came from and how long it has taken."""

    pm_name: str
    name: str
    dist: str
    group: str
    seconds: float = 0.0
    sets: list[CardSetInfo] = field(default_factory=list)
    refused: bool = False

    @property
    def builtin(self) -> bool:
        return self.dist.lower().replace("_", "-") == KERNEL_DISTRIBUTION

    def label(self) -> str:
        return f"plugin {self.name!r} (package {self.dist})"


def load_registry(sets: Sequence[str] | None = None, strict: bool = False,
                  extra: Iterable[tuple[str, Any]] = (), plugins: bool = True) -> Registry:
    """Load card sets (all installed ones, or just ``sets``) and mechanics plugins.

    ``extra`` are ``(name, module_or_object)`` pairs registered as if found
    through an entry point (tests and embedding use it).

    Card sets are checked for name clashes (:func:`mtgk.cards.definitions.set_clash`) in this
    order: the kernel's own plugins first, then the others, each by plugin name.  A
    plugin one of whose sets clashes with a set taken before it is refused as a
    whole (none of its sets, no ``mtgk_register``) and reported as an error naming
    both plugins; ``strict=True`` raises :class:`PluginError` instead.  The sets
    that are kept are then added in set-name order.

    How long each plugin takes (import and hooks) is logged at info level (``-v``);
    one slower than :data:`SLOW_LOAD_SECONDS` gets a warning.
    """
    reg = Registry()
    pm = plugin_manager()
    found: list[tuple[_Plugin, Any]] = []
    groups = [(CARDSET_GROUP, sets)] + ([(PLUGIN_GROUP, None)] if plugins else [])
    for group, only in groups:
        taken: dict[str, str] = {}  # entry-point name -> the package that has it
        for ep in _entry_points(group):
            if only is not None and ep.name not in only:
                continue
            plugin = _Plugin(f"{group}:{ep.name}", ep.name, _dist(ep), group)
            if ep.name in taken:  # one name, one plugin: the second is refused
                _fail(reg, plugin.name, plugin.dist,
                      f"the entry-point name {ep.name!r} ({group}) of package {plugin.dist} is "
                      f"already taken by plugin {ep.name!r} (package {taken[ep.name]}): give "
                      "one of them another name (the plugin is not loaded)", strict,
                      clash=True)
                continue
            taken[ep.name] = plugin.dist
            try:
                obj = load_entry_point(ep)
            except Exception as exc:  # noqa: BLE001 - any plugin error is reported, not fatal
                _fail(reg, plugin.name, plugin.dist, f"{type(exc).__name__}: {exc}"
                      f"{renamed_module_hint(exc)}", strict)
                continue
            plugin.seconds = _import_seconds.get((ep.group, ep.name, ep.value), 0.0)
            found.append((plugin, obj))
    for name, obj in extra:
        found.append((_Plugin(f"extra:{name}", name, "(registered directly)", "extra"), obj))
    by_pm_name = {plugin.pm_name: plugin for plugin, _obj in found}
    for plugin, obj in found:
        try:
            pm.register(obj, name=plugin.pm_name)
            pm.check_pending()
        except Exception as exc:  # noqa: BLE001
            if pm.is_registered(obj):
                pm.unregister(obj)
            plugin.refused = True
            _fail(reg, plugin.name, plugin.dist, f"{type(exc).__name__}: {exc}", strict)
    # card sets first, then mechanics
    for impl in pm.hook.mtgk_cardsets.get_hookimpls():
        plugin = by_pm_name[impl.plugin_name]
        start = time.perf_counter()
        try:
            # pluggy types a hook implementation's result as ``object``; the hookspec says
            # ``mtgk_cardsets`` gives a list of CardSetInfo
            plugin.sets = list(cast("list[CardSetInfo]", impl.function() or []))
            for info in plugin.sets:
                for card in info.cards:
                    check_definition(card, info.name)
                    check_keywords(card, info.name)
        except Exception as exc:  # noqa: BLE001
            plugin.refused = True
            _fail(reg, plugin.name, plugin.dist, f"{type(exc).__name__}: {exc}", strict)
        finally:
            plugin.seconds += time.perf_counter() - start
        if sets is not None and not any(n.startswith("extra:") for n in by_pm_name):
            plugin.sets = [i for i in plugin.sets if i.name in sets or i.name.startswith("_")]
    kept = _without_clashes([p for p, _obj in found if not p.refused], reg, strict)
    for info in sorted(kept, key=lambda i: i.name):
        reg.add_set(info)
    for impl in sorted(pm.hook.mtgk_register.get_hookimpls(), key=lambda i: i.plugin_name):
        plugin = by_pm_name[impl.plugin_name]
        if plugin.refused:
            continue
        start = time.perf_counter()
        try:
            impl.function(registry=reg)
        except Exception as exc:  # noqa: BLE001
            _fail(reg, plugin.name, plugin.dist, f"{type(exc).__name__}: {exc}", strict)
        finally:
            plugin.seconds += time.perf_counter() - start
    for plugin, _obj in found:
        _report_time(plugin)
    return reg


def _without_clashes(candidates: list[_Plugin], reg: Registry, strict: bool
                     ) -> list[CardSetInfo]:
    """The card sets of the plugins that clash with no plugin taken before them (the
    kernel's own first, then by name); the others are refused (see :func:`load_registry`)."""
    kept: list[tuple[CardSetInfo, _Plugin]] = []
    for plugin in sorted(candidates, key=lambda p: (not p.builtin, p.name, p.pm_name)):
        mine: list[tuple[CardSetInfo, _Plugin]] = []
        for info in plugin.sets:
            taken = kept + mine
            clash = set_clash(info, [i for i, _p in taken])
            if clash is not None:
                owner = next(p for i, p in taken if i.name == clash.old_set)
                where = ("another card set of this plugin" if owner is plugin
                         else f"card set {clash.old_set!r} of {owner.label()}")
                plugin.refused = True
                _fail(reg, plugin.name, plugin.dist,
                      clash.reason(f"its card set {info.name!r} (package {plugin.dist})",
                                   where) +
                      " (a card name or set name has one definition; the plugin is not loaded)",
                      strict, clash=True)
                break
            mine.append((info, plugin))
        if not plugin.refused:
            kept.extend(mine)
    return [info for info, _plugin in kept]


def _report_time(plugin: _Plugin) -> None:
    """Say how long ``plugin`` took to load (diagnostics only: nothing depends on it)."""
    what = "card set plugin" if plugin.group == CARDSET_GROUP else "plugin"
    seconds = round(plugin.seconds, 2)
    if plugin.seconds > SLOW_LOAD_SECONDS:
        log.warning(f"{what} {plugin.name!r} is slow to load: {seconds} s (it delays every "
                    "command)", plugin=plugin.name, package=plugin.dist, seconds=seconds)
    elif structlog.is_configured() and not plugin.refused:  # (unconfigured: on stdout)
        log.info(f"loaded {what} {plugin.name!r} in {seconds} s", plugin=plugin.name,
                 package=plugin.dist, seconds=seconds,
                 sets=[info.name for info in plugin.sets])


def _fail(reg: Registry, name: str, dist: str, error: str, strict: bool,
          clash: bool = False) -> None:
    f = LoadFailure(name, dist, error)
    if strict:
        raise PluginError(str(f))
    reg.failures.append((name, error))
    if clash:
        log.error("plugin refused", plugin=name, package=dist, error=error)
    else:
        log.warning("plugin failed to load", plugin=name, package=dist, error=error)


RENAMED_MODULES: dict[str, str] = {
    "kernel.agents": "mtgk.agents",
    "kernel.bench": "mtgk.tools.bench",
    "kernel.cards": "mtgk.cards.definitions",
    "kernel.cli": "mtgk.tools.cli",
    "kernel.cli_view": "mtgk.tools.commands",
    "kernel.debug": "mtgk.tools.debug",
    "kernel.decks": "mtgk.cards.decks",
    "kernel.diag": "mtgk.diag",
    "kernel.dsl": "mtgk.cards.dsl",
    "kernel.effects": "mtgk.cards.effects",
    "kernel.engine": "mtgk.rules.engine",
    "kernel.events": "mtgk.log.events",
    "kernel.export": "mtgk.tools.export",
    "kernel.filters": "mtgk.cards.filters",
    "kernel.layers": "mtgk.rules.layers",
    "kernel.logfile": "mtgk.log.logfile",
    "kernel.mana": "mtgk.rules.mana",
    "kernel.plugins": "mtgk.cards.loading",
    "kernel.pytest_plugin": "mtgk.scenario.pytest_plugin",
    "kernel.render": "mtgk.render",
    "kernel.replacement": "mtgk.rules.replacement",
    "kernel.replay": "mtgk.games.replay",
    "kernel.scenario": "mtgk.scenario",
    "kernel.sim": "mtgk.tools.sim",
    "kernel.state": "mtgk.rules.state",
    "kernel.store": "mtgk.tools.store",
    "kernel.viewer": "mtgk.tools.viewer",
    "kernel.visibility": "mtgk.rules.visibility",
    "kernel": "mtgk",
    "plugins": "mtgk.plugins",
    "cardsets": "mtgk.cardsets",
}
"""The modules of the old top-level packages and where they are now (the longest old
name that is a prefix wins).  mtgk installs one import namespace, ``mtgk``; a card pack
written against the old names gets a clear error (docs/pack-authors.md), not a shim."""


def new_module_name(old: str) -> str | None:
    """Where the old module ``old`` (e.g. ``kernel.dsl``) is now, or None if it never was one."""
    for prefix in sorted(RENAMED_MODULES, key=len, reverse=True):
        if old == prefix or old.startswith(prefix + "."):
            return RENAMED_MODULES[prefix] + old[len(prefix):]
    return None


_OLD_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import\s+\(?\s*(\w+)|import\s+([\w.]+))")


def renamed_module_hint(exc: BaseException) -> str:
    """For an import of one of the old top-level packages (``kernel``, ``plugins``,
    ``cardsets``), a sentence saying what to import instead; otherwise ``""``."""
    if not isinstance(exc, ImportError) or exc.name is None:
        return ""
    top = exc.name.split(".")[0]
    if top not in ("kernel", "plugins", "cardsets"):
        return ""
    old = exc.name
    where = ""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        m = _OLD_IMPORT.match(frame.line or "")
        if m and (m.group(1) or m.group(3)).split(".")[0] == top:
            old = m.group(1) or m.group(3)
            if m.group(1) and f"{old}.{m.group(2)}" in RENAMED_MODULES:  # from kernel import x
                old = f"{old}.{m.group(2)}"
            where = f" ({frame.filename}:{frame.lineno})"
            break
    new = new_module_name(old) or "mtgk"
    return (f"; the package {top!r} is now part of 'mtgk': import {new!r} instead of "
            f"{old!r}{where} (docs/pack-authors.md)")


def installed_cardsets() -> list[str]:
    return [ep.name for ep in _entry_points(CARDSET_GROUP)]
