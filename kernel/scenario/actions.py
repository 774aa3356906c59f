"""A scenario's actions as the engine's actions: what ``cast``, ``play``, ``activate``,
``attack`` and ``block`` name, turned into the game's action lists and declarations.

:func:`engine_action` builds a ``cast`` / ``play`` / ``activate`` (with several objects
of the name, the first for which it is legal); :func:`attack_choice` and
:func:`block_choice` build the declarations of attackers and blockers.  Names are
resolved on the :class:`~mtgk.scenario.board.ScenarioBoard`.  When and for whom an action
is handed to the engine is :mod:`mtgk.scenario.play`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from mtgk.cards.definitions import Activated
from mtgk.log.events import player_ref
from mtgk.rules.engine import RulesError
from mtgk.rules.seats import opponents_of
from mtgk.scenario.board import ScenarioBoard, ScenarioFailed
from mtgk.scenario.model import Action


def engine_action(board: ScenarioBoard, a: Action, p: int) -> list[Any]:
    """The engine's action for ``a``, checked: with several objects of the name, the
    first for which it is legal (else the first one's error is raised)."""
    g = board.game
    tries = _candidates(board, a, p)
    error: Exception | None = None
    for build in tries:
        try:
            return list(g.check_action(p, build()))
        except (RulesError, ScenarioFailed) as err:
            error = error or err
    assert error is not None
    raise error


def _candidates(board: ScenarioBoard, a: Action, p: int) -> list[Callable[[], list[Any]]]:
    g = board.game
    s = g.state
    assert a.card is not None
    name = a.card
    if a.verb in ("cast", "play"):
        hand = s.players[p].hand
        alt = a.alt_cost
        if name in board.aliases:
            oid = board.ref(name)
            if oid not in hand and not g.cast_alts_from(p, oid):
                raise RulesError("601.2", f"{name} is not in {board.names[p]}'s hand")
            ids, face_alt = [oid], ""
        else:
            ids = [o for o in hand if board.named(o, name)]
            face_alt = ""
            if not ids:  # a face, or a card a permission lets them cast (or play)
                ids, face_alt = _castable_by_name(board, p, name)
            if not ids:
                raise RulesError("601.2", f"{name} is not in {board.names[p]}'s hand")
        if a.verb == "play":
            return [functools.partial(lambda o: ["play", o], o) for o in ids]
        return [functools.partial(lambda o: ["cast", o, _target_refs(board, a.targets),
                                             sorted(a.modes), a.x or 0, alt or face_alt], o)
                for o in ids]
    srcs = [o for o in board.objects_named(name) if o > 0]
    if not srcs:
        raise ScenarioFailed(f"no object named {name!r}")
    return [functools.partial(_activation, board, a, o) for o in srcs]


def _activation(board: ScenarioBoard, a: Action, src: int) -> list[Any]:
    g = board.game
    o = g.state.objects[src]
    if o.zone != "battlefield" and not any(o.zone in ab.zones
                                           for _k, ab in g.definition(src).activated):
        raise RulesError("602.2", f"{a.card} is not on the battlefield")
    acts = g.definition(src).activated  # a copy's are the copied card's (layer 1)
    if isinstance(a.ability, str):
        idx = 0
        for k, (_key, ab) in enumerate(acts, start=1):
            if _loyalty_text(ab) == _norm_loyalty(a.ability):
                idx = k
        if not idx:
            raise RulesError("606.4", f"{a.card} has no loyalty ability {a.ability}")
    else:
        # intrinsic mana abilities (a basic land type's "{T}: Add ...") come first
        intrinsic = len(g.intrinsic_mana(src)) if o.zone == "battlefield" else 0
        k = a.ability or 1
        idx = -k if k <= intrinsic else k - intrinsic
        if idx > len(acts):
            raise RulesError("602.1", f"{a.card} has no activated ability {k} (it has "
                             f"{len(acts) + intrinsic})")
    return ["activate", src, idx, _target_refs(board, a.targets), a.x or 0]


def _castable_by_name(board: ScenarioBoard, p: int, name: str) -> tuple[list[int], str]:
    """Cards ``p`` may cast by this name: a face of a card in hand (an Adventure:
    ``cast: Betroth the Beast``), or a card elsewhere that a rule lets them cast
    (e.g. from exile); with the alt cost that casts it so."""
    g = board.game
    s = g.state
    for oid in s.players[p].hand:
        for alt, face in sorted(g.card(oid).extras.get("faces", {}).items()):
            if face == name:
                return [oid], alt
    for oid, alts in g._castable_elsewhere(p):
        if board.named(oid, name):
            return [oid], alts[0]
        for alt in alts:
            if g.card(oid).extras.get("faces", {}).get(alt) == name:
                return [oid], alt
    return [], ""


def _target_refs(board: ScenarioBoard, names: Sequence[str]) -> list[int]:
    out: list[int] = []
    for n in names:
        out.append(board.ref(n, avoid=out))
    return out


def attack_choice(board: ScenarioBoard, a: Action, active: int, attackers: Sequence[int],
                  targets: Sequence[int]) -> list[list[int]]:
    """The declaration of attackers ``a`` writes: ``[attacker, what it attacks]`` pairs,
    among ``attackers`` and ``targets`` if given (a defender left out: the defending
    player, :func:`defending_player`)."""
    out: list[list[int]] = []
    for k, v in a.attackers.items():
        oid = board.ref(k, candidates=attackers or None, avoid=[x for x, _t in out])
        to = board.ref(v, candidates=targets or None) if v else \
            defending_player(board, active)
        out.append([oid, to])
    return out


def defending_player(board: ScenarioBoard, active: int) -> int:
    """"The defending player" of ``attack: [A, B]``: the first player the active player
    may attack (the next opponent in turn order, unless attack left or right says
    otherwise)."""
    g = board.game
    refs = [t for t in g.attack_targets(active) if t < 0]
    return refs[0] if refs else player_ref(opponents_of(g.state, active)[0])


def block_choice(board: ScenarioBoard, a: Action, blockers: Sequence[int],
                 attackers: Sequence[int], keys: Sequence[str] | None = None
                 ) -> list[list[int]]:
    """The declaration of blockers ``a`` writes: ``[blocker, attacker]`` pairs, among
    ``blockers`` and ``attackers`` if given; only the blockers named in ``keys``, if
    given."""
    out: list[list[int]] = []
    for k, v in a.blocks.items():
        if keys is not None and k not in keys:
            continue
        b = board.ref(k, candidates=blockers or None, avoid=[x for x, _t in out])
        for one in v if isinstance(v, list) else [v]:  # a list: it blocks each of them
            out.append([b, board.ref(one, candidates=attackers or None,
                                     avoid=[t for x, t in out if x == b])])
    return out


def _norm_loyalty(text: str) -> str:
    t = text.replace("−", "-").strip()
    if t and t[0] not in "+-" and t != "0":
        t = "+" + t
    return t


def _loyalty_text(ab: Activated) -> str:
    c = ab.cost
    if c.loyalty_x:
        return "-X"
    if c.loyalty is None:
        return ""
    if c.loyalty == 0:
        return "0"
    return f"{c.loyalty:+d}"
