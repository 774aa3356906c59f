"""Rules scenarios: declarative rules tests read from YAML files.

See :mod:`mtgk.scenario.model` for the file model and the loader,
:mod:`mtgk.scenario.runner` for running scenarios, :mod:`mtgk.scenario.rerun` for
re-running scenario logs (importing this package registers their re-runner with
:func:`mtgk.games.replay.register_rerunner`), and docs/scenarios.md for the file format.
"""

from mtgk.scenario import rerun as rerun  # (registers the scenario logs' re-runner)
from mtgk.scenario.model import (
    ANSWER_KINDS,
    EXPECTATION_ZONES,
    SETUP_ZONES,
    STEPS,
    VARIANTS,
    VERB_KEYS,
    VERBS,
    Action,
    Answer,
    Arrangement,
    CardEntry,
    CountFilter,
    Expectation,
    PassUntil,
    PlayerSetup,
    Scenario,
    ScenarioFileError,
    TurnSpec,
    is_scenario_test_file,
    iter_scenario_files,
    load_scenarios,
    loads_scenarios,
    parse_scenarios,
)

__all__ = [
    "ANSWER_KINDS",
    "EXPECTATION_ZONES",
    "SETUP_ZONES",
    "STEPS",
    "VARIANTS",
    "VERBS",
    "VERB_KEYS",
    "Action",
    "Answer",
    "Arrangement",
    "CardEntry",
    "CountFilter",
    "Expectation",
    "PassUntil",
    "PlayerSetup",
    "Scenario",
    "ScenarioFileError",
    "TurnSpec",
    "is_scenario_test_file",
    "iter_scenario_files",
    "load_scenarios",
    "loads_scenarios",
    "parse_scenarios",
]
