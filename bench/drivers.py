"""What driving a game from outside costs: the engine calling its agents, against the
stepper (mtgk.stepper) asking them, and the caller answering every decision; and a fork
against a re-run of the game (what a copy of a game was before the stepper).

    python bench/drivers.py --games 20 --rounds 3

Random playouts of the ogres deck (17 Mountain, 23 Gray Ogre), the same games in each
way (the logs are compared), interleaved round by round; CPU seconds (process time).
Then forks at decisions spread over Lorwyn games: a fork's median, against playing the
game again from its header with the answers given so far.  Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

from mtgk.agents import HeuristicAgent, RandomAgent
from mtgk.cards.decks import builtin_decks, deck_lines, load_deck
from mtgk.cards.loading import load_registry
from mtgk.games.replay import new_header, run_from_header
from mtgk.stepper import Stepper

OGRES = deck_lines(["Mountain"] * 17 + ["Gray Ogre"] * 23)


def _header(reg, seed: int, decks=None):  # type: ignore[no-untyped-def]
    return new_header(reg, ["A", "B"], decks or [OGRES, OGRES], seed,
                      meta={"mulligans": False})


def engine(reg, games: int) -> list[int]:  # type: ignore[no-untyped-def]
    return [len(run_from_header(reg, _header(reg, i), [RandomAgent(2 * i),
                                                       RandomAgent(2 * i + 1)]).log)
            for i in range(games)]


def stepper_agents(reg, games: int) -> list[int]:  # type: ignore[no-untyped-def]
    return [len(Stepper(reg, _header(reg, i), [RandomAgent(2 * i),
                                               RandomAgent(2 * i + 1)]).log)
            for i in range(games)]


def caller(reg, games: int) -> list[int]:  # type: ignore[no-untyped-def]
    out = []
    for i in range(games):
        s = Stepper(reg, _header(reg, i), forks=False)
        agents = [RandomAgent(2 * i), RandomAgent(2 * i + 1)]
        while s.decision is not None:
            s.answer(agents[s.decision.player].decide(s.game, s.decision))
        out.append(len(s.log))
    return out


def forks(reg, games: int) -> tuple[list[float], list[float], int]:  # type: ignore[no-untyped-def]
    names = list(builtin_decks(reg))[:2]
    decks = [deck_lines(load_deck(n, reg)) for n in names]
    fork_us: list[float] = []
    rerun_us: list[float] = []
    events = 0
    for i in range(games):
        h = new_header(reg, ["A", "B"], decks, 100 + i)
        s = Stepper(reg, h)
        agents = [HeuristicAgent(1), HeuristicAgent(2)]
        k = 0
        while s.decision is not None:
            if k % 25 == 12:
                t = time.process_time()
                s.fork()
                fork_us.append((time.process_time() - t) * 1e6)
                t = time.process_time()
                again = Stepper(reg, h, forks=False)
                for a in s.answers:
                    again.answer(a)
                rerun_us.append((time.process_time() - t) * 1e6)
                events = max(events, len(s.log))
            s.answer(agents[s.decision.player].decide(s.game, s.decision))
            k += 1
    return fork_us, rerun_us, events


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    reg = load_registry()
    ways = {"engine calls its agents": engine, "stepper asks them": stepper_agents,
            "caller answers each decision": caller}
    times: dict[str, list[float]] = {w: [] for w in ways}
    lengths = {}
    for _ in range(args.rounds):
        for name, fn in ways.items():
            t = time.process_time()
            lengths[name] = fn(reg, args.games)
            times[name].append(time.process_time() - t)
    assert len(set(map(tuple, lengths.values()))) == 1, "the ways played different games"
    base = statistics.median(times["engine calls its agents"])
    for name, ts in times.items():
        m = statistics.median(ts)
        print(f"{name:30} {m:7.3f} s  ({m / base:.3f}x)  rounds {', '.join(f'{t:.3f}' for t in ts)}")
    f, r, events = forks(reg, max(2, args.games // 5))
    print(f"fork: median {statistics.median(f):.0f} us, max {max(f):.0f} us; "
          f"re-run from the header: median {statistics.median(r):.0f} us, "
          f"max {max(r):.0f} us ({len(f)} forks, games up to {events} events)")


if __name__ == "__main__":
    main()
