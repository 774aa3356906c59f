""""Each player", "each opponent", "target player" and "target opponent" in games of three
and four players and in Two-Headed Giant (CR 102.1-102.3, 810.9): a property over every
installed card's text, not a list written by hand.

For each card whose Oracle text has one of the phrases, each of its abilities (a spell's
effect or each of its modes, activated and triggered abilities) is run once directly
(``ability.effect(Ctx)``) by player 0 in a prepared position of every variant, and the
players it acts on are recorded: those a ``Ctx`` helper is called for (draw, discard, mill,
life, damage to a player, a choice asked of them) and those named by the events it emits.

* "each player": some ability acts on every player in the game, teammates included
  (main left the controller's teammate out: Cloudthresher, Jace Beleren's +2);
* "each opponent": some ability acts on every opponent and not on a teammate;
* "target player" / "target opponent": some target slot offers exactly every player /
  every opponent.

Phrases inside a condition ("if each player has ...") are not effects: Howltooth Hollow's
condition is checked by its scenario in ``tests/scenarios/multiplayer/``."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mtgk.cards.definitions import Activated, CardDef, Registry, SpellAbility, Triggered
from mtgk.cards.effects import Ctx
from mtgk.log import events as ev
from mtgk.log.events import player_ref, ref_player
from mtgk.rules.engine import Decision, Game, GameOver
from mtgk.rules.seats import TWO_HEADED_GIANT, opponents_of, teammates
from mtgk.rules.structs import StackItem

VARIANTS = {
    "three_players": (3, "", []),
    "four_players": (4, "", []),
    "two_headed_giant": (4, TWO_HEADED_GIANT, [[0, 2], [1, 3]]),
}
NAMES = ["alice", "bob", "carol", "dave"]
EFFECT_PHRASES = ("each player", "each opponent", "each other player",
                  "that player's opponents")
TARGET_PHRASES = ("target player", "target opponent")


def _texts(reg: Registry) -> dict[str, str]:
    """Each card's Oracle text in lower case, without reminder text (a Role's reminder is
    the Role's text, checked with the Role)."""
    return {d.facts.name: re.sub(r"\([^)]*\)", "", (d.facts.oracle_text or "").lower())
            for _k, d in sorted(reg.cards.items())}


def _registry() -> Registry:
    from mtgk.cards.loading import load_registry
    return load_registry()


REG = _registry()


def _cards(phrase: str, effect: bool) -> list[str]:
    out = []
    for name, text in _texts(REG).items():
        if phrase not in text:
            continue
        if effect and not re.search(rf"(?<!if ){re.escape(phrase)}", text):
            continue  # only in a condition
        out.append(name)
    return sorted(set(out))


class _First:
    """Answers every decision with its first option (passes priority)."""

    def decide(self, game: Game, d: Decision) -> Any:
        if d.kind == "priority":
            return ["pass"]
        if d.kind == "may":
            return True  # (do what the ability may do, so that it acts)
        if d.options is None:
            return [] if d.kind in ("attackers", "blockers") else d.context.get("default", [])\
                if isinstance(d.context, dict) else []
        if d.many:
            return list(d.options[:d.count]) if not d.up_to else []
        return d.options[0]


def _position(n: int, variant: str, teams: list[list[int]], card: str) -> tuple[Game, int]:
    """A game of ``n`` players in player 0's main phase: every player has lands, a creature
    with flying, a hand, a library and a creature card in the graveyard; player 0 has
    ``card`` on the battlefield (or in hand: an instant or sorcery)."""
    g = Game(REG, NAMES[:n], seed=0, agents=[_First()] * n, variant=variant, teams=teams)
    d = REG[card]
    perm = d.is_permanent_card()
    src = 0
    with g.setting_up():
        g.emit(ev.TurnBegan(turn=3, active=0))
        for p in range(n):
            for zone, names in (("battlefield", ["Mountain", "Swamp", "Island", "Plains",
                                                 "Forest", "Nightshade Stinger"]),
                                ("hand", ["Plains", "Grizzly Bears"]),
                                ("library", ["Plains"] * 8),
                                ("graveyard", ["Grizzly Bears"])):
                for name in names:
                    g.emit(ev.ObjectCreated(obj=g.new_id(), card=name, owner=p, zone=zone))
        src = g.new_id()
        g.emit(ev.ObjectCreated(obj=src, card=card, owner=0,
                                zone="battlefield" if perm else "hand"))
        for kind in ("+1/+1", "loyalty"):
            g.emit(ev.CounterPlaced(obj=src, kind=kind, n=3))
        g.emit(ev.StepBegan(step="precombat_main"))
    return g, src


def _abilities(d: CardDef) -> Iterator[tuple[str, Callable[[Ctx], None], tuple[Any, ...],
                                             list[int], str]]:
    """(label, effect, target slots, modes, key) of each ability of ``d`` that does
    something."""
    for i, ab in enumerate(d.abilities):
        key = f"{d.facts.name}#{i}"
        if isinstance(ab, SpellAbility):
            if ab.modes:
                for k, m in enumerate(ab.modes):
                    yield f"mode {k + 1}", m.effect, m.targets, [k], key
            else:
                yield "spell", ab.effect, ab.targets, [], key
        elif isinstance(ab, Activated | Triggered):
            yield f"ability {i}", ab.effect, ab.targets, [], key


class _Asked:
    """An agent that notes who is asked to decide (but for priority), then lets ``inner``
    answer (its other attributes, ``refused`` among them, are ``inner``'s)."""

    def __init__(self, inner: Any, players: set[int]) -> None:
        self.inner = inner
        self.players = players

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def decide(self, game: Game, d: Decision) -> Any:
        if d.kind != "priority":
            self.players.add(d.player)
        return self.inner.decide(game, d)

    def forced(self, game: Game, d: Decision) -> None:
        if d.kind != "priority":
            self.players.add(d.player)
        inner = getattr(self.inner, "forced", None)
        if inner is not None:
            inner(game, d)


class _Recorder:
    """The players an effect acts on (see the module's docstring)."""

    def __init__(self, game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
        self.players: set[int] = set()
        self.game = game
        for name in ("draw", "discard", "mill", "shuffle", "gain_life", "lose_life"):
            self._wrap(monkeypatch, name, 0)
        self._wrap(monkeypatch, "damage", 0)
        # the players asked to decide: through their agents (a compiled Game's methods
        # can't be replaced on the instance), decisions with one answer too (``forced``)
        game.agents = [_Asked(a, self.players) for a in game.agents]
        game.listeners.append(self._event)

    def _wrap(self, monkeypatch: pytest.MonkeyPatch, name: str, arg: int) -> None:
        real = getattr(Ctx, name)
        rec = self

        def wrapped(ctx: Ctx, *args: Any, **kw: Any) -> Any:
            who = args[arg] if len(args) > arg else kw.get("player", kw.get("to"))
            if isinstance(who, int) and not isinstance(who, bool):
                p = ref_player(who) if who < 0 else (who if name != "damage" else None)
                if p is not None:
                    rec.players.add(p)
            elif who is None and name in ("draw", "shuffle"):
                rec.players.add(ctx.controller)
            return real(ctx, *args, **kw)
        monkeypatch.setattr(Ctx, name, wrapped)

    def _event(self, env: ev.Envelope) -> None:
        e = env.event
        if isinstance(e, ev.LifeGained | ev.LifeLost):
            self.players.add(e.player)
        elif isinstance(e, ev.DamageDealt):
            p = ref_player(e.target) if e.target < 0 else None
            if p is not None:
                self.players.add(p)


def _run(card: str, variant: str, monkeypatch: pytest.MonkeyPatch
         ) -> list[tuple[str, set[int], Game]]:
    """Each ability of ``card`` run in a fresh position: (label, players acted on, game).
    An activated ability is activated (without its costs) and resolved three times, for
    abilities that do something the third time ("if this is the third time this ability
    has resolved this turn")."""
    n, var, teams = VARIANTS[variant]
    out = []
    d = REG[card]
    for label, effect, slots, modes, key in _abilities(d):
        g, src = _position(n, var, teams, card)
        targets: list[int] = []
        for t in slots:
            cands = g.target_candidates(0, src, t, 0)
            if cands:
                targets.append(cands[-1])
        times = 3 if isinstance(d.abilities[int(key.rpartition("#")[2])], Activated) else 1
        with monkeypatch.context() as m:
            rec = _Recorder(g, m)
            try:
                for _ in range(times):
                    item = _put_on_stack(g, d, key, src, targets, modes)
                    with g.caused(len(g.log) - 1):
                        effect(Ctx(g, item))
                    if item.kind == "activated":
                        g.emit(ev.StackItemResolved(item=item.id))
            except GameOver:
                pass
            out.append((label, rec.players, g))
    return out


def _put_on_stack(g: Game, d: CardDef, key: str, src: int, targets: list[int],
                  modes: list[int]) -> StackItem:
    """The stack item of ability ``key`` of ``src`` (an activated ability is put on the
    stack by its event, as if activated; a spell or trigger is made up)."""
    if isinstance(d.abilities[int(key.rpartition("#")[2])], Activated):
        item = g.new_id()
        g.emit(ev.AbilityActivated(item=item, source=src, ability=key, controller=0,
                                   targets=tuple(targets), x=0, loyalty=False))
        return next(it for it in g.state.stack if it.id == item)
    return StackItem(id=g.new_id(), kind="triggered" if d.is_permanent_card() else "spell",
                     source=src, ability=key, controller=0, targets=targets, modes=modes,
                     source_card=d.facts.name)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("card", _cards("each player", effect=True))
def test_each_player_is_every_player(card: str, variant: str,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    runs = _run(card, variant, monkeypatch)
    n = VARIANTS[variant][0]
    assert any(players == set(range(n)) for _l, players, _g in runs), \
        f"{card} ({variant}): no ability acts on every player: " + \
        "; ".join(f"{label}: {sorted(p)}" for label, p, _g in runs)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("card", _cards("each opponent", effect=True))
def test_each_opponent_is_every_opponent_and_no_teammate(card: str, variant: str,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    runs = _run(card, variant, monkeypatch)
    ok = []
    for _label, players, g in runs:
        opp = set(opponents_of(g.state, 0))
        if opp <= players and not players & set(teammates(g.state, 0)):
            ok.append(True)
    assert ok, f"{card} ({variant}): no ability acts on every opponent (and no teammate): " + \
        "; ".join(f"{label}: {sorted(p)}" for label, p, _g in runs)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("phrase", TARGET_PHRASES)
def test_target_player_and_target_opponent(phrase: str, variant: str) -> None:
    n, var, teams = VARIANTS[variant]
    for card in _cards(phrase, effect=False):
        g, src = _position(n, var, teams, card)
        want = set(range(n)) if phrase == "target player" else set(opponents_of(g.state, 0))
        offered = []
        for _label, _effect, slots, _modes, _key in _abilities(REG[card]):
            for t in slots:
                refs = {ref_player(c) for c in g.target_candidates(0, src, t, 0) if c < 0}
                offered.append(refs)
        assert want in offered, f"{card} ({variant}): {phrase}: slots offer " \
            f"{[sorted(p for p in o if p is not None) for o in offered]}"
        assert player_ref(0) < 0


def test_the_phrases_are_in_the_card_texts() -> None:
    """The property tests above have something to check."""
    assert len(_cards("each player", effect=True)) >= 5
    assert len(_cards("each opponent", effect=True)) >= 2
    assert _cards("target player", effect=False) and _cards("target opponent", effect=False)
    assert not any(_cards(p, effect=True) for p in EFFECT_PHRASES[2:])  # (none installed)
