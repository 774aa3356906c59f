"""``mtgk branch``: what if? a game replayed to a decision, changed, and played on."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import Any

import msgspec

from mtgk.cards.decks import DeckError
from mtgk.cards.definitions import Registry
from mtgk.log.events import Envelope
from mtgk.log.logfile import write_log
from mtgk.render import Renderer
from mtgk.rules.engine import Game
from mtgk.search import AGENTS
from mtgk.tools.cli_base import (
    Runner,
    UserError,
    err,
    event_index,
    json_line,
    library_game,
    log_stem,
    read,
    registry,
    stdout,
)
from mtgk.tools.debug import BranchError, BranchRefused, branch

__all__ = ["setup"]


def setup(p: argparse.ArgumentParser) -> Runner:
    """``mtgk branch``'s arguments, added to ``p``; returns the function that runs it."""
    p.description = ("Start a new game from the decision at event N (a DecisionMade): the "
                     "engine re-runs the log up to it, the decision is answered with --choice "
                     "(checked by the engine like any answer: an illegal one is refused with "
                     "the rule, exit status 2) or by an --agent, and agents play on to the "
                     "end. The new log's header records meta.branched_from = {file, event, "
                     "original, choice}.")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--at", type=int, required=True, metavar="N",
                   help="the decision to change (negative: from the end)")
    p.add_argument("--choice", metavar="JSON",
                   help="the new answer, as JSON in the form the log records choices (see "
                        "`mtgk log FILE --json --from N --to N`), e.g. '[\"pass\"]'")
    p.add_argument("--agent", choices=sorted(AGENTS),
                   help="who plays on (and chooses at N without --choice): one of "
                        "%(choices)s (default: the game's agents if recorded, else heuristic)")
    p.add_argument("--seed", type=int, metavar="S",
                   help="seed for the agents that play on (default: the game's seed)")
    p.add_argument("--out", "-o", metavar="FILE",
                   help="where to write the new log (default: FILE.branch-N.mtgk)")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing on success")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")

    def run(args: argparse.Namespace) -> int:
        choice: Any = None
        if args.choice is not None:
            try:
                choice = msgspec.json.decode(args.choice)
            except msgspec.DecodeError as exc:
                raise UserError(f"--choice is not valid JSON ({exc}): write it as the log "
                                "records choices, e.g. '[\"pass\"]' or "
                                "'[\"cast\", 57, [-2], [], 0, \"\"]'") from None
        lf = read(args.file)
        envs = lf.envelopes
        at = event_index(args.at, len(envs))
        reg = registry(args)
        header = lf.header
        recorded = [a.get("kind") for a in header.meta.get("agents", [])
                    if isinstance(a, dict)]
        seats = max(2, len(header.players))  # (one agent per player)
        kinds = [args.agent] * seats if args.agent else (
            [k if k in AGENTS else "heuristic" for k in recorded] if len(recorded) == seats
            else ["heuristic"] * seats)
        seed = header.seed if args.seed is None else args.seed
        seeds = [seed * 2 + i for i in range(seats)]
        agents = [AGENTS[k](s) for k, s in zip(kinds, seeds, strict=True)]
        outp = args.out or _branch_name(args.file, at)
        meta = {"agents": [{"kind": k, "seed": s} for k, s in zip(kinds, seeds, strict=True)]}
        kwargs: dict[str, Any] = {} if args.choice is None else {"choice": choice}
        made: list[Game] = []
        try:
            res = branch(reg, header, envs, at, agents=agents, meta=meta,
                         watch=made.append, **kwargs)
        except BranchRefused as exc:
            raise UserError(f"event {at}: {exc}") from None
        except BranchError as exc:
            raise UserError(str(exc)) from None
        except DeckError as exc:  # a card of the header's decks no installed set has
            raise UserError(f"{args.file}: bad deck in the header: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - an engine failure after the branch point
            if made and len(made[0].log) > at:
                write_log(outp, header, made[0].log)
                err(f"mtgk: error: the engine failed after {len(made[0].log)} events: "
                     f"{type(exc).__name__}: {exc}")
                err(f"mtgk: the log so far is in {outp}")
                return 1
            raise
        res.header.meta["branched_from"]["file"] = args.file
        try:
            size = write_log(outp, res.header, res.game.log)
        except OSError as exc:
            raise UserError(f"cannot write {outp}: {exc.strerror or exc}") from None
        if args.json:
            s = res.game.state
            print(json_line({"file": args.file, "event": at, "kind": res.kind,
                              "player": res.player, "original": res.original,
                              "choice": res.choice,
                              "agents": res.header.meta["agents"],
                              "winner": s.winner, "over": s.over, "turns": s.turn,
                              "events": len(res.game.log), "log": outp, "bytes": size}),
                  file=stdout())
        elif not args.quiet:
            _branch_summary(res, args.file, outp, size, kinds, seeds, reg, envs)
        return 0

    return run


def _branch_name(path: str, at: int) -> str:
    if library_game(path) is not None:
        return f"{log_stem(path)}.branch-{at}.mtgk"
    base, ext = os.path.splitext(path)
    return f"{base}.branch-{at}{ext or '.mtgk'}"


def _branch_summary(res: Any, src: str, path: str, size: int, kinds: list[str],
                    seeds: list[int], reg: Registry, envs: Sequence[Envelope]) -> None:
    out = stdout()
    r = Renderer(reg)
    for env in envs[: res.at]:
        r.advance(env)
    who = r.player(res.player)
    print(f"branched from {src} at event {res.at}: {who}'s {res.kind} decision", file=out)
    print(f"  original: {r.choice(res.kind, res.original)}  {json_line(res.original)}", file=out)
    print(f"  new:      {r.choice(res.kind, res.choice)}  {json_line(res.choice)}", file=out)
    print(f"played on by {kinds[0]} (seed {seeds[0]}) and {kinds[1]} (seed {seeds[1]}) agents",
          file=out)
    s = res.game.state
    if s.winner is None or s.winner < 0:
        print(f"result: {'a draw' if s.over else 'unfinished'} after {s.turn} turns", file=out)
    else:
        print(f"winner: {s.players[s.winner].name}", file=out)
    n = len(res.game.log)
    print(f"events: {n} ({res.at} replayed, {n - res.at} new)", file=out)
    print(f"log: {path} ({size} bytes)", file=out)

