"""One import namespace: the checkout's kernel/, plugins/ and cardsets/ are installed as
``mtgk``, ``mtgk.plugins`` and ``mtgk.cardsets``; the old top-level names give a clear error."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest

from mtgk.cards.loading import load_registry, new_module_name
from tests.conftest import fake_dist

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(("line", "old", "new"), [
    ("from kernel.dsl import CardSet", "kernel.dsl", new_module_name("kernel.dsl")),
    ("import kernel.engine", "kernel.engine", new_module_name("kernel.engine")),
    ("from kernel import events as ev", "kernel.events", "mtgk.log.events"),
    ("from kernel.plugins import hookimpl", "kernel.plugins", new_module_name("kernel.plugins")),
    ("from plugins import evoke", "plugins", "mtgk.plugins"),
    ("from cardsets.lorwyn import cards", "cardsets.lorwyn", "mtgk.cardsets.lorwyn"),
])
def test_a_pack_importing_an_old_name_is_named_with_the_new_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str, old: str, new: str) -> None:
    (tmp_path / "old_names_pack.py").write_text(f'"""A pack of before the move."""\n{line}\n')
    fake_dist(tmp_path, "old_names_pack", "mtgk.cardsets", "oldpack", "old_names_pack")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        reg = load_registry()
    finally:
        sys.modules.pop("old_names_pack", None)
    [(name, error)] = reg.failures
    assert name == "oldpack"
    assert f"import {new!r} instead of {old!r}" in error, error
    assert "old_names_pack.py:2" in error, error
    assert "Shock" in reg and "Jace Beleren" in reg  # the others load


def test_new_names_of_old_modules() -> None:
    assert new_module_name("kernel") == "mtgk"
    assert new_module_name("plugins.evoke") == "mtgk.plugins.evoke"
    assert new_module_name("cardsets") == "mtgk.cardsets"
    assert new_module_name("kernelx.dsl") is None


@pytest.mark.parametrize(("stmt", "new"), [("import kernel.dsl", "'mtgk'"),
                                           ("from plugins import evoke", "'mtgk.plugins'"),
                                           ("import cardsets.lorwyn", "'mtgk.cardsets'")])
def test_the_checkouts_folders_refuse_their_old_names(stmt: str, new: str) -> None:
    """In the checkout, ``import kernel`` would find the folder kernel/ and load every module
    a second time under another name; it is refused with a line saying what to import."""
    r = subprocess.run([sys.executable, "-c", stmt], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode != 0
    assert f"is installed as the package {new}" in r.stderr.splitlines()[-1], r.stderr


def _packages_on_disk() -> set[str]:
    found = set()
    for folder, name in (("kernel", "mtgk"), ("plugins", "mtgk.plugins"),
                         ("cardsets", "mtgk.cardsets")):
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder).parts
            found.add(".".join((name, *rel)))
    return found


def test_every_package_of_the_checkout_is_installed() -> None:
    """pyproject.toml lists the packages (a package-dir mapping can't be searched): a new
    folder with an ``__init__.py`` that is not listed would be missing from the wheel."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    data = {"mtgk.data": ROOT / "kernel" / "data",  # folders of data files, listed too
            "mtgk.tools.viewer_assets": ROOT / "kernel" / "tools" / "viewer_assets"}
    assert set(config["packages"]) - set(data) == _packages_on_disk()
    assert set(data) <= set(config["packages"])
    for folder in data.values():
        assert folder.is_dir() and not list(folder.glob("*.py"))
    assert all(p == "mtgk" or p.startswith("mtgk.") for p in config["packages"])


def test_the_wheel_holds_only_the_mtgk_namespace(tmp_path: Path) -> None:
    src = tmp_path / "src"  # a copy: building writes build/ beside the sources
    for part in ("kernel", "plugins", "cardsets"):
        shutil.copytree(ROOT / part, src / part,
                        ignore=shutil.ignore_patterns("__pycache__"))
    for part in ("pyproject.toml", "README.md"):
        shutil.copyfile(ROOT / part, src / part)
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                        str(tmp_path), str(src)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot build a wheel here: {r.stderr.strip().splitlines()[-1:]}")
    [wheel] = tmp_path.glob("mtgk-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"mtgk"}
    for needed in ("mtgk/py.typed", "mtgk/data/creature_types.txt",
                   "mtgk/tools/viewer_assets/viewer.js", "mtgk/tools/viewer_assets/board.js",
                   "mtgk/plugins/evoke.py",
                   "mtgk/cardsets/lorwyn/cards.json", "mtgk/cardsets/core/tokens.json"):
        assert needed in names, needed


def _migrate() -> Any:
    spec = importlib.util.spec_from_file_location("migrate_imports", ROOT / "dev" / "migrate_imports.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


OLD_PACK = '''"""A pack of before the move."""
from kernel import events as ev
from kernel.cards import CardSetInfo
from kernel.dsl import CardSet, damage, etb, target
from kernel.effects import Ctx, CardError
from kernel.filters import creature_or_player
from kernel.plugins import hookimpl
import kernel.engine
from plugins.evoke import evoke

S = CardSet("oldpack", "0.1.0", __file__)  # cards.json beside it
S.card("Sparkmage Apprentice", etb(damage(1), target(creature_or_player)))
WHERE = "kernel.cli:main", "plugins.json", ev.DamageDealt, Ctx, CardError, evoke


@hookimpl
def mtgk_cardsets() -> list[CardSetInfo]:
    return [S.info()]
'''


def test_migrate_imports_rewrites_an_old_pack_and_names_what_moved() -> None:
    new, notes = _migrate().migrate(OLD_PACK, "old_pack.py")
    assert "from mtgk.log import events as ev\n" in new
    assert "from mtgk.cards.definitions import CardSetInfo\n" in new
    assert "from mtgk.cards.dsl import CardSet, damage, etb, target\n" in new
    assert "from mtgk.cards.loading import hookimpl\n" in new
    assert "import mtgk.rules.engine\n" in new
    assert "from mtgk.plugins.evoke import evoke\n" in new
    assert '"mtgk.tools.cli:main", "plugins.json"' in new  # not a module: left alone
    assert "kernel" not in new.replace('"""A pack of before the move."""', "")
    assert "old_pack.py: CardError is now in mtgk.cards.errors" in notes
    assert any("binds the name 'kernel'" in n for n in notes)


def test_migrate_imports_names_a_monkeypatch_of_a_kernel_class() -> None:
    old = ("from kernel.engine import Game\n\n\ndef _entered(self, *a):\n    pass\n\n\n"
           "Game._entered = _entered\nx = game._pay\n")
    new, notes = _migrate().migrate(old, "old_pack.py")
    assert "from mtgk.rules.engine import Game" in new
    assert any(n.startswith("old_pack.py:8: assigns the private Game._entered") for n in notes), \
        notes
    assert any(n.startswith("old_pack.py:9: uses the private Game._pay") for n in notes), notes


def test_a_migrated_pack_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    new, _ = _migrate().migrate(OLD_PACK.replace("import kernel.engine\n", ""), "")
    # the one moved name, by hand (the note says where it went)
    new = new.replace("from mtgk.cards.effects import Ctx, CardError",
                      "from mtgk.cards.effects import Ctx\nfrom mtgk.cards.errors import CardError")
    (tmp_path / "old_names_pack.py").write_text(new)
    shutil.copyfile(ROOT / "examples" / "example-pack" / "mtgk_example_pack" / "cards.json",
                    tmp_path / "cards.json")
    fake_dist(tmp_path, "old_names_pack", "mtgk.cardsets", "oldpack", "old_names_pack")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        reg = load_registry()
    finally:
        sys.modules.pop("old_names_pack", None)
    assert reg.failures == [] and "Sparkmage Apprentice" in reg
