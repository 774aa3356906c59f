"""mtgk: an event-sourced rules kernel for Magic: The Gathering.

The public API:

* :class:`~kernel.engine.Game` -- a game, its state and its event log;
* :mod:`kernel.events` -- the events (the only way state changes);
* :func:`~kernel.state.apply` / :func:`~kernel.state.fold` -- the projector;
* :func:`~kernel.plugins.load_registry` -- card sets and mechanics plugins;
* :mod:`kernel.dsl` and :mod:`kernel.filters` -- how cards are written.
"""

__version__ = "0.1.0"

