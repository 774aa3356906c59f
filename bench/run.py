"""Print this machine's figures for mtgk (reported, not gated; CI does not run this).

    python bench/run.py [--games 100]      (about two minutes)

Figures: this machine's speed at the moment (a plain Python loop: shared
machines vary by half from minute to minute, so compare figures taken at the
same loop time); card sets' load time; random-playout games/s and
decisions/s (the ogre deck and the built-in Lorwyn decks, each the median and
best of three runs); events/s replayed from saved logs (decode + fold); log
bytes per event; the time to seek to the middle of a 100,000-event log (with
snapshots, cold and warm).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from mtgk.agents import RandomAgent
from mtgk.cards.decks import parse_deck
from mtgk.cards.loading import load_registry
from mtgk.games.replay import Seeker
from mtgk.log.logfile import LogHeader, read_log, write_log
from mtgk.rules.engine import Game
from mtgk.rules.state import fold
from mtgk.tools.bench import playouts

HERE = Path(__file__).parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=100)
    args = ap.parse_args()

    t = time.perf_counter()
    reg = load_registry()
    first = (time.perf_counter() - t) * 1000
    warm = []
    for _ in range(5):
        t = time.perf_counter()
        load_registry()
        warm.append((time.perf_counter() - t) * 1000)
    print(f"load card sets: {first:.0f} ms first (imports included), "
          f"{statistics.median(warm):.0f} ms warm; {len(reg.cards)} cards in {len(reg.sets)} sets")

    print(f"machine: a plain Python loop of 1,000,000 additions takes {loop_ms():.0f} ms now")
    ogres = parse_deck((HERE / "decks" / "ogres.txt").read_text(), reg)
    decks = [("ogres deck (bench/decks/ogres.txt)", ogres)] + [
        (f"built-in deck {name!r}", parse_deck(text, reg))
        for name, text in sorted(reg.sets["lorwyn"].decks.items())]
    for what, deck in decks:
        for seed in (1, 2):
            runs = sorted((playouts(reg, deck, args.games, seed=seed) for _ in range(3)),
                          key=lambda r: r.seconds)
            r = runs[1]
            print(f"playouts, {what}, seed {seed}: {r.games / r.seconds:.1f} games/s median, "
                  f"{r.games / runs[0].seconds:.1f} best; {r.decisions / r.seconds:,.0f} "
                  f"decisions/s, {r.events / r.games:.0f} events/game")
            print(f"  {r.line()}")

    logs = []
    for s in range(40):
        g = Game(reg, ["a", "b"], seed=s, agents=[RandomAgent(s), RandomAgent(s + 1000)])
        g.play([ogres, ogres], mulligans=False)
        logs.append(g.log)
    header = LogHeader(kernel_version="bench", cardsets=[], players=["a", "b"], decks=[], seed=0)
    with tempfile.TemporaryDirectory() as tmp:
        paths, size, n = [], 0, 0
        for i, lg in enumerate(logs):
            p = Path(tmp) / f"g{i}.mtgk"
            size += write_log(p, header, lg) - len(_header_bytes(header))
            n += len(lg)
            paths.append(p)
        print(f"log size: {size / n:.1f} bytes/event (records only; {n:,} events in 40 games)")
        t = time.perf_counter()
        for p in paths:
            read_log(p)
        dec = time.perf_counter() - t
        t = time.perf_counter()
        for p in paths:
            fold(read_log(p).events)
        both = time.perf_counter() - t
        print(f"replay: {n / both:,.0f} events/s decoded and folded "
              f"({n / dec:,.0f} events/s decode only)")

    # a 100,000-event game: 3,400 Gray Ogres and no lands each, so nobody can do anything
    # but draw and discard for ~6,700 turns
    long_deck = ["Gray Ogre"] * 3400
    g = Game(reg, ["a", "b"], seed=5, agents=[RandomAgent(1), RandomAgent(2)])
    g.play([long_deck, long_deck], mulligans=False, max_turns=10_000)
    log = g.log[:100_000]
    seeker = Seeker(log)
    t = time.perf_counter()
    seeker.state_at(len(log) // 2)
    cold = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    for k in range(20):
        seeker.state_at(len(log) // 2 + k * 37)
    warm_ms = (time.perf_counter() - t) * 1000 / 20
    print(f"seek to the middle of a {len(log):,}-event log: {cold:.0f} ms cold "
          f"(building snapshots), {warm_ms:.1f} ms with snapshots every {seeker.every}")


def loop_ms() -> float:
    """Milliseconds for a plain Python loop (the best of five): how fast the machine is."""
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        x = 0
        for i in range(1_000_000):
            x += i & 7
        best = min(best, time.perf_counter() - t)
    return best * 1000


def _header_bytes(header: LogHeader) -> bytes:
    import msgspec
    return msgspec.msgpack.encode(header)


if __name__ == "__main__":
    main()
