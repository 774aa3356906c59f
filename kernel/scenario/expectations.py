"""Checking a scenario's expectations against the game: the live state and the log.

:func:`check_expectation` checks one :class:`~mtgk.scenario.model.Expectation` -- a
player's life, zones and result, a card's zone, characteristics, counters and
attachments, a count of objects matching a FILTER, the stack's size, how many events of a
type the log holds -- and raises :class:`~mtgk.scenario.board.ScenarioFailed` naming what
differs.  Names are resolved as expectations resolve them
(:meth:`~mtgk.scenario.board.ScenarioBoard.expect_ref`: exactly one object).
"""

from __future__ import annotations

from typing import Any

from mtgk.log import events as ev
from mtgk.rules.engine import Game
from mtgk.rules.seats import team_of
from mtgk.scenario.board import ScenarioBoard, ScenarioFailed, in_no_zone
from mtgk.scenario.model import CountFilter, Expectation


def check_expectation(board: ScenarioBoard, e: Expectation) -> None:
    """Check ``e`` now (raises :class:`~mtgk.scenario.board.ScenarioFailed`, led by the
    expectation's key path, if it does not hold)."""
    g = board.game
    s = g.state
    where = e.where
    try:
        _check(board, e, g, s)
    except ScenarioFailed as err:
        raise board.fail(where, str(err)) from None


def _check(board: ScenarioBoard, e: Expectation, g: Game, s: Any) -> None:
    def want(what: str, got: Any, exp: Any) -> None:
        if got != exp:
            raise ScenarioFailed(f"{what}: expected {exp!r}, got {got!r}")
    if e.player is not None:
        p = board.player(e.player)
        pl = s.players[p]
        if e.life is not None:
            want(f"{e.player}'s life", pl.life, e.life)
        for key in ("hand_size", "library_size", "graveyard_size"):
            val = getattr(e, key)
            if val is not None:
                want(f"{e.player}'s {key}", len(getattr(pl, key.split("_")[0])), val)
        if e.library_top is not None:
            ids = pl.library[:len(e.library_top)]
            _match_names(board, f"{e.player}'s library top", ids, e.library_top,
                         [board.label(o) for o in ids])
        if e.library_bottom is not None:
            k = len(e.library_bottom)
            ids = list(reversed(pl.library))[:k]
            _match_names(board, f"{e.player}'s library bottom", ids, e.library_bottom,
                         [board.label(o) for o in ids])
        if e.lost is not None:  # in Two-Headed Giant: P's team lost
            lost = all(s.players[q].lost for q in team_of(s, p))
            want(f"{e.player} lost", lost, e.lost)
    if e.winner is not None:  # in Two-Headed Giant: a player of the team that won
        won = s.winner is not None and s.winner >= 0
        winners = team_of(s, s.winner) if won and s.winner is not None else []
        if board.player(e.winner) not in winners:
            shown = " & ".join(board.names[q] for q in winners) if winners else None
            raise ScenarioFailed(f"winner: expected {e.winner!r}, got {shown!r}")
    if e.draw is not None:
        drawn = s.over and (s.winner is None or s.winner < 0)
        if drawn != e.draw:
            how = ("the game is not over" if not s.over else
                   f"{board.names[s.winner]} won" if drawn is False else "it is a draw")
            raise ScenarioFailed(f"draw: expected {e.draw!r}, but {how}")
    if e.card is not None:
        oid = board.expect_ref(e.card)
        o = s.objects[oid]
        on_bf = o.zone == "battlefield"
        c = g.chars(oid)
        if e.zone is not None:
            want(f"{e.card}'s zone", in_no_zone(o.zone), e.zone)
        if e.loyalty is not None:
            got = o.counters.get("loyalty", 0) if on_bf else c.loyalty
            want(f"{e.card}'s loyalty", got, e.loyalty)
        if e.counters is not None:
            for kind, n in e.counters.items():
                want(f"{e.card}'s {kind} counters", o.counters.get(kind, 0), n)
        if e.power is not None:
            want(f"{e.card}'s power", c.power, e.power)
        if e.toughness is not None:
            want(f"{e.card}'s toughness", c.toughness, e.toughness)
        if e.damage is not None:
            want(f"{e.card}'s damage", o.damage, e.damage)
        if e.tapped is not None:
            want(f"{e.card} tapped", o.tapped, e.tapped)
        if e.controller is not None:
            want(f"{e.card}'s controller", board.names[c.controller if on_bf else o.controller],
                 e.controller)
        if e.owner is not None:
            want(f"{e.card}'s owner", board.names[o.owner], e.owner)
        if e.types is not None:
            want(f"{e.card}'s card types", sorted(c.types), sorted(e.types))
        for t in e.has_subtypes or []:
            if not c.has_subtype(t):
                raise ScenarioFailed(f"{e.card} lacks subtype {t} (has "
                                     f"{', '.join(c.all_subtypes()[:8]) or 'none'})")
        for t in e.lacks_subtypes or []:
            if c.has_subtype(t):
                raise ScenarioFailed(f"{e.card} has subtype {t}")
        if e.has_ability is not None and not c.has(e.has_ability.lower()):
            raise ScenarioFailed(f"{e.card} lacks {e.has_ability}")
        if e.lacks_ability is not None and c.has(e.lacks_ability.lower()):
            raise ScenarioFailed(f"{e.card} has {e.lacks_ability}")
        if e.attached_to is not None:
            host = board.expect_ref(e.attached_to)
            if o.attached_to != host:
                host_label = board.label(o.attached_to) if o.attached_to else "nothing"
                raise ScenarioFailed(f"{e.card} is attached to {host_label}, "
                                     f"not {e.attached_to}")
        if e.face_down is not None:
            want(f"{e.card} face down", o.face_down, e.face_down)
    if e.count is not None:
        n = len(_count(board, e.count))
        want(f"count of {_filter_text(e.count)}", n, e.equals)
    if e.stack_size is not None:
        want("stack size", len(s.stack), e.stack_size)
    if e.log_has is not None:
        if e.log_has not in ev.EVENT_TYPES:
            raise ScenarioFailed(f"unknown event type {e.log_has!r}")
        n = sum(1 for env in g.log if env.event.TAG == e.log_has)
        if e.log_count is not None:
            want(f"{e.log_has} events", n, e.log_count)
        if e.log_min is not None and n < e.log_min:
            raise ScenarioFailed(f"{e.log_has} events: expected at least {e.log_min}, "
                                 f"got {n}")
        if e.log_max is not None and n > e.log_max:
            raise ScenarioFailed(f"{e.log_has} events: expected at most {e.log_max}, "
                                 f"got {n}")


def _match_names(board: ScenarioBoard, what: str, ids: list[int], names: list[str],
                 got: list[str]) -> None:
    ok = len(ids) == len(names) and all(board.named(oid, n) for oid, n in zip(ids, names,
                                                                              strict=False))
    if not ok:
        raise ScenarioFailed(f"{what}: expected {names!r}, got {got!r}")


def _count(board: ScenarioBoard, f: CountFilter) -> list[int]:
    g = board.game
    s = g.state
    out = []
    for oid, o in s.objects.items():
        zone = in_no_zone(o.zone)
        if f.zone is not None and zone != f.zone:
            continue
        if f.zone is None and zone == "none":
            continue
        c = g.chars(oid)
        if f.name is not None and not board.named(oid, f.name):
            continue
        ctrl = c.controller if zone == "battlefield" else o.controller
        if f.controller is not None and board.names[ctrl] != f.controller:
            continue
        if f.owner is not None and board.names[o.owner] != f.owner:
            continue
        if f.type is not None and f.type not in c.types:
            continue
        if f.subtype is not None and not c.has_subtype(f.subtype):
            continue
        if f.token is not None and o.token != f.token:
            continue
        if f.tapped is not None and o.tapped != f.tapped:
            continue
        out.append(oid)
    return out


def _filter_text(f: CountFilter) -> str:
    return "{" + ", ".join(f"{k}: {getattr(f, k)}" for k in
                           ("name", "zone", "controller", "owner", "type", "subtype", "token",
                            "tapped")
                           if getattr(f, k) is not None) + "}"
