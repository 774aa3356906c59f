"""The vector environment (issue 27): N in-process games stepped together, observations in
preallocated buffers, autoreset NEXT_STEP, the same observations as N single environments
with the same seeds (byte for byte), masks valid on every step, logs that verify, 3-4
seats and Two-Headed Giant."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from mtgk.agents import RandomAgent
from mtgk.cards.loading import load_registry
from mtgk.env import (
    MAX_ACTIONS,
    EnvError,
    MtgVectorEnv,
    aec_env,
    encode_board,
    gym_env,
    obs_size,
    vector_env,
)
from mtgk.env.observation import BoardSight
from mtgk.log import events as ev
from mtgk.menus import SeatView
from tests.conftest import run_mtgk

REG = load_registry()


def sample(masks: np.ndarray, rng: random.Random) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m).tolist()) for m in masks])


def single_run(n: int, seed: int, steps: int, **kwargs: Any) -> list[tuple[Any, ...]]:
    """N single environments ``gym_env(seed=seed + i)`` stepped side by side as a vector
    env with autoreset NEXT_STEP would step them: what each step gives, per game."""
    envs = [gym_env(seed=seed + i, registry=REG, **kwargs) for i in range(n)]
    rng = random.Random(seed)
    obs = [e.reset(seed=seed + i)[0] for i, e in enumerate(envs)]
    done = [False] * n
    out: list[tuple[Any, ...]] = [tuple((o["observation"].tobytes(), o["action_mask"].tobytes(),
                                         0.0, False, False) for o in obs)]
    for _ in range(steps):
        acts = sample(np.stack([o["action_mask"] for o in obs]), rng)
        row = []
        for i, e in enumerate(envs):
            if done[i]:
                obs[i], _info = e.reset()
                r, term, trunc = 0.0, False, False
            else:
                obs[i], r, term, trunc, _info = e.step(int(acts[i]))
            done[i] = term or trunc
            row.append((obs[i]["observation"].tobytes(), obs[i]["action_mask"].tobytes(),
                        float(r), bool(term), bool(trunc)))
        out.append(tuple(row))
    return out


def vector_run(n: int, seed: int, steps: int, **kwargs: Any) -> list[tuple[Any, ...]]:
    envs = vector_env(n, seed=seed, registry=REG, **kwargs)
    rng = random.Random(seed)
    obs, _ = envs.reset(seed=seed)

    def rows(r: np.ndarray, t: np.ndarray, u: np.ndarray) -> tuple[Any, ...]:
        return tuple((obs["observation"][i].tobytes(), obs["action_mask"][i].tobytes(),
                      float(r[i]), bool(t[i]), bool(u[i])) for i in range(n))

    zero = np.zeros(n)
    out = [rows(zero, zero.astype(bool), zero.astype(bool))]
    for _ in range(steps):
        obs, r, t, u, _ = envs.step(sample(obs["action_mask"], rng))
        out.append(rows(r, t, u))
    envs.close()
    return out


# --------------------------------------------------------------------------
# buffers, spaces, registration


def test_the_buffers_are_preallocated_written_in_place_with_their_shapes_and_dtypes() -> None:
    envs = vector_env(3, seed=5, registry=REG)
    assert isinstance(envs, gymnasium.vector.VectorEnv)
    obs, infos = envs.reset(seed=5)
    assert infos == {}
    size = obs_size(2)
    assert obs["observation"].shape == (3, size) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (3, MAX_ACTIONS) and obs["action_mask"].dtype == np.int8
    assert obs["observation"] is envs.obs and obs["action_mask"] is envs.masks
    assert envs.observation_space["observation"].shape == (3, size)
    assert envs.single_observation_space["observation"].shape == (size,)
    assert envs.action_space.shape == (3,) and envs.single_action_space.n == MAX_ACTIONS
    assert obs in envs.observation_space
    masks = envs.action_masks()
    assert masks.dtype == np.bool_ and masks.shape == (3, MAX_ACTIONS)
    rng = random.Random(0)
    for _ in range(20):
        out, r, t, u, _i = envs.step(sample(obs["action_mask"], rng))
        assert out["observation"] is envs.obs and out["action_mask"] is envs.masks
        assert r.dtype == np.float64 and t.dtype == np.bool_ and u.dtype == np.bool_
        assert r.shape == t.shape == u.shape == (3,)
        assert np.array_equal(envs.action_masks(), envs.masks.astype(bool))
    envs.close()


def test_copy_returns_copies_and_infos_gathers_the_games_infos() -> None:
    envs = vector_env(2, seed=1, registry=REG, copy=True, infos=True)
    obs, infos = envs.reset(seed=1)
    assert obs["observation"] is not envs.obs and np.array_equal(obs["observation"], envs.obs)
    assert infos["_options"].all() and len(infos["options"][0]) >= 1
    obs2, *_rest, infos = envs.step(sample(obs["action_mask"], random.Random(1)))
    assert obs2["observation"] is not obs["observation"]
    envs.close()


@pytest.mark.parametrize("env_id,seats", [("mtgk/Lorwyn-v0", 2), ("mtgk/Lorwyn-FFA3-v0", 3),
                                          ("mtgk/Lorwyn-FFA4-v0", 4),
                                          ("mtgk/Lorwyn-2HG-v0", 4)])
def test_make_vec_vector_entry_point_gives_it_for_every_id(env_id: str, seats: int) -> None:
    envs = gymnasium.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point",
                              registry=REG, max_turns=3)
    assert isinstance(envs, MtgVectorEnv) and envs.num_envs == 2
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert envs.spec is not None and envs.spec.id == env_id
    obs, _ = envs.reset(seed=7)
    assert obs["observation"].shape == (2, obs_size(seats))
    assert [len(e.table.header.players) for e in envs.envs] == [seats, seats]
    assert [e.table.header.seed for e in envs.envs] == [7, 8]
    rng = random.Random(7)
    ended = 0
    for _ in range(400):
        obs, _r, t, u, _i = envs.step(sample(obs["action_mask"], rng))
        ended += int((t | u).sum())
    assert ended >= 2
    envs.close()


# --------------------------------------------------------------------------
# the same games as single environments, byte for byte


@pytest.mark.parametrize("kwargs", [
    {"max_turns": 4},
    {"max_turns": 3, "history": 6, "masks": True},
    {"max_turns": 3, "variant": "two-headed-giant", "opponent": RandomAgent},
    {"max_turns": 3, "decks": ["Lorwyn Giants & Treefolk", "Lorwyn Kithkin & Faerie Flyers",
                               "Lorwyn Giants & Treefolk"]},
])
def test_the_observations_are_n_single_envs_with_the_same_seeds_byte_for_byte(
        kwargs: dict[str, Any]) -> None:
    steps = 120
    single = single_run(3, 40, steps, **kwargs)
    vec = vector_run(3, 40, steps, **kwargs)
    assert len(single) == len(vec) == steps + 1
    for k, (a, b) in enumerate(zip(single, vec, strict=True)):
        assert a == b, f"step {k} differs"
    ends = sum(row[3] or row[4] for step in vec for row in step)
    assert ends >= 3  # (the comparison went through autoresets)


# The digest of the single environments' observations of `digest_run` below, taken with the
# kernel before the vector environment (and its cheaper board) existed: the vector
# environment must give the observations the single environment gave then.
DIGEST_BEFORE = "7c5141dd36ed17e8bfbbf608f626d48aaab7b7e95e44379158da2504e30461d8"


def digest_run() -> str:
    h = hashlib.sha256()
    for kwargs in ({"max_turns": 5}, {"max_turns": 4, "history": 8, "masks": True},
                   {"max_turns": 4, "variant": "two-headed-giant"}):
        for step in vector_run(2, 11, 150, **kwargs):
            h.update(repr(step).encode())
    return h.hexdigest()


def test_the_observations_are_the_single_envs_of_before() -> None:
    assert digest_run() == DIGEST_BEFORE


def test_the_board_sight_sees_what_a_full_perspective_sees() -> None:
    """The board encoded from the game's own state with a :class:`BoardSight` is the board
    encoded from a full perspective's folded state (what the environment did before)."""
    compared = revealed = 0
    clash = ["Mountain"] * 18 + ["Adder-Staff Boggart"] * 22  # (clash: Revealed events)
    for variant, decks in (("", None), ("two-headed-giant", None), ("", [
            "Lorwyn Giants & Treefolk", "Lorwyn Kithkin & Faerie Flyers",
            "Lorwyn Giants & Treefolk"]), ("", [clash, clash])):
        for g in range(2):
            env = aec_env(decks=decks, variant=variant, seed=g, registry=REG, max_turns=10)
            env.reset(seed=g)
            t = env.table
            assert t is not None
            view = SeatView(t.seats)
            sights = [BoardSight(i, t.seats) for i in range(t.seats)]
            rng = random.Random(g)
            while env.agents:
                obs, _r, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                view.catch_up(t.game.log)
                for s in range(t.seats):
                    sights[s].catch_up(t.game.log)
                    a = np.zeros(t.size, np.float32)
                    b = np.zeros(t.size, np.float32)
                    encode_board(view.state, view.seen[s], t.game.chars, t.cards, a, t.where)
                    encode_board(t.game.state, sights[s], t.game.chars, t.cards, b, t.where)
                    assert np.array_equal(a, b)
                    compared += 1
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]).tolist())))
            revealed += sum(isinstance(e.event, ev.Revealed) for e in t.game.log)
    assert compared > 500 and revealed > 5


# --------------------------------------------------------------------------
# autoreset, masks, seeds


def test_autoreset_is_next_step_the_terminal_mask_a_no_op_and_the_next_step_a_new_game() -> None:
    envs = vector_env(2, seed=3, registry=REG, max_turns=2, infos=True)
    obs, _ = envs.reset(seed=3)
    rng = random.Random(3)
    seen_end = 0
    for _ in range(500):
        masks = obs["action_mask"]
        assert (masks.sum(axis=1) >= 1).all()
        before = [e.table for e in envs.envs]
        obs, r, t, u, infos = envs.step(sample(masks, rng))
        assert "invalid_action" not in infos  # (sampling from the mask never picks an illegal one)
        for i in np.flatnonzero(t | u):
            seen_end += 1
            assert obs["action_mask"][i].tolist() == [1] + [0] * (MAX_ACTIONS - 1)
            assert envs.envs[i].table is before[i] and envs.envs[i].table.over
            assert envs.autoreset[i]
            old_seed = envs.envs[i].table.header.seed
            # the next step ignores the action given (even one the mask rules out)
            acts = sample(obs["action_mask"], rng)
            acts[i] = 5
            obs, r2, t2, u2, infos2 = envs.step(acts)
            assert r2[i] == 0 and not t2[i] and not u2[i] and not envs.autoreset[i]
            assert not envs.envs[i].table.over and envs.envs[i].table.header.seed != old_seed
            assert obs["action_mask"][i].sum() >= 1 and "invalid_action" not in infos2
            break
        if seen_end >= 3:
            break
    assert seen_end >= 3
    envs.close()


def test_the_masks_are_the_legal_actions_on_every_step_autoresets_included() -> None:
    envs = vector_env(4, seed=8, registry=REG, max_turns=3)
    obs, _ = envs.reset(seed=8)
    rng = random.Random(8)
    for _ in range(300):
        for i, e in enumerate(envs.envs):
            assert e.table is not None
            legal = e.table.legal() if not e.table.over else [0]
            assert np.flatnonzero(obs["action_mask"][i]).tolist() == legal
        obs, *_ = envs.step(sample(obs["action_mask"], rng))
    envs.close()


def test_seeds_as_sync_vector_env_seeds_them() -> None:
    envs = vector_env(3, seed=20, registry=REG)
    envs.reset()
    assert [e.table.header.seed for e in envs.envs] == [20, 21, 22]
    envs.reset(seed=4)
    assert [e.table.header.seed for e in envs.envs] == [4, 5, 6]
    envs.reset(seed=[9, None, np.int64(2)])
    seeds = [e.table.header.seed for e in envs.envs]
    assert seeds[0] == 9 and seeds[2] == 2
    envs.reset()
    again = [e.table.header.seed for e in envs.envs]
    assert again != [4, 5, 6]
    with pytest.raises(EnvError, match="a seed is an integer"):
        envs.reset(seed=1.5)
    with pytest.raises(EnvError, match="3 seeds"):
        envs.reset(seed=[1, 2])
    with pytest.raises(EnvError, match="3 actions"):
        envs.step([0, 0])
    with pytest.raises(EnvError, match="an action is an integer"):
        envs.step(np.array([0.5, 0.0, 0.0]))
    with pytest.raises(EnvError, match="num_envs"):
        vector_env(0)
    envs.close()


def test_an_episode_saved_from_the_vector_env_verifies(tmp_path: Path) -> None:
    """Each game saved at its terminal step (before the autoreset starts the next) is an
    ordinary log that ``mtgk verify`` accepts."""
    envs = vector_env(2, seed=2, registry=REG, max_turns=3)
    obs, _ = envs.reset(seed=2)
    rng = random.Random(2)
    saved: dict[int, Path] = {}
    for _ in range(1000):
        obs, _r, t, u, _i = envs.step(sample(obs["action_mask"], rng))
        for i in np.flatnonzero(t | u):
            if int(i) not in saved:
                assert envs.envs[i].table is not None and envs.envs[i].table.over
                saved[int(i)] = tmp_path / f"game{i}.mtgk"
                envs.save(int(i), saved[int(i)])
        if len(saved) == 2:
            break
    assert sorted(saved) == [0, 1]
    for path in saved.values():
        code, out, err = run_mtgk("verify", path)
        assert code == 0 and out.startswith("OK:"), out + err
    envs.close()


def test_the_stepper_answers_the_callers_trivial_decisions_itself_when_told() -> None:
    """``Stepper(..., auto=)`` answers in the engine what ``auto`` answers (recorded as the
    caller's answers): the caller is asked only the rest, and the game is the one a caller
    answering the trivial decisions alike plays, event for event."""
    from mtgk.env.table import NO_ANSWER, trivial_answer
    from mtgk.stepper import Stepper

    env = gym_env(seed=6, registry=REG)
    env.reset(seed=6)
    assert env.table is not None
    header = env.table.header
    auto = Stepper(REG, header, [None, RandomAgent(1)], auto=trivial_answer)
    plain = Stepper(REG, header, [None, RandomAgent(1)])
    chooser = [RandomAgent(7), RandomAgent(7)]
    asked = [0, 0]
    for k, st in enumerate((auto, plain)):
        while st.decision is not None:
            d = st.decision
            quick = trivial_answer(d)
            if k == 0:
                assert quick is NO_ANSWER  # (the trivial ones never reach the caller)
            asked[k] += 1
            st.answer(chooser[k].decide(st.game, d) if quick is NO_ANSWER else quick)
    assert 0 < asked[0] < asked[1]
    assert auto.answers == plain.answers and auto.callers == plain.callers
    assert [e.event for e in auto.game.log] == [e.event for e in plain.game.log]
