"""What automatic payment costs on boards with filter lands (issue 22).

A filter land ("{T}: Add {C}. {1}, {T}: Add one mana of any color.", Shimmering Grotto)
is a mana ability that costs mana: payment uses it only when tapping the mana sources
plainly can't pay (``Game.plan_mana``, CR 605.3a).  On a board of N such lands and N
Mountains, this times ``plan_mana`` for a cost the plain sources pay ({2}), one only the
filters pay ({W}{U}: two filter activations), and one nobody can (N+1 white mana: every
choice of up to three filters is tried and refused), and ``legal_actions`` with a hand of
three such spells.  Figures are CPU time (``time.process_time``) per call, the median of
``--rounds`` rounds; each call starts from a fresh game (no plan remembered).  Nothing
here is run by CI.

    python bench/filter_lands.py [--sizes 1 2 4 8] [--rounds 5] [--calls 50]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mtgk.cards.definitions import CardFacts, CardSetInfo, Registry  # noqa: E402
from mtgk.cards.dsl import CardSet, mana_ability  # noqa: E402
from mtgk.cards.loading import hookimpl, load_registry  # noqa: E402
from mtgk.log import events as ev  # noqa: E402
from mtgk.rules import mana  # noqa: E402
from mtgk.rules.engine import Game  # noqa: E402
from mtgk.rules.mana import ManaCost  # noqa: E402

B = CardSet("bench-filters", "0.0.1", __file__, facts="no-such-file.json")
B.card("Bench Grotto", mana_ability("C"), mana_ability("WUBRG", "{1}, {T}"),
       facts=CardFacts(name="Bench Grotto", mana_cost=None, types=("Land",),
                       type_line="Land",
                       oracle_text="{T}: Add {C}.\n{1}, {T}: Add one mana of any color."))
for _name, _cost in (("Bench Bear", "{1}{W}"), ("Bench Duo", "{W}{U}"), ("Bench Ox", "{3}")):
    B.card(_name, facts=CardFacts(name=_name, mana_cost=_cost,
                                  mana_value=ManaCost.parse(_cost).mana_value,
                                  types=("Creature",), type_line="Creature", power="2",
                                  toughness="2"))


class _Pack:
    @hookimpl
    def mtgk_cardsets(self) -> list[CardSetInfo]:
        return [B.info()]


def board(reg: Registry, n: int) -> Game:
    g = Game(reg, ["a", "b"], seed=0)
    g.emit(ev.TurnBegan(turn=1, active=0))
    g.emit(ev.StepBegan(step="precombat_main"))
    for name in ["Bench Grotto"] * n + ["Mountain"] * n:
        g.emit(ev.ObjectCreated(obj=g.new_id(), card=name, owner=0, zone="battlefield"))
    for name in ("Bench Bear", "Bench Duo", "Bench Ox"):
        g.emit(ev.ObjectCreated(obj=g.new_id(), card=name, owner=0, zone="hand"))
    return g


def timed(reg: Registry, n: int, calls: int, what: Any) -> float:
    games = [board(reg, n) for _ in range(calls)]
    mana._PLANS.clear()
    start = time.process_time()
    for g in games:
        what(g)
    return (time.process_time() - start) / calls


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1, 2, 4, 8])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=50)
    a = ap.parse_args()
    reg = load_registry(extra=[("bench-filters", _Pack())])
    print(f"{'N':>3} {'plain {2}':>12} {'filters {W}{U}':>15} {'unpayable':>12} "
          f"{'legal_actions':>14}   (ms per call)")
    for n in a.sizes:
        cases = [lambda g: g.plan_mana(0, ManaCost.parse("{2}")),
                 lambda g: g.plan_mana(0, ManaCost.parse("{W}{U}")),
                 lambda g, n=n: g.plan_mana(0, ManaCost.parse("{W}" * (n + 1))),
                 lambda g: g.legal_actions(0)]
        ms = [statistics.median(timed(reg, n, a.calls, case) for _ in range(a.rounds)) * 1000
              for case in cases]
        print(f"{n:>3} " + " ".join(f"{m:>{w}.3f}" for m, w in zip(ms, (12, 15, 12, 14),
                                                                     strict=True)))


if __name__ == "__main__":
    main()
