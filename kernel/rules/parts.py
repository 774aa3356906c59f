"""The base of each part of the rules: :class:`GamePart`, a :class:`~mtgk.rules.core.GameCore`
that also declares, for the type checker only, the methods the parts call of one another.

Each part of the rules is a mixin in its own module (turns, priority, actions, casting,
payment, triggers, sba, zones, damage, combat); :class:`mtgk.rules.engine.Game` puts them
together, so a part calls another's method on ``self``.  The declarations below only let
mypy check those calls (it checks them against the implementations, too): at run time
the class adds nothing to :class:`~mtgk.rules.core.GameCore`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from mtgk.cards.definitions import Activated, CardDef, Target
from mtgk.rules.core import GameCore
from mtgk.rules.layers import Chars
from mtgk.rules.mana import ManaCost, Source, Spend
from mtgk.rules.state import StackItem

if TYPE_CHECKING:
    from mtgk.rules.zones import Move, ReadyMove


class GamePart(GameCore):
    """A part of the rules: what it may call on ``self``."""

    if TYPE_CHECKING:
        def decided_since(self, mark: int) -> int | None:
            ...

        def priority_round(self) -> None:
            ...

        def legal_actions(self, player: int) -> list[Any]:
            ...

        def _ability_cards(self) -> tuple[set[str], dict[str, set[str]], set[str]]:
            ...

        def _cast_timing_ok(self, player: int, oid: int, alt: str, sorcery_ok: bool) -> bool:
            ...

        def cast_def(self, oid: int, alt: str = "") -> CardDef:
            ...

        def cast_chars(self, oid: int, alt: str = "") -> Chars:
            ...

        def cast_alts_from(self, player: int, oid: int) -> list[str] | None:
            ...

        def _auto_alt(self, player: int, oid: int, alt: str, sorcery_ok: bool) -> str:
            ...

        def _mode_choices(self, d: CardDef) -> list[list[int]]:
            ...

        def _spell_target_slots(self, d: CardDef, modes: list[int]) -> list[Target]:
            ...

        @staticmethod
        def slot_count(t: Target, x: int = 0) -> int:
            ...

        def split_targets(self, slots: Sequence[Target], targets: Sequence[int], x: int = 0
                          ) -> list[list[int]]:
            ...

        def _target_combos(self, player: int, source: int, slots: Sequence[Target],
                           x: int = 0) -> list[list[int]]:
            ...

        def target_candidates(self, player: int, source: int, t: Target, x: int | None = None
                              ) -> list[int]:
            ...

        def protected_from(self, oid: int, source: int) -> bool:
            ...

        def can_enchant(self, aura: int, host: int) -> bool:
            ...

        def check_action(self, player: int, action: Any) -> Any:
            ...

        def spell_cost(self, oid: int, alt: str = "") -> ManaCost:
            ...

        def cast_forbidden(self, player: int, oid: int, alt: str = "") -> str:
            ...

        def _hook_failed(self, error: Exception, src: int, attr: str, fn: Any) -> NoReturn:
            ...

        def check_targets(self, player: int, source: int, slots: Sequence[Target],
                          targets: list[int], x: int = 0) -> None:
            ...

        def _check_activation_costs(self, player: int, oid: int, ab: Activated, x: int) -> None:
            ...

        def summoning_sick(self, oid: int) -> bool:
            ...

        def perform(self, player: int, action: list[Any]) -> None:
            ...

        def _linked_knowledge(self) -> None:
            ...

        def payment(self, player: int, spend: Spend | None = None, exclude: int = 0
                    ) -> tuple[list[str], list[Source]]:
            ...

        def _restricted_mana(self, player: int) -> bool:
            ...

        def mana_sources(self, player: int, exclude: int = 0, spend: Spend | None = None
                         ) -> list[Source]:
            ...

        def extra_mana(self, oid: int, statics: list[tuple[int, Any]] | None = None
                       ) -> list[str]:
            ...

        def _pay(self, player: int, plan: tuple[list[tuple[int, str]], list[str]]) -> None:
            ...

        def _triggered_at(self, items: Sequence[StackItem]) -> dict[int, int]:
            ...

        def ability(self, item: StackItem) -> Any:
            ...

        def _put_triggers_on_stack(self) -> None:
            ...

        def _sba_actions(self) -> list[tuple[str, int, str]]:
            ...

        def _sba(self) -> bool:
            ...

        def _sba_cause(self, ids: Sequence[int], players: Sequence[int], since: int,
                       by_characteristics: bool = False) -> int:
            ...

        def _legend_groups_now(self) -> list[tuple[int, list[int]]]:
            ...

        def move(self, oid: int, to_zone: str, reason: str = "", position: int = -1,
                 controller: int = -1, tapped: bool = False,
                 cast_data: dict[str, Any] | None = None) -> int | None:
            ...

        def move_all(self, oids: Sequence[int], to_zone: str, reason: str = "",
                     controller: int = -1, tapped: bool = False) -> list[int | None]:
            ...

        def _ready_moves(self, moves: Sequence[Move]) -> list[ReadyMove]:
            ...

        def _make_move(self, r: ReadyMove) -> None:
            ...

        def _moved_together(self, ready: Sequence[ReadyMove]) -> None:
            ...

        def _entered(self, new: int, tapped: bool, cast_data: dict[str, Any] | None) -> None:
            ...

        def draw(self, player: int, n: int = 1) -> None:
            ...

        def leave_game(self, player: int) -> None:
            ...

        def deal_damage(self, source: int, to: int, amount: int, combat: bool = False,
                        controller: int | None = None) -> None:
            ...

        def _declare_attackers(self, active: int) -> bool:
            ...

        def _declare_blockers(self, active: int) -> None:
            ...

        def _first_strikers(self) -> list[int]:
            ...

        def _damage_step(self, first_strike: bool) -> None:
            ...
