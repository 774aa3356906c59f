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

from mypy_extensions import trait

from mtgk.rules.chars import Chars
from mtgk.rules.core import GameCore
from mtgk.rules.definitions import Activated, CardDef, Target
from mtgk.rules.mana import AnyPlan, ManaCost, Source, Spend
from mtgk.rules.state import StackItem

if TYPE_CHECKING:
    from mtgk.rules.zones import Move, ReadyMove


@trait  # a part of Game (mypyc: a native class has one base besides traits)
class GamePart(GameCore):
    """A part of the rules: what it may call on ``self``."""

    # the methods of other parts a part calls; stubs here rather than under
    # `if TYPE_CHECKING:`, which mypyc cannot compile in a class body
    def decided_since(self, mark: int) -> int | None:
        raise NotImplementedError  # defined by another part

    def priority_round(self, at: Any = None) -> None:
        raise NotImplementedError  # defined by another part

    def legal_actions(self, player: int) -> Sequence[Any]:
        raise NotImplementedError  # defined by another part

    def _ability_cards(self) -> tuple[set[str], dict[str, set[str]], set[str]]:
        raise NotImplementedError  # defined by another part

    def _cast_timing_ok(self, player: int, oid: int, alt: str, sorcery_ok: bool) -> bool:
        raise NotImplementedError  # defined by another part

    def cast_def(self, oid: int, alt: str = "") -> CardDef:
        raise NotImplementedError  # defined by another part

    def cast_chars(self, oid: int, alt: str = "") -> Chars:
        raise NotImplementedError  # defined by another part

    def cast_alts_from(self, player: int, oid: int) -> list[str] | None:
        raise NotImplementedError  # defined by another part

    def _auto_alt(self, player: int, oid: int, alt: str, sorcery_ok: bool) -> str:
        raise NotImplementedError  # defined by another part

    def _mode_choices(self, d: CardDef) -> list[list[int]]:
        raise NotImplementedError  # defined by another part

    def _spell_target_slots(self, d: CardDef, modes: list[int]) -> list[Target]:
        raise NotImplementedError  # defined by another part

    @staticmethod
    def slot_count(t: Target, x: int = 0) -> int:
        raise NotImplementedError  # defined by another part

    def split_targets(self, slots: Sequence[Target], targets: Sequence[int], x: int = 0
                      ) -> list[list[int]]:
        raise NotImplementedError  # defined by another part

    def _target_combos(self, player: int, source: int, slots: Sequence[Target],
                       x: int = 0) -> list[list[int]]:
        raise NotImplementedError  # defined by another part

    def target_candidates(self, player: int, source: int, t: Target, x: int | None = None
                          ) -> list[int]:
        raise NotImplementedError  # defined by another part

    def protected_from(self, oid: int, source: int) -> bool:
        raise NotImplementedError  # defined by another part

    def can_enchant(self, aura: int, host: int) -> bool:
        raise NotImplementedError  # defined by another part

    def check_action(self, player: int, action: Any) -> Any:
        raise NotImplementedError  # defined by another part

    def spell_cost(self, oid: int, alt: str = "") -> ManaCost:
        raise NotImplementedError  # defined by another part

    def cast_forbidden(self, player: int, oid: int, alt: str = "") -> str:
        raise NotImplementedError  # defined by another part

    def _hook_failed(self, error: Exception, src: int, attr: str, fn: Any) -> NoReturn:
        raise NotImplementedError  # defined by another part

    def check_targets(self, player: int, source: int, slots: Sequence[Target],
                      targets: list[int], x: int = 0) -> None:
        raise NotImplementedError  # defined by another part

    def _check_activation_costs(self, player: int, oid: int, ab: Activated, x: int) -> None:
        raise NotImplementedError  # defined by another part

    def summoning_sick(self, oid: int) -> bool:
        raise NotImplementedError  # defined by another part

    def perform(self, player: int, action: Any) -> None:
        raise NotImplementedError  # defined by another part

    def _linked_knowledge(self) -> None:
        raise NotImplementedError  # defined by another part

    def payment(self, player: int, spend: Spend | None = None, exclude: int = 0
                ) -> tuple[list[str], list[Source]]:
        raise NotImplementedError  # defined by another part

    def _restricted_mana(self, player: int) -> bool:
        raise NotImplementedError  # defined by another part

    def mana_sources(self, player: int, exclude: int = 0, spend: Spend | None = None
                     ) -> list[Source]:
        raise NotImplementedError  # defined by another part

    def extra_mana(self, oid: int, statics: list[tuple[int, Any]] | None = None
                   ) -> list[str]:
        raise NotImplementedError  # defined by another part

    def _pay(self, player: int, plan: AnyPlan) -> None:
        raise NotImplementedError  # defined by another part

    def plan_mana(self, player: int, cost: ManaCost, spend: Spend | None = None,
                  exclude: int = 0) -> AnyPlan | None:
        raise NotImplementedError  # defined by another part

    def max_payable(self, player: int, cost: ManaCost, spend: Spend | None = None,
                    pool: list[str] | None = None, sources: list[Source] | None = None
                    ) -> int:
        raise NotImplementedError  # defined by another part

    def _triggered_at(self, items: Sequence[StackItem]) -> dict[int, int]:
        raise NotImplementedError  # defined by another part

    def ability(self, item: StackItem) -> Any:
        raise NotImplementedError  # defined by another part

    def _put_triggers_on_stack(self) -> None:
        raise NotImplementedError  # defined by another part

    def _sba_actions(self) -> list[tuple[str, int, str]]:
        raise NotImplementedError  # defined by another part

    def _sba(self) -> bool:
        raise NotImplementedError  # defined by another part

    def _sba_cause(self, ids: Sequence[int], players: Sequence[int], since: int,
                   by_characteristics: bool = False) -> int:
        raise NotImplementedError  # defined by another part

    def _legend_groups_now(self) -> list[tuple[int, list[int]]]:
        raise NotImplementedError  # defined by another part

    def move(self, oid: int, to_zone: str, reason: str = "", position: int = -1,
             controller: int = -1, tapped: bool = False,
             cast_data: dict[str, Any] | None = None,
             counters: dict[str, int] | None = None) -> int | None:
        raise NotImplementedError  # defined by another part

    def move_all(self, oids: Sequence[int], to_zone: str, reason: str = "",
                 controller: int = -1, tapped: bool = False) -> list[int | None]:
        raise NotImplementedError  # defined by another part

    def _ready_moves(self, moves: Sequence[Move]) -> list[ReadyMove]:
        raise NotImplementedError  # defined by another part

    def _make_move(self, r: ReadyMove, together: Sequence[int] = ()) -> None:
        raise NotImplementedError  # defined by another part

    def _moved_together(self, ready: Sequence[ReadyMove]) -> None:
        raise NotImplementedError  # defined by another part

    def _entered(self, new: int, tapped: bool, cast_data: dict[str, Any] | None,
                 together: Sequence[int] = (), counters: dict[str, int] | None = None
                 ) -> None:
        raise NotImplementedError  # defined by another part

    def draw(self, player: int, n: int = 1) -> None:
        raise NotImplementedError  # defined by another part

    def leave_game(self, player: int) -> None:
        raise NotImplementedError  # defined by another part

    def deal_damage(self, source: int, to: int, amount: int, combat: bool = False,
                    controller: int | None = None) -> None:
        raise NotImplementedError  # defined by another part

    def _declare_attackers(self, active: int) -> bool:
        raise NotImplementedError  # defined by another part

    def _declare_blockers(self, active: int) -> None:
        raise NotImplementedError  # defined by another part

    def _first_strikers(self) -> list[int]:
        raise NotImplementedError  # defined by another part

    def _damage_step(self, first_strike: bool) -> None:
        raise NotImplementedError  # defined by another part
