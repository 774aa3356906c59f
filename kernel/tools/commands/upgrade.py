"""``mtgk upgrade``: an old log's decisions re-run under today's rules."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any

from mtgk.cards.decks import DeckError
from mtgk.cards.definitions import Registry
from mtgk.log.events import Envelope
from mtgk.log.logfile import write_log
from mtgk.render import Renderer
from mtgk.search import AGENTS
from mtgk.tools.cli_base import (
    Runner,
    UserError,
    cause_text,
    event_line,
    json_line,
    library_game,
    log_stem,
    read,
    registry,
    stdout,
)

__all__ = ["setup"]


def setup(p: argparse.ArgumentParser) -> Runner:
    """``mtgk upgrade``'s arguments, added to ``p``; returns the function that runs it."""
    p.description = ("Re-run the game of an old log (written by other rules: another rules "
                     "revision or card set version, see `mtgk verify`) under the rules "
                     "running now, answering every decision with the old log's, in order, "
                     "and write the new game's log. Where a recorded decision no longer "
                     "applies (the engine asks someone else, or for something else, or "
                     "refuses the recorded answer), agents play on, as `mtgk branch` does; a "
                     "scenario's log stops where its decisions end. Prints where the two "
                     "games' events first differ and which decisions no longer applied. The "
                     "new log's header records meta.upgraded_from.")
    p.add_argument("file", metavar="OLD")
    p.add_argument("--out", "-o", metavar="NEW",
                   help="where to write the new log (default: OLD.upgraded.mtgk)")
    p.add_argument("--agent", choices=sorted(AGENTS),
                   help="who plays on once a recorded decision no longer applies: one of "
                        "%(choices)s (default: the game's agents if recorded, else heuristic)")
    p.add_argument("--seed", type=int, metavar="S",
                   help="seed for the agents that play on (default: the game's seed)")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing on success")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")

    def run(args: argparse.Namespace) -> int:
        from mtgk.tools.upgrade import UpgradeError, upgrade

        lf = read(args.file)
        envs = lf.envelopes
        reg = registry(args)
        header = lf.header
        recorded = [a.get("kind") for a in header.meta.get("agents", [])
                    if isinstance(a, dict)]
        seats = max(2, len(header.players))
        kinds = [args.agent] * seats if args.agent else (
            [k if k in AGENTS else "heuristic" for k in recorded] if len(recorded) == seats
            else ["heuristic"] * seats)
        seed = header.seed if args.seed is None else args.seed
        seeds = [seed * 2 + i for i in range(seats)]
        agents = [AGENTS[k](s) for k, s in zip(kinds, seeds, strict=True)]
        outp = args.out or _upgrade_name(args.file)
        try:
            res = upgrade(reg, header, envs, agents=agents)
        except UpgradeError as exc:
            raise UserError(f"{args.file}: {exc}") from None
        except DeckError as exc:
            raise UserError(f"{args.file}: bad deck in the header: {exc}") from None
        res.header.meta["upgraded_from"]["file"] = args.file
        try:
            size = write_log(outp, res.header, res.game.log)
        except OSError as exc:
            raise UserError(f"cannot write {outp}: {exc.strerror or exc}") from None
        new = res.game.log
        if args.json:
            div = res.divergence
            drop = res.dropped
            print(json_line({
                "file": args.file, "log": outp, "bytes": size,
                "written_by": res.written.as_json(), "running": res.now.as_json(),
                "first_difference": None if div is None else {"seq": div.seq,
                                                              "reason": div.reason},
                "decisions": res.recorded, "applied": res.applied,
                "dropped": None if drop is None else {"event": drop.seq, "at": drop.at,
                                                      "why": drop.why},
                "events": len(new), "old_events": len(envs),
                "winner": res.game.state.winner}), file=stdout())
        elif not args.quiet:
            _upgrade_summary(res, args.file, outp, size, kinds, seeds, reg, envs)
        return 0

    return run


def _upgrade_name(path: str) -> str:
    if library_game(path) is not None:
        return f"{log_stem(path)}.upgraded.mtgk"
    base, _ = os.path.splitext(path)
    return f"{base}.upgraded.mtgk"


def _upgrade_summary(res: Any, src: str, path: str, size: int, kinds: list[str],
                     seeds: list[int], reg: Registry, old: Sequence[Envelope]) -> None:
    out = stdout()
    new = res.game.log
    print(f"upgraded {src} to the rules running now", file=out)
    print(f"  written by: {res.written.describe()}", file=out)
    print(f"  running:    {res.now.describe()}", file=out)
    div = res.divergence
    if div is None:
        print(f"the two games are the same: all {len(new)} events", file=out)
    else:
        print(f"the two games first differ at event {div.seq}: {div.reason}", file=out)
        ro, rn = Renderer(reg), Renderer(reg)
        for env in old[: div.seq]:
            ro.advance(env)
        for env in new[: div.seq]:
            rn.advance(env)
        o = event_line(ro, old[div.seq]) if div.seq < len(old) else "(ends here)"
        n = event_line(rn, new[div.seq]) if div.seq < len(new) else "(ends here)"
        if o == n:
            o += f"  ({cause_text(old[div.seq].cause)})"
            n += f"  ({cause_text(new[div.seq].cause)})"
        print(f"  old: {o}", file=out)
        print(f"  new: {n}", file=out)
    drop = res.dropped
    if drop is None:
        print(f"decisions: all {res.recorded} recorded decisions apply", file=out)
    else:
        where = ("after the old log's last one" if drop.seq < 0 else
                 f"the one at event {drop.seq} of the old log no longer does")
        print(f"decisions: {res.applied} of {res.recorded} recorded decisions apply; {where}: "
              f"{drop.why}", file=out)
        who = ", ".join(f"{k} (seed {s})" for k, s in zip(kinds, seeds, strict=True))
        print(f"  from event {drop.at} of the new game, agents played on: {who}", file=out)
    s = res.game.state
    if s.winner is None or s.winner < 0:
        print(f"result: {'a draw' if s.over else 'unfinished'} after {s.turn} turns", file=out)
    else:
        print(f"winner: {s.players[s.winner].name}", file=out)
    print(f"events: {len(new)} (the old log has {len(old)})", file=out)
    print(f"log: {path} ({size} bytes)", file=out)

