"""The reference games: 120 seeded games whose logs must not change by accident.

Refactors and speed work must keep the logs byte-identical. This script plays
40 games of each of three decks (the two built-in decks and
``bench/decks/ogres.txt``), half with random agents and half with the heuristic
agent, and prints one digest per game::

    python bench/reference.py --write bench/reference-digests.txt   # record
    python bench/reference.py --check bench/reference-digests.txt   # compare (exit 1: differ)

Each line holds two digests: of the whole log file (header, events, causes),
written in the file format version 1 so that the digests stay those of the games
when the kernel writes a newer version, and of the events alone (no causes), so a
change that only re-links causes shows up as ``causes differ`` rather than as a
different game.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

import msgspec

from mtgk.agents import HeuristicAgent, RandomAgent
from mtgk.cards.decks import builtin_decks, deck_lines, load_deck
from mtgk.cards.loading import load_registry
from mtgk.log.logfile import encode_log
from mtgk.log.replay import new_header, run_from_header

HERE = Path(__file__).parent
GAMES_PER_DECK = 40


def reference_games() -> list[tuple[str, bytes, bytes]]:
    """``(name, log bytes, events-only bytes)`` for each reference game, in order."""
    reg = load_registry()
    names = [k for k in builtin_decks(reg) if "/" not in k][:2] + [str(HERE / "decks/ogres.txt")]
    out: list[tuple[str, bytes, bytes]] = []
    enc = msgspec.msgpack.Encoder()
    for deck_name in names:
        deck = deck_lines(load_deck(deck_name, reg))
        label = Path(deck_name).stem if "/" in deck_name else deck_name
        for i in range(GAMES_PER_DECK):
            seed = 1000 + i
            kind = "random" if i % 2 == 0 else "heuristic"
            agent = RandomAgent if kind == "random" else HeuristicAgent
            meta = {"deck_names": [label, label], "reference": kind}
            header = new_header(reg, ["p1", "p2"], [deck, deck], seed, meta=meta)
            header.kernel_version = "reference"  # digests must not change with the version
            game = run_from_header(reg, header, [agent(seed * 2), agent(seed * 2 + 1)])
            # (the file format version 1: the digests are of the games, whichever format
            # version the kernel writes; docs/log-format.md)
            log = encode_log(header, game.log, version=1)
            events = b"".join(enc.encode(env.event) for env in game.log)
            out.append((f"{label}#{i}", log, events))
    return out


def digests() -> list[str]:
    lines = []
    for name, log, events in reference_games():
        lines.append(f"{hashlib.sha256(log).hexdigest()[:24]} "
                     f"{hashlib.sha256(events).hexdigest()[:24]} {name}")
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--write", metavar="FILE", help="record the digests in FILE")
    g.add_argument("--check", metavar="FILE", help="compare with the digests in FILE")
    args = p.parse_args(argv)
    got = digests()
    if args.write:
        Path(args.write).write_text("\n".join(got) + "\n")
        print(f"{len(got)} reference games recorded in {args.write}")
        return 0
    if not args.check:
        print("\n".join(got))
        return 0
    want = Path(args.check).read_text().splitlines()
    differ = 0
    for w, g_ in zip(want, got, strict=False):
        wl, we, name = w.split(" ", 2)
        gl, ge, _ = g_.split(" ", 2)
        if wl != gl:
            differ += 1
            print(f"{name}: {'causes or header differ' if we == ge else 'events differ'}")
    if len(want) != len(got):
        print(f"{len(want)} games recorded, {len(got)} played")
        differ += 1
    print(f"{len(got) - differ} of {len(got)} reference games identical")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
