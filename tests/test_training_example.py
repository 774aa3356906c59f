"""The training example of docs/agents.md ("Training a policy") runs, short: examples/
training/train.py trains MaskablePPO on ``gymnasium.make("mtgk/Lorwyn-v0")`` a few
hundred steps (against the heuristic agent, and in self-play against a league), the same
seed trains the same network, and examples/training/evaluate.py plays the policy in both
seats against the heuristic and the search agent, its table and JSON agree, and every
game's log verifies with ``mtgk verify``.

It needs the ``train`` extra (PyTorch, sb3-contrib: .ci/run installs them); without it
the tests are skipped, saying so.
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest.importorskip("torch", reason="the training example needs PyTorch: pip install "
                    "torch==2.13.0, then pip install -e '.[train]' (docs/agents.md)")
pytest.importorskip("sb3_contrib", reason="the training example needs sb3-contrib: "
                    "pip install -e '.[train]' (docs/agents.md)")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "training"
SHORT = ["--steps", "256", "--rollout", "128"]


def run(script: str, *args: str | Path, cwd: Path) -> list[str]:
    """Run one of the example's scripts as the page does; its output's lines."""
    proc = subprocess.run([sys.executable, str(EXAMPLE / script), *map(str, args)], cwd=cwd,
                          text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=600)
    assert proc.returncode == 0, f"{script} exited {proc.returncode}:\n{proc.stdout}"
    assert "Traceback" not in proc.stdout, proc.stdout
    return proc.stdout.splitlines()


def load(script: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(script.removesuffix(".py"), EXAMPLE / script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    where = tmp_path_factory.mktemp("training")
    return where, run("train.py", *SHORT, "--out", "runs/policy.zip", cwd=where)


def parameters(path: Path) -> dict[str, object]:
    from sb3_contrib import MaskablePPO

    return MaskablePPO.load(path, device="cpu").policy.state_dict()


def test_wilson_interval() -> None:
    wilson = load("evaluate.py").wilson
    assert [round(x, 3) for x in wilson(7, 10)] == [0.397, 0.892]
    assert [round(x, 3) for x in wilson(0, 10)] == [0.0, 0.278]
    assert [round(x, 3) for x in wilson(10, 10)] == [0.722, 1.0]
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.slow  # (about a minute in all: three short trainings, games against the search agent)
def test_training_prints_a_line_per_rollout_and_saves_the_policy(
        trained: tuple[Path, list[str]]) -> None:
    import gymnasium
    from sb3_contrib import MaskablePPO

    import mtgk.env  # noqa: F401 - the registered ids

    where, lines = trained
    assert lines[0].startswith("training on mtgk/Lorwyn-v0 against heuristic: 256 steps, seed 0")
    rollouts = [ln for ln in lines if ln.startswith("steps ")]
    assert [int(ln.split()[1]) for ln in rollouts] == [128, 256]
    for ln in rollouts:
        m = re.search(r"episodes +(\d+) +won +(\d+) +lost +(\d+) +other +(\d+)", ln)
        assert m is not None, ln
        episodes, won, lost, other = map(int, m.groups())
        assert won + lost + other == episodes
    assert re.fullmatch(r"saved runs/policy\.zip after 256 steps in \d+ s", lines[-1])
    model = MaskablePPO.load(where / "runs" / "policy.zip", device="cpu")
    env = gymnasium.make("mtgk/Lorwyn-v0", seed=5)
    assert model.observation_space == env.observation_space
    obs, _ = env.reset()
    mask = env.get_wrapper_attr("action_masks")()
    action, _ = model.predict(obs, action_masks=mask, deterministic=True)
    assert mask[int(action)]  # it answers a legal action
    env.close()


@pytest.mark.slow
def test_the_same_seed_trains_the_same_policy(trained: tuple[Path, list[str]],
                                              tmp_path: Path) -> None:
    import torch

    where, lines = trained
    again = run("train.py", *SHORT, "--out", "again.zip", cwd=tmp_path)

    def games(out: list[str]) -> list[str]:  # (the rollout lines without the speed)
        return [re.sub(r"\d+ steps/s", "", ln) for ln in out if ln.startswith("steps ")]

    assert games(again) == games(lines)
    first, second = parameters(where / "runs" / "policy.zip"), parameters(tmp_path / "again.zip")
    assert first.keys() == second.keys()
    assert all(torch.equal(first[k], second[k]) for k in first)  # type: ignore[arg-type]


@pytest.mark.slow
def test_self_play_grows_the_league(tmp_path: Path) -> None:
    lines = run("train.py", *SHORT, "--opponent", "self", "--snapshot-every", "128",
                "--out", "self.zip", cwd=tmp_path)
    assert lines[0].startswith("training on mtgk/Lorwyn-v0 against self")
    rollouts = [ln for ln in lines if ln.startswith("steps ")]
    # the league: the random starter, then a snapshot of the learner every 128 steps
    assert [ln.split("league ")[1] for ln in rollouts] == ["2", "3"]
    assert (tmp_path / "self.zip").exists()


@pytest.mark.slow
def test_evaluation_in_both_seats_with_verified_logs(trained: tuple[Path, list[str]]) -> None:
    where, _ = trained
    lines = run("evaluate.py", "runs/policy.zip", "--games", "2", "--search-games", "1",
                "--simulations", "4", "--logs", "runs/eval", "--json", "runs/eval.json",
                cwd=where)
    table = json.loads((where / "runs" / "eval.json").read_text())["rows"]
    assert [(r["opponent"], r["seat"], r["games"]) for r in table] == [
        ("heuristic", 0, 2), ("heuristic", 1, 2), ("mcts", 0, 1), ("mcts", 1, 1)]
    wilson = load("evaluate.py").wilson
    for r in table:
        assert r["won"] + r["drawn"] + r["lost"] == r["games"]
        assert r["ci95"] == list(wilson(r["won"], r["games"]))
        assert r["ci95"][0] <= r["win_rate"] <= r["ci95"][1]
    printed = [ln.split() for ln in lines[1:5]]
    assert [[c for c in row[:6]] for row in printed] == [
        [r["opponent"], str(r["seat"]), str(r["games"]), str(r["won"]), str(r["drawn"]),
         str(r["lost"])] for r in table]
    assert lines[-1].startswith("6 games in ")
    logs = sorted((where / "runs" / "eval").glob("*.mtgk"))
    assert [p.name for p in logs] == [
        "heuristic-seat0-0.mtgk", "heuristic-seat0-1.mtgk", "heuristic-seat1-0.mtgk",
        "heuristic-seat1-1.mtgk", "mcts-seat0-0.mtgk", "mcts-seat1-0.mtgk"]
    for log in logs:
        proc = subprocess.run([sys.executable, "-m", "mtgk", "verify", str(log)], text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        assert proc.returncode == 0, f"{log.name}: {proc.stdout}"
        assert proc.stdout.startswith("OK: "), proc.stdout
