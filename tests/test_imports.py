"""The import structure of the ``mtgk`` package: no circles, no private names taken from
another module, and the rules core (and everything else but the tools) imports no tool.

The tools are :mod:`mtgk.tools` and, beside them, the two front ends that drive games for
someone else: the scenario runner :mod:`mtgk.scenario` (it plays scenarios and reports
them in words, through the tools' renderer) and the agents' step environment
:mod:`mtgk.env` (its observations' readable form is the tools' board text); the rules
core, the card API, the log, the agents, the plugins and the card sets import none of them.

Every module of the checkout's ``kernel/``, ``plugins/`` and ``cardsets/`` folders (the
packages ``mtgk``, ``mtgk.plugins`` and ``mtgk.cardsets``) is read with :mod:`ast`; an
import counts wherever it is written (also inside a function), except under
``if TYPE_CHECKING:``, which is for annotations only and never runs.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYOUT = (("kernel", "mtgk"), ("plugins", "mtgk.plugins"), ("cardsets", "mtgk.cardsets"))
TOOLS = ("mtgk.tools", "mtgk.scenario", "mtgk.env", "mtgk.__main__")  # (__main__: python -m mtgk)


@dataclass
class Module:
    """One module: where it is, what it imports (module -> first line), the private names
    it takes from other modules (``from m import _x`` or ``m._x``)."""

    name: str
    path: Path
    imports: dict[str, int] = field(default_factory=dict)
    private: list[tuple[int, str]] = field(default_factory=list)


def _modules() -> dict[str, Module]:
    found: dict[str, Module] = {}
    for folder, package in LAYOUT:
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            name = ".".join((package, *parts))
            found[name] = Module(name, path)
    return found


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _read(mod: Module, names: dict[str, Module]) -> None:
    tree = ast.parse(mod.path.read_text("utf-8"), str(mod.path))
    package = mod.name if mod.path.name == "__init__.py" else mod.name.rpartition(".")[0]
    aliases: dict[str, str] = {}  # a local name bound to one of our modules

    def add(target: str, line: int) -> None:
        if target != mod.name:
            mod.imports.setdefault(target, line)

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if _is_type_checking(child):
                assert isinstance(child, ast.If)
                for other in child.orelse:
                    visit_node(other)
                continue
            visit_node(child)

    def visit_node(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name in names:
                    add(a.name, node.lineno)
                    aliases[a.asname or a.name.split(".")[0]] = (
                        a.name if a.asname else a.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            for a in node.names:
                sub = f"{base}.{a.name}"
                if sub in names:
                    add(sub, node.lineno)
                    aliases[a.asname or a.name] = sub
                elif base in names:
                    add(base, node.lineno)
                    if a.name.startswith("_") and not a.name.startswith("__"):
                        mod.private.append((node.lineno, f"{base}.{a.name}"))
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and node.value.id in aliases and node.attr.startswith("_")
              and not node.attr.startswith("__")):
            mod.private.append((node.lineno, f"{aliases[node.value.id]}.{node.attr}"))
        visit(node)

    visit(tree)


def _graph() -> dict[str, Module]:
    names = _modules()
    for mod in names.values():
        _read(mod, names)
    return names


def _circles(mods: dict[str, Module]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in mods[v].imports:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(mods):
        if v not in index:
            connect(v)
    return out


def _where(mod: Module, line: int) -> str:
    return f"{mod.path.relative_to(ROOT)}:{line}"


def test_the_walk_sees_the_package() -> None:
    mods = _graph()
    assert len(mods) > 80
    assert "mtgk.plugins.evoke" in mods and "mtgk.cardsets.lorwyn" in mods
    assert any(m.imports for m in mods.values())


def test_no_import_circles() -> None:
    mods = _graph()
    problems = []
    for circle in _circles(mods):
        ties = [f"{a} -> {b} ({_where(mods[a], mods[a].imports[b])})"
                for a in circle for b in mods[a].imports if b in circle]
        problems.append("circle: " + ", ".join(circle) + "\n    " + "\n    ".join(ties))
    assert not problems, "\n".join(problems)


def test_no_private_names_from_other_modules() -> None:
    mods = _graph()
    problems = [f"{_where(mod, line)}: {what}" for mod in mods.values()
                for line, what in mod.private if what.rpartition(".")[0] != mod.name]
    assert not problems, "\n".join(problems)


def _is_tool(name: str) -> bool:
    return any(name == t or name.startswith(t + ".") for t in TOOLS)


def test_nothing_but_the_tools_imports_a_tool() -> None:
    mods = _graph()
    problems = [f"{_where(mod, line)}: {mod.name} imports {target}"
                for mod in mods.values() if not _is_tool(mod.name)
                for target, line in mod.imports.items() if _is_tool(target)]
    assert not problems, "\n".join(problems)


def test_the_rules_core_is_split_into_modules_under_800_lines() -> None:
    """The rules core (mtgk.rules) is laid out by the parts of the rules it implements;
    none of its modules reaches 800 lines, and ``Game`` is put together from the parts."""
    from mtgk.rules.core import GameCore
    from mtgk.rules.engine import Game

    sizes = {p.name: len(p.read_text("utf-8").splitlines())
             for p in (ROOT / "kernel" / "rules").glob("*.py")}
    assert max(sizes.values()) < 800, sizes
    parts = [c for c in Game.__mro__ if c.__module__.startswith("mtgk.rules.")
             and c not in (Game, GameCore)]
    assert len({c.__module__ for c in parts}) >= 10, parts


def test_the_rules_modules_doctests() -> None:
    import doctest

    import mtgk.rules.core
    import mtgk.rules.engine

    for mod in (mtgk.rules.engine, mtgk.rules.core):
        assert doctest.testmod(mod).failed == 0, mod.__name__


def test_only_the_kept_module_bumps_the_versions_of_kept_facts() -> None:
    """What the engine keeps across events is forgotten in one place (mtgk.rules.kept):
    no other module of the rules, the plugins or the card sets changes its versions."""
    import re

    bump = re.compile(r"self\.(_version|_sba_version|_chars_version|_taps|_chars_reads|"
                      r"_sba_parts|_effects_seen|_hooks)\s*(\+=|=[^=])")
    found = [f"{mod.path.relative_to(ROOT)}:{n}" for mod in _graph().values()
             if mod.name != "mtgk.rules.kept"
             for n, line in enumerate(mod.path.read_text("utf-8").splitlines(), 1)
             if bump.search(line)]
    assert not found, found
