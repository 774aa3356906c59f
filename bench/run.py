"""Print this machine's figures for mtgk (reported, not gated; CI does not run this).

    python bench/run.py [--games 200] [--events 100000]

Figures: random-playout games/s and decisions/s (built-in decks and the ogre
deck), events/s replayed from a saved log, time to seek to the middle of a
100,000-event log, log bytes per event, and time to load the card sets.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from kernel.bench import playouts
from kernel.plugins import load_registry

HERE = Path(__file__).parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--events", type=int, default=100_000)
    args = ap.parse_args()

    t = time.perf_counter()
    reg = load_registry()
    load_ms = (time.perf_counter() - t) * 1000
    loads = []
    for _ in range(5):
        t = time.perf_counter()
        load_registry()
        loads.append((time.perf_counter() - t) * 1000)
    print(f"card sets loaded: first {load_ms:.0f} ms, warm median {statistics.median(loads):.0f} ms"
          f" ({len(reg.cards)} cards, {len(reg.sets)} sets)")

    ogres = [ln.split(" ", 1) for ln in (HERE / "decks" / "ogres.txt").read_text().splitlines()
             if ln and not ln.startswith("#")]
    deck = [name for n, name in ogres for _ in range(int(n))]
    r = playouts(reg, deck, args.games, seed=1)
    print(f"playouts (ogres): {r.games / r.seconds:.1f} games/s, "
          f"{r.decisions / r.seconds:.0f} decisions/s, {r.events / r.games:.0f} events/game")
    decks = reg.sets["lorwyn"].decks if "lorwyn" in reg.sets else {}
    if decks:
        from kernel.decks import parse_deck
        d = parse_deck(next(iter(decks.values())), reg)
        r2 = playouts(reg, d, max(20, args.games // 4), seed=2)
        print(f"playouts (built-in deck): {r2.games / r2.seconds:.1f} games/s, "
              f"{r2.decisions / r2.seconds:.0f} decisions/s")

    # one long log, by concatenating games, for replay and seek figures
    from kernel.agents import RandomAgent
    from kernel.engine import Game
    from kernel.logfile import LogHeader, read_log, write_log
    from kernel.replay import Seeker

    envs = []
    seed = 0
    while sum(len(x) for x in envs) < args.events:
        g = Game(reg, ["a", "b"], seed=seed, agents=[RandomAgent(seed), RandomAgent(seed + 1)])
        g.play([deck, deck], mulligans=False)
        envs.append(g.log)
        seed += 1
    log = envs[0]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "one.mtgk"
        header = LogHeader(kernel_version="bench", cardsets=[], players=["a", "b"], decks=[],
                           seed=0)
        size = write_log(path, header, log)
        print(f"log size: {size / len(log):.1f} bytes/event ({len(log)} events, header incl.)")
        total = 0
        t = time.perf_counter()
        for game_log in envs:
            p = Path(tmp) / "g.mtgk"
            write_log(p, header, game_log)
            t0 = time.perf_counter()
            lf = read_log(p)
            from kernel.state import fold
            fold(lf.envelopes)
            total += len(lf.envelopes)
            t += 0
            del t0
        elapsed = time.perf_counter() - t
        print(f"replay (decode + fold): {total / elapsed:,.0f} events/s over {total} events")
    big = [e for game_log in envs for e in game_log][: args.events]
    # seeking needs one consistent game: use the longest single game, repeated seek
    longest = max(envs, key=len)
    s = Seeker(longest)
    mid = len(longest) // 2
    t = time.perf_counter()
    s.state_at(mid)
    print(f"seek to the middle of a {len(longest)}-event game: "
          f"{(time.perf_counter() - t) * 1000:.2f} ms (snapshots every {s.every})")
    del big


if __name__ == "__main__":
    main()
