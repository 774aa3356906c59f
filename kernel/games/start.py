"""Starting games from log headers: :func:`new_header` for a new game, :func:`start_game`
and :func:`run_from_header` for the game a header describes (its players, decks, seed,
rules profile, variant and options).

Below :mod:`mtgk.games.replay` (which re-runs logs) and :mod:`mtgk.stepper` (which drives
games from outside): both start their games here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import mtgk
from mtgk.cards.decks import parse_deck
from mtgk.log.logfile import LogHeader
from mtgk.rules.definitions import Registry
from mtgk.rules.engine import Agent, Game
from mtgk.rules.seats import ATTACK_MULTIPLE, ATTACK_OPTIONS, variant_event

__all__ = ["DEFAULT_MAX_TURNS", "SetupError", "Watch", "header_decks", "header_variant",
           "new_header", "run_from_header", "start_game"]


class SetupError(ValueError):
    """A log labelled a scenario log whose header or setup is not a scenario's."""


DEFAULT_MAX_TURNS = 200
"""The turn limit of a game whose header does not say (``meta["max_turns"]``)."""

Watch = Callable[[Game], None]


# --------------------------------------------------------------------------
# Starting games from headers


def new_header(registry: Registry, players: Sequence[str], decks: Sequence[Sequence[str]],
               seed: int, profile: str = "lorwyn-2007",
               meta: dict[str, Any] | None = None, variant: str = "",
               teams: Sequence[Sequence[int]] = ()) -> LogHeader:
    """The header of a new game log: kernel version, card sets (with versions), decks...

    ``decks`` are deck lines (see :func:`mtgk.cards.decks.deck_lines`).  A multiplayer
    game's header says its ``variant`` (``meta["variant"]``: ``free_for_all`` or
    ``two_headed_giant``) and ``teams`` (``meta["teams"]``, lists of player indices) and
    lists the ``GameVariant`` event type; a two-player game's has neither.  Without
    ``variant`` and ``teams``, those of ``meta`` (a header's copied meta) are used.
    """
    sets = [(name, registry.sets[name].version) for name in sorted(registry.sets)]
    meta = dict(meta or {})
    if not variant and not teams:  # (a copied meta, e.g. a branch's: the game's own)
        variant, teams = str(meta.get("variant", "")), meta.get("teams", ())
    game_variant = variant_event(len(players), variant, teams)
    if game_variant is not None:
        meta["variant"] = game_variant.variant
        if game_variant.teams:
            meta["teams"] = [list(t) for t in game_variant.teams]
    return LogHeader(kernel_version=mtgk.__version__, cardsets=sets, players=list(players),
                     decks=[list(d) for d in decks], seed=seed, profile=profile, meta=meta,
                     events=LogHeader.current_event_table(game_variant is not None),
                     rules_revision=mtgk.RULES_REVISION)


def header_variant(header: LogHeader) -> tuple[str, list[list[int]]]:
    """The variant and teams a header records (``("", [])``: a two-player game)."""
    variant = header.meta.get("variant", "")
    teams = header.meta.get("teams", [])
    if not isinstance(variant, str) or not isinstance(teams, list) or not all(
            isinstance(t, list) and all(isinstance(p, int) for p in t) for t in teams):
        raise SetupError("the header's variant or teams (meta.variant, meta.teams) are not "
                         "a variant name and lists of player numbers")
    return variant, teams


def header_decks(header: LogHeader, registry: Registry) -> list[list[str]]:
    """The decks of ``header`` as card lists (deck lines parsed with :mod:`mtgk.cards.decks`)."""
    out: list[list[str]] = []
    for i, lines in enumerate(header.decks):
        who = header.players[i] if i < len(header.players) else f"player {i}"
        out.append(parse_deck("\n".join(lines), registry, source=f"{who}'s deck in the header"))
    return out


def start_game(registry: Registry, header: LogHeader, agents: Sequence[Agent]) -> Game:
    """A new game as ``header`` describes it (players, seed, rules profile)."""
    variant, teams = header_variant(header)
    try:
        game = Game(registry, list(header.players), seed=header.seed, agents=list(agents),
                    profile=header.profile, variant=variant, teams=teams)
    except ValueError as err:  # a variant or teams this kernel can't play
        raise SetupError(f"the header's game can't be played: {err}") from None
    attack = header.meta.get("attack", ATTACK_MULTIPLE)  # a free-for-all game's option
    if attack not in ATTACK_OPTIONS:
        raise SetupError(f"the header's attack option (meta.attack) {attack!r} is not one of "
                         f"{', '.join(ATTACK_OPTIONS)}")
    game.attack_option = attack
    return game


def run_from_header(registry: Registry, header: LogHeader, agents: Sequence[Agent] | None = None,
                    watch: Watch | None = None) -> Game:
    """Start a game from ``header`` and play it to its end with ``agents``.

    ``watch(game)`` is called once the game exists (after its first event,
    ``GameStarted``) and before anything else happens, e.g. to add listeners.
    Without ``agents`` both players pass (the engine's default agent).
    Exceptions from the engine propagate.
    """
    decks = header_decks(header, registry)
    game = start_game(registry, header, agents or [])
    game.max_events = int(header.meta.get("max_events", game.max_events))  # the event budget
    if watch is not None:
        watch(game)
    max_turns = int(header.meta.get("max_turns", DEFAULT_MAX_TURNS))
    mulligans = bool(header.meta.get("mulligans", True))
    game.play(decks if decks else None, mulligans=mulligans, max_turns=max_turns)
    return game


