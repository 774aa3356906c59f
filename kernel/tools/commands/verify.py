"""``mtgk verify``: a log's integrity, and a re-run of the engine against it."""

from __future__ import annotations

import argparse
import importlib
import io
import os
from typing import IO, Any

from mtgk.cards.definitions import Registry
from mtgk.games.replay import VerifyReport, verify
from mtgk.log.events import Envelope
from mtgk.log.logfile import ForeignFileError, LogError, LogFile, NewerVersionError, repair_log
from mtgk.render import Renderer
from mtgk.tools.cli_base import (
    Runner,
    UserError,
    after_damage,
    cause_text,
    event_line,
    import_plugins,
    json_line,
    library_game,
    load,
    log_error_message,
    registry,
    stdout,
)

__all__ = ["setup"]


def setup(p: argparse.ArgumentParser) -> Runner:
    """``mtgk verify``'s arguments, added to ``p``; returns the function that runs it."""
    p.description = ("Check a game log: its integrity (checksums, sequence), then re-run the "
                     "engine from its header with the recorded decisions and compare every "
                     "event; then check that folding the log gives the engine's final state. "
                     "Scenario logs re-run from their recorded setup (their header and setup "
                     "are checked to be a scenario's).")
    p.epilog = ("exit status: 0 the log verified from its start to the game's end (or the "
                "scenario's); 3 every event verified, but the log stops before the end "
                "(INCOMPLETE: cut off, or repaired after a crash); 4 the log is intact but "
                "was written by other rules (OTHER RULES: another rules revision or card set "
                "version, and the re-run differs: `mtgk upgrade` re-plays it under these); 1 it "
                "did not verify (FAILED: damage, a torn last record, a divergence from a log "
                "claiming these very rules; NOT VERIFIED: a kind of log this kernel cannot "
                "re-run); 2 bad usage, or not a log at all.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--repair", action="store_true",
                   help="first cut a torn (crash-interrupted) last record off the file, "
                        "keeping a copy of the original as FILE.orig (never anything else: "
                        "a log damaged in the middle is left as it is)")
    p.add_argument("--json", action="store_true",
                   help='print the result as one JSON object: {"file", "result" (verified, '
                        'incomplete, other-rules, failed, not-verified), "exit", "lines"} where '
                        '"lines" are the lines printed without --json; once the log could be '
                        're-run also "written_by" and "running" (kernel, rules_revision, '
                        'cardsets), "rules_differ" and "divergence" ({"seq", "reason"})')

    def run(args: argparse.Namespace) -> int:
        if not args.json:
            return _verify_run(args, stdout())
        buf = io.StringIO()
        reports: list[VerifyReport] = []
        code = _verify_run(args, buf, reports)
        lines = buf.getvalue().splitlines()
        result = {0: "verified", 3: "incomplete", 4: "other-rules"}.get(code, "failed")
        if code == 1 and any(line.startswith("NOT VERIFIED") for line in lines):
            result = "not-verified"
        obj: dict[str, Any] = {"file": args.file, "result": result, "exit": code,
                               "lines": lines}
        if reports:
            rj = reports[0].as_json()
            obj.update({k: rj[k] for k in ("written_by", "running", "rules_differ",
                                           "divergence")})
        print(json_line(obj), file=stdout())
        return code

    return run


def _verify_run(args: argparse.Namespace, out: IO[str],
                reports: list[VerifyReport] | None = None) -> int:
    """``mtgk verify``: print the report to ``out``; return the exit status (the report,
    once there is one, is appended to ``reports``)."""
    path = args.file
    if args.repair and library_game(path) is not None:
        raise UserError(f"{path}: --repair mends a log file; a library keeps its games whole "
                        "(`mtgk db export` writes one to a file)")
    if library_game(path) is None:
        if not os.path.exists(path):
            raise UserError(f"{path}: no such file")
        if os.path.isdir(path):
            raise UserError(f"{path} is a directory, not a log file")
    import_plugins()
    importlib.import_module("mtgk.scenario.runner")  # it re-runs scenario logs' kinds
    if args.repair:
        try:
            repaired = repair_log(path)
        except (ForeignFileError, NewerVersionError) as exc:
            raise UserError(log_error_message(exc, path)) from None
        except LogError as exc:
            print(f"FAILED: cannot repair: {log_error_message(exc, path)}", file=out)
            if exc.log is not None and exc.log.breaks:
                _repair_advice(exc.log, path, out)
            return 1
        except OSError as exc:
            raise UserError(f"cannot repair {path}: {exc.strerror or exc} (the file is "
                            "unchanged)") from None
        if repaired is None:
            print("repair: nothing to do, the log has no torn tail", file=out)
        else:
            print(f"repaired: {repaired.problem}; the file now ends at byte "
                  f"{repaired.size}; the original is kept in {repaired.backup}", file=out)
    try:
        lf = load(path, salvage=True)
    except (ForeignFileError, NewerVersionError) as exc:
        raise UserError(log_error_message(exc, path)) from None
    except LogError as exc:
        print(f"FAILED: {log_error_message(exc, path)}", file=out)
        return 1
    except OSError as exc:
        raise UserError(f"{path}: {exc.strerror or exc}") from None
    if lf.breaks:
        brk = lf.breaks[0]
        print(f"FAILED: {path} is damaged at byte {brk.offset}, record {brk.record}: "
              f"{brk.detail}{after_damage(brk, path)}; nothing from record {brk.record} "
              "on is verified", file=out)
        if len(lf.breaks) > 1:
            print(f"  and damaged again at {len(lf.breaks) - 1} more place(s), the next "
                  f"at byte {lf.breaks[1].offset}", file=out)
        print(f"  `mtgk verify --repair` does not cut a log damaged in the middle; see "
              f"`mtgk log {path}` for what can be read", file=out)
        return 1
    for pr in lf.problems:
        if pr.kind != "torn":
            print(f"warning: {pr}", file=out)
    reg = registry(args)
    report = verify(lf.header, lf.envelopes, reg)
    if reports is not None:
        reports.append(report)
    for note in report.notes:
        print(f"note: {note}", file=out)
    if report.divergence is not None and not lf.torn:
        print(report.summary(), file=out)
        if report.other_rules and report.written is not None and report.now is not None:
            print(f"  written by: {report.written.describe()}", file=out)
            print(f"  running:    {report.now.describe()}", file=out)
        _show_divergence(report.divergence, lf.envelopes, reg, out)
        if report.other_rules:
            print(f"  `mtgk upgrade {path} --out NEW` re-plays its decisions under these "
                  "rules and says where the two games part", file=out)
        return report.exit_status
    if lf.torn:
        torn = next(pr for pr in lf.problems if pr.kind == "torn")
        print(f"FAILED: {torn}", file=out)
        if report.ok:
            print(f"  the {report.events} intact events before it verify; the log stops "
                  "before the game's end", file=out)
        else:
            print(f"  the {report.events} intact events before it: {report.summary()}",
                  file=out)
        print(f"  run `mtgk verify --repair {path}` to cut the torn tail off (a copy of "
              "the file is kept)", file=out)
        return 1
    print(report.summary(), file=out)
    for text in report.problems[1:]:
        print(f"  {text}", file=out)
    return report.exit_status


def _repair_advice(lf: LogFile, path: str, out: IO[str]) -> None:
    """What a user can do with a log damaged in the middle (which repair leaves alone)."""
    brk = lf.breaks[0]
    n = lf.salvaged
    if n:
        print(f"  repair only cuts a torn tail; this damage is followed by {n} readable "
              f"record{'' if n == 1 else 's'}, and cutting the file would delete them: {path} "
              "is left unchanged", file=out)
    else:
        print(f"  repair only cuts a torn tail, what a crash leaves, and this is damage: "
              f"{path} is left unchanged", file=out)
    print(f"  you can: restore {path} from a copy; read everything that can be read with "
          f"`mtgk log {path}`; or keep the {brk.record} intact events before the damage as a "
          f"log of their own with `mtgk log {path} --json > intact.jsonl` (it verifies as "
          "far as it goes)", file=out)


def _show_divergence(div: Any, envs: list[Envelope], reg: Registry, out: IO[str]) -> None:
    r = Renderer(reg)
    for env in envs[: div.seq]:
        r.advance(env)
    log = event_line(r, div.expected) if div.expected is not None else "(ends here)"
    rerun = event_line(r, div.got) if div.got is not None else "(no such event)"
    if log == rerun and div.expected is not None and div.got is not None:  # causes differ
        log += f"  ({cause_text(div.expected.cause)})"
        rerun += f"  ({cause_text(div.got.cause)})"
    print(f"  log:    {log}", file=out)
    print(f"  re-run: {rerun}", file=out)


