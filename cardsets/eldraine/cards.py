"""Wilds of Eldraine card definitions."""

from __future__ import annotations

from kernel.dsl import CardSet

S = CardSet("eldraine", "0.1.0", __file__)
