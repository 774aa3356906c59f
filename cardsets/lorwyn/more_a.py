"""Lorwyn cards (being written)."""

from __future__ import annotations

from .cards import S  # noqa: F401
