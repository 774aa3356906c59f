"""Players, teams and turn order: who a player's opponents and teammates are, whose turn
it is, who takes the next turn and who gets priority next, in games of two to four
players (free-for-all and Two-Headed Giant: docs/multiplayer.md).

Each helper takes a :class:`~mtgk.rules.state.State`; for a two-player game each gives
exactly what the two-player code did (the opponent of ``p`` is ``1 - p``).

>>> from mtgk.log import events as ev
>>> from mtgk.rules.state import apply, new_state
>>> s = new_state()
>>> apply(s, ev.GameStarted(players=("a", "b", "c", "d"), seed=1))
>>> apply(s, ev.GameVariant(variant=TWO_HEADED_GIANT, teams=((0, 2), (1, 3))))
>>> opponents_of(s, 0), teammates(s, 0), next_turn(s, 0), s.players[3].life
([1, 3], [2], 1, 30)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from mtgk.log import events as ev

if TYPE_CHECKING:
    from mtgk.rules.state import State

FREE_FOR_ALL = "free_for_all"
TWO_HEADED_GIANT = "two_headed_giant"
VARIANTS = (FREE_FOR_ALL, TWO_HEADED_GIANT)
"""The multiplayer variants (``GameVariant``); a two-player game has the variant ``""``."""

ATTACK_MULTIPLE = "multiple"
ATTACK_LEFT = "left"
ATTACK_RIGHT = "right"
ATTACK_OPTIONS = (ATTACK_MULTIPLE, ATTACK_LEFT, ATTACK_RIGHT)
"""A free-for-all game's attack option (CR 802-804, 806.2b): attack multiple players (the
default), attack left, attack right.  A game log's header records a game's other than the
default as ``meta["attack"]``."""



def attack_meta(attack: str, n_players: int, variant: str = "") -> dict[str, str]:
    """The header ``meta`` entry of a game's attack option: ``{"attack": attack}``, or
    nothing for the default (attack multiple players).  Raises ``ValueError`` for an
    unknown option, or for left or right in a game that isn't a free-for-all game of three
    or four players."""
    attack = attack or ATTACK_MULTIPLE
    if attack not in ATTACK_OPTIONS:
        raise ValueError(f"unknown attack option {attack!r} (known: "
                         f"{', '.join(ATTACK_OPTIONS)})")
    if attack == ATTACK_MULTIPLE:
        return {}
    if n_players < 3 or variant == TWO_HEADED_GIANT:
        raise ValueError(f"attack {attack} is an option of a free-for-all game of three or "
                         "four players")
    return {"attack": attack}


TWO_HEADED_GIANT_LIFE = 30
"""A Two-Headed Giant team's starting life total (CR 810.9)."""


MIN_PLAYERS = 2
MAX_PLAYERS = 4
"""A game has two to four players (the one place that says so)."""
PLAYER_COUNT_WORDS = "two to four"
""":data:`MIN_PLAYERS` to :data:`MAX_PLAYERS` in words, as messages say it."""


def player_count_problem(n_players: int) -> str:
    """Why a game can't have ``n_players`` players (``""`` if it can)."""
    if MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        return ""
    return f"a game has {PLAYER_COUNT_WORDS} players, not {n_players}"


def variant_event(n_players: int, variant: str = "",
                  teams: Sequence[Sequence[int]] = ()) -> ev.GameVariant | None:
    """The ``GameVariant`` event that starts a game of ``n_players`` (after ``GameStarted``),
    or ``None`` for a two-player game.  More than two players without a variant: a
    free-for-all game.  Raises ``ValueError`` for a game the kernel can't play: fewer than
    two or more than four players, an unknown variant, Two-Headed Giant without two teams
    of two covering the players."""
    problem = player_count_problem(n_players)
    if problem:
        raise ValueError(problem)
    if variant and variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r} (known: {', '.join(VARIANTS)})")
    if variant == TWO_HEADED_GIANT:
        seats = sorted(p for t in teams for p in t)
        if n_players != 4 or len(teams) != 2 or any(len(t) != 2 for t in teams) \
                or seats != [0, 1, 2, 3]:
            raise ValueError("Two-Headed Giant is played by two teams of two players")
        return ev.GameVariant(variant=variant, teams=tuple(tuple(t) for t in teams))
    if teams:
        raise ValueError("only Two-Headed Giant has teams")
    if n_players == 2 and not variant:
        return None
    return ev.GameVariant(variant=FREE_FOR_ALL)


def player_index(s: State, who: object, helper: str = "a player") -> int:
    """The index of the player ``who`` names: an index or a player reference (negative,
    :func:`mtgk.log.events.player_ref`).  Anything else raises ``ValueError`` naming
    ``helper`` -- never a negative list index that silently names another player.

    >>> from mtgk.rules.state import Player, new_state
    >>> s = new_state(); s.players = [Player(name="A"), Player(name="B")]
    >>> player_index(s, 1), player_index(s, ev.player_ref(1))
    (1, 1)
    """
    n = len(s.players)
    if isinstance(who, bool) or not isinstance(who, int):
        raise TypeError(f"{helper}: {who!r} is not a player (an index 0..{n - 1} or a "
                        "player reference)")
    p = ev.ref_player(who) if who < 0 else who
    if p is None or not 0 <= p < n:
        what = "a player reference of no player" if who < 0 else "an object's id"
        raise ValueError(f"{helper}: {who} is {what}, not a player of this game (a player "
                         f"is an index 0..{n - 1} or a player reference)")
    return p


def team_of(s: State, player: int) -> list[int]:
    """The players of ``player``'s team in their order (``[player]`` outside Two-Headed Giant)."""
    for t in s.teams:
        if player in t:
            return t
    return [player]


def teammates(s: State, player: int) -> list[int]:
    """``player``'s teammates (none outside Two-Headed Giant)."""
    return [q for q in team_of(s, player) if q != player]


def same_team(s: State, a: int, b: int) -> bool:
    """Whether players ``a`` and ``b`` are the same player or teammates."""
    return a == b or (bool(s.teams) and b in team_of(s, a))


def teams_of(s: State) -> list[list[int]]:
    """Every team in turn order: the variant's teams, else each player alone in seat order."""
    return s.teams if s.teams else [[i] for i in range(len(s.players))]


def in_game(s: State) -> list[int]:
    """The players still in the game (not lost), in seat order."""
    return [i for i, p in enumerate(s.players) if not p.lost]


def opponents_of(s: State, player: int) -> list[int]:
    """The players still in the game who are not on ``player``'s team, in turn order after
    ``player`` (in a two-player game: ``[1 - player]``)."""
    n = len(s.players)
    if n == 2 and not s.teams:
        return [1 - player]
    team = team_of(s, player)
    order = [t for team_ in _teams_from(s, player) for t in team_]
    return [q for q in order if q not in team and q < n and not s.players[q].lost]


def _teams_from(s: State, player: int) -> list[list[int]]:
    ts = teams_of(s)
    i = next((k for k, t in enumerate(ts) if player in t), 0)
    return ts[i:] + ts[:i]


def active_team(s: State) -> list[int]:
    """The players of the team whose turn it is (the active player alone, outside
    Two-Headed Giant)."""
    return team_of(s, s.active)


def is_active(s: State, player: int) -> bool:
    """Whether it is ``player``'s turn (their team's, in Two-Headed Giant)."""
    return s.active == player or (bool(s.teams) and player in team_of(s, s.active))


def next_turn(s: State, active: int) -> int:
    """Who takes the turn after ``active``'s: the next player in turn order still in the
    game (in Two-Headed Giant the first player still in the game of the next team)."""
    n = len(s.players)
    if n == 2 and not s.teams:
        return 1 - active
    ts = _teams_from(s, active)
    for t in ts[1:] + ts[:1]:
        alive = [q for q in t if not s.players[q].lost]
        if alive:
            return alive[0]
    return active


def turn_order_from(s: State, player: int) -> list[int]:
    """Every player in turn order starting with ``player``'s team (the APNAP order when
    ``player`` is active: CR 101.4): ``player`` first, then their teammates, then each
    other team's players."""
    if len(s.players) == 2 and not s.teams:
        return [player, 1 - player]
    out = [player]
    for t in _teams_from(s, player):
        out.extend(q for q in t if q not in out)
    return out


def priority_order(s: State) -> list[int]:
    """The players who get priority, in the order they get it: the active player first,
    then the others in turn order (CR 117.3); players who left the game don't."""
    return [q for q in turn_order_from(s, s.active) if not s.players[q].lost]


def next_priority(s: State, player: int) -> int:
    """Who gets priority after ``player`` passes (``1 - player`` in a two-player game)."""
    if len(s.players) == 2 and not s.teams:
        return 1 - player
    order = priority_order(s)
    if player not in order:
        return order[0] if order else player
    return order[(order.index(player) + 1) % len(order)]


def first_priority(s: State) -> int:
    """Who gets priority first in a step: the active player, or after one who left the game
    during their turn, the next player in turn order (CR 800.4i... the turn goes on)."""
    return s.active if not s.players[s.active].lost else next_priority(s, s.active)


def players_in_game(s: State) -> int:
    """How many players are still in the game (all must pass in succession: CR 117.4)."""
    n = 0
    for p in s.players:
        if not p.lost:
            n += 1
    return n


def first_player_choices(s: State) -> list[int]:
    """Who may be chosen to take the first turn: any player, or in Two-Headed Giant the
    first player of either team (a two-player game: ``[0, 1]``, drawn with
    ``randrange(2)`` as always)."""
    return [t[0] for t in s.teams] if s.teams else list(range(len(s.players)))


def defending_players(s: State) -> list[int]:
    """The defending players of this combat (CR 506.2): the attacked team as attackers were
    declared; before that (or with no combat), the active player's opponents."""
    c = s.combat
    if c is not None and c.defenders:
        return c.defenders
    return opponents_of(s, s.active)
