"""Rewrite the old import names (``kernel``, ``plugins``, ``cardsets``) in Python files to the
``mtgk`` namespace: ``python dev/migrate_imports.py FILE_OR_FOLDER ...``.

For a card pack (or a branch) written before the move.  The new name of each old module is
:data:`mtgk.cards.loading.RENAMED_MODULES`.  Code written against the flat ``mtgk.X`` names
of the first step of the move (``mtgk.engine``, ``mtgk.events``, ``mtgk.loading`` ...) is
rewritten too (:data:`FLAT_MODULES`); code already in the packages is left as it is.  Rewritten: ``from OLD import ...``,
``import OLD`` and quoted dotted names (``"kernel.cli:main"``, a ``monkeypatch`` target).
A name that moved to another module on the way (``AGENTS``, ``CardError``, ...) or that is
private is not rewritten but reported, one line each, for a person to look at.  Files are
rewritten in place; ``--check`` only reports (exit status 1 if a file would change).
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

from mtgk.cards.loading import RENAMED_MODULES, new_module_name

MOVED_NAMES: dict[tuple[str, str], str] = {
    ("kernel.cli", "AGENTS"): "mtgk.agents",
    ("kernel.effects", "CardError"): "mtgk.cards.errors",
    ("kernel.effects", "blame"): "mtgk.cards.errors",
    ("kernel.effects", "describe_ability"): "mtgk.cards.errors",
    ("kernel.engine", "event_from_data"): "mtgk.log.events",
    ("kernel.render", "register_renderer"): "mtgk.cards.rendering",
    ("kernel.render", "RENDERERS"): "mtgk.cards.rendering",
}
"""Names that left their module in the move: (old module, name) -> the new module."""

FLAT_MODULES: dict[str, str] = {
    ("mtgk." + old.removeprefix("kernel.") if old != "kernel.plugins" else "mtgk.loading"): new
    for old, new in RENAMED_MODULES.items()
    if old.startswith("kernel.") and new != "mtgk." + old.removeprefix("kernel.")}
"""The flat names of the first step (``mtgk.engine``) -> the packages (``mtgk.rules.engine``)."""

_CARDS_MODULES = ("definitions", "dsl", "filters", "effects", "loading", "decks", "errors",
                  "rendering")
_FLAT_FROM = re.compile(r"(?m)^(\s*(?:>>> )?)from\s+(mtgk(?:\.\w+)*)\s+import\s+(\([^)]*\)|[^\n]*)")
_FLAT_IMPORT = re.compile(r"(?m)^(\s*(?:>>> )?)import\s+(mtgk(?:\.\w+)*)(\s+as\s+\w+)?[ \t]*$")
_FLAT_QUOTED = re.compile(r"""(["'])(mtgk(?:\.\w+){2,}|mtgk\.\w+(?=:))(:\w+)?\1""")


def _flat(name: str, exact: bool = False) -> str:
    """The package name of a flat ``mtgk.X`` name (a module, or a dotted name in it)."""
    if name in FLAT_MODULES:
        return FLAT_MODULES[name]
    if exact:
        return name
    for old in sorted(FLAT_MODULES, key=len, reverse=True):
        if name.startswith(old + "."):
            rest = name[len(old) + 1:]
            if old == "mtgk.cards" and rest.split(".")[0] in _CARDS_MODULES:
                return name  # already the package mtgk.cards
            return FLAT_MODULES[old] + "." + rest
    return name


_TOPS = ("kernel", "plugins", "cardsets")
_FROM = re.compile(r"(?m)^(\s*(?:>>> )?)from\s+((?:kernel|plugins|cardsets)(?:\.\w+)*)\s+import\s+"
                   r"(\([^)]*\)|[^\n]*)")
_IMPORT = re.compile(r"(?m)^(\s*(?:>>> )?)import\s+((?:kernel|plugins|cardsets)(?:\.\w+)*)(\s+as\s+\w+)?[ \t]*$")
# quoted dotted names of an attribute or an entry point ("kernel.engine.Game.run",
# "kernel.cli:main"); a bare module name in quotes may be data (a table of old names)
_QUOTED = re.compile(r"""(["'])((?:kernel|plugins|cardsets)(?:\.\w+){2,}|(?:kernel|plugins|cardsets)\.\w+(?=:))(:\w+)?\1""")


def _names(imported: str) -> list[str]:
    return [n.split(" as ")[0].strip() for n in imported.strip("()").replace("\n", " ").split(",")
            if n.strip() and not n.strip().startswith("#")]


def _module(old: str) -> str:
    return new_module_name(old) or old


def migrate(text: str, where: str = "") -> tuple[str, list[str]]:
    """``text`` with the old import names rewritten, and the lines a person should look at."""
    notes: list[str] = []

    def from_(m: re.Match[str]) -> str:
        old, names = m.group(2), m.group(3)
        if old in _TOPS:  # from kernel import events as ev -> from mtgk.log import events as ev
            first = _names(names)[0] if _names(names) else ""
            sub = f"{old}.{first}"
            if sub in RENAMED_MODULES and len(_names(names)) == 1:
                pkg, _, name = RENAMED_MODULES[sub].rpartition(".")
                return f"{m.group(1)}from {pkg} import {names.replace(first, name, 1)}"
        for name in _names(names):
            if (old, name) in MOVED_NAMES:
                notes.append(f"{where}: {name} is now in {MOVED_NAMES[(old, name)]}")
            elif name.startswith("_"):
                notes.append(f"{where}: {old}.{name} is private: it may have moved or changed")
        return f"{m.group(1)}from {_module(old)} import {names}"

    def import_(m: re.Match[str]) -> str:
        if not m.group(3):
            notes.append(f"{where}: 'import {m.group(2)}' binds the name {m.group(2).split('.')[0]!r}: "
                         "uses of it need the new name too")
        return f"{m.group(1)}import {_module(m.group(2))}{m.group(3) or ''}"

    def quoted(m: re.Match[str]) -> str:
        old = m.group(2)
        module = _module(".".join(old.split(".")[:2]))
        try:
            known = importlib.util.find_spec(module) is not None
        except ImportError:
            known = False
        if not known:  # a dotted string that names no old module ("plugins.json")
            return m.group(0)
        return f"{m.group(1)}{_module(old)}{m.group(0)[len(m.group(1)) + len(old):]}"

    def flat_from(m: re.Match[str]) -> str:
        old, names = m.group(2), m.group(3)
        if old == "mtgk":  # from mtgk import events as ev -> from mtgk.log import events as ev
            only = _names(names)
            if len(only) == 1 and f"mtgk.{only[0]}" in FLAT_MODULES:
                pkg, _, name = FLAT_MODULES[f"mtgk.{only[0]}"].rpartition(".")
                return f"{m.group(1)}from {pkg} import {names.replace(only[0], name, 1)}"
            return m.group(0)
        if old == "mtgk.cards" and all(n in _CARDS_MODULES for n in _names(names)):
            return m.group(0)  # from mtgk.cards import filters: the package already
        new = _flat(old, exact=True)
        for name in _names(names):
            kernel_name = "kernel." + old.removeprefix("mtgk.")
            if (kernel_name, name) in MOVED_NAMES and new != old:
                notes.append(f"{where}: {name} is now in {MOVED_NAMES[(kernel_name, name)]}")
        return f"{m.group(1)}from {new} import {names}"

    def flat_import(m: re.Match[str]) -> str:
        new = _flat(m.group(2), exact=True)
        if new != m.group(2) and not m.group(3):
            notes.append(f"{where}: 'import {m.group(2)}': uses of {m.group(2)}.NAME need the "
                         f"new name ({new}) too")
        return f"{m.group(1)}import {new}{m.group(3) or ''}"

    def flat_quoted(m: re.Match[str]) -> str:
        old = m.group(2)
        return f"{m.group(1)}{_flat(old)}{m.group(0)[len(m.group(1)) + len(old):]}"

    text = _FROM.sub(from_, text)
    text = _IMPORT.sub(import_, text)
    text = _QUOTED.sub(quoted, text)
    text = _FLAT_FROM.sub(flat_from, text)
    text = _FLAT_IMPORT.sub(flat_import, text)
    text = _FLAT_QUOTED.sub(flat_quoted, text)
    return text, notes + private_reaches(text, where)


def private_reaches(text: str, where: str = "") -> list[str]:
    """The places (rewritten) code reaches a private attribute of the kernel, one line each:
    of a name bound to a kernel module or class (``Game._entered = ...``, a monkeypatch;
    ``engine._plain``) or of a game (``game._pay``, ``c.game._pay``).  Nothing is
    rewritten: the public way (docs/pack-authors.md) is for a person to choose."""
    import ast

    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    kernel: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and \
                node.module.split(".")[0] == "mtgk":
            kernel |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            kernel |= {a.asname or a.name.split(".")[0] for a in node.names
                       if a.name.split(".")[0] == "mtgk"}
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                and not node.attr.endswith("__")):
            continue
        v = node.value
        if isinstance(v, ast.Name) and v.id in kernel:
            who = v.id
        elif isinstance(v, ast.Name) and v.id in ("game", "g") or \
                isinstance(v, ast.Attribute) and v.attr == "game":
            who = "Game"
        else:
            continue
        what = "assigns" if isinstance(node.ctx, ast.Store) else "uses"
        out.append((node.lineno, f"{where}:{node.lineno}: {what} the private {who}.{node.attr}: "
                    "the kernel may change it without notice (a public way: "
                    "docs/pack-authors.md)"))
    return [note for _line, note in sorted(out)]


def main(argv: list[str]) -> int:
    check = "--check" in argv
    paths = [Path(a) for a in argv if a != "--check"]
    files = sorted(f for p in paths for f in ([p] if p.is_file() else p.rglob("*.py")))
    changed = 0
    for f in files:
        text = f.read_text("utf-8")
        new, notes = migrate(text, str(f))
        for note in notes:
            print(note)
        if new != text:
            changed += 1
            if not check:
                f.write_text(new, "utf-8")
            print(f"{f}: {'would be ' if check else ''}rewritten")
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
