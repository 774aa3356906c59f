"""The import structure of the ``mtgk`` package: its floors, no circles, no private names
taken from another module.

The package stands on floors (:data:`FLOORS`, drawn in docs/architecture.md): a module
imports modules of its own floor or of the floors below it, never above.  The ground is
the log's events and file format; the rules import only the rules and the ground; the
card API (and the plugins written with it) stands on the rules; games are started,
driven, searched and re-run above the card sets; the words (menus, the renderer) above
that; the fronts that drive games for someone else (the scenario runner, the agents'
environments) above the words; the tools on top.

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

FLOORS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ground", ("mtgk", "mtgk.kind", "mtgk.diag", "mtgk.log")),
    ("rules", ("mtgk.rules",)),
    ("card API", ("mtgk.cards", "mtgk.plugins")),
    ("card sets", ("mtgk.cardsets",)),
    ("play", ("mtgk.agents", "mtgk.stepper", "mtgk.search", "mtgk.games")),
    ("words", ("mtgk.menus", "mtgk.render")),
    ("fronts", ("mtgk.scenario", "mtgk.env")),
    ("tools", ("mtgk.tools", "mtgk.__main__")),  # (__main__: python -m mtgk)
)
"""The floors, lowest first: (name, the packages and modules on it).  A name stands for
the module and everything under it, except ``"mtgk"``, which is the package's own
``__init__`` only."""


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


def floor_of(name: str) -> int:
    """The index in :data:`FLOORS` of the floor module ``name`` stands on."""
    best, length = -1, -1
    for i, (_, members) in enumerate(FLOORS):
        for m in members:
            under = name == m or (m != "mtgk" and name.startswith(m + "."))
            if under and len(m) > length:
                best, length = i, len(m)
    if best < 0:
        raise AssertionError(f"{name} stands on no floor: add it to FLOORS")
    return best


def test_every_module_stands_on_a_floor() -> None:
    for name in _graph():
        floor_of(name)


def upward_arrows(mods: dict[str, Module]) -> list[str]:
    """Every import of a module from a floor above its own, as ``file:line: a imports b``."""
    return [f"{_where(mod, line)}: {mod.name} ({FLOORS[floor_of(mod.name)][0]}) imports "
            f"{target} ({FLOORS[floor_of(target)][0]})"
            for mod in mods.values() for target, line in mod.imports.items()
            if floor_of(target) > floor_of(mod.name)]


def test_no_module_imports_from_a_floor_above_its_own() -> None:
    problems = upward_arrows(_graph())
    assert not problems, "\n".join(problems)


def test_the_floors_test_sees_a_wrong_arrow(tmp_path: Path) -> None:
    """The check is not vacuous: the package with one rules module that imports a tool
    (inside a function) has exactly that arrow against the floors."""
    mods = _graph()
    path = ROOT / "kernel" / "rules" / "example.py"  # (named as if there; read from tmp)
    wrong = Module("mtgk.rules.example", tmp_path / "example.py")
    wrong.path.write_text("def f():\n    from mtgk.tools import cli\n", "utf-8")
    _read(wrong, mods)
    wrong.path = path
    assert upward_arrows({**mods, wrong.name: wrong}) == [
        "kernel/rules/example.py:2: mtgk.rules.example (rules) imports mtgk.tools.cli (tools)"]
    assert floor_of("mtgk") == floor_of("mtgk.log.events") == 0


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


def test_only_the_kept_module_reads_validated_mode() -> None:
    """The speed lookups of the rules go through one memo primitive (``KeptFacts.kept``,
    ``confirm``, ``confirm_listed``): no other rules module reads ``validate_caches`` or raises
    ``StaleCache`` itself, and nothing is cached on the registry's ``__dict__`` (its
    derived facts are ``Registry.derived``)."""
    import re

    reads = re.compile(r"\bvalidate_caches\b|raise StaleCache|reg\.__dict__|self\.__dict__")
    found = [f"{mod.path.relative_to(ROOT)}:{n}: {line.strip()}" for mod in _graph().values()
             if mod.name.startswith("mtgk.rules.") and mod.name != "mtgk.rules.kept"
             for n, line in enumerate(mod.path.read_text("utf-8").splitlines(), 1)
             if reads.search(line)]
    assert not found, "\n".join(found)


MAX_LINES = 1000


def test_no_module_is_over_a_thousand_lines() -> None:
    """A room a newcomer can take in: no module of the package over 1,000 lines."""
    sizes = {mod.name: len(mod.path.read_text("utf-8").splitlines())
             for mod in _graph().values()}
    big = {name: n for name, n in sizes.items() if n > MAX_LINES}
    assert not big, f"modules over {MAX_LINES} lines: {big}"


def test_the_rules_ask_for_abilities_by_their_names() -> None:
    """The abilities the rules recognise are named constants (mtgk.rules.names): a typo is
    an ImportError or a mypy error, never a silent ``False``.  No rules module asks
    ``.has("...")`` with a string of its own."""
    found = []
    for mod in _graph().values():
        if not mod.name.startswith("mtgk.rules."):
            continue
        for node in ast.walk(ast.parse(mod.path.read_text("utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "has" and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                found.append(f"{_where(mod, node.lineno)}: .has({node.args[0].value!r})")
    assert not found, "\n".join(found)


def test_zones_and_stack_kinds_are_typed() -> None:
    """An object's zone and a stack item's kind are Literal types, so that mypy
    (strict_equality, pyproject.toml) rejects a comparison with a misspelt name; a log
    that names no zone doesn't fold."""
    import tomllib
    import typing

    import pytest

    from mtgk.rules import names
    from mtgk.rules.structs import Obj, StackItem

    hints = typing.get_type_hints(Obj)
    assert typing.get_args(hints["zone"]) == names.ZONES
    assert typing.get_args(typing.get_type_hints(StackItem)["kind"]) == names.STACK_KINDS
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["mypy"]
    assert mypy.get("strict_equality") is True
    with pytest.raises(ValueError, match="is not a zone"):
        names.zone_named("batlefield")
    from mtgk.log import events as ev
    from mtgk.rules.state import apply, new_state

    s = new_state()
    apply(s, ev.GameStarted(players=("A", "B"), seed=1, profile="lorwyn-2007"))
    with pytest.raises(ValueError, match="'batlefield' is not a zone"):
        apply(s, ev.ObjectCreated(obj=1, card="Gray Ogre", owner=0, zone="batlefield"))


def test_the_player_limit_is_declared_once() -> None:
    """"Two to four players" is one declaration (mtgk.rules.seats: MIN_PLAYERS,
    MAX_PLAYERS, PLAYER_COUNT_WORDS): no other module compares a count with 2 and 4 or
    writes the words in a message."""
    found = []
    for mod in _graph().values():
        if mod.name == "mtgk.rules.seats":
            continue
        tree = ast.parse(mod.path.read_text("utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef)
                and n.body and isinstance(n.body[0], ast.Expr)
                and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in docs and "two to four" in node.value):
                found.append(f"{_where(mod, node.lineno)}: {node.value!r}")
            if isinstance(node, ast.Compare) and len(node.ops) == 2 and all(
                    isinstance(c, ast.Constant) for c in (node.left, node.comparators[1])):
                bounds = (node.left.value, node.comparators[1].value)  # type: ignore[attr-defined]
                if bounds == (2, 4):
                    found.append(f"{_where(mod, node.lineno)}: 2 <= ... <= 4")
    assert not found, "\n".join(found)
