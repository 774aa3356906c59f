"""``mtgk replay``: the whole game state right after an event, or as a step began."""

from __future__ import annotations

import argparse

from mtgk.log.logfile import LogFile
from mtgk.render import Renderer, render_state, state_json
from mtgk.rules.engine import STEPS
from mtgk.tools.cli_base import Runner, fold_warning, moment_arg, player, read, registry, stdout

__all__ = ["setup"]


def setup(p: argparse.ArgumentParser) -> Runner:
    """``mtgk replay``'s arguments, added to ``p``; returns the function that runs it."""
    p.description = ("Show the state of a logged game right after event N (--at), or as a "
                     "turn or one of its steps began (--turn T [--step S]): players, hands, "
                     "battlefield (each permanent's characteristics after continuous effects: "
                     "types, power/toughness, loyalty, keywords; counters, damage, "
                     "attachments), exile, the stack, pending triggers, combat, continuous "
                     "effects and the next decision.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--at", type=int, metavar="N",
                   help="the event number (negative: from the end; -1 = the last event)")
    p.add_argument("--turn", type=int, metavar="T",
                   help="the state when turn T began (with --step: when that step began)")
    p.add_argument("--step", choices=STEPS, metavar="STEP",
                   help="with --turn: the step (" + ", ".join(STEPS) + ")")
    p.add_argument("--as", dest="as_player", metavar="PLAYER",
                   help="show only what PLAYER (name or index) could see")
    p.add_argument("--json", action="store_true", help="print the state as JSON")

    def run(args: argparse.Namespace) -> int:
        lf = read(args.file, salvage=True)
        envs = lf.envelopes
        at = moment_arg(args, envs, broken=_broken_at(lf))
        viewer = player(args.as_player, lf.header)
        reg = registry(args)
        r = Renderer(reg, viewer)
        for env in envs[:at]:
            r.advance(env)
        line = r.describe(envs[at])
        r.advance(envs[at])
        fold_warning(r)
        state = r.state
        out = stdout()
        if args.json:
            print(state_json(state, viewer, r.seen), file=out)
            return 1 if lf.torn or lf.breaks else 0
        print(f"After {at} {line}", file=out)
        print(render_state(state, reg, viewer, after=envs[at + 1:], names=r.names,
                           seen=r.seen), file=out)
        return 1 if lf.torn or lf.breaks else 0

    return run


def _broken_at(lf: LogFile) -> str:
    """How a log read with salvage stops before its end: ``damaged at record N``, ``torn``
    or ``""`` (it doesn't)."""
    if lf.breaks:
        return f"damaged at record {lf.breaks[0].record}"
    return "torn" if lf.torn else ""

