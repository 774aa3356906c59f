"""Debugging saved logs: who and what an event involves, why it happened, what
changed, and what would have happened had a decision gone otherwise.

The command line (``mtgk log --card/--player/--turn``, ``mtgk explain``,
``mtgk diff``, ``mtgk branch``) is a thin layer over this module:

* :func:`event_refs` -- the objects and players an event names (in its fields
  and, for decisions, in the choice), and :func:`map_event_ids` (from
  :mod:`mtgk.rules.visibility`), which rewrites those object ids (to mask hidden
  objects, or to compare two logs whose ids differ); :class:`CardIndex` follows each physical card across zone changes
  (``Obj.card_id``) so that ``--card NAME`` finds every event about it;
* :func:`moments` / :func:`find_moment` -- which turn and step every event
  belongs to, and the event where a step of a turn began;
* :func:`explain` -- the chain of causes from an event back to the decision
  (or rule) that started it, and its consequences;
* :func:`diff_states` / :func:`diff_logs` -- what changed between two states,
  and where two logs part;
* :func:`branch` -- re-run a game up to one of its decisions, answer it
  differently, and let agents play on: a "what if".

>>> from mtgk.log import events as ev
>>> refs = event_refs(ev.DamageDealt(source=7, target=-2, amount=3))
>>> refs.objects, refs.players
((7,), (1,))
>>> event_refs(ev.DecisionMade(player=0, kind="priority", choice=["cast", 9, [-2], [], 0, ""]))
Refs(objects=(9,), players=(0, 1))
>>> map_event_ids(ev.Attached(obj=3, to=4), lambda i: i * 10)
Attached(obj=30, to=40)

The package's modules: :mod:`~mtgk.tools.debug.refs` (references, cards, moments),
:mod:`~mtgk.tools.debug.causes` (explain), :mod:`~mtgk.tools.debug.changes` (diffs) and
:mod:`~mtgk.tools.debug.branching` (branch); the names below are theirs.
"""

from mtgk.rules.visibility import map_choice, map_event_ids
from mtgk.tools.debug.branching import BranchError, BranchRefused, BranchResult, branch
from mtgk.tools.debug.causes import Explanation, Link, explain
from mtgk.tools.debug.changes import (
    LogDiff,
    ObjectChange,
    StateDiff,
    diff_logs,
    diff_states,
    envelope_difference,
)
from mtgk.tools.debug.refs import CardIndex, Moment, Refs, event_refs, find_moment, moments

__all__ = [
    "BranchError",
    "BranchRefused",
    "BranchResult",
    "CardIndex",
    "Explanation",
    "Link",
    "LogDiff",
    "Moment",
    "ObjectChange",
    "Refs",
    "StateDiff",
    "branch",
    "diff_logs",
    "diff_states",
    "envelope_difference",
    "event_refs",
    "explain",
    "find_moment",
    "map_choice",
    "map_event_ids",
    "moments",
]
