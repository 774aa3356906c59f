"""Typed answers (issue 25): combat declarations are lists of :class:`Attack`,
:class:`Block` and :class:`Assign` pairs, in the live game and in a log, encoded byte for
byte as the ``[a, b]`` lists older kernels wrote; a log's lists decode into them."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mtgk.agents import HeuristicAgent, RandomAgent
from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.log.answers import PAIRS, Assign, Attack, Block, Pair, answer_from
from mtgk.rules.engine import Game, RulesError
from mtgk.rules.visibility import map_choice
from mtgk.stepper import Stepper
from tests.test_stepper import header

DECLARED = ("attackers", "blockers", "assign")


def _declarations(registry: Registry, seeds: range) -> list[ev.DecisionMade]:
    out = []
    for seed in seeds:
        s = Stepper(registry, header(registry, seed, max_turns=12))
        s.play([RandomAgent(seed), RandomAgent(~seed)])
        out += [e.event for e in s.log if isinstance(e.event, ev.DecisionMade)
                and e.event.kind in DECLARED]
    return out


def test_combat_declarations_are_typed_pairs_encoded_as_the_old_lists(
        registry: Registry) -> None:
    found = _declarations(registry, range(6))
    kinds = {d.kind for d in found}
    assert {"attackers", "blockers"} <= kinds, kinds
    for d in found:
        assert all(type(p) is PAIRS[d.kind] for p in d.choice), d
        # the bytes an older kernel wrote (an event is an array of its fields)
        old_bytes = msgspec.msgpack.encode([d.player, d.kind, [list(p) for p in d.choice]])
        assert msgspec.msgpack.encode(d) == old_bytes
        again = msgspec.msgpack.decode(old_bytes, type=ev.DecisionMade)
        assert again == d and all(type(p) is PAIRS[d.kind] for p in again.choice)


@given(st.sampled_from(DECLARED),
       st.lists(st.tuples(st.integers(-8, 10 ** 6), st.integers(-8, 10 ** 6)), max_size=6))
def test_a_list_of_pairs_reads_as_typed_pairs_and_encodes_back(kind: str,
                                                               pairs: list[Any]) -> None:
    value = [list(p) for p in pairs]
    typed = answer_from(kind, value)
    assert [type(p) for p in typed] == [PAIRS[kind]] * len(value)
    assert [list(p) for p in typed] == value
    assert msgspec.json.encode(typed) == msgspec.json.encode(value)
    assert answer_from(kind, typed) == typed


@pytest.mark.parametrize("bad", [[1], [[1]], [[1, 2, 3]], [["x", 2]], [[True, 2]], 5,
                                 [[None, 2]]])
def test_what_is_not_a_list_of_pairs_is_refused(bad: Any) -> None:
    with pytest.raises(ValueError):
        answer_from("attackers", bad)


def test_a_damaged_record_stays_as_it_was_read() -> None:
    d = ev.DecisionMade(player=0, kind="blockers", choice=[[1, 2, 3]])
    assert d.choice == [[1, 2, 3]]


def _attack_ready(registry: Registry) -> tuple[Game, int, int]:
    """A game at a declare-attackers decision: the game, the attacking player, one of
    their creatures able to attack."""
    s = Stepper(registry, header(registry, 7), [None, HeuristicAgent(1)])
    me = HeuristicAgent(0)
    while s.decision is not None and s.decision.kind != "attackers":
        s.answer(me.decide(s.game, s.decision))
    assert s.decision is not None
    return s.game, s.decision.player, s.decision.context["attackers"][0]


def test_attacks_may_be_typed_or_lists_and_a_wrong_pair_is_refused(registry: Registry) -> None:
    g, p, a = _attack_ready(registry)
    them = g.attack_targets(p)[0]
    n = len(g.log)
    assert g.check_attackers(p, [Attack(a, them)]) == [Attack(a, them)]
    assert g.check_attackers(p, [[a, them]]) == [Attack(a, them)]
    for bad in ([Block(a, them)], [Assign(a, them)], [(a, them)], [[a, them, 1]]):
        with pytest.raises(RulesError) as err:
            g.check_attackers(p, bad)
        assert err.value.rule == "508.1"
    assert len(g.log) == n  # checking appends nothing


def test_a_perspective_keeps_the_pairs_typed() -> None:
    moved = map_choice("blockers", [Block(5, 6)], lambda i: i * 10)
    assert moved == [Block(50, 60)] and isinstance(moved[0], Pair)
    assert map_choice("assign", [Assign(5, 3), Assign(-2, 1)], lambda i: 0) == \
        [Assign(0, 3), Assign(-2, 1)]
