"""Mana with a spending restriction (Smokebraider): the pool, payment and replay."""

from __future__ import annotations

from mtgk.cards.loading import load_registry
from mtgk.log import events as ev
from mtgk.rules.engine import Game
from mtgk.rules.mana import ManaCost, plan_payment
from mtgk.rules.state import encode_state, fold


def test_restricted_mana_is_spent_only_where_allowed() -> None:
    reg = load_registry()
    g = Game(reg, ["alice", "bob"], seed=0)
    g.emit(ev.TurnBegan(turn=3, active=0))
    g.emit(ev.StepBegan(step="precombat_main"))
    ids = {}
    for name in ("Smokebraider", "Flamekin Brawler", "Tarfire"):
        ids[name] = g.new_id()
        g.emit(ev.ObjectCreated(obj=ids[name], card=name, owner=0,
                                zone="battlefield" if name == "Smokebraider" else "hand"))
    braider, brawler, tarfire = ids["Smokebraider"], ids["Flamekin Brawler"], ids["Tarfire"]
    # the source pays only for Elemental spells and abilities of Elementals
    assert g.mana_sources(0) == []
    assert g.mana_sources(0, spend=("spell", brawler)) == [(braider, tuple("WUBRG"))] * 2
    assert g.mana_sources(0, spend=("spell", tarfire)) == []
    g.emit(ev.ManaAdded(player=0, mana="RG", spend="Elemental"))
    g.emit(ev.ManaAdded(player=0, mana="R"))
    assert g.state.players[0].mana == ["R:Elemental", "G:Elemental", "R"]
    assert g.pool_for(0, ("spell", tarfire)) == ["R"]
    assert g.pool_for(0, ("spell", brawler)) == ["R:Elemental", "G:Elemental", "R"]
    plan = plan_payment(ManaCost.parse("{R}"), *g.payment(0, ("spell", brawler)))
    assert plan == ([], ["R:Elemental"])
    g._pay(0, plan)
    assert g.state.players[0].mana == ["G:Elemental", "R"]
    assert encode_state(fold(g.log)) == encode_state(g.state)
