"""Run rules scenarios through the real engine (the format of docs/scenarios.md): the
scenario files, and the ``mtgk scenario`` command (:func:`cli_main`).

A scenario's setup is recorded as the first events of an ordinary game log;
its actions are played by a scripted agent that answers the engine's
decisions; its expectations are checked against the live state and the log;
and, always, the log is replayed from the start and must give exactly the
live state.  This module runs the files (:func:`load_file`, :func:`run_file`); one
scenario is played by :func:`mtgk.scenario.play.run_scenario`, and its log is written
by :mod:`mtgk.scenario.logs`.

>>> from mtgk.cards.loading import load_registry
>>> from mtgk.scenario.reader import loads_scenarios
>>> sc = loads_scenarios('''
... name: shock-the-bears
... players:
...   alice: {battlefield: [Mountain], hand: [Shock]}
...   bob: {battlefield: [Grizzly Bears]}
... actions:
...   - {player: alice, cast: Shock, targets: [Grizzly Bears]}
...   - {resolve: all}
... expect:
...   - {card: Grizzly Bears, zone: graveyard}
... ''')[0]
>>> run_scenario(sc, load_registry())
ScenarioResult('shock-the-bears', passed=True)
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.scenario.board import card_key, known_card, unknown_card_reason
from mtgk.scenario.errors import ScenarioFileError
from mtgk.scenario.logs import ScenarioLogError, ScenarioLogs
from mtgk.scenario.model import Scenario
from mtgk.scenario.play import ScenarioResult, run_scenario
from mtgk.scenario.reader import iter_scenario_files, load_scenarios


def load_file(path: str | Path, reg: Registry) -> list[Scenario]:
    """The scenarios of the file at ``path``, checked against ``reg``'s cards and the known
    event types; an unknown card's error is led by the card sets that failed to load."""
    try:
        return load_scenarios(path, known_card=known_card(reg),
                              known_event=ev.EVENT_TYPES.__contains__)
    except ScenarioFileError as err:
        if reg.failures and err.reason.startswith("unknown card"):
            raise ScenarioFileError(err.file, unknown_card_reason(reg, err.reason),
                                    scenario=err.scenario, path=err.path) from None
        raise


def unknown_cards(sc: Scenario, reg: Registry) -> list[str]:
    """Setup entries naming cards no loaded card set defines, as key paths."""
    out = []
    for pname, setup in sc.players.items():
        for zone, entries in setup.zones():
            for i, entry in enumerate(entries):
                if card_key(reg, entry.card) is None:
                    out.append(f"players.{pname}.{zone}[{i}]: unknown card {entry.card!r}")
    return out


def run_file(path: str | Path, reg: Registry) -> list[ScenarioResult]:
    """Run every scenario in a file.  A file naming a card, an alias or an event type
    that the loaded sets and plugins don't know is invalid (:class:`ScenarioFileError`)."""
    scs = load_file(path, reg)
    out = []
    for sc in scs:
        missing = unknown_cards(sc, reg)
        if missing:
            r = ScenarioResult(sc.name, sc.file, False, unknown_card_reason(
                reg, "; ".join(missing) + " (is its card set installed?)"))
            r.invalid = True
            out.append(r)
            continue
        out.append(run_scenario(sc, reg))
    return out


def cli_main(argv: Sequence[str] | None = None, reg: Registry | None = None) -> int:
    """``mtgk scenario PATH... [--json] [--log DIR]`` -- exit 0 all pass, 1 any fail, 2 bad file.

    Takes the options every ``mtgk`` command takes (``-v``, ``--log-json``,
    ``--strict``). With ``--json`` every line of standard output is a JSON object: one per
    scenario, then ``{"passed": N, "failed": N, "summary": "N passed, N failed"}``; the
    plain closing line then goes to standard error.
    """
    from mtgk import diag

    ap = argparse.ArgumentParser(prog="mtgk scenario",
                                 description="Run rules scenario files (YAML).")
    ap.add_argument("paths", nargs="+", help="scenario files or folders (searched for *.yaml)")
    ap.add_argument("--json", action="store_true",
                    help="one JSON object per scenario, then one with the totals")
    ap.add_argument("--log", metavar="DIR", help="write each scenario's event log to DIR")
    diag.add_common_options(ap)
    ap.add_argument("--strict-plugins", dest="strict", action="store_true",
                    help=argparse.SUPPRESS)  # the old name of --strict
    try:
        args = ap.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:  # --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else 2
    if args.verbose or args.log_json:
        diag.configure(verbosity=args.verbose, json=args.log_json)
    if reg is None:
        from mtgk.cards.loading import PluginError, load_registry
        try:
            reg = load_registry(strict=args.strict)
        except PluginError as err:
            print(f"mtgk: error: {err}", file=sys.stderr)
            return 2
    try:
        files = iter_scenario_files(args.paths)
    except ScenarioFileError as err:
        print(f"mtgk: error: {err}", file=sys.stderr)
        return 2
    passed = failed = 0
    bad_file = False
    try:
        logs = ScenarioLogs(Path(args.log)) if args.log else None
    except ScenarioLogError as err:
        print(f"mtgk: error: {err}", file=sys.stderr)
        return 2
    for f in files:
        try:
            results = run_file(f, reg)
        except ScenarioFileError as err:
            print(f"mtgk: error: {err}", file=sys.stderr)
            bad_file = True
            continue
        for r in results:
            if r.passed:
                passed += 1
            else:
                failed += 1
                bad_file = bad_file or getattr(r, "invalid", False)
            if args.json:
                print(json.dumps({"file": str(f), "name": r.name, "passed": r.passed,
                                  "reason": r.reason}))
            else:
                print(f"PASS {r.name}" if r.passed else f"FAIL {r.name}: {r.reason}")
            if r.error is not None and args.verbose:  # -v: the card's traceback (stderr)
                sys.stdout.flush()
                traceback.print_exception(r.error, file=sys.stderr)
            if logs is not None:
                try:
                    logs.write(r, reg)
                except ScenarioLogError as err:
                    print(f"mtgk: error: {err}", file=sys.stderr)
                    return 2
    closing = f"{passed} passed, {failed} failed"
    if args.json:
        print(json.dumps({"passed": passed, "failed": failed, "summary": closing}))
        print(closing, file=sys.stderr)
    else:
        print(closing)
    if bad_file:
        return 2
    return 1 if failed else 0
