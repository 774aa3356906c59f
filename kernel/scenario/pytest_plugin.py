"""pytest plugin: every ``scenario_*.yaml`` / ``*.scenario.yaml`` file is a test file.

Registered through the ``pytest11`` entry point, so ``pytest`` in a card
pack's repository runs its scenarios: one test item per scenario.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

_registry: Any = None


def _reg() -> Any:
    global _registry
    if _registry is None:
        from mtgk.cards.loading import load_registry
        _registry = load_registry()
    return _registry


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    from mtgk.scenario.reader import is_scenario_test_file
    if file_path.suffix == ".yaml" and is_scenario_test_file(file_path):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self) -> Any:
        from mtgk.scenario.runner import load_file
        for sc in load_file(self.path, _reg()):
            yield ScenarioItem.from_parent(self, name=sc.name, scenario=sc)


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario: Any, **kw: Any) -> None:
        super().__init__(**kw)
        self.scenario = scenario

    def runtest(self) -> None:
        from mtgk.scenario.play import run_scenario
        result = run_scenario(self.scenario, _reg())
        if not result.passed:
            raise ScenarioFailure(result.reason)

    def repr_failure(self, excinfo: Any, style: Any = None) -> Any:
        if isinstance(excinfo.value, ScenarioFailure):
            return f"scenario {self.name!r} failed: {excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int, str]:
        return self.path, 0, f"scenario: {self.name}"


class ScenarioFailure(Exception):
    pass
