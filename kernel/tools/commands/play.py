"""``mtgk play``: one game between two decks, its log written as it goes."""

from __future__ import annotations

import argparse
import functools
import os
import secrets
import sys
import traceback
from typing import Any

import structlog

from mtgk import diag
from mtgk.cards.decks import deck_lines
from mtgk.cards.definitions import Registry
from mtgk.cards.errors import CardError
from mtgk.games.replay import new_header
from mtgk.log.logfile import LogHeader, LogWriter
from mtgk.rules.engine import Game
from mtgk.search import AGENTS
from mtgk.stepper import Stepper
from mtgk.tools.cli_base import (
    PEOPLE,
    Runner,
    UserError,
    add_game_args,
    err,
    game_decks,
    json_line,
    stdout,
    void,
)

__all__ = ["Checkpointing", "setup"]

log = structlog.get_logger("mtgk.tools.cli")


def setup(p: argparse.ArgumentParser) -> Runner:
    """``mtgk play``'s arguments, added to ``p``; returns the function that runs it."""
    p.description = ("Play one game between two decks (built-in decks by name, or deck "
                     "files) with computer agents, write its event log, and print a summary. "
                     "Without --decks the first two built-in decks are used.")
    p.add_argument("--seed", type=int, default=None,
                   help="game seed (default: a random one, printed in the summary)")
    p.add_argument("--out", "-o", default="game.mtgk", metavar="FILE",
                   help="where to write the log (default: %(default)s)")
    add_game_args(p, decks_help="one deck per player: built-in deck names or deck files, "
                                 "dealt round the seats (one deck: every player uses it)",
                   people=True)
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing on success")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")

    def run(args: argparse.Namespace) -> int:
        from mtgk.tools.sim import GameTimeout, TimeLimit
        from mtgk.tools.store import BUDGET_REASON, budget_error

        reg, names, decks = game_decks(args)
        seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        given = list(args.agents or ["heuristic"])
        seats = len(args.players)
        kinds = [given[i % len(given)] for i in range(seats)]  # dealt round the seats
        agent_seeds = [seed * 2 + i for i in range(seats)]
        agents = [{**AGENTS, **PEOPLE}[k](s) for k, s in zip(kinds, agent_seeds, strict=True)]
        meta = {"agents": [{"kind": k, "seed": s} for k, s in zip(kinds, agent_seeds,
                                                                    strict=True)],
                "deck_names": names, "max_turns": args.max_turns,
                "max_events": args.max_events, **args.attack_meta}
        header = new_header(reg, args.players, [deck_lines(d) for d in decks], seed, meta=meta,
                            variant=args.variant, teams=args.teams)
        if "human" in kinds:
            return _play_human(args, reg, header, kinds, agent_seeds)
        try:
            writer = LogWriter(args.out, header)
        except OSError as exc:
            raise UserError(f"cannot write {args.out}: {exc.strerror or exc}") from None
        game_ref: list[Game] = []
        # every event before a decision is on the file as it is asked (a killed game
        # loses at most the events since its last decision)
        agents = [Checkpointing(a, writer) for a in agents]

        def watch(game: Game) -> None:
            game_ref.append(game)
            diag.track(game)
            for env in game.log:
                writer.append(env)
            game.listeners.append(lambda env: void(limit.call(writer.append, env)))

        log.info("playing", seed=seed, decks=names, agents=kinds)
        limit = TimeLimit(args.timeout)
        try:
            with limit:  # (the stepper asks the seats' agents: mtgk.stepper)
                game = Stepper(reg, header, agents, watch=watch).game
        except GameTimeout as exc:
            err(f"mtgk: error: {exc}; the log so far is in {args.out}")
            return 1
        except (Exception, SystemExit) as exc:  # noqa: BLE001 - engine failures (and a card
            # calling sys.exit) are reported, the log kept
            n = len(game_ref[0].log) if game_ref else 0
            what = str(exc) if isinstance(exc, CardError) else f"{type(exc).__name__}: {exc}"
            err(f"mtgk: error: the game stopped after {n} events: {what}")
            err(f"mtgk: the log so far is in {args.out}")
            if args.verbose:
                traceback.print_exc(file=sys.stderr)
            return 1
        finally:
            writer.close()
        if game.log and getattr(game.log[-1].event, "reason", "") == BUDGET_REASON:
            err(f"mtgk: error: {budget_error(len(game.log) - 1)}; the log is in {args.out}")
            return 1
        size = os.path.getsize(args.out)
        if args.json:
            print(json_line(_summary_json(game, header, args.out, size)), file=stdout())
        elif not args.quiet:
            _summary(game, header, args.out, size)
        return 0

    return run


class Checkpointing:
    """An agent that puts the log on its file before each decision it answers
    (:meth:`~mtgk.log.logfile.LogWriter.checkpoint`), then lets ``agent`` answer."""

    def __init__(self, agent: Any, writer: LogWriter) -> None:
        self.agent = agent
        self.writer = writer

    def __repr__(self) -> str:
        return f"Checkpointing({self.agent!r})"

    def decide(self, game: Game, d: Any) -> Any:
        self.writer.checkpoint()
        return self.agent.decide(game, d)

    def __getattr__(self, name: str) -> Any:  # the agent's other hooks (refused, ...)
        return getattr(self.agent, name)


def _play_human(args: argparse.Namespace, reg: Registry, header: LogHeader, kinds: list[str],
                agent_seeds: list[int]) -> int:
    """``mtgk play`` with a person at a seat (:func:`mtgk.tools.human.play`)."""
    from mtgk.tools import human

    makers = [functools.partial({**AGENTS, **PEOPLE}[k], s)
              for k, s in zip(kinds, agent_seeds, strict=True)]
    seats = [i for i, k in enumerate(kinds) if k == "human"]
    try:
        res = human.play(reg, header, makers, seats, args.out)
    except OSError as exc:
        raise UserError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    size = os.path.getsize(args.out)
    if res.quit:
        print(f"stopped: {res.header.meta['stopped']}; the log so far is in {args.out}",
              file=stdout())
        return 0
    _summary(res.game, res.header, args.out, size)
    return 0


def _summary_json(game: Game, header: LogHeader, path: str, size: int) -> dict[str, Any]:
    s = game.state
    ended = next((env.event for env in reversed(game.log)
                  if env.event.TAG == "GameEnded"), None)
    won = s.winner is not None and s.winner >= 0
    return {"players": list(header.players),
            "agents": [a.get("kind") for a in header.meta.get("agents", [])],
            "decks": header.meta.get("deck_names", []), "seed": header.seed,
            "winner": s.players[s.winner].name if won and s.winner is not None else None,
            "result": "win" if won else ("draw" if ended is not None else "unfinished"),
            "reason": getattr(ended, "reason", "") if ended is not None else "",
            "turns": s.turn, "events": len(game.log), "log": path, "bytes": size,
            **({"variant": s.variant.replace("_", "-"),
                "teams": [[s.players[p].name for p in t] for t in s.teams]}
               if s.variant else {})}


def _summary(game: Game, header: LogHeader, path: str, size: int) -> None:
    s = game.state
    out = stdout()
    agents = header.meta.get("agents", [])
    who = [f"{name} ({agents[i]['kind']}, {header.meta['deck_names'][i]})"
           if i < len(agents) else name for i, name in enumerate(header.players)]
    teams = header.meta.get("teams") or []
    if teams:  # Two-Headed Giant: the teams
        print(f"{' vs '.join(' & '.join(who[p] for p in t) for t in teams)}, "
              f"seed {header.seed} (Two-Headed Giant)", file=out)
    else:
        print(f"{' vs '.join(who)}, seed {header.seed}", file=out)
    if s.winner is None or s.winner < 0:
        print(f"result: a draw after {s.turn} turns", file=out)
    elif teams:
        team = next((t for t in teams if s.winner in t), [s.winner])
        print(f"winners: {' & '.join(s.players[p].name for p in team)}", file=out)
    else:
        print(f"winner: {s.players[s.winner].name}", file=out)
    n = len(game.log)
    print(f"turns: {s.turn}", file=out)
    print(f"events: {n}", file=out)
    per = size / n if n else 0.0
    print(f"log: {path} ({size} bytes, {per:.1f} bytes/event)", file=out)

