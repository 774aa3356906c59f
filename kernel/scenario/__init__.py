"""Rules scenarios: declarative rules tests read from YAML files.

See docs/scenarios.md for the file format.  The file side: :mod:`mtgk.scenario.model`
(the vocabulary and the model Structs), :mod:`mtgk.scenario.reader` (reading files: the
entry points), :mod:`mtgk.scenario.validation` (checking every key and value),
:mod:`mtgk.scenario.errors` (:class:`ScenarioFileError` and its messages).  The running
side: :mod:`mtgk.scenario.board` (setting a scenario's position up, naming its objects),
:mod:`mtgk.scenario.actions` (a scenario's actions as the engine's actions),
:mod:`mtgk.scenario.answers` (answers as the engine's options),
:mod:`mtgk.scenario.play` (the scripted agent that plays a scenario: :class:`ScenarioRun`,
:func:`run_scenario`), :mod:`mtgk.scenario.expectations` (checking expectations),
:mod:`mtgk.scenario.logs` (the scenario's log files) and :mod:`mtgk.scenario.runner`
(running files, the ``mtgk scenario`` command); :mod:`mtgk.scenario.rerun` re-runs
scenario logs (importing this package registers their re-runner with
:func:`mtgk.games.replay.register_rerunner`); :mod:`mtgk.scenario.pytest_plugin`
collects scenario files as pytest tests.
"""

from mtgk.scenario import rerun as rerun  # (registers the scenario logs' re-runner)
from mtgk.scenario.errors import ScenarioFileError
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
    TurnSpec,
)
from mtgk.scenario.reader import (
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
