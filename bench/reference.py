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
different game.  The versions in the header (``kernel_version``, ``rules_revision``)
are left out of the digests (the digests are those of the games before the header
recorded a rules revision): bumping one does not change them.

**The digests are tied to the versions** (docs/log-format.md, "Versions"): the file
begins with one ``# versions`` line for every set of versions it was ever written under
(``mtgk.RULES_REVISION`` and every card set's version) with the *fingerprint* of that
set's digests, oldest first, and ``--write`` only appends to them: it refuses to record
other digests under versions that already have a fingerprint (the events changed, so a
version must be bumped first), and ``--check`` (and ``tests/test_versions.py``) fail
when the games' digests differ from those recorded for the running versions::

    # versions rules=1 core=0.1.0 eldraine=0.1.0 lorwyn=0.1.0 fingerprint=3f2a...
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

import mtgk
from mtgk.agents import HeuristicAgent, RandomAgent
from mtgk.cards.decks import builtin_decks, deck_lines, load_deck
from mtgk.cards.loading import load_registry
from mtgk.games.replay import new_header, run_from_header
from mtgk.log.logfile import encode_log

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
            header.rules_revision = msgspec.UNSET  # (nor the rules revision: versions_key())
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


def versions_key() -> str:
    """The versions the reference games are played under, as the ``# versions`` lines
    name them: ``rules=N`` and ``NAME=VERSION`` for every card set loaded."""
    reg = load_registry()
    sets = " ".join(f"{name}={reg.sets[name].version}" for name in sorted(reg.sets))
    return f"rules={mtgk.RULES_REVISION} {sets}"


def fingerprint(lines: list[str]) -> str:
    """One digest of all the games' digest lines."""
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:24]


@dataclass
class Recorded:
    """A digests file: ``history`` (versions key -> fingerprint, in file order, with any
    key recorded twice in ``twice``) and the digest lines of the newest versions."""

    history: list[tuple[str, str]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    twice: list[str] = field(default_factory=list)

    def fingerprint_of(self, key: str) -> str | None:
        found = [fp for k, fp in self.history if k == key]
        return found[-1] if found else None

    def text(self) -> str:
        head = [f"# versions {k} fingerprint={fp}" for k, fp in self.history]
        return "\n".join(head + self.lines) + "\n"


def parse(text: str) -> Recorded:
    """Read a digests file (one written before versions were recorded has no history)."""
    rec = Recorded()
    for line in text.splitlines():
        if line.startswith("# versions "):
            body = line[len("# versions "):]
            key, _, fp = body.rpartition(" fingerprint=")
            if any(k == key for k, _ in rec.history):
                rec.twice.append(key)
            rec.history.append((key, fp))
        elif line.strip() and not line.startswith("#"):
            rec.lines.append(line)
    return rec


def problems(rec: Recorded, key: str, got: list[str]) -> list[str]:
    """Why the digests ``got`` under the versions ``key`` do not match the record
    ``rec`` (empty: they do).  The first problem says what to do."""
    out: list[str] = []
    for k in rec.twice:
        out.append(f"the versions {k} are recorded twice, with two fingerprints: two "
                   "changes of the events under one version (a merge?); bump "
                   "mtgk.RULES_REVISION (kernel/__init__.py) and run --write")
    fp = rec.fingerprint_of(key)
    if fp is None:
        out.append(f"no digests are recorded for the versions running now ({key}): after a "
                   "version bump, record them with `python bench/reference.py --write "
                   "bench/reference-digests.txt`")
    elif fp != fingerprint(got):
        out.append(f"the reference games' events changed but the versions did not ({key}): "
                   "bump mtgk.RULES_REVISION in kernel/__init__.py (or the version of the "
                   "card set whose cards' events changed), then record the digests with "
                   "`python bench/reference.py --write bench/reference-digests.txt` "
                   "(docs/log-format.md, \"Versions\")")
    elif rec.lines != got:
        out.append(f"the digest lines differ from the fingerprint recorded for {key}: the "
                   "file was edited; write it again with --write")
    return out


def write(path: Path, key: str, got: list[str]) -> tuple[bool, str]:
    """Record ``got`` under ``key`` in ``path``: (written, message)."""
    rec = parse(path.read_text()) if path.exists() else Recorded()
    fp = fingerprint(got)
    known = rec.fingerprint_of(key)
    if known is not None and known != fp:
        return False, (f"refused: the versions {key} already have other digests recorded "
                       f"(fingerprint {known}, now {fp}): the events changed, so bump "
                       "mtgk.RULES_REVISION (kernel/__init__.py) or the changed card set's "
                       "version first (docs/log-format.md, \"Versions\")")
    if known is None:
        rec.history.append((key, fp))
    rec.lines = got
    path.write_text(rec.text())
    return True, f"{len(got)} reference games recorded in {path} under {key}"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--write", metavar="FILE", help="record the digests in FILE (refused if "
                   "they differ from those recorded for the same versions)")
    g.add_argument("--check", metavar="FILE", help="compare with the digests in FILE")
    args = p.parse_args(argv)
    got = digests()
    key = versions_key()
    if args.write:
        ok, message = write(Path(args.write), key, got)
        print(message)
        return 0 if ok else 1
    if not args.check:
        print("\n".join(got))
        return 0
    rec = parse(Path(args.check).read_text())
    want = rec.lines
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
    found = problems(rec, key, got)
    for text in found:
        print(text)
    return 1 if differ or found else 0


if __name__ == "__main__":
    sys.exit(main())
