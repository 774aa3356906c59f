"""Plugins: card sets and mechanics, discovered through entry points.

Two entry-point groups: ``mtgk.cardsets`` (card packs) and ``mtgk.plugins``
(mechanics, agents, variants).  Each entry point names a module (or object)
holding pluggy hook implementations of the hookspecs below.  Plugins are
loaded in sorted name order; hooks are called *once, at load time* to fill a
:class:`~kernel.cards.Registry`; the engine never calls pluggy per event.

A plugin that fails to import or register is reported by name and the others
still load (``strict=True`` turns that into :class:`PluginError`).

>>> reg = load_registry(["core"])
>>> "Shock" in reg, sorted(reg.sets)
(True, ['core'])
"""

from __future__ import annotations

import importlib.metadata as md
from collections.abc import Iterable, Sequence
from typing import Any, cast

import pluggy
import structlog

from kernel.cards import CardSetInfo, Registry

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
    return sorted(md.entry_points(group=group), key=lambda e: e.name)


def plugin_manager() -> pluggy.PluginManager:
    pm = pluggy.PluginManager("mtgk")
    pm.add_hookspecs(HookSpecs)
    return pm


def load_registry(sets: Sequence[str] | None = None, strict: bool = False,
                  extra: Iterable[tuple[str, Any]] = (), plugins: bool = True) -> Registry:
    """Load card sets (all installed ones, or just ``sets``) and mechanics plugins.

    ``extra`` are ``(name, module_or_object)`` pairs registered as if found
    through an entry point (tests and embedding use it).
    """
    reg = Registry()
    pm = plugin_manager()
    found: list[tuple[str, str, str, Any]] = []
    groups = [(CARDSET_GROUP, sets)] + ([(PLUGIN_GROUP, None)] if plugins else [])
    for group, only in groups:
        for ep in _entry_points(group):
            if only is not None and ep.name not in only:
                continue
            dist = ep.dist.name if ep.dist is not None else "?"
            try:
                obj = ep.load()
            except Exception as exc:  # noqa: BLE001 - any plugin error is reported, not fatal
                _fail(reg, ep.name, dist, f"{type(exc).__name__}: {exc}", strict)
                continue
            found.append((f"{group}:{ep.name}", ep.name, dist, obj))
    for name, obj in extra:
        found.append((f"extra:{name}", name, "(registered directly)", obj))
    for pm_name, name, dist, obj in found:
        try:
            pm.register(obj, name=pm_name)
            pm.check_pending()
        except Exception as exc:  # noqa: BLE001
            if pm.is_registered(obj):
                pm.unregister(obj)
            _fail(reg, name, dist, f"{type(exc).__name__}: {exc}", strict)
    # card sets first (sorted by set name), then mechanics
    infos: list[CardSetInfo] = []
    for impl in pm.hook.mtgk_cardsets.get_hookimpls():
        try:
            # pluggy types a hook implementation's result as ``object``; the hookspec says
            # ``mtgk_cardsets`` gives a list of CardSetInfo
            infos.extend(cast("list[CardSetInfo]", impl.function() or []))
        except Exception as exc:  # noqa: BLE001
            _fail(reg, impl.plugin_name, "?", f"{type(exc).__name__}: {exc}", strict)
    for info in sorted(infos, key=lambda i: i.name):
        if sets is not None and info.name not in sets and not info.name.startswith("_"):
            if not any(n.startswith("extra:") for n, _m, _d, _o in found):
                continue
        reg.add_set(info)
    for impl in sorted(pm.hook.mtgk_register.get_hookimpls(), key=lambda i: i.plugin_name):
        try:
            impl.function(registry=reg)
        except Exception as exc:  # noqa: BLE001
            _fail(reg, impl.plugin_name, "?", f"{type(exc).__name__}: {exc}", strict)
    return reg


def _fail(reg: Registry, name: str, dist: str, error: str, strict: bool) -> None:
    f = LoadFailure(name, dist, error)
    if strict:
        raise PluginError(str(f))
    reg.failures.append((name, error))
    log.warning("plugin failed to load", plugin=name, package=dist, error=error)


def installed_cardsets() -> list[str]:
    return [ep.name for ep in _entry_points(CARDSET_GROUP)]
