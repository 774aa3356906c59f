"""``mtgk scenario``: the scenario runner (:mod:`mtgk.scenario.runner`), and ``mtgk scenario export``."""

from __future__ import annotations

import argparse
import importlib

from mtgk.rules.engine import STEPS
from mtgk.tools.cli_base import (
    Runner,
    UserError,
    add_common,
    configure,
    err,
    folding,
    moment_arg,
    read,
    registry,
    stdout,
)
from mtgk.tools.export import ExportError, check_export, export_scenario, priority_point

__all__ = ["pass_through", "setup"]


def setup(p: argparse.ArgumentParser) -> Runner:
    """``mtgk scenario``'s arguments, added to ``p``; returns the function that runs it."""
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the scenario runner")

    def run(args: argparse.Namespace) -> int:
        return pass_through(list(args.args), [])

    return run


def pass_through(argv: list[str], glob: list[str]) -> int:
    if argv[:1] == ["export"]:
        return _scenario_export(glob + argv[1:])
    argv = glob + argv
    try:
        mod = importlib.import_module("mtgk.scenario.runner")
    except ModuleNotFoundError as exc:
        if exc.name in ("mtgk.scenario.runner", "mtgk.scenario"):
            raise UserError("the scenario runner (mtgk.scenario.runner) is not installed in "
                            "this version of mtgk") from None
        raise
    fn = getattr(mod, "cli_main", None)
    if fn is None:
        raise UserError("mtgk.scenario.runner has no cli_main(args) entry point")
    return int(fn(argv) or 0)


def _export_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mtgk scenario export",
        description="Write a rules scenario (docs/scenarios.md) that sets up the "
                    "position of a logged game right after event N (--at), or in a step "
                    "once its beginning is done, as its first player gets priority "
                    "(--turn T --step S): life totals, every zone in order with an "
                    "alias CARD#ID for each object, counters, tapped, summoning sickness, "
                    "tokens, attachments, face-down and exiled-with links, turn, active "
                    "player and step. The stack must be empty and no triggered ability "
                    "pending. What the format can't express is reported (stderr and the "
                    "file's header comment). Add actions and expectations to make it a "
                    "regression test.")
    p.add_argument("file", metavar="LOG")
    p.add_argument("--at", type=int, metavar="N", help="the event (negative: from the end)")
    p.add_argument("--turn", type=int, metavar="T",
                   help="in turn T (or its --step) once its beginning is done")
    p.add_argument("--step", choices=STEPS, metavar="STEP",
                   help="with --turn: the step (" + ", ".join(STEPS) + ")")
    p.add_argument("--out", "-o", metavar="FILE",
                   help="write the scenario here (default: standard output)")
    p.add_argument("--name", help="the scenario's name (default: LOG-event-N)")
    p.add_argument("--check", action="store_true",
                   help="then prove it: run the exported setup with the game's recorded "
                        "decisions and compare the events with the log's (exit 1 if they "
                        "differ)")
    add_common(p, suppress=False)
    return p


def _scenario_export(argv: list[str]) -> int:
    p = _export_parser()
    try:
        args = p.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    configure(args)
    lf = read(args.file)
    envs = lf.envelopes
    at = moment_arg(args, envs)
    if args.turn is not None:
        # where a scenario starting in the step begins: its beginning past, priority next
        at = priority_point(envs, at)
    reg = registry(args)
    try:
        with folding():
            x = export_scenario(lf.header, envs, at, reg, name=args.name, source=args.file)
    except ExportError as exc:
        raise UserError(str(exc)) from None
    for w in x.warnings:
        err(f"mtgk: warning: not exported: {w}")
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as fp:
                fp.write(x.text)
        except OSError as exc:
            raise UserError(f"cannot write {args.out}: {exc.strerror or exc}") from None
        err(f"mtgk: wrote {args.out} (scenario {x.name!r}, {len(x.created)} objects)")
    else:
        stdout().write(x.text)
    if args.check:
        result = check_export(x, lf.header, envs, reg)
        err(f"mtgk: check: {result.summary()}")
        return 0 if result.ok else 1
    return 1 if lf.torn else 0

