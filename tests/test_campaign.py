"""The random-games campaign over the whole card pool (mtgk.tools.campaign), at a small
size: every table (two to four players, Two-Headed Giant), both agents, every check."""

from __future__ import annotations

from mtgk.cards.definitions import Registry
from mtgk.log import events as ev
from mtgk.tools.campaign import TABLES, campaign, deck_pool, play_one, trigger_problems
from tests.conftest import run_mtgk


def test_a_small_campaign_passes_every_check(registry: Registry) -> None:
    res = campaign(registry, 2 * len(TABLES), seed=5, max_turns=25)
    assert res.games == 8 and res.events > 1000
    assert res.failures == []
    assert len(set(res.digests)) == 8
    again = campaign(registry, 2, seed=5, max_turns=25)
    assert again.digests == res.digests[:2]  # (deterministic)


def test_the_trigger_check_can_fail(registry: Registry) -> None:
    pool = deck_pool(registry)
    for i in range(8):
        game, _data, problems = play_one(registry, 3, i, pool, 25)
        assert game is not None and problems == []
        seqs = [env.seq for env in game.log if isinstance(env.event, ev.AbilityTriggered)
                and "#" in env.event.ability]
        if seqs:
            env = game.log[seqs[0]]
            game.log[seqs[0]] = ev.Envelope(seq=env.seq, cause=0, event=env.event)
            assert trigger_problems(registry, game)
            return
    raise AssertionError("no game with a card's trigger")


def test_the_command(registry: Registry) -> None:
    code, out, _err = run_mtgk("campaign", "--games", "2", "--seed", "2", "--max-turns", "15",
                               "--digests")
    assert code == 0 and out.splitlines()[-1].startswith("2 games,")
    assert len(out.splitlines()) == 3
