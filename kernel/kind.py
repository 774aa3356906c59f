"""Which kernel runs: the pure-Python modules, or the same modules compiled with mypyc.

``pip install .`` compiles the modules of :data:`COMPILED` with mypyc when a C compiler is
there (setup.py); the ``.py`` files are installed beside the compiled ones, and the
compiled ones win an ``import``.  Setting the environment variable ``MTGK_PURE=1`` before
the first ``import mtgk`` makes every module of :data:`COMPILED` load from its ``.py``
file instead (:func:`select`, called by ``mtgk/__init__.py``, puts a finder first on
``sys.meta_path``).  An editable install (``pip install -e .``) compiles nothing.  Card
sets and plugins are never compiled: they see the same classes and functions either way.

``mtgk --version`` prints :func:`describe` (docs/benchmarks.md, "Compiled kernel").
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

COMPILED: tuple[str, ...] = (
    "mtgk.log.codec",
    "mtgk.log.damage",
    "mtgk.log.jsonl",
    "mtgk.log.loaded",
    "mtgk.log.logfile",
    "mtgk.log.reader",
    "mtgk.log.upcasting",
    "mtgk.log.writer",
    "mtgk.rules.actions",
    "mtgk.rules.casting",
    "mtgk.rules.chars",
    "mtgk.rules.combat",
    "mtgk.rules.core",
    "mtgk.rules.damage",
    "mtgk.rules.engine",
    "mtgk.rules.kept",
    "mtgk.rules.layers",
    "mtgk.rules.mana",
    "mtgk.rules.names",
    "mtgk.rules.parts",
    "mtgk.rules.payment",
    "mtgk.rules.priority",
    "mtgk.rules.sba",
    "mtgk.rules.seats",
    "mtgk.rules.state",
    "mtgk.rules.subtypes",
    "mtgk.rules.triggers",
    "mtgk.rules.turns",
    "mtgk.rules.visibility",
    "mtgk.rules.zones",
)
"""The modules a compiled build compiles (setup.py reads this list): the rules engine --
``Game`` is a native class, its parts traits --, the projector ``state`` and the log
file, ``mtgk.log.logfile`` with the modules it re-exports (the reader's record and block
decode loops, the writer and the block codec above all).  Everything else is always
interpreted: the log's events, the card API, the tools, the plugins and the card sets,
and the modules that define msgspec Structs
(``mtgk.rules.structs``, ``mtgk.log.structs``: a Struct compiled by mypyc loses its
precise annotations), classes that plugins subclass (``replacement``: mypyc checks the
exact type of a compiled class's instances) or classes with an abstract base
(``options``: a compiled subclass of ``collections.abc.Sequence`` shares its base's
registry, so that ``isinstance([], Options)`` would be true)."""


PURE_ENV = "MTGK_PURE"
"""The environment variable that selects the pure-Python kernel (any value but ``""`` or
``"0"``)."""

BUILD_NOTE = "kernel-build.txt"
"""The file a non-editable build leaves in the package: ``compiled`` or why it is not."""


def pure_selected() -> bool:
    """Whether ``MTGK_PURE`` asks for the pure-Python kernel."""
    return os.environ.get(PURE_ENV, "") not in ("", "0")


class _PureFinder:
    """Finds the modules of :data:`COMPILED` as their ``.py`` files (``MTGK_PURE=1``)."""

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if name not in COMPILED or not path:
            return None
        leaf = name.rpartition(".")[2]
        for folder in path:
            source = Path(folder) / f"{leaf}.py"
            if source.is_file():
                loader = importlib.machinery.SourceFileLoader(name, str(source))
                return importlib.util.spec_from_file_location(name, source, loader=loader)
        return None


def select() -> None:
    """Called as ``mtgk`` is imported: with ``MTGK_PURE`` set, load :data:`COMPILED` from
    source."""
    if pure_selected() and not any(isinstance(f, _PureFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PureFinder())


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED` that are (or, not imported yet, would be) loaded
    from compiled extension modules: a loaded module's file, else where the import system
    finds it (without running it -- ``mtgk --version`` stays quick)."""
    out = []
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for name in COMPILED:
        module = sys.modules.get(name)
        if module is not None:
            origin = str(getattr(module, "__file__", ""))
        else:
            spec = importlib.util.find_spec(name)
            origin = str(spec.origin) if spec is not None else ""
        if origin.endswith(suffixes):
            out.append(name)
    return out


def build_note() -> str:
    """What the installing build recorded (``compiled``, or why not); ``""`` for an
    editable install or a checkout."""
    note = Path(__file__).with_name(BUILD_NOTE)
    try:
        return note.read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def describe() -> str:
    """The kernel that runs, in words: ``compiled (mypyc, 14 modules)``, ``pure Python``,
    ``pure Python (MTGK_PURE=1)`` or ``pure Python (built without a C compiler)``."""
    done = compiled_modules()
    if done and len(done) == len(COMPILED):
        return f"compiled (mypyc, {len(done)} modules)"
    if done:  # some compiled, some not: an install that was changed by hand
        return f"mixed: {len(done)} of {len(COMPILED)} modules compiled"
    note = build_note()
    if pure_selected():
        return f"pure Python ({PURE_ENV}={os.environ[PURE_ENV]})"
    if note and note != "compiled":
        return f"pure Python ({note})"
    return "pure Python"
