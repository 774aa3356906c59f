"""Building a table: what an environment's games are made of (:class:`Setup`: the
registry, the card numbers, the log header, who plays each seat), from its arguments
(:func:`make_setup`), anew for each game's seed (:func:`reseed`, :class:`Seeds`).
"""

from __future__ import annotations

import dataclasses
import functools
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from mtgk.agents import HeuristicAgent
from mtgk.cards.decks import builtin_decks, deck_lines, load_deck
from mtgk.cards.definitions import Registry
from mtgk.cards.loading import load_registry
from mtgk.env.checks import SEED_LIMIT, EnvError, check_seed, whole_number
from mtgk.env.observation import card_numbers
from mtgk.env.policies import AgentMaker, Policies, Policy, Reward, seat_policies
from mtgk.games.replay import new_header
from mtgk.log.logfile import LogHeader
from mtgk.rules.engine import DEFAULT_MAX_EVENTS
from mtgk.rules.seats import TWO_HEADED_GIANT, VARIANTS, attack_meta


@dataclass
class Setup:
    reg: Registry
    cards: dict[str, int]
    header: LogHeader
    external: tuple[int, ...]
    internal: dict[int, tuple[AgentMaker, int]] = field(default_factory=dict)
    skip_trivial: bool = True
    text: bool = False
    policies: dict[int, Sequence[Policy]] = field(default_factory=dict)
    history: int = 0
    masks: bool = False
    reward: Reward | None = None
    forks: bool | None = None
    """Whether the game records checkpoints (:class:`~mtgk.stepper.Stepper`'s ``forks``:
    ``None``, the default, records them, so that a fork costs the same early and late in a
    game; the vector environment records none: its games are forked by playing them
    again)."""



def _decks(reg: Registry, decks: Sequence[str | Sequence[str]] | None) -> tuple[
        list[str], list[list[str]]]:
    names: list[str] = []
    out: list[list[str]] = []
    if decks is None:
        decks = [k for k in builtin_decks(reg) if "/" not in k][:2]
    for d in decks:
        if isinstance(d, str):
            names.append(Path(d).stem if Path(d).suffix else d)
            out.append(load_deck(d, reg))
        else:
            names.append("cards")
            out.append(list(d))
    if len(out) < 2:
        raise EnvError("a game needs a deck for each seat (two or more)")
    return names, out


DEFAULT_PROFILE = "lorwyn-2007"
"""The rules profile of an environment's games unless told otherwise."""


def game_variant(variant: str, profile: str | None) -> tuple[str, str]:
    """``(game variant, rules profile)`` of an environment's ``variant`` and ``profile``
    arguments: ``variant`` is a game variant (``"two-headed-giant"``, ``"free-for-all"``, or
    with underscores; ``""``: by the number of decks) -- or, as before multiplayer games, a
    rules profile (then ``profile`` must not be given too)."""
    name = variant.replace("-", "_")
    if not variant or name in VARIANTS:
        return name, profile or DEFAULT_PROFILE
    if profile is not None:
        raise EnvError(f"unknown game variant {variant!r} (known: "
                       f"{', '.join(v.replace('_', '-') for v in VARIANTS)})")
    return "", variant


def make_setup(decks: Sequence[str | Sequence[str]] | None, variant: str, seed: int | None,
           external: Sequence[int] | None, opponent: AgentMaker | None,
           registry: Registry | None, max_turns: int, skip_trivial: bool, text: bool,
           kind: str, profile: str | None = None, attack: str = "",
           policies: Policies | None = None, history: int = 0, masks: bool = False,
           reward: Reward | None = None) -> Setup:
    # (no seed: one drawn at random, as `mtgk play` draws one; the log records it)
    seed = secrets.randbelow(SEED_LIMIT) if seed is None else check_seed(seed)
    reg = registry or default_registry()
    names, cards = _decks(reg, decks)
    kind_of_game, profile = game_variant(variant, profile)
    teams: list[list[int]] = []
    if kind_of_game == TWO_HEADED_GIANT:
        if len(cards) < 4:  # (dealt round the seats, as `mtgk play` deals them)
            names = [names[i % len(names)] for i in range(4)]
            cards = [cards[i % len(cards)] for i in range(4)]
        teams = [[0, 2], [1, 3]]
    seats = len(cards)
    ext = tuple(range(seats)) if external is None else tuple(external)
    for i in ext:
        if not 0 <= i < seats:
            raise EnvError(f"no seat {i}: this game's seats are 0..{seats - 1}")
    at_table = seat_policies(policies, ext[0], seats) if ext else {}
    ext = tuple(sorted({*ext, *at_table}))
    internal: dict[int, tuple[AgentMaker, int]] = {}
    agents_meta: list[dict[str, Any]] = []
    for i in range(seats):
        if i in at_table:
            agents_meta.append({"kind": "policy"})
        elif i in ext:
            agents_meta.append({"kind": kind})
        else:
            make = opponent or HeuristicAgent
            internal[i] = (make, seed * 2 + i)
            agents_meta.append({"kind": getattr(make, "__name__", "agent"), "seed": seed * 2 + i})
    players = [f"player_{i}" for i in range(seats)]
    meta = {"agents": agents_meta, "deck_names": names, "max_turns": max_turns,
            "max_events": DEFAULT_MAX_EVENTS}
    try:
        meta.update(attack_meta(attack, seats, kind_of_game))
        header = new_header(reg, players, [deck_lines(d) for d in cards], seed,
                            profile=profile, meta=meta, variant=kind_of_game, teams=teams)
    except ValueError as err:  # a game the kernel can't play (five seats ...)
        raise EnvError(str(err)) from None
    k = whole_number(history)
    if k is None or k < 0:
        raise EnvError(f"history is a number of events (0: none), not {history!r}")
    if reward is not None and not callable(reward):
        raise EnvError("reward is a callable (state_before, state_after, seat) -> float")
    return Setup(reg, card_numbers(reg), header, ext, internal, skip_trivial, text, at_table,
                  k, bool(masks), reward)


@functools.cache
def default_registry() -> Registry:
    return load_registry()


def reseed(setup: Setup, seed: int) -> Setup:
    h = setup.header
    meta = dict(h.meta)
    meta["agents"] = [dict(a, seed=seed * 2 + i) if "seed" in a else dict(a)
                      for i, a in enumerate(meta["agents"])]
    header = new_header(setup.reg, h.players, h.decks, seed, profile=h.profile, meta=meta)
    internal = {i: (make, seed * 2 + i) for i, (make, _s) in setup.internal.items()}
    return dataclasses.replace(setup, header=header, internal=internal)


class Seeds:
    """The seeds of an environment's games, as Gymnasium seeds its environments: a seed
    given to ``reset`` is that game's, and reseeds the environment's generator; no seed
    is the generator's next draw -- but the first game of an environment is the seed it
    was made with (so ``env(seed=3).reset()`` is ``reset(seed=3)``)."""

    def __init__(self, seed: int) -> None:
        self.first: int | None = seed
        self.rng = np.random.default_rng(seed)

    def next(self, seed: Any, rng: np.random.Generator | None = None) -> int:
        """The next game's seed (``rng``: the generator to draw from, instead of
        :attr:`rng`; the caller reseeds it when ``seed`` is given)."""
        if seed is not None:
            n = check_seed(seed)
            self.rng, self.first = np.random.default_rng(n), None
            return n
        if self.first is not None:
            n, self.first = self.first, None
            return n
        return int((rng or self.rng).integers(SEED_LIMIT))
