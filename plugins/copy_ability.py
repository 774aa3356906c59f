"""Copying an activated ability on the stack (CR 707.10): Rings of Brighthearth.

The copy is a new stack item controlled by the copying player, with the same source,
ability, targets and X; it was not activated, so nothing that triggers on activation
sees it, and no cost is paid.  It is recorded as :class:`AbilityCopied` and resolves
like the original (or not at all, if all its targets are illegal by then).  "You may
choose new targets for the copy" is :func:`mtgk.plugins.copy_spell.choose_new_targets` (a
``may`` decision, then ``targets``).  The original need not still be on the stack:
the copy is made from what was activated (the ``AbilityActivated`` event).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from mtgk.log.events import Event, event
from mtgk.plugins.copy_spell import choose_new_targets
from mtgk.rules.state import StackItem, State, register_projector

if TYPE_CHECKING:
    from mtgk.rules.engine import Game


@event
class AbilityCopied(Event, frozen=True):
    """A copy ``item`` of an activated ability of ``source`` was put on the stack."""

    TAG: ClassVar[str] = "AbilityCopied"
    STACK_ITEM: ClassVar[str] = "item"  # it puts ``item`` on the stack (the engine looks)
    item: int
    source: int
    ability: str
    controller: int
    targets: tuple[int, ...] = ()
    x: int = 0
    of: int = 0  # the stack item copied


def _copied(s: State, e: AbilityCopied) -> None:
    src = s.objects.get(e.source)
    s.stack.append(StackItem(id=e.item, kind="activated", source=e.source, ability=e.ability,
                             controller=e.controller, targets=list(e.targets), x=e.x,
                             source_card=src.card if src else ""))
    s.next_id = max(s.next_id, e.item + 1)


register_projector(AbilityCopied, _copied)


def copy_activated(game: Game, controller: int, original: Any, new_targets: bool = True
                   ) -> int:
    """Copy the activated ability ``original`` (an ``AbilityActivated`` event: ``item``,
    ``source``, ``ability``, ``targets``, ``x``) under ``controller``'s control; returns
    the copy's id.  ``new_targets``: "You may choose new targets for the copy"."""
    new = game.new_id()
    game.emit(AbilityCopied(item=new, source=original.source, ability=original.ability,
                            controller=controller, targets=tuple(original.targets),
                            x=original.x, of=original.item))
    if new_targets:
        choose_new_targets(game, controller, new)
    return new
