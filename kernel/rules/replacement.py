"""Replacement and prevention effects (CR 614-616), as one general mechanism.

Something about to happen is described by a *proposal*, a plain dict:

* ``"damage"``: ``{"source", "target", "amount", "combat", "controller"}``
  (``target`` a Ref: an object id or a player reference);
* ``"move"``: ``{"obj", "from_zone", "to_zone", "reason"}``;
* ``"life_gain"``: ``{"player", "amount"}``;
* ``"counter"``: ``{"item", "kind", "by"}`` (the stack item, ``"spell"`` or an ability
  kind, and the controller of what counters it).

Every applicable :class:`Replacement` may modify it (or return ``None``:
nothing happens).  Each applies at most once to one event; when several
apply, the affected player (or the controller of the affected object)
chooses the order (decision kind ``"replacement"``, CR 616.1).

Replacements come from the registry (rules of the kernel or of a mechanics
plugin, e.g. planeswalker damage redirection) and from the static abilities
of permanents on the battlefield (a :class:`Replacement` placed among a
card's abilities, e.g. the Incarnations').

>>> class Double(Replacement):
...     key, event = "double", "damage"
...     def apply(self, game, p, source):
...         return dict(p, amount=p["amount"] * 2)
>>> Double()
Replacement('double', on='damage')
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, NoReturn

from mtgk.log.events import DamageRedirected, ref_player
from mtgk.rules.seats import same_team

if TYPE_CHECKING:
    from mtgk.rules.engine import Game

Proposal = dict[str, Any]


class Replacement:
    """A replacement or prevention effect.

    Subclasses set ``key`` (a stable name, used in decisions and logs) and
    ``event`` (the proposal kind) and override :meth:`applies` and
    :meth:`apply`.  ``source`` is the permanent whose static ability this is
    (0 for registry-wide rules).
    """

    key: str = ""
    event: str = ""
    text: str = ""

    def __repr__(self) -> str:
        return f"Replacement({self.key!r}, on={self.event!r})"

    def applies(self, game: Game, p: Proposal, source: int) -> bool:
        return True

    def apply(self, game: Game, p: Proposal, source: int) -> Proposal | None:
        return p


def affected_player(game: Game, kind: str, p: Proposal) -> int:
    """Who orders replacement effects for this proposal (CR 616.1)."""
    if kind == "damage":
        who = ref_player(p["target"])
        if who is not None:
            return who
        ctrl = game.last_known_controller(p["target"])
        return ctrl if ctrl is not None else game.state.active
    if kind == "move":
        o = game.state.objects.get(p["obj"])
        return o.controller if o is not None else game.state.active
    if kind == "life_gain":
        return int(p["player"])
    if kind == "counter":
        return next((it.controller for it in game.state.stack if it.id == p["item"]),
                    game.state.active)
    return game.state.active


def _of_permanents(game: Game, idx: dict[str, list[tuple[str, Any]]]
                   ) -> list[tuple[str, Replacement, int]]:
    """The static replacement abilities of the permanents (``idx``: by card name)."""
    out: list[tuple[str, Replacement, int]] = []
    for oid in game.state.battlefield:
        o = game.state.objects[oid]
        keys = idx.get(game.definition(oid).name)  # a copy's are the copied card's
        if not keys or o.face_down:
            continue
        c = game.chars(oid)
        for key, rep in keys:
            if key in c.abilities:
                out.append((f"{key}@{oid}", rep, oid))
    return out


def _of_keyword(game: Game, word: str, key: str, rep: Replacement
                ) -> list[tuple[str, Replacement, int]]:
    """The replacement effect ``rep`` that keyword ``word`` stands for, of each permanent
    that has it (but those whose card lists ``rep`` itself: they have it already)."""
    out: list[tuple[str, Replacement, int]] = []
    for oid in game.permanents_with(word):
        c = game.chars(oid)
        if game.state.objects[oid].face_down or any(
                a is rep and k in c.abilities
                for k, a in game.definition(oid).keyed(Replacement)):
            continue
        out.append((f"{key}@{oid}", rep, oid))
    return out


def candidates(game: Game, kind: str) -> list[tuple[str, Replacement, int]]:
    """Replacement effects that exist now for ``kind``: (key, effect, source)."""
    out: list[tuple[str, Replacement, int]] = []
    for rep in game.reg.replacements:
        if getattr(rep, "event", None) == kind:
            out.append((rep.key, rep, 0))
    idx = game.reg.replacement_cards.get(kind)
    if idx:
        out.extend(game.cached(f"replacement:{kind}", lambda: _of_permanents(game, idx)))
    for word, key, rep in game.meaning_abilities():  # what keywords stand for (of whoever
        if getattr(rep, "event", None) == kind and isinstance(rep, Replacement):  # has them)
            out.extend(game.cached(f"replacement:{key}", partial(_of_keyword, game, word, key,
                                                                 rep)))
    for e in game.state.effects:  # from resolved spells and abilities: source = effect id
        rep = EFFECT_REPLACEMENTS.get(e.kind)
        if rep is not None and rep.event == kind:
            out.append((f"{rep.key}#{e.id}", rep, e.id))
    return out


EFFECT_REPLACEMENTS: dict[str, Replacement] = {}
"""Replacement/prevention effects created by resolving spells and abilities (e.g.
"prevent the next 3 damage ..."): an :class:`~mtgk.log.events.EffectCreated` of a
registered kind; the effect's id is passed as ``source``."""


def register_effect_replacement(kind: str, rep: Replacement) -> None:
    """Let a plugin say what a continuous effect of ``kind`` replaces or prevents."""
    EFFECT_REPLACEMENTS[kind] = rep


def replace(game: Game, kind: str, p: Proposal) -> Proposal | None:
    """Apply every applicable replacement effect to proposal ``p`` once, in the
    order the affected player chooses; ``None`` if the event no longer happens."""
    done: list[str] = []
    while True:
        live = []
        for k, r, s in candidates(game, kind):
            try:
                if k not in done and r.applies(game, p, s):
                    live.append((k, r, s))
            except Exception as exc:
                _failed(game, exc, r, s)
        if not live:
            return p
        if len(live) > 1:
            who = affected_player(game, kind, p)
            key = game.choose(who, "replacement", [k for k, _r, _s in live],
                              f"which replacement effect applies first to this {kind}?")
            k, r, s = next(x for x in live if x[0] == key)
        else:
            k, r, s = live[0]
        done.append(k)
        try:
            out = r.apply(game, p, s)
        except Exception as exc:
            _failed(game, exc, r, s)
        if out is None:
            return None
        p = out


def _failed(game: Game, error: Exception, rep: Replacement, source: int) -> NoReturn:
    """An exception raised by replacement effect ``rep``: named as the card's
    (:meth:`~mtgk.rules.engine.Game.card_failed`) if it is a permanent's static ability."""
    o = game.state.objects.get(source) if source > 0 else None
    if o is None:
        raise error  # a rule's or a resolved effect's (a plugin's code)
    game.card_failed(error, game.definition(source).name, rep, "replacement effect")


class PlaneswalkerRedirection(Replacement):
    """Lorwyn primer, "Dealing Damage to Planeswalkers": if a source you control
    would deal noncombat damage to an opponent, you may have it deal that damage
    to a planeswalker that opponent controls instead (never split, never combat
    damage, never your own planeswalkers)."""

    key = "planeswalker-redirection"
    event = "damage"

    def applies(self, game: Game, p: dict[str, Any], source: int) -> bool:
        who = ref_player(p["target"])
        ctrl = p["controller"]
        # an opponent: not the controller, nor (Two-Headed Giant) a teammate; the walkers
        # are that opponent's own, never their teammate's (the seeds' bullet for 2HG)
        return (game.state.profile == "lorwyn-2007" and not p["combat"] and who is not None
                and ctrl is not None and not same_team(game.state, who, ctrl)
                and bool(self._walkers(game, who)))

    @staticmethod
    def _walkers(game: Game, player: int) -> list[int]:
        return [oid for oid in game.state.battlefield
                if "Planeswalker" in game.chars(oid).types
                and game.chars(oid).controller == player]

    def apply(self, game: Game, p: dict[str, Any], source: int) -> dict[str, Any] | None:
        who = ref_player(p["target"])
        assert who is not None
        mark = len(game.log)
        choice = game.choose(p["controller"], "redirect", [0] + self._walkers(game, who),
                             f"redirect {p['amount']} damage from "
                             f"{game.state.players[who].name} to a planeswalker?")
        if not choice:
            return p
        # the redirection is what the controller chose; the damage then follows it
        seq = game.emit(DamageRedirected(source=p["source"], from_player=who, to=choice,
                                         amount=p["amount"]), cause=game.decided_since(mark))
        return dict(p, target=choice, cause=seq)


def kernel_replacements() -> list[Replacement]:
    """The rules' own replacement effects, present in every registry."""
    return [PlaneswalkerRedirection()]
