"""How the event types a plugin defines read in a log: :func:`register_renderer`.

The table lives here, in the card-writing API, so that a plugin can fill it without
importing the tools; :class:`mtgk.render.Renderer` reads it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

EventRenderer = Callable[[Any, Any], str]
"""``fn(renderer, event) -> text``; the renderer is a :class:`mtgk.render.Renderer`
(named, not imported: the card API imports no tool, not even for annotations)."""
RENDERERS: dict[str, EventRenderer] = {}
"""Renderings of event types defined outside the kernel: tag -> ``fn(renderer, event)``."""


def register_renderer(tag: str, fn: EventRenderer) -> EventRenderer:
    """Say how events tagged ``tag`` read: ``fn(renderer, event)`` returns the text.

    For plugins that add event types; the renderer's :meth:`Renderer.player`,
    :meth:`Renderer.obj` and :meth:`Renderer.ref` name players and objects
    (masking hidden cards).  Returns ``fn``.
    """
    RENDERERS[tag] = fn
    return fn
