"""Wilds of Eldraine: the card set object, its data, and shared helpers.

The data file ``cards.json`` holds two lists: ``roles`` (the seven Role tokens) and
``cards`` (every card that creates one).  :data:`S` loads the ``cards`` facts;
:mod:`.role_tokens` defines the Role tokens from ``roles``; :mod:`.creators` the cards.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from mtgk.cards.definitions import CardFacts
from mtgk.cards.dsl import CardSet

S = CardSet("eldraine", "0.1.0", __file__)

RAW: dict[str, Any] = json.loads((Path(__file__).parent / "cards.json").read_text("utf-8"))
RAW_CARDS: dict[str, dict[str, Any]] = {c["name"]: c for c in RAW["cards"]}
ROLE_FACTS: dict[str, CardFacts] = {
    r["name"]: msgspec.convert(r, CardFacts, strict=False) for r in RAW["roles"]}
