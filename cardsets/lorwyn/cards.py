"""Lorwyn card definitions (basic lands, vanilla and keyword-only creatures, simple spells)."""

from __future__ import annotations

from kernel.dsl import CardSet

S = CardSet("lorwyn", "0.1.0", __file__)

S.vanilla("Plains", "Island", "Swamp", "Mountain", "Forest")

# Cards the kernel expresses directly, and the built-in decks (they add to ``S``).
from cardsets.lorwyn import simple  # noqa: E402,F401
