"""docs/pack-authors.md names every public name of the card-writing API (issue 14), as
tests/test_plugins.py checks the hookspecs are documented."""

from __future__ import annotations

import inspect
from pathlib import Path

import mtgk.cards.altcosts
import mtgk.cards.dsl
import mtgk.cards.history
import mtgk.cards.keywords
from mtgk.cards.effects import Ctx

DOC = (Path(__file__).resolve().parents[1] / "docs" / "pack-authors.md").read_text()


def public_names() -> list[str]:
    names: list[str] = []
    for m in (mtgk.cards.dsl, mtgk.cards.altcosts, mtgk.cards.history, mtgk.cards.keywords):
        names += m.__all__
    names += [n for n, _ in inspect.getmembers(Ctx) if not n.startswith("_")]
    return names


def test_every_public_name_of_the_card_writing_api_is_documented() -> None:
    missing = [n for n in public_names()
               if f"`{n}" not in DOC and f".{n}(" not in DOC and f"c.{n}" not in DOC]
    assert not missing, f"docs/pack-authors.md doesn't name: {missing}"
