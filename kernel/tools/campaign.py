"""Random games over the whole card pool (``mtgk campaign``): a new card or pack is played
in hundreds of games before anyone writes a scenario for it.

Game ``i`` of a campaign of seed ``s`` has 40 to 60 cards per deck, drawn from every
deck-legal card the registry knows (about 40 % basic lands), and cycles through two,
three and four players and Two-Headed Giant; the agents alternate between random and
heuristic.  Each game is played in validated mode (``Game.validate_caches``: the kept
characteristics, state-based actions and legal actions checked after every event), and
then checked: no exception escaped; the log folds to the live state; ``verify`` re-runs
the engine on the recorded decisions and gets the same events; every card's triggered
ability is caused by an earlier event of a type it triggers on.  A failure names the game
(its seed, players, variant) and what failed, so that the game can be played again.

Comparing the pure-Python and the compiled kernel byte for byte needs both installed:
run the same campaign in each (``.ci/run`` does, in its two environments) -- the digests
printed by ``--digests`` must be equal.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from mtgk.agents import HeuristicAgent, RandomAgent
from mtgk.cards.decks import deck_lines
from mtgk.cards.definitions import Registry, Triggered
from mtgk.games.replay import new_header, run_from_header, verify
from mtgk.log import events as ev
from mtgk.log.logfile import encode_log
from mtgk.rules.engine import Game
from mtgk.rules.seats import TWO_HEADED_GIANT
from mtgk.rules.state import encode_state, fold

BASICS = ("Plains", "Island", "Swamp", "Mountain", "Forest")
TABLES: tuple[tuple[int, str], ...] = ((2, ""), (3, ""), (4, ""), (4, TWO_HEADED_GIANT))
"""The games of a campaign cycle through these (players, variant)."""


def deck_pool(reg: Registry) -> list[str]:
    """Every card a deck may hold: not a token, not a basic land, not an Adventure face."""
    out = []
    for name, d in sorted(reg.cards.items()):
        f = d.facts
        token = f.mana_cost is None and "Land" not in f.types
        if name in BASICS or token or d.extras.get("adventure_of") or "Basic" in f.supertypes:
            continue
        out.append(name)
    return out


def random_deck(rng: random.Random, pool: Sequence[str]) -> list[str]:
    """40 to 60 cards, two in five of them basic lands."""
    size = rng.randint(40, 60)
    lands = size * 2 // 5
    return [rng.choice(BASICS) for _ in range(lands)] + \
        [rng.choice(pool) for _ in range(size - lands)]


@dataclass
class CampaignResult:
    """What a campaign found: the games played, their events, and each failure."""

    games: int = 0
    events: int = 0
    failures: list[str] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)


def trigger_problems(reg: Registry, game: Game) -> list[str]:
    """Card triggers not caused by an earlier event of a type they trigger on."""
    out = []
    for env in game.log:
        e = env.event
        if not isinstance(e, ev.AbilityTriggered):
            continue
        name, _, idx = e.ability.rpartition("#")
        d = reg.cards.get(name)
        if d is None or not idx.isdigit() or int(idx) >= len(d.abilities):
            continue
        t = d.abilities[int(idx)]
        if not isinstance(t, Triggered) or not t.on:
            continue  # (a reflexive "when you do": caused by the ability that did it)
        if not 0 <= env.cause < env.seq or game.log[env.cause].event.TAG not in t.on:
            out.append(f"event {env.seq}: {e.ability} caused by event {env.cause}")
    return out


def play_one(reg: Registry, seed: int, i: int, pool: Sequence[str], max_turns: int = 40
             ) -> tuple[Game | None, bytes, list[str]]:
    """Game ``i`` of the campaign of ``seed``: (the game, its log's bytes, problems)."""
    rng = random.Random(f"campaign/{seed}/{i}")
    n, variant = TABLES[i % len(TABLES)]
    teams = [[0, 2], [1, 3]] if variant == TWO_HEADED_GIANT else []
    decks = [random_deck(rng, pool) for _ in range(n)]
    agent = RandomAgent if i % 2 == 0 else HeuristicAgent
    game_seed = rng.randrange(2 ** 31)
    header = new_header(reg, [f"p{k}" for k in range(n)], [deck_lines(d) for d in decks],
                        game_seed, meta={"max_turns": max_turns, "campaign": [seed, i]},
                        variant=variant, teams=teams)
    agents = [agent(game_seed * 2 + k) for k in range(n)]
    where = f"game {i} (seed {seed}, {n} players{', ' + variant if variant else ''})"
    ref: list[Game] = []

    def watch(g: Game) -> None:
        g.validate_caches = True
        ref.append(g)
    try:
        game = run_from_header(reg, header, agents, watch)
    except Exception as exc:  # noqa: BLE001 - a campaign reports every failure
        return (ref[0] if ref else None), b"", [f"{where}: {type(exc).__name__}: {exc}"]
    problems = []
    if encode_state(fold(list(game.log))) != encode_state(game.state):
        problems.append(f"{where}: the log does not fold to the live state")
    report = verify(header, game.log, reg)
    if not report.ok:
        problems.append(f"{where}: verify: {report.summary()}")
    problems += [f"{where}: {p}" for p in trigger_problems(reg, game)]
    return game, encode_log(header, game.log), problems


def campaign(reg: Registry, games: int, seed: int = 0, max_turns: int = 40) -> CampaignResult:
    """Play ``games`` games of the campaign of ``seed`` (see the module docs)."""
    pool = deck_pool(reg)
    result = CampaignResult()
    for i in range(games):
        game, data, problems = play_one(reg, seed, i, pool, max_turns)
        result.games += 1
        result.events += len(game.log) if game is not None else 0
        result.failures += problems
        result.digests.append(hashlib.sha256(data).hexdigest()[:16])
    return result


def main(argv: Sequence[str] | None = None, reg: Registry | None = None) -> int:
    """``mtgk campaign``: exit status 0 when every game passed every check, 1 otherwise."""
    ap = argparse.ArgumentParser(prog="mtgk campaign", description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200, help="how many games (default 200)")
    ap.add_argument("--seed", type=int, default=0, help="the campaign's seed (default 0)")
    ap.add_argument("--max-turns", type=int, default=40, help="a game's turn limit")
    ap.add_argument("--digests", action="store_true",
                    help="print each game's log digest (to compare two kernels)")
    args = ap.parse_args(argv)
    if reg is None:
        from mtgk.cards.loading import load_registry
        reg = load_registry()
    res = campaign(reg, args.games, args.seed, args.max_turns)
    if args.digests:
        for i, d in enumerate(res.digests):
            print(f"{i} {d}")
    for f in res.failures:
        print(f"FAIL {f}")
    print(f"{res.games} games, {res.events} events, {len(res.failures)} failure(s)")
    return 1 if res.failures else 0


if __name__ == "__main__":
    sys.exit(main())
