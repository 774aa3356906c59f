"""Agents: who answers a player's decisions.

* :class:`RandomAgent` -- seeded, uniformly random among legal choices, but for
  two rules that keep random playouts finite (:meth:`RandomAgent.priority`);
* :class:`HeuristicAgent` -- plays lands and its biggest spells, attacks when
  it pays, blocks to trade, activates abilities on its turn fewer times the more it
  has this step; good enough that games end;
* :class:`ReplayAgent` -- answers from a recorded log (verify, branch);
* scripted agents live with the scenario runner (:mod:`mtgk.scenario`).

An agent has one method, ``decide(game, decision)``.  Its answer is checked
by the engine; an illegal answer raises :class:`~mtgk.rules.engine.RulesError`
(or is passed to the agent's ``refused(game, decision, error)`` if it has one).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from mtgk.log import events as ev
from mtgk.log.answers import Activate, Cast, Pass, PlayLand
from mtgk.rules.mana import ManaCost
from mtgk.rules.seats import is_active, same_team, team_of

if TYPE_CHECKING:
    from mtgk.rules.engine import Agent, Decision, Game


def only_x_at_zero(game: Game, action: Any) -> bool:
    """Whether ``action`` activates, with X = 0, an ability whose whole cost is {X}
    ({X}{X} too): no other mana, no {T} or {Q}, loyalty, sacrifice, life, discard,
    reveal or other cost.  Such an activation is free and repeatable for ever (Mirror
    Entity at X = 0: a random player that takes it again and again makes an unbounded
    stack), and does nothing worth doing (Mirror Entity at 0 makes its controller's
    creatures 0/0), so the kernel's agents never take it."""
    if type(action) is not Activate or action.x != 0 or action.ability < 1:
        return False
    o = game.state.objects.get(action.source)
    if o is None:
        return False
    acts = game.definition(action.source).activated
    if action.ability > len(acts):
        return False
    cost = acts[action.ability - 1][1].cost
    mana = ManaCost.parse(cost.mana)
    return bool(mana.x and not mana.generic and not mana.colored and not mana.hybrid
                and not mana.twobrid and not cost.tap and not cost.untap
                and cost.loyalty is None and not cost.loyalty_x
                and not cost.sacrifice_self and not cost.life and cost.sacrifice is None
                and not cost.discard_self and not cost.reveal_self and not cost.extra)


def activations_this_step(game: Game, player: int) -> int:
    """How many abilities ``player`` has activated at priority since the current step
    began (their recorded priority decisions that activate; the log read back to the
    step's ``StepBegan``)."""
    n = 0
    log = game.log
    for i in range(len(log) - 1, -1, -1):
        e = log[i].event
        if type(e) is ev.StepBegan:
            break
        if type(e) is ev.DecisionMade and e.player == player and e.kind == "priority" \
                and type(e.choice) is Activate:
            n += 1
    return n


class RandomAgent:
    """Random legal decisions from its own seeded generator (so a game is the same for
    the same seeds): uniform over the legal choices, but at priority it passes more
    often the taller the stack is, and never activates an ability whose only cost is
    {X} with X = 0 (:meth:`priority`, docs/agents.md, "The kernel's agents").

    >>> RandomAgent(7)
    RandomAgent(seed=7)
    """

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def __repr__(self) -> str:
        return f"RandomAgent(seed={self.seed})"

    def decide(self, game: Game, d: Decision) -> Any:
        r = self.rng
        if d.kind == "mulligan":
            return True
        if d.kind == "attackers":
            out = []
            groups = d.context.get("groups")  # several opponents: attack one of them
            targets = r.choice(groups) if groups else d.context["targets"]
            for a in d.context["attackers"]:
                if r.random() < 0.5:
                    out.append([a, r.choice(targets)])
            return out
        if d.kind == "blockers":
            out = []
            attackers = d.context["attackers"]
            for b in d.context["blockers"]:
                if r.random() < 0.5:
                    can = [a for a in attackers if game.can_block(b, a)]
                    if can:
                        out.append([b, r.choice(can)])
            return legal_menace_blocks(game, required_blocks(game, d.context["blockers"], out))
        if d.kind == "assign":
            return d.context["default"]
        if d.kind == "order":
            ids = list(d.context)
            r.shuffle(ids)
            return ids
        if d.options is None:
            return []
        if d.many:
            lo = 0 if d.up_to else d.count
            n = r.randint(lo, min(d.count, len(d.options)))
            return r.sample(list(d.options), n)
        if d.kind == "priority":
            return self.priority(game, d.options)
        return r.choice(d.options)

    def priority(self, game: Game, options: Sequence[Any]) -> Any:
        """One of the legal priority actions ``options`` (pass first).

        Uniform over them, with two exceptions that keep a random game finite.  With
        ``k`` objects on the stack it passes outright with probability ``1 - 2**-k``
        (and otherwise chooses uniformly, pass included): a uniform choice at every
        priority makes any free repeatable ability a random walk of the stack's height
        with no finite mean length once several players each get to add to it (one
        4-player game's stack passed 100 abilities); halving the chance to act with each
        object makes the stack's height have a finite mean whatever the board.  And it
        never takes an option :func:`only_x_at_zero` refuses (it draws again: uniform
        over the others).  With an empty stack, and when the first draw is not refused,
        it draws exactly what a plain uniform choice would (games without stack
        decisions are unchanged)."""
        r = self.rng
        k = len(game.state.stack)
        can_pass = len(options) > 0 and options[0][0] == "pass"
        if k and can_pass and len(options) > 1 and r.random() >= 0.5 ** k:
            return options[0]
        if not can_pass:  # (priority lists pass first; without it, filter in full)
            allowed = [o for o in options if not only_x_at_zero(game, o)]
            return r.choice(allowed or list(options))
        while True:  # pass is never refused, so this ends (a draw a time)
            choice = r.choice(options)
            if not only_x_at_zero(game, choice):
                return choice


def required_blocks(game: Game, blockers: list[int], blocks: list[list[int]]
                    ) -> list[list[int]]:
    """Make each creature able to block an attacker with "All creatures able to block ~
    do so" (ability ``all able block it``), or one it "blocks this turn if able"
    (ability ``must_block:<attacker>``), block it instead (CR 509.1c)."""
    c = game.state.combat
    attackers = list(c.attackers) if c else []
    lures = [a for a in attackers if game.chars(a).has("all able block it")]
    musts = {b: [int(r[11:]) for r in game.chars(b).abilities
                 if r.startswith("must_block:") and int(r[11:]) in attackers] for b in blockers}
    if not lures and not any(musts.values()):
        return blocks
    out = list(blocks)
    for b in blockers:
        reqs = [a for a in lures + musts[b] if game.can_block(b, a)]
        able = [a for i, a in enumerate(reqs) if a not in reqs[:i]]
        if able:
            out = [p for p in out if p[0] != b]
            out.extend([b, a] for a in able[:game.max_blocks(b)])
    return out


def legal_menace_blocks(game: Game, blocks: list[list[int]]) -> list[list[int]]:
    """Drop the blockers of any attacker that too few creatures block (menace: CR
    702.110b; "can't be blocked except by N or more creatures")."""
    n: dict[int, int] = {}
    for _b, a in blocks:
        n[a] = n.get(a, 0) + 1
    return [[b, a] for b, a in blocks if n[a] >= game.min_blockers(a)]


_TARGET = re.compile(r"\btargets?\b")
# words that make an effect good for what it targets ("target player draws a card",
# "target creature gets +2/+2", "put a +1/+1 counter on target creature") and bad for it
_HELPS = re.compile(r"\b(?:draws?|gains? (?!control)|regenerate|prevent|untap|indestructible|"
                    r"hexproof|shroud|protection|(?:monster|royal|young hero|sorcerer|"
                    r"virtuous|wicked) role)|\bgets? \+|\+1/\+1 counter")
_HURTS = re.compile(r"\b(?:damage|destroy|exile|discards?|loses?|sacrifices?|mills?|"
                    r"tap target|counter target|owner's (?:hand|library)|can't (?:block|attack)|"
                    r"gain control|doesn't untap|fights?|cursed role)|\bgets? -|-1/-1")
_EITHER = re.compile(r"\btap or untap\b")
# what another player does in the same sentence is not done to the target
_OTHER_SUBJECT = re.compile(r",? (?:and|then) (?:you|its controller|that player's opponents)\b"
                            r"|\. ")


def target_aims(text: str) -> list[int]:
    """For each "target" of an effect's text, in order, whether the effect helps what it
    targets (``1``), hurts it (``-1``) or neither that the words tell (``0``): read from
    the sentence of that "target" word, without what "you" do in it.

    >>> target_aims("Target player draws a card.")
    [1]
    >>> target_aims("Shock deals 2 damage to any target.")
    [-1]
    >>> target_aims("Target player loses 2 life and you gain 2 life.")
    [-1]
    >>> target_aims("Target creature gets +2/+2 until end of turn. Tap target land.")
    [1, -1]
    """
    low = text.lower()
    out: list[int] = []
    for m in _TARGET.finditer(low):
        start = max(low.rfind(".", 0, m.start()), low.rfind("\n", 0, m.start())) + 1
        ends = [i for i in (low.find(".", m.end()), low.find("\n", m.end())) if i >= 0]
        sentence = low[start:min(ends) if ends else len(low)]
        at = m.start() - start
        part = sentence
        for cut in _OTHER_SUBJECT.finditer(sentence):  # the clause with the target in it
            if cut.start() > at:
                part = sentence[:cut.start()]
                break
            part = sentence[cut.end():]
        out.append(0 if _EITHER.search(part) else -1 if _HURTS.search(part)
                   else 1 if _HELPS.search(part) else 0)
    return out


def mode_aims(text: str, modes: Sequence[int]) -> list[int]:
    """:func:`target_aims` of a modal effect ("Choose two -- • ... • ..."), for the
    chosen ``modes`` (numbered from 1) in order; of the whole text if it has no modes.

    >>> mode_aims("Choose two -- \\n• Target player gains 7 life.\\n• Destroy target "
    ...           "creature.\\n• Draw a card.", [1, 2])
    [1, -1]
    """
    bullets = text.split("•")[1:]
    if not bullets or not modes:
        return target_aims(text)
    return [a for m in modes if 0 < m <= len(bullets) for a in target_aims(bullets[m - 1])]


def _action_kind(thing: Any) -> str:
    """``"cast"``, ``"activate"`` ... for a priority action (a :mod:`mtgk.log.answers`
    action or the list it was), ``""`` for anything else."""
    if isinstance(thing, (list, tuple, Pass, PlayLand, Cast, Activate)) and len(thing):
        return str(thing[0])
    return ""


def effect_text(game: Game, thing: Any) -> str:
    """The words of what a decision or action is about: a priority action's spell or
    ability (``["cast", card, ...]``, ``["activate", source, ability, ...]``), a stack
    item's ability or a card's Oracle text (``thing`` an id); ``""`` if none."""
    action = _action_kind(thing)
    if action == "cast":
        return game.card(thing[1]).facts.oracle_text
    if action == "activate":
        d = game.definition(thing[1])
        i = thing[2]  # numbered from 1 (negative: a land's intrinsic mana ability)
        if not 1 <= i <= len(d.activated):
            return ""
        text = d.activated[i - 1][1].text
        if text:
            return text
        # the Oracle text's i-th line "cost: effect" (reminder text in parentheses aside)
        lines = [line for line in d.facts.oracle_text.splitlines()
                 if ":" in line.split("(")[0]]
        return lines[i - 1] if i <= len(lines) else d.facts.oracle_text
    if not isinstance(thing, int) or isinstance(thing, bool):
        return ""
    s = game.state
    for it in (*s.stack, *s.pending):
        if it.id == thing:
            ab = game.ability(it)
            text = getattr(ab, "text", "") if ab is not None else ""
            return text or (game.reg[it.source_card].facts.oracle_text
                            if it.source_card in game.reg else "")
    if thing in s.objects:
        return game.card(thing).facts.oracle_text
    return ""


def misaimed(game: Game, me: int, targets: Sequence[int], aims: Sequence[int]) -> bool:
    """Whether a choice of ``targets`` aims an effect the wrong way for ``me``: what hurts
    at ``me``'s team, or what helps at another's (``aims``: :func:`target_aims`; a target
    past the last aim takes the last one's, "two target creatures")."""
    s = game.state
    for i, t in enumerate(targets):
        aim = aims[min(i, len(aims) - 1)] if aims else -1
        if aim == 0 or t == 0:
            continue
        if t < 0:
            ours = same_team(s, -1 - t, me)
        elif t in s.objects:
            ours = same_team(s, game.chars(t).controller, me)
        else:
            continue
        if ours == (aim < 0):
            return True
    return False


def _aims(game: Game, thing: Any) -> list[int]:
    """:func:`target_aims` of :func:`effect_text`, an effect whose words tell nothing
    taken to hurt what it targets."""
    modes = thing[3] if _action_kind(thing) == "cast" else ()
    return [a or -1 for a in mode_aims(effect_text(game, thing), modes)] or [-1]


class HeuristicAgent(RandomAgent):
    """A simple, deterministic-given-seed player: develops, attacks, trades."""

    def __repr__(self) -> str:
        return f"HeuristicAgent(seed={self.seed})"

    def decide(self, game: Game, d: Decision) -> Any:
        me = d.player
        if d.kind == "priority":
            return self._priority(game, d, me)
        if d.kind == "attackers":
            return self._attack(game, d, me)
        if d.kind == "blockers":
            return self._block(game, d, me)
        if d.kind == "redirect":
            return d.options[-1] if d.options else 0
        if d.kind == "may":
            return True
        if d.kind == "mulligan":
            lands = sum(1 for o in game.state.players[me].hand if "Land" in game.chars(o).types)
            return 2 <= lands <= 5 or len(game.state.players[me].hand) <= 5
        if d.kind == "targets" and d.options:
            return self._best_targets(game, d.options, me, _aims(game, d.context))
        return super().decide(game, d)

    def _priority(self, game: Game, d: Decision, me: int) -> Any:
        opts = d.options or [["pass"]]
        plays = [o for o in opts if o[0] == "play"]
        if plays:
            return plays[0]
        casts = [o for o in opts if o[0] == "cast"]
        s = game.state
        if casts:
            def score(o: list[Any]) -> tuple[int, int]:
                c = game.chars(o[1])
                wrong = bool(o[2]) and misaimed(game, me, o[2], _aims(game, o))
                return (0 if wrong and "Creature" not in c.types else 1,
                        c.mana_value + o[4])
            best = max(casts, key=score)
            if score(best)[0] == 1:
                if is_active(s, me) or "Creature" not in game.chars(best[1]).types:
                    if s.stack and s.stack[-1].controller == me:
                        return ["pass"]
                    return best
        # (never an only-{X} ability at X = 0: free, it would be activated again each
        # time the stack emptied)
        acts = [o for o in opts if o[0] == "activate" and not only_x_at_zero(game, o)]
        aimed = [o for o in acts if not (o[3] and misaimed(game, me, o[3], _aims(game, o)))]
        acts = aimed or acts
        if acts and is_active(s, me) and not s.stack:
            # after j activations of its own this step, only with probability 2**-j: a
            # free ability ("{0}: ...") was activated each time the stack emptied, until
            # the event budget ended the game
            j = activations_this_step(game, me)
            if j and self.rng.random() >= 0.5 ** j:
                return ["pass"]
            return acts[self.rng.randrange(len(acts))]
        return ["pass"]

    def _best_targets(self, game: Game, options: Sequence[Any], me: int,
                      aims: Sequence[int]) -> Any:
        """The first choice that aims each target the right way (:func:`misaimed`)."""
        good = [o for o in options if not misaimed(game, me, o, aims)]
        return (good or options)[0]

    def _attack(self, game: Game, d: Decision, me: int) -> Any:
        s = game.state
        groups = d.context.get("groups") or [d.context["targets"]]

        def blockers_of(group: list[int]) -> list[int]:
            # the creatures that could block an attack at this group's player (and team)
            opp = ev.ref_player(group[0])
            team = team_of(s, opp) if opp is not None else []
            return [o for o in s.battlefield if game.chars(o).controller in team
                    and game.chars(o).is_creature and not s.objects[o].tapped]

        # several opponents: the one with the fewest untapped creatures (the first of those)
        targets = min(groups, key=lambda g: len(blockers_of(g)))
        blockers = blockers_of(targets)
        biggest = max((game.chars(b).power or 0 for b in blockers), default=0)
        out = []
        for a in d.context["attackers"]:
            c = game.chars(a)
            if (c.toughness or 0) > biggest or not blockers or c.has("flying"):
                out.append([a, targets[0]])
        return out

    def _block(self, game: Game, d: Decision, me: int) -> Any:
        out = []
        used: set[int] = set()
        life = game.state.players[me].life
        incoming = sum(game.chars(a).power or 0 for a in d.context["attackers"])
        for a in d.context["attackers"]:
            ac = game.chars(a)
            for b in d.context["blockers"]:
                if b in used or not game.can_block(b, a):
                    continue
                bc = game.chars(b)
                if (bc.power or 0) >= (ac.toughness or 0) or (bc.toughness or 0) > (
                        ac.power or 0) or incoming >= life:
                    out.append([b, a])
                    used.add(b)
                    break
        return legal_menace_blocks(game, required_blocks(game, d.context["blockers"], out))


class ReplayAgent:
    """Answers with the decisions recorded in a log, in order.

    At each decision it looks at the recorded event at the position the
    engine is about to write: a recorded :class:`~mtgk.log.events.DecisionMade`
    is the answer; otherwise the decision had one option and took it.
    """

    def __init__(self, envelopes: Sequence[ev.Envelope], fallback: Any = None,
                 stop_at: int | None = None) -> None:
        self.log = envelopes
        self.fallback = fallback
        self.stop_at = stop_at

    def decide(self, game: Game, d: Decision) -> Any:
        seq = len(game.log)
        if self.stop_at is not None and seq >= self.stop_at and self.fallback is not None:
            return self.fallback.decide(game, d)
        if seq < len(self.log):
            e = self.log[seq].event
            if isinstance(e, ev.DecisionMade) and e.kind == d.kind and e.player == d.player:
                return e.choice  # (even with one listed option: "up to" choices, or an
                # action the options don't list, such as a mana ability, were recorded)
        if d.options is not None and len(d.options) == 1:
            return d.options[0]  # otherwise a decision with one option is not recorded
        if seq >= len(self.log) and self.fallback is not None:
            return self.fallback.decide(game, d)
        if d.options:
            return d.options[0]
        raise ReplayExhausted(seq)


class ReplayExhausted(Exception):
    """The recorded log ended while the engine still had decisions to ask."""

    def __init__(self, seq: int) -> None:
        super().__init__(f"the log has no recorded decision at event {seq}")
        self.seq = seq


AGENTS: dict[str, Callable[[int], Agent]] = {
    "heuristic": HeuristicAgent,
    "random": RandomAgent,
}
"""Agent kinds ``mtgk play --agents`` and ``mtgk sim`` know: name -> class taking a seed."""
