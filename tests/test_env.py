"""The step environment (mtgk.env): PettingZoo's and Gymnasium's own checks, hidden
information, determinism, forks, logs that verify, and the examples of docs/agents.md."""

from __future__ import annotations

import os
import random
import re
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test

from mtgk.agents import RandomAgent
from mtgk.cards.loading import load_registry
from mtgk.env import (
    MAX_ACTIONS,
    EnvError,
    SeatView,
    Table,
    aec_env,
    card_numbers,
    encode_board,
    gym_env,
    layout,
    obs_size,
)
from mtgk.log import events as ev
from mtgk.rules.chars import printed
from mtgk.rules.layers import compute
from tests.conftest import run_mtgk
from tests.test_perspective import ALICE, BOB, game, twin

ROOT = Path(__file__).resolve().parent.parent
OGRES = str(ROOT / "bench" / "decks" / "ogres.txt")
REG = load_registry()


def play(env: Any, seed: int, steps: int | None = None) -> list[int]:
    """Play ``env`` (an AEC env) with uniformly random legal actions; the actions taken."""
    rng = random.Random(seed)
    taken: list[int] = []
    while env.agents and (steps is None or len(taken) < steps):
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        taken.append(action)
        env.step(action)
    return taken


def replay(env: Any, actions: list[int]) -> None:
    for a in actions:
        env.step(a)


# --------------------------------------------------------------------------
# the libraries' own checks


def test_pettingzoo_api_test() -> None:
    t = time.perf_counter()
    api_test(aec_env(decks=[OGRES, OGRES], seed=1, registry=REG), num_cycles=400)
    api_test(aec_env(seed=2, registry=REG), num_cycles=400)  # the built-in decks
    assert time.perf_counter() - t < 20


def test_gymnasium_check_env() -> None:
    env = gym_env(decks=[OGRES, OGRES], seed=1, registry=REG)
    check_env(env, skip_render_check=True)
    check_env(gym_env(seed=3, registry=REG, opponent=RandomAgent), skip_render_check=True)


def test_gym_episode_ends_with_a_reward_and_a_log_that_verifies(tmp_path: Path) -> None:
    env = gym_env(seed=4, registry=REG)
    obs, info = env.reset(seed=4)
    rng = random.Random(0)
    total, done = 0.0, False
    while not done:
        assert info["options"] and len(info["options"]) == int(obs["action_mask"].sum())
        obs, r, done, trunc, info = env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
        total += r
        assert not trunc
    assert env.table is not None
    w = env.table.result()
    assert total == (0.0 if w == -1 else (1.0 if w == 0 else -1.0))
    path = tmp_path / "gym.mtgk"
    env.save(path)
    code, out, err = run_mtgk("verify", path)
    assert code == 0 and "verified" in out, out + err


# --------------------------------------------------------------------------
# logs: ordinary, verified, deterministic


def test_an_episode_is_a_log_that_verifies_and_replays_byte_for_byte(tmp_path: Path) -> None:
    env = aec_env(seed=5, registry=REG)
    env.reset(seed=5)
    actions = play(env, 5)
    assert env.table is not None and env.table.over
    a, b = tmp_path / "a.mtgk", tmp_path / "b.mtgk"
    env.save(a)
    code, out, err = run_mtgk("verify", a)
    assert code == 0 and out.startswith("OK:"), out + err
    again = aec_env(seed=5, registry=REG)
    again.reset(seed=5)
    replay(again, actions)
    again.save(b)
    assert a.read_bytes() == b.read_bytes()
    other = aec_env(seed=6, registry=REG)  # (another seed: another game)
    other.reset(seed=6)
    play(other, 5)
    other.save(b)
    assert a.read_bytes() != b.read_bytes()


def test_a_game_saved_midway_verifies_as_far_as_it_goes(tmp_path: Path) -> None:
    env = aec_env(decks=[OGRES, OGRES], seed=7, registry=REG)
    env.reset(seed=7)
    play(env, 7, steps=30)
    assert env.table is not None and not env.table.over
    path = tmp_path / "mid.mtgk"
    env.save(path)
    code, out, err = run_mtgk("verify", path)
    n = len(env.table.game.log)
    assert code == 3 and out.startswith(f"INCOMPLETE: the {n} events verified"), out + err


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    env = aec_env(decks=[OGRES, OGRES], seed=8, registry=REG)
    env.reset(seed=8)
    t = env.table
    assert t is not None
    n = len(t.game.log)
    legal = t.legal()
    with pytest.raises(EnvError, match="not legal"):
        env.step(len(legal))
    with pytest.raises(EnvError, match="not legal"):
        env.step(-1)
    assert len(t.game.log) == n and t.legal() == legal


# --------------------------------------------------------------------------
# forks


def test_fork_is_exact_and_independent(tmp_path: Path) -> None:
    env = aec_env(seed=9, registry=REG)
    env.reset(seed=9)
    play(env, 9, steps=40)
    fork = env.fork()
    assert env.table is not None and fork.table is not None
    n = len(env.table.game.log)
    assert fork.table.game.log == env.table.game.log
    assert fork.agent_selection == env.agent_selection
    sel = env.agent_selection
    assert np.array_equal(fork.observe(sel)["observation"], env.observe(sel)["observation"])
    rest = play(fork, 99)  # the fork plays on; the original has not moved
    assert len(env.table.game.log) == n and fork.table.game.log[:n] == env.table.game.log
    replay(env, rest)  # the same actions: the same game
    env.save(tmp_path / "a.mtgk")
    fork.save(tmp_path / "b.mtgk")
    assert (tmp_path / "a.mtgk").read_bytes() == (tmp_path / "b.mtgk").read_bytes()


def test_fork_in_the_middle_of_a_declaration() -> None:
    """A fork taken between two menus of one decision (an attacker declared, another not
    yet) goes on from the same menu."""
    for seed in range(20):
        env = aec_env(decks=[OGRES, OGRES], seed=seed, registry=REG)
        env.reset(seed=seed)
        rng = random.Random(seed)
        t = env.table
        assert t is not None
        while not t.over and not (t.menu is not None and t.menu.depth > 0):
            env.step(rng.choice(t.legal()))
        if t.over:
            continue
        fork = env.fork()
        assert fork.table is not None and fork.table.menu is not None
        assert fork.table.menu.depth == t.menu.depth
        assert fork.infos == env.infos
        sel = env.agent_selection
        assert np.array_equal(fork.observe(sel)["observation"], env.observe(sel)["observation"])
        rest = play(fork, seed)
        replay(env, rest)
        assert env.table is not None and fork.table.game.log == env.table.game.log
        return
    pytest.fail("no game had a decision of several menus")


def test_gym_fork_remakes_the_opponent() -> None:
    env = gym_env(decks=[OGRES, OGRES], seed=10, registry=REG)
    obs, _ = env.reset(seed=10)
    rng = random.Random(1)
    for _ in range(15):
        obs, _r, done, _t, _i = env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
        assert not done
    fork = env.fork()
    assert env.table is not None and fork.table is not None
    assert fork.table.game.log == env.table.game.log
    done = False
    while not done:
        action = rng.choice(np.flatnonzero(obs["action_mask"]))
        obs, _r, done, _t, _i = env.step(action)
        obs2, _r2, done2, _t2, _i2 = fork.step(action)
        assert np.array_equal(obs["observation"], obs2["observation"]) and done == done2
    assert fork.table.game.log == env.table.game.log


# --------------------------------------------------------------------------
# what a seat sees


def test_layout_is_contiguous_and_documented() -> None:
    for seats in (2, 3, 4):
        w = layout(seats)
        at = 0
        for s in w.values():
            assert s.start == at
            at = s.stop
        assert at == obs_size(seats)
    assert layout()["actions"].stop - layout()["actions"].start == MAX_ACTIONS * 6
    text = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    for name in layout(4):
        assert f"`{re.sub(r'[0-9]', '{k}', name)}`" in text, f"docs/agents.md names {name}"


def bob_boards(header: Any, envs: Any, viewer: int, every: int) -> list[np.ndarray]:
    """The board part of ``viewer``'s observation after every ``every``-th event."""
    view = SeatView(len(header.players))
    w = layout(len(header.players))
    cards = card_numbers(REG)
    out = []
    for n in range(every, len(envs) + 1, every):
        view.catch_up(envs[:n])
        chars = compute(view.state, REG)
        state = view.state

        def of(oid: int, chars: dict[int, Any] = chars, state: Any = state) -> Any:
            return chars[oid] if oid in chars else printed(REG, state.objects[oid])

        vec = np.zeros(obs_size(len(header.players)), dtype=np.float32)
        encode_board(view.state, view.seen[viewer], of, cards, vec, w)
        out.append(vec)
    return out


@settings(max_examples=int(os.environ.get("MTGK_ENV_TWINS", "6")), deadline=None,
          phases=[Phase.explicit, Phase.generate], suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 31), rnd=st.randoms(use_true_random=False))
def test_a_game_and_its_twin_look_the_same_to_bob(seed: int, rnd: random.Random) -> None:
    """The twins of tests/test_perspective.py differ only in what Bob can't see (Alice's
    unseen cards, every library order, which hidden card is which): Bob's observation
    is the same in both at every moment; Alice's is not (the truth differs)."""
    header, envs = game(seed)
    th, tenvs, what = twin(header, envs, rnd)
    every = max(1, len(envs) // 60)
    mine, theirs = bob_boards(header, envs, BOB, every), bob_boards(th, tenvs, BOB, every)
    for i, (a, b) in enumerate(zip(mine, theirs, strict=True)):
        assert np.array_equal(a, b), (
            f"game {seed}: Bob's observation after event {(i + 1) * every} differs "
            f"({'; '.join(what)}) at {np.flatnonzero(a != b)[:10]}")


def test_alices_observation_shows_her_hand_and_not_bobs() -> None:
    header, envs = game(0)
    th, tenvs, _ = twin(header, envs, random.Random(3))
    alice = bob_boards(header, envs, ALICE, 25)
    alice_twin = bob_boards(th, tenvs, ALICE, 25)
    assert any(not np.array_equal(a, b) for a, b in zip(alice, alice_twin, strict=True))
    hand = layout()["hand"]
    assert any(v[hand].any() for v in bob_boards(header, envs, BOB, 25))


def test_live_twins_differ_only_in_alices_library() -> None:
    """Two games played through the environment whose only difference is one card deep in
    Alice's library: until she draws it, Bob's observations and options are the same;
    then Alice's differ (she sees it), and still Bob's do not while it is in her hand."""
    ogres = [*(["Mountain"] * 17), *(["Gray Ogre"] * 23)]
    other = list(ogres)
    other[5] = "Goblin Roughrider"  # (one card of her library: another one)
    compared = 0
    for seed in range(6):
        a = aec_env(decks=[ogres, ogres], seed=seed, registry=REG)
        b = aec_env(decks=[other, ogres], seed=seed, registry=REG)
        a.reset(seed=seed)
        b.reset(seed=seed)
        assert a.table is not None and b.table is not None
        rng = random.Random(seed)
        while a.agents and b.agents:
            oa, ob = a.observe("player_1"), b.observe("player_1")
            assert np.array_equal(oa["observation"], ob["observation"])
            assert np.array_equal(oa["action_mask"], ob["action_mask"])
            if a.agent_selection == "player_1":
                assert a.infos["player_1"] == b.infos["player_1"]
            compared += 1
            alice_a, alice_b = a.observe("player_0"), b.observe("player_0")
            if not np.array_equal(alice_a["observation"], alice_b["observation"]):
                break  # Alice now knows which game she is in: her choices may differ
            if a.terminations.get(a.agent_selection):
                break
            action = rng.choice(np.flatnonzero(oa["action_mask"] if a.agent_selection ==
                                               "player_1" else alice_a["action_mask"]))
            a.step(action)
            b.step(action)
        a.close()
        b.close()
    assert compared > 300


# --------------------------------------------------------------------------
# the docs


def test_the_examples_of_docs_agents_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    (tmp_path / "bench").symlink_to(ROOT / "bench")
    monkeypatch.chdir(tmp_path)
    for code in blocks:
        exec(compile(code, "docs/agents.md", "exec"), {"__name__": "docs_agents"})


def test_the_decision_counts_of_a_game_through_the_env_match_its_log() -> None:
    """Every answer the table gave is a decision the engine asked: the log records each
    one that had a choice (a DecisionMade), none is lost or made up."""
    t = Table(aec_env(decks=[OGRES, OGRES], seed=11, registry=REG).setup)
    rng = random.Random(2)
    while not t.over:
        t.act(rng.choice(t.legal()))
    made = [e for e in t.game.log if isinstance(e.event, ev.DecisionMade) and e.event.player >= 0]
    assert 0 < len(made) <= len(t.stepper.answers)
    t.close()


# --------------------------------------------------------------------------
# any number of seats the engine plays (issue 17): three and four players, Two-Headed Giant


def test_pettingzoo_api_test_for_three_four_players_and_two_headed_giant() -> None:
    for env in (aec_env(decks=[OGRES] * 3, seed=1, registry=REG),
                aec_env(decks=[OGRES] * 4, seed=2, registry=REG),
                aec_env(decks=[OGRES, OGRES], variant="two-headed-giant", seed=3,
                        registry=REG)):
        api_test(env, num_cycles=200)


def test_seats_are_agents_and_the_header_says_the_variant() -> None:
    three = aec_env(decks=[OGRES] * 3, seed=1, registry=REG)
    three.reset(seed=1)
    assert three.possible_agents == ["player_0", "player_1", "player_2"]
    assert three.table is not None and three.table.header.meta["variant"] == "free_for_all"
    thg = aec_env(variant="two-headed-giant", seed=1, registry=REG)
    thg.reset(seed=4)  # (a reset keeps the variant and the teams)
    assert thg.possible_agents == [f"player_{i}" for i in range(4)]
    assert thg.table is not None and thg.table.header.meta["teams"] == [[0, 2], [1, 3]]
    assert thg.observe("player_0")["observation"].shape == (obs_size(4),)
    two = aec_env(decks=[OGRES, OGRES], seed=1, registry=REG)
    two.reset(seed=1)
    assert two.table is not None and "variant" not in two.table.header.meta
    assert two.table.header.profile == "lorwyn-2007"
    with pytest.raises(EnvError, match="two to four players"):
        aec_env(decks=[OGRES] * 5, seed=1, registry=REG)
    dealt = aec_env(decks=[OGRES, "Lorwyn Kithkin & Faerie Flyers", OGRES], variant="two-headed-giant",
                    seed=1, registry=REG)
    dealt.reset(seed=1)
    assert dealt.table is not None  # (fewer than four decks: dealt round the seats)
    assert dealt.table.header.meta["deck_names"] == ["ogres", "Lorwyn Kithkin & Faerie Flyers", "ogres",
                                                     "ogres"]
    dealt.close()
    with pytest.raises(EnvError, match="unknown game variant"):
        aec_env(decks=[OGRES] * 4, variant="three-headed-giant", profile="lorwyn-2007",
                registry=REG)
    for env in (three, thg, two):
        env.close()


def test_the_two_seat_layout_is_unchanged_and_more_seats_add_a_team_slice() -> None:
    assert "team" not in layout(2) and obs_size(2) == 810  # (the two-seat size before)
    w = layout(4)
    assert w["team"].stop == obs_size(4) and w["team"].stop - w["team"].start == 4
    env = aec_env(decks=[OGRES] * 2, variant="two-headed-giant", seed=5, registry=REG)
    env.reset(seed=5)
    for agent, viewer in (("player_0", 0), ("player_3", 3)):
        team = env.observe(agent)["observation"][w["team"]].tolist()
        # relative seats from the viewer: itself, an opponent, its teammate, an opponent
        assert team == [1, 0, 1, 0], (viewer, team)
    env.close()


def lands(name: str) -> list[str]:
    return [name] * 40


def test_a_teammates_hand_is_not_in_a_two_headed_giant_observation() -> None:
    """Two games that differ only in the cards of player_0's deck (the same seed, the same
    shuffles): player_0 sees its own hand differ, its teammate player_2 sees nothing differ,
    in numbers or in words."""
    looks: dict[str, list[Any]] = {}
    for name in ("Mountain", "Forest"):
        env = aec_env(decks=[lands(name), lands("Island"), lands("Swamp"), lands("Plains")],
                      variant="two-headed-giant", seed=6, registry=REG, text=True)
        env.reset(seed=6)
        assert env.table is not None
        looks[name] = [env.observe("player_0")["observation"],
                       env.observe("player_2")["observation"], env.table.board(2)]
        env.close()
    mountain, forest = looks["Mountain"], looks["Forest"]
    assert not np.array_equal(mountain[0], forest[0])  # player_0 sees its own hand
    assert np.array_equal(mountain[1], forest[1])  # its teammate does not
    assert mountain[2] == forest[2]
    assert "Mountain" not in mountain[2] and "Forest" not in forest[2]


@pytest.mark.parametrize("variant,decks,turns", [("", 3, 12), ("", 4, 12),
                                               ("two-headed-giant", 2, 30)])
def test_a_multiplayer_episode_ends_with_team_rewards_and_a_log_that_verifies(
        tmp_path: Path, variant: str, decks: int, turns: int) -> None:
    """A game played through the environment to its end (a draw at the turn limit, or a
    team's win: +1 for each of its players) is a log ``mtgk verify`` accepts."""
    seed = 9 if variant else 8  # (a Two-Headed Giant game a team wins; with this round's
    # rules (mulligans in rounds, casting's triggers after its costs) seed 8 draws)
    env = aec_env(decks=[OGRES] * decks, variant=variant, seed=seed, registry=REG,
                  max_turns=turns)
    env.reset(seed=seed)
    totals: dict[str, float] = {}
    rng = random.Random(seed)
    while env.agents:
        obs, _r, term, trunc, _info = env.last()
        if term or trunc:
            totals[env.agent_selection] = env._cumulative_rewards[env.agent_selection]
            env.step(None)
            continue
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert env.table is not None and env.table.over
    won = env.table.winners()
    n = len(env.possible_agents)
    want = {f"player_{i}": (0.0 if not won else (1.0 if i in won else -1.0)) for i in range(n)}
    assert totals == want
    if variant:  # (this game is won by a team: both its players are rewarded)
        assert won in ([0, 2], [1, 3])
    path = tmp_path / "multi.mtgk"
    env.save(path)
    code, out, err = run_mtgk("verify", path)
    assert code == 0 and out.startswith("OK:"), out + err


def test_gymnasium_check_env_with_more_seats() -> None:
    """The single-agent wrapper with the other seats (a teammate too) played by the
    fixed agent."""
    check_env(gym_env(decks=[OGRES] * 2, variant="two-headed-giant", seed=2, seat=2,
                      opponent=RandomAgent, registry=REG), skip_render_check=True)
    check_env(gym_env(decks=[OGRES] * 3, seed=2, seat=1, registry=REG), skip_render_check=True)


# --------------------------------------------------------------------------
# the opt-in slices (history, masks) and the shaped reward (issue 27)


def test_the_opt_in_slices_are_contiguous_documented_and_off_by_default() -> None:
    from mtgk.env import EVENT_TAGS

    text = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    for seats in (2, 3, 4):
        assert layout(seats) == layout(seats, 0, False)
        w = layout(seats, 5, True)
        at = 0
        for name, s in w.items():
            assert s.start == at
            at = s.stop
            assert f"`{re.sub(r'[0-9]', '{k}', name)}`" in text, f"docs/agents.md names {name}"
        assert at == obs_size(seats, 5, True)
        assert {n: s for n, s in w.items() if n in layout(seats)} == layout(seats)
    assert obs_size(2, 3) == 810 + 3 * 4 and "mask_history" not in layout(2, 3)
    assert obs_size(2, 0, True) == 810 + 2 + 10 + 2 * 16 + 2 * 8 + 6
    # every event type the kernel and its plugins register has a stable id
    assert set(ev.EVENT_TYPES) <= set(EVENT_TAGS) and len(set(EVENT_TAGS)) == len(EVENT_TAGS)
    for tag in EVENT_TAGS:
        assert f"`{tag}`" in text, f"docs/agents.md lists event tag {tag}"
    env = aec_env(decks=[OGRES] * 2, seed=3, registry=REG)
    env.reset(seed=3)
    assert env.observe("player_0")["observation"].shape == (810,)
    env.close()


def history_rows(envs: Any, viewer: int) -> list[tuple[int, int, int, int]]:
    """``viewer``'s history rows of every event of ``envs`` (the environment's own fold)."""
    from mtgk.env.observation import HistoryView

    view = HistoryView(2, len(envs), card_numbers(REG))
    view.catch_up(envs)
    return list(view.rows[viewer])


def test_a_game_and_its_twin_have_the_same_history_for_bob() -> None:
    """The twins of tests/test_perspective.py differ only in what Bob can't see: Bob's
    event rows are the same in both, event by event; Alice's are not in every pair (her
    own cards differ), and Bob's rows do name cards (the ones he may see)."""
    differs = 0
    for seed in range(4):
        header, envs = game(seed)
        _th, tenvs, what = twin(header, envs, random.Random(seed))
        mine, theirs = history_rows(envs, BOB), history_rows(tenvs, BOB)
        assert len(mine) == len(envs)
        for i, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            assert a == b, f"game {seed}: Bob's row of event {i} differs ({'; '.join(what)})"
        assert any(r[1] for r in mine)
        differs += history_rows(envs, ALICE) != history_rows(tenvs, ALICE)
    assert differs


def test_a_hidden_card_never_appears_in_the_history() -> None:
    """Alice's library holds one Goblin Roughrider among Ogres and Mountains: Bob's history
    rows never show its number while it is hidden from him (in her library or hand), and
    Alice's show it once she draws it."""
    ogres = [*(["Mountain"] * 17), *(["Gray Ogre"] * 23)]
    other = list(ogres)
    other[5] = "Goblin Roughrider"
    rough = card_numbers(REG)["Goblin Roughrider"]
    alice_saw = False
    for seed in range(4):
        env = aec_env(decks=[other, ogres], seed=seed, registry=REG, history=64, masks=True)
        env.reset(seed=seed)
        w = layout(2, 64, True)
        rng = random.Random(seed)
        while env.agents:
            t = env.table
            assert t is not None
            public = any(t.game.state.objects[o].card == "Goblin Roughrider"
                         for z in (t.game.state.battlefield, t.game.state.players[0].graveyard,
                                   t.game.state.exile) for o in z)
            if public or any(it.source_card == "Goblin Roughrider" for it in t.game.state.stack):
                break  # (public from now on: Bob may see it)
            bob = env.observe("player_1")["observation"][w["history"]].reshape(64, 4)
            assert rough not in bob[:, 1], f"seed {seed}: Bob's history shows the hidden card"
            alice = env.observe("player_0")["observation"][w["history"]].reshape(64, 4)
            alice_saw = alice_saw or rough in alice[:, 1]
            obs, _r, term, trunc, _i = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        env.close()
    assert alice_saw


def test_the_history_is_the_last_events_oldest_first_and_padded() -> None:
    from mtgk.env import EVENT_TAGS, event_row

    env = aec_env(decks=[OGRES] * 2, seed=4, registry=REG, history=6, masks=True)
    env.reset(seed=4)
    play(env, 4, steps=30)
    t = env.table
    assert t is not None
    w = layout(2, 6, True)
    obs = env.observe("player_1")["observation"]
    rows = obs[w["history"]].reshape(6, 4)
    assert obs[w["mask_history"]].tolist() == [1] * 6
    # the same rows as a fold of the whole log from scratch
    assert [tuple(r) for r in rows.astype(int).tolist()] == history_rows(t.game.log, 1)[-6:]
    last = t.game.log[-1].event
    assert rows[-1][0] == EVENT_TAGS.index(last.TAG) + 1
    assert callable(event_row)
    # a fork has the same history; a longer history than the log is padded at the end
    assert np.array_equal(env.fork().observe("player_1")["observation"], obs)
    long = aec_env(decks=[OGRES] * 2, seed=4, registry=REG, history=4000, masks=True)
    long.reset(seed=4)
    wl = layout(2, 4000, True)
    o = long.observe("player_0")["observation"]
    assert long.table is not None
    n = len(long.table.game.log)
    assert o[wl["mask_history"]].sum() == n < 4000
    assert not o[wl["history"]].reshape(4000, 4)[n:].any()
    for e in (env, long):
        e.close()


def test_the_masks_mark_the_real_slots() -> None:
    env = aec_env(decks=[OGRES] * 3, seed=2, registry=REG, masks=True)
    env.reset(seed=2)
    play(env, 2, steps=120)
    w = layout(3, 0, True)
    for agent in env.possible_agents:
        o = env.observe(agent)["observation"]
        assert o[w["mask_seat"]].tolist() == [1, 1, 1]
        assert np.array_equal(o[w["mask_hand"]], o[w["hand"]].reshape(10, 7)[:, 0])
        assert np.array_equal(o[w["mask_stack"]], o[w["stack"]].reshape(6, 4)[:, 0])
        for k in range(3):
            bf = o[w[f"battlefield{k}"]].reshape(16, 14)
            assert np.array_equal(o[w[f"mask_battlefield{k}"]], bf[:, 0])
            grave = o[w[f"seat{k}"]][3]
            assert o[w[f"mask_graveyard{k}"]].sum() == min(grave, 8)
        assert o[w["mask_hand"]].sum() == min(o[w["seat0"]][2], 10)
    env.close()


def test_a_shaped_reward_is_added_to_the_sparse_one() -> None:
    calls: list[int] = []

    def life(before: Any, after: Any, seat: int) -> float:
        calls.append(seat)
        return float(after.players[seat].life - before.players[seat].life) / 100

    plain = gym_env(decks=[OGRES] * 2, seed=5, registry=REG, max_turns=8)
    shaped = gym_env(decks=[OGRES] * 2, seed=5, registry=REG, max_turns=8, reward=life)
    for env in (plain, shaped):
        env.reset(seed=5)
    total = [0.0, 0.0]
    done = False
    while not done:
        assert plain.table is not None and shaped.table is not None
        a = int(np.flatnonzero(plain.action_masks())[-1])
        life_before = shaped.table.game.state.players[0].life
        _o, r0, t0, u0, _i = plain.step(a)
        _o, r1, t1, u1, _i = shaped.step(a)
        assert (t0, u0) == (t1, u1)
        assert r1 == pytest.approx(r0 + (shaped.table.game.state.players[0].life
                                         - life_before) / 100)
        total[0] += r0
        total[1] += r1
        done = t0 or u0
    assert calls and set(calls) == {0}
    assert total[1] != total[0] or all(p.life == 20 for p in shaped.table.game.state.players)
    # the AEC environment: each seat's reward each step
    aec = aec_env(decks=[OGRES] * 2, seed=5, registry=REG, max_turns=4,
                  reward=lambda b, a, s: 0.25)
    aec.reset(seed=5)
    _o, r, *_ = aec.last()
    assert r == 0.0  # (no step yet)
    aec.step(int(np.flatnonzero(aec.last()[0]["action_mask"])[0]))
    assert all(v == 0.25 for v in aec.rewards.values())
    play(aec, 5)
    aec.close()
    with pytest.raises(EnvError, match="reward"):
        gym_env(decks=[OGRES] * 2, registry=REG, reward=3)  # type: ignore[arg-type]
    with pytest.raises(EnvError, match="history"):
        gym_env(decks=[OGRES] * 2, registry=REG, history=-1)
