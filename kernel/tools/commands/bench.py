"""``mtgk bench``: the benchmarks (:mod:`mtgk.tools.bench`)."""

from __future__ import annotations

import argparse

from mtgk.cards.decks import DeckError, builtin_decks, load_deck
from mtgk.tools.cli_base import Runner, UserError, json_line, registry, stdout

__all__ = ["setup"]


def setup(p: argparse.ArgumentParser) -> Runner:
    """``mtgk bench``'s arguments, added to ``p``; returns the function that runs it."""
    p.add_argument("what", choices=["playouts", "forks"],
                   help="which benchmark: random playouts of one deck; or forks of games of "
                   "the first two built-in decks (or --decks) at decisions spread over "
                   "each game, each checked against the original played on")
    p.add_argument("--decks", nargs=2, metavar="DECK",
                   help="forks: the two decks (built-in names or deck files; default: "
                   "--deck for both, else the first two built-in decks)")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed (default 0)")
    p.add_argument("--deck", help="deck file or built-in deck name, used by both players "
                   "(playouts' default: bench/decks/ogres.txt's 17 Mountain + 23 Gray Ogre)")
    p.add_argument("--max-turns", type=int, default=200, help="a game stops as a draw after "
                   "this many turns (default 200)")
    p.add_argument("--progress", action="store_true", help="print progress while playing")
    p.add_argument("--skip-trivial", action="store_true",
                   help="a player who may only pass passes without being asked (not counted "
                   "as a decision), like managym's skip_trivial")
    p.add_argument("--json", action="store_true",
                   help="print the figures as one JSON object instead of the two lines")

    def run(args: argparse.Namespace) -> int:
        from mtgk.tools.bench import forks, playouts
        if args.games < 1:
            raise UserError("--games must be at least 1")
        reg = registry(args)
        if args.what == "forks":
            try:
                names = args.decks or ([args.deck] * 2 if args.deck else
                                       list(builtin_decks(reg))[:2])
                decks = [load_deck(n, reg) for n in names]
            except DeckError as exc:
                raise UserError(str(exc)) from None
            f = forks(reg, decks, args.games, seed=args.seed, max_turns=args.max_turns,
                      progress=args.progress)
            if args.json:
                print(json_line({"forks": f.forks, "exact": f.exact,
                                  "median_us": round(f.median_us()),
                                  "p99_us": round(f.p99_us()), "events_max": f.events_max}),
                      file=stdout())
                return 0 if f.exact == f.forks else 1
            print(f.line(), file=stdout())
            return 0 if f.exact == f.forks else 1
        if args.deck:
            try:
                deck = load_deck(args.deck, reg)
            except DeckError as exc:
                raise UserError(str(exc)) from None
        else:
            deck = ["Mountain"] * 17 + ["Gray Ogre"] * 23
        r = playouts(reg, deck, args.games, seed=args.seed, max_turns=args.max_turns,
                     progress=args.progress, skip_trivial=args.skip_trivial)
        if args.json:
            print(json_line({"games": r.games, "decisions": r.decisions, "events": r.events,
                              "seconds": round(r.seconds, 3),
                              "games_per_second": round(r.games / r.seconds, 1)}), file=stdout())
            return 0
        print(f"{r.games / r.seconds:.1f} games/s, {r.decisions / r.seconds:.0f} decisions/s, "
              f"{r.events / r.seconds:.0f} events/s", file=stdout())
        print(r.line(), file=stdout())
        return 0

    return run

