"""mtgk: an event-sourced rules kernel for Magic: The Gathering.

The public API:

* :class:`~mtgk.rules.engine.Game` -- a game, its state and its event log;
* :mod:`mtgk.log.events` -- the events (the only way state changes);
* :func:`~mtgk.rules.state.apply` / :func:`~mtgk.rules.state.fold` -- the projector;
* :func:`~mtgk.cards.loading.load_registry` -- card sets and mechanics plugins;
* :mod:`mtgk.cards.dsl` and :mod:`mtgk.cards.filters` -- how cards are written.
"""

__version__ = "0.1.0"
"""The package's release (``kernel_version`` in a log's header); informational."""

RULES_REVISION = 3
"""The rules revision (``rules_revision`` in a log's header): bumped whenever the events
the kernel emits for the same decisions change (other events, fields, causes, order).
A log of another revision verifies as "written by other rules", not as damaged. Bump it
and record the reference games' digests in one commit (docs/log-format.md, "Versions"):
``python bench/reference.py --write bench/reference-digests.txt``."""

if __name__ != "mtgk":  # the checkout's folder kernel/ imported by its old name
    raise ImportError("the folder kernel/ is installed as the package 'mtgk': import mtgk.NAME, "
                      "not kernel.NAME (docs/pack-authors.md)", name=__name__)

from mtgk import kind  # noqa: E402  (after the check above)

kind.select()  # MTGK_PURE=1: the pure-Python kernel, even where compiled modules are installed
