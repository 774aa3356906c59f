"""Copies of spells (CR 707.10) and choosing new targets for a spell (CR 115.7).

"Copy that spell" (Wild Ricochet) is :func:`copy_spell`: a copy of the spell goes on
the stack (event :class:`SpellCopied`) with the spell's card, modes, X, targets and
alternative cost.  It is controlled (and owned) by the player who copied it, and it
is not cast ("whenever you cast" abilities don't trigger).  The copy is a token
object: a copy of a permanent spell becomes a token permanent as it resolves; a copy
of an instant or sorcery leaves the stack as a card would and then ceases to exist
(a state-based action, CR 707.10a).

"You may choose new targets for [a spell]" is :func:`choose_new_targets`: a ``may``
decision, then the ``targets`` decision among the legal choices, seen from the
spell's controller (a target left unchanged is simply chosen again); a change is
recorded as :class:`TargetsChanged`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from mtgk.cards.rendering import register_renderer
from mtgk.log.events import Event, event
from mtgk.rules.state import Obj, StackItem, State, register_projector, stack_item

if TYPE_CHECKING:
    from mtgk.render import Renderer
    from mtgk.rules.engine import Game


@event
class SpellCopied(Event, frozen=True):
    """A copy ``item`` of spell ``of`` was put on the stack under ``controller``'s control."""

    TAG: ClassVar[str] = "SpellCopied"
    STACK_ITEM: ClassVar[str] = "item"  # it puts ``item`` on the stack (the engine looks)
    item: int
    of: int
    controller: int
    card: str
    source_card: str
    targets: tuple[int, ...] = ()
    modes: tuple[int, ...] = ()
    x: int = 0
    data: Any = None
    face: str = ""


@event
class TargetsChanged(Event, frozen=True):
    """The spell or ability ``item`` on the stack has new targets."""

    TAG: ClassVar[str] = "TargetsChanged"
    item: int
    targets: tuple[int, ...]


def _copied(s: State, e: SpellCopied) -> None:
    s.timestamp += 1
    flags: dict[str, Any] = {"copy_of": e.of}
    if e.face:
        flags["face"] = e.face
    s.objects[e.item] = Obj(id=e.item, card_id=e.item, card=e.card, owner=e.controller,
                            controller=e.controller, zone="stack", token=True, flags=flags,
                            timestamp=s.timestamp)
    s.next_id = max(s.next_id, e.item + 1)
    s.stack.append(StackItem(id=e.item, kind="spell", source=e.item, ability="spell",
                             controller=e.controller, targets=list(e.targets),
                             modes=list(e.modes), x=e.x, data=e.data,
                             source_card=e.source_card))


def _retargeted(s: State, e: TargetsChanged) -> None:
    for it in s.stack:
        if it.id == e.item:
            it.targets = list(e.targets)


register_projector(SpellCopied, _copied)
register_projector(TargetsChanged, _retargeted)


def _render_copied(r: Renderer, e: SpellCopied) -> str:
    aim = f" targeting {r.refs(e.targets)}" if e.targets else ""
    return f"{r.player(e.controller)} copies {e.source_card or e.card}{aim}"


def _render_retargeted(r: Renderer, e: TargetsChanged) -> str:
    return f"{r.ref(e.item)} now targets {r.refs(e.targets)}"


register_renderer(SpellCopied.TAG, _render_copied)
register_renderer(TargetsChanged.TAG, _render_retargeted)


def choose_new_targets(game: Game, chooser: int, item: int | None) -> None:
    """"[chooser] may choose new targets for [item]" (a spell or ability on the stack)."""
    from mtgk.rules.engine import Decision

    it = stack_item(game.state, item)
    if it is None or not it.targets:
        return
    slots = game.target_slots_of(it)
    combos = game.target_combos(it.controller, it.id, slots, it.x)
    if not combos or combos == [list(it.targets)]:
        return  # no other legal choice
    name = it.source_card
    if not game.choose(chooser, "may", [False, True], f"choose new targets for {name}?",
                       context={"answer": "new_targets"}):  # (a scenario's new_targets answer)
        return
    new = game.ask(Decision("targets", chooser, combos, f"new targets for {name}",
                            check=lambda ch: game.targets_answer(it.controller, it.id, slots,
                                                                  ch, it.x),
                            context=it.id))
    if list(new) != list(it.targets):
        game.emit(TargetsChanged(item=it.id, targets=tuple(new)))


def copy_spell(game: Game, controller: int, item: int | None) -> int | None:
    """Put a copy of spell ``item`` on the stack under ``controller``'s control; returns the
    copy's id (``None`` if ``item`` is not a spell on the stack)."""
    it = stack_item(game.state, item)
    if it is None or it.kind != "spell" or it.id not in game.state.objects:
        return None
    o = game.state.objects[it.id]
    new = game.new_id()
    game.emit(SpellCopied(item=new, of=it.id, controller=controller, card=o.card,
                          source_card=it.source_card, targets=tuple(it.targets),
                          modes=tuple(it.modes), x=it.x, data=it.data,
                          face=str(o.flags.get("face", ""))))
    return new
