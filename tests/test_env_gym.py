"""The step environment as the training libraries use it (issue 27): Gymnasium's registry
and vector environments, action masks for MaskablePPO, truncation at the turn limit, seeds
as Gymnasium treats them, refused actions and seeds, the terminal mask, a stable card
vocabulary, and policies sitting at the table."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from mtgk.cards.loading import load_registry
from mtgk.env import (
    ENV_IDS,
    MAX_ACTIONS,
    VOCABULARY_VERSION,
    EnvError,
    MtgGymEnv,
    aec_env,
    card_numbers,
    card_vocabulary,
    gym_env,
    obs_size,
)
from tests.conftest import run_mtgk

ROOT = Path(__file__).resolve().parent.parent
OGRES = str(ROOT / "bench" / "decks" / "ogres.txt")
REG = load_registry()


def pick(obs: dict[str, np.ndarray], rng: random.Random) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


def run_gym(env: Any, seed: int, limit: int = 5000) -> tuple[bool, bool, dict[str, Any]]:
    """Play ``env`` (reset already) with random legal actions to its end."""
    rng = random.Random(seed)
    obs = env.unwrapped.table.observation(env.unwrapped.seat)
    for _ in range(limit):
        obs, _r, term, trunc, info = env.step(pick(obs, rng))
        if term or trunc:
            return term, trunc, obs
    raise AssertionError("the game did not end")


# --------------------------------------------------------------------------
# 1. Gymnasium's registry: make and make_vec


@pytest.mark.parametrize("env_id,seats", [("mtgk/Lorwyn-v0", 2), ("mtgk/Lorwyn-FFA3-v0", 3),
                                          ("mtgk/Lorwyn-FFA4-v0", 4),
                                          ("mtgk/Lorwyn-2HG-v0", 4)])
def test_gymnasium_make_gives_an_env_with_its_spec(env_id: str, seats: int) -> None:
    env = gymnasium.make(env_id, seed=3, registry=REG)
    assert env.spec is not None and env.spec.id == env_id
    assert isinstance(env.unwrapped, MtgGymEnv)
    obs, info = env.reset(seed=3)
    assert obs["observation"].shape == (obs_size(seats),) and info["options"]
    assert len(env.unwrapped.table.header.players) == seats
    env.close()


def test_the_module_form_of_an_id_imports_the_registration() -> None:
    env = gymnasium.make("mtgk.env:mtgk/Lorwyn-2HG-v0", seed=1, registry=REG)
    assert env.spec is not None and env.spec.id == "mtgk/Lorwyn-2HG-v0"
    env.close()


def test_the_registered_ids_are_documented() -> None:
    text = (ROOT / "docs" / "agents.md").read_text(encoding="utf-8")
    for env_id in ENV_IDS:
        assert f"`{env_id}`" in text


def test_make_vec_sync_runs_with_autoreset_sampling_from_the_mask() -> None:
    """A vector env's autoreset loop samples every action from the mask it was given: the
    terminal observation's mask (one legal no-op, action 0) never leaves it without a
    choice, and the action given with it is ignored (the sub-env resets)."""
    envs = gymnasium.make_vec("mtgk/Lorwyn-v0", num_envs=2, vectorization_mode="sync",
                              registry=REG, max_turns=2)
    obs, _info = envs.reset(seed=11)
    space = envs.single_action_space
    ended = 0
    seeds = set()
    for _ in range(600):
        masks = obs["action_mask"]
        assert masks.shape == (2, MAX_ACTIONS) and (masks.sum(axis=1) >= 1).all()
        actions = np.array([space.sample(mask=m) for m in masks])
        obs, _r, term, trunc, _info = envs.step(actions)
        ended += int(np.logical_or(term, trunc).sum())
        seeds |= {e.unwrapped.table.header.seed for e in envs.envs}  # type: ignore[attr-defined]
        if ended >= 4:
            break
    assert ended >= 4  # (both sub-envs ended and were reset at least once)
    assert len(seeds) >= 4  # (each autoreset a fresh game: the sub-env's generator's next)
    envs.close()


def test_the_sub_envs_of_make_vec_play_different_games() -> None:
    envs = gymnasium.make_vec("mtgk/Lorwyn-v0", num_envs=2, vectorization_mode="sync",
                              registry=REG)
    envs.reset(seed=4)
    a, b = (e.unwrapped.table.header.seed for e in envs.envs)  # type: ignore[attr-defined]
    assert (a, b) == (4, 5)
    envs.close()


# --------------------------------------------------------------------------
# 2. action_masks()


def test_action_masks_is_the_observations_mask_for_maskable_ppo() -> None:
    env = gymnasium.make("mtgk/Lorwyn-v0", seed=2, registry=REG)
    obs, _ = env.reset(seed=2)
    rng = random.Random(2)
    for _ in range(40):
        masks = env.get_wrapper_attr("action_masks")()  # (how sb3-contrib's helpers ask)
        assert masks.dtype == np.bool_ and masks.shape == (MAX_ACTIONS,)
        assert np.array_equal(masks, obs["action_mask"].astype(bool))
        obs, _r, term, trunc, _i = env.step(pick(obs, rng))
        if term or trunc:
            break
    env.close()


# --------------------------------------------------------------------------
# 3. truncation at the turn limit


def test_the_turn_limit_truncates_and_a_win_terminates(tmp_path: Path) -> None:
    env = gym_env(decks=[OGRES, OGRES], seed=1, registry=REG, max_turns=3)
    env.reset(seed=1)
    term, trunc, obs = run_gym(env, 1)
    assert (term, trunc) == (False, True)
    assert env.table is not None and env.table.end_reason() == "turn-limit"
    path = tmp_path / "short.mtgk"
    env.save(path)
    code, out, err = run_mtgk("verify", path)
    assert code == 0 and out.startswith("OK:"), out + err
    full = gym_env(seed=4, registry=REG)
    full.reset(seed=4)
    term, trunc, _ = run_gym(full, 0)
    assert (term, trunc) == (True, False)


def test_the_aec_env_truncates_at_the_turn_limit() -> None:
    env = aec_env(decks=[OGRES, OGRES], seed=1, registry=REG, max_turns=3)
    env.reset(seed=1)
    rng = random.Random(1)
    while not (env.truncations.get(env.agent_selection)
               or env.terminations.get(env.agent_selection)):
        obs, *_ = env.last()
        env.step(pick(obs, rng))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    while env.agents:
        env.step(None)


# --------------------------------------------------------------------------
# 4. reset() without a seed: a fresh game, from the env's own generator


def test_reset_without_a_seed_starts_a_fresh_game_from_the_envs_generator() -> None:
    for make in (lambda: aec_env(seed=3, registry=REG), lambda: gym_env(seed=3, registry=REG)):
        env: Any = make()
        seeds = []
        for _ in range(3):
            env.reset()
            seeds.append(env.table.header.seed)
        assert seeds[0] == 3 and len(set(seeds)) == 3  # (the first: the seed it was made with)
        again: Any = make()
        for s in seeds:  # the same sequence from the same seed
            again.reset()
            assert again.table.header.seed == s
        env.reset(seed=3)  # reset(seed=s) reseeds: the sequence starts again
        env.reset()
        after = env.table.header.seed
        fresh: Any = make()
        fresh.reset(seed=3)
        fresh.reset()
        assert after == fresh.table.header.seed and after != 3
        logs = []
        for _ in range(2):
            env.reset()
            logs.append([e.event for e in env.table.game.log[:40]])
        assert logs[0] != logs[1]  # (another shuffle)


# --------------------------------------------------------------------------
# 5. seeds checked


def test_a_numpy_seed_works_and_saves(tmp_path: Path) -> None:
    env = aec_env(decks=[OGRES, OGRES], seed=0, registry=REG)
    env.reset(seed=np.int64(3))
    assert env.table is not None and type(env.table.header.seed) is int
    env.save(tmp_path / "np.mtgk")
    code, out, err = run_mtgk("verify", tmp_path / "np.mtgk")
    assert code == 3 and out.startswith("INCOMPLETE"), out + err  # (a game just begun)
    g = gym_env(seed=np.uint32(5), registry=REG)
    g.reset(seed=np.int32(6))
    assert g.table is not None and g.table.header.seed == 6
    # the largest seed: its kernel agents' seeds (seed * 2 + seat) still fit in the log
    big = gym_env(decks=[OGRES] * 2, variant="two-headed-giant", seed=0, registry=REG)
    big.reset(seed=2**62 - 1)
    big.save(tmp_path / "big.mtgk")
    code, out, err = run_mtgk("verify", tmp_path / "big.mtgk")
    assert code == 3 and out.startswith("INCOMPLETE"), out + err


@pytest.mark.parametrize("seed", [1.5, "7", True, -1, 2**62, 2**64, 3.0, np.float64(2)])
def test_a_seed_that_is_not_one_is_refused_in_one_line(seed: Any, tmp_path: Path) -> None:
    for make in (aec_env, gym_env):
        with pytest.raises(EnvError, match=r"^a seed is an integer from 0 to 2\*\*62 - 1, not"
                           ) as err:
            make(decks=[OGRES, OGRES], seed=seed, registry=REG)
        assert "\n" not in str(err.value)
        env: Any = make(decks=[OGRES, OGRES], seed=1, registry=REG)
        env.reset(seed=1)
        before = list(env.table.game.log)
        with pytest.raises(EnvError, match="^a seed is an integer") as err:
            env.reset(seed=seed)
        assert "\n" not in str(err.value)
        assert env.table.game.log == before  # (nothing played: the game before is kept)


# --------------------------------------------------------------------------
# 6. actions checked


@pytest.mark.parametrize("action", [0.99, 1.5, 1.0, "0", True, None, 32, -1, 10**30])
def test_a_gym_action_that_is_not_one_is_refused(action: Any) -> None:
    env = gym_env(decks=[OGRES, OGRES], seed=8, registry=REG)
    env.reset(seed=8)
    assert env.table is not None
    n = len(env.table.game.log)
    with pytest.raises(EnvError, match="action") as err:
        env.step(action)
    assert "\n" not in str(err.value) and len(env.table.game.log) == n


def test_numpy_integer_actions_are_accepted() -> None:
    env = gym_env(decks=[OGRES, OGRES], seed=8, registry=REG)
    obs, _ = env.reset(seed=8)
    env.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))
    aec = aec_env(decks=[OGRES, OGRES], seed=8, registry=REG)
    aec.reset(seed=8)
    aec.step(np.int32(0))
    aec.step(np.array(0))  # (a 0-d integer array, as some samplers give)


@pytest.mark.parametrize("action", [0.99, 1.5, "0", True])
def test_an_aec_action_that_is_not_one_is_refused(action: Any) -> None:
    env = aec_env(decks=[OGRES, OGRES], seed=8, registry=REG)
    env.reset(seed=8)
    assert env.table is not None
    n = len(env.table.game.log)
    with pytest.raises(EnvError, match="an action is an integer"):
        env.step(action)
    assert len(env.table.game.log) == n


def test_step_after_the_end_and_an_unknown_agent_are_env_errors() -> None:
    env = aec_env(decks=[OGRES, OGRES], seed=1, registry=REG, max_turns=2)
    with pytest.raises(EnvError, match="reset"):
        env.step(0)
    env.reset(seed=1)
    with pytest.raises(EnvError, match="no agent 'player_9': the agents are player_0, player_1"):
        env.observe("player_9")
    rng = random.Random(0)
    while env.agents:
        obs, _r, term, trunc, _i = env.last()
        env.step(None if term or trunc else pick(obs, rng))
    with pytest.raises(EnvError, match="after the game ended"):
        env.step(0)
    with pytest.raises(EnvError, match="after the game ended"):
        env.step(None)
    g = gym_env(decks=[OGRES, OGRES], seed=1, registry=REG, max_turns=2)
    with pytest.raises(EnvError, match="before reset"):
        g.step(0)
    g.reset(seed=1)
    run_gym(g, 1)
    with pytest.raises(EnvError, match="after the game ended"):
        g.step(0)


# --------------------------------------------------------------------------
# 7. the terminal observation's mask


def test_the_terminal_mask_is_one_no_op() -> None:
    env = gym_env(decks=[OGRES, OGRES], seed=1, registry=REG, max_turns=2)
    env.reset(seed=1)
    _term, _trunc, obs = run_gym(env, 1)
    assert obs["action_mask"].tolist() == [1] + [0] * (MAX_ACTIONS - 1)
    assert env.action_masks().tolist() == [True] + [False] * (MAX_ACTIONS - 1)
    aec = aec_env(decks=[OGRES, OGRES], seed=1, registry=REG, max_turns=2)
    aec.reset(seed=1)
    rng = random.Random(1)
    done = 0
    while aec.agents:
        obs, _r, term, trunc, _i = aec.last()
        if term or trunc:
            assert obs["action_mask"].tolist() == [1] + [0] * (MAX_ACTIONS - 1)
            if not done:
                with pytest.raises(EnvError, match="is done: its step takes None"):
                    aec.step(1)
            # (a done agent's step: None, or the mask's no-op, as a sampler gives it)
            aec.step(None if done else pick(obs, rng))
            done += 1
        else:
            aec.step(pick(obs, rng))
    assert done == 2


def test_check_env_still_passes_for_a_short_game() -> None:
    check_env(gym_env(decks=[OGRES, OGRES], seed=1, registry=REG, max_turns=2),
              skip_render_check=True)


# --------------------------------------------------------------------------
# 8. a stable card vocabulary

VOCABULARY_SIZES = {1: 370}
"""The size of each published version of kernel/data/card_vocabulary.txt: a new version
only appends names (add it here with its size; never change an older one's)."""


def test_the_vocabulary_is_published_versioned_and_covers_the_built_in_cards() -> None:
    version, names = card_vocabulary()
    assert version == VOCABULARY_VERSION and VOCABULARY_SIZES.get(version) == len(names), (
        "kernel/data/card_vocabulary.txt changed: append new cards at its end, raise its "
        "@version and add the new size to VOCABULARY_SIZES")
    assert len(set(names)) == len(names)
    assert names[:3] == ("Adder-Staff Boggart", "Aethersnipe", "Ajani Goldmane")
    assert names[-1] == "Zephyr Net"  # (version 1 ends here; a later one appends after it)
    builtin = load_registry(vocabulary_script().builtin_card_sets())
    missing = sorted(set(builtin.cards) - set(names))
    assert not missing, (f"built-in cards with no number: {missing[:5]} (append them with "
                         "python dev/card_vocabulary.py)")
    cards = card_numbers(REG)
    assert [cards[n] for n in names] == list(range(1, len(names) + 1))


def vocabulary_script() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("card_vocabulary",
                                                  ROOT / "dev" / "card_vocabulary.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_vocabulary_script_appends_and_raises_the_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
        ) -> None:
    script = vocabulary_script()
    lines = (ROOT / "kernel" / "data" / "card_vocabulary.txt").read_text("utf-8").splitlines()
    gone = [lines.pop(lines.index("Aethersnipe")), lines.pop()]  # (two cards not yet in)
    short = tmp_path / "vocabulary.txt"
    short.write_text("\n".join(lines) + "\n", "utf-8")
    monkeypatch.setattr(script, "FILE", short)
    assert script.main(["--check"]) == 1 and short.read_text("utf-8").count("\n") == len(lines)
    assert script.main([]) == 0
    out = short.read_text("utf-8").splitlines()
    assert out[:len(lines)] == [("@version 2" if x == "@version 1" else x) for x in lines]
    assert out[len(lines):] == sorted(gone)  # (appended at the end, in name order)
    assert "add 2: 370 to VOCABULARY_SIZES" in capsys.readouterr().out
    assert script.main(["--check"]) == 0


def test_a_pack_appends_card_numbers_and_never_renumbers_the_built_in_ones() -> None:
    from tests.test_pack_contract import ContractPack

    with_pack = load_registry(extra=[("contract", ContractPack())])
    assert "contract" in with_pack.sets, with_pack.failures
    base, more = card_numbers(REG), card_numbers(with_pack)
    assert {n: more[n] for n in base} == base  # (the built-in cards keep their numbers)
    added = sorted(set(more) - set(base))
    assert added and "Contract Bargain" in added
    assert sorted(more[n] for n in added) == list(range(len(base) + 1, len(more) + 1))
    env = gym_env(decks=[OGRES, OGRES], seed=1, registry=with_pack)
    info = env.metadata["card_vocabulary"]
    assert info["version"] == VOCABULARY_VERSION and info["size"] == len(card_vocabulary()[1])
    assert info["extension"] == added and info["other"] == len(more) + 1
    env.reset(seed=1)
    assert env.table is not None and env.table.cards == more
    plain = aec_env(decks=[OGRES, OGRES], seed=1, registry=REG)
    assert plain.metadata["card_vocabulary"]["extension"] == []


# --------------------------------------------------------------------------
# 9. policies at the table


class Counting:
    """A policy that plays the last legal action and counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, obs: dict[str, np.ndarray], mask: np.ndarray) -> Any:
        assert obs["observation"].shape[0] in (obs_size(2), obs_size(3), obs_size(4))
        assert np.array_equal(obs["action_mask"], mask) and mask.any()
        self.calls += 1
        return np.int64(np.flatnonzero(mask)[-1])


def test_a_policy_plays_every_other_seat_and_the_episode_verifies(tmp_path: Path) -> None:
    f = Counting()
    env = gym_env(decks=[OGRES, OGRES], seed=3, registry=REG, policies=f, max_turns=6)
    env.reset(seed=3)
    assert env.table is not None and env.table.header.meta["agents"] == [
        {"kind": "env"}, {"kind": "policy"}]
    run_gym(env, 3)
    assert f.calls > 0 and env.playing == {1: f} and env.league == {1: 0}
    env.save(tmp_path / "policy.mtgk")
    code, out, err = run_mtgk("verify", tmp_path / "policy.mtgk")
    assert code == 0 and out.startswith("OK:"), out + err
    check_env(gym_env(decks=[OGRES, OGRES], seed=3, registry=REG, policies=Counting()),
              skip_render_check=True)


def test_a_league_is_drawn_from_per_episode_by_the_envs_generator() -> None:
    league: list[Any] = [Counting(), Counting(), Counting()]
    env = gym_env(decks=[OGRES] * 2, variant="two-headed-giant", seed=2, seat=0,
                  registry=REG, policies={1: league, 3: league[0]}, max_turns=2)
    picks = []
    for _ in range(8):
        _obs, info = env.reset()
        assert info["league"] == env.league and env.league[3] == 0
        assert env.playing[1] is league[env.league[1]]
        picks.append(env.league[1])
    assert len(set(picks)) > 1  # (the league's policies take turns, by the generator)
    again = gym_env(decks=[OGRES] * 2, variant="two-headed-giant", seed=2, seat=0,
                    registry=REG, policies={1: league, 3: league[0]}, max_turns=2)
    assert [again.reset()[1]["league"][1] for _ in range(8)] == picks  # (seeded: the same)
    assert env.table is not None
    assert [a["kind"] for a in env.table.header.meta["agents"]] == [
        "env", "policy", "HeuristicAgent", "policy"]  # (the teammate: the kernel agent)
    league.append(Counting())  # a policy appended joins the league from the next episode
    seen = set()
    for _ in range(20):
        env.reset()
        seen.add(env.league[1])
    assert 3 in seen


def test_a_policy_seat_is_checked_and_a_policys_illegal_answer_is_an_env_error() -> None:
    with pytest.raises(EnvError, match="other than the learner's"):
        gym_env(decks=[OGRES, OGRES], registry=REG, policies={0: Counting()})
    with pytest.raises(EnvError, match="other than the learner's"):
        gym_env(decks=[OGRES, OGRES], registry=REG, policies={5: Counting()})
    with pytest.raises(EnvError, match="non-empty list"):
        gym_env(decks=[OGRES, OGRES], registry=REG, policies=[])
    with pytest.raises(EnvError, match="no seat 4"):
        gym_env(decks=[OGRES, OGRES], registry=REG, seat=4)
    env = gym_env(decks=[OGRES, OGRES], seed=1, seat=1, registry=REG,
                  policies=lambda obs, mask: 31)
    with pytest.raises(EnvError, match="the policy at seat 0 answered 31, not a legal action"):
        obs, _ = env.reset(seed=1)
        for _ in range(500):
            obs, *_ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_the_env_modules_doctests() -> None:
    import doctest
    import importlib
    import pkgutil

    import mtgk.env

    for mod in (mtgk.env, *(importlib.import_module(f"mtgk.env.{m.name}")
                            for m in pkgutil.iter_modules(mtgk.env.__path__))):
        assert doctest.testmod(mod).failed == 0, mod.__name__


def test_the_checkers_pass_on_games_cut_short_for_every_seating() -> None:
    """PettingZoo's api_test and Gymnasium's check_env on games that end truncated (the turn
    limit) for 2, 3, 4 seats and Two-Headed Giant, with a policy at the table too."""
    from pettingzoo.test import api_test

    for decks, variant in (([OGRES] * 2, ""), ([OGRES] * 3, ""), ([OGRES] * 4, ""),
                           ([OGRES] * 2, "two-headed-giant")):
        api_test(aec_env(decks=decks, variant=variant, seed=1, registry=REG, max_turns=2),
                 num_cycles=300)
        check_env(gym_env(decks=decks, variant=variant, seed=1, registry=REG,
                          max_turns=len(decks) * 2, policies={1: Counting()}),
                  skip_render_check=True)  # (a turn of its own at least: check_env asks)


def test_unseeded_sub_envs_of_make_vec_play_different_games_and_seeded_ones_repeat() -> None:
    envs = gymnasium.make_vec("mtgk/Lorwyn-v0", num_envs=2, vectorization_mode="sync",
                              registry=REG)
    envs.reset()
    a, b = (e.unwrapped.table.header.seed for e in envs.envs)  # type: ignore[attr-defined]
    assert a != b
    envs.close()
    made = [gymnasium.make("mtgk/Lorwyn-v0", seed=9, registry=REG) for _ in range(2)]
    for env in made:
        env.reset()
        env.reset()
    assert made[0].unwrapped.table.game.log == made[1].unwrapped.table.game.log


def test_a_registry_is_shared_not_copied() -> None:
    """gymnasium.make deep-copies the spec's arguments: the registry stays the one loaded
    (on the compiled kernel its cached objects could not be copied: make lost the spec)."""
    import copy
    assert copy.deepcopy(REG) is REG and copy.copy(REG) is not REG
    env = gymnasium.make("mtgk/Lorwyn-FFA3-v0", seed=3, registry=REG)
    env.reset(seed=3)
    again = gymnasium.make("mtgk/Lorwyn-FFA3-v0", seed=3, registry=REG)  # caches filled
    assert again.spec is not None and again.spec.id == "mtgk/Lorwyn-FFA3-v0"
    env.close()
    again.close()


def test_the_checkers_pass_with_history_masks_and_a_shaped_reward_for_every_seating() -> None:
    """api_test and check_env with the opt-in observation slices and a shaped reward on, for
    2, 3, 4 seats and Two-Headed Giant (the spaces say the longer vector)."""
    from pettingzoo.test import api_test

    def shaped(before: Any, after: Any, seat: int) -> float:
        return 0.01 * (after.players[seat].life - before.players[seat].life)

    def last(obs: dict[str, np.ndarray], mask: np.ndarray) -> Any:
        return int(np.flatnonzero(mask)[-1])

    opts: dict[str, Any] = {"history": 8, "masks": True, "reward": shaped}
    for decks, variant in (([OGRES] * 2, ""), ([OGRES] * 3, ""), ([OGRES] * 4, ""),
                           ([OGRES] * 2, "two-headed-giant")):
        aec = aec_env(decks=decks, variant=variant, seed=1, registry=REG, max_turns=2, **opts)
        n = len(aec.possible_agents)
        assert aec.observation_space("player_0")["observation"].shape == (  # type: ignore[index]
            obs_size(n, 8, True),)
        api_test(aec, num_cycles=300)
        check_env(gym_env(decks=decks, variant=variant, seed=1, registry=REG,
                          max_turns=len(decks) * 2, policies={1: last}, **opts),
                  skip_render_check=True)
