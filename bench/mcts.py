"""The search agent against the heuristic agent: win rate and seconds per game.

    python bench/mcts.py --games 40 --simulations 32

Mirror games of "Lorwyn Giants & Treefolk" (mtgk.search.MctsAgent with its budget
against mtgk.agents.HeuristicAgent), half with the search agent in each seat; prints one
line per game, then the win rate with its 95% Wilson interval and the CPU seconds per
game.  Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import math
import time

from mtgk.agents import HeuristicAgent
from mtgk.cards.decks import deck_lines, load_deck
from mtgk.cards.loading import load_registry
from mtgk.games.replay import new_header
from mtgk.search import MctsAgent
from mtgk.stepper import Stepper


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    r = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (c - r) / d, (c + r) / d


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--simulations", type=int, default=32)
    ap.add_argument("--deck", default="Lorwyn Giants & Treefolk")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    from run import loop_ms  # (bench/run.py, beside this script: not a package)
    loops = [loop_ms()]
    reg = load_registry()
    deck = deck_lines(load_deck(args.deck, reg))
    wins = draws = 0
    seconds: list[float] = []
    for g in range(args.games):
        seat = g % 2
        agents: list[object] = [None, None]
        agents[seat] = MctsAgent(args.seed + g, simulations=args.simulations)
        agents[1 - seat] = HeuristicAgent(args.seed + g)
        t = time.process_time()
        game = Stepper(reg, new_header(reg, ["A", "B"], [deck, deck], args.seed + 1000 + g),
                       agents)  # type: ignore[arg-type]
        seconds.append(time.process_time() - t)
        w = game.winner
        wins += w == seat
        draws += w == -1
        print(f"game {g}: mcts in seat {seat}, winner {w}, {len(game.log)} events, "
              f"{seconds[-1]:.1f} s", flush=True)
    loops.append(loop_ms())
    print(f"machine: a plain Python loop of 1,000,000 additions took "
          f"{min(loops):.0f}-{max(loops):.0f} ms (before and after)")
    lo, hi = wilson(wins, args.games)
    print(f"mcts won {wins}/{args.games} ({wins / args.games:.0%}, 95% interval "
          f"{lo:.0%}-{hi:.0%}; {draws} draws), {sum(seconds) / len(seconds):.1f} s a game "
          f"(max {max(seconds):.1f} s)")


if __name__ == "__main__":
    main()
