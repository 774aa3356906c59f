"""Human-readable rendering of events and states, optionally from one player's seat.

:class:`Renderer` turns a log into one line per event, naming cards and
players instead of ids.  It folds the events as it goes (into a state of its
own), so every event is described with the state as it was just before it,
and it remembers the name of every object it has seen, so that objects which
have since changed zones (and ids) are still named.

With a *viewer* (``as_player``), hidden information is masked the way that
player would see it (the rules are :mod:`mtgk.rules.visibility`'s; the renderer
folds a :class:`~mtgk.rules.visibility.Perspective` along): cards in the other
player's hand, every library's contents and order, and face-down exiled cards
read as "a card", unless the object's ``known_to`` (or a
:class:`~mtgk.log.events.Revealed` event) includes the viewer; what is public (a
land played, a spell cast, a card discarded) is named.  :func:`event_json` and
:func:`mask_state` give events and states as the viewer may see them.  Every
text is :func:`clean`: control characters in names are escaped.

:func:`render_state` describes a whole state: turn and step, each player,
the battlefield (characteristics after layers), exile, the stack, combat,
pending triggers and the next decision.

>>> from mtgk.log import events as ev
>>> from mtgk.log.events import Envelope
>>> r = Renderer()
>>> r.render(Envelope(0, -1, ev.GameStarted(players=("Alice", "Bob"), seed=1)))
'0 Game started: Alice vs Bob (seed 1, rules lorwyn-2007)'
>>> _ = r.render(Envelope(1, -1, ev.ObjectCreated(obj=1, card="Forest", owner=0, zone="hand")))
>>> r.render(Envelope(2, -1, ev.LandPlayed(player=0, obj=1, new_obj=2)))
'2 Alice plays Forest'
>>> r.render(Envelope(3, -1, ev.CounterPlaced(obj=2, kind="loyalty", n=3)))
'3 Forest: loyalty 0 → 3'
>>> bob = Renderer(as_player=1)
>>> _ = bob.render(Envelope(0, -1, ev.GameStarted(players=("Alice", "Bob"), seed=1)))
>>> bob.render(Envelope(1, -1, ev.ObjectCreated(obj=1, card="Forest", owner=0, zone="hand")))
"1 a card is put into Alice's hand"

The package's modules: :mod:`~mtgk.render.words` (names, :func:`clean`),
:mod:`~mtgk.render.events` (:class:`Renderer`), :mod:`~mtgk.render.views` (the JSON views)
and :mod:`~mtgk.render.board` (:func:`render_state`); the names below are theirs.
Plugins say how their own event types read with :func:`register_renderer`
(:mod:`mtgk.cards.rendering`).
"""

from mtgk.cards.rendering import register_renderer
from mtgk.render.board import characteristics, render_state
from mtgk.render.events import (
    FOLD_NOTE,
    SBA_REASONS,
    Renderer,
    event_name,
    fold_note,
    render_event,
    render_log,
)
from mtgk.render.views import event_json, mask_state, state_json
from mtgk.render.words import (
    HIDDEN,
    UNKNOWN_PLAYER,
    can_see,
    clean,
    numbered_name,
    plain_repr,
    step_name,
)

__all__ = [
    "FOLD_NOTE",
    "HIDDEN",
    "SBA_REASONS",
    "UNKNOWN_PLAYER",
    "Renderer",
    "can_see",
    "characteristics",
    "clean",
    "event_json",
    "event_name",
    "fold_note",
    "mask_state",
    "numbered_name",
    "plain_repr",
    "register_renderer",
    "render_event",
    "render_log",
    "render_state",
    "state_json",
    "step_name",
]
