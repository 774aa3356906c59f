"""Card sets, mechanics plugins and example packs use the kernel's public API only.

An ast walk over ``cardsets/``, ``plugins/`` and ``examples/*/``: no ``from mtgk... import
_name`` (a private name of another module) and no ``game._attr`` / ``c.game._attr`` (a
private attribute of :class:`mtgk.rules.engine.Game`).  What a card needs is public and
documented (docs/pack-authors.md); this test keeps it so (issue 14).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DIRS = [ROOT / "cardsets", ROOT / "plugins", *sorted((ROOT / "examples").glob("*/"))]
GAME_NAMES = {"game", "g"}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _is_game(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return node.id in GAME_NAMES
    return isinstance(node, ast.Attribute) and node.attr == "game"


def kernel_names(tree: ast.AST) -> set[str]:
    """The names a module binds to the kernel's modules and classes (``from mtgk.rules.engine
    import Game``, ``import mtgk.rules.engine as engine``, ``import mtgk``)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and \
                node.module.split(".")[0] == "mtgk":
            out |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            out |= {a.asname or a.name.split(".")[0] for a in node.names
                    if a.name.split(".")[0] == "mtgk"}
    return out


def violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    rel = path.relative_to(ROOT)
    out: list[str] = []
    kernel = kernel_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and \
                node.module.split(".")[0] == "mtgk":
            out += [f"{rel}:{node.lineno}: imports the private name {a.name!r} of "
                    f"{node.module}" for a in node.names if _private(a.name)]
        elif isinstance(node, ast.Attribute) and _private(node.attr) and _is_game(node.value):
            out.append(f"{rel}:{node.lineno}: reaches into Game's private {node.attr!r}")
        elif isinstance(node, ast.Attribute) and _private(node.attr) and \
                isinstance(node.value, ast.Name) and node.value.id in kernel:
            # ``Game._entered = ...`` (a monkeypatch of a kernel class), ``engine._x``
            out.append(f"{rel}:{node.lineno}: reaches into the private {node.attr!r} of the "
                       f"kernel's {node.value.id}")
    return out


def test_no_private_kernel_names_in_card_sets_plugins_or_packs() -> None:
    found = [v for d in DIRS for p in sorted(d.rglob("*.py")) if ".venv" not in p.parts
             for v in violations(p)]
    assert not found, "\n".join(found)


def test_the_walk_sees_what_it_refuses(tmp_path: Path) -> None:
    bad = ROOT / "plugins" / "_probe_for_test.py"
    assert not bad.exists()
    src = "from mtgk.rules.engine import _plain\n\ndef f(c):\n    c.game._pay(0, None)\n"
    probe = tmp_path / "probe.py"
    probe.write_text(src)
    tree_hits = [v for v in _walk_text(probe)]
    assert any("_plain" in v for v in tree_hits) and any("'_pay'" in v for v in tree_hits)
    # a monkeypatch of a kernel class (the old Morningtide pack's ``Game._entered = ...``)
    bad.write_text("from mtgk.rules.engine import Game\nimport mtgk.rules.zones as zones\n"
                   "Game._entered = lambda *a: None\nx = zones._helper\n")
    try:
        hits = violations(bad)
    finally:
        bad.unlink()
    assert any("'_entered'" in v and "Game" in v for v in hits), hits
    assert any("'_helper'" in v for v in hits), hits


def _walk_text(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and \
                node.module.split(".")[0] == "mtgk":
            out += [a.name for a in node.names if _private(a.name)]
        elif isinstance(node, ast.Attribute) and _private(node.attr) and _is_game(node.value):
            out.append(repr(node.attr))
    return out
