"""``mtgk sim``: many games played in parallel processes into the game library."""

from __future__ import annotations

import argparse
import os
import secrets
import sys
from pathlib import Path

from mtgk.cards.decks import builtin_decks
from mtgk.tools.cli_base import (
    Runner,
    UserError,
    add_game_args,
    game_decks,
    json_line,
    stdout,
    versus,
)
from mtgk.tools.store import DEFAULT_DB, StoreError, open_store

__all__ = ["setup"]


def setup(p: argparse.ArgumentParser) -> Runner:
    """``mtgk sim``'s arguments, added to ``p``; returns the function that runs it."""
    p.description = (
        "Play N games between two decks with computer agents, in W worker processes, and "
        "store every log in the game library (a SQLite file). Game i's seed is derived from "
        "--seed and i, so a run gives the same logs whatever the number of workers. A "
        "progress bar is drawn on standard error when it is a terminal (or with --progress).")
    p.add_argument("--games", "-n", type=int, default=10, metavar="N",
                   help="how many games (default: %(default)s)")
    p.add_argument("--workers", "-w", type=int, default=None, metavar="W",
                   help="worker processes (default: one per CPU; 1 plays in this process)")
    p.add_argument("--seed", type=int, default=None,
                   help="the run's seed (default: a random one, printed)")
    add_game_args(p, decks_help="one deck per player, dealt round the seats: built-in deck "
                                 "names or deck files (default: the first two built-in decks)")
    p.add_argument("--db", default=DEFAULT_DB, metavar="FILE",
                   help="the game library to add the games to (default: %(default)s)")
    p.add_argument("--backend", choices=("process", "ray"), default="process",
                   help="play the games in this machine's worker processes (the default) "
                        "or as Ray tasks (needs mtgk[ray]; a local Ray instance of W CPUs "
                        "unless --address)")
    p.add_argument("--address", metavar="ADDR",
                   help="with --backend ray: the Ray cluster to run on (auto, "
                        "ray://HOST:10001, HOST:6379); W tasks at a time")
    p.add_argument("--progress", action="store_true",
                   help="draw the progress bar even when standard error is not a terminal")
    p.add_argument("--json", action="store_true", help="print the run's result as JSON")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing on success")
    p.add_argument("--allow-duplicates", action="store_true",
                   help="store a game even if the library holds an identical one (the same "
                        "log bytes: the same settings and seed)")

    def run(args: argparse.Namespace) -> int:
        from mtgk.tools.sim import (
            Progress,
            SimError,
            default_workers,
            id_ranges,
            plan,
            retried_note,
            run_sim,
        )

        if args.games < 1:
            raise UserError("--games must be at least 1")
        if args.workers is not None and args.workers < 1:
            raise UserError("--workers must be at least 1")
        if args.address and args.backend != "ray":
            raise UserError("--address is for --backend ray")
        backend = None
        workers = args.workers if args.workers is not None else default_workers(args.games)
        if args.backend == "ray":
            from mtgk.tools.sim_ray import ray_backend

            try:
                backend = ray_backend(workers, args.address,
                                      strict=bool(getattr(args, "strict", False)),
                                      timeout=args.timeout or None)
            except SimError as exc:
                raise UserError(str(exc)) from None
        reg, names, decks = game_decks(args)
        builtin = builtin_decks(reg)
        # deck files are named by their file name without folder and suffix
        names = [n if n in builtin and not os.path.isfile(n) else Path(n).stem for n in names]
        seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
        headers = plan(reg, decks, names, args.games, seed, args.agents or ["heuristic"],
                       args.players, args.max_turns, args.max_events, args.variant, args.teams,
                       attack=args.attack)
        show = args.progress or (sys.stderr.isatty() and not args.quiet)
        progress = Progress(args.games, sys.stderr, enabled=show)
        try:
            with open_store(args.db) as store:
                # the games are played in worker processes even with --workers 1, so that
                # one that crashes its process or outlives --timeout is a failed game
                result = run_sim(reg, headers, store, workers, progress,
                                 strict=bool(getattr(args, "strict", False)),
                                 timeout=args.timeout or None, isolate=True,
                                 allow_duplicates=args.allow_duplicates, backend=backend)
        except StoreError as exc:
            raise UserError(str(exc)) from None
        except SimError as exc:
            raise UserError(str(exc), status=1) from None
        out = stdout()
        if args.json:
            print(json_line({"seed": seed, "games": args.games, "workers": workers,
                              "backend": args.backend,
                              "db": args.db, "decks": names, "players": args.players,
                              **({"variant": args.variant.replace("_", "-"),
                                  "teams": args.teams} if args.variant else {}),
                              **result.to_json()}), file=out)
        elif not args.quiet:
            secs = result.seconds
            rate = args.games / secs if secs > 0 else 0.0
            how = " as Ray tasks" if backend is not None else ""
            sides = versus(names, args.teams)
            print(f"{args.games} games ({sides}), seed {seed}, {workers} "
                  f"worker{'s' if workers != 1 else ''}{how}: {secs:.1f} s, {rate:.1f} games/s, "
                  f"{result.events} events", file=out)
            seats = args.teams or [[i] for i in range(len(args.players))]  # (a win: the
            # team's first player's)
            res = ", ".join(" & ".join(f"{args.players[i]} ({names[i]})" for i in t)
                            + f" won {result.wins[t[0]]}" for t in seats)
            extra = f", {result.unfinished} without a result" if result.unfinished else ""
            extra += f", {len(result.errors)} failed (below)" if result.errors else ""
            print(f"{res}, {result.draws} draw{'s' if result.draws != 1 else ''}{extra}",
                  file=out)
            if result.retried:
                print(retried_note(result.retried), file=out)
            dups = result.duplicates
            again = (f"{len(dups)} game{'s were' if len(dups) != 1 else ' was'} stored "
                     f"already ({id_ranges(dups)}), not added again "
                     "(--allow-duplicates adds them)")
            if not result.ids:
                print(f"nothing new stored in {args.db}: {again}", file=out)
            else:
                print(f"stored in {args.db} ({id_ranges(result.ids)})"
                      + (f"; {again}" if dups else ""), file=out)
        out.flush()  # the summary first, then the failures (even when both go to one pipe)
        for index, error in result.errors:
            print(f"mtgk: game {index} failed: {error}", file=sys.stderr)
        return 1 if result.errors else 0

    return run


