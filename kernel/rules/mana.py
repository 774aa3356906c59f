"""Mana costs: parsing, and paying them from a pool and untapped sources.

>>> c = ManaCost.parse("{2}{R}{R}")
>>> c
ManaCost.parse('{2}{R}{R}')
>>> c.generic, c.colored, c.mana_value
(2, ['R', 'R'], 4)
>>> ManaCost.parse("{X}{U}").x
1
>>> ManaCost.parse("{2/W}{2/W}{2/W}").mana_value  # monocolored hybrid counts 2 (CR 202.3f)
6
>>> plan_payment(ManaCost.parse("{2/R}"), ["G", "U"], [])  # or two generic (CR 107.4e)
([], ['G', 'U'])
>>> plan_payment(ManaCost.parse("{1}{G}"), [], [(10, ("G",)), (11, ("R",))])
([(10, 'G'), (11, 'R')], [])

Mana with a spending restriction ("Spend this mana only to cast Elemental spells or
activate abilities of Elementals") sits in the pool as ``"R:<restriction>"``; the
restriction names a check registered with :func:`register_spend_restriction`.  The
engine passes :func:`plan_payment` only the pool mana and the sources that may pay
for what is being paid for (``Game.payment``); restricted mana comes first, so it is
spent first.

>>> plan_payment(ManaCost.parse("{1}{R}"), ["R:Elemental", "G"], [])
([], ['R:Elemental', 'G'])
>>> restriction("R:Elemental"), restriction("R")
('Elemental', '')
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

COLORS = "WUBRG"
_SYM = re.compile(r"\{([^}]+)\}")
_PARSED: dict[str, ManaCost] = {}
ACCEPTED = ("a mana cost accepts {0}, {1}, ... (generic), {X}, {W} {U} {B} {R} {G}, {C}, "
            "hybrid {W/U} ... and monocolored hybrid {2/W} ...")
"""What :meth:`ManaCost.parse` accepts (the end of its error for a symbol it doesn't)."""


@dataclass(frozen=True)
class ManaCost:
    text: str
    generic: int = 0
    colored: list[str] = field(default_factory=list)
    hybrid: list[tuple[str, ...]] = field(default_factory=list)
    x: int = 0
    less: int = 0  # a reduction still to take off the generic part once X is chosen
    #: monocolored hybrid symbols (``{2/W}``: one white mana or two generic, CR 107.4e),
    #: by colour; each counts 2 toward the mana value (CR 202.3f)
    twobrid: list[str] = field(default_factory=list)

    @staticmethod
    def parse(text: str | None) -> ManaCost:
        """The cost written ``text`` (``"{2}{R}"``); parsed once per text (a cost is
        never changed: :meth:`with_x` and :meth:`plus` make new ones)."""
        text = text or ""
        cost = _PARSED.get(text)
        if cost is None:
            cost = _PARSED[text] = ManaCost._parse(text)
        return cost

    @staticmethod
    def _parse(text: str) -> ManaCost:
        generic, x = 0, 0
        colored: list[str] = []
        hybrid: list[tuple[str, ...]] = []
        twobrid: list[str] = []
        if _SYM.sub("", text).strip():
            raise ValueError(f"mana cost {text!r}: {_SYM.sub('', text).strip()!r} is no mana "
                             f"symbol; {ACCEPTED}")
        for sym in _SYM.findall(text):
            s = sym.upper()
            if s.isdigit():
                generic += int(s)
            elif s == "X":
                x += 1
            elif len(s) == 1 and s in COLORS + "C":
                colored.append(s)
            elif re.fullmatch(r"2/[WUBRG]", s):
                twobrid.append(s[2])
            elif re.fullmatch(r"[WUBRG]/[WUBRG]", s) and s[0] != s[2]:
                hybrid.append((s[0], s[2]))
            else:
                raise ValueError(f"mana cost {text!r}: unknown mana symbol {{{sym}}}; "
                                 f"{ACCEPTED}")
        return ManaCost(text, generic, colored, hybrid, x, 0, twobrid)

    def __repr__(self) -> str:
        return f"ManaCost.parse({self.text!r})"

    @cached_property
    def least_mana(self) -> int:
        """The fewest mana that can pay this cost (X as 0): one per symbol."""
        return self.generic + len(self.colored) + len(self.hybrid) + len(self.twobrid)

    @property
    def mana_value(self) -> int:
        """CR 202.3: X as 0, a monocolored hybrid symbol as 2 (CR 202.3f)."""
        return self.generic + len(self.colored) + len(self.hybrid) + 2 * len(self.twobrid)

    def with_x(self, x: int) -> ManaCost:
        return ManaCost(self.text, max(0, self.generic + x * self.x - self.less),
                        list(self.colored), list(self.hybrid), 0, 0, list(self.twobrid))

    def plus(self, generic: int) -> ManaCost:
        """This cost ``generic`` more (or, negative, less: never below zero, CR 601.2f);
        a reduction larger than the generic part also reduces what X adds."""
        left = self.generic + generic
        return ManaCost(self.text, max(0, left), list(self.colored), list(self.hybrid),
                        self.x, self.less + (max(0, -left) if self.x else 0),
                        list(self.twobrid))

    def combined(self, other: ManaCost) -> ManaCost:
        """This cost and ``other`` paid together (X of neither: both fixed already)."""
        return ManaCost(f"{self.text}{other.text}", self.generic + other.generic,
                        self.colored + other.colored, self.hybrid + other.hybrid, 0, 0,
                        self.twobrid + other.twobrid)

    @property
    def is_free(self) -> bool:
        return self.generic == 0 and not self.colored and not self.hybrid and not self.twobrid


Source = tuple[int, tuple[str, ...]]

Plan = tuple[list[tuple[int, str]], list[str]]
"""A payment plan (:func:`plan_payment`'s): the sources to tap for which mana, and the
pool mana to spend."""


@dataclass(frozen=True)
class FilteredPlan:
    """A payment that activates mana abilities which cost mana (a filter land's "{1}, {T}:
    Add one mana of any color", CR 605.3a): ``tapped`` sources are tapped for mana first
    (into the pool); then each step ``(permanent, pool mana spent on its ability's cost,
    mana the ability adds)`` in order; then ``spent`` is spent from the pool on the cost
    (what is left of the mana made stays in the pool)."""

    tapped: list[tuple[int, str]]
    steps: list[tuple[int, list[str], str]]
    spent: list[str]


AnyPlan = Plan | FilteredPlan
"""What ``Game.plan_mana`` gives and ``Game.pay`` pays."""

Spend = tuple[str, int]
"""What mana is being spent on: ``("spell", card)`` (casting it) or ``("ability",
source)`` (activating an ability of that object)."""

SPEND_RESTRICTIONS: dict[str, Callable[[Any, str, int], bool]] = {}
"""Restrictions on spending mana: key -> ``check(view, what, obj)`` (see :data:`Spend`)."""


def register_spend_restriction(key: str, check: Callable[[Any, str, int], bool]) -> None:
    """Name a restriction "spend this mana only to ...": ``check(view, what, obj)`` says
    whether the mana may pay for casting spell ``obj`` (``what == "spell"``) or
    activating an ability of ``obj`` (``"ability"``)."""
    SPEND_RESTRICTIONS[key] = check


def restriction(entry: str) -> str:
    """The spending restriction of one mana in a pool (``""``: none)."""
    return entry[2:] if len(entry) > 2 and entry[1] == ":" else ""


_PLANS: dict[Any, tuple[list[tuple[int, str]], list[str]] | None] = {}


def plan_payment(cost: ManaCost, pool: list[str],
                 sources: list[Source]) -> tuple[list[tuple[int, str]], list[str]] | None:
    """How to pay ``cost`` (X already fixed): which sources to tap for which mana,
    and which pool mana to spend.  ``None`` if it cannot be paid.

    Deterministic: pool mana first, then sources in the order given, the most
    constrained requirement first.  Pool mana is given as it is in a pool (a colour
    letter, then any restriction: every mana given may be spent).  (A pure function:
    its answers are remembered, a few thousand at a time.)
    """
    if cost.least_mana > len(pool) + len(sources):
        return None  # each mana symbol needs at least one mana
    key = (cost.generic, tuple(cost.colored), tuple(cost.hybrid), tuple(cost.twobrid),
           tuple(pool), tuple(sources))
    if key in _PLANS:
        plan = _PLANS[key]
        return None if plan is None else (list(plan[0]), list(plan[1]))
    if len(_PLANS) >= 4096:
        _PLANS.clear()
    plan = _plan_twobrid(cost, pool, sources)
    _PLANS[key] = None if plan is None else (list(plan[0]), list(plan[1]))
    return plan


def _plan_twobrid(cost: ManaCost, pool: list[str],
                  sources: list[Source]) -> tuple[list[tuple[int, str]], list[str]] | None:
    """The plan for a cost with monocolored hybrid symbols: each paid with its colour if
    it can be, else with two generic mana (CR 107.4e) -- the choices tried in that order,
    the fewest symbols paid as generic first."""
    if not cost.twobrid:
        return _plan_payment(cost, pool, sources)
    n = len(cost.twobrid)
    for generic_ones in range(n + 1):
        if cost.least_mana + generic_ones > len(pool) + len(sources):
            return None
        for which in _combinations(n, generic_ones):
            colored = [m for i, m in enumerate(cost.twobrid) if i not in which]
            plain = ManaCost(cost.text, cost.generic + 2 * generic_ones,
                             cost.colored + colored, list(cost.hybrid))
            plan = _plan_payment(plain, pool, sources)
            if plan is not None:
                return plan
    return None


def _combinations(n: int, k: int) -> list[tuple[int, ...]]:
    from itertools import combinations
    return list(combinations(range(n), k))


def _plan_payment(cost: ManaCost, pool: list[str],
                  sources: list[Source]) -> tuple[list[tuple[int, str]], list[str]] | None:
    pool_left = list(pool)
    from_pool: list[str] = []
    need_colored: list[tuple[str, ...]] = [(c,) for c in cost.colored] + list(cost.hybrid)
    # pay colored from pool first
    rest: list[tuple[str, ...]] = []
    for req in need_colored:
        hit = next((e for m in req for e in pool_left if e[0] == m), None)
        if hit is not None:
            pool_left.remove(hit)
            from_pool.append(hit)
        else:
            rest.append(req)
    rest.sort(key=len)
    used: list[tuple[int, str]] = []
    avail = list(sources)

    def solve(i: int) -> bool:
        if i == len(rest):
            return True
        req = rest[i]
        tried: list[tuple[str, ...]] = []
        for j, (sid, colors) in enumerate(avail):
            hit = next((m for m in req if m in colors), None)
            if hit is None or colors in tried:
                continue  # (a source like one that failed here fails too)
            tried.append(colors)
            avail.pop(j)
            used.append((sid, hit))
            if solve(i + 1):
                return True
            used.pop()
            avail.insert(j, (sid, colors))
        return False

    if not solve(0):
        return None
    generic = cost.generic
    while generic and pool_left:
        from_pool.append(pool_left.pop(0))
        generic -= 1
    if generic > len(avail):
        return None
    # prefer sources that make the fewest colours for generic mana
    order = sorted(range(len(avail)), key=lambda k: (len(avail[k][1]), k))[:generic]
    for k in sorted(order):
        sid, colors = avail[k]
        used.append((sid, colors[0]))
    return used, from_pool


def max_payable_x(cost: ManaCost, pool: list[str], sources: list[Source]) -> int:
    """The largest X for which ``cost`` can be paid (0 if it has no X)."""
    if not cost.x:
        return 0
    x = 0
    while plan_payment(cost.with_x(x + 1), pool, sources) is not None:
        x += 1
    return x
