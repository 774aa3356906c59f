"""Why did an event happen, and what did it lead to? :func:`explain` walks the cause links
from an event back to the decision (or rule) that started it, and lists its consequences."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.log.events import Envelope
from mtgk.log.logfile import event_tag
from mtgk.render import Renderer, step_name
from mtgk.tools.debug.refs import moments

__all__ = [
    "Explanation",
    "Link",
    "explain",
]


@dataclass
class Link:
    """One event in an explanation: its number, type, readable text and cause."""

    seq: int
    type: str
    text: str
    cause: int
    depth: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "type": self.type, "text": self.text, "cause": self.cause,
                **({"depth": self.depth} if self.depth else {})}


@dataclass
class Explanation:
    """Why event ``event.seq`` happened (see :func:`explain`).

    ``chain`` runs from the event back, cause by cause, to ``origin``: the
    player's decision that started it (``None`` when the chain starts with a
    rule of the game in a step, e.g. a turn-based action or a state-based
    action, whose first event, the step's beginning, is ``root``).  ``context``
    is the rest of the causes beyond the decision, up to the step it was made
    in (then ``root``).  ``consequences`` are the events
    whose cause is the event (and theirs, up to the asked depth).
    ``decisions_along`` maps a link to the decision made just before it while its
    cause was being carried out (a redirect, a target, a "may"): not its cause,
    but what shaped it.  ``fold_errors`` are the events the renderer could not fold
    (``(seq, why)``: a log whose content makes no sense there).
    """

    event: Link
    chain: list[Link]
    origin: Link | None
    origin_text: str
    root: Link
    context: list[Link] = field(default_factory=list)
    consequences: list[Link] = field(default_factory=list)
    more_consequences: int = 0
    decisions_along: dict[int, Link] = field(default_factory=dict)
    fold_errors: list[tuple[int, str]] = field(default_factory=list)

    def summary(self) -> str:
        """``"CounterRemoved ← DamageDealt ← SpellCast ← cast Shock by Alice at event 95"``."""
        if self.root.seq == self.event.seq:
            return f"{self.event.type}: {self.origin_text}"
        parts = [link.type for link in self.chain
                 if link is not self.origin and (self.origin or link is not self.root)]
        return " ← ".join([*parts, self.origin_text])

    def lines(self) -> list[str]:
        """The explanation as text, one line per item."""
        out = [f"event {self.event.seq}: {self.event.text}", "", "why:",
               "  " + self.summary(), ""]
        width = max(len(str(link.seq)) for link in self.chain + self.context)
        for link in self.chain:
            mark = "  ← started by this decision" if link is self.origin else ""
            out.append(f"  {link.seq:>{width}} {link.type:<18} {link.text}{mark}")
            d = self.decisions_along.get(link.seq)
            if d is not None:
                out.append(f"  {'':>{width}} {'':<18} (after {d.seq} {d.text})")
        for link in self.context:
            out.append(f"  {link.seq:>{width}} {link.type:<18} {link.text}  (context)")
        out.append("")
        if not self.consequences:
            out.append(f"consequences: none (no event has event {self.event.seq} as its cause)")
            return out
        out.append(f"consequences (events caused by event {self.event.seq}):")
        for link in self.consequences:
            indent = "  " * link.depth
            out.append(f"  {indent}{link.seq} {link.type}: {link.text}")
        if self.more_consequences:
            out.append(f"  ... and {self.more_consequences} more")
        return out

    def to_json(self) -> dict[str, Any]:
        return {"event": self.event.to_json(), "summary": self.summary(),
                "chain": [link.to_json() for link in self.chain],
                "origin": self.origin.to_json() if self.origin else None,
                "origin_text": self.origin_text, "root": self.root.to_json(),
                "context": [link.to_json() for link in self.context],
                "consequences": [link.to_json() for link in self.consequences],
                "more_consequences": self.more_consequences,
                "decisions_along": {str(k): v.to_json()
                                    for k, v in self.decisions_along.items()}}


def _children(envelopes: Sequence[Envelope]) -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for env in envelopes:
        if env.cause >= 0:
            kids.setdefault(env.cause, []).append(env.seq)
    return kids


def explain(envelopes: Sequence[Envelope], n: int, registry: Registry | None = None,
            viewer: int | None = None, depth: int = 1, limit: int = 100) -> Explanation:
    """Explain event ``n``: its chain of causes back to the decision or rule that
    started it, and its consequences down to ``depth`` levels (at most ``limit``).

    Every event is described as it read when it happened (cards named, hidden
    ones masked for ``viewer``).
    """
    if not 0 <= n < len(envelopes):
        raise IndexError(f"event {n} is not in the log (it has events 0 to "
                         f"{len(envelopes) - 1})")
    chain_seqs: list[int] = []
    seq = n
    while seq >= 0:
        chain_seqs.append(seq)
        seq = envelopes[seq].cause
    kids = _children(envelopes)
    conseq: list[tuple[int, int]] = []
    more = 0
    stack = [(k, 0) for k in reversed(kids.get(n, []))]
    while stack:
        s, d = stack.pop()
        if len(conseq) >= limit:
            more += 1
            continue
        conseq.append((s, d))
        if d + 1 < depth:
            stack.extend((k, d + 1) for k in reversed(kids.get(s, [])))
    # a decision made while the cause of a link was being carried out, just before the
    # link (a redirect, a target, a "may"): it shaped the link without being its cause
    along: dict[int, int] = {}
    for seq in chain_seqs:
        c = envelopes[seq].cause
        if c < 0:
            continue
        sib = [k for k in kids.get(c, []) if k < seq and k not in chain_seqs
               and isinstance(envelopes[k].event, ev.DecisionMade)]
        if sib:
            along[seq] = sib[-1]
    need = set(chain_seqs) | {s for s, _ in conseq} | set(along.values())
    texts: dict[int, str] = {}
    choices: dict[int, str] = {}
    r = Renderer(registry, viewer)
    last = max(need)
    for env in envelopes[: last + 1]:
        if env.seq in need:
            texts[env.seq] = r.describe(env)
            e = env.event
            if isinstance(e, ev.DecisionMade):
                choices[env.seq] = r.choice(e.kind, e.choice, e.player)
        r.advance(env)

    def link(s: int, d: int = 0) -> Link:
        env = envelopes[s]
        return Link(s, event_tag(env.event), texts[s], env.cause, d)

    # the chain stops at the player's decision that started it, or at the beginning of the
    # step (or turn) whose rules did; the context is the rest up to the step it was made in
    all_links = [link(s) for s in chain_seqs]
    origin: Link | None = None
    chain: list[Link] = []
    context: list[Link] = []
    for lk in all_links:
        e = envelopes[lk.seq].event
        if origin is None:
            chain.append(lk)
            if isinstance(e, ev.DecisionMade) and e.player >= 0 and lk.seq != n:
                origin = lk
            elif isinstance(e, ev.StepBegan | ev.TurnBegan) and lk.seq != n:
                break
        else:
            context.append(lk)
            if isinstance(e, ev.StepBegan | ev.TurnBegan):
                break
    root = (context or chain)[-1]
    if origin is not None:
        e = envelopes[origin.seq].event
        assert isinstance(e, ev.DecisionMade)
        who = r.player(e.player)
        what = choices.get(origin.seq, "")
        if e.kind == "priority":
            origin_text = f"{what} by {who} at event {origin.seq}"
        else:
            origin_text = f"{who}'s {e.kind} decision ({what}) at event {origin.seq}"
    else:
        origin_text = _rule_origin(envelopes, root, n)
    return Explanation(link(n), chain, origin, origin_text, root, context,
                       [link(s, d) for s, d in conseq], more,
                       {k: link(v) for k, v in along.items()}, list(r.fold_errors))


def _rule_origin(envelopes: Sequence[Envelope], root: Link, n: int) -> str:
    e = envelopes[root.seq].event
    if root.seq == n:
        return "no recorded cause (it starts its own chain: game setup, or a rule of the game)"
    rule = "the game rules"
    seq = n
    while envelopes[seq].cause > root.seq:
        seq = envelopes[seq].cause
    # what the rules did first: a state-based action names itself in its reason
    reason = getattr(envelopes[seq].event, "reason", "")
    if isinstance(reason, str) and reason.startswith("sba"):
        what = reason.partition(":")[2]
        rule = "a state-based action" + (f" ({what})" if what else "")
    explained = envelopes[n].event
    if isinstance(e, ev.StepBegan):
        turn = moments(envelopes[: root.seq + 1])[-1].turn
        if isinstance(explained, ev.StepBegan | ev.TurnBegan):  # the next step, or turn
            return f"the end of turn {turn}'s {step_name(e.step)} step (event {root.seq})"
        return f"{rule}, in turn {turn}'s {step_name(e.step)} step (event {root.seq})"
    if isinstance(e, ev.TurnBegan):
        return f"{rule}, at the start of turn {e.turn} (event {root.seq})"
    return f"{rule}: {root.text} (event {root.seq})"
