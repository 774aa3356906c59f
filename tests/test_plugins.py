"""Card sets as plugins: entry-point discovery, isolation of broken plugins, hook docs."""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

import pytest

from kernel.plugins import HookSpecs, PluginError, load_registry
from kernel.scenario.model import load_scenarios
from kernel.scenario.runner import run_scenario

ROOT = Path(__file__).resolve().parents[1]
PACK = ROOT / "examples" / "example-pack"


def _fake_dist(tmp: Path, dist: str, group: str, name: str, target: str) -> None:
    """Install an entry point the way pip would, without pip: a .dist-info folder."""
    info = tmp / f"{dist}-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[{group}]\n{name} = {target}\n")


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.syspath_prepend(str(PACK))
    yield tmp_path
    for mod in [m for m in sys.modules if m.startswith(("mtgk_example_pack", "broken_pack"))]:
        del sys.modules[mod]


def test_example_pack_loads_through_entry_point(sandbox: Path) -> None:
    _fake_dist(sandbox, "mtgk_example_pack", "mtgk.cardsets", "example", "mtgk_example_pack")
    reg = load_registry()
    assert "example" in reg.sets
    assert reg.sets["example"].version == "0.1.0"
    assert "Sparkmage Apprentice" in reg and "Llanowar Elves" in reg
    assert "Shock" in reg  # the built-in sets load beside it


def test_example_pack_scenario_passes(sandbox: Path) -> None:
    _fake_dist(sandbox, "mtgk_example_pack", "mtgk.cardsets", "example", "mtgk_example_pack")
    reg = load_registry()
    [sc] = load_scenarios(PACK / "scenario_example.yaml")
    result = run_scenario(sc, reg)
    assert result.passed, result.reason


def test_broken_plugin_is_reported_and_others_load(sandbox: Path) -> None:
    (sandbox / "broken_pack.py").write_text("raise RuntimeError('boom at import')\n")
    _fake_dist(sandbox, "broken_pack", "mtgk.cardsets", "broken", "broken_pack")
    reg = load_registry()
    assert [name for name, _ in reg.failures] == ["broken"]
    assert "boom at import" in reg.failures[0][1]
    assert "Shock" in reg and "Jace Beleren" in reg


def test_strict_mode_turns_a_broken_plugin_into_an_error(sandbox: Path) -> None:
    (sandbox / "broken_pack.py").write_text("raise RuntimeError('boom at import')\n")
    _fake_dist(sandbox, "broken_pack", "mtgk.cardsets", "broken", "broken_pack")
    with pytest.raises(PluginError, match="broken"):
        load_registry(strict=True)


def test_misspelled_hook_fails_fast(sandbox: Path) -> None:
    (sandbox / "broken_pack.py").write_text(
        "from kernel.plugins import hookimpl\n"
        "@hookimpl\n"
        "def mtgk_cardset():\n    return []\n")
    _fake_dist(sandbox, "broken_pack", "mtgk.cardsets", "typo", "broken_pack")
    reg = load_registry()
    assert [name for name, _ in reg.failures] == ["typo"]
    assert "mtgk_cardset" in reg.failures[0][1]


def test_only_requested_sets_load() -> None:
    reg = load_registry(["core"])
    assert sorted(reg.sets) == ["core"]
    assert "Shock" in reg and "Jace Beleren" not in reg


def test_every_hookspec_is_documented_with_its_signature() -> None:
    guide = (ROOT / "docs" / "pack-authors.md").read_text(encoding="utf-8")
    specs = [m for m in dir(HookSpecs) if m.startswith("mtgk_")]
    assert specs
    for name in specs:
        fn = getattr(HookSpecs, name)
        assert inspect.getdoc(fn), f"hookspec {name} has no docstring"
        params = [p for p in inspect.signature(fn).parameters if p != "self"]
        sig = f"{name}({', '.join(params)})"
        assert sig in guide, f"docs/pack-authors.md must document `{sig}`"
