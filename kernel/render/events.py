"""The words of events: :class:`Renderer` renders a log one event after the other,
folding them into a state of its own (see :mod:`mtgk.render`), and
:func:`render_event` / :func:`render_log` are its short forms."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from mtgk.cards.definitions import Registry
from mtgk.cards.rendering import RENDERERS
from mtgk.log import events as ev
from mtgk.log.answers import Action
from mtgk.log.events import Envelope, ref_player
from mtgk.rules.seats import defending_players, team_of
from mtgk.rules.state import Obj, StackItem, State, apply, copy_state, new_state
from mtgk.rules.visibility import (
    PLAIN_CHOICE_KINDS,
    PLAYER_FIELDS,
    PUBLIC_FLAGS,
    Perspective,
    map_choice,
)

if TYPE_CHECKING:
    pass
from mtgk.render.words import HIDDEN, UNKNOWN_PLAYER, clean, numbered_name, plain_repr, step_name

__all__ = ["FOLD_NOTE", "SBA_REASONS", "Renderer", "event_name", "fold_note", "render_event",
           "render_log"]

_PUBLIC_ZONES = ("battlefield", "graveyard", "stack", "exile")
_REASONS = {
    "life": "no life left",
    "empty-library": "drew from an empty library",
}


_REF_FIELDS = frozenset({"obj", "new_obj", "source", "target", "item", "to", "attached_to"})


def _zone_visible(zone: str, owner: int, viewer: int | None, face_down: bool = False) -> bool:
    if viewer is None:
        return True
    if face_down:
        return False
    if zone in _PUBLIC_ZONES or zone == "none":
        return True
    if zone == "hand":
        return owner == viewer
    return False


def _mana(m: str) -> str:
    return "".join(f"{{{c}}}" for c in m) if m else "nothing"


def _ability_label(ab: Any, index: int) -> str:
    """``"+1"``, ``"{3}{R}, {T} ability"``, ``"etb ability"`` ... for one ability."""
    from mtgk.cards.definitions import Activated, Static, Triggered

    text = getattr(ab, "text", "")
    if isinstance(ab, Activated):
        if text:
            return text if ab.cost.loyalty is not None or ab.cost.loyalty_x else \
                f"{text} ability"
        c = ab.cost
        parts = [c.mana] if c.mana else []
        if c.tap:
            parts.append("{T}")
        if c.untap:
            parts.append("{Q}")
        if c.life:
            parts.append(f"pay {c.life} life")
        if c.sacrifice_self:
            parts.append("sacrifice it")
        if c.loyalty is not None:
            return f"{c.loyalty:+d}" if c.loyalty else "0"
        if c.loyalty_x:
            return "-X"
        return f"{', '.join(parts)} ability" if parts else f"ability {index}"
    if isinstance(ab, Triggered):
        return f"{text} ability" if text else "triggered ability"
    if isinstance(ab, Static):
        return "static ability"
    return text or f"ability {index}"


_PUBLIC_CHOICES = frozenset({"discard", "reveal"})
"""Decision kinds whose chosen cards become public (discarded, revealed)."""

SBA_REASONS = {
    "sba:role": "newer Role from the same player",
    "sba:lethal-damage": "state-based action: lethal damage",
    "sba:toughness": "state-based action: 0 toughness",
    "sba:loyalty": "state-based action: 0 loyalty",
    "sba:planeswalker-uniqueness": "planeswalker uniqueness rule",
    "sba:legend-rule": "legend rule",
    "sba:aura": "state-based action: Aura not legally attached",
}
"""How state-based moves to the graveyard read in the log."""


class Renderer:
    """Renders envelopes one after the other (see the module docs).

    ``registry`` (optional) lets abilities be described by their text;
    ``as_player`` masks hidden information for that player; ``state`` starts
    from a given state instead of an empty one (it is not copied: the
    renderer folds events into it as it renders them).
    """

    def __init__(self, registry: Registry | None = None, as_player: int | None = None,
                 state: State | None = None, numbered: bool = False) -> None:
        self.registry = registry
        self.viewer = as_player
        #: name each card it shows with its card's number (``Forest #12``,
        #: :func:`numbered_name`), telling identical cards apart (the terminal game)
        self.numbered = numbered
        self.state = state if state is not None else new_state()
        self.seen = Perspective(as_player)
        self.names: dict[int, str] = {}
        self.fold_errors: list[tuple[int, str]] = []
        for oid, o in self.state.objects.items():
            if self.sees(o):
                self.names[oid] = self._shown_name(o)
        self._dispatch = {cls: getattr(self, "_" + cls.TAG, None)
                          for cls in ev.EVENT_TYPES.values()}

    # ------------------------------------------------------------------ names
    def sees(self, o: Obj) -> bool:
        """Whether the viewer may know which card ``o`` is (see :mod:`mtgk.rules.visibility`)."""
        return self.seen.sees(o)

    def card_name(self, key: str) -> str:
        """The name objects of card ``key`` have (a token's printed name: two tokens keyed
        apart may share one, :meth:`~mtgk.cards.definitions.Registry.token_name`); without a
        registry, the key."""
        return self.registry.token_name(key) if self.registry is not None and key else key

    def player(self, p: int) -> str:
        """A player's name."""
        players = self.state.players
        if not isinstance(p, int) or isinstance(p, bool):
            return f"player {plain_repr(p)}"
        return players[p].name if 0 <= p < len(players) else f"player {p}"

    def obj(self, oid: int) -> str:
        """An object's name, or :data:`HIDDEN` if the viewer may not see it."""
        o = self.state.objects.get(oid)
        if o is not None:
            if self.sees(o):
                name = self.names[oid] = self._shown_name(o)
                return name + (" (face down)" if o.face_down else "")
            return "a face-down card" if o.face_down else HIDDEN
        for it in self.state.stack + self.state.pending:
            if it.id == oid:
                return self.item(it)
        return self._gone(oid)

    def _gone(self, oid: int) -> str:
        """The name of an object no longer in the state, as the viewer saw it last."""
        name = self.names.get(oid)
        if name is not None:
            return name
        return f"#{oid}" if self.viewer is None else HIDDEN

    def public_name(self, oid: int) -> str:
        """The name of ``oid`` when what happens makes it public whatever the viewer saw
        before (a land played, a spell cast, an ability activated from a hidden zone is
        revealed, CR 602.2a; a card discarded)."""
        o = self.state.objects.get(oid)
        if o is None:
            return self.obj(oid)
        if o.face_down and not self.sees(o):
            return "a face-down card"
        return self._shown_name(o)

    def _shown_name(self, o: Obj) -> str:
        name = self.card_name(o.card)
        return numbered_name(name, o) if self.numbered else name

    def ref(self, r: int) -> str:
        """A player or object reference."""
        p = ref_player(r)
        return self.player(p) if p is not None else self.obj(r)

    def refs(self, rs: Iterable[int]) -> str:
        return ", ".join(self.ref(r) for r in rs)

    def ability_text(self, key: str) -> str:
        """A short description of ability ``"Card#i"``: its text if the card says one."""
        name, _, idx = key.rpartition("#")
        if self.registry is not None and idx.isdigit() and name in self.registry:
            abilities = self.registry[name].abilities
            i = int(idx)
            if i < len(abilities):
                return _ability_label(abilities[i], i)
        return f"ability {idx}" if idx.isdigit() else key

    def _copied_card(self, oid: int) -> str:
        """The card whose abilities object ``oid`` has: the card named by the latest copy
        effect on it (CR 707.2, layer 1: Shapesharer as Galepowder Mage), else its own."""
        o = self.state.objects[oid]
        copies = [e for e in self.state.effects if e.kind == "copy" and oid in e.objs
                  and isinstance(e.params, str)]
        if copies:
            return str(max(copies, key=lambda e: e.timestamp).params)
        return o.card

    def item(self, it: StackItem) -> str:
        """A stack item's name: the spell, or ``"<card>'s ability"``."""
        if it.kind == "spell":
            return self.card_name(it.source_card) or self._gone(it.id)
        o = self.state.objects.get(it.source)
        if o is not None and not self.sees(o):
            return f"{self.obj(it.source)}'s ability"
        src = self.card_name(it.source_card) or self._gone(it.source)
        return f"{src}'s {self.ability_text(it.ability)}"

    def _find_item(self, item: int) -> str:
        for it in self.state.stack + self.state.pending:
            if it.id == item:
                return self.item(it)
        return self._gone(item)

    def targeting(self, targets: Sequence[int]) -> str:
        """`` targeting X, Y`` (``""`` for no targets)."""
        return f" targeting {self.refs(targets)}" if targets else ""

    # ------------------------------------------------------------------ events
    def describe(self, env: Envelope) -> str:
        """The text of ``env`` (without its number), as of the current state; no folding.

        Control characters in it (from names in the log) are escaped (:func:`clean`).
        """
        try:
            return clean(self._describe(env.event))
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            # a log whose content makes no sense here (the fold says so too)
            return clean(f"{event_name(env.event)} (its fields make no sense in this game: "
                         f"{type(exc).__name__})")

    def _describe(self, e: ev.Event) -> str:
        custom = RENDERERS.get(e.TAG)
        if custom is not None:
            return str(custom(self, e))
        fn = self._dispatch.get(type(e))
        if fn is None:
            fn = getattr(self, "_" + e.TAG, None) if e.TAG else None
        if fn is not None:
            return str(fn(e))
        from mtgk.log.logfile import UnknownEvent
        if isinstance(e, UnknownEvent):
            return f"unknown event {e.tag} (version {e.version}): this kernel cannot read it"
        return self.generic(e)

    def generic(self, e: ev.Event) -> str:
        """``Tag(field=value, ...)``, naming players and objects in the usual fields.

        For a viewer, fields are first masked as in JSON (see
        :meth:`mtgk.rules.visibility.Perspective.mask_event`): a private field the viewer
        may not see reads ``hidden``, an object they can't follow ``0``.
        """
        parts = []
        shown = self._masked_fields(e)
        for f in e.__struct_fields__:
            v = getattr(e, f)
            if f in e.PRIVATE and self.viewer is not None and shown[f] in (None, []):
                parts.append(f"{f}=hidden")
                continue
            if isinstance(v, int) and not isinstance(v, bool):
                if f in PLAYER_FIELDS:
                    parts.append(f"{f}={self.player(v)}")
                    continue
                if f in _REF_FIELDS and v:
                    parts.append(f"{f}={self.ref(v)}")
                    continue
            parts.append(f"{f}={shown[f]!r}")
        return f"{e.TAG}({', '.join(parts)})"

    def _masked_fields(self, e: ev.Event) -> dict[str, Any]:
        """The fields of ``e`` (not folded yet) as the viewer may see them."""
        if self.viewer is None:
            return {f: getattr(e, f) for f in e.__struct_fields__}
        after = copy_state(self.state)
        probe = Perspective(self.viewer)
        probe.revealed = {k: set(v) for k, v in self.seen.revealed.items()}
        probe.gone = dict(self.seen.gone)
        probe.before(e, self.state)
        try:
            apply(after, e)
        except (KeyError, IndexError, ValueError, AttributeError, TypeError):
            pass
        probe.after(e, after)
        return probe.mask_event(e, after)

    def masked(self, x: Any) -> Any:
        """Free-form data (a flag's value, a trigger's data) with the ids of objects the
        viewer can't follow made 0, as of the current state."""
        return self.seen.mask_value(x, self.state)

    def render(self, env: Envelope) -> str:
        """``"<seq> <text>"`` for ``env``; then fold it into the renderer's state."""
        line = f"{env.seq} {self.describe(env)}"
        self.advance(env)
        return line

    def advance(self, env: Envelope) -> None:
        """Fold ``env`` without rendering it (remembering the names it shows).

        An event that cannot be folded (a log with events this kernel does not
        know may refer to objects it never saw created) is skipped and noted
        in :attr:`fold_errors`, so that the rest of the log still reads.
        """
        e = env.event
        self.seen.before(e, self.state)
        if self.viewer is not None and isinstance(e, ev.DecisionMade):
            for oid in self.named_by(e):
                o = self.state.objects.get(oid)
                if o is not None and not (o.face_down and not self.sees(o)):
                    self.seen.names.add(o.card)
        problem = _unfoldable(e, self.state)
        if problem:
            self.fold_errors.append((env.seq, problem))
            self.seen.after(e, self.state)
            return
        try:
            apply(self.state, e)
        except (KeyError, IndexError, ValueError, AttributeError, TypeError) as exc:
            # for a viewer, not the detail: it may be the id of an object they can't follow
            what = f"{e.TAG or 'an event'} names what is not in the game"
            why = f"{what} ({type(exc).__name__}: {exc})" if self.viewer is None else \
                f"{what} ({type(exc).__name__})"
            self.fold_errors.append((env.seq, why))
            return
        finally:
            self.seen.after(e, self.state)
        for oid in _new_ids(e):
            o = self.state.objects.get(oid)
            if o is not None and self.sees(o):
                self.names[oid] = self.card_name(o.card)

    # one method per event tag --------------------------------------------------
    def _GameStarted(self, e: ev.GameStarted) -> str:
        # the seed determines every shuffle: a player's view must not show it
        seed = f"seed {e.seed}, " if self.viewer is None else ""
        return f"Game started: {' vs '.join(e.players)} ({seed}rules {e.profile})"

    def _GameVariant(self, e: ev.GameVariant) -> str:
        if e.teams:
            teams = " vs ".join(" & ".join(self.player(p) for p in t) for t in e.teams)
            return f"Two-Headed Giant: {teams} (each team shares its life total)"
        return f"Free-for-all: {len(self.state.players)} players"

    def _ObjectCreated(self, e: ev.ObjectCreated) -> str:
        seen = _zone_visible(e.zone, e.owner, self.viewer, e.face_down)
        name = self.card_name(e.card) if seen else HIDDEN
        if seen and self.numbered:
            name += f" #{e.obj}"  # (a new card's number is its first id)
        extra = []
        if e.token:
            extra.append("token")
        if e.tapped:
            extra.append("tapped")
        if e.face_down:
            extra.append("face down")
        note = f" ({', '.join(extra)})" if extra else ""
        if e.zone == "battlefield":
            ctrl = e.owner if e.controller < 0 else e.controller
            return f"{name}{note} is put onto the battlefield under {self.player(ctrl)}'s control"
        if e.zone in ("library", "hand", "graveyard"):
            return f"{name}{note} is put into {self.player(e.owner)}'s {e.zone}"
        return f"{name}{note} is put into {e.zone} ({self.player(e.owner)}'s)"

    def _LibraryShuffled(self, e: ev.LibraryShuffled) -> str:
        who = self.player(e.player)
        n = len(e.order)
        if self.viewer is not None or not e.order:
            return f"{who}'s library is shuffled ({n} cards, order hidden)"
        top = ", ".join(self.obj(o) for o in e.order[:3])
        more = ", …" if n > 3 else ""
        return f"{who}'s library is shuffled ({n} cards; top: {top}{more})"

    def _TurnBegan(self, e: ev.TurnBegan) -> str:
        if self.state.teams:  # Two-Headed Giant: the team's turn
            team = " & ".join(self.player(p) for p in team_of(self.state, e.active))
            return f"Turn {e.turn} ({team})"
        return f"Turn {e.turn} ({self.player(e.active)})"

    def _StepBegan(self, e: ev.StepBegan) -> str:
        return f"— {step_name(e.step)} —"

    def _DecisionMade(self, e: ev.DecisionMade) -> str:
        if e.kind == "first_player" and isinstance(e.choice, int):
            return f"{self.player(e.choice)} plays first"
        who = self.player(e.player) if e.player >= 0 else "game"
        return f"{who}: {e.kind} → {self.choice(e.kind, e.choice, e.player)}"

    def choice(self, kind: str, c: Any, player: int | None = None) -> str:
        """A decision's answer in words (objects named, hidden ones masked).

        The objects a player chooses among are known to them (they look at the cards
        they search, scry or hide away); so a choice by the viewer names them.  Cards
        played, cast, discarded or revealed by the decision are public.
        """
        try:
            return self._choice(kind, c, self.viewer is None or player == self.viewer)
        except (TypeError, ValueError, IndexError, KeyError):
            return plain_repr(self.masked(c))

    def _choice(self, kind: str, c: Any, mine: bool) -> str:
        if kind == "priority" and isinstance(c, list | Action) and c:
            return self.action(c)
        if kind == "mulligan":
            return "keep" if c else "mulligan"
        if kind == "may":
            return "yes" if c else "no"
        if kind == "attackers":
            return ", ".join(f"{self.obj(a)} → {self.ref(t)}" for a, t in c) or "no attack"
        if kind == "blockers":
            return ", ".join(f"{self.obj(b)} blocks {self.obj(a)}" for b, a in c) or "no blocks"
        if kind == "assign":
            return ", ".join(f"{n} to {self.ref(r)}" for r, n in c)
        if kind == "redirect":
            return f"to {self.ref(c)}" if c else "no"
        if kind == "order":
            return ", then ".join(self._find_item(i) for i in c)
        if kind in PLAIN_CHOICE_KINDS:
            return plain_repr(c)
        return self._named(c, mine or kind in _PUBLIC_CHOICES)

    def _named(self, x: Any, public: bool) -> str:
        """A free-form answer in words: objects named (when ``public``, even the ones
        the viewer can't see by where they are), players named, other values as they
        are."""
        if isinstance(x, bool):
            return "yes" if x else "no"
        if isinstance(x, int):
            if x < 0:
                return self.ref(x)
            if x == 0:
                return "none"
            if not self._is_object(x):
                return str(x)
            return self.public_name(x) if public else self.obj(x)
        if isinstance(x, str):
            return x
        if isinstance(x, list | tuple):
            return ", ".join(self._named(i, public) for i in x) if x else "none"
        return plain_repr(self.masked(x))

    def named_by(self, e: ev.Event) -> set[int]:
        """The objects decision ``e`` names to the viewer whatever they saw before (see
        :meth:`choice`): the card played, cast or activated, cards discarded or
        revealed, and every card of the viewer's own choices."""
        if not isinstance(e, ev.DecisionMade):
            return set()
        c = e.choice
        out: set[int] = set()
        if e.kind == "priority" and isinstance(c, list | Action) and len(c) > 1 and c[0] in (
                "play", "cast", "activate") and isinstance(c[1], int):
            out.add(c[1])
        if e.kind in _PUBLIC_CHOICES or (self.viewer is not None and e.player == self.viewer):
            def note(oid: int) -> int:
                out.add(oid)
                return oid
            map_choice(e.kind, c, note)
        return out

    def _is_object(self, oid: int) -> bool:
        s = self.state
        return oid in s.objects or oid in self.names or oid in self.seen.gone or any(
            it.id == oid for it in s.stack + s.pending)

    def action(self, a: list[Any] | Action) -> str:
        """A priority action (``["cast", obj, targets, modes, x, alt]`` ...) in words.

        Playing a land, casting a spell and activating an ability are public: the card
        is named even when it comes from a hidden zone (CR 305.1, 601.2a, 602.2a)."""
        if not isinstance(a, list):
            return self.action(msgspec.to_builtins(a))  # (the list it encodes to)
        kind = a[0]
        if kind == "pass":
            return "pass"
        if kind == "play":
            return f"play {self.public_name(a[1])}"
        if kind == "cast":
            oid, targets, modes, x, alt = (list(a) + [[], [], 0, ""])[1:6]
            text = f"cast {self.public_name(oid)}{self.targeting(targets)}"
            if modes:
                text += f" (modes {', '.join(map(str, modes))})"
            if x:
                text += f" with X={x}"
            if alt:
                text += f" for its {alt} cost"
            return text
        if kind == "activate":
            oid, idx, targets, x = (list(a) + [[], 0])[1:5]
            o = self.state.objects.get(oid)
            label = f"ability {idx}"
            if isinstance(idx, int) and idx < 0:  # (a land type's, Game.intrinsic_mana)
                label = "{T} mana ability"
            card = self._copied_card(oid) if o is not None else ""
            if o is not None and self.registry is not None and card in self.registry \
                    and not (o.face_down and not self.sees(o)):
                acts = self.registry[card].activated  # (a copy's: the copied card's)
                if 1 <= idx <= len(acts):
                    label = self.ability_text(acts[idx - 1][0])
            text = f"activate {self.public_name(oid)}: {label}{self.targeting(targets)}"
            return text + (f" with X={x}" if x else "")
        return plain_repr(self.masked(a))

    def _ZoneChanged(self, e: ev.ZoneChanged) -> str:
        o = self.state.objects.get(e.obj)
        # an object not in the state (a record read after damage, naming an object made in
        # what was lost): its owner is unknown, and no one's is guessed
        owner = o.owner if o is not None else -1
        seen = (o is not None and self.sees(o)) or _zone_visible(e.to_zone, owner, self.viewer)
        name = (self._shown_name(o) if o is not None else self._gone(e.obj)) if seen else HIDDEN
        who = self.player(owner) if o is not None else UNKNOWN_PLAYER
        if e.reason == "left-game":  # (CR 800.4a; from a library or hand: unseen)
            return f"{name} leaves the game with {who}"
        if e.to_zone == "none":
            return f"{name} ceases to exist"
        if e.reason == "draw" and e.to_zone == "hand":
            return f"{who} draws {name}"
        if e.reason == "discard":
            return f"{who} discards {name}"
        if e.to_zone == "battlefield":
            ctrl = owner if e.controller < 0 else e.controller
            under = self.player(ctrl) if ctrl >= 0 else UNKNOWN_PLAYER
            return f"{name} enters the battlefield under {under}'s control"
        where = {"library": "top of" if e.position == 0 else "bottom of"}.get(e.to_zone, "")
        dest = f"{who}'s {e.to_zone}"
        if where:
            dest = f"the {where} {dest}"
        why = f" ({SBA_REASONS.get(e.reason, e.reason)})" if e.reason else ""
        if e.from_zone == "battlefield" and e.to_zone == "graveyard":
            if e.reason.startswith("sba:"):
                return f"{name} put into {dest}{why}"
            return f"{name} is put into {dest} from the battlefield{why}"
        return f"{name} moves from {e.from_zone} to {dest}{why}"

    def _RemovedFromGame(self, e: ev.RemovedFromGame) -> str:
        o = self.state.objects.get(e.obj)
        seen = self.viewer is None or not e.face_down or (o is not None and self.sees(o))
        if o is not None:
            name = self._shown_name(o) if seen else (
                "a face-down card" if e.face_down else HIDDEN)
        else:
            name = self._gone(e.obj) if seen else HIDDEN
        text = f"{name} is exiled from {e.from_zone}" + (" face down" if e.face_down else "")
        if e.exiled_with:
            text += f" with {self.obj(e.exiled_with)}"
        return text + (f" ({e.reason})" if e.reason else "")

    def _TokenCreated(self, e: ev.TokenCreated) -> str:
        if e.attached_to and e.card.endswith(" Role"):
            # "Splashy Spellcaster: Sorcerer Role created attached to Grizzly Bears"
            top = self.card_name(self.state.stack[-1].source_card) if self.state.stack else ""
            by = f"{top}: " if top else f"{self.player(e.controller)}: "
            return f"{by}{self.card_name(e.card)} created attached to {self.obj(e.attached_to)}"
        text = f"{self.player(e.controller)} creates a {self.card_name(e.card)} token"
        if e.tapped:
            text += " (tapped)"
        if e.attached_to:
            text += f" attached to {self.obj(e.attached_to)}"
        return text

    def _controller_of(self, oid: int) -> str:
        o = self.state.objects.get(oid)
        return self.player(o.controller) if o is not None else "?"

    def _Tapped(self, e: ev.Tapped) -> str:
        if e.entering:
            return f"{self.obj(e.obj)} enters tapped"
        return f"{self._controller_of(e.obj)} taps {self.obj(e.obj)}"

    def _Untapped(self, e: ev.Untapped) -> str:
        return f"{self._controller_of(e.obj)} untaps {self.obj(e.obj)}"

    def _counters(self, oid: int, kind: str, delta: int) -> str:
        o = self.state.objects.get(oid)
        before = o.counters.get(kind, 0) if o is not None else 0
        after = max(0, before + delta)
        label = kind if kind == "loyalty" else f"{kind} counters"
        return f"{self.obj(oid)}: {label} {before} → {after}"

    def _CounterPlaced(self, e: ev.CounterPlaced) -> str:
        return self._counters(e.obj, e.kind, e.n)

    def _CounterRemoved(self, e: ev.CounterRemoved) -> str:
        return self._counters(e.obj, e.kind, -e.n)

    def _Attached(self, e: ev.Attached) -> str:
        if not e.to:
            return f"{self.obj(e.obj)} becomes unattached"
        return f"{self.obj(e.obj)} is attached to {self.obj(e.to)}"

    def _ControlChanged(self, e: ev.ControlChanged) -> str:
        return f"{self.player(e.controller)} gains control of {self.obj(e.obj)}"

    def _ObjectFlagged(self, e: ev.ObjectFlagged) -> str:
        if e.key == "known_to" and isinstance(e.value, list | tuple | None):
            who = ", ".join(self.player(p) for p in (e.value or [])) or "nobody"
            return f"{self.obj(e.obj)} is now known to {who}"
        if e.value is None:
            return f"{self.obj(e.obj)}: {e.key} cleared"
        o = self.state.objects.get(e.obj)
        if self.viewer is not None and e.key not in PUBLIC_FLAGS and (
                o is None or not self.sees(o)):
            return f"{self.obj(e.obj)}: {e.key} set"
        if e.key in ("exiled_with", "known_to_controllers_of") and isinstance(e.value, int):
            return f"{self.obj(e.obj)}: {e.key} = {self.obj(e.value)}"
        return f"{self.obj(e.obj)}: {e.key} = {plain_repr(self.masked(e.value))}"

    def _LandPlayed(self, e: ev.LandPlayed) -> str:
        name = self.public_name(e.obj)
        return f"{self.player(e.player)} plays {name}"

    def _Revealed(self, e: ev.Revealed) -> str:
        sees = self.viewer is None or not e.to or self.viewer in e.to
        names = []
        for oid in e.objs:
            o = self.state.objects.get(oid)
            if sees and o is not None:
                names.append(self._shown_name(o))
            else:
                names.append(self.obj(oid))
        to = f" to {', '.join(self.player(p) for p in e.to)}" if e.to else ""
        return f"{self.player(e.player)} reveals {', '.join(names) or 'nothing'}{to}"

    def _SpellCast(self, e: ev.SpellCast) -> str:
        name = self.public_name(e.obj)
        text = f"{self.player(e.controller)} casts {name}{self.targeting(e.targets)}"
        if e.modes:
            text += f" (modes {', '.join(map(str, e.modes))})"
        if e.x:
            text += f" with X={e.x}"
        if e.alt:
            text += f" for its {e.alt} cost"
        face = getattr(e, "face", "")
        if face:
            text += f" as {face}"
        if e.from_zone != "hand":
            text += f" from {e.from_zone}"
        return text

    def _AbilityActivated(self, e: ev.AbilityActivated) -> str:
        o = self.state.objects.get(e.source)
        hidden = o is not None and o.face_down and not self.sees(o)
        return (f"{self.player(e.controller)} activates {self.public_name(e.source)}: "
                f"{'ability' if hidden else self.ability_text(e.ability)}"
                f"{self.targeting(e.targets)}" + (f" with X={e.x}" if e.x else ""))

    def _AbilityTriggered(self, e: ev.AbilityTriggered) -> str:
        o = self.state.objects.get(e.source)
        if o is not None and not self.sees(o):  # its words would say which card it is
            return f"{self.obj(e.source)}'s ability triggers"
        return f"{self.obj(e.source)}'s {self.ability_text(e.ability)} triggers"

    def _TriggerPutOnStack(self, e: ev.TriggerPutOnStack) -> str:
        text = f"{self._find_item(e.item)} goes on the stack{self.targeting(e.targets)}"
        if e.modes:
            text += f" (modes {', '.join(map(str, e.modes))})"
        return text

    def _StackItemResolved(self, e: ev.StackItemResolved) -> str:
        name = self._find_item(e.item)
        if e.fizzled:
            return f"{name} does nothing: it is removed as it tries to resolve"
        return f"{name} resolves"

    def _StackItemCountered(self, e: ev.StackItemCountered) -> str:
        return f"{self._find_item(e.item)} is countered"

    def _ManaAdded(self, e: ev.ManaAdded) -> str:
        return f"{self.player(e.player)} adds {_mana(e.mana)}"

    def _ManaSpent(self, e: ev.ManaSpent) -> str:
        return f"{self.player(e.player)} spends {_mana(e.mana)}"

    def _ManaEmptied(self, e: ev.ManaEmptied) -> str:
        left = self.state.players[e.player].mana if e.player < len(self.state.players) else []
        lost = f" ({_mana(''.join(left))} lost)" if left else ""
        return f"{self.player(e.player)}'s mana pool empties{lost}"

    def _life(self, p: int, delta: int) -> str:
        if not 0 <= p < len(self.state.players):
            return ""
        life = self.state.players[p].life
        return f" (life {life} → {life + delta})"

    def _LifeGained(self, e: ev.LifeGained) -> str:
        return f"{self.player(e.player)} gains {e.n} life{self._life(e.player, e.n)}"

    def _LifeLost(self, e: ev.LifeLost) -> str:
        return f"{self.player(e.player)} loses {e.n} life{self._life(e.player, -e.n)}"

    def _DamageDealt(self, e: ev.DamageDealt) -> str:
        kind = "combat damage" if e.combat else "damage"
        text = f"{self.obj(e.source)} deals {e.amount} {kind} to {self.ref(e.target)}"
        p = ref_player(e.target)
        if p is not None:
            text += self._life(p, -e.amount)
        return text + (" (deathtouch)" if e.deathtouch else "")

    def _DamageRedirected(self, e: ev.DamageRedirected) -> str:
        return (f"{self.obj(e.source)}: {e.amount} damage redirected from "
                f"{self.player(e.from_player)} to {self.obj(e.to)}")

    def _DamageRemoved(self, e: ev.DamageRemoved) -> str:
        return "damage wears off"

    def _DamageMarked(self, e: ev.DamageMarked) -> str:
        return f"{self.obj(e.obj)} has {e.amount} damage marked (set up)"

    def _AttackersDeclared(self, e: ev.AttackersDeclared) -> str:
        """Who attacks with what: each attacker under its controller's name (in Two-Headed
        Giant a team attacks, each teammate with their own creatures: "Bob attacks: ...;
        Dave attacks: ...")."""
        active = self.state.active
        by: dict[int, list[str]] = {}
        for a, t in e.attacks:
            o = self.state.objects.get(a)
            who = o.controller if o is not None and o.controller >= 0 else active
            by.setdefault(who, []).append(f"{self.obj(a)} → {self.ref(t)}")
        if not by:
            return f"{self.player(active)} declares no attackers"
        order = sorted(by, key=lambda p: (p != active, p))  # the active player first
        return "; ".join(f"{self.player(p)} attacks: {', '.join(by[p])}" for p in order)

    def _BlockersDeclared(self, e: ev.BlockersDeclared) -> str:
        d = defending_players(self.state)
        who = " & ".join(self.player(p) for p in d) if d else "defender"
        pairs = ", ".join(f"{self.obj(b)} blocks {self.obj(a)}" for b, a in e.blocks)
        declares = "declare" if len(d) > 1 else "declares"
        return f"{who}: {pairs}" if pairs else f"{who} {declares} no blockers"

    def _RemovedFromCombat(self, e: ev.RemovedFromCombat) -> str:
        return f"{self.obj(e.obj)} is removed from combat"

    def _CombatEnded(self, e: ev.CombatEnded) -> str:
        return "combat ends"

    def _FirstStrikers(self, e: ev.FirstStrikers) -> str:
        verb = "deals" if len(e.objs) == 1 else "deal"
        return f"first strike: {self.refs(e.objs)} {verb} combat damage first"

    def effect_text(self, kind: str, params: Any) -> str:
        """A continuous effect's kind and parameters in words."""
        try:
            if kind == "pt":
                return f"{int(params[0]):+d}/{int(params[1]):+d}"
            if kind == "set_pt":
                return f"base power and toughness {params[0]}/{params[1]}"
            if kind == "grant":
                return "gains " + ", ".join(params)
            if kind == "lose":
                return "loses " + ", ".join(params)
            if kind == "control":
                return f"controlled by {self.player(int(params))}"
        except (TypeError, ValueError, IndexError):
            pass
        if params is None:
            return kind
        return f"{kind} {plain_repr(self.seen.mask_params(params, self.state))}"

    def _EffectCreated(self, e: ev.EffectCreated) -> str:
        on = f" on {self.refs(e.objs)}" if e.objs else ""
        until = {"eot": " until end of turn", "": ""}.get(e.duration, f" ({e.duration})")
        return f"{self.obj(e.source)}: {self.effect_text(e.kind, e.params)}{on}{until}"

    def _EffectsEnded(self, e: ev.EffectsEnded) -> str:
        ended = [x for x in self.state.effects if x.id in e.effects]
        what = "; ".join(f"{self.effect_text(x.kind, x.params)}"
                         + (f" on {self.refs(x.objs)}" if x.objs else "") for x in ended)
        n = len(e.effects)
        return f"{n} effect{'s' if n != 1 else ''} end" + (f": {what}" if what else "")

    def _PlayerLost(self, e: ev.PlayerLost) -> str:
        return f"{self.player(e.player)} loses the game ({_REASONS.get(e.reason, e.reason)})"

    def _GameEnded(self, e: ev.GameEnded) -> str:
        if e.winner < 0:
            why = {"turn-limit": "the turn limit", "loop": "a loop of mandatory actions "
                   "(rule 104.4b)"}.get(e.reason, e.reason)
            return f"Game over: a draw ({why})" if why else "Game over: a draw"
        team = team_of(self.state, e.winner)
        if len(team) > 1:  # Two-Headed Giant: the team wins
            return f"Game over: {' & '.join(self.player(p) for p in team)} win"
        return f"Game over: {self.player(e.winner)} wins"

    def _DrewFromEmptyLibrary(self, e: ev.DrewFromEmptyLibrary) -> str:
        return f"{self.player(e.player)} has to draw from an empty library"


_PLAYER_FIELDS_OF: dict[type, tuple[str, ...]] = {}
_NONE_ALLOWED = frozenset({"winner", "controller"})


def event_name(e: ev.Event) -> str:
    """The type of ``e`` as logs name it (an unknown event's stored tag)."""
    return str(getattr(e, "tag", "") or e.TAG or type(e).__name__)


FOLD_NOTE = "event(s) could not be folded into the state"


def fold_note(errors: Sequence[tuple[int, str]]) -> str:
    """One line for the events a fold had to leave out (:attr:`Renderer.fold_errors`):
    their content makes no sense in the game state, or they need events this kernel
    can't read."""
    seq, why = errors[0]
    return clean(f"{len(errors)} {FOLD_NOTE} (the first is event {seq}: {why}); names may "
                 "be missing after it")


def _unfoldable(e: ev.Event, state: State) -> str:
    """Why ``e`` can't be folded into ``state`` although the projector would take it
    (it names a player who is not in the game), or ``""``."""
    n = len(state.players)
    if isinstance(e, ev.ObjectFlagged) and e.key == "known_to" and e.value is not None and (
            not isinstance(e.value, list | tuple) or not all(
                isinstance(p, int) and not isinstance(p, bool) and 0 <= p < n for p in e.value)):
        return f"ObjectFlagged.value of known_to is {plain_repr(e.value)}, not players of this game"
    cls = type(e)
    fields = _PLAYER_FIELDS_OF.get(cls)
    if fields is None:
        fields = _PLAYER_FIELDS_OF[cls] = tuple(
            f for f in getattr(cls, "__struct_fields__", ()) if f in PLAYER_FIELDS)
    if not fields or isinstance(e, ev.GameStarted):
        return ""
    for f in fields:
        v = getattr(e, f)
        if not isinstance(v, int) or isinstance(v, bool):
            continue
        low = -1 if f in _NONE_ALLOWED or (f == "player" and isinstance(e, ev.DecisionMade)) \
            else 0
        if not low <= v < n:
            have = f"players 0 to {n - 1}" if n else "no players yet"
            return f"{e.TAG}.{f} is {v}, not a player of this game ({have})"
    return ""


def _new_ids(e: ev.Event) -> tuple[int, ...]:
    if isinstance(e, ev.ZoneChanged | ev.RemovedFromGame | ev.LandPlayed | ev.SpellCast):
        return (e.new_obj,)
    if isinstance(e, ev.ObjectCreated | ev.TokenCreated):
        return (e.obj,)
    return ()


def render_event(env: Envelope, before: State | Renderer, registry: Registry | None = None,
                 as_player: int | None = None) -> str:
    """``"<seq> <text>"`` for one event.

    ``before`` is the state just before the event (left unchanged), or a
    :class:`Renderer` that has seen the events before it (it then folds this
    one too, like :meth:`Renderer.render`).
    """
    if isinstance(before, Renderer):
        return before.render(env)
    return f"{env.seq} {Renderer(registry, as_player, before).describe(env)}"


def render_log(envelopes: Iterable[Envelope], registry: Registry | None = None,
               as_player: int | None = None) -> Iterator[str]:
    """One line per event of a log."""
    r = Renderer(registry, as_player)
    for env in envelopes:
        yield r.render(env)

