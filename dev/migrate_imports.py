"""Rewrite the old import names (``kernel``, ``plugins``, ``cardsets``) in Python files to the
``mtgk`` namespace: ``python dev/migrate_imports.py FILE_OR_FOLDER ...``.

For a card pack (or a branch) written before the move.  The new name of each old module is
:data:`mtgk.cards.loading.RENAMED_MODULES`.  Rewritten: ``from OLD import ...``,
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

_TOPS = ("kernel", "plugins", "cardsets")
_FROM = re.compile(r"(?m)^(\s*(?:>>> )?)from\s+((?:kernel|plugins|cardsets)(?:\.\w+)*)\s+import\s+"
                   r"(\([^)]*\)|[^\n]*)")
_IMPORT = re.compile(r"(?m)^(\s*(?:>>> )?)import\s+((?:kernel|plugins|cardsets)(?:\.\w+)*)(\s+as\s+\w+)?\s*$")
_QUOTED = re.compile(r"""(["'])((?:kernel|plugins|cardsets)(?:\.\w+)+)([:.]\w+)*\1""")


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

    text = _FROM.sub(from_, text)
    text = _IMPORT.sub(import_, text)
    text = _QUOTED.sub(quoted, text)
    return text, notes


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
