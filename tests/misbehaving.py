"""A test-only card set of lands that misbehave as they enter the battlefield.

Used by tests/test_budget.py and tests/test_sim_failures.py to check that a card
that ends the process, crashes it, loops forever or emits events forever costs
one failed game, not a hung or dead ``mtgk``.  In-process it is registered with
``load_registry(extra=[("misbehave", misbehaving)])``; for worker processes (which
load only installed sets) :func:`install` writes an entry point for it, as pip would.
"""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

from mtgk.cards.definitions import CardFacts, CardSetInfo
from mtgk.cards.dsl import CardSet, etb
from mtgk.cards.effects import Ctx
from mtgk.cards.loading import hookimpl

S = CardSet("misbehave", "0.0.1", __file__, facts="no-such-file.json")

LONG_FLOOD = 30_000
"""Life gains of Long Flood Land: many events, but a game with it ends (on any kernel)."""


def _land(name: str, text: str) -> CardFacts:
    return CardFacts(name=name, mana_cost=None, mana_value=0, colors=(), supertypes=(),
                     types=("Land",), subtypes=(), type_line="Land", oracle_text=text,
                     power=None, toughness=None, loyalty=None, keywords=())


def _os_exit(c: Ctx) -> None:
    os._exit(3)


ONCE_MARK = "MTGK_TEST_ONCE_MARK"
"""The environment variable naming the file Once Exit Land leaves behind."""


def _once_exit(c: Ctx) -> None:
    """The process ends the first time (leaving the file named by ``$MTGK_TEST_ONCE_MARK``);
    once that file exists, nothing happens: a failure that a retry gets past."""
    mark = os.environ.get(ONCE_MARK)
    if mark and not os.path.exists(mark):
        Path(mark).write_text("died once\n")
        os._exit(3)


def _sys_exit(c: Ctx) -> None:
    sys.exit(4)


def _segfault(c: Ctx) -> None:
    os.kill(os.getpid(), signal.SIGSEGV)


def _sigkill(c: Ctx) -> None:  # what the out-of-memory killer does
    os.kill(os.getpid(), signal.SIGKILL)


def _spin(c: Ctx) -> None:
    while True:
        pass


def _flood(c: Ctx) -> None:
    while True:
        c.gain_life(c.you, 1)


def _long_flood(c: Ctx) -> None:
    for _ in range(LONG_FLOOD):
        c.gain_life(c.you, 1)


CARDS = {
    "Exit Land": (_os_exit, "When Exit Land enters, the process ends (os._exit(3))."),
    "Once Exit Land": (_once_exit, "When Once Exit Land enters for the first time, the "
                                   "process ends (os._exit(3))."),
    "Sys Exit Land": (_sys_exit, "When Sys Exit Land enters, it calls sys.exit(4)."),
    "Segfault Land": (_segfault, "When Segfault Land enters, the process gets SIGSEGV."),
    "Sigkill Land": (_sigkill, "When Sigkill Land enters, the process gets SIGKILL."),
    "Spin Land": (_spin, "When Spin Land enters, it loops forever without an event."),
    "Flood Land": (_flood, "When Flood Land enters, you gain 1 life, forever."),
    "Long Flood Land": (_long_flood, f"When Long Flood Land enters, you gain 1 life "
                                     f"{LONG_FLOOD} times."),
}
for _name, (_effect, _text) in CARDS.items():
    S.card(_name, etb(_effect), facts=_land(_name, _text))


SLOW_LOAD = "MTGK_TEST_SLOW_LOAD"
"""The environment variable of the seconds a Ray worker process takes to load this set (a
worker that is slow to start: tests/test_sim_ray.py); other processes load it at once."""


@hookimpl
def mtgk_cardsets() -> list[CardSetInfo]:
    slow = os.environ.get(SLOW_LOAD)
    if slow and "ray" in Path(sys.argv[0]).parts:  # (ray/_private/workers/default_worker.py)
        import time

        time.sleep(float(slow))
    return [S.info()]


def install(folder: Path) -> None:
    """Make this set an installed one for Python processes with ``folder`` on their path
    (a ``.dist-info`` with the entry point ``misbehave = tests.misbehaving``)."""
    info = folder / "mtgk_misbehave-0.0.1.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mtgk_misbehave\n"
                                   "Version: 0.0.1\n")
    (info / "entry_points.txt").write_text("[mtgk.cardsets]\nmisbehave = tests.misbehaving\n")
