"""Which kernel runs (mtgk.kind): ``mtgk --version`` names it, ``MTGK_PURE=1`` selects the
pure-Python one even where compiled modules are installed, and both play the reference
games to the same bytes.

Run in an editable install (pure) these check the switch and the report; run in an
install built by ``pip install .`` with a C compiler (CI's second run, which sets
``MTGK_EXPECT_COMPILED=1``) they also check that the compiled modules are the ones loaded
and that they play the same games as the pure ones.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import mtgk
from mtgk import kind

ROOT = Path(__file__).resolve().parents[1]

# plays games 0 and 1 of each reference deck (bench/reference.py) and prints their digests
_REFERENCE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import reference
reference.GAMES_PER_DECK = 2
import mtgk.kind
print(json.dumps({"kind": mtgk.kind.describe(), "digests": reference.digests()}))
"""


def _python(code: str, *args: str, pure: bool) -> str:
    env = dict(os.environ)
    env.pop(kind.PURE_ENV, None)
    if pure:
        env[kind.PURE_ENV] = "1"
    r = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _version(pure: bool) -> str:
    out = _python("import sys; from mtgk.tools.cli import main; sys.exit(main(['--version']))",
                  pure=pure)
    return out.splitlines()[0]


def _installed_compiled() -> bool:
    """Whether compiled modules of the kernel sit beside its sources (a compiled build)."""
    rules = Path(mtgk.__file__).parent / "rules"
    return any(rules.glob("engine.*.so")) or any(rules.glob("engine.*.pyd"))


def test_version_names_the_kernel_that_runs() -> None:
    line = _version(pure=False)
    assert line.startswith(f"mtgk {mtgk.__version__} (kernel: {kind.describe()}, ")
    if _installed_compiled() and not kind.pure_selected():
        assert f"kernel: compiled (mypyc, {len(kind.COMPILED)} modules)" in line
    else:
        assert "kernel: pure Python" in line


def test_mtgk_pure_selects_the_pure_kernel() -> None:
    line = _version(pure=True)
    assert f"kernel: pure Python ({kind.PURE_ENV}=1)" in line
    files = _python("import json, importlib, mtgk.kind as k; print(json.dumps("
                    "[importlib.import_module(m).__file__ for m in k.COMPILED]))", pure=True)
    for path in json.loads(files):
        assert path.endswith(".py"), path


def test_the_pure_finder_only_takes_the_listed_modules() -> None:
    out = _python("import mtgk.log.events as e, mtgk.rules.state as s; "
                  "print(e.__spec__.loader.__class__.__name__, s.__file__)", pure=True)
    loader, state_file = out.split()
    assert state_file.endswith("state.py")
    # modules outside COMPILED are found the ordinary way (not by the pure finder)
    assert "mtgk.log.events" not in kind.COMPILED and loader != "_PureFinder"


@pytest.mark.skipif(os.environ.get("MTGK_EXPECT_COMPILED", "") in ("", "0"),
                    reason="only where a compiled build is expected (CI's second run)")
def test_the_compiled_kernel_is_the_one_loaded() -> None:
    assert not kind.pure_selected()
    assert kind.compiled_modules() == list(kind.COMPILED)
    assert kind.describe() == f"compiled (mypyc, {len(kind.COMPILED)} modules)"
    assert kind.build_note() == "compiled"


def test_both_kernels_play_the_reference_games_identically() -> None:
    recorded = {}
    for line in (ROOT / "bench" / "reference-digests.txt").read_text().splitlines():
        log, events, name = line.split(" ", 2)
        recorded[name] = f"{log} {events} {name}"
    runs = {}
    for pure in (False, True):
        runs[pure] = json.loads(_python(_REFERENCE, str(ROOT / "bench"), pure=pure))
    assert runs[True]["kind"].startswith("pure Python")
    assert runs[False]["kind"] == kind.describe()
    assert len(runs[False]["digests"]) == 6
    assert runs[False]["digests"] == runs[True]["digests"]
    for line in runs[False]["digests"]:
        assert recorded[line.split(" ", 2)[2]] == line


def _setup_module() -> dict[str, object]:
    import runpy

    return runpy.run_path(str(ROOT / "setup.py"), run_name="mtgk_setup")  # no setup() call


def test_a_build_without_a_c_compiler_installs_the_pure_kernel(
        monkeypatch: pytest.MonkeyPatch) -> None:
    why_pure = _setup_module()["why_pure"]
    monkeypatch.delenv("MTGK_BUILD_PURE", raising=False)
    monkeypatch.setenv("CC", str(ROOT / "no-such-compiler"))
    assert why_pure() == "built without a C compiler"  # type: ignore[operator]
    monkeypatch.setenv("MTGK_BUILD_PURE", "1")
    assert why_pure() == "built with MTGK_BUILD_PURE set"  # type: ignore[operator]


def test_the_build_compiles_the_listed_modules() -> None:
    assert _setup_module()["compiled_modules"]() == list(kind.COMPILED)  # type: ignore[operator]
    for name in kind.COMPILED:  # each is a module of the checkout
        folder, _, rest = name.removeprefix("mtgk.").partition(".")
        assert (ROOT / "kernel" / folder / f"{rest}.py").is_file(), name


def test_version_says_why_an_installed_kernel_is_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    if kind.compiled_modules():
        pytest.skip("the compiled kernel is loaded")
    monkeypatch.delenv(kind.PURE_ENV, raising=False)
    monkeypatch.setattr(kind, "build_note", lambda: "built without a C compiler")
    assert kind.describe() == "pure Python (built without a C compiler)"
    monkeypatch.setattr(kind, "build_note", lambda: "")
    assert kind.describe() == "pure Python"


def test_a_games_log_outlives_the_game_and_a_garbage_collection() -> None:
    """The log a finished game leaves stays whole after the game is gone and the cyclic
    garbage collector has run while other games are played.  Failed on the compiled
    kernel before d1ee8f8 (the list came back empty: the collector cleared it with the
    compiled Game; see the next test for why)."""
    import gc

    from mtgk.agents import HeuristicAgent
    from mtgk.cards.loading import load_registry
    from mtgk.games.replay import new_header, run_from_header

    reg = load_registry()
    header = new_header(reg, ["Ann", "Bob"], [["20 Mountain"], ["20 Mountain"]], seed=1,
                        meta={"max_turns": 6})
    for _ in range(3):
        log = run_from_header(reg, header, [HeuristicAgent(2), HeuristicAgent(3)]).log
        n = len(log)
        gc.collect()
        run_from_header(reg, header, [HeuristicAgent(2), HeuristicAgent(3)])
        assert len(log) == n > 300


def _declared_attributes() -> dict[str, tuple[list[str], set[str]]]:
    """Each class of a compiled module: its bases' names and the attributes it declares with
    a type (``x: T`` in its body, ``self.x: T = ...`` in a method), read from the sources."""
    import ast

    classes: dict[str, tuple[list[str], set[str]]] = {}
    for name in kind.COMPILED:
        folder, _, rest = name.removeprefix("mtgk.").partition(".")
        tree = ast.parse((ROOT / "kernel" / folder / f"{rest}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef):
                continue
            bases = [b.id if isinstance(b, ast.Name) else ast.unparse(b) for b in node.bases]
            attrs = {n.target.id for n in node.body
                     if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
            for n in ast.walk(node):
                if (isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Attribute)
                        and isinstance(n.target.value, ast.Name) and n.target.value.id == "self"):
                    attrs.add(n.target.attr)
            assert node.name not in classes, f"two classes named {node.name}"
            classes[node.name] = (bases, attrs)
    return classes


def test_no_compiled_class_declares_an_attribute_a_base_declares() -> None:
    """mypyc's garbage-collector support visits an attribute once for each class of the
    MRO that declares it (with a type): declared twice, the object it holds counts as
    referenced twice, and the cyclic collector frees it while it is still in use.  That
    emptied the log list of a freed compiled Game (``log`` declared by KeptFacts and again
    by GameCore.__init__).  Read from the sources, so it fails on either kernel."""
    classes = _declared_attributes()

    def ancestors(name: str) -> list[str]:
        out: list[str] = []
        for base in classes[name][0] if name in classes else []:
            if base in classes:
                out += [base, *ancestors(base)]
        return out

    twice = sorted(f"{name}.{attr} (also declared by {base})"
                   for name, (_, attrs) in classes.items()
                   for base in dict.fromkeys(ancestors(name))
                   for attr in sorted(attrs & classes[base][1]))
    assert twice == []


def test_each_compiled_class_has_each_attribute_once() -> None:
    """The compiled classes themselves (``__mypyc_attrs__``) list each attribute once, and
    the collector sees a game's log and state once each."""
    import collections
    import gc
    import importlib
    import inspect

    if not kind.compiled_modules():
        pytest.skip("the pure kernel is loaded")
    twice = []
    for name in kind.COMPILED:
        for cls_name, cls in vars(importlib.import_module(name)).items():
            if inspect.isclass(cls) and cls.__module__ == name:
                counts = collections.Counter(getattr(cls, "__mypyc_attrs__", ()))
                twice += [f"{cls_name}.{a}" for a, n in counts.items() if n > 1]
    assert twice == []
    from mtgk.cards.loading import load_registry
    from mtgk.rules.engine import Game

    game = Game(load_registry(), ["Ann", "Bob"], seed=1)
    seen = [r for r in gc.get_referents(game) if r is game.log or r is game.state]
    assert len(seen) == 2
