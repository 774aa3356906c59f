"""The lists of subtypes the rules know (CR 205.3), shipped as data.

>>> "Rogue" in creature_types(), is_creature_type("Rouge")
(True, False)
"""

from __future__ import annotations

from functools import cache
from importlib import resources

__all__ = ["creature_types", "is_creature_type", "planeswalker_types"]


@cache
def creature_types() -> tuple[str, ...]:
    """Every creature type in the Comprehensive Rules (CR 205.3m), shipped as data, sorted."""
    return _data_list("creature_types.txt")


@cache
def planeswalker_types() -> tuple[str, ...]:
    return _data_list("planeswalker_types.txt")


def _data_list(name: str) -> tuple[str, ...]:
    try:
        text = resources.files("mtgk").joinpath(f"data/{name}").read_text("utf-8")
    except FileNotFoundError:
        text = ""
    return tuple(sorted(line.strip() for line in text.splitlines() if line.strip()))


@cache
def _creature_type_set() -> frozenset[str]:
    return frozenset(creature_types())


def is_creature_type(t: str) -> bool:
    return t in _creature_type_set()
